// Presentation mode, for a teacher at a projector: a toggle and `?present`, large type
// (the body at least 20 px at 1920×1080), every visible text at WCAG AA contrast (4.5:1,
// measured over every text node against the background it is drawn on), the lesson's
// narration as captions across the bottom, and the lesson stepped from the keyboard.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { browserSuite, runTo, screenshot } from "./helpers.mjs";

const suite = browserSuite(before, after, { viewport: { width: 1920, height: 1080 } });

/**
 * Every visible text node whose contrast with the background behind it is below `min`
 * (WCAG 2 relative luminance; colours composited with their alpha and the opacity of
 * their ancestors over the backgrounds below them). Disabled controls are exempt (WCAG
 * 1.4.3 exempts inactive components).
 */
async function lowContrast(page, min = 4.5) {
  // Measured at rest: no record still fading in.
  await page.emulateMedia({ reducedMotion: "reduce" });
  await page.evaluate(() => Promise.all(document.getAnimations().map((a) => a.finished.catch(() => {}))));
  return page.evaluate((min) => {
    const parse = (c) => {
      let m = c.match(/^rgba?\(([^)]+)\)$/);
      if (m) {
        const p = m[1].split(/[\s,/]+/).filter(Boolean).map(Number);
        return [p[0], p[1], p[2], p.length > 3 ? p[3] : 1];
      }
      m = c.match(/^color\(srgb ([^)]+)\)$/);
      if (m) {
        const p = m[1].split(/[\s/]+/).filter(Boolean).map(Number);
        return [p[0] * 255, p[1] * 255, p[2] * 255, p.length > 3 ? p[3] : 1];
      }
      return null;
    };
    const over = (top, below) => {
      const a = top[3];
      return [0, 1, 2].map((i) => top[i] * a + below[i] * (1 - a)).concat(1);
    };
    const lum = (c) => {
      const [r, g, b] = c.slice(0, 3).map((v) => {
        const s = v / 255;
        return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
      });
      return 0.2126 * r + 0.7152 * g + 0.0722 * b;
    };
    const ratio = (a, b) => {
      const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p);
      return (x + 0.05) / (y + 0.05);
    };
    const background = (el) => {
      const chain = [];
      for (let e = el; e; e = e.parentElement) chain.unshift(e);
      let bg = [255, 255, 255, 1];
      let opacity = 1;
      for (const e of chain) {
        const st = getComputedStyle(e);
        opacity *= Number(st.opacity);
        const c = parse(st.backgroundColor);
        if (c && c[3] > 0) bg = over([c[0], c[1], c[2], c[3] * opacity], bg);
      }
      return { bg, opacity };
    };
    const out = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const el = n.parentElement;
      if (!el || !n.textContent.trim()) continue;
      if (el.closest("style, script, option, .sr-only, details:not([open]) > :not(summary), [hidden]")) continue;
      if (el.closest("button:disabled, select:disabled, input:disabled, [aria-disabled='true']")) continue;
      const range = document.createRange();
      range.selectNodeContents(n);
      const r = range.getBoundingClientRect();
      if (r.width < 1 || r.height < 1 || r.bottom < 0 || r.top > innerHeight * 40) continue;
      const st = getComputedStyle(el);
      if (st.visibility === "hidden") continue;
      const { bg, opacity } = background(el);
      const c = parse(st.color);
      if (!c) continue;
      const fg = over([c[0], c[1], c[2], c[3] * opacity], bg);
      const k = ratio(fg, bg);
      if (k < min) out.push(`${k.toFixed(2)}:1 "${n.textContent.trim().slice(0, 40)}" (${el.tagName.toLowerCase()}.${el.className})`);
    }
    return [...new Set(out)];
  }, min);
}

/** The smallest rendered font size of visible text (computed size × CSS zoom), and the body's. */
function fontSizes(page) {
  return page.evaluate(() => {
    const px = (el) => parseFloat(getComputedStyle(el).fontSize) * (el.currentCSSZoom ?? 1);
    const sizes = [];
    const walker = document.createTreeWalker(document.querySelector("#app-root"), NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const el = n.parentElement;
      if (!el || !n.textContent.trim() || el.closest(".sr-only, option, details:not([open]) > :not(summary)")) continue;
      if (!el.getClientRects().length) continue;
      sizes.push(px(el));
    }
    sizes.sort((a, b) => a - b);
    return { body: px(document.querySelector("#app-root")), smallest: sizes[0], median: sizes[Math.floor(sizes.length / 2)] };
  });
}

