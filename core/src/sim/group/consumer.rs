//! The KIP-848 consumer group protocol (`group.protocol=consumer`, GA in Kafka 4.0).
//!
//! One RPC, ConsumerGroupHeartbeat, carries everything: a member joins with epoch 0,
//! heartbeats every `group.consumer.heartbeat.interval.ms` (a broker setting, sent back
//! in each answer) with the partitions it owns, and leaves with epoch -1 (-2 for a static
//! member, whose place is kept until its session times out).
//!
//! Coordinator side (`GroupMetadataManager.consumerGroupHeartbeat`): a membership change
//! bumps the **group epoch**; the coordinator then computes a new **target assignment**
//! with its own assignor ([`crate::assign::server`], `uniform` or `range`). Each member
//! advances towards its target on its own (`CurrentAssignmentBuilder`): first it revokes
//! what it must give up (state `UNREVOKED_PARTITIONS`, epoch unchanged); once its
//! heartbeat shows them gone it takes the new epoch and every target partition already
//! free, waiting (`UNRELEASED_PARTITIONS`) for the ones another member still holds. There
//! is no group-wide barrier: members that keep their partitions never stop consuming, and
//! a moving partition is paused only between its release and its new owner's next
//! heartbeat.
//!
//! Client side (`ConsumerMembershipManager`, no rebalance listener): an assignment in a
//! heartbeat answer is reconciled in the background — auto-commit, revoke, assign
//! — and acknowledged with an immediate heartbeat; from Kafka 4.1, with auto-commit on,
//! only inside the application's next `poll()` (KAFKA-18641). `max.poll.interval.ms`
//! still applies: a member that stops polling leaves (epoch -1, -2 if static) and rejoins
//! at its next `poll()`.
//!
//! Member ids are made by the consumer (KIP-1082, 4.0): a Kafka `Uuid`, kept across
//! rejoins of the same process.

use super::*;
use crate::assign::server::{assign_server, TopicMeta};
use crate::assign::Subscription;
use crate::event::{ConsumerProtocolEvent, GroupEvent};
use crate::event::{GroupError, LeaveReason};
use crate::group::{CommitMode, Phase, Reconcile, Registered};

/// Something scheduled in the KIP-848 consumer protocol: one of `Pending`'s features.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum ConsumerProtocolPending {
    /// KIP-848: a ConsumerGroupHeartbeat reaches the coordinator, and its answer the consumer.
    HeartbeatArrive {
        group: String,
        client_id: String,
        incarnation: u64,
        hb: CgHeartbeat,
    },
    HeartbeatResponse {
        group: String,
        client_id: String,
        incarnation: u64,
        answer: CgAnswer,
    },
    /// KIP-848: a member had until now to revoke partitions for its epoch.
    RevocationDeadline {
        group: String,
        member_id: String,
        epoch: i32,
    },
}

/// `LEAVE_GROUP_MEMBER_EPOCH`.
pub(crate) const LEAVE_EPOCH: i32 = -1;
/// `LEAVE_GROUP_STATIC_MEMBER_EPOCH`.
pub(crate) const LEAVE_STATIC_EPOCH: i32 = -2;

/// A ConsumerGroupHeartbeat request.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct CgHeartbeat {
    pub member_id: String,
    pub epoch: i32,
    pub instance_id: Option<String>,
    pub subscription: Vec<String>,
    pub owned: Vec<TopicPartition>,
    pub rebalance_timeout_ms: u64,
    /// Sandbox only, for epoch -1: why the consumer leaves (the trace shows it).
    pub leave_reason: LeaveReason,
}

/// A ConsumerGroupHeartbeat answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum CgAnswer {
    Ok { epoch: i32, assignment: Option<Vec<TopicPartition>>, interval_ms: u64 },
    Err(GroupError),
}

/// Why a consumer sends a heartbeat now.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Send {
    /// The regular beat.
    Steady,
    /// Join (epoch 0).
    Join,
    /// Acknowledge a reconciled assignment.
    Ack,
}

impl Consumers {
    // ----- client ------------------------------------------------------------------

    /// A consumer starts (or restarts): join with epoch 0, then beat.
    pub(in crate::sim) fn cg_start(&mut self, group_id: &str, client_id: &str, cluster: &Cluster, out: &mut Driver) {
        self.cg_send(group_id, client_id, Send::Join, cluster, out);
        let Some(m) = self.groups.get(group_id).and_then(|g| g.member(client_id)) else { return };
        let incarnation = m.incarnation;
        let at = out.now.plus_ms(cluster.config.group_consumer_heartbeat_interval_ms);
        out.at(at, GroupPending::HeartbeatTick { group: group_id.into(), client_id: client_id.into(), incarnation });
    }

    /// `join()` again: a fenced member, or one back from a poll timeout.
    pub(in crate::sim) fn cg_rejoin(&mut self, group_id: &str, client_id: &str, cluster: &Cluster, out: &mut Driver) {
        self.cg_send(group_id, client_id, Send::Join, cluster, out);
    }

