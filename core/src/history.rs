//! Time travel: go back to any earlier moment of a run, and forward again.
//!
//! A run is determined by its start (the built scenario) and the commands applied to it
//! (`Sim::command_log`, each stamped with the step count it came after). [`History`]
//! keeps clones of the run at some of its steps — checkpoints — and rebuilds any earlier
//! state by cloning the nearest checkpoint before it and replaying the logged commands
//! and steps from there. Checkpoints are bounded: when there are `max` of them (the limit
//! given to [`History::new`]) every other one is dropped and the spacing doubles, so memory
//! stays bounded however long the run, and reaching any point replays at most about twice
//! the spacing. The [`RECENT`] newest are kept apart at the first spacing, so going back a
//! little stays as quick at the end of a long run as at its start. Checkpoints share what
//! does not change between them (the trace's sealed chunks, the logs' record chunks).
//!
//! The invariant that makes replay exact: a checkpoint is taken between steps, before any
//! command applied at that step count (callers [`History::observe`] right after stepping
//! and apply commands afterwards), so every logged command with `after_steps` at or past a
//! checkpoint's step count is not in it yet.

use crate::sim::{LoggedCommand, Sim};

/// Checkpoints are at least (events the trace holds) / `SIZE_DIVISOR` steps apart, so a
/// big, busy run is copied less often. See `History::spacing` (private) for why.
pub const SIZE_DIVISOR: u64 = 4;

/// Newest checkpoints kept at the first spacing, whatever the run's length: going back a
/// little (Back, ⟲, a rebalance just before) replays at most that spacing (issue 20: after
/// 10 minutes of a busy run at 20× the page's Back replayed about 100,000 steps, 570 ms).
pub const RECENT: usize = 8;

/// Trace events an older checkpoint keeps (its newest). Each older checkpoint is far from
/// the others, so their 50,000-event rings hardly overlap and together held most of a long
/// run's trace (issue 20); a state restored from one shows these events and everything
/// replayed after them, its count and digest unchanged.
pub const OLDER_TRACE_KEPT: usize = 5_000;

/// Checkpoints of one run, in two tiers: the [`RECENT`] newest at the first spacing, and
/// older ones at a spacing that doubles whenever `max` of them are held.
#[derive(Clone, Debug)]
pub struct History {
    base: Sim,
    /// Older checkpoints, oldest first, at least `every` steps apart.
    checkpoints: Vec<Sim>,
    /// The newest checkpoints, oldest first, all later than `checkpoints`.
    recent: std::collections::VecDeque<Sim>,
    /// The spacing of `recent`.
    first_every: u64,
    every: u64,
    max: usize,
}

impl History {
    /// `base` is the run at its start (no steps, no commands). A checkpoint is taken every
    /// `every` steps (at least 1); the [`RECENT`] newest are kept at that spacing, and at
    /// most `max` (at least 2) older ones, whose spacing doubles when full.
    pub fn new(base: Sim, every: u64, max: usize) -> Self {
        let every = every.max(1);
        Self { base, checkpoints: Vec::new(), recent: Default::default(), first_every: every, every, max: max.max(2) }
    }

    /// The run at its start.
    pub fn base(&self) -> &Sim {
        &self.base
    }

    /// How many checkpoints are kept (both tiers), and the older ones' spacing in steps.
    pub fn stats(&self) -> (usize, u64) {
        (self.checkpoints.len() + self.recent.len(), self.every)
    }

