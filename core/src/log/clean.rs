//! Log compaction of one replica's log (`cleanup.policy=compact`): which part of the log
//! the cleaner may take and how dirty it is (`LogCleanerManager.cleanableOffsets`,
//! `calculateCleanableBytes`, `maxCompactionDelay`, `LogToClean`), and one cleaning pass
//! (`Cleaner.doClean`: the offset map of the dirty part, `groupSegmentsBySize`,
//! `cleanSegments` / `cleanInto` with `shouldRetainRecord`, tombstones' `deleteHorizonMs`
//! from KIP-534, aborted transactions and markers through `CleanedTransactionMetadata`).
//!
//! Offsets never change: a pass removes records and leaves gaps. The active segment and
//! everything from the last stable offset on are never cleaned. The engine that decides
//! when each broker's cleaner runs is `sim/cluster/cleaner.rs`.

use super::{measure, PartitionLog, Segment, SegmentRecords};
use crate::record::{ControlType, RecordId, StoredRecord, TxnTag};
use crate::time::SimTime;
use crate::txn::AbortedTxn;
use crate::vecmap::{VecMap, VecSet};
use serde::{Deserialize, Serialize};

/// What the cleaner reads of a topic's settings (`LogConfig`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CompactionConfig {
    /// `min.cleanable.dirty.ratio`: the dirty share a log must pass (strictly).
    pub min_cleanable_dirty_ratio: f64,
    /// `min.compaction.lag.ms`: segments holding a younger record are not cleaned.
    pub min_compaction_lag_ms: u64,
    /// `max.compaction.lag.ms`: a dirty segment whose first batch is older is cleaned
    /// whatever the ratio.
    pub max_compaction_lag_ms: u64,
    /// `delete.retention.ms`: how long a tombstone stays after its first pass.
    pub delete_retention_ms: u64,
    /// `segment.bytes`: cleaned segments are merged up to this size (`groupSegmentsBySize`).
    pub segment_bytes: u64,
}

impl Default for CompactionConfig {
    fn default() -> Self {
        Self {
            min_cleanable_dirty_ratio: 0.5,
            min_compaction_lag_ms: 0,
            max_compaction_lag_ms: i64::MAX as u64,
            delete_retention_ms: 86_400_000,
            segment_bytes: 1 << 30,
        }
    }
}

/// A log as the cleaner sees it before a pass (`LogToClean`): the dirty range and how
/// dirty it is.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LogToClean {
    /// Where the dirty part begins: the cleaner's checkpoint, or the log start.
    pub first_dirty_offset: u64,
    /// Where the cleanable part ends: the base offset of the segment holding the first
    /// offset the cleaner may not pass (the LSO, the active segment, `min.compaction.lag.ms`).
    pub first_uncleanable_offset: u64,
    /// Bytes of the segments below the dirty part.
    pub clean_bytes: u64,
    /// Bytes of the segments of the dirty part the cleaner may take.
    pub cleanable_bytes: u64,
    /// Whether `max.compaction.lag.ms` is overdue for a dirty segment.
    pub need_compaction_now: bool,
}

impl LogToClean {
    /// `cleanableBytes / (cleanBytes + cleanableBytes)`, as Kafka's `double`.
    pub fn cleanable_ratio(&self) -> f64 {
        let total = self.clean_bytes + self.cleanable_bytes;
        if total == 0 {
            0.0
        } else {
            self.cleanable_bytes as f64 / total as f64
        }
    }

    /// Whether the cleaner takes it (`grabFilthiestCompactedLog`): some cleanable bytes
    /// with `max.compaction.lag.ms` overdue, or a ratio strictly above the minimum.
    pub fn eligible(&self, min_cleanable_dirty_ratio: f64) -> bool {
        (self.need_compaction_now && self.cleanable_bytes > 0) || self.cleanable_ratio() > min_cleanable_dirty_ratio
    }
}

/// A producer whose last batch a pass emptied (`BatchRetention.RETAIN_EMPTY`): Kafka keeps
/// the batch's header so the producer's sequence survives; the sandbox keeps what the
/// leader's duplicate check needs from it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct RetainedBatch {
    pub(crate) txn: Option<TxnTag>,
    pub(crate) last_sequence: Option<u32>,
    pub(crate) last_offset: u64,
}

