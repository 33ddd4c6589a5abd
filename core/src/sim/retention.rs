//! Retention: every `log.retention.check.interval.ms` each running broker deletes the
//! segments of its replicas' logs that `retention.ms` and `retention.bytes` allow
//! (`LogManager.cleanupLogs` → `UnifiedLog.deleteOldSegments`).

use super::*;

/// `log.initial.task.delay.ms` (30000): the first retention check after a broker starts.
pub(super) const LOG_INITIAL_TASK_DELAY_MS: u64 = 30_000;

impl Sim {
    /// One retention check on every broker that is running, then the next one.
    ///
    /// Each replica decides for its own log, with its own HW, as each Kafka broker runs
    /// its own `LogManager`. Brokers here check at the same moments; a crashed broker
    /// skips the checks until it restarts. The log start moves at once; Kafka deletes
    /// the files `file.delete.delay.ms` (60000) later, which nothing can observe.
    pub(super) fn retention_check(&mut self) {
        let now = self.now;
        let mut events = Vec::new();
        let brokers = &self.brokers;
        for topic in self.topics.values_mut() {
            let (retention_ms, retention_bytes) = (topic.config.retention_ms, topic.config.retention_bytes);
            for (p, part) in topic.partitions.iter_mut().enumerate() {
                for (broker, log) in part.logs.iter_mut() {
                    if !brokers.get(broker).is_some_and(|b| b.alive) {
                        continue;
                    }
                    for d in log.delete_old_segments(now, retention_ms, retention_bytes) {
                        events.push(EventKind::SegmentsDeleted {
                            topic: topic.name.clone(),
                            partition: p as u32,
                            broker: *broker,
                            reason: d.reason,
                            base_offsets: d.segments.iter().map(|s| s.base_offset).collect(),
                            bytes: d.segments.iter().map(|s| s.size_bytes).sum(),
                            records: d.records.iter().map(|r| r.record.id).collect(),
                            log_start_offset: d.log_start_offset,
                        });
                    }
                }
            }
        }
        for e in events {
            self.record(e);
        }
        let every = self.cluster.log_retention_check_interval_ms.max(1);
        let at = now.plus_ms(every);
        self.schedule(at, ReplicationPending::RetentionCheck);
    }
}
