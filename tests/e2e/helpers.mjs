// Helpers for the end-to-end tests (run with `npm run e2e` = `node --test tests/e2e/*.test.mjs`).
//
// They serve the Trunk build in dist/ from Node on an ephemeral 127.0.0.1 port, and drive the
// Debian Chromium at /usr/bin/chromium through playwright-core (never `playwright install`).
//
//   import { startApp } from "./helpers.mjs";
//   const app = await startApp();                 // server + browser + page at the app, started
//   await app.page.locator("#app-root").waitFor();
//   await app.screenshot("smoke");                // tests/e2e/output/smoke.png
//   assert.deepEqual(app.problems(), []);         // console errors, page errors, CSP violations
//   await app.close();
//
// Lower-level pieces: serveDist(), launchChromium(), openPage(browser, url).
//
// Every test reaches the moment it checks by stepping the simulation (Step, Run to, the
// jump and scrubber controls, or a share link), never by playing for a while and waiting:
// the state a test checks is the same on any machine. Waits are for the page to render
// what a click did; their timeouts (HANG_MS) only catch a hang.
//
// E2E_CPU_THROTTLE=6 runs every page with Chromium's CPU slowed six times (CDP
// Emulation.setCPUThrottlingRate), as on an old laptop: the suite must pass that way too.
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";
import { serveDir } from "../../scripts/static-server.mjs";

export const REPO_ROOT = resolve(fileURLToPath(new URL("../..", import.meta.url)));
export const DIST_DIR = process.env.E2E_DIST_DIR ?? join(REPO_ROOT, "dist");
export const OUTPUT_DIR = join(REPO_ROOT, "tests", "e2e", "output");
export const CHROMIUM = process.env.CHROMIUM_BIN ?? "/usr/bin/chromium";
/** How long a wait may take before it counts as a hang (never a measure of speed). */
export const HANG_MS = 60_000;
/** E2E_CPU_THROTTLE: how many times slower every page's CPU runs (1: not throttled). */
export const CPU_THROTTLE = (() => {
  const raw = process.env.E2E_CPU_THROTTLE ?? "";
  if (raw === "") return 1;
  const rate = Number(raw);
  if (!Number.isFinite(rate) || rate < 1 || rate > 100) {
    throw new Error(`E2E_CPU_THROTTLE=${raw}: expected a number from 1 to 100 (how many times slower)`);
  }
  return rate;
})();
export const CHROMIUM_ARGS = [
  "--headless=new",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-dev-shm-usage",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--disable-quic",
  "--no-first-run",
];

/**
 * Serves `dir` (default dist/) on http://127.0.0.1:<ephemeral port>/, compressed as a real
 * web server would (gzip or brotli when the browser asks; scripts/static-server.mjs, the
 * same server scripts/serve.sh runs). "/" serves index.html; missing files are 404 (no SPA
 * fallback); only GET and HEAD. Returns { url, port, close(), requests } where requests
 * lists "METHOD path status [encoding]".
 */
export async function serveDist(dir = DIST_DIR, options = {}) {
  return serveDir(dir, { compress: process.env.E2E_NO_COMPRESS ? false : true, ...options });
}

/** Launches headless Debian Chromium. Close it with `await browser.close()`. */
export async function launchChromium(options = {}) {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`${CHROMIUM} is missing: run scripts/setup.sh (apt chromium)`);
  }
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: CHROMIUM_ARGS,
    timeout: 30_000,
    ...options,
  });
}

/**
 * Opens a new page (1280x800) on `url` and records its problems: console errors and warnings,
 * uncaught page errors, failed requests, and CSP violations. Returns { page, context, problems() }.
 * With `waitForStart` (default true) it waits for Trunk's "TrunkApplicationStarted" event,
 * which web/boot.js dispatches once the wasm app has been initialised.
 */