    fn cg_send(&mut self, group_id: &str, client_id: &str, why: Send, cluster: &Cluster, out: &mut Driver) {
        let now = out.now;
        let Some(g) = self.groups.get(group_id) else { return };
        let Some(m) = g.member(client_id) else { return };
        if m.phase == Phase::Crashed || (m.phase == Phase::LeftPollTimeout && why != Send::Join) {
            return;
        }
        let incarnation = m.incarnation;
        if m.join_in_flight {
            // One heartbeat at a time; this one goes right after the answer.
            if why != Send::Steady {
                if let Some(m) = self.groups.get_mut(group_id).and_then(|g| g.member_mut(client_id)) {
                    m.cg_resend = true;
                }
            }
            return;
        }
        let Some(at) = self.to_coordinator(group_id, cluster, out) else {
            if why == Send::Join {
                // FindCoordinator failed: retry after retry.backoff.ms.
                let at = now.plus_ms(100);
                out.at(at, ClassicPending::ClientJoin { group: group_id.into(), client_id: client_id.into(), incarnation });
            }
            return;
        };
        let Some(m) = self.groups.get_mut(group_id).and_then(|g| g.member_mut(client_id)) else { return };
        if why == Send::Join {
            if m.member_id.is_empty() {
                m.member_id = out.rng.kafka_uuid();
            }
            m.generation = 0;
            m.phase = Phase::Joining;
            if m.assigned.is_empty() {
                m.activity = Activity::AwaitingAssignment;
            }
        }
        m.join_in_flight = true;
        m.cg_resend = false;
        let hb = CgHeartbeat {
            member_id: m.member_id.clone(),
            epoch: m.generation.max(0),
            instance_id: m.group_instance_id.clone(),
            subscription: m.topics.clone(),
            owned: m.assigned.clone(),
            rebalance_timeout_ms: m.config.max_poll_interval_ms,
            leave_reason: LeaveReason::Graceful,
        };
        if why != Send::Steady {
            out.emit(EventKind::ConsumerProtocol(ConsumerProtocolEvent::ConsumerHeartbeatSent {
                group: group_id.into(),
                client_id: client_id.into(),
                member_epoch: hb.epoch,
                owned: hb.owned.clone(),
            }));
        }
        out.at(at, ConsumerProtocolPending::HeartbeatArrive { group: group_id.into(), client_id: client_id.into(), incarnation, hb });
    }

    /// `subscribe()` changed the topics: the next heartbeat, sent now, carries them.
    pub(in crate::sim) fn cg_subscription_changed(&mut self, group_id: &str, client_id: &str, cluster: &Cluster, out: &mut Driver) {
        self.cg_send(group_id, client_id, Send::Ack, cluster, out);
    }

    /// Leaves: epoch -1 (or -2 for a static member closing). Nothing comes back that
    /// matters: the member is gone or no longer listening.
    pub(in crate::sim) fn cg_send_leave(
        &mut self,
        group_id: &str,
        client_id: &str,
        epoch: i32,
        reason: LeaveReason,
        cluster: &Cluster,
        out: &mut Driver,
    ) {
        let Some(m) = self.groups.get(group_id).and_then(|g| g.member(client_id)) else { return };
        if m.member_id.is_empty() {
            return;
        }
        let hb = CgHeartbeat {
            member_id: m.member_id.clone(),
            epoch,
            instance_id: m.group_instance_id.clone(),
            subscription: m.topics.clone(),
            owned: Vec::new(),
            rebalance_timeout_ms: m.config.max_poll_interval_ms,
            leave_reason: reason,
        };
        let incarnation = m.incarnation;
        out.emit(EventKind::ConsumerProtocol(ConsumerProtocolEvent::ConsumerHeartbeatSent {
            group: group_id.into(),
            client_id: client_id.into(),
            member_epoch: epoch,
            owned: Vec::new(),
        }));
        if let Some(at) = self.to_coordinator(group_id, cluster, out) {
            out.at(at, ConsumerProtocolPending::HeartbeatArrive { group: group_id.into(), client_id: client_id.into(), incarnation, hb });
        }
    }

    /// The heartbeat thread's tick: the KIP-62 poll check, then a steady heartbeat.
    pub(in crate::sim) fn cg_heartbeat_tick(
        &mut self,
        group_id: &str,
        client_id: &str,
        incarnation: u64,
        cluster: &Cluster,
        out: &mut Driver,
    ) {
        let now = out.now;
        let Some(m) = self.consumer(group_id, client_id, incarnation) else { return };
        let stuck = m.poll_deadline().is_some_and(|deadline| now >= deadline);
        let in_group = matches!(m.phase, Phase::Stable | Phase::Joining) && m.generation > 0;
        let interval = if m.cg_interval_ms > 0 { m.cg_interval_ms } else { cluster.config.group_consumer_heartbeat_interval_ms };
        if stuck && in_group {
            // Leave the group (`AbstractMembershipManager.transitionToSendingLeaveGroup(true)`,
            // epoch `leaveGroupEpoch()`: -2 for a static member, whose partitions the
            // coordinator keeps until its session times out); the partitions are lost (no
            // commit) and the next poll() rejoins with epoch 0.
            let epoch = if m.group_instance_id.is_some() { LEAVE_STATIC_EPOCH } else { LEAVE_EPOCH };
            self.cg_send_leave(group_id, client_id, epoch, LeaveReason::PollTimeout, cluster, out);
            self.cg_drop_partitions(group_id, client_id, false, cluster, out);
            if let Some(g) = self.groups.get_mut(group_id) {
                g.poll_timeouts += 1;
            }
            if let Some(m) = self.groups.get_mut(group_id).and_then(|g| g.member_mut(client_id)) {
                m.phase = Phase::LeftPollTimeout;
                m.generation = 0;
                m.join_in_flight = false;
            }
        } else {
            self.cg_send(group_id, client_id, Send::Steady, cluster, out);
        }
        let Some(m) = self.groups.get(group_id).and_then(|g| g.member(client_id)) else { return };
        let at = m.next_heartbeat_wake(now, interval);
        out.at(at, GroupPending::HeartbeatTick { group: group_id.into(), client_id: client_id.into(), incarnation });
    }

