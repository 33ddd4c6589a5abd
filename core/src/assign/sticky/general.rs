//! `AbstractStickyAssignor.GeneralAssignmentBuilder`: the sticky algorithm for members whose subscriptions differ.
//!
//! 1. Keep every owned partition whose topic the member still subscribes to
//!    (`assignOwnedPartitions`; dropping one sets `revocationRequired`).
//! 2. Give each unassigned partition, in `sortedAllPartitions` order (topics by number of
//!    subscribers, then name; partitions ascending), to the first member of
//!    `sortedCurrentSubscriptions` (fewest partitions, then member id) that subscribes to
//!    its topic (`maybeAssignPartition`).
//! 3. Leave out topics with one subscriber and members that cannot change
//!    (`canConsumerParticipateInReassignment`), then `performReassignments` until
//!    `isBalanced`: a partition goes back to its previous owner of a lower generation
//!    (`prevAssignment`) if that owner has 2+ fewer partitions than its current one, or
//!    else to the first member of `sortedCurrentSubscriptions` subscribed to its topic,
//!    if some subscriber has 2+ fewer. `PartitionMovements.getTheActualPartitionToBeMoved`
//!    may substitute a partition of the same topic that moved the other way earlier.
//! 4. If this was not the first assignment and the balance score (sum of count
//!    differences over all pairs) did not improve, revert to the state after step 2.
//!
//! The sorted sets are `TreeSet`s with comparators; [`BTreeSet`] keys `(count, id rank)`
//! reproduce them. The one Java-hash-order read is `getTheActualPartitionToBeMoved`'s
//! `iterator().next()` over a `HashSet<TopicPartition>`, reproduced with
//! [`JavaHashOrder`] and `TopicPartition.hashCode`, tree bins included (a set holds one
//! topic's partitions that moved between one pair of members; with hundreds of them, nine
//! can share a bin of a 64-bin table).
//!
//! Reproduced as Kafka does it, although the result is not valid: the previous-owner rule
//! hands a partition back to a member of an older generation that no longer subscribes to
//! its topic (`performReassignments` never checks the subscription). The member then gets
//! a partition it did not ask for; a real consumer rejects such an assignment
//! (`ConsumerCoordinator.onJoinComplete`: "received assignment ... does not match the
//! current subscription") and rejoins. [`super::StickyOutcome`] users see it as it is.
//!
//! Deviations:
//! - Kafka throws `NullPointerException` (and the rebalance fails) when that previous owner
//!   was set aside as fixed (`canConsumerParticipateInReassignment` false: it subscribes
//!   only to topics with one subscriber, all of whose partitions it holds). The
//!   previous-owner rule is skipped for it instead.
//! - `performReassignments` stops after [`MAX_MOVES_PER_PARTITION_AND_MEMBER`] times
//!   (partitions + members) moves; Kafka's loop has no bound (never reached in practice).
//! - `isBalanced` is computed per topic (the largest owner count among a topic's
//!   partitions) rather than per partition: the same answer, in O(partitions) instead of
//!   O(members x partitions), and cached until the next move.
//!
//! Apart from the `NullPointerException` case, this was checked against Kafka's own
//! `AbstractStickyAssignor` (run on the JVM) over tens of thousands of random groups:
//! random subscriptions (including empty ones and topics without metadata), random and
//! conflicting ownership, mixed and missing generations, up to 180 members; the
//! assignments (and the cooperative first rounds) were identical.

use std::collections::{BTreeMap, BTreeSet};

use super::super::java_cmp;
use super::super::java_hash::JavaHashOrder;
use super::{remove_first, Member, Ownership, Topics, Tp, DEFAULT_GENERATION};

/// Bounds `performReassignments` (see the module notes).
const MAX_MOVES_PER_PARTITION_AND_MEMBER: u64 = 64;

/// `PartitionMovements`: where each moved partition came from and went, per topic and
/// (source, destination) pair.
#[derive(Default)]
struct Movements {
    /// `partitionMovements`: partition -> (src, dst).
    moved: BTreeMap<Tp, (usize, usize)>,
    /// `partitionMovementsByTopic`: topic -> (src, dst) -> `HashSet<TopicPartition>`.
    by_topic: BTreeMap<u32, BTreeMap<(usize, usize), JavaHashOrder<Tp>>>,
}

