//! Consumer groups' membership events: joins, leaves, the classic protocol's JoinGroup/SyncGroup rounds, revocations and assignments, crashes and pauses.

use super::{member, topics, Category, Jump, LeaveReason, RebalanceCause, Subject};
use crate::record::TopicPartition;
use serde::{Deserialize, Serialize};

/// Group: what happened, with what it touched (one kind of [`super::EventKind`]).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
// Explicit discriminants: the place each kind had in the one flat `EventKind`, so the
// trace digest (derived `Hash`, which hashes the discriminant) is unchanged.
#[repr(isize)]
pub enum GroupEvent {
    /// The group leader's metadata refresh noticed a subscribed topic grew; it rejoins.
    MetadataChangeNoticed {
        /// The group's `group.id`.
        group: String,
        /// The leader's `client.id`.
        client_id: String,
        /// The subscribed topic whose partition count differs from what the leader assigned.
        topic: String,
    } = 21,
    /// A consumer group came into being (a scenario's group or a Streams application's at
    /// the start, or one added at run time), with no members yet.
    GroupCreated {
        /// The new group's `group.id`.
        group: String,
    } = 23,
    /// The coordinator added a new member to the group (classic: its JoinGroup with the id
    /// KIP-394 gave it, or a static member's first; KIP-848: its first heartbeat); a
    /// rebalance (classic) or a new group epoch (KIP-848) follows.
    MemberJoined {
        /// The group's `group.id`.
        group: String,
        /// The member's `client.id`.
        client_id: String,
        /// The id the group knows the member by (classic: given by the coordinator;
        /// KIP-848: chosen by the consumer).
        member_id: String,
    } = 24,
    /// The coordinator removed a member.
    MemberLeft {
        /// The group's `group.id`.
        group: String,
        /// The member's `client.id`.
        client_id: String,
        /// The removed member's id.
        member_id: String,
        /// Why it was removed: it left, or a timeout ran out.
        reason: LeaveReason,
    } = 25,
    /// A consumer sends JoinGroup (`member_id` empty on its very first join).
    JoinGroupSent {
        /// The group's `group.id`.
        group: String,
        /// The member's `client.id`.
        client_id: String,
        /// The member id it joins with; empty when it has none yet.
        member_id: String,
        /// The generation it last knew (-1 when it has none).
        generation: i32,
    } = 26,
    /// KIP-394: the coordinator hands a new member its id and asks it to join again.
    MemberIdRequired {
        /// The group's `group.id`.
        group: String,
        /// The member's `client.id`.
        client_id: String,
        /// The member id the coordinator gave it.
        member_id: String,
    } = 27,
    /// A static member (`group.instance.id`) came back within the session timeout and
    /// took its old place without a rebalance (KIP-345).
    StaticMemberReplaced {
        /// The group's `group.id`.
        group: String,
        /// The returning consumer's `client.id`.
        client_id: String,
        /// The member id of the incarnation it replaced.
        old_member_id: String,
        /// Its new member id.
        member_id: String,
    } = 28,
    /// A heartbeat answered REBALANCE_IN_PROGRESS: the member must rejoin.
    RebalanceNoticed {
        /// The group's `group.id`.
        group: String,
        /// The member's `client.id`.
        client_id: String,
    } = 29,
    /// The member stops consuming these partitions (before rejoining, or after the
    /// cooperative assignment moved them away).
    PartitionsRevoked {
        /// The group's `group.id`.
        group: String,
        /// The member's `client.id`.
        client_id: String,
        /// The partitions it gave up.
        partitions: Vec<TopicPartition>,
    } = 30,
    /// Every member has rejoined (or timed out): a new generation, its leader and members.
    JoinPhaseCompleted {
        /// The group's `group.id`.
        group: String,
        /// The new generation.
        generation: i32,
        /// The leader's `client.id`: the member that runs the assignor.
        leader: String,
        /// The members of the generation, by `client.id`.
        members: Vec<String>,
        /// The group's assignor (`partition.assignment.strategy`), by name.
        assignor: String,
    } = 31,
    /// A consumer sends SyncGroup; the leader's carries the assignment it computed.
    SyncGroupSent {
        /// The group's `group.id`.
        group: String,
        /// The member's `client.id`.
        client_id: String,
        /// The generation its JoinGroup answer gave it.
        generation: i32,
        /// Whether it is the group's leader (its SyncGroup carries the assignment).
        leader: bool,
    } = 32,
    /// The consumer process died: no LeaveGroup, no more heartbeats, what it had fetched
    /// but not processed is lost to it. The coordinator removes it once `session.timeout.ms`
    /// passes without a heartbeat, unless a static member comes back first.
    MemberCrashed {
        /// The group's `group.id`.
        group: String,
        /// The member's `client.id`.
        client_id: String,
    } = 35,
    /// The crashed consumer started again with the same `client.id` (and
    /// `group.instance.id`, if static) and joins the group anew.
    MemberRestarted {
        /// The group's `group.id`.
        group: String,
        /// The member's `client.id`.
        client_id: String,
    } = 36,
    /// The application stopped (or resumed) calling `poll()`.
    MemberPaused {
        /// The group's `group.id`.
        group: String,
        /// The member's `client.id`.
        client_id: String,
        /// True when it stopped polling, false when it resumed.
        paused: bool,
    } = 37,
    /// Everyone stops consuming and gives its partitions up (eager protocol).
    RebalanceStarted {
        /// The group's `group.id`.
        group: String,
        /// What made the coordinator start the rebalance.
        cause: RebalanceCause,
    } = 38,
    /// The assignor's result for one member in a new generation.
    PartitionsAssigned {
        /// The group's `group.id`.
        group: String,
        /// The generation the assignment belongs to.
        generation: i32,
        /// The member's `client.id`.
        client_id: String,
        /// Every partition the member now owns (not only the new ones).
        partitions: Vec<TopicPartition>,
    } = 39,
    /// The group has a new generation and every member knows its partitions.
    GroupStable {
        /// The group's `group.id`.
        group: String,
        /// The generation the group is Stable at.
        generation: i32,
    } = 40,
    /// The application called `subscribe()` with other topics.
    Subscribed {
        /// The group's `group.id`.
        group: String,
        /// The member's `client.id`.
        client_id: String,
        /// The topics it subscribes to now.
        topics: Vec<String>,
    } = 52,
}

