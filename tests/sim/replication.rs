//! Replication and durability, scenario by scenario: what acks, min.insync.replicas,
//! the ISR and leader election promise, and exactly where the promise stops.

use kafka_sandbox_core::command::{BrokerCommand, GroupCommand, ProduceCommand};
use kafka_sandbox_core::command::{GroupSpec, MemberSpec};
use kafka_sandbox_core::config::{Acks, ClusterConfig, GroupConfig, OffsetReset, ProducerConfig};
use kafka_sandbox_core::event::{ConsumeEvent, ProduceEvent, ReplicationEvent};
use kafka_sandbox_core::event::{EventKind, LossCause, ProduceError};
use kafka_sandbox_core::monitor::{FindingKind, Monitors};
use kafka_sandbox_core::scenario::{ProducerSpec, Scenario, TopicSpec};
use kafka_sandbox_core::{Sim, SimTime};

struct Setup {
    acks: Acks,
    min_isr: u32,
    unclean: bool,
    idempotent: Option<bool>,
    request_timeout_ms: u64,
    reset: OffsetReset,
}

impl Default for Setup {
    fn default() -> Self {
        Self { acks: Acks::All, min_isr: 1, unclean: false, idempotent: None, request_timeout_ms: 30_000, reset: OffsetReset::Earliest }
    }
}

/// Three brokers, topic "t" with one partition on all three, producer "p", group "g"
/// with consumer "c" reading from the earliest offset. Short timeouts keep tests quick.
fn build(s: Setup) -> Sim {
    let scenario = Scenario {
        seed: 11,
        cluster: ClusterConfig {
            brokers: 3,
            network_latency_ms: 10,
            replica_lag_time_max_ms: 1_000,
            broker_session_timeout_ms: 2_000,
            group_initial_rebalance_delay_ms: 0,
            ..ClusterConfig::default()
        },
        topics: vec![TopicSpec {
            name: "t".into(),
            partitions: 1,
            replication_factor: 3,
            message_timestamp_type: Default::default(),
            min_insync_replicas: s.min_isr,
            unclean_leader_election_enable: s.unclean,
            ..TopicSpec::default()
        }],
        producers: vec![ProducerSpec {
            name: "p".into(),
            config: ProducerConfig {
                acks: s.acks,
                enable_idempotence: s.idempotent,
                request_timeout_ms: s.request_timeout_ms,
                linger_ms: 0,
                ..ProducerConfig::default()
            },
            ..ProducerSpec::default()
        }],
        groups: vec![GroupSpec {
            id: "g".into(),
            topics: vec!["t".into()],
            config: GroupConfig { auto_offset_reset: s.reset, ..GroupConfig::default() },
            members: vec![MemberSpec::new("c")],
            ..GroupSpec::default()
        }],
        ..Scenario::default()
    };
    let mut sim = scenario.build().expect("test scenario builds");
    sim.run_to(SimTime(500));
    sim
}

fn produce(sim: &mut Sim, value: &str) {
    sim.apply(ProduceCommand::Produce {
        producer: "p".into(),
        topic: "t".into(),
        key: None,
        value: Some(value.into()),
        partition: None,
        headers: vec![],
    })
    .expect("produce");
}

fn run(sim: &mut Sim, ms: u64) {
    let until = sim.now().plus_ms(ms);
    sim.run_to(until);
}

fn leader(sim: &Sim) -> Option<u32> {
    sim.topic("t").and_then(|t| t.partition(0).expect("partition").leader())
}

fn followers(sim: &Sim) -> Vec<u32> {
    let p = &sim.topic("t").expect("topic").partition(0).expect("partition");
    p.replicas().iter().copied().filter(|b| Some(*b) != p.leader()).collect()
}

fn monitors(sim: &Sim) -> Monitors {
    let mut m = Monitors::new();
    for e in sim.trace().events() {
        m.observe(e);
    }
    m
}

fn acked_values(sim: &Sim) -> Vec<String> {
    sim.trace()
        .events()
        .filter_map(|e| match &e.kind {
            EventKind::Produce(ProduceEvent::RecordAcked { value, offset, .. }) if *offset >= 0 => Some(value.to_string()),
            _ => None,
        })
        .collect()
}

