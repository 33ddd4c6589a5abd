//! Kafka Streams under `processing.guarantee=exactly_once_v2` (KIP-447; `StreamsProducer`,
//! `TaskManager.commit`, `ActiveTaskCreator`):
//!
//! - one transactional producer per instance (StreamThread), `transactional.id` =
//!   `<application.id>-<processId>-1`, `transaction.timeout.ms` 10000, `linger.ms` 100;
//!   the process id is kept across restarts when the topology has a persistent store
//!   (`StateDirectory.initializeProcessId`: `count_by_key` here), else a new one each start;
//! - the consumer reads read_committed and commits nothing itself;
//! - a transaction begins with the first record an instance sends after its last commit;
//!   every `commit.interval.ms` (100 under EOS) the instance, in its poll loop, sends its
//!   positions with `sendOffsetsToTransaction(offsets, groupMetadata)` and blocks in
//!   `commitTransaction()` until it returns; the output, the changelog writes and the
//!   consumed offsets commit (or abort) together;
//! - an instance that crashes leaves its transaction open: its records stay invisible to
//!   read_committed readers, its offsets pending (the next owner waits:
//!   UNSTABLE_OFFSET_COMMIT) until the coordinator aborts it at the timeout, or at once when
//!   it restarts with the same process id; the records it processed since its last commit
//!   are processed again — Kafka's output shows them once, side effects outside Kafka twice;
//! - a transaction that became abortable (its TxnOffsetCommit refused after a rebalance, a
//!   stale epoch) is aborted, and the instance goes back to its group's committed offsets
//!   with its stores restored (`TaskMigratedException` / `TaskCorruptedException`).
//!
//! Where it departs: a crashed instance's producer dies with it (under at_least_once the
//! shared producer outlives it, as before); `set_processing_guarantee` restarts the
//! instances by leaving and joining the group again.

use super::*;
use crate::config::{IsolationLevel, ProcessingGuarantee};
use crate::sim::streams::{StreamsOp, StreamsSpec};
use crate::txn::ClientTxnState;

/// One instance's transactional producer and commit state.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct EosInstance {
    /// Its producer's name (`<client id>-producer`).
    pub(crate) producer: String,
    /// Starts so far (a process id without a persistent store changes with each).
    starts: u32,
    /// When it last committed (or started): the next commit is due `commit.interval.ms` later.
    last_commit: SimTime,
    /// It processed records since its last commit.
    dirty: bool,
    /// It is inside `commitTransaction()` / `abortTransaction()`: its poll loop waits.
    ending: bool,
}

/// The consumers' `isolation.level` under a guarantee (`StreamsConfig`: read_committed under EOS).
pub(crate) fn isolation_for(guarantee: ProcessingGuarantee) -> IsolationLevel {
    match guarantee {
        ProcessingGuarantee::AtLeastOnce => IsolationLevel::ReadUncommitted,
        ProcessingGuarantee::ExactlyOnceV2 => IsolationLevel::ReadCommitted,
    }
}

/// An instance's producer under EOS (`<client id>-producer`).
pub(crate) fn instance_producer(client_id: &str) -> String {
    format!("{client_id}-producer")
}

/// The instance's `transactional.id`: `<application.id>-<processId>-1`.
fn transactional_id(seed: u64, spec: &StreamsSpec, client_id: &str, starts: u32) -> String {
    let persistent = matches!(spec.op, StreamsOp::CountByKey { .. });
    let name = if persistent { format!("{client_id}#process") } else { format!("{client_id}#process-{starts}") };
    format!("{}-{}-1", spec.application_id, crate::uuid::Uuid::derived(seed, &name))
}

/// The producer settings under EOS: Streams' overrides and the instance's transactional id.
fn eos_producer_config(transactional_id: String) -> crate::config::ProducerConfig {
    crate::config::ProducerConfig {
        transactional_id: Some(transactional_id),
        transaction_timeout_ms: crate::sim::streams::EOS_TRANSACTION_TIMEOUT_MS,
        ..crate::sim::streams::producer_config()
    }
}

impl Sim {
    /// An application starting under exactly_once_v2: a transactional producer per
    /// instance, each calling `initTransactions()`; the guarantee traced.
    pub(super) fn add_streams_eos(&mut self, application_id: &str, guarantee: ProcessingGuarantee) {
        if guarantee == ProcessingGuarantee::AtLeastOnce {
            return;
        }
        self.out.emit(EventKind::Txn(crate::event::TxnEvent::ProcessingGuaranteeSet {
            application_id: application_id.to_string(),
            processing_guarantee: guarantee,
        }));
        let Some(i) = self.apps.streams.iter().position(|s| s.spec.application_id == application_id) else { return };
        let seed = self.out.seed();
        for client_id in self.apps.streams[i].spec.instance_ids() {
            let producer = instance_producer(&client_id);
            let id = transactional_id(seed, &self.apps.streams[i].spec, &client_id, 0);
            self.add_producer(&producer, eos_producer_config(id));
            let instance = EosInstance { producer, starts: 0, last_commit: self.out.now, dirty: false, ending: false };
            self.apps.streams[i].eos.insert(client_id, instance);
        }
    }

