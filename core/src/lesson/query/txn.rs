//! Transactions' queries (issue 17): a log's last stable offset, markers and aborted
//! records, a transactional producer's state and epoch and its coordinator's state, the
//! values a consumer received more than once.

use super::{log, member, num, producer, strings};
use crate::lesson::Missing;
use crate::read::Read;
use crate::record::BrokerId;
use crate::txn::TxnMark;
use serde::Serialize;
use serde_json::Value;

/// What a claim asks about transactions.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "ask", rename_all = "snake_case")]
#[non_exhaustive]
pub enum TxnQuery {
    /// The log's last stable offset (LSO): the first offset of its oldest open transaction,
    /// else the high watermark. `read_committed` consumers read no further.
    LastStableOffset {
        /// The topic's name.
        topic: String,
        /// The partition number.
        partition: u32,
        /// Read this broker's replica instead (absent: the leader's log).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        broker: Option<BrokerId>,
    },
    /// The log's transaction markers (control records), in offset order: `[offset,
    /// "COMMIT" | "ABORT"]` each.
    Markers {
        /// The topic's name.
        topic: String,
        /// The partition number.
        partition: u32,
        /// Read this broker's replica instead (absent: the leader's log).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        broker: Option<BrokerId>,
    },
    /// The values of the log's records whose transaction was aborted, in offset order
    /// (still in the log; `read_committed` consumers skip them).
    AbortedRecords {
        /// The topic's name.
        topic: String,
        /// The partition number.
        partition: u32,
        /// Read this broker's replica instead (absent: the leader's log).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        broker: Option<BrokerId>,
    },
    /// The coordinator's state of the producer's `transactional.id` (`"Ongoing"`,
    /// `"CompleteCommit"`, …; `null`: the coordinator has no record of it yet).
    TransactionState {
        /// The producer's name.
        producer: String,
    },
    /// A transactional producer's own state (`TransactionManager`): `"ready"`,
    /// `"in_transaction"`, `"fatal_error"`, … (`null`: not transactional).
    ProducerTxnState {
        /// The producer's name.
        producer: String,
    },
    /// A transactional producer's epoch (`null` before `initTransactions()` completed or
    /// when not transactional).
    ProducerEpoch {
        /// The producer's name.
        producer: String,
    },
    /// The error that put a transactional producer in an abortable or fatal state
    /// (`"PRODUCER_FENCED"`, …; `null`: none).
    TxnError {
        /// The producer's name.
        producer: String,
    },
    /// The values the member's `poll()` returned more than once (among its newest 1000),
    /// in the order of their first delivery.
    ReceivedTwice {
        /// The group's id.
        group: String,
        /// The member's client id.
        client_id: String,
    },
}

/// Answers a transactions query from the read layer (as [`super::answer`]).
pub(super) fn answer_txn(read: Read<'_>, q: &TxnQuery) -> Result<Value, Missing> {
    Ok(match q {
        TxnQuery::LastStableOffset { topic, partition, broker } => num(log(read, topic, *partition, *broker)?.last_stable_offset()),
        TxnQuery::Markers { topic, partition, broker } => {
            let l = log(read, topic, *partition, *broker)?;
            Value::Array(
                l.records()
                    .iter()
                    .filter_map(|r| {
                        let kind = match l.mark(r)? {
                            TxnMark::CommitMarker => "COMMIT",
                            TxnMark::AbortMarker => "ABORT",
                            _ => return None,
                        };
                        Some(Value::Array(vec![num(r.offset), Value::String(kind.to_string())]))
                    })
                    .collect(),
            )
        }
        TxnQuery::AbortedRecords { topic, partition, broker } => {
            let l = log(read, topic, *partition, *broker)?;
            strings(l.records().iter().filter(|r| l.mark(r) == Some(TxnMark::Aborted)).map(|r| r.record.value.as_str()))
        }
        TxnQuery::TransactionState { producer: p } => {
            producer(read, p)?.transaction_record().map_or(Value::Null, |t| Value::String(t.state().name().to_string()))
        }
        TxnQuery::ProducerTxnState { producer: p } => {
            producer(read, p)?.transaction().map_or(Value::Null, |t| Value::String(t.state().name().to_string()))
        }
        TxnQuery::ProducerEpoch { producer: p } => {
            producer(read, p)?.transaction().and_then(|t| t.producer_id_and_epoch()).map_or(Value::Null, |t| num(t.producer_epoch.into()))
        }
        TxnQuery::TxnError { producer: p } => {
            producer(read, p)?.transaction().and_then(|t| t.last_error()).map_or(Value::Null, |e| Value::String(e.name().to_string()))
        }
        TxnQuery::ReceivedTwice { group, client_id } => {
            let m = member(read, group, client_id)?;
            let mut seen: Vec<(&str, u32)> = Vec::new();
            for d in m.received() {
                match seen.iter_mut().find(|(v, _)| *v == d.value.as_str()) {
                    Some((_, n)) => *n += 1,
                    None => seen.push((d.value.as_str(), 1)),
                }
            }
            strings(seen.into_iter().filter(|(_, n)| *n > 1).map(|(v, _)| v))
        }
    })
}

/// A transactions query in words, for check's messages.
pub(super) fn describe_txn(q: &TxnQuery) -> String {
    let on = |topic: &str, p: u32, broker: &Option<BrokerId>| match broker {
        Some(b) => format!("{topic}-{p} on broker {b}"),
        None => format!("{topic}-{p}"),
    };
    match q {
        TxnQuery::LastStableOffset { topic, partition, broker } => format!("the last stable offset of {}", on(topic, *partition, broker)),
        TxnQuery::Markers { topic, partition, broker } => format!("the transaction markers of {}", on(topic, *partition, broker)),
        TxnQuery::AbortedRecords { topic, partition, broker } => format!("the aborted records of {}", on(topic, *partition, broker)),
        TxnQuery::TransactionState { producer } => format!("the coordinator's state of {producer}'s transactional.id"),
        TxnQuery::ProducerTxnState { producer } => format!("the transaction state of {producer}"),
        TxnQuery::ProducerEpoch { producer } => format!("the producer epoch of {producer}"),
        TxnQuery::TxnError { producer } => format!("the transaction error of {producer}"),
        TxnQuery::ReceivedTwice { group, client_id } => format!("the values {client_id} in {group} received more than once"),
    }
}
