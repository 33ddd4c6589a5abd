//! The bounds on everything a person can give the sandbox (scenarios, commands, settings):
//! one place for each number, read by the scenario checks, the command checks and the
//! page's editor. Kafka's own limits and defaults are in `config`.
//!
//! The numeric settings of the scenario format are rows of [`TABLE`] (path, range, unit,
//! note): the scenario checks refuse a value outside its row with the row's words (a few,
//! whose refusal names its topic or group, with a sentence of their own from the row's
//! bounds), the editor takes its bounds from the row of the field's path, and
//! `docs/scenario-format.md` prints the table (a test keeps it equal to [`markdown_table`]).

// ----- a scenario ------------------------------------------------------------------

/// Largest scenario text accepted, in bytes.
pub const MAX_SCENARIO_BYTES: usize = 1 << 20;
/// Most partitions a topic may have in the sandbox.
pub const MAX_PARTITIONS: u32 = 256;
/// Most topics a scenario may have.
pub const MAX_TOPICS: usize = 16;
/// Most brokers a cluster may have.
pub const MAX_BROKERS: u32 = 12;
/// Most producers a scenario may have.
pub const MAX_PRODUCERS: usize = 16;
/// Most timeline entries (commands plus planned sends).
pub const MAX_TIMELINE: usize = 100_000;
/// Latest moment a scenario may schedule anything (one simulated week).
pub const MAX_TIME_MS: u64 = 7 * 24 * 3600 * 1000;
/// Most a timeline's `set_processing` may ask per record (the simulation caps a command
/// from the page at the same value).
pub const MAX_PROCESSING_MS: u64 = 3_600_000;
/// Most a timeline's `slow_broker` may slow a broker's replica fetches (capped likewise).
pub const MAX_SLOW_MS: u64 = 3_600_000;
/// Smallest `segment.bytes` the sandbox accepts: Kafka's minimum before 4.0
/// (`LegacyRecord.RECORD_OVERHEAD_V0`). Kafka 4.0 requires 1048576 (KIP-1030) and keeps
/// smaller segments for its own tests (`internal.segment.bytes`).
pub const MIN_SEGMENT_BYTES: u32 = 14;

// ----- names, values, groups -----------------------------------------------------------

/// Longest name (topic, group, client id, producer) the sandbox accepts.
pub const MAX_NAME_CHARS: usize = 64;
/// Longest key or value the sandbox accepts.
pub const MAX_VALUE_CHARS: usize = 1024;
/// Most headers a record may carry.
pub const MAX_HEADERS: usize = 16;
/// Largest `max_poll_records` a member may have.
pub const MAX_POLL_RECORDS: u32 = 10_000;
/// Largest `fetch_max_wait_ms` a member may have (a minute).
pub const MAX_FETCH_MAX_WAIT_MS: u64 = 60_000;
/// Most members a group may have.
pub const MAX_MEMBERS_PER_GROUP: usize = 64;
/// Most groups a cluster may have.
pub const MAX_GROUPS: usize = 32;

// ----- Connect, Streams, push ------------------------------------------------------------

/// Most connectors a scenario may have.
pub const MAX_CONNECTORS: usize = 8;
/// Most rows a table may start with, and most changes it may plan.
pub const MAX_TABLE_ROWS: usize = 10_000;
/// Most Streams applications a scenario may have.
pub const MAX_STREAMS: usize = 8;
/// Most instances (members) an application may start with.
pub const MAX_INSTANCES: u32 = 8;
/// Largest `push_buffer_max_records` accepted.
pub const MAX_PUSH_BUFFER_RECORDS: u32 = 1_000_000;

// ----- the table of numeric settings -------------------------------------------------------

/// What a setting's number counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Unit {
    /// A number of things: brokers, partitions, records, instances.
    Count,
    /// Milliseconds of simulated time.
    Milliseconds,
    /// Seconds of simulated time (settings Kafka gives in seconds).
    Seconds,
    /// Bytes, as Kafka counts a batch or a segment.
    Bytes,
    /// Minutes of simulated time (`offsets.retention.minutes`).
    Minutes,
}

