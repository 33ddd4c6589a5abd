//! The group coordinator's part in transactions (KIP-98, KIP-447, KIP-890): TxnOffsetCommit
//! (`sendOffsetsToTransaction` with the consumer's group metadata — member id and
//! generation are checked as for a commit), the group's `__consumer_offsets` partition added
//! to the transaction by its coordinator (transaction version 2 folds AddOffsetsToTxn into
//! it), the offsets held pending until the transaction's marker
//! (`OffsetMetadataManager.pendingTransactionalOffsets`), and UNSTABLE_OFFSET_COMMIT for an
//! OffsetFetch (`requireStable`, the Java consumer's) while a transaction holds some.

use super::*;
use crate::event::{TxnError, TxnEvent};
use crate::record::TxnTag;
use crate::sim::txn::{AfterAdd, TxnPending};
use crate::txn::TxnPartition;

impl Consumers {
    /// TxnOffsetCommit reaches the group coordinator: the member must be the group's, in
    /// its generation (classic) or member epoch (KIP-848); then the group's offsets
    /// partition is added to the transaction and, once added, the offsets are held pending.
    #[allow(clippy::too_many_arguments)] // The request's fields.
    pub(in crate::sim) fn txn_offset_commit_arrive(
        &mut self,
        group_id: &str,
        producer: String,
        incarnation: u64,
        transactional_id: String,
        tag: TxnTag,
        member_id: &str,
        generation: i32,
        offsets: Vec<(TopicPartition, u64)>,
        cluster: &Cluster,
        out: &mut Driver,
    ) {
        let at = out.now.plus_ms(out.latency());
        let respond = |out: &mut Driver, producer: String, result: Result<(), TxnError>| {
            out.at(at, TxnPending::TxnOffsetCommitResponse { producer, incarnation, result });
        };
        if cluster.coordinator_of(group_id).is_none() {
            return respond(out, producer, Err(TxnError::CoordinatorNotAvailable));
        }
        let error = match self.protocol_of(group_id) {
            Some(GroupProtocol::Consumer) => self.cg_commit_check(group_id, member_id, generation).map(|e| match e {
                GroupError::UnknownMemberId => TxnError::UnknownMemberId,
                _ => TxnError::IllegalGeneration,
            }),
            Some(GroupProtocol::Classic) => match self.groups.get(group_id) {
                Some(g) if g.registered(member_id).is_none() => Some(TxnError::UnknownMemberId),
                Some(g) if g.generation != generation => Some(TxnError::IllegalGeneration),
                Some(_) => None,
                None => Some(TxnError::UnknownMemberId),
            },
            None => Some(TxnError::UnknownMemberId),
        };
        if let Some(e) = error {
            return respond(out, producer, Err(e));
        }
        if cluster.txn_coordinator_of(&transactional_id).is_none() {
            return respond(out, producer, Err(TxnError::CoordinatorNotAvailable));
        }
        let then = AfterAdd::Offsets { group: group_id.to_string(), producer, incarnation, offsets };
        let partitions = vec![TxnPartition::Offsets { group: group_id.to_string() }];
        out.at(at, TxnPending::AddPartitionsArrive { transactional_id, tag, partitions, then: Box::new(then) });
    }

    /// The transaction coordinator answered: the offsets are held pending under the
    /// producer id (and the producer hears OK), or the producer gets the error.
    pub(in crate::sim) fn txn_offsets_added(
        &mut self,
        result: Result<(), TxnError>,
        then: AfterAdd,
        transactional_id: String,
        tag: TxnTag,
        out: &mut Driver,
    ) {
        let AfterAdd::Offsets { group, producer, incarnation, offsets } = then else { return };
        let at = out.now.plus_ms(out.latency());
        if result == Err(TxnError::ConcurrentTransactions) {
            let retry = out.now.plus_ms(crate::sim::cluster::txn::ADD_PARTITIONS_RETRY_BACKOFF_MS + out.latency());
            let partitions = vec![TxnPartition::Offsets { group: group.clone() }];
            let then = AfterAdd::Offsets { group, producer, incarnation, offsets };
            out.at(retry, TxnPending::AddPartitionsArrive { transactional_id, tag, partitions, then: Box::new(then) });
            return;
        }
        if result.is_ok() {
            if let Some(g) = self.groups.get_mut(&group) {
                let pending = g.pending_txn.by_producer.entry(tag.producer_id).or_default();
                for (tp, o) in &offsets {
                    pending.insert(tp.clone(), *o);
                }
            }
            out.emit(EventKind::Txn(TxnEvent::TxnOffsetsPending { group, producer: producer.clone(), offsets }));
        }
        out.at(at, TxnPending::TxnOffsetCommitResponse { producer, incarnation, result });
    }