/// What one cleaning pass did.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct CleanResult {
    /// The dirty range the pass cleaned: from here…
    pub first_dirty_offset: u64,
    /// …to here (exclusive): the new checkpoint.
    pub end_offset: u64,
    /// The dirty share before the pass.
    pub cleanable_ratio: f64,
    /// Records the pass removed, oldest first: older values of a key, tombstones past
    /// their horizon, aborted records, markers of emptied transactions, keyless records.
    pub removed: Vec<RecordId>,
    /// Of those, the tombstones.
    pub tombstones_removed: Vec<RecordId>,
    /// Of those, the transaction markers.
    pub markers_removed: Vec<RecordId>,
    /// Tombstones (and markers) the pass kept and stamped with a delete horizon.
    pub stamped: Vec<RecordId>,
    /// The horizon it stamped: the pass's time plus `delete.retention.ms`.
    pub delete_horizon: Option<SimTime>,
    /// Segments and bytes before and after.
    pub segments_before: usize,
    /// Segments after the pass (cleaned segments merge up to `segment.bytes`).
    pub segments_after: usize,
    /// The log's bytes before the pass.
    pub bytes_before: u64,
    /// The log's bytes after the pass.
    pub bytes_after: u64,
}

/// `CleanedTransactionMetadata`: what a pass knows of the transactions it walks through.
#[derive(Default)]
struct TxnWalk {
    /// Aborted transactions not reached yet, by first offset.
    aborted: Vec<AbortedTxn>,
    next: usize,
    /// Producer id → its aborted transaction being walked, and whether a batch of it was seen.
    ongoing_aborted: VecMap<u64, (AbortedTxn, bool)>,
    ongoing_committed: VecSet<u64>,
    /// Aborted transactions whose marker the pass keeps (the cleaned `.txnindex`).
    kept: Vec<AbortedTxn>,
}

impl TxnWalk {
    fn consume_up_to(&mut self, offset: u64) {
        while let Some(a) = self.aborted.get(self.next).filter(|a| a.first_offset <= offset) {
            let a = *a;
            self.next += 1;
            self.ongoing_aborted.entry(a.producer_id).or_insert((a, false));
        }
    }

    /// `onBatchRead`: whether a data batch belongs to an aborted transaction.
    fn on_batch(&mut self, last_offset: u64, txn: Option<TxnTag>) -> bool {
        self.consume_up_to(last_offset);
        let Some(tag) = txn else { return false };
        match self.ongoing_aborted.get_mut(&tag.producer_id) {
            Some(entry) => {
                entry.1 = true;
                true
            }
            None => {
                self.ongoing_committed.insert(tag.producer_id);
                false
            }
        }
    }

    /// `onControlBatchRead`: whether a marker may be discarded (its transaction's data gone).
    fn on_control(&mut self, offset: u64, kind: ControlType, producer_id: u64) -> bool {
        self.consume_up_to(offset);
        match kind {
            ControlType::Abort => match self.ongoing_aborted.remove(&producer_id) {
                Some((a, true)) => {
                    self.kept.push(a);
                    false
                }
                _ => true,
            },
            ControlType::Commit => !self.ongoing_committed.remove(&producer_id),
        }
    }
}

impl PartitionLog {
    /// The cleaner's checkpoint for this log (`cleaner-offset-checkpoint`): where its last
    /// pass ended, `None` before the first.
    pub fn cleaner_checkpoint(&self) -> Option<u64> {
        self.cleaner_checkpoint
    }

    /// Where the dirty part begins: the checkpoint, or the log start when there is none or
    /// it is no longer valid (`cleanableOffsets`).
    pub fn first_dirty_offset(&self) -> u64 {
        let start = self.log_start_offset;
        match self.cleaner_checkpoint {
            Some(c) if c >= start && c <= self.log_end_offset() => c,
            _ => start,
        }
    }

    /// How many passes the cleaner has made over this log.
    pub fn cleaner_passes(&self) -> u32 {
        self.cleaner_passes
    }

    /// The segments from the one holding `offset` up to the active one, excluded
    /// (`nonActiveLogSegmentsFrom`).
    fn non_active_from(&self, offset: u64) -> &[Segment] {
        let active = self.segments.len().saturating_sub(1);
        let Some(active_base) = self.segments.last().map(|s| s.base_offset) else { return &[] };
        if offset > active_base {
            return &[];
        }
        let from = self.segments.partition_point(|s| s.base_offset <= offset).saturating_sub(1);
        &self.segments[from.min(active)..active]
    }

