//! Broker-side assignors of the KIP-848 consumer protocol (`group.protocol=consumer`):
//! the group coordinator computes each member's target assignment itself, with one of
//! `group.consumer.assignors` — `uniform` (the default, first in the list) or `range` —
//! or the one a member names in `group.remote.assignor`.
//!
//! What feeds the assignor is built as `TargetAssignmentBuilder.build` builds it, and every
//! Java collection whose iteration order decides something is reproduced (`java_hash.rs`):
//! - the members: `memberSpecs`, a `HashMap<String, …>` filled in the group's member order
//!   (join order here; Kafka's `TimelineHashMap` order only breaks ties inside a hash bin);
//! - a member's subscription: `ConsumerGroupMember.subscribedTopicNames`, a
//!   `new HashSet<>(list)` of names, seen as topic ids through `TopicIds` (names without a
//!   topic are skipped, but count in its `size()`);
//! - a member's current target assignment: `Assignment.fromRecord`, a `HashMap<Uuid, …>`
//!   filled in the stored record's topic order, each topic's partitions a
//!   `new HashSet<>(list)` of the record's partition list ([`Subscription::owned`] is that
//!   record, in order). The new record is written from the result's own maps
//!   (`GroupCoordinatorRecordHelpers.newConsumerGroupTargetAssignmentRecord`), and kept
//!   unchanged when the assignment did not change ([`ServerOutcome::records`]).
//!
//! - [`ServerAssignor::Range`] is `org.apache.kafka.coordinator.group.assignor.RangeAssignor`
//!   as rewritten in 3.9 (KAFKA-16944): stateless, members ordered static-first by
//!   instance id then by member id, each taking a contiguous range per topic, the first
//!   ones one extra. That is the client [`range`](super::range) rule, reused.
//! - [`ServerAssignor::Uniform`] is `UniformAssignor`: `UniformHomogeneousAssignmentBuilder`
//!   when every member subscribes to the same topic names (`ModernGroup.subscriptionType`),
//!   else `UniformHeterogeneousAssignmentBuilder` as Kafka 4.0 rewrote it (KAFKA-17747 and
//!   follow-ups; ported from apache/kafka commit fc28b22b138bc63359bee8387bc3064edd4b34af,
//!   whose homogeneous builder is the 2024-10 one unchanged).
//!
//! Not reproduced: a `HashSet` bin of 9+ entries in a table of 64+ bins becomes a tree,
//! whose iteration order is not arrival order (`java_hash.rs`); JDK 19+ presizes
//! `new HashSet<>(collection)` differently (`HashMap.newHashMap(max(n, 12))`), which changes
//! the table for 12, 24, 48, … owned partitions — the sandbox follows JDK 17, Kafka 4.x's
//! minimum.

use crate::sorted::CollectSorted;
use std::collections::{BTreeMap, BTreeSet};

use super::java_hash::{presize, JavaHashOrder};
use super::{java_hash, Assignment, Subscription};

mod lists;
pub use crate::config::ServerAssignor;
use crate::partitioner::java_string_hash;
pub use crate::uuid::Uuid;
pub use lists::ServerLists;

/// A topic of the cluster's metadata as the coordinator sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TopicMeta {
    /// Its topic id (KIP-516).
    pub id: Uuid,
    /// Its partition count.
    pub partitions: u32,
}

/// What the coordinator gets back: the target assignment, and the records it stores.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ServerOutcome {
    /// Member id -> topic -> partitions (ascending). Every member is present.
    pub assignment: Assignment,
    /// Member id -> the stored target assignment record: topics and partitions in the
    /// order Kafka writes them (the iteration order of the result's maps), or the old
    /// record when nothing changed. Feed it back as [`Subscription::owned`].
    pub records: BTreeMap<String, Vec<(String, u32)>>,
}

/// A `Map<Uuid, Set<Integer>>` of Kafka's: which keys and elements, in which iteration order.
#[derive(Clone, Debug, Default)]
pub(super) struct JavaAssignment {
    pub(super) topics: JavaHashOrder<Uuid>,
    pub(super) sets: BTreeMap<Uuid, JavaHashOrder<u32>>,
}