impl Movements {
    /// `removeMovementRecordOfPartition`.
    fn remove_record(&mut self, tp: Tp) -> Option<(usize, usize)> {
        let pair = self.moved.remove(&tp)?;
        if let Some(for_topic) = self.by_topic.get_mut(&tp.topic) {
            if let Some(set) = for_topic.get_mut(&pair) {
                set.remove(&tp);
                if set.is_empty() {
                    for_topic.remove(&pair);
                }
            }
            if for_topic.is_empty() {
                self.by_topic.remove(&tp.topic);
            }
        }
        Some(pair)
    }

    /// `addPartitionMovementRecord`.
    fn add_record(&mut self, tp: Tp, pair: (usize, usize), hash_code: i32) {
        self.moved.insert(tp, pair);
        self.by_topic.entry(tp.topic).or_default().entry(pair).or_default().insert(tp, hash_code);
    }

    /// `movePartition`: a partition moving back to where it came from leaves no record.
    fn move_partition(&mut self, tp: Tp, old: usize, new: usize, hash_code: i32) {
        if self.moved.contains_key(&tp) {
            if let Some((src, _dst)) = self.remove_record(tp) {
                if src != new {
                    self.add_record(tp, (src, new), hash_code);
                }
            }
        } else {
            self.add_record(tp, (old, new), hash_code);
        }
    }

    /// `getTheActualPartitionToBeMoved`: if a partition of the same topic moved from
    /// `new` to the partition's original owner, move that one back instead.
    fn actual_partition(&self, tp: Tp, old: usize, new: usize) -> Tp {
        let Some(for_topic) = self.by_topic.get(&tp.topic) else {
            return tp;
        };
        let old = self.moved.get(&tp).map_or(old, |&(src, _)| src);
        for_topic.get(&(new, old)).and_then(|set| set.first().copied()).unwrap_or(tp)
    }
}

struct Builder<'t, 'a> {
    topics: &'t Topics<'a>,
    /// Member -> its position among the member ids in `String.compareTo` order.
    rank: Vec<usize>,
    /// Rank -> member.
    by_rank: Vec<usize>,
    /// `consumer2AllPotentialTopics`, as sorted topic indices.
    member_topics: Vec<Vec<u32>>,
    /// `topic2AllPotentialConsumers`.
    topic_members: Vec<Vec<usize>>,
    /// `getMaxAssignmentSize` of each member.
    max_size: Vec<usize>,
    /// `currentAssignment`; `None` while a fixed member is set aside.
    current: Vec<Option<Vec<Tp>>>,
    /// `currentPartitionConsumer`, by global partition index.
    owner: Vec<Option<usize>>,
    /// `sortedCurrentSubscriptions`: (partition count, rank).
    sorted: BTreeSet<(usize, usize)>,
    revocation_required: bool,
    movements: Movements,
    /// Bumped on every move; keys `balanced`.
    version: u64,
    balanced: Option<(u64, bool)>,
    moves_left: u64,
}

/// `GeneralAssignmentBuilder.build`; `visit` is the members' Java `HashMap` order.
/// Returns the assignment by member index.
pub(crate) fn general(topics: &Topics, members: &[Member], visit: &[usize], ownership: Ownership) -> Vec<Vec<Tp>> {
    let n = members.len();
    let mut by_rank: Vec<usize> = (0..n).collect();
    crate::sorted::sort_by(&mut by_rank, |a, b| java_cmp(members[*a].id, members[*b].id));
    let mut rank = vec![0; n];
    for (r, &m) in by_rank.iter().enumerate() {
        rank[m] = r;
    }

    let mut member_topics: Vec<Vec<u32>> = vec![Vec::new(); n];
    let mut topic_members: Vec<Vec<usize>> = vec![Vec::new(); topics.len()];
    for &m in visit {
        let mut subscribed: Vec<u32> = members[m].topics.iter().filter_map(|t| topics.index(t)).collect();
        subscribed.sort_unstable();
        subscribed.dedup();
        for &t in &subscribed {
            topic_members[t as usize].push(m);
        }
        member_topics[m] = subscribed;
    }
    let max_size: Vec<usize> = member_topics.iter().map(|ts| ts.iter().map(|&t| topics.count(t) as usize).sum()).collect();

    let mut owner = vec![None; topics.total()];
    for (m, list) in ownership.owned.iter().enumerate() {
        for tp in list {
            owner[topics.global(*tp)] = Some(m);
        }
    }
    let total_moves = (topics.total() + n) as u64;

    let mut builder = Builder {
        topics,
        rank,
        by_rank,
        member_topics,
        topic_members,
        max_size,
        current: ownership.owned.into_iter().map(Some).collect(),
        owner,
        sorted: BTreeSet::new(),
        revocation_required: false,
        movements: Movements::default(),
        version: 0,
        balanced: None,
        moves_left: MAX_MOVES_PER_PARTITION_AND_MEMBER.saturating_mul(total_moves),
    };
    let prev = previous_assignment(topics, members, visit, ownership.max_generation);
    builder.build(members, &prev);
    builder.current.into_iter().map(Option::unwrap_or_default).collect()
}

