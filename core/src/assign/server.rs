//! Broker-side assignors of the KIP-848 consumer protocol (`group.protocol=consumer`):
//! the group coordinator computes each member's target assignment itself, with one of
//! `group.consumer.assignors` — `uniform` (the default, first in the list) or `range` —
//! or the one a member names in `group.remote.assignor`.
//!
//! - [`ServerAssignor::Range`] is `org.apache.kafka.coordinator.group.assignor.RangeAssignor`
//!   as rewritten in 3.9 (KAFKA-16944): stateless, members ordered static-first by
//!   instance id then by member id, each taking a contiguous range per topic, the first
//!   ones one extra. That is the client [`range`] rule, reused.
//! - [`ServerAssignor::Uniform`] is `UniformAssignor`. When every member subscribes to the
//!   same topics it is `UniformHomogeneousAssignmentBuilder`: balance first, then
//!   stickiness. Members are visited in the iteration order of the coordinator's
//!   `HashMap<String, …>` of member ids; each may keep its current partitions up to its
//!   quota (`P / M`, plus one for the first `P % M` members visited), the partitions
//!   it gives up and the unowned ones (topics in name order, partitions ascending) are
//!   dealt in that same order to the members below quota.
//!
//! Deviations, documented rather than hidden:
//! - Kafka orders topics by their random topic ids (a `HashSet<Uuid>`); the sandbox has
//!   no topic ids and uses topic names. With one subscribed topic this changes nothing.
//! - Within a hash bin, member ids follow join order here; Kafka's follow its
//!   `TimelineHashMap`. Bins collide rarely for a handful of 22-character ids.
//! - A member's partitions are visited in ascending order (Java's `HashSet<Integer>`
//!   gives that order for partition numbers below its capacity).
//! - Heterogeneous subscriptions (`UniformHeterogeneousAssignmentBuilder`) are
//!   approximated: per topic in name order, current owners keep partitions up to a
//!   balanced share, the rest go to the subscriber with the fewest partitions. The
//!   result is valid and balanced per topic, but may differ from Kafka's.

use crate::sorted::CollectSorted;
use std::collections::{BTreeMap, BTreeSet};

use super::{java_hash, range, sorted_members, Assignment, Subscription};
pub use crate::config::ServerAssignor;

/// Computes the target assignment of a consumer-protocol group.
///
/// `members` come in the coordinator's insertion (join) order; each carries its
/// subscription, its `group.instance.id` and, in `owned`, its current target assignment
/// (what stickiness preserves). Topics absent from `partitions_per_topic` (or with 0
/// partitions) are skipped. Every member gets an entry.
pub fn assign_server(assignor: ServerAssignor, partitions_per_topic: &BTreeMap<String, u32>, members: &[Subscription]) -> Assignment {
    let mut assignment: Assignment = members.iter().map(|m| (m.member_id.clone(), BTreeMap::new())).collect_map();
    if members.is_empty() {
        return assignment;
    }
    let topics: Vec<(&str, u32)> = members
        .iter()
        .flat_map(|m| m.topics.iter().map(String::as_str))
        .collect_set()
        .into_iter()
        .filter_map(|t| partitions_per_topic.get(t).filter(|n| **n > 0).map(|n| (t, *n)))
        .collect();
    match assignor {
        ServerAssignor::Range => range::assign_sorted(&topics, &sorted_members(members), &mut assignment),
        ServerAssignor::Uniform => {
            let first: BTreeSet<&str> = members[0].topics.iter().map(String::as_str).collect_set();
            let homogeneous = members.iter().all(|m| m.topics.iter().map(String::as_str).collect_set() == first);
            if homogeneous {
                uniform_homogeneous(&topics, members, &mut assignment);
            } else {
                uniform_heterogeneous(&topics, members, &mut assignment);
            }
        }
    }
    assignment
}

/// The order in which the coordinator's `HashMap<String, …>` of members iterates them.
fn hash_order(members: &[Subscription]) -> Vec<&Subscription> {
    let ids: Vec<&str> = members.iter().map(|m| m.member_id.as_str()).collect();
    java_hash::string_map_order(&ids).into_iter().map(|i| &members[i]).collect()
}

