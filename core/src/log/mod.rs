//! A replica's partition log: append-only, offsets assigned consecutively by the leader,
//! divided into segments that retention deletes whole, oldest first; truncated only where
//! a follower diverges from its leader (KIP-101).

mod clean;
mod records;

pub use crate::event::SegmentDeletionReason;
use crate::name::Name;
use crate::record::{Control, Record, RecordId, StoredRecord, TimestampType, TxnTag};
use crate::time::SimTime;
use crate::txn::ProducerStates;
use crate::vecmap::VecMap;
use clean::RetainedBatch;
pub use clean::{CleanResult, CompactionConfig, LogToClean};
pub use records::{Iter, Records};
use records::{Pos, SegmentRecords};
use serde::{Deserialize, Serialize};

/// Bytes of a record batch's header (`DefaultRecordBatch.RECORD_BATCH_OVERHEAD`). A
/// segment's size is what Kafka's `LogSegment.size()` counts for uncompressed batches:
/// per batch this header plus each record's `DefaultRecord` size (`Record::size_bytes`).
pub const RECORD_BATCH_OVERHEAD_BYTES: u64 = 61;

/// A transaction marker's `DefaultRecord` size: a 4-byte key (version, type) and a 6-byte
/// value (version, coordinator epoch) (`EndTransactionMarker`), no headers.
pub const MARKER_RECORD_BYTES: u32 = 17;

/// When a replica's log starts a new segment: the topic's `segment.bytes` and `segment.ms`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SegmentConfig {
    /// `segment.bytes` (1073741824 = 1 GiB).
    pub segment_bytes: u64,
    /// `segment.ms` (604800000 = 7 days).
    pub segment_ms: u64,
}

impl Default for SegmentConfig {
    fn default() -> Self {
        Self { segment_bytes: 1 << 30, segment_ms: 7 * 24 * 3600 * 1000 }
    }
}

impl SegmentConfig {
    /// `LogSegment.shouldRoll`: a new batch starts a new segment when the active one would
    /// grow past `segment.bytes`, or when the batch's largest timestamp is more than
    /// `segment.ms` after that of the segment's first batch (record timestamps, not the
    /// broker's clock; `segment.jitter.ms` is 0). An empty segment never rolls: a batch
    /// larger than `segment.bytes`, which Kafka refuses (RECORD_LIST_TOO_LARGE), gets a
    /// segment to itself here.
    fn should_roll(self, size_before: u64, batch_bytes: u64, batch_max_timestamp: SimTime, rolling: Option<SimTime>) -> bool {
        let too_big = size_before.saturating_add(batch_bytes) > self.segment_bytes;
        let too_old = rolling.is_some_and(|t| batch_max_timestamp.ms().saturating_sub(t.ms()) > self.segment_ms);
        size_before > 0 && (too_big || too_old)
    }
}

/// One segment of a replica's log (`LogSegment`): the records from `base_offset` up to
/// (not including) `next_offset`. The last segment is the active one, taking appends.
/// Its records may leave gaps between offsets once the cleaner has compacted it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Segment {
    /// The offset of its first record (its file name in Kafka).
    pub base_offset: u64,
    /// The offset after its last record (the next segment's base, or the log end).
    pub next_offset: u64,
    /// Its size in bytes: batch headers plus records (`LogSegment.size`).
    pub size_bytes: u64,
    /// Its largest record timestamp (`maxTimestampSoFar`), which time retention compares
    /// with `retention.ms`; `None` while empty.
    pub(crate) largest_timestamp: Option<SimTime>,
    /// The largest timestamp of its first batch (`rollingBasedTimestamp`), from which
    /// `segment.ms` counts.
    pub rolling_timestamp: Option<SimTime>,
    /// Its records, in chunks a clone shares (`records.rs`).
    records: SegmentRecords,
}

impl Segment {
    fn empty(base_offset: u64) -> Self {
        Self {
            base_offset,
            next_offset: base_offset,
            size_bytes: 0,
            largest_timestamp: None,
            rolling_timestamp: None,
            records: SegmentRecords::default(),
        }
    }

    /// Whether it holds no bytes (a freshly rolled active segment).
    pub fn is_empty(&self) -> bool {
        self.size_bytes == 0
    }

    /// How many offsets it spans (more than it holds records once compacted).
    pub fn record_count(&self) -> u64 {
        self.next_offset - self.base_offset
    }

    /// How many records it holds.
    pub fn records_held(&self) -> usize {
        self.records.len()
    }

    /// Its largest record timestamp, `None` while empty.
    pub fn largest_timestamp(&self) -> Option<SimTime> {
        self.largest_timestamp
    }

    /// Its records, oldest first.
    pub fn records(&self) -> impl DoubleEndedIterator<Item = &StoredRecord> + '_ {
        self.records.iter()
    }
}

/// What one retention pass deleted from a replica's log.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DeletedSegments {
    pub(crate) reason: SegmentDeletionReason,
    /// The segments, oldest first, with their records.
    pub(crate) segments: Vec<Segment>,
    /// The log start offset afterwards: the base offset of the oldest remaining segment.
    pub(crate) log_start_offset: u64,
}

impl DeletedSegments {
    /// The deleted records, oldest first.
    pub(crate) fn records(&self) -> impl Iterator<Item = &StoredRecord> + '_ {
        self.segments.iter().flat_map(|s| s.records.iter())
    }
}

