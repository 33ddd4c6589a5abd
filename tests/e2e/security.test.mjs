// Security, checked in the browser: the page asks for nothing but its own files, runs under
// a Content-Security-Policy that reports no violation, and shows HTML from a scenario (typed
// into the editor or carried by a share link's fragment) as text.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readdirSync, statSync } from "node:fs";
import { join, relative, sep } from "node:path";
import { DIST_DIR, atStart, launchChromium, preparePage, runTo, serveDist, screenshot } from "./helpers.mjs";

let server, browser, context, page;
/** Every request the context made: { url, type }. */
const requests = [];
/** CSP violations and console errors seen by the page. */
const problems = [];
/** Dialogs (alert, confirm, prompt) the page opened: a script that should not have run. */
const dialogs = [];

/** The files in dist/, as URL paths ("/index.html", "/kafka-sandbox-web-….wasm"). */
function distPaths(dir = DIST_DIR) {
  const out = new Set();
  const walk = (d) => {
    for (const name of readdirSync(d)) {
      const full = join(d, name);
      if (statSync(full).isDirectory()) walk(full);
      else out.add("/" + relative(DIST_DIR, full).split(sep).join("/"));
    }
  };
  walk(dir);
  return out;
}

/** Records what the page does that it should not: CSP violations and console errors. */
async function watch(p, sink) {
  p.on("console", (msg) => {
    if (msg.type() === "error") sink.push(`console error: ${msg.text()}`);
  });
  p.on("pageerror", (err) => sink.push(`page error: ${err.message}`));
  p.on("dialog", async (d) => {
    dialogs.push(`${d.type()}: ${d.message()}`);
    await d.dismiss();
  });
  await p.addInitScript(() => {
    window.__violations = [];
    document.addEventListener("securitypolicyviolation", (e) => {
      window.__violations.push(`${e.violatedDirective} blocked ${e.blockedURI || "inline"}`);
      console.error(`CSP violation: ${e.violatedDirective} blocked ${e.blockedURI || "inline"}`);
    });
    window.__started = new Promise((ok) =>
      window.addEventListener("TrunkApplicationStarted", () => ok(true), { once: true }),
    );
  });
}

before(async () => {
  server = await serveDist();
  browser = await launchChromium();
  context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  // Recorded from before the first navigation, for every page of the context.
  context.on("request", (r) => requests.push({ url: r.url(), type: r.resourceType() }));
  page = await preparePage(await context.newPage());
  await watch(page, problems);
  await page.goto(`${server.url}?lang=en`, { waitUntil: "load" });
  await page.waitForFunction(() => window.__started);
});

after(async () => {
  await browser?.close();
  await server?.close();
});

test("loading and playing the default scenario requests only the page's own files", async () => {
  assert.match(await page.locator("#scenario").inputValue(), /two-groups/);
  // The seed's last message reaches the second group: the scenario has run through.
  await atStart(page);
  await runTo(page, 15);
  assert.ok(
    (await page.locator('[data-group="ConsumerGroup02"] [data-client="Consumer1"] .received .rec').allInnerTexts()).includes("m7"),
  );
  const origin = new URL(server.url).origin;
  const files = distPaths();
  const network = requests.filter((r) => !r.url.startsWith("data:"));
  assert.ok(network.length >= 4, `too few requests recorded: ${JSON.stringify(requests)}`);
  const foreign = network.filter((r) => new URL(r.url).origin !== origin);
  assert.deepEqual(foreign, [], "requests to another origin");
  const unknown = network.filter((r) => {
    const path = new URL(r.url).pathname;
    return !(path === "/" || files.has(decodeURIComponent(path)));
  });
  assert.deepEqual(unknown, [], `requests for paths not in dist/ (${[...files].join(", ")})`);
  // Nothing after start-up either: no fetch, XHR, WebSocket or beacon.
  const dynamic = network.filter((r) => ["fetch", "xhr", "websocket", "eventsource", "ping"].includes(r.type));
  assert.deepEqual(dynamic.filter((r) => !r.url.endsWith(".wasm")), [], "requests made by the running app");
});