/// `prepopulateCurrentAssignments`: each partition owned by a member of an older
/// generation than `max_generation` (a member without one counts as
/// `DEFAULT_GENERATION` once some member has one) -> (that member, its generation),
/// keeping the newest; between equal generations the first in `visit` order wins.
fn previous_assignment(topics: &Topics, members: &[Member], visit: &[usize], max_generation: i32) -> BTreeMap<Tp, (usize, i32)> {
    let mut prev: BTreeMap<Tp, (usize, i32)> = BTreeMap::new();
    for &m in visit {
        let generation = match members[m].generation {
            Some(g) if g < max_generation => g,
            None if max_generation > DEFAULT_GENERATION => DEFAULT_GENERATION,
            _ => continue,
        };
        // Partitions that are not assignable are never looked up.
        for tp in members[m].owned.iter().filter_map(|(t, p)| topics.lookup(t, *p)) {
            match prev.get(&tp) {
                Some(&(_, g)) if generation <= g => {}
                _ => {
                    prev.insert(tp, (m, generation));
                }
            }
        }
    }
    prev
}

impl Builder<'_, '_> {
    fn size(&self, m: usize) -> Option<usize> {
        self.current[m].as_ref().map(Vec::len)
    }

    fn key(&self, m: usize) -> Option<(usize, usize)> {
        self.size(m).map(|size| (size, self.rank[m]))
    }

    fn subscribes(&self, m: usize, topic: u32) -> bool {
        self.member_topics[m].binary_search(&topic).is_ok()
    }

    fn build(&mut self, members: &[Member], prev: &BTreeMap<Tp, (usize, i32)>) {
        // assignOwnedPartitions: drop partitions of topics the member left.
        let mut assigned = vec![false; self.topics.total()];
        for m in 0..members.len() {
            let Some(mut list) = self.current[m].take() else {
                continue;
            };
            list.retain(|tp| {
                let keep = self.member_topics[m].binary_search(&tp.topic).is_ok();
                if keep {
                    assigned[self.topics.global(*tp)] = true;
                } else {
                    self.revocation_required = true;
                }
                keep
            });
            self.current[m] = Some(list);
        }

        // sortedAllPartitions: topics by number of potential consumers, then name.
        let mut sorted_topics: Vec<u32> = (0u32..).take(self.topics.len()).collect();
        crate::sorted::sort_by_key(&mut sorted_topics, |&t| (self.topic_members[t as usize].len(), t));
        let mut sorted_all: Vec<Tp> = sorted_topics.iter().flat_map(|&t| self.topics.partitions(t)).collect();
        let mut unassigned: Vec<Tp> = sorted_all.iter().copied().filter(|tp| !assigned[self.topics.global(*tp)]).collect();

        for m in 0..members.len() {
            if let Some(key) = self.key(m) {
                self.sorted.insert(key);
            }
        }
        self.balance(prev, &mut sorted_all, &mut unassigned);
    }

