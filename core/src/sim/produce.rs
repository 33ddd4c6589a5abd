//! The producers as one owner ([`Clients`]) and their side of producing: `send()` into the
//! `RecordAccumulator`, the Sender (ready brokers, one Produce request per broker with at
//! most one batch per partition, in-flight requests per connection, retries,
//! `request.timeout.ms`, `delivery.timeout.ms`), and a closed connection. The leader's
//! handling of a Produce request is the cluster's (`cluster/produce.rs`); `ProducePending`
//! holds both halves' messages.
//!
//! Kafka's classes: `KafkaProducer.doSend`, `RecordAccumulator` (`append`, `ready`,
//! `drain`, `reenqueue`, `expiredBatches`), `ProducerBatch`, `Sender`
//! (`sendProducerData`, `completeBatch`), `NetworkClient` / `InFlightRequests`
//! (`canSendMore` per node, a request timeout closes the connection).

use super::*;
use crate::event::{ProduceEvent, SettingsEvent};
use crate::partitioner::record_size_upper_bound;
use crate::producer::{BlockedSend, QueuedSend};
use crate::vecmap::VecSet;
use std::collections::VecDeque;

/// Something scheduled in the producer and the leader's answer to a Produce request: one of `Pending`'s features.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum ProducePending {
    /// The producer's Sender thread wakes up (`linger.ms`, a retry backoff, a metadata
    /// look for a leaderless partition, or a waiting batch's `delivery.timeout.ms`).
    SenderWake { producer: Name },
    /// A Produce request reaches a broker: one batch for each of several partitions, and
    /// the request's `timeoutMs` (the producer's `request.timeout.ms`), which bounds how
    /// long an acks=all write waits for the replicas.
    ProduceArrive { producer: Name, broker: BrokerId, request: u64, acks: Acks, timeout_ms: u64, batches: Vec<produce::WireBatch> },
    /// The Produce response reaches the producer: per batch, its offsets or an error.
    ProduceResponse { producer: Name, broker: BrokerId, request: u64, results: Vec<(u64, TopicPartition, produce::PartitionResult)> },
    /// `request.timeout.ms` passed for a Produce request.
    ProduceTimeout { producer: Name, request: u64 },
    /// `max.block.ms` passed for a `send()` blocked waiting for `buffer.memory`.
    MaxBlockTimeout { producer: Name, record: RecordId },
    /// The broker gives up waiting for replicas on an acks=all write.
    DelayedProduceTimeout { id: u64 },
}

/// What the Sender needs after a record went into the accumulator.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum AfterAppend {
    /// A batch filled, or a new one was created with `linger.ms` 0: the Sender runs.
    RunSender,
    /// A new batch lingers: the Sender looks again then.
    WakeAt(SimTime),
    /// Nothing changed for the Sender (the record joined a lingering batch, or blocked).
    Nothing,
}

/// One partition's batch inside a Produce request.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct WireBatch {
    pub batch: u64,
    pub tp: TopicPartition,
    pub records: Vec<Record>,
    /// The first record's sequence number (idempotent producer only).
    pub sequence: Option<u32>,
    /// The producer's `transactional.id` (Produce requests carry it, v3+).
    pub transactional_id: Option<String>,
    /// The leader has had the partition added to the transaction (`cluster/txn.rs`).
    pub txn_verified: bool,
    /// The leader's answer for a transactional batch it refused before appending.
    pub txn_error: Option<ProduceError>,
}

/// One record's place in the log, as a Produce response reports it:
/// (record, value, offset, timestamp).
pub(crate) type Acked = (RecordId, Name, u64, SimTime);

/// A leader's answer for one partition of a Produce request.
pub(crate) type PartitionResult = Result<Vec<Acked>, ProduceError>;

/// The producers (`KafkaProducer`: accumulator, Sender, in-flight requests) and the ids
/// they hand out. Changed by the producer's handlers (`sim/produce.rs`).
#[derive(Clone, Debug)]
pub(crate) struct Clients {
    pub(crate) producers: VecMap<String, Producer>,
    next_record: u64,
    next_batch: u64,
    /// Produce request ids (a correlation id), one counter for all producers.
    next_request: u64,
}

impl Clients {
    /// No producers yet.
    pub(super) fn new() -> Self {
        Clients { producers: VecMap::new(), next_record: 1, next_batch: 1, next_request: 1 }
    }
}

impl Clients {
    /// Whether `producer` had `record` acknowledged (its send callback ran without an
    /// error). A record the producer no longer remembers was sent long ago: with
    /// `delivery.timeout.ms` at `Integer.MAX_VALUE` (Connect's producer) it was
    /// acknowledged, not given up.
    /// The producer's name as it holds it (shared: a clone copies no text), for an event
    /// or a message; made from the given text if the producer is gone.
    fn name_of(&self, producer_name: &str) -> Name {
        self.producers.get(producer_name).map_or_else(|| Name::from(producer_name), |p| p.name.clone())
    }

    pub(super) fn acknowledged(&self, producer: &str, record: RecordId) -> bool {
        self.producers.get(producer).is_some_and(|p| {
            p.sent.iter().find(|s| s.record == record).is_none_or(|s| s.acked_offset.is_some()) && !p.queued.iter().any(|q| q.id == record)
        })
    }

    /// A broker's process died: its connections close, and every producer with requests in
    /// flight on that connection hears of it one hop later (`NetworkClient` sees the
    /// disconnect: `NETWORK_EXCEPTION` for each batch, oldest request first).
    pub(super) fn connections_closed(&self, broker: BrokerId, out: &mut Driver) {
        let mut broken = Vec::new();
        for p in self.producers.values() {
            for request in p.in_flight.get(&broker).into_iter().flatten() {
                let Some(req) = p.requests.get(request) else { continue };
                let results = req
                    .batches
                    .iter()
                    .filter_map(|id| p.batches.get(id))
                    .map(|b| (b.id, b.tp.clone(), Err(ProduceError::NetworkException)))
                    .collect();
                broken.push((p.name.clone(), *request, results));
            }
        }
        let at = out.now.plus_ms(out.latency());
        for (producer, request, results) in broken {
            out.at(at, ProducePending::ProduceResponse { producer, broker, request, results });
        }
    }

    /// `KafkaProducer.send()`: choose the partition and append the record to the last
    /// batch of that partition's deque in the accumulator, or to a new batch
    /// (`RecordAccumulator.append`). The Sender is woken when a batch became full or a
    /// new one was created (`RecordAppendResult.batchIsFull || newBatchCreated`).
    ///
    /// A new batch takes its memory from `buffer.memory` (`BufferPool.allocate`); when
    /// the pool has too little free, `send()` blocks the application thread (`SendBlocked`)
    /// until completed batches give enough back or `max.block.ms` passes
    /// (`BufferExhaustedException` to the callback). While it is blocked, later sends of
    /// the producer wait behind it, in order (one application thread per producer).
    ///
    /// Returns the record's id, or `None` when it was refused (unknown topic or
    /// producer, no partition to choose).
    pub(super) fn send(
        &mut self,
        producer_name: &str,
        topic: &str,
        key: Option<String>,
        value: Option<String>,
        partition: Option<u32>,
        headers: Vec<crate::record::Header>,
        cluster: &Cluster,
        out: &mut Driver,
    ) -> Option<RecordId> {
        let producer = self.producers.get_mut(producer_name)?;
        if producer.blocked.is_some() || !producer.queued.is_empty() {
            // The application thread is still inside an earlier `send()`.
            cluster.topics.get(topic)?;
            let id = RecordId(self.next_record);
            self.next_record += 1;
            producer.queued.push_back(QueuedSend { id, topic: topic.to_string(), key, value, partition, headers });
            return Some(id);
        }
        let (id, after) = self.append(producer_name, None, topic, key, value, partition, headers, cluster, out)?;
        self.after_append(producer_name, after, cluster, out);
        Some(id)
    }

