//! Lessons: a scenario plus narrated steps, claims the simulation must confirm, and
//! predict-then-reveal questions whose correct answer the simulation computes.
//!
//! A lesson is data (a versioned JSON file, `core/lessons/*.json`, documented in
//! docs/lesson-format.md): every text exists in English and Chinese in the same place, so
//! both languages have the same steps by construction. [`check`] runs a lesson and
//! reports every claim the simulation contradicts and every question that has not exactly
//! one correct choice; the test suite runs it on every built-in lesson, so narration that
//! disagrees with the simulation fails the build.
//!
//! The queries a claim or a question asks are in `query/`, one file per Kafka feature;
//! this file is the format, its checks and the runner.

use crate::command::{Command, CommandError};
use crate::record::BrokerId;
use crate::scenario::{self, Problem, Scenario, ScenarioError};
use crate::sim::Sim;
use crate::time::SimTime;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::fmt;

mod query;

pub use query::{answer, describe, ConnectQuery, GroupQuery, ProduceQuery, Query, ReplicationQuery, RunQuery, StreamsQuery};

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
    /// The English text.
    pub en: String,
    /// The Chinese text (the same as `en` only for what reads the same in both, such as a
    /// setting's name).
    pub zh: String,
}

/// The language to read a [`Text`] in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum Lang {
    /// English.
    En,
    /// Chinese.
    Zh,
}

impl Text {
    /// The text in `lang`.
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
    /// The lesson's name, shown in the list of lessons.
    pub title: Text,
    /// What the lesson teaches, shown under its title in the list of lessons.
    pub summary: Text,
    /// The scenario the lesson runs from time zero: a built-in one by name, or one written
    /// in the file.
    pub scenario: ScenarioRef,
    /// The narrated steps, run in order (1 to [`MAX_STEPS`]).
    pub steps: Vec<Step>,
    /// Shown after the last step, when the learner may do anything with the run.
    pub free_play: Text,
}

/// The scenario a lesson runs.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
#[non_exhaustive]
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
    /// What the step does to the simulation before it speaks (absent: nothing, no time
    /// passes).
    #[serde(default, skip_serializing_if = "Run::is_none")]
    pub run: Run,
    /// The narration, shown once the run is done.
    pub say: Text,
    /// What the page highlights while the step is shown (at most [`MAX_FOCUS`]).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub look_at: Vec<Focus>,
    /// What the narration states, each answered by the simulation right after the run and
    /// compared with the lesson's answer (at most [`MAX_CLAIMS`]).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub claims: Vec<Claim>,
    /// A predict-then-reveal question, asked after the narration.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub question: Option<Question>,
}

/// How a step moves the simulation: first apply `apply` (in order, now), then run to
/// `until_ms`, for `for_ms`, or until an event (at most one of the three; none: no time
/// passes).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Run {
    /// Commands applied now, in order, before any time passes, as the page applies a
    /// learner's actions (at most [`MAX_APPLY`]; a refused one stops the lesson).
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
    /// Whether the run does nothing: no command, and no time passes (a step without
    /// `run`).
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
    /// One partition of a topic.
    Partition {
        /// The topic's name.
        topic: String,
        /// The partition number.
        partition: u32,
    },
    /// One member of a consumer group.
    Member {
        /// The group's id (`group.id`).
        group: String,
        /// The member's client id.
        client_id: String,
    },
    /// A consumer group, by id.
    Group(String),
    /// A broker, by id.
    Broker(BrokerId),
    /// A producer, by name.
    Producer(String),
    /// Every record with this value, wherever it shows.
    Record(String),
}

/// A statement the narration makes, as a query and the answer the simulation must give.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Claim {
    /// What the claim asks the simulation.
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
    /// The question put to the learner.
    pub ask: Text,
    /// The possible answers (2 to [`MAX_CHOICES`], no two with the same value).
    pub choices: Vec<Choice>,
    /// The query whose answer, after `reveal`, decides which choice is correct.
    pub query: Query,
    /// What runs once the learner has answered, before the query is asked: usually the
    /// thing the learner was asked to predict (absent: nothing, no time passes).
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
    /// The query answer this choice stands for (compared with the answer for equality).
    pub value: Value,
    /// How to say it in both languages (absent: the value is shown, as [`show`] writes it).
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

/// What is wrong with a lesson, and where.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LessonError {
    /// A JSON path (`steps[2].claims[0]`), with the step number people count (step 3).
    pub path: String,
    /// Where in the text, for a mistake found while reading the JSON: line and column.
    pub line_column: Option<(usize, usize)>,
    /// What is wrong, with its parameters.
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
        /// The number as the file wrote it.
        number: String,
    },
    /// Lists nested more than two deep.
    TooDeep,
    /// A JSON object, which is never an answer.
    Object,
}

