//! Producers: partition choice, per-partition batches with `linger.ms`, and what came back.

use crate::config::ProducerConfig;
use crate::event::ProduceError;
use crate::partitioner::{PartitionReason, PartitionerState};
use crate::record::{Record, RecordId, TopicPartition};
use crate::time::SimTime;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, VecDeque};

/// How many sent records a producer remembers for the view.
pub const SENT_KEPT: usize = 500;

/// A batch being filled for one partition (`ProducerBatch` in the `RecordAccumulator`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct OpenBatch {
    pub id: u64,
    pub records: Vec<Record>,
    pub bytes: u32,
}

/// A closed batch the sender owns until it is acknowledged or given up.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct InFlightBatch {
    pub id: u64,
    pub tp: TopicPartition,
    pub records: Vec<Record>,
    /// The first record's sequence number (idempotent producer only).
    pub sequence: Option<u32>,
    /// How many times it has been sent.
    pub attempt: u32,
    pub first_sent_at: SimTime,
    /// A request carrying it is outstanding.
    pub in_flight: bool,
    /// The broker the last attempt went to.
    pub broker: Option<crate::cluster::BrokerId>,
    /// Held back because its partition has no leader.
    pub waiting_for_leader: bool,
}

/// What the producer knows of one record it sent.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SentRecord {
    pub record: RecordId,
    pub key: Option<String>,
    pub value: String,
    pub topic: String,
    pub partition: u32,
    pub reason: PartitionReason,
    pub sent_at: SimTime,
    /// `RecordMetadata.offset()` once acknowledged (-1 under acks=0).
    pub acked_offset: Option<i64>,
    /// The error the send's callback got, if the producer gave the record up.
    pub failed: Option<ProduceError>,
}

/// A producer client.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Producer {
    pub name: String,
    pub config: ProducerConfig,
    pub(crate) partitioners: BTreeMap<String, PartitionerState>,
    pub(crate) open: BTreeMap<TopicPartition, OpenBatch>,
    pub(crate) sent: VecDeque<SentRecord>,
    pub(crate) sent_total: u64,
    /// Closed batches by id, until acknowledged or given up.
    pub(crate) batches: BTreeMap<u64, InFlightBatch>,
    /// Batches waiting for a free connection slot, in send order.
    pub(crate) queue: VecDeque<u64>,
    /// Next sequence number per partition (idempotent producer).
    pub(crate) next_sequence: BTreeMap<TopicPartition, u32>,
}

impl Producer {
    pub fn new(name: impl Into<String>, config: ProducerConfig) -> Self {
        Self {
            name: name.into(),
            config,
            partitioners: BTreeMap::new(),
            open: BTreeMap::new(),
            sent: VecDeque::new(),
            sent_total: 0,
            batches: BTreeMap::new(),
            queue: VecDeque::new(),
            next_sequence: BTreeMap::new(),
        }
    }

    /// How many records this producer has sent since the start.
    pub fn sent_total(&self) -> u64 {
        self.sent_total
    }

    pub(crate) fn remember(&mut self, sent: SentRecord) {
        if self.sent.len() == SENT_KEPT {
            self.sent.pop_front();
        }
        self.sent.push_back(sent);
        self.sent_total += 1;
    }

    pub(crate) fn mark_failed(&mut self, record: RecordId, error: ProduceError) {
        if let Some(s) = self.sent.iter_mut().rev().find(|s| s.record == record) {
            s.failed = Some(error);
        }
    }

    /// Records sent but neither acknowledged nor given up.
    pub fn pending_records(&self) -> u32 {
        self.batches.values().map(|b| b.records.len() as u32).sum::<u32>()
            + self.open.values().map(|b| b.records.len() as u32).sum::<u32>()
    }

    pub(crate) fn mark_acked(&mut self, record: RecordId, offset: i64) {
        // Acks arrive for recent records; search from the newest.
        if let Some(s) = self.sent.iter_mut().rev().find(|s| s.record == record) {
            s.acked_offset = Some(offset);
        }
    }
}
