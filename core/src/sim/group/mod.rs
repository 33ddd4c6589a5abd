//! Consumer groups: what every group protocol shares, and the dispatch to each.
//!
//! A group speaks one protocol (`group.protocol`): the classic protocol (`classic.rs`:
//! JoinGroup/SyncGroup with a client-side assignor) or the KIP-848 consumer protocol
//! (`consumer.rs`: one ConsumerGroupHeartbeat, the broker assigns). The entry points here
//! — a member joins, leaves, crashes, restarts, pauses, seeks, subscribes; the heartbeat
//! thread wakes; a session check; a commit — `match` on the protocol, so a third
//! protocol (share groups, KIP-932) is a compile error at each place it must answer.
//! Shared by every protocol: the coordinator lookup (`__consumer_offsets`), OffsetCommit
//! and OffsetFetch. The consumer's poll loop and fetches are `consume.rs`; push
//! delivery, a teaching device, is `push.rs`.

use super::*;
use crate::config::GroupProtocol;
use crate::event::{ConsumeEvent, ConsumerProtocolEvent, GroupEvent};
use crate::event::{GroupError, LeaveReason};
use crate::group::{CommitMode, Phase, PositionEpochs};

pub(in crate::sim) mod classic;
pub(in crate::sim) mod consume;
pub(in crate::sim) mod consumer;
pub(in crate::sim) mod expiry;
pub(in crate::sim) mod offsets_topic;
pub(in crate::sim) mod push;
pub(in crate::sim) mod txn;

/// An assignor's answer (partitions per topic, per member) as each member's sorted list of
/// partitions — what both protocols hand their members.
pub(in crate::sim) fn flatten_assignment(by_member: crate::assign::Assignment) -> impl Iterator<Item = (String, Vec<TopicPartition>)> {
    by_member.into_iter().map(|(member, by_topic)| {
        let mut tps: Vec<TopicPartition> =
            by_topic.into_iter().flat_map(|(t, ps)| ps.into_iter().map(move |p| TopicPartition::new(t.clone(), p))).collect();
        crate::sorted::sort(&mut tps);
        (member, tps)
    })
}

/// A client assignor's answer as each member's sorted list of partitions, by member id.
pub(in crate::sim) fn member_lists(lists: &crate::assign::AssignmentLists) -> crate::vecmap::VecMap<String, Vec<TopicPartition>> {
    let mut by_id: Vec<usize> = (0..lists.len()).collect();
    crate::sorted::sort_by(&mut by_id, |a, b| lists.member_id(*a).cmp(lists.member_id(*b)));
    by_id
        .into_iter()
        .map(|i| {
            let mut tps: Vec<TopicPartition> = lists.partitions(i).map(|(t, p)| TopicPartition::new(t, p)).collect();
            crate::sorted::sort(&mut tps);
            (lists.member_id(i).to_string(), tps)
        })
        .collect()
}

/// Something scheduled for a consumer group whatever its protocol: the heartbeat thread,
/// session checks, OffsetFetch and OffsetCommit.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum GroupPending {
    OffsetFetchArrive {
        group: String,
        client_id: String,
        incarnation: u64,
        token: u64,
        partitions: Vec<TopicPartition>,
    },
    OffsetFetchResponse {
        group: String,
        client_id: String,
        incarnation: u64,
        token: u64,
        /// Per partition the committed offset with its leader epoch, if any.
        committed: Vec<(TopicPartition, Option<CommittedOffset>)>,
    },
    /// The consumer's heartbeat thread wakes up.
    HeartbeatTick {
        group: String,
        client_id: String,
        incarnation: u64,
    },
    /// The coordinators' periodic expiry of committed offsets
    /// (`offsets.retention.check.interval.ms`, `sim/group/expiry.rs`).
    OffsetsRetentionCheck,
    /// The coordinator checks whether a member's session expired.
    SessionCheck {
        group: String,
        member_id: String,
    },
    CommitArrive {
        group: String,
        client_id: String,
        incarnation: u64,
        member_id: String,
        generation: i32,
        offsets: Vec<(TopicPartition, u64)>,
        /// The leader epoch committed with an offset (`OffsetCommitRequest`'s
        /// `committedLeaderEpoch`), for the offsets that have one.
        epochs: Vec<(TopicPartition, u32)>,
    },
}

/// A committed offset as OffsetFetch answers it: the offset and the leader epoch it was
/// committed with, if any (`OffsetAndMetadata.leaderEpoch`).
pub(crate) type CommittedOffset = (u64, Option<u32>);

/// `offsets.topic.num.partitions` (50): the coordinator of a group leads partition
/// `abs(hash(group.id)) % 50` of `__consumer_offsets`.
pub const OFFSETS_TOPIC_PARTITIONS: u32 = 50;

/// A fetch the broker holds until data arrives or `fetch.max.wait.ms` passes
/// (`DelayedFetch`, with `fetch.min.bytes` = 1).
#[derive(Clone, Debug, PartialEq, Eq)]
struct ParkedFetch {
    /// Which fetch: a member's token stays the same across its fetches, so a timeout
    /// must name the one fetch it belongs to.
    id: u64,
    group: Name,
    client_id: Name,
    token: u64,
    tps: Vec<TopicPartition>,
}

/// Consumer groups — each `Group` holds its coordinator's side (registry, generation or
/// epoch, assignment, committed offsets) and its consumers (`Member`s) — with what the
/// brokers keep for them: parked consumer fetches (`DelayedFetch`) and push cursors.
/// Changed by the handlers under `sim/group/`.
#[derive(Clone, Debug)]
pub(crate) struct Consumers {
    pub(crate) groups: VecMap<String, Group>,
    next_fetch: u64,
    parked: Vec<ParkedFetch>,
    /// Push delivery (not Kafka — a teaching device): the broker's next offset per member.
    push_cursors: push::PushCursors,
    /// Share groups (KIP-932), the third group type (`sim/share/`).
    pub(crate) shares: crate::sim::share::ShareGroups,
    /// `__consumer_offsets`' records: the coordinators' log (`offsets_topic.rs`).
    pub(crate) offsets: offsets_topic::OffsetsTopic,
}

