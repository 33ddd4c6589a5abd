//! The transaction coordinator (`TransactionCoordinator`, `TransactionStateManager`,
//! `TransactionMetadata`, `TransactionMarkerChannelManager`), with transaction version 2
//! (KIP-890 part 2, the default for clusters created on 4.0+):
//!
//! - InitProducerId (`prepareInitProducerIdTransit`): a new id gets a producer id at epoch
//!   0; Empty or Complete* bump the epoch (fencing the previous instance); Ongoing is
//!   fenced (PrepareEpochFence, epoch + 1) and aborted, answered CONCURRENT_TRANSACTIONS so
//!   the client asks again; Prepare* answer CONCURRENT_TRANSACTIONS until the markers are
//!   written; an exhausted epoch (32766) rotates to a new producer id.
//! - AddPartitionsToTxn from partition leaders and group coordinators (implicit in
//!   TV2): the first makes the transaction Ongoing and starts its timeout.
//! - EndTxn (`endTransaction`): PrepareCommit / PrepareAbort is logged with the epoch
//!   bumped (TV2, `prepareAbortOrCommit`), the producer is answered at once with the new
//!   epoch, then WriteTxnMarkers go to each partition's leader; once all are acknowledged
//!   CompleteCommit / CompleteAbort is logged (`prepareComplete`).
//! - The abort scan (`abortTimedOutTransactions`, every 10 s): an Ongoing transaction
//!   older than its `transaction.timeout.ms` is fenced (epoch + 1) and aborted.
//!
//! Log appends to `__transaction_state` are instant but need the partition's leader and
//! `transaction.state.log.min.isr` in-sync replicas (else COORDINATOR_NOT_AVAILABLE).

use super::*;
use crate::event::EndCause;
use crate::record::ControlType;
use crate::txn::TxnState;

/// How long the coordinator waits before sending a marker again when the partition has no
/// leader or the leader refused it (the marker channel's retry).
const MARKER_RETRY_MS: u64 = 100;

/// `TransactionMetadata.isEpochExhausted`: epochs up to `Short.MaxValue - 1` are used.
const EPOCH_EXHAUSTED: i32 = i16::MAX as i32 - 1;

impl Transactions {
    /// The scan for timed-out transactions runs every
    /// `transaction.abort.timed.out.transaction.cleanup.interval.ms` from the coordinator's
    /// start (`TransactionCoordinator.startup`); the sandbox queues it when the first
    /// transactional id appears, at the next multiple of the interval.
    fn ensure_scan(&mut self, cluster: &Cluster, out: &mut Driver) {
        if self.scan_scheduled {
            return;
        }
        self.scan_scheduled = true;
        let every = cluster.config.transaction_abort_timed_out_transaction_cleanup_interval_ms.max(1);
        out.at(SimTime((out.now.ms() / every + 1) * every), TxnPending::AbortScan);
    }

    /// InitProducerId reaches the coordinator (`handleInitProducerId`).
    pub(in crate::sim) fn init_pid_arrive(
        &mut self,
        producer: String,
        incarnation: u64,
        transactional_id: String,
        timeout_ms: u64,
        cluster: &Cluster,
        out: &mut Driver,
    ) {
        let at = out.now.plus_ms(out.latency());
        let Some((coordinator, coordinator_epoch)) = cluster.txn_log_writable(&transactional_id) else {
            let result = Err(TxnError::CoordinatorNotAvailable);
            out.at(at, TxnPending::InitPidResponse { producer, incarnation, result, coordinator: 0 });
            return;
        };
        let respond = |out: &mut Driver, producer: String, result| {
            out.at(at, TxnPending::InitPidResponse { producer, incarnation, result, coordinator });
        };
        if timeout_ms > cluster.config.transaction_max_timeout_ms {
            return respond(out, producer, Err(TxnError::InvalidTransactionTimeout));
        }
        self.ensure_scan(cluster, out);
        if !self.ids.contains_key(&transactional_id) {
            let producer_id = self.next_producer_id;
            self.next_producer_id += 1;
            self.ids.insert(transactional_id.clone(), TxnMetadata::new(transactional_id.clone(), producer_id, timeout_ms));
        }
        let Some(md) = self.ids.get_mut(&transactional_id) else { return };
        match md.state {
            TxnState::PrepareCommit | TxnState::PrepareAbort | TxnState::PrepareEpochFence => {
                respond(out, producer, Err(TxnError::ConcurrentTransactions))
            }
            TxnState::Empty | TxnState::CompleteCommit | TxnState::CompleteAbort => {
                if md.epoch >= EPOCH_EXHAUSTED {
                    // `prepareProducerIdRotation`.
                    md.producer_id = self.next_producer_id;
                    self.next_producer_id += 1;
                    md.epoch = 0;
                } else {
                    md.epoch += 1;
                }
                md.state = TxnState::Empty;
                md.timeout_ms = timeout_ms;
                md.partitions = VecSet::new();
                md.started_at = None;
                let tag = md.tag();
                respond(out, producer, Ok(tag));
            }
            TxnState::Ongoing => {
                // Fence the open transaction, abort it, and let the client ask again: its
                // retry gets the epoch bumped once more.
                self.fence(&transactional_id, EndCause::NewInstance, coordinator_epoch, cluster, out);
                respond(out, producer, Err(TxnError::ConcurrentTransactions));
            }
        }
    }

