//! The KRaft controller's decisions, scenario by scenario: where a group's coordinator is
//! while its broker is down, the preferred-leader rebalance, controlled shutdown, and the
//! eligible leader replicas of KIP-966 (Kafka 4.1+) against 4.0.

use kafka_sandbox_core::command::{BrokerCommand, GroupSpec, MemberSpec, ProduceCommand, TopicCommand};
use kafka_sandbox_core::config::{Acks, ClusterConfig, GroupConfig, KafkaVersion, OffsetReset, ProducerConfig};
use kafka_sandbox_core::error::Problem;
use kafka_sandbox_core::event::{ClusterEvent, EventKind, ProduceEvent, ReplicationEvent};
use kafka_sandbox_core::monitor::Monitors;
use kafka_sandbox_core::scenario::{ProducerSpec, Scenario, TopicSpec};
use kafka_sandbox_core::{Sim, SimTime};

/// Three brokers (session timeout 9000 ms, Kafka's), topic "t" with one partition on all
/// three, producer "p" (acks=all), group "g" with consumer "c".
fn scenario(version: KafkaVersion, min_isr: u32) -> Scenario {
    Scenario {
        seed: 5,
        cluster: ClusterConfig {
            brokers: 3,
            network_latency_ms: 10,
            group_initial_rebalance_delay_ms: 0,
            kafka_version: version,
            ..ClusterConfig::default()
        },
        topics: vec![TopicSpec {
            name: "t".into(),
            partitions: 1,
            replication_factor: 3,
            min_insync_replicas: min_isr,
            ..TopicSpec::default()
        }],
        producers: vec![ProducerSpec {
            name: "p".into(),
            config: ProducerConfig { acks: Acks::All, linger_ms: 0, ..ProducerConfig::default() },
            ..ProducerSpec::default()
        }],
        groups: vec![GroupSpec {
            id: "g".into(),
            topics: vec!["t".into()],
            config: GroupConfig { auto_offset_reset: OffsetReset::Earliest, ..GroupConfig::default() },
            members: vec![MemberSpec::new("c")],
            ..GroupSpec::default()
        }],
        ..Scenario::default()
    }
}

fn build(version: KafkaVersion, min_isr: u32) -> Sim {
    let mut sim = scenario(version, min_isr).build().expect("test scenario builds");
    sim.run_to(SimTime(5_000));
    sim
}

fn run(sim: &mut Sim, ms: u64) {
    let until = sim.now().plus_ms(ms);
    sim.run_to(until);
}

fn apply(sim: &mut Sim, c: BrokerCommand) {
    sim.apply(c).expect("broker command");
}

fn produce(sim: &mut Sim, value: &str) {
    let command = ProduceCommand::Produce {
        producer: "p".into(),
        topic: "t".into(),
        key: None,
        value: Some(value.into()),
        partition: None,
        headers: vec![],
    };
    sim.apply(command).expect("produce");
}

fn leader(sim: &Sim) -> Option<u32> {
    sim.topic("t").and_then(|t| t.partition(0)).and_then(|p| p.leader())
}

fn replicas(sim: &Sim) -> Vec<u32> {
    sim.topic("t").and_then(|t| t.partition(0)).map(|p| p.replicas().to_vec()).unwrap_or_default()
}

fn isr_elr(sim: &Sim) -> (Vec<u32>, Vec<u32>) {
    let p = sim.topic("t").and_then(|t| t.partition(0)).expect("t-0");
    (p.isr().to_vec(), p.elr().to_vec())
}

fn epoch(sim: &Sim) -> u32 {
    sim.topic("t").and_then(|t| t.partition(0)).map(|p| p.leader_epoch()).unwrap_or(0)
}

/// When the trace first shows an event matching `f`, from `since` on.
fn first_at(sim: &Sim, since: SimTime, f: impl Fn(&EventKind) -> bool) -> Option<SimTime> {
    sim.trace().events().find(|e| e.time >= since && f(&e.kind)).map(|e| e.time)
}

