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
//!
//! The handlers are [`Connector`]'s methods, which change only the connector's own state
//! and ask a `Driver` for their events and timers (`driver.rs`), so each is tested alone,
//! with no `Sim`. `Apps` (the owner of every connector) finds the connector and adds what
//! belongs to another owner, passed in: the poll's sends through the task's producer
//! (`Clients::send`), and what that producer acknowledged, for the flush.

use super::driver::Driver;
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
    /// The simulated source table: its rows at time 0 and its planned changes.
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
    /// The rows at time 0 (timestamp 0): ids unique, at most [`MAX_TABLE_ROWS`].
    #[serde(default)]
    pub rows: Vec<Row>,
    /// Planned inserts and updates, at most [`MAX_TABLE_ROWS`]; checked in time order (an
    /// insert needs a new id, an update an existing one). They count as timeline entries.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub changes: Vec<TableChange>,
}

/// One row: its `id` (the incrementing column and the record key) and a value.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Row {
    /// The incrementing column: unique in the table, and the key of the row's record.
    pub id: u64,
    /// The row's value, the record's value; at most [`crate::limits::MAX_VALUE_CHARS`]
    /// characters.
    pub value: String,
}

/// A planned change: at `at_ms`, insert a new row or update an existing one (its
/// timestamp column becomes `at_ms`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TableChange {
    /// When it happens, in ms of simulated time: at most [`crate::limits::MAX_TIME_MS`].
    pub at_ms: u64,
    /// A new row (its id not yet in the table). Exactly one of `insert` and `update` is set.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub insert: Option<Row>,
    /// The new value of an existing row, by id.
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
    /// The incrementing column (the record key).
    pub id: u64,
    /// The row's current value.
    pub value: String,
    /// The timestamp column: when it was inserted or last updated (0 for initial rows).
    pub modified_ms: u64,
}

/// A running connector and its one task.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Connector {
    /// Its settings and table as the scenario gave them.
    pub spec: ConnectorSpec,
    /// The task's producer (in [`Sim::producers`]).
    pub producer: String,
    /// The table now, by id.
    pub rows: VecMap<u64, RowView>,
    /// Whether its task runs: false from `crash_connector` until `restart_connector`.
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
    /// The connector's `name`.
    pub name: String,
    /// The topic its records go to.
    pub topic: String,
    /// The JDBC source connector's `mode`.
    pub mode: QueryMode,
    /// Its task's producer, `connector-producer-<name>-0`.
    pub producer: String,
    /// Whether its task runs (false after a crash, until a restart).
    pub running: bool,
    /// The table now, by id.
    pub rows: Vec<RowView>,
    /// The task's in-memory offset, and the one flushed to the offsets store.
    pub position: Option<SourceOffset>,
    /// The offset flushed to the offsets store: where a restarted task resumes.
    pub committed: Option<SourceOffset>,
    /// Records sent since the last flush (sent again if the task crashes now).
    pub unflushed: u32,
    /// Records the task has sent, in all its incarnations.
    pub sent_total: u64,
    /// `poll.interval.ms`: how often the task queries the table.
    pub poll_interval_ms: u64,
    /// The worker's `offset.flush.interval.ms`: how often source offsets are flushed.
    pub offset_flush_interval_ms: u64,
}

