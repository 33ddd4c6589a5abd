//! Eager vs cooperative vs KIP-848 on one membership change.
//!
//! [`compare_protocols`] runs a scenario three times with the same seed — the group under
//! the classic protocol with eager `range`, under the classic protocol with
//! `cooperative-sticky` (KIP-429), and under `group.protocol=consumer` with the broker's
//! `uniform` assignor (KIP-848) — applies the same change at the same moment, and reports
//! who stopped consuming, for how long, and how many partitions changed hands. Everything
//! else in the scenario is identical, so the differences are the protocols'.

use crate::assign::server::ServerAssignor;
use crate::assign::Strategy;
use crate::command::GroupCommand;
use crate::command::{Command, MemberSpec};
use crate::config::GroupProtocol;
use crate::event::EventKind;
use crate::event::{ConsumeEvent, ConsumerProtocolEvent, GroupEvent};
use crate::group::GroupState;
use crate::scenario::Scenario;
use crate::time::SimTime;
use serde::{Deserialize, Serialize};

/// The three ways a group can rebalance.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Variant {
    /// Classic protocol, eager `range` (Kafka's default assignor list selects it).
    Eager,
    /// Classic protocol, `cooperative-sticky` (KIP-429).
    Cooperative,
    /// `group.protocol=consumer`, broker-side `uniform` (KIP-848).
    Consumer,
}

impl Variant {
    /// The three, in the order [`compare_protocols`] runs them (and [`Comparison::runs`]
    /// lists them).
    pub const ALL: [Variant; 3] = [Variant::Eager, Variant::Cooperative, Variant::Consumer];
}

/// The membership change to compare.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum Change {
    /// A new consumer with this client id joins.
    Join {
        /// The newcomer's client id (it joins with the settings of the group's first member
        /// in the scenario, without a `group.instance.id`).
        client_id: String,
    },
    /// A member closes gracefully.
    Leave {
        /// The member's client id.
        client_id: String,
    },
    /// A member's process dies.
    Crash {
        /// The member's client id.
        client_id: String,
    },
}

/// One member over the comparison window.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MemberRun {
    /// The member's client id.
    pub client_id: String,
    /// Time it could not consume at all because of the change (rebalance pauses).
    pub paused_ms: u64,
    /// Partitions it gave up.
    pub revoked: usize,
    /// How many partitions it was consuming at each sample (every `sample_ms`).
    pub owned: Vec<u32>,
}

/// One protocol's run.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ProtocolRun {
    /// The protocol this run used for the group.
    pub variant: Variant,
    /// Every member of the group seen at a sample, in the order first seen.
    pub members: Vec<MemberRun>,
    /// Partition-time without a consumer, summed over partitions.
    pub partition_downtime_ms: u64,
    /// From the change until the group was Stable with the final assignment.
    pub settled_after_ms: Option<u64>,
    /// Group-wide rounds (classic: generations; consumer: group epochs).
    pub rebalances: u64,
    /// Records the group processed twice, over the whole run (from time zero, not only
    /// the window).
    pub duplicates: u64,
    /// Records the group committed past without processing them, over the whole run (from
    /// time zero, not only the window).
    pub lost: u64,
}

/// The result of a comparison.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Comparison {
    /// The group the change was applied to.
    pub group: String,
    /// The membership change applied.
    pub change: Change,
    /// When the change was applied, in simulated time.
    pub at: SimTime,
    /// How long after `at` each run was measured, in ms of simulated time.
    pub window_ms: u64,
    /// The interval between samples of [`MemberRun::owned`], in ms (the window over 120,
    /// at least 50).
    pub sample_ms: u64,
    /// One run per [`Variant`], in [`Variant::ALL`]'s order.
    pub runs: Vec<ProtocolRun>,
}

/// What a run has cost so far, for comparing two branches of one run.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Outcome {
    /// Records acknowledged to a producer and then lost, over the whole run.
    pub acked_lost: u64,
    /// Records lost in leader changes (acknowledged or not), over the whole run.
    pub records_lost: u64,
    /// Records processed twice, summed over groups (over the whole run).
    pub duplicates: u64,
    /// Records committed past without being processed, summed over groups.
    pub unprocessed: u64,
    /// Time members could not consume because of rebalances, summed.
    pub rebalance_stopped_ms: u64,
    /// Consumer lag summed over groups and partitions (HW − committed).
    pub lag: u64,
    /// Records delivered to consumers, and acknowledged to producers.
    pub delivered: u64,
    /// Records acknowledged to producers (under acks=0: sent), over the whole run.
    pub acked: u64,
}