#[test]
fn a_crashed_coordinator_leaves_the_group_without_a_coordinator_until_the_broker_is_fenced() {
    let mut sim = build(KafkaVersion::V4_2, 1);
    let coordinator = sim.coordinator_of("g").expect("a coordinator");
    apply(&mut sim, BrokerCommand::CrashBroker { broker: coordinator });
    let crashed_at = sim.now();
    // The controller hears nothing for broker.session.timeout.ms: the crashed broker still
    // leads the group's __consumer_offsets partition, and clients find no coordinator.
    assert_eq!(sim.coordinator_of("g"), None, "no coordinator the instant it crashes");
    sim.run_to(crashed_at.plus_ms(8_999));
    assert_eq!(sim.coordinator_of("g"), None, "still none just before the fence");
    sim.run_to(crashed_at.plus_ms(9_001));
    let new = sim.coordinator_of("g").expect("the fence elects a new leader of the offsets partition");
    assert_ne!(new, coordinator);
    // The restarted broker does not take the group back: only the preferred-leader
    // election does, leader.imbalance.check.interval.seconds after the fence.
    apply(&mut sim, BrokerCommand::RestartBroker { broker: coordinator });
    sim.run_to(crashed_at.plus_ms(9_000 + 299_000));
    assert_eq!(sim.coordinator_of("g"), Some(new), "the coordinator stays where the failover put it");
    sim.run_to(crashed_at.plus_ms(9_000 + 301_000));
    assert_eq!(sim.coordinator_of("g"), Some(coordinator), "the preferred replica coordinates again");
    let g = sim.group("g").expect("group");
    assert!(g.members().any(|m| !m.assigned().is_empty()), "the group kept consuming");
}

#[test]
fn leadership_returns_to_the_preferred_replica_300_s_after_a_restart() {
    let mut sim = build(KafkaVersion::V4_2, 1);
    let preferred = replicas(&sim)[0];
    assert_eq!(leader(&sim), Some(preferred));
    apply(&mut sim, BrokerCommand::CrashBroker { broker: preferred });
    let crashed_at = sim.now();
    run(&mut sim, 10_000);
    let failover = leader(&sim).expect("a failover leader");
    assert_ne!(failover, preferred);
    let fenced_at = first_at(&sim, crashed_at, |k| matches!(k, EventKind::Cluster(ClusterEvent::BrokerFenced { .. }))).expect("fenced");
    apply(&mut sim, BrokerCommand::RestartBroker { broker: preferred });
    run(&mut sim, 5_000);
    assert!(isr_elr(&sim).0.contains(&preferred), "the restarted replica caught up");
    assert_eq!(leader(&sim), Some(failover), "a restart alone does not move leadership");
    let before = epoch(&sim);
    sim.run_to(fenced_at.plus_ms(299_999));
    assert_eq!(leader(&sim), Some(failover), "not before leader.imbalance.check.interval.seconds");
    sim.run_to(fenced_at.plus_ms(300_001));
    assert_eq!(leader(&sim), Some(preferred), "the preferred replica leads again");
    assert_eq!(epoch(&sim), before + 1, "a new leader epoch");
    let elected = first_at(&sim, fenced_at, |k| {
        matches!(k, EventKind::Replication(ReplicationEvent::PreferredLeaderElected { leader, previous, .. })
            if *leader == preferred && *previous == Some(failover))
    });
    assert_eq!(elected, Some(fenced_at.plus_ms(300_000)), "300 s after the controller saw the imbalance");
}

