//! Lessons: a scenario plus narrated steps, claims the simulation must confirm, and
//! predict-then-reveal questions whose correct answer the simulation computes.
//!
//! A lesson is data (a versioned JSON file, `core/lessons/*.json`, documented in
//! docs/lesson-format.md): every text exists in English and Chinese in the same place, so
//! both languages have the same steps by construction. [`check`] runs a lesson and
//! reports every claim the simulation contradicts and every question that has not exactly
//! one correct choice; the test suite runs it on every built-in lesson, so narration that
//! disagrees with the simulation fails the build.

use crate::command::{Command, CommandError};
use crate::event::{GroupEvent, ProduceEvent};
use crate::read::{
    Activity, ConnectorRead, GroupRead, GroupState, LogRead, MemberRead, PartitionRead, Phase, ProducerRead, Read, SentRecord,
    SourceOffset, TopicRead,
};
use crate::record::BrokerId;
use crate::scenario::{self, Problem, Scenario, ScenarioError};
use crate::sim::Sim;
use crate::tagged::tagged_reader;
use crate::time::SimTime;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::fmt;

/// The lesson format version this build reads.
pub const LESSON_FORMAT_VERSION: u32 = 1;
/// Largest lesson text accepted, in bytes (an inline scenario included).
pub const MAX_LESSON_BYTES: usize = 1 << 20;
/// Most steps in a lesson.
pub const MAX_STEPS: usize = 60;
/// Most claims in one step.
pub const MAX_CLAIMS: usize = 24;
/// Most things one step highlights.
pub const MAX_FOCUS: usize = 16;
/// Most commands one step applies.
pub const MAX_APPLY: usize = 64;
/// Most choices of a question (and at least two).
pub const MAX_CHOICES: usize = 8;
/// Longest text in one language, in characters.
pub const MAX_TEXT_CHARS: usize = 4000;
/// Most items in an expected or choice value (a list, or a list of lists in all).
pub const MAX_VALUE_ITEMS: usize = 512;
/// Most simulation events one step (or one reveal) may apply: a lesson that would run
/// longer is refused, so a lesson file can never make the page or CI spin.
pub const MAX_EVENTS_PER_RUN: u64 = 2_000_000;
/// How far ahead `until_event` looks when the lesson does not say.
pub const DEFAULT_WITHIN_MS: u64 = 60_000;

/// A text in both languages of the sandbox.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Text {
    pub en: String,
    pub zh: String,
}

/// The language to read a [`Text`] in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Lang {
    En,
    Zh,
}

impl Text {
    pub fn get(&self, lang: Lang) -> &str {
        match lang {
            Lang::En => &self.en,
            Lang::Zh => &self.zh,
        }
    }
}

/// A lesson: a scenario, steps through it, and free play at the end.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Lesson {
    /// Must be [`LESSON_FORMAT_VERSION`].
    pub version: u32,
    /// Stable identifier (progress is remembered under it): lowercase letters, digits, `-`.
    pub id: String,
    pub title: Text,
    pub summary: Text,
    pub scenario: ScenarioRef,
    pub steps: Vec<Step>,
    /// Shown after the last step, when the learner may do anything with the run.
    pub free_play: Text,
}

/// The scenario a lesson runs.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum ScenarioRef {
    /// One of [`scenario::BUILT_IN`], by name (`"two-groups"`).
    BuiltIn(String),
    /// A whole scenario in the lesson file (the scenario format, version 1).
    Inline(Box<Scenario>),
}

/// One narrated step: run the simulation to a point, say what happened, highlight what to
/// look at; claims pin the narration to the simulation; an optional question.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Step {
    #[serde(default, skip_serializing_if = "Run::is_none")]
    pub run: Run,
    pub say: Text,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub look_at: Vec<Focus>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub claims: Vec<Claim>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub question: Option<Question>,
}

/// How a step moves the simulation: first apply `apply` (in order, now), then run to
/// `until_ms`, for `for_ms`, or until an event (at most one of the three; none: no time
/// passes).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Run {
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub apply: Vec<Command>,
    /// Run until this simulated time (ms from the start).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub until_ms: Option<u64>,
    /// Run this many simulated ms from now.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub for_ms: Option<u64>,
    /// Run until an event of a kind (mentioning some names) is recorded.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub until_event: Option<EventWait>,
}

impl Run {
    pub fn is_none(&self) -> bool {
        self == &Run::default()
    }
}

/// Wait for an event: the run stops right after the step that recorded it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EventWait {
    /// The event's `type` as in the trace (`group_stable`, `record_delivered`, …).
    pub kind: String,
    /// Texts the event must mention, all of them, each as a whole string value of the
    /// event's JSON form in the trace: a group id, client id, record value, topic, or an
    /// enum value such as `NOT_ENOUGH_REPLICAS` or `session_timeout`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub mentions: Vec<String>,
    /// Give up (an error) if it has not happened this many ms from now.
    #[serde(default = "default_within_ms")]
    pub within_ms: u64,
    /// Then run this many ms more (say, for the answers of a message to arrive).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub then_ms: u64,
}

fn is_zero(n: &u64) -> bool {
    *n == 0
}

fn default_within_ms() -> u64 {
    DEFAULT_WITHIN_MS
}

/// Something the page should highlight, by name (never by CSS).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum Focus {
    Partition {
        topic: String,
        partition: u32,
    },
    Member {
        group: String,
        client_id: String,
    },
    Group(String),
    Broker(BrokerId),
    Producer(String),
    /// Every record with this value, wherever it shows.
    Record(String),
}

/// A statement the narration makes, as a query and the answer the simulation must give.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Claim {
    pub query: Query,
    /// A string, whole number, boolean, `null`, or a list of those (or of lists).
    pub expect: Value,
}

/// A predict-then-reveal question. Which choice is correct is never written in the file:
/// the runner applies `reveal`, asks `query`, and the choice whose `value` equals the
/// answer is the correct one (exactly one must).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Question {
    pub ask: Text,
    pub choices: Vec<Choice>,
    pub query: Query,
    #[serde(default, skip_serializing_if = "Run::is_none")]
    pub reveal: Run,
    /// Said after the answer is revealed.
    pub explain: Text,
}

/// One choice: what it means as a query answer, and how to say it (the value itself when
/// `say` is absent, for names and numbers that read the same in both languages).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Choice {
    pub value: Value,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub say: Option<Text>,
}

impl Choice {
    /// The choice's label in a language.
    pub fn label(&self, lang: Lang) -> String {
        match &self.say {
            Some(t) => t.get(lang).to_string(),
            None => show(&self.value),
        }
    }
}

/// A question the runner answers from the simulation. Unknown names (a group, member,
/// topic, partition, producer or broker that does not exist at that moment) are errors,
/// so a misspelt claim fails loudly rather than answering `null`.
///
/// Read by a hand-written reader (below), not serde's derive; a new variant needs a row
/// there too.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "ask", rename_all = "snake_case")]
pub enum Query {
    /// The simulated time now, in ms.
    NowMs,
    /// The partition the leader appended the record with this value to (`null`: none;
    /// a list if it was appended to several).
    PartitionOf {
        topic: String,
        value: String,
    },
    /// The values in a partition's log, in offset order (the leader's log, or a replica's).
    Records {
        topic: String,
        partition: u32,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        broker: Option<BrokerId>,
    },
    /// Whether a value is in a partition's log (the leader's, or a replica's).
    InLog {
        topic: String,
        partition: u32,
        value: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        broker: Option<BrokerId>,
    },
    /// The client ids of the members of a group that received the value, in member order.
    ReceivedBy {
        group: String,
        value: String,
    },
    /// The values a member received, in order of receipt.
    Received {
        group: String,
        client_id: String,
    },
    /// The client id owning a partition in a group (`null`: nobody).
    Owner {
        group: String,
        topic: String,
        partition: u32,
    },
    /// The partition numbers a member owns (of `topic` only, when given), sorted.
    Assigned {
        group: String,
        client_id: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        topic: Option<String>,
    },
    /// How many partitions a member owns.
    AssignedCount {
        group: String,
        client_id: String,
    },
    /// The partitions (`Topic01-2`) a member gave up since the previous step: for a
    /// claim, during the previous step's reveal and this step's run; for a question,
    /// during its reveal. In order, repeats included (among the newest 50,000 events).
    Revoked {
        group: String,
        client_id: String,
    },
    /// The client ids of a group's running members, in the order they were started.
    Members {
        group: String,
    },
    /// `Empty`, `PreparingRebalance`, `CompletingRebalance`, `Stable` or `Reconciling`.
    GroupState {
        group: String,
    },
    /// The generation (classic) or group epoch (KIP-848).
    Generation {
        group: String,
    },
    /// How many rebalances the group completed.
    Rebalances {
        group: String,
    },
    /// The group leader's client id (`null`: none).
    GroupLeader {
        group: String,
    },
    /// `awaiting_assignment`, `idle`, `fetching` or `processing`.
    Activity {
        group: String,
        client_id: String,
    },
    /// `joining`, `syncing`, `stable`, `left_poll_timeout` or `crashed`.
    Phase {
        group: String,
        client_id: String,
    },
    /// The member's next offset to fetch on a partition (`null`: not assigned).
    Position {
        group: String,
        client_id: String,
        topic: String,
        partition: u32,
    },
    /// The group's committed offset on a partition (`null`: none).
    Committed {
        group: String,
        topic: String,
        partition: u32,
    },
    /// How many records the group processed more than once.
    ProcessedTwice {
        group: String,
    },
    /// The values of the records processed twice (the newest 200), oldest first.
    DuplicateValues {
        group: String,
    },
    /// How many records the group committed past without processing them.
    LostByGroup {
        group: String,
    },
    /// The values of those records (the first 50), in partition and offset order (a record
    /// no log holds any more is named from the trace, or as `topic-partition@offset`).
    LostValues {
        group: String,
    },
    /// The values `poll()` returned to a member that it has not finished processing, in
    /// order (the first is the one being processed).
    InHand {
        group: String,
        client_id: String,
    },
    HighWatermark {
        topic: String,
        partition: u32,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        broker: Option<BrokerId>,
    },
    LogEndOffset {
        topic: String,
        partition: u32,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        broker: Option<BrokerId>,
    },
    LogStartOffset {
        topic: String,
        partition: u32,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        broker: Option<BrokerId>,
    },
    /// The leader's broker id (`null`: offline).
    Leader {
        topic: String,
        partition: u32,
    },
    LeaderEpoch {
        topic: String,
        partition: u32,
    },
    /// The in-sync replicas, in the partition's order.
    Isr {
        topic: String,
        partition: u32,
    },
    /// The values a leader change left behind on a partition (lost), oldest first.
    LostInElection {
        topic: String,
        partition: u32,
    },
    /// The offset in the producer's `RecordMetadata` for the value (-1 under acks=0;
    /// `null`: not acknowledged, or given up).
    AckedOffset {
        producer: String,
        value: String,
    },
    /// Why the producer's partitioner chose the value's partition: `explicit`,
    /// `key_hash`, `sticky` or `round_robin` (`null`: not sent).
    PartitionReason {
        producer: String,
        value: String,
    },
    /// When the producer's `send()` took the value, in ms (`null`: not sent).
    SentAtMs {
        producer: String,
        value: String,
    },
    /// The record's timestamp in the log: CreateTime or LogAppendTime, per the topic
    /// (`null`: not in any partition's log).
    TimestampMs {
        topic: String,
        value: String,
    },
    /// When the leader appended the record, in ms (`null`: not in any partition's log).
    AppendedAtMs {
        topic: String,
        value: String,
    },
    /// The error a send's callback got for the value (`null`: none).
    SendError {
        producer: String,
        value: String,
    },
    /// Whether a broker is running.
    BrokerAlive {
        broker: BrokerId,
    },
    /// How many events of a kind (mentioning every name given) the run recorded so far
    /// (among the newest 50,000).
    EventCount {
        kind: String,
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        mentions: Vec<String>,
    },
    /// When the latest such event happened, in ms (`null`: none among the newest 50,000).
    LastEventMs {
        kind: String,
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        mentions: Vec<String>,
    },
    /// How many records a member received and has not finished processing (under pull
    /// what `poll()` returned, under push what the broker sent; 0 once it crashed).
    Buffered {
        group: String,
        client_id: String,
    },
    /// The values of the records with this key in a topic's logs, partition by partition,
    /// in offset order.
    ValuesForKey {
        topic: String,
        key: String,
    },
    /// A source connector task's own (in-memory) source offset: `[id]` (incrementing) or
    /// `[timestamp_ms, id]` (timestamp+incrementing); `null`: none.
    ConnectorPosition {
        connector: String,
    },
    /// The source offset flushed to the offsets store (where a restarted task resumes),
    /// written as for `connector_position`; `null`: never flushed.
    ConnectorFlushed {
        connector: String,
    },
    /// How many records the task sent since its last offset flush.
    ConnectorUnflushed {
        connector: String,
    },
    /// A Streams application's `count_by_key` store: the count for the key (`null`: none).
    StoreCount {
        application_id: String,
        key: String,
    },
}

