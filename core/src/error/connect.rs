//! The refusals of a scenario's source connectors (`connectors[]`, checked by
//! `sim/connect.rs`): typed values with their parameters. `Display` is the English; the
//! page renders each in Chinese (`web/src/messages.rs`). A number outside its row of the
//! limits table (an interval, a change's moment) is `Problem::OutOfRange`, a bad name or an
//! unknown topic the `CommandError` a command would get (`Problem::Command`).

use crate::limits::{MAX_CONNECTORS, MAX_TABLE_ROWS, MAX_VALUE_CHARS};
use std::fmt;

/// Which of a table's lists is too long.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TableList {
    /// `table.rows`: the rows at time 0.
    Rows,
    /// `table.changes`: the planned inserts and updates.
    Changes,
}

impl TableList {
    /// The list's name in the format.
    pub fn field(self) -> &'static str {
        match self {
            TableList::Rows => "rows",
            TableList::Changes => "changes",
        }
    }
}

/// What is wrong with a scenario's connectors.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ConnectProblem {
    /// More than [`MAX_CONNECTORS`] connectors.
    TooManyConnectors {
        /// How many connectors the scenario defines.
        count: usize,
    },
    /// Two connectors with one name.
    Duplicate {
        /// The name defined twice.
        name: String,
    },
    /// The task's producer, `connector-producer-<name>-0`, would have a producer's name.
    ProducerNameTaken {
        /// The task producer's name, which a scenario producer already has.
        producer: String,
    },
    /// A table starts with, or plans, more than [`MAX_TABLE_ROWS`] rows or changes.
    TooManyRows {
        /// Which list: the starting rows or the planned changes.
        what: TableList,
        /// How many the list has.
        count: usize,
    },
    /// A row's value (at time 0, or inserted or updated) longer than [`MAX_VALUE_CHARS`].
    ValueTooLong,
    /// Two rows at time 0 with one id.
    DuplicateRowId {
        /// The id given twice.
        id: u64,
    },
    /// A planned insert of an id the table has by its moment.
    RowExists {
        /// The id the insert gives.
        id: u64,
    },
    /// A planned update of an id the table does not have by its moment.
    NoSuchRow {
        /// The id the update names.
        id: u64,
    },
    /// A planned change with both or neither of `insert` and `update`.
    ChangeShape,
}