impl Connector {
    /// What the page shows of it: its table, task state and offsets.
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
/// (`Worker.baseProducerConfigs`): `enable.idempotence=false` (unless
/// `exactly.once.source.support` is on, which the sandbox does not model), `acks=all`,
/// `max.in.flight.requests.per.connection=1`, `delivery.timeout.ms=Integer.MAX_VALUE`;
/// everything else is the client's default. Not idempotent: a retry after a lost answer
/// writes the row's record twice, one of the ways a source connector is at-least-once.
pub fn producer_config() -> crate::config::ProducerConfig {
    crate::config::ProducerConfig {
        enable_idempotence: Some(false),
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
        let index = self.apps.connectors.len();
        let c = Connector::start(spec, producer, index, self.out.now, &mut self.out);
        self.apps.connectors.push(c);
    }

    /// Every source connector, in the scenario's order.
    pub fn connectors(&self) -> impl Iterator<Item = &Connector> {
        self.apps.connectors.iter()
    }

    /// The connector named `name`, if there is one.
    pub fn connector(&self, name: &str) -> Option<&Connector> {
        self.apps.connectors.iter().find(|c| c.spec.name == name)
    }

    pub(super) fn connector_index(&self, name: &str) -> Option<usize> {
        self.apps.connectors.iter().position(|c| c.spec.name == name)
    }
}

/// The connectors' handlers as the `Apps` owner runs them: each finds its connector by
/// its place and calls its [`Connector`] method; a poll hands its rows to the task's
/// producer (`Clients`, another owner, passed in) and a flush asks that producer which
/// records it acknowledged.
impl Apps {
    /// A planned insert or update reaches the table ([`Connector::change_table`]).
    pub(super) fn table_change(&mut self, index: usize, k: usize, out: &mut Driver) {
        let now = out.now;
        let Some(c) = self.connectors.get_mut(index) else { return };
        c.change_table(k, now, out);
    }

    /// `SourceTask.poll()` ([`Connector::poll`]), then each row through the task's
    /// producer (`KafkaProducer.send`), then the poll's event.
    pub(super) fn connector_poll(&mut self, index: usize, incarnation: u64, clients: &mut Clients, cluster: &Cluster, out: &mut Driver) {
        let now = out.now;
        let Some(c) = self.connectors.get_mut(index) else { return };
        let rows = c.poll(index, incarnation, now, out);
        if rows.is_empty() {
            return;
        }
        let mut records = Vec::new();
        for (row, offset) in rows {
            let sent = clients.send(&c.producer, &c.spec.topic, Some(row.id.to_string()), Some(row.value), None, Vec::new(), cluster, out);
            records.extend(c.handed_over(row.id, offset, sent));
        }
        c.polled(records, out);
    }

    /// `OffsetStorageWriter.doFlush()` ([`Connector::flush`]), told by the task's producer
    /// which records it acknowledged.
    pub(super) fn connector_flush(&mut self, index: usize, incarnation: u64, clients: &Clients, out: &mut Driver) {
        let now = out.now;
        let Some(c) = self.connectors.get_mut(index) else { return };
        let producer = c.producer.clone();
        c.flush(index, incarnation, now, |id| clients.acknowledged(&producer, id), out);
    }

    /// The task dies ([`Connector::crash`]).
    pub(super) fn crash_connector(&mut self, index: usize, out: &mut Driver) {
        let Some(c) = self.connectors.get_mut(index) else { return };
        c.crash(out);
    }

