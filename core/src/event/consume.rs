//! Consuming's events: where a member starts reading, what `poll()` returns, processing, seeks and offset commits.

use super::{committed, member, part, seek_name, Category, GroupError, Jump, StartFrom, Subject};
use crate::name::Name;
use crate::record::{RecordId, TopicPartition};
use serde::{Deserialize, Serialize};

/// Consume: what happened, with what it touched (one kind of [`super::EventKind`]).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
// Explicit discriminants: the place each kind had in the one flat `EventKind`, so the
// trace digest (derived `Hash`, which hashes the discriminant) is unchanged.
#[repr(isize)]
pub enum ConsumeEvent {
    /// An offset commit the coordinator refused (CommitFailedException for commitSync).
    CommitFailed {
        /// The member's `group.id`.
        group: Name,
        /// The member's `client.id`.
        client_id: Name,
        /// The coordinator's answer (or `UNKNOWN_MEMBER_ID` at once from a consumer that is
        /// no longer in the group).
        error: GroupError,
        /// The offsets it tried to commit: per partition, the next offset to read.
        offsets: Vec<(TopicPartition, u64)>,
    } = 33,
    /// The application finished processing a record; `duplicate` if the group had
    /// already processed it.
    RecordProcessed {
        /// The member's `group.id`.
        group: Name,
        /// The member's `client.id`.
        client_id: Name,
        /// The record's id.
        record: RecordId,
        /// The partition it was read from.
        tp: TopicPartition,
        /// Its offset in that partition.
        offset: u64,
        /// The record's value.
        value: Name,
        /// Whether a member of the group had already processed this offset (the record is
        /// processed twice: at-least-once delivery).
        duplicate: bool,
    } = 34,
    /// Where a member starts reading a partition it was given.
    PositionSet {
        /// The member's `group.id`.
        group: Name,
        /// The member's `client.id`.
        client_id: Name,
        /// The partition.
        tp: TopicPartition,
        /// The offset it will fetch first.
        offset: u64,
        /// Why there: the committed offset, or `auto.offset.reset` for want of one.
        from: StartFrom,
    } = 41,
    /// `poll()` returned this record to the application.
    RecordDelivered {
        /// The member's `group.id`.
        group: Name,
        /// The member's `client.id`.
        client_id: Name,
        /// The record's id.
        record: RecordId,
        /// The partition it was read from.
        tp: TopicPartition,
        /// Its offset in that partition.
        offset: u64,
        /// The record's value.
        value: Name,
        /// The leader's HW when the record was read (it must be above `offset`).
        high_watermark: u64,
    } = 42,
    /// The member's position was outside the log (OFFSET_OUT_OF_RANGE): it was reset
    /// per `auto.offset.reset`.
    PositionReset {
        /// The member's `group.id`.
        group: Name,
        /// The member's `client.id`.
        client_id: Name,
        /// The partition.
        tp: TopicPartition,
        /// The position it had, outside the log.
        from: u64,
        /// The position it fetches from now: the log start (`earliest`) or the high
        /// watermark (`latest`).
        to: u64,
    } = 43,
    /// KIP-320: after a leader change (or on committed offsets) the consumer validated
    /// its position with `OffsetsForLeaderEpoch` and found the new leader's log diverges
    /// below it — an unclean election truncated what it had read. With a reset policy it
    /// resumes at the divergence point (`SubscriptionState.maybeCompleteValidation`);
    /// with `auto.offset.reset=none`, `poll()` throws `LogTruncationException` instead
    /// (`ConsumerFailed` with `LOG_TRUNCATION`).
    TruncationDetected {
        /// The member's `group.id`.
        group: Name,
        /// The member's `client.id`.
        client_id: Name,
        /// The partition.
        tp: TopicPartition,
        /// The position it had.
        from: u64,
        /// The leader epoch of the record before that position (`offsetEpoch`).
        offset_epoch: u32,
        /// Where that epoch ends in the new leader's log: the first offset the logs may
        /// differ at, and the position it fetches from now.
        to: u64,
    } = 70,
    /// An offset commit (committed offset = next offset to read).
    OffsetsCommitted {
        /// The member's `group.id`.
        group: Name,
        /// The member's `client.id`.
        client_id: Name,
        /// What it committed: per partition, the next offset to read. Only commits that
        /// move an offset are reported.
        offsets: Vec<(TopicPartition, u64)>,
    } = 45,
    /// The coordinator's periodic check (`offsets.retention.check.interval.ms`) deleted
    /// committed offsets older than `offsets.retention.minutes` (KIP-211): a member later
    /// given one of these partitions starts at `auto.offset.reset`.
    OffsetsExpired {
        /// The group's `group.id`.
        group: Name,
        /// Each expired partition with the offset it had.
        offsets: Vec<(TopicPartition, u64)>,
    } = 69,
    /// The application called `seek()`: the member reads the partition from `to` next.
    Seeked {
        /// The member's `group.id`.
        group: Name,
        /// The member's `client.id`.
        client_id: Name,
        /// The partition.
        tp: TopicPartition,
        /// The position before the seek.
        from: u64,
        /// The position after it: the next offset the member fetches.
        to: u64,
        /// What the application asked for: the beginning, the end, an offset or a timestamp.
        how: crate::command::SeekTo,
    } = 51,
}