impl JavaAssignment {
    /// `Assignment.fromRecord`: `Collectors.toMap` into a `HashMap`, each topic's partitions
    /// a `new HashSet<>(list)`.
    pub(super) fn from_record(record: &[(Uuid, Vec<u32>)]) -> Self {
        let mut map = Self::default();
        for (topic, partitions) in record {
            if map.topics.insert(*topic, topic.hash_code()) {
                let mut set = JavaHashOrder::for_collection(partitions.len());
                for p in partitions {
                    set.insert(*p, *p as i32);
                }
                map.sets.insert(*topic, set);
            }
        }
        map
    }

    /// `AssignorHelpers.deepCopyAssignment`: `new HashMap<>(size)`, each set `new HashSet<>(set)`.
    pub(super) fn deep_copy(&self) -> Self {
        let mut copy = Self { topics: JavaHashOrder::with_capacity(self.topics.len() as i32), sets: BTreeMap::new() };
        for topic in self.topics.order() {
            copy.topics.insert(topic, topic.hash_code());
            let Some(old) = self.sets.get(&topic) else { continue };
            let mut set = JavaHashOrder::for_collection(old.len());
            for p in old.order() {
                set.insert(p, p as i32);
            }
            copy.sets.insert(topic, set);
        }
        copy
    }

    pub(super) fn remove_topic(&mut self, topic: Uuid) {
        self.topics.remove(&topic);
        self.sets.remove(&topic);
    }

    /// Removes a partition, and the topic once it has none left.
    fn remove_partition(&mut self, topic: Uuid, partition: u32) {
        let Some(set) = self.sets.get_mut(&topic) else { return };
        set.remove(&partition);
        if set.is_empty() {
            self.remove_topic(topic);
        }
    }

    /// `computeIfAbsent(topic, new_set).add(partition)`.
    pub(super) fn add(&mut self, topic: Uuid, partition: u32, new_set: impl FnOnce() -> JavaHashOrder<u32>) {
        if !self.sets.contains_key(&topic) {
            self.topics.insert(topic, topic.hash_code());
            self.sets.insert(topic, new_set());
        }
        if let Some(set) = self.sets.get_mut(&topic) {
            set.insert(partition, partition as i32);
        }
    }

    /// `computeIfAbsent(topic, __ -> new_set()).add(partition)`: a new topic heads its bin
    /// (`JavaHashOrder::compute_if_absent`), where [`JavaAssignment::add`]'s `put` appends it.
    fn compute_if_absent_add(&mut self, topic: Uuid, partition: u32, new_set: impl FnOnce() -> JavaHashOrder<u32>) {
        if !self.sets.contains_key(&topic) {
            self.topics.compute_if_absent(topic, topic.hash_code());
            self.sets.insert(topic, new_set());
        }
        if let Some(set) = self.sets.get_mut(&topic) {
            set.insert(partition, partition as i32);
        }
    }

    /// The record Kafka writes: topics and partitions in iteration order.
    pub(super) fn record(&self) -> Vec<(Uuid, Vec<u32>)> {
        self.topics.order().into_iter().map(|t| (t, self.sets.get(&t).map(JavaHashOrder::order).unwrap_or_default())).collect()
    }
}

/// A member's result: the map it ends with, and whether it is a copy (the assignor reuses
/// the member's old, immutable map until it changes something).
#[derive(Clone, Debug)]
pub(super) struct Target {
    pub(super) map: JavaAssignment,
    pub(super) copied: bool,
}

impl Target {
    pub(super) fn mutable(&mut self) -> &mut JavaAssignment {
        if !self.copied {
            self.map = self.map.deep_copy();
            self.copied = true;
        }
        &mut self.map
    }
}

/// The assignor's input, resolved: topic ids, each member's names and current assignment.
pub(super) struct Input<'a> {
    pub(super) members: &'a [Subscription],
    /// Topic name -> metadata (only topics that exist).
    pub(super) topics: &'a BTreeMap<String, TopicMeta>,
    /// Topic id -> name, for the topics that exist.
    pub(super) names: BTreeMap<Uuid, &'a str>,
    /// Per member: its subscribed names in `new HashSet<>(list)` order, and that list's length.
    pub(super) subscribed: Vec<(Vec<&'a str>, usize)>,
    /// Per member: its stored record, by topic id (first appearance of each topic).
    pub(super) records: Vec<Vec<(Uuid, Vec<u32>)>>,
    /// `memberSpecs` (a `HashMap<String, …>`) iteration order, as indices into `members`.
    pub(super) order: Vec<usize>,
}

