//! Log compaction's events (issue 19): a broker's log cleaner compacted one replica's log.

use super::{part, Category, Jump, Subject};
use crate::record::{BrokerId, RecordId};
use serde::{Deserialize, Serialize};

/// Compaction: what happened, with what it touched (one kind of [`super::EventKind`]).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
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
}

/// As `derive(Hash)` hashes an enum of several variants: the kind's place (its explicit
/// discriminant) first, then its fields in order. Derived on an enum of one variant it
/// would leave the place out, and the digest would not tell this kind from another.
impl std::hash::Hash for CompactionEvent {
    fn hash<H: std::hash::Hasher>(&self, h: &mut H) {
        match self {
            CompactionEvent::LogCleaned {
                topic,
                partition,
                broker,
                first_dirty_offset,
                end_offset,
                dirty_permille,
                removed,
                tombstones_removed,
                markers_removed,
                stamped,
                delete_horizon_ms,
                segments_before,
                segments_after,
                bytes_before,
                bytes_after,
            } => {
                200isize.hash(h);
                topic.hash(h);
                partition.hash(h);
                broker.hash(h);
                first_dirty_offset.hash(h);
                end_offset.hash(h);
                dirty_permille.hash(h);
                removed.hash(h);
                tombstones_removed.hash(h);
                markers_removed.hash(h);
                stamped.hash(h);
                delete_horizon_ms.hash(h);
                segments_before.hash(h);
                segments_after.hash(h);
                bytes_before.hash(h);
                bytes_after.hash(h);
            }
        }
    }
}

impl CompactionEvent {
    /// This feature's part of [`EventKind::name`](super::EventKind::name).
    pub fn name(&self) -> &'static str {
        match self {
            CompactionEvent::LogCleaned { .. } => "LogCleaned",
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
        }
    }

    /// This feature's part of [`EventKind::category`](super::EventKind::category).
    pub fn category(&self) -> Category {
        match self {
            CompactionEvent::LogCleaned { .. } => Category::Replication,
        }
    }

    /// This feature's part of [`EventKind::jump`](super::EventKind::jump).
    pub fn jump(&self) -> Option<Jump> {
        match self {
            CompactionEvent::LogCleaned { .. } => None,
        }
    }

    /// This feature's part of [`EventKind::details`](super::EventKind::details).
    pub fn details(&self) -> Vec<&str> {
        match self {
            CompactionEvent::LogCleaned { .. } => Vec::new(),
        }
    }
}
