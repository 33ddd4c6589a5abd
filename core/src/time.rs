//! Virtual time: milliseconds since the simulation started. The core never reads a clock.

use serde::{Deserialize, Serialize};
use std::fmt;

/// A moment in simulated time, in milliseconds since the start.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct SimTime(pub u64);

impl SimTime {
    /// The start of the run.
    pub const ZERO: SimTime = SimTime(0);

    /// The time in milliseconds.
    pub fn ms(self) -> u64 {
        self.0
    }

    /// This moment plus `ms` milliseconds, saturating instead of overflowing.
    pub fn plus_ms(self, ms: u64) -> SimTime {
        SimTime(self.0.saturating_add(ms))
    }
}

impl fmt::Display for SimTime {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ms", self.0)
    }
}
