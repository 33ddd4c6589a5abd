//! `StickyAssignor` ("sticky") and `CooperativeStickyAssignor` ("cooperative-sticky"): balance first, then keep what members own.
//!
//! Both are `AbstractStickyAssignor` (Kafka 3.5+, without racks: the simulator's members
//! carry no `client.rack`, so `RackInfo` is empty and every rack-aware step is skipped).
//! The steps, each in the function that ports it:
//!
//! 1. `read_ownership` (`allSubscriptionsEqual`): visit the members in Java `HashMap`
//!    order, decide whether all subscriptions are equal, and read each member's owned
//!    partitions (`MemberData`: owned partitions + generation). A partition claimed twice
//!    goes to the higher generation; at equal generations nobody keeps it
//!    (`partitionsWithMultiplePreviousOwners`).
//! 2. Equal subscriptions: `constrained` (`ConstrainedAssignmentBuilder`). Otherwise
//!    `general::general` (`GeneralAssignmentBuilder`).
//! 3. Cooperative: [`StickyOutcome::cooperative_first_round`]
//!    (`CooperativeStickyAssignor.adjustAssignment`) withholds every partition in
//!    `partitionsTransferringOwnership`; the members revoke them and rejoin, and the next
//!    rebalance hands them out.
//!
//! ## Java iteration order
//! The group leader's `ConsumerCoordinator.onLeaderElected` puts the JoinGroup members into
//! a `new HashMap<String, Subscription>()` in the order of the JoinGroup response, and
//! `AbstractStickyAssignor` iterates that map (`subscriptions`). `allSubscriptionsEqual`
//! fills `consumerToOwnedPartitions`, a second `HashMap` with the same keys, in the order it
//! iterates `subscriptions`. While every bin is a list the two iterate alike; once a bin
//! has become a tree (9+ member ids with hashes equal in their low bits, in a table of 64+
//! bins, e.g. ids made of `Aa`/`BB` blocks, whose `String.hashCode`s are equal) they can
//! differ, since a tree bin's order depends on the order its keys arrived in. This module
//! takes `members` in JoinGroup-response order and computes both orders with
//! `java_hash::string_map_order`. `subscriptions` order decides which member keeps a
//! partition claimed twice (step 1) and which lower-generation owner is remembered in the
//! general path's `prevAssignment`; `consumerToOwnedPartitions` order decides which members
//! reach `maxQuota` from their own partitions in the constrained path
//! (`ConstrainedAssignmentBuilder.assignOwnedPartitions`, worked example S3). Everything else Kafka iterates is
//! sorted (`Collections.sort` on member ids and topics, `TreeSet`s with comparators) or
//! only looked up; the general path's one other order-dependent read, the first element
//! of a `HashSet<TopicPartition>` of partition movements, is reproduced in
//! `general` with `java_hash::JavaHashOrder`.
//!
//! ## Deviations
//! - An owned partition whose number is not below its topic's partition count is ignored,
//!   as if its topic were gone. Kafka only drops owned partitions of topics without
//!   metadata; an out-of-range one would corrupt its two-pointer `getUnassignedPartitions`
//!   or be handed out although it does not exist. No leader receives one (partition counts
//!   never shrink): `kafka-sandbox assign` refuses it and the simulator never sends one
//!   (`super::check_leader_input`).
//! - `maxGeneration` is computed from this call's members. In Kafka it is a field of the
//!   assignor instance that only grows across the leader's rebalances; the two agree
//!   unless every member of the newest generation left.
//! - See `general` for the general path's one deviation (where Kafka throws
//!   `NullPointerException`).
//!
//! ## Invalid results Kafka produces, reproduced
//! Two Kafka behaviours give a member partitions of a topic it does not subscribe to (the
//! member rejects such an assignment and rejoins, `ConsumerCoordinator.onJoinComplete`):
//! - members with an empty subscription visited (in HashMap order) before the first
//!   non-empty one do not make `allSubscriptionsEqual` false, so the constrained path
//!   deals them partitions too (`read_ownership`);
//! - the general path hands a partition back to its previous owner from an older
//!   generation even if that member dropped the topic (`general`).
//!
//! Both need unusual input: a member with no topics at all, or a member rejoining from an
//! older generation with changed topics.

