//! A persistent ordered map (and set) for keys that mostly arrive in order: entries in
//! sorted chunks of at most `N` entries, each chunk behind an [`Arc`].
//!
//! Why: the page's time travel keeps up to 48 clones of the whole `Sim` (`history.rs`),
//! and the guarantee monitors (`monitor.rs`) keep per-record maps of tens of thousands of
//! entries. A clone of a `BTreeMap` copies every node; a clone of a [`ChunkedMap`] copies
//! only its `Vec` of chunk pointers, and a later change copies at most the one chunk it
//! touches (`Arc::make_mut`), so successive checkpoints share every chunk the run did not
//! write between them. The replica logs hold their records the same way
//! (`log/records.rs`).
//!
//! When: maps that grow with the run and are written near their end (record ids and
//! offsets grow) and trimmed at their start (bounds, retention). Inserting past the last
//! key is O(1) amortised; inserting or removing elsewhere is a binary search over the
//! chunks, one in the chunk, and a move of at most `N` entries; a chunk that overflows
//! splits in two, an emptied chunk is dropped. Nothing else rebalances: a map that was
//! thinned in the middle keeps small chunks, which is correct, only less compact.
//!
//! Semantics equal to `BTreeMap`/`BTreeSet` for the operations it has (a property test
//! compares them operation by operation, also across clones changed independently):
//! keys unique and ascending; `insert` of an existing key replaces the value and keeps
//! the stored key. One difference: a range whose start is after its end is empty here,
//! where `BTreeMap::range` panics.

use std::fmt;
use std::mem;
use std::ops::{Bound, RangeBounds};
use std::sync::Arc;

/// Entries per chunk by default: a clone's first change to a chunk copies at most this
/// many entries.
pub const CHUNK: usize = 256;

/// An ordered map in shared chunks (see the module's doc). `N` is the most entries a chunk
/// holds (at least 2).
///
/// Invariants: every chunk is non-empty and holds at most `N` entries; keys ascend
/// strictly within a chunk and from one chunk to the next; `len` is the sum of the chunks'
/// lengths.
pub struct ChunkedMap<K, V, const N: usize = CHUNK> {
    chunks: Vec<Arc<Vec<(K, V)>>>,
    len: usize,
}

impl<K, V, const N: usize> Clone for ChunkedMap<K, V, N> {
    /// Copies the chunk pointers only: the clone shares every chunk.
    fn clone(&self) -> Self {
        Self { chunks: self.chunks.clone(), len: self.len }
    }
}

impl<K, V, const N: usize> Default for ChunkedMap<K, V, N> {
    fn default() -> Self {
        Self::new()
    }
}

impl<K: fmt::Debug, V: fmt::Debug, const N: usize> fmt::Debug for ChunkedMap<K, V, N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_map().entries(self.iter()).finish()
    }
}

impl<K: PartialEq, V: PartialEq, const N: usize> PartialEq for ChunkedMap<K, V, N> {
    /// Equal content, however it is chunked.
    fn eq(&self, other: &Self) -> bool {
        self.len == other.len && self.iter().eq(other.iter())
    }
}

impl<K: Eq, V: Eq, const N: usize> Eq for ChunkedMap<K, V, N> {}

/// Where a chunk's entries can be changed: the chunk itself when no clone shares it,
/// otherwise a copy with room for `capacity` entries (the last chunk gets room for a whole
/// chunk, since the next appends go there too; others just their entries).
fn chunk_mut<T: Clone>(chunk: &mut Arc<Vec<T>>, capacity: usize) -> &mut Vec<T> {
    if Arc::get_mut(chunk).is_none() {
        let mut copy = Vec::with_capacity(capacity.max(chunk.len()));
        copy.extend(chunk.iter().cloned());
        *chunk = Arc::new(copy);
    }
    Arc::make_mut(chunk)
}

impl<K, V, const N: usize> ChunkedMap<K, V, N> {
    /// An empty map (allocates nothing).
    pub const fn new() -> Self {
        Self { chunks: Vec::new(), len: 0 }
    }

