//! The simulation: a driver (`driver.rs`: clock, queue, trace, RNG) and the owners of the
//! model's state — `Cluster` (`cluster/`), `Clients` (`produce.rs`), `Consumers` (`group/`),
//! `Apps` (`connect.rs`, `streams.rs`) — whose handlers move it forward.
//!
//! `apply(command)` is the only way the outside changes the world; `step()` applies
//! the next queued event, dispatched to its feature's `handle_x`, which calls the owner's
//! handler with the owners it reads and the driver. Handlers record trace events and
//! schedule further events through the driver; nothing reads a clock and every random
//! choice comes from the driver's RNG.

use crate::assign::{self, Subscription};
use crate::cluster::{
    partition_change, place_replicas, Broker, BrokerId, Change, ChangeRequest, Election, LostView, Partition, Registration, Topic,
    TopicConfig,
};
use crate::command::{
    check_name, Allowed, BrokerCommand, Command, CommandError, ConnectCommand, GroupCommand, GroupSpec, MemberSpec, NameOf, ProduceCommand,
    TopicCommand, MAX_GROUPS, MAX_MEMBERS_PER_GROUP, MAX_VALUE_CHARS,
};
use crate::config::{Acks, ClusterConfig, OffsetReset, ProducerConfig};
use crate::event::ProduceError;
use crate::event::{Event, EventKind, RebalanceCause, StartFrom, Trace};
use crate::group::{Activity, Delivery, Group, GroupState, Member};
use crate::limits;
use crate::monitor::Monitors;
use crate::name::Name;
use crate::partitioner::{record_size_in_bytes, PartitionReason};
use crate::producer::{Batch, ProduceRequest, Producer, SentRecord, MAX_REQUEST_SIZE};
use crate::record::{Record, RecordId, StoredRecord, TopicPartition};
use crate::time::SimTime;
use crate::vecmap::VecMap;
use std::time::Duration;

pub mod connect;
mod driver;
use driver::Driver;
mod cluster;
mod group;
mod options;
mod produce;
mod share;
pub mod streams;
mod streams_eos;
mod txn;
pub use options::{Dropped, SimOptions};
pub(crate) use share::{check_share_config, check_share_member};
pub(crate) use txn::check_transactional;

use crate::event::SettingsEvent;
use cluster::cleaner::CompactionPending;
use cluster::replication::ReplicationPending;
use cluster::{retention, Cluster};
use connect::ConnectPending;
use group::classic::ClassicPending;
use group::consume::ConsumePending;
use group::consumer::ConsumerProtocolPending;
use group::push::PushPending;
use group::{Consumers, GroupPending};
use produce::{Clients, ProducePending};
use txn::{Transactions, TxnPending};

/// `DefaultRecordBatch.RECORD_BATCH_OVERHEAD`: the bytes of a batch header (one constant,
/// `log::RECORD_BATCH_OVERHEAD_BYTES`, read here as the producer's `u32` sizes).
const RECORD_BATCH_OVERHEAD: u32 = crate::log::RECORD_BATCH_OVERHEAD_BYTES as u32;

/// A scenario producer's planned sends (`SendPlan`): value `k` goes out at
/// `start_ms + k × interval_ms`. They are queued one at a time — each when the one before
/// it runs — under sequence numbers reserved when the scenario was built, so they run in
/// exactly the order they would if all were queued at once; but the queue holds one of
/// them, not thousands, and a clone of the run (a time-travel checkpoint) stays cheap.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct PlannedSends {
    pub(crate) producer: String,
    pub(crate) topic: String,
    pub(crate) values: Vec<String>,
    pub(crate) keys: Option<Vec<Option<String>>>,
    pub(crate) start_ms: u64,
    pub(crate) interval_ms: u64,
    /// The queue sequence number of value 0; value `k` has `first_seq + k`.
    first_seq: u64,
}

impl PlannedSends {
    fn at(&self, k: usize) -> SimTime {
        SimTime(self.start_ms.saturating_add(self.interval_ms.saturating_mul(k as u64)))
    }

