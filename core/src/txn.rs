//! Transactions' state (KIP-98, KIP-447, KIP-890): what each replica's log knows of its
//! producers (`ProducerStateManager`: epochs, the open transaction per producer, the last
//! stable offset, the aborted-transactions index), the consumer's read_committed filter
//! (`CompletedFetch`), the transaction coordinator's record of each `transactional.id`
//! (`TransactionMetadata`) and the transactional producer's own (`TransactionManager`).
//!
//! No engine code: the coordinator and the producer's side run in `sim/txn/`.

pub use crate::event::{ClientTxnState, TxnPartition, TxnState};
use crate::record::{ControlType, StoredRecord, TopicPartition, TxnTag};
use crate::time::SimTime;
use crate::vecmap::{VecMap, VecSet};
use serde::{Deserialize, Serialize};

/// `transaction.state.log.num.partitions` (50): the coordinator of a `transactional.id`
/// leads partition `abs(hash(id)) % 50` of `__transaction_state` (`TransactionStateManager.partitionFor`).
pub const TRANSACTION_STATE_PARTITIONS: u32 = 50;

/// One aborted transaction in a partition (`AbortedTxn` in the segment's `.txnindex`):
/// its producer, its first offset in this partition, the offset of its ABORT marker, and
/// the last stable offset when it completed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct AbortedTxn {
    /// The producer id whose transaction it was.
    pub producer_id: u64,
    /// Its first record's offset in the partition (the marker's own, if it wrote nothing here).
    pub first_offset: u64,
    /// Its ABORT marker's offset.
    pub last_offset: u64,
    /// The partition's last stable offset once the marker was appended.
    pub last_stable_offset: u64,
}

/// A transaction the log has seen start and whose end is not yet stable: still open, or
/// ended by a marker not yet below the high watermark (`ProducerStateManager.ongoingTxns`
/// and `unreplicatedTxns`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
struct UnstableTxn {
    producer_id: u64,
    first_offset: u64,
    /// The marker that ended it, and what it said.
    marker: Option<(u64, ControlType)>,
}

/// What one replica's log knows of its transactional producers, rebuilt from the log
/// itself as Kafka's `ProducerStateManager` is (every replica applies the same appends,
/// so leader and followers agree): the newest epoch of each producer id, the transactions
/// not yet stable, and the aborted-transactions index.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ProducerStates {
    /// Producer id → the newest epoch seen (data or marker).
    epochs: VecMap<u64, u16>,
    /// Producer id → the first offset of its open transaction here (`currentTxnFirstOffset`).
    open: VecMap<u64, u64>,
    unstable: Vec<UnstableTxn>,
    aborted: Vec<AbortedTxn>,
}

impl ProducerStates {
    /// A record has been appended at the log end (leader or follower,
    /// `ProducerAppendInfo.append` / `appendEndTxnMarker`); `high_watermark` is the log's.
    pub(crate) fn on_append(&mut self, r: &StoredRecord, high_watermark: u64) {
        let Some(tag) = r.record.txn else { return };
        let epoch = self.epochs.entry(tag.producer_id).or_insert(tag.producer_epoch);
        *epoch = (*epoch).max(tag.producer_epoch);
        match r.record.control {
            Some(control) => {
                // `appendEndTxnMarker`: the transaction's first offset here, or the marker's
                // own when it wrote nothing to this partition.
                let first = self.open.remove(&tag.producer_id).unwrap_or(r.offset);
                match self.unstable.iter_mut().find(|u| u.producer_id == tag.producer_id && u.marker.is_none()) {
                    Some(u) => u.marker = Some((r.offset, control.kind)),
                    None => self.unstable.push(UnstableTxn {
                        producer_id: tag.producer_id,
                        first_offset: first,
                        marker: Some((r.offset, control.kind)),
                    }),
                }
                if control.kind == ControlType::Abort {
                    let lso = self.last_stable_offset(high_watermark, r.offset + 1);
                    self.aborted.push(AbortedTxn {
                        producer_id: tag.producer_id,
                        first_offset: first,
                        last_offset: r.offset,
                        last_stable_offset: lso,
                    });
                }
            }
            None => {
                if !self.open.contains_key(&tag.producer_id) {
                    self.open.insert(tag.producer_id, r.offset);
                    self.unstable.push(UnstableTxn { producer_id: tag.producer_id, first_offset: r.offset, marker: None });
                }
            }
        }
    }