test("a Content-Security-Policy is in force and nothing violates it", async () => {
  const csp = await page.locator('meta[http-equiv="Content-Security-Policy"]').getAttribute("content");
  assert.ok(csp, "no CSP meta tag");
  const directives = Object.fromEntries(
    csp.split(";").map((d) => d.trim().split(/\s+/)).filter((d) => d[0]).map(([k, ...v]) => [k, v]),
  );
  assert.deepEqual(directives["default-src"], ["'self'"]);
  assert.deepEqual(directives["script-src"], ["'self'", "'wasm-unsafe-eval'"], "no inline or eval'd script");
  assert.deepEqual(directives["connect-src"], ["'self'"]);
  assert.deepEqual(directives["object-src"], ["'none'"]);
  assert.deepEqual(directives["base-uri"], ["'none'"]);
  assert.deepEqual(await page.evaluate(() => window.__violations), []);
  assert.deepEqual(problems, []);
});

test("the CSP really blocks inline script and requests to other origins", async () => {
  // A separate page, so its deliberate violations do not count against the app's.
  const probe = await preparePage(await context.newPage());
  const seen = [];
  await watch(probe, seen);
  await probe.goto(server.url, { waitUntil: "load" });
  const result = await probe.evaluate(async () => {
    const s = document.createElement("script");
    s.textContent = "window.__inlineRan = true";
    document.body.append(s);
    let fetched = true;
    try {
      await fetch("http://203.0.113.1/x");
    } catch {
      fetched = false;
    }
    await new Promise((ok) => setTimeout(ok, 100));
    return { inline: window.__inlineRan === true, fetched, violations: window.__violations };
  });
  await probe.close();
  assert.equal(result.inline, false, "an inline script ran");
  assert.equal(result.fetched, false, "a request to another origin went out");
  assert.ok(result.violations.some((v) => v.startsWith("script-src")), JSON.stringify(result.violations));
  assert.ok(result.violations.some((v) => v.startsWith("connect-src")), JSON.stringify(result.violations));
});

/** A scenario whose every name is HTML that would run script if it were parsed (but the
 * topic's: Kafka allows only [a-zA-Z0-9._-] there, and the values carry the HTML instead). */
const HTML_SCENARIO = JSON.stringify({
  version: 1,
  name: "<img src=x onerror=window.__xss=1>",
  topics: [{ name: "html-names", partitions: 2 }],
  producers: [
    {
      name: "<b id=injected-b>p</b>",
      send: [{ topic: "html-names", keys: ["<img src=x onerror=window.__xss=2>", null], values: ["<i id=injected-i>v</i>", "<script>window.__xss=3</script>"], start_ms: 4000, interval_ms: 300 }],
    },
  ],
  groups: [
    {
      id: "<svg onload=window.__xss=4>",
      topics: ["html-names"],
      config: { auto_offset_reset: "earliest" },
      members: [{ client_id: "\"><img src=x onerror=window.__xss=5>", group_instance_id: "<u id=injected-u>" }],
    },
  ],
  duration_ms: 9000,
});

async function loadJson(text) {
  const details = page.locator("details.json");
  if (!(await details.evaluate((d) => d.open))) await details.locator("summary").click();
  await page.locator("#scenario-json").fill(text);
  await page.locator("#load-json").click();
}