    /// What the Sender needs after a record went into the accumulator.
    fn after_append(&mut self, producer_name: &str, after: AfterAppend, cluster: &Cluster, out: &mut Driver) {
        match after {
            AfterAppend::RunSender => self.run_sender(producer_name, cluster, out),
            AfterAppend::WakeAt(at) => self.wake_sender_at(producer_name, at, out),
            AfterAppend::Nothing => {}
        }
    }

    /// `RecordAccumulator.append` for one record (`id` given when the send was queued
    /// behind a blocked one): into the partition's last batch, or a new batch with memory
    /// from the pool, or blocked waiting for that memory.
    #[allow(clippy::too_many_arguments)] // `send()`'s arguments plus the id of a queued send.
    fn append(
        &mut self,
        producer_name: &str,
        id: Option<RecordId>,
        topic: &str,
        key: Option<String>,
        value: Option<String>,
        partition: Option<u32>,
        headers: Vec<crate::record::Header>,
        cluster: &Cluster,
        out: &mut Driver,
    ) -> Option<(RecordId, AfterAppend)> {
        let t = cluster.topics.get(topic)?;
        let partitions = t.partition_count();
        // Round-robin and sticky choices skip partitions without a leader
        // (`Cluster.availablePartitionsForTopic`); key hashing counts them all.
        let available: Vec<u32> = t.available_partitions();
        // The topic's and the producer's names as they are held (shared, not copied).
        let topic_name = t.name.clone();
        let now = out.now;
        let producer = self.producers.get_mut(producer_name)?;
        let producer_shared = producer.name.clone();
        let kind = producer.config.partitioner;
        let batch_size = producer.config.batch_size;
        if !producer.partitioners.contains_key(topic) {
            producer.partitioners.insert(topic.to_string(), Default::default());
        }
        let state = producer.partitioners.get_mut(topic)?;
        let chosen = state.choose(kind, &mut out.rng, partition, key.as_deref().map(str::as_bytes), partitions, &available);
        let (mut p, reason) = match chosen {
            Ok(c) => c,
            Err(e) => {
                out.emit(EventKind::Settings(SettingsEvent::CommandRejected { reason: e.to_string() }));
                return None;
            }
        };
        let sticky = matches!(reason, PartitionReason::Sticky);
        if sticky && producer.all_batches_full(&TopicPartition::new(&topic_name, p)) {
            // `RecordAccumulator.partitionChanged`: a switch that was held back while the
            // partition had an incomplete batch happens now that its batches are full
            // (or drained), before this record is appended.
            if let Some(state) = producer.partitioners.get_mut(topic) {
                state.on_sticky_append(&mut out.rng, 0, batch_size, true, &available);
                if let Ok((q, _)) = state.choose(kind, &mut out.rng, None, None, partitions, &available) {
                    p = q;
                }
            }
        }
        let header_bytes: Vec<(String, Vec<u8>)> = headers.iter().map(|h| (h.key.clone(), h.value.clone().into_bytes())).collect();
        let size_bytes = record_size_in_bytes(key.as_deref().map(str::as_bytes), value.as_deref().map(str::as_bytes), &header_bytes);
        // A null value (`ProducerRecord` with `value == null`): a tombstone on a compacted topic.
        let tombstone = value.is_none();
        let value = value.map_or_else(Name::default, Name::from);
        let key = key.map(Name::from);
        let id = id.unwrap_or_else(|| {
            let id = RecordId(self.next_record);
            self.next_record += 1;
            id
        });
        let record = Record {
            id,
            producer: producer_shared.clone(),
            key: key.clone(),
            value: value.clone(),
            headers,
            create_time: now,
            size_bytes,
            sequence: None,
            txn: None,
            control: None,
            tombstone,
        };
        let tp = TopicPartition::new(&topic_name, p);
        // `RecordAccumulator.tryAppend`: the last batch takes the record if it has room;
        // if not, it is closed for appends and a new batch starts.
        let last = producer.deques.get(&tp).and_then(|d| d.back()).copied();
        let mut record = Some(record);
        if let Some(b) = last.and_then(|id| producer.batches.get_mut(&id)) {
            if b.has_room_for(size_bytes, batch_size) {
                b.bytes = b.bytes.saturating_add(size_bytes);
                b.records.extend(record.take());
            } else {
                b.closed = true;
            }
        }
        let sent = SentRecord {
            record: id,
            key: key.clone(),
            value: value.clone(),
            topic: topic_name.clone(),
            partition: p,
            reason: reason.clone(),
            sent_at: now,
            acked_offset: None,
            failed: None,
        };
        let new_batch = record.is_some();
        let batch_id = if let Some(record) = record {
            // `BufferPool.allocate(max(batch.size, estimateSizeInBytesUpperBound))`.
            // Only a new batch asks the pool for memory, so only it needs the upper bound.
            let upper_bytes = RECORD_BATCH_OVERHEAD.saturating_add(record_size_upper_bound(
                key.as_deref().map(str::as_bytes),
                (!tombstone).then_some(value.as_bytes()),
                &header_bytes,
            ));
            let needed = u64::from(batch_size.max(upper_bytes));
            if u64::from(upper_bytes) > producer.config.buffer_memory {
                // `KafkaProducer.ensureValidRecordSize`: no pool could ever hold it.
                producer.remember(sent, out.options.sent_per_producer);
                self.fail_send(producer_name, &tp, id, ProduceError::RecordTooLarge, out);
                return Some((id, AfterAppend::Nothing));
            }
            if needed > producer.buffer_available() {
                producer.remember(sent, out.options.sent_per_producer);
                self.block(producer_name, BlockedSend { record, tp, reason, needed, since: now }, out);
                return Some((id, AfterAppend::Nothing));
            }
            self.new_batch(producer_name, record, &tp, needed, now)
        } else {
            last.unwrap_or_default()
        };
        let Some(producer) = self.producers.get_mut(producer_name) else { return Some((id, AfterAppend::Nothing)) };
        producer.remember(sent, out.options.sent_per_producer);
        let after = self.appended(producer_name, &tp, batch_id, new_batch, size_bytes, sticky, &available, out);
        out.emit(EventKind::Produce(ProduceEvent::RecordSent {
            record: id,
            producer: producer_shared,
            topic: topic_name,
            partition: p,
            key,
            value,
            reason,
        }));
        Some((id, after))
    }

