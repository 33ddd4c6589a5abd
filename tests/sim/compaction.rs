//! Log compaction, scenario by scenario (issue 19): `cleanup.policy=compact` keeps the
//! newest record of every key and every offset; the active segment and everything from
//! the last stable offset on stay as written; a tombstone deletes its key and goes itself
//! after `delete.retention.ms`, on a later pass; each broker's cleaner cleans its own
//! replica; `compact,delete` deletes by retention too; a compacted topic refuses keyless
//! records.

use kafka_sandbox_core::command::{BrokerCommand, GroupCommand, GroupSpec, MemberSpec, ProduceCommand};
use kafka_sandbox_core::config::{Acks, CleanupPolicy, ClusterConfig, ConsumerConfig, GroupConfig, OffsetReset, ProducerConfig};
use kafka_sandbox_core::event::{CompactionEvent, EventKind, ProduceError, ProduceEvent};
use kafka_sandbox_core::read::LogRead;
use kafka_sandbox_core::scenario::{ProducerSpec, Scenario, TopicSpec};
use kafka_sandbox_core::{Sim, SimTime, TopicPartition};
use proptest::prelude::*;

/// Every test record is a batch of its own (linger 0, one send at a time): 61 bytes of
/// header and a 12-byte `DefaultRecord` for a one-letter key and two-character value,
/// so a 150-byte segment holds two.
struct Setup {
    policy: CleanupPolicy,
    segment_bytes: u32,
    delete_retention_ms: u64,
    min_compaction_lag_ms: u64,
    retention_ms: i64,
}

impl Default for Setup {
    fn default() -> Self {
        Self {
            policy: CleanupPolicy::Compact,
            segment_bytes: 150,
            delete_retention_ms: 86_400_000,
            min_compaction_lag_ms: 0,
            retention_ms: 604_800_000,
        }
    }
}

/// Three brokers whose cleaners wake every second, topic "t" (one partition, three
/// replicas), producer "p".
fn build(s: Setup) -> Sim {
    let scenario = Scenario {
        seed: 11,
        cluster: ClusterConfig {
            brokers: 3,
            network_latency_ms: 10,
            log_cleaner_backoff_ms: 1_000,
            log_retention_check_interval_ms: 1_000,
            ..ClusterConfig::default()
        },
        topics: vec![TopicSpec {
            name: "t".into(),
            partitions: 1,
            replication_factor: 3,
            segment_bytes: s.segment_bytes,
            cleanup_policy: s.policy,
            delete_retention_ms: s.delete_retention_ms,
            min_compaction_lag_ms: s.min_compaction_lag_ms,
            retention_ms: s.retention_ms,
            ..TopicSpec::default()
        }],
        producers: vec![ProducerSpec {
            name: "p".into(),
            config: ProducerConfig { acks: Acks::All, linger_ms: 0, ..ProducerConfig::default() },
            ..ProducerSpec::default()
        }],
        ..Scenario::default()
    };
    scenario.build().expect("test scenario builds")
}

/// Sends `key`=`value` (`None`: a tombstone) and lets 100 ms pass, enough for acks=all.
fn put(sim: &mut Sim, key: Option<&str>, value: Option<&str>) {
    sim.apply(ProduceCommand::Produce {
        producer: "p".into(),
        topic: "t".into(),
        key: key.map(str::to_string),
        value: value.map(str::to_string),
        partition: None,
        headers: vec![],
    })
    .expect("produce");
    let until = sim.now().plus_ms(100);
    sim.run_to(until);
}

fn logs(sim: &Sim) -> Vec<(u32, LogRead<'_>)> {
    let p = sim.partition(&TopicPartition::new("t", 0)).expect("partition");
    p.replica_logs().map(|r| (r.broker, r.log())).collect()
}

/// (offset, key, value or None for a tombstone) of one log.
fn contents(log: LogRead<'_>) -> Vec<(u64, String, Option<String>)> {
    log.records()
        .iter()
        .map(|r| (r.offset, r.record.key.as_deref().unwrap_or_default().to_string(), r.record.value().map(str::to_string)))
        .collect()
}

