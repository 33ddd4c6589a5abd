//! Refusals of the sandbox's inputs: what is wrong ([`Problem`], a typed value with its
//! parameters), and where (a JSON path, a line and column). `Display` is the English; the
//! page renders each variant in Chinese from the value (`web/src/messages.rs`).
//!
//! A Kafka feature's own refusals are an enum of their own in a file of their own here
//! ([`ConnectProblem`] in `error/connect.rs`, [`StreamsProblem`] in `error/streams.rs`),
//! checked by the feature's file in `sim/`. They live here, not in `sim/`, because
//! refusals are a vocabulary (L1): `Problem` names them, the page reads them, and neither
//! may reach the engine's layer (L3, `tests/tidy.rs`).

mod compaction;
mod connect;
mod streams;

pub use compaction::CompactionProblem;
pub use connect::{ConnectProblem, TableList};
pub use streams::StreamsProblem;

use crate::command::CommandError;
use crate::limits::{self, Range};
use std::fmt;

/// What is wrong with a scenario, and where.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScenarioError {
    /// Where: a JSON path such as `groups[1].members[0]`; empty for the whole text.
    pub path: String,
    /// Where in the text, for a mistake found while reading the JSON: line and column.
    pub line_column: Option<(usize, usize)>,
    /// What is wrong, with its parameters.
    pub problem: Problem,
}

impl ScenarioError {
    pub(crate) fn at(path: impl Into<String>, problem: impl Into<Problem>) -> Self {
        Self { path: path.into(), line_column: None, problem: problem.into() }
    }

    /// The place as the English refusal writes it: `topics[0].partitions (line 4, column 20)`,
    /// `line 1, column 1`, or the path alone (empty for the whole text).
    pub fn place(&self) -> String {
        place(&self.path, self.line_column)
    }
}

/// A refusal's place as the English writes it: `path (line L, column C)`, `line L, column
/// C`, or the path alone (empty for the whole text).
pub(crate) fn place(path: &str, line_column: Option<(usize, usize)>) -> String {
    match (path, line_column) {
        (path, None) => path.to_string(),
        ("", Some((line, column))) => format!("line {line}, column {column}"),
        (path, Some((line, column))) => format!("{path} (line {line}, column {column})"),
    }
}

/// Which kind of thing a name names, where a scenario defines it twice.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Defined {
    /// A topic (`topics[].name`).
    Topic,
    /// A producer (`producers[].name`).
    Producer,
    /// A topic id (`topics[].topic_id`).
    TopicId,
}

/// A number of a timeline command that a running simulation would cap silently.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Capped {
    /// `set_processing`'s `processing_ms` (at most [`limits::MAX_PROCESSING_MS`]).
    ProcessingMs,
    /// `slow_broker`'s `slow_ms` (at most [`limits::MAX_SLOW_MS`]).
    SlowMs,
}

impl Capped {
    /// The field's name in the format.
    pub fn field(self) -> &'static str {
        match self {
            Capped::ProcessingMs => "processing_ms",
            Capped::SlowMs => "slow_ms",
        }
    }

    /// The most it may be.
    pub fn max(self) -> u64 {
        match self {
            Capped::ProcessingMs => limits::MAX_PROCESSING_MS,
            Capped::SlowMs => limits::MAX_SLOW_MS,
        }
    }
}

/// A mistake found while reading the JSON text, before any check of the values. `serde`
/// carries serde_json's own words (its message without its place, with its type names
/// given in the format's words, `scenario::plain_words`): they are serde's, not ours, and
/// the page translates their few fixed forms (`missing field`, `unknown field`, …).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum JsonProblem {
    /// Not JSON at all (serde_json's syntax or end-of-file message).
    Syntax {
        /// serde_json's message, without its place.
        serde: String,
    },
    /// A number where one of an enum's strings belongs (`"acks": 1`).
    EnumAsNumber,
    /// Valid JSON of the wrong shape: a missing or unknown field, a wrong type or value.
    Shape {
        /// serde_json's message, without its place, in the format's words.
        serde: String,
    },
}

/// What an idempotent producer needs (`ProducerConfig.postProcessAndValidateIdempotenceConfigs`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IdempotenceRule {
    /// `acks` must be `all`.
    AcksAll,
    /// `retries` must be above 0.
    RetriesAboveZero,
    /// `max.in.flight.requests.per.connection` must be at most 5.
    InFlightAtMostFive,
}

