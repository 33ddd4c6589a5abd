//! `__consumer_offsets` as a real compacted topic (issue 19): the group coordinators'
//! log. Every offset commit a coordinator accepts becomes a record keyed by (group, topic,
//! partition); each new generation of a group a record keyed by the group; an expired
//! offset a tombstone. The log is compacted by the log cleaner like any `compact` topic
//! (`cleanup.policy=compact`, `offsets.topic.segment.bytes`), and a broker that becomes
//! the leader of a partition — the coordinator of the groups that hash to it — loads the
//! groups' committed offsets from it (`CompactionEvent::CoordinatorLoaded`).
//!
//! Kafka's classes (4.x, `group-coordinator`): `GroupCoordinatorRecordHelpers`
//! (`newOffsetCommitRecord`, `newOffsetCommitTombstoneRecord`, `newGroupMetadataRecord`,
//! `newConsumerGroupEpochRecord`), `OffsetMetadataManager.replay` (the newest record per
//! key wins; a tombstone deletes the offset), `CoordinatorRuntime.scheduleLoadOperation`
//! (a new leader replays its partition before it serves), `GroupCoordinatorConfig`
//! (`offsets.topic.segment.bytes`, compaction). The records are shown as Kafka's
//! `kafka-console-consumer --formatter ...OffsetsMessageFormatter` shows their data: the key
//! as a JSON array `["group","topic",partition]` (an offset) or a JSON string `"group"`
//! (group metadata), the value as JSON. Their sizes are those of Kafka's serialized key
//! and value (`OffsetCommitKey` v1, `OffsetCommitValue` v3, `GroupMetadataKey` v2,
//! `GroupMetadataValue` v3 with the members' subscription and assignment estimated).
//!
//! Simplified (docs/fidelity.md): a partition's in-sync replicas get each record at once
//! (one log per partition stands for every in-sync copy, cleaned on its leader's
//! schedule), so no acknowledged commit is ever lost by a failover; a record is written
//! for each offset a commit changes (Kafka writes every offset of the request, moved or
//! not); transactional offset commits are written when their transaction commits (Kafka
//! writes them at once, marked with the producer id, and the marker decides).

use super::*;
use crate::log::{CompactionConfig, PartitionLog, SegmentConfig};
use crate::record::{Record, RecordId, TimestampType};
use serde::{Deserialize, Serialize};

/// Where the records of `__consumer_offsets` take their ids: a range no producer reaches
/// (below the transaction markers', [`crate::record::MARKER_ID_BASE`]).
pub const OFFSETS_RECORD_ID_BASE: u64 = 1 << 61;

/// The name the coordinator's records carry as their writer.
pub const COORDINATOR_WRITER: &str = "group-coordinator";

/// `log.roll.hours` (168): `__consumer_offsets` sets no `segment.ms` of its own.
const SEGMENT_MS: u64 = 7 * 24 * 3_600_000;

/// The segment size `__consumer_offsets` rolls at: `offsets.topic.segment.bytes`, at most
/// [`crate::SimOptions::offsets_segment_bytes`] (a memory bound; docs/fidelity.md).
pub(crate) fn segment_bytes(cluster: &Cluster, out: &Driver) -> u64 {
    cluster.config.offsets_topic_segment_bytes.min(out.options.offsets_segment_bytes)
}

/// The coordinators' log: the partitions of `__consumer_offsets` that hold records.
#[derive(Clone, Debug, Default)]
pub(crate) struct OffsetsTopic {
    /// By partition number; a partition appears with its first record.
    pub(crate) partitions: VecMap<u32, OffsetsPartition>,
    /// The next record's id, from [`OFFSETS_RECORD_ID_BASE`].
    next_id: u64,
    /// The cluster's internal leader changes already looked at
    /// ([`Cluster::internal_leader_changes`]).
    seen_leader_changes: u64,
}

/// One partition of `__consumer_offsets` with records.
#[derive(Clone, Debug)]
pub(crate) struct OffsetsPartition {
    /// Its log (every in-sync copy's).
    pub(crate) log: PartitionLog,
    /// The coordinator that has it loaded: the leader and its leader epoch. `None` once
    /// the partition lost its leader (Kafka unloads it, `onResignation`).
    pub(crate) loaded_by: Option<(BrokerId, u32)>,
}

