//! The refusals of a scenario's compaction settings (issue 19: `cleanup.policy`, the log
//! cleaner, `__consumer_offsets`): typed values with their parameters. `Display` is the
//! English; the page renders each in Chinese (`web/src/messages.rs`). A number outside
//! its row of the limits table (the lags, `delete.retention.ms`, the cleaner's backoff,
//! `offsets.topic.segment.bytes`) is `Problem::OutOfRange`.

use crate::config::Ratio;
use std::fmt;

/// What is wrong with a scenario's compaction settings.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CompactionProblem {
    /// `min.cleanable.dirty.ratio` outside 0 to 1 (`LogConfig`: `between(0, 1)`).
    DirtyRatio {
        /// The ratio given.
        value: Ratio,
    },
    /// A topic named as one of Kafka's internal topics (`__consumer_offsets`,
    /// `__transaction_state`), which the cluster creates itself.
    InternalTopicName {
        /// The name given.
        name: String,
    },
}

impl fmt::Display for CompactionProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CompactionProblem::DirtyRatio { value } => write!(f, "is {value}; allowed: 0 to 1"),
            CompactionProblem::InternalTopicName { name } => {
                write!(f, "\"{name}\" is an internal topic the cluster creates itself; allowed: any other name")
            }
        }
    }
}
