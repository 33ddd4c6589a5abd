//! The transactional producer's side (`KafkaProducer` with `transactional.id`,
//! `TransactionManager`, transaction version 2): `initTransactions()` (InitProducerId,
//! retried on CONCURRENT_TRANSACTIONS and while no coordinator answers),
//! `beginTransaction()` (local), sends tagged with the producer id and epoch at drain
//! (`produce.rs`), `sendOffsetsToTransaction()` (TxnOffsetCommit to the group coordinator),
//! `commitTransaction()` (flush, then EndTxn; the answer carries the bumped epoch, and the
//! sequences start again at 0), `abortTransaction()` (unsent batches fail with
//! TRANSACTION_ABORTED, then EndTxn), the error states (abortable: INVALID_PRODUCER_EPOCH,
//! TRANSACTION_ABORTABLE, a failed batch, a refused TxnOffsetCommit; fatal:
//! PRODUCER_FENCED, INVALID_TXN_STATE), and a crash and restart.
//!
//! Handlers of the producers' owner (`Clients`), beside `produce.rs`.

use super::*;
use crate::txn::TxnClient;

impl Clients {
    fn txn_client(&mut self, producer: &str) -> Option<&mut TxnClient> {
        self.producers.get_mut(producer).and_then(|p| p.txn.as_mut())
    }

    /// `initTransactions()` (at the producer's start, and at a restart).
    pub(in crate::sim) fn txn_init(&mut self, producer: &str, cluster: &Cluster, out: &mut Driver) {
        let Some(t) = self.txn_client(producer) else { return };
        t.state = ClientTxnState::Initializing;
        self.send_init_pid(producer, cluster, out);
    }

    fn send_init_pid(&mut self, producer: &str, cluster: &Cluster, out: &mut Driver) {
        let Some(p) = self.producers.get(producer) else { return };
        let timeout_ms = p.config.transaction_timeout_ms;
        let Some(t) = &p.txn else { return };
        let (transactional_id, incarnation) = (t.transactional_id.clone(), t.incarnation);
        if cluster.txn_coordinator_of(&transactional_id).is_none() {
            // FindCoordinator finds none: asked again after `retry.backoff.ms`.
            self.txn_retry_later(producer, TxnRequest::InitProducerId, TxnError::CoordinatorNotAvailable, out);
            return;
        }
        let at = out.now.plus_ms(out.latency());
        out.at(at, TxnPending::InitPidArrive { producer: producer.to_string(), incarnation, transactional_id, timeout_ms });
    }

    /// A request goes again after `retry.backoff.ms`; the trace says so the first time in
    /// a row an error comes.
    fn txn_retry_later(&mut self, producer: &str, request: TxnRequest, error: TxnError, out: &mut Driver) {
        let Some(p) = self.producers.get_mut(producer) else { return };
        let backoff = p.config.retry_backoff_ms.max(1);
        let Some(t) = p.txn.as_mut() else { return };
        let incarnation = t.incarnation;
        if t.retrying != Some(error) {
            t.retrying = Some(error);
            let transactional_id = t.transactional_id.clone();
            out.emit(EventKind::Txn(TxnEvent::TxnRequestFailed {
                producer: producer.to_string(),
                transactional_id,
                request,
                error,
                retrying: true,
            }));
        }
        let at = out.now.plus_ms(backoff);
        out.at(at, TxnPending::ClientRetry { producer: producer.to_string(), incarnation, request });
    }

