//! Share groups (KIP-932, Queues for Kafka) as messages with latency: the coordinator's
//! side (`coordinator.rs`: ShareGroupHeartbeat, member epochs, the `SimpleAssignor`, session
//! timeouts), and the consumers with the partition leaders' share partitions
//! (`fetch.rs`: ShareFetch with acknowledgements riding on it, ShareAcknowledge on close,
//! acquisition locks, `DelayedShareFetch`).
//!
//! `ShareGroups` is held by the consumers' owner (`Consumers::shares`), so a high-watermark
//! advance wakes parked ShareFetches as it wakes parked Fetches.

use super::*;
use crate::command::{ShareGroupCommand, ShareGroupRefusal, ShareGroupSpec, ShareMemberSpec, MAX_ACKNOWLEDGE_RULES};
use crate::config::KafkaVersion;
use crate::event::ShareGroupEvent;
use crate::share_group::{AcknowledgeType, ShareGroup, ShareMember, SharePhase};

mod coordinator;
mod fetch;

/// Something scheduled for a share group.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum SharePending {
    /// The consumer's heartbeat timer.
    HeartbeatTick { group: String, client_id: String, incarnation: u64 },
    /// A ShareGroupHeartbeat reaches the coordinator.
    HeartbeatArrive { group: String, client_id: String, incarnation: u64, member_id: String, member_epoch: i32 },
    /// Its answer reaches the consumer (`None`: UNKNOWN_MEMBER_ID, rejoin with epoch 0).
    HeartbeatResponse { group: String, client_id: String, incarnation: u64, answer: Option<(i32, Vec<TopicPartition>)> },
    /// The coordinator looks whether a member's session ran out.
    SessionCheck { group: String, member_id: String },
    /// `poll()` again (after a back-off with nothing to fetch from).
    Poll { group: String, client_id: String, token: u64 },
    /// A ShareFetch reaches a partition leader, with acknowledgements for it.
    FetchArrive { fetch: fetch::ShareFetch },
    /// A parked ShareFetch's `fetch.max.wait.ms` ran out.
    FetchTimeout { id: u64 },
    /// A ShareFetch response (acquired records) reaches the consumer.
    FetchResponse { group: String, client_id: String, token: u64, records: Vec<(TopicPartition, StoredRecord, u32)> },
    /// A ShareAcknowledge reaches a leader; `close` ends the member's share session there.
    AcknowledgeArrive { group: String, client_id: String, member_id: String, broker: BrokerId, acks: Vec<fetch::Ack>, close: bool },
    /// An acquisition lock runs out.
    LockExpiry { group: String, tp: TopicPartition, acquisition: u64 },
    /// The application finished processing the first record in hand.
    ProcessingDone { group: String, client_id: String, token: u64 },
}

impl SharePending {
    /// What the page draws on the wire: ShareFetch answers carrying records (each value with
    /// its delivery count when above 1), acknowledgements going to the leaders.
    pub(in crate::sim) fn flights(&self, sent_at: SimTime, arrives_at: SimTime) -> Vec<Flight> {
        let kind = match self {
            SharePending::FetchResponse { group, client_id, records, .. } if !records.is_empty() => FlightKind::FetchData {
                group: group.clone(),
                client_id: client_id.clone(),
                records: records
                    .iter()
                    .map(|(tp, r, count)| {
                        let v = if *count > 1 { format!("{}×{count}", r.record.value) } else { r.record.value.to_string() };
                        (tp.clone(), v)
                    })
                    .collect(),
            },
            SharePending::FetchArrive { fetch } if !fetch.acks.is_empty() => {
                FlightKind::ShareAcknowledge { group: fetch.group.clone(), client_id: fetch.client_id.clone(), acks: fetch.acks.clone() }
            }
            SharePending::AcknowledgeArrive { group, client_id, acks, .. } if !acks.is_empty() => {
                FlightKind::ShareAcknowledge { group: group.clone(), client_id: client_id.clone(), acks: acks.clone() }
            }
            _ => return Vec::new(),
        };
        vec![Flight { kind, sent_at, arrives_at }]
    }
}

impl From<SharePending> for Pending {
    fn from(p: SharePending) -> Self {
        Pending::ShareGroup(p)
    }
}

/// The share groups and what their partition leaders hold for them (parked ShareFetches).
#[derive(Clone, Debug, Default)]
pub(crate) struct ShareGroups {
    pub(crate) groups: VecMap<String, ShareGroup>,
    parked: Vec<fetch::ShareFetch>,
    next_fetch: u64,
}

