//! The partitions' and brokers' queries: a partition's log on its leader or on one replica
//! (records, offsets), its leader, epoch and ISR, what an election lost, whether a broker runs.

use super::{find_partition, log, num, strings, value_of};
use crate::lesson::Missing;
use crate::read::Read;
use crate::record::BrokerId;
use serde::Serialize;
use serde_json::Value;

/// What a claim asks about a partition's replicas and leader, or a broker.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "ask", rename_all = "snake_case")]
#[non_exhaustive]
pub enum ReplicationQuery {
    /// The values in a partition's log, in offset order (the leader's log, or a replica's),
    /// a tombstone's null value as `null`. Transaction markers are left out (`markers`
    /// lists them).
    Records {
        /// The topic's name.
        topic: String,
        /// The partition number.
        partition: u32,
        /// Read this broker's replica instead (absent: the leader's log, the first
        /// replica's while the partition is offline).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        broker: Option<BrokerId>,
    },
    /// Whether a value is in a partition's log (the leader's, or a replica's).
    InLog {
        /// The topic's name.
        topic: String,
        /// The partition number.
        partition: u32,
        /// The record value looked for.
        value: String,
        /// Read this broker's replica instead (absent: the leader's log, the first
        /// replica's while the partition is offline).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        broker: Option<BrokerId>,
    },
    /// The high watermark (the leader's, or a replica's).
    HighWatermark {
        /// The topic's name.
        topic: String,
        /// The partition number.
        partition: u32,
        /// Read this broker's replica instead (absent: the leader's log, the first
        /// replica's while the partition is offline).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        broker: Option<BrokerId>,
    },
    /// The log end offset (the leader's, or a replica's).
    LogEndOffset {
        /// The topic's name.
        topic: String,
        /// The partition number.
        partition: u32,
        /// Read this broker's replica instead (absent: the leader's log, the first
        /// replica's while the partition is offline).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        broker: Option<BrokerId>,
    },
    /// The log start offset (the leader's, or a replica's).
    LogStartOffset {
        /// The topic's name.
        topic: String,
        /// The partition number.
        partition: u32,
        /// Read this broker's replica instead (absent: the leader's log, the first
        /// replica's while the partition is offline).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        broker: Option<BrokerId>,
    },
    /// The leader's broker id (`null`: offline).
    Leader {
        /// The topic's name.
        topic: String,
        /// The partition number.
        partition: u32,
    },
    /// The partition's leader epoch.
    LeaderEpoch {
        /// The topic's name.
        topic: String,
        /// The partition number.
        partition: u32,
    },
    /// The in-sync replicas, in the partition's order.
    Isr {
        /// The topic's name.
        topic: String,
        /// The partition number.
        partition: u32,
    },
    /// The values a leader change left behind on a partition (lost), oldest first.
    LostInElection {
        /// The topic's name.
        topic: String,
        /// The partition number.
        partition: u32,
    },
    /// Whether a broker is running.
    BrokerAlive {
        /// The broker's id.
        broker: BrokerId,
    },
}

/// Answers a replication query from the read layer (as [`super::answer`]).
pub(super) fn answer_replication(read: Read<'_>, q: &ReplicationQuery) -> Result<Value, Missing> {
    Ok(match q {
        ReplicationQuery::Records { topic, partition, broker } => {
            // A transaction marker is a record with no value (`markers` lists them); a
            // tombstone's null value is `null`.
            Value::Array(
                log(read, topic, *partition, *broker)?
                    .records()
                    .iter()
                    .filter(|r| !r.record.is_control())
                    .map(|r| value_of(&r.record))
                    .collect(),
            )
        }
        ReplicationQuery::InLog { topic, partition, value, broker } => {
            Value::Bool(log(read, topic, *partition, *broker)?.records().iter().any(|r| r.record.value == value))
        }
        ReplicationQuery::HighWatermark { topic, partition, broker } => num(log(read, topic, *partition, *broker)?.high_watermark()),
        ReplicationQuery::LogEndOffset { topic, partition, broker } => num(log(read, topic, *partition, *broker)?.log_end_offset()),
        ReplicationQuery::LogStartOffset { topic, partition, broker } => num(log(read, topic, *partition, *broker)?.log_start_offset()),
        ReplicationQuery::Leader { topic, partition: p } => {
            find_partition(read, topic, *p)?.leader().map_or(Value::Null, |b| num(b.into()))
        }
        ReplicationQuery::LeaderEpoch { topic, partition: p } => num(find_partition(read, topic, *p)?.leader_epoch().into()),
        ReplicationQuery::Isr { topic, partition: p } => {
            Value::Array(find_partition(read, topic, *p)?.isr().iter().map(|b| num((*b).into())).collect())
        }
        ReplicationQuery::LostInElection { topic, partition: p } => {
            strings(find_partition(read, topic, *p)?.lost().map(|l| l.value.as_str()))
        }
        ReplicationQuery::BrokerAlive { broker } => Value::Bool(read.broker(*broker).ok_or(Missing::Broker(*broker))?.alive()),
    })
}

/// A replication query in words, for check's messages.
pub(super) fn describe_replication(q: &ReplicationQuery) -> String {
    let on = |topic: &str, p: u32, broker: &Option<BrokerId>| match broker {
        Some(b) => format!("{topic}-{p} on broker {b}"),
        None => format!("{topic}-{p}"),
    };
    match q {
        ReplicationQuery::Records { topic, partition, broker } => format!("the records of {}", on(topic, *partition, broker)),
        ReplicationQuery::InLog { topic, partition, value, broker } => {
            format!("whether \"{value}\" is in {}", on(topic, *partition, broker))
        }
        ReplicationQuery::HighWatermark { topic, partition, broker } => format!("the high watermark of {}", on(topic, *partition, broker)),
        ReplicationQuery::LogEndOffset { topic, partition, broker } => format!("the log end offset of {}", on(topic, *partition, broker)),
        ReplicationQuery::LogStartOffset { topic, partition, broker } => {
            format!("the log start offset of {}", on(topic, *partition, broker))
        }
        ReplicationQuery::Leader { topic, partition } => format!("the leader of {topic}-{partition}"),
        ReplicationQuery::LeaderEpoch { topic, partition } => format!("the leader epoch of {topic}-{partition}"),
        ReplicationQuery::Isr { topic, partition } => format!("the ISR of {topic}-{partition}"),
        ReplicationQuery::LostInElection { topic, partition } => format!("the records lost in elections on {topic}-{partition}"),
        ReplicationQuery::BrokerAlive { broker } => format!("whether broker {broker} is running"),
    }
}