    /// The sum of the sizes of `logSegments(from, to)`: the segment holding `from` and
    /// every later one starting below `to` (`from = None` starts at the first).
    fn bytes_between(&self, from: Option<u64>, to: u64) -> u64 {
        let first = match from {
            Some(f) => self.segments.partition_point(|s| s.base_offset <= f).saturating_sub(1),
            None => 0,
        };
        self.segments.iter().skip(first).take_while(|s| s.base_offset < to).map(|s| s.size_bytes).sum()
    }

    /// The log as the cleaner would take it at `now` (`cleanableOffsets`,
    /// `calculateCleanableBytes`, `maxCompactionDelay`), `None` for an empty log.
    pub fn to_clean(&self, now: SimTime, config: &CompactionConfig) -> Option<LogToClean> {
        let first_dirty = self.first_dirty_offset();
        let active_base = self.segments.last().map_or(self.log_start_offset, |s| s.base_offset);
        let mut uncleanable = self.last_stable_offset().min(active_base);
        if config.min_compaction_lag_ms > 0 {
            let young = self.non_active_from(first_dirty).iter().find(|s| {
                s.largest_timestamp.is_some_and(|t| u128::from(t.ms()) + u128::from(config.min_compaction_lag_ms) > u128::from(now.ms()))
            });
            if let Some(s) = young {
                uncleanable = uncleanable.min(s.base_offset);
            }
        }
        let uncleanable = uncleanable.max(first_dirty);
        // The first uncleanable segment: the non-active one holding that offset, else the
        // active one; the cleaner stops at its base.
        let first_uncleanable = match self.non_active_from(uncleanable).first() {
            Some(s) => s.base_offset,
            None => active_base,
        };
        let cleanable_bytes = self.bytes_between(Some(first_dirty.min(first_uncleanable)), first_uncleanable);
        let clean_bytes = self.bytes_between(None, first_dirty);
        if clean_bytes + cleanable_bytes == 0 {
            return None;
        }
        // `maxCompactionDelay`: the earliest first-batch timestamp of a dirty non-active
        // segment (positive ones only), against now − max.compaction.lag.ms.
        let earliest =
            self.non_active_from(first_dirty).iter().filter_map(|s| s.rolling_timestamp).map(SimTime::ms).filter(|t| *t > 0).min();
        let clean_until = i128::from(now.ms()) - i128::from(config.max_compaction_lag_ms);
        let need_compaction_now = earliest.is_some_and(|t| i128::from(t) < clean_until);
        Some(LogToClean {
            first_dirty_offset: first_dirty,
            first_uncleanable_offset: first_uncleanable,
            clean_bytes,
            cleanable_bytes,
            need_compaction_now,
        })
    }

