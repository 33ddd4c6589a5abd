// Share groups (KIP-932) beside a consumer group: the built-in side-by-side scenario of
// the seed's five consumers on four partitions — in the consumer group Consumer5 idles, in
// the share group all five receive records, several members per partition; the poison
// pill control; and the Chinese page. The run is moved with Run to, never by waiting.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { atStart, launchChromium, openPage, runTo, serveDist, screenshot } from "./helpers.mjs";

let server, browser, page, problems;

const shareMember = (c) => page.locator(`#share-member-${c}`);
const shareReceived = async (c) => (await shareMember(c).locator(".received .chip").allInnerTexts()).join(" ");
const consumerReceived = async (g, c) =>
  (await page.locator(`[data-group="${g}"] [data-client="${c}"] .received .rec`).allInnerTexts()).join(" ");

before(async () => {
  server = await serveDist();
  browser = await launchChromium();
  ({ page, problems } = await openPage(browser, `${server.url}?lang=en`, { viewport: { width: 1440, height: 1100 } }));
});

after(async () => {
  await browser?.close();
  await server?.close();
});

test("side by side: Consumer5 idles in the consumer group, all five share consumers receive records", async () => {
  await page.selectOption("#scenario", "five-consumers-share");
  await page.locator("#share-groups").waitFor();
  await atStart(page);
  await runTo(page, 12);
  assert.equal(await consumerReceived("ConsumerGroup01", "Consumer1"), "m1 m5");
  assert.equal(await consumerReceived("ConsumerGroup01", "Consumer5"), "");
  // The order each share consumer received records (the simulation's own answer, pinned by
  // the core's test of the same scenario).
  assert.equal(await shareReceived("ShareConsumer1"), "m3 m7");
  assert.equal(await shareReceived("ShareConsumer2"), "m1 m6");
  assert.equal(await shareReceived("ShareConsumer3"), "m4");
  assert.equal(await shareReceived("ShareConsumer4"), "m2");
  assert.equal(await shareReceived("ShareConsumer5"), "m5");
  // Several members share a partition, and its window is drawn.
  assert.match(await page.locator("#share-Topic01-0 .owners").innerText(), /ShareConsumer2, ShareConsumer5/);
  assert.match(await page.locator("#share-Topic01-0 .window").innerText(), /SPSO 2/);
  await screenshot(page, "share-groups-side-by-side");
});

test("a poison pill released by every member is archived after five deliveries", async () => {
  for (let i = 1; i <= 5; i++) {
    const m = shareMember(`ShareConsumer${i}`);
    await m.locator("button.mode").click();
    await m.locator("input.rule-value").fill("poison");
    await m.locator("button.release").click();
    await m.locator(".rules").waitFor();
  }
  assert.match(await shareMember("ShareConsumer1").locator(".rules").innerText(), /poison → RELEASE/);
  await page.fill("#produce-value", "poison");
  await page.click("#produce-send");
  await runTo(page, 20);
  // Delivered five times (the last chip shows its count), then archived.
  const all = [];
  for (let i = 1; i <= 5; i++) all.push(await shareReceived(`ShareConsumer${i}`));
  assert.match(all.join(" "), /poison×5/);
  assert.doesNotMatch(all.join(" "), /poison×6/);
  assert.match(await page.locator("#share-group-ShareGroup01 > p.meta").innerText(), /archived 1/);
  await screenshot(page, "share-groups-poison-pill");
  assert.deepEqual(problems(), []);
});

test("the share group speaks Chinese", async () => {
  await page.click("#lang-toggle");
  await page.locator("#share-groups h2").waitFor();
  assert.match(await page.locator("#share-groups h2").innerText(), /共享组/);
  await screenshot(page, "share-groups-zh");
  await page.click("#lang-toggle");
});
