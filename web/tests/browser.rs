//! Browser tests of the web crate: `cargo test -p kafka-sandbox-web --target wasm32-unknown-unknown`
//! runs them in headless Chromium (see .cargo/config.toml and webdriver.json).
//! Only `#[wasm_bindgen_test]` functions run there: a plain `#[test]` is silently skipped.
#![cfg(target_arch = "wasm32")]

use kafka_sandbox_core::command::{BrokerCommand, GroupCommand};
use wasm_bindgen_test::{wasm_bindgen_test, wasm_bindgen_test_configure};
use web_sys::Element;

wasm_bindgen_test_configure!(run_in_browser);

/// Mounts `App` into a fresh element of the test page and returns that element.
fn mount_app() -> Element {
    let document = web_sys::window().and_then(|w| w.document()).expect("a document");
    let host = document.create_element("div").expect("create a div");
    document.body().expect("a body").append_child(&host).expect("append the host element");
    yew::Renderer::<kafka_sandbox_web::App>::with_root(host.clone()).render();
    host
}

/// The topic panel's props for `snap`: its topics, brokers, time and producers.
fn topic_props(snap: kafka_sandbox_core::Snapshot) -> kafka_sandbox_web::panels::TopicProps {
    kafka_sandbox_web::panels::TopicProps {
        lang: kafka_sandbox_web::i18n::Lang::En,
        brokers: snap.brokers.len() as u32,
        now: snap.now,
        topics: std::rc::Rc::new(snap.topics),
        producers: snap.producers,
        marks: Default::default(),
        compaction: Default::default(),
        dispatch: yew::Callback::noop(),
    }
}

/// The groups panel's props for `snap`'s groups.
fn groups_props(
    snap: kafka_sandbox_core::Snapshot,
    logs: std::rc::Rc<kafka_sandbox_core::vecmap::VecMap<String, std::rc::Rc<kafka_sandbox_web::timeline::GroupLog>>>,
) -> kafka_sandbox_web::panels::GroupsProps {
    kafka_sandbox_web::panels::GroupsProps {
        lang: kafka_sandbox_web::i18n::Lang::En,
        groups: std::rc::Rc::new(snap.groups),
        dispatch: yew::Callback::noop(),
        logs,
        describes: Default::default(),
        offsets_homes: Default::default(),
    }
}

/// Lets Yew's scheduler run before the DOM is read.
async fn settle() {
    gloo_timers::future::TimeoutFuture::new(0).await;
}

#[wasm_bindgen_test]
async fn app_renders_its_root() {
    let host = mount_app();
    settle().await;
    let root = host.query_selector("#app-root").expect("a valid selector").expect("App renders #app-root");
    let text = root.text_content().unwrap_or_default();
    assert!(text.contains("Kafka Sandbox"), "unexpected text: {text:?}");
}

/// The same scenario and seed give the same trace in wasm32 as natively: the digest
/// equals the golden value the native test checks (tests/golden/two-groups.digest).
#[wasm_bindgen_test]
fn the_default_scenario_runs_to_the_native_digest_in_the_browser() {
    let scenario = kafka_sandbox_core::scenario::default_scenario();
    let mut sim = scenario.build().expect("the default scenario builds");
    sim.run_to(kafka_sandbox_core::SimTime(scenario.end_ms()));
    let golden = include_str!("../../tests/golden/two-groups.digest").trim();
    assert_eq!(format!("{:016x}", sim.trace().digest()), golden);
}

/// The second golden scenario (tests/golden/every-feature.json: keyed and sticky
/// partitioning, the sticky assignors' Java HashMap order, KIP-848, retry jitter, broker
/// faults, retention) gives the native digest in wasm32 too.
#[wasm_bindgen_test]
fn the_every_feature_scenario_runs_to_the_native_digest_in_the_browser() {
    let text = include_str!("../../tests/golden/every-feature.json");
    let scenario = kafka_sandbox_core::scenario::Scenario::from_json(text).expect("the golden scenario loads");
    let mut sim = scenario.build().expect("the golden scenario builds");
    sim.run_to(kafka_sandbox_core::SimTime(scenario.end_ms()));
    let golden = include_str!("../../tests/golden/every-feature.digest").trim();
    assert_eq!(format!("{:016x}", sim.trace().digest()), golden);
}

