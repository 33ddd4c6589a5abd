//! Share groups (KIP-932, Queues for Kafka), scenario by scenario: members share
//! partitions, each record is acquired under a lock, acknowledged on its own, redelivered
//! when its lock expires or it is released, archived after the delivery limit.

use kafka_sandbox_core::command::{
    AcknowledgeRule, AcknowledgeType, AcknowledgementMode, CommandError, ProduceCommand, ShareConsumerConfig, ShareGroupCommand,
    ShareGroupConfig, ShareGroupRefusal, ShareGroupSpec, ShareMemberSpec,
};
use kafka_sandbox_core::config::{ClusterConfig, KafkaVersion, OffsetReset, ProducerConfig};
use kafka_sandbox_core::event::{ArchiveCause, EventKind, ReturnCause, ShareGroupEvent};
use kafka_sandbox_core::record::TopicPartition;
use kafka_sandbox_core::scenario::{ProducerSpec, Scenario, TopicSpec};
use kafka_sandbox_core::share_group::{RecordState, SharePhase};
use kafka_sandbox_core::{Sim, SimTime};

/// Three brokers, topic "t" with `partitions`, a round-robin producer "p" (no linger: each
/// record its own batch), and share group "q" with `members`.
fn build(partitions: u32, members: Vec<ShareMemberSpec>, config: ShareGroupConfig) -> Sim {
    build_on(KafkaVersion::V4_2, partitions, members, config).expect("builds")
}

fn build_on(version: KafkaVersion, partitions: u32, members: Vec<ShareMemberSpec>, config: ShareGroupConfig) -> Result<Sim, CommandError> {
    let scenario = Scenario {
        seed: 7,
        cluster: ClusterConfig { brokers: 3, network_latency_ms: 10, kafka_version: version, ..ClusterConfig::default() },
        topics: vec![TopicSpec { name: "t".into(), partitions, ..TopicSpec::default() }],
        producers: vec![ProducerSpec {
            name: "p".into(),
            config: ProducerConfig {
                partitioner: kafka_sandbox_core::partitioner::PartitionerKind::RoundRobin,
                linger_ms: 0,
                ..ProducerConfig::default()
            },
            ..ProducerSpec::default()
        }],
        ..Scenario::default()
    };
    let mut sim = scenario.build().expect("scenario builds");
    let spec = ShareGroupSpec { id: "q".into(), topics: vec!["t".into()], config, members, ..ShareGroupSpec::default() };
    sim.apply(ShareGroupCommand::AddShareGroup { share_group: spec })?;
    Ok(sim)
}

fn earliest() -> ShareGroupConfig {
    ShareGroupConfig { share_auto_offset_reset: OffsetReset::Earliest, ..ShareGroupConfig::default() }
}

fn consumer(client_id: &str) -> ShareMemberSpec {
    ShareMemberSpec {
        client_id: client_id.into(),
        config: ShareConsumerConfig { processing_ms: 20, ..ShareConsumerConfig::default() },
        ..ShareMemberSpec::default()
    }
}

fn explicit(client_id: &str, rules: Vec<(&str, AcknowledgeType)>) -> ShareMemberSpec {
    ShareMemberSpec {
        client_id: client_id.into(),
        config: ShareConsumerConfig {
            processing_ms: 20,
            share_acknowledgement_mode: AcknowledgementMode::Explicit,
            ..ShareConsumerConfig::default()
        },
        acknowledge: rules.into_iter().map(|(v, t)| AcknowledgeRule { value: v.into(), acknowledge_type: t }).collect(),
    }
}

fn produce(sim: &mut Sim, value: &str, partition: Option<u32>) {
    sim.apply(ProduceCommand::Produce {
        producer: "p".into(),
        topic: "t".into(),
        key: None,
        value: Some(value.into()),
        partition,
        headers: vec![],
    })
    .expect("produce");
}

