//! Random command sequences; the model's invariants checked after every step.

use kafka_sandbox_core::assign::server::ServerAssignor;
use kafka_sandbox_core::assign::Strategy as Assignor;
use kafka_sandbox_core::command::{
    AcknowledgeRule, AcknowledgeType, AcknowledgementMode, ShareConsumerConfig, ShareGroupCommand, ShareGroupConfig, ShareGroupSpec,
    ShareMemberSpec,
};
use kafka_sandbox_core::command::{GroupCommand, ProduceCommand, TxnCommand};
use kafka_sandbox_core::command::{GroupSpec, MemberSpec};
use kafka_sandbox_core::config::{ClusterConfig, GroupConfig, GroupProtocol, IsolationLevel, OffsetReset, ProducerConfig};
use kafka_sandbox_core::event::ConsumeEvent;
use kafka_sandbox_core::partitioner::PartitionerKind;
use kafka_sandbox_core::scenario::{ProducerSpec, Scenario, TopicSpec};
use kafka_sandbox_core::{Command, Sim};
use proptest::prelude::*;
use std::collections::BTreeMap;

#[derive(Clone, Debug)]
enum Op {
    Produce {
        producer: u8,
        topic: u8,
        key: Option<u8>,
        partition: Option<u8>,
    },
    AddMember {
        group: u8,
        client: u8,
    },
    RemoveMember {
        group: u8,
        client: u8,
    },
    AddGroup {
        group: u8,
        assignor: u8,
        earliest: bool,
    },
    SetAssignor {
        group: u8,
        assignor: u8,
    },
    Seek {
        group: u8,
        client: u8,
        to_end: bool,
    },
    Subscribe {
        group: u8,
        client: u8,
        both: bool,
    },
    /// A share group (KIP-932) "q{group}" on topic a or b.
    AddShareGroup {
        group: u8,
        earliest: bool,
    },
    /// To a share consumer: add (implicit, or explicit releasing every record), remove,
    /// crash, restart.
    Share {
        group: u8,
        client: u8,
        kind: u8,
    },
    /// The transactional producer "p2": begin, commit, abort, sendOffsetsToTransaction (a
    /// member's positions), crash, restart, a second instance with its transactional.id.
    Txn {
        kind: u8,
        group: u8,
        client: u8,
    },
    SetIsolationLevel {
        group: u8,
        committed: bool,
    },
    Step(u8),
    Advance(u16),
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        4 => (0..3u8, 0..2u8, proptest::option::of(0..6u8), proptest::option::weighted(0.2, 0..5u8))
            .prop_map(|(producer, topic, key, partition)| Op::Produce { producer, topic, key, partition }),
        2 => (0..3u8, 0..6u8).prop_map(|(group, client)| Op::AddMember { group, client }),
        1 => (0..3u8, 0..6u8).prop_map(|(group, client)| Op::RemoveMember { group, client }),
        // Assignors 4 and 5: the KIP-848 consumer protocol with the uniform or range
        // broker-side assignor.
        1 => (0..3u8, 0..6u8, any::<bool>()).prop_map(|(group, assignor, earliest)| Op::AddGroup { group, assignor, earliest }),
        1 => (0..3u8, 0..4u8).prop_map(|(group, assignor)| Op::SetAssignor { group, assignor }),
        1 => (0..3u8, 0..6u8, any::<bool>()).prop_map(|(group, client, to_end)| Op::Seek { group, client, to_end }),
        1 => (0..3u8, 0..6u8, any::<bool>()).prop_map(|(group, client, both)| Op::Subscribe { group, client, both }),
        1 => (0..2u8, any::<bool>()).prop_map(|(group, earliest)| Op::AddShareGroup { group, earliest }),
        2 => (0..2u8, 0..6u8, 0..5u8).prop_map(|(group, client, kind)| Op::Share { group, client, kind }),
        3 => (0..7u8, 0..3u8, 0..6u8).prop_map(|(kind, group, client)| Op::Txn { kind, group, client }),
        1 => (0..3u8, any::<bool>()).prop_map(|(group, committed)| Op::SetIsolationLevel { group, committed }),
        4 => (1..40u8).prop_map(Op::Step),
        2 => (1..4000u16).prop_map(Op::Advance),
    ]
}

