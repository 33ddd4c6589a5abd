//! The trace: typed events that tests, the command-line tool and the page read.

use crate::config::Acks;
use crate::record::BrokerId;
use crate::record::{RecordId, TopicPartition};
use crate::time::SimTime;
use serde::{Deserialize, Serialize};
use std::collections::VecDeque;
use std::hash::{Hash, Hasher};

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
    MemberJoined {
        client_id: String,
    },
    MemberLeft {
        client_id: String,
    },
    AssignorChanged,
    /// A known member sent JoinGroup again (say, after its cooperative revocation).
    MemberRejoined {
        client_id: String,
    },
    /// KIP-848: a subscribed topic's partition count changed (the coordinator notices).
    TopicMetadataChanged {
        topic: String,
    },
    /// A member subscribed to other topics.
    SubscriptionChanged {
        client_id: String,
    },
}

/// Something that happened, with what it touched.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum EventKind {
    /// `send()` chose a partition and put the record into the producer's batch.
    RecordSent {
        record: RecordId,
        producer: String,
        topic: String,
        partition: u32,
        key: Option<String>,
        value: String,
        reason: PartitionReason,
    },
    /// A batch left the producer in a Produce request.
    BatchSent {
        producer: String,
        topic: String,
        partition: u32,
        records: Vec<RecordId>,
    },
    /// The leader appended a record.
    RecordAppended {
        record: RecordId,
        value: String,
        topic: String,
        partition: u32,
        offset: u64,
        timestamp: SimTime,
        broker: BrokerId,
        leader_epoch: u32,
    },
    /// The producer got `RecordMetadata` back (offset is -1 under acks=0, as in Kafka).
    RecordAcked {
        record: RecordId,
        value: String,
        producer: String,
        topic: String,
        partition: u32,
        offset: i64,
        timestamp: SimTime,
        acks: Acks,
    },
    /// A Produce request failed; the producer retries unless `retrying` is false, in
    /// which case the records are given up (the send's callback gets the error).
    ProduceFailed {
        producer: String,
        topic: String,
        partition: u32,
        records: Vec<RecordId>,
        error: ProduceError,
        retrying: bool,
    },
    /// The leader recognised a retried batch it already has (idempotent producer) and
    /// answered with the original offsets instead of appending it again.
    DuplicateIgnored {
        producer: String,
        topic: String,
        partition: u32,
        records: Vec<RecordId>,
    },
    BrokerCrashed {
        broker: BrokerId,
    },
    BrokerRestarted {
        broker: BrokerId,
    },
    /// Cut off the network (from the other brokers, the controller and every client).
    BrokerIsolated {
        broker: BrokerId,
    },
    BrokerHealed {
        broker: BrokerId,
    },
    /// Its replica fetches now take `slow_ms` longer.
    BrokerSlowed {
        broker: BrokerId,
        slow_ms: u64,
    },
    /// The controller stopped hearing from the broker for `broker.session.timeout.ms`.
    BrokerFenced {
        broker: BrokerId,
    },
    /// The broker registered (again) with the controller.
    BrokerUnfenced {
        broker: BrokerId,
    },
    /// A new leader and epoch; `leader: None` means the partition is offline.
    LeaderElected {
        topic: String,
        partition: u32,
        leader: Option<BrokerId>,
        epoch: u32,
        isr: Vec<BrokerId>,
        unclean: bool,
    },
    IsrShrunk {
        topic: String,
        partition: u32,
        removed: BrokerId,
        isr: Vec<BrokerId>,
    },
    IsrExpanded {
        topic: String,
        partition: u32,
        added: BrokerId,
        isr: Vec<BrokerId>,
    },
    /// A follower copied records from the leader.
    ReplicaFetched {
        topic: String,
        partition: u32,
        follower: BrokerId,
        records: Vec<RecordId>,
        log_end_offset: u64,
    },
    /// The leader's HW moved: records below it are committed and visible to consumers.
    HighWatermarkAdvanced {
        topic: String,
        partition: u32,
        high_watermark: u64,
    },
    /// A replica removed records past the point where its log diverged from the leader's.
    RecordsTruncated {
        topic: String,
        partition: u32,
        broker: BrokerId,
        from_offset: u64,
        records: Vec<RecordId>,
    },
    /// A leader change left these records behind: the new leader never had them.
    RecordsLost {
        topic: String,
        partition: u32,
        records: Vec<LostRecord>,
        cause: LossCause,
    },
    /// A topic grew: `partitions` is the new count.
    PartitionsAdded {
        topic: String,
        partitions: u32,
    },
    /// The group leader's metadata refresh noticed a subscribed topic grew; it rejoins.
    MetadataChangeNoticed {
        group: String,
        client_id: String,
        topic: String,
    },
    /// A setting changed at run time.
    ConfigChanged {
        entity: String,
        setting: String,
        value: String,
    },
    GroupCreated {
        group: String,
    },
    MemberJoined {
        group: String,
        client_id: String,
        member_id: String,
    },
    /// The coordinator removed a member.
    MemberLeft {
        group: String,
        client_id: String,
        member_id: String,
        reason: LeaveReason,
    },
    /// A consumer sends JoinGroup (`member_id` empty on its very first join).
    JoinGroupSent {
        group: String,
        client_id: String,
        member_id: String,
        generation: i32,
    },
    /// KIP-394: the coordinator hands a new member its id and asks it to join again.
    MemberIdRequired {
        group: String,
        client_id: String,
        member_id: String,
    },
    /// A static member (`group.instance.id`) came back within the session timeout and
    /// took its old place without a rebalance (KIP-345).
    StaticMemberReplaced {
        group: String,
        client_id: String,
        old_member_id: String,
        member_id: String,
    },
    /// A heartbeat answered REBALANCE_IN_PROGRESS: the member must rejoin.
    RebalanceNoticed {
        group: String,
        client_id: String,
    },
    /// The member stops consuming these partitions (before rejoining, or after the
    /// cooperative assignment moved them away).
    PartitionsRevoked {
        group: String,
        client_id: String,
        partitions: Vec<TopicPartition>,
    },
    /// Every member has rejoined (or timed out): a new generation, its leader and members.
    JoinPhaseCompleted {
        group: String,
        generation: i32,
        leader: String,
        members: Vec<String>,
        assignor: String,
    },
    /// A consumer sends SyncGroup; the leader's carries the assignment it computed.
    SyncGroupSent {
        group: String,
        client_id: String,
        generation: i32,
        leader: bool,
    },
    /// An offset commit the coordinator refused (CommitFailedException for commitSync).
    CommitFailed {
        group: String,
        client_id: String,
        error: GroupError,
        offsets: Vec<(TopicPartition, u64)>,
    },
    /// The application finished processing a record; `duplicate` if the group had
    /// already processed it.
    RecordProcessed {
        group: String,
        client_id: String,
        record: RecordId,
        tp: TopicPartition,
        offset: u64,
        value: String,
        duplicate: bool,
    },
    MemberCrashed {
        group: String,
        client_id: String,
    },
    MemberRestarted {
        group: String,
        client_id: String,
    },
    /// The application stopped (or resumed) calling `poll()`.
    MemberPaused {
        group: String,
        client_id: String,
        paused: bool,
    },
    /// Everyone stops consuming and gives its partitions up (eager protocol).
    RebalanceStarted {
        group: String,
        cause: RebalanceCause,
    },
    /// The assignor's result for one member in a new generation.
    PartitionsAssigned {
        group: String,
        generation: i32,
        client_id: String,
        partitions: Vec<TopicPartition>,
    },
    /// The group has a new generation and every member knows its partitions.
    GroupStable {
        group: String,
        generation: i32,
    },
    /// Where a member starts reading a partition it was given.
    PositionSet {
        group: String,
        client_id: String,
        tp: TopicPartition,
        offset: u64,
        from: StartFrom,
    },
    /// `poll()` returned this record to the application.
    RecordDelivered {
        group: String,
        client_id: String,
        record: RecordId,
        tp: TopicPartition,
        offset: u64,
        value: String,
        /// The leader's HW when the record was read (it must be above `offset`).
        high_watermark: u64,
    },
    /// The member's position was outside the log (OFFSET_OUT_OF_RANGE): it was reset
    /// per `auto.offset.reset`.
    PositionReset {
        group: String,
        client_id: String,
        tp: TopicPartition,
        from: u64,
        to: u64,
    },
    /// A timeline command or a send that could not be carried out, and why.
    CommandRejected {
        reason: String,
    },
    /// An offset commit (committed offset = next offset to read).
    OffsetsCommitted {
        group: String,
        client_id: String,
        offsets: Vec<(TopicPartition, u64)>,
    },
    /// Retention deleted whole segments of one replica's log, oldest first; records below
    /// the new log start offset can no longer be read (consuming deletes nothing).
    SegmentsDeleted {
        topic: String,
        partition: u32,
        broker: BrokerId,
        reason: SegmentDeletionReason,
        /// The deleted segments' base offsets.
        base_offsets: Vec<u64>,
        /// Their size in bytes, together.
        bytes: u64,
        records: Vec<RecordId>,
        /// The log start offset afterwards.
        log_start_offset: u64,
    },
    /// KIP-848: a consumer sent ConsumerGroupHeartbeat outside its steady rhythm — to join
    /// (epoch 0), to acknowledge a reconciled assignment (its owned partitions), or to
    /// leave (epoch -1, or -2 for a static member).
    ConsumerHeartbeatSent {
        group: String,
        client_id: String,
        member_epoch: i32,
        owned: Vec<TopicPartition>,
    },
    /// KIP-848: the group epoch went up (a member joined or left, metadata changed); the
    /// coordinator computes a new target assignment with its broker-side assignor.
    GroupEpochBumped {
        group: String,
        epoch: i32,
        cause: RebalanceCause,
    },
    /// KIP-848: the new target assignment, per member (client ids).
    TargetAssignmentComputed {
        group: String,
        epoch: i32,
        assignor: String,
        target: Vec<(String, Vec<TopicPartition>)>,
    },
    /// KIP-848: the consumer hit an error it cannot recover from and stopped.
    ConsumerFailed {
        group: String,
        client_id: String,
        error: GroupError,
    },
    /// The application called `seek()`: the member reads the partition from `to` next.
    Seeked {
        group: String,
        client_id: String,
        tp: TopicPartition,
        from: u64,
        to: u64,
        how: crate::command::SeekTo,
    },
    /// The application called `subscribe()` with other topics.
    Subscribed {
        group: String,
        client_id: String,
        topics: Vec<String>,
    },
    /// KIP-848: the member applied the assignment a heartbeat brought (epoch `epoch`):
    /// it now owns `partitions` (what it gave up is in `PartitionsRevoked` before).
    AssignmentReconciled {
        group: String,
        client_id: String,
        epoch: i32,
        partitions: Vec<TopicPartition>,
    },
    /// KIP-848: every member has reached the target assignment of `epoch`.
    ConsumerGroupStable {
        group: String,
        epoch: i32,
    },
    /// KIP-848: the coordinator moved a member forward: it must revoke `revoking` first
    /// (epoch unchanged), or it reached `epoch`, still waiting for `unreleased` partitions
    /// other members have not given up yet.
    MemberReconciling {
        group: String,
        client_id: String,
        epoch: i32,
        revoking: Vec<TopicPartition>,
        unreleased: Vec<TopicPartition>,
    },
    /// Push (not Kafka — a teaching device): the broker pushed `count` newly committed
    /// records of `tp` to the member without being asked; `buffered` = what the member now
    /// holds received but not processed.
    RecordsPushed {
        group: String,
        client_id: String,
        tp: TopicPartition,
        count: u32,
        buffered: u32,
    },
    /// Push (not Kafka — a teaching device): the member's buffer went past
    /// `push_buffer_max_records`: it runs out of memory and crashes, losing its buffer.
    PushOverwhelmed {
        group: String,
        client_id: String,
        buffered: u32,
        limit: u32,
    },
    /// A source connector's table changed: a row was inserted or updated (its timestamp
    /// column is now).
    TableRowChanged {
        connector: String,
        id: u64,
        value: String,
        insert: bool,
    },
    /// The connector's task polled its table (`SourceTask.poll()`): each row (id) became
    /// a record (key = id) sent through its producer; `position` = the task's offset now.
    SourceRecordsPolled {
        connector: String,
        rows: Vec<(u64, RecordId)>,
        position: Option<SourceOffset>,
    },
    /// The task's acknowledged source offsets were flushed to the offsets store
    /// (`OffsetStorageWriter`): a restarted task resumes after `offset`.
    SourceOffsetsFlushed {
        connector: String,
        offset: SourceOffset,
        records: u32,
    },
    /// The connector's task crashed: `unflushed` records were sent after the last flush
    /// and will be sent again by the next task, which resumes after `committed`.
    ConnectorTaskCrashed {
        connector: String,
        unflushed: u32,
        committed: Option<SourceOffset>,
    },
    /// A new task started, reading its offset from the offsets store.
    ConnectorTaskRestarted {
        connector: String,
        resume_after: Option<SourceOffset>,
    },
    /// A Kafka Streams instance ran its operator on a record it consumed; `output` =
    /// the (key, value) it sent to the sink (none when a filter dropped it).
    StreamsRecordProcessed {
        application_id: String,
        client_id: String,
        tp: TopicPartition,
        offset: u64,
        output: Option<(Option<String>, String)>,
    },
    /// A Streams task's state store was rebuilt from its changelog partition before the
    /// instance processed the task's next record: `records` read, `keys` now in the store.
    StateStoreRestored {
        application_id: String,
        client_id: String,
        store: String,
        partition: u32,
        records: u32,
        keys: u32,
    },
}

