//! One record's whole path, read from the trace: why it went to its partition, when the
//! leader appended it (offset, epoch), which followers copied it, when the high
//! watermark passed it (committed), the producer's acknowledgement or errors, which
//! consumers received and processed it and when their group's commit covered it — or how
//! it was truncated, lost in a leader change, or deleted by retention.
//!
//! Only what the trace still holds is known (its newest 50,000 events): for an old record
//! the path may start part-way, which [`Path::complete`] says.

use crate::config::Acks;
use crate::event::{ConsumeEvent, ProduceEvent, ReplicationEvent, TxnEvent};
use crate::event::{EventKind, LossCause, ProduceError};
use crate::log::SegmentDeletionReason;
use crate::partitioner::PartitionReason;
use crate::record::RecordId;
use crate::sim::Sim;
use crate::time::SimTime;
use crate::vecmap::{VecMap, VecSet};
use serde::{Deserialize, Serialize};

/// One step of a record's path.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "hop", rename_all = "snake_case")]
pub enum Hop {
    /// `send()` put it into a batch for this partition, for this reason.
    Sent {
        /// The producer's name.
        producer: String,
        /// The topic it was sent to.
        topic: String,
        /// The partition the producer chose.
        partition: u32,
        /// Its key, if it has one.
        key: Option<String>,
        /// Why that partition: explicit, key hash, sticky or round-robin.
        reason: PartitionReason,
    },
    /// Its batch went to the leader.
    BatchSent {
        /// The producer's name.
        producer: String,
    },
    /// A Produce request for it failed (and is retried, or not).
    Failed {
        /// The error the attempt ended with (an error code, or a timeout).
        error: ProduceError,
        /// Whether the batch goes back for another attempt (`retries`,
        /// `delivery.timeout.ms` left); `false`: its records are given up.
        retrying: bool,
    },
    /// The leader appended it.
    Appended {
        /// The leader's broker id.
        broker: u32,
        /// Its offset in the partition.
        offset: u64,
        /// The leader epoch it was appended under.
        leader_epoch: u32,
    },
    /// A follower copied it.
    Replicated {
        /// The follower's broker id.
        follower: u32,
    },
    /// The high watermark passed it: committed, visible to consumers.
    Committed {
        /// The new high watermark (the first offset not yet committed).
        high_watermark: u64,
    },
    /// The producer got its acknowledgement (offset -1 for acks=0).
    Acked {
        /// The offset the leader answered with; -1 under `acks=0`.
        offset: i64,
        /// The producer's `acks` for that attempt.
        acks: Acks,
    },
    /// A consumer's `poll()` returned it.
    Delivered {
        /// The consumer's `group.id`.
        group: String,
        /// The consumer's client id.
        client_id: String,
    },
    /// A consumer finished processing it (a second time for the group: a duplicate).
    Processed {
        /// The consumer's `group.id`.
        group: String,
        /// The consumer's client id.
        client_id: String,
        /// Whether the group had already processed this offset of the partition.
        duplicate: bool,
    },
    /// The group's committed offset passed it: the group will not read it again.
    OffsetCommitted {
        /// The group's id.
        group: String,
        /// The member whose commit passed it.
        client_id: String,
        /// The committed offset (the next one the group reads).
        committed: u64,
    },
    /// A returning replica truncated it from its log.
    Truncated {
        /// The truncating replica's broker id.
        broker: u32,
    },
    /// A leader change left it behind.
    Lost {
        /// A clean failover, or an unclean election.
        cause: LossCause,
        /// Whether the high watermark had passed it: a committed record lost.
        was_committed: bool,
    },
    /// Retention deleted the segment holding it on this replica.
    Deleted {
        /// The replica's broker id.
        broker: u32,
        /// Which retention rule deleted it (`retention.ms`, `retention.bytes`, log start).
        reason: SegmentDeletionReason,
    },
    /// It was appended in a transaction (issue 17): read_committed consumers wait for its
    /// fate.
    InTransaction {
        /// The producer id.
        producer_id: u64,
        /// The epoch its batch carried.
        epoch: u16,
    },
    /// Its transaction's marker was written on its partition: its fate.
    TransactionDecided {
        /// Committed (true) or aborted.
        commit: bool,
        /// The marker's offset.
        marker_offset: u64,
    },
}

