//! The log cleaner (issue 19, `cleanup.policy=compact`): each broker's cleaner thread
//! (`LogCleaner.CleanerThread`, `log.cleaner.threads` = 1) takes the filthiest of its
//! compacted replicas whose dirty ratio is above `min.cleanable.dirty.ratio` (or whose
//! `max.compaction.lag.ms` is overdue), cleans it (`log/clean.rs`), and looks again; with
//! nothing to clean it sleeps `log.cleaner.backoff.ms`. After each look it runs retention
//! on its compacted logs (`LogCleanerManager.deletableLogs` → `deleteOldSegments`:
//! segments below the log start, and for `compact,delete` `retention.ms` and
//! `retention.bytes` too): the periodic retention check leaves compacted topics to it.
//!
//! The sandbox cleans in no time, so a broker's cleaner works through every eligible log
//! at one moment and then sleeps; the brokers' cleaners wake together, every
//! `log.cleaner.backoff.ms` from the start of the run (Kafka's threads start with their
//! brokers and drift apart). A crashed broker's cleaner does nothing until it restarts.
//! [`clean`] changes only the logs and asks the [`Driver`] for its events (tested alone).

use super::driver::Driver;
use super::*;
use crate::event::{CompactionEvent, ReplicationEvent};
use crate::log::LogToClean;

/// Something scheduled by the log cleaner: one of `Pending`'s features.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum CompactionPending {
    /// Every running broker's cleaner wakes: it cleans what it may, then sleeps
    /// `log.cleaner.backoff.ms`.
    CleanerWake,
}

/// The dispatcher's one line for this feature.
impl Sim {
    pub(in crate::sim) fn handle_compaction(&mut self, pending: CompactionPending) {
        match pending {
            CompactionPending::CleanerWake => {
                self.cluster.cleaner_wake(&mut self.out);
                self.consumers.offsets.clean(&self.cluster, &mut self.out);
            }
        }
    }
}

impl Cluster {
    /// The cleaners start sleeping-and-waking once a compacted topic exists —
    /// `__consumer_offsets` is one, so from the start of any run with groups possible: the
    /// first wake at the next multiple of `log.cleaner.backoff.ms` from the run's start
    /// (they run from the brokers' start; with nothing dirty their rounds change nothing).
    pub(in crate::sim) fn ensure_cleaner(&mut self, out: &mut Driver) {
        let offsets_topic = !self.internal(Internal::ConsumerOffsets).partitions.is_empty();
        if self.cleaner_scheduled || !(offsets_topic || self.topics.values().any(|t| t.config.cleanup_policy.compact())) {
            return;
        }
        self.cleaner_scheduled = true;
        let every = self.config.log_cleaner_backoff_ms.max(1);
        let next = out.now.ms().div_ceil(every).saturating_mul(every);
        out.at(SimTime(next), CompactionPending::CleanerWake);
    }

    /// One round of every running broker's cleaner, then the next round.
    pub(in crate::sim) fn cleaner_wake(&mut self, out: &mut Driver) {
        let brokers = &self.brokers;
        let running = |b: BrokerId| brokers.get(&b).is_some_and(|x| x.alive);
        clean(&mut self.topics, running, out);
        let every = self.config.log_cleaner_backoff_ms.max(1);
        out.at(out.now.plus_ms(every), CompactionPending::CleanerWake);
    }
}

/// The `log_cleaned` event of one pass over `topic`-`partition` on `broker`, taken at dirty
/// ratio `ratio`.
pub(in crate::sim) fn log_cleaned(topic: String, partition: u32, broker: BrokerId, ratio: f64, r: crate::log::CleanResult) -> EventKind {
    EventKind::Compaction(CompactionEvent::LogCleaned {
        topic,
        partition,
        broker,
        first_dirty_offset: r.first_dirty_offset,
        end_offset: r.end_offset,
        dirty_permille: (ratio * 1000.0).floor() as u32,
        tombstones_removed: r.tombstones_removed.len() as u32,
        markers_removed: r.markers_removed.len() as u32,
        removed: r.removed,
        stamped: r.stamped,
        delete_horizon_ms: r.delete_horizon.map(SimTime::ms),
        segments_before: r.segments_before as u32,
        segments_after: r.segments_after as u32,
        bytes_before: r.bytes_before,
        bytes_after: r.bytes_after,
    })
}

