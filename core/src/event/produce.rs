//! Produce's events: a producer's `send()`, its batches and Produce requests, the leader's append and the acknowledgement.

use super::{acks_name, part, Category, Jump, PartitionReason, ProduceError, Subject};
use crate::config::Acks;
use crate::name::Name;
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
        /// The id the sandbox gave the record (it follows the record through the run).
        record: RecordId,
        /// The producer's name.
        producer: Name,
        /// The topic it was sent to.
        topic: Name,
        /// The partition the partitioner chose (or the record named).
        partition: u32,
        /// The record's key; `None` for a keyless record.
        key: Option<Name>,
        /// The record's value.
        value: Name,
        /// Why the record went to `partition`.
        reason: PartitionReason,
    } = 0,
    /// A batch left the producer in a Produce request (its first attempt; retries are not
    /// reported again).
    BatchSent {
        /// The producer's name.
        producer: Name,
        /// The batch's topic.
        topic: Name,
        /// The batch's partition.
        partition: u32,
        /// The batch's records, in order.
        records: Vec<RecordId>,
    } = 1,
    /// The leader appended a record.
    RecordAppended {
        /// The record's id.
        record: RecordId,
        /// The record's value.
        value: Name,
        /// The partition's topic.
        topic: Name,
        /// The partition's number within its topic.
        partition: u32,
        /// The offset the record took in the leader's log.
        offset: u64,
        /// The record's timestamp as stored: its create time, or the append time under
        /// `message.timestamp.type=LogAppendTime`, in ms of simulated time.
        timestamp: SimTime,
        /// The leader that appended it.
        broker: BrokerId,
        /// The leader epoch the record was appended in (used to find where logs diverge,
        /// KIP-101).
        leader_epoch: u32,
    } = 2,
    /// The producer got `RecordMetadata` back (offset is -1 under acks=0, as in Kafka).
    RecordAcked {
        /// The record's id.
        record: RecordId,
        /// The record's value.
        value: Name,
        /// The producer's name.
        producer: Name,
        /// The partition's topic.
        topic: Name,
        /// The partition's number within its topic.
        partition: u32,
        /// The offset the leader gave the record; -1 under acks=0, where no answer comes.
        offset: i64,
        /// The record's timestamp as the leader stored it; under acks=0, the moment the
        /// request was written. In ms of simulated time.
        timestamp: SimTime,
        /// The producer's `acks` setting when the acknowledgement arrived (the request
        /// carried the setting it was sent with, which a run-time change may since have moved).
        acks: Acks,
    } = 3,
    /// A Produce request failed; the producer retries unless `retrying` is false, in
    /// which case the records are given up (the send's callback gets the error).
    ProduceFailed {
        /// The producer's name.
        producer: Name,
        /// The batch's topic.
        topic: Name,
        /// The batch's partition.
        partition: u32,
        /// The batch's records.
        records: Vec<RecordId>,
        /// What went wrong.
        error: ProduceError,
        /// Whether the producer keeps the batch to send again (after its retry backoff, or
        /// once the partition has a leader); false when it gives up on the records.
        retrying: bool,
    } = 4,
    /// The leader recognised a retried batch it already has (idempotent producer) and
    /// answered with the original offsets instead of appending it again.
    DuplicateIgnored {
        /// The producer's name.
        producer: Name,
        /// The partition's topic.
        topic: Name,
        /// The partition's number within its topic.
        partition: u32,
        /// The records of the batch the leader already had.
        records: Vec<RecordId>,
    } = 5,
    /// `send()` blocked the application thread: the record's new batch needs more of
    /// `buffer.memory` than is free (`BufferPool.allocate` waits). It gets in when
    /// completed batches give memory back (then `RecordSent`), or fails with
    /// `BUFFER_EXHAUSTED` after `max.block.ms`; later sends of the producer wait behind it.
    SendBlocked {
        /// The producer's name.
        producer: Name,
        /// The blocked record's id.
        record: RecordId,
        /// The topic it is sent to.
        topic: Name,
        /// The partition chosen for it.
        partition: u32,
        /// The bytes its new batch asks of the pool (`batch.size`, or the record's size if larger).
        needed_bytes: u64,
        /// The bytes of `buffer.memory` free when it started waiting.
        available_bytes: u64,
        /// `max.block.ms`: how long it waits at most.
        max_block_ms: u64,
    } = 68,
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
            E::SendBlocked { .. } => "SendBlocked",
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
            E::RecordAcked { record, producer, topic, partition, .. } | E::SendBlocked { record, producer, topic, partition, .. } => {
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
            | E::DuplicateIgnored { .. }
            | E::SendBlocked { .. } => Category::Produce,
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
            | E::DuplicateIgnored { .. }
            | E::SendBlocked { .. } => None,
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
            E::BatchSent { .. } | E::DuplicateIgnored { .. } | E::SendBlocked { .. } => Vec::new(),
        }
    }
}