/// The outcome of a run as it stands.
pub fn outcome(sim: &crate::sim::Sim) -> Outcome {
    // Whole-run counters, not the bounded trace or findings: the answer covers the run
    // whatever `SimOptions` keeps.
    let mut o = Outcome {
        records_lost: sim.cluster.lost_total(),
        acked: sim.clients.producers.values().map(|p| p.counters.acknowledged).sum(),
        acked_lost: sim.monitors().acked_lost_total(),
        ..Outcome::default()
    };
    for g in sim.consumers.groups.values() {
        o.duplicates += g.duplicates;
        o.unprocessed += g.unprocessed_records();
        // Pauses still under way count up to now (a crashed member's, say).
        let now = sim.now().ms();
        o.rebalance_stopped_ms += g
            .members
            .iter()
            .map(|m| m.rebalance_stopped_ms + m.stopped_since.map(|s| now.saturating_sub(s.ms())).unwrap_or(0))
            .sum::<u64>();
        o.delivered += g.members.iter().map(|m| m.received_total()).sum::<u64>();
        for t in &g.topics {
            let Some(topic) = sim.cluster.topics.get(t) else { continue };
            for (p, part) in topic.partitions.iter().enumerate() {
                let Some(log) = part.leader_log() else { continue };
                let tp = crate::record::TopicPartition::new(t.clone(), p as u32);
                let c = g.committed.get(&tp).copied().unwrap_or(log.log_start_offset());
                o.lag += log.high_watermark().saturating_sub(c);
            }
        }
    }
    o
}

impl Comparison {
    /// The run under `variant`.
    pub fn run(&self, variant: Variant) -> Option<&ProtocolRun> {
        self.runs.iter().find(|r| r.variant == variant)
    }
}

/// The longest window a comparison may cover (simulated time).
pub const MAX_WINDOW_MS: u64 = 600_000;

/// The most simulation steps one of the three runs may take (the page waits for them).
pub const MAX_RUN_STEPS: u64 = 1_000_000;

/// Runs `scenario` under the three protocols, applies `change` to `group` at `at`, and
/// measures the `window_ms` after it.
///
/// A third consumer joins a group of two: under eager rebalancing every member stops;
/// under cooperative-sticky and the KIP-848 consumer protocol the members keep consuming
/// what they keep.
///
/// ```
/// use kafka_sandbox_core::compare::{compare_protocols, Change, Variant};
/// use kafka_sandbox_core::{GroupSpec, MemberSpec, Scenario, SimTime, TopicSpec};
///
/// let mut b = Scenario::builder();
/// let t = b.topic(TopicSpec::new("t").partitions(6));
/// let g = b.group(GroupSpec::new("g", [&t]).members([MemberSpec::new("c1"), MemberSpec::new("c2")]));
/// let scenario = b.scenario()?;
/// let join = Change::Join { client_id: "c3".into() };
/// let cmp = compare_protocols(&scenario, &g, &join, SimTime(20_000), 30_000)?;
/// let stopped = |v: Variant| cmp.run(v).map(|r| r.members[0].paused_ms);
/// assert!(stopped(Variant::Eager) > Some(0));
/// assert_eq!(stopped(Variant::Cooperative), Some(0));
/// assert_eq!(stopped(Variant::Consumer), Some(0));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn compare_protocols(scenario: &Scenario, group: &str, change: &Change, at: SimTime, window_ms: u64) -> Result<Comparison, String> {
    compare_bounded(scenario, group, change, at, window_ms, MAX_RUN_STEPS)
}

/// [`compare_protocols`] with at most `max_steps` steps per run.
fn compare_bounded(
    scenario: &Scenario,
    group: &str,
    change: &Change,
    at: SimTime,
    window_ms: u64,
    max_steps: u64,
) -> Result<Comparison, String> {
    if window_ms == 0 || window_ms > MAX_WINDOW_MS {
        return Err(format!("the comparison window must be between 1 and {MAX_WINDOW_MS} ms"));
    }
    if !scenario.groups.iter().any(|g| g.id == group) {
        return Err(format!("the scenario has no group \"{group}\""));
    }
    let sample_ms = (window_ms / 120).max(50);
    let mut runs = Vec::new();
    for variant in Variant::ALL {
        runs.push(run_one(scenario, group, change, at, window_ms, sample_ms, variant, max_steps)?);
    }
    Ok(Comparison { group: group.to_string(), change: change.clone(), at, window_ms, sample_ms, runs })
}