tagged_reader! {
    /// Hand-written (`tagged_reader!`, core/src/tagged.rs) rather than derived: serde's
    /// internally tagged `Deserialize` for `Query` was the page's largest function, 110 KB
    /// of wasm before wasm-opt (BENCHMARKS.md, "Bundle"). Same format and messages as the
    /// derive (`#[serde(tag = "ask", rename_all = "snake_case", deny_unknown_fields)]`).
    ///
    /// A new variant adds a row below: its tag and its fields in declaration order
    /// (`name: default` for a `#[serde(default)]` one), and a slot for a field name no
    /// variant had (read as `Option<T>` if any variant's field is an `Option`); and a sample
    /// in this file's tests (`every_query`).
    Query (tag "ask", deny_unknown_fields: true) {
        slots {
            // `assigned`'s is an `Option`, the others' a `String`.
            topic: Option<String>,
            value: String,
            partition: u32,
            // `broker_alive`'s is a `BrokerId`, the others' an `Option`.
            broker: Option<BrokerId>,
            group: String,
            client_id: String,
            producer: String,
            kind: String,
            mentions: Vec<String>,
            key: String,
            connector: String,
            application_id: String,
        }
        variants {
            NowMs "now_ms" {},
            PartitionOf "partition_of" { topic, value },
            Records "records" { topic, partition, broker: default },
            InLog "in_log" { topic, partition, value, broker: default },
            ReceivedBy "received_by" { group, value },
            Received "received" { group, client_id },
            Owner "owner" { group, topic, partition },
            Assigned "assigned" { group, client_id, topic: default },
            AssignedCount "assigned_count" { group, client_id },
            Revoked "revoked" { group, client_id },
            Members "members" { group },
            GroupState "group_state" { group },
            Generation "generation" { group },
            Rebalances "rebalances" { group },
            GroupLeader "group_leader" { group },
            Activity "activity" { group, client_id },
            Phase "phase" { group, client_id },
            Position "position" { group, client_id, topic, partition },
            Committed "committed" { group, topic, partition },
            ProcessedTwice "processed_twice" { group },
            DuplicateValues "duplicate_values" { group },
            LostByGroup "lost_by_group" { group },
            LostValues "lost_values" { group },
            InHand "in_hand" { group, client_id },
            HighWatermark "high_watermark" { topic, partition, broker: default },
            LogEndOffset "log_end_offset" { topic, partition, broker: default },
            LogStartOffset "log_start_offset" { topic, partition, broker: default },
            Leader "leader" { topic, partition },
            LeaderEpoch "leader_epoch" { topic, partition },
            Isr "isr" { topic, partition },
            LostInElection "lost_in_election" { topic, partition },
            AckedOffset "acked_offset" { producer, value },
            PartitionReason "partition_reason" { producer, value },
            SentAtMs "sent_at_ms" { producer, value },
            TimestampMs "timestamp_ms" { topic, value },
            AppendedAtMs "appended_at_ms" { topic, value },
            SendError "send_error" { producer, value },
            BrokerAlive "broker_alive" { broker },
            EventCount "event_count" { kind, mentions: default },
            LastEventMs "last_event_ms" { kind, mentions: default },
            Buffered "buffered" { group, client_id },
            ValuesForKey "values_for_key" { topic, key },
            ConnectorPosition "connector_position" { connector },
            ConnectorFlushed "connector_flushed" { connector },
            ConnectorUnflushed "connector_unflushed" { connector },
            StoreCount "store_count" { application_id, key },
        }
    }
}

/// What is wrong with a lesson, and where.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LessonError {
    /// A JSON path (`steps[2].claims[0]`), with the step number people count (step 3).
    pub path: String,
    /// Where in the text, for a mistake found while reading the JSON: line and column.
    pub line_column: Option<(usize, usize)>,
    pub problem: LessonProblem,
}

impl LessonError {
    fn at(path: impl Into<String>, problem: impl Into<LessonProblem>) -> Self {
        Self { path: path.into(), line_column: None, problem: problem.into() }
    }

    /// The place as the English refusal writes it (as [`ScenarioError::place`]).
    pub fn place(&self) -> String {
        crate::error::place(&self.path, self.line_column)
    }
}

/// Which list of a step is too long.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Listed {
    /// `look_at` (at most [`MAX_FOCUS`]).
    Focuses,
    /// `claims` (at most [`MAX_CLAIMS`]).
    Claims,
    /// A run's `apply` (at most [`MAX_APPLY`]).
    Commands,
}

/// What is wrong with an answer or a choice's value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ValueProblem {
    /// More than [`MAX_VALUE_ITEMS`] items.
    TooManyItems,
    /// A number that is not whole, as written.
    NotWhole {
        number: String,
    },
    TooDeep,
    Object,
}

/// What a query, a focus or a step names that the simulation does not have.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Missing {
    Topic(String),
    Broker(BrokerId),
    Group(String),
    Member {
        group: String,
        client_id: String,
    },
    Producer(String),
    Connector(String),
    StreamsApp(String),
    Partition {
        topic: String,
        partition: u32,
        partitions: u32,
    },
    /// A partition with no log to read (no replica at all).
    Log {
        topic: String,
        partition: u32,
    },
    Replica {
        broker: BrokerId,
        topic: String,
        partition: u32,
    },
}

/// What is wrong with a lesson: every refusal of `Lesson::from_json`, `validate` and of
/// a `LessonRun`, with its parameters. `Display` is the English; the page renders the
/// same value in Chinese.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LessonProblem {
    /// The text is longer than [`MAX_LESSON_BYTES`].
    TooBig {
        bytes: usize,
    },
    NotAnObject,
    VersionUnsupported {
        version: String,
    },
    /// `version` is not a number; `written` is its JSON.
    VersionNotANumber {
        written: String,
    },
    VersionMissing,
    /// A mistake in the lesson's JSON, or its scenario refused (`scenario.inline...`).
    Scenario(Problem),
    /// The built-in scenario named does not load.
    BuiltInScenario(Box<ScenarioError>),
    NoBuiltInScenario {
        name: String,
    },
    /// An id not 1 to 64 characters long.
    IdLength {
        id: String,
    },
    /// An id with a character other than `a-z`, `0-9` and `-`.
    IdCharacters {
        id: String,
    },
    TextEmpty,
    TextTooLong {
        chars: usize,
    },
    TextControl,
    /// The Chinese text has no Chinese characters.
    NotChinese {
        text: String,
    },
    /// The English text has Chinese characters.
    ChineseInEnglish {
        text: String,
    },
    Steps {
        count: usize,
    },
    TooMany {
        what: Listed,
        count: usize,
    },
    Choices {
        count: usize,
    },
    Value(ValueProblem),
    /// A choice's value equal to an earlier choice's (as people read it).
    DuplicateChoice {
        value: String,
    },
    /// More than one of `until_ms`, `for_ms` and `until_event`.
    RunWays,
    /// A run's time past [`scenario::MAX_TIME_MS`].
    TimeTooLate {
        value: u64,
    },
    NotAnEventType {
        kind: String,
    },
    /// Running: every step has run.
    Finished,
    NothingToReveal,
    /// A step's command refused by the simulation.
    Refused(Box<CommandError>),
    UntilBeforeNow {
        until_ms: u64,
        now_ms: u64,
    },
    /// More than [`MAX_EVENTS_PER_RUN`] events before `before_ms` (`advice`: say "run less far").
    TooManyEvents {
        before_ms: u64,
        advice: bool,
    },
    /// More than [`MAX_EVENTS_PER_RUN`] events without the awaited one.
    TooManyEventsWithout,
    EventNeverCame {
        kind: String,
        mentions: Vec<String>,
        within_ms: u64,
        deadline_ms: u64,
    },
    Missing(Missing),
}

impl From<Missing> for LessonProblem {
    fn from(m: Missing) -> Self {
        LessonProblem::Missing(m)
    }
}

impl From<ValueProblem> for LessonProblem {
    fn from(v: ValueProblem) -> Self {
        LessonProblem::Value(v)
    }
}

impl fmt::Display for Missing {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Missing::Topic(t) => write!(f, "there is no topic \"{t}\""),
            Missing::Broker(b) => write!(f, "there is no broker {b}"),
            Missing::Group(g) => write!(f, "there is no consumer group \"{g}\""),
            Missing::Member { group, client_id } => write!(f, "group \"{group}\" has no member \"{client_id}\""),
            Missing::Producer(p) => write!(f, "there is no producer \"{p}\""),
            Missing::Connector(c) => write!(f, "there is no connector \"{c}\""),
            Missing::StreamsApp(a) => write!(f, "there is no Streams application \"{a}\""),
            Missing::Partition { topic, partition, partitions } => {
                write!(f, "topic \"{topic}\" has partitions 0..{} but partition {partition} was asked for", partitions.saturating_sub(1))
            }
            Missing::Log { topic, partition } => write!(f, "{topic}-{partition} has no log"),
            Missing::Replica { broker, topic, partition } => write!(f, "broker {broker} holds no replica of {topic}-{partition}"),
        }
    }
}

impl fmt::Display for ValueProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ValueProblem::TooManyItems => write!(f, "has more than {MAX_VALUE_ITEMS} items"),
            ValueProblem::NotWhole { number } => write!(f, "{number} is not a whole number; answers are whole numbers"),
            ValueProblem::TooDeep => f.write_str("lists nest at most two deep"),
            ValueProblem::Object => f.write_str("an object is not an answer; write a string, number, boolean, null or list"),
        }
    }
}

