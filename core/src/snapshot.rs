//! Read-only, owned views of the simulation for the page, the CLI and tests, each built
//! from its borrowed view in the read layer ([`crate::read`]).
//!
//! Which to use:
//!
//! - [`Sim::snapshot`] gives a [`Snapshot`]: a serialisable, owned copy of everything at one
//!   moment (records per log and findings capped, [`RECORDS_SHOWN`], [`FINDINGS_SHOWN`]).
//!   Use it to hand the state to a UI, to keep a moment, or to compare two moments
//!   (`Snapshot` is `PartialEq`). It copies the whole world, so build one per frame, not
//!   per number.
//! - `sim.read()` ([`Sim::read`]) gives borrowed views that copy nothing until asked. Use
//!   it to read a few numbers in code and tests (a high watermark, a member's position, a
//!   group's lag); the snapshot is built from the same views, so both give the same
//!   numbers.

use crate::assign::server::ServerAssignor;
use crate::assign::Strategy;
use crate::cluster::BrokerId;
pub use crate::cluster::LostView;
use crate::config::GroupProtocol;
use crate::config::{Acks, OffsetReset};
use crate::event::Event;
use crate::group::{Activity, CommitMode, Delivery, DuplicateRecord, GroupState, Phase, RebalanceProtocol, Reconcile, UnprocessedRecord};
use crate::monitor::Finding;
use crate::partitioner::PartitionerKind;
use crate::producer::SentRecord;
use crate::read::{BrokerRead, ConnectorRead, GroupRead, MemberRead, PartitionRead, ProducerRead, StreamsRead, TopicRead};
use crate::record::{RecordId, TopicPartition};
use crate::sim::{Flight, Sim};
use crate::time::SimTime;
use serde::{Deserialize, Serialize};

/// The whole simulation at one moment, owned and serialisable: what the page draws a frame
/// from. Built by [`Sim::snapshot`] (see the module's docs for when to use `sim.read()`
/// instead).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Snapshot {
    /// The simulated time of the snapshot.
    pub now: SimTime,
    /// The seed of the run's random number generator (the scenario's `seed`).
    pub seed: u64,
    /// How many queued events the run has applied so far.
    pub steps: u64,
    /// How many events the run has recorded, including those the trace no longer keeps.
    pub events_total: u64,
    /// When the next queued event is due (`None`: nothing is queued).
    pub next_event_at: Option<SimTime>,
    /// Every broker, in id order.
    pub brokers: Vec<BrokerView>,
    /// Every topic with its partitions, in name order.
    pub topics: Vec<TopicView>,
    /// Shared: the page hands this same list to its producers panel (no second copy a frame).
    pub producers: std::rc::Rc<Vec<ProducerView>>,
    /// Every consumer group, in id order.
    pub groups: Vec<GroupView>,
    /// Messages on the wire.
    pub flights: Vec<Flight>,
    /// The guarantee monitors' newest findings, oldest first.
    pub findings: Vec<Finding>,
    /// How many findings in all, and how many broke a promise Kafka makes.
    pub findings_total: u64,
    /// How many findings broke a promise Kafka makes under the settings in force (an
    /// acknowledged record lost with acks=all and no unclean election, say).
    pub promises_broken: u64,
    /// Source connectors: each table, its task and its source offsets.
    #[serde(default)]
    pub connectors: Vec<crate::sim::connect::ConnectorView>,
    /// Kafka Streams applications: operator, stores by task, counters.
    #[serde(default)]
    pub streams: Vec<crate::sim::streams::StreamsView>,
}

/// A topic: its settings and its partitions.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TopicView {
    /// The topic's name.
    pub name: String,
    /// Its topic id (KIP-516), printed as Kafka prints it.
    #[serde(default)]
    pub id: crate::uuid::Uuid,
    /// How many replicas each partition has.
    pub replication_factor: u32,
    /// `min.insync.replicas`: how many in-sync replicas an acks=all write needs.
    pub min_insync_replicas: u32,
    /// `unclean.leader.election.enable`: whether a replica outside the ISR may become
    /// leader (and lose acknowledged records) when no in-sync replica is left.
    pub unclean_leader_election_enable: bool,
    /// Its partitions, by number.
    pub partitions: Vec<PartitionView>,
}

