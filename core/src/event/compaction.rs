//! Log compaction's events (issue 19): a broker's log cleaner compacted one replica's log;
//! a new group coordinator loaded its `__consumer_offsets` partition.

use super::{part, Category, Jump, Subject};
use crate::record::{BrokerId, RecordId};
use serde::{Deserialize, Serialize};

/// Compaction: what happened, with what it touched (one kind of [`super::EventKind`]).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
// Explicit discriminants (the trace digest hashes them: derived `Hash` hashes the
// discriminant, then the fields): 200 on, this feature's range.
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
    /// A broker became the leader of a `__consumer_offsets` partition holding records, so
    /// the group coordinator for the groups that hash to it: it read the partition's log
    /// (compacted or not), rebuilt each group's committed offsets from the newest record
    /// per key (a tombstone deletes one) and serves them from now on
    /// (`GroupCoordinatorShard` replaying `OffsetCommit` records on load,
    /// `CoordinatorRuntime.scheduleLoadOperation`).
    CoordinatorLoaded {
        /// The `__consumer_offsets` partition.
        partition: u32,
        /// The new coordinator (the partition's leader).
        broker: BrokerId,
        /// The partition's leader epoch it leads under.
        leader_epoch: u32,
        /// Records it read.
        records: u64,
        /// The groups it now coordinates whose offsets or metadata the log held.
        groups: Vec<String>,
        /// Committed offsets it loaded, over those groups.
        offsets: u32,
    } = 201,
}

impl CompactionEvent {
    /// This feature's part of [`EventKind::name`](super::EventKind::name).
    pub fn name(&self) -> &'static str {
        match self {
            CompactionEvent::LogCleaned { .. } => "LogCleaned",
            CompactionEvent::CoordinatorLoaded { .. } => "CoordinatorLoaded",
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
            CompactionEvent::CoordinatorLoaded { broker, groups, .. } => {
                let mut out = vec![S::Broker(*broker)];
                out.extend(groups.iter().map(|g| S::Group(g)));
                out
            }
        }
    }

    /// This feature's part of [`EventKind::category`](super::EventKind::category).
    pub fn category(&self) -> Category {
        match self {
            CompactionEvent::LogCleaned { .. } => Category::Replication,
            CompactionEvent::CoordinatorLoaded { .. } => Category::Group,
        }
    }

    /// This feature's part of [`EventKind::jump`](super::EventKind::jump).
    pub fn jump(&self) -> Option<Jump> {
        match self {
            CompactionEvent::LogCleaned { .. } | CompactionEvent::CoordinatorLoaded { .. } => None,
        }
    }

    /// This feature's part of [`EventKind::details`](super::EventKind::details).
    pub fn details(&self) -> Vec<&str> {
        match self {
            CompactionEvent::LogCleaned { .. } | CompactionEvent::CoordinatorLoaded { .. } => Vec::new(),
        }
    }
}
