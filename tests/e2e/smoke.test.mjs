// Generic checks of the built page (dist/): it loads under its CSP, the wasm app starts and
// renders #app-root, and nothing is logged as an error. The lead extends these with app checks.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { startApp } from "./helpers.mjs";

let app;
before(async () => {
  app = await startApp();
});
after(async () => {
  await app?.close();
});

test("the page is titled Kafka Sandbox", async () => {
  assert.equal(await app.page.title(), "Kafka Sandbox");
});

test("the app renders #app-root", async () => {
  const root = app.page.locator("#app-root");
  await root.waitFor({ state: "visible" });
  assert.match(await root.innerText(), /Kafka Sandbox/);
  await app.screenshot("smoke");
});

test("the page has a CSP without inline scripts, and every script is external", async () => {
  const csp = await app.page
    .locator('meta[http-equiv="Content-Security-Policy"]')
    .getAttribute("content");
  assert.match(csp, /script-src 'self' 'wasm-unsafe-eval'(;|$)/);
  const inline = await app.page.$$eval(
    "script:not([src])",
    (scripts) => scripts.filter((s) => s.type !== "application/json").length,
  );
  assert.equal(inline, 0, "inline scripts would be blocked by the CSP");
});

test("the wasm file is served as application/wasm", async () => {
  const wasm = app.server.requests.find((r) => /\.wasm 200( br| gzip)?$/.test(r));
  assert.ok(wasm, `no .wasm request in ${JSON.stringify(app.server.requests)}`);
  const res = await fetch(new URL(wasm.split(" ")[1], app.url));
  assert.equal(res.headers.get("content-type"), "application/wasm");
});

test("no console errors, page errors, failed requests or CSP violations", () => {
  assert.deepEqual(app.problems(), []);
});