    /// The answer to InitProducerId.
    pub(in crate::sim) fn init_pid_response(
        &mut self,
        producer: &str,
        incarnation: u64,
        result: Result<TxnTag, TxnError>,
        coordinator: BrokerId,
        cluster: &Cluster,
        out: &mut Driver,
    ) {
        let Some(t) = self.txn_client(producer) else { return };
        if t.incarnation != incarnation || t.state != ClientTxnState::Initializing {
            return;
        }
        match result {
            Ok(tag) => {
                t.tag = Some(tag);
                t.state = ClientTxnState::Ready;
                t.retrying = None;
                let transactional_id = t.transactional_id.clone();
                if let Some(p) = self.producers.get_mut(producer) {
                    p.next_sequence.clear();
                }
                out.emit(EventKind::Txn(TxnEvent::ProducerInitialized {
                    producer: producer.to_string(),
                    transactional_id,
                    producer_id: tag.producer_id,
                    epoch: tag.producer_epoch,
                    coordinator,
                }));
            }
            Err(e) if e.is_fatal() => self.txn_fatal(producer, e, out),
            Err(e) => self.txn_retry_later(producer, TxnRequest::InitProducerId, e, out),
        }
        let _ = cluster;
    }

    /// A retry timer: the request goes again if it is still wanted.
    pub(in crate::sim) fn txn_retry(&mut self, producer: &str, incarnation: u64, request: TxnRequest, cluster: &Cluster, out: &mut Driver) {
        let Some(t) = self.txn_client(producer) else { return };
        if t.incarnation != incarnation {
            return;
        }
        match request {
            TxnRequest::InitProducerId if t.state == ClientTxnState::Initializing => self.send_init_pid(producer, cluster, out),
            TxnRequest::EndTxn => {
                t.end_in_flight = false;
                self.txn_maybe_end(producer, cluster, out);
            }
            TxnRequest::TxnOffsetCommit => self.send_txn_offsets(producer, cluster, out),
            TxnRequest::InitProducerId | TxnRequest::AddPartitions => {}
        }
    }

    /// `beginTransaction()`: no request; sends are allowed from now on.
    pub(in crate::sim) fn txn_begin(&mut self, producer: &str, out: &mut Driver) {
        let Some(t) = self.txn_client(producer) else { return };
        t.state = ClientTxnState::InTransaction;
        t.partitions = VecSet::new();
        t.offset_groups = VecSet::new();
        t.started = false;
        let transactional_id = t.transactional_id.clone();
        out.emit(EventKind::Txn(TxnEvent::TransactionBegun { producer: producer.to_string(), transactional_id }));
    }

    /// `commitTransaction()` / `abortTransaction()`: a commit flushes first; an abort fails
    /// the batches not sent yet (`RecordAccumulator.abortUndrainedBatches`) and waits for
    /// those in flight; then EndTxn.
    pub(in crate::sim) fn txn_end(&mut self, producer: &str, commit: bool, cluster: &Cluster, out: &mut Driver) {
        let Some(t) = self.txn_client(producer) else { return };
        t.state = if commit { ClientTxnState::Committing } else { ClientTxnState::Aborting };
        let transactional_id = t.transactional_id.clone();
        out.emit(EventKind::Txn(TxnEvent::EndTxnRequested { producer: producer.to_string(), transactional_id, commit }));
        if !commit {
            self.abort_unsent(producer, out);
        }
        self.run_sender(producer, cluster, out);
        self.txn_maybe_end(producer, cluster, out);
    }

    /// Fails every batch not in flight (`abortUndrainedBatches`): with
    /// TRANSACTION_ABORTED, or with the fatal error.
    fn abort_unsent(&mut self, producer: &str, out: &mut Driver) {
        self.fail_batches(producer, false, ProduceError::TransactionAborted, out);
    }

    /// Fails the batches not in flight (and, `all`, those in flight too).
    fn fail_batches(&mut self, producer: &str, all: bool, error: ProduceError, out: &mut Driver) {
        let Some(p) = self.producers.get_mut(producer) else { return };
        let ids: Vec<u64> = p.batches.values().filter(|b| all || b.request.is_none()).map(|b| b.id).collect();
        for dq in p.deques.values_mut() {
            dq.retain(|id| !ids.contains(id));
        }
        p.deques.retain(|_, dq| !dq.is_empty());
        if all {
            p.requests.clear();
            p.in_flight.clear();
            p.muted.clear();
        }
        for id in ids {
            self.give_up(producer, id, error, out);
        }
    }