    /// Offers the run's current state as a checkpoint. Call it between steps, before
    /// applying any command at this step count.
    pub fn observe(&mut self, sim: &Sim) {
        // A command applied at this step count would be applied again by a replay from
        // here (replays apply every logged command from the checkpoint's step count on):
        // such a state is never a checkpoint.
        if sim.command_log().last().is_some_and(|e| e.after_steps >= sim.steps()) {
            return;
        }
        let last = self.recent.back().or(self.checkpoints.last()).map(Sim::steps).unwrap_or(0);
        if sim.steps() < last + spacing(self.first_every, sim) {
            return;
        }
        self.recent.push_back(sim.clone());
        if self.recent.len() <= RECENT {
            return;
        }
        let Some(mut oldest) = self.recent.pop_front() else { return };
        // The oldest recent one moves to the older tier if it keeps that tier's spacing.
        let last = self.checkpoints.last().map(Sim::steps).unwrap_or(0);
        if oldest.steps() < last + spacing(self.every, &oldest) {
            return;
        }
        oldest.out.trace.keep_newest(OLDER_TRACE_KEPT);
        self.checkpoints.push(oldest);
        if self.checkpoints.len() > self.max {
            // Keep every other checkpoint (the newest always), double the spacing.
            let n = self.checkpoints.len();
            let kept: Vec<Sim> = std::mem::take(&mut self.checkpoints)
                .into_iter()
                .enumerate()
                .filter(|(i, _)| (n - 1 - i) % 2 == 0)
                .map(|(_, s)| s)
                .collect();
            self.checkpoints = kept;
            self.every *= 2;
        }
    }

    /// Forgets the checkpoints after `steps` (the run took another path from there).
    pub fn truncate(&mut self, steps: u64) {
        self.checkpoints.retain(|c| c.steps() <= steps);
        self.recent.retain(|c| c.steps() <= steps);
    }

    /// Rebuilds the earliest state of the run at which `stop` holds, replaying `log` (the
    /// commands of the run, in order) from the latest checkpoint where it does not hold
    /// yet. `stop` must be monotonic along the run (false, then true from some point on),
    /// for example "at least N steps" or "event N recorded". Stops at the end of the run
    /// (nothing left to step) or after `max_steps` replayed steps.
    pub fn restore(&self, log: &[LoggedCommand], stop: impl Fn(&Sim) -> bool, max_steps: u64) -> Sim {
        let start = self.recent.iter().rev().chain(self.checkpoints.iter().rev()).find(|c| !stop(c)).unwrap_or(&self.base);
        let mut sim = start.clone();
        let next = log.partition_point(|e| e.after_steps < sim.steps());
        advance(&mut sim, &log[next..], stop, max_steps);
        sim
    }
}

/// Steps between checkpoints: `every`, and at least the events the trace holds over
/// [`SIZE_DIVISOR`]. A checkpoint used to copy the whole run, so a big, busy run (hundreds
/// of partitions, a full trace) takes them further apart: copying stays a small share of
/// the work (the page spent 140 ms of every second copying a 240-partition cluster at 5×
/// before this rule) while going back replays at most about twice the spacing. The trace
/// is shared between checkpoints since issue 20, but the rule still bounds how often the
/// rest is copied.
fn spacing(every: u64, sim: &Sim) -> u64 {
    every.max(sim.trace().events().len() as u64 / SIZE_DIVISOR)
}

/// Runs `sim` forward until `stop` holds, applying the `pending` commands (in order, all
/// due at or after its step count) when their step count comes; stops early at the end
/// of the run or after `max_steps` steps. Returns how many of `pending` were applied.
pub fn advance(sim: &mut Sim, pending: &[LoggedCommand], stop: impl Fn(&Sim) -> bool, max_steps: u64) -> usize {
    let mut next = 0;
    let mut stepped = 0;
    loop {
        if stop(sim) {
            return next;
        }
        // Commands due now go in before the next step (never right before returning, so
        // a state handed back has none applied at its own step count: it can be a
        // checkpoint).
        while let Some(entry) = pending.get(next).filter(|e| e.after_steps <= sim.steps()) {
            sim.apply_logged(entry);
            next += 1;
        }
        if stepped >= max_steps || sim.step().is_none() {
            return next;
        }
        stepped += 1;
    }
}

