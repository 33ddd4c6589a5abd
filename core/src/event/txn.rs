//! Transactions' events (KIP-98, KIP-447, KIP-890): a transactional producer's life
//! (InitProducerId, begin, commit, abort, fencing, crash), its coordinator's states and
//! markers, the group coordinator's transactional offsets, and what read_committed
//! consumers skip.

use super::{committed, member, part, Category, Jump, Subject};
use crate::config::{IsolationLevel, ProcessingGuarantee};
use crate::record::{BrokerId, ControlType, TopicPartition};
use serde::{Deserialize, Serialize};

/// Errors a transactional producer meets (Kafka's `Errors`), as the trace writes them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum TxnError {
    /// No transaction coordinator is reachable (its `__transaction_state` partition has no
    /// live leader, or too few in-sync replicas to log): retried.
    CoordinatorNotAvailable,
    /// The previous transaction is still completing (its markers are being written), or
    /// an open one is being aborted for a new instance: retried after a backoff.
    ConcurrentTransactions,
    /// A newer instance (or the coordinator's timeout) bumped the epoch: fatal, the
    /// producer must be closed (`ProducerFencedException`).
    ProducerFenced,
    /// A partition leader saw a newer epoch of this producer id (its transaction was
    /// aborted by the coordinator): abortable (`InvalidProducerEpochException`, KIP-588).
    InvalidProducerEpoch,
    /// The partition is not in the transaction (KIP-890's verification failed): abortable.
    TransactionAbortable,
    /// EndTxn that does not fit the coordinator's state (commit after an abort): fatal.
    InvalidTxnState,
    /// The coordinator does not know this producer id for the transactional id.
    InvalidProducerIdMapping,
    /// `transaction.timeout.ms` above `transaction.max.timeout.ms`: fatal at `initTransactions()`.
    InvalidTransactionTimeout,
    /// `sendOffsetsToTransaction` with group metadata of an older generation: the consumer
    /// is no longer in the group (`CommitFailedException`, abortable).
    IllegalGeneration,
    /// `sendOffsetsToTransaction` with a member id the group does not know: abortable.
    UnknownMemberId,
    /// An OffsetFetch with `requireStable` for a partition whose offsets a transaction
    /// still holds pending: retried until the transaction's marker arrives.
    UnstableOffsetCommit,
    /// A send or commit of a producer whose transaction state forbids it (fatal state,
    /// crashed): the record is refused.
    TransactionAborted,
}

impl TxnError {
    /// Kafka's name, as the trace writes it.
    pub fn name(self) -> &'static str {
        match self {
            TxnError::CoordinatorNotAvailable => "COORDINATOR_NOT_AVAILABLE",
            TxnError::ConcurrentTransactions => "CONCURRENT_TRANSACTIONS",
            TxnError::ProducerFenced => "PRODUCER_FENCED",
            TxnError::InvalidProducerEpoch => "INVALID_PRODUCER_EPOCH",
            TxnError::TransactionAbortable => "TRANSACTION_ABORTABLE",
            TxnError::InvalidTxnState => "INVALID_TXN_STATE",
            TxnError::InvalidProducerIdMapping => "INVALID_PRODUCER_ID_MAPPING",
            TxnError::InvalidTransactionTimeout => "INVALID_TRANSACTION_TIMEOUT",
            TxnError::IllegalGeneration => "ILLEGAL_GENERATION",
            TxnError::UnknownMemberId => "UNKNOWN_MEMBER_ID",
            TxnError::UnstableOffsetCommit => "UNSTABLE_OFFSET_COMMIT",
            TxnError::TransactionAborted => "TRANSACTION_ABORTED",
        }
    }

    /// Whether the producer must be closed (`TransactionManager`'s fatal errors): fenced,
    /// an invalid state, an invalid timeout.
    pub fn is_fatal(self) -> bool {
        matches!(self, TxnError::ProducerFenced | TxnError::InvalidTxnState | TxnError::InvalidTransactionTimeout)
    }
}

/// The transaction coordinator's states of a `transactional.id` (`TransactionState`, ids 0–7).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TxnState {
    /// Initialized, no transaction yet (or the epoch was just bumped by InitProducerId).
    Empty,
    /// A transaction is open: partitions have been added to it.
    Ongoing,
    /// Commit decided and logged; markers are being written.
    PrepareCommit,
    /// Abort decided and logged; markers are being written.
    PrepareAbort,
    /// Every COMMIT marker written.
    CompleteCommit,
    /// Every ABORT marker written.
    CompleteAbort,
    /// An open transaction is being fenced (a new instance, or the timeout) before its abort.
    PrepareEpochFence,
}

