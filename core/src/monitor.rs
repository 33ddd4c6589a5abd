//! Guarantee monitors: checkers outside the model that watch the trace and report when
//! one of Kafka's guarantees does not hold, with the records involved and the cause.
//!
//! They keep their own shadow of every replica's log, built only from trace events
//! (appends, follower copies, truncations, elections), so they check the model rather
//! than trust it. Kafka promises (acks=all, no unclean election) that an acknowledged
//! record is never lost; findings that break a promise are marked `promised`.
//!
//! What they keep per record lives in [`ChunkedMap`]s and [`ChunkedSet`]s, whose clones
//! share their chunks, and names and values are shared [`Name`]s (a name once per
//! monitor, a value the event's own): the page's time travel keeps dozens of clones of the
//! whole `Sim`, and two taken a few hundred steps apart then share almost everything.

use crate::chunked::{ChunkedMap, ChunkedSet};
use crate::cluster::BrokerId;
use crate::config::Acks;
use crate::event::{CompactionEvent, ConsumeEvent, ProduceEvent, ReplicationEvent};
use crate::event::{Event, EventKind, LossCause};
use crate::name::Name;
use crate::record::{RecordId, TopicPartition};
use crate::sorted::CollectSorted;
use crate::time::SimTime;
use crate::vecmap::{VecMap, VecSet};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};

/// A name or a value the monitors keep, shared (see [`Names`]): the events' own [`Name`].
pub(crate) type Shared = Name;

/// An acknowledged record still expected in the log: (offset, acks, value).
type Acked = (u64, Acks, Shared);

/// The names a monitor keeps per record (producers, groups, clients, applications,
/// topics), each allocated once: an entry holds a shared pointer, not its own `String`.
/// Names come from the scenario and the commands, so the table stays small.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Names(Vec<Name>);

impl Names {
    /// The shared copy of `name` (made on first use).
    pub(crate) fn get(&mut self, name: &str) -> Name {
        match self.0.binary_search_by(|n| n.as_str().cmp(name)) {
            Ok(i) => self.0[i].clone(),
            Err(i) => {
                let shared = Name::from(name);
                self.0.insert(i, shared.clone());
                shared
            }
        }
    }
}

/// What went wrong.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum FindingKind {
    /// A record the producer was told is written is gone from the partition's leader.
    AcknowledgedRecordLost {
        /// The `acks` the records were acknowledged under: 1 or all (under acks=0 the
        /// producer gets no offset, so nothing is checked).
        acks: Acks,
        /// Why: a clean failover to a leader that lacked them, or an unclean election.
        cause: LossCause,
    },
    /// A producer's records landed in the log in another order than they were sent
    /// (retries with `max.in.flight.requests.per.connection` > 1 and no idempotence).
    OrderViolated {
        /// The producer's name (`client.id`).
        producer: String,
    },
    /// The same record was appended twice (a retry without idempotence).
    DuplicateAppended {
        /// The producer's name (`client.id`).
        producer: String,
    },
    /// A consumer was given a record at or above the high watermark (never committed).
    ReadAboveHighWatermark {
        /// The consumer's `group.id`.
        group: String,
        /// The consumer's `client.id`.
        client_id: String,
    },
    /// Two brokers acted as leader in the same epoch.
    TwoLeadersInOneEpoch {
        /// The leader epoch.
        epoch: u32,
        /// The two brokers seen leading it (elected, or appending as leader), by id.
        brokers: Vec<BrokerId>,
    },
    /// A consumer was given records of an aborted transaction: promised not to happen
    /// under read_committed; read_uncommitted consumers do read them (issue 17).
    AbortedRecordRead {
        /// The consumer's `group.id`.
        group: String,
        /// The consumer's `client.id`.
        client_id: String,
        /// Whether the group reads read_committed.
        read_committed: bool,
    },
    /// A read_committed consumer was given a record of a transaction not yet decided
    /// (above the last stable offset).
    UndecidedRecordRead {
        /// The consumer's `group.id`.
        group: String,
        /// The consumer's `client.id`.
        client_id: String,
    },
    /// A Streams input's output became visible a second time: promised not to happen under
    /// exactly_once_v2; what at_least_once does after a crash.
    OutputDuplicated {
        /// The application's `application.id`.
        application_id: String,
        /// Whether both copies were written by exactly_once_v2 transactions (the broken
        /// promise); false when a copy came from at_least_once, including progress an
        /// application left uncommitted before it switched to exactly_once_v2.
        exactly_once: bool,
    },
    /// An exactly_once_v2 application processed an input again (its earlier transaction
    /// aborted): the output is still once, but a side effect outside Kafka would repeat —
    /// exactly-once does not promise that.
    ReprocessedOutsideKafka {
        /// The application's `application.id`.
        application_id: String,
    },
}

