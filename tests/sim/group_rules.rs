//! Consumer-group rules checked against Kafka's source (issue 16): when a KIP-848 consumer
//! reconciles, what a static member does when it stops polling, how the classic
//! coordinator treats a static restart, an emptied group, a follower's unchanged rejoin and
//! the initial delay, the KIP-848 epoch checks, and the auto-commit clock.

use kafka_sandbox_core::command::{GroupCommand, ProduceCommand};
use kafka_sandbox_core::command::{GroupSpec, MemberSpec};
use kafka_sandbox_core::config::{ClusterConfig, ConsumerConfig, GroupConfig, GroupProtocol, KafkaVersion, OffsetReset, ProducerConfig};
use kafka_sandbox_core::event::EventKind;
use kafka_sandbox_core::event::{ConsumeEvent, ConsumerProtocolEvent, GroupEvent};
use kafka_sandbox_core::group::{CommitMode, GroupState};
use kafka_sandbox_core::scenario::{ProducerSpec, Scenario, TopicSpec};
use kafka_sandbox_core::{Sim, SimTime};

fn member(client_id: &str, instance: Option<&str>, mode: CommitMode, processing_ms: u64) -> MemberSpec {
    MemberSpec {
        client_id: client_id.into(),
        group_instance_id: instance.map(str::to_string),
        topics: None,
        config: ConsumerConfig { commit_mode: mode, processing_ms, ..ConsumerConfig::default() },
        ..MemberSpec::default()
    }
}

/// Three brokers, topic "t" with 4 partitions, a round-robin producer "p", group "g"
/// speaking `protocol` with `members`, modelling Kafka `version`; run to 12 s.
fn build(protocol: GroupProtocol, version: KafkaVersion, members: Vec<MemberSpec>) -> Sim {
    build_delayed(protocol, version, 0, members)
}

/// `build` with `group.initial.rebalance.delay.ms` = `delay_ms`.
fn build_delayed(protocol: GroupProtocol, version: KafkaVersion, delay_ms: u64, members: Vec<MemberSpec>) -> Sim {
    let scenario = Scenario {
        seed: 3,
        cluster: ClusterConfig {
            brokers: 3,
            network_latency_ms: 10,
            group_initial_rebalance_delay_ms: delay_ms,
            kafka_version: version,
            ..ClusterConfig::default()
        },
        topics: vec![TopicSpec { name: "t".into(), partitions: 4, ..TopicSpec::default() }],
        producers: vec![ProducerSpec {
            name: "p".into(),
            config: ProducerConfig {
                partitioner: kafka_sandbox_core::partitioner::PartitionerKind::RoundRobin,
                linger_ms: 0,
                ..ProducerConfig::default()
            },
            ..ProducerSpec::default()
        }],
        groups: vec![GroupSpec {
            id: "g".into(),
            topics: vec!["t".into()],
            config: GroupConfig { group_protocol: protocol, auto_offset_reset: OffsetReset::Earliest, ..GroupConfig::default() },
            members,
            ..GroupSpec::default()
        }],
        ..Scenario::default()
    };
    let mut sim = scenario.build().expect("builds");
    sim.run_to(SimTime(12_000));
    sim
}

fn produce_n(sim: &mut Sim, n: u32) {
    for i in 0..n {
        sim.apply(ProduceCommand::Produce {
            producer: "p".into(),
            topic: "t".into(),
            key: None,
            value: Some(format!("m{i}")),
            partition: None,
            headers: vec![],
        })
        .expect("produce");
    }
}

fn run(sim: &mut Sim, ms: u64) {
    let until = sim.now().plus_ms(ms);
    sim.run_to(until);
}

fn in_hand(sim: &Sim, client: &str) -> usize {
    sim.group("g").and_then(|g| g.member(client)).map(|m| m.in_hand().count()).unwrap_or(0)
}

fn events(sim: &Sim) -> Vec<EventKind> {
    sim.trace().events().map(|e| e.kind.clone()).collect()
}

