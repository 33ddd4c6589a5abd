//! A source connector: one Kafka Connect worker task that turns rows of a simulated
//! database table into records, like the JDBC source connector.
//!
//! What it follows:
//! - `WorkerSourceTask` (connect/runtime): the task loop calls `SourceTask.poll()`; each
//!   returned `SourceRecord` goes to the task's own producer (`producer.send`), and its
//!   source offset becomes committable once the producer acknowledges it (in order:
//!   `SubmittedRecords`, KAFKA-12226). The producer has the worker's overrides
//!   (`Worker.producerConfigs`): `acks=all`, `max.in.flight.requests.per.connection=1`,
//!   `delivery.timeout.ms=Integer.MAX_VALUE`, client id `connector-producer-<name>-0`.
//! - `SourceTaskOffsetCommitter` + `OffsetStorageWriter`: every
//!   `offset.flush.interval.ms` (60000) the committable offsets are flushed to the offsets
//!   store; a restarted task reads them back (`OffsetStorageReader`) and the connector
//!   resumes after them. A crash between a send and the next flush loses the in-memory
//!   offsets, so the restarted task sends those rows again: at-least-once.
//! - The JDBC source connector's query modes (Confluent's `kafka-connect-jdbc`,
//!   `TimestampIncrementingTableQuerier`, `poll.interval.ms` 5000):
//!   `incrementing` = `WHERE id > ? ORDER BY id` (sees inserts, never updates);
//!   `timestamp+incrementing` = `WHERE (ts = ? AND id > ?) OR ts > ?` with `ts < now`
//!   (`timestamp.delay.interval.ms` 0), `ORDER BY ts, id` (sees inserts and updates).
//!
//! Where it departs: the offsets store is a committed offset kept in the simulation
//! (Connect writes it to the `connect-offsets` topic, which is not modelled); the flush is
//! instant; a crash stops the task but records it already handed to its producer still go
//! out (a real crash would lose the producer's buffer too); one task per connector.

use super::*;
use crate::error::ScenarioError;
use crate::event::ConnectEvent;
pub use crate::event::SourceOffset;
pub use crate::limits::{MAX_CONNECTORS, MAX_TABLE_ROWS};
use serde::{Deserialize, Serialize};
use std::collections::VecDeque;

/// Something scheduled in source connectors and their tables: one of `Pending`'s features.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum ConnectPending {
    /// A source connector's table gets its planned change `change`.
    TableChange {
        connector: usize,
        change: usize,
    },
    /// A source connector's task polls its table, and flushes its offsets.
    ConnectorPoll {
        connector: usize,
        incarnation: u64,
    },
    ConnectorFlush {
        connector: usize,
        incarnation: u64,
    },
}

/// `connectors[]` in a scenario.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ConnectorSpec {
    /// The connector's `name`; its task is `<name>-0` and its producer
    /// `connector-producer-<name>-0`.
    pub name: String,
    /// The topic its records go to (the JDBC connector's `topic.prefix` + table name).
    pub topic: String,
    pub table: TableSpec,
    /// `mode` of the JDBC source connector.
    #[serde(default)]
    pub mode: QueryMode,
    /// `poll.interval.ms` (5000): how often the task queries the table.
    #[serde(default = "default_poll_interval_ms")]
    pub poll_interval_ms: u64,
    /// `offset.flush.interval.ms` (60000, a worker setting): how often source offsets
    /// are flushed to the offsets store.
    #[serde(default = "default_offset_flush_interval_ms")]
    pub offset_flush_interval_ms: u64,
}

fn default_poll_interval_ms() -> u64 {
    5000
}

fn default_offset_flush_interval_ms() -> u64 {
    60_000
}

/// The simulated table: rows at time 0, then planned inserts and updates.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TableSpec {
    #[serde(default)]
    pub rows: Vec<Row>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub changes: Vec<TableChange>,
}

/// One row: its `id` (the incrementing column and the record key) and a value.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Row {
    pub id: u64,
    pub value: String,
}