impl std::fmt::Display for FindingKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let acks = |a: &Acks| match a {
            Acks::Zero => "0",
            Acks::Leader => "1",
            Acks::All => "all",
        };
        match self {
            FindingKind::AcknowledgedRecordLost { acks: a, cause } => {
                let cause = match cause {
                    LossCause::UncleanElection => "unclean leader election",
                    LossCause::LeaderFailover => "leader failover",
                };
                write!(f, "acknowledged (acks={}) record lost: {cause}", acks(a))
            }
            FindingKind::OrderViolated { producer } => write!(f, "{producer}'s records landed out of send order"),
            FindingKind::DuplicateAppended { producer } => write!(f, "{producer}'s record was written twice"),
            FindingKind::ReadAboveHighWatermark { group, client_id } => {
                write!(f, "{group}/{client_id} read a record at or above the high watermark")
            }
            FindingKind::TwoLeadersInOneEpoch { epoch, brokers } => write!(f, "brokers {brokers:?} both led epoch {epoch}"),
            FindingKind::AbortedRecordRead { group, client_id, read_committed } => {
                let level = if *read_committed { "read_committed" } else { "read_uncommitted" };
                write!(f, "{group}/{client_id} ({level}) read records of an aborted transaction")
            }
            FindingKind::UndecidedRecordRead { group, client_id } => {
                write!(f, "{group}/{client_id} (read_committed) read a record of an undecided transaction")
            }
            FindingKind::OutputDuplicated { application_id, exactly_once } => {
                let g = if *exactly_once { "exactly_once_v2" } else { "at_least_once" };
                write!(f, "{application_id} ({g}): an input's output is visible twice")
            }
            FindingKind::ReprocessedOutsideKafka { application_id } => {
                write!(f, "{application_id} (exactly_once_v2) processed an input again: its output stays once, a side effect outside Kafka would repeat")
            }
        }
    }
}

/// One finding, linked to the moment it happened.
///
/// Read them with [`Read::findings`](crate::read::Read::findings) (or
/// [`Sim::monitors`](crate::Sim::monitors)); [`Sim::check_promises`](crate::Sim::check_promises)
/// fails on those with [`Finding::promised`].
///
/// # Example
///
/// With `acks=1` the leader acknowledges a record as soon as it has appended it. Here the
/// followers fetch 5 s late (still in the ISR, since `replica.lag.time.max.ms` is 30 s),
/// so when the leader crashes right after the acknowledgement, the follower elected in its
/// place does not have the record:
///
/// ```
/// use kafka_sandbox_core::{Acks, Command, FindingKind, LossCause, ProducerSpec, Scenario, SimTime, TopicSpec};
///
/// let mut b = Scenario::builder();
/// b.brokers(3);
/// let t = b.topic(TopicSpec::new("payments").replication_factor(3));
/// let app = b.producer(ProducerSpec::new("app").acks(Acks::Leader));
/// let mut sim = b.build()?;
/// sim.run_to(SimTime(1_000));
/// let leader = sim.partition(&t.partition(0)).and_then(|p| p.leader()).expect("a leader");
/// for follower in (0..3).filter(|b| *b != leader) {
///     sim.apply(Command::slow_broker(follower, 5_000))?;
/// }
/// sim.run_to(SimTime(2_000));
/// sim.apply(Command::produce(&app, &t, None, "p1"))?;
/// sim.run_until(|r| r.producer(&app).is_some_and(|p| p.acknowledged() == 1), SimTime(10_000))?;
/// sim.apply(Command::crash_broker(leader))?;
/// sim.run_to(SimTime(30_000));
///
/// let read = sim.read();
/// let finding = read.findings().iter().find(|f| f.tp == t.partition(0)).expect("a finding");
/// assert_eq!(finding.kind, FindingKind::AcknowledgedRecordLost { acks: Acks::Leader, cause: LossCause::LeaderFailover });
/// assert_eq!(finding.values, ["p1"]);
/// assert!(!finding.promised, "acks=1 never promised to keep it");
/// assert_eq!(read.promises_broken(), 0);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Finding {
    /// When it happened: the time of the event that revealed it.
    pub time: SimTime,
    /// The trace event that revealed it.
    pub seq: u64,
    /// The partition concerned.
    pub tp: TopicPartition,
    /// The records involved: those lost, the duplicate, the one read above the high
    /// watermark, or (order violated) the record that landed late followed by those sent
    /// after it that landed before it; none for two leaders in one epoch.
    pub records: Vec<RecordId>,
    /// The values of [`Finding::records`], in the same order.
    pub values: Vec<String>,
    /// What went wrong.
    pub kind: FindingKind,
    /// Whether Kafka promises this cannot happen under the settings in force.
    pub promised: bool,
}