#[allow(clippy::too_many_arguments)]
fn run_one(
    scenario: &Scenario,
    group: &str,
    change: &Change,
    at: SimTime,
    window_ms: u64,
    sample_ms: u64,
    variant: Variant,
    max_steps: u64,
) -> Result<ProtocolRun, String> {
    let mut s = scenario.clone();
    s.duration_ms = None;
    for g in s.groups.iter_mut().filter(|g| g.id == group) {
        match variant {
            Variant::Eager => {
                g.config.group_protocol = GroupProtocol::Classic;
                g.config.assignor = Strategy::Range;
            }
            Variant::Cooperative => {
                g.config.group_protocol = GroupProtocol::Classic;
                g.config.assignor = Strategy::CooperativeSticky;
            }
            Variant::Consumer => {
                g.config.group_protocol = GroupProtocol::Consumer;
                g.config.remote_assignor = ServerAssignor::Uniform;
            }
        }
    }
    let mut sim = s.build().map_err(|e| e.to_string())?;
    let too_much = || {
        format!("this scenario is too busy to compare here (more than {max_steps} events per run); try a smaller one or an earlier moment")
    };
    if !sim.run_to_bounded(at, max_steps) {
        return Err(too_much());
    }
    let before = sim.consumers.groups.get(group).map(|g| (g.partition_downtime_ms, g.rebalances, g.generation)).unwrap_or_default();
    let paused_before: Vec<(String, u64)> = sim
        .consumers
        .groups
        .get(group)
        .map(|g| g.members.iter().map(|m| (m.client_id.to_string(), m.rebalance_stopped_ms)).collect())
        .unwrap_or_default();
    let command = match change {
        Change::Join { client_id } => {
            let template = s.groups.iter().find(|g| g.id == group).and_then(|g| g.members.first()).cloned();
            let mut spec = template.unwrap_or_else(|| MemberSpec::new(client_id.clone()));
            spec.client_id = client_id.clone();
            spec.group_instance_id = None;
            Command::Group(GroupCommand::AddMember { group: group.to_string(), member: spec })
        }
        Change::Leave { client_id } => {
            Command::Group(GroupCommand::RemoveMember { group: group.to_string(), client_id: client_id.clone() })
        }
        Change::Crash { client_id } => Command::Group(GroupCommand::CrashMember { group: group.to_string(), client_id: client_id.clone() }),
    };
    let cursor = sim.trace().total();
    sim.apply(command).map_err(|e| e.to_string())?;
    let mut owned: Vec<(String, Vec<u32>)> = Vec::new();
    let end = at.plus_ms(window_ms);
    let mut t = at;
    while t < end {
        t = t.plus_ms(sample_ms).min(end);
        if !sim.run_to_bounded(t, max_steps.saturating_sub(sim.steps())) {
            return Err(too_much());
        }
        if let Some(g) = sim.consumers.groups.get(group) {
            for m in &g.members {
                let n = if m.phase == crate::group::Phase::Crashed { 0 } else { m.positions.len() as u32 };
                match owned.iter_mut().find(|(c, _)| *c == m.client_id) {
                    Some((_, v)) => v.push(n),
                    None => owned.push((m.client_id.to_string(), vec![n])),
                }
            }
        }
    }
    let g = sim.consumers.groups.get(group).ok_or_else(|| format!("group \"{group}\" vanished"))?;
    let mut revoked: Vec<(String, usize)> = Vec::new();
    let mut settled = None;
    let mut last_change = at;
    for e in sim.events_since(cursor) {
        match &e.kind {
            EventKind::Group(GroupEvent::PartitionsRevoked { group: gid, client_id, partitions }) if gid == group => {
                match revoked.iter_mut().find(|(c, _)| c == client_id) {
                    Some((_, n)) => *n += partitions.len(),
                    None => revoked.push((client_id.clone(), partitions.len())),
                }
                last_change = e.time;
            }
            EventKind::Consume(ConsumeEvent::PositionSet { group: gid, .. }) if gid == group => last_change = e.time,
            EventKind::Group(GroupEvent::GroupStable { group: gid, .. })
            | EventKind::ConsumerProtocol(ConsumerProtocolEvent::ConsumerGroupStable { group: gid, .. })
                if gid == group =>
            {
                settled = Some(e.time)
            }
            _ => {}
        }
    }
    let settled_after_ms =
        settled.filter(|s| *s >= last_change || g.state == GroupState::Stable).map(|s| s.ms().max(last_change.ms()) - at.ms());
    let members = owned
        .into_iter()
        .map(|(client_id, samples)| {
            let m = g.member(&client_id);
            let was = paused_before.iter().find(|(c, _)| *c == client_id).map(|(_, p)| *p).unwrap_or(0);
            let ongoing = m.and_then(|m| m.stopped_since).map(|since| end.ms().saturating_sub(since.ms().max(at.ms()))).unwrap_or(0);
            let paused_ms = m.map(|m| m.rebalance_stopped_ms.saturating_sub(was)).unwrap_or(0) + ongoing;
            let revoked = revoked.iter().find(|(c, _)| *c == client_id).map(|(_, n)| *n).unwrap_or(0);
            MemberRun { client_id, paused_ms, revoked, owned: samples }
        })
        .collect();
    let ongoing_gaps: u64 = g.partition_gaps.values().map(|since| end.ms().saturating_sub(since.ms().max(at.ms()))).sum();
    Ok(ProtocolRun {
        variant,
        members,
        partition_downtime_ms: g.partition_downtime_ms.saturating_sub(before.0) + ongoing_gaps,
        settled_after_ms,
        rebalances: match variant {
            Variant::Consumer => (g.generation - before.2).max(0) as u64,
            _ => g.rebalances.saturating_sub(before.1),
        },
        duplicates: g.duplicates,
        lost: g.unprocessed_records(),
    })
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used)]
mod tests {
    use super::*;

