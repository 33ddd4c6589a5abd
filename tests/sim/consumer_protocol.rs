//! The KIP-848 consumer protocol (`group.protocol=consumer`), scenario by scenario: the
//! broker computes the target assignment, members reconcile on their own heartbeats, and
//! nobody who keeps a partition stops consuming — compared with the classic protocol on
//! the same membership change.

use kafka_sandbox_core::assign::server::ServerAssignor;
use kafka_sandbox_core::assign::Strategy;
use kafka_sandbox_core::command::{GroupCommand, ProduceCommand, TopicCommand};
use kafka_sandbox_core::command::{GroupSpec, MemberSpec};
use kafka_sandbox_core::config::{ClusterConfig, ConsumerConfig, GroupConfig, GroupProtocol, OffsetReset, ProducerConfig};
use kafka_sandbox_core::event::{ConsumeEvent, ConsumerProtocolEvent, GroupEvent};
use kafka_sandbox_core::event::{EventKind, GroupError, LeaveReason, RebalanceCause};
use kafka_sandbox_core::group::{CommitMode, GroupState, Reconcile};
use kafka_sandbox_core::record::TopicPartition;
use kafka_sandbox_core::scenario::{ProducerSpec, Scenario, TopicSpec};
use kafka_sandbox_core::{Sim, SimTime};

fn member(client_id: &str, instance: Option<&str>) -> MemberSpec {
    MemberSpec {
        client_id: client_id.into(),
        group_instance_id: instance.map(str::to_string),
        topics: None,
        config: ConsumerConfig { commit_mode: CommitMode::SyncAfterProcessing, processing_ms: 20, ..ConsumerConfig::default() },
        ..MemberSpec::default()
    }
}

/// How the group rebalances: classic with a client assignor, or the consumer protocol.
#[derive(Clone, Copy, Debug)]
enum Protocol {
    Classic(Strategy),
    Consumer(ServerAssignor),
}

/// Three brokers, topic "t" with `partitions`, a round-robin producer "p", group "g".
fn build(protocol: Protocol, partitions: u32, members: Vec<MemberSpec>) -> Sim {
    build_with(protocol, partitions, members, &[])
}

/// `build` with more topics (name, partitions) that nobody subscribes to yet.
fn build_with(protocol: Protocol, partitions: u32, members: Vec<MemberSpec>, more: &[(&str, u32)]) -> Sim {
    let config = match protocol {
        Protocol::Classic(assignor) => GroupConfig { assignor, auto_offset_reset: OffsetReset::Earliest, ..GroupConfig::default() },
        Protocol::Consumer(remote) => GroupConfig {
            auto_offset_reset: OffsetReset::Earliest,
            group_protocol: GroupProtocol::Consumer,
            remote_assignor: remote,
            ..GroupConfig::default()
        },
    };
    let scenario = Scenario {
        seed: 11,
        cluster: ClusterConfig { brokers: 3, network_latency_ms: 10, group_initial_rebalance_delay_ms: 0, ..ClusterConfig::default() },
        topics: std::iter::once(("t", partitions))
            .chain(more.iter().copied())
            .map(|(name, partitions)| TopicSpec { name: name.into(), partitions, ..TopicSpec::default() })
            .collect(),
        producers: vec![ProducerSpec {
            name: "p".into(),
            config: ProducerConfig {
                partitioner: kafka_sandbox_core::partitioner::PartitionerKind::RoundRobin,
                linger_ms: 0,
                ..ProducerConfig::default()
            },
            ..ProducerSpec::default()
        }],
        groups: vec![GroupSpec { id: "g".into(), topics: vec!["t".into()], config, members, ..GroupSpec::default() }],
        ..Scenario::default()
    };
    let mut sim = scenario.build().expect("builds");
    sim.run_to(SimTime(12_000));
    sim
}

/// Produces a record every 50 ms from now until `until`, stepping the simulation.
fn produce_until(sim: &mut Sim, until: u64) {
    let mut i = 0;
    while sim.now().ms() < until {
        sim.apply(ProduceCommand::Produce {
            producer: "p".into(),
            topic: "t".into(),
            key: None,
            value: Some(format!("v{i}")),
            partition: None,
            headers: vec![],
        })
        .expect("produce");
        i += 1;
        let next = sim.now().plus_ms(50);
        sim.run_to(next);
    }
}