/// The guarantee monitors (see the module documentation): fed every trace event
/// ([`Monitors::observe`]), they keep their own shadow of each replica's log and record a
/// [`Finding`] whenever one of Kafka's guarantees does not hold. A [`Sim`](crate::Sim)
/// runs them on its own trace ([`Sim::monitors`](crate::Sim::monitors)); their bounds come
/// from [`SimOptions::monitor_records`](crate::SimOptions::monitor_records) and
/// [`SimOptions::findings`](crate::SimOptions::findings).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Monitors {
    /// The most records, offsets or sends remembered per map ([`crate::SimOptions::monitor_records`]).
    tracked_max: usize,
    /// The most findings kept ([`crate::SimOptions::findings`]).
    findings_kept: usize,
    /// How many entries the bounds made the monitors forget.
    forgotten: u64,
    /// Shadow replica logs: offset → record, per partition and broker.
    shadows: VecMap<(TopicPartition, BrokerId), ChunkedMap<u64, RecordId>>,
    leaders: VecMap<TopicPartition, Option<BrokerId>>,
    epoch_leaders: VecMap<(TopicPartition, u32), VecSet<BrokerId>>,
    /// Acknowledged records still expected in the log, per partition: record → (offset,
    /// acks, value).
    acked: VecMap<TopicPartition, ChunkedMap<RecordId, Acked>>,
    /// Records already reported lost.
    reported: ChunkedSet<RecordId>,
    /// Records retention deleted or a log cleaner removed (the newest `tracked_max` of
    /// them): an acknowledgement arriving after that is no promise to check.
    gone: ChunkedSet<RecordId>,
    /// Per producer and partition, each appended record's first offset.
    appended: VecMap<(Name, TopicPartition), ChunkedMap<RecordId, u64>>,
    first_offset: ChunkedMap<RecordId, u64>,
    /// Each sent record's producer and value.
    producer_of: ChunkedMap<RecordId, (Name, Name)>,
    /// The producers' names, shared by `producer_of` and `appended`.
    names: Names,
    findings: Vec<Finding>,
    total: u64,
    promised_total: u64,
    /// Acknowledged records found lost, over the whole run.
    acked_lost: u64,
    observed: u64,
    /// The exactly-once monitor (`monitor_txn.rs`).
    txn: crate::monitor_txn::TxnMonitor,
}

impl Default for Monitors {
    fn default() -> Self {
        Self::new()
    }
}

impl Monitors {
    /// Monitors with the default bounds ([`crate::SimOptions::default`]).
    pub fn new() -> Self {
        let o = crate::SimOptions::default();
        Self::with_bounds(o.monitor_records, o.findings)
    }

    /// Monitors remembering at most `tracked_max` entries per map and keeping at most
    /// `findings_kept` findings (`usize::MAX`: everything).
    pub fn with_bounds(tracked_max: usize, findings_kept: usize) -> Self {
        Self {
            tracked_max,
            findings_kept: findings_kept.max(1),
            forgotten: 0,
            shadows: VecMap::new(),
            leaders: VecMap::new(),
            epoch_leaders: VecMap::new(),
            acked: VecMap::new(),
            reported: ChunkedSet::new(),
            gone: ChunkedSet::new(),
            appended: VecMap::new(),
            first_offset: ChunkedMap::new(),
            producer_of: ChunkedMap::new(),
            names: Names::default(),
            findings: Vec::new(),
            total: 0,
            promised_total: 0,
            acked_lost: 0,
            observed: 0,
            txn: crate::monitor_txn::TxnMonitor::default(),
        }
    }