/// One round at `out.now` of the cleaner of every `running` broker, broker by broker: the
/// filthiest eligible log first (`grabFilthiestCompactedLog`: the highest dirty ratio; on
/// a tie the first topic by name, then partition), until none is eligible; then the
/// retention of its compacted logs.
pub(in crate::sim) fn clean(topics: &mut VecMap<String, Topic>, running: impl Fn(BrokerId) -> bool, out: &mut Driver) {
    let now = out.now;
    let mut brokers: Vec<BrokerId> = topics
        .values()
        .filter(|t| t.config.cleanup_policy.compact())
        .flat_map(|t| t.partitions.iter().flat_map(|p| p.logs.keys().copied()))
        .filter(|b| running(*b))
        .collect();
    crate::sorted::sort(&mut brokers);
    brokers.dedup();
    for broker in brokers {
        // Each pass leaves its log clean, so a broker makes at most one pass per log.
        loop {
            let mut best: Option<(f64, String, usize, LogToClean)> = None;
            for t in topics.values().filter(|t| t.config.cleanup_policy.compact()) {
                let cfg = t.config.compaction();
                for (p, part) in t.partitions.iter().enumerate() {
                    let Some(log) = part.logs.get(&broker) else { continue };
                    let Some(ltc) = log.to_clean(now, &cfg) else { continue };
                    if !ltc.eligible(cfg.min_cleanable_dirty_ratio) {
                        continue;
                    }
                    let ratio = ltc.cleanable_ratio();
                    if best.as_ref().is_none_or(|b| ratio > b.0) {
                        best = Some((ratio, t.name.to_string(), p, ltc));
                    }
                }
            }
            let Some((ratio, topic, p, ltc)) = best else { break };
            let Some(t) = topics.get_mut(&topic) else { break };
            let cfg = t.config.compaction();
            let Some(log) = t.partitions.get_mut(p).and_then(|part| part.logs.get_mut(&broker)) else { break };
            let r = log.clean(&ltc, now, &cfg);
            out.emit(log_cleaned(topic, p as u32, broker, ratio, r));
        }
        // `deletableLogs` → `UnifiedLog.deleteOldSegments` on the compacted logs: below the
        // log start always; by time and size only under `compact,delete`.
        for t in topics.values_mut().filter(|t| t.config.cleanup_policy.compact()) {
            let (retention_ms, retention_bytes) =
                if t.config.cleanup_policy.delete() { (t.config.retention_ms, t.config.retention_bytes) } else { (-1, -1) };
            for (p, part) in t.partitions.iter_mut().enumerate() {
                let Some(log) = part.logs.get_mut(&broker) else { continue };
                for d in log.delete_old_segments(now, retention_ms, retention_bytes) {
                    out.emit(EventKind::Replication(ReplicationEvent::SegmentsDeleted {
                        topic: t.name.clone(),
                        partition: p as u32,
                        broker,
                        reason: d.reason,
                        base_offsets: d.segments.iter().map(|s| s.base_offset).collect(),
                        bytes: d.segments.iter().map(|s| s.size_bytes).sum(),
                        records: d.records().map(|r| r.record.id).collect(),
                        log_start_offset: d.log_start_offset,
                    }));
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::driver::Effect;
    use super::*;
    use crate::cluster::CleanupPolicy;
    use crate::log::SegmentConfig;
    use crate::record::TimestampType;

    /// Topic `t` (compact), one partition on brokers 0 and 1, two single-record batches a
    /// segment; key `k` written three times and `j` once, all committed on both replicas.
    fn topic(policy: CleanupPolicy) -> VecMap<String, Topic> {
        let config = TopicConfig { cleanup_policy: policy, retention_ms: 1000, segment_bytes: 142, ..TopicConfig::default() };
        let mut topic = Topic::new("t", crate::uuid::Uuid::derived(0, "t"), config, vec![vec![0, 1]]);
        for log in topic.partitions[0].logs.values_mut() {
            log.set_segment_config(SegmentConfig { segment_bytes: 142, segment_ms: u64::MAX });
            for (id, key) in [(0, "k"), (1, "k"), (2, "k"), (3, "j"), (4, "j")] {
                let r = Record { key: Some(key.into()), ..Record::sample(id, id) };
                log.append(r, SimTime(id), TimestampType::CreateTime, 0);
            }
            log.advance_high_watermark(5);
        }
        [("t".to_string(), topic)].into_iter().collect()
    }

    #[test]
    fn each_running_broker_cleans_its_own_replica_and_a_crashed_one_does_not() {
        let mut topics = topic(CleanupPolicy::Compact);
        let mut out = Driver::at_time(SimTime(100));
        clean(&mut topics, |b| b == 0, &mut out);
        let cleaned: Vec<(BrokerId, Vec<RecordId>)> = out
            .effects()
            .iter()
            .filter_map(|e| match e {
                Effect::Emit(EventKind::Compaction(CompactionEvent::LogCleaned { broker, removed, .. })) => {
                    Some((*broker, removed.clone()))
                }
                _ => None,
            })
            .collect();
        assert_eq!(cleaned, vec![(0, vec![RecordId(0), RecordId(1)])], "k's two older values, on broker 0 only");
        let part = &topics.get("t").unwrap().partitions[0];
        assert_eq!(part.logs.get(&0).unwrap().records().len(), 3);
        assert_eq!(part.logs.get(&1).unwrap().records().len(), 5, "broker 1 is down: its replica is untouched");
        // Compact only: retention.ms does not delete, however old the segments.
        assert!(!out.effects().iter().any(|e| matches!(e, Effect::Emit(EventKind::Replication(_)))));
        // Once clean, the next round finds nothing.
        let mut out = Driver::at_time(SimTime(200));
        clean(&mut topics, |b| b == 0, &mut out);
        assert!(out.effects().is_empty());
    }

    #[test]
    fn under_compact_delete_the_cleaner_also_deletes_by_retention_ms() {
        let mut topics = topic(CleanupPolicy::CompactDelete);
        let mut out = Driver::at_time(SimTime(10_000));
        clean(&mut topics, |_| true, &mut out);
        let deleted = out
            .effects()
            .iter()
            .filter(|e| matches!(e, Effect::Emit(EventKind::Replication(ReplicationEvent::SegmentsDeleted { .. }))))
            .count();
        assert_eq!(deleted, 2, "one deletion per replica");
        let log = topics.get("t").unwrap().partitions[0].logs.get(&0).unwrap().clone();
        assert_eq!(log.log_start_offset(), 5, "every segment was older than retention.ms");
    }

    #[test]
    fn the_cleaner_wakes_every_backoff_once_a_compacted_topic_exists() {
        let mut cluster = Cluster::new(crate::config::ClusterConfig { log_cleaner_backoff_ms: 15_000, ..Default::default() });
        let mut out = Driver::at_time(SimTime(7_000));
        cluster.ensure_cleaner(&mut out);
        assert!(out.effects().is_empty(), "nothing compacted: no cleaner rounds");
        cluster.topics = topic(CleanupPolicy::Compact);
        cluster.ensure_cleaner(&mut out);
        cluster.ensure_cleaner(&mut out);
        assert_eq!(out.effects(), &[Effect::At { at: SimTime(15_000), pending: CompactionPending::CleanerWake.into() }]);
    }
}