/// An offset commit's value (`OffsetCommitValue` as the formatter prints its data).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct OffsetCommitValue {
    pub(crate) offset: u64,
    /// -1: none (`RecordBatch.NO_PARTITION_LEADER_EPOCH`).
    pub(crate) leader_epoch: i64,
    pub(crate) commit_timestamp: u64,
}

/// What a record of `__consumer_offsets` is, read back from its key.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum OffsetsKey {
    /// An offset commit of (group, partition).
    Offset { group: String, tp: TopicPartition },
    /// A group's metadata.
    Group { group: String },
}

impl OffsetsKey {
    /// The key as written: `["group","topic",partition]` or `"group"` (JSON, so no two
    /// keys of different groups or partitions are ever equal).
    pub(crate) fn text(&self) -> String {
        match self {
            OffsetsKey::Offset { group, tp } => serde_json::to_string(&(group, &tp.topic, tp.partition)).unwrap_or_default(),
            OffsetsKey::Group { group } => serde_json::to_string(group).unwrap_or_default(),
        }
    }

    /// Reads a key back (`None`: not one the coordinator writes).
    pub(crate) fn parse(text: &str) -> Option<OffsetsKey> {
        if text.starts_with('[') {
            let (group, topic, partition): (String, String, u32) = serde_json::from_str(text).ok()?;
            Some(OffsetsKey::Offset { group, tp: TopicPartition::new(topic, partition) })
        } else {
            serde_json::from_str::<String>(text).ok().map(|group| OffsetsKey::Group { group })
        }
    }

    /// The bytes Kafka's serialized key takes: `OffsetCommitKey` v1 (version, group,
    /// topic, partition) or `GroupMetadataKey` v2 (version, group).
    fn kafka_bytes(&self) -> usize {
        match self {
            OffsetsKey::Offset { group, tp } => 2 + 2 + group.len() + 2 + tp.topic.len() + 4,
            OffsetsKey::Group { group } => 2 + 2 + group.len(),
        }
    }
}

/// A record about to be written: its key, and its value with the bytes of Kafka's
/// serialized value (`None`: a tombstone).
struct Entry {
    key: OffsetsKey,
    value: Option<(String, usize)>,
}

impl OffsetsTopic {
    /// Appends `entries` to `group`'s partition as one batch at `now`, under the partition's
    /// leader epoch; every in-sync copy has them at once (the high watermark follows).
    fn write(&mut self, group: &str, entries: Vec<Entry>, cluster: &Cluster, out: &Driver) {
        let now = out.now;
        if entries.is_empty() {
            return;
        }
        let Some(p) = cluster.offsets_partition_of(group) else { return };
        let Some(reg) = cluster.offsets_partition(p) else { return };
        let (leader, epoch) = (reg.leader, reg.leader_epoch);
        let segments = SegmentConfig { segment_bytes: segment_bytes(cluster, out), segment_ms: SEGMENT_MS };
        let part = self
            .partitions
            .entry(p)
            .or_insert_with(|| OffsetsPartition { log: PartitionLog::new(segments), loaded_by: leader.map(|b| (b, epoch)) });
        for e in entries {
            let key = e.key.text();
            let key_bytes = Some(e.key.kafka_bytes());
            let (value, tombstone, size) = match e.value {
                Some((v, n)) => (v, false, crate::partitioner::record_size_of_lengths(key_bytes, Some(n))),
                None => (String::new(), true, crate::partitioner::record_size_of_lengths(key_bytes, None)),
            };
            let record = Record {
                id: RecordId(OFFSETS_RECORD_ID_BASE + self.next_id),
                producer: COORDINATOR_WRITER.into(),
                key: Some(key.into()),
                value: value.into(),
                headers: Vec::new(),
                create_time: now,
                size_bytes: size,
                sequence: None,
                txn: None,
                control: None,
                tombstone,
            };
            self.next_id += 1;
            part.log.append(record, now, TimestampType::CreateTime, epoch);
        }
        let end = part.log.log_end_offset();
        part.log.advance_high_watermark(end);
    }

