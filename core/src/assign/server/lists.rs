//! The coordinator's assignors on indices, answering with lists: `range`, and `uniform` for a homogeneous group (the usual one), without building a Java map for a member whose target stays as it was.
//!
//! Topics are indices into [`Table`] (the metadata's topics in name order, then the names of
//! deleted topics a record still lists), partitions `(topic, partition)` pairs. A member's
//! current target assignment is read from its record once ([`Records`]); its Java maps
//! (`Assignment.fromRecord`, `deepCopyAssignment`) are built only for a member whose target
//! changes, as a [`Map`] on [`JavaHashOrder`]s, so the record Kafka writes for it comes out
//! in Kafka's order. The heterogeneous `uniform` builder runs on `Input`/`JavaAssignment`
//! (in `server.rs`) and answers through [`ServerLists::from_targets`].

use std::cmp::Ordering;
use std::collections::BTreeMap;

use super::super::java_hash::{presize, string_hash, string_map_order, JavaHashOrder, JavaKey};
use super::super::{java_cmp, member_order, range, Subscription, Topics, NO_OWNER};
use super::{Input, ServerOutcome, Target, TopicMeta, Uuid};
use crate::sorted::CollectSorted;

/// A topic as a key of Kafka's `Map<Uuid, …>`: hashed and ordered (in a tree bin) by its id.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct TopicKey {
    id: Uuid,
    index: u32,
}

impl PartialOrd for TopicKey {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for TopicKey {
    fn cmp(&self, other: &Self) -> Ordering {
        self.id.cmp(&other.id).then(self.index.cmp(&other.index))
    }
}

/// `Uuid.compareTo`.
impl JavaKey for TopicKey {
    fn compare_to(&self, other: &Self) -> Option<Ordering> {
        Some(self.id.cmp(&other.id))
    }
}

/// The topics the assignor meets, by index.
struct Table<'a> {
    /// Index -> name: the metadata's topics in name order, then deleted topics' names.
    names: Vec<&'a str>,
    ids: Vec<Uuid>,
    /// Partition counts (0 for a deleted topic).
    counts: Vec<u32>,
    /// How many of them are in the metadata.
    existing: usize,
}

impl<'a> Table<'a> {
    fn new(meta: &'a BTreeMap<String, TopicMeta>) -> Self {
        Self {
            names: meta.keys().map(String::as_str).collect(),
            ids: meta.values().map(|t| t.id).collect(),
            counts: meta.values().map(|t| t.partitions).collect(),
            existing: meta.len(),
        }
    }

    /// The index of a topic of the metadata.
    fn existing(&self, name: &str) -> Option<u32> {
        self.names[..self.existing].binary_search(&name).ok().map(|i| i as u32)
    }

    /// The index of a topic a record names: a deleted one gets the id derived from its name
    /// (which only places it in the member's old map).
    fn any(&mut self, name: &'a str) -> u32 {
        if let Some(i) = self.existing(name) {
            return i;
        }
        if let Some(i) = self.names[self.existing..].iter().position(|n| *n == name) {
            return (self.existing + i) as u32;
        }
        self.names.push(name);
        self.ids.push(Uuid::derived(0, name));
        self.counts.push(0);
        (self.names.len() - 1) as u32
    }

    fn key(&self, topic: u32) -> TopicKey {
        TopicKey { id: self.ids[topic as usize], index: topic }
    }

    fn hash(&self, topic: u32) -> i32 {
        self.ids[topic as usize].hash_code()
    }

    fn count(&self, topic: u32) -> u32 {
        self.counts[topic as usize]
    }
}

/// Every member's stored record, grouped by topic in the order each topic first appears
/// (`Assignment.fromRecord`'s input).
struct Records {
    /// All partitions, member after member, each member's grouped by topic.
    parts: Vec<u32>,
    /// (topic, end in `parts`) per group, member after member.
    groups: Vec<(u32, u32)>,
    /// Where each member's groups end in `groups`.
    ends: Vec<u32>,
}