fn base(seed: u64) -> Sim {
    let s = Scenario {
        seed,
        cluster: ClusterConfig::default(),
        topics: vec![
            TopicSpec {
                name: "a".into(),
                partitions: 3,
                replication_factor: 2,
                message_timestamp_type: Default::default(),
                min_insync_replicas: 1,
                unclean_leader_election_enable: false,
                ..TopicSpec::default()
            },
            TopicSpec {
                name: "b".into(),
                partitions: 5,
                replication_factor: 3,
                message_timestamp_type: Default::default(),
                min_insync_replicas: 2,
                unclean_leader_election_enable: false,
                ..TopicSpec::default()
            },
        ],
        producers: vec![
            ProducerSpec { name: "p0".into(), config: ProducerConfig { batch_size: 100, ..Default::default() }, ..ProducerSpec::default() },
            ProducerSpec {
                name: "p1".into(),
                config: ProducerConfig { partitioner: PartitionerKind::RoundRobin, linger_ms: 0, ..Default::default() },
                ..ProducerSpec::default()
            },
            ProducerSpec {
                name: "p2".into(),
                config: ProducerConfig { transactional_id: Some("tx-p".into()), transaction_timeout_ms: 5_000, ..Default::default() },
                ..ProducerSpec::default()
            },
        ],
        ..Scenario::default()
    };
    s.build().expect("base scenario")
}

fn pick(i: u8) -> Assignor {
    [Assignor::Range, Assignor::RoundRobin, Assignor::Sticky, Assignor::CooperativeSticky][usize::from(i % 4)]
}

