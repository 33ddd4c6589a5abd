//! Producers: partition choice, per-partition batches with `linger.ms`, and what came back.

use crate::config::ProducerConfig;
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

    pub(crate) fn mark_acked(&mut self, record: RecordId, offset: i64) {
        // Acks arrive for recent records; search from the newest.
        if let Some(s) = self.sent.iter_mut().rev().find(|s| s.record == record) {
            s.acked_offset = Some(offset);
        }
    }
}
