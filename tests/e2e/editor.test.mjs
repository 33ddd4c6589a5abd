// The scenario editor, used as a learner would: open it from the current scenario, change
// the number of brokers and a topic's partitions, add a consumer, Apply — the page shows
// the new cluster. An invalid value (more replicas than brokers, a number that is none)
// shows the core's message in the form while the old run goes on unchanged and the form
// keeps everything typed; Cancel and Esc change nothing; keys typed in the form never
// reach the page's shortcuts; the edited scenario comes back after a reload and travels
// in a share link. A source connector with its table, a Streams app and a push group built
// in the form appear in the page's Connect and Streams panel and the group's push badge.
// Screenshots: tests/e2e/output/editor-{light,dark,tablet,zh,error}.png and
// editor-apps{,-push,-light,-dark,-tablet,-zh}.png.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { OUTPUT_DIR, appsScenario, atStart, browserSuite, loadScenario, pause, play, runTo } from "./helpers.mjs";

const suite = browserSuite(before, after);

/** What the screen shows (the editor is fixed to the viewport, so not the full page). */
async function shot(page, name) {
  mkdirSync(OUTPUT_DIR, { recursive: true });
  await page.screenshot({ path: join(OUTPUT_DIR, `${name}.png`) });
}

/** What the page shows of the cluster (not the form). */
async function cluster(page) {
  return page.evaluate(() => ({
    brokers: document.querySelectorAll("#brokers .broker[data-broker]").length,
    partitions: document.querySelectorAll('.panel.topics .topic[data-topic="Topic01"] .partition').length,
    members: [...document.querySelectorAll('.panel.groups [data-group="ConsumerGroup01"] .member')].map((m) => m.dataset.client),
    scenario: document.querySelector("#scenario").value,
  }));
}

/** The run as a learner sees it, to compare before and after. */
async function view(page) {
  return page.evaluate(() =>
    ["#sim-time", ".clock .muted", ".panel.topics", ".panel.groups", "#brokers"].map((s) => document.querySelector(s)?.innerText ?? "").join("\n----\n"),
  );
}

/**
 * Back at 1280×720, closes the editor, switches to Chinese and opens it again (the panel
 * covers the header's right side, where the language button is), in the system theme.
 */
async function reopenInChinese(page) {
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.keyboard.press("Escape");
  await page.locator("#scenario-editor").waitFor({ state: "detached" });
  await page.click("#lang-toggle");
  await openEditor(page);
  await page.waitForFunction(() => document.querySelector("#editor-apply")?.textContent === "应用");
  await page.evaluate(() => delete document.documentElement.dataset.theme);
}

async function openEditor(page) {
  await page.click("#edit-scenario");
  await page.locator("#scenario-editor").waitFor();
}

test("edit brokers, partitions and members, Apply: the page runs the new cluster", async (t) => {
  const page = await suite.open(t);
  assert.deepEqual(await cluster(page), { brokers: 3, partitions: 4, members: ["Consumer1", "Consumer2"], scenario: "two-groups" });
  await openEditor(page);
  assert.equal(await page.getAttribute("#edit-scenario", "aria-expanded"), "true");
  // It opens on the current scenario, with the first field focused.
  assert.equal(await page.evaluate(() => document.activeElement?.id), "ed-name");
  assert.equal(await page.inputValue("#ed-cluster-brokers"), "3");
  assert.equal(await page.inputValue("#ed-topics-0-partitions"), "4");
  assert.equal(await page.getAttribute("#ed-topics-0-partitions", "type"), "number");
  assert.equal(await page.getAttribute("#ed-topics-0-partitions", "max"), "256");
  // Every control has a name a screen reader says.
  const unnamed = await page.evaluate(() =>
    [...document.querySelectorAll("#scenario-editor input, #scenario-editor select, #scenario-editor textarea, #scenario-editor button")]
      .filter((el) => !(el.labels?.length && el.labels[0].textContent.trim()) && !el.getAttribute("aria-label") && !el.textContent.trim())
      .map((el) => el.id || el.outerHTML.slice(0, 80)),
  );
  assert.deepEqual(unnamed, []);

  await page.fill("#ed-cluster-brokers", "5");
  await page.fill("#ed-topics-0-partitions", "6");
  await page.fill("#ed-topics-0-replication_factor", "4");
  await page.click('#ed-groups-0 .ed-add-member');
  await page.locator("#ed-groups-0-members-2-client_id").waitFor();
  assert.equal(await page.inputValue("#ed-groups-0-members-2-client_id"), "Consumer3");
  await page.fill("#ed-groups-0-members-2-config-processing_ms", "20");
  await page.click("#editor-apply");
  await page.locator("#scenario-editor").waitFor({ state: "detached" });
  await page.locator("#notice.info").waitFor();
  assert.match(await page.locator("#notice").innerText(), /Scenario loaded/);
  assert.equal(await page.evaluate(() => document.activeElement?.id), "edit-scenario");
  await page.waitForFunction(() => document.querySelectorAll('.panel.groups [data-group="ConsumerGroup01"] .member').length === 3);
  assert.deepEqual(await cluster(page), {
    brokers: 5,
    partitions: 6,
    members: ["Consumer1", "Consumer2", "Consumer3"],
    scenario: "custom",
  });
  // Four replicas per partition now, spread over five brokers.
  const replicas = await page.locator('#brokers .replica[data-topic="Topic01"]:not(.none)').count();
  assert.equal(replicas, 6 * 4);
  // The run goes on with it: the seed's seven records (sent from 7 s) reach the new partitions.
  await runTo(page, 12);
  assert.ok((await page.locator('.panel.topics .topic[data-topic="Topic01"] li.cell').count()) >= 7);
});