    /// Gives up every partition: with a commit first (`revoke`) or without (`lost`,
    /// after being fenced).
    fn cg_drop_partitions(&mut self, group_id: &str, client_id: &str, commit: bool, cluster: &Cluster, out: &mut Driver) {
        let now = out.now;
        let Some(m) = self.groups.get(group_id).and_then(|g| g.member(client_id)) else { return };
        if commit && m.config.commit_mode == CommitMode::Auto && !m.assigned.is_empty() {
            self.commit_positions(group_id, client_id, cluster, out);
        }
        let Some(m) = self.groups.get_mut(group_id).and_then(|g| g.member_mut(client_id)) else { return };
        m.cg_pending_assignment = None;
        let revoked = m.lose_partitions(now);
        self.drop_parked_fetches(group_id, client_id);
        self.record_revoked(group_id, client_id, revoked, out);
    }

    pub(in crate::sim) fn cg_heartbeat_response(
        &mut self,
        group_id: &str,
        client_id: &str,
        incarnation: u64,
        answer: CgAnswer,
        cluster: &Cluster,
        out: &mut Driver,
    ) {
        let Some(m) = self.consumer(group_id, client_id, incarnation) else { return };
        if m.phase == Phase::LeftPollTimeout {
            if let Some(m) = self.groups.get_mut(group_id).and_then(|g| g.member_mut(client_id)) {
                m.join_in_flight = false;
            }
            return;
        }
        if let Some(m) = self.groups.get_mut(group_id).and_then(|g| g.member_mut(client_id)) {
            m.join_in_flight = false;
        }
        match answer {
            CgAnswer::Err(GroupError::CoordinatorNotAvailable) => {
                let joining = self.groups.get(group_id).and_then(|g| g.member(client_id)).is_some_and(|m| m.generation <= 0);
                if joining {
                    let at = out.now.plus_ms(100);
                    out.at(at, ClassicPending::ClientJoin { group: group_id.into(), client_id: client_id.into(), incarnation });
                }
            }
            CgAnswer::Err(GroupError::UnreleasedInstanceId) => {
                // Fatal for the consumer (`handleFatalFailure`): the process stops.
                out.emit(EventKind::ConsumerProtocol(ConsumerProtocolEvent::ConsumerFailed {
                    group: group_id.into(),
                    client_id: client_id.into(),
                    error: GroupError::UnreleasedInstanceId,
                }));
                self.crash_member(group_id, client_id, out);
            }
            CgAnswer::Err(_) => {
                // Fenced or unknown: the partitions are lost (no commit); rejoin with
                // epoch 0 under the same member id.
                self.cg_drop_partitions(group_id, client_id, false, cluster, out);
                self.cg_send(group_id, client_id, Send::Join, cluster, out);
            }
            CgAnswer::Ok { epoch, assignment, interval_ms } => {
                let Some(m) = self.groups.get_mut(group_id).and_then(|g| g.member_mut(client_id)) else { return };
                m.cg_interval_ms = interval_ms;
                if epoch > 0 {
                    m.generation = epoch;
                }
                let resend = m.cg_resend;
                let changed = match assignment {
                    Some(a) => self.cg_reconcile_or_wait(group_id, client_id, a, cluster, out),
                    None => false,
                };
                if changed || resend {
                    self.cg_send(group_id, client_id, Send::Ack, cluster, out);
                }
            }
        }
    }

    /// A heartbeat answer brought an assignment. Kafka 4.0 reconciles it at once on the
    /// background thread. From 4.1 (KAFKA-18641, `AbstractMembershipManager.maybeReconcile`:
    /// `if (autoCommitEnabled && !canCommit) return;`), a consumer with auto-commit on
    /// reconciles only inside the application's next `poll()`, so the commit before the
    /// revocation covers only what the application has finished: the assignment waits in
    /// `cg_pending_assignment` while the member processes its batch (or is stuck), or until
    /// its fetch comes back. A member with nothing assigned and nothing in hand is blocked
    /// inside `poll()` and reconciles now. Returns whether it reconciled (an acknowledgement
    /// is then due).
    fn cg_reconcile_or_wait(
        &mut self,
        group_id: &str,
        client_id: &str,
        assignment: Vec<TopicPartition>,
        cluster: &Cluster,
        out: &mut Driver,
    ) -> bool {
        let Some(m) = self.groups.get_mut(group_id).and_then(|g| g.member_mut(client_id)) else { return false };
        let gated = cluster.config.kafka_version.reconciles_at_poll_with_auto_commit() && m.config.commit_mode == CommitMode::Auto;
        let polls_later = !m.processing.is_empty() || m.paused || !m.assigned.is_empty();
        if gated && polls_later {
            m.cg_pending_assignment = Some(assignment);
            return false;
        }
        m.cg_pending_assignment = None;
        self.cg_reconcile(group_id, client_id, assignment, cluster, out)
    }

    /// Inside `poll()` (Kafka 4.1+ with auto-commit, `maybeReconcile(true)` before the
    /// records are collected): reconciles the assignment that waited for it — pending
    /// revocation, a synchronous commit of what was consumed, revoke, assign — and
    /// acknowledges with an immediate heartbeat (`ACKNOWLEDGING`). Returns whether the
    /// member reconciled: its fetch loop then restarts with the committed offsets of what it
    /// gained (the OffsetFetch answer polls again).
    pub(in crate::sim) fn cg_reconcile_at_poll(&mut self, group_id: &str, client_id: &str, cluster: &Cluster, out: &mut Driver) -> bool {
        let Some(m) = self.groups.get_mut(group_id).and_then(|g| g.member_mut(client_id)) else { return false };
        let Some(assignment) = m.cg_pending_assignment.take() else { return false };
        let changed = self.cg_reconcile(group_id, client_id, assignment, cluster, out);
        if changed {
            self.cg_send(group_id, client_id, Send::Ack, cluster, out);
        }
        changed
    }

