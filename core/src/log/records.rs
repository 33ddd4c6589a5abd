//! How a segment holds its records, and the borrowed view of a range of a log's records.
//!
//! A segment's records are kept in chunks of [`CHUNK`] records, each behind an [`Arc`]:
//! a clone of a log (the page's time travel keeps up to 48 clones of the whole `Sim`)
//! shares every chunk and copies only the pointers; the next append to the shared last
//! chunk copies that chunk alone (`Arc::make_mut`). Sealed segments are never written
//! again: truncation cuts a tail and the cleaner replaces whole segments, so what a clone
//! holds stays shared for its life. Every chunk of a segment but its last is full, so the
//! i-th record of a segment is found without a search.
//!
//! Offsets increase along a log but need not be consecutive: compaction leaves gaps
//! (`LogCleaner` keeps every record's offset). A record is found by binary search, over
//! the segments by their offset ranges, then within its segment.

use crate::record::StoredRecord;
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// Records per chunk: a clone's first append to a log copies at most this many.
pub(crate) const CHUNK: usize = 256;
const CHUNK_SHIFT: u32 = CHUNK.trailing_zeros();

/// One segment's records, oldest first, in shared chunks (see the module's doc).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct SegmentRecords {
    chunks: Vec<Arc<Vec<StoredRecord>>>,
    len: usize,
}

impl SegmentRecords {
    /// The records of `records`, in order.
    pub(crate) fn from_vec(records: Vec<StoredRecord>) -> Self {
        let len = records.len();
        let mut chunks = Vec::with_capacity(len.div_ceil(CHUNK));
        let mut it = records.into_iter().peekable();
        while it.peek().is_some() {
            let mut chunk = Vec::with_capacity(CHUNK);
            chunk.extend(it.by_ref().take(CHUNK));
            chunks.push(Arc::new(chunk));
        }
        Self { chunks, len }
    }

    pub(crate) fn len(&self) -> usize {
        self.len
    }

    /// The `i`-th record.
    #[inline]
    pub(crate) fn get(&self, i: usize) -> Option<&StoredRecord> {
        if i >= self.len {
            return None;
        }
        self.chunks.get(i >> CHUNK_SHIFT).and_then(|c| c.get(i & (CHUNK - 1)))
    }

    pub(crate) fn last(&self) -> Option<&StoredRecord> {
        self.chunks.last().and_then(|c| c.last())
    }

    /// Appends `r`: into the last chunk (copied first if a clone shares it) or a new one.
    pub(crate) fn push(&mut self, r: StoredRecord) {
        match self.chunks.last_mut() {
            Some(last) if last.len() < CHUNK => {
                if Arc::get_mut(last).is_none() {
                    // Shared with a clone: copy it once, with room for a whole chunk.
                    let mut copy = Vec::with_capacity(CHUNK);
                    copy.extend(last.iter().cloned());
                    *last = Arc::new(copy);
                }
                Arc::make_mut(last).push(r);
            }
            _ => {
                let mut chunk = Vec::with_capacity(CHUNK);
                chunk.push(r);
                self.chunks.push(Arc::new(chunk));
            }
        }
        self.len += 1;
    }

    /// Keeps the first `n` records; returns the rest, oldest first.
    pub(crate) fn split_off(&mut self, n: usize) -> Vec<StoredRecord> {
        if n >= self.len {
            return Vec::new();
        }
        let removed: Vec<StoredRecord> = self.range(n, self.len).cloned().collect();
        let full = n >> CHUNK_SHIFT;
        let rest = n & (CHUNK - 1);
        self.chunks.truncate(full + usize::from(rest > 0));
        if rest > 0 {
            if let Some(last) = self.chunks.last_mut() {
                Arc::make_mut(last).truncate(rest);
            }
        }
        self.len = n;
        removed
    }

    /// The first index whose record's offset is at least `offset` (`len` if none).
    pub(crate) fn position(&self, offset: u64) -> usize {
        // Binary search over the records as one sorted sequence.
        let (mut lo, mut hi) = (0, self.len);
        while lo < hi {
            let mid = lo + (hi - lo) / 2;
            match self.get(mid) {
                Some(r) if r.offset < offset => lo = mid + 1,
                _ => hi = mid,
            }
        }
        lo
    }

