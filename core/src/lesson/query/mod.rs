//! The lessons' queries: what a claim or a question asks the simulation, answered through
//! the read layer.
//!
//! One file per Kafka feature holds that feature's queries, their answers and their words
//! (`run.rs`, `produce.rs`, `replication.rs`, `group.rs`, `connect.rs`, `streams.rs`,
//! `txn.rs`, `compaction.rs`);
//! [`Query`] has one variant per feature, [`answer`] and [`describe`] one line per feature,
//! and the reader's table one row per query. A new feature adds its file, one variant, one
//! line in `from_feature!`, `answer` and `describe`, and its rows.

mod compaction;
mod connect;
mod group;
mod produce;
mod replication;
mod run;
mod share_group;
mod streams;
mod txn;

pub use compaction::CompactionQuery;
pub use connect::ConnectQuery;
pub use group::GroupQuery;
pub use produce::ProduceQuery;
pub use replication::ReplicationQuery;
pub use run::RunQuery;
pub use share_group::ShareGroupQuery;
pub use streams::StreamsQuery;
pub use txn::TxnQuery;

use crate::lesson::Missing;
use crate::read::{GroupRead, LogRead, MemberRead, PartitionRead, ProducerRead, Read, TopicRead};
use crate::record::{BrokerId, OFFSETS_TOPIC};
use crate::sim::Sim;
use crate::tagged::tagged_reader;
use serde::Serialize;
use serde_json::Value;

/// A question the runner answers from the simulation: one variant per feature, each the
/// feature's own query enum (its file in this folder). Written and read as one flat object
/// tagged by `"ask"` (the inner enum's tag; the outer level adds nothing). Unknown names (a
/// group, member, topic, partition, producer or broker that does not exist at that moment)
/// are errors, so a misspelt claim fails loudly rather than answering `null`.
///
/// Read by a hand-written reader (below), not serde's derive; a new variant needs a row
/// there too.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(untagged)]
#[non_exhaustive]
pub enum Query {
    /// The run itself: its time and its trace.
    Run(RunQuery),
    /// A producer's sends and the records they appended: partition, offset, error,
    /// timestamps.
    Produce(ProduceQuery),
    /// A partition's logs, leader, leader epoch and ISR, or a broker.
    Replication(ReplicationQuery),
    /// A consumer group or one of its members.
    Group(GroupQuery),
    /// A Kafka Connect source connector's task.
    Connect(ConnectQuery),
    /// A Kafka Streams application's state store.
    Streams(StreamsQuery),
    /// A share group (KIP-932): who shares a partition, what a member received, delivery counts.
    ShareGroup(ShareGroupQuery),
    /// Transactions: a log's LSO, markers and aborted records, a transactional producer.
    Txn(TxnQuery),
    /// Log compaction: a compacted log's offsets, latest values, active segment, cleaner
    /// checkpoint and tombstones, what a consumer received for a key; a group's
    /// `__consumer_offsets` partition, coordinator and commit records.
    Compaction(CompactionQuery),
}

/// `FeatureQuery::X { .. }.into()`: a feature's query as a [`Query`].
macro_rules! from_feature {
    ($($feature:ident($inner:ty)),* $(,)?) => {
        $(impl From<$inner> for Query {
            fn from(q: $inner) -> Self {
                Query::$feature(q)
            }
        })*
    };
}

from_feature!(
    Run(RunQuery),
    Produce(ProduceQuery),
    Replication(ReplicationQuery),
    Group(GroupQuery),
    Connect(ConnectQuery),
    Streams(StreamsQuery),
    ShareGroup(ShareGroupQuery),
    Txn(TxnQuery),
    Compaction(CompactionQuery),
);