    /// One cleaning pass at `now` over `to_clean` (`Cleaner.doClean`): the offset map of the
    /// dirty part (key → its newest offset, aborted batches left out), then every segment
    /// below the end of the dirty part recopied, grouped up to `segment.bytes`, keeping a
    /// record only if it is its key's newest (`shouldRetainRecord`); tombstones get a delete
    /// horizon on their first pass and go on a pass after it; aborted records go at once,
    /// markers once their transaction's records are gone (and their horizon passed); each
    /// producer's last batch keeps its sequence. Offsets never change.
    pub(crate) fn clean(&mut self, to_clean: &LogToClean, now: SimTime, config: &CompactionConfig) -> CleanResult {
        let end = to_clean.first_uncleanable_offset;
        let start = to_clean.first_dirty_offset;
        let mut result = CleanResult {
            first_dirty_offset: start,
            end_offset: end,
            cleanable_ratio: to_clean.cleanable_ratio(),
            segments_before: self.segments.len(),
            bytes_before: self.size_bytes(),
            ..CleanResult::default()
        };
        let aborted_index: Vec<AbortedTxn> = {
            let mut a: Vec<AbortedTxn> = self.producers.aborted().to_vec();
            crate::sorted::sort_by_key(&mut a, |a| a.first_offset);
            a
        };
        // `buildOffsetMap`: the dirty segments' keyed records, newest offset per key.
        let mut map: VecMap<&str, u64> = VecMap::new();
        {
            let mut walk = TxnWalk { aborted: aborted_index.clone(), ..TxnWalk::default() };
            for batch in batches(self.segments.iter().take_while(|s| s.base_offset < end).flat_map(|s| s.records.iter())) {
                let (first, last) = (batch[0], batch[batch.len() - 1]);
                if let Some(c) = first.record.control {
                    let pid = first.record.txn.map_or(0, |t| t.producer_id);
                    walk.on_control(last.offset, c.kind, pid);
                    continue;
                }
                if walk.on_batch(last.offset, first.record.txn) {
                    continue;
                }
                for r in batch.iter().filter(|r| r.offset >= start) {
                    if let Some(k) = r.record.key.as_deref() {
                        map.insert(k, r.offset);
                    }
                }
            }
        }
        let map: VecMap<String, u64> = map.into_iter().map(|(k, v)| (k.to_string(), v)).collect();
        // `lastRecordsOfActiveProducers`: each idempotent or transactional producer's last
        // data record in the log.
        let mut last_of_producer: VecMap<String, u64> = VecMap::new();
        for s in &self.segments {
            for r in s.records.iter().filter(|r| !r.record.is_control() && (r.record.sequence.is_some() || r.record.txn.is_some())) {
                last_of_producer.insert(r.record.producer.to_string(), r.offset);
            }
        }
        // `groupSegmentsBySize` over the segments below the end.
        let n = self.segments.partition_point(|s| s.base_offset < end);
        let mut groups: Vec<std::ops::Range<usize>> = Vec::new();
        let mut i = 0;
        while i < n {
            let mut j = i + 1;
            let mut size = self.segments[i].size_bytes;
            while j < n && size + self.segments[j].size_bytes <= config.segment_bytes {
                size += self.segments[j].size_bytes;
                j += 1;
            }
            groups.push(i..j);
            i = j;
        }
        let horizon = now.plus_ms(config.delete_retention_ms);
        let mut walk = TxnWalk { aborted: aborted_index, ..TxnWalk::default() };
        let mut cleaned: Vec<Segment> = Vec::with_capacity(groups.len());
        let mut emptied: Vec<RetainedBatch> = Vec::new();
        let mut emptied_producers: Vec<String> = Vec::new();
        for g in &groups {
            let group = &self.segments[g.clone()];
            let mut kept: Vec<StoredRecord> = Vec::new();
            for batch in batches(group.iter().flat_map(|s| s.records.iter())) {
                let (first, last) = (batch[0], batch[batch.len() - 1]);
                let control = first.record.control;
                let batch_horizon = first.delete_horizon;
                let can_discard = match control {
                    Some(c) => walk.on_control(last.offset, c.kind, first.record.txn.map_or(0, |t| t.producer_id)),
                    None => walk.on_batch(last.offset, first.record.txn),
                };
                let discard_records = match control {
                    Some(_) => can_discard && batch_horizon.is_some_and(|h| h <= now),
                    None => can_discard,
                };
                let keep: Vec<bool> = batch
                    .iter()
                    .map(|r| {
                        if discard_records {
                            return false;
                        }
                        if control.is_some() {
                            return true;
                        }
                        let Some(key) = r.record.key.as_deref() else { return false };
                        let newest = map.get(key).is_none_or(|o| r.offset >= *o);
                        let keep_delete = batch_horizon.is_none_or(|h| now < h);
                        newest && (!r.record.tombstone || keep_delete)
                    })
                    .collect();
                let mut retained: Vec<&StoredRecord> = Vec::with_capacity(batch.len());
                for (r, k) in batch.iter().zip(&keep) {
                    if *k {
                        retained.push(r);
                        continue;
                    }
                    result.removed.push(r.record.id);
                    if r.record.tombstone {
                        result.tombstones_removed.push(r.record.id);
                    }
                    if r.record.is_control() {
                        result.markers_removed.push(r.record.id);
                    }
                }
                let has_pid = first.record.sequence.is_some() || first.record.txn.is_some();
                if retained.is_empty()
                    && has_pid
                    && control.is_none()
                    && last_of_producer.get(first.record.producer.as_str()) == Some(&last.offset)
                {
                    emptied_producers.push(first.record.producer.to_string());
                    emptied.push(RetainedBatch { txn: first.record.txn, last_sequence: last.record.sequence, last_offset: last.offset });
                }
                let needs_horizon = retained.iter().any(|r| r.record.tombstone) || (control.is_some() && can_discard);
                let stamp = if needs_horizon && batch_horizon.is_none() { Some(horizon) } else { batch_horizon };
                for r in retained {
                    let mut r = r.clone();
                    if r.delete_horizon.is_none() && stamp.is_some() {
                        result.stamped.push(r.record.id);
                        result.delete_horizon = stamp;
                    }
                    r.delete_horizon = stamp;
                    kept.push(r);
                }
            }
            let (size, largest, rolling) = measure(kept.iter());
            let original_largest = group.iter().filter_map(|s| s.largest_timestamp).max();
            cleaned.push(Segment {
                base_offset: group[0].base_offset,
                next_offset: group[group.len() - 1].next_offset,
                size_bytes: size,
                largest_timestamp: largest.or(original_largest),
                rolling_timestamp: rolling,
                records: SegmentRecords::from_vec(kept),
            });
        }
        self.segments.splice(0..n, cleaned);
        for (name, batch) in emptied_producers.into_iter().zip(emptied) {
            self.retained_batches.insert(name, batch);
        }
        let kept_aborted = walk.kept;
        self.producers.retain_aborted(|a| a.last_offset >= end || kept_aborted.contains(a));
        self.cleaner_checkpoint = Some(end);
        self.cleaner_passes += 1;
        result.segments_after = self.segments.len();
        result.bytes_after = self.size_bytes();
        result
    }