fn share_events(sim: &Sim) -> Vec<ShareGroupEvent> {
    sim.trace()
        .events()
        .filter_map(|e| match &e.kind {
            EventKind::ShareGroup(s) => Some(s.clone()),
            _ => None,
        })
        .collect()
}

/// Every delivery of `value`: (client id, delivery count), in order.
fn deliveries(sim: &Sim, value: &str) -> Vec<(String, u32)> {
    share_events(sim)
        .into_iter()
        .filter_map(|e| match e {
            ShareGroupEvent::ShareRecordDelivered { client_id, value: v, delivery_count, .. } if v == value => {
                Some((client_id, delivery_count))
            }
            _ => None,
        })
        .collect()
}

fn tp0() -> TopicPartition {
    TopicPartition::new("t", 0)
}

#[test]
fn five_share_consumers_on_four_partitions_all_receive_records() {
    let members = (1..=5).map(|i| consumer(&format!("Consumer{i}"))).collect();
    let mut sim = build(4, members, earliest());
    // Each member has its last assignment after its next heartbeat (every 5 s): until then
    // an early joiner may still fetch from a partition it gave up (no revocation step).
    sim.run_to(SimTime(6000));
    let g = sim.share_group("q").expect("group");
    assert_eq!(g.coordinator_members(), 5);
    // ceil(5/4) = 2 members share each partition.
    for p in 0..4 {
        assert_eq!(g.owners(&TopicPartition::new("t", p)).len(), 2, "partition {p}");
    }
    for i in 0..40 {
        produce(&mut sim, &format!("m{i}"), None);
        let t = sim.now().plus_ms(25);
        sim.run_to(t);
    }
    sim.run_to(sim.now().plus_ms(5000));
    let g = sim.share_group("q").expect("group");
    for m in g.members() {
        assert!(m.received_total() > 0, "{} received nothing", m.client_id());
    }
    assert_eq!(g.acknowledged(), 40, "every record accepted once");
    for p in 0..4 {
        let sp = g.partition(&TopicPartition::new("t", p)).expect("initialized");
        assert_eq!((sp.in_flight(), g.lag(&TopicPartition::new("t", p))), (0, Some(0)), "partition {p} done");
    }
}

#[test]
fn the_consumer_group_of_the_same_topic_leaves_its_fifth_member_idle() {
    // The contrast, on the same topic: a consumer group's fifth member gets nothing.
    let s = kafka_sandbox_core::scenario::built_in("five-consumers").expect("built in").expect("parses");
    let mut sim = s.build().expect("builds");
    sim.run_to(SimTime(12_000));
    let idle = sim.group("ConsumerGroup01").and_then(|g| g.member("Consumer5")).map(|m| m.received_total());
    assert_eq!(idle, Some(0));
}

#[test]
fn a_record_whose_lock_expires_is_redelivered_with_delivery_count_2() {
    // c1 takes 40 s per record: its lock (30 s) runs out while it processes.
    let slow = ShareMemberSpec {
        client_id: "c1".into(),
        config: ShareConsumerConfig { processing_ms: 40_000, ..ShareConsumerConfig::default() },
        ..ShareMemberSpec::default()
    };
    let mut sim = build(1, vec![slow], earliest());
    sim.run_to(SimTime(2000));
    produce(&mut sim, "m1", Some(0));
    sim.run_to(SimTime(3000));
    assert_eq!(deliveries(&sim, "m1"), vec![("c1".into(), 1)]);
    // A second consumer joins; after the lock expires it gets m1 again.
    sim.apply(ShareGroupCommand::AddShareMember { group: "q".into(), share_member: consumer("c2") }).expect("add");
    sim.run_to(SimTime(40_000));
    let again = deliveries(&sim, "m1");
    assert_eq!(again.len(), 2, "{again:?}");
    assert_eq!(again[1].1, 2, "the second delivery has delivery count 2");
    assert!(share_events(&sim).iter().any(|e| matches!(e, ShareGroupEvent::ShareRecordsReturned { cause: ReturnCause::LockExpired, .. })));
    // c1 finishes late: its ACCEPT is refused (the record is not its any more).
    sim.run_to(SimTime(50_000));
    assert!(share_events(&sim).iter().any(|e| matches!(e, ShareGroupEvent::ShareAcknowledgeFailed { client_id, .. } if client_id == "c1")));
    let g = sim.share_group("q").expect("group");
    assert_eq!(g.partition(&tp0()).expect("sp").in_flight(), 0, "c2's ACCEPT completed it");
}

