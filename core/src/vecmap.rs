//! Sorted maps and sets kept in one `Vec`: the part of `BTreeMap`'s and `BTreeSet`'s API the
//! model uses, with the same iteration order and a fraction of their code.
//!
//! Why: every distinct key/value type of a `BTreeMap` is a full copy of its node code
//! (search, insert with splits, remove with merges, clone and drop of a tree) — about
//! 4 KB before wasm-opt each, 70 KB gzipped for the model's ~70 map types in the page
//! (BENCHMARKS.md, "Bundle"). A sorted `Vec` needs a binary search and a memmove.
//!
//! When: for the model's many small maps (brokers, topics, groups, members, partitions of
//! one group, producers' partitions), whose size is bounded by what a scenario declares.
//! Insertion and removal are O(n) — keep `BTreeMap` for maps that grow with the run (the
//! event queue, per-record bookkeeping). Appending a key greater than every key is O(1).
//!
//! Semantics equal to `BTreeMap`/`BTreeSet` (a property test compares them operation by
//! operation): keys unique and ascending; `insert` of an existing key replaces the value and
//! keeps the stored key; `extend`/`collect` keep the last value of a repeated key.

use std::borrow::Borrow;
use std::fmt;
use std::ops::{Bound, Index, RangeBounds};

/// A map sorted by key (see the module doc).
#[derive(Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct VecMap<K, V> {
    entries: Vec<(K, V)>,
}

impl<K, V> Default for VecMap<K, V> {
    fn default() -> Self {
        VecMap { entries: Vec::new() }
    }
}

impl<K: fmt::Debug, V: fmt::Debug> fmt::Debug for VecMap<K, V> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_map().entries(self.entries.iter().map(|(k, v)| (k, v))).finish()
    }
}

/// Where `key` is (`Ok`) or would go (`Err`).
#[inline]
fn search<K: Borrow<Q>, V, Q: Ord + ?Sized>(entries: &[(K, V)], key: &Q) -> Result<usize, usize> {
    // The common cases first: empty, or a key past the end (keys often arrive in order).
    match entries.last() {
        None => return Err(0),
        Some((last, _)) if last.borrow() < key => return Err(entries.len()),
        _ => {}
    }
    entries.binary_search_by(|(k, _)| k.borrow().cmp(key))
}

/// The first index whose key is not before the bound's start, and the first past its end.
fn bounds<K: Borrow<Q>, V, Q: Ord + ?Sized>(entries: &[(K, V)], range: &impl RangeBounds<Q>) -> (usize, usize) {
    let start = match range.start_bound() {
        Bound::Included(s) => entries.partition_point(|(k, _)| k.borrow() < s),
        Bound::Excluded(s) => entries.partition_point(|(k, _)| k.borrow() <= s),
        Bound::Unbounded => 0,
    };
    let end = match range.end_bound() {
        Bound::Included(e) => entries.partition_point(|(k, _)| k.borrow() <= e),
        Bound::Excluded(e) => entries.partition_point(|(k, _)| k.borrow() < e),
        Bound::Unbounded => entries.len(),
    };
    // BTreeMap panics on an inverted range; an empty range here.
    (start, end.max(start))
}

impl<K, V> VecMap<K, V> {
    pub const fn new() -> Self {
        VecMap { entries: Vec::new() }
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    pub fn clear(&mut self) {
        self.entries.clear();
    }

    pub fn iter(&self) -> Iter<'_, K, V> {
        Iter(self.entries.iter())
    }

