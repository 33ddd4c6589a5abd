//! What the page shows of a compacted log (issue 19), computed without Yew from the read
//! layer and tested natively: the segments as clean, dirty or active against the cleaner's
//! checkpoint, the dirty ratio the cleaner computes against `min.cleanable.dirty.ratio`,
//! and the latest value per key (the table a consumer reading the whole log ends up with).

use kafka_sandbox_core::config::CleanupPolicy;
use kafka_sandbox_core::read::{LogRead, Read};
use kafka_sandbox_core::record::{BrokerId, RecordId};
use kafka_sandbox_core::vecmap::VecMap;
use kafka_sandbox_core::SimTime;
use std::rc::Rc;

/// At most this many segments are drawn a log (the newest); the older are counted.
pub const SEGMENTS_SHOWN: usize = 24;
/// At most this many keys of the latest-value table are listed; the rest are counted.
pub const LATEST_SHOWN: usize = 50;
/// At most this many deleted keys are named.
pub const DELETED_SHOWN: usize = 12;

/// Each key's newest record of one log, as the page last read it: kept between frames so a
/// frame reads only the records appended since (a log with many keys would otherwise cost
/// a pass over every record a frame). `digest` covers every record it has read, content
/// included: a log that changed below `end` (a pass, retention, a truncation, another run
/// after going back or opening a link) is read again from its start.
#[derive(Clone, Debug, Default)]
pub struct LogKeys {
    end: u64,
    digest: u64,
    newest: std::collections::BTreeMap<String, KeyNewest>,
    tombstones: usize,
}

#[derive(Clone, Debug)]
struct KeyNewest {
    offset: u64,
    record: RecordId,
    value: String,
    tombstone: bool,
}

/// The shown logs' [`LogKeys`], by (topic, partition), kept by the page between frames.
pub type KeyCache = std::collections::BTreeMap<(String, u32), LogKeys>;

/// A record's place and content folded into `h`, a word at a time (a frame folds every
/// record of the log: bytes one by one would cost more than the rest of the view): its
/// offset, id, key and value lengths with their first bytes, tombstone and marker flags.
fn fold(h: u64, r: &kafka_sandbox_core::record::StoredRecord) -> u64 {
    fn head(s: &str) -> u64 {
        let b = s.as_bytes();
        let mut w = [0u8; 8];
        let n = b.len().min(8);
        w[..n].copy_from_slice(&b[..n]);
        u64::from_le_bytes(w) ^ (b.len() as u64).rotate_left(56)
    }
    let key = r.record.key.as_deref().unwrap_or("");
    let flags = u64::from(r.record.tombstone) | (u64::from(r.record.is_control()) << 1) | (u64::from(r.record.key.is_some()) << 2);
    [r.offset, r.record.id.0, head(key), head(&r.record.value), flags]
        .into_iter()
        .fold(h, |h, w| (h ^ w).wrapping_mul(0x100_0000_01b3).rotate_left(29))
}

const FNV_OFFSET: u64 = 0xcbf2_9ce4_8422_2325;

impl LogKeys {
    /// Brought up to date with `log`: the records appended since the last read, or the
    /// whole log again when anything it read has changed.
    pub fn update(&mut self, log: LogRead<'_>) {
        let end = log.log_end_offset();
        let unchanged = self.end > 0 && end >= self.end && log.records_in(0, self.end).iter().fold(FNV_OFFSET, fold) == self.digest;
        if !unchanged {
            *self = LogKeys { digest: FNV_OFFSET, ..LogKeys::default() };
        }
        let mut digest = self.digest;
        for r in log.records_in(self.end, end).iter() {
            digest = fold(digest, r);
            if r.record.is_control() {
                continue;
            }
            let Some(k) = r.record.key.as_deref() else { continue };
            let entry =
                KeyNewest { offset: r.offset, record: r.record.id, value: r.record.value.to_string(), tombstone: r.record.tombstone };
            let was = match self.newest.get_mut(k) {
                Some(slot) => Some(std::mem::replace(slot, entry).tombstone),
                None => {
                    self.newest.insert(k.to_string(), entry);
                    None
                }
            };
            if was == Some(true) {
                self.tombstones -= 1;
            }
            if r.record.tombstone {
                self.tombstones += 1;
            }
        }
        self.digest = digest;
        self.end = end;
    }
}