impl GroupEvent {
    /// This feature's part of [`EventKind::name`](super::EventKind::name).
    pub fn name(&self) -> &'static str {
        use GroupEvent as E;
        match self {
            E::MetadataChangeNoticed { .. } => "MetadataChangeNoticed",
            E::GroupCreated { .. } => "GroupCreated",
            E::MemberJoined { .. } => "MemberJoined",
            E::MemberLeft { .. } => "MemberLeft",
            E::JoinGroupSent { .. } => "JoinGroupSent",
            E::MemberIdRequired { .. } => "MemberIdRequired",
            E::StaticMemberReplaced { .. } => "StaticMemberReplaced",
            E::RebalanceNoticed { .. } => "RebalanceNoticed",
            E::PartitionsRevoked { .. } => "PartitionsRevoked",
            E::JoinPhaseCompleted { .. } => "JoinPhaseCompleted",
            E::SyncGroupSent { .. } => "SyncGroupSent",
            E::MemberCrashed { .. } => "MemberCrashed",
            E::MemberRestarted { .. } => "MemberRestarted",
            E::MemberPaused { .. } => "MemberPaused",
            E::RebalanceStarted { .. } => "RebalanceStarted",
            E::PartitionsAssigned { .. } => "PartitionsAssigned",
            E::GroupStable { .. } => "GroupStable",
            E::Subscribed { .. } => "Subscribed",
        }
    }

    /// This feature's part of [`EventKind::subjects`](super::EventKind::subjects).
    pub fn subjects(&self) -> Vec<Subject<'_>> {
        use GroupEvent as E;
        use Subject as S;
        match self {
            E::MetadataChangeNoticed { group, client_id, topic } => vec![member(group, client_id), S::Topic(topic)],
            E::GroupCreated { group } | E::GroupStable { group, .. } => vec![S::Group(group)],
            E::MemberJoined { group, client_id, .. }
            | E::MemberLeft { group, client_id, .. }
            | E::JoinGroupSent { group, client_id, .. }
            | E::MemberIdRequired { group, client_id, .. }
            | E::StaticMemberReplaced { group, client_id, .. }
            | E::RebalanceNoticed { group, client_id }
            | E::PartitionsRevoked { group, client_id, .. }
            | E::SyncGroupSent { group, client_id, .. }
            | E::MemberCrashed { group, client_id }
            | E::MemberRestarted { group, client_id }
            | E::MemberPaused { group, client_id, .. }
            | E::PartitionsAssigned { group, client_id, .. }
            | E::Subscribed { group, client_id, .. } => vec![S::Group(group), member(group, client_id)],
            E::JoinPhaseCompleted { group, members, .. } => {
                let mut out = vec![S::Group(group)];
                out.extend(members.iter().map(|c| member(group, c)));
                out
            }
            E::RebalanceStarted { group, cause } => {
                let mut out = vec![S::Group(group)];
                out.extend(cause.subject(group));
                out
            }
        }
    }

    /// This feature's part of [`EventKind::category`](super::EventKind::category).
    pub fn category(&self) -> Category {
        use GroupEvent as E;
        match self {
            E::MemberCrashed { .. } | E::MemberRestarted { .. } => Category::Fault,
            E::MetadataChangeNoticed { .. }
            | E::GroupCreated { .. }
            | E::MemberJoined { .. }
            | E::MemberLeft { .. }
            | E::JoinGroupSent { .. }
            | E::MemberIdRequired { .. }
            | E::StaticMemberReplaced { .. }
            | E::RebalanceNoticed { .. }
            | E::PartitionsRevoked { .. }
            | E::JoinPhaseCompleted { .. }
            | E::SyncGroupSent { .. }
            | E::MemberPaused { .. }
            | E::RebalanceStarted { .. }
            | E::PartitionsAssigned { .. }
            | E::GroupStable { .. }
            | E::Subscribed { .. } => Category::Group,
        }
    }

    /// This feature's part of [`EventKind::jump`](super::EventKind::jump).
    pub fn jump(&self) -> Option<Jump> {
        use GroupEvent as E;
        match self {
            E::RebalanceStarted { .. } => Some(Jump::Rebalance),
            E::MemberCrashed { .. } => Some(Jump::Fault),
            E::MetadataChangeNoticed { .. }
            | E::GroupCreated { .. }
            | E::MemberJoined { .. }
            | E::MemberLeft { .. }
            | E::JoinGroupSent { .. }
            | E::MemberIdRequired { .. }
            | E::StaticMemberReplaced { .. }
            | E::RebalanceNoticed { .. }
            | E::PartitionsRevoked { .. }
            | E::JoinPhaseCompleted { .. }
            | E::SyncGroupSent { .. }
            | E::MemberRestarted { .. }
            | E::MemberPaused { .. }
            | E::PartitionsAssigned { .. }
            | E::GroupStable { .. }
            | E::Subscribed { .. } => None,
        }
    }

    /// This feature's part of [`EventKind::details`](super::EventKind::details).
    pub fn details(&self) -> Vec<&str> {
        use GroupEvent as E;
        match self {
            E::MetadataChangeNoticed { .. }
            | E::GroupCreated { .. }
            | E::RebalanceNoticed { .. }
            | E::SyncGroupSent { .. }
            | E::MemberCrashed { .. }
            | E::MemberRestarted { .. }
            | E::MemberPaused { .. }
            | E::GroupStable { .. } => Vec::new(),
            E::MemberJoined { member_id, .. } | E::JoinGroupSent { member_id, .. } | E::MemberIdRequired { member_id, .. } => {
                vec![member_id]
            }
            E::MemberLeft { member_id, reason, .. } => vec![member_id, reason.name()],
            E::StaticMemberReplaced { old_member_id, member_id, .. } => vec![old_member_id, member_id],
            E::PartitionsRevoked { partitions, .. } | E::PartitionsAssigned { partitions, .. } => topics(partitions).collect(),
            E::JoinPhaseCompleted { leader, assignor, .. } => vec![leader, assignor],
            E::RebalanceStarted { cause, .. } => vec![cause.name()],
            E::Subscribed { topics, .. } => topics.iter().map(String::as_str).collect(),
        }
    }
}
