// Per-record provenance: a learner clicks m1 in the topic and reads its whole path —
// partition choice, append, replication, commit, acknowledgement, delivery and
// processing by a consumer of each group. Screenshot: tests/e2e/output/provenance.png.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { atStart, browserSuite, runTo, screenshot } from "./helpers.mjs";

const suite = browserSuite(before, after);

test("clicking a record shows its whole path", async (t) => {
  const page = await suite.open(t);
  // m1 is sent at 7 s and read by both groups soon after.
  await atStart(page);
  await runTo(page, 12);
  const m1 = page.locator(".panel.topics li.cell", { hasText: "m1" }).first();
  await m1.click();
  await page.locator("#record-path").waitFor();
  const text = await page.locator("#record-path").innerText();
  for (const step of [
    /Producer1's send\(\) puts it in a batch for Topic01 partition 0: RoundRobinPartitioner/,
    /the leader \(broker \d\) appends it at offset 0, leader epoch 0/,
    /follower broker \d copies it/,
    /the high watermark passes it \(HW = 1\): committed/,
    /the producer gets its acknowledgement \(acks=all, offset 0\)/,
    /ConsumerGroup01\/Consumer1's poll\(\) returns it/,
    /ConsumerGroup02\/Consumer1 finishes processing it/,
  ]) {
    assert.match(text, step);
  }
  await screenshot(page, "provenance");
  // Keyboard: Enter on a focused record opens its path too; Close closes it.
  await page.click("#record-path-close");
  assert.equal(await page.locator("#record-path").count(), 0);
  await m1.focus();
  await page.keyboard.press("Enter");
  await page.locator("#record-path").waitFor();
});

test("the charts show lag, throughput and stopped members over time", async (t) => {
  const page = await suite.open(t);
  await page.click("#charts summary");
  await atStart(page);
  await runTo(page, 12);
  for (const id of ["#chart-lag-ConsumerGroup01", "#chart-lag-ConsumerGroup02", "#chart-throughput", "#chart-stopped"]) {
    await page.locator(id).waitFor();
    // A sample every 0.5 s of simulated time from 0 to 12 s, however the run got there
    // (a rate is drawn between two samples: one point fewer).
    const points = await page.locator(`${id} polyline`).first().getAttribute("points");
    assert.equal(points.split(" ").length, id === "#chart-throughput" ? 24 : 25, `${id}: ${points}`);
  }
  // Seven records were produced: the produced line went above zero.
  const legend = await page.locator("#chart-throughput .chart-legend").innerText();
  assert.match(legend, /produced/);
  await page.locator("#charts").screenshot({ path: "tests/e2e/output/charts.png" });
});

test("the sequence diagram draws the requests of the last seconds", async (t) => {
  const page = await suite.open(t);
  // m1..m7 are sent from 7 s on, one every 0.5 s: stop among them.
  await atStart(page);
  await runTo(page, 8.2);
  await page.click("#sequence summary");
  await page.locator("#sequence svg.seq").waitFor();
  const labels = await page.locator("#sequence .seq-msg text").allTextContents();
  assert.ok(labels.some((l) => /^Produce P\d/.test(l)), labels.join(" | "));
  assert.ok(labels.some((l) => /^Fetch P\d/.test(l)), labels.join(" | "));
  const lanes = await page.locator("#sequence .seq-lane text").allTextContents();
  assert.ok(lanes.some((l) => l.startsWith("Producer1")) && lanes.some((l) => /^B\d$/.test(l)), lanes.join(" "));
  await page.locator("#sequence").screenshot({ path: "tests/e2e/output/sequence.png" });
});

test("no console errors, page errors or CSP violations", () => suite.assertNoProblems());