    /// PrepareEpochFence (`prepareFenceProducerEpoch`, epoch + 1) then PrepareAbort:
    /// the old instance's writes and EndTxn now fail.
    fn fence(&mut self, transactional_id: &str, cause: EndCause, coordinator_epoch: u32, cluster: &Cluster, out: &mut Driver) {
        let Some(md) = self.ids.get_mut(transactional_id) else { return };
        md.epoch += 1;
        out.emit(EventKind::Txn(TxnEvent::EpochFenced {
            transactional_id: transactional_id.to_string(),
            producer_id: md.producer_id,
            epoch: md.epoch_u16(),
            cause,
        }));
        self.prepare_end(transactional_id, false, cause, coordinator_epoch, cluster, out);
    }

    /// PrepareCommit / PrepareAbort logged (`prepareAbortOrCommit` with transaction version
    /// 2: the epoch goes up by one and the markers carry it); the markers go out.
    fn prepare_end(
        &mut self,
        transactional_id: &str,
        commit: bool,
        cause: EndCause,
        coordinator_epoch: u32,
        cluster: &Cluster,
        out: &mut Driver,
    ) {
        let Some(md) = self.ids.get_mut(transactional_id) else { return };
        md.epoch += 1;
        md.state = if commit { TxnState::PrepareCommit } else { TxnState::PrepareAbort };
        md.marker_kind = Some(if commit { ControlType::Commit } else { ControlType::Abort });
        md.marker_epoch = md.epoch_u16();
        md.coordinator_epoch = coordinator_epoch;
        md.markers_pending = md.partitions.clone();
        out.emit(EventKind::Txn(TxnEvent::TxnPrepared {
            transactional_id: transactional_id.to_string(),
            producer_id: md.producer_id,
            epoch: md.epoch_u16(),
            commit,
            cause,
            partitions: md.partitions.iter().cloned().collect(),
        }));
        let pending: Vec<TxnPartition> = md.markers_pending.iter().cloned().collect();
        if pending.is_empty() {
            self.complete(transactional_id, out);
        }
        for p in pending {
            self.send_marker(transactional_id, p, cluster, out);
        }
    }

    /// Every marker written: CompleteCommit / CompleteAbort logged (`prepareComplete`).
    fn complete(&mut self, transactional_id: &str, out: &mut Driver) {
        let Some(md) = self.ids.get_mut(transactional_id) else { return };
        let commit = md.state == TxnState::PrepareCommit;
        md.state = if commit { TxnState::CompleteCommit } else { TxnState::CompleteAbort };
        md.partitions = VecSet::new();
        md.started_at = None;
        if commit {
            md.committed += 1;
        } else {
            md.aborted += 1;
        }
        out.emit(EventKind::Txn(TxnEvent::TxnCompleted { transactional_id: transactional_id.to_string(), commit, state: md.state }));
    }

