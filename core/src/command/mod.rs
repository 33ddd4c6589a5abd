//! Commands: the only way the outside world changes a running simulation.
//!
//! One file per feature holds that feature's commands (`produce.rs`, `cluster.rs`,
//! `group.rs`, `connect.rs`); [`Command`] has one variant per feature and the reader's
//! table one row per command. A new feature adds its file, one variant, its rows.

mod cluster;
mod connect;
mod group;
mod produce;
mod share_group;
mod txn;

pub use cluster::{BrokerCommand, TopicCommand};
pub use connect::ConnectCommand;
pub use group::GroupCommand;
pub use produce::ProduceCommand;
pub use share_group::{
    AcknowledgeRule, AcknowledgeType, AcknowledgementMode, ShareConsumerConfig, ShareGroupCommand, ShareGroupConfig, ShareGroupRefusal,
    ShareGroupSpec, ShareMemberSpec, MAX_ACKNOWLEDGE_RULES,
};
pub use txn::{TxnCommand, TxnOperation, TxnRefusal};

use crate::config::PartitionerKind;
use crate::config::Strategy;
use crate::config::{Acks, ConsumerConfig, GroupConfig};
pub use crate::limits::{MAX_GROUPS, MAX_HEADERS, MAX_MEMBERS_PER_GROUP, MAX_NAME_CHARS, MAX_VALUE_CHARS};
use crate::record::BrokerId;
use crate::record::Header;
use crate::tagged::{tagged_reader, SlotRead, Take};
use serde::de;
use serde::{Deserialize, Serialize};
use std::fmt;

/// A member to add to a group (a consumer that starts and subscribes).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
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
    /// The consumer's own settings (`max.poll.records`, `session.timeout.ms`, commit mode…).
    #[serde(default)]
    pub config: ConsumerConfig,
}

impl MemberSpec {
    /// A dynamic member `client_id` subscribing to the group's topics, with the default
    /// consumer settings.
    pub fn new(client_id: impl Into<String>) -> Self {
        Self { client_id: client_id.into(), group_instance_id: None, topics: None, config: ConsumerConfig::default() }
    }
}

/// A consumer group to create. `GroupSpec::new("g", ["t"])` with defaults, or a literal
/// ending in `..GroupSpec::default()` (so a new field changes no code that does not use it).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GroupSpec {
    /// `group.id`.
    pub id: String,
    /// The topics its members subscribe to.
    pub topics: Vec<String>,
    /// Settings shared by the group's members (assignor, `auto.offset.reset`).
    #[serde(default)]
    pub config: GroupConfig,
    /// The consumers that start with the group, in joining order; at most
    /// [`MAX_MEMBERS_PER_GROUP`], client ids unique.
    #[serde(default)]
    pub members: Vec<MemberSpec>,
}

impl GroupSpec {
    /// A group subscribing to `topics`, with the default settings and no member yet.
    pub fn new<T: Into<String>>(id: impl Into<String>, topics: impl IntoIterator<Item = T>) -> Self {
        Self { id: id.into(), topics: topics.into_iter().map(Into::into).collect(), ..Self::default() }
    }

    /// With these members.
    pub fn with_members(mut self, members: impl IntoIterator<Item = MemberSpec>) -> Self {
        self.members = members.into_iter().collect();
        self
    }

    /// With these settings.
    pub fn with_config(mut self, config: GroupConfig) -> Self {
        self.config = config;
        self
    }
}

/// Something a person (or a scenario's timeline) does to the running cluster: one
/// variant per feature, each the feature's own command enum (its file in this folder),
/// executed by the feature's own code in `sim/`. Written and read as one flat object
/// tagged by `"type"` (the inner enum's tag; the outer level adds nothing).
///
/// Read by a hand-written reader (below), not serde's derive; a new variant needs a row
/// there too. `Clone` is the derived one written out (below), to keep it out of line.
#[derive(Debug, PartialEq, Eq, Serialize)]
#[serde(untagged)]
pub enum Command {
    /// A producer sends a record, or its settings change.
    Produce(ProduceCommand),
    /// A broker crashes, restarts, is cut off, reconnected or slowed.
    Broker(BrokerCommand),
    /// An administrator changes a topic (partitions, topic configs).
    Topic(TopicCommand),
    /// A consumer group or one of its members starts, stops, crashes, seeks, or changes settings.
    Group(GroupCommand),
    /// A Kafka Connect connector's task crashes or restarts.
    Connect(ConnectCommand),
    /// A share group (KIP-932) or one of its consumers starts, stops, crashes, or changes how it acknowledges.
    ShareGroup(ShareGroupCommand),
    /// Transactions: a transactional producer begins, commits or aborts, sends offsets,
    /// crashes, restarts or starts; a group's isolation level; Streams' guarantee.
    Txn(TxnCommand),
}

/// `FeatureCommand::X { .. }.into()`: a feature's command as a [`Command`].
macro_rules! from_feature {
    ($($feature:ident($inner:ty)),* $(,)?) => {
        $(impl From<$inner> for Command {
            fn from(c: $inner) -> Self {
                Command::$feature(c)
            }
        })*
    };
}

from_feature!(
    Produce(ProduceCommand),
    Broker(BrokerCommand),
    Topic(TopicCommand),
    Group(GroupCommand),
    Connect(ConnectCommand),
    ShareGroup(ShareGroupCommand),
    Txn(TxnCommand),
);

impl Clone for Command {
    /// The derived clone (the feature's own), written out to keep it out of line: the core
    /// and the page then share one copy instead of each compiling its own (BENCHMARKS.md).
    #[inline(never)]
    fn clone(&self) -> Self {
        match self {
            Command::Produce(c) => Command::Produce(c.clone()),
            Command::Broker(c) => Command::Broker(c.clone()),
            Command::Topic(c) => Command::Topic(c.clone()),
            Command::Group(c) => Command::Group(c.clone()),
            Command::Connect(c) => Command::Connect(c.clone()),
            Command::ShareGroup(c) => Command::ShareGroup(c.clone()),
            Command::Txn(c) => Command::Txn(c.clone()),
        }
    }
}