    /// Applies a new assignment: commit (auto-commit) and revoke what is gone, take what
    /// is new (its committed offsets come with an OffsetFetch). Returns whether anything
    /// changed (an acknowledgement is then due).
    fn cg_reconcile(
        &mut self,
        group_id: &str,
        client_id: &str,
        assignment: Vec<TopicPartition>,
        cluster: &Cluster,
        out: &mut Driver,
    ) -> bool {
        let now = out.now;
        let Some(g) = self.groups.get(group_id) else { return false };
        let Some(m) = g.member(client_id) else { return false };
        let mut assignment: Vec<TopicPartition> = assignment.into_iter().filter(|tp| m.topics.iter().any(|t| t == tp.topic)).collect();
        crate::sorted::sort(&mut assignment);
        let revoked: Vec<TopicPartition> = m.assigned.iter().filter(|tp| !assignment.contains(tp)).cloned().collect();
        let added: Vec<TopicPartition> = assignment.iter().filter(|tp| !m.assigned.contains(tp)).cloned().collect();
        let first = m.phase == Phase::Joining;
        if revoked.is_empty() && added.is_empty() && !first {
            return false;
        }
        if !revoked.is_empty() && m.config.commit_mode == CommitMode::Auto {
            // `autoCommitSyncBeforeRevocation`: commit all consumed positions first.
            self.commit_positions(group_id, client_id, cluster, out);
        }
        let Some(m) = self.groups.get_mut(group_id).and_then(|g| g.member_mut(client_id)) else { return false };
        for tp in &revoked {
            m.positions.remove(tp);
            m.position_epochs.remove(tp);
        }
        m.assigned = assignment.clone();
        m.last_assignment = assignment.clone();
        m.token += 1;
        m.phase = Phase::Syncing;
        // `ConsumerMembershipManager.signalReconciliationCompleting`: the auto-commit timer
        // restarts with each new assignment.
        m.next_auto_commit = now.plus_ms(m.config.auto_commit_interval_ms);
        if assignment.is_empty() && m.stopped_since.is_none() && !revoked.is_empty() {
            m.stopped_since = Some(now);
        }
        let token = m.token;
        let incarnation = m.incarnation;
        let epoch = m.generation;
        self.drop_parked_fetches(group_id, client_id);
        self.record_revoked(group_id, client_id, revoked.clone(), out);
        out.emit(EventKind::ConsumerProtocol(ConsumerProtocolEvent::AssignmentReconciled {
            group: group_id.into(),
            client_id: client_id.into(),
            epoch,
            partitions: assignment,
        }));
        match self.to_coordinator(group_id, cluster, out) {
            Some(at) => out.at(
                at,
                GroupPending::OffsetFetchArrive {
                    group: group_id.into(),
                    client_id: client_id.into(),
                    incarnation,
                    token,
                    partitions: added,
                },
            ),
            None => {
                // No coordinator for the OffsetFetch: resume the partitions it kept (their
                // positions are known) and pick the new ones up at the next assignment.
                if let Some(m) = self.groups.get_mut(group_id).and_then(|g| g.member_mut(client_id)) {
                    m.phase = Phase::Stable;
                    m.assigned.retain(|tp| m.positions.contains_key(tp));
                    if m.processing.is_empty() && !m.paused {
                        out.at(now, ConsumePending::Poll { group: group_id.into(), client_id: client_id.into(), token });
                    }
                }
            }
        }
        true
    }

    // ----- coordinator ---------------------------------------------------------------

    fn cg_answer(&mut self, group_id: &str, client_id: &str, incarnation: u64, answer: CgAnswer, out: &mut Driver) {
        let at = self.reply_at(out);
        out.at(at, ConsumerProtocolPending::HeartbeatResponse { group: group_id.into(), client_id: client_id.into(), incarnation, answer });
    }

