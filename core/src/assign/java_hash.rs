//! The iteration order of a `java.util.HashMap`/`HashSet`, which the sticky assignors depend on.
//!
//! A model of JDK 17's `java.util.HashMap` (`HashSet` is a `HashMap` inside) reduced to
//! what decides the order: the table of bins and, per bin, a list of nodes linked by
//! `next`. Iteration walks the bins in index order and each bin along its `next` list.
//! The rules, each from the `HashMap` method named:
//!
//! - `hash`: a key goes to bin `spread(hashCode) & (capacity - 1)`, [`spread`] being
//!   `h ^ (h >>> 16)`.
//! - `putVal`: a new key is appended to the end of a list bin; if the bin held 8 nodes
//!   (`TREEIFY_THRESHOLD`) it then calls `treeifyBin`. After every insertion, a size above
//!   `0.75 * capacity` doubles the table (`resize`). The first insertion allocates 16
//!   bins. `remove` never shrinks the table.
//! - `treeifyBin`: below `MIN_TREEIFY_CAPACITY` (64 bins) it resizes instead; otherwise the
//!   bin becomes a red-black tree (`TreeNode.treeify`), keeping its `next` list.
//! - `TreeNode.treeify`: the nodes are inserted into the tree in list order, ordered by
//!   spread hash (as a signed `int`), then by `compareTo` if the key's class is
//!   `Comparable` (String, Integer), then by `tieBreakOrder`; each insertion is rebalanced
//!   (`balanceInsertion`, `rotateLeft`/`rotateRight`). Then `moveRootToFront` moves the
//!   root to the head of the `next` list, where iteration starts.
//! - `TreeNode.putTreeVal`: a key added to a tree bin is linked into the `next` list
//!   right after its parent in the tree, then the tree is rebalanced and the (possibly
//!   new) root moved to the front.
//! - `resize` (`TreeNode.split` for a tree bin): each bin splits into a low and a high
//!   list that keep their relative order; a half of at most 6 nodes
//!   (`UNTREEIFY_THRESHOLD`) becomes a list again (`untreeify`), a larger half is
//!   treeified anew (unless the other half is empty: then the tree stays as it was).
//! - `TreeNode.removeTreeNode`: the node leaves the `next` list; if the tree looks too
//!   small (the root has no right child, no left child, or a left child without a left
//!   child) the bin becomes a list; otherwise the node leaves the tree (swapping tree links
//!   with its successor, `balanceDeletion`) and the root moves to the front.
//!
//! Not reproducible: `tieBreakOrder` compares `System.identityHashCode`s, which differ from
//! run to run; it decides only between two keys of a non-`Comparable` class (such as
//! `TopicPartition`) with the same spread hash in one tree bin. The assignors never meet it:
//! their `TopicPartition` sets hold the partitions of one topic, whose hash codes all
//! differ. The model takes the new key as the smaller there.

use std::cmp::Ordering;
use std::collections::BTreeMap;

/// `String.hashCode` ([`crate::partitioner::java_string_hash`]), without decoding an ASCII
/// string (member ids nearly always are): its UTF-16 units are its bytes.
pub(crate) fn string_hash(s: &str) -> i32 {
    if s.is_ascii() {
        s.bytes().fold(0i32, |h, b| h.wrapping_mul(31).wrapping_add(i32::from(b)))
    } else {
        crate::partitioner::java_string_hash(s)
    }
}

/// `HashMap.hash`: the hash code with its high half folded into the low half.
pub(crate) fn spread(hash_code: i32) -> u32 {
    let h = hash_code as u32;
    h ^ (h >> 16)
}

/// `DEFAULT_INITIAL_CAPACITY`: the bins of a fresh table.
const INITIAL_CAPACITY: usize = 16;
/// `TREEIFY_THRESHOLD`: a list bin that held this many nodes is treeified (or the table
/// resized) when one more is appended.
const TREEIFY_THRESHOLD: usize = 8;
/// `UNTREEIFY_THRESHOLD`: a tree bin split by a resize into a half this small or smaller
/// becomes a list.
const UNTREEIFY_THRESHOLD: usize = 6;
/// `MIN_TREEIFY_CAPACITY`: below this many bins, `treeifyBin` resizes instead.
const MIN_TREEIFY_CAPACITY: usize = 64;

/// A key of a Java hash map, as far as its tree bins look at it.
pub(crate) trait JavaKey: Ord + Clone {
    /// `HashMap.comparableClassFor` and `compareComparables`: the key's `compareTo` if its
    /// class implements `Comparable<itself>`, `None` if not (then `tieBreakOrder` decides).
    fn compare_to(&self, other: &Self) -> Option<Ordering>;
}

/// `String.compareTo`.
impl JavaKey for &str {
    fn compare_to(&self, other: &Self) -> Option<Ordering> {
        Some(super::java_cmp(self, other))
    }
}

