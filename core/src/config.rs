//! Settings, under Kafka's own names (units last), with Kafka 4.x defaults.
//!
//! Sources: `ProducerConfig`, `ConsumerConfig`, `GroupCoordinatorConfig` in apache/kafka.
//! Settings that exist only in the sandbox (network latency, processing time) say so.

use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// `acks`: how many replicas must have a record before the producer hears back.
/// Only the reply point differs with one broker; the replication issue gives it teeth.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Acks {
    /// `acks=0`: the producer waits for no answer; the records count as acknowledged,
    /// with offset −1, as soon as their batch is sent.
    #[serde(rename = "0")]
    Zero,
    /// `acks=1`: the leader answers after its own append, before any follower has the
    /// records; they are lost if it fails before a follower copies them.
    #[serde(rename = "1")]
    Leader,
    /// The default since 3.0 (KIP-679).
    #[default]
    #[serde(rename = "all")]
    All,
}

/// Producer settings.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct ProducerConfig {
    /// `partitioner.class`: `built_in` (KafkaProducer's own logic: key hash, else sticky)
    /// or `round_robin` (`RoundRobinPartitioner`).
    pub partitioner: PartitionerKind,
    /// `linger.ms`: 5 from Kafka 4.0 (KIP-1030), 0 before.
    pub linger_ms: u64,
    /// `batch.size`: 16384 bytes.
    pub batch_size: u32,
    /// `acks`: `all` since 3.0 (KIP-679).
    pub acks: Acks,
    /// `enable.idempotence`: on by default since 3.0 (KIP-679). Left unset, it is on only
    /// when the other settings allow it (acks=all, in-flight ≤ 5, retries > 0), as Kafka
    /// quietly turns it off for conflicting settings it was not explicitly asked for.
    pub enable_idempotence: Option<bool>,
    /// `retries` (2147483647 since 2.1): bounded in practice by `delivery.timeout.ms`.
    pub retries: u32,
    /// `retry.backoff.ms` (100): the first wait before a retry.
    pub retry_backoff_ms: u64,
    /// `retry.backoff.max.ms` (1000, KIP-580): the wait doubles per attempt up to this.
    pub retry_backoff_max_ms: u64,
    /// `request.timeout.ms` (30000): how long to wait for a Produce response.
    pub request_timeout_ms: u64,
    /// `delivery.timeout.ms` (120000): how long a record may take, retries included.
    pub delivery_timeout_ms: u64,
    /// `max.in.flight.requests.per.connection` (5).
    pub max_in_flight_requests_per_connection: u32,
    /// `buffer.memory` (33554432 bytes): the `BufferPool` every new batch takes its memory
    /// from (`batch.size`, or the record's size if larger) and gives back once the batch
    /// is done (acknowledged, given up or expired).
    pub buffer_memory: u64,
    /// `max.block.ms` (60000): how long `send()` blocks the application thread waiting for
    /// `buffer.memory` before the send fails with `BufferExhaustedException`
    /// (`BufferPool.allocate`).
    pub max_block_ms: u64,
    /// `transactional.id` (none): a transactional producer (KIP-98). It gets its producer
    /// id and epoch from the transaction coordinator (`initTransactions()`), sends only
    /// inside `beginTransaction()` … `commitTransaction()`/`abortTransaction()`, and fences
    /// any earlier instance with the same id. Needs idempotence (acks=all).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub transactional_id: Option<String>,
    /// `transaction.timeout.ms` (60000): the coordinator aborts a transaction open longer
    /// than this (found by its scan every 10 s), at most `transaction.max.timeout.ms`.
    #[serde(skip_serializing_if = "is_default_transaction_timeout")]
    pub transaction_timeout_ms: u64,
}

/// `transaction.timeout.ms`'s default (`ProducerConfig`).
pub const DEFAULT_TRANSACTION_TIMEOUT_MS: u64 = 60_000;

fn is_default_transaction_timeout(v: &u64) -> bool {
    *v == DEFAULT_TRANSACTION_TIMEOUT_MS
}

