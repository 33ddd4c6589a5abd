//! Retention, scenario by scenario: segments roll by size and by time on every replica,
//! and retention deletes whole segments, oldest first, whatever consumers have read.

use kafka_sandbox_core::command::{BrokerCommand, ProduceCommand};
use kafka_sandbox_core::command::{GroupSpec, MemberSpec};
use kafka_sandbox_core::config::{Acks, ClusterConfig, ConsumerConfig, GroupConfig, OffsetReset, ProducerConfig};
use kafka_sandbox_core::event::EventKind;
use kafka_sandbox_core::event::{ConsumeEvent, ReplicationEvent};
use kafka_sandbox_core::log::SegmentDeletionReason;
use kafka_sandbox_core::read::LogRead;
use kafka_sandbox_core::scenario::{ProducerSpec, Scenario, TopicSpec};
use kafka_sandbox_core::{Sim, SimTime, TopicPartition};

/// Each test record ("v00", "v01", …) is 10 bytes as `DefaultRecord` counts it; sent
/// alone it is a batch of 61 + 10 = 71 bytes, so a 150-byte segment holds two.
const BATCH_BYTES: u64 = 71;

struct Setup {
    replication_factor: u32,
    min_isr: u32,
    acks: Acks,
    retention_ms: i64,
    retention_bytes: i64,
    segment_bytes: u32,
    segment_ms: u64,
    /// Consumer groups: (id, auto.offset.reset, max.poll.records, processing_ms).
    groups: Vec<(&'static str, OffsetReset, u32, u64)>,
}

impl Default for Setup {
    fn default() -> Self {
        Self {
            replication_factor: 3,
            min_isr: 1,
            acks: Acks::All,
            retention_ms: 10_000,
            retention_bytes: -1,
            segment_bytes: 150,
            segment_ms: 7 * 24 * 3600 * 1000,
            groups: Vec::new(),
        }
    }
}

/// Three brokers checking retention every second (the first check is at 30 s, after
/// `log.initial.task.delay.ms`), topic "t" with one partition, producer "p" sending
/// each record as its own batch, and the given groups with one member "c" each.
fn build(s: Setup) -> Sim {
    let groups = s
        .groups
        .iter()
        .map(|(id, reset, max_poll_records, processing_ms)| GroupSpec {
            id: (*id).into(),
            topics: vec!["t".into()],
            config: GroupConfig { auto_offset_reset: *reset, ..GroupConfig::default() },
            members: vec![MemberSpec {
                config: ConsumerConfig { max_poll_records: *max_poll_records, processing_ms: *processing_ms, ..ConsumerConfig::default() },
                ..MemberSpec::new("c")
            }],
            ..GroupSpec::default()
        })
        .collect();
    let scenario = Scenario {
        seed: 5,
        cluster: ClusterConfig {
            brokers: 3,
            network_latency_ms: 10,
            replica_lag_time_max_ms: 1_000,
            broker_session_timeout_ms: 2_000,
            group_initial_rebalance_delay_ms: 0,
            log_retention_check_interval_ms: 1_000,
            ..ClusterConfig::default()
        },
        topics: vec![TopicSpec {
            name: "t".into(),
            partitions: 1,
            replication_factor: s.replication_factor,
            min_insync_replicas: s.min_isr,
            retention_ms: s.retention_ms,
            retention_bytes: s.retention_bytes,
            segment_bytes: s.segment_bytes,
            segment_ms: s.segment_ms,
            ..TopicSpec::default()
        }],
        producers: vec![ProducerSpec {
            name: "p".into(),
            config: ProducerConfig { acks: s.acks, linger_ms: 0, ..ProducerConfig::default() },
            ..ProducerSpec::default()
        }],
        groups,
        ..Scenario::default()
    };
    let mut sim = scenario.build().expect("test scenario builds");
    sim.run_to(SimTime(500));
    sim
}

/// Sends "v{i}" (created now), then lets `gap_ms` pass.
fn produce(sim: &mut Sim, i: u32, gap_ms: u64) {
    sim.apply(ProduceCommand::Produce {
        producer: "p".into(),
        topic: "t".into(),
        key: None,
        value: Some(format!("v{i:02}")),
        partition: None,
        headers: vec![],
    })
    .expect("produce");
    run_for(sim, gap_ms);
}

fn run_for(sim: &mut Sim, ms: u64) {
    let until = sim.now().plus_ms(ms);
    sim.run_to(until);
}

fn run_to(sim: &mut Sim, at_ms: u64) {
    sim.run_to(SimTime(at_ms));
}

fn logs(sim: &Sim) -> Vec<(u32, LogRead<'_>)> {
    let p = sim.partition(&TopicPartition::new("t", 0)).expect("partition");
    p.replica_logs().map(|r| (r.broker, r.log())).collect()
}

fn leader_log(sim: &Sim) -> LogRead<'_> {
    let p = sim.partition(&TopicPartition::new("t", 0)).expect("partition");
    p.leader().and_then(|l| p.log_on(l)).expect("a leader")
}