    /// WriteTxnMarkers for one partition, to its leader (a group's offsets: to its
    /// coordinator), or again later while there is none.
    fn send_marker(&mut self, transactional_id: &str, partition: TxnPartition, cluster: &Cluster, out: &mut Driver) {
        let Some(md) = self.ids.get(transactional_id) else { return };
        let (Some(kind), epoch) = (md.marker_kind, md.marker_epoch) else { return };
        let target = if cluster.txn_coordinator_of(transactional_id).is_none() {
            None // The coordinator is gone; its successor sends the markers (on load).
        } else {
            match &partition {
                TxnPartition::Topic { tp } => cluster.partition(tp).and_then(|p| p.leader).filter(|b| cluster.reachable(*b)),
                TxnPartition::Offsets { group } => cluster.coordinator_of(group),
            }
        };
        let Some(broker) = target else {
            let at = out.now.plus_ms(MARKER_RETRY_MS);
            out.at(at, TxnPending::MarkerRetry { transactional_id: transactional_id.to_string(), partition, epoch });
            return;
        };
        let tag = TxnTag { producer_id: md.producer_id, producer_epoch: epoch };
        let control = Control { kind, coordinator_epoch: md.coordinator_epoch };
        let at = out.now.plus_ms(out.latency());
        out.at(at, TxnPending::MarkerArrive { transactional_id: transactional_id.to_string(), tag, control, partition, broker });
    }

    /// A marker's answer: done for that partition, or sent again.
    pub(in crate::sim) fn marker_response(
        &mut self,
        transactional_id: &str,
        partition: TxnPartition,
        ok: bool,
        epoch: u16,
        cluster: &Cluster,
        out: &mut Driver,
    ) {
        let Some(md) = self.ids.get_mut(transactional_id) else { return };
        let preparing = matches!(md.state, TxnState::PrepareCommit | TxnState::PrepareAbort);
        if !preparing || md.marker_epoch != epoch || !md.markers_pending.contains(&partition) {
            return; // An answer to an earlier transaction's marker.
        }
        if !ok {
            let at = out.now.plus_ms(MARKER_RETRY_MS);
            out.at(at, TxnPending::MarkerRetry { transactional_id: transactional_id.to_string(), partition, epoch });
            return;
        }
        md.markers_pending.remove(&partition);
        if md.markers_pending.is_empty() {
            self.complete(transactional_id, out);
        }
        let _ = cluster;
    }

    /// A marker to send again, if it is still wanted.
    pub(in crate::sim) fn marker_retry(
        &mut self,
        transactional_id: &str,
        partition: TxnPartition,
        epoch: u16,
        cluster: &Cluster,
        out: &mut Driver,
    ) {
        let wanted = self.ids.get(transactional_id).is_some_and(|md| md.marker_epoch == epoch && md.markers_pending.contains(&partition));
        if wanted {
            self.send_marker(transactional_id, partition, cluster, out);
        }
    }

    /// AddPartitionsToTxn from a partition leader or a group coordinator
    /// (`handleAddPartitionsToTransaction`, implicit with transaction version 2).
    pub(in crate::sim) fn add_partitions_arrive(
        &mut self,
        transactional_id: String,
        tag: TxnTag,
        partitions: Vec<TxnPartition>,
        then: AfterAdd,
        cluster: &Cluster,
        out: &mut Driver,
    ) {
        let at = out.now.plus_ms(out.latency());
        let result = self.add_partitions(&transactional_id, tag, &partitions, cluster, out);
        let then = Box::new(then);
        out.at(at, TxnPending::AddPartitionsResponse { transactional_id, tag, partitions, result, then });
    }

    fn add_partitions(
        &mut self,
        transactional_id: &str,
        tag: TxnTag,
        partitions: &[TxnPartition],
        cluster: &Cluster,
        out: &mut Driver,
    ) -> Result<(), TxnError> {
        let Some((coordinator, _)) = cluster.txn_log_writable(transactional_id) else { return Err(TxnError::CoordinatorNotAvailable) };
        let Some(md) = self.ids.get_mut(transactional_id) else { return Err(TxnError::InvalidProducerIdMapping) };
        if md.producer_id != tag.producer_id {
            return Err(TxnError::InvalidProducerIdMapping);
        }
        if md.epoch != i32::from(tag.producer_epoch) {
            return Err(TxnError::ProducerFenced);
        }
        match md.state {
            TxnState::PrepareCommit | TxnState::PrepareAbort | TxnState::PrepareEpochFence => return Err(TxnError::ConcurrentTransactions),
            TxnState::Empty | TxnState::CompleteCommit | TxnState::CompleteAbort => {
                md.state = TxnState::Ongoing;
                md.started_at = Some(out.now);
                md.partitions = VecSet::new();
            }
            TxnState::Ongoing => {}
        }
        let added: Vec<TxnPartition> = partitions.iter().filter(|p| !md.partitions.contains(p)).cloned().collect();
        for p in &added {
            md.partitions.insert(p.clone());
        }
        if !added.is_empty() {
            out.emit(EventKind::Txn(TxnEvent::PartitionsAddedToTxn {
                transactional_id: transactional_id.to_string(),
                partitions: added,
                coordinator,
            }));
        }
        Ok(())
    }