/// The batch the last appended record belongs to, while more of it may follow.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
struct OpenBatch {
    first_offset: u64,
    bytes: u64,
    max_timestamp: SimTime,
}

/// Whether `next` belongs to the same batch as `prev`, the record before it. The log is
/// handed records one at a time, so it reads batch boundaries off the records: one
/// Produce request carries one batch per partition, whose records share the producer,
/// the leader's append time and the leader epoch. Followers see the same records, so
/// every replica finds the same batches.
fn same_batch(prev: &StoredRecord, next: &StoredRecord) -> bool {
    // A control record is a batch of its own (`MemoryRecords.withEndTransactionMarker`).
    // Offsets need not be consecutive: the cleaner keeps a batch's offsets and removes
    // records from inside it.
    prev.offset < next.offset
        && !prev.record.is_control()
        && !next.record.is_control()
        && prev.record.txn == next.record.txn
        && prev.record.producer == next.record.producer
        && prev.appended_at == next.appended_at
        && prev.leader_epoch == next.leader_epoch
}

/// One replica's copy of a partition. The log end offset (LEO) is the offset the next
/// append gets; the high watermark (HW) is the end of what this replica knows to be
/// committed (held by every in-sync replica). Consumers read only below the leader's HW.
///
/// The records are kept in segments (there is always at least one: the active segment),
/// each holding its own records in chunks a clone shares (`records.rs`). Records below the
/// log start offset are unreadable; they stay until their whole segment is deleted, as in
/// Kafka. Offsets increase along the log; they are consecutive until the cleaner removes
/// records, which leaves gaps.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PartitionLog {
    /// Oldest first; never empty. Every record still on "disk", from the first segment's
    /// base offset to the LEO.
    segments: Vec<Segment>,
    log_start_offset: u64,
    high_watermark: u64,
    config: SegmentConfig,
    open_batch: Option<OpenBatch>,
    /// The leader epoch of the last record retention deleted: the log's last epoch once
    /// every record is gone (Kafka's leader-epoch cache keeps it, `truncateFromStart`).
    deleted_epoch: u32,
    /// What the log knows of its transactional producers (`ProducerStateManager`): epochs,
    /// open transactions, the last stable offset, the aborted-transactions index.
    producers: ProducerStates,
    /// The log cleaner's checkpoint (`cleaner-offset-checkpoint`): the end of its last
    /// pass, where the dirty part begins (`clean.rs`).
    #[serde(default)]
    cleaner_checkpoint: Option<u64>,
    /// How many cleaning passes this log has had.
    #[serde(default)]
    cleaner_passes: u32,
    /// Producers whose last batch the cleaner emptied (`RETAIN_EMPTY`), by name.
    #[serde(default)]
    retained_batches: VecMap<String, RetainedBatch>,
}

impl Default for PartitionLog {
    fn default() -> Self {
        Self::new(SegmentConfig::default())
    }
}

impl PartitionLog {
    /// An empty log whose segments roll by `config`.
    pub fn new(config: SegmentConfig) -> Self {
        Self {
            segments: vec![Segment::empty(0)],
            log_start_offset: 0,
            high_watermark: 0,
            config,
            open_batch: None,
            deleted_epoch: 0,
            producers: ProducerStates::default(),
            cleaner_checkpoint: None,
            cleaner_passes: 0,
            retained_batches: VecMap::new(),
        }
    }

    /// The last stable offset (LSO): read_committed consumers read only below it
    /// (`UnifiedLog.lastStableOffset`, see [`ProducerStates::last_stable_offset`]).
    pub fn last_stable_offset(&self) -> u64 {
        self.producers.last_stable_offset(self.high_watermark, self.log_end_offset()).max(self.log_start_offset.min(self.high_watermark))
    }

    /// The end a consumer of `isolation` reads up to (and `seekToEnd()`, `endOffsets()`,
    /// `auto.offset.reset=latest` give it): the HW, or under read_committed the LSO
    /// (`ListOffsets` with `IsolationLevel.READ_COMMITTED`).
    pub fn end_for(&self, isolation: crate::config::IsolationLevel) -> u64 {
        match isolation {
            crate::config::IsolationLevel::ReadUncommitted => self.high_watermark,
            crate::config::IsolationLevel::ReadCommitted => self.last_stable_offset(),
        }
    }

    /// What this replica knows of its transactional producers.
    pub fn producer_states(&self) -> &ProducerStates {
        &self.producers
    }

    /// The leader appends a transaction marker (`WriteTxnMarkers`,
    /// `MemoryRecords.withEndTransactionMarker`): a control record of its own batch at the
    /// log end, carrying the producer's id and the epoch the coordinator gave.
    pub(crate) fn append_marker(&mut self, id: RecordId, tag: TxnTag, control: Control, now: SimTime, epoch: u32) -> &StoredRecord {
        let record = Record {
            id,
            producer: Name::default(),
            key: None,
            value: Name::default(),
            headers: Vec::new(),
            create_time: now,
            size_bytes: MARKER_RECORD_BYTES,
            sequence: None,
            txn: Some(tag),
            control: Some(control),
            tombstone: false,
        };
        self.append(record, now, TimestampType::CreateTime, epoch)
    }

    /// The first offset still in the log.
    pub fn log_start_offset(&self) -> u64 {
        self.log_start_offset
    }

    /// The offset the next appended record will get.
    pub fn log_end_offset(&self) -> u64 {
        self.segments.last().map_or(self.log_start_offset, |s| s.next_offset)
    }