fn assigned(sim: &Sim, client: &str) -> Vec<u32> {
    sim.group("g").and_then(|g| g.member(client)).map(|m| m.assigned().iter().map(|tp| tp.partition).collect()).unwrap_or_default()
}

fn events(sim: &Sim) -> Vec<EventKind> {
    sim.trace().events().map(|e| e.kind.clone()).collect()
}

fn stable(sim: &Sim) -> bool {
    sim.group("g").is_some_and(|g| g.state() == GroupState::Stable)
}

#[test]
fn a_fresh_group_gets_the_uniform_assignment_without_join_or_sync() {
    let sim = build(Protocol::Consumer(ServerAssignor::Uniform), 6, vec![member("c1", None), member("c2", None), member("c3", None)]);
    let g = sim.group("g").expect("group");
    assert_eq!(g.state(), GroupState::Stable);
    // Three joins, three epochs; the target is computed by the broker at each.
    assert_eq!(g.generation(), 3);
    assert_eq!(g.assignment_epoch(), 3);
    let all: Vec<EventKind> = events(&sim);
    assert!(!all
        .iter()
        .any(|e| matches!(e, EventKind::Group(GroupEvent::JoinGroupSent { .. }) | EventKind::Group(GroupEvent::SyncGroupSent { .. }))));
    assert_eq!(
        all.iter().filter(|e| matches!(e, EventKind::ConsumerProtocol(ConsumerProtocolEvent::TargetAssignmentComputed { .. }))).count(),
        3
    );
    // Balanced: two partitions each, every partition once.
    let mut seen: Vec<u32> = ["c1", "c2", "c3"].iter().flat_map(|c| assigned(&sim, c)).collect();
    seen.sort_unstable();
    assert_eq!(seen, vec![0, 1, 2, 3, 4, 5]);
    for c in ["c1", "c2", "c3"] {
        assert_eq!(assigned(&sim, c).len(), 2, "{c}");
        let m = g.member(c).expect("member");
        // KIP-1082: a 22-character Kafka Uuid made by the consumer.
        assert_eq!(m.member_id().len(), 22, "{}", m.member_id());
        assert_eq!(m.reconcile(), Some(Reconcile::Stable));
    }
}

#[test]
fn the_range_server_assignor_gives_contiguous_ranges_in_member_id_order() {
    let sim = build(Protocol::Consumer(ServerAssignor::Range), 7, vec![member("c1", None), member("c2", None), member("c3", None)]);
    let g = sim.group("g").expect("group");
    let mut by_id: Vec<(&str, &str)> = g.members().map(|m| (m.member_id(), m.client_id())).collect();
    by_id.sort();
    let ranges: Vec<Vec<u32>> = by_id.iter().map(|(_, c)| assigned(&sim, c)).collect();
    assert_eq!(ranges, vec![vec![0, 1, 2], vec![3, 4], vec![5, 6]]);
}