/// KIP-848, auto-commit: c1 alone holds a 200-record batch (50 ms each: 10 s) when c2
/// joins; returns, for each revocation c1 makes, how many records it still had in hand.
fn revocations_during_a_long_batch(version: KafkaVersion) -> (Sim, Vec<(u64, usize)>) {
    let mut sim = build(GroupProtocol::Consumer, version, vec![member("c1", None, CommitMode::Auto, 50)]);
    produce_n(&mut sim, 200);
    run(&mut sim, 500);
    assert!(in_hand(&sim, "c1") > 150, "c1 is in the middle of its batch");
    sim.apply(GroupCommand::AddMember { group: "g".into(), member: member("c2", None, CommitMode::Auto, 50) }).expect("add");
    let until = sim.now().plus_ms(20_000);
    let mut revoked = Vec::new();
    while sim.next_event_time().is_some_and(|t| t <= until) {
        let before = in_hand(&sim, "c1");
        let seen = sim.trace().total();
        sim.step();
        let c1_revoked = sim
            .events_since(seen)
            .any(|e| matches!(&e.kind, EventKind::Group(GroupEvent::PartitionsRevoked { client_id, .. }) if client_id == "c1"));
        if c1_revoked {
            revoked.push((sim.now().ms(), before));
        }
    }
    (sim, revoked)
}

#[test]
fn a_kip848_member_with_auto_commit_revokes_only_at_its_next_poll() {
    let (sim, revoked) = revocations_during_a_long_batch(KafkaVersion::V4_2);
    // One revocation, after the batch: nothing in hand.
    assert_eq!(revoked.len(), 1, "{revoked:?}");
    let (at, held) = revoked[0];
    assert_eq!(held, 0, "revoked at {at} ms with {held} records in hand");
    assert!(at >= 22_000, "the batch (200 x 50 ms from 12.5 s) ends first: {at}");
    // The revocation and the acknowledging heartbeat happen together, in that order; the
    // synchronous commit sent just before them lands at the coordinator one hop later,
    // before the acknowledgement, with everything c1 processed (50 records per partition).
    let same_time: Vec<&EventKind> = sim.trace().events().filter(|e| e.time.ms() == at).map(|e| &e.kind).collect();
    let revoke =
        same_time.iter().position(|e| matches!(e, EventKind::Group(GroupEvent::PartitionsRevoked { client_id, .. }) if client_id == "c1"));
    let ack = same_time.iter().position(
        |e| matches!(e, EventKind::ConsumerProtocol(ConsumerProtocolEvent::ConsumerHeartbeatSent { client_id, .. }) if client_id == "c1"),
    );
    assert!(revoke.is_some() && revoke < ack, "{same_time:?}");
    let committed = sim.trace().events().find_map(|e| match &e.kind {
        EventKind::Consume(ConsumeEvent::OffsetsCommitted { client_id, offsets, .. }) if client_id == "c1" && e.time.ms() > 12_500 => {
            Some((e.time.ms(), offsets.iter().map(|(_, o)| *o).collect::<Vec<_>>()))
        }
        _ => None,
    });
    assert_eq!(committed, Some((at + 10, vec![50, 50, 50, 50])));
    let g = sim.group("g").expect("group");
    assert_eq!(g.state(), GroupState::Stable);
    assert_eq!((g.duplicates(), g.unprocessed()), (0, 0));
}

#[test]
fn on_kafka_4_0_the_member_revokes_when_the_heartbeat_answer_arrives() {
    let (_, revoked) = revocations_during_a_long_batch(KafkaVersion::V4_0);
    assert_eq!(revoked.len(), 1, "{revoked:?}");
    let (at, held) = revoked[0];
    assert!(held > 0, "mid-batch: {held} records in hand at {at} ms");
    assert!(at < 18_000, "within one heartbeat interval of the join: {at}");
}

/// The difference matters when the member dies mid-batch: on 4.0 the commit before the
/// revocation covered records it had not processed yet, and they are lost; from 4.1 the
/// commit waits for the next poll, so nothing is.
#[test]
fn a_crash_mid_batch_after_a_kip848_hand_over_loses_records_only_on_kafka_4_0() {
    let lost = |version| {
        let (mut sim, _) = {
            let mut sim = build(GroupProtocol::Consumer, version, vec![member("c1", None, CommitMode::Auto, 50)]);
            produce_n(&mut sim, 200);
            run(&mut sim, 500);
            sim.apply(GroupCommand::AddMember { group: "g".into(), member: member("c2", None, CommitMode::Auto, 50) }).expect("add");
            run(&mut sim, 6_000);
            (sim, ())
        };
        assert!(in_hand(&sim, "c1") > 0, "{version}: still mid-batch");
        sim.apply(GroupCommand::CrashMember { group: "g".into(), client_id: "c1".into() }).expect("crash");
        run(&mut sim, 60_000);
        sim.group("g").map(|g| g.unprocessed()).unwrap_or(0)
    };
    assert!(lost(KafkaVersion::V4_0) > 0);
    assert_eq!(lost(KafkaVersion::V4_1), 0);
    assert_eq!(lost(KafkaVersion::V4_2), 0);
}

