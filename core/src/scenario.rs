//! The versioned scenario format (JSON): cluster, topics, producers, groups and a
//! timeline of commands. Invalid input is rejected with a message saying what and where.
//! The format is documented in docs/scenario-format.md.

use crate::cluster::TopicConfig;
use crate::command::CommandError;
use crate::command::{check_name, Command, GroupSpec, MAX_VALUE_CHARS};
use crate::command::{BrokerCommand, ConnectCommand, GroupCommand, ProduceCommand, TopicCommand};
use crate::config::{CleanupPolicy, ClusterConfig, ProducerConfig, Ratio};
use crate::error::within;
pub use crate::error::{Capped, Defined, IdempotenceRule, JsonProblem, Problem, ScenarioError};
pub use crate::json::{read_json, write_json};
use crate::limits;
pub use crate::limits::{
    MAX_BROKERS, MAX_PARTITIONS, MAX_PROCESSING_MS, MAX_PRODUCERS, MAX_SCENARIO_BYTES, MAX_SLOW_MS, MAX_TIMELINE, MAX_TIME_MS, MAX_TOPICS,
    MIN_SEGMENT_BYTES,
};
use crate::record::TimestampType;
use crate::sim::{check_member_spec, check_record_size, check_strategy, Sim, SimOptions};
use crate::time::SimTime;
use crate::vecmap::{VecMap, VecSet};
use serde::{Deserialize, Serialize};

/// The format version this build reads and writes.
pub const FORMAT_VERSION: u32 = 1;

/// A whole run's starting point: the cluster, its topics, producers, consumer groups,
/// Connect and Streams applications, and a timeline of commands. The JSON format of
/// docs/scenario-format.md ([`Scenario::from_json`], [`Scenario::to_json_pretty`]), or
/// built in code with [`Scenario::builder`]; [`Scenario::build`] checks it and gives the
/// [`Sim`] at time zero.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Scenario {
    /// Must be [`FORMAT_VERSION`].
    pub version: u32,
    /// A short title, shown by the page and the CLI.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// What the scenario shows, in a sentence or two.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// Seeds the simulation's RNG: same seed and commands, same run.
    #[serde(default)]
    pub seed: u64,
    /// The brokers and the cluster-wide settings.
    #[serde(default)]
    pub cluster: ClusterConfig,
    /// The topics (at least one).
    pub topics: Vec<TopicSpec>,
    /// The producers, with their planned sends.
    #[serde(default)]
    pub producers: Vec<ProducerSpec>,
    /// The consumer groups, with the members they start with.
    #[serde(default)]
    pub groups: Vec<GroupSpec>,
    /// Share groups (KIP-932, `group.type` share), with the consumers they start with.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub share_groups: Vec<crate::command::ShareGroupSpec>,
    /// Source connectors: a table whose rows become records (`sim/connect.rs`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub connectors: Vec<crate::sim::connect::ConnectorSpec>,
    /// Kafka Streams applications (`sim/streams.rs`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub streams: Vec<crate::sim::streams::StreamsSpec>,
    /// The timeline: commands applied at set moments.
    #[serde(default)]
    pub commands: Vec<TimedCommand>,
    /// How long `kafka-sandbox run` runs by default; when absent, 10 s past the last
    /// timeline entry.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub duration_ms: Option<u64>,
}

/// An empty scenario of the current format: seed 0, the default cluster, nothing in it
/// (it needs a topic before it checks). Start literals from it: `Scenario { topics, ..Scenario::default() }`.
impl Default for Scenario {
    fn default() -> Self {
        Scenario {
            version: FORMAT_VERSION,
            name: None,
            description: None,
            seed: 0,
            cluster: ClusterConfig::default(),
            topics: Vec::new(),
            producers: Vec::new(),
            groups: Vec::new(),
            share_groups: Vec::new(),
            connectors: Vec::new(),
            streams: Vec::new(),
            commands: Vec::new(),
            duration_ms: None,
        }
    }
}

/// A topic to create: `TopicSpec::new("orders").partitions(6).replication_factor(3)`,
/// with Kafka's topic defaults for what is not set.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TopicSpec {
    /// The topic's name.
    pub name: String,
    /// How many partitions.
    pub partitions: u32,
    /// Replicas per partition (`default.replication.factor` is 1); at most the brokers.
    #[serde(default = "one")]
    pub replication_factor: u32,
    /// `message.timestamp.type`: `CreateTime` (default) or `LogAppendTime`.
    #[serde(default)]
    pub message_timestamp_type: TimestampType,
    /// `min.insync.replicas` (1).
    #[serde(default = "one")]
    pub min_insync_replicas: u32,
    /// `unclean.leader.election.enable` (false).
    #[serde(default)]
    pub unclean_leader_election_enable: bool,
    /// `retention.ms` (604800000 = 7 days; -1 = no time limit).
    #[serde(default = "seven_days_ms")]
    pub retention_ms: i64,
    /// `retention.bytes` per partition (-1 = no size limit).
    #[serde(default = "minus_one")]
    pub retention_bytes: i64,
    /// `segment.bytes` (1073741824 = 1 GiB). The sandbox accepts down to
    /// [`MIN_SEGMENT_BYTES`] so that small scenarios roll segments.
    #[serde(default = "one_gib")]
    pub segment_bytes: u32,
    /// `segment.ms` (604800000 = 7 days).
    #[serde(default = "seven_days_ms_u64")]
    pub segment_ms: u64,
    /// `cleanup.policy` (`delete`; `compact` or `compact,delete` for the log cleaner).
    #[serde(default, skip_serializing_if = "CleanupPolicy::is_delete")]
    pub cleanup_policy: CleanupPolicy,
    /// `min.cleanable.dirty.ratio` (0.5), 0 to 1.
    #[serde(default = "half", skip_serializing_if = "is_half")]
    pub min_cleanable_dirty_ratio: Ratio,
    /// `min.compaction.lag.ms` (0).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub min_compaction_lag_ms: u64,
    /// `max.compaction.lag.ms` (9223372036854775807).
    #[serde(default = "long_max", skip_serializing_if = "is_long_max")]
    pub max_compaction_lag_ms: u64,
    /// `delete.retention.ms` (86400000 = 1 day).
    #[serde(default = "one_day_ms", skip_serializing_if = "is_one_day_ms")]
    pub delete_retention_ms: u64,
    /// The topic id (KIP-516), as Kafka prints it: 22 characters of URL-safe base64. When
    /// absent the sandbox derives one from the seed and the name
    /// ([`Uuid::derived`](crate::uuid::Uuid::derived)). It orders topics in the `uniform`
    /// assignor.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub topic_id: Option<String>,
}

