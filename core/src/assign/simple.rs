//! The share groups' assignor (KIP-932): `org.apache.kafka.coordinator.group.assignor.SimpleAssignor`
//! of Kafka 4.1 and later, whose homogeneous case (every member subscribes to the same
//! topics, as a share group's members do in the sandbox) is `SimpleHomogeneousAssignmentBuilder`
//! (KAFKA-19362/19363: balanced first, then sticky). Each partition is shared by
//! `desiredSharing = ceil(M / P)` members; member `i` of the `memberIds` order wants
//! `ceil(x·(i+1)) − ceil(x·i)` partitions, `x = desiredSharing·P / M`. With no more members
//! than partitions that is one member per partition, as in a consumer group; with more,
//! several members share each partition.
//!
//! Ported from the builder whose `revokeOverfilledMembers` also removes the partition from
//! the member's new assignment and which checks `isPartitionAssignable` (apache/kafka
//! group-coordinator, 2025), and pinned by `tests/vectors/share-assignors.jsonl` (that
//! class's own answers, `vectors` below). Every Java collection whose iteration order decides something is
//! reproduced with `java_hash.rs` as `server.rs` does (the members' `HashMap` by member id,
//! the subscribed topics' `HashSet` of names, each member's stored record as a
//! `HashMap<Uuid, HashSet<Integer>>`, `finalAssignmentByPartition` presized to P keyed by
//! `TopicIdPartition` (`Objects.hash(topicId, partitionId)`), its member sets, and each
//! member's `HashSet<TopicIdPartition>`); maps keyed by member index `0..M` in tables of at
//! least M bins iterate in index order, so they are `BTreeMap`s here.
//!
//! Kafka 4.0's `SimpleAssignor` was hash-based (each member took partition
//! `abs(memberId.hashCode() % P)`, the rest round-robin, every old partition kept): the
//! sandbox refuses share groups on 4.0 rather than model that early-access release.
//!
//! Not modelled: a partition is assignable in Kafka only once the coordinator has
//! initialized its share-group state (`InitializeShareGroupState`); here every partition
//! of a subscribed topic is.

use std::collections::{BTreeMap, BTreeSet};

use super::java_hash::{JavaHashOrder, JavaKey};
use super::server::{outcome_of, JavaAssignment, ServerOutcome, Target, TopicMeta};
use super::Subscription;
use crate::uuid::Uuid;

/// A `TopicIdPartition` as a hash key.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct Tip(Uuid, u32);

impl Tip {
    /// `Objects.hash(topicId, partitionId)`.
    fn hash_code(self) -> i32 {
        31i32.wrapping_mul(31i32.wrapping_add(self.0.hash_code())).wrapping_add(self.1 as i32)
    }
}

/// `TopicIdPartition` is not `Comparable`: a tree bin orders by `tieBreakOrder`.
impl JavaKey for Tip {
    fn compare_to(&self, _other: &Self) -> Option<std::cmp::Ordering> {
        None
    }
}

/// `AssignorHelpers.newHashMap(n)` / `newHashSet(n)`: `new HashMap<>((int) (((n + 1) / 0.75f) + 1))`
/// (computed in `float`, as Java does).
fn helper_capacity(n: usize) -> i32 {
    ((n as f32 + 1.0) / 0.75f32 + 1.0) as i32
}

/// Computes a share group's target assignment: `members` in the coordinator's member order,
/// each with its subscription and, in `owned`, its current target assignment record (as the
/// previous call's [`ServerOutcome::records`] gave it). Every member gets an entry.
pub fn assign_share(topics: &BTreeMap<String, TopicMeta>, members: &[Subscription]) -> ServerOutcome {
    let mut outcome = ServerOutcome {
        assignment: members.iter().map(|m| (m.member_id.clone(), BTreeMap::new())).collect(),
        records: members.iter().map(|m| (m.member_id.clone(), Vec::new())).collect(),
    };
    if members.is_empty() {
        return outcome;
    }
    let input = super::server::Input::new(topics, members);
    let targets = Builder::new(&input).build();
    outcome_of(&input, &targets, &mut outcome);
    outcome
}

