//! Random command sequences; the model's invariants checked after every step.

use kafka_sandbox_core::assign::server::ServerAssignor;
use kafka_sandbox_core::assign::Strategy as Assignor;
use kafka_sandbox_core::command::{GroupCommand, ProduceCommand};
use kafka_sandbox_core::command::{GroupSpec, MemberSpec};
use kafka_sandbox_core::config::{ClusterConfig, GroupConfig, GroupProtocol, OffsetReset, ProducerConfig};
use kafka_sandbox_core::event::ConsumeEvent;
use kafka_sandbox_core::partitioner::PartitionerKind;
use kafka_sandbox_core::scenario::{ProducerSpec, Scenario, TopicSpec};
use kafka_sandbox_core::{Command, Sim};
use proptest::prelude::*;
use std::collections::BTreeMap;

#[derive(Clone, Debug)]
enum Op {
    Produce { producer: u8, topic: u8, key: Option<u8>, partition: Option<u8> },
    AddMember { group: u8, client: u8 },
    RemoveMember { group: u8, client: u8 },
    AddGroup { group: u8, assignor: u8, earliest: bool },
    SetAssignor { group: u8, assignor: u8 },
    Seek { group: u8, client: u8, to_end: bool },
    Subscribe { group: u8, client: u8, both: bool },
    Step(u8),
    Advance(u16),
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        4 => (0..2u8, 0..2u8, proptest::option::of(0..6u8), proptest::option::weighted(0.2, 0..5u8))
            .prop_map(|(producer, topic, key, partition)| Op::Produce { producer, topic, key, partition }),
        2 => (0..3u8, 0..6u8).prop_map(|(group, client)| Op::AddMember { group, client }),
        1 => (0..3u8, 0..6u8).prop_map(|(group, client)| Op::RemoveMember { group, client }),
        // Assignors 4 and 5: the KIP-848 consumer protocol with the uniform or range
        // broker-side assignor.
        1 => (0..3u8, 0..6u8, any::<bool>()).prop_map(|(group, assignor, earliest)| Op::AddGroup { group, assignor, earliest }),
        1 => (0..3u8, 0..4u8).prop_map(|(group, assignor)| Op::SetAssignor { group, assignor }),
        1 => (0..3u8, 0..6u8, any::<bool>()).prop_map(|(group, client, to_end)| Op::Seek { group, client, to_end }),
        1 => (0..3u8, 0..6u8, any::<bool>()).prop_map(|(group, client, both)| Op::Subscribe { group, client, both }),
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
            | E::Consume(ConsumeEvent::Seeked { group, client_id, tp, .. }) => {
                seen.last.remove(&(group.clone(), client_id.clone(), tp.to_string()));
            }
            E::Consume(ConsumeEvent::RecordDelivered { group, client_id, tp, offset, .. }) => {
                let key = (group.clone(), client_id.clone(), tp.to_string());
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
    }
}