    /// A new batch for `tp` holding `record`, with `allocated` bytes taken from the pool.
    fn new_batch(&mut self, producer_name: &str, record: Record, tp: &TopicPartition, allocated: u64, now: SimTime) -> u64 {
        let id = self.next_batch;
        self.next_batch += 1;
        let Some(producer) = self.producers.get_mut(producer_name) else { return id };
        producer.buffer_used = producer.buffer_used.saturating_add(allocated);
        producer.batches.insert(
            id,
            Batch {
                id,
                tp: tp.clone(),
                bytes: RECORD_BATCH_OVERHEAD.saturating_add(record.size_bytes),
                records: vec![record],
                created_at: now,
                last_attempt_at: now,
                closed: false,
                sequence: None,
                attempt: 0,
                backoff_until: None,
                request: None,
                broker: None,
                waiting_for_leader: false,
                allocated: u32::try_from(allocated).unwrap_or(u32::MAX),
            },
        );
        producer.deques.entry(tp.clone()).or_default().push_back(id);
        id
    }

    /// After a record went into batch `batch_id` of `tp`: the sticky partitioner hears how
    /// much the deque grew, and the Sender is told what changed for it.
    fn appended(
        &mut self,
        producer_name: &str,
        tp: &TopicPartition,
        batch_id: u64,
        new_batch: bool,
        size_bytes: u32,
        sticky: bool,
        available: &[u32],
        out: &mut Driver,
    ) -> AfterAppend {
        let Some(producer) = self.producers.get_mut(producer_name) else { return AfterAppend::Nothing };
        let batch_size = producer.config.batch_size;
        let linger_ms = producer.config.linger_ms;
        let deque_len = producer.deques.get(tp).map_or(0, VecDeque::len);
        let batch_is_full = deque_len > 1 || producer.batches.get(&batch_id).is_some_and(|b| b.is_full(batch_size));
        if sticky {
            // `BuiltInPartitioner.updatePartitionInfo`: `appendedBytes` is how much the
            // deque's batches grew (a new batch adds its header too); the switch is
            // allowed only when no batch of the partition is incomplete.
            let appended = size_bytes + if new_batch { RECORD_BATCH_OVERHEAD } else { 0 };
            let enable_switch = producer.all_batches_full(tp);
            if let Some(state) = producer.partitioners.get_mut(tp.topic.as_str()) {
                state.on_sticky_append(&mut out.rng, appended, batch_size, enable_switch, available);
            }
        }
        if batch_is_full || (new_batch && linger_ms == 0) {
            AfterAppend::RunSender
        } else if new_batch {
            // Nothing else changed for the Sender: every broker that could take a request
            // had nothing sendable before this record, and a lingering batch is not
            // sendable. It looks again when `linger.ms` has passed.
            AfterAppend::WakeAt(out.now.plus_ms(linger_ms))
        } else {
            AfterAppend::Nothing
        }
    }

    /// `BufferPool.allocate` cannot be met: the send waits (`waiters`) for at most
    /// `max.block.ms`; with `max.block.ms` 0 it fails at once.
    fn block(&mut self, producer_name: &str, blocked: BlockedSend, out: &mut Driver) {
        let now = out.now;
        let Some(producer) = self.producers.get_mut(producer_name) else { return };
        let max_block_ms = producer.config.max_block_ms;
        if max_block_ms == 0 {
            self.fail_send(producer_name, &blocked.tp, blocked.record.id, ProduceError::BufferExhausted, out);
            return;
        }
        producer.counters.blocked_sends += 1;
        out.emit(EventKind::Produce(ProduceEvent::SendBlocked {
            producer: producer.name.clone(),
            record: blocked.record.id,
            topic: blocked.tp.topic.clone(),
            partition: blocked.tp.partition,
            needed_bytes: blocked.needed,
            available_bytes: producer.buffer_available(),
            max_block_ms,
        }));
        out.at(now.plus_ms(max_block_ms), ProducePending::MaxBlockTimeout { producer: producer.name.clone(), record: blocked.record.id });
        producer.blocked = Some(blocked);
    }

    /// A send that never reached a batch fails: its callback gets `error`.
    fn fail_send(&mut self, producer_name: &str, tp: &TopicPartition, record: RecordId, error: ProduceError, out: &mut Driver) {
        let Some(producer) = self.producers.get_mut(producer_name) else { return };
        producer.mark_failed(record, error);
        if error == ProduceError::BufferExhausted {
            producer.counters.buffer_exhausted += 1;
        }
        out.emit(EventKind::Produce(ProduceEvent::ProduceFailed {
            producer: self.name_of(producer_name),
            topic: tp.topic.clone(),
            partition: tp.partition,
            records: vec![record],
            error,
            retrying: false,
        }));
    }

    /// `max.block.ms` passed for a blocked send: if it is still waiting, it fails with
    /// `BufferExhaustedException` ("Failed to allocate memory within the configured max
    /// blocking time"), and the application thread goes on with its next sends.
    pub(super) fn max_block_timeout(&mut self, producer_name: &str, record: RecordId, cluster: &Cluster, out: &mut Driver) {
        let now = out.now;
        let Some(producer) = self.producers.get_mut(producer_name) else { return };
        if producer.blocked.as_ref().is_none_or(|b| b.record.id != record) {
            return; // It got its memory in time.
        }
        let Some(blocked) = producer.blocked.take() else { return };
        producer.counters.blocked_ms_total += now.ms().saturating_sub(blocked.since.ms());
        self.fail_send(producer_name, &blocked.tp, record, ProduceError::BufferExhausted, out);
        self.unblock(producer_name, cluster, out);
        self.schedule_sender_wakeup(producer_name, cluster, out);
    }

    /// Memory came back to the pool: the blocked send gets its batch once enough is free
    /// (the first of `BufferPool.waiters` is signalled), then the application thread makes
    /// its queued sends, in order, until one blocks again. Nothing to do unless a send is
    /// blocked or queued.
    fn unblock(&mut self, producer_name: &str, cluster: &Cluster, out: &mut Driver) {
        loop {
            let now = out.now;
            let Some(producer) = self.producers.get_mut(producer_name) else { return };
            let after = if let Some(b) = &producer.blocked {
                if b.needed > producer.buffer_available() {
                    return;
                }
                let Some(b) = producer.blocked.take() else { return };
                producer.counters.blocked_ms_total += now.ms().saturating_sub(b.since.ms());
                let available: Vec<u32> = cluster.topics.get(b.tp.topic.as_str()).map(Topic::available_partitions).unwrap_or_default();
                let sticky = matches!(b.reason, PartitionReason::Sticky);
                let (id, key, value, size_bytes) = (b.record.id, b.record.key.clone(), b.record.value.clone(), b.record.size_bytes);
                let batch_id = self.new_batch(producer_name, b.record, &b.tp, b.needed, now);
                let after = self.appended(producer_name, &b.tp, batch_id, true, size_bytes, sticky, &available, out);
                out.emit(EventKind::Produce(ProduceEvent::RecordSent {
                    record: id,
                    producer: self.name_of(producer_name),
                    topic: b.tp.topic.clone(),
                    partition: b.tp.partition,
                    key,
                    value,
                    reason: b.reason,
                }));
                after
            } else {
                let Some(q) = producer.queued.pop_front() else { return };
                match self.append(producer_name, Some(q.id), &q.topic, q.key, q.value, q.partition, q.headers, cluster, out) {
                    Some((_, after)) => after,
                    None => AfterAppend::Nothing,
                }
            };
            match after {
                AfterAppend::RunSender => self.sender_turn(producer_name, cluster, out),
                AfterAppend::WakeAt(at) => self.wake_sender_at(producer_name, at, out),
                AfterAppend::Nothing => {}
            }
        }
    }

