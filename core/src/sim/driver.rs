//! The driver: the clock, the event queue, the trace with its monitors, and the one seeded
//! RNG — everything a handler reaches besides the state it owns.
//!
//! A handler changes the state of its owner (`Cluster`, `Clients`, `Consumers`, `Apps`,
//! or a part of one) and says what should follow through the [`Driver`] it is handed as
//! `out` (stateright's `Out`): a message that arrives after the network's latency or a
//! timer ([`Driver::at`]), an event for the trace ([`Driver::emit`]), a draw from the
//! world's dice (`out.rng`). The driver applies each effect the moment it is asked, in the
//! order the handler asks: a queued item takes the next sequence number, an event goes to
//! the trace and is shown to the monitors. That order is the determinism contract — it is
//! the order a buffer of effects applied after the handler would give, without building
//! and moving every effect twice (the engine's step is the hot path) — so the golden
//! digests (`tests/golden/`) hold.
//!
//! A handler is tested alone: build its owner's state and a driver ([`Driver::new`]), call
//! it, and read what it asked for ([`Driver::effects`], kept in unit-test builds only) —
//! no `Sim` (`retention.rs`, `connect.rs`, `produce.rs`, `replication.rs`, …).

use super::Pending;
use crate::event::{EventKind, Trace};
use crate::monitor::Monitors;
use crate::rng::SimRng;
use crate::time::SimTime;
use std::collections::BTreeMap;

/// One thing a handler asked for, as a unit test reads it back ([`Driver::effects`]).
#[cfg(test)]
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Effect {
    /// `pending` happens at `at` (never before now): a message arriving after its
    /// latency, or a timer.
    At { at: SimTime, pending: Pending },
    /// An event for the trace, seen by the monitors.
    Emit(EventKind),
}

/// The clock, the queue, the trace and the RNG (see the module's doc).
#[derive(Clone, Debug)]
pub(crate) struct Driver {
    /// Simulated time: moved only by the queue (or a run's `until`).
    pub(crate) now: SimTime,
    /// How many queued items have been applied.
    pub(crate) steps: u64,
    pub(crate) queue: BTreeMap<(SimTime, u64), Pending>,
    pub(super) next_seq: u64,
    pub(crate) trace: Trace,
    /// Guarantee monitors fed with every event as it is recorded.
    pub(crate) monitors: Monitors,
    /// The only randomness (replica placement, sticky partitions, retry jitter, member ids).
    pub(crate) rng: SimRng,
    /// `network.latency.ms` of the cluster: every message takes it.
    latency_ms: u64,
    /// What the run keeps (the bounds a handler applies to what it remembers).
    pub(crate) options: super::SimOptions,
    /// What was asked for, in order (unit tests of a handler alone).
    #[cfg(test)]
    effects: Vec<Effect>,
    /// The run's seed, from which topic ids are derived without drawing from `rng`.
    seed: u64,
}

impl Driver {
    /// A driver at time zero with an empty queue and trace.
    #[cfg(test)]
    pub(crate) fn new(seed: u64, latency_ms: u64) -> Self {
        Self::with_options(seed, latency_ms, super::SimOptions::default())
    }

    /// A driver at time zero keeping what `options` allow.
    pub(crate) fn with_options(seed: u64, latency_ms: u64, options: super::SimOptions) -> Self {
        Self {
            now: SimTime::ZERO,
            steps: 0,
            queue: BTreeMap::new(),
            next_seq: 0,
            trace: Trace::new(options.trace_events),
            monitors: Monitors::with_bounds(options.monitor_records, options.findings),
            rng: SimRng::new(seed),
            seed,
            latency_ms,
            options,
            #[cfg(test)]
            effects: Vec::new(),
        }
    }

    /// A driver whose clock reads `now` (unit tests of a handler alone).
    #[cfg(test)]
    pub(crate) fn at_time(now: SimTime) -> Self {
        let mut d = Self::new(0, 0);
        d.now = now;
        d
    }

    /// What the handlers asked for since the driver was made, in order (unit tests only).
    #[cfg(test)]
    pub(crate) fn effects(&self) -> &[Effect] {
        &self.effects
    }

    /// The run's seed.
    pub(crate) fn seed(&self) -> u64 {
        self.seed
    }

    /// The network's one-way latency, in ms: a message sent now arrives at
    /// `now + latency`.
    #[inline]
    pub(crate) fn latency(&self) -> u64 {
        self.latency_ms
    }

    /// `pending` is due at `at` (never before now), after everything already queued for
    /// that moment. Each feature's own enum converts into [`Pending`]. Inlined always
    /// natively, so a feature's item is built where it goes (the engine's step: +0.95 %
    /// instructions with it out of line, BENCHMARKS.md); not in the page's wasm, where
    /// inlining it at every call cost 1.9 KB of the download and the step's 1 % is not seen.
    #[cfg_attr(not(target_arch = "wasm32"), inline(always))]
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub(crate) fn at(&mut self, at: SimTime, pending: impl Into<Pending>) {
        self.enqueue(at, pending.into());
    }

    /// The one place an item enters the queue.
    #[cfg_attr(not(target_arch = "wasm32"), inline(always))]
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub(super) fn enqueue(&mut self, at: SimTime, pending: Pending) {
        #[cfg(test)]
        self.effects.push(Effect::At { at, pending: pending.clone() });
        let seq = self.next_seq;
        self.next_seq += 1;
        self.queue.insert((at.max(self.now), seq), pending);
    }

    /// An event for the trace, seen by the monitors: the one place an event enters the
    /// trace.
    pub(crate) fn emit(&mut self, kind: EventKind) {
        #[cfg(test)]
        self.effects.push(Effect::Emit(kind.clone()));
        let event = self.trace.push(self.now, kind);
        self.monitors.observe(event);
    }
}
