//! A partition leader's part in transactions: the implicit add of a partition to a
//! transaction before a transactional batch's first append (transaction version 2,
//! KIP-890: `ReplicaManager.appendRecords` → `AddPartitionsToTxnManager`), the epoch check
//! (`ProducerAppendInfo.checkProducerEpoch`: INVALID_PRODUCER_EPOCH), and
//! WriteTxnMarkers: a marker appended at the log end and answered once the HW passes it
//! (markers are written with acks=all, `ReplicaManager.appendRecords(requiredAcks = -1)`).

use super::*;
use crate::record::{Control, TxnTag};
use crate::sim::produce::WireBatch;
use crate::sim::txn::{AfterAdd, TxnPending};
use crate::txn::TxnPartition;

/// How long a leader waits for a marker's HW before it answers the coordinator with an
/// error (`request.timeout.ms` of the coordinator's WriteTxnMarkers, 30000).
const MARKER_TIMEOUT_MS: u64 = 30_000;

/// `add.partitions.to.txn.retry.backoff.ms` (20): a leader's verification that got
/// CONCURRENT_TRANSACTIONS asks again after this (KAFKA-5477, KIP-890).
pub(in crate::sim) const ADD_PARTITIONS_RETRY_BACKOFF_MS: u64 = 20;

/// A marker appended and not yet below the HW.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(in crate::sim) struct HeldMarker {
    id: RecordId,
    tp: TopicPartition,
    broker: BrokerId,
    offset: u64,
    transactional_id: String,
    epoch: u16,
}

/// What leaders keep for transactions: the markers waiting for their HW, and the ids
/// markers get (a range no producer reaches, `record::MARKER_ID_BASE`).
#[derive(Clone, Debug, Default)]
pub(in crate::sim) struct LeaderTxns {
    held: Vec<HeldMarker>,
    next_marker: u64,
}

impl Cluster {
    /// Before a Produce request's appends: each transactional batch is checked against the
    /// leader's producer state. A batch of an older epoch than the log has seen fails with
    /// INVALID_PRODUCER_EPOCH; a batch whose producer has no transaction open in the
    /// partition must first be added to the transaction by its coordinator (KIP-890's
    /// verification, implicit in transaction version 2): the request waits for that answer
    /// (`None`), then comes back through `produce_arrive`. Otherwise the batches go on.
    pub(in crate::sim) fn txn_verify(
        &mut self,
        producer: &str,
        broker: BrokerId,
        request: u64,
        acks: Acks,
        timeout_ms: u64,
        mut batches: Vec<WireBatch>,
        out: &mut Driver,
    ) -> Option<Vec<WireBatch>> {
        let mut unverified: Vec<TxnPartition> = Vec::new();
        let mut who: Option<(String, TxnTag)> = None;
        for b in batches.iter_mut() {
            let (Some(tag), Some(id)) = (b.records.first().and_then(|r| r.txn), b.transactional_id.clone()) else { continue };
            if b.txn_error.is_some() {
                continue;
            }
            let Some(log) = self.partition(&b.tp).filter(|p| p.leader == Some(broker)).and_then(|p| p.logs.get(&broker)) else {
                continue; // append_partition answers NOT_LEADER_OR_FOLLOWER.
            };
            let states = log.producer_states();
            if states.epoch_of(tag.producer_id).is_some_and(|e| e > tag.producer_epoch) {
                b.txn_error = Some(ProduceError::InvalidProducerEpoch);
            } else if !b.txn_verified && !states.has_open_transaction(tag.producer_id) {
                unverified.push(TxnPartition::Topic { tp: b.tp.clone() });
                who = Some((id, tag));
            }
        }
        let Some((transactional_id, tag)) = who else { return Some(batches) };
        let Some(_) = self.txn_coordinator_of(&transactional_id) else {
            // `AddPartitionsToTxnManager`: no coordinator → COORDINATOR_NOT_AVAILABLE,
            // which the leader answers as NOT_ENOUGH_REPLICAS (retriable) for old and new
            // clients alike.
            for b in batches.iter_mut().filter(|b| unverified.contains(&TxnPartition::Topic { tp: b.tp.clone() })) {
                b.txn_error = Some(ProduceError::NotEnoughReplicas);
            }
            return Some(batches);
        };
        let at = out.now.plus_ms(out.latency());
        let then = AfterAdd::Produce { producer: producer.into(), broker, request, acks, timeout_ms, batches };
        out.at(at, TxnPending::AddPartitionsArrive { transactional_id, tag, partitions: unverified, then: Box::new(then) });
        None
    }

    /// The coordinator's answer to a leader's verification: the batches it covered are
    /// verified, or carry the error the producer gets (PRODUCER_FENCED answered as
    /// INVALID_PRODUCER_EPOCH, `AddPartitionsToTxnManager`); CONCURRENT_TRANSACTIONS (the
    /// previous transaction's markers are still going out) is asked again after 20 ms.
    /// Then the request goes on as if it had just arrived.
    pub(in crate::sim) fn txn_verified(
        &mut self,
        result: Result<(), crate::event::TxnError>,
        then: AfterAdd,
        transactional_id: String,
        tag: TxnTag,
        partitions: Vec<TxnPartition>,
        consumers: &mut Consumers,
        out: &mut Driver,
    ) {
        use crate::event::TxnError as E;
        let AfterAdd::Produce { producer, broker, request, acks, timeout_ms, mut batches } = then else { return };
        if result == Err(E::ConcurrentTransactions) {
            let at = out.now.plus_ms(ADD_PARTITIONS_RETRY_BACKOFF_MS + out.latency());
            let then = AfterAdd::Produce { producer, broker, request, acks, timeout_ms, batches };
            out.at(at, TxnPending::AddPartitionsArrive { transactional_id, tag, partitions, then: Box::new(then) });
            return;
        }
        for b in batches.iter_mut().filter(|b| partitions.contains(&TxnPartition::Topic { tp: b.tp.clone() })) {
            match result {
                Ok(()) => b.txn_verified = true,
                Err(E::ProducerFenced | E::InvalidProducerEpoch) => b.txn_error = Some(ProduceError::InvalidProducerEpoch),
                Err(E::CoordinatorNotAvailable) => b.txn_error = Some(ProduceError::NotEnoughReplicas),
                Err(_) => b.txn_error = Some(ProduceError::TransactionAbortable),
            }
        }
        self.produce_arrive(producer, broker, request, acks, timeout_ms, batches, consumers, out);
    }