/// What is wrong with a scenario: every refusal of `Scenario::from_json`, `check` and
/// `build`, with its parameters.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Problem {
    /// The text is longer than [`limits::MAX_SCENARIO_BYTES`].
    TooBig {
        /// The text's length in bytes.
        bytes: usize,
    },
    /// Written out with every default, the scenario would be longer than the limit.
    WrittenTooBig {
        /// The written-out length in bytes.
        bytes: usize,
    },
    /// The text is JSON but not an object.
    NotAnObject,
    /// `version` is a number other than `supported`.
    VersionUnsupported {
        /// The `version` as written.
        version: String,
        /// The format version this build reads:
        /// [`FORMAT_VERSION`](crate::scenario::FORMAT_VERSION).
        supported: u32,
    },
    /// `version` is not a number; `written` is its JSON.
    VersionNotANumber {
        /// The `version`'s value as JSON.
        written: String,
        /// The format version this build reads, the number to write instead.
        supported: u32,
    },
    /// The scenario object has no `version`: it needs one, set to `supported`.
    VersionMissing {
        /// The format version this build reads.
        supported: u32,
    },
    /// The text is not JSON, or JSON of the wrong shape.
    Json(JsonProblem),
    /// A number outside its row of the limits table.
    OutOfRange {
        /// The row of the limits table ([`limits::TABLE`]) the number is checked against.
        range: &'static Range,
        /// The number given.
        value: u64,
    },
    /// `group_consumer_session_timeout_ms` not above the heartbeat interval.
    SessionNotAboveHeartbeat {
        /// `cluster.group_consumer_session_timeout_ms` as given, in ms.
        session_ms: u64,
        /// `cluster.group_consumer_heartbeat_interval_ms` as given, in ms.
        heartbeat_ms: u64,
    },
    /// `topics` is empty: a scenario needs at least one topic.
    NoTopics,
    /// More than [`limits::MAX_TOPICS`] topics.
    TooManyTopics {
        /// How many topics the scenario defines.
        count: usize,
    },
    /// More than [`limits::MAX_PRODUCERS`] producers.
    TooManyProducers {
        /// How many producers the scenario defines.
        count: usize,
    },
    /// A topic's partition count outside its row, [`limits::TOPIC_PARTITIONS`].
    Partitions {
        /// The topic's name.
        topic: String,
        /// The partition count given.
        partitions: u32,
    },
    /// More replicas than brokers (or none).
    ReplicationFactor {
        /// The topic's name.
        topic: String,
        /// The `replication_factor` given.
        replicas: u32,
        /// The cluster's broker count (`cluster.brokers`).
        brokers: u32,
    },
    /// `min_insync_replicas` outside 1 to the replication factor.
    MinInsyncReplicas {
        /// The `min_insync_replicas` given.
        value: u32,
        /// The topic's replication factor, the most it may be.
        replication_factor: u32,
    },
    /// A topic's `retention_ms` below -1 (-1 is no time limit; 0 and up are milliseconds).
    RetentionMs {
        /// The `retention_ms` given.
        value: i64,
    },
    /// A topic's `retention_bytes` below -1 (-1 is no size limit; 0 and up are bytes per
    /// partition).
    RetentionBytes {
        /// The `retention_bytes` given.
        value: i64,
    },
    /// Outside [`limits::TOPIC_SEGMENT_BYTES`].
    SegmentBytes {
        /// The `segment_bytes` given.
        value: u32,
    },
    /// Outside [`limits::TOPIC_SEGMENT_MS`].
    SegmentMs {
        /// The `segment_ms` given.
        value: u64,
    },
    /// `max_in_flight_requests_per_connection` is 0.
    MaxInFlightZero,
    /// `buffer_memory` is smaller than `batch_size`: no batch would ever fit in the pool
    /// (Kafka's `BufferPool.allocate` throws `IllegalArgumentException` from every `send()`).
    BufferMemoryBelowBatchSize {
        /// `buffer_memory` as given, in bytes.
        buffer_memory: u64,
        /// `batch_size` as given, in bytes.
        batch_size: u32,
    },
    /// `enable_idempotence` is `true` but this setting rules idempotence out: Kafka's
    /// producer refuses to start (`ProducerConfig.postProcessAndValidateIdempotenceConfigs`).
    IdempotenceConflict {
        /// The setting that conflicts.
        rule: IdempotenceRule,
    },
    /// Two topics, or two producers, with one name.
    Duplicate {
        /// Whether the name is a topic's or a producer's.
        what: Defined,
        /// The name defined twice.
        name: String,
    },
    /// A `topic_id` that is not a Kafka topic id.
    TopicId {
        /// The text given.
        value: String,
        /// What is wrong with it.
        why: crate::uuid::UuidProblem,
    },
    /// A planned send's keys and values differ in number.
    KeysForValues {
        /// How many keys it gives.
        keys: usize,
        /// How many values it gives (one key, or null, is needed per value).
        values: usize,
    },
    /// A planned send's key or value is longer than [`limits::MAX_VALUE_CHARS`].
    PlannedValueTooLong,
    /// A planned send's last value comes after [`limits::MAX_TIME_MS`].
    SendTooLate {
        /// When the last value would be sent, in ms of simulated time.
        last_ms: u64,
    },
    /// More than [`limits::MAX_TIMELINE`] timeline entries: commands, planned sends' values
    /// and the connectors' table changes together.
    TooManyTimelineEntries {
        /// How many entries the scenario has.
        entries: usize,
        /// Whether it has connectors (then their table changes count too, and the English
        /// names them).
        with_connectors: bool,
    },
    /// A timeline command's number above what a running simulation would take.
    Capped {
        /// Which number.
        what: Capped,
        /// The number given.
        value: u64,
    },
    /// Refused as the simulation refuses the same command (`Sim::apply`): a name, a
    /// reference, a group or member setting.
    Command(Box<CommandError>),
    /// A timeline command refused against the groups and members that exist by its moment:
    /// the simulation's refusal, said with "by then".
    ByThen(Box<CommandError>),
    /// A source connector's refusal (`connectors[]`, checked by `sim/connect.rs`).
    Connect(ConnectProblem),
    /// A Streams application's refusal (`streams[]`, checked by `sim/streams.rs`).
    Streams(StreamsProblem),
    /// A compaction setting's refusal (`topics[]`' cleanup settings, issue 19).
    Compaction(CompactionProblem),
    /// Groups (consumer groups, Streams applications, Connect's workers) on fewer brokers
    /// than `cluster.offsets_topic_replication_factor`: Kafka cannot create
    /// `__consumer_offsets`, so no group would ever find its coordinator.
    OffsetsTopicReplication {
        /// `cluster.offsets_topic_replication_factor` as given.
        replication_factor: u32,
        /// `cluster.brokers`.
        brokers: u32,
    },
}

