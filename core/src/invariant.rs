//! The model's named invariants, defined once: what holds after every step of every run,
//! whatever the commands and faults. [`crate::sim::Sim::step`] checks them after each
//! event in debug and `fuzz` builds (`debug_assertions`: a violation panics there and
//! names the invariant); the swarm and property tests call [`check`] after every step of
//! their random runs. A release build (the page, the CLI) never checks and never panics.
//!
//! Each is Kafka's own rule, not the sandbox's: the replication ones are the log and HW
//! rules of `kafka.cluster.Partition` / `UnifiedLog` (KIP-101 for truncation), the group
//! ones the consumer-group contract (one consumer per partition per group; `ConsumerCoordinator`
//! revokes before another member gets a partition), the durability one Kafka's promise for
//! `acks=all` with `min.insync.replicas` ≥ 2 and no unclean election (what the monitors
//! mark `promised`).

use crate::record::BrokerId;
use crate::sim::Sim;
use crate::vecmap::VecMap;

/// One named invariant.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[non_exhaustive]
pub enum Invariant {
    /// Every replica's records have strictly increasing offsets, all within
    /// `log_start_offset..log_end_offset` (on a compacted topic the cleaner leaves gaps).
    OffsetsIncreasing,
    /// On a topic that is not compacted, every replica's log holds offsets
    /// `log_start_offset..log_end_offset`, one record each, with no gap and no repeat.
    OffsetsContiguous,
    /// Every replica's segments tile its log: each starts where the one before ended.
    SegmentsTileTheLog,
    /// On every replica, the high watermark is at most the log end offset.
    HighWatermarkWithinLog,
    /// A partition's leader, when it has one, is in its ISR.
    LeaderInIsr,
    /// The ISR is never empty (with unclean election off the last member stays in it,
    /// even while down: `Partition` keeps it so it can come back as leader) — except with
    /// eligible leader replicas on (KIP-966, Kafka 4.1+), where the controller empties it
    /// and the partition is then leaderless.
    IsrNotEmpty,
    /// The leader's high watermark never passes what any ISR member holds: committed
    /// means every in-sync replica has it.
    HighWatermarkWithinIsr,
    /// In one consumer group, a partition is assigned to at most one member at a time.
    OneOwnerPerPartition,
    /// A member is assigned only partitions of topics it subscribes to.
    OwnsOnlySubscribed,
    /// A member keeps a fetch position only for partitions assigned to it.
    PositionsOnlyForAssigned,
    /// No record Kafka promised to keep (acked with `acks=all`, `min.insync.replicas` ≥ 2,
    /// no unclean election) has been lost.
    NoPromiseBroken,
    /// Share groups (KIP-932): no record's delivery count exceeds
    /// `group.share.delivery.count.limit`.
    ShareDeliveryCountWithinLimit,
    /// Share groups: a record is ACQUIRED by exactly one member of the group at a time, under
    /// a lock that has not run out; records in any other state have no owner and no lock.
    ShareAcquiredByOneMember,
    /// Share groups: the in-flight records lie in SPSO..=SPEO and the record at SPSO, if in
    /// flight, is not acknowledged or archived (SPSO has moved over those).
    ShareWindowConsistent,
}

impl Invariant {
    /// All of them, in the order [`check`] tests them.
    pub const ALL: [Invariant; 14] = [
        Invariant::OffsetsIncreasing,
        Invariant::OffsetsContiguous,
        Invariant::SegmentsTileTheLog,
        Invariant::HighWatermarkWithinLog,
        Invariant::LeaderInIsr,
        Invariant::IsrNotEmpty,
        Invariant::HighWatermarkWithinIsr,
        Invariant::OneOwnerPerPartition,
        Invariant::OwnsOnlySubscribed,
        Invariant::PositionsOnlyForAssigned,
        Invariant::NoPromiseBroken,
        Invariant::ShareDeliveryCountWithinLimit,
        Invariant::ShareAcquiredByOneMember,
        Invariant::ShareWindowConsistent,
    ];

