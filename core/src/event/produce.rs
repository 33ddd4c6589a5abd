//! Produce's events: a producer's `send()`, its batches and Produce requests, the leader's append and the acknowledgement.

use super::{acks_name, part, Category, Jump, PartitionReason, ProduceError, Subject};
use crate::config::Acks;
use crate::record::{BrokerId, RecordId};
use crate::time::SimTime;
use serde::{Deserialize, Serialize};

/// Produce: what happened, with what it touched (one kind of [`super::EventKind`]).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
// Explicit discriminants: the place each kind had in the one flat `EventKind`, so the
// trace digest (derived `Hash`, which hashes the discriminant) is unchanged.
#[repr(isize)]
pub enum ProduceEvent {
    /// `send()` chose a partition and put the record into the producer's batch.
    RecordSent {
        record: RecordId,
        producer: String,
        topic: String,
        partition: u32,
        key: Option<String>,
        value: String,
        reason: PartitionReason,
    } = 0,
    /// A batch left the producer in a Produce request.
    BatchSent { producer: String, topic: String, partition: u32, records: Vec<RecordId> } = 1,
    /// The leader appended a record.
    RecordAppended {
        record: RecordId,
        value: String,
        topic: String,
        partition: u32,
        offset: u64,
        timestamp: SimTime,
        broker: BrokerId,
        leader_epoch: u32,
    } = 2,
    /// The producer got `RecordMetadata` back (offset is -1 under acks=0, as in Kafka).
    RecordAcked {
        record: RecordId,
        value: String,
        producer: String,
        topic: String,
        partition: u32,
        offset: i64,
        timestamp: SimTime,
        acks: Acks,
    } = 3,
    /// A Produce request failed; the producer retries unless `retrying` is false, in
    /// which case the records are given up (the send's callback gets the error).
    ProduceFailed { producer: String, topic: String, partition: u32, records: Vec<RecordId>, error: ProduceError, retrying: bool } = 4,
    /// The leader recognised a retried batch it already has (idempotent producer) and
    /// answered with the original offsets instead of appending it again.
    DuplicateIgnored { producer: String, topic: String, partition: u32, records: Vec<RecordId> } = 5,
}

impl ProduceEvent {
    /// This feature's part of [`EventKind::name`](super::EventKind::name).
    pub fn name(&self) -> &'static str {
        use ProduceEvent as E;
        match self {
            E::RecordSent { .. } => "RecordSent",
            E::BatchSent { .. } => "BatchSent",
            E::RecordAppended { .. } => "RecordAppended",
            E::RecordAcked { .. } => "RecordAcked",
            E::ProduceFailed { .. } => "ProduceFailed",
            E::DuplicateIgnored { .. } => "DuplicateIgnored",
        }
    }

    /// This feature's part of [`EventKind::subjects`](super::EventKind::subjects).
    pub fn subjects(&self) -> Vec<Subject<'_>> {
        use ProduceEvent as E;
        use Subject as S;
        match self {
            E::RecordSent { record, producer, topic, partition, .. } => {
                vec![S::Producer(producer), part(topic, *partition), S::Record(*record)]
            }
            E::BatchSent { producer, topic, partition, records } | E::DuplicateIgnored { producer, topic, partition, records } => {
                let mut out = vec![S::Producer(producer), part(topic, *partition)];
                out.extend(records.iter().map(|r| S::Record(*r)));
                out
            }
            E::RecordAppended { record, topic, partition, broker, .. } => {
                vec![S::Broker(*broker), part(topic, *partition), S::Record(*record)]
            }
            E::RecordAcked { record, producer, topic, partition, .. } => {
                vec![S::Producer(producer), part(topic, *partition), S::Record(*record)]
            }
            E::ProduceFailed { producer, topic, partition, records, .. } => {
                let mut out = vec![S::Producer(producer), part(topic, *partition)];
                out.extend(records.iter().map(|r| S::Record(*r)));
                out
            }
        }
    }

    /// This feature's part of [`EventKind::category`](super::EventKind::category).
    pub fn category(&self) -> Category {
        use ProduceEvent as E;
        match self {
            E::RecordSent { .. }
            | E::BatchSent { .. }
            | E::RecordAppended { .. }
            | E::RecordAcked { .. }
            | E::ProduceFailed { .. }
            | E::DuplicateIgnored { .. } => Category::Produce,
        }
    }

    /// This feature's part of [`EventKind::jump`](super::EventKind::jump).
    pub fn jump(&self) -> Option<Jump> {
        use ProduceEvent as E;
        match self {
            E::RecordSent { .. }
            | E::BatchSent { .. }
            | E::RecordAppended { .. }
            | E::RecordAcked { .. }
            | E::ProduceFailed { .. }
            | E::DuplicateIgnored { .. } => None,
        }
    }

    /// This feature's part of [`EventKind::details`](super::EventKind::details).
    pub fn details(&self) -> Vec<&str> {
        use ProduceEvent as E;
        match self {
            E::RecordSent { key, value, reason, .. } => {
                let mut out = vec![value.as_str(), reason.name()];
                out.extend(key.as_deref());
                out
            }
            E::RecordAppended { value, .. } => vec![value],
            E::RecordAcked { value, acks, .. } => vec![value, acks_name(*acks)],
            E::ProduceFailed { error, .. } => vec![error.name()],
            E::BatchSent { .. } | E::DuplicateIgnored { .. } => Vec::new(),
        }
    }
}
