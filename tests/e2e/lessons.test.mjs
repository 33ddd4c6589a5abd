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
 * Goes through the lesson, answering the first question with `pick(choices, attempt)` and
 * later ones with choice 0; returns what happened at the first question.
 */
async function walk(page, pick) {
  let first = null;
  for (let i = 0; i < 80; i++) {
    if ((await page.locator("#lesson .lesson-free").count()) > 0) break;
    const choices = page.locator("#lesson .choice");
    if ((await choices.count()) > 0 && (await choices.first().isEnabled())) {
      const n = await choices.count();
      const index = first === null ? pick(n) : 0;
      // Next waits for the prediction.
      assert.equal(await page.locator("#lesson-next").isDisabled(), true);
      await choices.nth(index).click();
      await page.locator("#lesson .verdict").waitFor();
      const correct = await page.locator("#lesson .choice.correct").getAttribute("data-choice");
      const verdict = await page.locator("#lesson .verdict").innerText();
      if (first === null) {
        first = { index, correct: Number(correct), verdict, explain: await page.locator("#lesson .explain").innerText() };
        await screenshot(page, index === Number(correct) ? "lesson-right" : "lesson-wrong");
      }
      continue;
    }
    const before = await page.locator("#lesson .lesson-progress").innerText();
    await page.click("#lesson-next");
    await page.waitForFunction((b) => document.querySelector("#lesson .lesson-progress")?.textContent !== b || document.querySelector("#lesson .lesson-free"), before);
  }
  return first;
}

test("a lesson from start to free play: predictions checked by the simulation, progress remembered", async (t) => {
  const page = await suite.open(t);
  const id = await startFirstLesson(page);
  // The first step speaks, and says where we are.
  assert.match(await page.locator("#lesson .lesson-progress").innerText(), /^step 1 of \d+$/);
  assert.ok((await page.locator("#lesson .lesson-say").innerText()).length > 20);
  await screenshot(page, "lesson-start");
  // Blind first pass: learn which choice the simulation makes right.
  const blind = await walk(page, () => 0);
  assert.ok(blind, "the lesson asks at least one question");
  assert.match(await page.locator("#lesson .lesson-free").innerText(), /Free play:/);
  // Again, predicting wrong.
  await page.click("#lesson-close");
  await startFirstLesson(page);
  const wrong = await walk(page, (n) => (blind.correct + 1) % n);
  assert.notEqual(wrong.index, wrong.correct);
  assert.match(wrong.verdict, /^✗ Not this time — the simulation says: /);
  assert.ok(wrong.explain.length > 10, "the answer is explained");
  // And right.
  await page.click("#lesson-close");
  await startFirstLesson(page);
  const right = await walk(page, () => blind.correct);
  assert.equal(right.index, right.correct);
  assert.match(right.verdict, /^✓ Right/);
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