    /// Offset commit records for `offsets` of `group` (`newOffsetCommitRecord`), with each
    /// offset's leader epoch if committed with one.
    pub(in crate::sim) fn write_offsets(
        &mut self,
        group: &str,
        offsets: &[(TopicPartition, u64)],
        epoch_of: impl Fn(&TopicPartition) -> Option<u32>,
        cluster: &Cluster,
        out: &Driver,
    ) {
        let now = out.now;
        let entries = offsets
            .iter()
            .map(|(tp, o)| {
                let v = OffsetCommitValue { offset: *o, leader_epoch: epoch_of(tp).map_or(-1, i64::from), commit_timestamp: now.ms() };
                // `OffsetCommitValue` v3: version, offset, leader epoch, metadata (empty),
                // commit timestamp.
                let value = (serde_json::to_string(&v).unwrap_or_default(), 2 + 8 + 4 + 2 + 8);
                Entry { key: OffsetsKey::Offset { group: group.to_string(), tp: tp.clone() }, value: Some(value) }
            })
            .collect();
        self.write(group, entries, cluster, out);
    }

    /// Tombstones for `group`'s offsets of `tps` (`newOffsetCommitTombstoneRecord`): they
    /// expired, and the cleaner removes the older records of their keys.
    pub(in crate::sim) fn write_tombstones(&mut self, group: &str, tps: &[TopicPartition], cluster: &Cluster, out: &Driver) {
        let entries =
            tps.iter().map(|tp| Entry { key: OffsetsKey::Offset { group: group.to_string(), tp: tp.clone() }, value: None }).collect();
        self.write(group, entries, cluster, out);
    }

    /// A group's metadata record: a classic group's generation, protocol, leader and
    /// members (`newGroupMetadataRecord`, written when a generation completes and when the
    /// group empties), a consumer-protocol group's epoch (`newConsumerGroupEpochRecord`).
    pub(in crate::sim) fn write_group(&mut self, g: &Group, cluster: &Cluster, out: &Driver) {
        let now = out.now;
        let value = match g.config.group_protocol {
            GroupProtocol::Classic => {
                let members: Vec<&str> = g.registry.iter().map(|r| r.client_id.as_str()).collect();
                let protocol = (!members.is_empty()).then(|| g.config.assignor.name());
                let v = serde_json::json!({
                    "protocolType": "consumer",
                    "generation": g.generation,
                    "protocol": protocol,
                    "leader": g.leader,
                    "currentStateTimestamp": now.ms(),
                    "members": members,
                });
                // `GroupMetadataValue` v3: version, protocol type, generation, protocol,
                // leader, state timestamp, and per member its ids, host, timeouts and
                // (estimated) subscription and assignment bytes.
                let member_bytes: usize =
                    g.registry.iter().map(|r| 2 + r.member_id.len() + 2 + 2 + r.client_id.len() + 2 + 10 + 4 + 4 + 4 + 32 + 4 + 32).sum();
                let bytes =
                    2 + 2 + 8 + 4 + 2 + protocol.map_or(0, str::len) + 2 + g.leader.as_ref().map_or(0, String::len) + 8 + 4 + member_bytes;
                (v.to_string(), bytes)
            }
            GroupProtocol::Consumer => {
                let v = serde_json::json!({ "epoch": g.generation });
                // `ConsumerGroupMetadataValue`: version, epoch, metadata hash.
                (v.to_string(), 2 + 4 + 8)
            }
        };
        self.write(&g.id, vec![Entry { key: OffsetsKey::Group { group: g.id.to_string() }, value: Some(value) }], cluster, out);
    }

    /// What partition `p`'s log holds for each group: the newest offset per partition (a
    /// tombstone deletes it), with its commit time and leader epoch, as a coordinator
    /// loading the partition replays it; and how many records it read.
    pub(crate) fn replay(&self, p: u32) -> (u64, VecMap<String, VecMap<TopicPartition, OffsetCommitValue>>) {
        let mut groups: VecMap<String, VecMap<TopicPartition, OffsetCommitValue>> = VecMap::new();
        let Some(part) = self.partitions.get(&p) else { return (0, groups) };
        let mut read = 0u64;
        for r in part.log.records().iter() {
            read += 1;
            let Some(key) = r.record.key.as_deref().and_then(OffsetsKey::parse) else { continue };
            match key {
                OffsetsKey::Offset { group, tp } => {
                    let offsets = groups.entry(group).or_default();
                    match r.record.value().and_then(|v| serde_json::from_str::<OffsetCommitValue>(v).ok()) {
                        Some(v) => {
                            offsets.insert(tp, v);
                        }
                        None => {
                            offsets.remove(&tp);
                        }
                    }
                }
                OffsetsKey::Group { group } => {
                    groups.entry(group).or_default();
                }
            }
        }
        (read, groups)
    }

