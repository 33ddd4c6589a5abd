//! Log compaction's queries (issue 19): which offsets a compacted log still holds, the
//! table a reader of the whole log ends up with, the active segment the cleaner never
//! touches, the cleaner's checkpoint, a tombstone's delete horizon, and what one consumer
//! received for one key (a tombstone as `null`); and `__consumer_offsets`, the compacted
//! topic where a group's committed offsets really live: the group's partition, its leader
//! (the coordinator), the commit records of one of its offsets. The log queries
//! (`records`, `offsets`, …) also read `__consumer_offsets` by name.

use super::{delivered_value, group, log, member, num, value_of};
use crate::lesson::Missing;
use crate::read::Read;
use crate::record::BrokerId;
use serde::Serialize;
use serde_json::Value;

/// What a claim asks about a compacted log (any log answers; only compacted ones have
/// gaps, a checkpoint or delete horizons).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "ask", rename_all = "snake_case")]
#[non_exhaustive]
pub enum CompactionQuery {
    /// The offsets of the log's records, in order: with gaps where the cleaner removed
    /// records (offsets never change). Transaction markers are left out, as in `records`.
    Offsets {
        /// The topic's name.
        topic: String,
        /// The partition number.
        partition: u32,
        /// Read this broker's replica instead (absent: the leader's log).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        broker: Option<BrokerId>,
    },
    /// The latest value of every key, in offset order: the table a consumer that reads the
    /// whole log ends up with (a key whose newest record is a tombstone is left out).
    /// Compaction never changes it; it only removes what it supersedes.
    LatestValues {
        /// The topic's name.
        topic: String,
        /// The partition number.
        partition: u32,
        /// Read this broker's replica instead (absent: the leader's log).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        broker: Option<BrokerId>,
    },
    /// The values in the log's active segment (the last one, where appends go), in offset
    /// order, a tombstone as `null`: the log cleaner never cleans it (`LogCleanerManager.cleanableOffsets`).
    ActiveSegment {
        /// The topic's name.
        topic: String,
        /// The partition number.
        partition: u32,
        /// Read this broker's replica instead (absent: the leader's log).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        broker: Option<BrokerId>,
    },
    /// Where the log cleaner's last pass over this copy ended (the cleaner checkpoint):
    /// below it each key has only its newest record as of that pass, from it on the log is
    /// dirty. `null` before the first pass.
    CleanerCheckpoint {
        /// The topic's name.
        topic: String,
        /// The partition number.
        partition: u32,
        /// Read this broker's replica instead (absent: the leader's log).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        broker: Option<BrokerId>,
    },
    /// The delete horizon of the key's newest tombstone in the log (KIP-534): the first
    /// cleaner pass that kept it stamped it with that pass's time plus
    /// `delete.retention.ms`, and a pass after it removes it. `null`: no tombstone of the
    /// key in the log, or not stamped yet.
    DeleteHorizonMs {
        /// The topic's name.
        topic: String,
        /// The partition number.
        partition: u32,
        /// The record key.
        key: String,
        /// Read this broker's replica instead (absent: the leader's log).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        broker: Option<BrokerId>,
    },
    /// The partition of `__consumer_offsets` that holds the group's committed offsets and
    /// metadata: `abs(hashCode(group.id)) % 50` (`null`: the topic does not exist, the
    /// cluster having fewer brokers than `offsets.topic.replication.factor`).
    OffsetsPartition {
        /// The group's id.
        group: String,
    },
    /// The group's coordinator: the broker leading its `__consumer_offsets` partition
    /// (`null`: no leader, or no such topic).
    Coordinator {
        /// The group's id.
        group: String,
    },
    /// The records of the group's committed offset for one partition in its
    /// `__consumer_offsets` partition, oldest first: the offset each commit record holds,
    /// `null` for a tombstone (the offset expired). Compaction leaves the newest.
    OffsetCommits {
        /// The group's id.
        group: String,
        /// The topic of the committed offset.
        topic: String,
        /// The partition of the committed offset.
        partition: u32,
    },
    /// The values the member's `poll()` returned for records with this key, in order, a
    /// tombstone as `null` (among its newest 1000 deliveries).
    ReceivedForKey {
        /// The group's id.
        group: String,
        /// The member's client id.
        client_id: String,
        /// The record key.
        key: String,
    },
}