#[test]
fn a_rejected_record_is_archived_and_never_redelivered() {
    let reject_bad = |c: &str| explicit(c, vec![("bad", AcknowledgeType::Reject)]);
    let mut sim = build(1, vec![reject_bad("c1"), reject_bad("c2")], earliest());
    sim.run_to(SimTime(2000));
    for v in ["ok1", "bad", "ok2"] {
        produce(&mut sim, v, Some(0));
        sim.run_to(sim.now().plus_ms(5));
    }
    sim.run_to(SimTime(120_000));
    assert_eq!(deliveries(&sim, "bad").len(), 1, "rejected, never delivered again");
    let archived = share_events(&sim)
        .into_iter()
        .filter(|e| matches!(e, ShareGroupEvent::ShareRecordArchived { cause: ArchiveCause::Rejected, .. }))
        .count();
    assert_eq!(archived, 1);
    let g = sim.share_group("q").expect("group");
    assert_eq!((g.archived(), g.acknowledged()), (1, 2));
    assert_eq!(g.partition(&tp0()).expect("sp").start_offset(), 3, "SPSO moved over the archived record");
}

#[test]
fn a_crashed_share_consumers_acquired_records_return_after_the_lock_duration() {
    let slow = ShareMemberSpec {
        client_id: "c1".into(),
        config: ShareConsumerConfig { processing_ms: 5000, ..ShareConsumerConfig::default() },
        ..ShareMemberSpec::default()
    };
    let mut sim = build(1, vec![], earliest());
    for i in 0..3 {
        produce(&mut sim, &format!("m{i}"), Some(0));
    }
    sim.run_to(SimTime(2000));
    sim.apply(ShareGroupCommand::AddShareMember { group: "q".into(), share_member: slow }).expect("add");
    sim.run_to(SimTime(2500));
    let g = sim.share_group("q").expect("group");
    assert_eq!(g.partition(&tp0()).expect("sp").acquired(), 3);
    let crashed_at = sim.now();
    sim.apply(ShareGroupCommand::CrashShareMember { group: "q".into(), client_id: "c1".into() }).expect("crash");
    // Just before the lock duration the records are still acquired (locked to c1).
    let lock = ShareGroupConfig::default().share_record_lock_duration_ms;
    sim.run_to(crashed_at.plus_ms(lock - 600));
    let sp = sim.share_group("q").and_then(|g| g.partition(&tp0()).map(|p| p.acquired())).expect("sp");
    assert_eq!(sp, 3, "still locked");
    sim.run_to(crashed_at.plus_ms(lock + 100));
    let g = sim.share_group("q").expect("group");
    let sp = g.partition(&tp0()).expect("sp");
    assert_eq!(sp.acquired(), 0);
    for o in 0..3 {
        assert_eq!(sp.state_of(o), Some((RecordState::Available, 1)), "offset {o}");
    }
    // A consumer that joins gets them with delivery count 2.
    sim.apply(ShareGroupCommand::AddShareMember { group: "q".into(), share_member: consumer("c2") }).expect("add");
    sim.run_to(sim.now().plus_ms(3000));
    assert_eq!(deliveries(&sim, "m0").last(), Some(&("c2".to_string(), 2)));
    // The coordinator removed c1 when its session ran out (45 s).
    sim.run_to(crashed_at.plus_ms(46_000));
    assert!(share_events(&sim).iter().any(|e| matches!(e, ShareGroupEvent::ShareMemberLeft { client_id, .. } if client_id == "c1")));
    assert_eq!(sim.share_group("q").expect("group").member("c1").map(|m| m.phase()), Some(SharePhase::Crashed));
}