struct Builder<'a> {
    input: &'a super::server::Input<'a>,
    /// `memberIds`: member index -> index into `input.members`.
    member_ids: Vec<usize>,
    subscribed: Vec<Uuid>,
    target_partitions: Vec<Tip>,
    desired_sharing: usize,
    desired: Vec<usize>,
    /// Per member index: its old map, and its new one once it has one.
    old: Vec<JavaAssignment>,
    new: BTreeMap<usize, JavaAssignment>,
    by_partition_order: JavaHashOrder<Tip>,
    by_partition: BTreeMap<Tip, JavaHashOrder<i32>>,
    by_member: BTreeMap<usize, JavaHashOrder<Tip>>,
    unfilled: BTreeSet<usize>,
    overfilled: BTreeSet<usize>,
}

impl<'a> Builder<'a> {
    fn new(input: &'a super::server::Input<'a>) -> Self {
        let member_ids = input.order.clone();
        let m = member_ids.len();
        // The first member's subscription (`memberIds().iterator().next()`).
        let subscribed = member_ids.first().map(|&first| input.topic_ids(first)).unwrap_or_default();
        let mut target_partitions = Vec::new();
        for t in &subscribed {
            for p in 0..input.partitions(*t) {
                target_partitions.push(Tip(*t, p));
            }
        }
        let p = target_partitions.len();
        let desired_sharing = if p == 0 { 0 } else { m.div_ceil(p) };
        let precise = (desired_sharing * p) as f64 / m as f64;
        let desired = (0..m).map(|i| (precise * (i + 1) as f64).ceil() as usize - (precise * i as f64).ceil() as usize).collect();
        let old = member_ids.iter().map(|&i| JavaAssignment::from_record(&input.records[i])).collect();
        Self {
            input,
            member_ids,
            subscribed,
            target_partitions,
            desired_sharing,
            desired,
            old,
            new: BTreeMap::new(),
            by_partition_order: JavaHashOrder::with_capacity(helper_capacity(p)),
            by_partition: BTreeMap::new(),
            by_member: BTreeMap::new(),
            unfilled: BTreeSet::new(),
            overfilled: BTreeSet::new(),
        }
    }

    fn partition_members(&mut self, tp: Tip) -> &mut JavaHashOrder<i32> {
        if !self.by_partition.contains_key(&tp) {
            // `finalAssignmentByPartition.computeIfAbsent`: a new key heads its bin.
            self.by_partition_order.compute_if_absent(tp, tp.hash_code());
            self.by_partition.insert(tp, JavaHashOrder::new());
        }
        self.by_partition.entry(tp).or_default()
    }

    fn member_partitions(&mut self, member: usize) -> &mut JavaHashOrder<Tip> {
        self.by_member.entry(member).or_default()
    }

    /// `newGroupAssignment.get(m)`, or a deep copy of the old map put there.
    fn new_of(&mut self, member: usize) -> &mut JavaAssignment {
        if !self.new.contains_key(&member) {
            let copy = self.old[member].deep_copy();
            self.new.insert(member, copy);
        }
        self.new.entry(member).or_default()
    }

    fn build(mut self) -> Vec<Target> {
        if !self.subscribed.is_empty() {
            self.revoke_unassignable();
            self.revoke_overfilled();
            self.revoke_overshared();
            for tp in self.target_partitions.clone() {
                self.partition_members(tp);
            }
            self.assign_remaining();
        }
        // Back in `input.members` order.
        let mut targets: Vec<Option<Target>> = vec![None; self.member_ids.len()];
        for (index, &i) in self.member_ids.iter().enumerate() {
            let target = match self.new.remove(&index) {
                Some(map) => Target { map, copied: true },
                None => Target { map: self.old[index].clone(), copied: false },
            };
            targets[i] = Some(target);
        }
        targets.into_iter().map(|t| t.unwrap_or(Target { map: JavaAssignment::default(), copied: false })).collect()
    }

    fn revoke_unassignable(&mut self) {
        for member in 0..self.member_ids.len() {
            let input_index = self.member_ids[member];
            let desired = self.desired[member];
            let mut count = 0;
            let mut copy: Option<JavaAssignment> = None;
            let old = self.old[member].clone();
            for topic in old.topics.order() {
                if self.input.subscribes(input_index, topic) {
                    let partitions = old.sets.get(&topic).map(JavaHashOrder::order).unwrap_or_default();
                    for p in partitions {
                        let tp = Tip(topic, p);
                        count += 1;
                        self.partition_members(tp).insert(member as i32, member as i32);
                        self.member_partitions(member).insert(tp, tp.hash_code());
                        if count >= desired && copy.is_none() {
                            copy = Some(old.deep_copy());
                        }
                    }
                } else {
                    copy.get_or_insert_with(|| old.deep_copy()).remove_topic(topic);
                }
            }
            if let Some(c) = copy {
                self.new.insert(member, c);
            }
            if count < desired {
                self.unfilled.insert(member);
            } else if count > desired {
                self.overfilled.insert(member);
            }
        }
    }