    /// The invariant's name, as in the docs and in a violation's message.
    pub fn name(self) -> &'static str {
        match self {
            Invariant::OffsetsIncreasing => "offsets-increasing",
            Invariant::OffsetsContiguous => "offsets-contiguous",
            Invariant::SegmentsTileTheLog => "segments-tile-the-log",
            Invariant::HighWatermarkWithinLog => "hw-within-log",
            Invariant::LeaderInIsr => "leader-in-isr",
            Invariant::IsrNotEmpty => "isr-not-empty",
            Invariant::HighWatermarkWithinIsr => "hw-within-isr",
            Invariant::OneOwnerPerPartition => "one-owner-per-partition",
            Invariant::OwnsOnlySubscribed => "owns-only-subscribed",
            Invariant::PositionsOnlyForAssigned => "positions-only-for-assigned",
            Invariant::NoPromiseBroken => "no-promise-broken",
            Invariant::ShareDeliveryCountWithinLimit => "share-delivery-count-within-limit",
            Invariant::ShareAcquiredByOneMember => "share-acquired-by-one-member",
            Invariant::ShareWindowConsistent => "share-window-consistent",
        }
    }
}

/// An invariant that does not hold, and where.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Violation {
    /// The invariant broken.
    pub invariant: Invariant,
    /// Where: the partition and replica, or the group and member, and the numbers.
    pub detail: String,
}

impl std::fmt::Display for Violation {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "invariant {} broken: {}", self.invariant.name(), self.detail)
    }
}

impl std::error::Error for Violation {}

/// How thoroughly [`check_with`] looks at the logs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Depth {
    /// Every record of every log (what the tests use): O(records).
    Full,
    /// A log's first and last records and its length (what every step uses in debug
    /// builds): O(partitions × replicas). Exact while offsets only grow, which
    /// `PartitionLog`'s appends assert.
    Ends,
}

/// Every invariant, with every record looked at.
pub fn check(sim: &Sim) -> Result<(), Violation> {
    check_with(sim, Depth::Full)
}

/// Every invariant, at the given depth; the first one broken.
pub fn check_with(sim: &Sim, depth: Depth) -> Result<(), Violation> {
    let broken = |invariant, detail: String| Err(Violation { invariant, detail });
    let elr = sim.cluster.config.kafka_version.eligible_leader_replicas();
    // `__consumer_offsets`' logs (one per partition with records, issue 19), compacted.
    for (p, part) in sim.consumers.offsets.partitions.iter() {
        let leader = sim.cluster.offsets_partition(*p).and_then(|r| r.leader).unwrap_or_default();
        log_shape(crate::record::OFFSETS_TOPIC, *p as usize, leader, &part.log, true, depth)?;
    }
    for t in sim.cluster.topics.values() {
        for (p, part) in t.partitions.iter().enumerate() {
            for (b, log) in &part.logs {
                log_shape(&t.name, p, *b, log, t.config.cleanup_policy.compact(), depth)?;
            }
            // With eligible leader replicas (KIP-966) the controller may empty the ISR, and
            // then the partition has no leader.
            let may_be_empty = elr && part.leader.is_none();
            if part.isr.is_empty() && !may_be_empty {
                return broken(Invariant::IsrNotEmpty, format!("{}-{p}: empty ISR (leader {:?})", t.name, part.leader));
            }
            if let Some(l) = part.leader {
                if !part.isr.contains(&l) {
                    return broken(Invariant::LeaderInIsr, format!("{}-{p}: leader {l} outside the ISR {:?}", t.name, part.isr));
                }
            }
            if let Some(leader) = part.leader_log() {
                let hw = leader.high_watermark();
                for b in &part.isr {
                    let leo = part.logs.get(b).map_or(0, |l| l.log_end_offset());
                    if hw > leo {
                        return broken(
                            Invariant::HighWatermarkWithinIsr,
                            format!("{}-{p}: HW {hw} above ISR member {b}'s LEO {leo}", t.name),
                        );
                    }
                }
            }
        }
    }
    for g in sim.consumers.groups.values() {
        let mut owners: VecMap<&crate::record::TopicPartition, &str> = VecMap::default();
        for m in &g.members {
            for tp in &m.assigned {
                if let Some(other) = owners.insert(tp, &m.client_id) {
                    return broken(Invariant::OneOwnerPerPartition, format!("group {}: {tp} owned by {other} and {}", g.id, m.client_id));
                }
                if !m.topics.iter().any(|t| t == tp.topic) {
                    return broken(
                        Invariant::OwnsOnlySubscribed,
                        format!("group {}: {} owns {tp} but subscribes to {:?}", g.id, m.client_id, m.topics),
                    );
                }
            }
            if let Some((tp, _)) = m.positions.iter().find(|(tp, _)| !m.assigned.contains(tp)) {
                return broken(
                    Invariant::PositionsOnlyForAssigned,
                    format!("group {}: {} has a position for {tp}, not assigned to it", g.id, m.client_id),
                );
            }
        }
    }
    for g in sim.consumers.shares.groups.values() {
        let limit = g.config.share_delivery_count_limit;
        for (tp, sp) in &g.partitions {
            if let Some((o, _)) = sp.records().find(|(o, _)| *o < sp.start || *o >= sp.next_new) {
                return broken(
                    Invariant::ShareWindowConsistent,
                    format!("share group {}: {tp} offset {o} outside {}..{}", g.id, sp.start, sp.next_new),
                );
            }
            if sp.cached.get(&sp.start).is_some_and(|r| r.state.is_terminal()) {
                return broken(Invariant::ShareWindowConsistent, format!("share group {}: {tp} SPSO {} is done with", g.id, sp.start));
            }
            for (o, r) in sp.records() {
                if r.delivery_count > limit {
                    return broken(
                        Invariant::ShareDeliveryCountWithinLimit,
                        format!("share group {}: {tp} offset {o} delivered {} times, limit {limit}", g.id, r.delivery_count),
                    );
                }
                let acquired = r.state == crate::share_group::RecordState::Acquired;
                let owned = r.owner.as_deref().is_some_and(|m| !m.is_empty());
                let locked = r.lock_until.is_some_and(|t| t >= sim.now());
                if acquired != (owned && locked) || (!acquired && (r.owner.is_some() || r.lock_until.is_some())) {
                    return broken(
                        Invariant::ShareAcquiredByOneMember,
                        format!(
                            "share group {}: {tp} offset {o} is {:?} owned by {:?} locked until {:?}",
                            g.id, r.state, r.owner, r.lock_until
                        ),
                    );
                }
            }
        }
    }
    if sim.monitors().promised_total() > 0 {
        let f = sim.monitors().findings().iter().find(|f| f.promised);
        return broken(
            Invariant::NoPromiseBroken,
            f.map_or_else(String::new, |f| format!("{:?} on {} at {} ms: {:?}", f.kind, f.tp, f.time.ms(), f.values)),
        );
    }
    Ok(())
}

