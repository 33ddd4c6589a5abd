#!/usr/bin/env node
// The page's figures: bundle sizes, time to first render, and frame times while it plays.
//
//   trunk build --release && node scripts/bench-page.mjs [--seconds 10] [--dist DIR]
//
// 1. Sizes of dist/'s wasm, JS and CSS, raw and gzipped (level 9), against the target of
//    400 KB gzipped for wasm + JS together.
// 2. Time to first render in headless Chromium (Debian's, through playwright-core, as the
//    end-to-end tests): from navigation start to #app-root holding text, median of 5 loads;
//    also first contentful paint and the moment web/boot.js reports the app started.
// 3. Frame times while the page plays: the intervals between requestAnimationFrame callbacks,
//    p50/p95/max, and long tasks (> 50 ms). Two runs: the default scenario at the default
//    speed from the start, and a large one (10 brokers, one topic of 240 partitions with
//    replication factor 3, 2 groups of 20 members, a producer sending 100 records a second)
//    pasted as JSON and played at 1x and 5x.
// 4. With --long [--minutes 10]: issue 20's long busy run (benches/common/long.json: 12
//    partitions, two producers of 30,000 records at 10/s, three groups of 3) played at 20x
//    for that many minutes of wall time. Every minute: WebAssembly memory, frame times over
//    5 s, long tasks, the simulated clock and the speed reached. After 1 minute and at the
//    end: the time a click on Back (one step), a scrubber jump to the middle of the run and
//    opening the run's share link take until the page shows the result.
// 5. Loads under CDP throttling (Fast 3G, Fast 3G with the CPU 4x slower, 4G), cold cache:
//    when the loading screen paints, when the wasm arrives, when the app starts.
// Figures are printed, never asserted. See BENCHMARKS.md.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { DIST_DIR, cliArg as arg, largeScenario, longScenario, launchChromium, loadScenario, openPage, pause, play, serveDist, simMs } from "../tests/e2e/helpers.mjs";

const SECONDS = Number(arg("--seconds", "10"));
const DIST = arg("--dist", DIST_DIR);
const KB = 1000;

function sizes() {
  const rows = [];
  for (const name of readdirSync(DIST).sort()) {
    if (!/\.(wasm|js|css)$/.test(name)) continue;
    const bytes = readFileSync(join(DIST, name));
    rows.push({ name, raw: statSync(join(DIST, name)).size, gz: gzipSync(bytes, { level: 9 }).length });
  }
  console.log(`bundle (${DIST}), gzip level 9; KB = 1000 bytes`);
  console.log(`${"file".padEnd(44)} ${"raw KB".padStart(9)} ${"gzip KB".padStart(9)}`);
  for (const r of rows) {
    console.log(`${r.name.padEnd(44)} ${(r.raw / KB).toFixed(1).padStart(9)} ${(r.gz / KB).toFixed(1).padStart(9)}`);
  }
  const code = rows.filter((r) => /\.(wasm|js)$/.test(r.name));
  const raw = code.reduce((a, r) => a + r.raw, 0);
  const gz = code.reduce((a, r) => a + r.gz, 0);
  const verdict = gz <= 400 * KB ? "met" : "MISSED";
  console.log(
    `${"wasm + JS".padEnd(44)} ${(raw / KB).toFixed(1).padStart(9)} ${(gz / KB).toFixed(1).padStart(9)}  (target <= 400 KB gzipped: ${verdict}; aim <= 360)`,
  );
  console.log();
}

const quantile = (sorted, q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];