    /// What this replica knows to be committed.
    pub fn high_watermark(&self) -> u64 {
        self.high_watermark
    }

    /// The segments, oldest first; the last is the active segment. The first may begin
    /// below the log start offset (see [`PartitionLog::advance_log_start_offset`]).
    pub fn segments(&self) -> &[Segment] {
        &self.segments
    }

    /// The size of the log in bytes: every segment's (`UnifiedLog.size`).
    pub fn size_bytes(&self) -> u64 {
        self.segments.iter().map(|s| s.size_bytes).sum()
    }

    /// How segments roll.
    pub fn segment_config(&self) -> SegmentConfig {
        self.config
    }

    /// New `segment.bytes` / `segment.ms`: they apply from the next append on.
    pub fn set_segment_config(&mut self, config: SegmentConfig) {
        self.config = config;
    }

    /// The base offset of the first segment: where the records on "disk" begin.
    fn base_offset(&self) -> u64 {
        self.segments.first().map_or(self.log_start_offset, |s| s.base_offset)
    }

    /// The place of the first record whose offset is at least `offset` (the end if none):
    /// a binary search over the segments by their offset ranges, then within one.
    fn pos_of(&self, offset: u64) -> Pos {
        let seg = self.segments.partition_point(|s| s.next_offset <= offset);
        match self.segments.get(seg) {
            Some(s) => Pos { seg, idx: s.records.position(offset) },
            None => self.end_pos(),
        }
    }

    fn end_pos(&self) -> Pos {
        Pos { seg: self.segments.len(), idx: 0 }
    }

