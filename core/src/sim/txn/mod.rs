//! Transactions (KIP-98, KIP-447, KIP-890 with transaction version 2, Kafka 4.x): the
//! transaction coordinators as one owner ([`Transactions`], `coordinator.rs`), the
//! transactional producer's side (`client.rs`, on [`Clients`]), the messages between
//! them, the partition leaders (`cluster/txn.rs`) and the group coordinators
//! (`group/txn.rs`) — [`TxnPending`] — and the feature's commands.
//!
//! The coordinator of a `transactional.id` is the leader of its `__transaction_state`
//! partition (`Cluster::txn_coordinator_of`), placed and elected like `__consumer_offsets`'
//! (`cluster/mod.rs`, `Internal`); a failover keeps the coordinator's state (Kafka reloads
//! it from the topic, whose records the sandbox does not store).

use super::*;
use crate::command::{TxnCommand, TxnOperation, TxnRefusal};
use crate::event::{TxnError, TxnEvent, TxnRequest};
use crate::record::{Control, TxnTag};
use crate::sim::produce::WireBatch;
use crate::txn::{ClientTxnState, TxnMetadata, TxnPartition};
use crate::vecmap::VecSet;

pub(super) mod client;
pub(super) mod coordinator;
pub(in crate::sim) mod fetch;

/// The transaction coordinators' state: each `transactional.id`'s [`TxnMetadata`], the
/// producer ids handed out, the abort scan.
#[derive(Clone, Debug, Default)]
pub(crate) struct Transactions {
    pub(crate) ids: VecMap<String, TxnMetadata>,
    next_producer_id: u64,
    scan_scheduled: bool,
}

/// What happens once the coordinator has added a partition to a transaction (KIP-890:
/// the request that needed it goes on).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum AfterAdd {
    /// A partition leader's held Produce request.
    Produce { producer: Name, broker: BrokerId, request: u64, acks: Acks, timeout_ms: u64, batches: Vec<WireBatch> },
    /// A group coordinator's held TxnOffsetCommit.
    Offsets { group: String, producer: String, incarnation: u64, offsets: Vec<(TopicPartition, u64)> },
}

/// Something scheduled for transactions: one of `Pending`'s features.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum TxnPending {
    /// `initTransactions()`: InitProducerId reaches the coordinator.
    InitPidArrive { producer: String, incarnation: u64, transactional_id: String, timeout_ms: u64 },
    /// Its answer reaches the producer.
    InitPidResponse { producer: String, incarnation: u64, result: Result<TxnTag, TxnError>, coordinator: BrokerId },
    /// EndTxn reaches the coordinator.
    EndTxnArrive { producer: String, incarnation: u64, transactional_id: String, tag: TxnTag, commit: bool },
    /// Its answer reaches the producer (the bumped epoch, transaction version 2).
    EndTxnResponse { producer: String, incarnation: u64, commit: bool, result: Result<TxnTag, TxnError> },
    /// A transactional request is sent again after `retry.backoff.ms`.
    ClientRetry { producer: String, incarnation: u64, request: TxnRequest },
    /// A partition leader's or group coordinator's AddPartitionsToTxn reaches the coordinator.
    AddPartitionsArrive { transactional_id: String, tag: TxnTag, partitions: Vec<TxnPartition>, then: Box<AfterAdd> },
    /// Its answer comes back.
    AddPartitionsResponse {
        transactional_id: String,
        tag: TxnTag,
        partitions: Vec<TxnPartition>,
        result: Result<(), TxnError>,
        then: Box<AfterAdd>,
    },
    /// WriteTxnMarkers reaches a partition's leader (or a group's coordinator).
    MarkerArrive { transactional_id: String, tag: TxnTag, control: Control, partition: TxnPartition, broker: BrokerId },
    /// Its answer reaches the transaction coordinator.
    MarkerResponse { transactional_id: String, partition: TxnPartition, ok: bool, epoch: u16 },
    /// The coordinator sends a marker again.
    MarkerRetry { transactional_id: String, partition: TxnPartition, epoch: u16 },
    /// A leader gives up waiting for a marker's HW.
    MarkerTimeout { id: RecordId },
    /// TxnOffsetCommit reaches the group coordinator.
    TxnOffsetCommitArrive {
        group: String,
        producer: String,
        incarnation: u64,
        transactional_id: String,
        tag: TxnTag,
        member_id: String,
        generation: i32,
        offsets: Vec<(TopicPartition, u64)>,
    },
    /// Its answer reaches the producer.
    TxnOffsetCommitResponse { producer: String, incarnation: u64, result: Result<(), TxnError> },
    /// The coordinators' scan for transactions open past their timeout
    /// (`transaction.abort.timed.out.transaction.cleanup.interval.ms`).
    AbortScan,
}

