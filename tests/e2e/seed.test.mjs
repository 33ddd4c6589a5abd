// The seed example live in the page, clicked as a person would: the default scenario
// runs, a consumer is added, the new assignment and its messages appear; a keyed record
// shows why it lands where it does; bad input shows a message and loses nothing. The run is
// moved with Run to (the same state on any machine), never by playing and waiting.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { atStart, launchChromium, openPage, runTo, serveDist, screenshot, simMs } from "./helpers.mjs";

let server, browser, page, problems;

const group = (g) => page.locator(`[data-group="${g}"]`);
const member = (g, c) => group(g).locator(`[data-client="${c}"]`);
const received = async (g, c) =>
  (await member(g, c).locator(".received .rec").allInnerTexts()).join(" ");
const parts = async (g, c) => (await member(g, c).locator(".parts").innerText()).trim();


before(async () => {
  server = await serveDist();
  browser = await launchChromium();
  ({ page, problems } = await openPage(browser, `${server.url}?lang=en`, {
    viewport: { width: 1440, height: 900 },
  }));
});

after(async () => {
  await browser?.close();
  await server?.close();
});

test("the default scenario delivers the seed's messages to each consumer", async () => {
  assert.match(await page.locator("#scenario").inputValue(), /two-groups/);
  // m1..m7 are sent from 7 s, one every 0.5 s; by 15 s every consumer has read them.
  await atStart(page);
  await runTo(page, 15);
  assert.equal(await received("ConsumerGroup01", "Consumer1"), "m1 m3 m5 m7");
  assert.equal(await received("ConsumerGroup01", "Consumer2"), "m2 m4 m6");
  assert.equal(await received("ConsumerGroup02", "Consumer1"), "m1 m2 m3 m4 m5 m6 m7");
  assert.equal(await parts("ConsumerGroup01", "Consumer1"), "P0 P2");
  assert.equal(await parts("ConsumerGroup01", "Consumer2"), "P1 P3");
  assert.equal(await parts("ConsumerGroup02", "Consumer1"), "P0 P1 P2 P3");
  // Partition logs hold m1..m7 at the round-robin partitions.
  assert.equal((await page.locator("#partition-0 .val").allInnerTexts()).join(" "), "m1 m5");
  assert.equal((await page.locator("#partition-3 .val").allInnerTexts()).join(" "), "m4");
  await screenshot(page, "seed-two-groups");
});

test("adding a consumer rebalances the group and the newcomer consumes its partition", async () => {
  await group("ConsumerGroup01").locator("button.add-member").click();
  await member("ConsumerGroup01", "Consumer3").waitFor();
  // RoundRobin over three members: P0 P3 / P1 / P2, once the rebalance completes (the
  // others notice it at their next heartbeat, within heartbeat.interval.ms = 3 s).
  await runTo(page, 25);
  assert.equal(await parts("ConsumerGroup01", "Consumer3"), "P2");
  assert.equal(await parts("ConsumerGroup01", "Consumer1"), "P0 P3");
  assert.equal(await parts("ConsumerGroup01", "Consumer2"), "P1");
  assert.match(await group("ConsumerGroup01").locator(".meta").innerText(), /generation 2/);
  // Committed offsets carried over: the newcomer re-reads nothing...
  assert.equal(await received("ConsumerGroup01", "Consumer3"), "");
  // ...and receives what is produced to its partition from now on.
  await page.fill("#produce-value", "m8");
  await page.selectOption("#produce-partition", "2");
  await page.click("#produce-send");
  await page.locator("#produce-why").filter({ hasText: "m8" }).waitFor();
  await runTo(page, 30);
  assert.equal(await received("ConsumerGroup01", "Consumer3"), "m8");
  assert.equal(await received("ConsumerGroup02", "Consumer1"), "m1 m2 m3 m4 m5 m6 m7 m8");
  assert.match(await page.locator("#produce-why").innerText(), /explicit partition → partition 2/);
  await screenshot(page, "seed-consumer-added");
});

test("a keyed record shows the murmur2 hash and its partition", async () => {
  await page.locator('[data-producer="Producer1"] select.partitioner').selectOption("built_in");
  await page.fill("#produce-key", "key1");
  await page.fill("#produce-value", "keyed");
  await page.selectOption("#produce-partition", "auto");
  await page.click("#produce-send");
  // murmur2("key1") = 28543940; % 4 = 0 (kafka-semantics §8).
  await page.waitForFunction(() => document.querySelector("#produce-why")?.textContent.includes("28543940"));
  assert.match(await page.locator("#produce-why").innerText(), /murmur2 = 28543940.*→ partition 0/);
  // Appended by the leader within a few round trips.
  await runTo(page, (await simMs(page)) / 1000 + 2);
  assert.ok((await page.locator("#partition-0 .val").allInnerTexts()).includes("keyed"));
});

test("an invalid scenario shows what is wrong and keeps the current work", async () => {
  const before = await received("ConsumerGroup02", "Consumer1");
  await page.click(".scenario details.json summary");
  await page.fill("#scenario-json", '{"version": 1, "topics": [{"name": "t", "partitions": 0}]}');
  await page.click("#load-json");
  const notice = page.locator("#notice.error");
  await notice.waitFor();
  assert.match(await notice.innerText(), /topics\[0\]\.partitions/);
  assert.match(await notice.innerText(), /unchanged/);
  assert.ok((await received("ConsumerGroup02", "Consumer1")).startsWith(before));
  await page.click(".scenario details.json summary");
});

test("the language switch turns every label Chinese and back", async () => {
  await page.click("#lang-toggle");
  await page.waitForFunction(() => document.querySelector("#app-root")?.getAttribute("lang") === "zh-CN");
  const text = await page.locator("#app-root").innerText();
  assert.match(text, /消费者组/);
  assert.match(text, /生产者/);
  assert.doesNotMatch(text, /Consumer groups|Producers|Event log/);
  await page.click("#lang-toggle");
  await page.waitForFunction(() => document.querySelector("#app-root")?.getAttribute("lang") === "en");
});

test("stepping pauses the player and applies exactly one visible event", async () => {
  const count = async () => Number((await page.locator(".clock .muted").innerText()).match(/(\d+)/)[1]);
  // Make sure something is coming: a record produced now gives the next steps work.
  await page.fill("#produce-value", "stepme");
  await page.click("#produce-send");
  await page.click("#step");
  assert.match(await page.locator("#play").innerText(), /Play/);
  const t0 = await page.locator("#sim-time").innerText();
  const first = await count();
  await page.click("#step");
  await page.waitForFunction((n) => Number(document.querySelector(".clock .muted").textContent.match(/(\d+)/)[1]) > n, first);
  // Paused: time stands still between clicks (true however fast the machine is).
  await page.waitForTimeout(300);
  const after = await count();
  await page.waitForTimeout(300);
  assert.equal(await count(), after, "paused: nothing happens between steps");
  assert.notEqual(t0, null);
});

test("nothing was logged as an error", () => {
  assert.deepEqual(problems(), []);
});
