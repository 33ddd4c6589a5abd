//! A typed builder for scenarios, with Kafka's names and defaults, and the handles it
//! returns (a topic's name, a producer's, a group's `group.id`, a member) so that code
//! naming what it built cannot misspell it.
//!
//! A built scenario is a [`Scenario`], the same thing a JSON file is: it serialises to the
//! format of docs/scenario-format.md ([`Scenario::to_json_pretty`]) and loads back equal.
//! [`ScenarioBuilder::build`] runs every check [`Scenario::build`] runs; a refusal is a
//! [`ScenarioError`] naming the field (`topics[0].replication_factor`) and what is allowed.
//!
//! ```
//! use kafka_sandbox_core::{Acks, Command, GroupSpec, MemberSpec, ProducerSpec, Scenario, SendPlan, TopicSpec};
//!
//! let mut b = Scenario::builder();
//! b.seed(7).brokers(3);
//! let orders = b.topic(TopicSpec::new("orders").partitions(6).replication_factor(3).min_insync_replicas(2));
//! let app = b.producer(ProducerSpec::new("app").acks(Acks::All).send(SendPlan::values(&orders, ["m1", "m2", "m3"]).every_ms(10)));
//! let billing = b.group(GroupSpec::new("billing", [&orders]).members([MemberSpec::new("c1"), MemberSpec::new("c2")]));
//! b.at(5_000, Command::crash_broker(1));
//! let mut sim = b.build()?;
//! sim.apply(Command::produce(&app, &orders, Some("user-1"), "m4"))?;
//! sim.run_to(kafka_sandbox_core::SimTime(10_000));
//! assert_eq!(sim.read().group(&billing).unwrap().members().count(), 2);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use crate::command::{BrokerCommand, Command, GroupCommand, GroupSpec, MemberSpec, ProduceCommand};
use crate::config::{Acks, ClusterConfig, CommitMode, GroupProtocol, OffsetReset, PartitionerKind, ServerAssignor, Strategy};
use crate::record::{BrokerId, TimestampType, TopicPartition};
use crate::scenario::{ProducerSpec, Scenario, ScenarioError, SendPlan, TimedCommand, TopicSpec};
use crate::sim::{Sim, SimOptions};
use std::fmt;

macro_rules! handle {
    ($(#[$doc:meta])* $name:ident) => {
        $(#[$doc])*
        #[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub struct $name(String);

        impl $name {
            /// The name as the scenario and the commands spell it.
            pub fn as_str(&self) -> &str {
                &self.0
            }
        }

        impl std::ops::Deref for $name {
            type Target = str;
            fn deref(&self) -> &str {
                &self.0
            }
        }

        impl AsRef<str> for $name {
            fn as_ref(&self) -> &str {
                &self.0
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(&self.0)
            }
        }

        impl From<&$name> for String {
            fn from(h: &$name) -> String {
                h.0.clone()
            }
        }
    };
}

handle!(
    /// A topic the builder created (its name). Not Kafka's topic id (a UUID, KIP-516),
    /// which the sandbox does not model.
    TopicName
);
handle!(
    /// A producer the builder created: its name, which is its `client.id`. Not Kafka's
    /// producer id (the idempotent producer's PID, given by the broker).
    ProducerName
);
handle!(
    /// A consumer group the builder created: its `group.id`.
    GroupId
);

impl TopicName {
    /// Partition `partition` of this topic.
    pub fn partition(&self, partition: u32) -> TopicPartition {
        TopicPartition::new(self.0.clone(), partition)
    }
}

impl GroupId {
    /// The member of this group with `client.id` = `client_id`.
    pub fn member(&self, client_id: impl Into<String>) -> MemberRef {
        MemberRef { group: self.clone(), client_id: client_id.into() }
    }
}

/// A consumer in a group: its group's `group.id` and its `client.id` (unique in the group
/// in the sandbox).
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct MemberRef {
    /// The group it belongs to.
    pub group: GroupId,
    /// Its `client.id`.
    pub client_id: String,
}

impl fmt::Display for MemberRef {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.group, self.client_id)
    }
}

/// Builds a [`Scenario`] in code, checked at [`ScenarioBuilder::build`] (see the module
/// documentation for an example). Settings chain (`b.seed(7).brokers(3)`); adding a
/// topic, producer or group returns its handle.
#[derive(Clone, Debug, Default)]
pub struct ScenarioBuilder {
    scenario: Scenario,
    options: SimOptions,
}