export async function openPage(browser, url, { waitForStart = true, viewport } = {}) {
  const context = await browser.newContext({ viewport: viewport ?? { width: 1280, height: 800 } });
  const page = await preparePage(await context.newPage());
  const problems = [];
  page.on("console", (msg) => {
    if (msg.type() === "error" || msg.type() === "warning") {
      problems.push(`console ${msg.type()}: ${msg.text()}`);
    }
  });
  page.on("pageerror", (err) => problems.push(`page error: ${err.message}`));
  page.on("requestfailed", (req) =>
    problems.push(`request failed: ${req.url()} (${req.failure()?.errorText})`),
  );
  await page.addInitScript(() => {
    window.__started = new Promise((ok) =>
      window.addEventListener("TrunkApplicationStarted", () => ok(true), { once: true }),
    );
    document.addEventListener("securitypolicyviolation", (e) =>
      console.error(`CSP violation: ${e.violatedDirective} blocked ${e.blockedURI || "inline"}`),
    );
  });
  await page.goto(url, { waitUntil: "load" });
  if (waitForStart) await page.waitForFunction(() => window.__started);
  return { page, context, problems: () => [...problems] };
}

/**
 * Readies a new page for the tests: the hang timeout, and the CPU throttling asked for by
 * E2E_CPU_THROTTLE (applied before the page loads anything). Returns the page.
 */
export async function preparePage(page) {
  page.setDefaultTimeout(HANG_MS);
  page.setDefaultNavigationTimeout(HANG_MS);
  if (CPU_THROTTLE > 1) {
    const cdp = await page.context().newCDPSession(page);
    await cdp.send("Emulation.setCPUThrottlingRate", { rate: CPU_THROTTLE });
  }
  return page;
}

/** Saves a full-page PNG as tests/e2e/output/<name>.png and returns its path. */
export async function screenshot(page, name) {
  mkdirSync(OUTPUT_DIR, { recursive: true });
  const path = join(OUTPUT_DIR, `${name}.png`);
  await page.screenshot({ path, fullPage: true });
  return path;
}

/**
 * Everything at once: serves dist/, launches Chromium, opens the app and waits until it started.
 * Returns { url, server, browser, page, problems(), screenshot(name), close() }.
 * Use one per test file (in before/after hooks) or one per test; always close() it.
 */
export async function startApp(options = {}) {
  const server = await serveDist(options.dist);
  let browser;
  try {
    browser = await launchChromium();
    const { page, context, problems } = await openPage(browser, server.url, options);
    return {
      url: server.url,
      server,
      browser,
      context,
      page,
      problems,
      screenshot: (name) => screenshot(page, name),
      close: async () => {
        await browser.close();
        await server.close();
      },
    };
  } catch (err) {
    await browser?.close();
    await server.close();
    throw err;
  }
}

/**
 * One test file's browser: serves dist/ and launches Chromium before its tests, closes
 * both after, and checks (assertNoProblems) that no page of the file had console errors, page
 * errors, failed requests or CSP violations. Pages opened with open() close with their test.
 *
 *   const suite = browserSuite(before, after);
 *   test("…", async (t) => { const page = await suite.open(t); … });
 *   test("no console errors, page errors or CSP violations", () => suite.assertNoProblems());
 */
export function browserSuite(before, after, { viewport = { width: 1280, height: 900 } } = {}) {
  let server, browser;
  const problemLists = [];
  before(async () => {
    server = await serveDist();
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });
  const suite = {
    url: (suffix = "?lang=en") => `${server.url}${suffix}`,
    /** Opens a page in a fresh context for test `t`; returns { page, context, problems }. */
    async openFull(t, suffix = "?lang=en") {
      const opened = await openPage(browser, `${server.url}${suffix}`, { viewport });
      problemLists.push(opened.problems);
      t.after(() => opened.context.close());
      return opened;
    },
    async open(t, suffix) {
      return (await suite.openFull(t, suffix)).page;
    },
  };
  /** For the file's last test: no page had console errors, page errors or CSP violations. */
  suite.assertNoProblems = () => {
    const all = problemLists.flatMap((problems) => problems());
    if (all.length) throw new Error(all.join("\n"));
  };
  return suite;
}

/** Pauses the page if it is playing, and waits until it shows it has paused. */
export async function pause(page) {
  if (/Pause|暂停/.test(await page.locator("#play").innerText())) await page.click("#play");
  await page.waitForFunction(() => /Play|播放/.test(document.querySelector("#play")?.textContent ?? ""));
}

