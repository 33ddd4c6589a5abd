//! The read layer: borrowed, cheap views of one entity each (broker, topic, partition,
//! producer, group, member, lag, findings, events, what a record went through) over a
//! `&Sim`. Nothing is copied until a caller asks for it: a view is a few references, so
//! the page can read what a frame needs, the snapshot is built from the same views, and
//! tests compare the same numbers the page shows.
//!
//! The types the views hand out are re-exported here, so a reader needs no module of the
//! layers below (`tests/tidy.rs`'s page debts).

use crate::cluster::{Broker, LostView, Partition, Topic};
use crate::config::{Acks, DeliveryMode, GroupProtocol, OffsetReset, PartitionerKind, ServerAssignor, Strategy};
use crate::event::Event;
use crate::group::{Group, Member};
use crate::log::PartitionLog;
pub use crate::log::{CompactionConfig, LogToClean, Records, Segment};
use crate::producer::Producer;
use crate::record::{BrokerId, RecordId, StoredRecord, TopicPartition};
use crate::sim::connect::Connector;
use crate::sim::streams::StreamsApp;
use crate::sim::Sim;
use crate::time::SimTime;

pub use crate::group::{
    Activity, CommitMode, Delivery, DuplicateRecord, GroupState, HandoverKind, Phase, RebalanceProtocol, Reconcile, UnprocessedCause,
    UnprocessedRecord,
};
pub use crate::monitor::{Finding, FindingKind};
pub use crate::producer::SentRecord;
pub use crate::provenance::{Hop, Path};
pub use crate::sim::connect::{ConnectorView, QueryMode, SourceOffset};
pub use crate::sim::streams::{StreamsOp, StreamsView};
pub use crate::sim::{Flight, FlightKind};

/// The whole simulation, read. `Copy`: pass it by value.
///
/// Get it from [`Sim::read`]; the shortcuts on `Sim` ([`Sim::partition`], [`Sim::group`],
/// [`Sim::member`], [`Sim::producer`], …) go through it. Every view borrows the `Sim`:
/// read what you need, then let the views go before the next [`Sim::run_to`] or
/// [`Sim::apply`]. Times are [`SimTime`]s and durations are in ms, both of simulated
/// time. Counters named `…_total` (and the counters of the views) cover the whole run;
/// lists of past things (events, findings, sends, deliveries, duplicates, lost records)
/// keep only the newest, as bounded by [`SimOptions`](crate::SimOptions).
///
/// # Example
///
/// ```
/// use kafka_sandbox_core::{Scenario, SimTime, TopicSpec};
///
/// let mut b = Scenario::builder();
/// b.brokers(3);
/// b.topic(TopicSpec::new("orders").partitions(3).replication_factor(2));
/// let mut sim = b.build()?;
/// sim.run_to(SimTime(1_000));
///
/// let read = sim.read();
/// assert_eq!(read.now(), SimTime(1_000));
/// assert_eq!(read.brokers().filter(|b| b.alive()).count(), 3);
/// assert_eq!(read.partition_count(), 3);
/// for p in read.topics().flat_map(|t| t.partitions()) {
///     // Two replicas each; at the start the first (preferred) replica leads, in epoch 0.
///     assert_eq!(p.replicas().len(), 2);
///     assert_eq!(p.leader(), p.replicas().first().copied());
///     assert_eq!(p.leader_epoch(), 0);
/// }
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy)]
pub struct Read<'a> {
    sim: &'a Sim,
}

impl Sim {
    /// The read layer over this simulation (see [`Read`]).
    pub fn read(&self) -> Read<'_> {
        Read { sim: self }
    }

    /// The brokers, by id (see [`BrokerRead`]).
    pub fn brokers(&self) -> impl Iterator<Item = BrokerRead<'_>> {
        self.read().brokers()
    }

    /// Broker `id`: alive, isolated, fenced.
    pub fn broker(&self, id: BrokerId) -> Option<BrokerRead<'_>> {
        self.read().broker(id)
    }

    /// The topics, by name.
    pub fn topics(&self) -> impl Iterator<Item = TopicRead<'_>> {
        self.read().topics()
    }

    /// Topic `name`: its settings and partitions.
    pub fn topic(&self, name: &str) -> Option<TopicRead<'_>> {
        self.read().topic(name)
    }

    /// Partition `tp`: leader, leader epoch, replicas, ISR, log start and end offsets, high
    /// watermark and its records (see [`PartitionRead`]).
    pub fn partition(&self, tp: &TopicPartition) -> Option<PartitionRead<'_>> {
        self.read().partition(tp)
    }

    /// The producers, by name.
    pub fn producers(&self) -> impl Iterator<Item = ProducerRead<'_>> {
        self.read().producers()
    }

    /// Producer `name`: settings, records sent, acknowledged, failed, retried, latency.
    pub fn producer(&self, name: &str) -> Option<ProducerRead<'_>> {
        self.read().producer(name)
    }

    /// The consumer groups, by `group.id`.
    pub fn groups(&self) -> impl Iterator<Item = GroupRead<'_>> {
        self.read().groups()
    }

    /// Group `id`: state, generation or epoch, members, assignment, committed offsets, lag
    /// per partition, and counters (rebalances, poll timeouts, records processed twice,
    /// records committed but never processed) — see [`GroupRead`].
    pub fn group(&self, id: &str) -> Option<GroupRead<'_>> {
        self.read().group(id)
    }

    /// The member of group `group` with `client.id` = `client_id`.
    pub fn member(&self, group: &str, client_id: &str) -> Option<MemberRead<'_>> {
        self.read().group(group)?.member(client_id)
    }
}

impl<'a> Read<'a> {
    /// The simulated time now: the time of the last event applied, or the target of the
    /// last [`Sim::run_to`] if that is later.
    pub fn now(self) -> SimTime {
        self.sim.out.now
    }

    /// The seed of the simulation's RNG (replica placement, sticky partitions, retry
    /// jitter, member ids): the same scenario, seed and commands give the same run.
    pub fn seed(self) -> u64 {
        self.sim.seed
    }

    /// How many queued events have been applied since the start (one per [`Sim::step`]).
    pub fn steps(self) -> u64 {
        self.sim.steps()
    }

    /// Events the run has produced (kept in the trace or not).
    pub fn events_total(self) -> u64 {
        self.sim.out.trace.total()
    }

    /// When the next queued event is due (`None`: nothing is queued). Consumers heartbeat
    /// forever, so a run with a consumer group always has one.
    pub fn next_event_at(self) -> Option<SimTime> {
        self.sim.next_event_time()
    }

    /// The brokers, by id, crashed ones included (see [`BrokerRead::alive`]).
    pub fn brokers(self) -> impl Iterator<Item = BrokerRead<'a>> {
        let sim = self.sim;
        self.sim.cluster.brokers.values().map(move |b| BrokerRead(b, sim))
    }

    /// Broker `id` (`None`: the cluster has no such broker).
    pub fn broker(self, id: BrokerId) -> Option<BrokerRead<'a>> {
        self.sim.cluster.brokers.get(&id).map(|b| BrokerRead(b, self.sim))
    }

    /// The topics, by name (the internal `__consumer_offsets` is not among them).
    pub fn topics(self) -> impl Iterator<Item = TopicRead<'a>> {
        self.sim.cluster.topics.values().map(move |t| TopicRead { sim: self.sim, topic: t })
    }

    /// Topic `name` (`None`: no such topic).
    pub fn topic(self, name: &str) -> Option<TopicRead<'a>> {
        self.sim.cluster.topics.get(name).map(|t| TopicRead { sim: self.sim, topic: t })
    }

    /// Partition `tp` (`None`: no such topic or partition); see [`PartitionRead`].
    pub fn partition(self, tp: &TopicPartition) -> Option<PartitionRead<'a>> {
        self.topic(&tp.topic)?.partition(tp.partition)
    }

    /// Partitions of every topic.
    pub fn partition_count(self) -> usize {
        self.sim.cluster.topics.values().map(|t| t.partitions.len()).sum()
    }

    /// The producer clients, by name.
    pub fn producers(self) -> impl Iterator<Item = ProducerRead<'a>> {
        let sim = self.sim;
        self.sim.clients.producers.values().map(move |p| ProducerRead(p, sim))
    }

    /// Producer `name` (its `client.id`; `None`: no such producer); see [`ProducerRead`].
    pub fn producer(self, name: &str) -> Option<ProducerRead<'a>> {
        self.sim.clients.producers.get(name).map(|p| ProducerRead(p, self.sim))
    }

    /// Records sent by every producer so far (`send()` calls over the whole run, whatever
    /// became of them).
    pub fn sent_total(self) -> u64 {
        self.sim.clients.producers.values().map(|p| p.sent_total).sum()
    }

    /// The consumer groups, by `group.id`.
    pub fn groups(self) -> impl Iterator<Item = GroupRead<'a>> {
        self.sim.consumers.groups.values().map(move |g| GroupRead { sim: self.sim, group: g })
    }

    /// Group `id` (its `group.id`; `None`: no such group); see [`GroupRead`].
    pub fn group(self, id: &str) -> Option<GroupRead<'a>> {
        self.sim.consumers.groups.get(id).map(|g| GroupRead { sim: self.sim, group: g })
    }

    /// The events the trace keeps, oldest first: the newest
    /// [`SimOptions::trace_events`](crate::SimOptions::trace_events) of the run.
    pub fn events(self) -> impl DoubleEndedIterator<Item = &'a Event> + ExactSizeIterator {
        self.sim.out.trace.events()
    }

    /// The kept events from `seq` on.
    pub fn events_since(self, seq: u64) -> impl Iterator<Item = &'a Event> {
        self.sim.out.trace.since(seq)
    }

    /// Event `seq`, if the trace still keeps it (found by its place, not by a search).
    pub fn event(self, seq: u64) -> Option<&'a Event> {
        self.sim.out.trace.since(seq).next().filter(|e| e.seq == seq)
    }

    /// The newest event.
    pub fn last_event(self) -> Option<&'a Event> {
        self.sim.out.trace.events().next_back()
    }

    /// The guarantee monitors' kept findings, oldest first: the newest
    /// [`SimOptions::findings`](crate::SimOptions::findings) (see [`Finding`] for an example).
    pub fn findings(self) -> &'a [Finding] {
        self.sim.monitors().findings()
    }

    /// Findings in all, kept or not, over the whole run.
    pub fn findings_total(self) -> u64 {
        self.sim.monitors().total()
    }

    /// Findings that broke a promise Kafka makes ([`Finding::promised`]), over the whole
    /// run. Non-zero means the model broke a Kafka guarantee: a bug in the sandbox.
    pub fn promises_broken(self) -> u64 {
        self.sim.monitors().promised_total()
    }

    /// The messages on the wire now (owned: each is built from the queue).
    pub fn in_flight(self) -> Vec<Flight> {
        self.sim.in_flight()
    }

    /// The source connectors (Kafka Connect), in the scenario's order.
    pub fn connectors(self) -> impl Iterator<Item = ConnectorRead<'a>> {
        self.sim.connectors().map(ConnectorRead)
    }

    /// Connector `name` (`None`: no such connector).
    pub fn connector(self, name: &str) -> Option<ConnectorRead<'a>> {
        self.sim.connector(name).map(ConnectorRead)
    }

    /// The Kafka Streams applications, in the scenario's order.
    pub fn streams_apps(self) -> impl Iterator<Item = StreamsRead<'a>> {
        self.sim.streams().map(StreamsRead)
    }

    /// The Streams application with this `application.id` (`None`: no such application).
    pub fn streams_app(self, application_id: &str) -> Option<StreamsRead<'a>> {
        self.sim.streams_app(application_id).map(StreamsRead)
    }

    /// What `record` went through, as far as the trace knows ([`crate::provenance`]).
    pub fn record_path(self, record: RecordId) -> Path {
        crate::provenance::path(self.sim, record)
    }

    /// `__consumer_offsets`, the compacted topic where the group coordinators keep the
    /// groups' committed offsets and metadata (issue 19; see
    /// [`OffsetsTopicRead`](crate::offsets_view::OffsetsTopicRead)).
    pub fn offsets_topic(self) -> crate::offsets_view::OffsetsTopicRead<'a> {
        self.sim.offsets_topic()
    }
}