    /// Whether the monitors saw the whole run: nothing forgotten under their bounds. When
    /// `false`, a record acknowledged long ago and lost later may go unreported, so "no
    /// broken promise" is not proven (see [`crate::SimOptions::monitor_records`]).
    pub fn is_complete(&self) -> bool {
        self.forgotten == 0
    }

    /// How many remembered entries the bounds made the monitors forget.
    pub fn forgotten(&self) -> u64 {
        self.forgotten
    }

    /// How many acknowledged records were found lost over the whole run (kept findings
    /// or not), whatever the settings promised.
    pub fn acked_lost_total(&self) -> u64 {
        self.acked_lost
    }

    /// How many findings are no longer kept (still counted in [`Monitors::total`]).
    pub fn findings_dropped(&self) -> u64 {
        self.total - self.findings.len() as u64
    }

    /// The newest findings (at most [`crate::SimOptions::findings`]), oldest first.
    pub fn findings(&self) -> &[Finding] {
        &self.findings
    }

    /// How many findings there have been.
    pub fn total(&self) -> u64 {
        self.total
    }

    /// How many findings broke a promise Kafka makes.
    pub fn promised_total(&self) -> u64 {
        self.promised_total
    }

    fn report(&mut self, e: &Event, tp: TopicPartition, records: Vec<(RecordId, String)>, kind: FindingKind, promised: bool) {
        if self.findings.len() >= self.findings_kept {
            self.findings.remove(0);
        }
        self.total += 1;
        if promised {
            self.promised_total += 1;
        }
        if matches!(kind, FindingKind::AcknowledgedRecordLost { .. }) {
            self.acked_lost += records.len() as u64;
        }
        let (records, values) = records.into_iter().unzip();
        self.findings.push(Finding { time: e.time, seq: e.seq, tp, records, values, kind, promised });
    }

    /// Forgets the oldest state beyond fixed bounds, so a long run does not grow memory:
    /// records acknowledged long ago, send orders and shadow offsets far behind the end.
    fn prune(&mut self) {
        let max = self.tracked_max;
        let mut forgotten = 0u64;
        for per_tp in self.acked.values_mut() {
            forgotten += per_tp.trim_first(max) as u64;
        }
        forgotten += self.first_offset.trim_first(max) as u64;
        forgotten += self.producer_of.trim_first(max) as u64;
        for shadow in self.shadows.values_mut() {
            forgotten += shadow.trim_first(max) as u64;
        }
        forgotten += self.reported.trim_first(max) as u64;
        forgotten += self.txn.prune(max);
        self.forgotten += forgotten;
    }