/// A record's path: its value and the hops with their times, oldest first.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Path {
    /// The record followed.
    pub record: RecordId,
    /// Its value (empty when the trace no longer holds its send or append).
    pub value: String,
    /// Each hop with the moment it happened, oldest first.
    pub hops: Vec<(SimTime, Hop)>,
    /// Whether the trace still holds the record's start (its `Sent` hop).
    pub complete: bool,
}

/// The path of `record` as far as the trace knows it.
pub fn path(sim: &Sim, record: RecordId) -> Path {
    let mut hops = Vec::new();
    let mut value = String::new();
    // Where it sits: (topic, partition) and its offsets there (a retried duplicate can
    // have two).
    let mut place: Option<(String, u32)> = None;
    let mut offsets: VecSet<u64> = VecSet::new();
    let mut committed = false;
    let mut covered: VecMap<String, ()> = VecMap::new();
    // Its transaction, once appended in one: the producer id, undecided so far.
    let mut txn: Option<u64> = None;
    for e in sim.trace().events() {
        let at = e.time;
        let here = |t: &str, p: u32| place.as_ref().is_some_and(|(pt, pp)| pt == t && *pp == p);
        match &e.kind {
            EventKind::Produce(ProduceEvent::RecordSent { record: r, producer, topic, partition, key, value: v, reason })
                if *r == record =>
            {
                value = v.to_string();
                place = Some((topic.to_string(), *partition));
                hops.push((
                    at,
                    Hop::Sent {
                        producer: producer.to_string(),
                        topic: topic.to_string(),
                        partition: *partition,
                        key: key.as_ref().map(|k| k.to_string()),
                        reason: reason.clone(),
                    },
                ));
            }
            EventKind::Produce(ProduceEvent::BatchSent { producer, records, .. }) if records.contains(&record) => {
                hops.push((at, Hop::BatchSent { producer: producer.to_string() }));
            }
            EventKind::Produce(ProduceEvent::ProduceFailed { records, error, retrying, .. }) if records.contains(&record) => {
                hops.push((at, Hop::Failed { error: *error, retrying: *retrying }));
            }
            EventKind::Produce(ProduceEvent::RecordAppended {
                record: r,
                value: v,
                topic,
                partition,
                offset,
                broker,
                leader_epoch,
                ..
            }) if *r == record => {
                value = v.to_string();
                place = Some((topic.to_string(), *partition));
                offsets.insert(*offset);
                hops.push((at, Hop::Appended { broker: *broker, offset: *offset, leader_epoch: *leader_epoch }));
            }
            EventKind::Replication(ReplicationEvent::ReplicaFetched { follower, records, .. }) if records.contains(&record) => {
                hops.push((at, Hop::Replicated { follower: *follower }));
            }
            EventKind::Replication(ReplicationEvent::HighWatermarkAdvanced { topic, partition, high_watermark })
                if !committed && here(topic, *partition) && offsets.iter().any(|o| o < high_watermark) =>
            {
                committed = true;
                hops.push((at, Hop::Committed { high_watermark: *high_watermark }));
            }
            EventKind::Produce(ProduceEvent::RecordAcked { record: r, offset, acks, .. }) if *r == record => {
                hops.push((at, Hop::Acked { offset: *offset, acks: *acks }));
            }
            EventKind::Consume(ConsumeEvent::RecordDelivered { record: r, group, client_id, .. }) if *r == record => {
                hops.push((at, Hop::Delivered { group: group.to_string(), client_id: client_id.to_string() }));
            }
            EventKind::Consume(ConsumeEvent::RecordProcessed { record: r, group, client_id, duplicate, .. }) if *r == record => {
                hops.push((at, Hop::Processed { group: group.to_string(), client_id: client_id.to_string(), duplicate: *duplicate }));
            }
            EventKind::Consume(ConsumeEvent::OffsetsCommitted { group, client_id, offsets: list })
                if !covered.contains_key(group.as_str()) =>
            {
                let passed = list.iter().find(|(tp, o)| here(&tp.topic, tp.partition) && offsets.iter().any(|off| off < o));
                if let Some((_, o)) = passed {
                    covered.insert(group.to_string(), ());
                    hops.push((at, Hop::OffsetCommitted { group: group.to_string(), client_id: client_id.to_string(), committed: *o }));
                }
            }
            EventKind::Replication(ReplicationEvent::RecordsTruncated { broker, records, .. }) if records.contains(&record) => {
                hops.push((at, Hop::Truncated { broker: *broker }));
            }
            EventKind::Replication(ReplicationEvent::RecordsLost { records, cause, .. }) => {
                if let Some(l) = records.iter().find(|l| l.record == record) {
                    hops.push((at, Hop::Lost { cause: *cause, was_committed: l.was_committed }));
                }
            }
            EventKind::Replication(ReplicationEvent::SegmentsDeleted { broker, reason, records, .. }) if records.contains(&record) => {
                hops.push((at, Hop::Deleted { broker: *broker, reason: *reason }));
            }
            EventKind::Txn(TxnEvent::TxnRecordsAppended { producer_id, epoch, records, .. }) if records.contains(&record) => {
                txn = Some(*producer_id);
                hops.push((at, Hop::InTransaction { producer_id: *producer_id, epoch: *epoch }));
            }
            EventKind::Txn(TxnEvent::MarkerWritten { topic, partition, producer_id, kind, offset, .. })
                if txn == Some(*producer_id) && here(topic, *partition) && offsets.iter().any(|o| o < offset) =>
            {
                txn = None;
                hops.push((at, Hop::TransactionDecided { commit: *kind == crate::record::ControlType::Commit, marker_offset: *offset }));
            }
            _ => {}
        }
    }
    let complete = hops.iter().any(|(_, h)| matches!(h, Hop::Sent { .. }));
    Path { record, value, hops, complete }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used)]
