//! The bridge to a real cluster: for any scenario, what a person would run against Apache
//! Kafka 4.x to try the same experiment — a `compose.yaml` for the scenario's brokers
//! (KRaft, the official `apache/kafka` image, a dedicated controller as the sandbox's), then the
//! Kafka tools' command lines in order (`kafka-topics.sh --create`, the consumers and
//! producers as `kafka-console-consumer.sh` / `kafka-console-producer.sh` or
//! `kafka-producer-perf-test.sh`, the timeline's faults as `docker compose kill/stop/start`,
//! `kafka-consumer-groups.sh --describe` to compare), each with what the sandbox predicts.
//! The page shows it ("Try it on real Kafka") and `kafka-sandbox bridge` prints it.
//!
//! Every client runs in a `tools` container of the same image, so nothing but Docker is
//! needed and a broker's crash takes no client down with it. What the tools cannot
//! express (a stuck application, a slow follower, an explicit partition from the console
//! producer, a Streams app) is said, not faked. [`properties`] reads a pasted client
//! configuration; [`describe`] lays a group out as `kafka-consumer-groups.sh --describe`.

pub mod describe;
pub mod properties;

use crate::command::{BrokerCommand, Command, ConnectCommand, GroupCommand, MemberSpec, ProduceCommand, TopicCommand};
use crate::config::{Acks, CommitMode, GroupProtocol, OffsetReset, PartitionerKind, Strategy};
use crate::record::TopicPartition;
use crate::scenario::Scenario;
use crate::SimTime;
use std::fmt;

/// The compose project's name: its network is `kafka-sandbox_default`.
pub const PROJECT: &str = "kafka-sandbox";
/// The cluster id every broker is formatted with (any 22-character base64 UUID; this one is
/// the official examples').
pub const CLUSTER_ID: &str = "4L6g3nShT-eMCtK--X86sw";
/// Where the tools are in the official image.
pub const BIN: &str = "/opt/kafka/bin";
/// At most this many values go through the console producer one by one; a longer plan
/// becomes `kafka-producer-perf-test.sh`.
pub const CONSOLE_VALUES_MAX: usize = 200;
/// The most events the bridge's run of the scenario applies (its predictions).
pub const MAX_EVENTS: u64 = 5_000_000;

/// What a step does, as data (the page says it in both languages; `Display` is English).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum What {
    /// Start the brokers.
    StartCluster {
        /// How many.
        brokers: u32,
    },
    /// Create a topic.
    CreateTopic {
        /// Its name.
        topic: String,
    },
    /// Start a consumer of a group (in the background, its output in a log file).
    StartConsumer {
        /// The group.
        group: String,
        /// The member's client id.
        client_id: String,
    },
    /// A producer's planned sends.
    Produce {
        /// The producer.
        producer: String,
        /// The topic.
        topic: String,
        /// How many records.
        records: usize,
    },
    /// A timeline command, at its moment.
    Timeline {
        /// The command's `type` as the scenario format writes it.
        command: &'static str,
    },
    /// Compare with `kafka-consumer-groups.sh --describe`.
    Describe {
        /// The group.
        group: String,
    },
    /// Stop everything.
    Stop,
}

/// Why a step differs from what the sandbox does, or has no exact command.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Caveat {
    /// KRaft's replica placement starts at a random broker: leaders may sit elsewhere.
    PlacementMayDiffer,
    /// The console producer cannot send some records with a key and others without: the
    /// keyless ones get an empty key (which hashes to a partition instead of sticky).
    MixedKeys,
    /// The console producer cannot name a partition.
    NoExplicitPartition,
    /// The perf test sends random payloads of the plan's size, not its values.
    PerfTestPayloads,
    /// No tool makes an application stop calling `poll()` (SIGSTOP would freeze its
    /// heartbeat thread too): use an application of your own.
    NoStuckApplication,
    /// Slowing one broker's replication needs `tc netem` with NET_ADMIN, not in the image.
    NoSlowFollower,
    /// A client setting changes only with a new client: the producer or consumers are
    /// started again with it.
    NewClient,
    /// `seek()` is an application call; `kafka-consumer-groups.sh --reset-offsets` does the
    /// same to an inactive group.
    SeekIsAnApiCall,
    /// The console consumer commits automatically; other commit modes need an application.
    CommitModeNeedsAnApplication,
    /// Processing time is the sandbox's; a console consumer processes nothing.
    ProcessingTime,
    /// Kafka Connect and Streams apps need their own runtimes, not these tools.
    NeedsConnectOrStreams,
    /// A share consumer's acknowledgements (KIP-932) and a transactional producer's
    /// begin/commit/abort are calls an application makes: the console tools make none of
    /// them (`kafka-console-share-consumer.sh` accepts every record).
    NeedsAnApplication,
    /// Timing on a real machine is approximate (JVM start-up, scheduling).
    TimingApproximate,
    /// Member ids end in a random UUID and HOST is the client's address: they differ on a
    /// real cluster, and so may the order of members with as many partitions.
    MemberIdsDiffer,
}