impl ShareGroups {
    /// The share group `id`.
    pub(crate) fn group(&self, id: &str) -> Option<&ShareGroup> {
        self.groups.get(id)
    }

    /// A share group starts: created, then each member joins.
    fn add_group(&mut self, spec: ShareGroupSpec, cluster: &Cluster, out: &mut Driver) {
        let id = spec.id.clone();
        self.groups.insert(id.clone(), ShareGroup::new(id.clone(), spec.topics, spec.config));
        out.emit(EventKind::ShareGroup(ShareGroupEvent::ShareGroupCreated { group: id.clone() }));
        for m in spec.members {
            self.add_member(&id, m, cluster, out);
        }
    }

    /// A share consumer starts: a member id of its own (KIP-1082), its first heartbeat.
    fn add_member(&mut self, group: &str, spec: ShareMemberSpec, cluster: &Cluster, out: &mut Driver) {
        let member_id = crate::uuid::Uuid::random(&mut out.rng).to_string();
        let Some(g) = self.groups.get_mut(group) else { return };
        g.members.push(ShareMember {
            client_id: spec.client_id.clone(),
            member_id,
            config: spec.config,
            rules: spec.acknowledge,
            phase: SharePhase::Joining,
            member_epoch: 0,
            assigned: Vec::new(),
            incarnation: 0,
            token: 0,
            fetches_out: 0,
            in_hand: Default::default(),
            pending_acks: Vec::new(),
            received: Default::default(),
            received_total: 0,
            processed_total: 0,
            interval_ms: 0,
            heartbeat_out: false,
        });
        self.send_heartbeat(group, &spec.client_id, cluster, out);
    }

    /// The process dies: nothing more is sent; what it held stays acquired until the locks
    /// run out, and the coordinator waits out its session.
    fn crash_member(&mut self, group: &str, client_id: &str, out: &mut Driver) {
        let Some(m) = self.groups.get_mut(group).and_then(|g| g.member_mut(client_id)) else { return };
        if m.phase == SharePhase::Crashed {
            return;
        }
        m.phase = SharePhase::Crashed;
        m.incarnation += 1;
        m.token += 1;
        m.in_hand.clear();
        m.pending_acks.clear();
        m.assigned.clear();
        m.fetches_out = 0;
        m.heartbeat_out = false;
        self.drop_parked(group, client_id);
        out.emit(EventKind::ShareGroup(ShareGroupEvent::ShareMemberCrashed { group: group.into(), client_id: client_id.into() }));
    }

    /// The process starts again: a new member id, epoch 0.
    fn restart_member(&mut self, group: &str, client_id: &str, cluster: &Cluster, out: &mut Driver) {
        let member_id = crate::uuid::Uuid::random(&mut out.rng).to_string();
        let Some(m) = self.groups.get_mut(group).and_then(|g| g.member_mut(client_id)) else { return };
        if m.phase != SharePhase::Crashed {
            return;
        }
        m.phase = SharePhase::Joining;
        m.member_id = member_id;
        m.member_epoch = 0;
        m.incarnation += 1;
        out.emit(EventKind::ShareGroup(ShareGroupEvent::ShareMemberRestarted { group: group.into(), client_id: client_id.into() }));
        self.send_heartbeat(group, client_id, cluster, out);
    }
}

/// The share groups' commands: checked against the cluster, then executed.
impl Sim {
    pub(in crate::sim) fn validate_share_group_command(&self, command: &ShareGroupCommand) -> Result<(), CommandError> {
        let shares = &self.consumers.shares;
        let member_of = |group: &str, client_id: &str| -> Result<(), CommandError> {
            let Some(g) = shares.groups.get(group) else {
                return Err(CommandError::ShareGroup(ShareGroupRefusal::UnknownShareGroup(group.to_string())));
            };
            if g.member(client_id).is_none() {
                return Err(CommandError::UnknownMember { group: group.to_string(), client_id: client_id.to_string() });
            }
            Ok(())
        };
        match command {
            ShareGroupCommand::AddShareGroup { share_group } => self.validate_share_group(share_group),
            ShareGroupCommand::AddShareMember { group, share_member } => {
                let Some(g) = shares.groups.get(group) else {
                    return Err(CommandError::ShareGroup(ShareGroupRefusal::UnknownShareGroup(group.clone())));
                };
                check_share_member(group, share_member)?;
                if g.member(&share_member.client_id).is_some() {
                    return Err(CommandError::DuplicateMember { group: group.clone(), client_id: share_member.client_id.clone() });
                }
                if g.members.len() >= MAX_MEMBERS_PER_GROUP {
                    return Err(CommandError::GroupFull { group: group.clone() });
                }
                Ok(())
            }
            ShareGroupCommand::RemoveShareMember { group, client_id }
            | ShareGroupCommand::CrashShareMember { group, client_id }
            | ShareGroupCommand::RestartShareMember { group, client_id }
            | ShareGroupCommand::SetShareProcessing { group, client_id, .. }
            | ShareGroupCommand::SetAcknowledgementMode { group, client_id, .. } => member_of(group, client_id),
            ShareGroupCommand::SetAcknowledgeRule { group, client_id, value, .. } => {
                member_of(group, client_id)?;
                crate::sim::check_record_size(None, value, &[])?;
                let rules = shares.groups.get(group).and_then(|g| g.member(client_id)).map_or(0, |m| m.rules.len());
                if rules >= MAX_ACKNOWLEDGE_RULES {
                    return Err(CommandError::ShareGroup(ShareGroupRefusal::TooManyRules {
                        group: group.clone(),
                        client_id: client_id.clone(),
                    }));
                }
                Ok(())
            }
        }
    }