mod tests {
    use super::*;

    /// m1 of the seed example: sent, appended, copied by both followers, committed,
    /// acknowledged, then received and processed by a consumer of each group.
    #[test]
    fn the_seed_examples_m1_goes_all_the_way() {
        let scenario = crate::scenario::default_scenario();
        let mut sim = scenario.build().unwrap();
        sim.run_to(SimTime(scenario.end_ms()));
        let m1 = sim
            .trace()
            .events()
            .find_map(|e| match &e.kind {
                EventKind::Produce(ProduceEvent::RecordSent { record, value, .. }) if value == "m1" => Some(*record),
                _ => None,
            })
            .unwrap();
        let p = path(&sim, m1);
        assert!(p.complete);
        assert_eq!(p.value, "m1");
        let kinds: Vec<&str> = p
            .hops
            .iter()
            .map(|(_, h)| match h {
                Hop::Sent { .. } => "sent",
                Hop::BatchSent { .. } => "batch",
                Hop::Appended { .. } => "appended",
                Hop::Replicated { .. } => "replicated",
                Hop::Committed { .. } => "committed",
                Hop::Acked { .. } => "acked",
                Hop::Delivered { .. } => "delivered",
                Hop::Processed { .. } => "processed",
                Hop::OffsetCommitted { .. } => "offset",
                _ => "other",
            })
            .collect();
        let first = |k: &str| kinds.iter().position(|x| *x == k).unwrap_or_else(|| panic!("{k} missing in {kinds:?}"));
        assert!(first("sent") < first("batch") && first("batch") < first("appended"));
        assert!(first("appended") < first("replicated") && first("replicated") < first("committed"));
        assert!(first("committed") < first("delivered") && first("delivered") < first("processed"));
        assert_eq!(kinds.iter().filter(|k| **k == "replicated").count(), 2, "RF 3: two followers");
        assert_eq!(kinds.iter().filter(|k| **k == "delivered").count(), 2, "one consumer in each group");
        assert!(kinds.contains(&"acked"));
        assert!(p.hops.windows(2).all(|w| w[0].0 <= w[1].0), "in time order");
    }
}