/// One broker.
#[derive(Clone, Copy)]
pub struct BrokerRead<'a>(&'a Broker, &'a Sim);

impl BrokerRead<'_> {
    /// The `transactional.id`s it coordinates now (it leads their `__transaction_state`
    /// partitions), of those the coordinators know (issue 17).
    pub fn txn_coordinator_for(&self) -> Vec<String> {
        let sim = self.1;
        sim.txns.ids.keys().filter(|id| sim.cluster.txn_coordinator_of(id) == Some(self.0.id)).cloned().collect()
    }
    /// Its broker id (`node.id`): brokers are numbered from 0.
    pub fn id(self) -> BrokerId {
        self.0.id
    }
    /// Running: `false` after a crash, until it restarts. A running broker may still be
    /// cut off ([`BrokerRead::isolated`]) or fenced ([`BrokerRead::fenced`]).
    pub fn alive(self) -> bool {
        self.0.alive
    }
    /// Cut off the network: it keeps running, but nothing reaches it and nothing it sends
    /// arrives.
    pub fn isolated(self) -> bool {
        self.0.isolated
    }
    /// Fenced by the controller (no heartbeat for `broker.session.timeout.ms`): it leads
    /// nothing and is in no ISR.
    pub fn fenced(self) -> bool {
        self.0.fenced
    }
    /// Stopped by a controlled shutdown (`shutdown_broker`) rather than a crash; a
    /// restart clears it.
    pub fn shut_down(self) -> bool {
        !self.0.alive && self.0.shut_down_cleanly
    }
    /// Extra delay of its follower fetches, in ms (0: none; set by
    /// [`Command::slow_broker`](crate::Command::slow_broker)). A slow follower falls behind
    /// and leaves the ISR once it lags more than `replica.lag.time.max.ms`.
    pub fn slow_ms(self) -> u64 {
        self.0.slow_ms
    }
}

/// One topic.
#[derive(Clone, Copy)]
pub struct TopicRead<'a> {
    sim: &'a Sim,
    topic: &'a Topic,
}

impl<'a> TopicRead<'a> {
    /// The topic's name.
    pub fn name(self) -> &'a str {
        &self.topic.name
    }
    /// Its topic id (KIP-516): the scenario's `topic_id`, or one derived from the seed and
    /// the name. Printed (`Display`) as Kafka prints it.
    pub fn id(self) -> crate::uuid::Uuid {
        self.topic.id
    }
    /// How many partitions it has.
    pub fn partition_count(self) -> u32 {
        self.topic.partition_count()
    }
    /// How many replicas each partition has (counted on partition 0).
    pub fn replication_factor(self) -> u32 {
        self.topic.replication_factor()
    }
    /// `min.insync.replicas`: while the ISR is smaller, the leader refuses `acks=all`
    /// writes (`NOT_ENOUGH_REPLICAS`) and the high watermark does not advance.
    pub fn min_insync_replicas(self) -> u32 {
        self.topic.config.min_insync_replicas
    }
    /// `unclean.leader.election.enable`: whether a replica outside the ISR may become
    /// leader when no in-sync replica can, at the cost of the records it lacks.
    pub fn unclean_leader_election_enable(self) -> bool {
        self.topic.config.unclean_leader_election_enable
    }
    /// Its settings (`cleanup.policy`, retention, segments, the cleaner's settings, …).
    pub fn config(self) -> &'a crate::cluster::TopicConfig {
        &self.topic.config
    }
    /// Its partitions, by index.
    pub fn partitions(self) -> impl Iterator<Item = PartitionRead<'a>> {
        (0..self.topic.partitions.len() as u32).filter_map(move |p| self.partition(p))
    }
    /// Partition `index` (`None`: past the last).
    pub fn partition(self, index: u32) -> Option<PartitionRead<'a>> {
        let part = self.topic.partitions.get(index as usize)?;
        Some(PartitionRead { sim: self.sim, topic: self.topic, index, part })
    }
}

/// One partition: its replicas, leader, ISR and the leader's log.
///
/// The offsets, as Kafka names them: the **log start offset** is the first offset still
/// readable; the **log end offset** (LEO) is the offset the next record gets; the **high
/// watermark** (HW) is the offset below which records are committed — on every in-sync
/// replica — and readable by consumers. Records from the HW to the LEO are written on the
/// leader but not committed yet. The **leader epoch** counts leader elections.
///
/// # Example
///
/// Three records written with `acks=all` to a partition with three replicas:
///
/// ```
/// use kafka_sandbox_core::{Acks, ProducerSpec, Scenario, SendPlan, SimTime, TopicSpec};
///
/// let mut b = Scenario::builder();
/// b.brokers(3);
/// let t = b.topic(TopicSpec::new("t").replication_factor(3).min_insync_replicas(2));
/// b.producer(ProducerSpec::new("app").acks(Acks::All).send(SendPlan::values(&t, ["a", "b", "c"])));
/// let mut sim = b.build()?;
/// sim.run_to(SimTime(5_000));
///
/// let p = sim.partition(&t.partition(0)).expect("partition 0");
/// assert_eq!(p.isr().len(), 3, "every replica is in sync");
/// // Every ISR replica has the three records: all are committed.
/// assert_eq!((p.log_start_offset(), p.high_watermark(), p.log_end_offset()), (0, 3, 3));
/// let values: Vec<&str> = p.records(0, p.high_watermark()).iter().map(|r| r.record.value.as_str()).collect();
/// assert_eq!(values, ["a", "b", "c"]);
/// assert!(p.replica_logs().all(|r| r.in_isr && r.log_end_offset() == 3));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy)]
pub struct PartitionRead<'a> {
    sim: &'a Sim,
    topic: &'a Topic,
    index: u32,
    part: &'a Partition,
}

impl<'a> PartitionRead<'a> {
    /// Its topic's name.
    pub fn topic(self) -> &'a str {
        &self.topic.name
    }
    /// Its index in the topic, from 0.
    pub fn index(self) -> u32 {
        self.index
    }
    /// Its topic and index, owned.
    pub fn topic_partition(self) -> TopicPartition {
        TopicPartition::new(self.topic.name.clone(), self.index)
    }
    /// The broker leading it: producers write to it and consumers read from it.
    /// `None` while offline.
    pub fn leader(self) -> Option<BrokerId> {
        self.part.leader
    }
    /// The leader epoch: 0 for the first leader, bumped by every leader change
    /// (including one that leaves the partition offline; not by an ISR change alone). Each record carries the epoch
    /// it was written in; a follower truncates what the new epoch's leader does not have.
    pub fn leader_epoch(self) -> u32 {
        self.part.leader_epoch
    }
    /// In assignment order; the first is the preferred leader.
    pub fn replicas(self) -> &'a [BrokerId] {
        &self.part.replicas
    }
    /// The in-sync replicas (ISR), in assignment order: the leader and the followers that
    /// caught up within `replica.lag.time.max.ms`. The high watermark is the lowest log
    /// end offset among them; a fenced broker is in no ISR.
    pub fn isr(self) -> &'a [BrokerId] {
        &self.part.isr
    }
    /// The eligible leader replicas (ELR, KIP-966; always empty on Kafka 4.0), in
    /// assignment order: replicas that left the ISR while it was below
    /// `min.insync.replicas`, so they hold every committed record. With the ISR empty the
    /// controller elects the first of them that is live; a broker back from a crash leaves
    /// them (KAFKA-15586); they are cleared once the ISR reaches the minimum again.
    pub fn elr(self) -> &'a [BrokerId] {
        &self.part.elr
    }
    /// The leader when the ISR last emptied (Kafka's `lastKnownElr` holding the last known
    /// leader; ELR only): elected when both ISR and ELR are empty, as an unclean election.
    pub fn last_known_leader(self) -> Option<BrokerId> {
        self.part.last_known_leader
    }
    /// The leader's log, `None` while offline.
    pub fn leader_log(self) -> Option<&'a PartitionLog> {
        self.part.leader_log()
    }
    /// The log shown: the leader's (the first replica's while offline).
    fn shown_log(self) -> Option<&'a PartitionLog> {
        self.part.display_log()
    }
    /// The log start offset: the first offset still readable (retention moves it up).
    /// Of the log shown (the leader's; the first replica's while offline).
    pub fn log_start_offset(self) -> u64 {
        self.shown_log().map_or(0, PartitionLog::log_start_offset)
    }
    /// The log end offset (LEO) of the log shown (the leader's; the first replica's while
    /// offline): the offset the next appended record gets.
    pub fn log_end_offset(self) -> u64 {
        self.shown_log().map_or(0, PartitionLog::log_end_offset)
    }
    /// The high watermark (HW) of the log shown (the leader's; the first replica's while
    /// offline): records below it are committed — on every ISR replica — and readable by
    /// consumers; those from it to the log end offset are not yet. It advances only while
    /// the ISR has at least `min.insync.replicas` members.
    pub fn high_watermark(self) -> u64 {
        self.shown_log().map_or(0, PartitionLog::high_watermark)
    }
    /// The shown log's records with offsets in `from..to`, oldest first.
    pub fn records(self, from: u64, to: u64) -> Records<'a> {
        self.shown_log().map_or(Records::empty(), |l| l.records_between(from, to))
    }
    /// The shown log's newest `n` records, oldest first.
    pub fn newest_records(self, n: usize) -> Records<'a> {
        self.shown_log().map_or(Records::empty(), |l| l.newest(n))
    }
    /// The log shown (the leader's; the first replica's while offline), `None` when there
    /// is none.
    pub fn log(self) -> Option<LogRead<'a>> {
        self.shown_log().map(LogRead)
    }
    /// The copy of the log on `broker`, `None` when it holds no replica.
    pub fn log_on(self, broker: BrokerId) -> Option<LogRead<'a>> {
        self.part.logs.get(&broker).map(LogRead)
    }
    /// The shown log's record at `offset`, if it still holds it.
    pub fn record_at(self, offset: u64) -> Option<&'a StoredRecord> {
        self.shown_log()?.get(offset)
    }
    /// Every replica's copy, in assignment order.
    pub fn replica_logs(self) -> impl Iterator<Item = ReplicaRead<'a>> {
        self.part.replicas.iter().filter_map(move |b| {
            let log = self.part.logs.get(b)?;
            Some(ReplicaRead {
                broker: *b,
                is_leader: self.part.leader == Some(*b),
                in_isr: self.part.isr.contains(b),
                in_elr: self.part.elr.contains(b),
                log,
            })
        })
    }
    /// Records a leader change left behind (the newest the cluster keeps:
    /// [`SimOptions::lost_per_partition`](crate::SimOptions::lost_per_partition)), oldest
    /// first: records the old leader had that the new leader's log lacks.
    pub fn lost(self) -> impl Iterator<Item = &'a LostView> {
        let tp = self.topic_partition();
        self.sim.lost_records(&tp)
    }
}

