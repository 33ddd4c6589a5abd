//! The leader's side of a Produce request (`ReplicaManager.appendRecords`): each partition
//! checked and appended on its own (the idempotent producer's sequence check from the
//! leader's own log, `min.insync.replicas`), one answer for the whole request — under
//! acks=all once every partition is committed (`DelayedProduce`, completed in
//! `replication.rs` as the high watermark moves). The producer's side is `sim/produce.rs`.

use super::*;
use crate::event::ProduceEvent;
use crate::sim::produce::{Acked, PartitionResult, ProducePending, WireBatch};

/// How the leader got on with one partition of a Produce request.
enum PartitionOutcome {
    /// Answered now (an error, acks=1, or acks=0).
    Done(PartitionResult),
    /// acks=all: the answer waits until the HW reaches `required_offset`.
    Wait { required_offset: u64, acked: Vec<Acked> },
}

impl Cluster {
    /// The broker handles a Produce request (`ReplicaManager.appendRecords`): each
    /// partition is checked and appended on its own; the answer covers them all and, under
    /// acks=all, waits until every appended partition is committed (`DelayedProduce`).
    pub(in crate::sim) fn produce_arrive(
        &mut self,
        producer: Name,
        broker: BrokerId,
        request: u64,
        acks: Acks,
        timeout_ms: u64,
        batches: Vec<WireBatch>,
        consumers: &mut Consumers,
        out: &mut Driver,
    ) {
        if !self.brokers.get(&broker).is_some_and(|b| b.alive) {
            // The process is gone: the connection is refused and the producer hears of
            // it one hop later (a disconnect, retried after a metadata refresh).
            if acks != Acks::Zero {
                let at = out.now.plus_ms(out.latency());
                let results = batches.into_iter().map(|b| (b.batch, b.tp, Err(ProduceError::NetworkException))).collect();
                out.at(at, ProducePending::ProduceResponse { producer, broker, request, results });
            }
            return;
        }
        if !self.reachable(broker) {
            return; // Lost on the wire: the producer's request.timeout.ms will notice.
        }
        // Transactions (KIP-890, `txn.rs`): a transactional batch's first append to a
        // partition waits for its coordinator to add the partition to the transaction.
        let Some(batches) = self.txn_verify(&producer, broker, request, acks, timeout_ms, batches, out) else { return };
        let mut parts = Vec::with_capacity(batches.len());
        for b in batches {
            let outcome = self.append_partition(&producer, broker, acks, &b, consumers, out);
            parts.push((b.batch, b.tp, outcome));
        }
        if acks == Acks::Zero {
            return;
        }
        if parts.iter().all(|(_, _, o)| matches!(o, PartitionOutcome::Done(_))) {
            let results = parts
                .into_iter()
                .map(|(batch, tp, o)| match o {
                    PartitionOutcome::Done(r) => (batch, tp, r),
                    PartitionOutcome::Wait { .. } => (batch, tp, Err(ProduceError::RequestTimedOut)),
                })
                .collect();
            let at = out.now.plus_ms(out.latency());
            out.at(at, ProducePending::ProduceResponse { producer, broker, request, results });
            return;
        }
        let id = self.replication.next_delayed;
        self.replication.next_delayed += 1;
        let mut waiting: Vec<TopicPartition> = Vec::new();
        let parts = parts
            .into_iter()
            .map(|(batch, tp, o)| match o {
                PartitionOutcome::Done(r) => DelayedPart { batch, tp, required_offset: 0, acked: Vec::new(), result: Some(r) },
                PartitionOutcome::Wait { required_offset, acked } => {
                    waiting.push(tp.clone());
                    DelayedPart { batch, tp, required_offset, acked, result: None }
                }
            })
            .collect();
        self.replication.delayed_produces.push(DelayedProduce { id, producer, broker, request, parts });
        let at = out.now.plus_ms(timeout_ms);
        out.at(at, ProducePending::DelayedProduceTimeout { id });
        for tp in waiting {
            self.complete_delayed_produces(&tp, out);
        }
    }