/// The heart of KIP-848: when a member joins, the others keep consuming what they keep;
/// only the partitions that move pause, and no partition has two owners at any time.
#[test]
fn a_join_pauses_only_the_moving_partitions() {
    let mut sim = build(Protocol::Consumer(ServerAssignor::Uniform), 6, vec![member("c1", None), member("c2", None)]);
    assert!(stable(&sim));
    let before: Vec<(String, Vec<u32>)> = ["c1", "c2"].iter().map(|c| (c.to_string(), assigned(&sim, c))).collect();
    let cursor = sim.trace().total();
    sim.apply(GroupCommand::AddMember { group: "g".into(), member: member("c3", None) }).expect("add");
    // Step event by event: never two owners of one partition.
    let until = sim.now().plus_ms(30_000);
    while sim.next_event_time().is_some_and(|t| t <= until) {
        sim.step();
        let g = sim.group("g").expect("group");
        let mut owned: Vec<&TopicPartition> = g.members().flat_map(|m| m.assigned().iter()).collect();
        let n = owned.len();
        owned.sort();
        owned.dedup();
        assert_eq!(owned.len(), n, "a partition with two owners at {}", sim.now().ms());
    }
    produce_until(&mut sim, until.ms() + 2_000);
    assert!(stable(&sim));
    let g = sim.group("g").expect("group");
    assert_eq!(g.generation(), 3);
    for (c, old) in &before {
        let now = assigned(&sim, c);
        assert_eq!(now.len(), 2, "{c}: {now:?}");
        // Sticky: each old member keeps two of its three partitions...
        assert!(now.iter().all(|p| old.contains(p)), "{c} moved from {old:?} to {now:?}");
        // ... and never stopped consuming them.
        assert_eq!(g.member(c).map(|m| m.rebalance_stopped_ms()), Some(0), "{c}");
    }
    assert_eq!(assigned(&sim, "c3").len(), 2);
    // Each old member revoked exactly one partition, before c3 got it.
    let later: Vec<EventKind> = sim.events_since(cursor).map(|e| e.kind.clone()).collect();
    let revoked: Vec<(String, Vec<TopicPartition>)> = later
        .iter()
        .filter_map(|e| match e {
            EventKind::Group(GroupEvent::PartitionsRevoked { client_id, partitions, .. }) => Some((client_id.clone(), partitions.clone())),
            _ => None,
        })
        .collect();
    assert_eq!(revoked.len(), 2, "{revoked:?}");
    assert!(revoked.iter().all(|(_, ps)| ps.len() == 1));
    assert!(later.iter().any(
        |e| matches!(e, EventKind::ConsumerProtocol(ConsumerProtocolEvent::MemberReconciling { revoking, .. }) if revoking.len() == 1)
    ));
    assert!(later
        .iter()
        .any(|e| matches!(e, EventKind::ConsumerProtocol(ConsumerProtocolEvent::MemberReconciling { client_id, unreleased, .. }) if client_id == "c3" && unreleased.len() == 2)));
    // No JoinGroup round: no RebalanceStarted, a group epoch instead.
    assert!(!later.iter().any(|e| matches!(e, EventKind::Group(GroupEvent::RebalanceStarted { .. }))));
    assert!(later.iter().any(|e| matches!(
        e,
        EventKind::ConsumerProtocol(ConsumerProtocolEvent::GroupEpochBumped { epoch: 3, cause: RebalanceCause::MemberJoined { .. }, .. })
    )));
}

/// The same join under the three protocols: eager stops every member and revokes every
/// partition; cooperative and KIP-848 revoke only the partitions that move and nobody
/// stops. (Total partition downtime is not ranked: it depends on heartbeat intervals,
/// batch lengths and the barrier, which is what the page's comparison shows.)
#[test]
fn eager_cooperative_and_consumer_protocol_compared_on_one_join() {
    let run = |protocol: Protocol| {
        let mut sim = build(protocol, 6, vec![member("c1", None), member("c2", None)]);
        produce_until(&mut sim, 14_000);
        let cursor = sim.trace().total();
        let joined = sim.now();
        sim.apply(GroupCommand::AddMember { group: "g".into(), member: member("c3", None) }).expect("add");
        produce_until(&mut sim, 60_000);
        let g = sim.group("g").expect("group");
        assert_eq!(g.state(), GroupState::Stable, "{protocol:?}");
        let paused: Vec<u64> = ["c1", "c2"].iter().map(|c| g.member(c).map(|m| m.rebalance_stopped_ms()).unwrap_or(0)).collect();
        let revoked: usize = sim
            .events_since(cursor)
            .map(|e| match &e.kind {
                EventKind::Group(GroupEvent::PartitionsRevoked { partitions, .. }) => partitions.len(),
                _ => 0,
            })
            .sum();
        let c3_first = sim
            .events_since(cursor)
            .find(|e| matches!(&e.kind, EventKind::Consume(ConsumeEvent::RecordDelivered { client_id, .. }) if client_id == "c3"))
            .map(|e| e.time.ms() - joined.ms());
        (paused, revoked, g.partition_downtime_ms(), c3_first, g.unprocessed())
    };
    let (eager_paused, eager_revoked, eager_down, eager_first, eager_lost) = run(Protocol::Classic(Strategy::Range));
    let (coop_paused, coop_revoked, coop_down, coop_first, coop_lost) = run(Protocol::Classic(Strategy::CooperativeSticky));
    let (cg_paused, cg_revoked, cg_down, cg_first, cg_lost) = run(Protocol::Consumer(ServerAssignor::Uniform));
    // Eager: both old members stopped; everything was revoked.
    assert!(eager_paused.iter().all(|p| *p > 0), "{eager_paused:?}");
    assert_eq!(eager_revoked, 6);
    // Cooperative and KIP-848: nobody stopped; only the two moving partitions were revoked.
    assert_eq!(coop_paused, vec![0, 0]);
    assert_eq!(cg_paused, vec![0, 0]);
    assert_eq!((coop_revoked, cg_revoked), (2, 2));
    assert!(eager_down > 0 && coop_down > 0 && cg_down > 0, "{eager_down} {coop_down} {cg_down}");
    // The newcomer consumes within a few heartbeat intervals under every protocol.
    for first in [eager_first, coop_first, cg_first] {
        assert!(first.is_some_and(|ms| ms < 15_000), "{first:?}");
    }
    // Commits after processing: nothing lost by any of them.
    assert_eq!((eager_lost, coop_lost, cg_lost), (0, 0, 0));
}