    fn command(&self, k: usize) -> Command {
        Command::Produce(ProduceCommand::Produce {
            producer: self.producer.clone(),
            topic: self.topic.clone(),
            key: self.keys.as_ref().and_then(|keys| keys.get(k).cloned().flatten()),
            value: Some(self.values.get(k).cloned().unwrap_or_default()),
            partition: None,
            headers: Vec::new(),
        })
    }
}

/// Something scheduled to happen at a moment of simulated time.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Pending {
    /// A command from the scenario's timeline.
    Command(Command),
    /// The `k`-th value of a scenario's planned sends (see [`PlannedSends`]).
    Planned { plan: std::sync::Arc<PlannedSends>, k: usize },
    /// An event of the producer and the leader's answer to a Produce request (`produce.rs`).
    Produce(ProducePending),
    /// An event of replication, the brokers' lives and their periodic checks (`replication.rs`).
    Replication(ReplicationPending),
    /// An event of consumer groups whatever their protocol: the heartbeat thread, session
    /// checks, offsets and LeaveGroup (`group/mod.rs`).
    Group(GroupPending),
    /// An event of the classic group protocol (JoinGroup, SyncGroup, Heartbeat) (`group/mod.rs`).
    Classic(ClassicPending),
    /// An event of the KIP-848 consumer protocol (`group/consumer.rs`).
    ConsumerProtocol(ConsumerProtocolPending),
    /// An event of a consumer's poll loop and its fetches (`group/consume.rs`).
    Consume(ConsumePending),
    /// An event of push delivery (not Kafka, a teaching device) (`group/push.rs`).
    Push(PushPending),
    /// An event of source connectors and their tables (`connect.rs`).
    Connect(ConnectPending),
    /// An event of share groups (KIP-932) (`share/`).
    ShareGroup(share::SharePending),
    /// An event of transactions: the producer, its coordinator, markers, transactional
    /// offsets (`txn/`).
    Txn(TxnPending),
    /// An event of the log cleaner (`cluster/cleaner.rs`).
    Compaction(CompactionPending),
}

impl From<CompactionPending> for Pending {
    fn from(p: CompactionPending) -> Self {
        Pending::Compaction(p)
    }
}

impl From<ProducePending> for Pending {
    fn from(p: ProducePending) -> Self {
        Pending::Produce(p)
    }
}

impl From<ReplicationPending> for Pending {
    fn from(p: ReplicationPending) -> Self {
        Pending::Replication(p)
    }
}

impl From<GroupPending> for Pending {
    fn from(p: GroupPending) -> Self {
        Pending::Group(p)
    }
}

impl From<ClassicPending> for Pending {
    fn from(p: ClassicPending) -> Self {
        Pending::Classic(p)
    }
}

impl From<ConsumerProtocolPending> for Pending {
    fn from(p: ConsumerProtocolPending) -> Self {
        Pending::ConsumerProtocol(p)
    }
}

impl From<ConsumePending> for Pending {
    fn from(p: ConsumePending) -> Self {
        Pending::Consume(p)
    }
}

impl From<PushPending> for Pending {
    fn from(p: PushPending) -> Self {
        Pending::Push(p)
    }
}

impl From<ConnectPending> for Pending {
    fn from(p: ConnectPending) -> Self {
        Pending::Connect(p)
    }
}

/// A record a consumer fetch returns, with the leader's HW at the time of the read.
/// The last element: whether `poll()` hides the record (a transaction marker, or under
/// read_committed a record of an aborted transaction; `txn/fetch.rs`); before it, the
/// offset the fetch read the partition from (a record past a gap the log cleaner left
/// continues a position at or after it: `group.rs`'s `continues`).
pub(crate) type Fetched = (TopicPartition, StoredRecord, u64, bool, u64);

/// A message on the wire (what the page draws moving between boxes).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Flight {
    /// What it carries, from whom to whom.
    pub kind: FlightKind,
    /// When it left.
    pub sent_at: SimTime,
    /// When it arrives (`sent_at` plus the network latency, and a slow broker's delay).
    pub arrives_at: SimTime,
}

