//! Push delivery (not Kafka — a teaching device) against Kafka's pull, on the same slow
//! consumer: under pull the member holds at most one poll's worth and the backlog stays
//! in the log as lag; under push its buffer grows until it is overwhelmed.

use kafka_sandbox_core::event::EventKind;
use kafka_sandbox_core::event::{GroupEvent, PushEvent};
use kafka_sandbox_core::scenario::Scenario;
use kafka_sandbox_core::{Sim, SimTime};

const RECORDS: usize = 3000;

/// One partition; the producer sends 500 records a second for 6 s; the consumer handles
/// 100 a second (`processing_ms` 10) and polls at most 10 records.
fn scenario(delivery: &str) -> Scenario {
    let values: Vec<String> = (0..RECORDS).map(|i| format!("\"v{i:04}\"")).collect();
    let text = format!(
        r#"{{
  "version": 1,
  "seed": 3,
  "cluster": {{ "brokers": 1, "offsets_topic_replication_factor": 1, "group_initial_rebalance_delay_ms": 0 }},
  "topics": [{{ "name": "t", "partitions": 1 }}],
  "producers": [{{ "name": "p", "config": {{ "linger_ms": 0 }},
                   "send": [{{ "topic": "t", "values": [{}], "start_ms": 1000, "interval_ms": 2 }}] }}],
  "groups": [{{ "id": "g", "topics": ["t"],
                "config": {{ "auto_offset_reset": "earliest", "delivery": "{delivery}", "push_buffer_max_records": 200 }},
                "members": [{{ "client_id": "c", "config": {{ "max_poll_records": 10, "processing_ms": 10 }} }}] }}]
}}"#,
        values.join(",")
    );
    Scenario::from_json(&text).expect("valid scenario")
}

/// Runs to `until_ms`, returning the largest buffer the member had after any step.
fn run_watching(sim: &mut Sim, until_ms: u64) -> usize {
    let mut most = 0;
    while sim.next_event_time().is_some_and(|t| t <= SimTime(until_ms)) {
        sim.step();
        let g = sim.group("g").expect("group");
        most = most.max(g.member("c").expect("member").buffered() as usize);
    }
    most
}

#[test]
fn pull_keeps_the_buffer_at_one_poll_and_the_backlog_in_the_log() {
    let mut sim = scenario("pull").build().expect("builds");
    let most = run_watching(&mut sim, 8_000);
    assert!(most <= 10, "under pull the member holds at most max.poll.records, held {most}");
    // Production is over at 7 s; the consumer has handled about 700 of 3000: the rest is lag
    // in the log, not in the member.
    let snap = sim.snapshot();
    let g = snap.groups.iter().find(|g| g.id == "g").expect("group");
    let position = g.members[0].positions[0].1;
    let hw = snap.topics[0].partitions[0].high_watermark;
    assert_eq!(hw, RECORDS as u64);
    assert!(hw - position > 2000, "lag {} should be most of the log", hw - position);
    assert!(g.members[0].buffered <= 10);
    // Nothing is lost: given time it processes every record exactly once.
    let most = run_watching(&mut sim, 60_000);
    assert!(most <= 10);
    let g = sim.group("g").expect("group");
    assert_eq!(g.member("c").expect("member").processed_total(), RECORDS as u64);
    assert_eq!(g.duplicates(), 0);
    assert!(!sim
        .trace()
        .events()
        .any(|e| matches!(e.kind, EventKind::Push(PushEvent::PushOverwhelmed { .. }) | EventKind::Push(PushEvent::RecordsPushed { .. }))));
}

#[test]
fn push_overwhelms_the_same_slow_consumer() {
    let mut sim = scenario("push").build().expect("builds");
    let most = run_watching(&mut sim, 7_000);
    let events: Vec<&EventKind> = sim.trace().events().map(|e| &e.kind).collect();
    let pushed = events.iter().filter(|k| matches!(k, EventKind::Push(PushEvent::RecordsPushed { .. }))).count();
    assert!(pushed > 20, "the broker pushes at every HW advance ({pushed} pushes)");
    let over = events
        .iter()
        .position(
            |k| matches!(k, EventKind::Push(PushEvent::PushOverwhelmed { client_id, buffered, limit: 200, .. }) if client_id == "c" && *buffered > 200),
        )
        .expect("the member is overwhelmed");
    assert!(matches!(events[over + 1], EventKind::Group(GroupEvent::MemberCrashed { client_id, .. }) if client_id == "c"));
    // The buffer grew far past max.poll.records (10) before the push that overwhelmed it
    // (whose step also crashed the member, so the watcher saw the buffer just before).
    assert!(most > 100, "buffer reached {most}");
    let snap = sim.snapshot();
    let g = snap.groups.iter().find(|g| g.id == "g").expect("group");
    assert_eq!(g.delivery.label(), "push (not Kafka — a teaching device)");
    assert_eq!(g.members[0].buffered, 0, "a crashed member's buffer is gone");
    assert_eq!(g.members[0].phase, kafka_sandbox_core::group::Phase::Crashed);
}

#[test]
fn push_keeps_up_when_production_is_slow() {
    // The same member under push with 50 records a second: the buffer stays small and
    // every record is processed once — push only fails when the consumer cannot keep up.
    let text = scenario("push").to_json_pretty().replace("\"interval_ms\": 2", "\"interval_ms\": 20");
    let scenario = Scenario::from_json(&text).expect("valid");
    let mut sim = scenario.build().expect("builds");
    let most = run_watching(&mut sim, 70_000);
    assert!(most <= 3, "buffer reached {most}");
    let g = sim.group("g").expect("group");
    assert_eq!(g.member("c").expect("member").processed_total(), RECORDS as u64);
    assert!(!sim.trace().events().any(|e| matches!(e.kind, EventKind::Push(PushEvent::PushOverwhelmed { .. }))));
}

#[test]
fn push_settings_are_checked() {
    let text = scenario("push").to_json_pretty().replace("\"push_buffer_max_records\": 200", "\"push_buffer_max_records\": 0");
    let e = Scenario::from_json(&text).expect_err("refused");
    assert_eq!(e.path, "groups[0]");
    assert!(e.problem.to_string().contains("push_buffer_max_records of group \"g\" is 0; allowed: 1 to 1000000"), "{e}");
    let text = scenario("push").to_json_pretty().replace("\"delivery\": \"push\"", "\"delivery\": \"shove\"");
    let e = Scenario::from_json(&text).expect_err("refused");
    assert!(e.path.starts_with("groups[0].config.delivery"), "{e}");
}
