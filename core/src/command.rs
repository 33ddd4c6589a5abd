//! Commands: the only way the outside world changes a running simulation.

use crate::assign::Strategy;
use crate::cluster::BrokerId;
use crate::config::{Acks, ConsumerConfig, GroupConfig};
use crate::partitioner::PartitionerKind;
use crate::record::Header;
use serde::{Deserialize, Serialize};
use std::fmt;

/// A member to add to a group (a consumer that starts and subscribes).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MemberSpec {
    /// `client.id`; Kafka prefixes the member id with it, so it decides member order.
    pub client_id: String,
    /// `group.instance.id` (static membership, KIP-345); static members sort first.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub group_instance_id: Option<String>,
    /// Topics to subscribe to; the group's topics when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub topics: Option<Vec<String>>,
    #[serde(default)]
    pub config: ConsumerConfig,
}

impl MemberSpec {
    pub fn new(client_id: impl Into<String>) -> Self {
        Self { client_id: client_id.into(), group_instance_id: None, topics: None, config: ConsumerConfig::default() }
    }
}

/// A consumer group to create.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GroupSpec {
    /// `group.id`.
    pub id: String,
    /// The topics its members subscribe to.
    pub topics: Vec<String>,
    /// Settings shared by the group's members (assignor, `auto.offset.reset`).
    #[serde(default)]
    pub config: GroupConfig,
    #[serde(default)]
    pub members: Vec<MemberSpec>,
}

/// Something a person (or a scenario's timeline) does to the running cluster.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum Command {
    /// `producer.send(new ProducerRecord(topic, partition, key, value, headers))`.
    Produce {
        producer: String,
        topic: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        key: Option<String>,
        value: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        partition: Option<u32>,
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        headers: Vec<Header>,
    },
    /// A consumer starts and joins a group.
    AddMember { group: String, member: MemberSpec },
    /// A consumer closes gracefully: it commits (with auto-commit) and leaves the group.
    RemoveMember { group: String, client_id: String },
    /// The consumer process dies (no LeaveGroup; the coordinator waits out its session).
    CrashMember { group: String, client_id: String },
    /// A crashed consumer starts again with the same client id and `group.instance.id`.
    RestartMember { group: String, client_id: String },
    /// The application stops calling `poll()` (stuck in processing), or resumes.
    PauseMember { group: String, client_id: String, paused: bool },
    /// How long the application takes per record (sandbox only).
    SetProcessing { group: String, client_id: String, processing_ms: u64 },
    /// When the consumer commits offsets.
    SetCommitMode { group: String, client_id: String, commit_mode: crate::group::CommitMode },
    /// A new consumer group starts consuming.
    AddGroup { group: GroupSpec },
    /// The producer's `partitioner.class` changes. In Kafka that means a new producer
    /// instance, so the round-robin counter and the sticky choice start afresh; batches
    /// already open still go out.
    SetPartitioner { producer: String, partitioner: PartitionerKind },
    /// `kafka-topics --alter --partitions`: the topic grows to `partitions` (never
    /// shrinks). Keys may now hash elsewhere; groups rebalance once their leader's
    /// metadata refresh (`metadata.max.age.ms`) notices.
    AddPartitions { topic: String, partitions: u32 },
    /// The broker process dies: it stops answering at once; the controller notices after
    /// `broker.session.timeout.ms`. Its logs stay on disk.
    CrashBroker { broker: BrokerId },
    /// The broker starts again and registers with the controller; its replicas catch up.
    RestartBroker { broker: BrokerId },
    /// Cut the broker off the network: from the other brokers, the controller and clients.
    IsolateBroker { broker: BrokerId },
    /// Reconnect an isolated broker.
    HealBroker { broker: BrokerId },
    /// Slow the broker's replica fetches by `slow_ms` (0 restores them).
    SlowBroker { broker: BrokerId, slow_ms: u64 },
    /// The producer's `acks` changes (in Kafka: a new producer with the new setting).
    SetAcks { producer: String, acks: Acks },
    /// Topic settings change (`kafka-configs --alter`): `min.insync.replicas`,
    /// `unclean.leader.election.enable`.
    SetTopicConfig {
        topic: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        min_insync_replicas: Option<u32>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        unclean_leader_election_enable: Option<bool>,
    },
    /// The group's `partition.assignment.strategy` changes (in Kafka: every member is
    /// restarted with the new setting) and the group rebalances with the same members.
    SetAssignor { group: String, assignor: Strategy },
    /// The application calls `seek()` on a partition it is assigned (every assigned
    /// partition of `topic` when `partition` is left out): `seekToBeginning`, `seekToEnd`,
    /// `seek(offset)`, or `offsetsForTimes` then `seek`.
    Seek {
        group: String,
        client_id: String,
        topic: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        partition: Option<u32>,
        to: SeekTo,
    },
    /// The application calls `subscribe()` with another list of topics: the member rejoins
    /// (classic) or sends its new subscription (KIP-848), and the group rebalances.
    Subscribe { group: String, client_id: String, topics: Vec<String> },
    /// A source connector's task crashes: what it sent since its last offset flush will
    /// be sent again by the next task (at-least-once).
    CrashConnector { connector: String },
    /// A new task starts for the connector and resumes after the flushed source offset.
    RestartConnector { connector: String },
}