/// `Integer.compareTo` for a partition number (never above `i32::MAX`).
impl JavaKey for u32 {
    fn compare_to(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

/// `Uuid.compareTo` (its `Ord`: the most significant half first, as signed `long`s).
impl JavaKey for crate::uuid::Uuid {
    fn compare_to(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

/// `Integer.compareTo` (`Integer.hashCode` is the value itself).
impl JavaKey for i32 {
    fn compare_to(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

type Link = Option<usize>;

/// A `HashMap.Node`, with `TreeNode`'s links (used while its bin is a tree).
#[derive(Clone, Debug)]
struct Node<K> {
    key: K,
    /// The spread hash (`Node.hash`).
    hash: u32,
    next: Link,
    prev: Link,
    parent: Link,
    left: Link,
    right: Link,
    red: bool,
}

/// The whole model of a `java.util.HashMap`'s table: bins of linked nodes, tree bins
/// included. [`JavaHashOrder`] uses it once a table holds a tree bin or many keys.
#[derive(Clone, Debug)]
struct Nodes<K: JavaKey> {
    /// The head of each bin's `next` list; empty until the first insertion.
    table: Vec<Link>,
    /// Whether each bin is a tree bin (its nodes are `TreeNode`s).
    tree: Vec<bool>,
    /// `threshold`: the size above which the table doubles; before the first insertion,
    /// as in the JDK, the table size a presized map will allocate (0: the default, 16).
    threshold: usize,
    /// Every node ever allocated; removed ones are reused through `free`.
    nodes: Vec<Node<K>>,
    free: Vec<usize>,
    /// Key -> its node: `HashMap.getNode`'s answer, without walking the bin.
    index: BTreeMap<K, usize>,
}

impl<K: JavaKey> Default for Nodes<K> {
    fn default() -> Self {
        Self { table: Vec::new(), tree: Vec::new(), threshold: 0, nodes: Vec::new(), free: Vec::new(), index: BTreeMap::new() }
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

impl<K: JavaKey> Nodes<K> {
    /// A table of `capacity` bins (a power of two) holding `items` (key, spread hash), each
    /// bin a list of its keys in the order given: the state a table whose bins are all lists
    /// is in, read from its iteration order.
    fn from_lists(capacity: usize, items: &[(K, u32)]) -> Self {
        let mut nodes = Self {
            table: vec![None; capacity],
            tree: vec![false; capacity],
            threshold: capacity * 3 / 4,
            nodes: Vec::with_capacity(items.len()),
            free: Vec::new(),
            index: BTreeMap::new(),
        };
        let mut tails: Vec<Link> = vec![None; capacity];
        for (key, hash) in items {
            let x = nodes.alloc(key.clone(), *hash);
            nodes.index.insert(key.clone(), x);
            let bin = nodes.bin(*hash);
            match tails[bin] {
                None => nodes.table[bin] = Some(x),
                Some(t) => nodes.nodes[t].next = Some(x),
            }
            tails[bin] = Some(x);
        }
        nodes
    }

    /// Whether the key is present.
    pub(crate) fn contains(&self, key: &K) -> bool {
        self.index.contains_key(key)
    }

    /// `put`/`add` of a key with Java hash code `hash_code`. A key already present keeps its
    /// place (Java replaces the value in place). Returns whether the key is new.
    pub(crate) fn insert(&mut self, key: K, hash_code: i32) -> bool {
        if self.index.contains_key(&key) {
            return false;
        }
        if self.table.is_empty() {
            self.resize();
        }
        let hash = spread(hash_code);
        let bin = self.bin(hash);
        let x = self.alloc(key.clone(), hash);
        self.index.insert(key, x);
        match self.table[bin] {
            None => {
                self.table[bin] = Some(x);
                self.tree[bin] = false;
            }
            Some(first) if self.tree[bin] => self.put_tree_val(first, x),
            Some(first) => {
                // putVal: walk to the tail, counting the nodes passed (`binCount`).
                let mut tail = first;
                let mut bin_count = 0;
                while let Some(next) = self.nodes[tail].next {
                    tail = next;
                    bin_count += 1;
                }
                self.nodes[tail].next = Some(x);
                if bin_count >= TREEIFY_THRESHOLD - 1 {
                    self.treeify_bin(hash);
                }
            }
        }
        if self.index.len() > self.threshold {
            self.resize();
        }
        true
    }

    /// `computeIfAbsent` of a key new to the map (JDK 17): the table is resized *before*
    /// the insertion when already over its threshold (never after), and a new node goes to
    /// the *head* of a list bin (where `put` appends it at the tail); a tree bin takes it as
    /// `putTreeVal`. Returns whether the key is new.
    pub(crate) fn compute_if_absent(&mut self, key: K, hash_code: i32) -> bool {
        if self.index.contains_key(&key) {
            return false;
        }
        if self.table.is_empty() || self.index.len() > self.threshold {
            self.resize();
        }
        let hash = spread(hash_code);
        let bin = self.bin(hash);
        let x = self.alloc(key.clone(), hash);
        self.index.insert(key, x);
        match self.table[bin] {
            None => {
                self.table[bin] = Some(x);
                self.tree[bin] = false;
            }
            Some(first) if self.tree[bin] => self.put_tree_val(first, x),
            Some(first) => {
                // Every node of the bin was passed while looking for the key (`binCount`).
                let mut bin_count = 0;
                let mut e = Some(first);
                while let Some(n) = e {
                    bin_count += 1;
                    e = self.nodes[n].next;
                }
                self.nodes[x].next = Some(first);
                self.table[bin] = Some(x);
                if bin_count >= TREEIFY_THRESHOLD - 1 {
                    self.treeify_bin(hash);
                }
            }
        }
        true
    }

    /// `remove`: the table keeps its capacity.
    pub(crate) fn remove(&mut self, key: &K) -> bool {
        let Some(node) = self.index.remove(key) else {
            return false;
        };
        let bin = self.bin(self.nodes[node].hash);
        if self.tree[bin] {
            self.remove_tree_node(node, bin);
        } else if self.table[bin] == Some(node) {
            self.table[bin] = self.nodes[node].next;
        } else {
            let mut p = self.table[bin];
            while let Some(q) = p {
                if self.nodes[q].next == Some(node) {
                    self.nodes[q].next = self.nodes[node].next;
                    break;
                }
                p = self.nodes[q].next;
            }
        }
        if self.table[bin].is_none() {
            self.tree[bin] = false;
        }
        self.free.push(node);
        true
    }

    /// `size()`: how many keys.
    pub(crate) fn len(&self) -> usize {
        self.index.len()
    }

    /// `iterator().next()`: the first key in iteration order.
    pub(crate) fn first(&self) -> Option<&K> {
        self.table.iter().flatten().next().map(|&node| &self.nodes[node].key)
    }

    /// All keys in iteration order.
    pub(crate) fn order(&self) -> Vec<K> {
        let mut keys = Vec::with_capacity(self.index.len());
        for &head in self.table.iter().flatten() {
            let mut e = Some(head);
            while let Some(node) = e {
                keys.push(self.nodes[node].key.clone());
                e = self.nodes[node].next;
            }
        }
        keys
    }

    #[cfg(test)]
    pub(crate) fn capacity(&self) -> usize {
        self.table.len()
    }

    /// How many bins are trees.
    #[cfg(test)]
    pub(crate) fn tree_bins(&self) -> usize {
        self.tree.iter().zip(&self.table).filter(|(tree, head)| **tree && head.is_some()).count()
    }

    fn bin(&self, hash: u32) -> usize {
        hash as usize & (self.table.len() - 1)
    }

    fn alloc(&mut self, key: K, hash: u32) -> usize {
        let node = Node { key, hash, next: None, prev: None, parent: None, left: None, right: None, red: false };
        if let Some(slot) = self.free.pop() {
            self.nodes[slot] = node;
            slot
        } else {
            self.nodes.push(node);
            self.nodes.len() - 1
        }
    }

    fn is_red(&self, link: Link) -> bool {
        link.is_some_and(|n| self.nodes[n].red)
    }

    /// `resize`: allocates 16 bins, or doubles the table, splitting every bin in two.
    fn resize(&mut self) {
        let old_cap = self.table.len();
        if old_cap == 0 {
            // `resize`: the initial capacity a constructor stored in `threshold`, else 16.
            let cap = if self.threshold > 0 { self.threshold } else { INITIAL_CAPACITY };
            self.table = vec![None; cap];
            self.tree = vec![false; cap];
            self.threshold = cap * 3 / 4;
            return;
        }
        let new_cap = old_cap * 2;
        // `resize`: below 16 bins the JDK recomputes `(int) (newCap * 0.75f)` rather than
        // doubling the threshold; both are three quarters of the table for a power of two.
        self.threshold = new_cap * 3 / 4;
        let old_table = std::mem::replace(&mut self.table, vec![None; new_cap]);
        let old_tree = std::mem::replace(&mut self.tree, vec![false; new_cap]);
        for (j, head) in old_table.into_iter().enumerate() {
            let Some(e) = head else {
                continue;
            };
            if self.nodes[e].next.is_none() {
                let bin = self.bin(self.nodes[e].hash);
                self.table[bin] = Some(e);
                self.tree[bin] = old_tree[j];
            } else if old_tree[j] {
                self.split(e, j, old_cap);
            } else {
                // Preserve order: a low and a high list.
                let (mut lo, mut hi): (Vec<usize>, Vec<usize>) = (Vec::new(), Vec::new());
                let mut p = Some(e);
                while let Some(node) = p {
                    p = self.nodes[node].next;
                    if self.nodes[node].hash as usize & old_cap == 0 {
                        lo.push(node);
                    } else {
                        hi.push(node);
                    }
                }
                for (list, bin) in [(lo, j), (hi, j + old_cap)] {
                    for pair in list.windows(2) {
                        self.nodes[pair[0]].next = Some(pair[1]);
                    }
                    if let Some(&last) = list.last() {
                        self.nodes[last].next = None;
                    }
                    self.table[bin] = list.first().copied();
                }
            }
        }
    }

    /// `TreeNode.split`: the tree bin at `index` of the old table into bins `index` and
    /// `index + bit` of the new one.
    fn split(&mut self, head: usize, index: usize, bit: usize) {
        let mut halves: [(Link, Link, usize); 2] = [(None, None, 0), (None, None, 0)];
        let mut e = Some(head);
        while let Some(node) = e {
            e = self.nodes[node].next;
            self.nodes[node].next = None;
            let half = &mut halves[usize::from(self.nodes[node].hash as usize & bit != 0)];
            self.nodes[node].prev = half.1;
            match half.1 {
                None => half.0 = Some(node),
                Some(tail) => self.nodes[tail].next = Some(node),
            }
            half.1 = Some(node);
            half.2 += 1;
        }
        let both = halves[0].0.is_some() && halves[1].0.is_some();
        for (half, bin) in [(halves[0], index), (halves[1], index + bit)] {
            let (Some(head), _, count) = half else {
                continue;
            };
            self.table[bin] = Some(head);
            if count <= UNTREEIFY_THRESHOLD {
                self.tree[bin] = false;
            } else {
                self.tree[bin] = true;
                // With the other half empty, the tree is already built.
                if both {
                    self.treeify(head);
                }
            }
        }
    }

    /// `treeifyBin`: the list bin of `hash` becomes a tree, or a small table doubles.
    fn treeify_bin(&mut self, hash: u32) {
        if self.table.len() < MIN_TREEIFY_CAPACITY {
            self.resize();
            return;
        }
        let bin = self.bin(hash);
        let Some(head) = self.table[bin] else {
            return;
        };
        let mut prev = None;
        let mut e = Some(head);
        while let Some(node) = e {
            self.nodes[node].prev = prev;
            prev = Some(node);
            e = self.nodes[node].next;
        }
        self.tree[bin] = true;
        self.treeify(head);
    }

    /// The tree's direction from node `p` for node `x`: `-1` (left) or `1` (right), by
    /// spread hash as a signed `int`, then `compareTo`, then `tieBreakOrder`.
    fn dir(&self, x: usize, p: usize) -> i32 {
        let (h, ph) = (self.nodes[x].hash as i32, self.nodes[p].hash as i32);
        match ph.cmp(&h) {
            Ordering::Greater => -1,
            Ordering::Less => 1,
            Ordering::Equal => match self.nodes[x].key.compare_to(&self.nodes[p].key) {
                Some(Ordering::Greater) => 1,
                Some(Ordering::Less) => -1,
                // tieBreakOrder: identity hash codes (see the module notes).
                _ => -1,
            },
        }
    }

    /// `TreeNode.treeify`: builds the tree from the `next` list starting at `head`.
    fn treeify(&mut self, head: usize) {
        let mut root: Link = None;
        let mut e = Some(head);
        while let Some(x) = e {
            e = self.nodes[x].next;
            self.nodes[x].left = None;
            self.nodes[x].right = None;
            let Some(r) = root else {
                self.nodes[x].parent = None;
                self.nodes[x].red = false;
                root = Some(x);
                continue;
            };
            let mut p = r;
            loop {
                let dir = self.dir(x, p);
                let child = if dir <= 0 { self.nodes[p].left } else { self.nodes[p].right };
                if let Some(c) = child {
                    p = c;
                    continue;
                }
                self.nodes[x].parent = Some(p);
                if dir <= 0 {
                    self.nodes[p].left = Some(x);
                } else {
                    self.nodes[p].right = Some(x);
                }
                root = Some(self.balance_insertion(r, x));
                break;
            }
        }
        if let Some(r) = root {
            self.move_root_to_front(r);
        }
    }

    /// `TreeNode.root`.
    fn root_of(&self, mut node: usize) -> usize {
        while let Some(p) = self.nodes[node].parent {
            node = p;
        }
        node
    }

    /// `TreeNode.putTreeVal` for a key known to be absent: `x` goes into the tree and into
    /// the `next` list right after its tree parent.
    fn put_tree_val(&mut self, first: usize, x: usize) {
        let root = self.root_of(first);
        let mut p = root;
        loop {
            let dir = self.dir(x, p);
            let child = if dir <= 0 { self.nodes[p].left } else { self.nodes[p].right };
            if let Some(c) = child {
                p = c;
                continue;
            }
            let xpn = self.nodes[p].next;
            self.nodes[x].next = xpn;
            if dir <= 0 {
                self.nodes[p].left = Some(x);
            } else {
                self.nodes[p].right = Some(x);
            }
            self.nodes[p].next = Some(x);
            self.nodes[x].parent = Some(p);
            self.nodes[x].prev = Some(p);
            if let Some(n) = xpn {
                self.nodes[n].prev = Some(x);
            }
            let root = self.balance_insertion(root, x);
            self.move_root_to_front(root);
            return;
        }
    }

    /// `TreeNode.moveRootToFront`: makes `root` the head of its bin's `next` list.
    fn move_root_to_front(&mut self, root: usize) {
        let bin = self.bin(self.nodes[root].hash);
        let first = self.table[bin];
        if first == Some(root) {
            return;
        }
        self.table[bin] = Some(root);
        let (rp, rn) = (self.nodes[root].prev, self.nodes[root].next);
        if let Some(n) = rn {
            self.nodes[n].prev = rp;
        }
        if let Some(p) = rp {
            self.nodes[p].next = rn;
        }
        if let Some(f) = first {
            self.nodes[f].prev = Some(root);
        }
        self.nodes[root].next = first;
        self.nodes[root].prev = None;
    }

    /// `TreeNode.removeTreeNode` (with `movable` true, as `HashMap.remove` calls it).
    fn remove_tree_node(&mut self, p: usize, bin: usize) {
        let Some(first) = self.table[bin] else {
            return;
        };
        let mut root = first;
        let (succ, pred) = (self.nodes[p].next, self.nodes[p].prev);
        let first = match pred {
            None => {
                self.table[bin] = succ;
                succ
            }
            Some(q) => {
                self.nodes[q].next = succ;
                Some(first)
            }
        };
        if let Some(s) = succ {
            self.nodes[s].prev = pred;
        }
        let Some(first) = first else {
            return;
        };
        root = self.root_of(root);
        let rl = self.nodes[root].left;
        if self.nodes[root].right.is_none() || rl.is_none_or(|l| self.nodes[l].left.is_none()) {
            // Too small: back to a list (`untreeify`).
            self.table[bin] = Some(first);
            self.tree[bin] = false;
            return;
        }
        let (pl, pr) = (self.nodes[p].left, self.nodes[p].right);
        let replacement = match (pl, pr) {
            (Some(pl), Some(pr)) => {
                // Swap tree links (not list links) with the successor.
                let mut s = pr;
                while let Some(sl) = self.nodes[s].left {
                    s = sl;
                }
                let c = self.nodes[s].red;
                self.nodes[s].red = self.nodes[p].red;
                self.nodes[p].red = c;
                let sr = self.nodes[s].right;
                let pp = self.nodes[p].parent;
                if s == pr {
                    self.nodes[p].parent = Some(s);
                    self.nodes[s].right = Some(p);
                } else {
                    let sp = self.nodes[s].parent;
                    self.nodes[p].parent = sp;
                    if let Some(sp) = sp {
                        if self.nodes[sp].left == Some(s) {
                            self.nodes[sp].left = Some(p);
                        } else {
                            self.nodes[sp].right = Some(p);
                        }
                    }
                    self.nodes[s].right = Some(pr);
                    self.nodes[pr].parent = Some(s);
                }
                self.nodes[p].left = None;
                self.nodes[p].right = sr;
                if let Some(sr) = sr {
                    self.nodes[sr].parent = Some(p);
                }
                self.nodes[s].left = Some(pl);
                self.nodes[pl].parent = Some(s);
                self.nodes[s].parent = pp;
                match pp {
                    None => root = s,
                    Some(q) if self.nodes[q].left == Some(p) => self.nodes[q].left = Some(s),
                    Some(q) => self.nodes[q].right = Some(s),
                }
                sr.unwrap_or(p)
            }
            (Some(pl), None) => pl,
            (None, Some(pr)) => pr,
            (None, None) => p,
        };
        if replacement != p {
            let pp = self.nodes[p].parent;
            self.nodes[replacement].parent = pp;
            match pp {
                None => {
                    root = replacement;
                    self.nodes[replacement].red = false;
                }
                Some(q) if self.nodes[q].left == Some(p) => self.nodes[q].left = Some(replacement),
                Some(q) => self.nodes[q].right = Some(replacement),
            }
            self.nodes[p].left = None;
            self.nodes[p].right = None;
            self.nodes[p].parent = None;
        }
        let r = if self.nodes[p].red { root } else { self.balance_deletion(root, replacement) };
        if replacement == p {
            // Detach.
            if let Some(q) = self.nodes[p].parent.take() {
                if self.nodes[q].left == Some(p) {
                    self.nodes[q].left = None;
                } else if self.nodes[q].right == Some(p) {
                    self.nodes[q].right = None;
                }
            }
        }
        self.move_root_to_front(r);
    }

    /// `TreeNode.rotateLeft`; returns the root.
    fn rotate_left(&mut self, mut root: usize, p: usize) -> usize {
        let Some(r) = self.nodes[p].right else {
            return root;
        };
        let rl = self.nodes[r].left;
        self.nodes[p].right = rl;
        if let Some(rl) = rl {
            self.nodes[rl].parent = Some(p);
        }
        let pp = self.nodes[p].parent;
        self.nodes[r].parent = pp;
        match pp {
            None => {
                root = r;
                self.nodes[r].red = false;
            }
            Some(q) if self.nodes[q].left == Some(p) => self.nodes[q].left = Some(r),
            Some(q) => self.nodes[q].right = Some(r),
        }
        self.nodes[r].left = Some(p);
        self.nodes[p].parent = Some(r);
        root
    }

    /// `TreeNode.rotateRight`; returns the root.
    fn rotate_right(&mut self, mut root: usize, p: usize) -> usize {
        let Some(l) = self.nodes[p].left else {
            return root;
        };
        let lr = self.nodes[l].right;
        self.nodes[p].left = lr;
        if let Some(lr) = lr {
            self.nodes[lr].parent = Some(p);
        }
        let pp = self.nodes[p].parent;
        self.nodes[l].parent = pp;
        match pp {
            None => {
                root = l;
                self.nodes[l].red = false;
            }
            Some(q) if self.nodes[q].right == Some(p) => self.nodes[q].right = Some(l),
            Some(q) => self.nodes[q].left = Some(l),
        }
        self.nodes[l].right = Some(p);
        self.nodes[p].parent = Some(l);
        root
    }

    /// `TreeNode.balanceInsertion`; returns the root.
    fn balance_insertion(&mut self, mut root: usize, mut x: usize) -> usize {
        self.nodes[x].red = true;
        loop {
            let Some(xp) = self.nodes[x].parent else {
                self.nodes[x].red = false;
                return x;
            };
            if !self.nodes[xp].red {
                return root;
            }
            let Some(xpp) = self.nodes[xp].parent else {
                return root;
            };
            let xppl = self.nodes[xpp].left;
            if xppl == Some(xp) {
                let xppr = self.nodes[xpp].right;
                if let Some(u) = xppr.filter(|&u| self.nodes[u].red) {
                    self.nodes[u].red = false;
                    self.nodes[xp].red = false;
                    self.nodes[xpp].red = true;
                    x = xpp;
                    continue;
                }
                let parent = xp;
                let (mut xp, mut xpp) = (Some(xp), Some(xpp));
                if self.nodes[parent].right == Some(x) {
                    x = parent;
                    root = self.rotate_left(root, x);
                    xp = self.nodes[x].parent;
                    xpp = xp.and_then(|q| self.nodes[q].parent);
                }
                if let Some(q) = xp {
                    self.nodes[q].red = false;
                    if let Some(g) = xpp {
                        self.nodes[g].red = true;
                        root = self.rotate_right(root, g);
                    }
                }
            } else {
                if let Some(u) = xppl.filter(|&u| self.nodes[u].red) {
                    self.nodes[u].red = false;
                    self.nodes[xp].red = false;
                    self.nodes[xpp].red = true;
                    x = xpp;
                    continue;
                }
                let parent = xp;
                let (mut xp, mut xpp) = (Some(xp), Some(xpp));
                if self.nodes[parent].left == Some(x) {
                    x = parent;
                    root = self.rotate_right(root, x);
                    xp = self.nodes[x].parent;
                    xpp = xp.and_then(|q| self.nodes[q].parent);
                }
                if let Some(q) = xp {
                    self.nodes[q].red = false;
                    if let Some(g) = xpp {
                        self.nodes[g].red = true;
                        root = self.rotate_left(root, g);
                    }
                }
            }
        }
    }

    /// `TreeNode.balanceDeletion`; returns the root.
    fn balance_deletion(&mut self, mut root: usize, x: usize) -> usize {
        let mut x = Some(x);
        loop {
            let Some(xn) = x else {
                return root;
            };
            if xn == root {
                return root;
            }
            let Some(xp0) = self.nodes[xn].parent else {
                self.nodes[xn].red = false;
                return xn;
            };
            if self.nodes[xn].red {
                self.nodes[xn].red = false;
                return root;
            }
            let mut xp = Some(xp0);
            if self.nodes[xp0].left == Some(xn) {
                let mut xpr = self.nodes[xp0].right;
                if let Some(s) = xpr.filter(|&s| self.nodes[s].red) {
                    self.nodes[s].red = false;
                    self.nodes[xp0].red = true;
                    root = self.rotate_left(root, xp0);
                    xp = self.nodes[xn].parent;
                    xpr = xp.and_then(|q| self.nodes[q].right);
                }
                let Some(s) = xpr else {
                    x = xp;
                    continue;
                };
                let (sl, sr) = (self.nodes[s].left, self.nodes[s].right);
                if !self.is_red(sr) && !self.is_red(sl) {
                    self.nodes[s].red = true;
                    x = xp;
                    continue;
                }
                if !self.is_red(sr) {
                    if let Some(sl) = sl {
                        self.nodes[sl].red = false;
                    }
                    self.nodes[s].red = true;
                    root = self.rotate_right(root, s);
                    xp = self.nodes[xn].parent;
                    xpr = xp.and_then(|q| self.nodes[q].right);
                }
                if let Some(s) = xpr {
                    self.nodes[s].red = xp.is_some_and(|q| self.nodes[q].red);
                    if let Some(sr) = self.nodes[s].right {
                        self.nodes[sr].red = false;
                    }
                }
                if let Some(q) = xp {
                    self.nodes[q].red = false;
                    root = self.rotate_left(root, q);
                }
                x = Some(root);
            } else {
                let mut xpl = self.nodes[xp0].left;
                if let Some(s) = xpl.filter(|&s| self.nodes[s].red) {
                    self.nodes[s].red = false;
                    self.nodes[xp0].red = true;
                    root = self.rotate_right(root, xp0);
                    xp = self.nodes[xn].parent;
                    xpl = xp.and_then(|q| self.nodes[q].left);
                }
                let Some(s) = xpl else {
                    x = xp;
                    continue;
                };
                let (sl, sr) = (self.nodes[s].left, self.nodes[s].right);
                if !self.is_red(sl) && !self.is_red(sr) {
                    self.nodes[s].red = true;
                    x = xp;
                    continue;
                }
                if !self.is_red(sl) {
                    if let Some(sr) = sr {
                        self.nodes[sr].red = false;
                    }
                    self.nodes[s].red = true;
                    root = self.rotate_left(root, s);
                    xp = self.nodes[xn].parent;
                    xpl = xp.and_then(|q| self.nodes[q].left);
                }
                if let Some(s) = xpl {
                    self.nodes[s].red = xp.is_some_and(|q| self.nodes[q].red);
                    if let Some(sl) = self.nodes[s].left {
                        self.nodes[sl].red = false;
                    }
                }
                if let Some(q) = xp {
                    self.nodes[q].red = false;
                    root = self.rotate_right(root, q);
                }
                x = Some(root);
            }
        }
    }
}

/// The most keys [`JavaHashOrder`] keeps as a sorted list before it models the nodes.
const LIST_MAX: usize = 64;

/// The order in which a `java.util.HashMap` (or a `HashSet`) would iterate its keys, given
/// the keys' Java `hashCode`s and the sequence of `put`s and `remove`s.
///
/// While every bin is a list (no `treeifyBin` on a table of 64+ bins yet) and the map is
/// small, it is kept as its keys in iteration order: sorted by bin, each bin in arrival
/// order. A `put` goes to the end of its bin, a `remove` takes the key out, and a `resize`
/// is a stable partition by the bit the table gains (a list bin splits into a low and a
/// high half that keep their order; the low halves stay in front). One allocation, and
/// nothing to walk. Past [`LIST_MAX`] keys, or when a bin would become a tree, the same
/// state moves into the node model ([`Nodes`]), which carries on from it.
#[derive(Clone, Debug)]
pub(crate) struct JavaHashOrder<K: JavaKey> {
    state: State<K>,
}

#[derive(Clone, Debug)]
enum State<K: JavaKey> {
    List {
        /// Bins of the table; 0 until the first `put`.
        capacity: usize,
        /// Bins the first `put` allocates (`tableSizeFor(initialCapacity)`, or 16).
        first_capacity: usize,
        /// (key, spread hash) in iteration order.
        items: Vec<(K, u32)>,
    },
    Nodes(Box<Nodes<K>>),
}

impl<K: JavaKey> Default for JavaHashOrder<K> {
    fn default() -> Self {
        Self::with_first_capacity(INITIAL_CAPACITY)
    }
}

impl<K: JavaKey> JavaHashOrder<K> {
    pub(crate) fn new() -> Self {
        Self::default()
    }

    fn with_first_capacity(first_capacity: usize) -> Self {
        Self { state: State::List { capacity: 0, first_capacity, items: Vec::new() } }
    }

    /// `new HashMap<>(initial_capacity)` / `new HashSet<>(initial_capacity)`: the JDK keeps
    /// `tableSizeFor(initialCapacity)` in `threshold` until the first insertion.
    pub(crate) fn with_capacity(initial_capacity: i32) -> Self {
        Self::with_first_capacity(table_size_for(initial_capacity) as usize)
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
        match &self.state {
            State::List { items, .. } => items.iter().any(|(k, _)| k == key),
            State::Nodes(nodes) => nodes.contains(key),
        }
    }

    /// `put`/`add` of a key with Java hash code `hash_code`. A key already present keeps its
    /// place (Java replaces the value in place). Returns whether the key is new.
    pub(crate) fn insert(&mut self, key: K, hash_code: i32) -> bool {
        let State::List { capacity, first_capacity, items } = &mut self.state else {
            let State::Nodes(nodes) = &mut self.state else { unreachable!("not a list") };
            return nodes.insert(key, hash_code);
        };
        if items.iter().any(|(k, _)| *k == key) {
            return false;
        }
        if *capacity == 0 {
            *capacity = *first_capacity;
        }
        let hash = spread(hash_code);
        let mask = *capacity - 1;
        let bin = hash as usize & mask;
        // The bin's keys are contiguous; the new one goes after them.
        let at = items.iter().position(|(_, h)| *h as usize & mask > bin).unwrap_or(items.len());
        let in_bin = items[..at].iter().rev().take_while(|(_, h)| *h as usize & mask == bin).count();
        let treeify = in_bin >= TREEIFY_THRESHOLD;
        if items.len() >= LIST_MAX || (treeify && *capacity >= MIN_TREEIFY_CAPACITY) {
            // putVal on the nodes, from the same state (treeifyBin included).
            let mut nodes = Box::new(Nodes::from_lists(*capacity, items));
            let added = nodes.insert(key, hash_code);
            self.state = State::Nodes(nodes);
            return added;
        }
        items.insert(at, (key, hash));
        if treeify {
            // treeifyBin on a table below 64 bins: resize instead.
            Self::grow(capacity, items);
        }
        if items.len() > *capacity * 3 / 4 {
            Self::grow(capacity, items);
        }
        true
    }

    /// `computeIfAbsent` of a key new to the map (JDK 17): the table is resized *before*
    /// the insertion when already over its threshold (never after), and a new node goes to
    /// the *head* of a list bin (where `put` appends it at the tail); a tree bin takes it as
    /// `putTreeVal`. Returns whether the key is new.
    pub(crate) fn compute_if_absent(&mut self, key: K, hash_code: i32) -> bool {
        let State::List { capacity, first_capacity, items } = &mut self.state else {
            let State::Nodes(nodes) = &mut self.state else { unreachable!("not a list") };
            return nodes.compute_if_absent(key, hash_code);
        };
        if items.iter().any(|(k, _)| *k == key) {
            return false;
        }
        if *capacity == 0 {
            *capacity = *first_capacity;
        } else if items.len() > *capacity * 3 / 4 {
            Self::grow(capacity, items);
        }
        let hash = spread(hash_code);
        let mask = *capacity - 1;
        let bin = hash as usize & mask;
        let at = items.iter().position(|(_, h)| *h as usize & mask >= bin).unwrap_or(items.len());
        // Every node of the bin is passed while looking for the key (`binCount`).
        let in_bin = items[at..].iter().take_while(|(_, h)| *h as usize & mask == bin).count();
        let treeify = in_bin >= TREEIFY_THRESHOLD - 1;
        if items.len() >= LIST_MAX || (treeify && *capacity >= MIN_TREEIFY_CAPACITY) {
            let mut nodes = Box::new(Nodes::from_lists(*capacity, items));
            let added = nodes.compute_if_absent(key, hash_code);
            self.state = State::Nodes(nodes);
            return added;
        }
        items.insert(at, (key, hash));
        if treeify {
            // treeifyBin on a table below 64 bins: resize instead.
            Self::grow(capacity, items);
        }
        true
    }

    /// `resize` of a table of list bins: each bin splits into the keys without the new bit
    /// (which stay in their bin) and those with it (a bin `capacity` further), both halves
    /// in order. Sorted by the new bins, that is the low keys in their order, then the high
    /// ones in theirs.
    fn grow(capacity: &mut usize, items: &mut Vec<(K, u32)>) {
        let bit = *capacity as u32;
        let high: Vec<(K, u32)> = items.iter().filter(|(_, h)| h & bit != 0).cloned().collect();
        items.retain(|(_, h)| h & bit == 0);
        items.extend(high);
        *capacity *= 2;
    }

    /// `remove`: the table keeps its capacity.
    pub(crate) fn remove(&mut self, key: &K) -> bool {
        match &mut self.state {
            State::List { items, .. } => match items.iter().position(|(k, _)| k == key) {
                Some(at) => {
                    items.remove(at);
                    true
                }
                None => false,
            },
            State::Nodes(nodes) => nodes.remove(key),
        }
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// `size()`: how many keys.
    pub(crate) fn len(&self) -> usize {
        match &self.state {
            State::List { items, .. } => items.len(),
            State::Nodes(nodes) => nodes.len(),
        }
    }

    /// `iterator().next()`: the first key in iteration order.
    pub(crate) fn first(&self) -> Option<&K> {
        match &self.state {
            State::List { items, .. } => items.first().map(|(k, _)| k),
            State::Nodes(nodes) => nodes.first(),
        }
    }

    /// All keys in iteration order.
    pub(crate) fn order(&self) -> Vec<K> {
        match &self.state {
            State::List { items, .. } => items.iter().map(|(k, _)| k.clone()).collect(),
            State::Nodes(nodes) => nodes.order(),
        }
    }

    #[cfg(test)]
    pub(crate) fn capacity(&self) -> usize {
        match &self.state {
            State::List { capacity, .. } => *capacity,
            State::Nodes(nodes) => nodes.capacity(),
        }
    }

    /// How many bins are trees.
    #[cfg(test)]
    pub(crate) fn tree_bins(&self) -> usize {
        match &self.state {
            State::List { .. } => 0,
            State::Nodes(nodes) => nodes.tree_bins(),
        }
    }
}

/// The order in which `new HashMap<String, V>()` filled by `put`s of `keys` (in slice
/// order, no removals) iterates them, as indices into `keys`. A repeated key keeps its
/// first place and appears once.
pub(crate) fn string_map_order(keys: &[&str]) -> Vec<usize> {
    let hashes: Vec<u32> = keys.iter().map(|k| spread(string_hash(k))).collect();
    if let Some(order) = list_order(keys, &hashes, INITIAL_CAPACITY) {
        return order;
    }
    let mut map = JavaHashOrder::new();
    let mut first_index: BTreeMap<&str, usize> = BTreeMap::new();
    for (i, key) in keys.iter().enumerate() {
        if map.insert(*key, string_hash(key)) {
            first_index.insert(key, i);
        }
    }
    map.order().into_iter().filter_map(|key| first_index.get(key).copied()).collect()
}

/// The iteration order of a hash map whose table has `capacity` bins at its first `put`
/// (then doubling whenever its size exceeds three quarters of it), after `put`s of `keys`
/// (spread hashes `hashes`) in order with no removals — when every key is distinct and no
/// bin ever holds more than [`TREEIFY_THRESHOLD`] keys. Then every bin stays a list (no
/// `treeifyBin`: no tree, and no resize but the size's), and a list bin keeps its keys in
/// arrival order through every `resize`: the order is the keys sorted by their bin in the
/// last table, stably. `None` otherwise (the caller then replays the puts on a
/// [`JavaHashOrder`]).
///
/// Cost: a count of the keys per bin for each table size the map goes through, O(keys).
pub(crate) fn list_order<K: PartialEq>(keys: &[K], hashes: &[u32], capacity: usize) -> Option<Vec<usize>> {
    let n = keys.len();
    let mut cap = capacity.max(1);
    let mut counts: Vec<u32> = Vec::new();
    loop {
        // Every key put while the table has `cap` bins, and the ones before: the last of
        // them (the one past the threshold, if any) triggers the resize after its put.
        let threshold = cap * 3 / 4;
        let upto = n.min(threshold + 1);
        counts.clear();
        counts.resize(cap, 0);
        for &h in &hashes[..upto] {
            let c = &mut counts[h as usize & (cap - 1)];
            *c += 1;
            if *c as usize > TREEIFY_THRESHOLD {
                return None;
            }
        }
        if n > threshold {
            cap *= 2;
        } else {
            break;
        }
    }
    // A counting sort by bin (stable); then no two keys of one bin may be equal.
    let mut start = vec![0u32; cap + 1];
    for &h in hashes {
        start[(h as usize & (cap - 1)) + 1] += 1;
    }
    for b in 0..cap {
        start[b + 1] += start[b];
    }
    let mut order = vec![0usize; n];
    let mut next = start.clone();
    for (i, &h) in hashes.iter().enumerate() {
        let b = h as usize & (cap - 1);
        order[next[b] as usize] = i;
        next[b] += 1;
    }
    for b in 0..cap {
        let bin = &order[start[b] as usize..start[b + 1] as usize];
        for (x, &i) in bin.iter().enumerate() {
            if bin[..x].iter().any(|&j| keys[j] == keys[i]) {
                return None;
            }
        }
    }
    Some(order)
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

    proptest::proptest! {
        /// The sorted-by-bin shortcut gives the order the model gives by replaying the
        /// puts, whenever it answers (keys that collide in their low bits — long bins,
        /// early resizes, trees — make it decline).
        #[test]
        fn list_order_matches_the_model(
            keys in proptest::collection::vec((0i32..40, 0i32..4), 0..120),
            capacity in proptest::sample::select(vec![1usize, 2, 4, 16, 64]),
            spread_out in proptest::bool::ANY,
        ) {
            // Hash codes that share their low bits, or spread over the table.
            let mut keys: Vec<i32> = keys.iter().map(|&(k, high)| if spread_out { k * 7 + high * 1000 } else { k + (high << 10) }).collect();
            // Distinct keys (repeats only make it decline: the test below).
            let mut seen = std::collections::BTreeSet::new();
            keys.retain(|k| seen.insert(*k));
            let hashes: Vec<u32> = keys.iter().map(|&k| spread(k)).collect();
            // The table at the first put: `new HashMap<>()` has 16 bins, `new HashMap<>(c)` c.
            let mut map = if capacity == 16 { JavaHashOrder::new() } else { JavaHashOrder::with_capacity(capacity as i32) };
            for &k in &keys {
                map.insert(k, k);
            }
            if let Some(order) = list_order(&keys, &hashes, capacity) {
                let got: Vec<i32> = order.iter().map(|&i| keys[i]).collect();
                proptest::prop_assert_eq!(got, map.order());
            }
        }
    }

    proptest::proptest! {
        /// The list form and its move to the node model behave as the node model alone:
        /// the same order after every put, computeIfAbsent and remove, whether keys spread over the table
        /// or collide in their low bits (long bins, early resizes, tree bins, untreeify).
        #[test]
        fn list_form_matches_the_node_model(
            ops in proptest::collection::vec((0u8..10, 0i32..120), 0..300),
            first_capacity in proptest::sample::select(vec![1usize, 2, 16, 64]),
            stride in proptest::sample::select(vec![1i32, 5, 16, 64, 1024]),
        ) {
            let mut hybrid = JavaHashOrder::with_first_capacity(first_capacity);
            let mut model: Nodes<i32> = Nodes { threshold: first_capacity, ..Nodes::default() };
            for (op, k) in ops {
                let key = k.wrapping_mul(stride);
                match op {
                    0..=4 => proptest::prop_assert_eq!(hybrid.insert(key, key), model.insert(key, key)),
                    5..=6 => proptest::prop_assert_eq!(hybrid.compute_if_absent(key, key), model.compute_if_absent(key, key)),
                    _ => proptest::prop_assert_eq!(hybrid.remove(&key), model.remove(&key)),
                }
                proptest::prop_assert_eq!(hybrid.order(), model.order());
                proptest::prop_assert_eq!(hybrid.capacity(), model.capacity());
                proptest::prop_assert_eq!(hybrid.first(), model.first());
            }
        }
    }

    #[test]
    fn string_hash_is_java_string_hash() {
        for s in ["", "consumer-0001", "Aa", "BB", "x\u{e9}", "\u{1F600}", "polygenelubricants"] {
            assert_eq!(string_hash(s), java_string_hash(s), "{s}");
        }
    }

    #[test]
    fn list_order_declines_long_bins_and_repeats() {
        let hashes = |keys: &[i32]| keys.iter().map(|&k| spread(k)).collect::<Vec<u32>>();
        // Nine keys in bin 0 of 16: treeifyBin would resize.
        let nine: Vec<i32> = (0..9).map(|i| i * 16).collect();
        assert_eq!(list_order(&nine, &hashes(&nine), 16), None);
        assert_eq!(list_order(&[3, 3], &hashes(&[3, 3]), 16), None);
        let fine: Vec<i32> = (0..100).collect();
        assert_eq!(list_order(&fine, &hashes(&fine), 16), Some((0..100).collect()));
    }

    /// A presized table below 16 bins: the JDK recomputes the threshold as three quarters of
    /// the new table on each resize. `new HashMap<>(2)` after puts of 1, 5, 3 has 4 bins
    /// (JDK 17 prints `[1, 5, 3]`); doubling a threshold of 1 would have made it 8 bins.
    #[test]
    fn small_presized_table_keeps_three_quarters() {
        let mut map = JavaHashOrder::with_capacity(2);
        for k in [1, 5, 3] {
            map.insert(k, k);
        }
        assert_eq!(map.capacity(), 4);
        assert_eq!(map.order(), vec![1, 5, 3]);
        // `new HashMap<>(0)` after puts of 1, 2, 5, 3: 8 bins, `[1, 2, 3, 5]`.
        let mut map = JavaHashOrder::with_capacity(0);
        for k in [1, 2, 5, 3] {
            map.insert(k, k);
        }
        assert_eq!(map.capacity(), 8);
        assert_eq!(map.order(), vec![1, 2, 3, 5]);
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

/// Eleven member ids with one `String.hashCode` (blocks of "Aa"/"BB"): the 11th
/// insertion treeifies their bin. Expected orders printed by JDK 17's `HashMap`.
#[cfg(test)]
mod tree_bin_example {
    use super::*;

    const JOIN_ORDER: [&str; 11] = [
        "BBAaAaAa", "AaAaAaAa", "AaBBAaAa", "BBAaAaBB", "BBBBAaBB", "BBBBBBAa", "AaBBBBAa", "BBBBAaAa", "BBAaBBBB", "BBBBBBBB", "AaBBBBBB",
    ];

    fn order(keys: &[&'static str]) -> Vec<&'static str> {
        string_map_order(keys).into_iter().map(|i| keys[i]).collect()
    }

    /// `subscriptions` (filled in JoinGroup order) iterates the tree's root first;
    /// `consumerToOwnedPartitions`, filled in that order, builds another tree.
    #[test]
    fn a_second_map_filled_in_iteration_order_iterates_differently() {
        let subscriptions = order(&JOIN_ORDER);
        assert_eq!(
            subscriptions,
            [
                "BBAaAaBB", "BBAaAaAa", "AaAaAaAa", "AaBBAaAa", "BBBBAaBB", "BBBBBBAa", "AaBBBBAa", "BBBBAaAa", "BBAaBBBB", "BBBBBBBB",
                "AaBBBBBB"
            ]
        );
        assert_eq!(
            order(&subscriptions),
            [
                "BBAaAaAa", "BBAaAaBB", "AaAaAaAa", "AaBBAaAa", "BBBBAaBB", "BBBBBBAa", "AaBBBBAa", "BBBBAaAa", "BBAaBBBB", "BBBBBBBB",
                "AaBBBBBB"
            ]
        );
    }
}

/// Differential vectors from JDK 17's own `java.util.HashMap` (see tests/vectors/README.md):
/// random `put`/`remove` sequences and the iteration order they leave.
#[cfg(test)]
#[allow(clippy::unwrap_used)] // Tests may unwrap: a panic is a failed test.
mod jdk_vectors {
    use super::*;
    use crate::partitioner::java_string_hash;
    use serde_json::Value;

    const VECTORS: &str = include_str!("../../../tests/vectors/java-hashmap.jsonl");

    /// Applies `ops` ("+key" puts, "-key" removes); returns the order and whether a tree
    /// bin took part: one existed when a key was put or removed.
    fn run<'a, K: JavaKey>(ops: &[&'a str], key: impl Fn(&'a str) -> (K, i32)) -> (Vec<K>, bool) {
        let mut map = JavaHashOrder::new();
        let mut trees = false;
        for op in ops {
            let (k, hash) = key(&op[1..]);
            trees |= map.tree_bins() > 0;
            if op.starts_with('+') {
                map.insert(k, hash);
            } else {
                assert!(map.remove(&k), "{op} was not present");
            }
        }
        (map.order(), trees)
    }

    #[test]
    fn iteration_order_matches_the_jdk() {
        let mut with_trees = 0;
        for (n, line) in VECTORS.lines().enumerate() {
            let case: Value = serde_json::from_str(line).unwrap();
            let ops: Vec<&str> = case["ops"].as_array().unwrap().iter().map(|v| v.as_str().unwrap()).collect();
            let expect: Vec<&str> = case["order"].as_array().unwrap().iter().map(|v| v.as_str().unwrap()).collect();
            let (got, trees): (Vec<String>, bool) = if case["keys"] == "int" {
                let (order, trees) = run(&ops, |k| {
                    let v: i32 = k.parse().unwrap();
                    (v, v)
                });
                (order.iter().map(i32::to_string).collect(), trees)
            } else {
                let (order, trees) = run(&ops, |k| (k, java_string_hash(k)));
                (order.iter().map(|s| s.to_string()).collect(), trees)
            };
            assert_eq!(got, expect, "vector {} (line {}): {line}", n, n + 1);
            with_trees += usize::from(trees);
        }
        // The vectors exist for the tree bins: most must reach one.
        assert!(with_trees >= 100, "only {with_trees} vectors reach a tree bin");
    }
}