impl From<TxnPending> for Pending {
    fn from(p: TxnPending) -> Self {
        Pending::Txn(p)
    }
}

/// The seed stream `__transaction_state` is placed with: not the run's RNG, so a run
/// without transactions draws exactly what it drew before the topic existed.
pub(in crate::sim) fn placement_rng(seed: u64) -> crate::rng::SimRng {
    crate::rng::SimRng::new(seed ^ 0x5f5f_7472_616e_7361)
}

impl Sim {
    /// Applies a scheduled event of transactions: each message to the owner it reaches.
    pub(super) fn handle_txn(&mut self, pending: TxnPending) {
        let out = &mut self.out;
        match pending {
            TxnPending::InitPidArrive { producer, incarnation, transactional_id, timeout_ms } => {
                self.txns.init_pid_arrive(producer, incarnation, transactional_id, timeout_ms, &self.cluster, out)
            }
            TxnPending::InitPidResponse { producer, incarnation, result, coordinator } => {
                self.clients.init_pid_response(&producer, incarnation, result, coordinator, &self.cluster, out)
            }
            TxnPending::EndTxnArrive { producer, incarnation, transactional_id, tag, commit } => {
                self.txns.end_txn_arrive(producer, incarnation, transactional_id, tag, commit, &self.cluster, out)
            }
            TxnPending::EndTxnResponse { producer, incarnation, commit, result } => {
                let ended = self.clients.end_txn_response(&producer, incarnation, commit, result, &self.cluster, out);
                if ended {
                    self.apps.streams_transaction_ended(&producer, commit, &self.cluster, &mut self.clients, &mut self.consumers, out);
                }
                self.handle_streams_producer(&producer);
            }
            TxnPending::ClientRetry { producer, incarnation, request } => {
                self.clients.txn_retry(&producer, incarnation, request, &self.cluster, out)
            }
            TxnPending::AddPartitionsArrive { transactional_id, tag, partitions, then } => {
                self.txns.add_partitions_arrive(transactional_id, tag, partitions, *then, &self.cluster, out)
            }
            TxnPending::AddPartitionsResponse { transactional_id, tag, partitions, result, then } => match *then {
                then @ AfterAdd::Produce { .. } => {
                    self.cluster.txn_verified(result, then, transactional_id, tag, partitions, &mut self.consumers, out)
                }
                then @ AfterAdd::Offsets { .. } => self.consumers.txn_offsets_added(result, then, transactional_id, tag, out),
            },
            TxnPending::MarkerArrive { transactional_id, tag, control, partition, broker } => match partition {
                TxnPartition::Topic { tp } => {
                    self.cluster.txn_marker_arrive(&tp, broker, transactional_id, tag, control, &mut self.consumers, out)
                }
                TxnPartition::Offsets { group } => {
                    let commit = control.kind == crate::record::ControlType::Commit;
                    self.consumers.txn_offsets_marker(&group, transactional_id, tag, commit, &self.cluster, out)
                }
            },
            TxnPending::MarkerResponse { transactional_id, partition, ok, epoch } => {
                self.txns.marker_response(&transactional_id, partition, ok, epoch, &self.cluster, out)
            }
            TxnPending::MarkerRetry { transactional_id, partition, epoch } => {
                self.txns.marker_retry(&transactional_id, partition, epoch, &self.cluster, out)
            }
            TxnPending::MarkerTimeout { id } => self.cluster.txn_marker_timeout(id, out),
            TxnPending::TxnOffsetCommitArrive { group, producer, incarnation, transactional_id, tag, member_id, generation, offsets } => {
                self.consumers.txn_offset_commit_arrive(
                    &group,
                    producer,
                    incarnation,
                    transactional_id,
                    tag,
                    &member_id,
                    generation,
                    offsets,
                    &self.cluster,
                    out,
                )
            }
            TxnPending::TxnOffsetCommitResponse { producer, incarnation, result } => {
                self.clients.txn_offsets_response(&producer, incarnation, result, &self.cluster, out);
                self.handle_streams_producer(&producer);
            }
            TxnPending::AbortScan => self.txns.abort_scan(&self.cluster, out),
        }
    }
}

/// A group starts: its `isolation.level` is traced when it is not the default.
pub(in crate::sim) fn group_created(group: &str, isolation_level: crate::config::IsolationLevel, out: &mut Driver) {
    if !isolation_level.is_read_uncommitted() {
        out.emit(EventKind::Txn(TxnEvent::IsolationLevelSet { group: group.to_string(), isolation_level }));
    }
}

