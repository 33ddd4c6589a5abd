//! Random command sequences applied to a running `Sim`, as the page and a timeline apply
//! them: every command type (a test checks the generator draws each), names that exist
//! and names that do not (empty, too long, control characters, HTML), broker ids past the
//! cluster, and absurd numbers, interleaved with steps and jumps in time. (tests/sim/properties.rs checks the model's invariants
//! under well-formed commands; tests/sim/swarm.rs under broker faults.)
//!
//! Checked: no panic; a refused command has a message and changes nothing (trace, digest,
//! command log, steps, clock); an accepted one is logged; and replaying the command log
//! on the starting state gives the same trace.

use super::support::{bounded, fuzz, seed_scenarios};
use kafka_sandbox_core::assign::Strategy as Assignor;
use kafka_sandbox_core::command::{
    AcknowledgeRule, AcknowledgeType, AcknowledgementMode, ShareConsumerConfig, ShareGroupCommand, ShareGroupConfig, ShareGroupSpec,
    ShareMemberSpec,
};
use kafka_sandbox_core::command::{BrokerCommand, ConnectCommand, GroupCommand, ProduceCommand, TopicCommand, TxnCommand};
use kafka_sandbox_core::command::{GroupSpec, MemberSpec, SeekTo};
use kafka_sandbox_core::config::{Acks, ConsumerConfig, GroupConfig, IsolationLevel, OffsetReset, ProcessingGuarantee, ProducerConfig};
use kafka_sandbox_core::group::CommitMode;
use kafka_sandbox_core::partitioner::PartitionerKind;
use kafka_sandbox_core::record::Header;
use kafka_sandbox_core::scenario::{Scenario, MAX_TIME_MS};
use kafka_sandbox_core::{Command, Sim, SimTime};
use proptest::prelude::*;
use proptest::test_runner::TestCaseResult;

/// Names no scenario defines; some are not even valid names.
const STRANGE: &[&str] = &["", "nope", "<img src=x onerror=alert(1)>", "\u{0}", "😀", "Topic01 "];

const U32S: &[u32] = &[0, 1, 2, 3, 4, 5, 12, 13, 255, 256, 257, 1000, i32::MAX as u32, u32::MAX];
const U64S: &[u64] = &[0, 1, 10, 100, 1000, 60_000, 3_600_000, 3_600_001, MAX_TIME_MS, MAX_TIME_MS + 1, u64::MAX];
const BROKERS: &[u32] = &[0, 1, 2, 3, 4, 11, 12, 13, u32::MAX];

