//! Kafka Streams' events: a record processed by the topology, a state store restored from its changelog.

use super::{member, part, Category, Jump, Subject};
use crate::record::TopicPartition;
use serde::{Deserialize, Serialize};

/// Streams: what happened, with what it touched (one kind of [`super::EventKind`]).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
// Explicit discriminants: the place each kind had in the one flat `EventKind`, so the
// trace digest (derived `Hash`, which hashes the discriminant) is unchanged.
#[repr(isize)]
pub enum StreamsEvent {
    /// A Kafka Streams instance ran its operator on a record it consumed; `output` =
    /// the (key, value) it sent to the sink (none when a filter dropped it).
    StreamsRecordProcessed {
        /// The application's `application.id` (also its consumer group's id).
        application_id: String,
        /// The instance's `client.id`.
        client_id: String,
        /// The source partition the record came from.
        tp: TopicPartition,
        /// The record's offset in it.
        offset: u64,
        /// The (key, value) sent to the sink topic; `None` when the filter dropped the record
        /// or `count_by_key` skipped it for having no key.
        output: Option<(Option<String>, String)>,
        /// The output record's id (the sandbox's, for the exactly-once monitor and a
        /// record's path), when there is one.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        record: Option<crate::record::RecordId>,
    } = 63,
    /// A Streams task's state store was rebuilt from its changelog partition before the
    /// instance processed the task's next record: `records` read, `keys` now in the store.
    StateStoreRestored {
        /// The application's `application.id`.
        application_id: String,
        /// The instance's `client.id`.
        client_id: String,
        /// The state store's name.
        store: String,
        /// The task's partition: of the source topic, and of the changelog it was restored from.
        partition: u32,
        /// How many changelog records it applied (each a key and its count).
        records: u32,
        /// How many keys the store holds afterwards.
        keys: u32,
    } = 64,
}

impl StreamsEvent {
    /// This feature's part of [`EventKind::name`](super::EventKind::name).
    pub fn name(&self) -> &'static str {
        use StreamsEvent as E;
        match self {
            E::StreamsRecordProcessed { .. } => "StreamsRecordProcessed",
            E::StateStoreRestored { .. } => "StateStoreRestored",
        }
    }

    /// This feature's part of [`EventKind::subjects`](super::EventKind::subjects).
    pub fn subjects(&self) -> Vec<Subject<'_>> {
        use StreamsEvent as E;
        use Subject as S;
        match self {
            E::StreamsRecordProcessed { application_id, client_id, tp, .. } => {
                vec![S::StreamsApp(application_id), member(application_id, client_id), part(&tp.topic, tp.partition)]
            }
            E::StateStoreRestored { application_id, client_id, .. } => {
                vec![S::StreamsApp(application_id), member(application_id, client_id)]
            }
        }
    }

    /// This feature's part of [`EventKind::category`](super::EventKind::category).
    pub fn category(&self) -> Category {
        use StreamsEvent as E;
        match self {
            E::StreamsRecordProcessed { .. } | E::StateStoreRestored { .. } => Category::Consume,
        }
    }

    /// This feature's part of [`EventKind::jump`](super::EventKind::jump).
    pub fn jump(&self) -> Option<Jump> {
        use StreamsEvent as E;
        match self {
            E::StreamsRecordProcessed { .. } | E::StateStoreRestored { .. } => None,
        }
    }

    /// This feature's part of [`EventKind::details`](super::EventKind::details).
    pub fn details(&self) -> Vec<&str> {
        use StreamsEvent as E;
        match self {
            E::StreamsRecordProcessed { output, .. } => match output {
                Some((key, value)) => {
                    let mut out = vec![value.as_str()];
                    out.extend(key.as_deref());
                    out
                }
                None => Vec::new(),
            },
            E::StateStoreRestored { store, .. } => vec![store],
        }
    }
}
