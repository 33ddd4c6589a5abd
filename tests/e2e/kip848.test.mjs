// The KIP-848 consumer protocol and the protocol comparison in the page, clicked as a
// learner would: a group with group.protocol=consumer forms; a third consumer joins and
// Step shows the new group epoch, the broker's target assignment, the members giving up
// only the partitions that move ("revoking"), the newcomer waiting for their release, and
// nobody else ever stopping. Then the comparison runs the same join under eager,
// cooperative and KIP-848 and shows who stopped. A crash with commits after processing
// lists each duplicate with its cause. Screenshots in tests/e2e/output/kip848-*.png.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { browserSuite, clickAndWait, loadScenario as load, runTo, screenshot } from "./helpers.mjs";

const suite = browserSuite(before, after);
const VALUES = Array.from({ length: 300 }, (_, i) => `m${i + 1}`);

function scenario(group = {}, member = {}, commands = []) {
  return JSON.stringify({
    commands,
    version: 1,
    name: "kip-848",
    seed: 11,
    cluster: { brokers: 3 },
    topics: [{ name: "orders", partitions: 6, replication_factor: 1 }],
    producers: [
      {
        name: "Producer1",
        config: { partitioner: "round_robin" },
        send: [{ topic: "orders", values: VALUES, start_ms: 500, interval_ms: 200 }],
      },
    ],
    groups: [
      {
        id: "shop",
        topics: ["orders"],
        config: { auto_offset_reset: "earliest", group_protocol: "consumer", ...group },
        members: [
          { client_id: "Consumer1", config: { ...member } },
          { client_id: "Consumer2", config: { ...member } },
        ],
      },
    ],
  });
}

const CARD = '[data-group="shop"]';

async function open(t, lang) {
  return suite.open(t, `?lang=${lang}`);
}

const loadScenario = (page, json) => load(page, json, CARD);

async function view(page) {
  return page.evaluate((card) => {
    const g = document.querySelector(card);
    const members = {};
    for (const m of g.querySelectorAll(".member")) {
      members[m.dataset.client] = {
        phase: m.dataset.phase,
        parts: m.querySelector(".parts").textContent.trim(),
        reconcile: m.querySelector(".reconcile")?.className ?? "",
        activity: m.querySelector(".activity")?.textContent ?? "",
      };
    }
    return {
      state: g.dataset.state,
      meta: g.querySelector(".meta").textContent,
      states: [...g.querySelectorAll(".states li")].map((li) => li.textContent),
      timeline: [...g.querySelectorAll(".tl li[data-seq]")].map((li) => li.textContent),
      members,
    };
  }, CARD);
}

async function stepUntil(page, what, check, max = 300) {
  for (let i = 0; i < max; i++) {
    const v = await view(page);
    if (check(v)) return v;
    // "Next group event": the group's next protocol event, skipping producer traffic.
    await clickAndWait(page, `${CARD} button.step-group`);
  }
  assert.fail(`${what}: not reached; the card shows ${JSON.stringify(await view(page), null, 1)}`);
}