    /// The HW moved: transactions whose marker is now below it are stable.
    pub(crate) fn on_high_watermark(&mut self, high_watermark: u64) {
        self.unstable.retain(|u| u.marker.is_none_or(|(m, _)| m >= high_watermark));
    }

    /// The last stable offset (`UnifiedLog.lastStableOffset`,
    /// `ProducerStateManager.firstUnstableOffset`): the high watermark, or the first offset
    /// of the earliest transaction still undecided — or decided with its marker not yet
    /// below the HW — if that comes first. Never above `log_end_offset`.
    pub fn last_stable_offset(&self, high_watermark: u64, log_end_offset: u64) -> u64 {
        let first_unstable = self
            .unstable
            .iter()
            .filter(|u| u.marker.is_none_or(|(m, _)| m >= high_watermark))
            .map(|u| u.first_offset)
            .min()
            .unwrap_or(u64::MAX);
        high_watermark.min(first_unstable).min(log_end_offset)
    }

    /// The newest epoch this log has seen for `producer_id`.
    pub fn epoch_of(&self, producer_id: u64) -> Option<u16> {
        self.epochs.get(&producer_id).copied()
    }

    /// Whether `producer_id` has a transaction open in this partition (started here, no
    /// marker yet): later batches of it need no verification with the coordinator.
    pub fn has_open_transaction(&self, producer_id: u64) -> bool {
        self.open.contains_key(&producer_id)
    }

    /// The open transactions here: (producer id, first offset), by producer id.
    pub fn open_transactions(&self) -> impl Iterator<Item = (u64, u64)> + '_ {
        self.open.iter().map(|(p, o)| (*p, *o))
    }

    /// The aborted-transactions index, oldest first.
    pub fn aborted(&self) -> &[AbortedTxn] {
        &self.aborted
    }

    /// `collectAbortedTransactions(startOffset, upperBoundOffset)`: the aborted transactions
    /// that overlap `from..to` (whose marker is at or after `from` and that start before `to`).
    pub fn aborted_between(&self, from: u64, to: u64) -> impl Iterator<Item = &AbortedTxn> + '_ {
        self.aborted.iter().filter(move |a| a.last_offset >= from && a.first_offset < to)
    }

    /// The cleaner rewrote the index of the segments it cleaned: only the entries `keep`
    /// accepts stay (`CleanedTransactionMetadata.cleanedIndex`).
    pub(crate) fn retain_aborted(&mut self, keep: impl Fn(&AbortedTxn) -> bool) {
        self.aborted.retain(keep);
    }

    /// Retention moved the log start: aborted transactions wholly below it leave the index
    /// (their `.txnindex` went with their segments).
    pub(crate) fn on_log_start(&mut self, log_start_offset: u64) {
        self.aborted.retain(|a| a.last_offset >= log_start_offset);
    }

    /// Rebuilt from the records a log still holds (after a truncation), as Kafka reloads
    /// producer state from the log.
    pub(crate) fn rebuilt<'a>(records: impl Iterator<Item = &'a StoredRecord>, high_watermark: u64) -> Self {
        let mut s = Self::default();
        for r in records {
            s.on_append(r, high_watermark);
        }
        s.on_high_watermark(high_watermark);
        s
    }
}