    /// How many entries.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether it has no entry.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The entries in key order.
    pub fn iter(&self) -> impl DoubleEndedIterator<Item = (&K, &V)> + '_ {
        self.chunks.iter().flat_map(|c| c.iter()).map(|(k, v)| (k, v))
    }

    /// The keys in order.
    pub fn keys(&self) -> impl DoubleEndedIterator<Item = &K> + '_ {
        self.iter().map(|(k, _)| k)
    }

    /// The values in key order.
    pub fn values(&self) -> impl DoubleEndedIterator<Item = &V> + '_ {
        self.iter().map(|(_, v)| v)
    }

    /// The entry with the smallest key.
    pub fn first_key_value(&self) -> Option<(&K, &V)> {
        self.chunks.first().and_then(|c| c.first()).map(|(k, v)| (k, v))
    }

    /// The entry with the largest key.
    pub fn last_key_value(&self) -> Option<(&K, &V)> {
        self.chunks.last().and_then(|c| c.last()).map(|(k, v)| (k, v))
    }

    /// How many chunks this map shares with `other` (the same allocations): what a clone
    /// still has in common with the map it was cloned from.
    pub fn shared_chunks(&self, other: &Self) -> usize {
        // The other's chunk addresses, sorted, to look each of ours up in.
        let mut theirs: Vec<*const Vec<(K, V)>> = other.chunks.iter().map(Arc::as_ptr).collect();
        theirs.sort_unstable();
        self.chunks.iter().filter(|c| theirs.binary_search(&Arc::as_ptr(c)).is_ok()).count()
    }

    /// How many chunks it holds.
    pub fn chunk_count(&self) -> usize {
        self.chunks.len()
    }
}

impl<K: Ord, V, const N: usize> ChunkedMap<K, V, N> {
    /// The place of the first entry for which `before` is false (`before` must hold for a
    /// prefix of the keys): (chunk, index in it), or (chunk count, 0) past the end.
    fn position(&self, before: impl Fn(&K) -> bool) -> (usize, usize) {
        let c = self.chunks.partition_point(|ch| ch.last().is_some_and(|(k, _)| before(k)));
        match self.chunks.get(c) {
            Some(ch) => (c, ch.partition_point(|(k, _)| before(k))),
            None => (c, 0),
        }
    }

    /// The chunk and index of `key`, if present.
    fn find(&self, key: &K) -> Option<(usize, usize)> {
        let (c, i) = self.position(|k| k < key);
        let ch = self.chunks.get(c)?;
        match ch.get(i) {
            Some((k, _)) if k == key => Some((c, i)),
            _ => None,
        }
    }

    /// The value of `key`.
    pub fn get(&self, key: &K) -> Option<&V> {
        let (c, i) = self.find(key)?;
        self.chunks.get(c).and_then(|ch| ch.get(i)).map(|(_, v)| v)
    }

    /// Whether `key` is present.
    pub fn contains_key(&self, key: &K) -> bool {
        self.find(key).is_some()
    }

    /// The entries whose keys are in `range`, in key order (empty if its start is after
    /// its end).
    pub fn range(&self, range: impl RangeBounds<K>) -> impl DoubleEndedIterator<Item = (&K, &V)> + '_ {
        let (cs, is) = match range.start_bound() {
            Bound::Included(s) => self.position(|k| k < s),
            Bound::Excluded(s) => self.position(|k| k <= s),
            Bound::Unbounded => (0, 0),
        };
        let (ce, ie) = match range.end_bound() {
            Bound::Included(e) => self.position(|k| k <= e),
            Bound::Excluded(e) => self.position(|k| k < e),
            Bound::Unbounded => (self.chunks.len(), 0),
        };
        // Chunks cs..last, the first cut at `is`, the one at `ce` cut at `ie`.
        let (cs, last) = if (cs, is) < (ce, ie) { (cs, if ie == 0 { ce } else { ce + 1 }) } else { (0, 0) };
        let chunks = &self.chunks;
        (cs..last)
            .flat_map(move |c| {
                let ch = chunks[c].as_slice();
                let lo = if c == cs { is } else { 0 };
                let hi = if c == ce { ie } else { ch.len() };
                &ch[lo..hi]
            })
            .map(|(k, v)| (k, v))
    }
}

