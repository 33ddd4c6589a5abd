//! The read side of share groups (KIP-932): borrowed views of a share group, its members and
//! its share partitions (`sim.share_group(id)`), and the owned view the page and the
//! snapshot carry (`ShareGroupView`).

use crate::config::KafkaVersion;
use crate::record::TopicPartition;
use crate::share_group::{AcknowledgementMode, ShareDelivery, ShareGroup, ShareMember, SharePartition};
pub use crate::share_group::{RecordState, SharePhase};
use crate::sim::Sim;
use crate::time::SimTime;
use serde::{Deserialize, Serialize};

impl Sim {
    /// Share group `id` (`group.type` share), if there is one; see [`ShareGroupRead`].
    pub fn share_group(&self, id: &str) -> Option<ShareGroupRead<'_>> {
        self.consumers.shares.group(id).map(|group| ShareGroupRead { sim: self, group })
    }

    /// Every share group, in id order.
    pub fn share_groups(&self) -> impl Iterator<Item = ShareGroupRead<'_>> {
        self.consumers.shares.groups.values().map(move |group| ShareGroupRead { sim: self, group })
    }
}

/// A share group as its coordinator, its members and its partitions' leaders hold it.
#[derive(Clone, Copy)]
pub struct ShareGroupRead<'a> {
    sim: &'a Sim,
    group: &'a ShareGroup,
}

impl<'a> ShareGroupRead<'a> {
    /// Its `group.id`.
    pub fn id(&self) -> &'a str {
        &self.group.id
    }

    /// The topics its members subscribe to.
    pub fn topics(&self) -> &'a [String] {
        &self.group.topics
    }

    /// The group epoch.
    pub fn group_epoch(&self) -> i32 {
        self.group.group_epoch
    }

    /// Its settings.
    pub fn config(&self) -> &'a crate::command::ShareGroupConfig {
        &self.group.config
    }

    /// Its consumers, in the order they started.
    pub fn members(&self) -> impl Iterator<Item = ShareMemberRead<'a>> + 'a {
        self.group.members.iter().map(|member| ShareMemberRead { member })
    }

    /// The consumer with this `client.id`.
    pub fn member(&self, client_id: &str) -> Option<ShareMemberRead<'a>> {
        self.group.member(client_id).map(|member| ShareMemberRead { member })
    }

    /// The client ids the coordinator still knows (members that left or crashed included,
    /// until it removes them).
    pub fn registered(&self) -> impl Iterator<Item = &'a str> + 'a {
        self.group.registry.iter().map(|r| r.client_id.as_str())
    }

    /// How many members the coordinator knows.
    pub fn coordinator_members(&self) -> usize {
        self.group.registry.len()
    }

    /// The running members assigned `tp`, by `client.id`: several may share a partition.
    pub fn owners(&self, tp: &TopicPartition) -> Vec<&'a str> {
        self.group
            .members
            .iter()
            .filter(|m| m.phase == SharePhase::Stable && m.assigned.contains(tp))
            .map(|m| m.client_id.as_str())
            .collect()
    }

    /// The share partition `tp` at its leader, once a ShareFetch has initialized it.
    pub fn partition(&self, tp: &TopicPartition) -> Option<SharePartitionRead<'a>> {
        let group = self.group;
        group.partitions.get(tp).map(|partition| SharePartitionRead { group, partition })
    }

    /// Every initialized share partition.
    pub fn partitions(&self) -> impl Iterator<Item = (&'a TopicPartition, SharePartitionRead<'a>)> + 'a {
        let group = self.group;
        group.partitions.iter().map(move |(tp, partition)| (tp, SharePartitionRead { group, partition }))
    }

    /// The share partition's lag (Kafka 4.2, KIP-1226): the leader's HW − SPSO − the
    /// acknowledged and archived records in flight. `None` before 4.2 (not reported) or
    /// before the share partition exists.
    pub fn lag(&self, tp: &TopicPartition) -> Option<u64> {
        if self.sim.cluster().kafka_version < KafkaVersion::V4_2 {
            return None;
        }
        let hw = self.sim.partition_state(tp).and_then(|p| p.leader.and_then(|l| p.logs.get(&l))).map(|l| l.high_watermark())?;
        self.group.partitions.get(tp).map(|sp| sp.lag(hw))
    }

    /// Records acquired by ShareFetches (every delivery, redeliveries included).
    pub fn delivered(&self) -> u64 {
        self.group.delivered
    }

    /// Deliveries with a delivery count above 1.
    pub fn redelivered(&self) -> u64 {
        self.group.redelivered
    }

    /// Records acknowledged with ACCEPT.
    pub fn acknowledged(&self) -> u64 {
        self.group.acknowledged
    }

    /// Records archived (rejected, or at the delivery limit).
    pub fn archived(&self) -> u64 {
        self.group.archived
    }

    /// Records whose acquisition lock ran out.
    pub fn lock_expiries(&self) -> u64 {
        self.group.lock_expiries
    }

    /// Records processed (and accepted) more than once: at-least-once.
    pub fn processed_again(&self) -> u64 {
        self.group.processed_again
    }
}

