// The classic consumer-group protocol in the page, clicked as a learner would: a third
// consumer joins a stable group and Step walks through the rebalance (JoinGroup,
// MEMBER_ID_REQUIRED, REBALANCE_IN_PROGRESS, eager revocation, the join phase, SyncGroup,
// the assignment, Stable) while the card, the member phases and the timeline follow.
// A crashed member is removed after its session timeout; committing before processing
// and crashing mid-batch leaves records committed but never processed. Every moment a
// test checks is reached with Run to or Step (the same on any machine); the times come
// from the scenario (the group is Stable at 6.1 s; records are sent until 8.3 s).
// Screenshots in tests/e2e/output/groups-*.png.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { clickAndWait, launchChromium, loadScenario as loadScenarioText, openPage, runTo, serveDist, screenshot } from "./helpers.mjs";

let server, browser;
const problemLists = [];

const VALUES = Array.from({ length: 40 }, (_, i) => `m${i + 1}`);
/** The brief's scenario; `consumer2` adds settings to Consumer2's config. */
function scenario(consumer2 = {}) {
  return JSON.stringify({
    version: 1,
    name: "group protocol",
    seed: 11,
    cluster: { brokers: 3 },
    topics: [{ name: "orders", partitions: 4, replication_factor: 1 }],
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
        config: { auto_offset_reset: "earliest" },
        members: [
          { client_id: "Consumer1", config: { session_timeout_ms: 6000 } },
          { client_id: "Consumer2", config: { session_timeout_ms: 6000, ...consumer2 } },
        ],
      },
    ],
  });
}

const CARD = '[data-group="shop"]';
const MAX_STEPS = 200;

/**
 * Opens the page for one test; it is closed when the test ends (a page left open keeps
 * its simulation running and slows every later test).
 */
async function open(t, lang, viewport = { width: 1280, height: 800 }) {
  const { page, problems } = await openPage(browser, `${server.url}?lang=${lang}`, { viewport });
  problemLists.push(problems);
  t.after(() => page.close());
  return page;
}

async function loadScenario(page, json = scenario()) {
  await loadScenarioText(page, json, CARD);
}

/** Whether the group is Stable with every member stable and owning partitions. */
async function allStable(page) {
  return page.evaluate((card) => {
    const g = document.querySelector(card);
    if (!g || g.dataset.state !== "stable") return false;
    const members = [...g.querySelectorAll(".member")];
    return (
      members.length >= 2 &&
      members.every((m) => m.dataset.phase === "stable" && m.querySelector(".parts").textContent.trim() !== "—")
    );
  }, CARD);
}

/** Runs to 6.5 s: the first generation has formed (at 6.1 s), both members consume. */
async function untilStable(page) {
  await runTo(page, 6.5);
  assert.ok(await allStable(page), `the group is stable at 6.5 s: ${JSON.stringify(await cardView(page), null, 1)}`);
}

/** Everything the test reads from the card at once. */
async function cardView(page) {
  return page.evaluate((card) => {
    const g = document.querySelector(card);
    const members = {};
    for (const m of g.querySelectorAll(".member")) {
      members[m.dataset.client] = {
        phase: m.dataset.phase,
        badge: m.querySelector(".phase").textContent,
        parts: m.querySelector(".parts").textContent.trim(),
        note: [...m.querySelectorAll(".member-note")].map((n) => n.textContent).join(" "),
      };
    }
    return {
      state: g.dataset.state,
      badge: g.querySelector(".card-head .badge").textContent,
      current: g.querySelector(".states li.current")?.textContent,
      meta: g.querySelector(".meta").textContent,
      timeline: [...g.querySelectorAll(".tl li[data-seq]")].map((li) => ({ seq: Number(li.dataset.seq), text: li.textContent })),
      newest: g.querySelector(".tl li.newest")?.textContent ?? "",
      lost: g.querySelector(".counters .lost").textContent,
      members,
    };
  }, CARD);
}

/**
 * Clicks the card's "Next group event" until `check(view)` holds, at most MAX_STEPS clicks
 * in all. Returns the view that satisfied it. Each click steps to the group's next protocol
 * event (every state and phase change is one), skipping the producer's traffic; the view
 * is read after Yew has rendered it.
 */
async function stepUntil(page, what, check) {
  for (let i = 0; i < MAX_STEPS; i++) {
    const view = await cardView(page);
    if (check(view)) return view;
    await clickAndWait(page, `${CARD} button.step-group`);
  }
  const view = await cardView(page);
  assert.fail(`${what}: not reached within ${MAX_STEPS} steps; the card shows ${JSON.stringify(view, null, 1)}`);
}

before(async () => {
  server = await serveDist();
  browser = await launchChromium();
});

after(async () => {
  await browser?.close();
  await server?.close();
});