/// The groups panel, given the seed run, shows who owns which partition and what each
/// consumer received, in order.
#[wasm_bindgen_test]
async fn groups_panel_shows_the_seed_assignment_and_messages() {
    use kafka_sandbox_web::panels::Groups;
    use std::rc::Rc;

    let scenario = kafka_sandbox_core::scenario::default_scenario();
    let mut sim = scenario.build().expect("the default scenario builds");
    sim.run_to(kafka_sandbox_core::SimTime(scenario.end_ms()));
    let props = groups_props(sim.snapshot(), Rc::default());

    let document = web_sys::window().and_then(|w| w.document()).expect("a document");
    let host = document.create_element("div").expect("create a div");
    document.body().expect("a body").append_child(&host).expect("append");
    yew::Renderer::<Groups>::with_root_and_props(host.clone(), props).render();
    settle().await;

    let text = |selector: &str| host.query_selector(selector).ok().flatten().and_then(|e| e.text_content()).unwrap_or_default();
    let received = |group: &str, client: &str| {
        let list = host
            .query_selector_all(&format!("[data-group=\"{group}\"] [data-client=\"{client}\"] .received .rec"))
            .expect("a valid selector");
        (0..list.length()).filter_map(|i| list.item(i).and_then(|n| n.text_content())).collect::<Vec<_>>().join(" ")
    };
    assert_eq!(text("[data-group=\"ConsumerGroup01\"] [data-client=\"Consumer1\"] .parts"), "P0 P2");
    assert_eq!(text("[data-group=\"ConsumerGroup01\"] [data-client=\"Consumer2\"] .parts"), "P1 P3");
    assert_eq!(received("ConsumerGroup01", "Consumer1"), "m1 m3 m5 m7");
    assert_eq!(received("ConsumerGroup01", "Consumer2"), "m2 m4 m6");
    assert_eq!(received("ConsumerGroup02", "Consumer1"), "m1 m2 m3 m4 m5 m6 m7");
    assert!(text("[data-group=\"ConsumerGroup01\"] .badge").contains("Stable"));
}

/// Mounts a component with its props into a fresh element and returns that element.
fn mount<C>(props: C::Properties) -> Element
where
    C: yew::BaseComponent,
{
    let document = web_sys::window().and_then(|w| w.document()).expect("a document");
    let host = document.create_element("div").expect("create a div");
    document.body().expect("a body").append_child(&host).expect("append");
    yew::Renderer::<C>::with_root_and_props(host.clone(), props).render();
    host
}

fn text_of(host: &Element, selector: &str) -> String {
    host.query_selector(selector).ok().flatten().and_then(|e| e.text_content()).unwrap_or_default()
}