use std::cmp::Ordering;
use std::collections::{BTreeMap, BTreeSet, VecDeque};

use super::java_hash::{string_map_order, JavaKey};
use super::{java_cmp, AssignError, AssignOutcome, Assignment, Subscription};
use crate::partitioner::java_string_hash;
use crate::sorted::CollectSorted;

mod general;
#[cfg(test)]
mod tests;

/// `AbstractStickyAssignor.DEFAULT_GENERATION`: the generation of a member that reports none.
pub const DEFAULT_GENERATION: i32 = -1;

/// A partition: `topic` indexes [`Topics`] (Java `String` order), so the derived order is
/// Kafka's `(topic, partition)` order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(crate) struct Tp {
    pub(crate) topic: u32,
    pub(crate) partition: u32,
}

/// `TopicPartition` is not `Comparable`: in a tree bin, two of equal hash would be ordered
/// by `tieBreakOrder` (see `java_hash`); the assignors' sets of one topic's partitions
/// never hold two.
impl JavaKey for Tp {
    fn compare_to(&self, _other: &Self) -> Option<Ordering> {
        None
    }
}

/// The assignable topics (subscribed, with metadata), in Java `String` order.
pub(crate) struct Topics<'a> {
    names: Vec<&'a str>,
    counts: Vec<u32>,
    /// Global index of each topic's partition 0.
    offsets: Vec<usize>,
    /// `String.hashCode` of each name.
    hashes: Vec<i32>,
    index: BTreeMap<&'a str, u32>,
    total: usize,
}

impl<'a> Topics<'a> {
    /// `topics` must be in Java `String` order with counts above 0 (as [`super::assign`] makes them).
    pub(crate) fn new(topics: &[(&'a str, u32)]) -> Self {
        let mut offsets = Vec::with_capacity(topics.len());
        let mut total = 0usize;
        for &(_, count) in topics {
            offsets.push(total);
            total += count as usize;
        }
        Self {
            names: topics.iter().map(|&(name, _)| name).collect(),
            counts: topics.iter().map(|&(_, count)| count).collect(),
            offsets,
            hashes: topics.iter().map(|&(name, _)| java_string_hash(name)).collect(),
            index: topics.iter().zip(0u32..).map(|(&(name, _), i)| (name, i)).collect_map(),
            total,
        }
    }

    pub(crate) fn len(&self) -> usize {
        self.names.len()
    }

    pub(crate) fn total(&self) -> usize {
        self.total
    }

    pub(crate) fn index(&self, name: &str) -> Option<u32> {
        self.index.get(name).copied()
    }

    pub(crate) fn name(&self, topic: u32) -> &'a str {
        self.names[topic as usize]
    }

    pub(crate) fn count(&self, topic: u32) -> u32 {
        self.counts[topic as usize]
    }

    /// The partition, if its topic is assignable and the number is in range.
    pub(crate) fn lookup(&self, name: &str, partition: u32) -> Option<Tp> {
        let topic = self.index(name)?;
        (partition < self.count(topic)).then_some(Tp { topic, partition })
    }

    /// A dense index over all partitions, in `(topic, partition)` order.
    pub(crate) fn global(&self, tp: Tp) -> usize {
        self.offsets[tp.topic as usize] + tp.partition as usize
    }

    /// Every partition of `topic`, ascending.
    pub(crate) fn partitions(&self, topic: u32) -> impl Iterator<Item = Tp> {
        (0..self.count(topic)).map(move |partition| Tp { topic, partition })
    }

    /// Every partition in `(topic, partition)` order.
    pub(crate) fn all(&self) -> impl Iterator<Item = Tp> + '_ {
        (0u32..).take(self.len()).flat_map(|topic| self.partitions(topic))
    }

    /// `TopicPartition.hashCode`: `31 * (31 + partition) + topic.hashCode()`.
    pub(crate) fn hash_code(&self, tp: Tp) -> i32 {
        31i32.wrapping_mul(31i32.wrapping_add(tp.partition as i32)).wrapping_add(self.hashes[tp.topic as usize])
    }