    /// A transaction marker reaches the group's coordinator: the producer's pending offsets
    /// become the group's committed offsets (COMMIT) or are dropped (ABORT)
    /// (`OffsetMetadataManager.replayEndTransactionMarker`). Refused while the group has no
    /// coordinator (the transaction coordinator sends it again).
    pub(in crate::sim) fn txn_offsets_marker(
        &mut self,
        group_id: &str,
        transactional_id: String,
        tag: TxnTag,
        commit: bool,
        cluster: &Cluster,
        out: &mut Driver,
    ) {
        let at = out.now.plus_ms(out.latency());
        let partition = TxnPartition::Offsets { group: group_id.to_string() };
        if cluster.coordinator_of(group_id).is_none() {
            out.at(at, TxnPending::MarkerResponse { transactional_id, partition, ok: false, epoch: tag.producer_epoch });
            return;
        }
        let now = out.now;
        let taken = self.groups.get_mut(group_id).and_then(|g| g.pending_txn.by_producer.remove(&tag.producer_id));
        if let (Some(g), Some(offsets)) = (self.groups.get_mut(group_id), taken) {
            if commit {
                for (tp, o) in &offsets {
                    g.committed.insert(tp.clone(), *o);
                    g.commit_times.insert(tp.clone(), now);
                }
                let written: Vec<(TopicPartition, u64)> = offsets.iter().map(|(tp, o)| (tp.clone(), *o)).collect();
                self.offsets.write_offsets(group_id, &written, |_| None, cluster, now);
            }
            out.emit(EventKind::Txn(TxnEvent::TxnOffsetsCompleted {
                group: group_id.to_string(),
                transactional_id: transactional_id.clone(),
                commit,
                offsets: offsets.into_iter().collect(),
            }));
        }
        out.at(at, TxnPending::MarkerResponse { transactional_id, partition, ok: true, epoch: tag.producer_epoch });
    }

    /// The partitions among `partitions` whose offsets a transaction holds pending: an
    /// OffsetFetch with `requireStable` for them is answered UNSTABLE_OFFSET_COMMIT.
    pub(in crate::sim) fn txn_unstable(&self, group_id: &str, partitions: &[TopicPartition]) -> Vec<TopicPartition> {
        let Some(g) = self.groups.get(group_id) else { return Vec::new() };
        if g.pending_txn.is_empty() {
            return Vec::new();
        }
        partitions.iter().filter(|tp| g.pending_txn.holds(tp)).cloned().collect()
    }
}

impl Consumers {
    /// A Streams instance under exactly_once_v2 whose transaction was aborted goes back to
    /// its group's committed offsets on every partition it owns (the log start where
    /// none is committed), as its tasks are re-initialized
    /// (`TaskManager.handleCorruption` / `TaskMigratedException`): traced as a seek, which
    /// explains the records it processes again.
    pub(in crate::sim) fn rewind_to_committed(&mut self, group_id: &str, client_id: &str, cluster: &Cluster, out: &mut Driver) {
        let now = out.now;
        let Some(g) = self.groups.get_mut(group_id) else { return };
        let committed = g.committed.clone();
        let Some(m) = g.member_mut(client_id) else { return };
        let mut moves = Vec::new();
        for tp in m.assigned.clone() {
            let start = cluster.partition(&tp).and_then(|p| p.display_log()).map_or(0, |l| l.log_start_offset());
            let to = committed.get(&tp).copied().unwrap_or(start);
            let from = m.positions.get(&tp).copied().unwrap_or(to);
            if from != to {
                m.positions.insert(tp.clone(), to);
                moves.push((tp, from, to));
            }
        }
        if moves.is_empty() {
            return;
        }
        m.token += 1;
        for (tp, _, _) in &moves {
            let committed = committed.get(tp).copied();
            let h = crate::group::Handover { from: client_id.into(), kind: crate::group::HandoverKind::Seek, at: now, committed };
            g.handovers.insert(tp.clone(), h);
        }
        self.drop_parked_fetches(group_id, client_id);
        for (tp, from, to) in moves {
            let how = crate::command::SeekTo::Offset { offset: to };
            out.emit(EventKind::Consume(crate::event::ConsumeEvent::Seeked {
                group: group_id.into(),
                client_id: client_id.into(),
                tp,
                from,
                to,
                how,
            }));
        }
    }
}
