// The first load, as someone on a slow line meets it: the loading screen (title, what is
// coming, progress) is on screen from the HTML and its inline style alone, before any
// script has run or the wasm has arrived; it goes once the app has rendered; and when
// WebAssembly cannot start, it says so in both languages instead of leaving a blank page.
// Each moment is made by holding or refusing the wasm request, never by waiting on a clock.
// The page is also served compressed, as a real web server serves it.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { launchChromium, preparePage, serveDist } from "./helpers.mjs";

let server, browser;

before(async () => {
  server = await serveDist();
  browser = await launchChromium();
});

after(async () => {
  await browser?.close();
  await server?.close();
});

/** A page whose wasm request waits until `release()` is called (or is refused). */
async function pageHoldingWasm({ refuse = false, javascript = true } = {}) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, javaScriptEnabled: javascript });
  const page = await preparePage(await context.newPage());
  let release;
  const held = new Promise((ok) => (release = ok));
  let asked;
  const requested = new Promise((ok) => (asked = ok));
  await page.route("**/*.wasm", async (route) => {
    asked();
    if (refuse) return route.abort("failed");
    await held;
    return route.continue();
  });
  const errors = [];
  page.on("pageerror", (e) => errors.push(e.message));
  return { page, context, release, requested, errors };
}

test("the loading screen is painted before any script runs, in both languages", async () => {
  // JavaScript off: what shows is the HTML and its inline style alone.
  const { page, context } = await pageHoldingWasm({ javascript: false });
  await page.goto(server.url, { waitUntil: "load" });
  const loading = page.locator("#loading");
  assert.equal(await loading.isVisible(), true);
  const text = await loading.innerText();
  assert.match(text, /Kafka 沙盒/);
  assert.match(text, /Kafka Sandbox/);
  assert.match(text, /consumer groups/);
  assert.match(text, /消费者组/);
  assert.match(text, /Loading the simulator/);
  assert.equal(await page.locator("#loading-failed").isVisible(), false, "no failure shown");
  await context.close();
});

test("while the wasm downloads the screen stays; once the app renders it is gone", async () => {
  const { page, context, release, requested, errors } = await pageHoldingWasm();
  await page.goto(server.url, { waitUntil: "domcontentloaded" });
  await requested;
  assert.equal(await page.locator("#loading").isVisible(), true, "shown while the wasm is on its way");
  assert.equal(await page.locator("#app-root").count(), 0, "no app yet");
  release();
  await page.locator("#app-root").waitFor();
  await page.locator("#loading").waitFor({ state: "detached" });
  assert.deepEqual(errors, []);
  await context.close();
});

test("when the wasm cannot be loaded the screen says so, with the reason", async () => {
  const { page, context, requested } = await pageHoldingWasm({ refuse: true });
  await page.goto(server.url, { waitUntil: "domcontentloaded" });
  await requested;
  await page.locator("#loading-failed").waitFor();
  const text = await page.locator("#loading").innerText();
  assert.match(text, /无法启动/);
  assert.match(text, /Could not start/);
  assert.match(text, /needs WebAssembly/);
  assert.ok((await page.locator("#loading-error").innerText()).length > 0, "the browser's reason is shown");
  assert.equal(await page.locator("#loading-status").isVisible(), false, "no progress line beside the failure");
  await context.close();
});

test("the page's files travel compressed", async () => {
  const { page, context, release } = await pageHoldingWasm();
  release();
  const encodings = new Map();
  page.on("response", async (r) => {
    const name = new URL(r.url()).pathname.split(".").pop();
    encodings.set(name, (await r.allHeaders())["content-encoding"] ?? "");
  });
  await page.goto(server.url, { waitUntil: "domcontentloaded" });
  await page.locator("#app-root").waitFor();
  for (const ext of ["wasm", "js", "css"]) {
    assert.match(encodings.get(ext) ?? "none", /^(br|gzip)$/, `${ext} is sent compressed`);
  }
  await context.close();
});
