//! Producer side: `send()`, batching with `linger.ms`, Produce requests and responses.

use super::*;

impl Sim {
    /// `KafkaProducer.send()`: choose the partition, add the record to that partition's
    /// batch, and start `linger.ms` for a new batch.
    pub(super) fn send(
        &mut self,
        producer_name: &str,
        topic: &str,
        key: Option<String>,
        value: String,
        partition: Option<u32>,
        headers: Vec<crate::record::Header>,
    ) {
        let Some(partitions) = self.topics.get(topic).map(Topic::partition_count) else { return };
        // Round-robin and sticky choices skip partitions without a leader
        // (`Cluster.availablePartitionsForTopic`); key hashing counts them all.
        let available: Vec<u32> = self.topics.get(topic).map(Topic::available_partitions).unwrap_or_default();
        let Some(producer) = self.producers.get_mut(producer_name) else { return };
        let state = producer.partitioners.entry(topic.to_string()).or_insert_with(PartitionerState::default);
        let chosen = state.choose(
            producer.config.partitioner,
            &mut self.rng,
            partition,
            key.as_deref().map(str::as_bytes),
            partitions,
            &available,
        );
        let (p, reason) = match chosen {
            Ok(c) => c,
            Err(e) => {
                self.record(EventKind::CommandRejected { reason: e.to_string() });
                return;
            }
        };
        let header_bytes: Vec<(String, Vec<u8>)> =
            headers.iter().map(|h| (h.key.clone(), h.value.clone().into_bytes())).collect();
        let size_bytes = record_size_in_bytes(key.as_deref().map(str::as_bytes), Some(value.as_bytes()), &header_bytes);
        let id = RecordId(self.next_record);
        self.next_record += 1;
        let record = Record {
            id,
            producer: producer_name.to_string(),
            key: key.clone(),
            value: value.clone(),
            headers,
            create_time: self.now,
            size_bytes,
            sequence: None,
        };
        let tp = TopicPartition::new(topic, p);
        let batch_size = producer.config.batch_size;
        let linger_ms = producer.config.linger_ms;
        let mut new_batch_id = None;
        let batch = producer.open.entry(tp.clone()).or_insert_with(|| {
            let id = self.next_batch;
            self.next_batch += 1;
            new_batch_id = Some(id);
            OpenBatch { id, records: Vec::new(), bytes: RECORD_BATCH_OVERHEAD }
        });
        batch.records.push(record);
        batch.bytes = batch.bytes.saturating_add(size_bytes);
        let full = batch.bytes >= batch_size;
        if matches!(reason, PartitionReason::Sticky) {
            // `appendedBytes` is how much the batch grew: a new batch adds its header too.
            let appended = size_bytes + if new_batch_id.is_some() { RECORD_BATCH_OVERHEAD } else { 0 };
            let enable_switch = full || new_batch_id.is_some();
            if let Some(state) = producer.partitioners.get_mut(topic) {
                state.on_sticky_append(&mut self.rng, appended, batch_size, enable_switch, &available);
            }
        }
        producer.remember(SentRecord {
            record: id,
            key: key.clone(),
            value: value.clone(),
            topic: topic.to_string(),
            partition: p,
            reason: reason.clone(),
            sent_at: self.now,
            acked_offset: None,
            failed: None,
        });
        self.record(EventKind::RecordSent {
            record: id,
            producer: producer_name.to_string(),
            topic: topic.to_string(),
            partition: p,
            key,
            value,
            reason,
        });
        if full {
            self.send_batch(producer_name, &tp);
        } else if let Some(batch) = new_batch_id {
            let at = self.now.plus_ms(linger_ms);
            self.schedule(at, Pending::Linger { producer: producer_name.to_string(), tp, batch });
        }
    }