#[test]
fn a_graceful_leave_hands_partitions_over_at_the_next_heartbeats() {
    let mut sim = build(Protocol::Consumer(ServerAssignor::Uniform), 4, vec![member("c1", None), member("c2", None)]);
    let left_at = sim.now();
    sim.apply(GroupCommand::RemoveMember { group: "g".into(), client_id: "c2".into() }).expect("leave");
    // Within two heartbeat intervals (5 s each) c1 owns everything.
    sim.run_to(left_at.plus_ms(10_100));
    assert_eq!(assigned(&sim, "c1"), vec![0, 1, 2, 3]);
    assert!(stable(&sim));
    assert!(events(&sim)
        .iter()
        .any(|e| matches!(e, EventKind::ConsumerProtocol(ConsumerProtocolEvent::ConsumerHeartbeatSent { client_id, member_epoch: -1, .. }) if client_id == "c2")));
    assert!(events(&sim).iter().any(
        |e| matches!(e, EventKind::Group(GroupEvent::MemberLeft { client_id, reason: LeaveReason::Graceful, .. }) if client_id == "c2")
    ));
}

#[test]
fn a_crash_waits_for_the_brokers_session_timeout() {
    let mut sim = build(Protocol::Consumer(ServerAssignor::Uniform), 4, vec![member("c1", None), member("c2", None)]);
    let crashed_at = sim.now();
    sim.apply(GroupCommand::CrashMember { group: "g".into(), client_id: "c2".into() }).expect("crash");
    // group.consumer.session.timeout.ms = 45000 from its last heartbeat (at most 5 s
    // before the crash): still a member 39 s after.
    sim.run_to(crashed_at.plus_ms(39_000));
    assert_eq!(sim.group("g").map(|g| g.registered().count()), Some(2));
    assert_eq!(assigned(&sim, "c1").len(), 2);
    sim.run_to(crashed_at.plus_ms(56_000));
    assert_eq!(sim.group("g").map(|g| g.registered().count()), Some(1));
    assert_eq!(assigned(&sim, "c1"), vec![0, 1, 2, 3]);
    assert!(events(&sim)
        .iter()
        .any(|e| matches!(e, EventKind::Group(GroupEvent::MemberLeft { client_id, reason: LeaveReason::SessionTimeout, .. }) if client_id == "c2")));
}

#[test]
fn a_static_member_that_closes_and_returns_keeps_its_partitions_without_a_new_epoch() {
    let mut sim = build(Protocol::Consumer(ServerAssignor::Uniform), 4, vec![member("c1", Some("i1")), member("c2", Some("i2"))]);
    let mine = assigned(&sim, "c2");
    let epoch = sim.group("g").map(|g| g.generation());
    sim.apply(GroupCommand::RemoveMember { group: "g".into(), client_id: "c2".into() }).expect("close");
    sim.run_to(sim.now().plus_ms(10_000));
    // Epoch -2: its partitions wait for it; c1 does not get them.
    assert_eq!(assigned(&sim, "c1").len(), 2);
    assert_eq!(sim.group("g").map(|g| g.generation()), epoch);
    sim.apply(GroupCommand::AddMember { group: "g".into(), member: member("c2", Some("i2")) }).expect("back");
    sim.run_to(sim.now().plus_ms(10_000));
    assert_eq!(assigned(&sim, "c2"), mine);
    assert_eq!(sim.group("g").map(|g| g.generation()), epoch, "no new group epoch");
    assert!(events(&sim)
        .iter()
        .any(|e| matches!(e, EventKind::ConsumerProtocol(ConsumerProtocolEvent::ConsumerHeartbeatSent { member_epoch: -2, .. }))));
    assert!(events(&sim).iter().any(|e| matches!(e, EventKind::Group(GroupEvent::StaticMemberReplaced { .. }))));
}