    /// Looks at one trace event.
    pub fn observe(&mut self, e: &Event) {
        self.observed += 1;
        if self.observed % 4096 == 0 {
            self.prune();
        }
        for (tp, records, kind, promised) in self.txn.observe(e) {
            self.report(e, tp, records, kind, promised);
        }
        match &e.kind {
            EventKind::Produce(ProduceEvent::RecordSent { record, producer, value, .. }) => {
                // The event's own copy of the value, shared with the exactly-once monitor.
                let value = value.clone();
                self.txn.sent(*record, value.clone());
                let producer = self.names.get(producer);
                self.producer_of.insert(*record, (producer, value));
            }
            EventKind::Produce(ProduceEvent::RecordAppended { record, value, topic, partition, offset, broker, leader_epoch, .. }) => {
                let tp = TopicPartition::new(topic.clone(), *partition);
                self.check_epoch(e, &tp, *leader_epoch, *broker);
                self.shadows.entry((tp.clone(), *broker)).or_default().insert(*offset, *record);
                self.check_order(e, &tp, *record, value, *offset);
            }
            EventKind::Replication(ReplicationEvent::ReplicaFetched { topic, partition, follower, records, log_end_offset }) => {
                let tp = TopicPartition::new(topic.clone(), *partition);
                let offsets = self.fetched_offsets(&tp, records, *log_end_offset);
                let shadow = self.shadows.entry((tp, *follower)).or_default();
                for (o, r) in offsets.into_iter().zip(records) {
                    shadow.insert(o, *r);
                }
            }
            EventKind::Compaction(CompactionEvent::LogCleaned { topic, partition, broker, removed, .. }) => {
                // Compaction is not loss either: a record the cleaner removed was superseded
                // by a newer one of its key (or was a tombstone past its horizon, or an
                // aborted record); it leaves that replica's shadow and the promise.
                let tp = TopicPartition::new(topic.clone(), *partition);
                let gone: BTreeSet<RecordId> = removed.iter().copied().collect_set();
                if let Some(shadow) = self.shadows.get_mut(&(tp.clone(), *broker)) {
                    shadow.retain(|_, r| !gone.contains(r));
                }
                if let Some(per_tp) = self.acked.get_mut(&tp) {
                    for r in removed {
                        per_tp.remove(r);
                    }
                }
                self.remember_gone(removed);
            }
            EventKind::Replication(ReplicationEvent::RecordsTruncated { topic, partition, broker, from_offset, .. }) => {
                let tp = TopicPartition::new(topic.clone(), *partition);
                if let Some(shadow) = self.shadows.get_mut(&(tp.clone(), *broker)) {
                    shadow.split_off(from_offset);
                }
                if self.leaders.get(&tp).copied().flatten() == Some(*broker) {
                    self.check_acked(e, &tp, LossCause::LeaderFailover);
                }
            }
            EventKind::Replication(ReplicationEvent::LeaderElected { topic, partition, leader, epoch, unclean, .. }) => {
                let tp = TopicPartition::new(topic.clone(), *partition);
                self.leaders.insert(tp.clone(), *leader);
                if let Some(l) = leader {
                    self.check_epoch(e, &tp, *epoch, *l);
                    let cause = if *unclean { LossCause::UncleanElection } else { LossCause::LeaderFailover };
                    self.check_acked(e, &tp, cause);
                }
            }
            EventKind::Replication(ReplicationEvent::SegmentsDeleted { topic, partition, broker, records, .. }) => {
                // Retention is not loss: deleted records leave the shadow and the promise.
                let tp = TopicPartition::new(topic.clone(), *partition);
                if let Some(shadow) = self.shadows.get_mut(&(tp, *broker)) {
                    // A set: a linear `contains` per shadow entry cost a quarter of a
                    // long run's time (20,000 entries × the records of every segment).
                    let deleted: BTreeSet<RecordId> = records.iter().copied().collect_set();
                    shadow.retain(|_, r| !deleted.contains(r));
                }
                let tp = TopicPartition::new(topic.clone(), *partition);
                if let Some(per_tp) = self.acked.get_mut(&tp) {
                    for r in records {
                        per_tp.remove(r);
                    }
                }
                self.remember_gone(records);
            }
            EventKind::Produce(ProduceEvent::RecordAcked { record, value, topic, partition, offset, acks, .. }) => {
                if *offset < 0 {
                    return; // acks=0: no offset, no promise.
                }
                let tp = TopicPartition::new(topic.clone(), *partition);
                let offset = *offset as u64;
                // An ack can arrive after the leader that wrote it was replaced: check it
                // now; afterwards it is checked at every leader change and truncation.
                let present = match self.leaders.get(&tp).copied().flatten() {
                    Some(leader) => self.shadows.get(&(tp.clone(), leader)).and_then(|s| s.get(&offset)) == Some(record),
                    None => true,
                };
                // An ack that arrives after retention or the cleaner removed its record is
                // no promise to check.
                if !present && self.gone.contains(record) {
                    return;
                }
                // The event's shared value (the same allocation as the send's).
                let value = value.clone();
                self.acked.entry(tp.clone()).or_default().insert(*record, (offset, *acks, value));
                if !present {
                    self.check_acked(e, &tp, LossCause::LeaderFailover);
                }
            }
            EventKind::Consume(ConsumeEvent::RecordDelivered { group, client_id, record, tp, offset, value, high_watermark })
                if offset >= high_watermark =>
            {
                self.report(
                    e,
                    tp.clone(),
                    vec![(*record, value.to_string())],
                    FindingKind::ReadAboveHighWatermark { group: group.to_string(), client_id: client_id.to_string() },
                    true,
                );
            }
            _ => {}
        }
    }