    /// Once a commit or abort has nothing left in flight: EndTxn to the coordinator — or,
    /// if nothing was sent in the transaction (`transactionStarted` false), it completes
    /// at once without a request (`TransactionManager.nextRequest`).
    pub(in crate::sim) fn txn_maybe_end(&mut self, producer: &str, cluster: &Cluster, out: &mut Driver) {
        let Some(p) = self.producers.get_mut(producer) else { return };
        let busy = !p.batches.is_empty() || p.blocked.is_some() || !p.queued.is_empty();
        let Some(t) = p.txn.as_mut() else { return };
        let commit = match t.state {
            ClientTxnState::Committing => true,
            ClientTxnState::Aborting => false,
            _ => return,
        };
        if busy || t.end_in_flight || t.pending_offsets.is_some() {
            return;
        }
        let Some(tag) = t.tag else { return };
        if !t.started {
            self.txn_completed(producer, commit, tag, out);
            return;
        }
        let (transactional_id, incarnation) = (t.transactional_id.clone(), t.incarnation);
        if cluster.txn_coordinator_of(&transactional_id).is_none() {
            t.end_in_flight = true;
            self.txn_retry_later(producer, TxnRequest::EndTxn, TxnError::CoordinatorNotAvailable, out);
            return;
        }
        t.end_in_flight = true;
        let at = out.now.plus_ms(out.latency());
        out.at(at, TxnPending::EndTxnArrive { producer: producer.to_string(), incarnation, transactional_id, tag, commit });
    }

    /// The transaction is over for the producer: ready for the next one with `tag` (its
    /// sequences start again at 0 with the new epoch).
    fn txn_completed(&mut self, producer: &str, commit: bool, tag: TxnTag, out: &mut Driver) {
        let Some(p) = self.producers.get_mut(producer) else { return };
        p.next_sequence.clear();
        let Some(t) = p.txn.as_mut() else { return };
        t.tag = Some(tag);
        t.state = ClientTxnState::Ready;
        t.partitions = VecSet::new();
        t.offset_groups = VecSet::new();
        t.started = false;
        t.end_in_flight = false;
        t.retrying = None;
        t.last_error = None;
        if commit {
            t.committed += 1;
        } else {
            t.aborted += 1;
        }
        let transactional_id = t.transactional_id.clone();
        out.emit(EventKind::Txn(TxnEvent::TxnEnded {
            producer: producer.to_string(),
            transactional_id,
            commit,
            epoch: tag.producer_epoch,
        }));
    }

    /// The answer to EndTxn; true when the transaction ended (the application's
    /// `commitTransaction()` / `abortTransaction()` returned).
    pub(in crate::sim) fn end_txn_response(
        &mut self,
        producer: &str,
        incarnation: u64,
        commit: bool,
        result: Result<TxnTag, TxnError>,
        cluster: &Cluster,
        out: &mut Driver,
    ) -> bool {
        let Some(t) = self.txn_client(producer) else { return false };
        if t.incarnation != incarnation || !t.end_in_flight {
            return false;
        }
        t.end_in_flight = false;
        match result {
            Ok(tag) => {
                self.txn_completed(producer, commit, tag, out);
                true
            }
            Err(e @ (TxnError::ConcurrentTransactions | TxnError::CoordinatorNotAvailable)) => {
                if let Some(t) = self.txn_client(producer) {
                    t.end_in_flight = true;
                }
                self.txn_retry_later(producer, TxnRequest::EndTxn, e, out);
                false
            }
            Err(e @ (TxnError::ProducerFenced | TxnError::InvalidProducerEpoch | TxnError::InvalidTxnState)) => {
                self.txn_request_failed(producer, TxnRequest::EndTxn, e, out);
                self.txn_fatal(producer, e, out);
                let _ = cluster;
                false
            }
            Err(e) => {
                self.txn_request_failed(producer, TxnRequest::EndTxn, e, out);
                self.txn_abortable(producer, e, out);
                false
            }
        }
    }