impl Default for TopicSpec {
    /// One partition, one replica, Kafka's topic defaults; the name is left empty.
    fn default() -> Self {
        let c = TopicConfig::default();
        Self {
            name: String::new(),
            partitions: 1,
            replication_factor: 1,
            message_timestamp_type: c.message_timestamp_type,
            min_insync_replicas: c.min_insync_replicas,
            unclean_leader_election_enable: c.unclean_leader_election_enable,
            retention_ms: c.retention_ms,
            retention_bytes: c.retention_bytes,
            segment_bytes: c.segment_bytes,
            segment_ms: c.segment_ms,
            cleanup_policy: c.cleanup_policy,
            min_cleanable_dirty_ratio: c.min_cleanable_dirty_ratio,
            min_compaction_lag_ms: c.min_compaction_lag_ms,
            max_compaction_lag_ms: c.max_compaction_lag_ms,
            delete_retention_ms: c.delete_retention_ms,
            topic_id: None,
        }
    }
}

impl TopicSpec {
    /// The topic configs it sets.
    pub fn config(&self) -> TopicConfig {
        TopicConfig {
            message_timestamp_type: self.message_timestamp_type,
            min_insync_replicas: self.min_insync_replicas,
            unclean_leader_election_enable: self.unclean_leader_election_enable,
            retention_ms: self.retention_ms,
            retention_bytes: self.retention_bytes,
            segment_bytes: self.segment_bytes,
            segment_ms: self.segment_ms,
            cleanup_policy: self.cleanup_policy,
            min_cleanable_dirty_ratio: self.min_cleanable_dirty_ratio,
            min_compaction_lag_ms: self.min_compaction_lag_ms,
            max_compaction_lag_ms: self.max_compaction_lag_ms,
            delete_retention_ms: self.delete_retention_ms,
        }
    }
}

fn one() -> u32 {
    1
}

fn minus_one() -> i64 {
    -1
}

fn seven_days_ms() -> i64 {
    7 * 24 * 3600 * 1000
}

fn seven_days_ms_u64() -> u64 {
    7 * 24 * 3600 * 1000
}

fn one_gib() -> u32 {
    1 << 30
}

fn half() -> Ratio {
    Ratio(0.5)
}

fn is_half(r: &Ratio) -> bool {
    r.0 == 0.5
}

fn is_zero(v: &u64) -> bool {
    *v == 0
}

fn long_max() -> u64 {
    i64::MAX as u64
}

fn is_long_max(v: &u64) -> bool {
    *v == i64::MAX as u64
}

fn one_day_ms() -> u64 {
    86_400_000
}

fn is_one_day_ms(v: &u64) -> bool {
    *v == 86_400_000
}

/// A producer. `ProducerSpec::new("p")` with defaults, or a literal ending in
/// `..ProducerSpec::default()`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ProducerSpec {
    /// Its name, which is its `client.id`.
    pub name: String,
    /// Its settings (`acks`, `linger.ms`, retries, …).
    #[serde(default)]
    pub config: ProducerConfig,
    /// Planned sends: shorthand for a series of `produce` commands.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub send: Vec<SendPlan>,
}

/// Sends `values` to `topic`, the first at `start_ms`, then one every `interval_ms`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SendPlan {
    /// The topic the records go to.
    pub topic: String,
    /// The records' values, in send order.
    pub values: Vec<String>,
    /// Keys, one per value (`null` for a keyless record); all keyless when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub keys: Option<Vec<Option<String>>>,
    /// When the first is sent, in ms of simulated time.
    #[serde(default)]
    pub start_ms: u64,
    /// The time between two sends, in ms.
    #[serde(default)]
    pub interval_ms: u64,
}

impl ProducerSpec {
    /// A producer with the default settings and no planned send.
    pub fn new(name: impl Into<String>) -> Self {
        Self { name: name.into(), ..Self::default() }
    }

    /// With these settings.
    pub fn with_config(mut self, config: ProducerConfig) -> Self {
        self.config = config;
        self
    }
}

/// A timeline entry: `command` applied at `at_ms`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TimedCommand {
    /// When, in ms of simulated time.
    pub at_ms: u64,
    /// What.
    pub command: Command,
}

impl Scenario {
    /// Parses and checks a scenario.
    pub fn from_json(text: &str) -> Result<Scenario, ScenarioError> {
        if text.len() > MAX_SCENARIO_BYTES {
            return Err(ScenarioError::at("", Problem::TooBig { bytes: text.len() }));
        }
        // Read the version first, so a newer file gets a clear message rather than a
        // complaint about some field this build does not know.
        let parsed = read_json::<serde_json::Value>(text);
        if let Ok(v) = &parsed {
            if !v.is_object() {
                return Err(ScenarioError::at("", Problem::NotAnObject));
            }
        }
        if let Ok(serde_json::Value::Object(map)) = parsed {
            match map.get("version") {
                Some(serde_json::Value::Number(n)) if n.as_u64() == Some(u64::from(FORMAT_VERSION)) => {}
                Some(serde_json::Value::Number(n)) => {
                    return Err(ScenarioError::at(
                        "version",
                        Problem::VersionUnsupported { version: n.to_string(), supported: FORMAT_VERSION },
                    ))
                }
                Some(v) => {
                    return Err(ScenarioError::at(
                        "version",
                        Problem::VersionNotANumber { written: write_json(v, false), supported: FORMAT_VERSION },
                    ))
                }
                None => return Err(ScenarioError::at("version", Problem::VersionMissing { supported: FORMAT_VERSION })),
            }
        }
        let scenario: Scenario = parse_json(text)?;
        scenario.check()?;
        Ok(scenario)
    }

    /// The scenario as indented JSON (what the page shows); compact when indenting would
    /// take it past [`MAX_SCENARIO_BYTES`], so the text always loads again.
    pub fn to_json_pretty(&self) -> String {
        let pretty = write_json(self, true);
        if pretty.len() <= MAX_SCENARIO_BYTES {
            return pretty;
        }
        write_json(self, false)
    }