    pub fn iter_mut(&mut self) -> IterMut<'_, K, V> {
        IterMut(self.entries.iter_mut())
    }

    pub fn keys(&self) -> Keys<'_, K, V> {
        Keys(self.entries.iter())
    }

    pub fn values(&self) -> Values<'_, K, V> {
        Values(self.entries.iter())
    }

    pub fn values_mut(&mut self) -> ValuesMut<'_, K, V> {
        ValuesMut(self.entries.iter_mut())
    }

    pub fn first_key_value(&self) -> Option<(&K, &V)> {
        self.entries.first().map(|(k, v)| (k, v))
    }

    pub fn last_key_value(&self) -> Option<(&K, &V)> {
        self.entries.last().map(|(k, v)| (k, v))
    }

    pub fn pop_first(&mut self) -> Option<(K, V)> {
        if self.entries.is_empty() {
            None
        } else {
            Some(self.entries.remove(0))
        }
    }

    pub fn pop_last(&mut self) -> Option<(K, V)> {
        self.entries.pop()
    }

    /// Keeps the entries for which `keep` is true, in order.
    pub fn retain(&mut self, mut keep: impl FnMut(&K, &mut V) -> bool) {
        self.entries.retain_mut(|(k, v)| keep(k, v));
    }
}

impl<K: Ord, V> VecMap<K, V> {
    pub fn get<Q: Ord + ?Sized>(&self, key: &Q) -> Option<&V>
    where
        K: Borrow<Q>,
    {
        search(&self.entries, key).ok().map(|i| &self.entries[i].1)
    }

    pub fn get_mut<Q: Ord + ?Sized>(&mut self, key: &Q) -> Option<&mut V>
    where
        K: Borrow<Q>,
    {
        match search(&self.entries, key) {
            Ok(i) => Some(&mut self.entries[i].1),
            Err(_) => None,
        }
    }

    pub fn contains_key<Q: Ord + ?Sized>(&self, key: &Q) -> bool
    where
        K: Borrow<Q>,
    {
        search(&self.entries, key).is_ok()
    }

    /// Inserts or replaces; returns the value replaced (the stored key is kept, as in
    /// `BTreeMap`).
    pub fn insert(&mut self, key: K, value: V) -> Option<V> {
        match search(&self.entries, &key) {
            Ok(i) => Some(std::mem::replace(&mut self.entries[i].1, value)),
            Err(i) => {
                self.entries.insert(i, (key, value));
                None
            }
        }
    }

    pub fn remove<Q: Ord + ?Sized>(&mut self, key: &Q) -> Option<V>
    where
        K: Borrow<Q>,
    {
        match search(&self.entries, key) {
            Ok(i) => Some(self.entries.remove(i).1),
            Err(_) => None,
        }
    }

    pub fn entry(&mut self, key: K) -> Entry<'_, K, V> {
        match search(&self.entries, &key) {
            Ok(index) => Entry::Occupied(OccupiedEntry { map: self, index }),
            Err(index) => Entry::Vacant(VacantEntry { map: self, index, key }),
        }
    }

    pub fn range<Q: Ord + ?Sized, R: RangeBounds<Q>>(&self, range: R) -> Iter<'_, K, V>
    where
        K: Borrow<Q>,
    {
        let (start, end) = bounds(&self.entries, &range);
        Iter(self.entries[start..end].iter())
    }

    /// Moves every entry with a key at or after `key` into a new map.
    pub fn split_off<Q: Ord + ?Sized>(&mut self, key: &Q) -> Self
    where
        K: Borrow<Q>,
    {
        let at = self.entries.partition_point(|(k, _)| k.borrow() < key);
        VecMap { entries: self.entries.split_off(at) }
    }
}

impl<K: Ord, V> Extend<(K, V)> for VecMap<K, V> {
    fn extend<I: IntoIterator<Item = (K, V)>>(&mut self, items: I) {
        for (k, v) in items {
            self.insert(k, v);
        }
    }
}

impl<K: Ord, V> FromIterator<(K, V)> for VecMap<K, V> {
    /// Inserts one by one: O(n) for entries in key order (the usual case here), O(n²) at
    /// worst — which is why large, unordered maps stay `BTreeMap`s. (Sorting first costs
    /// a sort per entry type in the wasm: more code than it saves for maps this small.)
    fn from_iter<I: IntoIterator<Item = (K, V)>>(items: I) -> Self {
        let mut map = VecMap::new();
        map.extend(items);
        map
    }
}