    pub(in crate::sim) fn cg_heartbeat_arrive(
        &mut self,
        group_id: &str,
        client_id: &str,
        incarnation: u64,
        hb: CgHeartbeat,
        cluster: &Cluster,
        out: &mut Driver,
    ) {
        if cluster.coordinator_of(group_id).is_none() {
            self.cg_answer(group_id, client_id, incarnation, CgAnswer::Err(GroupError::CoordinatorNotAvailable), out);
            return;
        }
        let now = out.now;
        let session_ms = cluster.config.group_consumer_session_timeout_ms;
        let interval_ms = cluster.config.group_consumer_heartbeat_interval_ms;
        let Some(g) = self.groups.get(group_id) else { return };
        match hb.epoch {
            LEAVE_EPOCH => {
                if g.registered(&hb.member_id).is_some() {
                    self.cg_remove(group_id, &hb.member_id, hb.leave_reason, cluster, out);
                }
                return;
            }
            LEAVE_STATIC_EPOCH => {
                let Some(g) = self.groups.get_mut(group_id) else { return };
                if let Some(r) = g.registry.iter_mut().find(|r| r.member_id == hb.member_id) {
                    // Its place and partitions wait for the next incarnation until the
                    // session times out.
                    r.cg.left_static = true;
                    r.session_deadline = now.plus_ms(session_ms);
                    self.schedule_cg_session_check(group_id, &hb.member_id, now.plus_ms(session_ms), out);
                }
                return;
            }
            0 => {
                if !self.cg_join_arrive(group_id, client_id, incarnation, &hb, cluster, out) {
                    return;
                }
            }
            epoch => {
                let Some(r) = g.registered(&hb.member_id) else {
                    self.cg_answer(group_id, client_id, incarnation, CgAnswer::Err(GroupError::UnknownMemberId), out);
                    return;
                };
                // `GroupMetadataManager.throwIfConsumerGroupMemberEpochIsInvalid`: a newer
                // epoch, or an older one other than the previous epoch with nothing owned
                // outside its assignment (the answer that bumped it may have been lost), is
                // refused with FENCED_MEMBER_EPOCH. The refusal changes nothing at the
                // coordinator — no removal, no new group epoch, no session renewal: the member
                // gives its partitions up and rejoins with epoch 0 under the same id.
                let previous_ok = epoch == r.cg.previous_epoch && hb.owned.iter().all(|tp| r.assignment.contains(tp));
                if epoch > r.cg.member_epoch || (epoch < r.cg.member_epoch && !previous_ok) {
                    self.cg_answer(group_id, client_id, incarnation, CgAnswer::Err(GroupError::FencedMemberEpoch), out);
                    return;
                }
            }
        }
        // A live member: its session is renewed and what it owns is noted.
        let Some(g) = self.groups.get_mut(group_id) else { return };
        let Some(r) = g.registry.iter_mut().find(|r| r.member_id == hb.member_id) else { return };
        r.session_deadline = now.plus_ms(session_ms);
        r.session_timeout_ms = session_ms;
        r.rebalance_timeout_ms = hb.rebalance_timeout_ms;
        r.owned = hb.owned.clone();
        r.joined = true;
        let resubscribed = r.subscription != hb.subscription;
        if resubscribed {
            r.subscription = hb.subscription.clone();
        }
        let client = r.client_id.clone();
        self.schedule_cg_session_check(group_id, &hb.member_id, now.plus_ms(session_ms), out);
        // The coordinator watches the subscribed topics' metadata.
        let grown = self.groups.get(group_id).and_then(|g| {
            g.assigned_counts
                .iter()
                .find(|(t, n)| cluster.topics.get(*t).is_some_and(|topic| topic.partition_count() != **n))
                .map(|(t, _)| t.clone())
        });
        if let Some(topic) = grown {
            self.cg_bump(group_id, RebalanceCause::TopicMetadataChanged { topic }, cluster, out);
        } else if resubscribed {
            self.cg_bump(group_id, RebalanceCause::SubscriptionChanged { client_id: client.to_string() }, cluster, out);
        }
        self.cg_advance(group_id, &hb.member_id, Some(&hb.owned), out);
        let Some(g) = self.groups.get(group_id) else { return };
        let Some(r) = g.registered(&hb.member_id) else { return };
        let mut owned = hb.owned.clone();
        crate::sorted::sort(&mut owned);
        let assignment = if owned != r.assignment || hb.epoch != r.cg.member_epoch { Some(r.assignment.clone()) } else { None };
        let epoch = r.cg.member_epoch;
        self.cg_update_state(group_id, out);
        self.cg_answer(group_id, client_id, incarnation, CgAnswer::Ok { epoch, assignment, interval_ms }, out);
    }

    /// Epoch 0: a new member, or a static member's new incarnation. Returns whether the
    /// heartbeat goes on to be handled as a live member's.
    fn cg_join_arrive(
        &mut self,
        group_id: &str,
        client_id: &str,
        incarnation: u64,
        hb: &CgHeartbeat,
        cluster: &Cluster,
        out: &mut Driver,
    ) -> bool {
        let now = out.now;
        let session_ms = cluster.config.group_consumer_session_timeout_ms;
        let Some(g) = self.groups.get_mut(group_id) else { return false };
        if let Some(instance) = &hb.instance_id {
            if let Some(r) = g.registry.iter_mut().find(|r| r.group_instance_id.as_ref() == Some(instance) && r.member_id != hb.member_id) {
                if !r.cg.left_static {
                    // The old incarnation never left (it crashed): the id is not released.
                    self.cg_answer(group_id, client_id, incarnation, CgAnswer::Err(GroupError::UnreleasedInstanceId), out);
                    return false;
                }
                // KIP-848 static membership: the new member takes the old one's place,
                // epoch and assignment; no new group epoch.
                let old = std::mem::replace(&mut r.member_id, hb.member_id.clone());
                r.client_id = client_id.into();
                r.cg.left_static = false;
                r.session_deadline = now.plus_ms(session_ms);
                if let Some(t) = g.target.remove(&old) {
                    g.target.insert(hb.member_id.clone(), t);
                }
                if let Some(t) = g.target_records.remove(&old) {
                    g.target_records.insert(hb.member_id.clone(), t);
                }
                out.emit(EventKind::Group(GroupEvent::StaticMemberReplaced {
                    group: group_id.into(),
                    client_id: client_id.into(),
                    old_member_id: old,
                    member_id: hb.member_id.clone(),
                }));
                return true;
            }
        }
        if let Some(r) = g.registry.iter_mut().find(|r| r.member_id == hb.member_id) {
            // Joining again under its id (a retried join): start over from nothing.
            r.cg = Default::default();
            r.assignment.clear();
            return true;
        }
        g.registry.push(Registered {
            member_id: hb.member_id.clone(),
            client_id: client_id.into(),
            group_instance_id: hb.instance_id.clone(),
            subscription: hb.subscription.clone(),
            owned: Vec::new(),
            owned_generation: 0,
            joined: true,
            session_deadline: now.plus_ms(session_ms),
            session_timeout_ms: session_ms,
            rebalance_timeout_ms: hb.rebalance_timeout_ms,
            assignment: Vec::new(),
            incarnation,
            cg: Default::default(),
        });
        out.emit(EventKind::Group(GroupEvent::MemberJoined {
            group: group_id.into(),
            client_id: client_id.into(),
            member_id: hb.member_id.clone(),
        }));
        self.cg_bump(group_id, RebalanceCause::MemberJoined { client_id: client_id.into() }, cluster, out);
        true
    }