/// Where a segment stands with the cleaner (`LogCleanerManager`'s view of the log).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SegState {
    /// Wholly below the cleaner's checkpoint: each key's newest record as of the last pass.
    Clean,
    /// At or after the checkpoint (or no pass yet): every value written is still there.
    Dirty,
    /// The last segment, taking appends: never cleaned.
    Active,
}

impl SegState {
    /// The CSS class and `data-state` of a segment in this state.
    pub fn key(self) -> &'static str {
        match self {
            SegState::Clean => "clean",
            SegState::Dirty => "dirty",
            SegState::Active => "active",
        }
    }
}

/// One segment of the shown log.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SegmentCell {
    /// Its base offset (its file name in Kafka).
    pub base_offset: u64,
    /// The offset after its last (the next segment's base, or the log end).
    pub next_offset: u64,
    /// How many records it holds (fewer than the offsets it spans once cleaned).
    pub records: u64,
    /// Its size in bytes.
    pub bytes: u64,
    pub state: SegState,
    /// A dirty segment the cleaner may take now (below the first it may not touch: the
    /// active one, the one holding the LSO, a younger one than `min.compaction.lag.ms`).
    pub cleanable: bool,
}

/// One key's newest value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LatestRow {
    pub key: String,
    pub value: String,
    pub offset: u64,
    pub record: RecordId,
}

/// The compaction view of one log: the one the topic panel shows (the leader's).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LogCompaction {
    pub policy: CleanupPolicy,
    /// The broker whose copy this is (`None`: an offline partition's first replica).
    pub broker: Option<BrokerId>,
    /// The newest [`SEGMENTS_SHOWN`] segments, oldest first.
    pub segments: Vec<SegmentCell>,
    /// Older segments not drawn, and how many of them are clean.
    pub segments_hidden: usize,
    pub hidden_clean: usize,
    /// The cleaner's checkpoint (`None` before its first pass) and its passes.
    pub checkpoint: Option<u64>,
    pub passes: u32,
    /// Where the dirty part begins (the checkpoint, or the log start).
    pub first_dirty: u64,
    /// The dirty ratio the cleaner computes now, and `min.cleanable.dirty.ratio`, in
    /// thousandths (floored, as the `log_cleaned` event says it).
    pub dirty_permille: u32,
    pub min_dirty_permille: u32,
    /// Whether the cleaner takes this log at its next wake-up (`LogToClean::eligible`).
    pub eligible: bool,
    /// The newest value of every key, by key (at most [`LATEST_SHOWN`]), how many keys in
    /// all, and the keys a tombstone deleted (at most [`DELETED_SHOWN`]) with their count.
    pub latest: Vec<LatestRow>,
    pub latest_total: usize,
    pub deleted: Vec<(String, u64)>,
    pub deleted_total: usize,
    /// How many records the log holds (whether the page shows them all).
    pub records_held: u64,
}

/// Thousandths of a ratio, floored (as the `log_cleaned` event's `dirty_permille`).
fn permille(ratio: f64) -> u32 {
    (ratio.clamp(0.0, 1.0) * 1000.0).floor() as u32
}

