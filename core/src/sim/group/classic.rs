//! The classic consumer group protocol (KIP-62, KIP-345, KIP-394, KIP-429), as messages
//! with network latency between each consumer and its group's coordinator broker:
//! JoinGroup, SyncGroup, Heartbeat, LeaveGroup, OffsetCommit and OffsetFetch.
//!
//! Client side (`ConsumerCoordinator`/`AbstractCoordinator`): a consumer joins, the
//! leader runs the assignor and sends the assignment in its SyncGroup, every member then
//! fetches its committed offsets and consumes; a background heartbeat every
//! `heartbeat.interval.ms` learns of rebalances and enforces `max.poll.interval.ms`.
//! Coordinator side (`GroupCoordinator`): the group state machine, generations, session
//! timeouts, the initial rebalance delay, the rebalance timeout, static members.

use super::*;
use crate::event::GroupEvent;
use crate::event::{GroupError, LeaveReason};
use crate::group::{CommitMode, Phase, RebalanceProtocol, Registered};

/// Something scheduled in the classic group protocol: JoinGroup, SyncGroup, Heartbeat,
/// LeaveGroup, the join phase's deadlines and the metadata refresh.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum ClassicPending {
    /// A consumer (re)sends JoinGroup after FindCoordinator failed.
    ClientJoin {
        group: String,
        client_id: String,
        incarnation: u64,
    },
    JoinArrive {
        group: String,
        client_id: String,
        incarnation: u64,
        member_id: String,
        instance_id: Option<String>,
        subscription: Vec<String>,
        owned: Vec<TopicPartition>,
        generation: i32,
        session_ms: u64,
        rebalance_ms: u64,
    },
    JoinResponse {
        group: String,
        client_id: String,
        incarnation: u64,
        result: JoinResult,
    },
    /// The initial delay or the rebalance timeout of a join phase ends.
    JoinDeadline {
        group: String,
        round: u64,
    },
    SyncArrive {
        group: String,
        client_id: String,
        incarnation: u64,
        member_id: String,
        generation: i32,
        assignment: Option<VecMap<String, Vec<TopicPartition>>>,
    },
    /// The answer to the SyncGroup the member sent for `generation`.
    SyncResponse {
        group: String,
        client_id: String,
        incarnation: u64,
        generation: i32,
        result: Result<Vec<TopicPartition>, crate::event::GroupError>,
    },
    HeartbeatArrive {
        group: String,
        client_id: String,
        incarnation: u64,
        member_id: String,
        generation: i32,
    },
    HeartbeatResponse {
        group: String,
        client_id: String,
        incarnation: u64,
        error: Option<crate::event::GroupError>,
    },
    /// A consumer's periodic metadata refresh (`metadata.max.age.ms`).
    MetadataRefresh {
        group: String,
        client_id: String,
        incarnation: u64,
    },
    /// A LeaveGroup reaches the coordinator.
    LeaveArrive {
        group: String,
        member_id: String,
        reason: crate::event::LeaveReason,
    },
}

/// What the leader learns of each member in the JoinGroup answer: member id, instance
/// id, subscription, owned partitions and the generation they were owned in.
pub(crate) type JoinMember = (String, Option<String>, Vec<String>, Vec<TopicPartition>, i32);

/// The coordinator's answer to a JoinGroup.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum JoinResult {
    /// KIP-394: here is your member id; join again with it.
    MemberIdRequired(String),
    /// The join phase is over: the generation, whether you lead, and for the leader the
    /// members' subscriptions and owned partitions.
    Joined {
        generation: i32,
        member_id: String,
        leader: bool,
        members: Vec<JoinMember>,
    },
    Error(GroupError),
}

impl Consumers {
    /// A classic member starts: JoinGroup, the heartbeat thread, the metadata refresh.
    pub(in crate::sim) fn classic_start(&mut self, group_id: &str, client_id: &str, cluster: &Cluster, out: &mut Driver) {
        self.classic_send_join(group_id, client_id, cluster, out);
        self.start_heartbeats(group_id, client_id, out);
        self.start_metadata_refresh(group_id, client_id, out);
    }

    /// LeaveGroup to the coordinator (not sent when no coordinator is reachable).
    pub(in crate::sim) fn classic_send_leave(
        &mut self,
        group_id: &str,
        member_id: String,
        reason: LeaveReason,
        cluster: &Cluster,
        out: &mut Driver,
    ) {
        if let Some(at) = self.to_coordinator(group_id, cluster, out) {
            out.at(at, ClassicPending::LeaveArrive { group: group_id.into(), member_id, reason });
        }
    }

    pub(in crate::sim) fn classic_send_join(&mut self, group_id: &str, client_id: &str, cluster: &Cluster, out: &mut Driver) {
        let Some(g) = self.groups.get(group_id) else { return };
        let protocol = g.protocol;
        let Some(m) = g.member(client_id) else { return };
        if m.phase == Phase::Crashed {
            return;
        }
        let incarnation = m.incarnation;
        if m.join_in_flight {
            // One JoinGroup at a time: rejoin once the pending round is over, so the
            // coordinator learns what the member owns now.
            if let Some(m) = self.groups.get_mut(group_id).and_then(|g| g.member_mut(client_id)) {
                m.rejoin_needed = true;
            }
            return;
        }
        let Some(at) = self.to_coordinator(group_id, cluster, out) else {
            // FindCoordinator failed: try again after retry.backoff.ms.
            let at = out.now.plus_ms(100);
            out.at(at, ClassicPending::ClientJoin { group: group_id.into(), client_id: client_id.into(), incarnation });
            return;
        };
        // Cooperative: what it still owns. Eager: nothing is owned any more, but sticky
        // assignors carry the last assignment in their user data, to the same effect.
        let owned = if protocol == RebalanceProtocol::Cooperative { m.assigned.clone() } else { m.last_assignment.clone() };
        let pending = ClassicPending::JoinArrive {
            group: group_id.into(),
            client_id: client_id.into(),
            incarnation,
            member_id: m.member_id.clone(),
            instance_id: m.group_instance_id.clone(),
            subscription: m.topics.clone(),
            owned,
            generation: m.generation,
            session_ms: m.config.session_timeout_ms,
            rebalance_ms: m.config.max_poll_interval_ms,
        };
        let (member_id, generation) = (m.member_id.clone(), m.generation);
        if let Some(m) = self.groups.get_mut(group_id).and_then(|g| g.member_mut(client_id)) {
            m.phase = Phase::Joining;
            m.rejoin_needed = false;
            m.join_in_flight = true;
            if m.assigned.is_empty() {
                m.activity = Activity::AwaitingAssignment;
            }
        }
        out.emit(EventKind::Group(GroupEvent::JoinGroupSent {
            group: group_id.into(),
            client_id: client_id.into(),
            member_id,
            generation,
        }));
        out.at(at, pending);
    }

