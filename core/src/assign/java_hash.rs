//! The iteration order of a `java.util.HashMap`/`HashSet`, which the sticky assignors depend on.
//!
//! Java's `HashMap` (JDK 8+) keeps a table of `capacity` bins (16 at the first `put`, then
//! doubled); a key goes to bin `spread(hashCode) & (capacity - 1)`, where
//! [`spread`] is `h ^ (h >>> 16)` (`HashMap.hash`). A new key is appended to the end of its
//! bin; a resize splits every bin into two while keeping their relative order, so the
//! entries of one bin stay in insertion order. Iteration walks the bins in index order.
//! The table grows when the size exceeds `0.75 * capacity`, never shrinks on `remove`,
//! and also doubles when a bin reaches 9 entries while the table is below 64 bins
//! (`treeifyBin` resizes instead of treeifying a small table).
//!
//! Not reproduced: at 64 bins or more, a bin with 9+ entries becomes a red-black tree whose
//! iteration order is the tree's insertion-linked order, not always the arrival order. That
//! needs 9 keys whose spread hashes agree in the low 6+ bits, which member ids and
//! partitions of a simulated group do not produce in practice.

use std::collections::BTreeMap;

/// `HashMap.hash`: the hash code with its high half folded into the low half.
pub(crate) fn spread(hash_code: i32) -> u32 {
    let h = hash_code as u32;
    h ^ (h >> 16)
}

/// The bins of a fresh table (`DEFAULT_INITIAL_CAPACITY`).
const INITIAL_CAPACITY: u32 = 16;
/// A bin this long is treeified, or the table resized while below [`MIN_TREEIFY_CAPACITY`].
const TREEIFY_LENGTH: usize = 9;
/// `MIN_TREEIFY_CAPACITY`.
const MIN_TREEIFY_CAPACITY: u32 = 64;

/// The order in which a `java.util.HashMap` built with `new HashMap<>()` (or a `HashSet`)
/// would iterate its keys, given the keys' Java `hashCode`s and the sequence of `put`s
/// and `remove`s.
#[derive(Clone, Debug)]
pub(crate) struct JavaHashOrder<K: Ord + Clone> {
    /// 0 until the first insertion allocates the table.
    capacity: u32,
    /// The table the first insertion allocates (`tableSizeFor(initialCapacity)`).
    initial: u32,
    /// Key -> (spread hash, arrival number). The arrival number orders a bin.
    entries: BTreeMap<K, (u32, u64)>,
    next_arrival: u64,
}

impl<K: Ord + Clone> Default for JavaHashOrder<K> {
    fn default() -> Self {
        Self { capacity: 0, initial: INITIAL_CAPACITY, entries: BTreeMap::new(), next_arrival: 0 }
    }
}

/// `HashMap.tableSizeFor`: the power of two at or above `cap` (1 for 0).
pub(crate) fn table_size_for(cap: i32) -> u32 {
    if cap <= 1 {
        1
    } else {
        (cap as u32).next_power_of_two().min(1 << 30)
    }
}

/// The capacity argument `(int) (n / 0.75f) + 1` Kafka and the JDK pass when presizing
/// (computed in `float`, as Java does).
pub(crate) fn presize(n: usize) -> i32 {
    (n as f32 / 0.75f32) as i32 + 1
}

impl<K: Ord + Clone> JavaHashOrder<K> {
    pub(crate) fn new() -> Self {
        Self::default()
    }

    /// `new HashMap<>(initial_capacity)` / `new HashSet<>(initial_capacity)`.
    pub(crate) fn with_capacity(initial_capacity: i32) -> Self {
        Self { initial: table_size_for(initial_capacity), ..Self::default() }
    }

    /// The table of `new HashSet<>(collection)` for a collection of `n` elements, JDK 17:
    /// `new HashMap<>(Math.max((int) (n / .75f) + 1, 16))`.
    pub(crate) fn for_collection(n: usize) -> Self {
        Self::with_capacity(presize(n).max(16))
    }