impl Consumers {
    /// No groups yet.
    pub(in crate::sim) fn new() -> Self {
        Consumers {
            groups: VecMap::new(),
            next_fetch: 1,
            parked: Vec::new(),
            push_cursors: VecMap::new(),
            shares: Default::default(),
            offsets: Default::default(),
        }
    }
}

impl Consumers {
    /// The protocol `group` speaks (`group.protocol`): what every entry point below
    /// dispatches on.
    pub(in crate::sim) fn protocol_of(&self, group: &str) -> Option<GroupProtocol> {
        self.groups.get(group).map(|g| g.config.group_protocol)
    }

    /// Records a group event that changes who consumes a partition (`PartitionsRevoked`,
    /// `PositionSet`), after noting it in the group's own accounting. The group's state
    /// changes here, where the group acts, never in the driver.
    pub(in crate::sim) fn record_group(&mut self, kind: EventKind, out: &mut Driver) {
        self.note_partition_gaps(&kind, out);
        out.emit(kind);
    }

    /// Records `partitions` revoked from a member, if there are any: their gap in
    /// consumption starts now.
    pub(in crate::sim) fn record_revoked(&mut self, group_id: &str, client_id: &str, partitions: Vec<TopicPartition>, out: &mut Driver) {
        if !partitions.is_empty() {
            let revoked = GroupEvent::PartitionsRevoked { group: group_id.into(), client_id: client_id.into(), partitions };
            self.record_group(EventKind::Group(revoked), out);
        }
    }

    /// A revoked partition goes unconsumed until a member starts reading it again; the
    /// gap adds to the group's `partition_downtime_ms` (what a rebalance costs).
    fn note_partition_gaps(&mut self, kind: &EventKind, out: &mut Driver) {
        let now = out.now;
        match kind {
            EventKind::Group(GroupEvent::PartitionsRevoked { group, client_id, partitions }) => {
                if let Some(g) = self.groups.get_mut(group) {
                    for tp in partitions {
                        g.partition_gaps.entry(tp.clone()).or_insert(now);
                        let committed = g.committed.get(tp).copied();
                        let h = crate::group::Handover {
                            from: client_id.clone(),
                            kind: crate::group::HandoverKind::Revoked,
                            at: now,
                            committed,
                        };
                        g.handovers.insert(tp.clone(), h);
                    }
                }
            }
            EventKind::Consume(ConsumeEvent::PositionSet { group, tp, .. }) => {
                if let Some(g) = self.groups.get_mut(group.as_str()) {
                    if let Some(since) = g.partition_gaps.remove(tp) {
                        g.partition_downtime_ms += now.ms().saturating_sub(since.ms());
                    }
                }
            }
            _ => {}
        }
    }

    /// A member starts (joins, or restarts): its protocol's first request and timers.
    fn start_member(&mut self, group_id: &str, client_id: &str, cluster: &Cluster, out: &mut Driver) {
        match self.protocol_of(group_id) {
            Some(GroupProtocol::Classic) => self.classic_start(group_id, client_id, cluster, out),
            Some(GroupProtocol::Consumer) => self.cg_start(group_id, client_id, cluster, out),
            None => {}
        }
    }

    // ----- coordinator lookup ------------------------------------------------

    /// Sends a request to the group's coordinator: `Some(arrival time)`, or `None` when
    /// no coordinator is reachable (FindCoordinator fails; the caller retries).
    pub(in crate::sim) fn to_coordinator(&self, group: &str, cluster: &Cluster, out: &mut Driver) -> Option<SimTime> {
        cluster.coordinator_of(group).map(|_| out.now.plus_ms(out.latency()))
    }

    pub(in crate::sim) fn reply_at(&self, out: &mut Driver) -> SimTime {
        out.now.plus_ms(out.latency())
    }

    pub(in crate::sim) fn consumer(&self, group: &str, client_id: &str, incarnation: u64) -> Option<&Member> {
        self.groups.get(group)?.member(client_id).filter(|m| m.incarnation == incarnation && m.phase != Phase::Crashed)
    }

    // ----- commands ------------------------------------------------------------

    /// A consumer starts and subscribes: its first JoinGroup goes out.
    pub(in crate::sim) fn join(&mut self, group_id: &str, spec: MemberSpec, cluster: &Cluster, out: &mut Driver) {
        let now = out.now;
        let Some(group) = self.groups.get_mut(group_id) else { return };
        let topics = spec.topics.unwrap_or_else(|| group.topics.clone());
        let auto_commit_interval_ms = spec.config.auto_commit_interval_ms;
        group.members.push(Member {
            client_id: spec.client_id.as_str().into(),
            member_id: String::new(),
            group_instance_id: spec.group_instance_id,
            topics,
            config: spec.config,
            assigned: Vec::new(),
            positions: VecMap::new(),
            position_epochs: VecMap::new(),
            activity: Activity::AwaitingAssignment,
            received: Default::default(),
            received_total: 0,
            token: 0,
            // The auto-commit timer starts with the consumer (`ConsumerCoordinator`'s
            // constructor, `CommitRequestManager.AutoCommitState`); every completed
            // assignment restarts it.
            next_auto_commit: now.plus_ms(auto_commit_interval_ms),
            fetch_cursor: 0,
            phase: Phase::Joining,
            generation: -1,
            incarnation: 0,
            last_poll: now,
            paused: false,
            processing: std::collections::VecDeque::new(),
            rejoin_needed: false,
            join_in_flight: false,
            last_assignment: Vec::new(),
            done_in_batch: Vec::new(),
            stopped_since: None,
            rebalance_stopped_ms: 0,
            processed_total: 0,
            leader_snapshot: None,
            cg_interval_ms: 0,
            cg_resend: false,
            cg_pending_assignment: None,
            unstable_fetches: 0,
        });
        self.start_member(group_id, &spec.client_id, cluster, out);
    }

