//! The run's own queries: the simulated time, and the events its trace recorded (by kind
//! and mentions, as a step's `until_event` waits for them).

use super::num;
use crate::lesson::{event_matches, mentions_text, Missing};
use crate::read::Read;
use serde::Serialize;
use serde_json::Value;

/// What a claim asks about the run itself: its time and its trace.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "ask", rename_all = "snake_case")]
#[non_exhaustive]
pub enum RunQuery {
    /// The simulated time now, in ms.
    NowMs,
    /// How many events of a kind (mentioning every name given) the run recorded so far
    /// (among the newest 50,000).
    EventCount {
        /// The event's `type` as the trace writes it (`group_stable`, `record_delivered`, …).
        kind: String,
        /// Texts the event must mention, all of them, each whole (as a step's `until_event`
        /// matches them).
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        mentions: Vec<String>,
    },
    /// When the latest such event happened, in ms (`null`: none among the newest 50,000).
    LastEventMs {
        /// The event's `type` as the trace writes it (`group_stable`, `record_delivered`, …).
        kind: String,
        /// Texts the event must mention, all of them, each whole (as a step's `until_event`
        /// matches them).
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        mentions: Vec<String>,
    },
}

/// Answers a run query from the read layer (as [`super::answer`]).
pub(super) fn answer_run(read: Read<'_>, q: &RunQuery) -> Result<Value, Missing> {
    Ok(match q {
        RunQuery::NowMs => num(read.now().ms()),
        RunQuery::EventCount { kind, mentions } => num(read.events().filter(|e| event_matches(&e.kind, kind, mentions)).count() as u64),
        RunQuery::LastEventMs { kind, mentions } => {
            read.events().rev().find(|e| event_matches(&e.kind, kind, mentions)).map_or(Value::Null, |e| num(e.time.ms()))
        }
    })
}

/// A run query in words, for check's messages.
pub(super) fn describe_run(q: &RunQuery) -> String {
    match q {
        RunQuery::NowMs => "the time".into(),
        RunQuery::EventCount { kind, mentions } => format!("the number of {kind} events{}", mentions_text(mentions)),
        RunQuery::LastEventMs { kind, mentions } => format!("the time of the last {kind} event{}", mentions_text(mentions)),
    }
}
