//! The source connector: rows of a simulated table become records through the task's
//! producer; source offsets are flushed every `offset.flush.interval.ms`; a crashed task
//! resumes after the flushed offset, re-sending what it sent since (at-least-once).

use kafka_sandbox_core::event::ConnectEvent;
use kafka_sandbox_core::event::EventKind;
use kafka_sandbox_core::scenario::Scenario;
use kafka_sandbox_core::sim::connect::{QueryMode, SourceOffset};
use kafka_sandbox_core::{Sim, SimTime};

/// Table "customers" with rows 1-3; row 4 inserted at 10 s, row 2 updated at 12 s, row 5
/// inserted at 20 s; the connector polls every 5 s and flushes offsets every 60 s.
fn scenario(mode: &str, commands: &str) -> Scenario {
    Scenario::from_json(&scenario_text(mode, commands)).expect("valid scenario")
}

fn scenario_text(mode: &str, commands: &str) -> String {
    format!(
        r#"{{
  "version": 1,
  "seed": 11,
  "topics": [{{ "name": "customers", "partitions": 2, "replication_factor": 3 }}],
  "connectors": [{{
    "name": "jdbc",
    "topic": "customers",
    "mode": "{mode}",
    "table": {{
      "rows": [{{ "id": 1, "value": "ada" }}, {{ "id": 2, "value": "bob" }}, {{ "id": 3, "value": "cy" }}],
      "changes": [
        {{ "at_ms": 10000, "insert": {{ "id": 4, "value": "dee" }} }},
        {{ "at_ms": 12000, "update": {{ "id": 2, "value": "bob2" }} }},
        {{ "at_ms": 20000, "insert": {{ "id": 5, "value": "eve" }} }}
      ]
    }}
  }}],
  "commands": [{commands}],
  "duration_ms": 200000
}}"#
    )
}

/// (key, value) of every record in the topic, partition by partition, in offset order.
fn topic_records(sim: &Sim) -> Vec<(String, String)> {
    let snap = sim.snapshot();
    let t = snap.topics.iter().find(|t| t.name == "customers").expect("topic");
    let mut out: Vec<(String, String)> = Vec::new();
    for p in &t.partitions {
        out.extend(p.records.iter().map(|r| (r.key.clone().unwrap_or_default(), r.value.clone())));
    }
    out.sort();
    out
}

fn pairs(s: &[(&str, &str)]) -> Vec<(String, String)> {
    let mut v: Vec<(String, String)> = s.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
    v.sort();
    v
}

#[test]
fn incrementing_mode_sends_each_new_row_once_and_never_sees_updates() {
    let s = scenario("incrementing", "");
    let mut sim = s.build().expect("builds");
    sim.run_to(SimTime(100_000));
    assert_eq!(topic_records(&sim), pairs(&[("1", "ada"), ("2", "bob"), ("3", "cy"), ("4", "dee"), ("5", "eve")]));
    let c = sim.connector("jdbc").expect("connector");
    assert_eq!(c.spec.mode, QueryMode::Incrementing);
    assert_eq!(c.position, Some(SourceOffset { timestamp_ms: None, incrementing: 5 }));
    // The first flush at 60 s stored the offset of every acknowledged record.
    assert_eq!(c.committed, Some(SourceOffset { timestamp_ms: None, incrementing: 5 }));
    // The task's producer has Connect's overrides.
    let p = sim.producers().find(|p| p.name() == "connector-producer-jdbc-0").expect("task producer");
    assert_eq!(p.config().max_in_flight_requests_per_connection, 1);
    assert_eq!(p.config().delivery_timeout_ms, i32::MAX as u64);
    let kinds: Vec<&EventKind> = sim.trace().events().map(|e| &e.kind).collect();
    assert!(kinds.iter().any(|k| matches!(k, EventKind::Connect(ConnectEvent::TableRowChanged { id: 2, insert: false, .. }))));
    assert!(kinds.iter().any(|k| matches!(k, EventKind::Connect(ConnectEvent::SourceOffsetsFlushed { records: 5, .. }))));
}