impl<K: Ord, V, const N: usize> From<[(K, V); N]> for VecMap<K, V> {
    fn from(items: [(K, V); N]) -> Self {
        items.into_iter().collect()
    }
}

impl<K: Ord + Borrow<Q>, V, Q: Ord + ?Sized> Index<&Q> for VecMap<K, V> {
    type Output = V;

    /// Panics when the key is absent, as `BTreeMap`'s does.
    fn index(&self, key: &Q) -> &V {
        self.get(key).expect("no entry found for key")
    }
}

/// A place in a map for one key, as `btree_map::Entry`.
#[non_exhaustive]
pub enum Entry<'a, K, V> {
    Occupied(OccupiedEntry<'a, K, V>),
    Vacant(VacantEntry<'a, K, V>),
}

pub struct OccupiedEntry<'a, K, V> {
    map: &'a mut VecMap<K, V>,
    index: usize,
}

pub struct VacantEntry<'a, K, V> {
    map: &'a mut VecMap<K, V>,
    index: usize,
    key: K,
}

impl<'a, K, V> Entry<'a, K, V> {
    pub fn or_insert(self, default: V) -> &'a mut V {
        self.or_insert_with(|| default)
    }

    pub fn or_insert_with(self, default: impl FnOnce() -> V) -> &'a mut V {
        match self {
            Entry::Occupied(o) => o.into_mut(),
            Entry::Vacant(v) => v.insert(default()),
        }
    }

    pub fn or_default(self) -> &'a mut V
    where
        V: Default,
    {
        self.or_insert_with(V::default)
    }

    pub fn and_modify(self, f: impl FnOnce(&mut V)) -> Self {
        match self {
            Entry::Occupied(mut o) => {
                f(o.get_mut());
                Entry::Occupied(o)
            }
            v => v,
        }
    }
}

impl<'a, K, V> OccupiedEntry<'a, K, V> {
    pub fn get_mut(&mut self) -> &mut V {
        &mut self.map.entries[self.index].1
    }

    pub fn into_mut(self) -> &'a mut V {
        &mut self.map.entries[self.index].1
    }
}

impl<'a, K, V> VacantEntry<'a, K, V> {
    pub fn insert(self, value: V) -> &'a mut V {
        self.map.entries.insert(self.index, (self.key, value));
        &mut self.map.entries[self.index].1
    }
}

macro_rules! iterator {
    ($name:ident, $inner:ident, $item:ty, |$e:ident| $map:expr) => {
        pub struct $name<'a, K, V>(std::slice::$inner<'a, (K, V)>);

        impl<'a, K, V> Iterator for $name<'a, K, V> {
            type Item = $item;

            fn next(&mut self) -> Option<Self::Item> {
                self.0.next().map(|$e| $map)
            }

            fn size_hint(&self) -> (usize, Option<usize>) {
                self.0.size_hint()
            }

            fn nth(&mut self, n: usize) -> Option<Self::Item> {
                self.0.nth(n).map(|$e| $map)
            }
        }

        impl<'a, K, V> DoubleEndedIterator for $name<'a, K, V> {
            fn next_back(&mut self) -> Option<Self::Item> {
                self.0.next_back().map(|$e| $map)
            }
        }

        impl<'a, K, V> ExactSizeIterator for $name<'a, K, V> {}
        impl<'a, K, V> std::iter::FusedIterator for $name<'a, K, V> {}
    };
}