/// `UniformHomogeneousAssignmentBuilder.build`.
fn uniform_homogeneous(topics: &[(&str, u32)], members: &[Subscription], assignment: &mut Assignment) {
    let subscribed: BTreeSet<&str> = topics.iter().map(|(t, _)| *t).collect_set();
    let total: u64 = topics.iter().map(|(_, n)| u64::from(*n)).sum();
    let order = hash_order(members);
    let count = order.len() as u64;
    let min_quota = total / count;
    let mut extra = total % count;
    // Partitions nobody owns (valid ones only), in topic then partition order.
    let owned: BTreeSet<(&str, u32)> = members
        .iter()
        .flat_map(|m| m.owned.iter().map(|(t, p)| (t.as_str(), *p)))
        .filter(|(t, p)| topics.iter().any(|(tt, n)| tt == t && p < n))
        .collect_set();
    let mut unassigned: Vec<(&str, u32)> =
        topics.iter().flat_map(|&(t, n)| (0..n).map(move |p| (t, p))).filter(|tp| !owned.contains(tp)).collect();
    // maybeRevokePartitions: keep up to the quota, give up the rest.
    let mut unfilled: Vec<(&str, u64)> = Vec::new();
    for m in &order {
        let mut quota = min_quota;
        if extra > 0 {
            quota += 1;
            extra -= 1;
        }
        let mut by_topic: BTreeMap<&str, Vec<u32>> = BTreeMap::new();
        for (t, p) in &m.owned {
            if subscribed.contains(t.as_str()) && topics.iter().any(|(tt, n)| tt == t && p < n) {
                by_topic.entry(t.as_str()).or_default().push(*p);
            }
        }
        for (t, mut ps) in by_topic {
            ps.sort_unstable();
            ps.dedup();
            let keep = (ps.len() as u64).min(quota) as usize;
            quota -= keep as u64;
            super::give(assignment, &m.member_id, t, ps[..keep].iter().copied());
            unassigned.extend(ps[keep..].iter().map(|p| (t, *p)));
        }
        if quota > 0 {
            unfilled.push((m.member_id.as_str(), quota));
        }
    }
    // assignRemainingPartitions: deal in order, each member up to its remaining quota.
    let mut next = unassigned.into_iter();
    for (member, quota) in unfilled {
        for _ in 0..quota {
            let Some((t, p)) = next.next() else { break };
            super::give(assignment, member, t, [p]);
        }
    }
    for ps in assignment.values_mut().flat_map(|m| m.values_mut()) {
        ps.sort_unstable();
    }
}

/// An approximation of `UniformHeterogeneousAssignmentBuilder` (see the module docs).
fn uniform_heterogeneous(topics: &[(&str, u32)], members: &[Subscription], assignment: &mut Assignment) {
    let order = hash_order(members);
    let mut load: BTreeMap<&str, u64> = members.iter().map(|m| (m.member_id.as_str(), 0)).collect_map();
    for &(topic, n) in topics {
        let subs: Vec<&Subscription> = order.iter().copied().filter(|m| m.subscribes_to(topic)).collect();
        if subs.is_empty() {
            continue;
        }
        let share = u64::from(n).div_ceil(subs.len() as u64);
        let mut taken = vec![false; n as usize];
        for m in &subs {
            let mut mine: Vec<u32> = m.owned.iter().filter(|(t, p)| t == topic && *p < n).map(|(_, p)| *p).collect();
            mine.sort_unstable();
            mine.dedup();
            let keep: Vec<u32> = mine.into_iter().filter(|p| !taken[*p as usize]).take(share as usize).collect();
            for p in &keep {
                taken[*p as usize] = true;
            }
            *load.entry(m.member_id.as_str()).or_default() += keep.len() as u64;
            super::give(assignment, &m.member_id, topic, keep);
        }
        for p in 0..n {
            if taken[p as usize] {
                continue;
            }
            let Some(m) = subs.iter().min_by_key(|m| load.get(m.member_id.as_str()).copied().unwrap_or(0)) else { continue };
            *load.entry(m.member_id.as_str()).or_default() += 1;
            super::give(assignment, &m.member_id, topic, [p]);
        }
    }
    for ps in assignment.values_mut().flat_map(|m| m.values_mut()) {
        ps.sort_unstable();
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)] // Tests may unwrap: a panic is a failed test.
mod tests {
    use super::*;

    fn topics(list: &[(&str, u32)]) -> BTreeMap<String, u32> {
        list.iter().map(|(t, n)| (t.to_string(), *n)).collect()
    }

    fn owning(mut s: Subscription, owned: &[(&str, u32)]) -> Subscription {
        s.owned = owned.iter().map(|(t, p)| (t.to_string(), *p)).collect();
        s
    }

    fn parts(a: &Assignment, member: &str, topic: &str) -> Vec<u32> {
        a.get(member).and_then(|m| m.get(topic)).cloned().unwrap_or_default()
    }