/// One partition: its leader, its ISR, the offsets and newest records of the leader's log,
/// and every replica's copy.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PartitionView {
    /// The partition number.
    pub partition: u32,
    /// `None` while offline.
    pub leader: Option<BrokerId>,
    /// The leader epoch, bumped at each leader election.
    pub leader_epoch: u32,
    /// In assignment order; the first is the preferred leader.
    pub replicas: Vec<BrokerId>,
    /// The in-sync replicas (ISR): those caught up with the leader.
    pub isr: Vec<BrokerId>,
    /// The eligible leader replicas (KIP-966, Kafka 4.1+): out of the ISR but holding
    /// every committed record; the controller elects from them when the ISR is empty.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub elr: Vec<BrokerId>,
    /// The leader's log (the first replica's while offline).
    pub log_start_offset: u64,
    /// The log end offset of that log: the offset its next record gets.
    pub log_end_offset: u64,
    /// The high watermark of that log: records below it are on every in-sync replica and
    /// readable by consumers.
    pub high_watermark: u64,
    /// The last stable offset (LSO) of that log: read_committed consumers read only below it.
    #[serde(default)]
    pub last_stable_offset: u64,
    /// The newest records of that log (at most [`RECORDS_SHOWN`]), oldest first.
    pub records: Vec<RecordView>,
    /// Every replica's copy, in assignment order.
    pub replica_logs: Vec<ReplicaView>,
    /// Records a leader change left behind (the newest [`crate::SimOptions::lost_per_partition`]).
    pub lost: Vec<LostView>,
}

/// One broker's copy of a partition's log.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ReplicaView {
    /// The broker holding the copy.
    pub broker: BrokerId,
    /// Whether that broker is the partition's leader.
    pub is_leader: bool,
    /// Whether that replica is in the ISR.
    pub in_isr: bool,
    /// Whether that replica is an eligible leader replica (KIP-966).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub in_elr: bool,
    /// Its log end offset: the offset its next record gets.
    pub log_end_offset: u64,
    /// The high watermark as this replica knows it (a follower learns the leader's with its
    /// fetches).
    pub high_watermark: u64,
    /// Its newest records (as many as the partition's `records`), oldest first.
    pub records: Vec<RecordView>,
}

/// A broker and what is done to it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BrokerView {
    /// The broker's id (`broker.id`).
    pub id: BrokerId,
    /// Whether its process is running (not crashed).
    pub alive: bool,
    /// Whether it is cut off the network.
    pub isolated: bool,
    /// Whether the controller has fenced it (no heartbeat for `broker.session.timeout.ms`).
    pub fenced: bool,
    /// Stopped by a controlled shutdown rather than a crash (`alive` is false).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub shut_down: bool,
    /// Extra delay of its follower fetches, in ms (0: not slowed).
    pub slow_ms: u64,
    /// The `transactional.id`s it coordinates now: it leads their `__transaction_state`
    /// partitions (issue 17).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub txn_coordinator_for: Vec<String>,
}

/// How many records of each partition a snapshot carries.
pub const RECORDS_SHOWN: usize = 200;

/// A record as a log holds it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RecordView {
    /// The simulation's id of the record: the same on every replica and in the trace.
    pub id: RecordId,
    /// Its offset in the partition.
    pub offset: u64,
    /// Its key (`None`: sent without one).
    pub key: Option<String>,
    /// Its value.
    pub value: String,
    /// Its timestamp: CreateTime (the producer's) or LogAppendTime (the leader's), per the
    /// topic.
    pub timestamp: SimTime,
    /// The name of the producer that sent it.
    pub producer: String,
    /// When the leader appended it.
    pub appended_at: SimTime,
    /// The leader epoch it was appended in.
    pub leader_epoch: u32,
    /// What it is to transactions (issue 17): a record of an open, committed or aborted
    /// transaction, or a COMMIT / ABORT marker; `None` for a plain record.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub txn: Option<crate::txn::TxnMark>,
    /// Whether its value is null (issue 19): on a compacted topic a tombstone, which
    /// deletes its key (`value` is then empty).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub tombstone: bool,
    /// The delete horizon a cleaner pass stamped on its batch (KIP-534): a tombstone goes
    /// on a pass after it. `None` until a pass kept it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub delete_horizon: Option<SimTime>,
}

