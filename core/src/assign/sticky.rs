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

use super::java_hash::string_map_order;
use super::{AssignError, AssignOutcome, Assignment, AssignmentLists, Subscription, Topics, Tp, NO_OWNER};
use crate::sorted::CollectSorted;

mod general;
#[cfg(test)]
mod tests;

/// `AbstractStickyAssignor.DEFAULT_GENERATION`: the generation of a member that reports none.
pub const DEFAULT_GENERATION: i32 = -1;

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
        let mut topics: Vec<&str> = Vec::with_capacity(sub.topics.len());
        if sub.topics.len() <= 16 {
            for t in &sub.topics {
                if !topics.contains(&t.as_str()) {
                    topics.push(t);
                }
            }
        } else {
            let mut seen = BTreeSet::new();
            topics.extend(sub.topics.iter().map(String::as_str).filter(|t| seen.insert(*t)));
        }
        Self { id: &sub.member_id, topics, generation: sub.generation, owned: &sub.owned }
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
    // The member whose topics filled `subscribed`: a member with the same list (the usual
    // group) is equal without a set lookup.
    let mut reference: &[&str] = &[];
    let mut max_generation = DEFAULT_GENERATION;
    let mut owned: Vec<Vec<Tp>> = vec![Vec::new(); members.len()];
    let mut multiple_owners = BTreeSet::new();
    // allPreviousPartitionsToOwner, by global partition index (allocated at the first claim).
    let mut previous_owner: Vec<u32> = Vec::new();

    for &m in visit {
        let member = &members[m];
        if subscribed.is_empty() {
            subscribed.extend(member.topics.iter().copied());
            reference = &member.topics;
        } else if all_equal
            && member.topics != reference
            && !(member.topics.len() == subscribed.len() && member.topics.iter().all(|t| subscribed.contains(t)))
        {
            all_equal = false;
        }
        let generation = member.generation_or_default();
        max_generation = max_generation.max(generation);

        // Owned lists name one topic after another: look each name up once per run.
        let mut last: Option<(&str, Option<u32>)> = None;
        for (topic, partition) in member.owned {
            let index = match last {
                Some((name, index)) if name == topic => index,
                _ => {
                    let index = topics.index(topic);
                    last = Some((topic, index));
                    index
                }
            };
            let Some(tp) = index.filter(|&t| *partition < topics.count(t)).map(|topic| Tp { topic, partition: *partition }) else {
                continue;
            };
            if previous_owner.is_empty() {
                previous_owner = vec![NO_OWNER; topics.total()];
            }
            let g = topics.global(tp);
            let other = previous_owner[g];
            if other == NO_OWNER {
                owned[m].push(tp);
                previous_owner[g] = m as u32;
                continue;
            }
            let other = other as usize;
            let other_generation = members[other].generation_or_default();
            match generation.cmp(&other_generation) {
                Ordering::Equal => {
                    warnings.push(format!(
                        "Found multiple consumers {} and {} claiming the same TopicPartition {} in the same generation {}, this will be invalidated and removed from their previous assignment.",
                        member.id, members[other].id, topics.display(tp), generation
                    ));
                    multiple_owners.insert(tp);
                    remove_first(&mut owned[other], tp);
                    previous_owner[g] = m as u32;
                }
                Ordering::Greater => {
                    owned[m].push(tp);
                    remove_first(&mut owned[other], tp);
                    previous_owner[g] = m as u32;
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

/// An assignment as an owner per partition (member index by global partition index, or
/// [`NO_OWNER`]), and `partitionsTransferringOwnership` (partition -> the member it is
/// assigned to while another member still owns it).
pub(crate) struct Built {
    pub(crate) owners: Vec<u32>,
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
///
/// `by_id`: the member indices in `String.compareTo` order of their ids.
pub(crate) fn constrained(topics: &Topics, members: &[Member], visit: &[usize], by_id: &[u32], ownership: &Ownership) -> Built {
    let n = members.len();
    let total = topics.total();
    let mut owners = vec![NO_OWNER; total];
    let mut transferring = BTreeMap::new();
    if n == 0 {
        return Built { owners, transferring };
    }
    let min_quota = total / n;
    let max_quota = total.div_ceil(n);
    let expected_over_min = total % n;
    let mut current_over_min = 0usize;

    let mut count = vec![0usize; n];
    let mut revoked: Vec<bool> = Vec::new();
    let mut unfilled = vec![false; n];
    // The at-minQuota list while owned partitions are read: only who is in it matters, as
    // it is then sorted by member id.
    let mut at_min: Vec<usize> = Vec::new();
    let mut in_at_min = vec![false; n];
    let mut sorted_owned: Vec<Tp> = Vec::new();

    for &m in visit {
        let mut owned: &[Tp] = &ownership.owned[m];
        // Sorted by (partition, topic), unless it already is (as a list of one topic is).
        if !owned.windows(2).all(|w| (w[0].partition, w[0].topic) <= (w[1].partition, w[1].topic)) {
            sorted_owned.clear();
            sorted_owned.extend_from_slice(owned);
            crate::sorted::sort_by_key(&mut sorted_owned, |tp| (tp.partition, tp.topic));
            owned = &sorted_owned;
        }
        let claimed_twice = |tp: &Tp| !ownership.multiple_owners.is_empty() && ownership.multiple_owners.contains(tp);
        let len = owned.iter().filter(|tp| !claimed_twice(tp)).count();
        let keep = if len < min_quota {
            unfilled[m] = true;
            len
        } else if len >= max_quota && current_over_min < expected_over_min {
            current_over_min += 1;
            if current_over_min == expected_over_min {
                for m in at_min.drain(..) {
                    in_at_min[m] = false;
                }
            }
            max_quota
        } else {
            if current_over_min < expected_over_min {
                at_min.push(m);
                in_at_min[m] = true;
            }
            min_quota
        };
        for (i, tp) in owned.iter().filter(|tp| !claimed_twice(tp)).enumerate() {
            let g = topics.global(*tp);
            if i < keep {
                owners[g] = m as u32;
                count[m] += 1;
            } else {
                if revoked.is_empty() {
                    revoked = vec![false; total];
                }
                revoked[g] = true;
            }
        }
    }

    // Both lists sorted by member id: `by_id` order.
    let mut under_min: Vec<usize> = by_id.iter().map(|&m| m as usize).filter(|&m| unfilled[m]).collect();
    let mut exactly_min: VecDeque<usize> = by_id.iter().map(|&m| m as usize).filter(|&m| in_at_min[m]).collect();

    // assignRoundRobin over the LinkedList `under_min`: `read` is its iterator's position;
    // members that reach minQuota are removed by compacting behind it (`write`).
    let (mut read, mut write) = (0usize, 0usize);
    for (g, tp) in topics.all().enumerate() {
        if owners[g] != NO_OWNER {
            continue;
        }
        if read == under_min.len() && read > 0 {
            // The iterator wraps: what was not removed is the list now.
            under_min.truncate(write);
            read = 0;
            write = 0;
        }
        let from_unfilled = read < under_min.len();
        let consumer = if from_unfilled {
            read += 1;
            under_min[read - 1]
        } else {
            let Some(consumer) = exactly_min.pop_front() else {
                // Kafka throws IllegalStateException("No more unfilled consumers to be
                // assigned."); the quotas make this unreachable.
                debug_assert!(false, "no member left for {}", topics.display(tp));
                break;
            };
            consumer
        };
        owners[g] = consumer as u32;
        count[consumer] += 1;
        if revoked.get(g).copied().unwrap_or(false) || !ownership.multiple_owners.is_empty() && ownership.multiple_owners.contains(&tp) {
            transferring.insert(tp, consumer);
        }
        if count[consumer] == min_quota && from_unfilled {
            // unfilledConsumerIter.remove(): only a member from `under_min` can reach
            // minQuota here (one from `exactly_min` already had it).
            exactly_min.push_back(consumer);
        } else if from_unfilled {
            under_min[write] = consumer;
            write += 1;
        } else if count[consumer] == min_quota {
            exactly_min.push_back(consumer);
        }
    }
    // verifyUnfilledMembers: every member still unfilled has exactly minQuota.
    debug_assert!(under_min[..write].iter().chain(&under_min[read..]).all(|&m| count[m] == min_quota));
    Built { owners, transferring }
}

/// `CooperativeStickyAssignor.computePartitionsTransferringOwnership`, used after the
/// general path: a partition assigned to a member that did not own it, while some member
/// owned it and does not keep it. Ownership here is the raw `ownedPartitions` of each
/// subscription, generations ignored, as in Kafka.
pub(crate) fn transferring_from_owned(topics: &Topics, members: &[Member], owners: &[u32]) -> BTreeMap<Tp, usize> {
    let total = topics.total();
    // Whether the partition's new owner owned it, and whether some owner does not keep it.
    let (mut kept, mut revoked) = (vec![false; total], vec![false; total]);
    for (m, member) in members.iter().enumerate() {
        // Owned partitions that are not assignable can be neither added nor moved.
        for tp in member.owned.iter().filter_map(|(t, p)| topics.lookup(t, *p)) {
            let g = topics.global(tp);
            if owners[g] == m as u32 {
                kept[g] = true;
            } else {
                revoked[g] = true;
            }
        }
    }
    topics
        .all()
        .enumerate()
        .filter(|&(g, _)| owners[g] != NO_OWNER && !kept[g] && revoked[g])
        .map(|(g, tp)| (tp, owners[g] as usize))
        .collect_map()
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
    let topics = Topics::new(&prepared.topics);
    let mut warnings = prepared.warnings;
    let (built, all_equal) = run(&topics, members, &prepared.by_id, &mut warnings);
    let transferring = built
        .transferring
        .iter()
        .map(|(tp, m)| ((topics.name(tp.topic).to_string(), tp.partition), members[*m].member_id.clone()))
        .collect_map();
    let lists = AssignmentLists::from_owners(members, &topics, &built.owners, warnings);
    let AssignOutcome { assignment, warnings } = lists.into_outcome();
    Ok(StickyOutcome { assignment, transferring, all_subscriptions_equal: all_equal, warnings })
}

/// `CooperativeStickyAssignor.assign`: the first-round assignment, with every partition
/// that changes owner withheld.
pub fn cooperative_first_round(
    partitions_per_topic: &BTreeMap<String, u32>,
    members: &[Subscription],
) -> Result<AssignOutcome, AssignError> {
    sticky_assign(partitions_per_topic, members).map(StickyOutcome::into_cooperative)
}

/// `StickyAssignor`'s assignment, or (`cooperative`) `CooperativeStickyAssignor`'s first
/// round, over `topics` (assignable, in Java order) and unique members (`by_id`: their
/// indices in `String.compareTo` order of their ids); `warnings` come first.
pub(crate) fn assign_lists<'a>(
    topics: &Topics<'a>,
    members: &'a [Subscription],
    by_id: &[u32],
    cooperative: bool,
    mut warnings: Vec<String>,
) -> AssignmentLists<'a> {
    let (built, _) = run(topics, members, by_id, &mut warnings);
    let mut owners = built.owners;
    if cooperative {
        // adjustAssignment: what changes owner is withheld this round.
        for tp in built.transferring.keys() {
            owners[topics.global(*tp)] = NO_OWNER;
        }
    }
    AssignmentLists::from_owners(members, topics, &owners, warnings)
}

/// The sticky algorithm; returns the assignment and whether all subscriptions were equal.
fn run(topics: &Topics, subscriptions: &[Subscription], by_id: &[u32], warnings: &mut Vec<String>) -> (Built, bool) {
    let members: Vec<Member> = subscriptions.iter().map(Member::new).collect();
    let ids: Vec<&str> = members.iter().map(|m| m.id).collect();
    // `subscriptions`, filled in JoinGroup-response order.
    let visit = string_map_order(&ids);
    // `consumerToOwnedPartitions`, filled in `subscriptions` order.
    let in_visit_order: Vec<&str> = visit.iter().map(|&m| ids[m]).collect();
    let owned_visit: Vec<usize> = string_map_order(&in_visit_order).into_iter().map(|i| visit[i]).collect();
    let ownership = read_ownership(topics, &members, &visit, warnings);
    let all_equal = ownership.all_equal;
    let built = if all_equal {
        constrained(topics, &members, &owned_visit, by_id, &ownership)
    } else {
        let assignment = general::general(topics, &members, &visit, ownership);
        let mut owners = vec![NO_OWNER; topics.total()];
        for (m, list) in assignment.iter().enumerate() {
            for tp in list {
                owners[topics.global(*tp)] = m as u32;
            }
        }
        let transferring = transferring_from_owned(topics, &members, &owners);
        Built { owners, transferring }
    };
    (built, all_equal)
}
