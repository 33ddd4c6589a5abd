//! The scenario editor's working copy: the core `Scenario` being edited, a stable key per
//! list item (topics, producers, send plans, groups, members, source connectors with their
//! table rows and planned changes, Streams applications), and each field's text as typed. No Yew here: every rule of the form is tested natively.
//!
//! A field is addressed by a [`Field`] that names its item by key, not by position, so an
//! event from a row rendered before another row was removed still reaches the right item.
//! What `finish` returns is exactly the `Scenario` the core checked.

use kafka_sandbox_core::command::{Command, GroupSpec, MemberSpec, MAX_GROUPS, MAX_MEMBERS_PER_GROUP};
use kafka_sandbox_core::config::CommitMode;
use kafka_sandbox_core::config::PartitionerKind;
use kafka_sandbox_core::config::ServerAssignor;
use kafka_sandbox_core::config::Strategy;
use kafka_sandbox_core::config::{Acks, DeliveryMode, GroupProtocol, OffsetReset};
use kafka_sandbox_core::limits;
use kafka_sandbox_core::record::TimestampType;
use kafka_sandbox_core::scenario::{
    ProducerSpec, Scenario, ScenarioError, SendPlan, TopicSpec, MAX_PARTITIONS, MAX_PROCESSING_MS, MAX_PRODUCERS, MAX_TIME_MS, MAX_TOPICS,
    MIN_SEGMENT_BYTES,
};
use kafka_sandbox_core::sim::connect::{ConnectorSpec, QueryMode, Row, TableChange, TableSpec, MAX_CONNECTORS, MAX_TABLE_ROWS};
use kafka_sandbox_core::sim::streams::{StreamsOp, StreamsSpec, MAX_INSTANCES, MAX_STREAMS};
use kafka_sandbox_core::vecmap::{VecMap, VecSet};

/// Most values one send plan may get from the editor's count field.
pub const MAX_PLAN_VALUES: u64 = 10_000;

/// Largest `push_buffer_max_records` the core accepts (its `MAX_PUSH_BUFFER_RECORDS`, in a
/// private module; a test checks the two agree).
pub const MAX_PUSH_BUFFER: u32 = 1_000_000;

/// A Streams application's operator, by the format's own names.
pub const OPS: &[&str] = &["filter", "map_upper", "count_by_key"];

/// What a planned table change does.
pub const CHANGE_KINDS: &[&str] = &["insert", "update"];

/// One control of the form.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Field {
    Name,
    Description,
    Seed,
    DurationMs,
    Cluster(ClusterField),
    Topic(u64, TopicField),
    Producer(u64, ProducerField),
    /// A send plan, by its key.
    Send(u64, SendField),
    Group(u64, GroupField),
    /// Whether the group (first key) subscribes to the topic (second key).
    GroupTopic(u64, u64),
    Member(u64, MemberField),
    /// Whether the member (first key) names the topic (second key) in its own subscription.
    MemberTopic(u64, u64),
    Connector(u64, ConnectorField),
    /// A row of a connector's table at time 0, by its key.
    Row(u64, RowField),
    /// A planned change of a connector's table, by its key.
    Change(u64, ChangeField),
    Streams(u64, StreamsField),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum ClusterField {
    Brokers,
    NetworkLatencyMs,
    ReplicaLagTimeMaxMs,
    ReplicaFetchWaitMaxMs,
    BrokerSessionTimeoutMs,
    GroupInitialRebalanceDelayMs,
    GroupConsumerHeartbeatIntervalMs,
    GroupConsumerSessionTimeoutMs,
    LogRetentionCheckIntervalMs,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum TopicField {
    Name,
    Partitions,
    ReplicationFactor,
    MinInsyncReplicas,
    UncleanLeaderElection,
    TimestampType,
    RetentionMs,
    RetentionBytes,
    SegmentBytes,
    SegmentMs,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum ProducerField {
    Name,
    Partitioner,
    Acks,
    Idempotence,
    LingerMs,
    BatchSize,
    Retries,
    RetryBackoffMs,
    RetryBackoffMaxMs,
    RequestTimeoutMs,
    DeliveryTimeoutMs,
    MaxInFlight,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum SendField {
    Topic,
    /// How many values: changing it drops values from the end or adds m8, m9, …
    Count,
    Values,
    Keys,
    StartMs,
    IntervalMs,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum GroupField {
    Id,
    Protocol,
    Assignor,
    RemoteAssignor,
    OffsetReset,
    /// pull (Kafka) or push (not Kafka, a teaching device).
    Delivery,
    PushBufferMaxRecords,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum ConnectorField {
    Name,
    Topic,
    Mode,
    PollIntervalMs,
    OffsetFlushIntervalMs,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum RowField {
    Id,
    Value,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum ChangeField {
    AtMs,
    /// insert or update ([`CHANGE_KINDS`]): the row moves between the two, id and value kept.
    Kind,
    Id,
    Value,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum StreamsField {
    ApplicationId,
    Source,
    Sink,
    /// The operator ([`OPS`]); changing it starts the new one from its default.
    Op,
    /// `filter`'s text (only while the operator is `filter`).
    ValueContains,
    /// `count_by_key`'s store (only while the operator is `count_by_key`).
    Store,
    Instances,
    CommitIntervalMs,
    ProcessingMs,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum MemberField {
    ClientId,
    InstanceId,
    CommitMode,
    ProcessingMs,
    SessionTimeoutMs,
    HeartbeatIntervalMs,
    MaxPollIntervalMs,
    MaxPollRecords,
    FetchMaxWaitMs,
    AutoCommitIntervalMs,
    MetadataMaxAgeMs,
}

/// How a field is edited.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Text,
    /// Text; empty means absent.
    OptText,
    /// A whole number within `lo..=hi` as the core checks it (`hi` None: the type's limit).
    Number {
        lo: i64,
        hi: Option<u64>,
    },
    /// A whole number, or empty for absent.
    OptNumber {
        lo: i64,
        hi: Option<u64>,
    },
    /// One of a few values (a select), by the format's own names.
    Choice(&'static [&'static str]),
    Check,
    /// Comma-separated texts.
    List,
    /// One of the scenario's topics, by name.
    Topic,
}

/// Why the draft cannot be applied.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Problem {
    /// A field's text is not a number of its kind (the form keeps the text).
    Unreadable { path: String, text: String, lo: i64, hi: Option<u64> },
    /// The core's check refused the scenario.
    Invalid(ScenarioError),
}

impl Problem {
    /// The format path it is about (`topics[0].replication_factor`), when it names one.
    pub fn path(&self) -> &str {
        match self {
            Problem::Unreadable { path, .. } => path,
            Problem::Invalid(e) => &e.path,
        }
    }
}

/// A value of a select, by the scenario format's own name for it.
trait Choice: Copy + PartialEq + 'static {
    const ALL: &'static [(&'static str, Self)];
    const NAMES: &'static [&'static str];
}

macro_rules! choices {
    ($($t:ty => [$($name:literal = $v:expr),*];)*) => {$(
        impl Choice for $t {
            const ALL: &'static [(&'static str, Self)] = &[$(($name, $v)),*];
            const NAMES: &'static [&'static str] = &[$($name),*];
        }
    )*};
}

choices! {
    Acks => ["0" = Acks::None, "1" = Acks::Leader, "all" = Acks::All];
    PartitionerKind => ["built_in" = PartitionerKind::BuiltIn, "round_robin" = PartitionerKind::RoundRobin];
    Option<bool> => ["default" = None, "true" = Some(true), "false" = Some(false)];
    TimestampType => ["CreateTime" = TimestampType::CreateTime, "LogAppendTime" = TimestampType::LogAppendTime];
    Strategy => ["range" = Strategy::Range, "roundrobin" = Strategy::RoundRobin, "sticky" = Strategy::Sticky,
        "cooperative-sticky" = Strategy::CooperativeSticky];
    ServerAssignor => ["uniform" = ServerAssignor::Uniform, "range" = ServerAssignor::Range];
    GroupProtocol => ["classic" = GroupProtocol::Classic, "consumer" = GroupProtocol::Consumer];
    OffsetReset => ["latest" = OffsetReset::Latest, "earliest" = OffsetReset::Earliest, "none" = OffsetReset::None];
    DeliveryMode => ["pull" = DeliveryMode::Pull, "push" = DeliveryMode::Push];
    QueryMode => ["incrementing" = QueryMode::Incrementing, "timestamp+incrementing" = QueryMode::TimestampIncrementing];
    CommitMode => ["auto" = CommitMode::Auto, "sync_after_processing" = CommitMode::SyncAfterProcessing,
        "async_after_processing" = CommitMode::AsyncAfterProcessing, "before_processing" = CommitMode::BeforeProcessing];
}

/// A scenario value as the form shows it and reads it back.
trait Value {
    fn show(&self) -> String;
    /// Reads `text` into the value; false (and unchanged) when it is not one.
    fn read(&mut self, text: &str) -> bool;
}

impl<T: Choice> Value for T {
    fn show(&self) -> String {
        T::ALL.iter().find(|(_, v)| v == self).map_or("", |(n, _)| n).to_string()
    }

    fn read(&mut self, text: &str) -> bool {
        let Some((_, v)) = T::ALL.iter().find(|(n, _)| *n == text) else { return false };
        *self = *v;
        true
    }
}

macro_rules! numbers {
    ($($t:ty),*) => {$(
        impl Value for $t {
            fn show(&self) -> String {
                self.to_string()
            }

            fn read(&mut self, text: &str) -> bool {
                text.trim().parse().map(|v| *self = v).is_ok()
            }
        }
    )*};
}

numbers!(u32, u64, i64);

impl Value for String {
    fn show(&self) -> String {
        self.clone()
    }

    fn read(&mut self, text: &str) -> bool {
        text.clone_into(self);
        true
    }
}

/// Text where empty means absent (a name, `group.instance.id`).
impl Value for Option<String> {
    fn show(&self) -> String {
        self.clone().unwrap_or_default()
    }

    fn read(&mut self, text: &str) -> bool {
        *self = (!text.is_empty()).then(|| text.to_string());
        true
    }
}

/// A number where empty means absent (`duration_ms`).
impl Value for Option<u64> {
    fn show(&self) -> String {
        self.map(|v| v.to_string()).unwrap_or_default()
    }

    fn read(&mut self, text: &str) -> bool {
        if text.trim().is_empty() {
            *self = None;
            return true;
        }
        text.trim().parse().map(|v| *self = Some(v)).is_ok()
    }
}

impl Value for bool {
    fn show(&self) -> String {
        self.to_string()
    }

    fn read(&mut self, text: &str) -> bool {
        *self = text == "true";
        true
    }
}

