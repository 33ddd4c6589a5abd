//! The queries' tests: answers from a run, refusals of what a run lacks, and the reader
//! (every `ask` reads back what the writer wrote, with the messages serde's derive gave).

use super::connect::source_offset;
use super::*;
use crate::command::GroupCommand;
use crate::lesson::tests::two_groups;
use crate::scenario::{self, Scenario};
use crate::time::SimTime;
use serde_json::json;

fn ask(sim: &Sim, q: Value) -> Result<Value, String> {
    let q: Query = serde_json::from_value(q).unwrap();
    answer(sim, &q, 0).map_err(|m| m.to_string())
}

#[test]
fn queries_answer_from_the_simulation() {
    let sim = two_groups();
    let g1 = "ConsumerGroup01";
    let cases = [
        (json!({"ask": "now_ms"}), json!(12000)),
        (json!({"ask": "partition_of", "topic": "Topic01", "value": "m5"}), json!(0)),
        (json!({"ask": "partition_of", "topic": "Topic01", "value": "nope"}), json!(null)),
        (json!({"ask": "records", "topic": "Topic01", "partition": 2}), json!(["m3", "m7"])),
        (json!({"ask": "records", "topic": "Topic01", "partition": 3, "broker": 0}), json!(["m4"])),
        (json!({"ask": "in_log", "topic": "Topic01", "partition": 1, "value": "m6"}), json!(true)),
        (json!({"ask": "in_log", "topic": "Topic01", "partition": 1, "value": "m5"}), json!(false)),
        (json!({"ask": "received_by", "group": g1, "value": "m5"}), json!(["Consumer1"])),
        (json!({"ask": "received_by", "group": "ConsumerGroup02", "value": "m6"}), json!(["Consumer1"])),
        (json!({"ask": "received", "group": g1, "client_id": "Consumer2"}), json!(["m2", "m4", "m6"])),
        (json!({"ask": "owner", "group": g1, "topic": "Topic01", "partition": 3}), json!("Consumer2")),
        (json!({"ask": "assigned", "group": g1, "client_id": "Consumer1"}), json!([0, 2])),
        (json!({"ask": "assigned", "group": g1, "client_id": "Consumer1", "topic": "Other"}), json!([])),
        (json!({"ask": "assigned_count", "group": "ConsumerGroup02", "client_id": "Consumer1"}), json!(4)),
        (json!({"ask": "revoked", "group": g1, "client_id": "Consumer1"}), json!([])),
        (json!({"ask": "members", "group": g1}), json!(["Consumer1", "Consumer2"])),
        (json!({"ask": "group_state", "group": g1}), json!("Stable")),
        (json!({"ask": "generation", "group": g1}), json!(1)),
        (json!({"ask": "rebalances", "group": g1}), json!(1)),
        (json!({"ask": "group_leader", "group": g1}), json!("Consumer1")),
        (json!({"ask": "phase", "group": g1, "client_id": "Consumer2"}), json!("stable")),
        (json!({"ask": "position", "group": g1, "client_id": "Consumer2", "topic": "Topic01", "partition": 3}), json!(1)),
        (json!({"ask": "position", "group": g1, "client_id": "Consumer2", "topic": "Topic01", "partition": 0}), json!(null)),
        (json!({"ask": "committed", "group": g1, "topic": "Topic01", "partition": 0}), json!(2)),
        (json!({"ask": "committed", "group": g1, "topic": "Topic01", "partition": 1}), json!(null)),
        (json!({"ask": "processed_twice", "group": g1}), json!(0)),
        (json!({"ask": "duplicate_values", "group": g1}), json!([])),
        (json!({"ask": "lost_by_group", "group": g1}), json!(0)),
        (json!({"ask": "lost_values", "group": g1}), json!([])),
        (json!({"ask": "in_hand", "group": g1, "client_id": "Consumer1"}), json!([])),
        (json!({"ask": "high_watermark", "topic": "Topic01", "partition": 0}), json!(2)),
        (json!({"ask": "log_end_offset", "topic": "Topic01", "partition": 3}), json!(1)),
        (json!({"ask": "log_start_offset", "topic": "Topic01", "partition": 3}), json!(0)),
        (json!({"ask": "leader", "topic": "Topic01", "partition": 0}), json!(2)),
        (json!({"ask": "leader_epoch", "topic": "Topic01", "partition": 0}), json!(0)),
        (json!({"ask": "isr", "topic": "Topic01", "partition": 0}), json!([2, 0, 1])),
        (json!({"ask": "lost_in_election", "topic": "Topic01", "partition": 0}), json!([])),
        (json!({"ask": "acked_offset", "producer": "Producer1", "value": "m6"}), json!(1)),
        (json!({"ask": "send_error", "producer": "Producer1", "value": "m6"}), json!(null)),
        (json!({"ask": "partition_reason", "producer": "Producer1", "value": "m6"}), json!("round_robin")),
        (json!({"ask": "sent_at_ms", "producer": "Producer1", "value": "m6"}), json!(9500)),
        (json!({"ask": "timestamp_ms", "topic": "Topic01", "value": "m6"}), json!(9500)),
        (json!({"ask": "appended_at_ms", "topic": "Topic01", "value": "m6"}), json!(9605)),
        (json!({"ask": "timestamp_ms", "topic": "Topic01", "value": "m99"}), json!(null)),
        (json!({"ask": "broker_alive", "broker": 1}), json!(true)),
        (json!({"ask": "event_count", "kind": "group_stable"}), json!(2)),
        (json!({"ask": "last_event_ms", "kind": "group_stable", "mentions": ["ConsumerGroup01"]}), json!(6500)),
        (json!({"ask": "last_event_ms", "kind": "broker_crashed"}), json!(null)),
        (json!({"ask": "event_count", "kind": "record_delivered", "mentions": ["ConsumerGroup02"]}), json!(7)),
        (json!({"ask": "event_count", "kind": "record_delivered", "mentions": ["ConsumerGroup02", "m3"]}), json!(1)),
    ];
    for (q, expected) in cases {
        assert_eq!(ask(&sim, q.clone()), Ok(expected), "{q}");
    }
}