impl fmt::Display for Caveat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Caveat::PlacementMayDiffer => "KRaft places replicas from a random broker: leaders may sit on other brokers than the sandbox's",
            Caveat::MixedKeys => "the console producer cannot mix keyed and keyless records: keyless ones get an empty key, which hashes to one partition instead of the sticky one",
            Caveat::NoExplicitPartition => "the console producer cannot name a partition: the record goes where its key (or the sticky partitioner) puts it",
            Caveat::PerfTestPayloads => "the perf test sends random payloads of that size, not the plan's values",
            Caveat::NoStuckApplication => "no tool makes an application stop calling poll() (SIGSTOP would freeze its heartbeat thread too): use an application of your own",
            Caveat::NoSlowFollower => "slowing one broker's replication needs tc netem with NET_ADMIN, which the image lacks",
            Caveat::NewClient => "a client setting changes only with a new client: it is started again with the new setting",
            Caveat::SeekIsAnApiCall => "seek() is an application call; kafka-consumer-groups.sh --reset-offsets does the same to an inactive group",
            Caveat::CommitModeNeedsAnApplication => "the console consumer auto-commits; committing after or before processing needs an application",
            Caveat::ProcessingTime => "processing time is the sandbox's: a console consumer processes nothing",
            Caveat::NeedsConnectOrStreams => "Kafka Connect and Kafka Streams need their own runtimes, not these tools",
            Caveat::NeedsAnApplication => "share-group acknowledgements and transactions are calls an application makes: the console tools make none of them",
            Caveat::TimingApproximate => "timing on a real machine is approximate (JVM start-up, scheduling)",
            Caveat::MemberIdsDiffer => "member ids end in a random UUID and HOST is the tools container's address: they differ on a real cluster, and so may the order of members with as many partitions",
        })
    }
}

/// What the sandbox predicts for a step.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Predict {
    /// A partition's replicas and leader.
    Placement {
        /// The partition.
        tp: TopicPartition,
        /// Its replicas in assignment order (the first is the preferred leader).
        replicas: Vec<u32>,
    },
    /// What a partition's log holds at the end.
    Log {
        /// The partition.
        tp: TopicPartition,
        /// How many records.
        records: u64,
        /// Its values, all of them up to eight, else the first and last three.
        values: String,
    },
    /// The partitions a member owns at the end, and what it received.
    Consumes {
        /// The group.
        group: String,
        /// The member.
        client_id: String,
        /// The partitions it owns.
        partitions: Vec<TopicPartition>,
        /// How many records it received.
        received: u64,
        /// Its values, all of them up to eight, else the first and last three.
        values: String,
    },
    /// A partition's leader once the controller has handled a fault (`None`: offline).
    LeaderAfter {
        /// The partition.
        tp: TopicPartition,
        /// Its leader then.
        leader: Option<u32>,
        /// When, in ms.
        at_ms: u64,
    },
    /// Records acknowledged to the producer and then lost (acks and min.insync.replicas).
    AckedLost {
        /// How many.
        records: u64,
    },
    /// The group's describe at the end, as the tool prints it.
    DescribeTable(String),
    /// The group's coordinator.
    Coordinator {
        /// The group.
        group: String,
        /// The broker.
        broker: Option<u32>,
    },
}

/// One step: when (ms of the scenario's time, `None` for set-up), what, the command
/// lines, the sandbox's prediction and the caveats.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Step {
    /// When, in ms of the scenario's time (`None`: before it starts).
    pub at_ms: Option<u64>,
    /// What it does.
    pub what: What,
    /// The lines to run, in order.
    pub lines: Vec<String>,
    /// What the sandbox predicts.
    pub predicts: Vec<Predict>,
    /// Where the real cluster may differ, or has no exact command.
    pub caveats: Vec<Caveat>,
}

/// The whole bridge of a scenario.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Bridge {
    /// The image tag: `apache/kafka:<version>.0`.
    pub image: String,
    /// The compose file.
    pub compose: String,
    /// The steps, in order.
    pub steps: Vec<Step>,
}

/// A word safe in a POSIX shell: as is when plain, else single-quoted.
pub fn shell_word(s: &str) -> String {
    if !s.is_empty() && s.chars().all(|c| c.is_ascii_alphanumeric() || "-_./=:,@%+".contains(c)) {
        s.to_string()
    } else {
        format!("'{}'", s.replace('\'', r"'\''"))
    }
}

fn host(b: u32) -> String {
    format!("kafka-{b}")
}

fn bootstrap(brokers: u32) -> String {
    (0..brokers).map(|b| format!("{}:19092", host(b))).collect::<Vec<_>>().join(",")
}

/// The KRaft controller's node id (above any broker id the scenario format allows).
pub const CONTROLLER_ID: u32 = 1000;