/// One thing done to the running simulation; numbers index the pools above and the
/// names of the simulation it is applied to (past them: [`STRANGE`] names).
#[derive(Clone, Debug)]
enum Op {
    Produce {
        producer: u8,
        topic: u8,
        key: Option<u8>,
        long: bool,
        partition: Option<u8>,
        headers: u8,
    },
    AddMember {
        group: u8,
        client: u8,
        instance: Option<u8>,
        topics: Option<Vec<u8>>,
        setting: Option<(u8, u8)>,
    },
    /// Remove, crash, restart, pause, resume, set processing time, set commit mode.
    Member {
        kind: u8,
        group: u8,
        client: u8,
        number: u8,
    },
    AddGroup {
        id: u8,
        topics: Vec<u8>,
        assignor: u8,
        earliest: bool,
        members: u8,
    },
    SetPartitioner {
        producer: u8,
        round_robin: bool,
    },
    AddPartitions {
        topic: u8,
        partitions: u8,
    },
    /// Crash, restart, isolate, heal, slow, controlled shutdown.
    Broker {
        kind: u8,
        broker: u8,
        slow: u8,
    },
    SetAcks {
        producer: u8,
        acks: u8,
    },
    SetTopicConfig {
        topic: u8,
        min_isr: Option<u8>,
        unclean: Option<bool>,
    },
    SetAssignor {
        group: u8,
        assignor: u8,
    },
    /// Crash or restart a source connector's task.
    Connector {
        crash: bool,
        connector: u8,
    },
    /// `seek()`: to the beginning, the end, an offset or a timestamp (`number` indexes the
    /// last two).
    Seek {
        group: u8,
        client: u8,
        topic: u8,
        partition: Option<u8>,
        to: u8,
        number: u8,
    },
    Subscribe {
        group: u8,
        client: u8,
        topics: Vec<u8>,
    },
    /// A share group (KIP-932) with `members` consumers and one setting (by index) set to
    /// an interesting value.
    AddShareGroup {
        id: u8,
        topics: Vec<u8>,
        members: u8,
        setting: Option<(u8, u8)>,
    },
    /// To a share group's consumer: add, remove, crash, restart, set processing time,
    /// switch acknowledgement mode, set or clear an acknowledge rule.
    Share {
        kind: u8,
        group: u8,
        client: u8,
        number: u8,
    },
    /// A transactional producer's begin, commit, abort, sendOffsetsToTransaction, crash,
    /// restart (`kind` 0–5) on any producer (most are not transactional: refused).
    Txn {
        kind: u8,
        producer: u8,
        group: u8,
        client: u8,
    },
    /// `add_producer`: a name (taken or not), a `transactional.id` (one in use: a second
    /// instance; a new one; none; strange) and settings (`number` indexes the timeout).
    AddProducer {
        producer: u8,
        transactional_id: Option<u8>,
        number: u8,
        acks: Option<u8>,
    },
    /// A group's `isolation.level`, or a Streams application's `processing.guarantee`.
    Isolation {
        streams: bool,
        group: u8,
        committed: bool,
    },
    Step(u8),
    Advance(u8),
    StepVisible,
}

fn op() -> impl Strategy<Value = Op> {
    let idx = || any::<u8>();
    prop_oneof![
        5 => (idx(), idx(), proptest::option::of(idx()), prop::bool::weighted(0.05), proptest::option::weighted(0.3, idx()), prop_oneof![9 => Just(0u8), 1 => idx()])
            .prop_map(|(producer, topic, key, long, partition, headers)| Op::Produce { producer, topic, key, long, partition, headers }),
        3 => (idx(), idx(), proptest::option::weighted(0.2, idx()), proptest::option::weighted(0.2, proptest::collection::vec(idx(), 0..3)), proptest::option::weighted(0.3, (idx(), idx())))
            .prop_map(|(group, client, instance, topics, setting)| Op::AddMember { group, client, instance, topics, setting }),
        4 => (0..7u8, idx(), idx(), idx()).prop_map(|(kind, group, client, number)| Op::Member { kind, group, client, number }),
        1 => (idx(), proptest::collection::vec(idx(), 0..3), idx(), any::<bool>(), idx())
            .prop_map(|(id, topics, assignor, earliest, members)| Op::AddGroup { id, topics, assignor, earliest, members }),
        1 => (idx(), any::<bool>()).prop_map(|(producer, round_robin)| Op::SetPartitioner { producer, round_robin }),
        1 => (idx(), idx()).prop_map(|(topic, partitions)| Op::AddPartitions { topic, partitions }),
        3 => (0..6u8, idx(), idx()).prop_map(|(kind, broker, slow)| Op::Broker { kind, broker, slow }),
        1 => (idx(), idx()).prop_map(|(producer, acks)| Op::SetAcks { producer, acks }),
        1 => (idx(), proptest::option::of(idx()), proptest::option::of(any::<bool>()))
            .prop_map(|(topic, min_isr, unclean)| Op::SetTopicConfig { topic, min_isr, unclean }),
        1 => (idx(), idx()).prop_map(|(group, assignor)| Op::SetAssignor { group, assignor }),
        1 => (any::<bool>(), idx()).prop_map(|(crash, connector)| Op::Connector { crash, connector }),
        1 => (idx(), idx(), idx(), proptest::option::of(idx()), 0..4u8, idx())
            .prop_map(|(group, client, topic, partition, to, number)| Op::Seek { group, client, topic, partition, to, number }),
        1 => (idx(), idx(), proptest::collection::vec(idx(), 0..3)).prop_map(|(group, client, topics)| Op::Subscribe { group, client, topics }),
        1 => (idx(), proptest::collection::vec(idx(), 0..3), idx(), proptest::option::of((idx(), idx())))
            .prop_map(|(id, topics, members, setting)| Op::AddShareGroup { id, topics, members, setting }),
        3 => (0..7u8, idx(), idx(), idx()).prop_map(|(kind, group, client, number)| Op::Share { kind, group, client, number }),
        3 => (0..6u8, idx(), idx(), idx()).prop_map(|(kind, producer, group, client)| Op::Txn { kind, producer, group, client }),
        1 => (idx(), proptest::option::weighted(0.8, idx()), idx(), proptest::option::weighted(0.2, idx()))
            .prop_map(|(producer, transactional_id, number, acks)| Op::AddProducer { producer, transactional_id, number, acks }),
        1 => (any::<bool>(), idx(), any::<bool>()).prop_map(|(streams, group, committed)| Op::Isolation { streams, group, committed }),
        4 => (1..60u8).prop_map(Op::Step),
        2 => idx().prop_map(Op::Advance),
        1 => Just(Op::StepVisible),
    ]
}