test("an invalid value shows the core's message; the run and the form stay as they were", async (t) => {
  const page = await suite.open(t);
  await atStart(page);
  await runTo(page, 3);
  const before = await view(page);
  await openEditor(page);
  await page.fill("#ed-topics-0-partitions", "6");
  await page.fill("#ed-topics-0-replication_factor", "5");
  await page.click("#editor-apply");
  const error = page.locator("#editor-error");
  await error.waitFor();
  assert.match(await error.innerText(), /Not applied.*topics\[0\]\.replication_factor: topic "Topic01" asks for 5 replicas but the cluster has 3 broker\(s\)/s);
  assert.equal(await page.getAttribute("#ed-topics-0-replication_factor", "aria-invalid"), "true");
  assert.equal(await page.evaluate(() => document.activeElement?.id), "ed-topics-0-replication_factor");
  // Nothing was lost: the form keeps what was typed, the run is the same run.
  assert.equal(await page.inputValue("#ed-topics-0-partitions"), "6");
  assert.equal(await page.inputValue("#ed-topics-0-replication_factor"), "5");
  assert.equal(await view(page), before);
  assert.equal(await page.locator("#scenario").inputValue(), "two-groups");
  await shot(page, "editor-error");
  // … and it still runs: playing moves the clock (whatever the machine's speed).
  const time = await page.locator("#sim-time").getAttribute("data-ms");
  await play(page, "5×");
  await page.waitForFunction((t0) => document.querySelector("#sim-time")?.dataset.ms !== t0, time);
  await pause(page);
  assert.equal((await cluster(page)).partitions, 4);

  // A field that holds no number: its own message, the text kept.
  await page.fill("#ed-topics-0-replication_factor", "3");
  await page.fill("#ed-cluster-brokers", "");
  await page.click("#editor-apply");
  await page.waitForFunction(() => /cluster\.brokers/.test(document.querySelector("#editor-error")?.textContent ?? ""));
  assert.match(await error.innerText(), /cluster\.brokers: "" is not a whole number from 1 to 12/);
  assert.equal(await page.evaluate(() => document.activeElement?.id), "ed-cluster-brokers");

  // Fixed, it applies.
  await page.fill("#ed-cluster-brokers", "3");
  await page.click("#editor-apply");
  await page.locator("#scenario-editor").waitFor({ state: "detached" });
  await page.waitForFunction(() => document.querySelectorAll('.panel.topics .topic[data-topic="Topic01"] .partition').length === 6);
});