/// The compose file: one service per broker (process role `broker`, node id = the
/// sandbox's broker id, its client port 29092 + id on the host), one dedicated KRaft
/// controller (the sandbox's controller is not a broker and never fails: a broker's crash
/// must not take a quorum voter with it; the image's "isolated" example layout), and a
/// `tools` service that runs the clients.
pub fn compose(scenario: &Scenario) -> String {
    let c = &scenario.cluster;
    let n = c.brokers.max(1);
    let image = image(scenario);
    let voters = format!("{CONTROLLER_ID}@controller:9093");
    // The cluster's settings: the controller's (broker session, leader balancing) and
    // the brokers' (groups, replication, retention), on every node.
    let settings: Vec<(&str, String)> = vec![
        ("KAFKA_OFFSETS_TOPIC_REPLICATION_FACTOR", c.offsets_topic_replication_factor.min(n).max(1).to_string()),
        ("KAFKA_TRANSACTION_STATE_LOG_REPLICATION_FACTOR", n.min(3).to_string()),
        ("KAFKA_TRANSACTION_STATE_LOG_MIN_ISR", n.min(2).to_string()),
        ("KAFKA_GROUP_INITIAL_REBALANCE_DELAY_MS", c.group_initial_rebalance_delay_ms.to_string()),
        ("KAFKA_REPLICA_LAG_TIME_MAX_MS", c.replica_lag_time_max_ms.to_string()),
        ("KAFKA_REPLICA_FETCH_WAIT_MAX_MS", c.replica_fetch_wait_max_ms.to_string()),
        ("KAFKA_BROKER_SESSION_TIMEOUT_MS", c.broker_session_timeout_ms.to_string()),
        ("KAFKA_AUTO_LEADER_REBALANCE_ENABLE", c.auto_leader_rebalance_enable.to_string()),
        ("KAFKA_LEADER_IMBALANCE_CHECK_INTERVAL_SECONDS", c.leader_imbalance_check_interval_seconds.to_string()),
        ("KAFKA_GROUP_MIN_SESSION_TIMEOUT_MS", c.group_min_session_timeout_ms.to_string()),
        ("KAFKA_GROUP_MAX_SESSION_TIMEOUT_MS", c.group_max_session_timeout_ms.to_string()),
        ("KAFKA_GROUP_CONSUMER_HEARTBEAT_INTERVAL_MS", c.group_consumer_heartbeat_interval_ms.to_string()),
        ("KAFKA_GROUP_CONSUMER_SESSION_TIMEOUT_MS", c.group_consumer_session_timeout_ms.to_string()),
        ("KAFKA_OFFSETS_RETENTION_MINUTES", c.offsets_retention_minutes.to_string()),
        ("KAFKA_OFFSETS_RETENTION_CHECK_INTERVAL_MS", c.offsets_retention_check_interval_ms.to_string()),
        ("KAFKA_OFFSETS_TOPIC_SEGMENT_BYTES", c.offsets_topic_segment_bytes.to_string()),
        ("KAFKA_LOG_RETENTION_CHECK_INTERVAL_MS", c.log_retention_check_interval_ms.to_string()),
    ];
    // Quoted: YAML reads `true`, numbers and `a:b` as themselves; the image wants strings.
    let env = |y: &mut String, pairs: &[(&str, String)]| {
        y.push_str("    environment:\n");
        for (k, v) in pairs {
            y.push_str(&format!("      {k}: \"{v}\"\n"));
        }
    };
    let common = |roles: &str, id: u32| -> Vec<(&'static str, String)> {
        vec![
            ("KAFKA_NODE_ID", id.to_string()),
            ("KAFKA_PROCESS_ROLES", roles.to_string()),
            ("KAFKA_CONTROLLER_QUORUM_VOTERS", voters.clone()),
            ("KAFKA_CONTROLLER_LISTENER_NAMES", "CONTROLLER".into()),
            ("KAFKA_LISTENER_SECURITY_PROTOCOL_MAP", "CONTROLLER:PLAINTEXT,PLAINTEXT:PLAINTEXT,PLAINTEXT_HOST:PLAINTEXT".into()),
            ("KAFKA_INTER_BROKER_LISTENER_NAME", "PLAINTEXT".into()),
            ("CLUSTER_ID", CLUSTER_ID.into()),
            ("KAFKA_LOG_DIRS", "/tmp/kraft-logs".into()),
        ]
    };
    let mut y = String::new();
    y.push_str(&format!("# The sandbox's cluster on Apache Kafka {} (KRaft), for `docker compose up -d`.\n", c.kafka_version));
    y.push_str(&format!("name: {PROJECT}\nservices:\n"));
    y.push_str(&format!("  controller:\n    image: {image}\n    hostname: controller\n    container_name: controller\n"));
    let mut pairs = common("controller", CONTROLLER_ID);
    pairs.push(("KAFKA_LISTENERS", "CONTROLLER://:9093".into()));
    pairs.extend(settings.iter().cloned());
    env(&mut y, &pairs);
    for b in 0..n {
        let h = host(b);
        y.push_str(&format!("  {h}:\n    image: {image}\n    hostname: {h}\n    container_name: {h}\n"));
        y.push_str(&format!("    ports:\n      - \"{}:9092\"\n", 29092 + b));
        let mut pairs = common("broker", b);
        pairs.push(("KAFKA_LISTENERS", "PLAINTEXT://:19092,PLAINTEXT_HOST://:9092".into()));
        pairs.push(("KAFKA_ADVERTISED_LISTENERS", format!("PLAINTEXT://{h}:19092,PLAINTEXT_HOST://localhost:{}", 29092 + b)));
        pairs.extend(settings.iter().cloned());
        env(&mut y, &pairs);
        y.push_str("    depends_on:\n      - controller\n");
    }
    y.push_str(&format!(
        "  tools:\n    image: {image}\n    container_name: tools\n    entrypoint: [\"sleep\", \"infinity\"]\n    depends_on:\n{}",
        (0..n).map(|b| format!("      - {}\n", host(b))).collect::<String>()
    ));
    y
}

/// The official image's tag for the scenario's Kafka version.
pub fn image(scenario: &Scenario) -> String {
    format!("apache/kafka:{}.0", scenario.cluster.kafka_version)
}

/// `docker compose exec -T tools /opt/kafka/bin/<tool> <args>`.
fn tool(name: &str, args: &[String]) -> String {
    let mut line = format!("docker compose exec -T tools {BIN}/{name}");
    for a in args {
        line.push(' ');
        line.push_str(&shell_word(a));
    }
    line
}

fn assignor_class(s: Strategy) -> &'static str {
    match s {
        Strategy::Range => "org.apache.kafka.clients.consumer.RangeAssignor",
        Strategy::RoundRobin => "org.apache.kafka.clients.consumer.RoundRobinAssignor",
        Strategy::Sticky => "org.apache.kafka.clients.consumer.StickyAssignor",
        Strategy::CooperativeSticky => "org.apache.kafka.clients.consumer.CooperativeStickyAssignor",
    }
}