/// Where `seek()` moves a position.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum SeekTo {
    /// `seekToBeginning`: the log start offset.
    Beginning,
    /// `seekToEnd`: the end a `read_uncommitted` consumer sees (the high watermark).
    End,
    /// `seek(offset)`.
    Offset { offset: u64 },
    /// `offsetsForTimes`: the first record with a timestamp at or after `timestamp_ms`
    /// (the end when there is none), then `seek`.
    Timestamp { timestamp_ms: u64 },
}

/// Why a command was refused. The simulation is unchanged when this is returned.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CommandError {
    UnknownProducer(String),
    UnknownTopic(String),
    UnknownGroup(String),
    UnknownBroker(BrokerId),
    UnknownMember { group: String, client_id: String },
    DuplicateGroup(String),
    DuplicateMember { group: String, client_id: String },
    PartitionOutOfRange { topic: String, partition: u32, partitions: u32 },
    /// A name or value outside what the sandbox accepts; the text says which and why.
    Invalid(String),
}

impl fmt::Display for CommandError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CommandError::UnknownProducer(p) => write!(f, "there is no producer named \"{p}\""),
            CommandError::UnknownTopic(t) => write!(f, "there is no topic named \"{t}\""),
            CommandError::UnknownGroup(g) => write!(f, "there is no consumer group \"{g}\""),
            CommandError::UnknownBroker(b) => write!(f, "there is no broker {b}"),
            CommandError::UnknownMember { group, client_id } => {
                write!(f, "group \"{group}\" has no member with client id \"{client_id}\"")
            }
            CommandError::DuplicateGroup(g) => write!(f, "a consumer group \"{g}\" already exists"),
            CommandError::DuplicateMember { group, client_id } => {
                write!(f, "group \"{group}\" already has a member with client id \"{client_id}\"")
            }
            CommandError::PartitionOutOfRange { topic, partition, partitions } => write!(
                f,
                "topic \"{topic}\" has partitions 0..{} but partition {partition} was asked for",
                partitions.saturating_sub(1)
            ),
            CommandError::Invalid(why) => f.write_str(why),
        }
    }
}

impl std::error::Error for CommandError {}

/// Longest name (topic, group, client id, producer) the sandbox accepts.
pub const MAX_NAME_CHARS: usize = 64;
/// Longest key or value the sandbox accepts.
pub const MAX_VALUE_CHARS: usize = 1024;
/// Most members a group may have, and most groups a cluster may have.
pub const MAX_MEMBERS_PER_GROUP: usize = 64;
pub const MAX_GROUPS: usize = 32;

/// Checks a name: non-empty, at most [`MAX_NAME_CHARS`], no control characters.
pub fn check_name(what: &str, name: &str) -> Result<(), CommandError> {
    if name.is_empty() {
        return Err(CommandError::Invalid(format!("{what} must not be empty")));
    }
    if name.chars().count() > MAX_NAME_CHARS {
        return Err(CommandError::Invalid(format!("{what} \"{name}\" is longer than {MAX_NAME_CHARS} characters")));
    }
    if name.chars().any(char::is_control) {
        return Err(CommandError::Invalid(format!("{what} {name:?} contains a control character")));
    }
    Ok(())
}