/// A planned change: at `at_ms`, insert a new row or update an existing one (its
/// timestamp column becomes `at_ms`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TableChange {
    pub at_ms: u64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub insert: Option<Row>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub update: Option<Row>,
}

/// The JDBC source connector's `mode`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum QueryMode {
    /// New rows by a strictly increasing id; updates are never seen.
    #[default]
    #[serde(rename = "incrementing")]
    Incrementing,
    /// New and changed rows, by (modification timestamp, id).
    #[serde(rename = "timestamp+incrementing")]
    TimestampIncrementing,
}

/// A table row as the task sees it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RowView {
    pub id: u64,
    pub value: String,
    /// The timestamp column: when it was inserted or last updated (0 for initial rows).
    pub modified_ms: u64,
}

/// A running connector and its one task.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Connector {
    pub spec: ConnectorSpec,
    /// The task's producer (in [`Sim::producers`]).
    pub producer: String,
    /// The table now, by id.
    pub rows: VecMap<u64, RowView>,
    pub running: bool,
    /// Bumped at each crash and restart, so an old task's timers are ignored.
    pub(crate) incarnation: u64,
    /// Where the task's querier is (in memory; lost in a crash).
    pub position: Option<SourceOffset>,
    /// The offset in the offsets store: where a restarted task resumes.
    pub committed: Option<SourceOffset>,
    /// Records sent and not yet flushed, oldest first, with their source offsets.
    pub(crate) submitted: VecDeque<(RecordId, SourceOffset)>,
    /// Records the task has sent, in all its incarnations.
    pub sent_total: u64,
}

/// A connector for the page: its table, task state and offsets.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ConnectorView {
    pub name: String,
    pub topic: String,
    pub mode: QueryMode,
    pub producer: String,
    pub running: bool,
    pub rows: Vec<RowView>,
    /// The task's in-memory offset, and the one flushed to the offsets store.
    pub position: Option<SourceOffset>,
    pub committed: Option<SourceOffset>,
    /// Records sent since the last flush (sent again if the task crashes now).
    pub unflushed: u32,
    pub sent_total: u64,
    pub poll_interval_ms: u64,
    pub offset_flush_interval_ms: u64,
}

impl Connector {
    pub fn view(&self) -> ConnectorView {
        ConnectorView {
            name: self.spec.name.clone(),
            topic: self.spec.topic.clone(),
            mode: self.spec.mode,
            producer: self.producer.clone(),
            running: self.running,
            rows: self.rows.values().cloned().collect(),
            position: self.position,
            committed: self.committed,
            unflushed: self.submitted.len() as u32,
            sent_total: self.sent_total,
            poll_interval_ms: self.spec.poll_interval_ms,
            offset_flush_interval_ms: self.spec.offset_flush_interval_ms,
        }
    }

    /// The rows the querier returns after `from`, in query order (`ts < now` bounds the
    /// timestamp mode, as `timestamp.delay.interval.ms` = 0 does).
    fn query(&self, from: Option<SourceOffset>, now: u64) -> Vec<(RowView, SourceOffset)> {
        let mut out: Vec<(RowView, SourceOffset)> = match self.spec.mode {
            QueryMode::Incrementing => self
                .rows
                .values()
                .filter(|r| from.is_none_or(|o| r.id > o.incrementing))
                .map(|r| (r.clone(), SourceOffset { timestamp_ms: None, incrementing: r.id }))
                .collect(),
            QueryMode::TimestampIncrementing => self
                .rows
                .values()
                .filter(|r| r.modified_ms < now)
                .map(|r| (r.clone(), SourceOffset { timestamp_ms: Some(r.modified_ms), incrementing: r.id }))
                .filter(|(_, o)| from.is_none_or(|f| *o > f))
                .collect(),
        };
        crate::sorted::sort_by_key(&mut out, |(_, o)| *o);
        out
    }
}

/// The producer name Connect gives a task's producer.
pub fn producer_name(connector: &str) -> String {
    format!("connector-producer-{connector}-0")
}