fn acks(a: Acks) -> &'static str {
    match a {
        Acks::Zero => "0",
        Acks::Leader => "1",
        Acks::All => "all",
    }
}

/// The consumer's properties under Kafka's names (only what differs from the console
/// consumer's own defaults, plus the client id and the group's settings).
fn consumer_properties(scenario: &Scenario, group: &crate::command::GroupSpec, m: &MemberSpec) -> Vec<(String, String)> {
    let d = crate::config::ConsumerConfig::default();
    let c = &m.config;
    let mut p: Vec<(String, String)> = vec![("client.id".into(), m.client_id.clone())];
    if let Some(id) = &m.group_instance_id {
        p.push(("group.instance.id".into(), id.clone()));
    }
    let reset = match group.config.auto_offset_reset {
        OffsetReset::Earliest => "earliest",
        OffsetReset::Latest => "latest",
        OffsetReset::None => "none",
    };
    p.push(("auto.offset.reset".into(), reset.into()));
    match group.config.group_protocol {
        GroupProtocol::Consumer => {
            p.push(("group.protocol".into(), "consumer".into()));
            p.push(("group.remote.assignor".into(), group.config.remote_assignor.to_string()));
        }
        GroupProtocol::Classic => p.push(("partition.assignment.strategy".into(), assignor_class(group.config.assignor).into())),
    }
    let mut num = |k: &str, v: u64, dv: u64| {
        if v != dv {
            p.push((k.into(), v.to_string()));
        }
    };
    num("max.poll.records", c.max_poll_records.into(), d.max_poll_records.into());
    num("fetch.max.wait.ms", c.fetch_max_wait_ms, d.fetch_max_wait_ms);
    num("auto.commit.interval.ms", c.auto_commit_interval_ms, d.auto_commit_interval_ms);
    num("metadata.max.age.ms", c.metadata_max_age_ms, d.metadata_max_age_ms);
    if group.config.group_protocol == GroupProtocol::Classic {
        num("heartbeat.interval.ms", c.heartbeat_interval_ms, d.heartbeat_interval_ms);
        num("session.timeout.ms", c.session_timeout_ms, d.session_timeout_ms);
    }
    num("max.poll.interval.ms", c.max_poll_interval_ms, d.max_poll_interval_ms);
    let _ = scenario;
    p
}

/// The line that starts one consumer in the background, its records in `/tmp/<group>-<client>.log`.
fn start_consumer(scenario: &Scenario, bs: &str, group: &crate::command::GroupSpec, m: &MemberSpec) -> String {
    let topics = m.topics.as_ref().unwrap_or(&group.topics);
    let mut args: Vec<String> = vec!["--bootstrap-server".into(), bs.into()];
    if topics.len() == 1 {
        args.extend(["--topic".into(), topics[0].clone()]);
    } else {
        args.extend(["--include".into(), topics.iter().map(|t| regex_quote(t)).collect::<Vec<_>>().join("|")]);
    }
    args.extend(["--group".into(), group.id.clone()]);
    for (k, v) in consumer_properties(scenario, group, m) {
        args.extend(["--consumer-property".into(), format!("{k}={v}")]);
    }
    for p in ["print.key=true", "print.partition=true", "print.offset=true"] {
        args.extend(["--property".into(), p.into()]);
    }
    let script = format!("{} > {} 2>&1", tool_inline("kafka-console-consumer.sh", &args), shell_word(&log_file(&group.id, &m.client_id)));
    format!("docker compose exec -d tools sh -c {}", shell_word(&script))
}

fn log_file(group: &str, client: &str) -> String {
    format!("/tmp/{group}-{client}.log")
}

/// A tool's command inside the tools container's shell (no `docker compose exec`).
fn tool_inline(name: &str, args: &[String]) -> String {
    let mut line = format!("{BIN}/{name}");
    for a in args {
        line.push(' ');
        line.push_str(&shell_word(a));
    }
    line
}

/// A topic name as a regular expression matching only itself (`.` is the one metacharacter
/// a legal topic name can hold).
fn regex_quote(t: &str) -> String {
    t.replace('.', "\\.")
}

/// `pkill` of one console consumer (by its client id), with `signal`.
fn signal_consumer(signal: &str, group: &str, client: &str) -> String {
    format!(
        "docker compose exec -T tools pkill -{signal} -f {}",
        shell_word(&format!("client.id={client} .*--group {group}|--group {group} .*client.id={client}"))
    )
}

/// The producer's properties under Kafka's names that differ from the client's defaults.
fn producer_properties(c: &crate::config::ProducerConfig) -> Vec<(String, String)> {
    let d = crate::config::ProducerConfig::default();
    let mut p: Vec<(String, String)> = vec![("acks".into(), acks(c.acks).into())];
    let mut num = |k: &str, v: u64, dv: u64| {
        if v != dv {
            p.push((k.into(), v.to_string()));
        }
    };
    num("linger.ms", c.linger_ms, d.linger_ms);
    num("batch.size", c.batch_size.into(), d.batch_size.into());
    num("retries", c.retries.into(), d.retries.into());
    num("retry.backoff.ms", c.retry_backoff_ms, d.retry_backoff_ms);
    num("retry.backoff.max.ms", c.retry_backoff_max_ms, d.retry_backoff_max_ms);
    num("request.timeout.ms", c.request_timeout_ms, d.request_timeout_ms);
    num("delivery.timeout.ms", c.delivery_timeout_ms, d.delivery_timeout_ms);
    num(
        "max.in.flight.requests.per.connection",
        c.max_in_flight_requests_per_connection.into(),
        d.max_in_flight_requests_per_connection.into(),
    );
    num("buffer.memory", c.buffer_memory, d.buffer_memory);
    num("max.block.ms", c.max_block_ms, d.max_block_ms);
    if let Some(i) = c.enable_idempotence {
        p.push(("enable.idempotence".into(), i.to_string()));
    }
    if c.partitioner == PartitionerKind::RoundRobin {
        p.push(("partitioner.class".into(), "org.apache.kafka.clients.producer.RoundRobinPartitioner".into()));
    }
    p
}