impl fmt::Display for LessonProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        const V: u32 = LESSON_FORMAT_VERSION;
        match self {
            LessonProblem::TooBig { bytes } => write!(f, "the lesson is {bytes} bytes; the most accepted is {MAX_LESSON_BYTES}"),
            LessonProblem::NotAnObject => f.write_str("a lesson is a JSON object: { \"version\": 1, \"id\": ..., \"steps\": [...], ... }"),
            LessonProblem::VersionUnsupported { version } => {
                write!(f, "version {version} is not supported; this build reads lesson version {V}")
            }
            LessonProblem::VersionNotANumber { written } => write!(f, "is {written}; write the number {V}: \"version\": {V}"),
            LessonProblem::VersionMissing => write!(f, "missing; write \"version\": {V}"),
            LessonProblem::Scenario(p) => p.fmt(f),
            LessonProblem::BuiltInScenario(e) => e.fmt(f),
            LessonProblem::NoBuiltInScenario { name } => {
                let names: Vec<&str> = scenario::BUILT_IN.iter().map(|(n, _)| *n).collect();
                write!(f, "there is no built-in scenario \"{name}\"; there are: {}", names.join(", "))
            }
            LessonProblem::IdLength { id } => write!(f, "\"{id}\" must be 1 to 64 characters"),
            LessonProblem::IdCharacters { id } => write!(f, "\"{id}\" may hold only lowercase letters, digits and '-'"),
            LessonProblem::TextEmpty => f.write_str("is empty; every text needs both languages"),
            LessonProblem::TextTooLong { chars } => write!(f, "is {chars} characters; allowed: at most {MAX_TEXT_CHARS}"),
            LessonProblem::TextControl => f.write_str("contains a control character"),
            LessonProblem::NotChinese { text } => write!(f, "{text:?} has no Chinese characters (is it still English?)"),
            LessonProblem::ChineseInEnglish { text } => write!(f, "{text:?} contains Chinese characters"),
            LessonProblem::Steps { count } => write!(f, "has {count} steps; allowed: 1 to {MAX_STEPS}"),
            LessonProblem::TooMany { what, count } => match what {
                Listed::Focuses => write!(f, "has {count} entries; allowed: at most {MAX_FOCUS}"),
                Listed::Claims => write!(f, "has {count} claims; allowed: at most {MAX_CLAIMS}"),
                Listed::Commands => write!(f, "has {count} commands; allowed: at most {MAX_APPLY}"),
            },
            LessonProblem::Choices { count } => write!(f, "has {count} choices; allowed: 2 to {MAX_CHOICES}"),
            LessonProblem::Value(v) => v.fmt(f),
            LessonProblem::DuplicateChoice { value } => write!(f, "{value} is also an earlier choice"),
            LessonProblem::RunWays => f.write_str("give at most one of until_ms, for_ms and until_event"),
            LessonProblem::TimeTooLate { value } => write!(f, "is {value}; allowed: 0 to {} (one week)", scenario::MAX_TIME_MS),
            LessonProblem::NotAnEventType { kind } => {
                write!(f, "\"{kind}\" is not an event type; write it as in the trace, e.g. \"group_stable\"")
            }
            LessonProblem::Finished => f.write_str("every step has run; the lesson is in free play"),
            LessonProblem::NothingToReveal => f.write_str("no question is waiting to be revealed"),
            LessonProblem::Refused(e) => write!(f, "the simulation refused it: {e}"),
            LessonProblem::UntilBeforeNow { until_ms, now_ms } => write!(f, "{until_ms} ms is before the run's time now, {now_ms} ms"),
            LessonProblem::TooManyEvents { before_ms, advice } => {
                write!(f, "more than {MAX_EVENTS_PER_RUN} events before {before_ms} ms")?;
                if *advice {
                    f.write_str("; run less far")?;
                }
                Ok(())
            }
            LessonProblem::TooManyEventsWithout => write!(f, "more than {MAX_EVENTS_PER_RUN} events without it"),
            LessonProblem::EventNeverCame { kind, mentions, within_ms, deadline_ms } => {
                write!(f, "no {kind} event{} within {within_ms} ms (by {deadline_ms} ms)", mentions_text(mentions))
            }
            LessonProblem::Missing(m) => m.fmt(f),
        }
    }
}

impl fmt::Display for LessonError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let place = self.place();
        if place.is_empty() {
            self.problem.fmt(f)
        } else {
            write!(f, "{place}: {}", self.problem)
        }
    }
}

impl std::error::Error for LessonError {}

/// `steps[i] (step i+1)`: the place of a step, as a path and as people count.
fn step_path(i: usize) -> String {
    format!("steps[{i}] (step {})", i + 1)
}

// ----- reading and checking the file ---------------------------------------------

impl Lesson {
    /// Parses a lesson and checks everything that can be checked without running it.
    pub fn from_json(text: &str) -> Result<Lesson, LessonError> {
        if text.len() > MAX_LESSON_BYTES {
            return Err(LessonError::at("", LessonProblem::TooBig { bytes: text.len() }));
        }
        // The version first, so a newer file gets a clear message rather than a complaint
        // about a field this build does not know.
        match scenario::read_json::<Value>(text) {
            Ok(Value::Object(map)) => match map.get("version") {
                Some(Value::Number(n)) if n.as_u64() == Some(u64::from(LESSON_FORMAT_VERSION)) => {}
                Some(Value::Number(n)) => {
                    return Err(LessonError::at("version", LessonProblem::VersionUnsupported { version: n.to_string() }))
                }
                Some(v) => return Err(LessonError::at("version", LessonProblem::VersionNotANumber { written: v.to_string() })),
                None => return Err(LessonError::at("version", LessonProblem::VersionMissing)),
            },
            Ok(_) => return Err(LessonError::at("", LessonProblem::NotAnObject)),
            // Not JSON: the full parse below says where.
            Err(_) => {}
        }
        let lesson: Lesson = scenario::parse_json(text).map_err(|e| LessonError {
            path: e.path,
            line_column: e.line_column,
            problem: LessonProblem::Scenario(e.problem),
        })?;
        lesson.validate()?;
        Ok(lesson)
    }

    /// Checks the file without running it: version, id, both languages of every text,
    /// sizes, values, and the scenario.
    pub fn validate(&self) -> Result<(), LessonError> {
        if self.version != LESSON_FORMAT_VERSION {
            return Err(LessonError::at("version", LessonProblem::VersionUnsupported { version: self.version.to_string() }));
        }
        check_id(&self.id).map_err(|p| LessonError::at("id", p))?;
        check_text("title", &self.title)?;
        check_text("summary", &self.summary)?;
        check_text("free_play", &self.free_play)?;
        self.scenario()?;
        if self.steps.is_empty() || self.steps.len() > MAX_STEPS {
            return Err(LessonError::at("steps", LessonProblem::Steps { count: self.steps.len() }));
        }
        for (i, s) in self.steps.iter().enumerate() {
            let at = step_path(i);
            check_run(&format!("{at}.run"), &s.run)?;
            check_text(&format!("{at}.say"), &s.say)?;
            if s.look_at.len() > MAX_FOCUS {
                return Err(LessonError::at(
                    format!("{at}.look_at"),
                    LessonProblem::TooMany { what: Listed::Focuses, count: s.look_at.len() },
                ));
            }
            if s.claims.len() > MAX_CLAIMS {
                return Err(LessonError::at(
                    format!("{at}.claims"),
                    LessonProblem::TooMany { what: Listed::Claims, count: s.claims.len() },
                ));
            }
            for (c, claim) in s.claims.iter().enumerate() {
                check_value(&claim.expect).map_err(|p| LessonError::at(format!("{at}.claims[{c}].expect"), p))?;
            }
            if let Some(q) = &s.question {
                let qat = format!("{at}.question");
                check_text(&format!("{qat}.ask"), &q.ask)?;
                check_text(&format!("{qat}.explain"), &q.explain)?;
                check_run(&format!("{qat}.reveal"), &q.reveal)?;
                if q.choices.len() < 2 || q.choices.len() > MAX_CHOICES {
                    return Err(LessonError::at(format!("{qat}.choices"), LessonProblem::Choices { count: q.choices.len() }));
                }
                for (c, choice) in q.choices.iter().enumerate() {
                    let cat = format!("{qat}.choices[{c}]");
                    check_value(&choice.value).map_err(|p| LessonError::at(format!("{cat}.value"), p))?;
                    if let Some(t) = &choice.say {
                        check_text(&format!("{cat}.say"), t)?;
                    }
                    if q.choices[..c].iter().any(|o| o.value == choice.value) {
                        return Err(LessonError::at(format!("{cat}.value"), LessonProblem::DuplicateChoice { value: show(&choice.value) }));
                    }
                }
            }
        }
        Ok(())
    }

    /// Every text of the lesson with its place (`steps[2].question.ask`), in file order:
    /// what a translation check or a page's language switch walks.
    pub fn texts(&self) -> Vec<(String, &Text)> {
        let mut out = vec![("title".to_string(), &self.title), ("summary".to_string(), &self.summary)];
        for (i, s) in self.steps.iter().enumerate() {
            out.push((format!("steps[{i}].say"), &s.say));
            if let Some(q) = &s.question {
                out.push((format!("steps[{i}].question.ask"), &q.ask));
                for (c, choice) in q.choices.iter().enumerate() {
                    if let Some(t) = &choice.say {
                        out.push((format!("steps[{i}].question.choices[{c}].say"), t));
                    }
                }
                out.push((format!("steps[{i}].question.explain"), &q.explain));
            }
        }
        out.push(("free_play".to_string(), &self.free_play));
        out
    }

    /// The lesson's scenario, parsed and checked.
    pub fn scenario(&self) -> Result<Scenario, LessonError> {
        match &self.scenario {
            ScenarioRef::BuiltIn(name) => match scenario::built_in(name) {
                Some(Ok(s)) => Ok(s),
                Some(Err(e)) => Err(LessonError::at("scenario.built_in", LessonProblem::BuiltInScenario(Box::new(e)))),
                None => Err(LessonError::at("scenario.built_in", LessonProblem::NoBuiltInScenario { name: name.clone() })),
            },
            ScenarioRef::Inline(s) => {
                s.check().map_err(|e| LessonError::at(format!("scenario.inline.{}", e.place()), LessonProblem::Scenario(e.problem)))?;
                Ok((**s).clone())
            }
        }
    }
}

fn check_id(id: &str) -> Result<(), LessonProblem> {
    if id.is_empty() || id.len() > 64 {
        return Err(LessonProblem::IdLength { id: id.to_string() });
    }
    if !id.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-') {
        return Err(LessonProblem::IdCharacters { id: id.to_string() });
    }
    Ok(())
}

/// Whether a text holds Chinese: a CJK ideograph or CJK punctuation.
pub fn has_cjk(s: &str) -> bool {
    s.chars().any(is_cjk)
}

fn is_cjk(c: char) -> bool {
    matches!(c, '\u{3000}'..='\u{303f}' | '\u{3400}'..='\u{4dbf}' | '\u{4e00}'..='\u{9fff}' | '\u{f900}'..='\u{faff}' | '\u{ff00}'..='\u{ffef}')
}

/// Both languages present and within limits; the Chinese one written in Chinese (unless
/// it is the same as the English, such as a setting's name).
fn check_text(path: &str, t: &Text) -> Result<(), LessonError> {
    for (lang, s) in [("en", &t.en), ("zh", &t.zh)] {
        if s.trim().is_empty() {
            return Err(LessonError::at(format!("{path}.{lang}"), LessonProblem::TextEmpty));
        }
        let n = s.chars().count();
        if n > MAX_TEXT_CHARS {
            return Err(LessonError::at(format!("{path}.{lang}"), LessonProblem::TextTooLong { chars: n }));
        }
        if s.chars().any(|c| c.is_control() && c != '\n') {
            return Err(LessonError::at(format!("{path}.{lang}"), LessonProblem::TextControl));
        }
    }
    if t.zh != t.en && !t.zh.chars().any(is_cjk) {
        return Err(LessonError::at(format!("{path}.zh"), LessonProblem::NotChinese { text: t.zh.clone() }));
    }
    if t.en.chars().any(|c| matches!(c, '\u{4e00}'..='\u{9fff}')) {
        return Err(LessonError::at(format!("{path}.en"), LessonProblem::ChineseInEnglish { text: t.en.clone() }));
    }
    Ok(())
}

fn check_run(path: &str, run: &Run) -> Result<(), LessonError> {
    let ways = usize::from(run.until_ms.is_some()) + usize::from(run.for_ms.is_some()) + usize::from(run.until_event.is_some());
    if ways > 1 {
        return Err(LessonError::at(path, LessonProblem::RunWays));
    }
    if run.apply.len() > MAX_APPLY {
        return Err(LessonError::at(format!("{path}.apply"), LessonProblem::TooMany { what: Listed::Commands, count: run.apply.len() }));
    }
    let within = run.until_event.as_ref().map(|w| w.within_ms);
    let then = run.until_event.as_ref().map(|w| w.then_ms);
    for (name, v) in [("until_ms", run.until_ms), ("for_ms", run.for_ms), ("until_event.within_ms", within), ("until_event.then_ms", then)]
    {
        if let Some(v) = v {
            if v > scenario::MAX_TIME_MS {
                return Err(LessonError::at(format!("{path}.{name}"), LessonProblem::TimeTooLate { value: v }));
            }
        }
    }
    if let Some(w) = &run.until_event {
        if w.kind.is_empty() || !w.kind.chars().all(|c| c.is_ascii_lowercase() || c == '_') {
            return Err(LessonError::at(format!("{path}.until_event.kind"), LessonProblem::NotAnEventType { kind: w.kind.clone() }));
        }
    }
    Ok(())
}