#[test]
fn a_record_is_archived_after_group_share_delivery_count_limit_deliveries() {
    // A poison pill: the application releases it every time.
    let limit = ShareGroupConfig::default().share_delivery_count_limit;
    let mut sim = build(1, vec![explicit("c1", vec![("poison", AcknowledgeType::Release)])], earliest());
    sim.run_to(SimTime(2000));
    produce(&mut sim, "poison", Some(0));
    produce(&mut sim, "fine", Some(0));
    sim.run_to(SimTime(30_000));
    let counts: Vec<u32> = deliveries(&sim, "poison").into_iter().map(|(_, c)| c).collect();
    assert_eq!(counts, (1..=limit).collect::<Vec<_>>(), "delivered {limit} times, then never again");
    let archived = share_events(&sim).into_iter().find_map(|e| match e {
        ShareGroupEvent::ShareRecordArchived { delivery_count, cause, .. } => Some((delivery_count, cause)),
        _ => None,
    });
    assert_eq!(archived, Some((limit, ArchiveCause::DeliveryLimit)));
    let g = sim.share_group("q").expect("group");
    assert_eq!(g.partition(&tp0()).expect("sp").start_offset(), 2, "SPSO past both");
    assert_eq!(deliveries(&sim, "fine").len(), 1);
}

#[test]
fn the_delivery_limit_is_the_groups_setting() {
    let config = ShareGroupConfig { share_delivery_count_limit: 2, ..earliest() };
    let mut sim = build(1, vec![explicit("c1", vec![("poison", AcknowledgeType::Release)])], config);
    sim.run_to(SimTime(2000));
    produce(&mut sim, "poison", Some(0));
    sim.run_to(SimTime(10_000));
    assert_eq!(deliveries(&sim, "poison").len(), 2);
}

#[test]
fn share_auto_offset_reset_latest_starts_at_the_high_watermark() {
    let mut sim = build(1, vec![], ShareGroupConfig::default());
    produce(&mut sim, "before", Some(0));
    sim.run_to(SimTime(1000));
    sim.apply(ShareGroupCommand::AddShareMember { group: "q".into(), share_member: consumer("c1") }).expect("add");
    sim.run_to(SimTime(3000));
    produce(&mut sim, "after", Some(0));
    sim.run_to(SimTime(5000));
    assert!(deliveries(&sim, "before").is_empty());
    assert_eq!(deliveries(&sim, "after").len(), 1);
}

#[test]
fn assignment_changes_without_a_revocation_step() {
    let mut sim = build(2, vec![consumer("c1")], earliest());
    sim.run_to(SimTime(2000));
    let g = sim.share_group("q").expect("group");
    assert_eq!(g.member("c1").map(|m| m.assigned().len()), Some(2));
    sim.apply(ShareGroupCommand::AddShareMember { group: "q".into(), share_member: consumer("c2") }).expect("add");
    sim.run_to(SimTime(10_000));
    let g = sim.share_group("q").expect("group");
    assert_eq!(g.member("c1").map(|m| m.assigned().len()), Some(1));
    assert_eq!(g.member("c2").map(|m| m.assigned().len()), Some(1));
    // No member ever heard "revoke": only new assignments, each used at once.
    assert!(!sim.trace().events().any(|e| matches!(e.kind, EventKind::Group(_))));
}