impl Unit {
    /// Its word in the docs table: `count`, `ms`, `s` or `bytes`.
    pub fn name(self) -> &'static str {
        match self {
            Unit::Count => "count",
            Unit::Milliseconds => "ms",
            Unit::Seconds => "s",
            Unit::Bytes => "bytes",
            Unit::Minutes => "minutes",
        }
    }
}

/// One numeric setting's bounds: `min` to `max`, both included.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Range {
    /// Its JSON path in a scenario, with `[]` for any index: `producers[].config.linger_ms`.
    pub path: &'static str,
    /// The smallest value allowed.
    pub min: u64,
    /// The largest value allowed; `u64::MAX` means no upper bound (`N or more`).
    pub max: u64,
    /// What the number counts.
    pub unit: Unit,
    /// Said after the range in a refusal, e.g. ` (one week)`; empty or starting with a space.
    pub note: &'static str,
}

impl Range {
    /// Whether `value` is allowed.
    pub fn allows(&self, value: u64) -> bool {
        (self.min..=self.max).contains(&value)
    }

    /// A refusal's words for `value`: `is 0; allowed: 1 to 12`.
    pub fn refusal(&self, value: u64) -> String {
        format!("is {value}; allowed: {}", self.allowed())
    }

    /// What is allowed, in words: `1 to 12 (note)`, or `1 or more` without an upper bound.
    pub fn allowed(&self) -> String {
        format!("{}{}", self.bounds(), self.note)
    }

    /// The bounds alone: `1 to 12`, or `1 or more`.
    fn bounds(&self) -> String {
        if self.max == u64::MAX {
            format!("{} or more", self.min)
        } else {
            format!("{} to {}", self.min, self.max)
        }
    }
}

const fn ms(path: &'static str, min: u64, max: u64, note: &'static str) -> Range {
    Range { path, min, max, unit: Unit::Milliseconds, note }
}

const ONE_WEEK: &str = " (one week)";

/// How many brokers a cluster has: 1 to [`MAX_BROKERS`].
pub const CLUSTER_BROKERS: Range = Range { path: "cluster.brokers", min: 1, max: MAX_BROKERS as u64, unit: Unit::Count, note: "" };
/// `replica.lag.time.max.ms` (default 30000): 1 ms to [`MAX_TIME_MS`], the longest time a
/// scenario can span.
pub const REPLICA_LAG_TIME_MAX_MS: Range = ms("cluster.replica_lag_time_max_ms", 1, MAX_TIME_MS, ONE_WEEK);
/// `broker.session.timeout.ms` (default 9000), after which the controller fences a silent
/// broker: 1 ms to one hour.
pub const BROKER_SESSION_TIMEOUT_MS: Range = ms("cluster.broker_session_timeout_ms", 1, 3_600_000, " (one hour)");
/// `replica.fetch.wait.max.ms` (default 500), how long a leader holds an empty follower
/// fetch: 1 ms to one minute.
pub const REPLICA_FETCH_WAIT_MAX_MS: Range = ms("cluster.replica_fetch_wait_max_ms", 1, 60_000, "");
/// The sandbox's one-way network delay between any two nodes (default 20): 0 to one
/// minute.
pub const NETWORK_LATENCY_MS: Range = ms("cluster.network_latency_ms", 0, 60_000, "");
/// `group.initial.rebalance.delay.ms` (default 3000), the wait before a group's first
/// generation: 0 to five minutes.
pub const GROUP_INITIAL_REBALANCE_DELAY_MS: Range = ms("cluster.group_initial_rebalance_delay_ms", 0, 300_000, "");
/// `group.consumer.heartbeat.interval.ms` (KIP-848, default 5000): 100 ms to one minute,
/// wider than Kafka's own bounds (the row's note gives them).
pub const GROUP_CONSUMER_HEARTBEAT_INTERVAL_MS: Range = ms(
    "cluster.group_consumer_heartbeat_interval_ms",
    100,
    60_000,
    " (Kafka's own bounds are 5000-15000 unless group.consumer.min/max.heartbeat.interval.ms change)",
);
/// `group.consumer.session.timeout.ms` (KIP-848, default 45000): 1 s to 30 minutes, wider
/// than Kafka's own bounds (the row's note gives them); the scenario checks also require
/// it above the heartbeat interval.
pub const GROUP_CONSUMER_SESSION_TIMEOUT_MS: Range =
    ms("cluster.group_consumer_session_timeout_ms", 1000, 1_800_000, " (Kafka's own bounds are 45000-60000)");