/// The producer settings Connect's worker forces on a source task's producer
/// (`Worker.producerConfigs`): everything else is the client's default.
pub fn producer_config() -> crate::config::ProducerConfig {
    crate::config::ProducerConfig {
        acks: Acks::All,
        max_in_flight_requests_per_connection: 1,
        delivery_timeout_ms: i32::MAX as u64,
        ..crate::config::ProducerConfig::default()
    }
}

/// Checks a scenario's `connectors` against its topics and producers.
pub(crate) fn check_connectors(
    connectors: &[ConnectorSpec],
    topics: &VecMap<&str, u32>,
    producers: &crate::vecmap::VecSet<&str>,
) -> Result<(), ScenarioError> {
    use crate::error::{within, ConnectProblem as P, TableList};
    let err = |path: String, p: P| ScenarioError::at(path, p);
    if connectors.len() > MAX_CONNECTORS {
        return Err(ScenarioError::at("connectors", P::TooManyConnectors { count: connectors.len() }));
    }
    let mut names = crate::vecmap::VecSet::new();
    for (i, c) in connectors.iter().enumerate() {
        let path = format!("connectors[{i}]");
        check_name(crate::command::NameOf::Connector, &c.name).map_err(|e| ScenarioError::at(format!("{path}.name"), e))?;
        if !names.insert(c.name.as_str()) {
            return Err(err(format!("{path}.name"), P::Duplicate { name: c.name.clone() }));
        }
        if producers.contains(producer_name(&c.name).as_str()) {
            return Err(err(format!("{path}.name"), P::ProducerNameTaken { producer: producer_name(&c.name) }));
        }
        if !topics.contains_key(c.topic.as_str()) {
            return Err(ScenarioError::at(format!("{path}.topic"), CommandError::UnknownTopic(c.topic.clone())));
        }
        within(&format!("{path}.poll_interval_ms"), c.poll_interval_ms, &crate::limits::CONNECTOR_POLL_INTERVAL_MS)?;
        within(
            &format!("{path}.offset_flush_interval_ms"),
            c.offset_flush_interval_ms,
            &crate::limits::CONNECTOR_OFFSET_FLUSH_INTERVAL_MS,
        )?;
        let t = &c.table;
        for (what, n) in [(TableList::Rows, t.rows.len()), (TableList::Changes, t.changes.len())] {
            if n > MAX_TABLE_ROWS {
                return Err(err(format!("{path}.table.{}", what.field()), P::TooManyRows { what, count: n }));
            }
        }
        let long = |r: &Row| r.value.chars().count() > MAX_VALUE_CHARS;
        let mut ids = crate::vecmap::VecSet::new();
        for (j, r) in t.rows.iter().enumerate() {
            if long(r) {
                return Err(err(format!("{path}.table.rows[{j}].value"), P::ValueTooLong));
            }
            if !ids.insert(r.id) {
                return Err(err(format!("{path}.table.rows[{j}].id"), P::DuplicateRowId { id: r.id }));
            }
        }
        // Changes apply in time order (then as listed): an insert needs a new id, an
        // update an existing one.
        let mut order: Vec<usize> = (0..t.changes.len()).collect();
        crate::sorted::sort_by_key(&mut order, |&j| (t.changes[j].at_ms, j));
        for j in order {
            let ch = &t.changes[j];
            let cpath = format!("{path}.table.changes[{j}]");
            within(&format!("{cpath}.at_ms"), ch.at_ms, &crate::limits::TABLE_CHANGE_AT_MS)?;
            match (&ch.insert, &ch.update) {
                (Some(r), None) => {
                    if long(r) {
                        return Err(err(format!("{cpath}.insert.value"), P::ValueTooLong));
                    }
                    if !ids.insert(r.id) {
                        return Err(err(format!("{cpath}.insert.id"), P::RowExists { id: r.id }));
                    }
                }
                (None, Some(r)) => {
                    if long(r) {
                        return Err(err(format!("{cpath}.update.value"), P::ValueTooLong));
                    }
                    if !ids.contains(&r.id) {
                        return Err(err(format!("{cpath}.update.id"), P::NoSuchRow { id: r.id }));
                    }
                }
                _ => return Err(err(cpath, P::ChangeShape)),
            }
        }
    }
    Ok(())
}