/// What a [`Flight`] carries.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
#[non_exhaustive]
pub enum FlightKind {
    /// A Produce request carrying a batch to the leader.
    Produce {
        /// The sending producer.
        producer: String,
        /// The partition the batch is for.
        tp: TopicPartition,
        /// The batch's record values.
        values: Vec<String>,
    },
    /// The Produce response carrying offsets (or an error) back.
    ProduceAck {
        /// The producer it answers.
        producer: String,
        /// The partition.
        tp: TopicPartition,
        /// The offsets the leader gave the records.
        offsets: Vec<u64>,
        /// The partition's error, if the batch failed.
        error: Option<ProduceError>,
    },
    /// A follower fetch response carrying records from the leader to a follower.
    Replicate {
        /// The partition.
        tp: TopicPartition,
        /// The follower receiving them.
        follower: BrokerId,
        /// The record values copied.
        values: Vec<String>,
    },
    /// Share groups (KIP-932): acknowledgements on their way to a partition leader, riding
    /// on a ShareFetch or in a ShareAcknowledge.
    ShareAcknowledge {
        /// The consumer's group.
        group: String,
        /// The consumer's `client.id`.
        client_id: String,
        /// Each acknowledgement: partition, offset, type.
        acks: Vec<(TopicPartition, u64, crate::command::AcknowledgeType)>,
    },
    /// A Fetch response carrying records to a consumer.
    FetchData {
        /// The consumer's group.
        group: String,
        /// The consumer's `client.id`.
        client_id: String,
        /// The records, with their partitions.
        records: Vec<(TopicPartition, String)>,
    },
}

/// What one call to [`Sim::step`] did: when, and which trace events it recorded
/// (`sim.read().events_since(outcome.first_event)`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct StepOutcome {
    /// The simulated time of the step.
    pub time: SimTime,
    /// How many trace events the step recorded.
    pub events: u64,
    /// The sequence number of the first of them ([`Event::seq`]).
    pub first_event: u64,
}

/// A command applied from outside, with the moment it was applied: enough to replay.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct LoggedCommand {
    /// How many queued events had been applied before it.
    pub after_steps: u64,
    /// The simulated time it was applied at.
    pub at: SimTime,
    /// The command.
    pub command: Command,
}

/// Applications built on the clients: Kafka Connect source connectors (`sim/connect.rs`)
/// and Kafka Streams applications (`sim/streams.rs`).
#[derive(Clone, Debug)]
pub(crate) struct Apps {
    /// Source connectors, each with one task.
    pub(crate) connectors: Vec<connect::Connector>,
    pub(crate) streams: Vec<streams::StreamsApp>,
}

/// The whole simulated world: the driver (clock, queue, trace, RNG) and the owners of the
/// model's state, each changed only by its own handlers. Cloning it forks the run.
#[derive(Clone, Debug)]
pub struct Sim {
    pub(crate) seed: u64,
    /// The clock, the queue, the trace and its monitors, the RNG (`driver.rs`).
    pub(crate) out: Driver,
    pub(crate) cluster: Cluster,
    pub(crate) clients: Clients,
    pub(crate) consumers: Consumers,
    pub(crate) apps: Apps,
    /// The transaction coordinators (`txn/`).
    pub(crate) txns: Transactions,
    command_log: Vec<LoggedCommand>,
}

impl Sim {
    /// An empty cluster: no topics, producers or groups. A scenario (or
    /// [`Scenario::builder`](crate::Scenario::builder)) gives it topics, producers and groups.
    pub fn new(seed: u64, config: ClusterConfig) -> Self {
        Self::with_options(seed, config, SimOptions::default())
    }

    /// An empty cluster keeping what `options` allow (see [`SimOptions`]).
    pub fn with_options(seed: u64, config: ClusterConfig, options: SimOptions) -> Self {
        let check_every = (config.replica_lag_time_max_ms / 2).max(1);
        let mut sim = Self {
            seed,
            out: Driver::with_options(seed, config.network_latency_ms, options),
            cluster: Cluster::new(config),
            clients: Clients::new(),
            consumers: Consumers::new(),
            apps: Apps { connectors: Vec::new(), streams: Vec::new() },
            txns: Transactions::default(),
            command_log: Vec::new(),
        };
        sim.out.at(SimTime(check_every), ReplicationPending::IsrCheck);
        sim.cluster.create_offsets_topic(&mut sim.out.rng);
        // The brokers' cleaners run from the start: `__consumer_offsets` is compacted.
        sim.cluster.ensure_cleaner(&mut sim.out);
        sim.cluster.create_transaction_state_topic(&mut txn::placement_rng(seed));
        sim.out.at(SimTime(retention::LOG_INITIAL_TASK_DELAY_MS), ReplicationPending::RetentionCheck);
        // `GroupCoordinatorShard.scheduleGroupMetadataExpiration`: one interval after start.
        let every = sim.cluster.config.offsets_retention_check_interval_ms.max(1);
        sim.out.at(SimTime(every), GroupPending::OffsetsRetentionCheck);
        sim
    }