    /// A new group epoch and, at once, its target assignment.
    fn cg_bump(&mut self, group_id: &str, cause: RebalanceCause, cluster: &Cluster, out: &mut Driver) {
        let Some(g) = self.groups.get_mut(group_id) else { return };
        g.generation += 1;
        let epoch = g.generation;
        out.emit(EventKind::ConsumerProtocol(ConsumerProtocolEvent::GroupEpochBumped { group: group_id.into(), epoch, cause }));
        self.offsets.write_group(g, cluster, out);
        self.cg_compute_target(group_id, cluster, out);
    }

    fn cg_compute_target(&mut self, group_id: &str, cluster: &Cluster, out: &mut Driver) {
        let Some(g) = self.groups.get(group_id) else { return };
        let mut metadata = std::collections::BTreeMap::new();
        for r in &g.registry {
            for t in &r.subscription {
                if let Some(topic) = cluster.topics.get(t) {
                    metadata.insert(t.clone(), TopicMeta { id: topic.id, partitions: topic.partition_count() });
                }
            }
        }
        let subscriptions: Vec<Subscription> = g
            .registry
            .iter()
            .map(|r| Subscription {
                member_id: r.member_id.clone(),
                group_instance_id: r.group_instance_id.clone(),
                topics: r.subscription.clone(),
                owned: g
                    .target_records
                    .get(&r.member_id)
                    .map(|ps| ps.iter().map(|tp| (tp.topic.to_string(), tp.partition)).collect())
                    .unwrap_or_default(),
                generation: None,
            })
            .collect();
        let assignor = g.config.remote_assignor;
        let result = assign_server(assignor, &metadata, &subscriptions);
        let records: VecMap<String, Vec<TopicPartition>> =
            result.records.into_iter().map(|(m, ps)| (m, ps.into_iter().map(|(t, p)| TopicPartition::new(&t, p)).collect())).collect();
        let partitions_per_topic: std::collections::BTreeMap<String, u32> = metadata.into_iter().map(|(t, m)| (t, m.partitions)).collect();
        let target: VecMap<String, Vec<TopicPartition>> = super::flatten_assignment(result.assignment).collect();
        let shown: Vec<(String, Vec<TopicPartition>)> =
            g.registry.iter().map(|r| (r.client_id.to_string(), target.get(&r.member_id).cloned().unwrap_or_default())).collect();
        let Some(g) = self.groups.get_mut(group_id) else { return };
        g.target = target;
        g.target_records = records;
        g.assignment_epoch = g.generation;
        g.assigned_counts = partitions_per_topic.into_iter().collect();
        let epoch = g.generation;
        out.emit(EventKind::ConsumerProtocol(ConsumerProtocolEvent::TargetAssignmentComputed {
            group: group_id.into(),
            epoch,
            assignor: assignor.to_string(),
            target: shown,
        }));
    }

    /// `CurrentAssignmentBuilder`: moves a member towards its target as far as it can now.
    /// `owned` is what its heartbeat says it still has (None: no heartbeat, just a check).
    fn cg_advance(&mut self, group_id: &str, member_id: &str, owned: Option<&[TopicPartition]>, out: &mut Driver) {
        let now = out.now;
        let Some(g) = self.groups.get(group_id) else { return };
        let target_epoch = g.assignment_epoch;
        let target = g.target.get(member_id).cloned().unwrap_or_default();
        let Some(r) = g.registered(member_id) else { return };
        let held_elsewhere = |tp: &TopicPartition| {
            g.registry.iter().any(|o| o.member_id != member_id && (o.assignment.contains(tp) || o.cg.pending_revocation.contains(tp)))
        };
        let mut cg = r.cg.clone();
        let mut assignment = r.assignment.clone();
        if cg.state == Reconcile::UnrevokedPartitions {
            let still = owned.is_none_or(|o| o.iter().any(|tp| cg.pending_revocation.contains(tp)));
            if still {
                return;
            }
            cg.pending_revocation.clear();
            cg.revoke_deadline = None;
        }
        if cg.state == Reconcile::Stable && cg.member_epoch == target_epoch {
            return;
        }
        let keep: Vec<TopicPartition> = assignment.iter().filter(|tp| target.contains(tp)).cloned().collect();
        let revoke: Vec<TopicPartition> = assignment.iter().filter(|tp| !target.contains(tp)).cloned().collect();
        let client_id = r.client_id.clone();
        let rebalance_timeout = r.rebalance_timeout_ms;
        let mut event = None;
        if !revoke.is_empty() {
            assignment = keep;
            cg.state = Reconcile::UnrevokedPartitions;
            cg.pending_revocation = revoke.clone();
            cg.revoke_deadline = Some(now.plus_ms(rebalance_timeout));
            event = Some(EventKind::ConsumerProtocol(ConsumerProtocolEvent::MemberReconciling {
                group: group_id.into(),
                client_id: client_id.to_string(),
                epoch: cg.member_epoch,
                revoking: revoke,
                unreleased: Vec::new(),
            }));
        } else {
            let mut next = keep;
            let mut unreleased = Vec::new();
            for tp in &target {
                if next.contains(tp) {
                    continue;
                }
                if held_elsewhere(tp) {
                    unreleased.push(tp.clone());
                } else {
                    next.push(tp.clone());
                }
            }
            crate::sorted::sort(&mut next);
            let moved = cg.member_epoch != target_epoch || next != assignment;
            if cg.member_epoch != target_epoch {
                cg.previous_epoch = cg.member_epoch;
                cg.member_epoch = target_epoch;
            }
            cg.state = if unreleased.is_empty() { Reconcile::Stable } else { Reconcile::UnreleasedPartitions };
            assignment = next;
            if moved {
                event = Some(EventKind::ConsumerProtocol(ConsumerProtocolEvent::MemberReconciling {
                    group: group_id.into(),
                    client_id: client_id.to_string(),
                    epoch: target_epoch,
                    revoking: Vec::new(),
                    unreleased,
                }));
            }
        }
        let deadline = cg.revoke_deadline.map(|d| (d, cg.member_epoch));
        let Some(g) = self.groups.get_mut(group_id) else { return };
        let Some(r) = g.registry.iter_mut().find(|r| r.member_id == member_id) else { return };
        let newly_unrevoked = cg.state == Reconcile::UnrevokedPartitions && r.cg.state != Reconcile::UnrevokedPartitions;
        r.cg = cg;
        r.assignment = assignment;
        if let Some(e) = event {
            out.emit(e);
        }
        if let (true, Some((at, epoch))) = (newly_unrevoked, deadline) {
            out.at(at, ConsumerProtocolPending::RevocationDeadline { group: group_id.into(), member_id: member_id.into(), epoch });
        }
    }

