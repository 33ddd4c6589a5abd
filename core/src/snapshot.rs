//! Read-only, owned views of the simulation for the page, the CLI and tests, each built
//! from its borrowed view in the read layer ([`crate::read`]).

use crate::assign::server::ServerAssignor;
use crate::assign::Strategy;
use crate::cluster::BrokerId;
pub use crate::cluster::{LostView, LOST_KEPT};
use crate::config::GroupProtocol;
use crate::config::{Acks, OffsetReset};
use crate::event::Event;
use crate::group::{Activity, CommitMode, Delivery, DuplicateRecord, GroupState, LostRecord, Phase, RebalanceProtocol, Reconcile};
use crate::monitor::Finding;
use crate::partitioner::PartitionerKind;
use crate::producer::SentRecord;
use crate::read::{BrokerRead, ConnectorRead, GroupRead, MemberRead, PartitionRead, ProducerRead, StreamsRead, TopicRead};
use crate::record::{RecordId, StoredRecord, TopicPartition};
use crate::sim::{Flight, Sim};
use crate::time::SimTime;
use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Snapshot {
    pub now: SimTime,
    pub seed: u64,
    pub steps: u64,
    pub events_total: u64,
    pub next_event_at: Option<SimTime>,
    pub brokers: Vec<BrokerView>,
    pub topics: Vec<TopicView>,
    /// Shared: the page hands this same list to its producers panel (no second copy a frame).
    pub producers: std::rc::Rc<Vec<ProducerView>>,
    pub groups: Vec<GroupView>,
    /// Messages on the wire.
    pub flights: Vec<Flight>,
    /// The guarantee monitors' newest findings, oldest first.
    pub findings: Vec<Finding>,
    /// How many findings in all, and how many broke a promise Kafka makes.
    pub findings_total: u64,
    pub promises_broken: u64,
    /// Source connectors: each table, its task and its source offsets.
    #[serde(default)]
    pub connectors: Vec<crate::sim::connect::ConnectorView>,
    /// Kafka Streams applications: operator, stores by task, counters.
    #[serde(default)]
    pub streams: Vec<crate::sim::streams::StreamsView>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TopicView {
    pub name: String,
    pub replication_factor: u32,
    pub min_insync_replicas: u32,
    pub unclean_leader_election_enable: bool,
    pub partitions: Vec<PartitionView>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PartitionView {
    pub partition: u32,
    /// `None` while offline.
    pub leader: Option<BrokerId>,
    pub leader_epoch: u32,
    /// In assignment order; the first is the preferred leader.
    pub replicas: Vec<BrokerId>,
    pub isr: Vec<BrokerId>,
    /// The leader's log (the first replica's while offline).
    pub log_start_offset: u64,
    pub log_end_offset: u64,
    pub high_watermark: u64,
    /// The newest records of that log (at most [`RECORDS_SHOWN`]), oldest first.
    pub records: Vec<RecordView>,
    /// Every replica's copy, in assignment order.
    pub replica_logs: Vec<ReplicaView>,
    /// Records a leader change left behind (the newest [`LOST_KEPT`]).
    pub lost: Vec<LostView>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ReplicaView {
    pub broker: BrokerId,
    pub is_leader: bool,
    pub in_isr: bool,
    pub log_end_offset: u64,
    pub high_watermark: u64,
    pub records: Vec<RecordView>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BrokerView {
    pub id: BrokerId,
    pub alive: bool,
    pub isolated: bool,
    pub fenced: bool,
    pub slow_ms: u64,
}

/// How many records of each partition a snapshot carries.
pub const RECORDS_SHOWN: usize = 200;

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RecordView {
    pub id: RecordId,
    pub offset: u64,
    pub key: Option<String>,
    pub value: String,
    pub timestamp: SimTime,
    pub producer: String,
    pub appended_at: SimTime,
    pub leader_epoch: u32,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ProducerView {
    pub name: String,
    pub partitioner: PartitionerKind,
    pub linger_ms: u64,
    pub acks: Acks,
    pub sent_total: u64,
    /// The newest sent records, oldest first.
    pub sent: Vec<SentRecord>,
    /// Records in batches not sent yet: waiting in the accumulator for `linger.ms`,
    /// `batch.size` or a free in-flight slot on their leader's connection.
    pub batched: u32,
    /// Records sent and neither acknowledged nor given up.
    pub pending: u32,
    pub idempotent: bool,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GroupView {
    pub id: String,
    pub topics: Vec<String>,
    pub assignor: Strategy,
    pub auto_offset_reset: OffsetReset,
    pub state: GroupState,
    pub generation: i32,
    pub rebalance_due: Option<SimTime>,
    /// Whether the pending rebalance is a new group's `group.initial.rebalance.delay.ms`.
    pub initial_rebalance: bool,
    /// Client id of the group leader (kept across generations while it stays).
    pub leader: Option<String>,
    pub protocol: RebalanceProtocol,
    /// The broker coordinating the group (`None` while none is reachable).
    pub coordinator: Option<BrokerId>,
    /// Client ids of the members the coordinator knows, in join order.
    pub registered: Vec<String>,
    pub rebalances: u64,
    /// Records processed twice by the group.
    pub duplicates: u64,
    /// Records committed past without being processed.
    pub lost: u64,
    pub members: Vec<MemberView>,
    pub committed: Vec<(TopicPartition, u64)>,
    /// `group.protocol`, and the broker-side assignor it uses under `consumer`.
    pub group_protocol: GroupProtocol,
    pub remote_assignor: ServerAssignor,
    /// KIP-848: the epoch of the current target assignment (the group epoch is `generation`).
    pub assignment_epoch: i32,
    /// Time partitions went unconsumed after revocations and crashes, summed.
    pub partition_downtime_ms: u64,
    /// The newest duplicates with their cause, oldest first.
    pub duplicate_details: Vec<DuplicateRecord>,
    /// The first lost records (at most [`LOST_SHOWN`]) with their cause.
    pub lost_details: Vec<LostRecord>,
    /// `pull` (Kafka) or `push` (not Kafka — a teaching device; label with
    /// [`crate::config::DeliveryMode::label`]), and under push how many buffered records
    /// overwhelm a member.
    #[serde(default)]
    pub delivery: crate::config::DeliveryMode,
    #[serde(default)]
    pub push_buffer_max_records: u32,
}

/// How many lost records a snapshot explains per group.
pub const LOST_SHOWN: usize = 50;

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MemberView {
    pub client_id: String,
    pub member_id: String,
    pub group_instance_id: Option<String>,
    pub activity: Activity,
    pub assigned: Vec<TopicPartition>,
    pub positions: Vec<(TopicPartition, u64)>,
    pub received_total: u64,
    /// The newest deliveries, oldest first.
    pub received: Vec<Delivery>,
    pub phase: Phase,
    pub generation: i32,
    pub paused: bool,
    pub commit_mode: CommitMode,
    pub processing_ms: u64,
    pub processed_total: u64,
    /// Time it could not consume because of rebalances.
    pub rebalance_pause_ms: u64,
    /// Since when it cannot consume because of a rebalance or crash (a pause under way).
    pub paused_since: Option<SimTime>,
    /// When the coordinator removes it unless a heartbeat arrives (its session deadline).
    pub session_deadline: Option<SimTime>,
    /// When it leaves the group unless it calls `poll()` (only while outside `poll()`).
    pub poll_deadline: Option<SimTime>,
    /// KIP-848: where the coordinator sees it on the way to its target, and that target.
    pub reconcile: Option<Reconcile>,
    pub target: Vec<TopicPartition>,
    /// Records it received and has not processed yet: at most one poll's worth
    /// (`max.poll.records`) under pull; unbounded under push until it is overwhelmed.
    #[serde(default)]
    pub buffered: u32,
}

fn record_views(records: &[StoredRecord]) -> Vec<RecordView> {
    records
        .iter()
        .map(|r| RecordView {
            id: r.record.id,
            offset: r.offset,
            key: r.record.key.clone(),
            value: r.record.value.clone(),
            timestamp: r.timestamp,
            producer: r.record.producer.clone(),
            appended_at: r.appended_at,
            leader_epoch: r.leader_epoch,
        })
        .collect()
}

/// How many of the newest monitor findings a snapshot carries.
pub const FINDINGS_SHOWN: usize = 100;

impl BrokerView {
    pub fn of(b: BrokerRead<'_>) -> Self {
        BrokerView { id: b.id(), alive: b.alive(), isolated: b.isolated(), fenced: b.fenced(), slow_ms: b.slow_ms() }
    }
}

impl TopicView {
    /// The topic with at most `records_shown` records per log.
    pub fn of(t: TopicRead<'_>, records_shown: usize) -> Self {
        TopicView {
            name: t.name().to_string(),
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
            log_start_offset: p.log_start_offset(),
            log_end_offset: p.log_end_offset(),
            high_watermark: p.high_watermark(),
            records: record_views(p.newest_records(records_shown)),
            replica_logs: p
                .replica_logs()
                .map(|r| ReplicaView {
                    broker: r.broker,
                    is_leader: r.is_leader,
                    in_isr: r.in_isr,
                    log_end_offset: r.log_end_offset(),
                    high_watermark: r.high_watermark(),
                    records: record_views(r.newest_records(records_shown)),
                })
                .collect(),
            lost: p.lost().cloned().collect(),
        }
    }
}

impl ProducerView {
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
        }
    }
}

impl GroupView {
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
            leader: g.leader().map(str::to_string),
            protocol: g.protocol(),
            coordinator: g.coordinator(),
            registered: g.registered().map(str::to_string).collect(),
            rebalances: g.rebalances(),
            duplicates: g.duplicates(),
            lost: g.lost(),
            members: g.members().map(MemberView::of).collect(),
            committed: g.committed_offsets().map(|(tp, o)| (tp.clone(), o)).collect(),
            group_protocol: g.group_protocol(),
            remote_assignor: g.remote_assignor(),
            assignment_epoch: g.assignment_epoch(),
            partition_downtime_ms: g.partition_downtime_ms(),
            duplicate_details: g.duplicate_details().cloned().collect(),
            lost_details: g.lost_details(LOST_SHOWN),
            delivery: g.delivery(),
            push_buffer_max_records: g.push_buffer_max_records(),
        }
    }
}

impl MemberView {
    pub fn of(m: MemberRead<'_>) -> Self {
        MemberView {
            client_id: m.client_id().to_string(),
            member_id: m.member_id().to_string(),
            group_instance_id: m.group_instance_id().map(str::to_string),
            activity: m.activity(),
            assigned: m.assigned().to_vec(),
            positions: m.positions().map(|(tp, o)| (tp.clone(), o)).collect(),
            received_total: m.received_total(),
            received: m.received().cloned().collect(),
            phase: m.phase(),
            generation: m.generation(),
            paused: m.paused(),
            commit_mode: m.commit_mode(),
            processing_ms: m.processing_ms(),
            processed_total: m.processed_total(),
            rebalance_pause_ms: m.rebalance_pause_ms(),
            paused_since: m.paused_since(),
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
