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
        let available: Vec<u32> = (0..partitions).collect();
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

    /// The sender thread drains a batch into a Produce request.
    pub(super) fn send_batch(&mut self, producer_name: &str, tp: &TopicPartition) {
        let Some(producer) = self.producers.get_mut(producer_name) else { return };
        let Some(batch) = producer.open.remove(tp) else { return };
        let acks = producer.config.acks;
        let ids: Vec<RecordId> = batch.records.iter().map(|r| r.id).collect();
        let values: Vec<String> = batch.records.iter().map(|r| r.value.clone()).collect();
        if acks == Acks::None {
            // acks=0: the callback completes as soon as the request is sent, offset -1.
            for id in &ids {
                producer.mark_acked(*id, -1);
            }
        }
        self.record(EventKind::BatchSent {
            producer: producer_name.to_string(),
            topic: tp.topic.clone(),
            partition: tp.partition,
            records: ids.clone(),
        });
        if acks == Acks::None {
            for (id, value) in ids.into_iter().zip(values) {
                self.record(EventKind::RecordAcked {
                    record: id,
                    value,
                    producer: producer_name.to_string(),
                    topic: tp.topic.clone(),
                    partition: tp.partition,
                    offset: -1,
                    timestamp: self.now,
                });
            }
        }
        let at = self.now.plus_ms(self.latency());
        self.schedule(
            at,
            Pending::ProduceArrive { producer: producer_name.to_string(), tp: tp.clone(), records: batch.records, acks },
        );
    }

    /// The leader appends a Produce request's records and answers.
    pub(super) fn produce_arrive(&mut self, producer: String, tp: TopicPartition, records: Vec<Record>, acks: Acks) {
        let now = self.now;
        let Some(topic) = self.topics.get_mut(&tp.topic) else { return };
        let timestamp_type = topic.timestamp_type;
        let Some(log) = topic.partitions.get_mut(tp.partition as usize) else { return };
        let mut acked = Vec::with_capacity(records.len());
        let mut appended = Vec::with_capacity(records.len());
        for record in records {
            let stored = log.append(record, now, timestamp_type);
            acked.push((stored.record.id, stored.record.value.clone(), stored.offset, stored.timestamp));
            appended.push(EventKind::RecordAppended {
                record: stored.record.id,
                value: stored.record.value.clone(),
                topic: tp.topic.clone(),
                partition: tp.partition,
                offset: stored.offset,
                timestamp: stored.timestamp,
            });
        }
        for kind in appended {
            self.record(kind);
        }
        self.wake_parked(&tp);
        if acks != Acks::None {
            let at = self.now.plus_ms(self.latency());
            self.schedule(at, Pending::ProduceResponse { producer, tp, acked });
        }
    }

    // ----- groups ---------------------------------------------------------
}