    // ----- reading -------------------------------------------------------

    /// The simulated time now.
    pub fn now(&self) -> SimTime {
        self.out.now
    }

    /// The seed of the run's RNG: with the scenario and the command log, it reproduces the run.
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// The bounds this run keeps within.
    pub fn options(&self) -> SimOptions {
        self.out.options
    }

    /// What the run has dropped under its [`SimOptions`] so far. All zero
    /// ([`Dropped::is_none`]) means every reader answers from the whole run.
    pub fn dropped(&self) -> Dropped {
        let mut d = Dropped {
            trace_events: self.out.trace.dropped(),
            monitor_records: self.out.monitors.forgotten(),
            findings: self.out.monitors.findings_dropped(),
            lost: self.cluster.lost_dropped,
            ..Dropped::default()
        };
        for g in self.consumers.groups.values() {
            d.duplicates += g.duplicates.saturating_sub(g.duplicate_log.len() as u64);
            for m in &g.members {
                d.received += m.received_total().saturating_sub(m.received().count() as u64);
            }
        }
        for p in self.clients.producers.values() {
            d.sent += p.sent_total.saturating_sub(p.sent.len() as u64);
        }
        d
    }

    /// The cluster's configuration (brokers, timeouts, network latency).
    pub fn cluster(&self) -> &ClusterConfig {
        &self.cluster.config
    }

    /// What the guarantee monitors found so far.
    pub fn monitors(&self) -> &Monitors {
        &self.out.monitors
    }

    /// The trace: every event of the run, the newest [`SimOptions::trace_events`] kept
    /// ([`Trace::is_truncated`] says whether older ones were dropped).
    pub fn trace(&self) -> &Trace {
        &self.out.trace
    }

    /// Records leader changes left behind on `tp`, oldest first (the newest
    /// [`SimOptions::lost_per_partition`]): acknowledged under acks=1, or not yet committed.
    pub fn lost_records(&self, tp: &TopicPartition) -> impl Iterator<Item = &LostView> {
        self.cluster.lost_records(tp)
    }

    /// The broker coordinating `group` (the leader of its `__consumer_offsets` partition).
    pub fn coordinator_of(&self, group: &str) -> Option<BrokerId> {
        self.cluster.coordinator_of(group)
    }

    /// Commands applied from outside since the start, in order: with the scenario
    /// and seed they rebuild this exact state ([`Sim::replay`]).
    pub fn command_log(&self) -> &[LoggedCommand] {
        &self.command_log
    }

    /// How many queued events have been applied.
    pub fn steps(&self) -> u64 {
        self.out.steps
    }

    /// When the next queued event is due, if any.
    pub fn next_event_time(&self) -> Option<SimTime> {
        self.out.queue.keys().next().map(|(t, _)| *t)
    }