    /// EndTxn reaches the coordinator (`endTransaction`, transaction version 2): the epoch
    /// must be the current one (or, for a retry, one below it); Ongoing prepares the
    /// outcome and answers with the bumped epoch at once; a retry of a completed outcome is
    /// answered OK; an abort with nothing added (Empty, Complete*) is allowed; anything else
    /// is INVALID_TXN_STATE, CONCURRENT_TRANSACTIONS or PRODUCER_FENCED.
    pub(in crate::sim) fn end_txn_arrive(
        &mut self,
        producer: String,
        incarnation: u64,
        transactional_id: String,
        tag: TxnTag,
        commit: bool,
        cluster: &Cluster,
        out: &mut Driver,
    ) {
        let at = out.now.plus_ms(out.latency());
        let result = self.end_txn(&transactional_id, tag, commit, cluster, out);
        out.at(at, TxnPending::EndTxnResponse { producer, incarnation, commit, result });
    }

    fn end_txn(
        &mut self,
        transactional_id: &str,
        tag: TxnTag,
        commit: bool,
        cluster: &Cluster,
        out: &mut Driver,
    ) -> Result<TxnTag, TxnError> {
        let Some((_, coordinator_epoch)) = cluster.txn_log_writable(transactional_id) else {
            return Err(TxnError::CoordinatorNotAvailable);
        };
        let Some(md) = self.ids.get(transactional_id) else { return Err(TxnError::InvalidProducerIdMapping) };
        if md.producer_id != tag.producer_id {
            return Err(TxnError::InvalidProducerIdMapping);
        }
        let current = md.epoch == i32::from(tag.producer_epoch);
        let retry = md.epoch == i32::from(tag.producer_epoch) + 1;
        let state = md.state;
        let empty_abort = !commit && current && matches!(state, TxnState::Empty | TxnState::CompleteCommit | TxnState::CompleteAbort);
        let valid = match state {
            TxnState::Ongoing | TxnState::Empty | TxnState::PrepareEpochFence => current,
            TxnState::PrepareCommit | TxnState::PrepareAbort => retry,
            TxnState::CompleteCommit | TxnState::CompleteAbort => retry || empty_abort,
        };
        if !valid {
            return Err(TxnError::ProducerFenced);
        }
        let same = |s: TxnState| (s == TxnState::PrepareCommit || s == TxnState::CompleteCommit) == commit;
        match state {
            TxnState::Ongoing => {
                self.prepare_end(transactional_id, commit, EndCause::Client, coordinator_epoch, cluster, out);
                self.ids.get(transactional_id).map(TxnMetadata::tag).ok_or(TxnError::InvalidProducerIdMapping)
            }
            _ if empty_abort => {
                // Transaction version 2 lets a producer abort a transaction that added
                // nothing (`TransactionMetadata.prepareAbortOrCommit`, "noPartitionAdded").
                self.prepare_end(transactional_id, false, EndCause::Client, coordinator_epoch, cluster, out);
                self.ids.get(transactional_id).map(TxnMetadata::tag).ok_or(TxnError::InvalidProducerIdMapping)
            }
            TxnState::CompleteCommit | TxnState::CompleteAbort if same(state) => Ok(md.tag()),
            TxnState::PrepareCommit | TxnState::PrepareAbort if same(state) => Err(TxnError::ConcurrentTransactions),
            _ => Err(TxnError::InvalidTxnState),
        }
    }

    /// The abort scan (`abortTimedOutTransactions`): every Ongoing transaction whose start
    /// plus its timeout is before now is fenced and aborted, by a coordinator that can log.
    pub(in crate::sim) fn abort_scan(&mut self, cluster: &Cluster, out: &mut Driver) {
        let now = out.now;
        let expired: Vec<(String, u64, u64)> = self
            .ids
            .values()
            .filter(|md| md.state == TxnState::Ongoing)
            .filter_map(|md| {
                let started = md.started_at?;
                let open_ms = now.ms().saturating_sub(started.ms());
                (started.ms().saturating_add(md.timeout_ms) < now.ms()).then(|| (md.transactional_id.clone(), md.timeout_ms, open_ms))
            })
            .collect();
        for (id, timeout_ms, open_ms) in expired {
            let Some((_, coordinator_epoch)) = cluster.txn_log_writable(&id) else { continue };
            out.emit(EventKind::Txn(TxnEvent::TxnTimedOut { transactional_id: id.clone(), timeout_ms, open_ms }));
            self.fence(&id, EndCause::Timeout, coordinator_epoch, cluster, out);
        }
        let every = cluster.config.transaction_abort_timed_out_transaction_cleanup_interval_ms.max(1);
        out.at(now.plus_ms(every), TxnPending::AbortScan);
    }