fn cleaned(sim: &Sim) -> Vec<(u32, Vec<u64>)> {
    sim.trace()
        .events()
        .filter_map(|e| match &e.kind {
            EventKind::Compaction(CompactionEvent::LogCleaned { broker, removed, .. }) => {
                Some((*broker, removed.iter().map(|r| r.0).collect()))
            }
            _ => None,
        })
        .collect()
}

fn run_to(sim: &mut Sim, ms: u64) {
    sim.run_to(SimTime(ms));
}

#[test]
fn compaction_keeps_the_newest_record_per_key_and_keeps_offsets() {
    let mut sim = build(Setup::default());
    for (k, v) in [("a", "a1"), ("b", "b1"), ("a", "a2"), ("c", "c1"), ("b", "b2"), ("a", "a3"), ("d", "d1")] {
        put(&mut sim, Some(k), Some(v));
    }
    let before: Vec<(u64, String, Option<String>)> = contents(logs(&sim)[0].1);
    assert_eq!(before.len(), 7, "nothing cleaned yet: every value is there");
    run_to(&mut sim, 5_000);
    for (broker, log) in logs(&sim) {
        let after = contents(log);
        // The newest of a, b, c is kept at its own offset; the older values are gone;
        // d (in the active segment) is untouched.
        assert_eq!(
            after,
            vec![
                (3, "c".into(), Some("c1".into())),
                (4, "b".into(), Some("b2".into())),
                (5, "a".into(), Some("a3".into())),
                (6, "d".into(), Some("d1".into())),
            ],
            "broker {broker}"
        );
        for r in &after {
            assert!(before.contains(r), "{r:?} kept its offset");
        }
        assert_eq!((log.log_start_offset(), log.log_end_offset()), (0, 7), "the ends do not move");
    }
    // Each broker's cleaner cleaned its own replica, once.
    let mut by_broker: Vec<u32> = cleaned(&sim).iter().map(|(b, _)| *b).collect();
    by_broker.sort_unstable();
    assert_eq!(by_broker, vec![0, 1, 2]);
    assert!(cleaned(&sim).iter().all(|(_, removed)| removed.len() == 3));
}

#[test]
fn the_active_segment_is_never_compacted() {
    // One big segment: every value of k stays, however long the cleaner runs.
    let mut sim = build(Setup { segment_bytes: 1 << 20, ..Setup::default() });
    for v in ["v1", "v2", "v3", "v4"] {
        put(&mut sim, Some("k"), Some(v));
    }
    run_to(&mut sim, 60_000);
    assert!(cleaned(&sim).is_empty());
    for (_, log) in logs(&sim) {
        assert_eq!(log.records().len(), 4);
        assert_eq!(log.segments().len(), 1);
    }
}

#[test]
fn a_tombstone_deletes_its_key_and_is_removed_after_delete_retention_ms() {
    let mut sim = build(Setup { delete_retention_ms: 10_000, ..Setup::default() });
    put(&mut sim, Some("a"), Some("a1"));
    put(&mut sim, Some("b"), Some("b1"));
    put(&mut sim, Some("a"), None); // the tombstone, offset 2
    put(&mut sim, Some("c"), Some("c1"));
    put(&mut sim, Some("d"), Some("d1")); // rolls the tombstone's segment out of the active one
    put(&mut sim, Some("e"), Some("e1"));
    run_to(&mut sim, 2_000);
    // The first pass removes a's value and keeps the tombstone, stamped with a horizon.
    let leader = sim.partition(&TopicPartition::new("t", 0)).and_then(|p| p.log()).expect("log");
    assert!(leader.record(0).is_none(), "a=a1 is gone");
    let tombstone = leader.record(2).expect("the tombstone stays for now");
    assert!(tombstone.record.value().is_none());
    let horizon = tombstone.delete_horizon.expect("stamped on its first pass");
    assert!(horizon.ms() >= 10_000 && horizon.ms() <= 12_000, "{horizon:?}");
    // Nothing dirty is left: the cleaner does not pass over the log again on its own…
    run_to(&mut sim, 20_000);
    assert!(sim.partition(&TopicPartition::new("t", 0)).and_then(|p| p.log()).is_some_and(|l| l.record(2).is_some()));
    // …until enough new writes make it dirty again: that pass, after the horizon, removes
    // the tombstone.
    for (k, v) in [("f", "f1"), ("b", "b2"), ("c", "c2"), ("e", "e2"), ("f", "f2"), ("g", "g1")] {
        put(&mut sim, Some(k), Some(v));
    }
    run_to(&mut sim, 25_000);
    for (broker, log) in logs(&sim) {
        assert!(log.record(2).is_none(), "broker {broker}: the tombstone is gone after delete.retention.ms");
        assert!(!contents(log).iter().any(|(_, k, _)| k == "a"), "broker {broker}: a is deleted");
    }
    let tombstones: u32 = sim
        .trace()
        .events()
        .filter_map(|e| match &e.kind {
            EventKind::Compaction(CompactionEvent::LogCleaned { tombstones_removed, .. }) => Some(*tombstones_removed),
            _ => None,
        })
        .sum();
    assert_eq!(tombstones, 3, "one on each replica");
}