/// The names a simulation knows, then the strange ones.
struct Names {
    topics: Vec<String>,
    producers: Vec<String>,
    groups: Vec<String>,
    clients: Vec<String>,
    connectors: Vec<String>,
    /// The `transactional.id`s in use, a new one, then the strange names.
    transactional_ids: Vec<String>,
    /// The Streams applications' ids, then the strange names.
    apps: Vec<String>,
}

impl Names {
    fn of(sim: &Sim) -> Self {
        let with_strange = |mut v: Vec<String>| {
            v.extend(STRANGE.iter().map(|s| s.to_string()));
            v.push("n".repeat(65));
            v
        };
        let mut clients: Vec<String> = sim.groups().flat_map(|g| g.members().map(|m| m.client_id().to_string())).collect();
        clients.extend(sim.share_groups().flat_map(|g| g.members().map(|m| m.client_id().to_string())));
        clients.extend(["c-new", "c-other"].map(String::from));
        clients.sort();
        clients.dedup();
        Self {
            topics: with_strange(sim.topics().map(|t| t.name().to_string()).collect()),
            producers: with_strange(sim.producers().map(|p| p.name().to_string()).collect()),
            groups: with_strange(
                sim.groups()
                    .map(|g| g.id().to_string())
                    .chain(sim.share_groups().map(|g| g.id().to_string()))
                    .chain(["g-new".to_string()])
                    .collect(),
            ),
            clients: with_strange(clients),
            connectors: with_strange(sim.snapshot().connectors.iter().map(|c| c.name.clone()).collect()),
            transactional_ids: with_strange(
                sim.read().producers().filter_map(|p| p.transactional_id().map(String::from)).chain(["tx-new".to_string()]).collect(),
            ),
            apps: with_strange(sim.snapshot().streams.iter().map(|a| a.application_id.clone()).collect()),
        }
    }
}

fn pick<T: Clone>(pool: &[T], i: u8) -> T {
    pool[usize::from(i) % pool.len()].clone()
}

fn assignor(i: u8) -> Assignor {
    pick(&[Assignor::Range, Assignor::RoundRobin, Assignor::Sticky, Assignor::CooperativeSticky], i)
}