/// `log.retention.check.interval.ms` (default 300000): 1 ms to [`MAX_TIME_MS`].
pub const LOG_RETENTION_CHECK_INTERVAL_MS: Range =
    ms("cluster.log_retention_check_interval_ms", 1, MAX_TIME_MS, " (log.retention.check.interval.ms is at least 1)");
/// `offsets.topic.replication.factor` (default 3): 1 to [`MAX_BROKERS`]; the scenario
/// checks also require as many brokers when groups run (`Problem::OffsetsTopicReplication`).
pub const OFFSETS_TOPIC_REPLICATION_FACTOR: Range =
    Range { path: "cluster.offsets_topic_replication_factor", min: 1, max: MAX_BROKERS as u64, unit: Unit::Count, note: "" };
/// `leader.imbalance.check.interval.seconds` (default 300): 1 s to one week.
pub const LEADER_IMBALANCE_CHECK_INTERVAL_SECONDS: Range =
    Range { path: "cluster.leader_imbalance_check_interval_seconds", min: 1, max: 604_800, unit: Unit::Seconds, note: " (one week)" };
/// `group.min.session.timeout.ms` (default 6000): 1 ms to [`MAX_TIME_MS`]. A classic
/// member whose `session.timeout.ms` is below it is refused at its JoinGroup.
pub const GROUP_MIN_SESSION_TIMEOUT_MS: Range = ms("cluster.group_min_session_timeout_ms", 1, MAX_TIME_MS, ONE_WEEK);
/// `group.max.session.timeout.ms` (default 1800000): 1 ms to [`MAX_TIME_MS`]. A classic
/// member whose `session.timeout.ms` is above it is refused at its JoinGroup.
pub const GROUP_MAX_SESSION_TIMEOUT_MS: Range = ms("cluster.group_max_session_timeout_ms", 1, MAX_TIME_MS, ONE_WEEK);
/// `offsets.retention.minutes` (default 10080, seven days, KIP-186/KIP-211): Kafka's
/// bounds, 1 to `Integer.MAX_VALUE` (a run spans at most a week, so 10080 or more never
/// expires an offset within one).
pub const OFFSETS_RETENTION_MINUTES: Range =
    Range { path: "cluster.offsets_retention_minutes", min: 1, max: i32::MAX as u64, unit: Unit::Minutes, note: "" };
/// `offsets.retention.check.interval.ms` (default 600000): 1 ms to [`MAX_TIME_MS`].
pub const OFFSETS_RETENTION_CHECK_INTERVAL_MS: Range = ms("cluster.offsets_retention_check_interval_ms", 1, MAX_TIME_MS, ONE_WEEK);
/// A scenario's `duration_ms`, when the run stops: 0 to [`MAX_TIME_MS`].
pub const DURATION_MS: Range = ms("duration_ms", 0, MAX_TIME_MS, ONE_WEEK);
/// A topic's partition count (its refusal names the topic, `Problem::Partitions`).
pub const TOPIC_PARTITIONS: Range = Range { path: "topics[].partitions", min: 1, max: MAX_PARTITIONS as u64, unit: Unit::Count, note: "" };
/// `offsets.topic.segment.bytes`: as a topic's `segment.bytes` (Kafka: at least 1).
pub const OFFSETS_TOPIC_SEGMENT_BYTES: Range =
    Range { path: "cluster.offsets_topic_segment_bytes", min: MIN_SEGMENT_BYTES as u64, max: i32::MAX as u64, unit: Unit::Bytes, note: "" };
/// `segment.bytes`: from [`MIN_SEGMENT_BYTES`] to Kafka's `Integer.MAX_VALUE` (`Problem::SegmentBytes`).
pub const TOPIC_SEGMENT_BYTES: Range =
    Range { path: "topics[].segment_bytes", min: MIN_SEGMENT_BYTES as u64, max: i32::MAX as u64, unit: Unit::Bytes, note: "" };
