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
    ConsumerHeartbeatSent { group: String, client_id: String, member_epoch: i32, owned: Vec<TopicPartition> } = 47,
    /// KIP-848: the group epoch went up (a member joined or left, metadata changed); the
    /// coordinator computes a new target assignment with its broker-side assignor.
    GroupEpochBumped { group: String, epoch: i32, cause: RebalanceCause } = 48,
    /// KIP-848: the new target assignment, per member (client ids).
    TargetAssignmentComputed { group: String, epoch: i32, assignor: String, target: Vec<(String, Vec<TopicPartition>)> } = 49,
    /// KIP-848: the consumer hit an error it cannot recover from and stopped.
    ConsumerFailed { group: String, client_id: String, error: GroupError } = 50,
    /// KIP-848: the member applied the assignment a heartbeat brought (epoch `epoch`):
    /// it now owns `partitions` (what it gave up is in `PartitionsRevoked` before).
    AssignmentReconciled { group: String, client_id: String, epoch: i32, partitions: Vec<TopicPartition> } = 53,
    /// KIP-848: every member has reached the target assignment of `epoch`.
    ConsumerGroupStable { group: String, epoch: i32 } = 54,
    /// KIP-848: the coordinator moved a member forward: it must revoke `revoking` first
    /// (epoch unchanged), or it reached `epoch`, still waiting for `unreleased` partitions
    /// other members have not given up yet.
    MemberReconciling { group: String, client_id: String, epoch: i32, revoking: Vec<TopicPartition>, unreleased: Vec<TopicPartition> } = 55,
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
