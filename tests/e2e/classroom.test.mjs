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

test("the scenario selector names a pasted scenario, and an open JSON box follows the scenario chosen", async (t) => {
  const page = await suite.open(t);
  await loadScenario(page, SLOW, "#partition-0");
  const shown = await page.locator("#scenario").evaluate((s) => s.options[s.selectedIndex].textContent);
  assert.equal(shown, "A slow consumer holds its batch", "the scenario's name, not JSON");
  // Open the box, then choose a built-in scenario: the box shows it, and Load keeps it.
  await page.click(".scenario details.json summary");
  await page.waitForFunction(() => document.querySelector("#scenario-json")?.value.includes("A slow consumer"));
  await page.selectOption("#scenario", "five-consumers");
  await page.waitForFunction(() => !document.querySelector("#scenario-json")?.value.includes("A slow consumer"));
  const json = JSON.parse(await page.locator("#scenario-json").inputValue());
  assert.equal(json.groups[0].members.length, 5, "the box holds the scenario chosen");
  await page.click("#load-json");
  await page.locator("#notice.info").waitFor();
  assert.equal(await page.locator("#scenario").inputValue(), "custom");
  assert.ok((await page.locator(".group .member").count()) >= 5, "Load did not bring back the old scenario");
});

test("once a lesson's question is answered the outline follows the answer, and the lesson ends with a summary and the next lesson", async (t) => {
  const page = await suite.open(t);
  await page.click("#lessons-toggle");
  await page.locator('#lessons li[data-lesson="topics-partitions"] button.start-lesson').click();
  await page.locator("#lesson").waitFor();
  const focus = () => page.evaluate(() => document.querySelector("#lesson-focus")?.textContent ?? "");
  for (let i = 0; i < 40; i++) {
    if ((await page.locator("#lesson .lesson-free").count()) > 0) break;
    const choices = page.locator("#lesson .choice");
    if ((await choices.count()) > 0 && (await choices.first().isEnabled())) {
      const ask = await page.locator("#lesson .ask").innerText();
      // While the question waits, "Next step →" is disabled and looks it (no fill, dashed).
      const look = () => page.locator("#lesson-next").evaluate((b) => [b.disabled, getComputedStyle(b).borderStyle, getComputedStyle(b).backgroundColor]);
      assert.deepEqual(await look(), [true, "dashed", "rgba(0, 0, 0, 0)"]);
      await choices.first().click();
      await page.locator("#lesson .verdict").waitFor();
      if ((await page.locator("#lesson-next").count()) > 0) {
        const [disabled, border, fill] = await look();
        assert.ok(!disabled && border !== "dashed" && fill !== "rgba(0, 0, 0, 0)", `enabled looks enabled: ${border} ${fill}`);
      }
      if (ask.includes("order-1 shipped")) {
        const css = await focus();
        assert.ok(css.includes('[data-value="order-1\\20 shipped"]'), `the record outlined (CSS-escaped): ${css}`);
        assert.ok(!css.includes("Producer2"), `the question's producer no longer: ${css}`);
      }
      continue;
    }
    const before = await page.locator("#lesson .lesson-progress").innerText();
    await page.click("#lesson-next");
    await page.waitForFunction((b) => document.querySelector("#lesson .lesson-progress")?.textContent !== b || document.querySelector("#lesson .lesson-free"), before);
  }
  assert.match(await page.locator("#lesson-summary").innerText(), /^Lesson done: \d+ steps; \d of your \d predictions matched the simulation\.$/);
  await page.click("#lesson-next-lesson");
  await page.waitForFunction(() => document.querySelector("#lesson .lesson-progress")?.textContent.includes("1"));
  assert.equal(await page.locator("#lesson-summary").count(), 0, "the next lesson starts at its first step");
});
