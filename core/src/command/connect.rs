//! Kafka Connect's commands: a connector's task crashes or restarts.

use serde::Serialize;

/// What a person does to a connector. Executed by `sim/connect.rs`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ConnectCommand {
    /// A source connector's task crashes: what it sent since its last offset flush will
    /// be sent again by the next task (at-least-once).
    CrashConnector {
        /// The connector's `name` (its task is `<name>-0`).
        connector: String,
    },
    /// A new task starts for the connector and resumes after the flushed source offset.
    RestartConnector {
        /// The connector's `name`; nothing happens if its task is running.
        connector: String,
    },
}
