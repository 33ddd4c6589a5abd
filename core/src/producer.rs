//! Producers: partition choice, the `RecordAccumulator` (one deque of batches per
//! partition), the Sender's in-flight requests per broker connection, and what came back.

use crate::cluster::BrokerId;
use crate::config::ProducerConfig;
use crate::event::ProduceError;
use crate::name::Name;
use crate::partitioner::{PartitionReason, PartitionerState};
use crate::record::{Record, RecordId, TopicPartition};
use crate::time::SimTime;
use crate::vecmap::{VecMap, VecSet};
use serde::{Deserialize, Serialize};
use std::collections::VecDeque;

/// `max.request.size` (1048576, Kafka's default): the Sender stops adding batches to a
/// Produce request once the next would take it past this many bytes
/// (`RecordAccumulator.drainBatchesForOneNode`). A sandbox constant, not a setting.
pub const MAX_REQUEST_SIZE: u32 = 1_048_576;

/// One `ProducerBatch`: records for one partition, from its creation in the accumulator
/// until it is acknowledged or given up.
///
/// While it waits in its partition's deque it is not in flight; the last batch of a deque
/// takes more records until it is full (`ProducerBatch.tryAppend`). The Sender drains it
/// (`RecordAccumulator.drain`) into a Produce request, which closes it for appends; a
/// retried batch goes back into the deque (`RecordAccumulator.reenqueue`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Batch {
    pub id: u64,
    pub tp: TopicPartition,
    pub records: Vec<Record>,
    /// `estimatedSizeInBytes()`: the 61-byte batch header plus each record's
    /// `DefaultRecord` size (as [`crate::partitioner::record_size_in_bytes`] counts it).
    pub bytes: u32,
    /// `createdMs`: `delivery.timeout.ms` counts from here.
    pub created_at: SimTime,
    /// `lastAttemptMs`: creation, then each re-enqueue; `linger.ms` and the retry backoff
    /// count from here (`ProducerBatch.waitedTimeMs`).
    pub last_attempt_at: SimTime,
    /// `closeForRecordAppends`: a record did not fit, or the batch was drained.
    pub closed: bool,
    /// The first record's sequence number, given when the batch is first drained
    /// (idempotent producer only).
    pub sequence: Option<u32>,
    /// How many times it has been sent.
    pub attempt: u32,
    /// Retry backoff: not drained before this moment (`RecordAccumulator.shouldBackoff`).
    pub backoff_until: Option<SimTime>,
    /// The Produce request carrying it, while one is outstanding.
    pub request: Option<u64>,
    /// The broker the last attempt went to.
    pub broker: Option<BrokerId>,
    /// Its partition had no leader when the Sender last looked (traced once).
    pub waiting_for_leader: bool,
    /// The bytes it took from `buffer.memory` when it was created (`BufferPool.allocate`:
    /// `batch.size`, or the first record's size if larger), given back when it is done
    /// (`RecordAccumulator.deallocate`).
    pub allocated: u32,
}

impl Batch {
    /// `ProducerBatch.isFull()`: closed for appends, or at `batch.size`.
    pub fn is_full(&self, batch_size: u32) -> bool {
        self.closed || (!self.records.is_empty() && self.bytes >= batch_size)
    }

    /// `MemoryRecordsBuilder.hasRoomFor`: an empty batch takes any record; otherwise the
    /// record must fit within `batch.size`.
    pub fn has_room_for(&self, size_bytes: u32, batch_size: u32) -> bool {
        if self.closed || self.is_full(batch_size) {
            return false;
        }
        self.records.is_empty() || self.bytes.saturating_add(size_bytes) <= batch_size
    }
}

/// A Produce request on the wire: one per broker per drain, with at most one batch per
/// partition (`Sender.sendProduceRequest`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct ProduceRequest {
    pub broker: BrokerId,
    /// Batch ids, in the order they were drained.
    pub batches: Vec<u64>,
}