    /// `balance`.
    fn balance(&mut self, prev: &BTreeMap<Tp, (usize, i32)>, sorted_all: &mut Vec<Tp>, unassigned: &mut Vec<Tp>) {
        let initializing = self.sorted.last().is_none_or(|&(size, _)| size == 0);
        self.maybe_assign(unassigned);

        // Only topics with two or more potential consumers can be reassigned.
        let fixed_topic = |t: u32, b: &Self| b.topic_members[t as usize].len() < 2;
        sorted_all.retain(|tp| !fixed_topic(tp.topic, self));
        unassigned.retain(|tp| !fixed_topic(tp.topic, self));

        let mut fixed: Vec<(usize, Vec<Tp>)> = Vec::new();
        for m in 0..self.current.len() {
            if !self.can_participate(m) {
                if let Some(key) = self.key(m) {
                    self.sorted.remove(&key);
                }
                if let Some(list) = self.current[m].take() {
                    fixed.push((m, list));
                }
            }
        }

        let pre_balance = self.current.clone();
        let pre_balance_owner = self.owner.clone();
        if !self.revocation_required {
            self.perform_reassignments(unassigned, prev);
        }
        let reassigned = self.perform_reassignments(sorted_all, prev);
        if !initializing && reassigned && balance_score(&self.current) >= balance_score(&pre_balance) {
            self.current = pre_balance;
            self.owner = pre_balance_owner;
            self.version += 1;
        }
        for (m, list) in fixed {
            self.current[m] = Some(list);
        }
    }

    /// `maybeAssign` without racks: each partition to the first member in
    /// `sortedCurrentSubscriptions` order that subscribes to its topic.
    fn maybe_assign(&mut self, partitions: &[Tp]) {
        for &tp in partitions {
            if self.topic_members[tp.topic as usize].is_empty() {
                continue;
            }
            let chosen = self.sorted.iter().copied().find(|&(_, r)| self.subscribes(self.by_rank[r], tp.topic));
            let Some((size, r)) = chosen else {
                continue;
            };
            let m = self.by_rank[r];
            self.sorted.remove(&(size, r));
            if let Some(list) = self.current[m].as_mut() {
                list.push(tp);
            }
            self.owner[self.topics.global(tp)] = Some(m);
            if let Some(key) = self.key(m) {
                self.sorted.insert(key);
            }
        }
    }

    /// `canConsumerParticipateInReassignment`.
    fn can_participate(&self, m: usize) -> bool {
        let Some(list) = self.current[m].as_ref() else {
            return false;
        };
        list.len() < self.max_size[m] || list.iter().any(|tp| self.topic_members[tp.topic as usize].len() >= 2)
    }

    /// `isBalanced`, cached until the next move.
    fn is_balanced(&mut self) -> bool {
        if let Some((version, balanced)) = self.balanced {
            if version == self.version {
                return balanced;
            }
        }
        let balanced = self.compute_balanced();
        self.balanced = Some((self.version, balanced));
        balanced
    }

    /// Balanced if counts differ by at most one, or no member short of all its potential
    /// partitions could take a partition from a member with 2+ more.
    fn compute_balanced(&self) -> bool {
        let (Some(&(min, _)), Some(&(max, _))) = (self.sorted.first(), self.sorted.last()) else {
            return true;
        };
        if min + 1 >= max {
            return true;
        }
        // The largest count among the owners of each topic's partitions.
        let mut largest_owner = vec![0usize; self.topics.len()];
        for list in self.current.iter().flatten() {
            for tp in list {
                let slot = &mut largest_owner[tp.topic as usize];
                *slot = (*slot).max(list.len());
            }
        }
        self.sorted.iter().all(|&(size, r)| {
            let m = self.by_rank[r];
            size == self.max_size[m] || self.member_topics[m].iter().all(|&t| largest_owner[t as usize] <= size + 1)
        })
    }