/// The id a topic name stands for; a topic absent from the metadata (deleted) keeps an id
/// derived from its name, which only places it in a member's old map.
fn topic_id(topics: &BTreeMap<String, TopicMeta>, name: &str) -> Uuid {
    topics.get(name).map(|t| t.id).unwrap_or_else(|| Uuid::derived(0, name))
}

/// `owned` grouped into the record's topics, in the order each topic first appears.
fn record_of(owned: &[(String, u32)], topics: &BTreeMap<String, TopicMeta>) -> Vec<(Uuid, Vec<u32>)> {
    let mut out: Vec<(Uuid, Vec<u32>)> = Vec::new();
    let mut names: Vec<&str> = Vec::new();
    for (t, p) in owned {
        match names.iter().position(|n| n == t) {
            Some(i) => out[i].1.push(*p),
            None => {
                names.push(t);
                out.push((topic_id(topics, t), vec![*p]));
            }
        }
    }
    out
}

impl<'a> Input<'a> {
    pub(super) fn new(topics: &'a BTreeMap<String, TopicMeta>, members: &'a [Subscription]) -> Self {
        let subscribed = members
            .iter()
            .map(|m| {
                let names = JavaHashOrder::collection_order(m.topics.iter().map(|t| (t.as_str(), java_string_hash(t))), m.topics.len());
                (names, m.topics.len())
            })
            .collect();
        let ids: Vec<&str> = members.iter().map(|m| m.member_id.as_str()).collect();
        Self {
            members,
            topics,
            names: topics.iter().map(|(n, t)| (t.id, n.as_str())).collect_map(),
            subscribed,
            records: members.iter().map(|m| record_of(&m.owned, topics)).collect(),
            order: java_hash::string_map_order(&ids),
        }
    }

    /// `TopicIds` of member `i`: its names that resolve, as ids, in the name set's order.
    pub(super) fn topic_ids(&self, i: usize) -> Vec<Uuid> {
        self.subscribed[i].0.iter().filter_map(|n| self.topics.get(*n).map(|t| t.id)).collect()
    }

    /// `TopicIds.contains`: the id resolves to a name the member subscribes to.
    pub(super) fn subscribes(&self, i: usize, topic: Uuid) -> bool {
        self.names.get(&topic).is_some_and(|n| self.subscribed[i].0.contains(n))
    }

    pub(super) fn partitions(&self, topic: Uuid) -> u32 {
        self.names.get(&topic).and_then(|n| self.topics.get(*n)).map_or(0, |t| t.partitions)
    }

    pub(super) fn name(&self, topic: Uuid) -> String {
        self.names.get(&topic).map(|n| n.to_string()).unwrap_or_default()
    }
}

/// Computes the target assignment of a consumer-protocol group.
///
/// `members` come in the coordinator's member order (join order); each carries its
/// subscription, its `group.instance.id` and, in `owned`, its current target assignment as
/// the coordinator stored it (topics and partitions in the record's order, which decides
/// what `uniform` keeps). `topics` is the metadata: every topic that exists, with its id and
/// partition count. A subscribed name with no topic is skipped; owned partitions of a
/// topic that no longer exists are dropped. Every member gets an entry.
pub fn assign_server(assignor: ServerAssignor, topics: &BTreeMap<String, TopicMeta>, members: &[Subscription]) -> ServerOutcome {
    assign_server_lists(assignor, topics, members).into_outcome()
}