    /// `poll()` of a consumer — for a Streams instance under EOS first its commit, when one
    /// is due (`StreamThread.maybeCommit`): it then waits in `commitTransaction()` and polls
    /// when that returns.
    pub(super) fn handle_poll(&mut self, group: &str, client_id: &str, token: u64) {
        let now = self.out.now;
        if let Some(i) = self.apps.streams_index(group) {
            let interval = self.apps.streams[i].spec.commit_interval_ms;
            if let Some(e) = self.apps.streams[i].eos.get_mut(client_id) {
                if e.ending {
                    return;
                }
                if e.dirty && now >= e.last_commit.plus_ms(interval) {
                    let producer = e.producer.clone();
                    let Some(m) = self.consumers.groups.get(group).and_then(|g| g.member(client_id)) else { return };
                    let offsets: Vec<(TopicPartition, u64)> = m.positions.iter().map(|(tp, o)| (tp.clone(), *o)).collect();
                    let (member_id, generation) = (m.member_id.clone(), m.generation);
                    let in_txn = self
                        .clients
                        .producers
                        .get(&producer)
                        .and_then(|p| p.txn.as_ref())
                        .is_some_and(|t| t.state == ClientTxnState::InTransaction);
                    if in_txn {
                        e.ending = true;
                        if !offsets.is_empty() {
                            self.clients.txn_send_offsets(&producer, group, member_id, generation, offsets, &self.cluster, &mut self.out);
                        }
                        self.clients.txn_end(&producer, true, &self.cluster, &mut self.out);
                        return;
                    }
                }
            }
        }
        self.consumers.poll(group, client_id, token, &self.cluster, &mut self.out)
    }

    /// After an event of `producer`: a Streams instance's transaction that became abortable
    /// is aborted.
    pub(super) fn handle_streams_producer(&mut self, producer: &str) {
        if self.apps.streams.is_empty() {
            return;
        }
        let abortable =
            self.clients.producers.get(producer).and_then(|p| p.txn.as_ref()).is_some_and(|t| t.state == ClientTxnState::AbortableError);
        let Some(e) = self.apps.streams.iter_mut().flat_map(|a| a.eos.values_mut()).find(|e| e.producer == producer) else { return };
        if abortable {
            e.ending = true;
            self.clients.txn_end(producer, false, &self.cluster, &mut self.out);
        }
    }
}

impl Apps {
    /// The producer an instance sends through, under EOS: its own, beginning a transaction
    /// if none is open; `None` under at_least_once (the shared producer).
    pub(super) fn eos_producer_for_send(
        &mut self,
        index: usize,
        client_id: &str,
        clients: &mut Clients,
        out: &mut Driver,
    ) -> Option<String> {
        let e = self.streams.get_mut(index)?.eos.get_mut(client_id)?;
        e.dirty = true;
        let ready = clients.producers.get(&e.producer).and_then(|p| p.txn.as_ref()).is_some_and(|t| t.state == ClientTxnState::Ready);
        if ready {
            clients.txn_begin(&e.producer, out);
        }
        Some(e.producer.clone())
    }

    /// A transactional producer's commit or abort returned: the instance whose producer
    /// it is polls again. After an abort it goes back to the group's committed offsets and
    /// its stores are restored from their changelogs before it processes again.
    pub(super) fn streams_transaction_ended(
        &mut self,
        producer: &str,
        commit: bool,
        cluster: &Cluster,
        clients: &mut Clients,
        consumers: &mut Consumers,
        out: &mut Driver,
    ) {
        let _ = clients;
        let now = out.now;
        for app in &mut self.streams {
            let group = app.spec.application_id.clone();
            let Some((client_id, e)) = app.eos.iter_mut().find(|(_, e)| e.producer == producer) else { continue };
            let client_id = client_id.clone();
            e.ending = false;
            e.dirty = false;
            e.last_commit = now;
            if !commit {
                for store in app.stores.values_mut() {
                    if store.owner.as_ref().is_some_and(|o| o.0 == client_id) {
                        store.owner = None;
                    }
                }
                consumers.rewind_to_committed(&group, &client_id, cluster, out);
            }
            if let Some(m) = consumers.groups.get(&group).and_then(|g| g.member(&client_id)) {
                if m.phase != crate::group::Phase::Crashed && m.processing.is_empty() && !m.paused {
                    let token = m.token;
                    out.at(now, group::consume::ConsumePending::Poll { group: group.into(), client_id: client_id.into(), token });
                }
            }
            return;
        }
    }

    /// A Streams instance crashed: under EOS its producer dies with it (its open
    /// transaction stays open at the coordinator).
    pub(super) fn streams_member_crashed(&mut self, group: &str, client_id: &str, clients: &mut Clients, out: &mut Driver) {
        let Some(e) = self.streams.iter_mut().find(|a| a.spec.application_id == group).and_then(|a| a.eos.get_mut(client_id)) else {
            return;
        };
        e.ending = false;
        e.dirty = false;
        if clients.producers.get(&e.producer).and_then(|p| p.txn.as_ref()).is_some_and(|t| t.state != ClientTxnState::Crashed) {
            clients.crash_producer(&e.producer, out);
        }
    }