    /// `performReassignments`; returns whether anything moved.
    fn perform_reassignments(&mut self, partitions: &[Tp], prev: &BTreeMap<Tp, (usize, i32)>) -> bool {
        let mut reassigned = false;
        loop {
            let mut modified = false;
            for &tp in partitions {
                if self.is_balanced() {
                    break;
                }
                if self.moves_left == 0 {
                    return reassigned;
                }
                let Some(consumer) = self.owner[self.topics.global(tp)] else {
                    continue;
                };
                let Some(consumer_size) = self.size(consumer) else {
                    continue;
                };
                if let Some(&(prev_owner, _)) = prev.get(&tp) {
                    // As in Kafka, the previous owner need not subscribe to the topic any
                    // more (see the module notes). A fixed previous owner has no size here:
                    // Kafka throws NullPointerException; the rule is skipped instead.
                    if self.size(prev_owner).is_some_and(|s| consumer_size > s + 1) {
                        self.reassign(tp, prev_owner);
                        reassigned = true;
                        modified = true;
                        continue;
                    }
                }
                let smallest = self.topic_members[tp.topic as usize].iter().filter_map(|&o| self.size(o)).min();
                if smallest.is_some_and(|s| consumer_size > s + 1) {
                    // reassignPartition(partition): to the first subscriber in sorted order.
                    let new = self.sorted.iter().map(|&(_, r)| self.by_rank[r]).find(|&m| self.subscribes(m, tp.topic));
                    if let Some(new) = new {
                        self.reassign(tp, new);
                        reassigned = true;
                        modified = true;
                    }
                }
            }
            if !modified {
                return reassigned;
            }
        }
    }

    /// `reassignPartition(partition, newConsumer)`.
    fn reassign(&mut self, tp: Tp, new: usize) {
        let Some(consumer) = self.owner[self.topics.global(tp)] else {
            return;
        };
        let moved = self.movements.actual_partition(tp, consumer, new);
        self.process_movement(moved, new);
    }

    /// `processPartitionMovement`.
    fn process_movement(&mut self, tp: Tp, new: usize) {
        let g = self.topics.global(tp);
        let Some(old) = self.owner[g] else {
            return;
        };
        for m in [old, new] {
            if let Some(key) = self.key(m) {
                self.sorted.remove(&key);
            }
        }
        self.movements.move_partition(tp, old, new, self.topics.hash_code(tp));
        if let Some(list) = self.current[old].as_mut() {
            remove_first(list, tp);
        }
        if let Some(list) = self.current[new].as_mut() {
            list.push(tp);
        }
        self.owner[g] = Some(new);
        for m in [new, old] {
            if let Some(key) = self.key(m) {
                self.sorted.insert(key);
            }
        }
        self.version += 1;
        self.moves_left = self.moves_left.saturating_sub(1);
    }
}

/// `getBalanceScore`: the sum of |count difference| over all pairs of participating members.
fn balance_score(assignment: &[Option<Vec<Tp>>]) -> u64 {
    let mut sizes: Vec<u64> = assignment.iter().flatten().map(|l| l.len() as u64).collect();
    sizes.sort_unstable();
    // For ascending sizes, element i is larger than the i before it.
    let mut score = 0u64;
    let mut prefix = 0u64;
    for (i, s) in (0u64..).zip(&sizes) {
        score += s * i - prefix;
        prefix += s;
    }
    score
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn balance_score_sums_pair_differences() {
        let l = |n: u32| Some((0..n).map(|p| Tp { topic: 0, partition: p }).collect::<Vec<_>>());
        // |1-3| + |1-6| + |3-6| = 2 + 5 + 3
        assert_eq!(balance_score(&[l(3), l(1), None, l(6)]), 10);
        assert_eq!(balance_score(&[l(2), l(2)]), 0);
        assert_eq!(balance_score(&[]), 0);
    }

    #[test]
    fn movements_record_and_undo() {
        let tp = |p| Tp { topic: 0, partition: p };
        let mut mv = Movements::default();
        mv.move_partition(tp(0), 1, 2, 0);
        mv.move_partition(tp(1), 1, 2, 1);
        // Moving p0 from 2 to 1 would undo an earlier move: the first partition that moved
        // 1 -> 2 (in HashSet order) is chosen.
        assert_eq!(mv.actual_partition(tp(3), 2, 1), tp(0));
        // Moving p0 from 2 to 3 continues its move from 1: no reverse pair (3, 1).
        assert_eq!(mv.actual_partition(tp(0), 2, 3), tp(0));
        mv.move_partition(tp(0), 2, 3, 0);
        assert_eq!(mv.moved.get(&tp(0)), Some(&(1, 3)));
        // Back to its origin: the record disappears.
        mv.move_partition(tp(0), 3, 1, 0);
        assert_eq!(mv.moved.get(&tp(0)), None);
        mv.move_partition(tp(1), 2, 1, 1);
        assert!(mv.moved.is_empty());
        assert!(mv.by_topic.is_empty());
    }
}