fn to_command(op: &Op) -> Option<Command> {
    let topic = |t: u8| if t == 0 { "a".to_string() } else { "b".to_string() };
    let group = |g: u8| format!("g{g}");
    Some(match op.clone() {
        Op::Produce { producer, topic: t, key, partition } => Command::Produce(ProduceCommand::Produce {
            producer: format!("p{producer}"),
            topic: topic(t),
            key: key.map(|k| format!("key{k}")),
            value: Some("v".into()),
            partition: partition.map(u32::from),
            headers: vec![],
        }),
        Op::AddMember { group: g, client } => {
            Command::Group(GroupCommand::AddMember { group: group(g), member: MemberSpec::new(format!("c{client}")) })
        }
        Op::RemoveMember { group: g, client } => {
            Command::Group(GroupCommand::RemoveMember { group: group(g), client_id: format!("c{client}") })
        }
        Op::AddGroup { group: g, assignor, earliest } => Command::Group(GroupCommand::AddGroup {
            group: GroupSpec {
                id: group(g),
                topics: if g == 2 { vec!["a".into(), "b".into()] } else { vec![topic(g)] },
                config: GroupConfig {
                    assignor: pick(assignor),
                    auto_offset_reset: if earliest { OffsetReset::Earliest } else { OffsetReset::Latest },
                    group_protocol: if assignor >= 4 { GroupProtocol::Consumer } else { GroupProtocol::Classic },
                    remote_assignor: if assignor == 5 { ServerAssignor::Range } else { ServerAssignor::Uniform },
                    ..GroupConfig::default()
                },
                members: vec![MemberSpec::new("c0")],
                ..GroupSpec::default()
            },
        }),
        Op::SetAssignor { group: g, assignor } => Command::Group(GroupCommand::SetAssignor { group: group(g), assignor: pick(assignor) }),
        Op::Seek { group: g, client, to_end } => Command::Group(GroupCommand::Seek {
            group: group(g),
            client_id: format!("c{client}"),
            topic: topic(g % 2),
            partition: None,
            to: if to_end { kafka_sandbox_core::command::SeekTo::End } else { kafka_sandbox_core::command::SeekTo::Beginning },
        }),
        Op::Subscribe { group: g, client, both } => Command::Group(GroupCommand::Subscribe {
            group: group(g),
            client_id: format!("c{client}"),
            topics: if both { vec!["a".into(), "b".into()] } else { vec![topic(g % 2)] },
        }),
        Op::AddShareGroup { group: g, earliest } => Command::ShareGroup(ShareGroupCommand::AddShareGroup {
            share_group: ShareGroupSpec {
                id: format!("q{g}"),
                topics: vec![topic(g)],
                config: ShareGroupConfig {
                    share_auto_offset_reset: if earliest { OffsetReset::Earliest } else { OffsetReset::Latest },
                    ..ShareGroupConfig::default()
                },
                members: vec![ShareMemberSpec::new("s0")],
            },
        }),
        Op::Share { group: g, client, kind } => {
            let (group, client_id) = (format!("q{g}"), format!("s{client}"));
            match kind {
                0 | 1 => Command::ShareGroup(ShareGroupCommand::AddShareMember {
                    group,
                    share_member: ShareMemberSpec {
                        client_id,
                        config: ShareConsumerConfig {
                            share_acknowledgement_mode: if kind == 1 {
                                AcknowledgementMode::Explicit
                            } else {
                                AcknowledgementMode::Implicit
                            },
                            ..ShareConsumerConfig::default()
                        },
                        acknowledge: vec![AcknowledgeRule { value: "v".into(), acknowledge_type: AcknowledgeType::Release }],
                    },
                }),
                2 => Command::ShareGroup(ShareGroupCommand::RemoveShareMember { group, client_id }),
                3 => Command::ShareGroup(ShareGroupCommand::CrashShareMember { group, client_id }),
                _ => Command::ShareGroup(ShareGroupCommand::RestartShareMember { group, client_id }),
            }
        }
        Op::Txn { kind, group: g, client } => {
            let producer = "p2".to_string();
            Command::Txn(match kind {
                0 => TxnCommand::BeginTransaction { producer },
                1 => TxnCommand::CommitTransaction { producer },
                2 => TxnCommand::AbortTransaction { producer },
                3 => TxnCommand::SendOffsetsToTransaction { producer, group: group(g), client_id: format!("c{client}") },
                4 => TxnCommand::CrashProducer { producer },
                5 => TxnCommand::RestartProducer { producer },
                _ => TxnCommand::AddProducer {
                    producer: format!("p2-{client}"),
                    config: ProducerConfig { transactional_id: Some("tx-p".into()), ..Default::default() },
                },
            })
        }
        Op::SetIsolationLevel { group: g, committed } => Command::Txn(TxnCommand::SetIsolationLevel {
            group: group(g),
            isolation_level: if committed { IsolationLevel::ReadCommitted } else { IsolationLevel::ReadUncommitted },
        }),
        Op::Step(_) | Op::Advance(_) => return None,
    })
}

/// The model's invariants; returns what is broken.
/// What the checker remembers between steps: how far it has read the trace, and per
/// (group, client, partition) the last offset delivered since the member's position was
/// last set — a member may re-read after it gets a partition again (at least once), but
/// within one ownership deliveries only move forward.
#[derive(Default)]
struct Seen {
    cursor: u64,
    last: BTreeMap<(String, String, String), u64>,
}