#[test]
fn queries_naming_what_does_not_exist_are_errors() {
    let sim = two_groups();
    for (q, message) in [
        (json!({"ask": "group_state", "group": "G9"}), "there is no consumer group \"G9\""),
        (json!({"ask": "received", "group": "ConsumerGroup01", "client_id": "C9"}), "group \"ConsumerGroup01\" has no member \"C9\""),
        (json!({"ask": "records", "topic": "T9", "partition": 0}), "there is no topic \"T9\""),
        (
            json!({"ask": "leader", "topic": "Topic01", "partition": 4}),
            "topic \"Topic01\" has partitions 0..3 but partition 4 was asked for",
        ),
        (json!({"ask": "records", "topic": "Topic01", "partition": 0, "broker": 7}), "broker 7 holds no replica of Topic01-0"),
        (json!({"ask": "acked_offset", "producer": "P9", "value": "m1"}), "there is no producer \"P9\""),
        (json!({"ask": "broker_alive", "broker": 3}), "there is no broker 3"),
    ] {
        assert_eq!(ask(&sim, q), Err(message.to_string()));
    }
}

#[test]
fn an_owner_is_who_holds_the_partition_now() {
    let mut sim = two_groups();
    sim.apply(GroupCommand::CrashMember { group: "ConsumerGroup01".into(), client_id: "Consumer2".into() }).unwrap();
    // A crashed member owns nothing, although the coordinator has not noticed yet.
    assert_eq!(ask(&sim, json!({"ask": "owner", "group": "ConsumerGroup01", "topic": "Topic01", "partition": 1})), Ok(json!(null)));
    assert_eq!(ask(&sim, json!({"ask": "members", "group": "ConsumerGroup01"})), Ok(json!(["Consumer1"])));
    assert_eq!(ask(&sim, json!({"ask": "phase", "group": "ConsumerGroup01", "client_id": "Consumer2"})), Ok(json!("crashed")));
}

#[test]
fn revoked_counts_only_since_the_mark() {
    let mut sim = two_groups();
    let mark = sim.trace().total();
    sim.apply(GroupCommand::AddMember { group: "ConsumerGroup01".into(), member: crate::command::MemberSpec::new("Consumer3") }).unwrap();
    sim.run_to(SimTime(30_000));
    let q = json!({"ask": "revoked", "group": "ConsumerGroup01", "client_id": "Consumer1"});
    let q: Query = serde_json::from_value(q).unwrap();
    // Eager RoundRobin: Consumer1 gave up both its partitions when Consumer3 joined.
    assert_eq!(answer(&sim, &q, mark), Ok(json!(["Topic01-0", "Topic01-2"])));
    assert_eq!(answer(&sim, &q, sim.trace().total()), Ok(json!([])));
}

#[test]
fn queries_answer_about_push_buffers_keys_connectors_and_stores() {
    // A slow push member, a source connector (timestamp+incrementing) and a Streams
    // count over the connector's topic.
    let text = r#"{
      "version": 1, "seed": 1,
      "cluster": { "brokers": 1, "offsets_topic_replication_factor": 1, "group_initial_rebalance_delay_ms": 0 },
      "topics": [{ "name": "t", "partitions": 1 }, { "name": "rows", "partitions": 1 }, { "name": "counts", "partitions": 1 }],
      "producers": [{ "name": "p", "send": [{ "topic": "t", "values": ["a", "b", "c"], "keys": ["k", "j", "k"], "start_ms": 1000, "interval_ms": 10 }] }],
      "groups": [{ "id": "g", "topics": ["t"], "config": { "auto_offset_reset": "earliest", "delivery": "push" },
                   "members": [{ "client_id": "c", "config": { "processing_ms": 10000 } }] }],
      "connectors": [{ "name": "db", "topic": "rows", "mode": "timestamp+incrementing",
                       "table": { "rows": [{ "id": 1, "value": "x" }], "changes": [{ "at_ms": 3000, "update": { "id": 1, "value": "y" } }] } }],
      "streams": [{ "application_id": "app", "source": "rows", "sink": "counts", "op": { "count_by_key": {} } }]
    }"#;
    let mut sim = Scenario::from_json(text).unwrap().build().unwrap();
    sim.run_to(SimTime(7_000));
    for (q, expected) in [
        (json!({"ask": "buffered", "group": "g", "client_id": "c"}), json!(3)),
        (json!({"ask": "values_for_key", "topic": "t", "key": "k"}), json!(["a", "c"])),
        (json!({"ask": "values_for_key", "topic": "t", "key": "z"}), json!([])),
        (json!({"ask": "connector_position", "connector": "db"}), json!([3000, 1])),
        (json!({"ask": "connector_flushed", "connector": "db"}), json!(null)),
        (json!({"ask": "connector_unflushed", "connector": "db"}), json!(1)),
        (json!({"ask": "store_count", "application_id": "app", "key": "1"}), json!(1)),
        (json!({"ask": "store_count", "application_id": "app", "key": "2"}), json!(null)),
    ] {
        assert_eq!(ask(&sim, q.clone()), Ok(expected), "{q}");
    }
    sim.run_to(SimTime(61_000));
    assert_eq!(ask(&sim, json!({"ask": "connector_flushed", "connector": "db"})), Ok(json!([3000, 1])));
    assert_eq!(ask(&sim, json!({"ask": "connector_unflushed", "connector": "db"})), Ok(json!(0)));
    assert_eq!(ask(&sim, json!({"ask": "connector_position", "connector": "x"})), Err("there is no connector \"x\"".into()));
    assert_eq!(
        ask(&sim, json!({"ask": "store_count", "application_id": "x", "key": "1"})),
        Err("there is no Streams application \"x\"".into())
    );
    assert_eq!(ask(&sim, json!({"ask": "buffered", "group": "g", "client_id": "x"})), Err("group \"g\" has no member \"x\"".into()));
    // Incrementing mode writes only the id.
    assert_eq!(source_offset(Some(crate::sim::connect::SourceOffset { timestamp_ms: None, incrementing: 4 })), json!([4]));
}

