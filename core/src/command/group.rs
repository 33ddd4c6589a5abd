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
    AddGroup { group: GroupSpec },
    /// A consumer starts and joins a group.
    AddMember { group: String, member: MemberSpec },
    /// A consumer closes gracefully: it commits (with auto-commit) and leaves the group.
    RemoveMember { group: String, client_id: String },
    /// The consumer process dies (no LeaveGroup; the coordinator waits out its session).
    CrashMember { group: String, client_id: String },
    /// A crashed consumer starts again with the same client id and `group.instance.id`.
    RestartMember { group: String, client_id: String },
    /// The application stops calling `poll()` (stuck in processing), or resumes.
    PauseMember { group: String, client_id: String, paused: bool },
    /// How long the application takes per record (sandbox only).
    SetProcessing { group: String, client_id: String, processing_ms: u64 },
    /// When the consumer commits offsets.
    SetCommitMode { group: String, client_id: String, commit_mode: crate::config::CommitMode },
    /// The group's `partition.assignment.strategy` changes (in Kafka: every member is
    /// restarted with the new setting) and the group rebalances with the same members.
    SetAssignor { group: String, assignor: Strategy },
    /// The application calls `seek()` on a partition it is assigned (every assigned
    /// partition of `topic` when `partition` is left out): `seekToBeginning`, `seekToEnd`,
    /// `seek(offset)`, or `offsetsForTimes` then `seek`.
    Seek {
        group: String,
        client_id: String,
        topic: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        partition: Option<u32>,
        to: SeekTo,
    },
    /// The application calls `subscribe()` with another list of topics: the member rejoins
    /// (classic) or sends its new subscription (KIP-848), and the group rebalances.
    Subscribe { group: String, client_id: String, topics: Vec<String> },
}
