// Log compaction in the page (issue 19): a compacted topic's segment strip (clean below the
// cleaner's checkpoint, dirty from it, the active segment), a tombstone drawn as one, the
// gaps the cleaner leaves drawn as gaps, and the latest-value-per-key table beside the raw
// log holding exactly each key's newest value; a cleaner's pass in the event list links to
// its partition; a group's card opens the __consumer_offsets partition holding its commits.
// Reached by Run to, never by waiting. Screenshots:
// tests/e2e/output/compaction*.png.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { browserSuite, COMPACTION_WRITES, compactionScenario, loadScenario, runTo, screenshot } from "./helpers.mjs";

const suite = browserSuite(before, after);

const { WRITES, LATER } = COMPACTION_WRITES;
const SCENARIO = compactionScenario();

/** Each key's newest value after `writes`, keys deleted by a tombstone left out, by key. */
function newestPerKey(writes) {
  const newest = new Map();
  for (const [k, v] of writes) newest.set(k, v);
  return [...newest].filter(([, v]) => v !== null).sort(([a], [b]) => (a < b ? -1 : 1));
}

const part = (page) => page.locator('.topic[data-topic="profiles"] #partition-0');
const states = (page) => part(page).locator(".segstrip .seg").evaluateAll((els) => els.map((e) => e.dataset.state));
const table = (page) =>
  part(page).locator("table.latest tbody tr[data-key]").evaluateAll((rows) => rows.map((r) => [r.dataset.key, r.dataset.value]));

test("before the cleaner runs every segment is dirty and every value is in the log", async (t) => {
  const page = await suite.open(t);
  await loadScenario(page, SCENARIO, '.topic[data-topic="profiles"]');
  await runTo(page, 2);
  const s = await states(page);
  assert.ok(s.length >= 3, `records roll segments: ${s}`);
  assert.equal(s.at(-1), "active", "the last segment is the active one");
  assert.ok(s.slice(0, -1).every((x) => x === "dirty"), `no pass yet: ${s}`);
  assert.match(await part(page).locator(".compaction .passes").innerText(), /0/);
  assert.equal(await part(page).locator(".compaction .checkpoint").getAttribute("data-checkpoint"), "");
  // Every write is a record: offsets 0..9, the tombstone among them, no gap.
  const offsets = await part(page).locator(".log .cell").evaluateAll((els) => els.map((e) => Number(e.dataset.offset)));
  assert.deepEqual(offsets, WRITES.map((_, i) => i));
  assert.equal(await part(page).locator(".log .gap").count(), 0);
  const tomb = part(page).locator(".log .cell.tombstone");
  assert.equal(await tomb.count(), 1, "bob's null value is a tombstone");
  assert.equal(await tomb.getAttribute("data-key"), "bob");
  assert.equal(await tomb.locator(".val").innerText(), "null");
  assert.match(await tomb.locator(".tomb-word").innerText(), /⚰ tombstone/);
  assert.match(await tomb.evaluate((e) => getComputedStyle(e.querySelector(".val")).textDecorationLine), /line-through/, "its null is struck");
  // The table beside the raw log: opened by its toggle, each key's newest value.
  await part(page).locator("button.latest-toggle").click();
  assert.equal(await part(page).locator("button.latest-toggle").getAttribute("aria-pressed"), "true");
  assert.deepEqual(await table(page), newestPerKey(WRITES));
  assert.match(await part(page).locator(".latest-per-key .deleted-keys").innerText(), /"bob" @6/);
  assert.match(await part(page).locator(".latest-per-key .dirty-note").innerText(), /dirty part \(from offset 0\) still holds every value/);
  await screenshot(page, "compaction-dirty");
});