    /// The heartbeat thread: every `heartbeat.interval.ms`, and the KIP-62 check that the
    /// application still polls.
    pub(in crate::sim) fn classic_heartbeat_tick(
        &mut self,
        group_id: &str,
        client_id: &str,
        incarnation: u64,
        cluster: &Cluster,
        out: &mut Driver,
    ) {
        let now = out.now;
        let Some(m) = self.consumer(group_id, client_id, incarnation) else { return };
        // The application is outside poll() only while it processes or is stuck; a member
        // waiting for a rebalance is inside poll() and does not time out.
        let stuck = m.poll_deadline().is_some_and(|deadline| now >= deadline);
        let in_group = matches!(m.phase, Phase::Stable | Phase::Syncing | Phase::Joining) && !m.member_id.is_empty();
        let member_id = m.member_id.clone();
        let generation = m.generation;
        let phase = m.phase;
        let is_static = m.group_instance_id.is_some();
        if stuck && in_group {
            // Leave the group; the next poll() rejoins (`AbstractCoordinator.maybeLeaveGroup`).
            // Only a dynamic member sends LeaveGroup (`isDynamicMember()`, KIP-345): a static
            // one just forgets its member id and generation and stops heartbeating; the
            // coordinator keeps its place until `session.timeout.ms`, and its next poll()
            // takes it back without a rebalance.
            if !is_static {
                if let Some(at) = self.to_coordinator(group_id, cluster, out) {
                    out.at(at, ClassicPending::LeaveArrive { group: group_id.into(), member_id, reason: LeaveReason::PollTimeout });
                }
            }
            let Some(g) = self.groups.get_mut(group_id) else { return };
            g.poll_timeouts += 1;
            let Some(m) = g.member_mut(client_id) else { return };
            m.phase = Phase::LeftPollTimeout;
            m.member_id = String::new();
            m.generation = -1;
            let revoked = m.lose_partitions(out.now);
            self.record_revoked(group_id, client_id, revoked, out);
        } else if matches!(phase, Phase::Stable | Phase::Syncing) {
            // The heartbeat thread runs once the member has joined: in a stable generation
            // and while it waits for its assignment (COMPLETING_REBALANCE; only UNJOINED
            // and PREPARING_REBALANCE disable it, `AbstractCoordinator.HeartbeatThread`).
            // The coordinator answers NONE in CompletingRebalance and resets the session.
            if let Some(at) = self.to_coordinator(group_id, cluster, out) {
                out.at(
                    at,
                    ClassicPending::HeartbeatArrive {
                        group: group_id.into(),
                        client_id: client_id.into(),
                        incarnation,
                        member_id,
                        generation,
                    },
                );
            }
        }
        let Some(m) = self.groups.get(group_id).and_then(|g| g.member(client_id)) else { return };
        let at = m.next_heartbeat_wake(now, m.config.heartbeat_interval_ms);
        out.at(at, GroupPending::HeartbeatTick { group: group_id.into(), client_id: client_id.into(), incarnation });
    }

    /// `session.timeout.ms` passed without a heartbeat: the member is removed.
    pub(in crate::sim) fn classic_session_check(&mut self, group_id: &str, member_id: &str, cluster: &Cluster, out: &mut Driver) {
        let now = out.now;
        let Some(g) = self.groups.get(group_id) else { return };
        let Some(r) = g.registered(member_id) else { return };
        if r.session_deadline > now {
            return;
        }
        // A member whose JoinGroup or SyncGroup the coordinator is holding is alive
        // (`GroupCoordinator.shouldKeepMemberAlive`).
        let waiting = (g.state == GroupState::PreparingRebalance && r.joined)
            || (g.state == GroupState::CompletingRebalance && g.pending_sync.iter().any(|p| p == member_id));
        if waiting {
            let at = now.plus_ms(r.session_timeout_ms.max(1));
            self.schedule_session_check(group_id, member_id, at, out);
            return;
        }
        self.remove_member(group_id, member_id, LeaveReason::SessionTimeout, cluster, out);
    }

    fn start_metadata_refresh(&mut self, group_id: &str, client_id: &str, out: &mut Driver) {
        let Some(m) = self.groups.get(group_id).and_then(|g| g.member(client_id)) else { return };
        let at = out.now.plus_ms(m.config.metadata_max_age_ms.max(1));
        let incarnation = m.incarnation;
        out.at(at, ClassicPending::MetadataRefresh { group: group_id.into(), client_id: client_id.into(), incarnation });
    }

    /// Every `metadata.max.age.ms` the consumer refreshes metadata; only the leader acts on
    /// a grown topic (`ConsumerCoordinator.rejoinNeededOrPending`): it rejoins, and the
    /// group rebalances over the new partitions.
    pub(in crate::sim) fn metadata_refresh(
        &mut self,
        group_id: &str,
        client_id: &str,
        incarnation: u64,
        cluster: &Cluster,
        out: &mut Driver,
    ) {
        let Some(m) = self.consumer(group_id, client_id, incarnation) else { return };
        // Only the leader checks, against what it assigned: its own snapshot, never the
        // coordinator's state.
        let grown = m
            .leader_snapshot
            .iter()
            .flatten()
            .find(|(t, n)| cluster.topics.get(*t).is_some_and(|topic| topic.partition_count() != **n))
            .map(|(t, _)| t.clone());
        if let (true, Some(topic)) = (m.phase == Phase::Stable, grown) {
            out.emit(EventKind::Group(GroupEvent::MetadataChangeNoticed { group: group_id.into(), client_id: client_id.into(), topic }));
            self.revoke_for_rejoin(group_id, client_id, cluster, out);
            self.send_join(group_id, client_id, cluster, out);
        }
        self.start_metadata_refresh(group_id, client_id, out);
    }

    pub(in crate::sim) fn join_response(
        &mut self,
        group_id: &str,
        client_id: &str,
        incarnation: u64,
        result: JoinResult,
        cluster: &Cluster,
        out: &mut Driver,
    ) {
        if self.consumer(group_id, client_id, incarnation).is_none() {
            return;
        }
        if let Some(m) = self.groups.get_mut(group_id).and_then(|g| g.member_mut(client_id)) {
            m.join_in_flight = false;
        }
        match result {
            JoinResult::MemberIdRequired(member_id) => {
                if let Some(m) = self.groups.get_mut(group_id).and_then(|g| g.member_mut(client_id)) {
                    m.member_id = member_id.clone();
                }
                out.emit(EventKind::Group(GroupEvent::MemberIdRequired { group: group_id.into(), client_id: client_id.into(), member_id }));
                self.send_join(group_id, client_id, cluster, out);
            }
            JoinResult::Error(GroupError::CoordinatorNotAvailable) => {
                let at = out.now.plus_ms(100);
                out.at(at, ClassicPending::ClientJoin { group: group_id.into(), client_id: client_id.into(), incarnation });
            }
            JoinResult::Error(error @ GroupError::InvalidSessionTimeout) => {
                // `AbstractCoordinator.JoinGroupResponseHandler`: fatal; poll() throws
                // InvalidSessionTimeoutException and, unhandled, the consumer stops.
                out.emit(EventKind::ConsumerProtocol(ConsumerProtocolEvent::ConsumerFailed {
                    group: group_id.into(),
                    client_id: client_id.into(),
                    error,
                }));
                self.crash_member(group_id, client_id, out);
            }
            JoinResult::Error(_) => {
                if let Some(m) = self.groups.get_mut(group_id).and_then(|g| g.member_mut(client_id)) {
                    m.member_id = String::new();
                    m.generation = -1;
                }
                self.send_join(group_id, client_id, cluster, out);
            }
            JoinResult::Joined { generation, member_id, leader, members } => {
                let assignment = if leader { Some(self.run_assignor(group_id, &members, cluster)) } else { None };
                let snapshot = leader.then(|| {
                    members
                        .iter()
                        .flat_map(|m| m.2.iter())
                        .filter_map(|t| cluster.topics.get(t).map(|topic| (t.clone(), topic.partition_count())))
                        .collect::<VecMap<String, u32>>()
                });
                let Some(m) = self.groups.get_mut(group_id).and_then(|g| g.member_mut(client_id)) else { return };
                m.leader_snapshot = snapshot;
                m.generation = generation;
                m.member_id = member_id.clone();
                m.phase = Phase::Syncing;
                out.emit(EventKind::Group(GroupEvent::SyncGroupSent {
                    group: group_id.into(),
                    client_id: client_id.into(),
                    generation,
                    leader,
                }));
                let Some(at) = self.to_coordinator(group_id, cluster, out) else {
                    self.send_join(group_id, client_id, cluster, out);
                    return;
                };
                out.at(
                    at,
                    ClassicPending::SyncArrive {
                        group: group_id.into(),
                        client_id: client_id.into(),
                        incarnation,
                        member_id,
                        generation,
                        assignment,
                    },
                );
            }
        }
    }