    /// Messages on the wire now: produce requests and responses, fetch responses with
    /// records. The page draws them moving between clients and the broker.
    ///
    /// A Produce request carries one batch per partition: it shows as one `Produce` per
    /// batch (and its response as one `ProduceAck` per partition), all moving together.
    pub fn in_flight(&self) -> Vec<Flight> {
        let latency = self.out.latency();
        let mut flights = Vec::new();
        for ((at, _), pending) in &self.out.queue {
            let sent_at = SimTime(at.ms().saturating_sub(latency));
            match pending {
                Pending::Produce(ProducePending::ProduceArrive { producer, batches, .. }) => {
                    for b in batches {
                        let kind = FlightKind::Produce {
                            producer: producer.to_string(),
                            tp: b.tp.clone(),
                            values: b.records.iter().map(|r| r.value.to_string()).collect(),
                        };
                        flights.push(Flight { kind, sent_at, arrives_at: *at });
                    }
                    continue;
                }
                Pending::Produce(ProducePending::ProduceResponse { producer, results, .. }) => {
                    for (_, tp, result) in results {
                        let kind = FlightKind::ProduceAck {
                            producer: producer.to_string(),
                            tp: tp.clone(),
                            offsets: result.as_ref().map(|a| a.iter().map(|a| a.2).collect()).unwrap_or_default(),
                            error: result.as_ref().err().copied(),
                        };
                        flights.push(Flight { kind, sent_at, arrives_at: *at });
                    }
                    continue;
                }
                Pending::ShareGroup(s) => {
                    flights.extend(s.flights(sent_at, *at));
                    continue;
                }
                _ => {}
            }
            let kind = match pending {
                Pending::Replication(ReplicationPending::ReplicaFetchResponse { tp, follower, records, .. }) if !records.is_empty() => {
                    FlightKind::Replicate {
                        tp: tp.clone(),
                        follower: *follower,
                        values: records.iter().map(|r| r.record.value.to_string()).collect(),
                    }
                }
                Pending::Consume(ConsumePending::FetchResponse { group, client_id, records, .. })
                | Pending::Push(PushPending::PushArrive { group, client_id, records, .. })
                    if !records.is_empty() =>
                {
                    FlightKind::FetchData {
                        group: group.to_string(),
                        client_id: client_id.to_string(),
                        records: records.iter().filter(|f| !f.3).map(|(tp, r, _, _, _)| (tp.clone(), r.record.value.to_string())).collect(),
                    }
                }
                _ => continue,
            };
            flights.push(Flight { kind, sent_at, arrives_at: *at });
        }
        flights
    }

    /// The events recorded since `seq` (see [`Event::seq`]).
    pub fn events_since(&self, seq: u64) -> impl Iterator<Item = &Event> {
        self.out.trace.since(seq)
    }

    // ----- moving forward ------------------------------------------------

    /// Applies the next queued event. `None` when nothing is queued.
    pub fn step(&mut self) -> Option<StepOutcome> {
        let (key, pending) = self.out.queue.pop_first()?;
        self.out.now = self.out.now.max(key.0);
        self.out.steps += 1;
        let before = self.out.trace.total();
        self.handle(pending);
        self.debug_check_invariants();
        Some(StepOutcome { time: self.out.now, events: self.out.trace.total() - before, first_event: before })
    }

    /// Applies queued events until one records something in the trace (what a person
    /// calls "one step"). Quiet events (a fetch waiting out `fetch.max.wait.ms`) repeat
    /// forever in an idle cluster, so it gives up once the next event lies more than
    /// [`Sim::STEP_HORIZON_MS`] ahead, returning `None` with nothing visible applied.
    pub fn step_visible(&mut self) -> Option<StepOutcome> {
        let horizon = self.out.now.plus_ms(Self::STEP_HORIZON_MS);
        loop {
            if self.next_event_time()? > horizon {
                return None;
            }
            let outcome = self.step()?;
            if outcome.events > 0 {
                return Some(outcome);
            }
        }
    }

    /// How far ahead [`Sim::step_visible`] looks for something to show.
    pub const STEP_HORIZON_MS: u64 = 60_000;

    /// Applies every event due at or before `until`, then moves the clock to `until`.
    pub fn run_to(&mut self, until: SimTime) {
        while let Some(t) = self.next_event_time() {
            if t > until {
                break;
            }
            self.step();
        }
        self.out.now = self.out.now.max(until);
    }

    /// Runs for `duration` of simulated time from now (whole milliseconds; the clock's
    /// unit), as [`Sim::run_to`].
    pub fn run_for(&mut self, duration: Duration) {
        let ms = u64::try_from(duration.as_millis()).unwrap_or(u64::MAX);
        self.run_to(self.now().plus_ms(ms));
    }

    /// Like [`Sim::run_to`] but stops after `max_steps` events; returns whether it
    /// reached `until`. The page uses it so one frame never does unbounded work.
    pub fn run_to_bounded(&mut self, until: SimTime, max_steps: u64) -> bool {
        for _ in 0..max_steps {
            match self.next_event_time() {
                Some(t) if t <= until => {
                    self.step();
                }
                _ => {
                    self.out.now = self.out.now.max(until);
                    return true;
                }
            }
        }
        false
    }

