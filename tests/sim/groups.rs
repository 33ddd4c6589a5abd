//! The consumer group protocol, scenario by scenario: what triggers a rebalance, how
//! long the group stops, static membership, livelock, and what each commit strategy
//! does to a crash (duplicates or losses).

use kafka_sandbox_core::command::{GroupCommand, ProduceCommand, TopicCommand};
use kafka_sandbox_core::command::{GroupSpec, MemberSpec};
use kafka_sandbox_core::config::{ClusterConfig, ConsumerConfig, GroupConfig, OffsetReset, ProducerConfig};
use kafka_sandbox_core::event::{EventKind, LeaveReason};
use kafka_sandbox_core::group::{CommitMode, GroupState};
use kafka_sandbox_core::scenario::{ProducerSpec, Scenario, TopicSpec};
use kafka_sandbox_core::{Command, Sim, SimTime};

fn member(client_id: &str, instance: Option<&str>, mode: CommitMode, processing_ms: u64) -> MemberSpec {
    MemberSpec {
        client_id: client_id.into(),
        group_instance_id: instance.map(str::to_string),
        topics: None,
        config: ConsumerConfig {
            commit_mode: mode,
            processing_ms,
            session_timeout_ms: 6_000,
            max_poll_interval_ms: 20_000,
            ..ConsumerConfig::default()
        },
        ..MemberSpec::default()
    }
}

/// Three brokers, topic "t" with 4 partitions, producer "p" (round robin, one record
/// every 100 ms from 2 s on when `load` is set), group "g" with the given members.
fn build(members: Vec<MemberSpec>, assignor: kafka_sandbox_core::assign::Strategy) -> Sim {
    let scenario = Scenario {
        seed: 5,
        cluster: ClusterConfig { brokers: 3, network_latency_ms: 10, group_initial_rebalance_delay_ms: 0, ..ClusterConfig::default() },
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
            config: GroupConfig { assignor, auto_offset_reset: OffsetReset::Earliest, ..GroupConfig::default() },
            members,
            ..GroupSpec::default()
        }],
        ..Scenario::default()
    };
    let mut sim = scenario.build().expect("builds");
    sim.run_to(SimTime(1_000));
    sim
}