/**
 * Sets the speed and plays. Only for checks that hold at any speed (the clock moved,
 * something slides): where the run gets to while playing depends on the machine.
 */
export async function play(page, speed = "5×") {
  await page.selectOption("#speed", { label: speed });
  if (/Play|播放/.test(await page.locator("#play").innerText())) await page.click("#play");
}

/** The simulated clock in milliseconds, as the page shows it (#sim-time's data-ms). */
export async function simMs(page) {
  return Number(await page.locator("#sim-time").getAttribute("data-ms"));
}

/**
 * Run to: the run goes to exactly `seconds` of simulated time (forward or back) and
 * pauses there, as a learner does with the Run to box. The same state on any machine.
 */
export async function runTo(page, seconds) {
  await pause(page);
  await page.fill("#run-to-time", String(seconds));
  await page.click("#run-to");
  const ms = Math.round(seconds * 1000);
  await page.waitForFunction(
    (ms) => document.querySelector("#sim-time")?.dataset.ms === String(ms) && !document.querySelector("#run-to-status"),
    ms,
    { timeout: HANG_MS },
  );
}

/** Pauses, then Reset: the run back at 0.0 s, paused, the same on any machine. */
export async function atStart(page) {
  await pause(page);
  await page.click("#reset");
  await page.waitForFunction(() => document.querySelector("#sim-time")?.dataset.ms === "0");
}

/**
 * Clicks `selector` (Step, ⟲, a jump…) and waits until the page has rendered what it did:
 * the event count or the clock changed. Some clicks change neither (nothing left to do):
 * after HANG_MS that counts as a hang, unless `mayDoNothing`.
 */
export async function clickAndWait(page, selector, { mayDoNothing = false } = {}) {
  const before = await page.evaluate(() => [document.querySelector(".clock .muted")?.textContent, document.querySelector("#sim-time")?.dataset.ms]);
  await page.click(selector);
  const moved = page.waitForFunction(
    ([events, ms]) => document.querySelector(".clock .muted")?.textContent !== events || document.querySelector("#sim-time")?.dataset.ms !== ms,
    before,
    { timeout: mayDoNothing ? 2_000 : HANG_MS },
  );
  if (mayDoNothing) await moved.catch(() => {});
  else await moved;
}

/** A script's `--name value` argument, or `fallback`. */
export function cliArg(name, fallback) {
  const args = process.argv.slice(2);
  const i = args.indexOf(name);
  return i >= 0 && args[i + 1] ? args[i + 1] : fallback;
}

/** Pastes a scenario's JSON into the page and loads it (paused), waiting for `ready`. */
export async function loadScenario(page, json, ready) {
  await pause(page);
  await page.click(".scenario details.json summary");
  // The box is filled by the summary's click a moment later: typing before would be overwritten.
  await page.waitForFunction(() => document.querySelector("#scenario-json")?.value.length > 0);
  await page.fill("#scenario-json", json);
  await page.click("#load-json");
  await page.locator("#notice.info").waitFor();
  await page.waitForFunction(() => document.querySelector("#sim-time")?.dataset.ms === "0");
  if (ready) await page.locator(ready).waitFor();
  await page.click(".scenario details.json summary");
}


/**
 * Issue 7's large scenario as JSON: 10 brokers, one topic of 240 partitions with replication
 * factor 3, two groups of 20 members, a producer sending 100 records a second
 * (benches/common/large.json with its members and 50,000 values filled in, as
 * `large_scenario_json()` in benches/common/mod.rs does for the native figures).
 */
export function largeScenario() {
  const scenario = JSON.parse(readFileSync(join(REPO_ROOT, "benches", "common", "large.json"), "utf8"));
  scenario.producers[0].send[0].values = Array.from({ length: 50000 }, (_, i) => `v${i}`);
  for (const group of scenario.groups) {
    group.members = Array.from({ length: 20 }, (_, i) => ({ client_id: `${group.id}-${String(i + 1).padStart(2, "0")}` }));
  }
  return JSON.stringify(scenario);
}