/// The brokers view after the leader of P0 crashed and the controller noticed (past
/// `broker.session.timeout.ms`): the crashed broker is labelled crashed and fenced, offers
/// a restart, holds no leader replica, and another broker leads P0.
#[wasm_bindgen_test]
async fn brokers_view_shows_a_crashed_broker_and_the_moved_leader() {
    use kafka_sandbox_core::SimTime;
    use kafka_sandbox_web::i18n::Lang;
    use kafka_sandbox_web::panels::{Brokers, BrokersProps};
    use std::rc::Rc;

    let scenario = kafka_sandbox_core::scenario::default_scenario();
    let mut sim = scenario.build().expect("the default scenario builds");
    sim.run_to(SimTime(5000));
    let old = sim.snapshot().topics[0].partitions[0].leader.expect("P0 has a leader");
    sim.apply(BrokerCommand::CrashBroker { broker: old }).expect("the broker exists");
    let timeout = sim.cluster().broker_session_timeout_ms;
    sim.run_to(SimTime(5000 + timeout + 100));
    let snap = sim.snapshot();
    let new = snap.topics[0].partitions[0].leader.expect("P0 has a new leader");
    assert_ne!(new, old);

    let host = mount::<Brokers>(BrokersProps {
        lang: Lang::En,
        kafka_version: sim.cluster().kafka_version,
        brokers: Rc::new(snap.brokers),
        topics: Rc::new(snap.topics),
        flights: Rc::new(snap.flights),
        now: snap.now,
        producers: snap.producers,
        dispatch: yew::Callback::noop(),
    });
    settle().await;

    let column = format!("[data-broker=\"{old}\"]");
    assert_eq!(text_of(&host, &format!("{column} .status.crashed")), "crashed");
    assert_eq!(text_of(&host, &format!("{column} .status.fenced")), "fenced by the controller");
    assert!(host.query_selector(&format!("{column}.crashed")).ok().flatten().is_some(), "the column is greyed");
    assert!(host.query_selector(&format!("{column} button.restart")).ok().flatten().is_some());
    assert!(host.query_selector(&format!("{column} button.crash")).ok().flatten().is_none());
    assert!(host.query_selector(&format!("{column} .replica.leader")).ok().flatten().is_none(), "it leads nothing");
    let new_p0 = format!("[data-broker=\"{new}\"] .replica[data-partition=\"0\"]");
    assert!(host.query_selector(&format!("{new_p0}.leader")).ok().flatten().is_some());
    assert!(text_of(&host, &format!("{new_p0} .role")).contains("leader"));
    // One column per broker, every one with a card (or an empty slot) per partition.
    assert_eq!(host.query_selector_all("[data-broker]").map(|l| l.length()).unwrap_or(0), 3);
    assert_eq!(host.query_selector_all(".replica").map(|l| l.length()).unwrap_or(0), 3 * 4);
}

/// The topic panel after an acks=1 failover with slow followers: the partition summary
/// names the new leader and epoch, and the acknowledged records only the old leader had are
/// struck through with the cause, outside the leader's log.
#[wasm_bindgen_test]
async fn topic_panel_strikes_through_lost_records_with_their_cause() {
    use kafka_sandbox_core::scenario::Scenario;
    use kafka_sandbox_core::SimTime;
    use kafka_sandbox_web::panels::TopicView;

    let json = r#"{
      "version": 1, "seed": 7,
      "cluster": { "brokers": 3, "network_latency_ms": 50, "broker_session_timeout_ms": 2000 },
      "topics": [{ "name": "orders", "partitions": 1, "replication_factor": 3 }],
      "producers": [{ "name": "Producer1", "config": { "acks": "1", "request_timeout_ms": 1500 },
        "send": [{ "topic": "orders", "values": ["m1","m2","m3","m4","m5","m6","m7","m8"], "start_ms": 1000, "interval_ms": 300 }] }]
    }"#;
    let mut sim = Scenario::from_json(json).expect("parses").build().expect("builds");
    let old = sim.snapshot().topics[0].partitions[0].leader.expect("a leader");
    for b in (0..3).filter(|b| *b != old) {
        sim.apply(BrokerCommand::SlowBroker { broker: b, slow_ms: 2000 }).expect("the broker exists");
    }
    sim.run_to(SimTime(2500));
    sim.apply(BrokerCommand::CrashBroker { broker: old }).expect("the broker exists");
    sim.run_to(SimTime(12_000));
    let snap = sim.snapshot();
    let new = snap.topics[0].partitions[0].leader.expect("a new leader");

    let host = mount::<TopicView>(topic_props(snap));
    settle().await;

    let summary = text_of(&host, "#partition-0 .psummary");
    assert!(summary.contains(&format!("leader B{new}")) && summary.contains("epoch 1"), "{summary}");
    let lost = host.query_selector_all("#partition-0 .lost-row .cell.lost").expect("a valid selector");
    assert!(lost.length() >= 1, "at least one record is shown lost");
    assert!(text_of(&host, "#partition-0 .lost-why").contains("leader failover"));
    // .val cells hold the leader's log only: no lost value among them.
    let vals = host.query_selector_all("#partition-0 .val").expect("a valid selector");
    let log: Vec<String> = (0..vals.length()).filter_map(|i| vals.item(i).and_then(|n| n.text_content())).collect();
    let lost_values = host.query_selector_all("#partition-0 .lost-row .cell.lost .lv").expect("a valid selector");
    for i in 0..lost_values.length() {
        let v = lost_values.item(i).and_then(|n| n.text_content()).unwrap_or_default();
        assert!(!log.contains(&v), "{v} is lost yet in the leader's log {log:?}");
    }
}