/// [`assign_server`]'s answer as lists, without building maps (what the simulated
/// coordinator stores).
pub fn assign_server_lists<'a>(
    assignor: ServerAssignor,
    topics: &'a BTreeMap<String, TopicMeta>,
    members: &'a [Subscription],
) -> ServerLists<'a> {
    if members.is_empty() {
        return ServerLists::from_targets(&Input::new(topics, members), &[]);
    }
    // ModernGroup.subscriptionType: homogeneous when every subscribed name has every member.
    let homogeneous = lists::homogeneous(members);
    match assignor {
        ServerAssignor::Range => lists::range(topics, members, homogeneous),
        ServerAssignor::Uniform if homogeneous => lists::uniform_homogeneous(topics, members),
        _ => {
            let input = Input::new(topics, members);
            let targets = Heterogeneous::new(&input).build();
            ServerLists::from_targets(&input, &targets)
        }
    }
}

/// The outcome of each member's resulting map: its sorted assignment, and the record the
/// coordinator stores (the old one when nothing changed).
pub(super) fn outcome_of(input: &Input, targets: &[Target], outcome: &mut ServerOutcome) {
    let members = input.members;
    for (i, target) in targets.iter().enumerate() {
        let member = &members[i];
        let record = target.map.record();
        let mut mine = BTreeMap::new();
        for (topic, partitions) in &record {
            if !partitions.is_empty() {
                let mut sorted = partitions.clone();
                sorted.sort_unstable();
                mine.insert(input.name(*topic), sorted);
            }
        }
        // TargetAssignmentBuilder writes a record only when the assignment changed.
        let old: BTreeMap<Uuid, BTreeSet<u32>> =
            input.records[i].iter().map(|(t, ps)| (*t, ps.iter().copied().collect_set())).collect_map();
        let new: BTreeMap<Uuid, BTreeSet<u32>> =
            record.iter().filter(|(_, ps)| !ps.is_empty()).map(|(t, ps)| (*t, ps.iter().copied().collect_set())).collect_map();
        let stored: Vec<(String, u32)> = if old == new {
            member.owned.clone()
        } else {
            record.iter().flat_map(|(t, ps)| ps.iter().map(move |p| (input.name(*t), *p))).collect()
        };
        outcome.records.insert(member.member_id.clone(), stored);
        outcome.assignment.insert(member.member_id.clone(), mine);
    }
}

/// Each member's old map, unchanged (`groupSpec.memberAssignment(memberId).partitions()`).
pub(super) fn old_targets(input: &Input) -> Vec<Target> {
    input.records.iter().map(|r| Target { map: JavaAssignment::from_record(r), copied: false }).collect()
}

/// `UniformHeterogeneousAssignmentBuilder` (Kafka 4.0+): members numbered in `memberIds`
/// order; current partitions of subscribed topics kept; the rest dealt topic by topic
/// (most partitions per subscriber first) to the least loaded subscribers; then up to 16
/// rounds over the topics move partitions from the most to the least loaded subscribers.
struct Heterogeneous<'a, 'i> {
    input: &'i Input<'a>,
    /// Member index -> index into `input.members`.
    member: Vec<usize>,
    /// Topic -> its subscribers' member indices, ascending.
    subscribers: BTreeMap<Uuid, Vec<usize>>,
    /// Member index -> partitions in its target (`memberTargetAssignmentSizes`).
    sizes: Vec<i64>,
    /// Topic -> partition -> owner's member index, or -1.
    owners: BTreeMap<Uuid, Vec<i64>>,
    /// Per member index: its target.
    targets: Vec<Target>,
}

/// Most rounds of the final balancing (`MAX_ITERATION_COUNT`).
const MAX_ITERATION_COUNT: usize = 16;

impl<'a, 'i> Heterogeneous<'a, 'i> {
    fn new(input: &'i Input<'a>) -> Self {
        let member = input.order.clone();
        let mut subscribers: BTreeMap<Uuid, Vec<usize>> = BTreeMap::new();
        for (index, &i) in member.iter().enumerate() {
            for id in input.topic_ids(i) {
                subscribers.entry(id).or_default().push(index);
            }
        }
        let owners = subscribers.keys().map(|t| (*t, vec![-1; input.partitions(*t) as usize])).collect_map();
        let old = old_targets(input);
        let targets = member.iter().map(|&i| old[i].clone()).collect();
        Self { input, sizes: vec![0; member.len()], member, subscribers, owners, targets }
    }