impl EventKind {
    /// The kind's name, as in the code (for filters; cheaper than `Debug`).
    pub fn name(&self) -> &'static str {
        match self {
            EventKind::RecordSent { .. } => "RecordSent",
            EventKind::BatchSent { .. } => "BatchSent",
            EventKind::RecordAppended { .. } => "RecordAppended",
            EventKind::RecordAcked { .. } => "RecordAcked",
            EventKind::ProduceFailed { .. } => "ProduceFailed",
            EventKind::DuplicateIgnored { .. } => "DuplicateIgnored",
            EventKind::BrokerCrashed { .. } => "BrokerCrashed",
            EventKind::BrokerRestarted { .. } => "BrokerRestarted",
            EventKind::BrokerIsolated { .. } => "BrokerIsolated",
            EventKind::BrokerHealed { .. } => "BrokerHealed",
            EventKind::BrokerSlowed { .. } => "BrokerSlowed",
            EventKind::BrokerFenced { .. } => "BrokerFenced",
            EventKind::BrokerUnfenced { .. } => "BrokerUnfenced",
            EventKind::LeaderElected { .. } => "LeaderElected",
            EventKind::IsrShrunk { .. } => "IsrShrunk",
            EventKind::IsrExpanded { .. } => "IsrExpanded",
            EventKind::ReplicaFetched { .. } => "ReplicaFetched",
            EventKind::HighWatermarkAdvanced { .. } => "HighWatermarkAdvanced",
            EventKind::RecordsTruncated { .. } => "RecordsTruncated",
            EventKind::RecordsLost { .. } => "RecordsLost",
            EventKind::PartitionsAdded { .. } => "PartitionsAdded",
            EventKind::MetadataChangeNoticed { .. } => "MetadataChangeNoticed",
            EventKind::ConfigChanged { .. } => "ConfigChanged",
            EventKind::GroupCreated { .. } => "GroupCreated",
            EventKind::MemberJoined { .. } => "MemberJoined",
            EventKind::MemberLeft { .. } => "MemberLeft",
            EventKind::JoinGroupSent { .. } => "JoinGroupSent",
            EventKind::MemberIdRequired { .. } => "MemberIdRequired",
            EventKind::StaticMemberReplaced { .. } => "StaticMemberReplaced",
            EventKind::RebalanceNoticed { .. } => "RebalanceNoticed",
            EventKind::PartitionsRevoked { .. } => "PartitionsRevoked",
            EventKind::JoinPhaseCompleted { .. } => "JoinPhaseCompleted",
            EventKind::SyncGroupSent { .. } => "SyncGroupSent",
            EventKind::CommitFailed { .. } => "CommitFailed",
            EventKind::RecordProcessed { .. } => "RecordProcessed",
            EventKind::MemberCrashed { .. } => "MemberCrashed",
            EventKind::MemberRestarted { .. } => "MemberRestarted",
            EventKind::MemberPaused { .. } => "MemberPaused",
            EventKind::RebalanceStarted { .. } => "RebalanceStarted",
            EventKind::PartitionsAssigned { .. } => "PartitionsAssigned",
            EventKind::GroupStable { .. } => "GroupStable",
            EventKind::PositionSet { .. } => "PositionSet",
            EventKind::RecordDelivered { .. } => "RecordDelivered",
            EventKind::PositionReset { .. } => "PositionReset",
            EventKind::CommandRejected { .. } => "CommandRejected",
            EventKind::OffsetsCommitted { .. } => "OffsetsCommitted",
            EventKind::SegmentsDeleted { .. } => "SegmentsDeleted",
            EventKind::ConsumerHeartbeatSent { .. } => "ConsumerHeartbeatSent",
            EventKind::GroupEpochBumped { .. } => "GroupEpochBumped",
            EventKind::TargetAssignmentComputed { .. } => "TargetAssignmentComputed",
            EventKind::ConsumerFailed { .. } => "ConsumerFailed",
            EventKind::Seeked { .. } => "Seeked",
            EventKind::Subscribed { .. } => "Subscribed",
            EventKind::AssignmentReconciled { .. } => "AssignmentReconciled",
            EventKind::ConsumerGroupStable { .. } => "ConsumerGroupStable",
            EventKind::MemberReconciling { .. } => "MemberReconciling",
            EventKind::RecordsPushed { .. } => "RecordsPushed",
            EventKind::PushOverwhelmed { .. } => "PushOverwhelmed",
            EventKind::TableRowChanged { .. } => "TableRowChanged",
            EventKind::SourceRecordsPolled { .. } => "SourceRecordsPolled",
            EventKind::SourceOffsetsFlushed { .. } => "SourceOffsetsFlushed",
            EventKind::ConnectorTaskCrashed { .. } => "ConnectorTaskCrashed",
            EventKind::ConnectorTaskRestarted { .. } => "ConnectorTaskRestarted",
            EventKind::StreamsRecordProcessed { .. } => "StreamsRecordProcessed",
            EventKind::StateStoreRestored { .. } => "StateStoreRestored",
        }
    }
}