/// Runs `$body` with `$v` bound to the field's place in scenario `$s` (`&` or, with `mut`,
/// `&mut`), given its item's position `$ix` from [`Draft::position`]. One table for reading
/// and writing, so the two cannot disagree.
macro_rules! with_place {
    ($s:expr, $f:expr, $ix:expr, [$($m:ident)?] |$v:ident| $body:expr, $none:expr) => {{
        let s = & $($m)? $s;
        let (a, b) = $ix;
        match $f {
            Field::Name => { let $v = & $($m)? s.name; $body }
            Field::Description => { let $v = & $($m)? s.description; $body }
            Field::Seed => { let $v = & $($m)? s.seed; $body }
            Field::DurationMs => { let $v = & $($m)? s.duration_ms; $body }
            Field::Cluster(c) => {
                let c0 = & $($m)? s.cluster;
                match c {
                    ClusterField::Brokers => { let $v = & $($m)? c0.brokers; $body }
                    ClusterField::NetworkLatencyMs => { let $v = & $($m)? c0.network_latency_ms; $body }
                    ClusterField::ReplicaLagTimeMaxMs => { let $v = & $($m)? c0.replica_lag_time_max_ms; $body }
                    ClusterField::ReplicaFetchWaitMaxMs => { let $v = & $($m)? c0.replica_fetch_wait_max_ms; $body }
                    ClusterField::BrokerSessionTimeoutMs => { let $v = & $($m)? c0.broker_session_timeout_ms; $body }
                    ClusterField::GroupInitialRebalanceDelayMs => { let $v = & $($m)? c0.group_initial_rebalance_delay_ms; $body }
                    ClusterField::GroupConsumerHeartbeatIntervalMs => { let $v = & $($m)? c0.group_consumer_heartbeat_interval_ms; $body }
                    ClusterField::GroupConsumerSessionTimeoutMs => { let $v = & $($m)? c0.group_consumer_session_timeout_ms; $body }
                    ClusterField::LogRetentionCheckIntervalMs => { let $v = & $($m)? c0.log_retention_check_interval_ms; $body }
                }
            }
            Field::Topic(_, t) => {
                let t0 = & $($m)? s.topics[a];
                match t {
                    TopicField::Name => { let $v = & $($m)? t0.name; $body }
                    TopicField::Partitions => { let $v = & $($m)? t0.partitions; $body }
                    TopicField::ReplicationFactor => { let $v = & $($m)? t0.replication_factor; $body }
                    TopicField::MinInsyncReplicas => { let $v = & $($m)? t0.min_insync_replicas; $body }
                    TopicField::UncleanLeaderElection => { let $v = & $($m)? t0.unclean_leader_election_enable; $body }
                    TopicField::TimestampType => { let $v = & $($m)? t0.message_timestamp_type; $body }
                    TopicField::RetentionMs => { let $v = & $($m)? t0.retention_ms; $body }
                    TopicField::RetentionBytes => { let $v = & $($m)? t0.retention_bytes; $body }
                    TopicField::SegmentBytes => { let $v = & $($m)? t0.segment_bytes; $body }
                    TopicField::SegmentMs => { let $v = & $($m)? t0.segment_ms; $body }
                }
            }
            Field::Producer(_, p) => {
                let p0 = & $($m)? s.producers[a];
                match p {
                    ProducerField::Name => { let $v = & $($m)? p0.name; $body }
                    ProducerField::Partitioner => { let $v = & $($m)? p0.config.partitioner; $body }
                    ProducerField::Acks => { let $v = & $($m)? p0.config.acks; $body }
                    ProducerField::Idempotence => { let $v = & $($m)? p0.config.enable_idempotence; $body }
                    ProducerField::LingerMs => { let $v = & $($m)? p0.config.linger_ms; $body }
                    ProducerField::BatchSize => { let $v = & $($m)? p0.config.batch_size; $body }
                    ProducerField::Retries => { let $v = & $($m)? p0.config.retries; $body }
                    ProducerField::RetryBackoffMs => { let $v = & $($m)? p0.config.retry_backoff_ms; $body }
                    ProducerField::RetryBackoffMaxMs => { let $v = & $($m)? p0.config.retry_backoff_max_ms; $body }
                    ProducerField::RequestTimeoutMs => { let $v = & $($m)? p0.config.request_timeout_ms; $body }
                    ProducerField::DeliveryTimeoutMs => { let $v = & $($m)? p0.config.delivery_timeout_ms; $body }
                    ProducerField::MaxInFlight => { let $v = & $($m)? p0.config.max_in_flight_requests_per_connection; $body }
                }
            }
            Field::Send(_, sf) => {
                let plan = & $($m)? s.producers[a].send[b];
                match sf {
                    SendField::Topic => { let $v = & $($m)? plan.topic; $body }
                    SendField::StartMs => { let $v = & $($m)? plan.start_ms; $body }
                    SendField::IntervalMs => { let $v = & $($m)? plan.interval_ms; $body }
                    SendField::Count | SendField::Values | SendField::Keys => $none,
                }
            }
            Field::Group(_, gf) => {
                let g = & $($m)? s.groups[a];
                match gf {
                    GroupField::Id => { let $v = & $($m)? g.id; $body }
                    GroupField::Protocol => { let $v = & $($m)? g.config.group_protocol; $body }
                    GroupField::Assignor => { let $v = & $($m)? g.config.assignor; $body }
                    GroupField::RemoteAssignor => { let $v = & $($m)? g.config.remote_assignor; $body }
                    GroupField::OffsetReset => { let $v = & $($m)? g.config.auto_offset_reset; $body }
                    GroupField::Delivery => { let $v = & $($m)? g.config.delivery; $body }
                    GroupField::PushBufferMaxRecords => { let $v = & $($m)? g.config.push_buffer_max_records; $body }
                }
            }
            Field::Member(_, mf) => {
                let m0 = & $($m)? s.groups[a].members[b];
                match mf {
                    MemberField::ClientId => { let $v = & $($m)? m0.client_id; $body }
                    MemberField::InstanceId => { let $v = & $($m)? m0.group_instance_id; $body }
                    MemberField::CommitMode => { let $v = & $($m)? m0.config.commit_mode; $body }
                    MemberField::ProcessingMs => { let $v = & $($m)? m0.config.processing_ms; $body }
                    MemberField::SessionTimeoutMs => { let $v = & $($m)? m0.config.session_timeout_ms; $body }
                    MemberField::HeartbeatIntervalMs => { let $v = & $($m)? m0.config.heartbeat_interval_ms; $body }
                    MemberField::MaxPollIntervalMs => { let $v = & $($m)? m0.config.max_poll_interval_ms; $body }
                    MemberField::MaxPollRecords => { let $v = & $($m)? m0.config.max_poll_records; $body }
                    MemberField::FetchMaxWaitMs => { let $v = & $($m)? m0.config.fetch_max_wait_ms; $body }
                    MemberField::AutoCommitIntervalMs => { let $v = & $($m)? m0.config.auto_commit_interval_ms; $body }
                    MemberField::MetadataMaxAgeMs => { let $v = & $($m)? m0.config.metadata_max_age_ms; $body }
                }
            }
            Field::Connector(_, cf) => {
                let c0 = & $($m)? s.connectors[a];
                match cf {
                    ConnectorField::Name => { let $v = & $($m)? c0.name; $body }
                    ConnectorField::Topic => { let $v = & $($m)? c0.topic; $body }
                    ConnectorField::Mode => { let $v = & $($m)? c0.mode; $body }
                    ConnectorField::PollIntervalMs => { let $v = & $($m)? c0.poll_interval_ms; $body }
                    ConnectorField::OffsetFlushIntervalMs => { let $v = & $($m)? c0.offset_flush_interval_ms; $body }
                }
            }
            Field::Row(_, rf) => {
                let r = & $($m)? s.connectors[a].table.rows[b];
                match rf {
                    RowField::Id => { let $v = & $($m)? r.id; $body }
                    RowField::Value => { let $v = & $($m)? r.value; $body }
                }
            }
            Field::Change(_, cf) => {
                let ch = & $($m)? s.connectors[a].table.changes[b];
                match cf {
                    ChangeField::AtMs => { let $v = & $($m)? ch.at_ms; $body }
                    ChangeField::Kind => $none,
                    ChangeField::Id | ChangeField::Value => {
                        let row = if ch.insert.is_some() { & $($m)? ch.insert } else { & $($m)? ch.update };
                        match row {
                            Some(r) if cf == ChangeField::Id => { let $v = & $($m)? r.id; $body }
                            Some(r) => { let $v = & $($m)? r.value; $body }
                            None => $none,
                        }
                    }
                }
            }
            Field::Streams(_, sf) => {
                let st = & $($m)? s.streams[a];
                match sf {
                    StreamsField::ApplicationId => { let $v = & $($m)? st.application_id; $body }
                    StreamsField::Source => { let $v = & $($m)? st.source; $body }
                    StreamsField::Sink => { let $v = & $($m)? st.sink; $body }
                    StreamsField::Instances => { let $v = & $($m)? st.instances; $body }
                    StreamsField::CommitIntervalMs => { let $v = & $($m)? st.commit_interval_ms; $body }
                    StreamsField::ProcessingMs => { let $v = & $($m)? st.processing_ms; $body }
                    StreamsField::Op => $none,
                    StreamsField::ValueContains => match & $($m)? st.op {
                        StreamsOp::Filter { value_contains } => { let $v = value_contains; $body }
                        _ => $none,
                    },
                    StreamsField::Store => match & $($m)? st.op {
                        StreamsOp::CountByKey { store } => { let $v = store; $body }
                        _ => $none,
                    },
                }
            }
            Field::GroupTopic(..) | Field::MemberTopic(..) => $none,
        }
    }};
}

/// The stable keys of the scenario's list items, in the scenario's order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct Keys {
    topics: Vec<u64>,
    producers: Vec<u64>,
    /// Per producer, its send plans.
    sends: Vec<Vec<u64>>,
    groups: Vec<u64>,
    /// Per group, its members.
    members: Vec<Vec<u64>>,
    connectors: Vec<u64>,
    /// Per connector, its table's rows and its planned changes.
    rows: Vec<Vec<u64>>,
    changes: Vec<Vec<u64>>,
    streams: Vec<u64>,
}

/// The form's working copy.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Draft {
    scenario: Scenario,
    keys: Keys,
    next_key: u64,
    /// Each number or list field's text as last typed (shown instead of the value, so the
    /// form never rewrites what the learner is typing).
    typed: VecMap<Field, String>,
    /// Fields whose typed text is not a value of their kind.
    bad: VecSet<Field>,
}

impl Draft {
    pub fn new(scenario: Scenario) -> Self {
        let mut d = Draft { scenario, keys: Keys::default(), next_key: 1, typed: VecMap::new(), bad: VecSet::new() };
        let s = &d.scenario;
        let (topics, producers, groups) = (s.topics.len(), s.producers.len(), s.groups.len());
        let sends: Vec<usize> = s.producers.iter().map(|p| p.send.len()).collect();
        let members: Vec<usize> = s.groups.iter().map(|g| g.members.len()).collect();
        d.keys.topics = (0..topics).map(|_| d.fresh()).collect();
        d.keys.producers = (0..producers).map(|_| d.fresh()).collect();
        d.keys.sends = sends.into_iter().map(|n| (0..n).map(|_| d.fresh()).collect()).collect();
        d.keys.groups = (0..groups).map(|_| d.fresh()).collect();
        d.keys.members = members.into_iter().map(|n| (0..n).map(|_| d.fresh()).collect()).collect();
        let s = &d.scenario;
        let rows: Vec<usize> = s.connectors.iter().map(|c| c.table.rows.len()).collect();
        let changes: Vec<usize> = s.connectors.iter().map(|c| c.table.changes.len()).collect();
        let streams = s.streams.len();
        d.keys.connectors = (0..rows.len()).map(|_| d.fresh()).collect();
        d.keys.rows = rows.into_iter().map(|n| (0..n).map(|_| d.fresh()).collect()).collect();
        d.keys.changes = changes.into_iter().map(|n| (0..n).map(|_| d.fresh()).collect()).collect();
        d.keys.streams = (0..streams).map(|_| d.fresh()).collect();
        d
    }

    /// Parses scenario text with the core's own parser and checks.
    pub fn from_json(text: &str) -> Result<Self, ScenarioError> {
        Scenario::from_json(text).map(Draft::new)
    }

    fn fresh(&mut self) -> u64 {
        self.next_key += 1;
        self.next_key - 1
    }

    pub fn scenario(&self) -> &Scenario {
        &self.scenario
    }

    pub fn topic_keys(&self) -> &[u64] {
        &self.keys.topics
    }

    pub fn producer_keys(&self) -> &[u64] {
        &self.keys.producers
    }

    pub fn send_keys(&self, producer: usize) -> &[u64] {
        self.keys.sends.get(producer).map_or(&[], Vec::as_slice)
    }

    pub fn group_keys(&self) -> &[u64] {
        &self.keys.groups
    }

    pub fn member_keys(&self, group: usize) -> &[u64] {
        self.keys.members.get(group).map_or(&[], Vec::as_slice)
    }

    pub fn connector_keys(&self) -> &[u64] {
        &self.keys.connectors
    }

    pub fn row_keys(&self, connector: usize) -> &[u64] {
        self.keys.rows.get(connector).map_or(&[], Vec::as_slice)
    }

    pub fn change_keys(&self, connector: usize) -> &[u64] {
        self.keys.changes.get(connector).map_or(&[], Vec::as_slice)
    }

    pub fn streams_keys(&self) -> &[u64] {
        &self.keys.streams
    }

    fn connector_at(&self, key: u64) -> Option<usize> {
        self.keys.connectors.iter().position(|&k| k == key)
    }

    fn streams_at(&self, key: u64) -> Option<usize> {
        self.keys.streams.iter().position(|&k| k == key)
    }

    fn row_at(&self, key: u64) -> Option<(usize, usize)> {
        nested_at(&self.keys.rows, key)
    }

    fn change_at(&self, key: u64) -> Option<(usize, usize)> {
        nested_at(&self.keys.changes, key)
    }

    fn topic_at(&self, key: u64) -> Option<usize> {
        self.keys.topics.iter().position(|&k| k == key)
    }

    fn producer_at(&self, key: u64) -> Option<usize> {
        self.keys.producers.iter().position(|&k| k == key)
    }

    fn group_at(&self, key: u64) -> Option<usize> {
        self.keys.groups.iter().position(|&k| k == key)
    }

    fn send_at(&self, key: u64) -> Option<(usize, usize)> {
        self.keys.sends.iter().enumerate().find_map(|(p, ks)| ks.iter().position(|&k| k == key).map(|s| (p, s)))
    }

    fn member_at(&self, key: u64) -> Option<(usize, usize)> {
        self.keys.members.iter().enumerate().find_map(|(g, ks)| ks.iter().position(|&k| k == key).map(|m| (g, m)))
    }

    /// The field's place in the scenario format (`groups[0].members[1].config.session_timeout_ms`);
    /// None when its item is gone.
    pub fn path(&self, f: Field) -> Option<String> {
        Some(match f {
            Field::Name => "name".into(),
            Field::Description => "description".into(),
            Field::Seed => "seed".into(),
            Field::DurationMs => "duration_ms".into(),
            Field::Cluster(c) => format!("cluster.{}", cluster_name(c)),
            Field::Topic(k, t) => format!("topics[{}].{}", self.topic_at(k)?, topic_name(t)),
            Field::Producer(k, p) => {
                let i = self.producer_at(k)?;
                match p {
                    ProducerField::Name => format!("producers[{i}].name"),
                    p => format!("producers[{i}].config.{}", producer_name(p)),
                }
            }
            Field::Send(k, s) => {
                let (p, j) = self.send_at(k)?;
                format!("producers[{p}].send[{j}].{}", send_name(s))
            }
            Field::Group(k, g) => {
                let i = self.group_at(k)?;
                match g {
                    GroupField::Id => format!("groups[{i}].id"),
                    g => format!("groups[{i}].config.{}", group_name(g)),
                }
            }
            Field::GroupTopic(g, t) => format!("groups[{}].topics[{}]", self.group_at(g)?, self.topic_at(t)?),
            Field::Member(k, m) => {
                let (g, j) = self.member_at(k)?;
                match m {
                    MemberField::ClientId => format!("groups[{g}].members[{j}].client_id"),
                    MemberField::InstanceId => format!("groups[{g}].members[{j}].group_instance_id"),
                    m => format!("groups[{g}].members[{j}].config.{}", member_name(m)),
                }
            }
            Field::MemberTopic(m, t) => {
                let (g, j) = self.member_at(m)?;
                format!("groups[{g}].members[{j}].topics[{}]", self.topic_at(t)?)
            }
            Field::Connector(k, c) => format!("connectors[{}].{}", self.connector_at(k)?, connector_name(c)),
            Field::Row(k, r) => {
                let (c, j) = self.row_at(k)?;
                format!("connectors[{c}].table.rows[{j}].{}", if r == RowField::Id { "id" } else { "value" })
            }
            Field::Change(k, f) => {
                let (c, j) = self.change_at(k)?;
                let at = format!("connectors[{c}].table.changes[{j}]");
                // The row's place follows what the change does, as the core names it.
                let kind = self.change(k).map_or("insert", change_kind);
                match f {
                    ChangeField::AtMs => format!("{at}.at_ms"),
                    ChangeField::Kind => at,
                    ChangeField::Id => format!("{at}.{kind}.id"),
                    ChangeField::Value => format!("{at}.{kind}.value"),
                }
            }
            Field::Streams(k, f) => format!("streams[{}].{}", self.streams_at(k)?, streams_name(f)),
        })
    }