tagged_reader! {
    /// Hand-written (`tagged_reader!`, core/src/tagged.rs) rather than derived: serde's
    /// internally tagged `Deserialize` for `Query` was the page's largest function, 110 KB
    /// of wasm before wasm-opt (BENCHMARKS.md, "Bundle"). Same format and messages as the
    /// derive (`#[serde(tag = "ask", rename_all = "snake_case", deny_unknown_fields)]`).
    ///
    /// A new query adds a row below, `Feature(FeatureQuery::Variant) "tag" { fields }`: its
    /// fields in declaration order (`name: default` for a `#[serde(default)]` one), and a
    /// slot for a field name no query had (read as `Option<T>` if any query's field is an
    /// `Option`); and a sample in this folder's tests (`every_query`). The rows' order is
    /// the order an unknown `ask` lists the tags in.
    Query (tag "ask", deny_unknown_fields: true) {
        slots {
            // `assigned`'s is an `Option`, the others' a `String`.
            topic: Option<String>,
            value: String,
            partition: u32,
            // `broker_alive`'s is a `BrokerId`, the others' an `Option`.
            broker: Option<BrokerId>,
            group: String,
            client_id: String,
            producer: String,
            kind: String,
            mentions: Vec<String>,
            key: String,
            connector: String,
            application_id: String,
        }
        variants {
            Run(RunQuery::NowMs) "now_ms" {},
            Produce(ProduceQuery::PartitionOf) "partition_of" { topic, value },
            Replication(ReplicationQuery::Records) "records" { topic, partition, broker: default },
            Replication(ReplicationQuery::InLog) "in_log" { topic, partition, value, broker: default },
            Group(GroupQuery::ReceivedBy) "received_by" { group, value },
            Group(GroupQuery::Received) "received" { group, client_id },
            Group(GroupQuery::Owner) "owner" { group, topic, partition },
            Group(GroupQuery::Assigned) "assigned" { group, client_id, topic: default },
            Group(GroupQuery::AssignedCount) "assigned_count" { group, client_id },
            Group(GroupQuery::Revoked) "revoked" { group, client_id },
            Group(GroupQuery::Members) "members" { group },
            Group(GroupQuery::GroupState) "group_state" { group },
            Group(GroupQuery::Generation) "generation" { group },
            Group(GroupQuery::Rebalances) "rebalances" { group },
            Group(GroupQuery::GroupLeader) "group_leader" { group },
            Group(GroupQuery::Activity) "activity" { group, client_id },
            Group(GroupQuery::Phase) "phase" { group, client_id },
            Group(GroupQuery::Position) "position" { group, client_id, topic, partition },
            Group(GroupQuery::Committed) "committed" { group, topic, partition },
            Group(GroupQuery::ProcessedTwice) "processed_twice" { group },
            Group(GroupQuery::DuplicateValues) "duplicate_values" { group },
            Group(GroupQuery::LostByGroup) "lost_by_group" { group },
            Group(GroupQuery::LostValues) "lost_values" { group },
            Group(GroupQuery::InHand) "in_hand" { group, client_id },
            Replication(ReplicationQuery::HighWatermark) "high_watermark" { topic, partition, broker: default },
            Replication(ReplicationQuery::LogEndOffset) "log_end_offset" { topic, partition, broker: default },
            Replication(ReplicationQuery::LogStartOffset) "log_start_offset" { topic, partition, broker: default },
            Replication(ReplicationQuery::Leader) "leader" { topic, partition },
            Replication(ReplicationQuery::LeaderEpoch) "leader_epoch" { topic, partition },
            Replication(ReplicationQuery::Isr) "isr" { topic, partition },
            Replication(ReplicationQuery::LostInElection) "lost_in_election" { topic, partition },
            Produce(ProduceQuery::AckedOffset) "acked_offset" { producer, value },
            Produce(ProduceQuery::PartitionReason) "partition_reason" { producer, value },
            Produce(ProduceQuery::SentAtMs) "sent_at_ms" { producer, value },
            Produce(ProduceQuery::TimestampMs) "timestamp_ms" { topic, value },
            Produce(ProduceQuery::AppendedAtMs) "appended_at_ms" { topic, value },
            Produce(ProduceQuery::SendError) "send_error" { producer, value },
            Replication(ReplicationQuery::BrokerAlive) "broker_alive" { broker },
            Run(RunQuery::EventCount) "event_count" { kind, mentions: default },
            Run(RunQuery::LastEventMs) "last_event_ms" { kind, mentions: default },
            Group(GroupQuery::Buffered) "buffered" { group, client_id },
            Produce(ProduceQuery::ValuesForKey) "values_for_key" { topic, key },
            Connect(ConnectQuery::ConnectorPosition) "connector_position" { connector },
            Connect(ConnectQuery::ConnectorFlushed) "connector_flushed" { connector },
            Connect(ConnectQuery::ConnectorUnflushed) "connector_unflushed" { connector },
            Streams(StreamsQuery::StoreCount) "store_count" { application_id, key },
            ShareGroup(ShareGroupQuery::ShareOwners) "share_owners" { group, topic, partition },
            ShareGroup(ShareGroupQuery::ShareReceived) "share_received" { group, client_id },
            ShareGroup(ShareGroupQuery::ShareDeliveryCount) "share_delivery_count" { group, value },
            ShareGroup(ShareGroupQuery::ShareArchived) "share_archived" { group },
            ShareGroup(ShareGroupQuery::ShareStartOffset) "share_start_offset" { group, topic, partition },
            Txn(TxnQuery::LastStableOffset) "last_stable_offset" { topic, partition, broker: default },
            Txn(TxnQuery::Markers) "markers" { topic, partition, broker: default },
            Txn(TxnQuery::AbortedRecords) "aborted_records" { topic, partition, broker: default },
            Txn(TxnQuery::TransactionState) "transaction_state" { producer },
            Txn(TxnQuery::ProducerTxnState) "producer_txn_state" { producer },
            Txn(TxnQuery::ProducerEpoch) "producer_epoch" { producer },
            Txn(TxnQuery::TxnError) "txn_error" { producer },
            Txn(TxnQuery::ReceivedTwice) "received_twice" { group, client_id },
            Compaction(CompactionQuery::Offsets) "offsets" { topic, partition, broker: default },
            Compaction(CompactionQuery::LatestValues) "latest_values" { topic, partition, broker: default },
            Compaction(CompactionQuery::ActiveSegment) "active_segment" { topic, partition, broker: default },
            Compaction(CompactionQuery::CleanerCheckpoint) "cleaner_checkpoint" { topic, partition, broker: default },
            Compaction(CompactionQuery::DeleteHorizonMs) "delete_horizon_ms" { topic, partition, key, broker: default },
            Compaction(CompactionQuery::ReceivedForKey) "received_for_key" { group, client_id, key },
            Compaction(CompactionQuery::OffsetsPartition) "offsets_partition" { group },
            Compaction(CompactionQuery::Coordinator) "coordinator" { group },
            Compaction(CompactionQuery::OffsetCommits) "offset_commits" { group, topic, partition },
        }
    }
}

