//! Kafka Streams' queries: what an application's state store holds.

use super::num;
use crate::lesson::Missing;
use crate::read::Read;
use serde::Serialize;
use serde_json::Value;

/// What a claim asks about a Streams application.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "ask", rename_all = "snake_case")]
#[non_exhaustive]
pub enum StreamsQuery {
    /// A Streams application's `count_by_key` store: the count for the key (`null`: none).
    StoreCount {
        /// The application's `application.id`.
        application_id: String,
        /// The record key whose count is read.
        key: String,
    },
}

/// Answers a streams query from the read layer (as [`super::answer`]).
pub(super) fn answer_streams(read: Read<'_>, q: &StreamsQuery) -> Result<Value, Missing> {
    Ok(match q {
        StreamsQuery::StoreCount { application_id, key } => {
            let app = read.streams_app(application_id).ok_or_else(|| Missing::StreamsApp(application_id.clone()))?;
            app.store_count(key).map_or(Value::Null, num)
        }
    })
}

/// A streams query in words, for check's messages.
pub(super) fn describe_streams(q: &StreamsQuery) -> String {
    match q {
        StreamsQuery::StoreCount { application_id, key } => format!("the count of \"{key}\" in {application_id}'s store"),
    }
}