/// The transactional producer's state now, for a refusal.
fn state_of(sim: &Sim, producer: &str) -> Result<ClientTxnState, CommandError> {
    let Some(p) = sim.clients.producers.get(producer) else { return Err(CommandError::UnknownProducer(producer.to_string())) };
    match &p.txn {
        Some(t) => Ok(t.state),
        None => Err(CommandError::Txn(TxnRefusal::NotTransactional { producer: producer.to_string() })),
    }
}

/// `operation` in state `state` as `TransactionManager` allows it.
pub(in crate::sim) fn allowed(producer: &str, operation: TxnOperation, state: ClientTxnState) -> Result<(), CommandError> {
    if operation.allowed_in().contains(&state) {
        Ok(())
    } else {
        Err(CommandError::Txn(TxnRefusal::WrongState { producer: producer.to_string(), operation, state }))
    }
}

/// The checks of a producer's settings that the scenario checks too, for a producer
/// started while the cluster runs: each numeric setting within its `limits` row.
pub(crate) fn check_producer_settings(producer: &str, c: &ProducerConfig) -> Result<(), CommandError> {
    for (setting, value, row) in [
        ("linger_ms", c.linger_ms, &limits::LINGER_MS),
        ("retry_backoff_ms", c.retry_backoff_ms, &limits::RETRY_BACKOFF_MS),
        ("retry_backoff_max_ms", c.retry_backoff_max_ms, &limits::RETRY_BACKOFF_MAX_MS),
        ("request_timeout_ms", c.request_timeout_ms, &limits::REQUEST_TIMEOUT_MS),
        ("delivery_timeout_ms", c.delivery_timeout_ms, &limits::DELIVERY_TIMEOUT_MS),
        ("batch_size", u64::from(c.batch_size), &limits::BATCH_SIZE),
        ("buffer_memory", c.buffer_memory, &limits::BUFFER_MEMORY),
        ("max_block_ms", c.max_block_ms, &limits::MAX_BLOCK_MS),
        ("transaction_timeout_ms", c.transaction_timeout_ms, &limits::TRANSACTION_TIMEOUT_MS),
    ] {
        if !row.allows(value) {
            let allowed = Allowed::Range { min: row.min, max: row.max };
            return Err(CommandError::Txn(TxnRefusal::ProducerSetting { producer: producer.to_string(), setting, value, allowed }));
        }
    }
    if c.max_in_flight_requests_per_connection == 0 {
        let allowed = Allowed::AtLeast(1);
        return Err(CommandError::Txn(TxnRefusal::ProducerSetting {
            producer: producer.to_string(),
            setting: "max_in_flight_requests_per_connection",
            value: 0,
            allowed,
        }));
    }
    if c.buffer_memory < u64::from(c.batch_size) {
        let allowed = Allowed::AtLeast(u64::from(c.batch_size));
        return Err(CommandError::Txn(TxnRefusal::ProducerSetting {
            producer: producer.to_string(),
            setting: "buffer_memory",
            value: c.buffer_memory,
            allowed,
        }));
    }
    Ok(())
}

/// The checks of a producer's transactional settings (`ProducerConfig`: a
/// `transactional.id` needs idempotence; `transaction.timeout.ms` at most the brokers'
/// `transaction.max.timeout.ms`, else INVALID_TRANSACTION_TIMEOUT).
pub(crate) fn check_transactional(producer: &str, config: &ProducerConfig, cluster: &ClusterConfig) -> Result<(), CommandError> {
    if config.transactional_id.is_none() {
        return Ok(());
    }
    if config.acks != Acks::All || config.enable_idempotence == Some(false) || !config.idempotent() {
        return Err(CommandError::Txn(TxnRefusal::NeedsIdempotence { producer: producer.to_string() }));
    }
    if config.transaction_timeout_ms > cluster.transaction_max_timeout_ms || config.transaction_timeout_ms == 0 {
        return Err(CommandError::Txn(TxnRefusal::TimeoutAboveMax {
            producer: producer.to_string(),
            timeout_ms: config.transaction_timeout_ms,
            max_ms: cluster.transaction_max_timeout_ms,
        }));
    }
    Ok(())
}

