// Time travel in the page, as a learner uses it: step forward, go back with ⟲ (or ←) and
// see exactly the earlier view again; go back past a consumer you added and forward again
// to see it come back (the same future), then do something new to branch; jump to the
// next and previous rebalance; drag the scrubber. Screenshot: tests/e2e/output/timetravel.png.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { atStart, browserSuite, clickAndWait, runTo, screenshot } from "./helpers.mjs";

const suite = browserSuite(before, after);

async function open(t) {
  const page = await suite.open(t);
  await atStart(page);
  return page;
}

/** What the learner sees of the run: the clock, the topic, the groups, the event log. */
async function view(page) {
  return page.evaluate(() =>
    ["#sim-time", ".panel.topics", ".panel.groups", ".events"]
      .map((s) => document.querySelector(s)?.innerText ?? "")
      .join("\n----\n"),
  );
}

const click = (page, selector) => clickAndWait(page, selector);

/** Presses a key on the page and waits until the run has moved (events or clock). */
async function press(page, key) {
  const before = await page.evaluate(() => [document.querySelector(".clock .muted")?.textContent, document.querySelector("#sim-time")?.dataset.ms]);
  await page.keyboard.press(key);
  await page.waitForFunction(
    ([events, ms]) => document.querySelector(".clock .muted")?.textContent !== events || document.querySelector("#sim-time")?.dataset.ms !== ms,
    before,
  );
}

test("⟲ restores the exact earlier view, step by step", async (t) => {
  const page = await open(t);
  const seen = [];
  for (let i = 0; i < 25; i++) {
    await click(page, "#step");
    seen.push(await view(page));
  }
  for (let i = 23; i >= 10; i--) {
    await click(page, "#step-back");
    assert.equal(await view(page), seen[i], `after going back to step ${i + 1}`);
  }
  // The keyboard does the same: ← back, → forward.
  await page.locator("#app-root").focus();
  await press(page, "ArrowLeft");
  assert.equal(await view(page), seen[9]);
  await press(page, "ArrowRight");
  assert.equal(await view(page), seen[10]);
});

test("going back past a command and forward again replays it; something new branches", async (t) => {
  const page = await open(t);
  await runTo(page, 3);
  for (let i = 0; i < 3; i++) await click(page, "#step");
  const card = page.locator('[data-group="ConsumerGroup01"]');
  await card.locator("button.add-member").click();
  const newcomer = card.locator(".member").last();
  const name = await newcomer.getAttribute("data-client");
  for (let i = 0; i < 5; i++) await click(page, "#step");
  const withIt = await view(page);
  for (let i = 0; i < 8; i++) await click(page, "#step-back");
  assert.equal(await card.locator(`[data-client="${name}"]`).count(), 0, "before it was added");
  for (let i = 0; i < 8; i++) await click(page, "#step");
  assert.equal(await card.locator(`[data-client="${name}"]`).count(), 1, "the same future: it is added again");
  assert.equal(await view(page), withIt);
  // Back again, then crash a consumer instead: the added one never comes.
  for (let i = 0; i < 8; i++) await click(page, "#step-back");
  await card.locator(".member").first().locator(".crash-member").click();
  for (let i = 0; i < 10; i++) await click(page, "#step");
  assert.equal(await card.locator(`[data-client="${name}"]`).count(), 0, "a new branch");
});

test("jump to the next and previous rebalance, and the scrubber", async (t) => {
  const page = await open(t);
  await click(page, "#jump-next-rebalance");
  const first = await page.locator("#sim-time").innerText();
  assert.match(await page.locator(".events").innerText(), /starts a rebalance/);
  // Past it, then back to it.
  for (let i = 0; i < 30; i++) await click(page, "#step");
  await click(page, "#jump-prev-rebalance");
  assert.equal(await page.locator("#sim-time").innerText(), first);
  // The scrubber goes to a step of the run.
  await page.locator("#scrubber").fill("5");
  await page.waitForFunction(() => document.querySelector("#scrubber")?.value === "5");
  await screenshot(page, "timetravel");
  // Nothing earlier than the start.
  await page.locator("#scrubber").fill("0");
  await page.waitForFunction(() => document.querySelector("#sim-time")?.dataset.ms === "0");
  await page.click("#jump-prev-rebalance");
  assert.match(await page.locator("#notice").innerText(), /No earlier rebalance/);
});