impl Default for ProducerConfig {
    fn default() -> Self {
        Self {
            partitioner: PartitionerKind::BuiltIn,
            linger_ms: 5,
            batch_size: 16384,
            acks: Acks::All,
            enable_idempotence: None,
            retries: i32::MAX as u32,
            retry_backoff_ms: 100,
            retry_backoff_max_ms: 1000,
            request_timeout_ms: 30_000,
            delivery_timeout_ms: 120_000,
            max_in_flight_requests_per_connection: 5,
            buffer_memory: 33_554_432,
            max_block_ms: 60_000,
            transactional_id: None,
            transaction_timeout_ms: DEFAULT_TRANSACTION_TIMEOUT_MS,
        }
    }
}

impl ProducerConfig {
    /// Whether it is a transactional producer (`transactional.id` set).
    pub fn transactional(&self) -> bool {
        self.transactional_id.is_some()
    }

    /// Whether the producer is idempotent: explicitly set, or by default when the other
    /// settings allow it (`ProducerConfig.postProcessAndValidateIdempotenceConfigs`).
    pub fn idempotent(&self) -> bool {
        let allowed = self.acks == Acks::All && self.max_in_flight_requests_per_connection <= 5 && self.retries > 0;
        self.enable_idempotence.unwrap_or(allowed) && allowed
    }
}

/// `auto.offset.reset`: where a consumer starts on a partition with no committed offset.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum OffsetReset {
    /// Kafka's default: only records appended after the consumer arrives.
    #[default]
    Latest,
    /// From the log start offset.
    Earliest,
    /// No reset: `poll()` throws `NoOffsetForPartitionException` (no committed offset) or
    /// `OffsetOutOfRangeException` (position outside the log); unhandled, the consumer stops.
    None,
}

/// Consumer settings, per member.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct ConsumerConfig {
    /// `max.poll.records`: at most this many records per `poll()` (500).
    pub max_poll_records: u32,
    /// `fetch.max.wait.ms`: how long the broker holds a fetch with no data (500).
    pub fetch_max_wait_ms: u64,
    /// `auto.commit.interval.ms` (5000).
    pub auto_commit_interval_ms: u64,
    /// Sandbox only: time the application spends on each record before polling again.
    pub processing_ms: u64,
    /// When offsets are committed (`enable.auto.commit` and the application's own commits).
    pub commit_mode: CommitMode,
    /// `heartbeat.interval.ms` (3000).
    pub heartbeat_interval_ms: u64,
    /// `session.timeout.ms` (45000 since 3.0, KIP-735): the coordinator removes a member
    /// it has not heard from for this long.
    pub session_timeout_ms: u64,
    /// `max.poll.interval.ms` (300000): a consumer that does not call `poll()` for this
    /// long leaves the group (KIP-62); it is also the rebalance timeout.
    pub max_poll_interval_ms: u64,
    /// `metadata.max.age.ms` (300000): how often the consumer refreshes metadata; the
    /// group leader rejoins when a subscribed topic's partition count changed.
    pub metadata_max_age_ms: u64,
}

impl Default for ConsumerConfig {
    fn default() -> Self {
        Self {
            max_poll_records: 500,
            fetch_max_wait_ms: 500,
            auto_commit_interval_ms: 5000,
            processing_ms: 10,
            commit_mode: CommitMode::Auto,
            heartbeat_interval_ms: 3000,
            session_timeout_ms: 45_000,
            max_poll_interval_ms: 300_000,
            metadata_max_age_ms: 300_000,
        }
    }
}

/// Group-wide settings. In Kafka each consumer configures these; the sandbox keeps one
/// value per group, which is what a working group has anyway.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct GroupConfig {
    /// `partition.assignment.strategy`. Kafka's default list is [Range, CooperativeSticky],
    /// which selects eager Range.
    pub assignor: Strategy,
    /// `auto.offset.reset` (latest).
    pub auto_offset_reset: OffsetReset,
    /// `group.protocol`: `classic` (the default in 4.x) or `consumer` (KIP-848, GA in 4.0).
    pub group_protocol: GroupProtocol,
    /// `group.remote.assignor` for the consumer protocol: the broker-side assignor
    /// (`uniform`, the first of `group.consumer.assignors`, unless a member names one).
    /// `assignor` (`partition.assignment.strategy`) does not apply to that protocol.
    pub remote_assignor: ServerAssignor,
    /// **Sandbox only — push (not Kafka — a teaching device).** `pull` (Kafka: each
    /// consumer fetches what it asks for, at most `max.poll.records` a poll) or `push`:
    /// the broker sends every newly committed record to the partition's owner at once,
    /// and the member buffers what it cannot process yet (see `sim/group/push.rs`).
    #[serde(skip_serializing_if = "DeliveryMode::is_pull")]
    pub delivery: DeliveryMode,
    /// **Sandbox only**, with `delivery: push`: how many received but unprocessed records
    /// a member can hold (its memory); one more and it crashes out of memory (1000).
    #[serde(skip_serializing_if = "is_default_push_buffer")]
    pub push_buffer_max_records: u32,
    /// `isolation.level` (read_uncommitted): read_committed members read only up to the
    /// last stable offset and never see records of aborted transactions (KIP-98). A
    /// consumer setting in Kafka; one value per group here, as `auto.offset.reset`.
    #[serde(skip_serializing_if = "IsolationLevel::is_read_uncommitted")]
    pub isolation_level: IsolationLevel,
}