test("HTML in a scenario loaded through the editor is shown as text, never parsed", async () => {
  const before = requests.length;
  await loadJson(HTML_SCENARIO);
  await page.locator("#notice.info").waitFor();
  // The group forms and the member receives both values (sent at 4 and 4.3 s): every
  // name has been rendered.
  await runTo(page, 9);
  assert.ok((await page.locator(".received .rec").allInnerTexts()).some((r) => r.includes("window.__xss=3")));
  const text = await page.locator("body").innerText();
  for (const name of ["<svg onload=window.__xss=4>", "<b id=injected-b>p</b>", "<i id=injected-i>v</i>"]) {
    assert.ok(text.includes(name), `${name} is not shown as text`);
  }
  const injected = await page.evaluate(() => ({
    xss: window.__xss ?? null,
    elements: document.querySelectorAll("img, svg[onload], script:not([src]):not([type='application/json']), #injected-b, #injected-i, #injected-u").length,
    handlers: [...document.querySelectorAll("*")].filter((el) => [...el.attributes].some((a) => a.name.startsWith("on"))).length,
  }));
  assert.deepEqual(injected, { xss: null, elements: 0, handlers: 0 });
  assert.deepEqual(dialogs, []);
  // Loading it asked the network for nothing.
  assert.deepEqual(requests.slice(before).filter((r) => !r.url.startsWith("data:")), []);
  await screenshot(page, "security-html-names");
});

test("a topic name Kafka refuses (HTML, a space) is refused in the page's language, shown as text", async () => {
  await loadJson(HTML_SCENARIO.replaceAll('"html-names"', '"<img src=x onerror=window.__xss=8> topic"'));
  await page.getByText("contains '<'; allowed: ASCII letters, digits, '.', '_' and '-'").first().waitFor();
  assert.equal(await page.evaluate(() => window.__xss ?? null), null);
  assert.equal(await page.locator("img").count(), 0);
  assert.deepEqual(dialogs, []);
});

test("HTML in a refused scenario's error message is shown as text", async () => {
  await loadJson('{"version": 1, "topics": [{"name": "t", "partitions": 1, "<img src=x onerror=window.__xss=6>": 1}]}');
  await page.getByText("unknown field `<img src=x onerror=window.__xss=6>`").first().waitFor();
  assert.equal(await page.evaluate(() => window.__xss ?? null), null);
  assert.equal(await page.locator("img").count(), 0);
  assert.deepEqual(dialogs, []);
  assert.deepEqual(await page.evaluate(() => window.__violations), []);
  assert.deepEqual(problems, []);
});

/** Whether a page shows `names` as text and runs or inserts none of the HTML. */
async function shownAsText(p, names) {
  const text = await p.locator("body").innerText();
  for (const name of names) assert.ok(text.includes(name), `${name} is not shown as text`);
  const injected = await p.evaluate(() => ({
    xss: window.__xss ?? null,
    elements: document.querySelectorAll("img, svg[onload], #injected-b, #injected-i, #injected-u").length,
    handlers: [...document.querySelectorAll("*")].filter((el) => [...el.attributes].some((a) => a.name.startsWith("on"))).length,
    violations: window.__violations,
  }));
  assert.deepEqual(injected, { xss: null, elements: 0, handlers: 0, violations: [] });
}

test("a share link (URL fragment) carrying HTML names opens with them shown as text", async () => {
  await loadJson(HTML_SCENARIO);
  await page.locator("#share").click();
  const link = await page.locator("#share-link").inputValue();
  assert.match(link, /#ks1\./);
  const other = await preparePage(await context.newPage());
  const seen = [];
  await watch(other, seen);
  await other.goto(link, { waitUntil: "load" });
  await other.waitForFunction(() => window.__started);
  await other.getByText("<svg onload=window.__xss=4>").first().waitFor();
  await shownAsText(other, ["<svg onload=window.__xss=4>", "<b id=injected-b>p</b>"]);
  assert.deepEqual(seen, []);
  await other.close();
});

test("a damaged link with HTML in the fragment gives a message shown as text", async () => {
  const other = await preparePage(await context.newPage());
  const seen = [];
  await watch(other, seen);
  await other.goto(`${server.url}?lang=en#<img src=x onerror=window.__xss=7>`, { waitUntil: "load" });
  await other.waitForFunction(() => window.__started);
  await other.getByText("not a Kafka Sandbox link").first().waitFor();
  await shownAsText(other, []);
  assert.deepEqual(seen, []);
  assert.deepEqual(dialogs, []);
  await other.close();
});

test("dist/ exists where the test looked for it", () => {
  assert.ok(existsSync(join(DIST_DIR, "index.html")));
});