    /// Server RangeAssignorTest.testFirstAssignmentTwoMembersTwoTopicsSameSubscriptions:
    /// topics of 3 partitions, two members -> A gets 0,1 of each, B gets 2 of each.
    #[test]
    fn range_two_members_two_topics() {
        let ms = [Subscription::new("A", &["t1", "t3"]), Subscription::new("B", &["t1", "t3"])];
        let a = assign_server(ServerAssignor::Range, &topics(&[("t1", 3), ("t3", 3)]), &ms);
        assert_eq!(parts(&a, "A", "t1"), vec![0, 1]);
        assert_eq!(parts(&a, "A", "t3"), vec![0, 1]);
        assert_eq!(parts(&a, "B", "t1"), vec![2]);
        assert_eq!(parts(&a, "B", "t3"), vec![2]);
    }

    /// Static members come first, by instance id, whatever their member ids; stateless:
    /// what members own does not matter.
    #[test]
    fn range_static_first_and_stateless() {
        let ms = [owning(Subscription::new("a", &["t"]), &[("t", 0), ("t", 1)]), Subscription::new("z", &["t"]).with_instance_id("i1")];
        let a = assign_server(ServerAssignor::Range, &topics(&[("t", 3)]), &ms);
        assert_eq!(parts(&a, "z", "t"), vec![0, 1]);
        assert_eq!(parts(&a, "a", "t"), vec![2]);
    }

    /// UniformHomogeneousAssignmentBuilderTest-style: a fresh group is dealt in HashMap
    /// order, the first P % M visited taking one extra.
    #[test]
    fn uniform_fresh_group_follows_hash_order() {
        // consumer1/2/3 fall in bins 12/11/10 of a 16-bin table: visited 3, 2, 1.
        let ms = [Subscription::new("consumer1", &["t"]), Subscription::new("consumer2", &["t"]), Subscription::new("consumer3", &["t"])];
        let a = assign_server(ServerAssignor::Uniform, &topics(&[("t", 7)]), &ms);
        assert_eq!(parts(&a, "consumer3", "t"), vec![0, 1, 2]);
        assert_eq!(parts(&a, "consumer2", "t"), vec![3, 4]);
        assert_eq!(parts(&a, "consumer1", "t"), vec![5, 6]);
    }

    /// Stickiness: a member joining takes partitions only from those above quota; the
    /// others keep everything they may.
    #[test]
    fn uniform_keeps_what_it_can_when_a_member_joins() {
        let ms = [
            owning(Subscription::new("consumer1", &["t"]), &[("t", 0), ("t", 1), ("t", 2)]),
            owning(Subscription::new("consumer2", &["t"]), &[("t", 3), ("t", 4), ("t", 5)]),
            Subscription::new("consumer3", &["t"]),
        ];
        let a = assign_server(ServerAssignor::Uniform, &topics(&[("t", 6)]), &ms);
        // Quotas are 2 each: consumer2 and consumer1 give up their last partition.
        assert_eq!(parts(&a, "consumer1", "t"), vec![0, 1]);
        assert_eq!(parts(&a, "consumer2", "t"), vec![3, 4]);
        assert_eq!(parts(&a, "consumer3", "t"), vec![2, 5]);
    }

    /// A member leaving: its partitions go to the others, nobody else moves.
    #[test]
    fn uniform_member_leaves_only_its_partitions_move() {
        let ms = [
            owning(Subscription::new("consumer1", &["t"]), &[("t", 0), ("t", 1)]),
            owning(Subscription::new("consumer2", &["t"]), &[("t", 2), ("t", 3)]),
        ];
        let a = assign_server(ServerAssignor::Uniform, &topics(&[("t", 6)]), &ms);
        let one = parts(&a, "consumer1", "t");
        let two = parts(&a, "consumer2", "t");
        assert!(one.starts_with(&[0, 1]) && two.starts_with(&[2, 3]), "{one:?} {two:?}");
        assert_eq!(one.len() + two.len(), 6);
        assert!(one.len().abs_diff(two.len()) <= 1);
    }

    /// Heterogeneous subscriptions: valid (only subscribed topics, every partition once).
    #[test]
    fn uniform_heterogeneous_is_valid_and_complete() {
        let ms = [Subscription::new("a", &["t1"]), Subscription::new("b", &["t1", "t2"]), Subscription::new("c", &["t2"])];
        let a = assign_server(ServerAssignor::Uniform, &topics(&[("t1", 3), ("t2", 4)]), &ms);
        assert!(parts(&a, "a", "t2").is_empty() && parts(&a, "c", "t1").is_empty());
        let mut t1: Vec<u32> = [parts(&a, "a", "t1"), parts(&a, "b", "t1")].concat();
        let mut t2: Vec<u32> = [parts(&a, "b", "t2"), parts(&a, "c", "t2")].concat();
        t1.sort_unstable();
        t2.sort_unstable();
        assert_eq!(t1, vec![0, 1, 2]);
        assert_eq!(t2, vec![0, 1, 2, 3]);
    }
}