/// Answers a compaction query from the read layer (as [`super::answer`]).
pub(super) fn answer_compaction(read: Read<'_>, q: &CompactionQuery) -> Result<Value, Missing> {
    Ok(match q {
        CompactionQuery::Offsets { topic, partition, broker } => Value::Array(
            log(read, topic, *partition, *broker)?.records().iter().filter(|r| !r.record.is_control()).map(|r| num(r.offset)).collect(),
        ),
        CompactionQuery::LatestValues { topic, partition, broker } => {
            Value::Array(log(read, topic, *partition, *broker)?.latest_per_key().into_iter().map(|r| value_of(&r.record)).collect())
        }
        CompactionQuery::ActiveSegment { topic, partition, broker } => {
            let l = log(read, topic, *partition, *broker)?;
            let base = l.segments().last().map_or(l.log_end_offset(), |s| s.base_offset);
            Value::Array(
                l.records_in(base, l.log_end_offset()).iter().filter(|r| !r.record.is_control()).map(|r| value_of(&r.record)).collect(),
            )
        }
        CompactionQuery::CleanerCheckpoint { topic, partition, broker } => {
            log(read, topic, *partition, *broker)?.cleaner_checkpoint().map_or(Value::Null, num)
        }
        CompactionQuery::DeleteHorizonMs { topic, partition, key, broker } => log(read, topic, *partition, *broker)?
            .records()
            .iter()
            .rfind(|r| r.record.tombstone && r.record.key.as_deref() == Some(key.as_str()))
            .and_then(|r| r.delete_horizon)
            .map_or(Value::Null, |t| num(t.ms())),
        CompactionQuery::ReceivedForKey { group, client_id, key } => Value::Array(
            member(read, group, client_id)?.received().filter(|d| d.key.as_deref() == Some(key.as_str())).map(delivered_value).collect(),
        ),
        CompactionQuery::OffsetsPartition { group: g } => {
            group(read, g)?;
            read.offsets_topic().partition_of(g).map_or(Value::Null, |p| num(p.into()))
        }
        CompactionQuery::Coordinator { group: g } => {
            group(read, g)?;
            let offsets = read.offsets_topic();
            offsets.partition_of(g).and_then(|p| offsets.partition(p)).and_then(|p| p.leader()).map_or(Value::Null, |b| num(b.into()))
        }
        CompactionQuery::OffsetCommits { group: g, topic, partition } => {
            group(read, g)?;
            let offsets = read.offsets_topic();
            let Some(log) = offsets.partition_of(g).and_then(|p| offsets.partition(p)).and_then(|p| p.log()) else {
                return Ok(Value::Array(Vec::new()));
            };
            // The key and value as the read layer documents them (`OffsetsPartitionRead::log`):
            // `["group","topic",partition]`, `{"offset":…,"leaderEpoch":…,"commitTimestamp":…}`.
            let key = serde_json::to_string(&(g, topic, partition)).unwrap_or_default();
            Value::Array(
                log.records()
                    .iter()
                    .filter(|r| r.record.key.as_deref() == Some(key.as_str()))
                    .map(|r| match r.record.value() {
                        None => Value::Null,
                        Some(v) => serde_json::from_str::<Value>(v).ok().and_then(|v| v.get("offset").cloned()).unwrap_or(Value::Null),
                    })
                    .collect(),
            )
        }
    })
}

/// A compaction query in words, for check's messages.
pub(super) fn describe_compaction(q: &CompactionQuery) -> String {
    let on = |topic: &str, p: u32, broker: &Option<BrokerId>| match broker {
        Some(b) => format!("{topic}-{p} on broker {b}"),
        None => format!("{topic}-{p}"),
    };
    match q {
        CompactionQuery::Offsets { topic, partition, broker } => format!("the offsets of the records of {}", on(topic, *partition, broker)),
        CompactionQuery::LatestValues { topic, partition, broker } => {
            format!("the latest value of every key in {}", on(topic, *partition, broker))
        }
        CompactionQuery::ActiveSegment { topic, partition, broker } => format!("the active segment of {}", on(topic, *partition, broker)),
        CompactionQuery::CleanerCheckpoint { topic, partition, broker } => {
            format!("the cleaner checkpoint of {}", on(topic, *partition, broker))
        }
        CompactionQuery::DeleteHorizonMs { topic, partition, key, broker } => {
            format!("the delete horizon of the tombstone of \"{key}\" in {}", on(topic, *partition, broker))
        }
        CompactionQuery::OffsetsPartition { group } => format!("the __consumer_offsets partition of {group}"),
        CompactionQuery::Coordinator { group } => format!("the coordinator of {group}"),
        CompactionQuery::OffsetCommits { group, topic, partition } => {
            format!("the commit records of {group}'s offset on {topic}-{partition} in __consumer_offsets")
        }
        CompactionQuery::ReceivedForKey { group, client_id, key } => format!("what {client_id} of {group} received with key \"{key}\""),
    }
}