/// An answer or choice value: `null`, a boolean, a whole number, a string, or a list of
/// those or of lists, within [`MAX_VALUE_ITEMS`].
fn check_value(v: &Value) -> Result<(), ValueProblem> {
    fn walk(v: &Value, depth: usize, items: &mut usize) -> Result<(), ValueProblem> {
        *items += 1;
        if *items > MAX_VALUE_ITEMS {
            return Err(ValueProblem::TooManyItems);
        }
        match v {
            Value::Null | Value::Bool(_) | Value::String(_) => Ok(()),
            Value::Number(n) if n.is_i64() || n.is_u64() => Ok(()),
            Value::Number(n) => Err(ValueProblem::NotWhole { number: n.to_string() }),
            Value::Array(a) if depth < 2 => a.iter().try_for_each(|x| walk(x, depth + 1, items)),
            Value::Array(_) => Err(ValueProblem::TooDeep),
            Value::Object(_) => Err(ValueProblem::Object),
        }
    }
    walk(v, 0, &mut 0)
}

/// A value as people read it: strings bare, lists in brackets.
pub fn show(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        Value::Array(a) => format!("[{}]", a.iter().map(show).collect::<Vec<_>>().join(", ")),
        other => other.to_string(),
    }
}

/// A value as a lesson writes it (JSON), for messages that compare two values.
fn json(v: &Value) -> String {
    scenario::write_json(v, false)
}

// ----- running ---------------------------------------------------------------------

/// A claim, with what the simulation answered.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ClaimResult {
    pub query: Query,
    pub expected: Value,
    pub actual: Value,
}

impl ClaimResult {
    pub fn holds(&self) -> bool {
        self.expected == self.actual
    }
}

/// What one step did: where the run is now, the claims with their actual values, what
/// to highlight.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct StepReport {
    /// The step's index (from 0).
    pub index: usize,
    pub now_ms: u64,
    pub claims: Vec<ClaimResult>,
    pub look_at: Vec<Focus>,
    /// Whether the step asks a question (answered by [`LessonRun::reveal`]).
    pub has_question: bool,
}

/// A question's answer after its reveal run.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Reveal {
    pub step: usize,
    pub now_ms: u64,
    /// What the query answered.
    pub answer: Value,
    /// The indexes of the choices equal to the answer (exactly one in a correct lesson).
    pub matching: Vec<usize>,
}

impl Reveal {
    /// The correct choice, when exactly one matches.
    pub fn correct(&self) -> Option<usize> {
        match self.matching.as_slice() {
            [one] => Some(*one),
            _ => None,
        }
    }
}

/// A lesson being run: the simulation and the next step. Running the same lesson gives
/// the same reports every time (the simulation is deterministic and nothing else varies).
#[derive(Clone, Debug)]
pub struct LessonRun {
    lesson: Lesson,
    sim: Sim,
    next: usize,
    /// The step whose question has not been revealed yet.
    unrevealed: Option<usize>,
    /// The trace position when the last step's claims were answered: where the next
    /// step's "since the previous step" begins.
    mark: u64,
}

impl LessonRun {
    /// Builds the lesson's scenario at time zero (the lesson is checked first).
    pub fn new(lesson: &Lesson) -> Result<Self, LessonError> {
        lesson.validate()?;
        let scenario = lesson.scenario()?;
        let sim = scenario.build().map_err(|e| LessonError::at(format!("scenario ({})", e.place()), LessonProblem::Scenario(e.problem)))?;
        Ok(Self { lesson: lesson.clone(), sim, next: 0, unrevealed: None, mark: 0 })
    }

    pub fn lesson(&self) -> &Lesson {
        &self.lesson
    }

    /// The simulation as the lesson has left it (free play continues from here).
    pub fn sim(&self) -> &Sim {
        &self.sim
    }

    pub fn into_sim(self) -> Sim {
        self.sim
    }

    /// The index of the next step to run (the number of steps when all have run).
    pub fn next_step(&self) -> usize {
        self.next
    }

    pub fn finished(&self) -> bool {
        self.next >= self.lesson.steps.len() && self.unrevealed.is_none()
    }

    /// Runs the next step: its commands and run, then its claims. A pending question is
    /// revealed first, so every step starts from the same state however it is reached.
    /// A claim that disagrees is reported in [`StepReport::claims`], not as an error;
    /// errors are what stops the lesson: a refused command, an event that never comes, a
    /// query naming something that does not exist.
    pub fn step(&mut self) -> Result<StepReport, LessonError> {
        if self.unrevealed.is_some() {
            self.reveal()?;
        }
        let index = self.next;
        let Some(step) = self.lesson.steps.get(index).cloned() else {
            return Err(LessonError::at("steps", LessonProblem::Finished));
        };
        let at = step_path(index);
        run(&mut self.sim, &step.run, &format!("{at}.run"))?;
        let mut claims = Vec::with_capacity(step.claims.len());
        for (c, claim) in step.claims.iter().enumerate() {
            let actual = answer(&self.sim, &claim.query, self.mark).map_err(|m| LessonError::at(format!("{at}.claims[{c}]"), m))?;
            claims.push(ClaimResult { query: claim.query.clone(), expected: claim.expect.clone(), actual });
        }
        self.mark = self.sim.trace().total();
        for (f, focus) in step.look_at.iter().enumerate() {
            check_focus(&self.sim, focus).map_err(|m| LessonError::at(format!("{at}.look_at[{f}]"), m))?;
        }
        self.next += 1;
        self.unrevealed = step.question.is_some().then_some(index);
        Ok(StepReport { index, now_ms: self.sim.now().ms(), claims, look_at: step.look_at, has_question: step.question.is_some() })
    }

    /// Reveals the last step's question: runs its `reveal`, asks its query and finds the
    /// choices equal to the answer.
    pub fn reveal(&mut self) -> Result<Reveal, LessonError> {
        let Some(index) = self.unrevealed.take() else {
            return Err(LessonError::at("", LessonProblem::NothingToReveal));
        };
        let Some(q) = self.lesson.steps.get(index).and_then(|s| s.question.clone()) else {
            return Err(LessonError::at("", LessonProblem::NothingToReveal));
        };
        let at = format!("{}.question", step_path(index));
        let since = self.sim.trace().total();
        run(&mut self.sim, &q.reveal, &format!("{at}.reveal"))?;
        let answer = answer(&self.sim, &q.query, since).map_err(|m| LessonError::at(format!("{at}.query"), m))?;
        let matching = q.choices.iter().enumerate().filter(|(_, c)| c.value == answer).map(|(i, _)| i).collect();
        Ok(Reveal { step: index, now_ms: self.sim.now().ms(), answer, matching })
    }
}

/// Runs every step of a lesson (revealing every question) and reports every claim the
/// simulation contradicts and every question without exactly one correct choice, each
/// with its step and both values. An error that stops the run (a refused command, an
/// event that never comes) is reported as the last message.
pub fn check(lesson: &Lesson) -> Result<(), Vec<String>> {
    let mut problems = Vec::new();
    let mut runner = match LessonRun::new(lesson) {
        Ok(r) => r,
        Err(e) => return Err(vec![format!("lesson \"{}\": {e}", lesson.id)]),
    };
    for i in 0..lesson.steps.len() {
        let at = step_path(i);
        let report = match runner.step() {
            Ok(r) => r,
            Err(e) => {
                problems.push(format!("lesson \"{}\": {e}", lesson.id));
                return Err(problems);
            }
        };
        for (c, claim) in report.claims.iter().enumerate() {
            if !claim.holds() {
                problems.push(format!(
                    "lesson \"{}\": {at}.claims[{c}] at {} ms: {}: the lesson says {}, the simulation gives {}",
                    lesson.id,
                    report.now_ms,
                    describe(&claim.query),
                    json(&claim.expected),
                    json(&claim.actual)
                ));
            }
        }
        if report.has_question {
            match runner.reveal() {
                Ok(r) if r.correct().is_some() => {}
                Ok(r) => {
                    let choices: Vec<String> =
                        lesson.steps[i].question.as_ref().map(|q| q.choices.iter().map(|c| json(&c.value)).collect()).unwrap_or_default();
                    problems.push(format!(
                        "lesson \"{}\": {at}.question at {} ms: {} gives {}, which {} of the choices [{}]",
                        lesson.id,
                        r.now_ms,
                        lesson.steps[i].question.as_ref().map(|q| describe(&q.query)).unwrap_or_default(),
                        json(&r.answer),
                        if r.matching.is_empty() { "matches none".to_string() } else { format!("matches {}", r.matching.len()) },
                        choices.join(", ")
                    ));
                }
                Err(e) => {
                    problems.push(format!("lesson \"{}\": {e}", lesson.id));
                    return Err(problems);
                }
            }
        }
    }
    if problems.is_empty() {
        Ok(())
    } else {
        Err(problems)
    }
}

/// Moves the simulation as a step's [`Run`] says, within [`MAX_EVENTS_PER_RUN`].
fn run(sim: &mut Sim, r: &Run, path: &str) -> Result<(), LessonError> {
    for (i, command) in r.apply.iter().enumerate() {
        sim.apply(command.clone()).map_err(|e| LessonError::at(format!("{path}.apply[{i}]"), LessonProblem::Refused(Box::new(e))))?;
    }
    let until = match (r.until_ms, r.for_ms) {
        (Some(t), _) => {
            if t < sim.now().ms() {
                return Err(LessonError::at(
                    format!("{path}.until_ms"),
                    LessonProblem::UntilBeforeNow { until_ms: t, now_ms: sim.now().ms() },
                ));
            }
            Some(t)
        }
        (None, Some(d)) => Some(sim.now().ms().saturating_add(d)),
        (None, None) => None,
    };
    if let Some(t) = until {
        if !sim.run_until_bounded(SimTime(t), MAX_EVENTS_PER_RUN) {
            return Err(LessonError::at(path, LessonProblem::TooManyEvents { before_ms: t, advice: true }));
        }
    }
    if let Some(w) = &r.until_event {
        let deadline = sim.now().ms().saturating_add(w.within_ms);
        let mut seen = sim.trace().total();
        let mut applied = 0u64;
        loop {
            match sim.next_event_time() {
                Some(t) if t.ms() <= deadline => {}
                _ => {
                    return Err(LessonError::at(
                        format!("{path}.until_event"),
                        LessonProblem::EventNeverCame {
                            kind: w.kind.clone(),
                            mentions: w.mentions.clone(),
                            within_ms: w.within_ms,
                            deadline_ms: deadline,
                        },
                    ))
                }
            }
            sim.step();
            applied += 1;
            if sim.events_since(seen).any(|e| event_matches(&e.kind, &w.kind, &w.mentions)) {
                break;
            }
            seen = sim.trace().total();
            if applied >= MAX_EVENTS_PER_RUN {
                return Err(LessonError::at(format!("{path}.until_event"), LessonProblem::TooManyEventsWithout));
            }
        }
        if w.then_ms > 0 {
            let t = sim.now().ms().saturating_add(w.then_ms);
            if !sim.run_until_bounded(SimTime(t), MAX_EVENTS_PER_RUN) {
                return Err(LessonError::at(
                    format!("{path}.until_event.then_ms"),
                    LessonProblem::TooManyEvents { before_ms: t, advice: false },
                ));
            }
        }
    }
    Ok(())
}

fn mentions_text(m: &[String]) -> String {
    if m.is_empty() {
        String::new()
    } else {
        format!(" mentioning {}", m.iter().map(|s| format!("\"{s}\"")).collect::<Vec<_>>().join(" and "))
    }
}