    /// `consumer.close()`: commit (auto-commit), then LeaveGroup — which a static member
    /// does not send: its place is kept until `session.timeout.ms` (KIP-345).
    pub(in crate::sim) fn leave(&mut self, group_id: &str, client_id: &str, cluster: &Cluster, out: &mut Driver) {
        let Some(m) = self.groups.get(group_id).and_then(|g| g.member(client_id)) else { return };
        let alive = m.phase != Phase::Crashed;
        let member_id = m.member_id.clone();
        let is_static = m.group_instance_id.is_some();
        if alive && m.config.commit_mode == CommitMode::Auto {
            self.commit_positions(group_id, client_id, cluster, out);
        }
        let protocol = self.protocol_of(group_id);
        if let Some(m) = self.groups.get(group_id).and_then(|g| g.member(client_id)) {
            let now = out.now;
            let gone: Vec<TopicPartition> = m.assigned.clone();
            if let Some(g) = self.groups.get_mut(group_id) {
                for tp in gone {
                    g.partition_gaps.entry(tp).or_insert(now);
                }
            }
        }
        match protocol {
            // KIP-848: a heartbeat with epoch -1, or -2 for a static member (its place is
            // kept until its session times out).
            Some(GroupProtocol::Consumer) if alive => {
                let epoch = if is_static { consumer::LEAVE_STATIC_EPOCH } else { consumer::LEAVE_EPOCH };
                self.cg_send_leave(group_id, client_id, epoch, LeaveReason::Graceful, cluster, out);
            }
            Some(GroupProtocol::Classic) if alive && !member_id.is_empty() && !is_static => {
                self.classic_send_leave(group_id, member_id, LeaveReason::Graceful, cluster, out);
            }
            Some(GroupProtocol::Classic | GroupProtocol::Consumer) | None => {}
        }
        if let Some(g) = self.groups.get_mut(group_id) {
            g.members.retain(|m| m.client_id != client_id);
        }
        self.drop_parked_fetches(group_id, client_id);
    }

    /// The consumer process dies: no LeaveGroup, no heartbeats, unprocessed records lost
    /// to it; the coordinator notices after `session.timeout.ms`.
    pub(in crate::sim) fn crash_member(&mut self, group_id: &str, client_id: &str, out: &mut Driver) {
        let now = out.now;
        let Some(m) = self.groups.get_mut(group_id).and_then(|g| g.member_mut(client_id)) else { return };
        if m.phase == Phase::Crashed {
            return;
        }
        m.phase = Phase::Crashed;
        m.incarnation += 1;
        m.token += 1;
        m.processing.clear();
        m.cg_pending_assignment = None;
        let gone = std::mem::take(&mut m.assigned);
        if let Some(g) = self.groups.get_mut(group_id) {
            for tp in gone {
                g.partition_gaps.entry(tp.clone()).or_insert(now);
                let committed = g.committed.get(&tp).copied();
                let h = crate::group::Handover { from: client_id.into(), kind: crate::group::HandoverKind::Crashed, at: now, committed };
                g.handovers.insert(tp, h);
            }
        }
        let Some(m) = self.groups.get_mut(group_id).and_then(|g| g.member_mut(client_id)) else { return };
        m.last_assignment.clear();
        m.positions.clear();
        m.position_epochs.clear();
        m.activity = Activity::AwaitingAssignment;
        m.stopped_since.get_or_insert(now);
        self.drop_parked_fetches(group_id, client_id);
        out.emit(EventKind::Group(GroupEvent::MemberCrashed { group: group_id.into(), client_id: client_id.into() }));
    }

    /// The consumer starts again with the same `client.id` (and `group.instance.id`).
    pub(in crate::sim) fn restart_member(&mut self, group_id: &str, client_id: &str, cluster: &Cluster, out: &mut Driver) {
        let now = out.now;
        let Some(m) = self.groups.get_mut(group_id).and_then(|g| g.member_mut(client_id)) else { return };
        if m.phase != Phase::Crashed {
            return;
        }
        m.phase = Phase::Joining;
        m.member_id = String::new();
        m.generation = -1;
        m.incarnation += 1;
        m.join_in_flight = false;
        m.last_poll = now;
        m.paused = false;
        // A new process: a new auto-commit timer.
        m.next_auto_commit = now.plus_ms(m.config.auto_commit_interval_ms);
        out.emit(EventKind::Group(GroupEvent::MemberRestarted { group: group_id.into(), client_id: client_id.into() }));
        self.start_member(group_id, client_id, cluster, out);
    }

    /// The application stops calling `poll()` (stuck processing), or resumes.
    pub(in crate::sim) fn pause_member(&mut self, group_id: &str, client_id: &str, paused: bool, out: &mut Driver) {
        let Some(m) = self.groups.get_mut(group_id).and_then(|g| g.member_mut(client_id)) else { return };
        if m.paused == paused || m.phase == Phase::Crashed {
            return;
        }
        m.paused = paused;
        let token = m.token;
        let idle = m.processing.is_empty();
        out.emit(EventKind::Group(GroupEvent::MemberPaused { group: group_id.into(), client_id: client_id.into(), paused }));
        if !paused && idle {
            let now = out.now;
            out.at(now, ConsumePending::Poll { group: group_id.into(), client_id: client_id.into(), token });
        }
    }