impl Scenario {
    /// A builder starting from an empty scenario: seed 0, Kafka's cluster defaults with
    /// three brokers, nothing else.
    pub fn builder() -> ScenarioBuilder {
        ScenarioBuilder::default()
    }
}

impl ScenarioBuilder {
    /// The seed of the simulation's RNG (replica placement, sticky partitions, retry
    /// jitter, member ids): same seed and commands, same run.
    pub fn seed(&mut self, seed: u64) -> &mut Self {
        self.scenario.seed = seed;
        self
    }

    /// The scenario's name (shown by the page and the CLI).
    pub fn name(&mut self, name: impl Into<String>) -> &mut Self {
        self.scenario.name = Some(name.into());
        self
    }

    /// How many brokers (ids 0 to `brokers - 1`).
    pub fn brokers(&mut self, brokers: u32) -> &mut Self {
        self.scenario.cluster.brokers = brokers;
        self
    }

    /// The whole cluster configuration (broker count, timeouts, network latency).
    pub fn cluster(&mut self, cluster: ClusterConfig) -> &mut Self {
        self.scenario.cluster = cluster;
        self
    }

    /// `offsets.topic.replication.factor` (`cluster.offsets_topic_replication_factor`;
    /// default 3): a scenario with groups needs at least as many brokers, so a one-broker
    /// cluster with groups sets it to 1, as Kafka's single-broker `config/server.properties`.
    pub fn offsets_topic_replication_factor(&mut self, replication_factor: u32) -> &mut Self {
        self.scenario.cluster.offsets_topic_replication_factor = replication_factor;
        self
    }

    /// `transaction.state.log.replication.factor` and `transaction.state.log.min.isr`
    /// (default 3 and 2): transactions need at least that many brokers, so a small
    /// cluster with transactions lowers them (issue 17).
    pub fn transaction_state_log(&mut self, replication_factor: u32, min_isr: u32) -> &mut Self {
        self.scenario.cluster.transaction_state_log_replication_factor = replication_factor;
        self.scenario.cluster.transaction_state_log_min_isr = min_isr;
        self
    }

    /// The Kafka release the run models (`cluster.kafka_version`; default the newest).
    pub fn kafka_version(&mut self, version: crate::KafkaVersion) -> &mut Self {
        self.scenario.cluster.kafka_version = version;
        self
    }

    /// How long `kafka-sandbox run` runs the scenario by default, in ms.
    pub fn duration_ms(&mut self, duration_ms: u64) -> &mut Self {
        self.scenario.duration_ms = Some(duration_ms);
        self
    }

    /// What the built simulation keeps ([`SimOptions::default`] when not set). Not part
    /// of the scenario's JSON: it bounds a run, it does not change it.
    pub fn options(&mut self, options: SimOptions) -> &mut Self {
        self.options = options;
        self
    }

    /// Adds a topic; returns its handle.
    pub fn topic(&mut self, topic: TopicSpec) -> TopicName {
        let name = TopicName(topic.name.clone());
        self.scenario.topics.push(topic);
        name
    }

    /// Adds a producer (with its planned sends); returns its handle.
    pub fn producer(&mut self, producer: ProducerSpec) -> ProducerName {
        let name = ProducerName(producer.name.clone());
        self.scenario.producers.push(producer);
        name
    }

    /// Adds a consumer group with its members; returns its handle.
    pub fn group(&mut self, group: GroupSpec) -> GroupId {
        let id = GroupId(group.id.clone());
        self.scenario.groups.push(group);
        id
    }

    /// Puts `command` on the timeline at `at_ms` of simulated time.
    pub fn at(&mut self, at_ms: u64, command: impl Into<Command>) -> &mut Self {
        self.scenario.commands.push(TimedCommand { at_ms, command: command.into() });
        self
    }

    /// The scenario, checked (what [`Scenario::check`] checks).
    pub fn scenario(&self) -> Result<Scenario, ScenarioError> {
        self.scenario.check()?;
        Ok(self.scenario.clone())
    }

    /// Checks the scenario and builds the simulation at time zero.
    pub fn build(&self) -> Result<Sim, ScenarioError> {
        self.scenario.build_with(self.options)
    }
}