/// `GroupStable` → `group_stable`: the event's `type` as the trace writes it.
fn snake(name: &str) -> String {
    let mut out = String::with_capacity(name.len() + 4);
    for (i, c) in name.chars().enumerate() {
        if c.is_ascii_uppercase() {
            if i > 0 {
                out.push('_');
            }
            out.push(c.to_ascii_lowercase());
        } else {
            out.push(c);
        }
    }
    out
}

/// Whether an event is of `kind` and mentions every text: each the whole of a name it
/// involves (`EventKind::subjects`) or of one of its details (`EventKind::details`: record
/// keys and values, member ids, enum values such as `NOT_ENOUGH_REPLICAS`), matched on the
/// typed event, never on its JSON.
fn event_matches(event: &crate::event::EventKind, kind: &str, mentions: &[String]) -> bool {
    snake(event.name()) == kind && mentions.iter().all(|m| event.mentions(m))
}

fn check_focus(sim: &Sim, f: &Focus) -> Result<(), Missing> {
    let read = sim.read();
    match f {
        Focus::Partition { topic, partition } => find_partition(read, topic, *partition).map(|_| ()),
        Focus::Member { group, client_id } => member(read, group, client_id).map(|_| ()),
        Focus::Group(g) => group(read, g).map(|_| ()),
        Focus::Broker(b) => read.broker(*b).map(|_| ()).ok_or(Missing::Broker(*b)),
        Focus::Producer(p) => producer(read, p).map(|_| ()),
        Focus::Record(_) => Ok(()),
    }
}

fn group<'a>(read: Read<'a>, id: &str) -> Result<GroupRead<'a>, Missing> {
    read.group(id).ok_or_else(|| Missing::Group(id.to_string()))
}

fn member<'a>(read: Read<'a>, g: &str, client_id: &str) -> Result<MemberRead<'a>, Missing> {
    group(read, g)?.member(client_id).ok_or_else(|| Missing::Member { group: g.to_string(), client_id: client_id.to_string() })
}

fn topic_named<'a>(read: Read<'a>, topic: &str) -> Result<TopicRead<'a>, Missing> {
    read.topic(topic).ok_or_else(|| Missing::Topic(topic.to_string()))
}

fn find_partition<'a>(read: Read<'a>, topic: &str, p: u32) -> Result<PartitionRead<'a>, Missing> {
    let t = topic_named(read, topic)?;
    t.partition(p).ok_or_else(|| Missing::Partition { topic: topic.to_string(), partition: p, partitions: t.partition_count() })
}

/// The leader's log (the first replica's while offline), or one broker's replica.
fn log<'a>(read: Read<'a>, topic: &str, p: u32, broker: Option<BrokerId>) -> Result<LogRead<'a>, Missing> {
    let part = find_partition(read, topic, p)?;
    match broker {
        None => part.log().ok_or_else(|| Missing::Log { topic: topic.to_string(), partition: p }),
        Some(b) => part.log_on(b).ok_or_else(|| Missing::Replica { broker: b, topic: topic.to_string(), partition: p }),
    }
}

fn producer<'a>(read: Read<'a>, name: &str) -> Result<ProducerRead<'a>, Missing> {
    read.producer(name).ok_or_else(|| Missing::Producer(name.to_string()))
}

fn num(n: u64) -> Value {
    Value::from(n)
}

fn strings<'a>(it: impl Iterator<Item = &'a str>) -> Value {
    Value::Array(it.map(|s| Value::String(s.to_string())).collect())
}

/// Answers a query from the simulation as it is now, through the read layer
/// ([`Sim::read`]). `since` is the trace position (an event's `seq`) where "since the
/// previous step" begins.
pub fn answer(sim: &Sim, q: &Query, since: u64) -> Result<Value, Missing> {
    let read = sim.read();
    Ok(match q {
        Query::NowMs => num(read.now().ms()),
        Query::PartitionOf { topic, value } => {
            let t = topic_named(read, topic)?;
            let found: Vec<Value> = t
                .partitions()
                .filter(|p| p.log().is_some_and(|l| l.records().iter().any(|r| &r.record.value == value)))
                .map(|p| num(p.index().into()))
                .collect();
            match found.len() {
                0 => Value::Null,
                1 => found.into_iter().next().unwrap_or(Value::Null),
                _ => Value::Array(found),
            }
        }
        Query::Records { topic, partition, broker } => {
            strings(log(read, topic, *partition, *broker)?.records().iter().map(|r| r.record.value.as_str()))
        }
        Query::InLog { topic, partition, value, broker } => {
            Value::Bool(log(read, topic, *partition, *broker)?.records().iter().any(|r| &r.record.value == value))
        }
        Query::ReceivedBy { group: g, value } => {
            strings(group(read, g)?.members().filter(|m| m.has_received(value)).map(MemberRead::client_id))
        }
        Query::Received { group: g, client_id } => strings(member(read, g, client_id)?.received().map(|d| d.value.as_str())),
        Query::Owner { group: g, topic, partition: p } => {
            find_partition(read, topic, *p)?;
            let owners: Vec<&str> = group(read, g)?.owners(topic, *p).collect();
            match owners.as_slice() {
                [] => Value::Null,
                [one] => Value::String((*one).to_string()),
                many => strings(many.iter().copied()),
            }
        }
        Query::Assigned { group: g, client_id, topic } => {
            let m = member(read, g, client_id)?;
            let mut ps: Vec<(String, u32)> = m
                .assigned()
                .iter()
                .filter(|tp| topic.as_ref().is_none_or(|t| &tp.topic == t))
                .map(|tp| (tp.topic.clone(), tp.partition))
                .collect();
            crate::sorted::sort(&mut ps);
            Value::Array(ps.into_iter().map(|(_, p)| num(p.into())).collect())
        }
        Query::AssignedCount { group: g, client_id } => num(member(read, g, client_id)?.assigned().len() as u64),
        Query::Revoked { group: g, client_id } => {
            member(read, g, client_id)?;
            let revoked = read.events_since(since).flat_map(|e| match &e.kind {
                crate::event::EventKind::Group(GroupEvent::PartitionsRevoked { group: eg, client_id: c, partitions })
                    if eg == g && c == client_id =>
                {
                    partitions.as_slice()
                }
                _ => &[],
            });
            Value::Array(revoked.map(|tp| Value::String(tp.to_string())).collect())
        }
        Query::Members { group: g } => strings(group(read, g)?.running_members()),
        Query::GroupState { group: g } => Value::String(
            match group(read, g)?.state() {
                GroupState::Empty => "Empty",
                GroupState::PreparingRebalance => "PreparingRebalance",
                GroupState::CompletingRebalance => "CompletingRebalance",
                GroupState::Stable => "Stable",
                GroupState::Reconciling => "Reconciling",
            }
            .into(),
        ),
        Query::Generation { group: g } => Value::from(group(read, g)?.generation()),
        Query::Rebalances { group: g } => num(group(read, g)?.rebalances()),
        Query::GroupLeader { group: g } => {
            let gr = group(read, g)?;
            gr.leader()
                // A leader the coordinator no longer lists: its member, by member id.
                .or_else(|| gr.leader_member_id().and_then(|id| gr.members().find(|m| m.member_id() == id)).map(MemberRead::client_id))
                .map_or(Value::Null, |c| Value::String(c.to_string()))
        }
        Query::Activity { group: g, client_id } => Value::String(
            match member(read, g, client_id)?.activity() {
                Activity::AwaitingAssignment => "awaiting_assignment",
                Activity::Idle => "idle",
                Activity::Fetching => "fetching",
                Activity::Processing => "processing",
            }
            .into(),
        ),
        Query::Phase { group: g, client_id } => Value::String(
            match member(read, g, client_id)?.phase() {
                Phase::Joining => "joining",
                Phase::Syncing => "syncing",
                Phase::Stable => "stable",
                Phase::LeftPollTimeout => "left_poll_timeout",
                Phase::Crashed => "crashed",
            }
            .into(),
        ),
        Query::Position { group: g, client_id, topic, partition: p } => {
            find_partition(read, topic, *p)?;
            member(read, g, client_id)?.position(topic, *p).map_or(Value::Null, num)
        }
        Query::Committed { group: g, topic, partition: p } => {
            let tp = find_partition(read, topic, *p)?.topic_partition();
            group(read, g)?.committed(&tp).map_or(Value::Null, num)
        }
        Query::ProcessedTwice { group: g } => num(group(read, g)?.duplicates()),
        Query::DuplicateValues { group: g } => strings(group(read, g)?.duplicate_details().map(|d| d.value.as_str())),
        Query::LostByGroup { group: g } => num(group(read, g)?.lost()),
        Query::LostValues { group: g } => Value::Array(
            group(read, g)?
                .lost_details(50)
                .iter()
                .map(|l| {
                    let value = read
                        .partition(&l.tp)
                        .and_then(|p| p.record_at(l.offset))
                        .map(|r| r.record.value.clone())
                        // Deleted by retention since: the trace still says what was there.
                        .or_else(|| appended_value(read, &l.tp, l.offset));
                    Value::String(value.unwrap_or_else(|| format!("{}@{}", l.tp, l.offset)))
                })
                .collect(),
        ),
        Query::InHand { group: g, client_id } => strings(member(read, g, client_id)?.in_hand().map(|d| d.value.as_str())),
        Query::HighWatermark { topic, partition, broker } => num(log(read, topic, *partition, *broker)?.high_watermark()),
        Query::LogEndOffset { topic, partition, broker } => num(log(read, topic, *partition, *broker)?.log_end_offset()),
        Query::LogStartOffset { topic, partition, broker } => num(log(read, topic, *partition, *broker)?.log_start_offset()),
        Query::Leader { topic, partition: p } => find_partition(read, topic, *p)?.leader().map_or(Value::Null, |b| num(b.into())),
        Query::LeaderEpoch { topic, partition: p } => num(find_partition(read, topic, *p)?.leader_epoch().into()),
        Query::Isr { topic, partition: p } => {
            Value::Array(find_partition(read, topic, *p)?.isr().iter().map(|b| num((*b).into())).collect())
        }
        Query::LostInElection { topic, partition: p } => strings(find_partition(read, topic, *p)?.lost().map(|l| l.value.as_str())),
        Query::AckedOffset { producer: p, value } => {
            let sent = producer_sent(read, p, value)?;
            sent.and_then(|s| s.acked_offset).map_or(Value::Null, Value::from)
        }
        Query::PartitionReason { producer: p, value } => match producer_sent(read, p, value)?.map(|s| &s.reason) {
            None => Value::Null,
            Some(crate::partitioner::PartitionReason::Explicit) => Value::String("explicit".into()),
            Some(crate::partitioner::PartitionReason::KeyHash { .. }) => Value::String("key_hash".into()),
            Some(crate::partitioner::PartitionReason::Sticky) => Value::String("sticky".into()),
            Some(crate::partitioner::PartitionReason::RoundRobin { .. }) => Value::String("round_robin".into()),
        },
        Query::SentAtMs { producer: p, value } => producer_sent(read, p, value)?.map_or(Value::Null, |s| num(s.sent_at.ms())),
        Query::TimestampMs { topic, value } => stored(read, topic, value)?.map_or(Value::Null, |r| num(r.timestamp.ms())),
        Query::AppendedAtMs { topic, value } => stored(read, topic, value)?.map_or(Value::Null, |r| num(r.appended_at.ms())),
        Query::SendError { producer: p, value } => {
            let sent = producer_sent(read, p, value)?;
            match sent.and_then(|s| s.failed) {
                None => Value::Null,
                // The error as Kafka names it (`NOT_ENOUGH_REPLICAS`).
                Some(e) => Value::String(scenario::write_json(&e, false).trim_matches('"').to_string()),
            }
        }
        Query::BrokerAlive { broker } => Value::Bool(read.broker(*broker).ok_or(Missing::Broker(*broker))?.alive()),
        Query::EventCount { kind, mentions } => num(read.events().filter(|e| event_matches(&e.kind, kind, mentions)).count() as u64),
        Query::LastEventMs { kind, mentions } => {
            read.events().rev().find(|e| event_matches(&e.kind, kind, mentions)).map_or(Value::Null, |e| num(e.time.ms()))
        }
        Query::Buffered { group: g, client_id } => num(member(read, g, client_id)?.buffered().into()),
        Query::ValuesForKey { topic, key } => {
            let t = topic_named(read, topic)?;
            strings(
                t.partitions()
                    .filter_map(PartitionRead::log)
                    .flat_map(|l| l.records().iter())
                    .filter(|r| r.record.key.as_deref() == Some(key.as_str()))
                    .map(|r| r.record.value.as_str()),
            )
        }
        Query::ConnectorPosition { connector } => source_offset(connector_named(read, connector)?.position()),
        Query::ConnectorFlushed { connector } => source_offset(connector_named(read, connector)?.flushed()),
        Query::ConnectorUnflushed { connector } => num(connector_named(read, connector)?.unflushed().into()),
        Query::StoreCount { application_id, key } => {
            let app = read.streams_app(application_id).ok_or_else(|| Missing::StreamsApp(application_id.clone()))?;
            app.store_count(key).map_or(Value::Null, num)
        }
    })
}

