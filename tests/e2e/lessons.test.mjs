// Lesson mode, clicked as a learner would: open the list, start a lesson, read each step
// (what it asks to look at is outlined), predict — once wrong, once right — and reach free
// play; the list remembers the lesson as done, after a reload too. Screenshots in
// tests/e2e/output/lesson-*.png.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { browserSuite, screenshot } from "./helpers.mjs";

const suite = browserSuite(before, after);

async function startFirstLesson(page) {
  if ((await page.locator("#lessons").count()) === 0) await page.click("#lessons-toggle");
  const first = page.locator("#lessons li[data-lesson]").first();
  const id = await first.getAttribute("data-lesson");
  await first.locator("button.start-lesson").click();
  await page.locator("#lesson").waitFor();
  return id;
}

/**
 * Goes through the lesson, answering question k with `pick(k, choices)`; returns, per
 * question, the choice made, the correct one, the verdict and the explanation.
 */
async function walk(page, pick) {
  const answers = [];
  for (let i = 0; i < 80; i++) {
    if ((await page.locator("#lesson .lesson-free").count()) > 0) break;
    const choices = page.locator("#lesson .choice");
    if ((await choices.count()) > 0 && (await choices.first().isEnabled())) {
      // Next waits for the prediction.
      assert.equal(await page.locator("#lesson-next").isDisabled(), true);
      const index = pick(answers.length, await choices.count());
      await choices.nth(index).click();
      await page.locator("#lesson .verdict").waitFor();
      const correct = Number(await page.locator("#lesson .choice.correct").getAttribute("data-choice"));
      answers.push({
        index,
        correct,
        verdict: await page.locator("#lesson .verdict").innerText(),
        explain: await page.locator("#lesson .explain").innerText(),
      });
      await screenshot(page, index === correct ? "lesson-right" : "lesson-wrong");
      continue;
    }
    const before = await page.locator("#lesson .lesson-progress").innerText();
    await page.click("#lesson-next");
    await page.waitForFunction((b) => document.querySelector("#lesson .lesson-progress")?.textContent !== b || document.querySelector("#lesson .lesson-free"), before);
  }
  return answers;
}

test("the lessons are fetched as files when the list first opens, not downloaded with the page", async (t) => {
  const page = await suite.open(t);
  const fetched = [];
  page.on("request", (r) => {
    if (/\/lessons\/[\w-]+\.json$/.test(r.url())) fetched.push(new URL(r.url()).pathname);
  });
  await page.locator(".panel.topics").waitFor();
  assert.deepEqual(fetched, [], "nothing fetched before the list opens");
  await page.click("#lessons-toggle");
  await page.locator("#lessons li[data-lesson]").nth(12).waitFor();
  assert.equal(fetched.length, 13);
  assert.equal(await page.locator("#lessons .lesson-number").first().innerText(), "1");
  // Closing and opening again does not fetch them again.
  await page.click("#lessons-close");
  await page.click("#lessons-toggle");
  await page.locator("#lessons li[data-lesson]").first().waitFor();
  assert.equal(fetched.length, 13);
});

test("a lesson from start to free play: one prediction wrong, one right, checked by the simulation; progress remembered", async (t) => {
  const page = await suite.open(t);
  const id = await startFirstLesson(page);
  // The first step speaks, and says where we are.
  assert.match(await page.locator("#lesson .lesson-progress").innerText(), /^step 1 of \d+$/);
  assert.ok((await page.locator("#lesson .lesson-say").innerText()).length > 20);
  await screenshot(page, "lesson-start");
  // A first pass learns which choices the simulation makes right.
  const blind = await walk(page, () => 0);
  assert.ok(blind.length >= 2, "the lesson asks at least two questions");
  assert.match(await page.locator("#lesson .lesson-free").innerText(), /Free play:/);
  // Again: the first prediction wrong, the second right.
  await page.click("#lesson-close");
  await startFirstLesson(page);
  const run = await walk(page, (k, n) => (k === 0 ? (blind[0].correct + 1) % n : blind[k].correct));
  assert.notEqual(run[0].index, run[0].correct);
  assert.match(run[0].verdict, /^✗ Not this time — the simulation says: /);
  assert.ok(run[0].explain.length > 10, "the answer is explained");
  assert.equal(run[1].index, run[1].correct);
  assert.match(run[1].verdict, /^✓ Right/);
  // The simulation gives the same answers every time.
  assert.deepEqual(run.map((a) => a.correct), blind.map((a) => a.correct));
  await screenshot(page, "lesson-free-play");
  // Free play: the run goes on from where the lesson left it.
  await page.click("#lesson-close");
  assert.equal(await page.locator("#lesson").count(), 0);
  // The list shows it done, after a reload too.
  await page.reload();
  await page.locator("#app-root").waitFor();
  await page.click("#lessons-toggle");
  await page.waitForFunction((id) => document.querySelector(`#lessons li[data-lesson="${id}"] .lesson-status`)?.textContent === "✓ done", id);
});

test("what a step asks to look at is outlined on the page", async (t) => {
  const page = await suite.open(t);
  await startFirstLesson(page);
  for (let i = 0; i < 40; i++) {
    const css = await page.locator("#lesson-focus").textContent();
    if (css.length > 0) {
      // Every selector of the outline style matches something on the page.
      const selectors = css.replace(/\{[^}]*\}/, "").split(",").map((s) => s.trim()).filter(Boolean);
      for (const s of selectors) {
        // A partition outline names the topic row and the replica cards; one of them shows.
        if (s.includes("#partition-") || s.includes("[data-partition=")) continue;
        assert.ok((await page.locator(s).count()) > 0, `nothing on the page matches ${s}`);
      }
      // The first thing it outlines was scrolled into view, below the lesson panel (which
      // stays on screen).
      const inView = await page.evaluate((list) => {
        const el = list.map((s) => document.querySelector(s)).find(Boolean);
        const panel = document.querySelector("#lesson").getBoundingClientRect();
        const r = el?.getBoundingClientRect();
        return { el: !!el, top: r?.top, bottom: r?.bottom, vh: window.innerHeight, panelTop: panel.top, panelBottom: panel.bottom };
      }, selectors);
      assert.ok(inView.el, "an outlined element exists");
      await page.waitForFunction((list) => {
        const el = list.map((s) => document.querySelector(s)).find(Boolean);
        const r = el.getBoundingClientRect();
        return r.bottom > 0 && r.top < window.innerHeight;
      }, selectors);
      assert.ok(inView.panelTop >= 0 && inView.panelTop < inView.vh / 2, `the lesson panel is on screen: ${JSON.stringify(inView)}`);
      await screenshot(page, "lesson-focus");
      return;
    }
    const choices = page.locator("#lesson .choice");
    if ((await choices.count()) > 0 && (await choices.first().isEnabled())) await choices.first().click();
    else if ((await page.locator("#lesson-next").count()) > 0) await page.click("#lesson-next");
    else break;
  }
  assert.fail("no step asked to look at anything");
});

test("in Chinese the lesson speaks Chinese", async (t) => {
  const page = await suite.open(t, "?lang=zh");
  await page.click("#lessons-toggle");
  await page.locator("#lessons li[data-lesson]").first().locator("button.start-lesson").click();
  await page.locator("#lesson").waitFor();
  assert.match(await page.locator("#lesson .lesson-progress").innerText(), /^第 1 步，共 \d+ 步$/);
  assert.match(await page.locator("#lesson .lesson-say").innerText(), /[\u4e00-\u9fff]/);
});

test("no console errors, page errors or CSP violations", () => suite.assertNoProblems());