impl Command {
    /// Every command's `type`, one per variant (the rows of its reader's table, which the
    /// compiler checks name every variant): what the fuzz test checks it draws.
    pub fn types() -> &'static [&'static str] {
        <Command as crate::tagged::Tagged>::TABLE.tags
    }
}

/// Where `seek()` moves a position.
///
/// Read by a hand-written reader (below), not serde's derive; a new variant needs a row
/// there too.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum SeekTo {
    /// `seekToBeginning`: the log start offset.
    Beginning,
    /// `seekToEnd`: the end a `read_uncommitted` consumer sees (the high watermark).
    End,
    /// `seek(offset)`.
    Offset {
        /// The offset the next fetch starts at.
        offset: u64,
    },
    /// `offsetsForTimes`: the first record with a timestamp at or after `timestamp_ms`
    /// (the end when there is none), then `seek`.
    Timestamp {
        /// The timestamp looked up, in ms of simulated time (the record timestamps'
        /// `CreateTime` or `LogAppendTime`).
        timestamp_ms: u64,
    },
}

tagged_reader! {
    /// Hand-written (`tagged_reader!`, core/src/tagged.rs) rather than derived: serde's
    /// internally tagged `Deserialize` for `Command` was 59 KB of the page's wasm before
    /// wasm-opt (BENCHMARKS.md, "Bundle"). Same format and messages as the derive
    /// (`#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]`).
    ///
    /// A new variant adds a row below: its tag and its fields in declaration order
    /// (`name: default` for a `#[serde(default)]` one), and a slot for a field name no
    /// variant had; and a sample in this file's tests (`every_command`).
    Command (tag "type", deny_unknown_fields: true) {
        slots {
            producer: String,
            topic: String,
            key: Option<String>,
            value: Option<String>,
            partition: Option<u32>,
            headers: Vec<Header>,
            group: GroupArg,
            member: MemberSpec,
            client_id: String,
            paused: bool,
            processing_ms: u64,
            commit_mode: crate::config::CommitMode,
            partitioner: PartitionerKind,
            partitions: u32,
            broker: BrokerId,
            slow_ms: u64,
            acks: Acks,
            min_insync_replicas: Option<u32>,
            unclean_leader_election_enable: Option<bool>,
            assignor: Strategy,
            to: SeekTo,
            topics: Vec<String>,
            connector: String,
            share_group: ShareGroupSpec,
            share_member: ShareMemberSpec,
            share_acknowledgement_mode: AcknowledgementMode,
            acknowledge_type: Option<AcknowledgeType>,
            config: crate::config::ProducerConfig,
            isolation_level: crate::config::IsolationLevel,
            application_id: String,
            processing_guarantee: crate::config::ProcessingGuarantee,
        }
        variants {
            Produce(ProduceCommand::Produce) "produce" { producer, topic, key: default, value, partition: default, headers: default },
            Group(GroupCommand::AddMember) "add_member" { group, member },
            Group(GroupCommand::RemoveMember) "remove_member" { group, client_id },
            Group(GroupCommand::CrashMember) "crash_member" { group, client_id },
            Group(GroupCommand::RestartMember) "restart_member" { group, client_id },
            Group(GroupCommand::PauseMember) "pause_member" { group, client_id, paused },
            Group(GroupCommand::SetProcessing) "set_processing" { group, client_id, processing_ms },
            Group(GroupCommand::SetCommitMode) "set_commit_mode" { group, client_id, commit_mode },
            Group(GroupCommand::AddGroup) "add_group" { group },
            Produce(ProduceCommand::SetPartitioner) "set_partitioner" { producer, partitioner },
            Topic(TopicCommand::AddPartitions) "add_partitions" { topic, partitions },
            Broker(BrokerCommand::CrashBroker) "crash_broker" { broker },
            Broker(BrokerCommand::RestartBroker) "restart_broker" { broker },
            Broker(BrokerCommand::IsolateBroker) "isolate_broker" { broker },
            Broker(BrokerCommand::HealBroker) "heal_broker" { broker },
            Broker(BrokerCommand::SlowBroker) "slow_broker" { broker, slow_ms },
            Produce(ProduceCommand::SetAcks) "set_acks" { producer, acks },
            Topic(TopicCommand::SetTopicConfig) "set_topic_config" { topic, min_insync_replicas: default, unclean_leader_election_enable: default },
            Group(GroupCommand::SetAssignor) "set_assignor" { group, assignor },
            Group(GroupCommand::Seek) "seek" { group, client_id, topic, partition: default, to },
            Group(GroupCommand::Subscribe) "subscribe" { group, client_id, topics },
            Connect(ConnectCommand::CrashConnector) "crash_connector" { connector },
            Connect(ConnectCommand::RestartConnector) "restart_connector" { connector },
            Broker(BrokerCommand::ShutdownBroker) "shutdown_broker" { broker },
            ShareGroup(ShareGroupCommand::AddShareGroup) "add_share_group" { share_group },
            ShareGroup(ShareGroupCommand::AddShareMember) "add_share_member" { group, share_member },
            ShareGroup(ShareGroupCommand::RemoveShareMember) "remove_share_member" { group, client_id },
            ShareGroup(ShareGroupCommand::CrashShareMember) "crash_share_member" { group, client_id },
            ShareGroup(ShareGroupCommand::RestartShareMember) "restart_share_member" { group, client_id },
            ShareGroup(ShareGroupCommand::SetShareProcessing) "set_share_processing" { group, client_id, processing_ms },
            ShareGroup(ShareGroupCommand::SetAcknowledgementMode) "set_acknowledgement_mode" { group, client_id, share_acknowledgement_mode },
            ShareGroup(ShareGroupCommand::SetAcknowledgeRule) "set_acknowledge_rule" { group, client_id, value, acknowledge_type: default },
            Txn(TxnCommand::BeginTransaction) "begin_transaction" { producer },
            Txn(TxnCommand::CommitTransaction) "commit_transaction" { producer },
            Txn(TxnCommand::AbortTransaction) "abort_transaction" { producer },
            Txn(TxnCommand::SendOffsetsToTransaction) "send_offsets_to_transaction" { producer, group, client_id },
            Txn(TxnCommand::CrashProducer) "crash_producer" { producer },
            Txn(TxnCommand::RestartProducer) "restart_producer" { producer },
            Txn(TxnCommand::AddProducer) "add_producer" { producer, config: default },
            Txn(TxnCommand::SetIsolationLevel) "set_isolation_level" { group, isolation_level },
            Txn(TxnCommand::SetProcessingGuarantee) "set_processing_guarantee" { application_id, processing_guarantee },
        }
    }
}