    /// `TopicPartition.toString`: "topic-3".
    pub(crate) fn display(&self, tp: Tp) -> String {
        format!("{}-{}", self.name(tp.topic), tp.partition)
    }
}

/// One member as `AbstractStickyAssignor` reads it.
pub(crate) struct Member<'a> {
    pub(crate) id: &'a str,
    /// The subscription without repeats, in first-appearance order (Kafka sends a set).
    /// Topics without metadata stay: `allSubscriptionsEqual` compares them too.
    pub(crate) topics: Vec<&'a str>,
    /// `MemberData.generation`.
    pub(crate) generation: Option<i32>,
    /// `MemberData.partitions`, as reported.
    pub(crate) owned: &'a [(String, u32)],
}

impl<'a> Member<'a> {
    fn new(sub: &'a Subscription) -> Self {
        let mut seen = BTreeSet::new();
        Self {
            id: &sub.member_id,
            topics: sub.topics.iter().map(String::as_str).filter(|t| seen.insert(*t)).collect(),
            generation: sub.generation,
            owned: &sub.owned,
        }
    }

    pub(crate) fn generation_or_default(&self) -> i32 {
        self.generation.unwrap_or(DEFAULT_GENERATION)
    }
}

/// What `allSubscriptionsEqual` fills in.
pub(crate) struct Ownership {
    /// Whether every member's topic set equals the first non-empty one seen.
    pub(crate) all_equal: bool,
    /// `consumerToOwnedPartitions`, by member index.
    pub(crate) owned: Vec<Vec<Tp>>,
    /// `partitionsWithMultiplePreviousOwners`.
    pub(crate) multiple_owners: BTreeSet<Tp>,
    /// `maxGeneration`.
    pub(crate) max_generation: i32,
}

/// `AbstractStickyAssignor.allSubscriptionsEqual`, visiting members in `visit` order
/// (Java `HashMap` order).
///
/// The topic set is taken from the first visited member whose set is not empty, and again
/// while it stays empty (`if (subscribedTopics.isEmpty()) subscribedTopics.addAll(...)`):
/// so members with no topics visited before the first non-empty one do not make the
/// subscriptions unequal, as in Kafka. Owned partitions of topics without metadata are
/// dropped. A partition already claimed goes to the higher generation; at an equal
/// generation it is removed from the earlier claimant, not given to the later one, and
/// recorded in `multiple_owners` (a member listing a partition twice voids its own claim,
/// as in Kafka).
pub(crate) fn read_ownership(topics: &Topics, members: &[Member], visit: &[usize], warnings: &mut Vec<String>) -> Ownership {
    let mut all_equal = true;
    let mut subscribed: BTreeSet<&str> = BTreeSet::new();
    let mut max_generation = DEFAULT_GENERATION;
    let mut owned: Vec<Vec<Tp>> = vec![Vec::new(); members.len()];
    let mut multiple_owners = BTreeSet::new();
    // allPreviousPartitionsToOwner
    let mut previous_owner: BTreeMap<Tp, usize> = BTreeMap::new();

    for &m in visit {
        let member = &members[m];
        if subscribed.is_empty() {
            subscribed.extend(member.topics.iter().copied());
        } else if all_equal && !(member.topics.len() == subscribed.len() && member.topics.iter().all(|t| subscribed.contains(t))) {
            all_equal = false;
        }
        let generation = member.generation_or_default();
        max_generation = max_generation.max(generation);

        for (topic, partition) in member.owned {
            let Some(tp) = topics.lookup(topic, *partition) else {
                continue;
            };
            let Some(other) = previous_owner.get(&tp).copied() else {
                owned[m].push(tp);
                previous_owner.insert(tp, m);
                continue;
            };
            let other_generation = members[other].generation_or_default();
            match generation.cmp(&other_generation) {
                Ordering::Equal => {
                    warnings.push(format!(
                        "Found multiple consumers {} and {} claiming the same TopicPartition {} in the same generation {}, this will be invalidated and removed from their previous assignment.",
                        member.id, members[other].id, topics.display(tp), generation
                    ));
                    multiple_owners.insert(tp);
                    remove_first(&mut owned[other], tp);
                    previous_owner.insert(tp, m);
                }
                Ordering::Greater => {
                    owned[m].push(tp);
                    remove_first(&mut owned[other], tp);
                    previous_owner.insert(tp, m);
                    warnings.push(different_generations(member, members[other].id, other_generation, topics.display(tp), generation));
                }
                Ordering::Less => {
                    warnings.push(different_generations(member, members[other].id, other_generation, topics.display(tp), other_generation));
                }
            }
        }
    }
    Ownership { all_equal, owned, multiple_owners, max_generation }
}