fn received(sim: &Sim) -> Vec<String> {
    sim.group("g").and_then(|g| g.member("c")).map(|m| m.received().map(|d| d.value.to_string()).collect()).unwrap_or_default()
}

fn leader_values(sim: &Sim) -> Vec<String> {
    let p = &sim.topic("t").expect("topic").partition(0).expect("partition");
    p.leader_log().map(|l| l.records().iter().map(|r| r.record.value.to_string()).collect()).unwrap_or_default()
}

fn slow_followers(sim: &mut Sim, slow_ms: u64) {
    for f in followers(sim) {
        sim.apply(BrokerCommand::SlowBroker { broker: f, slow_ms }).expect("slow");
    }
    // Let fetches already parked at the leader time out, so the next ones are slow.
    run(sim, 1_000);
}

#[test]
fn acks_1_leader_crash_before_follower_fetch_loses_the_record() {
    let mut sim = build(Setup { acks: Acks::Leader, ..Setup::default() });
    let old = leader(&sim).expect("a leader");
    slow_followers(&mut sim, 10_000);
    produce(&mut sim, "a");
    run(&mut sim, 100);
    assert_eq!(acked_values(&sim), vec!["a"], "acks=1 answers after the leader's append alone");
    sim.apply(BrokerCommand::CrashBroker { broker: old }).expect("crash");
    run(&mut sim, 2_500);
    let new = leader(&sim).expect("a follower in the ISR takes over after the session timeout");
    assert_ne!(new, old);
    assert!(!leader_values(&sim).contains(&"a".to_string()));
    let lost = sim.trace().events().any(|e| {
        matches!(&e.kind, EventKind::Replication(ReplicationEvent::RecordsLost { records, cause: LossCause::LeaderFailover, .. }) if records.iter().any(|r| r.value == "a"))
    });
    assert!(lost, "the trace says the record was lost in the failover");
    let m = monitors(&sim);
    let finding = m.findings().iter().find(|f| matches!(f.kind, FindingKind::AcknowledgedRecordLost { acks: Acks::Leader, .. }));
    let finding = finding.expect("the monitor reports the acknowledged record lost");
    assert_eq!(finding.values, vec!["a"]);
    assert!(!finding.promised, "acks=1 never promised survival of a leader crash");
    // The old leader comes back as a follower and truncates what the new leader lacks.
    sim.apply(BrokerCommand::RestartBroker { broker: old }).expect("restart");
    run(&mut sim, 1_000);
    let truncated = sim
        .trace()
        .events()
        .any(|e| matches!(&e.kind, EventKind::Replication(ReplicationEvent::RecordsTruncated { broker, .. }) if *broker == old));
    assert!(truncated);
    let p = &sim.topic("t").expect("topic").partition(0).expect("partition");
    assert_eq!(p.log_on(old).expect("old leader log").log_end_offset(), p.leader_log().map(|l| l.log_end_offset()).unwrap_or(99));
}

#[test]
fn acks_all_min_insync_2_one_broker_down_no_acknowledged_record_lost() {
    let mut sim = build(Setup { acks: Acks::All, min_isr: 2, ..Setup::default() });
    for i in 0..10 {
        produce(&mut sim, &format!("m{i}"));
        run(&mut sim, 50);
    }
    let old = leader(&sim).expect("leader");
    sim.apply(BrokerCommand::CrashBroker { broker: old }).expect("crash");
    for i in 10..20 {
        produce(&mut sim, &format!("m{i}"));
        run(&mut sim, 300);
    }
    run(&mut sim, 5_000);
    assert_ne!(leader(&sim), Some(old));
    let m = monitors(&sim);
    assert!(m.findings().is_empty(), "no guarantee broken: {:?}", m.findings());
    let acked = acked_values(&sim);
    assert_eq!(acked.len(), 20, "every record is acknowledged once the new leader serves: {acked:?}");
    let got = received(&sim);
    for v in &acked {
        assert!(got.contains(v), "{v} was acknowledged but never delivered: {got:?}");
    }
    sim.apply(BrokerCommand::RestartBroker { broker: old }).expect("restart");
    run(&mut sim, 3_000);
    let p = &sim.topic("t").expect("topic").partition(0).expect("partition");
    assert_eq!(p.isr().len(), 3, "the restarted broker catches up and rejoins the ISR");
}

