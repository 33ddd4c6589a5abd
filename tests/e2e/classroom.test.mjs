// Issue 21, for the classroom and the real cluster: what the learners, teachers and
// engineers who tried the page found, each checked as they would see it. Offsets drawn
// on the logs, multi-topic cards, share links that always open, the lesson beside the
// cluster, phones, projectors (presentation mode), the glossary, the bridge to real Kafka.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { browserSuite, loadScenario, runTo, screenshot } from "./helpers.mjs";

const suite = browserSuite(before, after);

/** The tags drawn on one partition's log: [offset of the cell they stand under, text]. */
async function flagsOf(page, partition) {
  return page.locator(`.panel.topics #partition-${partition} .log > li`).evaluateAll((cells) =>
    cells.flatMap((c) => [...c.querySelectorAll(".flags .tag")].map((t) => [Number(c.dataset.offset), t.textContent])),
  );
}

test("every partition log draws its offsets: log start, each group's committed offset, each member's position, HW, LEO", async (t) => {
  const page = await suite.open(t);
  await runTo(page, 12);
  // Seed 42: ConsumerGroup01 (G1) committed Topic01-0 at 2, ConsumerGroup02 (G2) at 1; both
  // members read to the end (position 2); HW = LEO = 2.
  const p0 = await flagsOf(page, 0);
  assert.deepEqual(p0, [
    [0, "start"],
    [1, "✓G2"],
    [2, "✓G1"],
    [2, "▶Consumer1"],
    [2, "▶Consumer1"],
    [2, "HW"],
  ]);
  assert.equal(await page.locator("#partition-0 .next-slot").getAttribute("data-offset"), "2");
  const legend = await page.locator(".panel.topics .offsets-legend").innerText();
  for (const words of ["G1", "ConsumerGroup01", "G2", "ConsumerGroup02", "committed offset", "position", "LSO", "received, not processed yet"]) {
    assert.ok(legend.includes(words), `the legend says ${words}: ${legend}`);
  }
  // Each tag says what it is in full.
  assert.equal(
    await page.locator('#partition-0 .tag.position[data-mark-group="ConsumerGroup02"]').getAttribute("title"),
    "Consumer1 (ConsumerGroup02) position: 2, the next offset it fetches",
  );
});

/** A consumer that takes 2 s a record: after a poll it holds most of the batch. */
const SLOW = JSON.stringify({
  version: 1,
  name: "A slow consumer holds its batch",
  seed: 5,
  cluster: { group_initial_rebalance_delay_ms: 0 },
  topics: [{ name: "pay", partitions: 1 }],
  producers: [{ name: "p", send: [{ topic: "pay", values: ["pay-1", "pay-2", "pay-3", "pay-4", "pay-5", "pay-6"], start_ms: 3000, interval_ms: 1 }] }],
  groups: [{ id: "billing", topics: ["pay"], config: { auto_offset_reset: "earliest" }, members: [{ client_id: "slow", config: { processing_ms: 2000, commit_mode: "sync_after_processing" } }] }],
});

test("records a member received but has not processed look held, not processed", async (t) => {
  const page = await suite.open(t);
  await loadScenario(page, SLOW, "#partition-0");
  await runTo(page, 7.5);
  const held = await page.locator("#partition-0 .cell.in-hand").evaluateAll((cells) => cells.map((c) => c.dataset.value));
  assert.ok(held.length >= 2, `held: ${held}`);
  const title = await page.locator("#partition-0 .cell.in-hand").first().getAttribute("title");
  assert.match(title, /held by slow \(billing\): received, not processed yet/);
  // The position stands past what it holds, the committed offset before it.
  const flags = await flagsOf(page, 0);
  const position = flags.find(([, text]) => text === "▶slow")[0];
  const committed = flags.find(([, text]) => text === "✓G1")?.[0] ?? 0;
  const offsets = await page.locator("#partition-0 .cell.in-hand").evaluateAll((cells) => cells.map((c) => Number(c.dataset.offset)));
  assert.ok(offsets.every((o) => o >= committed && o < position), JSON.stringify({ offsets, committed, position }));
  await screenshot(page, "classroom-held-records");
});

test("the glossary lists each term once, with its meaning and the seed's wording, in both languages", async (t) => {
  const page = await suite.open(t);
  await page.click("#glossary-toggle");
  const row = page.locator('#glossary tr[data-term="rebalance"]');
  assert.match(await row.innerText(), /rebalance \(重平衡\)[\s\S]*handing its partitions out again[\s\S]*再均衡/);
  assert.match(await page.locator('#glossary tr[data-term="offset"]').innerText(), /offset \(偏移量\)/);
  await page.click("#lang-toggle");
  assert.match(await row.innerText(), /重平衡 \(rebalance\)[\s\S]*重新分配分区/);
  // The member's control is not a second "Pause" beside the player's.
  assert.ok((await page.locator("button.pause-member, [data-client] button", { hasText: "暂停" }).count()) === 0);
  await page.keyboard.press("Escape");
  assert.equal(await page.locator("#glossary").count(), 0, "Esc closes it");
});

test("no console errors, page errors or CSP violations", () => suite.assertNoProblems());
