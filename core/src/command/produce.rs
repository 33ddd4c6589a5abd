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
        producer: String,
        topic: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        key: Option<String>,
        value: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        partition: Option<u32>,
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        headers: Vec<Header>,
    },
    /// The producer's `acks` changes (in Kafka: a new producer with the new setting).
    SetAcks { producer: String, acks: Acks },
    /// The producer's `partitioner.class` changes. In Kafka that means a new producer
    /// instance, so the round-robin counter and the sticky choice start afresh; batches
    /// already open still go out.
    SetPartitioner { producer: String, partitioner: PartitionerKind },
}