fn bounds(log: LogRead<'_>) -> Vec<(u64, u64)> {
    log.segments().iter().map(|s| (s.base_offset, s.next_offset)).collect()
}

fn received(sim: &Sim, group: &str) -> Vec<String> {
    sim.group(group).and_then(|g| g.member("c")).map(|m| m.received().map(|d| d.value.to_string()).collect()).unwrap_or_default()
}

fn values(range: std::ops::Range<u32>) -> Vec<String> {
    range.map(|i| format!("v{i:02}")).collect()
}

/// (time, broker, reason, base offsets, new log start) of every deletion.
fn deletions(sim: &Sim) -> Vec<(u64, u32, SegmentDeletionReason, Vec<u64>, u64)> {
    sim.trace()
        .events()
        .filter_map(|e| match &e.kind {
            EventKind::Replication(ReplicationEvent::SegmentsDeleted { broker, reason, base_offsets, log_start_offset, .. }) => {
                Some((e.time.ms(), *broker, *reason, base_offsets.clone(), *log_start_offset))
            }
            _ => None,
        })
        .collect()
}

fn resets(sim: &Sim, group: &str) -> Vec<(u64, u64)> {
    sim.trace()
        .events()
        .filter_map(|e| match &e.kind {
            EventKind::Consume(ConsumeEvent::PositionReset { group: g, from, to, .. }) if g == group => Some((*from, *to)),
            _ => None,
        })
        .collect()
}

/// Ten records one second apart from 0.5 s, five more one second apart from 24 s; a
/// fast group reads everything, a slow one takes one record and then works on it for
/// 31 s. The retention check at 30 s deletes every segment whose newest record is more
/// than 10 s old: offsets 0 to 9 (five segments of two records). The run stops at 33 s,
/// after the slow member's next poll and before the newer records grow old.
fn lagging_consumer_run(reset: OffsetReset) -> Sim {
    let mut sim = build(Setup { groups: vec![("fast", OffsetReset::Earliest, 500, 1), ("slow", reset, 1, 31_000)], ..Setup::default() });
    for i in 0..10 {
        produce(&mut sim, i, 1_000);
    }
    run_to(&mut sim, 24_000);
    for i in 10..15 {
        produce(&mut sim, i, 1_000);
    }
    run_to(&mut sim, 29_999);
    assert_eq!(leader_log(&sim).log_start_offset(), 0, "nothing is deleted before the first check");
    assert_eq!(received(&sim, "fast"), values(0..15), "consuming deletes nothing");
    run_to(&mut sim, 33_000);
    sim
}

#[test]
fn retention_deletes_whole_segments_regardless_of_consumption_and_an_earliest_consumer_jumps_to_the_new_log_start() {
    let sim = lagging_consumer_run(OffsetReset::Earliest);
    let log = leader_log(&sim);
    assert_eq!((log.log_start_offset(), log.high_watermark()), (10, 15));
    assert_eq!(bounds(log), vec![(10, 12), (12, 14), (14, 15)]);
    // Every replica deleted its own copy at the check, whole segments, oldest first.
    let d = deletions(&sim);
    assert_eq!(d.len(), 3, "one deletion per replica: {d:?}");
    for (time, _, reason, base_offsets, log_start) in &d {
        assert_eq!(
            (*time, *reason, base_offsets.clone(), *log_start),
            (30_000, SegmentDeletionReason::RetentionMs, vec![0, 2, 4, 6, 8], 10)
        );
    }
    for (_, l) in logs(&sim) {
        assert_eq!(l.log_start_offset(), 10);
    }
    // The slow member read v00, then wanted offset 1, which is gone: OFFSET_OUT_OF_RANGE,
    // and auto.offset.reset=earliest takes it to the new log start.
    assert_eq!(resets(&sim, "slow"), vec![(1, 10)]);
    let slow = received(&sim, "slow");
    assert_eq!(slow.first().map(String::as_str), Some("v00"));
    assert_eq!(slow.get(1).map(String::as_str), Some("v10"), "v01 to v09 were deleted unread: {slow:?}");
    assert!(resets(&sim, "fast").is_empty(), "a consumer that kept up is not disturbed");
}