    /// Rebuilds a run: `base` (a freshly built simulation) plus the logged commands.
    pub fn replay(base: Sim, log: &[LoggedCommand]) -> Result<Sim, CommandError> {
        let mut sim = base;
        for entry in log {
            while sim.out.steps < entry.after_steps && sim.step().is_some() {}
            sim.out.now = sim.out.now.max(entry.at);
            sim.apply(entry.command.clone())?;
        }
        Ok(sim)
    }

    /// Applies a logged command again, at its moment (used by time travel): the clock
    /// moves to when it was applied if it is not there yet. A command refused now was
    /// refused then too, so the error is dropped.
    pub fn apply_logged(&mut self, entry: &LoggedCommand) {
        self.out.now = self.out.now.max(entry.at);
        let _ = self.apply(entry.command.clone());
    }

    /// Applies a command now — a [`Command`] or a feature's own command
    /// (`sim.apply(BrokerCommand::CrashBroker { broker: 1 })`). On error nothing has changed.
    ///
    /// ```
    /// use kafka_sandbox_core::{Command, CommandError, Scenario, SimTime, TopicSpec};
    ///
    /// let mut b = Scenario::builder();
    /// b.brokers(3);
    /// b.topic(TopicSpec::new("t").replication_factor(3));
    /// let mut sim = b.build()?;
    /// sim.apply(Command::crash_broker(2))?;
    /// sim.run_to(SimTime(15_000));
    /// assert!(!sim.broker(2).expect("broker 2").alive());
    /// // A refused command says why, and changes nothing.
    /// assert!(matches!(sim.apply(Command::crash_broker(7)), Err(CommandError::UnknownBroker(7))));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn apply(&mut self, command: impl Into<Command>) -> Result<(), CommandError> {
        let command = command.into();
        self.validate(&command)?;
        self.command_log.push(LoggedCommand { after_steps: self.out.steps, at: self.out.now, command: command.clone() });
        self.execute(command);
        self.debug_check_invariants();
        Ok(())
    }

    /// The named invariants ([`crate::invariant`]) after every event and command, in debug
    /// and fuzz builds; a release build (the page, the CLI) neither pays for it nor can
    /// panic here.
    #[inline]
    fn debug_check_invariants(&self) {
        #[cfg(debug_assertions)]
        if let Err(v) = crate::invariant::check_with(self, crate::invariant::Depth::Ends) {
            panic!("step {} at {} ms: {v}", self.out.steps, self.out.now.ms());
        }
    }

    // ----- building (used by the scenario loader) ------------------------

    /// Creates a topic: replicas placed as Kafka's controller places them, the first
    /// replica of each partition its leader, every replica in the ISR, followers fetching.
    pub(crate) fn add_topic(&mut self, name: &str, partitions: u32, replication_factor: u32, config: TopicConfig) {
        self.cluster.add_topic(name, partitions, replication_factor, config, &mut self.out);
    }

    /// [`Sim::add_topic`] with the scenario's `topic_id`, if it gives one.
    pub(crate) fn add_topic_with_id(
        &mut self,
        name: &str,
        id: Option<crate::uuid::Uuid>,
        partitions: u32,
        replication_factor: u32,
        config: TopicConfig,
    ) {
        self.cluster.add_topic_with_id(name, id, partitions, replication_factor, config, &mut self.out);
    }

    pub(crate) fn add_producer(&mut self, name: &str, config: ProducerConfig) {
        self.clients.producers.insert(name.to_string(), Producer::new(name, config));
        // A transactional producer's application calls `initTransactions()` first.
        self.clients.txn_init(name, &self.cluster, &mut self.out);
    }

    /// Queues a command for a later moment, as a scenario's timeline does: it is checked
    /// when it runs (one that no longer fits is skipped with a `command_rejected` event).
    /// Unlike [`Sim::apply`] it is not in [`Sim::command_log`], so [`Sim::replay`] does not
    /// rebuild it: it is for tools that feed a long run in pieces (the memory benchmark
    /// produces 1,000 records a second for a simulated day) without the log growing.
    pub fn schedule_command(&mut self, at: SimTime, command: impl Into<Command>) {
        self.out.at(at, Pending::Command(command.into()));
    }

    /// Queues a scenario producer's planned sends (see [`PlannedSends`]): reserves a
    /// sequence number for each value and queues the first.
    pub(crate) fn schedule_planned(
        &mut self,
        producer: String,
        topic: String,
        values: Vec<String>,
        keys: Option<Vec<Option<String>>>,
        start_ms: u64,
        interval_ms: u64,
    ) {
        if values.is_empty() {
            return;
        }
        let first_seq = self.out.next_seq;
        self.out.next_seq += values.len() as u64;
        let plan = std::sync::Arc::new(PlannedSends { producer, topic, values, keys, start_ms, interval_ms, first_seq });
        self.out.queue.insert((plan.at(0).max(self.out.now), first_seq), Pending::Planned { plan, k: 0 });
    }

    /// Runs a command as part of building (not logged: the scenario rebuilds it).
    pub(crate) fn apply_unlogged(&mut self, command: Command) -> Result<(), CommandError> {
        self.validate(&command)?;
        self.execute(command);
        Ok(())
    }

    // ----- internals -----------------------------------------------------

    pub(crate) fn partition_state(&self, tp: &TopicPartition) -> Option<&Partition> {
        self.cluster.partition(tp)
    }

    /// One line per feature: each checks its own commands.
    fn validate(&self, command: &Command) -> Result<(), CommandError> {
        if let Command::Produce(crate::command::ProduceCommand::Produce { topic, .. }) = command {
            // The one name a send carries, without collecting the names (every record).
            check_name(NameOf::Topic, topic)?;
        } else {
            for topic in command.topic_names() {
                check_name(NameOf::Topic, topic)?;
            }
        }
        match command {
            Command::Produce(c) => self.validate_produce_command(c),
            Command::Broker(c) => self.validate_broker_command(c),
            Command::Topic(c) => self.validate_topic_command(c),
            Command::Group(c) => self.validate_group_command(c),
            Command::Connect(c) => self.validate_connect_command(c),
            Command::ShareGroup(c) => self.validate_share_group_command(c),
            Command::Txn(c) => self.validate_txn_command(c),
        }
    }
}