    /// How the field is edited, with the ranges the core checks.
    pub fn kind(&self, f: Field) -> Kind {
        let week = Some(MAX_TIME_MS);
        let any = None;
        let n = |lo: i64, hi: Option<u64>| Kind::Number { lo, hi };
        // A setting with a row in the core's limits table takes its bounds from there.
        let row = |r: &limits::Range| Kind::Number { lo: r.min as i64, hi: (r.max != u64::MAX).then_some(r.max) };
        match f {
            Field::Name | Field::Description => Kind::OptText,
            Field::Seed => n(0, any),
            Field::DurationMs => Kind::OptNumber { lo: limits::DURATION_MS.min as i64, hi: Some(limits::DURATION_MS.max) },
            Field::Cluster(c) => match c {
                ClusterField::Brokers => row(&limits::CLUSTER_BROKERS),
                ClusterField::NetworkLatencyMs => row(&limits::NETWORK_LATENCY_MS),
                ClusterField::ReplicaFetchWaitMaxMs => row(&limits::REPLICA_FETCH_WAIT_MAX_MS),
                ClusterField::ReplicaLagTimeMaxMs => row(&limits::REPLICA_LAG_TIME_MAX_MS),
                ClusterField::LogRetentionCheckIntervalMs => row(&limits::LOG_RETENTION_CHECK_INTERVAL_MS),
                ClusterField::BrokerSessionTimeoutMs => row(&limits::BROKER_SESSION_TIMEOUT_MS),
                ClusterField::GroupInitialRebalanceDelayMs => row(&limits::GROUP_INITIAL_REBALANCE_DELAY_MS),
                ClusterField::GroupConsumerHeartbeatIntervalMs => row(&limits::GROUP_CONSUMER_HEARTBEAT_INTERVAL_MS),
                ClusterField::GroupConsumerSessionTimeoutMs => row(&limits::GROUP_CONSUMER_SESSION_TIMEOUT_MS),
            },
            Field::Topic(k, t) => match t {
                TopicField::Name => Kind::Text,
                TopicField::Partitions => n(1, Some(MAX_PARTITIONS.into())),
                TopicField::ReplicationFactor => n(1, Some(self.scenario.cluster.brokers.max(1).into())),
                TopicField::MinInsyncReplicas => {
                    let rf = self.topic_at(k).and_then(|i| self.scenario.topics.get(i)).map_or(1, |t| t.replication_factor);
                    n(1, Some(rf.max(1).into()))
                }
                TopicField::UncleanLeaderElection => Kind::Check,
                TopicField::TimestampType => Kind::Choice(<TimestampType as Choice>::NAMES),
                TopicField::RetentionMs | TopicField::RetentionBytes => n(-1, Some(i64::MAX as u64)),
                TopicField::SegmentBytes => n(MIN_SEGMENT_BYTES.into(), Some(i32::MAX as u64)),
                TopicField::SegmentMs => n(1, Some(i64::MAX as u64)),
            },
            Field::Producer(_, p) => match p {
                ProducerField::Name => Kind::Text,
                ProducerField::Partitioner => Kind::Choice(<PartitionerKind as Choice>::NAMES),
                ProducerField::Acks => Kind::Choice(<Acks as Choice>::NAMES),
                ProducerField::Idempotence => Kind::Choice(<Option<bool> as Choice>::NAMES),
                ProducerField::LingerMs => row(&limits::LINGER_MS),
                ProducerField::BatchSize => row(&limits::BATCH_SIZE),
                ProducerField::Retries => n(0, any),
                ProducerField::MaxInFlight => n(1, any),
                ProducerField::RetryBackoffMs => row(&limits::RETRY_BACKOFF_MS),
                ProducerField::RetryBackoffMaxMs => row(&limits::RETRY_BACKOFF_MAX_MS),
                ProducerField::RequestTimeoutMs => row(&limits::REQUEST_TIMEOUT_MS),
                ProducerField::DeliveryTimeoutMs => row(&limits::DELIVERY_TIMEOUT_MS),
            },
            Field::Send(_, s) => match s {
                SendField::Topic => Kind::Topic,
                SendField::Count => n(0, Some(MAX_PLAN_VALUES)),
                SendField::Values | SendField::Keys => Kind::List,
                SendField::StartMs | SendField::IntervalMs => n(0, week),
            },
            Field::Group(_, g) => match g {
                GroupField::Id => Kind::Text,
                GroupField::Protocol => Kind::Choice(<GroupProtocol as Choice>::NAMES),
                GroupField::Assignor => Kind::Choice(<Strategy as Choice>::NAMES),
                GroupField::RemoteAssignor => Kind::Choice(<ServerAssignor as Choice>::NAMES),
                GroupField::OffsetReset => Kind::Choice(<OffsetReset as Choice>::NAMES),
                GroupField::Delivery => Kind::Choice(<DeliveryMode as Choice>::NAMES),
                GroupField::PushBufferMaxRecords => n(1, Some(MAX_PUSH_BUFFER.into())),
            },
            Field::Connector(_, c) => match c {
                ConnectorField::Name => Kind::Text,
                ConnectorField::Topic => Kind::Topic,
                ConnectorField::Mode => Kind::Choice(<QueryMode as Choice>::NAMES),
                ConnectorField::PollIntervalMs | ConnectorField::OffsetFlushIntervalMs => n(1, week),
            },
            Field::Row(_, r) => match r {
                RowField::Id => n(0, any),
                RowField::Value => Kind::Text,
            },
            Field::Change(_, c) => match c {
                ChangeField::AtMs => n(0, week),
                ChangeField::Kind => Kind::Choice(CHANGE_KINDS),
                ChangeField::Id => n(0, any),
                ChangeField::Value => Kind::Text,
            },
            Field::Streams(_, f) => match f {
                StreamsField::ApplicationId | StreamsField::ValueContains | StreamsField::Store => Kind::Text,
                StreamsField::Source | StreamsField::Sink => Kind::Topic,
                StreamsField::Op => Kind::Choice(OPS),
                StreamsField::Instances => n(1, Some(MAX_INSTANCES.into())),
                StreamsField::CommitIntervalMs => n(1, week),
                StreamsField::ProcessingMs => n(0, Some(MAX_PROCESSING_MS)),
            },
            Field::GroupTopic(..) | Field::MemberTopic(..) => Kind::Check,
            Field::Member(_, m) => match m {
                MemberField::ClientId => Kind::Text,
                MemberField::InstanceId => Kind::OptText,
                MemberField::CommitMode => Kind::Choice(<CommitMode as Choice>::NAMES),
                MemberField::ProcessingMs => row(&limits::MEMBER_PROCESSING_MS),
                MemberField::MaxPollRecords => row(&limits::MEMBER_MAX_POLL_RECORDS),
                MemberField::FetchMaxWaitMs => row(&limits::MEMBER_FETCH_MAX_WAIT_MS),
                MemberField::AutoCommitIntervalMs => row(&limits::MEMBER_AUTO_COMMIT_INTERVAL_MS),
                MemberField::SessionTimeoutMs => row(&limits::MEMBER_SESSION_TIMEOUT_MS),
                MemberField::HeartbeatIntervalMs => row(&limits::MEMBER_HEARTBEAT_INTERVAL_MS),
                MemberField::MaxPollIntervalMs => row(&limits::MEMBER_MAX_POLL_INTERVAL_MS),
                MemberField::MetadataMaxAgeMs => row(&limits::MEMBER_METADATA_MAX_AGE_MS),
            },
        }
    }

    /// The position of the field's item (topic, producer and plan, group and member),
    /// checked against the scenario's lists; None when the item is gone.
    fn position(&self, f: Field) -> Option<(usize, usize)> {
        let s = &self.scenario;
        let at = match f {
            Field::Topic(k, _) => (self.topic_at(k)?, 0),
            Field::Producer(k, _) => (self.producer_at(k)?, 0),
            Field::Send(k, _) => self.send_at(k)?,
            Field::Group(k, _) => (self.group_at(k)?, 0),
            Field::Member(k, _) => self.member_at(k)?,
            Field::Connector(k, _) => (self.connector_at(k)?, 0),
            Field::Row(k, _) => self.row_at(k)?,
            Field::Change(k, _) => self.change_at(k)?,
            Field::Streams(k, _) => (self.streams_at(k)?, 0),
            _ => (0, 0),
        };
        let exists = match f {
            Field::Topic(..) => at.0 < s.topics.len(),
            Field::Producer(..) => at.0 < s.producers.len(),
            Field::Send(..) => s.producers.get(at.0).is_some_and(|p| at.1 < p.send.len()),
            Field::Group(..) => at.0 < s.groups.len(),
            Field::Member(..) => s.groups.get(at.0).is_some_and(|g| at.1 < g.members.len()),
            Field::Connector(..) => at.0 < s.connectors.len(),
            Field::Row(..) => s.connectors.get(at.0).is_some_and(|c| at.1 < c.table.rows.len()),
            Field::Change(..) => s.connectors.get(at.0).is_some_and(|c| at.1 < c.table.changes.len()),
            Field::Streams(..) => at.0 < s.streams.len(),
            _ => true,
        };
        exists.then_some(at)
    }

    fn plan(&self, key: u64) -> Option<&SendPlan> {
        let (p, j) = self.send_at(key)?;
        self.scenario.producers.get(p)?.send.get(j)
    }

    fn change(&self, key: u64) -> Option<&TableChange> {
        let (c, j) = self.change_at(key)?;
        self.scenario.connectors.get(c)?.table.changes.get(j)
    }

    fn topic_name_of(&self, key: u64) -> Option<&str> {
        Some(self.scenario.topics.get(self.topic_at(key)?)?.name.as_str())
    }

    /// The text the field shows: as typed, else its value.
    pub fn get(&self, f: Field) -> String {
        if let Some(t) = self.typed.get(&f) {
            return t.clone();
        }
        match f {
            Field::Send(k, s @ (SendField::Count | SendField::Values | SendField::Keys)) => {
                let Some(plan) = self.plan(k) else { return String::new() };
                match s {
                    SendField::Count => plan.values.len().to_string(),
                    SendField::Values => plan.values.join(", "),
                    _ => plan
                        .keys
                        .as_ref()
                        .map(|keys| keys.iter().map(|k| k.as_deref().unwrap_or("")).collect::<Vec<_>>().join(", "))
                        .unwrap_or_default(),
                }
            }
            Field::GroupTopic(g, t) => {
                let (Some(g), Some(name)) = (self.group_at(g), self.topic_name_of(t)) else { return "false".into() };
                self.scenario.groups.get(g).is_some_and(|g| g.topics.iter().any(|n| n == name)).to_string()
            }
            Field::MemberTopic(m, t) => {
                let (Some((g, j)), Some(name)) = (self.member_at(m), self.topic_name_of(t)) else { return "false".into() };
                let member = self.scenario.groups.get(g).and_then(|g| g.members.get(j));
                member.is_some_and(|m| m.topics.iter().flatten().any(|n| n == name)).to_string()
            }
            Field::Streams(k, StreamsField::Op) => {
                self.streams_at(k).and_then(|i| self.scenario.streams.get(i)).map_or("", |a| op_name(&a.op)).to_string()
            }
            Field::Change(k, ChangeField::Kind) => self.change(k).map_or("", change_kind).to_string(),
            _ => {
                let Some(at) = self.position(f) else { return String::new() };
                with_place!(self.scenario, f, at, [] | v | Value::show(v), String::new())
            }
        }
    }

    /// Whether the field's text is not a value of its kind.
    pub fn is_bad(&self, f: Field) -> bool {
        self.bad.contains(&f)
    }

    /// The learner typed or chose `text`.
    pub fn set(&mut self, f: Field, text: &str) {
        let kind = self.kind(f);
        match f {
            Field::Send(k, s @ (SendField::Count | SendField::Values | SendField::Keys)) => {
                return self.set_plan_list(f, k, s, text);
            }
            Field::GroupTopic(g, t) => return self.set_group_topic(g, t, text == "true"),
            Field::MemberTopic(m, t) => return self.set_member_topic(m, t, text == "true"),
            Field::Topic(k, TopicField::Name) => return self.rename_topic(k, text),
            Field::Producer(k, ProducerField::Name) => return self.rename_producer(k, text),
            Field::Group(k, GroupField::Id) => return self.rename_group(k, text),
            Field::Member(k, MemberField::ClientId) => return self.rename_member(k, text),
            Field::Connector(k, ConnectorField::Name) => return self.rename_connector(k, text),
            Field::Streams(k, StreamsField::ApplicationId) => return self.rename_streams(k, text),
            Field::Streams(k, StreamsField::Op) => return self.set_op(k, text),
            Field::Change(k, ChangeField::Kind) => return self.set_change_kind(k, text),
            _ => {}
        }
        let Some(at) = self.position(f) else { return };
        let ok = with_place!(self.scenario, f, at, [mut] |v| Value::read(v, text), return);
        if matches!(kind, Kind::Number { .. } | Kind::OptNumber { .. }) {
            self.typed.insert(f, text.to_string());
        }
        if ok {
            self.bad.remove(&f);
        } else {
            self.bad.insert(f);
        }
    }