    /// `seek()`: the next fetch of each partition starts at the new position. Records
    /// already returned by `poll()` are still processed.
    pub(in crate::sim) fn seek(
        &mut self,
        group_id: &str,
        client_id: &str,
        topic: &str,
        partition: Option<u32>,
        to: &crate::command::SeekTo,
        cluster: &Cluster,
        out: &mut Driver,
    ) {
        use crate::command::SeekTo;
        let now = out.now;
        let isolation = self.groups.get(group_id).map(|g| g.config.isolation_level).unwrap_or_default();
        let Some(m) = self.groups.get(group_id).and_then(|g| g.member(client_id)) else { return };
        let targets: Vec<TopicPartition> =
            m.assigned.iter().filter(|tp| tp.topic == topic && partition.is_none_or(|p| tp.partition == p)).cloned().collect();
        let mut moves = Vec::new();
        for tp in targets {
            let Some(log) = cluster.partition(&tp).and_then(|p| p.display_log()) else { continue };
            // `seekToEnd()` under read_committed: the LSO.
            let (start, hw) = (log.log_start_offset(), log.end_for(isolation));
            let offset = match to {
                SeekTo::Beginning => start,
                SeekTo::End => hw,
                SeekTo::Offset { offset } => *offset,
                SeekTo::Timestamp { timestamp_ms } => {
                    log.records().iter().find(|r| r.offset < hw && r.timestamp.ms() >= *timestamp_ms).map(|r| r.offset).unwrap_or(hw)
                }
            };
            let from = m.positions.get(&tp).copied().unwrap_or(offset);
            // seekToBeginning/End go through ListOffsets (the leader's epoch for the
            // offset); seek(offset) gives no epoch, so nothing to validate.
            let epochs = match to {
                SeekTo::Beginning | SeekTo::End => PositionEpochs {
                    offset_epoch: consume::epoch_before(log, offset),
                    validated_at: cluster.partition(&tp).map(|p| p.leader_epoch),
                },
                SeekTo::Offset { .. } | SeekTo::Timestamp { .. } => PositionEpochs::default(),
            };
            moves.push((tp, from, offset, epochs));
        }
        let Some(g) = self.groups.get_mut(group_id) else { return };
        // A later re-read of these partitions is explained by this seek.
        for (tp, _, _, _) in &moves {
            let committed = g.committed.get(tp).copied();
            g.handovers.insert(
                tp.clone(),
                crate::group::Handover { from: client_id.into(), kind: crate::group::HandoverKind::Seek, at: now, committed },
            );
        }
        let Some(m) = g.member_mut(client_id) else { return };
        for (tp, _, offset, epochs) in &moves {
            m.positions.insert(tp.clone(), *offset);
            m.position_epochs.insert(tp.clone(), *epochs);
        }
        // A member still waiting for its committed offsets keeps waiting (its OffsetFetch
        // answer must not be dropped); the seek position then wins over the committed one.
        let stable = m.phase == Phase::Stable;
        if stable {
            m.token += 1;
            self.drop_parked_fetches(group_id, client_id);
        }
        let Some(m) = self.groups.get(group_id).and_then(|g| g.member(client_id)) else { return };
        let token = m.token;
        let restart = stable && m.processing.is_empty() && !m.paused;
        for (tp, from, offset, _) in moves {
            out.emit(EventKind::Consume(ConsumeEvent::Seeked {
                group: group_id.into(),
                client_id: client_id.into(),
                tp,
                from,
                to: offset,
                how: to.clone(),
            }));
        }
        if restart {
            out.at(now, ConsumePending::Poll { group: group_id.into(), client_id: client_id.into(), token });
        }
    }

    /// `subscribe()` with other topics: partitions of topics it leaves are given up at
    /// once; the member then rejoins (classic) or heartbeats its new subscription (KIP-848).
    pub(in crate::sim) fn subscribe(&mut self, group_id: &str, client_id: &str, topics: Vec<String>, cluster: &Cluster, out: &mut Driver) {
        let now = out.now;
        let Some(g) = self.groups.get(group_id) else { return };
        let protocol = g.config.group_protocol;
        let Some(m) = g.member(client_id) else { return };
        if m.topics == topics || m.phase == Phase::Crashed {
            return;
        }
        let gone: Vec<TopicPartition> = m.assigned.iter().filter(|tp| !topics.iter().any(|t| t == tp.topic)).cloned().collect();
        let busy = m.paused || !m.processing.is_empty();
        if !gone.is_empty() && m.config.commit_mode == CommitMode::Auto {
            self.commit_positions(group_id, client_id, cluster, out);
        }
        let Some(m) = self.groups.get_mut(group_id).and_then(|g| g.member_mut(client_id)) else { return };
        m.topics = topics.clone();
        m.assigned.retain(|tp| !gone.contains(tp));
        for tp in &gone {
            m.positions.remove(tp);
            m.position_epochs.remove(tp);
        }
        if !gone.is_empty() {
            m.token += 1;
            if m.assigned.is_empty() {
                m.stopped_since.get_or_insert(now);
            }
        }
        let (token, restart) = (m.token, !gone.is_empty() && !busy && !m.assigned.is_empty() && m.phase == Phase::Stable);
        out.emit(EventKind::Group(GroupEvent::Subscribed { group: group_id.into(), client_id: client_id.into(), topics }));
        if !gone.is_empty() {
            self.drop_parked_fetches(group_id, client_id);
            self.record_revoked(group_id, client_id, gone, out);
        }
        if restart {
            out.at(now, ConsumePending::Poll { group: group_id.into(), client_id: client_id.into(), token });
        }
        match protocol {
            GroupProtocol::Consumer => self.cg_subscription_changed(group_id, client_id, cluster, out),
            GroupProtocol::Classic if busy => {
                if let Some(m) = self.groups.get_mut(group_id).and_then(|g| g.member_mut(client_id)) {
                    m.rejoin_needed = true;
                }
            }
            GroupProtocol::Classic => {
                self.revoke_for_rejoin(group_id, client_id, cluster, out);
                self.classic_send_join(group_id, client_id, cluster, out);
            }
        }
    }

    // ----- client: JoinGroup / SyncGroup ----------------------------------------

    /// The member (re)joins its group: a JoinGroup (classic) or a heartbeat asking for
    /// its assignment (KIP-848).
    pub(in crate::sim) fn send_join(&mut self, group_id: &str, client_id: &str, cluster: &Cluster, out: &mut Driver) {
        match self.protocol_of(group_id) {
            Some(GroupProtocol::Classic) => self.classic_send_join(group_id, client_id, cluster, out),
            Some(GroupProtocol::Consumer) => self.cg_rejoin(group_id, client_id, cluster, out),
            None => {}
        }
    }