    /// Every readable record (from the log start offset), in offset order.
    pub fn records(&self) -> Records<'_> {
        Records::new(&self.segments, self.pos_of(self.log_start_offset), self.end_pos())
    }

    /// The readable records with offsets in `from..to`, in offset order.
    pub fn records_between(&self, from: u64, to: u64) -> Records<'_> {
        let from = from.max(self.log_start_offset);
        if from >= to {
            return Records::empty();
        }
        Records::new(&self.segments, self.pos_of(from), self.pos_of(to))
    }

    /// The newest `n` readable records, oldest first.
    pub fn newest(&self, n: usize) -> Records<'_> {
        let all = self.records();
        all.skip(all.len().saturating_sub(n))
    }

    /// How many readable records the log holds (fewer than its offsets once compacted).
    pub fn record_count(&self) -> usize {
        self.records().len()
    }

    /// The record at `offset`, if the log holds it.
    pub fn get(&self, offset: u64) -> Option<&StoredRecord> {
        if offset < self.log_start_offset {
            return None;
        }
        let pos = self.pos_of(offset);
        self.segments.get(pos.seg).and_then(|s| s.records.get(pos.idx)).filter(|r| r.offset == offset)
    }

    /// The newest record on "disk" (readable or not).
    pub fn last_record(&self) -> Option<&StoredRecord> {
        self.segments.iter().rev().find_map(|s| s.records.last())
    }

    /// The leader epoch of the last record (0 for a log that never had one).
    pub fn last_epoch(&self) -> u32 {
        self.last_record().map(|r| r.leader_epoch).unwrap_or(self.deleted_epoch)
    }

    /// The first readable record for which `pred` fails, `pred` holding for a prefix of
    /// the log: segments whose last record passes are skipped, the one holding the
    /// answer is bisected.
    fn first_failing(&self, pred: impl Fn(&StoredRecord) -> bool) -> Option<&StoredRecord> {
        let from = self.pos_of(self.log_start_offset);
        for (i, s) in self.segments.iter().enumerate().skip(from.seg) {
            match s.records.last() {
                Some(last) if !pred(last) => {
                    let lo = if i == from.seg { from.idx } else { 0 };
                    let at = s.records.partition_point(&pred).max(lo);
                    return s.records.get(at);
                }
                _ => continue,
            }
        }
        None
    }

    /// The end offset of `epoch` in this log: the first offset written under a later
    /// epoch, or the LEO (the answer to `OffsetsForLeaderEpoch`, KIP-101). An epoch
    /// older than every record left ends at the log start offset.
    pub fn end_offset_for_epoch(&self, epoch: u32) -> u64 {
        // Epochs never decrease along a log (a leader writes under a higher epoch than the
        // last, and a follower truncates to where it agrees with its leader before it
        // copies), so the first record of a later epoch is found by bisection: every
        // follower fetch asks, and a linear scan of the whole log was a hot spot.
        debug_assert!(
            {
                let r = self.records();
                r.iter().zip(r.iter().skip(1)).all(|(a, b)| a.leader_epoch <= b.leader_epoch)
            },
            "leader epochs decrease in a log"
        );
        self.first_failing(|r| r.leader_epoch <= epoch).map(|r| r.offset).unwrap_or_else(|| self.log_end_offset())
    }

    /// The first readable record written under `epoch` or later, if any.
    pub fn first_record_of_epoch(&self, epoch: u32) -> Option<&StoredRecord> {
        self.first_failing(|r| r.leader_epoch < epoch)
    }

    /// The leader appends a producer's record at the log end under `epoch`. Under
    /// `LogAppendTime` the broker's clock replaces the producer's timestamp.
    pub(crate) fn append(&mut self, record: Record, now: SimTime, timestamp_type: TimestampType, epoch: u32) -> &StoredRecord {
        let timestamp = match timestamp_type {
            TimestampType::CreateTime => record.create_time,
            TimestampType::LogAppendTime => now,
        };
        let offset = self.log_end_offset();
        self.push(StoredRecord { offset, record, timestamp, timestamp_type, appended_at: now, leader_epoch: epoch, delete_horizon: None });
        self.last_record().expect("a record was just appended")
    }

    /// A follower copies a record it fetched from the leader. Returns false (and copies
    /// nothing) when the record is below this log's end (`UnexpectedAppendOffsetException`);
    /// a record past the end is taken, leaving the gap the leader's cleaner left.
    pub fn append_replica(&mut self, record: StoredRecord) -> bool {
        if record.offset < self.log_end_offset() {
            return false;
        }
        self.push(record);
        true
    }

    /// Puts a record at the log end, in the active segment or in a new one
    /// (`UnifiedLog.maybeRoll`). A batch is never split across segments: when the
    /// records that follow its first one make the whole batch overflow the active
    /// segment, the batch moves to a new segment, where Kafka, which sees the whole
    /// batch at once, would have put it.
    fn push(&mut self, r: StoredRecord) {
        // `invariant::Invariant::OffsetsIncreasing` at its source: every record lands at the
        // log end (a follower's copy of a compacted log past it).
        debug_assert!(r.offset >= self.log_end_offset(), "a record appended below the log end");
        let size = u64::from(r.record.size_bytes);
        let ts = r.timestamp;
        let continues = self.open_batch.is_some() && self.last_record().is_some_and(|prev| same_batch(prev, &r));
        let offset = r.offset;
        self.producers.on_append(&r, self.high_watermark);
        let leo = self.log_end_offset();
        if self.segments.is_empty() {
            self.segments.push(Segment::empty(leo));
        }
        // A follower's copy past its end (the leader's cleaner removed the records between):
        // the gap belongs to the active segment, so the segments still tile the log.
        if offset > leo {
            if let Some(active) = self.segments.last_mut() {
                active.next_offset = offset;
            }
        }
        let config = self.config;
        match self.open_batch {
            Some(mut batch) if continues => {
                batch.bytes += size;
                batch.max_timestamp = batch.max_timestamp.max(ts);
                self.open_batch = Some(batch);
                let Some(active) = self.segments.last_mut() else { return };
                active.records.push(r);
                active.next_offset = offset + 1;
                active.size_bytes += size;
                active.largest_timestamp = Some(active.largest_timestamp.map_or(ts, |t| t.max(ts)));
                if batch.first_offset == active.base_offset {
                    active.rolling_timestamp = Some(batch.max_timestamp);
                } else {
                    let before = active.size_bytes.saturating_sub(batch.bytes);
                    if config.should_roll(before, batch.bytes, batch.max_timestamp, active.rolling_timestamp) {
                        self.move_batch_to_new_segment(batch);
                    }
                }
            }
            _ => {
                let bytes = RECORD_BATCH_OVERHEAD_BYTES + size;
                let roll = self.segments.last().is_some_and(|a| config.should_roll(a.size_bytes, bytes, ts, a.rolling_timestamp));
                if roll {
                    self.segments.push(Segment::empty(offset));
                }
                let Some(active) = self.segments.last_mut() else { return };
                if active.size_bytes == 0 {
                    active.rolling_timestamp = Some(ts);
                }
                active.records.push(r);
                active.next_offset = offset + 1;
                active.size_bytes += bytes;
                active.largest_timestamp = Some(active.largest_timestamp.map_or(ts, |t| t.max(ts)));
                self.open_batch = Some(OpenBatch { first_offset: offset, bytes, max_timestamp: ts });
            }
        }
    }

    fn move_batch_to_new_segment(&mut self, batch: OpenBatch) {
        let Some(active) = self.segments.last_mut() else { return };
        let cut = active.records.position(batch.first_offset);
        let moved_records = active.records.split_off(cut);
        let moved = Segment {
            base_offset: batch.first_offset,
            next_offset: active.next_offset,
            size_bytes: batch.bytes,
            largest_timestamp: Some(batch.max_timestamp),
            rolling_timestamp: Some(batch.max_timestamp),
            records: SegmentRecords::from_vec(moved_records),
        };
        active.next_offset = batch.first_offset;
        active.size_bytes = active.size_bytes.saturating_sub(batch.bytes);
        active.largest_timestamp = active.records.iter().map(|r| r.timestamp).max();
        self.segments.push(moved);
    }

    /// Removes every record at `offset` and above; returns them, oldest first
    /// (`UnifiedLog.truncateTo`): segments starting above `offset` go, the one holding it
    /// is cut. Below the first segment the log is emptied and starts again at `offset`
    /// (`truncateFullyAndStartAt`). The HW drops with the log end if it was above it.
    pub(crate) fn truncate_to(&mut self, offset: u64) -> Vec<StoredRecord> {
        if offset >= self.log_end_offset() {
            return Vec::new();
        }
        if offset < self.base_offset() {
            return self.truncate_fully_and_start_at(offset);
        }
        let keep = self.segments.partition_point(|s| s.base_offset <= offset);
        let gone: Vec<Segment> = self.segments.drain(keep..).collect();
        let mut removed = Vec::new();
        if let Some(active) = self.segments.last_mut() {
            let cut = active.records.position(offset);
            removed = active.records.split_off(cut);
            active.next_offset = offset;
        }
        removed.extend(gone.iter().flat_map(|s| s.records.iter().cloned()));
        self.recompute_active_segment();
        self.log_start_offset = self.log_start_offset.min(offset);
        self.high_watermark = self.high_watermark.min(self.log_end_offset());
        self.open_batch = None;
        self.producers = ProducerStates::rebuilt(self.segments.iter().flat_map(|s| s.records.iter()), self.high_watermark);
        // `LogCleanerManager.maybeTruncateCheckpoint`: the checkpoint never passes the end.
        self.cleaner_checkpoint = self.cleaner_checkpoint.map(|c| c.min(offset));
        self.retained_batches.retain(|_, b| b.last_offset < offset);
        removed
    }

    /// Empties the log and starts it again at `offset`: log start, log end and HW all
    /// become `offset` (`UnifiedLog.truncateFullyAndStartAt`). A follower does this when
    /// the leader's log starts after the follower's end (`AbstractFetcherThread`,
    /// OFFSET_OUT_OF_RANGE). Returns the records removed, oldest first.
    pub fn truncate_fully_and_start_at(&mut self, offset: u64) -> Vec<StoredRecord> {
        let old = std::mem::replace(&mut self.segments, vec![Segment::empty(offset)]);
        let removed = old.iter().flat_map(|s| s.records.iter().cloned()).collect();
        self.log_start_offset = offset;
        self.high_watermark = offset;
        self.open_batch = None;
        self.deleted_epoch = 0;
        self.producers = ProducerStates::default();
        self.cleaner_checkpoint = None;
        self.retained_batches = VecMap::new();
        removed
    }

    /// Recomputes the active segment's size and timestamps from its records, batch by
    /// batch (after a truncation cut it).
    fn recompute_active_segment(&mut self) {
        let Some(active) = self.segments.last_mut() else { return };
        let (size, largest, rolling) = measure(active.records.iter());
        active.size_bytes = size;
        active.largest_timestamp = largest;
        active.rolling_timestamp = rolling;
    }

    /// Sets the HW, never above the LEO and never backwards (it is monotonic).
    pub(crate) fn advance_high_watermark(&mut self, hw: u64) -> bool {
        let hw = hw.min(self.log_end_offset());
        if hw > self.high_watermark {
            self.high_watermark = hw;
            self.producers.on_high_watermark(hw);
            true
        } else {
            false
        }
    }

    /// Moves the log start offset forward, never past the HW
    /// (`UnifiedLog.maybeIncrementLogStartOffset`): what a follower does with the log
    /// start its leader reports. The records below become unreadable at once; their
    /// segments go at the next retention check ([`SegmentDeletionReason::LogStartOffset`]).
    pub fn advance_log_start_offset(&mut self, offset: u64) -> bool {
        if offset > self.high_watermark || offset <= self.log_start_offset {
            return false;
        }
        self.log_start_offset = offset;
        true
    }

    /// One retention pass over this log at `now` (`UnifiedLog.deleteOldSegments` under
    /// `cleanup.policy=delete`): segments wholly below the log start offset, then
    /// `retention.bytes`, then `retention.ms`; a negative setting means no limit. Each
    /// rule deletes whole segments, oldest first, and stops at the first it cannot
    /// delete. Kafka deletes the files `file.delete.delay.ms` (60000) later, but the log
    /// start offset moves at once, so the records are unreadable from now on: the
    /// sandbox drops them now.
    pub fn delete_old_segments(&mut self, now: SimTime, retention_ms: i64, retention_bytes: i64) -> Vec<DeletedSegments> {
        let mut out = Vec::new();
        let log_start = self.log_start_offset;
        let n = self.deletable_segments(|_, next| next.is_some_and(|n| n.base_offset <= log_start));
        out.extend(self.delete_segments(n, SegmentDeletionReason::LogStartOffset));
        if let Ok(retention_bytes) = u64::try_from(retention_bytes) {
            let size = self.size_bytes();
            if size >= retention_bytes {
                let mut diff = size - retention_bytes;
                let n = self.deletable_segments(|segment, _| {
                    let delete = diff >= segment.size_bytes;
                    if delete {
                        diff -= segment.size_bytes;
                    }
                    delete
                });
                out.extend(self.delete_segments(n, SegmentDeletionReason::RetentionBytes));
            }
        }
        if let Ok(retention_ms) = u64::try_from(retention_ms) {
            // A timestamp in the future keeps its segment (Kafka logs a warning).
            let n = self.deletable_segments(|segment, _| {
                segment.largest_timestamp.is_some_and(|ts| now.ms().checked_sub(ts.ms()).is_some_and(|age| age > retention_ms))
            });
            out.extend(self.delete_segments(n, SegmentDeletionReason::RetentionMs));
        }
        out
    }

    /// `UnifiedLog.deletableSegments`: how many segments, oldest first, `predicate`
    /// allows deleting. A segment that ends above the HW stops the scan (the log start
    /// must never pass the HW), and so does an empty active segment. A non-empty active
    /// segment wholly below the HW can go: the log rolls a new one first.
    fn deletable_segments(&self, mut predicate: impl FnMut(&Segment, Option<&Segment>) -> bool) -> usize {
        let leo = self.log_end_offset();
        let mut n = 0;
        for (i, segment) in self.segments.iter().enumerate() {
            let next = self.segments.get(i + 1);
            let last_and_empty = next.is_none() && segment.is_empty();
            let upper = next.map_or(leo, |s| s.base_offset);
            let deletable = self.high_watermark >= upper && predicate(segment, next);
            if deletable && !last_and_empty {
                n += 1;
            } else {
                break;
            }
        }
        n
    }

    /// `UnifiedLog.deleteSegments`: removes the `n` oldest segments; the log start
    /// becomes the next segment's base offset. A log always keeps one segment, so
    /// deleting them all first rolls an empty one at the log end.
    fn delete_segments(&mut self, n: usize, reason: SegmentDeletionReason) -> Option<DeletedSegments> {
        if n == 0 {
            return None;
        }
        if n >= self.segments.len() {
            let leo = self.log_end_offset();
            self.segments.push(Segment::empty(leo));
            self.open_batch = None;
        }
        let segments: Vec<Segment> = self.segments.drain(..n).collect();
        let new_base = self.base_offset();
        if let Some(last) = segments.iter().rev().find_map(|s| s.records.last()) {
            self.deleted_epoch = last.leader_epoch;
        }
        self.log_start_offset = self.log_start_offset.max(new_base);
        self.producers.on_log_start(self.log_start_offset);
        Some(DeletedSegments { reason, segments, log_start_offset: self.log_start_offset })
    }

    /// Up to `max_records` committed records from `from` (inclusive), in offset order.
    pub fn read_committed(&self, from: u64, max_records: u32) -> Records<'_> {
        self.read_up_to(from, max_records, self.high_watermark)
    }

    /// Up to `max_records` records from `from` below `limit` (followers read to the LEO).
    pub fn read_up_to(&self, from: u64, max_records: u32, limit: u64) -> Records<'_> {
        let limit = limit.min(self.log_end_offset());
        let max = usize::try_from(max_records).unwrap_or(usize::MAX);
        self.records_between(from, limit).sub(0, max)
    }
}