    fn revoke_overfilled(&mut self) {
        for member in self.overfilled.clone() {
            let desired = self.desired[member];
            let order = self.by_member.get(&member).map(JavaHashOrder::order).unwrap_or_default();
            if order.len() <= desired {
                continue;
            }
            for tp in order {
                if let Some(set) = self.new.get_mut(&member).and_then(|m| m.sets.get_mut(&tp.0)) {
                    set.remove(&tp.1);
                }
                if let Some(set) = self.by_partition.get_mut(&tp) {
                    set.remove(&(member as i32));
                }
                let mine = self.member_partitions(member);
                mine.remove(&tp);
                if mine.len() == desired {
                    break;
                }
            }
        }
    }

    fn revoke_overshared(&mut self) {
        for tp in self.by_partition_order.order() {
            let members = self.by_partition.get(&tp).map(JavaHashOrder::order).unwrap_or_default();
            let mut count = members.len();
            if count <= self.desired_sharing {
                continue;
            }
            for m in members {
                let member = m as usize;
                let removed = self.new_of(member).sets.get_mut(&tp.0).is_some_and(|set| set.remove(&tp.1));
                if removed {
                    count -= 1;
                    if let Some(set) = self.by_partition.get_mut(&tp) {
                        set.remove(&m);
                    }
                    self.member_partitions(member).remove(&tp);
                    self.unfilled.insert(member);
                }
                if count <= self.desired_sharing {
                    break;
                }
            }
        }
    }