    /// When `run` stops by default.
    pub fn end_ms(&self) -> u64 {
        if let Some(d) = self.duration_ms {
            return d;
        }
        let last_command = self.commands.iter().map(|c| c.at_ms).max().unwrap_or(0);
        let last_send = self
            .producers
            .iter()
            .flat_map(|p| &p.send)
            .map(|s| s.interval_ms.saturating_mul(s.values.len().saturating_sub(1) as u64).saturating_add(s.start_ms))
            .max()
            .unwrap_or(0);
        let last_change = self.connectors.iter().flat_map(|c| &c.table.changes).map(|c| c.at_ms).max().unwrap_or(0);
        // Saturating: a `Scenario` built in code has not been through `check`.
        last_command.max(last_send).max(last_change).saturating_add(10_000)
    }

    /// Checks the scenario: names, sizes, ranges and references, then the groups and the
    /// timeline against the cluster they will run on (by building it). [`Scenario::build`]
    /// runs the same checks; call this one when no simulation is wanted.
    pub fn check(&self) -> Result<(), ScenarioError> {
        self.build().map(drop)
    }

    /// What can be checked without building: names, sizes, ranges, references.
    fn check_fields(&self) -> Result<(), ScenarioError> {
        if self.version != FORMAT_VERSION {
            return Err(ScenarioError::at(
                "version",
                Problem::VersionUnsupported { version: self.version.to_string(), supported: FORMAT_VERSION },
            ));
        }
        let c = &self.cluster;
        within("cluster.brokers", c.brokers.into(), &limits::CLUSTER_BROKERS)?;
        within("cluster.replica_lag_time_max_ms", c.replica_lag_time_max_ms, &limits::REPLICA_LAG_TIME_MAX_MS)?;
        within("cluster.broker_session_timeout_ms", c.broker_session_timeout_ms, &limits::BROKER_SESSION_TIMEOUT_MS)?;
        within("cluster.replica_fetch_wait_max_ms", c.replica_fetch_wait_max_ms, &limits::REPLICA_FETCH_WAIT_MAX_MS)?;
        within("cluster.network_latency_ms", c.network_latency_ms, &limits::NETWORK_LATENCY_MS)?;
        within("cluster.group_initial_rebalance_delay_ms", c.group_initial_rebalance_delay_ms, &limits::GROUP_INITIAL_REBALANCE_DELAY_MS)?;
        within(
            "cluster.group_consumer_heartbeat_interval_ms",
            c.group_consumer_heartbeat_interval_ms,
            &limits::GROUP_CONSUMER_HEARTBEAT_INTERVAL_MS,
        )?;
        within(
            "cluster.group_consumer_session_timeout_ms",
            c.group_consumer_session_timeout_ms,
            &limits::GROUP_CONSUMER_SESSION_TIMEOUT_MS,
        )?;
        if c.group_consumer_session_timeout_ms <= c.group_consumer_heartbeat_interval_ms {
            return Err(ScenarioError::at(
                "cluster.group_consumer_session_timeout_ms",
                Problem::SessionNotAboveHeartbeat {
                    session_ms: c.group_consumer_session_timeout_ms,
                    heartbeat_ms: c.group_consumer_heartbeat_interval_ms,
                },
            ));
        }
        within("cluster.log_retention_check_interval_ms", c.log_retention_check_interval_ms, &limits::LOG_RETENTION_CHECK_INTERVAL_MS)?;
        within(
            "cluster.offsets_topic_replication_factor",
            c.offsets_topic_replication_factor.into(),
            &limits::OFFSETS_TOPIC_REPLICATION_FACTOR,
        )?;
        within(
            "cluster.leader_imbalance_check_interval_seconds",
            c.leader_imbalance_check_interval_seconds,
            &limits::LEADER_IMBALANCE_CHECK_INTERVAL_SECONDS,
        )?;
        within("cluster.group_min_session_timeout_ms", c.group_min_session_timeout_ms, &limits::GROUP_MIN_SESSION_TIMEOUT_MS)?;
        within("cluster.group_max_session_timeout_ms", c.group_max_session_timeout_ms, &limits::GROUP_MAX_SESSION_TIMEOUT_MS)?;
        within("cluster.offsets_retention_minutes", c.offsets_retention_minutes, &limits::OFFSETS_RETENTION_MINUTES)?;
        within(
            "cluster.offsets_retention_check_interval_ms",
            c.offsets_retention_check_interval_ms,
            &limits::OFFSETS_RETENTION_CHECK_INTERVAL_MS,
        )?;
        within("cluster.log_cleaner_backoff_ms", c.log_cleaner_backoff_ms, &limits::LOG_CLEANER_BACKOFF_MS)?;
        within("cluster.offsets_topic_segment_bytes", c.offsets_topic_segment_bytes, &limits::OFFSETS_TOPIC_SEGMENT_BYTES)?;
        if let Some(d) = self.duration_ms {
            within("duration_ms", d, &limits::DURATION_MS)?;
        }
        if self.topics.is_empty() {
            return Err(ScenarioError::at("topics", Problem::NoTopics));
        }
        if self.topics.len() > MAX_TOPICS {
            return Err(ScenarioError::at("topics", Problem::TooManyTopics { count: self.topics.len() }));
        }
        let mut topics = VecMap::new();
        let mut topic_ids = std::collections::BTreeSet::new();
        for (i, t) in self.topics.iter().enumerate() {
            let path = format!("topics[{i}]");
            check_name(crate::command::NameOf::Topic, &t.name).map_err(|e| ScenarioError::at(format!("{path}.name"), e))?;
            if !limits::TOPIC_PARTITIONS.allows(t.partitions.into()) {
                return Err(ScenarioError::at(
                    format!("{path}.partitions"),
                    Problem::Partitions { topic: t.name.clone(), partitions: t.partitions },
                ));
            }
            if !(1..=self.cluster.brokers.max(1)).contains(&t.replication_factor) {
                return Err(ScenarioError::at(
                    format!("{path}.replication_factor"),
                    Problem::ReplicationFactor { topic: t.name.clone(), replicas: t.replication_factor, brokers: self.cluster.brokers },
                ));
            }
            if !(1..=t.replication_factor).contains(&t.min_insync_replicas) {
                return Err(ScenarioError::at(
                    format!("{path}.min_insync_replicas"),
                    Problem::MinInsyncReplicas { value: t.min_insync_replicas, replication_factor: t.replication_factor },
                ));
            }
            check_retention(&path, t)?;
            if let Some(text) = &t.topic_id {
                let id = crate::uuid::Uuid::parse(text)
                    .map_err(|why| ScenarioError::at(format!("{path}.topic_id"), Problem::TopicId { value: text.clone(), why }))?;
                if !topic_ids.insert(id) {
                    return Err(ScenarioError::at(
                        format!("{path}.topic_id"),
                        Problem::Duplicate { what: Defined::TopicId, name: text.clone() },
                    ));
                }
            }
            if topics.insert(t.name.as_str(), t.partitions).is_some() {
                return Err(ScenarioError::at(format!("{path}.name"), Problem::Duplicate { what: Defined::Topic, name: t.name.clone() }));
            }
        }
        if self.producers.len() > MAX_PRODUCERS {
            return Err(ScenarioError::at("producers", Problem::TooManyProducers { count: self.producers.len() }));
        }
        let mut producers = VecSet::new();
        let mut timeline = 0usize;
        for (i, p) in self.producers.iter().enumerate() {
            let path = format!("producers[{i}]");
            check_name(crate::command::NameOf::Producer, &p.name).map_err(|e| ScenarioError::at(format!("{path}.name"), e))?;
            if !producers.insert(p.name.as_str()) {
                return Err(ScenarioError::at(
                    format!("{path}.name"),
                    Problem::Duplicate { what: Defined::Producer, name: p.name.clone() },
                ));
            }
            within(&format!("{path}.config.linger_ms"), p.config.linger_ms, &limits::LINGER_MS)?;
            for (name, v, range) in [
                ("retry_backoff_ms", p.config.retry_backoff_ms, &limits::RETRY_BACKOFF_MS),
                ("retry_backoff_max_ms", p.config.retry_backoff_max_ms, &limits::RETRY_BACKOFF_MAX_MS),
                ("request_timeout_ms", p.config.request_timeout_ms, &limits::REQUEST_TIMEOUT_MS),
                ("delivery_timeout_ms", p.config.delivery_timeout_ms, &limits::DELIVERY_TIMEOUT_MS),
            ] {
                within(&format!("{path}.config.{name}"), v, range)?;
            }
            if p.config.max_in_flight_requests_per_connection == 0 {
                return Err(ScenarioError::at(format!("{path}.config.max_in_flight_requests_per_connection"), Problem::MaxInFlightZero));
            }
            if p.config.enable_idempotence == Some(true) {
                // `ProducerConfig.postProcessAndValidateIdempotenceConfigs`: explicit
                // idempotence with a setting that rules it out is a ConfigException.
                let conflict = [
                    ("acks", p.config.acks != crate::config::Acks::All, IdempotenceRule::AcksAll),
                    ("retries", p.config.retries == 0, IdempotenceRule::RetriesAboveZero),
                    (
                        "max_in_flight_requests_per_connection",
                        p.config.max_in_flight_requests_per_connection > 5,
                        IdempotenceRule::InFlightAtMostFive,
                    ),
                ]
                .into_iter()
                .find(|(_, conflicts, _)| *conflicts);
                if let Some((field, _, rule)) = conflict {
                    return Err(ScenarioError::at(format!("{path}.config.{field}"), Problem::IdempotenceConflict { rule }));
                }
            }
            within(&format!("{path}.config.batch_size"), p.config.batch_size.into(), &limits::BATCH_SIZE)?;
            within(&format!("{path}.config.buffer_memory"), p.config.buffer_memory, &limits::BUFFER_MEMORY)?;
            within(&format!("{path}.config.max_block_ms"), p.config.max_block_ms, &limits::MAX_BLOCK_MS)?;
            if p.config.buffer_memory < u64::from(p.config.batch_size) {
                return Err(ScenarioError::at(
                    format!("{path}.config.buffer_memory"),
                    Problem::BufferMemoryBelowBatchSize { buffer_memory: p.config.buffer_memory, batch_size: p.config.batch_size },
                ));
            }
            for (j, s) in p.send.iter().enumerate() {
                let path = format!("{path}.send[{j}]");
                if !topics.contains_key(s.topic.as_str()) {
                    return Err(ScenarioError::at(format!("{path}.topic"), CommandError::UnknownTopic(s.topic.clone())));
                }
                if let Some(keys) = &s.keys {
                    if keys.len() != s.values.len() {
                        return Err(ScenarioError::at(
                            format!("{path}.keys"),
                            Problem::KeysForValues { keys: keys.len(), values: s.values.len() },
                        ));
                    }
                }
                let long = |v: &String| v.chars().count() > MAX_VALUE_CHARS;
                if s.values.iter().any(long) || s.keys.iter().flatten().flatten().any(long) {
                    return Err(ScenarioError::at(path, Problem::PlannedValueTooLong));
                }
                timeline += s.values.len();
                let last = s.interval_ms.saturating_mul(s.values.len().saturating_sub(1) as u64).saturating_add(s.start_ms);
                if last > MAX_TIME_MS {
                    return Err(ScenarioError::at(path, Problem::SendTooLate { last_ms: last }));
                }
            }
        }
        self.check_transactions()?;
        crate::sim::connect::check_connectors(&self.connectors, &topics, &producers)?;
        // Groups need `__consumer_offsets`, which Kafka creates only with
        // `offsets.topic.replication.factor` live brokers (`AutoTopicCreationManager`;
        // FindCoordinator answers COORDINATOR_NOT_AVAILABLE meanwhile).
        let adds_group = self.commands.iter().any(|c| matches!(c.command, Command::Group(GroupCommand::AddGroup { .. })));
        let uses_groups = !self.groups.is_empty()
            || !self.share_groups.is_empty()
            || !self.streams.is_empty()
            || !self.connectors.is_empty()
            || adds_group;
        if uses_groups && self.cluster.offsets_topic_replication_factor > self.cluster.brokers {
            return Err(ScenarioError::at(
                "cluster.offsets_topic_replication_factor",
                Problem::OffsetsTopicReplication {
                    replication_factor: self.cluster.offsets_topic_replication_factor,
                    brokers: self.cluster.brokers,
                },
            ));
        }
        crate::sim::streams::check_streams(&self.streams, &topics, &producers, &self.groups)?;
        timeline += self.connectors.iter().map(|c| c.table.changes.len()).sum::<usize>();
        timeline += self.commands.len();
        if timeline > MAX_TIMELINE {
            return Err(ScenarioError::at(
                "commands",
                Problem::TooManyTimelineEntries { entries: timeline, with_connectors: !self.connectors.is_empty() },
            ));
        }
        // Written out, every default is filled in: a short text can grow past the limit
        // (thousands of timeline members), and then what was loaded could not be loaded again.
        let written = write_json(self, false).len();
        if written > MAX_SCENARIO_BYTES {
            return Err(ScenarioError::at("", Problem::WrittenTooBig { bytes: written }));
        }
        Ok(())
    }

