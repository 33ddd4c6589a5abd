// A big cluster in the page: 10 brokers, 240 partitions, 40 members under continuous
// production (issue 7's large scenario). The learner finds where the records are on the
// partition map, jumps to that partition's row, and reads a lag chart that stays legible.
// Frame times are measured by scripts/bench-page.mjs, never asserted here.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { browserSuite, largeScenario, loadScenario, runTo, screenshot } from "./helpers.mjs";

const suite = browserSuite(before, after);

test("the partition map shows where records are and takes the learner to that partition", async (t) => {
  const page = await suite.open(t);
  await loadScenario(page, largeScenario(), "#partition-239");
  assert.equal(await page.locator(".panel.topics .partition").count(), 240);
  assert.equal(await page.locator(".pmap .pm").count(), 240);
  assert.equal(await page.locator("[data-broker]").count(), 10);
  assert.equal(await page.locator("li.member").count(), 40);
  // Production starts at 1 s, 100 records a second.
  await runTo(page, 6);
  // Records arrived somewhere: some cell is shaded, and its title names the log end offset.
  const hot = page.locator(".pmap .pm.l4").first();
  await hot.waitFor();
  const n = await hot.getAttribute("data-p");
  assert.match(await hot.getAttribute("title"), new RegExp(`^P${n} · leader B\\d · LEO [1-9]`));
  // Most partitions are still empty: the sticky partitioner fills one batch at a time.
  assert.ok((await page.locator(".pmap .pm.l0").count()) > 200);
  await hot.click();
  const row = page.locator(`#partition-${n}`);
  await page.waitForFunction((id) => {
    const r = document.getElementById(id)?.getBoundingClientRect();
    return r && r.top >= 0 && r.top < window.innerHeight;
  }, `partition-${n}`);
  assert.ok((await row.locator("li.cell").count()) > 0, `P${n} shows its records`);
  await screenshot(page, "large-map");
});

test("a big group's lag chart shows its total and the partitions lagging most", async (t) => {
  const page = await suite.open(t);
  await loadScenario(page, largeScenario(), "#partition-239");
  await page.click("#charts summary");
  await runTo(page, 4);
  const chart = page.locator("#chart-lag-audit");
  await chart.waitFor();
  assert.match(await chart.locator("figcaption").innerText(), /total and the 8 of 240 partitions lagging most/);
  assert.equal(await chart.locator("polyline").count(), 9);
  assert.match(await chart.locator(".chart-legend").innerText(), /total/);
});

test("no console errors, page errors or CSP violations", () => suite.assertNoProblems());