    /// The group's state from its members' (`ConsumerGroup.maybeUpdateGroupState`).
    fn cg_update_state(&mut self, group_id: &str, out: &mut Driver) {
        let Some(g) = self.groups.get_mut(group_id) else { return };
        let before = g.state;
        let state = if g.registry.is_empty() {
            GroupState::Empty
        } else if g.registry.iter().all(|r| r.cg.state == Reconcile::Stable && r.cg.member_epoch == g.assignment_epoch) {
            GroupState::Stable
        } else {
            GroupState::Reconciling
        };
        g.state = state;
        if state == GroupState::Empty {
            g.target.clear();
        }
        if state == GroupState::Stable && before != GroupState::Stable {
            g.rebalances += 1;
            let generation = g.generation;
            out.emit(EventKind::ConsumerProtocol(ConsumerProtocolEvent::ConsumerGroupStable { group: group_id.into(), epoch: generation }));
        }
    }

    /// A member is gone (left, fenced, timed out): a new epoch for the others.
    pub(in crate::sim) fn cg_remove(&mut self, group_id: &str, member_id: &str, reason: LeaveReason, cluster: &Cluster, out: &mut Driver) {
        let Some(g) = self.groups.get_mut(group_id) else { return };
        let Some(i) = g.registry.iter().position(|r| r.member_id == member_id) else { return };
        let r = g.registry.remove(i);
        g.target.remove(member_id);
        g.target_records.remove(member_id);
        out.emit(EventKind::Group(GroupEvent::MemberLeft {
            group: group_id.into(),
            client_id: r.client_id.to_string(),
            member_id: member_id.into(),
            reason,
        }));
        let empty = self.groups.get(group_id).is_some_and(|g| g.registry.is_empty());
        if !empty {
            self.cg_bump(group_id, RebalanceCause::MemberLeft { client_id: r.client_id.to_string() }, cluster, out);
        }
        self.cg_update_state(group_id, out);
    }

    fn schedule_cg_session_check(&mut self, group_id: &str, member_id: &str, at: SimTime, out: &mut Driver) {
        out.at(at, GroupPending::SessionCheck { group: group_id.into(), member_id: member_id.into() });
    }

    /// `group.consumer.session.timeout.ms` passed without a heartbeat.
    pub(in crate::sim) fn cg_session_check(&mut self, group_id: &str, member_id: &str, cluster: &Cluster, out: &mut Driver) {
        let now = out.now;
        let Some(r) = self.groups.get(group_id).and_then(|g| g.registered(member_id)) else { return };
        if r.session_deadline > now {
            return;
        }
        self.cg_remove(group_id, member_id, LeaveReason::SessionTimeout, cluster, out);
    }

    /// The rebalance timeout passed while the member still held partitions it had to
    /// revoke: it is fenced and removed.
    pub(in crate::sim) fn cg_revocation_deadline(
        &mut self,
        group_id: &str,
        member_id: &str,
        epoch: i32,
        cluster: &Cluster,
        out: &mut Driver,
    ) {
        let now = out.now;
        let Some(r) = self.groups.get(group_id).and_then(|g| g.registered(member_id)) else { return };
        let late =
            r.cg.state == Reconcile::UnrevokedPartitions && r.cg.member_epoch == epoch && r.cg.revoke_deadline.is_some_and(|d| d <= now);
        if late {
            self.cg_remove(group_id, member_id, LeaveReason::RevocationTimeout, cluster, out);
        }
    }

    /// OffsetCommit under the consumer protocol: the coordinator wants the member's
    /// current epoch exactly (`ConsumerGroup.validateOffsetCommit` → `validateMemberEpoch`,
    /// Kafka 4.0–4.2: `STALE_MEMBER_EPOCH` otherwise; the previous epoch is accepted only for
    /// heartbeats). A commit sent just before the member's epoch moved on therefore fails:
    /// `commitSync` throws `CommitFailedException`, an interval auto-commit is simply made
    /// again at a later poll. (KIP-1251's per-partition assignment epochs, merged for a later
    /// release, relax this; not modelled.) The commit before a revocation is sent before the
    /// acknowledging heartbeat, so it always carries the epoch the coordinator still holds.
    pub(in crate::sim) fn cg_commit_check(&self, group_id: &str, member_id: &str, epoch: i32) -> Option<GroupError> {
        let g = self.groups.get(group_id)?;
        match g.registered(member_id) {
            None => Some(GroupError::UnknownMemberId),
            Some(r) if r.cg.member_epoch != epoch => Some(GroupError::StaleMemberEpoch),
            Some(_) => None,
        }
    }
}