#[test]
fn min_insync_2_with_two_brokers_down_the_producer_gets_not_enough_replicas() {
    let mut sim = build(Setup { acks: Acks::All, min_isr: 2, ..Setup::default() });
    for f in followers(&sim) {
        sim.apply(BrokerCommand::CrashBroker { broker: f }).expect("crash");
    }
    run(&mut sim, 2_500);
    assert_eq!(sim.topic("t").expect("topic").partition(0).expect("partition").isr().len(), 1, "fenced brokers leave the ISR");
    let before = leader_values(&sim).len();
    produce(&mut sim, "refused");
    run(&mut sim, 200);
    let refused = sim.trace().events().any(|e| {
        matches!(&e.kind, EventKind::Produce(ProduceEvent::ProduceFailed { error: ProduceError::NotEnoughReplicas, retrying: true, .. }))
    });
    assert!(refused, "NOT_ENOUGH_REPLICAS, and the producer retries");
    assert_eq!(leader_values(&sim).len(), before, "refused before the append: nothing written");
    assert!(acked_values(&sim).is_empty());
}

#[test]
fn unclean_election_loses_the_records_past_the_new_leaders_end() {
    let mut sim = build(Setup { acks: Acks::All, min_isr: 1, unclean: true, ..Setup::default() });
    let old = leader(&sim).expect("leader");
    slow_followers(&mut sim, 60_000);
    produce(&mut sim, "x");
    produce(&mut sim, "y");
    // The followers do not catch up within replica.lag.time.max.ms: they leave the ISR,
    // and with min.insync.replicas=1 the leader alone commits and acknowledges.
    run(&mut sim, 2_000);
    assert_eq!(sim.topic("t").expect("topic").partition(0).expect("partition").isr(), vec![old], "slow followers leave the ISR");
    assert_eq!(acked_values(&sim), vec!["x", "y"], "acks=all with the ISR down to the leader");
    sim.apply(BrokerCommand::CrashBroker { broker: old }).expect("crash");
    run(&mut sim, 2_500);
    let new = leader(&sim).expect("an out-of-sync replica leads");
    assert_ne!(new, old);
    let elected_unclean =
        sim.trace().events().any(|e| matches!(&e.kind, EventKind::Replication(ReplicationEvent::LeaderElected { unclean: true, .. })));
    assert!(elected_unclean);
    let m = monitors(&sim);
    let f = m
        .findings()
        .iter()
        .find(|f| matches!(f.kind, FindingKind::AcknowledgedRecordLost { cause: LossCause::UncleanElection, .. }))
        .expect("the monitor reports the loss");
    assert_eq!(f.values, vec!["x", "y"]);
    assert!(!f.promised, "unclean election gives up the promise");
}

#[test]
fn without_unclean_election_the_partition_goes_offline_and_keeps_its_data() {
    let mut sim = build(Setup { acks: Acks::All, min_isr: 1, ..Setup::default() });
    let old = leader(&sim).expect("leader");
    slow_followers(&mut sim, 60_000);
    produce(&mut sim, "x");
    run(&mut sim, 2_000);
    assert_eq!(acked_values(&sim), vec!["x"]);
    sim.apply(BrokerCommand::CrashBroker { broker: old }).expect("crash");
    run(&mut sim, 2_500);
    assert_eq!(leader(&sim), None, "no in-sync replica left: offline");
    produce(&mut sim, "while-offline");
    run(&mut sim, 300);
    let no_leader = sim
        .trace()
        .events()
        .any(|e| matches!(&e.kind, EventKind::Produce(ProduceEvent::ProduceFailed { error: ProduceError::LeaderNotAvailable, .. })));
    assert!(no_leader);
    sim.apply(BrokerCommand::RestartBroker { broker: old }).expect("restart");
    run(&mut sim, 1_000);
    assert_eq!(leader(&sim), Some(old), "the last in-sync replica leads again");
    assert!(leader_values(&sim).contains(&"x".to_string()));
    assert!(monitors(&sim).findings().is_empty());
}