/**
 * Issue 20's long busy run: 12 partitions, two producers of 30,000 records at 10 a second
 * each, three groups of 3 members (benches/common/long.json filled in as
 * `long_scenario_json()` in benches/common/mod.rs does).
 */
export function longScenario() {
  const scenario = JSON.parse(readFileSync(join(REPO_ROOT, "benches", "common", "long.json"), "utf8"));
  scenario.producers.forEach((p, i) => {
    const tag = i === 0 ? "a" : "b";
    p.send[0].values = Array.from({ length: 30000 }, (_, k) => `${tag}${k}`);
  });
  for (const group of scenario.groups) {
    group.members = Array.from({ length: 3 }, (_, i) => ({ client_id: `${group.id}-${i + 1}` }));
  }
  return JSON.stringify(scenario);
}

/**
 * A scenario with a source connector (a table of customers), a Kafka Streams app counting
 * them by key, and a push group (not Kafka — a teaching device) with a slow member.
 */
export function appsScenario() {
  return JSON.stringify({
    version: 1,
    seed: 5,
    topics: [
      { name: "customers", partitions: 2, replication_factor: 3 },
      { name: "counts", partitions: 2, replication_factor: 3 },
      { name: "clicks", partitions: 1, replication_factor: 3 },
    ],
    connectors: [
      {
        name: "jdbc",
        topic: "customers",
        mode: "incrementing",
        table: {
          rows: [{ id: 1, value: "ada" }, { id: 2, value: "bob" }, { id: 3, value: "cy" }],
          changes: [{ at_ms: 8000, insert: { id: 4, value: "dee" } }],
        },
      },
    ],
    streams: [{ application_id: "counter", source: "customers", sink: "counts", op: { count_by_key: { store: "per-id" } } }],
    producers: [
      {
        name: "clicker",
        send: [{ topic: "clicks", values: Array.from({ length: 400 }, (_, i) => `c${i}`), start_ms: 1000, interval_ms: 10 }],
      },
    ],
    groups: [
      {
        id: "pushed",
        topics: ["clicks"],
        config: { delivery: "push", push_buffer_max_records: 1000 },
        members: [{ client_id: "slow", config: { processing_ms: 200 } }],
      },
    ],
  });
}

/**
 * Log compaction (issue 19): keyed writes to a compacted topic "profiles" (200-byte segments,
 * one batch a record), "bob" deleted by a tombstone at offset 6; the cleaners wake every 3 s,
 * and `LATER` is written after the first pass. A group "readers" reads from the start.
 */
export const COMPACTION_WRITES = {
  WRITES: [
    ["alice", "a1"],
    ["bob", "b1"],
    ["alice", "a2"],
    ["carol", "c1"],
    ["bob", "b2"],
    ["alice", "a3"],
    ["bob", null],
    ["dave", "d1"],
    ["carol", "c2"],
    ["erin", "e1"],
  ],
  LATER: [
    ["alice", "a4"],
    ["dave", "d2"],
    ["frank", "f1"],
  ],
};

/** The compaction scenario as JSON (see COMPACTION_WRITES). */
export function compactionScenario() {
  const produce = (at_ms, [key, value]) => ({ at_ms, command: { type: "produce", producer: "app", topic: "profiles", key, value } });
  const { WRITES, LATER } = COMPACTION_WRITES;
  return JSON.stringify({
    version: 1,
    name: "compaction in the page",
    seed: 7,
    cluster: { brokers: 3, network_latency_ms: 5, group_initial_rebalance_delay_ms: 0, log_cleaner_backoff_ms: 3000 },
    topics: [{ name: "profiles", partitions: 1, replication_factor: 3, segment_bytes: 200, cleanup_policy: "compact" }],
    producers: [{ name: "app", config: { linger_ms: 0 } }],
    groups: [{ id: "readers", topics: ["profiles"], config: { auto_offset_reset: "earliest" }, members: [{ client_id: "r1" }] }],
    commands: [...WRITES.map((w, i) => produce(200 + 100 * i, w)), ...LATER.map((w, i) => produce(3500 + 100 * i, w))],
  });
}
