//! Sorting, and collecting into sorted maps and sets, through one copy of the standard
//! library's sort for the whole crate.
//!
//! Every `slice::sort*` call with its own element type or comparator, and every
//! `collect()` into a `BTreeMap` or `BTreeSet` of its own key and value types (which sorts
//! before building), puts another full copy of the standard library's stable sort in the
//! page's wasm (about 4.5 KB each before wasm-opt). These functions sort a list of indices
//! instead, with one comparator type, so there is one copy; what is generic per element
//! type is a few lines. The results are the standard library's exactly: [`sort_by`] is a
//! stable sort, and [`map`] and [`set`] keep the last value of a repeated key, as
//! `collect()` does. See BENCHMARKS.md, "Bundle".

use std::cmp::Ordering;
use std::collections::{BTreeMap, BTreeSet};

/// `v.sort_by(cmp)`: stable.
pub fn sort_by<T>(v: &mut [T], mut cmp: impl FnMut(&T, &T) -> Ordering) {
    if v.len() < 2 {
        return;
    }
    let mut order: Vec<usize> = (0..v.len()).collect();
    sort_indices(&mut order, &mut |a, b| cmp(&v[a], &v[b]));
    permute(&mut order, &mut |a, b| v.swap(a, b));
}

/// `v.sort_by_key(key)`: stable; the key is computed for each comparison, as the standard
/// library's `sort_by_key` does.
pub fn sort_by_key<T, K: Ord>(v: &mut [T], mut key: impl FnMut(&T) -> K) {
    sort_by(v, |a, b| key(a).cmp(&key(b)));
}

/// `v.sort()`: stable.
pub fn sort<T: Ord>(v: &mut [T]) {
    sort_by(v, T::cmp);
}

/// `items.collect::<BTreeMap<_, _>>()`, without the sort that `collect` does first.
pub fn map<K: Ord, V>(items: impl IntoIterator<Item = (K, V)>) -> BTreeMap<K, V> {
    let mut map = BTreeMap::new();
    map.extend(items);
    map
}

/// `items.collect::<BTreeSet<_>>()`, without the sort that `collect` does first.
pub fn set<T: Ord>(items: impl IntoIterator<Item = T>) -> BTreeSet<T> {
    let mut set = BTreeSet::new();
    set.extend(items);
    set
}

/// `collect()` into a `BTreeMap` or `BTreeSet` through [`map`] and [`set`].
pub trait CollectSorted: Iterator + Sized {
    fn collect_map<K: Ord, V>(self) -> BTreeMap<K, V>
    where
        Self: Iterator<Item = (K, V)>,
    {
        map(self)
    }

    fn collect_set(self) -> BTreeSet<Self::Item>
    where
        Self::Item: Ord,
    {
        set(self)
    }
}

impl<I: Iterator> CollectSorted for I {}

/// The crate's one instantiation of the standard library's stable sort.
#[inline(never)]
fn sort_indices(order: &mut [usize], cmp: &mut dyn FnMut(usize, usize) -> Ordering) {
    order.sort_by(|a, b| cmp(*a, *b));
}

/// Rearranges a list so that position `i` holds what was at `order[i]`, by swaps along
/// each cycle of the permutation (`order` is left as the identity).
#[inline(never)]
fn permute(order: &mut [usize], swap: &mut dyn FnMut(usize, usize)) {
    for start in 0..order.len() {
        let mut at = start;
        while order[at] != start {
            let from = order[at];
            swap(at, from);
            order[at] = at;
            at = from;
        }
        order[at] = at;
    }
}

#[cfg(test)]
// The test compares `sort_by` with the standard library's `sort_by` on purpose.
#[allow(clippy::unnecessary_sort_by)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn the_same_order_as_the_standard_library(v in proptest::collection::vec((0u8..6, any::<u16>()), 0..200)) {
            let mut ours = v.clone();
            let mut std = v.clone();
            sort_by_key(&mut ours, |x| x.0);
            std.sort_by_key(|x| x.0);
            prop_assert_eq!(&ours, &std, "stable by key");
            let (mut ours, mut std) = (v.clone(), v.clone());
            sort_by(&mut ours, |a, b| b.1.cmp(&a.1));
            std.sort_by(|a, b| b.1.cmp(&a.1));
            prop_assert_eq!(&ours, &std, "stable by comparator");
            let (mut ours, mut std) = (v.clone(), v.clone());
            sort(&mut ours);
            std.sort();
            prop_assert_eq!(&ours, &std);
            prop_assert_eq!(map(v.iter().copied()), v.iter().copied().collect::<BTreeMap<_, _>>(), "last value wins");
            prop_assert_eq!(set(v.iter().copied()), v.iter().copied().collect::<BTreeSet<_>>());
        }
    }
}