/// One replica's copy of a partition.
#[derive(Clone, Copy)]
pub struct ReplicaRead<'a> {
    /// The broker holding this copy.
    pub broker: BrokerId,
    /// Whether this broker leads the partition now.
    pub is_leader: bool,
    /// Whether this replica is in the partition's ISR now.
    pub in_isr: bool,
    /// Whether this replica is one of the partition's eligible leader replicas (KIP-966).
    pub in_elr: bool,
    log: &'a PartitionLog,
}

impl<'a> ReplicaRead<'a> {
    /// This copy's log end offset: the offset its next record gets. A follower's trails
    /// the leader's by what it has not fetched yet.
    pub fn log_end_offset(self) -> u64 {
        self.log.log_end_offset()
    }
    /// This copy's high watermark: what this replica knows to be committed. The leader's is
    /// the partition's; a follower learns it from the leader's fetch responses, so it may
    /// trail.
    pub fn high_watermark(self) -> u64 {
        self.log.high_watermark()
    }
    /// This copy's log start offset: its first readable offset.
    pub fn log_start_offset(self) -> u64 {
        self.log.log_start_offset()
    }
    /// Its newest `n` records, oldest first.
    pub fn newest_records(self, n: usize) -> Records<'a> {
        self.log.newest(n)
    }
    /// This copy as a [`LogRead`]: its records and segments.
    pub fn log(self) -> LogRead<'a> {
        LogRead(self.log)
    }
}

/// One copy of a partition's log: its offsets and the records it holds.
#[derive(Clone, Copy)]
pub struct LogRead<'a>(&'a PartitionLog);

impl<'a> LogRead<'a> {
    pub(crate) fn new(log: &'a PartitionLog) -> Self {
        LogRead(log)
    }
    /// The log start offset: the first offset still readable. Retention moves it up, and
    /// a follower's follows its leader's.
    pub fn log_start_offset(self) -> u64 {
        self.0.log_start_offset()
    }
    /// The log end offset (LEO): the offset the next appended record gets.
    pub fn log_end_offset(self) -> u64 {
        self.0.log_end_offset()
    }
    /// The high watermark this copy knows: records below it are committed (on every ISR
    /// replica). On the leader's copy it is where consumers' reads stop; a follower's may
    /// trail the leader's.
    pub fn high_watermark(self) -> u64 {
        self.0.high_watermark()
    }
    /// Every record it holds, oldest first (offsets increasing; with gaps once compacted).
    pub fn records(self) -> Records<'a> {
        self.0.records()
    }
    /// Its records with offsets in `from..to`, oldest first.
    pub fn records_in(self, from: u64, to: u64) -> Records<'a> {
        self.0.records_between(from, to)
    }
    /// Its newest `n` records, oldest first.
    pub fn newest_records(self, n: usize) -> Records<'a> {
        self.0.newest(n)
    }
    /// The last stable offset (LSO): read_committed consumers read only below it (issue 17).
    pub fn last_stable_offset(self) -> u64 {
        self.0.last_stable_offset()
    }
    /// What `r` (a record of this log) is to transactions (issue 17).
    pub fn mark(self, r: &StoredRecord) -> Option<crate::txn::TxnMark> {
        self.0.producer_states().mark(r)
    }
    /// The aborted-transactions index, oldest first (issue 17).
    pub fn aborted_transactions(self) -> &'a [crate::txn::AbortedTxn] {
        self.0.producer_states().aborted()
    }
    /// The transactions open in this log: (producer id, first offset), by producer id.
    pub fn open_transactions(self) -> impl Iterator<Item = (u64, u64)> + 'a {
        self.0.producer_states().open_transactions()
    }
    /// The record at `offset`, if it still holds it.
    pub fn record(self, offset: u64) -> Option<&'a StoredRecord> {
        self.0.get(offset)
    }
    /// Its segments, oldest first (the last one active): what retention deletes whole.
    pub fn segments(self) -> &'a [crate::log::Segment] {
        self.0.segments()
    }
    /// Its size in bytes (what `retention.bytes` bounds).
    pub fn size_bytes(self) -> u64 {
        self.0.size_bytes()
    }
    /// The log cleaner's checkpoint on this copy (issue 19): below it the log is clean
    /// (each key's newest record, as of the last pass), from it on dirty. `None` before the
    /// first pass.
    pub fn cleaner_checkpoint(self) -> Option<u64> {
        self.0.cleaner_checkpoint()
    }
    /// How many passes this copy's cleaner has made.
    pub fn cleaner_passes(self) -> u32 {
        self.0.cleaner_passes()
    }
    /// The log as its cleaner would take it at `now` under `config` (issue 19,
    /// `LogCleanerManager.cleanableOffsets` and `calculateCleanableBytes`): the dirty range
    /// from the checkpoint to the first segment it may not touch (the active one, the one
    /// holding the LSO, the first younger than `min.compaction.lag.ms`), its bytes and the
    /// clean bytes below it. `None` for an empty log. `config` is the topic's
    /// ([`crate::cluster::TopicConfig::compaction`]).
    pub fn to_clean(self, now: SimTime, config: &CompactionConfig) -> Option<LogToClean> {
        self.0.to_clean(now, config)
    }
    /// The dirty ratio the cleaner computes at `now` (`LogToClean.cleanableRatio`): the
    /// bytes it could clean over those bytes plus the clean bytes below them, 0 for an
    /// empty log. The cleaner takes the log only when it is strictly above
    /// `min.cleanable.dirty.ratio` (or `max.compaction.lag.ms` is overdue:
    /// [`LogToClean::eligible`]).
    pub fn dirty_ratio(self, now: SimTime, config: &CompactionConfig) -> f64 {
        self.to_clean(now, config).map_or(0.0, |l| l.cleanable_ratio())
    }
    /// Each key's newest record, by key (issue 19): the data record a consumer reading the
    /// whole log ends up with for that key, or the tombstone that deleted it. Keyless records
    /// and transaction markers are left out. A `BTreeMap`: it grows with the log's keys.
    pub fn newest_per_key(self) -> std::collections::BTreeMap<&'a str, &'a StoredRecord> {
        let mut newest: std::collections::BTreeMap<&'a str, &'a StoredRecord> = std::collections::BTreeMap::new();
        for r in self.0.records().iter().filter(|r| !r.record.is_control()) {
            if let Some(k) = r.record.key.as_deref() {
                newest.insert(k, r);
            }
        }
        newest
    }
    /// The latest value of every key, as a consumer reading the whole log ends up with it
    /// (a compacted topic's table view): each key's newest data record in offset order, a
    /// key whose newest record is a tombstone left out; keyless records and markers too
    /// ([`LogRead::newest_per_key`] without the tombstones).
    pub fn latest_per_key(self) -> Vec<&'a StoredRecord> {
        let mut view: Vec<&'a StoredRecord> = self.newest_per_key().into_values().filter(|r| !r.record.tombstone).collect();
        crate::sorted::sort_by_key(&mut view, |r| r.offset);
        view
    }
}

/// One producer client.
///
/// # Example
///
/// ```
/// use kafka_sandbox_core::{Acks, ProducerSpec, Scenario, SendPlan, SimTime, TopicSpec};
///
/// let mut b = Scenario::builder();
/// b.brokers(3);
/// let t = b.topic(TopicSpec::new("t").partitions(3).replication_factor(3));
/// let app = b.producer(ProducerSpec::new("app").acks(Acks::All).send(SendPlan::values(&t, ["a", "b", "c", "d"]).every_ms(100)));
/// let mut sim = b.build()?;
/// sim.run_to(SimTime(5_000));
///
/// let p = sim.producer(&app).expect("producer");
/// assert_eq!(p.sent_total(), 4);
/// // acks=all: each record is acknowledged once every in-sync replica has it.
/// assert_eq!(p.acknowledged(), 4);
/// assert_eq!((p.failed(), p.pending(), p.batched()), (0, 0, 0));
/// assert!(p.sent().all(|s| s.acked_offset.is_some()));
/// assert!(p.latency_ms_max() >= p.latency_ms_mean());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy)]
pub struct ProducerRead<'a>(&'a Producer, &'a Sim);