impl fmt::Display for ConnectProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ConnectProblem::TooManyConnectors { count } => write!(f, "{count} connectors; allowed: at most {MAX_CONNECTORS}"),
            ConnectProblem::Duplicate { name } => write!(f, "connector \"{name}\" is defined twice"),
            ConnectProblem::ProducerNameTaken { producer } => {
                write!(f, "its task's producer would be named \"{producer}\", which a producer already is")
            }
            ConnectProblem::TooManyRows { what, count } => write!(f, "{count} {}; allowed: at most {MAX_TABLE_ROWS}", what.field()),
            ConnectProblem::ValueTooLong => write!(f, "at most {MAX_VALUE_CHARS} characters"),
            ConnectProblem::DuplicateRowId { id } => write!(f, "id {id} is in the table twice"),
            ConnectProblem::RowExists { id } => write!(f, "a row with id {id} exists by then"),
            ConnectProblem::NoSuchRow { id } => write!(f, "there is no row with id {id} by then"),
            ConnectProblem::ChangeShape => {
                f.write_str("a change is either {\"at_ms\": ..., \"insert\": {\"id\": ..., \"value\": ...}} or the same with \"update\"")
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::command::{CommandError, NameOf, NameProblem};
    use crate::error::{Problem, ScenarioError};
    use crate::limits;
    use crate::scenario::Scenario;

    /// A valid scenario with one connector, and `extra` fields added to it.
    fn with(connector: &str, rest: &str) -> String {
        format!(
            r#"{{"version": 1, "topics": [{{"name": "customers", "partitions": 2}}]{rest},
            "connectors": [{{"name": "jdbc", "topic": "customers", "table": {{"rows": [{{"id": 1, "value": "ann"}}],
            "changes": [{{"at_ms": 100, "update": {{"id": 1, "value": "anna"}}}}]}}{connector}}}]}}"#
        )
    }

    fn refused(text: &str) -> ScenarioError {
        Scenario::from_json(text).expect_err("refused")
    }

    #[test]
    fn the_sample_is_valid() {
        Scenario::from_json(&with("", "")).expect("valid");
    }

    /// Each mistake in a scenario's connectors gives its own typed value, at its place,
    /// with the English it always had.
    #[test]
    fn each_connector_mistake_is_its_own_typed_refusal() {
        let one = |name: &str| format!(r#"{{"name": "{name}", "topic": "customers", "table": {{}}}}"#);
        let nine: Vec<String> = (0..9).map(|i| one(&format!("c{i}"))).collect();
        let base = r#"{"version": 1, "topics": [{"name": "customers", "partitions": 2}], "connectors": "#;
        let e = refused(&format!("{base}[{}]}}", nine.join(",")));
        assert_eq!((e.path.as_str(), &e.problem), ("connectors", &Problem::Connect(ConnectProblem::TooManyConnectors { count: 9 })));
        assert_eq!(e.problem.to_string(), "9 connectors; allowed: at most 8");

        let e = refused(&format!("{base}[{}, {}]}}", one("c"), one("c")));
        assert_eq!((e.path.as_str(), &e.problem), ("connectors[1].name", &ConnectProblem::Duplicate { name: "c".into() }.into()));
        assert_eq!(e.problem.to_string(), "connector \"c\" is defined twice");

        let e = refused(&format!("{base}[{}]}}", one("")));
        let empty = CommandError::BadName { what: NameOf::Connector, name: String::new(), problem: NameProblem::Empty };
        assert_eq!((e.path.as_str(), &e.problem), ("connectors[0].name", &Problem::from(empty)));

        let e = refused(&with("", r#", "producers": [{"name": "connector-producer-jdbc-0"}]"#));
        let taken = ConnectProblem::ProducerNameTaken { producer: "connector-producer-jdbc-0".into() };
        assert_eq!((e.path.as_str(), &e.problem), ("connectors[0].name", &taken.into()));
        assert_eq!(e.problem.to_string(), "its task's producer would be named \"connector-producer-jdbc-0\", which a producer already is");

        let e = refused(&with("", "").replacen("\"topic\": \"customers\"", "\"topic\": \"nope\"", 1));
        assert_eq!((e.path.as_str(), &e.problem), ("connectors[0].topic", &CommandError::UnknownTopic("nope".into()).into()));

        let e = refused(&with(r#", "offset_flush_interval_ms": 0"#, ""));
        let out = Problem::OutOfRange { range: &limits::CONNECTOR_OFFSET_FLUSH_INTERVAL_MS, value: 0 };
        assert_eq!((e.path.as_str(), &e.problem), ("connectors[0].offset_flush_interval_ms", &out));
        assert_eq!(e.problem.to_string(), "is 0; allowed: 1 to 604800000 (one week)");

        let rows: Vec<String> = (0..=MAX_TABLE_ROWS).map(|i| format!(r#"{{"id": {i}, "value": ""}}"#)).collect();
        let text = format!(r#"{base}[{{"name": "c", "topic": "customers", "table": {{"rows": [{}]}}}}]}}"#, rows.join(","));
        let e = refused(&text);
        let many = ConnectProblem::TooManyRows { what: TableList::Rows, count: MAX_TABLE_ROWS + 1 };
        assert_eq!((e.path.as_str(), &e.problem), ("connectors[0].table.rows", &many.into()));
        assert_eq!(e.problem.to_string(), "10001 rows; allowed: at most 10000");
        let changes: Vec<String> =
            (0..=MAX_TABLE_ROWS).map(|i| format!(r#"{{"at_ms": 1, "insert": {{"id": {i}, "value": ""}}}}"#)).collect();
        let text = format!(r#"{base}[{{"name": "c", "topic": "customers", "table": {{"changes": [{}]}}}}]}}"#, changes.join(","));
        let e = refused(&text);
        let many = ConnectProblem::TooManyRows { what: TableList::Changes, count: MAX_TABLE_ROWS + 1 };
        assert_eq!((e.path.as_str(), &e.problem), ("connectors[0].table.changes", &many.into()));

        let long = "x".repeat(MAX_VALUE_CHARS + 1);
        let e = refused(&with("", "").replacen("\"ann\"", &format!("\"{long}\""), 1));
        assert_eq!((e.path.as_str(), &e.problem), ("connectors[0].table.rows[0].value", &ConnectProblem::ValueTooLong.into()));
        assert_eq!(e.problem.to_string(), "at most 1024 characters");
        let e = refused(&with("", "").replacen("\"anna\"", &format!("\"{long}\""), 1));
        assert_eq!((e.path.as_str(), &e.problem), ("connectors[0].table.changes[0].update.value", &ConnectProblem::ValueTooLong.into()));

        let e =
            refused(&with("", "").replacen(r#"{"id": 1, "value": "ann"}"#, r#"{"id": 1, "value": "ann"}, {"id": 1, "value": "bo"}"#, 1));
        assert_eq!((e.path.as_str(), &e.problem), ("connectors[0].table.rows[1].id", &ConnectProblem::DuplicateRowId { id: 1 }.into()));

        let e = refused(&with("", "").replacen("\"update\": {\"id\": 1", "\"insert\": {\"id\": 1", 1));
        assert_eq!(
            (e.path.as_str(), &e.problem),
            ("connectors[0].table.changes[0].insert.id", &ConnectProblem::RowExists { id: 1 }.into())
        );

        let e = refused(&with("", "").replacen("\"update\": {\"id\": 1", "\"update\": {\"id\": 7", 1));
        assert_eq!(
            (e.path.as_str(), &e.problem),
            ("connectors[0].table.changes[0].update.id", &ConnectProblem::NoSuchRow { id: 7 }.into())
        );

        let e = refused(&with("", "").replacen("\"at_ms\": 100, ", "\"at_ms\": 100, \"insert\": {\"id\": 2, \"value\": \"b\"}, ", 1));
        assert_eq!((e.path.as_str(), &e.problem), ("connectors[0].table.changes[0]", &ConnectProblem::ChangeShape.into()));
        assert_eq!(
            e.problem.to_string(),
            "a change is either {\"at_ms\": ..., \"insert\": {\"id\": ..., \"value\": ...}} or the same with \"update\""
        );

        let e = refused(&with("", "").replacen("\"at_ms\": 100", "\"at_ms\": 604800001", 1));
        let late = Problem::OutOfRange { range: &limits::TABLE_CHANGE_AT_MS, value: 604_800_001 };
        assert_eq!((e.path.as_str(), &e.problem), ("connectors[0].table.changes[0].at_ms", &late));
        assert_eq!(e.problem.to_string(), "is 604800001; allowed: 0 to 604800000 (one week)");
    }
}