    /// The first index whose record fails `pred` (`pred` holds for a prefix).
    pub(crate) fn partition_point(&self, pred: impl Fn(&StoredRecord) -> bool) -> usize {
        let (mut lo, mut hi) = (0, self.len);
        while lo < hi {
            let mid = lo + (hi - lo) / 2;
            match self.get(mid) {
                Some(r) if pred(r) => lo = mid + 1,
                _ => hi = mid,
            }
        }
        lo
    }

    /// Records `lo..hi`, oldest first.
    pub(crate) fn range(&self, lo: usize, hi: usize) -> impl DoubleEndedIterator<Item = &StoredRecord> + '_ {
        let hi = hi.min(self.len);
        let lo = lo.min(hi);
        (lo..hi).filter_map(move |i| self.get(i))
    }

    /// Every record, oldest first.
    pub(crate) fn iter(&self) -> impl DoubleEndedIterator<Item = &StoredRecord> + '_ {
        self.chunks.iter().flat_map(|c| c.iter())
    }

    /// The chunks as slices, oldest first.
    pub(crate) fn slices(&self) -> impl Iterator<Item = &[StoredRecord]> + '_ {
        self.chunks.iter().map(|c| c.as_slice())
    }

    /// Whether the chunks are shared with `other` (the same allocations): what a clone
    /// keeps in common with the log it was cloned from.
    #[cfg(test)]
    pub(crate) fn shares_with(&self, other: &SegmentRecords) -> usize {
        self.chunks.iter().zip(&other.chunks).filter(|(a, b)| Arc::ptr_eq(a, b)).count()
    }
}

/// A place in a log: the `idx`-th record of segment `seg` (`seg` = the segment count at
/// the end).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) struct Pos {
    pub(crate) seg: usize,
    pub(crate) idx: usize,
}

/// A borrowed range of a log's records, oldest first, offsets increasing (with gaps where
/// the cleaner removed records). It crosses segments, so it is a view rather than a slice:
/// [`Records::iter`] walks it (both ways), [`Records::len`], [`Records::first`],
/// [`Records::last`] and [`Records::get`] answer without copying, [`Records::to_vec`]
/// copies it.
#[derive(Clone, Copy)]
pub struct Records<'a> {
    segments: &'a [super::Segment],
    start: Pos,
    end: Pos,
    len: usize,
}

/// No records (what a missing log reads as).
impl Default for Records<'_> {
    fn default() -> Self {
        Records::empty()
    }
}

impl std::fmt::Debug for Records<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl PartialEq for Records<'_> {
    fn eq(&self, other: &Self) -> bool {
        self.len == other.len && self.iter().eq(other.iter())
    }
}

impl<'a> Records<'a> {
    /// No records.
    pub fn empty() -> Self {
        Records { segments: &[], start: Pos { seg: 0, idx: 0 }, end: Pos { seg: 0, idx: 0 }, len: 0 }
    }

    /// Records from `start` (inclusive) to `end` (exclusive) of `segments`.
    pub(crate) fn new(segments: &'a [super::Segment], start: Pos, end: Pos) -> Self {
        if end <= start {
            return Records { segments, start, end: start, len: 0 };
        }
        let len = if start.seg == end.seg {
            end.idx - start.idx
        } else {
            let first = segments.get(start.seg).map_or(0, |s| s.records.len()) - start.idx;
            let middle: usize = segments[start.seg + 1..end.seg.min(segments.len())].iter().map(|s| s.records.len()).sum();
            first + middle + end.idx
        };
        Records { segments, start, end, len }
    }