impl<'a> ProducerRead<'a> {
    /// Its name, which is its `client.id`.
    pub fn name(self) -> &'a str {
        &self.0.name
    }
    /// Its `transactional.id`, if it is a transactional producer.
    pub fn transactional_id(self) -> Option<&'a str> {
        self.0.config.transactional_id.as_deref()
    }
    /// The coordinator's record of its `transactional.id`, once it has one (issue 17).
    pub fn transaction_record(self) -> Option<TransactionRead<'a>> {
        let id = self.0.config.transactional_id.as_deref()?;
        let md = self.1.txns.metadata(id)?;
        Some(TransactionRead { md, coordinator: self.1.cluster.txn_coordinator_of(id) })
    }
    /// Its transaction coordinator now, if reachable (issue 17).
    pub fn txn_coordinator(self) -> Option<BrokerId> {
        self.1.cluster.txn_coordinator_of(self.0.config.transactional_id.as_deref()?)
    }
    /// A transactional producer's own state (`TransactionManager`): its state, producer id
    /// and epoch, the open transaction's partitions (issue 17).
    pub fn transaction(self) -> Option<TxnProducerRead<'a>> {
        self.0.txn.as_ref().map(TxnProducerRead)
    }
    /// `partitioner.class`: how it picks the partition of a record that names none
    /// (Kafka's built-in partitioner by default: key hash, else the sticky partition).
    pub fn partitioner(self) -> PartitionerKind {
        self.0.config.partitioner
    }
    /// `linger.ms`: how long a batch waits for more records before it is sent, in ms.
    pub fn linger_ms(self) -> u64 {
        self.0.config.linger_ms
    }
    /// `acks`: what the leader waits for before it answers a write (0: no answer at all;
    /// 1: its own append; all: every in-sync replica).
    pub fn acks(self) -> Acks {
        self.0.config.acks
    }
    /// Whether it is idempotent: `enable.idempotence`, on by default when `acks=all`,
    /// `retries` > 0 and `max.in.flight.requests.per.connection` ≤ 5. The broker then drops
    /// a retried batch it already has, so retries neither duplicate nor reorder records.
    pub fn idempotent(self) -> bool {
        self.0.config.idempotent()
    }
    /// Records sent (`send()` called) over the whole run; [`ProducerRead::sent`] keeps only
    /// the newest.
    pub fn sent_total(self) -> u64 {
        self.0.sent_total
    }
    /// The newest sends it remembers, oldest first
    /// ([`SimOptions::sent_per_producer`](crate::SimOptions::sent_per_producer) of them),
    /// each with its partition, acknowledged offset or error.
    pub fn sent(self) -> impl DoubleEndedIterator<Item = &'a SentRecord> + ExactSizeIterator {
        self.0.sent.iter()
    }
    /// Records in batches not sent yet.
    pub fn batched(self) -> u32 {
        self.0.batched_records()
    }
    /// Records sent and neither acknowledged nor given up.
    pub fn pending(self) -> u32 {
        self.0.pending_records()
    }
    /// Its settings (`acks`, `linger.ms`, retries, timeouts, …).
    pub fn config(self) -> &'a crate::config::ProducerConfig {
        &self.0.config
    }
    /// Records whose send completed successfully (under acks=0: as soon as sent), over
    /// the whole run.
    pub fn acknowledged(self) -> u64 {
        self.0.counters.acknowledged
    }
    /// Records given up with an error (the callback's exception), over the whole run.
    pub fn failed(self) -> u64 {
        self.0.counters.failed
    }
    /// Record sends retried after a failed attempt (one per record per retry), over the
    /// whole run (Kafka's `record-retry-total`).
    pub fn retries(self) -> u64 {
        self.0.counters.retries
    }
    /// The longest time from `send()` to the acknowledgement, in ms (over the acknowledged
    /// records whose send it still remembered, see [`ProducerRead::sent`]).
    pub fn latency_ms_max(self) -> u64 {
        self.0.counters.latency_ms_max
    }
    /// The mean time from `send()` to the acknowledgement, in ms (0 before the first),
    /// rounded down (over the acknowledged records whose send it still remembered).
    pub fn latency_ms_mean(self) -> u64 {
        self.0.counters.latency_ms_sum.checked_div(self.0.counters.latency_samples).unwrap_or(0)
    }
    /// Outstanding Produce requests to `broker` (at most
    /// `max.in.flight.requests.per.connection`).
    pub fn in_flight_requests(self, broker: BrokerId) -> u32 {
        self.0.in_flight_requests(broker)
    }
    /// Outstanding Produce requests to all brokers.
    pub fn in_flight_total(self) -> u32 {
        self.0.in_flight_total()
    }
    /// Bytes of `buffer.memory` no batch holds (Kafka's `buffer-available-bytes`).
    pub fn buffer_available_bytes(self) -> u64 {
        self.0.buffer_available()
    }
    /// The record whose `send()` is blocked waiting for `buffer.memory`, and since when
    /// (`BufferPool.allocate`); `None` when the application thread is not blocked.
    pub fn blocked_send(self) -> Option<(RecordId, SimTime)> {
        self.0.blocked.as_ref().map(|b| (b.record.id, b.since))
    }
    /// Sends the application asked for while a send was blocked, waiting behind it.
    pub fn queued_sends(self) -> usize {
        self.0.queued.len()
    }
    /// Sends that had to wait for `buffer.memory`, over the whole run.
    pub fn blocked_sends(self) -> u64 {
        self.0.counters.blocked_sends
    }
    /// Time sends spent blocked waiting for `buffer.memory`, in ms, over the whole run
    /// (Kafka's `bufferpool-wait-time-ns-total`, in ms; counted when a wait ends).
    pub fn blocked_ms_total(self) -> u64 {
        self.0.counters.blocked_ms_total
    }
    /// Sends that failed with `BufferExhaustedException` after `max.block.ms`, over the
    /// whole run (Kafka's `buffer-exhausted-total`).
    pub fn buffer_exhausted(self) -> u64 {
        self.0.counters.buffer_exhausted
    }
}

/// One consumer group: the coordinator's side and its members.
///
/// Offsets and lag as `kafka-consumer-groups --describe` shows them: the **committed
/// offset** of a partition is the next offset the group will read there; the **lag** is
/// the partition's high watermark minus it.
///
/// # Example
///
/// Two consumers share a topic's four partitions; auto-commit catches up with the
/// records:
///
/// ```
/// use kafka_sandbox_core::{GroupSpec, MemberSpec, ProducerSpec, Scenario, SendPlan, SimTime, TopicSpec};
///
/// let mut b = Scenario::builder();
/// let t = b.topic(TopicSpec::new("t").partitions(4));
/// let g = b.group(GroupSpec::new("g", [&t]).members([MemberSpec::new("c1"), MemberSpec::new("c2")]));
/// // Sent once the group consumes (`auto.offset.reset=latest` skips older records).
/// let values = (0..20).map(|i| format!("v{i}"));
/// b.producer(ProducerSpec::new("app").send(SendPlan::values(&t, values).start_ms(10_000).every_ms(10)));
/// let mut sim = b.build()?;
/// sim.run_to(SimTime(30_000));
///
/// let group = sim.group(&g).expect("group");
/// assert_eq!(group.state(), kafka_sandbox_core::group::GroupState::Stable);
/// // Each member owns two of the four partitions.
/// for (client_id, partitions) in group.assignment() {
///     assert_eq!(partitions.len(), 2, "{client_id}");
/// }
/// // Every record was delivered and its offset committed: no lag left.
/// assert_eq!(group.members().map(|m| m.received_total()).sum::<u64>(), 20);
/// for lag in group.lags() {
///     assert_eq!(lag.committed, Some(lag.high_watermark));
///     assert_eq!(lag.lag, 0);
/// }
/// assert_eq!(group.total_lag(), 0);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy)]
pub struct GroupRead<'a> {
    sim: &'a Sim,
    group: &'a Group,
}

/// A partition's consumer lag: the leader's high watermark minus the group's committed
/// offset (the log start when nothing is committed), as `kafka-consumer-groups` shows it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Lag<'a> {
    /// The partition's topic.
    pub topic: &'a str,
    /// The partition's index.
    pub partition: u32,
    /// The partition leader's high watermark: the end of what the group can read.
    pub high_watermark: u64,
    /// The group's committed offset (the next offset to read); `None` when it has
    /// committed none for this partition.
    pub committed: Option<u64>,
    /// `high_watermark` minus `committed` (or minus the log start offset when nothing is
    /// committed): committed records the group has not committed past. Records a member
    /// holds or processed whose offsets are not committed yet still count.
    pub lag: u64,
}