/// The warning Kafka logs when two generations claim one partition.
fn different_generations(member: &Member, other: &str, other_generation: i32, tp: String, winner: i32) -> String {
    format!(
        "Consumer {} in generation {} and consumer {} in generation {} claiming the same TopicPartition {} in different generations. The topic partition will be assigned to the member with the higher generation {}.",
        member.id,
        member.generation_or_default(),
        other,
        other_generation,
        tp,
        winner
    )
}

/// `List.remove(Object)`: removes the first occurrence, if any.
pub(crate) fn remove_first(list: &mut Vec<Tp>, tp: Tp) {
    if let Some(pos) = list.iter().position(|x| *x == tp) {
        list.remove(pos);
    }
}

/// An assignment by member index, and `partitionsTransferringOwnership` (partition ->
/// the member it is assigned to while another member still owns it).
pub(crate) struct Built {
    pub(crate) assignment: Vec<Vec<Tp>>,
    pub(crate) transferring: BTreeMap<Tp, usize>,
}

/// `ConstrainedAssignmentBuilder.build` without racks: for members with equal subscriptions.
///
/// `assignOwnedPartitions`: visiting members in `visit` (`consumerToOwnedPartitions`'
/// HashMap) order, each member's
/// owned partitions sorted by (partition, topic) and without `multiple_owners`:
/// - fewer than `minQuota`: keeps them all and is *unfilled*;
/// - at least `maxQuota` while fewer than `numPartitions % numMembers` members are over
///   `minQuota`: keeps the first `maxQuota` (reaching that count empties the
///   at-`minQuota` list);
/// - otherwise keeps the first `minQuota`, and joins the at-`minQuota` list while members
///   may still go over `minQuota`.
///
/// The rest of what it owned is revoked. Then `assignRoundRobin`: both lists sorted by
/// member id (`String.compareTo`); the unassigned partitions in (topic, partition) order
/// go round-robin to the unfilled members (one reaching `minQuota` moves to the back of
/// the at-`minQuota` list), and once none is left, to the at-`minQuota` members in FIFO
/// order. A new partition that was revoked from, or claimed twice by, previous owners is
/// recorded as transferring (`assignNewPartition`).
pub(crate) fn constrained(topics: &Topics, members: &[Member], visit: &[usize], ownership: &Ownership) -> Built {
    let n = members.len();
    let total = topics.total();
    let mut assignment: Vec<Vec<Tp>> = vec![Vec::new(); n];
    let mut transferring = BTreeMap::new();
    if n == 0 {
        return Built { assignment, transferring };
    }
    let min_quota = total / n;
    let max_quota = total.div_ceil(n);
    let expected_over_min = total % n;
    let mut current_over_min = 0usize;

    let mut assigned = vec![false; total];
    let mut revoked = vec![false; total];
    let mut under_min: Vec<usize> = Vec::new();
    let mut exactly_min: VecDeque<usize> = VecDeque::new();

    for &m in visit {
        let mut owned = ownership.owned[m].clone();
        crate::sorted::sort_by_key(&mut owned, |tp| (tp.partition, tp.topic));
        owned.retain(|tp| !ownership.multiple_owners.contains(tp));
        let keep = if owned.len() < min_quota {
            under_min.push(m);
            owned.len()
        } else if owned.len() >= max_quota && current_over_min < expected_over_min {
            current_over_min += 1;
            if current_over_min == expected_over_min {
                exactly_min.clear();
            }
            max_quota
        } else {
            if current_over_min < expected_over_min {
                exactly_min.push_back(m);
            }
            min_quota
        };
        for (i, tp) in owned.into_iter().enumerate() {
            if i < keep {
                assignment[m].push(tp);
                assigned[topics.global(tp)] = true;
            } else {
                revoked[topics.global(tp)] = true;
            }
        }
    }

    let by_id = |a: &usize, b: &usize| java_cmp(members[*a].id, members[*b].id);
    crate::sorted::sort_by(&mut under_min, by_id);
    crate::sorted::sort_by(exactly_min.make_contiguous(), by_id);

    // assignRoundRobin: `cursor` is the LinkedList iterator over `under_min`.
    let mut cursor = 0usize;
    for tp in topics.all().filter(|tp| !assigned[topics.global(*tp)]) {
        let consumer = if cursor < under_min.len() {
            cursor += 1;
            under_min[cursor - 1]
        } else if under_min.is_empty() {
            let Some(consumer) = exactly_min.pop_front() else {
                // Kafka throws IllegalStateException("No more unfilled consumers to be
                // assigned."); the quotas make this unreachable.
                debug_assert!(false, "no member left for {}", topics.display(tp));
                break;
            };
            consumer
        } else {
            cursor = 1;
            under_min[0]
        };
        assignment[consumer].push(tp);
        let g = topics.global(tp);
        if revoked[g] || ownership.multiple_owners.contains(&tp) {
            transferring.insert(tp, consumer);
        }
        let count = assignment[consumer].len();
        if count == min_quota {
            // unfilledConsumerIter.remove(): only a member from `under_min` can reach
            // minQuota here (one from `exactly_min` already had it).
            if cursor > 0 && under_min.get(cursor - 1) == Some(&consumer) {
                under_min.remove(cursor - 1);
                cursor -= 1;
            }
            exactly_min.push_back(consumer);
        }
    }
    // verifyUnfilledMembers: every member still unfilled has exactly minQuota.
    debug_assert!(under_min.iter().all(|&m| assignment[m].len() == min_quota));
    Built { assignment, transferring }
}

