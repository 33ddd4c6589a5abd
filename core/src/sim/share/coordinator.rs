//! A share group's coordinator side (`GroupMetadataManager.shareGroupHeartbeat`): members
//! join with member epoch 0 and leave with −1; every membership change bumps the group
//! epoch and computes the target assignment with the `SimpleAssignor`; a member gets its
//! target at once in its next heartbeat answer (`ShareGroupAssignmentBuilder`: no
//! revocation step — records are locked, not partitions, so a brief double ownership is
//! harmless); a member silent for `share_session_timeout_ms` is removed. No static
//! membership. The coordinator is the leader of the group's `__consumer_offsets`
//! partition, as for every group.

use super::*;
use crate::assign::server::TopicMeta;
use crate::assign::Subscription;
use crate::event::ShareLeaveReason;
use crate::share_group::ShareRegistered;

/// `ShareGroupHeartbeatRequest`'s leave epoch.
pub(super) const LEAVE_EPOCH: i32 = -1;

impl ShareGroups {
    /// Sends the member's heartbeat (one at a time), with its member id and epoch.
    pub(super) fn send_heartbeat(&mut self, group: &str, client_id: &str, cluster: &Cluster, out: &mut Driver) {
        let Some(m) = self.groups.get_mut(group).and_then(|g| g.member_mut(client_id)) else { return };
        if m.phase == SharePhase::Crashed || m.heartbeat_out {
            return;
        }
        let incarnation = m.incarnation;
        let (member_id, member_epoch) = (m.member_id.clone(), m.member_epoch);
        if cluster.coordinator_of(group).is_none() {
            // FindCoordinator fails: the heartbeat timer tries again.
            let at = out.now.plus_ms(m.interval_ms.max(100));
            out.at(at, SharePending::HeartbeatTick { group: group.into(), client_id: client_id.into(), incarnation });
            return;
        }
        m.heartbeat_out = true;
        let at = out.now.plus_ms(out.latency());
        out.at(
            at,
            SharePending::HeartbeatArrive { group: group.into(), client_id: client_id.into(), incarnation, member_id, member_epoch },
        );
    }

    pub(super) fn heartbeat_tick(&mut self, group: &str, client_id: &str, incarnation: u64, cluster: &Cluster, out: &mut Driver) {
        let alive = self.groups.get(group).and_then(|g| g.member(client_id)).is_some_and(|m| m.incarnation == incarnation);
        if alive {
            self.send_heartbeat(group, client_id, cluster, out);
        }
    }