/// Builds the scenario of `build` without running it.
fn build_at_start(protocol: GroupProtocol, members: Vec<MemberSpec>) -> Sim {
    let mut sim = build(protocol, KafkaVersion::NEWEST, vec![]);
    let spec = GroupSpec {
        id: "h".into(),
        topics: vec!["t".into()],
        config: GroupConfig { group_protocol: protocol, auto_offset_reset: OffsetReset::Earliest, ..GroupConfig::default() },
        members,
        ..GroupSpec::default()
    };
    sim.apply(GroupCommand::AddGroup { group: spec }).expect("group");
    sim
}

fn step_until(sim: &mut Sim, limit_ms: u64, what: impl Fn(&Sim) -> bool) {
    let until = sim.now().plus_ms(limit_ms);
    while !what(sim) {
        assert!(sim.next_event_time().is_some_and(|t| t <= until), "not reached within {limit_ms} ms");
        sim.step();
    }
}

/// Classic protocol (`GroupMetadataManager.updateStaticMemberThenRebalanceOrCompleteJoin`):
/// a static member's new incarnation joining while the group is CompletingRebalance starts
/// a new rebalance — the leader may already have assigned the old member id — and its
/// JoinGroup is answered in that round.
#[test]
fn a_static_member_restarting_during_completing_rebalance_is_answered() {
    let mut sim = build_at_start(
        GroupProtocol::Classic,
        vec![member("s1", Some("i1"), CommitMode::Auto, 10), member("s2", Some("i2"), CommitMode::Auto, 10)],
    );
    step_until(&mut sim, 10_000, |sim| sim.group("h").is_some_and(|g| g.state() == GroupState::CompletingRebalance));
    let generation = sim.group("h").map(|g| g.generation()).unwrap_or(0);
    let cursor = sim.trace().total();
    sim.apply(GroupCommand::CrashMember { group: "h".into(), client_id: "s2".into() }).expect("crash");
    sim.apply(GroupCommand::RestartMember { group: "h".into(), client_id: "s2".into() }).expect("restart");
    run(&mut sim, 30_000);
    let g = sim.group("h").expect("group");
    assert_eq!(g.state(), GroupState::Stable);
    assert_eq!(g.generation(), generation + 1, "one more generation for the replaced member");
    let s2 = g.member("s2").expect("s2");
    assert_eq!(s2.assigned().len(), 2, "s2 is answered and assigned");
    assert_eq!(g.member("s1").map(|m| m.assigned().len()), Some(2));
    let later: Vec<EventKind> = sim.events_since(cursor).map(|e| e.kind.clone()).collect();
    assert!(later.iter().any(|e| matches!(e, EventKind::Group(GroupEvent::StaticMemberReplaced { client_id, .. }) if client_id == "s2")));
    assert!(later.iter().any(|e| matches!(e, EventKind::Group(GroupEvent::RebalanceStarted { group, .. }) if group == "h")));
    assert!(!later.iter().any(|e| matches!(e, EventKind::Group(GroupEvent::MemberLeft { group, .. }) if group == "h")), "nobody timed out");
}