/// A consumer setting (by index) set to an interesting value.
fn member_config(setting: Option<(u8, u8)>) -> ConsumerConfig {
    let mut c = ConsumerConfig::default();
    if let Some((field, value)) = setting {
        let v = pick(U64S, value);
        match field % 9 {
            0 => c.max_poll_records = u32::try_from(v).unwrap_or(u32::MAX),
            1 => c.fetch_max_wait_ms = v,
            2 => c.auto_commit_interval_ms = v,
            3 => c.processing_ms = v,
            4 => c.heartbeat_interval_ms = v,
            5 => c.session_timeout_ms = v,
            6 => c.max_poll_interval_ms = v,
            7 => c.metadata_max_age_ms = v,
            _ => c.commit_mode = CommitMode::BeforeProcessing,
        }
    }
    c
}

fn to_command(op: &Op, n: &Names) -> Option<Command> {
    Some(match op.clone() {
        Op::Produce { producer, topic, key, long, partition, headers } => Command::Produce(ProduceCommand::Produce {
            producer: pick(&n.producers, producer),
            topic: pick(&n.topics, topic),
            key: key.map(|k| format!("k{k}")),
            // A null value (a tombstone on a compacted topic) for one key in five.
            value: if long {
                Some("v".repeat(1025))
            } else if key.is_some_and(|k| k % 5 == 0) {
                None
            } else {
                Some("v".into())
            },
            partition: partition.map(|p| pick(U32S, p)),
            headers: (0..[0, 1, 16, 17][usize::from(headers % 4)]).map(|i| Header { key: format!("h{i}"), value: "x".into() }).collect(),
        }),
        Op::AddMember { group, client, instance, topics, setting } => Command::Group(GroupCommand::AddMember {
            group: pick(&n.groups, group),
            member: MemberSpec {
                client_id: pick(&n.clients, client),
                group_instance_id: instance.map(|i| pick(&n.clients, i)),
                topics: topics.map(|t| t.iter().map(|i| pick(&n.topics, *i)).collect()),
                config: member_config(setting),
                ..MemberSpec::default()
            },
        }),
        Op::Member { kind, group, client, number } => {
            let (group, client_id) = (pick(&n.groups, group), pick(&n.clients, client));
            match kind {
                0 => Command::Group(GroupCommand::RemoveMember { group, client_id }),
                1 => Command::Group(GroupCommand::CrashMember { group, client_id }),
                2 => Command::Group(GroupCommand::RestartMember { group, client_id }),
                3 | 4 => Command::Group(GroupCommand::PauseMember { group, client_id, paused: kind == 3 }),
                5 => Command::Group(GroupCommand::SetProcessing { group, client_id, processing_ms: pick(U64S, number) }),
                _ => Command::Group(GroupCommand::SetCommitMode {
                    group,
                    client_id,
                    commit_mode: pick(
                        &[
                            CommitMode::Auto,
                            CommitMode::SyncAfterProcessing,
                            CommitMode::AsyncAfterProcessing,
                            CommitMode::BeforeProcessing,
                        ],
                        number,
                    ),
                }),
            }
        }
        Op::AddGroup { id, topics, assignor: a, earliest, members } => Command::Group(GroupCommand::AddGroup {
            group: GroupSpec {
                id: pick(&n.groups, id),
                topics: topics.iter().map(|t| pick(&n.topics, *t)).collect(),
                config: GroupConfig {
                    assignor: assignor(a),
                    auto_offset_reset: if earliest { OffsetReset::Earliest } else { OffsetReset::Latest },
                    ..GroupConfig::default()
                },
                members: (0..pick(&[0usize, 1, 2, 3, 64, 65], members)).map(|i| MemberSpec::new(format!("m{i}"))).collect(),
                ..GroupSpec::default()
            },
        }),
        Op::SetPartitioner { producer, round_robin } => Command::Produce(ProduceCommand::SetPartitioner {
            producer: pick(&n.producers, producer),
            partitioner: if round_robin { PartitionerKind::RoundRobin } else { PartitionerKind::BuiltIn },
        }),
        Op::AddPartitions { topic, partitions } => {
            Command::Topic(TopicCommand::AddPartitions { topic: pick(&n.topics, topic), partitions: pick(U32S, partitions) })
        }
        Op::Broker { kind, broker, slow } => {
            let broker = pick(BROKERS, broker);
            match kind {
                0 => Command::Broker(BrokerCommand::CrashBroker { broker }),
                1 => Command::Broker(BrokerCommand::RestartBroker { broker }),
                2 => Command::Broker(BrokerCommand::IsolateBroker { broker }),
                3 => Command::Broker(BrokerCommand::HealBroker { broker }),
                5 => Command::Broker(BrokerCommand::ShutdownBroker { broker }),
                _ => Command::Broker(BrokerCommand::SlowBroker { broker, slow_ms: pick(U64S, slow) }),
            }
        }
        Op::SetAcks { producer, acks } => Command::Produce(ProduceCommand::SetAcks {
            producer: pick(&n.producers, producer),
            acks: pick(&[Acks::Zero, Acks::Leader, Acks::All], acks),
        }),
        Op::SetTopicConfig { topic, min_isr, unclean } => Command::Topic(TopicCommand::SetTopicConfig {
            topic: pick(&n.topics, topic),
            min_insync_replicas: min_isr.map(|m| pick(U32S, m)),
            unclean_leader_election_enable: unclean,
        }),
        Op::SetAssignor { group, assignor: a } => {
            Command::Group(GroupCommand::SetAssignor { group: pick(&n.groups, group), assignor: assignor(a) })
        }
        Op::Connector { crash, connector } => {
            let connector = pick(&n.connectors, connector);
            if crash {
                Command::Connect(ConnectCommand::CrashConnector { connector })
            } else {
                Command::Connect(ConnectCommand::RestartConnector { connector })
            }
        }
        Op::Seek { group, client, topic, partition, to, number } => Command::Group(GroupCommand::Seek {
            group: pick(&n.groups, group),
            client_id: pick(&n.clients, client),
            topic: pick(&n.topics, topic),
            partition: partition.map(|p| pick(U32S, p)),
            to: match to {
                0 => SeekTo::Beginning,
                1 => SeekTo::End,
                2 => SeekTo::Offset { offset: pick(U64S, number) },
                _ => SeekTo::Timestamp { timestamp_ms: pick(U64S, number) },
            },
        }),
        Op::Subscribe { group, client, topics } => Command::Group(GroupCommand::Subscribe {
            group: pick(&n.groups, group),
            client_id: pick(&n.clients, client),
            topics: topics.iter().map(|t| pick(&n.topics, *t)).collect(),
        }),
        Op::AddShareGroup { id, topics, members, setting } => {
            let mut config = ShareGroupConfig::default();
            if let Some((field, value)) = setting {
                let v = pick(U64S, value);
                let small = u32::try_from(v).unwrap_or(u32::MAX);
                match field % 7 {
                    0 => config.share_record_lock_duration_ms = v,
                    1 => config.share_delivery_count_limit = small,
                    2 => config.share_partition_max_record_locks = small,
                    3 => config.share_heartbeat_interval_ms = v,
                    4 => config.share_session_timeout_ms = v,
                    5 => config.share_auto_offset_reset = OffsetReset::Earliest,
                    _ => config.share_auto_offset_reset = OffsetReset::None,
                }
            }
            Command::ShareGroup(ShareGroupCommand::AddShareGroup {
                share_group: ShareGroupSpec {
                    id: pick(&n.groups, id),
                    topics: topics.iter().map(|t| pick(&n.topics, *t)).collect(),
                    config,
                    members: (0..pick(&[0usize, 1, 5, 64, 65], members)).map(|i| ShareMemberSpec::new(format!("s{i}"))).collect(),
                },
            })
        }
        Op::Share { kind, group, client, number } => {
            let (group, client_id) = (pick(&n.groups, group), pick(&n.clients, client));
            match kind {
                0 => Command::ShareGroup(ShareGroupCommand::AddShareMember {
                    group,
                    share_member: ShareMemberSpec {
                        client_id,
                        config: ShareConsumerConfig {
                            max_poll_records: u32::try_from(pick(U64S, number)).unwrap_or(u32::MAX),
                            processing_ms: pick(U64S, number.wrapping_add(3)),
                            share_acknowledgement_mode: if number % 2 == 0 {
                                AcknowledgementMode::Explicit
                            } else {
                                AcknowledgementMode::Implicit
                            },
                            ..ShareConsumerConfig::default()
                        },
                        acknowledge: vec![AcknowledgeRule { value: "v".into(), acknowledge_type: AcknowledgeType::Release }],
                    },
                }),
                1 => Command::ShareGroup(ShareGroupCommand::RemoveShareMember { group, client_id }),
                2 => Command::ShareGroup(ShareGroupCommand::CrashShareMember { group, client_id }),
                3 => Command::ShareGroup(ShareGroupCommand::RestartShareMember { group, client_id }),
                4 => Command::ShareGroup(ShareGroupCommand::SetShareProcessing { group, client_id, processing_ms: pick(U64S, number) }),
                5 => Command::ShareGroup(ShareGroupCommand::SetAcknowledgementMode {
                    group,
                    client_id,
                    share_acknowledgement_mode: if number % 2 == 0 { AcknowledgementMode::Explicit } else { AcknowledgementMode::Implicit },
                }),
                _ => Command::ShareGroup(ShareGroupCommand::SetAcknowledgeRule {
                    group,
                    client_id,
                    value: if number % 5 == 0 { "v".repeat(1025) } else { "v".into() },
                    acknowledge_type: pick(
                        &[None, Some(AcknowledgeType::Accept), Some(AcknowledgeType::Release), Some(AcknowledgeType::Reject)],
                        number,
                    ),
                }),
            }
        }
        Op::Txn { kind, producer, group, client } => {
            let producer = pick(&n.producers, producer);
            Command::Txn(match kind {
                0 => TxnCommand::BeginTransaction { producer },
                1 => TxnCommand::CommitTransaction { producer },
                2 => TxnCommand::AbortTransaction { producer },
                3 => TxnCommand::SendOffsetsToTransaction { producer, group: pick(&n.groups, group), client_id: pick(&n.clients, client) },
                4 => TxnCommand::CrashProducer { producer },
                _ => TxnCommand::RestartProducer { producer },
            })
        }
        Op::AddProducer { producer, transactional_id, number, acks } => Command::Txn(TxnCommand::AddProducer {
            producer: if producer % 2 == 0 { format!("p-new-{}", producer % 5) } else { pick(&n.producers, producer) },
            config: ProducerConfig {
                transactional_id: transactional_id.map(|t| pick(&n.transactional_ids, t)),
                transaction_timeout_ms: pick(U64S, number),
                acks: acks.map_or(Acks::All, |a| pick(&[Acks::Zero, Acks::Leader, Acks::All], a)),
                ..ProducerConfig::default()
            },
        }),
        Op::Isolation { streams: false, group, committed } => Command::Txn(TxnCommand::SetIsolationLevel {
            group: pick(&n.groups, group),
            isolation_level: if committed { IsolationLevel::ReadCommitted } else { IsolationLevel::ReadUncommitted },
        }),
        Op::Isolation { streams: true, group, committed } => Command::Txn(TxnCommand::SetProcessingGuarantee {
            application_id: pick(&n.apps, group),
            processing_guarantee: if committed { ProcessingGuarantee::ExactlyOnceV2 } else { ProcessingGuarantee::AtLeastOnce },
        }),
        Op::Step(_) | Op::Advance(_) | Op::StepVisible => return None,
    })
}