/// `isolation.level` (`ConsumerConfig`, `IsolationLevel`): what a consumer may read.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum IsolationLevel {
    /// Kafka's default: everything below the high watermark, aborted transactions'
    /// records included (transaction markers are never returned).
    #[default]
    ReadUncommitted,
    /// Only up to the last stable offset (LSO: the first offset of the earliest open
    /// transaction), and no record of an aborted transaction.
    ReadCommitted,
}

impl IsolationLevel {
    /// Whether it is the default, read_uncommitted (the scenario writer leaves it out).
    pub fn is_read_uncommitted(&self) -> bool {
        *self == IsolationLevel::ReadUncommitted
    }

    /// Kafka's name: `read_committed` or `read_uncommitted`.
    pub fn name(self) -> &'static str {
        match self {
            IsolationLevel::ReadUncommitted => "read_uncommitted",
            IsolationLevel::ReadCommitted => "read_committed",
        }
    }
}

/// A topic's `cleanup.policy` (`TopicConfig.CLEANUP_POLICY_CONFIG`): what happens to old
/// segments. Written as Kafka writes it: `delete`, `compact`, or the list `compact,delete`
/// (`delete,compact` is read too).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum CleanupPolicy {
    /// Kafka's default: segments older than `retention.ms`, or beyond `retention.bytes`,
    /// are deleted whole.
    #[default]
    #[serde(rename = "delete")]
    Delete,
    /// The log cleaner keeps the newest record of each key, forever; a tombstone (a null
    /// value) deletes its key after `delete.retention.ms`. Retention deletes nothing.
    #[serde(rename = "compact")]
    Compact,
    /// Both: compacted, and segments past `retention.ms` / `retention.bytes` deleted too
    /// (Kafka Streams' windowed stores).
    #[serde(rename = "compact,delete", alias = "delete,compact")]
    CompactDelete,
}

impl CleanupPolicy {
    /// Every policy, in the order the page offers them.
    pub const ALL: [CleanupPolicy; 3] = [CleanupPolicy::Delete, CleanupPolicy::Compact, CleanupPolicy::CompactDelete];

    /// Whether the log cleaner compacts the topic (`LogConfig.compact`).
    pub fn compact(self) -> bool {
        matches!(self, CleanupPolicy::Compact | CleanupPolicy::CompactDelete)
    }

    /// Whether retention deletes old segments (`LogConfig.delete`).
    pub fn delete(self) -> bool {
        matches!(self, CleanupPolicy::Delete | CleanupPolicy::CompactDelete)
    }

    /// Kafka's name: `delete`, `compact` or `compact,delete`.
    pub fn name(self) -> &'static str {
        match self {
            CleanupPolicy::Delete => "delete",
            CleanupPolicy::Compact => "compact",
            CleanupPolicy::CompactDelete => "compact,delete",
        }
    }

    /// Whether it is the default, `delete` (the scenario writer leaves it out).
    pub fn is_delete(&self) -> bool {
        *self == CleanupPolicy::Delete
    }
}

/// A ratio between 0 and 1 written as a JSON number (`min.cleanable.dirty.ratio`, a Java
/// `double`): compared as IEEE doubles, as Kafka compares it, so every platform agrees.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Ratio(pub f64);

impl Eq for Ratio {}

impl std::hash::Hash for Ratio {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.0.to_bits().hash(state);
    }
}