    /// One partition of a Produce request at its leader (`Partition.appendRecordsToLeader`
    /// with the producer-state check of `ProducerStateManager`).
    fn append_partition(
        &mut self,
        producer: &str,
        broker: BrokerId,
        acks: Acks,
        b: &WireBatch,
        consumers: &mut Consumers,
        out: &mut Driver,
    ) -> PartitionOutcome {
        use PartitionOutcome::{Done, Wait};
        let now = out.now;
        let tp = &b.tp;
        let Some(topic) = self.topics.get(tp.topic.as_str()) else { return Done(Err(ProduceError::NotLeaderOrFollower)) };
        let min_isr = topic.config.min_insync_replicas;
        let timestamp_type = topic.config.message_timestamp_type;
        let Some(part) = topic.partitions.get(tp.partition as usize) else {
            return Done(Err(ProduceError::NotLeaderOrFollower));
        };
        if part.leader != Some(broker) || self.brokers.get(&broker).is_none_or(|b| b.fenced) {
            return Done(Err(ProduceError::NotLeaderOrFollower));
        }
        // A transactional batch the verification or the epoch check refused (`txn.rs`).
        if let Some(e) = b.txn_error {
            return Done(Err(e));
        }
        // `Partition.appendRecordsToLeader` checks min.insync.replicas first.
        if acks == Acks::All && (part.isr.len() as u32) < min_isr {
            return Done(Err(ProduceError::NotEnoughReplicas));
        }
        // `LogValidator.validateKey`: a compacted topic takes only keyed records.
        if topic.config.cleanup_policy.compact() && b.records.iter().any(|r| r.key.is_none()) {
            return Done(Err(ProduceError::InvalidRecord));
        }
        // Idempotence (KIP-98): the leader knows each producer's last sequence from its
        // own log; a retried batch it already has is answered with its first offsets, a
        // batch that skips ahead is refused until the earlier one arrives.
        if let Some(seq) = b.sequence {
            let log = part.logs.get(&broker);
            // A transactional producer's sequences start again at 0 with each epoch
            // (`ProducerAppendInfo.checkSequence`): only its records of this epoch count.
            let tag = b.records.first().and_then(|r| r.txn);
            // Newest first: this producer's records back to the first one older than the
            // batch (usually just its last record), within the scan bound.
            let mut mine: Vec<&StoredRecord> = Vec::new();
            if let Some(l) = log {
                for r in l.records().iter().rev().take(PRODUCER_STATE_SCAN) {
                    if r.record.producer != producer || r.record.txn != tag {
                        continue;
                    }
                    let older = r.record.sequence.is_some_and(|s| s < seq);
                    mine.push(r);
                    if older {
                        break;
                    }
                }
            }
            // The cleaner may have emptied this producer's last batch: its header keeps the
            // sequence (`RETAIN_EMPTY`), newer than any record of it still here.
            let retained = log
                .and_then(|l| l.retained_batch(producer))
                .filter(|(txn, seq, offset)| *txn == tag && seq.is_some() && mine.first().is_none_or(|r| r.offset < *offset))
                .and_then(|(_, seq, _)| seq);
            if mine.is_empty() && retained.is_none() && seq != 0 {
                return Done(Err(ProduceError::UnknownProducerId));
            }
            if let Some(last) = retained.or_else(|| mine.first().and_then(|r| r.record.sequence)) {
                let n = b.records.len() as u32;
                let wanted: Vec<u32> = (0..n).map(|i| seq.wrapping_add(i)).collect();
                let already: Vec<Acked> = mine
                    .iter()
                    .rev()
                    .filter(|r| r.record.sequence.is_some_and(|s| wanted.contains(&s)))
                    .map(|r| (r.record.id, r.record.value.clone(), r.offset, r.timestamp))
                    .collect();
                if !already.is_empty() {
                    let required = already.iter().map(|a| a.2 + 1).max().unwrap_or(0);
                    let hw = part.logs.get(&broker).map(|l| l.high_watermark()).unwrap_or(0);
                    out.emit(EventKind::Produce(ProduceEvent::DuplicateIgnored {
                        producer: producer.into(),
                        topic: tp.topic.clone(),
                        partition: tp.partition,
                        records: already.iter().map(|o| o.0).collect(),
                    }));
                    // The original's offsets go back — under acks=all only once they are
                    // committed, like any write (`DelayedProduce` on the duplicate's end).
                    if acks == Acks::All && hw < required {
                        return Wait { required_offset: required, acked: already };
                    }
                    return Done(Ok(already));
                }
                if seq != last.wrapping_add(1) {
                    return Done(Err(ProduceError::OutOfOrderSequenceNumber));
                }
            }
        }
        let epoch = part.leader_epoch;
        let Some(log) = self.partition_mut(tp).and_then(|p| p.logs.get_mut(&broker)) else {
            return Done(Err(ProduceError::NotLeaderOrFollower));
        };
        let mut acked = Vec::with_capacity(b.records.len());
        let mut appended = Vec::with_capacity(b.records.len());
        for record in b.records.iter().cloned() {
            let stored = log.append(record, now, timestamp_type, epoch);
            acked.push((stored.record.id, stored.record.value.clone(), stored.offset, stored.timestamp));
            appended.push(EventKind::Produce(ProduceEvent::RecordAppended {
                record: stored.record.id,
                value: stored.record.value.clone(),
                topic: tp.topic.clone(),
                partition: tp.partition,
                offset: stored.offset,
                timestamp: stored.timestamp,
                broker,
                leader_epoch: epoch,
            }));
        }
        let end_offset = log.log_end_offset();
        // A transactional batch: which producer id's transaction its records join (for the
        // exactly-once monitor; before the appends, so it knows them as they come).
        if let (Some(tag), Some(first)) = (b.records.first().and_then(|r| r.txn), acked.first()) {
            out.emit(EventKind::Txn(crate::event::TxnEvent::TxnRecordsAppended {
                topic: tp.topic.to_string(),
                partition: tp.partition,
                producer_id: tag.producer_id,
                epoch: tag.producer_epoch,
                records: acked.iter().map(|a| a.0).collect(),
                first_offset: first.2,
            }));
        }
        for kind in appended {
            out.emit(kind);
        }
        self.wake_replica_fetches(tp, out);
        self.maybe_advance_hw(tp, consumers, out);
        match acks {
            Acks::All => Wait { required_offset: end_offset, acked },
            Acks::Leader | Acks::Zero => Done(Ok(acked)),
        }
    }
}