    /// The transactions settings (issue 17): the cluster's, and each transactional
    /// producer's `transactional_id` (a name), idempotence and timeout; `__transaction_state`
    /// needs `transaction_state_log_replication_factor` brokers when anything is
    /// transactional (Kafka cannot create it otherwise: no coordinator).
    fn check_transactions(&self) -> Result<(), ScenarioError> {
        let c = &self.cluster;
        within(
            "cluster.transaction_state_log_replication_factor",
            c.transaction_state_log_replication_factor.into(),
            &limits::TRANSACTION_STATE_LOG_REPLICATION_FACTOR,
        )?;
        within("cluster.transaction_state_log_min_isr", c.transaction_state_log_min_isr.into(), &limits::TRANSACTION_STATE_LOG_MIN_ISR)?;
        within("cluster.transaction_max_timeout_ms", c.transaction_max_timeout_ms, &limits::TRANSACTION_MAX_TIMEOUT_MS)?;
        within(
            "cluster.transaction_abort_timed_out_transaction_cleanup_interval_ms",
            c.transaction_abort_timed_out_transaction_cleanup_interval_ms,
            &limits::TRANSACTION_ABORT_INTERVAL_MS,
        )?;
        let mut transactional = false;
        for (i, p) in self.producers.iter().enumerate() {
            let Some(id) = &p.config.transactional_id else { continue };
            transactional = true;
            let path = format!("producers[{i}].config");
            check_name(crate::command::NameOf::TransactionalId, id)
                .map_err(|e| ScenarioError::at(format!("{path}.transactional_id"), e))?;
            within(&format!("{path}.transaction_timeout_ms"), p.config.transaction_timeout_ms, &limits::TRANSACTION_TIMEOUT_MS)?;
            crate::sim::check_transactional(&p.name, &p.config, c).map_err(|e| ScenarioError::at(path.clone(), e))?;
        }
        transactional |= self.streams.iter().any(|s| s.processing_guarantee == crate::config::ProcessingGuarantee::ExactlyOnceV2);
        transactional |= self.commands.iter().any(|t| {
            matches!(&t.command, Command::Txn(crate::command::TxnCommand::AddProducer { config, .. }) if config.transactional())
                || matches!(&t.command, Command::Txn(crate::command::TxnCommand::SetProcessingGuarantee { .. }))
        });
        if transactional && c.transaction_state_log_replication_factor > c.brokers {
            let refusal = crate::command::TxnRefusal::TransactionStateReplication {
                replication_factor: c.transaction_state_log_replication_factor,
                brokers: c.brokers,
            };
            return Err(ScenarioError::at("cluster.transaction_state_log_replication_factor", CommandError::Txn(refusal)));
        }
        Ok(())
    }

