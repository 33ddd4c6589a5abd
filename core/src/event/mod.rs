//! The trace: typed events that tests, the command-line tool and the page read.

mod cluster;
mod compaction;
mod connect;
mod consume;
mod consumer_protocol;
mod group;
mod produce;
mod push;
mod replication;
#[cfg(test)]
pub(crate) mod samples;
mod settings;
mod share_group;
mod streams;
mod txn;

pub use self::share_group::{ArchiveCause, ReturnCause, ShareError, ShareGroupEvent, ShareLeaveReason};
pub use self::txn::{ClientTxnState, TxnPartition, TxnState};
pub use self::{
    cluster::ClusterEvent,
    compaction::CompactionEvent,
    connect::ConnectEvent,
    consume::ConsumeEvent,
    consumer_protocol::ConsumerProtocolEvent,
    group::GroupEvent,
    produce::ProduceEvent,
    push::PushEvent,
    replication::ReplicationEvent,
    settings::SettingsEvent,
    streams::StreamsEvent,
    txn::{control_name, EndCause, TxnError, TxnEvent, TxnRequest},
};

use crate::config::Acks;
use crate::record::BrokerId;
use crate::record::{RecordId, TopicPartition};
use crate::time::SimTime;
use serde::{Deserialize, Serialize};
use std::collections::VecDeque;
use std::hash::{Hash, Hasher};
use std::sync::Arc;

/// Why a consumer starts a partition where it does.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum StartFrom {
    /// The group's committed offset (the next offset to read).
    Committed,
    /// No committed offset: `auto.offset.reset=earliest`, the log start.
    ResetEarliest,
    /// No committed offset: `auto.offset.reset=latest`, the log end.
    ResetLatest,
}

/// Why a group rebalances.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum RebalanceCause {
    /// The coordinator added a new member (classic: its JoinGroup with a member id;
    /// KIP-848: its first heartbeat, epoch 0).
    MemberJoined {
        /// The new member's `client.id`.
        client_id: String,
    },
    /// The coordinator removed a member: it left, its session expired, or it missed the
    /// rebalance or revocation timeout (the `MemberLeft` event before says which).
    MemberLeft {
        /// The removed member's `client.id`.
        client_id: String,
    },
    /// Classic protocol: the group's `partition.assignment.strategy` changed at run time;
    /// every member commits, gives up its partitions and rejoins, as a restart with the new
    /// setting would.
    AssignorChanged,
    /// A known member sent JoinGroup again (say, after its cooperative revocation).
    MemberRejoined {
        /// The rejoining member's `client.id`.
        client_id: String,
    },
    /// KIP-848: a subscribed topic's partition count changed (the coordinator notices).
    TopicMetadataChanged {
        /// The topic whose partition count changed.
        topic: String,
    },
    /// A member subscribed to other topics.
    SubscriptionChanged {
        /// The member whose subscription changed, by `client.id`.
        client_id: String,
    },
}

/// Something that happened, with what it touched: one variant per Kafka feature, each
/// feature's events in its own file (`event/produce.rs`, …). The JSON is the feature's own
/// (`{"type": "record_sent", …}`, untagged here), the same as when the kinds were one flat
/// enum; `Hash` delegates, so the trace digest is unchanged too. `Clone` and `PartialEq` are
/// the derived ones written out, to keep them out of line (the page's download, BENCHMARKS.md).
#[derive(Debug, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum EventKind {
    /// A producer's `send()`, its batches and Produce requests, the leader's append and the
    /// acknowledgement.
    Produce(ProduceEvent),
    /// A broker crashed, restarted, was cut off, healed, slowed, fenced or unfenced; a topic
    /// grew.
    Cluster(ClusterEvent),
    /// Leader elections, the ISR, follower fetches, the high watermark, truncation, lost
    /// records and retention.
    Replication(ReplicationEvent),
    /// Consumer group membership: joins, leaves, the classic JoinGroup/SyncGroup rounds,
    /// revocations and assignments, crashes and pauses.
    Group(GroupEvent),
    /// Consuming: start positions, records `poll()` returned and processed, seeks and offset
    /// commits.
    Consume(ConsumeEvent),
    /// The consumer group protocol of KIP-848: heartbeats, group epochs, target assignments
    /// and reconciliation.
    ConsumerProtocol(ConsumerProtocolEvent),
    /// Push delivery (not Kafka, a teaching device): records pushed to a member, a member
    /// overwhelmed.
    Push(PushEvent),
    /// Kafka Connect source connectors: table changes, polls, offset flushes, task crashes
    /// and restarts.
    Connect(ConnectEvent),
    /// Kafka Streams: records processed by the topology, state stores restored.
    Streams(StreamsEvent),
    /// Settings changed at run time, and commands that could not be carried out.
    Settings(SettingsEvent),
    /// Share groups (KIP-932): membership, acquisition, acknowledgements, locks.
    ShareGroup(ShareGroupEvent),
    /// Transactions: transactional producers, their coordinator, markers, transactional
    /// offsets and what read_committed consumers skip.
    Txn(TxnEvent),
    /// Log compaction: the log cleaner's passes (issue 19).
    Compaction(CompactionEvent),
}

/// `match` over the features, one line each: `each_feature!(kind, e => e.name())`.
macro_rules! each_feature {
    ($kind:expr, $e:ident => $body:expr) => {
        match $kind {
            EventKind::Produce($e) => $body,
            EventKind::Cluster($e) => $body,
            EventKind::Replication($e) => $body,
            EventKind::Group($e) => $body,
            EventKind::Consume($e) => $body,
            EventKind::ConsumerProtocol($e) => $body,
            EventKind::Push($e) => $body,
            EventKind::Connect($e) => $body,
            EventKind::Streams($e) => $body,
            EventKind::Settings($e) => $body,
            EventKind::ShareGroup($e) => $body,
            EventKind::Txn($e) => $body,
            EventKind::Compaction($e) => $body,
        }
    };
}

macro_rules! from_feature {
    ($($variant:ident($inner:ident),)*) => {
        $(impl From<$inner> for EventKind {
            fn from(e: $inner) -> Self {
                EventKind::$variant(e)
            }
        })*
    };
}

from_feature! {
Produce(ProduceEvent),
Cluster(ClusterEvent),
Replication(ReplicationEvent),
Group(GroupEvent),
Consume(ConsumeEvent),
ConsumerProtocol(ConsumerProtocolEvent),
Push(PushEvent),
Connect(ConnectEvent),
Streams(StreamsEvent),
Settings(SettingsEvent),
ShareGroup(ShareGroupEvent),
Txn(TxnEvent),
Compaction(CompactionEvent),
}

