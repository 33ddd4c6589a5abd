//! Kafka Streams: an application is a consumer group plus a producer; it processes each
//! record consume → process → produce, commits every `commit.interval.ms`, and keeps
//! `count_by_key`'s store in a changelog topic it restores from.

use kafka_sandbox_core::event::EventKind;
use kafka_sandbox_core::event::StreamsEvent;
use kafka_sandbox_core::scenario::Scenario;
use kafka_sandbox_core::{Sim, SimTime};
use std::collections::BTreeMap;

const KEYS: [&str; 5] = ["ann", "ben", "cat", "dan", "eve"];
const SENT: usize = 200;

/// Topics "in" and "out" with 3 partitions each; producer "p" sends 200 keyed records
/// ("apple-0", "box-1", …) from 1 s, one every 50 ms; one application `op`.
fn text(op: &str, instances: u32, commands: &str) -> String {
    let words = ["apple", "box", "fox", "kiwi", "taxi"];
    let values: Vec<String> = (0..SENT).map(|i| format!("\"{}-{i}\"", words[i % 5])).collect();
    let keys: Vec<String> = (0..SENT).map(|i| format!("\"{}\"", KEYS[(i * 7 / 3) % 5])).collect();
    format!(
        r#"{{
  "version": 1,
  "seed": 21,
  "cluster": {{ "brokers": 3 }},
  "topics": [{{ "name": "in", "partitions": 3, "replication_factor": 3 }}, {{ "name": "out", "partitions": 3, "replication_factor": 3 }}],
  "producers": [{{ "name": "p", "send": [{{ "topic": "in", "values": [{}], "keys": [{}], "start_ms": 1000, "interval_ms": 50 }}] }}],
  "streams": [{{ "application_id": "app", "source": "in", "sink": "out", "op": {op}, "instances": {instances} }}],
  "commands": [{commands}],
  "duration_ms": 200000
}}"#,
        values.join(","),
        keys.join(",")
    )
}

fn run(op: &str, instances: u32, commands: &str, until_ms: u64) -> Sim {
    let scenario = Scenario::from_json(&text(op, instances, commands)).expect("valid scenario");
    let mut sim = scenario.build().expect("builds");
    sim.run_to(SimTime(until_ms));
    sim
}

/// Per partition of `topic`, the (key, value) of its records in offset order.
fn partitions(sim: &Sim, topic: &str) -> Vec<Vec<(String, String)>> {
    let snap = sim.snapshot();
    let t = snap.topics.iter().find(|t| t.name == topic).expect("topic");
    t.partitions.iter().map(|p| p.records.iter().map(|r| (r.key.clone().unwrap_or_default(), r.value.clone())).collect()).collect()
}