    /// The cleaner's round over `__consumer_offsets` (after the topics' own, at each
    /// `log.cleaner.backoff.ms`): each partition whose leader is running and whose dirty
    /// ratio is above `min.cleanable.dirty.ratio` (0.5) is cleaned, filthiest first.
    pub(in crate::sim) fn clean(&mut self, cluster: &Cluster, out: &mut Driver) {
        let now = out.now;
        let config = CompactionConfig { segment_bytes: segment_bytes(cluster, out), ..CompactionConfig::default() };
        let mut eligible: Vec<(f64, u32, BrokerId, crate::log::LogToClean)> = Vec::new();
        for (p, part) in self.partitions.iter() {
            let Some(leader) = cluster.offsets_partition(*p).and_then(|r| r.leader) else { continue };
            if !cluster.brokers.get(&leader).is_some_and(|b| b.alive) {
                continue;
            }
            let Some(ltc) = part.log.to_clean(now, &config) else { continue };
            if ltc.eligible(config.min_cleanable_dirty_ratio) {
                eligible.push((ltc.cleanable_ratio(), *p, leader, ltc));
            }
        }
        // The filthiest first; on a tie the lower partition.
        crate::sorted::sort_by(&mut eligible, |a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
        for (ratio, p, broker, ltc) in eligible {
            let Some(part) = self.partitions.get_mut(&p) else { continue };
            let r = part.log.clean(&ltc, now, &config);
            out.emit(crate::sim::cluster::cleaner::log_cleaned(crate::record::OFFSETS_TOPIC.to_string(), p, broker, ratio, r));
        }
    }
}

impl Consumers {
    /// After a leader change of an internal partition: each `__consumer_offsets` partition
    /// with records whose leader (or leader epoch) is not the one that loaded it is loaded
    /// by its new leader — every group hashing to it gets its committed offsets from the
    /// log (`CompactionEvent::CoordinatorLoaded`). A partition without a leader is
    /// unloaded until it gets one.
    pub(in crate::sim) fn load_moved_coordinators(&mut self, cluster: &Cluster, out: &mut Driver) {
        if self.offsets.seen_leader_changes == cluster.internal_leader_changes {
            return;
        }
        self.offsets.seen_leader_changes = cluster.internal_leader_changes;
        let changed: Vec<(u32, Option<BrokerId>, u32)> = self
            .offsets
            .partitions
            .iter()
            .filter_map(|(p, part)| {
                let reg = cluster.offsets_partition(*p)?;
                (reg.leader.map(|b| (b, reg.leader_epoch)) != part.loaded_by).then_some((*p, reg.leader, reg.leader_epoch))
            })
            .collect();
        let mut moved = Vec::new();
        for (p, leader, epoch) in changed {
            match leader {
                Some(b) => moved.push((p, b, epoch)),
                // Unloaded: nobody serves these groups until a new leader loads them.
                None => {
                    if let Some(part) = self.offsets.partitions.get_mut(&p) {
                        part.loaded_by = None;
                    }
                }
            }
        }
        for (p, broker, leader_epoch) in moved {
            let (records, mut loaded) = self.offsets.replay(p);
            if let Some(part) = self.offsets.partitions.get_mut(&p) {
                part.loaded_by = Some((broker, leader_epoch));
            }
            let mut groups = Vec::new();
            let mut offsets = 0u32;
            for g in self.groups.values_mut() {
                if cluster.offsets_partition_of(&g.id) != Some(p) {
                    continue;
                }
                let from_log = loaded.remove(g.id.as_str());
                if from_log.is_some() {
                    groups.push(g.id.to_string());
                }
                let from_log = from_log.unwrap_or_default();
                offsets += from_log.len() as u32;
                g.committed = from_log.iter().map(|(tp, v)| (tp.clone(), v.offset)).collect();
                g.commit_times = from_log.iter().map(|(tp, v)| (tp.clone(), SimTime(v.commit_timestamp))).collect();
                g.committed_epochs =
                    from_log.iter().filter_map(|(tp, v)| u32::try_from(v.leader_epoch).ok().map(|e| (tp.clone(), e))).collect();
            }
            out.emit(EventKind::Compaction(crate::event::CompactionEvent::CoordinatorLoaded {
                partition: p,
                broker,
                leader_epoch,
                records,
                groups,
                offsets,
            }));
        }
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)] // Tests may unwrap: a panic is a failed test.
mod tests {
    use super::*;