test("Cancel and Esc close the editor and change nothing; its keys stay out of the page's shortcuts", async (t) => {
  const page = await suite.open(t);
  await pause(page);
  const before = await view(page);
  await openEditor(page);
  await page.fill("#ed-cluster-brokers", "7");
  await page.click("#editor-cancel");
  await page.locator("#scenario-editor").waitFor({ state: "detached" });
  assert.equal(await page.evaluate(() => document.activeElement?.id), "edit-scenario");
  assert.equal(await view(page), before);

  // Opened again, it starts from the scenario as it is, not from what was cancelled.
  await openEditor(page);
  assert.equal(await page.inputValue("#ed-cluster-brokers"), "3");
  // Space, ← → and ? typed into the form or on its background do nothing to the page.
  await page.fill("#ed-name", "");
  await page.keyboard.type("My cluster ? ");
  assert.equal(await page.inputValue("#ed-name"), "My cluster ? ");
  await page.click("#editor-title");
  for (const key of [" ", "ArrowRight", "ArrowLeft", "?"]) await page.keyboard.press(key);
  assert.match(await page.locator("#play").innerText(), /Play/);
  assert.equal(await page.locator("#keys").count(), 0);
  assert.equal(await view(page), before);
  // Tab moves through the form's controls in order, Enter presses a button.
  await page.focus("#ed-cluster-brokers");
  await page.keyboard.press("Tab");
  assert.equal(await page.evaluate(() => document.activeElement?.id), "ed-cluster-network_latency_ms");
  const members = await page.locator("#ed-groups-1 .ed-member").count();
  await page.focus("#ed-groups-1 .ed-add-member");
  await page.keyboard.press("Enter");
  assert.equal(await page.locator("#ed-groups-1 .ed-member").count(), members + 1);
  // Esc closes it, as Cancel does.
  await page.fill("#ed-cluster-brokers", "9");
  await page.keyboard.press("Escape");
  await page.locator("#scenario-editor").waitFor({ state: "detached" });
  assert.equal(await view(page), before);
  assert.equal((await cluster(page)).brokers, 3);
});

test("the edited scenario comes back after a reload and travels in a share link", async (t) => {
  const { page } = await suite.openFull(t);
  await openEditor(page);
  await page.fill("#ed-cluster-brokers", "4");
  await page.fill("#ed-topics-0-partitions", "5");
  await page.click("#editor-apply");
  await page.waitForFunction(() => document.querySelectorAll('.panel.topics .topic[data-topic="Topic01"] .partition').length === 5);
  await pause(page);
  const mine = await cluster(page);
  assert.deepEqual([mine.brokers, mine.partitions], [4, 5]);

  await page.reload();
  await page.waitForFunction(() => window.__started);
  await page.locator("#notice.info").waitFor();
  assert.deepEqual(await cluster(page), mine);
  // The editor opens on the restored scenario.
  await openEditor(page);
  assert.equal(await page.inputValue("#ed-cluster-brokers"), "4");
  await page.click("#editor-cancel");

  await page.click("#share");
  const link = await page.locator("#share-link").inputValue();
  const other = await suite.openFull(t, link.slice(link.indexOf("?")));
  await other.page.locator("#notice.info").waitFor();
  assert.deepEqual(await cluster(other.page), mine);
});

test("the editor in light and dark, on a tablet, and in Chinese", async (t) => {
  const page = await suite.open(t);
  await page.setViewportSize({ width: 1280, height: 720 });
  await pause(page);
  await openEditor(page);
  await page.locator("#ed-groups-0 .ed-more summary").first().click();
  await page.evaluate(() => (document.documentElement.dataset.theme = "light"));
  await shot(page, "editor-light");
  await page.evaluate(() => (document.documentElement.dataset.theme = "dark"));
  await shot(page, "editor-dark");
  // The foot with Apply stays on screen however long the form is.
  const foot = await page.locator(".editor-foot").boundingBox();
  assert.ok(foot && foot.y + foot.height <= 720, JSON.stringify(foot));

  await page.setViewportSize({ width: 768, height: 1024 });
  const box = await page.locator("#scenario-editor").boundingBox();
  assert.ok(box && box.x >= 0 && box.width <= 768, JSON.stringify(box));
  const overflow = await page.evaluate(() => {
    const body = document.querySelector(".editor-body");
    return body.scrollWidth - body.clientWidth;
  });
  assert.equal(overflow, 0, "no sideways scrolling in the form");
  await shot(page, "editor-tablet");

  // In Chinese, no English label is left in the form (Kafka's setting names stay).
  // (The panel covers the header's right side: close it, switch, open it again.)
  await reopenInChinese(page);
  await shot(page, "editor-zh");
});

