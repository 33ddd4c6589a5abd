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
    TableRowChanged {
        /// The connector's name.
        connector: String,
        /// The row's id (the incrementing column).
        id: u64,
        /// The row's value now.
        value: String,
        /// True for an insert, false for an update.
        insert: bool,
    } = 58,
    /// The connector's task polled its table (`SourceTask.poll()`): each row (id) became
    /// a record (key = id) sent through its producer; `position` = the task's offset now.
    SourceRecordsPolled {
        /// The connector's name.
        connector: String,
        /// Per row the producer accepted: its id and the record it became.
        rows: Vec<(u64, RecordId)>,
        /// The task's source offset after the poll (the last row it read); `None` while it
        /// has none (no row read, no offset stored).
        position: Option<SourceOffset>,
    } = 59,
    /// The task's acknowledged source offsets were flushed to the offsets store
    /// (`OffsetStorageWriter`): a restarted task resumes after `offset`.
    SourceOffsetsFlushed {
        /// The connector's name.
        connector: String,
        /// The source offset stored: that of the last record of the acknowledged run in send
        /// order (the flush stops at the first record not yet acknowledged).
        offset: SourceOffset,
        /// How many acknowledged records the flush covered.
        records: u32,
    } = 60,
    /// The connector's task crashed: `unflushed` records were sent after the last flush
    /// and will be sent again by the next task, which resumes after `committed`.
    ConnectorTaskCrashed {
        /// The connector's name.
        connector: String,
        /// How many records it had sent whose offsets were not flushed yet.
        unflushed: u32,
        /// The last source offset flushed to the offsets store; `None` if none was.
        committed: Option<SourceOffset>,
    } = 61,
    /// A new task started, reading its offset from the offsets store.
    ConnectorTaskRestarted {
        /// The connector's name.
        connector: String,
        /// The offset it read from the offsets store: it polls the rows after it (`None`:
        /// from the start of the table).
        resume_after: Option<SourceOffset>,
    } = 62,
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