impl Ratio {
    /// Whether it lies in `[0, 1]` (`LogConfig`'s `between(0, 1)`).
    pub fn is_valid(self) -> bool {
        (0.0..=1.0).contains(&self.0)
    }
}

impl std::fmt::Display for Ratio {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// Kafka Streams' `processing.guarantee` (`StreamsConfig`; 4.0 keeps these two).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ProcessingGuarantee {
    /// The default: offsets committed every `commit.interval.ms` (30000) after the
    /// output is flushed; a crash re-processes what came after the last commit and its
    /// output appears again.
    #[default]
    AtLeastOnce,
    /// KIP-447: one transactional producer per instance; output, changelog writes and the
    /// consumed offsets commit in one transaction every `commit.interval.ms` (100),
    /// `transaction.timeout.ms` 10000, consumers read_committed.
    ExactlyOnceV2,
}

impl ProcessingGuarantee {
    /// Whether it is the default (the scenario writer leaves it out).
    pub fn is_at_least_once(&self) -> bool {
        *self == ProcessingGuarantee::AtLeastOnce
    }

    /// Kafka's name: `at_least_once` or `exactly_once_v2`.
    pub fn name(self) -> &'static str {
        match self {
            ProcessingGuarantee::AtLeastOnce => "at_least_once",
            ProcessingGuarantee::ExactlyOnceV2 => "exactly_once_v2",
        }
    }
}

/// Default of [`GroupConfig::push_buffer_max_records`].
pub const DEFAULT_PUSH_BUFFER_MAX_RECORDS: u32 = 1000;

fn is_default_push_buffer(v: &u32) -> bool {
    *v == DEFAULT_PUSH_BUFFER_MAX_RECORDS
}

/// How records reach a group's members. Kafka only pulls; push is a sandbox-only
/// teaching device that shows why Kafka does not push.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum DeliveryMode {
    /// Kafka's model: the consumer fetches when it is ready, `max.poll.records` at most;
    /// what it has not asked for stays in the log (lag).
    #[default]
    Pull,
    /// Push (not Kafka — a teaching device): the broker sends every newly committed
    /// record to its owner at once, whether or not it asked.
    Push,
}

impl DeliveryMode {
    /// Whether it is Kafka's pull (the default, so the scenario writer leaves it out).
    pub fn is_pull(&self) -> bool {
        *self == DeliveryMode::Pull
    }

    /// How the page and the CLI name it.
    pub fn label(&self) -> &'static str {
        match self {
            DeliveryMode::Pull => "pull (Kafka)",
            DeliveryMode::Push => "push (not Kafka — a teaching device)",
        }
    }
}

impl Default for GroupConfig {
    fn default() -> Self {
        Self {
            assignor: Strategy::Range,
            auto_offset_reset: OffsetReset::Latest,
            group_protocol: GroupProtocol::Classic,
            remote_assignor: ServerAssignor::Uniform,
            delivery: DeliveryMode::Pull,
            push_buffer_max_records: DEFAULT_PUSH_BUFFER_MAX_RECORDS,
            isolation_level: IsolationLevel::ReadUncommitted,
        }
    }
}

/// `group.protocol` (KIP-848): which rebalance protocol the consumers speak.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum GroupProtocol {
    /// JoinGroup/SyncGroup with a client-side assignor and a group-wide barrier.
    #[default]
    Classic,
    /// KIP-848: one ConsumerGroupHeartbeat RPC; the broker computes the assignment and
    /// each member reconciles towards it on its own, without a barrier.
    Consumer,
}