    /// Checks the scenario and builds the simulation at time zero with everything
    /// scheduled. Every check runs: an invalid scenario (a replication factor above the
    /// brokers, `min.insync.replicas` above the replication factor, no broker, a timeline
    /// command naming a member that does not exist by then) is refused with the field's
    /// path and what is allowed, never built.
    pub fn build(&self) -> Result<Sim, ScenarioError> {
        self.build_with(SimOptions::default())
    }

    /// [`Scenario::build`] with explicit bounds on what the run keeps (see [`SimOptions`]):
    /// `SimOptions::unbounded()` for a test that must see every event and record.
    pub fn build_with(&self, options: SimOptions) -> Result<Sim, ScenarioError> {
        self.check_fields()?;
        // Groups and commands are checked by building the cluster for real.
        let mut sim = Sim::with_options(self.seed, self.cluster.clone(), options);
        for t in &self.topics {
            let id = t.topic_id.as_deref().and_then(|id| crate::uuid::Uuid::parse(id).ok());
            sim.add_topic_with_id(&t.name, id, t.partitions, t.replication_factor, t.config());
        }
        for p in &self.producers {
            sim.add_producer(&p.name, p.config.clone());
        }
        for (i, g) in self.groups.iter().enumerate() {
            sim.apply_unlogged(Command::Group(GroupCommand::AddGroup { group: g.clone() }))
                .map_err(|e| ScenarioError::at(format!("groups[{i}]"), e))?;
        }
        for (i, g) in self.share_groups.iter().enumerate() {
            sim.apply_unlogged(Command::ShareGroup(crate::command::ShareGroupCommand::AddShareGroup { share_group: g.clone() }))
                .map_err(|e| ScenarioError::at(format!("share_groups[{i}]"), e))?;
        }
        for c in &self.connectors {
            sim.add_connector(c.clone());
        }
        for (i, s) in self.streams.iter().enumerate() {
            sim.add_streams(s.clone()).map_err(|e| ScenarioError::at(format!("streams[{i}]"), e))?;
        }
        // Commands are checked in time order against the groups and members that will
        // exist by then, so a timeline that removes a member never added is refused now.
        let mut members: VecMap<String, VecSet<String>> = self
            .groups
            .iter()
            .map(|g| (g.id.clone(), g.members.iter().map(|m| m.client_id.clone()).collect()))
            .chain(self.streams.iter().map(|s| (s.application_id.clone(), s.instance_ids().into_iter().collect())))
            .collect();
        let mut order: Vec<usize> = (0..self.commands.len()).collect();
        crate::sorted::sort_by_key(&mut order, |&i| (self.commands[i].at_ms, i));
        for i in order {
            let c = &self.commands[i];
            let path = format!("commands[{i}]");
            within(&format!("{path}.at_ms"), c.at_ms, &limits::COMMAND_AT_MS)?;
            check_timeline_limits(&c.command).map_err(|p| ScenarioError::at(format!("{path}.command"), p))?;
            check_timeline_command(&sim, &mut members, &c.command).map_err(|p| ScenarioError::at(path, p))?;
            sim.schedule_command(SimTime(c.at_ms), c.command.clone());
        }
        for p in &self.producers {
            for s in &p.send {
                sim.schedule_planned(p.name.clone(), s.topic.clone(), s.values.clone(), s.keys.clone(), s.start_ms, s.interval_ms);
            }
        }
        Ok(sim)
    }
}

