// Transactions in the page (issue 17): a transactional producer's card, a transaction
// aborted with the card's button — the read_committed group hides what the
// read_uncommitted group shows —, the ABORT marker as its own cell, the LSO beside the HW,
// the coordinator marked on its broker, a zombie fenced by a second instance.
// Screenshots: tests/e2e/output/transactions*.png.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { browserSuite, loadScenario, runTo, screenshot } from "./helpers.mjs";

const suite = browserSuite(before, after);

/** A transactional producer that opens a transaction and sends two records; two groups. */
const SCENARIO = JSON.stringify({
  version: 1,
  name: "abort in the page",
  seed: 5,
  cluster: { brokers: 3, network_latency_ms: 20, group_initial_rebalance_delay_ms: 0 },
  topics: [{ name: "t", partitions: 1, replication_factor: 3 }],
  producers: [{ name: "tx", config: { transactional_id: "tx-1", linger_ms: 0 } }],
  groups: [
    { id: "rc", topics: ["t"], config: { auto_offset_reset: "earliest", isolation_level: "read_committed" }, members: [{ client_id: "r1" }] },
    { id: "ru", topics: ["t"], config: { auto_offset_reset: "earliest" }, members: [{ client_id: "u1" }] },
  ],
  commands: [
    { at_ms: 1000, command: { type: "begin_transaction", producer: "tx" } },
    { at_ms: 1000, command: { type: "produce", producer: "tx", topic: "t", value: "doomed-1" } },
    { at_ms: 1000, command: { type: "produce", producer: "tx", topic: "t", value: "doomed-2" } },
  ],
});

const received = (page, group, client) =>
  page.locator(`.group[data-group="${group}"] [data-client="${client}"] .received .rec`).evaluateAll((els) => els.map((e) => e.dataset.value));

test("abort a transaction and see one group hide what the other shows", async (t) => {
  const page = await suite.open(t);
  await loadScenario(page, SCENARIO, "#transactions");
  await runTo(page, 2);
  const card = page.locator('.txn-card[data-producer="tx"]');
  assert.match(await card.locator(".txn-id").innerText(), /tx-1/);
  assert.match(await card.locator(".txn-pid").innerText(), /\d+ \/ 0/);
  assert.match(await card.locator(".txn-partitions").innerText(), /t-0/);
  const coordinator = (await card.locator(".txn-coordinator").innerText()).replace("B", "");
  assert.match(await page.locator(`[data-broker="${coordinator}"] .status.txn-coordinator`).innerText(), /tx-1/, "the coordinator is marked on its broker");
  // Open: read_uncommitted already reads the records, read_committed waits at the LSO.
  assert.deepEqual(await received(page, "ru", "u1"), ["doomed-1", "doomed-2"]);
  assert.deepEqual(await received(page, "rc", "r1"), []);
  assert.match(await page.locator("#partition-0 .lso").innerText(), /LSO 0/);
  assert.equal(await page.locator("#partition-0 .cell.txn-open").count(), 2);
  await screenshot(page, "transactions-open");
  await card.locator("button.txn-abort").click();
  await runTo(page, 4);
  assert.equal(await page.locator("#partition-0 .cell.marker-abort").count(), 1, "the ABORT marker takes an offset of its own");
  assert.equal(await page.locator("#partition-0 .cell.txn-aborted").count(), 2);
  assert.match(await page.locator("#partition-0 .lso").innerText(), /LSO 3/);
  assert.deepEqual(await received(page, "rc", "r1"), [], "read_committed never sees the aborted records");
  assert.deepEqual(await received(page, "ru", "u1"), ["doomed-1", "doomed-2"], "read_uncommitted saw them");
  await screenshot(page, "transactions-aborted");
});

test("a second instance with the same transactional id fences the first", async (t) => {
  const page = await suite.open(t);
  await loadScenario(page, SCENARIO, "#transactions");
  await runTo(page, 2);
  await page.locator('.txn-card[data-producer="tx"] button.txn-zombie').click();
  await runTo(page, 4);
  const second = page.locator('.txn-card[data-producer="tx-2"]');
  assert.match(await second.locator(".txn-pid").innerText(), /\d+ \/ 3/, "fenced, aborted, then initialized: epoch 3");
  assert.match(await page.locator('.txn-card[data-producer="tx"]').innerText(), /A new instance|同一 transactional\.id/);
  await page.locator('.txn-group[data-group="rc"] button.txn-isolation-switch').click();
  assert.match(await page.locator('.txn-group[data-group="rc"] .iso').innerText(), /read_uncommitted/);
  await screenshot(page, "transactions-zombie");
});

test("no console errors, page errors or CSP violations", () => suite.assertNoProblems());