#[test]
fn removing_a_member_releases_what_it_still_holds() {
    let slow = ShareMemberSpec {
        client_id: "c1".into(),
        config: ShareConsumerConfig { processing_ms: 10_000, ..ShareConsumerConfig::default() },
        ..ShareMemberSpec::default()
    };
    let mut sim = build(1, vec![slow, consumer("c2")], earliest());
    sim.run_to(SimTime(2000));
    for i in 0..4 {
        produce(&mut sim, &format!("m{i}"), Some(0));
    }
    sim.run_to(SimTime(3000));
    sim.apply(ShareGroupCommand::RemoveShareMember { group: "q".into(), client_id: "c1".into() }).expect("remove");
    sim.run_to(SimTime(6000));
    assert!(share_events(&sim)
        .iter()
        .any(|e| matches!(e, ShareGroupEvent::ShareRecordsReturned { cause: ReturnCause::SessionClosed, .. })));
    sim.run_to(SimTime(20_000));
    let g = sim.share_group("q").expect("group");
    assert_eq!(g.partition(&tp0()).expect("sp").in_flight(), 0, "c2 took and accepted the rest");
}

#[test]
fn share_groups_are_refused_on_kafka_4_0() {
    let r = build_on(KafkaVersion::V4_0, 1, vec![], ShareGroupConfig::default());
    assert!(matches!(r, Err(CommandError::ShareGroup(ShareGroupRefusal::NeedsKafka41 { .. }))));
    assert!(build_on(KafkaVersion::V4_1, 1, vec![], ShareGroupConfig::default()).is_ok());
}

#[test]
fn the_lag_is_reported_from_4_2() {
    let mut sim = build_on(KafkaVersion::V4_1, 1, vec![consumer("c1")], earliest()).expect("4.1");
    sim.run_to(SimTime(3000));
    assert_eq!(sim.share_group("q").and_then(|g| g.lag(&tp0())), None);
}

#[test]
fn the_window_cap_stalls_a_partition_behind_an_unacknowledged_record() {
    let config = ShareGroupConfig { share_partition_max_record_locks: 100, ..earliest() };
    let slow = ShareMemberSpec {
        client_id: "c1".into(),
        config: ShareConsumerConfig { processing_ms: 20_000, max_poll_records: 1, ..ShareConsumerConfig::default() },
        ..ShareMemberSpec::default()
    };
    let mut sim = build(1, vec![slow, consumer("c2")], config);
    sim.run_to(SimTime(2000));
    // One record per batch (whole batches may overshoot the cap by a batch).
    for i in 0..150 {
        produce(&mut sim, &format!("m{i}"), Some(0));
        sim.run_to(sim.now().plus_ms(30));
    }
    sim.run_to(SimTime(8000));
    let g = sim.share_group("q").expect("group");
    let sp = g.partition(&tp0()).expect("sp");
    assert_eq!(sp.in_flight(), 100, "c1 holds SPSO; the window is full");
    assert_eq!(sp.start_offset(), 0);
    assert_eq!(g.member("c2").expect("c2").received_total(), 99, "nothing past the window");
}

#[test]
fn the_five_consumers_side_by_side_consumer5_idles_in_the_consumer_group_and_all_five_share_consumers_work() {
    let sim = crate::support::run_built_in("five-consumers-share");
    let idle = sim.group("ConsumerGroup01").and_then(|g| g.member("Consumer5")).map(|m| m.received_total());
    assert_eq!(idle, Some(0), "the consumer group's fifth member receives nothing");
    let q = sim.share_group("ShareGroup01").expect("share group");
    let mut all: Vec<String> = Vec::new();
    for m in q.members() {
        let got: Vec<String> = m.received().map(|d| d.value.to_string()).collect();
        assert!(!got.is_empty(), "{} received nothing", m.client_id());
        all.extend(got);
    }
    all.sort();
    let mut expect: Vec<String> = (1..=7).map(|i| format!("m{i}")).collect();
    expect.sort();
    assert_eq!(all, expect, "each of m1..m7 delivered once, to one of the five");
}
