#!/usr/bin/env node
// The README's screenshots, taken from the built page in headless Chromium as a learner
// would click: docs/screenshots/*.png (1280 px wide viewport; most are one panel).
//
//   trunk build --release && node scripts/screenshots.mjs [--dist DIR] [--only NAME]
//
// Each shot waits for what it shows (never for a fixed time alone), so the pictures match
// the page of the commit they were taken at. Look at them before committing.
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { DIST_DIR, appsScenario, cliArg as arg, compactionScenario, largeScenario, REPO_ROOT, launchChromium, loadScenario, openPage, pause, play, runTo, serveDist } from "../tests/e2e/helpers.mjs";

const DIST = arg("--dist", DIST_DIR);
/** The moment a shot shows, reached by Run to (the same state on any machine; the speed argument is kept for the shots' reading). */
const playUntil = (page, seconds) => runTo(page, seconds);
const ONLY = arg("--only", "");
const OUT = join(REPO_ROOT, "docs", "screenshots");
mkdirSync(OUT, { recursive: true });

const VIEWPORT = { width: 1280, height: 800 };
const path = (name) => join(OUT, `${name}.png`);
const simTime = async (page) => Number((await page.locator("#sim-time").innerText()).replace(" s", ""));

/** acks=1, three replicas, both followers slowed: the leader's crash loses acknowledged records. */
const ACKS1 = JSON.stringify({
  version: 1,
  name: "acks=1 and a leader crash",
  seed: 7,
  cluster: { brokers: 3, network_latency_ms: 50, broker_session_timeout_ms: 2000, group_initial_rebalance_delay_ms: 0 },
  topics: [{ name: "orders", partitions: 1, replication_factor: 3, min_insync_replicas: 1 }],
  producers: [
    {
      name: "Producer1",
      config: { acks: "1", request_timeout_ms: 1500 },
      send: [{ topic: "orders", values: Array.from({ length: 20 }, (_, i) => `m${i + 1}`), start_ms: 1000, interval_ms: 300 }],
    },
  ],
  groups: [{ id: "readers", topics: ["orders"], config: { auto_offset_reset: "earliest" }, members: [{ client_id: "Consumer1" }] }],
});


