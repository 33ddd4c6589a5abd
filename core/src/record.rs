//! Records as producers send them and as a partition log stores them.

use crate::name::Name;
use crate::time::SimTime;
use serde::{Deserialize, Serialize};
use std::fmt;

/// The topic where group coordinators keep committed offsets and group metadata
/// (`Topic.GROUP_METADATA_TOPIC_NAME`).
pub const OFFSETS_TOPIC: &str = "__consumer_offsets";

/// The topic where transaction coordinators keep transactions' state
/// (`Topic.TRANSACTION_STATE_TOPIC_NAME`).
pub const TRANSACTION_STATE_TOPIC: &str = "__transaction_state";

/// A broker's id (`node.id`).
pub type BrokerId = u32;

/// The simulation's own name for one produced record, unique per run.
///
/// Kafka has no such id; the sandbox uses it to follow a record from the
/// producer through the log to every consumer that receives it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct RecordId(pub u64);

impl fmt::Display for RecordId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_marker() {
            write!(f, "marker{}", self.0 - MARKER_ID_BASE)
        } else {
            write!(f, "r{}", self.0)
        }
    }
}

/// A topic and one of its partitions (`TopicPartition` in Kafka).
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct TopicPartition {
    /// The topic's name (shared: a clone of a `TopicPartition` copies no text).
    pub topic: Name,
    /// The partition's number, 0 to the topic's partition count − 1.
    pub partition: u32,
}

impl TopicPartition {
    /// Partition `partition` of `topic`.
    pub fn new(topic: impl Into<Name>, partition: u32) -> Self {
        Self { topic: topic.into().interned(), partition }
    }
}

impl fmt::Display for TopicPartition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}-{}", self.topic, self.partition)
    }
}

/// `message.timestamp.type` (KIP-32): who stamps the record's timestamp.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[non_exhaustive]
pub enum TimestampType {
    /// The producer's clock at `send()` (Kafka's default).
    #[default]
    CreateTime,
    /// The broker's clock when the leader appends the record.
    LogAppendTime,
}

/// A record header: a string key and a value (kept as text in the sandbox).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Header {
    /// The header's key, at most [`crate::limits::MAX_VALUE_CHARS`] characters.
    pub key: String,
    /// The header's value, at most [`crate::limits::MAX_VALUE_CHARS`] characters (bytes
    /// in Kafka).
    pub value: String,
}

/// A record as the producer hands it over: what `ProducerRecord` carries.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Record {
    /// The sandbox's id for it, unique per run.
    pub id: RecordId,
    /// The name of the producer that sent it.
    pub producer: Name,
    /// Its key; `None` for a keyless record.
    pub key: Option<Name>,
    /// Its value (shared: the events and deliveries that show it copy no text).
    pub value: Name,
    /// Its headers, in the order given.
    pub headers: Vec<Header>,
    /// CreateTime: the producer's clock at `send()`.
    pub create_time: SimTime,
    /// The serialized size in bytes as Kafka's `DefaultRecord` counts it.
    pub size_bytes: u32,
    /// Its sequence number from an idempotent producer (KIP-98), else `None`. It travels
    /// with the record into every replica's log, so each replica knows the producer's
    /// state from its own log, as Kafka rebuilds `ProducerStateManager` from the log.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sequence: Option<u32>,
    /// The producer id and epoch of a transactional batch (KIP-98: `RecordBatch.producerId`,
    /// `producerEpoch` with the transactional flag set), given when the batch is drained;
    /// `None` outside a transaction. Every replica's producer state reads it from its log.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub txn: Option<TxnTag>,
    /// A control record (a transaction marker written by the transaction coordinator,
    /// `ControlRecordType` COMMIT or ABORT with its `EndTransactionMarker`); `None` for data.
    /// A marker takes an offset of its own; consumers never see it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub control: Option<Control>,
    /// Its value is null (`ProducerRecord` with a null value; `value` is then empty). On a
    /// compacted topic it is a tombstone: the cleaner drops every older record of its key,
    /// and the tombstone itself once `delete.retention.ms` has passed (KIP-534).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub tombstone: bool,
}

/// A transactional batch's producer id and epoch (`ProducerIdAndEpoch`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct TxnTag {
    /// The producer id the transaction coordinator gave (`InitProducerId`).
    pub producer_id: u64,
    /// Its epoch: bumped by every new instance (fencing) and, with transaction version 2
    /// (KIP-890), by every commit or abort.
    pub producer_epoch: u16,
}

/// What a transaction marker says (`ControlRecordType`: ABORT = 0, COMMIT = 1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ControlType {
    /// The transaction was aborted: read_committed consumers skip its records.
    Abort,
    /// The transaction committed: its records become visible to read_committed consumers.
    Commit,
}

/// A control record's content (`EndTransactionMarker`: its type and the coordinator epoch
/// of the transaction coordinator that wrote it).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Control {
    /// COMMIT or ABORT.
    pub kind: ControlType,
    /// The leader epoch of the coordinator's `__transaction_state` partition when it wrote it.
    pub coordinator_epoch: u32,
}

/// Where transaction markers' ids start: a marker is not a produced record, so its
/// [`RecordId`] comes from a range no producer reaches.
pub const MARKER_ID_BASE: u64 = 1 << 62;

impl RecordId {
    /// Whether this is a transaction marker's id (see [`MARKER_ID_BASE`]).
    pub fn is_marker(self) -> bool {
        self.0 >= MARKER_ID_BASE
    }
}

impl Record {
    /// Whether it is a control record (a transaction marker).
    pub fn is_control(&self) -> bool {
        self.control.is_some()
    }

    /// Its value as a consumer gets it: `None` for a null value (a tombstone).
    pub fn value(&self) -> Option<&str> {
        (!self.tombstone).then_some(self.value.as_str())
    }
}

#[cfg(test)]
impl Record {
    /// A 10-byte keyless record `m{id}` from producer `P`, created at `at_ms` (unit tests).
    pub(crate) fn sample(id: u64, at_ms: u64) -> Record {
        Record {
            id: RecordId(id),
            producer: "P".into(),
            key: None,
            value: format!("m{id}").into(),
            headers: vec![],
            create_time: SimTime(at_ms),
            size_bytes: 10,
            sequence: None,
            txn: None,
            control: None,
            tombstone: false,
        }
    }
}

/// A record stored in a partition log at an offset.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct StoredRecord {
    /// Its offset in the partition, assigned by the leader that appended it.
    pub offset: u64,
    /// The record as the producer sent it.
    pub record: Record,
    /// The timestamp a consumer sees: CreateTime or LogAppendTime per the topic.
    pub timestamp: SimTime,
    /// Which clock `timestamp` is: the topic's `message.timestamp.type` at the append.
    pub timestamp_type: TimestampType,
    /// When the leader appended it.
    pub appended_at: SimTime,
    /// The leader epoch under which it was appended (KIP-101): followers compare epochs
    /// to find where their log diverges from a new leader's.
    pub leader_epoch: u32,
    /// Its batch's `deleteHorizonMs` (KIP-534): set by the first cleaner pass that keeps a
    /// tombstone or a marker of an emptied transaction, to that pass's time plus
    /// `delete.retention.ms`; a pass after it removes them. `None` until then.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub delete_horizon: Option<SimTime>,
}