/// With one replica per partition, crashing its broker leaves the partition without a
/// leader once the controller notices: the topic panel says so in red.
#[wasm_bindgen_test]
async fn topic_panel_marks_a_partition_without_leader_offline() {
    use kafka_sandbox_core::scenario::Scenario;
    use kafka_sandbox_core::SimTime;
    use kafka_sandbox_web::panels::TopicView;

    let json = r#"{
      "version": 1, "seed": 3,
      "cluster": { "brokers": 3, "broker_session_timeout_ms": 1000 },
      "topics": [{ "name": "t", "partitions": 2, "replication_factor": 1 }]
    }"#;
    let mut sim = Scenario::from_json(json).expect("parses").build().expect("builds");
    let only = sim.snapshot().topics[0].partitions[0].leader.expect("a leader");
    sim.apply(BrokerCommand::CrashBroker { broker: only }).expect("the broker exists");
    sim.run_to(SimTime(1500));
    let host = mount::<TopicView>(topic_props(sim.snapshot()));
    settle().await;
    let p0 = host.query_selector("#partition-0.offline").ok().flatten().expect("P0 is marked offline");
    assert_eq!(p0.get_attribute("data-leader").as_deref(), Some("none"));
    assert!(text_of(&host, "#partition-0 .psummary.offline").starts_with("offline: no leader"));
}