/// What a query, a focus or a step names that the simulation does not have.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Missing {
    /// No topic with this name.
    Topic(String),
    /// No broker with this id.
    Broker(BrokerId),
    /// No consumer group with this id.
    Group(String),
    /// The group has no member with this client id.
    Member {
        /// The group's id.
        group: String,
        /// The client id asked for.
        client_id: String,
    },
    /// No producer with this name.
    Producer(String),
    /// No source connector with this name.
    Connector(String),
    /// No Kafka Streams application with this `application.id`.
    StreamsApp(String),
    /// A partition number past the topic's last.
    Partition {
        /// The topic's name.
        topic: String,
        /// The partition number asked for.
        partition: u32,
        /// How many partitions the topic has.
        partitions: u32,
    },
    /// A partition with no log to read (no replica at all).
    Log {
        /// The topic's name.
        topic: String,
        /// The partition number.
        partition: u32,
    },
    /// A broker (a query's `broker`) that holds no replica of the partition.
    Replica {
        /// The broker asked for.
        broker: BrokerId,
        /// The topic's name.
        topic: String,
        /// The partition number.
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
        /// The text's length in bytes.
        bytes: usize,
    },
    /// The text is JSON but not an object.
    NotAnObject,
    /// A `version` other than [`LESSON_FORMAT_VERSION`].
    VersionUnsupported {
        /// The version the file wrote.
        version: String,
    },
    /// `version` is not a number; `written` is its JSON.
    VersionNotANumber {
        /// The `version` value as JSON.
        written: String,
    },
    /// No `version` field.
    VersionMissing,
    /// A mistake in the lesson's JSON, or its scenario refused (`scenario.inline...`).
    Scenario(Problem),
    /// The built-in scenario named does not load.
    BuiltInScenario(Box<ScenarioError>),
    /// `scenario.built_in` names no built-in scenario.
    NoBuiltInScenario {
        /// The name the lesson gave.
        name: String,
    },
    /// An id not 1 to 64 characters long.
    IdLength {
        /// The id as written.
        id: String,
    },
    /// An id with a character other than `a-z`, `0-9` and `-`.
    IdCharacters {
        /// The id as written.
        id: String,
    },
    /// A text empty (or only whitespace) in one language.
    TextEmpty,
    /// A text longer than [`MAX_TEXT_CHARS`] characters in one language.
    TextTooLong {
        /// Its length in characters.
        chars: usize,
    },
    /// A text with a control character other than a newline.
    TextControl,
    /// The Chinese text has no Chinese characters.
    NotChinese {
        /// The Chinese text as written.
        text: String,
    },
    /// The English text has Chinese characters.
    ChineseInEnglish {
        /// The English text as written.
        text: String,
    },
    /// No steps, or more than [`MAX_STEPS`].
    Steps {
        /// How many steps the lesson has.
        count: usize,
    },
    /// A step's list longer than its limit.
    TooMany {
        /// Which list.
        what: Listed,
        /// How many entries it has.
        count: usize,
    },
    /// A question with fewer than 2 or more than [`MAX_CHOICES`] choices.
    Choices {
        /// How many choices it has.
        count: usize,
    },
    /// A claim's `expect` or a choice's `value` that is not a valid answer.
    Value(ValueProblem),
    /// A choice's value equal to an earlier choice's (as people read it).
    DuplicateChoice {
        /// The value, as [`show`] writes it.
        value: String,
    },
    /// More than one of `until_ms`, `for_ms` and `until_event`.
    RunWays,
    /// A run's time past [`scenario::MAX_TIME_MS`].
    TimeTooLate {
        /// The time written, in ms.
        value: u64,
    },
    /// An `until_event.kind` that cannot be an event type: empty, or with a character other
    /// than `a-z` and `_` (a well-formed name no event has is not caught here; the wait
    /// then ends in [`LessonProblem::EventNeverCame`]).
    NotAnEventType {
        /// The kind as written.
        kind: String,
    },
    /// Running: every step has run.
    Finished,
    /// [`LessonRun::reveal`] with no question waiting to be revealed.
    NothingToReveal,
    /// A step's command refused by the simulation.
    Refused(Box<CommandError>),
    /// An `until_ms` earlier than the run's time now.
    UntilBeforeNow {
        /// The time asked for, in ms from the start.
        until_ms: u64,
        /// The run's simulated time now, in ms.
        now_ms: u64,
    },
    /// More than [`MAX_EVENTS_PER_RUN`] events before `before_ms` (`advice`: say "run less far").
    TooManyEvents {
        /// The simulated time (ms from the start) the run was to reach.
        before_ms: u64,
        /// Whether the message advises running less far (a step's own run, not the
        /// `then_ms` after an awaited event).
        advice: bool,
    },
    /// More than [`MAX_EVENTS_PER_RUN`] events without the awaited one.
    TooManyEventsWithout,
    /// The event a step's `until_event` waits for did not happen within `within_ms`.
    EventNeverCame {
        /// The event type waited for, as the trace writes it.
        kind: String,
        /// The texts the event had to mention.
        mentions: Vec<String>,
        /// How long it was waited for, in ms of simulated time.
        within_ms: u64,
        /// The simulated time (ms from the start) the wait ended at.
        deadline_ms: u64,
    },
    /// A query, a focus or a step names something the simulation does not have.
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
                Some(v) => return Err(LessonError::at("version", LessonProblem::VersionNotANumber { written: json(v) })),
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
        // Compact JSON, as `Value`'s `Display` writes it, through the crate's one writer
        // (`Display` is a second serializer type in the page).
        other => json(other),
    }
}