impl From<ConnectProblem> for Problem {
    fn from(p: ConnectProblem) -> Self {
        Problem::Connect(p)
    }
}

impl From<StreamsProblem> for Problem {
    fn from(p: StreamsProblem) -> Self {
        Problem::Streams(p)
    }
}

impl From<CompactionProblem> for Problem {
    fn from(p: CompactionProblem) -> Self {
        Problem::Compaction(p)
    }
}

/// `value` at `path` within its row of the limits table (`limits::TABLE`); outside it, a
/// refusal carrying the row and the value.
pub(crate) fn within(path: &str, value: u64, range: &'static Range) -> Result<(), ScenarioError> {
    debug_assert_eq!(limits::range_of(path), Some(range), "{path} is checked against the row of its own path");
    if range.allows(value) {
        return Ok(());
    }
    Err(ScenarioError::at(path, Problem::OutOfRange { range, value }))
}

impl From<CommandError> for Problem {
    fn from(e: CommandError) -> Self {
        Problem::Command(Box::new(e))
    }
}

impl Problem {
    /// A timeline command's refusal about the groups and members by its moment.
    pub fn by_then(e: CommandError) -> Self {
        Problem::ByThen(Box::new(e))
    }
}

impl From<JsonProblem> for Problem {
    fn from(e: JsonProblem) -> Self {
        Problem::Json(e)
    }
}