    /// The keys in iteration order, each once, inserted in `keys`' order into a set built as
    /// `new HashSet<>(keys)`.
    pub(crate) fn collection_order(keys: impl IntoIterator<Item = (K, i32)>, n: usize) -> Vec<K> {
        let mut set = Self::for_collection(n);
        for (key, hash) in keys {
            set.insert(key, hash);
        }
        set.order()
    }

    /// Whether the key is present.
    pub(crate) fn contains(&self, key: &K) -> bool {
        self.entries.contains_key(key)
    }

    /// How many keys.
    pub(crate) fn size(&self) -> usize {
        self.entries.len()
    }
    /// `put`/`add` of a key with Java hash code `hash_code`. A key already present keeps its
    /// place (Java replaces the value in place). Returns whether the key is new.
    pub(crate) fn insert(&mut self, key: K, hash_code: i32) -> bool {
        if self.entries.contains_key(&key) {
            return false;
        }
        if self.capacity == 0 {
            self.capacity = self.initial;
        }
        let hash = spread(hash_code);
        self.entries.insert(key, (hash, self.next_arrival));
        self.next_arrival += 1;
        // putVal: a bin reaching TREEIFY_LENGTH calls treeifyBin, which resizes a small table.
        if self.capacity < MIN_TREEIFY_CAPACITY {
            let mask = self.capacity - 1;
            let bin = hash & mask;
            let in_bin = self.entries.values().filter(|(h, _)| h & mask == bin).count();
            if in_bin >= TREEIFY_LENGTH {
                self.capacity *= 2;
            }
        }
        // putVal: `if (++size > threshold) resize()`, threshold = 0.75 * capacity.
        if self.entries.len() as u64 > u64::from(self.capacity) * 3 / 4 {
            self.capacity *= 2;
        }
        true
    }

    /// `remove`: the table keeps its capacity.
    pub(crate) fn remove(&mut self, key: &K) -> bool {
        self.entries.remove(key).is_some()
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    #[cfg(test)]
    pub(crate) fn len(&self) -> usize {
        self.entries.len()
    }

    /// The sort key of an entry in iteration order: (bin, arrival).
    fn place(&self, hash: u32, arrival: u64) -> (u32, u64) {
        (hash & self.capacity.saturating_sub(1), arrival)
    }

    /// `iterator().next()`: the first key in iteration order.
    pub(crate) fn first(&self) -> Option<&K> {
        self.entries.iter().min_by_key(|(_, &(hash, arrival))| self.place(hash, arrival)).map(|(key, _)| key)
    }

    /// All keys in iteration order.
    pub(crate) fn order(&self) -> Vec<K> {
        let mut keys: Vec<(&K, (u32, u64))> = self.entries.iter().map(|(key, &(hash, arrival))| (key, self.place(hash, arrival))).collect();
        crate::sorted::sort_by_key(&mut keys, |(_, place)| *place);
        keys.into_iter().map(|(key, _)| key.clone()).collect()
    }

    #[cfg(test)]
    pub(crate) fn capacity(&self) -> u32 {
        self.capacity
    }
}

/// The order in which `new HashMap<String, V>()` filled by `put`s of `keys` (in slice
/// order, no removals) iterates them, as indices into `keys`. A repeated key keeps its
/// first place and appears once.
pub(crate) fn string_map_order(keys: &[&str]) -> Vec<usize> {
    let mut map = JavaHashOrder::new();
    let mut first_index: BTreeMap<&str, usize> = BTreeMap::new();
    for (i, key) in keys.iter().enumerate() {
        if map.insert(*key, crate::partitioner::java_string_hash(key)) {
            first_index.insert(key, i);
        }
    }
    map.order().into_iter().filter_map(|key| first_index.get(key).copied()).collect()
}

#[cfg(test)]
#[allow(clippy::unwrap_used)] // Tests may unwrap: a panic is a failed test.
mod tests {
    use super::*;
    use crate::partitioner::java_string_hash;

    fn bucket(key: &str, capacity: u32) -> u32 {
        spread(java_string_hash(key)) & (capacity - 1)
    }