/// The groups panel after a member crashed and its session timeout passed: the member is
/// marked crashed with the coordinator's reason for removing it, offers a restart, and the
/// other member owns every partition in a new, stable generation.
#[wasm_bindgen_test]
async fn groups_panel_shows_a_crashed_member_removed_and_its_partitions_taken_over() {
    use kafka_sandbox_core::group::{GroupState, Phase};
    use kafka_sandbox_core::scenario::Scenario;
    use kafka_sandbox_core::SimTime;
    use kafka_sandbox_web::panels::Groups;
    use kafka_sandbox_web::timeline::GroupWatch;
    use std::rc::Rc;

    let json = r#"{
      "version": 1, "seed": 11,
      "cluster": { "brokers": 3 },
      "topics": [{ "name": "orders", "partitions": 4 }],
      "producers": [{ "name": "Producer1", "config": { "partitioner": "round_robin" },
        "send": [{ "topic": "orders", "values": ["m1","m2","m3","m4","m5","m6","m7","m8"], "start_ms": 500, "interval_ms": 200 }] }],
      "groups": [{ "id": "shop", "topics": ["orders"], "config": { "auto_offset_reset": "earliest" },
        "members": [{ "client_id": "Consumer1", "config": { "session_timeout_ms": 6000 } },
                    { "client_id": "Consumer2", "config": { "session_timeout_ms": 6000 } }] }]
    }"#;
    let mut sim = Scenario::from_json(json).expect("parses").build().expect("builds");
    let stable = |sim: &kafka_sandbox_core::Sim| {
        sim.group("shop").is_some_and(|g| g.state() == GroupState::Stable && g.members().all(|m| m.phase() == Phase::Stable))
    };
    while !stable(&sim) && sim.now() < SimTime(60_000) {
        sim.run_to(sim.now().plus_ms(100));
    }
    assert!(stable(&sim), "the group settles within a simulated minute");
    sim.apply(GroupCommand::CrashMember { group: "shop".into(), client_id: "Consumer2".into() }).expect("the member exists");
    // session.timeout.ms, then the survivor's next heartbeat and one rebalance round.
    sim.run_to(sim.now().plus_ms(6000 + 5000));
    let mut watch = GroupWatch::default();
    watch.ingest(&sim);
    let props = groups_props(sim.snapshot(), Rc::new(watch.all()));
    let host = mount::<Groups>(props);
    settle().await;

    let card = "[data-group=\"shop\"]";
    let crashed = format!("{card} [data-client=\"Consumer2\"]");
    assert_eq!(text_of(&host, &format!("{crashed} .phase")), "crashed");
    assert!(host.query_selector(&format!("{crashed}[data-phase=\"crashed\"]")).ok().flatten().is_some());
    assert_eq!(text_of(&host, &format!("{crashed} .parts")), "—");
    assert!(text_of(&host, &format!("{crashed} .member-note.removed")).ends_with("no heartbeat within session.timeout.ms"));
    assert!(host.query_selector(&format!("{crashed} button.restart-member")).ok().flatten().is_some());
    assert!(host.query_selector(&format!("{crashed} button.crash-member")).ok().flatten().is_none());
    let survivor = format!("{card} [data-client=\"Consumer1\"]");
    assert_eq!(text_of(&host, &format!("{survivor} .parts")), "P0 P1 P2 P3");
    assert_eq!(text_of(&host, &format!("{survivor} .phase")), "stable");
    assert_eq!(text_of(&host, &format!("{card} .card-head .badge")), "Stable");
    assert_eq!(text_of(&host, &format!("{card} .states .current")), "Stable");
    assert!(text_of(&host, &format!("{card} .meta")).contains("generation 2"));
    assert!(text_of(&host, &format!("{card} .coordinator")).starts_with("coordinator: broker "));
    let timeline = text_of(&host, &format!("{card} .tl"));
    assert!(timeline.contains("The coordinator removes Consumer2 from shop (no heartbeat within session.timeout.ms)"), "{timeline}");
}

/// With the only broker down, nobody coordinates the group: the card says so in red.
#[wasm_bindgen_test]
async fn groups_panel_says_when_no_coordinator_is_reachable() {
    use kafka_sandbox_core::scenario::Scenario;
    use kafka_sandbox_core::SimTime;
    use kafka_sandbox_web::panels::Groups;
    use std::rc::Rc;

    let json = r#"{
      "version": 1, "seed": 5,
      "cluster": { "brokers": 1, "offsets_topic_replication_factor": 1 },
      "topics": [{ "name": "t", "partitions": 2 }],
      "groups": [{ "id": "g", "topics": ["t"], "members": [{ "client_id": "Consumer1" }] }]
    }"#;
    let mut sim = Scenario::from_json(json).expect("parses").build().expect("builds");
    sim.run_to(SimTime(1000));
    sim.apply(BrokerCommand::CrashBroker { broker: 0 }).expect("the broker exists");
    let snap = sim.snapshot();
    assert_eq!(snap.groups[0].coordinator, None);
    let host = mount::<Groups>(groups_props(snap, Rc::default()));
    settle().await;
    let none = host.query_selector("[data-group=\"g\"] .coordinator.none").ok().flatten().expect("marked as missing");
    assert_eq!(none.text_content().unwrap_or_default(), "no coordinator");
    assert_eq!(none.get_attribute("data-coordinator").as_deref(), Some("none"));
}