/// A value as a lesson writes it (compact JSON, the same text as `Value`'s `Display`), for
/// messages that compare two values.
fn json(v: &Value) -> String {
    scenario::write_json(v, false)
}

// ----- running ---------------------------------------------------------------------

/// A claim, with what the simulation answered.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ClaimResult {
    /// The claim's query.
    pub query: Query,
    /// The answer the lesson states (the claim's `expect`).
    pub expected: Value,
    /// The answer the simulation gave.
    pub actual: Value,
}

impl ClaimResult {
    /// Whether the simulation agrees with the lesson: the two answers are equal.
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
    /// The simulated time after the step's run, in ms from the start.
    pub now_ms: u64,
    /// Every claim of the step with the simulation's answer, in file order.
    pub claims: Vec<ClaimResult>,
    /// What the page should highlight (the step's `look_at`).
    pub look_at: Vec<Focus>,
    /// Whether the step asks a question (answered by [`LessonRun::reveal`]).
    pub has_question: bool,
}

/// A question's answer after its reveal run.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Reveal {
    /// The index (from 0) of the step whose question this answers.
    pub step: usize,
    /// The simulated time after the reveal run, in ms from the start.
    pub now_ms: u64,
    /// What the query answered.
    pub answer: Value,
    /// The indexes of the choices equal to the answer (exactly one in a correct lesson).
    pub matching: Vec<usize>,
}

impl Reveal {
    /// What the page outlines once the answer is shown: where the answer is (the partition
    /// the record went to, the members that received it, the owner…), so the highlight
    /// follows the answer instead of staying on what the question looked at. Empty when
    /// the answer names nothing on the page (a count, a phase): the step's `look_at` stays.
    pub fn look_at(&self, query: &query::Query) -> Vec<Focus> {
        use query::{GroupQuery as G, ProduceQuery as P, Query as Q, ReplicationQuery as R};
        let numbers = |v: &Value| -> Vec<u32> {
            match v {
                Value::Array(items) => items.iter().filter_map(|i| i.as_u64()).filter_map(|n| u32::try_from(n).ok()).collect(),
                v => v.as_u64().and_then(|n| u32::try_from(n).ok()).into_iter().collect(),
            }
        };
        let strings = |v: &Value| -> Vec<String> {
            match v {
                Value::Array(items) => items.iter().filter_map(|i| i.as_str().map(str::to_string)).collect(),
                v => v.as_str().map(str::to_string).into_iter().collect(),
            }
        };
        let member = |group: &str, client_id: String| Focus::Member { group: group.to_string(), client_id };
        let mut out = match query {
            Q::Produce(P::PartitionOf { topic, value }) => {
                let mut f: Vec<Focus> =
                    numbers(&self.answer).into_iter().map(|partition| Focus::Partition { topic: topic.clone(), partition }).collect();
                f.push(Focus::Record(value.clone()));
                f
            }
            Q::Produce(P::AckedOffset { value, .. }) => vec![Focus::Record(value.clone())],
            Q::Replication(R::InLog { topic, partition, value, .. }) => {
                vec![Focus::Partition { topic: topic.clone(), partition: *partition }, Focus::Record(value.clone())]
            }
            Q::Group(G::ReceivedBy { group, value }) => {
                let mut f: Vec<Focus> = strings(&self.answer).into_iter().map(|c| member(group, c)).collect();
                f.push(Focus::Record(value.clone()));
                f
            }
            Q::Group(G::Owner { group, topic, partition }) => {
                let mut f: Vec<Focus> = strings(&self.answer).into_iter().map(|c| member(group, c)).collect();
                f.push(Focus::Partition { topic: topic.clone(), partition: *partition });
                f
            }
            Q::Group(G::Assigned { group, client_id, .. }) => vec![member(group, client_id.clone())],
            _ => Vec::new(),
        };
        out.truncate(MAX_FOCUS);
        out
    }

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

    /// The lesson being run.
    pub fn lesson(&self) -> &Lesson {
        &self.lesson
    }

    /// The simulation as the lesson has left it (free play continues from here).
    pub fn sim(&self) -> &Sim {
        &self.sim
    }