    /// Queues a Sender wake-up at `at` unless one is already due at or before it (that
    /// one recomputes the next moment anything changes).
    fn wake_sender_at(&mut self, producer_name: &str, at: SimTime, out: &mut Driver) {
        let Some(producer) = self.producers.get_mut(producer_name) else { return };
        if producer.wakeups.first().is_some_and(|w| *w <= at) {
            return;
        }
        producer.wakeups.insert(at);
        out.at(at, ProducePending::SenderWake { producer: self.name_of(producer_name) });
    }

    /// A queued Sender wake-up (`linger.ms`, a retry backoff, a metadata look for a
    /// leaderless partition, or `delivery.timeout.ms` of a waiting batch).
    pub(super) fn sender_wake(&mut self, producer_name: &str, cluster: &Cluster, out: &mut Driver) {
        let now = out.now;
        if let Some(p) = self.producers.get_mut(producer_name) {
            p.wakeups.remove(&now);
        }
        self.run_sender(producer_name, cluster, out);
    }

    /// One turn of the Sender thread (`Sender.sendProducerData`), repeated while it sends
    /// something (Kafka polls with timeout 0 while a broker is ready): expire batches past
    /// `delivery.timeout.ms`, find the brokers with a sendable partition that can take
    /// another request, drain each into one Produce request; then queue a wake-up for the
    /// next moment a partition becomes sendable or a batch expires.
    ///
    /// It looks at the first batch of each non-empty deque only, never at every batch.
    ///
    /// Batches done in the turn give their memory back, which may let a blocked `send()`
    /// through (`unblock`).
    pub(super) fn run_sender(&mut self, producer_name: &str, cluster: &Cluster, out: &mut Driver) {
        self.sender_turn(producer_name, cluster, out);
        self.unblock(producer_name, cluster, out);
        self.schedule_sender_wakeup(producer_name, cluster, out);
        // A commit or abort waiting for the flush sends its EndTxn (`sim/txn/client.rs`).
        self.txn_maybe_end(producer_name, cluster, out);
    }

    /// Expiry, then drains while a broker is ready (the part of a Sender turn that
    /// `unblock` repeats after each record it lets in).
    fn sender_turn(&mut self, producer_name: &str, cluster: &Cluster, out: &mut Driver) {
        self.expire_batches(producer_name, out);
        while self.send_producer_data(producer_name, cluster, out) {}
    }

    /// `RecordAccumulator.expiredBatches`: from the front of each deque, the batches whose
    /// `delivery.timeout.ms` has passed since they were created are given up.
    fn expire_batches(&mut self, producer_name: &str, out: &mut Driver) {
        let now = out.now;
        let Some(producer) = self.producers.get_mut(producer_name) else { return };
        let timeout = producer.config.delivery_timeout_ms;
        let expired_at = |b: &Batch| now.ms().saturating_sub(b.created_at.ms()) >= timeout;
        let mut expired = Vec::new();
        let mut emptied = Vec::new();
        for (tp, dq) in producer.deques.iter_mut() {
            while let Some(id) = dq.front().copied() {
                if !producer.batches.get(&id).is_some_and(expired_at) {
                    break;
                }
                dq.pop_front();
                expired.push(id);
            }
            if dq.is_empty() {
                emptied.push(tp.clone());
            }
        }
        for tp in emptied {
            producer.deques.remove(&tp);
        }
        for id in expired {
            self.give_up(producer_name, id, ProduceError::DeliveryTimeout, out);
        }
    }

    /// Forgets a batch for good: its records' callbacks get `error`.
    pub(super) fn give_up(&mut self, producer_name: &str, batch_id: u64, error: ProduceError, out: &mut Driver) {
        let Some(producer) = self.producers.get_mut(producer_name) else { return };
        let Some(batch) = producer.remove_batch(batch_id) else { return };
        // A batch the broker refused outright (a compacted topic's keyless record) gives
        // its sequence numbers back: the later batches of the partition move down by its
        // record count (`TransactionManager.adjustSequencesDueToFailedBatch`).
        if error == ProduceError::InvalidRecord && producer.txn.is_none() {
            if let Some(failed) = batch.sequence {
                producer.sequences_given_back(&batch.tp, failed, batch.records.len() as u32);
            }
        }
        let ids: Vec<RecordId> = batch.records.iter().map(|r| r.id).collect();
        for id in &ids {
            producer.mark_failed(*id, error);
        }
        out.emit(EventKind::Produce(ProduceEvent::ProduceFailed {
            producer: self.name_of(producer_name),
            topic: batch.tp.topic.clone(),
            partition: batch.tp.partition,
            records: ids,
            error,
            retrying: false,
        }));
        // A batch of a transaction given up makes the transaction abortable (`sim/txn/client.rs`).
        self.txn_batch_failed(producer_name, error, out);
    }