#[test]
fn a_static_member_restarted_after_a_crash_fails_with_unreleased_instance_id() {
    let mut sim = build(Protocol::Consumer(ServerAssignor::Uniform), 4, vec![member("c1", Some("i1")), member("c2", Some("i2"))]);
    sim.apply(GroupCommand::CrashMember { group: "g".into(), client_id: "c2".into() }).expect("crash");
    sim.run_to(sim.now().plus_ms(5_000));
    sim.apply(GroupCommand::RestartMember { group: "g".into(), client_id: "c2".into() }).expect("restart");
    sim.run_to(sim.now().plus_ms(1_000));
    assert!(events(&sim)
        .iter()
        .any(|e| matches!(e, EventKind::ConsumerProtocol(ConsumerProtocolEvent::ConsumerFailed { client_id, error: GroupError::UnreleasedInstanceId, .. }) if client_id == "c2")));
    // After the old session expires, a restart joins as a new member.
    sim.run_to(sim.now().plus_ms(50_000));
    sim.apply(GroupCommand::RestartMember { group: "g".into(), client_id: "c2".into() }).expect("restart");
    sim.run_to(sim.now().plus_ms(15_000));
    assert!(stable(&sim));
    assert_eq!(assigned(&sim, "c2").len(), 2);
}

#[test]
fn a_member_that_stops_polling_leaves_and_rejoins_at_its_next_poll() {
    let mut m2 = member("c2", None);
    m2.config.max_poll_interval_ms = 10_000;
    let mut sim = build(Protocol::Consumer(ServerAssignor::Uniform), 4, vec![member("c1", None), m2]);
    produce_until(&mut sim, 13_000);
    sim.apply(GroupCommand::PauseMember { group: "g".into(), client_id: "c2".into(), paused: true }).expect("pause");
    // It leaves the moment max.poll.interval.ms has passed since its last poll; c1 takes
    // over at its own next heartbeat (5 s rhythm).
    produce_until(&mut sim, 31_000);
    let all = events(&sim);
    assert!(all.iter().any(
        |e| matches!(e, EventKind::Group(GroupEvent::MemberLeft { client_id, reason: LeaveReason::PollTimeout, .. }) if client_id == "c2")
    ));
    assert_eq!(assigned(&sim, "c1"), vec![0, 1, 2, 3]);
    // It comes back at its next poll.
    sim.apply(GroupCommand::PauseMember { group: "g".into(), client_id: "c2".into(), paused: false }).expect("resume");
    produce_until(&mut sim, 50_000);
    assert!(stable(&sim));
    assert_eq!(assigned(&sim, "c2").len(), 2);
}

#[test]
fn added_partitions_are_noticed_by_the_coordinator_at_the_next_heartbeat() {
    let mut sim = build(Protocol::Consumer(ServerAssignor::Uniform), 2, vec![member("c1", None), member("c2", None)]);
    let at = sim.now();
    sim.apply(TopicCommand::AddPartitions { topic: "t".into(), partitions: 4 }).expect("grow");
    sim.run_to(at.plus_ms(11_000));
    assert_eq!(assigned(&sim, "c1").len() + assigned(&sim, "c2").len(), 4);
    assert!(events(&sim)
        .iter()
        .any(|e| matches!(e, EventKind::ConsumerProtocol(ConsumerProtocolEvent::GroupEpochBumped { cause: RebalanceCause::TopicMetadataChanged { topic }, .. }) if topic == "t")));
}