/// Parses JSON text into `T`. An error names its place by JSON path and by line and
/// column (`topics[0].partitions (line 4, column 20)`) and says what is allowed in the
/// format's words ("a whole number from 0 to 4294967295", not "u32"). The CLI's `assign`
/// reads its input with it too.
pub fn parse_json<T: serde::de::DeserializeOwned>(text: &str) -> Result<T, ScenarioError> {
    read_json(text).map_err(|(path, e)| located(text, &path, &e))
}

fn located(text: &str, path: &str, e: &serde_json::Error) -> ScenarioError {
    let what = e.to_string();
    // serde_json appends " at line L column C"; the place is kept apart instead.
    let detail = what.split(" at line ").next().unwrap_or(&what);
    let line_column = Some((e.line(), e.column()));
    let (path, problem) = match e.classify() {
        // serde_json calls a number where an enum's string belongs a syntax error
        // ("expected value"), though the text is valid JSON.
        serde_json::error::Category::Syntax if !path.is_empty() && read_json::<serde::de::IgnoredAny>(text).is_ok() => {
            (path, JsonProblem::EnumAsNumber)
        }
        serde_json::error::Category::Syntax | serde_json::error::Category::Eof => ("", JsonProblem::Syntax { serde: detail.to_string() }),
        _ if path.is_empty() || path == "." => ("", JsonProblem::Shape { serde: plain_words(detail) }),
        _ => (path, JsonProblem::Shape { serde: plain_words(detail) }),
    };
    ScenarioError { path: path.to_string(), line_column, problem: Problem::Json(problem) }
}

/// serde's names for what it expected, in the words of the format.
fn plain_words(detail: &str) -> String {
    const WORDS: &[(&str, &str)] = &[
        ("expected u32", "expected a whole number from 0 to 4294967295"),
        ("expected u64", "expected a whole number from 0 to 18446744073709551615"),
        ("expected i32", "expected a whole number from -2147483648 to 2147483647"),
        ("expected i64", "expected a whole number from -9223372036854775808 to 9223372036854775807"),
        ("expected a boolean", "expected true or false"),
        ("expected a sequence", "expected an array [...]"),
        ("expected a tuple of size 2", "expected an array of two elements"),
        (
            "expected internally tagged enum Command",
            "expected a command object with a \"type\", such as {\"type\": \"crash_broker\", \"broker\": 0}",
        ),
        ("expected variant identifier", "expected one of the allowed values, as a JSON string (for acks: \"1\", not 1)"),
    ];
    let mut text = detail.to_string();
    for (serde, words) in WORDS {
        if let Some(start) = text.strip_suffix(serde).map(str::len) {
            text.replace_range(start.., words);
        }
    }
    // "expected struct TopicSpec" (or "... with 3 elements"): a JSON object.
    if let Some(start) = text.find("expected struct ") {
        text.replace_range(start.., "expected an object {...}");
    }
    text
}

/// Numbers a running simulation would cap silently, refused in a timeline instead.
fn check_timeline_limits(command: &Command) -> Result<(), Problem> {
    let (what, value) = match command {
        Command::Group(GroupCommand::SetProcessing { processing_ms, .. }) => (Capped::ProcessingMs, *processing_ms),
        Command::Broker(BrokerCommand::SlowBroker { slow_ms, .. }) => (Capped::SlowMs, *slow_ms),
        _ => return Ok(()),
    };
    if value > what.max() {
        return Err(Problem::Capped { what, value });
    }
    Ok(())
}

/// The ranges Kafka's `LogConfig` allows for the retention and segment settings (except
/// `segment.bytes`, see [`MIN_SEGMENT_BYTES`]).
fn check_retention(path: &str, t: &TopicSpec) -> Result<(), ScenarioError> {
    if t.retention_ms < -1 {
        return Err(ScenarioError::at(format!("{path}.retention_ms"), Problem::RetentionMs { value: t.retention_ms }));
    }
    if t.retention_bytes < -1 {
        return Err(ScenarioError::at(format!("{path}.retention_bytes"), Problem::RetentionBytes { value: t.retention_bytes }));
    }
    if !limits::TOPIC_SEGMENT_BYTES.allows(t.segment_bytes.into()) {
        return Err(ScenarioError::at(format!("{path}.segment_bytes"), Problem::SegmentBytes { value: t.segment_bytes }));
    }
    if !limits::TOPIC_SEGMENT_MS.allows(t.segment_ms) {
        return Err(ScenarioError::at(format!("{path}.segment_ms"), Problem::SegmentMs { value: t.segment_ms }));
    }
    check_compaction(path, t)
}

/// The log cleaner's topic settings (issue 19): the ratio between 0 and 1, the lags and
/// `delete.retention.ms` within their rows, and no topic named as an internal one.
fn check_compaction(path: &str, t: &TopicSpec) -> Result<(), ScenarioError> {
    use crate::error::CompactionProblem;
    if !t.min_cleanable_dirty_ratio.is_valid() {
        return Err(ScenarioError::at(
            format!("{path}.min_cleanable_dirty_ratio"),
            Problem::Compaction(CompactionProblem::DirtyRatio { value: t.min_cleanable_dirty_ratio }),
        ));
    }
    within(&format!("{path}.min_compaction_lag_ms"), t.min_compaction_lag_ms, &limits::TOPIC_MIN_COMPACTION_LAG_MS)?;
    within(&format!("{path}.max_compaction_lag_ms"), t.max_compaction_lag_ms, &limits::TOPIC_MAX_COMPACTION_LAG_MS)?;
    within(&format!("{path}.delete_retention_ms"), t.delete_retention_ms, &limits::TOPIC_DELETE_RETENTION_MS)?;
    if crate::cluster::INTERNAL_TOPICS.contains(&t.name.as_str()) {
        return Err(ScenarioError::at(
            format!("{path}.name"),
            Problem::Compaction(CompactionProblem::InternalTopicName { name: t.name.clone() }),
        ));
    }
    Ok(())
}