/// One log's shape: offsets increasing (contiguous unless `compacted`), segments tiling it,
/// the high watermark within it. `name`-`p` on broker `b` names it in a violation.
fn log_shape(name: &str, p: usize, b: BrokerId, log: &crate::log::PartitionLog, compacted: bool, depth: Depth) -> Result<(), Violation> {
    let broken = |invariant, detail: String| Err(Violation { invariant, detail });
    let (start, end) = (log.log_start_offset(), log.log_end_offset());
    let records = log.records();
    let increasing = match depth {
        Depth::Full => records.iter().zip(records.iter().skip(1)).all(|(a, b)| a.offset < b.offset),
        Depth::Ends => true,
    } && records.first().is_none_or(|r| r.offset >= start)
        && records.last().is_none_or(|r| r.offset < end)
        && records.len() as u64 <= end.saturating_sub(start)
        && start <= end;
    if !increasing {
        return broken(
            Invariant::OffsetsIncreasing,
            format!("{}-{p} on broker {b}: {} records for offsets {start}..{end}, not increasing within", name, records.len()),
        );
    }
    // A compacted topic's logs have the gaps the cleaner left (issue 19).
    let contiguous = compacted
        || match depth {
            Depth::Full => records.iter().enumerate().all(|(i, r)| r.offset == start + i as u64),
            Depth::Ends => records.first().is_none_or(|r| r.offset == start),
        } && records.last().is_none_or(|r| r.offset + 1 == end)
            && records.len() as u64 == end.saturating_sub(start)
            && start <= end;
    if !contiguous {
        return broken(
            Invariant::OffsetsContiguous,
            format!("{}-{p} on broker {b}: {} records for offsets {start}..{end}", name, records.len()),
        );
    }
    let mut next = None;
    for s in log.segments() {
        if next.is_some_and(|n| n != s.base_offset) || s.next_offset < s.base_offset {
            return broken(
                Invariant::SegmentsTileTheLog,
                format!("{}-{p} on broker {b}: a segment {}..{} after one ending at {next:?}", name, s.base_offset, s.next_offset),
            );
        }
        next = Some(s.next_offset);
    }
    if log.high_watermark() > end {
        return broken(
            Invariant::HighWatermarkWithinLog,
            format!("{}-{p} on broker {b}: HW {} above LEO {end}", name, log.high_watermark()),
        );
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::time::SimTime;

    /// The default scenario (three brokers, RF 3, two groups) after its seven messages.
    fn settled() -> Sim {
        let mut sim = crate::scenario::default_scenario().build().expect("the default scenario builds");
        sim.run_to(SimTime(15_000));
        sim
    }

    fn broken(sim: &Sim) -> Option<Invariant> {
        check(sim).err().map(|v| v.invariant)
    }

    #[test]
    fn names_are_distinct_and_all_lists_each_once() {
        let mut names: Vec<&str> = Invariant::ALL.iter().map(|i| i.name()).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), Invariant::ALL.len());
    }

    #[test]
    fn a_settled_run_holds_every_invariant_and_has_what_the_checks_look_at() {
        let sim = settled();
        assert_eq!(check(&sim), Ok(()));
        assert!(sim.cluster.topics.values().flat_map(|t| &t.partitions).any(|p| p.leader_log().is_some_and(|l| l.log_end_offset() > 0)));
        assert!(sim.consumers.groups.values().flat_map(|g| &g.members).any(|m| !m.assigned.is_empty() && !m.positions.is_empty()));
    }

    #[test]
    fn each_corruption_is_named_by_its_invariant() {
        let base = settled();
        let (topic, p) = base
            .cluster
            .topics
            .values()
            .flat_map(|t| t.partitions.iter().enumerate().map(move |(i, part)| (t, i, part)))
            .find(|(_, _, part)| part.leader_log().is_some_and(|l| l.log_end_offset() > 0))
            .map(|(t, i, _)| (t.name.clone(), i))
            .expect("a partition with records");
        fn partition<'a>(sim: &'a mut Sim, topic: &str, p: usize) -> &'a mut crate::cluster::Partition {
            &mut sim.cluster.topics.get_mut(topic).expect("topic").partitions[p]
        }

        let mut sim = base.clone();
        let leader = partition(&mut sim, &topic, p).leader.expect("a leader");
        partition(&mut sim, &topic, p).isr.retain(|b| *b != leader);
        assert_eq!(broken(&sim), Some(Invariant::LeaderInIsr));

        let mut sim = base.clone();
        partition(&mut sim, &topic, p).isr.clear();
        assert_eq!(broken(&sim), Some(Invariant::IsrNotEmpty), "a leader with an empty ISR");

        let mut sim = base.clone();
        let follower = partition(&mut sim, &topic, p).isr.iter().copied().find(|b| *b != leader).expect("a follower in the ISR");
        partition(&mut sim, &topic, p).logs.get_mut(&follower).expect("its log").truncate_to(0);
        assert_eq!(broken(&sim), Some(Invariant::HighWatermarkWithinIsr));

        fn group(sim: &mut Sim) -> &mut crate::group::Group {
            sim.consumers
                .groups
                .values_mut()
                .find(|g| g.members.iter().filter(|m| !m.assigned.is_empty()).count() >= 2)
                .expect("a group of two")
        }
        let mut sim = base.clone();
        let g = group(&mut sim);
        let tp = g.members[0].assigned[0].clone();
        let other = g.members.iter().position(|m| !m.assigned.contains(&tp) && !m.assigned.is_empty()).expect("another owner");
        g.members[other].assigned.push(tp);
        assert_eq!(broken(&sim), Some(Invariant::OneOwnerPerPartition));

        let mut sim = base.clone();
        group(&mut sim).members[0].topics.clear();
        assert_eq!(broken(&sim), Some(Invariant::OwnsOnlySubscribed));

        let mut sim = base.clone();
        let m = &mut group(&mut sim).members[0];
        assert!(!m.positions.is_empty());
        m.assigned.clear();
        assert_eq!(broken(&sim), Some(Invariant::PositionsOnlyForAssigned));
    }

    #[test]
    fn a_violation_says_which_invariant_and_where() {
        let mut sim = settled();
        let part = &mut sim.cluster.topics.values_mut().next().expect("a topic").partitions[0];
        part.isr.clear();
        let v = check(&sim).expect_err("broken");
        assert!(v.to_string().starts_with("invariant isr-not-empty broken: "), "{v}");
        assert!(v.detail.contains("-0"), "{v}");
    }
}