tagged_reader! {
    /// Hand-written (`tagged_reader!`, core/src/tagged.rs) rather than derived, as
    /// `Command`'s (BENCHMARKS.md, "Bundle"). Same format and messages as the derive
    /// (`#[serde(tag = "kind", rename_all = "snake_case")]`: a key the variant does not take
    /// is ignored).
    ///
    /// A new variant adds a row below (and a slot for a new field name), and a sample in
    /// this file's tests (`every_seek_to`).
    SeekTo (tag "kind", deny_unknown_fields: false) {
        slots {
            offset: u64,
            timestamp_ms: u64,
        }
        variants {
            Beginning "beginning" {},
            End "end" {},
            Offset "offset" { offset },
            Timestamp "timestamp" { timestamp_ms },
        }
    }
}

/// `Command`'s `group`: a group id in every variant but `add_group`, where it is the whole
/// group.
enum GroupArg {
    Id(String),
    Spec(GroupSpec),
}

impl<'de> SlotRead<'de> for GroupArg {
    fn read<D: serde::Deserializer<'de>>(d: D, tag: &'static str) -> Result<Self, D::Error> {
        if tag == "add_group" {
            GroupSpec::deserialize(d).map(GroupArg::Spec)
        } else {
            String::deserialize(d).map(GroupArg::Id)
        }
    }
}

/// `group` as a group id (it was read as one: the variant is not `add_group`).
impl Take<String> for Option<GroupArg> {
    fn required<E: de::Error>(self, name: &'static str) -> Result<String, E> {
        match self {
            Some(GroupArg::Id(id)) => Ok(id),
            _ => Err(E::missing_field(name)),
        }
    }
}

/// `group` as `add_group`'s whole group (it was read as one).
impl Take<GroupSpec> for Option<GroupArg> {
    fn required<E: de::Error>(self, name: &'static str) -> Result<GroupSpec, E> {
        match self {
            Some(GroupArg::Spec(spec)) => Ok(spec),
            _ => Err(E::missing_field(name)),
        }
    }
}

/// Why a command was refused: a value with its parameters, never a sentence. The
/// simulation is unchanged when this is returned. `Display` gives the English sentence;
/// the page renders each variant in its own language from the same value (an exhaustive
/// match, so a new refusal cannot stay untranslated).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CommandError {
    /// No producer has this name.
    UnknownProducer(String),
    /// No topic has this name.
    UnknownTopic(String),
    /// No consumer group has this `group.id`.
    UnknownGroup(String),
    /// No broker has this id (brokers are 0 to `brokers − 1`).
    UnknownBroker(BrokerId),
    /// No connector has this name.
    UnknownConnector(String),
    /// The group has no member with this client id.
    UnknownMember {
        /// The group's id.
        group: String,
        /// The client id asked for.
        client_id: String,
    },
    /// `AddGroup` with a `group.id` that is taken.
    DuplicateGroup(String),
    /// A client id the group already has (or that a group spec lists twice).
    DuplicateMember {
        /// The group's id.
        group: String,
        /// The client id given twice.
        client_id: String,
    },
    /// `Produce` to a partition the topic does not have.
    PartitionOutOfRange {
        /// The topic's name.
        topic: String,
        /// The partition asked for.
        partition: u32,
        /// The topic's partition count (valid partitions are 0 to `partitions − 1`).
        partitions: u32,
    },
    /// A name outside the naming rule ([`check_name`]).
    BadName {
        /// Which name it is (a topic, a client id…).
        what: NameOf,
        /// The name as given.
        name: String,
        /// What is wrong with it.
        problem: NameProblem,
    },
    /// A key or value longer than [`MAX_VALUE_CHARS`].
    RecordTooLong,
    /// More than [`MAX_HEADERS`] headers, or one longer than [`MAX_VALUE_CHARS`].
    TooManyHeaders,
    /// `AddMember` to a group that has [`MAX_MEMBERS_PER_GROUP`] already.
    GroupFull {
        /// The group's id.
        group: String,
    },
    /// A group spec with more than [`MAX_MEMBERS_PER_GROUP`] members.
    TooManyMembers {
        /// The group's id.
        group: String,
        /// How many members the spec lists.
        members: usize,
    },
    /// A group beyond [`MAX_GROUPS`].
    TooManyGroups,
    /// A group that subscribes to no topic.
    GroupWithoutTopics {
        /// The group's id.
        group: String,
    },
    /// `subscribe([])`: the sandbox's unsubscribe is `RemoveMember`.
    EmptySubscription {
        /// The member's client id.
        client_id: String,
    },
    /// `seek()` on a partition not assigned to the member (Kafka throws
    /// `IllegalStateException`); `partition: None` for "any partition of the topic".
    SeekUnassigned {
        /// The member's client id.
        client_id: String,
        /// The topic of the seek.
        topic: String,
        /// The partition of the seek, or `None` for every partition of `topic`.
        partition: Option<u32>,
    },
    /// A seek asked of a member that owns no partition at all (the page's seek control).
    NothingToSeek {
        /// The member's client id.
        client_id: String,
    },
    /// `AddPartitions` with every broker down or cut off.
    NoBrokerUp,
    /// `AddPartitions` to a count that is not above today's or is above
    /// [`crate::limits::MAX_PARTITIONS`]: partitions never shrink.
    PartitionCount {
        /// The topic's name.
        topic: String,
        /// The topic's partition count today (not the count asked for).
        partitions: u32,
    },
    /// `min.insync.replicas` outside 1 to the topic's replication factor.
    MinInsyncReplicas {
        /// The topic's name.
        topic: String,
        /// The topic's replication factor, the largest value allowed.
        replication_factor: u32,
    },
    /// `partition.assignment.strategy` on a `group.protocol=consumer` group (KIP-848: the
    /// broker assigns, with `group.remote.assignor`).
    AssignorUnderConsumerProtocol {
        /// The group's id.
        group: String,
        /// The group's `group.remote.assignor`, which assigns its partitions instead.
        remote_assignor: crate::config::ServerAssignor,
    },
    /// A member's setting outside what is allowed.
    MemberSetting {
        /// The setting's field name in the scenario format (`session_timeout_ms`).
        setting: &'static str,
        /// The group's id.
        group: String,
        /// The member's client id.
        client_id: String,
        /// The value given.
        value: u64,
        /// What the setting allows.
        allowed: Allowed,
    },
    /// `push_buffer_max_records` outside 1 to [`crate::limits::MAX_PUSH_BUFFER_RECORDS`].
    PushBuffer {
        /// The group's id.
        group: String,
        /// The value given.
        value: u32,
    },
    /// `set_acks` to `0` or `1` on a producer with `enable_idempotence: true`: Kafka's
    /// producer refuses that configuration (`ProducerConfig`: "Must set acks to all in
    /// order to use the idempotent producer").
    IdempotenceNeedsAcksAll {
        /// The producer.
        producer: String,
    },
    /// A share group's own refusal (KIP-932, `command/share_group.rs`).
    ShareGroup(ShareGroupRefusal),
    /// A transactions command refused (`command/txn.rs`).
    Txn(TxnRefusal),
}