    /// The coordinator's record of `transactional_id`, if it has one.
    pub(crate) fn metadata(&self, transactional_id: &str) -> Option<&TxnMetadata> {
        self.ids.get(transactional_id)
    }
}

impl TxnMetadata {
    /// A new transactional id (`NO_PRODUCER_EPOCH`, Empty).
    pub(crate) fn new(transactional_id: String, producer_id: u64, timeout_ms: u64) -> Self {
        Self {
            transactional_id,
            producer_id,
            epoch: -1,
            state: TxnState::Empty,
            timeout_ms,
            partitions: VecSet::new(),
            started_at: None,
            markers_pending: VecSet::new(),
            marker_epoch: 0,
            marker_kind: None,
            coordinator_epoch: 0,
            committed: 0,
            aborted: 0,
        }
    }

    /// The epoch as a producer writes it.
    pub(crate) fn epoch_u16(&self) -> u16 {
        u16::try_from(self.epoch.max(0)).unwrap_or(u16::MAX)
    }

    /// The producer id and current epoch.
    pub(crate) fn tag(&self) -> TxnTag {
        TxnTag { producer_id: self.producer_id, producer_epoch: self.epoch_u16() }
    }
}

/// The coordinator's handlers alone: a `Transactions`, a `Cluster` that places
/// `__transaction_state`, a `Driver`; no `Sim`.
#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::driver::Effect;

    fn world() -> (Transactions, Cluster) {
        let mut cluster = Cluster::new(ClusterConfig::default());
        cluster.create_transaction_state_topic(&mut placement_rng(1));
        cluster.add_topic("t", 1, 3, crate::cluster::TopicConfig::default(), &mut Driver::new(1, 20));
        (Transactions::default(), cluster)
    }

    fn init_answer(out: &Driver) -> Option<Result<TxnTag, TxnError>> {
        out.effects().iter().rev().find_map(|e| match e {
            Effect::At { pending: Pending::Txn(TxnPending::InitPidResponse { result, .. }), .. } => Some(*result),
            _ => None,
        })
    }

    fn ongoing(txns: &mut Transactions, cluster: &Cluster, out: &mut Driver) -> TxnTag {
        txns.init_pid_arrive("p".into(), 0, "tx".into(), 60_000, cluster, out);
        let Some(Ok(tag)) = init_answer(out) else { panic!("{:?}", out.effects()) };
        let tp = TopicPartition::new("t", 0);
        let then = AfterAdd::Offsets { group: "g".into(), producer: "p".into(), incarnation: 0, offsets: vec![] };
        txns.add_partitions_arrive("tx".into(), tag, vec![TxnPartition::Topic { tp }], then, cluster, out);
        tag
    }

    #[test]
    fn init_producer_id_gives_epoch_zero_then_bumps_it_and_fences_an_open_transaction() {
        let (mut txns, cluster) = world();
        let mut out = Driver::new(1, 20);
        let tag = ongoing(&mut txns, &cluster, &mut out);
        assert_eq!(tag.producer_epoch, 0);
        assert_eq!(txns.ids["tx"].state, TxnState::Ongoing);
        assert_eq!(txns.ids["tx"].started_at, Some(SimTime::ZERO), "the timeout counts from the first partition");
        // A second instance: PrepareEpochFence (1), then PrepareAbort with the TV2 bump (2),
        // and CONCURRENT_TRANSACTIONS so it asks again.
        txns.init_pid_arrive("p2".into(), 0, "tx".into(), 60_000, &cluster, &mut out);
        assert_eq!(init_answer(&out), Some(Err(TxnError::ConcurrentTransactions)));
        assert_eq!((txns.ids["tx"].state, txns.ids["tx"].epoch), (TxnState::PrepareAbort, 2));
        let marker = out.effects().iter().find_map(|e| match e {
            Effect::At { pending: Pending::Txn(TxnPending::MarkerArrive { tag, control, .. }), .. } => Some((*tag, *control)),
            _ => None,
        });
        assert_eq!(marker.map(|(t, c)| (t.producer_epoch, c.kind)), Some((2, ControlType::Abort)));
        // Still preparing: CONCURRENT_TRANSACTIONS again.
        txns.init_pid_arrive("p2".into(), 0, "tx".into(), 60_000, &cluster, &mut out);
        assert_eq!(init_answer(&out), Some(Err(TxnError::ConcurrentTransactions)));
        // The marker is written: CompleteAbort; the retry gets epoch 3.
        let tp = TxnPartition::Topic { tp: TopicPartition::new("t", 0) };
        txns.marker_response("tx", tp, true, 2, &cluster, &mut out);
        assert_eq!(txns.ids["tx"].state, TxnState::CompleteAbort);
        txns.init_pid_arrive("p2".into(), 0, "tx".into(), 60_000, &cluster, &mut out);
        assert_eq!(init_answer(&out).and_then(Result::ok).map(|t| t.producer_epoch), Some(3));
    }

    #[test]
    fn end_txn_bumps_the_epoch_answers_before_the_markers_and_fences_an_older_epoch() {
        let (mut txns, cluster) = world();
        let mut out = Driver::new(1, 20);
        let tag = ongoing(&mut txns, &cluster, &mut out);
        let mut out = Driver::new(1, 20);
        txns.end_txn_arrive("p".into(), 0, "tx".into(), tag, true, &cluster, &mut out);
        let kinds: Vec<&str> = out
            .effects()
            .iter()
            .filter_map(|e| match e {
                Effect::At { pending: Pending::Txn(TxnPending::EndTxnResponse { result: Ok(t), .. }), .. } => {
                    assert_eq!(t.producer_epoch, 1, "transaction version 2 bumps the epoch at prepare");
                    Some("answer")
                }
                Effect::At { pending: Pending::Txn(TxnPending::MarkerArrive { .. }), .. } => Some("marker"),
                _ => None,
            })
            .collect();
        assert_eq!(kinds, ["marker", "answer"], "both leave now: the answer does not wait for the markers");
        assert_eq!(txns.ids["tx"].state, TxnState::PrepareCommit);
        // The old epoch again (a zombie's commit): PRODUCER_FENCED.
        let mut out = Driver::new(1, 20);
        let old = TxnTag { producer_epoch: 0, ..tag };
        txns.end_txn_arrive("p".into(), 0, "tx".into(), old, true, &cluster, &mut out);
        let fenced = out.effects().iter().any(|e| {
            matches!(
                e,
                Effect::At { pending: Pending::Txn(TxnPending::EndTxnResponse { result: Err(TxnError::ConcurrentTransactions), .. }), .. }
            )
        });
        assert!(fenced, "a retry (epoch one below) while preparing: CONCURRENT_TRANSACTIONS {:?}", out.effects());
        let mut out = Driver::new(1, 20);
        let older = TxnTag { producer_epoch: 5, ..tag };
        txns.end_txn_arrive("p".into(), 0, "tx".into(), older, true, &cluster, &mut out);
        assert!(out.effects().iter().any(|e| matches!(
            e,
            Effect::At { pending: Pending::Txn(TxnPending::EndTxnResponse { result: Err(TxnError::ProducerFenced), .. }), .. }
        )));
    }

    #[test]
    fn the_scan_aborts_only_transactions_open_longer_than_their_timeout() {
        let (mut txns, cluster) = world();
        let mut out = Driver::new(1, 20);
        ongoing(&mut txns, &cluster, &mut out);
        let mut out = Driver::at_time(SimTime(60_000));
        txns.abort_scan(&cluster, &mut out);
        assert_eq!(txns.ids["tx"].state, TxnState::Ongoing, "open exactly 60000 ms: start + timeout is not before now");
        let mut out = Driver::at_time(SimTime(60_001));
        txns.abort_scan(&cluster, &mut out);
        assert_eq!((txns.ids["tx"].state, txns.ids["tx"].epoch), (TxnState::PrepareAbort, 2), "fenced (1), then aborted (2)");
        assert!(out.effects().iter().any(|e| matches!(e, Effect::Emit(EventKind::Txn(TxnEvent::TxnTimedOut { open_ms: 60_001, .. })))));
    }
}