impl<'a> GroupRead<'a> {
    /// Its `group.id`.
    pub fn id(self) -> &'a str {
        &self.group.id
    }
    /// The topics it was created with: its members' subscription unless a member names
    /// its own ([`MemberRead::topics`]), and what [`GroupRead::lags`] covers.
    pub fn topics(self) -> &'a [String] {
        &self.group.topics
    }
    /// Its state as the coordinator holds it: classic `Empty`, `PreparingRebalance`,
    /// `CompletingRebalance`, `Stable`; KIP-848 `Empty`, `Reconciling`, `Stable`.
    pub fn state(self) -> GroupState {
        self.group.state
    }
    /// The generation (classic) or the group epoch (KIP-848).
    ///
    /// Classic: 0 for a new group, bumped when a rebalance's join phase completes, so the
    /// first stable generation is 1; a member of an older generation is fenced. KIP-848:
    /// bumped at each change of membership, subscriptions or partition counts.
    pub fn generation(self) -> i32 {
        self.group.generation
    }
    /// KIP-848: the epoch of the current target assignment (0 under the classic protocol).
    /// The coordinator computes a new target when the group epoch
    /// ([`GroupRead::generation`]) moves; the group is `Stable` once every member's epoch
    /// has reached it.
    pub fn assignment_epoch(self) -> i32 {
        self.group.assignment_epoch
    }
    /// Classic protocol: how members give partitions up in a rebalance — eager (all of
    /// them) or cooperative (KIP-429, only those that move), as the assignor dictates. A
    /// KIP-848 group reconciles incrementally whatever this says.
    pub fn protocol(self) -> RebalanceProtocol {
        self.group.protocol
    }
    /// `group.protocol`: `classic` (JoinGroup/SyncGroup, the client-side assignor) or
    /// `consumer` (KIP-848: heartbeats, the coordinator assigns).
    pub fn group_protocol(self) -> GroupProtocol {
        self.group.config.group_protocol
    }
    /// Whether it speaks the KIP-848 consumer protocol (`group.protocol=consumer`).
    pub fn consumer_protocol(self) -> bool {
        self.group.consumer_protocol()
    }
    /// `partition.assignment.strategy`: the classic protocol's client-side assignor, run by
    /// the group leader.
    pub fn assignor(self) -> Strategy {
        self.group.config.assignor
    }
    /// `group.remote.assignor`: the KIP-848 coordinator's assignor (`uniform` or `range`).
    pub fn remote_assignor(self) -> ServerAssignor {
        self.group.config.remote_assignor
    }
    /// `auto.offset.reset`: where a member starts reading a partition the group has no
    /// committed offset for (`latest` by default: only records written from then on).
    pub fn auto_offset_reset(self) -> OffsetReset {
        self.group.config.auto_offset_reset
    }
    /// Pull (Kafka's model) or push (a sandbox-only teaching device that shows why Kafka
    /// does not push).
    pub fn delivery(self) -> DeliveryMode {
        self.group.config.delivery
    }
    /// Sandbox only, with push delivery: how many received but unprocessed records a member
    /// can hold; one more and it crashes out of memory.
    pub fn push_buffer_max_records(self) -> u32 {
        self.group.config.push_buffer_max_records
    }
    /// `isolation.level` (issue 17).
    pub fn isolation_level(self) -> crate::config::IsolationLevel {
        self.group.config.isolation_level
    }
    /// Classic protocol: when the pending rebalance's join phase ends at the latest (the end
    /// of `group.initial.rebalance.delay.ms`, or the rebalance timeout for the members that
    /// have not rejoined); `None` when none is pending.
    pub fn rebalance_due(self) -> Option<SimTime> {
        self.group.rebalance_due
    }
    /// Classic protocol: when the pending join phase ends unless another member joins
    /// first. Mostly [`GroupRead::rebalance_due`]; but a member that joined during a new
    /// group's `group.initial.rebalance.delay.ms` makes the coordinator wait once more
    /// when the delay is up (up to what is left of the rebalance timeout:
    /// `GroupMetadataManager.tryCompleteInitialRebalanceElseSchedule`), so the phase ends
    /// one delay later than the timer now set says.
    pub fn join_phase_ends(self) -> Option<SimTime> {
        let due = self.group.rebalance_due?;
        let g = self.group;
        if g.initial_delay_since.is_some() && g.new_member_added && g.initial_remaining > 0 {
            let delay = self.sim.cluster.config.group_initial_rebalance_delay_ms.min(g.initial_remaining).max(1);
            return Some(due.plus_ms(delay));
        }
        Some(due)
    }
    /// Whether the pending rebalance is a new group's `group.initial.rebalance.delay.ms`.
    pub fn initial_rebalance(self) -> bool {
        self.group.initial_delay_since.is_some()
    }
    /// Client id of the group leader.
    pub fn leader(self) -> Option<&'a str> {
        let g = self.group;
        g.leader.as_ref().and_then(|l| g.registered(l)).map(|r| r.client_id.as_str())
    }
    /// The broker coordinating the group (`None` while none is reachable).
    pub fn coordinator(self) -> Option<BrokerId> {
        self.sim.coordinator_of(&self.group.id)
    }
    /// The leader's member id as the coordinator holds it (see [`GroupRead::leader`] for
    /// its client id).
    pub fn leader_member_id(self) -> Option<&'a str> {
        self.group.leader.as_deref()
    }
    /// Client ids of the members that are not crashed and are assigned `topic`-`partition`,
    /// in join order (more than one while a rebalance moves it).
    pub fn owners<'t>(self, topic: &'t str, partition: u32) -> impl Iterator<Item = &'a str> + 't
    where
        'a: 't,
    {
        self.members().filter(move |m| m.phase() != Phase::Crashed && m.owns(topic, partition)).map(MemberRead::client_id)
    }
    /// Client ids of the members that are not crashed, in join order.
    pub fn running_members(self) -> impl Iterator<Item = &'a str> {
        self.members().filter(|m| m.phase() != Phase::Crashed).map(MemberRead::client_id)
    }
    /// Client ids of the members the coordinator knows, in join order.
    pub fn registered(self) -> impl Iterator<Item = &'a str> {
        self.group.registry.iter().map(|r| r.client_id.as_str())
    }
    /// Rebalances completed over the whole run: classic, each generation that reached
    /// `Stable`; KIP-848, each time the group became `Stable` again (every member at its
    /// target assignment).
    pub fn rebalances(self) -> u64 {
        self.group.rebalances
    }
    /// Records processed twice.
    ///
    /// Counted over the whole run, once per extra processing of an offset the group had
    /// already processed (at-least-once redelivery after a rebalance, crash or seek).
    pub fn duplicates(self) -> u64 {
        self.group.duplicates
    }
    /// How many times a member left because `max.poll.interval.ms` passed between polls,
    /// over the whole run.
    ///
    /// Is a consumer that takes 200 ms per record kicked out of its group? With Kafka's
    /// defaults (`max.poll.records` 500, `max.poll.interval.ms` 300 s) a full poll takes
    /// 100 s: no. Lower the interval to 60 s and it is.
    ///
    /// ```
    /// use kafka_sandbox_core::{GroupSpec, MemberSpec, OffsetReset, ProducerSpec, Scenario, SendPlan, SimTime, TopicSpec};
    ///
    /// let timeouts = |max_poll_interval_ms: u64| -> Result<u64, Box<dyn std::error::Error>> {
    ///     let mut b = Scenario::builder();
    ///     let t = b.topic(TopicSpec::new("t"));
    ///     b.producer(ProducerSpec::new("p").send(SendPlan::values(&t, (0..600).map(|i| format!("m{i}")))));
    ///     let slow = MemberSpec::new("slow").processing_ms(200).max_poll_interval_ms(max_poll_interval_ms);
    ///     let g = b.group(GroupSpec::new("g", [&t]).auto_offset_reset(OffsetReset::Earliest).members([slow]));
    ///     let mut sim = b.build()?;
    ///     sim.run_to(SimTime(400_000));
    ///     Ok(sim.group(&g).map_or(0, |g| g.poll_timeouts()))
    /// };
    /// assert_eq!(timeouts(300_000)?, 0);
    /// assert!(timeouts(60_000)? > 0);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn poll_timeouts(self) -> u64 {
        self.group.poll_timeouts
    }
    /// Records committed past without being processed.
    ///
    /// The consumer side's at-most-once loss: offsets between where the group started
    /// reading each partition and its committed offset that no member processed (an offset
    /// committed before processing, then a crash or a lost partition; or a position that
    /// jumped). Records a running member still holds are not counted (yet). Computed from
    /// the whole run at each call.
    pub fn unprocessed(self) -> u64 {
        self.group.unprocessed_records()
    }
    /// Total time partitions went unconsumed, in ms, summed over partitions and over the
    /// whole run: from a partition's revocation (or its owner's crash or departure) until
    /// its next owner has a position on it. A gap still open is not counted yet.
    pub fn partition_downtime_ms(self) -> u64 {
        self.group.partition_downtime_ms
    }
    /// The newest duplicates with their cause, oldest first
    /// ([`SimOptions::duplicates_per_group`](crate::SimOptions::duplicates_per_group) of them;
    /// [`GroupRead::duplicates`] counts all).
    pub fn duplicate_details(self) -> impl Iterator<Item = &'a DuplicateRecord> {
        self.group.duplicate_details()
    }
    /// The first `limit` records committed past unprocessed, with their cause (in partition
    /// then offset order; [`GroupRead::unprocessed`] counts all).
    pub fn unprocessed_details(self, limit: usize) -> Vec<UnprocessedRecord> {
        self.group.unprocessed_details(limit)
    }
    /// Its consumers (the client side), in the order they started. A crashed member stays
    /// listed, in [`Phase::Crashed`] until it restarts; a removed one is gone.
    pub fn members(self) -> impl Iterator<Item = MemberRead<'a>> + Clone {
        self.group.members.iter().map(move |m| MemberRead { group: self.group, member: m })
    }
    /// The member with `client.id` = `client_id` (`None`: no such member).
    pub fn member(self, client_id: &str) -> Option<MemberRead<'a>> {
        self.group.member(client_id).map(|m| MemberRead { group: self.group, member: m })
    }
    /// The committed offset of `tp` (the next offset to read): `None` before the group
    /// commits one there.
    pub fn committed(self, tp: &TopicPartition) -> Option<u64> {
        self.group.committed.get(tp).copied()
    }
    /// Every committed offset, by partition.
    pub fn committed_offsets(self) -> impl Iterator<Item = (&'a TopicPartition, u64)> {
        self.group.committed.iter().map(|(tp, o)| (tp, *o))
    }
    /// Who owns what: each member's client id and its assigned partitions, as the consumers
    /// see them (in start order; a crashed member owns nothing).
    pub fn assignment(self) -> impl Iterator<Item = (&'a str, &'a [TopicPartition])> {
        self.group.members.iter().map(|m| (m.client_id.as_str(), m.assigned.as_slice()))
    }
    /// The lag of every partition of the topics it subscribes to that has a leader, in
    /// topic and partition order (an offline partition has no high watermark to read).
    pub fn lags(self) -> impl Iterator<Item = Lag<'a>> {
        let (sim, group) = (self.sim, self.group);
        group.topics.iter().filter_map(move |t| sim.cluster.topics.get(t)).flat_map(move |t| {
            t.partitions.iter().enumerate().filter_map(move |(p, part)| {
                let log = part.leader_log()?;
                let committed = group.committed.get(&TopicPartition::new(t.name.clone(), p as u32)).copied();
                // Under read_committed the end is the LSO (`SubscriptionState.partitionLag`).
                let hw = log.end_for(group.config.isolation_level);
                let lag = hw.saturating_sub(committed.unwrap_or(log.log_start_offset()));
                Some(Lag { topic: &t.name, partition: p as u32, high_watermark: hw, committed, lag })
            })
        })
    }
    /// The lag of one partition (`None` when not subscribed or offline).
    pub fn lag(self, tp: &TopicPartition) -> Option<u64> {
        self.lags().find(|l| l.partition == tp.partition && l.topic == tp.topic).map(|l| l.lag)
    }
    /// The lags summed.
    pub fn total_lag(self) -> u64 {
        self.lags().map(|l| l.lag).sum()
    }
}

/// One member of a group, as its consumer and the coordinator see it.
///
/// It is **stopped** ([`MemberRead::stopped`]) while it cannot consume: crashed, or
/// without its partitions because of a rebalance. It is **paused**
/// ([`MemberRead::paused`]) when the application stopped calling `poll()`.
#[derive(Clone, Copy)]
pub struct MemberRead<'a> {
    group: &'a Group,
    member: &'a Member,
}