/// Limits on a produced record's key, value and headers.
pub(crate) fn check_record_size(key: Option<&str>, value: &str, headers: &[crate::record::Header]) -> Result<(), CommandError> {
    // Never fewer bytes than characters: the count only when the bytes are over.
    let too_long = |s: &str| s.len() > MAX_VALUE_CHARS && s.chars().count() > MAX_VALUE_CHARS;
    if too_long(value) || key.is_some_and(too_long) {
        return Err(CommandError::RecordTooLong);
    }
    if headers.len() > crate::limits::MAX_HEADERS || headers.iter().any(|h| too_long(&h.key) || too_long(&h.value)) {
        return Err(CommandError::TooManyHeaders);
    }
    Ok(())
}

/// The checks of a member that need no cluster state.
pub(crate) fn check_member_spec(group: &str, m: &MemberSpec) -> Result<(), CommandError> {
    check_name(NameOf::ClientId, &m.client_id)?;
    if let Some(id) = &m.group_instance_id {
        check_name(NameOf::GroupInstanceId, id)?;
    }
    // Each setting within its row of the limits table, refused naming it with its value.
    let c = &m.config;
    for (setting, value, row) in [
        ("max_poll_records", u64::from(c.max_poll_records), &limits::MEMBER_MAX_POLL_RECORDS),
        ("heartbeat_interval_ms", c.heartbeat_interval_ms, &limits::MEMBER_HEARTBEAT_INTERVAL_MS),
        ("session_timeout_ms", c.session_timeout_ms, &limits::MEMBER_SESSION_TIMEOUT_MS),
        ("max_poll_interval_ms", c.max_poll_interval_ms, &limits::MEMBER_MAX_POLL_INTERVAL_MS),
        ("metadata_max_age_ms", c.metadata_max_age_ms, &limits::MEMBER_METADATA_MAX_AGE_MS),
        ("fetch_max_wait_ms", c.fetch_max_wait_ms, &limits::MEMBER_FETCH_MAX_WAIT_MS),
        ("auto_commit_interval_ms", c.auto_commit_interval_ms, &limits::MEMBER_AUTO_COMMIT_INTERVAL_MS),
        ("processing_ms", c.processing_ms, &limits::MEMBER_PROCESSING_MS),
    ] {
        if !row.allows(value) {
            let allowed = if row.max == u64::MAX {
                Allowed::AtLeast(row.min)
            } else if (row.min, row.max) == (1, limits::MAX_TIME_MS) {
                Allowed::UpToAWeek
            } else {
                Allowed::Range { min: row.min, max: row.max }
            };
            return Err(CommandError::MemberSetting { setting, group: group.to_string(), client_id: m.client_id.clone(), value, allowed });
        }
    }
    // The consumer refuses to start with a heartbeat as long as its session: its session
    // would expire between two heartbeats (`Heartbeat` / `GroupRebalanceConfig`:
    // "Heartbeat must be set lower than the session timeout", an IllegalArgumentException
    // from the `KafkaConsumer` constructor).
    if c.heartbeat_interval_ms >= c.session_timeout_ms {
        return Err(CommandError::MemberSetting {
            setting: "heartbeat_interval_ms",
            group: group.to_string(),
            client_id: m.client_id.clone(),
            value: c.heartbeat_interval_ms,
            allowed: Allowed::Below { setting: "session_timeout_ms", value: c.session_timeout_ms },
        });
    }
    Ok(())
}

