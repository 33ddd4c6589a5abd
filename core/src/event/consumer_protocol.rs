//! The consumer group protocol's events (KIP-848): heartbeats, group epochs, target assignments and reconciliation.

use super::{member, topics, Category, GroupError, Jump, RebalanceCause, Subject};
use crate::record::TopicPartition;
use serde::{Deserialize, Serialize};

/// ConsumerProtocol: what happened, with what it touched (one kind of [`super::EventKind`]).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
// Explicit discriminants: the place each kind had in the one flat `EventKind`, so the
// trace digest (derived `Hash`, which hashes the discriminant) is unchanged.
#[repr(isize)]
pub enum ConsumerProtocolEvent {
    /// KIP-848: a consumer sent ConsumerGroupHeartbeat outside its steady rhythm — to join
    /// (epoch 0), to acknowledge a reconciled assignment (its owned partitions), or to
    /// leave (epoch -1, or -2 for a static member).
    ConsumerHeartbeatSent {
        /// The group's `group.id`.
        group: String,
        /// The member's `client.id`.
        client_id: String,
        /// The member epoch it sent: 0 to join, its current epoch to acknowledge, -1 to
        /// leave, -2 for a static member leaving.
        member_epoch: i32,
        /// The partitions it says it owns (none when it leaves).
        owned: Vec<TopicPartition>,
    } = 47,
    /// KIP-848: the group epoch went up (a member joined or left, metadata changed); the
    /// coordinator computes a new target assignment with its broker-side assignor.
    GroupEpochBumped {
        /// The group's `group.id`.
        group: String,
        /// The new group epoch.
        epoch: i32,
        /// What changed the group.
        cause: RebalanceCause,
    } = 48,
    /// KIP-848: the new target assignment, per member (client ids).
    TargetAssignmentComputed {
        /// The group's `group.id`.
        group: String,
        /// The group epoch the target assignment is for.
        epoch: i32,
        /// The broker-side assignor that computed it (the group's `group.remote.assignor`),
        /// by name.
        assignor: String,
        /// Per member (by `client.id`), the partitions it should own.
        target: Vec<(String, Vec<TopicPartition>)>,
    } = 49,
    /// KIP-848: the consumer hit an error it cannot recover from and stopped.
    ConsumerFailed {
        /// The group's `group.id`.
        group: String,
        /// The member's `client.id`.
        client_id: String,
        /// The error that stopped it: `UNRELEASED_INSTANCE_ID` from the coordinator, or
        /// `NO_OFFSET_FOR_PARTITION` / `OFFSET_OUT_OF_RANGE` from `poll()` under
        /// `auto.offset.reset=none`, or (classic protocol) `INVALID_SESSION_TIMEOUT` for a
        /// JoinGroup outside `group.min/max.session.timeout.ms`.
        error: GroupError,
    } = 50,
    /// KIP-848: the member applied the assignment a heartbeat brought (epoch `epoch`):
    /// it now owns `partitions` (what it gave up is in `PartitionsRevoked` before).
    AssignmentReconciled {
        /// The group's `group.id`.
        group: String,
        /// The member's `client.id`.
        client_id: String,
        /// The member epoch the assignment came with.
        epoch: i32,
        /// Every partition it owns now.
        partitions: Vec<TopicPartition>,
    } = 53,
    /// KIP-848: every member has reached the target assignment of `epoch`.
    ConsumerGroupStable {
        /// The group's `group.id`.
        group: String,
        /// The group epoch every member has reached.
        epoch: i32,
    } = 54,
    /// KIP-848: the coordinator moved a member forward: it must revoke `revoking` first
    /// (epoch unchanged), or it reached `epoch`, still waiting for `unreleased` partitions
    /// other members have not given up yet.
    MemberReconciling {
        /// The group's `group.id`.
        group: String,
        /// The member's `client.id`.
        client_id: String,
        /// The member's epoch now: unchanged while it must revoke, else the target's.
        epoch: i32,
        /// The partitions it must give up before it moves on.
        revoking: Vec<TopicPartition>,
        /// The target's partitions it cannot have yet: other members still own them.
        unreleased: Vec<TopicPartition>,
    } = 55,
}