#[test]
fn a_crashed_brokers_replica_is_cleaned_only_after_it_restarts() {
    let mut sim = build(Setup::default());
    sim.apply(BrokerCommand::CrashBroker { broker: 2 }).expect("crash");
    for (k, v) in [("a", "a1"), ("a", "a2"), ("a", "a3"), ("b", "b1"), ("b", "b2")] {
        put(&mut sim, Some(k), Some(v));
    }
    run_to(&mut sim, 20_000);
    assert!(cleaned(&sim).iter().all(|(b, _)| *b != 2), "{:?}", cleaned(&sim));
    sim.apply(BrokerCommand::RestartBroker { broker: 2 }).expect("restart");
    run_to(&mut sim, 40_000);
    // Broker 2 caught up from the leader's compacted log (gaps and all) and cleans its own copy.
    let contents: Vec<Vec<(u64, String, Option<String>)>> = logs(&sim).into_iter().map(|(_, l)| contents(l)).collect();
    assert_eq!(contents[0].iter().map(|r| r.0).collect::<Vec<_>>(), vec![2, 3, 4]);
    assert!(contents.iter().all(|c| c == &contents[0]), "{contents:?}");
}

#[test]
fn min_compaction_lag_ms_keeps_young_records_uncompacted() {
    let mut sim = build(Setup { min_compaction_lag_ms: 30_000, ..Setup::default() });
    for (k, v) in [("a", "a1"), ("a", "a2"), ("a", "a3"), ("b", "b1"), ("b", "b2")] {
        put(&mut sim, Some(k), Some(v));
    }
    run_to(&mut sim, 20_000);
    assert!(cleaned(&sim).is_empty(), "every segment holds a record younger than 30 s");
    run_to(&mut sim, 40_000);
    assert!(!cleaned(&sim).is_empty());
}

#[test]
fn compact_delete_also_deletes_segments_past_retention_ms() {
    let mut sim = build(Setup { policy: CleanupPolicy::CompactDelete, retention_ms: 5_000, ..Setup::default() });
    for (k, v) in [("a", "a1"), ("b", "b1"), ("c", "c1"), ("d", "d1"), ("e", "e1")] {
        put(&mut sim, Some(k), Some(v));
    }
    run_to(&mut sim, 10_000);
    for (broker, log) in logs(&sim) {
        // Distinct keys: nothing to compact, but every segment was older than 5 s — the
        // active one too, which the log rolls first (as under `delete`).
        assert_eq!((log.log_start_offset(), log.log_end_offset()), (5, 5), "broker {broker}");
        assert!(log.records().is_empty());
    }
    // Under `compact` alone the same records would all stay.
    let mut kept = build(Setup { retention_ms: 5_000, ..Setup::default() });
    for (k, v) in [("a", "a1"), ("b", "b1"), ("c", "c1"), ("d", "d1"), ("e", "e1")] {
        put(&mut kept, Some(k), Some(v));
    }
    run_to(&mut kept, 10_000);
    assert!(logs(&kept).iter().all(|(_, l)| l.records().len() == 5));
}