impl<'a> MemberRead<'a> {
    /// Its `client.id` (unique in its group in the sandbox).
    pub fn client_id(self) -> &'a str {
        &self.member.client_id
    }
    /// The member id the coordinator knows it by: classic, `clientId-UUID` handed out at
    /// its first JoinGroup (KIP-394); KIP-848, a UUID the consumer makes. Empty while it
    /// has none (before its first join, after a restart, a poll timeout or a fencing).
    pub fn member_id(self) -> &'a str {
        &self.member.member_id
    }
    /// `group.instance.id`, if set: a static member (KIP-345), whose partitions wait for
    /// it until its session times out.
    pub fn group_instance_id(self) -> Option<&'a str> {
        self.member.group_instance_id.as_deref()
    }
    /// What it is doing now: awaiting an assignment, idle, fetching or processing.
    pub fn activity(self) -> Activity {
        self.member.activity
    }
    /// Where it is in the group protocol, as the consumer sees it.
    pub fn phase(self) -> Phase {
        self.member.phase
    }
    /// Classic: the generation of its last JoinGroup answer (-1 while it has none: before
    /// its first join, after a restart, a poll timeout or a fencing). KIP-848: its member
    /// epoch, as the last heartbeat answer gave it (0 while it joins or rejoins).
    pub fn generation(self) -> i32 {
        self.member.generation
    }
    /// The application stopped calling `poll()`.
    ///
    /// Set by the pause command ([`GroupCommand::PauseMember`](crate::GroupCommand::PauseMember)),
    /// the sandbox's stuck application: it finishes the records in hand, its heartbeats go
    /// on, and it leaves the group once `max.poll.interval.ms` passes. Not Kafka's
    /// `consumer.pause()`, which stops fetching while the application keeps polling.
    pub fn paused(self) -> bool {
        self.member.paused
    }
    /// How it commits offsets: auto-commit, or by hand after or before processing.
    pub fn commit_mode(self) -> CommitMode {
        self.member.config.commit_mode
    }
    /// Sandbox only: how long the application takes per record, in ms.
    pub fn processing_ms(self) -> u64 {
        self.member.config.processing_ms
    }
    /// The partitions it owns now, as the consumer sees them: empty while it waits for an
    /// assignment (an eager rebalance revokes everything first) and after a crash.
    pub fn assigned(self) -> &'a [TopicPartition] {
        &self.member.assigned
    }
    /// Whether `topic`-`partition` is among its assigned partitions.
    pub fn owns(self, topic: &str, partition: u32) -> bool {
        self.member.assigned.iter().any(|tp| tp.topic == topic && tp.partition == partition)
    }
    /// Its position on each assigned partition: the next offset it fetches. A newly
    /// assigned partition has none until the committed offset (or `auto.offset.reset`)
    /// gives it one.
    pub fn positions(self) -> impl Iterator<Item = (&'a TopicPartition, u64)> {
        self.member.positions.iter().map(|(tp, o)| (tp, *o))
    }
    /// Its position on `topic`-`partition` (the next offset it fetches).
    pub fn position(self, topic: &str, partition: u32) -> Option<u64> {
        self.positions().find(|(tp, _)| tp.topic == topic && tp.partition == partition).map(|(_, o)| o)
    }
    /// Whether it received a record with this value (among the deliveries it remembers).
    pub fn has_received(self, value: &str) -> bool {
        self.received().any(|d| d.value == value)
    }
    /// Records `poll()` handed it over the whole run (a record delivered again counts
    /// again); [`MemberRead::received`] keeps only the newest.
    pub fn received_total(self) -> u64 {
        self.member.received_total()
    }
    /// The newest deliveries it remembers, oldest first
    /// ([`SimOptions::received_per_member`](crate::SimOptions::received_per_member) of them).
    pub fn received(self) -> impl DoubleEndedIterator + ExactSizeIterator<Item = &'a Delivery> {
        self.member.received()
    }
    /// Records it finished processing over the whole run (a record processed again counts
    /// again).
    pub fn processed_total(self) -> u64 {
        self.member.processed_total
    }
    /// Time it could not consume because of rebalances.
    ///
    /// In ms, over the whole run: each stop lasts from the moment it was left without
    /// partitions (an eager revocation before rejoining, a crash, and under KIP-848 also a
    /// fencing, a poll timeout or an emptied assignment) until it has a position again on
    /// a new assignment. A crash counts until the restarted member is assigned again. A
    /// stop in progress ([`MemberRead::stopped_since`]) is added when it ends.
    pub fn rebalance_stopped_ms(self) -> u64 {
        self.member.rebalance_stopped_ms
    }
    /// Since when it cannot consume because of a rebalance or crash (`None` while it can).
    pub fn stopped_since(self) -> Option<SimTime> {
        self.member.stopped_since
    }
    /// Crashed, or not consuming because of a rebalance.
    pub fn stopped(self) -> bool {
        self.member.phase == Phase::Crashed || self.member.not_consuming_since().is_some()
    }
    /// When the coordinator removes it unless a heartbeat arrives.
    pub fn session_deadline(self) -> Option<SimTime> {
        let m = self.member;
        self.group.registry.iter().find(|r| r.client_id == m.client_id && r.member_id == m.member_id).map(|r| r.session_deadline)
    }
    /// When it leaves the group unless it calls `poll()` (only while outside `poll()`).
    pub fn poll_deadline(self) -> Option<SimTime> {
        let m = self.member;
        m.poll_deadline().filter(|_| m.phase != Phase::Crashed)
    }
    /// KIP-848: where the coordinator sees it on the way to its target.
    pub fn reconcile(self) -> Option<Reconcile> {
        let g = self.group;
        g.consumer_protocol().then(|| g.registry.iter().find(|r| r.member_id == self.member.member_id).map(|r| r.cg.state)).flatten()
    }
    /// Its settings (`max.poll.records`, timeouts, processing time, commit mode).
    pub fn config(self) -> &'a crate::config::ConsumerConfig {
        &self.member.config
    }
    /// The topics it subscribes to.
    pub fn topics(self) -> &'a [String] {
        &self.member.topics
    }
    /// KIP-848: its target assignment.
    pub fn target(self) -> &'a [TopicPartition] {
        self.group.target.get(&self.member.member_id).map_or(&[], Vec::as_slice)
    }
    /// Records received and not processed yet.
    pub fn buffered(self) -> u32 {
        self.member.processing.len() as u32
    }
    /// The records received and not processed yet, in the order it processes them.
    pub fn in_hand(self) -> impl Iterator<Item = &'a Delivery> {
        self.member.processing.iter()
    }
}

/// One source connector (Kafka Connect) and its task.
#[derive(Clone, Copy)]
pub struct ConnectorRead<'a>(&'a Connector);

impl<'a> ConnectorRead<'a> {
    /// The connector's name.
    pub fn name(self) -> &'a str {
        &self.0.spec.name
    }
    /// The task's position in the table: the source offset of the newest row it sent.
    pub fn position(self) -> Option<SourceOffset> {
        self.0.position
    }
    /// The flushed source offset in the offsets store: where a restarted task resumes.
    pub fn flushed(self) -> Option<SourceOffset> {
        self.0.committed
    }
    /// Records sent since the last flush.
    pub fn unflushed(self) -> u32 {
        self.0.submitted.len() as u32
    }
    /// Owned, for the snapshot.
    pub fn view(self) -> ConnectorView {
        self.0.view()
    }
}

/// One Kafka Streams application.
#[derive(Clone, Copy)]
pub struct StreamsRead<'a>(&'a StreamsApp);