/// Most events one `Advance` applies, so a jump of a simulated week stays cheap.
const ADVANCE_STEPS: u64 = 2_000;

fn run_ops(base: &Sim, ops: &[Op]) -> TestCaseResult {
    let names = Names::of(base);
    let mut sim = base.clone();
    for op in ops {
        match op {
            Op::Step(n) => {
                for _ in 0..*n {
                    sim.step();
                }
            }
            Op::Advance(i) => {
                let until = sim.now().plus_ms(pick(U64S, *i));
                sim.run_to_bounded(until, ADVANCE_STEPS);
            }
            Op::StepVisible => {
                sim.step_visible();
            }
            other => {
                let Some(command) = to_command(other, &names) else { continue };
                let before = (sim.trace().total(), sim.trace().digest(), sim.command_log().len(), sim.steps(), sim.now());
                match sim.apply(command.clone()) {
                    Ok(()) => prop_assert_eq!(sim.command_log().len(), before.2 + 1),
                    Err(e) => {
                        prop_assert!(!e.to_string().trim().is_empty(), "a refusal without a message: {:?}", command);
                        let after = (sim.trace().total(), sim.trace().digest(), sim.command_log().len(), sim.steps(), sim.now());
                        prop_assert_eq!(before, after, "refused ({}) but changed: {:?}", e, command);
                    }
                }
            }
        }
    }
    let _ = sim.snapshot();
    let _ = sim.in_flight();
    // The command log rebuilds the run.
    let mut again = Sim::replay(base.clone(), sim.command_log()).map_err(|e| TestCaseError::fail(format!("replay refused: {e}")))?;
    while again.steps() < sim.steps() && again.step().is_some() {}
    prop_assert_eq!(again.steps(), sim.steps());
    prop_assert_eq!(again.trace().total(), sim.trace().total(), "replay differs");
    prop_assert_eq!(again.trace().digest(), sim.trace().digest(), "replay differs");
    Ok(())
}