impl ConsumeEvent {
    /// This feature's part of [`EventKind::name`](super::EventKind::name).
    pub fn name(&self) -> &'static str {
        use ConsumeEvent as E;
        match self {
            E::CommitFailed { .. } => "CommitFailed",
            E::RecordProcessed { .. } => "RecordProcessed",
            E::PositionSet { .. } => "PositionSet",
            E::RecordDelivered { .. } => "RecordDelivered",
            E::PositionReset { .. } => "PositionReset",
            E::TruncationDetected { .. } => "TruncationDetected",
            E::OffsetsCommitted { .. } => "OffsetsCommitted",
            E::OffsetsExpired { .. } => "OffsetsExpired",
            E::Seeked { .. } => "Seeked",
        }
    }

    /// This feature's part of [`EventKind::subjects`](super::EventKind::subjects).
    pub fn subjects(&self) -> Vec<Subject<'_>> {
        use ConsumeEvent as E;
        use Subject as S;
        match self {
            E::CommitFailed { group, client_id, .. } | E::OffsetsCommitted { group, client_id, .. } => {
                vec![S::Group(group), member(group, client_id)]
            }
            E::OffsetsExpired { group, offsets } => {
                let mut out = vec![S::Group(group)];
                out.extend(offsets.iter().map(|(tp, _)| part(&tp.topic, tp.partition)));
                out
            }
            E::PositionSet { group, client_id, tp, .. }
            | E::PositionReset { group, client_id, tp, .. }
            | E::TruncationDetected { group, client_id, tp, .. }
            | E::Seeked { group, client_id, tp, .. } => {
                vec![S::Group(group), member(group, client_id), part(&tp.topic, tp.partition)]
            }
            E::RecordProcessed { group, client_id, record, tp, .. } | E::RecordDelivered { group, client_id, record, tp, .. } => {
                vec![S::Group(group), member(group, client_id), part(&tp.topic, tp.partition), S::Record(*record)]
            }
        }
    }

    /// This feature's part of [`EventKind::category`](super::EventKind::category).
    pub fn category(&self) -> Category {
        use ConsumeEvent as E;
        match self {
            E::RecordDelivered { .. }
            | E::RecordProcessed { .. }
            | E::OffsetsCommitted { .. }
            | E::OffsetsExpired { .. }
            | E::CommitFailed { .. }
            | E::PositionSet { .. }
            | E::PositionReset { .. }
            | E::TruncationDetected { .. }
            | E::Seeked { .. } => Category::Consume,
        }
    }

    /// This feature's part of [`EventKind::jump`](super::EventKind::jump).
    pub fn jump(&self) -> Option<Jump> {
        use ConsumeEvent as E;
        match self {
            E::RecordDelivered { .. }
            | E::RecordProcessed { .. }
            | E::OffsetsCommitted { .. }
            | E::OffsetsExpired { .. }
            | E::CommitFailed { .. }
            | E::PositionSet { .. }
            | E::PositionReset { .. }
            | E::TruncationDetected { .. }
            | E::Seeked { .. } => None,
        }
    }

    /// This feature's part of [`EventKind::details`](super::EventKind::details).
    pub fn details(&self) -> Vec<&str> {
        use ConsumeEvent as E;
        match self {
            E::RecordProcessed { value, .. } | E::RecordDelivered { value, .. } => vec![value],
            E::PositionReset { .. } | E::TruncationDetected { .. } => Vec::new(),
            E::CommitFailed { error, offsets, .. } => {
                let mut out = vec![error.name()];
                out.extend(committed(offsets));
                out
            }
            E::OffsetsCommitted { offsets, .. } | E::OffsetsExpired { offsets, .. } => committed(offsets).collect(),
            E::PositionSet { from, .. } => vec![from.name()],
            E::Seeked { how, .. } => vec![seek_name(how)],
        }
    }
}