    fn assign_remaining(&mut self) {
        if self.unfilled.is_empty() {
            return;
        }
        // The iterator over `unfilledMembers` (ascending): the next index after `at`.
        let mut at: Option<usize> = None;
        let mut assigned_this_pass = false;
        for tp in self.by_partition_order.order() {
            let assigned = self.by_partition.get(&tp).map(JavaHashOrder::len).unwrap_or(0);
            if assigned < self.desired_sharing {
                let mut to_make = self.desired_sharing - assigned;
                while to_make > 0 {
                    let next = match at {
                        None => self.unfilled.iter().next().copied(),
                        Some(a) => self.unfilled.range(a + 1..).next().copied(),
                    };
                    let member = match next {
                        Some(m) => m,
                        None => {
                            if !assigned_this_pass {
                                break;
                            }
                            assigned_this_pass = false;
                            match self.unfilled.iter().next().copied() {
                                Some(m) => m,
                                None => break,
                            }
                        }
                    };
                    at = Some(member);
                    let has = self.by_partition.get(&tp).is_some_and(|s| s.contains(&(member as i32)));
                    if !has {
                        self.new_of(member).add(tp.0, tp.1, JavaHashOrder::new);
                        let mine = self.member_partitions(member);
                        mine.insert(tp, tp.hash_code());
                        let filled = mine.len() >= self.desired[member];
                        to_make -= 1;
                        assigned_this_pass = true;
                        if filled {
                            self.unfilled.remove(&member);
                        }
                    }
                }
            }
            if self.unfilled.is_empty() {
                break;
            }
        }
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    fn topics(partitions: u32) -> BTreeMap<String, TopicMeta> {
        let mut t = BTreeMap::new();
        t.insert("t".to_string(), TopicMeta { id: Uuid::derived(1, "t"), partitions });
        t
    }

    fn members(n: usize) -> Vec<Subscription> {
        (0..n).map(|i| Subscription::new(&format!("member-{i}"), &["t"])).collect()
    }

    fn sharing(out: &ServerOutcome, partitions: u32) -> Vec<usize> {
        (0..partitions).map(|p| out.assignment.values().filter(|by| by.get("t").is_some_and(|ps| ps.contains(&p))).count()).collect()
    }

    #[test]
    fn five_members_on_four_partitions_share_each_partition_by_two() {
        let out = assign_share(&topics(4), &members(5));
        // desiredSharing = ceil(5/4) = 2: eight places for five members, each with 1 or 2.
        assert_eq!(sharing(&out, 4), vec![2, 2, 2, 2]);
        let sizes: Vec<usize> = out.assignment.values().map(|by| by.get("t").map_or(0, |p| p.len())).collect();
        assert!(sizes.iter().all(|s| (1..=2).contains(s)), "{sizes:?}");
        assert_eq!(sizes.iter().sum::<usize>(), 8);
    }

    #[test]
    fn no_more_members_than_partitions_is_one_member_per_partition() {
        let out = assign_share(&topics(4), &members(3));
        assert_eq!(sharing(&out, 4), vec![1, 1, 1, 1]);
    }

    #[test]
    fn dozens_of_members_on_few_partitions_each_get_one() {
        let out = assign_share(&topics(3), &members(40));
        // ceil(40/3) = 14 per partition: 42 places, each member one partition or two.
        let shared = sharing(&out, 3);
        assert!(shared.iter().all(|s| *s >= 13 && *s <= 14), "{shared:?}");
        assert!(out.assignment.values().all(|by| by.get("t").is_some_and(|p| !p.is_empty())));
    }

    #[test]
    fn a_new_member_moves_little_the_assignment_is_sticky() {
        let t = topics(6);
        let mut ms = members(3);
        let first = assign_share(&t, &ms);
        for m in ms.iter_mut() {
            m.owned = first.records[&m.member_id].clone();
        }
        let again = assign_share(&t, &ms);
        assert_eq!(first.assignment, again.assignment, "the same members keep their partitions");
        ms.push(Subscription::new("member-3", &["t"]));
        let grown = assign_share(&t, &ms);
        let kept = ms[..3]
            .iter()
            .map(|m| {
                let before = &first.assignment[&m.member_id]["t"];
                let after = grown.assignment[&m.member_id].get("t").cloned().unwrap_or_default();
                before.iter().filter(|p| after.contains(p)).count()
            })
            .sum::<usize>();
        // Six partitions, four members wanting 2, 1, 2, 1 (by member index): only one
        // partition moves, to the newcomer.
        assert_eq!(kept, 5);
        assert_eq!(sharing(&grown, 6), vec![1; 6]);
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod vectors {
    use super::*;
    use serde_json::Value;

    /// `tests/vectors/share-assignors.jsonl`: rounds of share-group memberships (joins past
    /// the partitions, leaves, topics growing), each member's stored record fed back, and
    /// what Kafka's own `SimpleHomogeneousAssignmentBuilder` returned for them.
    #[test]
    fn the_simple_assignor_matches_kafkas_own_builder() {
        let text = include_str!("../../../tests/vectors/share-assignors.jsonl");
        let mut n = 0;
        for line in text.lines().filter(|l| !l.trim().is_empty()) {
            let case: Value = serde_json::from_str(line).unwrap();
            let label = case["label"].as_str().unwrap();
            let mut topics = BTreeMap::new();
            let mut names = Vec::new();
            for t in case["topics"].as_array().unwrap() {
                let name = t["name"].as_str().unwrap().to_string();
                let id = Uuid::parse(t["id"].as_str().unwrap()).unwrap();
                topics.insert(name.clone(), TopicMeta { id, partitions: t["partitions"].as_u64().unwrap() as u32 });
                names.push(name);
            }
            let members: Vec<Subscription> = case["members"]
                .as_array()
                .unwrap()
                .iter()
                .map(|m| Subscription {
                    member_id: m["member_id"].as_str().unwrap().to_string(),
                    group_instance_id: None,
                    topics: names.clone(),
                    owned: m["owned"]
                        .as_array()
                        .unwrap()
                        .iter()
                        .map(|tp| (tp[0].as_str().unwrap().to_string(), tp[1].as_u64().unwrap() as u32))
                        .collect(),
                    generation: None,
                })
                .collect();
            let out = assign_share(&topics, &members);
            for (member, by_topic) in case["expect"].as_object().unwrap() {
                let expect: BTreeMap<String, Vec<u32>> = by_topic
                    .as_object()
                    .unwrap()
                    .iter()
                    .map(|(t, ps)| (t.clone(), ps.as_array().unwrap().iter().map(|p| p.as_u64().unwrap() as u32).collect()))
                    .collect();
                assert_eq!(out.assignment[member], expect, "{label}: member {member}");
            }
            n += 1;
        }
        assert!(n >= 700, "{n} cases");
    }
}
