//! The consumer groups' commands (both protocols): a group or a member starts, stops,
//! crashes, pauses, seeks, subscribes; the settings a person changes while it runs.

use super::{GroupSpec, MemberSpec, SeekTo};
use crate::config::Strategy;
use serde::Serialize;

/// What a person does to a consumer group or one of its members. Executed by
/// `sim/group/mod.rs`, which dispatches on the group's protocol.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum GroupCommand {
    /// A new consumer group starts consuming.
    AddGroup {
        /// The whole group: its id, topics, settings and first members.
        group: GroupSpec,
    },
    /// A consumer starts and joins a group.
    AddMember {
        /// The group's `group.id`.
        group: String,
        /// The consumer: its `client.id` (new in the group), `group.instance.id`,
        /// subscription and settings.
        member: MemberSpec,
    },
    /// A consumer closes gracefully: it commits (with auto-commit) and leaves the group.
    RemoveMember {
        /// The group's `group.id`.
        group: String,
        /// The member's `client.id` in that group.
        client_id: String,
    },
    /// The consumer process dies (no LeaveGroup; the coordinator waits out its session).
    CrashMember {
        /// The group's `group.id`.
        group: String,
        /// The member's `client.id` in that group.
        client_id: String,
    },
    /// A crashed consumer starts again with the same client id and `group.instance.id`.
    RestartMember {
        /// The group's `group.id`.
        group: String,
        /// The member's `client.id` in that group.
        client_id: String,
    },
    /// The application stops calling `poll()` (stuck in processing), or resumes.
    PauseMember {
        /// The group's `group.id`.
        group: String,
        /// The member's `client.id` in that group.
        client_id: String,
        /// `true`: it finishes the records in hand, then stops calling `poll()` (its
        /// heartbeats go on, so it leaves after `max.poll.interval.ms`); `false`: it polls
        /// again, rejoining if it had left.
        paused: bool,
    },
    /// How long the application takes per record (sandbox only).
    SetProcessing {
        /// The group's `group.id`.
        group: String,
        /// The member's `client.id` in that group.
        client_id: String,
        /// Milliseconds spent on each record `poll()` returned; at most
        /// [`crate::limits::MAX_PROCESSING_MS`] (one hour), a larger value is capped at it.
        processing_ms: u64,
    },
    /// When the consumer commits offsets.
    SetCommitMode {
        /// The group's `group.id`.
        group: String,
        /// The member's `client.id` in that group.
        client_id: String,
        /// The new mode: auto-commit, or the application's `commitSync()`/`commitAsync()`
        /// after or before processing each poll's records.
        commit_mode: crate::config::CommitMode,
    },
    /// The group's `partition.assignment.strategy` changes (in Kafka: every member is
    /// restarted with the new setting) and the group rebalances with the same members.
    SetAssignor {
        /// The group's `group.id`.
        group: String,
        /// The new strategy; `cooperative-sticky` switches the group to the cooperative
        /// protocol (KIP-429), the others to the eager one. Refused for a
        /// `group.protocol=consumer` group.
        assignor: Strategy,
    },
    /// The application calls `seek()` on a partition it is assigned (every assigned
    /// partition of `topic` when `partition` is left out): `seekToBeginning`, `seekToEnd`,
    /// `seek(offset)`, or `offsetsForTimes` then `seek`.
    Seek {
        /// The group's `group.id`.
        group: String,
        /// The member's `client.id` in that group.
        client_id: String,
        /// The topic of the partitions to move.
        topic: String,
        /// One partition the member is assigned; `None` for every partition of `topic` it
        /// is assigned.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        partition: Option<u32>,
        /// Where the position goes; the next fetch reads from there.
        to: SeekTo,
    },
    /// The application calls `subscribe()` with another list of topics: the member rejoins
    /// (classic) or sends its new subscription (KIP-848), and the group rebalances.
    Subscribe {
        /// The group's `group.id`.
        group: String,
        /// The member's `client.id` in that group.
        client_id: String,
        /// The new subscription: at least one existing topic. Partitions of the topics it
        /// leaves are given up at once.
        topics: Vec<String>,
    },
}