test("after the cleaner's pass the strip is clean below the checkpoint, dirty from it, and the log has gaps", async (t) => {
  const page = await suite.open(t);
  await loadScenario(page, SCENARIO, '.topic[data-topic="profiles"]');
  await runTo(page, 3.45);
  assert.match(await part(page).locator(".compaction .passes").innerText(), /1/, "one pass on the leader's copy");
  const checkpoint = Number(await part(page).locator(".compaction .checkpoint").getAttribute("data-checkpoint"));
  assert.ok(checkpoint > 0, `the pass ended somewhere: ${checkpoint}`);
  let s = await states(page);
  assert.equal(s.at(-1), "active");
  assert.ok(s.slice(0, -1).every((x) => x === "clean"), `everything below the active segment is clean: ${s}`);
  // Older values are gone, offsets kept: gaps, and no cell at a removed offset.
  const cells = await part(page).locator(".log .cell").evaluateAll((els) => els.map((e) => [Number(e.dataset.offset), e.dataset.key, e.dataset.value]));
  const offsets = cells.map(([o]) => o);
  assert.ok(offsets.every((o, i) => i === 0 || o > offsets[i - 1]), `offsets increase: ${offsets}`);
  assert.ok(offsets.length < WRITES.length, "the pass removed records");
  const gaps = await part(page).locator(".log .gap").evaluateAll((els) => els.map((e) => [Number(e.dataset.from), Number(e.dataset.to)]));
  assert.ok(gaps.length > 0, "the removed offsets are drawn as gaps");
  for (const [from, to] of gaps) {
    assert.ok(!offsets.some((o) => o >= from && o <= to), `no record drawn in the gap ${from}–${to}`);
  }
  // Every offset below the LEO is a record or in a gap: nothing missing, nothing invented.
  const covered = new Set(offsets);
  for (const [from, to] of gaps) for (let o = from; o <= to; o++) covered.add(o);
  assert.deepEqual([...covered].sort((a, b) => a - b), WRITES.map((_, i) => i));
  // In the cleaned part each key is there once, with its newest value.
  const clean = cells.filter(([o]) => o < checkpoint);
  const keys = clean.map(([, k]) => k);
  assert.equal(new Set(keys).size, keys.length, `one record per key below the checkpoint: ${keys}`);
  // The tombstone survives its first pass, stamped with a delete horizon.
  const tomb = part(page).locator(".log .cell.tombstone");
  assert.equal(await tomb.count(), 1);
  const horizon = Number((await tomb.getAttribute("title")).match(/delete horizon (\d+) ms/)?.[1]);
  assert.ok(horizon > 3000, `stamped with the pass's time plus delete.retention.ms: ${horizon}`);
  assert.equal(await tomb.locator(".horizon").innerText(), `until ${(horizon / 1000).toFixed(1)} s`);
  const passes = await page
    .locator("#event-log li", { has: page.locator('.event-link[data-topic="profiles"]') })
    .locator(".t")
    .evaluateAll((els) => els.map((e) => Number(e.textContent.replace("ms", "").trim())));
  assert.ok(passes.includes(horizon - 86_400_000), `a pass at the horizon minus delete.retention.ms (1 day): ${passes} / ${horizon}`);
  await screenshot(page, "compaction-clean");
  // New writes after the pass: dirty again, after the checkpoint.
  await runTo(page, 4);
  s = await states(page);
  assert.ok(s.includes("clean") && s.includes("dirty"), `clean, then dirty: ${s}`);
  assert.equal(s.at(-1), "active");
  assert.ok(s.indexOf("clean") < s.indexOf("dirty"), `the clean part comes first: ${s}`);
  assert.equal(await part(page).locator(".segstrip .seg-checkpoint").count(), 1, "the checkpoint is drawn between them");
  await part(page).locator("button.latest-toggle").click();
  assert.deepEqual(await table(page), newestPerKey([...WRITES, ...LATER]));
  assert.match(await part(page).locator(".latest-per-key .dirty-note").innerText(), new RegExp(`from offset ${checkpoint}\\)`));
  await screenshot(page, "compaction-dirty-again");
});