/// `segment.ms`: Kafka's `LogConfig` range, 1 to `Long.MAX_VALUE` (`Problem::SegmentMs`).
pub const TOPIC_SEGMENT_MS: Range = ms("topics[].segment_ms", 1, i64::MAX as u64, "");
/// `min.compaction.lag.ms` (default 0): Kafka's `LogConfig` range, 0 to `Long.MAX_VALUE`.
pub const TOPIC_MIN_COMPACTION_LAG_MS: Range = ms("topics[].min_compaction_lag_ms", 0, i64::MAX as u64, "");
/// `max.compaction.lag.ms` (default `Long.MAX_VALUE`): Kafka's `LogConfig` range, 1 to `Long.MAX_VALUE`.
pub const TOPIC_MAX_COMPACTION_LAG_MS: Range = ms("topics[].max_compaction_lag_ms", 1, i64::MAX as u64, "");
/// `delete.retention.ms` (default 86400000, one day): Kafka's `LogConfig` range, 0 to `Long.MAX_VALUE`.
pub const TOPIC_DELETE_RETENTION_MS: Range = ms("topics[].delete_retention_ms", 0, i64::MAX as u64, "");
/// `log.cleaner.backoff.ms` (default 15000): 1 ms to [`MAX_TIME_MS`] (Kafka allows 0, a
/// cleaner that never sleeps; the sandbox's cleaner needs a moment between its rounds).
pub const LOG_CLEANER_BACKOFF_MS: Range = ms("cluster.log_cleaner_backoff_ms", 1, MAX_TIME_MS, ONE_WEEK);
/// `linger.ms` (default 5): 0 to one minute.
pub const LINGER_MS: Range = ms("producers[].config.linger_ms", 0, 60_000, "");
/// `retry.backoff.ms` (default 100): 1 ms to [`MAX_TIME_MS`].
pub const RETRY_BACKOFF_MS: Range = ms("producers[].config.retry_backoff_ms", 1, MAX_TIME_MS, ONE_WEEK);
/// `retry.backoff.max.ms` (default 1000, KIP-580): 1 ms to [`MAX_TIME_MS`].
pub const RETRY_BACKOFF_MAX_MS: Range = ms("producers[].config.retry_backoff_max_ms", 1, MAX_TIME_MS, ONE_WEEK);
/// `request.timeout.ms` (default 30000): 1 ms to [`MAX_TIME_MS`].
pub const REQUEST_TIMEOUT_MS: Range = ms("producers[].config.request_timeout_ms", 1, MAX_TIME_MS, ONE_WEEK);
/// `delivery.timeout.ms` (default 120000): 1 ms to [`MAX_TIME_MS`].
pub const DELIVERY_TIMEOUT_MS: Range = ms("producers[].config.delivery_timeout_ms", 1, MAX_TIME_MS, ONE_WEEK);
/// `batch.size` (default 16384): 1 byte to 16 MiB.
pub const BATCH_SIZE: Range = Range { path: "producers[].config.batch_size", min: 1, max: 16 * 1024 * 1024, unit: Unit::Bytes, note: "" };
/// `buffer.memory` (default 33554432): 1 byte to Kafka's `Long.MAX_VALUE`; the scenario
/// checks also require at least `batch.size` (a smaller pool could never hold a batch:
/// Kafka's `BufferPool.allocate` throws `IllegalArgumentException` from every `send()`).
pub const BUFFER_MEMORY: Range =
    Range { path: "producers[].config.buffer_memory", min: 1, max: i64::MAX as u64, unit: Unit::Bytes, note: "" };
/// `max.block.ms` (default 60000): 0 (fail at once when the pool is full) to [`MAX_TIME_MS`].
pub const MAX_BLOCK_MS: Range = ms("producers[].config.max_block_ms", 0, MAX_TIME_MS, ONE_WEEK);
/// `transaction.timeout.ms` (default 60000): 1 ms to [`MAX_TIME_MS`]; at most the
/// cluster's `transaction_max_timeout_ms` too (INVALID_TRANSACTION_TIMEOUT).
pub const TRANSACTION_TIMEOUT_MS: Range = ms("producers[].config.transaction_timeout_ms", 1, MAX_TIME_MS, ONE_WEEK);
/// `transaction.state.log.replication.factor` (default 3): 1 to [`MAX_BROKERS`].
pub const TRANSACTION_STATE_LOG_REPLICATION_FACTOR: Range =
    Range { path: "cluster.transaction_state_log_replication_factor", min: 1, max: MAX_BROKERS as u64, unit: Unit::Count, note: "" };
