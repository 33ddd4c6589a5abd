//! Transactions' commands (issue 17): a transactional producer's `beginTransaction()`,
//! `sendOffsetsToTransaction()`, `commitTransaction()`, `abortTransaction()`; a producer
//! crashing, restarting, or started while the cluster runs (a second instance with the
//! same `transactional.id`); a group's `isolation.level`; a Streams application's
//! `processing.guarantee`. Executed by `sim/txn/`.

use crate::config::{IsolationLevel, ProcessingGuarantee, ProducerConfig};
use crate::event::ClientTxnState;
use serde::Serialize;
use std::fmt;

/// What a person does to a transactional producer, a group's isolation level or a Streams
/// application's guarantee.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum TxnCommand {
    /// `producer.beginTransaction()`: the producer may send; no request goes out.
    BeginTransaction {
        /// A transactional producer's name.
        producer: String,
    },
    /// `producer.commitTransaction()`: flush, then EndTxn(COMMIT).
    CommitTransaction {
        /// A transactional producer's name.
        producer: String,
    },
    /// `producer.abortTransaction()`: unsent batches are dropped, then EndTxn(ABORT).
    AbortTransaction {
        /// A transactional producer's name.
        producer: String,
    },
    /// `producer.sendOffsetsToTransaction(consumer positions, consumer.groupMetadata())`:
    /// the member's positions (the next offsets to read) are committed with the
    /// transaction (KIP-447: its member id and generation are checked).
    SendOffsetsToTransaction {
        /// A transactional producer's name.
        producer: String,
        /// The consumer group.
        group: String,
        /// The member whose positions and group metadata are sent.
        client_id: String,
    },
    /// The producer's process dies: its unsent records are gone, its open transaction
    /// stays open at the coordinator until a new instance or the timeout aborts it.
    CrashProducer {
        /// A transactional producer's name.
        producer: String,
    },
    /// A crashed producer starts again (same `client.id`, same `transactional.id`): it
    /// calls `initTransactions()`, which fences its old epoch.
    RestartProducer {
        /// A crashed transactional producer's name.
        producer: String,
    },
    /// A producer starts while the cluster runs; with the `transactional_id` of a running
    /// one it is a second instance, and fences the first.
    AddProducer {
        /// Its name (`client.id`), not taken.
        producer: String,
        /// Its settings.
        #[serde(default, skip_serializing_if = "is_default_config")]
        config: ProducerConfig,
    },
    /// A group's `isolation.level` changes (in Kafka, its consumers restart with it): from
    /// their next fetch on, members read up to the LSO and skip aborted records, or not.
    SetIsolationLevel {
        /// The group.
        group: String,
        /// `read_committed` or `read_uncommitted`.
        isolation_level: IsolationLevel,
    },
    /// A Streams application's `processing.guarantee` changes: every instance restarts
    /// with it (with `exactly_once_v2` each gets its own transactional producer).
    SetProcessingGuarantee {
        /// The application's `application.id`.
        application_id: String,
        /// `at_least_once` or `exactly_once_v2`.
        processing_guarantee: ProcessingGuarantee,
    },
}

fn is_default_config(c: &ProducerConfig) -> bool {
    *c == ProducerConfig::default()
}

/// What a transactional producer was asked to do, for a refusal.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TxnOperation {
    /// `send()`.
    Send,
    /// `beginTransaction()`.
    Begin,
    /// `commitTransaction()`.
    Commit,
    /// `abortTransaction()`.
    Abort,
    /// `sendOffsetsToTransaction()`.
    SendOffsets,
}

impl TxnOperation {
    /// The Java method's name.
    pub fn method(self) -> &'static str {
        match self {
            TxnOperation::Send => "send()",
            TxnOperation::Begin => "beginTransaction()",
            TxnOperation::Commit => "commitTransaction()",
            TxnOperation::Abort => "abortTransaction()",
            TxnOperation::SendOffsets => "sendOffsetsToTransaction()",
        }
    }

    /// The states it is allowed in (`TransactionManager`'s checks).
    pub fn allowed_in(self) -> &'static [ClientTxnState] {
        use ClientTxnState as S;
        match self {
            TxnOperation::Send | TxnOperation::Commit | TxnOperation::SendOffsets => &[S::InTransaction],
            TxnOperation::Begin => &[S::Ready],
            TxnOperation::Abort => &[S::InTransaction, S::AbortableError],
        }
    }
}