/// What the producer knows of one record it sent.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SentRecord {
    /// The record's id in the sandbox (the same in the log and at every consumer).
    pub record: RecordId,
    /// Its key, if it has one.
    pub key: Option<Name>,
    /// Its value.
    pub value: Name,
    /// The topic it was sent to.
    pub topic: Name,
    /// The partition it went to, chosen when `send()` was called.
    pub partition: u32,
    /// Why that partition: named by the record, key hash, sticky or round-robin.
    pub reason: PartitionReason,
    /// When `send()` was called (simulated time).
    pub sent_at: SimTime,
    /// `RecordMetadata.offset()` once acknowledged (-1 under acks=0).
    pub acked_offset: Option<i64>,
    /// The error the send's callback got, if the producer gave the record up.
    pub failed: Option<ProduceError>,
}

/// A `send()` blocked in `BufferPool.allocate`: its partition is chosen and its batch
/// needs `needed` bytes that `buffer.memory` does not have free. It gets in once completed
/// batches give enough back, or fails with `BufferExhaustedException` at `max.block.ms`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct BlockedSend {
    pub record: Record,
    pub tp: TopicPartition,
    pub reason: PartitionReason,
    /// The bytes the new batch asks of the pool.
    pub needed: u64,
    /// When it started waiting; it fails at this plus `max.block.ms`.
    pub since: SimTime,
}

/// A send the application would make once its thread returns from the blocked `send()`:
/// the sandbox takes it in order (its id given when it was asked for), after the blocked one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct QueuedSend {
    pub id: RecordId,
    pub topic: String,
    pub key: Option<String>,
    pub value: Option<String>,
    pub partition: Option<u32>,
    pub headers: Vec<crate::record::Header>,
}

/// What a producer counts over the whole run (Kafka's `record-send-total`,
/// `record-retry-total`, `record-error-total` and request latency metrics, per record).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct ProducerCounters {
    /// Records whose send completed successfully.
    pub(crate) acknowledged: u64,
    /// Records given up (the callback got an error).
    pub(crate) failed: u64,
    /// Record sends retried (one per record per retry).
    pub(crate) retries: u64,
    /// Send-to-acknowledgement times summed, in ms, over `latency_samples` records.
    pub(crate) latency_ms_sum: u64,
    /// The longest send-to-acknowledgement time, in ms.
    pub(crate) latency_ms_max: u64,
    /// Acknowledged records whose send time was still remembered.
    pub(crate) latency_samples: u64,
    /// Sends that failed with `BufferExhaustedException` (Kafka's `buffer-exhausted-total`).
    pub(crate) buffer_exhausted: u64,
    /// Sends that had to wait for `buffer.memory`.
    pub(crate) blocked_sends: u64,
    /// Time sends spent blocked waiting for `buffer.memory`, in ms (Kafka's
    /// `bufferpool-wait-time-ns-total`, in ms).
    pub(crate) blocked_ms_total: u64,
}

/// A producer client.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Producer {
    pub(crate) name: Name,
    pub(crate) config: ProducerConfig,
    pub(crate) partitioners: VecMap<String, PartitionerState>,
    pub(crate) sent: VecDeque<SentRecord>,
    pub(crate) sent_total: u64,
    /// Counters over the whole run (not bounded by what `sent` keeps).
    pub(crate) counters: ProducerCounters,
    /// Every batch neither acknowledged nor given up, by id (ids grow with creation).
    pub(crate) batches: VecMap<u64, Batch>,
    /// The `RecordAccumulator`: per partition, the batches not in flight, oldest first
    /// (the front is drained next, the back takes appends). Empty deques are removed, so
    /// the keys are exactly the partitions with something to send.
    pub(crate) deques: VecMap<TopicPartition, VecDeque<u64>>,
    /// Outstanding Produce requests by id.
    pub(crate) requests: VecMap<u64, ProduceRequest>,
    /// `InFlightRequests`: the outstanding requests per broker connection, oldest first;
    /// `max.in.flight.requests.per.connection` bounds each.
    pub(crate) in_flight: VecMap<BrokerId, VecSet<u64>>,
    /// `TransactionManager`'s in-flight batches by sequence, per partition: every batch
    /// with a sequence number not yet done (idempotent producer).
    pub(crate) sequenced: VecMap<TopicPartition, VecSet<(u32, u64)>>,
    /// Partitions with a batch in flight when `max.in.flight.requests.per.connection` is 1
    /// (`Sender.guaranteeMessageOrder` mutes them).
    pub(crate) muted: VecSet<TopicPartition>,
    /// `nodesDrainIndex`: per broker, the partition the last drain stopped at; the next
    /// drain starts there, so no partition starves.
    pub(crate) drain_from: VecMap<BrokerId, TopicPartition>,
    /// Next sequence number per partition (idempotent producer).
    pub(crate) next_sequence: VecMap<TopicPartition, u32>,
    /// Moments the Sender is due to wake (linger, backoff, metadata), each queued once.
    pub(crate) wakeups: VecSet<SimTime>,
    /// The wake-up queued for the oldest waiting batch's `delivery.timeout.ms`.
    pub(crate) expiry_wakeup: Option<SimTime>,
    /// Bytes of `buffer.memory` the batches not yet done hold (`BufferPool`: total memory
    /// minus `availableMemory()`).
    pub(crate) buffer_used: u64,
    /// The `send()` blocked waiting for `buffer.memory`, if any (the application thread
    /// waits in `BufferPool.allocate`; one thread per producer in the sandbox).
    pub(crate) blocked: Option<BlockedSend>,
    /// Sends asked for while a send was blocked: the application thread makes them after
    /// it returns, in order.
    pub(crate) queued: VecDeque<QueuedSend>,
    /// A transactional producer's `TransactionManager` (`transactional.id` set).
    pub(crate) txn: Option<crate::txn::TxnClient>,
}