/// Which name [`check_name`] refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NameOf {
    /// A topic's name.
    Topic,
    /// A producer's name.
    Producer,
    /// A connector's `name`.
    Connector,
    /// A member's `client.id`.
    ClientId,
    /// A group's `group.id`.
    GroupId,
    /// A static member's `group.instance.id`.
    GroupInstanceId,
    /// A Kafka Streams state store's name (`Materialized.as(store)`).
    Store,
    /// A Kafka Streams application's `application.id`.
    ApplicationId,
    /// A producer's `transactional.id`.
    TransactionalId,
}

impl NameOf {
    /// The English words for it, as a refusal starts.
    pub fn english(self) -> &'static str {
        match self {
            NameOf::Topic => "the topic name",
            NameOf::Producer => "the producer name",
            NameOf::Connector => "the connector name",
            NameOf::ClientId => "a client id",
            NameOf::GroupId => "a group id",
            NameOf::GroupInstanceId => "a group.instance.id",
            NameOf::Store => "a store name",
            NameOf::ApplicationId => "an application.id",
            NameOf::TransactionalId => "a transactional.id",
        }
    }

    /// The longest such name, in characters: Kafka's `Topic.MAX_NAME_LENGTH` (249) for a
    /// topic, the sandbox's [`MAX_NAME_CHARS`] for the rest.
    pub fn max_chars(self) -> usize {
        match self {
            NameOf::Topic => TOPIC_NAME_MAX_CHARS,
            _ => MAX_NAME_CHARS,
        }
    }
}

/// The longest topic name Kafka accepts (`org.apache.kafka.common.internals.Topic.MAX_NAME_LENGTH`).
pub const TOPIC_NAME_MAX_CHARS: usize = 249;

/// What is wrong with a name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NameProblem {
    /// The name is empty.
    Empty,
    /// Longer than [`MAX_NAME_CHARS`].
    TooLong,
    /// The name contains a control character (a newline, a tab…).
    ControlCharacter,
    /// A topic name with a character outside ASCII letters, digits, `.`, `_` and `-`
    /// (Kafka's `Topic.validate`: `InvalidTopicException`, "contains a character other
    /// than ASCII alphanumerics, '.', '_' and '-'").
    IllegalCharacter {
        /// The first character Kafka refuses.
        ch: char,
    },
    /// A topic named `.` or `..` (Kafka's `Topic.validate`: "Topic name cannot be \".\" or \"..\"").
    DotOrDotDot,
}

/// The values a setting allows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Allowed {
    /// `min` to `max`, both included.
    Range {
        /// The smallest value allowed.
        min: u64,
        /// The largest value allowed.
        max: u64,
    },
    /// `min` or more.
    AtLeast(u64),
    /// 1 ms to [`crate::limits::MAX_TIME_MS`] (one week).
    UpToAWeek,
    /// Less than another setting of the same member, which has `value`.
    Below {
        /// The other setting's field name (`session_timeout_ms`).
        setting: &'static str,
        /// The other setting's value.
        value: u64,
    },
}

impl fmt::Display for Allowed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Allowed::Range { min, max } => write!(f, "{min} to {max}"),
            Allowed::AtLeast(min) => write!(f, "{min} or more"),
            Allowed::UpToAWeek => write!(f, "1 to {} (one week)", crate::limits::MAX_TIME_MS),
            Allowed::Below { setting, value } => write!(f, "less than {setting} ({value})"),
        }
    }
}