/// The static part of a timeline command's check: refused with the value `Sim::apply`
/// would refuse it with (`Problem::Command`), or, for the groups and members that exist by
/// the command's moment, the same value said "by then" (`Problem::ByThen`).
fn check_timeline_command(sim: &Sim, members: &mut VecMap<String, VecSet<String>>, command: &Command) -> Result<(), Problem> {
    // Kafka's topic naming rule first, as `Sim::apply` checks it.
    for topic in command.topic_names() {
        check_name(crate::command::NameOf::Topic, topic)?;
    }
    match command {
        Command::Produce(c) => check_timeline_produce(sim, c),
        Command::Broker(c) => check_timeline_broker(sim, c),
        Command::Topic(c) => check_timeline_topic(sim, c),
        Command::Group(c) => check_timeline_group(sim, members, c),
        Command::Connect(c) => check_timeline_connect(sim, c),
        Command::ShareGroup(c) => check_timeline_share_group(sim, c),
        Command::Txn(c) => check_timeline_txn(sim, members, c),
    }
}

/// Where `check_timeline_command`'s `members` keeps the producers the timeline adds
/// (`add_producer`): a key no group id can be (ids have no control character).
const TIMELINE_PRODUCERS: &str = "\u{1}producers";

/// A transactions command names a transactional producer, group or Streams application
/// that exists by then (a producer the timeline adds counts from its `add_producer` on);
/// `add_producer` itself passes the engine's checks.
fn check_timeline_txn(
    sim: &Sim,
    members: &mut VecMap<String, VecSet<String>>,
    command: &crate::command::TxnCommand,
) -> Result<(), Problem> {
    use crate::command::{TxnCommand as T, TxnRefusal};
    let producer_exists = |members: &VecMap<String, VecSet<String>>, producer: &String| -> Result<(), Problem> {
        match sim.producers().find(|p| p.name() == producer) {
            Some(p) if p.transactional_id().is_none() => {
                Err(CommandError::Txn(TxnRefusal::NotTransactional { producer: producer.clone() }).into())
            }
            Some(_) => Ok(()),
            None if members.get(TIMELINE_PRODUCERS).is_some_and(|s| s.contains(producer)) => Ok(()),
            None => Err(Problem::by_then(CommandError::UnknownProducer(producer.clone()))),
        }
    };
    match command {
        T::BeginTransaction { producer }
        | T::CommitTransaction { producer }
        | T::AbortTransaction { producer }
        | T::CrashProducer { producer }
        | T::RestartProducer { producer } => producer_exists(members, producer),
        T::SendOffsetsToTransaction { producer, group, client_id } => {
            producer_exists(members, producer)?;
            match members.get(group) {
                None => Err(Problem::by_then(CommandError::UnknownGroup(group.clone()))),
                Some(m) if !m.contains(client_id) => {
                    Err(Problem::by_then(CommandError::UnknownMember { group: group.clone(), client_id: client_id.clone() }))
                }
                Some(_) => Ok(()),
            }
        }
        T::AddProducer { producer, .. } => {
            if members.get(TIMELINE_PRODUCERS).is_some_and(|s| s.contains(producer)) {
                return Err(CommandError::Txn(TxnRefusal::DuplicateProducer { producer: producer.clone() }).into());
            }
            sim.validate_txn_command(command)?;
            members.entry(TIMELINE_PRODUCERS.to_string()).or_default().insert(producer.clone());
            Ok(())
        }
        T::SetIsolationLevel { group, .. } => {
            if members.contains_key(group) {
                Ok(())
            } else {
                Err(Problem::by_then(CommandError::UnknownGroup(group.clone())))
            }
        }
        T::SetProcessingGuarantee { .. } => sim.validate_txn_command(command).map_err(Problem::from),
    }
}

fn no_topic(topic: &str) -> Problem {
    Problem::from(CommandError::UnknownTopic(topic.to_string()))
}

fn no_producer(producer: &str) -> Problem {
    Problem::from(CommandError::UnknownProducer(producer.to_string()))
}

/// A producer's command names a producer (and a topic and partition) the scenario has.
fn check_timeline_produce(sim: &Sim, command: &ProduceCommand) -> Result<(), Problem> {
    match command {
        ProduceCommand::Produce { producer, topic, partition, key, value, headers } => {
            check_record_size(key.as_deref(), value.as_deref().unwrap_or(""), headers)?;
            if !sim.producers().any(|p| p.name() == producer) {
                return Err(no_producer(producer));
            }
            let Some(t) = sim.topic(topic) else { return Err(no_topic(topic)) };
            if let Some(p) = partition {
                if *p >= t.partition_count() {
                    let partitions = t.partition_count();
                    return Err(CommandError::PartitionOutOfRange { topic: topic.clone(), partition: *p, partitions }.into());
                }
            }
            Ok(())
        }
        ProduceCommand::SetAcks { producer, .. } | ProduceCommand::SetPartitioner { producer, .. } => {
            if !sim.producers().any(|p| p.name() == producer) {
                return Err(no_producer(producer));
            }
            Ok(())
        }
    }
}

/// A broker fault names a broker the cluster has: the engine's own check (the brokers
/// are fixed at build time, so what holds now holds by then).
fn check_timeline_broker(sim: &Sim, command: &BrokerCommand) -> Result<(), Problem> {
    sim.validate_broker_command(command).map_err(Problem::from)
}

/// A topic change names a topic the scenario has, within the topic's bounds.
fn check_timeline_topic(sim: &Sim, command: &TopicCommand) -> Result<(), Problem> {
    match command {
        TopicCommand::AddPartitions { topic, partitions } => {
            let Some(t) = sim.topic(topic) else { return Err(no_topic(topic)) };
            if *partitions <= t.partition_count() || *partitions > MAX_PARTITIONS {
                return Err(CommandError::PartitionCount { topic: topic.clone(), partitions: t.partition_count() }.into());
            }
            Ok(())
        }
        TopicCommand::SetTopicConfig { topic, min_insync_replicas, .. } => {
            let Some(t) = sim.topic(topic) else { return Err(no_topic(topic)) };
            if let Some(m) = min_insync_replicas {
                if *m == 0 || *m > t.replication_factor() {
                    return Err(CommandError::MinInsyncReplicas { topic: topic.clone(), replication_factor: t.replication_factor() }.into());
                }
            }
            Ok(())
        }
    }
}