/// The seed scenarios, built, each at the start and a little later (groups formed,
/// records flowing).
fn bases() -> Vec<Sim> {
    let mut out = Vec::new();
    for text in seed_scenarios() {
        let Ok(s) = Scenario::from_json(&text) else { continue };
        let Ok(sim) = s.build() else { continue };
        for at in [0, 4_000, 9_000] {
            let mut sim = sim.clone();
            sim.run_to_bounded(SimTime(at), 50_000);
            out.push(sim);
        }
    }
    out
}

#[test]
fn commands_on_a_running_sim() {
    let bases = bases();
    assert!(bases.len() >= 24, "{} bases", bases.len());
    let strategy = (any::<usize>(), proptest::collection::vec(op(), 1..40));
    fuzz("commands_on_a_running_sim", 100, strategy, |(base, ops)| bounded(|| run_ops(&bases[base % bases.len()], &ops))?);
}

/// The generator draws every command type there is (`Command::types()`, the reader's table,
/// which names every variant): a new command is fuzzed once it has an `Op`, and this fails
/// until it has one, naming it.
#[test]
fn the_generator_draws_every_command_type() {
    use proptest::strategy::ValueTree;
    use proptest::test_runner::TestRunner;
    let sim = kafka_sandbox_core::scenario::default_scenario().build().unwrap();
    let names = Names::of(&sim);
    let mut runner = TestRunner::deterministic();
    let mut drawn = std::collections::BTreeSet::new();
    for _ in 0..4_000 {
        let op = op().new_tree(&mut runner).unwrap().current();
        if let Some(command) = to_command(&op, &names) {
            let json: serde_json::Value = serde_json::to_value(&command).unwrap();
            drawn.insert(json["type"].as_str().unwrap_or_default().to_string());
        }
    }
    let missing: Vec<&&str> = Command::types().iter().filter(|t| !drawn.contains(**t)).collect();
    assert!(missing.is_empty(), "tests/fuzz/commands.rs never draws {missing:?}: give each an `Op` in `op()` and `to_command`");
}