    fn remember_gone(&mut self, records: &[RecordId]) {
        for r in records {
            if self.gone.len() >= self.tracked_max.max(1) {
                self.gone.pop_first();
            }
            self.gone.insert(*r);
        }
    }

    /// The offsets of the records a follower fetched, its log then ending at
    /// `log_end_offset`: the fetched records are the leader's from the follower's old end
    /// on, so when the leader's shadow ends with exactly these records below that end,
    /// their offsets there (a compacted leader's log has gaps); otherwise the offsets just
    /// below the end, one each.
    fn fetched_offsets(&self, tp: &TopicPartition, records: &[RecordId], log_end_offset: u64) -> Vec<u64> {
        let contiguous = || {
            let first = log_end_offset.saturating_sub(records.len() as u64);
            (0..records.len() as u64).map(|i| first + i).collect()
        };
        let Some(Some(leader)) = self.leaders.get(tp).copied() else { return contiguous() };
        let Some(shadow) = self.shadows.get(&(tp.clone(), leader)) else { return contiguous() };
        let tail: Vec<(u64, RecordId)> = shadow.range(..log_end_offset).rev().take(records.len()).map(|(o, r)| (*o, *r)).collect();
        let matches = tail.len() == records.len() && tail.iter().rev().zip(records).all(|((_, a), b)| a == b);
        if matches {
            tail.iter().rev().map(|(o, _)| *o).collect()
        } else {
            contiguous()
        }
    }

    fn check_epoch(&mut self, e: &Event, tp: &TopicPartition, epoch: u32, broker: BrokerId) {
        let set = self.epoch_leaders.entry((tp.clone(), epoch)).or_default();
        if set.insert(broker) && set.len() == 2 {
            let brokers: Vec<BrokerId> = set.iter().copied().collect();
            self.report(e, tp.clone(), Vec::new(), FindingKind::TwoLeadersInOneEpoch { epoch, brokers }, true);
        }
    }

    /// Every acknowledged record of `tp` must be in the current leader's log at its offset.
    fn check_acked(&mut self, e: &Event, tp: &TopicPartition, cause: LossCause) {
        let Some(Some(leader)) = self.leaders.get(tp).copied() else { return };
        let empty = ChunkedMap::new();
        let shadow = self.shadows.get(&(tp.clone(), leader)).unwrap_or(&empty);
        let mut lost: BTreeMap<Acks, Vec<(RecordId, String)>> = BTreeMap::new();
        let Some(per_tp) = self.acked.get(tp) else { return };
        for (record, (offset, acks, value)) in per_tp.iter() {
            if self.reported.contains(record) {
                continue;
            }
            if shadow.get(offset) != Some(record) {
                lost.entry(*acks).or_default().push((*record, value.to_string()));
            }
        }
        for (acks, records) in lost {
            for (r, _) in &records {
                self.reported.insert(*r);
                if let Some(per_tp) = self.acked.get_mut(tp) {
                    per_tp.remove(r);
                }
            }
            // Kafka's promise: acks=all without unclean election loses nothing.
            let promised = acks == Acks::All && cause != LossCause::UncleanElection;
            self.report(e, tp.clone(), records, FindingKind::AcknowledgedRecordLost { acks, cause }, promised);
        }
    }