    /// kafka-semantics §5: "consumer1/2/3 fall in buckets 12/11/10, so they are visited 3, 2, 1".
    #[test]
    fn consumer_ids_visit_in_reverse() {
        assert_eq!(bucket("consumer1", 16), 12);
        assert_eq!(bucket("consumer2", 16), 11);
        assert_eq!(bucket("consumer3", 16), 10);
        assert_eq!(string_map_order(&["consumer1", "consumer2", "consumer3"]), vec![2, 1, 0]);
        // The insertion order does not matter when the buckets differ.
        assert_eq!(string_map_order(&["consumer3", "consumer1", "consumer2"]), vec![0, 2, 1]);
    }

    /// From `String.hashCode`'s definition: "a" is 97 (bucket 1), "b" 98 (bucket 2), and
    /// "Aa" and "BB" share 2112 (bucket 0), so they keep their insertion order.
    #[test]
    fn equal_hashes_keep_insertion_order() {
        assert_eq!(java_string_hash("Aa"), java_string_hash("BB"));
        assert_eq!(java_string_hash("Aa"), 2112);
        assert_eq!(string_map_order(&["BB", "a", "Aa"]), vec![0, 2, 1]);
        assert_eq!(string_map_order(&["Aa", "a", "BB"]), vec![0, 2, 1]);
        assert_eq!(string_map_order(&["b", "a"]), vec![1, 0]);
    }

    #[test]
    fn capacity_doubles_above_three_quarters() {
        let mut map = JavaHashOrder::new();
        assert_eq!(map.capacity(), 0);
        for i in 0..12 {
            map.insert(i, i);
        }
        assert_eq!(map.capacity(), 16);
        map.insert(12, 12);
        assert_eq!(map.capacity(), 32);
        for i in 13..25 {
            map.insert(i, i);
        }
        assert_eq!(map.capacity(), 64);
        // Removal never shrinks the table.
        for i in 0..25 {
            map.remove(&i);
        }
        assert_eq!(map.capacity(), 64);
        assert!(map.is_empty());
    }

    /// With 13 keys the table has 32 bins, so a key's bucket uses 5 bits of its hash.
    #[test]
    fn order_depends_on_capacity() {
        // Hash codes 1 and 17 share bucket 1 of 16 but not of 32.
        let mut map = JavaHashOrder::new();
        map.insert("x", 17);
        map.insert("y", 1);
        assert_eq!(map.order(), vec!["x", "y"]);
        for (i, k) in ["k2", "k3", "k4", "k5", "k6", "k7", "k8", "k9", "k10", "k11", "k12"].into_iter().enumerate() {
            map.insert(k, 100 + i as i32);
        }
        assert_eq!(map.capacity(), 32);
        let order = map.order();
        let pos = |k: &str| order.iter().position(|x| *x == k).unwrap();
        assert!(pos("y") < pos("x"), "bucket 1 before bucket 17: {order:?}");
    }

    /// Nine keys in one bin of a 16-bin table trigger treeifyBin's resize.
    #[test]
    fn long_bin_resizes_small_table() {
        let mut map = JavaHashOrder::new();
        for i in 0..8 {
            map.insert(i, i * 64);
        }
        assert_eq!(map.capacity(), 16);
        map.insert(8, 8 * 64);
        assert_eq!(map.capacity(), 32);
    }

    #[test]
    fn first_follows_bins_then_arrival() {
        let mut set = JavaHashOrder::new();
        set.insert("late", 3);
        set.insert("early", 35); // bucket 3 of 16 as well, after "late"
        set.insert("other", 5);
        assert_eq!(set.first(), Some(&"late"));
        set.remove(&"late");
        assert_eq!(set.first(), Some(&"early"));
        set.insert("late", 3); // re-added at the end of its bin
        assert_eq!(set.first(), Some(&"early"));
        assert_eq!(set.len(), 3);
        assert_eq!(set.order(), vec!["early", "late", "other"]);
    }
}
