//! Group membership and the (simplified, eager) rebalance; offset commits.

use super::*;

impl Sim {

    pub(super) fn join(&mut self, group_id: &str, spec: MemberSpec) {
        let member_id = format!("{}-{}", spec.client_id, self.rng.uuid_v4());
        let Some(group) = self.groups.get_mut(group_id) else { return };
        let topics = spec.topics.unwrap_or_else(|| group.topics.clone());
        group.members.push(Member {
            client_id: spec.client_id.clone(),
            member_id: member_id.clone(),
            group_instance_id: spec.group_instance_id,
            topics,
            config: spec.config,
            assigned: Vec::new(),
            positions: BTreeMap::new(),
            activity: Activity::AwaitingAssignment,
            received: Default::default(),
            received_total: 0,
            token: 0,
            next_auto_commit: SimTime::ZERO,
            fetch_cursor: 0,
        });
        self.record(EventKind::MemberJoined {
            group: group_id.to_string(),
            client_id: spec.client_id.clone(),
            member_id,
        });
        self.start_rebalance(group_id, RebalanceCause::MemberJoined { client_id: spec.client_id });
    }

    /// `consumer.close()`: commit (with auto-commit), LeaveGroup, and the rest rebalance.
    pub(super) fn leave(&mut self, group_id: &str, client_id: &str) {
        self.auto_commit_on_close(group_id, client_id);
        let Some(group) = self.groups.get_mut(group_id) else { return };
        let Some(index) = group.members.iter().position(|m| m.client_id == client_id) else { return };
        let member = group.members.remove(index);
        let now_empty = group.members.is_empty();
        if now_empty {
            group.state = GroupState::Empty;
            group.rebalance_due = None;
            group.initial_delay_since = None;
            group.round += 1;
        }
        self.parked.retain(|f| !(f.group == group_id && f.client_id == client_id));
        self.record(EventKind::MemberLeft {
            group: group_id.to_string(),
            client_id: client_id.to_string(),
            member_id: member.member_id,
        });
        if !now_empty {
            self.start_rebalance(group_id, RebalanceCause::MemberLeft { client_id: client_id.to_string() });
        }
    }

    pub(super) fn auto_commit_on_close(&mut self, group_id: &str, client_id: &str) {
        let Some(group) = self.groups.get(group_id) else { return };
        let Some(member) = group.member(client_id) else { return };
        if member.config.enable_auto_commit {
            self.commit_positions(group_id, client_id);
        }
    }

    /// Commits the member's current positions (the offsets after what `poll()` returned).
    pub(super) fn commit_positions(&mut self, group_id: &str, client_id: &str) {
        let Some(group) = self.groups.get_mut(group_id) else { return };
        let Some(member) = group.members.iter().find(|m| m.client_id == client_id) else { return };
        let offsets: Vec<(TopicPartition, u64)> = member.positions.iter().map(|(tp, o)| (tp.clone(), *o)).collect();
        let changed = offsets.iter().any(|(tp, o)| group.committed.get(tp) != Some(o));
        for (tp, o) in &offsets {
            group.committed.insert(tp.clone(), *o);
        }
        // Kafka commits every position each time; the trace shows only commits that
        // move an offset, so a quiet group does not fill it with repeats.
        if changed {
            self.record(EventKind::OffsetsCommitted {
                group: group_id.to_string(),
                client_id: client_id.to_string(),
                offsets,
            });
        }
    }

    /// Starts (or joins) a rebalance. Eager protocol: every member commits (with
    /// auto-commit, `ConsumerCoordinator.onJoinPrepare`) and gives up all partitions.
    pub(super) fn start_rebalance(&mut self, group_id: &str, cause: RebalanceCause) {
        let latency = self.latency();
        let initial_delay = self.cluster.group_initial_rebalance_delay_ms;
        let rebalance_timeout = self.cluster.max_poll_interval_ms;
        let now = self.now;
        let Some(group) = self.groups.get(group_id) else { return };
        let state = group.state;
        let to_commit: Vec<String> = if state == GroupState::Stable {
            group.members.iter().filter(|m| m.config.enable_auto_commit).map(|m| m.client_id.clone()).collect()
        } else {
            Vec::new()
        };
        for c in to_commit {
            self.commit_positions(group_id, &c);
        }
        let Some(group) = self.groups.get_mut(group_id) else { return };
        // A JoinGroup + SyncGroup round: two requests and two responses.
        let round_trip = latency.saturating_mul(4);
        let due = match state {
            GroupState::Stable => Some(now.plus_ms(round_trip)),
            // A new group waits group.initial.rebalance.delay.ms, re-armed by each new
            // joiner but never past the rebalance timeout (`InitialDelayedJoin`).
            GroupState::Empty => {
                group.initial_delay_since = Some(now);
                Some(now.plus_ms(initial_delay.min(rebalance_timeout)).plus_ms(round_trip))
            }
            GroupState::PreparingRebalance => match (group.initial_delay_since, &cause) {
                (Some(since), RebalanceCause::MemberJoined { .. }) => {
                    let limit = since.plus_ms(rebalance_timeout);
                    Some(now.plus_ms(initial_delay).min(limit).plus_ms(round_trip))
                }
                // Joins and leaves during a running round are part of that round.
                _ => None,
            },
        };
        let mut revoked = Vec::new();
        for m in &mut group.members {
            m.token += 1;
            m.activity = Activity::AwaitingAssignment;
            if !m.assigned.is_empty() {
                revoked.push(m.client_id.clone());
            }
            m.assigned.clear();
            m.positions.clear();
        }
        group.state = GroupState::PreparingRebalance;
        let mut schedule_round = None;
        if let Some(due) = due {
            group.round += 1;
            group.rebalance_due = Some(due);
            schedule_round = Some((due, group.round));
        }
        self.parked.retain(|f| f.group != group_id);
        if state != GroupState::PreparingRebalance {
            self.record(EventKind::RebalanceStarted { group: group_id.to_string(), cause });
        }
        if let Some((due, round)) = schedule_round {
            self.schedule(due, Pending::RebalanceComplete { group: group_id.to_string(), round });
        }
    }