/// `CooperativeStickyAssignor.computePartitionsTransferringOwnership`, used after the
/// general path: a partition assigned to a member that did not own it, while some member
/// owned it and does not keep it. Ownership here is the raw `ownedPartitions` of each
/// subscription, generations ignored, as in Kafka.
pub(crate) fn transferring_from_owned(topics: &Topics, members: &[Member], assignment: &[Vec<Tp>]) -> BTreeMap<Tp, usize> {
    let mut added: BTreeMap<Tp, usize> = BTreeMap::new();
    let mut revoked: BTreeSet<Tp> = BTreeSet::new();
    for (m, member) in members.iter().enumerate() {
        // Owned partitions that are not assignable can be neither added nor moved.
        let owned: BTreeSet<Tp> = member.owned.iter().filter_map(|(t, p)| topics.lookup(t, *p)).collect_set();
        let assigned: BTreeSet<Tp> = assignment[m].iter().copied().collect_set();
        for tp in &assigned {
            if !owned.contains(tp) {
                added.insert(*tp, m);
            }
        }
        revoked.extend(owned.difference(&assigned).copied());
    }
    added.retain(|tp, _| revoked.contains(tp));
    added
}

/// What the sticky assignors computed for one rebalance.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StickyOutcome {
    /// `StickyAssignor`'s result: every member present, partitions ascending.
    pub assignment: Assignment,
    /// `partitionsTransferringOwnership`: (topic, partition) -> the member it goes to while
    /// another member still owns it. `CooperativeStickyAssignor` withholds these in the
    /// first rebalance. On the constrained path it is what `ConstrainedAssignmentBuilder`
    /// records; on the general path what `computePartitionsTransferringOwnership` finds.
    pub transferring: BTreeMap<(String, u32), String>,
    /// Whether Kafka took the constrained path (`allSubscriptionsEqual`).
    pub all_subscriptions_equal: bool,
    /// What Kafka would log: topics without metadata, partitions claimed twice.
    pub warnings: Vec<String>,
}