    /// The targets, by index into `input.members`.
    fn build(mut self) -> Vec<Target> {
        if !self.subscribers.is_empty() {
            self.revoke();
            let unassigned = self.unassigned();
            self.assign_remaining(&unassigned);
            self.balance();
        } else {
            for t in &mut self.targets {
                *t = Target { map: JavaAssignment::default(), copied: true };
            }
        }
        let mut out: Vec<Option<Target>> = vec![None; self.member.len()];
        for (index, target) in self.targets.into_iter().enumerate() {
            out[self.member[index]] = Some(target);
        }
        out.into_iter().map(|t| t.unwrap_or(Target { map: JavaAssignment::default(), copied: true })).collect()
    }

    /// The topic order of `sortTopicIds`: partitions per subscriber descending, then
    /// subscriber count ascending, then topic id ascending.
    fn sort_topics(&self, topics: impl IntoIterator<Item = Uuid>) -> Vec<Uuid> {
        let mut sorted: Vec<Uuid> = topics.into_iter().collect();
        let key = |t: &Uuid| {
            let subs = self.subscribers.get(t).map_or(1, Vec::len);
            (f64::from(self.input.partitions(*t)) / subs as f64, subs)
        };
        crate::sorted::sort_by(&mut sorted, |a, b| {
            let (ra, sa) = key(a);
            let (rb, sb) = key(b);
            rb.total_cmp(&ra).then(sa.cmp(&sb)).then(a.cmp(b))
        });
        sorted
    }

    /// `maybeRevokePartitions`: topics no longer subscribed go; the rest count and own.
    fn revoke(&mut self) {
        for index in 0..self.member.len() {
            let i = self.member[index];
            let old = self.targets[index].map.clone();
            for topic in old.topics.order() {
                if self.input.subscribes(i, topic) {
                    let Some(set) = old.sets.get(&topic) else { continue };
                    self.sizes[index] += set.len() as i64;
                    if let Some(owners) = self.owners.get_mut(&topic) {
                        for p in set.order() {
                            if let Some(o) = owners.get_mut(p as usize) {
                                *o = index as i64;
                            }
                        }
                    }
                } else {
                    self.targets[index].mutable().remove_topic(topic);
                }
            }
        }
    }

    /// `computeUnassignedPartitions`.
    fn unassigned(&self) -> BTreeMap<Uuid, Vec<u32>> {
        self.owners
            .iter()
            .map(|(t, owners)| (*t, (0..owners.len() as u32).filter(|p| owners[*p as usize] == -1).collect::<Vec<u32>>()))
            .filter(|(_, ps)| !ps.is_empty())
            .collect_map()
    }

    /// `assignRemainingPartitions`.
    fn assign_remaining(&mut self, unassigned: &BTreeMap<Uuid, Vec<u32>>) {
        let mut balancer = Balancer::default();
        for topic in self.sort_topics(unassigned.keys().copied()) {
            let subs = self.subscribers.get(&topic).cloned().unwrap_or_default();
            balancer.initialize(&subs, &self.sizes);
            for &p in unassigned.get(&topic).map(Vec::as_slice).unwrap_or_default() {
                let m = balancer.next_least_loaded(&self.sizes);
                self.assign(topic, p, m);
            }
        }
    }

    /// `balance` and `balanceTopics`.
    fn balance(&mut self) {
        let topics: Vec<Uuid> = self.subscribers.iter().filter(|(_, s)| s.len() >= 2).map(|(t, _)| *t).collect();
        if topics.is_empty() {
            return;
        }
        let sorted = self.sort_topics(topics);
        let mut last: Option<usize> = None;
        let mut balancer = Balancer::default();
        for _ in 0..MAX_ITERATION_COUNT {
            for (index, topic) in sorted.iter().enumerate() {
                if last == Some(index) {
                    return;
                }
                let moved = self.balance_topic(*topic, &mut balancer);
                if moved > 0 || last.is_none() {
                    last = Some(index);
                }
            }
        }
    }

