//! Log compaction's events (issue 19): a broker's log cleaner compacted one replica's log;
//! a group coordinator loaded a group from its compacted `__consumer_offsets` partition.

use super::{part, Category, Jump, Subject};
use crate::record::{BrokerId, RecordId, TopicPartition};
use serde::{Deserialize, Serialize};

/// Compaction: what happened, with what it touched (one kind of [`super::EventKind`]).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
// Explicit discriminants (the trace digest hashes them): 200 on, this feature's range.
#[repr(isize)]
pub enum CompactionEvent {
    /// A broker's log cleaner made one pass over its replica of a compacted partition
    /// (`LogCleaner`): from the cleaner's checkpoint to the end of the cleanable part
    /// (never the active segment, never past the last stable offset), keeping each key's
    /// newest record and every offset as it was.
    LogCleaned {
        /// The topic.
        topic: String,
        /// The partition.
        partition: u32,
        /// The broker whose replica was cleaned (each replica cleans its own log).
        broker: BrokerId,
        /// Where the dirty part the pass cleaned began (the checkpoint before).
        first_dirty_offset: u64,
        /// Where it ended: the new checkpoint, the base of the first uncleanable segment.
        end_offset: u64,
        /// The dirty share that made the cleaner take the log, in thousandths (above
        /// `min.cleanable.dirty.ratio`, or any with `max.compaction.lag.ms` overdue).
        dirty_permille: u32,
        /// The records removed, oldest first.
        removed: Vec<RecordId>,
        /// How many of them were tombstones past their delete horizon.
        tombstones_removed: u32,
        /// How many of them were transaction markers.
        markers_removed: u32,
        /// Tombstones (and markers) kept and stamped with a delete horizon on this pass.
        stamped: Vec<RecordId>,
        /// That horizon: the pass's time plus `delete.retention.ms`.
        delete_horizon_ms: Option<u64>,
        /// Segments before and after (cleaned segments merge up to `segment.bytes`).
        segments_before: u32,
        /// Segments after the pass.
        segments_after: u32,
        /// The log's size in bytes before the pass.
        bytes_before: u64,
        /// The log's size in bytes after the pass.
        bytes_after: u64,
    } = 200,
    /// A broker became the leader of a `__consumer_offsets` partition and, as its group
    /// coordinator, loaded a group from it (`GroupMetadataManager` replaying the partition:
    /// `CoordinatorRuntime` loading the shard): every record of the partition read in
    /// offset order, the newest per key kept, tombstones deleting.
    GroupLoaded {
        /// The group.
        group: String,
        /// The new coordinator.
        coordinator: BrokerId,
        /// The `__consumer_offsets` partition it read.
        partition: u32,
        /// How many records the load read (the whole partition, every group's).
        records_read: u32,
        /// The committed offsets it found for the group, by partition.
        offsets: Vec<(TopicPartition, u64)>,
    } = 201,
}

impl CompactionEvent {
    /// This feature's part of [`EventKind::name`](super::EventKind::name).
    pub fn name(&self) -> &'static str {
        match self {
            CompactionEvent::LogCleaned { .. } => "LogCleaned",
            CompactionEvent::GroupLoaded { .. } => "GroupLoaded",
        }
    }

    /// This feature's part of [`EventKind::subjects`](super::EventKind::subjects).
    pub fn subjects(&self) -> Vec<Subject<'_>> {
        use Subject as S;
        match self {
            CompactionEvent::LogCleaned { topic, partition, broker, removed, stamped, .. } => {
                let mut out = vec![S::Broker(*broker), part(topic, *partition)];
                out.extend(removed.iter().chain(stamped).map(|r| S::Record(*r)));
                out
            }
            CompactionEvent::GroupLoaded { group, coordinator, partition, .. } => {
                vec![S::Group(group), S::Broker(*coordinator), part(crate::record::OFFSETS_TOPIC, *partition)]
            }
        }
    }

    /// This feature's part of [`EventKind::category`](super::EventKind::category).
    pub fn category(&self) -> Category {
        match self {
            CompactionEvent::LogCleaned { .. } => Category::Replication,
            CompactionEvent::GroupLoaded { .. } => Category::Group,
        }
    }

    /// This feature's part of [`EventKind::jump`](super::EventKind::jump).
    pub fn jump(&self) -> Option<Jump> {
        match self {
            CompactionEvent::LogCleaned { .. } | CompactionEvent::GroupLoaded { .. } => None,
        }
    }

    /// This feature's part of [`EventKind::details`](super::EventKind::details).
    pub fn details(&self) -> Vec<&str> {
        match self {
            CompactionEvent::LogCleaned { .. } => Vec::new(),
            CompactionEvent::GroupLoaded { offsets, .. } => offsets.iter().map(|(tp, _)| tp.topic.as_str()).collect(),
        }
    }
}