/// A producer: its settings and what it has sent.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ProducerView {
    /// The producer's name.
    pub name: String,
    /// Its partitioner (`partitioner.class`): the built-in key hash and sticky partition, or
    /// round robin.
    pub partitioner: PartitionerKind,
    /// `linger.ms`: how long a batch waits for more records before it is sent.
    pub linger_ms: u64,
    /// `acks`: how many replicas must have a record before the leader acknowledges it.
    pub acks: Acks,
    /// How many records `send()` has taken so far.
    pub sent_total: u64,
    /// The newest sent records, oldest first.
    pub sent: Vec<SentRecord>,
    /// Records in batches not sent yet: waiting in the accumulator for `linger.ms`,
    /// `batch.size` or a free in-flight slot on their leader's connection.
    pub batched: u32,
    /// Records sent and neither acknowledged nor given up.
    pub pending: u32,
    /// Whether the producer is idempotent (`enable.idempotence`): a retry cannot write a
    /// record twice.
    pub idempotent: bool,
    /// A transactional producer's `TransactionManager` and its coordinator's record (issue 17).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub transaction: Option<TxnProducerView>,
}

/// A transactional producer as the page shows it (issue 17).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TxnProducerView {
    /// Its `transactional.id`.
    pub transactional_id: String,
    /// Where it is (ready, in a transaction, committing, fenced…).
    pub state: crate::txn::ClientTxnState,
    /// Its producer id and epoch, once initialized.
    pub producer_id_and_epoch: Option<crate::record::TxnTag>,
    /// The partitions it sent to in the open transaction.
    pub partitions: Vec<TopicPartition>,
    /// The groups whose offsets it sent in the open transaction.
    pub offset_groups: Vec<String>,
    /// The error that put it in an abortable or fatal state.
    pub last_error: Option<crate::event::TxnError>,
    /// Transactions it committed.
    pub committed: u64,
    /// Transactions it aborted.
    pub aborted: u64,
    /// `transaction.timeout.ms`.
    pub timeout_ms: u64,
    /// The coordinator now (the leader of its `__transaction_state` partition), if reachable.
    pub coordinator: Option<BrokerId>,
    /// The coordinator's state of the id, once it has one.
    pub coordinator_state: Option<crate::txn::TxnState>,
    /// The coordinator's epoch of the id (it may be ahead of this instance's: fenced).
    pub coordinator_epoch: Option<i32>,
    /// The partitions the coordinator has in the transaction (a group's offsets as its group).
    pub coordinator_partitions: Vec<crate::txn::TxnPartition>,
    /// When the open transaction started at the coordinator (its timeout counts from there).
    pub started_at: Option<SimTime>,
}

/// A consumer group, as the coordinator and its members see it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GroupView {
    /// The group's id (`group.id`).
    pub id: String,
    /// The topics it subscribes to.
    pub topics: Vec<String>,
    /// The client-side assignor (`partition.assignment.strategy`, classic protocol).
    pub assignor: Strategy,
    /// `auto.offset.reset`: where a member starts on a partition without a committed offset.
    pub auto_offset_reset: OffsetReset,
    /// The group's state at the coordinator.
    pub state: GroupState,
    /// The generation (classic protocol: 0 at first, the first stable generation is 1) or
    /// the group epoch (KIP-848).
    pub generation: i32,
    /// When the join phase ends at the latest: the initial delay or the rebalance timeout
    /// (`None`: no join phase under way).
    pub rebalance_due: Option<SimTime>,
    /// Whether the pending rebalance is a new group's `group.initial.rebalance.delay.ms`.
    pub initial_rebalance: bool,
    /// When the join phase ends unless another member joins first
    /// ([`crate::read::GroupRead::join_phase_ends`]: the initial delay waited once more
    /// when a member joined during it).
    #[serde(default)]
    pub join_phase_ends: Option<SimTime>,
    /// Client id of the group leader (kept across generations while it stays).
    pub leader: Option<String>,
    /// Eager or cooperative (KIP-429) rebalancing, as the assignor supports (classic
    /// protocol).
    pub protocol: RebalanceProtocol,
    /// The broker coordinating the group (`None` while none is reachable).
    pub coordinator: Option<BrokerId>,
    /// Client ids of the members the coordinator knows, in join order.
    pub registered: Vec<String>,
    /// Rebalances completed (generations reached).
    pub rebalances: u64,
    /// Records processed twice by the group.
    pub duplicates: u64,
    /// Records committed past without being processed.
    pub lost: u64,
    /// Its consumers, in the order they were started.
    pub members: Vec<MemberView>,
    /// The committed offsets: the next offset to read, per partition.
    pub committed: Vec<(TopicPartition, u64)>,
    /// `group.protocol`, and the broker-side assignor it uses under `consumer`.
    pub group_protocol: GroupProtocol,
    /// The broker-side assignor (`group.remote.assignor`), used under `group.protocol=consumer`.
    pub remote_assignor: ServerAssignor,
    /// KIP-848: the epoch of the current target assignment (the group epoch is `generation`).
    pub assignment_epoch: i32,
    /// Time partitions went unconsumed after revocations and crashes, summed.
    pub partition_downtime_ms: u64,
    /// The newest duplicates with their cause, oldest first.
    pub duplicate_details: Vec<DuplicateRecord>,
    /// The first lost records (at most [`LOST_SHOWN`]) with their cause.
    pub unprocessed_details: Vec<UnprocessedRecord>,
    /// `pull` (Kafka) or `push` (not Kafka — a teaching device; label with
    /// [`crate::config::DeliveryMode::label`]), and under push how many buffered records
    /// overwhelm a member.
    #[serde(default)]
    pub delivery: crate::config::DeliveryMode,
    /// Under push: how many buffered records overwhelm a member.
    #[serde(default)]
    pub push_buffer_max_records: u32,
    /// `isolation.level` (issue 17).
    #[serde(default, skip_serializing_if = "crate::config::IsolationLevel::is_read_uncommitted")]
    pub isolation_level: crate::config::IsolationLevel,
}