    fn txn_request_failed(&mut self, producer: &str, request: TxnRequest, error: TxnError, out: &mut Driver) {
        let Some(t) = self.txn_client(producer) else { return };
        let transactional_id = t.transactional_id.clone();
        out.emit(EventKind::Txn(TxnEvent::TxnRequestFailed {
            producer: producer.to_string(),
            transactional_id,
            request,
            error,
            retrying: false,
        }));
    }

    /// `sendOffsetsToTransaction(offsets, groupMetadata)`: TxnOffsetCommit to the group's
    /// coordinator (transaction version 2: no AddOffsetsToTxn first).
    #[allow(clippy::too_many_arguments)] // The call's arguments: the group's metadata and the offsets.
    pub(in crate::sim) fn txn_send_offsets(
        &mut self,
        producer: &str,
        group: &str,
        member_id: String,
        generation: i32,
        offsets: Vec<(TopicPartition, u64)>,
        cluster: &Cluster,
        out: &mut Driver,
    ) {
        let Some(t) = self.txn_client(producer) else { return };
        t.started = true;
        t.offset_groups.insert(group.to_string());
        t.pending_offsets = Some((group.to_string(), member_id, generation, offsets));
        self.send_txn_offsets(producer, cluster, out);
    }

    fn send_txn_offsets(&mut self, producer: &str, cluster: &Cluster, out: &mut Driver) {
        let Some(t) = self.txn_client(producer) else { return };
        let (Some((group, member_id, generation, offsets)), Some(tag)) = (t.pending_offsets.clone(), t.tag) else { return };
        let (transactional_id, incarnation) = (t.transactional_id.clone(), t.incarnation);
        if cluster.coordinator_of(&group).is_none() {
            self.txn_retry_later(producer, TxnRequest::TxnOffsetCommit, TxnError::CoordinatorNotAvailable, out);
            return;
        }
        let at = out.now.plus_ms(out.latency());
        out.at(
            at,
            TxnPending::TxnOffsetCommitArrive {
                group,
                producer: producer.to_string(),
                incarnation,
                transactional_id,
                tag,
                member_id,
                generation,
                offsets,
            },
        );
    }

    /// The answer to TxnOffsetCommit (`TxnOffsetCommitHandler`): retried while there is no
    /// coordinator; ILLEGAL_GENERATION / UNKNOWN_MEMBER_ID are `CommitFailedException`,
    /// abortable; PRODUCER_FENCED is fatal.
    pub(in crate::sim) fn txn_offsets_response(
        &mut self,
        producer: &str,
        incarnation: u64,
        result: Result<(), TxnError>,
        cluster: &Cluster,
        out: &mut Driver,
    ) {
        let Some(t) = self.txn_client(producer) else { return };
        if t.incarnation != incarnation || t.pending_offsets.is_none() {
            return;
        }
        match result {
            Ok(()) => {
                t.pending_offsets = None;
                t.retrying = None;
            }
            Err(e @ (TxnError::CoordinatorNotAvailable | TxnError::ConcurrentTransactions)) => {
                self.txn_retry_later(producer, TxnRequest::TxnOffsetCommit, e, out);
                return;
            }
            Err(e) => {
                t.pending_offsets = None;
                self.txn_request_failed(producer, TxnRequest::TxnOffsetCommit, e, out);
                if matches!(e, TxnError::ProducerFenced | TxnError::InvalidProducerEpoch) {
                    self.txn_fatal(producer, TxnError::ProducerFenced, out);
                } else {
                    self.txn_abortable(producer, e, out);
                }
            }
        }
        self.txn_maybe_end(producer, cluster, out);
    }