iterator!(Iter, Iter, (&'a K, &'a V), |e| (&e.0, &e.1));
iterator!(IterMut, IterMut, (&'a K, &'a mut V), |e| (&e.0, &mut e.1));
iterator!(Keys, Iter, &'a K, |e| &e.0);
iterator!(Values, Iter, &'a V, |e| &e.1);
iterator!(ValuesMut, IterMut, &'a mut V, |e| &mut e.1);

impl<K, V> Clone for Iter<'_, K, V> {
    fn clone(&self) -> Self {
        Iter(self.0.clone())
    }
}

impl<K, V> Clone for Keys<'_, K, V> {
    fn clone(&self) -> Self {
        Keys(self.0.clone())
    }
}

impl<K, V> Clone for Values<'_, K, V> {
    fn clone(&self) -> Self {
        Values(self.0.clone())
    }
}

impl<'a, K, V> IntoIterator for &'a VecMap<K, V> {
    type Item = (&'a K, &'a V);
    type IntoIter = Iter<'a, K, V>;

    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

impl<'a, K, V> IntoIterator for &'a mut VecMap<K, V> {
    type Item = (&'a K, &'a mut V);
    type IntoIter = IterMut<'a, K, V>;

    fn into_iter(self) -> Self::IntoIter {
        self.iter_mut()
    }
}

impl<K, V> IntoIterator for VecMap<K, V> {
    type Item = (K, V);
    type IntoIter = std::vec::IntoIter<(K, V)>;

    fn into_iter(self) -> Self::IntoIter {
        self.entries.into_iter()
    }
}

/// A set sorted by value (see the module doc): a [`VecMap`] without values.
#[derive(Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct VecSet<T> {
    items: Vec<T>,
}

impl<T> Default for VecSet<T> {
    fn default() -> Self {
        VecSet { items: Vec::new() }
    }
}

impl<T: fmt::Debug> fmt::Debug for VecSet<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_set().entries(self.items.iter()).finish()
    }
}

#[inline]
fn search_set<T: Borrow<Q>, Q: Ord + ?Sized>(items: &[T], value: &Q) -> Result<usize, usize> {
    match items.last() {
        None => return Err(0),
        Some(last) if last.borrow() < value => return Err(items.len()),
        _ => {}
    }
    items.binary_search_by(|t| t.borrow().cmp(value))
}

impl<T> VecSet<T> {
    pub const fn new() -> Self {
        VecSet { items: Vec::new() }
    }

    pub fn len(&self) -> usize {
        self.items.len()
    }

    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }

    pub fn clear(&mut self) {
        self.items.clear();
    }

    pub fn iter(&self) -> std::slice::Iter<'_, T> {
        self.items.iter()
    }

    pub fn first(&self) -> Option<&T> {
        self.items.first()
    }

    pub fn pop_first(&mut self) -> Option<T> {
        if self.items.is_empty() {
            None
        } else {
            Some(self.items.remove(0))
        }
    }

    pub fn pop_last(&mut self) -> Option<T> {
        self.items.pop()
    }

    pub fn retain(&mut self, keep: impl FnMut(&T) -> bool) {
        self.items.retain(keep);
    }
}

impl<T: Ord> VecSet<T> {
    pub fn contains<Q: Ord + ?Sized>(&self, value: &Q) -> bool
    where
        T: Borrow<Q>,
    {
        search_set(&self.items, value).is_ok()
    }

    /// Adds the value; false if it was there (the stored one is kept, as in `BTreeSet`).
    pub fn insert(&mut self, value: T) -> bool {
        match search_set(&self.items, &value) {
            Ok(_) => false,
            Err(i) => {
                self.items.insert(i, value);
                true
            }
        }
    }

    pub fn remove<Q: Ord + ?Sized>(&mut self, value: &Q) -> bool
    where
        T: Borrow<Q>,
    {
        match search_set(&self.items, value) {
            Ok(i) => {
                self.items.remove(i);
                true
            }
            Err(_) => false,
        }
    }