    fn validate_share_group(&self, spec: &ShareGroupSpec) -> Result<(), CommandError> {
        check_name(NameOf::GroupId, &spec.id)?;
        if self.cluster.config.kafka_version < KafkaVersion::V4_1 {
            return Err(CommandError::ShareGroup(ShareGroupRefusal::NeedsKafka41 { group: spec.id.clone() }));
        }
        // A group id names one group, whatever its type.
        if self.consumers.groups.contains_key(&spec.id) || self.consumers.shares.groups.contains_key(&spec.id) {
            return Err(CommandError::DuplicateGroup(spec.id.clone()));
        }
        if self.consumers.groups.len() + self.consumers.shares.groups.len() >= MAX_GROUPS {
            return Err(CommandError::TooManyGroups);
        }
        if spec.topics.is_empty() {
            return Err(CommandError::GroupWithoutTopics { group: spec.id.clone() });
        }
        for t in &spec.topics {
            if !self.cluster.topics.contains_key(t) {
                return Err(CommandError::UnknownTopic(t.clone()));
            }
        }
        check_share_config(&spec.id, &spec.config)?;
        if spec.members.len() > MAX_MEMBERS_PER_GROUP {
            return Err(CommandError::TooManyMembers { group: spec.id.clone(), members: spec.members.len() });
        }
        for (i, m) in spec.members.iter().enumerate() {
            check_share_member(&spec.id, m)?;
            if spec.members[..i].iter().any(|o| o.client_id == m.client_id) {
                return Err(CommandError::DuplicateMember { group: spec.id.clone(), client_id: m.client_id.clone() });
            }
        }
        Ok(())
    }

    pub(in crate::sim) fn execute_share_group_command(&mut self, command: ShareGroupCommand) {
        let shares = &mut self.consumers.shares;
        let (cluster, out) = (&self.cluster, &mut self.out);
        match command {
            ShareGroupCommand::AddShareGroup { share_group } => shares.add_group(share_group, cluster, out),
            ShareGroupCommand::AddShareMember { group, share_member } => shares.add_member(&group, share_member, cluster, out),
            ShareGroupCommand::RemoveShareMember { group, client_id } => shares.close_member(&group, &client_id, cluster, out),
            ShareGroupCommand::CrashShareMember { group, client_id } => shares.crash_member(&group, &client_id, out),
            ShareGroupCommand::RestartShareMember { group, client_id } => shares.restart_member(&group, &client_id, cluster, out),
            ShareGroupCommand::SetShareProcessing { group, client_id, processing_ms } => {
                if let Some(m) = shares.groups.get_mut(&group).and_then(|g| g.member_mut(&client_id)) {
                    m.config.processing_ms = processing_ms.min(crate::limits::MAX_PROCESSING_MS);
                }
            }
            ShareGroupCommand::SetAcknowledgementMode { group, client_id, share_acknowledgement_mode } => {
                if let Some(m) = shares.groups.get_mut(&group).and_then(|g| g.member_mut(&client_id)) {
                    m.config.share_acknowledgement_mode = share_acknowledgement_mode;
                }
            }
            ShareGroupCommand::SetAcknowledgeRule { group, client_id, value, acknowledge_type } => {
                if let Some(m) = shares.groups.get_mut(&group).and_then(|g| g.member_mut(&client_id)) {
                    m.rules.retain(|r| r.value != value);
                    if let Some(acknowledge_type) = acknowledge_type.filter(|t| *t != AcknowledgeType::Accept) {
                        m.rules.push(crate::command::AcknowledgeRule { value, acknowledge_type });
                    }
                }
            }
        }
    }