/// Cluster-wide settings.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct ClusterConfig {
    /// How many brokers (ids 0, 1, …).
    pub brokers: u32,
    /// Sandbox only: one-way network delay between any two nodes.
    pub network_latency_ms: u64,
    /// `replica.lag.time.max.ms` (30000 since 2.5): a follower that has not caught up for
    /// this long leaves the ISR.
    pub replica_lag_time_max_ms: u64,
    /// `replica.fetch.wait.max.ms` (500): how long the leader holds an empty follower fetch.
    pub replica_fetch_wait_max_ms: u64,
    /// `broker.session.timeout.ms` (9000, KRaft): the controller fences a broker it has not
    /// heard from for this long, moving its leaderships and dropping it from every ISR.
    pub broker_session_timeout_ms: u64,
    /// `group.initial.rebalance.delay.ms` (3000): a group formed from empty waits this
    /// long for more members before its first assignment.
    pub group_initial_rebalance_delay_ms: u64,
    /// `log.retention.check.interval.ms` (300000): how often each broker deletes the
    /// segments retention allows (the first check comes `log.initial.task.delay.ms`,
    /// 30000, after start).
    pub log_retention_check_interval_ms: u64,
    /// `group.consumer.heartbeat.interval.ms` (5000): the heartbeat interval the
    /// coordinator gives consumer-protocol members (KIP-848: a broker setting).
    pub group_consumer_heartbeat_interval_ms: u64,
    /// `group.consumer.session.timeout.ms` (45000): a consumer-protocol member not heard
    /// from for this long is removed (KIP-848: a broker setting).
    pub group_consumer_session_timeout_ms: u64,
    /// The Kafka release the run models, where behaviour changed within 4.x (see
    /// [`KafkaVersion`]); default [`KafkaVersion::NEWEST`].
    pub kafka_version: KafkaVersion,
    /// `offsets.topic.replication.factor` (3): replicas of each of `__consumer_offsets`' 50
    /// partitions. Kafka creates the topic when a group first needs it and refuses while
    /// fewer brokers are alive (groups get COORDINATOR_NOT_AVAILABLE), so a scenario with
    /// groups and fewer brokers is refused; Kafka's single-broker `config/server.properties`
    /// sets it to 1.
    pub offsets_topic_replication_factor: u32,
    /// `auto.leader.rebalance.enable` (true): the controller moves leadership back to each
    /// partition's preferred replica (`replicas[0]`) when it is live and in sync.
    pub auto_leader_rebalance_enable: bool,
    /// `leader.imbalance.check.interval.seconds` (300): under KRaft the preferred-leader
    /// elections run this long after a partition is first seen led by another replica
    /// (`QuorumController.maybeScheduleNextBalancePartitionLeaders`).
    pub leader_imbalance_check_interval_seconds: u64,
    /// `group.min.session.timeout.ms` (6000): a classic-protocol JoinGroup with a smaller
    /// `session.timeout.ms` is answered INVALID_SESSION_TIMEOUT
    /// (`GroupCoordinatorService.joinGroup`) and the consumer fails.
    pub group_min_session_timeout_ms: u64,
    /// `group.max.session.timeout.ms` (1800000): likewise for a larger one.
    pub group_max_session_timeout_ms: u64,
    /// `offsets.retention.minutes` (10080, seven days, KIP-186): how long a group's
    /// committed offsets outlive it (KIP-211: counted from when the group became Empty,
    /// or for a topic it no longer subscribes to, from the commit).
    pub offsets_retention_minutes: u64,
    /// `offsets.retention.check.interval.ms` (600000): how often the coordinator looks for
    /// expired offsets.
    pub offsets_retention_check_interval_ms: u64,
    /// `transaction.state.log.replication.factor` (3): replicas of each of
    /// `__transaction_state`'s 50 partitions, whose leaders are the transaction
    /// coordinators. With fewer brokers Kafka cannot create it and transactional producers
    /// find no coordinator (a scenario with one is refused).
    #[serde(skip_serializing_if = "is_three")]
    pub transaction_state_log_replication_factor: u32,
    /// `transaction.state.log.min.isr` (2): the coordinator cannot log a transaction's
    /// state while its partition has fewer in-sync replicas (NOT_ENOUGH_REPLICAS, which the
    /// client sees as COORDINATOR_NOT_AVAILABLE and retries).
    #[serde(skip_serializing_if = "is_two")]
    pub transaction_state_log_min_isr: u32,
    /// `transaction.max.timeout.ms` (900000): the largest `transaction.timeout.ms` a
    /// producer may ask for (larger: INVALID_TRANSACTION_TIMEOUT).
    #[serde(skip_serializing_if = "is_fifteen_minutes")]
    pub transaction_max_timeout_ms: u64,
    /// `transaction.abort.timed.out.transaction.cleanup.interval.ms` (10000): how often
    /// the coordinators abort transactions open longer than their timeout.
    #[serde(skip_serializing_if = "is_ten_seconds")]
    pub transaction_abort_timed_out_transaction_cleanup_interval_ms: u64,
    /// `log.cleaner.backoff.ms` (15000, `CleanerConfig`): how long each broker's log cleaner
    /// sleeps when no compacted log is dirty enough to clean (issue 19).
    #[serde(skip_serializing_if = "is_fifteen_seconds")]
    pub log_cleaner_backoff_ms: u64,
    /// `offsets.topic.segment.bytes` (104857600, 100 MiB): the segment size of
    /// `__consumer_offsets`, a compacted topic (issue 19). Its active segment is never
    /// cleaned, so with Kafka's size a quiet cluster's commits stay uncompacted for long;
    /// a small one lets a lesson watch the cleaner at work.
    #[serde(skip_serializing_if = "is_hundred_mib")]
    pub offsets_topic_segment_bytes: u64,
}