/// What a record is to transactions, as the page shows it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TxnMark {
    /// A record of a transaction not decided yet.
    Open,
    /// A record of a committed transaction.
    Committed,
    /// A record of an aborted transaction.
    Aborted,
    /// A COMMIT marker.
    CommitMarker,
    /// An ABORT marker.
    AbortMarker,
}

impl ProducerStates {
    /// What `r` (a record of this log) is to transactions; `None` for a plain record.
    pub fn mark(&self, r: &StoredRecord) -> Option<TxnMark> {
        let tag = r.record.txn?;
        if let Some(c) = r.record.control {
            return Some(match c.kind {
                ControlType::Commit => TxnMark::CommitMarker,
                ControlType::Abort => TxnMark::AbortMarker,
            });
        }
        if self.open.get(&tag.producer_id).is_some_and(|first| *first <= r.offset) {
            return Some(TxnMark::Open);
        }
        let aborted =
            self.aborted.iter().any(|a| a.producer_id == tag.producer_id && a.first_offset <= r.offset && r.offset <= a.last_offset);
        Some(if aborted { TxnMark::Aborted } else { TxnMark::Committed })
    }
}

/// Which records of a fetch a consumer's `poll()` never returns, per record, in order
/// (`CompletedFetch.nextFetchedRecord` with the fetch's aborted transactions): control
/// records always; under read_committed also every record of a producer id whose aborted
/// transaction covers it — an aborted entry joins the set once the reader reaches its
/// first offset, and the producer's ABORT marker takes it out again.
pub fn hidden_records<'a>(records: impl IntoIterator<Item = &'a StoredRecord>, aborted: &[AbortedTxn], read_committed: bool) -> Vec<bool> {
    let mut queue: Vec<&AbortedTxn> = if read_committed { aborted.iter().collect() } else { Vec::new() };
    crate::sorted::sort_by_key(&mut queue, |a| a.first_offset);
    let mut next = 0;
    let mut aborted_pids: VecSet<u64> = VecSet::new();
    records
        .into_iter()
        .map(|r| {
            while next < queue.len() && queue[next].first_offset <= r.offset {
                aborted_pids.insert(queue[next].producer_id);
                next += 1;
            }
            match (r.record.control, r.record.txn) {
                (Some(c), Some(tag)) => {
                    if c.kind == ControlType::Abort {
                        aborted_pids.remove(&tag.producer_id);
                    }
                    true
                }
                (Some(_), None) => true,
                (None, Some(tag)) => aborted_pids.contains(&tag.producer_id),
                (None, None) => false,
            }
        })
        .collect()
}

/// The coordinator's record of one `transactional.id` (`TransactionMetadata`). The
/// sandbox keeps it across a coordinator failover (Kafka reloads it from
/// `__transaction_state`, whose records the sandbox does not store).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct TxnMetadata {
    pub(crate) transactional_id: String,
    pub(crate) producer_id: u64,
    /// -1 before the first InitProducerId completes (`NO_PRODUCER_EPOCH`).
    pub(crate) epoch: i32,
    pub(crate) state: TxnState,
    pub(crate) timeout_ms: u64,
    pub(crate) partitions: VecSet<TxnPartition>,
    /// When the first partition was added (`txnStartTimestamp`): the timeout counts from here.
    pub(crate) started_at: Option<SimTime>,
    /// Markers still to be acknowledged while in Prepare*.
    pub(crate) markers_pending: VecSet<TxnPartition>,
    /// The epoch the markers carry.
    pub(crate) marker_epoch: u16,
    /// What the markers say.
    pub(crate) marker_kind: Option<ControlType>,
    /// The coordinator epoch the markers carry.
    pub(crate) coordinator_epoch: u32,
    /// Transactions it has committed and aborted (the page's counters).
    pub(crate) committed: u64,
    pub(crate) aborted: u64,
}

/// A TxnOffsetCommit on its way or to be sent again: (group, member id, generation, offsets).
pub(crate) type OffsetsInFlight = (String, String, i32, Vec<(TopicPartition, u64)>);

