// Sharing and keeping work, as a learner does it: a share link opened in a fresh browser
// shows the same state; a damaged link shows a clear message and the default scenario;
// a reload restores the autosaved session; a run saved to a file opens again, and a bad
// file changes nothing. Screenshot: tests/e2e/output/share.png.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { tmpdir } from "node:os";
import { atStart, browserSuite, clickAndWait, runTo, screenshot } from "./helpers.mjs";

const suite = browserSuite(before, after);

/** Opens the page at `suffix` (query and fragment) in a fresh browser context. */
const open = (t, suffix = "?lang=en") => suite.openFull(t, suffix);

/** The state a learner sees (not the event log's scroll position or hover state). */
async function view(page) {
  return page.evaluate(() =>
    ["#sim-time", ".panel.topics", ".panel.groups"].map((s) => document.querySelector(s)?.innerText ?? "").join("\n----\n"),
  );
}

async function steps(page, n) {
  for (let i = 0; i < n; i++) await clickAndWait(page, "#step");
}

test("a share link opened in a fresh browser shows the same state", async (t) => {
  const { page } = await open(t);
  await atStart(page);
  await runTo(page, 4);
  const card = page.locator('[data-group="ConsumerGroup01"]');
  await card.locator("button.add-member").click();
  await card.locator('[data-client="Consumer3"]').waitFor();
  await runTo(page, 8.2);
  await steps(page, 5);
  await page.click("#share");
  const link = await page.locator("#share-link").inputValue();
  assert.match(link, /#ks1\.[A-Za-z0-9_-]+$/);
  const mine = await view(page);
  await screenshot(page, "share");

  const other = await open(t, link.slice(link.indexOf("?")));
  await other.page.locator("#notice.info").waitFor();
  assert.match(await other.page.locator("#notice").innerText(), /Opened the shared run at step \d+/);
  assert.equal(await view(other.page), mine);
});

test("a damaged link says what is wrong and shows the default scenario", async (t) => {
  const { page } = await open(t, "?lang=en#ks1.this-is-not-a-run");
  await page.locator("#notice.error").waitFor();
  assert.match(await page.locator("#notice").innerText(), /This link could not be opened: the link is damaged/);
  assert.equal(await page.locator("#scenario").inputValue(), "two-groups");
  const other = await open(t, "?lang=en#hello");
  await other.page.locator("#notice.error").waitFor();
  assert.match(await other.page.locator("#notice").innerText(), /not a Kafka Sandbox link/);
  // An oversized fragment is refused quickly, the page keeps running.
  const huge = await open(t, `?lang=en#ks1.${"A".repeat(300_000)}`);
  await huge.page.locator("#notice.error").waitFor();
  assert.match(await huge.page.locator("#notice").innerText(), /at most 262144/);
  await huge.page.click("#step");
});

test("a reload restores the autosaved session", async (t) => {
  const { page } = await open(t);
  await atStart(page);
  await steps(page, 10);
  const card = page.locator('[data-group="ConsumerGroup02"]');
  await card.locator("button.add-member").click();
  await card.locator('[data-client="Consumer2"]').waitFor();
  const mine = await view(page);
  await page.reload();
  await page.waitForFunction(() => window.__started);
  await page.locator("#notice.info").waitFor();
  assert.match(await page.locator("#notice").innerText(), /Restored your last session/);
  assert.equal(await view(page), mine);
});

test("a run saved to a file opens again; a bad file changes nothing", async (t) => {
  const { page } = await open(t);
  await atStart(page);
  await steps(page, 25);
  const [download] = await Promise.all([page.waitForEvent("download"), page.click("#save-file")]);
  const path = join(tmpdir(), `ks-run-${process.pid}.json`);
  await download.saveAs(path);
  const saved = JSON.parse(await readFile(path, "utf8"));
  assert.equal(saved.steps > 0, true);
  const mine = await view(page);
  // Something else, then open the file.
  await page.selectOption("#scenario", "five-consumers");
  await page.setInputFiles("#open-file", path);
  await page.locator("#notice.info").waitFor();
  assert.match(await page.locator("#notice").innerText(), /Opened from the file/);
  assert.equal(await view(page), mine);
  // A bad file: the message, and the run stays.
  const bad = join(tmpdir(), `ks-bad-${process.pid}.json`);
  await writeFile(bad, '{"version": 1, "topics": [{"name": "t", "partitions": 0}]}');
  await page.setInputFiles("#open-file", bad);
  await page.locator("#notice.error").waitFor();
  assert.match(await page.locator("#notice").innerText(), /This file could not be opened: topics\[0\]\.partitions/);
  assert.equal(await view(page), mine);
});

test("the theme button switches light and dark and is remembered", async (t) => {
  const { page } = await open(t);
  const bg = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  await page.click("#theme-toggle");
  await page.waitForFunction(() => document.documentElement.dataset.theme === "light");
  const light = await bg();
  await page.click("#theme-toggle");
  await page.waitForFunction(() => document.documentElement.dataset.theme === "dark");
  const dark = await bg();
  assert.notEqual(light, dark);
  await page.reload();
  await page.waitForFunction(() => window.__started);
  await page.waitForFunction(() => document.documentElement.dataset.theme === "dark");
  assert.match(await page.locator("#theme-toggle").innerText(), /Dark/);
  await page.click("#theme-toggle");
  await page.waitForFunction(() => !document.documentElement.dataset.theme);
});

test("no console errors, page errors or CSP violations", () => suite.assertNoProblems());