impl TopicSpec {
    /// A topic named `name` with one partition, one replica and Kafka's topic defaults.
    pub fn new(name: impl Into<String>) -> Self {
        Self { name: name.into(), ..Self::default() }
    }

    /// How many partitions.
    pub fn partitions(mut self, partitions: u32) -> Self {
        self.partitions = partitions;
        self
    }

    /// Replicas per partition (at most the brokers).
    pub fn replication_factor(mut self, replication_factor: u32) -> Self {
        self.replication_factor = replication_factor;
        self
    }

    /// `min.insync.replicas` (1 to the replication factor).
    pub fn min_insync_replicas(mut self, min_insync_replicas: u32) -> Self {
        self.min_insync_replicas = min_insync_replicas;
        self
    }

    /// `unclean.leader.election.enable`.
    pub fn unclean_leader_election_enable(mut self, enable: bool) -> Self {
        self.unclean_leader_election_enable = enable;
        self
    }

    /// `message.timestamp.type`.
    pub fn message_timestamp_type(mut self, kind: TimestampType) -> Self {
        self.message_timestamp_type = kind;
        self
    }

    /// `retention.ms` (-1: no time limit).
    pub fn retention_ms(mut self, retention_ms: i64) -> Self {
        self.retention_ms = retention_ms;
        self
    }

    /// `retention.bytes` per partition (-1: no size limit).
    pub fn retention_bytes(mut self, retention_bytes: i64) -> Self {
        self.retention_bytes = retention_bytes;
        self
    }

    /// `segment.bytes`.
    pub fn segment_bytes(mut self, segment_bytes: u32) -> Self {
        self.segment_bytes = segment_bytes;
        self
    }

    /// `segment.ms`.
    pub fn segment_ms(mut self, segment_ms: u64) -> Self {
        self.segment_ms = segment_ms;
        self
    }

    /// `cleanup.policy`: `Delete` (retention), `Compact` (the log cleaner keeps each key's
    /// newest record) or `CompactDelete` (both).
    pub fn cleanup_policy(mut self, policy: crate::config::CleanupPolicy) -> Self {
        self.cleanup_policy = policy;
        self
    }

    /// `min.cleanable.dirty.ratio` (0.5), between 0 and 1.
    pub fn min_cleanable_dirty_ratio(mut self, ratio: f64) -> Self {
        self.min_cleanable_dirty_ratio = crate::config::Ratio(ratio);
        self
    }

    /// `min.compaction.lag.ms`.
    pub fn min_compaction_lag_ms(mut self, ms: u64) -> Self {
        self.min_compaction_lag_ms = ms;
        self
    }

    /// `max.compaction.lag.ms`.
    pub fn max_compaction_lag_ms(mut self, ms: u64) -> Self {
        self.max_compaction_lag_ms = ms;
        self
    }

    /// `delete.retention.ms`: how long a tombstone stays after the cleaner first sees it.
    pub fn delete_retention_ms(mut self, ms: u64) -> Self {
        self.delete_retention_ms = ms;
        self
    }
}

impl ProducerSpec {
    /// `transactional.id`: a transactional producer (it needs idempotence: acks=all).
    pub fn transactional_id(mut self, id: impl Into<String>) -> Self {
        self.config.transactional_id = Some(id.into());
        self
    }

    /// `transaction.timeout.ms`.
    pub fn transaction_timeout_ms(mut self, timeout_ms: u64) -> Self {
        self.config.transaction_timeout_ms = timeout_ms;
        self
    }

    /// `acks`.
    pub fn acks(mut self, acks: Acks) -> Self {
        self.config.acks = acks;
        self
    }

    /// `linger.ms`.
    pub fn linger_ms(mut self, linger_ms: u64) -> Self {
        self.config.linger_ms = linger_ms;
        self
    }

    /// `batch.size` in bytes.
    pub fn batch_size(mut self, batch_size: u32) -> Self {
        self.config.batch_size = batch_size;
        self
    }

    /// `enable.idempotence` (unset: on, unless a conflicting setting turns it off).
    pub fn enable_idempotence(mut self, enable: bool) -> Self {
        self.config.enable_idempotence = Some(enable);
        self
    }

    /// `retries`.
    pub fn retries(mut self, retries: u32) -> Self {
        self.config.retries = retries;
        self
    }

