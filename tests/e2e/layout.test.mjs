// The page at the sizes learners use: a phone (390×844), a 1280×720 laptop, a tablet
// (768×1024 upright, 1024×768 on its side) and a 1920×1080 projector. Nothing runs off the
// side, the main controls are on screen without scrolling sideways, the panels stack
// rather than squeeze (one column on a phone), every control has a name, long names wrap,
// and a lesson stands beside the cluster (a drawer on narrow screens) without covering
// what it talks about.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { atStart, browserSuite, loadScenario, runTo, screenshot } from "./helpers.mjs";

const SIZES = [
  { width: 390, height: 844, name: "phone" },
  { width: 360, height: 740, name: "small-phone" },
  { width: 1280, height: 720, name: "laptop" },
  { width: 1920, height: 1080, name: "projector" },
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
    // Producers, topic and groups each get a usable width (at least 240 px; on a phone,
    // the whole width: one column).
    for (const panel of [".panel.producers", ".panel.topics", ".panel.groups"]) {
      const box = await page.locator(panel).boundingBox();
      assert.ok(box && box.width >= Math.min(240, size.width - 60), `${panel} is ${box?.width} px wide`);
      if (size.width < 500) assert.ok(box.width >= size.width - 60, `${panel} takes the phone's width: ${box.width}`);
    }
    if (size.width < 500) {
      const lefts = await page.locator(".stage > .panel").evaluateAll((ps) => ps.map((p) => Math.round(p.getBoundingClientRect().left)));
      assert.equal(new Set(lefts).size, 1, `one column: ${lefts}`);
    }
    // Every visible control is labelled (its text, aria-label, title or a <label>) and
    // not cut to a sliver (a select reduced to its arrow).
    const unlabelled = await page.evaluate(() =>
      [...document.querySelectorAll("#app-root button, #app-root select, #app-root input, #app-root textarea, #app-root summary")]
        .filter((c) => c.getClientRects().length && !c.closest("details:not([open]) > :not(summary)"))
        .filter((c) => {
          const r = c.getBoundingClientRect();
          const named = (c.textContent ?? "").trim() || c.getAttribute("aria-label") || c.getAttribute("title") || c.labels?.length || c.placeholder || c.value;
          return !named || (c.tagName === "SELECT" && r.width < 30) || (c.type !== "checkbox" && c.type !== "radio" && r.width < 16);
        })
        .map((c) => `${c.tagName.toLowerCase()}#${c.id}.${c.className} ${Math.round(c.getBoundingClientRect().width)}px`),
    );
    assert.deepEqual(unlabelled, [], "every control is labelled and usable");
    await screenshot(page, `layout-${size.name}`);
  });
}

/** A scenario whose names and values are as long as the format allows, without a space. */
function longNames() {
  const long = (c, n) => c.repeat(n);
  const topic = `t${long("o", 200)}`;
  return JSON.stringify({
    version: 1,
    name: long("N", 200),
    cluster: { group_initial_rebalance_delay_ms: 0 },
    topics: [{ name: topic, partitions: 2 }],
    producers: [{ name: long("P", 64), send: [{ topic, keys: [long("k", 300), null], values: [long("v", 1000), long("w", 1000)], start_ms: 1000 }] }],
    groups: [{ id: long("G", 64), topics: [topic], config: { auto_offset_reset: "earliest" }, members: [{ client_id: long("C", 64) }] }],
  });
}

for (const width of [390, 1280]) {
  test(`long unbroken names and values do not widen the page at ${width} px`, async (t) => {
    const page = await suite.open(t);
    await page.setViewportSize({ width, height: 900 });
    await loadScenario(page, longNames(), "#partition-1");
    await runTo(page, 5);
    assert.ok((await page.locator(".received .rec").count()) >= 1, "the long values were delivered");
    const scroll = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    assert.equal(scroll, 0, "the page does not scroll sideways");
    await screenshot(page, `layout-long-names-${width}`);
  });
}