    /// Applies a scheduled event of share groups.
    pub(in crate::sim) fn handle_share_group(&mut self, pending: SharePending) {
        self.consumers.shares.handle(pending, &self.cluster, &mut self.out);
    }
}

/// Each share-group setting within what Kafka's `ShareGroupConfig` allows.
pub(crate) fn check_share_config(group: &str, c: &crate::command::ShareGroupConfig) -> Result<(), CommandError> {
    if c.share_auto_offset_reset == crate::config::OffsetReset::None {
        return Err(CommandError::ShareGroup(ShareGroupRefusal::ResetNone { group: group.to_string() }));
    }
    for (setting, value, min, max) in [
        ("share_record_lock_duration_ms", c.share_record_lock_duration_ms, 15_000, 60_000),
        ("share_delivery_count_limit", u64::from(c.share_delivery_count_limit), 2, 10),
        ("share_partition_max_record_locks", u64::from(c.share_partition_max_record_locks), 100, 4000),
        ("share_heartbeat_interval_ms", c.share_heartbeat_interval_ms, 5000, 15_000),
        ("share_session_timeout_ms", c.share_session_timeout_ms, 45_000, 60_000),
    ] {
        if !(min..=max).contains(&value) {
            return Err(CommandError::ShareGroup(ShareGroupRefusal::Setting { setting, group: group.to_string(), value, min, max }));
        }
    }
    Ok(())
}

/// A share consumer's own checks: its client id, settings within their ranges.
pub(crate) fn check_share_member(group: &str, m: &ShareMemberSpec) -> Result<(), CommandError> {
    check_name(NameOf::ClientId, &m.client_id)?;
    let c = &m.config;
    for (setting, value, row) in [
        ("max_poll_records", u64::from(c.max_poll_records), &limits::MEMBER_MAX_POLL_RECORDS),
        ("fetch_max_wait_ms", c.fetch_max_wait_ms, &limits::MEMBER_FETCH_MAX_WAIT_MS),
        ("processing_ms", c.processing_ms, &limits::MEMBER_PROCESSING_MS),
    ] {
        if !row.allows(value) {
            return Err(CommandError::MemberSetting {
                setting,
                group: group.to_string(),
                client_id: m.client_id.clone(),
                value,
                allowed: Allowed::Range { min: row.min, max: row.max },
            });
        }
    }
    if m.acknowledge.len() > MAX_ACKNOWLEDGE_RULES {
        return Err(CommandError::ShareGroup(ShareGroupRefusal::TooManyRules { group: group.to_string(), client_id: m.client_id.clone() }));
    }
    for r in &m.acknowledge {
        crate::sim::check_record_size(None, &r.value, &[])?;
    }
    Ok(())
}

impl ShareGroups {
    fn handle(&mut self, pending: SharePending, cluster: &Cluster, out: &mut Driver) {
        match pending {
            SharePending::HeartbeatTick { group, client_id, incarnation } => {
                self.heartbeat_tick(&group, &client_id, incarnation, cluster, out)
            }
            SharePending::HeartbeatArrive { group, client_id, incarnation, member_id, member_epoch } => {
                self.heartbeat_arrive(&group, &client_id, incarnation, &member_id, member_epoch, cluster, out)
            }
            SharePending::HeartbeatResponse { group, client_id, incarnation, answer } => {
                self.heartbeat_response(&group, &client_id, incarnation, answer, cluster, out)
            }
            SharePending::SessionCheck { group, member_id } => self.session_check(&group, &member_id, cluster, out),
            SharePending::Poll { group, client_id, token } => self.poll(&group, &client_id, token, cluster, out),
            SharePending::FetchArrive { fetch } => self.fetch_arrive(fetch, cluster, out),
            SharePending::FetchTimeout { id } => self.fetch_timeout(id, cluster, out),
            SharePending::FetchResponse { group, client_id, token, records } => {
                self.fetch_response(&group, &client_id, token, records, cluster, out)
            }
            SharePending::AcknowledgeArrive { group, client_id, member_id, broker, acks, close } => {
                self.acknowledge_arrive(&group, &client_id, &member_id, broker, acks, close, cluster, out)
            }
            SharePending::LockExpiry { group, tp, acquisition } => self.lock_expiry(&group, &tp, acquisition, cluster, out),
            SharePending::ProcessingDone { group, client_id, token } => self.processing_done(&group, &client_id, token, cluster, out),
        }
    }
}