#[test]
fn filter_output_is_the_matching_input_per_partition_in_order() {
    let sim = run(r#"{ "filter": { "value_contains": "x" } }"#, 1, "", 60_000);
    let input = partitions(&sim, "in");
    let output = partitions(&sim, "out");
    assert_eq!(input.iter().map(Vec::len).sum::<usize>(), SENT);
    for (p, (i, o)) in input.iter().zip(&output).enumerate() {
        let expected: Vec<(String, String)> = i.iter().filter(|(_, v)| v.contains('x')).cloned().collect();
        assert_eq!(o, &expected, "partition {p}");
    }
    assert_eq!(output.iter().map(Vec::len).sum::<usize>(), SENT * 3 / 5, "box, fox and taxi pass");
    let app = sim.streams_app("app").expect("app");
    assert_eq!(app.processed_total, SENT as u64);
    // The application is a consumer group named by its application.id, with Streams'
    // consumer overrides.
    let g = sim.group("app").expect("group");
    let m = g.member("app-1").expect("instance");
    assert_eq!(m.config().max_poll_records, 1000);
    assert_eq!(m.config().auto_commit_interval_ms, 30_000);
    assert_eq!(sim.producers().find(|p| p.name() == "app-producer").expect("producer").config().linger_ms, 100);
}

#[test]
fn map_upper_output_is_the_transformed_input_per_partition_in_order() {
    let sim = run(r#"{ "map_upper": {} }"#, 2, "", 60_000);
    let input = partitions(&sim, "in");
    let output = partitions(&sim, "out");
    for (p, (i, o)) in input.iter().zip(&output).enumerate() {
        let expected: Vec<(String, String)> = i.iter().map(|(k, v)| (k.clone(), v.to_uppercase())).collect();
        assert_eq!(o, &expected, "partition {p}");
    }
    assert!(sim
        .trace()
        .events()
        .any(|e| matches!(&e.kind, EventKind::Streams(StreamsEvent::StreamsRecordProcessed { client_id, .. }) if client_id == "app-2")));
}

#[test]
fn count_by_key_emits_each_keys_running_count_and_writes_its_changelog() {
    let sim = run(r#"{ "count_by_key": {} }"#, 1, "", 60_000);
    let output: Vec<(String, String)> = partitions(&sim, "out").concat();
    let mut per_key: BTreeMap<String, Vec<u64>> = BTreeMap::new();
    for (k, v) in &output {
        per_key.entry(k.clone()).or_default().push(v.parse().expect("a count"));
    }
    let mut sent: BTreeMap<String, u64> = BTreeMap::new();
    for i in 0..SENT {
        *sent.entry(KEYS[(i * 7 / 3) % 5].to_string()).or_default() += 1;
    }
    for (k, n) in &sent {
        assert_eq!(per_key[k], (1..=*n).collect::<Vec<u64>>(), "key {k}: one update per record, counting up");
    }
    // The store holds the final counts, and the changelog the same updates, each in the
    // changelog partition of its task.
    let app = sim.streams_app("app").expect("app");
    let input = partitions(&sim, "in");
    let changelog = partitions(&sim, "app-counts-changelog");
    for (p, records) in input.iter().enumerate() {
        for (k, _) in records {
            assert_eq!(app.count(p as u32, k), Some(sent[k]), "store of task {p}, key {k}");
        }
        let expected: Vec<&String> = records.iter().map(|(k, _)| k).collect();
        let got: Vec<&String> = changelog[p].iter().map(|(k, _)| k).collect();
        assert_eq!(got, expected, "changelog partition {p}");
    }
    let snap = sim.snapshot();
    assert_eq!(snap.streams[0].changelog.as_deref(), Some("app-counts-changelog"));
    // Streams creates a key-value store's changelog compacted (issue 19): the newest count
    // per key is what a restore needs.
    let config = sim.topic("app-counts-changelog").expect("changelog").config().cleanup_policy;
    assert_eq!(config, kafka_sandbox_core::config::CleanupPolicy::Compact);
}

#[test]
fn a_crash_before_the_commit_processes_records_again_at_least_once() {
    // app-1 crashes at 6 s, before its first commit (30 s after it started): nothing was
    // committed, so its restart reads "in" from the start again.
    let commands = r#"{ "at_ms": 6000, "command": { "type": "crash_member", "group": "app", "client_id": "app-1" } },
                      { "at_ms": 8000, "command": { "type": "restart_member", "group": "app", "client_id": "app-1" } }"#;
    let sim = run(r#"{ "map_upper": {} }"#, 1, commands, 150_000);
    let input = partitions(&sim, "in");
    let output = partitions(&sim, "out");
    let total: usize = output.iter().map(Vec::len).sum();
    assert!(total > SENT, "the records processed before the crash come out twice ({total} for {SENT})");
    for (p, (i, o)) in input.iter().zip(&output).enumerate() {
        // Nothing is lost; the duplicates are a prefix processed again.
        let expected: Vec<(String, String)> = i.iter().map(|(k, v)| (k.clone(), v.to_uppercase())).collect();
        let again = o.len() - expected.len();
        assert_eq!(&o[again..], &expected[..], "partition {p}: after the duplicates, everything in order");
        assert_eq!(&o[..again], &expected[..again], "partition {p}: the duplicates are the first records again");
    }
    assert!(sim.group("app").expect("group").duplicates() > 0);
}

#[test]
fn a_restarted_count_restores_from_the_changelog_and_counts_the_reprocessed_records_twice() {
    let commands = r#"{ "at_ms": 6000, "command": { "type": "crash_member", "group": "app", "client_id": "app-1" } },
                      { "at_ms": 8000, "command": { "type": "restart_member", "group": "app", "client_id": "app-1" } }"#;
    let sim = run(r#"{ "count_by_key": { "store": "totals" } }"#, 1, commands, 150_000);
    let restored: Vec<(u32, u32)> = sim
        .trace()
        .events()
        .filter_map(|e| match &e.kind {
            EventKind::Streams(StreamsEvent::StateStoreRestored { store, partition, keys, .. }) if store == "totals" => {
                Some((*partition, *keys))
            }
            _ => None,
        })
        .collect();
    // Each task restored once at the start (empty changelog) and once after the restart.
    assert_eq!(restored.iter().filter(|(_, keys)| *keys == 0).count(), 3);
    assert!(restored.iter().any(|(_, keys)| *keys > 0), "{restored:?}");
    // At-least-once: the records processed before the crash were counted, written to the
    // changelog, restored, and counted again.
    let app = sim.streams_app("app").expect("app");
    let input = partitions(&sim, "in");
    let mut over = 0;
    for (p, records) in input.iter().enumerate() {
        let mut sent: BTreeMap<&str, u64> = BTreeMap::new();
        for (k, _) in records {
            *sent.entry(k.as_str()).or_default() += 1;
        }
        for (k, n) in sent {
            let counted = app.count(p as u32, k).expect("counted");
            assert!(counted >= n, "never fewer than sent");
            over += counted - n;
        }
    }
    assert!(over > 0, "reprocessed records are counted twice");
}

#[test]
fn another_instance_takes_over_a_crashed_ones_tasks_with_their_stores() {
    // Two instances form generation 1 at about 6 s (each joiner re-arms the initial
    // rebalance delay); app-1 crashes at 12 s and app-2 gets its tasks after its session
    // times out (45 s).
    let commands = r#"{ "at_ms": 12000, "command": { "type": "crash_member", "group": "app", "client_id": "app-1" } }"#;
    let sim = run(r#"{ "count_by_key": {} }"#, 2, commands, 150_000);
    let app = sim.streams_app("app").expect("app");
    let view = app.view();
    assert!(view.stores.iter().all(|s| s.instance.as_deref() == Some("app-2")), "{:?}", view.stores);
    assert!(sim
        .trace()
        .events()
        .any(|e| matches!(&e.kind, EventKind::Streams(StreamsEvent::StateStoreRestored { client_id, keys, .. }) if client_id == "app-2" && *keys > 0)));
}

#[test]
fn streams_errors_name_their_place() {
    let bad = |from: &str, to: &str| {
        let t = text(r#"{ "map_upper": {} }"#, 1, "");
        assert!(t.contains(from), "{from}");
        Scenario::from_json(&t.replacen(from, to, 1)).expect_err("refused")
    };
    let e = bad("\"sink\": \"out\"", "\"sink\": \"nope\"");
    assert_eq!(
        (e.path.as_str(), e.problem.to_string().as_str()),
        ("streams[0].sink", "there is no topic named \"nope\" (Streams needs its topics to exist)")
    );
    let e = bad("\"instances\": 1", "\"instances\": 9");
    assert_eq!((e.path.as_str(), e.problem.to_string().as_str()), ("streams[0].instances", "is 9; allowed: 1 to 8"));
    let e = bad("{ \"map_upper\": {} }", "{ \"reduce\": {} }");
    assert!(e.path.starts_with("streams[0].op"), "{e}");
    let e = bad("\"instances\": 1", "\"instances\": 1, \"commit_interval_ms\": 0");
    assert_eq!(e.path, "streams[0].commit_interval_ms");
    let e = bad("\"instances\": 1", "\"instances\": 1, \"guarantee\": \"exactly_once_v2\"");
    assert!(e.problem.to_string().contains("unknown field `guarantee`"), "{e}");
    let e = bad("\"commands\": []", r#""groups": [{ "id": "app", "topics": ["in"] }], "commands": []"#);
    assert_eq!(e.path, "streams[0].application_id", "{e}");
    // A timeline command can name an instance.
    let t =
        text(r#"{ "map_upper": {} }"#, 1, r#"{ "at_ms": 1, "command": { "type": "crash_member", "group": "app", "client_id": "app-2" } }"#);
    let e = Scenario::from_json(&t).expect_err("refused");
    assert_eq!(
        (e.path.as_str(), e.problem.to_string().as_str()),
        ("commands[0]", "group \"app\" has no member with client id \"app-2\" by then")
    );
}

#[test]
fn push_connectors_and_streams_survive_writing_out_and_run_the_same() {
    // One scenario with all three: written out (as the page saves and shares it) and read
    // back, it is the same scenario and gives the same trace.
    let t = text(r#"{ "count_by_key": {} }"#, 2, "").replace(
        "\"commands\": []",
        r#""groups": [{ "id": "g", "topics": ["out"], "config": { "delivery": "push", "push_buffer_max_records": 5 },
                        "members": [{ "client_id": "c" }] }],
           "connectors": [{ "name": "db", "topic": "in", "mode": "timestamp+incrementing",
                            "table": { "rows": [{ "id": 1, "value": "x" }], "changes": [{ "at_ms": 3000, "update": { "id": 1, "value": "y" } }] } }],
           "commands": []"#,
    );
    let scenario = Scenario::from_json(&t).expect("valid");
    let again = Scenario::from_json(&scenario.to_json_pretty()).expect("reads back");
    assert_eq!(again, scenario);
    let digest = |s: &Scenario| {
        let mut sim = s.build().expect("builds");
        sim.run_to(SimTime(60_000));
        (sim.trace().digest(), sim.trace().total())
    };
    assert_eq!(digest(&again), digest(&scenario));
    let mut sim = scenario.build().expect("builds");
    sim.run_to(SimTime(60_000));
    let kinds: Vec<&'static str> = sim.trace().events().map(|e| e.kind.name()).collect();
    for k in ["RecordsPushed", "PushOverwhelmed", "SourceRecordsPolled", "TableRowChanged", "StreamsRecordProcessed", "StateStoreRestored"]
    {
        assert!(kinds.contains(&k), "{k}");
    }
}