impl Records {
    fn new<'a>(members: &'a [Subscription], table: &mut Table<'a>) -> Self {
        let mut records = Records { parts: Vec::new(), groups: Vec::new(), ends: Vec::with_capacity(members.len()) };
        let mut topics: Vec<u32> = Vec::new();
        for m in members {
            // The topic of each entry; a record names one topic after another, so a name is
            // looked up once per run.
            topics.clear();
            let mut last: Option<(&str, u32)> = None;
            for (name, _) in &m.owned {
                let t = match last {
                    Some((n, t)) if n == name => t,
                    _ => table.any(name),
                };
                last = Some((name, t));
                topics.push(t);
            }
            // Usually each topic is one run; a topic that appears again later joins its
            // first group.
            let mut firsts: Vec<u32> = Vec::new();
            let mut contiguous = true;
            for (i, &t) in topics.iter().enumerate() {
                if i == 0 || topics[i - 1] != t {
                    if firsts.contains(&t) {
                        contiguous = false;
                        break;
                    }
                    firsts.push(t);
                }
            }
            if contiguous {
                for (i, &(_, p)) in m.owned.iter().enumerate() {
                    records.parts.push(p);
                    match records.groups.last_mut() {
                        Some(last) if i > 0 && topics[i] == topics[i - 1] => last.1 += 1,
                        _ => records.groups.push((topics[i], records.parts.len() as u32)),
                    }
                }
            } else {
                let mut seen: Vec<u32> = Vec::new();
                for &t in &topics {
                    if !seen.contains(&t) {
                        seen.push(t);
                    }
                }
                for t in seen {
                    records.parts.extend(m.owned.iter().zip(&topics).filter(|(_, x)| **x == t).map(|((_, p), _)| *p));
                    records.groups.push((t, records.parts.len() as u32));
                }
            }
            records.ends.push(records.groups.len() as u32);
        }
        records
    }

    /// Member `i`'s groups: (topic, its partitions in the record's order).
    fn of(&self, i: usize) -> impl Iterator<Item = (u32, &[u32])> + '_ {
        let start = if i == 0 { 0 } else { self.ends[i - 1] as usize };
        let groups = &self.groups[start..self.ends[i] as usize];
        let mut from = if start == 0 { 0 } else { self.groups[start - 1].1 as usize };
        groups.iter().map(move |&(t, end)| {
            let slice = &self.parts[from..end as usize];
            from = end as usize;
            (t, slice)
        })
    }

    fn is_empty(&self, i: usize) -> bool {
        let start = if i == 0 { 0 } else { self.ends[i - 1] };
        start == self.ends[i]
    }
}

/// A member's `Map<Uuid, Set<Integer>>`: which keys and elements, in which order.
#[derive(Clone, Debug)]
struct Map {
    topics: JavaHashOrder<TopicKey>,
    /// (topic, its set), in no particular order.
    sets: Vec<(u32, JavaHashOrder<u32>)>,
}