impl LogCompaction {
    /// The view of `log` (a copy of a partition of a topic with `policy` and the cleaner's
    /// `config`) at `now`.
    pub fn of(
        log: LogRead<'_>,
        broker: Option<BrokerId>,
        policy: CleanupPolicy,
        config: &kafka_sandbox_core::read::CompactionConfig,
        now: SimTime,
        keys: &mut LogKeys,
    ) -> Self {
        keys.update(log);
        let to_clean = log.to_clean(now, config);
        let first_dirty = to_clean.map_or(log.log_start_offset(), |t| t.first_dirty_offset);
        let first_uncleanable = to_clean.map_or(first_dirty, |t| t.first_uncleanable_offset);
        let checkpoint = log.cleaner_checkpoint();
        let all = log.segments();
        let last = all.len().saturating_sub(1);
        let state = |i: usize, next: u64| {
            if i == last {
                SegState::Active
            } else if checkpoint.is_some_and(|c| next <= c) {
                SegState::Clean
            } else {
                SegState::Dirty
            }
        };
        let skip = all.len().saturating_sub(SEGMENTS_SHOWN);
        let hidden_clean = all.iter().enumerate().take(skip).filter(|(i, s)| state(*i, s.next_offset) == SegState::Clean).count();
        let segments = all
            .iter()
            .enumerate()
            .skip(skip)
            .map(|(i, s)| {
                let st = state(i, s.next_offset);
                SegmentCell {
                    base_offset: s.base_offset,
                    next_offset: s.next_offset,
                    records: s.records_held() as u64,
                    bytes: s.size_bytes,
                    state: st,
                    cleanable: st == SegState::Dirty && s.base_offset >= first_dirty && s.next_offset <= first_uncleanable,
                }
            })
            .collect();
        // The table: each key's newest record by key (as `LogRead::newest_per_key`, kept
        // between frames), its data records listed (the first LATEST_SHOWN), its
        // tombstones the deleted keys; only what is shown is copied.
        let deleted_total = keys.tombstones;
        let latest_total = keys.newest.len() - deleted_total;
        let latest: Vec<LatestRow> = keys
            .newest
            .iter()
            .filter(|(_, r)| !r.tombstone)
            .take(LATEST_SHOWN)
            .map(|(k, r)| LatestRow { key: k.clone(), value: r.value.clone(), offset: r.offset, record: r.record })
            .collect();
        let deleted: Vec<(String, u64)> =
            keys.newest.iter().filter(|(_, r)| r.tombstone).take(DELETED_SHOWN).map(|(k, r)| (k.clone(), r.offset)).collect();
        LogCompaction {
            policy,
            broker,
            segments,
            segments_hidden: skip,
            hidden_clean,
            checkpoint,
            passes: log.cleaner_passes(),
            first_dirty,
            dirty_permille: permille(to_clean.map_or(0.0, |t| t.cleanable_ratio())),
            min_dirty_permille: permille(config.min_cleanable_dirty_ratio),
            eligible: to_clean.is_some_and(|t| t.eligible(config.min_cleanable_dirty_ratio)),
            latest,
            latest_total,
            deleted,
            deleted_total,
            records_held: log.records().len() as u64,
        }
    }
}

/// The compaction view of every compacted topic's partitions, by (topic, partition):
/// each partition's shown log (the leader's, the first replica's while offline).
pub type Compactions = VecMap<(String, u32), Rc<LogCompaction>>;

/// The views of this moment (nothing for a run without a compacted topic), reading each log
/// through `cache` (kept by the page between frames; logs no longer shown leave it).
pub fn compactions(read: Read<'_>, cache: &mut KeyCache) -> Compactions {
    let mut out = Compactions::new();
    for t in read.topics().filter(|t| t.config().cleanup_policy.compact()) {
        let config = t.config().compaction();
        for p in t.partitions() {
            let Some(log) = p.log() else { continue };
            let broker = p.leader().or_else(|| p.replicas().first().copied());
            let at = (t.name().to_string(), p.index());
            let keys = cache.entry(at.clone()).or_default();
            out.insert(at, Rc::new(LogCompaction::of(log, broker, t.config().cleanup_policy, &config, read.now(), keys)));
        }
    }
    cache.retain(|at, _| at.0 == kafka_sandbox_core::record::OFFSETS_TOPIC || out.contains_key(at));
    out
}

/// At most this many records of a `__consumer_offsets` partition are drawn (the newest).
pub const OFFSETS_RECORDS_SHOWN: usize = 200;

/// One record of a log drawn by the compaction views (the `__consumer_offsets` view).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RawRecord {
    pub id: RecordId,
    pub offset: u64,
    pub key: String,
    pub value: String,
    pub tombstone: bool,
    pub delete_horizon: Option<SimTime>,
    pub appended_at: SimTime,
}