    /// The leader runs the group's assignor over the members' subscriptions
    /// (`ConsumerCoordinator.onLeaderElected`); with the cooperative protocol, partitions
    /// that would change owner are withheld for a second round.
    fn run_assignor(&self, group_id: &str, members: &[JoinMember], cluster: &Cluster) -> VecMap<String, Vec<TopicPartition>> {
        let Some(g) = self.groups.get(group_id) else { return VecMap::new() };
        let mut partitions_per_topic = std::collections::BTreeMap::new();
        for (_, _, topics, _, _) in members {
            for t in topics {
                if let Some(topic) = cluster.topics.get(t) {
                    partitions_per_topic.insert(t.clone(), topic.partition_count());
                }
            }
        }
        let subscriptions: Vec<Subscription> = members
            .iter()
            .map(|(id, instance, topics, owned, generation)| Subscription {
                member_id: id.clone(),
                group_instance_id: instance.clone(),
                topics: topics.clone(),
                owned: owned.iter().map(|tp| (tp.topic.to_string(), tp.partition)).collect(),
                generation: Some(*generation),
            })
            .collect();
        // What Kafka's coordinator never sends a leader, the simulated one must not either:
        // the registry replaces a static member's entry, owned partitions come from
        // earlier assignments, and partition counts only grow.
        debug_assert_eq!(
            assign::check_leader_input(
                &cluster.topics.iter().map(|(name, topic)| (name.clone(), topic.partition_count())).collect(),
                &subscriptions
            ),
            Ok(())
        );
        // Strategies are checked when a group is created or changed, so this succeeds.
        let Ok(lists) = assign::assign_lists(g.config.assignor, &partitions_per_topic, &subscriptions) else { return VecMap::new() };
        super::member_lists(&lists)
    }

    pub(in crate::sim) fn sync_response(
        &mut self,
        group_id: &str,
        client_id: &str,
        incarnation: u64,
        generation: i32,
        result: Result<Vec<TopicPartition>, GroupError>,
        cluster: &Cluster,
        out: &mut Driver,
    ) {
        // An answer to an older SyncGroup (the member has rejoined since) is stale.
        let current =
            self.consumer(group_id, client_id, incarnation).is_some_and(|m| m.phase == Phase::Syncing && m.generation == generation);
        if !current {
            return;
        }
        let assignment = match result {
            Ok(a) => a,
            Err(e) => {
                if e == GroupError::UnknownMemberId {
                    if let Some(m) = self.groups.get_mut(group_id).and_then(|g| g.member_mut(client_id)) {
                        m.member_id = String::new();
                    }
                }
                self.revoke_for_rejoin(group_id, client_id, cluster, out);
                self.send_join(group_id, client_id, cluster, out);
                return;
            }
        };
        let Some(g) = self.groups.get_mut(group_id) else { return };
        let protocol = g.protocol;
        let Some(m) = g.member_mut(client_id) else { return };
        // A consumer ignores partitions of topics it does not subscribe to (Kafka's
        // sticky assignors can hand a previous owner such a partition back; the real
        // consumer then rejoins).
        let assignment: Vec<TopicPartition> = assignment.into_iter().filter(|tp| m.topics.iter().any(|t| t == tp.topic)).collect();
        let generation = m.generation;
        let revoked: Vec<TopicPartition> = m.assigned.iter().filter(|tp| !assignment.contains(tp)).cloned().collect();
        let added: Vec<TopicPartition> = assignment.iter().filter(|tp| !m.assigned.contains(tp)).cloned().collect();
        for tp in &revoked {
            m.positions.remove(tp);
            m.position_epochs.remove(tp);
        }
        m.assigned = assignment.clone();
        m.last_assignment = assignment.clone();
        if assignment.is_empty() && !revoked.is_empty() {
            // The rebalance took everything it had: it stops consuming from now on.
            m.stopped_since.get_or_insert(out.now);
        }
        m.token += 1;
        // `ConsumerCoordinator.onJoinComplete`: "Reschedule the auto commit starting from now".
        m.next_auto_commit = out.now.plus_ms(m.config.auto_commit_interval_ms);
        let token = m.token;
        let rejoin = protocol == RebalanceProtocol::Cooperative && !revoked.is_empty();
        self.record_revoked(group_id, client_id, revoked, out);
        out.emit(EventKind::Group(GroupEvent::PartitionsAssigned {
            group: group_id.into(),
            generation,
            client_id: client_id.into(),
            partitions: assignment,
        }));
        // OffsetFetch for the partitions it did not have.
        let Some(at) = self.to_coordinator(group_id, cluster, out) else {
            self.send_join(group_id, client_id, cluster, out);
            return;
        };
        out.at(
            at,
            GroupPending::OffsetFetchArrive { group: group_id.into(), client_id: client_id.into(), incarnation, token, partitions: added },
        );
        let asked_meanwhile = self.groups.get(group_id).and_then(|g| g.member(client_id)).is_some_and(|m| m.rejoin_needed);
        if asked_meanwhile {
            // A rejoin was asked for while this round was under way: eager members give
            // up what they just got first (`onJoinPrepare`), as for any rejoin.
            self.revoke_for_rejoin(group_id, client_id, cluster, out);
            self.send_join(group_id, client_id, cluster, out);
        } else if rejoin {
            // KIP-429: partitions moved away; a second rebalance hands them to their new owner.
            self.send_join(group_id, client_id, cluster, out);
        }
    }

    /// Before rejoining: eager members commit (auto-commit) and give everything up
    /// (`onJoinPrepare`); cooperative members commit and keep their partitions.
    pub(in crate::sim) fn revoke_for_rejoin(&mut self, group_id: &str, client_id: &str, cluster: &Cluster, out: &mut Driver) {
        let now = out.now;
        let Some(g) = self.groups.get(group_id) else { return };
        let protocol = g.protocol;
        let Some(m) = g.member(client_id) else { return };
        if m.config.commit_mode == CommitMode::Auto && !m.assigned.is_empty() {
            self.commit_positions(group_id, client_id, cluster, out);
        }
        if protocol == RebalanceProtocol::Eager {
            let Some(m) = self.groups.get_mut(group_id).and_then(|g| g.member_mut(client_id)) else { return };
            if m.assigned.is_empty() {
                return;
            }
            let revoked = m.lose_partitions(now);
            self.drop_parked_fetches(group_id, client_id);
            self.record_group(
                EventKind::Group(GroupEvent::PartitionsRevoked {
                    group: group_id.into(),
                    client_id: client_id.into(),
                    partitions: revoked,
                }),
                out,
            );
        }
    }