impl<'a> StreamsRead<'a> {
    /// Its `application.id`.
    pub fn application_id(self) -> &'a str {
        &self.0.spec.application_id
    }
    /// Owned, for the snapshot: its tasks' stores with their counts.
    pub fn view(self) -> StreamsView {
        self.0.view()
    }
    /// The count of `key` in the first store holding it (`count_by_key`).
    pub fn store_count(self, key: &str) -> Option<u64> {
        self.view().stores.iter().find_map(|s| s.counts.iter().find(|(k, _)| k == key).map(|(_, n)| *n))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::command::Command;
    use crate::command::{BrokerCommand, GroupCommand, ProduceCommand};
    use crate::scenario::default_scenario;
    use crate::snapshot::RECORDS_SHOWN;

    fn run(until_ms: u64) -> Sim {
        let Ok(mut sim) = default_scenario().build() else { panic!("the default scenario builds") };
        sim.run_to(SimTime(until_ms));
        sim
    }

    #[test]
    fn lag_is_the_high_watermark_minus_the_committed_offset_for_each_partition() {
        let sim = run(20_000);
        let read = sim.read();
        let mut seen = 0;
        for g in read.groups() {
            let mut total = 0;
            for l in g.lags() {
                let tp = TopicPartition::new(l.topic.to_string(), l.partition);
                let Some(log) = sim.partition(&TopicPartition::new(l.topic, l.partition)).and_then(|p| p.leader_log()) else {
                    panic!("a lag only for a partition with a leader")
                };
                let committed = sim.group(g.id()).and_then(|x| x.committed(&tp));
                assert_eq!(l.committed, committed);
                assert_eq!(l.high_watermark, log.high_watermark());
                assert_eq!(l.lag, log.high_watermark() - committed.unwrap_or(log.log_start_offset()), "{tp:?}");
                assert_eq!(g.lag(&tp), Some(l.lag));
                total += l.lag;
                seen += 1;
            }
            assert_eq!(g.total_lag(), total);
            // Every partition of every subscribed topic has a leader here.
            let partitions: u32 = g.topics().iter().filter_map(|t| read.topic(t)).map(|t| t.partition_count()).sum();
            assert_eq!(g.lags().count(), partitions as usize);
        }
        assert!(seen > 0);
        assert!(read.groups().any(|g| g.committed_offsets().count() > 0), "the run commits");
    }

    #[test]
    fn a_crashed_brokers_partitions_are_led_elsewhere_and_it_leaves_the_isr() {
        let Ok(mut sim) = default_scenario().build() else { panic!("builds") };
        sim.run_to(SimTime(5_000));
        let Some(victim) = sim.read().topics().flat_map(|t| t.partitions()).find_map(|p| p.leader()) else { panic!("a leader") };
        let led: Vec<TopicPartition> =
            sim.read().topics().flat_map(|t| t.partitions()).filter(|p| p.leader() == Some(victim)).map(|p| p.topic_partition()).collect();
        assert!(sim.apply(BrokerCommand::CrashBroker { broker: victim }).is_ok());
        sim.run_to(SimTime(40_000));
        let read = sim.read();
        let Some(b) = read.broker(victim) else { panic!("still listed") };
        assert!(!b.alive());
        assert!(b.fenced(), "fenced after broker.session.timeout.ms");
        for tp in &led {
            let Some(p) = read.partition(tp) else { panic!("{tp:?}") };
            assert_ne!(p.leader(), Some(victim), "{tp:?}");
            assert!(p.leader_epoch() > 0, "{tp:?}: a new epoch");
            assert!(!p.isr().contains(&victim), "{tp:?}");
            assert!(p.replicas().contains(&victim), "{tp:?}: still assigned");
            let replicas: Vec<ReplicaRead> = p.replica_logs().collect();
            assert_eq!(replicas.iter().filter(|r| r.is_leader).count(), usize::from(p.leader().is_some()));
            assert!(replicas.iter().any(|r| r.broker == victim && !r.in_isr && !r.is_leader));
        }
    }

    #[test]
    fn partition_records_are_read_by_offset_range() {
        let mut sim = run(1_000);
        let (producer, topic) = {
            let read = sim.read();
            let (Some(p), Some(t)) = (read.producers().next(), read.topics().next()) else { panic!("a producer and a topic") };
            (p.name().to_string(), t.name().to_string())
        };
        for i in 0..4 {
            let produce = Command::Produce(ProduceCommand::Produce {
                producer: producer.clone(),
                topic: topic.clone(),
                key: None,
                value: Some(format!("v{i}")),
                partition: Some(0),
                headers: Vec::new(),
            });
            assert!(sim.apply(produce).is_ok());
        }
        sim.run_to(SimTime(20_000));
        let read = sim.read();
        let Some(p) = read.topic(&topic).and_then(|t| t.partition(0)) else { panic!("partition 0") };
        assert!(p.log_end_offset() >= 3, "the run writes records");
        let from = p.log_start_offset() + 1;
        let got = p.records(from, from + 2);
        assert_eq!(got.iter().map(|r| r.offset).collect::<Vec<_>>(), vec![from, from + 1]);
        assert!(p.records(p.log_end_offset(), u64::MAX).is_empty());
        assert!(p.records(5, 2).is_empty());
        assert_eq!(p.newest_records(1).first().map(|r| r.offset), Some(p.log_end_offset() - 1));
    }

    #[test]
    fn events_are_found_by_their_sequence_number() {
        let sim = run(10_000);
        let read = sim.read();
        assert_eq!(read.events_total(), sim.trace().total());
        for seq in [0, 1, read.events_total() / 2, read.events_total() - 1] {
            assert_eq!(read.event(seq), sim.trace().events().find(|e| e.seq == seq));
        }
        assert_eq!(read.event(read.events_total()), None);
        assert_eq!(read.last_event().map(|e| e.seq), Some(read.events_total() - 1));
    }

    #[test]
    fn members_producers_and_findings_read_what_the_model_holds() {
        let sim = run(20_000);
        let read = sim.read();
        assert_eq!(read.sent_total(), sim.producers().map(|p| p.sent_total()).sum::<u64>());
        for p in read.producers() {
            assert_eq!(p.sent().count(), sim.clients.producers.get(p.name()).map_or(0, |x| x.sent.len()));
        }
        for g in read.groups() {
            assert_eq!(g.members().count(), sim.consumers.groups.get(g.id()).map_or(0, |x| x.members.len()));
            for m in g.members() {
                assert!(g.member(m.client_id()).is_some());
                assert!(m.session_deadline().is_some(), "{}: a running member has a session", m.client_id());
                assert!(m.assigned().iter().all(|tp| g.topics().iter().any(|t| t == tp.topic)));
            }
            let owned: usize = g.assignment().map(|(_, a)| a.len()).sum();
            assert_eq!(owned, g.lags().count(), "every partition owned once when stable");
        }
        assert_eq!(read.findings().len() as u64, read.findings_total().min(read.findings().len() as u64));
        assert_eq!(read.promises_broken(), 0);
        let Some(first) = read.topics().flat_map(|t| t.partitions()).find_map(|p| p.newest_records(1).first().map(|r| r.record.id)) else {
            panic!("a record")
        };
        let path = read.record_path(first);
        assert_eq!(path, crate::provenance::path(&sim, first));
        assert!(path.hops.iter().any(|(_, h)| matches!(h, Hop::Appended { .. })));
    }

    #[test]
    fn logs_owners_positions_and_records_in_hand_read_what_the_snapshot_shows() {
        let mut sim = run(20_000);
        // A crashed member is not among the running members nor an owner.
        let Some((group, victim)) =
            sim.read().groups().find_map(|g| g.members().next().map(|m| (g.id().to_string(), m.client_id().to_string())))
        else {
            panic!("a member")
        };
        assert!(sim.apply(GroupCommand::CrashMember { group: group.clone(), client_id: victim.clone() }).is_ok());
        sim.run_to(SimTime(20_100));
        let read = sim.read();
        let snap = sim.snapshot();
        assert_eq!(read.topics().count(), snap.topics.len());
        for (t, tv) in read.topics().zip(&snap.topics) {
            for (p, pv) in t.partitions().zip(&tv.partitions) {
                let Some(log) = p.log() else { panic!("{}-{}: a log", t.name(), p.index()) };
                assert_eq!(
                    (log.log_start_offset(), log.log_end_offset(), log.high_watermark()),
                    (pv.log_start_offset, pv.log_end_offset, pv.high_watermark)
                );
                let offsets = |rs: Records<'_>| rs.iter().map(|r| r.offset).collect::<Vec<_>>();
                assert_eq!(offsets(log.newest_records(RECORDS_SHOWN)), pv.records.iter().map(|r| r.offset).collect::<Vec<_>>());
                assert_eq!(log.records().len() as u64, log.log_end_offset() - log.log_start_offset(), "consecutive offsets");
                assert_eq!(offsets(log.records_in(0, u64::MAX)), offsets(log.records()));
                for r in &pv.records {
                    assert_eq!(p.record_at(r.offset).map(|s| s.record.value.as_str()), Some(r.value.as_str()));
                    assert_eq!(log.record(r.offset).map(|s| s.record.id), Some(r.id));
                }
                assert!(p.record_at(log.log_end_offset()).is_none());
                assert_eq!(pv.replica_logs.len(), p.replicas().len());
                for rv in &pv.replica_logs {
                    let Some(copy) = p.log_on(rv.broker) else { panic!("a copy on {}", rv.broker) };
                    assert_eq!((copy.log_end_offset(), copy.high_watermark()), (rv.log_end_offset, rv.high_watermark));
                }
                assert!(p.log_on(BrokerId::MAX).is_none());
            }
        }
        let mut checked = 0;
        for (g, gv) in read.groups().zip(&snap.groups) {
            assert_eq!(g.id(), gv.id);
            for mv in &gv.members {
                let Some(m) = g.member(&mv.client_id) else { panic!("{}", mv.client_id) };
                for (tp, o) in &mv.positions {
                    assert_eq!(m.position(&tp.topic, tp.partition), Some(*o));
                }
                assert_eq!(m.position("no-such-topic", 0), None);
                assert_eq!(m.in_hand().count() as u32, mv.buffered);
                assert!(mv.received.iter().all(|d| m.has_received(&d.value)));
                // The snapshot carries the newest deliveries, at most RECEIVED_SHOWN.
                let newest: Vec<_> = m.received().rev().take(crate::snapshot::RECEIVED_SHOWN).rev().collect();
                assert_eq!(mv.received.iter().collect::<Vec<_>>(), newest);
                assert!(!m.has_received("no such value"));
                for tp in &mv.assigned {
                    assert!(m.owns(&tp.topic, tp.partition));
                    let owners: Vec<&str> = g.owners(&tp.topic, tp.partition).collect();
                    assert_eq!(owners.contains(&mv.client_id.as_str()), mv.phase != Phase::Crashed, "{tp:?}");
                    checked += 1;
                }
            }
            let running: Vec<&str> = gv.members.iter().filter(|m| m.phase != Phase::Crashed).map(|m| m.client_id.as_str()).collect();
            assert_eq!(g.running_members().collect::<Vec<_>>(), running);
            let leader = g.leader_member_id().and_then(|id| gv.members.iter().find(|m| m.member_id == id)).map(|m| m.client_id.clone());
            assert_eq!(leader, gv.leader);
        }
        assert!(checked > 0);
        let Some(g) = read.group(&group) else { panic!("{group}") };
        assert!(g.members().any(|m| m.client_id() == victim && m.phase() == Phase::Crashed));
        assert!(g.running_members().all(|c| c != victim));
    }

    #[test]
    fn connectors_and_streams_apps_read_what_the_snapshot_shows() {
        // A source connector (timestamp+incrementing) and a Streams count over its topic.
        let text = r#"{
          "version": 1, "seed": 1,
          "cluster": { "brokers": 1, "offsets_topic_replication_factor": 1, "group_initial_rebalance_delay_ms": 0 },
          "topics": [{ "name": "rows", "partitions": 2 }, { "name": "counts", "partitions": 2 }],
          "connectors": [{ "name": "db", "topic": "rows", "mode": "timestamp+incrementing",
                           "table": { "rows": [{ "id": 1, "value": "x" }, { "id": 2, "value": "z" }],
                                      "changes": [{ "at_ms": 3000, "update": { "id": 1, "value": "y" } }] } }],
          "streams": [{ "application_id": "app", "source": "rows", "sink": "counts", "op": { "count_by_key": {} } }]
        }"#;
        let Ok(mut sim) = crate::scenario::Scenario::from_json(text).and_then(|s| s.build()) else { panic!("the scenario builds") };
        sim.run_to(SimTime(7_000));
        let read = sim.read();
        let snap = sim.snapshot();
        assert!(!snap.connectors.is_empty() && !snap.streams.is_empty(), "the scenario has both");
        assert!(snap.streams.iter().any(|a| a.stores.iter().any(|s| !s.counts.is_empty())), "the app counts");
        assert_eq!(read.connectors().map(ConnectorRead::view).collect::<Vec<_>>(), snap.connectors);
        for c in &snap.connectors {
            let Some(r) = read.connector(&c.name) else { panic!("{}", c.name) };
            assert_eq!((r.name(), r.position(), r.flushed(), r.unflushed()), (c.name.as_str(), c.position, c.committed, c.unflushed));
        }
        assert!(read.connector("no-such-connector").is_none());
        assert_eq!(read.streams_apps().map(StreamsRead::view).collect::<Vec<_>>(), snap.streams);
        for a in &snap.streams {
            let Some(r) = read.streams_app(&a.application_id) else { panic!("{}", a.application_id) };
            assert_eq!(r.application_id(), a.application_id);
            for s in &a.stores {
                for (k, _) in &s.counts {
                    let first = a.stores.iter().find_map(|s| s.counts.iter().find(|(x, _)| x == k).map(|(_, n)| *n));
                    assert_eq!(r.store_count(k), first);
                }
            }
            assert_eq!(r.store_count("no such key"), None);
        }
    }

    /// A one-partition compacted topic "t" on one broker whose cleaner wakes every
    /// `backoff_ms`; each record a batch of its own in a 150-byte segment (two a segment).
    fn compacted(backoff_ms: u64, min_compaction_lag_ms: u64) -> Sim {
        use crate::config::{CleanupPolicy, ClusterConfig, ProducerConfig};
        use crate::scenario::{ProducerSpec, Scenario, TopicSpec};
        let scenario = Scenario {
            seed: 3,
            cluster: ClusterConfig { brokers: 1, network_latency_ms: 1, log_cleaner_backoff_ms: backoff_ms, ..ClusterConfig::default() },
            topics: vec![TopicSpec {
                name: "t".into(),
                partitions: 1,
                replication_factor: 1,
                segment_bytes: 150,
                cleanup_policy: CleanupPolicy::Compact,
                min_compaction_lag_ms,
                ..TopicSpec::default()
            }],
            producers: vec![ProducerSpec {
                name: "p".into(),
                config: ProducerConfig { acks: Acks::All, linger_ms: 0, ..ProducerConfig::default() },
                ..ProducerSpec::default()
            }],
            ..Scenario::default()
        };
        let Ok(sim) = scenario.build() else { panic!("the compacted scenario builds") };
        sim
    }

    fn put(sim: &mut Sim, key: &str, value: &str) {
        let produce = ProduceCommand::Produce {
            producer: "p".into(),
            topic: "t".into(),
            key: Some(key.into()),
            value: Some(value.into()),
            partition: None,
            headers: vec![],
        };
        assert!(sim.apply(produce).is_ok());
        let until = sim.now().plus_ms(20);
        sim.run_to(until);
    }

    /// The dirty ratio by its definition, from the segments alone: the bytes of the
    /// non-active segments at or after the checkpoint over the bytes of every non-active one.
    fn ratio_by_hand(log: LogRead<'_>) -> f64 {
        let segments = log.segments();
        let non_active = &segments[..segments.len().saturating_sub(1)];
        let from = log.cleaner_checkpoint().unwrap_or(0);
        let dirty: u64 = non_active.iter().filter(|s| s.base_offset >= from).map(|s| s.size_bytes).sum();
        let all: u64 = non_active.iter().map(|s| s.size_bytes).sum();
        if all == 0 {
            0.0
        } else {
            dirty as f64 / all as f64
        }
    }

    #[test]
    fn the_dirty_ratio_is_the_dirty_bytes_over_the_bytes_the_cleaner_may_take_and_the_clean_bytes() {
        let mut sim = compacted(60_000, 0);
        for (k, v) in [("a", "a1"), ("b", "b1"), ("a", "a2"), ("b", "b2"), ("a", "a3")] {
            put(&mut sim, k, v);
        }
        let now = sim.now();
        let tp = TopicPartition::new("t", 0);
        let Some(cfg) = sim.read().topic("t").map(|t| t.config().compaction()) else { panic!("topic t") };
        let Some(log) = sim.partition(&tp).and_then(|p| p.log()) else { panic!("t-0") };
        // Before the first pass everything below the active segment is dirty.
        assert_eq!(log.cleaner_checkpoint(), None);
        assert!(log.segments().len() >= 3, "records roll segments: {:?}", log.segments().len());
        assert_eq!(log.dirty_ratio(now, &cfg), 1.0);
        assert_eq!(log.dirty_ratio(now, &cfg), ratio_by_hand(log));
        let Some(ltc) = log.to_clean(now, &cfg) else { panic!("a log with records") };
        assert_eq!(ltc.first_dirty_offset, 0);
        assert_eq!(ltc.first_uncleanable_offset, log.segments().last().map_or(0, |s| s.base_offset), "the active segment is never cleaned");
        assert!(ltc.eligible(cfg.min_cleanable_dirty_ratio));
        // The cleaner's pass leaves nothing dirty below the active segment.
        sim.run_to(SimTime(60_500));
        let Some(log) = sim.partition(&tp).and_then(|p| p.log()) else { panic!("t-0") };
        assert_eq!(log.cleaner_passes(), 1);
        assert_eq!(log.dirty_ratio(sim.now(), &cfg), 0.0);
        // New records roll new segments: dirty again, in the share the segments say.
        for (k, v) in [("b", "b3"), ("c", "c1"), ("a", "a4"), ("c", "c2")] {
            put(&mut sim, k, v);
        }
        let Some(log) = sim.partition(&tp).and_then(|p| p.log()) else { panic!("t-0") };
        let ratio = log.dirty_ratio(sim.now(), &cfg);
        assert!(ratio > 0.0 && ratio < 1.0, "{ratio}");
        assert_eq!(ratio, ratio_by_hand(log));
    }

    #[test]
    fn records_younger_than_min_compaction_lag_are_not_dirty_yet() {
        let mut sim = compacted(60_000, 30_000);
        for (k, v) in [("a", "a1"), ("a", "a2"), ("a", "a3"), ("a", "a4")] {
            put(&mut sim, k, v);
        }
        let tp = TopicPartition::new("t", 0);
        let Some(cfg) = sim.read().topic("t").map(|t| t.config().compaction()) else { panic!("topic t") };
        let Some(log) = sim.partition(&tp).and_then(|p| p.log()) else { panic!("t-0") };
        assert_eq!(log.dirty_ratio(sim.now(), &cfg), 0.0, "every segment is younger than the lag");
        assert_eq!(log.dirty_ratio(SimTime(40_000), &cfg), 1.0, "past the lag every non-active segment is dirty");
    }
}