    /// `RecordAccumulator.ready` and `drain`, then `Sender.sendProduceRequests`. Returns
    /// whether a request went out.
    fn send_producer_data(&mut self, producer_name: &str, cluster: &Cluster, out: &mut Driver) -> bool {
        let now = out.now;
        let Some(producer) = self.producers.get(producer_name) else { return false };
        // A transactional producer sends only with its producer id, inside a transaction
        // (`Sender` waits for `TransactionManager`).
        if !producer.may_drain() {
            return false;
        }
        let txn_tag = producer.txn_tag();
        let config = &producer.config;
        let linger = config.linger_ms;
        let batch_size = config.batch_size;
        let max_in_flight = config.max_in_flight_requests_per_connection.max(1);
        let idempotent = config.idempotent();
        // ready(): a broker is ready when one of its partitions' first batch is sendable —
        // full (or more than one batch waiting), or `linger.ms` passed since it was
        // created or re-enqueued — and not backing off after a failure.
        let mut ready: VecSet<BrokerId> = VecSet::new();
        let mut by_node: VecMap<BrokerId, Vec<TopicPartition>> = VecMap::new();
        let mut leaderless = Vec::new();
        for (tp, dq) in &producer.deques {
            let Some(first) = dq.front().and_then(|id| producer.batches.get(id)) else { continue };
            let Some(leader) = cluster.partition(tp).and_then(|p| p.leader) else {
                if !first.waiting_for_leader {
                    leaderless.push(first.id);
                }
                continue;
            };
            by_node.entry(leader).or_default().push(tp.clone());
            if ready.contains(&leader) || producer.muted.contains(tp) {
                continue;
            }
            let backing_off = first.backoff_until.is_some_and(|t| now < t);
            let full = dq.len() > 1 || first.is_full(batch_size);
            let lingered = now.ms() >= first.last_attempt_at.ms().saturating_add(linger);
            if (full || lingered) && !backing_off {
                ready.insert(leader);
            }
        }
        // `NetworkClient.ready(node)`: `InFlightRequests.canSendMore(node)`, per broker.
        ready.retain(|b| producer.in_flight_requests(*b) < max_in_flight);
        // drain(): per ready broker, at most one batch per partition, starting where the
        // last drain stopped, up to `max.request.size`.
        let mut requests: Vec<(BrokerId, Vec<u64>)> = Vec::new();
        let Some(producer) = self.producers.get_mut(producer_name) else { return false };
        for node in ready {
            let parts = by_node.remove(&node).unwrap_or_default();
            let start = producer.drain_from.get(&node).map_or(0, |from| parts.partition_point(|tp| tp < from));
            let mut size: u32 = 0;
            let mut drained = Vec::new();
            for i in 0..parts.len() {
                let tp = &parts[(start + i) % parts.len()];
                producer.drain_from.insert(node, tp.clone());
                if producer.muted.contains(tp) {
                    continue;
                }
                let Some(first_id) = producer.deques.get(tp).and_then(|d| d.front()).copied() else { continue };
                let Some(first) = producer.batches.get(&first_id) else { continue };
                if first.backoff_until.is_some_and(|t| now < t) {
                    continue;
                }
                if size.saturating_add(first.bytes) > MAX_REQUEST_SIZE && !drained.is_empty() {
                    break;
                }
                // `shouldStopDrainBatchesForPartition`: a retried batch (it has a
                // sequence) goes only when it is the partition's oldest unfinished one,
                // so retries go one at a time and in order.
                if idempotent {
                    if let (Some(seq), Some(oldest)) = (first.sequence, producer.first_in_flight_sequence(tp)) {
                        if seq != oldest {
                            break;
                        }
                    }
                }
                if let Some(dq) = producer.deques.get_mut(tp) {
                    dq.pop_front();
                    if dq.is_empty() {
                        producer.deques.remove(tp);
                    }
                }
                let sequence = if idempotent && first.sequence.is_none() {
                    let next = producer.next_sequence.entry(tp.clone()).or_insert(0);
                    let base = *next;
                    *next = next.wrapping_add(first.records.len() as u32);
                    producer.sequenced.entry(tp.clone()).or_default().insert((base, first_id));
                    Some(base)
                } else {
                    None
                };
                let Some(batch) = producer.batches.get_mut(&first_id) else { continue };
                if let Some(base) = sequence {
                    batch.sequence = Some(base);
                    for (i, r) in batch.records.iter_mut().enumerate() {
                        r.sequence = Some(base.wrapping_add(i as u32));
                    }
                }
                // A transactional batch carries the producer id and epoch (`ProducerBatch.setProducerState`).
                if let Some(tag) = txn_tag {
                    for r in batch.records.iter_mut() {
                        r.txn = Some(tag);
                    }
                }
                batch.closed = true;
                batch.waiting_for_leader = false;
                size = size.saturating_add(batch.bytes);
                drained.push(first_id);
                if let Some(t) = producer.txn.as_mut() {
                    t.partitions.insert(tp.clone());
                    t.started = true;
                }
                if max_in_flight == 1 {
                    // `Sender.guaranteeMessageOrder`: nothing more from this partition
                    // until this batch is done.
                    producer.muted.insert(tp.clone());
                }
            }
            if !drained.is_empty() {
                requests.push((node, drained));
            }
        }
        // The producer asks for metadata for partitions without a leader; their batches
        // wait in the accumulator (not an attempt). The trace says so once per batch.
        let mut no_leader = Vec::new();
        for id in leaderless {
            let Some(batch) = producer.batches.get_mut(&id) else { continue };
            batch.waiting_for_leader = true;
            no_leader.push((batch.tp.clone(), batch.records.iter().map(|r| r.id).collect()));
        }
        for (tp, records) in no_leader {
            out.emit(EventKind::Produce(ProduceEvent::ProduceFailed {
                producer: self.name_of(producer_name),
                topic: tp.topic,
                partition: tp.partition,
                records,
                error: ProduceError::LeaderNotAvailable,
                retrying: true,
            }));
        }
        let sent = !requests.is_empty();
        for (node, batches) in requests {
            self.send_produce_request(producer_name, node, batches, out);
        }
        sent
    }

    /// `Sender.sendProduceRequest`: one request to `broker` carrying `batch_ids` (one per
    /// partition). Under acks=0 the request expects no answer: it leaves the in-flight
    /// list once written and its records complete with offset -1.
    fn send_produce_request(&mut self, producer_name: &str, broker: BrokerId, batch_ids: Vec<u64>, out: &mut Driver) {
        let now = out.now;
        let latency = out.latency();
        let request = self.next_request;
        self.next_request += 1;
        let Some(producer) = self.producers.get_mut(producer_name) else { return };
        let acks = producer.config.acks;
        let request_timeout = producer.config.request_timeout_ms;
        let transactional_id = producer.config.transactional_id.clone();
        let mut wire = Vec::with_capacity(batch_ids.len());
        let mut first_sends = Vec::new();
        for id in &batch_ids {
            let Some(batch) = producer.batches.get_mut(id) else { continue };
            batch.attempt += 1;
            batch.request = Some(request);
            batch.broker = Some(broker);
            if batch.attempt == 1 {
                first_sends.push((batch.tp.clone(), batch.records.iter().map(|r| r.id).collect::<Vec<_>>()));
            }
            wire.push(WireBatch {
                batch: *id,
                tp: batch.tp.clone(),
                records: batch.records.clone(),
                sequence: batch.sequence,
                transactional_id: transactional_id.clone(),
                txn_verified: false,
                txn_error: None,
            });
        }
        if acks != Acks::Zero {
            producer.requests.insert(request, ProduceRequest { broker, batches: batch_ids.clone() });
            producer.in_flight.entry(broker).or_default().insert(request);
        }
        for (tp, records) in first_sends {
            out.emit(EventKind::Produce(ProduceEvent::BatchSent {
                producer: self.name_of(producer_name),
                topic: tp.topic,
                partition: tp.partition,
                records,
            }));
        }
        if acks == Acks::Zero {
            // acks=0: the callbacks complete as soon as the request is written, offset -1.
            for w in &wire {
                let Some(p) = self.producers.get_mut(producer_name) else { return };
                p.muted.remove(&w.tp);
                let Some(batch) = p.remove_batch(w.batch) else { continue };
                for r in &batch.records {
                    p.mark_acked(r.id, -1, now);
                }
                for r in batch.records {
                    out.emit(EventKind::Produce(ProduceEvent::RecordAcked {
                        record: r.id,
                        value: r.value,
                        producer: self.name_of(producer_name),
                        topic: batch.tp.topic.clone(),
                        partition: batch.tp.partition,
                        offset: -1,
                        timestamp: now,
                        acks,
                    }));
                }
            }
        } else {
            out.at(now.plus_ms(request_timeout), ProducePending::ProduceTimeout { producer: self.name_of(producer_name), request });
        }
        out.at(
            now.plus_ms(latency),
            ProducePending::ProduceArrive {
                producer: self.name_of(producer_name),
                broker,
                request,
                acks,
                timeout_ms: request_timeout,
                batches: wire,
            },
        );
    }

    /// After a turn of the Sender: the next moment something changes for it without a
    /// response arriving — a partition's first batch becomes sendable (`linger.ms`, or
    /// the end of a retry backoff), a waiting batch reaches `delivery.timeout.ms`, or it
    /// is time to look again for a leaderless partition's leader (`retry.backoff.ms`).
    /// A broker at its in-flight limit needs no wake-up: its next response brings one.
    fn schedule_sender_wakeup(&mut self, producer_name: &str, cluster: &Cluster, out: &mut Driver) {
        let now = out.now;
        let Some(producer) = self.producers.get(producer_name) else { return };
        let config = &producer.config;
        let mut next: Option<SimTime> = None;
        let mut consider = |t: SimTime| {
            if t > now && next.is_none_or(|n| t < n) {
                next = Some(t);
            }
        };
        for (tp, dq) in &producer.deques {
            let Some(first) = dq.front().and_then(|id| producer.batches.get(id)) else { continue };
            consider(first.created_at.plus_ms(config.delivery_timeout_ms));
            if cluster.partition(tp).and_then(|p| p.leader).is_none() {
                consider(now.plus_ms(config.retry_backoff_ms.max(1)));
                continue;
            }
            let backoff = first.backoff_until.unwrap_or(SimTime::ZERO);
            let full = dq.len() > 1 || first.is_full(config.batch_size);
            let sendable_at = if full { backoff } else { backoff.max(first.last_attempt_at.plus_ms(config.linger_ms)) };
            consider(sendable_at);
        }
        if let Some(at) = next {
            self.wake_sender_at(producer_name, at, out);
        }
    }

