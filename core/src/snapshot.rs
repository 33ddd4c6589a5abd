//! Read-only, owned views of the simulation for the page, the CLI and tests.

use crate::assign::server::ServerAssignor;
use crate::assign::Strategy;
use crate::cluster::BrokerId;
pub use crate::cluster::{LostView, LOST_KEPT};
use crate::config::GroupProtocol;
use crate::config::{Acks, OffsetReset};
use crate::event::Event;
use crate::group::{Activity, CommitMode, Delivery, DuplicateRecord, GroupState, LostRecord, Phase, RebalanceProtocol, Reconcile};
use crate::log::PartitionLog;
use crate::monitor::Finding;
use crate::partitioner::PartitionerKind;
use crate::producer::SentRecord;
use crate::record::{RecordId, TopicPartition};
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
    pub producers: Vec<ProducerView>,
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

fn record_views(log: &PartitionLog, shown: usize) -> Vec<RecordView> {
    let recs = log.records();
    let from = recs.len().saturating_sub(shown);
    recs[from..]
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

impl Sim {
    /// An owned picture of the whole world now.
    pub fn snapshot(&self) -> Snapshot {
        self.snapshot_with(RECORDS_SHOWN)
    }

    /// The same, with at most `records_shown` records per log (a large cluster's page
    /// draws fewer per partition).
    pub fn snapshot_with(&self, records_shown: usize) -> Snapshot {
        let records_shown = records_shown.min(RECORDS_SHOWN);
        Snapshot {
            now: self.now(),
            seed: self.seed(),
            steps: self.steps(),
            events_total: self.trace().total(),
            next_event_at: self.next_event_time(),
            brokers: self
                .brokers()
                .map(|b| BrokerView { id: b.id, alive: b.alive, isolated: b.isolated, fenced: b.fenced, slow_ms: b.slow_ms })
                .collect(),
            topics: self
                .topics()
                .map(|t| TopicView {
                    name: t.name.clone(),
                    replication_factor: t.replication_factor(),
                    min_insync_replicas: t.config.min_insync_replicas,
                    unclean_leader_election_enable: t.config.unclean_leader_election_enable,
                    partitions: t
                        .partitions
                        .iter()
                        .enumerate()
                        .map(|(i, part)| {
                            let empty = PartitionLog::default();
                            let log = part.display_log().unwrap_or(&empty);
                            let tp = TopicPartition::new(t.name.clone(), i as u32);
                            PartitionView {
                                partition: i as u32,
                                leader: part.leader,
                                leader_epoch: part.leader_epoch,
                                replicas: part.replicas.clone(),
                                isr: part.isr.clone(),
                                log_start_offset: log.log_start_offset(),
                                log_end_offset: log.log_end_offset(),
                                high_watermark: log.high_watermark(),
                                records: record_views(log, records_shown),
                                replica_logs: part
                                    .replicas
                                    .iter()
                                    .filter_map(|b| {
                                        let l = part.logs.get(b)?;
                                        Some(ReplicaView {
                                            broker: *b,
                                            is_leader: part.leader == Some(*b),
                                            in_isr: part.isr.contains(b),
                                            log_end_offset: l.log_end_offset(),
                                            high_watermark: l.high_watermark(),
                                            records: record_views(l, records_shown),
                                        })
                                    })
                                    .collect(),
                                lost: self.lost_records(&tp).cloned().collect(),
                            }
                        })
                        .collect(),
                })
                .collect(),
            producers: self
                .producers()
                .map(|p| ProducerView {
                    name: p.name.clone(),
                    partitioner: p.config.partitioner,
                    linger_ms: p.config.linger_ms,
                    acks: p.config.acks,
                    sent_total: p.sent_total,
                    sent: p.sent.iter().cloned().collect(),
                    batched: p.batched_records(),
                    pending: p.pending_records(),
                    idempotent: p.config.idempotent(),
                })
                .collect(),
            groups: self
                .groups()
                .map(|g| GroupView {
                    id: g.id.clone(),
                    topics: g.topics.clone(),
                    assignor: g.config.assignor,
                    auto_offset_reset: g.config.auto_offset_reset,
                    state: g.state,
                    generation: g.generation,
                    rebalance_due: g.rebalance_due,
                    initial_rebalance: g.initial_delay_since.is_some(),
                    leader: g.leader.as_ref().and_then(|l| g.registered(l)).map(|r| r.client_id.clone()),
                    protocol: g.protocol,
                    coordinator: self.coordinator_of(&g.id),
                    registered: g.registry.iter().map(|r| r.client_id.clone()).collect(),
                    rebalances: g.rebalances,
                    duplicates: g.duplicates,
                    lost: g.lost_records(),
                    members: g
                        .members
                        .iter()
                        .map(|m| MemberView {
                            client_id: m.client_id.clone(),
                            member_id: m.member_id.clone(),
                            group_instance_id: m.group_instance_id.clone(),
                            activity: m.activity,
                            assigned: m.assigned.clone(),
                            positions: m.positions.iter().map(|(tp, o)| (tp.clone(), *o)).collect(),
                            received_total: m.received_total(),
                            received: m.received().cloned().collect(),
                            phase: m.phase,
                            generation: m.generation,
                            paused: m.paused,
                            commit_mode: m.config.commit_mode,
                            processing_ms: m.config.processing_ms,
                            processed_total: m.processed_total,
                            rebalance_pause_ms: m.rebalance_pause_ms,
                            paused_since: m.paused_since,
                            session_deadline: g
                                .registry
                                .iter()
                                .find(|r| r.client_id == m.client_id && r.member_id == m.member_id)
                                .map(|r| r.session_deadline),
                            poll_deadline: (m.phase != Phase::Crashed && (m.paused || !m.processing.is_empty()))
                                .then(|| m.last_poll.plus_ms(m.config.max_poll_interval_ms)),
                            reconcile: g
                                .consumer_protocol()
                                .then(|| g.registry.iter().find(|r| r.member_id == m.member_id).map(|r| r.cg.state))
                                .flatten(),
                            target: g.target.get(&m.member_id).cloned().unwrap_or_default(),
                            buffered: m.processing.len() as u32,
                        })
                        .collect(),
                    committed: g.committed.iter().map(|(tp, o)| (tp.clone(), *o)).collect(),
                    group_protocol: g.config.group_protocol,
                    remote_assignor: g.config.remote_assignor,
                    assignment_epoch: g.assignment_epoch,
                    partition_downtime_ms: g.partition_downtime_ms,
                    duplicate_details: g.duplicate_details().cloned().collect(),
                    lost_details: g.lost_details(LOST_SHOWN),
                    delivery: g.config.delivery,
                    push_buffer_max_records: g.config.push_buffer_max_records,
                })
                .collect(),
            flights: self.in_flight(),
            findings: {
                let all = self.monitors().findings();
                all[all.len().saturating_sub(FINDINGS_SHOWN)..].to_vec()
            },
            findings_total: self.monitors().total(),
            promises_broken: self.monitors().promised_total(),
            connectors: self.connectors().map(crate::sim::connect::Connector::view).collect(),
            streams: self.streams().map(crate::sim::streams::StreamsApp::view).collect(),
        }
    }

    /// The newest `n` events, oldest first.
    pub fn recent_events(&self, n: usize) -> Vec<Event> {
        let events: Vec<&Event> = self.trace().events().rev().take(n).collect();
        events.into_iter().rev().cloned().collect()
    }
}