/// A `__consumer_offsets` partition as its view shows it: who leads it (the coordinator of
/// its groups), its groups, its log's newest records and the compaction view of its log.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OffsetsPartition {
    pub partition: u32,
    pub leader: Option<BrokerId>,
    pub leader_epoch: u32,
    pub replicas: Vec<BrokerId>,
    pub isr: Vec<BrokerId>,
    pub groups: Vec<String>,
    pub log_start: u64,
    pub log_end: u64,
    pub high_watermark: u64,
    /// The newest [`OFFSETS_RECORDS_SHOWN`] records, oldest first, and how many older are
    /// not drawn.
    pub records: Vec<RawRecord>,
    pub records_hidden: u64,
    /// `None` before the partition's first record.
    pub compaction: Option<LogCompaction>,
}

/// The compaction settings of `__consumer_offsets`: Kafka's topic defaults with
/// `offsets.topic.segment.bytes` (as the coordinators' cleaner uses them,
/// `sim/group/offsets_topic.rs`).
fn offsets_config(segment_bytes: u64) -> kafka_sandbox_core::read::CompactionConfig {
    kafka_sandbox_core::read::CompactionConfig { segment_bytes, ..Default::default() }
}

/// `__consumer_offsets` partition `partition` now, `None` past the last.
pub fn offsets_partition(read: Read<'_>, partition: u32, cache: &mut KeyCache) -> Option<OffsetsPartition> {
    let topic = read.offsets_topic();
    let p = topic.partition(partition)?;
    let log = p.log();
    let all = log.map_or(0, |l| l.records().len());
    let records: Vec<RawRecord> = log
        .map(|l| {
            l.newest_records(OFFSETS_RECORDS_SHOWN)
                .iter()
                .map(|r| RawRecord {
                    id: r.record.id,
                    offset: r.offset,
                    key: r.record.key.clone().unwrap_or_default().to_string(),
                    value: r.record.value.to_string(),
                    tombstone: r.record.tombstone,
                    delete_horizon: r.delete_horizon,
                    appended_at: r.appended_at,
                })
                .collect()
        })
        .unwrap_or_default();
    Some(OffsetsPartition {
        partition,
        leader: p.leader(),
        leader_epoch: p.leader_epoch(),
        replicas: p.replicas().to_vec(),
        isr: p.isr().to_vec(),
        groups: p.groups().into_iter().map(str::to_string).collect(),
        log_start: log.map_or(0, |l| l.log_start_offset()),
        log_end: log.map_or(0, |l| l.log_end_offset()),
        high_watermark: log.map_or(0, |l| l.high_watermark()),
        records_hidden: all.saturating_sub(records.len()) as u64,
        records,
        compaction: log.map(|l| {
            let at = (kafka_sandbox_core::record::OFFSETS_TOPIC.to_string(), partition);
            cache.retain(|k, _| k.0 != at.0 || k.1 == partition);
            let keys = cache.entry(at).or_default();
            // No broker named: the sandbox keeps one log for every in-sync copy of this topic.
            LogCompaction::of(l, None, CleanupPolicy::Compact, &offsets_config(topic.segment_bytes()), read.now(), keys)
        }),
    })
}

/// Where each group's offsets live: its `__consumer_offsets` partition and that partition's
/// leader (the coordinator), by group id.
pub fn offsets_homes(read: Read<'_>) -> VecMap<String, (u32, Option<BrokerId>)> {
    let topic = read.offsets_topic();
    read.groups()
        .filter_map(|g| {
            let p = topic.partition_of(g.id())?;
            Some((g.id().to_string(), (p, topic.partition(p).and_then(|x| x.leader()))))
        })
        .collect()
}

/// A run of offsets between two records of a shown log that no record holds any more
/// (the cleaner removed them: offsets are increasing, not contiguous).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Gap {
    /// The first missing offset…
    pub from: u64,
    /// …and the last (inclusive).
    pub to: u64,
}

impl Gap {
    /// How many offsets it spans.
    pub fn offsets(self) -> u64 {
        self.to - self.from + 1
    }
}

/// The gap between two consecutive shown records at `prev` and `next`, if any.
pub fn gap_between(prev: u64, next: u64) -> Option<Gap> {
    (next > prev.saturating_add(1)).then(|| Gap { from: prev + 1, to: next - 1 })
}

