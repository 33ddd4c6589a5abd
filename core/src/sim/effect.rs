//! Effects: what a handler asks of the world, and the one driver that applies them.
//!
//! A handler changes the state it owns and says what should follow as [`Effect`]s —
//! a message or a timer due at a moment (`At`), an event for the trace (`Emit`) —
//! collected in an [`Out`] (stateright's `Out`). [`Sim::apply_effects`] applies them in
//! the order they were produced: a scheduled item takes the next sequence number, an
//! event goes to the trace and the monitors. Every scheduled item of the engine enters
//! the queue through `Sim::enqueue` and every event the trace through
//! `Sim::append_event`, whether a handler returned it in an `Out` (`retention.rs`,
//! `connect.rs`; new
//! features are written this way, so a handler can be tested alone, with no `Sim`:
//! `retention::check`'s tests) or an older `&mut Sim` handler called `schedule`/`record`,
//! which apply one effect at once without building it as a value.
//!
//! Order is the determinism contract: effects apply in production order, so a handler
//! moved to this style gives the same sequence numbers and the same trace (the golden
//! digests, `tests/golden/`).

use super::{Pending, Sim};
use crate::event::EventKind;
use crate::time::SimTime;

/// One thing a handler asks for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Effect {
    /// `pending` happens at `at` (never before now): a message arriving after its
    /// latency, or a timer.
    At { at: SimTime, pending: Pending },
    /// An event for the trace, seen by the monitors.
    Emit(EventKind),
}

/// The effects one handler produced, in order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Out {
    effects: Vec<Effect>,
}

impl Out {
    /// `pending` is due at `at`.
    pub(crate) fn at(&mut self, at: SimTime, pending: impl Into<Pending>) {
        self.effects.push(Effect::At { at, pending: pending.into() });
    }

    /// `kind` goes to the trace.
    pub(crate) fn emit(&mut self, kind: EventKind) {
        self.effects.push(Effect::Emit(kind));
    }

    /// What was asked for, in order (for tests of a handler alone).
    #[cfg(test)]
    pub(crate) fn effects(&self) -> &[Effect] {
        &self.effects
    }
}

impl Sim {
    /// An empty `Out` over the buffer the last applied one left behind: a handler called
    /// often allocates nothing once the buffer has grown.
    pub(super) fn out(&mut self) -> Out {
        std::mem::take(&mut self.spare_out)
    }

    /// The driver: applies a handler's effects in the order it produced them, and keeps
    /// the emptied buffer for the next handler ([`Sim::out`]).
    pub(super) fn apply_effects(&mut self, mut out: Out) {
        for effect in out.effects.drain(..) {
            self.apply_effect(effect);
        }
        self.spare_out = out;
    }

    /// Applies one effect.
    #[inline]
    pub(super) fn apply_effect(&mut self, effect: Effect) {
        match effect {
            Effect::At { at, pending } => self.enqueue(at, pending),
            Effect::Emit(kind) => self.append_event(kind),
        }
    }
}
