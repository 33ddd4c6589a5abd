// Chinese everywhere: after the language toggle, no visible text is left in English —
// except Kafka's own names (settings, errors, states, assignors), identifiers from the
// scenario (Consumer1, Topic01, m3) and units. Checked programmatically over every text
// node a learner can see, with the page playing and a few panels open.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { appsScenario, atStart, browserSuite, clickAndWait, loadScenario, runTo } from "./helpers.mjs";

const suite = browserSuite(before, after);

// Words that stay as they are in the Chinese interface: Kafka's vocabulary, units, the
// toggle's own "English", and the English glosses some Chinese labels carry on purpose.
const KAFKA = new Set(
  `kafka kip isr hw leo acks all eager cooperative range roundrobin sticky uniform consumer classic broker leader follower
   epoch offset offsets joingroup syncgroup heartbeat leavegroup offsetcommit offsetfetch poll seek seektobeginning seektoend
   stable empty preparingrebalance completingrebalance reconciling json null earliest latest none auto sync async record
   ms min max id ids member gen true false rebalance murmur topic partition key value producer linger idempotent
   batch size retention bytes segment committed uncommitted commit reset group instance protocol assignor strategy
   interval timeout session request delivery timestamp createtime logappendtime unclean election insync replicas replica
   lag fetch wait processing per mode before after events event
   english duplicates lost produce fetch retries connect streams incrementing changelog position ongoing`.split(/\s+/),
);

/** Visible English words that are not Kafka's, a scenario's identifiers or units. */
function englishLeft(page) {
  return page.evaluate((allowed) => {
    const ok = new Set(allowed);
    const out = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const el = n.parentElement;
      if (!el || el.closest("style, script, textarea, option:not(:checked), .sr-only")) continue;
      if (!el.getClientRects().length) continue;
      const text = n.textContent;
      // English words: lowercase letters only, 3+ long, not an identifier part.
      // A zero-width space after a dot (where a long setting name may wrap) still joins it.
      const words = (text.match(/(?<![\w.=\u200b-])[A-Za-z]{3,}(?![\w.=(\u200b-])/g) ?? []).filter((w) => {
        const lw = w.toLowerCase();
        if (ok.has(lw) || ok.has(lw.replace(/s$/, ""))) return false;
        if (/^[A-Z_]+$/.test(w)) return false; // CODES
        if (/[A-Z].*[A-Z]/.test(w)) return false; // CamelCase names
        return true;
      });
      if (words.length) out.push(`${words.join(" ")} ← "${text.trim().slice(0, 60)}"`);
    }
    return out;
  }, [...KAFKA]);
}

test("the language toggle leaves no English label behind", async (t) => {
  const page = await suite.open(t);
  // Records have been produced and read by 8.3 s; step until an acknowledgement is on the
  // wire, so its label is checked too.
  await atStart(page);
  await runTo(page, 8.3);
  const ack = page.locator(".wire .flight.back:not(.error)");
  for (let i = 0; i < 100 && (await ack.count()) === 0; i++) await clickAndWait(page, "#step");
  await ack.first().waitFor();
  await page.click("#lang-toggle");
  await page.click("#charts summary");
  await page.click("#compare-run");
  await page.locator("#compare-result").waitFor();
  await page.locator(".panel.topics li.cell").first().click();
  await page.locator("#record-path").waitFor();
  // The scenario editor too, with its "more settings" open.
  await page.click("#edit-scenario");
  for (const more of await page.locator("#scenario-editor details.ed-more summary").all()) await more.click();
  const leftovers = await englishLeft(page);
  assert.deepEqual(leftovers, []);
});

test("transactions speak Chinese too", async (t) => {
  const page = await suite.open(t, "?lang=zh");
  await page.selectOption("#scenario", "transactions");
  await page.locator("#transactions").waitFor();
  await runTo(page, 9.5);
  await page.locator(".panel.topics li.cell.txn-aborted").first().click();
  await page.locator("#record-path").waitFor();
  const leftovers = await englishLeft(page);
  assert.deepEqual(leftovers, []);
});

test("a lesson, Connect, Streams and push speak Chinese too", async (t) => {
  const page = await suite.open(t, "?lang=zh");
  // The apps scenario with names that read as identifiers (not English words).
  const scenario = JSON.parse(appsScenario());
  const rename = { customers: "CustomerRows", counts: "CountTopic", clicks: "ClickTopic", jdbc: "JdbcSource", counter: "CountApp", clicker: "ClickProducer", pushed: "PushGroup", slow: "SlowOne", "per-id": "PerRow" };
  const renamed = JSON.stringify(scenario).replace(/"(customers|counts|clicks|jdbc|counter|clicker|pushed|slow|per-id)"/g, (_, n) => `"${rename[n]}"`)
    .replace(/"(ada|bob|cy|dee)"/g, (_, v) => `"V${v.length}${v[0].toUpperCase()}"`);
  await loadScenario(page, renamed, "#apps");
  await runTo(page, 6);
  assert.equal(await page.locator("#apps").count(), 1);
  assert.equal(await page.locator(".push-badge").count(), 1);
  await page.click("#lessons-toggle");
  await page.locator("#lessons li[data-lesson]").first().waitFor();
  let leftovers = await englishLeft(page);
  assert.deepEqual(leftovers, []);
  await page.locator("#lessons li[data-lesson] button.start-lesson").first().click();
  await page.locator("#lesson").waitFor();
  leftovers = await englishLeft(page);
  assert.deepEqual(leftovers, []);
});

test("a refused scenario is explained in Chinese, names and places kept", async (t) => {
  const page = await suite.open(t, "?lang=zh");
  // Paused at the start: what the check reads does not depend on when it runs.
  await atStart(page);
  const details = page.locator("details.json");
  if (!(await details.evaluate((d) => d.open))) await details.locator("summary").click();
  const cases = [
    ['{"version": 1, "topics": []}', "场景至少需要一个主题"],
    ['{"version": 1, "topics": [{"name": "T", "partitions": "12a"}]}', 'topics[0].partitions（第 1 行，第 59 列）：类型不对：字符串 "12a"，应为 0 到 4294967295 之间的整数'],
    // (The field names it lists are the format's own, in English: not checked for English.)
    ['{"version": 1, "topics": [{"name": "T", "partitons": 3}]}', "未知字段 `partitons`，可用的字段：", "names listed"],
  ];
  for (const [json, chinese, namesListed] of cases) {
    await page.locator("#scenario-json").fill(json);
    await page.locator("#load-json").click();
    const notice = page.locator("#notice.error");
    await notice.waitFor();
    assert.ok((await notice.innerText()).includes(chinese), `${await notice.innerText()} lacks ${chinese}`);
    // The open JSON box covers part of the notice: it says why under its Load button too.
    assert.ok((await page.locator("#json-error").innerText()).includes(chinese));
    if (!namesListed) assert.deepEqual(await englishLeft(page), []);
  }
});
