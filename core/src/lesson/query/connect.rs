//! Kafka Connect's queries: a source task's own and flushed source offsets, and what it sent
//! since its last offset flush.

use super::num;
use crate::lesson::Missing;
use crate::read::{ConnectorRead, Read, SourceOffset};
use serde::Serialize;
use serde_json::Value;

/// What a claim asks about a source connector's task.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "ask", rename_all = "snake_case")]
#[non_exhaustive]
pub enum ConnectQuery {
    /// A source connector task's own (in-memory) source offset: `[id]` (incrementing) or
    /// `[timestamp_ms, id]` (timestamp+incrementing); `null`: none.
    ConnectorPosition {
        /// The connector's name.
        connector: String,
    },
    /// The source offset flushed to the offsets store (where a restarted task resumes),
    /// written as for `connector_position`; `null`: never flushed.
    ConnectorFlushed {
        /// The connector's name.
        connector: String,
    },
    /// How many records the task sent since its last offset flush.
    ConnectorUnflushed {
        /// The connector's name.
        connector: String,
    },
}

/// Answers a connect query from the read layer (as [`super::answer`]).
pub(super) fn answer_connect(read: Read<'_>, q: &ConnectQuery) -> Result<Value, Missing> {
    Ok(match q {
        ConnectQuery::ConnectorPosition { connector } => source_offset(connector_named(read, connector)?.position()),
        ConnectQuery::ConnectorFlushed { connector } => source_offset(connector_named(read, connector)?.flushed()),
        ConnectQuery::ConnectorUnflushed { connector } => num(connector_named(read, connector)?.unflushed().into()),
    })
}

/// A connect query in words, for check's messages.
pub(super) fn describe_connect(q: &ConnectQuery) -> String {
    match q {
        ConnectQuery::ConnectorPosition { connector } => format!("the source offset of {connector}'s task"),
        ConnectQuery::ConnectorFlushed { connector } => format!("the flushed source offset of {connector}"),
        ConnectQuery::ConnectorUnflushed { connector } => format!("the records {connector} sent since its last offset flush"),
    }
}

fn connector_named<'a>(read: Read<'a>, name: &str) -> Result<ConnectorRead<'a>, Missing> {
    read.connector(name).ok_or_else(|| Missing::Connector(name.to_string()))
}

/// `[id]` or `[timestamp_ms, id]`, as the task's mode writes its source offset.
pub(super) fn source_offset(o: Option<SourceOffset>) -> Value {
    o.map_or(Value::Null, |o| match o.timestamp_ms {
        None => Value::Array(vec![num(o.incrementing)]),
        Some(ts) => Value::Array(vec![num(ts), num(o.incrementing)]),
    })
}
