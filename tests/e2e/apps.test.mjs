// Kafka Connect, Kafka Streams and push delivery in the page: a source connector's table,
// position and flushed offset (crash the task before the flush: its rows come again), a
// Streams app counting by key with its state stores, and a push group (labelled as not
// Kafka) whose slow member's buffer grows. Screenshot: tests/e2e/output/apps.png.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { appsScenario, browserSuite, loadScenario, runTo, screenshot } from "./helpers.mjs";

const suite = browserSuite(before, after);

const SCENARIO = appsScenario();

test("a source connector, a Streams app and a push group, as the learner sees them", async (t) => {
  const page = await suite.open(t);
  await loadScenario(page, SCENARIO, "#apps");
  const jdbc = page.locator('[data-connector="jdbc"]');
  assert.match(await jdbc.locator("table.rows").innerText(), /ada[\s\S]*bob[\s\S]*cy/);
  // After the first poll (5 s) the task's position is the highest id it sent; the flush
  // (60 s) has not happened yet, so three rows are sent but not flushed.
  await runTo(page, 6);
  assert.match(await jdbc.locator(".position").innerText(), /incrementing: 3/);
  assert.match(await jdbc.locator(".committed").innerText(), /none/);
  assert.match(await jdbc.locator(".unflushed").innerText(), /: 3$/);
  // The Streams app counts each customer id once.
  const counter = page.locator('[data-streams="counter"]');
  assert.match(await counter.locator(".topology").innerText(), /customers → groupByKey\(\)\.count\("per-id"\) → counts/);
  assert.match(await counter.locator("table.stores").innerText(), /1=1/);
  // The push group says it is not Kafka, and its slow member's buffer grows.
  const pushed = page.locator('.group[data-group="pushed"]');
  assert.match(await pushed.locator(".push-badge").innerText(), /not Kafka/);
  assert.match(await pushed.locator('[data-client="slow"] .buffered').innerText(), /buffered: \d+/);
  await screenshot(page, "apps");
  // Crash the connector's task before its first flush: the next task sends the rows again.
  await jdbc.locator("button.crash-connector").click();
  await jdbc.locator("button.restart-connector").click();
  await runTo(page, 14);
  assert.match(await jdbc.locator(".position").innerText(), /incrementing: 4/);
  await page.fill("#event-entity", "jdbc");
  const events = await page.locator("#event-log").innerText();
  assert.match(events, /jdbc's task crashes: the 3 records sent since the last flush will be sent again/);
  assert.match(events, /jdbc starts a new task; it reads its position from the offsets store and resumes after the start of the table/);
});

test("no console errors, page errors or CSP violations", () => suite.assertNoProblems());