    #[test]
    fn keys_of_different_groups_and_partitions_never_collide_and_read_back() {
        let a = OffsetsKey::Offset { group: "a".into(), tp: TopicPartition::new("b,c", 0) };
        let b = OffsetsKey::Offset { group: "a,b".into(), tp: TopicPartition::new("c", 0) };
        assert_ne!(a.text(), b.text());
        assert_eq!(a.text(), r#"["a","b,c",0]"#);
        for k in [a, b, OffsetsKey::Group { group: "[\"x\"]".into() }] {
            assert_eq!(OffsetsKey::parse(&k.text()), Some(k));
        }
    }

    #[test]
    fn an_offset_commit_record_has_the_size_of_kafkas_serialized_key_and_value() {
        // OffsetCommitKey v1 for ("g", "t", 0): 2 + (2+1) + (2+1) + 4 = 12 bytes; value v3:
        // 24 bytes. DefaultRecord: attributes, offset and timestamp deltas (3), key (1+12),
        // value (1+24), no headers (1): 42, plus its length varint (1) = 43.
        let k = OffsetsKey::Offset { group: "g".into(), tp: TopicPartition::new("t", 0) };
        assert_eq!(k.kafka_bytes(), 12);
        assert_eq!(crate::partitioner::record_size_in_bytes(Some(&[0; 12]), Some(&[0; 24]), &[]), 43);
        assert_eq!(crate::partitioner::record_size_of_lengths(Some(12), Some(24)), 43);
    }

    /// The new coordinator's offsets come from the log, not from what the old one held in
    /// memory: a value the log never had is replaced by the newest record of its key, and an
    /// offset the log tombstoned is gone.
    #[test]
    fn a_new_leader_rebuilds_the_groups_offsets_from_the_log_alone() {
        use crate::scenario::{ProducerSpec, Scenario, SendPlan, TopicSpec};
        let mut b = Scenario::builder();
        b.brokers(3);
        let t = b.topic(TopicSpec::new("t").partitions(2).replication_factor(3));
        b.producer(ProducerSpec::new("p").send(SendPlan::values(&t, ["a", "b", "c", "d"])));
        b.group(crate::command::GroupSpec::new("g", [&t]).members([crate::command::MemberSpec::new("c1")]));
        let mut sim = b.build().unwrap();
        sim.run_to(SimTime(15_000));
        let logged: Vec<(TopicPartition, u64)> =
            sim.consumers.groups.get("g").unwrap().committed.iter().map(|(tp, o)| (tp.clone(), *o)).collect();
        assert_eq!(logged.iter().map(|(_, o)| o).sum::<u64>(), 4);
        // Memory the log does not back: a wrong offset (the member's next commit would fix
        // it anyway), and one the log never had (only a load from the log drops it).
        let g = sim.consumers.groups.get_mut("g").unwrap();
        g.committed.insert(TopicPartition::new("t", 0), 999);
        g.committed.insert(TopicPartition::new("elsewhere", 0), 7);
        let p = sim.cluster.offsets_partition_of("g").unwrap();
        let leader = sim.cluster.offsets_partition(p).unwrap().leader.unwrap();
        sim.apply(crate::command::BrokerCommand::CrashBroker { broker: leader }).unwrap();
        sim.run_to(SimTime(40_000));
        let reg = sim.cluster.offsets_partition(p).unwrap();
        assert_ne!(reg.leader, Some(leader));
        assert_eq!(sim.consumers.offsets.partitions.get(&p).unwrap().loaded_by, reg.leader.map(|b| (b, reg.leader_epoch)));
        let now: Vec<(TopicPartition, u64)> =
            sim.consumers.groups.get("g").unwrap().committed.iter().map(|(tp, o)| (tp.clone(), *o)).collect();
        assert_eq!(now, logged);
    }
}