/// Runs `sim` forward to the simulated moment `until`, exactly as the run went the first
/// time: every event due at or before `until` is applied, and every one of the `pending`
/// commands that was applied at or before `until` (`at`), each at its step count and its
/// moment; then the clock reads `until`. Commands logged after `until` stay pending, even
/// at the step count it stops at. Returns how many of `pending` were applied and whether
/// it got to `until` (false: `max_steps` steps were taken first; calling it again goes
/// on exactly where it stopped, so a long way may be walked in slices).
///
/// Why not [`advance`] with a time test and then [`Sim::run_to`]: that moves the clock
/// past a command still to come at the step count it stopped at, and the command then
/// runs later than it did the first time (its events get other times: another run).
pub fn advance_to(sim: &mut Sim, pending: &[LoggedCommand], until: crate::time::SimTime, max_steps: u64) -> (usize, bool) {
    let mut next = 0;
    let mut stepped = 0;
    loop {
        while let Some(entry) = pending.get(next).filter(|e| e.after_steps <= sim.steps() && e.at <= until) {
            sim.apply_logged(entry);
            next += 1;
        }
        match sim.next_event_time() {
            Some(t) if t <= until => {
                if stepped >= max_steps {
                    return (next, false);
                }
                sim.step();
                stepped += 1;
            }
            _ => {
                // Nothing else is due by `until`: only the clock moves.
                sim.run_to(until);
                return (next, true);
            }
        }
    }
}

/// Runs `sim` forward to `until` (at most `max_steps` events), applying each of `pending`
/// at its moment (`at`) whatever the step count: after every event due at or before that
/// moment, before any later one. This is how a branch replays a future recorded in
/// another run (a fork, or the run after the learner changed something): its events
/// differ, so the recorded step counts mean nothing there, but "the broker crashes at
/// 5.0 s" still does. A command the branch refuses (the broker is already down) is
/// skipped. Returns how many of `pending` were applied or skipped, and whether it got to
/// `until`.
pub fn advance_to_by_time(sim: &mut Sim, pending: &[LoggedCommand], until: crate::time::SimTime, max_steps: u64) -> (usize, bool) {
    let mut next = 0;
    let mut stepped = 0;
    loop {
        let due = pending.get(next).filter(|e| e.at <= until);
        let event = sim.next_event_time().filter(|t| *t <= until);
        match (due, event) {
            (Some(entry), event) if event.is_none_or(|t| t > entry.at) => {
                sim.run_to(entry.at);
                let _ = sim.apply(entry.command.clone());
                next += 1;
            }
            (_, Some(_)) => {
                if stepped >= max_steps {
                    return (next, false);
                }
                sim.step();
                stepped += 1;
            }
            (_, None) => {
                sim.run_to(until);
                return (next, true);
            }
        }
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used)]
mod tests {
    use super::*;
    use crate::command::GroupCommand;
    use crate::command::MemberSpec;
    use crate::event::Event;

    /// The default scenario with a consumer added at step 300 and a crash at step 900,
    /// checkpointed as the page does.
    fn run() -> (History, Sim) {
        let scenario = crate::scenario::default_scenario();
        let base = scenario.build().unwrap();
        let mut history = History::new(base.clone(), 50, 8);
        let mut sim = base;
        let group = sim.groups().next().unwrap().id().to_string();
        for i in 0..2000u64 {
            if sim.step().is_none() {
                break;
            }
            history.observe(&sim);
            if i == 300 {
                sim.apply(GroupCommand::AddMember { group: group.clone(), member: MemberSpec::new("late") }).unwrap();
            }
            if i == 900 {
                sim.apply(GroupCommand::CrashMember { group: group.clone(), client_id: "late".into() }).unwrap();
            }
        }
        (history, sim)
    }