fn check(sim: &Sim, seen: &mut Seen) -> Result<(), String> {
    use kafka_sandbox_core::EventKind as E;
    for e in sim.events_since(seen.cursor) {
        match &e.kind {
            E::Consume(ConsumeEvent::PositionSet { group, client_id, tp, .. })
            | E::Consume(ConsumeEvent::PositionReset { group, client_id, tp, .. })
            | E::Consume(ConsumeEvent::TruncationDetected { group, client_id, tp, .. })
            | E::Consume(ConsumeEvent::Seeked { group, client_id, tp, .. }) => {
                seen.last.remove(&(group.to_string(), client_id.to_string(), tp.to_string()));
            }
            E::Consume(ConsumeEvent::RecordDelivered { group, client_id, tp, offset, .. }) => {
                let key = (group.to_string(), client_id.to_string(), tp.to_string());
                if let Some(prev) = seen.last.insert(key, *offset) {
                    if *offset <= prev {
                        return Err(format!("{group}: {client_id} got {tp} offset {offset} after {prev}"));
                    }
                }
            }
            _ => {}
        }
    }
    seen.cursor = sim.trace().total();
    kafka_sandbox_core::invariant::check(sim).map_err(|v| v.to_string())?;
    for g in sim.groups() {
        for m in g.members() {
            // Received records: each really in the log at that offset.
            for d in m.received() {
                let log = sim.partition(&d.tp).and_then(|p| p.leader_log());
                let stored = log.and_then(|l| l.records().iter().find(|r| r.offset == d.offset));
                match stored {
                    Some(r) if r.record.id == d.record => {}
                    _ => return Err(format!("{}: {} got {} at {} which the log does not hold", g.id(), m.client_id(), d.record, d.offset)),
                }
            }
        }
    }
    for g in sim.share_groups() {
        for m in g.members() {
            for d in m.received() {
                let log = sim.partition(&d.tp).and_then(|p| p.leader_log());
                let stored = log.and_then(|l| l.records().iter().find(|r| r.offset == d.offset));
                match stored {
                    Some(r) if r.record.id == d.record => {}
                    _ => return Err(format!("{}: {} got {} at {} which the log does not hold", g.id(), m.client_id(), d.record, d.offset)),
                }
            }
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn invariants_hold_after_every_step(seed in any::<u64>(), ops in proptest::collection::vec(op(), 1..120)) {
        let mut sim = base(seed);
        let mut seen = Seen::default();
        for (i, op) in ops.iter().enumerate() {
            match op {
                Op::Step(n) => {
                    for _ in 0..*n {
                        if sim.step().is_none() { break; }
                        if let Err(e) = check(&sim, &mut seen) {
                            prop_assert!(false, "seed {seed}, op {i} ({op:?}), step {}: {e}", sim.steps());
                        }
                    }
                }
                Op::Advance(ms) => {
                    let until = sim.now().plus_ms(u64::from(*ms));
                    while sim.next_event_time().is_some_and(|t| t <= until) {
                        sim.step();
                        if let Err(e) = check(&sim, &mut seen) {
                            prop_assert!(false, "seed {seed}, op {i} ({op:?}), step {}: {e}", sim.steps());
                        }
                    }
                    sim.run_to(until);
                }
                other => {
                    if let Some(c) = to_command(other) {
                        // Refused commands are fine (unknown member, …); they must not change anything.
                        let before = sim.trace().total();
                        if sim.apply(c).is_err() {
                            prop_assert_eq!(before, sim.trace().total());
                        }
                    }
                }
            }
            if let Err(e) = check(&sim, &mut seen) {
                prop_assert!(false, "seed {seed}, op {i} ({op:?}): {e}");
            }
        }
        // Once membership stops changing and time passes, every group with members is
        // Stable and every partition of a subscribed topic is owned.
        let later = sim.now().plus_ms(400_000);
        sim.run_to(later);
        for g in sim.groups() {
            if g.members().next().is_none() { continue; }
            prop_assert_eq!(g.state(), kafka_sandbox_core::group::GroupState::Stable, "seed {}", seed);
            let owned: usize = g.members().map(|m| m.assigned().len()).sum();
            let mut topics: Vec<&String> = g.members().flat_map(|m| m.topics()).collect();
            topics.sort();
            topics.dedup();
            let total: u32 = topics.iter().map(|t| sim.topic(t).map(|t| t.partition_count()).unwrap_or(0)).sum();
            let shown: Vec<String> = g.members().map(|m| format!("{} {:?} {:?}: {:?}", m.client_id(), m.phase(), m.topics(), m.assigned().iter().map(|tp| tp.to_string()).collect::<Vec<_>>())).collect();
            prop_assert_eq!(owned as u32, total, "seed {}: group {} members {:?}", seed, g.id(), shown);
        }
        // Share groups: while a member lives, every record is eventually acknowledged or
        // archived (nothing lost, nothing stuck): each share partition a running member is
        // assigned has nothing left in flight and no lag.
        for g in sim.share_groups() {
            for (tp, sp) in g.partitions() {
                if g.owners(tp).is_empty() { continue; }
                prop_assert_eq!((sp.in_flight(), g.lag(tp)), (0, Some(0)), "seed {}: share group {} {}", seed, g.id(), tp);
            }
        }
    }
}
