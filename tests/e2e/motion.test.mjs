// Reduced motion: chosen in the page (◌ Less motion, remembered) or by the system's
// setting, the page shows the same information with nothing sliding or flashing — no CSS
// animation runs, messages on the wire stay put and show how far they have travelled.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { atStart, browserSuite, clickAndWait, runTo, screenshot } from "./helpers.mjs";

const suite = browserSuite(before, after);

/** Runs to 8.3 s (m1..m3 are in the log, m4 is sent at 8.5 s), then steps until a
 * request is on the wire. */
async function untilOnTheWire(page) {
  await atStart(page);
  await runTo(page, 8.3);
  for (let i = 0; i < 60 && (await page.locator(".wire .chip").count()) === 0; i++) await clickAndWait(page, "#step");
  await page.locator(".wire .chip").first().waitFor();
}

/** Running animations and the first wire chip's position and text. */
const motion = (page) =>
  page.evaluate(() => {
    const chip = document.querySelector(".wire .chip");
    return {
      animations: document.getAnimations().filter((a) => a.playState === "running").length,
      left: chip ? getComputedStyle(chip).left : null,
      text: chip?.innerText ?? "",
    };
  });

test("Less motion: the same records and messages, nothing moving, progress as a percentage", async (t) => {
  const page = await suite.open(t);
  await page.click("#motion-toggle");
  assert.equal(await page.locator("#motion-toggle").getAttribute("aria-pressed"), "true");
  assert.equal(await page.evaluate(() => document.documentElement.dataset.motion), "reduced");
  await untilOnTheWire(page);
  const m = await motion(page);
  assert.equal(m.animations, 0, "no animation runs");
  assert.equal(m.left, "0px", "the message stays at the start of the wire");
  assert.match(m.text, /^(m\d+ → P\d|ack @[\d,]+) \d+%$/, "it says how far it has travelled");
  // The records themselves are all there.
  assert.ok((await page.locator(".panel.topics li.cell").count()) > 0);
  await screenshot(page, "motion-reduced");
  // Remembered on reload.
  await page.reload();
  await page.locator("#app-root").waitFor();
  await page.waitForFunction(() => document.documentElement.dataset.motion === "reduced");
  assert.match(await page.locator("#motion-toggle").innerText(), /Less motion/);
  // And off again.
  await page.click("#motion-toggle");
  assert.equal(await page.evaluate(() => document.documentElement.dataset.motion), undefined);
});

test("the system's reduced-motion setting does the same without the button", async (t) => {
  const page = await suite.open(t);
  await page.emulateMedia({ reducedMotion: "reduce" });
  await untilOnTheWire(page);
  const m = await motion(page);
  assert.equal(m.animations, 0);
  assert.equal(m.left, "0px");
  assert.match(m.text, /\d+%/);
});

test("with full motion the messages slide along the wire", async (t) => {
  const page = await suite.open(t);
  await page.emulateMedia({ reducedMotion: "no-preference" });
  await untilOnTheWire(page);
  const m = await motion(page);
  assert.doesNotMatch(m.text, /%/, "no percentage while it moves");
});

test("no console errors, page errors or CSP violations", () => suite.assertNoProblems());
