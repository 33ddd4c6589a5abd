// The page at the sizes learners use: a 1280×720 laptop and a tablet (768×1024 upright,
// 1024×768 on its side). Nothing runs off the side, the main controls are on screen
// without scrolling sideways, and the panels stack rather than squeeze.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { atStart, browserSuite, runTo, screenshot } from "./helpers.mjs";

const SIZES = [
  { width: 1280, height: 720, name: "laptop" },
  { width: 768, height: 1024, name: "tablet" },
  { width: 1024, height: 768, name: "tablet-landscape" },
];

const suite = browserSuite(before, after);

for (const size of SIZES) {
  test(`at ${size.width}×${size.height} (${size.name}) nothing runs off the side and the controls are reachable`, async (t) => {
    const page = await suite.open(t);
    await page.setViewportSize({ width: size.width, height: size.height });
    // The same content on every machine: the seed's records delivered, the timelines full.
    await atStart(page);
    await runTo(page, 12);
    await page.locator(".panel.topics .partition").first().waitFor();
    const layout = await page.evaluate(() => {
      const doc = document.documentElement;
      const wide = [...document.querySelectorAll("#app-root *")]
        .filter((e) => e.getClientRects().length && e.getBoundingClientRect().right > doc.clientWidth + 1)
        .filter((e) => !e.closest("details:not([open])"))
        .map((e) => `${e.tagName.toLowerCase()}.${e.className}`);
      return { scroll: doc.scrollWidth - doc.clientWidth, wide: wide.slice(0, 5) };
    });
    assert.equal(layout.scroll, 0, `the page scrolls sideways: ${layout.wide.join(", ")}`);
    for (const id of ["#play", "#step", "#step-back", "#edit-scenario", "#lang-toggle", "#theme-toggle", "#motion-toggle"]) {
      const box = await page.locator(id).boundingBox();
      assert.ok(box && box.x >= 0 && box.x + box.width <= size.width, `${id} is on screen: ${JSON.stringify(box)}`);
    }
    // Producers, topic and groups each get a usable width (at least 240 px).
    for (const panel of [".panel.producers", ".panel.topics", ".panel.groups"]) {
      const box = await page.locator(panel).boundingBox();
      assert.ok(box && box.width >= 240, `${panel} is ${box?.width} px wide`);
    }
    await screenshot(page, `layout-${size.name}`);
  });
}

test("no console errors, page errors or CSP violations", () => suite.assertNoProblems());