    /// A record's first append must come after those its producer sent earlier to the
    /// same partition; a second append of the same record is a duplicate. Record ids grow
    /// in send order, so the records sent later are those with larger ids.
    fn check_order(&mut self, e: &Event, tp: &TopicPartition, record: RecordId, value: &str, offset: u64) {
        let Some(producer) = self.producer_of.get(&record).map(|(p, _)| p.clone()) else { return };
        if self.first_offset.contains_key(&record) {
            let kind = FindingKind::DuplicateAppended { producer: producer.to_string() };
            self.report(e, tp.clone(), vec![(record, value.to_string())], kind, false);
            return;
        }
        self.first_offset.insert(record, offset);
        let appended = self.appended.entry((producer.clone(), tp.clone())).or_default();
        let overtaken: Vec<RecordId> = appended.range(RecordId(record.0 + 1)..).filter(|(_, o)| **o < offset).map(|(r, _)| *r).collect();
        appended.insert(record, offset);
        if appended.len() > self.tracked_max {
            appended.pop_first();
            self.forgotten += 1;
        }
        if !overtaken.is_empty() {
            let mut records: Vec<(RecordId, String)> = vec![(record, value.to_string())];
            records.extend(overtaken.iter().map(|r| (*r, self.producer_of.get(r).map(|p| p.1.to_string()).unwrap_or_default())));
            self.report(e, tp.clone(), records, FindingKind::OrderViolated { producer: producer.to_string() }, false);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{ProducerSpec, Scenario, SendPlan, SimOptions, SimTime, TopicSpec};

    impl Monitors {
        /// Over every per-record map: (chunks of `self` shared with `other`, chunks of
        /// `self`, maps compared).
        fn chunks_shared_with(&self, other: &Monitors) -> (usize, usize, usize) {
            let mut sum = (0, 0, 0);
            let mut add = |shared: usize, total: usize| {
                sum.0 += shared;
                sum.1 += total;
                sum.2 += 1;
            };
            for (key, shadow) in self.shadows.iter() {
                let theirs = other.shadows.get(key).cloned().unwrap_or_default();
                add(shadow.shared_chunks(&theirs), shadow.chunk_count());
            }
            for (tp, acked) in self.acked.iter() {
                let theirs = other.acked.get(tp).cloned().unwrap_or_default();
                add(acked.shared_chunks(&theirs), acked.chunk_count());
            }
            for (key, appended) in self.appended.iter() {
                let theirs = other.appended.get(key).cloned().unwrap_or_default();
                add(appended.shared_chunks(&theirs), appended.chunk_count());
            }
            add(self.first_offset.shared_chunks(&other.first_offset), self.first_offset.chunk_count());
            add(self.producer_of.shared_chunks(&other.producer_of), self.producer_of.chunk_count());
            add(self.gone.shared_chunks(&other.gone), self.gone.chunk_count());
            sum
        }
    }

    /// A busy partition's run, with the page's bounds (`SimOptions::default`): 12,000
    /// records at 1 a millisecond, acks=all, retention deleting segments as it goes.
    fn busy() -> Result<crate::Sim, Box<dyn std::error::Error>> {
        let mut b = Scenario::builder();
        b.brokers(3).options(SimOptions::default());
        let t = b.topic(TopicSpec::new("events").partitions(2).replication_factor(3).retention_ms(3_000).segment_ms(1_000));
        let values = (0..12_000).map(|i| format!("v{i}"));
        b.producer(ProducerSpec::new("app").send(SendPlan::values(&t, values).every_ms(1)));
        Ok(b.build()?)
    }

    /// The page's time travel keeps checkpoints of the whole `Sim` a few hundred steps
    /// apart: the monitors' part of one must be shared with the next but for the chunks
    /// written in between, and must not see what the run did after it was taken.
    #[test]
    fn a_checkpoint_of_the_monitors_shares_all_but_the_chunks_written_since_and_sees_none_of_it() -> Result<(), Box<dyn std::error::Error>>
    {
        let mut sim = busy()?;
        sim.run_to(SimTime(9_000));
        let checkpoint = sim.monitors().clone();
        let (shared, total, maps) = checkpoint.chunks_shared_with(sim.monitors());
        assert_eq!(shared, total, "a fresh clone shares every chunk");
        assert!(total > 4 * maps, "the run fills several chunks per map: {total} chunks in {maps} maps");
        sim.run_to(SimTime(9_200));
        let (shared, total, maps) = sim.monitors().chunks_shared_with(&checkpoint);
        // 200 more records per map: a copied last chunk, a new one, a cut first one.
        assert!(total - shared <= 3 * maps, "{} of {total} chunks in {maps} maps not shared", total - shared);
        // The same run stopped at the checkpoint's moment: what the checkpoint holds.
        let mut again = busy()?;
        again.run_to(SimTime(9_000));
        assert_eq!(&checkpoint, again.monitors(), "the checkpoint saw a change made after it");
        assert_ne!(&checkpoint, sim.monitors());
        Ok(())
    }
}