    /// A crashed Streams instance starts again: under EOS a new producer instance calls
    /// `initTransactions()` — with the same transactional id (fencing and aborting the old
    /// transaction at once) when the process id is kept, else with a new one.
    pub(super) fn streams_member_restarted(
        &mut self,
        group: &str,
        client_id: &str,
        cluster: &Cluster,
        clients: &mut Clients,
        out: &mut Driver,
    ) {
        let seed = out.seed();
        let now = out.now;
        let Some(app) = self.streams.iter_mut().find(|a| a.spec.application_id == group) else { return };
        let spec = app.spec.clone();
        let Some(e) = app.eos.get_mut(client_id) else { return };
        if clients.producers.get(&e.producer).and_then(|p| p.txn.as_ref()).is_none_or(|t| t.state != ClientTxnState::Crashed) {
            return;
        }
        e.starts += 1;
        e.last_commit = now;
        let id = transactional_id(seed, &spec, client_id, e.starts);
        if let Some(p) = clients.producers.get_mut(&e.producer) {
            p.config.transactional_id = Some(id.clone());
            if let Some(t) = p.txn.as_mut() {
                t.transactional_id = id;
            }
        }
        clients.restart_producer(&e.producer, cluster, out);
    }

    /// `processing.guarantee` changes: the application restarts with it — each running
    /// instance leaves its group (under at_least_once committing its positions; under EOS
    /// aborting its open transaction) and joins again with Streams' settings for the new
    /// guarantee; under EOS each gets its transactional producer.
    pub(super) fn set_processing_guarantee(
        &mut self,
        application_id: &str,
        guarantee: ProcessingGuarantee,
        cluster: &Cluster,
        clients: &mut Clients,
        consumers: &mut Consumers,
        out: &mut Driver,
    ) {
        let seed = out.seed();
        let now = out.now;
        let Some(app) = self.streams.iter_mut().find(|a| a.spec.application_id == application_id) else { return };
        if app.spec.processing_guarantee == guarantee {
            return;
        }
        // Producers of the old guarantee: an open transaction is aborted.
        for e in app.eos.values() {
            let open =
                clients.producers.get(&e.producer).and_then(|p| p.txn.as_ref()).is_some_and(|t| t.state == ClientTxnState::InTransaction);
            if open {
                clients.txn_end(&e.producer, false, cluster, out);
            }
        }
        let default_interval = match app.spec.processing_guarantee {
            ProcessingGuarantee::AtLeastOnce => 30_000,
            ProcessingGuarantee::ExactlyOnceV2 => crate::sim::streams::EOS_COMMIT_INTERVAL_MS,
        };
        if app.spec.commit_interval_ms == default_interval {
            app.spec.commit_interval_ms = match guarantee {
                ProcessingGuarantee::AtLeastOnce => 30_000,
                ProcessingGuarantee::ExactlyOnceV2 => crate::sim::streams::EOS_COMMIT_INTERVAL_MS,
            };
        }
        app.spec.processing_guarantee = guarantee;
        app.eos = VecMap::new();
        for s in app.stores.values_mut() {
            s.owner = None;
        }
        out.emit(EventKind::Txn(crate::event::TxnEvent::ProcessingGuaranteeSet {
            application_id: application_id.to_string(),
            processing_guarantee: guarantee,
        }));
        let spec = app.spec.clone();
        if guarantee == ProcessingGuarantee::ExactlyOnceV2 {
            for client_id in spec.instance_ids() {
                let producer = instance_producer(&client_id);
                let id = transactional_id(seed, &spec, &client_id, 1);
                match clients.producers.get_mut(&producer) {
                    Some(p) => {
                        p.config = eos_producer_config(id.clone());
                        p.txn = Some(crate::txn::TxnClient::new(id));
                    }
                    None => {
                        clients.producers.insert(producer.clone(), crate::producer::Producer::new(&producer, eos_producer_config(id)));
                    }
                }
                clients.txn_init(&producer, cluster, out);
                app.eos.insert(client_id, EosInstance { producer, starts: 1, last_commit: now, dirty: false, ending: false });
            }
        }
        if let Some(g) = consumers.groups.get_mut(application_id) {
            g.config.isolation_level = isolation_for(guarantee);
        }
        let running: Vec<String> = consumers
            .groups
            .get(application_id)
            .map(|g| g.members.iter().filter(|m| m.phase != crate::group::Phase::Crashed).map(|m| m.client_id.to_string()).collect())
            .unwrap_or_default();
        for client_id in running {
            consumers.leave(application_id, &client_id, cluster, out);
            let member = crate::command::MemberSpec {
                config: crate::sim::streams::consumer_config(&spec),
                ..crate::command::MemberSpec::new(client_id)
            };
            consumers.join(application_id, member, cluster, out);
        }
    }
}