    /// How many records.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The records, oldest first (reversible).
    pub fn iter(&self) -> Iter<'a> {
        Iter { segments: self.segments, front: self.start, back: self.end, left: self.len }
    }

    /// The oldest.
    pub fn first(&self) -> Option<&'a StoredRecord> {
        self.iter().next()
    }

    /// The newest.
    pub fn last(&self) -> Option<&'a StoredRecord> {
        self.iter().next_back()
    }

    /// The `i`-th, oldest first.
    pub fn get(&self, i: usize) -> Option<&'a StoredRecord> {
        if i >= self.len {
            return None;
        }
        let mut pos = self.start;
        let mut i = i;
        loop {
            let seg = self.segments.get(pos.seg)?;
            let here = seg.records.len() - pos.idx.min(seg.records.len());
            if i < here {
                return seg.records.get(pos.idx + i);
            }
            i -= here;
            pos = Pos { seg: pos.seg + 1, idx: 0 };
        }
    }

    /// The records from the `i`-th on.
    pub fn skip(&self, i: usize) -> Records<'a> {
        self.sub(i, self.len)
    }

    /// The records from the `lo`-th to before the `hi`-th.
    pub fn sub(&self, lo: usize, hi: usize) -> Records<'a> {
        let hi = hi.min(self.len);
        let lo = lo.min(hi);
        let start = self.advance(self.start, lo);
        let end = self.advance(start, hi - lo);
        Records { segments: self.segments, start, end, len: hi - lo }
    }

    /// `pos` moved `n` records on.
    fn advance(&self, mut pos: Pos, mut n: usize) -> Pos {
        while let Some(seg) = self.segments.get(pos.seg) {
            let here = seg.records.len().saturating_sub(pos.idx);
            if n <= here {
                return Pos { seg: pos.seg, idx: pos.idx + n };
            }
            n -= here;
            pos = Pos { seg: pos.seg + 1, idx: 0 };
        }
        pos
    }

    /// A copy of the records.
    pub fn to_vec(&self) -> Vec<StoredRecord> {
        self.iter().cloned().collect()
    }

    /// The records as slices (one per stretch of storage), oldest first: for a reader
    /// that wants contiguous memory.
    pub fn slices(&self) -> impl Iterator<Item = &'a [StoredRecord]> + 'a {
        let (start, end, segments, len) = (self.start, self.end, self.segments, self.len);
        let last = if len == 0 { 0 } else { end.seg.min(segments.len().saturating_sub(1)) + 1 };
        (start.seg.min(last)..last).flat_map(move |s| {
            let seg = &segments[s];
            let lo = if s == start.seg { start.idx } else { 0 };
            let hi = if s == end.seg { end.idx } else { seg.records.len() };
            let mut at = 0;
            seg.records.slices().filter_map(move |chunk| {
                let (c_lo, c_hi) = (at, at + chunk.len());
                at = c_hi;
                let (a, b) = (lo.max(c_lo), hi.min(c_hi));
                (a < b).then(|| &chunk[a - c_lo..b - c_lo])
            })
        })
    }
}

impl<'a> IntoIterator for Records<'a> {
    type Item = &'a StoredRecord;
    type IntoIter = Iter<'a>;
    fn into_iter(self) -> Iter<'a> {
        self.iter()
    }
}

impl<'a> IntoIterator for &Records<'a> {
    type Item = &'a StoredRecord;
    type IntoIter = Iter<'a>;
    fn into_iter(self) -> Iter<'a> {
        self.iter()
    }
}

/// An iterator over [`Records`], both ways.
#[derive(Clone)]
pub struct Iter<'a> {
    segments: &'a [super::Segment],
    front: Pos,
    back: Pos,
    left: usize,
}

impl<'a> Iterator for Iter<'a> {
    type Item = &'a StoredRecord;

    #[inline]
    fn next(&mut self) -> Option<&'a StoredRecord> {
        if self.left == 0 {
            return None;
        }
        loop {
            let seg = self.segments.get(self.front.seg)?;
            if let Some(r) = seg.records.get(self.front.idx) {
                self.front.idx += 1;
                self.left -= 1;
                return Some(r);
            }
            self.front = Pos { seg: self.front.seg + 1, idx: 0 };
        }
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.left, Some(self.left))
    }
}