#[test]
fn a_compacted_topic_refuses_a_record_without_a_key_with_invalid_record() {
    let mut sim = build(Setup::default());
    put(&mut sim, None, Some("x"));
    let failed = sim.trace().events().find_map(|e| match &e.kind {
        EventKind::Produce(ProduceEvent::ProduceFailed { error, retrying, .. }) => Some((*error, *retrying)),
        _ => None,
    });
    assert_eq!(failed, Some((ProduceError::InvalidRecord, false)), "refused, not retried");
    assert!(logs(&sim).iter().all(|(_, l)| l.records().is_empty()));
    // A keyed record goes in.
    put(&mut sim, Some("k"), Some("y"));
    assert!(logs(&sim).iter().all(|(_, l)| l.records().len() == 1));
}

fn add_group(sim: &mut Sim, id: &str, max_poll_records: u32, processing_ms: u64) {
    let group = GroupSpec {
        id: id.into(),
        topics: vec!["t".into()],
        config: GroupConfig { auto_offset_reset: OffsetReset::Earliest, ..GroupConfig::default() },
        members: vec![MemberSpec {
            config: ConsumerConfig { max_poll_records, processing_ms, ..ConsumerConfig::default() },
            ..MemberSpec::new("c")
        }],
        ..GroupSpec::default()
    };
    sim.apply(GroupCommand::AddGroup { group }).expect("add group");
}

/// (offset, key, value or None for a tombstone) of what `group`'s member "c" received.
fn received(sim: &Sim, group: &str) -> Vec<(u64, String, Option<String>)> {
    sim.group(group)
        .and_then(|g| g.member("c"))
        .map(|m| {
            m.received()
                .map(|d| (d.offset, d.key.as_deref().unwrap_or_default().to_string(), (!d.tombstone).then(|| d.value.to_string())))
                .collect()
        })
        .unwrap_or_default()
}

#[test]
fn a_new_consumer_of_a_compacted_topic_reads_the_newest_value_per_key_in_the_cleaned_part_and_every_value_in_the_dirty_part() {
    let mut sim = build(Setup::default());
    for (k, v) in [("a", "a1"), ("b", "b1"), ("a", "a2"), ("c", "c1"), ("b", "b2"), ("a", "a3"), ("d", "d1")] {
        put(&mut sim, Some(k), Some(v));
    }
    run_to(&mut sim, 5_000);
    assert_eq!(cleaned(&sim).len(), 3, "one pass per replica over [0, 6)");
    // Two more values of a after the pass: the dirty part, not yet dirty enough to clean.
    put(&mut sim, Some("a"), Some("a4"));
    put(&mut sim, Some("a"), Some("a5"));
    add_group(&mut sim, "g", 500, 0);
    run_to(&mut sim, 15_000);
    assert_eq!(cleaned(&sim).len(), 3, "no second pass: {:?}", cleaned(&sim));
    let got = received(&sim, "g");
    assert_eq!(
        got,
        vec![
            (3, "c".into(), Some("c1".into())),
            (4, "b".into(), Some("b2".into())),
            (5, "a".into(), Some("a3".into())),
            (6, "d".into(), Some("d1".into())),
            (7, "a".into(), Some("a4".into())),
            (8, "a".into(), Some("a5".into())),
        ],
        "the newest per key below the cleaner's checkpoint (6), every value above it"
    );
    // Its position skipped the gaps and reached the log end; so did its commit.
    let group = sim.group("g").expect("group");
    assert_eq!(group.member("c").and_then(|m| m.position("t", 0)), Some(9));
    assert_eq!(group.committed(&TopicPartition::new("t", 0)), Some(9));
    // The offsets the cleaner removed held nothing to process: none is counted as
    // committed past unprocessed.
    assert_eq!(group.unprocessed(), 0, "{:?}", group.unprocessed_details(10));
}