fn is_hundred_mib(v: &u64) -> bool {
    *v == 104_857_600
}

fn is_fifteen_seconds(v: &u64) -> bool {
    *v == 15_000
}

fn is_three(v: &u32) -> bool {
    *v == 3
}

fn is_two(v: &u32) -> bool {
    *v == 2
}

fn is_fifteen_minutes(v: &u64) -> bool {
    *v == 900_000
}

fn is_ten_seconds(v: &u64) -> bool {
    *v == 10_000
}

/// The Kafka release a run models. Only releases whose behaviour differs in something the
/// sandbox models are listed; each difference is a method here, so the engine asks the
/// version ("does this release gate reconciliation on poll?") rather than comparing
/// numbers, and docs/fidelity.md's table lists the same rules.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum KafkaVersion {
    /// Apache Kafka 4.0 (March 2025): KIP-848 generally available, ZooKeeper removed,
    /// eligible leader replicas available but off.
    #[serde(rename = "4.0")]
    V4_0,
    /// Apache Kafka 4.1: eligible leader replicas (KIP-966) on for new clusters; the
    /// KIP-848 consumer reconciles only inside `poll()` when auto-commit is on
    /// (KAFKA-18641).
    #[serde(rename = "4.1")]
    V4_1,
    /// Apache Kafka 4.2: share groups production-ready (KIP-932); otherwise as 4.1 for
    /// what the sandbox models. The default.
    #[default]
    #[serde(rename = "4.2")]
    V4_2,
}

impl KafkaVersion {
    /// The newest release modelled, the default.
    pub const NEWEST: KafkaVersion = KafkaVersion::V4_2;

    /// The release as Kafka numbers it: `"4.2"`.
    pub fn as_str(self) -> &'static str {
        match self {
            KafkaVersion::V4_0 => "4.0",
            KafkaVersion::V4_1 => "4.1",
            KafkaVersion::V4_2 => "4.2",
        }
    }

    /// Eligible leader replicas (KIP-966, `eligible.leader.replicas.version=1`): off in 4.0,
    /// on for clusters created on 4.1 and later (the sandbox's clusters are always new).
    pub fn eligible_leader_replicas(self) -> bool {
        self >= KafkaVersion::V4_1
    }

    /// KAFKA-18641 (`AbstractMembershipManager.maybeReconcile(canCommit)`): with
    /// auto-commit on, a KIP-848 consumer starts reconciling (commit, revoke, assign) only
    /// inside the application's next `poll()`, not when the heartbeat answer arrives.
    /// Merged February 2025, after the 4.0 branch was cut; taken here as 4.1 and later.
    pub fn reconciles_at_poll_with_auto_commit(self) -> bool {
        self >= KafkaVersion::V4_1
    }
}