    fn set_plan_list(&mut self, f: Field, key: u64, which: SendField, text: &str) {
        let Some((p, j)) = self.send_at(key) else { return };
        let Some(plan) = self.scenario.producers.get_mut(p).and_then(|p| p.send.get_mut(j)) else { return };
        self.typed.insert(f, text.to_string());
        match which {
            SendField::Count => {
                let Ok(n) = text.trim().parse::<u64>() else {
                    self.bad.insert(f);
                    return;
                };
                if n > MAX_PLAN_VALUES {
                    self.bad.insert(f);
                    return;
                }
                self.bad.remove(&f);
                resize_plan(plan, n as usize);
                // The lists now show the new values, not what was typed into them before.
                self.typed.remove(&Field::Send(key, SendField::Values));
                self.typed.remove(&Field::Send(key, SendField::Keys));
            }
            SendField::Values => {
                plan.values = split_list(text);
                self.typed.remove(&Field::Send(key, SendField::Count));
                self.bad.remove(&Field::Send(key, SendField::Count));
            }
            _ => {
                plan.keys = (!text.trim().is_empty()).then(|| split_list(text).into_iter().map(|k| (!k.is_empty()).then_some(k)).collect());
            }
        }
    }

    fn set_group_topic(&mut self, group: u64, topic: u64, on: bool) {
        let (Some(g), Some(name)) = (self.group_at(group), self.topic_name_of(topic).map(str::to_string)) else { return };
        let order: Vec<String> = self.scenario.topics.iter().map(|t| t.name.clone()).collect();
        let topics = &mut self.scenario.groups[g].topics;
        toggle(topics, &name, on, &order);
    }

    fn set_member_topic(&mut self, member: u64, topic: u64, on: bool) {
        let (Some((g, j)), Some(name)) = (self.member_at(member), self.topic_name_of(topic).map(str::to_string)) else { return };
        let order: Vec<String> = self.scenario.topics.iter().map(|t| t.name.clone()).collect();
        let slot = &mut self.scenario.groups[g].members[j].topics;
        let mut list = slot.take().unwrap_or_default();
        toggle(&mut list, &name, on, &order);
        *slot = (!list.is_empty()).then_some(list);
    }

    /// A topic's new name; what refers to it follows when the rename is unambiguous.
    fn rename_topic(&mut self, key: u64, new: &str) {
        let Some(i) = self.topic_at(key) else { return };
        let old = std::mem::replace(&mut self.scenario.topics[i].name, new.to_string());
        let names: Vec<&str> = self.scenario.topics.iter().map(|t| t.name.as_str()).collect();
        if !follows(&names, i, &old, new) {
            return;
        }
        let s = &mut self.scenario;
        for plan in s.producers.iter_mut().flat_map(|p| p.send.iter_mut()) {
            rename(&mut plan.topic, &old, new);
        }
        for g in &mut s.groups {
            rename_group_topics(g, &old, new);
        }
        for c in &mut s.connectors {
            rename(&mut c.topic, &old, new);
        }
        for a in &mut s.streams {
            rename(&mut a.source, &old, new);
            rename(&mut a.sink, &old, new);
        }
        for c in &mut s.commands {
            let r = refs(&mut c.command);
            r.topics.into_iter().for_each(|t| rename(t, &old, new));
        }
    }

    fn rename_producer(&mut self, key: u64, new: &str) {
        let Some(i) = self.producer_at(key) else { return };
        let old = std::mem::replace(&mut self.scenario.producers[i].name, new.to_string());
        let names: Vec<&str> = self.scenario.producers.iter().map(|p| p.name.as_str()).collect();
        if !follows(&names, i, &old, new) {
            return;
        }
        for c in &mut self.scenario.commands {
            if let Some(p) = refs(&mut c.command).producer {
                rename(p, &old, new);
            }
        }
    }

    fn rename_group(&mut self, key: u64, new: &str) {
        let Some(i) = self.group_at(key) else { return };
        let old = std::mem::replace(&mut self.scenario.groups[i].id, new.to_string());
        let names: Vec<&str> = self.scenario.groups.iter().map(|g| g.id.as_str()).collect();
        if !follows(&names, i, &old, new) {
            return;
        }
        for c in &mut self.scenario.commands {
            if let Some(g) = refs(&mut c.command).group {
                rename(g, &old, new);
            }
        }
    }

    fn rename_member(&mut self, key: u64, new: &str) {
        let Some((g, j)) = self.member_at(key) else { return };
        let group = self.scenario.groups[g].id.clone();
        let members = &mut self.scenario.groups[g].members;
        let old = std::mem::replace(&mut members[j].client_id, new.to_string());
        let names: Vec<&str> = members.iter().map(|m| m.client_id.as_str()).collect();
        if !follows(&names, j, &old, new) {
            return;
        }
        for c in &mut self.scenario.commands {
            let r = refs(&mut c.command);
            if let (Some(gid), Some(client)) = (r.group, r.client) {
                if *gid == group {
                    rename(client, &old, new);
                }
            }
        }
    }

    /// Room for one more topic, counting the changelog topics the Streams apps' stores
    /// create (the core counts them towards the same limit).
    fn rename_connector(&mut self, key: u64, new: &str) {
        let Some(i) = self.connector_at(key) else { return };
        let old = std::mem::replace(&mut self.scenario.connectors[i].name, new.to_string());
        let names: Vec<&str> = self.scenario.connectors.iter().map(|c| c.name.as_str()).collect();
        if !follows(&names, i, &old, new) {
            return;
        }
        for c in &mut self.scenario.commands {
            if let Some(name) = refs(&mut c.command).connector {
                rename(name, &old, new);
            }
        }
    }

    /// An application's new id. It is its group's id and its instances' prefix
    /// (`<application_id>-1`), so commands on its instances follow, unless a group or
    /// another application has the old or the new id.
    fn rename_streams(&mut self, key: u64, new: &str) {
        let Some(i) = self.streams_at(key) else { return };
        let old = std::mem::replace(&mut self.scenario.streams[i].application_id, new.to_string());
        let s = &mut self.scenario;
        let names: Vec<&str> = s.streams.iter().map(|a| a.application_id.as_str()).collect();
        if !follows(&names, i, &old, new) || s.groups.iter().any(|g| g.id == old || g.id == new) {
            return;
        }
        let instances = s.streams[i].instances;
        for c in &mut s.commands {
            let r = refs(&mut c.command);
            let Some(group) = r.group else { continue };
            if *group != old {
                continue;
            }
            new.clone_into(group);
            if let Some(client) = r.client {
                let n = client.strip_prefix(old.as_str()).and_then(|rest| rest.strip_prefix('-')).and_then(|n| n.parse::<u32>().ok());
                if let Some(n) = n.filter(|n| (1..=instances).contains(n)) {
                    *client = format!("{new}-{n}");
                }
            }
        }
    }

    /// A new operator starts from its default (`filter` on "", the store `counts`); the same
    /// operator again keeps its text.
    fn set_op(&mut self, key: u64, name: &str) {
        let Some(i) = self.streams_at(key) else { return };
        let app = &mut self.scenario.streams[i];
        if op_name(&app.op) == name {
            return;
        }
        app.op = match name {
            "filter" => StreamsOp::Filter { value_contains: String::new() },
            "map_upper" => StreamsOp::MapUpper {},
            "count_by_key" => StreamsOp::CountByKey { store: "counts".into() },
            _ => return,
        };
    }

    /// Insert or update: the change's row (id and value) moves to the other.
    fn set_change_kind(&mut self, key: u64, kind: &str) {
        let Some((c, j)) = self.change_at(key) else { return };
        if !CHANGE_KINDS.contains(&kind) {
            return;
        }
        let ch = &mut self.scenario.connectors[c].table.changes[j];
        let row = ch.insert.take().or(ch.update.take()).unwrap_or(Row { id: 1, value: String::new() });
        if kind == "insert" {
            ch.insert = Some(row);
        } else {
            ch.update = Some(row);
        }
    }

    pub fn can_add_topic(&self) -> bool {
        let changelogs = self.scenario.streams.iter().filter(|a| a.changelog().is_some()).count();
        self.scenario.topics.len() + changelogs < MAX_TOPICS
    }

    pub fn can_add_producer(&self) -> bool {
        self.scenario.producers.len() < MAX_PRODUCERS
    }

    pub fn can_add_group(&self) -> bool {
        self.scenario.groups.len() < MAX_GROUPS
    }

    pub fn can_add_member(&self, group: u64) -> bool {
        self.group_at(group).is_some_and(|g| self.scenario.groups[g].members.len() < MAX_MEMBERS_PER_GROUP)
    }

    /// A new topic: 3 partitions, as many replicas as brokers up to 3, Kafka's topic defaults.
    pub fn add_topic(&mut self) {
        if !self.can_add_topic() {
            return;
        }
        let name = next_name("Topic", 2, self.scenario.topics.iter().map(|t| t.name.as_str()));
        let replication_factor = self.scenario.cluster.brokers.clamp(1, 3);
        self.scenario.topics.push(TopicSpec { name, partitions: 3, replication_factor, ..TopicSpec::default() });
        let k = self.fresh();
        self.keys.topics.push(k);
    }

    /// Removes a topic with its send plans and its place in subscriptions. The timeline is
    /// left as it is: a command that names the topic is refused at Apply, with its place.
    pub fn remove_topic(&mut self, key: u64) {
        let Some(i) = self.topic_at(key) else { return };
        let name = self.scenario.topics.remove(i).name;
        self.keys.topics.remove(i);
        let still = self.scenario.topics.iter().any(|t| t.name == name);
        if !still {
            for (p, producer) in self.scenario.producers.iter_mut().enumerate() {
                let keys = &mut self.keys.sends[p];
                let mut j = 0;
                producer.send.retain(|s| {
                    let keep = s.topic != name;
                    if !keep {
                        keys.remove(j);
                    } else {
                        j += 1;
                    }
                    keep
                });
            }
            for g in &mut self.scenario.groups {
                g.topics.retain(|t| *t != name);
                for m in &mut g.members {
                    if let Some(ts) = &mut m.topics {
                        ts.retain(|t| *t != name);
                        if ts.is_empty() {
                            m.topics = None;
                        }
                    }
                }
            }
            // Connectors writing to it and Streams apps reading or writing it go, as the
            // plans that send to it do.
            for c in gone(&self.scenario.connectors, |c| c.topic == name) {
                self.scenario.connectors.remove(c);
                self.keys.connectors.remove(c);
                self.keys.rows.remove(c);
                self.keys.changes.remove(c);
            }
            for a in gone(&self.scenario.streams, |a| a.source == name || a.sink == name) {
                self.scenario.streams.remove(a);
                self.keys.streams.remove(a);
            }
        }
        self.forget_gone();
    }

    /// A new producer with Kafka's defaults, sending ten values to the first topic.
    pub fn add_producer(&mut self) {
        if !self.can_add_producer() {
            return;
        }
        let name = next_name("Producer", 1, self.scenario.producers.iter().map(|p| p.name.as_str()));
        let send = self.new_plan().into_iter().collect::<Vec<_>>();
        let sends = send.iter().map(|_| self.fresh()).collect();
        self.scenario.producers.push(ProducerSpec { name, send, ..ProducerSpec::default() });
        let k = self.fresh();
        self.keys.producers.push(k);
        self.keys.sends.push(sends);
    }

    pub fn remove_producer(&mut self, key: u64) {
        let Some(i) = self.producer_at(key) else { return };
        self.scenario.producers.remove(i);
        self.keys.producers.remove(i);
        self.keys.sends.remove(i);
        self.forget_gone();
    }

    /// m1..m10 to the first topic from 1 s, one every 500 ms.
    fn new_plan(&self) -> Option<SendPlan> {
        let topic = self.scenario.topics.first()?.name.clone();
        Some(SendPlan {
            topic,
            values: (1..=10).map(|n| format!("m{n}")).collect(),
            start_ms: 1000,
            interval_ms: 500,
            ..SendPlan::default()
        })
    }

    pub fn add_send(&mut self, producer: u64) {
        let (Some(p), Some(plan)) = (self.producer_at(producer), self.new_plan()) else { return };
        self.scenario.producers[p].send.push(plan);
        let k = self.fresh();
        self.keys.sends[p].push(k);
    }

    pub fn remove_send(&mut self, key: u64) {
        let Some((p, j)) = self.send_at(key) else { return };
        self.scenario.producers[p].send.remove(j);
        self.keys.sends[p].remove(j);
        self.forget_gone();
    }

    /// A new group reading the first topic with Kafka's defaults and one consumer.
    pub fn add_group(&mut self) {
        if !self.can_add_group() {
            return;
        }
        let id = next_name("ConsumerGroup", 2, self.scenario.groups.iter().map(|g| g.id.as_str()));
        let topics = self.scenario.topics.first().map(|t| vec![t.name.clone()]).unwrap_or_default();
        let members = vec![MemberSpec::new("Consumer1")];
        self.scenario.groups.push(GroupSpec { id, topics, members, ..GroupSpec::default() });
        let (k, m) = (self.fresh(), self.fresh());
        self.keys.groups.push(k);
        self.keys.members.push(vec![m]);
    }

    pub fn remove_group(&mut self, key: u64) {
        let Some(i) = self.group_at(key) else { return };
        self.scenario.groups.remove(i);
        self.keys.groups.remove(i);
        self.keys.members.remove(i);
        self.forget_gone();
    }

    /// A new consumer with the next free ConsumerN and the settings of the group's last one.
    pub fn add_member(&mut self, group: u64) {
        if !self.can_add_member(group) {
            return;
        }
        let Some(g) = self.group_at(group) else { return };
        let members = &self.scenario.groups[g].members;
        let client_id = crate::state::next_client_id(members.iter().map(|m| m.client_id.as_str()));
        let mut member = MemberSpec::new(client_id);
        if let Some(last) = members.last() {
            member.config = last.config.clone();
        }
        self.scenario.groups[g].members.push(member);
        let k = self.fresh();
        self.keys.members[g].push(k);
    }