impl<K: Ord + Clone, V: Clone, const N: usize> ChunkedMap<K, V, N> {
    /// The value of `key`, to change (copies its chunk first if a clone shares it).
    pub fn get_mut(&mut self, key: &K) -> Option<&mut V> {
        let (c, i) = self.find(key)?;
        chunk_mut(&mut self.chunks[c], 0).get_mut(i).map(|(_, v)| v)
    }

    /// The value of `key`, to change, inserted first as `make()` if absent (as
    /// `BTreeMap::entry(key).or_insert_with(make)`).
    pub fn get_or_insert_with(&mut self, key: K, make: impl FnOnce() -> V) -> &mut V {
        let (c, i) = match self.find(&key) {
            Some(at) => at,
            None => {
                self.insert(key.clone(), make());
                // Just inserted, so found (the fallback is never taken).
                self.find(&key).unwrap_or((0, 0))
            }
        };
        let chunk = chunk_mut(&mut self.chunks[c], 0);
        &mut chunk[i].1
    }

    /// Inserts `value` at `key`; returns the value it replaced (the stored key is kept).
    pub fn insert(&mut self, key: K, value: V) -> Option<V> {
        // The common case first: a key past the end.
        match self.chunks.last_mut() {
            None => {
                let mut chunk = Vec::with_capacity(N);
                chunk.push((key, value));
                self.chunks.push(Arc::new(chunk));
                self.len = 1;
                return None;
            }
            Some(last) if last.last().is_some_and(|(k, _)| *k < key) => {
                if last.len() < N {
                    chunk_mut(last, N).push((key, value));
                } else {
                    let mut chunk = Vec::with_capacity(N);
                    chunk.push((key, value));
                    self.chunks.push(Arc::new(chunk));
                }
                self.len += 1;
                return None;
            }
            Some(_) => {}
        }
        // Not past the last key, so some chunk's last key is at least `key`.
        let (c, i) = self.position(|k| *k < key);
        let chunk = chunk_mut(&mut self.chunks[c], 0);
        if chunk.get(i).is_some_and(|(k, _)| *k == key) {
            return Some(mem::replace(&mut chunk[i].1, value));
        }
        chunk.insert(i, (key, value));
        if chunk.len() > N {
            let mut tail = Vec::with_capacity(N);
            tail.extend(chunk.drain(chunk.len() / 2..));
            self.chunks.insert(c + 1, Arc::new(tail));
        }
        self.len += 1;
        None
    }

    /// Removes `key`; returns its value.
    pub fn remove(&mut self, key: &K) -> Option<V> {
        let (c, i) = self.find(key)?;
        let chunk = chunk_mut(&mut self.chunks[c], 0);
        let (_, v) = chunk.remove(i);
        if chunk.is_empty() {
            self.chunks.remove(c);
        }
        self.len -= 1;
        Some(v)
    }

    /// Removes the entry with the smallest key.
    pub fn pop_first(&mut self) -> Option<(K, V)> {
        let first = self.chunks.first_mut()?;
        let entry = if first.len() == 1 {
            // The chunk goes: take its entry without copying a shared chunk.
            let chunk = self.chunks.remove(0);
            Arc::try_unwrap(chunk).map_or_else(|shared| shared[0].clone(), |mut own| own.remove(0))
        } else {
            chunk_mut(first, 0).remove(0)
        };
        self.len -= 1;
        Some(entry)
    }

    /// Removes the smallest keys until at most `max` entries are left; returns how many
    /// went. Whole chunks are dropped without being copied; at most one is cut.
    pub fn trim_first(&mut self, max: usize) -> usize {
        let Some(mut excess) = self.len.checked_sub(max).filter(|n| *n > 0) else { return 0 };
        let removed = excess;
        let mut whole = 0;
        while let Some(c) = self.chunks.get(whole).filter(|c| c.len() <= excess) {
            excess -= c.len();
            whole += 1;
        }
        self.chunks.drain(..whole);
        if excess > 0 {
            if let Some(first) = self.chunks.first_mut() {
                chunk_mut(first, 0).drain(..excess);
            }
        }
        self.len -= removed;
        removed
    }