impl PartialEq for EventKind {
    /// The derived comparison: the same feature, then its own `==`. Out of line, so the
    /// comparisons of events, of lists of them and of what holds them call one copy instead
    /// of each holding its own.
    #[inline(never)]
    fn eq(&self, other: &Self) -> bool {
        use EventKind as K;
        match (self, other) {
            (K::Produce(a), K::Produce(b)) => a == b,
            (K::Cluster(a), K::Cluster(b)) => a == b,
            (K::Replication(a), K::Replication(b)) => a == b,
            (K::Group(a), K::Group(b)) => a == b,
            (K::Consume(a), K::Consume(b)) => a == b,
            (K::ConsumerProtocol(a), K::ConsumerProtocol(b)) => a == b,
            (K::Push(a), K::Push(b)) => a == b,
            (K::Connect(a), K::Connect(b)) => a == b,
            (K::Streams(a), K::Streams(b)) => a == b,
            (K::Settings(a), K::Settings(b)) => a == b,
            (K::ShareGroup(a), K::ShareGroup(b)) => a == b,
            (K::Txn(a), K::Txn(b)) => a == b,
            (K::Compaction(a), K::Compaction(b)) => a == b,
            (
                K::Produce(_)
                | K::Cluster(_)
                | K::Replication(_)
                | K::Group(_)
                | K::Consume(_)
                | K::ConsumerProtocol(_)
                | K::Push(_)
                | K::Connect(_)
                | K::Streams(_)
                | K::Settings(_)
                | K::ShareGroup(_)
                | K::Txn(_)
                | K::Compaction(_),
                _,
            ) => false,
        }
    }
}

impl Clone for EventKind {
    /// The derived clone: the feature's own. Out of line, so an `Event`'s clone calls it
    /// rather than holding a second copy of it (1.8 KB of the page's gzipped download).
    #[inline(never)]
    fn clone(&self) -> Self {
        each_feature!(self, e => EventKind::from(e.clone()))
    }
}

impl Hash for EventKind {
    /// The feature's own kind only (its discriminant is the kind's old place in one flat
    /// enum), so a trace hashes as it always has.
    fn hash<H: Hasher>(&self, state: &mut H) {
        each_feature!(self, e => e.hash(state))
    }
}

/// Why a record went to the partition it went to (shown to the learner).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum PartitionReason {
    /// The record named its partition.
    Explicit,
    /// `toPositive(murmur2(keyBytes)) % numPartitions`; `murmur2` is the raw hash.
    KeyHash {
        /// The key's raw murmur2 hash, before `toPositive` and the modulo.
        murmur2: i32,
    },
    /// A keyless record went to the current sticky partition (KIP-794).
    Sticky,
    /// `RoundRobinPartitioner`: the counter value this record consumed.
    RoundRobin {
        /// The topic's round-robin counter as this record took it (before the increment).
        counter: u32,
    },
}

/// Why segments were deleted (Kafka's `SegmentDeletionReason`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SegmentDeletionReason {
    /// `retention.ms`: the segment's newest record is older than that (`RetentionMsBreach`).
    RetentionMs,
    /// `retention.bytes`: the log is larger than that by at least the segment's size
    /// (`RetentionSizeBreach`).
    RetentionBytes,
    /// The log start offset moved past the whole segment (`LogStartOffsetBreach`).
    LogStartOffset,
}

/// A source offset as the JDBC connector stores it: `{"incrementing": id}` or
/// `{"timestamp": ts, "incrementing": id}`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct SourceOffset {
    /// The row's timestamp column (when it was last inserted or updated), in ms of simulated
    /// time; `None` in `incrementing` mode, which does not read it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub timestamp_ms: Option<u64>,
    /// The row's id (the incrementing column).
    pub incrementing: u64,
}

/// Who or what an event involves, as data: the page outlines them when the event is
/// selected, lessons wait for events that involve them. Named by the scenario's own names.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Subject<'a> {
    /// A broker, by its id.
    Broker(BrokerId),
    /// A producer, by its name in the scenario.
    Producer(&'a str),
    /// A topic, by its name.
    Topic(&'a str),
    /// One partition of a topic.
    Partition {
        /// The partition's topic.
        topic: &'a str,
        /// The partition's number within its topic, from 0.
        partition: u32,
    },
    /// A record, by the id the sandbox gave it when it was sent.
    Record(RecordId),
    /// A consumer group, by its `group.id` (a Streams application's: its `application.id`).
    Group(&'a str),
    /// A consumer, by its group and client id (a Streams instance: its application id
    /// and client id).
    Member {
        /// The member's `group.id`.
        group: &'a str,
        /// The member's `client.id`.
        client_id: &'a str,
    },
    /// A source connector (its task, table and offsets).
    Connector(&'a str),
    /// A Kafka Streams application, by `application.id`.
    StreamsApp(&'a str),
}

impl Subject<'_> {
    /// The name a lesson's `mentions` may give for it: a broker's id, a member's client
    /// id, a partition's topic; a record has none (its value is the event's).
    pub fn name(&self) -> Option<std::borrow::Cow<'_, str>> {
        use std::borrow::Cow;
        match *self {
            Subject::Broker(b) => Some(Cow::Owned(b.to_string())),
            Subject::Producer(n) | Subject::Topic(n) | Subject::Group(n) | Subject::Connector(n) | Subject::StreamsApp(n) => {
                Some(Cow::Borrowed(n))
            }
            Subject::Partition { topic, .. } => Some(Cow::Borrowed(topic)),
            Subject::Member { client_id, .. } => Some(Cow::Borrowed(client_id)),
            Subject::Record(_) => None,
        }
    }
}

/// What part of Kafka an event belongs to: the event log's filter.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Category {
    /// Producers and what they send (Connect's source tasks included).
    Produce,
    /// Leaders, followers, the ISR, the high watermark, retention.
    Replication,
    /// The group protocols: joins, leaves, rebalances, assignments, heartbeats.
    Group,
    /// Consumers reading, processing and committing (Streams' processing included).
    Consume,
    /// Crashes, cuts, losses and failures.
    Fault,
    /// Settings changed at run time, and commands that could not be carried out.
    Settings,
}

impl Category {
    /// Every category, in the order the page lists them.
    pub const ALL: [Category; 6] =
        [Category::Produce, Category::Replication, Category::Group, Category::Consume, Category::Fault, Category::Settings];
}

/// What the page's jump buttons look for in the trace (a guarantee monitor's finding, the
/// third, is not an event).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Jump {
    /// A rebalance starts (classic) or a group epoch goes up (KIP-848).
    Rebalance,
    /// A broker or consumer fails, or a broker is cut off.
    Fault,
}

impl EventKind {
    /// The kind's name, as in the code (for filters; cheaper than `Debug`).
    pub fn name(&self) -> &'static str {
        each_feature!(self, e => e.name())
    }

    /// Who and what the event involves (exhaustive: a new event must say).
    pub fn subjects(&self) -> Vec<Subject<'_>> {
        each_feature!(self, e => e.subjects())
    }

    /// The part of Kafka the event belongs to (exhaustive: a new event must say).
    pub fn category(&self) -> Category {
        each_feature!(self, e => e.category())
    }

    /// Which jump target the event is, if any (exhaustive: a new event must say).
    pub fn jump(&self) -> Option<Jump> {
        each_feature!(self, e => e.jump())
    }

    /// The words a lesson's `mentions` may give for the event besides its subjects' names
    /// ([`Subject::name`]), as data (exhaustive: a new event must say): record keys and
    /// values, the other names it carries (member ids, assignors, a changed setting and its
    /// value, the topics of its partition lists), and its enum-valued details as the trace
    /// writes them (`NOT_ENOUGH_REPLICAS`, `session_timeout`, `key_hash`). Never a field's
    /// name, a number or the event's own type.
    pub fn details(&self) -> Vec<&str> {
        each_feature!(self, e => e.details())
    }

    /// Whether a lesson's mention names the event: one of its subjects' names or one of
    /// its [`details`](Self::details), the whole text.
    pub fn mentions(&self, text: &str) -> bool {
        self.subjects().iter().any(|s| s.name().is_some_and(|n| n == text)) || self.details().contains(&text)
    }
}