#[test]
fn consumers_never_see_records_above_the_high_watermark() {
    let mut sim = build(Setup { acks: Acks::Leader, ..Setup::default() });
    slow_followers(&mut sim, 800);
    for i in 0..5 {
        produce(&mut sim, &format!("m{i}"));
        run(&mut sim, 150);
    }
    // Appended on the leader long before the slow followers have them.
    let mut appended = std::collections::BTreeMap::new();
    let mut fetched = std::collections::BTreeMap::new();
    for e in sim.trace().events() {
        match &e.kind {
            EventKind::Produce(ProduceEvent::RecordAppended { record, .. }) => {
                appended.insert(*record, e.time);
            }
            EventKind::Replication(ReplicationEvent::ReplicaFetched { records, .. }) => {
                for r in records {
                    fetched.entry(*r).or_insert(Vec::new()).push(e.time);
                }
            }
            _ => {}
        }
    }
    run(&mut sim, 5_000);
    for e in sim.trace().events() {
        if let EventKind::Consume(ConsumeEvent::RecordDelivered { record, offset, high_watermark, .. }) = &e.kind {
            assert!(offset < high_watermark);
            let copies = sim
                .trace()
                .events()
                .filter(|x| {
                    matches!(&x.kind, EventKind::Replication(ReplicationEvent::ReplicaFetched { records, .. }) if records.contains(record))
                        && x.time <= e.time
                })
                .count();
            assert_eq!(copies, 2, "{record} reached the consumer only after both followers had it");
        }
    }
    assert_eq!(received(&sim).len(), 5);
    assert!(!appended.is_empty() && !fetched.is_empty());
}

#[test]
fn a_retry_after_a_timeout_duplicates_the_record_unless_the_producer_is_idempotent() {
    for idempotent in [false, true] {
        let mut sim =
            build(Setup { acks: Acks::All, min_isr: 1, idempotent: Some(idempotent), request_timeout_ms: 300, ..Setup::default() });
        // Followers are slow but still in the ISR (replica.lag.time.max.ms is 1000), so
        // the acks=all write waits past request.timeout.ms (300) and the producer retries.
        slow_followers(&mut sim, 1_500);
        produce(&mut sim, "once");
        run(&mut sim, 8_000);
        let values = leader_values(&sim);
        let copies = values.iter().filter(|v| *v == "once").count();
        let m = monitors(&sim);
        let dup_finding = m.findings().iter().any(|f| matches!(f.kind, FindingKind::DuplicateAppended { .. }));
        if idempotent {
            assert_eq!(copies, 1, "idempotent: the broker recognises the retry ({values:?})");
            assert!(sim.trace().events().any(|e| matches!(e.kind, EventKind::Produce(ProduceEvent::DuplicateIgnored { .. }))));
            assert!(!dup_finding);
        } else {
            assert!(copies >= 2, "not idempotent: the retry is written again ({values:?})");
            assert!(dup_finding);
        }
        assert!(sim
            .trace()
            .events()
            .any(|e| matches!(e.kind, EventKind::Produce(ProduceEvent::ProduceFailed { error: ProduceError::RequestTimedOut, .. }))));
    }
}

#[test]
fn without_idempotence_a_retried_batch_lands_after_a_later_one() {
    // max.in.flight.requests.per.connection = 5: batch B goes out while batch A waits to
    // be retried. Without idempotence nothing stops B from landing first; the idempotent
    // producer's sequence numbers keep A before B (KIP-98, KIP-360).
    for (acks, idempotent) in [(Acks::Leader, false), (Acks::All, true)] {
        let mut sim = build(Setup { acks, idempotent: Some(idempotent), ..Setup::default() });
        let old = leader(&sim).expect("leader");
        produce(&mut sim, "A");
        run(&mut sim, 5);
        sim.apply(BrokerCommand::CrashBroker { broker: old }).expect("crash");
        run(&mut sim, 1);
        // A quick restart: the controller fences the old incarnation and moves leadership.
        sim.apply(BrokerCommand::RestartBroker { broker: old }).expect("restart");
        assert_ne!(leader(&sim), Some(old));
        produce(&mut sim, "B");
        run(&mut sim, 3_000);
        let values = leader_values(&sim);
        let m = monitors(&sim);
        let reordered = m.findings().iter().any(|f| matches!(f.kind, FindingKind::OrderViolated { .. }));
        if idempotent {
            assert_eq!(values, vec!["A", "B"], "idempotent producer keeps the order");
            assert!(!reordered);
        } else {
            assert_eq!(values, vec!["B", "A"], "A's retry lands after B");
            assert!(reordered, "the monitor reports the order violation");
        }
    }
}