test("a join under KIP-848: epochs, a broker-side target, and only moving partitions pause", async (t) => {
  const page = await open(t, "en");
  await loadScenario(page, scenario());
  // Consumer2 gets its partitions once Consumer1 has released them (Stable by 6 s).
  await runTo(page, 7);
  let v = await view(page);
  assert.equal(v.state, "stable");
  assert.ok(Object.values(v.members).every((m) => m.parts !== "—"), JSON.stringify(v.members));
  assert.deepEqual(v.states, ["Empty", "Reconciling", "Stable"]);
  assert.match(v.meta, /protocol consumer \(KIP-848\)/);
  assert.match(v.meta, /Assignor uniform \(broker\)/);
  assert.match(v.meta, /epoch 2 · target 2/);
  assert.ok(!v.timeline.some((l) => /sends (JoinGroup|SyncGroup)/.test(l)), "no JoinGroup or SyncGroup under KIP-848");
  const before = { c1: v.members.Consumer1.parts, c2: v.members.Consumer2.parts };


  await page.locator(`${CARD} button.add-member`).click();
  await page.locator(`${CARD} [data-client="Consumer3"]`).waitFor();
  v = await stepUntil(page, "the new group epoch", (v) => v.timeline.some((l) => /group epoch goes to 3/.test(l)));
  assert.ok(v.timeline.some((l) => /target assignment for epoch 3 \(broker-side uniform assignor\)/.test(l)));
  await screenshot(page, "kip848-1-epoch");
  // An old member is told to give up one partition; the newcomer waits for its release.
  v = await stepUntil(page, "a revocation", (v) => Object.values(v.members).some((m) => /r-unrevokedpartitions/.test(m.reconcile)));
  assert.equal(v.state, "reconciling");
  await screenshot(page, "kip848-2-revoking");
  v = await stepUntil(page, "the final assignment", (v) =>
    v.state === "stable" && Object.values(v.members).every((m) => m.parts.split(" ").length === 2),
  );
  // The old members kept two of their three partitions and never stopped consuming.
  for (const [c, old] of [["Consumer1", before.c1], ["Consumer2", before.c2]]) {
    const now = v.members[c].parts.split(" ");
    assert.ok(now.every((p) => old.split(" ").includes(p)), `${c}: ${old} -> ${now}`);
    const stopped = await page.locator(`${CARD} [data-client="${c}"] .rebalance-pause`).innerText();
    assert.match(stopped, /0\.0 s/, `${c} never stopped`);
  }
  await screenshot(page, "kip848-3-stable");
});

test("the comparison shows eager stopping everyone and the others only moving partitions", async (t) => {
  const page = await open(t, "en");
  await loadScenario(page, scenario({ group_protocol: "classic" }));
  await page.locator("#compare").scrollIntoViewIfNeeded();
  const options = await page.locator("#compare-change option").allInnerTexts();
  const join = options.findIndex((o) => /shop: a new consumer new-1 joins/.test(o));
  assert.ok(join >= 0, options.join(" | "));
  await page.selectOption("#compare-change", String(join));
  await page.click("#compare-run");
  await page.locator("#compare-result").waitFor();
  const cells = async (row) => page.locator(`#compare-result tr.${row} td`).allInnerTexts();
  const stopped = await cells("m-stopped");
  assert.equal(stopped.length, 3);
  assert.match(stopped[0], /Consumer1 \(\d+\.\d s\), Consumer2 \(\d+\.\d s\)/);
  assert.equal(stopped[1], "—");
  assert.equal(stopped[2], "—");
  const revoked = (await cells("m-revoked")).map(Number);
  assert.equal(revoked[0], 6);
  assert.deepEqual(revoked.slice(1), [2, 2]);
  assert.equal(await page.locator("#compare-result .lane-group").count(), 3);
  await page.locator("#compare").screenshot({ path: "tests/e2e/output/kip848-4-compare.png" });
  // The same table in Chinese.
  await page.click("#lang-toggle");
  assert.match(await page.locator("#compare h2").innerText(), /对比/);
  await page.click("#compare-close");
  assert.equal(await page.locator("#compare-result").count(), 0);
});

test("each duplicate after a crash is listed with its cause", async (t) => {
  const page = await open(t, "en");
  // The crash is in the scenario's timeline, so it hits the same record every run.
  const crash = [{ at_ms: 15000, command: { type: "crash_member", group: "shop", client_id: "Consumer1" } }];
  await loadScenario(page, scenario({ group_protocol: "classic" }, { commit_mode: "sync_after_processing", processing_ms: 300, session_timeout_ms: 6000 }, crash));
  // Consumer2 takes Consumer1's partitions over after session.timeout.ms and processes
  // again what Consumer1 had processed but not committed.
  await runTo(page, 20);
  await page.locator(`${CARD} .dup-list`).waitFor();
  await page.click(`${CARD} .dup-list summary`);
  const first = await page.locator(`${CARD} .dup-list li`).first().innerText();
  assert.match(first, /Consumer1 processed it at .* Consumer2 again at .*Consumer1 crashed at .* when the committed offset was \d+/);
  await page.locator(CARD).screenshot({ path: "tests/e2e/output/kip848-5-duplicates.png" });
});

test("no console errors, page errors or CSP violations", () => suite.assertNoProblems());