async function firstRender(browser, url) {
  const loads = [];
  for (let i = 0; i < 5; i++) {
    const { page, context } = await openPage(browser, url, { waitForStart: false });
    await page.waitForFunction(() => (document.querySelector("#app-root")?.textContent ?? "").length > 0);
    loads.push(
      await page.evaluate(async () => {
        await window.__started;
        const nav = performance.getEntriesByType("navigation")[0];
        const fcp = performance.getEntriesByName("first-contentful-paint")[0];
        return {
          render: window.__firstRender,
          started: window.__startedAt,
          fcp: fcp ? fcp.startTime : NaN,
          load: nav ? nav.loadEventEnd : NaN,
        };
      }),
    );
    await context.close();
  }
  // Median of the loads that have the figure (Chromium sometimes reports no paint entry).
  const med = (k) => {
    const v = loads.map((l) => l[k]).filter((x) => Number.isFinite(x)).sort((a, b) => a - b);
    return v.length ? v[Math.floor(v.length / 2)] : NaN;
  };
  console.log("time to first render (headless Chromium, median of 5 loads, ms from navigation start)");
  const ms = (k) => (Number.isFinite(med(k)) ? `${med(k).toFixed(0)} ms` : "n/a");
  console.log(`  #app-root has text: ${ms("render")}   app started (boot.js): ${ms("started")}   first contentful paint: ${ms("fcp")}   load event: ${ms("load")}`);
  console.log(`  each load: ${loads.map((l) => l.render.toFixed(0)).join(", ")} ms`);
  console.log();
}

/** Samples requestAnimationFrame intervals and long tasks for `seconds` while the page plays. */
async function frames(page, label, seconds, quiet = false) {
  const result = await page.evaluate(async (ms) => {
    const deltas = [];
    const long = [];
    const observer = new PerformanceObserver((list) => {
      for (const e of list.getEntries()) long.push(e.duration);
    });
    try {
      observer.observe({ type: "longtask", buffered: false });
    } catch {}
    const simBefore = document.querySelector("#sim-time")?.textContent;
    await new Promise((done) => {
      let last = performance.now();
      const end = last + ms;
      const tick = (t) => {
        deltas.push(t - last);
        last = t;
        if (t < end) requestAnimationFrame(tick);
        else done();
      };
      requestAnimationFrame(tick);
    });
    observer.disconnect();
    return { deltas: deltas.slice(1), long, simBefore, simAfter: document.querySelector("#sim-time")?.textContent };
  }, seconds * 1000);
  const d = result.deltas.sort((a, b) => a - b);
  const over = (ms) => d.filter((x) => x > ms).length;
  const line = (
    `${label.padEnd(46)} ${String(d.length).padStart(6)} ${quantile(d, 0.5).toFixed(1).padStart(7)} ${quantile(d, 0.95).toFixed(1).padStart(7)} ${d[d.length - 1].toFixed(0).padStart(7)} ${String(over(50)).padStart(6)} ${String(result.long.length).padStart(6)} ${result.long.reduce((a, b) => a + b, 0).toFixed(0).padStart(8)}   ${result.simBefore} -> ${result.simAfter}`
  );
  if (quiet) return line;
  console.log(line);
}

/** WebAssembly memory in MB (web/boot.js's TrunkApplicationStarted carries the exports). */
const wasmMb = (page) => page.evaluate(() => (window.__wasmMemory ? window.__wasmMemory.buffer.byteLength / 1e6 : NaN));

/** Milliseconds from `act` (run in the page) until `done` holds there, timed in the page. */
async function timed(page, act, done, arg) {
  return page.evaluate(
    async ([act, done, arg]) => {
      const before = document.querySelector("#sim-time")?.dataset.ms + "|" + document.querySelector(".clock .muted")?.textContent;
      const t0 = performance.now();
      new Function("arg", act)(arg);
      const check = new Function("before", "arg", done);
      await new Promise((ok) => {
        const poll = () => (check(before, arg) ? ok() : requestAnimationFrame(poll));
        poll();
      });
      return performance.now() - t0;
    },
    [act, done, arg],
  );
}

const MOVED = `return (document.querySelector("#sim-time")?.dataset.ms + "|" + document.querySelector(".clock .muted")?.textContent) !== before;`;

