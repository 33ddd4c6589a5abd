#!/usr/bin/env node
// Where the page's time goes while it plays the large scenario (10 brokers, 240 partitions,
// 40 members): a Chromium trace (devtools.timeline) over a few seconds, summed by event name
// on the renderer's main thread. Figures are printed, never asserted.
//
//   trunk build --release && node scripts/profile-page.mjs [--seconds 5] [--speed 1x] [--dist DIR] [--default]
import { DIST_DIR, cliArg as arg, largeScenario, longScenario, launchChromium, loadScenario, openPage, serveDist } from "../tests/e2e/helpers.mjs";

const SECONDS = Number(arg("--seconds", "5"));
const SPEED = arg("--speed", "1").replace(/x$/, "") + "×";
const DIST = arg("--dist", DIST_DIR);
const DEFAULT = process.argv.includes("--default");
// --cpu: also a sampling CPU profile, top functions by self time (build with names kept:
// wasm-bindgen --keep-debug over target/wasm32-unknown-unknown/release/kafka-sandbox-web.wasm).
const CPU = process.argv.includes("--cpu");
// --long: issue 20's long busy run (benches/common/long.json) instead of the large one,
// traced after --warm seconds (default 60) of play.
const LONG = process.argv.includes("--long");
const WARM = Number(arg("--warm", LONG ? "60" : "1.5"));


const server = await serveDist(DIST);
const browser = await launchChromium();
try {
  const { page } = await openPage(browser, server.url);
  if (/Pause|暂停/.test(await page.locator("#play").innerText())) await page.click("#play");
  if (LONG) await loadScenario(page, longScenario());
  else if (!DEFAULT) await loadScenario(page, largeScenario());
  await page.selectOption("#speed", { label: SPEED });
  await page.click("#play");
  await page.waitForTimeout(WARM * 1000);
  const cdp = await page.context().newCDPSession(page);
  const events = [];
  cdp.on("Tracing.dataCollected", (e) => events.push(...e.value));
  const done = new Promise((r) => cdp.once("Tracing.tracingComplete", r));
  await cdp.send("Tracing.start", { categories: "devtools.timeline,disabled-by-default-devtools.timeline", transferMode: "ReportEvents" });
  const domBefore = await page.evaluate(() => document.querySelectorAll("*").length);
  if (CPU) {
    await cdp.send("Profiler.enable");
    await cdp.send("Profiler.setSamplingInterval", { interval: 200 });
    await cdp.send("Profiler.start");
  }
  await page.waitForTimeout(SECONDS * 1000);
  const profile = CPU ? (await cdp.send("Profiler.stop")).profile : null;
  await cdp.send("Tracing.end");
  await done;
  // The renderer main thread: the one with the most FunctionCall events.
  const byThread = new Map();
  for (const e of events) if (e.name === "FunctionCall" || e.name === "TimerFire") byThread.set(`${e.pid}:${e.tid}`, (byThread.get(`${e.pid}:${e.tid}`) ?? 0) + 1);
  const main = [...byThread.entries()].sort((a, b) => b[1] - a[1])[0]?.[0];
  const sums = new Map();
  for (const e of events) {
    if (`${e.pid}:${e.tid}` !== main || e.ph !== "X" || !e.dur) continue;
    const s = sums.get(e.name) ?? { n: 0, ms: 0 };
    s.n += 1;
    s.ms += e.dur / 1000;
    sums.set(e.name, s);
  }
  console.log(`${LONG ? "long" : DEFAULT ? "default" : "large"} scenario at ${SPEED}, ${SECONDS} s traced; DOM elements: ${domBefore}`);
  console.log(`${"event (main thread, inclusive)".padEnd(34)} ${"count".padStart(7)} ${"ms".padStart(9)} ${"ms/s".padStart(7)}`);
  for (const [name, s] of [...sums.entries()].sort((a, b) => b[1].ms - a[1].ms).slice(0, 18)) {
    console.log(`${name.padEnd(34)} ${String(s.n).padStart(7)} ${s.ms.toFixed(0).padStart(9)} ${(s.ms / SECONDS).toFixed(0).padStart(7)}`);
  }
  if (profile) {
    const self = new Map();
    const dt = new Map();
    profile.samples.forEach((id, i) => dt.set(id, (dt.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));
    for (const n of profile.nodes) {
      const name = n.callFrame.functionName || "(anonymous)";
      self.set(name, (self.get(name) ?? 0) + (dt.get(n.id) ?? 0) / 1000);
    }
    // Who calls the heaviest functions: self time by caller chain (three frames up).
    const parent = new Map();
    for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n);
    const byId = new Map(profile.nodes.map((n) => [n.id, n]));
    const short = (n) => (n?.callFrame.functionName || "?").replace(/::h[0-9a-f]{16}$/, "").replace(/<[^<>]*>/g, "").slice(-70);
    const chains = new Map();
    for (const n of profile.nodes) {
      const ms = (dt.get(n.id) ?? 0) / 1000;
      if (!ms) continue;
      let up = parent.get(n.id);
      const names = [short(n)];
      for (let k = 0; k < 4 && up; k++, up = parent.get(up.id)) names.push(short(up));
      const key = names.join(" < ");
      chains.set(key, (chains.get(key) ?? 0) + ms);
    }
    // Inclusive time of the app's own functions (a component's view, the reducer, ...).
    const incl = new Map();
    const total_of = new Map();
    const sub = (n) => {
      if (total_of.has(n.id)) return total_of.get(n.id);
      const t = (dt.get(n.id) ?? 0) / 1000 + (n.children ?? []).reduce((a, c) => a + sub(byId.get(c)), 0);
      total_of.set(n.id, t);
      return t;
    };
    for (const n of profile.nodes) {
      const name = n.callFrame.functionName;
      if (!/kafka_sandbox/.test(name)) continue;
      // Count a function once per stack (not again under a recursive call of itself).
      let up = parent.get(n.id), nested = false;
      for (; up; up = parent.get(up.id)) if (up.callFrame.functionName === name) { nested = true; break; }
      if (!nested) incl.set(name, (incl.get(name) ?? 0) + sub(n));
    }
    const total = [...self.values()].reduce((a, b) => a + b, 0);
    console.log(`\nCPU profile, self time (ms over ${SECONDS} s; total ${total.toFixed(0)})`);
    for (const [name, ms] of [...self.entries()].sort((a, b) => b[1] - a[1]).slice(0, 40)) {
      console.log(`${ms.toFixed(0).padStart(7)}  ${name.slice(0, 150)}`);
    }
    console.log(`\napp functions, inclusive ms`);
    for (const [name, ms] of [...incl.entries()].sort((a, b) => b[1] - a[1]).slice(0, 25)) {
      console.log(`${ms.toFixed(0).padStart(7)}  ${name.replace(/::h[0-9a-f]{16}$/, "").slice(0, 140)}`);
    }
    console.log(`\nheaviest call chains (self ms; callee < caller < ...)`);
    for (const [key, ms] of [...chains.entries()].filter(([k]) => !k.startsWith("(")).sort((a, b) => b[1] - a[1]).slice(0, 30)) {
      console.log(`${ms.toFixed(0).padStart(7)}  ${key}`);
    }
  }
} finally {
  await browser.close();
  await server.close();
}