const shots = {
  /** The page as it opens, a few seconds in: producers, topic, groups, controls. */
  async overview(page) {
    await playUntil(page, 12);
    await pause(page);
    await page.screenshot({ path: path("overview") });
  },

  /** Brokers after a leader crash under acks=1: lost records struck through, with the cause. */
  async replication(page) {
    await loadScenario(page, ACKS1, "#partition-0");
    const leader = await page.locator("#partition-0").getAttribute("data-leader");
    const followers = (await page.locator("[data-broker]").evaluateAll((els) => els.map((e) => e.dataset.broker))).filter((b) => b !== leader);
    for (const b of followers) await page.click(`[data-broker="${b}"] button.slow`);
    await playUntil(page, 3.2, "1×");
    await pause(page);
    await page.click(`[data-broker="${leader}"] button.crash`);
    await play(page, "2×");
    await page.locator("#partition-0 .lost-row .cell.lost").first().waitFor({ timeout: 30_000 });
    await page.waitForFunction(() => Number(document.querySelector("#sim-time")?.textContent.replace(" s", "")) > 7.5, null, { timeout: 30_000 });
    await pause(page);
    await page.locator("#brokers").screenshot({ path: path("replication") });
  },

  /** A consumer joins: the eager rebalance step by step (PreparingRebalance). */
  async rebalance(page) {
    await playUntil(page, 10);
    await pause(page);
    const card = page.locator('[data-group="ConsumerGroup01"]');
    await card.locator("button.add-member").click();
    for (let i = 0; i < 40 && (await card.getAttribute("data-state")) !== "preparing"; i++) await page.click("#step");
    for (let i = 0; i < 3; i++) await page.click("#step");
    await card.screenshot({ path: path("rebalance") });
  },

  /** One record's whole path. */
  async record(page) {
    await playUntil(page, 12);
    await pause(page);
    await page.locator(".panel.topics li.cell", { hasText: "m1" }).first().click();
    await page.locator("#record-path").screenshot({ path: path("record-path") });
  },

  /** The event log filtered by a consumer, one event selected (its members outlined). */
  async events(page) {
    await playUntil(page, 12);
    await pause(page);
    await page.fill("#event-entity", "Consumer2");
    await page.locator("#event-log li[data-seq]").nth(2).locator("button").click();
    await page.locator(".bottom").screenshot({ path: path("event-log") });
  },

  /** Fork, crash a consumer in this branch, compare. */
  async fork(page) {
    await playUntil(page, 4, "5×");
    await pause(page);
    await page.click("#fork-here");
    await page.locator('[data-group="ConsumerGroup01"] [data-client="Consumer2"] .crash-member').click();
    await playUntil(page, 15);
    await pause(page);
    await page.locator("#fork").screenshot({ path: path("fork") });
  },

  /** Charts and the sequence diagram. */
  async charts(page) {
    await page.click("#charts summary");
    await playUntil(page, 14);
    await pause(page);
    await page.locator("#charts").screenshot({ path: path("charts") });
    await page.click("#sequence summary");
    await page.locator("#sequence svg.seq").waitFor();
    await page.locator("#sequence").screenshot({ path: path("sequence") });
  },

  /** The same join under eager, cooperative and KIP-848, run three times with one seed. */
  async compare(page) {
    await pause(page);
    await page.locator("#compare").scrollIntoViewIfNeeded();
    const options = await page.locator("#compare-change option").allInnerTexts();
    const join = options.findIndex((o) => /joins/.test(o));
    await page.selectOption("#compare-change", String(Math.max(join, 0)));
    await page.click("#compare-run");
    await page.locator("#compare-result").waitFor({ timeout: 60_000 });
    await page.locator("#compare").screenshot({ path: path("compare") });
  },

  /** Chinese, dark theme, the keyboard help open. */
  async zhDark(page) {
    await page.goto(page.url().replace("lang=en", "lang=zh"));
    await page.locator("#app-root").waitFor();
    while (!/深色/.test(await page.locator("#theme-toggle").innerText())) await page.click("#theme-toggle");
    await playUntil(page, 12);
    await pause(page);
    await page.locator("#app-root").focus();
    await page.keyboard.press("?");
    await page.locator("#keys").waitFor();
    await page.screenshot({ path: path("zh-dark") });
  },

  /** The scenario editor, open on the default scenario. */
  async editor(page) {
    await pause(page);
    const open = page.locator("#edit-scenario");
    if (!(await open.count())) return console.log("  (no editor in this build)");
    await open.click();
    await page.locator(".editor").waitFor();
    await page.locator("#editor-title").click();
    await page.screenshot({ path: path("editor") });
  },

  /** A lesson: narration, what to look at outlined, a prediction answered (wrong). */
  async lesson(page) {
    await pause(page);
    await page.click("#lessons-toggle");
    await page.locator('#lessons li[data-lesson="consumer-groups"] button.start-lesson').click();
    await page.locator("#lesson").waitFor();
    for (let i = 0; i < 20; i++) {
      const choices = page.locator("#lesson .choice");
      if ((await choices.count()) > 0 && (await choices.first().isEnabled())) {
        await choices.nth(0).click();
        await page.locator("#lesson .verdict").waitFor();
        break;
      }
      await page.click("#lesson-next");
    }
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: path("lesson") });
  },

  /** A source connector, a Streams app and a push group (not Kafka). */
  async apps(page) {
    await loadScenario(page, appsScenario(), "#apps");
    await playUntil(page, 6, "5×");
    await pause(page);
    await page.locator("#apps").screenshot({ path: path("apps") });
  },

  /** A compacted topic after the cleaner's first pass and new writes: the segment strip
   * (clean, the checkpoint, dirty, active), a tombstone with its delete horizon, the gaps,
   * and the latest value per key beside the raw log. */
  async compaction(page) {
    await loadScenario(page, compactionScenario(), '.topic[data-topic="profiles"]');
    await runTo(page, 4);
    const part = page.locator('.topic[data-topic="profiles"] #partition-0');
    await part.locator("button.latest-toggle").click();
    await part.locator("table.latest").waitFor();
    await page.locator('.topic[data-topic="profiles"]').screenshot({ path: path("compaction") });
  },

  /** The same on a phone, in Chinese. */
  async "compaction-390"(page) {
    await page.goto(page.url().replace("lang=en", "lang=zh"));
    await page.locator("#app-root").waitFor();
    await loadScenario(page, compactionScenario(), '.topic[data-topic="profiles"]');
    await runTo(page, 4);
    const part = page.locator('.topic[data-topic="profiles"] #partition-0');
    await part.locator("button.latest-toggle").click();
    await part.locator("table.latest").waitFor();
    await page.locator('.topic[data-topic="profiles"]').screenshot({ path: path("compaction-390") });
  },

  /** 10 brokers, 240 partitions, 40 members under continuous production. */
  async large(page) {
    await loadScenario(page, largeScenario(), "#partition-239");
    await playUntil(page, 8, "1×");
    await pause(page);
    await page.screenshot({ path: path("large") });
  },

  /** "Try it on real Kafka" on the default scenario: compose.yaml and the first steps. */
  async bridge(page) {
    await pause(page);
    await page.click("#bridge-toggle");
    await page.locator("#bridge .bridge-step").first().waitFor();
    await page.locator("#bridge").screenshot({ path: path("bridge") });
  },

  /** Presentation mode with a lesson's captions, on a phone, a laptop and a projector. */
  async "present-390"(page) {
    await presentLesson(page, "present-390");
  },
  async "present-1366"(page) {
    await presentLesson(page, "present-1366");
  },
  async "present-1920"(page) {
    await presentLesson(page, "present-1920");
  },
};