    /// The leader's assignor runs; every member learns its partitions and where to start.
    pub(super) fn complete_rebalance(&mut self, group_id: &str, round: u64) {
        let now = self.now;
        let Some(group) = self.groups.get(group_id) else { return };
        if group.round != round || group.state != GroupState::PreparingRebalance || group.members.is_empty() {
            return;
        }
        let mut partitions_per_topic = BTreeMap::new();
        for m in &group.members {
            for t in &m.topics {
                if let Some(topic) = self.topics.get(t) {
                    partitions_per_topic.insert(t.clone(), topic.partition_count());
                }
            }
        }
        let subscriptions: Vec<Subscription> = group
            .members
            .iter()
            .map(|m| Subscription {
                member_id: m.member_id.clone(),
                group_instance_id: m.group_instance_id.clone(),
                topics: m.topics.clone(),
                owned: Vec::new(),
                generation: None,
            })
            .collect();
        // Strategies are checked when a group is created or changed, so this succeeds.
        let assignment = assign::assign(group.config.assignor, &partitions_per_topic, &subscriptions)
            .map(|o| o.assignment)
            .unwrap_or_default();
        let reset = group.config.auto_offset_reset;
        let committed = group.committed.clone();
        let generation = group.generation + 1;
        let mut events = Vec::new();
        let mut polls = Vec::new();
        let log_bounds = |tp: &TopicPartition| {
            self.topics
                .get(&tp.topic)
                .and_then(|t| t.partitions.get(tp.partition as usize))
                .and_then(|p| p.display_log())
                // ListOffsets for read_uncommitted: earliest = log start, latest = HW.
                .map(|l| (l.log_start_offset(), l.high_watermark()))
                .unwrap_or((0, 0))
        };
        let mut positions_by_member = Vec::new();
        for m in &group.members {
            let mut tps: Vec<TopicPartition> = assignment
                .get(&m.member_id)
                .map(|by_topic| {
                    by_topic.iter().flat_map(|(t, ps)| ps.iter().map(move |p| TopicPartition::new(t.clone(), *p))).collect()
                })
                .unwrap_or_default();
            tps.sort();
            let mut positions = BTreeMap::new();
            for tp in &tps {
                let (start, end) = log_bounds(tp);
                let (offset, from) = match committed.get(tp) {
                    Some(o) => (*o, StartFrom::Committed),
                    None => match reset {
                        OffsetReset::Earliest => (start, StartFrom::ResetEarliest),
                        OffsetReset::Latest => (end, StartFrom::ResetLatest),
                    },
                };
                positions.insert(tp.clone(), offset);
                events.push(EventKind::PositionSet {
                    group: group_id.to_string(),
                    client_id: m.client_id.clone(),
                    tp: tp.clone(),
                    offset,
                    from,
                });
            }
            positions_by_member.push((tps, positions));
        }
        let Some(group) = self.groups.get_mut(group_id) else { return };
        group.generation = generation;
        group.state = GroupState::Stable;
        group.rebalance_due = None;
        group.initial_delay_since = None;
        let mut assigned_events = Vec::new();
        for (m, (tps, positions)) in group.members.iter_mut().zip(positions_by_member) {
            assigned_events.push(EventKind::PartitionsAssigned {
                group: group_id.to_string(),
                generation,
                client_id: m.client_id.clone(),
                partitions: tps.clone(),
            });
            m.token += 1;
            m.fetch_cursor = 0;
            m.next_auto_commit = now.plus_ms(m.config.auto_commit_interval_ms);
            m.activity = if tps.is_empty() { Activity::Idle } else { Activity::Fetching };
            m.assigned = tps;
            m.positions = positions;
            if !m.assigned.is_empty() {
                polls.push((m.client_id.clone(), m.token));
            }
        }
        for e in assigned_events {
            self.record(e);
        }
        for e in events {
            self.record(e);
        }
        self.record(EventKind::GroupStable { group: group_id.to_string(), generation });
        for (client_id, token) in polls {
            self.schedule(now, Pending::Poll { group: group_id.to_string(), client_id, token });
        }
    }

}