/// The producer's properties for `kafka-console-producer.sh`: [`producer_properties`],
/// and the Java client's own values of the settings the console producer defaults
/// differently (`ConsoleProducer.ConsoleProducerOptions`: `--timeout` 1000 for
/// `linger.ms`, `--request-timeout-ms` 1500, `--message-send-max-retries` 3, merged by
/// `CommandLineUtils.maybeMergeOptions` only when the property is not given), so the real
/// producer batches, times out and retries as the sandbox's does.
fn console_producer_properties(c: &crate::config::ProducerConfig) -> Vec<(String, String)> {
    let mut p = producer_properties(c);
    for (k, v) in [("linger.ms", c.linger_ms), ("request.timeout.ms", c.request_timeout_ms), ("retries", c.retries.into())] {
        if !p.iter().any(|(pk, _)| pk == k) {
            p.push((k.into(), v.to_string()));
        }
    }
    p
}

/// Values as the summaries show them: all up to eight, else the first and last three.
fn some(values: &[&str]) -> String {
    if values.len() <= 8 {
        values.join(" ")
    } else {
        format!("{} … {}", values[..3].join(" "), values[values.len() - 3..].join(" "))
    }
}

/// The TAB that separates a key from its value on the console producer's lines.
/// What the console producer reads as a null value (`null.marker`, LineMessageReader).
const NULL_MARKER: &str = "<null>";
const KEY_SEPARATOR: &str = "\t";

