//! Run control for code and tests: run for a while, run until something holds or happens
//! (with a deadline, since consumers heartbeat forever and the queue never empties), check
//! properties after every step (stateright's `always` and `eventually`), assert that no
//! promise Kafka makes was broken, and sweep seeds.
//!
//! A failure says what, when (simulated time and step), the seed that reproduces it, and
//! the trace around it.

use crate::event::Event;
use crate::json::write_json;
use crate::read::Read;
use crate::sim::Sim;
use crate::time::SimTime;
use std::fmt;

/// Why a run stopped short of what was asked.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum RunError {
    /// The deadline passed (or nothing was left to happen) before the condition held.
    Deadline {
        /// What was awaited.
        awaited: String,
        /// The deadline in simulated time.
        deadline: SimTime,
        /// The seed that reproduces the run.
        seed: u64,
    },
    /// A property did not hold.
    Violated {
        /// The property's name.
        property: String,
        /// `always` (false at some step) or `eventually` (not true by its deadline).
        kind: &'static str,
        /// When it was found false.
        at: SimTime,
        /// The step it was found at ([`Sim::steps`]).
        step: u64,
        /// The seed that reproduces the run.
        seed: u64,
        /// The last trace events before it, one JSON object a line.
        trace: String,
    },
    /// The guarantee monitors found a broken promise, or cannot prove there is none.
    BrokenPromise {
        /// The finding (or why the monitors cannot tell).
        finding: String,
        /// When it happened.
        at: SimTime,
        /// The seed that reproduces the run.
        seed: u64,
        /// The trace events up to the one that revealed it, one JSON object a line.
        trace: String,
    },
}

impl fmt::Display for RunError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RunError::Deadline { awaited, deadline, seed } => {
                write!(f, "{awaited}: not by the deadline {} ms (seed {seed})", deadline.ms())
            }
            RunError::Violated { property, kind, at, step, seed, trace } => {
                write!(
                    f,
                    "property \"{property}\" ({kind}) failed at {} ms, step {step} (seed {seed}); the trace before it:\n{trace}",
                    at.ms()
                )
            }
            RunError::BrokenPromise { finding, at, seed, trace } => {
                write!(f, "a promise Kafka makes was broken at {} ms (seed {seed}): {finding}; the trace up to it:\n{trace}", at.ms())
            }
        }
    }
}

impl std::error::Error for RunError {}

/// How many trace events a failure shows.
const EXCERPT_EVENTS: usize = 12;

/// A named predicate over the simulation, checked after every step by
/// [`Sim::run_checking`]: `always` must hold at every step; `eventually` must have held at
/// some step by its deadline.
pub struct Property<'f> {
    name: String,
    deadline: Option<SimTime>,
    met: bool,
    check: Box<dyn FnMut(Read<'_>) -> bool + 'f>,
}

impl<'f> Property<'f> {
    /// Holds after every step (a safety property: "no committed record is ever lost").
    pub fn always(name: impl Into<String>, check: impl FnMut(Read<'_>) -> bool + 'f) -> Self {
        Self { name: name.into(), deadline: None, met: false, check: Box::new(check) }
    }

    /// Holds after some step at or before `deadline` (a liveness property: "every
    /// partition has an owner again within 60 s").
    pub fn eventually(name: impl Into<String>, deadline: SimTime, check: impl FnMut(Read<'_>) -> bool + 'f) -> Self {
        Self { name: name.into(), deadline: Some(deadline), met: false, check: Box::new(check) }
    }

    /// The property's name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Whether an `eventually` property has held (always `false` for `always`).
    pub fn is_met(&self) -> bool {
        self.met
    }
}

impl fmt::Debug for Property<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Property").field("name", &self.name).field("deadline", &self.deadline).field("met", &self.met).finish()
    }
}