    /// `balanceTopic`: moves the last partitions of the most loaded subscribers to the least
    /// loaded until the two differ by at most one.
    fn balance_topic(&mut self, topic: Uuid, balancer: &mut Balancer) -> u32 {
        let mut moved = 0;
        let subs = self.subscribers.get(&topic).cloned().unwrap_or_default();
        if balancer.initialize(&subs, &self.sizes) <= 1 {
            return moved;
        }
        let owners = self.owners.get(&topic).cloned().unwrap_or_default();
        let mut partitions: Vec<u32> = (0..owners.len() as u32).collect();
        crate::sorted::sort_by_key(&mut partitions, |p| (owners[*p as usize], *p));
        let mut start: BTreeMap<i64, usize> = BTreeMap::new();
        let mut end: BTreeMap<i64, usize> = BTreeMap::new();
        for (i, p) in partitions.iter().enumerate() {
            let owner = owners[*p as usize];
            start.entry(owner).or_insert(i);
            end.insert(owner, i + 1);
        }
        while !balancer.is_balanced() {
            let mut most: i64;
            loop {
                most = balancer.next_most_loaded(&self.sizes);
                if most == -1 {
                    break;
                }
                let has = match (start.get(&most), end.get(&most)) {
                    (Some(s), Some(e)) => e > s,
                    _ => false,
                };
                if !has {
                    balancer.exclude_most_loaded();
                    continue;
                }
                break;
            }
            if most == -1 {
                break;
            }
            let Some(e) = end.get_mut(&most) else { break };
            *e -= 1;
            let partition = partitions[*e];
            let least = balancer.next_least_loaded(&self.sizes);
            if balancer.is_balanced() {
                break;
            }
            self.assign(topic, partition, least);
            moved += 1;
        }
        moved
    }

    /// `assignPartition`: from its owner, if any, to member index `to`.
    fn assign(&mut self, topic: Uuid, partition: u32, to: usize) {
        let Some(old) = self.owners.get(&topic).and_then(|o| o.get(partition as usize)).copied() else { return };
        if old >= 0 {
            let from = old as usize;
            self.targets[from].mutable().remove_partition(topic, partition);
            self.sizes[from] -= 1;
        }
        let n = self.input.partitions(topic) as usize;
        let subs = self.subscribers.get(&topic).map_or(1, Vec::len).max(1);
        let estimated = n.div_ceil(subs);
        self.targets[to].mutable().compute_if_absent_add(topic, partition, || JavaHashOrder::with_capacity(presize(estimated)));
        if let Some(o) = self.owners.get_mut(&topic).and_then(|o| o.get_mut(partition as usize)) {
            *o = to as i64;
        }
        self.sizes[to] += 1;
    }
}

/// `UniformHeterogeneousAssignmentBuilder.MemberAssignmentBalancer`: two ranges over the
/// subscribers sorted by load — the least loaded, growing rightwards, and the most loaded,
/// growing leftwards — read against the live partition counts.
#[derive(Debug, Default)]
struct Balancer {
    sorted: Vec<usize>,
    least_end: usize,
    least_count: i64,
    next_least: usize,
    most_start: usize,
    most_end: usize,
    most_count: i64,
    next_most: i64,
}

impl Balancer {
    /// Returns the difference between the most and the least loaded member.
    fn initialize(&mut self, members: &[usize], sizes: &[i64]) -> i64 {
        self.sorted = members.to_vec();
        crate::sorted::sort_by_key(&mut self.sorted, |m| (sizes[*m], *m));
        let (Some(&first), Some(&last)) = (self.sorted.first(), self.sorted.last()) else { return 0 };
        self.least_end = 0;
        self.least_count = sizes[first] - 1;
        self.next_least = 0;
        self.most_start = self.sorted.len();
        self.most_end = self.sorted.len();
        self.most_count = sizes[last] + 1;
        self.next_most = self.sorted.len() as i64 - 1;
        sizes[last] - sizes[first]
    }

    fn next_least_loaded(&mut self, sizes: &[i64]) -> usize {
        if self.next_least >= self.least_end {
            self.least_count += 1;
            while self.least_end < self.sorted.len() && sizes[self.sorted[self.least_end]] == self.least_count {
                self.least_end += 1;
            }
            self.next_least = 0;
        }
        let m = self.sorted[self.next_least];
        self.next_least += 1;
        m
    }