test("?present opens presentation mode: the body at 20 px or more at 1920×1080, every text at WCAG AA contrast", async (t) => {
  const page = await suite.open(t, "?lang=en&present");
  await page.locator(".app.present").waitFor();
  await runTo(page, 12);
  const sizes = await fontSizes(page);
  assert.ok(sizes.body >= 20, `body text ${sizes.body} px`);
  assert.ok(sizes.median >= 17, `most text ${sizes.median} px`);
  assert.ok(sizes.smallest >= 14, `the smallest text ${sizes.smallest} px`);
  assert.deepEqual(await lowContrast(page), []);
  // The layout keeps its columns (it does not drop to two as at 150 % browser zoom).
  const lefts = await page.locator(".stage > .panel").evaluateAll((ps) => ps.map((p) => Math.round(p.getBoundingClientRect().left)));
  assert.equal(new Set(lefts).size, 3, `producers, topic and groups side by side: ${lefts}`);
  assert.equal(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth), 0);
  await screenshot(page, "present-1920");
  // The toggle turns it off and on.
  await page.click("#present-toggle");
  assert.equal(await page.locator(".app.present").count(), 0);
  await page.click("#present-toggle");
  await page.locator(".app.present").waitFor();
});

test("the Chinese page in presentation mode is at WCAG AA contrast too", async (t) => {
  const page = await suite.open(t, "?lang=zh&present");
  await page.locator(".app.present").waitFor();
  await runTo(page, 12);
  assert.deepEqual(await lowContrast(page), []);
});

test("a lesson in presentation mode: the narration as captions across the bottom, stepped from the keyboard", async (t) => {
  const page = await suite.open(t, "?lang=en&present");
  await page.locator(".app.present").waitFor();
  await page.click("#lessons-toggle");
  await page.locator('#lessons li[data-lesson="topics-partitions"] button.start-lesson').click();
  await page.locator("#lesson").waitFor();
  const captions = await page.locator("#lesson-side").boundingBox();
  assert.ok(captions.y > 1080 / 2 && captions.width >= 1900 && captions.y + captions.height <= 1081, `captions across the bottom: ${JSON.stringify(captions)}`);
  const say = await page.locator("#lesson .lesson-say").evaluate((el) => parseFloat(getComputedStyle(el).fontSize) * (el.currentCSSZoom ?? 1));
  assert.ok(say >= 24, `the narration reads at ${say} px`);
  assert.deepEqual(await lowContrast(page), []);
  // → goes to the next step; the question waits for 1-4; then PageDown moves on.
  const progress = () => page.locator("#lesson .lesson-progress").innerText();
  assert.match(await progress(), /step 1 of/);
  await page.keyboard.press("ArrowRight");
  await page.waitForFunction(() => /step 2 of/.test(document.querySelector("#lesson .lesson-progress")?.textContent));
  await page.keyboard.press("ArrowRight");
  assert.match(await progress(), /step 2 of/, "a question waits for its answer");
  await page.keyboard.press("2");
  await page.locator("#lesson .verdict").waitFor();
  assert.equal(await page.locator("#lesson .choice.chosen").getAttribute("data-choice"), "1");
  await page.keyboard.press("PageDown");
  await page.waitForFunction(() => /step 3 of/.test(document.querySelector("#lesson .lesson-progress")?.textContent));
  // Nothing the lesson talks about is under the captions: the page is padded by them.
  const pad = await page.evaluate(() => parseFloat(getComputedStyle(document.querySelector("#app-root")).paddingBottom) * (document.querySelector("#app-root").currentCSSZoom ?? 1));
  assert.ok(pad >= captions.height - 2, `padded ${pad} for captions ${captions.height}`);
  await screenshot(page, "present-lesson-1920");
});

test("no console errors, page errors or CSP violations", () => suite.assertNoProblems());

test("presentation mode on a phone: the captions take at most 40 % of the screen and the page does not scroll sideways", async (t) => {
  const page = await suite.open(t, "?lang=en&present");
  await page.setViewportSize({ width: 390, height: 844 });
  await page.locator(".app.present").waitFor();
  await page.click("#lessons-toggle");
  await page.locator('#lessons li[data-lesson="topics-partitions"] button.start-lesson').click();
  await page.locator("#lesson").waitFor();
  const captions = await page.locator("#lesson-side").boundingBox();
  assert.ok(captions.height <= 844 * 0.4 + 1 && captions.y + captions.height <= 845, `captions ${JSON.stringify(captions)}`);
  const wide = await page.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(wide <= 391, `the page is ${wide} px wide`);
  const say = await page.locator("#lesson .lesson-say").evaluate((el) => parseFloat(getComputedStyle(el).fontSize) * (el.currentCSSZoom ?? 1));
  assert.ok(say >= 18, `the narration reads at ${say} px`);
});