impl TxnState {
    /// Kafka's name of the state.
    pub fn name(self) -> &'static str {
        match self {
            TxnState::Empty => "Empty",
            TxnState::Ongoing => "Ongoing",
            TxnState::PrepareCommit => "PrepareCommit",
            TxnState::PrepareAbort => "PrepareAbort",
            TxnState::CompleteCommit => "CompleteCommit",
            TxnState::CompleteAbort => "CompleteAbort",
            TxnState::PrepareEpochFence => "PrepareEpochFence",
        }
    }
}

/// A partition in a transaction: a topic's, or a group's `__consumer_offsets` partition
/// (offsets sent with `sendOffsetsToTransaction`).
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum TxnPartition {
    /// A partition of a topic.
    Topic {
        /// The partition.
        tp: TopicPartition,
    },
    /// The `__consumer_offsets` partition of a group: its marker makes the group's pending
    /// transactional offsets committed (or drops them).
    Offsets {
        /// The group's id.
        group: String,
    },
}

/// Where a transactional producer is (`TransactionManager.State`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ClientTxnState {
    /// `initTransactions()` not done yet (no coordinator reached so far).
    Uninitialized,
    /// InitProducerId on its way (or retried).
    Initializing,
    /// Has a producer id and epoch, no transaction open.
    Ready,
    /// Between `beginTransaction()` and commit or abort.
    InTransaction,
    /// `commitTransaction()` called: flushing, then EndTxn(COMMIT).
    Committing,
    /// `abortTransaction()` called: unsent batches dropped, then EndTxn(ABORT).
    Aborting,
    /// A send or commit failed with an abortable error: only `abortTransaction()` works.
    AbortableError,
    /// Fenced (PRODUCER_FENCED) or another fatal error: the producer must be closed.
    FatalError,
    /// The producer's process is gone (the sandbox's crash).
    Crashed,
}

impl ClientTxnState {
    /// As the trace and the page write it.
    pub fn name(self) -> &'static str {
        match self {
            ClientTxnState::Uninitialized => "uninitialized",
            ClientTxnState::Initializing => "initializing",
            ClientTxnState::Ready => "ready",
            ClientTxnState::InTransaction => "in_transaction",
            ClientTxnState::Committing => "committing",
            ClientTxnState::Aborting => "aborting",
            ClientTxnState::AbortableError => "abortable_error",
            ClientTxnState::FatalError => "fatal_error",
            ClientTxnState::Crashed => "crashed",
        }
    }
}

/// Which transactional request an error answered.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TxnRequest {
    /// `initTransactions()`: FindCoordinator, then InitProducerId.
    InitProducerId,
    /// A partition leader's implicit AddPartitionsToTxn for a produce (transaction version 2).
    AddPartitions,
    /// `sendOffsetsToTransaction()`: TxnOffsetCommit to the group coordinator.
    TxnOffsetCommit,
    /// `commitTransaction()` / `abortTransaction()`.
    EndTxn,
}

impl TxnRequest {
    /// As the trace writes it.
    pub fn name(self) -> &'static str {
        match self {
            TxnRequest::InitProducerId => "init_producer_id",
            TxnRequest::AddPartitions => "add_partitions",
            TxnRequest::TxnOffsetCommit => "txn_offset_commit",
            TxnRequest::EndTxn => "end_txn",
        }
    }
}

/// Why the coordinator ended a transaction.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EndCause {
    /// The producer called `commitTransaction()` or `abortTransaction()`.
    Client,
    /// A new instance with the same `transactional.id` called `initTransactions()`: the
    /// open transaction is fenced and aborted.
    NewInstance,
    /// Open longer than `transaction.timeout.ms` when the coordinator's scan looked.
    Timeout,
}

impl EndCause {
    /// As the trace writes it.
    pub fn name(self) -> &'static str {
        match self {
            EndCause::Client => "client",
            EndCause::NewInstance => "new_instance",
            EndCause::Timeout => "timeout",
        }
    }
}