/// A partition as a subject.
fn part(topic: &str, partition: u32) -> Subject<'_> {
    Subject::Partition { topic, partition }
}

/// A member as a subject.
fn member<'a>(group: &'a str, client_id: &'a str) -> Subject<'a> {
    Subject::Member { group, client_id }
}

/// The topics of a partition list.
fn topics(tps: &[TopicPartition]) -> impl Iterator<Item = &str> {
    tps.iter().map(|tp| tp.topic.as_str())
}

/// The topics of committed offsets.
fn committed(offsets: &[(TopicPartition, u64)]) -> impl Iterator<Item = &str> {
    offsets.iter().map(|(tp, _)| tp.topic.as_str())
}

/// `acks` as the trace writes it.
fn acks_name(acks: Acks) -> &'static str {
    match acks {
        Acks::Zero => "0",
        Acks::Leader => "1",
        Acks::All => "all",
    }
}

/// A seek's `kind` as the trace writes it.
fn seek_name(how: &crate::command::SeekTo) -> &'static str {
    use crate::command::SeekTo;
    match how {
        SeekTo::Beginning => "beginning",
        SeekTo::End => "end",
        SeekTo::Offset { .. } => "offset",
        SeekTo::Timestamp { .. } => "timestamp",
    }
}

impl StartFrom {
    /// As the trace writes it.
    pub fn name(self) -> &'static str {
        match self {
            StartFrom::Committed => "committed",
            StartFrom::ResetEarliest => "reset_earliest",
            StartFrom::ResetLatest => "reset_latest",
        }
    }
}

impl RebalanceCause {
    /// Its `kind` as the trace writes it.
    pub fn name(&self) -> &'static str {
        match self {
            RebalanceCause::MemberJoined { .. } => "member_joined",
            RebalanceCause::MemberLeft { .. } => "member_left",
            RebalanceCause::AssignorChanged => "assignor_changed",
            RebalanceCause::MemberRejoined { .. } => "member_rejoined",
            RebalanceCause::TopicMetadataChanged { .. } => "topic_metadata_changed",
            RebalanceCause::SubscriptionChanged { .. } => "subscription_changed",
        }
    }

    /// Who or what caused the rebalance, as a subject of the event that reports it (a member
    /// of `group`, or a topic); none when the assignor changed.
    pub fn subject<'a>(&'a self, group: &'a str) -> Option<Subject<'a>> {
        match self {
            RebalanceCause::MemberJoined { client_id }
            | RebalanceCause::MemberLeft { client_id }
            | RebalanceCause::MemberRejoined { client_id }
            | RebalanceCause::SubscriptionChanged { client_id } => Some(member(group, client_id)),
            RebalanceCause::TopicMetadataChanged { topic } => Some(Subject::Topic(topic)),
            RebalanceCause::AssignorChanged => None,
        }
    }
}

impl PartitionReason {
    /// Its `kind` as the trace writes it.
    pub fn name(&self) -> &'static str {
        match self {
            PartitionReason::Explicit => "explicit",
            PartitionReason::KeyHash { .. } => "key_hash",
            PartitionReason::Sticky => "sticky",
            PartitionReason::RoundRobin { .. } => "round_robin",
        }
    }
}

impl SegmentDeletionReason {
    /// As the trace writes it.
    pub fn name(self) -> &'static str {
        match self {
            SegmentDeletionReason::RetentionMs => "retention_ms",
            SegmentDeletionReason::RetentionBytes => "retention_bytes",
            SegmentDeletionReason::LogStartOffset => "log_start_offset",
        }
    }
}

impl LeaveReason {
    /// As the trace writes it.
    pub fn name(self) -> &'static str {
        match self {
            LeaveReason::Graceful => "graceful",
            LeaveReason::SessionTimeout => "session_timeout",
            LeaveReason::PollTimeout => "poll_timeout",
            LeaveReason::RebalanceTimeout => "rebalance_timeout",
            LeaveReason::RevocationTimeout => "revocation_timeout",
        }
    }
}

impl GroupError {
    /// Kafka's name, as the trace writes it.
    pub fn name(self) -> &'static str {
        match self {
            GroupError::UnknownMemberId => "UNKNOWN_MEMBER_ID",
            GroupError::IllegalGeneration => "ILLEGAL_GENERATION",
            GroupError::RebalanceInProgress => "REBALANCE_IN_PROGRESS",
            GroupError::CoordinatorNotAvailable => "COORDINATOR_NOT_AVAILABLE",
            GroupError::FencedMemberEpoch => "FENCED_MEMBER_EPOCH",
            GroupError::StaleMemberEpoch => "STALE_MEMBER_EPOCH",
            GroupError::UnreleasedInstanceId => "UNRELEASED_INSTANCE_ID",
            GroupError::NoOffsetForPartition => "NO_OFFSET_FOR_PARTITION",
            GroupError::InvalidSessionTimeout => "INVALID_SESSION_TIMEOUT",
            GroupError::OffsetOutOfRange => "OFFSET_OUT_OF_RANGE",
            GroupError::LogTruncation => "LOG_TRUNCATION",
        }
    }
}

impl ProduceError {
    /// Kafka's name, as the trace writes it.
    pub fn name(self) -> &'static str {
        match self {
            ProduceError::NotLeaderOrFollower => "NOT_LEADER_OR_FOLLOWER",
            ProduceError::NotEnoughReplicas => "NOT_ENOUGH_REPLICAS",
            ProduceError::NotEnoughReplicasAfterAppend => "NOT_ENOUGH_REPLICAS_AFTER_APPEND",
            ProduceError::RequestTimedOut => "REQUEST_TIMED_OUT",
            ProduceError::NetworkException => "NETWORK_EXCEPTION",
            ProduceError::UnknownProducerId => "UNKNOWN_PRODUCER_ID",
            ProduceError::OutOfOrderSequenceNumber => "OUT_OF_ORDER_SEQUENCE_NUMBER",
            ProduceError::LeaderNotAvailable => "LEADER_NOT_AVAILABLE",
            ProduceError::DeliveryTimeout => "DELIVERY_TIMEOUT",
            ProduceError::BufferExhausted => "BUFFER_EXHAUSTED",
            ProduceError::RecordTooLarge => "RECORD_TOO_LARGE",
            ProduceError::InvalidProducerEpoch => "INVALID_PRODUCER_EPOCH",
            ProduceError::InvalidRecord => "INVALID_RECORD",
            ProduceError::TransactionAborted => "TRANSACTION_ABORTED",
            ProduceError::ProducerFenced => "PRODUCER_FENCED",
            ProduceError::TransactionAbortable => "TRANSACTION_ABORTABLE",
        }
    }
}

impl LossCause {
    /// As the trace writes it.
    pub fn name(self) -> &'static str {
        match self {
            LossCause::UncleanElection => "unclean_election",
            LossCause::LeaderFailover => "leader_failover",
        }
    }
}