impl StickyOutcome {
    /// `CooperativeStickyAssignor.adjustAssignment`: the assignment without the
    /// transferring partitions. Their owners revoke them, rejoin, and the next rebalance
    /// assigns them.
    pub fn cooperative_first_round(&self) -> Assignment {
        let mut assignment = self.assignment.clone();
        for ((topic, partition), member) in &self.transferring {
            let Some(by_topic) = assignment.get_mut(member) else {
                continue;
            };
            if let Some(partitions) = by_topic.get_mut(topic) {
                partitions.retain(|p| p != partition);
                if partitions.is_empty() {
                    by_topic.remove(topic);
                }
            }
        }
        assignment
    }

    /// The outcome `assign` returns for `Strategy::Sticky`.
    pub fn into_sticky(self) -> AssignOutcome {
        AssignOutcome { assignment: self.assignment, warnings: self.warnings }
    }

    /// The outcome `assign` returns for `Strategy::CooperativeSticky`.
    pub fn into_cooperative(self) -> AssignOutcome {
        AssignOutcome { assignment: self.cooperative_first_round(), warnings: self.warnings }
    }
}

/// Runs the sticky algorithm (shared by both assignors) over `members`, given every
/// topic's partition count; `members` are in JoinGroup-response order, which decides
/// ties inside a Java `HashMap` bucket.
pub fn sticky_assign(partitions_per_topic: &BTreeMap<String, u32>, members: &[Subscription]) -> Result<StickyOutcome, AssignError> {
    let prepared = super::prepare(partitions_per_topic, members)?;
    let mut outcome = assign_prepared(&prepared.topics, members);
    let mut warnings = prepared.warnings;
    warnings.append(&mut outcome.warnings);
    outcome.warnings = warnings;
    Ok(outcome)
}

/// `CooperativeStickyAssignor.assign`: the first-round assignment, with every partition
/// that changes owner withheld (the simulation's group leader calls this).
pub fn cooperative_first_round(
    partitions_per_topic: &BTreeMap<String, u32>,
    members: &[Subscription],
) -> Result<AssignOutcome, AssignError> {
    sticky_assign(partitions_per_topic, members).map(StickyOutcome::into_cooperative)
}

/// The sticky algorithm over `topics` (assignable, in Java order) and unique members.
pub(crate) fn assign_prepared(topics: &[(&str, u32)], subscriptions: &[Subscription]) -> StickyOutcome {
    let topics = Topics::new(topics);
    let members: Vec<Member> = subscriptions.iter().map(Member::new).collect();
    let ids: Vec<&str> = members.iter().map(|m| m.id).collect();
    // `subscriptions`, filled in JoinGroup-response order.
    let visit = string_map_order(&ids);
    // `consumerToOwnedPartitions`, filled in `subscriptions` order.
    let in_visit_order: Vec<&str> = visit.iter().map(|&m| ids[m]).collect();
    let owned_visit: Vec<usize> = string_map_order(&in_visit_order).into_iter().map(|i| visit[i]).collect();
    let mut warnings = Vec::new();
    let ownership = read_ownership(&topics, &members, &visit, &mut warnings);
    let all_equal = ownership.all_equal;
    let built = if all_equal {
        constrained(&topics, &members, &owned_visit, &ownership)
    } else {
        let assignment = general::general(&topics, &members, &visit, ownership);
        let transferring = transferring_from_owned(&topics, &members, &assignment);
        Built { assignment, transferring }
    };

    let mut assignment: Assignment = members.iter().map(|m| (m.id.to_string(), BTreeMap::new())).collect_map();
    for (m, partitions) in built.assignment.iter().enumerate() {
        let Some(by_topic) = assignment.get_mut(members[m].id) else {
            continue;
        };
        for tp in partitions {
            by_topic.entry(topics.name(tp.topic).to_string()).or_insert_with(Vec::new).push(tp.partition);
        }
        for list in by_topic.values_mut() {
            list.sort_unstable();
        }
    }
    let transferring = built
        .transferring
        .iter()
        .map(|(tp, m)| ((topics.name(tp.topic).to_string(), tp.partition), members[*m].id.to_string()))
        .collect_map();
    StickyOutcome { assignment, transferring, all_subscriptions_equal: all_equal, warnings }
}