    /// The committed offsets arrive: positions are set (committed, else
    /// `auto.offset.reset`) and the consumer resumes.
    pub(in crate::sim) fn offset_fetch_response(
        &mut self,
        group_id: &str,
        client_id: &str,
        incarnation: u64,
        token: u64,
        committed: Vec<(TopicPartition, Option<CommittedOffset>)>,
        cluster: &Cluster,
        out: &mut Driver,
    ) {
        if self.consumer(group_id, client_id, incarnation).is_none() {
            return;
        }
        let now = out.now;
        let Some(g) = self.groups.get(group_id) else { return };
        let reset = g.config.auto_offset_reset;
        let isolation = g.config.isolation_level;
        let mut sets = Vec::new();
        let no_offset = reset == OffsetReset::None && committed.iter().any(|(_, c)| c.is_none());
        if no_offset {
            // poll() throws NoOffsetForPartitionException; unhandled, the consumer stops.
            out.emit(EventKind::ConsumerProtocol(ConsumerProtocolEvent::ConsumerFailed {
                group: group_id.into(),
                client_id: client_id.into(),
                error: GroupError::NoOffsetForPartition,
            }));
            self.crash_member(group_id, client_id, out);
            return;
        }
        for (tp, c) in committed {
            let part = cluster.partition(&tp);
            let log = part.and_then(|p| p.display_log());
            // ListOffsets: earliest = log start, latest = HW (the LSO under read_committed).
            let (start, hw) = log.map(|l| (l.log_start_offset(), l.end_for(isolation))).unwrap_or((0, 0));
            let (offset, from, epochs) = match c {
                // `seekUnvalidated`: the committed leader epoch is validated at the first fetch.
                Some((o, epoch)) => (o, StartFrom::Committed, PositionEpochs { offset_epoch: epoch, validated_at: None }),
                None => {
                    let (o, from) = match reset {
                        OffsetReset::Earliest => (start, StartFrom::ResetEarliest),
                        OffsetReset::Latest | OffsetReset::None => (hw, StartFrom::ResetLatest),
                    };
                    // ListOffsets answers with the leader's epoch for the offset.
                    let epochs = PositionEpochs {
                        offset_epoch: log.and_then(|l| consume::epoch_before(l, o)),
                        validated_at: part.map(|p| p.leader_epoch),
                    };
                    (o, from, epochs)
                }
            };
            sets.push((tp, offset, from, epochs));
        }
        let Some(g) = self.groups.get_mut(group_id) else { return };
        let Some(m) = g.member_mut(client_id) else { return };
        if m.token != token {
            return;
        }
        // A position the application set with seek() while the offsets were on their way
        // wins over the committed one.
        sets.retain(|(tp, _, _, _)| !m.positions.contains_key(tp));
        for (tp, offset, _, epochs) in &sets {
            if m.assigned.contains(tp) {
                m.positions.insert(tp.clone(), *offset);
                m.position_epochs.insert(tp.clone(), *epochs);
            }
        }
        for (tp, offset, _, _) in &sets {
            g.first_positions.entry(tp.clone()).or_insert(*offset);
        }
        let Some(m) = g.member_mut(client_id) else { return };
        if m.phase == Phase::Syncing {
            m.phase = Phase::Stable;
        }
        if let Some(since) = m.stopped_since.take() {
            m.rebalance_stopped_ms += now.ms().saturating_sub(since.ms());
        }
        m.activity = if m.assigned.is_empty() { Activity::Idle } else { Activity::Fetching };
        let start_polling = m.processing.is_empty() && !m.paused;
        for (tp, offset, from, _) in sets {
            self.record_group(
                EventKind::Consume(ConsumeEvent::PositionSet { group: group_id.into(), client_id: client_id.into(), tp, offset, from }),
                out,
            );
        }
        if start_polling {
            self.drop_parked_fetches(group_id, client_id);
            out.at(now, ConsumePending::Poll { group: group_id.into(), client_id: client_id.into(), token });
        }
    }

    /// The consumer's heartbeat thread wakes up (`heartbeat.interval.ms`).
    pub(in crate::sim) fn heartbeat_tick(
        &mut self,
        group_id: &str,
        client_id: &str,
        incarnation: u64,
        cluster: &Cluster,
        out: &mut Driver,
    ) {
        match self.protocol_of(group_id) {
            Some(GroupProtocol::Classic) => self.classic_heartbeat_tick(group_id, client_id, incarnation, cluster, out),
            Some(GroupProtocol::Consumer) => self.cg_heartbeat_tick(group_id, client_id, incarnation, cluster, out),
            None => {}
        }
    }

    // ----- client: commits ---------------------------------------------------------

    /// Sends an OffsetCommit with the consumer's positions (the offsets after what
    /// `poll()` returned).
    pub(in crate::sim) fn commit_positions(&mut self, group_id: &str, client_id: &str, cluster: &Cluster, out: &mut Driver) {
        let Some(m) = self.groups.get(group_id).and_then(|g| g.member(client_id)) else { return };
        let offsets: Vec<(TopicPartition, u64)> = m.positions.iter().map(|(tp, o)| (tp.clone(), *o)).collect();
        self.commit_offsets(group_id, client_id, offsets, cluster, out);
    }

    /// Sends an OffsetCommit. A consumer no longer in the group fails at once
    /// (`CommitFailedException`: the group rebalanced and gave its partitions away).
    pub(in crate::sim) fn commit_offsets(
        &mut self,
        group_id: &str,
        client_id: &str,
        offsets: Vec<(TopicPartition, u64)>,
        cluster: &Cluster,
        out: &mut Driver,
    ) {
        let Some(m) = self.groups.get(group_id).and_then(|g| g.member(client_id)) else { return };
        if offsets.is_empty() || m.phase == Phase::Crashed {
            return;
        }
        if m.member_id.is_empty() || m.phase == Phase::LeftPollTimeout {
            out.emit(EventKind::Consume(ConsumeEvent::CommitFailed {
                group: group_id.into(),
                client_id: client_id.into(),
                error: GroupError::UnknownMemberId,
                offsets,
            }));
            return;
        }
        let (member_id, generation, incarnation) = (m.member_id.clone(), m.generation, m.incarnation);
        // An offset at the consumer's position goes with the position's epoch, as
        // `commitSync()` of every consumed position sends it (`allConsumed`).
        let epochs = offsets
            .iter()
            .filter(|(tp, o)| m.positions.get(tp) == Some(o))
            .filter_map(|(tp, _)| m.position_epochs.get(tp).and_then(|e| e.offset_epoch).map(|e| (tp.clone(), e)))
            .collect();
        let Some(at) = self.to_coordinator(group_id, cluster, out) else { return };
        out.at(
            at,
            GroupPending::CommitArrive {
                group: group_id.into(),
                client_id: client_id.into(),
                incarnation,
                member_id,
                generation,
                offsets,
                epochs,
            },
        );
    }