    pub fn range<Q: Ord + ?Sized, R: RangeBounds<Q>>(&self, range: R) -> std::slice::Iter<'_, T>
    where
        T: Borrow<Q>,
    {
        let start = match range.start_bound() {
            Bound::Included(s) => self.items.partition_point(|t| t.borrow() < s),
            Bound::Excluded(s) => self.items.partition_point(|t| t.borrow() <= s),
            Bound::Unbounded => 0,
        };
        let end = match range.end_bound() {
            Bound::Included(e) => self.items.partition_point(|t| t.borrow() <= e),
            Bound::Excluded(e) => self.items.partition_point(|t| t.borrow() < e),
            Bound::Unbounded => self.items.len(),
        };
        self.items[start..end.max(start)].iter()
    }
}

impl<T: Ord> Extend<T> for VecSet<T> {
    fn extend<I: IntoIterator<Item = T>>(&mut self, items: I) {
        for t in items {
            self.insert(t);
        }
    }
}

impl<'a, T: Ord + Copy + 'a> Extend<&'a T> for VecSet<T> {
    fn extend<I: IntoIterator<Item = &'a T>>(&mut self, items: I) {
        for t in items {
            self.insert(*t);
        }
    }
}

impl<T: Ord> FromIterator<T> for VecSet<T> {
    /// Inserts one by one, as [`VecMap`]'s `collect`.
    fn from_iter<I: IntoIterator<Item = T>>(items: I) -> Self {
        let mut set = VecSet::new();
        set.extend(items);
        set
    }
}

impl<T: Ord, const N: usize> From<[T; N]> for VecSet<T> {
    fn from(items: [T; N]) -> Self {
        items.into_iter().collect()
    }
}

impl<'a, T> IntoIterator for &'a VecSet<T> {
    type Item = &'a T;
    type IntoIter = std::slice::Iter<'a, T>;

    fn into_iter(self) -> Self::IntoIter {
        self.items.iter()
    }
}

impl<T> IntoIterator for VecSet<T> {
    type Item = T;
    type IntoIter = std::vec::IntoIter<T>;

    fn into_iter(self) -> Self::IntoIter {
        self.items.into_iter()
    }
}

mod serde_impls {
    //! As a JSON object / array, like `BTreeMap` / `BTreeSet` (a repeated key: the last wins).
    use super::{VecMap, VecSet};
    use serde::de::{Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
    use serde::ser::{Serialize, Serializer};
    use std::fmt;
    use std::marker::PhantomData;

    impl<K: Serialize, V: Serialize> Serialize for VecMap<K, V> {
        fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            s.collect_map(self.entries.iter().map(|(k, v)| (k, v)))
        }
    }

    impl<T: Serialize> Serialize for VecSet<T> {
        fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            s.collect_seq(self.items.iter())
        }
    }

    impl<'de, K: Deserialize<'de> + Ord, V: Deserialize<'de>> Deserialize<'de> for VecMap<K, V> {
        fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
            struct MapVisitor<K, V>(PhantomData<(K, V)>);
            impl<'de, K: Deserialize<'de> + Ord, V: Deserialize<'de>> Visitor<'de> for MapVisitor<K, V> {
                type Value = VecMap<K, V>;

                fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                    f.write_str("a map")
                }

                fn visit_map<A: MapAccess<'de>>(self, mut access: A) -> Result<Self::Value, A::Error> {
                    let mut map = VecMap::new();
                    while let Some((k, v)) = access.next_entry()? {
                        map.insert(k, v);
                    }
                    Ok(map)
                }
            }
            d.deserialize_map(MapVisitor(PhantomData))
        }
    }

    impl<'de, T: Deserialize<'de> + Ord> Deserialize<'de> for VecSet<T> {
        fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
            struct SetVisitor<T>(PhantomData<T>);
            impl<'de, T: Deserialize<'de> + Ord> Visitor<'de> for SetVisitor<T> {
                type Value = VecSet<T>;

                fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                    f.write_str("a sequence")
                }

                fn visit_seq<A: SeqAccess<'de>>(self, mut access: A) -> Result<Self::Value, A::Error> {
                    let mut set = VecSet::new();
                    while let Some(t) = access.next_element()? {
                        set.insert(t);
                    }
                    Ok(set)
                }
            }
            d.deserialize_seq(SetVisitor(PhantomData))
        }
    }
}