    fn default() -> Scenario {
        crate::scenario::default_scenario()
    }

    #[test]
    fn a_join_stops_everyone_only_under_eager() {
        let s = default();
        let group = s.groups[0].id.clone();
        let c = compare_protocols(&s, &group, &Change::Join { client_id: "newcomer".into() }, SimTime(20_000), 40_000).unwrap();
        assert_eq!(c.runs.len(), 3);
        let eager = &c.runs[0];
        let old: Vec<&MemberRun> = eager.members.iter().filter(|m| m.client_id != "newcomer").collect();
        assert!(!old.is_empty());
        assert!(old.iter().all(|m| m.paused_ms > 0), "{old:?}");
        for run in &c.runs[1..] {
            for m in run.members.iter().filter(|m| m.client_id != "newcomer") {
                assert_eq!(m.paused_ms, 0, "{:?} {m:?}", run.variant);
            }
            assert!(run.settled_after_ms.is_some(), "{run:?}");
        }
        // The newcomer ends up consuming in every run.
        for run in &c.runs {
            let n = run.members.iter().find(|m| m.client_id == "newcomer").expect("newcomer");
            assert!(n.owned.last().is_some_and(|k| *k > 0), "{:?}: {n:?}", run.variant);
        }
    }

    #[test]
    fn a_run_too_busy_to_compare_is_refused_not_waited_for() {
        let s = default();
        let group = s.groups[0].id.clone();
        let e = compare_bounded(&s, &group, &Change::Join { client_id: "x".into() }, SimTime(20_000), 10_000, 200).unwrap_err();
        assert!(e.contains("too busy"), "{e}");
    }

    #[test]
    fn bad_requests_are_refused_with_a_reason() {
        let s = default();
        let e = compare_protocols(&s, "nope", &Change::Join { client_id: "x".into() }, SimTime(1), 1000).unwrap_err();
        assert!(e.contains("no group"), "{e}");
        let group = s.groups[0].id.clone();
        let e = compare_protocols(&s, &group, &Change::Join { client_id: "x".into() }, SimTime(1), 0).unwrap_err();
        assert!(e.contains("window"), "{e}");
        let e = compare_protocols(&s, &group, &Change::Crash { client_id: "ghost".into() }, SimTime(1), 1000).unwrap_err();
        assert!(!e.is_empty());
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used)]
mod outcome_tests {
    use super::*;

    /// A crash in one branch shows in its outcome and not in the untouched fork.
    #[test]
    fn a_fork_without_the_crash_differs_where_the_crash_matters() {
        let scenario = crate::scenario::default_scenario();
        let mut run = scenario.build().unwrap();
        run.run_to(SimTime(8_000));
        let mut fork = run.clone();
        let group = run.groups().next().unwrap().id().to_string();
        run.apply(GroupCommand::CrashMember { group, client_id: "Consumer2".into() }).unwrap();
        run.run_to(SimTime(17_000));
        fork.run_to(SimTime(17_000));
        let (a, b) = (outcome(&run), outcome(&fork));
        assert!(a.delivered < b.delivered, "{a:?} {b:?}");
        assert!(a.lag > b.lag);
        assert!(a.rebalance_stopped_ms >= 8_000, "the crashed member has not consumed since 8 s: {a:?}");
        assert_eq!(b.rebalance_stopped_ms, 0);
        assert_eq!((a.acked, a.acked_lost), (b.acked, b.acked_lost));
    }
}