#[test]
fn timestamp_incrementing_mode_sends_updates_too() {
    let s = scenario("timestamp+incrementing", "");
    let mut sim = s.build().expect("builds");
    sim.run_to(SimTime(100_000));
    assert_eq!(topic_records(&sim), pairs(&[("1", "ada"), ("2", "bob"), ("3", "cy"), ("4", "dee"), ("2", "bob2"), ("5", "eve")]));
    let c = sim.connector("jdbc").expect("connector");
    assert_eq!(c.committed, Some(SourceOffset { timestamp_ms: Some(20_000), incrementing: 5 }));
    // Same key, same partition: the update follows the insert in the partition.
    let snap = sim.snapshot();
    let t = &snap.topics[0];
    let bobs: Vec<&str> =
        t.partitions.iter().flat_map(|p| p.records.iter()).filter(|r| r.key.as_deref() == Some("2")).map(|r| r.value.as_str()).collect();
    assert_eq!(bobs, ["bob", "bob2"]);
}

#[test]
fn a_crash_before_the_offset_flush_resends_rows_at_least_once() {
    // Crash at 30 s (before the first flush at 60 s), restart at 35 s: no offset was
    // flushed, so the new task reads the table from the start and sends every row again.
    let commands = r#"{ "at_ms": 30000, "command": { "type": "crash_connector", "connector": "jdbc" } },
                      { "at_ms": 35000, "command": { "type": "restart_connector", "connector": "jdbc" } }"#;
    let s = scenario("incrementing", commands);
    let mut sim = s.build().expect("builds");
    sim.run_to(SimTime(34_000));
    let snap = sim.snapshot();
    let view = &snap.connectors[0];
    assert!(!view.running);
    assert_eq!(view.committed, None);
    assert!(sim
        .trace()
        .events()
        .any(|e| matches!(e.kind, EventKind::Connect(ConnectEvent::ConnectorTaskCrashed { unflushed: 5, committed: None, .. }))));
    sim.run_to(SimTime(100_000));
    // Every row twice; row 2 was updated at 12 s, so its second copy carries the new value
    // (incrementing mode still never sends an update on its own).
    let once = [("1", "ada"), ("2", "bob"), ("3", "cy"), ("4", "dee"), ("5", "eve")];
    let again = [("1", "ada"), ("2", "bob2"), ("3", "cy"), ("4", "dee"), ("5", "eve")];
    let twice: Vec<(&str, &str)> = once.iter().chain(again.iter()).copied().collect();
    assert_eq!(topic_records(&sim), pairs(&twice), "every row was sent twice");
    // The restarted task flushed at 95 s (60 s after its start).
    let c = sim.connector("jdbc").expect("connector");
    assert_eq!(c.committed, Some(SourceOffset { timestamp_ms: None, incrementing: 5 }));
    assert_eq!(c.sent_total, 10);
}

#[test]
fn a_restart_after_the_flush_resumes_without_resending() {
    let commands = r#"{ "at_ms": 70000, "command": { "type": "crash_connector", "connector": "jdbc" } },
                      { "at_ms": 75000, "command": { "type": "restart_connector", "connector": "jdbc" } }"#;
    let s = scenario("incrementing", commands);
    let mut sim = s.build().expect("builds");
    sim.run_to(SimTime(150_000));
    assert_eq!(topic_records(&sim), pairs(&[("1", "ada"), ("2", "bob"), ("3", "cy"), ("4", "dee"), ("5", "eve")]));
    let restarted = sim
        .trace()
        .events()
        .find_map(|e| match &e.kind {
            EventKind::Connect(ConnectEvent::ConnectorTaskRestarted { resume_after, .. }) => Some(*resume_after),
            _ => None,
        })
        .expect("restarted");
    assert_eq!(restarted, Some(SourceOffset { timestamp_ms: None, incrementing: 5 }));
    assert_eq!(sim.connector("jdbc").expect("connector").sent_total, 5);
}