    // ----- client: heartbeats ----------------------------------------------------

    fn start_heartbeats(&mut self, group_id: &str, client_id: &str, out: &mut Driver) {
        let Some(m) = self.groups.get(group_id).and_then(|g| g.member(client_id)) else { return };
        let at = out.now.plus_ms(m.config.heartbeat_interval_ms);
        let incarnation = m.incarnation;
        out.at(at, GroupPending::HeartbeatTick { group: group_id.into(), client_id: client_id.into(), incarnation });
    }

    pub(in crate::sim) fn heartbeat_response(
        &mut self,
        group_id: &str,
        client_id: &str,
        incarnation: u64,
        error: Option<GroupError>,
        cluster: &Cluster,
        out: &mut Driver,
    ) {
        let Some(m) = self.consumer(group_id, client_id, incarnation) else { return };
        if m.phase != Phase::Stable {
            return;
        }
        match error {
            None => {}
            Some(GroupError::RebalanceInProgress) => {
                // The rejoin happens inside poll(): a member busy processing (or stuck)
                // rejoins only when it polls again, and the whole group waits for it.
                let busy = m.paused || !m.processing.is_empty();
                out.emit(EventKind::Group(GroupEvent::RebalanceNoticed { group: group_id.into(), client_id: client_id.into() }));
                if busy {
                    if let Some(m) = self.groups.get_mut(group_id).and_then(|g| g.member_mut(client_id)) {
                        m.rejoin_needed = true;
                    }
                } else {
                    self.revoke_for_rejoin(group_id, client_id, cluster, out);
                    self.send_join(group_id, client_id, cluster, out);
                }
            }
            Some(_) => {
                // Fenced (unknown member or stale generation): the partitions are lost,
                // not revoked — no commit (`onPartitionsLost`).
                let Some(m) = self.groups.get_mut(group_id).and_then(|g| g.member_mut(client_id)) else { return };
                m.member_id = String::new();
                m.generation = -1;
                let revoked = m.lose_partitions(out.now);
                self.record_revoked(group_id, client_id, revoked, out);
                self.send_join(group_id, client_id, cluster, out);
            }
        }
    }

    // ----- coordinator -------------------------------------------------------------------
    //
    // The coordinator knows of a member only what its requests carried (`Registered`):
    // it never reads the consumer's own state (`Member`: its incarnation, phase or
    // in-flight requests). Each request carries the client id and the incarnation of the
    // process that sent it, and each answer carries them back, so the consumer drops an
    // answer meant for an earlier incarnation (`Sim::consumer`).