/// A transactional producer's own state (`TransactionManager`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct TxnClient {
    pub(crate) transactional_id: String,
    pub(crate) state: ClientTxnState,
    /// From InitProducerId, then from each EndTxn (transaction version 2 bumps it).
    pub(crate) tag: Option<TxnTag>,
    /// Partitions it has sent to in the open transaction (`partitionsInTransaction`).
    pub(crate) partitions: VecSet<TopicPartition>,
    /// Groups whose offsets it sent in the open transaction.
    pub(crate) offset_groups: VecSet<String>,
    /// A record or offsets went out in the open transaction (`transactionStarted`).
    pub(crate) started: bool,
    /// Bumped at each crash and restart, so answers to an older instance are dropped.
    pub(crate) incarnation: u64,
    /// An EndTxn is on its way.
    pub(crate) end_in_flight: bool,
    /// The TxnOffsetCommit on its way or to be sent again: (group, member id, generation,
    /// offsets).
    pub(crate) pending_offsets: Option<OffsetsInFlight>,
    /// The error of the last retried request, so a retry loop is traced once.
    pub(crate) retrying: Option<crate::event::TxnError>,
    /// The error that put it in AbortableError or FatalError.
    pub(crate) last_error: Option<crate::event::TxnError>,
    /// Transactions committed and aborted by this producer.
    pub(crate) committed: u64,
    pub(crate) aborted: u64,
}

impl TxnClient {
    pub(crate) fn new(transactional_id: String) -> Self {
        Self {
            transactional_id,
            state: ClientTxnState::Uninitialized,
            tag: None,
            partitions: VecSet::new(),
            offset_groups: VecSet::new(),
            started: false,
            incarnation: 0,
            end_in_flight: false,
            pending_offsets: None,
            retrying: None,
            last_error: None,
            committed: 0,
            aborted: 0,
        }
    }
}

/// A group's offsets sent in a transaction, waiting for its marker
/// (`OffsetMetadataManager.pendingTransactionalOffsets`): per producer id, per partition.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct PendingTxnOffsets {
    pub(crate) by_producer: VecMap<u64, VecMap<TopicPartition, u64>>,
}