/// A share consumer.
#[derive(Clone, Copy)]
pub struct ShareMemberRead<'a> {
    member: &'a ShareMember,
}

impl<'a> ShareMemberRead<'a> {
    /// Its `client.id`.
    pub fn client_id(&self) -> &'a str {
        &self.member.client_id
    }

    /// Its member id.
    pub fn member_id(&self) -> &'a str {
        &self.member.member_id
    }

    /// Its member epoch (0 before its first answer).
    pub fn member_epoch(&self) -> i32 {
        self.member.member_epoch
    }

    /// Where it is.
    pub fn phase(&self) -> SharePhase {
        self.member.phase
    }

    /// Its partitions.
    pub fn assigned(&self) -> &'a [TopicPartition] {
        &self.member.assigned
    }

    /// Its `share.acknowledgement.mode`.
    pub fn acknowledgement_mode(&self) -> AcknowledgementMode {
        self.member.config.share_acknowledgement_mode
    }

    /// Its time per record (sandbox only).
    pub fn processing_ms(&self) -> u64 {
        self.member.config.processing_ms
    }

    /// What `poll()` handed it, oldest first (the newest kept): the order it received records.
    pub fn received(&self) -> impl Iterator<Item = &'a ShareDelivery> + 'a {
        self.member.received.iter()
    }

    /// Every record `poll()` handed it, the whole run.
    pub fn received_total(&self) -> u64 {
        self.member.received_total
    }

    /// Records it finished processing.
    pub fn processed_total(&self) -> u64 {
        self.member.processed_total
    }

    /// Records returned by `poll()` not processed yet.
    pub fn in_hand(&self) -> impl Iterator<Item = &'a ShareDelivery> + 'a {
        self.member.in_hand.iter()
    }

    /// Its acknowledge rules: record value → type (applied in explicit mode).
    pub fn rules(&self) -> &'a [crate::command::AcknowledgeRule] {
        &self.member.rules
    }
}

/// A share partition at its leader: the window and each in-flight record.
#[derive(Clone, Copy)]
pub struct SharePartitionRead<'a> {
    group: &'a ShareGroup,
    partition: &'a SharePartition,
}

/// One in-flight record of a share partition.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct InFlightView {
    /// Its offset.
    pub offset: u64,
    /// Its state.
    pub state: RecordState,
    /// How many times it was delivered.
    pub delivery_count: u32,
    /// The `client.id` holding it while ACQUIRED.
    pub owner: Option<String>,
    /// When its lock expires while ACQUIRED.
    pub lock_until: Option<SimTime>,
}

impl<'a> SharePartitionRead<'a> {
    /// SPSO: every offset below it is done with.
    pub fn start_offset(&self) -> u64 {
        self.partition.start
    }

    /// SPEO (`endOffset`): the last offset in flight, or SPSO when none is.
    pub fn end_offset(&self) -> u64 {
        self.partition.end_offset()
    }

    /// Records in flight (SPEO − SPSO + 1, 0 when none).
    pub fn in_flight(&self) -> u64 {
        self.partition.in_flight()
    }

    /// Records ACQUIRED now.
    pub fn acquired(&self) -> u64 {
        self.partition.acquired()
    }

    /// A record's state and delivery count; `None` below SPSO.
    pub fn state_of(&self, offset: u64) -> Option<(RecordState, u32)> {
        self.partition.state_of(offset)
    }

    /// The in-flight records in offset order.
    pub fn records(&self) -> Vec<InFlightView> {
        self.partition
            .records()
            .map(|(offset, r)| InFlightView {
                offset,
                state: r.state,
                delivery_count: r.delivery_count,
                owner: r.owner.as_deref().and_then(|o| self.group.client_of(o)).map(str::to_string),
                lock_until: r.lock_until,
            })
            .collect()
    }

    /// How many state writes went to `__share_group_state` for it.
    pub fn state_writes(&self) -> u64 {
        self.partition.persisted.writes
    }
}

/// A share group as the page draws it (owned; built by [`views`]).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ShareGroupView {
    /// `group.id`.
    pub id: String,
    /// The group epoch.
    pub group_epoch: i32,
    /// Each partition's wanted sharing: ceil(members / partitions).
    pub desired_sharing: u32,
    /// `share_record_lock_duration_ms`.
    pub lock_ms: u64,
    /// `share_delivery_count_limit`.
    pub delivery_limit: u32,
    /// The consumers, in start order.
    pub members: Vec<ShareMemberView>,
    /// Every partition of the group's topics, initialized or not.
    pub partitions: Vec<SharePartitionView>,
    /// Counters (see [`ShareGroupRead`]).
    pub delivered: u64,
    /// Deliveries with a count above 1.
    pub redelivered: u64,
    /// Records accepted.
    pub acknowledged: u64,
    /// Records archived.
    pub archived: u64,
    /// Records processed again (at-least-once).
    pub processed_again: u64,
}