#[test]
fn with_auto_leader_rebalance_off_leadership_stays_with_the_failover_leader() {
    let mut s = scenario(KafkaVersion::V4_2, 1);
    s.cluster.auto_leader_rebalance_enable = false;
    let mut sim = s.build().expect("builds");
    sim.run_to(SimTime(5_000));
    let preferred = replicas(&sim)[0];
    apply(&mut sim, BrokerCommand::CrashBroker { broker: preferred });
    run(&mut sim, 10_000);
    let failover = leader(&sim).expect("a failover leader");
    apply(&mut sim, BrokerCommand::RestartBroker { broker: preferred });
    run(&mut sim, 600_000);
    assert_eq!(leader(&sim), Some(failover));
}

#[test]
fn a_controlled_shutdown_moves_leadership_at_once_and_loses_nothing() {
    let mut sim = build(KafkaVersion::V4_2, 2);
    let old = leader(&sim).expect("leader");
    for i in 0..5 {
        produce(&mut sim, &format!("a{i}"));
    }
    apply(&mut sim, BrokerCommand::ShutdownBroker { broker: old });
    let at = sim.now();
    for i in 0..5 {
        produce(&mut sim, &format!("b{i}"));
    }
    // The controller elected a new leader in the same moment: no session timeout.
    let new = leader(&sim).expect("a new leader at once");
    assert_ne!(new, old);
    assert!(!isr_elr(&sim).0.contains(&old), "out of every ISR");
    let elected =
        first_at(&sim, at, |k| matches!(k, EventKind::Replication(ReplicationEvent::LeaderElected { leader: Some(l), .. }) if *l == new));
    assert_eq!(elected, Some(at));
    run(&mut sim, 2_000);
    let acked: Vec<String> = sim
        .trace()
        .events()
        .filter_map(|e| match &e.kind {
            EventKind::Produce(ProduceEvent::RecordAcked { value, .. }) => Some(value.to_string()),
            _ => None,
        })
        .collect();
    assert_eq!(acked.len(), 10, "every record acknowledged within two seconds: {acked:?}");
    let last_ack = sim.trace().events().rfind(|e| matches!(e.kind, EventKind::Produce(ProduceEvent::RecordAcked { .. })));
    assert!(last_ack.is_some_and(|e| e.time < at.plus_ms(1_000)), "no 9 s outage");
    let mut m = Monitors::new();
    for e in sim.trace().events() {
        m.observe(e);
    }
    assert!(m.findings().is_empty(), "{:?}", m.findings());
    assert!(!sim.broker(old).expect("broker").alive(), "the process stopped");
    // Restarting it is restart_broker; it follows and rejoins the ISR.
    apply(&mut sim, BrokerCommand::RestartBroker { broker: old });
    run(&mut sim, 3_000);
    assert_eq!(isr_elr(&sim).0.len(), 3);
}

/// RF 3, min.insync.replicas 2: two followers shut down (cleanly), so the ISR is the leader
/// alone and the second follower joined the ELR; then the leader crashes.
fn leader_alone_then_crashed(version: KafkaVersion) -> (Sim, u32, u32) {
    let mut sim = build(version, 2);
    produce(&mut sim, "x");
    run(&mut sim, 500);
    let r = replicas(&sim);
    let (l, a, b) = (r[0], r[1], r[2]);
    apply(&mut sim, BrokerCommand::ShutdownBroker { broker: b });
    run(&mut sim, 100);
    apply(&mut sim, BrokerCommand::ShutdownBroker { broker: a });
    run(&mut sim, 100);
    assert_eq!(isr_elr(&sim).0, vec![l]);
    apply(&mut sim, BrokerCommand::CrashBroker { broker: l });
    run(&mut sim, 10_000);
    assert_eq!(leader(&sim), None, "offline once the leader is fenced");
    apply(&mut sim, BrokerCommand::RestartBroker { broker: a });
    run(&mut sim, 1_000);
    (sim, l, a)
}

