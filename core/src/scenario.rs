//! The versioned scenario format (JSON): cluster, topics, producers, groups and a
//! timeline of commands. Invalid input is rejected with a message saying what and where.
//! The format is documented in docs/scenario-format.md.

use crate::cluster::TopicConfig;
use crate::command::{check_name, Command, GroupSpec, MAX_VALUE_CHARS};
use crate::config::{ClusterConfig, ProducerConfig};
use crate::record::TimestampType;
use crate::sim::{check_member_spec, check_record_size, check_strategy, Sim};
use crate::time::SimTime;
use crate::vecmap::{VecMap, VecSet};
use serde::{Deserialize, Serialize};
use std::fmt;

/// The format version this build reads and writes.
pub const FORMAT_VERSION: u32 = 1;
/// Largest scenario text accepted, in bytes.
pub const MAX_SCENARIO_BYTES: usize = 1 << 20;
/// Most partitions a topic may have in the sandbox.
pub const MAX_PARTITIONS: u32 = 256;
pub const MAX_TOPICS: usize = 16;
/// Most brokers a cluster may have.
pub const MAX_BROKERS: u32 = 12;
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

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Scenario {
    /// Must be [`FORMAT_VERSION`].
    pub version: u32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// Seeds the simulation's RNG: same seed and commands, same run.
    #[serde(default)]
    pub seed: u64,
    #[serde(default)]
    pub cluster: ClusterConfig,
    pub topics: Vec<TopicSpec>,
    #[serde(default)]
    pub producers: Vec<ProducerSpec>,
    #[serde(default)]
    pub groups: Vec<GroupSpec>,
    /// Source connectors: a table whose rows become records (`sim/connect.rs`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub connectors: Vec<crate::sim::connect::ConnectorSpec>,
    /// Kafka Streams applications (`sim/streams.rs`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub streams: Vec<crate::sim::streams::StreamsSpec>,
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
            connectors: Vec::new(),
            streams: Vec::new(),
            commands: Vec::new(),
            duration_ms: None,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TopicSpec {
    pub name: String,
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
        }
    }
}

/// Smallest `segment.bytes` the sandbox accepts: Kafka's minimum before 4.0
/// (`LegacyRecord.RECORD_OVERHEAD_V0`). Kafka 4.0 requires 1048576 (KIP-1030) and keeps
/// smaller segments for its own tests (`internal.segment.bytes`).
pub const MIN_SEGMENT_BYTES: u32 = 14;

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

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ProducerSpec {
    pub name: String,
    #[serde(default)]
    pub config: ProducerConfig,
    /// Planned sends: shorthand for a series of `produce` commands.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub send: Vec<SendPlan>,
}

/// Sends `values` to `topic`, the first at `start_ms`, then one every `interval_ms`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SendPlan {
    pub topic: String,
    pub values: Vec<String>,
    /// Keys, one per value (`null` for a keyless record); all keyless when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub keys: Option<Vec<Option<String>>>,
    #[serde(default)]
    pub start_ms: u64,
    #[serde(default)]
    pub interval_ms: u64,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TimedCommand {
    pub at_ms: u64,
    pub command: Command,
}

/// What is wrong with a scenario, and where.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScenarioError {
    /// Where: a JSON path such as `groups[1].members[0]`, or a line and column.
    pub path: String,
    pub message: String,
}

impl ScenarioError {
    fn at(path: impl Into<String>, message: impl Into<String>) -> Self {
        Self { path: path.into(), message: message.into() }
    }
}

impl fmt::Display for ScenarioError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.path.is_empty() {
            f.write_str(&self.message)
        } else {
            write!(f, "{}: {}", self.path, self.message)
        }
    }
}

impl std::error::Error for ScenarioError {}