fn connector_named<'a>(read: Read<'a>, name: &str) -> Result<ConnectorRead<'a>, Missing> {
    read.connector(name).ok_or_else(|| Missing::Connector(name.to_string()))
}

/// `[id]` or `[timestamp_ms, id]`, as the task's mode writes its source offset.
fn source_offset(o: Option<SourceOffset>) -> Value {
    o.map_or(Value::Null, |o| match o.timestamp_ms {
        None => Value::Array(vec![num(o.incrementing)]),
        Some(ts) => Value::Array(vec![num(ts), num(o.incrementing)]),
    })
}

/// The value the leader last appended at this offset, from the trace (for records that
/// are no longer in any log).
fn appended_value(read: Read<'_>, tp: &crate::record::TopicPartition, offset: u64) -> Option<String> {
    read.events().rev().find_map(|e| match &e.kind {
        crate::event::EventKind::Produce(ProduceEvent::RecordAppended { value, topic, partition, offset: o, .. })
            if topic == &tp.topic && *partition == tp.partition && *o == offset =>
        {
            Some(value.clone())
        }
        _ => None,
    })
}

/// The first record with this value in the topic's logs (partition by partition).
fn stored<'a>(read: Read<'a>, topic: &str, value: &str) -> Result<Option<&'a crate::record::StoredRecord>, Missing> {
    let t = topic_named(read, topic)?;
    Ok(t.partitions().filter_map(PartitionRead::log).find_map(|l| l.records().iter().find(|r| r.record.value == value)))
}

/// The producer's newest record with this value, if it remembers one.
fn producer_sent<'a>(read: Read<'a>, p: &str, value: &str) -> Result<Option<&'a SentRecord>, Missing> {
    Ok(producer(read, p)?.sent().rfind(|s| s.value == value))
}

/// A query in words, for check's messages.
pub fn describe(q: &Query) -> String {
    let on = |topic: &str, p: u32, broker: &Option<BrokerId>| match broker {
        Some(b) => format!("{topic}-{p} on broker {b}"),
        None => format!("{topic}-{p}"),
    };
    match q {
        Query::NowMs => "the time".into(),
        Query::PartitionOf { topic, value } => format!("the partition of {topic} holding \"{value}\""),
        Query::Records { topic, partition, broker } => format!("the records of {}", on(topic, *partition, broker)),
        Query::InLog { topic, partition, value, broker } => format!("whether \"{value}\" is in {}", on(topic, *partition, broker)),
        Query::ReceivedBy { group, value } => format!("who in {group} received \"{value}\""),
        Query::Received { group, client_id } => format!("what {client_id} of {group} received"),
        Query::Owner { group, topic, partition } => format!("the owner of {topic}-{partition} in {group}"),
        Query::Assigned { group, client_id, .. } => format!("the partitions of {client_id} in {group}"),
        Query::AssignedCount { group, client_id } => format!("how many partitions {client_id} of {group} owns"),
        Query::Revoked { group, client_id } => format!("what {client_id} of {group} gave up since the previous step"),
        Query::Members { group } => format!("the members of {group}"),
        Query::GroupState { group } => format!("the state of {group}"),
        Query::Generation { group } => format!("the generation of {group}"),
        Query::Rebalances { group } => format!("the rebalances of {group}"),
        Query::GroupLeader { group } => format!("the leader of {group}"),
        Query::Activity { group, client_id } => format!("what {client_id} of {group} is doing"),
        Query::Phase { group, client_id } => format!("the protocol phase of {client_id} of {group}"),
        Query::Position { group, client_id, topic, partition } => format!("the position of {client_id} of {group} on {topic}-{partition}"),
        Query::Committed { group, topic, partition } => format!("the committed offset of {group} on {topic}-{partition}"),
        Query::ProcessedTwice { group } => format!("the records {group} processed twice"),
        Query::DuplicateValues { group } => format!("the values {group} processed twice"),
        Query::LostByGroup { group } => format!("the records {group} committed without processing"),
        Query::LostValues { group } => format!("the values {group} committed without processing"),
        Query::InHand { group, client_id } => format!("the records {client_id} of {group} has not finished processing"),
        Query::HighWatermark { topic, partition, broker } => format!("the high watermark of {}", on(topic, *partition, broker)),
        Query::LogEndOffset { topic, partition, broker } => format!("the log end offset of {}", on(topic, *partition, broker)),
        Query::LogStartOffset { topic, partition, broker } => format!("the log start offset of {}", on(topic, *partition, broker)),
        Query::Leader { topic, partition } => format!("the leader of {topic}-{partition}"),
        Query::LeaderEpoch { topic, partition } => format!("the leader epoch of {topic}-{partition}"),
        Query::Isr { topic, partition } => format!("the ISR of {topic}-{partition}"),
        Query::LostInElection { topic, partition } => format!("the records lost in elections on {topic}-{partition}"),
        Query::AckedOffset { producer, value } => format!("the acknowledged offset of \"{value}\" from {producer}"),
        Query::SendError { producer, value } => format!("the send error of \"{value}\" from {producer}"),
        Query::PartitionReason { producer, value } => format!("why {producer} chose the partition of \"{value}\""),
        Query::SentAtMs { producer, value } => format!("when {producer} sent \"{value}\""),
        Query::TimestampMs { topic, value } => format!("the timestamp of \"{value}\" in {topic}"),
        Query::AppendedAtMs { topic, value } => format!("when \"{value}\" was appended to {topic}"),
        Query::BrokerAlive { broker } => format!("whether broker {broker} is running"),
        Query::EventCount { kind, mentions } => format!("the number of {kind} events{}", mentions_text(mentions)),
        Query::LastEventMs { kind, mentions } => format!("the time of the last {kind} event{}", mentions_text(mentions)),
        Query::Buffered { group, client_id } => format!("the records {client_id} of {group} holds unprocessed"),
        Query::ValuesForKey { topic, key } => format!("the values with key \"{key}\" in {topic}"),
        Query::ConnectorPosition { connector } => format!("the source offset of {connector}'s task"),
        Query::ConnectorFlushed { connector } => format!("the flushed source offset of {connector}"),
        Query::ConnectorUnflushed { connector } => format!("the records {connector} sent since its last offset flush"),
        Query::StoreCount { application_id, key } => format!("the count of \"{key}\" in {application_id}'s store"),
    }
}

// ----- built-in lessons -------------------------------------------------------------

/// The built-in lessons' files (`core/lessons/<name>.json`), in teaching order. The page
/// fetches them (`lessons/<name>.json`, copied there by Trunk) when the learner opens the
/// list, so they are not part of its download; natively, and with the `embedded-lessons`
/// feature, they are compiled in ([`BUILT_IN`]).
pub const LESSON_FILES: &[&str] = &[
    "01-topics-partitions",
    "02-producer",
    "03-consumer-groups",
    "04-assignors",
    "05-rebalance",
    "06-offsets-commits",
    "07-retention",
    "08-pull-vs-push",
    "09-reliability",
    "10-connect-and-streams",
];

/// A lesson's number from its file name ("05-rebalance" is lesson 5; 0 without one).
pub fn lesson_number(file: &str) -> u32 {
    file.split('-').next().and_then(|n| n.parse().ok()).unwrap_or(0)
}

/// The built-in lessons, by file name, in teaching order (compiled in).
#[cfg(feature = "embedded-lessons")]
pub const BUILT_IN: &[(&str, &str)] = &[
    ("01-topics-partitions", include_str!("../lessons/01-topics-partitions.json")),
    ("02-producer", include_str!("../lessons/02-producer.json")),
    ("03-consumer-groups", include_str!("../lessons/03-consumer-groups.json")),
    ("04-assignors", include_str!("../lessons/04-assignors.json")),
    ("05-rebalance", include_str!("../lessons/05-rebalance.json")),
    ("06-offsets-commits", include_str!("../lessons/06-offsets-commits.json")),
    ("07-retention", include_str!("../lessons/07-retention.json")),
    ("08-pull-vs-push", include_str!("../lessons/08-pull-vs-push.json")),
    ("09-reliability", include_str!("../lessons/09-reliability.json")),
    ("10-connect-and-streams", include_str!("../lessons/10-connect-and-streams.json")),
];

/// Every built-in lesson, parsed (a file that does not parse gives its error; the tests
/// make sure none does).
#[cfg(feature = "embedded-lessons")]
pub fn built_in_lessons() -> Vec<Result<Lesson, LessonError>> {
    BUILT_IN.iter().map(|(_, text)| Lesson::from_json(text)).collect()
}