/** Back, a scrubber jump to the middle, and the share link opened in a new page. */
async function travel(browser, page, label) {
  await pause(page);
  const back = await timed(page, `document.querySelector("#step-back").click();`, MOVED);
  const scrub = await timed(
    page,
    `const s = document.querySelector("#scrubber"); s.value = String(Math.floor(Number(s.max) / 2)); s.dispatchEvent(new Event("change", { bubbles: true }));`,
    MOVED,
  );
  await page.click("#share");
  const link = await page.locator("#share-link").inputValue();
  const { page: other, context } = await openPage(browser, link, { waitForStart: true });
  const t0 = Date.now();
  await other.locator("#notice.info").waitFor({ timeout: 120_000 });
  const opened = await other.evaluate(() => performance.now());
  const share = Date.now() - t0;
  await context.close();
  console.log(`  ${label}: Back ${back.toFixed(0)} ms, scrubber to the middle ${scrub.toFixed(0)} ms, share link (${(link.length / 1000).toFixed(1)} KB) opened and shown ${opened.toFixed(0)} ms after navigation (${share} ms after start)`);
}

async function longRun(browser, server, minutes) {
  const { page, context } = await openPage(browser, server.url, { waitForStart: false });
  await page.waitForFunction(() => window.__started);
  await loadScenario(page, longScenario());
  console.log(`long run: long.json at 20x for ${minutes} min of wall time; every minute: frames over 5 s, WebAssembly memory`);
  console.log(`${"minute".padEnd(46)} ${"frames".padStart(6)} ${"p50 ms".padStart(7)} ${"p95 ms".padStart(7)} ${"max ms".padStart(7)} ${">50ms".padStart(6)} ${"long".padStart(6)} ${"long ms".padStart(8)}   simulated clock; wasm MB; speed reached`);
  await play(page, "20×");
  const start = Date.now();
  let lastSim = await simMs(page);
  let lastWall = Date.now();
  for (let minute = 1; minute <= minutes; minute++) {
    const wait = start + minute * 60_000 - 5_000 - Date.now();
    if (wait > 0) await page.waitForTimeout(wait);
    const label = `minute ${minute}`;
    const line = await frames(page, label, 5, true);
    const now = await simMs(page);
    const wall = Date.now();
    const speed = (now - lastSim) / (wall - lastWall);
    lastSim = now;
    lastWall = wall;
    console.log(`${line}; ${(await wasmMb(page)).toFixed(0)} MB; ${speed.toFixed(1)}x`);
    if (minute === 1 || minute === minutes) {
      await travel(browser, page, `after ${minute} min`);
      // Back to where the run was (the scrubber's end), and on.
      const end = await timed(
        page,
        `const s = document.querySelector("#scrubber"); s.value = s.max; s.dispatchEvent(new Event("change", { bubbles: true }));`,
        MOVED,
      );
      console.log(`  scrubber back to the end: ${end.toFixed(0)} ms`);
      await play(page, "20×");
      lastSim = await simMs(page);
      lastWall = Date.now();
    }
  }
  await context.close();
}

/**
 * Loads under CDP network (and CPU) throttling, from a cold cache: when the loading screen
 * first paints, when the wasm has arrived, and when the app has started (interactive).
 */
async function throttledLoads(browser, url) {
  const profiles = [
    { label: "Fast 3G (1.6 Mbps down, 750 kbps up, 150 ms)", down: 1.6e6, up: 750e3, latency: 150, cpu: 1 },
    { label: "Fast 3G, CPU 4x slower", down: 1.6e6, up: 750e3, latency: 150, cpu: 4 },
    { label: "4G (9 Mbps down, 1.5 Mbps up, 60 ms)", down: 9e6, up: 1.5e6, latency: 60, cpu: 1 },
  ];
  console.log("loads under throttling (cold cache; ms from navigation start)");
  for (const p of profiles) {
    const context = await browser.newContext();
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send("Network.enable");
    await cdp.send("Network.setCacheDisabled", { cacheDisabled: true });
    await cdp.send("Network.emulateNetworkConditions", { offline: false, latency: p.latency, downloadThroughput: p.down / 8, uploadThroughput: p.up / 8 });
    if (p.cpu > 1) await cdp.send("Emulation.setCPUThrottlingRate", { rate: p.cpu });
    await page.addInitScript(() => {
      window.__startedAt = NaN;
      addEventListener("TrunkApplicationStarted", () => (window.__startedAt = performance.now()), { once: true });
    });
    await page.goto(url, { waitUntil: "commit" });
    await page.waitForFunction(() => Number.isFinite(window.__startedAt), null, { timeout: 120_000 });
    await page.locator("#app-root").waitFor({ timeout: 120_000 });
    const r = await page.evaluate(() => {
      const paint = performance.getEntriesByType("paint").find((e) => e.name === "first-paint") ?? performance.getEntriesByName("first-contentful-paint")[0];
      const wasm = performance.getEntriesByType("resource").find((e) => e.name.endsWith(".wasm"));
      return {
        paint: paint ? paint.startTime : NaN,
        wasmEnd: wasm ? wasm.responseEnd : NaN,
        wasmBytes: wasm ? wasm.encodedBodySize || wasm.transferSize : NaN,
        started: window.__startedAt,
        interactive: performance.now(),
      };
    });
    console.log(
      `  ${p.label.padEnd(48)} loading screen painted ${r.paint.toFixed(0)} ms · wasm arrived ${r.wasmEnd.toFixed(0)} ms (${(r.wasmBytes / 1000).toFixed(0)} KB on the wire) · app started ${r.started.toFixed(0)} ms`,
    );
    await context.close();
  }
  console.log();
}