    /// The simulation as the lesson has left it, to go on with in free play.
    pub fn into_sim(self) -> Sim {
        self.sim
    }

    /// The index of the next step to run (the number of steps when all have run).
    pub fn next_step(&self) -> usize {
        self.next
    }

    /// Whether the lesson is over: every step has run and no question waits to be revealed.
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
        if !sim.run_to_bounded(SimTime(t), MAX_EVENTS_PER_RUN) {
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
            if !sim.run_to_bounded(SimTime(t), MAX_EVENTS_PER_RUN) {
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
        Focus::Partition { topic, partition } => query::find_partition(read, topic, *partition).map(|_| ()),
        // A share group (KIP-932) is a group too, with its members.
        Focus::Member { group, client_id } if sim.share_group(group).is_some() => sim
            .share_group(group)
            .and_then(|g| g.member(client_id))
            .map(|_| ())
            .ok_or_else(|| Missing::Member { group: group.clone(), client_id: client_id.clone() }),
        Focus::Group(g) if sim.share_group(g).is_some() => Ok(()),
        Focus::Member { group, client_id } => query::member(read, group, client_id).map(|_| ()),
        Focus::Group(g) => query::group(read, g).map(|_| ()),
        Focus::Broker(b) => read.broker(*b).map(|_| ()).ok_or(Missing::Broker(*b)),
        Focus::Producer(p) => query::producer(read, p).map(|_| ()),
        Focus::Record(_) => Ok(()),
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
    "11-exactly-once",
    "12-share-groups",
    "13-compaction",
];

/// A lesson's number from its file name ("05-rebalance" is lesson 5; 0 without one).
pub fn lesson_number(file: &str) -> u32 {
    file.split('-').next().and_then(|n| n.parse().ok()).unwrap_or(0)
}

/// The built-in lessons, by file name, in teaching order (compiled in).
#[cfg(feature = "embedded-lessons")]
pub const BUILT_IN: &[(&str, &str)] = &[
    ("01-topics-partitions", include_str!("../../lessons/01-topics-partitions.json")),
    ("02-producer", include_str!("../../lessons/02-producer.json")),
    ("03-consumer-groups", include_str!("../../lessons/03-consumer-groups.json")),
    ("04-assignors", include_str!("../../lessons/04-assignors.json")),
    ("05-rebalance", include_str!("../../lessons/05-rebalance.json")),
    ("06-offsets-commits", include_str!("../../lessons/06-offsets-commits.json")),
    ("07-retention", include_str!("../../lessons/07-retention.json")),
    ("08-pull-vs-push", include_str!("../../lessons/08-pull-vs-push.json")),
    ("09-reliability", include_str!("../../lessons/09-reliability.json")),
    ("10-connect-and-streams", include_str!("../../lessons/10-connect-and-streams.json")),
    ("11-exactly-once", include_str!("../../lessons/11-exactly-once.json")),
    ("12-share-groups", include_str!("../../lessons/12-share-groups.json")),
    ("13-compaction", include_str!("../../lessons/13-compaction.json")),
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
        assert_eq!(LESSON_FILES.iter().map(|f| lesson_number(f)).collect::<Vec<_>>(), (1..=13).collect::<Vec<_>>());
    }

    use super::*;
    use crate::event::EventKind;
    use crate::event::{GroupEvent, ProduceEvent, SettingsEvent};
    use serde_json::json;

    /// The built-in two-groups scenario at 12 s (its documented result, see
    /// docs/scenario-format.md).
    pub(super) fn two_groups() -> Sim {
        let mut sim = scenario::built_in("two-groups").unwrap().unwrap().build().unwrap();
        sim.run_to(SimTime(12_000));
        sim
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
        // A lesson's `kind` is the event's `type` as the trace writes it, for every kind.
        for e in crate::event::samples::every_event() {
            let text = crate::json::write_json(&e, false);
            assert!(text.starts_with(&format!("{{\"type\":\"{}\"", snake(e.name()))), "{text}");
        }
    }

    /// A value is shown as `Value`'s `Display` wrote it (now through `write_json`).
    #[test]
    fn values_show_as_display_wrote_them() {
        let values =
            serde_json::json!([null, true, false, 0, -3, 18446744073709551615u64, 1.5, 1e300, -0.0, "a\"b", {"k": [1, "x"]}, [], {}]);
        for v in values.as_array().unwrap() {
            assert_eq!(json(v), v.to_string());
            if !v.is_string() && !v.is_array() {
                assert_eq!(show(v), v.to_string());
            }
        }
        assert_eq!(show(&serde_json::json!(["a", 1, null, ["b"]])), "[a, 1, null, [b]]");
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
        let rejected = EventKind::Settings(SettingsEvent::CommandRejected { reason: "there is no broker 9".into() });
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
}