impl Map {
    /// `Assignment.fromRecord`: `Collectors.toMap` into a `HashMap`, each topic's partitions
    /// a `new HashSet<>(list)`.
    fn from_record<'r>(table: &Table, groups: impl Iterator<Item = (u32, &'r [u32])>) -> Self {
        let mut map = Map { topics: JavaHashOrder::new(), sets: Vec::new() };
        for (topic, partitions) in groups {
            if map.topics.insert(table.key(topic), table.hash(topic)) {
                let mut set = JavaHashOrder::for_collection(partitions.len());
                for &p in partitions {
                    set.insert(p, p as i32);
                }
                map.sets.push((topic, set));
            }
        }
        map
    }

    /// `AssignorHelpers.deepCopyAssignment`: `new HashMap<>(size)`, each set `new HashSet<>(set)`.
    fn deep_copy(&self, table: &Table) -> Self {
        let mut copy = Map { topics: JavaHashOrder::with_capacity(self.topics.len() as i32), sets: Vec::with_capacity(self.sets.len()) };
        for key in self.topics.order() {
            copy.topics.insert(key, table.hash(key.index));
            let Some(old) = self.set(key.index) else { continue };
            let mut set = JavaHashOrder::for_collection(old.len());
            for p in old.order() {
                set.insert(p, p as i32);
            }
            copy.sets.push((key.index, set));
        }
        copy
    }

    fn set(&self, topic: u32) -> Option<&JavaHashOrder<u32>> {
        self.sets.iter().find(|(t, _)| *t == topic).map(|(_, s)| s)
    }

    fn set_mut(&mut self, topic: u32) -> Option<&mut JavaHashOrder<u32>> {
        self.sets.iter_mut().find(|(t, _)| *t == topic).map(|(_, s)| s)
    }

    fn remove_topic(&mut self, table: &Table, topic: u32) {
        self.topics.remove(&table.key(topic));
        self.sets.retain(|(t, _)| *t != topic);
    }

    /// Removes a partition, and the topic once it has none left.
    fn remove_partition(&mut self, table: &Table, topic: u32, partition: u32) {
        let Some(set) = self.set_mut(topic) else { return };
        set.remove(&partition);
        if set.is_empty() {
            self.remove_topic(table, topic);
        }
    }

    /// `computeIfAbsent(topic, __ -> new HashSet<>()).add(partition)`.
    fn add(&mut self, table: &Table, topic: u32, partition: u32) {
        if self.set(topic).is_none() {
            self.topics.compute_if_absent(table.key(topic), table.hash(topic));
            self.sets.push((topic, JavaHashOrder::new()));
        }
        if let Some(set) = self.set_mut(topic) {
            set.insert(partition, partition as i32);
        }
    }

    /// The record Kafka writes from it: topics, then partitions, in iteration order.
    fn write(&self, out: &mut Vec<(u32, u32)>) {
        for key in self.topics.order() {
            if let Some(set) = self.set(key.index) {
                out.extend(set.order().into_iter().map(|p| (key.index, p)));
            }
        }
    }
}

/// The coordinator's answer as lists: every member of the input (in its order) with its
/// target assignment, and the record the coordinator stores for it — written anew where
/// the target changed, the old one (its `owned`) where not. [`super::assign_server_lists`]
/// returns it; [`ServerLists::into_outcome`] gives the map form.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ServerLists<'a> {
    members: &'a [Subscription],
    names: Vec<&'a str>,
    /// Each member's target, sorted by topic name then partition, member after member.
    target: Vec<(u32, u32)>,
    target_ends: Vec<u32>,
    /// Each changed member's new record, in Kafka's order (nothing for the others).
    records: Vec<(u32, u32)>,
    record_ends: Vec<u32>,
    changed: Vec<bool>,
}

/// Builds a [`ServerLists`] member by member.
struct Builder<'a> {
    lists: ServerLists<'a>,
}

impl<'a> Builder<'a> {
    fn new(members: &'a [Subscription]) -> Self {
        let n = members.len();
        Builder {
            lists: ServerLists {
                members,
                names: Vec::new(),
                target: Vec::new(),
                target_ends: Vec::with_capacity(n),
                records: Vec::new(),
                record_ends: Vec::with_capacity(n),
                changed: Vec::with_capacity(n),
            },
        }
    }

    /// The next member: its target (any order; sorted here by name, then partition),
    /// and its new record if it changed.
    fn push(&mut self, names: &[&str], target: impl IntoIterator<Item = (u32, u32)>, record: Option<&[(u32, u32)]>) {
        let l = &mut self.lists;
        let start = l.target.len();
        l.target.extend(target);
        let mine = &mut l.target[start..];
        if !mine.windows(2).all(|w| w[0] <= w[1]) {
            // By index: names order them, for the metadata's topics (all a target holds).
            crate::sorted::sort_by(mine, |a, b| names[a.0 as usize].cmp(names[b.0 as usize]).then(a.1.cmp(&b.1)));
        }
        l.target_ends.push(l.target.len() as u32);
        l.changed.push(record.is_some());
        if let Some(record) = record {
            l.records.extend_from_slice(record);
        }
        l.record_ends.push(l.records.len() as u32);
    }

    fn finish(mut self, names: Vec<&'a str>) -> ServerLists<'a> {
        self.lists.names = names;
        self.lists
    }
}

impl<'a> ServerLists<'a> {
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