    /// Keeps only the entries for which `keep` holds; chunks where it holds for every
    /// entry stay shared.
    pub fn retain(&mut self, mut keep: impl FnMut(&K, &V) -> bool) {
        let mut len = 0;
        for chunk in &mut self.chunks {
            // `keep` is asked once per entry, in order, as `BTreeMap::retain` does; a chunk
            // is copied (if shared) only from its first entry that goes.
            if let Some(first_out) = chunk.iter().position(|(k, v)| !keep(k, v)) {
                let mut i = 0;
                chunk_mut(chunk, 0).retain(|(k, v)| {
                    let stays = i < first_out || (i > first_out && keep(k, v));
                    i += 1;
                    stays
                });
            }
            len += chunk.len();
        }
        self.chunks.retain(|c| !c.is_empty());
        self.len = len;
    }

    /// Splits at `key`: keeps the keys before it and returns those from it on.
    pub fn split_off(&mut self, key: &K) -> Self {
        let (c, i) = self.position(|k| k < key);
        let mut tail: Vec<Arc<Vec<(K, V)>>> = if c < self.chunks.len() { self.chunks.split_off(c) } else { Vec::new() };
        if i > 0 {
            // Chunk `c` straddles the split: its first `i` entries stay here.
            if let Some(straddling) = tail.first_mut() {
                let chunk = chunk_mut(straddling, 0);
                let mut head = Vec::with_capacity(N);
                head.extend(chunk.drain(..i));
                self.chunks.push(Arc::new(head));
            }
        }
        let tail_len: usize = tail.iter().map(|c| c.len()).sum();
        self.len -= tail_len;
        Self { chunks: tail, len: tail_len }
    }
}

/// An ordered set in shared chunks: a [`ChunkedMap`] to `()`.
pub struct ChunkedSet<K, const N: usize = CHUNK> {
    map: ChunkedMap<K, (), N>,
}

impl<K, const N: usize> Clone for ChunkedSet<K, N> {
    /// Copies the chunk pointers only: the clone shares every chunk.
    fn clone(&self) -> Self {
        Self { map: self.map.clone() }
    }
}

impl<K, const N: usize> Default for ChunkedSet<K, N> {
    fn default() -> Self {
        Self::new()
    }
}

impl<K: fmt::Debug, const N: usize> fmt::Debug for ChunkedSet<K, N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_set().entries(self.iter()).finish()
    }
}

impl<K: PartialEq, const N: usize> PartialEq for ChunkedSet<K, N> {
    fn eq(&self, other: &Self) -> bool {
        self.map == other.map
    }
}

impl<K: Eq, const N: usize> Eq for ChunkedSet<K, N> {}

impl<K, const N: usize> ChunkedSet<K, N> {
    /// An empty set (allocates nothing).
    pub const fn new() -> Self {
        Self { map: ChunkedMap::new() }
    }

    /// How many keys.
    pub fn len(&self) -> usize {
        self.map.len()
    }

    /// Whether it has no key.
    pub fn is_empty(&self) -> bool {
        self.map.is_empty()
    }

    /// The keys in order.
    pub fn iter(&self) -> impl DoubleEndedIterator<Item = &K> + '_ {
        self.map.keys()
    }

    /// The smallest key.
    pub fn first(&self) -> Option<&K> {
        self.map.first_key_value().map(|(k, _)| k)
    }

    /// The largest key.
    pub fn last(&self) -> Option<&K> {
        self.map.last_key_value().map(|(k, _)| k)
    }

    /// How many chunks it holds.
    pub fn chunk_count(&self) -> usize {
        self.map.chunk_count()
    }

    /// How many chunks this set shares with `other` ([`ChunkedMap::shared_chunks`]).
    pub fn shared_chunks(&self, other: &Self) -> usize {
        self.map.shared_chunks(&other.map)
    }
}

impl<K: Ord, const N: usize> ChunkedSet<K, N> {
    /// Whether `key` is in the set.
    pub fn contains(&self, key: &K) -> bool {
        self.map.contains_key(key)
    }

    /// The keys in `range`, in order (empty if its start is after its end).
    pub fn range(&self, range: impl RangeBounds<K>) -> impl DoubleEndedIterator<Item = &K> + '_ {
        self.map.range(range).map(|(k, _)| k)
    }
}