#[test]
fn a_lagging_consumer_with_auto_offset_reset_latest_jumps_to_the_high_watermark() {
    let sim = lagging_consumer_run(OffsetReset::Latest);
    assert_eq!(resets(&sim, "slow"), vec![(1, 15)], "latest: to the HW, skipping v10 to v14 too");
    assert_eq!(received(&sim, "slow"), vec!["v00"]);
}

#[test]
fn consuming_deletes_nothing() {
    let mut sim = build(Setup { retention_ms: -1, groups: vec![("g", OffsetReset::Earliest, 500, 1)], ..Setup::default() });
    for i in 0..6 {
        produce(&mut sim, i, 1_000);
    }
    run_to(&mut sim, 120_000);
    assert_eq!(received(&sim, "g"), values(0..6));
    assert!(deletions(&sim).is_empty());
    for (_, l) in logs(&sim) {
        assert_eq!((l.log_start_offset(), l.records().len()), (0, 6));
    }
}

#[test]
fn size_based_retention_keeps_at_least_retention_bytes() {
    let retention_bytes = 300;
    let mut sim = build(Setup { retention_ms: -1, retention_bytes, ..Setup::default() });
    for i in 0..9 {
        produce(&mut sim, i, 500);
    }
    run_to(&mut sim, 31_000);
    for (broker, l) in logs(&sim) {
        // 4 × 142 + 71 = 639 bytes; deleting the two oldest segments leaves 355 ≥ 300,
        // deleting a third would leave 213 < 300.
        assert_eq!(bounds(l), vec![(4, 6), (6, 8), (8, 9)], "broker {broker}");
        assert!(l.size_bytes() >= retention_bytes as u64);
        assert!(l.size_bytes() - l.segments()[0].size_bytes < retention_bytes as u64);
    }
    let d = deletions(&sim);
    assert!(d.iter().all(|x| x.2 == SegmentDeletionReason::RetentionBytes && x.3 == vec![0, 2]), "{d:?}");
}

#[test]
fn the_active_segment_goes_only_once_wholly_committed_and_an_empty_one_never() {
    let mut sim = build(Setup { segment_bytes: 1 << 30, ..Setup::default() });
    for i in 0..3 {
        produce(&mut sim, i, 1_000);
    }
    run_to(&mut sim, 29_000);
    assert_eq!(leader_log(&sim).segments().len(), 1, "everything is in the active segment");
    run_to(&mut sim, 45_000);
    // Kafka rolls an empty segment at the log end, then deletes the old active one.
    for (_, l) in logs(&sim) {
        assert_eq!(bounds(l), vec![(3, 3)]);
        assert_eq!((l.log_start_offset(), l.log_end_offset(), l.size_bytes()), (3, 3, 0));
    }
    assert_eq!(deletions(&sim).len(), 3, "fifteen more checks found nothing to delete in an empty log");
    produce(&mut sim, 3, 1_000);
    assert_eq!(leader_log(&sim).records().iter().map(|r| r.offset).collect::<Vec<_>>(), vec![3]);
}

#[test]
fn nothing_above_the_high_watermark_is_deleted() {
    // min.insync.replicas 3 with two followers down: the HW cannot move (KAFKA-15583),
    // acks=1 writes still land in the leader's log.
    let mut sim = build(Setup { min_isr: 3, acks: Acks::Leader, ..Setup::default() });
    produce(&mut sim, 0, 1_000);
    let (leader, followers): (Vec<u32>, Vec<u32>) = {
        let p = &sim.topic("t").expect("topic").partition(0).expect("partition");
        p.replicas().iter().partition(|b| Some(**b) == p.leader())
    };
    for f in &followers {
        sim.apply(BrokerCommand::CrashBroker { broker: *f }).expect("crash");
    }
    run_for(&mut sim, 3_000);
    for i in 1..7 {
        produce(&mut sim, i, 500);
    }
    run_to(&mut sim, 60_000);
    let log = leader_log(&sim);
    assert_eq!(log.high_watermark(), 1, "only v00 was committed");
    assert_eq!(log.log_end_offset(), 7);
    // The segment [0, 2) ends above the HW, so even its committed v00 stays.
    assert_eq!(log.log_start_offset(), 0);
    assert!(deletions(&sim).iter().all(|d| d.1 != leader[0]), "{:?}", deletions(&sim));
}