async function main() {
  if (process.argv.includes("--long")) {
    const server = await serveDist(DIST);
    const browser = await launchChromium();
    const origNewContext = browser.newContext.bind(browser);
    browser.newContext = async (options) => {
      const ctx = await origNewContext(options);
      await ctx.addInitScript(() => addEventListener("TrunkApplicationStarted", (e) => (window.__wasmMemory = e.detail?.wasm?.memory), { once: true }));
      return ctx;
    };
    try {
      await longRun(browser, server, Number(arg("--minutes", "10")));
    } finally {
      await browser.close();
      await server.close();
    }
    return;
  }
  sizes();
  const server = await serveDist(DIST);
  const browser = await launchChromium();
  try {
    // Marks when #app-root first holds text, and when boot.js reports the app started.
    const mark = () => {
      window.__startedAt = NaN;
      window.addEventListener("TrunkApplicationStarted", () => (window.__startedAt = performance.now()), { once: true });
      const seen = () => (document.querySelector("#app-root")?.textContent ?? "").length > 0;
      const observer = new MutationObserver(() => {
        if (window.__firstRender === undefined && seen()) {
          window.__firstRender = performance.now();
          observer.disconnect();
        }
      });
      observer.observe(document, { childList: true, subtree: true, characterData: true });
    };
    const open = async () => {
      const { page, context } = await openPage(browser, server.url, { waitForStart: false });
      return { page, context };
    };
    // openPage (tests/e2e/helpers.mjs) makes a context and navigates at once: the marks go
    // on every new context, before any page of it loads.
    const origNewContext = browser.newContext.bind(browser);
    browser.newContext = async (options) => {
      const ctx = await origNewContext(options);
      await ctx.addInitScript(mark);
      return ctx;
    };
    await firstRender(browser, server.url);
    await throttledLoads(browser, server.url);

    console.log(`frame times: requestAnimationFrame intervals over ${SECONDS} s while playing; long tasks > 50 ms (Long Tasks API)`);
    console.log(
      `${"scenario, speed".padEnd(46)} ${"frames".padStart(6)} ${"p50 ms".padStart(7)} ${"p95 ms".padStart(7)} ${"max ms".padStart(7)} ${">50ms".padStart(6)} ${"long".padStart(6)} ${"long ms".padStart(8)}   simulated clock`,
    );
    {
      const { page, context } = await open();
      await page.waitForFunction(() => window.__started);
      await page.locator("#app-root").waitFor();
      await play(page, "1×");
      await frames(page, "default (two-groups), 1x, from the start", SECONDS);
      await context.close();
    }
    {
      const { page, context } = await open();
      await page.waitForFunction(() => window.__started);
      await loadScenario(page, largeScenario());
      await play(page, "1×");
      await frames(page, "10 brokers / 240 partitions / 40 members, 1x", SECONDS);
      await play(page, "5×");
      await frames(page, "the same, 5x (continuing)", SECONDS);
      await context.close();
    }
  } finally {
    await browser.close();
    await server.close();
  }
}

await main();
