//! The bounds on everything a person can give the sandbox (scenarios, commands, settings):
//! one place for each number, read by the scenario checks, the command checks and the
//! page's editor. Kafka's own limits and defaults are in `config`.

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