/// The bridge of `scenario`: it is run to its end (at most [`MAX_EVENTS`] events) for
/// the predictions.
pub fn bridge(scenario: &Scenario) -> Result<Bridge, crate::scenario::ScenarioError> {
    let mut sim = scenario.build()?;
    let n = scenario.cluster.brokers.max(1);
    let bs = bootstrap(n);
    let mut steps = Vec::new();
    steps.push(Step {
        at_ms: None,
        what: What::StartCluster { brokers: n },
        lines: vec!["docker compose up -d".into(), "docker compose ps".into()],
        predicts: Vec::new(),
        caveats: vec![Caveat::TimingApproximate],
    });
    // Topics, with the sandbox's placement.
    for t in &scenario.topics {
        let d = crate::scenario::TopicSpec::default();
        let mut args: Vec<String> = vec![
            "--bootstrap-server".into(),
            bs.clone(),
            "--create".into(),
            "--topic".into(),
            t.name.clone(),
            "--partitions".into(),
            t.partitions.to_string(),
            "--replication-factor".into(),
            t.replication_factor.to_string(),
            "--config".into(),
            format!("min.insync.replicas={}", t.min_insync_replicas),
        ];
        let mut config = |k: &str, v: String| args.extend(["--config".into(), format!("{k}={v}")]);
        if t.unclean_leader_election_enable {
            config("unclean.leader.election.enable", "true".into());
        }
        if t.message_timestamp_type != d.message_timestamp_type {
            config("message.timestamp.type", "LogAppendTime".into());
        }
        if t.retention_ms != d.retention_ms {
            config("retention.ms", t.retention_ms.to_string());
        }
        if t.retention_bytes != d.retention_bytes {
            config("retention.bytes", t.retention_bytes.to_string());
        }
        if t.segment_bytes != d.segment_bytes {
            config("segment.bytes", t.segment_bytes.to_string());
        }
        if t.segment_ms != d.segment_ms {
            config("segment.ms", t.segment_ms.to_string());
        }
        let predicts = sim
            .topic(&t.name)
            .into_iter()
            .flat_map(|topic| topic.partitions())
            .map(|p| Predict::Placement { tp: p.topic_partition(), replicas: p.replicas().to_vec() })
            .collect();
        steps.push(Step {
            at_ms: None,
            what: What::CreateTopic { topic: t.name.clone() },
            lines: vec![
                tool("kafka-topics.sh", &args),
                tool("kafka-topics.sh", &["--bootstrap-server".into(), bs.clone(), "--describe".into(), "--topic".into(), t.name.clone()]),
            ],
            predicts,
            caveats: vec![Caveat::PlacementMayDiffer],
        });
    }
    // Run the scenario to its end, stopping at each timeline command's moment (and after
    // each fault, once the controller has fenced the broker) for the predictions.
    let end = scenario.end_ms();
    let mut order: Vec<usize> = (0..scenario.commands.len()).collect();
    crate::sorted::sort_by_key(&mut order, |i| scenario.commands[*i].at_ms);
    let mut timeline: Vec<(u64, Step)> = Vec::new();
    for i in order {
        let tc = &scenario.commands[i];
        let (what, lines, caveats) = timeline_step(scenario, &bs, &tc.command);
        let mut predicts = Vec::new();
        if let Command::Broker(_) = tc.command {
            // Where the leaders are once the controller has handled the fault.
            let after = (tc.at_ms + scenario.cluster.broker_session_timeout_ms + 1_000).min(end.max(tc.at_ms));
            if SimTime(after) > sim.now() {
                sim.run_to_bounded(SimTime(after), MAX_EVENTS);
            }
            for t in sim.topics() {
                for p in t.partitions() {
                    predicts.push(Predict::LeaderAfter { tp: p.topic_partition(), leader: p.leader(), at_ms: sim.now().ms() });
                }
            }
        }
        timeline.push((tc.at_ms, Step { at_ms: Some(tc.at_ms), what, lines, predicts, caveats }));
    }
    sim.run_to_bounded(SimTime(end), MAX_EVENTS);
    let read = sim.read();
    // Consumers start first (the scenario's members join at 0), then the producers.
    let mut consumers = Vec::new();
    for g in &scenario.groups {
        for m in &g.members {
            let member = read.group(&g.id).and_then(|g| g.member(&m.client_id));
            let kept: Vec<&str> = member.map(|m| m.received().map(|d| d.value.as_str()).collect()).unwrap_or_default();
            let mut caveats = vec![];
            if m.config.commit_mode != CommitMode::Auto {
                caveats.push(Caveat::CommitModeNeedsAnApplication);
            }
            if m.config.processing_ms > crate::config::ConsumerConfig::default().processing_ms {
                caveats.push(Caveat::ProcessingTime);
            }
            let mut predicts = vec![Predict::Consumes {
                group: g.id.clone(),
                client_id: m.client_id.clone(),
                partitions: member.map(|m| m.assigned().to_vec()).unwrap_or_default(),
                received: member.map_or(0, |m| m.received_total()),
                values: some(&kept),
            }];
            if g.members.first().is_some_and(|f| f.client_id == m.client_id) {
                predicts.push(Predict::Coordinator { group: g.id.clone(), broker: read.group(&g.id).and_then(|g| g.coordinator()) });
            }
            consumers.push(Step {
                at_ms: Some(0),
                what: What::StartConsumer { group: g.id.clone(), client_id: m.client_id.clone() },
                lines: vec![start_consumer(scenario, &bs, g, m)],
                predicts,
                caveats,
            });
        }
    }
    steps.extend(consumers);
    // Producers: their planned sends, each at its start.
    let mut producing: Vec<(u64, Step)> = Vec::new();
    for p in &scenario.producers {
        for plan in &p.send {
            let (lines, caveats) = produce_lines(&bs, &p.config, plan);
            let predicts = sim
                .topic(&plan.topic)
                .into_iter()
                .flat_map(|t| t.partitions())
                .map(|part| {
                    let records = part.log().map(|l| l.records()).unwrap_or_else(crate::log::Records::empty);
                    let values: Vec<&str> = records.iter().map(|r| r.record.value.as_str()).collect();
                    Predict::Log {
                        tp: part.topic_partition(),
                        records: part.log_end_offset() - part.log_start_offset(),
                        values: some(&values),
                    }
                })
                .collect();
            producing.push((
                plan.start_ms,
                Step {
                    at_ms: Some(plan.start_ms),
                    what: What::Produce { producer: p.name.clone(), topic: plan.topic.clone(), records: plan.values.len() },
                    lines,
                    predicts,
                    caveats,
                },
            ));
        }
    }
    producing.extend(timeline);
    crate::sorted::sort_by_key(&mut producing, |(at, _)| *at);
    steps.extend(producing.into_iter().map(|(_, s)| s));
    let lost = sim.monitors().acked_lost_total();
    if lost > 0 {
        if let Some(last) = steps.iter_mut().rev().find(|s| matches!(s.what, What::Produce { .. })) {
            last.predicts.push(Predict::AckedLost { records: lost });
        }
    }
    // Compare the groups.
    for g in read.groups() {
        let d = describe::describe(g, |tp| read.partition(tp).map(|p| p.high_watermark()));
        steps.push(Step {
            at_ms: Some(end),
            what: What::Describe { group: g.id().to_string() },
            lines: vec![tool(
                "kafka-consumer-groups.sh",
                &["--bootstrap-server".into(), bs.clone(), "--describe".into(), "--group".into(), g.id().to_string()],
            )],
            predicts: vec![Predict::DescribeTable(d.table())],
            caveats: vec![Caveat::MemberIdsDiffer],
        });
    }
    steps.push(Step {
        at_ms: Some(end),
        what: What::Stop,
        lines: vec!["docker compose down".into()],
        predicts: Vec::new(),
        caveats: Vec::new(),
    });
    Ok(Bridge { image: image(scenario), compose: compose(scenario), steps })
}