impl ConsumerProtocolEvent {
    /// This feature's part of [`EventKind::name`](super::EventKind::name).
    pub fn name(&self) -> &'static str {
        use ConsumerProtocolEvent as E;
        match self {
            E::ConsumerHeartbeatSent { .. } => "ConsumerHeartbeatSent",
            E::GroupEpochBumped { .. } => "GroupEpochBumped",
            E::TargetAssignmentComputed { .. } => "TargetAssignmentComputed",
            E::ConsumerFailed { .. } => "ConsumerFailed",
            E::AssignmentReconciled { .. } => "AssignmentReconciled",
            E::ConsumerGroupStable { .. } => "ConsumerGroupStable",
            E::MemberReconciling { .. } => "MemberReconciling",
        }
    }

    /// This feature's part of [`EventKind::subjects`](super::EventKind::subjects).
    pub fn subjects(&self) -> Vec<Subject<'_>> {
        use ConsumerProtocolEvent as E;
        use Subject as S;
        match self {
            E::ConsumerGroupStable { group, .. } => vec![S::Group(group)],
            E::ConsumerHeartbeatSent { group, client_id, .. }
            | E::ConsumerFailed { group, client_id, .. }
            | E::AssignmentReconciled { group, client_id, .. }
            | E::MemberReconciling { group, client_id, .. } => vec![S::Group(group), member(group, client_id)],
            E::TargetAssignmentComputed { group, target, .. } => {
                let mut out = vec![S::Group(group)];
                out.extend(target.iter().map(|(c, _)| member(group, c)));
                out
            }
            E::GroupEpochBumped { group, cause, .. } => {
                let mut out = vec![S::Group(group)];
                out.extend(cause.subject(group));
                out
            }
        }
    }

    /// This feature's part of [`EventKind::category`](super::EventKind::category).
    pub fn category(&self) -> Category {
        use ConsumerProtocolEvent as E;
        match self {
            E::ConsumerFailed { .. } => Category::Fault,
            E::ConsumerHeartbeatSent { .. }
            | E::GroupEpochBumped { .. }
            | E::TargetAssignmentComputed { .. }
            | E::AssignmentReconciled { .. }
            | E::ConsumerGroupStable { .. }
            | E::MemberReconciling { .. } => Category::Group,
        }
    }

    /// This feature's part of [`EventKind::jump`](super::EventKind::jump).
    pub fn jump(&self) -> Option<Jump> {
        use ConsumerProtocolEvent as E;
        match self {
            E::GroupEpochBumped { .. } => Some(Jump::Rebalance),
            E::ConsumerFailed { .. } => Some(Jump::Fault),
            E::ConsumerHeartbeatSent { .. }
            | E::TargetAssignmentComputed { .. }
            | E::AssignmentReconciled { .. }
            | E::ConsumerGroupStable { .. }
            | E::MemberReconciling { .. } => None,
        }
    }

    /// This feature's part of [`EventKind::details`](super::EventKind::details).
    pub fn details(&self) -> Vec<&str> {
        use ConsumerProtocolEvent as E;
        match self {
            E::ConsumerGroupStable { .. } => Vec::new(),
            E::AssignmentReconciled { partitions, .. } => topics(partitions).collect(),
            E::ConsumerHeartbeatSent { owned, .. } => topics(owned).collect(),
            E::MemberReconciling { revoking, unreleased, .. } => topics(revoking).chain(topics(unreleased)).collect(),
            E::GroupEpochBumped { cause, .. } => vec![cause.name()],
            E::TargetAssignmentComputed { assignor, target, .. } => {
                let mut out = vec![assignor.as_str()];
                out.extend(target.iter().flat_map(|(_, tps)| topics(tps)));
                out
            }
            E::ConsumerFailed { error, .. } => vec![error.name()],
        }
    }
}
