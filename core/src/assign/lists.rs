//! An assignment as each member's list of partitions (what the simulated leader and coordinator hand their members), and the topic table the assignors index.
//!
//! The assignors work on indices: a topic is its position among the assignable topics in
//! Java `String` order ([`Topics`]), a partition a [`Tp`], a member its position in the
//! input. Their answer is an owner per partition, which [`AssignmentLists::from_owners`]
//! turns into one flat list sorted by member and then by `(topic, partition)`: two
//! allocations whatever the group's size. [`AssignmentLists::into_outcome`] builds the map
//! form ([`Assignment`]) that `assign` returns.

use std::cmp::Ordering;
use std::collections::BTreeMap;

use super::java_hash::JavaKey;
use super::{AssignOutcome, Assignment, Subscription};
use crate::partitioner::java_string_hash;
use crate::sorted::CollectSorted;

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

/// No owner, in an owner-per-partition table.
pub(crate) const NO_OWNER: u32 = u32::MAX;

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
    /// `topics` must be in Java `String` order with counts above 0 (as `prepare` makes them).
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

    /// Partitions of every topic, summed.
    pub(crate) fn total(&self) -> usize {
        self.total
    }

    pub(crate) fn index(&self, name: &str) -> Option<u32> {
        // One topic (the usual group) needs no tree walk.
        if self.names.len() == 1 {
            return (self.names[0] == name).then_some(0);
        }
        self.index.get(name).copied()
    }

    pub(crate) fn name(&self, topic: u32) -> &'a str {
        self.names[topic as usize]
    }

    pub(crate) fn names(&self) -> &[&'a str] {
        &self.names
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

    /// The global index of `topic`'s partition 0.
    pub(crate) fn offset(&self, topic: u32) -> usize {
        self.offsets[topic as usize]
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

/// An assignment as each member's list of partitions: every member of the input (in its
/// order), each with its partitions in `(topic, partition)` order (topics in Java `String`
/// order), and what Kafka would log. [`super::assign_lists`] returns it;
/// [`AssignmentLists::into_outcome`] gives the map form.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AssignmentLists<'a> {
    members: &'a [Subscription],
    topics: Vec<&'a str>,
    /// Every member's partitions, member after member.
    parts: Vec<Tp>,
    /// Where each member's partitions end in `parts`.
    ends: Vec<u32>,
    warnings: Vec<String>,
}

impl<'a> AssignmentLists<'a> {
    /// From an owner (an index into `members`, or [`NO_OWNER`]) per partition of `topics`
    /// (global index order).
    pub(crate) fn from_owners(members: &'a [Subscription], topics: &Topics<'a>, owners: &[u32], warnings: Vec<String>) -> Self {
        let mut ends = vec![0u32; members.len()];
        for &o in owners {
            if let Some(count) = ends.get_mut(o as usize) {
                *count += 1;
            }
        }
        // Counts to start offsets, then each member's cursor moves to its end.
        let mut start = 0u32;
        for slot in &mut ends {
            let count = *slot;
            *slot = start;
            start += count;
        }
        let mut parts = vec![Tp { topic: 0, partition: 0 }; start as usize];
        let mut g = 0usize;
        for topic in 0..topics.len() as u32 {
            for partition in 0..topics.count(topic) {
                if let Some(cursor) = ends.get_mut(owners[g] as usize) {
                    parts[*cursor as usize] = Tp { topic, partition };
                    *cursor += 1;
                }
                g += 1;
            }
        }
        Self { members, topics: topics.names().to_vec(), parts, ends, warnings }
    }

    /// How many members (all of the input's).
    pub fn len(&self) -> usize {
        self.members.len()
    }

    /// Whether the group had no members.
    pub fn is_empty(&self) -> bool {
        self.members.is_empty()
    }

    /// The member id of member `i` (in input order).
    pub fn member_id(&self, i: usize) -> &'a str {
        &self.members[i].member_id
    }

    fn range(&self, i: usize) -> &[Tp] {
        let start = if i == 0 { 0 } else { self.ends[i - 1] as usize };
        &self.parts[start..self.ends[i] as usize]
    }

    /// Member `i`'s partitions as (topic, partition), topics in Java `String` order,
    /// partitions ascending.
    pub fn partitions(&self, i: usize) -> impl Iterator<Item = (&'a str, u32)> + '_ {
        let topics = &self.topics;
        self.range(i).iter().map(move |tp| (topics[tp.topic as usize], tp.partition))
    }

    /// What Kafka would log, e.g. a subscribed topic without metadata.
    pub fn warnings(&self) -> &[String] {
        &self.warnings
    }

    /// The map form: member id -> topic -> partitions.
    pub fn into_outcome(self) -> AssignOutcome {
        let assignment: Assignment = (0..self.len())
            .map(|i| {
                let mut by_topic: BTreeMap<String, Vec<u32>> = BTreeMap::new();
                let list = self.range(i);
                let mut at = 0;
                while at < list.len() {
                    let topic = list[at].topic;
                    let run = list[at..].iter().take_while(|tp| tp.topic == topic).count();
                    by_topic.insert(self.topics[topic as usize].to_string(), list[at..at + run].iter().map(|tp| tp.partition).collect());
                    at += run;
                }
                (self.members[i].member_id.clone(), by_topic)
            })
            .collect_map();
        AssignOutcome { assignment, warnings: self.warnings }
    }
}