    /// `delivery.timeout.ms`.
    pub fn delivery_timeout_ms(mut self, delivery_timeout_ms: u64) -> Self {
        self.config.delivery_timeout_ms = delivery_timeout_ms;
        self
    }

    /// `buffer.memory`: the bytes the producer's batches may hold at once.
    pub fn buffer_memory(mut self, buffer_memory: u64) -> Self {
        self.config.buffer_memory = buffer_memory;
        self
    }

    /// `max.block.ms`: how long `send()` waits for `buffer.memory` before it fails.
    pub fn max_block_ms(mut self, max_block_ms: u64) -> Self {
        self.config.max_block_ms = max_block_ms;
        self
    }

    /// `request.timeout.ms`.
    pub fn request_timeout_ms(mut self, request_timeout_ms: u64) -> Self {
        self.config.request_timeout_ms = request_timeout_ms;
        self
    }

    /// `max.in.flight.requests.per.connection`.
    pub fn max_in_flight_requests_per_connection(mut self, n: u32) -> Self {
        self.config.max_in_flight_requests_per_connection = n;
        self
    }

    /// `partitioner.class` (the built-in partitioner by default).
    pub fn partitioner(mut self, partitioner: PartitionerKind) -> Self {
        self.config.partitioner = partitioner;
        self
    }

    /// Adds a planned series of sends.
    pub fn send(mut self, plan: SendPlan) -> Self {
        self.send.push(plan);
        self
    }
}

impl SendPlan {
    /// Keyless records with these values to `topic`, all at time 0 unless
    /// [`SendPlan::every_ms`] and [`SendPlan::start_ms`] say otherwise.
    pub fn values<V: Into<String>>(topic: &TopicName, values: impl IntoIterator<Item = V>) -> Self {
        Self { topic: topic.0.clone(), values: values.into_iter().map(Into::into).collect(), ..Self::default() }
    }

    /// Keyed records `(key, value)` to `topic`.
    ///
    /// A key's records go to one partition (murmur2 of the key), so its records are
    /// consumed in order — across a rebalance too, where a partition changes owner:
    ///
    /// ```
    /// use kafka_sandbox_core::{Command, GroupSpec, MemberSpec, OffsetReset, ProducerSpec, Scenario, SendPlan, SimOptions, SimTime, TopicSpec};
    ///
    /// let mut b = Scenario::builder();
    /// b.options(SimOptions::unbounded());
    /// let t = b.topic(TopicSpec::new("orders").partitions(4));
    /// let records = (0..400).map(|i| (format!("customer-{}", i % 8), format!("{i}")));
    /// b.producer(ProducerSpec::new("p").send(SendPlan::keyed(&t, records).every_ms(25)));
    /// let g = b.group(GroupSpec::new("g", [&t]).auto_offset_reset(OffsetReset::Earliest).members([MemberSpec::new("c1"), MemberSpec::new("c2")]));
    /// b.at(5_000, Command::add_member(&g, MemberSpec::new("c3")));
    /// let mut sim = b.build()?;
    /// sim.run_to(SimTime(30_000));
    /// // Every delivery in the group, in the order they happened.
    /// let group = sim.group(&g).expect("group");
    /// let mut all: Vec<_> = group.members().flat_map(|m| m.received()).collect();
    /// all.sort_by_key(|d| (d.at, d.tp.partition, d.offset));
    /// for k in 0..8 {
    ///     let key = format!("customer-{k}");
    ///     let mut first_seen: Vec<u32> = Vec::new();
    ///     for d in all.iter().filter(|d| d.key.as_deref() == Some(key.as_str())) {
    ///         let n: u32 = d.value.parse()?;
    ///         if !first_seen.contains(&n) {
    ///             first_seen.push(n);
    ///         }
    ///     }
    ///     assert!(first_seen.windows(2).all(|w| w[0] < w[1]), "{key} in order");
    ///     assert_eq!(first_seen.len(), 50);
    /// }
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn keyed<K: Into<String>, V: Into<String>>(topic: &TopicName, records: impl IntoIterator<Item = (K, V)>) -> Self {
        let (keys, values): (Vec<Option<String>>, Vec<String>) = records.into_iter().map(|(k, v)| (Some(k.into()), v.into())).unzip();
        Self { topic: topic.0.clone(), values, keys: Some(keys), ..Self::default() }
    }