    /// A batch of the transaction was given up (`TransactionManager.handleFailedBatch`):
    /// PRODUCER_FENCED is fatal; anything else but an abort's own makes the transaction
    /// abortable.
    pub(in crate::sim) fn txn_batch_failed(&mut self, producer: &str, error: ProduceError, out: &mut Driver) {
        let Some(t) = self.txn_client(producer) else { return };
        if matches!(t.state, ClientTxnState::FatalError | ClientTxnState::Crashed) || error == ProduceError::TransactionAborted {
            return;
        }
        let e = match error {
            ProduceError::ProducerFenced => return self.txn_fatal(producer, TxnError::ProducerFenced, out),
            ProduceError::InvalidProducerEpoch => TxnError::InvalidProducerEpoch,
            _ => TxnError::TransactionAbortable,
        };
        if t.state == ClientTxnState::Aborting {
            return; // The abort goes on: what failed is aborted anyway.
        }
        self.txn_abortable(producer, e, out);
    }

    /// The transaction can only be aborted now: unsent batches fail.
    fn txn_abortable(&mut self, producer: &str, error: TxnError, out: &mut Driver) {
        let Some(t) = self.txn_client(producer) else { return };
        if !matches!(t.state, ClientTxnState::InTransaction | ClientTxnState::Committing) {
            return;
        }
        t.state = ClientTxnState::AbortableError;
        t.last_error = Some(error);
        let transactional_id = t.transactional_id.clone();
        out.emit(EventKind::Txn(TxnEvent::TxnProducerFailed {
            producer: producer.to_string(),
            transactional_id,
            error,
            state: ClientTxnState::AbortableError,
        }));
        self.abort_unsent(producer, out);
    }

    /// The producer is fenced (or another fatal error): every unfinished batch fails with
    /// PRODUCER_FENCED; it must be closed.
    fn txn_fatal(&mut self, producer: &str, error: TxnError, out: &mut Driver) {
        let Some(t) = self.txn_client(producer) else { return };
        if matches!(t.state, ClientTxnState::FatalError | ClientTxnState::Crashed) {
            return;
        }
        t.state = ClientTxnState::FatalError;
        t.last_error = Some(error);
        t.end_in_flight = false;
        t.pending_offsets = None;
        let transactional_id = t.transactional_id.clone();
        out.emit(EventKind::Txn(TxnEvent::TxnProducerFailed {
            producer: producer.to_string(),
            transactional_id,
            error,
            state: ClientTxnState::FatalError,
        }));
        self.fail_batches(producer, true, ProduceError::ProducerFenced, out);
    }

    /// The producer's process dies: its batches are gone without a callback (what is on the
    /// wire still reaches the brokers; answers find nobody); its transaction stays open.
    pub(in crate::sim) fn crash_producer(&mut self, producer: &str, out: &mut Driver) {
        let Some(p) = self.producers.get_mut(producer) else { return };
        p.batches = VecMap::new();
        p.deques = VecMap::new();
        p.requests = VecMap::new();
        p.in_flight = VecMap::new();
        p.sequenced = VecMap::new();
        p.muted = VecSet::new();
        p.next_sequence = VecMap::new();
        p.buffer_used = 0;
        p.blocked = None;
        p.queued = Default::default();
        let Some(t) = p.txn.as_mut() else { return };
        t.state = ClientTxnState::Crashed;
        t.incarnation += 1;
        t.end_in_flight = false;
        t.pending_offsets = None;
        t.retrying = None;
        out.emit(EventKind::Txn(TxnEvent::ProducerCrashed { producer: producer.to_string() }));
    }

    /// A new instance with the same `client.id` and `transactional.id`: `initTransactions()`.
    pub(in crate::sim) fn restart_producer(&mut self, producer: &str, cluster: &Cluster, out: &mut Driver) {
        let Some(t) = self.txn_client(producer) else { return };
        t.incarnation += 1;
        t.tag = None;
        t.partitions = VecSet::new();
        t.offset_groups = VecSet::new();
        t.started = false;
        t.last_error = None;
        out.emit(EventKind::Txn(TxnEvent::ProducerRestarted { producer: producer.to_string() }));
        self.txn_init(producer, cluster, out);
    }
}