/// Pauses s2 (static, `max.poll.interval.ms` 10 s) for 15 s under `protocol`: it passes its
/// poll timeout; returns the run, the group's generation (or epoch) before, and s2's
/// partitions before.
fn a_static_member_stops_polling(protocol: GroupProtocol) -> (Sim, i32, Vec<u32>) {
    let mut s2 = member("s2", Some("i2"), CommitMode::Auto, 10);
    s2.config.max_poll_interval_ms = 10_000;
    let mut sim = build(protocol, KafkaVersion::NEWEST, vec![member("s1", Some("i1"), CommitMode::Auto, 10), s2]);
    let generation = sim.group("g").map(|g| g.generation()).unwrap_or(0);
    let mine: Vec<u32> =
        sim.group("g").and_then(|g| g.member("s2")).map(|m| m.assigned().iter().map(|tp| tp.partition).collect()).unwrap_or_default();
    assert_eq!(mine.len(), 2);
    sim.apply(GroupCommand::PauseMember { group: "g".into(), client_id: "s2".into(), paused: true }).expect("pause");
    run(&mut sim, 15_000);
    assert_eq!(sim.group("g").map(|g| g.poll_timeouts()), Some(1), "{protocol:?}: the poll timeout passed");
    (sim, generation, mine)
}

fn resume_and_check(mut sim: Sim, generation: i32, mine: Vec<u32>, protocol: GroupProtocol) {
    // Nobody left and nothing was rebalanced: s1 kept its own two partitions.
    let all = events(&sim);
    assert!(!all.iter().any(|e| matches!(e, EventKind::Group(GroupEvent::MemberLeft { .. }))), "{protocol:?}");
    assert_eq!(sim.group("g").map(|g| g.generation()), Some(generation), "{protocol:?}");
    assert_eq!(sim.group("g").and_then(|g| g.member("s1")).map(|m| m.assigned().len()), Some(2), "{protocol:?}");
    // Back within the session timeout (45 s): its partitions again, still no rebalance.
    sim.apply(GroupCommand::PauseMember { group: "g".into(), client_id: "s2".into(), paused: false }).expect("resume");
    run(&mut sim, 12_000);
    let g = sim.group("g").expect("group");
    let now: Vec<u32> = g.member("s2").map(|m| m.assigned().iter().map(|tp| tp.partition).collect()).unwrap_or_default();
    assert_eq!(now, mine, "{protocol:?}");
    assert_eq!(g.generation(), generation, "{protocol:?}");
    assert_eq!(g.state(), GroupState::Stable, "{protocol:?}");
}

/// Classic protocol (`AbstractCoordinator.maybeLeaveGroup`: `isDynamicMember()`): a static
/// member whose poll timeout passes sends no LeaveGroup; it forgets its member id and
/// rejoins at its next poll as the same static member.
#[test]
fn a_static_member_that_stops_polling_does_not_leave_the_group() {
    let (sim, generation, mine) = a_static_member_stops_polling(GroupProtocol::Classic);
    resume_and_check(sim, generation, mine, GroupProtocol::Classic);
}

/// KIP-848 (`AbstractMembershipManager.leaveGroupEpoch()`): a static member whose poll
/// timeout passes leaves with epoch -2, so the coordinator keeps its partitions for the
/// session timeout instead of handing them over.
#[test]
fn a_static_kip848_member_that_stops_polling_leaves_with_epoch_minus_two() {
    let (sim, generation, mine) = a_static_member_stops_polling(GroupProtocol::Consumer);
    let all = events(&sim);
    assert!(all.iter().any(
        |e| matches!(e, EventKind::ConsumerProtocol(ConsumerProtocolEvent::ConsumerHeartbeatSent { client_id, member_epoch: -2, .. }) if client_id == "s2")
    ));
    assert!(!all
        .iter()
        .any(|e| matches!(e, EventKind::ConsumerProtocol(ConsumerProtocolEvent::ConsumerHeartbeatSent { member_epoch: -1, .. }))));
    resume_and_check(sim, generation, mine, GroupProtocol::Consumer);
}

/// Produces one record every 50 ms for `ms`.
fn produce_for(sim: &mut Sim, ms: u64) {
    let until = sim.now().plus_ms(ms);
    let mut i = 0;
    while sim.now() < until {
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
        run(sim, 50);
    }
}