impl Sim {
    /// Steps until `condition` holds (checked now and after every step), and returns the
    /// moment it did. When the next event lies past `deadline` (or nothing is queued) the
    /// clock moves to the deadline and the answer is [`RunError::Deadline`].
    ///
    /// How long until a new leader is elected after the leader's broker crashes (the
    /// controller notices after `broker.session.timeout.ms`, 9 s by default):
    ///
    /// ```
    /// use kafka_sandbox_core::{Command, Scenario, SimTime, TopicSpec};
    ///
    /// let mut b = Scenario::builder();
    /// b.brokers(3);
    /// let t = b.topic(TopicSpec::new("t").replication_factor(3));
    /// let mut sim = b.build()?;
    /// let old = sim.partition(&t.partition(0)).and_then(|p| p.leader()).expect("a leader");
    /// sim.apply(Command::crash_broker(old))?;
    /// let elected = sim.run_until(|r| r.partition(&t.partition(0)).and_then(|p| p.leader()).is_some_and(|l| l != old), SimTime(60_000))?;
    /// assert!(elected >= SimTime(9_000), "{elected:?}");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn run_until(&mut self, mut condition: impl FnMut(Read<'_>) -> bool, deadline: SimTime) -> Result<SimTime, RunError> {
        loop {
            if condition(self.read()) {
                return Ok(self.now());
            }
            match self.next_event_time() {
                Some(t) if t <= deadline => {
                    self.step();
                }
                _ => {
                    self.out.now = self.out.now.max(deadline);
                    return Err(RunError::Deadline { awaited: "the condition".into(), deadline, seed: self.seed });
                }
            }
        }
    }

    /// Steps until an event matching `wanted` is recorded, and returns it. When the next
    /// event lies past `deadline` (or nothing is queued) the clock moves to the deadline
    /// and the answer is [`RunError::Deadline`].
    pub fn run_until_event(&mut self, mut wanted: impl FnMut(&Event) -> bool, deadline: SimTime) -> Result<Event, RunError> {
        loop {
            match self.next_event_time() {
                Some(t) if t <= deadline => {
                    let from = self.out.trace.total();
                    self.step();
                    if let Some(e) = self.out.trace.since(from).find(|e| wanted(e)) {
                        return Ok(e.clone());
                    }
                }
                _ => {
                    self.out.now = self.out.now.max(deadline);
                    return Err(RunError::Deadline { awaited: "the event".into(), deadline, seed: self.seed });
                }
            }
        }
    }

    /// Runs to `until` checking `properties` now and after every step: an `always` that is
    /// false, or an `eventually` not yet true once its deadline has passed, stops the run
    /// with [`RunError::Violated`] naming the property, the step, the seed and the trace
    /// before it.
    pub fn run_checking(&mut self, until: SimTime, properties: &mut [Property<'_>]) -> Result<(), RunError> {
        self.check_properties(properties)?;
        while let Some(t) = self.next_event_time() {
            if t > until {
                break;
            }
            // An `eventually` whose deadline lies before the next event had its last chance.
            self.check_deadlines(properties, t)?;
            self.step();
            self.check_properties(properties)?;
        }
        self.out.now = self.out.now.max(until);
        self.check_deadlines(properties, until.plus_ms(1))
    }

    fn check_properties(&mut self, properties: &mut [Property<'_>]) -> Result<(), RunError> {
        for p in properties.iter_mut() {
            let holds = (p.check)(self.read());
            match p.deadline {
                None if !holds => return Err(self.violated(p, "always")),
                Some(_) if holds => p.met = true,
                _ => {}
            }
        }
        Ok(())
    }

    /// Every `eventually` due before `next` must have held.
    fn check_deadlines(&self, properties: &[Property<'_>], next: SimTime) -> Result<(), RunError> {
        match properties.iter().find(|p| !p.met && p.deadline.is_some_and(|d| d < next)) {
            Some(p) => Err(self.violated(p, "eventually")),
            None => Ok(()),
        }
    }

    fn violated(&self, p: &Property<'_>, kind: &'static str) -> RunError {
        RunError::Violated {
            property: p.name.clone(),
            kind,
            at: self.now(),
            step: self.steps(),
            seed: self.seed,
            trace: self.excerpt(self.out.trace.total()),
        }
    }

    /// The kept trace events before `seq` (exclusive), one JSON object a line.
    fn excerpt(&self, seq: u64) -> String {
        let events: Vec<&Event> = self.out.trace.events().filter(|e| e.seq < seq).collect();
        let from = events.len().saturating_sub(EXCERPT_EVENTS);
        events[from..].iter().map(|e| write_json(*e, false)).collect::<Vec<_>>().join("\n")
    }

    /// Whether the guarantee monitors found no broken promise — no acknowledged record
    /// lost that Kafka promises to keep under the settings in force — and saw enough of
    /// the run to say so ([`crate::monitor::Monitors::is_complete`]). The first broken
    /// promise, or the bound that made the monitors forget, is the error.
    pub fn check_promises(&self) -> Result<(), RunError> {
        let monitors = &self.out.monitors;
        if let Some(f) = monitors.findings().iter().find(|f| f.promised) {
            return Err(RunError::BrokenPromise {
                finding: format!("{} on {}", f.kind, f.tp),
                at: f.time,
                seed: self.seed,
                trace: self.excerpt(f.seq + 1),
            });
        }
        if monitors.promised_total() > 0 {
            return Err(RunError::BrokenPromise {
                finding: format!("{} broken promises, none of them still kept (raise SimOptions::findings)", monitors.promised_total()),
                at: self.now(),
                seed: self.seed,
                trace: String::new(),
            });
        }
        if !monitors.is_complete() {
            return Err(RunError::BrokenPromise {
                finding: format!(
                    "cannot tell: the monitors forgot {} entries under SimOptions::monitor_records; build with SimOptions::unbounded()",
                    monitors.forgotten()
                ),
                at: self.now(),
                seed: self.seed,
                trace: String::new(),
            });
        }
        Ok(())
    }

    /// Panics, printing the finding, the seed and the trace up to it, if a promise Kafka
    /// makes was broken or the monitors cannot tell (see [`Sim::check_promises`]).
    #[track_caller]
    pub fn assert_no_broken_promises(&self) {
        if let Err(e) = self.check_promises() {
            panic!("{e}");
        }
    }
}

/// Runs `test` once per seed; when one panics, prints which seed failed (rerun with that
/// seed to reproduce it) and panics with its message.
///
/// ```
/// kafka_sandbox_core::for_seeds(0..3, |seed| assert!(seed < 3));
/// ```
pub fn for_seeds(seeds: impl IntoIterator<Item = u64>, mut test: impl FnMut(u64)) {
    for seed in seeds {
        if let Err(panic) = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| test(seed))) {
            let message = panic
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_else(|| "a panic without a message".into());
            panic!("for_seeds: seed {seed} failed (rerun with this seed to reproduce it): {message}");
        }
    }
}