    /// The coordinator checks whether a member's session (`session.timeout.ms`) expired.
    pub(in crate::sim) fn session_check(&mut self, group_id: &str, member_id: &str, cluster: &Cluster, out: &mut Driver) {
        // Sessions are the coordinator's: none expires while the group has no coordinator,
        // and a coordinator that takes the group over after a failover gives every member
        // a fresh session (`GroupMetadataManager.onLoaded` reschedules each heartbeat).
        let session_ms = match self.protocol_of(group_id) {
            Some(GroupProtocol::Consumer) => cluster.config.group_consumer_session_timeout_ms,
            _ => self.groups.get(group_id).and_then(|g| g.registered(member_id)).map_or(0, |r| r.session_timeout_ms),
        };
        let fresh_until = match cluster.coordinator_since(group_id) {
            Some(since) => since.plus_ms(session_ms),
            None => out.now.plus_ms(session_ms.max(1)),
        };
        if fresh_until > out.now {
            out.at(fresh_until, GroupPending::SessionCheck { group: group_id.into(), member_id: member_id.into() });
            return;
        }
        match self.protocol_of(group_id) {
            Some(GroupProtocol::Classic) => self.classic_session_check(group_id, member_id, cluster, out),
            Some(GroupProtocol::Consumer) => self.cg_session_check(group_id, member_id, cluster, out),
            None => {}
        }
    }

    /// OffsetCommit: accepted from a member of the current generation (also while the
    /// group prepares a rebalance, which is how `onJoinPrepare` commits get in).
    pub(in crate::sim) fn commit_arrive(
        &mut self,
        group_id: &str,
        client_id: &str,
        member_id: &str,
        generation: i32,
        offsets: Vec<(TopicPartition, u64)>,
        epochs: Vec<(TopicPartition, u32)>,
        cluster: &Cluster,
        out: &mut Driver,
    ) {
        if cluster.coordinator_of(group_id).is_none() {
            return;
        }
        let cg_error = match self.protocol_of(group_id) {
            Some(GroupProtocol::Consumer) => Some(self.cg_commit_check(group_id, member_id, generation)),
            Some(GroupProtocol::Classic) | None => None,
        };
        let Some(g) = self.groups.get_mut(group_id) else { return };
        let error = if let Some(e) = cg_error {
            e
        } else if !g.registry.iter().any(|r| r.member_id == member_id) {
            Some(GroupError::UnknownMemberId)
        } else if generation != g.generation {
            Some(GroupError::IllegalGeneration)
        } else if g.state == GroupState::CompletingRebalance {
            Some(GroupError::RebalanceInProgress)
        } else {
            None
        };
        if let Some(error) = error {
            out.emit(EventKind::Consume(ConsumeEvent::CommitFailed {
                group: group_id.into(),
                client_id: client_id.into(),
                error,
                offsets,
            }));
            return;
        }
        let changed = offsets.iter().any(|(tp, o)| g.committed.get(tp) != Some(o));
        let epoch_of = |tp: &TopicPartition| epochs.iter().find(|(t, _)| t == tp).map(|(_, e)| *e);
        // Kafka commits every position each time; the trace shows only commits that
        // move an offset, so a quiet group does not fill it with repeats — and
        // `__consumer_offsets` gets a record for each offset that moved (or changed epoch).
        let moved: Vec<(TopicPartition, u64)> = offsets
            .iter()
            .filter(|(tp, o)| g.committed.get(tp) != Some(o) || g.committed_epochs.get(tp).copied() != epoch_of(tp))
            .cloned()
            .collect();
        for (tp, o) in &offsets {
            g.committed.insert(tp.clone(), *o);
            g.commit_times.insert(tp.clone(), out.now);
            match epoch_of(tp) {
                Some(e) => g.committed_epochs.insert(tp.clone(), e),
                None => g.committed_epochs.remove(tp),
            };
        }
        self.offsets.write_offsets(group_id, &moved, epoch_of, cluster, out);
        if changed {
            out.emit(EventKind::Consume(ConsumeEvent::OffsetsCommitted { group: group_id.into(), client_id: client_id.into(), offsets }));
        }
    }

    pub(in crate::sim) fn offset_fetch_arrive(
        &mut self,
        group_id: &str,
        client_id: &str,
        incarnation: u64,
        token: u64,
        partitions: Vec<TopicPartition>,
        cluster: &Cluster,
        out: &mut Driver,
    ) {
        if cluster.coordinator_of(group_id).is_none() {
            // The coordinator went away while the request was on its way (crashed, cut off,
            // or moving): the request fails (a disconnect, or `request.timeout.ms`) and
            // `ConsumerCoordinator.fetchCommittedOffsets` asks again once it finds a
            // coordinator, after `retry.backoff.ms` (100 ms). Without a retry the member
            // would wait for its positions forever.
            let current = self.consumer(group_id, client_id, incarnation).is_some_and(|m| m.token == token);
            if current {
                let again = out.now.plus_ms(2 * out.latency() + 100);
                out.at(
                    again,
                    GroupPending::OffsetFetchArrive { group: group_id.into(), client_id: client_id.into(), incarnation, token, partitions },
                );
            }
            return;
        }
        // Transactions (`txn.rs`): the Java consumer asks with `requireStable`; partitions
        // whose offsets a transaction still holds pending get UNSTABLE_OFFSET_COMMIT, and it
        // asks again after `retry.backoff.ms` (exponential up to `retry.backoff.max.ms`).
        let unstable = self.txn_unstable(group_id, &partitions);
        if !unstable.is_empty() {
            if self.consumer(group_id, client_id, incarnation).is_none() {
                return; // The asking process is gone.
            }
            let Some(m) = self.groups.get_mut(group_id).and_then(|g| g.member_mut(client_id)) else { return };
            let backoff = (100u64 << m.unstable_fetches.min(4)).min(1000);
            if m.unstable_fetches == 0 {
                let e = crate::event::TxnEvent::OffsetFetchUnstable {
                    group: group_id.into(),
                    client_id: client_id.into(),
                    partitions: unstable,
                };
                out.emit(EventKind::Txn(e));
            }
            m.unstable_fetches += 1;
            let again = out.now.plus_ms(2 * out.latency() + backoff);
            out.at(
                again,
                GroupPending::OffsetFetchArrive { group: group_id.into(), client_id: client_id.into(), incarnation, token, partitions },
            );
            return;
        }
        if let Some(m) = self.groups.get_mut(group_id).and_then(|g| g.member_mut(client_id)) {
            m.unstable_fetches = 0;
        }
        let reply = self.reply_at(out);
        let Some(g) = self.groups.get(group_id) else { return };
        let committed = partitions.into_iter().map(|tp| {
            let c = g.committed.get(&tp).map(|o| (*o, g.committed_epochs.get(&tp).copied()));
            (tp, c)
        });
        let committed = committed.collect();
        out.at(
            reply,
            GroupPending::OffsetFetchResponse { group: group_id.into(), client_id: client_id.into(), incarnation, token, committed },
        );
    }