impl<'a> DoubleEndedIterator for Iter<'a> {
    fn next_back(&mut self) -> Option<&'a StoredRecord> {
        if self.left == 0 {
            return None;
        }
        loop {
            if self.back.idx == 0 {
                if self.back.seg == 0 {
                    return None;
                }
                self.back.seg -= 1;
                self.back.idx = self.segments.get(self.back.seg).map_or(0, |s| s.records.len());
                continue;
            }
            self.back.idx -= 1;
            let r = self.segments.get(self.back.seg).and_then(|s| s.records.get(self.back.idx));
            if r.is_some() {
                self.left -= 1;
            }
            return r;
        }
    }
}

impl ExactSizeIterator for Iter<'_> {}

#[cfg(test)]
mod tests {
    use super::super::{PartitionLog, SegmentConfig};
    use crate::record::{Record, TimestampType};
    use crate::time::SimTime;

    /// A log of `n` single-record batches, `per_segment` records a segment (71 bytes each).
    fn log_of(n: u64, per_segment: u64) -> PartitionLog {
        let mut log = PartitionLog::new(SegmentConfig { segment_bytes: 71 * per_segment, segment_ms: u64::MAX });
        for i in 0..n {
            log.append(Record::sample(i, i), SimTime(i), TimestampType::CreateTime, 0);
        }
        log
    }

    #[test]
    fn a_view_across_segments_reads_as_the_records_in_order() {
        let log = log_of(1000, 300);
        assert_eq!(log.segments().len(), 4);
        let all = log.records();
        let offsets: Vec<u64> = all.iter().map(|r| r.offset).collect();
        assert_eq!(offsets, (0..1000).collect::<Vec<_>>());
        assert_eq!(all.len(), 1000);
        let back: Vec<u64> = all.iter().rev().map(|r| r.offset).collect();
        assert_eq!(back, (0..1000).rev().collect::<Vec<_>>());
        for i in [0, 1, 255, 256, 299, 300, 301, 599, 600, 999] {
            assert_eq!(all.get(i).map(|r| r.offset), Some(i as u64));
            assert_eq!(log.get(i as u64).map(|r| r.offset), Some(i as u64));
        }
        assert!(all.get(1000).is_none() && log.get(1000).is_none());
        let mid = log.records_between(250, 650);
        assert_eq!((mid.len(), mid.first().map(|r| r.offset), mid.last().map(|r| r.offset)), (400, Some(250), Some(649)));
        assert_eq!(mid.iter().rev().count(), 400);
        let sub = mid.sub(40, 100);
        assert_eq!(sub.iter().map(|r| r.offset).collect::<Vec<_>>(), (290..350).collect::<Vec<_>>());
        let sliced: Vec<u64> = mid.slices().flat_map(|s| s.iter().map(|r| r.offset)).collect();
        assert_eq!(sliced, (250..650).collect::<Vec<_>>());
        assert_eq!(log.newest(3).iter().map(|r| r.offset).collect::<Vec<_>>(), vec![997, 998, 999]);
        assert_eq!(log.read_up_to(990, 5, 2000).len(), 5);
        assert!(log.records_between(700, 700).is_empty());
        // Iterating from both ends meets in the middle.
        let mut it = sub.iter();
        let (a, b) = (it.next().map(|r| r.offset), it.next_back().map(|r| r.offset));
        assert_eq!((a, b, it.len()), (Some(290), Some(349), 58));
    }

    #[test]
    fn a_clone_shares_every_chunk_and_an_append_copies_only_the_last() {
        let mut log = log_of(1000, u64::MAX / 71);
        let copy = log.clone();
        let (a, b) = (&log.segments()[0].records, &copy.segments()[0].records);
        assert_eq!(a.shares_with(b), 1000usize.div_ceil(super::CHUNK), "every chunk shared");
        log.append(Record::sample(1000, 1000), SimTime(1000), TimestampType::CreateTime, 0);
        let (a, b) = (&log.segments()[0].records, &copy.segments()[0].records);
        assert_eq!(a.shares_with(b), 1000 / super::CHUNK, "the last chunk was copied, the rest still shared");
        assert_eq!((copy.log_end_offset(), log.log_end_offset()), (1000, 1001));
        assert_eq!(copy.records().len(), 1000, "the clone is unchanged");
        // Truncating the original leaves the clone whole too.
        log.truncate_to(10);
        assert_eq!((log.records().len(), copy.records().len()), (10, 1000));
    }
}
