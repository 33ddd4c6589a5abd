//! Replication's events: leader elections, the ISR, follower fetches, the high watermark, truncation, records lost in a failover, and retention deleting segments.

use super::{part, Category, Jump, LossCause, LostRecord, SegmentDeletionReason, Subject};
use crate::record::{BrokerId, RecordId};
use serde::{Deserialize, Serialize};

/// Replication: what happened, with what it touched (one kind of [`super::EventKind`]).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
// Explicit discriminants: the place each kind had in the one flat `EventKind`, so the
// trace digest (derived `Hash`, which hashes the discriminant) is unchanged.
#[repr(isize)]
pub enum ReplicationEvent {
    /// A new leader and epoch; `leader: None` means the partition is offline.
    LeaderElected {
        topic: String,
        partition: u32,
        leader: Option<BrokerId>,
        epoch: u32,
        isr: Vec<BrokerId>,
        unclean: bool,
    } = 13,
    IsrShrunk {
        topic: String,
        partition: u32,
        removed: BrokerId,
        isr: Vec<BrokerId>,
    } = 14,
    IsrExpanded {
        topic: String,
        partition: u32,
        added: BrokerId,
        isr: Vec<BrokerId>,
    } = 15,
    /// A follower copied records from the leader.
    ReplicaFetched {
        topic: String,
        partition: u32,
        follower: BrokerId,
        records: Vec<RecordId>,
        log_end_offset: u64,
    } = 16,
    /// The leader's HW moved: records below it are committed and visible to consumers.
    HighWatermarkAdvanced {
        topic: String,
        partition: u32,
        high_watermark: u64,
    } = 17,
    /// A replica removed records past the point where its log diverged from the leader's.
    RecordsTruncated {
        topic: String,
        partition: u32,
        broker: BrokerId,
        from_offset: u64,
        records: Vec<RecordId>,
    } = 18,
    /// A leader change left these records behind: the new leader never had them.
    RecordsLost {
        topic: String,
        partition: u32,
        records: Vec<LostRecord>,
        cause: LossCause,
    } = 19,
    /// Retention deleted whole segments of one replica's log, oldest first; records below
    /// the new log start offset can no longer be read (consuming deletes nothing).
    SegmentsDeleted {
        topic: String,
        partition: u32,
        broker: BrokerId,
        reason: SegmentDeletionReason,
        /// The deleted segments' base offsets.
        base_offsets: Vec<u64>,
        /// Their size in bytes, together.
        bytes: u64,
        records: Vec<RecordId>,
        /// The log start offset afterwards.
        log_start_offset: u64,
    } = 46,
}

impl ReplicationEvent {
    /// This feature's part of [`EventKind::name`](super::EventKind::name).
    pub fn name(&self) -> &'static str {
        use ReplicationEvent as E;
        match self {
            E::LeaderElected { .. } => "LeaderElected",
            E::IsrShrunk { .. } => "IsrShrunk",
            E::IsrExpanded { .. } => "IsrExpanded",
            E::ReplicaFetched { .. } => "ReplicaFetched",
            E::HighWatermarkAdvanced { .. } => "HighWatermarkAdvanced",
            E::RecordsTruncated { .. } => "RecordsTruncated",
            E::RecordsLost { .. } => "RecordsLost",
            E::SegmentsDeleted { .. } => "SegmentsDeleted",
        }
    }

    /// This feature's part of [`EventKind::subjects`](super::EventKind::subjects).
    pub fn subjects(&self) -> Vec<Subject<'_>> {
        use ReplicationEvent as E;
        use Subject as S;
        match self {
            E::LeaderElected { topic, partition, leader, .. } => {
                let mut out = vec![part(topic, *partition)];
                out.extend(leader.map(S::Broker));
                out
            }
            E::IsrShrunk { topic, partition, removed: broker, .. }
            | E::IsrExpanded { topic, partition, added: broker, .. }
            | E::RecordsTruncated { topic, partition, broker, .. }
            | E::SegmentsDeleted { topic, partition, broker, .. } => vec![S::Broker(*broker), part(topic, *partition)],
            E::ReplicaFetched { topic, partition, follower, records, .. } => {
                let mut out = vec![S::Broker(*follower), part(topic, *partition)];
                out.extend(records.iter().map(|r| S::Record(*r)));
                out
            }
            E::HighWatermarkAdvanced { topic, partition, .. } => vec![part(topic, *partition)],
            E::RecordsLost { topic, partition, records, .. } => {
                let mut out = vec![part(topic, *partition)];
                out.extend(records.iter().map(|r| S::Record(r.record)));
                out
            }
        }
    }

    /// This feature's part of [`EventKind::category`](super::EventKind::category).
    pub fn category(&self) -> Category {
        use ReplicationEvent as E;
        match self {
            E::RecordsLost { .. } => Category::Fault,
            E::LeaderElected { .. }
            | E::IsrShrunk { .. }
            | E::IsrExpanded { .. }
            | E::ReplicaFetched { .. }
            | E::HighWatermarkAdvanced { .. }
            | E::RecordsTruncated { .. }
            | E::SegmentsDeleted { .. } => Category::Replication,
        }
    }

    /// This feature's part of [`EventKind::jump`](super::EventKind::jump).
    pub fn jump(&self) -> Option<Jump> {
        use ReplicationEvent as E;
        match self {
            E::LeaderElected { .. }
            | E::IsrShrunk { .. }
            | E::IsrExpanded { .. }
            | E::ReplicaFetched { .. }
            | E::HighWatermarkAdvanced { .. }
            | E::RecordsTruncated { .. }
            | E::RecordsLost { .. }
            | E::SegmentsDeleted { .. } => None,
        }
    }

    /// This feature's part of [`EventKind::details`](super::EventKind::details).
    pub fn details(&self) -> Vec<&str> {
        use ReplicationEvent as E;
        match self {
            E::LeaderElected { .. }
            | E::IsrShrunk { .. }
            | E::IsrExpanded { .. }
            | E::ReplicaFetched { .. }
            | E::HighWatermarkAdvanced { .. }
            | E::RecordsTruncated { .. } => Vec::new(),
            E::RecordsLost { records, cause, .. } => {
                let mut out: Vec<&str> = records.iter().map(|r| r.value.as_str()).collect();
                out.push(cause.name());
                out
            }
            E::SegmentsDeleted { reason, .. } => vec![reason.name()],
        }
    }
}