impl fmt::Display for CommandError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use crate::limits::{MAX_HEADERS, MAX_PARTITIONS, MAX_PUSH_BUFFER_RECORDS};
        match self {
            CommandError::UnknownProducer(p) => write!(f, "there is no producer named \"{p}\""),
            CommandError::UnknownTopic(t) => write!(f, "there is no topic named \"{t}\""),
            CommandError::UnknownGroup(g) => write!(f, "there is no consumer group \"{g}\""),
            CommandError::UnknownBroker(b) => write!(f, "there is no broker {b}"),
            CommandError::UnknownConnector(c) => write!(f, "there is no connector named \"{c}\""),
            CommandError::UnknownMember { group, client_id } => {
                write!(f, "group \"{group}\" has no member with client id \"{client_id}\"")
            }
            CommandError::DuplicateGroup(g) => write!(f, "a consumer group \"{g}\" already exists"),
            CommandError::DuplicateMember { group, client_id } => {
                write!(f, "group \"{group}\" already has a member with client id \"{client_id}\"")
            }
            CommandError::PartitionOutOfRange { topic, partition, partitions } => {
                write!(f, "topic \"{topic}\" has partitions 0..{} but partition {partition} was asked for", partitions.saturating_sub(1))
            }
            CommandError::BadName { what, name, problem } => {
                let what_of = *what;
                let what = what.english();
                match problem {
                    NameProblem::Empty => write!(f, "{what} must not be empty"),
                    NameProblem::TooLong => write!(f, "{what} \"{name}\" is longer than {} characters", what_of.max_chars()),
                    NameProblem::ControlCharacter => write!(f, "{what} {name:?} contains a control character"),
                    NameProblem::IllegalCharacter { ch } => write!(
                        f,
                        "{what} {name:?} contains {ch:?}; allowed: ASCII letters, digits, '.', '_' and '-' (Kafka's topic naming rule)"
                    ),
                    NameProblem::DotOrDotDot => write!(f, "{what} cannot be \".\" or \"..\" (Kafka's topic naming rule)"),
                }
            }
            CommandError::RecordTooLong => write!(f, "a key or value may have at most {MAX_VALUE_CHARS} characters"),
            CommandError::TooManyHeaders => {
                write!(f, "a record may have at most {MAX_HEADERS} headers of at most {MAX_VALUE_CHARS} characters")
            }
            CommandError::GroupFull { group } => {
                write!(f, "group \"{group}\" already has {MAX_MEMBERS_PER_GROUP} members, the most the sandbox allows")
            }
            CommandError::TooManyMembers { group, members } => {
                write!(f, "group \"{group}\" has {members} members; the sandbox allows at most {MAX_MEMBERS_PER_GROUP}")
            }
            CommandError::TooManyGroups => write!(f, "the sandbox allows at most {MAX_GROUPS} consumer groups"),
            CommandError::GroupWithoutTopics { group } => write!(f, "group \"{group}\" must subscribe to at least one topic"),
            CommandError::EmptySubscription { client_id } => {
                write!(f, "{client_id} must subscribe to at least one topic (unsubscribe() is remove_member here)")
            }
            CommandError::SeekUnassigned { client_id, topic, partition } => {
                match partition {
                    Some(p) => write!(f, "{client_id} is not assigned {topic}-{p}")?,
                    None => write!(f, "{client_id} is not assigned any partition of {topic}")?,
                }
                f.write_str(": seek() only works on assigned partitions (Kafka throws IllegalStateException)")
            }
            CommandError::NothingToSeek { client_id } => write!(f, "{client_id} has no assigned partition to seek"),
            CommandError::NoBrokerUp => f.write_str("no broker is up to host new partitions"),
            CommandError::PartitionCount { topic, partitions } => write!(
                f,
                "topic \"{topic}\" has {partitions} partitions; it can grow to between {} and {MAX_PARTITIONS} (partitions never shrink)",
                partitions + 1
            ),
            CommandError::MinInsyncReplicas { topic, replication_factor } => {
                write!(f, "min.insync.replicas of \"{topic}\" must be between 1 and its replication factor ({replication_factor})")
            }
            CommandError::AssignorUnderConsumerProtocol { group, remote_assignor } => write!(
                f,
                "group \"{group}\" uses group.protocol=consumer: the broker assigns its partitions with \
                 group.remote.assignor ({remote_assignor}); partition.assignment.strategy does not apply"
            ),
            CommandError::MemberSetting { setting, group, client_id, value, allowed } => {
                write!(f, "{setting} of member \"{client_id}\" in group \"{group}\" is {value}; allowed: {allowed}")
            }
            CommandError::PushBuffer { group, value } => {
                write!(f, "push_buffer_max_records of group \"{group}\" is {value}; allowed: 1 to {MAX_PUSH_BUFFER_RECORDS}")
            }
            CommandError::Txn(r) => r.fmt(f),
            CommandError::IdempotenceNeedsAcksAll { producer } => write!(
                f,
                "producer \"{producer}\" has enable_idempotence true, which needs acks \"all\"; allowed: \"all\" (or first set enable_idempotence to false)"
            ),
            CommandError::ShareGroup(r) => r.fmt(f),
        }
    }
}

impl std::error::Error for CommandError {}

/// Checks a name: non-empty, at most [`NameOf::max_chars`], no control characters; a
/// topic's name as Kafka's `Topic.validate` does (`[a-zA-Z0-9._-]`, at most 249
/// characters, not `.` or `..`).
pub fn check_name(what: NameOf, name: &str) -> Result<(), CommandError> {
    let topic = what == NameOf::Topic;
    // In `Topic.detectInvalidTopic`'s order for a topic: empty, `.` or `..`, too long,
    // a character outside the pattern (a control character is one).
    // ASCII (every name a scenario uses, in practice): the same checks on bytes, where a
    // character is a byte and the control characters are below 0x20 and 0x7f.
    if name.is_ascii() && !name.is_empty() && name.len() <= what.max_chars() && !(topic && (name == "." || name == "..")) {
        let bad = |b: &u8| (topic && !is_topic_char(char::from(*b))) || b.is_ascii_control();
        if !name.as_bytes().iter().any(bad) {
            return Ok(());
        }
    }
    let problem = if name.is_empty() {
        NameProblem::Empty
    } else if topic && (name == "." || name == "..") {
        NameProblem::DotOrDotDot
    } else if name.chars().count() > what.max_chars() {
        NameProblem::TooLong
    } else if let Some(ch) = name.chars().find(|c| topic && !is_topic_char(*c)) {
        NameProblem::IllegalCharacter { ch }
    } else if name.chars().any(char::is_control) {
        NameProblem::ControlCharacter
    } else {
        return Ok(());
    };
    Err(CommandError::BadName { what, name: name.to_string(), problem })
}

/// Kafka's `Topic.containsValidPattern`: ASCII letters and digits, `.`, `_` and `-`.
pub fn is_topic_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-')
}

