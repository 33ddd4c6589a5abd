//! Share groups' events (KIP-932): members joining and leaving through ShareGroupHeartbeat,
//! the `SimpleAssignor`'s target assignment, share partitions initialized and reloaded,
//! records acquired, delivered, acknowledged, released, expired and archived, and the
//! share-partition start offset (SPSO) moving.

use super::{member, part, Category, Jump, Subject};
use crate::command::AcknowledgeType;
use crate::record::{RecordId, TopicPartition};
use serde::{Deserialize, Serialize};

/// Why a share partition's leader refused an acknowledgement.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ShareError {
    /// INVALID_RECORD_STATE: the record is not acquired by this member any more (its lock
    /// expired, or a new leader reloaded the partition).
    InvalidRecordState,
    /// NOT_LEADER_OR_FOLLOWER: the broker no longer leads the partition.
    NotLeaderOrFollower,
}

/// Why a share group's coordinator removed a member.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ShareLeaveReason {
    /// `close()`: a heartbeat with member epoch −1.
    Left,
    /// No heartbeat for `share_session_timeout_ms`.
    SessionExpired,
}

/// Why a record was archived.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ArchiveCause {
    /// The consumer acknowledged it with REJECT.
    Rejected,
    /// It came back (released, its lock expired, its consumer left) after its last allowed
    /// delivery (`group.share.delivery.count.limit`).
    DeliveryLimit,
}

/// Why acquired records went back to AVAILABLE.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ReturnCause {
    /// The acquisition lock ran out (`group.share.record.lock.duration.ms`).
    LockExpired,
    /// The consumer acknowledged them with RELEASE.
    Released,
    /// The consumer's share session ended (`close()`) with records it had not processed.
    SessionClosed,
}

/// Share groups: what happened, with what it touched (one kind of [`super::EventKind`]).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
// Explicit discriminants in share groups' range (140–179), so the trace digest of runs
// without share groups is unchanged.
#[repr(isize)]
pub enum ShareGroupEvent {
    /// A share group (`group.type` share) was created.
    ShareGroupCreated {
        /// The group's `group.id`.
        group: String,
    } = 140,
    /// The coordinator took a member's first ShareGroupHeartbeat (member epoch 0) and gave
    /// it the new group epoch.
    ShareMemberJoined {
        /// The group's `group.id`.
        group: String,
        /// The member's `client.id`.
        client_id: String,
        /// Its member id (a UUID the consumer made itself).
        member_id: String,
        /// The group epoch, now the member's epoch.
        group_epoch: i32,
    } = 141,
    /// The coordinator computed a new target assignment with the `SimpleAssignor` for a new
    /// group epoch: each member's partitions (no revocation step: members move straight to
    /// it).
    ShareAssignmentComputed {
        /// The group's `group.id`.
        group: String,
        /// The group epoch it belongs to.
        group_epoch: i32,
        /// Each partition's wanted sharing, `ceil(members / partitions)`.
        desired_sharing: u32,
        /// Each member (by `client.id`) with its partitions.
        assignment: Vec<(String, Vec<TopicPartition>)>,
    } = 142,
    /// A heartbeat answer gave a member a new assignment, which it uses at once.
    ShareMemberAssigned {
        /// The group's `group.id`.
        group: String,
        /// The member's `client.id`.
        client_id: String,
        /// Its new member epoch.
        member_epoch: i32,
        /// Its partitions now.
        partitions: Vec<TopicPartition>,
    } = 143,
    /// The coordinator removed a member.
    ShareMemberLeft {
        /// The group's `group.id`.
        group: String,
        /// The member's `client.id`.
        client_id: String,
        /// Why.
        reason: ShareLeaveReason,
    } = 144,
    /// A share consumer's process died (no acknowledgement, no heartbeat).
    ShareMemberCrashed {
        /// The group's `group.id`.
        group: String,
        /// The member's `client.id`.
        client_id: String,
    } = 145,
    /// A crashed share consumer started again.
    ShareMemberRestarted {
        /// The group's `group.id`.
        group: String,
        /// The member's `client.id`.
        client_id: String,
    } = 146,
    /// The partition's leader started the share partition at `start_offset`, from
    /// `share.auto.offset.reset` (no state in `__share_group_state` yet).
    SharePartitionInitialized {
        /// The group's `group.id`.
        group: String,
        /// The partition.
        tp: TopicPartition,
        /// SPSO.
        start_offset: u64,
        /// True for `earliest` (the log start), false for `latest` (the HW).
        earliest: bool,
    } = 147,
    /// A new leader loaded the share partition from `__share_group_state`: acquired records
    /// are as last written.
    SharePartitionReloaded {
        /// The group's `group.id`.
        group: String,
        /// The partition.
        tp: TopicPartition,
        /// SPSO after the load.
        start_offset: u64,
    } = 148,
    /// A ShareFetch acquired records for a member, each locked to it.
    ShareRecordsAcquired {
        /// The group's `group.id`.
        group: String,
        /// The member's `client.id`.
        client_id: String,
        /// The partition.
        tp: TopicPartition,
        /// Each acquired offset with its delivery count (1 the first time).
        records: Vec<(u64, u32)>,
        /// When their lock expires (simulated ms).
        lock_until_ms: u64,
    } = 149,
    /// `poll()` handed a record to the application.
    ShareRecordDelivered {
        /// The group's `group.id`.
        group: String,
        /// The member's `client.id`.
        client_id: String,
        /// The record's id in the sandbox.
        record: RecordId,
        /// The partition.
        tp: TopicPartition,
        /// Its offset.
        offset: u64,
        /// Its value.
        value: String,
        /// Its delivery count.
        delivery_count: u32,
    } = 150,
    /// The leader applied a member's acknowledgements.
    ShareAcknowledged {
        /// The group's `group.id`.
        group: String,
        /// The member's `client.id`.
        client_id: String,
        /// The partition.
        tp: TopicPartition,
        /// The offsets.
        offsets: Vec<u64>,
        /// ACCEPT, RELEASE or REJECT.
        acknowledge_type: AcknowledgeType,
    } = 151,
    /// The leader refused acknowledgements (the records are not acquired by the member).
    ShareAcknowledgeFailed {
        /// The group's `group.id`.
        group: String,
        /// The member's `client.id`.
        client_id: String,
        /// The partition.
        tp: TopicPartition,
        /// The offsets.
        offsets: Vec<u64>,
        /// Why.
        error: ShareError,
    } = 152,
    /// Acquired records went back to AVAILABLE, their delivery counts kept.
    ShareRecordsReturned {
        /// The group's `group.id`.
        group: String,
        /// The `client.id` of the member that held them.
        client_id: String,
        /// The partition.
        tp: TopicPartition,
        /// The offsets.
        offsets: Vec<u64>,
        /// Why.
        cause: ReturnCause,
    } = 153,
    /// A record was archived: it will never be delivered again.
    ShareRecordArchived {
        /// The group's `group.id`.
        group: String,
        /// The partition.
        tp: TopicPartition,
        /// Its offset.
        offset: u64,
        /// How many times it was delivered.
        delivery_count: u32,
        /// Why.
        cause: ArchiveCause,
    } = 154,
    /// The share-partition start offset (SPSO) moved over acknowledged and archived records.
    ShareStartOffsetMoved {
        /// The group's `group.id`.
        group: String,
        /// The partition.
        tp: TopicPartition,
        /// The new SPSO.
        start_offset: u64,
    } = 155,
}