/** Each shot's viewport, where it is not VIEWPORT. */
const VIEWPORTS = {
  "compaction-390": { width: 390, height: 844 },
  "present-390": { width: 390, height: 844 },
  "present-1366": { width: 1366, height: 768 },
  "present-1920": { width: 1920, height: 1080 },
};

/** Presentation mode, lesson 1 at its third step (the record keys outlined). */
async function presentLesson(page, name) {
  await pause(page);
  await page.click("#present-toggle");
  await page.locator(".app.present").waitFor();
  await page.click("#lessons-toggle");
  await page.locator('#lessons li[data-lesson="topics-partitions"] button.start-lesson').click();
  await page.locator("#lesson").waitFor();
  for (let i = 0; i < 2; i++) {
    const choices = page.locator("#lesson .choice");
    if ((await choices.count()) > 0 && (await choices.first().isEnabled())) {
      await choices.nth(1).click();
      await page.locator("#lesson .verdict").waitFor();
      continue;
    }
    await page.click("#lesson-next");
  }
  // As the page left it: the answer's partition and record scrolled into view, outlined.
  await page.evaluate(
    () =>
      new Promise((done) => {
        let last = -1;
        const settle = () => (window.scrollY === last ? done() : ((last = window.scrollY), setTimeout(settle, 100)));
        settle();
      }),
  );
  await page.screenshot({ path: path(name) });
}

const server = await serveDist(DIST);
const browser = await launchChromium();
try {
  for (const [name, shoot] of Object.entries(shots)) {
    if (ONLY && ONLY !== name) continue;
    const { page, context } = await openPage(browser, `${server.url}?lang=en`, { viewport: VIEWPORTS[name] ?? VIEWPORT });
    const start = Date.now();
    await shoot(page);
    console.log(`${name}: ${((Date.now() - start) / 1000).toFixed(1)} s (simulated ${await simTime(page)} s)`);
    await context.close();
  }
} finally {
  await browser.close();
  await server.close();
}