    /// One record every `interval_ms` ms.
    pub fn every_ms(mut self, interval_ms: u64) -> Self {
        self.interval_ms = interval_ms;
        self
    }

    /// The first record at `start_ms`.
    pub fn start_ms(mut self, start_ms: u64) -> Self {
        self.start_ms = start_ms;
        self
    }
}

impl GroupSpec {
    /// With these members (consumers started with the group).
    pub fn members(mut self, members: impl IntoIterator<Item = MemberSpec>) -> Self {
        self.members.extend(members);
        self
    }

    /// `partition.assignment.strategy` (classic protocol).
    pub fn assignor(mut self, assignor: Strategy) -> Self {
        self.config.assignor = assignor;
        self
    }

    /// `group.protocol`: classic or consumer (KIP-848).
    pub fn protocol(mut self, protocol: GroupProtocol) -> Self {
        self.config.group_protocol = protocol;
        self
    }

    /// `group.remote.assignor` (consumer protocol).
    pub fn remote_assignor(mut self, assignor: ServerAssignor) -> Self {
        self.config.remote_assignor = assignor;
        self
    }

    /// `auto.offset.reset`.
    pub fn auto_offset_reset(mut self, reset: OffsetReset) -> Self {
        self.config.auto_offset_reset = reset;
        self
    }

    /// `isolation.level`: `read_committed` members read only committed transactions.
    pub fn isolation_level(mut self, level: crate::config::IsolationLevel) -> Self {
        self.config.isolation_level = level;
        self
    }
}

impl MemberSpec {
    /// `group.instance.id` (static membership, KIP-345).
    pub fn group_instance_id(mut self, id: impl Into<String>) -> Self {
        self.group_instance_id = Some(id.into());
        self
    }

    /// How long the application takes per record, in ms (the sandbox's stand-in for the
    /// work between polls).
    pub fn processing_ms(mut self, processing_ms: u64) -> Self {
        self.config.processing_ms = processing_ms;
        self
    }

    /// `max.poll.records`.
    pub fn max_poll_records(mut self, max_poll_records: u32) -> Self {
        self.config.max_poll_records = max_poll_records;
        self
    }

    /// `max.poll.interval.ms`.
    pub fn max_poll_interval_ms(mut self, max_poll_interval_ms: u64) -> Self {
        self.config.max_poll_interval_ms = max_poll_interval_ms;
        self
    }

    /// `session.timeout.ms` (classic protocol).
    pub fn session_timeout_ms(mut self, session_timeout_ms: u64) -> Self {
        self.config.session_timeout_ms = session_timeout_ms;
        self
    }

    /// `heartbeat.interval.ms` (classic protocol).
    pub fn heartbeat_interval_ms(mut self, heartbeat_interval_ms: u64) -> Self {
        self.config.heartbeat_interval_ms = heartbeat_interval_ms;
        self
    }

    /// How offsets are committed (`enable.auto.commit`, or by hand before or after
    /// processing).
    pub fn commit_mode(mut self, commit_mode: CommitMode) -> Self {
        self.config.commit_mode = commit_mode;
        self
    }
}

impl Command {
    /// `producer.send(new ProducerRecord(topic, key, value))`.
    pub fn produce(producer: &ProducerName, topic: &TopicName, key: Option<&str>, value: impl Into<String>) -> Self {
        ProduceCommand::Produce {
            producer: producer.0.clone(),
            topic: topic.0.clone(),
            key: key.map(str::to_string),
            value: Some(value.into()),
            partition: None,
            headers: Vec::new(),
        }
        .into()
    }

    /// `producer.send(new ProducerRecord(topic, key, null))`: a record with a null value,
    /// which on a compacted topic is a tombstone deleting `key`.
    pub fn tombstone(producer: &ProducerName, topic: &TopicName, key: &str) -> Self {
        ProduceCommand::Produce {
            producer: producer.0.clone(),
            topic: topic.0.clone(),
            key: Some(key.to_string()),
            value: None,
            partition: None,
            headers: Vec::new(),
        }
        .into()
    }

    /// The producer's `acks` changes.
    pub fn set_acks(producer: &ProducerName, acks: Acks) -> Self {
        ProduceCommand::SetAcks { producer: producer.0.clone(), acks }.into()
    }