impl<K: Ord + Clone, const N: usize> ChunkedSet<K, N> {
    /// Adds `key`; returns whether it was new.
    pub fn insert(&mut self, key: K) -> bool {
        if self.map.contains_key(&key) {
            return false;
        }
        self.map.insert(key, ());
        true
    }

    /// Removes `key`; returns whether it was there.
    pub fn remove(&mut self, key: &K) -> bool {
        self.map.remove(key).is_some()
    }

    /// Removes the smallest key.
    pub fn pop_first(&mut self) -> Option<K> {
        self.map.pop_first().map(|(k, _)| k)
    }

    /// Removes the smallest keys until at most `max` are left; returns how many went.
    pub fn trim_first(&mut self, max: usize) -> usize {
        self.map.trim_first(max)
    }

    /// Keeps only the keys for which `keep` holds.
    pub fn retain(&mut self, mut keep: impl FnMut(&K) -> bool) {
        self.map.retain(|k, _| keep(k));
    }
}

impl<K: Ord + Clone, V: Clone, const N: usize> FromIterator<(K, V)> for ChunkedMap<K, V, N> {
    /// The last value of a repeated key wins, as in `BTreeMap`'s `collect`.
    fn from_iter<I: IntoIterator<Item = (K, V)>>(items: I) -> Self {
        let mut map = Self::new();
        for (k, v) in items {
            map.insert(k, v);
        }
        map
    }
}