    /// WriteTxnMarkers at a partition's leader: the marker is appended at the log end as a
    /// control record of its own batch, carrying the producer id and the epoch the
    /// coordinator gave; the coordinator hears back once the HW passes it. Refused (and
    /// retried by the coordinator) when the broker no longer leads the partition or its ISR
    /// is below `min.insync.replicas`.
    pub(in crate::sim) fn txn_marker_arrive(
        &mut self,
        tp: &TopicPartition,
        broker: BrokerId,
        transactional_id: String,
        tag: TxnTag,
        control: Control,
        consumers: &mut Consumers,
        out: &mut Driver,
    ) {
        if !self.reachable(broker) {
            return; // Lost: the coordinator times out and sends it again.
        }
        let now = out.now;
        let at = now.plus_ms(out.latency());
        let fail = |out: &mut Driver, transactional_id: String| {
            out.at(
                at,
                TxnPending::MarkerResponse {
                    transactional_id,
                    partition: TxnPartition::Topic { tp: tp.clone() },
                    ok: false,
                    epoch: tag.producer_epoch,
                },
            );
        };
        let Some(topic) = self.topics.get(tp.topic.as_str()) else { return fail(out, transactional_id) };
        let min_isr = topic.config.min_insync_replicas as usize;
        let Some(part) = topic.partitions.get(tp.partition as usize) else { return fail(out, transactional_id) };
        if part.leader != Some(broker) || self.brokers.get(&broker).is_none_or(|b| b.fenced) || part.isr.len() < min_isr {
            return fail(out, transactional_id);
        }
        let epoch = part.leader_epoch;
        let id = RecordId(crate::record::MARKER_ID_BASE + self.txn.next_marker);
        self.txn.next_marker += 1;
        let Some(log) = self.partition_mut(tp).and_then(|p| p.logs.get_mut(&broker)) else { return fail(out, transactional_id) };
        let offset = log.append_marker(id, tag, control, now, epoch).offset;
        out.emit(EventKind::Txn(crate::event::TxnEvent::MarkerWritten {
            transactional_id: transactional_id.clone(),
            topic: tp.topic.to_string(),
            partition: tp.partition,
            offset,
            kind: control.kind,
            producer_id: tag.producer_id,
            epoch: tag.producer_epoch,
            broker,
        }));
        self.txn.held.push(HeldMarker { id, tp: tp.clone(), broker, offset, transactional_id, epoch: tag.producer_epoch });
        out.at(now.plus_ms(MARKER_TIMEOUT_MS), TxnPending::MarkerTimeout { id });
        self.wake_replica_fetches(tp, out);
        self.maybe_advance_hw(tp, consumers, out);
        self.complete_txn_markers(tp, out);
    }

    /// The markers held on `tp` whose HW has passed them are answered OK; those whose
    /// leader moved, or that are no longer in its log, are answered with an error (the
    /// coordinator sends them again to the new leader). Called wherever the leader's
    /// acks=all writes are settled.
    pub(in crate::sim) fn complete_txn_markers(&mut self, tp: &TopicPartition, out: &mut Driver) {
        if self.txn.held.is_empty() {
            return;
        }
        let held = std::mem::take(&mut self.txn.held);
        let part = self.topics.get(tp.topic.as_str()).and_then(|t| t.partitions.get(tp.partition as usize));
        let leader = part.and_then(|p| p.leader);
        let log = part.and_then(|p| p.leader_log());
        let hw = log.map(|l| l.high_watermark()).unwrap_or(0);
        let mut answers = Vec::new();
        let mut keep = Vec::new();
        for m in held {
            if &m.tp != tp {
                keep.push(m);
                continue;
            }
            let present = log.and_then(|l| l.get(m.offset)).is_some_and(|r| r.record.id == m.id);
            if leader != Some(m.broker) || !present {
                answers.push((m, false));
            } else if hw > m.offset {
                answers.push((m, true));
            } else {
                keep.push(m);
            }
        }
        self.txn.held = keep;
        let at = out.now.plus_ms(out.latency());
        for (m, ok) in answers {
            if self.reachable(m.broker) {
                let partition = TxnPartition::Topic { tp: m.tp };
                out.at(at, TxnPending::MarkerResponse { transactional_id: m.transactional_id, partition, ok, epoch: m.epoch });
            }
        }
    }

    /// A held marker's request timed out: it is answered with an error if still held.
    pub(in crate::sim) fn txn_marker_timeout(&mut self, id: RecordId, out: &mut Driver) {
        let Some(i) = self.txn.held.iter().position(|m| m.id == id) else { return };
        let m = self.txn.held.remove(i);
        let at = out.now.plus_ms(out.latency());
        out.at(
            at,
            TxnPending::MarkerResponse {
                transactional_id: m.transactional_id,
                partition: TxnPartition::Topic { tp: m.tp },
                ok: false,
                epoch: m.epoch,
            },
        );
    }
}