impl ShareGroupEvent {
    /// This feature's part of [`EventKind::name`](super::EventKind::name).
    pub fn name(&self) -> &'static str {
        use ShareGroupEvent as E;
        match self {
            E::ShareGroupCreated { .. } => "ShareGroupCreated",
            E::ShareMemberJoined { .. } => "ShareMemberJoined",
            E::ShareAssignmentComputed { .. } => "ShareAssignmentComputed",
            E::ShareMemberAssigned { .. } => "ShareMemberAssigned",
            E::ShareMemberLeft { .. } => "ShareMemberLeft",
            E::ShareMemberCrashed { .. } => "ShareMemberCrashed",
            E::ShareMemberRestarted { .. } => "ShareMemberRestarted",
            E::SharePartitionInitialized { .. } => "SharePartitionInitialized",
            E::SharePartitionReloaded { .. } => "SharePartitionReloaded",
            E::ShareRecordsAcquired { .. } => "ShareRecordsAcquired",
            E::ShareRecordDelivered { .. } => "ShareRecordDelivered",
            E::ShareAcknowledged { .. } => "ShareAcknowledged",
            E::ShareAcknowledgeFailed { .. } => "ShareAcknowledgeFailed",
            E::ShareRecordsReturned { .. } => "ShareRecordsReturned",
            E::ShareRecordArchived { .. } => "ShareRecordArchived",
            E::ShareStartOffsetMoved { .. } => "ShareStartOffsetMoved",
        }
    }

    /// This feature's part of [`EventKind::subjects`](super::EventKind::subjects).
    pub fn subjects(&self) -> Vec<Subject<'_>> {
        use ShareGroupEvent as E;
        use Subject as S;
        match self {
            E::ShareGroupCreated { group } => vec![S::Group(group)],
            E::ShareAssignmentComputed { group, assignment, .. } => {
                let mut s = vec![S::Group(group.as_str())];
                s.extend(assignment.iter().map(|(c, _)| member(group, c)));
                s
            }
            E::ShareMemberJoined { group, client_id, .. }
            | E::ShareMemberLeft { group, client_id, .. }
            | E::ShareMemberCrashed { group, client_id }
            | E::ShareMemberRestarted { group, client_id } => vec![S::Group(group), member(group, client_id)],
            E::ShareMemberAssigned { group, client_id, partitions, .. } => {
                let mut s = vec![S::Group(group.as_str()), member(group, client_id)];
                s.extend(partitions.iter().map(|tp| part(&tp.topic, tp.partition)));
                s
            }
            E::SharePartitionInitialized { group, tp, .. }
            | E::SharePartitionReloaded { group, tp, .. }
            | E::ShareRecordArchived { group, tp, .. }
            | E::ShareStartOffsetMoved { group, tp, .. } => vec![S::Group(group), part(&tp.topic, tp.partition)],
            E::ShareRecordDelivered { group, client_id, record, tp, .. } => {
                vec![S::Group(group), member(group, client_id), part(&tp.topic, tp.partition), S::Record(*record)]
            }
            E::ShareRecordsAcquired { group, client_id, tp, .. }
            | E::ShareAcknowledged { group, client_id, tp, .. }
            | E::ShareAcknowledgeFailed { group, client_id, tp, .. }
            | E::ShareRecordsReturned { group, client_id, tp, .. } => {
                vec![S::Group(group), member(group, client_id), part(&tp.topic, tp.partition)]
            }
        }
    }

    /// This feature's part of [`EventKind::category`](super::EventKind::category).
    pub fn category(&self) -> Category {
        use ShareGroupEvent as E;
        match self {
            E::ShareGroupCreated { .. }
            | E::ShareMemberJoined { .. }
            | E::ShareAssignmentComputed { .. }
            | E::ShareMemberAssigned { .. }
            | E::ShareMemberLeft { .. }
            | E::ShareMemberRestarted { .. } => Category::Group,
            E::ShareMemberCrashed { .. } | E::ShareAcknowledgeFailed { .. } => Category::Fault,
            E::SharePartitionInitialized { .. }
            | E::SharePartitionReloaded { .. }
            | E::ShareRecordsAcquired { .. }
            | E::ShareRecordDelivered { .. }
            | E::ShareAcknowledged { .. }
            | E::ShareRecordsReturned { .. }
            | E::ShareRecordArchived { .. }
            | E::ShareStartOffsetMoved { .. } => Category::Consume,
        }
    }

    /// This feature's part of [`EventKind::jump`](super::EventKind::jump): a new target
    /// assignment is a share group's rebalance, a crash a fault.
    pub fn jump(&self) -> Option<Jump> {
        use ShareGroupEvent as E;
        match self {
            E::ShareAssignmentComputed { .. } => Some(Jump::Rebalance),
            E::ShareMemberCrashed { .. } => Some(Jump::Fault),
            E::ShareGroupCreated { .. }
            | E::ShareMemberJoined { .. }
            | E::ShareMemberAssigned { .. }
            | E::ShareMemberLeft { .. }
            | E::ShareMemberRestarted { .. }
            | E::SharePartitionInitialized { .. }
            | E::SharePartitionReloaded { .. }
            | E::ShareRecordsAcquired { .. }
            | E::ShareRecordDelivered { .. }
            | E::ShareAcknowledged { .. }
            | E::ShareAcknowledgeFailed { .. }
            | E::ShareRecordsReturned { .. }
            | E::ShareRecordArchived { .. }
            | E::ShareStartOffsetMoved { .. } => None,
        }
    }

    /// This feature's part of [`EventKind::details`](super::EventKind::details): the
    /// delivered value, Kafka's names of acknowledgement types and causes.
    pub fn details(&self) -> Vec<&str> {
        use ShareGroupEvent as E;
        match self {
            E::ShareRecordDelivered { value, .. } => vec![value.as_str()],
            E::ShareAcknowledged { acknowledge_type, .. } => vec![acknowledge_type.kafka_name()],
            E::ShareRecordArchived { cause, .. } => vec![match cause {
                ArchiveCause::Rejected => "rejected",
                ArchiveCause::DeliveryLimit => "delivery_limit",
            }],
            E::ShareRecordsReturned { cause, .. } => vec![match cause {
                ReturnCause::LockExpired => "lock_expired",
                ReturnCause::Released => "released",
                ReturnCause::SessionClosed => "session_closed",
            }],
            E::ShareMemberLeft { reason, .. } => vec![match reason {
                ShareLeaveReason::Left => "left",
                ShareLeaveReason::SessionExpired => "session_expired",
            }],
            E::ShareAcknowledgeFailed { error, .. } => vec![match error {
                ShareError::InvalidRecordState => "INVALID_RECORD_STATE",
                ShareError::NotLeaderOrFollower => "NOT_LEADER_OR_FOLLOWER",
            }],
            E::ShareGroupCreated { .. }
            | E::ShareMemberJoined { .. }
            | E::ShareAssignmentComputed { .. }
            | E::ShareMemberAssigned { .. }
            | E::ShareMemberCrashed { .. }
            | E::ShareMemberRestarted { .. }
            | E::SharePartitionInitialized { .. }
            | E::SharePartitionReloaded { .. }
            | E::ShareRecordsAcquired { .. }
            | E::ShareStartOffsetMoved { .. } => Vec::new(),
        }
    }
}