/** Starts lesson `id` and goes to its step `step` (answering the first choice on the way). */
async function lessonAt(page, id, step) {
  await page.click("#lessons-toggle");
  await page.locator(`#lessons li[data-lesson="${id}"] button.start-lesson`).click();
  await page.locator("#lesson").waitFor();
  for (let i = 1; i < step; i++) {
    const choice = page.locator("#lesson .choice:enabled");
    if (await choice.count()) {
      await choice.first().click();
      await page.locator("#lesson .verdict").waitFor();
    }
    const before = await page.locator("#lesson .lesson-progress").innerText();
    await page.click("#lesson-next");
    await page.waitForFunction((b) => document.querySelector("#lesson .lesson-progress")?.textContent !== b, before);
  }
}

/** Whether two boxes overlap. */
const overlap = (a, b) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

test("on a wide screen the lesson stands beside the cluster and covers nothing it talks about", async (t) => {
  const page = await suite.open(t);
  await page.setViewportSize({ width: 1366, height: 768 });
  // Lesson 6, step 2 talks about the partition log while it shows.
  await lessonAt(page, "offsets-commits", 2);
  const lesson = await page.locator("#lesson-side").boundingBox();
  const main = await page.locator(".main-col").boundingBox();
  assert.ok(lesson.x >= main.x + main.width - 1, `the lesson is beside the page: ${JSON.stringify({ lesson, main })}`);
  for (const panel of [".panel.topics", ".panel.groups", ".panel.producers"]) {
    assert.ok(!overlap(lesson, await page.locator(panel).boundingBox()), `${panel} is not under the lesson`);
  }
  // What the step looks at is outlined and in view.
  const outlined = await page.evaluate(() => {
    const css = document.querySelector("#lesson-focus")?.textContent ?? "";
    const selector = css.split("{")[0].trim();
    const el = selector && document.querySelector(selector.split(",")[0]);
    const r = el?.getBoundingClientRect();
    return r ? { top: r.top, bottom: r.bottom, h: window.innerHeight } : null;
  });
  assert.ok(outlined && outlined.top >= 0 && outlined.top < outlined.h, `the step's focus is in view: ${JSON.stringify(outlined)}`);
  assert.equal(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth), 0);
  await screenshot(page, "layout-lesson-beside");
});

test("on a phone the lesson is a drawer that folds, and the step's focus stays above it", async (t) => {
  const page = await suite.open(t);
  await page.setViewportSize({ width: 390, height: 844 });
  await lessonAt(page, "offsets-commits", 2);
  const drawer = await page.locator("#lesson-side").boundingBox();
  assert.ok(drawer.y > 844 / 2 && drawer.y + drawer.height <= 845, `a drawer at the bottom: ${JSON.stringify(drawer)}`);
  const focus = await page.evaluate(() => {
    const css = document.querySelector("#lesson-focus")?.textContent ?? "";
    const el = document.querySelector(css.split("{")[0].trim().split(",")[0]);
    return el ? el.getBoundingClientRect().top : null;
  });
  assert.ok(focus !== null && focus >= 0 && focus < drawer.y, `the focus (top ${focus}) is above the drawer (${drawer.y})`);
  await page.click("#lesson-fold");
  const folded = await page.locator("#lesson-side").boundingBox();
  assert.ok(folded.height < 140, `folded to its heading: ${folded.height}`);
  assert.equal(await page.locator("#lesson-body").isHidden(), true);
  await page.click("#lesson-fold");
  assert.equal(await page.locator("#lesson-body").isVisible(), true);
  await screenshot(page, "layout-lesson-drawer");
});

test("a lesson that compares groups shows them side by side", async (t) => {
  const page = await suite.open(t);
  await page.setViewportSize({ width: 1366, height: 768 });
  // Lesson 3, step 2: audit, billing and search compared.
  await lessonAt(page, "consumer-groups", 2);
  const boxes = await page.locator(".panel.groups .group.card").evaluateAll((cards) => cards.map((c) => c.getBoundingClientRect()).map((r) => ({ x: r.x, y: r.y })));
  assert.ok(boxes.length >= 2);
  assert.ok(Math.abs(boxes[0].y - boxes[1].y) < 2 && boxes[1].x > boxes[0].x, `the first two groups side by side: ${JSON.stringify(boxes)}`);
  await screenshot(page, "layout-groups-side-by-side");
});

test("no console errors, page errors or CSP violations", () => suite.assertNoProblems());