impl Producer {
    pub fn new(name: impl Into<Name>, config: ProducerConfig) -> Self {
        let txn = config.transactional_id.clone().map(crate::txn::TxnClient::new);
        Self {
            txn,
            name: name.into(),
            config,
            partitioners: VecMap::new(),
            sent: VecDeque::new(),
            sent_total: 0,
            counters: ProducerCounters::default(),
            batches: VecMap::new(),
            deques: VecMap::new(),
            requests: VecMap::new(),
            in_flight: VecMap::new(),
            sequenced: VecMap::new(),
            muted: VecSet::new(),
            drain_from: VecMap::new(),
            next_sequence: VecMap::new(),
            wakeups: VecSet::new(),
            expiry_wakeup: None,
            buffer_used: 0,
            blocked: None,
            queued: VecDeque::new(),
        }
    }

    /// Remembers a send, keeping the newest `kept` ([`crate::SimOptions::sent_per_producer`]).
    pub(crate) fn remember(&mut self, sent: SentRecord, kept: usize) {
        if self.sent.len() >= kept.max(1) {
            self.sent.pop_front();
        }
        self.sent.push_back(sent);
        self.sent_total += 1;
    }

    pub(crate) fn mark_failed(&mut self, record: RecordId, error: ProduceError) {
        self.counters.failed += 1;
        if let Some(s) = self.sent.iter_mut().rev().find(|s| s.record == record) {
            s.failed = Some(error);
        }
    }

    /// Whether the Sender may drain batches: always for a plain producer; a transactional
    /// one needs its producer id and an open transaction (being committed or aborted
    /// included, for what is still in flight or retried).
    pub(crate) fn may_drain(&self) -> bool {
        use crate::txn::ClientTxnState as S;
        self.txn.as_ref().is_none_or(|t| t.tag.is_some() && matches!(t.state, S::InTransaction | S::Committing | S::Aborting))
    }

    /// The producer id and epoch its batches carry, if transactional and initialized.
    pub(crate) fn txn_tag(&self) -> Option<crate::record::TxnTag> {
        self.txn.as_ref().and_then(|t| t.tag)
    }

    /// Records sent but neither acknowledged nor given up.
    pub fn pending_records(&self) -> u32 {
        self.batches.values().map(|b| b.records.len() as u32).sum::<u32>()
    }

    /// Records in batches that have not been sent yet (waiting in the accumulator for
    /// `linger.ms`, `batch.size` or a free in-flight slot).
    pub fn batched_records(&self) -> u32 {
        self.deques
            .values()
            .flatten()
            .filter_map(|id| self.batches.get(id))
            .filter(|b| b.attempt == 0)
            .map(|b| b.records.len() as u32)
            .sum()
    }