#[test]
fn with_elr_a_replica_that_left_the_shrunken_isr_is_elected_when_the_isr_empties() {
    let (sim, l, a) = leader_alone_then_crashed(KafkaVersion::V4_2);
    // KIP-966: `a` left the ISR when it was below min.insync.replicas, so it holds every
    // committed record (the HW stopped); the controller elects it, cleanly.
    assert_eq!(leader(&sim), Some(a));
    assert_eq!(isr_elr(&sim), (vec![a], vec![l]), "the ISR is the ELR member; the crashed leader stays eligible");
    let p = sim.topic("t").and_then(|t| t.partition(0)).expect("t-0");
    assert!(p.leader_log().is_some_and(|log| log.records().iter().any(|r| r.record.value == "x")), "nothing committed lost");
    assert!(!sim.trace().events().any(|e| matches!(e.kind, EventKind::Replication(ReplicationEvent::LeaderElected { unclean: true, .. }))));
}

#[test]
fn updating_min_insync_replicas_clears_the_eligible_leader_replicas() {
    // KAFKA-16540: any update of a topic's min.insync.replicas, even to the same value,
    // clears its ELR (`ClearElrRecord`); `a` is then no longer eligible and the partition
    // stays offline when the leader is lost, where it would have been elected.
    let mut sim = build(KafkaVersion::V4_2, 2);
    produce(&mut sim, "x");
    run(&mut sim, 500);
    let r = replicas(&sim);
    let (l, a, b) = (r[0], r[1], r[2]);
    apply(&mut sim, BrokerCommand::ShutdownBroker { broker: b });
    run(&mut sim, 100);
    apply(&mut sim, BrokerCommand::ShutdownBroker { broker: a });
    run(&mut sim, 100);
    assert_eq!(isr_elr(&sim), (vec![l], vec![a]));
    let since = sim.now();
    sim.apply(TopicCommand::SetTopicConfig { topic: "t".into(), min_insync_replicas: Some(2), unclean_leader_election_enable: None })
        .expect("same value");
    assert_eq!(isr_elr(&sim), (vec![l], vec![]), "cleared");
    assert!(first_at(
        &sim,
        since,
        |k| matches!(k, EventKind::Replication(ReplicationEvent::EligibleLeadersChanged { elr, .. }) if elr.is_empty())
    )
    .is_some());
    apply(&mut sim, BrokerCommand::CrashBroker { broker: l });
    run(&mut sim, 10_000);
    apply(&mut sim, BrokerCommand::RestartBroker { broker: a });
    run(&mut sim, 1_000);
    assert_eq!(leader(&sim), None, "a left the ELR with the update: not eligible");
    // On 4.0 (no ELR) the update changes nothing of the kind.
    let mut sim = build(KafkaVersion::V4_0, 2);
    run(&mut sim, 500);
    let since = sim.now();
    sim.apply(TopicCommand::SetTopicConfig { topic: "t".into(), min_insync_replicas: Some(2), unclean_leader_election_enable: None })
        .expect("same value");
    assert!(first_at(&sim, since, |k| matches!(k, EventKind::Replication(ReplicationEvent::EligibleLeadersChanged { .. }))).is_none());
}

#[test]
fn kafka_4_0_keeps_the_partition_offline_where_4_2_elects_from_the_elr() {
    let (sim, l, _) = leader_alone_then_crashed(KafkaVersion::V4_0);
    // Without ELR the last ISR member stays in the ISR, down, and nobody else may lead.
    assert_eq!(leader(&sim), None);
    assert_eq!(isr_elr(&sim), (vec![l], vec![]));
}