/// Why a member left the group.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LeaveReason {
    /// `close()`: LeaveGroup at once (dynamic members only).
    Graceful,
    /// No heartbeat for `session.timeout.ms` (a crash, or a static member's close).
    SessionTimeout,
    /// No `poll()` for `max.poll.interval.ms`: the heartbeat thread sent LeaveGroup (KIP-62).
    PollTimeout,
    /// It did not rejoin before the rebalance timeout.
    RebalanceTimeout,
    /// KIP-848: it did not revoke its partitions within the rebalance timeout.
    RevocationTimeout,
}

/// Errors the group coordinator answers with (Kafka's `Errors`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
#[non_exhaustive]
pub enum GroupError {
    /// The coordinator does not know the member id (the member was removed, say after its
    /// session expired): its partitions are lost and it joins again; a commit it sent fails.
    UnknownMemberId,
    /// Classic protocol: the request carried a generation other than the group's current
    /// one (the group rebalanced without this member); it rejoins.
    IllegalGeneration,
    /// Classic protocol: the group is rebalancing; a heartbeat with this answer makes the
    /// member rejoin, and a commit during `CompletingRebalance` is refused with it.
    RebalanceInProgress,
    /// No coordinator can answer (the broker hosting the group's coordinator is down or
    /// cut off); the consumer retries after `retry.backoff.ms`.
    CoordinatorNotAvailable,
    /// KIP-848: the member's epoch is not one the coordinator accepts; it rejoins with
    /// epoch 0 after losing its partitions.
    FencedMemberEpoch,
    /// KIP-848: an OffsetCommit carried an older member epoch.
    StaleMemberEpoch,
    /// KIP-848: a static member joined while its instance id is still held by a member
    /// that did not leave (it crashed): fatal for the new consumer.
    UnreleasedInstanceId,
    /// Not from the coordinator: `auto.offset.reset=none` and no committed offset
    /// (`NoOffsetForPartitionException` from `poll()`).
    NoOffsetForPartition,
    /// Not from the coordinator: `auto.offset.reset=none` and the position is outside the
    /// log (`OffsetOutOfRangeException` from `poll()`).
    OffsetOutOfRange,
    /// A classic JoinGroup's `session.timeout.ms` is outside the brokers'
    /// `group.min.session.timeout.ms`..`group.max.session.timeout.ms`
    /// (`GroupCoordinatorService.joinGroup`): fatal for the consumer
    /// (`InvalidSessionTimeoutException` from `poll()`).
    InvalidSessionTimeout,
    /// Not from the coordinator: `auto.offset.reset=none` and the position's validation
    /// (KIP-320) found the log truncated below it after an unclean election
    /// (`LogTruncationException` from `poll()`, which names the divergent offset).
    LogTruncation,
}

/// Errors a Produce request can meet (Kafka's `Errors`), plus the producer's own timeout.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum ProduceError {
    /// The broker is not (or no longer) the partition's leader.
    NotLeaderOrFollower,
    /// acks=all and the ISR is smaller than `min.insync.replicas`: refused before append.
    NotEnoughReplicas,
    /// acks=all and the ISR shrank below `min.insync.replicas` after the append: the
    /// record is already in the log, so a retry may duplicate it (unless idempotent).
    NotEnoughReplicasAfterAppend,
    /// No response within `request.timeout.ms` (a crashed or cut-off broker, or an
    /// acks=all write waiting for replicas that do not come).
    RequestTimedOut,
    /// The connection broke: the broker process is gone (the producer sees the socket
    /// close at once, unlike a cut-off broker, which it only notices by timing out).
    NetworkException,
    /// Idempotent producer: the leader has no record of this producer and the batch is
    /// not its first (its earlier records were lost or deleted). The producer resets its
    /// sequence numbers for the partition and retries (KIP-360).
    UnknownProducerId,
    /// Idempotent producer: a batch arrived before an earlier one of the same partition.
    OutOfOrderSequenceNumber,
    /// The partition has no leader to send to.
    LeaderNotAvailable,
    /// `delivery.timeout.ms` passed: the producer gives up on the records.
    DeliveryTimeout,
    /// Not from a broker: `send()` waited `max.block.ms` for `buffer.memory` and got none
    /// (`BufferExhaustedException` from `BufferPool.allocate`, to the send's callback).
    BufferExhausted,
    /// Not from a broker: the record alone is larger than `buffer.memory`
    /// (`RecordTooLargeException` from `KafkaProducer.ensureValidRecordSize`).
    RecordTooLarge,
    /// A transactional batch whose epoch is older than the newest the leader has seen for
    /// its producer id (the coordinator aborted the transaction: a timeout or a new
    /// instance): not retried; the transaction becomes abortable (KIP-588).
    InvalidProducerEpoch,
    /// Not from a broker: the batch was still unsent when `abortTransaction()` was called
    /// (`TransactionAbortedException` to its callback).
    TransactionAborted,
    /// The producer was fenced by a newer instance (`ProducerFencedException`): every
    /// unfinished batch fails with it.
    ProducerFenced,
    /// The leader could not add the partition to the transaction (KIP-890 verification):
    /// the transaction becomes abortable.
    TransactionAbortable,
    /// The leader refused the batch: a record without a key on a compacted topic
    /// (`LogValidator.validateKey`, `InvalidRecordException`): not retried.
    InvalidRecord,
}

/// A record a leader change left behind.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct LostRecord {
    /// The lost record's id.
    pub record: RecordId,
    /// The lost record's value.
    pub value: String,
    /// Where it was in the old leader's log.
    pub offset: u64,
    /// Whether it was below the old leader's HW (committed) when the leader changed.
    pub was_committed: bool,
}

/// Why records were lost.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LossCause {
    /// An out-of-sync replica became leader (`unclean.leader.election.enable=true`).
    UncleanElection,
    /// A clean failover: the new leader (in the ISR) lacked records that had reached only
    /// the old leader — acknowledged only under acks=1 or acks=0.
    LeaderFailover,
}

/// One trace entry.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Event {
    /// Position in the whole run, from 0; never reused even when old events are dropped.
    pub seq: u64,
    /// When it happened, in ms of simulated time since the start of the run.
    pub time: SimTime,
    /// What happened, with what it touched (in the JSON, its `type` and fields sit beside
    /// `seq` and `time`).
    #[serde(flatten)]
    pub kind: EventKind,
}

/// Events per sealed chunk of the trace: the unit clones share.
const CHUNK: usize = 256;

/// The trace kept in memory: the newest `capacity` events, plus a digest over all of them.
///
/// The events are kept in chunks of 256: every full chunk is sealed behind an `Arc`
/// and never changed again, so a clone (a time-travel checkpoint, issue 20) copies only the
/// open chunk and the list of sealed ones, and shares the rest with the run it came from.
/// Which events are kept, in which chunk, depends only on `total` and `capacity`.
#[derive(Clone, Debug)]
pub struct Trace {
    /// Full chunks, oldest first; the first one's `skip` oldest events are dropped.
    sealed: VecDeque<Arc<Vec<Event>>>,
    /// The newest events, fewer than [`CHUNK`].
    open: Vec<Event>,
    /// Events of `sealed[0]` no longer kept.
    skip: usize,
    capacity: usize,
    total: u64,
    digest: u64,
}