    /// Broker `broker` crashes.
    pub fn crash_broker(broker: BrokerId) -> Self {
        BrokerCommand::CrashBroker { broker }.into()
    }

    /// A controlled shutdown of `broker` (`shutdown_broker`): its leaderships move at once.
    pub fn shutdown_broker(broker: BrokerId) -> Self {
        BrokerCommand::ShutdownBroker { broker }.into()
    }

    /// Broker `broker` restarts.
    pub fn restart_broker(broker: BrokerId) -> Self {
        BrokerCommand::RestartBroker { broker }.into()
    }

    /// Broker `broker` is cut off from the network (it keeps running).
    pub fn isolate_broker(broker: BrokerId) -> Self {
        BrokerCommand::IsolateBroker { broker }.into()
    }

    /// Broker `broker` is reachable again.
    pub fn heal_broker(broker: BrokerId) -> Self {
        BrokerCommand::HealBroker { broker }.into()
    }

    /// Broker `broker`'s replica fetches take `slow_ms` longer (0 restores them): as a
    /// follower it falls behind, and leaves the ISR once it lags more than
    /// `replica.lag.time.max.ms`.
    pub fn slow_broker(broker: BrokerId, slow_ms: u64) -> Self {
        BrokerCommand::SlowBroker { broker, slow_ms }.into()
    }

    /// A consumer starts and joins `group`.
    pub fn add_member(group: &GroupId, member: MemberSpec) -> Self {
        GroupCommand::AddMember { group: group.0.clone(), member }.into()
    }

    /// The consumer leaves its group cleanly (`close()`: a LeaveGroup request).
    pub fn remove_member(member: &MemberRef) -> Self {
        GroupCommand::RemoveMember { group: member.group.0.clone(), client_id: member.client_id.clone() }.into()
    }

    /// The consumer's process dies: no LeaveGroup; the coordinator notices after the
    /// session timeout.
    pub fn crash_member(member: &MemberRef) -> Self {
        GroupCommand::CrashMember { group: member.group.0.clone(), client_id: member.client_id.clone() }.into()
    }

    /// A crashed consumer starts again.
    pub fn restart_member(member: &MemberRef) -> Self {
        GroupCommand::RestartMember { group: member.group.0.clone(), client_id: member.client_id.clone() }.into()
    }

    /// The consumer's processing time per record changes.
    pub fn set_processing(member: &MemberRef, processing_ms: u64) -> Self {
        GroupCommand::SetProcessing { group: member.group.0.clone(), client_id: member.client_id.clone(), processing_ms }.into()
    }

    /// `producer.beginTransaction()`.
    pub fn begin_transaction(producer: &ProducerName) -> Self {
        crate::command::TxnCommand::BeginTransaction { producer: producer.0.clone() }.into()
    }

    /// `producer.commitTransaction()`.
    pub fn commit_transaction(producer: &ProducerName) -> Self {
        crate::command::TxnCommand::CommitTransaction { producer: producer.0.clone() }.into()
    }

    /// `producer.abortTransaction()`.
    pub fn abort_transaction(producer: &ProducerName) -> Self {
        crate::command::TxnCommand::AbortTransaction { producer: producer.0.clone() }.into()
    }

    /// `producer.sendOffsetsToTransaction(member's positions, member's group metadata)`.
    pub fn send_offsets_to_transaction(producer: &ProducerName, member: &MemberRef) -> Self {
        crate::command::TxnCommand::SendOffsetsToTransaction {
            producer: producer.0.clone(),
            group: member.group.0.clone(),
            client_id: member.client_id.clone(),
        }
        .into()
    }

    /// A transactional producer's process dies mid-transaction.
    pub fn crash_producer(producer: &ProducerName) -> Self {
        crate::command::TxnCommand::CrashProducer { producer: producer.0.clone() }.into()
    }

    /// A crashed transactional producer starts again.
    pub fn restart_producer(producer: &ProducerName) -> Self {
        crate::command::TxnCommand::RestartProducer { producer: producer.0.clone() }.into()
    }

    /// A group's `isolation.level` changes.
    pub fn set_isolation_level(group: &GroupId, level: crate::config::IsolationLevel) -> Self {
        crate::command::TxnCommand::SetIsolationLevel { group: group.0.clone(), isolation_level: level }.into()
    }
}