    /// `partition.assignment.strategy` changes: the group rebalances with it.
    /// In Kafka this takes restarting every member with the new setting (a group cannot
    /// mix eager and cooperative members safely), so each member commits, gives up
    /// everything and rejoins — as a restart would.
    pub(in crate::sim) fn change_assignor(&mut self, group_id: &str, cluster: &Cluster, out: &mut Driver) {
        let now = out.now;
        let Some(g) = self.groups.get(group_id) else { return };
        if g.registry.is_empty() {
            return;
        }
        let clients: Vec<String> = g.members.iter().filter(|m| m.phase != Phase::Crashed).map(|m| m.client_id.to_string()).collect();
        self.prepare_rebalance(group_id, RebalanceCause::AssignorChanged, None, cluster, out);
        for c in clients {
            if self.groups.get(group_id).and_then(|g| g.member(&c)).is_some_and(|m| m.config.commit_mode == CommitMode::Auto) {
                self.commit_positions(group_id, &c, cluster, out);
            }
            let Some(m) = self.groups.get_mut(group_id).and_then(|g| g.member_mut(&c)) else { continue };
            m.last_assignment.clear();
            m.processing.clear();
            let revoked = m.lose_partitions(now);
            self.drop_parked_fetches(group_id, &c);
            self.record_revoked(group_id, &c, revoked, out);
            self.send_join(group_id, &c, cluster, out);
        }
    }
}

impl Sim {
    /// Applies a scheduled event of consumer groups, whatever their protocol: the heartbeat thread, session checks, offsets and LeaveGroup.
    pub(in crate::sim) fn handle_group(&mut self, pending: GroupPending) {
        match pending {
            GroupPending::OffsetFetchArrive { group, client_id, incarnation, token, partitions } => {
                self.consumers.offset_fetch_arrive(&group, &client_id, incarnation, token, partitions, &self.cluster, &mut self.out)
            }
            GroupPending::OffsetFetchResponse { group, client_id, incarnation, token, committed } => {
                self.consumers.offset_fetch_response(&group, &client_id, incarnation, token, committed, &self.cluster, &mut self.out)
            }
            GroupPending::HeartbeatTick { group, client_id, incarnation } => {
                self.consumers.heartbeat_tick(&group, &client_id, incarnation, &self.cluster, &mut self.out)
            }
            GroupPending::SessionCheck { group, member_id } => {
                self.consumers.session_check(&group, &member_id, &self.cluster, &mut self.out)
            }
            GroupPending::CommitArrive { group, client_id, member_id, generation, offsets, epochs, .. } => {
                self.consumers.commit_arrive(&group, &client_id, &member_id, generation, offsets, epochs, &self.cluster, &mut self.out)
            }
            GroupPending::OffsetsRetentionCheck => self.consumers.offsets_retention_check(&self.cluster, &mut self.out),
        }
    }
}