/// Answers a query from the simulation as it is now, through the read layer
/// ([`Sim::read`]). `since` is the trace position (an event's `seq`) where "since the
/// previous step" begins.
pub fn answer(sim: &Sim, q: &Query, since: u64) -> Result<Value, Missing> {
    let read = sim.read();
    match q {
        Query::Run(q) => run::answer_run(read, q),
        Query::Produce(q) => produce::answer_produce(read, q),
        Query::Replication(q) => replication::answer_replication(read, q),
        Query::Group(q) => group::answer_group(read, q, since),
        Query::Connect(q) => connect::answer_connect(read, q),
        Query::Streams(q) => streams::answer_streams(read, q),
        Query::ShareGroup(q) => share_group::answer_share_group(sim, q),
        Query::Txn(q) => txn::answer_txn(read, q),
        Query::Compaction(q) => compaction::answer_compaction(read, q),
    }
}

/// A query in words, for check's messages.
pub fn describe(q: &Query) -> String {
    match q {
        Query::Run(q) => run::describe_run(q),
        Query::Produce(q) => produce::describe_produce(q),
        Query::Replication(q) => replication::describe_replication(q),
        Query::Group(q) => group::describe_group(q),
        Query::Connect(q) => connect::describe_connect(q),
        Query::Streams(q) => streams::describe_streams(q),
        Query::ShareGroup(q) => share_group::describe_share_group(q),
        Query::Txn(q) => txn::describe_txn(q),
        Query::Compaction(q) => compaction::describe_compaction(q),
    }
}