#[test]
fn a_replica_that_led_an_epoch_the_new_leader_never_saw_truncates_to_their_common_epoch() {
    // KIP-101/KIP-279: the follower asks for the end of its last epoch; the leader only
    // has an older epoch, so the follower truncates to where that older epoch ends in
    // its own log — not merely to the leader's log end. (Found by the swarm test, seed 139.)
    let mut sim = build(Setup { acks: Acks::Leader, unclean: true, ..Setup::default() });
    let x = leader(&sim).expect("leader");
    produce(&mut sim, "a");
    run(&mut sim, 500);
    let y = followers(&sim)[0];
    let z = followers(&sim)[1];
    sim.apply(BrokerCommand::CrashBroker { broker: z }).expect("crash z");
    sim.apply(BrokerCommand::CrashBroker { broker: y }).expect("crash y");
    produce(&mut sim, "b");
    produce(&mut sim, "c");
    run(&mut sim, 3_000);
    sim.apply(BrokerCommand::IsolateBroker { broker: x }).expect("isolate x");
    run(&mut sim, 3_000);
    assert_eq!(leader(&sim), None, "x is fenced and nobody else is in the ISR");
    sim.apply(BrokerCommand::RestartBroker { broker: y }).expect("restart y");
    run(&mut sim, 500);
    assert_eq!(leader(&sim), Some(y), "unclean election: y leads without b and c");
    produce(&mut sim, "d");
    produce(&mut sim, "e");
    run(&mut sim, 500);
    assert_eq!(leader_values(&sim), vec!["a", "d", "e"]);
    sim.apply(BrokerCommand::CrashBroker { broker: y }).expect("crash y again");
    // x comes back while the dead y is still the leader on record: x cannot reach y, so
    // it must not truncate against y's log.
    sim.apply(BrokerCommand::HealBroker { broker: x }).expect("heal x");
    run(&mut sim, 3_000);
    assert_eq!(leader(&sim), Some(x), "x leads again with a, b, c");
    sim.apply(BrokerCommand::RestartBroker { broker: y }).expect("restart y");
    sim.apply(BrokerCommand::RestartBroker { broker: z }).expect("restart z");
    run(&mut sim, 3_000);
    let p = &sim.topic("t").expect("topic").partition(0).expect("partition");
    for b in [y, z] {
        let values: Vec<String> = p.log_on(b).expect("replica log").records().iter().map(|r| r.record.value.to_string()).collect();
        assert_eq!(values, vec!["a", "b", "c"], "broker {b} matches the leader");
    }
}

// ----- KIP-320: a consumer's position after an unclean election ---------------------

fn pause(sim: &mut Sim, client_id: &str, paused: bool) {
    sim.apply(GroupCommand::PauseMember { group: "g".into(), client_id: client_id.into(), paused }).expect("pause");
}

/// KIP-320's scene: `a`, `b` on every replica; `x`, `y`, `z` on the leader alone (the slow
/// followers left the ISR; min.insync.replicas=1) and read by "c", whose position is 5 with
/// offset epoch 0. "c" stops polling; the leader crashes; an out-of-sync follower is elected
/// unclean at epoch 1 holding only `a`, `b`, and takes `n1`..`n4` at offsets 2..5. Then "c"
/// polls again.
fn truncated_under_the_consumer(reset: OffsetReset) -> Sim {
    // Not idempotent: the records the election truncated leave a gap in the producer's
    // sequence numbers, which an idempotent producer repairs with an epoch bump (KIP-360),
    // not what this test is about.
    let mut sim = build(Setup { acks: Acks::All, min_isr: 1, unclean: true, reset, idempotent: Some(false), ..Setup::default() });
    produce(&mut sim, "a");
    produce(&mut sim, "b");
    run(&mut sim, 1_000);
    let old = leader(&sim).expect("leader");
    slow_followers(&mut sim, 60_000);
    for v in ["x", "y", "z"] {
        produce(&mut sim, v);
    }
    run(&mut sim, 2_000);
    assert_eq!(received(&sim), ["a", "b", "x", "y", "z"], "c read what the leader alone committed");
    pause(&mut sim, "c", true);
    sim.apply(BrokerCommand::CrashBroker { broker: old }).expect("crash");
    run(&mut sim, 2_500);
    let new = leader(&sim).expect("an out-of-sync replica is elected unclean");
    assert_ne!(new, old);
    for v in ["n1", "n2", "n3", "n4"] {
        produce(&mut sim, v);
    }
    run(&mut sim, 1_000);
    assert_eq!(leader_values(&sim), ["a", "b", "n1", "n2", "n3", "n4"], "the new leader wrote over offsets 2..5");
    pause(&mut sim, "c", false);
    run(&mut sim, 2_000);
    sim
}