    #[test]
    fn going_back_n_steps_equals_replaying_to_that_point() {
        let (history, sim) = run();
        let log = sim.command_log().to_vec();
        for target in [0, 1, 299, 301, 302, 777, 901, 1500, sim.steps()] {
            let back = history.restore(&log, |s| s.steps() >= target, u64::MAX);
            // The same point reached from the start, without checkpoints.
            let fresh = History::new(history.base().clone(), u64::MAX, 2).restore(&log, |s| s.steps() >= target, u64::MAX);
            assert_eq!(back.steps(), target);
            assert_eq!(back.trace().digest(), fresh.trace().digest(), "step {target}");
            assert_eq!(back.snapshot(), fresh.snapshot(), "step {target}");
        }
        // And the end equals the run itself.
        let end = history.restore(&log, |s| s.steps() >= sim.steps(), u64::MAX);
        assert_eq!(end.trace().digest(), sim.trace().digest());
        assert_eq!(end.snapshot(), sim.snapshot());
    }

    #[test]
    fn advancing_with_pending_commands_rejoins_the_original_run() {
        let (history, sim) = run();
        let log = sim.command_log().to_vec();
        // Back to step 100, then forward with the commands still to come.
        let mut back = history.restore(&log, |s| s.steps() >= 100, u64::MAX);
        let done = back.command_log().len();
        let applied = advance(&mut back, &log[done..], |s| s.steps() >= sim.steps(), u64::MAX);
        assert_eq!(applied, log.len() - done);
        assert_eq!(back.trace().digest(), sim.trace().digest());
    }

    /// A run played as the page plays it: the clock moves in `tick_ms` steps of time
    /// (`run_until`), and commands come between ticks, when the clock has moved past the
    /// last event (their `at` is later than that event's time).
    fn played(tick_ms: u64, until_ms: u64) -> Sim {
        let mut sim = crate::scenario::default_scenario().build().unwrap();
        let group = sim.groups().next().unwrap().id().to_string();
        let mut t = 0;
        while t < until_ms {
            t += tick_ms;
            sim.run_to(crate::time::SimTime(t));
            if t == 4_250 {
                sim.apply(GroupCommand::AddMember { group: group.clone(), member: MemberSpec::new("late") }).unwrap();
            }
            if t == 9_050 {
                sim.apply(GroupCommand::CrashMember { group: group.clone(), client_id: "late".into() }).unwrap();
            }
        }
        sim
    }

    #[test]
    fn advancing_to_a_moment_runs_every_command_at_its_moment_in_any_slices() {
        let sim = played(50, 20_000);
        let log = sim.command_log().to_vec();
        // The commands came when the clock stood past the last event before them.
        for e in &log {
            assert!(e.at.ms() == 4_250 || e.at.ms() == 9_050, "{e:?}");
        }
        let base = crate::scenario::default_scenario().build().unwrap();
        // Forward from the start in ticks of several lengths, and in slices of a few steps.
        for tick_ms in [1, 7, 50, 333, 20_000] {
            let mut again = base.clone();
            let mut applied = 0;
            let mut t = 0;
            while t < 20_000 {
                t = (t + tick_ms).min(20_000);
                let (n, reached) = advance_to(&mut again, &log[applied..], crate::time::SimTime(t), u64::MAX);
                assert!(reached);
                applied += n;
            }
            assert_eq!(applied, log.len());
            assert_eq!(again.now(), sim.now());
            assert_eq!(again.trace().digest(), sim.trace().digest(), "ticks of {tick_ms} ms");
            assert_eq!(again.command_log(), sim.command_log(), "ticks of {tick_ms} ms");
        }
        let mut sliced = base.clone();
        let mut applied = 0;
        let mut slices = 0;
        loop {
            slices += 1;
            let (n, reached) = advance_to(&mut sliced, &log[applied..], crate::time::SimTime(20_000), 5);
            applied += n;
            if reached {
                break;
            }
        }
        assert!(slices > 10, "{slices}");
        assert_eq!(sliced.trace().digest(), sim.trace().digest());
    }