/// A share consumer as the page draws it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ShareMemberView {
    /// `client.id`.
    pub client_id: String,
    /// Where it is.
    pub phase: SharePhase,
    /// Its member epoch.
    pub member_epoch: i32,
    /// Its partitions.
    pub assigned: Vec<TopicPartition>,
    /// Its `share.acknowledgement.mode`.
    pub mode: AcknowledgementMode,
    /// Its time per record.
    pub processing_ms: u64,
    /// Records in hand, not processed yet.
    pub in_hand: usize,
    /// The newest deliveries, oldest first: value, partition, offset, delivery count.
    pub received: Vec<(String, u32, u64, u32)>,
    /// Every delivery, the whole run.
    pub received_total: u64,
    /// Its acknowledge rules.
    pub rules: Vec<crate::command::AcknowledgeRule>,
}

/// A share partition as the page draws it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SharePartitionView {
    /// The partition.
    pub tp: TopicPartition,
    /// Whether its leader has initialized it (a ShareFetch reached it).
    pub initialized: bool,
    /// SPSO.
    pub start_offset: u64,
    /// SPEO.
    pub end_offset: u64,
    /// Records in flight.
    pub in_flight: u64,
    /// The leader's high watermark.
    pub high_watermark: u64,
    /// The share partition's lag (Kafka 4.2).
    pub lag: Option<u64>,
    /// The running members assigned it.
    pub owners: Vec<String>,
    /// The in-flight records (at most 48, the lowest first), each with its value.
    pub records: Vec<(InFlightView, String)>,
}

/// Every share group, as the page draws it.
pub fn views(sim: &Sim) -> Vec<ShareGroupView> {
    sim.share_groups()
        .map(|g| {
            let mut partitions = Vec::new();
            for t in g.topics() {
                let count = sim.topic(t).map_or(0, |t| t.partition_count());
                for p in 0..count {
                    let tp = TopicPartition::new(t.as_str(), p);
                    let log = sim.partition_state(&tp).and_then(|p| p.leader.or(p.replicas.first().copied()).and_then(|l| p.logs.get(&l)));
                    let high_watermark = log.map_or(0, |l| l.high_watermark());
                    let value = |o: u64| log.and_then(|l| l.get(o)).map(|r| r.record.value.to_string()).unwrap_or_default();
                    let owners = g.owners(&tp).into_iter().map(str::to_string).collect();
                    let view = match g.partition(&tp) {
                        Some(sp) => SharePartitionView {
                            initialized: true,
                            start_offset: sp.start_offset(),
                            end_offset: sp.end_offset(),
                            in_flight: sp.in_flight(),
                            high_watermark,
                            lag: g.lag(&tp),
                            owners,
                            records: sp
                                .records()
                                .into_iter()
                                .take(48)
                                .map(|r| {
                                    let v = value(r.offset);
                                    (r, v)
                                })
                                .collect(),
                            tp,
                        },
                        None => SharePartitionView {
                            initialized: false,
                            start_offset: 0,
                            end_offset: 0,
                            in_flight: 0,
                            high_watermark,
                            lag: None,
                            owners,
                            records: Vec::new(),
                            tp,
                        },
                    };
                    partitions.push(view);
                }
            }
            let total: u32 = partitions.len() as u32;
            let members_known = g.coordinator_members() as u32;
            let members = g
                .members()
                .map(|m| {
                    let received: Vec<(String, u32, u64, u32)> =
                        m.received().map(|d| (d.value.clone(), d.tp.partition, d.offset, d.delivery_count)).collect();
                    let skip = received.len().saturating_sub(12);
                    ShareMemberView {
                        client_id: m.client_id().to_string(),
                        phase: m.phase(),
                        member_epoch: m.member_epoch(),
                        assigned: m.assigned().to_vec(),
                        mode: m.acknowledgement_mode(),
                        processing_ms: m.processing_ms(),
                        in_hand: m.in_hand().count(),
                        received: received.into_iter().skip(skip).collect(),
                        received_total: m.received_total(),
                        rules: m.rules().to_vec(),
                    }
                })
                .collect();
            ShareGroupView {
                id: g.id().to_string(),
                group_epoch: g.group_epoch(),
                desired_sharing: if total == 0 { 0 } else { members_known.div_ceil(total) },
                lock_ms: g.config().share_record_lock_duration_ms,
                delivery_limit: g.config().share_delivery_count_limit,
                members,
                partitions,
                delivered: g.delivered(),
                redelivered: g.redelivered(),
                acknowledged: g.acknowledged(),
                archived: g.archived(),
                processed_again: g.processed_again(),
            }
        })
        .collect()
}