/// Same kept events, count and digest (the chunking follows from them).
impl PartialEq for Trace {
    fn eq(&self, other: &Self) -> bool {
        self.capacity == other.capacity && self.total == other.total && self.digest == other.digest && self.events().eq(other.events())
    }
}

impl Eq for Trace {}

impl Trace {
    /// An empty trace that keeps the newest `capacity` events (at least 1); the total and the
    /// digest still count every event.
    pub fn new(capacity: usize) -> Self {
        Self { sealed: VecDeque::new(), open: Vec::new(), skip: 0, capacity: capacity.max(1), total: 0, digest: FNV_OFFSET }
    }

    pub(crate) fn push(&mut self, time: SimTime, kind: EventKind) -> &Event {
        let event = Event { seq: self.total, time, kind };
        let mut hasher = StableHasher(self.digest);
        event.hash(&mut hasher);
        self.digest = hasher.0;
        if self.len() == self.capacity {
            self.drop_oldest();
        }
        self.open.push(event);
        self.total += 1;
        if self.open.len() == CHUNK {
            let full = std::mem::replace(&mut self.open, Vec::with_capacity(CHUNK));
            self.sealed.push_back(Arc::new(full));
        }
        // The event just pushed is the newest one kept.
        let n = self.len();
        self.get(n - 1).unwrap_or_else(|| unreachable!("a pushed event is kept (capacity >= 1)"))
    }

    fn drop_oldest(&mut self) {
        if self.sealed.is_empty() {
            if !self.open.is_empty() {
                self.open.remove(0);
            }
            return;
        }
        self.skip += 1;
        if self.skip == CHUNK {
            self.sealed.pop_front();
            self.skip = 0;
        }
    }

    /// Keeps only the newest `n` events (at least 1); the total and the digest are
    /// unchanged, and what is dropped counts in [`Trace::dropped`]. For time-travel
    /// checkpoints far behind the run (`crate::history`).
    pub(crate) fn keep_newest(&mut self, n: usize) {
        let n = n.max(1);
        while self.len() > n {
            if self.sealed.is_empty() {
                let excess = self.open.len() - n;
                self.open.drain(..excess);
                return;
            }
            let first = CHUNK - self.skip;
            if self.len() - first >= n {
                self.sealed.pop_front();
                self.skip = 0;
            } else {
                self.drop_oldest();
            }
        }
    }

    /// How many events are kept.
    fn len(&self) -> usize {
        self.sealed.len() * CHUNK - self.skip + self.open.len()
    }

    /// The `i`-th kept event, oldest first.
    fn get(&self, i: usize) -> Option<&Event> {
        let at = i + self.skip;
        let sealed = self.sealed.len() * CHUNK;
        if at < sealed {
            Some(&self.sealed[at / CHUNK][at % CHUNK])
        } else {
            self.open.get(at - sealed)
        }
    }

    /// The kept events, oldest first.
    pub fn events(&self) -> Events<'_> {
        Events { trace: self, front: 0, back: self.len() }
    }

    /// Events kept whose `seq` is at least `seq`.
    pub fn since(&self, seq: u64) -> Events<'_> {
        let len = self.len();
        let first_kept = self.total - len as u64;
        let skip = seq.saturating_sub(first_kept).min(len as u64) as usize;
        Events { trace: self, front: skip, back: len }
    }

    /// How many events the run has produced (kept or not).
    pub fn total(&self) -> u64 {
        self.total
    }

    /// Whether older events were dropped to keep within the capacity
    /// ([`crate::SimOptions::trace_events`]): then [`Trace::events`] is not the whole run.
    pub fn is_truncated(&self) -> bool {
        self.dropped() > 0
    }

    /// How many events were dropped (the oldest).
    pub fn dropped(&self) -> u64 {
        self.total - self.len() as u64
    }

    /// The most events kept.
    pub fn capacity(&self) -> usize {
        self.capacity
    }

    /// A 64-bit FNV-1a digest over every event of the run, identical on every platform.
    pub fn digest(&self) -> u64 {
        self.digest
    }
}

/// The kept events of a [`Trace`], oldest first ([`Trace::events`], [`Trace::since`]).
#[derive(Clone, Debug)]
pub struct Events<'a> {
    trace: &'a Trace,
    front: usize,
    back: usize,
}

impl<'a> Iterator for Events<'a> {
    type Item = &'a Event;

    fn next(&mut self) -> Option<&'a Event> {
        if self.front >= self.back {
            return None;
        }
        self.front += 1;
        self.trace.get(self.front - 1)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.back - self.front;
        (n, Some(n))
    }

    fn nth(&mut self, n: usize) -> Option<&'a Event> {
        self.front = self.front.saturating_add(n).min(self.back);
        self.next()
    }

    fn last(mut self) -> Option<&'a Event> {
        self.next_back()
    }
}

impl<'a> DoubleEndedIterator for Events<'a> {
    fn next_back(&mut self) -> Option<&'a Event> {
        if self.front >= self.back {
            return None;
        }
        self.back -= 1;
        self.trace.get(self.back)
    }

    fn nth_back(&mut self, n: usize) -> Option<&'a Event> {
        self.back = self.back.saturating_sub(n).max(self.front);
        self.next_back()
    }
}

impl ExactSizeIterator for Events<'_> {}

const FNV_OFFSET: u64 = 0xcbf2_9ce4_8422_2325;
const FNV_PRIME: u64 = 0x0000_0100_0000_01b3;

/// FNV-1a with `usize` written as 8 bytes, so 32-bit wasm and 64-bit hosts agree.
///
/// Byte for byte the plain FNV-1a loop; whole words are taken eight bytes at a time and
/// integers fed without going through a byte slice (the digest sees every event, so this
/// is on the engine's hot path; issue 20).
struct StableHasher(u64);

/// One FNV-1a step.
#[inline(always)]
fn fnv(h: u64, byte: u64) -> u64 {
    (h ^ byte).wrapping_mul(FNV_PRIME)
}

/// The FNV-1a steps of the 8 bytes of `w`, lowest first (little-endian order), unrolled
/// by hand: the size-optimised build does not unroll loops.
#[inline(always)]
fn fnv8(h: u64, w: u64) -> u64 {
    let h = fnv(fnv(fnv(fnv(h, w & 0xff), (w >> 8) & 0xff), (w >> 16) & 0xff), (w >> 24) & 0xff);
    fnv(fnv(fnv(fnv(h, (w >> 32) & 0xff), (w >> 40) & 0xff), (w >> 48) & 0xff), w >> 56)
}

/// The FNV-1a steps of the 4 bytes of `w`, lowest first.
#[inline(always)]
fn fnv4(h: u64, w: u32) -> u64 {
    let w = u64::from(w);
    fnv(fnv(fnv(fnv(h, w & 0xff), (w >> 8) & 0xff), (w >> 16) & 0xff), w >> 24)
}