    #[test]
    fn advancing_to_a_moment_leaves_later_commands_pending_and_sets_the_clock() {
        let sim = played(50, 20_000);
        let log = sim.command_log().to_vec();
        let mut early = crate::scenario::default_scenario().build().unwrap();
        let (n, reached) = advance_to(&mut early, &log, crate::time::SimTime(4_249), u64::MAX);
        assert_eq!((n, reached), (0, true));
        assert_eq!(early.now().ms(), 4_249);
        let (n, _) = advance_to(&mut early, &log, crate::time::SimTime(4_250), u64::MAX);
        assert_eq!(n, 1, "the join was applied at 4.25 s");
        assert_eq!(early.command_log()[0].at.ms(), 4_250);
        // Such a state (a command at its own step count) is never a checkpoint.
        let mut history = History::new(early.clone(), 1, 10);
        history.observe(&early);
        assert_eq!(history.stats().0, 0);
    }

    #[test]
    fn checkpoints_stay_bounded_and_replays_stay_short() {
        let (history, sim) = run();
        let (count, every) = history.stats();
        assert!(count <= 8 + RECENT, "{count}");
        assert!(every >= 200, "spacing doubled as the run grew: {every}");
        // The newest checkpoints keep the first spacing: going back a little replays less
        // than the older tier's spacing however long the run.
        assert_eq!(history.recent.len(), RECENT);
        let newest = history.recent.back().unwrap().steps();
        assert!(sim.steps() - newest <= spacing(50, &sim), "{} steps from the end", sim.steps() - newest);
        for w in history.recent.iter().collect::<Vec<_>>().windows(2) {
            assert!(w[1].steps() - w[0].steps() < every, "recent checkpoints {} apart, older {every}", w[1].steps() - w[0].steps());
        }
        assert!(history.checkpoints.last().unwrap().steps() < history.recent[0].steps());
    }

    #[test]
    fn a_run_with_a_full_trace_is_copied_less_often() {
        let scenario = crate::scenario::default_scenario();
        let base = scenario.build().unwrap();
        let mut history = History::new(base.clone(), 10, 100_000);
        let mut sim = base;
        let group = sim.groups().next().unwrap().id().to_string();
        sim.apply(GroupCommand::AddMember { group, member: MemberSpec::new("late") }).unwrap();
        for _ in 0..6000 {
            if sim.step().is_none() {
                break;
            }
            history.observe(&sim);
        }
        let marks: Vec<(u64, u64)> =
            history.checkpoints.iter().chain(history.recent.iter()).map(|c| (c.steps(), c.trace().events().len() as u64)).collect();
        assert!(marks.len() > 10, "{marks:?}");
        assert!(marks.last().unwrap().1 > 100, "the trace grew: {marks:?}");
        assert!(marks.windows(2).any(|w| w[1].0 - w[0].0 > 20), "later checkpoints are further apart");
        for w in marks.windows(2) {
            let (gap, held) = (w[1].0 - w[0].0, w[1].1);
            assert!(gap >= 10 && gap >= held / SIZE_DIVISOR, "{gap} steps apart with {held} events held: {marks:?}");
        }
        // The early checkpoints (few events) keep the configured spacing.
        assert_eq!(marks[1].0 - marks[0].0, 10);
    }

