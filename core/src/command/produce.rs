//! The produce feature's commands: a producer sends a record, and the producer's
//! settings a person changes while it runs (in Kafka, a new producer instance).

use crate::config::{Acks, PartitionerKind};
use crate::record::Header;
use serde::Serialize;

/// What a person does to a producer. Executed by `sim/produce.rs`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ProduceCommand {
    /// `producer.send(new ProducerRecord(topic, partition, key, value, headers))`.
    Produce {
        /// The sending producer's name.
        producer: String,
        /// The topic the record goes to.
        topic: String,
        /// The record key, at most [`crate::limits::MAX_VALUE_CHARS`] characters; it picks
        /// the partition when `partition` is left out (`murmur2`, unless round-robin).
        /// `None` is a keyless record.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        key: Option<String>,
        /// The record value, at most [`crate::limits::MAX_VALUE_CHARS`] characters; `null`
        /// (`None`) is a record with a null value: on a compacted topic a tombstone, which
        /// deletes its key.
        value: Option<String>,
        /// An explicit partition, below the topic's partition count; `None` lets the
        /// producer's partitioner choose.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        partition: Option<u32>,
        /// The record headers: at most [`crate::limits::MAX_HEADERS`], each key and value at
        /// most [`crate::limits::MAX_VALUE_CHARS`] characters.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        headers: Vec<Header>,
    },
    /// The producer's `acks` changes (in Kafka: a new producer with the new setting).
    SetAcks {
        /// The producer's name.
        producer: String,
        /// The new `acks`; every attempt from now on uses it, retries included, and whether
        /// the producer is idempotent follows (`enable.idempotence`).
        acks: Acks,
    },
    /// The producer's `partitioner.class` changes. In Kafka that means a new producer
    /// instance, so the round-robin counter and the sticky choice start afresh; batches
    /// already open still go out.
    SetPartitioner {
        /// The producer's name.
        producer: String,
        /// The new `partitioner.class`.
        partitioner: PartitionerKind,
    },
}