impl Hasher for StableHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        let mut h = self.0;
        let mut words = bytes.chunks_exact(8);
        for w in &mut words {
            let mut le = [0u8; 8];
            le.copy_from_slice(w);
            h = fnv8(h, u64::from_le_bytes(le));
        }
        for b in words.remainder() {
            h = fnv(h, u64::from(*b));
        }
        self.0 = h;
    }

    fn write_u8(&mut self, i: u8) {
        self.0 = fnv(self.0, u64::from(i));
    }

    fn write_usize(&mut self, i: usize) {
        self.0 = fnv8(self.0, i as u64);
    }

    fn write_isize(&mut self, i: isize) {
        self.0 = fnv8(self.0, i as i64 as u64);
    }

    fn write_u16(&mut self, i: u16) {
        self.0 = fnv(fnv(self.0, u64::from(i & 0xff)), u64::from(i >> 8));
    }

    fn write_u32(&mut self, i: u32) {
        self.0 = fnv4(self.0, i);
    }

    fn write_u64(&mut self, i: u64) {
        self.0 = fnv8(self.0, i);
    }

    fn write_i32(&mut self, i: i32) {
        self.0 = fnv4(self.0, i as u32);
    }

    fn write_i64(&mut self, i: i64) {
        self.0 = fnv8(self.0, i as u64);
    }
}

/// The word-at-a-time hasher against the plain byte loop it replaces.
#[cfg(test)]
mod stable_hasher_tests {
    use super::{StableHasher, FNV_OFFSET, FNV_PRIME};
    use std::hash::Hasher;

    fn plain(bytes: &[u8]) -> u64 {
        bytes.iter().fold(FNV_OFFSET, |h, b| (h ^ u64::from(*b)).wrapping_mul(FNV_PRIME))
    }