    /// Going back far restores from an older checkpoint, which keeps only its newest
    /// OLDER_TRACE_KEPT events: the state is the same, and the trace it shows is the newest
    /// part of the one a replay from the start gives, with the same count and digest.
    #[test]
    fn an_older_checkpoint_keeps_the_newest_events_and_restores_the_same_state() {
        // The default scenario with a producer sending a record every 10 ms (the default
        // run itself goes quiet once its records are read).
        let mut scenario = crate::scenario::default_scenario();
        let mut busy = scenario.producers[0].clone();
        busy.name = "busy".into();
        busy.send = vec![crate::scenario::SendPlan {
            topic: scenario.topics[0].name.clone(),
            values: (0..20_000).map(|i| format!("b{i}")).collect(),
            start_ms: 0,
            interval_ms: 10,
            keys: None,
        }];
        scenario.producers.push(busy);
        let base = scenario.build().unwrap();
        let mut history = History::new(base.clone(), 50, 4);
        let mut sim = base;
        // Until an older checkpoint had more events than it keeps.
        while history.checkpoints.last().is_none_or(|c| c.trace().total() < 2 * OLDER_TRACE_KEPT as u64) {
            assert!(sim.step().is_some(), "the run goes on");
            history.observe(&sim);
        }
        assert!(history.checkpoints.iter().all(|c| c.trace().events().len() <= OLDER_TRACE_KEPT));
        let log = sim.command_log().to_vec();
        let target = history.checkpoints.last().unwrap().steps() + 1;
        assert!(target < history.recent[0].steps(), "restored from the older tier");
        let back = history.restore(&log, |s| s.steps() >= target, u64::MAX);
        let fresh = History::new(history.base().clone(), u64::MAX, 2).restore(&log, |s| s.steps() >= target, u64::MAX);
        assert_eq!(back.snapshot(), fresh.snapshot());
        assert_eq!((back.trace().total(), back.trace().digest()), (fresh.trace().total(), fresh.trace().digest()));
        let kept: Vec<&Event> = back.trace().events().collect();
        let all: Vec<&Event> = fresh.trace().events().collect();
        assert!(kept.len() >= OLDER_TRACE_KEPT && kept.len() < all.len(), "{} of {}", kept.len(), all.len());
        assert_eq!(kept, all[all.len() - kept.len()..].to_vec());
    }

    #[test]
    fn an_event_can_be_the_target() {
        let (history, sim) = run();
        let log = sim.command_log().to_vec();
        let crash = sim
            .trace()
            .events()
            .find(|e| matches!(e.kind, crate::event::EventKind::Group(crate::event::GroupEvent::MemberCrashed { .. })))
            .map(|e| e.seq)
            .unwrap();
        let at = history.restore(&log, |s| s.trace().total() > crash, u64::MAX);
        let last = at.trace().events().next_back().unwrap();
        assert!(at.trace().total() > crash);
        assert!(at.trace().events().any(|e| e.seq == crash));
        assert!(last.seq >= crash);
    }

    /// A recorded future replayed by moment: the same crash at the same simulated time in
    /// a branch whose events differ (here a branch where acks=all replaced acks=1).
    #[test]
    fn a_future_replayed_by_time_applies_each_command_at_its_moment() {
        use crate::command::{BrokerCommand, ProduceCommand};
        let scenario = crate::scenario::default_scenario();
        let mut recorded = scenario.build().unwrap();
        recorded.run_to(crate::SimTime(2_000));
        let mut branch = recorded.clone();
        recorded.run_to(crate::SimTime(8_000));
        recorded.apply(BrokerCommand::CrashBroker { broker: 1 }).unwrap();
        recorded.run_to(crate::SimTime(9_000));
        let future: Vec<LoggedCommand> = recorded.command_log().to_vec();
        assert_eq!(future.len(), 1);
        // The branch changes its producer first (acks=1): its events no longer match.
        branch.apply(ProduceCommand::SetAcks { producer: "Producer1".into(), acks: crate::config::Acks::Leader }).unwrap();
        let (applied, reached) = advance_to_by_time(&mut branch, &future, crate::SimTime(9_000), u64::MAX);
        assert_eq!((applied, reached), (1, true));
        let crash = branch.command_log().last().unwrap();
        assert_eq!(crash.at, crate::SimTime(8_000), "at its moment");
        assert_ne!(crash.after_steps, future[0].after_steps, "not at its recorded step count");
        assert!(!branch.broker(1).unwrap().alive());
        assert_eq!(branch.now(), crate::SimTime(9_000));
    }
}