/// A group command names a group and member that exist by then: `members` holds, per
/// group, the client ids the timeline has added and not removed so far.
fn check_timeline_group(sim: &Sim, members: &mut VecMap<String, VecSet<String>>, command: &GroupCommand) -> Result<(), Problem> {
    let no_group = |group: &String| Problem::by_then(CommandError::UnknownGroup(group.clone()));
    let no_member = |group: &String, client_id: &String| {
        Problem::by_then(CommandError::UnknownMember { group: group.clone(), client_id: client_id.clone() })
    };
    match command {
        GroupCommand::AddGroup { group } => {
            check_name(crate::command::NameOf::GroupId, &group.id)?;
            check_strategy(group.config.assignor)?;
            for m in &group.members {
                check_member_spec(&group.id, m)?;
            }
            if members.contains_key(&group.id) {
                return Err(Problem::by_then(CommandError::DuplicateGroup(group.id.clone())));
            }
            if let Some(t) = group.topics.iter().find(|t| sim.topic(t).is_none()) {
                return Err(no_topic(t));
            }
            members.insert(group.id.clone(), group.members.iter().map(|m| m.client_id.clone()).collect());
            Ok(())
        }
        GroupCommand::AddMember { group, member } => {
            check_member_spec(group, member)?;
            let Some(set) = members.get_mut(group) else { return Err(no_group(group)) };
            if !set.insert(member.client_id.clone()) {
                return Err(Problem::by_then(CommandError::DuplicateMember { group: group.clone(), client_id: member.client_id.clone() }));
            }
            Ok(())
        }
        GroupCommand::Seek { topic, .. } if sim.topic(topic).is_none() => Err(no_topic(topic)),
        GroupCommand::Subscribe { topics, client_id, .. } if topics.is_empty() => {
            Err(CommandError::EmptySubscription { client_id: client_id.clone() }.into())
        }
        GroupCommand::Subscribe { topics, .. } if topics.iter().any(|t| sim.topic(t).is_none()) => {
            let t = topics.iter().find(|t| sim.topic(t).is_none()).cloned().unwrap_or_default();
            Err(no_topic(&t))
        }
        GroupCommand::CrashMember { group, client_id }
        | GroupCommand::RestartMember { group, client_id }
        | GroupCommand::PauseMember { group, client_id, .. }
        | GroupCommand::SetProcessing { group, client_id, .. }
        | GroupCommand::Seek { group, client_id, .. }
        | GroupCommand::Subscribe { group, client_id, .. }
        | GroupCommand::SetCommitMode { group, client_id, .. } => {
            let Some(set) = members.get(group) else { return Err(no_group(group)) };
            if !set.contains(client_id) {
                return Err(no_member(group, client_id));
            }
            Ok(())
        }
        GroupCommand::RemoveMember { group, client_id } => {
            let Some(set) = members.get_mut(group) else { return Err(no_group(group)) };
            if !set.remove(client_id) {
                return Err(no_member(group, client_id));
            }
            Ok(())
        }
        GroupCommand::SetAssignor { group, assignor } => {
            check_strategy(*assignor)?;
            if !members.contains_key(group) {
                return Err(no_group(group));
            }
            Ok(())
        }
    }
}

/// A connector command names a connector the scenario has.
fn check_timeline_connect(sim: &Sim, command: &ConnectCommand) -> Result<(), Problem> {
    match command {
        ConnectCommand::CrashConnector { connector } | ConnectCommand::RestartConnector { connector } => {
            if sim.connector(connector).is_none() {
                return Err(CommandError::UnknownConnector(connector.clone()).into());
            }
            Ok(())
        }
    }
}

/// A share-group command's static part: a new share group's name, topics and settings, a
/// new member's settings. The groups and members it names are checked when it runs.
fn check_timeline_share_group(sim: &Sim, command: &crate::command::ShareGroupCommand) -> Result<(), Problem> {
    use crate::command::ShareGroupCommand as C;
    match command {
        C::AddShareGroup { share_group } => {
            crate::command::check_name(crate::command::NameOf::GroupId, &share_group.id)?;
            for t in &share_group.topics {
                if sim.topic(t).is_none() {
                    return Err(no_topic(t));
                }
            }
            crate::sim::check_share_config(&share_group.id, &share_group.config)?;
            for m in &share_group.members {
                crate::sim::check_share_member(&share_group.id, m)?;
            }
            Ok(())
        }
        C::AddShareMember { group, share_member } => Ok(crate::sim::check_share_member(group, share_member)?),
        C::RemoveShareMember { .. }
        | C::CrashShareMember { .. }
        | C::RestartShareMember { .. }
        | C::SetShareProcessing { .. }
        | C::SetAcknowledgementMode { .. }
        | C::SetAcknowledgeRule { .. } => Ok(()),
    }
}

/// The built-in scenarios, by name: the seed material's examples.
pub const BUILT_IN: &[(&str, &str)] = &[
    ("two-groups", include_str!("../scenarios/two-groups.json")),
    ("one-consumer", include_str!("../scenarios/one-consumer.json")),
    ("two-consumers", include_str!("../scenarios/two-consumers.json")),
    ("five-consumers", include_str!("../scenarios/five-consumers.json")),
    ("kip-848", include_str!("../scenarios/kip-848.json")),
    ("five-consumers-share", include_str!("../scenarios/five-consumers-share.json")),
    ("transactions", include_str!("../scenarios/transactions.json")),
];

/// A built-in scenario by name.
pub fn built_in(name: &str) -> Option<Result<Scenario, ScenarioError>> {
    BUILT_IN.iter().find(|(n, _)| *n == name).map(|(_, text)| Scenario::from_json(text))
}

/// The scenario the page opens with: the seed's two consumer groups.
pub fn default_scenario() -> Scenario {
    // The built-in files are tested to parse; an empty cluster is the fallback.
    built_in("two-groups").and_then(Result::ok).unwrap_or_else(|| Scenario {
        topics: vec![TopicSpec { name: "Topic01".into(), partitions: 4, ..TopicSpec::default() }],
        ..Scenario::default()
    })
}