/// Commands to a consumer group or one of its members: checked against the cluster, then executed (the one line
/// `Sim::validate` and `Sim::execute` give this feature).
impl Sim {
    pub(in crate::sim) fn validate_group_command(&self, command: &GroupCommand) -> Result<(), CommandError> {
        match command {
            GroupCommand::AddMember { group, member } => {
                let Some(g) = self.consumers.groups.get(group) else {
                    return Err(CommandError::UnknownGroup(group.clone()));
                };
                self.validate_member(g.id.as_str(), &g.topics, member)?;
                if g.member(&member.client_id).is_some() {
                    return Err(CommandError::DuplicateMember { group: group.clone(), client_id: member.client_id.clone() });
                }
                if g.members.len() >= MAX_MEMBERS_PER_GROUP {
                    return Err(CommandError::GroupFull { group: group.clone() });
                }
                Ok(())
            }
            GroupCommand::CrashMember { group, client_id }
            | GroupCommand::RestartMember { group, client_id }
            | GroupCommand::PauseMember { group, client_id, .. }
            | GroupCommand::SetProcessing { group, client_id, .. }
            | GroupCommand::SetCommitMode { group, client_id, .. }
            | GroupCommand::RemoveMember { group, client_id } => {
                let Some(g) = self.consumers.groups.get(group) else {
                    return Err(CommandError::UnknownGroup(group.clone()));
                };
                if g.member(client_id).is_none() {
                    return Err(CommandError::UnknownMember { group: group.clone(), client_id: client_id.clone() });
                }
                Ok(())
            }
            GroupCommand::Seek { group, client_id, topic, partition, .. } => {
                let Some(g) = self.consumers.groups.get(group) else {
                    return Err(CommandError::UnknownGroup(group.clone()));
                };
                let Some(m) = g.member(client_id) else {
                    return Err(CommandError::UnknownMember { group: group.clone(), client_id: client_id.clone() });
                };
                if !self.cluster.topics.contains_key(topic) {
                    return Err(CommandError::UnknownTopic(topic.clone()));
                }
                let owned = m.assigned.iter().any(|tp| tp.topic == topic && partition.is_none_or(|p| tp.partition == p));
                if !owned {
                    return Err(CommandError::SeekUnassigned { client_id: client_id.clone(), topic: topic.clone(), partition: *partition });
                }
                Ok(())
            }
            GroupCommand::Subscribe { group, client_id, topics } => {
                let Some(g) = self.consumers.groups.get(group) else {
                    return Err(CommandError::UnknownGroup(group.clone()));
                };
                if g.member(client_id).is_none() {
                    return Err(CommandError::UnknownMember { group: group.clone(), client_id: client_id.clone() });
                }
                if topics.is_empty() {
                    return Err(CommandError::EmptySubscription { client_id: client_id.clone() });
                }
                for t in topics {
                    if !self.cluster.topics.contains_key(t) {
                        return Err(CommandError::UnknownTopic(t.clone()));
                    }
                }
                Ok(())
            }
            GroupCommand::AddGroup { group } => self.validate_group(group),
            GroupCommand::SetAssignor { group, assignor } => {
                let Some(g) = self.consumers.groups.get(group) else {
                    return Err(CommandError::UnknownGroup(group.clone()));
                };
                match g.config.group_protocol {
                    // KIP-848: the broker assigns (`group.remote.assignor`).
                    crate::config::GroupProtocol::Consumer => {
                        Err(CommandError::AssignorUnderConsumerProtocol { group: group.clone(), remote_assignor: g.config.remote_assignor })
                    }
                    crate::config::GroupProtocol::Classic => check_strategy(*assignor),
                }
            }
        }
    }

    pub(in crate::sim) fn execute_group_command(&mut self, command: GroupCommand) {
        match command {
            GroupCommand::AddMember { group, member } => self.consumers.join(&group, member, &self.cluster, &mut self.out),
            GroupCommand::RemoveMember { group, client_id } => self.consumers.leave(&group, &client_id, &self.cluster, &mut self.out),
            GroupCommand::AddGroup { group } => {
                let id = group.id.clone();
                let isolation_level = group.config.isolation_level;
                self.consumers.groups.insert(id.clone(), Group::new(id.clone(), group.topics, group.config));
                self.out.emit(EventKind::Group(GroupEvent::GroupCreated { group: id.clone() }));
                crate::sim::txn::group_created(&id, isolation_level, &mut self.out);
                for m in group.members {
                    self.consumers.join(&id, m, &self.cluster, &mut self.out);
                }
            }
            GroupCommand::SetAssignor { group, assignor } => {
                if let Some(g) = self.consumers.groups.get_mut(&group) {
                    g.config.assignor = assignor;
                    g.protocol = crate::group::RebalanceProtocol::for_assignor(assignor);
                    self.consumers.change_assignor(&group, &self.cluster, &mut self.out);
                }
            }
            GroupCommand::CrashMember { group, client_id } => {
                self.consumers.crash_member(&group, &client_id, &mut self.out);
                // A Streams instance's producer dies with it under exactly_once_v2 (`streams_eos.rs`).
                self.apps.streams_member_crashed(&group, &client_id, &mut self.clients, &mut self.out);
            }
            GroupCommand::RestartMember { group, client_id } => {
                self.apps.streams_member_restarted(&group, &client_id, &self.cluster, &mut self.clients, &mut self.out);
                self.consumers.restart_member(&group, &client_id, &self.cluster, &mut self.out)
            }
            GroupCommand::PauseMember { group, client_id, paused } => {
                self.consumers.pause_member(&group, &client_id, paused, &mut self.out)
            }
            GroupCommand::Seek { group, client_id, topic, partition, to } => {
                self.consumers.seek(&group, &client_id, &topic, partition, &to, &self.cluster, &mut self.out)
            }
            GroupCommand::Subscribe { group, client_id, topics } => {
                self.consumers.subscribe(&group, &client_id, topics, &self.cluster, &mut self.out)
            }
            GroupCommand::SetProcessing { group, client_id, processing_ms } => {
                if let Some(m) = self.consumers.groups.get_mut(&group).and_then(|g| g.member_mut(&client_id)) {
                    m.config.processing_ms = processing_ms.min(3_600_000);
                }
            }
            GroupCommand::SetCommitMode { group, client_id, commit_mode } => {
                if let Some(m) = self.consumers.groups.get_mut(&group).and_then(|g| g.member_mut(&client_id)) {
                    m.config.commit_mode = commit_mode;
                }
            }
        }
    }

    fn validate_group(&self, spec: &GroupSpec) -> Result<(), CommandError> {
        check_name(NameOf::GroupId, &spec.id)?;
        if self.consumers.groups.contains_key(&spec.id) {
            return Err(CommandError::DuplicateGroup(spec.id.clone()));
        }
        if self.consumers.groups.len() >= MAX_GROUPS {
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
        check_strategy(spec.config.assignor)?;
        push::check_push_config(&spec.id, &spec.config)?;
        if spec.members.len() > MAX_MEMBERS_PER_GROUP {
            return Err(CommandError::TooManyMembers { group: spec.id.clone(), members: spec.members.len() });
        }
        for (i, m) in spec.members.iter().enumerate() {
            self.validate_member(&spec.id, &spec.topics, m)?;
            if spec.members[..i].iter().any(|o| o.client_id == m.client_id) {
                return Err(CommandError::DuplicateMember { group: spec.id.clone(), client_id: m.client_id.clone() });
            }
        }
        Ok(())
    }

    fn validate_member(&self, group: &str, group_topics: &[String], m: &MemberSpec) -> Result<(), CommandError> {
        for t in m.topics.as_deref().unwrap_or(group_topics) {
            if !self.cluster.topics.contains_key(t) {
                return Err(CommandError::UnknownTopic(t.clone()));
            }
        }
        check_member_spec(group, m)
    }
}