/// `transaction.state.log.min.isr` (default 2): 1 to [`MAX_BROKERS`].
pub const TRANSACTION_STATE_LOG_MIN_ISR: Range =
    Range { path: "cluster.transaction_state_log_min_isr", min: 1, max: MAX_BROKERS as u64, unit: Unit::Count, note: "" };
/// `transaction.max.timeout.ms` (default 900000): 1 ms to [`MAX_TIME_MS`].
pub const TRANSACTION_MAX_TIMEOUT_MS: Range = ms("cluster.transaction_max_timeout_ms", 1, MAX_TIME_MS, ONE_WEEK);
/// `transaction.abort.timed.out.transaction.cleanup.interval.ms` (default 10000): 1 ms to [`MAX_TIME_MS`].
pub const TRANSACTION_ABORT_INTERVAL_MS: Range =
    ms("cluster.transaction_abort_timed_out_transaction_cleanup_interval_ms", 1, MAX_TIME_MS, ONE_WEEK);
/// A source connector's `poll.interval.ms` and `offset.flush.interval.ms`, and its table's planned changes.
///
/// This row: the JDBC source connector's `poll.interval.ms` (default 5000), 1 ms to
/// [`MAX_TIME_MS`].
pub const CONNECTOR_POLL_INTERVAL_MS: Range = ms("connectors[].poll_interval_ms", 1, MAX_TIME_MS, ONE_WEEK);
/// The worker's `offset.flush.interval.ms` (default 60000): 1 ms to [`MAX_TIME_MS`].
pub const CONNECTOR_OFFSET_FLUSH_INTERVAL_MS: Range = ms("connectors[].offset_flush_interval_ms", 1, MAX_TIME_MS, ONE_WEEK);
/// When a connector's table changes (`table.changes[].at_ms`): 0 to [`MAX_TIME_MS`], as
/// every moment a scenario schedules.
pub const TABLE_CHANGE_AT_MS: Range = ms("connectors[].table.changes[].at_ms", 0, MAX_TIME_MS, ONE_WEEK);
/// A Streams application's instances, `commit.interval.ms` and time per record.
///
/// This row: how many instances (stream threads, one member each) an application runs,
/// 1 to [`MAX_INSTANCES`].
pub const STREAMS_INSTANCES: Range = Range { path: "streams[].instances", min: 1, max: MAX_INSTANCES as u64, unit: Unit::Count, note: "" };
/// A Streams application's `commit.interval.ms` (default 30000 under `at_least_once`):
/// 1 ms to [`MAX_TIME_MS`].
pub const STREAMS_COMMIT_INTERVAL_MS: Range = ms("streams[].commit_interval_ms", 1, MAX_TIME_MS, ONE_WEEK);
/// A Streams application's time per record (sandbox only, default 10): 0 to
/// [`MAX_PROCESSING_MS`].
pub const STREAMS_PROCESSING_MS: Range = ms("streams[].processing_ms", 0, MAX_PROCESSING_MS, "");
/// When a timeline command runs (`commands[].at_ms`): 0 to [`MAX_TIME_MS`].
pub const COMMAND_AT_MS: Range = ms("commands[].at_ms", 0, MAX_TIME_MS, ONE_WEEK);
/// A member's settings: `groups[].members[].config`, and `member.config` in `add_member`.
///
/// This row: `max.poll.records` (default 500), 1 to [`MAX_POLL_RECORDS`].
pub const MEMBER_MAX_POLL_RECORDS: Range =
    Range { path: "groups[].members[].config.max_poll_records", min: 1, max: MAX_POLL_RECORDS as u64, unit: Unit::Count, note: "" };