/// A run of records' size in bytes (a batch header per batch, `same_batch`), its largest
/// timestamp and the largest timestamp of its first batch.
fn measure<'a>(records: impl Iterator<Item = &'a StoredRecord>) -> (u64, Option<SimTime>, Option<SimTime>) {
    let mut size = 0;
    let mut largest: Option<SimTime> = None;
    let mut rolling: Option<SimTime> = None;
    let mut first_batch_open = true;
    let mut prev: Option<&StoredRecord> = None;
    for r in records {
        let new_batch = prev.is_none_or(|p| !same_batch(p, r));
        if new_batch {
            size += RECORD_BATCH_OVERHEAD_BYTES;
            if prev.is_some() {
                first_batch_open = false;
            }
        }
        size += u64::from(r.record.size_bytes);
        largest = Some(largest.map_or(r.timestamp, |t| t.max(r.timestamp)));
        if first_batch_open {
            rolling = Some(rolling.map_or(r.timestamp, |t| t.max(r.timestamp)));
        }
        prev = Some(r);
    }
    (size, largest, rolling)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rec(id: u64, at: u64) -> Record {
        Record::sample(id, at)
    }

    /// A log whose segments hold `segment_bytes` and span `segment_ms`.
    fn log_with(segment_bytes: u64, segment_ms: u64) -> PartitionLog {
        PartitionLog::new(SegmentConfig { segment_bytes, segment_ms })
    }

    /// Appends one single-record batch (each append at its own moment is its own batch).
    fn append_one(log: &mut PartitionLog, id: u64, create_time: u64, now: u64) -> u64 {
        log.append(rec(id, create_time), SimTime(now), TimestampType::CreateTime, 0).offset
    }

    fn bounds(log: &PartitionLog) -> Vec<(u64, u64, u64)> {
        log.segments().iter().map(|s| (s.base_offset, s.next_offset, s.size_bytes)).collect()
    }

    #[test]
    fn offsets_are_consecutive_and_only_records_below_the_hw_are_readable() {
        let mut log = PartitionLog::default();
        for i in 0..3 {
            let stored = log.append(rec(i, 5), SimTime(9), TimestampType::CreateTime, 0);
            assert_eq!(stored.offset, i);
        }
        assert_eq!(log.log_end_offset(), 3);
        assert!(log.read_committed(0, 10).is_empty(), "nothing committed yet");
        assert!(log.advance_high_watermark(2));
        let read: Vec<u64> = log.read_committed(0, 10).iter().map(|r| r.offset).collect();
        assert_eq!(read, vec![0, 1]);
        assert!(!log.advance_high_watermark(1), "the HW never moves back");
        assert!(log.advance_high_watermark(99));
        assert_eq!(log.high_watermark(), 3, "never above the LEO");
        assert_eq!(log.read_up_to(1, 10, 3).len(), 2);
    }

    #[test]
    fn log_append_time_replaces_the_producer_timestamp() {
        let mut log = PartitionLog::default();
        let create = log.append(rec(1, 5), SimTime(9), TimestampType::CreateTime, 0).timestamp;
        let append = log.append(rec(2, 5), SimTime(9), TimestampType::LogAppendTime, 0).timestamp;
        assert_eq!((create, append), (SimTime(5), SimTime(9)));
    }

    #[test]
    fn epoch_end_offsets_and_truncation_follow_kip_101() {
        let mut log = PartitionLog::default();
        log.append(rec(1, 0), SimTime(0), TimestampType::CreateTime, 0);
        log.append(rec(2, 0), SimTime(0), TimestampType::CreateTime, 0);
        log.append(rec(3, 0), SimTime(0), TimestampType::CreateTime, 2);
        assert_eq!(log.end_offset_for_epoch(0), 2);
        assert_eq!(log.end_offset_for_epoch(1), 2);
        assert_eq!(log.end_offset_for_epoch(2), 3);
        assert_eq!(log.last_epoch(), 2);
        log.advance_high_watermark(3);
        let removed = log.truncate_to(2);
        assert_eq!(removed.iter().map(|r| r.record.id.0).collect::<Vec<_>>(), vec![3]);
        assert_eq!((log.log_end_offset(), log.high_watermark()), (2, 2));
        let mut follower = PartitionLog::default();
        assert!(follower.append_replica(log.records().get(0).unwrap().clone()));
        assert!(!follower.append_replica(log.records().get(0).unwrap().clone()), "below the end is refused");
        // Past the end is taken: a compacted leader's log has gaps.
        assert!(follower.append_replica(removed[0].clone()));
        assert_eq!(follower.log_end_offset(), 3);
    }

    #[test]
    fn a_segment_rolls_when_the_next_batch_would_pass_segment_bytes() {
        // Each single-record batch is 61 + 10 = 71 bytes: two fit in 150, a third does not.
        let mut log = log_with(150, u64::MAX);
        for i in 0..5 {
            append_one(&mut log, i, 0, i);
        }
        assert_eq!(bounds(&log), vec![(0, 2, 142), (2, 4, 142), (4, 5, 71)]);
        assert_eq!(log.size_bytes(), 355);
    }

    #[test]
    fn a_batch_is_never_split_across_segments() {
        let mut log = log_with(150, u64::MAX);
        append_one(&mut log, 0, 0, 0);
        // One batch of three records (same producer, same append moment): 61 + 30 = 91
        // bytes. Its first record alone would fit (71 + 71 ≤ 150); the batch does not.
        for i in 1..4 {
            log.append(rec(i, 0), SimTime(7), TimestampType::CreateTime, 0);
        }
        assert_eq!(bounds(&log), vec![(0, 1, 71), (1, 4, 91)]);
        // A batch bigger than segment.bytes gets a segment to itself.
        let mut small = log_with(50, u64::MAX);
        for i in 0..3 {
            small.append(rec(i, 0), SimTime(1), TimestampType::CreateTime, 0);
        }
        append_one(&mut small, 3, 0, 2);
        assert_eq!(bounds(&small), vec![(0, 3, 91), (3, 4, 71)]);
    }

    #[test]
    fn a_segment_rolls_by_record_timestamps_after_segment_ms() {
        let mut log = log_with(u64::MAX, 1000);
        append_one(&mut log, 0, 0, 0);
        // The broker's clock does not count, only the record timestamps (CreateTime).
        append_one(&mut log, 1, 1000, 500_000);
        assert_eq!(log.segments().len(), 1, "1000 - 0 is not more than segment.ms");
        append_one(&mut log, 2, 1001, 500_001);
        assert_eq!(bounds(&log).iter().map(|b| (b.0, b.1)).collect::<Vec<_>>(), vec![(0, 2), (2, 3)]);
        let active = &log.segments()[1];
        assert_eq!((active.rolling_timestamp, active.largest_timestamp), (Some(SimTime(1001)), Some(SimTime(1001))));
        assert_eq!(log.segments()[0].largest_timestamp, Some(SimTime(1000)));
    }

    /// Three segments of two single-record batches (the last one active), all committed.
    fn three_segments(timestamps: [u64; 5]) -> PartitionLog {
        let mut log = log_with(150, u64::MAX);
        for (i, ts) in timestamps.iter().enumerate() {
            append_one(&mut log, i as u64, *ts, i as u64);
        }
        log.advance_high_watermark(5);
        log
    }

    #[test]
    fn time_retention_deletes_whole_segments_oldest_first_and_stops_at_the_first_it_cannot() {
        // Segment 1 holds a new record, segment 2 only old ones: only segment 0 goes.
        let mut log = three_segments([0, 100, 200, 9_000, 50]);
        let deleted = log.delete_old_segments(SimTime(10_000), 5_000, -1);
        assert_eq!(deleted.len(), 1);
        assert_eq!(deleted[0].reason, SegmentDeletionReason::RetentionMs);
        assert_eq!(deleted[0].records().map(|r| r.offset).collect::<Vec<_>>(), vec![0, 1]);
        assert_eq!((deleted[0].log_start_offset, log.log_start_offset()), (2, 2));
        assert_eq!(log.records().first().map(|r| r.offset), Some(2));
        assert!(log.get(1).is_none() && log.read_committed(0, 10).first().is_some_and(|r| r.offset == 2));
        // age == retention.ms is not a breach: it must be more.
        let mut edge = three_segments([0, 5_000, 9_000, 9_000, 9_000]);
        assert!(edge.delete_old_segments(SimTime(10_000), 5_000, -1).is_empty());
        // -1: no time limit.
        let mut forever = three_segments([0; 5]);
        assert!(forever.delete_old_segments(SimTime(u64::MAX / 2), -1, -1).is_empty());
    }

    #[test]
    fn nothing_at_or_above_the_hw_is_deleted() {
        let mut log = log_with(150, u64::MAX);
        for i in 0..5 {
            append_one(&mut log, i, 0, i);
        }
        log.advance_high_watermark(3); // inside the second segment [2, 4)
        let deleted = log.delete_old_segments(SimTime(1_000_000), 0, 0);
        let offsets: Vec<u64> = deleted.iter().flat_map(|d| d.records().map(|r| r.offset)).collect();
        assert_eq!(offsets, vec![0, 1], "only the segment that ends at or below the HW");
        assert_eq!(log.log_start_offset(), 2);
        assert!(log.log_start_offset() <= log.high_watermark());
    }

    #[test]
    fn the_active_segment_goes_only_when_wholly_committed_and_never_when_empty() {
        let mut log = log_with(u64::MAX, u64::MAX);
        for i in 0..3 {
            log.append(rec(i, 0), SimTime(0), TimestampType::CreateTime, 4);
        }
        log.advance_high_watermark(2);
        assert!(log.delete_old_segments(SimTime(10_000), 1_000, -1).is_empty(), "its end is above the HW");
        log.advance_high_watermark(3);
        let deleted = log.delete_old_segments(SimTime(10_000), 1_000, -1);
        // Kafka rolls an empty active segment at the log end, then deletes the old one.
        assert_eq!(deleted.len(), 1);
        assert_eq!(deleted[0].records().count(), 3);
        assert_eq!(bounds(&log), vec![(3, 3, 0)]);
        assert_eq!((log.log_start_offset(), log.log_end_offset(), log.high_watermark()), (3, 3, 3));
        assert!(log.records().is_empty());
        assert_eq!(log.last_epoch(), 4, "the last epoch survives its records");
        assert_eq!(log.end_offset_for_epoch(1), 3);
        assert!(log.delete_old_segments(SimTime(99_999), 0, 0).is_empty(), "an empty active segment stays");
        assert_eq!(log.append(rec(9, 99_999), SimTime(99_999), TimestampType::CreateTime, 4).offset, 3);
    }

    #[test]
    fn size_retention_keeps_at_least_retention_bytes() {
        // Segments of 142, 142 and 71 bytes: 355 in all.
        for (retention_bytes, left) in [(200, 213), (213, 213), (214, 355), (355, 355), (0, 0), (71, 71), (70, 71)] {
            let mut log = three_segments([0; 5]);
            log.delete_old_segments(SimTime(1), -1, retention_bytes);
            assert_eq!(log.size_bytes(), left, "retention.bytes {retention_bytes}");
            assert!(log.size_bytes() >= retention_bytes.max(0) as u64 || log.segments()[0].is_empty());
        }
        let mut log = three_segments([0; 5]);
        let deleted = log.delete_old_segments(SimTime(1), -1, 200);
        assert_eq!(deleted[0].reason, SegmentDeletionReason::RetentionBytes);
    }

    #[test]
    fn a_log_start_moved_inside_a_segment_hides_its_records_until_the_segment_goes() {
        let mut log = three_segments([0; 5]);
        assert!(!log.advance_log_start_offset(6), "never past the HW");
        assert!(log.advance_log_start_offset(3));
        assert!(!log.advance_log_start_offset(1), "never backwards");
        assert_eq!(log.records().first().map(|r| r.offset), Some(3));
        assert!(log.get(2).is_none());
        assert_eq!(log.segments()[0].base_offset, 0, "the files are still there");
        let deleted = log.delete_old_segments(SimTime(1), -1, -1);
        assert_eq!(deleted.len(), 1);
        assert_eq!(deleted[0].reason, SegmentDeletionReason::LogStartOffset);
        assert_eq!(deleted[0].records().map(|r| r.offset).collect::<Vec<_>>(), vec![0, 1]);
        assert_eq!((log.segments()[0].base_offset, log.log_start_offset()), (2, 3));
    }

    #[test]
    fn truncation_cuts_the_segment_holding_the_offset() {
        let mut log = three_segments([0; 5]);
        let removed = log.truncate_to(3);
        assert_eq!(removed.iter().map(|r| r.offset).collect::<Vec<_>>(), vec![3, 4]);
        assert_eq!(bounds(&log), vec![(0, 2, 142), (2, 3, 71)]);
        assert_eq!(log.high_watermark(), 3);
        log.truncate_to(2);
        assert_eq!(bounds(&log), vec![(0, 2, 142), (2, 2, 0)]);
        // Below the first segment the log starts again there (truncateFullyAndStartAt).
        log.delete_old_segments(SimTime(1), 0, -1);
        assert_eq!(log.log_start_offset(), 2);
        log.truncate_fully_and_start_at(7);
        assert_eq!((log.log_start_offset(), log.log_end_offset(), log.high_watermark()), (7, 7, 7));
        assert_eq!(bounds(&log), vec![(7, 7, 0)]);
    }

    #[test]
    fn a_follower_finds_the_same_batches_and_segments_as_its_leader() {
        let mut leader = log_with(150, u64::MAX);
        append_one(&mut leader, 0, 0, 0);
        for i in 1..4 {
            leader.append(rec(i, 0), SimTime(7), TimestampType::CreateTime, 0);
        }
        append_one(&mut leader, 4, 0, 8);
        let mut follower = log_with(150, u64::MAX);
        // Copied in two fetches that split the three-record batch.
        for r in leader.read_up_to(0, 2, 5).to_vec().into_iter().chain(leader.read_up_to(2, 10, 5).to_vec()) {
            assert!(follower.append_replica(r));
        }
        assert_eq!(bounds(&follower), bounds(&leader));
        assert_eq!(bounds(&leader), vec![(0, 1, 71), (1, 4, 91), (4, 5, 71)]);
    }
}