impl Sim {
    /// Applies a scheduled event of the KIP-848 consumer protocol.
    pub(in crate::sim) fn handle_consumer_protocol(&mut self, pending: ConsumerProtocolPending) {
        match pending {
            ConsumerProtocolPending::HeartbeatArrive { group, client_id, incarnation, hb } => {
                self.consumers.cg_heartbeat_arrive(&group, &client_id, incarnation, hb, &self.cluster, &mut self.out)
            }
            ConsumerProtocolPending::HeartbeatResponse { group, client_id, incarnation, answer } => {
                self.consumers.cg_heartbeat_response(&group, &client_id, incarnation, answer, &self.cluster, &mut self.out)
            }
            ConsumerProtocolPending::RevocationDeadline { group, member_id, epoch } => {
                self.consumers.cg_revocation_deadline(&group, &member_id, epoch, &self.cluster, &mut self.out)
            }
        }
    }
}

/// The KIP-848 coordinator's handlers alone: a `Consumers` holding one consumer-protocol
/// group, a `Cluster` that places `__consumer_offsets`, and a `Driver`; no `Sim`.
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
        let config = crate::config::GroupConfig { group_protocol: crate::config::GroupProtocol::Consumer, ..Default::default() };
        consumers.groups.insert("g".into(), Group::new("g", vec!["t".into()], config));
        (cluster, consumers, Driver::new(7, 20))
    }

    fn tps(ps: &[u32]) -> Vec<TopicPartition> {
        ps.iter().map(|p| TopicPartition::new("t", *p)).collect()
    }

    fn beat(c: &mut Consumers, cluster: &Cluster, out: &mut Driver, member: &str, epoch: i32, owned: &[u32]) -> CgAnswer {
        let hb = CgHeartbeat {
            member_id: member.into(),
            epoch,
            instance_id: None,
            subscription: vec!["t".into()],
            owned: tps(owned),
            rebalance_timeout_ms: 300_000,
            leave_reason: LeaveReason::Graceful,
        };
        let before = out.effects().len();
        c.cg_heartbeat_arrive("g", member, 0, hb, cluster, out);
        out.effects()[before..]
            .iter()
            .find_map(|e| match e {
                Effect::At { pending: Pending::ConsumerProtocol(ConsumerProtocolPending::HeartbeatResponse { answer, .. }), .. } => {
                    Some(answer.clone())
                }
                _ => None,
            })
            .expect("answered")
    }

    /// m1 joins and takes all four partitions; m2 joins (epoch 2); m1 revokes two and
    /// reaches epoch 2 (previous epoch 1) owning the other two.
    fn two_members() -> (Cluster, Consumers, Driver, Vec<u32>) {
        let (cluster, mut c, mut out) = world();
        beat(&mut c, &cluster, &mut out, "m1", 0, &[]);
        beat(&mut c, &cluster, &mut out, "m2", 0, &[]);
        beat(&mut c, &cluster, &mut out, "m1", 1, &[0, 1, 2, 3]);
        let kept: Vec<u32> =
            c.groups["g"].registered("m1").map(|r| r.assignment.iter().map(|tp| tp.partition).collect()).unwrap_or_default();
        let answer = beat(&mut c, &cluster, &mut out, "m1", 1, &kept);
        assert!(matches!(answer, CgAnswer::Ok { epoch: 2, .. }), "{answer:?}");
        assert_eq!(kept.len(), 2);
        (cluster, c, out, kept)
    }

    #[test]
    fn a_fenced_epoch_is_answered_fenced_member_epoch_without_removing_the_member() {
        let (cluster, mut c, mut out, kept) = two_members();
        let epoch_before = c.groups["g"].generation;
        for (epoch, owned) in [(7, kept.clone()), (1, vec![0, 1, 2, 3])] {
            let answer = beat(&mut c, &cluster, &mut out, "m1", epoch, &owned);
            assert_eq!(answer, CgAnswer::Err(GroupError::FencedMemberEpoch), "epoch {epoch} owning {owned:?}");
        }
        let g = &c.groups["g"];
        assert!(g.registered("m1").is_some(), "still a member (GroupMetadataManager only throws)");
        assert_eq!(g.generation, epoch_before, "no new group epoch");
        // It rejoins with epoch 0 under the same id and gets its partitions back.
        let answer = beat(&mut c, &cluster, &mut out, "m1", 0, &[]);
        let CgAnswer::Ok { epoch: 2, assignment: Some(a), .. } = answer else { panic!("{answer:?}") };
        assert_eq!(a, tps(&kept));
    }

    #[test]
    fn the_previous_epoch_is_accepted_only_when_the_member_owns_no_more_than_its_assignment() {
        let (cluster, mut c, mut out, kept) = two_members();
        let answer = beat(&mut c, &cluster, &mut out, "m1", 1, &kept);
        assert!(matches!(answer, CgAnswer::Ok { epoch: 2, .. }), "a subset: accepted, {answer:?}");
        let answer = beat(&mut c, &cluster, &mut out, "m1", 1, &[0, 1, 2, 3]);
        assert_eq!(answer, CgAnswer::Err(GroupError::FencedMemberEpoch), "more than its assignment");
    }

    #[test]
    fn a_commit_with_the_previous_member_epoch_is_refused_stale() {
        let (_, c, _, _) = two_members();
        assert_eq!(c.cg_commit_check("g", "m1", 2), None);
        assert_eq!(c.cg_commit_check("g", "m1", 1), Some(GroupError::StaleMemberEpoch));
        assert_eq!(c.cg_commit_check("g", "nobody", 2), Some(GroupError::UnknownMemberId));
    }
}