    #[test]
    fn it_gives_the_byte_by_byte_fnv_1a_for_every_length_and_integer() {
        let data: Vec<u8> = (0..40u8).map(|i| i.wrapping_mul(37).wrapping_add(11)).collect();
        for n in 0..data.len() {
            let mut h = StableHasher(FNV_OFFSET);
            h.write(&data[..n]);
            assert_eq!(h.finish(), plain(&data[..n]), "{n} bytes");
        }
        let mut h = StableHasher(FNV_OFFSET);
        h.write_u8(0xab);
        h.write_u16(0xbeef);
        h.write_u32(0xdead_beef);
        h.write_u64(0x0123_4567_89ab_cdef);
        h.write_usize(usize::MAX - 3);
        h.write_isize(-5);
        h.write_i32(-7);
        h.write_i64(i64::MIN + 9);
        let mut bytes = vec![0xab];
        bytes.extend(0xbeef_u16.to_le_bytes());
        bytes.extend(0xdead_beef_u32.to_le_bytes());
        bytes.extend(0x0123_4567_89ab_cdef_u64.to_le_bytes());
        bytes.extend(((usize::MAX - 3) as u64).to_le_bytes());
        bytes.extend((-5_i64).to_le_bytes());
        bytes.extend((-7_i32).to_le_bytes());
        bytes.extend((i64::MIN + 9).to_le_bytes());
        assert_eq!(h.finish(), plain(&bytes));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every enum-valued detail's `name()` is the string the trace's JSON writes for it.
    #[test]
    fn detail_names_are_the_traces_own_words() {
        use crate::json::write_json;
        let quoted = |s: &str| format!("\"{s}\"");
        for e in [
            GroupError::UnknownMemberId,
            GroupError::IllegalGeneration,
            GroupError::RebalanceInProgress,
            GroupError::CoordinatorNotAvailable,
            GroupError::FencedMemberEpoch,
            GroupError::StaleMemberEpoch,
            GroupError::UnreleasedInstanceId,
            GroupError::NoOffsetForPartition,
            GroupError::OffsetOutOfRange,
            GroupError::InvalidSessionTimeout,
            GroupError::LogTruncation,
        ] {
            assert_eq!(write_json(&e, false), quoted(e.name()));
        }
        for e in [
            ProduceError::NotLeaderOrFollower,
            ProduceError::NotEnoughReplicas,
            ProduceError::NotEnoughReplicasAfterAppend,
            ProduceError::RequestTimedOut,
            ProduceError::NetworkException,
            ProduceError::UnknownProducerId,
            ProduceError::OutOfOrderSequenceNumber,
            ProduceError::LeaderNotAvailable,
            ProduceError::DeliveryTimeout,
            ProduceError::BufferExhausted,
            ProduceError::RecordTooLarge,
            ProduceError::InvalidProducerEpoch,
            ProduceError::TransactionAborted,
            ProduceError::ProducerFenced,
            ProduceError::TransactionAbortable,
            ProduceError::InvalidRecord,
        ] {
            assert_eq!(write_json(&e, false), quoted(e.name()));
        }
        for e in [
            TxnError::CoordinatorNotAvailable,
            TxnError::ConcurrentTransactions,
            TxnError::ProducerFenced,
            TxnError::InvalidProducerEpoch,
            TxnError::TransactionAbortable,
            TxnError::InvalidTxnState,
            TxnError::InvalidProducerIdMapping,
            TxnError::InvalidTransactionTimeout,
            TxnError::IllegalGeneration,
            TxnError::UnknownMemberId,
            TxnError::UnstableOffsetCommit,
            TxnError::TransactionAborted,
        ] {
            assert_eq!(write_json(&e, false), quoted(e.name()));
        }
        for r in [TxnRequest::InitProducerId, TxnRequest::AddPartitions, TxnRequest::TxnOffsetCommit, TxnRequest::EndTxn] {
            assert_eq!(write_json(&r, false), quoted(r.name()));
        }
        for c in [EndCause::Client, EndCause::NewInstance, EndCause::Timeout] {
            assert_eq!(write_json(&c, false), quoted(c.name()));
        }
        use crate::config::{IsolationLevel, ProcessingGuarantee};
        for l in [IsolationLevel::ReadUncommitted, IsolationLevel::ReadCommitted] {
            assert_eq!(write_json(&l, false), quoted(l.name()));
        }
        for g in [ProcessingGuarantee::AtLeastOnce, ProcessingGuarantee::ExactlyOnceV2] {
            assert_eq!(write_json(&g, false), quoted(g.name()));
        }
        for k in [crate::record::ControlType::Commit, crate::record::ControlType::Abort] {
            assert_eq!(write_json(&k, false), quoted(control_name(k)));
        }
        use ClientTxnState as C;
        for st in [
            C::Uninitialized,
            C::Initializing,
            C::Ready,
            C::InTransaction,
            C::Committing,
            C::Aborting,
            C::AbortableError,
            C::FatalError,
            C::Crashed,
        ] {
            assert_eq!(write_json(&st, false), quoted(st.name()));
        }
        for r in [
            LeaveReason::Graceful,
            LeaveReason::SessionTimeout,
            LeaveReason::PollTimeout,
            LeaveReason::RebalanceTimeout,
            LeaveReason::RevocationTimeout,
        ] {
            assert_eq!(write_json(&r, false), quoted(r.name()));
        }
        for r in [SegmentDeletionReason::RetentionMs, SegmentDeletionReason::RetentionBytes, SegmentDeletionReason::LogStartOffset] {
            assert_eq!(write_json(&r, false), quoted(r.name()));
        }
        for c in [LossCause::UncleanElection, LossCause::LeaderFailover] {
            assert_eq!(write_json(&c, false), quoted(c.name()));
        }
        for f in [StartFrom::Committed, StartFrom::ResetEarliest, StartFrom::ResetLatest] {
            assert_eq!(write_json(&f, false), quoted(f.name()));
        }
        for a in [Acks::Zero, Acks::Leader, Acks::All] {
            assert_eq!(write_json(&a, false), quoted(acks_name(a)));
        }
        let tag = |json: String| json.split("\"kind\":").nth(1).and_then(|t| t.split('"').nth(1)).map(str::to_string);
        let c = |s: &str| s.to_string();
        for cause in [
            RebalanceCause::MemberJoined { client_id: c("x") },
            RebalanceCause::MemberLeft { client_id: c("x") },
            RebalanceCause::AssignorChanged,
            RebalanceCause::MemberRejoined { client_id: c("x") },
            RebalanceCause::TopicMetadataChanged { topic: c("x") },
            RebalanceCause::SubscriptionChanged { client_id: c("x") },
        ] {
            assert_eq!(tag(write_json(&cause, false)).as_deref(), Some(cause.name()));
        }
        for r in [
            PartitionReason::Explicit,
            PartitionReason::KeyHash { murmur2: 1 },
            PartitionReason::Sticky,
            PartitionReason::RoundRobin { counter: 1 },
        ] {
            assert_eq!(tag(write_json(&r, false)).as_deref(), Some(r.name()));
        }
        use crate::command::SeekTo;
        for how in [SeekTo::Beginning, SeekTo::End, SeekTo::Offset { offset: 1 }, SeekTo::Timestamp { timestamp_ms: 1 }] {
            assert_eq!(tag(write_json(&how, false)).as_deref(), Some(seek_name(&how)));
        }
    }

    /// What the digest hashes first for a kind: its explicit discriminant.
    fn place(k: EventKind) -> isize {
        struct First(Option<isize>);
        impl Hasher for First {
            fn finish(&self) -> u64 {
                0
            }
            fn write(&mut self, _: &[u8]) {}
            fn write_isize(&mut self, i: isize) {
                self.0.get_or_insert(i);
            }
        }
        let mut h = First(None);
        k.hash(&mut h);
        h.0.expect("a kind hashes its place first")
    }

    /// The samples are one of each kind: their places in the digest (each kind's explicit
    /// discriminant) are 0, 1, 2, … up to the first feature's range with none missing, then
    /// each feature's own range (share groups: 140–179), none twice.
    #[test]
    fn the_samples_are_one_of_each_kind() {
        let places: Vec<isize> = samples::every_event().into_iter().map(place).collect();
        let mut sorted = places.clone();
        sorted.sort_unstable();
        sorted.dedup();
        assert_eq!(sorted.len(), places.len(), "a place twice: {places:?}");
        let old: Vec<isize> = sorted.iter().copied().filter(|p| *p < 70).collect();
        assert_eq!(old, (0..old.len() as isize).collect::<Vec<_>>(), "{places:?}");
        let share: Vec<isize> = sorted.iter().copied().filter(|p| (140..180).contains(p)).collect();
        assert_eq!(share, (140..140 + share.len() as isize).collect::<Vec<_>>(), "{places:?}");
        // The flat enum's places 0, 1, 2, …, then each helper's range (transactions 100–139,
        // share groups 140–179, page 180–199, compaction 200–219), each used from its start
        // with no hole.
        for (lo, hi) in [(0, 100), (100, 140), (140, 180), (180, 200), (200, 220)] {
            let block: Vec<isize> = sorted.iter().copied().filter(|p| (lo..hi).contains(p)).collect();
            assert_eq!(block, (lo..lo + block.len() as isize).collect::<Vec<_>>(), "{places:?}");
        }
        assert!(sorted.iter().all(|p| *p < 220), "{places:?}");
    }

    /// The jump targets are what the page's own `match` gave before they became the core's
    /// data (`web/src/timeline.rs`, `jump_kind`), for every kind.
    #[test]
    fn every_kind_jumps_as_the_page_did() {
        fn page_before(e: &EventKind) -> Option<Jump> {
            use EventKind as E;
            match e {
                E::Group(GroupEvent::RebalanceStarted { .. })
                | E::ConsumerProtocol(ConsumerProtocolEvent::GroupEpochBumped { .. })
                | E::ShareGroup(ShareGroupEvent::ShareAssignmentComputed { .. }) => Some(Jump::Rebalance),
                E::Cluster(ClusterEvent::BrokerCrashed { .. })
                | E::Cluster(ClusterEvent::BrokerIsolated { .. })
                | E::Cluster(ClusterEvent::BrokerShutDown { .. })
                | E::Group(GroupEvent::MemberCrashed { .. })
                | E::ConsumerProtocol(ConsumerProtocolEvent::ConsumerFailed { .. })
                | E::ShareGroup(ShareGroupEvent::ShareMemberCrashed { .. }) => Some(Jump::Fault),
                // Transactions (issue 17): a producer's crash, its fencing, its fatal or
                // abortable error.
                E::Txn(TxnEvent::ProducerCrashed { .. } | TxnEvent::EpochFenced { .. } | TxnEvent::TxnProducerFailed { .. }) => {
                    Some(Jump::Fault)
                }
                _ => None,
            }
        }
        let all = samples::every_event();
        for e in &all {
            assert_eq!(e.jump(), page_before(e), "{}", e.name());
        }
        assert_eq!(all.iter().filter(|e| e.jump().is_some()).count(), 12);
    }

    /// `EventKind`'s written-out `clone` and `==` are the derived ones: each sample equals
    /// its clone and no other sample (each kind once, so also no other kind).
    #[test]
    fn a_kind_equals_its_clone_and_no_other_kind() {
        let all = samples::every_event();
        for (i, a) in all.iter().enumerate() {
            for (j, b) in all.iter().enumerate() {
                assert_eq!(a == b, i == j, "{} and {}", a.name(), b.name());
            }
            assert_eq!(&a.clone(), a);
            assert_eq!(format!("{:?}", a.clone()), format!("{a:?}"));
        }
        // The same kind with another field differs.
        let crashed = |broker| EventKind::Cluster(ClusterEvent::BrokerCrashed { broker });
        assert_ne!(crashed(1), crashed(2));
    }

    /// `docs/cli.md`'s tables of trace events list every event's `type` (as the trace writes
    /// it), and no other.
    #[test]
    fn the_cli_doc_lists_every_event() {
        let types: Vec<String> = samples::every_event()
            .iter()
            .map(|e| {
                let text = crate::json::write_json(e, false);
                let tag = text.strip_prefix("{\"type\":\"").unwrap_or_else(|| panic!("{text}"));
                tag[..tag.find('"').unwrap()].to_string()
            })
            .collect();
        crate::tagged::tests::check_documented("cli.md", "| `type` | Fields |", types.iter().map(String::as_str));
    }

    #[test]
    fn ring_keeps_the_newest_and_counts_all() {
        let mut t = Trace::new(2);
        for g in ["a", "b", "c"] {
            t.push(SimTime(1), EventKind::Group(GroupEvent::GroupCreated { group: g.into() }));
        }
        assert_eq!(t.total(), 3);
        let seqs: Vec<u64> = t.events().map(|e| e.seq).collect();
        assert_eq!(seqs, vec![1, 2]);
        assert_eq!(t.since(2).count(), 1);
        assert_eq!(t.since(0).count(), 2);
    }

    /// The chunked ring keeps exactly the newest `capacity` events, at every size and
    /// across chunk boundaries, and a clone shares its sealed chunks but never sees what is
    /// pushed to the original afterwards.
    #[test]
    fn chunked_ring_is_a_ring_of_the_newest_events() {
        for capacity in [1, 2, 5, CHUNK - 1, CHUNK, CHUNK + 1, 3 * CHUNK + 7] {
            let mut t = Trace::new(capacity);
            let mut model: VecDeque<u64> = VecDeque::new();
            let mut clone_at = None;
            for n in 0..(4 * CHUNK as u64 + 50) {
                let e = t.push(SimTime(n), EventKind::Cluster(ClusterEvent::BrokerCrashed { broker: n as u32 }));
                assert_eq!(e.seq, n);
                if model.len() == capacity {
                    model.pop_front();
                }
                model.push_back(n);
                let seqs: Vec<u64> = t.events().map(|e| e.seq).collect();
                assert_eq!(seqs, Vec::from(model.clone()), "capacity {capacity} after {n}");
                assert_eq!(t.events().len(), model.len());
                assert_eq!(t.events().rev().map(|e| e.seq).collect::<Vec<_>>(), model.iter().rev().copied().collect::<Vec<_>>());
                let from = n.saturating_sub(3);
                assert_eq!(
                    t.since(from).map(|e| e.seq).collect::<Vec<_>>(),
                    model.iter().copied().filter(|s| *s >= from).collect::<Vec<_>>()
                );
                assert_eq!(t.dropped(), n + 1 - model.len() as u64);
                if n == 2 * CHUNK as u64 + 3 {
                    clone_at = Some((t.clone(), model.clone()));
                }
            }
            let (c, m) = clone_at.expect("cloned");
            assert_eq!(c.events().map(|e| e.seq).collect::<Vec<_>>(), Vec::from(m));
            assert_ne!(c, t);
        }
    }

    /// Trimming keeps the newest events exactly, across chunk boundaries, and the count and
    /// digest; pushing on afterwards grows the ring again up to its capacity.
    #[test]
    fn keep_newest_keeps_a_suffix_and_the_digest() {
        for n in [1, 3, CHUNK - 1, CHUNK, CHUNK + 5, 2 * CHUNK + 1, 10_000] {
            let mut t = Trace::new(4 * CHUNK);
            for i in 0..(3 * CHUNK as u64 + 17) {
                t.push(SimTime(i), EventKind::Cluster(ClusterEvent::BrokerCrashed { broker: i as u32 }));
            }
            let (total, digest) = (t.total(), t.digest());
            let all: Vec<u64> = t.events().map(|e| e.seq).collect();
            t.keep_newest(n);
            let kept: Vec<u64> = t.events().map(|e| e.seq).collect();
            assert_eq!(kept, all[all.len().saturating_sub(n)..].to_vec(), "n = {n}");
            assert_eq!((t.total(), t.digest(), t.dropped()), (total, digest, total - kept.len() as u64));
            for i in 0..(5 * CHUNK as u64) {
                t.push(SimTime(i), EventKind::Cluster(ClusterEvent::BrokerCrashed { broker: 0 }));
            }
            assert_eq!(t.events().len(), 4 * CHUNK);
            assert_eq!(t.events().next_back().map(|e| e.seq), Some(t.total() - 1));
        }
    }

    #[test]
    fn digest_depends_on_every_event() {
        let mut a = Trace::new(1);
        let mut b = Trace::new(1);
        a.push(SimTime(1), EventKind::Group(GroupEvent::GroupCreated { group: "x".into() }));
        b.push(SimTime(2), EventKind::Group(GroupEvent::GroupCreated { group: "x".into() }));
        assert_ne!(a.digest(), b.digest());
    }

    /// Each feature's events keep the trace's one JSON shape (`{"seq", "time", "type", …}`,
    /// no wrapper for the feature), and a trace line reads back as the same event.
    #[test]
    fn an_event_is_written_and_read_as_one_flat_object() {
        let events = [
            EventKind::Cluster(ClusterEvent::BrokerCrashed { broker: 2 }),
            EventKind::Group(GroupEvent::GroupCreated { group: "g".into() }),
            EventKind::Settings(SettingsEvent::CommandRejected { reason: "no".into() }),
            EventKind::Streams(StreamsEvent::StateStoreRestored {
                application_id: "app".into(),
                client_id: "c".into(),
                store: "counts".into(),
                partition: 1,
                records: 3,
                keys: 2,
            }),
        ];
        let written: Vec<String> = events
            .iter()
            .enumerate()
            .map(|(seq, kind)| {
                let e = Event { seq: seq as u64, time: SimTime(5), kind: kind.clone() };
                let text = serde_json::to_string(&e).unwrap();
                let back: Event = serde_json::from_str(&text).unwrap();
                assert_eq!(back, e, "{text}");
                text
            })
            .collect();
        assert_eq!(written[0], r#"{"seq":0,"time":5,"type":"broker_crashed","broker":2}"#);
        assert_eq!(written[1], r#"{"seq":1,"time":5,"type":"group_created","group":"g"}"#);
        assert_eq!(written[2], r#"{"seq":2,"time":5,"type":"command_rejected","reason":"no"}"#);
        assert!(written[3].starts_with(r#"{"seq":3,"time":5,"type":"state_store_restored","application_id":"app""#));
    }

    /// What the digest hashes first for a kind is its place in the one flat list the trace
    /// had before the kinds moved to their features (0 … 64), so every golden digest holds.
    #[test]
    fn a_kind_hashes_its_old_flat_place() {
        let place = |k: EventKind| Some(place(k));
        assert_eq!(
            place(EventKind::Produce(ProduceEvent::BatchSent { producer: "p".into(), topic: "t".into(), partition: 0, records: vec![] })),
            Some(1)
        );
        assert_eq!(place(EventKind::Cluster(ClusterEvent::BrokerCrashed { broker: 1 })), Some(6));
        assert_eq!(place(EventKind::Cluster(ClusterEvent::PartitionsAdded { topic: "t".into(), partitions: 2 })), Some(20));
        assert_eq!(
            place(EventKind::Settings(SettingsEvent::ConfigChanged { entity: "t".into(), setting: "s".into(), value: "v".into() })),
            Some(22)
        );
        assert_eq!(
            place(EventKind::Replication(ReplicationEvent::HighWatermarkAdvanced { topic: "t".into(), partition: 0, high_watermark: 1 })),
            Some(17)
        );
        assert_eq!(
            place(EventKind::Push(PushEvent::PushOverwhelmed { group: "g".into(), client_id: "c".into(), buffered: 1, limit: 1 })),
            Some(57)
        );
        assert_eq!(
            place(EventKind::Streams(StreamsEvent::StateStoreRestored {
                application_id: "a".into(),
                client_id: "c".into(),
                store: "s".into(),
                partition: 0,
                records: 0,
                keys: 0
            })),
            Some(64)
        );
    }
}