#[test]
fn with_elr_the_last_isr_member_is_elected_after_the_isr_empties() {
    for version in [KafkaVersion::V4_0, KafkaVersion::V4_2] {
        let mut sim = build(version, 1);
        let r = replicas(&sim);
        let l = r[0];
        produce(&mut sim, "x");
        run(&mut sim, 500);
        for f in &r[1..] {
            apply(&mut sim, BrokerCommand::CrashBroker { broker: *f });
        }
        run(&mut sim, 10_000);
        assert_eq!(isr_elr(&sim), (vec![l], vec![]), "{version}: min.insync.replicas 1, so no ELR yet");
        apply(&mut sim, BrokerCommand::CrashBroker { broker: l });
        run(&mut sim, 10_000);
        assert_eq!(leader(&sim), None);
        let (isr, elr) = isr_elr(&sim);
        if version.eligible_leader_replicas() {
            assert_eq!((isr, elr), (vec![], vec![l]), "4.2: the ISR empties, its last member becomes eligible");
        } else {
            assert_eq!((isr, elr), (vec![l], vec![]), "4.0: the last member stays in the ISR");
        }
        apply(&mut sim, BrokerCommand::RestartBroker { broker: l });
        run(&mut sim, 1_000);
        assert_eq!(leader(&sim), Some(l), "{version}: the last ISR member leads again");
        let p = sim.topic("t").and_then(|t| t.partition(0)).expect("t-0");
        assert!(p.elr().is_empty(), "{version}: a broker back from a crash leaves the ELR (KAFKA-15586)");
        assert!(p.leader_log().is_some_and(|log| log.records().iter().any(|r| r.record.value == "x")));
        // 4.2 elects it as the last known leader (`canElectLastKnownLeader`, an election
        // Kafka calls unclean); 4.0 from the ISR it never left.
        let unclean =
            sim.trace().events().any(|e| matches!(e.kind, EventKind::Replication(ReplicationEvent::LeaderElected { unclean: true, .. })));
        assert_eq!(unclean, version.eligible_leader_replicas(), "{version}");
    }
}

#[test]
fn groups_on_fewer_brokers_than_the_offsets_topic_replication_factor_are_refused() {
    let mut s = scenario(KafkaVersion::V4_2, 1);
    s.cluster.brokers = 2;
    s.topics[0].replication_factor = 2;
    let e = s.build().map(drop).expect_err("refused");
    assert_eq!(e.path, "cluster.offsets_topic_replication_factor");
    assert_eq!(e.problem, Problem::OffsetsTopicReplication { replication_factor: 3, brokers: 2 });
    assert!(e.to_string().contains("set it to 1, as Kafka's single-broker config/server.properties does"), "{e}");
    s.cluster.offsets_topic_replication_factor = 2;
    let mut sim = s.build().expect("allowed at the broker count");
    sim.run_to(SimTime(5_000));
    assert!(sim.coordinator_of("g").is_some());
    // Without groups the setting does not matter.
    let mut s = scenario(KafkaVersion::V4_2, 1);
    s.cluster.brokers = 1;
    s.topics[0].replication_factor = 1;
    s.groups.clear();
    assert!(s.build().is_ok());
}

#[test]
fn a_coordinator_failover_gives_every_member_a_fresh_session() {
    // session.timeout.ms 10 s against a 9 s outage plus the time to find the new
    // coordinator: the new coordinator reschedules every member's session when it loads
    // the group (`GroupMetadataManager.onLoaded`), so nobody is expired for the outage.
    let mut s = scenario(KafkaVersion::V4_2, 1);
    s.groups[0].members = vec![MemberSpec::new("c"), MemberSpec::new("d")];
    for m in &mut s.groups[0].members {
        m.config.session_timeout_ms = 10_000;
        m.config.heartbeat_interval_ms = 3_000;
    }
    let mut sim = s.build().expect("builds");
    sim.run_to(SimTime(8_000));
    let coordinator = sim.coordinator_of("g").expect("a coordinator");
    let generation = sim.read().group("g").expect("g").generation();
    apply(&mut sim, BrokerCommand::CrashBroker { broker: coordinator });
    run(&mut sim, 30_000);
    let left = sim.trace().events().any(|e| matches!(&e.kind, EventKind::Group(kafka_sandbox_core::event::GroupEvent::MemberLeft { .. })));
    assert!(!left, "no member expired for the coordinator's outage");
    assert_eq!(sim.read().group("g").expect("g").generation(), generation, "no rebalance");
}