fn truncations(sim: &Sim) -> Vec<(u64, u32, u64)> {
    sim.trace()
        .events()
        .filter_map(|e| match &e.kind {
            EventKind::Consume(ConsumeEvent::TruncationDetected { from, offset_epoch, to, .. }) => Some((*from, *offset_epoch, *to)),
            _ => None,
        })
        .collect()
}

#[test]
fn after_an_unclean_election_the_consumer_resumes_where_the_logs_diverge_not_at_its_old_position() {
    // Kafka's consumer validates its position against the new leader (OffsetsForLeaderEpoch
    // for epoch 0 answers 2) and rewinds to offset 2; resuming at its old position 5 would
    // skip n1..n3, records that are in the log and were never read.
    let sim = truncated_under_the_consumer(OffsetReset::Earliest);
    assert_eq!(truncations(&sim), [(5, 0, 2)]);
    assert_eq!(received(&sim), ["a", "b", "x", "y", "z", "n1", "n2", "n3", "n4"]);
}

#[test]
fn a_new_owner_validates_the_committed_offset_and_reads_from_the_divergence_point() {
    // The committed offset carries its leader epoch (OffsetCommit's committedLeaderEpoch):
    // a consumer given the partition later validates it like its own position.
    let mut sim = build(Setup { acks: Acks::All, min_isr: 1, unclean: true, idempotent: Some(false), ..Setup::default() });
    produce(&mut sim, "a");
    run(&mut sim, 1_000);
    let old = leader(&sim).expect("leader");
    slow_followers(&mut sim, 60_000);
    for v in ["x", "y"] {
        produce(&mut sim, v);
    }
    run(&mut sim, 2_000);
    sim.apply(GroupCommand::RemoveMember { group: "g".into(), client_id: "c".into() }).expect("close c");
    run(&mut sim, 500);
    assert_eq!(sim.group("g").expect("g").committed_offsets().map(|(_, o)| o).collect::<Vec<_>>(), [3], "c committed 3 on close");
    sim.apply(BrokerCommand::CrashBroker { broker: old }).expect("crash");
    run(&mut sim, 2_500);
    assert!(leader(&sim).is_some_and(|l| l != old), "unclean election");
    for v in ["n1", "n2", "n3"] {
        produce(&mut sim, v);
    }
    run(&mut sim, 1_000);
    sim.apply(GroupCommand::AddMember { group: "g".into(), member: MemberSpec::new("c2") }).expect("c2 joins");
    run(&mut sim, 5_000);
    assert_eq!(truncations(&sim), [(3, 0, 1)]);
    let c2: Vec<String> =
        sim.group("g").and_then(|g| g.member("c2")).map(|m| m.received().map(|d| d.value.to_string()).collect()).unwrap_or_default();
    assert_eq!(c2, ["n1", "n2", "n3"], "from offset 1, not from the committed 3");
}

#[test]
fn a_clean_leader_change_validates_the_position_and_changes_nothing() {
    let mut sim = build(Setup::default());
    for v in ["a", "b", "c"] {
        produce(&mut sim, v);
    }
    run(&mut sim, 1_000);
    let old = leader(&sim).expect("leader");
    sim.apply(BrokerCommand::CrashBroker { broker: old }).expect("crash");
    run(&mut sim, 2_500);
    assert!(leader(&sim).is_some_and(|l| l != old), "a clean election from the ISR");
    for v in ["d", "e"] {
        produce(&mut sim, v);
    }
    run(&mut sim, 2_000);
    assert!(truncations(&sim).is_empty(), "nothing was truncated");
    assert_eq!(received(&sim), ["a", "b", "c", "d", "e"]);
}