impl std::fmt::Display for KafkaVersion {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

impl Default for ClusterConfig {
    fn default() -> Self {
        Self {
            brokers: 3,
            network_latency_ms: 20,
            replica_lag_time_max_ms: 30_000,
            replica_fetch_wait_max_ms: 500,
            broker_session_timeout_ms: 9_000,
            group_initial_rebalance_delay_ms: 3000,
            log_retention_check_interval_ms: 300_000,
            group_consumer_heartbeat_interval_ms: 5000,
            group_consumer_session_timeout_ms: 45_000,
            kafka_version: KafkaVersion::NEWEST,
            offsets_topic_replication_factor: 3,
            auto_leader_rebalance_enable: true,
            leader_imbalance_check_interval_seconds: 300,
            group_min_session_timeout_ms: 6_000,
            group_max_session_timeout_ms: 1_800_000,
            offsets_retention_minutes: 10_080,
            offsets_retention_check_interval_ms: 600_000,
            transaction_state_log_replication_factor: 3,
            transaction_state_log_min_isr: 2,
            transaction_max_timeout_ms: 900_000,
            transaction_abort_timed_out_transaction_cleanup_interval_ms: 10_000,
            log_cleaner_backoff_ms: 15_000,
            offsets_topic_segment_bytes: 104_857_600,
        }
    }
}

// ----- the names of Kafka's choices (assignors, partitioners, commit modes) -------------

/// A `partition.assignment.strategy`, by the protocol name Kafka gives it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Strategy {
    /// `RangeAssignor` ("range"): per topic, contiguous blocks.
    Range,
    /// `RoundRobinAssignor` ("roundrobin"): all partitions dealt in turn.
    #[serde(rename = "roundrobin")]
    RoundRobin,
    /// `StickyAssignor` ("sticky"): balanced, keeping owned partitions (eager protocol).
    Sticky,
    /// `CooperativeStickyAssignor` ("cooperative-sticky"): the sticky result with every
    /// partition that changes owner withheld until the next rebalance.
    CooperativeSticky,
}

impl Strategy {
    /// Every strategy, in declaration order.
    pub const ALL: [Strategy; 4] = [Strategy::Range, Strategy::RoundRobin, Strategy::Sticky, Strategy::CooperativeSticky];

    /// The name Kafka's assignor returns from `name()`.
    pub fn name(self) -> &'static str {
        match self {
            Strategy::Range => "range",
            Strategy::RoundRobin => "roundrobin",
            Strategy::Sticky => "sticky",
            Strategy::CooperativeSticky => "cooperative-sticky",
        }
    }
}

impl fmt::Display for Strategy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A strategy name that is not one of Kafka's.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownStrategy(pub String);
impl fmt::Display for UnknownStrategy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "unknown assignment strategy {:?}: expected one of range, roundrobin, sticky, cooperative-sticky", self.0)
    }
}

impl std::error::Error for UnknownStrategy {}

impl FromStr for Strategy {
    type Err = UnknownStrategy;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Strategy::ALL.into_iter().find(|strategy| strategy.name() == s).ok_or_else(|| UnknownStrategy(s.to_string()))
    }
}

/// A broker-side assignor (`group.consumer.assignors`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum ServerAssignor {
    /// `uniform`: balanced, then sticky (the default).
    #[default]
    Uniform,
    /// `range`: contiguous ranges per topic, co-partitioned.
    Range,
}

impl ServerAssignor {
    /// Every broker-side assignor, in declaration order.
    pub const ALL: [ServerAssignor; 2] = [ServerAssignor::Uniform, ServerAssignor::Range];

    /// The name Kafka's assignor returns from `name()`.
    pub fn name(self) -> &'static str {
        match self {
            ServerAssignor::Uniform => "uniform",
            ServerAssignor::Range => "range",
        }
    }
}

impl std::fmt::Display for ServerAssignor {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// When a consumer commits offsets.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CommitMode {
    /// `enable.auto.commit=true`: inside `poll()` every `auto.commit.interval.ms`,
    /// covering what earlier polls returned; also before a rebalance and on close.
    #[default]
    Auto,
    /// `commitSync()` after each batch is processed (at-least-once).
    SyncAfterProcessing,
    /// `commitAsync()` after each batch is processed (no retry on failure).
    AsyncAfterProcessing,
    /// `commitSync()` as soon as `poll()` returns, before processing (at-most-once).
    BeforeProcessing,
    /// `enable.auto.commit=false` and no commit of its own: the offsets are committed only
    /// by a transaction (`send_offsets_to_transaction`), as a consume-transform-produce
    /// application does (issue 17).
    Off,
}

/// The producer's `partitioner.class`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum PartitionerKind {
    /// No `partitioner.class`: KafkaProducer's own logic (key hash, else the KIP-794
    /// sticky partition of `BuiltInPartitioner`).
    #[default]
    BuiltIn,
    /// `org.apache.kafka.clients.producer.RoundRobinPartitioner`: ignores keys.
    RoundRobin,
}