impl Command {
    /// Every topic name the command gives, checked by [`check_name`] before the command
    /// runs: Kafka refuses an illegal name with `InvalidTopicException` before it asks
    /// whether the topic exists.
    pub fn topic_names(&self) -> Vec<&str> {
        let mut out: Vec<&str> = Vec::new();
        match self {
            Command::Produce(ProduceCommand::Produce { topic, .. }) => out.push(topic),
            Command::Topic(TopicCommand::AddPartitions { topic, .. } | TopicCommand::SetTopicConfig { topic, .. }) => out.push(topic),
            Command::Group(GroupCommand::AddGroup { group }) => out.extend(group.topics.iter().map(String::as_str)),
            Command::Group(GroupCommand::Subscribe { topics, .. }) => out.extend(topics.iter().map(String::as_str)),
            Command::Group(GroupCommand::Seek { topic, .. }) => out.push(topic),
            Command::ShareGroup(ShareGroupCommand::AddShareGroup { share_group }) => {
                out.extend(share_group.topics.iter().map(String::as_str))
            }
            Command::Produce(_)
            | Command::Broker(_)
            | Command::Group(_)
            | Command::Connect(_)
            | Command::ShareGroup(_)
            | Command::Txn(_) => {}
        }
        out
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use crate::scenario::{parse_json, write_json};

    /// Kafka's `TopicTest.testTopicHasCollisionChars`/`shouldAcceptValidTopicNames` and
    /// `shouldThrowOnInvalidTopicNames` cases: the names Kafka accepts and refuses.
    #[test]
    fn topic_names_follow_kafkas_topic_validate() {
        let long_ok = "a".repeat(249);
        for ok in ["valid", "TOPIC", "nAmEs", "ar6", "VaL1d", "_0-9_.", "...", "Topic01", "__x", long_ok.as_str()] {
            assert_eq!(check_name(NameOf::Topic, ok), Ok(()), "{ok:?}");
        }
        let long = "a".repeat(250);
        let problem = |name: &str| match check_name(NameOf::Topic, name) {
            Err(CommandError::BadName { what: NameOf::Topic, problem, .. }) => Some(problem),
            _ => None,
        };
        assert_eq!(problem(""), Some(NameProblem::Empty));
        assert_eq!(problem("."), Some(NameProblem::DotOrDotDot));
        assert_eq!(problem(".."), Some(NameProblem::DotOrDotDot));
        assert_eq!(problem(&long), Some(NameProblem::TooLong));
        for (bad, ch) in [
            ("foo bar", ' '),
            ("bad topic!", ' '),
            ("<b>x</b> topic", '<'),
            ("foo:bar", ':'),
            ("foo=bar", '='),
            ("a\tb", '\t'),
            ("主题", '主'),
        ] {
            assert_eq!(problem(bad), Some(NameProblem::IllegalCharacter { ch }), "{bad:?}");
        }
        // Other names keep the sandbox's rule: HTML in a group id is shown as text.
        assert_eq!(check_name(NameOf::GroupId, "<b>x</b> group"), Ok(()));
        assert!(check_name(NameOf::GroupId, &"g".repeat(65)).is_err());
        // The refusal says what, where and what is allowed.
        let e = check_name(NameOf::Topic, "bad topic!").unwrap_err().to_string();
        assert!(e.contains("\"bad topic!\"") && e.contains("'.', '_' and '-'"), "{e}");
    }
    use crate::tagged::tests::{check_tags, tag_last};

    /// One of each variant, every optional field set (so the writer writes it). A variant
    /// missing here fails `every_command_variant_reads_back_what_the_writer_wrote`.
    fn every_command() -> Vec<Command> {
        let s = |x: &str| x.to_string();
        vec![
            Command::Produce(ProduceCommand::Produce {
                producer: s("p"),
                topic: s("t"),
                key: Some(s("k")),
                value: Some(s("v")),
                partition: Some(2),
                headers: vec![Header { key: s("h"), value: s("x") }],
            }),
            Command::Group(GroupCommand::AddMember {
                group: s("g"),
                member: MemberSpec {
                    client_id: s("c"),
                    group_instance_id: Some(s("i")),
                    topics: Some(vec![s("t")]),
                    config: ConsumerConfig::default(),
                },
            }),
            Command::Group(GroupCommand::RemoveMember { group: s("g"), client_id: s("c") }),
            Command::Group(GroupCommand::CrashMember { group: s("g"), client_id: s("c") }),
            Command::Group(GroupCommand::RestartMember { group: s("g"), client_id: s("c") }),
            Command::Group(GroupCommand::PauseMember { group: s("g"), client_id: s("c"), paused: true }),
            Command::Group(GroupCommand::SetProcessing { group: s("g"), client_id: s("c"), processing_ms: 5 }),
            Command::Group(GroupCommand::SetCommitMode {
                group: s("g"),
                client_id: s("c"),
                commit_mode: crate::config::CommitMode::default(),
            }),
            Command::Group(GroupCommand::AddGroup {
                group: GroupSpec { id: s("g"), topics: vec![s("t")], config: GroupConfig::default(), members: vec![MemberSpec::new("c")] },
            }),
            Command::Produce(ProduceCommand::SetPartitioner { producer: s("p"), partitioner: PartitionerKind::default() }),
            Command::Topic(TopicCommand::AddPartitions { topic: s("t"), partitions: 4 }),
            Command::Broker(BrokerCommand::CrashBroker { broker: 1 }),
            Command::Broker(BrokerCommand::RestartBroker { broker: 1 }),
            Command::Broker(BrokerCommand::IsolateBroker { broker: 1 }),
            Command::Broker(BrokerCommand::HealBroker { broker: 1 }),
            Command::Broker(BrokerCommand::SlowBroker { broker: 1, slow_ms: 7 }),
            Command::Produce(ProduceCommand::SetAcks { producer: s("p"), acks: Acks::All }),
            Command::Topic(TopicCommand::SetTopicConfig {
                topic: s("t"),
                min_insync_replicas: Some(2),
                unclean_leader_election_enable: Some(true),
            }),
            Command::Group(GroupCommand::SetAssignor { group: s("g"), assignor: Strategy::CooperativeSticky }),
            Command::Group(GroupCommand::Seek {
                group: s("g"),
                client_id: s("c"),
                topic: s("t"),
                partition: Some(1),
                to: SeekTo::Timestamp { timestamp_ms: 9 },
            }),
            Command::Group(GroupCommand::Subscribe { group: s("g"), client_id: s("c"), topics: vec![s("t"), s("u")] }),
            Command::Connect(ConnectCommand::CrashConnector { connector: s("x") }),
            Command::Connect(ConnectCommand::RestartConnector { connector: s("x") }),
            Command::Broker(BrokerCommand::ShutdownBroker { broker: 1 }),
            Command::ShareGroup(ShareGroupCommand::AddShareGroup {
                share_group: ShareGroupSpec {
                    id: s("q"),
                    topics: vec![s("t")],
                    config: ShareGroupConfig::default(),
                    members: vec![ShareMemberSpec {
                        client_id: s("c"),
                        config: ShareConsumerConfig::default(),
                        acknowledge: vec![AcknowledgeRule { value: s("v"), acknowledge_type: AcknowledgeType::Reject }],
                    }],
                },
            }),
            Command::ShareGroup(ShareGroupCommand::AddShareMember { group: s("q"), share_member: ShareMemberSpec::new("c") }),
            Command::ShareGroup(ShareGroupCommand::RemoveShareMember { group: s("q"), client_id: s("c") }),
            Command::ShareGroup(ShareGroupCommand::CrashShareMember { group: s("q"), client_id: s("c") }),
            Command::ShareGroup(ShareGroupCommand::RestartShareMember { group: s("q"), client_id: s("c") }),
            Command::ShareGroup(ShareGroupCommand::SetShareProcessing { group: s("q"), client_id: s("c"), processing_ms: 5 }),
            Command::ShareGroup(ShareGroupCommand::SetAcknowledgementMode {
                group: s("q"),
                client_id: s("c"),
                share_acknowledgement_mode: AcknowledgementMode::Explicit,
            }),
            Command::ShareGroup(ShareGroupCommand::SetAcknowledgeRule {
                group: s("q"),
                client_id: s("c"),
                value: s("v"),
                acknowledge_type: Some(AcknowledgeType::Release),
            }),
            Command::Txn(TxnCommand::BeginTransaction { producer: s("p") }),
            Command::Txn(TxnCommand::CommitTransaction { producer: s("p") }),
            Command::Txn(TxnCommand::AbortTransaction { producer: s("p") }),
            Command::Txn(TxnCommand::SendOffsetsToTransaction { producer: s("p"), group: s("g"), client_id: s("c") }),
            Command::Txn(TxnCommand::CrashProducer { producer: s("p") }),
            Command::Txn(TxnCommand::RestartProducer { producer: s("p") }),
            Command::Txn(TxnCommand::AddProducer {
                producer: s("p2"),
                config: crate::config::ProducerConfig { transactional_id: Some(s("tx")), ..Default::default() },
            }),
            Command::Txn(TxnCommand::SetIsolationLevel { group: s("g"), isolation_level: crate::config::IsolationLevel::ReadCommitted }),
            Command::Txn(TxnCommand::SetProcessingGuarantee {
                application_id: s("a"),
                processing_guarantee: crate::config::ProcessingGuarantee::ExactlyOnceV2,
            }),
        ]
    }

    fn every_seek_to() -> Vec<SeekTo> {
        vec![SeekTo::Beginning, SeekTo::End, SeekTo::Offset { offset: 3 }, SeekTo::Timestamp { timestamp_ms: 4 }]
    }

    /// The message (with its place) for a text read as a list of `T`.
    fn refusal<T: serde::de::DeserializeOwned + fmt::Debug>(text: &str) -> String {
        parse_json::<Vec<T>>(&format!("[{text}]")).unwrap_err().to_string()
    }

    #[test]
    fn every_command_variant_reads_back_what_the_writer_wrote() {
        let all = every_command();
        check_tags(&all);
        for c in all {
            let text = write_json(&c, false);
            assert_eq!(parse_json::<Command>(&text).unwrap(), c, "{text}");
            assert_eq!(parse_json::<Command>(&tag_last(&text)).unwrap(), c, "tag last: {}", tag_last(&text));
            assert_eq!(parse_json::<Command>(&write_json(&c, true)).unwrap(), c);
            // The written-out clone is the derived one.
            assert_eq!(format!("{:?}", c.clone()), format!("{c:?}"));
        }
    }

    /// `docs/scenario-format.md`'s timeline table lists every command `type` the reader
    /// knows (its table has a row per variant, checked at compile time), and no other.
    #[test]
    fn the_format_doc_lists_every_command() {
        crate::tagged::tests::check_documented(
            "scenario-format.md",
            "| `type` | Fields |",
            <Command as crate::tagged::Tagged>::TABLE.tags.iter().copied(),
        );
    }

    #[test]
    fn every_seek_to_variant_reads_back_what_the_writer_wrote() {
        let all = every_seek_to();
        check_tags(&all);
        for to in all {
            let text = write_json(&to, false);
            assert_eq!(parse_json::<SeekTo>(&text).unwrap(), to, "{text}");
            assert_eq!(parse_json::<SeekTo>(&tag_last(&text)).unwrap(), to, "{}", tag_last(&text));
        }
    }

    /// Each field left out: a required one is refused by name, a `#[serde(default)]` one
    /// reads as its default (which the writer leaves out).
    #[test]
    fn a_command_without_a_field_is_refused_naming_it_unless_the_field_has_a_default() {
        let mut required = Vec::new();
        for c in every_command() {
            let text = write_json(&c, false);
            let object: serde_json::Map<String, serde_json::Value> = serde_json::from_str(&text).unwrap();
            for field in object.keys().filter(|k| *k != "type") {
                let mut less = object.clone();
                less.remove(field);
                let less = write_json(&less, false);
                match parse_json::<Command>(&less) {
                    Ok(read) => {
                        let written: serde_json::Map<String, serde_json::Value> = serde_json::from_str(&write_json(&read, false)).unwrap();
                        assert!(!written.contains_key(field), "{less}");
                    }
                    Err(e) => {
                        assert!(e.to_string().contains(&format!("missing field `{field}`")), "{less}: {e}");
                        required.push(format!("{}.{field}", &text[9..text.find(',').unwrap() - 1]));
                    }
                }
            }
        }
        // The defaults: produce's key, partition and headers, seek's partition,
        // set_topic_config's settings.
        assert_eq!(required.len(), 77, "{required:?}");
        assert!(!required.iter().any(|r| r.ends_with(".key")
            || r.ends_with("partition")
            || r.contains("headers")
            || r.contains("min_insync")
            || r.contains("unclean")));
        assert_eq!(refusal::<Command>(r#"{"type": "crash_broker"}"#), "[0] (line 1, column 25): missing field `broker`");
    }

    #[test]
    fn a_field_of_another_command_is_refused_naming_it_and_what_the_variant_takes() {
        // Where it stands, when the tag came first; at the object when the tag came after.
        assert_eq!(
            refusal::<Command>(r#"{"type": "crash_broker", "broker": 1, "topic": "t"}"#),
            "[0].topic (line 1, column 46): unknown field `topic`, expected `broker`"
        );
        assert_eq!(
            refusal::<Command>(r#"{"topic": "t", "broker": 1, "type": "crash_broker"}"#),
            "[0] (line 1, column 52): unknown field `topic`, expected `broker`"
        );
        assert!(refusal::<Command>(r#"{"type": "remove_member", "group": "g", "client_id": "c", "paused": true}"#)
            .ends_with("unknown field `paused`, expected `group` or `client_id`"));
        assert!(refusal::<Command>(r#"{"type": "seek", "group": "g", "client_id": "c", "topic": "t", "to": {"kind": "end"}, "bogus": 1}"#)
            .ends_with("unknown field `bogus`, expected one of `group`, `client_id`, `topic`, `partition`, `to`"));
        // Twice the same key.
        assert!(refusal::<Command>(r#"{"type": "crash_broker", "broker": 1, "broker": 2}"#).ends_with("duplicate field `broker`"));
        assert!(refusal::<Command>(r#"{"broker": 1, "broker": 2, "type": "crash_broker"}"#).ends_with("duplicate field `broker`"));
        assert!(refusal::<Command>(r#"{"type": "crash_broker", "type": "crash_broker", "broker": 1}"#).ends_with("duplicate field `type`"));
    }

    #[test]
    fn an_unknown_command_type_is_refused_listing_the_types() {
        let e = refusal::<Command>(r#"{"type": "explode"}"#);
        assert!(e.starts_with("[0].type (line 1, column 19): unknown variant `explode`, expected one of `produce`, `add_member`, "), "{e}");
        assert!(e.ends_with(", `shutdown_broker`, `add_share_group`, `add_share_member`, `remove_share_member`, `crash_share_member`, `restart_share_member`, `set_share_processing`, `set_acknowledgement_mode`, `set_acknowledge_rule`, `begin_transaction`, `commit_transaction`, `abort_transaction`, `send_offsets_to_transaction`, `crash_producer`, `restart_producer`, `add_producer`, `set_isolation_level`, `set_processing_guarantee`"), "{e}");
        assert!(refusal::<Command>(r#"{"broker": 1}"#).ends_with("missing field `type`"));
        assert!(refusal::<Command>("7").contains("expected a command object with a \"type\""));
        let e = refusal::<SeekTo>(r#"{"kind": "sideways"}"#);
        assert!(e.ends_with("unknown variant `sideways`, expected one of `beginning`, `end`, `offset`, `timestamp`"), "{e}");
    }

    #[test]
    fn a_command_field_of_the_wrong_type_is_refused_where_it_stands() {
        assert_eq!(
            refusal::<Command>(r#"{"type": "crash_broker", "broker": "1"}"#),
            "[0].broker (line 1, column 39): invalid type: string \"1\", expected a whole number from 0 to 4294967295"
        );
        // `group` is a group id, except in add_group, where it is the group.
        assert!(
            refusal::<Command>(r#"{"type": "add_group", "group": "g"}"#).ends_with("invalid type: string \"g\", expected an object {...}")
        );
        assert!(
            refusal::<Command>(r#"{"group": "g", "type": "add_group"}"#).ends_with("invalid type: string \"g\", expected an object {...}")
        );
        let spec = r#"{"id": "g", "topics": ["t"]}"#;
        assert!(refusal::<Command>(&format!(r#"{{"type": "crash_member", "group": {spec}, "client_id": "c"}}"#))
            .ends_with("invalid type: map, expected a string"));
        assert!(refusal::<Command>(&format!(r#"{{"group": {spec}, "client_id": "c", "type": "crash_member"}}"#))
            .ends_with("invalid type: map, expected a string"));
        assert!(parse_json::<Command>(&format!(r#"{{"group": {spec}, "type": "add_group"}}"#)).is_ok());
    }

    /// What serde's derive also read: the sequence form, and keys a variant ignores.
    #[test]
    fn the_forms_serde_accepted_still_read() {
        assert_eq!(parse_json::<Command>(r#"["crash_broker", 3]"#).unwrap(), Command::Broker(BrokerCommand::CrashBroker { broker: 3 }));
        assert_eq!(
            parse_json::<Command>(r#"["produce", "p", "t", null, "v"]"#).unwrap(),
            Command::Produce(ProduceCommand::Produce {
                producer: "p".into(),
                topic: "t".into(),
                key: None,
                value: Some("v".into()),
                partition: None,
                headers: vec![]
            })
        );
        assert!(refusal::<Command>(r#"["crash_broker", 1, 2]"#).ends_with("invalid length 2, expected 1 element in sequence"));
        assert!(refusal::<Command>(r#"["crash_broker"]"#).ends_with("missing field `broker`"));
        // SeekTo has no deny_unknown_fields; a unit variant took any key, of any type.
        for text in
            [r#"{"kind": "offset", "offset": 3, "extra": 1}"#, r#"{"extra": 1, "timestamp_ms": "x", "offset": 3, "kind": "offset"}"#]
        {
            assert_eq!(parse_json::<SeekTo>(text).unwrap(), SeekTo::Offset { offset: 3 }, "{text}");
        }
        assert_eq!(parse_json::<SeekTo>(r#"{"offset": "x", "kind": "end"}"#).unwrap(), SeekTo::End);
        assert_eq!(parse_json::<SeekTo>(r#"["offset", 4]"#).unwrap(), SeekTo::Offset { offset: 4 });
    }
}