/// A producer's send plan as the console producer (at most [`CONSOLE_VALUES_MAX`] values,
/// one every `interval_ms`) or the perf test.
fn produce_lines(bs: &str, config: &crate::config::ProducerConfig, plan: &crate::scenario::SendPlan) -> (Vec<String>, Vec<Caveat>) {
    let props = producer_properties(config);
    let mut caveats = vec![Caveat::TimingApproximate];
    if plan.values.len() > CONSOLE_VALUES_MAX {
        let size = plan.values.iter().map(|v| v.len()).max().unwrap_or(1).max(1);
        let throughput = if plan.interval_ms == 0 { -1i64 } else { (1000 / plan.interval_ms.max(1)).max(1) as i64 };
        let mut args: Vec<String> = vec![
            "--topic".into(),
            plan.topic.clone(),
            "--num-records".into(),
            plan.values.len().to_string(),
            "--record-size".into(),
            size.to_string(),
            "--throughput".into(),
            throughput.to_string(),
            "--producer-props".into(),
            format!("bootstrap.servers={bs}"),
        ];
        args.extend(props.iter().map(|(k, v)| format!("{k}={v}")));
        caveats.push(Caveat::PerfTestPayloads);
        return (vec![tool("kafka-producer-perf-test.sh", &args)], caveats);
    }
    let keys = plan.keys.as_ref();
    let keyed = keys.is_some_and(|k| k.iter().any(Option::is_some));
    if keyed && keys.is_some_and(|k| k.iter().any(Option::is_none)) {
        caveats.push(Caveat::MixedKeys);
    }
    let lines: Vec<String> = plan
        .values
        .iter()
        .enumerate()
        .map(|(i, v)| match keys.and_then(|k| k.get(i)).cloned().flatten() {
            Some(k) if keyed => format!("{k}{KEY_SEPARATOR}{v}"),
            _ if keyed => format!("{KEY_SEPARATOR}{v}"),
            _ => v.clone(),
        })
        .collect();
    let mut args: Vec<String> = vec!["--bootstrap-server".into(), bs.into(), "--topic".into(), plan.topic.clone()];
    for (k, v) in console_producer_properties(config) {
        args.extend(["--producer-property".into(), format!("{k}={v}")]);
    }
    if keyed {
        args.extend(["--property".into(), "parse.key=true".into(), "--property".into(), format!("key.separator={KEY_SEPARATOR}")]);
    }
    let pause = format!("{}.{:03}", plan.interval_ms / 1000, plan.interval_ms % 1000);
    let feed = format!(
        "for line in {}; do printf '%s\\n' \"$line\"; sleep {pause}; done",
        lines.iter().map(|l| shell_word(l)).collect::<Vec<_>>().join(" ")
    );
    let script = format!("{feed} | {}", tool_inline("kafka-console-producer.sh", &args));
    (vec![format!("docker compose exec -T tools sh -c {}", shell_word(&script))], caveats)
}

/// A timeline command's step: what it is, its lines, its caveats.
fn timeline_step(scenario: &Scenario, bs: &str, c: &Command) -> (What, Vec<String>, Vec<Caveat>) {
    let what = What::Timeline { command: command_type(c) };
    let group_of = |g: &str| scenario.groups.iter().find(|s| s.id == g);
    let (lines, caveats): (Vec<String>, Vec<Caveat>) = match c {
        Command::Produce(ProduceCommand::Produce { producer, topic, key, value, partition, .. }) => {
            let mut args: Vec<String> = vec!["--bootstrap-server".into(), bs.into(), "--topic".into(), topic.clone()];
            let config = scenario.producers.iter().find(|p| &p.name == producer).map(|p| p.config.clone()).unwrap_or_default();
            for (k, v) in console_producer_properties(&config) {
                args.extend(["--producer-property".into(), format!("{k}={v}")]);
            }
            // A tombstone (`"value": null`): LineMessageReader's `null.marker` turns the
            // marker back into a null value.
            let value = match value {
                Some(v) => v.clone(),
                None => {
                    args.extend(["--property".into(), format!("null.marker={NULL_MARKER}")]);
                    NULL_MARKER.to_string()
                }
            };
            let line = match key {
                Some(k) => {
                    args.extend([
                        "--property".into(),
                        "parse.key=true".into(),
                        "--property".into(),
                        format!("key.separator={KEY_SEPARATOR}"),
                    ]);
                    format!("{k}{KEY_SEPARATOR}{value}")
                }
                None => value.clone(),
            };
            let script = format!("printf '%s\\n' {} | {}", shell_word(&line), tool_inline("kafka-console-producer.sh", &args));
            let caveats = if partition.is_some() { vec![Caveat::NoExplicitPartition] } else { Vec::new() };
            (vec![format!("docker compose exec -T tools sh -c {}", shell_word(&script))], caveats)
        }
        Command::Produce(ProduceCommand::SetAcks { .. } | ProduceCommand::SetPartitioner { .. }) => (Vec::new(), vec![Caveat::NewClient]),
        Command::Broker(b) => match b {
            BrokerCommand::CrashBroker { broker } => (vec![format!("docker compose kill {}", host(*broker))], Vec::new()),
            BrokerCommand::ShutdownBroker { broker } => (vec![format!("docker compose stop {}", host(*broker))], Vec::new()),
            BrokerCommand::RestartBroker { broker } => (vec![format!("docker compose start {}", host(*broker))], Vec::new()),
            BrokerCommand::IsolateBroker { broker } => {
                (vec![format!("docker network disconnect {PROJECT}_default {}", host(*broker))], Vec::new())
            }
            BrokerCommand::HealBroker { broker } => {
                (vec![format!("docker network connect {PROJECT}_default {}", host(*broker))], Vec::new())
            }
            BrokerCommand::SlowBroker { .. } => (Vec::new(), vec![Caveat::NoSlowFollower]),
        },
        Command::Topic(TopicCommand::AddPartitions { topic, partitions }) => (
            vec![tool(
                "kafka-topics.sh",
                &[
                    "--bootstrap-server".into(),
                    bs.into(),
                    "--alter".into(),
                    "--topic".into(),
                    topic.clone(),
                    "--partitions".into(),
                    partitions.to_string(),
                ],
            )],
            Vec::new(),
        ),
        Command::Topic(TopicCommand::SetTopicConfig { topic, min_insync_replicas, unclean_leader_election_enable }) => {
            let mut configs = Vec::new();
            if let Some(m) = min_insync_replicas {
                configs.push(format!("min.insync.replicas={m}"));
            }
            if let Some(u) = unclean_leader_election_enable {
                configs.push(format!("unclean.leader.election.enable={u}"));
            }
            let args: Vec<String> = vec![
                "--bootstrap-server".into(),
                bs.into(),
                "--alter".into(),
                "--entity-type".into(),
                "topics".into(),
                "--entity-name".into(),
                topic.clone(),
                "--add-config".into(),
                configs.join(","),
            ];
            (vec![tool("kafka-configs.sh", &args)], Vec::new())
        }
        Command::Group(g) => match g {
            GroupCommand::AddGroup { group } => {
                (group.members.iter().map(|m| start_consumer(scenario, bs, group, m)).collect(), Vec::new())
            }
            GroupCommand::AddMember { group, member } => match group_of(group) {
                Some(spec) => (vec![start_consumer(scenario, bs, spec, member)], Vec::new()),
                None => (Vec::new(), vec![Caveat::NewClient]),
            },
            GroupCommand::RestartMember { group, client_id } => {
                let spec = group_of(group);
                let member = spec
                    .and_then(|s| s.members.iter().find(|m| &m.client_id == client_id))
                    .cloned()
                    .unwrap_or_else(|| MemberSpec::new(client_id.clone()));
                match spec {
                    Some(spec) => (vec![start_consumer(scenario, bs, spec, &member)], Vec::new()),
                    None => (Vec::new(), vec![Caveat::NewClient]),
                }
            }
            GroupCommand::RemoveMember { group, client_id } => (vec![signal_consumer("TERM", group, client_id)], Vec::new()),
            GroupCommand::CrashMember { group, client_id } => (vec![signal_consumer("KILL", group, client_id)], Vec::new()),
            GroupCommand::PauseMember { .. } => (Vec::new(), vec![Caveat::NoStuckApplication]),
            GroupCommand::SetProcessing { .. } => (Vec::new(), vec![Caveat::ProcessingTime]),
            GroupCommand::SetCommitMode { .. } => (Vec::new(), vec![Caveat::CommitModeNeedsAnApplication]),
            GroupCommand::SetAssignor { .. } | GroupCommand::Subscribe { .. } => (Vec::new(), vec![Caveat::NewClient]),
            GroupCommand::Seek { .. } => (Vec::new(), vec![Caveat::SeekIsAnApiCall]),
        },
        Command::Connect(ConnectCommand::CrashConnector { .. } | ConnectCommand::RestartConnector { .. }) => {
            (Vec::new(), vec![Caveat::NeedsConnectOrStreams])
        }
        Command::ShareGroup(_) | Command::Txn(_) => (Vec::new(), vec![Caveat::NeedsAnApplication]),
    };
    (what, lines, caveats)
}