/// Transactions: what happened, with what it touched (one kind of [`super::EventKind`]).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
#[repr(isize)]
pub enum TxnEvent {
    /// `initTransactions()` completed: the coordinator gave the producer its id and epoch.
    ProducerInitialized {
        /// The producer (its `client.id`).
        producer: String,
        /// Its `transactional.id`.
        transactional_id: String,
        /// The producer id (the same for every instance of the transactional id).
        producer_id: u64,
        /// The epoch this instance writes with.
        epoch: u16,
        /// The coordinator: the leader of the id's `__transaction_state` partition.
        coordinator: BrokerId,
    } = 100,
    /// `beginTransaction()`: no request; the producer may send.
    TransactionBegun {
        /// The producer.
        producer: String,
        /// Its `transactional.id`.
        transactional_id: String,
    } = 101,
    /// The coordinator added partitions to the open transaction (for a partition leader's
    /// produce or a group coordinator's TxnOffsetCommit, transaction version 2); the first
    /// makes the transaction Ongoing and starts its timeout.
    PartitionsAddedToTxn {
        /// The `transactional.id`.
        transactional_id: String,
        /// What was added.
        partitions: Vec<TxnPartition>,
        /// The coordinator.
        coordinator: BrokerId,
    } = 102,
    /// `commitTransaction()` or `abortTransaction()` called: the producer flushes (or drops
    /// its unsent batches), then sends EndTxn.
    EndTxnRequested {
        /// The producer.
        producer: String,
        /// Its `transactional.id`.
        transactional_id: String,
        /// Commit (true) or abort.
        commit: bool,
    } = 103,
    /// The coordinator logged PrepareCommit or PrepareAbort and answered: the outcome is
    /// decided, markers follow. With transaction version 2 the epoch is bumped here.
    TxnPrepared {
        /// The `transactional.id`.
        transactional_id: String,
        /// The producer id.
        producer_id: u64,
        /// The epoch the markers carry.
        epoch: u16,
        /// Commit (true) or abort.
        commit: bool,
        /// Who ended it.
        cause: EndCause,
        /// The partitions that get a marker.
        partitions: Vec<TxnPartition>,
    } = 104,
    /// The producer's commit or abort returned (EndTxn answered): it is ready for the next
    /// transaction, with the epoch the coordinator gave.
    TxnEnded {
        /// The producer.
        producer: String,
        /// Its `transactional.id`.
        transactional_id: String,
        /// Commit (true) or abort.
        commit: bool,
        /// Its epoch from now on.
        epoch: u16,
    } = 105,
    /// A partition leader appended a transaction marker (WriteTxnMarkers): a control record
    /// at its own offset.
    MarkerWritten {
        /// The `transactional.id`.
        transactional_id: String,
        /// The topic.
        topic: String,
        /// The partition.
        partition: u32,
        /// The marker's offset.
        offset: u64,
        /// COMMIT or ABORT.
        kind: ControlType,
        /// The producer id.
        producer_id: u64,
        /// The epoch it carries.
        epoch: u16,
        /// The leader that wrote it.
        broker: BrokerId,
    } = 106,
    /// The group coordinator applied a marker to a group's offsets: the transaction's
    /// pending offsets are committed (COMMIT) or dropped (ABORT).
    TxnOffsetsCompleted {
        /// The group.
        group: String,
        /// The `transactional.id`.
        transactional_id: String,
        /// Commit (true) or abort.
        commit: bool,
        /// The offsets concerned.
        offsets: Vec<(TopicPartition, u64)>,
    } = 107,
    /// Every marker written: the coordinator logged CompleteCommit or CompleteAbort.
    TxnCompleted {
        /// The `transactional.id`.
        transactional_id: String,
        /// Commit (true) or abort.
        commit: bool,
        /// The state logged.
        state: TxnState,
    } = 108,
    /// The coordinator bumped the epoch of an open transaction before aborting it
    /// (PrepareEpochFence): a new instance called `initTransactions()`, or the timeout.
    EpochFenced {
        /// The `transactional.id`.
        transactional_id: String,
        /// The producer id.
        producer_id: u64,
        /// The new epoch: the old instance's writes now fail.
        epoch: u16,
        /// Why.
        cause: EndCause,
    } = 109,
    /// A transactional request failed; `retrying` when the producer (or the leader)
    /// tries again.
    TxnRequestFailed {
        /// The producer.
        producer: String,
        /// Its `transactional.id`.
        transactional_id: String,
        /// Which request.
        request: TxnRequest,
        /// The error.
        error: TxnError,
        /// Whether it is retried.
        retrying: bool,
    } = 110,
    /// The producer's transaction state changed to an error state: abortable (call
    /// `abortTransaction()`) or fatal (close it; fenced).
    TxnProducerFailed {
        /// The producer.
        producer: String,
        /// Its `transactional.id`.
        transactional_id: String,
        /// The error.
        error: TxnError,
        /// Its state now: `abortable_error` or `fatal_error`.
        state: ClientTxnState,
    } = 111,
    /// The group coordinator holds offsets sent in a transaction (TxnOffsetCommit): they
    /// count only once the transaction commits.
    TxnOffsetsPending {
        /// The group.
        group: String,
        /// The producer that sent them.
        producer: String,
        /// The offsets (the next offset to read, per partition).
        offsets: Vec<(TopicPartition, u64)>,
    } = 112,
    /// An OffsetFetch was answered UNSTABLE_OFFSET_COMMIT: a transaction holds pending
    /// offsets of these partitions, so the member waits and asks again.
    OffsetFetchUnstable {
        /// The group.
        group: String,
        /// The member.
        client_id: String,
        /// The partitions with pending transactional offsets.
        partitions: Vec<TopicPartition>,
    } = 113,
    /// A consumer's position moved past records `poll()` does not return: transaction
    /// markers and (read_committed) records of aborted transactions.
    RecordsSkipped {
        /// The group.
        group: String,
        /// The member.
        client_id: String,
        /// The partition.
        tp: TopicPartition,
        /// Its position before.
        from: u64,
        /// Its position after.
        to: u64,
        /// Aborted records skipped.
        aborted: u32,
        /// Markers skipped.
        markers: u32,
    } = 114,
    /// The coordinator's scan found a transaction open longer than its timeout.
    TxnTimedOut {
        /// The `transactional.id`.
        transactional_id: String,
        /// Its `transaction.timeout.ms`.
        timeout_ms: u64,
        /// How long it had been open.
        open_ms: u64,
    } = 115,
    /// A producer's process died: what it had not sent is gone; its open transaction
    /// stays open at the coordinator.
    ProducerCrashed {
        /// The producer.
        producer: String,
    } = 116,
    /// A producer started again (a new instance with the same `client.id` and
    /// `transactional.id`): it calls `initTransactions()` afresh.
    ProducerRestarted {
        /// The producer.
        producer: String,
    } = 117,
    /// A producer was started while the cluster runs.
    ProducerAdded {
        /// The producer.
        producer: String,
    } = 118,
    /// A group's `isolation.level` was set (at its creation when not the default, or
    /// switched).
    IsolationLevelSet {
        /// The group.
        group: String,
        /// read_committed or read_uncommitted.
        isolation_level: IsolationLevel,
    } = 119,
    /// A Kafka Streams application's `processing.guarantee` was set (at its start when not
    /// the default, or switched: its instances restart with it).
    ProcessingGuaranteeSet {
        /// The application's `application.id`.
        application_id: String,
        /// at_least_once or exactly_once_v2.
        processing_guarantee: ProcessingGuarantee,
    } = 120,
    /// A leader appended a transactional batch: its records belong to the producer id's
    /// open transaction on the partition until its marker.
    TxnRecordsAppended {
        /// The topic.
        topic: String,
        /// The partition.
        partition: u32,
        /// The producer id.
        producer_id: u64,
        /// The epoch the batch carries.
        epoch: u16,
        /// The records, in offset order.
        records: Vec<crate::record::RecordId>,
        /// The first record's offset.
        first_offset: u64,
    } = 121,
}