#[test]
fn segments_roll_by_bytes_on_every_replica() {
    let mut sim = build(Setup { retention_ms: -1, ..Setup::default() });
    for i in 0..5 {
        produce(&mut sim, i, 500);
    }
    for (broker, l) in logs(&sim) {
        assert_eq!(bounds(l), vec![(0, 2), (2, 4), (4, 5)], "broker {broker}");
        let sizes: Vec<u64> = l.segments().iter().map(|s| s.size_bytes).collect();
        assert_eq!(sizes, vec![2 * BATCH_BYTES, 2 * BATCH_BYTES, BATCH_BYTES]);
    }
}

#[test]
fn segments_roll_by_time_once_a_record_is_segment_ms_newer_than_the_first() {
    let mut sim = build(Setup { retention_ms: -1, segment_bytes: 1 << 30, segment_ms: 5_000, ..Setup::default() });
    // Sent (CreateTime) at 0.5, 2.5, 4.5, 6, 8, 11 and 11.001 s.
    for (i, gap) in [2_000, 2_000, 1_500, 2_000, 3_000, 1, 1_000].iter().enumerate() {
        produce(&mut sim, i as u32, *gap);
    }
    for (broker, l) in logs(&sim) {
        // 6 - 0.5 > 5 rolls; 11 - 6 = 5 does not; 11.001 - 6 > 5 rolls.
        assert_eq!(bounds(l), vec![(0, 3), (3, 6), (6, 7)], "broker {broker}");
        let first: Vec<Option<u64>> = l.segments().iter().map(|s| s.rolling_timestamp.map(|t| t.ms())).collect();
        assert_eq!(first, vec![Some(500), Some(6_000), Some(11_001)]);
    }
}

#[test]
fn a_follower_that_fell_behind_the_leaders_log_start_starts_again_there() {
    let mut sim = build(Setup::default());
    let follower = {
        let p = &sim.topic("t").expect("topic").partition(0).expect("partition");
        p.replicas().iter().copied().find(|b| Some(*b) != p.leader()).expect("a follower")
    };
    produce(&mut sim, 0, 1_000);
    sim.apply(BrokerCommand::CrashBroker { broker: follower }).expect("crash");
    for i in 1..6 {
        produce(&mut sim, i, 1_000);
    }
    run_to(&mut sim, 31_000);
    assert_eq!(leader_log(&sim).log_start_offset(), 6, "the leader deleted everything it had");
    sim.apply(BrokerCommand::RestartBroker { broker: follower }).expect("restart");
    for i in 6..8 {
        produce(&mut sim, i, 1_000);
    }
    run_for(&mut sim, 5_000);
    let p = &sim.topic("t").expect("topic").partition(0).expect("partition");
    let l = p.log_on(follower).expect("follower log");
    assert_eq!((l.log_start_offset(), l.log_end_offset()), (6, 8), "AbstractFetcherThread: truncateFullyAndStartAt(leader's log start)");
    assert!(p.isr().contains(&follower));
}

#[test]
fn scenario_retention_settings_default_to_kafkas_and_out_of_range_values_are_refused() {
    let base = r#"{"version": 1, "topics": [{"name": "t", "partitions": 1 TOPIC}] CLUSTER}"#;
    let parse = |topic: &str, cluster: &str| Scenario::from_json(&base.replace("TOPIC", topic).replace("CLUSTER", cluster));
    let s = parse("", "").expect("defaults");
    let t = &s.topics[0];
    assert_eq!((t.retention_ms, t.retention_bytes, t.segment_bytes, t.segment_ms), (604_800_000, -1, 1_073_741_824, 604_800_000));
    assert_eq!(s.cluster.log_retention_check_interval_ms, 300_000);
    let sim = s.build().expect("builds");
    let log = sim.topic("t").and_then(|t| t.partition(0).expect("partition").leader_log()).expect("log");
    assert_eq!((log.segment_config().segment_bytes, log.segment_config().segment_ms), (1 << 30, 604_800_000));
    assert!(parse(r#", "retention_ms": -1, "retention_bytes": 0, "segment_bytes": 14, "segment_ms": 1"#, "").is_ok());
    for (topic, cluster, path) in [
        (r#", "retention_ms": -2"#, "", "topics[0].retention_ms"),
        (r#", "retention_bytes": -5"#, "", "topics[0].retention_bytes"),
        (r#", "segment_bytes": 13"#, "", "topics[0].segment_bytes"),
        (r#", "segment_ms": 0"#, "", "topics[0].segment_ms"),
        ("", r#", "cluster": {"log_retention_check_interval_ms": 0}"#, "cluster.log_retention_check_interval_ms"),
    ] {
        let e = parse(topic, cluster).expect_err(path);
        assert_eq!(e.path, path, "{e}");
        assert!(e.problem.to_string().contains("allowed") || e.problem.to_string().contains("must be"), "{e}");
    }
}