/// How many lost records a snapshot explains per group.
pub const LOST_SHOWN: usize = 50;

/// One consumer of a group, as it and the coordinator see it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MemberView {
    /// Its client id (`client.id`).
    pub client_id: String,
    /// Its member id, `clientId-UUID` as the coordinator made it (KIP-394).
    pub member_id: String,
    /// Its `group.instance.id` (static membership, KIP-345; `None`: dynamic).
    pub group_instance_id: Option<String>,
    /// What its application is doing: awaiting an assignment, idle, fetching or processing.
    pub activity: Activity,
    /// The partitions assigned to it.
    pub assigned: Vec<TopicPartition>,
    /// Its position on each assigned partition: the next offset it fetches.
    pub positions: Vec<(TopicPartition, u64)>,
    /// How many records `poll()` has returned to it in all.
    pub received_total: u64,
    /// The newest deliveries (at most [`RECEIVED_SHOWN`]), oldest first; the member
    /// remembers more ([`crate::read::MemberRead::received`]).
    pub received: Vec<Delivery>,
    /// Where it is in the group protocol, as it sees it.
    pub phase: Phase,
    /// The generation it last joined (classic protocol: -1 before the first) or its member
    /// epoch (KIP-848).
    pub generation: i32,
    /// Whether its application is stuck: it has stopped calling `poll()`.
    pub paused: bool,
    /// When it commits offsets.
    pub commit_mode: CommitMode,
    /// Time its application spends on each record, in ms (a sandbox setting).
    pub processing_ms: u64,
    /// How many records it finished processing.
    pub processed_total: u64,
    /// Time it could not consume because of rebalances.
    pub rebalance_stopped_ms: u64,
    /// Since when it cannot consume because of a rebalance or crash (a pause under way).
    pub stopped_since: Option<SimTime>,
    /// When the coordinator removes it unless a heartbeat arrives (its session deadline).
    pub session_deadline: Option<SimTime>,
    /// When it leaves the group unless it calls `poll()` (only while outside `poll()`).
    pub poll_deadline: Option<SimTime>,
    /// KIP-848: where the coordinator sees it on the way to its target, and that target.
    pub reconcile: Option<Reconcile>,
    /// KIP-848: its target assignment (empty under the classic protocol).
    pub target: Vec<TopicPartition>,
    /// Records it received and has not processed yet: at most one poll's worth
    /// (`max.poll.records`) under pull; unbounded under push until it is overwhelmed.
    #[serde(default)]
    pub buffered: u32,
}