// ----- transactions (issue 17) ---------------------------------------------------------

pub use crate::record::{ControlType, TxnTag};
pub use crate::txn::{AbortedTxn, ClientTxnState, TxnMark, TxnPartition, TxnState};

/// A transactional producer's `TransactionManager` (issue 17).
#[derive(Clone, Copy)]
pub struct TxnProducerRead<'a>(&'a crate::txn::TxnClient);

impl<'a> TxnProducerRead<'a> {
    /// Its `transactional.id`.
    pub fn transactional_id(self) -> &'a str {
        &self.0.transactional_id
    }
    /// Where it is: initializing, ready, in a transaction, committing, an error state…
    pub fn state(self) -> ClientTxnState {
        self.0.state
    }
    /// Its producer id and epoch (none before `initTransactions()` completes).
    pub fn producer_id_and_epoch(self) -> Option<TxnTag> {
        self.0.tag
    }
    /// The partitions it has sent to in the open transaction.
    pub fn partitions(self) -> impl Iterator<Item = &'a TopicPartition> {
        self.0.partitions.iter()
    }
    /// The groups whose offsets it sent in the open transaction.
    pub fn offset_groups(self) -> impl Iterator<Item = &'a str> {
        self.0.offset_groups.iter().map(String::as_str)
    }
    /// The error that put it in an abortable or fatal state.
    pub fn last_error(self) -> Option<crate::event::TxnError> {
        self.0.last_error
    }
    /// Transactions it committed.
    pub fn committed(self) -> u64 {
        self.0.committed
    }
    /// Transactions it aborted.
    pub fn aborted(self) -> u64 {
        self.0.aborted
    }
}

/// The transaction coordinator's record of one `transactional.id` (`TransactionMetadata`).
#[derive(Clone, Copy)]
pub struct TransactionRead<'a> {
    md: &'a crate::txn::TxnMetadata,
    coordinator: Option<BrokerId>,
}

impl<'a> TransactionRead<'a> {
    /// The `transactional.id`.
    pub fn transactional_id(self) -> &'a str {
        &self.md.transactional_id
    }
    /// Its state at the coordinator.
    pub fn state(self) -> TxnState {
        self.md.state
    }
    /// Its producer id.
    pub fn producer_id(self) -> u64 {
        self.md.producer_id
    }
    /// Its epoch at the coordinator (-1 before the first InitProducerId completed).
    pub fn epoch(self) -> i32 {
        self.md.epoch
    }
    /// The partitions in the open transaction (a group's offsets as its group).
    pub fn partitions(self) -> impl Iterator<Item = &'a TxnPartition> {
        self.md.partitions.iter()
    }
    /// The partitions whose marker is not acknowledged yet (Prepare*).
    pub fn markers_pending(self) -> impl Iterator<Item = &'a TxnPartition> {
        self.md.markers_pending.iter()
    }
    /// When its open transaction started (the timeout counts from here).
    pub fn started_at(self) -> Option<SimTime> {
        self.md.started_at
    }
    /// Its `transaction.timeout.ms`.
    pub fn timeout_ms(self) -> u64 {
        self.md.timeout_ms
    }
    /// The coordinator now: the leader of its `__transaction_state` partition, if reachable.
    pub fn coordinator(self) -> Option<BrokerId> {
        self.coordinator
    }
    /// Transactions it committed and aborted, at the coordinator.
    pub fn completed(self) -> (u64, u64) {
        (self.md.committed, self.md.aborted)
    }
}

impl<'a> Read<'a> {
    /// The coordinator's record of `transactional_id`, once it has one.
    pub fn transaction(self, transactional_id: &str) -> Option<TransactionRead<'a>> {
        let md = self.sim.txns.metadata(transactional_id)?;
        Some(TransactionRead { md, coordinator: self.sim.cluster.txn_coordinator_of(transactional_id) })
    }
    /// Every `transactional.id` the coordinators know, by id.
    pub fn transactions(self) -> impl Iterator<Item = TransactionRead<'a>> {
        let cluster = &self.sim.cluster;
        self.sim.txns.ids.values().map(move |md| TransactionRead { md, coordinator: cluster.txn_coordinator_of(&md.transactional_id) })
    }
    /// The broker coordinating `transactional_id` (the leader of its `__transaction_state`
    /// partition), when a client can reach it.
    pub fn txn_coordinator_of(self, transactional_id: &str) -> Option<BrokerId> {
        self.sim.cluster.txn_coordinator_of(transactional_id)
    }
}