    /// The sender thread takes a closed batch: it gets the next sequence numbers of its
    /// partition (idempotent producer) and is sent as soon as a connection slot is free.
    pub(super) fn send_batch(&mut self, producer_name: &str, tp: &TopicPartition) {
        let now = self.now;
        let Some(producer) = self.producers.get_mut(producer_name) else { return };
        let Some(batch) = producer.open.remove(tp) else { return };
        let mut batch = batch;
        let sequence = if producer.config.idempotent() {
            let next = producer.next_sequence.entry(tp.clone()).or_insert(0);
            let base = *next;
            *next = next.wrapping_add(batch.records.len() as u32);
            for (i, r) in batch.records.iter_mut().enumerate() {
                r.sequence = Some(base.wrapping_add(i as u32));
            }
            Some(base)
        } else {
            None
        };
        producer.batches.insert(
            batch.id,
            InFlightBatch {
                id: batch.id,
                tp: tp.clone(),
                records: batch.records,
                sequence,
                attempt: 0,
                first_sent_at: now,
                in_flight: false,
                waiting_for_leader: false,
                broker: None,
            },
        );
        producer.queue.push_back(batch.id);
        self.dispatch_queued(producer_name);
    }

    /// Sends queued batches while fewer than `max.in.flight.requests.per.connection`
    /// requests are outstanding.
    pub(super) fn dispatch_queued(&mut self, producer_name: &str) {
        loop {
            let Some(producer) = self.producers.get_mut(producer_name) else { return };
            let outstanding = producer.batches.values().filter(|b| b.in_flight).count() as u32;
            if outstanding >= producer.config.max_in_flight_requests_per_connection.max(1) {
                return;
            }
            let Some(id) = producer.queue.pop_front() else { return };
            self.transmit(producer_name, id);
        }
    }

    /// Puts one batch on the wire to the partition's leader, or fails it for lack of one.
    fn transmit(&mut self, producer_name: &str, batch_id: u64) {
        let now = self.now;
        let latency = self.latency();
        let Some(producer) = self.producers.get(producer_name) else { return };
        let Some(batch) = producer.batches.get(&batch_id) else { return };
        let tp = batch.tp.clone();
        let acks = producer.config.acks;
        let request_timeout = producer.config.request_timeout_ms;
        // Metadata: the producer asks for the current leader (a refresh is modelled as
        // instant; in Kafka it is one more round trip).
        let leader = self.partition(&tp).and_then(|p| p.leader);
        let Some(leader) = leader else {
            // No leader: the batch waits in the accumulator and metadata is refreshed after
            // `retry.backoff.ms`; this is not a send attempt. The trace says it once.
            let now = self.now;
            let Some(producer) = self.producers.get_mut(producer_name) else { return };
            let config = producer.config.clone();
            let Some(batch) = producer.batches.get_mut(&batch_id) else { return };
            let first = !batch.waiting_for_leader;
            batch.waiting_for_leader = true;
            let expired = now.ms().saturating_sub(batch.first_sent_at.ms()) >= config.delivery_timeout_ms;
            if expired {
                self.produce_failed(producer_name, batch_id, ProduceError::DeliveryTimeout);
                return;
            }
            if first {
                let ids: Vec<RecordId> = batch.records.iter().map(|r| r.id).collect();
                self.record(EventKind::ProduceFailed {
                    producer: producer_name.to_string(),
                    topic: tp.topic.clone(),
                    partition: tp.partition,
                    records: ids,
                    error: ProduceError::LeaderNotAvailable,
                    retrying: true,
                });
            }
            let at = now.plus_ms(config.retry_backoff_ms.max(1));
            self.schedule(at, Pending::ProduceRetry { producer: producer_name.to_string(), batch: batch_id });
            return;
        };
        let Some(producer) = self.producers.get_mut(producer_name) else { return };
        let Some(batch) = producer.batches.get_mut(&batch_id) else { return };
        batch.attempt += 1;
        batch.in_flight = true;
        batch.broker = Some(leader);
        batch.waiting_for_leader = false;
        let attempt = batch.attempt;
        let records = batch.records.clone();
        let sequence = batch.sequence;
        let ids: Vec<RecordId> = records.iter().map(|r| r.id).collect();
        let values: Vec<String> = records.iter().map(|r| r.value.clone()).collect();
        if attempt == 1 {
            self.record(EventKind::BatchSent {
                producer: producer_name.to_string(),
                topic: tp.topic.clone(),
                partition: tp.partition,
                records: ids.clone(),
            });
        }
        if acks == Acks::None {
            // acks=0: the callback completes as soon as the request is written, offset -1.
            if let Some(p) = self.producers.get_mut(producer_name) {
                p.batches.remove(&batch_id);
                for id in &ids {
                    p.mark_acked(*id, -1);
                }
            }
            for (id, value) in ids.into_iter().zip(values) {
                self.record(EventKind::RecordAcked {
                    record: id,
                    value,
                    producer: producer_name.to_string(),
                    topic: tp.topic.clone(),
                    partition: tp.partition,
                    offset: -1,
                    timestamp: now,
                    acks,
                });
            }
        } else {
            self.schedule(
                now.plus_ms(request_timeout),
                Pending::ProduceTimeout { producer: producer_name.to_string(), batch: batch_id, attempt },
            );
        }
        self.schedule(
            now.plus_ms(latency),
            Pending::ProduceArrive {
                producer: producer_name.to_string(),
                broker: leader,
                batch: batch_id,
                attempt,
                tp,
                records,
                acks,
                sequence,
            },
        );
        if acks == Acks::None {
            self.dispatch_queued(producer_name);
        }
    }