fn record_views(records: crate::log::Records<'_>, log: Option<crate::read::LogRead<'_>>) -> Vec<RecordView> {
    records
        .iter()
        .map(|r| RecordView {
            txn: log.and_then(|l| l.mark(r)),
            id: r.record.id,
            offset: r.offset,
            key: r.record.key.as_ref().map(|k| k.to_string()),
            value: r.record.value.to_string(),
            timestamp: r.timestamp,
            producer: r.record.producer.to_string(),
            appended_at: r.appended_at,
            leader_epoch: r.leader_epoch,
            tombstone: r.record.tombstone,
            delete_horizon: r.delete_horizon,
        })
        .collect()
}

/// How many of each member's newest deliveries a snapshot carries (the page shows 60). The
/// member keeps up to [`crate::SimOptions::received_per_member`] (1,000): copying them all
/// was 42 % of a snapshot on issue 20's long run.
pub const RECEIVED_SHOWN: usize = 100;

/// How many of the newest monitor findings a snapshot carries.
pub const FINDINGS_SHOWN: usize = 100;

impl BrokerView {
    /// The broker as the read layer shows it.
    pub fn of(b: BrokerRead<'_>) -> Self {
        BrokerView {
            id: b.id(),
            alive: b.alive(),
            isolated: b.isolated(),
            fenced: b.fenced(),
            shut_down: b.shut_down(),
            slow_ms: b.slow_ms(),
            txn_coordinator_for: b.txn_coordinator_for(),
        }
    }
}

impl TopicView {
    /// The topic with at most `records_shown` records per log.
    pub fn of(t: TopicRead<'_>, records_shown: usize) -> Self {
        TopicView {
            name: t.name().to_string(),
            id: t.id(),
            replication_factor: t.replication_factor(),
            min_insync_replicas: t.min_insync_replicas(),
            unclean_leader_election_enable: t.unclean_leader_election_enable(),
            partitions: t.partitions().map(|p| PartitionView::of(p, records_shown)).collect(),
        }
    }
}

impl PartitionView {
    /// The partition with at most `records_shown` records per log.
    pub fn of(p: PartitionRead<'_>, records_shown: usize) -> Self {
        PartitionView {
            partition: p.index(),
            leader: p.leader(),
            leader_epoch: p.leader_epoch(),
            replicas: p.replicas().to_vec(),
            isr: p.isr().to_vec(),
            elr: p.elr().to_vec(),
            log_start_offset: p.log_start_offset(),
            log_end_offset: p.log_end_offset(),
            high_watermark: p.high_watermark(),
            last_stable_offset: p.log().map_or(0, |l| l.last_stable_offset()),
            records: record_views(p.newest_records(records_shown), p.log()),
            replica_logs: p
                .replica_logs()
                .map(|r| ReplicaView {
                    broker: r.broker,
                    is_leader: r.is_leader,
                    in_isr: r.in_isr,
                    in_elr: r.in_elr,
                    log_end_offset: r.log_end_offset(),
                    high_watermark: r.high_watermark(),
                    records: record_views(r.newest_records(records_shown), Some(r.log())),
                })
                .collect(),
            lost: p.lost().cloned().collect(),
        }
    }
}

impl ProducerView {
    /// The producer as the read layer shows it, with the newest sends it remembers.
    pub fn of(p: ProducerRead<'_>) -> Self {
        ProducerView {
            name: p.name().to_string(),
            partitioner: p.partitioner(),
            linger_ms: p.linger_ms(),
            acks: p.acks(),
            sent_total: p.sent_total(),
            sent: p.sent().cloned().collect(),
            batched: p.batched(),
            pending: p.pending(),
            idempotent: p.idempotent(),
            transaction: p.transaction().map(|t| {
                let coordinator = p.transaction_record();
                TxnProducerView {
                    transactional_id: t.transactional_id().to_string(),
                    state: t.state(),
                    producer_id_and_epoch: t.producer_id_and_epoch(),
                    partitions: t.partitions().cloned().collect(),
                    offset_groups: t.offset_groups().map(str::to_string).collect(),
                    last_error: t.last_error(),
                    committed: t.committed(),
                    aborted: t.aborted(),
                    timeout_ms: p.config().transaction_timeout_ms,
                    coordinator: p.txn_coordinator(),
                    coordinator_state: coordinator.map(|c| c.state()),
                    coordinator_epoch: coordinator.map(|c| c.epoch()),
                    coordinator_partitions: coordinator.map(|c| c.partitions().cloned().collect()).unwrap_or_default(),
                    started_at: coordinator.and_then(|c| c.started_at()),
                }
            }),
        }
    }
}