test("stepping through an eager rebalance when a third consumer joins", async (t) => {
  const page = await open(t, "en");
  await loadScenario(page);
  await untilStable(page);
  let v = await cardView(page);
  assert.equal(v.badge, "Stable");
  assert.equal(v.current, "Stable");
  assert.match(v.meta, /generation 1/);
  assert.match(v.meta, /protocol eager/);
  assert.match(await page.locator(`${CARD} .coordinator`).innerText(), /^coordinator: broker \d$/);
  const before = { c1: v.members.Consumer1.parts, c2: v.members.Consumer2.parts };
  // Timeline entries from before the newcomer arrived (the first rebalance's) are ignored.
  const mark = Math.max(...v.timeline.map((e) => e.seq));
  const since = (v) => v.timeline.filter((e) => e.seq > mark).map((e) => e.text);

  await page.locator(`${CARD} button.add-member`).click();
  await page.locator(`${CARD} [data-client="Consumer3"]`).waitFor();
  v = await cardView(page);
  // 1. The newcomer's first JoinGroup carries no member id.
  assert.equal(v.members.Consumer3.phase, "joining");
  assert.equal(v.members.Consumer3.badge, "joining");
  assert.match(v.newest, /Consumer3 sends JoinGroup to shop's coordinator \(no member id yet\)/);
  assert.equal(v.state, "stable", "nothing has reached the coordinator yet");

  // 2. KIP-394: the coordinator hands out the member id and asks it to join again.
  v = await stepUntil(page, "MEMBER_ID_REQUIRED", (v) => since(v).some((t) => /MEMBER_ID_REQUIRED/.test(t)));
  // The timeline tells it without the UUID (the card's tooltip has the member id).
  assert.match(since(v).join("\n"), /MEMBER_ID_REQUIRED and gives Consumer3 a member id/);
  assert.doesNotMatch(v.timeline.map((e) => e.text).join("\n"), /[0-9a-f]{8}-[0-9a-f]{4}-/);
  const memberId = await page.locator(`${CARD} [data-client="Consumer3"] .cid`).getAttribute("title");
  assert.match(memberId, /^member id: Consumer3-/);

  // 3. Its second JoinGroup starts the rebalance: PreparingRebalance, the others still consume.
  v = await stepUntil(page, "PreparingRebalance", (v) => v.state === "preparing");
  assert.equal(v.badge, "PreparingRebalance");
  assert.equal(v.current, "PreparingRebalance");
  assert.equal(v.members.Consumer1.parts, before.c1, "the others keep consuming until their next heartbeat");
  await screenshot(page, "groups-1-preparing");

  // 4. A heartbeat answers REBALANCE_IN_PROGRESS; eager: the member revokes everything first.
  v = await stepUntil(page, "REBALANCE_IN_PROGRESS", (v) => since(v).some((t) => /REBALANCE_IN_PROGRESS/.test(t)));
  const noticed = since(v).find((t) => /REBALANCE_IN_PROGRESS/.test(t)).match(/(Consumer\d)'s heartbeat/)[1];
  assert.equal(v.members[noticed].parts, "—", `${noticed} gave up its partitions`);
  assert.equal(v.members[noticed].phase, "joining");
  assert.ok(since(v).some((t) => new RegExp(`${noticed} gives up [\\w.-]+-\\d`).test(t)), "the revocation is in the timeline");
  v = await stepUntil(
    page,
    "both old members revoked",
    (v) => v.members.Consumer1.parts === "—" && v.members.Consumer2.parts === "—",
  );
  assert.ok(["joining"].includes(v.members.Consumer1.phase) && v.members.Consumer2.phase === "joining");
  assert.equal(v.state, "preparing");
  await screenshot(page, "groups-2-revoked");

  // 5. Everyone has rejoined: generation 2, the leader computes the assignment.
  v = await stepUntil(page, "CompletingRebalance", (v) => v.state === "completing");
  assert.equal(v.badge, "CompletingRebalance");
  assert.match(v.meta, /generation 2/);
  assert.match(since(v).join("\n"), /shop join phase over: generation 2, members \[Consumer\d, Consumer\d, Consumer\d\]/);

  // 6. SyncGroup: the leader's carries the assignment; members wait in "syncing".
  v = await stepUntil(page, "SyncGroup", (v) => since(v).some((t) => /sends SyncGroup/.test(t)));
  assert.match(since(v).join("\n"), /Leader Consumer\d sends SyncGroup with the assignment/);
  assert.ok(Object.values(v.members).some((m) => m.phase === "syncing"));
  await screenshot(page, "groups-3-syncing");

  // 7. The leader's SyncGroup makes the group Stable; the answers bring each its partitions.
  v = await stepUntil(page, "Stable", (v) => v.state === "stable");
  assert.equal(v.badge, "Stable");
  v = await stepUntil(page, "partitions assigned", (v) => Object.values(v.members).every((m) => m.parts !== "—"));
  assert.match(since(v).join("\n"), /shop generation 2: Consumer3 gets orders-\d/);
  // Range over three members and four partitions: 2 + 1 + 1.
  const counts = Object.values(v.members).map((m) => m.parts.split(" ").length).sort();
  assert.deepEqual(counts, [1, 1, 2]);

  // 8. Committed offsets fetched: every member is stable in generation 2.
  v = await stepUntil(page, "members stable", (v) => Object.values(v.members).every((m) => m.phase === "stable"));
  for (const c of ["Consumer1", "Consumer2", "Consumer3"]) {
    assert.match(await page.locator(`${CARD} [data-client="${c}"] .mgen`).innerText(), /gen 2/);
  }
  assert.match(await page.locator(`${CARD} .rebalances`).innerText(), /rebalances: 2/);
  const newest = await page.locator(`${CARD} .tl li.newest`).innerText();
  assert.match(newest, /starts [\w.-]+-\d at offset \d+ \(the committed offset\)/);
  await screenshot(page, "groups-4-stable");
});

test("a crashed member is removed after its session timeout and the other takes every partition", async (t) => {
  const page = await open(t, "en");
  await loadScenario(page);
  await untilStable(page);
  const member = page.locator(`${CARD} [data-client="Consumer2"]`);
  await member.locator("button.crash-member").click();
  await page.waitForFunction(() => document.querySelector('[data-group="shop"] [data-client="Consumer2"]')?.dataset.phase === "crashed");
  assert.equal(await member.locator(".phase").innerText(), "crashed");
  assert.match(await member.locator(".member-note").innerText(), /still counts it as a member until session\.timeout\.ms/);
  assert.equal(await member.locator(".parts").innerText(), "—");
  await member.locator("button.restart-member").waitFor();
  assert.ok(await member.locator("button.pause-member").isDisabled());

  // session.timeout.ms (6 s) after its last heartbeat the coordinator removes it; the
  // rebalance that follows gives Consumer1 everything (Stable again by 16 s).
  await runTo(page, 20);
  assert.match(await member.locator(".member-note.removed").innerText(), /removed by the coordinator at [\d.]+ s: no heartbeat within session\.timeout\.ms/);
  const v = await cardView(page);
  assert.equal(v.state, "stable");
  assert.equal(v.members.Consumer1.phase, "stable");
  assert.equal(v.members.Consumer1.parts, "P0 P1 P2 P3");
  assert.match(v.timeline.map((e) => e.text).join("\n"), /The coordinator removes Consumer2 from shop \(no heartbeat within session\.timeout\.ms\)/);
  assert.match(v.meta, /generation 2/);
  await screenshot(page, "groups-5-crash-removed");

  // Restarting brings it back as a new member: another rebalance shares the partitions again.
  await member.locator("button.restart-member").click();
  await runTo(page, 30);
  assert.ok(await allStable(page), JSON.stringify(await cardView(page), null, 1));
  assert.match((await cardView(page)).meta, /generation 3/);
});

test("a stuck application leaves after max.poll.interval.ms and rejoins when it polls again", async (t) => {
  const page = await open(t, "en");
  await loadScenario(page, scenario({ max_poll_interval_ms: 8000 }));
  await untilStable(page);
  const member = page.locator(`${CARD} [data-client="Consumer2"]`);
  await member.locator("button.pause-member").click();
  await member.locator(".member-note.stuck").waitFor();
  assert.equal(await member.locator(".member-note.stuck").innerText(), "stuck: not calling poll()");
  await member.locator("button.resume-member").waitFor();
  // KIP-62: the heartbeat thread notices no poll() for max.poll.interval.ms (8 s) and
  // leaves (by 15 s); the group rebalances without it (Stable again by 20 s).
  await runTo(page, 22);
  assert.equal(await member.getAttribute("data-phase"), "left");
  assert.equal(await member.locator(".phase").innerText(), "left: max.poll.interval exceeded");
  assert.match(await member.locator(".member-note.removed").innerText(), /no poll\(\) within max\.poll\.interval\.ms/);
  assert.equal((await cardView(page)).members.Consumer1.parts, "P0 P1 P2 P3");
  await screenshot(page, "groups-8-poll-timeout");
  // Resumed, its next poll() rejoins and the group shares the partitions again.
  await member.locator("button.resume-member").click();
  await runTo(page, 35);
  assert.ok(await allStable(page), JSON.stringify(await cardView(page), null, 1));
  assert.equal(await member.locator(".member-note").count(), 0);
});

test("committing before processing and crashing mid-batch leaves records committed but never processed", async (t) => {
  const page = await open(t, "en");
  await loadScenario(page);
  await untilStable(page);
  const member = page.locator(`${CARD} [data-client="Consumer1"]`);
  await member.locator("select.commit-mode").selectOption({ label: "before processing" });
  await member.locator("select.processing").selectOption({ label: "1 s/record" });
  await page.waitForFunction(() => {
    const m = document.querySelector('[data-group="shop"] [data-client="Consumer1"]');
    return m?.querySelector("select.commit-mode").value === "before_processing" && m.querySelector("select.processing").value === "1000";
  });
  // Slow processing piles records up: each poll() returns several, committed at once.
  // At 8.5 s a poll has returned three records Consumer1 has not processed yet.
  const inProgress = (min) => {
    const m = document.querySelector('[data-group="shop"] [data-client="Consumer1"]');
    const received = m.querySelectorAll(".received .rec").length;
    const processed = Number(m.querySelector(".processed").textContent.match(/(\d+)$/)[1]);
    return received - processed >= min;
  };
  await runTo(page, 8.5);
  assert.ok(await page.evaluate(inProgress, 2), "a batch is half done");
  // The poll that returned these records also sent their commit; 0.4 s later (many
  // network round trips, less than one record's processing) it has landed, and records
  // are still in hand.
  await runTo(page, 8.9);
  assert.ok(await page.evaluate(inProgress, 1), "records are still waiting to be processed");
  assert.match(await member.locator(".activity").innerText(), /processing/);
  await member.locator("button.crash-member").click();
  // Consumer2 takes the partitions over from the committed offsets, past what was never
  // done (after session.timeout.ms: Stable again by 16 s).
  await runTo(page, 20);
  const v = await cardView(page);
  assert.equal(v.state, "stable");
  assert.equal(v.members.Consumer2.phase, "stable");
  assert.equal(v.members.Consumer2.parts, "P0 P1 P2 P3");
  const lost = Number((await page.locator(`${CARD} .counters .lost`).innerText()).match(/(\d+)$/)[1]);
  assert.ok(lost > 0, `lost counter is ${lost}`);
  assert.match(await page.locator(`${CARD} .counters .lost`).getAttribute("class"), /bad/);
  assert.match(await page.locator(`${CARD} .counters .lost-why`).innerText(), /committed before processing/);
  await screenshot(page, "groups-6-lost");
});

test("the assignor selector offers the four classic assignors and the group takes the choice", async (t) => {
  const page = await open(t, "en");
  await loadScenario(page);
  await untilStable(page);
  const select = page.locator(`${CARD} select.assignor`);
  assert.deepEqual(await select.locator("option").allInnerTexts(), ["range", "roundrobin", "sticky", "cooperative-sticky"]);
  await select.selectOption("cooperative-sticky");
  // A Stable group takes the change: the next rebalance is cooperative.
  await page.locator(`${CARD} .meta`).filter({ hasText: "protocol cooperative" }).waitFor();
  assert.equal(await page.locator(`${CARD} select.assignor`).inputValue(), "cooperative-sticky");
  assert.equal(await page.locator("#notice.error").count(), 0);
});

test("'Next group event' skips producer traffic: every click adds to the timeline", async (t) => {
  const page = await open(t, "en");
  await loadScenario(page);
  await untilStable(page);
  await page.locator(`${CARD} button.add-member`).click();
  await page.locator(`${CARD} [data-client="Consumer3"]`).waitFor();
  const newestSeq = async () => Number(await page.locator(`${CARD} .tl li.newest`).getAttribute("data-seq"));
  let seq = await newestSeq();
  for (let i = 0; i < 6; i++) {
    await page.locator(`${CARD} button.step-group`).click();
    await page.waitForFunction(
      ([card, seq]) => Number(document.querySelector(`${card} .tl li.newest`)?.dataset.seq) > seq,
      [CARD, seq],
    );
    seq = await newestSeq();
  }
  assert.match(await page.locator("#play").innerText(), /Play/, "stepping pauses the player");
  assert.ok(["preparing", "completing"].includes((await cardView(page)).state), "the rebalance is under way");
});

test("the Chinese page explains the same group", async (t) => {
  const page = await open(t, "zh");
  await loadScenario(page);
  await untilStable(page);
  await page.locator(`${CARD} [data-client="Consumer2"] button.crash-member`).click();
  await page.locator(`${CARD} [data-client="Consumer2"][data-phase="crashed"]`).waitFor();
  const text = await page.locator(CARD).innerText();
  assert.match(text, /协调者：Broker \d/);
  assert.match(text, /重平衡时间线/);
  assert.match(text, /已崩溃/);
  assert.match(text, /重复处理（duplicates）/);
  assert.match(text, /处理后同步提交/);
  await screenshot(page, "groups-7-zh");
});

test("nothing was logged as an error", () => {
  for (const problems of problemLists) assert.deepEqual(problems(), []);
});