    /// The most loaded member to take a partition from, or -1.
    fn next_most_loaded(&mut self, sizes: &[i64]) -> i64 {
        if self.next_most < self.most_start as i64 {
            if self.most_end <= self.most_start && self.most_start > 0 {
                self.most_count = sizes[self.sorted[self.most_start - 1]];
            } else {
                self.most_count -= 1;
            }
            while self.most_start > 0 && sizes[self.sorted[self.most_start - 1]] == self.most_count {
                self.most_start -= 1;
            }
            self.next_most = self.most_end as i64 - 1;
        }
        if self.next_most < 0 {
            return -1;
        }
        let m = self.sorted[self.next_most as usize];
        self.next_most -= 1;
        m as i64
    }

    /// Drops the member `next_most_loaded` just returned from the most loaded range.
    fn exclude_most_loaded(&mut self) {
        let at = (self.next_most + 1) as usize;
        self.sorted.swap(at, self.most_end - 1);
        self.most_end -= 1;
    }

    fn is_balanced(&self) -> bool {
        self.most_count - self.least_count <= 1
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)] // Tests may unwrap: a panic is a failed test.
mod tests {
    use super::*;

    fn topics(list: &[(&str, u32)]) -> BTreeMap<String, TopicMeta> {
        list.iter().map(|(t, n)| (t.to_string(), TopicMeta { id: Uuid::derived(0, t), partitions: *n })).collect()
    }

    fn assign(assignor: ServerAssignor, topics: &BTreeMap<String, TopicMeta>, members: &[Subscription]) -> Assignment {
        assign_server(assignor, topics, members).assignment
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
        let a = assign(ServerAssignor::Range, &topics(&[("t1", 3), ("t3", 3)]), &ms);
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
        let a = assign(ServerAssignor::Range, &topics(&[("t", 3)]), &ms);
        assert_eq!(parts(&a, "z", "t"), vec![0, 1]);
        assert_eq!(parts(&a, "a", "t"), vec![2]);
    }

    /// UniformHomogeneousAssignmentBuilderTest-style: a fresh group is dealt in HashMap
    /// order, the first P % M visited taking one extra.
    #[test]
    fn uniform_fresh_group_follows_hash_order() {
        // consumer1/2/3 fall in bins 12/11/10 of a 16-bin table: visited 3, 2, 1.
        let ms = [Subscription::new("consumer1", &["t"]), Subscription::new("consumer2", &["t"]), Subscription::new("consumer3", &["t"])];
        let a = assign(ServerAssignor::Uniform, &topics(&[("t", 7)]), &ms);
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
        let a = assign(ServerAssignor::Uniform, &topics(&[("t", 6)]), &ms);
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
        let a = assign(ServerAssignor::Uniform, &topics(&[("t", 6)]), &ms);
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
        let a = assign(ServerAssignor::Uniform, &topics(&[("t1", 3), ("t2", 4)]), &ms);
        assert!(parts(&a, "a", "t2").is_empty() && parts(&a, "c", "t1").is_empty());
        let mut t1: Vec<u32> = [parts(&a, "a", "t1"), parts(&a, "b", "t1")].concat();
        let mut t2: Vec<u32> = [parts(&a, "b", "t2"), parts(&a, "c", "t2")].concat();
        t1.sort_unstable();
        t2.sort_unstable();
        assert_eq!(t1, vec![0, 1, 2]);
        assert_eq!(t2, vec![0, 1, 2, 3]);
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)] // Tests may unwrap: a panic is a failed test.
mod audit {
    use super::*;