    /// The broker handles a Produce request (`ReplicaManager.appendRecords`).
    #[allow(clippy::too_many_arguments)]
    pub(super) fn produce_arrive(
        &mut self,
        producer: String,
        broker: BrokerId,
        batch: u64,
        attempt: u32,
        tp: TopicPartition,
        records: Vec<Record>,
        acks: Acks,
        sequence: Option<u32>,
    ) {
        if !self.brokers.get(&broker).is_some_and(|b| b.alive) {
            // The process is gone: the connection is refused and the producer hears of
            // it one hop later (a disconnect, retried after a metadata refresh).
            if acks != Acks::None {
                let at = self.now.plus_ms(self.latency());
                let result = Err(ProduceError::NetworkException);
                self.schedule(at, Pending::ProduceResponse { producer, broker, batch, attempt, tp, result });
            }
            return;
        }
        if !self.reachable(broker) {
            return; // Lost on the wire: the producer's request.timeout.ms will notice.
        }
        let now = self.now;
        let reply = |sim: &mut Sim, result: Result<Vec<(RecordId, String, u64, SimTime)>, ProduceError>| {
            if acks != Acks::None {
                let at = sim.now.plus_ms(sim.latency());
                sim.schedule(at, Pending::ProduceResponse { producer: producer.clone(), broker, batch, attempt, tp: tp.clone(), result });
            }
        };
        let Some(topic) = self.topics.get(&tp.topic) else { return };
        let min_isr = topic.config.min_insync_replicas;
        let timestamp_type = topic.config.message_timestamp_type;
        let Some(part) = topic.partitions.get(tp.partition as usize) else { return };
        if part.leader != Some(broker) || self.brokers.get(&broker).is_none_or(|b| b.fenced) {
            reply(self, Err(ProduceError::NotLeaderOrFollower));
            return;
        }
        // `Partition.appendRecordsToLeader` checks min.insync.replicas first.
        if acks == Acks::All && (part.isr.len() as u32) < min_isr {
            reply(self, Err(ProduceError::NotEnoughReplicas));
            return;
        }
        // Idempotence (KIP-98): the leader knows each producer's last sequence from its
        // own log; a retried batch it already has is answered with its first offsets, a
        // batch that skips ahead is refused until the earlier one arrives.
        if let Some(seq) = sequence {
            let log = part.logs.get(&broker);
            // Newest first: this producer's records back to the first one older than the
            // batch (usually just its last record), within the scan bound.
            let mut mine: Vec<&StoredRecord> = Vec::new();
            if let Some(l) = log {
                for r in l.records().iter().rev().take(PRODUCER_STATE_SCAN) {
                    if r.record.producer != producer {
                        continue;
                    }
                    let older = r.record.sequence.is_some_and(|s| s < seq);
                    mine.push(r);
                    if older {
                        break;
                    }
                }
            }
            if mine.is_empty() && seq != 0 {
                reply(self, Err(ProduceError::UnknownProducerId));
                return;
            }
            if let Some(last) = mine.first().and_then(|r| r.record.sequence) {
                let n = records.len() as u32;
                let wanted: Vec<u32> = (0..n).map(|i| seq.wrapping_add(i)).collect();
                let already: Vec<(RecordId, String, u64, SimTime)> = mine
                    .iter()
                    .rev()
                    .filter(|r| r.record.sequence.is_some_and(|s| wanted.contains(&s)))
                    .map(|r| (r.record.id, r.record.value.clone(), r.offset, r.timestamp))
                    .collect();
                if !already.is_empty() {
                    let required = already.iter().map(|a| a.2 + 1).max().unwrap_or(0);
                    let hw = part.logs.get(&broker).map(|l| l.high_watermark()).unwrap_or(0);
                    self.record(EventKind::DuplicateIgnored {
                        producer: producer.clone(),
                        topic: tp.topic.clone(),
                        partition: tp.partition,
                        records: already.iter().map(|o| o.0).collect(),
                    });
                    // The original's offsets go back — under acks=all only once they are
                    // committed, like any write (`DelayedProduce` on the duplicate's end).
                    if acks == Acks::All && hw < required {
                        self.delay_produce(producer.clone(), broker, batch, attempt, tp.clone(), required, already);
                    } else {
                        reply(self, Ok(already));
                    }
                    return;
                }
                if seq != last.wrapping_add(1) {
                    reply(self, Err(ProduceError::OutOfOrderSequenceNumber));
                    return;
                }
            }
        }
        let epoch = part.leader_epoch;
        let Some(log) = self.partition_mut(&tp).and_then(|p| p.logs.get_mut(&broker)) else { return };
        let mut acked = Vec::with_capacity(records.len());
        let mut appended = Vec::with_capacity(records.len());
        for record in records {
            let stored = log.append(record, now, timestamp_type, epoch);
            acked.push((stored.record.id, stored.record.value.clone(), stored.offset, stored.timestamp));
            appended.push(EventKind::RecordAppended {
                record: stored.record.id,
                value: stored.record.value.clone(),
                topic: tp.topic.clone(),
                partition: tp.partition,
                offset: stored.offset,
                timestamp: stored.timestamp,
                broker,
                leader_epoch: epoch,
            });
        }
        let end_offset = log.log_end_offset();
        for kind in appended {
            self.record(kind);
        }
        self.wake_replica_fetches(&tp);
        self.maybe_advance_hw(&tp);
        match acks {
            Acks::None => {}
            Acks::Leader => reply(self, Ok(acked)),
            Acks::All => self.delay_produce(producer.clone(), broker, batch, attempt, tp.clone(), end_offset, acked),
        }
    }