    pub fn remove_member(&mut self, key: u64) {
        let Some((g, j)) = self.member_at(key) else { return };
        self.scenario.groups[g].members.remove(j);
        self.keys.members[g].remove(j);
        self.forget_gone();
    }

    pub fn can_add_connector(&self) -> bool {
        self.scenario.connectors.len() < MAX_CONNECTORS
    }

    pub fn can_add_row(&self, connector: u64) -> bool {
        self.connector_at(connector).is_some_and(|c| self.scenario.connectors[c].table.rows.len() < MAX_TABLE_ROWS)
    }

    pub fn can_add_change(&self, connector: u64) -> bool {
        self.connector_at(connector).is_some_and(|c| self.scenario.connectors[c].table.changes.len() < MAX_TABLE_ROWS)
    }

    pub fn can_add_streams(&self) -> bool {
        self.scenario.streams.len() < MAX_STREAMS
    }

    /// A new source connector (`jdbc-source-N`) with the core's defaults, writing to the
    /// first topic from a table with one row.
    pub fn add_connector(&mut self) {
        if !self.can_add_connector() {
            return;
        }
        let name = next_name("jdbc-source-", 1, self.scenario.connectors.iter().map(|c| c.name.as_str()));
        let topic = self.scenario.topics.first().map(|t| t.name.clone()).unwrap_or_default();
        let table = TableSpec { rows: vec![Row { id: 1, value: "v1".into() }], changes: Vec::new() };
        self.scenario.connectors.push(ConnectorSpec {
            name,
            topic,
            table,
            mode: QueryMode::default(),
            poll_interval_ms: 5000,
            offset_flush_interval_ms: 60_000,
        });
        let (k, r) = (self.fresh(), self.fresh());
        self.keys.connectors.push(k);
        self.keys.rows.push(vec![r]);
        self.keys.changes.push(Vec::new());
    }

    pub fn remove_connector(&mut self, key: u64) {
        let Some(c) = self.connector_at(key) else { return };
        self.scenario.connectors.remove(c);
        self.keys.connectors.remove(c);
        self.keys.rows.remove(c);
        self.keys.changes.remove(c);
        self.forget_gone();
    }

    /// The id after every id the table has or will insert.
    fn next_row_id(&self, c: usize) -> u64 {
        let t = &self.scenario.connectors[c].table;
        let ids = t.rows.iter().map(|r| r.id).chain(t.changes.iter().filter_map(|ch| ch.insert.as_ref().map(|r| r.id)));
        ids.max().map_or(1, |m| m.saturating_add(1))
    }

    /// A new row with the next id and the value `v<id>`.
    pub fn add_row(&mut self, connector: u64) {
        if !self.can_add_row(connector) {
            return;
        }
        let Some(c) = self.connector_at(connector) else { return };
        let id = self.next_row_id(c);
        self.scenario.connectors[c].table.rows.push(Row { id, value: format!("v{id}") });
        let k = self.fresh();
        self.keys.rows[c].push(k);
    }

    pub fn remove_row(&mut self, key: u64) {
        let Some((c, j)) = self.row_at(key) else { return };
        self.scenario.connectors[c].table.rows.remove(j);
        self.keys.rows[c].remove(j);
        self.forget_gone();
    }

    /// A new planned insert of the next id, 5 s after the last change (at 10 s if none).
    pub fn add_change(&mut self, connector: u64) {
        if !self.can_add_change(connector) {
            return;
        }
        let Some(c) = self.connector_at(connector) else { return };
        let id = self.next_row_id(c);
        let changes = &mut self.scenario.connectors[c].table.changes;
        let at_ms = changes.iter().map(|ch| ch.at_ms).max().map_or(10_000, |t| t.saturating_add(5000).min(MAX_TIME_MS));
        changes.push(TableChange { at_ms, insert: Some(Row { id, value: format!("v{id}") }), update: None });
        let k = self.fresh();
        self.keys.changes[c].push(k);
    }

    pub fn remove_change(&mut self, key: u64) {
        let Some((c, j)) = self.change_at(key) else { return };
        self.scenario.connectors[c].table.changes.remove(j);
        self.keys.changes[c].remove(j);
        self.forget_gone();
    }

    /// A new Streams app (`streams-app-N`, an id no group has) upper-casing the first topic
    /// into the next one, with the core's defaults.
    pub fn add_streams(&mut self) {
        if !self.can_add_streams() {
            return;
        }
        let s = &self.scenario;
        let taken = s.streams.iter().map(|a| a.application_id.as_str()).chain(s.groups.iter().map(|g| g.id.as_str()));
        let application_id = next_name("streams-app-", 1, taken);
        let source = s.topics.first().map(|t| t.name.clone()).unwrap_or_default();
        // Another topic when there is one; else the source, which Apply refuses with the core's reason.
        let sink = s.topics.iter().map(|t| &t.name).find(|t| **t != source).unwrap_or(&source).clone();
        self.scenario.streams.push(StreamsSpec {
            application_id,
            source,
            sink,
            op: StreamsOp::MapUpper {},
            instances: 1,
            commit_interval_ms: 30_000,
            processing_ms: 10,
        });
        let k = self.fresh();
        self.keys.streams.push(k);
    }

    pub fn remove_streams(&mut self, key: u64) {
        let Some(i) = self.streams_at(key) else { return };
        self.scenario.streams.remove(i);
        self.keys.streams.remove(i);
        self.forget_gone();
    }

    /// How many timeline commands the scenario has (the form keeps them as they are).
    pub fn timeline_len(&self) -> usize {
        self.scenario.commands.len()
    }

    pub fn clear_timeline(&mut self) {
        self.scenario.commands.clear();
    }

    /// Drops the typed text of fields whose item is gone.
    fn forget_gone(&mut self) {
        let gone: Vec<Field> = self.typed.keys().chain(self.bad.iter()).copied().filter(|f| self.path(*f).is_none()).collect();
        for f in gone {
            self.typed.remove(&f);
            self.bad.remove(&f);
        }
    }

    /// The scenario to load, checked by the core exactly as loading its JSON checks it.
    pub fn finish(&self) -> Result<Scenario, Problem> {
        if let Some((f, path)) = self.bad.iter().find_map(|f| self.path(*f).map(|p| (*f, p))) {
            let (lo, hi) = match self.kind(f) {
                Kind::Number { lo, hi } | Kind::OptNumber { lo, hi } => (lo, hi),
                _ => (0, None),
            };
            return Err(Problem::Unreadable { path, text: self.get(f), lo, hi });
        }
        self.scenario.check().map_err(Problem::Invalid)?;
        Ok(self.scenario.clone())
    }
}

/// The position of `key` in per-item lists of keys: (item, place in its list).
fn nested_at(lists: &[Vec<u64>], key: u64) -> Option<(usize, usize)> {
    lists.iter().enumerate().find_map(|(i, ks)| ks.iter().position(|&k| k == key).map(|j| (i, j)))
}

/// The positions of the items `drop` picks, last first (so removing them in turn is safe).
fn gone<T>(items: &[T], drop: impl Fn(&T) -> bool) -> Vec<usize> {
    items.iter().enumerate().rev().filter(|(_, x)| drop(x)).map(|(i, _)| i).collect()
}

/// `insert` or `update` (a change with neither reads as an insert, which the core refuses).
fn change_kind(ch: &TableChange) -> &'static str {
    if ch.update.is_some() && ch.insert.is_none() {
        "update"
    } else {
        "insert"
    }
}

fn op_name(op: &StreamsOp) -> &'static str {
    match op {
        StreamsOp::Filter { .. } => "filter",
        StreamsOp::MapUpper {} => "map_upper",
        StreamsOp::CountByKey { .. } => "count_by_key",
    }
}

/// "m1, m2 ,m3" → ["m1", "m2", "m3"]; empty text → no values.
pub fn split_list(text: &str) -> Vec<String> {
    if text.trim().is_empty() {
        return Vec::new();
    }
    text.split(',').map(|s| s.trim().to_string()).collect()
}

/// Keeps the first `n` values, or adds m<k> for each new position k (from 1); keys, when
/// given, keep one per value by repeating the existing ones in turn.
fn resize_plan(plan: &mut SendPlan, n: usize) {
    let old = plan.values.len();
    plan.values.truncate(n);
    plan.values.extend((old..n).map(|k| format!("m{}", k + 1)));
    if let Some(keys) = &mut plan.keys {
        let have = keys.len();
        keys.truncate(n);
        for k in have..n {
            let repeated = if have == 0 { None } else { keys[k % have].clone() };
            keys.push(repeated);
        }
    }
}

/// Adds or removes `name`, keeping the list in the topics' order (names the scenario no
/// longer has stay where they were, at the end).
fn toggle(list: &mut Vec<String>, name: &str, on: bool, order: &[String]) {
    list.retain(|t| t != name);
    if on {
        list.push(name.to_string());
        kafka_sandbox_core::sorted::sort_by_key(list, |t| order.iter().position(|o| o == t).unwrap_or(usize::MAX));
    }
}

/// The first `prefix`N (N from 1, zero-padded to `width` digits) not already taken.
pub fn next_name<'a>(prefix: &str, width: usize, taken: impl Iterator<Item = &'a str> + Clone) -> String {
    (1..).map(|n| format!("{prefix}{n:0width$}")).find(|c| !taken.clone().any(|t| t == c)).unwrap_or_else(|| prefix.to_string())
}

/// Whether references follow a rename at `index` from `old` to `new` in `names` (already
/// renamed): only when no other item had `old` or has `new`, so two items never merge.
fn follows(names: &[&str], index: usize, old: &str, new: &str) -> bool {
    old != new && !names.iter().enumerate().any(|(i, n)| i != index && (*n == old || *n == new))
}

fn rename(name: &mut String, old: &str, new: &str) {
    if name == old {
        *name = new.to_string();
    }
}

fn rename_group_topics(g: &mut GroupSpec, old: &str, new: &str) {
    g.topics.iter_mut().for_each(|t| rename(t, old, new));
    for m in &mut g.members {
        m.topics.iter_mut().flatten().for_each(|t| rename(t, old, new));
    }
}

/// The names a timeline command refers to.
#[derive(Default)]
struct Refs<'a> {
    topics: Vec<&'a mut String>,
    producer: Option<&'a mut String>,
    group: Option<&'a mut String>,
    client: Option<&'a mut String>,
    connector: Option<&'a mut String>,
}

fn refs(c: &mut Command) -> Refs<'_> {
    match c {
        Command::Produce { producer, topic, .. } => Refs { topics: vec![topic], producer: Some(producer), ..Refs::default() },
        Command::SetPartitioner { producer, .. } | Command::SetAcks { producer, .. } => {
            Refs { producer: Some(producer), ..Refs::default() }
        }
        Command::AddMember { group, member } => Refs {
            topics: member.topics.iter_mut().flatten().collect(),
            group: Some(group),
            client: Some(&mut member.client_id),
            ..Refs::default()
        },
        Command::RemoveMember { group, client_id }
        | Command::CrashMember { group, client_id }
        | Command::RestartMember { group, client_id }
        | Command::PauseMember { group, client_id, .. }
        | Command::SetProcessing { group, client_id, .. }
        | Command::SetCommitMode { group, client_id, .. } => Refs { group: Some(group), client: Some(client_id), ..Refs::default() },
        Command::Seek { group, client_id, topic, .. } => {
            Refs { topics: vec![topic], group: Some(group), client: Some(client_id), ..Refs::default() }
        }
        Command::Subscribe { group, client_id, topics } => {
            Refs { topics: topics.iter_mut().collect(), group: Some(group), client: Some(client_id), ..Refs::default() }
        }
        Command::AddGroup { group } => {
            let GroupSpec { topics, members, .. } = group;
            let mut all: Vec<&mut String> = topics.iter_mut().collect();
            all.extend(members.iter_mut().flat_map(|m| m.topics.iter_mut().flatten()));
            Refs { topics: all, ..Refs::default() }
        }
        Command::SetAssignor { group, .. } => Refs { group: Some(group), ..Refs::default() },
        Command::AddPartitions { topic, .. } | Command::SetTopicConfig { topic, .. } => Refs { topics: vec![topic], ..Refs::default() },
        Command::CrashConnector { connector } | Command::RestartConnector { connector } => {
            Refs { connector: Some(connector), ..Refs::default() }
        }
        Command::CrashBroker { .. }
        | Command::RestartBroker { .. }
        | Command::IsolateBroker { .. }
        | Command::HealBroker { .. }
        | Command::SlowBroker { .. } => Refs::default(),
    }
}

fn cluster_name(c: ClusterField) -> &'static str {
    match c {
        ClusterField::Brokers => "brokers",
        ClusterField::NetworkLatencyMs => "network_latency_ms",
        ClusterField::ReplicaLagTimeMaxMs => "replica_lag_time_max_ms",
        ClusterField::ReplicaFetchWaitMaxMs => "replica_fetch_wait_max_ms",
        ClusterField::BrokerSessionTimeoutMs => "broker_session_timeout_ms",
        ClusterField::GroupInitialRebalanceDelayMs => "group_initial_rebalance_delay_ms",
        ClusterField::GroupConsumerHeartbeatIntervalMs => "group_consumer_heartbeat_interval_ms",
        ClusterField::GroupConsumerSessionTimeoutMs => "group_consumer_session_timeout_ms",
        ClusterField::LogRetentionCheckIntervalMs => "log_retention_check_interval_ms",
    }
}

fn topic_name(t: TopicField) -> &'static str {
    match t {
        TopicField::Name => "name",
        TopicField::Partitions => "partitions",
        TopicField::ReplicationFactor => "replication_factor",
        TopicField::MinInsyncReplicas => "min_insync_replicas",
        TopicField::UncleanLeaderElection => "unclean_leader_election_enable",
        TopicField::TimestampType => "message_timestamp_type",
        TopicField::RetentionMs => "retention_ms",
        TopicField::RetentionBytes => "retention_bytes",
        TopicField::SegmentBytes => "segment_bytes",
        TopicField::SegmentMs => "segment_ms",
    }
}