impl Sim {
    /// Starts a connector at time 0: its producer, its table, the table's planned changes,
    /// its first poll and its offset flush timer.
    pub(crate) fn add_connector(&mut self, spec: ConnectorSpec) {
        let producer = producer_name(&spec.name);
        self.add_producer(&producer, producer_config());
        let rows = spec.table.rows.iter().map(|r| (r.id, RowView { id: r.id, value: r.value.clone(), modified_ms: 0 })).collect();
        let index = self.connectors.len();
        for (k, ch) in spec.table.changes.iter().enumerate() {
            self.schedule(SimTime(ch.at_ms), ConnectPending::TableChange { connector: index, change: k });
        }
        let c = Connector {
            spec,
            producer,
            rows,
            running: true,
            incarnation: 0,
            position: None,
            committed: None,
            submitted: VecDeque::new(),
            sent_total: 0,
        };
        self.connectors.push(c);
        self.start_task(index);
    }

    pub fn connectors(&self) -> impl Iterator<Item = &Connector> {
        self.connectors.iter()
    }

    pub fn connector(&self, name: &str) -> Option<&Connector> {
        self.connectors.iter().find(|c| c.spec.name == name)
    }

    pub(super) fn connector_index(&self, name: &str) -> Option<usize> {
        self.connectors.iter().position(|c| c.spec.name == name)
    }

    /// The task polls now and then every `poll.interval.ms`; its offsets are flushed
    /// every `offset.flush.interval.ms` from its start (`SourceTaskOffsetCommitter`).
    fn start_task(&mut self, index: usize) {
        let Some(c) = self.connectors.get(index) else { return };
        let (incarnation, flush) = (c.incarnation, c.spec.offset_flush_interval_ms);
        let now = self.now;
        self.schedule(now, ConnectPending::ConnectorPoll { connector: index, incarnation });
        self.schedule(now.plus_ms(flush), ConnectPending::ConnectorFlush { connector: index, incarnation });
    }

    /// A planned insert or update reaches the table.
    pub(super) fn table_change(&mut self, index: usize, k: usize) {
        let now = self.now.ms();
        let Some(c) = self.connectors.get_mut(index) else { return };
        let Some(ch) = c.spec.table.changes.get(k).cloned() else { return };
        let (row, insert) = match (ch.insert, ch.update) {
            (Some(r), _) => (r, true),
            (None, Some(r)) => (r, false),
            (None, None) => return,
        };
        c.rows.insert(row.id, RowView { id: row.id, value: row.value.clone(), modified_ms: now });
        let connector = c.spec.name.clone();
        self.record(EventKind::Connect(ConnectEvent::TableRowChanged { connector, id: row.id, value: row.value, insert }));
    }

    /// `SourceTask.poll()`: query the table from the task's offset; each row becomes a
    /// record (key = the row id) sent through the task's producer.
    pub(super) fn connector_poll(&mut self, index: usize, incarnation: u64) {
        let now = self.now;
        let Some(c) = self.connectors.get(index) else { return };
        if !c.running || c.incarnation != incarnation {
            return;
        }
        let rows = c.query(c.position, now.ms());
        let (producer, topic, interval, name) = (c.producer.clone(), c.spec.topic.clone(), c.spec.poll_interval_ms, c.spec.name.clone());
        self.schedule(now.plus_ms(interval), ConnectPending::ConnectorPoll { connector: index, incarnation });
        if rows.is_empty() {
            return;
        }
        let mut records = Vec::new();
        for (row, offset) in rows {
            let id = RecordId(self.next_record);
            self.send(&producer, &topic, Some(row.id.to_string()), row.value.clone(), None, Vec::new());
            let sent = self.next_record > id.0;
            let Some(c) = self.connectors.get_mut(index) else { return };
            c.position = Some(offset);
            if sent {
                c.submitted.push_back((id, offset));
                c.sent_total += 1;
                records.push((row.id, id));
            }
        }
        let position = self.connectors.get(index).and_then(|c| c.position);
        self.record(EventKind::Connect(ConnectEvent::SourceRecordsPolled { connector: name, rows: records, position }));
    }