fn produce_n(sim: &mut Sim, from: u32, n: u32) {
    for i in from..from + n {
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

fn count<F: Fn(&EventKind) -> bool>(sim: &Sim, f: F) -> usize {
    sim.trace().events().filter(|e| f(&e.kind)).count()
}

fn partitions_of(sim: &Sim, client: &str) -> Vec<u32> {
    sim.group("g").and_then(|g| g.member(client)).map(|m| m.assigned().iter().map(|tp| tp.partition).collect()).unwrap_or_default()
}

use kafka_sandbox_core::assign::Strategy;
use kafka_sandbox_core::event::{ConsumeEvent, GroupEvent};

#[test]
fn a_new_group_forms_through_join_sync_and_offset_fetch() {
    let sim = build(vec![member("c1", None, CommitMode::Auto, 1), member("c2", None, CommitMode::Auto, 1)], Strategy::Range);
    let g = sim.group("g").expect("group");
    assert_eq!(g.state(), GroupState::Stable);
    assert_eq!(g.generation(), 1, "the first stable generation is 1");
    // KIP-394: each new member is first told its id, then joins with it.
    assert_eq!(count(&sim, |k| matches!(k, EventKind::Group(GroupEvent::MemberIdRequired { .. }))), 2);
    assert_eq!(count(&sim, |k| matches!(k, EventKind::Group(GroupEvent::JoinPhaseCompleted { .. }))), 1);
    assert_eq!(partitions_of(&sim, "c1"), vec![0, 1]);
    assert_eq!(partitions_of(&sim, "c2"), vec![2, 3]);
    let member_id = &g.member("c1").expect("c1").member_id();
    assert!(member_id.starts_with("c1-"), "member id = client id + UUID: {member_id}");
}

#[test]
fn eager_rebalance_stops_everyone_until_the_new_assignment() {
    let mut sim = build(vec![member("c1", None, CommitMode::Auto, 1), member("c2", None, CommitMode::Auto, 1)], Strategy::Range);
    sim.apply(GroupCommand::AddMember { group: "g".into(), member: member("c3", None, CommitMode::Auto, 1) }).expect("add");
    run(&mut sim, 8_000);
    let g = sim.group("g").expect("group");
    assert_eq!(g.generation(), 2);
    // Eager: c1 and c2 revoked everything before rejoining, and waited.
    let revoked_all = |c: &str| {
        count(
            &sim,
            |k| matches!(k, EventKind::Group(GroupEvent::PartitionsRevoked { client_id, partitions, .. }) if client_id == c && partitions.len() == 2),
        )
    };
    assert_eq!(revoked_all("c1"), 1);
    assert_eq!(revoked_all("c2"), 1);
    for c in ["c1", "c2"] {
        assert!(g.member(c).expect("member").rebalance_stopped_ms() > 0, "{c} could not consume during the rebalance");
    }
    assert_eq!([partitions_of(&sim, "c1"), partitions_of(&sim, "c2"), partitions_of(&sim, "c3")].concat().len(), 4);
}

#[test]
fn a_graceful_close_rebalances_at_once_a_crash_only_after_the_session_timeout() {
    for crash in [false, true] {
        let mut sim = build(vec![member("c1", None, CommitMode::Auto, 1), member("c2", None, CommitMode::Auto, 1)], Strategy::Range);
        let at = sim.now();
        let command = if crash {
            Command::Group(GroupCommand::CrashMember { group: "g".into(), client_id: "c2".into() })
        } else {
            Command::Group(GroupCommand::RemoveMember { group: "g".into(), client_id: "c2".into() })
        };
        sim.apply(command).expect("apply");
        run(&mut sim, 10_000);
        let left = sim.trace().events().find_map(|e| match &e.kind {
            EventKind::Group(GroupEvent::MemberLeft { client_id, reason, .. }) if client_id == "c2" => Some((e.time, *reason)),
            _ => None,
        });
        let (when, reason) = left.expect("c2 leaves the group");
        if crash {
            assert_eq!(reason, LeaveReason::SessionTimeout);
            assert!(when.ms() - at.ms() >= 6_000 - 3_000, "the coordinator waits for session.timeout.ms after the last heartbeat");
        } else {
            assert_eq!(reason, LeaveReason::Graceful);
            assert!(when.ms() - at.ms() <= 50, "LeaveGroup arrives one hop later");
        }
        assert_eq!(partitions_of(&sim, "c1"), vec![0, 1, 2, 3], "c1 takes everything");
    }
}

#[test]
fn a_static_member_restarting_within_the_session_timeout_does_not_rebalance() {
    let mut sim =
        build(vec![member("c1", Some("i1"), CommitMode::Auto, 1), member("c2", Some("i2"), CommitMode::Auto, 1)], Strategy::Range);
    let before = count(&sim, |k| matches!(k, EventKind::Group(GroupEvent::RebalanceStarted { .. })));
    sim.apply(GroupCommand::CrashMember { group: "g".into(), client_id: "c2".into() }).expect("crash");
    run(&mut sim, 1_000);
    sim.apply(GroupCommand::RestartMember { group: "g".into(), client_id: "c2".into() }).expect("restart");
    run(&mut sim, 3_000);
    assert_eq!(count(&sim, |k| matches!(k, EventKind::Group(GroupEvent::StaticMemberReplaced { .. }))), 1);
    assert_eq!(count(&sim, |k| matches!(k, EventKind::Group(GroupEvent::RebalanceStarted { .. }))), before, "no rebalance");
    let g = sim.group("g").expect("group");
    assert_eq!(g.generation(), 1);
    assert_eq!(partitions_of(&sim, "c2"), vec![2, 3], "it gets its old partitions back");
    // A static member's close sends no LeaveGroup: the group waits for its session.
    sim.apply(GroupCommand::RemoveMember { group: "g".into(), client_id: "c2".into() }).expect("close");
    run(&mut sim, 1_000);
    assert_eq!(count(&sim, |k| matches!(k, EventKind::Group(GroupEvent::MemberLeft { .. }))), 0);
    run(&mut sim, 8_000);
    assert_eq!(count(&sim, |k| matches!(k, EventKind::Group(GroupEvent::MemberLeft { reason: LeaveReason::SessionTimeout, .. }))), 1);
}

#[test]
fn livelock_a_member_stuck_processing_leaves_and_its_later_commit_fails() {
    let mut sim = build(
        vec![member("c1", None, CommitMode::SyncAfterProcessing, 1), member("c2", None, CommitMode::SyncAfterProcessing, 1)],
        Strategy::Range,
    );
    // c2 now takes 30 s per record: more than max.poll.interval.ms (20 s).
    sim.apply(GroupCommand::SetProcessing { group: "g".into(), client_id: "c2".into(), processing_ms: 30_000 }).expect("slow");
    produce_n(&mut sim, 0, 4);
    run(&mut sim, 40_000);
    let left = count(
        &sim,
        |k| matches!(k, EventKind::Group(GroupEvent::MemberLeft { client_id, reason: LeaveReason::PollTimeout, .. }) if client_id == "c2"),
    );
    assert_eq!(left, 1, "the heartbeat thread leaves the group although it heartbeats");
    let failed = count(&sim, |k| matches!(k, EventKind::Consume(ConsumeEvent::CommitFailed { client_id, .. }) if client_id == "c2"));
    assert!(failed >= 1, "its commit after processing fails (CommitFailedException)");
    let c1_took_all = count(
        &sim,
        |k| matches!(k, EventKind::Group(GroupEvent::PartitionsAssigned { client_id, partitions, .. }) if client_id == "c1" && partitions.len() == 4),
    );
    assert!(c1_took_all >= 1, "while c2 was out, c1 owned every partition");
}

/// One member processes, the group's records are produced, then the member crashes
/// while processing a batch; a second member takes over after the session timeout.
fn crash_while_processing_run(mode: CommitMode) -> Sim {
    let mut sim = build(vec![member("c1", None, mode, 200)], Strategy::Range);
    sim.apply(GroupCommand::AddMember { group: "g".into(), member: member("c2", None, mode, 1) }).expect("add c2");
    run(&mut sim, 8_000);
    // c1 gets P0 P1; records to those partitions. The eight records leave at once
    // (linger.ms 0, and each broker connection has room), so c1's second poll brings m1,
    // m5, m4 at about 240 ms; at 500 ms it has processed m1 and is processing m5.
    produce_n(&mut sim, 0, 8);
    run(&mut sim, 500);
    sim.apply(GroupCommand::CrashMember { group: "g".into(), client_id: "c1".into() }).expect("crash");
    run(&mut sim, 20_000);
    sim
}

/// `crash_while_processing_run`'s duplicates, losses and distinct records processed.
fn crash_while_processing(mode: CommitMode) -> (u64, u64, u64) {
    let sim = crash_while_processing_run(mode);
    let g = sim.group("g").expect("group");
    let processed: std::collections::BTreeSet<String> = sim
        .trace()
        .events()
        .filter_map(|e| match &e.kind {
            EventKind::Consume(ConsumeEvent::RecordProcessed { value, .. }) => Some(value.to_string()),
            _ => None,
        })
        .collect();
    (g.duplicates(), g.unprocessed(), processed.len() as u64)
}

/// Each duplicate and each lost record carries its cause: who had it first, how the
/// partition changed hands, and where the next owner started.
#[test]
fn duplicates_and_losses_are_attributed_to_the_crash_and_the_commit() {
    use kafka_sandbox_core::group::{HandoverKind, UnprocessedCause};
    let attributed = |mode: CommitMode| {
        let sim = crash_while_processing_run(mode);
        let g = sim.group("g").expect("group");
        (g.duplicate_details().cloned().collect::<Vec<_>>(), g.unprocessed_details(100), g.duplicates(), g.unprocessed())
    };
    let (dups, lost, count, _) = attributed(CommitMode::SyncAfterProcessing);
    assert_eq!(dups.len() as u64, count);
    assert!(lost.is_empty());
    for d in &dups {
        assert_eq!(d.first.as_ref().map(|f| f.0.as_str()), Some("c1"), "{d:?}");
        assert_eq!(d.again.0, "c2");
        let h = d.handover.as_ref().expect("handover");
        assert_eq!((h.from.as_str(), h.kind), ("c1", HandoverKind::Crashed));
        // The committed offset then did not cover the record: that is why it came back.
        assert!(h.committed.is_none_or(|c| c <= d.offset), "{d:?}");
    }
    let (dups, lost, _, lost_count) = attributed(CommitMode::BeforeProcessing);
    assert!(dups.is_empty());
    assert_eq!(lost.len() as u64, lost_count);
    assert!(!lost.is_empty());
    for l in &lost {
        assert!(matches!(&l.cause, UnprocessedCause::CommittedBeforeProcessing { member, .. } if member == "c1"), "{l:?}");
    }
}

#[test]
fn commit_after_processing_and_a_crash_give_duplicates_but_no_loss() {
    let (duplicates, lost, processed) = crash_while_processing(CommitMode::SyncAfterProcessing);
    assert!(duplicates > 0, "records processed but not committed are processed again");
    assert_eq!(lost, 0);
    assert_eq!(processed, 8, "every record processed at least once");
}

#[test]
fn commit_before_processing_and_a_crash_give_losses_but_no_duplicates() {
    let (duplicates, lost, processed) = crash_while_processing(CommitMode::BeforeProcessing);
    assert_eq!(duplicates, 0);
    assert!(lost > 0, "records committed before processing are skipped by the next owner");
    assert!(processed < 8);
}

#[test]
fn auto_commit_and_a_crash_within_the_interval_give_duplicates() {
    let (duplicates, lost, _) = crash_while_processing(CommitMode::Auto);
    assert!(duplicates > 0, "auto-commit covered only earlier polls");
    assert_eq!(lost, 0);
}

#[test]
fn added_partitions_are_assigned_after_the_leaders_metadata_refresh() {
    let mut spec = member("c1", None, CommitMode::Auto, 1);
    spec.config.metadata_max_age_ms = 5_000;
    let mut sim = build(vec![spec, member("c2", None, CommitMode::Auto, 1)], Strategy::Range);
    sim.apply(TopicCommand::AddPartitions { topic: "t".into(), partitions: 6 }).expect("grow");
    assert!(sim.apply(TopicCommand::AddPartitions { topic: "t".into(), partitions: 3 }).is_err(), "partitions never shrink");
    run(&mut sim, 2_000);
    let before = [partitions_of(&sim, "c1"), partitions_of(&sim, "c2")].concat().len();
    assert_eq!(before, 4, "nobody owns the new partitions until the leader notices");
    run(&mut sim, 10_000);
    assert_eq!(count(&sim, |k| matches!(k, EventKind::Group(GroupEvent::MetadataChangeNoticed { .. }))), 1);
    assert_eq!(partitions_of(&sim, "c1"), vec![0, 1, 2]);
    assert_eq!(partitions_of(&sim, "c2"), vec![3, 4, 5]);
    assert_eq!(sim.group("g").expect("g").generation(), 2);
}

#[test]
fn cooperative_members_keep_consuming_and_moved_partitions_go_over_in_a_second_rebalance() {
    for (assignor, eager) in [(Strategy::Sticky, true), (Strategy::CooperativeSticky, false)] {
        let mut sim = build(vec![member("c1", None, CommitMode::Auto, 1), member("c2", None, CommitMode::Auto, 1)], assignor);
        let before = (partitions_of(&sim, "c1"), partitions_of(&sim, "c2"));
        sim.apply(GroupCommand::AddMember { group: "g".into(), member: member("c3", None, CommitMode::Auto, 1) }).expect("add");
        run(&mut sim, 15_000);
        let g = sim.group("g").expect("group");
        let after = [partitions_of(&sim, "c1"), partitions_of(&sim, "c2"), partitions_of(&sim, "c3")];
        assert_eq!(after.iter().map(Vec::len).sum::<usize>(), 4, "{assignor}: every partition owned: {after:?}");
        // Sticky: each old member keeps what it had but what it must give up.
        for (old, now) in [(&before.0, &after[0]), (&before.1, &after[1])] {
            assert!(now.iter().all(|p| old.contains(p)), "{assignor}: {now:?} ⊆ {old:?}");
        }
        let revoked_everything = count(
            &sim,
            |k| matches!(k, EventKind::Group(GroupEvent::PartitionsRevoked { partitions, client_id, .. }) if client_id != "c3" && partitions.len() == 2),
        );
        let pauses: u64 = ["c1", "c2"].iter().map(|c| g.member(c).expect("member").rebalance_stopped_ms()).sum();
        if eager {
            assert_eq!(g.generation(), 2, "one eager rebalance");
            assert_eq!(revoked_everything, 2, "eager: both revoke everything first");
            assert!(pauses > 0);
        } else {
            assert_eq!(g.generation(), 3, "cooperative: a second rebalance hands the moved partition over");
            assert_eq!(revoked_everything, 0, "cooperative: nobody gives up everything");
            assert_eq!(pauses, 0, "the old members never stopped consuming");
        }
    }
}

#[test]
fn a_group_formed_by_two_joiners_waits_a_second_initial_delay() {
    // InitialDelayedJoin: a member joining during the initial delay earns one more delay.
    let run_to_stable = |members: Vec<MemberSpec>| {
        let scenario = Scenario {
            seed: 1,
            cluster: ClusterConfig {
                brokers: 1,
                offsets_topic_replication_factor: 1,
                network_latency_ms: 10,
                group_initial_rebalance_delay_ms: 3_000,
                ..ClusterConfig::default()
            },
            topics: vec![TopicSpec { name: "t".into(), partitions: 2, ..TopicSpec::default() }],
            groups: vec![GroupSpec { id: "g".into(), topics: vec!["t".into()], members, ..GroupSpec::default() }],
            ..Scenario::default()
        };
        let mut sim = scenario.build().expect("builds");
        sim.run_to(SimTime(20_000));
        let formed =
            sim.trace().events().find(|e| matches!(e.kind, EventKind::Group(GroupEvent::JoinPhaseCompleted { .. }))).map(|e| e.time.ms());
        formed.expect("formed")
    };
    let one = run_to_stable(vec![member("c1", None, CommitMode::Auto, 1)]);
    let two = run_to_stable(vec![member("c1", None, CommitMode::Auto, 1), member("c2", None, CommitMode::Auto, 1)]);
    assert!((3_000..4_000).contains(&one), "one member: one delay ({one} ms)");
    assert!((6_000..7_000).contains(&two), "two members: a second delay ({two} ms)");
}

#[test]
fn a_member_busy_processing_holds_the_rebalance_until_it_polls_again() {
    let mut sim = build(vec![member("c1", None, CommitMode::Auto, 1), member("c2", None, CommitMode::Auto, 1)], Strategy::Range);
    sim.apply(GroupCommand::SetProcessing { group: "g".into(), client_id: "c1".into(), processing_ms: 8_000 }).expect("slow");
    produce_n(&mut sim, 0, 1); // m0 goes to partition 0, owned by c1.
    run(&mut sim, 500);
    sim.apply(GroupCommand::AddMember { group: "g".into(), member: member("c3", None, CommitMode::Auto, 1) }).expect("add");
    run(&mut sim, 20_000);
    let processed_at = sim
        .trace()
        .events()
        .find(|e| matches!(&e.kind, EventKind::Consume(ConsumeEvent::RecordProcessed { client_id, .. }) if client_id == "c1"))
        .map(|e| e.time.ms());
    let c1_rejoined = sim
        .trace()
        .events()
        .find(|e| matches!(&e.kind, EventKind::Group(GroupEvent::JoinGroupSent { client_id, generation, .. }) if client_id == "c1" && *generation == 1))
        .map(|e| e.time.ms());
    let formed = sim
        .trace()
        .events()
        .find(|e| matches!(e.kind, EventKind::Group(GroupEvent::JoinPhaseCompleted { generation: 2, .. })))
        .map(|e| e.time.ms());
    let (processed_at, c1_rejoined, formed) = (processed_at.expect("processed"), c1_rejoined.expect("rejoined"), formed.expect("formed"));
    assert!(c1_rejoined >= processed_at, "c1 rejoins only from poll(), after processing ({c1_rejoined} < {processed_at})");
    assert!(formed > c1_rejoined, "the whole group waited for c1");
}

/// Kafka's consumer leaves the moment `max.poll.interval.ms` has passed since the last
/// `poll()` (`Heartbeat.pollTimeoutExpired`: the poll timer expires at last poll + the
/// interval, and the heartbeat thread wakes at least every `retry.backoff.ms` to look), not
/// at its next heartbeat.
#[test]
fn a_stuck_member_leaves_the_moment_max_poll_interval_ms_has_passed_since_its_last_poll() {
    let mut sim = build(vec![member("c1", None, CommitMode::Auto, 1), member("c2", None, CommitMode::Auto, 1)], Strategy::Range);
    produce_n(&mut sim, 0, 4);
    run(&mut sim, 2_345);
    sim.apply(GroupCommand::PauseMember { group: "g".into(), client_id: "c2".into(), paused: true }).expect("pause");
    let deadline = sim.read().group("g").and_then(|g| g.member("c2")).and_then(|m| m.poll_deadline()).expect("a paused member has one");
    run(&mut sim, 25_000);
    let sent: Vec<SimTime> = sim
        .trace()
        .events()
        .filter(|e| matches!(&e.kind, EventKind::Group(GroupEvent::PartitionsRevoked { client_id, .. }) if client_id == "c2"))
        .map(|e| e.time)
        .collect();
    assert_eq!(sent.last(), Some(&deadline), "c2 gives up its partitions at the deadline, not at a heartbeat after it");
    let left: Vec<SimTime> = sim
        .trace()
        .events()
        .filter(|e| matches!(&e.kind, EventKind::Group(GroupEvent::MemberLeft { client_id, reason: LeaveReason::PollTimeout, .. }) if client_id == "c2"))
        .map(|e| e.time)
        .collect();
    assert_eq!(left, [deadline.plus_ms(10)], "its LeaveGroup reaches the coordinator one hop (10 ms) later");
}

/// Found by the fuzz test: a member stuck outside `poll()` while another joins. The join
/// phase ends at the rebalance timeout (the stuck member's `max.poll.interval.ms`, counted
/// from when the rebalance began, after its last poll), which removes it and gives its
/// partitions to the others; it must have given them up by then, as Kafka's consumer
/// does, or two members own a partition (the named invariant, checked after every step).
#[test]
fn a_stuck_member_has_given_up_its_partitions_before_the_rebalance_timeout_hands_them_on() {
    let mut sim = build(vec![member("c1", None, CommitMode::Auto, 1), member("c2", None, CommitMode::Auto, 1)], Strategy::Range);
    produce_n(&mut sim, 0, 4);
    run(&mut sim, 2_000);
    sim.apply(GroupCommand::PauseMember { group: "g".into(), client_id: "c2".into(), paused: true }).expect("pause");
    sim.apply(GroupCommand::AddMember { group: "g".into(), member: member("c3", None, CommitMode::Auto, 1) }).expect("join");
    for _ in 0..40 {
        run(&mut sim, 1_000);
        kafka_sandbox_core::invariant::check(&sim).expect("one owner per partition at every moment");
    }
    assert!(count(&sim, |k| matches!(k, EventKind::Group(GroupEvent::MemberLeft { client_id, .. }) if client_id == "c2")) >= 1);
}

/// Classic protocol: the leader crashes after the join phase and never sends SyncGroup.
/// The followers keep heartbeating while they wait for their assignment (Kafka's heartbeat
/// thread runs in COMPLETING_REBALANCE, and the coordinator resets every member's session
/// when the join completes), so only the crashed leader times out; the others rebalance
/// without it.
#[test]
fn rebalance_a_leader_crashing_before_sync_takes_only_itself_out_of_the_group() {
    use kafka_sandbox_core::event::GroupEvent;
    for assignor in [kafka_sandbox_core::Strategy::Range, kafka_sandbox_core::Strategy::CooperativeSticky] {
        let mut b = Scenario::builder();
        b.brokers(3);
        let t = b.topic(TopicSpec::new("t").partitions(6).replication_factor(3));
        let g = b.group(GroupSpec::new("g", [&t]).assignor(assignor).members([MemberSpec::new("c1"), MemberSpec::new("c2")]));
        b.at(5_000, Command::add_member(&g, MemberSpec::new("c3")));
        b.at(8_000, Command::crash_member(&g.member("c1")));
        let mut sim = b.build().expect("valid");
        sim.run_to(SimTime(120_000));
        let left: Vec<String> = sim
            .trace()
            .events()
            .filter_map(|e| match &e.kind {
                EventKind::Group(GroupEvent::MemberLeft { client_id, .. }) => Some(client_id.clone()),
                _ => None,
            })
            .collect();
        assert_eq!(left, ["c1"], "{assignor:?}: only the crashed leader leaves");
        let group = sim.group(&g).expect("group");
        assert_eq!(group.state(), GroupState::Stable, "{assignor:?}");
        let owned: usize = ["c2", "c3"].iter().map(|c| group.member(c).map_or(0, |m| m.assigned().len())).sum();
        assert_eq!(owned, 6, "{assignor:?}: c2 and c3 own every partition");
    }
}

#[test]
fn a_classic_member_with_a_session_timeout_below_the_brokers_minimum_is_refused_with_invalid_session_timeout() {
    // `group.min.session.timeout.ms` is 6000 by default: "short" asks for 3000, so the
    // coordinator answers its first JoinGroup INVALID_SESSION_TIMEOUT
    // (`GroupCoordinatorService.joinGroup`, before MEMBER_ID_REQUIRED); its poll() throws
    // InvalidSessionTimeoutException and the consumer stops. "ok" (6000) joins and owns
    // every partition.
    let mut short = member("short", None, CommitMode::Auto, 10);
    short.config.session_timeout_ms = 3_000;
    short.config.heartbeat_interval_ms = 1_000;
    let mut sim = build(vec![short, member("ok", None, CommitMode::Auto, 10)], kafka_sandbox_core::assign::Strategy::Range);
    sim.run_to(SimTime(10_000));
    let failed: Vec<(String, &str)> = sim
        .trace()
        .events()
        .filter_map(|e| match &e.kind {
            EventKind::ConsumerProtocol(kafka_sandbox_core::event::ConsumerProtocolEvent::ConsumerFailed { client_id, error, .. }) => {
                Some((client_id.clone(), error.name()))
            }
            _ => None,
        })
        .collect();
    assert_eq!(failed, vec![("short".to_string(), "INVALID_SESSION_TIMEOUT")]);
    assert!(
        !sim.trace().events().any(|e| matches!(&e.kind, EventKind::Group(kafka_sandbox_core::event::GroupEvent::MemberIdRequired { client_id, .. }) if client_id == "short")),
        "refused before the coordinator gives it a member id"
    );
    let g = sim.group("g").expect("group");
    assert_eq!(g.state(), GroupState::Stable);
    for p in 0..4 {
        assert_eq!(g.owners("t", p).collect::<Vec<_>>(), vec!["ok"]);
    }
    assert!(g.member("short").expect("short").assigned().is_empty());

    // An operator who lowers group.min.session.timeout.ms lets the same member in.
    let mut short = member("short", None, CommitMode::Auto, 10);
    short.config.session_timeout_ms = 3_000;
    short.config.heartbeat_interval_ms = 1_000;
    let scenario = Scenario {
        cluster: ClusterConfig { group_min_session_timeout_ms: 1_000, ..ClusterConfig::default() },
        topics: vec![TopicSpec { name: "t".into(), partitions: 4, ..TopicSpec::default() }],
        groups: vec![GroupSpec { id: "g".into(), topics: vec!["t".into()], members: vec![short], ..GroupSpec::default() }],
        ..Scenario::default()
    };
    let mut sim = scenario.build().expect("builds");
    sim.run_to(SimTime(10_000));
    assert_eq!(sim.group("g").map(|g| g.state()), Some(GroupState::Stable));
}

/// Group "g" (auto.offset.reset earliest) on "t" (4 partitions) with `members`, offsets
/// kept one minute and checked every 10 s; 8 records sent at 1 s.
fn expiring(members: Vec<MemberSpec>, protocol: kafka_sandbox_core::config::GroupProtocol) -> Sim {
    let scenario = Scenario {
        seed: 5,
        cluster: ClusterConfig {
            network_latency_ms: 10,
            group_initial_rebalance_delay_ms: 0,
            offsets_retention_minutes: 1,
            offsets_retention_check_interval_ms: 10_000,
            ..ClusterConfig::default()
        },
        topics: vec![TopicSpec { name: "t".into(), partitions: 4, ..TopicSpec::default() }],
        producers: vec![ProducerSpec { name: "p".into(), ..ProducerSpec::default() }],
        groups: vec![GroupSpec {
            id: "g".into(),
            topics: vec!["t".into()],
            config: GroupConfig { auto_offset_reset: OffsetReset::Earliest, group_protocol: protocol, ..GroupConfig::default() },
            members,
            ..GroupSpec::default()
        }],
        ..Scenario::default()
    };
    let mut sim = scenario.build().expect("builds");
    sim.run_to(SimTime(1_000));
    produce_n(&mut sim, 0, 8);
    sim.run_to(SimTime(15_000));
    sim
}

fn got(sim: &Sim, client: &str) -> Vec<String> {
    sim.group("g").and_then(|g| g.member(client)).map(|m| m.received().map(|d| d.value.to_string()).collect()).unwrap_or_default()
}

fn expired_events(sim: &Sim) -> Vec<(u64, usize)> {
    sim.trace()
        .events()
        .filter_map(|e| match &e.kind {
            EventKind::Consume(ConsumeEvent::OffsetsExpired { offsets, .. }) => Some((e.time.ms(), offsets.len())),
            _ => None,
        })
        .collect()
}

#[test]
fn committed_offsets_expire_after_the_group_has_been_empty_for_offsets_retention_minutes_and_the_next_consumer_resets() {
    use kafka_sandbox_core::config::GroupProtocol;
    for protocol in [GroupProtocol::Classic, GroupProtocol::Consumer] {
        let mut sim = expiring(vec![member("c1", None, CommitMode::Auto, 1)], protocol);
        assert_eq!(got(&sim, "c1").len(), 8, "{protocol:?}");
        // c1 closes: it commits on close and leaves; the group is Empty from then on.
        sim.apply(GroupCommand::RemoveMember { group: "g".into(), client_id: "c1".into() }).expect("remove");
        sim.run_to(SimTime(16_000));
        let g = sim.group("g").expect("group");
        assert_eq!(g.state(), GroupState::Empty, "{protocol:?}");
        assert_eq!(g.committed_offsets().map(|(_, o)| o).sum::<u64>(), 8, "every record committed");
        // A consumer that comes back within the retention resumes from the offsets...
        let mut early = sim.clone();
        early.apply(GroupCommand::AddMember { group: "g".into(), member: member("c2", None, CommitMode::Auto, 1) }).expect("add");
        early.run_to(SimTime(40_000));
        assert!(got(&early, "c2").is_empty(), "{protocol:?}: resumes after what c1 committed");
        // ...but one minute after the group became Empty (classic) or after the last
        // commit (KIP-848), the next check (every 10 s) deletes them.
        sim.run_to(SimTime(100_000));
        let expired = expired_events(&sim);
        assert_eq!(expired.len(), 1, "{protocol:?}: {expired:?}");
        let (at, n) = expired[0];
        assert!((76_000..=80_000).contains(&at) && at % 10_000 == 0, "{protocol:?}: the first check a minute after ~15.5 s: {at}");
        assert!(n > 0);
        assert_eq!(sim.group("g").expect("group").committed_offsets().count(), 0);
        sim.apply(GroupCommand::AddMember { group: "g".into(), member: member("c2", None, CommitMode::Auto, 1) }).expect("add");
        sim.run_to(SimTime(130_000));
        let mut got = got(&sim, "c2");
        got.sort();
        assert_eq!(got.len(), 8, "{protocol:?}: auto.offset.reset=earliest: c2 reads everything again");
    }
}

#[test]
fn a_group_with_members_keeps_the_offsets_of_the_topics_it_subscribes_to() {
    use kafka_sandbox_core::config::GroupProtocol;
    for protocol in [GroupProtocol::Classic, GroupProtocol::Consumer] {
        let mut sim = expiring(vec![member("c1", None, CommitMode::Auto, 1)], protocol);
        sim.run_to(SimTime(300_000));
        assert!(expired_events(&sim).is_empty(), "{protocol:?}");
        assert_eq!(sim.group("g").expect("group").committed_offsets().map(|(_, o)| o).sum::<u64>(), 8, "{protocol:?}");
    }
}

/// The card's first-rebalance hint ("the first generation forms at …") is computed from
/// the simulation: in the default scenario both members of ConsumerGroup01 join during
/// the initial delay, so the coordinator waits once more and the generation forms at
/// 6.3 s, not at the 3.3 s its first timer says; ConsumerGroup02's one member forms at
/// 3.3 s. From the moment the members have joined, the hint names the moment exactly.
#[test]
fn the_first_rebalance_hint_names_the_moment_the_generation_forms() {
    let Ok(mut sim) = kafka_sandbox_core::scenario::default_scenario().build() else { panic!("the default scenario builds") };
    let mut predicted: Vec<(String, SimTime, SimTime)> = Vec::new();
    while sim.now() < SimTime(8_000) {
        for g in sim.groups() {
            // Once every member of the scenario's group has joined (before that, the hint
            // rightly names the timer the members so far set).
            let all_joined = g.registered().count() == g.members().count();
            if let Some(at) = g.join_phase_ends().filter(|_| g.initial_rebalance() && all_joined) {
                predicted.push((g.id().to_string(), sim.now(), at));
            }
        }
        if sim.step().is_none() {
            break;
        }
    }
    let formed = |group: &str| {
        sim.read()
            .events()
            .find(|e| matches!(&e.kind, EventKind::Group(kafka_sandbox_core::event::GroupEvent::JoinPhaseCompleted { group: g, .. }) if g == group))
            .map(|e| e.time)
    };
    for (group, expected) in [("ConsumerGroup01", 6_300), ("ConsumerGroup02", 3_300)] {
        assert_eq!(formed(group), Some(SimTime(expected)), "{group}");
        let seen: Vec<_> = predicted.iter().filter(|(g, _, _)| g == group).collect();
        assert!(!seen.is_empty(), "{group} showed a hint");
        for (_, now, at) in seen {
            assert_eq!(*at, SimTime(expected), "{group} at {} ms", now.ms());
        }
    }
}
