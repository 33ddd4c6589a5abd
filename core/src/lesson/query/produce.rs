//! The producer's queries: which partition `send()` chose for a value and why, when it sent
//! it, its acknowledged offset or error, and the record's timestamps in the log.

use super::{num, producer, topic_named, value_of};
use crate::lesson::Missing;
use crate::read::{PartitionRead, Read, SentRecord};
use crate::scenario;
use serde::Serialize;
use serde_json::Value;

/// What a claim asks about a producer's sends and the records they appended.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "ask", rename_all = "snake_case")]
#[non_exhaustive]
pub enum ProduceQuery {
    /// The partition the leader appended the record with this value to (`null`: none;
    /// a list if it was appended to several).
    PartitionOf {
        /// The topic whose partitions' logs are searched.
        topic: String,
        /// The record value looked for.
        value: String,
    },
    /// The offset in the producer's `RecordMetadata` for the value (-1 under acks=0;
    /// `null`: not acknowledged, or given up).
    AckedOffset {
        /// The producer's name.
        producer: String,
        /// The value sent (the newest send of it the producer still remembers).
        value: String,
    },
    /// Why the producer's partitioner chose the value's partition: `explicit`,
    /// `key_hash`, `sticky` or `round_robin` (`null`: not sent).
    PartitionReason {
        /// The producer's name.
        producer: String,
        /// The value sent (the newest send of it the producer still remembers).
        value: String,
    },
    /// When the producer's `send()` took the value, in ms (`null`: not sent).
    SentAtMs {
        /// The producer's name.
        producer: String,
        /// The value sent (the newest send of it the producer still remembers).
        value: String,
    },
    /// The record's timestamp in the log: CreateTime or LogAppendTime, per the topic
    /// (`null`: not in any partition's log).
    TimestampMs {
        /// The topic whose partitions' logs are searched.
        topic: String,
        /// The record's value (the first record holding it, partition by partition).
        value: String,
    },
    /// When the leader appended the record, in ms (`null`: not in any partition's log).
    AppendedAtMs {
        /// The topic whose partitions' logs are searched.
        topic: String,
        /// The record's value (the first record holding it, partition by partition).
        value: String,
    },
    /// The error a send's callback got for the value (`null`: none).
    SendError {
        /// The producer's name.
        producer: String,
        /// The value sent (the newest send of it the producer still remembers).
        value: String,
    },
    /// The values of the records with this key in a topic's logs, partition by partition,
    /// in offset order (a tombstone as `null`).
    ValuesForKey {
        /// The topic whose partitions' logs are searched.
        topic: String,
        /// The record key looked for.
        key: String,
    },
}

/// Answers a produce query from the read layer (as [`super::answer`]).
pub(super) fn answer_produce(read: Read<'_>, q: &ProduceQuery) -> Result<Value, Missing> {
    Ok(match q {
        ProduceQuery::PartitionOf { topic, value } => {
            let t = topic_named(read, topic)?;
            let found: Vec<Value> = t
                .partitions()
                .filter(|p| p.log().is_some_and(|l| l.records().iter().any(|r| r.record.value == value)))
                .map(|p| num(p.index().into()))
                .collect();
            match found.len() {
                0 => Value::Null,
                1 => found.into_iter().next().unwrap_or(Value::Null),
                _ => Value::Array(found),
            }
        }
        ProduceQuery::AckedOffset { producer: p, value } => {
            let sent = producer_sent(read, p, value)?;
            sent.and_then(|s| s.acked_offset).map_or(Value::Null, Value::from)
        }
        ProduceQuery::PartitionReason { producer: p, value } => match producer_sent(read, p, value)?.map(|s| &s.reason) {
            None => Value::Null,
            Some(crate::partitioner::PartitionReason::Explicit) => Value::String("explicit".into()),
            Some(crate::partitioner::PartitionReason::KeyHash { .. }) => Value::String("key_hash".into()),
            Some(crate::partitioner::PartitionReason::Sticky) => Value::String("sticky".into()),
            Some(crate::partitioner::PartitionReason::RoundRobin { .. }) => Value::String("round_robin".into()),
        },
        ProduceQuery::SentAtMs { producer: p, value } => producer_sent(read, p, value)?.map_or(Value::Null, |s| num(s.sent_at.ms())),
        ProduceQuery::TimestampMs { topic, value } => stored(read, topic, value)?.map_or(Value::Null, |r| num(r.timestamp.ms())),
        ProduceQuery::AppendedAtMs { topic, value } => stored(read, topic, value)?.map_or(Value::Null, |r| num(r.appended_at.ms())),
        ProduceQuery::SendError { producer: p, value } => {
            let sent = producer_sent(read, p, value)?;
            match sent.and_then(|s| s.failed) {
                None => Value::Null,
                // The error as Kafka names it (`NOT_ENOUGH_REPLICAS`).
                Some(e) => Value::String(scenario::write_json(&e, false).trim_matches('"').to_string()),
            }
        }
        ProduceQuery::ValuesForKey { topic, key } => {
            let t = topic_named(read, topic)?;
            Value::Array(
                t.partitions()
                    .filter_map(PartitionRead::log)
                    .flat_map(|l| l.records().iter())
                    .filter(|r| r.record.key.as_deref() == Some(key.as_str()))
                    .map(|r| value_of(&r.record))
                    .collect(),
            )
        }
    })
}

/// A produce query in words, for check's messages.
pub(super) fn describe_produce(q: &ProduceQuery) -> String {
    match q {
        ProduceQuery::PartitionOf { topic, value } => format!("the partition of {topic} holding \"{value}\""),
        ProduceQuery::AckedOffset { producer, value } => format!("the acknowledged offset of \"{value}\" from {producer}"),
        ProduceQuery::PartitionReason { producer, value } => format!("why {producer} chose the partition of \"{value}\""),
        ProduceQuery::SentAtMs { producer, value } => format!("when {producer} sent \"{value}\""),
        ProduceQuery::TimestampMs { topic, value } => format!("the timestamp of \"{value}\" in {topic}"),
        ProduceQuery::AppendedAtMs { topic, value } => format!("when \"{value}\" was appended to {topic}"),
        ProduceQuery::SendError { producer, value } => format!("the send error of \"{value}\" from {producer}"),
        ProduceQuery::ValuesForKey { topic, key } => format!("the values with key \"{key}\" in {topic}"),
    }
}

/// The first record with this value in the topic's logs (partition by partition).
fn stored<'a>(read: Read<'a>, topic: &str, value: &str) -> Result<Option<&'a crate::record::StoredRecord>, Missing> {
    let t = topic_named(read, topic)?;
    Ok(t.partitions().filter_map(PartitionRead::log).find_map(|l| l.records().iter().find(|r| r.record.value == value)))
}

/// The producer's newest record with this value, if it remembers one.
fn producer_sent<'a>(read: Read<'a>, p: &str, value: &str) -> Result<Option<&'a SentRecord>, Missing> {
    Ok(producer(read, p)?.sent().rfind(|s| s.value == value))
}