#[cfg(test)]
mod tests {
    use super::*;
    use kafka_sandbox_core::command::ProduceCommand;
    use kafka_sandbox_core::config::{Acks, ClusterConfig, ProducerConfig};
    use kafka_sandbox_core::scenario::{ProducerSpec, Scenario, TopicSpec};
    use kafka_sandbox_core::{Sim, TopicPartition};

    /// One broker, topic "t" compacted (150-byte segments: two one-record batches each),
    /// the cleaner waking every 10 s.
    fn sim() -> Sim {
        let scenario = Scenario {
            seed: 1,
            cluster: ClusterConfig { brokers: 1, network_latency_ms: 1, log_cleaner_backoff_ms: 10_000, ..ClusterConfig::default() },
            topics: vec![TopicSpec {
                name: "t".into(),
                partitions: 1,
                replication_factor: 1,
                segment_bytes: 150,
                cleanup_policy: CleanupPolicy::Compact,
                ..TopicSpec::default()
            }],
            producers: vec![ProducerSpec {
                name: "p".into(),
                config: ProducerConfig { acks: Acks::All, linger_ms: 0, ..ProducerConfig::default() },
                ..ProducerSpec::default()
            }],
            ..Scenario::default()
        };
        let Ok(sim) = scenario.build() else { panic!("builds") };
        sim
    }

    fn put(sim: &mut Sim, key: &str, value: Option<&str>) {
        let c = ProduceCommand::Produce {
            producer: "p".into(),
            topic: "t".into(),
            key: Some(key.into()),
            value: value.map(str::to_string),
            partition: None,
            headers: vec![],
        };
        assert!(sim.apply(c).is_ok());
        let until = sim.now().plus_ms(20);
        sim.run_to(until);
    }

    fn view(sim: &Sim) -> Rc<LogCompaction> {
        let Some(v) = compactions(sim.read(), &mut KeyCache::new()).get(&("t".to_string(), 0)).cloned() else { panic!("t-0 is compacted") };
        v
    }

    #[test]
    fn segments_are_clean_below_the_checkpoint_dirty_from_it_and_the_last_active() {
        let mut s = sim();
        for (k, v) in [("a", "a1"), ("b", "b1"), ("a", "a2"), ("b", "b2"), ("a", "a3")] {
            put(&mut s, k, Some(v));
        }
        let before = view(&s);
        assert_eq!(before.checkpoint, None);
        assert_eq!(before.passes, 0);
        let states: Vec<SegState> = before.segments.iter().map(|c| c.state).collect();
        assert_eq!(states.last(), Some(&SegState::Active));
        assert!(states[..states.len() - 1].iter().all(|s| *s == SegState::Dirty), "{states:?}");
        assert_eq!(before.dirty_permille, 1000);
        assert_eq!(before.min_dirty_permille, 500);
        assert!(before.eligible);
        // Every value is still there before the pass; the table has each key's newest.
        let table: Vec<(&str, &str)> = before.latest.iter().map(|r| (r.key.as_str(), r.value.as_str())).collect();
        assert_eq!(table, [("a", "a3"), ("b", "b2")]);
        s.run_to(SimTime(10_500));
        put(&mut s, "c", Some("c1"));
        put(&mut s, "c", Some("c2"));
        put(&mut s, "b", None);
        let after = view(&s);
        let Some(c) = after.checkpoint else { panic!("a pass ran") };
        assert_eq!(after.passes, 1);
        for seg in &after.segments {
            match seg.state {
                SegState::Clean => assert!(seg.next_offset <= c),
                SegState::Dirty => assert!(seg.next_offset > c),
                SegState::Active => {}
            }
        }
        assert!(after.segments.iter().any(|s| s.state == SegState::Clean));
        assert!(after.segments.iter().any(|s| s.state == SegState::Dirty));
        assert_eq!(after.segments.iter().filter(|s| s.state == SegState::Active).count(), 1);
        // A segment's record count is what it holds: the cleaned ones hold fewer than they span.
        assert!(after.segments.iter().any(|s| s.records < s.next_offset - s.base_offset));
        // b's newest is a tombstone: gone from the table, named as deleted.
        let table: Vec<(&str, &str)> = after.latest.iter().map(|r| (r.key.as_str(), r.value.as_str())).collect();
        assert_eq!(table, [("a", "a3"), ("c", "c2")]);
        assert_eq!(after.deleted.iter().map(|(k, _)| k.as_str()).collect::<Vec<_>>(), ["b"]);
        let log = s.partition(&TopicPartition::new("t", 0)).and_then(|p| p.log());
        let Some(log) = log else { panic!("t-0") };
        let tombstone = log.records().iter().find(|r| r.record.tombstone).map(|r| r.offset);
        assert_eq!(after.deleted[0].1, tombstone.unwrap_or(u64::MAX));
    }