/// `heartbeat.interval.ms` (default 3000): 1 ms to [`MAX_TIME_MS`]; the member checks also
/// require it below `session.timeout.ms`, as Kafka's consumer does.
pub const MEMBER_HEARTBEAT_INTERVAL_MS: Range = ms("groups[].members[].config.heartbeat_interval_ms", 1, MAX_TIME_MS, ONE_WEEK);
/// `session.timeout.ms` (default 45000): 1 ms to [`MAX_TIME_MS`]; the brokers'
/// `group.min/max.session.timeout.ms` are checked when a classic member joins (at run
/// time, as Kafka does: INVALID_SESSION_TIMEOUT).
pub const MEMBER_SESSION_TIMEOUT_MS: Range = ms("groups[].members[].config.session_timeout_ms", 1, MAX_TIME_MS, ONE_WEEK);
/// `max.poll.interval.ms` (default 300000), also the rebalance timeout: 1 ms to
/// [`MAX_TIME_MS`].
pub const MEMBER_MAX_POLL_INTERVAL_MS: Range = ms("groups[].members[].config.max_poll_interval_ms", 1, MAX_TIME_MS, ONE_WEEK);
/// `metadata.max.age.ms` (default 300000): 1 ms to [`MAX_TIME_MS`].
pub const MEMBER_METADATA_MAX_AGE_MS: Range = ms("groups[].members[].config.metadata_max_age_ms", 1, MAX_TIME_MS, ONE_WEEK);
/// `fetch.max.wait.ms` (default 500): 1 ms to [`MAX_FETCH_MAX_WAIT_MS`].
pub const MEMBER_FETCH_MAX_WAIT_MS: Range = ms("groups[].members[].config.fetch_max_wait_ms", 1, MAX_FETCH_MAX_WAIT_MS, "");
/// `auto.commit.interval.ms` (default 5000): 1 ms or more, no upper bound.
pub const MEMBER_AUTO_COMMIT_INTERVAL_MS: Range = ms("groups[].members[].config.auto_commit_interval_ms", 1, u64::MAX, "");
/// A member's time per record (sandbox only, default 10): 0 to [`MAX_PROCESSING_MS`], the
/// same cap as `set_processing`.
pub const MEMBER_PROCESSING_MS: Range = ms("groups[].members[].config.processing_ms", 0, MAX_PROCESSING_MS, "");
/// A push group's buffer (its refusal names the group, `CommandError::PushBuffer`).
pub const PUSH_BUFFER_MAX_RECORDS: Range =
    Range { path: "groups[].config.push_buffer_max_records", min: 1, max: MAX_PUSH_BUFFER_RECORDS as u64, unit: Unit::Count, note: "" };

/// Every row, in the order the scenario checks them.
pub const TABLE: &[Range] = &[
    CLUSTER_BROKERS,
    REPLICA_LAG_TIME_MAX_MS,
    BROKER_SESSION_TIMEOUT_MS,
    REPLICA_FETCH_WAIT_MAX_MS,
    NETWORK_LATENCY_MS,
    GROUP_INITIAL_REBALANCE_DELAY_MS,
    GROUP_CONSUMER_HEARTBEAT_INTERVAL_MS,
    GROUP_CONSUMER_SESSION_TIMEOUT_MS,
    LOG_RETENTION_CHECK_INTERVAL_MS,
    OFFSETS_TOPIC_REPLICATION_FACTOR,
    LEADER_IMBALANCE_CHECK_INTERVAL_SECONDS,
    GROUP_MIN_SESSION_TIMEOUT_MS,
    GROUP_MAX_SESSION_TIMEOUT_MS,
    OFFSETS_RETENTION_MINUTES,
    OFFSETS_RETENTION_CHECK_INTERVAL_MS,
    TRANSACTION_STATE_LOG_REPLICATION_FACTOR,
    TRANSACTION_STATE_LOG_MIN_ISR,
    TRANSACTION_MAX_TIMEOUT_MS,
    TRANSACTION_ABORT_INTERVAL_MS,
    LOG_CLEANER_BACKOFF_MS,
    OFFSETS_TOPIC_SEGMENT_BYTES,
    DURATION_MS,
    TOPIC_PARTITIONS,
    TOPIC_SEGMENT_BYTES,
    TOPIC_SEGMENT_MS,
    TOPIC_MIN_COMPACTION_LAG_MS,
    TOPIC_MAX_COMPACTION_LAG_MS,
    TOPIC_DELETE_RETENTION_MS,
    LINGER_MS,
    RETRY_BACKOFF_MS,
    RETRY_BACKOFF_MAX_MS,
    REQUEST_TIMEOUT_MS,
    DELIVERY_TIMEOUT_MS,
    BATCH_SIZE,
    BUFFER_MEMORY,
    MAX_BLOCK_MS,
    TRANSACTION_TIMEOUT_MS,
    CONNECTOR_POLL_INTERVAL_MS,
    CONNECTOR_OFFSET_FLUSH_INTERVAL_MS,
    TABLE_CHANGE_AT_MS,
    STREAMS_INSTANCES,
    STREAMS_COMMIT_INTERVAL_MS,
    STREAMS_PROCESSING_MS,
    COMMAND_AT_MS,
    MEMBER_MAX_POLL_RECORDS,
    MEMBER_HEARTBEAT_INTERVAL_MS,
    MEMBER_SESSION_TIMEOUT_MS,
    MEMBER_MAX_POLL_INTERVAL_MS,
    MEMBER_METADATA_MAX_AGE_MS,
    MEMBER_FETCH_MAX_WAIT_MS,
    MEMBER_AUTO_COMMIT_INTERVAL_MS,
    MEMBER_PROCESSING_MS,
    PUSH_BUFFER_MAX_RECORDS,
];