    /// The coordinator handles a ShareGroupHeartbeat.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn heartbeat_arrive(
        &mut self,
        group: &str,
        client_id: &str,
        incarnation: u64,
        member_id: &str,
        member_epoch: i32,
        cluster: &Cluster,
        out: &mut Driver,
    ) {
        if cluster.coordinator_of(group).is_none() {
            // Lost with its coordinator: the member's timer tries again.
            if let Some(m) = self.groups.get_mut(group).and_then(|g| g.member_mut(client_id)) {
                if m.incarnation == incarnation {
                    m.heartbeat_out = false;
                    let at = out.now.plus_ms(m.interval_ms.max(100));
                    out.at(at, SharePending::HeartbeatTick { group: group.into(), client_id: client_id.into(), incarnation });
                }
            }
            return;
        }
        let now = out.now;
        let Some(g) = self.groups.get_mut(group) else { return };
        let session_ms = g.config.share_session_timeout_ms;
        if member_epoch == LEAVE_EPOCH {
            if g.registry.iter().any(|r| r.member_id == member_id) {
                self.remove_registered(group, member_id, ShareLeaveReason::Left, cluster, out);
            }
            return;
        }
        let known = g.registry.iter().position(|r| r.member_id == member_id);
        let answer = match (known, member_epoch) {
            (None, 0) => {
                g.registry.push(ShareRegistered {
                    member_id: member_id.to_string(),
                    client_id: client_id.to_string(),
                    member_epoch: 0,
                    assignment: Vec::new(),
                    record: Vec::new(),
                    session_deadline: now.plus_ms(session_ms),
                });
                self.bump(group, cluster, out);
                let Some(g) = self.groups.get_mut(group) else { return };
                let epoch = g.group_epoch;
                out.emit(EventKind::ShareGroup(ShareGroupEvent::ShareMemberJoined {
                    group: group.into(),
                    client_id: client_id.into(),
                    member_id: member_id.into(),
                    group_epoch: epoch,
                }));
                Some(())
            }
            // UNKNOWN_MEMBER_ID (its session expired): it rejoins with epoch 0.
            (None, _) => None,
            (Some(_), _) => Some(()),
        };
        let grown = self.groups.get(group).is_some_and(|g| {
            g.assigned_counts.iter().any(|(t, n)| cluster.topics.get(t).is_some_and(|topic| topic.partition_count() != *n))
        });
        if answer.is_some() && grown {
            // A topic that grew bumps the group epoch (the coordinator's metadata refresh).
            self.bump(group, cluster, out);
        }
        let answer = answer.and_then(|()| {
            let g = self.groups.get_mut(group)?;
            let epoch = g.group_epoch;
            let target = g.target.get(member_id).cloned().unwrap_or_default();
            let r = g.registry.iter_mut().find(|r| r.member_id == member_id)?;
            r.session_deadline = now.plus_ms(session_ms);
            r.member_epoch = epoch;
            r.assignment = target.clone();
            Some((epoch, target))
        });
        if answer.is_some() {
            out.at(now.plus_ms(session_ms), SharePending::SessionCheck { group: group.into(), member_id: member_id.into() });
        }
        let at = out.now.plus_ms(out.latency());
        out.at(at, SharePending::HeartbeatResponse { group: group.into(), client_id: client_id.into(), incarnation, answer });
    }

    /// The consumer applies the answer: its member epoch and its assignment, at once.
    pub(super) fn heartbeat_response(
        &mut self,
        group: &str,
        client_id: &str,
        incarnation: u64,
        answer: Option<(i32, Vec<TopicPartition>)>,
        cluster: &Cluster,
        out: &mut Driver,
    ) {
        let Some(g) = self.groups.get_mut(group) else { return };
        let interval = g.config.share_heartbeat_interval_ms;
        let Some(m) = g.member_mut(client_id) else { return };
        if m.incarnation != incarnation || m.phase == SharePhase::Crashed {
            return;
        }
        m.heartbeat_out = false;
        m.interval_ms = interval;
        let next = out.now.plus_ms(interval);
        out.at(next, SharePending::HeartbeatTick { group: group.into(), client_id: client_id.into(), incarnation });
        let Some((epoch, assignment)) = answer else {
            // UNKNOWN_MEMBER_ID: join again with epoch 0 (same member id) at the next tick.
            m.member_epoch = 0;
            m.phase = SharePhase::Joining;
            return;
        };
        let changed = m.member_epoch != epoch || m.assigned != assignment || m.phase != SharePhase::Stable;
        m.member_epoch = epoch;
        let was_idle = m.assigned.is_empty() || m.phase != SharePhase::Stable;
        m.phase = SharePhase::Stable;
        if !changed {
            return;
        }
        let moved = m.assigned != assignment;
        m.assigned = assignment.clone();
        if moved || was_idle {
            out.emit(EventKind::ShareGroup(ShareGroupEvent::ShareMemberAssigned {
                group: group.into(),
                client_id: client_id.into(),
                member_epoch: epoch,
                partitions: assignment,
            }));
        }
        // A consumer with nothing to fetch from was waiting: it polls now.
        let polling = m.fetches_out > 0 || !m.in_hand.is_empty();
        if !polling && !m.assigned.is_empty() {
            m.token += 1;
            let token = m.token;
            self.poll(group, client_id, token, cluster, out);
        }
    }

    /// The coordinator's session timer for a member.
    pub(super) fn session_check(&mut self, group: &str, member_id: &str, cluster: &Cluster, out: &mut Driver) {
        let now = out.now;
        let expired = self
            .groups
            .get(group)
            .and_then(|g| g.registry.iter().find(|r| r.member_id == member_id))
            .is_some_and(|r| r.session_deadline <= now);
        if expired && cluster.coordinator_of(group).is_some() {
            self.remove_registered(group, member_id, ShareLeaveReason::SessionExpired, cluster, out);
        }
    }

    /// The coordinator removes a member: a new group epoch and target.
    fn remove_registered(&mut self, group: &str, member_id: &str, reason: ShareLeaveReason, cluster: &Cluster, out: &mut Driver) {
        let Some(g) = self.groups.get_mut(group) else { return };
        let Some(i) = g.registry.iter().position(|r| r.member_id == member_id) else { return };
        let r = g.registry.remove(i);
        g.target.remove(member_id);
        out.emit(EventKind::ShareGroup(ShareGroupEvent::ShareMemberLeft { group: group.into(), client_id: r.client_id, reason }));
        self.bump(group, cluster, out);
    }

    /// A new group epoch and, at once, its target assignment (`SimpleAssignor`).
    fn bump(&mut self, group: &str, cluster: &Cluster, out: &mut Driver) {
        let Some(g) = self.groups.get_mut(group) else { return };
        g.group_epoch += 1;
        let mut metadata = std::collections::BTreeMap::new();
        for t in &g.topics {
            if let Some(topic) = cluster.topics.get(t) {
                metadata.insert(t.clone(), TopicMeta { id: topic.id, partitions: topic.partition_count() });
            }
        }
        let subscriptions: Vec<Subscription> = g
            .registry
            .iter()
            .map(|r| Subscription {
                member_id: r.member_id.clone(),
                group_instance_id: None,
                topics: g.topics.clone(),
                owned: r.record.clone(),
                generation: None,
            })
            .collect();
        let result = crate::assign::simple::assign_share(&metadata, &subscriptions);
        let partitions: u32 = metadata.values().map(|m| m.partitions).sum();
        let members = g.registry.len() as u32;
        let desired_sharing = if partitions == 0 { 0 } else { members.div_ceil(partitions) };
        g.assigned_counts = metadata.iter().map(|(t, m)| (t.clone(), m.partitions)).collect();
        for r in g.registry.iter_mut() {
            if let Some(record) = result.records.get(&r.member_id) {
                r.record = record.clone();
            }
        }
        g.target = crate::sim::group::flatten_assignment(result.assignment).collect();
        g.assignment_epoch = g.group_epoch;
        let shown = g.registry.iter().map(|r| (r.client_id.clone(), g.target.get(&r.member_id).cloned().unwrap_or_default())).collect();
        out.emit(EventKind::ShareGroup(ShareGroupEvent::ShareAssignmentComputed {
            group: group.into(),
            group_epoch: g.group_epoch,
            desired_sharing,
            assignment: shown,
        }));
    }
}