    #[test]
    fn a_groups_offsets_partition_holds_its_commits_keyed_by_group_topic_and_partition() {
        let Ok(mut s) = kafka_sandbox_core::scenario::default_scenario().build() else { panic!("builds") };
        s.run_to(SimTime(20_000));
        let homes = offsets_homes(s.read());
        let Some(g) = s.read().groups().next().map(|g| g.id().to_string()) else { panic!("a group") };
        let Some(&(p, leader)) = homes.get(&g) else { panic!("{g} has a home") };
        let Some(v) = offsets_partition(s.read(), p, &mut KeyCache::new()) else { panic!("partition {p}") };
        assert_eq!(v.leader, leader);
        assert!(v.groups.contains(&g));
        let prefix = format!("[\"{g}\",");
        assert!(v.records.iter().any(|r| r.key.starts_with(&prefix) && r.value.contains("\"offset\"")), "{:?}", v.records.first());
        let Some(c) = &v.compaction else { panic!("the partition has records") };
        assert_eq!(c.policy, CleanupPolicy::Compact);
        // The table has one row per key: the group's metadata and each committed partition.
        assert!(c.latest.iter().any(|r| r.key == format!("\"{g}\"")), "{:?}", c.latest);
        let keys: Vec<&str> = c.latest.iter().map(|r| r.key.as_str()).collect();
        let mut unique = keys.clone();
        unique.dedup();
        assert_eq!(keys, unique);
        assert!(offsets_partition(s.read(), 50, &mut KeyCache::new()).is_none());
    }

    #[test]
    fn the_views_read_through_the_cache_equal_those_read_afresh_at_every_step() {
        let mut s = sim();
        let mut cache = KeyCache::new();
        let writes = [("a", Some("a1")), ("b", Some("b1")), ("a", Some("a2")), ("b", None), ("c", Some("c1")), ("a", Some("a3"))];
        for (i, (k, v)) in writes.iter().cycle().take(18).enumerate() {
            put(&mut s, k, *v);
            if i % 5 == 4 {
                // A cleaner pass between some writes: the log changes below what was read.
                let until = s.now().plus_ms(10_000);
                s.run_to(until);
            }
            let kept = compactions(s.read(), &mut cache);
            let fresh = compactions(s.read(), &mut KeyCache::new());
            assert_eq!(kept, fresh, "after write {i}");
        }
        assert!(view(&s).passes > 0, "passes ran between the writes");
        // Another run in the same cache (going back, a link): read afresh.
        let other = sim();
        let kept = compactions(other.read(), &mut cache);
        assert_eq!(kept, compactions(other.read(), &mut KeyCache::new()));
    }

    #[test]
    fn a_run_without_a_compacted_topic_has_no_compaction_views() {
        let Ok(s) = kafka_sandbox_core::scenario::default_scenario().build() else { panic!("builds") };
        assert!(compactions(s.read(), &mut KeyCache::new()).is_empty());
    }

    #[test]
    fn gaps_are_the_offsets_between_two_records_that_no_record_holds() {
        assert_eq!(gap_between(3, 4), None);
        assert_eq!(gap_between(3, 7), Some(Gap { from: 4, to: 6 }));
        assert_eq!(gap_between(3, 7).map(Gap::offsets), Some(3));
        assert_eq!(gap_between(5, 5), None);
    }
}