#[test]
fn a_consumer_that_falls_behind_a_compacted_topic_misses_older_values_but_never_the_newest() {
    let mut sim = build(Setup::default());
    put(&mut sim, Some("a"), Some("a1"));
    put(&mut sim, Some("b"), Some("b1"));
    // One record per poll, ten seconds each: it reads a1, then falls behind.
    add_group(&mut sim, "slow", 1, 10_000);
    run_to(&mut sim, 5_000);
    assert_eq!(received(&sim, "slow"), vec![(0, "a".into(), Some("a1".into()))]);
    for (k, v) in [("a", "a2"), ("c", "c1"), ("b", "b2"), ("a", "a3"), ("d", "d1")] {
        put(&mut sim, Some(k), Some(v));
    }
    run_to(&mut sim, 120_000);
    assert!(!cleaned(&sim).is_empty());
    let got = received(&sim, "slow");
    let offsets: Vec<u64> = got.iter().map(|r| r.0).collect();
    assert_eq!(offsets, vec![0, 3, 4, 5, 6], "b1 (1) and a2 (2) were cleaned before it got there");
    // The newest value of every key reached it.
    for (key, newest) in [("a", "a3"), ("b", "b2"), ("c", "c1"), ("d", "d1")] {
        let last = got.iter().rev().find(|r| r.1 == key).and_then(|r| r.2.clone());
        assert_eq!(last.as_deref(), Some(newest), "key {key}");
    }
}

#[test]
fn a_consumer_reads_a_tombstone_as_a_null_value_until_the_cleaner_removes_it() {
    let mut sim = build(Setup::default());
    put(&mut sim, Some("a"), Some("a1"));
    put(&mut sim, Some("a"), None);
    add_group(&mut sim, "g", 500, 0);
    run_to(&mut sim, 10_000);
    assert_eq!(received(&sim, "g"), vec![(0, "a".into(), Some("a1".into())), (1, "a".into(), None)]);
}

/// One write of the random workloads: a key of five, a value or (rarely) a tombstone.
fn write() -> impl Strategy<Value = (u8, bool)> {
    (0..5u8, proptest::bool::weighted(0.15))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    /// Over random keyed workloads, on every replica after the cleaner's passes: each
    /// record left is the one written at its offset; a record is gone only when a newer
    /// record of its key exists (or it is a tombstone, after `delete.retention.ms`), so
    /// each key's newest value is present and nothing newer than it was dropped.
    #[test]
    fn after_compaction_each_keys_newest_value_is_present_and_nothing_newer_was_dropped(
        writes in proptest::collection::vec(write(), 1..60),
        segment_bytes in prop_oneof![Just(150u32), Just(300), Just(600)],
        delete_retention_ms in prop_oneof![Just(0u64), Just(2_000), Just(86_400_000)],
        min_compaction_lag_ms in prop_oneof![Just(0u64), Just(1_500)],
        settle_ms in 0..30_000u64,
    ) {
        let mut sim = build(Setup { segment_bytes, delete_retention_ms, min_compaction_lag_ms, ..Setup::default() });
        let written: Vec<(String, Option<String>)> =
            writes.iter().enumerate().map(|(i, (k, dead))| (format!("k{k}"), (!dead).then(|| format!("v{i}")))).collect();
        for (k, v) in &written {
            put(&mut sim, Some(k), v.as_deref());
        }
        let until = sim.now().plus_ms(settle_ms);
        sim.run_to(until);
        for (broker, log) in logs(&sim) {
            prop_assert_eq!(log.log_end_offset(), written.len() as u64, "broker {}", broker);
            let left = contents(log);
            for (offset, key, value) in &left {
                let (k, v) = &written[*offset as usize];
                prop_assert_eq!((key, value), (k, v), "broker {} offset {}", broker, offset);
            }
            let present = |o: usize| left.iter().any(|r| r.0 == o as u64);
            for (i, (k, v)) in written.iter().enumerate() {
                if present(i) {
                    continue;
                }
                let newer = written[i + 1..].iter().any(|(k2, _)| k2 == k);
                prop_assert!(newer || v.is_none(), "broker {}: offset {} ({}={:?}) dropped with no newer record of its key", broker, i, k, v);
            }
        }
        kafka_sandbox_core::invariant::check(&sim).map_err(|v| TestCaseError::fail(v.to_string()))?;
    }
}