test("a source connector with two rows and a Streams app, Apply: the Connect and Streams panel shows them; a push group shows its badge", async (t) => {
  const page = await suite.open(t);
  await pause(page);
  assert.equal(await page.locator("#apps").count(), 0);
  await openEditor(page);
  // The Streams app needs a second topic to write to.
  await page.click("#ed-topics .ed-add-topic");
  assert.equal(await page.inputValue("#ed-topics-1-name"), "Topic02");

  await page.click("#ed-connectors .ed-add-connector");
  assert.equal(await page.inputValue("#ed-connectors-0-name"), "jdbc-source-1");
  assert.equal(await page.inputValue("#ed-connectors-0-topic"), "Topic01");
  assert.equal(await page.inputValue("#ed-connectors-0-poll_interval_ms"), "5000");
  await page.fill("#ed-connectors-0-name", "orders-db");
  await page.fill("#ed-connectors-0-table-rows-0-value", "new");
  await page.click("#ed-connectors-0 .ed-add-row");
  assert.equal(await page.inputValue("#ed-connectors-0-table-rows-1-id"), "2");
  await page.fill("#ed-connectors-0-table-rows-1-value", "paid");
  await page.selectOption("#ed-connectors-0-mode", "timestamp+incrementing");
  // A planned change: an update of row 1 at 8 s.
  await page.click("#ed-connectors-0 .ed-add-change");
  await page.selectOption("#ed-connectors-0-table-changes-0", "update");
  await page.fill("#ed-connectors-0-table-changes-0-update-id", "1");
  await page.fill("#ed-connectors-0-table-changes-0-update-value", "shipped");
  await page.fill("#ed-connectors-0-table-changes-0-at_ms", "8000");

  await page.click("#ed-streams .ed-add-streams");
  assert.equal(await page.inputValue("#ed-streams-0-application_id"), "streams-app-1");
  assert.deepEqual([await page.inputValue("#ed-streams-0-source"), await page.inputValue("#ed-streams-0-sink")], ["Topic01", "Topic02"]);
  await page.fill("#ed-streams-0-application_id", "order-counter");
  await page.selectOption("#ed-streams-0-op", "count_by_key");
  assert.equal(await page.inputValue("#ed-streams-0-op-count_by_key-store"), "counts");
  await page.fill("#ed-streams-0-instances", "2");
  // The core's check decides: a sink that is the source is refused with its place.
  await page.selectOption("#ed-streams-0-sink", "Topic01");
  await page.click("#editor-apply");
  await page.locator("#editor-error").waitFor();
  assert.match(await page.locator("#editor-error").innerText(), /streams\[0\]\.sink: the sink must be another topic than the source/);
  assert.equal(await page.evaluate(() => document.activeElement?.id), "ed-streams-0-sink");
  await page.selectOption("#ed-streams-0-sink", "Topic02");

  // Push is labelled as what it is.
  const push = await page.locator('#ed-groups-1-config-delivery option[value="push"]').innerText();
  assert.match(push, /not Kafka/);
  assert.equal(await page.locator("#ed-groups-1-config-push_buffer_max_records").count(), 0);
  await page.selectOption("#ed-groups-1-config-delivery", "push");
  await page.fill("#ed-groups-1-config-push_buffer_max_records", "300");
  assert.match(await page.locator("#ed-groups-1 .ed-push-note").innerText(), /push \(not Kafka — a teaching device\)/);

  // Every new control has a name a screen reader says.
  const unnamed = await page.evaluate(() =>
    [...document.querySelectorAll("#ed-connectors input, #ed-connectors select, #ed-connectors button, #ed-streams input, #ed-streams select, #ed-streams button")]
      .filter((el) => !(el.labels?.length && el.labels[0].textContent.trim()) && !el.getAttribute("aria-label") && !el.textContent.trim())
      .map((el) => el.id || el.outerHTML.slice(0, 80)),
  );
  assert.deepEqual(unnamed, []);
  await page.locator("#ed-connectors").scrollIntoViewIfNeeded();
  await shot(page, "editor-apps");

  await page.click("#editor-apply");
  await page.locator("#scenario-editor").waitFor({ state: "detached" });
  await page.locator("#apps").waitFor();
  const connector = page.locator('#apps [data-connector="orders-db"]');
  assert.match(await connector.locator("table.rows").innerText(), /1\s+new[\s\S]*2\s+paid/);
  const app = page.locator('#apps [data-streams="order-counter"]');
  assert.match(await app.locator(".topology").innerText(), /Topic01 → groupByKey\(\)\.count\("counts"\) → Topic02/);
  assert.match(await app.innerText(), /order-counter-1[\s\S]*order-counter-2/);
  const group = page.locator('.panel.groups [data-group="ConsumerGroup02"]');
  assert.match(await group.locator(".push-badge").innerText(), /not Kafka/);
  assert.equal(await page.locator('.panel.groups [data-group="ConsumerGroup01"] .push-badge').count(), 0);

  // Opened again, the form shows them as applied; removing the topic takes the connector
  // and the app with it, as it takes the planned sends.
  await openEditor(page);
  assert.equal(await page.inputValue("#ed-connectors-0-table-changes-0-update-value"), "shipped");
  assert.equal(await page.inputValue("#ed-groups-1-config-push_buffer_max_records"), "300");
  await page.click('#ed-topics-0 .ed-remove');
  assert.equal(await page.locator("#ed-connectors .ed-item").count(), 0);
  assert.equal(await page.locator("#ed-streams .ed-item").count(), 0);
  await page.click("#editor-cancel");
  await page.locator('#apps [data-connector="orders-db"]').waitFor();
});