#[test]
fn commits_from_an_old_epoch_are_refused_and_the_assignor_cannot_be_set() {
    let mut sim = build(Protocol::Consumer(ServerAssignor::Uniform), 4, vec![member("c1", None)]);
    let err = sim.apply(GroupCommand::SetAssignor { group: "g".into(), assignor: Strategy::Sticky }).expect_err("refused");
    assert!(err.to_string().contains("group.remote.assignor"), "{err}");
    // Every record produced is processed exactly once in a quiet group.
    produce_until(&mut sim, 20_000);
    sim.run_to(SimTime(25_000));
    let g = sim.group("g").expect("group");
    assert_eq!(g.duplicates(), 0);
    assert_eq!(g.unprocessed(), 0);
    assert_eq!(g.member("c1").map(|m| m.processed_total()), Some(160));
}

/// The built-in KIP-848 scenario does what its description says.
#[test]
fn the_built_in_kip_848_scenario_moves_one_partition_from_each_without_stopping_anyone() {
    let sim = crate::support::run_built_in("kip-848");
    let g = sim.group("ConsumerGroup01").expect("group");
    assert_eq!(g.state(), GroupState::Stable);
    assert_eq!(g.generation(), 3);
    for c in ["Consumer1", "Consumer2", "Consumer3"] {
        let m = g.member(c).expect("member");
        assert_eq!(m.assigned().len(), 2, "{c}");
        assert_eq!(m.rebalance_stopped_ms(), 0, "{c}");
    }
    // After Consumer3's join at 15 s, exactly one partition moves from each of the others.
    let revoked: Vec<(String, usize)> = sim
        .trace()
        .events()
        .filter(|e| e.time.ms() >= 15_000)
        .filter_map(|e| match &e.kind {
            EventKind::Group(GroupEvent::PartitionsRevoked { client_id, partitions, .. }) => Some((client_id.clone(), partitions.len())),
            _ => None,
        })
        .collect();
    assert_eq!(revoked.len(), 2, "{revoked:?}");
    assert!(revoked.iter().all(|(_, n)| *n == 1), "{revoked:?}");
    assert_eq!((g.duplicates(), g.unprocessed()), (0, 0));
}

#[test]
fn a_subscription_change_rebalances_under_both_protocols() {
    for protocol in [Protocol::Classic(Strategy::Range), Protocol::Consumer(ServerAssignor::Uniform)] {
        let mut sim = build(protocol, 4, vec![member("c1", None), member("c2", None)]);
        sim.apply(GroupCommand::Subscribe { group: "g".into(), client_id: "c2".into(), topics: vec!["t".into(), "nope".into()] })
            .expect_err("unknown topic refused");
        sim.apply(GroupCommand::Subscribe { group: "g".into(), client_id: "c1".into(), topics: vec![] }).expect_err("empty refused");
        sim.apply(GroupCommand::Subscribe { group: "g".into(), client_id: "c2".into(), topics: vec!["t".into()] }).expect("same topics");
        let before = sim.group("g").map(|g| g.generation()).unwrap_or(0);
        // Nothing changes when the topics are the same.
        sim.run_to(sim.now().plus_ms(12_000));
        assert_eq!(sim.group("g").map(|g| g.generation()), Some(before), "{protocol:?}");
        assert!(!events(&sim).iter().any(|e| matches!(e, EventKind::Group(GroupEvent::Subscribed { .. }))));
    }
}

#[test]
fn subscribe_to_another_topic_gives_up_the_old_ones_and_rebalances() {
    for protocol in [Protocol::Classic(Strategy::Range), Protocol::Consumer(ServerAssignor::Uniform)] {
        let mut sim = build_with(protocol, 4, vec![member("c1", None), member("c2", None)], &[("u", 2)]);
        assert_eq!(assigned(&sim, "c1").len() + assigned(&sim, "c2").len(), 4, "{protocol:?}");
        sim.apply(GroupCommand::Subscribe { group: "g".into(), client_id: "c2".into(), topics: vec!["u".into()] }).expect("subscribe");
        // Partitions of the topic it left are given up at once.
        assert!(sim.group("g").and_then(|g| g.member("c2")).is_some_and(|m| m.assigned().iter().all(|tp| tp.topic == "u")));
        sim.run_to(sim.now().plus_ms(15_000));
        let all = events(&sim);
        let cause = all.iter().any(|e| {
            matches!(
                e,
                EventKind::Group(GroupEvent::RebalanceStarted { cause: RebalanceCause::SubscriptionChanged { .. }, .. })
                    | EventKind::ConsumerProtocol(ConsumerProtocolEvent::GroupEpochBumped {
                        cause: RebalanceCause::SubscriptionChanged { .. },
                        ..
                    })
            )
        });
        assert!(cause, "{protocol:?}");
        assert!(all.iter().any(|e| matches!(e, EventKind::Group(GroupEvent::Subscribed { client_id, .. }) if client_id == "c2")));
        assert_eq!(assigned(&sim, "c1"), vec![0, 1, 2, 3], "{protocol:?}");
        let c2: Vec<String> =
            sim.group("g").and_then(|g| g.member("c2")).map(|m| m.assigned().iter().map(|tp| tp.to_string()).collect()).unwrap_or_default();
        assert_eq!(c2, vec!["u-0".to_string(), "u-1".to_string()], "{protocol:?}");
        assert!(stable(&sim), "{protocol:?}");
    }
}