    /// The producer reads a Produce response (`Sender.handleProduceResponse`): each
    /// partition's batch completes or fails (`completeBatch`), the connection has one
    /// request fewer in flight, and the Sender runs.
    pub(super) fn produce_response(
        &mut self,
        producer_name: &str,
        request: u64,
        results: Vec<(u64, TopicPartition, PartitionResult)>,
        cluster: &Cluster,
        out: &mut Driver,
    ) {
        if !self.finish_request(producer_name, request) {
            return; // The request was already failed (timed out, or its connection closed).
        }
        for (batch, _, result) in results {
            self.complete_batch(producer_name, batch, request, result, out);
        }
        self.run_sender(producer_name, cluster, out);
    }

    /// Takes a request off its connection's in-flight list; false if it was not there.
    fn finish_request(&mut self, producer_name: &str, request: u64) -> bool {
        let Some(producer) = self.producers.get_mut(producer_name) else { return false };
        let Some(req) = producer.requests.remove(&request) else { return false };
        if let Some(set) = producer.in_flight.get_mut(&req.broker) {
            set.remove(&request);
            if set.is_empty() {
                producer.in_flight.remove(&req.broker);
            }
        }
        true
    }

    /// `Sender.completeBatch` for one batch of a request.
    fn complete_batch(&mut self, producer_name: &str, batch_id: u64, request: u64, result: PartitionResult, out: &mut Driver) {
        let Some(producer) = self.producers.get_mut(producer_name) else { return };
        let Some(batch) = producer.batches.get_mut(&batch_id) else { return };
        if batch.request != Some(request) {
            return;
        }
        batch.request = None;
        let tp = batch.tp.clone();
        producer.muted.remove(&tp);
        let acks = producer.config.acks;
        match result {
            Ok(acked) => {
                producer.remove_batch(batch_id);
                for (record, _, offset, _) in &acked {
                    producer.mark_acked(*record, *offset as i64, out.now);
                }
                for (record, value, offset, timestamp) in acked {
                    out.emit(EventKind::Produce(ProduceEvent::RecordAcked {
                        record,
                        value,
                        producer: self.name_of(producer_name),
                        topic: tp.topic.clone(),
                        partition: tp.partition,
                        offset: offset as i64,
                        timestamp,
                        acks,
                    }));
                }
            }
            Err(error) => self.batch_failed(producer_name, batch_id, error, out),
        }
    }

    /// An attempt failed: the batch goes back into its partition's deque after a backoff
    /// while retries and `delivery.timeout.ms` allow (`Sender.canRetry`,
    /// `RecordAccumulator.reenqueue`), else its records are given up.
    fn batch_failed(&mut self, producer_name: &str, batch_id: u64, error: ProduceError, out: &mut Driver) {
        let now = out.now;
        // Transactions: a stale epoch, a partition the coordinator would not add, a fenced
        // producer — not retried; the transaction becomes abortable (or fatal).
        // A record a compacted topic refuses (no key) is not retried either.
        if matches!(
            error,
            ProduceError::InvalidProducerEpoch
                | ProduceError::TransactionAbortable
                | ProduceError::ProducerFenced
                | ProduceError::InvalidRecord
        ) {
            self.give_up(producer_name, batch_id, error, out);
            return;
        }
        let Some(producer) = self.producers.get_mut(producer_name) else { return };
        let config = producer.config.clone();
        if error == ProduceError::UnknownProducerId {
            // KIP-360: bump the epoch and number this partition's unfinished batches
            // again from 0, in the order they were created.
            if let Some(tp) = producer.batches.get(&batch_id).map(|b| b.tp.clone()) {
                let ids: Vec<u64> = producer.sequenced.remove(&tp).into_iter().flatten().map(|(_, id)| id).collect();
                let mut ids = ids;
                ids.sort_unstable();
                let mut next = 0u32;
                let mut renumbered = VecSet::new();
                for id in ids {
                    let Some(b) = producer.batches.get_mut(&id) else { continue };
                    b.sequence = Some(next);
                    renumbered.insert((next, id));
                    for r in &mut b.records {
                        r.sequence = Some(next);
                        next = next.wrapping_add(1);
                    }
                }
                if !renumbered.is_empty() {
                    producer.sequenced.insert(tp.clone(), renumbered);
                }
                producer.next_sequence.insert(tp, next);
            }
        }
        let Some(batch) = producer.batches.get(&batch_id) else { return };
        let elapsed = now.ms().saturating_sub(batch.created_at.ms());
        let retrying = batch.attempt <= config.retries && elapsed < config.delivery_timeout_ms;
        if !retrying {
            let final_error = if elapsed >= config.delivery_timeout_ms { ProduceError::DeliveryTimeout } else { error };
            self.give_up(producer_name, batch_id, final_error, out);
            return;
        }
        let tp = batch.tp.clone();
        let attempt = u64::from(batch.attempt);
        let ids: Vec<RecordId> = batch.records.iter().map(|r| r.id).collect();
        // KIP-580: exponential backoff with ±20 % jitter (`ExponentialBackoff`).
        let exp = config.retry_backoff_ms.saturating_mul(1u64 << attempt.saturating_sub(1).min(20));
        let base = exp.min(config.retry_backoff_max_ms.max(config.retry_backoff_ms));
        let jitter = base / 5;
        let backoff = base - jitter + u64::from(out.rng.below((2 * jitter).min(u64::from(u32::MAX)) as u32 + 1));
        let Some(producer) = self.producers.get_mut(producer_name) else { return };
        let Some(batch) = producer.batches.get_mut(&batch_id) else { return };
        batch.last_attempt_at = now;
        batch.backoff_until = Some(now.plus_ms(backoff));
        producer.counters.retries += ids.len() as u64;
        let sequence = batch.sequence;
        // `reenqueue`: an idempotent producer's batch goes back in sequence order
        // (`insertInSequenceOrder`), any other at the front of the deque (which is how a
        // retry can overtake nothing but still land after a later batch already sent).
        let dq = producer.deques.entry(tp.clone()).or_default();
        match sequence {
            Some(seq) if config.idempotent() => {
                let batches = &producer.batches;
                let pos = dq.iter().position(|id| batches.get(id).and_then(|b| b.sequence).is_none_or(|s| s > seq)).unwrap_or(dq.len());
                dq.insert(pos, batch_id);
            }
            _ => dq.push_front(batch_id),
        }
        out.emit(EventKind::Produce(ProduceEvent::ProduceFailed {
            producer: self.name_of(producer_name),
            topic: tp.topic.clone(),
            partition: tp.partition,
            records: ids,
            error,
            retrying: true,
        }));
    }