    #[allow(clippy::too_many_arguments)]
    pub(in crate::sim) fn join_arrive(
        &mut self,
        group_id: &str,
        client_id: &str,
        incarnation: u64,
        member_id: String,
        instance_id: Option<String>,
        subscription: Vec<String>,
        owned: Vec<TopicPartition>,
        generation: i32,
        timeouts: (u64, u64),
        cluster: &Cluster,
        out: &mut Driver,
    ) {
        if cluster.coordinator_of(group_id).is_none() {
            // No coordinator (its broker went down on the way): the client hears
            // COORDINATOR_NOT_AVAILABLE and tries again.
            let reply = self.reply_at(out);
            out.at(
                reply,
                ClassicPending::JoinResponse {
                    group: group_id.into(),
                    client_id: client_id.into(),
                    incarnation,
                    result: JoinResult::Error(GroupError::CoordinatorNotAvailable),
                },
            );
            return;
        }
        if !(cluster.config.group_min_session_timeout_ms..=cluster.config.group_max_session_timeout_ms).contains(&timeouts.0) {
            // `GroupCoordinatorService.joinGroup`: outside the brokers' bounds, before the group is looked at.
            let result = JoinResult::Error(GroupError::InvalidSessionTimeout);
            let reply = self.reply_at(out);
            out.at(reply, ClassicPending::JoinResponse { group: group_id.into(), client_id: client_id.into(), incarnation, result });
            return;
        }
        let now = out.now;
        let reply = self.reply_at(out);
        let (session, rebalance_ms) = timeouts;
        let Some(g) = self.groups.get(group_id) else { return };
        let state = g.state;
        if member_id.is_empty() {
            let new_id = format!("{}-{}", instance_id.clone().unwrap_or_else(|| client_id.to_string()), out.rng.uuid_v4());
            let Some(g) = self.groups.get_mut(group_id) else { return };
            // KIP-345: a static member's new incarnation takes the old one's place.
            if let Some(instance) = &instance_id {
                let replaced = g.registry.iter_mut().find(|r| r.group_instance_id.as_ref() == Some(instance)).map(|r| {
                    let old = std::mem::replace(&mut r.member_id, new_id.clone());
                    r.session_deadline = now.plus_ms(session);
                    r.session_timeout_ms = session;
                    r.rebalance_timeout_ms = rebalance_ms;
                    r.joined = true;
                    r.incarnation = incarnation;
                    old
                });
                if let Some(old) = replaced {
                    if g.leader.as_ref() == Some(&old) {
                        g.leader = Some(new_id.clone());
                    }
                    g.pending_sync.retain(|p| *p != old);
                    let generation = g.generation;
                    let leader = g.leader.as_ref() == Some(&new_id);
                    let members = if leader { Self::member_list(g) } else { Vec::new() };
                    out.emit(EventKind::Group(GroupEvent::StaticMemberReplaced {
                        group: group_id.into(),
                        client_id: client_id.into(),
                        old_member_id: old,
                        member_id: new_id.clone(),
                    }));
                    self.schedule_session_check(group_id, &new_id, now.plus_ms(session), out);
                    if state == GroupState::CompletingRebalance {
                        // The leader may already have assigned the old member id, which the
                        // new one would never get: a new rebalance, in which this JoinGroup
                        // is answered (`GroupMetadataManager.updateStaticMemberThenRebalanceOrCompleteJoin`).
                        let cause = RebalanceCause::MemberRejoined { client_id: client_id.into() };
                        self.prepare_rebalance(group_id, cause, Some(&new_id), cluster, out);
                        self.try_complete_join(group_id, cluster, out);
                    } else if state == GroupState::Stable {
                        // No rebalance: it gets the generation it had and syncs.
                        out.at(
                            reply,
                            ClassicPending::JoinResponse {
                                group: group_id.into(),
                                client_id: client_id.into(),
                                incarnation,
                                result: JoinResult::Joined { generation, member_id: new_id, leader, members },
                            },
                        );
                    } else {
                        self.try_complete_join(group_id, cluster, out);
                    }
                    return;
                }
                // A static member joins directly, without MEMBER_ID_REQUIRED.
                self.register(
                    group_id,
                    (client_id, incarnation),
                    new_id,
                    instance_id,
                    subscription,
                    owned,
                    generation,
                    timeouts,
                    cluster,
                    out,
                );
                return;
            }
            out.at(
                reply,
                ClassicPending::JoinResponse {
                    group: group_id.into(),
                    client_id: client_id.into(),
                    incarnation,
                    result: JoinResult::MemberIdRequired(new_id.clone()),
                },
            );
            if let Some(g) = self.groups.get_mut(group_id) {
                g.pending_members.push(new_id);
            }
            return;
        }
        let known = g.registry.iter().any(|r| r.member_id == member_id);
        let pending = g.pending_members.contains(&member_id);
        if known {
            let Some(g) = self.groups.get_mut(group_id) else { return };
            let resubscribed = g.registry.iter().any(|r| r.member_id == member_id && r.subscription != subscription);
            // `ClassicGroupMember.matches`: the same protocol metadata as its last JoinGroup
            // (subscription, owned partitions and the generation they were owned in, which the
            // consumer's subscription carries). A follower of a Stable group, or any member of
            // a CompletingRebalance one, rejoining with the same metadata (it lost the answer)
            // gets the current generation back without a rebalance
            // (`GroupMetadataManager.classicGroupJoinExistingMember`).
            let unchanged = g.registry.iter().any(|r| {
                r.member_id == member_id && r.subscription == subscription && r.owned == owned && r.owned_generation == generation
            });
            let is_leader = g.leader.as_deref() == Some(member_id.as_str());
            let answer_current = unchanged && ((state == GroupState::Stable && !is_leader) || state == GroupState::CompletingRebalance);
            if answer_current {
                if let Some(r) = g.registry.iter_mut().find(|r| r.member_id == member_id) {
                    r.session_deadline = now.plus_ms(session);
                    r.incarnation = incarnation;
                }
                let members = if is_leader { Self::member_list(g) } else { Vec::new() };
                let result = JoinResult::Joined { generation: g.generation, member_id: member_id.clone(), leader: is_leader, members };
                self.schedule_session_check(group_id, &member_id, now.plus_ms(session), out);
                out.at(reply, ClassicPending::JoinResponse { group: group_id.into(), client_id: client_id.into(), incarnation, result });
                return;
            }
            if let Some(r) = g.registry.iter_mut().find(|r| r.member_id == member_id) {
                r.joined = true;
                r.subscription = subscription;
                r.owned = owned;
                r.owned_generation = generation;
                r.session_deadline = now.plus_ms(session);
                r.session_timeout_ms = session;
                r.rebalance_timeout_ms = rebalance_ms;
                r.incarnation = incarnation;
            }
            self.schedule_session_check(group_id, &member_id, now.plus_ms(session), out);
            if matches!(state, GroupState::Stable | GroupState::CompletingRebalance) {
                let cause = if resubscribed {
                    RebalanceCause::SubscriptionChanged { client_id: client_id.into() }
                } else {
                    RebalanceCause::MemberRejoined { client_id: client_id.into() }
                };
                self.prepare_rebalance(group_id, cause, Some(&member_id), cluster, out);
            }
            self.try_complete_join(group_id, cluster, out);
        } else if pending {
            if let Some(g) = self.groups.get_mut(group_id) {
                g.pending_members.retain(|p| *p != member_id);
            }
            self.register(
                group_id,
                (client_id, incarnation),
                member_id,
                instance_id,
                subscription,
                owned,
                generation,
                timeouts,
                cluster,
                out,
            );
        } else {
            out.at(
                reply,
                ClassicPending::JoinResponse {
                    group: group_id.into(),
                    client_id: client_id.into(),
                    incarnation,
                    result: JoinResult::Error(GroupError::UnknownMemberId),
                },
            );
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn register(
        &mut self,
        group_id: &str,
        (client_id, incarnation): (&str, u64),
        member_id: String,
        instance_id: Option<String>,
        subscription: Vec<String>,
        owned: Vec<TopicPartition>,
        generation: i32,
        (session_ms, rebalance_ms): (u64, u64),
        cluster: &Cluster,
        out: &mut Driver,
    ) {
        let now = out.now;
        let Some(g) = self.groups.get_mut(group_id) else { return };
        g.registry.push(Registered {
            member_id: member_id.clone(),
            client_id: client_id.into(),
            group_instance_id: instance_id,
            subscription,
            owned,
            owned_generation: generation,
            joined: true,
            session_deadline: now.plus_ms(session_ms),
            session_timeout_ms: session_ms,
            rebalance_timeout_ms: rebalance_ms,
            assignment: Vec::new(),
            incarnation,
            cg: Default::default(),
        });
        out.emit(EventKind::Group(GroupEvent::MemberJoined {
            group: group_id.into(),
            client_id: client_id.into(),
            member_id: member_id.clone(),
        }));
        self.schedule_session_check(group_id, &member_id, now.plus_ms(session_ms), out);
        self.prepare_rebalance(group_id, RebalanceCause::MemberJoined { client_id: client_id.into() }, Some(&member_id), cluster, out);
        self.try_complete_join(group_id, cluster, out);
    }

    fn member_list(g: &Group) -> Vec<JoinMember> {
        g.registry
            .iter()
            .map(|r| (r.member_id.clone(), r.group_instance_id.clone(), r.subscription.clone(), r.owned.clone(), r.owned_generation))
            .collect()
    }

    /// The largest rebalance timeout (`max.poll.interval.ms`) among the members.
    fn rebalance_timeout(&self, group_id: &str) -> u64 {
        self.groups.get(group_id).map(|g| g.registry.iter().map(|r| r.rebalance_timeout_ms).max().unwrap_or(300_000)).unwrap_or(300_000)
    }

    /// Enters (or stays in) PreparingRebalance. A group formed from empty waits
    /// `group.initial.rebalance.delay.ms`, re-armed by each new member up to the rebalance
    /// timeout (`InitialDelayedJoin`); otherwise the join phase ends when every member
    /// has rejoined or the rebalance timeout passes.
    pub(in crate::sim) fn prepare_rebalance(
        &mut self,
        group_id: &str,
        cause: RebalanceCause,
        joined_now: Option<&str>,
        cluster: &Cluster,
        out: &mut Driver,
    ) {
        let now = out.now;
        let initial_delay = cluster.config.group_initial_rebalance_delay_ms;
        let timeout = self.rebalance_timeout(group_id);
        let reply = self.reply_at(out);
        let Some(g) = self.groups.get_mut(group_id) else { return };
        let state = g.state;
        let mut refused_syncs = Vec::new();
        let due = match state {
            GroupState::Empty => {
                // `GroupMetadataManager.prepareRebalance` from Empty: wait
                // `group.initial.rebalance.delay.ms` (not capped), with what is left of the
                // rebalance timeout for further delays; if members joined meanwhile, wait
                // another (`tryCompleteInitialRebalanceElseSchedule`).
                g.initial_delay_since = Some(now);
                g.new_member_added = false;
                g.initial_remaining = timeout.saturating_sub(initial_delay);
                Some(now.plus_ms(initial_delay))
            }
            // Reconciling is the consumer protocol's; a classic group is never in it.
            GroupState::Stable | GroupState::CompletingRebalance | GroupState::Reconciling => {
                for r in &mut g.registry {
                    r.joined = joined_now == Some(r.member_id.as_str());
                }
                refused_syncs = std::mem::take(&mut g.pending_sync);
                Some(now.plus_ms(timeout))
            }
            GroupState::PreparingRebalance => {
                // A new member during the initial delay extends it: Kafka keys this on the
                // group's previous state being Empty (`newMemberAdded`), whatever the generation.
                if g.initial_delay_since.is_some() && matches!(cause, RebalanceCause::MemberJoined { .. }) {
                    g.new_member_added = true;
                }
                None
            }
        };
        g.state = GroupState::PreparingRebalance;
        if let Some(due) = due {
            g.round += 1;
            g.rebalance_due = Some(due);
            let round = g.round;
            out.at(due, ClassicPending::JoinDeadline { group: group_id.into(), round });
        }
        for member_id in refused_syncs {
            self.answer_sync(group_id, &member_id, Err(GroupError::RebalanceInProgress), reply, out);
        }
        if state != GroupState::PreparingRebalance {
            out.emit(EventKind::Group(GroupEvent::RebalanceStarted { group: group_id.into(), cause }));
        }
    }

    /// Completes the join phase once every member has rejoined (outside the initial delay).
    fn try_complete_join(&mut self, group_id: &str, cluster: &Cluster, out: &mut Driver) {
        let Some(g) = self.groups.get(group_id) else { return };
        if g.state == GroupState::PreparingRebalance && g.initial_delay_since.is_none() && g.registry.iter().all(|r| r.joined) {
            self.complete_join(group_id, cluster, out);
        }
    }

    pub(in crate::sim) fn join_deadline(&mut self, group_id: &str, round: u64, cluster: &Cluster, out: &mut Driver) {
        let Some(g) = self.groups.get_mut(group_id) else { return };
        if g.round != round || g.state != GroupState::PreparingRebalance {
            return;
        }
        if g.initial_delay_since.is_some() && g.new_member_added && g.initial_remaining > 0 {
            let initial_delay = cluster.config.group_initial_rebalance_delay_ms;
            let Some(g) = self.groups.get_mut(group_id) else { return };
            g.new_member_added = false;
            let delay = initial_delay.min(g.initial_remaining).max(1);
            g.initial_remaining -= delay.min(g.initial_remaining);
            g.round += 1;
            let round = g.round;
            let due = out.now.plus_ms(delay);
            g.rebalance_due = Some(due);
            out.at(due, ClassicPending::JoinDeadline { group: group_id.into(), round });
            return;
        }
        let Some(g) = self.groups.get_mut(group_id) else { return };
        if g.initial_delay_since.take().is_some() {
            self.try_complete_join(group_id, cluster, out);
            // Members still missing after the initial delay get the full rebalance timeout.
            let timeout = self.rebalance_timeout(group_id);
            let now = out.now;
            let Some(g) = self.groups.get_mut(group_id) else { return };
            if g.state == GroupState::PreparingRebalance {
                g.round += 1;
                let round = g.round;
                g.rebalance_due = Some(now.plus_ms(timeout));
                out.at(now.plus_ms(timeout), ClassicPending::JoinDeadline { group: group_id.into(), round });
            }
            return;
        }
        // The rebalance timeout: dynamic members that did not rejoin are removed; static ones
        // stay (their session timeout removes them) and are assigned in the new generation
        // (`GroupMetadataManager.completeClassicGroupJoin`). If nobody rejoined, the phase
        // waits another rebalance timeout (`maybeElectNewJoinedLeader` fails).
        let gone: Vec<Registered> = g.registry.iter().filter(|r| !r.joined && r.group_instance_id.is_none()).cloned().collect();
        g.registry.retain(|r| r.joined || r.group_instance_id.is_some());
        for r in &gone {
            g.pending_sync.retain(|p| *p != r.member_id);
        }
        let nobody_joined = !g.registry.is_empty() && !g.registry.iter().any(|r| r.joined);
        for r in gone {
            out.emit(EventKind::Group(GroupEvent::MemberLeft {
                group: group_id.into(),
                client_id: r.client_id.to_string(),
                member_id: r.member_id,
                reason: LeaveReason::RebalanceTimeout,
            }));
        }
        if nobody_joined {
            let timeout = self.rebalance_timeout(group_id);
            let now = out.now;
            let Some(g) = self.groups.get_mut(group_id) else { return };
            g.round += 1;
            let round = g.round;
            g.rebalance_due = Some(now.plus_ms(timeout));
            out.at(now.plus_ms(timeout), ClassicPending::JoinDeadline { group: group_id.into(), round });
            return;
        }
        self.complete_join(group_id, cluster, out);
    }

    /// A new generation: the leader (kept if still a member, else the first to join)
    /// gets everyone's subscriptions; every member gets the JoinGroup answer.
    fn complete_join(&mut self, group_id: &str, cluster: &Cluster, out: &mut Driver) {
        let reply = self.reply_at(out);
        let Some(g) = self.groups.get_mut(group_id) else { return };
        // `ClassicGroup.initNextGeneration`: a new generation even with no members left, the
        // group then Empty.
        g.generation += 1;
        if g.registry.is_empty() {
            g.become_empty(out.now);
            self.offsets.write_group(g, cluster, out);
            return;
        }
        g.state = GroupState::CompletingRebalance;
        g.rebalance_due = None;
        g.round += 1;
        // The leader stays if it rejoined, else the first member that did
        // (`ClassicGroup.maybeElectNewJoinedLeader`).
        let keep = g.leader.as_ref().filter(|l| g.registry.iter().any(|r| &r.member_id == *l && r.joined)).cloned();
        let first_joined = g.registry.iter().find(|r| r.joined).unwrap_or(&g.registry[0]).member_id.clone();
        let leader = keep.unwrap_or(first_joined);
        g.leader = Some(leader.clone());
        let generation = g.generation;
        let members = Self::member_list(g);
        let leader_client = g.registry.iter().find(|r| r.member_id == leader).map(|r| r.client_id.clone()).unwrap_or_default();
        let member_clients: Vec<String> = g.registry.iter().map(|r| r.client_id.to_string()).collect();
        let assignor = g.config.assignor.to_string();
        // Only members waiting in a JoinGroup are answered (a static member kept after the
        // rebalance timeout has no JoinGroup to answer).
        let answers: Vec<(String, u64, String)> =
            g.registry.iter().filter(|r| r.joined).map(|r| (r.client_id.to_string(), r.incarnation, r.member_id.clone())).collect();
        // Every member's session starts afresh with the join's answer
        // (`GroupCoordinator.onCompleteJoin`: `completeAndScheduleNextHeartbeatExpiration`
        // for each member), so a member waiting for a leader that never syncs is not timed
        // out on a session that began with its JoinGroup.
        let now = out.now;
        let sessions: Vec<(String, u64)> = g
            .registry
            .iter_mut()
            .map(|r| {
                r.session_deadline = now.plus_ms(r.session_timeout_ms);
                (r.member_id.clone(), r.session_timeout_ms)
            })
            .collect();
        for (member_id, session_ms) in sessions {
            self.schedule_session_check(group_id, &member_id, now.plus_ms(session_ms), out);
        }
        out.emit(EventKind::Group(GroupEvent::JoinPhaseCompleted {
            group: group_id.into(),
            generation,
            leader: leader_client.to_string(),
            members: member_clients,
            assignor,
        }));
        for (client_id, incarnation, member_id) in answers {
            let is_leader = member_id == leader;
            out.at(
                reply,
                ClassicPending::JoinResponse {
                    group: group_id.into(),
                    client_id,
                    incarnation,
                    result: JoinResult::Joined {
                        generation,
                        member_id,
                        leader: is_leader,
                        members: if is_leader { members.clone() } else { Vec::new() },
                    },
                },
            );
        }
    }

    pub(in crate::sim) fn sync_arrive(
        &mut self,
        group_id: &str,
        client_id: &str,
        incarnation: u64,
        member_id: String,
        generation: i32,
        assignment: Option<VecMap<String, Vec<TopicPartition>>>,
        cluster: &Cluster,
        out: &mut Driver,
    ) {
        if cluster.coordinator_of(group_id).is_none() {
            // No coordinator (its broker went down on the way): as for JoinGroup, the
            // client hears COORDINATOR_NOT_AVAILABLE (`SyncGroupResponseHandler`:
            // `markCoordinatorUnknown`) and joins again; without an answer it would wait
            // in Syncing for ever.
            let reply = self.reply_at(out);
            self.answer_sync_direct(group_id, client_id, incarnation, generation, Err(GroupError::CoordinatorNotAvailable), reply, out);
            return;
        }
        let reply = self.reply_at(out);
        let Some(g) = self.groups.get_mut(group_id) else { return };
        if !g.registry.iter().any(|r| r.member_id == member_id) {
            self.answer_sync_direct(group_id, client_id, incarnation, generation, Err(GroupError::UnknownMemberId), reply, out);
            return;
        }
        if generation != g.generation {
            self.answer_sync_direct(group_id, client_id, incarnation, generation, Err(GroupError::IllegalGeneration), reply, out);
            return;
        }
        match g.state {
            GroupState::PreparingRebalance | GroupState::Empty => {
                self.answer_sync_direct(group_id, client_id, incarnation, generation, Err(GroupError::RebalanceInProgress), reply, out);
            }
            GroupState::Stable | GroupState::Reconciling => {
                let a = g.registry.iter().find(|r| r.member_id == member_id).map(|r| r.assignment.clone()).unwrap_or_default();
                self.answer_sync_direct(group_id, client_id, incarnation, generation, Ok(a), reply, out);
            }
            GroupState::CompletingRebalance => {
                g.pending_sync.push(member_id.clone());
                if let Some(r) = g.registry.iter_mut().find(|r| r.member_id == member_id) {
                    r.incarnation = incarnation;
                }
                if let Some(assignment) = assignment {
                    for r in &mut g.registry {
                        r.assignment = assignment.get(&r.member_id).cloned().unwrap_or_default();
                    }
                    g.state = GroupState::Stable;
                    g.rebalances += 1;
                    let waiting = std::mem::take(&mut g.pending_sync);
                    out.emit(EventKind::Group(GroupEvent::GroupStable { group: group_id.into(), generation }));
                    if let Some(g) = self.groups.get(group_id) {
                        self.offsets.write_group(g, cluster, out);
                    }
                    for m in waiting {
                        let a = self.groups.get(group_id).and_then(|g| g.registered(&m)).map(|r| r.assignment.clone()).unwrap_or_default();
                        self.answer_sync(group_id, &m, Ok(a), reply, out);
                    }
                }
            }
        }
    }

    /// Answers a SyncGroup the coordinator held (sent for the group's current generation),
    /// addressed with the client id and incarnation that SyncGroup carried.
    fn answer_sync(
        &mut self,
        group_id: &str,
        member_id: &str,
        result: Result<Vec<TopicPartition>, GroupError>,
        at: SimTime,
        out: &mut Driver,
    ) {
        let Some(g) = self.groups.get(group_id) else { return };
        let generation = g.generation;
        let Some(r) = g.registered(member_id) else { return };
        let (client_id, incarnation) = (r.client_id.clone(), r.incarnation);
        out.at(
            at,
            ClassicPending::SyncResponse { group: group_id.into(), client_id: client_id.to_string(), incarnation, generation, result },
        );
    }

    #[allow(clippy::too_many_arguments)]
    fn answer_sync_direct(
        &mut self,
        group_id: &str,
        client_id: &str,
        incarnation: u64,
        generation: i32,
        result: Result<Vec<TopicPartition>, GroupError>,
        at: SimTime,
        out: &mut Driver,
    ) {
        out.at(at, ClassicPending::SyncResponse { group: group_id.into(), client_id: client_id.into(), incarnation, generation, result });
    }

    pub(in crate::sim) fn heartbeat_arrive(
        &mut self,
        group_id: &str,
        client_id: &str,
        incarnation: u64,
        member_id: String,
        generation: i32,
        cluster: &Cluster,
        out: &mut Driver,
    ) {
        if cluster.coordinator_of(group_id).is_none() {
            return;
        }
        let now = out.now;
        let reply = self.reply_at(out);
        let Some(g) = self.groups.get_mut(group_id) else { return };
        let mut session = 0;
        let error = match g.registry.iter_mut().find(|r| r.member_id == member_id) {
            None => Some(GroupError::UnknownMemberId),
            Some(_) if generation != g.generation => Some(GroupError::IllegalGeneration),
            Some(r) => {
                session = r.session_timeout_ms;
                r.session_deadline = now.plus_ms(session);
                match g.state {
                    GroupState::PreparingRebalance => Some(GroupError::RebalanceInProgress),
                    _ => None,
                }
            }
        };
        if session > 0 {
            self.schedule_session_check(group_id, &member_id, now.plus_ms(session), out);
        }
        out.at(reply, ClassicPending::HeartbeatResponse { group: group_id.into(), client_id: client_id.into(), incarnation, error });
    }

    fn schedule_session_check(&mut self, group_id: &str, member_id: &str, at: SimTime, out: &mut Driver) {
        out.at(at, GroupPending::SessionCheck { group: group_id.into(), member_id: member_id.into() });
    }

    pub(in crate::sim) fn leave_arrive(
        &mut self,
        group_id: &str,
        member_id: &str,
        reason: LeaveReason,
        cluster: &Cluster,
        out: &mut Driver,
    ) {
        if cluster.coordinator_of(group_id).is_none() {
            return;
        }
        self.remove_member(group_id, member_id, reason, cluster, out);
    }

    fn remove_member(&mut self, group_id: &str, member_id: &str, reason: LeaveReason, cluster: &Cluster, out: &mut Driver) {
        let Some(g) = self.groups.get_mut(group_id) else { return };
        let Some(i) = g.registry.iter().position(|r| r.member_id == member_id) else { return };
        let r = g.registry.remove(i);
        g.pending_sync.retain(|p| p != member_id);
        let empty = g.registry.is_empty();
        out.emit(EventKind::Group(GroupEvent::MemberLeft {
            group: group_id.into(),
            client_id: r.client_id.to_string(),
            member_id: member_id.into(),
            reason,
        }));
        if empty {
            if let Some(g) = self.groups.get_mut(group_id) {
                // The join phase this starts completes at once with nobody: a new generation,
                // Empty (`ClassicGroup.initNextGeneration`).
                g.generation += 1;
                g.become_empty(out.now);
                g.round += 1;
                self.offsets.write_group(g, cluster, out);
            }
        } else {
            self.prepare_rebalance(group_id, RebalanceCause::MemberLeft { client_id: r.client_id.to_string() }, None, cluster, out);
            self.try_complete_join(group_id, cluster, out);
        }
    }
}

impl Sim {
    /// Applies a scheduled event of the classic group protocol (JoinGroup, SyncGroup, Heartbeat).
    pub(in crate::sim) fn handle_classic(&mut self, pending: ClassicPending) {
        match pending {
            ClassicPending::ClientJoin { group, client_id, incarnation } => {
                if self.consumers.groups.get(&group).and_then(|g| g.member(&client_id)).is_some_and(|m| m.incarnation == incarnation) {
                    self.consumers.send_join(&group, &client_id, &self.cluster, &mut self.out);
                }
            }
            ClassicPending::JoinArrive {
                group,
                client_id,
                incarnation,
                member_id,
                instance_id,
                subscription,
                owned,
                generation,
                session_ms,
                rebalance_ms,
            } => self.consumers.join_arrive(
                &group,
                &client_id,
                incarnation,
                member_id,
                instance_id,
                subscription,
                owned,
                generation,
                (session_ms, rebalance_ms),
                &self.cluster,
                &mut self.out,
            ),
            ClassicPending::JoinResponse { group, client_id, incarnation, result } => {
                self.consumers.join_response(&group, &client_id, incarnation, result, &self.cluster, &mut self.out)
            }
            ClassicPending::JoinDeadline { group, round } => self.consumers.join_deadline(&group, round, &self.cluster, &mut self.out),
            ClassicPending::SyncArrive { group, client_id, incarnation, member_id, generation, assignment } => {
                self.consumers.sync_arrive(&group, &client_id, incarnation, member_id, generation, assignment, &self.cluster, &mut self.out)
            }
            ClassicPending::SyncResponse { group, client_id, incarnation, generation, result } => {
                self.consumers.sync_response(&group, &client_id, incarnation, generation, result, &self.cluster, &mut self.out)
            }
            ClassicPending::HeartbeatArrive { group, client_id, incarnation, member_id, generation } => {
                self.consumers.heartbeat_arrive(&group, &client_id, incarnation, member_id, generation, &self.cluster, &mut self.out)
            }
            ClassicPending::HeartbeatResponse { group, client_id, incarnation, error } => {
                self.consumers.heartbeat_response(&group, &client_id, incarnation, error, &self.cluster, &mut self.out)
            }
            ClassicPending::MetadataRefresh { group, client_id, incarnation } => {
                self.consumers.metadata_refresh(&group, &client_id, incarnation, &self.cluster, &mut self.out)
            }
            ClassicPending::LeaveArrive { group, member_id, reason } => {
                self.consumers.leave_arrive(&group, &member_id, reason, &self.cluster, &mut self.out)
            }
        }
    }
}

/// The classic coordinator's handlers alone: a `Consumers` holding one group, a `Cluster`
/// that places `__consumer_offsets`, and a `Driver`; no `Sim`.
#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::driver::Effect;

    fn world() -> (Cluster, Consumers, Driver) {
        let mut out = Driver::new(7, 20);
        let mut cluster = Cluster::new(ClusterConfig::default());
        cluster.create_offsets_topic(&mut out.rng);
        cluster.add_topic("t", 4, 3, TopicConfig::default(), &mut out);
        let mut consumers = Consumers::new();
        consumers.groups.insert("g".into(), Group::new("g", vec!["t".into()], crate::config::GroupConfig::default()));
        (cluster, consumers, Driver::new(7, 20))
    }

    fn join(c: &mut Consumers, cluster: &Cluster, out: &mut Driver, member_id: &str) {
        c.join_arrive("g", "c1", 0, member_id.into(), None, vec!["t".into()], vec![], -1, (45_000, 300_000), cluster, out);
    }

    #[test]
    fn a_first_join_is_answered_member_id_required_with_a_new_id_one_hop_later() {
        let (cluster, mut consumers, mut out) = world();
        join(&mut consumers, &cluster, &mut out, "");
        let [Effect::At {
            at,
            pending: Pending::Classic(ClassicPending::JoinResponse { client_id, result: JoinResult::MemberIdRequired(id), .. }),
        }] = out.effects()
        else {
            panic!("one answer: {:?}", out.effects());
        };
        assert_eq!((*at, client_id.as_str()), (SimTime(20), "c1"), "the network's latency later");
        assert!(id.starts_with("c1-") && id.len() == "c1-".len() + 36, "clientId-UUID (KIP-394): {id}");
        let g = &consumers.groups["g"];
        assert!(g.registry.is_empty() && g.pending_members == [id.clone()], "pending, not a member yet");
        assert_eq!(g.state, GroupState::Empty);
    }

    #[test]
    fn joining_again_with_the_given_id_registers_the_member_and_starts_a_rebalance() {
        let (cluster, mut consumers, mut out) = world();
        join(&mut consumers, &cluster, &mut out, "");
        let Some(Effect::At {
            pending: Pending::Classic(ClassicPending::JoinResponse { result: JoinResult::MemberIdRequired(id), .. }),
            ..
        }) = out.effects().first().cloned()
        else {
            panic!("{:?}", out.effects())
        };
        join(&mut consumers, &cluster, &mut out, &id);
        let g = &consumers.groups["g"];
        assert_eq!(g.registry.iter().map(|r| r.member_id.as_str()).collect::<Vec<_>>(), [id.as_str()]);
        assert_eq!(g.state, GroupState::PreparingRebalance, "a group formed from empty waits group.initial.rebalance.delay.ms");
        assert!(g.pending_members.is_empty());
    }

    /// `GroupMetadataManager.classicGroupJoinExistingMember`: a follower of a Stable group
    /// rejoining with the same metadata gets the current generation, no rebalance; with a
    /// changed generation (a new subscription of itself) it rebalances.
    #[test]
    fn a_follower_rejoining_with_unchanged_metadata_gets_the_current_generation() {
        let (cluster, mut consumers, mut out) = world();
        for (m, client) in [("m1", "c1"), ("m2", "c2")] {
            consumers.groups.get_mut("g").unwrap().pending_members.push(m.into());
            consumers.join_arrive("g", client, 0, m.into(), None, vec!["t".into()], vec![], -1, (45_000, 300_000), &cluster, &mut out);
        }
        let g = consumers.groups.get_mut("g").unwrap();
        g.state = GroupState::Stable;
        g.generation = 1;
        g.leader = Some("m1".into());
        g.initial_delay_since = None;
        let mut out = Driver::new(7, 20);
        consumers.join_arrive("g", "c2", 0, "m2".into(), None, vec!["t".into()], vec![], -1, (45_000, 300_000), &cluster, &mut out);
        assert_eq!(consumers.groups["g"].state, GroupState::Stable, "no rebalance");
        let answered = out.effects().iter().any(|e| {
            matches!(
                e,
                Effect::At {
                    pending: Pending::Classic(ClassicPending::JoinResponse {
                        result: JoinResult::Joined { generation: 1, leader: false, .. },
                        ..
                    }),
                    ..
                }
            )
        });
        assert!(answered, "{:?}", out.effects());
        // The same member after completing generation 1 sends generation 1: changed metadata.
        consumers.join_arrive("g", "c2", 0, "m2".into(), None, vec!["t".into()], vec![], 1, (45_000, 300_000), &cluster, &mut out);
        assert_eq!(consumers.groups["g"].state, GroupState::PreparingRebalance);
    }
}