/// The auto-commit timer (`auto.commit.interval.ms`, 5 s) starts when the consumer is
/// created and restarts at every completed assignment (`ConsumerCoordinator.onJoinComplete`,
/// `ConsumerMembershipManager.signalReconciliationCompleting`): after a hand-over the next
/// interval commit comes a full interval later, not on the old rhythm.
#[test]
fn the_auto_commit_timer_restarts_at_every_assignment() {
    for protocol in [GroupProtocol::Classic, GroupProtocol::Consumer] {
        let mut sim = build(protocol, KafkaVersion::NEWEST, vec![member("c1", None, CommitMode::Auto, 5)]);
        produce_for(&mut sim, 7_500);
        sim.apply(GroupCommand::AddMember { group: "g".into(), member: member("c2", None, CommitMode::Auto, 5) }).expect("add");
        produce_for(&mut sim, 20_000);
        let c1_commits: Vec<u64> = sim
            .trace()
            .events()
            .filter(|e| matches!(&e.kind, EventKind::Consume(ConsumeEvent::OffsetsCommitted { client_id, .. }) if client_id == "c1"))
            .map(|e| e.time.ms())
            .collect();
        let assigned_again = sim
            .trace()
            .events()
            .filter(|e| e.time.ms() > 19_500)
            .find(|e| match &e.kind {
                EventKind::Group(GroupEvent::PartitionsAssigned { client_id, .. }) => client_id == "c1",
                EventKind::ConsumerProtocol(ConsumerProtocolEvent::AssignmentReconciled { client_id, .. }) => client_id == "c1",
                _ => false,
            })
            .map(|e| e.time.ms())
            .expect("c1 reassigned");
        let next = c1_commits.iter().find(|t| **t > assigned_again + 10).copied().expect("a later commit");
        assert!(
            (assigned_again + 5_000..assigned_again + 5_200).contains(&next),
            "{protocol:?}: assigned at {assigned_again}, commits {c1_commits:?}"
        );
    }
}

fn join_phase_completions(sim: &Sim) -> Vec<(u64, i32)> {
    sim.trace()
        .events()
        .filter_map(|e| match &e.kind {
            EventKind::Group(GroupEvent::JoinPhaseCompleted { generation, .. }) => Some((e.time.ms(), *generation)),
            _ => None,
        })
        .collect()
}

/// `ClassicGroup.initNextGeneration`: the generation moves on even when the group empties.
#[test]
fn an_emptied_classic_group_moves_to_a_new_generation() {
    let mut sim = build(GroupProtocol::Classic, KafkaVersion::NEWEST, vec![member("c1", None, CommitMode::Auto, 5)]);
    assert_eq!(sim.group("g").map(|g| (g.state(), g.generation())), Some((GroupState::Stable, 1)));
    sim.apply(GroupCommand::RemoveMember { group: "g".into(), client_id: "c1".into() }).expect("leave");
    run(&mut sim, 1_000);
    assert_eq!(sim.group("g").map(|g| (g.state(), g.generation())), Some((GroupState::Empty, 2)));
    // The next member starts generation 3.
    sim.apply(GroupCommand::AddMember { group: "g".into(), member: member("c2", None, CommitMode::Auto, 5) }).expect("join");
    run(&mut sim, 5_000);
    assert_eq!(sim.group("g").map(|g| (g.state(), g.generation())), Some((GroupState::Stable, 3)));
}

/// `GroupMetadataManager.prepareRebalance` from Empty waits the whole
/// `group.initial.rebalance.delay.ms`, even beyond the rebalance timeout.
#[test]
fn the_initial_rebalance_delay_is_not_capped_by_the_rebalance_timeout() {
    let mut short = member("c1", None, CommitMode::Auto, 5);
    short.config.max_poll_interval_ms = 2_000;
    let sim = build_delayed(GroupProtocol::Classic, KafkaVersion::NEWEST, 3_000, vec![short]);
    let first = join_phase_completions(&sim);
    assert_eq!(first.first().map(|(_, g)| *g), Some(1));
    let at = first[0].0;
    assert!((3_000..3_100).contains(&at), "the 3 s delay, not the 2 s rebalance timeout: {at}");
}