test("a cleaner's pass in the event list links to its partition", async (t) => {
  const page = await suite.open(t);
  await loadScenario(page, SCENARIO, '.topic[data-topic="profiles"]');
  await runTo(page, 3.45);
  const pass = page.locator("#event-log li", { has: page.locator('.event-link[data-topic="profiles"][data-partition="0"]') }).first();
  const link = pass.locator(".event-link");
  assert.match(await link.innerText(), /profiles-0/);
  const line = pass.locator(".what");
  assert.match(await line.innerText(), /log cleaner compacted profiles-0/);
  await link.click();
  // The run goes to the pass and the partition's segment strip is outlined.
  await page.waitForFunction(() => document.querySelector("style#highlight")?.textContent.includes("#partition-0 .compaction"));
  assert.ok(await part(page).locator(".compaction").isVisible());
});

test("the compaction views speak Chinese on the Chinese page", async (t) => {
  const page = await suite.open(t, "?lang=zh");
  await loadScenario(page, SCENARIO, '.topic[data-topic="profiles"]');
  await runTo(page, 3.45);
  assert.match(await part(page).locator(".compaction-head").innerText(), /清理次数 1/);
  assert.match(await part(page).locator(".segstrip").innerText(), /已清理/);
  assert.match(await part(page).locator(".log .cell.tombstone .tomb-word").innerText(), /⚰ 墓碑/);
  await part(page).locator("button.latest-toggle").click();
  assert.match(await part(page).locator(".latest-per-key").innerText(), /每个键的最新值/);
  await screenshot(page, "compaction-zh");
});

test("a group's card opens the __consumer_offsets partition where its commits land", async (t) => {
  const page = await suite.open(t);
  await loadScenario(page, SCENARIO, '.topic[data-topic="profiles"]');
  await runTo(page, 12);
  const card = page.locator('.group[data-group="readers"]');
  const home = card.locator("button.offsets-home");
  const [, partition, leader] = (await home.innerText()).match(/offsets live in __consumer_offsets-(\d+) \(leader broker (\d+)\)/) ?? [];
  assert.ok(partition !== undefined, await home.innerText());
  assert.equal(await card.locator(".coordinator").getAttribute("data-coordinator"), leader, "the partition's leader is the group's coordinator");
  await home.click();
  const view = page.locator(`#offsets-view[data-partition="${partition}"]`);
  await view.waitFor();
  assert.match(await view.locator("h2").innerText(), new RegExp(`__consumer_offsets-${partition}`));
  assert.match(await view.locator(".psummary .leader-id").innerText(), new RegExp(`B${leader}`));
  assert.match(await view.locator(".offsets-groups").innerText(), /readers/);
  // Its raw log: the group's commits, keyed ["group","topic",partition], values JSON.
  const key = '["readers","profiles",0]';
  const commits = await view.locator(".offsets-log .cell").evaluateAll(
    (els, key) => els.filter((e) => e.dataset.key === key).map((e) => JSON.parse(e.dataset.value).offset),
    key,
  );
  assert.ok(commits.length > 0, "the group's commits are records of the partition");
  assert.ok(commits.every((o, i) => i === 0 || o >= commits[i - 1]), `commits in order: ${commits}`);
  // The segment strip of the offsets partition, and its latest value per key: the newest
  // commit, the offset the group's card says it committed.
  assert.equal(await view.locator(".segstrip .seg.active").count(), 1);
  await view.locator("button.latest-toggle").click();
  const row = view.locator("table.latest tbody tr").filter({ has: page.locator(`td code`, { hasText: key }) });
  const latest = JSON.parse(await row.getAttribute("data-value")).offset;
  assert.equal(latest, commits.at(-1));
  const committed = (await card.innerText()).match(/committed offsets: \S*?=(\d+)/)?.[1];
  assert.equal(Number(committed), latest, "the card's committed offset is the partition's newest record for its key");
  await screenshot(page, "compaction-offsets");
  await view.locator("button.close-offsets").click();
  assert.equal(await page.locator("#offsets-view").count(), 0);
});

test("no console errors, page errors or CSP violations", () => suite.assertNoProblems());