/// A command's `type`, as the scenario format writes it.
fn command_type(c: &Command) -> &'static str {
    let json = crate::json::write_json(c, false);
    Command::types().iter().copied().find(|t| json.contains(&format!("\"type\":\"{t}\""))).unwrap_or("command")
}

impl fmt::Display for What {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            What::StartCluster { brokers } => {
                write!(f, "Start the KRaft controller and {brokers} brokers (compose.yaml) and check they are up")
            }
            What::CreateTopic { topic } => write!(f, "Create the topic {topic} and describe it"),
            What::StartConsumer { group, client_id } => {
                write!(f, "Start {client_id} of {group} in the background (its records in /tmp/{group}-{client_id}.log)")
            }
            What::Produce { producer, topic, records } => write!(f, "{producer} sends {records} records to {topic}"),
            What::Timeline { command } => write!(f, "The timeline's {command}"),
            What::Describe { group } => write!(f, "Describe {group} and compare"),
            What::Stop => f.write_str("Stop and remove the cluster"),
        }
    }
}

impl fmt::Display for Predict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let list = |v: &[u32]| v.iter().map(ToString::to_string).collect::<Vec<_>>().join(",");
        match self {
            Predict::Placement { tp, replicas } => {
                write!(
                    f,
                    "{tp}: replicas [{}], leader {}",
                    list(replicas),
                    replicas.first().map_or_else(|| "none".to_string(), ToString::to_string)
                )
            }
            Predict::Log { tp, records, values } => write!(f, "{tp}: {records} record{}: {values}", if *records == 1 { "" } else { "s" }),
            Predict::Consumes { group, client_id, partitions, received, values } => write!(
                f,
                "{client_id} of {group} owns [{}] and receives {received} records: {values}",
                partitions.iter().map(ToString::to_string).collect::<Vec<_>>().join(", ")
            ),
            Predict::LeaderAfter { tp, leader, at_ms } => match leader {
                Some(l) => write!(f, "{tp}: leader broker {l} at {} ms", at_ms),
                None => write!(f, "{tp}: offline (no leader) at {at_ms} ms"),
            },
            Predict::AckedLost { records } => write!(f, "{records} acknowledged records lost"),
            Predict::DescribeTable(t) => f.write_str(t.trim_start_matches('\n')),
            Predict::Coordinator { group, broker } => match broker {
                Some(b) => write!(f, "{group}'s coordinator: broker {b}"),
                None => write!(f, "{group} has no coordinator"),
            },
        }
    }
}

impl Bridge {
    /// The whole bridge as text (what `kafka-sandbox bridge` prints): the compose file,
    /// then each step with its lines, what the sandbox predicts and the caveats.
    pub fn text(&self) -> String {
        let mut s = format!("# compose.yaml ({})\n{}\n", self.image, self.compose);
        for (i, step) in self.steps.iter().enumerate() {
            let at = step.at_ms.map(|t| format!(" (at {:.1} s)", t as f64 / 1000.0)).unwrap_or_default();
            s.push_str(&format!("# {}. {}{at}\n", i + 1, step.what));
            for l in &step.lines {
                s.push_str(l);
                s.push('\n');
            }
            for p in &step.predicts {
                for line in p.to_string().lines() {
                    s.push_str(&format!("#   sandbox: {line}\n"));
                }
            }
            for c in &step.caveats {
                s.push_str(&format!("#   note: {c}\n"));
            }
            s.push('\n');
        }
        s
    }
}

#[cfg(test)]
mod tests;