    /// No response within `request.timeout.ms`: `NetworkClient` closes the connection, so
    /// every request in flight to that broker fails, oldest first
    /// (`handleTimedOutRequests`, `InFlightRequests.clearAll`). Kafka's Sender sees a
    /// disconnect; the sandbox reports it as `REQUEST_TIMED_OUT` to say why.
    pub(super) fn produce_timeout(&mut self, producer_name: &str, request: u64, cluster: &Cluster, out: &mut Driver) {
        let Some(producer) = self.producers.get(producer_name) else { return };
        let Some(broker) = producer.requests.get(&request).map(|r| r.broker) else { return };
        let on_connection: Vec<u64> = producer.in_flight.get(&broker).into_iter().flatten().copied().collect();
        for r in on_connection {
            let batches = self.producers.get(producer_name).and_then(|p| p.requests.get(&r)).map(|q| q.batches.clone());
            if !self.finish_request(producer_name, r) {
                continue;
            }
            for batch in batches.unwrap_or_default() {
                self.complete_batch(producer_name, batch, r, Err(ProduceError::RequestTimedOut), out);
            }
        }
        self.run_sender(producer_name, cluster, out);
    }
}

impl Sim {
    /// Applies a scheduled event of the producer and the leader's answer to a Produce request.
    pub(super) fn handle_produce(&mut self, pending: ProducePending) {
        match pending {
            ProducePending::SenderWake { producer } => self.clients.sender_wake(&producer, &self.cluster, &mut self.out),
            ProducePending::ProduceArrive { producer, broker, request, acks, timeout_ms, batches } => {
                self.cluster.produce_arrive(producer, broker, request, acks, timeout_ms, batches, &mut self.consumers, &mut self.out)
            }
            ProducePending::ProduceResponse { producer, request, results, .. } => {
                self.clients.produce_response(&producer, request, results, &self.cluster, &mut self.out);
                // A Streams instance's transaction that became abortable is aborted (`streams_eos.rs`).
                self.handle_streams_producer(&producer);
            }
            ProducePending::ProduceTimeout { producer, request } => {
                self.clients.produce_timeout(&producer, request, &self.cluster, &mut self.out)
            }
            ProducePending::DelayedProduceTimeout { id } => self.cluster.delayed_produce_timeout(id, &mut self.out),
            ProducePending::MaxBlockTimeout { producer, record } => {
                self.clients.max_block_timeout(&producer, record, &self.cluster, &mut self.out)
            }
        }
    }
}

/// Commands to a producer: checked against the cluster, then executed (the one line
/// `Sim::validate` and `Sim::execute` give this feature).
impl Sim {
    pub(super) fn validate_produce_command(&self, command: &ProduceCommand) -> Result<(), CommandError> {
        match command {
            ProduceCommand::Produce { producer, topic, key, value, partition, headers } => {
                let Some(p) = self.clients.producers.get(producer) else {
                    return Err(CommandError::UnknownProducer(producer.clone()));
                };
                // A transactional producer sends only inside a transaction (`txn/`).
                if let Some(t) = &p.txn {
                    crate::sim::txn::allowed(producer, crate::command::TxnOperation::Send, t.state)?;
                }
                let Some(t) = self.cluster.topics.get(topic) else {
                    return Err(CommandError::UnknownTopic(topic.clone()));
                };
                if let Some(p) = partition {
                    if *p >= t.partition_count() {
                        return Err(CommandError::PartitionOutOfRange {
                            topic: topic.clone(),
                            partition: *p,
                            partitions: t.partition_count(),
                        });
                    }
                }
                check_record_size(key.as_deref(), value.as_deref().unwrap_or(""), headers)
            }
            ProduceCommand::SetAcks { producer, acks } => match self.clients.producers.get(producer) {
                None => Err(CommandError::UnknownProducer(producer.clone())),
                // `ProducerConfig.postProcessAndValidateIdempotenceConfigs`: an explicit
                // `enable.idempotence=true` with acks other than all is a ConfigException.
                Some(p) if p.config.enable_idempotence == Some(true) && *acks != Acks::All => {
                    Err(CommandError::IdempotenceNeedsAcksAll { producer: producer.clone() })
                }
                Some(p) if p.config.transactional() && *acks != Acks::All => {
                    Err(CommandError::Txn(crate::command::TxnRefusal::NeedsIdempotence { producer: producer.clone() }))
                }
                Some(_) => Ok(()),
            },
            ProduceCommand::SetPartitioner { producer, .. } => {
                if self.clients.producers.contains_key(producer) {
                    Ok(())
                } else {
                    Err(CommandError::UnknownProducer(producer.clone()))
                }
            }
        }
    }

    pub(super) fn execute_produce_command(&mut self, command: ProduceCommand) {
        match command {
            ProduceCommand::Produce { producer, topic, key, value, partition, headers } => {
                self.clients.send(&producer, &topic, key, value, partition, headers, &self.cluster, &mut self.out);
            }
            ProduceCommand::SetAcks { producer, acks } => {
                if let Some(p) = self.clients.producers.get_mut(&producer) {
                    p.config.acks = acks;
                    let value = match acks {
                        Acks::Zero => "0",
                        Acks::Leader => "1",
                        Acks::All => "all",
                    };
                    self.out.emit(EventKind::Settings(SettingsEvent::ConfigChanged {
                        entity: producer,
                        setting: "acks".into(),
                        value: value.into(),
                    }));
                }
            }
            ProduceCommand::SetPartitioner { producer, partitioner } => {
                if let Some(p) = self.clients.producers.get_mut(&producer) {
                    p.config.partitioner = partitioner;
                    // A new producer instance: its partitioners start afresh.
                    p.partitioners.clear();
                }
            }
        }
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)] // Tests may unwrap: a panic is a failed test.
mod tests {
    use super::*;
    use crate::cluster::TopicConfig;

    /// Three brokers, topic "t" with `partitions` partitions on all three
    /// (`min.insync.replicas` 2), producer "p" with `config`.
    fn sim(partitions: u32, config: ProducerConfig) -> Sim {
        let mut sim = Sim::new(3, ClusterConfig { brokers: 3, network_latency_ms: 20, ..ClusterConfig::default() });
        sim.add_topic("t", partitions, 3, TopicConfig { min_insync_replicas: 2, ..TopicConfig::default() });
        sim.add_producer("p", config);
        sim.run_to(SimTime(100));
        sim
    }

    fn send(sim: &mut Sim, partition: u32, value: &str) {
        let c = Command::Produce(ProduceCommand::Produce {
            producer: "p".into(),
            topic: "t".into(),
            key: None,
            value: Some(value.into()),
            partition: Some(partition),
            headers: vec![],
        });
        sim.apply(c).unwrap();
    }

    /// The Produce requests on their way to a broker: (broker, partitions it carries).
    fn requests_on_the_wire(sim: &Sim) -> Vec<(BrokerId, Vec<TopicPartition>)> {
        sim.out
            .queue
            .values()
            .filter_map(|p| match p {
                Pending::Produce(ProducePending::ProduceArrive { broker, batches, .. }) => {
                    Some((*broker, batches.iter().map(|b| b.tp.clone()).collect()))
                }
                _ => None,
            })
            .collect()
    }

    fn leader(sim: &Sim, p: u32) -> BrokerId {
        sim.partition(&TopicPartition::new("t", p)).and_then(|p| p.leader()).unwrap()
    }