impl<K: Ord + Clone, const N: usize> FromIterator<K> for ChunkedSet<K, N> {
    fn from_iter<I: IntoIterator<Item = K>>(items: I) -> Self {
        let mut set = Self::new();
        for k in items {
            set.insert(k);
        }
        set
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use std::collections::{BTreeMap, BTreeSet};

    /// One operation on a map and a set, applied to ours and the standard library's.
    #[derive(Clone, Debug)]
    enum Op {
        Insert(u16, u32),
        /// Inserts the key one past the largest (the monitors' common case).
        Append(u32),
        Remove(u16),
        GetMut(u16, u32),
        GetOrInsert(u16, u32),
        PopFirst,
        TrimFirst(u16),
        Retain(u16),
        SplitOff(u16),
        /// Clones the map and set; the clone is changed by the next operations in turn
        /// with the original, and each is checked against its own reference.
        Fork,
        /// Drops the newest fork.
        Join,
    }

    const KEYS: u16 = 400;

    fn op() -> impl Strategy<Value = Op> {
        // Keys from a small range so inserts hit existing keys and removes find them.
        let key = 0u16..KEYS;
        prop_oneof![
            4 => (key.clone(), any::<u32>()).prop_map(|(k, v)| Op::Insert(k, v)),
            6 => any::<u32>().prop_map(Op::Append),
            3 => key.clone().prop_map(Op::Remove),
            2 => (key.clone(), any::<u32>()).prop_map(|(k, v)| Op::GetMut(k, v)),
            2 => (key.clone(), any::<u32>()).prop_map(|(k, v)| Op::GetOrInsert(k, v)),
            2 => Just(Op::PopFirst),
            1 => (0u16..KEYS).prop_map(Op::TrimFirst),
            1 => (2u16..9).prop_map(Op::Retain),
            1 => key.prop_map(Op::SplitOff),
            1 => Just(Op::Fork),
            1 => Just(Op::Join),
        ]
    }

    /// A small chunk size, so a few hundred entries make many chunks that split and empty.
    type Map = ChunkedMap<u16, u32, 4>;
    type Set = ChunkedSet<u16, 4>;

    fn check_invariants<K: Ord, V, const N: usize>(m: &ChunkedMap<K, V, N>) -> Result<(), TestCaseError> {
        prop_assert!(m.chunks.iter().all(|c| !c.is_empty() && c.len() <= N), "chunk sizes");
        prop_assert_eq!(m.chunks.iter().map(|c| c.len()).sum::<usize>(), m.len);
        let keys: Vec<&K> = m.keys().collect();
        prop_assert!(keys.windows(2).all(|w| w[0] < w[1]), "keys ascend");
        Ok(())
    }

    fn same(ours: &Map, std: &BTreeMap<u16, u32>, set: &Set, std_set: &BTreeSet<u16>) -> Result<(), TestCaseError> {
        check_invariants(ours)?;
        check_invariants(&set.map)?;
        prop_assert!(ours.iter().eq(std.iter()), "{ours:?} vs {std:?}");
        prop_assert!(ours.iter().rev().eq(std.iter().rev()));
        prop_assert_eq!(ours.len(), std.len());
        prop_assert_eq!(ours.is_empty(), std.is_empty());
        prop_assert_eq!(ours.first_key_value(), std.first_key_value());
        prop_assert_eq!(ours.last_key_value(), std.last_key_value());
        prop_assert!(set.iter().eq(std_set.iter()));
        prop_assert_eq!(set.len(), std_set.len());
        prop_assert_eq!(set.first(), std_set.first());
        prop_assert_eq!(set.last(), std_set.last());
        // Probe keys around every present one and a spread of absent ones.
        let last = std.keys().next_back().copied().unwrap_or(0);
        let probes: Vec<u16> = (0..=last.saturating_add(2)).step_by(7).chain(std.keys().flat_map(|k| [*k, k + 1])).collect();
        for &k in &probes {
            prop_assert_eq!(ours.get(&k), std.get(&k));
            prop_assert_eq!(ours.contains_key(&k), std.contains_key(&k));
            prop_assert_eq!(set.contains(&k), std_set.contains(&k));
            prop_assert!(ours.range(k..).eq(std.range(k..)), "range {k}..");
            prop_assert!(ours.range(..k).rev().eq(std.range(..k).rev()), "range ..{k} reversed");
            prop_assert!(ours.range(..=k).eq(std.range(..=k)), "range ..={k}");
            prop_assert!(ours.range(k / 2..k).eq(std.range(k / 2..k)), "range {}..{k}", k / 2);
            prop_assert!(ours.range(k / 3..=k).rev().eq(std.range(k / 3..=k).rev()), "range {}..={k}", k / 3);
            prop_assert!(set.range(k / 2..k).eq(std_set.range(k / 2..k)));
            // (BTreeMap panics on a range whose ends are equal and both excluded.)
            if k > 0 {
                let (lo, hi) = (Bound::Excluded(k / 3), Bound::Excluded(k));
                prop_assert!(ours.range((lo, hi)).eq(std.range((lo, hi))), "range ({}, {k}) exclusive", k / 3);
            }
        }
        Ok(())
    }

    /// A map and set, and the standard library's references for them.
    #[derive(Clone)]
    struct Pair {
        ours: Map,
        std: BTreeMap<u16, u32>,
        set: Set,
        std_set: BTreeSet<u16>,
    }

    impl Pair {
        fn apply(&mut self, op: &Op) -> Result<(), TestCaseError> {
            let Pair { ours, std, set, std_set } = self;
            match *op {
                Op::Insert(k, v) => {
                    prop_assert_eq!(ours.insert(k, v), std.insert(k, v));
                    prop_assert_eq!(set.insert(k), std_set.insert(k));
                }
                Op::Append(v) => {
                    let k = std.keys().next_back().map_or(0, |k| k.saturating_add(1));
                    prop_assert_eq!(ours.insert(k, v), std.insert(k, v));
                    prop_assert_eq!(set.insert(k), std_set.insert(k));
                }
                Op::Remove(k) => {
                    prop_assert_eq!(ours.remove(&k), std.remove(&k));
                    prop_assert_eq!(set.remove(&k), std_set.remove(&k));
                }
                Op::GetMut(k, v) => {
                    let a = ours.get_mut(&k).map(|x| mem::replace(x, v));
                    let b = std.get_mut(&k).map(|x| mem::replace(x, v));
                    prop_assert_eq!(a, b);
                }
                Op::GetOrInsert(k, v) => {
                    let a = mem::replace(ours.get_or_insert_with(k, || v / 2), v);
                    let b = mem::replace(std.entry(k).or_insert_with(|| v / 2), v);
                    prop_assert_eq!(a, b);
                }
                Op::PopFirst => {
                    prop_assert_eq!(ours.pop_first(), std.pop_first());
                    prop_assert_eq!(set.pop_first(), std_set.pop_first());
                }
                Op::TrimFirst(max) => {
                    let max = max as usize;
                    let mut n = 0;
                    while std.len() > max {
                        std.pop_first();
                        n += 1;
                    }
                    prop_assert_eq!(ours.trim_first(max), n);
                    let mut n = 0;
                    while std_set.len() > max {
                        std_set.pop_first();
                        n += 1;
                    }
                    prop_assert_eq!(set.trim_first(max), n);
                }
                Op::Retain(m) => {
                    ours.retain(|k, v| (*k as u32).wrapping_add(*v) % m as u32 != 0);
                    std.retain(|k, v| (*k as u32).wrapping_add(*v) % m as u32 != 0);
                    set.retain(|k| k % m != 0);
                    std_set.retain(|k| k % m != 0);
                }
                Op::SplitOff(k) => {
                    let a = ours.split_off(&k);
                    let b = std.split_off(&k);
                    check_invariants(&a)?;
                    prop_assert!(a.iter().eq(b.iter()), "split_off({k}): {a:?} vs {b:?}");
                    prop_assert_eq!(a.len(), b.len());
                    // Keep the tail half the time, so the map does not only shrink.
                    if k % 2 == 0 {
                        for (k, v) in b {
                            ours.insert(k, v);
                            std.insert(k, v);
                        }
                    }
                }
                Op::Fork | Op::Join => {}
            }
            same(ours, std, set, std_set)
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(200))]

        #[test]
        fn a_chunked_map_behaves_as_btreemap_and_clones_never_see_each_others_changes(
            ops in proptest::collection::vec(op(), 0..300)
        ) {
            let empty = Pair { ours: Map::new(), std: BTreeMap::new(), set: Set::new(), std_set: BTreeSet::new() };
            // The live map and its forks, each changed by every operation in turn.
            let mut pairs = vec![empty];
            for op in &ops {
                match op {
                    Op::Fork => {
                        let Some(newest) = pairs.last() else { continue };
                        let fork = newest.clone();
                        // A fresh clone shares every chunk.
                        prop_assert_eq!(fork.ours.shared_chunks(&newest.ours), newest.ours.chunk_count());
                        pairs.push(fork);
                    }
                    Op::Join => {
                        if pairs.len() > 1 {
                            pairs.pop();
                        }
                    }
                    _ => {
                        // The same operation on each: every map must still equal its own
                        // reference, whatever the others did to chunks they shared.
                        for pair in &mut pairs {
                            pair.apply(op)?;
                        }
                        // And a change to one only: the others must not see it.
                        let n = pairs.len();
                        if n > 1 {
                            pairs[n - 1].apply(&Op::Append(7))?;
                            for pair in &pairs[..n - 1] {
                                same(&pair.ours, &pair.std, &pair.set, &pair.std_set)?;
                            }
                        }
                    }
                }
            }
        }

        #[test]
        fn collecting_keeps_the_last_value_of_a_repeated_key(items in proptest::collection::vec((0u16..50, any::<u32>()), 0..200)) {
            let ours: Map = items.iter().copied().collect();
            let std: BTreeMap<u16, u32> = items.iter().copied().collect();
            check_invariants(&ours)?;
            prop_assert!(ours.iter().eq(std.iter()));
            let set: Set = items.iter().map(|(k, _)| *k).collect();
            prop_assert!(set.iter().eq(std.keys()));
        }
    }

    #[test]
    fn appending_in_order_fills_whole_chunks_and_a_clone_copies_only_what_it_changes() {
        let mut map: ChunkedMap<u64, u64> = ChunkedMap::new();
        for k in 0..10 * CHUNK as u64 {
            map.insert(k, k);
        }
        assert_eq!(map.chunk_count(), 10, "appends fill each chunk before starting the next");
        let checkpoint = map.clone();
        assert_eq!(map.shared_chunks(&checkpoint), 10);
        // Appending writes a new chunk; trimming 300 drops the first chunk and cuts the second.
        map.insert(10 * CHUNK as u64, 0);
        map.trim_first(map.len() - 300);
        assert_eq!(map.shared_chunks(&checkpoint), 8, "the untouched middle chunks stay shared");
        assert_eq!(checkpoint.len(), 10 * CHUNK, "the checkpoint sees none of it");
        assert_eq!(checkpoint.first_key_value(), Some((&0, &0)));
    }
}