    /// `DelayedProduce`: an acks=all write waits until every in-sync replica has it.
    #[allow(clippy::too_many_arguments)]
    fn delay_produce(
        &mut self,
        producer: String,
        broker: BrokerId,
        batch: u64,
        attempt: u32,
        tp: TopicPartition,
        required_offset: u64,
        acked: Vec<(RecordId, String, u64, SimTime)>,
    ) {
        let id = self.next_delayed;
        self.next_delayed += 1;
        let timeout = self.producers.get(&producer).map(|p| p.config.request_timeout_ms).unwrap_or(30_000);
        self.delayed_produces.push(DelayedProduce { id, producer, broker, batch, attempt, tp: tp.clone(), required_offset, acked });
        let at = self.now.plus_ms(timeout);
        self.schedule(at, Pending::DelayedProduceTimeout { id });
        self.complete_delayed_produces(&tp);
    }

    /// The producer reads a Produce response.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn produce_response(
        &mut self,
        producer_name: &str,
        batch_id: u64,
        attempt: u32,
        tp: &TopicPartition,
        result: Result<Vec<(RecordId, String, u64, SimTime)>, ProduceError>,
    ) {
        let Some(producer) = self.producers.get_mut(producer_name) else { return };
        let current = producer.batches.get(&batch_id).is_some_and(|b| b.attempt == attempt && b.in_flight);
        if !current {
            return; // A response to an attempt the producer already gave up on.
        }
        let acks = producer.config.acks;
        match result {
            Ok(acked) => {
                producer.batches.remove(&batch_id);
                for (record, _, offset, _) in &acked {
                    producer.mark_acked(*record, *offset as i64);
                }
                for (record, value, offset, timestamp) in acked {
                    self.record(EventKind::RecordAcked {
                        record,
                        value,
                        producer: producer_name.to_string(),
                        topic: tp.topic.clone(),
                        partition: tp.partition,
                        offset: offset as i64,
                        timestamp,
                        acks,
                    });
                }
                self.dispatch_queued(producer_name);
            }
            Err(error) => self.produce_failed(producer_name, batch_id, error),
        }
    }

    /// A request failed (or timed out): retry after `retry.backoff.ms` while retries and
    /// `delivery.timeout.ms` allow, else give the records up (`Sender.completeBatch`).
    pub(super) fn produce_failed(&mut self, producer_name: &str, batch_id: u64, error: ProduceError) {
        let now = self.now;
        let Some(producer) = self.producers.get_mut(producer_name) else { return };
        let config = producer.config.clone();
        if error == ProduceError::UnknownProducerId {
            // KIP-360: bump the epoch and number this partition's unfinished batches
            // again from 0, in the order they were created.
            if let Some(tp) = producer.batches.get(&batch_id).map(|b| b.tp.clone()) {
                let mut next = 0u32;
                for b in producer.batches.values_mut().filter(|b| b.tp == tp) {
                    b.sequence = Some(next);
                    for r in &mut b.records {
                        r.sequence = Some(next);
                        next = next.wrapping_add(1);
                    }
                }
                producer.next_sequence.insert(tp, next);
            }
        }
        let Some(batch) = producer.batches.get_mut(&batch_id) else { return };
        batch.in_flight = false;
        let elapsed = now.ms().saturating_sub(batch.first_sent_at.ms());
        let retrying = batch.attempt <= config.retries && elapsed + config.retry_backoff_ms < config.delivery_timeout_ms;
        let tp = batch.tp.clone();
        let attempt = u64::from(batch.attempt);
        let ids: Vec<RecordId> = batch.records.iter().map(|r| r.id).collect();
        let final_error = if retrying { error } else if elapsed + config.retry_backoff_ms >= config.delivery_timeout_ms { ProduceError::DeliveryTimeout } else { error };
        if retrying {
        } else {
            producer.batches.remove(&batch_id);
            for id in &ids {
                producer.mark_failed(*id, final_error);
            }
        }
        self.record(EventKind::ProduceFailed {
            producer: producer_name.to_string(),
            topic: tp.topic.clone(),
            partition: tp.partition,
            records: ids,
            error: final_error,
            retrying,
        });
        if retrying {
            // KIP-580: exponential backoff with ±20 % jitter (`ExponentialBackoff`).
            let exp = config.retry_backoff_ms.saturating_mul(1u64 << attempt.saturating_sub(1).min(20));
            let base = exp.min(config.retry_backoff_max_ms.max(config.retry_backoff_ms));
            let jitter = base / 5;
            let backoff = base - jitter + u64::from(self.rng.below((2 * jitter).min(u64::from(u32::MAX)) as u32 + 1));
            self.schedule(now.plus_ms(backoff), Pending::ProduceRetry { producer: producer_name.to_string(), batch: batch_id });
        }
        self.dispatch_queued(producer_name);
    }

    /// After the backoff the batch goes back to the front of the queue.
    pub(super) fn produce_retry(&mut self, producer_name: &str, batch_id: u64) {
        let Some(producer) = self.producers.get_mut(producer_name) else { return };
        let Some(batch) = producer.batches.get_mut(&batch_id) else { return };
        if batch.in_flight {
            return;
        }
        // Retried batches go first, oldest first, so an idempotent producer keeps order.
        let pos = producer.queue.iter().position(|q| *q > batch_id).unwrap_or(producer.queue.len());
        producer.queue.insert(pos, batch_id);
        self.dispatch_queued(producer_name);
    }

    /// No response within `request.timeout.ms`.
    pub(super) fn produce_timeout(&mut self, producer_name: &str, batch_id: u64, attempt: u32) {
        let waiting = self
            .producers
            .get(producer_name)
            .and_then(|p| p.batches.get(&batch_id))
            .is_some_and(|b| b.attempt == attempt && b.in_flight);
        if waiting {
            self.produce_failed(producer_name, batch_id, ProduceError::RequestTimedOut);
        }
    }
}