impl PendingTxnOffsets {
    /// Whether some transaction holds a pending offset for `tp` (an OffsetFetch with
    /// `requireStable` gets UNSTABLE_OFFSET_COMMIT for it).
    pub(crate) fn holds(&self, tp: &TopicPartition) -> bool {
        self.by_producer.values().any(|m| m.contains_key(tp))
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.by_producer.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::log::PartitionLog;
    use crate::record::{Control, Record, TimestampType};

    fn data(id: u64, tag: Option<TxnTag>) -> Record {
        Record { txn: tag, ..Record::sample(id, 0) }
    }

    fn tag(pid: u64, epoch: u16) -> Option<TxnTag> {
        Some(TxnTag { producer_id: pid, producer_epoch: epoch })
    }

    fn append(log: &mut PartitionLog, r: Record, now: u64) -> u64 {
        log.append(r, SimTime(now), TimestampType::CreateTime, 0).offset
    }

    fn marker(log: &mut PartitionLog, pid: u64, epoch: u16, kind: ControlType, now: u64) -> u64 {
        log.append_marker(
            crate::record::RecordId(crate::record::MARKER_ID_BASE + now),
            TxnTag { producer_id: pid, producer_epoch: epoch },
            Control { kind, coordinator_epoch: 0 },
            SimTime(now),
            0,
        )
        .offset
    }

    #[test]
    fn a_marker_takes_an_offset_and_three_records_occupy_four() {
        let mut log = PartitionLog::default();
        for i in 0..3 {
            append(&mut log, data(i, tag(7, 0)), 1);
        }
        let m = marker(&mut log, 7, 1, ControlType::Commit, 2);
        assert_eq!((m, log.log_end_offset()), (3, 4));
        assert!(log.get(3).is_some_and(|r| r.record.is_control()));
        // The marker is its own batch: 3 records of 10 bytes in one batch, then the marker's.
        assert_eq!(log.segments()[0].size_bytes, 61 + 30 + 61 + u64::from(crate::log::MARKER_RECORD_BYTES));
    }

    #[test]
    fn an_open_transaction_holds_the_lso_until_its_marker_is_below_the_hw() {
        let mut log = PartitionLog::default();
        append(&mut log, data(1, None), 1); // 0: plain
        append(&mut log, data(2, tag(7, 0)), 2); // 1: txn starts
        append(&mut log, data(3, None), 3); // 2: plain, after the open transaction
        log.advance_high_watermark(3);
        assert_eq!(log.last_stable_offset(), 1, "the open transaction's first offset");
        let m = marker(&mut log, 7, 1, ControlType::Commit, 4); // 3
        assert_eq!(log.last_stable_offset(), 1, "the marker is not below the HW yet");
        log.advance_high_watermark(m);
        assert_eq!(log.last_stable_offset(), 1, "HW at the marker: still not below it");
        log.advance_high_watermark(m + 1);
        assert_eq!(log.last_stable_offset(), 4);
        assert!(log.producer_states().aborted().is_empty());
    }

    #[test]
    fn an_abort_marker_enters_the_aborted_index_and_read_committed_hides_the_transaction() {
        let mut log = PartitionLog::default();
        append(&mut log, data(1, tag(7, 0)), 1); // 0 aborted
        append(&mut log, data(2, tag(8, 0)), 2); // 1 another producer's, committed later
        append(&mut log, data(3, tag(7, 0)), 3); // 2 aborted
        marker(&mut log, 7, 1, ControlType::Abort, 4); // 3
        append(&mut log, data(4, None), 5); // 4 plain
        marker(&mut log, 8, 1, ControlType::Commit, 6); // 5
        log.advance_high_watermark(6);
        assert_eq!(log.last_stable_offset(), 6);
        let a = log.producer_states().aborted();
        assert_eq!(a.len(), 1);
        assert_eq!((a[0].producer_id, a[0].first_offset, a[0].last_offset), (7, 0, 3));
        let records = log.read_up_to(0, 100, 6).to_vec();
        let aborted: Vec<AbortedTxn> = log.producer_states().aborted_between(0, 6).copied().collect();
        assert_eq!(hidden_records(&records, &aborted, true), [true, false, true, true, false, true]);
        assert_eq!(hidden_records(&records, &aborted, false), [false, false, false, true, false, true], "markers only");
        // Read from the middle: the index still says producer 7's record at 2 is aborted.
        assert_eq!(hidden_records(&records[2..], &aborted, true), [true, true, false, true]);
    }

    #[test]
    fn producer_state_follows_truncation_and_every_replica_agrees() {
        let mut leader = PartitionLog::default();
        append(&mut leader, data(1, tag(7, 0)), 1);
        marker(&mut leader, 7, 1, ControlType::Abort, 2);
        append(&mut leader, data(3, tag(7, 1)), 3);
        let mut follower = PartitionLog::default();
        for r in leader.records().to_vec() {
            assert!(follower.append_replica(r));
        }
        assert_eq!(follower.producer_states(), leader.producer_states());
        assert_eq!(leader.producer_states().epoch_of(7), Some(1));
        assert!(leader.producer_states().has_open_transaction(7));
        leader.truncate_to(2);
        assert!(!leader.producer_states().has_open_transaction(7), "the open transaction's record is gone");
        assert_eq!(leader.producer_states().aborted().len(), 1);
        leader.truncate_to(1);
        assert!(leader.producer_states().aborted().is_empty(), "the marker is gone: aborted no more");
        assert!(leader.producer_states().has_open_transaction(7), "open again, as the log says");
    }
}