impl GroupView {
    /// The group as the read layer shows it, with the first [`LOST_SHOWN`] lost records.
    pub fn of(g: GroupRead<'_>) -> Self {
        GroupView {
            id: g.id().to_string(),
            topics: g.topics().to_vec(),
            assignor: g.assignor(),
            auto_offset_reset: g.auto_offset_reset(),
            state: g.state(),
            generation: g.generation(),
            rebalance_due: g.rebalance_due(),
            initial_rebalance: g.initial_rebalance(),
            join_phase_ends: g.join_phase_ends(),
            leader: g.leader().map(str::to_string),
            protocol: g.protocol(),
            coordinator: g.coordinator(),
            registered: g.registered().map(str::to_string).collect(),
            rebalances: g.rebalances(),
            duplicates: g.duplicates(),
            lost: g.unprocessed(),
            members: g.members().map(MemberView::of).collect(),
            committed: g.committed_offsets().map(|(tp, o)| (tp.clone(), o)).collect(),
            group_protocol: g.group_protocol(),
            remote_assignor: g.remote_assignor(),
            assignment_epoch: g.assignment_epoch(),
            partition_downtime_ms: g.partition_downtime_ms(),
            duplicate_details: g.duplicate_details().cloned().collect(),
            unprocessed_details: g.unprocessed_details(LOST_SHOWN),
            delivery: g.delivery(),
            push_buffer_max_records: g.push_buffer_max_records(),
            isolation_level: g.isolation_level(),
        }
    }
}

impl MemberView {
    /// The member as the read layer shows it.
    pub fn of(m: MemberRead<'_>) -> Self {
        MemberView {
            client_id: m.client_id().to_string(),
            member_id: m.member_id().to_string(),
            group_instance_id: m.group_instance_id().map(str::to_string),
            activity: m.activity(),
            assigned: m.assigned().to_vec(),
            positions: m.positions().map(|(tp, o)| (tp.clone(), o)).collect(),
            received_total: m.received_total(),
            received: {
                let n = m.received().len();
                m.received().skip(n.saturating_sub(RECEIVED_SHOWN)).cloned().collect()
            },
            phase: m.phase(),
            generation: m.generation(),
            paused: m.paused(),
            commit_mode: m.commit_mode(),
            processing_ms: m.processing_ms(),
            processed_total: m.processed_total(),
            rebalance_stopped_ms: m.rebalance_stopped_ms(),
            stopped_since: m.stopped_since(),
            session_deadline: m.session_deadline(),
            poll_deadline: m.poll_deadline(),
            reconcile: m.reconcile(),
            target: m.target().to_vec(),
            buffered: m.buffered(),
        }
    }
}

impl Sim {
    /// An owned picture of the whole world now.
    pub fn snapshot(&self) -> Snapshot {
        self.snapshot_with(RECORDS_SHOWN)
    }

    /// The same, with at most `records_shown` records per log (a large cluster's page
    /// draws fewer per partition). Built from the read layer ([`crate::read`]).
    pub fn snapshot_with(&self, records_shown: usize) -> Snapshot {
        let records_shown = records_shown.min(RECORDS_SHOWN);
        let read = self.read();
        Snapshot {
            now: read.now(),
            seed: read.seed(),
            steps: read.steps(),
            events_total: read.events_total(),
            next_event_at: read.next_event_at(),
            brokers: read.brokers().map(BrokerView::of).collect(),
            topics: read.topics().map(|t| TopicView::of(t, records_shown)).collect(),
            producers: std::rc::Rc::new(read.producers().map(ProducerView::of).collect()),
            groups: read.groups().map(GroupView::of).collect(),
            flights: read.in_flight(),
            findings: {
                let all = read.findings();
                all[all.len().saturating_sub(FINDINGS_SHOWN)..].to_vec()
            },
            findings_total: read.findings_total(),
            promises_broken: read.promises_broken(),
            connectors: read.connectors().map(ConnectorRead::view).collect(),
            streams: read.streams_apps().map(StreamsRead::view).collect(),
        }
    }

    /// The newest `n` events, oldest first.
    pub fn recent_events(&self, n: usize) -> Vec<Event> {
        let events: Vec<&Event> = self.trace().events().rev().take(n).collect();
        events.into_iter().rev().cloned().collect()
    }
}