/// The initial delay is extended by members joining during it whenever the group comes
/// from Empty (`newMemberAdded`, set when the previous state is Empty), not only for a
/// group's very first generation.
#[test]
fn a_refilled_group_extends_its_initial_delay_again() {
    let mut sim = build_delayed(GroupProtocol::Classic, KafkaVersion::NEWEST, 3_000, vec![member("c1", None, CommitMode::Auto, 5)]);
    sim.apply(GroupCommand::RemoveMember { group: "g".into(), client_id: "c1".into() }).expect("leave");
    run(&mut sim, 1_000);
    assert_eq!(sim.group("g").map(|g| g.state()), Some(GroupState::Empty));
    let start = sim.now().ms();
    sim.apply(GroupCommand::AddMember { group: "g".into(), member: member("c2", None, CommitMode::Auto, 5) }).expect("join");
    run(&mut sim, 1_500);
    sim.apply(GroupCommand::AddMember { group: "g".into(), member: member("c3", None, CommitMode::Auto, 5) }).expect("join");
    run(&mut sim, 10_000);
    let done: Vec<(u64, i32)> = join_phase_completions(&sim).into_iter().filter(|(t, _)| *t > start).collect();
    assert_eq!(done.len(), 1, "one join phase for both: {done:?}");
    assert!(done[0].0 >= start + 6_000, "extended by a second delay: {done:?}");
}

/// `GroupMetadataManager.completeClassicGroupJoin`: at the rebalance timeout only dynamic
/// members that did not rejoin are removed; a static one stays until its session times out.
#[test]
fn the_rebalance_timeout_removes_only_dynamic_members() {
    for instance in [None, Some("i2")] {
        let short = |m: MemberSpec| MemberSpec { config: ConsumerConfig { max_poll_interval_ms: 10_000, ..m.config }, ..m };
        let members = vec![short(member("s1", Some("i1"), CommitMode::Auto, 5)), short(member("s2", instance, CommitMode::Auto, 5))];
        let mut sim = build(GroupProtocol::Classic, KafkaVersion::NEWEST, members);
        // s2 dies (no LeaveGroup; its 45 s session outlasts the 10 s rebalance timeout) as c3 joins.
        sim.apply(GroupCommand::CrashMember { group: "g".into(), client_id: "s2".into() }).expect("crash");
        sim.apply(GroupCommand::AddMember { group: "g".into(), member: short(member("c3", None, CommitMode::Auto, 5)) }).expect("join");
        run(&mut sim, 15_000);
        let timed_out = events(&sim).iter().any(
            |e| matches!(e, EventKind::Group(GroupEvent::MemberLeft { client_id, reason: kafka_sandbox_core::event::LeaveReason::RebalanceTimeout, .. }) if client_id == "s2"),
        );
        let g = sim.group("g").expect("group");
        assert_eq!(g.state(), GroupState::Stable, "{instance:?}");
        assert_eq!(timed_out, instance.is_none(), "{instance:?}");
        assert_eq!(g.registered().count(), if instance.is_some() { 3 } else { 2 }, "{instance:?}");
    }
}

#[test]
fn a_classic_member_kicked_out_by_its_poll_timeout_counts_as_stopped_from_that_moment() {
    // The stuck member's heartbeat thread leaves the group when max.poll.interval.ms runs
    // out; from then it consumes nothing, and the time it is stopped is counted.
    let mut stuck = member("c1", None, CommitMode::Auto, 0);
    stuck.config.max_poll_interval_ms = 5_000;
    let mut sim = build(GroupProtocol::Classic, KafkaVersion::V4_2, vec![stuck]);
    let c1 = |sim: &Sim| sim.group("g").and_then(|g| g.member("c1")).map(|m| (m.stopped_since(), m.rebalance_stopped_ms())).unwrap();
    assert_eq!(c1(&sim).0, None, "consuming");
    sim.apply(GroupCommand::PauseMember { group: "g".into(), client_id: "c1".into(), paused: true }).expect("pause");
    let paused_at = sim.now();
    run(&mut sim, 8_000);
    let left = sim
        .trace()
        .events()
        .find(|e| {
            matches!(&e.kind, EventKind::Group(GroupEvent::PartitionsRevoked { client_id, .. }) if client_id == "c1") && e.time > paused_at
        })
        .map(|e| e.time)
        .expect("c1 gave its partitions up at the poll timeout");
    assert_eq!(c1(&sim).0, Some(left), "stopped since it left");
    sim.apply(GroupCommand::PauseMember { group: "g".into(), client_id: "c1".into(), paused: false }).expect("resume");
    run(&mut sim, 10_000);
    let (since, stopped_ms) = c1(&sim);
    assert_eq!(since, None, "consuming again after rejoining");
    assert!(stopped_ms >= sim.now().ms() - 10_000 - left.ms(), "the time out of the group is counted: {stopped_ms} ms");
}