    #[test]
    fn one_request_per_broker_carries_a_batch_for_each_of_its_partitions() {
        // Six partitions, two led by each broker; one record to each at the same moment.
        let mut sim = sim(6, ProducerConfig::default());
        for p in 0..6 {
            send(&mut sim, p, &format!("v{p}"));
        }
        assert!(requests_on_the_wire(&sim).is_empty(), "linger.ms: nothing leaves before 5 ms");
        sim.run_to(SimTime(105));
        let mut requests = requests_on_the_wire(&sim);
        requests.sort();
        assert_eq!(requests.len(), 3, "one request per broker: {requests:?}");
        for (broker, tps) in &requests {
            assert_eq!(tps.len(), 2, "a batch for each partition broker {broker} leads: {requests:?}");
            assert!(tps.iter().all(|tp| leader(&sim, tp.partition) == *broker));
        }
        let brokers: VecSet<BrokerId> = requests.iter().map(|r| r.0).collect();
        assert_eq!(brokers.len(), 3);
        // Each request is one in-flight request on its connection.
        let p = sim.clients.producers.get("p").unwrap();
        for b in 0..3 {
            assert_eq!(p.in_flight_requests(b), 1);
        }
        sim.run_to(SimTime(1_000));
        let acked = sim.trace().events().filter(|e| matches!(e.kind, EventKind::Produce(ProduceEvent::RecordAcked { .. }))).count();
        assert_eq!(acked, 6, "every partition's answer comes back in its broker's one response");
    }

    #[test]
    fn a_request_takes_at_most_one_batch_per_partition() {
        // Records of about 1 KiB with batch.size 4 KiB: a batch holds 3. Nine batches
        // per partition pile up behind one request; each drain takes the first of each.
        let config =
            ProducerConfig { linger_ms: 0, batch_size: 4096, max_in_flight_requests_per_connection: 1, ..ProducerConfig::default() };
        let mut sim = sim(3, config);
        let big = "x".repeat(1000);
        for _ in 0..27 {
            send(&mut sim, 0, &big);
        }
        let requests = requests_on_the_wire(&sim);
        assert_eq!(requests.len(), 1, "one request in flight (max.in.flight 1)");
        let p = sim.clients.producers.get("p").unwrap();
        let waiting = p.deques.get(&TopicPartition::new("t", 0)).unwrap();
        assert_eq!(waiting.len(), 9, "26 records wait in 9 batches of at most 3");
        assert!(waiting.iter().all(|id| p.batches[id].bytes <= 4096));
        // Drain: when the response frees the connection, one batch (not nine) goes.
        sim.run_to(SimTime(300));
        let sizes: Vec<usize> = sim
            .trace()
            .events()
            .filter_map(|e| match &e.kind {
                EventKind::Produce(ProduceEvent::BatchSent { records, .. }) => Some(records.len()),
                _ => None,
            })
            .collect();
        assert_eq!(sizes[0], 1);
        assert!(sizes[1..].iter().all(|n| *n == 3), "one full batch per request: {sizes:?}");
    }

    #[test]
    fn the_drain_stops_at_max_request_size() {
        // 300 partitions on one broker, a batch of about 16 KB each: about 4.8 MB, more
        // than one request's 1 MiB.
        let mut sim = Sim::new(3, ClusterConfig { brokers: 1, network_latency_ms: 20, ..ClusterConfig::default() });
        sim.add_topic("t", 300, 1, TopicConfig::default());
        sim.add_producer("p", ProducerConfig::default());
        sim.run_to(SimTime(100));
        let big = "x".repeat(1000);
        for p in 0..300 {
            for _ in 0..16 {
                send(&mut sim, p, &big);
            }
        }
        sim.run_to(SimTime(105));
        let requests = requests_on_the_wire(&sim);
        let per_request: Vec<usize> = requests.iter().map(|r| r.1.len()).collect();
        let batch_bytes = 61 + 16 * record_size_in_bytes(None, Some(big.as_bytes()), &[]) as usize;
        let most = MAX_REQUEST_SIZE as usize / batch_bytes;
        assert!(per_request.len() >= 2, "{per_request:?}");
        assert!(per_request.iter().all(|n| *n <= most), "{per_request:?} (at most {most} batches of {batch_bytes} bytes)");
        assert_eq!(per_request.iter().sum::<usize>(), 300, "every partition's batch goes, in several requests");
    }

    // ----- the producer's handlers alone: `Clients`, a `Cluster` to read, a `Driver` -----

    use crate::sim::driver::Effect;

    /// Topic "t" (2 partitions, RF 3) on three brokers; producer "p" with `linger.ms` 0.
    fn clients() -> (Clients, Cluster, Driver) {
        let mut out = Driver::new(3, 20);
        let mut cluster = Cluster::new(ClusterConfig::default());
        cluster.add_topic("t", 2, 3, TopicConfig::default(), &mut out);
        let mut clients = Clients::new();
        clients.producers.insert("p".into(), Producer::new("p", ProducerConfig { linger_ms: 0, ..ProducerConfig::default() }));
        (clients, cluster, Driver::new(3, 20))
    }

    #[test]
    fn with_linger_zero_a_record_leaves_at_once_in_a_produce_request_to_its_leader() {
        let (mut clients, cluster, mut out) = clients();
        let id = clients.send("p", "t", None, Some("m1".into()), Some(1), vec![], &cluster, &mut out);
        assert_eq!(id, Some(RecordId(1)));
        let leader = cluster.partition(&TopicPartition::new("t", 1)).and_then(|p| p.leader).unwrap();
        let arrive = out.effects().iter().find_map(|e| match e {
            Effect::At { at, pending: Pending::Produce(ProducePending::ProduceArrive { broker, acks, timeout_ms, batches, .. }) } => {
                Some((*at, *broker, *acks, *timeout_ms, batches.iter().map(|b| (b.tp.partition, b.records.len())).collect::<Vec<_>>()))
            }
            _ => None,
        });
        assert_eq!(arrive, Some((SimTime(20), leader, Acks::All, 30_000, vec![(1, 1)])), "{:?}", out.effects());
        assert!(matches!(
            out.effects().first(),
            Some(Effect::Emit(EventKind::Produce(ProduceEvent::RecordSent { partition: 1, reason: PartitionReason::Explicit, .. })))
        ));
        assert_eq!(clients.send("p", "nope", None, Some("m2".into()), None, vec![], &cluster, &mut out), None, "an unknown topic");
    }

    #[test]
    fn a_closed_connection_fails_each_request_in_flight_on_it_one_hop_later() {
        let (mut clients, cluster, mut out) = clients();
        clients.send("p", "t", None, Some("m1".into()), Some(1), vec![], &cluster, &mut out);
        let leader = cluster.partition(&TopicPartition::new("t", 1)).and_then(|p| p.leader).unwrap();
        let other = (0..3).find(|b| *b != leader).unwrap();
        let mut out = Driver::new(3, 20);
        clients.connections_closed(other, &mut out);
        assert!(out.effects().is_empty(), "nothing was in flight to broker {other}");
        clients.connections_closed(leader, &mut out);
        let [Effect::At { at, pending: Pending::Produce(ProducePending::ProduceResponse { broker, results, .. }) }] = out.effects() else {
            panic!("{:?}", out.effects())
        };
        assert_eq!((*at, *broker), (SimTime(20), leader));
        assert!(matches!(results.as_slice(), [(_, tp, Err(ProduceError::NetworkException))] if tp.partition == 1));
    }
}