/// A built-in lesson by id.
#[cfg(feature = "embedded-lessons")]
pub fn built_in(id: &str) -> Option<Lesson> {
    built_in_lessons().into_iter().flatten().find(|l| l.id == id)
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use crate::command::GroupCommand;

    #[test]
    fn the_page_fetches_exactly_the_files_compiled_in_and_the_folder_holds() {
        let compiled: Vec<&str> = BUILT_IN.iter().map(|(name, _)| *name).collect();
        assert_eq!(compiled, LESSON_FILES);
        let mut on_disk: Vec<String> = std::fs::read_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/lessons"))
            .unwrap()
            .filter_map(|e| e.ok()?.file_name().to_str()?.strip_suffix(".json").map(String::from))
            .collect();
        on_disk.sort();
        assert_eq!(on_disk, LESSON_FILES, "every file in core/lessons is listed, in order");
        assert_eq!(LESSON_FILES.iter().map(|f| lesson_number(f)).collect::<Vec<_>>(), (1..=10).collect::<Vec<_>>());
    }

    use super::*;
    use crate::event::EventKind;
    use serde_json::json;

    /// The built-in two-groups scenario at 12 s (its documented result, see
    /// docs/scenario-format.md).
    fn two_groups() -> Sim {
        let mut sim = scenario::built_in("two-groups").unwrap().unwrap().build().unwrap();
        sim.run_until(SimTime(12_000));
        sim
    }

    fn ask(sim: &Sim, q: Value) -> Result<Value, String> {
        let q: Query = serde_json::from_value(q).unwrap();
        answer(sim, &q, 0).map_err(|m| m.to_string())
    }

    #[test]
    fn queries_answer_from_the_simulation() {
        let sim = two_groups();
        let g1 = "ConsumerGroup01";
        let cases = [
            (json!({"ask": "now_ms"}), json!(12000)),
            (json!({"ask": "partition_of", "topic": "Topic01", "value": "m5"}), json!(0)),
            (json!({"ask": "partition_of", "topic": "Topic01", "value": "nope"}), json!(null)),
            (json!({"ask": "records", "topic": "Topic01", "partition": 2}), json!(["m3", "m7"])),
            (json!({"ask": "records", "topic": "Topic01", "partition": 3, "broker": 0}), json!(["m4"])),
            (json!({"ask": "in_log", "topic": "Topic01", "partition": 1, "value": "m6"}), json!(true)),
            (json!({"ask": "in_log", "topic": "Topic01", "partition": 1, "value": "m5"}), json!(false)),
            (json!({"ask": "received_by", "group": g1, "value": "m5"}), json!(["Consumer1"])),
            (json!({"ask": "received_by", "group": "ConsumerGroup02", "value": "m6"}), json!(["Consumer1"])),
            (json!({"ask": "received", "group": g1, "client_id": "Consumer2"}), json!(["m2", "m4", "m6"])),
            (json!({"ask": "owner", "group": g1, "topic": "Topic01", "partition": 3}), json!("Consumer2")),
            (json!({"ask": "assigned", "group": g1, "client_id": "Consumer1"}), json!([0, 2])),
            (json!({"ask": "assigned", "group": g1, "client_id": "Consumer1", "topic": "Other"}), json!([])),
            (json!({"ask": "assigned_count", "group": "ConsumerGroup02", "client_id": "Consumer1"}), json!(4)),
            (json!({"ask": "revoked", "group": g1, "client_id": "Consumer1"}), json!([])),
            (json!({"ask": "members", "group": g1}), json!(["Consumer1", "Consumer2"])),
            (json!({"ask": "group_state", "group": g1}), json!("Stable")),
            (json!({"ask": "generation", "group": g1}), json!(1)),
            (json!({"ask": "rebalances", "group": g1}), json!(1)),
            (json!({"ask": "group_leader", "group": g1}), json!("Consumer1")),
            (json!({"ask": "phase", "group": g1, "client_id": "Consumer2"}), json!("stable")),
            (json!({"ask": "position", "group": g1, "client_id": "Consumer2", "topic": "Topic01", "partition": 3}), json!(1)),
            (json!({"ask": "position", "group": g1, "client_id": "Consumer2", "topic": "Topic01", "partition": 0}), json!(null)),
            (json!({"ask": "committed", "group": g1, "topic": "Topic01", "partition": 0}), json!(2)),
            (json!({"ask": "committed", "group": g1, "topic": "Topic01", "partition": 1}), json!(null)),
            (json!({"ask": "processed_twice", "group": g1}), json!(0)),
            (json!({"ask": "duplicate_values", "group": g1}), json!([])),
            (json!({"ask": "lost_by_group", "group": g1}), json!(0)),
            (json!({"ask": "lost_values", "group": g1}), json!([])),
            (json!({"ask": "in_hand", "group": g1, "client_id": "Consumer1"}), json!([])),
            (json!({"ask": "high_watermark", "topic": "Topic01", "partition": 0}), json!(2)),
            (json!({"ask": "log_end_offset", "topic": "Topic01", "partition": 3}), json!(1)),
            (json!({"ask": "log_start_offset", "topic": "Topic01", "partition": 3}), json!(0)),
            (json!({"ask": "leader", "topic": "Topic01", "partition": 0}), json!(2)),
            (json!({"ask": "leader_epoch", "topic": "Topic01", "partition": 0}), json!(0)),
            (json!({"ask": "isr", "topic": "Topic01", "partition": 0}), json!([2, 0, 1])),
            (json!({"ask": "lost_in_election", "topic": "Topic01", "partition": 0}), json!([])),
            (json!({"ask": "acked_offset", "producer": "Producer1", "value": "m6"}), json!(1)),
            (json!({"ask": "send_error", "producer": "Producer1", "value": "m6"}), json!(null)),
            (json!({"ask": "partition_reason", "producer": "Producer1", "value": "m6"}), json!("round_robin")),
            (json!({"ask": "sent_at_ms", "producer": "Producer1", "value": "m6"}), json!(9500)),
            (json!({"ask": "timestamp_ms", "topic": "Topic01", "value": "m6"}), json!(9500)),
            (json!({"ask": "appended_at_ms", "topic": "Topic01", "value": "m6"}), json!(9605)),
            (json!({"ask": "timestamp_ms", "topic": "Topic01", "value": "m99"}), json!(null)),
            (json!({"ask": "broker_alive", "broker": 1}), json!(true)),
            (json!({"ask": "event_count", "kind": "group_stable"}), json!(2)),
            (json!({"ask": "last_event_ms", "kind": "group_stable", "mentions": ["ConsumerGroup01"]}), json!(6500)),
            (json!({"ask": "last_event_ms", "kind": "broker_crashed"}), json!(null)),
            (json!({"ask": "event_count", "kind": "record_delivered", "mentions": ["ConsumerGroup02"]}), json!(7)),
            (json!({"ask": "event_count", "kind": "record_delivered", "mentions": ["ConsumerGroup02", "m3"]}), json!(1)),
        ];
        for (q, expected) in cases {
            assert_eq!(ask(&sim, q.clone()), Ok(expected), "{q}");
        }
    }

    #[test]
    fn queries_naming_what_does_not_exist_are_errors() {
        let sim = two_groups();
        for (q, message) in [
            (json!({"ask": "group_state", "group": "G9"}), "there is no consumer group \"G9\""),
            (json!({"ask": "received", "group": "ConsumerGroup01", "client_id": "C9"}), "group \"ConsumerGroup01\" has no member \"C9\""),
            (json!({"ask": "records", "topic": "T9", "partition": 0}), "there is no topic \"T9\""),
            (
                json!({"ask": "leader", "topic": "Topic01", "partition": 4}),
                "topic \"Topic01\" has partitions 0..3 but partition 4 was asked for",
            ),
            (json!({"ask": "records", "topic": "Topic01", "partition": 0, "broker": 7}), "broker 7 holds no replica of Topic01-0"),
            (json!({"ask": "acked_offset", "producer": "P9", "value": "m1"}), "there is no producer \"P9\""),
            (json!({"ask": "broker_alive", "broker": 3}), "there is no broker 3"),
        ] {
            assert_eq!(ask(&sim, q), Err(message.to_string()));
        }
    }

    #[test]
    fn an_owner_is_who_holds_the_partition_now() {
        let mut sim = two_groups();
        sim.apply(GroupCommand::CrashMember { group: "ConsumerGroup01".into(), client_id: "Consumer2".into() }).unwrap();
        // A crashed member owns nothing, although the coordinator has not noticed yet.
        assert_eq!(ask(&sim, json!({"ask": "owner", "group": "ConsumerGroup01", "topic": "Topic01", "partition": 1})), Ok(json!(null)));
        assert_eq!(ask(&sim, json!({"ask": "members", "group": "ConsumerGroup01"})), Ok(json!(["Consumer1"])));
        assert_eq!(ask(&sim, json!({"ask": "phase", "group": "ConsumerGroup01", "client_id": "Consumer2"})), Ok(json!("crashed")));
    }

    #[test]
    fn revoked_counts_only_since_the_mark() {
        let mut sim = two_groups();
        let mark = sim.trace().total();
        sim.apply(GroupCommand::AddMember { group: "ConsumerGroup01".into(), member: crate::command::MemberSpec::new("Consumer3") })
            .unwrap();
        sim.run_until(SimTime(30_000));
        let q = json!({"ask": "revoked", "group": "ConsumerGroup01", "client_id": "Consumer1"});
        let q: Query = serde_json::from_value(q).unwrap();
        // Eager RoundRobin: Consumer1 gave up both its partitions when Consumer3 joined.
        assert_eq!(answer(&sim, &q, mark), Ok(json!(["Topic01-0", "Topic01-2"])));
        assert_eq!(answer(&sim, &q, sim.trace().total()), Ok(json!([])));
    }

    #[test]
    fn events_match_by_kind_and_whole_names() {
        let sim = two_groups();
        let delivered = sim.trace().events().find(|e| e.kind.name() == "RecordDelivered").unwrap();
        assert!(event_matches(&delivered.kind, "record_delivered", &[]));
        assert!(!event_matches(&delivered.kind, "RecordDelivered", &[]), "the trace's snake_case type only");
        assert!(event_matches(&delivered.kind, "record_delivered", &["Topic01".into()]));
        assert!(!event_matches(&delivered.kind, "record_delivered", &["Topic0".into()]), "a part of a name is not a mention");
        assert!(!event_matches(&delivered.kind, "record_delivered", &["group".into()]), "a field's name is not a mention");
        let left = EventKind::Group(GroupEvent::MemberLeft {
            group: "g".into(),
            client_id: "c".into(),
            member_id: "c-1".into(),
            reason: crate::event::LeaveReason::SessionTimeout,
        });
        assert!(event_matches(&left, "member_left", &["session_timeout".into(), "c".into()]), "enum values as the trace writes them");
        assert_eq!(snake("HighWatermarkAdvanced"), "high_watermark_advanced");
    }

    /// The match is on the typed event: names, record values, error codes and reasons
    /// match; what matched before only as a string of the event's JSON does not: its own
    /// `type`, a cause's `kind` tag spelled as a field, a refusal's sentence, a number.
    #[test]
    fn mentions_match_the_typed_event_not_its_json() {
        let failed = EventKind::Produce(ProduceEvent::ProduceFailed {
            producer: "p".into(),
            topic: "orders".into(),
            partition: 1,
            records: vec![crate::record::RecordId(4)],
            error: crate::event::ProduceError::NotEnoughReplicas,
            retrying: true,
        });
        for m in ["p", "orders", "NOT_ENOUGH_REPLICAS"] {
            assert!(event_matches(&failed, "produce_failed", &[m.into()]), "{m}");
        }
        let json = scenario::write_json(&failed, false);
        // Each of these is a whole string of the JSON (or a field's name) and used to be
        // looked for there; none is a name, a value or a detail of the event.
        for m in ["produce_failed", "type", "error", "retrying", "1", "4"] {
            assert!(json.contains(m), "{m} is in {json}");
            assert!(!event_matches(&failed, "produce_failed", &[m.into()]), "{m}");
        }
        let appended = EventKind::Produce(ProduceEvent::RecordAppended {
            record: crate::record::RecordId(1),
            value: "order-1 paid".into(),
            topic: "orders".into(),
            partition: 0,
            offset: 0,
            timestamp: SimTime(5),
            broker: 2,
            leader_epoch: 0,
        });
        assert!(event_matches(&appended, "record_appended", &["order-1 paid".into(), "orders".into(), "2".into()]), "value, topic, broker");
        assert!(!event_matches(&appended, "record_appended", &["order-1".into()]), "part of a value");
        let rejected = EventKind::Settings(crate::event::SettingsEvent::CommandRejected { reason: "there is no broker 9".into() });
        assert!(!event_matches(&rejected, "command_rejected", &["there is no broker 9".into()]), "a sentence is not a detail");
        let started = EventKind::Group(GroupEvent::RebalanceStarted {
            group: "g".into(),
            cause: crate::event::RebalanceCause::MemberJoined { client_id: "c".into() },
        });
        assert!(event_matches(&started, "rebalance_started", &["g".into(), "c".into(), "member_joined".into()]));
        assert!(!event_matches(&started, "rebalance_started", &["kind".into()]));
    }

    #[test]
    fn texts_need_both_languages_and_chinese_in_chinese() {
        let t = |en: &str, zh: &str| Text { en: en.into(), zh: zh.into() };
        assert!(check_text("x", &t("Partitions", "分区")).is_ok());
        assert!(check_text("x", &t("acks=all", "acks=all")).is_ok(), "the same text in both: a setting's name");
        assert_eq!(check_text("x", &t("Partitions", "")).unwrap_err().path, "x.zh");
        assert_eq!(check_text("x", &t(" ", "分区")).unwrap_err().path, "x.en");
        let e = check_text("x", &t("Partitions", "Partitions!")).unwrap_err();
        assert!(matches!(&e.problem, LessonProblem::NotChinese { text } if text == "Partitions!"), "{e}");
        assert!(e.to_string().contains("no Chinese characters"), "{e}");
        assert!(check_text("x", &t("分区", "分区")).is_err(), "Chinese in the English text");
        assert!(check_text("x", &t(&"a".repeat(MAX_TEXT_CHARS + 1), "分区")).is_err());
    }

    #[test]
    fn values_are_small_json_without_objects_or_fractions() {
        assert!(check_value(&json!([["a", 1], [true, null]])).is_ok());
        assert!(check_value(&json!(1.5)).is_err());
        assert!(check_value(&json!({"a": 1})).is_err());
        assert!(check_value(&json!([[[1]]])).is_err());
        assert!(check_value(&Value::Array(vec![json!(1); MAX_VALUE_ITEMS + 1])).is_err());
        assert_eq!(show(&json!(["Consumer1", 2])), "[Consumer1, 2]");
    }

    #[test]
    fn queries_answer_about_push_buffers_keys_connectors_and_stores() {
        // A slow push member, a source connector (timestamp+incrementing) and a Streams
        // count over the connector's topic.
        let text = r#"{
          "version": 1, "seed": 1,
          "cluster": { "brokers": 1, "group_initial_rebalance_delay_ms": 0 },
          "topics": [{ "name": "t", "partitions": 1 }, { "name": "rows", "partitions": 1 }, { "name": "counts", "partitions": 1 }],
          "producers": [{ "name": "p", "send": [{ "topic": "t", "values": ["a", "b", "c"], "keys": ["k", "j", "k"], "start_ms": 1000, "interval_ms": 10 }] }],
          "groups": [{ "id": "g", "topics": ["t"], "config": { "auto_offset_reset": "earliest", "delivery": "push" },
                       "members": [{ "client_id": "c", "config": { "processing_ms": 10000 } }] }],
          "connectors": [{ "name": "db", "topic": "rows", "mode": "timestamp+incrementing",
                           "table": { "rows": [{ "id": 1, "value": "x" }], "changes": [{ "at_ms": 3000, "update": { "id": 1, "value": "y" } }] } }],
          "streams": [{ "application_id": "app", "source": "rows", "sink": "counts", "op": { "count_by_key": {} } }]
        }"#;
        let mut sim = Scenario::from_json(text).unwrap().build().unwrap();
        sim.run_until(SimTime(7_000));
        for (q, expected) in [
            (json!({"ask": "buffered", "group": "g", "client_id": "c"}), json!(3)),
            (json!({"ask": "values_for_key", "topic": "t", "key": "k"}), json!(["a", "c"])),
            (json!({"ask": "values_for_key", "topic": "t", "key": "z"}), json!([])),
            (json!({"ask": "connector_position", "connector": "db"}), json!([3000, 1])),
            (json!({"ask": "connector_flushed", "connector": "db"}), json!(null)),
            (json!({"ask": "connector_unflushed", "connector": "db"}), json!(1)),
            (json!({"ask": "store_count", "application_id": "app", "key": "1"}), json!(1)),
            (json!({"ask": "store_count", "application_id": "app", "key": "2"}), json!(null)),
        ] {
            assert_eq!(ask(&sim, q.clone()), Ok(expected), "{q}");
        }
        sim.run_until(SimTime(61_000));
        assert_eq!(ask(&sim, json!({"ask": "connector_flushed", "connector": "db"})), Ok(json!([3000, 1])));
        assert_eq!(ask(&sim, json!({"ask": "connector_unflushed", "connector": "db"})), Ok(json!(0)));
        assert_eq!(ask(&sim, json!({"ask": "connector_position", "connector": "x"})), Err("there is no connector \"x\"".into()));
        assert_eq!(
            ask(&sim, json!({"ask": "store_count", "application_id": "x", "key": "1"})),
            Err("there is no Streams application \"x\"".into())
        );
        assert_eq!(ask(&sim, json!({"ask": "buffered", "group": "g", "client_id": "x"})), Err("group \"g\" has no member \"x\"".into()));
        // Incrementing mode writes only the id.
        assert_eq!(source_offset(Some(crate::sim::connect::SourceOffset { timestamp_ms: None, incrementing: 4 })), json!([4]));
    }

    /// One of each variant, every optional field set (so the writer writes it). A variant
    /// missing here fails `every_query_variant_reads_back_what_the_writer_wrote`.
    fn every_query() -> Vec<Query> {
        let s = |x: &str| x.to_string();
        let (g, c, t, v, p) = (|| s("g"), || s("c"), || s("t"), || s("v"), || s("p"));
        vec![
            Query::NowMs,
            Query::PartitionOf { topic: t(), value: v() },
            Query::Records { topic: t(), partition: 1, broker: Some(2) },
            Query::InLog { topic: t(), partition: 1, value: v(), broker: Some(2) },
            Query::ReceivedBy { group: g(), value: v() },
            Query::Received { group: g(), client_id: c() },
            Query::Owner { group: g(), topic: t(), partition: 1 },
            Query::Assigned { group: g(), client_id: c(), topic: Some(t()) },
            Query::AssignedCount { group: g(), client_id: c() },
            Query::Revoked { group: g(), client_id: c() },
            Query::Members { group: g() },
            Query::GroupState { group: g() },
            Query::Generation { group: g() },
            Query::Rebalances { group: g() },
            Query::GroupLeader { group: g() },
            Query::Activity { group: g(), client_id: c() },
            Query::Phase { group: g(), client_id: c() },
            Query::Position { group: g(), client_id: c(), topic: t(), partition: 1 },
            Query::Committed { group: g(), topic: t(), partition: 1 },
            Query::ProcessedTwice { group: g() },
            Query::DuplicateValues { group: g() },
            Query::LostByGroup { group: g() },
            Query::LostValues { group: g() },
            Query::InHand { group: g(), client_id: c() },
            Query::HighWatermark { topic: t(), partition: 1, broker: Some(2) },
            Query::LogEndOffset { topic: t(), partition: 1, broker: Some(2) },
            Query::LogStartOffset { topic: t(), partition: 1, broker: Some(2) },
            Query::Leader { topic: t(), partition: 1 },
            Query::LeaderEpoch { topic: t(), partition: 1 },
            Query::Isr { topic: t(), partition: 1 },
            Query::LostInElection { topic: t(), partition: 1 },
            Query::AckedOffset { producer: p(), value: v() },
            Query::PartitionReason { producer: p(), value: v() },
            Query::SentAtMs { producer: p(), value: v() },
            Query::TimestampMs { topic: t(), value: v() },
            Query::AppendedAtMs { topic: t(), value: v() },
            Query::SendError { producer: p(), value: v() },
            Query::BrokerAlive { broker: 2 },
            Query::EventCount { kind: s("k"), mentions: vec![s("m")] },
            Query::LastEventMs { kind: s("k"), mentions: vec![s("m"), s("n")] },
            Query::Buffered { group: g(), client_id: c() },
            Query::ValuesForKey { topic: t(), key: s("k") },
            Query::ConnectorPosition { connector: s("x") },
            Query::ConnectorFlushed { connector: s("x") },
            Query::ConnectorUnflushed { connector: s("x") },
            Query::StoreCount { application_id: s("a"), key: s("k") },
        ]
    }

    /// The message (with its place) for a query read as a list of queries.
    fn query_refusal(text: &str) -> String {
        scenario::parse_json::<Vec<Query>>(&format!("[{text}]")).unwrap_err().to_string()
    }

    fn read_query(text: &str) -> Query {
        scenario::parse_json::<Query>(text).unwrap()
    }

    #[test]
    fn every_query_variant_reads_back_what_the_writer_wrote() {
        let all = every_query();
        crate::tagged::tests::check_tags(&all);
        for q in all {
            let text = scenario::write_json(&q, false);
            assert_eq!(read_query(&text), q, "{text}");
            let last = crate::tagged::tests::tag_last(&text);
            assert_eq!(read_query(&last), q, "tag last: {last}");
        }
    }

    /// Each field left out: a required one is refused by name, a `#[serde(default)]` one
    /// reads as its default (which the writer leaves out).
    #[test]
    fn a_query_without_a_field_is_refused_naming_it_unless_the_field_has_a_default() {
        let mut defaults = Vec::new();
        for q in every_query() {
            let text = scenario::write_json(&q, false);
            let object: serde_json::Map<String, Value> = serde_json::from_str(&text).unwrap();
            for field in object.keys().filter(|k| *k != "ask") {
                let mut less = object.clone();
                less.remove(field);
                let less = scenario::write_json(&less, false);
                match scenario::parse_json::<Query>(&less) {
                    Ok(read) => {
                        let written: serde_json::Map<String, Value> = serde_json::from_str(&scenario::write_json(&read, false)).unwrap();
                        assert!(!written.contains_key(field), "{less}");
                        defaults.push(format!("{}.{field}", object["ask"].as_str().unwrap()));
                    }
                    Err(e) => assert!(e.to_string().contains(&format!("missing field `{field}`")), "{less}: {e}"),
                }
            }
        }
        assert_eq!(
            defaults,
            [
                "records.broker",
                "in_log.broker",
                "assigned.topic",
                "high_watermark.broker",
                "log_end_offset.broker",
                "log_start_offset.broker",
                "event_count.mentions",
                "last_event_ms.mentions"
            ]
        );
        assert_eq!(query_refusal(r#"{"ask": "owner", "group": "g", "partition": 1}"#), "[0] (line 1, column 47): missing field `topic`");
    }

    #[test]
    fn a_field_of_another_query_is_refused_naming_it_and_what_the_variant_takes() {
        assert_eq!(
            query_refusal(r#"{"ask": "records", "topic": "t", "partition": 1, "group": "g"}"#),
            "[0].group (line 1, column 57): unknown field `group`, expected one of `topic`, `partition`, `broker`"
        );
        assert_eq!(
            query_refusal(r#"{"topic": "t", "group": "g", "partition": 1, "ask": "records"}"#),
            "[0] (line 1, column 63): unknown field `group`, expected one of `topic`, `partition`, `broker`"
        );
        assert!(query_refusal(r#"{"ask": "members", "group": "g", "grop": "g"}"#).ends_with("unknown field `grop`, expected `group`"));
        // now_ms took any key, as serde's derive let a unit variant do.
        assert_eq!(read_query(r#"{"ask": "now_ms", "group": 5, "x": []}"#), Query::NowMs);
        assert_eq!(read_query(r#"{"group": 5, "x": [], "ask": "now_ms"}"#), Query::NowMs);
    }

    #[test]
    fn an_unknown_query_is_refused_listing_the_asks() {
        let e = query_refusal(r#"{"ask": "guess"}"#);
        assert!(
            e.starts_with("[0].ask (line 1, column 16): unknown variant `guess`, expected one of `now_ms`, `partition_of`, `records`, "),
            "{e}"
        );
        assert!(e.ends_with(", `connector_unflushed`, `store_count`"), "{e}");
        assert!(query_refusal(r#"{"group": "g"}"#).ends_with("missing field `ask`"));
    }

    /// `topic` and `broker` are an `Option` in some queries and required in others: `null`
    /// is "none" in the first and refused in the second, as with serde's derive.
    #[test]
    fn a_null_is_none_where_the_field_is_optional_and_refused_where_it_is_required() {
        assert_eq!(
            read_query(r#"{"ask": "assigned", "group": "g", "client_id": "c", "topic": null}"#),
            Query::Assigned { group: "g".into(), client_id: "c".into(), topic: None }
        );
        assert_eq!(
            read_query(r#"{"ask": "records", "topic": "t", "partition": 0, "broker": null}"#),
            Query::Records { topic: "t".into(), partition: 0, broker: None }
        );
        assert!(query_refusal(r#"{"ask": "owner", "group": "g", "topic": null, "partition": 1}"#)
            .ends_with("invalid type: null, expected a string"));
        assert!(query_refusal(r#"{"ask": "broker_alive", "broker": null}"#)
            .ends_with("invalid type: null, expected a whole number from 0 to 4294967295"));
        assert!(query_refusal(r#"{"ask": "records", "topic": "t", "partition": "0"}"#)
            .starts_with("[0].partition (line 1, column 50): invalid type: string \"0\""));
    }
}