test("the event log filters by kind and name, and a click goes to that moment", async (t) => {
  const page = await open(t);
  await runTo(page, 4);
  await page.fill("#event-entity", "Consumer2");
  await page.waitForFunction(() => [...document.querySelectorAll("#event-log li[data-seq]")].length > 0);
  const lines = await page.locator("#event-log li[data-seq] .what").allInnerTexts();
  assert.ok(lines.length > 0 && lines.every((l) => l.includes("Consumer2")), lines.join("\n"));
  await page.selectOption("#event-kind", "group");
  const groupLines = await page.locator("#event-log li[data-seq] .what").allInnerTexts();
  assert.ok(groupLines.every((l) => l.includes("Consumer2")));
  assert.ok(groupLines.every((l) => !/poll\(\) returns|finishes processing/.test(l)), groupLines.join("\n"));
  // The oldest listed event: the view goes back to just after it.
  const oldest = page.locator("#event-log li[data-seq]").last();
  const when = (await oldest.locator(".t").innerText()).trim();
  await oldest.locator("button").click();
  await page.waitForFunction((w) => document.querySelector("#sim-time")?.textContent === `${(parseInt(w) / 1000).toFixed(1)} s`, when);
  assert.match(await page.locator("#highlight").innerText(), /data-client="Consumer2"/);
  assert.equal(await page.locator('[data-client="Consumer2"]').first().evaluate((el) => getComputedStyle(el).outlineStyle), "solid");
  // Screen readers hear the newest event while paused.
  assert.ok((await page.locator("#narration").innerText()).length > 0);
  await page.fill("#event-entity", "no-such-thing");
  assert.match(await page.locator("#event-log").innerText(), /No event matches the filter/);
});

test("keyboard only: ? lists the keys, Tab reaches the controls, Enter presses them", async (t) => {
  const page = await open(t);
  await page.locator("#app-root").focus();
  await page.keyboard.press("?");
  await page.locator("#keys").waitFor();
  assert.match(await page.locator("#keys").innerText(), /Play \/ pause/);
  await page.keyboard.press("Escape");
  assert.equal(await page.locator("#keys").count(), 0);
  // Tab until the Step button has the focus, then Enter steps.
  for (let i = 0; i < 40 && !(await page.evaluate(() => document.activeElement?.id === "step")); i++) await page.keyboard.press("Tab");
  assert.equal(await page.evaluate(() => document.activeElement?.id), "step");
  const before = await page.locator(".clock .muted").innerText();
  await page.keyboard.press("Enter");
  await page.waitForFunction((b) => document.querySelector(".clock .muted")?.textContent !== b, before);
  // Every button and select has a name a screen reader can say.
  const unnamed = await page.evaluate(() =>
    [...document.querySelectorAll("button, select, input")]
      .filter((el) => !(el.getAttribute("aria-label") || el.getAttribute("title") || el.textContent?.trim() || el.closest("label") || el.labels?.[0]?.textContent.trim()))
      .map((el) => el.outerHTML.slice(0, 80)),
  );
  assert.deepEqual(unnamed, []);
});

test("fork, change something, and compare the two branches", async (t) => {
  const page = await open(t);
  // Fork at 5 s, before m1 is sent (7 s).
  await runTo(page, 5);
  await page.click("#fork-here");
  await page.locator("#fork").waitFor();
  // In this branch a consumer crashes; the fork goes on without the crash.
  await page.locator('[data-group="ConsumerGroup01"] [data-client="Consumer2"] .crash-member').click();
  await page.locator('[data-group="ConsumerGroup01"] [data-client="Consumer2"][data-phase="crashed"]').waitFor();
  await runTo(page, 15);
  const delivered = page.locator("#fork tr.o-6");
  assert.match(await delivered.getAttribute("class"), /differs/);
  const [mine, theirs] = (await delivered.locator("td").allInnerTexts()).map(Number);
  assert.ok(mine < theirs, `this run delivered ${mine}, the fork ${theirs}`);
  // Rows that are the same are not marked.
  assert.doesNotMatch(await page.locator("#fork tr.o-0").getAttribute("class"), /differs/);
  await page.locator("#fork").screenshot({ path: "tests/e2e/output/fork.png" });
  await page.click("#fork-close");
  assert.equal(await page.locator("#fork").count(), 0);
});

test("no console errors, page errors or CSP violations", () => suite.assertNoProblems());