#[test]
fn connector_errors_name_their_place() {
    let bad = |from: &str, to: &str| {
        let text = scenario_text("incrementing", "");
        assert!(text.contains(from), "{from}");
        Scenario::from_json(&text.replacen(from, to, 1)).expect_err("refused")
    };
    let e = bad("\"topic\": \"customers\"", "\"topic\": \"nope\"");
    assert_eq!((e.path.as_str(), e.problem.to_string().as_str()), ("connectors[0].topic", "there is no topic named \"nope\""));
    let e = bad("\"id\": 2, \"value\": \"bob\"", "\"id\": 1, \"value\": \"bob\"");
    assert_eq!((e.path.as_str(), e.problem.to_string().as_str()), ("connectors[0].table.rows[1].id", "id 1 is in the table twice"));
    let e = bad("\"update\": { \"id\": 2", "\"update\": { \"id\": 9");
    assert_eq!(
        (e.path.as_str(), e.problem.to_string().as_str()),
        ("connectors[0].table.changes[1].update.id", "there is no row with id 9 by then")
    );
    let e = bad("\"insert\": { \"id\": 5", "\"insert\": { \"id\": 4");
    assert_eq!(
        (e.path.as_str(), e.problem.to_string().as_str()),
        ("connectors[0].table.changes[2].insert.id", "a row with id 4 exists by then")
    );
    let e = bad("\"name\": \"jdbc\",", "\"name\": \"jdbc\", \"poll_interval_ms\": 0,");
    assert_eq!(
        (e.path.as_str(), e.problem.to_string().as_str()),
        ("connectors[0].poll_interval_ms", "is 0; allowed: 1 to 604800000 (one week)")
    );
    let e = bad("\"mode\": \"incrementing\"", "\"mode\": \"bulk\"");
    assert!(e.path.starts_with("connectors[0].mode"), "{e}");
    let e = bad("\"name\": \"jdbc\",", "\"name\": \"jdbc\", \"poll_intervall_ms\": 1,");
    assert!(e.path.starts_with("connectors[0]") && e.problem.to_string().contains("unknown field `poll_intervall_ms`"), "{e}");
    let e = bad("{ \"at_ms\": 10000, \"insert\"", "{ \"at_ms\": 10000, \"update\": { \"id\": 1, \"value\": \"x\" }, \"insert\"");
    assert_eq!(e.path, "connectors[0].table.changes[0]", "{e}");
}

#[test]
fn an_unknown_connector_in_the_timeline_is_refused() {
    let text = scenario_text("incrementing", r#"{ "at_ms": 1, "command": { "type": "crash_connector", "connector": "x" } }"#);
    let e = Scenario::from_json(&text).expect_err("refused");
    assert_eq!((e.path.as_str(), e.problem.to_string().as_str()), ("commands[0]", "there is no connector named \"x\""));
}

#[test]
fn crash_and_restart_from_outside_replay_exactly() {
    let s = scenario("timestamp+incrementing", "");
    let mut sim = s.build().expect("builds");
    sim.run_to(SimTime(26_000));
    sim.apply(kafka_sandbox_core::ConnectCommand::CrashConnector { connector: "jdbc".into() }).expect("known connector");
    sim.run_to(SimTime(40_000));
    sim.apply(kafka_sandbox_core::ConnectCommand::RestartConnector { connector: "jdbc".into() }).expect("known connector");
    sim.run_to(SimTime(80_000));
    let again = Sim::replay(s.build().expect("builds"), sim.command_log()).expect("replays");
    let mut again = again;
    again.run_to(SimTime(80_000));
    assert_eq!(again.trace().digest(), sim.trace().digest());
    assert!(sim.apply(kafka_sandbox_core::ConnectCommand::CrashConnector { connector: "nope".into() }).is_err());
}

#[test]
fn the_source_tasks_producer_is_not_idempotent_so_a_retried_write_lands_twice() {
    // Connect's worker sets `enable.idempotence=false` on a source task's producer
    // (`Worker.baseProducerConfigs`). Slow every follower past `request.timeout.ms`
    // (30 s) before the first poll: the acks=all write of each row times out and is sent
    // again, and the leader appends it a second time.
    let slow = (0..3)
        .map(|b| format!(r#"{{ "at_ms": 0, "command": {{ "type": "slow_broker", "broker": {b}, "slow_ms": 40000 }} }}"#))
        .collect::<Vec<_>>()
        .join(", ");
    let s = scenario("incrementing", &slow);
    let mut sim = s.build().expect("builds");
    let p = sim.producers().find(|p| p.name() == "connector-producer-jdbc-0").expect("task producer");
    assert!(!p.idempotent(), "Connect's source producer has enable.idempotence=false");
    sim.run_to(SimTime(150_000));
    let records = topic_records(&sim);
    let ada = records.iter().filter(|(k, v)| k == "1" && v == "ada").count();
    assert!(ada >= 2, "the retried write of row 1 is appended again: {records:?}");
    let duplicates = sim
        .trace()
        .events()
        .filter(|e| matches!(&e.kind, EventKind::Produce(kafka_sandbox_core::event::ProduceEvent::DuplicateIgnored { .. })))
        .count();
    assert_eq!(duplicates, 0, "no broker recognises the retry: there is no producer id to recognise it by");
}