impl<K, V> VecMap<K, V> {}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use std::collections::{BTreeMap, BTreeSet};

    /// One operation on a map and a set, applied to ours and the standard library's.
    #[derive(Clone, Debug)]
    enum Op {
        Insert(u8, u16),
        Remove(u8),
        Entry(u8, u16),
        Retain(u8),
        PopFirst,
        PopLast,
        SplitOff(u8),
        Extend(Vec<(u8, u16)>),
    }

    fn op() -> impl Strategy<Value = Op> {
        // Keys from a small range so inserts hit existing keys and removes find them.
        let key = 0u8..40;
        prop_oneof![
            4 => (key.clone(), any::<u16>()).prop_map(|(k, v)| Op::Insert(k, v)),
            2 => key.clone().prop_map(Op::Remove),
            2 => (key.clone(), any::<u16>()).prop_map(|(k, v)| Op::Entry(k, v)),
            1 => (2u8..5).prop_map(Op::Retain),
            1 => Just(Op::PopFirst),
            1 => Just(Op::PopLast),
            1 => key.clone().prop_map(Op::SplitOff),
            1 => proptest::collection::vec((key, any::<u16>()), 0..6).prop_map(Op::Extend),
        ]
    }

    fn same(ours: &VecMap<u8, u16>, std: &BTreeMap<u8, u16>) -> Result<(), TestCaseError> {
        prop_assert!(ours.iter().eq(std.iter()), "{ours:?} vs {std:?}");
        prop_assert_eq!(ours.len(), std.len());
        prop_assert_eq!(ours.first_key_value(), std.first_key_value());
        prop_assert_eq!(ours.last_key_value(), std.last_key_value());
        prop_assert!(ours.keys().rev().eq(std.keys().rev()));
        for k in 0..42u8 {
            prop_assert_eq!(ours.get(&k), std.get(&k));
            prop_assert_eq!(ours.contains_key(&k), std.contains_key(&k));
            prop_assert!(ours.range(k..).eq(std.range(k..)), "range {k}..");
            prop_assert!(ours.range(..=k).eq(std.range(..=k)), "range ..={k}");
            prop_assert!(ours.range(k / 2..k).eq(std.range(k / 2..k)), "range {}..{k}", k / 2);
            // (BTreeMap panics on a range whose ends are equal and both excluded.)
            if k > 0 {
                let (lo, hi) = (Bound::Excluded(k / 3), Bound::Excluded(k));
                prop_assert!(ours.range((lo, hi)).eq(std.range((lo, hi))), "range ({}, {k}) exclusive", k / 3);
            }
        }
        Ok(())
    }

    proptest! {
        #[test]
        fn a_map_behaves_as_btreemap(ops in proptest::collection::vec(op(), 0..120)) {
            let mut ours = VecMap::new();
            let mut std = BTreeMap::new();
            let mut set = VecSet::new();
            let mut std_set = BTreeSet::new();
            for op in ops {
                match op {
                    Op::Insert(k, v) => {
                        prop_assert_eq!(ours.insert(k, v), std.insert(k, v));
                        prop_assert_eq!(set.insert(k), std_set.insert(k));
                    }
                    Op::Remove(k) => {
                        prop_assert_eq!(ours.remove(&k), std.remove(&k));
                        prop_assert_eq!(set.remove(&k), std_set.remove(&k));
                    }
                    Op::Entry(k, v) => {
                        *ours.entry(k).and_modify(|x| *x = x.wrapping_add(v)).or_insert(v) ^= 1;
                        *std.entry(k).and_modify(|x| *x = x.wrapping_add(v)).or_insert(v) ^= 1;
                    }
                    Op::Retain(m) => {
                        ours.retain(|k, v| (*k as u16).wrapping_add(*v) % m as u16 != 0);
                        std.retain(|k, v| (*k as u16).wrapping_add(*v) % m as u16 != 0);
                        set.retain(|k| k % m != 0);
                        std_set.retain(|k| k % m != 0);
                    }
                    Op::PopFirst => {
                        prop_assert_eq!(ours.pop_first(), std.pop_first());
                        prop_assert_eq!(set.pop_first(), std_set.pop_first());
                    }
                    Op::PopLast => {
                        prop_assert_eq!(ours.pop_last(), std.pop_last());
                        prop_assert_eq!(set.pop_last(), std_set.pop_last());
                    }
                    Op::SplitOff(k) => {
                        let (a, b) = (ours.split_off(&k), std.split_off(&k));
                        same(&a, &b)?;
                        // Put half of it back, so the maps keep growing.
                        ours.extend(a.into_iter().step_by(2));
                        std.extend(b.into_iter().step_by(2));
                    }
                    Op::Extend(items) => {
                        ours.extend(items.iter().copied());
                        std.extend(items.iter().copied());
                        set.extend(items.iter().map(|(k, _)| *k));
                        std_set.extend(items.iter().map(|(k, _)| *k));
                    }
                }
                same(&ours, &std)?;
                prop_assert!(set.iter().eq(std_set.iter()), "{set:?} vs {std_set:?}");
                for k in 0..42u8 {
                    prop_assert_eq!(set.contains(&k), std_set.contains(&k));
                    prop_assert!(set.range(k..).eq(std_set.range(k..)));
                    prop_assert!(set.range(..k).eq(std_set.range(..k)));
                }
            }
            let collected: VecMap<u8, u16> = std.iter().rev().map(|(k, v)| (*k, *v)).collect();
            same(&collected, &std)?;
        }

        #[test]
        fn collect_keeps_the_last_value_of_a_repeated_key(items in proptest::collection::vec((0u8..20, any::<u16>()), 0..60)) {
            let ours: VecMap<u8, u16> = items.iter().copied().collect();
            let std: BTreeMap<u8, u16> = items.iter().copied().collect();
            same(&ours, &std)?;
            let ours: VecSet<u8> = items.iter().map(|(k, _)| *k).collect();
            let std: BTreeSet<u8> = items.iter().map(|(k, _)| *k).collect();
            prop_assert!(ours.iter().eq(std.iter()));
        }
    }

    #[test]
    fn json_as_btreemap_and_btreeset() {
        let std: BTreeMap<String, u32> = [("b".to_string(), 2), ("a".to_string(), 1)].into();
        let ours: VecMap<String, u32> = [("b".to_string(), 2), ("a".to_string(), 1)].into();
        assert_eq!(serde_json::to_string(&ours).unwrap(), serde_json::to_string(&std).unwrap());
        assert_eq!(serde_json::to_string(&ours).unwrap(), r#"{"a":1,"b":2}"#);
        let back: VecMap<String, u32> = serde_json::from_str(r#"{"b":2,"a":1,"b":3}"#).unwrap();
        assert_eq!(back.iter().collect::<Vec<_>>(), vec![(&"a".to_string(), &1), (&"b".to_string(), &3)], "the last value wins");
        let set: VecSet<u32> = serde_json::from_str("[3,1,3]").unwrap();
        assert_eq!(serde_json::to_string(&set).unwrap(), "[1,3]");
    }

    #[test]
    fn string_keys_are_found_by_str() {
        let mut m: VecMap<String, u32> = VecMap::new();
        m.insert("Consumer2".into(), 2);
        m.insert("Consumer1".into(), 1);
        assert_eq!(m.get("Consumer1"), Some(&1));
        assert_eq!(m["Consumer2"], 2);
        assert_eq!(m.remove("Consumer1"), Some(1));
        assert_eq!(m.len(), 1);
    }
}