test("the editor's Connect, Streams and push sections in light and dark, on a tablet, and in Chinese", async (t) => {
  const page = await suite.open(t);
  await page.setViewportSize({ width: 1280, height: 720 });
  await loadScenario(page, appsScenario(), "#apps");
  await pause(page);
  await openEditor(page);
  assert.equal(await page.inputValue("#ed-groups-0-config-delivery"), "push");
  await page.evaluate(() => (document.documentElement.dataset.theme = "light"));
  await page.locator("#ed-groups-0-config-push_buffer_max_records").scrollIntoViewIfNeeded();
  await shot(page, "editor-apps-push");
  await page.locator("#ed-connectors").scrollIntoViewIfNeeded();
  await shot(page, "editor-apps-light");
  await page.evaluate(() => (document.documentElement.dataset.theme = "dark"));
  await shot(page, "editor-apps-dark");
  await page.setViewportSize({ width: 768, height: 1024 });
  const overflow = await page.evaluate(() => {
    const body = document.querySelector(".editor-body");
    return body.scrollWidth - body.clientWidth;
  });
  assert.equal(overflow, 0, "no sideways scrolling in the form");
  await page.locator("#ed-connectors .ed-change").first().scrollIntoViewIfNeeded();
  await shot(page, "editor-apps-tablet");
  await reopenInChinese(page);
  assert.match(await page.locator("#ed-groups-0-config-delivery option:checked").innerText(), /不是 Kafka/);
  await page.locator("#ed-streams").scrollIntoViewIfNeeded();
  await shot(page, "editor-apps-zh");
});

test("no console errors, page errors or CSP violations", () => suite.assertNoProblems());

test("the editor schedules a fault: a broker crash at 8 s goes on the timeline and happens at 8 s", async (t) => {
  const page = await suite.open(t);
  await atStart(page);
  await openEditor(page);
  await page.fill("#ed-fault-at", "8");
  await page.selectOption("#ed-fault-kind", "crash_broker");
  await page.selectOption("#ed-fault-target", "1");
  await page.click("#ed-fault-add");
  await page.locator("#ed-timeline .ed-commands li").waitFor();
  assert.match(await page.locator("#ed-timeline .ed-commands li").first().innerText(), /8\.0 s[\s\S]*"type":"crash_broker","broker":1/);
  // A moment that is not one disables Add and says what is allowed.
  await page.fill("#ed-fault-at", "soon");
  assert.equal(await page.locator("#ed-fault-add").isDisabled(), true);
  assert.match(await page.locator("#ed-timeline .ed-problem").innerText(), /seconds from 0 to 604800/);
  await page.click("#editor-apply");
  await page.locator("#scenario-editor").waitFor({ state: "detached" });
  await runTo(page, 7.9);
  assert.equal(await page.locator('#brokers .broker[data-broker="1"].crashed').count(), 0, "up before 8 s");
  await runTo(page, 8.1);
  assert.equal(await page.locator('#brokers .broker[data-broker="1"].crashed').count(), 1, "crashed at 8 s");
});