fn producer_name(p: ProducerField) -> &'static str {
    match p {
        ProducerField::Name => "name",
        ProducerField::Partitioner => "partitioner",
        ProducerField::Acks => "acks",
        ProducerField::Idempotence => "enable_idempotence",
        ProducerField::LingerMs => "linger_ms",
        ProducerField::BatchSize => "batch_size",
        ProducerField::Retries => "retries",
        ProducerField::RetryBackoffMs => "retry_backoff_ms",
        ProducerField::RetryBackoffMaxMs => "retry_backoff_max_ms",
        ProducerField::RequestTimeoutMs => "request_timeout_ms",
        ProducerField::DeliveryTimeoutMs => "delivery_timeout_ms",
        ProducerField::MaxInFlight => "max_in_flight_requests_per_connection",
    }
}

fn send_name(s: SendField) -> &'static str {
    match s {
        SendField::Topic => "topic",
        SendField::Count => "count",
        SendField::Values => "values",
        SendField::Keys => "keys",
        SendField::StartMs => "start_ms",
        SendField::IntervalMs => "interval_ms",
    }
}

fn group_name(g: GroupField) -> &'static str {
    match g {
        GroupField::Id => "id",
        GroupField::Protocol => "group_protocol",
        GroupField::Assignor => "assignor",
        GroupField::RemoteAssignor => "remote_assignor",
        GroupField::OffsetReset => "auto_offset_reset",
        GroupField::Delivery => "delivery",
        GroupField::PushBufferMaxRecords => "push_buffer_max_records",
    }
}

fn connector_name(c: ConnectorField) -> &'static str {
    match c {
        ConnectorField::Name => "name",
        ConnectorField::Topic => "topic",
        ConnectorField::Mode => "mode",
        ConnectorField::PollIntervalMs => "poll_interval_ms",
        ConnectorField::OffsetFlushIntervalMs => "offset_flush_interval_ms",
    }
}

fn streams_name(f: StreamsField) -> &'static str {
    match f {
        StreamsField::ApplicationId => "application_id",
        StreamsField::Source => "source",
        StreamsField::Sink => "sink",
        StreamsField::Op => "op",
        StreamsField::ValueContains => "op.filter.value_contains",
        StreamsField::Store => "op.count_by_key.store",
        StreamsField::Instances => "instances",
        StreamsField::CommitIntervalMs => "commit_interval_ms",
        StreamsField::ProcessingMs => "processing_ms",
    }
}

fn member_name(m: MemberField) -> &'static str {
    match m {
        MemberField::ClientId => "client_id",
        MemberField::InstanceId => "group_instance_id",
        MemberField::CommitMode => "commit_mode",
        MemberField::ProcessingMs => "processing_ms",
        MemberField::SessionTimeoutMs => "session_timeout_ms",
        MemberField::HeartbeatIntervalMs => "heartbeat_interval_ms",
        MemberField::MaxPollIntervalMs => "max_poll_interval_ms",
        MemberField::MaxPollRecords => "max_poll_records",
        MemberField::FetchMaxWaitMs => "fetch_max_wait_ms",
        MemberField::AutoCommitIntervalMs => "auto_commit_interval_ms",
        MemberField::MetadataMaxAgeMs => "metadata_max_age_ms",
    }
}

/// An element id for a field's control, from its path: `topics[0].partitions` →
/// `ed-topics-0-partitions`.
pub fn dom_id(path: &str) -> String {
    let mut id = String::from("ed-");
    for c in path.chars() {
        match c {
            '[' | '.' => {
                if !id.ends_with('-') {
                    id.push('-');
                }
            }
            ']' => {}
            c => id.push(c),
        }
    }
    id
}

#[cfg(test)]
mod tests {
    use super::*;
    use kafka_sandbox_core::scenario::{built_in, default_scenario, TimedCommand, BUILT_IN};

    fn two_groups() -> Draft {
        Draft::new(default_scenario())
    }

    /// The invariant every index in the draft relies on: one key per item, keys unique.
    fn assert_in_sync(d: &Draft) {
        let s = &d.scenario;
        assert_eq!(d.keys.topics.len(), s.topics.len());
        assert_eq!(d.keys.producers.len(), s.producers.len());
        assert_eq!(d.keys.sends.iter().map(Vec::len).collect::<Vec<_>>(), s.producers.iter().map(|p| p.send.len()).collect::<Vec<_>>());
        assert_eq!(d.keys.groups.len(), s.groups.len());
        assert_eq!(d.keys.members.iter().map(Vec::len).collect::<Vec<_>>(), s.groups.iter().map(|g| g.members.len()).collect::<Vec<_>>());
        assert_eq!(d.keys.connectors.len(), s.connectors.len());
        assert_eq!(
            d.keys.rows.iter().map(Vec::len).collect::<Vec<_>>(),
            s.connectors.iter().map(|c| c.table.rows.len()).collect::<Vec<_>>()
        );
        assert_eq!(
            d.keys.changes.iter().map(Vec::len).collect::<Vec<_>>(),
            s.connectors.iter().map(|c| c.table.changes.len()).collect::<Vec<_>>()
        );
        assert_eq!(d.keys.streams.len(), s.streams.len());
        let all: Vec<u64> = [&d.keys.topics, &d.keys.producers, &d.keys.groups, &d.keys.connectors, &d.keys.streams]
            .into_iter()
            .flatten()
            .chain(d.keys.sends.iter().flatten())
            .chain(d.keys.members.iter().flatten())
            .chain(d.keys.rows.iter().flatten())
            .chain(d.keys.changes.iter().flatten())
            .copied()
            .collect();
        assert_eq!(all.iter().collect::<VecSet<_>>().len(), all.len(), "keys are unique");
    }

    #[test]
    fn every_built_in_scenario_comes_back_unchanged_when_nothing_is_edited() {
        for (name, _) in BUILT_IN {
            let Some(Ok(s)) = built_in(name) else { panic!("{name}") };
            let d = Draft::new(s.clone());
            assert_eq!(d.finish(), Ok(s.clone()), "{name}");
            // What Apply hands to the page loads again as the same scenario.
            assert_eq!(Scenario::from_json(&s.to_json_pretty()), Ok(s), "{name}");
        }
    }