    /// The audit's scale-out (checked against Kafka's own code, tests/vectors): A owns
    /// 20-39, B 0-19, C joins. A's set iterates 32-39 first (bins 0-7 of its 32-bin
    /// table), so A keeps 32-39 and 20-25.
    #[test]
    fn uniform_keeps_hash_set_order_not_ascending() {
        let t: BTreeMap<String, TopicMeta> = [("t".to_string(), TopicMeta { id: Uuid::derived(0, "t"), partitions: 40 })].into();
        let mut a = Subscription::new("A", &["t"]);
        a.owned = (20..40).map(|p| ("t".to_string(), p)).collect();
        let mut b = Subscription::new("B", &["t"]);
        b.owned = (0..20).map(|p| ("t".to_string(), p)).collect();
        let out = assign_server(ServerAssignor::Uniform, &t, &[a, b, Subscription::new("C", &["t"])]);
        let get = |m: &str| out.assignment[m]["t"].clone();
        assert_eq!(get("A"), [20, 21, 22, 23, 24, 25, 32, 33, 34, 35, 36, 37, 38, 39]);
        assert_eq!(get("C"), [13, 14, 15, 16, 17, 18, 19, 26, 27, 28, 29, 30, 31]);
        // B's record is unchanged in order where it kept everything it had first.
        assert_eq!(out.records["B"].iter().map(|(_, p)| *p).collect::<Vec<_>>(), (0..13).collect::<Vec<_>>());
    }
}

/// Differential vectors: inputs and outputs of Kafka's own `UniformAssignor` and
/// `RangeAssignor` (`tests/vectors/server-assignors.jsonl`, one case per line in the input
/// format of `kafka-sandbox assign` plus `"expect"`; how they were made: `docs/cli.md`).
#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used)] // Tests may unwrap: a panic is a failed test.
mod vectors {
    use super::*;
    use serde_json::Value;

    fn case(line: &str) -> (ServerAssignor, BTreeMap<String, TopicMeta>, Vec<Subscription>, Assignment) {
        let v: Value = serde_json::from_str(line).unwrap();
        let assignor = match v["strategy"].as_str().unwrap() {
            "range" => ServerAssignor::Range,
            _ => ServerAssignor::Uniform,
        };
        let ids = v.get("topic_ids").and_then(Value::as_object).cloned().unwrap_or_default();
        let topics = v["topics"]
            .as_object()
            .unwrap()
            .iter()
            .map(|(t, n)| {
                let id = ids.get(t).and_then(Value::as_str).map_or_else(|| Uuid::derived(0, t), |s| Uuid::parse(s).unwrap());
                (t.clone(), TopicMeta { id, partitions: n.as_u64().unwrap() as u32 })
            })
            .collect();
        let members = v["members"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| {
                let topics: Vec<&str> = m["subscription"].as_array().unwrap().iter().map(|t| t.as_str().unwrap()).collect();
                let mut s = Subscription::new(m["member_id"].as_str().unwrap(), &topics);
                s.group_instance_id = m.get("group_instance_id").and_then(Value::as_str).map(str::to_string);
                s.owned = m
                    .get("owned")
                    .and_then(Value::as_array)
                    .map(|o| o.iter().map(|tp| (tp[0].as_str().unwrap().to_string(), tp[1].as_u64().unwrap() as u32)).collect())
                    .unwrap_or_default();
                s
            })
            .collect();
        let expect: Assignment = serde_json::from_value(v["expect"].clone()).unwrap();
        (assignor, topics, members, expect)
    }

    /// Every vector, through the sandbox's assignor; the first mismatch fails with a diff.
    #[test]
    fn kafka_vectors_match() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../tests/vectors/server-assignors.jsonl");
        let text = std::fs::read_to_string(path).expect("the vector file");
        let mut counts: BTreeMap<String, usize> = BTreeMap::new();
        for (n, line) in text.lines().enumerate().filter(|(_, l)| !l.trim().is_empty()) {
            let (assignor, topics, members, expect) = case(line);
            let got = assign_server(assignor, &topics, &members).assignment;
            if got != expect {
                let mut diff = String::new();
                for m in expect.keys().chain(got.keys()).collect_set() {
                    if expect.get(m) != got.get(m) {
                        diff += &format!("  member {m}:\n    kafka:   {:?}\n    sandbox: {:?}\n", expect.get(m), got.get(m));
                    }
                }
                panic!("vector on line {} ({assignor}) differs:\n{diff}input: {line}", n + 1);
            }
            *counts.entry(assignor.to_string()).or_default() += 1;
        }
        assert!(counts.get("uniform").is_some_and(|c| *c >= 300) && counts.get("range").is_some_and(|c| *c >= 300), "{counts:?}");
    }
}