    fn span(ends: &[u32], i: usize) -> std::ops::Range<usize> {
        (if i == 0 { 0 } else { ends[i - 1] as usize })..ends[i] as usize
    }

    /// Member `i`'s target assignment: (topic, partition) by topic name, then partition.
    pub fn target(&self, i: usize) -> impl Iterator<Item = (&'a str, u32)> + '_ {
        let names = &self.names;
        self.target[Self::span(&self.target_ends, i)].iter().map(move |&(t, p)| (names[t as usize], p))
    }

    /// Whether member `i`'s target changed (the coordinator writes a new record).
    pub fn record_changed(&self, i: usize) -> bool {
        self.changed[i]
    }

    /// The record the coordinator stores for member `i` afterwards, in the order Kafka
    /// writes it (the iteration order of the result's maps), or its old record (`owned`)
    /// when nothing changed. Feed it back as [`Subscription::owned`].
    pub fn record(&self, i: usize) -> impl Iterator<Item = (&'a str, u32)> + '_ {
        let names = &self.names;
        let empty_new: &[(u32, u32)] = &[];
        let empty_old: &'a [(String, u32)] = &[];
        let (new, old) = if self.changed[i] {
            (&self.records[Self::span(&self.record_ends, i)], empty_old)
        } else {
            (empty_new, self.members[i].owned.as_slice())
        };
        new.iter().map(move |&(t, p)| (names[t as usize], p)).chain(old.iter().map(|(t, p)| (t.as_str(), *p)))
    }

    /// The map form: member id -> topic -> partitions, and member id -> record.
    pub fn into_outcome(self) -> ServerOutcome {
        let mut assignment = BTreeMap::new();
        let mut records = BTreeMap::new();
        for i in 0..self.len() {
            let mut mine: BTreeMap<String, Vec<u32>> = BTreeMap::new();
            for (t, p) in self.target(i) {
                match mine.get_mut(t) {
                    Some(list) => list.push(p),
                    None => {
                        mine.insert(t.to_string(), vec![p]);
                    }
                }
            }
            assignment.insert(self.member_id(i).to_string(), mine);
            records.insert(self.member_id(i).to_string(), self.record(i).map(|(t, p)| (t.to_string(), p)).collect());
        }
        ServerOutcome { assignment, records }
    }

    /// From the maps a builder on `Input` ended with (`targets`, by member): each member's
    /// sorted target, and its record (the old one when nothing changed).
    pub(super) fn from_targets(input: &Input<'a>, targets: &[Target]) -> Self {
        // Topic index by id: the metadata's topics in name order; an id outside it (a
        // deleted topic's) is written with an empty name, as `Input::name` gives it.
        let mut names: Vec<&'a str> = input.topics.keys().map(String::as_str).collect();
        let mut index: BTreeMap<Uuid, u32> = input.topics.values().zip(0u32..).map(|(t, i)| (t.id, i)).collect_map();
        let mut builder = Builder::new(input.members);
        let mut record: Vec<(u32, u32)> = Vec::new();
        for (i, target) in targets.iter().enumerate() {
            record.clear();
            let mut new: BTreeMap<Uuid, Vec<u32>> = BTreeMap::new();
            for (topic, partitions) in target.map.record() {
                let t = *index.entry(topic).or_insert_with(|| {
                    names.push("");
                    (names.len() - 1) as u32
                });
                record.extend(partitions.iter().map(|p| (t, *p)));
                if !partitions.is_empty() {
                    let mut sorted = partitions;
                    sorted.sort_unstable();
                    new.insert(topic, sorted);
                }
            }
            // TargetAssignmentBuilder writes a record only when the assignment changed.
            let old: BTreeMap<Uuid, Vec<u32>> = input.records[i]
                .iter()
                .map(|(t, ps)| {
                    let mut ps = ps.clone();
                    ps.sort_unstable();
                    ps.dedup();
                    (*t, ps)
                })
                .collect_map();
            let target_list: Vec<(u32, u32)> = new.iter().flat_map(|(t, ps)| ps.iter().map(|p| (index[t], *p))).collect();
            builder.push(&names, target_list, (old != new).then_some(record.as_slice()));
        }
        builder.finish(names)
    }
}

/// The members' ids in `String.compareTo` order, as indices.
fn by_id(members: &[Subscription]) -> Vec<u32> {
    let mut by_id: Vec<u32> = (0u32..).take(members.len()).collect();
    crate::sorted::sort_by(&mut by_id, |a, b| java_cmp(&members[*a as usize].member_id, &members[*b as usize].member_id));
    by_id
}

/// A member's subscribed topics as `TopicIds` iterates them: its names in
/// `new HashSet<>(list)` order, those that name a topic of the metadata.
fn topic_ids(table: &Table, member: &Subscription) -> Vec<u32> {
    match member.topics.as_slice() {
        [] => Vec::new(),
        [one] => table.existing(one).into_iter().collect(),
        names => JavaHashOrder::collection_order(names.iter().map(|t| (t.as_str(), string_hash(t))), names.len())
            .into_iter()
            .filter_map(|n| table.existing(n))
            .collect(),
    }
}

/// The names of a member's subscription as a set (`subscribedTopicNames`): how many.
fn name_set_len(member: &Subscription) -> usize {
    match member.topics.len() {
        0 | 1 => member.topics.len(),
        _ => member.topics.iter().map(String::as_str).collect_set().len(),
    }
}

/// Whether every member subscribes to the same topic names (`SubscriptionType.HOMOGENEOUS`).
pub(super) fn homogeneous(members: &[Subscription]) -> bool {
    let Some(first) = members.first() else { return true };
    let first_set = || first.topics.iter().map(String::as_str).collect_set();
    let mut set = None;
    members
        .iter()
        .all(|m| m.topics == first.topics || set.get_or_insert_with(first_set) == &m.topics.iter().map(String::as_str).collect_set())
}

/// The coordinator's `RangeAssignor` (homogeneous and heterogeneous groups): members sorted
/// static-first, each taking a contiguous range per topic; each member's map is
/// `new HashMap<>((int) (n / 0.75f) + 1)` — n the resolved topics in a homogeneous group, the
/// subscribed names in a heterogeneous one — holding a `RangeSet` (ascending) per topic
/// with partitions, put in the member's `TopicIds` order.
pub(super) fn range<'a>(meta: &'a BTreeMap<String, TopicMeta>, members: &'a [Subscription], homogeneous: bool) -> ServerLists<'a> {
    let table = Table::new(meta);
    // The topics someone subscribes to, with partitions, for the shared range rule.
    let mut subscribed: Vec<u32> = Vec::new();
    let mut previous: Option<&[String]> = None;
    let mut ids: Vec<Vec<u32>> = Vec::with_capacity(members.len());
    for m in members {
        if previous != Some(m.topics.as_slice()) {
            previous = Some(&m.topics);
            ids.push(topic_ids(&table, m));
        } else {
            let same = ids.last().cloned().unwrap_or_default();
            ids.push(same);
        }
        for &t in ids.last().map(Vec::as_slice).unwrap_or_default() {
            if !subscribed.contains(&t) {
                subscribed.push(t);
            }
        }
    }
    subscribed.sort_unstable();
    subscribed.retain(|&t| table.count(t) > 0);
    let list: Vec<(&str, u32)> = subscribed.iter().map(|&t| (table.names[t as usize], table.count(t))).collect();
    let topics = Topics::new(&list);
    let mut owners = vec![NO_OWNER; topics.total()];
    let order = member_order(members, &by_id(members));
    range::assign_sorted(&topics, members, &order, &mut owners);
    // A homogeneous group's maps all follow the first member's (in sorted order) topics.
    let first_ids = order.first().map(|&f| ids[f as usize].clone()).unwrap_or_default();

    let mut builder = Builder::new(members);
    let mut record: Vec<(u32, u32)> = Vec::new();
    let mut target: Vec<(u32, u32)> = Vec::new();
    for (i, m) in members.iter().enumerate() {
        // The member's range of each topic: where its owner run is.
        target.clear();
        let mut ranges: Vec<(u32, u32, u32)> = Vec::new();
        for (k, &t) in subscribed.iter().enumerate() {
            let offset = topics.offset(k as u32);
            let owners = &owners[offset..offset + table.count(t) as usize];
            if let Some(start) = owners.iter().position(|&o| o == i as u32) {
                let len = owners[start..].iter().take_while(|&&o| o == i as u32).count();
                ranges.push((t, start as u32, (start + len) as u32));
            }
        }
        target.extend(ranges.iter().flat_map(|&(t, s, e)| (s..e).map(move |p| (t, p))));
        // The map: a RangeSet per topic with partitions, in TopicIds order.
        let mine = if homogeneous { &first_ids } else { &ids[i] };
        let n = if homogeneous { first_ids.len() } else { name_set_len(m) };
        let mut map: JavaHashOrder<TopicKey> = JavaHashOrder::with_capacity(presize(n));
        for &t in mine {
            if ranges.iter().any(|r| r.0 == t) {
                map.insert(table.key(t), table.hash(t));
            }
        }
        record.clear();
        for key in map.order() {
            if let Some(&(t, s, e)) = ranges.iter().find(|r| r.0 == key.index) {
                record.extend((s..e).map(|p| (t, p)));
            }
        }
        let unchanged = same_partitions(m, &table, &target);
        builder.push(&table.names, target.iter().copied(), (!unchanged).then_some(record.as_slice()));
    }
    builder.finish(table.names)
}

/// Whether `member`'s record holds exactly the partitions of `target` (as sets).
fn same_partitions(member: &Subscription, table: &Table, target: &[(u32, u32)]) -> bool {
    if member.owned.len() < target.len() {
        return false;
    }
    let mut old: Vec<(u32, u32)> = Vec::with_capacity(member.owned.len());
    for (name, p) in &member.owned {
        // A deleted topic's partition is in no target.
        let Some(t) = table.existing(name) else { return false };
        old.push((t, *p));
    }
    old.sort_unstable();
    old.dedup();
    let mut new = target.to_vec();
    new.sort_unstable();
    old == new
}

/// `UniformHomogeneousAssignmentBuilder.build`: quotas dealt in `memberSpecs` order; each
/// member keeps its current partitions (in its map's iteration order) up to its quota; what
/// it gives up and what nobody owns are dealt, in that order, to the members below quota.
pub(super) fn uniform_homogeneous<'a>(meta: &'a BTreeMap<String, TopicMeta>, members: &'a [Subscription]) -> ServerLists<'a> {
    let mut table = Table::new(meta);
    let records = Records::new(members, &mut table);
    let table = table;
    let ids: Vec<&str> = members.iter().map(|m| m.member_id.as_str()).collect();
    let order = string_map_order(&ids);
    let mut builder = Builder::new(members);

    // new HashSet<>(firstMember.subscribedTopicIds()): TopicIds' size counts every name.
    let first = &members[order[0]];
    let mut subscribed_set: JavaHashOrder<TopicKey> = JavaHashOrder::for_collection(name_set_len(first));
    for t in topic_ids(&table, first) {
        subscribed_set.insert(table.key(t), table.hash(t));
    }
    let subscribed: Vec<u32> = subscribed_set.order().iter().map(|k| k.index).collect();
    let is_subscribed = |t: u32| subscribed.contains(&t);
    if subscribed.is_empty() {
        // GroupAssignment(emptyMap): every member's target is empty.
        for i in 0..members.len() {
            let changed = !records.is_empty(i);
            builder.push(&table.names, std::iter::empty(), changed.then_some(&[][..]));
        }
        return builder.finish(table.names);
    }

    // isPartitionAssigned: owned by some member's current target.
    let mut offsets: Vec<usize> = vec![usize::MAX; table.names.len()];
    let mut total_slots = 0usize;
    for &t in &subscribed {
        offsets[t as usize] = total_slots;
        total_slots += table.count(t) as usize;
    }
    let mut assigned = vec![false; total_slots];
    for i in 0..members.len() {
        for (t, ps) in records.of(i) {
            let Some(&offset) = offsets.get(t as usize).filter(|o| **o != usize::MAX) else { continue };
            for &p in ps {
                if p < table.count(t) {
                    assigned[offset + p as usize] = true;
                }
            }
        }
    }
    let mut unassigned: Vec<(u32, u32)> = Vec::new();
    let mut total: u64 = 0;
    for &t in &subscribed {
        let n = table.count(t);
        unassigned.extend((0..n).filter(|&p| !assigned[offsets[t as usize] + p as usize]).map(|p| (t, p)));
        total += u64::from(n);
    }
    let count = order.len() as u64;
    let min_quota = total / count;
    let mut extra = total % count;

    // maybeRevokePartitions. A member's map is built only once it is copied.
    let mut maps: Vec<Option<Map>> = vec![None; members.len()];
    let mut unfilled: Vec<(usize, u64)> = Vec::new();
    let mut seen: Vec<bool> = Vec::new();
    for &i in &order {
        let mut quota = min_quota;
        if extra > 0 {
            quota += 1;
            extra -= 1;
        }
        let groups: Vec<(u32, &[u32])> = records.of(i).collect();
        // The old map's topics in iteration order (a map of one topic needs no model).
        let topic_order: Vec<u32> = if groups.len() <= 1 {
            groups.iter().map(|g| g.0).collect()
        } else {
            Map::from_record(&table, groups.iter().copied()).topics.order().iter().map(|k| k.index).collect()
        };
        let mut old: Option<Map> = None;
        for t in topic_order {
            let Some(&(_, list)) = groups.iter().find(|g| g.0 == t) else { continue };
            if is_subscribed(t) {
                let size = distinct(list, &mut seen) as u64;
                if size <= quota {
                    quota -= size;
                } else {
                    let old = old.get_or_insert_with(|| Map::from_record(&table, groups.iter().copied()));
                    let Some(set) = old.set(t) else { continue };
                    for p in set.order() {
                        if quota > 0 {
                            quota -= 1;
                        } else {
                            let copy = maps[i].get_or_insert_with(|| old.deep_copy(&table));
                            copy.remove_partition(&table, t, p);
                            unassigned.push((t, p));
                        }
                    }
                }
            } else {
                let old = old.get_or_insert_with(|| Map::from_record(&table, groups.iter().copied()));
                maps[i].get_or_insert_with(|| old.deep_copy(&table)).remove_topic(&table, t);
            }
        }
        if quota > 0 {
            unfilled.push((i, quota));
        }
    }

    // assignRemainingPartitions.
    let mut next = unassigned.into_iter();
    for (i, quota) in unfilled {
        let map = maps[i].get_or_insert_with(|| Map::from_record(&table, records.of(i)).deep_copy(&table));
        for _ in 0..quota {
            let Some((t, p)) = next.next() else { break };
            map.add(&table, t, p);
        }
    }

    let mut record: Vec<(u32, u32)> = Vec::new();
    for (i, map) in maps.iter().enumerate() {
        match map {
            None => {
                // Unchanged: the old record's partitions (each once).
                let mut target: Vec<(u32, u32)> = records.of(i).flat_map(|(t, ps)| ps.iter().map(move |p| (t, *p))).collect();
                target.sort_unstable();
                target.dedup();
                builder.push(&table.names, target, None);
            }
            Some(map) => {
                record.clear();
                map.write(&mut record);
                let mut target = record.clone();
                target.sort_unstable();
                let mut old: Vec<(u32, u32)> = records.of(i).flat_map(|(t, ps)| ps.iter().map(move |p| (t, *p))).collect();
                old.sort_unstable();
                old.dedup();
                let changed = old != target;
                builder.push(&table.names, target, changed.then_some(record.as_slice()));
            }
        }
    }
    builder.finish(table.names)
}

/// How many distinct partitions `list` holds (`new HashSet<>(list).size()`); `seen` is scratch.
fn distinct(list: &[u32], seen: &mut Vec<bool>) -> usize {
    if list.len() < 2 {
        return list.len();
    }
    let Some(&max) = list.iter().max() else { return 0 };
    if seen.len() <= max as usize {
        seen.resize(max as usize + 1, false);
    }
    let mut count = 0;
    for &p in list {
        if !seen[p as usize] {
            seen[p as usize] = true;
            count += 1;
        }
    }
    for &p in list {
        seen[p as usize] = false;
    }
    count
}