// ----- what a query names ----------------------------------------------------------

pub(super) fn group<'a>(read: Read<'a>, id: &str) -> Result<GroupRead<'a>, Missing> {
    read.group(id).ok_or_else(|| Missing::Group(id.to_string()))
}

pub(super) fn member<'a>(read: Read<'a>, g: &str, client_id: &str) -> Result<MemberRead<'a>, Missing> {
    group(read, g)?.member(client_id).ok_or_else(|| Missing::Member { group: g.to_string(), client_id: client_id.to_string() })
}

fn topic_named<'a>(read: Read<'a>, topic: &str) -> Result<TopicRead<'a>, Missing> {
    read.topic(topic).ok_or_else(|| Missing::Topic(topic.to_string()))
}

pub(super) fn find_partition<'a>(read: Read<'a>, topic: &str, p: u32) -> Result<PartitionRead<'a>, Missing> {
    let t = topic_named(read, topic)?;
    t.partition(p).ok_or_else(|| Missing::Partition { topic: topic.to_string(), partition: p, partitions: t.partition_count() })
}

/// The leader's log (the first replica's while offline), or one broker's replica. A
/// partition of `__consumer_offsets` answers too: its one log stands for every replica's
/// (the sandbox writes them together), and it has none before its first record.
fn log<'a>(read: Read<'a>, topic: &str, p: u32, broker: Option<BrokerId>) -> Result<LogRead<'a>, Missing> {
    if topic == OFFSETS_TOPIC {
        let offsets = read.offsets_topic();
        let part = offsets.partition(p).ok_or_else(|| Missing::Partition {
            topic: topic.to_string(),
            partition: p,
            partitions: offsets.partition_count(),
        })?;
        if let Some(b) = broker.filter(|b| !part.replicas().contains(b)) {
            return Err(Missing::Replica { broker: b, topic: topic.to_string(), partition: p });
        }
        return part.log().ok_or_else(|| Missing::Log { topic: topic.to_string(), partition: p });
    }
    let part = find_partition(read, topic, p)?;
    match broker {
        None => part.log().ok_or_else(|| Missing::Log { topic: topic.to_string(), partition: p }),
        Some(b) => part.log_on(b).ok_or_else(|| Missing::Replica { broker: b, topic: topic.to_string(), partition: p }),
    }
}

pub(super) fn producer<'a>(read: Read<'a>, name: &str) -> Result<ProducerRead<'a>, Missing> {
    read.producer(name).ok_or_else(|| Missing::Producer(name.to_string()))
}

fn num(n: u64) -> Value {
    Value::from(n)
}

/// A record's value as a claim states it: the string, or `null` for a null value (on a
/// compacted topic, a tombstone).
fn value_of(r: &crate::record::Record) -> Value {
    r.value().map_or(Value::Null, |v| Value::String(v.to_string()))
}

/// A delivered record's value as a claim states it: the string, or `null` for a tombstone.
fn delivered_value(d: &crate::group::Delivery) -> Value {
    if d.tombstone {
        Value::Null
    } else {
        Value::String(d.value.to_string())
    }
}

fn strings<'a>(it: impl Iterator<Item = &'a str>) -> Value {
    Value::Array(it.map(|s| Value::String(s.to_string())).collect())
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests;