impl fmt::Display for JsonProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            JsonProblem::Syntax { serde } => write!(f, "not valid JSON ({serde})"),
            JsonProblem::EnumAsNumber => f.write_str("expected one of the allowed values, as a JSON string (for acks: \"1\", not 1)"),
            JsonProblem::Shape { serde } => f.write_str(serde),
        }
    }
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use limits::{MAX_PRODUCERS, MAX_SCENARIO_BYTES, MAX_TIMELINE, MAX_TIME_MS, MAX_TOPICS, MAX_VALUE_CHARS};
        match self {
            Problem::TooBig { bytes } => write!(f, "the scenario is {bytes} bytes; the most accepted is {MAX_SCENARIO_BYTES}"),
            Problem::WrittenTooBig { bytes } => write!(
                f,
                "written out with every default filled in, the scenario takes {bytes} bytes; the most accepted is {MAX_SCENARIO_BYTES} (use fewer timeline entries)"
            ),
            Problem::NotAnObject => f.write_str("a scenario is a JSON object: { \"version\": 1, \"topics\": [...], ... }"),
            Problem::VersionUnsupported { version, supported } => {
                write!(f, "version {version} is not supported; this build reads version {supported}")
            }
            Problem::VersionNotANumber { written, supported } => {
                write!(f, "is {written}; write the number {supported}: \"version\": {supported}")
            }
            Problem::VersionMissing { supported } => write!(f, "missing; write \"version\": {supported}"),
            Problem::Json(j) => j.fmt(f),
            Problem::OutOfRange { range, value } => f.write_str(&range.refusal(*value)),
            Problem::SessionNotAboveHeartbeat { session_ms, heartbeat_ms } => {
                write!(f, "is {session_ms}; it must be above group_consumer_heartbeat_interval_ms ({heartbeat_ms})")
            }
            Problem::NoTopics => f.write_str("a scenario needs at least one topic"),
            Problem::TooManyTopics { count } => write!(f, "{count} topics; allowed: 1 to {MAX_TOPICS}"),
            Problem::TooManyProducers { count } => write!(f, "{count} producers; allowed: at most {MAX_PRODUCERS}"),
            Problem::Partitions { topic, partitions } => {
                let row = &limits::TOPIC_PARTITIONS;
                write!(f, "topic \"{topic}\" has {partitions} partitions; allowed: {} to {}", row.min, row.max)
            }
            Problem::ReplicationFactor { topic, replicas, brokers } => {
                write!(f, "topic \"{topic}\" asks for {replicas} replicas but the cluster has {brokers} broker(s)")
            }
            Problem::MinInsyncReplicas { value, replication_factor } => {
                write!(f, "is {value}; allowed: 1 to the replication factor ({replication_factor})")
            }
            Problem::RetentionMs { value } => write!(f, "is {value}; allowed: -1 (no time limit) or 0 and more milliseconds"),
            Problem::RetentionBytes { value } => write!(f, "is {value}; allowed: -1 (no size limit) or 0 and more bytes per partition"),
            Problem::SegmentBytes { value } => write!(f, "is {value}; allowed: {}", limits::TOPIC_SEGMENT_BYTES.allowed()),
            Problem::SegmentMs { value } => {
                let row = &limits::TOPIC_SEGMENT_MS;
                write!(f, "is {value}; allowed: {} to {} milliseconds", row.min, row.max)
            }
            Problem::MaxInFlightZero => f.write_str("is 0; allowed: 1 or more (max.in.flight.requests.per.connection is at least 1)"),
            Problem::BufferMemoryBelowBatchSize { buffer_memory, batch_size } => {
                write!(f, "is {buffer_memory}; allowed: at least batch_size ({batch_size}): a batch must fit in buffer.memory")
            }
            Problem::IdempotenceConflict { rule } => {
                let needs = match rule {
                    IdempotenceRule::AcksAll => "acks \"all\"",
                    IdempotenceRule::RetriesAboveZero => "retries above 0",
                    IdempotenceRule::InFlightAtMostFive => "max_in_flight_requests_per_connection at most 5",
                };
                write!(f, "conflicts with enable_idempotence true, which needs {needs} (Kafka's producer refuses to start otherwise); set enable_idempotence to false or change this setting")
            }
            Problem::Duplicate { what, name } => {
                let what = match what {
                    Defined::Topic => "topic",
                    Defined::Producer => "producer",
                    Defined::TopicId => "topic id",
                };
                write!(f, "{what} \"{name}\" is defined twice")
            }
            Problem::TopicId { value, why } => write!(f, "\"{value}\" is not a topic id: {why}"),
            Problem::KeysForValues { keys, values } => write!(f, "{keys} keys for {values} values; give one key (or null) per value"),
            Problem::PlannedValueTooLong => write!(f, "keys and values may have at most {MAX_VALUE_CHARS} characters"),
            Problem::SendTooLate { last_ms } => {
                write!(f, "the last value would be sent at {last_ms} ms; everything must happen by {MAX_TIME_MS} ms (one week)")
            }
            Problem::TooManyTimelineEntries { entries, with_connectors } => {
                let what = if *with_connectors { "commands, planned sends and table changes" } else { "commands plus planned sends" };
                write!(f, "{entries} timeline entries ({what}); allowed: at most {MAX_TIMELINE}")
            }
            Problem::Capped { what, value } => {
                let note = match what {
                    Capped::ProcessingMs => " (one hour per record)",
                    Capped::SlowMs => " (one hour)",
                };
                write!(f, "{} is {value}; allowed: 0 to {}{note}", what.field(), what.max())
            }
            Problem::Command(e) => e.fmt(f),
            Problem::ByThen(e) => write!(f, "{e} by then"),
            Problem::Connect(p) => p.fmt(f),
            Problem::Streams(p) => p.fmt(f),
            Problem::Compaction(p) => p.fmt(f),
            Problem::OffsetsTopicReplication { replication_factor, brokers } => write!(
                f,
                "is {replication_factor} but the cluster has {brokers} broker{}: Kafka creates __consumer_offsets only with that many live brokers, and until then every group gets COORDINATOR_NOT_AVAILABLE; allowed: 1 to {brokers} (set it to 1, as Kafka's single-broker config/server.properties does)",
                if *brokers == 1 { "" } else { "s" }
            ),
        }
    }
}

impl fmt::Display for ScenarioError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let place = self.place();
        if place.is_empty() {
            self.problem.fmt(f)
        } else {
            write!(f, "{place}: {}", self.problem)
        }
    }
}

impl std::error::Error for ScenarioError {}