/// Why a record went to the partition it went to (shown to the learner).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum PartitionReason {
    /// The record named its partition.
    Explicit,
    /// `toPositive(murmur2(keyBytes)) % numPartitions`; `murmur2` is the raw hash.
    KeyHash { murmur2: i32 },
    /// A keyless record went to the current sticky partition (KIP-794).
    Sticky,
    /// `RoundRobinPartitioner`: the counter value this record consumed.
    RoundRobin { counter: u32 },
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
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub timestamp_ms: Option<u64>,
    pub incrementing: u64,
}

/// Who or what an event involves, as data: the page outlines them when the event is
/// selected, lessons wait for events that involve them. Named by the scenario's own names.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Subject<'a> {
    Broker(BrokerId),
    Producer(&'a str),
    Topic(&'a str),
    Partition {
        topic: &'a str,
        partition: u32,
    },
    Record(RecordId),
    Group(&'a str),
    /// A consumer, by its group and client id (a Streams instance: its application id
    /// and client id).
    Member {
        group: &'a str,
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

impl EventKind {
    /// Who and what the event involves (exhaustive: a new event must say).
    pub fn subjects(&self) -> Vec<Subject<'_>> {
        use EventKind as E;
        use Subject as S;
        fn part(topic: &str, partition: u32) -> Subject<'_> {
            Subject::Partition { topic, partition }
        }
        fn member<'a>(group: &'a str, client_id: &'a str) -> Subject<'a> {
            Subject::Member { group, client_id }
        }
        match self {
            E::RecordSent { record, producer, topic, partition, .. } => {
                vec![S::Producer(producer), part(topic, *partition), S::Record(*record)]
            }
            E::BatchSent { producer, topic, partition, records } | E::DuplicateIgnored { producer, topic, partition, records } => {
                let mut out = vec![S::Producer(producer), part(topic, *partition)];
                out.extend(records.iter().map(|r| S::Record(*r)));
                out
            }
            E::RecordAppended { record, topic, partition, broker, .. } => {
                vec![S::Broker(*broker), part(topic, *partition), S::Record(*record)]
            }
            E::RecordAcked { record, producer, topic, partition, .. } => {
                vec![S::Producer(producer), part(topic, *partition), S::Record(*record)]
            }
            E::ProduceFailed { producer, topic, partition, records, .. } => {
                let mut out = vec![S::Producer(producer), part(topic, *partition)];
                out.extend(records.iter().map(|r| S::Record(*r)));
                out
            }
            E::BrokerCrashed { broker }
            | E::BrokerRestarted { broker }
            | E::BrokerIsolated { broker }
            | E::BrokerHealed { broker }
            | E::BrokerSlowed { broker, .. }
            | E::BrokerFenced { broker }
            | E::BrokerUnfenced { broker } => vec![S::Broker(*broker)],
            E::LeaderElected { topic, partition, leader, .. } => {
                let mut out = vec![part(topic, *partition)];
                out.extend(leader.map(S::Broker));
                out
            }
            E::IsrShrunk { topic, partition, removed: broker, .. }
            | E::IsrExpanded { topic, partition, added: broker, .. }
            | E::RecordsTruncated { topic, partition, broker, .. }
            | E::SegmentsDeleted { topic, partition, broker, .. } => vec![S::Broker(*broker), part(topic, *partition)],
            E::ReplicaFetched { topic, partition, follower, records, .. } => {
                let mut out = vec![S::Broker(*follower), part(topic, *partition)];
                out.extend(records.iter().map(|r| S::Record(*r)));
                out
            }
            E::HighWatermarkAdvanced { topic, partition, .. } => vec![part(topic, *partition)],
            E::RecordsLost { topic, partition, records, .. } => {
                let mut out = vec![part(topic, *partition)];
                out.extend(records.iter().map(|r| S::Record(r.record)));
                out
            }
            E::PartitionsAdded { topic, .. } => vec![S::Topic(topic)],
            E::MetadataChangeNoticed { group, client_id, topic } => vec![member(group, client_id), S::Topic(topic)],
            // Run-time settings: `acks` is a producer's, the others a topic's.
            E::ConfigChanged { entity, setting, .. } => {
                vec![if setting == "acks" { S::Producer(entity) } else { S::Topic(entity) }]
            }
            E::GroupCreated { group } | E::GroupStable { group, .. } | E::ConsumerGroupStable { group, .. } => vec![S::Group(group)],
            E::MemberJoined { group, client_id, .. }
            | E::MemberLeft { group, client_id, .. }
            | E::JoinGroupSent { group, client_id, .. }
            | E::MemberIdRequired { group, client_id, .. }
            | E::StaticMemberReplaced { group, client_id, .. }
            | E::RebalanceNoticed { group, client_id }
            | E::PartitionsRevoked { group, client_id, .. }
            | E::SyncGroupSent { group, client_id, .. }
            | E::CommitFailed { group, client_id, .. }
            | E::MemberCrashed { group, client_id }
            | E::MemberRestarted { group, client_id }
            | E::MemberPaused { group, client_id, .. }
            | E::PartitionsAssigned { group, client_id, .. }
            | E::OffsetsCommitted { group, client_id, .. }
            | E::ConsumerHeartbeatSent { group, client_id, .. }
            | E::ConsumerFailed { group, client_id, .. }
            | E::Subscribed { group, client_id, .. }
            | E::AssignmentReconciled { group, client_id, .. }
            | E::MemberReconciling { group, client_id, .. }
            | E::PushOverwhelmed { group, client_id, .. } => vec![S::Group(group), member(group, client_id)],
            E::PositionSet { group, client_id, tp, .. }
            | E::PositionReset { group, client_id, tp, .. }
            | E::Seeked { group, client_id, tp, .. }
            | E::RecordsPushed { group, client_id, tp, .. } => {
                vec![S::Group(group), member(group, client_id), part(&tp.topic, tp.partition)]
            }
            E::RecordProcessed { group, client_id, record, tp, .. } | E::RecordDelivered { group, client_id, record, tp, .. } => {
                vec![S::Group(group), member(group, client_id), part(&tp.topic, tp.partition), S::Record(*record)]
            }
            E::JoinPhaseCompleted { group, members, .. } => {
                let mut out = vec![S::Group(group)];
                out.extend(members.iter().map(|c| member(group, c)));
                out
            }
            E::TargetAssignmentComputed { group, target, .. } => {
                let mut out = vec![S::Group(group)];
                out.extend(target.iter().map(|(c, _)| member(group, c)));
                out
            }
            E::RebalanceStarted { group, cause } | E::GroupEpochBumped { group, cause, .. } => {
                let mut out = vec![S::Group(group)];
                match cause {
                    RebalanceCause::MemberJoined { client_id }
                    | RebalanceCause::MemberLeft { client_id }
                    | RebalanceCause::MemberRejoined { client_id }
                    | RebalanceCause::SubscriptionChanged { client_id } => out.push(member(group, client_id)),
                    RebalanceCause::TopicMetadataChanged { topic } => out.push(S::Topic(topic)),
                    RebalanceCause::AssignorChanged => {}
                }
                out
            }
            E::CommandRejected { .. } => Vec::new(),
            E::TableRowChanged { connector, .. }
            | E::SourceOffsetsFlushed { connector, .. }
            | E::ConnectorTaskCrashed { connector, .. }
            | E::ConnectorTaskRestarted { connector, .. } => vec![S::Connector(connector)],
            E::SourceRecordsPolled { connector, rows, .. } => {
                let mut out = vec![S::Connector(connector)];
                out.extend(rows.iter().map(|(_, r)| S::Record(*r)));
                out
            }
            E::StreamsRecordProcessed { application_id, client_id, tp, .. } => {
                vec![S::StreamsApp(application_id), member(application_id, client_id), part(&tp.topic, tp.partition)]
            }
            E::StateStoreRestored { application_id, client_id, .. } => {
                vec![S::StreamsApp(application_id), member(application_id, client_id)]
            }
        }
    }

    /// The part of Kafka the event belongs to (exhaustive: a new event must say).
    pub fn category(&self) -> Category {
        use EventKind as E;
        match self {
            E::RecordSent { .. }
            | E::BatchSent { .. }
            | E::RecordAppended { .. }
            | E::RecordAcked { .. }
            | E::ProduceFailed { .. }
            | E::DuplicateIgnored { .. }
            | E::TableRowChanged { .. }
            | E::SourceRecordsPolled { .. }
            | E::SourceOffsetsFlushed { .. }
            | E::ConnectorTaskRestarted { .. } => Category::Produce,
            E::BrokerCrashed { .. }
            | E::BrokerRestarted { .. }
            | E::BrokerIsolated { .. }
            | E::BrokerHealed { .. }
            | E::BrokerSlowed { .. }
            | E::BrokerFenced { .. }
            | E::BrokerUnfenced { .. }
            | E::RecordsLost { .. }
            | E::MemberCrashed { .. }
            | E::MemberRestarted { .. }
            | E::ConsumerFailed { .. }
            | E::PushOverwhelmed { .. }
            | E::ConnectorTaskCrashed { .. } => Category::Fault,
            E::LeaderElected { .. }
            | E::IsrShrunk { .. }
            | E::IsrExpanded { .. }
            | E::ReplicaFetched { .. }
            | E::HighWatermarkAdvanced { .. }
            | E::RecordsTruncated { .. }
            | E::SegmentsDeleted { .. }
            | E::PartitionsAdded { .. } => Category::Replication,
            E::RecordDelivered { .. }
            | E::RecordProcessed { .. }
            | E::OffsetsCommitted { .. }
            | E::CommitFailed { .. }
            | E::PositionSet { .. }
            | E::PositionReset { .. }
            | E::Seeked { .. }
            | E::RecordsPushed { .. }
            | E::StreamsRecordProcessed { .. }
            | E::StateStoreRestored { .. } => Category::Consume,
            E::ConfigChanged { .. } | E::CommandRejected { .. } => Category::Settings,
            E::MetadataChangeNoticed { .. }
            | E::GroupCreated { .. }
            | E::MemberJoined { .. }
            | E::MemberLeft { .. }
            | E::JoinGroupSent { .. }
            | E::MemberIdRequired { .. }
            | E::StaticMemberReplaced { .. }
            | E::RebalanceNoticed { .. }
            | E::PartitionsRevoked { .. }
            | E::JoinPhaseCompleted { .. }
            | E::SyncGroupSent { .. }
            | E::MemberPaused { .. }
            | E::RebalanceStarted { .. }
            | E::PartitionsAssigned { .. }
            | E::GroupStable { .. }
            | E::ConsumerHeartbeatSent { .. }
            | E::GroupEpochBumped { .. }
            | E::TargetAssignmentComputed { .. }
            | E::Subscribed { .. }
            | E::AssignmentReconciled { .. }
            | E::ConsumerGroupStable { .. }
            | E::MemberReconciling { .. } => Category::Group,
        }
    }
}

impl EventKind {
    /// The words a lesson's `mentions` may give for the event besides its subjects' names
    /// ([`Subject::name`]), as data (exhaustive: a new event must say): record keys and
    /// values, the other names it carries (member ids, assignors, a changed setting and its
    /// value, the topics of its partition lists), and its enum-valued details as the trace
    /// writes them (`NOT_ENOUGH_REPLICAS`, `session_timeout`, `key_hash`). Never a field's
    /// name, a number or the event's own type.
    pub fn details(&self) -> Vec<&str> {
        use EventKind as E;
        fn topics(tps: &[TopicPartition]) -> impl Iterator<Item = &str> {
            tps.iter().map(|tp| tp.topic.as_str())
        }
        fn committed(offsets: &[(TopicPartition, u64)]) -> impl Iterator<Item = &str> {
            offsets.iter().map(|(tp, _)| tp.topic.as_str())
        }
        match self {
            E::RecordSent { key, value, reason, .. } => {
                let mut out = vec![value.as_str(), reason.name()];
                out.extend(key.as_deref());
                out
            }
            E::RecordAppended { value, .. } | E::RecordProcessed { value, .. } | E::RecordDelivered { value, .. } => vec![value],
            E::RecordAcked { value, acks, .. } => vec![value, acks_name(*acks)],
            E::ProduceFailed { error, .. } => vec![error.name()],
            E::BatchSent { .. }
            | E::DuplicateIgnored { .. }
            | E::BrokerCrashed { .. }
            | E::BrokerRestarted { .. }
            | E::BrokerIsolated { .. }
            | E::BrokerHealed { .. }
            | E::BrokerSlowed { .. }
            | E::BrokerFenced { .. }
            | E::BrokerUnfenced { .. }
            | E::LeaderElected { .. }
            | E::IsrShrunk { .. }
            | E::IsrExpanded { .. }
            | E::ReplicaFetched { .. }
            | E::HighWatermarkAdvanced { .. }
            | E::RecordsTruncated { .. }
            | E::PartitionsAdded { .. }
            | E::MetadataChangeNoticed { .. }
            | E::GroupCreated { .. }
            | E::RebalanceNoticed { .. }
            | E::SyncGroupSent { .. }
            | E::MemberCrashed { .. }
            | E::MemberRestarted { .. }
            | E::MemberPaused { .. }
            | E::GroupStable { .. }
            | E::PositionReset { .. }
            | E::ConsumerGroupStable { .. }
            | E::RecordsPushed { .. }
            | E::PushOverwhelmed { .. }
            | E::SourceRecordsPolled { .. }
            | E::SourceOffsetsFlushed { .. }
            | E::ConnectorTaskCrashed { .. }
            | E::ConnectorTaskRestarted { .. } => Vec::new(),
            E::RecordsLost { records, cause, .. } => {
                let mut out: Vec<&str> = records.iter().map(|r| r.value.as_str()).collect();
                out.push(cause.name());
                out
            }
            E::ConfigChanged { setting, value, .. } => vec![setting, value],
            E::MemberJoined { member_id, .. } | E::JoinGroupSent { member_id, .. } | E::MemberIdRequired { member_id, .. } => {
                vec![member_id]
            }
            E::MemberLeft { member_id, reason, .. } => vec![member_id, reason.name()],
            E::StaticMemberReplaced { old_member_id, member_id, .. } => vec![old_member_id, member_id],
            E::PartitionsRevoked { partitions, .. }
            | E::PartitionsAssigned { partitions, .. }
            | E::AssignmentReconciled { partitions, .. } => topics(partitions).collect(),
            E::ConsumerHeartbeatSent { owned, .. } => topics(owned).collect(),
            E::MemberReconciling { revoking, unreleased, .. } => topics(revoking).chain(topics(unreleased)).collect(),
            E::JoinPhaseCompleted { leader, assignor, .. } => vec![leader, assignor],
            E::CommitFailed { error, offsets, .. } => {
                let mut out = vec![error.name()];
                out.extend(committed(offsets));
                out
            }
            E::OffsetsCommitted { offsets, .. } => committed(offsets).collect(),
            E::RebalanceStarted { cause, .. } | E::GroupEpochBumped { cause, .. } => vec![cause.name()],
            E::PositionSet { from, .. } => vec![from.name()],
            // A refusal's sentence is the page's words, not a detail to match.
            E::CommandRejected { .. } => Vec::new(),
            E::SegmentsDeleted { reason, .. } => vec![reason.name()],
            E::TargetAssignmentComputed { assignor, target, .. } => {
                let mut out = vec![assignor.as_str()];
                out.extend(target.iter().flat_map(|(_, tps)| topics(tps)));
                out
            }
            E::ConsumerFailed { error, .. } => vec![error.name()],
            E::Seeked { how, .. } => vec![seek_name(how)],
            E::Subscribed { topics, .. } => topics.iter().map(String::as_str).collect(),
            E::TableRowChanged { value, .. } => vec![value],
            E::StreamsRecordProcessed { output, .. } => match output {
                Some((key, value)) => {
                    let mut out = vec![value.as_str()];
                    out.extend(key.as_deref());
                    out
                }
                None => Vec::new(),
            },
            E::StateStoreRestored { store, .. } => vec![store],
        }
    }

    /// Whether a lesson's mention names the event: one of its subjects' names or one of
    /// its [`details`](Self::details), the whole text.
    pub fn mentions(&self, text: &str) -> bool {
        self.subjects().iter().any(|s| s.name().is_some_and(|n| n == text)) || self.details().contains(&text)
    }
}

/// `acks` as the trace writes it.
fn acks_name(acks: Acks) -> &'static str {
    match acks {
        Acks::None => "0",
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
            GroupError::OffsetOutOfRange => "OFFSET_OUT_OF_RANGE",
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
pub enum GroupError {
    UnknownMemberId,
    IllegalGeneration,
    RebalanceInProgress,
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
}

/// A record a leader change left behind.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct LostRecord {
    pub record: RecordId,
    pub value: String,
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
    pub time: SimTime,
    #[serde(flatten)]
    pub kind: EventKind,
}

/// The trace kept in memory: the newest `capacity` events, plus a digest over all of them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Trace {
    events: VecDeque<Event>,
    capacity: usize,
    total: u64,
    digest: u64,
}

impl Trace {
    pub const DEFAULT_CAPACITY: usize = 50_000;

    pub fn new(capacity: usize) -> Self {
        Self { events: VecDeque::new(), capacity: capacity.max(1), total: 0, digest: FNV_OFFSET }
    }

    pub(crate) fn push(&mut self, time: SimTime, kind: EventKind) -> &Event {
        let event = Event { seq: self.total, time, kind };
        let mut hasher = StableHasher(self.digest);
        event.hash(&mut hasher);
        self.digest = hasher.0;
        if self.events.len() == self.capacity {
            self.events.pop_front();
        }
        self.events.push_back(event);
        self.total += 1;
        let last = self.events.len() - 1;
        &self.events[last]
    }

    /// The kept events, oldest first.
    pub fn events(&self) -> impl DoubleEndedIterator<Item = &Event> + ExactSizeIterator {
        self.events.iter()
    }

    /// Events kept whose `seq` is at least `seq`.
    pub fn since(&self, seq: u64) -> impl Iterator<Item = &Event> {
        let first_kept = self.total - self.events.len() as u64;
        let skip = seq.saturating_sub(first_kept).min(self.events.len() as u64) as usize;
        self.events.iter().skip(skip)
    }

    /// How many events the run has produced (kept or not).
    pub fn total(&self) -> u64 {
        self.total
    }

    /// A 64-bit FNV-1a digest over every event of the run, identical on every platform.
    pub fn digest(&self) -> u64 {
        self.digest
    }
}

const FNV_OFFSET: u64 = 0xcbf2_9ce4_8422_2325;
const FNV_PRIME: u64 = 0x0000_0100_0000_01b3;

/// FNV-1a with `usize` written as 8 bytes, so 32-bit wasm and 64-bit hosts agree.
struct StableHasher(u64);

impl Hasher for StableHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for b in bytes {
            self.0 ^= u64::from(*b);
            self.0 = self.0.wrapping_mul(FNV_PRIME);
        }
    }

    fn write_usize(&mut self, i: usize) {
        self.write(&(i as u64).to_le_bytes());
    }

    fn write_isize(&mut self, i: isize) {
        self.write(&(i as i64).to_le_bytes());
    }

    fn write_u16(&mut self, i: u16) {
        self.write(&i.to_le_bytes());
    }

    fn write_u32(&mut self, i: u32) {
        self.write(&i.to_le_bytes());
    }

    fn write_u64(&mut self, i: u64) {
        self.write(&i.to_le_bytes());
    }

    fn write_i32(&mut self, i: i32) {
        self.write(&i.to_le_bytes());
    }

    fn write_i64(&mut self, i: i64) {
        self.write(&i.to_le_bytes());
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
        ] {
            assert_eq!(write_json(&e, false), quoted(e.name()));
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
        for a in [Acks::None, Acks::Leader, Acks::All] {
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

    #[test]
    fn ring_keeps_the_newest_and_counts_all() {
        let mut t = Trace::new(2);
        for g in ["a", "b", "c"] {
            t.push(SimTime(1), EventKind::GroupCreated { group: g.into() });
        }
        assert_eq!(t.total(), 3);
        let seqs: Vec<u64> = t.events().map(|e| e.seq).collect();
        assert_eq!(seqs, vec![1, 2]);
        assert_eq!(t.since(2).count(), 1);
        assert_eq!(t.since(0).count(), 2);
    }

    #[test]
    fn digest_depends_on_every_event() {
        let mut a = Trace::new(1);
        let mut b = Trace::new(1);
        a.push(SimTime(1), EventKind::GroupCreated { group: "x".into() });
        b.push(SimTime(2), EventKind::GroupCreated { group: "x".into() });
        assert_ne!(a.digest(), b.digest());
    }
}