    /// `OffsetStorageWriter.doFlush()`: the offsets of records the producer has
    /// acknowledged, in order, go to the offsets store.
    pub(super) fn connector_flush(&mut self, index: usize, incarnation: u64) {
        let now = self.now;
        let Some(c) = self.connectors.get(index) else { return };
        if !c.running || c.incarnation != incarnation {
            return;
        }
        let every = c.spec.offset_flush_interval_ms;
        self.schedule(now.plus_ms(every), ConnectPending::ConnectorFlush { connector: index, incarnation });
        let Some(c) = self.connectors.get(index) else { return };
        let Some(producer) = self.producers.get(&c.producer) else { return };
        // A record the producer no longer remembers was sent long ago: with
        // delivery.timeout.ms at Integer.MAX_VALUE it was acknowledged, not given up.
        let acked = |id: RecordId| producer.sent.iter().find(|s| s.record == id).is_none_or(|s| s.acked_offset.is_some());
        let ready = c.submitted.iter().take_while(|(id, _)| acked(*id)).count();
        if ready == 0 {
            return;
        }
        let Some(c) = self.connectors.get_mut(index) else { return };
        let flushed: Vec<(RecordId, SourceOffset)> = c.submitted.drain(..ready).collect();
        let Some(&(_, offset)) = flushed.last() else { return };
        c.committed = Some(offset);
        let connector = c.spec.name.clone();
        self.record(EventKind::Connect(ConnectEvent::SourceOffsetsFlushed { connector, offset, records: flushed.len() as u32 }));
    }

    /// The task dies: its in-memory offset and unflushed records are gone.
    pub(super) fn crash_connector(&mut self, index: usize) {
        let Some(c) = self.connectors.get_mut(index) else { return };
        if !c.running {
            return;
        }
        c.running = false;
        c.incarnation += 1;
        let unflushed = c.submitted.len() as u32;
        c.submitted.clear();
        c.position = None;
        let (connector, committed) = (c.spec.name.clone(), c.committed);
        self.record(EventKind::Connect(ConnectEvent::ConnectorTaskCrashed { connector, unflushed, committed }));
    }

    /// A new task starts from the offsets store (`OffsetStorageReader`).
    pub(super) fn restart_connector(&mut self, index: usize) {
        let Some(c) = self.connectors.get_mut(index) else { return };
        if c.running {
            return;
        }
        c.running = true;
        c.incarnation += 1;
        c.position = c.committed;
        let (connector, resume_after) = (c.spec.name.clone(), c.committed);
        self.record(EventKind::Connect(ConnectEvent::ConnectorTaskRestarted { connector, resume_after }));
        self.start_task(index);
    }
}

impl Sim {
    /// Applies a scheduled event of source connectors and their tables.
    pub(super) fn handle_connect(&mut self, pending: ConnectPending) {
        match pending {
            ConnectPending::TableChange { connector, change } => self.table_change(connector, change),
            ConnectPending::ConnectorPoll { connector, incarnation } => self.connector_poll(connector, incarnation),
            ConnectPending::ConnectorFlush { connector, incarnation } => self.connector_flush(connector, incarnation),
        }
    }
}

/// Commands to a connector: checked against the cluster, then executed (the one line
/// `Sim::validate` and `Sim::execute` give this feature).
impl Sim {
    pub(super) fn validate_connect_command(&self, command: &ConnectCommand) -> Result<(), CommandError> {
        match command {
            ConnectCommand::CrashConnector { connector } | ConnectCommand::RestartConnector { connector } => {
                if self.connector_index(connector).is_none() {
                    return Err(CommandError::UnknownConnector(connector.clone()));
                }
                Ok(())
            }
        }
    }

    pub(super) fn execute_connect_command(&mut self, command: ConnectCommand) {
        match command {
            ConnectCommand::CrashConnector { connector } => {
                if let Some(i) = self.connector_index(&connector) {
                    self.crash_connector(i);
                }
            }
            ConnectCommand::RestartConnector { connector } => {
                if let Some(i) = self.connector_index(&connector) {
                    self.restart_connector(i);
                }
            }
        }
    }
}