impl Scenario {
    /// Parses and checks a scenario.
    pub fn from_json(text: &str) -> Result<Scenario, ScenarioError> {
        if text.len() > MAX_SCENARIO_BYTES {
            return Err(ScenarioError::at("", format!("the scenario is {} bytes; the most accepted is {MAX_SCENARIO_BYTES}", text.len())));
        }
        // Read the version first, so a newer file gets a clear message rather than a
        // complaint about some field this build does not know.
        let parsed = read_json::<serde_json::Value>(text);
        if let Ok(v) = &parsed {
            if !v.is_object() {
                return Err(ScenarioError::at("", "a scenario is a JSON object: { \"version\": 1, \"topics\": [...], ... }"));
            }
        }
        if let Ok(serde_json::Value::Object(map)) = parsed {
            match map.get("version") {
                Some(serde_json::Value::Number(n)) if n.as_u64() == Some(u64::from(FORMAT_VERSION)) => {}
                Some(serde_json::Value::Number(n)) => {
                    return Err(ScenarioError::at(
                        "version",
                        format!("version {n} is not supported; this build reads version {FORMAT_VERSION}"),
                    ))
                }
                Some(v) => {
                    return Err(ScenarioError::at(
                        "version",
                        format!("is {}; write the number {FORMAT_VERSION}: \"version\": {FORMAT_VERSION}", write_json(v, false)),
                    ))
                }
                None => return Err(ScenarioError::at("version", format!("missing; write \"version\": {FORMAT_VERSION}"))),
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

    /// Checks what can be checked without running: names, sizes, references.
    pub fn check(&self) -> Result<(), ScenarioError> {
        if self.version != FORMAT_VERSION {
            return Err(ScenarioError::at(
                "version",
                format!("version {} is not supported; this build reads version {FORMAT_VERSION}", self.version),
            ));
        }
        let c = &self.cluster;
        within("cluster.brokers", c.brokers.into(), 1, MAX_BROKERS.into(), "")?;
        within("cluster.replica_lag_time_max_ms", c.replica_lag_time_max_ms, 1, MAX_TIME_MS, " (one week)")?;
        within("cluster.broker_session_timeout_ms", c.broker_session_timeout_ms, 1, 3_600_000, " (one hour)")?;
        within("cluster.replica_fetch_wait_max_ms", c.replica_fetch_wait_max_ms, 1, 60_000, "")?;
        within("cluster.network_latency_ms", c.network_latency_ms, 0, 60_000, "")?;
        within("cluster.group_initial_rebalance_delay_ms", c.group_initial_rebalance_delay_ms, 0, 300_000, "")?;
        within(
            "cluster.group_consumer_heartbeat_interval_ms",
            c.group_consumer_heartbeat_interval_ms,
            100,
            60_000,
            " (Kafka's own bounds are 5000-15000 unless group.consumer.min/max.heartbeat.interval.ms change)",
        )?;
        within(
            "cluster.group_consumer_session_timeout_ms",
            c.group_consumer_session_timeout_ms,
            1000,
            1_800_000,
            " (Kafka's own bounds are 45000-60000)",
        )?;
        if c.group_consumer_session_timeout_ms <= c.group_consumer_heartbeat_interval_ms {
            return Err(ScenarioError::at(
                "cluster.group_consumer_session_timeout_ms",
                format!(
                    "is {}; it must be above group_consumer_heartbeat_interval_ms ({})",
                    c.group_consumer_session_timeout_ms, c.group_consumer_heartbeat_interval_ms
                ),
            ));
        }
        within(
            "cluster.log_retention_check_interval_ms",
            c.log_retention_check_interval_ms,
            1,
            MAX_TIME_MS,
            " (log.retention.check.interval.ms is at least 1)",
        )?;
        if let Some(d) = self.duration_ms {
            within("duration_ms", d, 0, MAX_TIME_MS, " (one week)")?;
        }
        if self.topics.is_empty() {
            return Err(ScenarioError::at("topics", "a scenario needs at least one topic"));
        }
        if self.topics.len() > MAX_TOPICS {
            return Err(ScenarioError::at("topics", format!("{} topics; allowed: 1 to {MAX_TOPICS}", self.topics.len())));
        }
        let mut topics = VecMap::new();
        for (i, t) in self.topics.iter().enumerate() {
            let path = format!("topics[{i}]");
            check_name("the topic name", &t.name).map_err(|e| ScenarioError::at(format!("{path}.name"), e.to_string()))?;
            if !(1..=MAX_PARTITIONS).contains(&t.partitions) {
                return Err(ScenarioError::at(
                    format!("{path}.partitions"),
                    format!("topic \"{}\" has {} partitions; allowed: 1 to {MAX_PARTITIONS}", t.name, t.partitions),
                ));
            }
            if !(1..=self.cluster.brokers.max(1)).contains(&t.replication_factor) {
                return Err(ScenarioError::at(
                    format!("{path}.replication_factor"),
                    format!(
                        "topic \"{}\" asks for {} replicas but the cluster has {} broker(s)",
                        t.name, t.replication_factor, self.cluster.brokers
                    ),
                ));
            }
            if !(1..=t.replication_factor).contains(&t.min_insync_replicas) {
                return Err(ScenarioError::at(
                    format!("{path}.min_insync_replicas"),
                    format!("is {}; allowed: 1 to the replication factor ({})", t.min_insync_replicas, t.replication_factor),
                ));
            }
            check_retention(&path, t)?;
            if topics.insert(t.name.as_str(), t.partitions).is_some() {
                return Err(ScenarioError::at(format!("{path}.name"), format!("topic \"{}\" is defined twice", t.name)));
            }
        }
        if self.producers.len() > MAX_PRODUCERS {
            return Err(ScenarioError::at("producers", format!("{} producers; allowed: at most {MAX_PRODUCERS}", self.producers.len())));
        }
        let mut producers = VecSet::new();
        let mut timeline = 0usize;
        for (i, p) in self.producers.iter().enumerate() {
            let path = format!("producers[{i}]");
            check_name("the producer name", &p.name).map_err(|e| ScenarioError::at(format!("{path}.name"), e.to_string()))?;
            if !producers.insert(p.name.as_str()) {
                return Err(ScenarioError::at(format!("{path}.name"), format!("producer \"{}\" is defined twice", p.name)));
            }
            within(&format!("{path}.config.linger_ms"), p.config.linger_ms, 0, 60_000, "")?;
            for (name, v) in [
                ("retry_backoff_ms", p.config.retry_backoff_ms),
                ("retry_backoff_max_ms", p.config.retry_backoff_max_ms),
                ("request_timeout_ms", p.config.request_timeout_ms),
                ("delivery_timeout_ms", p.config.delivery_timeout_ms),
            ] {
                within(&format!("{path}.config.{name}"), v, 1, MAX_TIME_MS, " (one week)")?;
            }
            if p.config.max_in_flight_requests_per_connection == 0 {
                return Err(ScenarioError::at(
                    format!("{path}.config.max_in_flight_requests_per_connection"),
                    "is 0; allowed: 1 or more (max.in.flight.requests.per.connection is at least 1)",
                ));
            }
            within(&format!("{path}.config.batch_size"), p.config.batch_size.into(), 1, 16 * 1024 * 1024, "")?;
            for (j, s) in p.send.iter().enumerate() {
                let path = format!("{path}.send[{j}]");
                if !topics.contains_key(s.topic.as_str()) {
                    return Err(ScenarioError::at(format!("{path}.topic"), format!("there is no topic named \"{}\"", s.topic)));
                }
                if let Some(keys) = &s.keys {
                    if keys.len() != s.values.len() {
                        return Err(ScenarioError::at(
                            format!("{path}.keys"),
                            format!("{} keys for {} values; give one key (or null) per value", keys.len(), s.values.len()),
                        ));
                    }
                }
                let long = |v: &String| v.chars().count() > MAX_VALUE_CHARS;
                if s.values.iter().any(long) || s.keys.iter().flatten().flatten().any(long) {
                    return Err(ScenarioError::at(path, format!("keys and values may have at most {MAX_VALUE_CHARS} characters")));
                }
                timeline += s.values.len();
                let last = s.interval_ms.saturating_mul(s.values.len().saturating_sub(1) as u64).saturating_add(s.start_ms);
                if last > MAX_TIME_MS {
                    return Err(ScenarioError::at(
                        path,
                        format!("the last value would be sent at {last} ms; everything must happen by {MAX_TIME_MS} ms (one week)"),
                    ));
                }
            }
        }
        crate::sim::connect::check_connectors(&self.connectors, &topics, &producers)?;
        crate::sim::streams::check_streams(&self.streams, &topics, &producers, &self.groups)?;
        timeline += self.connectors.iter().map(|c| c.table.changes.len()).sum::<usize>();
        timeline += self.commands.len();
        if timeline > MAX_TIMELINE {
            return Err(ScenarioError::at(
                "commands",
                format!(
                    "{timeline} timeline entries ({}); allowed: at most {MAX_TIMELINE}",
                    if self.connectors.is_empty() { "commands plus planned sends" } else { "commands, planned sends and table changes" }
                ),
            ));
        }
        // Written out, every default is filled in: a short text can grow past the limit
        // (thousands of timeline members), and then what was loaded could not be loaded again.
        let written = write_json(self, false).len();
        if written > MAX_SCENARIO_BYTES {
            return Err(ScenarioError::at(
                "",
                format!(
                    "written out with every default filled in, the scenario takes {} bytes; the most accepted is {MAX_SCENARIO_BYTES} (use fewer timeline entries)",
                    written
                ),
            ));
        }
        // Groups and commands are checked by building the cluster for real.
        self.build().map(|_| ())
    }

    /// Builds the simulation at time zero with everything scheduled.
    pub fn build(&self) -> Result<Sim, ScenarioError> {
        let mut sim = Sim::new(self.seed, self.cluster.clone());
        for t in &self.topics {
            sim.add_topic(&t.name, t.partitions, t.replication_factor, t.config());
        }
        for p in &self.producers {
            sim.add_producer(&p.name, p.config.clone());
        }
        for (i, g) in self.groups.iter().enumerate() {
            sim.apply_unlogged(Command::AddGroup { group: g.clone() })
                .map_err(|e| ScenarioError::at(format!("groups[{i}]"), e.to_string()))?;
        }
        for c in &self.connectors {
            sim.add_connector(c.clone());
        }
        for (i, s) in self.streams.iter().enumerate() {
            sim.add_streams(s.clone()).map_err(|e| ScenarioError::at(format!("streams[{i}]"), e.to_string()))?;
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
            within(&format!("{path}.at_ms"), c.at_ms, 0, MAX_TIME_MS, " (one week)")?;
            check_timeline_limits(&c.command).map_err(|m| ScenarioError::at(format!("{path}.command"), m))?;
            check_timeline_command(&sim, &mut members, &c.command).map_err(|m| ScenarioError::at(path, m))?;
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

/// The crate's one typed JSON reader: every text (a scenario, a share link's run, a saved
/// file) goes through this one serde deserializer type, so each derived `Deserialize`
/// exists once in the page's wasm instead of once per reader (BENCHMARKS.md, "Bundle").
/// The error is serde_json's, with the JSON path where it happened (empty if none).
pub fn read_json<T: serde::de::DeserializeOwned>(text: &str) -> Result<T, (String, serde_json::Error)> {
    let mut de = serde_json::Deserializer::from_str(text);
    let value = T::deserialize(&mut de).map_err(|e| (json_path_at(text, e.line(), e.column()), e))?;
    de.end().map_err(|e| (String::new(), e))?;
    Ok(value)
}

/// The JSON path (`topics[0].partitions`; `.` at the top level) of what serde_json was
/// reading when it stopped at `line`/`column`, found by scanning the text up to there.
///
/// Why not `serde_path_to_error`, which tracks the path while reading: it wraps every
/// derived `Deserialize` in a second copy, 17.5 KB of the page's gzipped wasm
/// (BENCHMARKS.md, "Bundle"). The names are the same as its (a test compares them): a key
/// stays on the path from its name to the `,` or `}` after its value, an array index from
/// its element's start to the next `,` or `]`. serde_json stops just after what it could not
/// take: a key it does not know, a value of the wrong type, the `}` of an object missing a
/// field. One difference: an error between a key and its value that is not about the key
/// (a duplicate field) names the key too, where serde_path_to_error names the object.
fn json_path_at(text: &str, line: usize, column: usize) -> String {
    /// An object (the key being read, and whether the next string is a key) or an array
    /// (the index of the element being read, and whether it has begun).
    enum Frame {
        Object(Option<String>, bool),
        Array(usize, bool),
    }
    if line == 0 {
        // No place: an error made outside serde_json's reading (the top level of an
        // internally tagged enum, read from serde's buffer).
        return ".".to_string();
    }
    let bytes = text.as_bytes();
    // serde_json's column is the byte offset in the line of the next byte it would read.
    let line_start = if line == 1 {
        0
    } else {
        match bytes.iter().enumerate().filter(|(_, b)| **b == b'\n').nth(line - 2) {
            Some((i, _)) => i + 1,
            None => return String::new(),
        }
    };
    let end = (line_start + column).min(bytes.len());
    let mut stack: Vec<Frame> = Vec::new();
    let mut i = 0;
    while i < end {
        if let Some(Frame::Array(_, begun)) = stack.last_mut() {
            *begun |= !matches!(bytes[i], b' ' | b'\t' | b'\n' | b'\r' | b',' | b']');
        }
        match bytes[i] {
            b'"' => {
                let start = i;
                i += 1;
                while i < bytes.len() && bytes[i] != b'"' {
                    i += if bytes[i] == b'\\' { 2 } else { 1 };
                }
                if let Some(Frame::Object(key, true)) = stack.last_mut() {
                    let quoted = text.get(start..=i).unwrap_or_default();
                    *key = Some(serde_json::from_str(quoted).unwrap_or_else(|_| quoted.trim_matches('"').to_string()));
                }
            }
            b'{' => stack.push(Frame::Object(None, true)),
            b'[' => stack.push(Frame::Array(0, false)),
            b'}' | b']' => {
                stack.pop();
            }
            b',' => match stack.last_mut() {
                Some(Frame::Object(key, is_key)) => (*key, *is_key) = (None, true),
                Some(Frame::Array(index, begun)) => (*index, *begun) = (*index + 1, false),
                None => {}
            },
            b':' => {
                if let Some(Frame::Object(_, is_key)) = stack.last_mut() {
                    *is_key = false;
                }
            }
            _ => {}
        }
        i += 1;
    }
    let mut path = String::new();
    for frame in &stack {
        match frame {
            Frame::Object(Some(key), _) => {
                if !path.is_empty() {
                    path.push('.');
                }
                path.push_str(key);
            }
            Frame::Object(None, _) | Frame::Array(_, false) => {}
            Frame::Array(index, true) => {
                path.push('[');
                path.push_str(&index.to_string());
                path.push(']');
            }
        }
    }
    if path.is_empty() {
        path.push('.');
    }
    path
}

/// The crate's one JSON writer: the same bytes as `serde_json::to_string` (compact) or
/// `to_string_pretty` (two-space indent), through one serializer type, so each derived
/// `Serialize` exists once in the page's wasm (BENCHMARKS.md, "Bundle"). Empty if
/// serialisation fails (as `to_string(..).unwrap_or_default()`).
pub fn write_json<T: Serialize + ?Sized>(value: &T, pretty: bool) -> String {
    let mut out = Vec::with_capacity(256);
    let layout = Layout { pretty, depth: 0, has_value: false };
    if value.serialize(&mut serde_json::Serializer::with_formatter(&mut out, layout)).is_err() {
        return String::new();
    }
    String::from_utf8(out).unwrap_or_default()
}

/// serde_json's `CompactFormatter` or `PrettyFormatter`, chosen at run time.
struct Layout {
    pretty: bool,
    depth: usize,
    has_value: bool,
}

impl Layout {
    fn open<W: ?Sized + std::io::Write>(&mut self, w: &mut W, bracket: &[u8]) -> std::io::Result<()> {
        self.depth += 1;
        self.has_value = false;
        w.write_all(bracket)
    }

    fn close<W: ?Sized + std::io::Write>(&mut self, w: &mut W, bracket: &[u8]) -> std::io::Result<()> {
        self.depth -= 1;
        if self.pretty && self.has_value {
            w.write_all(b"\n")?;
            self.indent(w)?;
        }
        w.write_all(bracket)
    }

    fn item<W: ?Sized + std::io::Write>(&mut self, w: &mut W, first: bool) -> std::io::Result<()> {
        if self.pretty {
            w.write_all(if first { b"\n" } else { b",\n" })?;
            self.indent(w)
        } else if first {
            Ok(())
        } else {
            w.write_all(b",")
        }
    }

    fn indent<W: ?Sized + std::io::Write>(&self, w: &mut W) -> std::io::Result<()> {
        for _ in 0..self.depth {
            w.write_all(b"  ")?;
        }
        Ok(())
    }
}

impl serde_json::ser::Formatter for Layout {
    fn begin_array<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.open(w, b"[")
    }

    fn end_array<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.close(w, b"]")
    }

    fn begin_array_value<W: ?Sized + std::io::Write>(&mut self, w: &mut W, first: bool) -> std::io::Result<()> {
        self.item(w, first)
    }

    fn end_array_value<W: ?Sized + std::io::Write>(&mut self, _w: &mut W) -> std::io::Result<()> {
        self.has_value = true;
        Ok(())
    }

    fn begin_object<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.open(w, b"{")
    }

    fn end_object<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.close(w, b"}")
    }

    fn begin_object_key<W: ?Sized + std::io::Write>(&mut self, w: &mut W, first: bool) -> std::io::Result<()> {
        self.item(w, first)
    }

    fn begin_object_value<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        w.write_all(if self.pretty { b": " } else { b":" })
    }

    fn end_object_value<W: ?Sized + std::io::Write>(&mut self, _w: &mut W) -> std::io::Result<()> {
        self.has_value = true;
        Ok(())
    }
}

fn located(text: &str, path: &str, e: &serde_json::Error) -> ScenarioError {
    let what = e.to_string();
    // serde_json appends " at line L column C"; the place goes first instead.
    let detail = what.split(" at line ").next().unwrap_or(&what);
    let place = format!("line {}, column {}", e.line(), e.column());
    match e.classify() {
        // serde_json calls a number where an enum's string belongs a syntax error
        // ("expected value"), though the text is valid JSON.
        serde_json::error::Category::Syntax if !path.is_empty() && read_json::<serde::de::IgnoredAny>(text).is_ok() => {
            ScenarioError::at(format!("{path} ({place})"), "expected one of the allowed values, as a JSON string (for acks: \"1\", not 1)")
        }
        serde_json::error::Category::Syntax | serde_json::error::Category::Eof => {
            ScenarioError::at(place, format!("not valid JSON ({detail})"))
        }
        _ if path.is_empty() || path == "." => ScenarioError::at(place, plain_words(detail)),
        _ => ScenarioError::at(format!("{path} ({place})"), plain_words(detail)),
    }
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

/// A number outside `lo..=hi` is refused with its place, its value and the range.
fn within(path: &str, value: u64, lo: u64, hi: u64, note: &str) -> Result<(), ScenarioError> {
    if (lo..=hi).contains(&value) {
        return Ok(());
    }
    Err(ScenarioError::at(path, format!("is {value}; allowed: {lo} to {hi}{note}")))
}

/// Numbers a running simulation would cap silently, refused in a timeline instead.
fn check_timeline_limits(command: &Command) -> Result<(), String> {
    match command {
        Command::SetProcessing { processing_ms, .. } if *processing_ms > MAX_PROCESSING_MS => {
            Err(format!("processing_ms is {processing_ms}; allowed: 0 to {MAX_PROCESSING_MS} (one hour per record)"))
        }
        Command::SlowBroker { slow_ms, .. } if *slow_ms > MAX_SLOW_MS => {
            Err(format!("slow_ms is {slow_ms}; allowed: 0 to {MAX_SLOW_MS} (one hour)"))
        }
        _ => Ok(()),
    }
}

/// The ranges Kafka's `LogConfig` allows for the retention and segment settings (except
/// `segment.bytes`, see [`MIN_SEGMENT_BYTES`]).
fn check_retention(path: &str, t: &TopicSpec) -> Result<(), ScenarioError> {
    if t.retention_ms < -1 {
        return Err(ScenarioError::at(
            format!("{path}.retention_ms"),
            format!("is {}; allowed: -1 (no time limit) or 0 and more milliseconds", t.retention_ms),
        ));
    }
    if t.retention_bytes < -1 {
        return Err(ScenarioError::at(
            format!("{path}.retention_bytes"),
            format!("is {}; allowed: -1 (no size limit) or 0 and more bytes per partition", t.retention_bytes),
        ));
    }
    if !(MIN_SEGMENT_BYTES..=i32::MAX as u32).contains(&t.segment_bytes) {
        return Err(ScenarioError::at(
            format!("{path}.segment_bytes"),
            format!("is {}; allowed: {MIN_SEGMENT_BYTES} to {}", t.segment_bytes, i32::MAX),
        ));
    }
    if !(1..=i64::MAX as u64).contains(&t.segment_ms) {
        return Err(ScenarioError::at(
            format!("{path}.segment_ms"),
            format!("is {}; allowed: 1 to {} milliseconds", t.segment_ms, i64::MAX),
        ));
    }
    Ok(())
}

/// The static part of a timeline command's check.
fn check_timeline_command(sim: &Sim, members: &mut VecMap<String, VecSet<String>>, command: &Command) -> Result<(), String> {
    match command {
        Command::Produce { producer, topic, partition, key, value, headers } => {
            check_record_size(key.as_deref(), value, headers).map_err(|e| e.to_string())?;
            if !sim.producers().any(|p| &p.name == producer) {
                return Err(format!("there is no producer named \"{producer}\""));
            }
            let Some(t) = sim.topic(topic) else { return Err(format!("there is no topic named \"{topic}\"")) };
            if let Some(p) = partition {
                if *p >= t.partition_count() {
                    return Err(format!("topic \"{topic}\" has no partition {p}"));
                }
            }
            Ok(())
        }
        Command::AddGroup { group } => {
            check_name("a group id", &group.id).map_err(|e| e.to_string())?;
            check_strategy(group.config.assignor).map_err(|e| e.to_string())?;
            for m in &group.members {
                check_member_spec(&group.id, m).map_err(|e| e.to_string())?;
            }
            if members.contains_key(&group.id) {
                return Err(format!("a consumer group \"{}\" already exists by then", group.id));
            }
            for t in &group.topics {
                if sim.topic(t).is_none() {
                    return Err(format!("there is no topic named \"{t}\""));
                }
            }
            members.insert(group.id.clone(), group.members.iter().map(|m| m.client_id.clone()).collect());
            Ok(())
        }
        Command::AddMember { group, member } => {
            check_member_spec(group, member).map_err(|e| e.to_string())?;
            let Some(set) = members.get_mut(group) else { return Err(format!("there is no consumer group \"{group}\" by then")) };
            if !set.insert(member.client_id.clone()) {
                return Err(format!("group \"{group}\" already has a member \"{}\" by then", member.client_id));
            }
            Ok(())
        }
        Command::Seek { topic, .. } if sim.topic(topic).is_none() => Err(format!("there is no topic named \"{topic}\"")),
        Command::Subscribe { topics, .. } if topics.is_empty() => Err("subscribe needs at least one topic".into()),
        Command::Subscribe { topics, .. } if topics.iter().any(|t| sim.topic(t).is_none()) => {
            let t = topics.iter().find(|t| sim.topic(t).is_none()).cloned().unwrap_or_default();
            Err(format!("there is no topic named \"{t}\""))
        }
        Command::CrashMember { group, client_id }
        | Command::RestartMember { group, client_id }
        | Command::PauseMember { group, client_id, .. }
        | Command::SetProcessing { group, client_id, .. }
        | Command::Seek { group, client_id, .. }
        | Command::Subscribe { group, client_id, .. }
        | Command::SetCommitMode { group, client_id, .. } => {
            let Some(set) = members.get(group) else { return Err(format!("there is no consumer group \"{group}\" by then")) };
            if !set.contains(client_id) {
                return Err(format!("group \"{group}\" has no member \"{client_id}\" by then"));
            }
            Ok(())
        }
        Command::RemoveMember { group, client_id } => {
            let Some(set) = members.get_mut(group) else { return Err(format!("there is no consumer group \"{group}\" by then")) };
            if !set.remove(client_id) {
                return Err(format!("group \"{group}\" has no member \"{client_id}\" by then"));
            }
            Ok(())
        }
        Command::CrashBroker { broker }
        | Command::RestartBroker { broker }
        | Command::IsolateBroker { broker }
        | Command::HealBroker { broker }
        | Command::SlowBroker { broker, .. } => {
            if sim.broker(*broker).is_none() {
                return Err(format!("there is no broker {broker}"));
            }
            Ok(())
        }
        Command::AddPartitions { topic, partitions } => {
            let Some(t) = sim.topic(topic) else { return Err(format!("there is no topic named \"{topic}\"")) };
            if *partitions <= t.partition_count() || *partitions > MAX_PARTITIONS {
                return Err(format!("partitions must be more than {} and at most {MAX_PARTITIONS}", t.partition_count()));
            }
            Ok(())
        }
        Command::SetTopicConfig { topic, min_insync_replicas, .. } => {
            let Some(t) = sim.topic(topic) else { return Err(format!("there is no topic named \"{topic}\"")) };
            if let Some(m) = min_insync_replicas {
                if *m == 0 || *m > t.replication_factor() {
                    return Err(format!("min_insync_replicas must be between 1 and {}", t.replication_factor()));
                }
            }
            Ok(())
        }
        Command::SetAcks { producer, .. } | Command::SetPartitioner { producer, .. } => {
            if !sim.producers().any(|p| &p.name == producer) {
                return Err(format!("there is no producer named \"{producer}\""));
            }
            Ok(())
        }
        Command::CrashConnector { connector } | Command::RestartConnector { connector } => {
            if sim.connector(connector).is_none() {
                return Err(format!("there is no connector named \"{connector}\""));
            }
            Ok(())
        }
        Command::SetAssignor { group, assignor } => {
            check_strategy(*assignor).map_err(|e| e.to_string())?;
            if !members.contains_key(group) {
                return Err(format!("there is no consumer group \"{group}\" by then"));
            }
            Ok(())
        }
    }
}

/// The built-in scenarios, by name: the seed material's examples.
pub const BUILT_IN: &[(&str, &str)] = &[
    ("two-groups", include_str!("../scenarios/two-groups.json")),
    ("one-consumer", include_str!("../scenarios/one-consumer.json")),
    ("two-consumers", include_str!("../scenarios/two-consumers.json")),
    ("five-consumers", include_str!("../scenarios/five-consumers.json")),
    ("kip-848", include_str!("../scenarios/kip-848.json")),
];

/// A built-in scenario by name.
pub fn built_in(name: &str) -> Option<Result<Scenario, ScenarioError>> {
    BUILT_IN.iter().find(|(n, _)| *n == name).map(|(_, text)| Scenario::from_json(text))
}

/// The scenario the page opens with: the seed's two consumer groups.
pub fn default_scenario() -> Scenario {
    // The built-in files are tested to parse; an empty cluster is the fallback.
    built_in("two-groups").and_then(Result::ok).unwrap_or_else(|| Scenario {
        version: FORMAT_VERSION,
        name: None,
        description: None,
        seed: 0,
        cluster: ClusterConfig::default(),
        topics: vec![TopicSpec { name: "Topic01".into(), partitions: 4, ..TopicSpec::default() }],
        producers: Vec::new(),
        groups: Vec::new(),
        connectors: Vec::new(),
        streams: Vec::new(),
        commands: Vec::new(),
        duration_ms: None,
    })
}

#[cfg(test)]
mod json_path_tests {
    use super::*;
    use crate::command::Command;
    use serde_json::Value;

    /// serde_path_to_error's path for the same text (the reference).
    fn reference<T: serde::de::DeserializeOwned>(text: &str) -> Option<String> {
        let mut de = serde_json::Deserializer::from_str(text);
        serde_path_to_error::deserialize::<_, T>(&mut de).err().map(|e| e.path().to_string())
    }

    /// Every way of breaking one place of a value: each key removed, an unknown key added
    /// to each object, each value replaced by a value of another type.
    fn broken(v: &Value) -> Vec<Value> {
        let mut out = Vec::new();
        let wrong = [Value::from("x"), Value::from(7), Value::from(-1), Value::Bool(true), Value::Array(vec![]), serde_json::json!({})];
        match v {
            Value::Object(map) => {
                let mut extra = map.clone();
                extra.insert("not_a_field".into(), Value::from(1));
                out.push(Value::Object(extra));
                for (k, child) in map {
                    let mut without = map.clone();
                    without.remove(k);
                    out.push(Value::Object(without));
                    for w in &wrong {
                        if std::mem::discriminant(w) != std::mem::discriminant(child) {
                            let mut m = map.clone();
                            m.insert(k.clone(), w.clone());
                            out.push(Value::Object(m));
                        }
                    }
                    for c in broken(child) {
                        let mut m = map.clone();
                        m.insert(k.clone(), c);
                        out.push(Value::Object(m));
                    }
                }
            }
            Value::Array(items) => {
                for (i, child) in items.iter().enumerate().take(3) {
                    for c in broken(child) {
                        let mut a = items.clone();
                        a[i] = c;
                        out.push(Value::Array(a));
                    }
                }
            }
            _ => {}
        }
        out
    }

    #[test]
    fn paths_are_serde_path_to_errors_for_every_broken_place() {
        let every: Value = serde_json::from_str(include_str!("../../tests/golden/every-feature.json")).unwrap();
        let mut checked = 0;
        for (pretty, value) in [(true, &every), (false, &every)] {
            for b in broken(value) {
                let text = if pretty { serde_json::to_string_pretty(&b).unwrap() } else { serde_json::to_string(&b).unwrap() };
                let ours = read_json::<Scenario>(&text).err().map(|(path, _)| path);
                assert_eq!(ours, reference::<Scenario>(&text), "{text}");
                checked += usize::from(ours.is_some());
            }
        }
        assert!(checked > 1000, "only {checked} broken scenarios");
    }

    #[test]
    fn paths_of_commands_and_of_text_that_is_not_json() {
        let cases = [
            r#"{"type": "crash_broker", "broker": "zero"}"#,
            r#"{"broker": 0, "type": "crash_brokr"}"#,
            r#"{"type": "produce", "producer": "p", "topic": "t", "value": "v", "headers": [{"key": 1}]}"#,
            r#"{"type": "add_member", "group": "g", "member": {"client_id": "c", "config": {"session_timeout_ms": -5}}}"#,
            r#"{"type": "add_member", "group": "g", "member": {"client_id": "c", "oops": 1}}"#,
            r#"{"type": "seek", "group": "g", "client_id": "c", "topic": "t", "partition": 0, "to": {"kind": "offset"}}"#,
            "[]",
            "7",
            r#"{"type": "crash_broker", "broker": 0,}"#,
            r#"{"type": "crash_broker" "broker": 0}"#,
            "{\"type\": \"produce\", \"producer\": \"p\\\"q\", \"topic\": \"t\", \"value\": 5}",
        ];
        for text in cases {
            let ours = read_json::<Command>(text).err().map(|(path, e)| (path, e.classify()));
            let Some((path, class)) = ours else { panic!("{text} was read") };
            // Syntax errors: the path is not shown, and not compared.
            if class != serde_json::error::Category::Syntax {
                assert_eq!(Some(path), reference::<Command>(text), "{text}");
            }
        }
        let array = r#"[{"type": "crash_broker", "broker": 0}, {"type": "crash_broker", "broker": "x"}]"#;
        assert_eq!(read_json::<Vec<Command>>(array).err().map(|(p, _)| p), Some("[1].broker".to_string()));
        assert_eq!(reference::<Vec<Command>>(array), Some("[1].broker".to_string()));
    }

    #[test]
    fn a_message_names_the_path_line_and_column() {
        let every = include_str!("../../tests/golden/every-feature.json");
        let line = 1 + every.lines().position(|l| l.contains("\"brokers\": 4")).unwrap();
        let text = every.replacen("\"brokers\": 4", "\"brokers\": \"four\"", 1);
        let e = Scenario::from_json(&text).unwrap_err().to_string();
        let column = every.lines().nth(line - 1).unwrap().find('4').unwrap() + "\"four\"".len();
        let expected = format!("cluster.brokers (line {line}, column {column}): invalid type: string \"four\", expected a whole number");
        assert!(e.starts_with(&expected), "{e}\nexpected {expected}");
    }
}