    /// Push, a connector with planned changes and a count by key: every new part of the format.
    const APPS: &str = r#"{
      "version": 1, "name": "apps", "seed": 3,
      "topics": [ { "name": "customers", "partitions": 2 }, { "name": "counts", "partitions": 2 }, { "name": "clicks", "partitions": 1 } ],
      "connectors": [ { "name": "jdbc", "topic": "customers", "mode": "timestamp+incrementing", "poll_interval_ms": 2000,
        "offset_flush_interval_ms": 9000,
        "table": { "rows": [ { "id": 1, "value": "ada" }, { "id": 2, "value": "bob" } ],
                   "changes": [ { "at_ms": 8000, "insert": { "id": 4, "value": "dee" } }, { "at_ms": 9000, "update": { "id": 1, "value": "ann" } } ] } } ],
      "streams": [ { "application_id": "counter", "source": "customers", "sink": "counts", "op": { "count_by_key": { "store": "per-id" } },
                     "instances": 2, "commit_interval_ms": 1000, "processing_ms": 5 },
                   { "application_id": "shout", "source": "clicks", "sink": "counts", "op": { "map_upper": {} } } ],
      "groups": [ { "id": "pushed", "topics": ["clicks"], "config": { "delivery": "push", "push_buffer_max_records": 50 },
                    "members": [ { "client_id": "slow" } ] } ],
      "commands": [ { "at_ms": 5000, "command": { "type": "crash_connector", "connector": "jdbc" } },
                    { "at_ms": 6000, "command": { "type": "restart_connector", "connector": "jdbc" } },
                    { "at_ms": 7000, "command": { "type": "crash_member", "group": "counter", "client_id": "counter-2" } } ]
    }"#;

    fn apps() -> Draft {
        Draft::from_json(APPS).expect("APPS loads")
    }

    #[test]
    fn push_connectors_and_streams_come_back_unchanged_when_nothing_is_edited() {
        let s = Scenario::from_json(APPS).unwrap();
        assert_eq!(apps().finish(), Ok(s.clone()));
        assert_eq!(Scenario::from_json(&s.to_json_pretty()), Ok(s));
        // And every built-in lesson's scenario (lesson 8 pushes, lesson 10 has connectors and Streams).
        for lesson in kafka_sandbox_core::lesson::built_in_lessons() {
            let s = lesson.unwrap().scenario().unwrap();
            let d = Draft::new(s.clone());
            assert_eq!(d.finish(), Ok(s.clone()), "{:?}", s.name);
            assert_in_sync(&d);
        }
    }

    #[test]
    fn delivery_connector_and_streams_fields_show_and_set_the_scenario() {
        let mut d = apps();
        let (g, c, a) = (d.group_keys()[0], d.connector_keys()[0], d.streams_keys()[0]);
        assert_eq!(d.get(Field::Group(g, GroupField::Delivery)), "push");
        assert_eq!(d.get(Field::Group(g, GroupField::PushBufferMaxRecords)), "50");
        assert_eq!(d.path(Field::Group(g, GroupField::PushBufferMaxRecords)).as_deref(), Some("groups[0].config.push_buffer_max_records"));
        assert_eq!(d.kind(Field::Group(g, GroupField::PushBufferMaxRecords)), Kind::Number { lo: 1, hi: Some(1_000_000) });
        assert_eq!(d.get(Field::Connector(c, ConnectorField::Mode)), "timestamp+incrementing");
        assert_eq!(d.get(Field::Connector(c, ConnectorField::PollIntervalMs)), "2000");
        assert_eq!(d.kind(Field::Connector(c, ConnectorField::Topic)), Kind::Topic);
        let (r, ch) = (d.row_keys(0)[1], d.change_keys(0)[1]);
        assert_eq!((d.get(Field::Row(r, RowField::Id)), d.get(Field::Row(r, RowField::Value))), ("2".into(), "bob".into()));
        assert_eq!(d.path(Field::Row(r, RowField::Value)).as_deref(), Some("connectors[0].table.rows[1].value"));
        assert_eq!(d.get(Field::Change(ch, ChangeField::Kind)), "update");
        assert_eq!(d.path(Field::Change(ch, ChangeField::Id)).as_deref(), Some("connectors[0].table.changes[1].update.id"));
        assert_eq!(d.get(Field::Streams(a, StreamsField::Op)), "count_by_key");
        assert_eq!(d.get(Field::Streams(a, StreamsField::Store)), "per-id");
        assert_eq!(d.path(Field::Streams(a, StreamsField::Store)).as_deref(), Some("streams[0].op.count_by_key.store"));
        assert_eq!(d.path(Field::Streams(a, StreamsField::ValueContains)).as_deref(), Some("streams[0].op.filter.value_contains"));
        assert_eq!(d.get(Field::Streams(a, StreamsField::ValueContains)), "", "not a filter");
        assert_eq!(d.kind(Field::Streams(a, StreamsField::Instances)), Kind::Number { lo: 1, hi: Some(8) });
        assert_eq!(dom_id("connectors[0].table.changes[1].update.id"), "ed-connectors-0-table-changes-1-update-id");

        d.set(Field::Group(g, GroupField::Delivery), "pull");
        d.set(Field::Group(g, GroupField::PushBufferMaxRecords), "200");
        d.set(Field::Connector(c, ConnectorField::Mode), "incrementing");
        d.set(Field::Connector(c, ConnectorField::OffsetFlushIntervalMs), "30000");
        d.set(Field::Row(r, RowField::Value), "bo");
        // An update becomes an insert of a new id: the row moves, id and value kept.
        d.set(Field::Change(ch, ChangeField::Kind), "insert");
        d.set(Field::Change(ch, ChangeField::Id), "7");
        assert_eq!(d.path(Field::Change(ch, ChangeField::Id)).as_deref(), Some("connectors[0].table.changes[1].insert.id"));
        d.set(Field::Streams(a, StreamsField::Op), "filter");
        d.set(Field::Streams(a, StreamsField::ValueContains), "a");
        d.set(Field::Streams(a, StreamsField::Instances), "3");
        let Ok(s) = d.finish() else { panic!("{:?}", d.finish()) };
        assert_eq!((s.groups[0].config.delivery, s.groups[0].config.push_buffer_max_records), (DeliveryMode::Pull, 200));
        let conn = &s.connectors[0];
        assert_eq!((conn.mode, conn.offset_flush_interval_ms, conn.table.rows[1].value.as_str()), (QueryMode::Incrementing, 30_000, "bo"));
        assert_eq!(conn.table.changes[1], TableChange { at_ms: 9000, insert: Some(Row { id: 7, value: "ann".into() }), update: None });
        assert_eq!(s.streams[0].op, StreamsOp::Filter { value_contains: "a".into() });
        assert_eq!(s.streams[0].instances, 3);
        // Choosing the same operator again keeps its text; another starts from its default.
        d.set(Field::Streams(a, StreamsField::Op), "filter");
        assert_eq!(d.scenario().streams[0].op, StreamsOp::Filter { value_contains: "a".into() });
        d.set(Field::Streams(a, StreamsField::Op), "count_by_key");
        assert_eq!(d.scenario().streams[0].op, StreamsOp::CountByKey { store: "counts".into() });
        d.set(Field::Streams(a, StreamsField::Op), "sum");
        assert_eq!(d.scenario().streams[0].op, StreamsOp::CountByKey { store: "counts".into() });
    }

    #[test]
    fn the_cores_check_decides_and_names_the_new_fields() {
        let mut d = apps();
        let (g, a, ch) = (d.group_keys()[0], d.streams_keys()[0], d.change_keys(0)[1]);
        // The form's ranges are the core's: its largest push buffer applies, one more is refused.
        d.set(Field::Group(g, GroupField::PushBufferMaxRecords), &MAX_PUSH_BUFFER.to_string());
        assert!(d.finish().is_ok(), "{:?}", d.finish());
        d.set(Field::Group(g, GroupField::PushBufferMaxRecords), &(MAX_PUSH_BUFFER + 1).to_string());
        assert!(
            matches!(d.finish(), Err(Problem::Invalid(e)) if e.path == "groups[0]" && e.problem.to_string().contains("push_buffer_max_records"))
        );
        d.set(Field::Group(g, GroupField::PushBufferMaxRecords), "50");
        // An update of an id the table has not got.
        d.set(Field::Change(ch, ChangeField::Id), "9");
        let Err(Problem::Invalid(e)) = d.finish() else { panic!("{:?}", d.finish()) };
        assert_eq!(e.path, "connectors[0].table.changes[1].update.id");
        assert_eq!(d.path(Field::Change(ch, ChangeField::Id)).as_deref(), Some(e.path.as_str()));
        d.set(Field::Change(ch, ChangeField::Id), "2");
        d.set(Field::Streams(a, StreamsField::Sink), "customers");
        assert!(matches!(d.finish(), Err(Problem::Invalid(e)) if e.path == "streams[0].sink"));
        d.set(Field::Streams(a, StreamsField::Sink), "counts");
        d.set(Field::Streams(a, StreamsField::Instances), "9");
        assert!(matches!(d.finish(), Err(Problem::Invalid(e)) if e.path == "streams[0].instances"), "{:?}", d.finish());
        d.set(Field::Streams(a, StreamsField::Instances), "x");
        assert_eq!(d.finish(), Err(Problem::Unreadable { path: "streams[0].instances".into(), text: "x".into(), lo: 1, hi: Some(8) }));
        d.set(Field::Streams(a, StreamsField::Instances), "2");
        assert!(d.finish().is_ok(), "{:?}", d.finish());
    }

    #[test]
    fn new_connectors_rows_changes_and_streams_apps_take_the_cores_defaults() {
        let mut d = two_groups();
        d.add_topic();
        d.add_connector();
        d.add_streams();
        let c = d.connector_keys()[0];
        d.add_row(c);
        d.add_change(c);
        d.add_change(c);
        let s = d.finish().unwrap_or_else(|e| panic!("{e:?}"));
        let json = r#"{"name": "jdbc-source-1", "topic": "Topic01",
            "table": {"rows": [{"id": 1, "value": "v1"}, {"id": 2, "value": "v2"}],
                      "changes": [{"at_ms": 10000, "insert": {"id": 3, "value": "v3"}}, {"at_ms": 15000, "insert": {"id": 4, "value": "v4"}}]}}"#;
        assert_eq!(s.connectors, vec![kafka_sandbox_core::scenario::read_json::<ConnectorSpec>(json).unwrap()]);
        let json = r#"{"application_id": "streams-app-1", "source": "Topic01", "sink": "Topic02", "op": {"map_upper": {}}}"#;
        assert_eq!(s.streams, vec![kafka_sandbox_core::scenario::read_json::<StreamsSpec>(json).unwrap()]);
        d.remove_row(d.row_keys(0)[0]);
        d.remove_change(d.change_keys(0)[0]);
        assert_eq!(d.scenario().connectors[0].table.rows, vec![Row { id: 2, value: "v2".into() }]);
        assert_eq!(d.scenario().connectors[0].table.changes.len(), 1);
        d.add_row(c);
        assert_eq!(d.scenario().connectors[0].table.rows[1].id, 5, "after every id the table has or will insert");
        assert_in_sync(&d);
        // A streams app needs a topic to write to other than its source: with one topic, Apply says so.
        let mut one = two_groups();
        one.add_streams();
        assert!(matches!(one.finish(), Err(Problem::Invalid(e)) if e.path == "streams[0].sink"));
        // A count's changelog topic counts towards the 16 topics.
        let mut full = two_groups();
        full.add_streams();
        full.add_topic();
        let a = full.streams_keys()[0];
        full.set(Field::Streams(a, StreamsField::Sink), "Topic02");
        full.set(Field::Streams(a, StreamsField::Op), "count_by_key");
        while full.can_add_topic() {
            full.add_topic();
        }
        assert_eq!(full.scenario().topics.len(), MAX_TOPICS - 1);
        assert!(full.finish().is_ok(), "{:?}", full.finish());
        for _ in 0..10 {
            full.add_connector();
            full.add_streams();
        }
        assert_eq!((full.scenario().connectors.len(), full.scenario().streams.len()), (MAX_CONNECTORS, MAX_STREAMS));
        assert!(!full.can_add_connector() && !full.can_add_streams());
    }

    #[test]
    fn removing_a_topic_takes_the_connectors_and_streams_apps_that_use_it() {
        let mut d = apps();
        let [customers, counts, _clicks] = d.topic_keys().try_into().unwrap();
        let shout = d.streams_keys()[1];
        d.set(Field::Row(d.row_keys(0)[0], RowField::Id), "abc");
        d.remove_topic(customers);
        assert!(d.scenario().connectors.is_empty());
        assert_eq!(d.scenario().streams.iter().map(|a| a.application_id.as_str()).collect::<Vec<_>>(), ["shout"]);
        assert_eq!(d.path(Field::Streams(shout, StreamsField::Sink)).as_deref(), Some("streams[0].sink"));
        assert!(d.finish().is_err(), "the timeline still names the connector");
        assert!(matches!(d.finish(), Err(Problem::Invalid(e)) if e.path == "commands[0]"), "{:?}", d.finish());
        d.clear_timeline();
        assert!(d.finish().is_ok(), "the unread row id went with its row: {:?}", d.finish());
        d.remove_topic(counts);
        assert!(d.scenario().streams.is_empty(), "its sink is gone");
        assert_in_sync(&d);
        assert!(d.finish().is_ok(), "{:?}", d.finish());
    }

    #[test]
    fn renames_follow_into_connectors_streams_and_their_commands() {
        let mut d = apps();
        let (t, c, a) = (d.topic_keys()[0], d.connector_keys()[0], d.streams_keys()[0]);
        for name in ["c", "cu", "users"] {
            d.set(Field::Topic(t, TopicField::Name), name);
        }
        d.set(Field::Topic(d.topic_keys()[1], TopicField::Name), "tally");
        d.set(Field::Connector(c, ConnectorField::Name), "db");
        d.set(Field::Streams(a, StreamsField::ApplicationId), "count");
        let Ok(s) = d.finish() else { panic!("{:?}", d.finish()) };
        assert_eq!(s.connectors[0].topic, "users");
        assert_eq!((s.streams[0].source.as_str(), s.streams[0].sink.as_str()), ("users", "tally"));
        assert_eq!(s.streams[1].sink, "tally");
        let c: Vec<&Command> = s.commands.iter().map(|c| &c.command).collect();
        assert_eq!(c[0], &Command::CrashConnector { connector: "db".into() });
        assert_eq!(c[1], &Command::RestartConnector { connector: "db".into() });
        assert_eq!(c[2], &Command::CrashMember { group: "count".into(), client_id: "count-2".into() });
        // An application id that is a group's id: nothing follows, and Apply says why.
        d.set(Field::Streams(a, StreamsField::ApplicationId), "pushed");
        assert_eq!(d.scenario().commands[2].command, Command::CrashMember { group: "count".into(), client_id: "count-2".into() });
        assert!(matches!(d.finish(), Err(Problem::Invalid(e)) if e.path == "streams[0].application_id"));
    }

    /// A numeric field with a row in the core's limits table is edited within that row's
    /// bounds, and its JSON path is the row's path: the editor and the scenario checks read
    /// one table.
    #[test]
    fn numeric_fields_take_their_bounds_from_the_limits_table() {
        let d = two_groups();
        let p = d.producer_keys()[0];
        let m = d.member_keys(0)[0];
        let fields = [
            Field::DurationMs,
            Field::Cluster(ClusterField::Brokers),
            Field::Cluster(ClusterField::NetworkLatencyMs),
            Field::Cluster(ClusterField::ReplicaFetchWaitMaxMs),
            Field::Cluster(ClusterField::ReplicaLagTimeMaxMs),
            Field::Cluster(ClusterField::LogRetentionCheckIntervalMs),
            Field::Cluster(ClusterField::BrokerSessionTimeoutMs),
            Field::Cluster(ClusterField::GroupInitialRebalanceDelayMs),
            Field::Cluster(ClusterField::GroupConsumerHeartbeatIntervalMs),
            Field::Cluster(ClusterField::GroupConsumerSessionTimeoutMs),
            Field::Producer(p, ProducerField::LingerMs),
            Field::Producer(p, ProducerField::BatchSize),
            Field::Producer(p, ProducerField::RetryBackoffMs),
            Field::Producer(p, ProducerField::RetryBackoffMaxMs),
            Field::Producer(p, ProducerField::RequestTimeoutMs),
            Field::Producer(p, ProducerField::DeliveryTimeoutMs),
            Field::Member(m, MemberField::ProcessingMs),
            Field::Member(m, MemberField::MaxPollRecords),
            Field::Member(m, MemberField::FetchMaxWaitMs),
            Field::Member(m, MemberField::SessionTimeoutMs),
            Field::Member(m, MemberField::HeartbeatIntervalMs),
            Field::Member(m, MemberField::MaxPollIntervalMs),
            Field::Member(m, MemberField::MetadataMaxAgeMs),
            Field::Member(m, MemberField::AutoCommitIntervalMs),
        ];
        let mut reached = Vec::new();
        for f in fields {
            let path = d.path(f).expect("a path");
            let row = limits::range_of(&path).unwrap_or_else(|| panic!("{path} has a row"));
            let (lo, hi) = match d.kind(f) {
                Kind::Number { lo, hi } | Kind::OptNumber { lo, hi } => (lo, hi),
                other => panic!("{path} is {other:?}"),
            };
            assert_eq!((lo, hi), (row.min as i64, (row.max != u64::MAX).then_some(row.max)), "{path}");
            reached.push(row.path);
        }
        // `at_ms` is edited in the timeline's own list.
        let elsewhere = ["commands[].at_ms"];
        let missing: Vec<&str> = limits::TABLE.iter().map(|r| r.path).filter(|p| !reached.contains(p) && !elsewhere.contains(p)).collect();
        assert!(missing.is_empty(), "rows no editor field uses: {missing:?}");
    }

    #[test]
    fn fields_show_the_scenario_and_name_their_place_in_the_format() {
        let d = two_groups();
        let t = d.topic_keys()[0];
        assert_eq!(d.get(Field::Cluster(ClusterField::Brokers)), "3");
        assert_eq!(d.get(Field::Topic(t, TopicField::Partitions)), "4");
        assert_eq!(d.get(Field::Topic(t, TopicField::ReplicationFactor)), "3");
        assert_eq!(d.path(Field::Topic(t, TopicField::ReplicationFactor)).as_deref(), Some("topics[0].replication_factor"));
        let plan = d.send_keys(0)[0];
        assert_eq!(d.get(Field::Send(plan, SendField::Values)), "m1, m2, m3, m4, m5, m6, m7");
        assert_eq!(d.get(Field::Send(plan, SendField::Count)), "7");
        assert_eq!(d.get(Field::Send(plan, SendField::Keys)), "");
        let p = d.producer_keys()[0];
        assert_eq!(d.get(Field::Producer(p, ProducerField::Partitioner)), "round_robin");
        assert_eq!(d.get(Field::Producer(p, ProducerField::Acks)), "all");
        assert_eq!(d.get(Field::Producer(p, ProducerField::Idempotence)), "default");
        let g = d.group_keys()[0];
        assert_eq!(d.get(Field::Group(g, GroupField::Assignor)), "roundrobin");
        assert_eq!(d.get(Field::GroupTopic(g, t)), "true");
        let m = d.member_keys(0)[1];
        assert_eq!(d.get(Field::Member(m, MemberField::ClientId)), "Consumer2");
        assert_eq!(
            d.path(Field::Member(m, MemberField::SessionTimeoutMs)).as_deref(),
            Some("groups[0].members[1].config.session_timeout_ms")
        );
        assert_eq!(d.get(Field::Member(m, MemberField::CommitMode)), "auto");
        assert_eq!(dom_id("groups[0].members[1].config.session_timeout_ms"), "ed-groups-0-members-1-config-session_timeout_ms");
        assert_eq!(dom_id("cluster.brokers"), "ed-cluster-brokers");
    }

    #[test]
    fn numbers_selects_and_boxes_set_the_scenario() {
        let mut d = two_groups();
        let (t, p, g, m) = (d.topic_keys()[0], d.producer_keys()[0], d.group_keys()[0], d.member_keys(0)[0]);
        d.set(Field::Cluster(ClusterField::Brokers), "5");
        d.set(Field::Topic(t, TopicField::Partitions), " 6 ");
        d.set(Field::Topic(t, TopicField::RetentionMs), "-1");
        d.set(Field::Topic(t, TopicField::UncleanLeaderElection), "true");
        d.set(Field::Topic(t, TopicField::TimestampType), "LogAppendTime");
        d.set(Field::Producer(p, ProducerField::Acks), "1");
        d.set(Field::Producer(p, ProducerField::Idempotence), "false");
        d.set(Field::Group(g, GroupField::Protocol), "consumer");
        d.set(Field::Group(g, GroupField::RemoteAssignor), "range");
        d.set(Field::Member(m, MemberField::InstanceId), "static-1");
        d.set(Field::Member(m, MemberField::CommitMode), "before_processing");
        d.set(Field::Member(m, MemberField::SessionTimeoutMs), "6000");
        d.set(Field::DurationMs, "");
        let Ok(s) = d.finish() else { panic!("{:?}", d.finish()) };
        assert_eq!(s.cluster.brokers, 5);
        let topic = &s.topics[0];
        assert_eq!((topic.partitions, topic.retention_ms, topic.unclean_leader_election_enable), (6, -1, true));
        assert_eq!(topic.message_timestamp_type, TimestampType::LogAppendTime);
        assert_eq!((s.producers[0].config.acks, s.producers[0].config.enable_idempotence), (Acks::Leader, Some(false)));
        assert_eq!(s.groups[0].config.group_protocol, GroupProtocol::Consumer);
        assert_eq!(s.groups[0].config.remote_assignor, ServerAssignor::Range);
        let member = &s.groups[0].members[0];
        assert_eq!(member.group_instance_id.as_deref(), Some("static-1"));
        assert_eq!(member.config.commit_mode, CommitMode::BeforeProcessing);
        assert_eq!(member.config.session_timeout_ms, 6000);
        assert_eq!(s.duration_ms, None);
        // The typed text stays as typed.
        assert_eq!(d.get(Field::Topic(t, TopicField::Partitions)), " 6 ");
        // An unknown select value changes nothing.
        d.set(Field::Producer(p, ProducerField::Acks), "2");
        assert_eq!(d.scenario().producers[0].config.acks, Acks::Leader);
    }

    #[test]
    fn a_text_that_is_no_number_is_kept_and_refused_at_apply_with_its_place() {
        let mut d = two_groups();
        let t = d.topic_keys()[0];
        let f = Field::Topic(t, TopicField::Partitions);
        for text in ["", "-2", "1.5", "99999999999"] {
            d.set(f, text);
            assert!(d.is_bad(f), "{text:?}");
            assert_eq!(d.get(f), text);
            assert_eq!(d.scenario().topics[0].partitions, 4, "the value stays");
            assert_eq!(
                d.finish(),
                Err(Problem::Unreadable { path: "topics[0].partitions".into(), text: text.into(), lo: 1, hi: Some(256) })
            );
        }
        d.set(f, "8");
        assert!(!d.is_bad(f));
        assert_eq!(d.finish().map(|s| s.topics[0].partitions), Ok(8));
    }

    #[test]
    fn apply_is_refused_with_the_cores_own_message() {
        let mut d = two_groups();
        let t = d.topic_keys()[0];
        d.set(Field::Topic(t, TopicField::ReplicationFactor), "5");
        let Err(Problem::Invalid(e)) = d.finish() else { panic!("{:?}", d.finish()) };
        assert_eq!(e.path, "topics[0].replication_factor");
        assert_eq!(e.to_string(), "topics[0].replication_factor: topic \"Topic01\" asks for 5 replicas but the cluster has 3 broker(s)");
        // Exactly what loading the JSON says.
        let mut s = default_scenario();
        s.topics[0].replication_factor = 5;
        assert_eq!(Scenario::from_json(&s.to_json_pretty()).err().map(|e| e.to_string()), Some(e.to_string()));
    }

    #[test]
    fn adding_and_removing_items_keeps_every_key_on_its_item() {
        let mut d = two_groups();
        d.add_topic();
        d.add_topic();
        assert_eq!(d.scenario().topics.iter().map(|t| t.name.as_str()).collect::<Vec<_>>(), ["Topic01", "Topic02", "Topic03"]);
        assert_eq!((d.scenario().topics[1].partitions, d.scenario().topics[1].replication_factor), (3, 3));
        let (second, third) = (d.topic_keys()[1], d.topic_keys()[2]);
        d.set(Field::Topic(third, TopicField::Partitions), "abc");
        d.remove_topic(second);
        // The third topic's field still reaches it, and its unread text stays with it.
        assert_eq!(d.path(Field::Topic(third, TopicField::Partitions)).as_deref(), Some("topics[1].partitions"));
        assert!(d.is_bad(Field::Topic(third, TopicField::Partitions)));
        d.set(Field::Topic(third, TopicField::Partitions), "7");
        assert_eq!(d.scenario().topics[1].partitions, 7);
        assert_eq!(d.path(Field::Topic(second, TopicField::Partitions)), None);
        d.set(Field::Topic(second, TopicField::Partitions), "9");
        assert_eq!(d.scenario().topics.iter().map(|t| t.partitions).collect::<Vec<_>>(), [4, 7]);

        d.add_producer();
        assert_eq!(d.scenario().producers[1].name, "Producer2");
        assert_eq!(d.scenario().producers[1].send[0].values.len(), 10);
        d.add_send(d.producer_keys()[1]);
        assert_eq!(d.send_keys(1).len(), 2);
        d.remove_send(d.send_keys(1)[0]);
        assert_eq!(d.scenario().producers[1].send.len(), 1);
        d.remove_producer(d.producer_keys()[0]);
        assert_eq!(d.scenario().producers.iter().map(|p| p.name.as_str()).collect::<Vec<_>>(), ["Producer2"]);

        d.add_group();
        assert_eq!(d.scenario().groups[2].id, "ConsumerGroup03");
        assert_eq!(d.scenario().groups[2].members[0].client_id, "Consumer1");
        let g1 = d.group_keys()[0];
        d.set(Field::Member(d.member_keys(0)[1], MemberField::SessionTimeoutMs), "6000");
        d.add_member(g1);
        let added = &d.scenario().groups[0].members[2];
        assert_eq!(added.client_id, "Consumer3");
        assert_eq!(added.config.session_timeout_ms, 6000, "a new member takes the last one's settings");
        d.remove_member(d.member_keys(0)[0]);
        assert_eq!(d.scenario().groups[0].members.iter().map(|m| m.client_id.as_str()).collect::<Vec<_>>(), ["Consumer2", "Consumer3"]);
        d.remove_group(d.group_keys()[1]);
        assert_eq!(d.scenario().groups.iter().map(|g| g.id.as_str()).collect::<Vec<_>>(), ["ConsumerGroup01", "ConsumerGroup03"]);
        assert!(d.finish().is_ok(), "{:?}", d.finish());
        assert_in_sync(&d);
    }

    #[test]
    fn removing_a_topic_takes_its_plans_and_subscriptions_with_it() {
        let mut d = two_groups();
        d.add_topic();
        let (t1, t2) = (d.topic_keys()[0], d.topic_keys()[1]);
        let (g, m) = (d.group_keys()[0], d.member_keys(0)[0]);
        d.set(Field::GroupTopic(g, t2), "true");
        d.set(Field::MemberTopic(m, t2), "true");
        assert_eq!(d.scenario().groups[0].topics, ["Topic01", "Topic02"]);
        assert_eq!(d.scenario().groups[0].members[0].topics, Some(vec!["Topic02".to_string()]));
        d.remove_topic(t1);
        assert!(d.scenario().producers[0].send.is_empty());
        assert_eq!(d.send_keys(0).len(), 0);
        assert_eq!(d.scenario().groups[0].topics, ["Topic02"]);
        assert!(d.scenario().groups[1].topics.is_empty(), "refused at Apply: a group needs a topic");
        d.set(Field::MemberTopic(m, t2), "false");
        assert_eq!(d.scenario().groups[0].members[0].topics, None, "no topic ticked: the group's");
        assert_in_sync(&d);
    }

    #[test]
    fn renames_follow_into_plans_subscriptions_and_the_timeline_unless_ambiguous() {
        let mut s = default_scenario();
        s.commands = vec![
            TimedCommand {
                at_ms: 9000,
                command: Command::AddMember { group: "ConsumerGroup01".into(), member: MemberSpec::new("Consumer3") },
            },
            TimedCommand { at_ms: 9500, command: Command::CrashMember { group: "ConsumerGroup01".into(), client_id: "Consumer1".into() } },
            TimedCommand { at_ms: 9600, command: Command::CrashMember { group: "ConsumerGroup02".into(), client_id: "Consumer1".into() } },
            TimedCommand { at_ms: 9700, command: Command::SetAcks { producer: "Producer1".into(), acks: Acks::Leader } },
            TimedCommand { at_ms: 9800, command: Command::AddPartitions { topic: "Topic01".into(), partitions: 6 } },
        ];
        let mut d = Draft::new(s);
        let (t, p, g, m) = (d.topic_keys()[0], d.producer_keys()[0], d.group_keys()[0], d.member_keys(0)[0]);
        // Typed one key at a time: every step renames what refers to the previous one.
        for name in ["o", "or", "orders"] {
            d.set(Field::Topic(t, TopicField::Name), name);
        }
        d.set(Field::Producer(p, ProducerField::Name), "shop");
        d.set(Field::Group(g, GroupField::Id), "billing");
        d.set(Field::Member(m, MemberField::ClientId), "c1");
        let Ok(s) = d.finish() else { panic!("{:?}", d.finish()) };
        assert_eq!(s.producers[0].send[0].topic, "orders");
        assert!(s.groups.iter().all(|g| g.topics == ["orders"]));
        let c: Vec<&Command> = s.commands.iter().map(|c| &c.command).collect();
        assert_eq!(c[0], &Command::AddMember { group: "billing".into(), member: MemberSpec::new("Consumer3") });
        assert_eq!(c[1], &Command::CrashMember { group: "billing".into(), client_id: "c1".into() });
        assert_eq!(
            c[2],
            &Command::CrashMember { group: "ConsumerGroup02".into(), client_id: "Consumer1".into() },
            "another group's Consumer1"
        );
        assert_eq!(c[3], &Command::SetAcks { producer: "shop".into(), acks: Acks::Leader });
        assert_eq!(c[4], &Command::AddPartitions { topic: "orders".into(), partitions: 6 });

        // Renaming onto another item's name merges nothing: references stay, and Apply says why.
        d.add_group();
        let g3 = d.group_keys()[2];
        d.set(Field::Group(g3, GroupField::Id), "billing");
        assert_eq!(d.scenario().commands[0].command, Command::AddMember { group: "billing".into(), member: MemberSpec::new("Consumer3") });
        assert!(matches!(d.finish(), Err(Problem::Invalid(e)) if e.path == "groups[2]"), "{:?}", d.finish());
        d.set(Field::Group(g3, GroupField::Id), "billing2");
        assert_eq!(d.scenario().groups[0].id, "billing");
        assert_eq!(d.scenario().commands[1].command, Command::CrashMember { group: "billing".into(), client_id: "c1".into() });
        assert!(d.finish().is_ok());
    }

    #[test]
    fn the_count_resizes_values_and_keys_and_lists_read_commas() {
        let mut d = two_groups();
        let plan = d.send_keys(0)[0];
        d.set(Field::Send(plan, SendField::Keys), "a, , b");
        assert_eq!(d.scenario().producers[0].send[0].keys, Some(vec![Some("a".into()), None, Some("b".into())]));
        assert!(matches!(d.finish(), Err(Problem::Invalid(e)) if e.path == "producers[0].send[0].keys"));
        d.set(Field::Send(plan, SendField::Count), "3");
        assert_eq!(d.scenario().producers[0].send[0].values, ["m1", "m2", "m3"]);
        assert!(d.finish().is_ok());
        d.set(Field::Send(plan, SendField::Count), "5");
        let s = &d.scenario().producers[0].send[0];
        assert_eq!(s.values, ["m1", "m2", "m3", "m4", "m5"]);
        assert_eq!(s.keys, Some(vec![Some("a".into()), None, Some("b".into()), Some("a".into()), None]));
        assert_eq!(d.get(Field::Send(plan, SendField::Keys)), "a, , b, a, ");
        d.set(Field::Send(plan, SendField::Values), "x,y");
        assert_eq!(d.get(Field::Send(plan, SendField::Count)), "2");
        assert_eq!(d.get(Field::Send(plan, SendField::Values)), "x,y", "as typed");
        d.set(Field::Send(plan, SendField::Keys), " ");
        assert_eq!(d.scenario().producers[0].send[0].keys, None);
        d.set(Field::Send(plan, SendField::Count), "10001");
        assert!(d.is_bad(Field::Send(plan, SendField::Count)));
        assert_eq!(split_list(""), Vec::<String>::new());
    }

    #[test]
    fn new_names_take_the_first_free_number() {
        assert_eq!(next_name("Topic", 2, ["Topic01", "Topic03"].into_iter()), "Topic02");
        assert_eq!(next_name("Producer", 1, [].into_iter()), "Producer1");
        let mut d = two_groups();
        for _ in 0..20 {
            d.add_topic();
        }
        assert_eq!(d.scenario().topics.len(), MAX_TOPICS, "no more than the core accepts");
        assert!(!d.can_add_topic());
    }

    #[test]
    fn limits_follow_the_cluster_and_the_topic() {
        let mut d = two_groups();
        let t = d.topic_keys()[0];
        assert_eq!(d.kind(Field::Topic(t, TopicField::ReplicationFactor)), Kind::Number { lo: 1, hi: Some(3) });
        d.set(Field::Cluster(ClusterField::Brokers), "5");
        assert_eq!(d.kind(Field::Topic(t, TopicField::ReplicationFactor)), Kind::Number { lo: 1, hi: Some(5) });
        assert_eq!(d.kind(Field::Topic(t, TopicField::MinInsyncReplicas)), Kind::Number { lo: 1, hi: Some(3) });
        assert_eq!(d.kind(Field::Topic(t, TopicField::RetentionMs)), Kind::Number { lo: -1, hi: Some(i64::MAX as u64) });
        assert_eq!(d.kind(Field::Cluster(ClusterField::NetworkLatencyMs)), Kind::Number { lo: 0, hi: Some(60_000) });
        assert_eq!(d.kind(Field::Cluster(ClusterField::ReplicaFetchWaitMaxMs)), Kind::Number { lo: 1, hi: Some(60_000) });
        assert_eq!(
            d.kind(Field::Group(d.group_keys()[0], GroupField::Assignor)),
            Kind::Choice(&["range", "roundrobin", "sticky", "cooperative-sticky"])
        );
    }
}