impl TxnEvent {
    /// This feature's part of [`EventKind::name`](super::EventKind::name).
    pub fn name(&self) -> &'static str {
        use TxnEvent as E;
        match self {
            E::ProducerInitialized { .. } => "ProducerInitialized",
            E::TransactionBegun { .. } => "TransactionBegun",
            E::PartitionsAddedToTxn { .. } => "PartitionsAddedToTxn",
            E::EndTxnRequested { .. } => "EndTxnRequested",
            E::TxnPrepared { .. } => "TxnPrepared",
            E::TxnEnded { .. } => "TxnEnded",
            E::MarkerWritten { .. } => "MarkerWritten",
            E::TxnOffsetsCompleted { .. } => "TxnOffsetsCompleted",
            E::TxnCompleted { .. } => "TxnCompleted",
            E::EpochFenced { .. } => "EpochFenced",
            E::TxnRequestFailed { .. } => "TxnRequestFailed",
            E::TxnProducerFailed { .. } => "TxnProducerFailed",
            E::TxnOffsetsPending { .. } => "TxnOffsetsPending",
            E::OffsetFetchUnstable { .. } => "OffsetFetchUnstable",
            E::RecordsSkipped { .. } => "RecordsSkipped",
            E::TxnTimedOut { .. } => "TxnTimedOut",
            E::ProducerCrashed { .. } => "ProducerCrashed",
            E::ProducerRestarted { .. } => "ProducerRestarted",
            E::ProducerAdded { .. } => "ProducerAdded",
            E::IsolationLevelSet { .. } => "IsolationLevelSet",
            E::ProcessingGuaranteeSet { .. } => "ProcessingGuaranteeSet",
            E::TxnRecordsAppended { .. } => "TxnRecordsAppended",
        }
    }

    /// This feature's part of [`EventKind::subjects`](super::EventKind::subjects).
    pub fn subjects(&self) -> Vec<Subject<'_>> {
        use Subject as S;
        use TxnEvent as E;
        match self {
            E::ProducerInitialized { producer, coordinator, .. } => vec![S::Producer(producer), S::Broker(*coordinator)],
            E::TransactionBegun { producer, .. }
            | E::EndTxnRequested { producer, .. }
            | E::TxnEnded { producer, .. }
            | E::TxnRequestFailed { producer, .. }
            | E::TxnProducerFailed { producer, .. }
            | E::ProducerCrashed { producer }
            | E::ProducerRestarted { producer }
            | E::ProducerAdded { producer } => vec![S::Producer(producer)],
            E::PartitionsAddedToTxn { partitions, coordinator, .. } => {
                let mut out = vec![S::Broker(*coordinator)];
                out.extend(txn_partitions(partitions));
                out
            }
            E::TxnPrepared { partitions, .. } => txn_partitions(partitions).collect(),
            E::MarkerWritten { topic, partition, broker, .. } => vec![part(topic, *partition), S::Broker(*broker)],
            E::TxnOffsetsCompleted { group, offsets, .. } => {
                let mut out = vec![S::Group(group)];
                out.extend(offsets.iter().map(|(tp, _)| part(&tp.topic, tp.partition)));
                out
            }
            E::TxnOffsetsPending { group, producer, offsets } => {
                let mut out = vec![S::Group(group), S::Producer(producer)];
                out.extend(offsets.iter().map(|(tp, _)| part(&tp.topic, tp.partition)));
                out
            }
            E::OffsetFetchUnstable { group, client_id, partitions } => {
                let mut out = vec![member(group, client_id)];
                out.extend(partitions.iter().map(|tp| part(&tp.topic, tp.partition)));
                out
            }
            E::RecordsSkipped { group, client_id, tp, .. } => vec![member(group, client_id), part(&tp.topic, tp.partition)],
            E::TxnCompleted { .. } | E::EpochFenced { .. } | E::TxnTimedOut { .. } => Vec::new(),
            E::IsolationLevelSet { group, .. } => vec![S::Group(group)],
            E::ProcessingGuaranteeSet { application_id, .. } => vec![S::StreamsApp(application_id)],
            E::TxnRecordsAppended { topic, partition, records, .. } => {
                let mut out = vec![part(topic, *partition)];
                out.extend(records.iter().map(|r| S::Record(*r)));
                out
            }
        }
    }

    /// This feature's part of [`EventKind::category`](super::EventKind::category).
    pub fn category(&self) -> Category {
        use TxnEvent as E;
        match self {
            E::ProducerInitialized { .. }
            | E::TransactionBegun { .. }
            | E::PartitionsAddedToTxn { .. }
            | E::EndTxnRequested { .. }
            | E::TxnPrepared { .. }
            | E::TxnEnded { .. }
            | E::TxnCompleted { .. }
            | E::ProducerAdded { .. } => Category::Produce,
            E::MarkerWritten { .. } | E::TxnRecordsAppended { .. } => Category::Replication,
            E::TxnOffsetsCompleted { .. } | E::TxnOffsetsPending { .. } | E::OffsetFetchUnstable { .. } | E::RecordsSkipped { .. } => {
                Category::Consume
            }
            E::EpochFenced { .. }
            | E::TxnRequestFailed { .. }
            | E::TxnProducerFailed { .. }
            | E::TxnTimedOut { .. }
            | E::ProducerCrashed { .. }
            | E::ProducerRestarted { .. } => Category::Fault,
            E::IsolationLevelSet { .. } | E::ProcessingGuaranteeSet { .. } => Category::Settings,
        }
    }

    /// This feature's part of [`EventKind::jump`](super::EventKind::jump).
    pub fn jump(&self) -> Option<Jump> {
        use TxnEvent as E;
        match self {
            E::ProducerCrashed { .. } | E::EpochFenced { .. } | E::TxnProducerFailed { .. } => Some(Jump::Fault),
            E::ProducerInitialized { .. }
            | E::TransactionBegun { .. }
            | E::PartitionsAddedToTxn { .. }
            | E::EndTxnRequested { .. }
            | E::TxnPrepared { .. }
            | E::TxnEnded { .. }
            | E::MarkerWritten { .. }
            | E::TxnOffsetsCompleted { .. }
            | E::TxnCompleted { .. }
            | E::TxnRequestFailed { .. }
            | E::TxnOffsetsPending { .. }
            | E::OffsetFetchUnstable { .. }
            | E::RecordsSkipped { .. }
            | E::TxnTimedOut { .. }
            | E::ProducerRestarted { .. }
            | E::ProducerAdded { .. }
            | E::IsolationLevelSet { .. }
            | E::ProcessingGuaranteeSet { .. }
            | E::TxnRecordsAppended { .. } => None,
        }
    }

    /// This feature's part of [`EventKind::details`](super::EventKind::details): the
    /// transactional id, and the enum-valued details as the trace writes them.
    pub fn details(&self) -> Vec<&str> {
        use TxnEvent as E;
        match self {
            E::ProducerInitialized { transactional_id, .. }
            | E::TransactionBegun { transactional_id, .. }
            | E::PartitionsAddedToTxn { transactional_id, .. } => vec![transactional_id],
            E::EndTxnRequested { transactional_id, commit, .. }
            | E::TxnEnded { transactional_id, commit, .. }
            | E::TxnCompleted { transactional_id, commit, .. } => vec![transactional_id, fate(*commit)],
            E::TxnPrepared { transactional_id, commit, cause, .. } => vec![transactional_id, fate(*commit), cause.name()],
            E::MarkerWritten { transactional_id, kind, .. } => vec![transactional_id, control_name(*kind)],
            E::TxnOffsetsCompleted { transactional_id, commit, offsets, .. } => {
                let mut out = vec![transactional_id.as_str(), fate(*commit)];
                out.extend(committed(offsets));
                out
            }
            E::EpochFenced { transactional_id, cause, .. } => vec![transactional_id, cause.name()],
            E::TxnRequestFailed { transactional_id, request, error, .. } => vec![transactional_id, request.name(), error.name()],
            E::TxnProducerFailed { transactional_id, error, state, .. } => vec![transactional_id, error.name(), state.name()],
            E::TxnOffsetsPending { offsets, .. } => committed(offsets).collect(),
            E::OffsetFetchUnstable { .. } => vec![TxnError::UnstableOffsetCommit.name()],
            E::RecordsSkipped { .. } | E::ProducerCrashed { .. } | E::ProducerRestarted { .. } | E::ProducerAdded { .. } => Vec::new(),
            E::TxnTimedOut { transactional_id, .. } => vec![transactional_id],
            E::IsolationLevelSet { isolation_level, .. } => vec![isolation_level.name()],
            E::ProcessingGuaranteeSet { processing_guarantee, .. } => vec![processing_guarantee.name()],
            E::TxnRecordsAppended { .. } => Vec::new(),
        }
    }
}

/// `commit` / `abort` as the trace's words.
fn fate(commit: bool) -> &'static str {
    if commit {
        "commit"
    } else {
        "abort"
    }
}

/// A marker's kind as the trace writes it.
pub fn control_name(kind: ControlType) -> &'static str {
    match kind {
        ControlType::Commit => "commit",
        ControlType::Abort => "abort",
    }
}

/// The topic partitions of a transaction's partitions, as subjects (a group's offsets
/// partition as its group).
fn txn_partitions(partitions: &[TxnPartition]) -> impl Iterator<Item = Subject<'_>> {
    partitions.iter().map(|p| match p {
        TxnPartition::Topic { tp } => part(&tp.topic, tp.partition),
        TxnPartition::Offsets { group } => Subject::Group(group),
    })
}
