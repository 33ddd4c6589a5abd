//! Kafka Connect's events: a source table changing, the task polling it, offsets flushed, the task crashing and restarting.

use super::{Category, Jump, SourceOffset, Subject};
use crate::record::RecordId;
use serde::{Deserialize, Serialize};

/// Connect: what happened, with what it touched (one kind of [`super::EventKind`]).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
// Explicit discriminants: the place each kind had in the one flat `EventKind`, so the
// trace digest (derived `Hash`, which hashes the discriminant) is unchanged.
#[repr(isize)]
pub enum ConnectEvent {
    /// A source connector's table changed: a row was inserted or updated (its timestamp
    /// column is now).
    TableRowChanged { connector: String, id: u64, value: String, insert: bool } = 58,
    /// The connector's task polled its table (`SourceTask.poll()`): each row (id) became
    /// a record (key = id) sent through its producer; `position` = the task's offset now.
    SourceRecordsPolled { connector: String, rows: Vec<(u64, RecordId)>, position: Option<SourceOffset> } = 59,
    /// The task's acknowledged source offsets were flushed to the offsets store
    /// (`OffsetStorageWriter`): a restarted task resumes after `offset`.
    SourceOffsetsFlushed { connector: String, offset: SourceOffset, records: u32 } = 60,
    /// The connector's task crashed: `unflushed` records were sent after the last flush
    /// and will be sent again by the next task, which resumes after `committed`.
    ConnectorTaskCrashed { connector: String, unflushed: u32, committed: Option<SourceOffset> } = 61,
    /// A new task started, reading its offset from the offsets store.
    ConnectorTaskRestarted { connector: String, resume_after: Option<SourceOffset> } = 62,
}

impl ConnectEvent {
    /// This feature's part of [`EventKind::name`](super::EventKind::name).
    pub fn name(&self) -> &'static str {
        use ConnectEvent as E;
        match self {
            E::TableRowChanged { .. } => "TableRowChanged",
            E::SourceRecordsPolled { .. } => "SourceRecordsPolled",
            E::SourceOffsetsFlushed { .. } => "SourceOffsetsFlushed",
            E::ConnectorTaskCrashed { .. } => "ConnectorTaskCrashed",
            E::ConnectorTaskRestarted { .. } => "ConnectorTaskRestarted",
        }
    }

    /// This feature's part of [`EventKind::subjects`](super::EventKind::subjects).
    pub fn subjects(&self) -> Vec<Subject<'_>> {
        use ConnectEvent as E;
        use Subject as S;
        match self {
            E::TableRowChanged { connector, .. }
            | E::SourceOffsetsFlushed { connector, .. }
            | E::ConnectorTaskCrashed { connector, .. }
            | E::ConnectorTaskRestarted { connector, .. } => vec![S::Connector(connector)],
            E::SourceRecordsPolled { connector, rows, .. } => {
                let mut out = vec![S::Connector(connector)];
                out.extend(rows.iter().map(|(_, r)| S::Record(*r)));
                out
            }
        }
    }

    /// This feature's part of [`EventKind::category`](super::EventKind::category).
    pub fn category(&self) -> Category {
        use ConnectEvent as E;
        match self {
            E::TableRowChanged { .. }
            | E::SourceRecordsPolled { .. }
            | E::SourceOffsetsFlushed { .. }
            | E::ConnectorTaskRestarted { .. } => Category::Produce,
            E::ConnectorTaskCrashed { .. } => Category::Fault,
        }
    }

    /// This feature's part of [`EventKind::jump`](super::EventKind::jump).
    pub fn jump(&self) -> Option<Jump> {
        use ConnectEvent as E;
        match self {
            E::TableRowChanged { .. }
            | E::SourceRecordsPolled { .. }
            | E::SourceOffsetsFlushed { .. }
            | E::ConnectorTaskCrashed { .. }
            | E::ConnectorTaskRestarted { .. } => None,
        }
    }

    /// This feature's part of [`EventKind::details`](super::EventKind::details).
    pub fn details(&self) -> Vec<&str> {
        use ConnectEvent as E;
        match self {
            E::SourceRecordsPolled { .. }
            | E::SourceOffsetsFlushed { .. }
            | E::ConnectorTaskCrashed { .. }
            | E::ConnectorTaskRestarted { .. } => Vec::new(),
            E::TableRowChanged { value, .. } => vec![value],
        }
    }
}