    /// A new task starts from the offsets store ([`Connector::restart`]).
    pub(super) fn restart_connector(&mut self, index: usize, out: &mut Driver) {
        let now = out.now;
        let Some(c) = self.connectors.get_mut(index) else { return };
        c.restart(index, now, out);
    }
}

/// The connector's handlers: each changes only the connector's own state (its table, its
/// task, its offsets) and asks the [`Driver`] for its events and timers; `index` is the
/// connector's place in `Apps::connectors`, which its timers name.
impl Connector {
    /// A connector at time `now`: its table's planned changes, then its task's timers.
    fn start(spec: ConnectorSpec, producer: String, index: usize, now: SimTime, out: &mut Driver) -> Connector {
        let rows = spec.table.rows.iter().map(|r| (r.id, RowView { id: r.id, value: r.value.clone(), modified_ms: 0 })).collect();
        for (k, ch) in spec.table.changes.iter().enumerate() {
            out.at(SimTime(ch.at_ms), ConnectPending::TableChange { connector: index, change: k });
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
        c.start_task(index, now, out);
        c
    }

    /// The task polls now and then every `poll.interval.ms`; its offsets are flushed
    /// every `offset.flush.interval.ms` from its start (`SourceTaskOffsetCommitter`).
    fn start_task(&self, index: usize, now: SimTime, out: &mut Driver) {
        let incarnation = self.incarnation;
        out.at(now, ConnectPending::ConnectorPoll { connector: index, incarnation });
        out.at(now.plus_ms(self.spec.offset_flush_interval_ms), ConnectPending::ConnectorFlush { connector: index, incarnation });
    }

    /// The planned change `k` reaches the table at `now`.
    fn change_table(&mut self, k: usize, now: SimTime, out: &mut Driver) {
        let Some(ch) = self.spec.table.changes.get(k).cloned() else { return };
        let (row, insert) = match (ch.insert, ch.update) {
            (Some(r), _) => (r, true),
            (None, Some(r)) => (r, false),
            (None, None) => return,
        };
        self.rows.insert(row.id, RowView { id: row.id, value: row.value.clone(), modified_ms: now.ms() });
        let connector = self.spec.name.clone();
        out.emit(EventKind::Connect(ConnectEvent::TableRowChanged { connector, id: row.id, value: row.value, insert }));
    }

    /// `SourceTask.poll()` at `now` by the task `incarnation`: the next poll, and the rows
    /// after the task's offset, in query order, for its producer (none from an old task).
    fn poll(&self, index: usize, incarnation: u64, now: SimTime, out: &mut Driver) -> Vec<(RowView, SourceOffset)> {
        if !self.running || self.incarnation != incarnation {
            return Vec::new();
        }
        out.at(now.plus_ms(self.spec.poll_interval_ms), ConnectPending::ConnectorPoll { connector: index, incarnation });
        self.query(self.position, now.ms())
    }

    /// Row `row` (at `offset`) was handed to the producer: the querier moves past it, and
    /// a record it accepted (`sent`) waits to be flushed. Returns (row id, record) if so.
    fn handed_over(&mut self, row: u64, offset: SourceOffset, sent: Option<RecordId>) -> Option<(u64, RecordId)> {
        self.position = Some(offset);
        let id = sent?;
        self.submitted.push_back((id, offset));
        self.sent_total += 1;
        Some((row, id))
    }

    /// The poll's event: the records it sent, and where the querier is now.
    fn polled(&self, rows: Vec<(u64, RecordId)>, out: &mut Driver) {
        let connector = self.spec.name.clone();
        out.emit(EventKind::Connect(ConnectEvent::SourceRecordsPolled { connector, rows, position: self.position }));
    }

    /// `OffsetStorageWriter.doFlush()` at `now` by the task `incarnation`: the next flush,
    /// and the offsets of the records the producer has `acked`, in order, go to the
    /// offsets store.
    fn flush(&mut self, index: usize, incarnation: u64, now: SimTime, acked: impl Fn(RecordId) -> bool, out: &mut Driver) {
        if !self.running || self.incarnation != incarnation {
            return;
        }
        out.at(now.plus_ms(self.spec.offset_flush_interval_ms), ConnectPending::ConnectorFlush { connector: index, incarnation });
        let ready = self.submitted.iter().take_while(|(id, _)| acked(*id)).count();
        let Some(&(_, offset)) = ready.checked_sub(1).and_then(|last| self.submitted.get(last)) else { return };
        self.submitted.drain(..ready);
        self.committed = Some(offset);
        let connector = self.spec.name.clone();
        out.emit(EventKind::Connect(ConnectEvent::SourceOffsetsFlushed { connector, offset, records: ready as u32 }));
    }

    /// The task dies: its in-memory offset and unflushed records are gone.
    fn crash(&mut self, out: &mut Driver) {
        if !self.running {
            return;
        }
        self.running = false;
        self.incarnation += 1;
        let unflushed = self.submitted.len() as u32;
        self.submitted.clear();
        self.position = None;
        let (connector, committed) = (self.spec.name.clone(), self.committed);
        out.emit(EventKind::Connect(ConnectEvent::ConnectorTaskCrashed { connector, unflushed, committed }));
    }

    /// A new task starts at `now` from the offsets store (`OffsetStorageReader`).
    fn restart(&mut self, index: usize, now: SimTime, out: &mut Driver) {
        if self.running {
            return;
        }
        self.running = true;
        self.incarnation += 1;
        self.position = self.committed;
        let (connector, resume_after) = (self.spec.name.clone(), self.committed);
        out.emit(EventKind::Connect(ConnectEvent::ConnectorTaskRestarted { connector, resume_after }));
        self.start_task(index, now, out);
    }
}

impl Sim {
    /// Applies a scheduled event of source connectors and their tables.
    pub(super) fn handle_connect(&mut self, pending: ConnectPending) {
        match pending {
            ConnectPending::TableChange { connector, change } => self.apps.table_change(connector, change, &mut self.out),
            ConnectPending::ConnectorPoll { connector, incarnation } => {
                self.apps.connector_poll(connector, incarnation, &mut self.clients, &self.cluster, &mut self.out)
            }
            ConnectPending::ConnectorFlush { connector, incarnation } => {
                self.apps.connector_flush(connector, incarnation, &self.clients, &mut self.out)
            }
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
                    self.apps.crash_connector(i, &mut self.out);
                }
            }
            ConnectCommand::RestartConnector { connector } => {
                if let Some(i) = self.connector_index(&connector) {
                    self.apps.restart_connector(i, &mut self.out);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::driver::Effect;
    use super::*;

    fn offset(id: u64) -> SourceOffset {
        SourceOffset { timestamp_ms: None, incrementing: id }
    }

    /// Connector `c` (incrementing mode, poll every 5000 ms, flush every 60000 ms) over
    /// rows 2 and 1, its task running.
    fn connector() -> Connector {
        let spec = ConnectorSpec {
            name: "c".into(),
            topic: "t".into(),
            table: TableSpec { rows: vec![Row { id: 2, value: "b".into() }, Row { id: 1, value: "a".into() }], changes: vec![] },
            mode: QueryMode::Incrementing,
            poll_interval_ms: 5000,
            offset_flush_interval_ms: 60_000,
        };
        Connector::start(spec, producer_name("c"), 0, SimTime::ZERO, &mut Driver::at_time(SimTime::ZERO))
    }

    #[test]
    fn a_poll_turns_new_rows_into_records_and_schedules_the_next_poll() {
        let mut c = connector();
        let mut out = Driver::at_time(SimTime::ZERO);
        let rows = c.poll(3, 0, SimTime(1000), &mut out);
        assert_eq!(rows.iter().map(|(r, o)| (r.id, *o)).collect::<Vec<_>>(), [(1, offset(1)), (2, offset(2))], "in id order");
        assert_eq!(
            out.effects(),
            &[Effect::At { at: SimTime(6000), pending: ConnectPending::ConnectorPoll { connector: 3, incarnation: 0 }.into() }]
        );
        // The producer accepted both: they wait for a flush.
        let records: Vec<_> = rows.iter().zip([7, 8]).filter_map(|((r, o), id)| c.handed_over(r.id, *o, Some(RecordId(id)))).collect();
        let mut out = Driver::at_time(SimTime::ZERO);
        c.polled(records, &mut out);
        let polled = ConnectEvent::SourceRecordsPolled {
            connector: "c".into(),
            rows: vec![(1, RecordId(7)), (2, RecordId(8))],
            position: Some(offset(2)),
        };
        assert_eq!(out.effects(), &[Effect::Emit(EventKind::Connect(polled))]);
        assert_eq!((c.submitted.len(), c.sent_total, c.position), (2, 2, Some(offset(2))));
        // The next poll finds nothing new.
        assert!(c.poll(3, 0, SimTime(6000), &mut Driver::at_time(SimTime::ZERO)).is_empty());
    }

    #[test]
    fn an_old_tasks_timers_do_nothing() {
        let mut c = connector();
        let mut out = Driver::at_time(SimTime::ZERO);
        assert!(c.poll(0, 1, SimTime(0), &mut out).is_empty());
        c.flush(0, 1, SimTime(0), |_| true, &mut out);
        assert_eq!(out.effects(), &[]);
    }

    #[test]
    fn a_flush_stores_the_offsets_of_the_acknowledged_records_in_order() {
        let mut c = connector();
        for id in 1..=3 {
            c.handed_over(id, offset(id), Some(RecordId(id)));
        }
        let mut out = Driver::at_time(SimTime::ZERO);
        c.flush(0, 0, SimTime(60_000), |id| id != RecordId(2), &mut out);
        let flushed = ConnectEvent::SourceOffsetsFlushed { connector: "c".into(), offset: offset(1), records: 1 };
        assert_eq!(
            out.effects(),
            &[
                Effect::At { at: SimTime(120_000), pending: ConnectPending::ConnectorFlush { connector: 0, incarnation: 0 }.into() },
                Effect::Emit(EventKind::Connect(flushed)),
            ]
        );
        assert_eq!((c.committed, c.submitted.len()), (Some(offset(1)), 2), "record 2 is not acknowledged: 2 and 3 wait");
    }

    #[test]
    fn a_crash_reports_the_unflushed_count_and_a_restart_resumes_from_the_offsets_store() {
        let mut c = connector();
        for id in 1..=2 {
            c.handed_over(id, offset(id), Some(RecordId(id)));
        }
        c.committed = Some(offset(1));
        let mut out = Driver::at_time(SimTime::ZERO);
        c.crash(&mut out);
        c.crash(&mut out);
        let crashed = ConnectEvent::ConnectorTaskCrashed { connector: "c".into(), unflushed: 2, committed: Some(offset(1)) };
        assert_eq!(out.effects(), &[Effect::Emit(EventKind::Connect(crashed))], "a second crash does nothing");
        assert_eq!((c.running, c.position, c.submitted.len(), c.incarnation), (false, None, 0, 1));
        let mut out = Driver::at_time(SimTime::ZERO);
        c.restart(4, SimTime(9000), &mut out);
        let restarted = ConnectEvent::ConnectorTaskRestarted { connector: "c".into(), resume_after: Some(offset(1)) };
        assert_eq!(
            out.effects(),
            &[
                Effect::Emit(EventKind::Connect(restarted)),
                Effect::At { at: SimTime(9000), pending: ConnectPending::ConnectorPoll { connector: 4, incarnation: 2 }.into() },
                Effect::At { at: SimTime(69_000), pending: ConnectPending::ConnectorFlush { connector: 4, incarnation: 2 }.into() },
            ]
        );
        assert_eq!(
            c.poll(4, 2, SimTime(9000), &mut Driver::at_time(SimTime::ZERO)).iter().map(|(r, _)| r.id).collect::<Vec<_>>(),
            [2],
            "after row 1"
        );
    }

    #[test]
    fn a_table_change_updates_the_row_and_says_so() {
        let mut c = connector();
        c.spec.table.changes.push(TableChange { at_ms: 500, insert: None, update: Some(Row { id: 1, value: "a2".into() }) });
        let mut out = Driver::at_time(SimTime::ZERO);
        c.change_table(0, SimTime(500), &mut out);
        let changed = ConnectEvent::TableRowChanged { connector: "c".into(), id: 1, value: "a2".into(), insert: false };
        assert_eq!(out.effects(), &[Effect::Emit(EventKind::Connect(changed))]);
        assert_eq!(c.rows.get(&1).map(|r| (r.value.as_str(), r.modified_ms)), Some(("a2", 500)));
    }
}
