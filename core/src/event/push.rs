//! Push delivery's events (not Kafka — a teaching device): records pushed to a member, a member overwhelmed.

use super::{member, part, Category, Jump, Subject};
use crate::record::TopicPartition;
use serde::{Deserialize, Serialize};

/// Push: what happened, with what it touched (one kind of [`super::EventKind`]).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
// Explicit discriminants: the place each kind had in the one flat `EventKind`, so the
// trace digest (derived `Hash`, which hashes the discriminant) is unchanged.
#[repr(isize)]
pub enum PushEvent {
    /// Push (not Kafka — a teaching device): the broker pushed `count` newly committed
    /// records of `tp` to the member without being asked; `buffered` = what the member now
    /// holds received but not processed.
    RecordsPushed {
        /// The member's `group.id`.
        group: String,
        /// The member's `client.id`.
        client_id: String,
        /// The partition the records came from.
        tp: TopicPartition,
        /// How many records were pushed.
        count: u32,
        /// How many records the member now holds received but not processed.
        buffered: u32,
    } = 56,
    /// Push (not Kafka — a teaching device): the member's buffer went past
    /// `push_buffer_max_records`: it runs out of memory and crashes, losing its buffer.
    PushOverwhelmed {
        /// The member's `group.id`.
        group: String,
        /// The member's `client.id`.
        client_id: String,
        /// How many records its buffer held.
        buffered: u32,
        /// The group's `push_buffer_max_records`: the most a member can hold.
        limit: u32,
    } = 57,
}

impl PushEvent {
    /// This feature's part of [`EventKind::name`](super::EventKind::name).
    pub fn name(&self) -> &'static str {
        use PushEvent as E;
        match self {
            E::RecordsPushed { .. } => "RecordsPushed",
            E::PushOverwhelmed { .. } => "PushOverwhelmed",
        }
    }

    /// This feature's part of [`EventKind::subjects`](super::EventKind::subjects).
    pub fn subjects(&self) -> Vec<Subject<'_>> {
        use PushEvent as E;
        use Subject as S;
        match self {
            E::PushOverwhelmed { group, client_id, .. } => vec![S::Group(group), member(group, client_id)],
            E::RecordsPushed { group, client_id, tp, .. } => {
                vec![S::Group(group), member(group, client_id), part(&tp.topic, tp.partition)]
            }
        }
    }

    /// This feature's part of [`EventKind::category`](super::EventKind::category).
    pub fn category(&self) -> Category {
        use PushEvent as E;
        match self {
            E::PushOverwhelmed { .. } => Category::Fault,
            E::RecordsPushed { .. } => Category::Consume,
        }
    }

    /// This feature's part of [`EventKind::jump`](super::EventKind::jump).
    pub fn jump(&self) -> Option<Jump> {
        use PushEvent as E;
        match self {
            E::RecordsPushed { .. } | E::PushOverwhelmed { .. } => None,
        }
    }

    /// This feature's part of [`EventKind::details`](super::EventKind::details).
    pub fn details(&self) -> Vec<&str> {
        use PushEvent as E;
        match self {
            E::RecordsPushed { .. } | E::PushOverwhelmed { .. } => Vec::new(),
        }
    }
}