/// The row of a JSON path, indices or not (`producers[2].config.linger_ms` finds
/// `producers[].config.linger_ms`; a member's setting in an `add_member` command,
/// `commands[4].command.member.config.X`, finds the member row).
pub fn range_of(path: &str) -> Option<&'static Range> {
    let mut general = String::with_capacity(path.len());
    let mut in_index = false;
    for c in path.chars() {
        match c {
            '[' => {
                in_index = true;
                general.push('[');
            }
            ']' => {
                in_index = false;
                general.push(']');
            }
            _ if in_index => {}
            c => general.push(c),
        }
    }
    if let Some(setting) = general.strip_prefix("commands[].command.member.config.") {
        general = format!("groups[].members[].config.{setting}");
    }
    TABLE.iter().find(|r| r.path == general)
}

/// The table as Markdown, as `docs/scenario-format.md` prints it.
pub fn markdown_table() -> String {
    let mut out = String::from("| Path | Allowed | Unit | Note |\n|---|---|---|---|\n");
    for r in TABLE {
        let note = r.note.trim().trim_start_matches('(').trim_end_matches(')');
        out.push_str(&format!("| `{}` | {} | {} | {note} |\n", r.path, r.bounds(), r.unit.name()));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_row_is_found_by_its_path_with_or_without_indices_and_paths_are_distinct() {
        for r in TABLE {
            assert_eq!(range_of(r.path), Some(r));
            let indexed = r.path.replace("[]", "[3]");
            assert_eq!(range_of(&indexed), Some(r), "{indexed}");
            assert!(r.min <= r.max, "{}", r.path);
            assert!(r.note.is_empty() || r.note.starts_with(' '), "{}", r.path);
        }
        let mut paths: Vec<&str> = TABLE.iter().map(|r| r.path).collect();
        paths.sort_unstable();
        paths.dedup();
        assert_eq!(paths.len(), TABLE.len());
        assert_eq!(range_of("cluster.nothing"), None);
        assert_eq!(range_of("commands[4].command.member.config.session_timeout_ms"), Some(&MEMBER_SESSION_TIMEOUT_MS));
        assert_eq!(MEMBER_AUTO_COMMIT_INTERVAL_MS.refusal(0), "is 0; allowed: 1 or more");
    }

    #[test]
    fn a_refusal_says_the_value_and_the_range() {
        assert!(CLUSTER_BROKERS.allows(1) && CLUSTER_BROKERS.allows(12) && !CLUSTER_BROKERS.allows(0) && !CLUSTER_BROKERS.allows(13));
        assert_eq!(CLUSTER_BROKERS.refusal(0), "is 0; allowed: 1 to 12");
        assert_eq!(DURATION_MS.refusal(u64::MAX), format!("is {}; allowed: 0 to 604800000 (one week)", u64::MAX));
    }
}