    /// Outstanding Produce requests to `broker` (`InFlightRequests.count(node)`).
    pub fn in_flight_requests(&self, broker: BrokerId) -> u32 {
        self.in_flight.get(&broker).map_or(0, |r| r.len() as u32)
    }

    /// Outstanding Produce requests to all brokers.
    pub fn in_flight_total(&self) -> u32 {
        self.in_flight.values().map(|r| r.len() as u32).sum()
    }

    /// The send of `record` completed at `now` with `offset` (-1 under acks=0).
    pub(crate) fn mark_acked(&mut self, record: RecordId, offset: i64, now: SimTime) {
        self.counters.acknowledged += 1;
        // Records are remembered in the order of their ids (one counter, appended in
        // order), so a binary search finds one; the scan from the newest stays as the
        // fallback should that order not hold. Ids are unique: both find the same entry.
        let i = match self.sent.binary_search_by_key(&record, |s| s.record) {
            Ok(i) => Some(i),
            Err(_) => self.sent.iter().rposition(|s| s.record == record),
        };
        if let Some(s) = i.and_then(|i| self.sent.get_mut(i)) {
            s.acked_offset = Some(offset);
            let latency_ms = now.ms().saturating_sub(s.sent_at.ms());
            self.counters.latency_ms_sum += latency_ms;
            self.counters.latency_ms_max = self.counters.latency_ms_max.max(latency_ms);
            self.counters.latency_samples += 1;
        }
    }

    /// `RecordAccumulator.allBatchesFull`: the partition's deque is empty or its last
    /// batch is full (only the last one may be incomplete).
    pub(crate) fn all_batches_full(&self, tp: &TopicPartition) -> bool {
        let batch_size = self.config.batch_size;
        self.deques.get(tp).and_then(|d| d.back()).and_then(|id| self.batches.get(id)).is_none_or(|b| b.is_full(batch_size))
    }

    /// The sequence of the oldest batch of `tp` not yet done
    /// (`TransactionManager.firstInFlightSequence`).
    pub(crate) fn first_in_flight_sequence(&self, tp: &TopicPartition) -> Option<u32> {
        self.sequenced.get(tp).and_then(|s| s.first()).map(|(seq, _)| *seq)
    }

    /// `buffer.memory` not held by a batch (`BufferPool.availableMemory`).
    pub(crate) fn buffer_available(&self) -> u64 {
        self.config.buffer_memory.saturating_sub(self.buffer_used)
    }

    /// A batch of `tp` that had sequence `failed` and `count` records failed for good: every
    /// later batch of `tp` moves `count` sequence numbers down, and so does the next one
    /// (`TransactionManager.adjustSequencesDueToFailedBatch`).
    pub(crate) fn sequences_given_back(&mut self, tp: &TopicPartition, failed: u32, count: u32) {
        if let Some(next) = self.next_sequence.get_mut(tp) {
            *next = next.saturating_sub(count);
        }
        let Some(set) = self.sequenced.remove(tp) else { return };
        let mut moved = VecSet::new();
        for (seq, id) in set {
            let seq = if seq > failed { seq.saturating_sub(count) } else { seq };
            if let Some(b) = self.batches.get_mut(&id) {
                b.sequence = Some(seq);
                for (i, r) in b.records.iter_mut().enumerate() {
                    r.sequence = Some(seq.wrapping_add(i as u32));
                }
            }
            moved.insert((seq, id));
        }
        if !moved.is_empty() {
            self.sequenced.insert(tp.clone(), moved);
        }
    }

    /// Forgets a batch that is done (acknowledged or given up); its memory goes back to
    /// the pool (`RecordAccumulator.deallocate`).
    pub(crate) fn remove_batch(&mut self, id: u64) -> Option<Batch> {
        let batch = self.batches.remove(&id)?;
        self.buffer_used = self.buffer_used.saturating_sub(u64::from(batch.allocated));
        if let Some(seq) = batch.sequence {
            if let Some(s) = self.sequenced.get_mut(&batch.tp) {
                s.remove(&(seq, id));
                if s.is_empty() {
                    self.sequenced.remove(&batch.tp);
                }
            }
        }
        Some(batch)
    }
}