/// Commands of transactions: checked against the cluster, then executed (the one line
/// `Sim::validate` and `Sim::execute` give this feature).
impl Sim {
    pub(crate) fn validate_txn_command(&self, command: &TxnCommand) -> Result<(), CommandError> {
        match command {
            TxnCommand::BeginTransaction { producer } => allowed(producer, TxnOperation::Begin, state_of(self, producer)?),
            TxnCommand::CommitTransaction { producer } => allowed(producer, TxnOperation::Commit, state_of(self, producer)?),
            TxnCommand::AbortTransaction { producer } => allowed(producer, TxnOperation::Abort, state_of(self, producer)?),
            TxnCommand::SendOffsetsToTransaction { producer, group, client_id } => {
                allowed(producer, TxnOperation::SendOffsets, state_of(self, producer)?)?;
                let Some(g) = self.consumers.groups.get(group) else { return Err(CommandError::UnknownGroup(group.clone())) };
                let Some(m) = g.member(client_id) else {
                    return Err(CommandError::UnknownMember { group: group.clone(), client_id: client_id.clone() });
                };
                if m.positions.is_empty() {
                    return Err(CommandError::Txn(TxnRefusal::NoPositions { group: group.clone(), client_id: client_id.clone() }));
                }
                Ok(())
            }
            TxnCommand::CrashProducer { producer } => match state_of(self, producer)? {
                ClientTxnState::Crashed => Err(CommandError::Txn(TxnRefusal::WrongState {
                    producer: producer.clone(),
                    operation: TxnOperation::Send,
                    state: ClientTxnState::Crashed,
                })),
                _ => Ok(()),
            },
            TxnCommand::RestartProducer { producer } => match state_of(self, producer)? {
                ClientTxnState::Crashed => Ok(()),
                _ => Err(CommandError::Txn(TxnRefusal::NotCrashed { producer: producer.clone() })),
            },
            TxnCommand::AddProducer { producer, config } => {
                check_name(NameOf::Producer, producer)?;
                if self.clients.producers.contains_key(producer) {
                    return Err(CommandError::Txn(TxnRefusal::DuplicateProducer { producer: producer.clone() }));
                }
                if self.clients.producers.len() >= limits::MAX_PRODUCERS {
                    return Err(CommandError::Txn(TxnRefusal::TooManyProducers));
                }
                if let Some(id) = &config.transactional_id {
                    check_name(NameOf::TransactionalId, id)?;
                }
                check_producer_settings(producer, config)?;
                check_transactional(producer, config, &self.cluster.config)
            }
            TxnCommand::SetIsolationLevel { group, .. } => {
                if self.consumers.groups.contains_key(group) {
                    Ok(())
                } else {
                    Err(CommandError::UnknownGroup(group.clone()))
                }
            }
            TxnCommand::SetProcessingGuarantee { application_id, .. } => {
                if self.apps.streams.iter().any(|s| &s.spec.application_id == application_id) {
                    Ok(())
                } else {
                    Err(CommandError::Txn(TxnRefusal::UnknownStreamsApp { application_id: application_id.clone() }))
                }
            }
        }
    }

    pub(super) fn execute_txn_command(&mut self, command: TxnCommand) {
        let out = &mut self.out;
        match command {
            TxnCommand::BeginTransaction { producer } => self.clients.txn_begin(&producer, out),
            TxnCommand::CommitTransaction { producer } => self.clients.txn_end(&producer, true, &self.cluster, out),
            TxnCommand::AbortTransaction { producer } => self.clients.txn_end(&producer, false, &self.cluster, out),
            TxnCommand::SendOffsetsToTransaction { producer, group, client_id } => {
                let Some(m) = self.consumers.groups.get(&group).and_then(|g| g.member(&client_id)) else { return };
                let offsets: Vec<(TopicPartition, u64)> = m.positions.iter().map(|(tp, o)| (tp.clone(), *o)).collect();
                let (member_id, generation) = (m.member_id.clone(), m.generation);
                self.clients.txn_send_offsets(&producer, &group, member_id, generation, offsets, &self.cluster, out);
            }
            TxnCommand::CrashProducer { producer } => self.clients.crash_producer(&producer, out),
            TxnCommand::RestartProducer { producer } => self.clients.restart_producer(&producer, &self.cluster, out),
            TxnCommand::AddProducer { producer, config } => {
                self.clients.producers.insert(producer.clone(), Producer::new(&producer, config));
                out.emit(EventKind::Txn(TxnEvent::ProducerAdded { producer: producer.clone() }));
                self.clients.txn_init(&producer, &self.cluster, out);
            }
            TxnCommand::SetIsolationLevel { group, isolation_level } => {
                if let Some(g) = self.consumers.groups.get_mut(&group) {
                    g.config.isolation_level = isolation_level;
                    out.emit(EventKind::Txn(TxnEvent::IsolationLevelSet { group, isolation_level }));
                }
            }
            TxnCommand::SetProcessingGuarantee { application_id, processing_guarantee } => self.apps.set_processing_guarantee(
                &application_id,
                processing_guarantee,
                &self.cluster,
                &mut self.clients,
                &mut self.consumers,
                out,
            ),
        }
    }
}
