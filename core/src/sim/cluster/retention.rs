//! Retention: every `log.retention.check.interval.ms` each running broker deletes the
//! segments of its replicas' logs that `retention.ms` and `retention.bytes` allow
//! (`LogManager.cleanupLogs` → `UnifiedLog.deleteOldSegments`).
//!
//! [`check`] changes only the logs and asks the [`Driver`] for its events and its next
//! timer (`driver.rs`), so it is tested alone, with no `Sim`.

use super::driver::Driver;
use super::*;
use crate::event::ReplicationEvent;

/// `log.initial.task.delay.ms` (30000): the first retention check after a broker starts.
pub(in crate::sim) const LOG_INITIAL_TASK_DELAY_MS: u64 = 30_000;

impl Cluster {
    /// One retention check on every broker that is running, then the next one.
    pub(in crate::sim) fn retention_check(&mut self, out: &mut Driver) {
        let brokers = &self.brokers;
        let running = |b: BrokerId| brokers.get(&b).is_some_and(|x| x.alive);
        check(&mut self.topics, running, out.now, self.config.log_retention_check_interval_ms, out);
    }
}

/// One retention check at `now` of every replica on a `running` broker, and the next
/// check `every_ms` later (at least 1 ms).
///
/// Each replica decides for its own log, with its own HW, as each Kafka broker runs its
/// own `LogManager`. Brokers here check at the same moments; a crashed broker skips the
/// checks until it restarts. The log start moves at once; Kafka deletes the files
/// `file.delete.delay.ms` (60000) later, which nothing can observe.
pub(in crate::sim) fn check(
    topics: &mut VecMap<String, Topic>,
    running: impl Fn(BrokerId) -> bool,
    now: SimTime,
    every_ms: u64,
    out: &mut Driver,
) {
    // Compacted topics are the log cleaner's (`LogManager.cleanupLogs` takes only the
    // others while a cleaner runs: `pauseCleaningForNonCompactedPartitions`).
    for topic in topics.values_mut().filter(|t| !t.config.cleanup_policy.compact()) {
        let (retention_ms, retention_bytes) = (topic.config.retention_ms, topic.config.retention_bytes);
        for (p, part) in topic.partitions.iter_mut().enumerate() {
            for (broker, log) in part.logs.iter_mut() {
                if !running(*broker) {
                    continue;
                }
                for d in log.delete_old_segments(now, retention_ms, retention_bytes) {
                    out.emit(EventKind::Replication(ReplicationEvent::SegmentsDeleted {
                        topic: topic.name.clone(),
                        partition: p as u32,
                        broker: *broker,
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
    out.at(now.plus_ms(every_ms.max(1)), ReplicationPending::RetentionCheck);
}

#[cfg(test)]
mod tests {
    use super::super::driver::Effect;
    use super::*;
    use crate::log::SegmentConfig;
    use crate::record::TimestampType;

    fn record(id: u64, at: u64) -> Record {
        Record::sample(id, at)
    }

    /// Topic `t`, one partition on brokers 0 and 1, `retention.ms` 1000, one record per
    /// segment: m0 written at 0 ms, m1 at 5000 ms; both committed on both replicas.
    fn topic() -> VecMap<String, Topic> {
        let config = TopicConfig { retention_ms: 1000, ..TopicConfig::default() };
        let mut topic = Topic::new("t", crate::uuid::Uuid::derived(0, "t"), config, vec![vec![0, 1]]);
        let segments = SegmentConfig { segment_bytes: 1, segment_ms: u64::MAX };
        for log in topic.partitions[0].logs.values_mut() {
            log.set_segment_config(segments);
            for (id, at) in [(0, 0), (1, 5000)] {
                log.append(record(id, at), SimTime(at), TimestampType::CreateTime, 0);
            }
            log.advance_high_watermark(2);
        }
        [("t".to_string(), topic)].into_iter().collect()
    }

    #[test]
    fn a_check_deletes_expired_segments_on_running_brokers_only_and_sets_the_next_check() {
        let mut topics = topic();
        let mut out = Driver::at_time(SimTime::ZERO);
        check(&mut topics, |b| b == 0, SimTime(6000), 300_000, &mut out);
        let [Effect::Emit(EventKind::Replication(ReplicationEvent::SegmentsDeleted {
            broker,
            base_offsets,
            records,
            log_start_offset,
            reason,
            ..
        })), Effect::At { at, pending }] = out.effects()
        else {
            panic!("one deletion on broker 0, then the next check: {:?}", out.effects());
        };
        assert_eq!((*broker, base_offsets.as_slice(), records.as_slice(), *log_start_offset), (0, &[0][..], &[RecordId(0)][..], 1));
        assert_eq!(*reason, crate::event::SegmentDeletionReason::RetentionMs);
        assert_eq!((*at, pending), (SimTime(306_000), &Pending::Replication(ReplicationPending::RetentionCheck)));
        let part = &topics.get("t").unwrap().partitions[0];
        assert_eq!(part.logs.get(&0).unwrap().log_start_offset(), 1, "broker 0 deleted m0's segment");
        assert_eq!(part.logs.get(&1).unwrap().log_start_offset(), 0, "broker 1 is down: its replica keeps m0");
    }

    #[test]
    fn nothing_expired_means_only_the_next_check() {
        let mut topics = topic();
        let mut out = Driver::at_time(SimTime::ZERO);
        check(&mut topics, |_| true, SimTime(900), 0, &mut out);
        assert_eq!(out.effects(), &[Effect::At { at: SimTime(901), pending: ReplicationPending::RetentionCheck.into() }]);
    }
}