#[test]
fn seek_to_beginning_reprocesses_and_the_duplicates_name_the_seek() {
    use kafka_sandbox_core::command::SeekTo;
    use kafka_sandbox_core::group::HandoverKind;
    let mut sim = build(Protocol::Consumer(ServerAssignor::Uniform), 2, vec![member("c1", None)]);
    produce_until(&mut sim, 14_000);
    sim.run_to(SimTime(16_000));
    let processed = sim.group("g").and_then(|g| g.member("c1")).map(|m| m.processed_total()).unwrap_or(0);
    assert_eq!(processed, 40);
    sim.apply(GroupCommand::Seek {
        group: "g".into(),
        client_id: "c1".into(),
        topic: "t".into(),
        partition: Some(0),
        to: SeekTo::Beginning,
    })
    .expect("seek");
    sim.run_to(SimTime(20_000));
    let g = sim.group("g").expect("group");
    // Partition 0's 20 records come again.
    assert_eq!(g.duplicates(), 20);
    assert!(g.duplicate_details().all(|d| d.tp.partition == 0 && d.handover.as_ref().is_some_and(|h| h.kind == HandoverKind::Seek)));
    assert!(events(&sim).iter().any(|e| matches!(e, EventKind::Consume(ConsumeEvent::Seeked { from: 20, to: 0, .. }))));
    // Seeking a partition it does not own is refused, as Kafka throws IllegalStateException.
    let e = sim
        .apply(GroupCommand::Seek { group: "g".into(), client_id: "c1".into(), topic: "t".into(), partition: Some(7), to: SeekTo::End })
        .expect_err("not assigned");
    assert!(e.to_string().contains("not assigned"), "{e}");
    // Seek to a timestamp: the first record at or after it.
    sim.apply(GroupCommand::Seek {
        group: "g".into(),
        client_id: "c1".into(),
        topic: "t".into(),
        partition: Some(1),
        to: SeekTo::Timestamp { timestamp_ms: 13_000 },
    })
    .expect("seek by time");
    let seeked = events(&sim).into_iter().rev().find_map(|e| match e {
        EventKind::Consume(ConsumeEvent::Seeked { tp, to, .. }) if tp.partition == 1 => Some(to),
        _ => None,
    });
    // Records go to P0, P1 alternately every 50 ms from 12 s: P1 gets one each 100 ms.
    assert_eq!(seeked, Some(10));
}

#[test]
fn auto_offset_reset_none_stops_a_consumer_without_a_committed_offset() {
    let mut sim = build_with(Protocol::Classic(Strategy::Range), 2, vec![], &[]);
    let mut spec = GroupSpec { id: "strict".into(), topics: vec!["t".into()], members: vec![member("s1", None)], ..GroupSpec::default() };
    spec.config.auto_offset_reset = OffsetReset::None;
    sim.apply(GroupCommand::AddGroup { group: spec }).expect("group");
    sim.run_to(sim.now().plus_ms(10_000));
    assert!(events(&sim)
        .iter()
        .any(|e| matches!(e, EventKind::ConsumerProtocol(ConsumerProtocolEvent::ConsumerFailed { client_id, error: GroupError::NoOffsetForPartition, .. }) if client_id == "s1")));
    assert_eq!(sim.group("strict").and_then(|g| g.member("s1")).map(|m| m.phase()), Some(kafka_sandbox_core::group::Phase::Crashed));
}