/// Why a transactions command was refused: a value with its parameters.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TxnRefusal {
    /// The producer has no `transactional_id`.
    NotTransactional {
        /// The producer.
        producer: String,
    },
    /// The producer is in a state that does not allow it (`IllegalStateException` in
    /// Kafka's `TransactionManager`).
    WrongState {
        /// The producer.
        producer: String,
        /// What was asked.
        operation: TxnOperation,
        /// Its state now.
        state: ClientTxnState,
    },
    /// `restart_producer` of a producer that is running.
    NotCrashed {
        /// The producer.
        producer: String,
    },
    /// `add_producer` with a name that is taken.
    DuplicateProducer {
        /// The name.
        producer: String,
    },
    /// `add_producer` past [`crate::limits::MAX_PRODUCERS`].
    TooManyProducers,
    /// No Streams application has this `application.id`.
    UnknownStreamsApp {
        /// The id asked for.
        application_id: String,
    },
    /// `send_offsets_to_transaction` with a member that has no position yet (it owns no
    /// partition).
    NoPositions {
        /// The group.
        group: String,
        /// The member.
        client_id: String,
    },
    /// `transaction_timeout_ms` above the cluster's `transaction_max_timeout_ms`
    /// (INVALID_TRANSACTION_TIMEOUT at `initTransactions()`).
    TimeoutAboveMax {
        /// The producer.
        producer: String,
        /// Its `transaction_timeout_ms`.
        timeout_ms: u64,
        /// The cluster's `transaction_max_timeout_ms`.
        max_ms: u64,
    },
    /// `add_producer` with a setting outside what is allowed.
    ProducerSetting {
        /// The producer.
        producer: String,
        /// The setting's field name in the scenario format.
        setting: &'static str,
        /// The value given.
        value: u64,
        /// What it allows.
        allowed: super::Allowed,
    },
    /// A scenario with transactions on fewer brokers than
    /// `transaction.state.log.replication.factor`: Kafka cannot create `__transaction_state`,
    /// so no transactional producer finds a coordinator.
    TransactionStateReplication {
        /// `cluster.transaction_state_log_replication_factor`.
        replication_factor: u32,
        /// `cluster.brokers`.
        brokers: u32,
    },
    /// A `transactional_id` with `enable_idempotence: false` or acks other than all
    /// (`ProducerConfig`: "Cannot set a transactional.id without also enabling idempotence").
    NeedsIdempotence {
        /// The producer.
        producer: String,
    },
}

impl fmt::Display for TxnRefusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TxnRefusal::NotTransactional { producer } => {
                write!(f, "producer \"{producer}\" has no transactional_id: transactions need one")
            }
            TxnRefusal::WrongState { producer, operation, state } => {
                let allowed = operation.allowed_in().iter().map(|s| s.name()).collect::<Vec<_>>().join(" or ");
                write!(f, "producer \"{producer}\" is {}: {} is allowed only when {allowed}", state.name(), operation.method())
            }
            TxnRefusal::NotCrashed { producer } => write!(f, "producer \"{producer}\" is running: only a crashed producer restarts"),
            TxnRefusal::DuplicateProducer { producer } => write!(f, "there is already a producer named \"{producer}\""),
            TxnRefusal::TooManyProducers => write!(f, "at most {} producers", crate::limits::MAX_PRODUCERS),
            TxnRefusal::UnknownStreamsApp { application_id } => write!(f, "there is no Streams application \"{application_id}\""),
            TxnRefusal::NoPositions { group, client_id } => {
                write!(f, "member \"{client_id}\" of group \"{group}\" has no position yet: it owns no partition")
            }
            TxnRefusal::TimeoutAboveMax { producer, timeout_ms, max_ms } => write!(
                f,
                "transaction_timeout_ms of producer \"{producer}\" is {timeout_ms}; allowed: up to the cluster's transaction_max_timeout_ms ({max_ms})"
            ),
            TxnRefusal::ProducerSetting { producer, setting, value, allowed } => {
                write!(f, "{setting} of producer \"{producer}\" is {value}; allowed: {allowed}")
            }
            TxnRefusal::TransactionStateReplication { replication_factor, brokers } => write!(
                f,
                "transactions need __transaction_state, with transaction_state_log_replication_factor ({replication_factor}) replicas, but the cluster has {brokers} brokers; allowed: at most {brokers}"
            ),
            TxnRefusal::NeedsIdempotence { producer } => write!(
                f,
                "producer \"{producer}\" has a transactional_id, which needs idempotence: acks \"all\" and enable_idempotence not false"
            ),
        }
    }
}