impl Sim {
    /// One line per feature: each executes its own commands (checked first).
    fn execute(&mut self, command: Command) {
        match command {
            Command::Produce(c) => self.execute_produce_command(c),
            Command::Broker(c) => self.execute_broker_command(c),
            Command::Topic(c) => self.execute_topic_command(c),
            Command::Group(c) => self.execute_group_command(c),
            Command::Connect(c) => self.execute_connect_command(c),
            Command::ShareGroup(c) => self.execute_share_group_command(c),
            Command::Txn(c) => self.execute_txn_command(c),
        }
    }

    fn handle(&mut self, pending: Pending) {
        match pending {
            Pending::Planned { plan, k } => {
                if k + 1 < plan.values.len() {
                    let key = (plan.at(k + 1).max(self.out.now), plan.first_seq + k as u64 + 1);
                    self.out.queue.insert(key, Pending::Planned { plan: plan.clone(), k: k + 1 });
                }
                self.handle(Pending::Command(plan.command(k)));
            }
            Pending::Command(command) => {
                if let Err(e) = self.validate(&command) {
                    // A timeline command that no longer fits (say, removing a member that
                    // already left) is skipped, and the trace says why.
                    self.out.emit(EventKind::Settings(SettingsEvent::CommandRejected { reason: e.to_string() }));
                } else {
                    self.execute(command);
                    self.consumers.load_moved_coordinators(&self.cluster, &mut self.out);
                }
            }
            Pending::Produce(p) => self.handle_produce(p),
            Pending::Replication(p) => {
                self.handle_replication(p);
                // A `__consumer_offsets` partition that got a new leader is loaded by it.
                self.consumers.load_moved_coordinators(&self.cluster, &mut self.out);
            }
            Pending::Group(p) => self.handle_group(p),
            Pending::Classic(p) => self.handle_classic(p),
            Pending::ConsumerProtocol(p) => self.handle_consumer_protocol(p),
            Pending::Consume(p) => self.handle_consume(p),
            Pending::Push(p) => self.handle_push(p),
            Pending::Connect(p) => self.handle_connect(p),
            Pending::ShareGroup(p) => self.handle_share_group(p),
            Pending::Txn(p) => self.handle_txn(p),
            Pending::Compaction(p) => self.handle_compaction(p),
        }
    }
}

/// Every assignor Kafka's consumer ships is supported (Range, RoundRobin, Sticky,
/// CooperativeSticky); kept as the one place a strategy would be refused.
pub(crate) fn check_strategy(strategy: assign::Strategy) -> Result<(), CommandError> {
    match strategy {
        assign::Strategy::Range | assign::Strategy::RoundRobin | assign::Strategy::Sticky | assign::Strategy::CooperativeSticky => Ok(()),
    }
}