#[test]
fn queries_answer_about_a_compacted_log_and_its_tombstones() {
    // One broker, a compacted topic whose every record is a segment of its own, a cleaner
    // waking every second; b is deleted by a tombstone (offset 3), a3 stays in the active
    // segment.
    let text = r#"{
      "version": 1, "seed": 1,
      "cluster": { "brokers": 1, "offsets_topic_replication_factor": 1, "group_initial_rebalance_delay_ms": 0,
                   "log_cleaner_backoff_ms": 1000 },
      "topics": [{ "name": "t", "partitions": 1, "replication_factor": 1, "cleanup_policy": "compact",
                   "segment_bytes": 80, "delete_retention_ms": 60000 }],
      "producers": [{ "name": "p", "config": { "linger_ms": 0 },
                      "send": [{ "topic": "t", "values": ["a1", "b1", "a2"], "keys": ["a", "b", "a"], "start_ms": 100, "interval_ms": 100 },
                               { "topic": "t", "values": ["c1", "a3"], "keys": ["c", "a"], "start_ms": 500, "interval_ms": 100 }] }],
      "groups": [{ "id": "g", "topics": ["t"], "config": { "auto_offset_reset": "earliest" }, "members": [{ "client_id": "c" }] }],
      "commands": [{ "at_ms": 400, "command": { "type": "produce", "producer": "p", "topic": "t", "key": "b", "value": null } }]
    }"#;
    let mut sim = Scenario::from_json(text).unwrap().build().unwrap();
    let t = |a: &str| json!({"ask": a, "topic": "t", "partition": 0});
    sim.run_to(SimTime(900));
    // Before the first pass: every value, the tombstone as null, nothing stamped.
    for (q, expected) in [
        (t("records"), json!(["a1", "b1", "a2", null, "c1", "a3"])),
        (t("offsets"), json!([0, 1, 2, 3, 4, 5])),
        (t("latest_values"), json!(["c1", "a3"])),
        (t("active_segment"), json!(["a3"])),
        (t("cleaner_checkpoint"), json!(null)),
        (json!({"ask": "delete_horizon_ms", "topic": "t", "partition": 0, "key": "b"}), json!(null)),
        (json!({"ask": "values_for_key", "topic": "t", "key": "b"}), json!(["b1", null])),
        (json!({"ask": "received", "group": "g", "client_id": "c"}), json!(["a1", "b1", "a2", null, "c1", "a3"])),
        (json!({"ask": "received_for_key", "group": "g", "client_id": "c", "key": "b"}), json!(["b1", null])),
        (json!({"ask": "received_for_key", "group": "g", "client_id": "c", "key": "z"}), json!([])),
    ] {
        assert_eq!(ask(&sim, q.clone()), Ok(expected), "{q}");
    }
    sim.run_to(SimTime(1_500));
    // The pass at 1 s: a1 and b1 gone, offsets kept, the tombstone stamped with the pass's
    // time plus delete.retention.ms, a3 untouched in the active segment.
    for (q, expected) in [
        (t("records"), json!(["a2", null, "c1", "a3"])),
        (t("offsets"), json!([2, 3, 4, 5])),
        (json!({"ask": "offsets", "topic": "t", "partition": 0, "broker": 0}), json!([2, 3, 4, 5])),
        (t("latest_values"), json!(["c1", "a3"])),
        (t("active_segment"), json!(["a3"])),
        (t("cleaner_checkpoint"), json!(5)),
        (json!({"ask": "delete_horizon_ms", "topic": "t", "partition": 0, "key": "b"}), json!(61000)),
        (json!({"ask": "delete_horizon_ms", "topic": "t", "partition": 0, "key": "a"}), json!(null)),
        (json!({"ask": "values_for_key", "topic": "t", "key": "b"}), json!([null])),
        (json!({"ask": "in_log", "topic": "t", "partition": 0, "value": "b1"}), json!(false)),
    ] {
        assert_eq!(ask(&sim, q.clone()), Ok(expected), "{q}");
    }
    assert_eq!(
        ask(&sim, json!({"ask": "received_for_key", "group": "g", "client_id": "x", "key": "b"})),
        Err("group \"g\" has no member \"x\"".into())
    );
    // __consumer_offsets: g's partition (abs(hashCode("g")) % 50 = 3), led by the one broker,
    // holds its metadata (offset 0) and nothing committed yet (auto-commit every 5 s).
    let o = |a: &str, p: u32| json!({"ask": a, "topic": "__consumer_offsets", "partition": p});
    for (q, expected) in [
        (json!({"ask": "offsets_partition", "group": "g"}), json!(3)),
        (json!({"ask": "coordinator", "group": "g"}), json!(0)),
        (json!({"ask": "offset_commits", "group": "g", "topic": "t", "partition": 0}), json!([])),
        (o("offsets", 3), json!([0])),
    ] {
        assert_eq!(ask(&sim, q.clone()), Ok(expected), "{q}");
    }
    assert_eq!(ask(&sim, o("offsets", 4)), Err("__consumer_offsets-4 has no log".into()));
    assert_eq!(ask(&sim, o("offsets", 50)), Err("topic \"__consumer_offsets\" has partitions 0..49 but partition 50 was asked for".into()));
    assert_eq!(
        ask(&sim, json!({"ask": "records", "topic": "__consumer_offsets", "partition": 3, "broker": 7})),
        Err("broker 7 holds no replica of __consumer_offsets-3".into())
    );
    assert_eq!(ask(&sim, json!({"ask": "coordinator", "group": "x"})), Err("there is no consumer group \"x\"".into()));
    // The first auto-commit (5 s) moves g's offset to 6: one record keyed ["g","t",0] whose
    // value holds it.
    sim.run_to(SimTime(6_000));
    assert_eq!(ask(&sim, json!({"ask": "offset_commits", "group": "g", "topic": "t", "partition": 0})), Ok(json!([6])));
    assert_eq!(ask(&sim, json!({"ask": "offset_commits", "group": "g", "topic": "t", "partition": 1})), Ok(json!([])));
    assert_eq!(ask(&sim, o("offsets", 3)), Ok(json!([0, 1])));
    let commit = ask(&sim, json!({"ask": "records", "topic": "__consumer_offsets", "partition": 3, "broker": 0})).unwrap();
    assert!(commit[1].as_str().is_some_and(|v| v.starts_with(r#"{"offset":6,"#)), "{commit}");
    assert_eq!(
        ask(&sim, json!({"ask": "cleaner_checkpoint", "topic": "t", "partition": 1})),
        Err("topic \"t\" has partitions 0..0 but partition 1 was asked for".into())
    );
}

#[test]
fn queries_answer_about_transactions() {
    // The built-in transactions scenario at 11 s: pay-1..3 committed, pay-4/5 aborted,
    // pay-6 in the open transaction with audit-1 (not transactional) after it.
    let mut sim = scenario::built_in("transactions").unwrap().unwrap().build().unwrap();
    sim.run_to(SimTime(11_000));
    let t = |a: &str| json!({"ask": a, "topic": "Payments01", "partition": 0});
    let p = |a: &str, p: &str| json!({"ask": a, "producer": p});
    for (q, expected) in [
        (t("records"), json!(["pay-1", "pay-2", "pay-3", "pay-4", "pay-5", "pay-6", "audit-1"])),
        (t("markers"), json!([[3, "COMMIT"], [6, "ABORT"]])),
        (t("aborted_records"), json!(["pay-4", "pay-5"])),
        (t("last_stable_offset"), json!(7)),
        (t("high_watermark"), json!(9)),
        (p("transaction_state", "PaymentsTx"), json!("Ongoing")),
        (p("producer_txn_state", "PaymentsTx"), json!("in_transaction")),
        // Transaction version 2: every EndTxn bumps the epoch (one commit, one abort).
        (p("producer_epoch", "PaymentsTx"), json!(2)),
        (p("txn_error", "PaymentsTx"), json!(null)),
        (p("transaction_state", "AuditLog"), json!(null)),
        (p("producer_txn_state", "AuditLog"), json!(null)),
        (p("producer_epoch", "AuditLog"), json!(null)),
        (json!({"ask": "received_twice", "group": "all-readers", "client_id": "Reader2"}), json!([])),
    ] {
        assert_eq!(ask(&sim, q.clone()), Ok(expected), "{q}");
    }
    assert_eq!(ask(&sim, p("txn_error", "nobody")), Err("there is no producer \"nobody\"".into()));
}

/// One of each variant, every optional field set (so the writer writes it). A variant
/// missing here fails `every_query_variant_reads_back_what_the_writer_wrote`.
fn every_query() -> Vec<Query> {
    let s = |x: &str| x.to_string();
    let (g, c, t, v, p) = (|| s("g"), || s("c"), || s("t"), || s("v"), || s("p"));
    vec![
        Query::Run(RunQuery::NowMs),
        Query::Produce(ProduceQuery::PartitionOf { topic: t(), value: v() }),
        Query::Replication(ReplicationQuery::Records { topic: t(), partition: 1, broker: Some(2) }),
        Query::Replication(ReplicationQuery::InLog { topic: t(), partition: 1, value: v(), broker: Some(2) }),
        Query::Group(GroupQuery::ReceivedBy { group: g(), value: v() }),
        Query::Group(GroupQuery::Received { group: g(), client_id: c() }),
        Query::Group(GroupQuery::Owner { group: g(), topic: t(), partition: 1 }),
        Query::Group(GroupQuery::Assigned { group: g(), client_id: c(), topic: Some(t()) }),
        Query::Group(GroupQuery::AssignedCount { group: g(), client_id: c() }),
        Query::Group(GroupQuery::Revoked { group: g(), client_id: c() }),
        Query::Group(GroupQuery::Members { group: g() }),
        Query::Group(GroupQuery::GroupState { group: g() }),
        Query::Group(GroupQuery::Generation { group: g() }),
        Query::Group(GroupQuery::Rebalances { group: g() }),
        Query::Group(GroupQuery::GroupLeader { group: g() }),
        Query::Group(GroupQuery::Activity { group: g(), client_id: c() }),
        Query::Group(GroupQuery::Phase { group: g(), client_id: c() }),
        Query::Group(GroupQuery::Position { group: g(), client_id: c(), topic: t(), partition: 1 }),
        Query::Group(GroupQuery::Committed { group: g(), topic: t(), partition: 1 }),
        Query::Group(GroupQuery::ProcessedTwice { group: g() }),
        Query::Group(GroupQuery::DuplicateValues { group: g() }),
        Query::Group(GroupQuery::LostByGroup { group: g() }),
        Query::Group(GroupQuery::LostValues { group: g() }),
        Query::Group(GroupQuery::InHand { group: g(), client_id: c() }),
        Query::Replication(ReplicationQuery::HighWatermark { topic: t(), partition: 1, broker: Some(2) }),
        Query::Replication(ReplicationQuery::LogEndOffset { topic: t(), partition: 1, broker: Some(2) }),
        Query::Replication(ReplicationQuery::LogStartOffset { topic: t(), partition: 1, broker: Some(2) }),
        Query::Replication(ReplicationQuery::Leader { topic: t(), partition: 1 }),
        Query::Replication(ReplicationQuery::LeaderEpoch { topic: t(), partition: 1 }),
        Query::Replication(ReplicationQuery::Isr { topic: t(), partition: 1 }),
        Query::Replication(ReplicationQuery::LostInElection { topic: t(), partition: 1 }),
        Query::Produce(ProduceQuery::AckedOffset { producer: p(), value: v() }),
        Query::Produce(ProduceQuery::PartitionReason { producer: p(), value: v() }),
        Query::Produce(ProduceQuery::SentAtMs { producer: p(), value: v() }),
        Query::Produce(ProduceQuery::TimestampMs { topic: t(), value: v() }),
        Query::Produce(ProduceQuery::AppendedAtMs { topic: t(), value: v() }),
        Query::Produce(ProduceQuery::SendError { producer: p(), value: v() }),
        Query::Replication(ReplicationQuery::BrokerAlive { broker: 2 }),
        Query::Run(RunQuery::EventCount { kind: s("k"), mentions: vec![s("m")] }),
        Query::Run(RunQuery::LastEventMs { kind: s("k"), mentions: vec![s("m"), s("n")] }),
        Query::Group(GroupQuery::Buffered { group: g(), client_id: c() }),
        Query::Produce(ProduceQuery::ValuesForKey { topic: t(), key: s("k") }),
        Query::Connect(ConnectQuery::ConnectorPosition { connector: s("x") }),
        Query::Connect(ConnectQuery::ConnectorFlushed { connector: s("x") }),
        Query::Connect(ConnectQuery::ConnectorUnflushed { connector: s("x") }),
        Query::Streams(StreamsQuery::StoreCount { application_id: s("a"), key: s("k") }),
        Query::ShareGroup(ShareGroupQuery::ShareOwners { group: g(), topic: t(), partition: 1 }),
        Query::ShareGroup(ShareGroupQuery::ShareReceived { group: g(), client_id: c() }),
        Query::ShareGroup(ShareGroupQuery::ShareDeliveryCount { group: g(), value: v() }),
        Query::ShareGroup(ShareGroupQuery::ShareArchived { group: g() }),
        Query::ShareGroup(ShareGroupQuery::ShareStartOffset { group: g(), topic: t(), partition: 1 }),
        Query::Txn(TxnQuery::LastStableOffset { topic: t(), partition: 1, broker: Some(2) }),
        Query::Txn(TxnQuery::Markers { topic: t(), partition: 1, broker: Some(2) }),
        Query::Txn(TxnQuery::AbortedRecords { topic: t(), partition: 1, broker: Some(2) }),
        Query::Txn(TxnQuery::TransactionState { producer: p() }),
        Query::Txn(TxnQuery::ProducerTxnState { producer: p() }),
        Query::Txn(TxnQuery::ProducerEpoch { producer: p() }),
        Query::Txn(TxnQuery::TxnError { producer: p() }),
        Query::Txn(TxnQuery::ReceivedTwice { group: g(), client_id: c() }),
        Query::Compaction(CompactionQuery::Offsets { topic: t(), partition: 1, broker: Some(2) }),
        Query::Compaction(CompactionQuery::LatestValues { topic: t(), partition: 1, broker: Some(2) }),
        Query::Compaction(CompactionQuery::ActiveSegment { topic: t(), partition: 1, broker: Some(2) }),
        Query::Compaction(CompactionQuery::CleanerCheckpoint { topic: t(), partition: 1, broker: Some(2) }),
        Query::Compaction(CompactionQuery::DeleteHorizonMs { topic: t(), partition: 1, key: s("k"), broker: Some(2) }),
        Query::Compaction(CompactionQuery::ReceivedForKey { group: g(), client_id: c(), key: s("k") }),
        Query::Compaction(CompactionQuery::OffsetsPartition { group: g() }),
        Query::Compaction(CompactionQuery::Coordinator { group: g() }),
        Query::Compaction(CompactionQuery::OffsetCommits { group: g(), topic: t(), partition: 1 }),
    ]
}

/// The message (with its place) for a query read as a list of queries.
fn query_refusal(text: &str) -> String {
    scenario::parse_json::<Vec<Query>>(&format!("[{text}]")).unwrap_err().to_string()
}

fn read_query(text: &str) -> Query {
    scenario::parse_json::<Query>(text).unwrap()
}

#[test]
fn every_query_variant_reads_back_what_the_writer_wrote() {
    let all = every_query();
    crate::tagged::tests::check_tags(&all);
    for q in all {
        let text = scenario::write_json(&q, false);
        assert_eq!(read_query(&text), q, "{text}");
        let last = crate::tagged::tests::tag_last(&text);
        assert_eq!(read_query(&last), q, "tag last: {last}");
    }
}

/// `docs/lesson-format.md`'s table of queries lists every `ask` the reader knows (its table
/// has a row per variant, checked at compile time), and no other.
#[test]
fn the_lesson_doc_lists_every_query() {
    crate::tagged::tests::check_documented(
        "lesson-format.md",
        "| `ask` | Fields |",
        <Query as crate::tagged::Tagged>::TABLE.tags.iter().copied(),
    );
}

/// Each field left out: a required one is refused by name, a `#[serde(default)]` one
/// reads as its default (which the writer leaves out).
#[test]
fn a_query_without_a_field_is_refused_naming_it_unless_the_field_has_a_default() {
    let mut defaults = Vec::new();
    for q in every_query() {
        let text = scenario::write_json(&q, false);
        let object: serde_json::Map<String, Value> = serde_json::from_str(&text).unwrap();
        for field in object.keys().filter(|k| *k != "ask") {
            let mut less = object.clone();
            less.remove(field);
            let less = scenario::write_json(&less, false);
            match scenario::parse_json::<Query>(&less) {
                Ok(read) => {
                    let written: serde_json::Map<String, Value> = serde_json::from_str(&scenario::write_json(&read, false)).unwrap();
                    assert!(!written.contains_key(field), "{less}");
                    defaults.push(format!("{}.{field}", object["ask"].as_str().unwrap()));
                }
                Err(e) => assert!(e.to_string().contains(&format!("missing field `{field}`")), "{less}: {e}"),
            }
        }
    }
    assert_eq!(
        defaults,
        [
            "records.broker",
            "in_log.broker",
            "assigned.topic",
            "high_watermark.broker",
            "log_end_offset.broker",
            "log_start_offset.broker",
            "event_count.mentions",
            "last_event_ms.mentions",
            "last_stable_offset.broker",
            "markers.broker",
            "aborted_records.broker",
            "offsets.broker",
            "latest_values.broker",
            "active_segment.broker",
            "cleaner_checkpoint.broker",
            "delete_horizon_ms.broker"
        ]
    );
    assert_eq!(query_refusal(r#"{"ask": "owner", "group": "g", "partition": 1}"#), "[0] (line 1, column 47): missing field `topic`");
}

#[test]
fn a_field_of_another_query_is_refused_naming_it_and_what_the_variant_takes() {
    assert_eq!(
        query_refusal(r#"{"ask": "records", "topic": "t", "partition": 1, "group": "g"}"#),
        "[0].group (line 1, column 57): unknown field `group`, expected one of `topic`, `partition`, `broker`"
    );
    assert_eq!(
        query_refusal(r#"{"topic": "t", "group": "g", "partition": 1, "ask": "records"}"#),
        "[0] (line 1, column 63): unknown field `group`, expected one of `topic`, `partition`, `broker`"
    );
    assert!(query_refusal(r#"{"ask": "members", "group": "g", "grop": "g"}"#).ends_with("unknown field `grop`, expected `group`"));
    // now_ms took any key, as serde's derive let a unit variant do.
    assert_eq!(read_query(r#"{"ask": "now_ms", "group": 5, "x": []}"#), Query::Run(RunQuery::NowMs));
    assert_eq!(read_query(r#"{"group": 5, "x": [], "ask": "now_ms"}"#), Query::Run(RunQuery::NowMs));
}

#[test]
fn an_unknown_query_is_refused_listing_the_asks() {
    let e = query_refusal(r#"{"ask": "guess"}"#);
    assert!(
        e.starts_with("[0].ask (line 1, column 16): unknown variant `guess`, expected one of `now_ms`, `partition_of`, `records`, "),
        "{e}"
    );
    assert!(
        e.ends_with(", `store_count`, `share_owners`, `share_received`, `share_delivery_count`, `share_archived`, `share_start_offset`, `last_stable_offset`, `markers`, `aborted_records`, `transaction_state`, `producer_txn_state`, `producer_epoch`, `txn_error`, `received_twice`, `offsets`, `latest_values`, `active_segment`, `cleaner_checkpoint`, `delete_horizon_ms`, `received_for_key`, `offsets_partition`, `coordinator`, `offset_commits`"),
        "{e}"
    );
    assert!(query_refusal(r#"{"group": "g"}"#).ends_with("missing field `ask`"));
}

/// `topic` and `broker` are an `Option` in some queries and required in others: `null`
/// is "none" in the first and refused in the second, as with serde's derive.
#[test]
fn a_null_is_none_where_the_field_is_optional_and_refused_where_it_is_required() {
    assert_eq!(
        read_query(r#"{"ask": "assigned", "group": "g", "client_id": "c", "topic": null}"#),
        Query::Group(GroupQuery::Assigned { group: "g".into(), client_id: "c".into(), topic: None })
    );
    assert_eq!(
        read_query(r#"{"ask": "records", "topic": "t", "partition": 0, "broker": null}"#),
        Query::Replication(ReplicationQuery::Records { topic: "t".into(), partition: 0, broker: None })
    );
    assert!(query_refusal(r#"{"ask": "owner", "group": "g", "topic": null, "partition": 1}"#)
        .ends_with("invalid type: null, expected a string"));
    assert!(query_refusal(r#"{"ask": "broker_alive", "broker": null}"#)
        .ends_with("invalid type: null, expected a whole number from 0 to 4294967295"));
    assert!(query_refusal(r#"{"ask": "records", "topic": "t", "partition": "0"}"#)
        .starts_with("[0].partition (line 1, column 50): invalid type: string \"0\""));
}

/// Every query as the writer wrote it and as `describe` says it, one of each: the 46 as
/// they were when `Query` was one flat enum (nesting it per feature changed neither the
/// format nor the words), then share groups' 5, transactions' 8 and compaction's 9.
#[test]
fn every_query_is_written_and_described_as_before() {
    assert_eq!(<Query as crate::tagged::Tagged>::TABLE.tags.len(), 68);
    let expected = [
        (r#"{"ask":"now_ms"}"#, r#"the time"#),
        (r#"{"ask":"partition_of","topic":"t","value":"v"}"#, r#"the partition of t holding "v""#),
        (r#"{"ask":"records","topic":"t","partition":1,"broker":2}"#, r#"the records of t-1 on broker 2"#),
        (r#"{"ask":"in_log","topic":"t","partition":1,"value":"v","broker":2}"#, r#"whether "v" is in t-1 on broker 2"#),
        (r#"{"ask":"received_by","group":"g","value":"v"}"#, r#"who in g received "v""#),
        (r#"{"ask":"received","group":"g","client_id":"c"}"#, r#"what c of g received"#),
        (r#"{"ask":"owner","group":"g","topic":"t","partition":1}"#, r#"the owner of t-1 in g"#),
        (r#"{"ask":"assigned","group":"g","client_id":"c","topic":"t"}"#, r#"the partitions of c in g"#),
        (r#"{"ask":"assigned_count","group":"g","client_id":"c"}"#, r#"how many partitions c of g owns"#),
        (r#"{"ask":"revoked","group":"g","client_id":"c"}"#, r#"what c of g gave up since the previous step"#),
        (r#"{"ask":"members","group":"g"}"#, r#"the members of g"#),
        (r#"{"ask":"group_state","group":"g"}"#, r#"the state of g"#),
        (r#"{"ask":"generation","group":"g"}"#, r#"the generation of g"#),
        (r#"{"ask":"rebalances","group":"g"}"#, r#"the rebalances of g"#),
        (r#"{"ask":"group_leader","group":"g"}"#, r#"the leader of g"#),
        (r#"{"ask":"activity","group":"g","client_id":"c"}"#, r#"what c of g is doing"#),
        (r#"{"ask":"phase","group":"g","client_id":"c"}"#, r#"the protocol phase of c of g"#),
        (r#"{"ask":"position","group":"g","client_id":"c","topic":"t","partition":1}"#, r#"the position of c of g on t-1"#),
        (r#"{"ask":"committed","group":"g","topic":"t","partition":1}"#, r#"the committed offset of g on t-1"#),
        (r#"{"ask":"processed_twice","group":"g"}"#, r#"the records g processed twice"#),
        (r#"{"ask":"duplicate_values","group":"g"}"#, r#"the values g processed twice"#),
        (r#"{"ask":"lost_by_group","group":"g"}"#, r#"the records g committed without processing"#),
        (r#"{"ask":"lost_values","group":"g"}"#, r#"the values g committed without processing"#),
        (r#"{"ask":"in_hand","group":"g","client_id":"c"}"#, r#"the records c of g has not finished processing"#),
        (r#"{"ask":"high_watermark","topic":"t","partition":1,"broker":2}"#, r#"the high watermark of t-1 on broker 2"#),
        (r#"{"ask":"log_end_offset","topic":"t","partition":1,"broker":2}"#, r#"the log end offset of t-1 on broker 2"#),
        (r#"{"ask":"log_start_offset","topic":"t","partition":1,"broker":2}"#, r#"the log start offset of t-1 on broker 2"#),
        (r#"{"ask":"leader","topic":"t","partition":1}"#, r#"the leader of t-1"#),
        (r#"{"ask":"leader_epoch","topic":"t","partition":1}"#, r#"the leader epoch of t-1"#),
        (r#"{"ask":"isr","topic":"t","partition":1}"#, r#"the ISR of t-1"#),
        (r#"{"ask":"lost_in_election","topic":"t","partition":1}"#, r#"the records lost in elections on t-1"#),
        (r#"{"ask":"acked_offset","producer":"p","value":"v"}"#, r#"the acknowledged offset of "v" from p"#),
        (r#"{"ask":"partition_reason","producer":"p","value":"v"}"#, r#"why p chose the partition of "v""#),
        (r#"{"ask":"sent_at_ms","producer":"p","value":"v"}"#, r#"when p sent "v""#),
        (r#"{"ask":"timestamp_ms","topic":"t","value":"v"}"#, r#"the timestamp of "v" in t"#),
        (r#"{"ask":"appended_at_ms","topic":"t","value":"v"}"#, r#"when "v" was appended to t"#),
        (r#"{"ask":"send_error","producer":"p","value":"v"}"#, r#"the send error of "v" from p"#),
        (r#"{"ask":"broker_alive","broker":2}"#, r#"whether broker 2 is running"#),
        (r#"{"ask":"event_count","kind":"k","mentions":["m"]}"#, r#"the number of k events mentioning "m""#),
        (r#"{"ask":"last_event_ms","kind":"k","mentions":["m","n"]}"#, r#"the time of the last k event mentioning "m" and "n""#),
        (r#"{"ask":"buffered","group":"g","client_id":"c"}"#, r#"the records c of g holds unprocessed"#),
        (r#"{"ask":"values_for_key","topic":"t","key":"k"}"#, r#"the values with key "k" in t"#),
        (r#"{"ask":"connector_position","connector":"x"}"#, r#"the source offset of x's task"#),
        (r#"{"ask":"connector_flushed","connector":"x"}"#, r#"the flushed source offset of x"#),
        (r#"{"ask":"connector_unflushed","connector":"x"}"#, r#"the records x sent since its last offset flush"#),
        (r#"{"ask":"store_count","application_id":"a","key":"k"}"#, r#"the count of "k" in a's store"#),
        (r#"{"ask":"share_owners","group":"g","topic":"t","partition":1}"#, r#"the members of share group g sharing t-1"#),
        (r#"{"ask":"share_received","group":"g","client_id":"c"}"#, r#"what c of share group g received"#),
        (r#"{"ask":"share_delivery_count","group":"g","value":"v"}"#, r#"the delivery count of "v" in share group g"#),
        (r#"{"ask":"share_archived","group":"g"}"#, r#"the records share group g archived"#),
        (r#"{"ask":"share_start_offset","group":"g","topic":"t","partition":1}"#, r#"the SPSO of share group g on t-1"#),
        (r#"{"ask":"last_stable_offset","topic":"t","partition":1,"broker":2}"#, r#"the last stable offset of t-1 on broker 2"#),
        (r#"{"ask":"markers","topic":"t","partition":1,"broker":2}"#, r#"the transaction markers of t-1 on broker 2"#),
        (r#"{"ask":"aborted_records","topic":"t","partition":1,"broker":2}"#, r#"the aborted records of t-1 on broker 2"#),
        (r#"{"ask":"transaction_state","producer":"p"}"#, r#"the coordinator's state of p's transactional.id"#),
        (r#"{"ask":"producer_txn_state","producer":"p"}"#, r#"the transaction state of p"#),
        (r#"{"ask":"producer_epoch","producer":"p"}"#, r#"the producer epoch of p"#),
        (r#"{"ask":"txn_error","producer":"p"}"#, r#"the transaction error of p"#),
        (r#"{"ask":"received_twice","group":"g","client_id":"c"}"#, r#"the values c in g received more than once"#),
        (r#"{"ask":"offsets","topic":"t","partition":1,"broker":2}"#, r#"the offsets of the records of t-1 on broker 2"#),
        (r#"{"ask":"latest_values","topic":"t","partition":1,"broker":2}"#, r#"the latest value of every key in t-1 on broker 2"#),
        (r#"{"ask":"active_segment","topic":"t","partition":1,"broker":2}"#, r#"the active segment of t-1 on broker 2"#),
        (r#"{"ask":"cleaner_checkpoint","topic":"t","partition":1,"broker":2}"#, r#"the cleaner checkpoint of t-1 on broker 2"#),
        (
            r#"{"ask":"delete_horizon_ms","topic":"t","partition":1,"key":"k","broker":2}"#,
            r#"the delete horizon of the tombstone of "k" in t-1 on broker 2"#,
        ),
        (r#"{"ask":"received_for_key","group":"g","client_id":"c","key":"k"}"#, r#"what c of g received with key "k""#),
        (r#"{"ask":"offsets_partition","group":"g"}"#, r#"the __consumer_offsets partition of g"#),
        (r#"{"ask":"coordinator","group":"g"}"#, r#"the coordinator of g"#),
        (
            r#"{"ask":"offset_commits","group":"g","topic":"t","partition":1}"#,
            r#"the commit records of g's offset on t-1 in __consumer_offsets"#,
        ),
    ];
    let all = every_query();
    assert_eq!(all.len(), expected.len());
    for (q, (text, words)) in all.iter().zip(expected) {
        assert_eq!(scenario::write_json(q, false), text);
        assert_eq!(describe(q), words, "{text}");
    }
}