    /// A producer whose last batch the cleaner emptied, with its last sequence and offset
    /// (`RETAIN_EMPTY`): what the leader's duplicate check reads when the records are gone.
    pub(crate) fn retained_batch(&self, producer: &str) -> Option<(Option<TxnTag>, Option<u32>, u64)> {
        self.retained_batches.get(producer).map(|b| (b.txn, b.last_sequence, b.last_offset))
    }
}

/// The records of `records` cut into batches (`same_batch`), in order.
fn batches<'a>(records: impl Iterator<Item = &'a StoredRecord>) -> Vec<Vec<&'a StoredRecord>> {
    let mut out: Vec<Vec<&StoredRecord>> = Vec::new();
    for r in records {
        match out.last_mut() {
            Some(b) if b.last().is_some_and(|p| super::same_batch(p, r)) => b.push(r),
            _ => out.push(vec![r]),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::log::SegmentConfig;
    use crate::record::{Control, Record, RecordId, TimestampType};

    /// A keyed 10-byte record `key=value` (a tombstone when `value` is `None`).
    fn keyed(id: u64, key: &str, value: Option<&str>, at: u64) -> Record {
        Record { key: Some(key.into()), value: value.unwrap_or("").into(), tombstone: value.is_none(), ..Record::sample(id, at) }
    }

    /// A log of single-record batches, two per segment (71 bytes each, segments of 142).
    fn log() -> PartitionLog {
        PartitionLog::new(SegmentConfig { segment_bytes: 142, segment_ms: u64::MAX })
    }

    fn put(log: &mut PartitionLog, id: u64, key: &str, value: Option<&str>, at: u64) -> u64 {
        log.append(keyed(id, key, value, at), SimTime(at), TimestampType::CreateTime, 0).offset
    }

    fn kv(log: &PartitionLog) -> Vec<(u64, String, Option<String>)> {
        log.records()
            .iter()
            .map(|r| (r.offset, r.record.key.as_deref().unwrap_or_default().to_string(), r.record.value().map(str::to_string)))
            .collect()
    }

    fn cfg() -> CompactionConfig {
        CompactionConfig { segment_bytes: 142, ..CompactionConfig::default() }
    }

    fn clean_now(log: &mut PartitionLog, now: u64) -> Option<CleanResult> {
        let t = log.to_clean(SimTime(now), &cfg())?;
        t.eligible(cfg().min_cleanable_dirty_ratio).then(|| log.clean(&t, SimTime(now), &cfg()))
    }

    #[test]
    fn compaction_keeps_the_newest_record_per_key_and_keeps_offsets() {
        let mut l = log();
        for (i, (k, v)) in [("a", "1"), ("b", "1"), ("a", "2"), ("c", "1"), ("b", "2"), ("a", "3"), ("d", "1")].iter().enumerate() {
            put(&mut l, i as u64, k, Some(v), i as u64);
        }
        l.advance_high_watermark(7);
        // Segments [0,2) [2,4) [4,6) and the active [6,7).
        assert_eq!(l.segments().len(), 4);
        let t = l.to_clean(SimTime(10), &cfg()).unwrap();
        assert_eq!((t.first_dirty_offset, t.first_uncleanable_offset), (0, 6), "up to the active segment");
        assert_eq!((t.clean_bytes, t.cleanable_bytes), (0, 426));
        // Cleaned segments merge up to segment.bytes (`groupSegmentsBySize`, by their sizes
        // before the pass): here all three.
        let merging = CompactionConfig { segment_bytes: 426, ..cfg() };
        let r = l.clean(&t, SimTime(10), &merging);
        assert_eq!(r.removed, vec![RecordId(0), RecordId(1), RecordId(2)], "a=1, b=1, a=2 are older values");
        assert_eq!((r.segments_before, r.segments_after, r.bytes_before, r.bytes_after), (4, 2, 497, 284));
        assert_eq!(
            kv(&l),
            vec![
                (3, "c".into(), Some("1".into())),
                (4, "b".into(), Some("2".into())),
                (5, "a".into(), Some("3".into())),
                (6, "d".into(), Some("1".into()))
            ],
            "offsets kept, with gaps"
        );
        assert!(l.get(0).is_none() && l.get(2).is_none() && l.get(3).is_some());
        assert_eq!(l.cleaner_checkpoint(), Some(6));
        assert_eq!((l.log_start_offset(), l.log_end_offset()), (0, 7), "the log's ends do not move");
        let spans: Vec<(u64, u64, usize)> = l.segments().iter().map(|s| (s.base_offset, s.next_offset, s.records_held())).collect();
        assert_eq!(spans, vec![(0, 6, 3), (6, 7, 1)]);
        // Nothing dirty is left: the next look finds the log clean.
        let again = l.to_clean(SimTime(20), &cfg()).unwrap();
        assert_eq!(again.cleanable_bytes, 0);
        assert!(!again.eligible(0.5));
    }

    #[test]
    fn the_active_segment_is_never_compacted() {
        let mut l = PartitionLog::new(SegmentConfig { segment_bytes: u64::MAX, segment_ms: u64::MAX });
        for i in 0..10 {
            put(&mut l, i, "k", Some("v"), i);
        }
        l.advance_high_watermark(10);
        // No byte outside the active segment: nothing to weigh, nothing cleaned.
        assert!(l.to_clean(SimTime(100), &cfg()).is_none());
        assert!(clean_now(&mut l, 100).is_none());
        assert_eq!(l.records().len(), 10, "ten values of one key, all still there");
    }

    #[test]
    fn a_log_is_taken_only_when_its_dirty_ratio_is_strictly_above_the_minimum() {
        let mut l = log();
        for (i, k) in ["a", "b", "c", "d"].iter().enumerate() {
            put(&mut l, i as u64, k, Some("1"), i as u64);
        }
        l.advance_high_watermark(4);
        // [0,2) and the active [2,4): only [0,2) is cleanable, all of it dirty.
        let t = l.to_clean(SimTime(10), &cfg()).unwrap();
        assert_eq!((t.clean_bytes, t.cleanable_bytes, t.cleanable_ratio()), (0, 142, 1.0));
        clean_now(&mut l, 10).unwrap();
        assert_eq!(l.cleaner_checkpoint(), Some(2));
        // e rolls [2,4) out of the active segment: 142 clean bytes, 142 dirty: exactly 0.5.
        put(&mut l, 4, "e", Some("1"), 20);
        l.advance_high_watermark(5);
        let t = l.to_clean(SimTime(30), &cfg()).unwrap();
        assert_eq!((t.first_dirty_offset, t.clean_bytes, t.cleanable_bytes), (2, 142, 142));
        assert_eq!(t.cleanable_ratio(), 0.5);
        assert!(!t.eligible(0.5), "0.5 is not strictly above 0.5");
        assert!(clean_now(&mut l, 30).is_none());
        // f and g roll [4,6) out too: 284 dirty of 426, two thirds.
        put(&mut l, 5, "f", Some("1"), 21);
        put(&mut l, 6, "g", Some("1"), 22);
        l.advance_high_watermark(7);
        let t = l.to_clean(SimTime(40), &cfg()).unwrap();
        assert_eq!((t.clean_bytes, t.cleanable_bytes), (142, 284));
        assert!(t.eligible(0.5) && !t.eligible(0.7));
        let overdue = LogToClean { need_compaction_now: true, ..t };
        assert!(overdue.eligible(0.99), "max.compaction.lag.ms overdue takes it whatever the ratio");
        let nothing = LogToClean { cleanable_bytes: 0, need_compaction_now: true, ..t };
        assert!(!nothing.eligible(0.0), "…but only with something to clean");
    }

    #[test]
    fn a_tombstone_is_removed_only_on_a_pass_after_delete_retention_ms() {
        let mut l = log();
        put(&mut l, 0, "a", Some("1"), 0);
        put(&mut l, 1, "b", Some("1"), 1);
        put(&mut l, 2, "a", None, 2); // the tombstone of a
        put(&mut l, 3, "c", Some("1"), 3);
        put(&mut l, 4, "d", Some("1"), 4); // active
        l.advance_high_watermark(5);
        let config = CompactionConfig { delete_retention_ms: 1000, ..cfg() };
        let t = l.to_clean(SimTime(10), &config).unwrap();
        let first = l.clean(&t, SimTime(10), &config);
        assert_eq!(first.removed, vec![RecordId(0)], "a=1 goes; the tombstone stays");
        assert_eq!((first.stamped.clone(), first.delete_horizon), (vec![RecordId(2)], Some(SimTime(1010))));
        assert_eq!(l.get(2).and_then(|r| r.delete_horizon), Some(SimTime(1010)));
        assert!(l.get(2).is_some_and(|r| r.record.value().is_none()), "a reader sees the tombstone: a was deleted");
        // A pass before the horizon keeps it (the checkpoint is reset to force a pass).
        l.cleaner_checkpoint = None;
        let t = l.to_clean(SimTime(500), &config).unwrap();
        let second = l.clean(&t, SimTime(500), &config);
        assert!(second.removed.is_empty() && second.stamped.is_empty(), "{second:?}");
        // A pass after it removes it.
        l.cleaner_checkpoint = None;
        let t = l.to_clean(SimTime(1010), &config).unwrap();
        let third = l.clean(&t, SimTime(1010), &config);
        assert_eq!((third.removed.clone(), third.tombstones_removed.clone()), (vec![RecordId(2)], vec![RecordId(2)]));
        assert!(l.get(2).is_none());
        assert_eq!(kv(&l).iter().map(|r| r.0).collect::<Vec<_>>(), vec![1, 3, 4]);
    }

    #[test]
    fn the_cleaner_stops_at_the_last_stable_offset_and_drops_aborted_records_then_their_marker() {
        let mut l = log();
        let tag = TxnTag { producer_id: 7, producer_epoch: 0 };
        let txn = |id: u64, key: &str, at: u64| Record { txn: Some(tag), ..keyed(id, key, Some("t"), at) };
        l.append(txn(0, "a", 0), SimTime(0), TimestampType::CreateTime, 0); // 0 aborted
        put(&mut l, 1, "b", Some("1"), 1); // 1
        let abort = Control { kind: ControlType::Abort, coordinator_epoch: 0 };
        l.append_marker(RecordId(crate::record::MARKER_ID_BASE), TxnTag { producer_epoch: 1, ..tag }, abort, SimTime(2), 0); // 2
        put(&mut l, 3, "c", Some("1"), 3); // 3
        l.append(
            Record { txn: Some(TxnTag { producer_id: 8, producer_epoch: 0 }), ..keyed(4, "d", Some("1"), 4) },
            SimTime(4),
            TimestampType::CreateTime,
            0,
        ); // 4: open
        put(&mut l, 5, "e", Some("1"), 5); // 5
        put(&mut l, 6, "f", Some("1"), 6); // 6 active
        l.advance_high_watermark(7);
        assert_eq!(l.last_stable_offset(), 4, "producer 8's transaction is open");
        let config = CompactionConfig { delete_retention_ms: 100, ..cfg() };
        let t = l.to_clean(SimTime(10), &config).unwrap();
        // Segments: [0,2) [2,3) (the marker, 78 bytes) [3,5) [5,7): the LSO, 4, is in [3,5).
        assert_eq!(t.first_uncleanable_offset, 3, "the segment holding the LSO is not cleaned");
        let r = l.clean(&t, SimTime(10), &config);
        assert_eq!(r.removed, vec![RecordId(0)], "the aborted record goes at once, whatever its key");
        assert!(l.get(2).is_some(), "its marker stays while the pass saw its records");
        assert_eq!(l.producer_states().aborted().len(), 1);
        // The next pass finds the transaction empty: the marker gets a horizon…
        l.cleaner_checkpoint = None;
        let t = l.to_clean(SimTime(20), &config).unwrap();
        let r = l.clean(&t, SimTime(20), &config);
        assert_eq!((r.removed.len(), r.delete_horizon), (0, Some(SimTime(120))));
        assert!(l.producer_states().aborted().is_empty(), "no aborted record left to hide");
        // …and a pass after the horizon removes it.
        l.cleaner_checkpoint = None;
        let t = l.to_clean(SimTime(120), &config).unwrap();
        let r = l.clean(&t, SimTime(120), &config);
        assert_eq!(r.markers_removed, vec![RecordId(crate::record::MARKER_ID_BASE)]);
        assert_eq!(kv(&l).iter().map(|r| r.0).collect::<Vec<_>>(), vec![1, 3, 4, 5, 6]);
    }

    #[test]
    fn min_compaction_lag_keeps_young_segments_and_max_compaction_lag_forces_old_ones() {
        let mut l = log();
        for (i, at) in [0, 100, 5000, 5100, 9000].iter().enumerate() {
            put(&mut l, i as u64, "k", Some("v"), *at);
        }
        l.advance_high_watermark(5);
        // [0,2) newest at 100, [2,4) newest at 5100, active [4,5).
        let lagged = CompactionConfig { min_compaction_lag_ms: 1000, ..cfg() };
        let t = l.to_clean(SimTime(5500), &lagged).unwrap();
        assert_eq!(t.first_uncleanable_offset, 2, "[2,4) holds a record younger than the lag");
        let t = l.to_clean(SimTime(6200), &lagged).unwrap();
        assert_eq!(t.first_uncleanable_offset, 4);
        // max.compaction.lag.ms: the oldest dirty segment's first batch is overdue. [0,2)'s
        // is at 0, which Kafka does not count (it keeps positive timestamps only); [2,4)'s
        // at 5000.
        let forced = CompactionConfig { max_compaction_lag_ms: 1000, min_cleanable_dirty_ratio: 0.99, ..cfg() };
        let t = l.to_clean(SimTime(6000), &forced).unwrap();
        assert!(!t.need_compaction_now, "5000 is not before 6000 - 1000");
        let t = l.to_clean(SimTime(6001), &forced).unwrap();
        assert!(t.need_compaction_now && t.eligible(0.99));
    }

    #[test]
    fn a_clone_of_the_log_keeps_the_records_a_pass_removes() {
        let mut l = log();
        for i in 0..6 {
            put(&mut l, i, "k", Some("v"), i);
        }
        l.advance_high_watermark(6);
        let before = l.clone();
        clean_now(&mut l, 10).unwrap();
        // [0,2) [2,4) cleaned to k's newest there (3); [4,6) is active.
        assert_eq!((before.records().len(), l.records().len()), (6, 3));
    }

    #[test]
    fn a_producers_emptied_last_batch_keeps_its_sequence() {
        let mut l = log();
        let seq = |r: Record, s: u32| Record { sequence: Some(s), producer: "p".into(), ..r };
        l.append(seq(keyed(0, "a", Some("1"), 0), 0), SimTime(0), TimestampType::CreateTime, 0);
        put(&mut l, 1, "a", Some("2"), 1); // another producer overwrites a
        put(&mut l, 2, "b", Some("1"), 2);
        l.advance_high_watermark(3);
        clean_now(&mut l, 10).unwrap();
        assert!(l.get(0).is_none());
        assert_eq!(l.retained_batch("p"), Some((None, Some(0), 0)));
    }
}
