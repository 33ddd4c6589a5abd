//! Consumers: `poll()`, fetches with long polling at the broker, delivery and processing.

use super::*;
use crate::event::{ConsumeEvent, ConsumerProtocolEvent};
use crate::group::{CommitMode, Phase, PositionEpochs};
use crate::log::PartitionLog;

/// Something scheduled in a consumer's poll loop and its fetches: one of `Pending`'s features.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum ConsumePending {
    /// The application finished processing what the last `poll()` returned.
    ProcessingDone { group: Name, client_id: Name, token: u64 },
    /// A member calls `poll()`.
    Poll { group: Name, client_id: Name, token: u64 },
    /// A member's Fetch request reaches the broker.
    FetchArrive { group: Name, client_id: Name, token: u64 },
    /// `fetch.max.wait.ms` expired for the parked fetch `fetch`.
    FetchTimeout { group: Name, client_id: Name, token: u64, fetch: u64 },
    /// The Fetch response reaches the member.
    FetchResponse { group: Name, client_id: Name, token: u64, records: Vec<Fetched> },
}

impl Consumers {
    /// The group's and the member's names as they hold them (shared: a clone copies no
    /// text), for an event or a message; made from the given text if either is gone.
    pub(in crate::sim) fn names(&self, group_id: &str, client_id: &str) -> (Name, Name) {
        let group = self.groups.get(group_id);
        let g = group.map_or_else(|| Name::from(group_id), |g| g.id.clone());
        let c = group.and_then(|g| g.member(client_id)).map_or_else(|| Name::from(client_id), |m| m.client_id.clone());
        (g, c)
    }

    /// `poll()`: rejoin if the member was dropped for polling too late; auto-commit
    /// when the interval has passed (covering what earlier polls returned,
    /// `ConsumerCoordinator.maybeAutoCommitOffsetsAsync`); then fetch. Fetching goes on
    /// during a cooperative rebalance for the partitions the member keeps.
    pub(in crate::sim) fn poll(&mut self, group_id: &str, client_id: &str, token: u64, cluster: &Cluster, out: &mut Driver) {
        let now = out.now;
        let latency = out.latency();
        let Some(group) = self.groups.get_mut(group_id) else { return };
        let Some(member) = group.member_mut(client_id) else { return };
        if member.token != token || member.phase == Phase::Crashed || member.paused {
            return;
        }
        member.last_poll = now;
        if member.phase == Phase::LeftPollTimeout {
            self.send_join(group_id, client_id, cluster, out);
            return;
        }
        // KIP-848 on Kafka 4.1+ with auto-commit: an assignment that waited for this poll is
        // reconciled first (`maybeReconcile(true)`); the OffsetFetch answer polls again.
        if member.cg_pending_assignment.is_some() && self.cg_reconcile_at_poll(group_id, client_id, cluster, out) {
            return;
        }
        let Some(member) = self.groups.get_mut(group_id).and_then(|g| g.member_mut(client_id)) else { return };
        if member.rejoin_needed {
            self.revoke_for_rejoin(group_id, client_id, cluster, out);
            self.send_join(group_id, client_id, cluster, out);
            let Some(member) = self.groups.get_mut(group_id).and_then(|g| g.member_mut(client_id)) else { return };
            if member.assigned.is_empty() {
                return;
            }
        }
        let Some(member) = self.groups.get_mut(group_id).and_then(|g| g.member_mut(client_id)) else { return };
        let commit_due = member.config.commit_mode == CommitMode::Auto && now >= member.next_auto_commit;
        if commit_due {
            member.next_auto_commit = now.plus_ms(member.config.auto_commit_interval_ms);
        }
        member.activity = if member.assigned.is_empty() {
            if member.phase == Phase::Stable {
                Activity::Idle
            } else {
                Activity::AwaitingAssignment
            }
        } else {
            Activity::Fetching
        };
        let fetch = !member.assigned.is_empty();
        if commit_due {
            self.commit_positions(group_id, client_id, cluster, out);
        }
        if fetch && self.push_delivery(group_id) {
            // Push (not Kafka — a teaching device): no fetch; the broker sends what it has.
            self.push_all(group_id, client_id, cluster, out);
        } else if fetch {
            let (group, client_id) = self.names(group_id, client_id);
            out.at(now.plus_ms(latency), ConsumePending::FetchArrive { group, client_id, token });
        }
    }

    /// Reads what the member may have now: committed records (below each leader's HW)
    /// from its positions, at most `max.poll.records`, starting from a partition that
    /// rotates each fetch. Partitions without a reachable leader give nothing. A position
    /// outside the leader's log (OFFSET_OUT_OF_RANGE, after retention or an unclean
    /// election) is reset per `auto.offset.reset`.
    pub(in crate::sim) fn read_for(&mut self, group_id: &str, client_id: &str, cluster: &Cluster, out: &mut Driver) -> Vec<Fetched> {
        let Some(group) = self.groups.get_mut(group_id) else { return Vec::new() };
        let reset = group.config.auto_offset_reset;
        let isolation = group.config.isolation_level;
        let group_name = &group.id;
        let Some(member) = group.members.iter_mut().find(|m| m.client_id == client_id) else { return Vec::new() };
        let n = member.assigned.len() as u32;
        if n == 0 {
            return Vec::new();
        }
        let mut budget = member.config.max_poll_records;
        let mut fetched = Vec::new();
        let mut resets = Vec::new();
        let mut truncated = None;
        let start = member.fetch_cursor % n;
        member.fetch_cursor = (start + 1) % n;
        for i in 0..n {
            if budget == 0 {
                break;
            }
            let tp = member.assigned[((start + i) % n) as usize].clone();
            let Some(part) = cluster.topics.get(tp.topic.as_str()).and_then(|t| t.partitions.get(tp.partition as usize)) else {
                continue;
            };
            let Some(leader) = part.leader else { continue };
            if !cluster.brokers.get(&leader).is_some_and(Broker::reachable) {
                continue;
            }
            let Some(log) = part.logs.get(&leader) else { continue };
            let mut position = member.positions.get(&tp).copied().unwrap_or(0);
            let epochs = member.position_epochs.get(&tp).copied().unwrap_or_default();
            if epochs.validated_at != Some(part.leader_epoch) {
                // KIP-320: the position was fetched under another leader epoch (or came
                // from a committed offset): the consumer asks the leader where the
                // position's epoch ends (`OffsetsForLeaderEpoch`, folded into this
                // fetch). An end below the position means the log it read from was
                // truncated: the logs diverge there (`SubscriptionState.maybeCompleteValidation`).
                let mut validated = PositionEpochs { offset_epoch: epochs.offset_epoch, validated_at: Some(part.leader_epoch) };
                if let Some(epoch) = epochs.offset_epoch {
                    let diverges_at = log.end_offset_for_epoch(epoch);
                    if diverges_at < position {
                        if reset == OffsetReset::None {
                            // No reset policy: poll() throws LogTruncationException.
                            truncated = Some(GroupError::LogTruncation);
                            break;
                        }
                        // With a reset policy the consumer resumes where the logs
                        // diverge, not at the policy's offset.
                        resets.push(EventKind::Consume(ConsumeEvent::TruncationDetected {
                            group: group_name.clone(),
                            client_id: member.client_id.clone(),
                            tp: tp.clone(),
                            from: position,
                            offset_epoch: epoch,
                            to: diverges_at,
                        }));
                        member.positions.insert(tp.clone(), diverges_at);
                        validated.offset_epoch = epoch_before(log, diverges_at);
                        position = diverges_at;
                    }
                }
                member.position_epochs.insert(tp.clone(), validated);
            }
            if position < log.log_start_offset() || position > log.log_end_offset() {
                // OFFSET_OUT_OF_RANGE (retention deleted what it had not read, or a log
                // end below a position whose epoch is unknown): `auto.offset.reset`.
                let to = match reset {
                    OffsetReset::Earliest => log.log_start_offset(),
                    // The log's end for the group's isolation level (the LSO under read_committed).
                    OffsetReset::Latest => crate::sim::txn::fetch::end_offset(log, isolation),
                    OffsetReset::None => {
                        truncated = Some(GroupError::OffsetOutOfRange);
                        break;
                    }
                };
                resets.push(EventKind::Consume(ConsumeEvent::PositionReset {
                    group: group_name.clone(),
                    client_id: member.client_id.clone(),
                    tp: tp.clone(),
                    from: position,
                    to,
                }));
                member.positions.insert(tp.clone(), to);
                member
                    .position_epochs
                    .insert(tp.clone(), PositionEpochs { offset_epoch: epoch_before(log, to), validated_at: Some(part.leader_epoch) });
                position = to;
            }
            // Up to the HW, or the LSO under read_committed (`txn/fetch.rs`).
            let read = crate::sim::txn::fetch::consumer_read(log, position, budget, isolation);
            budget -= read.visible;
            fetched.extend(read.records.into_iter().map(|(r, hidden)| (tp.clone(), r, read.end, hidden, position)));
        }
        for e in resets {
            out.emit(e);
        }
        if let Some(error) = truncated {
            // poll() throws OffsetOutOfRangeException or LogTruncationException;
            // unhandled, the consumer stops.
            out.emit(EventKind::ConsumerProtocol(ConsumerProtocolEvent::ConsumerFailed {
                group: group_id.to_string(),
                client_id: client_id.to_string(),
                error,
            }));
            self.crash_member(group_id, client_id, out);
            return Vec::new();
        }
        fetched
    }

    pub(in crate::sim) fn fetch_arrive(&mut self, group_id: &str, client_id: &str, token: u64, cluster: &Cluster, out: &mut Driver) {
        let valid = self.groups.get(group_id).and_then(|g| g.member(client_id)).is_some_and(|m| m.token == token);
        if !valid {
            return;
        }
        let records = self.read_for(group_id, client_id, cluster, out);
        if records.is_empty() {
            let Some(member) = self.groups.get(group_id).and_then(|g| g.member(client_id)) else { return };
            let wait = member.config.fetch_max_wait_ms;
            let tps = member.assigned.clone();
            let id = self.next_fetch;
            self.next_fetch += 1;
            let (group, client) = self.names(group_id, client_id);
            self.parked.push(ParkedFetch { id, group: group.clone(), client_id: client.clone(), token, tps });
            out.at(out.now.plus_ms(wait), ConsumePending::FetchTimeout { group, client_id: client, token, fetch: id });
        } else {
            let at = out.now.plus_ms(out.latency());
            let (group, client_id) = self.names(group_id, client_id);
            out.at(at, ConsumePending::FetchResponse { group, client_id, token, records });
        }
    }

    /// The broker forgets the member's parked fetches (it left, crashed, or gave up its
    /// partitions): nothing will answer them.
    pub(in crate::sim) fn drop_parked_fetches(&mut self, group_id: &str, client_id: &str) {
        self.parked.retain(|f| !(f.group == group_id && f.client_id == client_id));
    }

    /// New data completes every parked fetch that covers the partition.
    pub(in crate::sim) fn wake_parked(&mut self, tp: &TopicPartition, cluster: &Cluster, out: &mut Driver) {
        self.push_new_records(tp, cluster, out);
        self.shares.wake_parked(tp, cluster, out);
        let (woken, kept): (Vec<ParkedFetch>, Vec<ParkedFetch>) =
            std::mem::take(&mut self.parked).into_iter().partition(|f| f.tps.contains(tp));
        self.parked = kept;
        for f in woken {
            let records = self.read_for(&f.group, &f.client_id, cluster, out);
            let at = out.now.plus_ms(out.latency());
            out.at(at, ConsumePending::FetchResponse { group: f.group, client_id: f.client_id, token: f.token, records });
        }
    }

    /// `poll()` returns the fetched records; the application processes them, then polls again.
    pub(in crate::sim) fn fetch_response(
        &mut self,
        group_id: &str,
        client_id: &str,
        token: u64,
        records: Vec<Fetched>,
        cluster: &Cluster,
        out: &mut Driver,
    ) {
        let now = out.now;
        let kept = out.options.received_per_member;
        let Some(group) = self.groups.get_mut(group_id) else { return };
        let Some(member) = group.members.iter_mut().find(|m| m.client_id == client_id) else { return };
        if member.token != token {
            return;
        }
        // The fetch wakes the application inside `poll()`: on Kafka 4.1+ with auto-commit
        // a waiting KIP-848 assignment is reconciled before the records are collected; the
        // reconciliation restarts the fetch loop, and these records are fetched again from
        // the positions it keeps.
        if member.cg_pending_assignment.is_some() && self.cg_reconcile_at_poll(group_id, client_id, cluster, out) {
            return;
        }
        let Some(group) = self.groups.get_mut(group_id) else { return };
        let group_name = group.id.clone();
        let Some(member) = group.member_mut(client_id) else { return };
        let (delivered, nothing) = crate::sim::txn::fetch::hand_over_all(member, &group_name, records, now, kept);
        let processing_ms = member.config.processing_ms;
        let processing_any = !member.processing.is_empty();
        let any = delivered.iter().any(|e| matches!(e, EventKind::Consume(ConsumeEvent::RecordDelivered { .. })));
        member.activity = if any { Activity::Processing } else { Activity::Fetching };
        let before_processing = member.config.commit_mode == CommitMode::BeforeProcessing && any;
        if !nothing.is_empty() {
            if let Some(g) = self.groups.get_mut(group_id) {
                crate::group::OffsetRanges::account(&mut g.processed, nothing);
            }
        }
        for e in delivered {
            out.emit(e);
        }
        if before_processing {
            // At-most-once: commit what poll() returned before processing it.
            self.commit_positions(group_id, client_id, cluster, out);
        }
        let (group, client_id) = self.names(group_id, client_id);
        if processing_any {
            out.at(now.plus_ms(processing_ms), ConsumePending::ProcessingDone { group, client_id, token });
        } else {
            out.at(now, ConsumePending::Poll { group, client_id, token });
        }
    }
}

impl Consumers {
    /// The application finished processing the record at the head of what the last
    /// `poll()` returned (records are processed one at a time, `processing_ms` each). It
    /// counts as processed — a second time for the group is a duplicate. With `hand_over`
    /// (the group is an application's: a Kafka Streams app) the record is returned for the
    /// application's own processing; what the poll loop does next is in the
    /// [`AfterProcessing`] for [`Consumers::after_processing`].
    pub(in crate::sim) fn record_processed(
        &mut self,
        group_id: &str,
        client_id: &str,
        token: u64,
        hand_over: bool,
        out: &mut Driver,
    ) -> Option<(Option<Delivery>, AfterProcessing)> {
        let now = out.now;
        let group = self.groups.get_mut(group_id)?;
        let i = group.members.iter().position(|m| m.client_id == client_id)?;
        if group.members[i].phase == Phase::Crashed || group.members[i].processing.is_empty() {
            return None;
        }
        let d = group.members[i].processing.pop_front()?;
        let seen = group.processed.entry(d.tp.clone()).or_default();
        let duplicate = !seen.insert(d.offset);
        if duplicate {
            group.duplicates += 1;
            // Who had it first: the newest earlier delivery of this record to anyone.
            let first = group
                .members
                .iter()
                .flat_map(|m| {
                    m.received()
                        .filter(|x| x.tp == d.tp && x.offset == d.offset && x.at < d.at)
                        .map(move |x| (m.client_id.to_string(), x.at))
                })
                .max_by_key(|(_, at)| *at);
            let record = crate::group::DuplicateRecord {
                tp: d.tp.clone(),
                offset: d.offset,
                value: d.value.to_string(),
                first,
                again: (client_id.to_string(), now),
                handover: group.handovers.get(&d.tp).cloned(),
            };
            if group.duplicate_log.len() >= out.options.duplicates_per_group.max(1) {
                group.duplicate_log.pop_front();
            }
            group.duplicate_log.push_back(record);
        }
        let group_name = group.id.clone();
        let m = &mut group.members[i];
        let client_name = m.client_id.clone();
        m.processed_total += 1;
        m.done_in_batch.push((d.tp.clone(), d.offset));
        let more = !m.processing.is_empty();
        let next = AfterProcessing {
            group: group_name.clone(),
            client_id: client_name.clone(),
            token,
            more,
            processing_ms: m.config.processing_ms,
            mode: m.config.commit_mode,
            paused: m.paused,
            current: m.token,
            batch_done: if more { Vec::new() } else { std::mem::take(&mut m.done_in_batch) },
        };
        if !more && m.activity == Activity::Processing {
            m.activity = Activity::Fetching;
        }
        let handed = hand_over.then(|| d.clone());
        out.emit(EventKind::Consume(ConsumeEvent::RecordProcessed {
            group: group_name,
            client_id: client_name,
            record: d.record,
            tp: d.tp,
            offset: d.offset,
            value: d.value,
            duplicate,
        }));
        Some((handed, next))
    }

    /// The poll loop after a processed record: the next record of the batch after
    /// `processing_ms`; after the batch's last, the commits that follow processing, then
    /// `poll()` again, unless the application is stuck.
    pub(in crate::sim) fn after_processing(
        &mut self,
        group_id: &str,
        client_id: &str,
        next: AfterProcessing,
        cluster: &Cluster,
        out: &mut Driver,
    ) {
        let now = out.now;
        if next.more {
            out.at(
                now.plus_ms(next.processing_ms),
                ConsumePending::ProcessingDone { group: next.group, client_id: next.client_id, token: next.token },
            );
            return;
        }
        if matches!(next.mode, CommitMode::SyncAfterProcessing | CommitMode::AsyncAfterProcessing) {
            // Commit what was processed: per partition, the offset after the last record.
            let mut offsets: VecMap<TopicPartition, u64> = VecMap::new();
            for (tp, o) in next.batch_done {
                let e = offsets.entry(tp).or_insert(0);
                *e = (*e).max(o + 1);
            }
            self.commit_offsets(group_id, client_id, offsets.into_iter().collect(), cluster, out);
        }
        if !next.paused {
            out.at(now, ConsumePending::Poll { group: next.group, client_id: next.client_id, token: next.current });
        }
    }
}

/// The leader epoch of the record before `offset` in `log`: what `ListOffsets` and
/// `OffsetsForLeaderEpoch` tell the consumer its new position's epoch is (`None` when the
/// log no longer holds that record).
pub(in crate::sim) fn epoch_before(log: &PartitionLog, offset: u64) -> Option<u32> {
    offset.checked_sub(1).and_then(|o| log.get(o)).map(|r| r.leader_epoch)
}

/// What a consumer's poll loop does after a processed record (`Consumers::record_processed`).
pub(in crate::sim) struct AfterProcessing {
    /// The group's and the member's names (for the messages that follow).
    group: Name,
    client_id: Name,
    token: u64,
    /// More records of the batch wait.
    more: bool,
    processing_ms: u64,
    mode: CommitMode,
    paused: bool,
    /// The member's token now (a rebalance may have changed it since the batch came).
    current: u64,
    /// The batch's records, when it is done: what a commit after processing covers.
    batch_done: Vec<(TopicPartition, u64)>,
}

impl Sim {
    /// A consumer finished processing a record ([`Consumers::record_processed`]); a Kafka
    /// Streams application runs its operator on it (`Apps`, through its own producer);
    /// then the poll loop goes on ([`Consumers::after_processing`]).
    pub(in crate::sim) fn processing_done(&mut self, group_id: &str, client_id: &str, token: u64) {
        let app = self.apps.streams_index(group_id);
        let Some((record, next)) = self.consumers.record_processed(group_id, client_id, token, app.is_some(), &mut self.out) else {
            return;
        };
        if let (Some(i), Some(d)) = (app, record) {
            self.apps.streams_process(i, client_id, d, &self.cluster, &mut self.clients, &self.consumers, &mut self.out);
        }
        self.consumers.after_processing(group_id, client_id, next, &self.cluster, &mut self.out);
    }
}

impl Sim {
    /// Applies a scheduled event of a consumer's poll loop and its fetches.
    pub(in crate::sim) fn handle_consume(&mut self, pending: ConsumePending) {
        match pending {
            ConsumePending::ProcessingDone { group, client_id, token } => self.processing_done(&group, &client_id, token),
            // A Streams instance under exactly_once_v2 may commit its transaction first (`streams_eos.rs`).
            ConsumePending::Poll { group, client_id, token } => self.handle_poll(&group, &client_id, token),
            ConsumePending::FetchArrive { group, client_id, token } => {
                self.consumers.fetch_arrive(&group, &client_id, token, &self.cluster, &mut self.out)
            }
            ConsumePending::FetchTimeout { group, client_id, token, fetch } => {
                let before = self.consumers.parked.len();
                self.consumers.parked.retain(|f| f.id != fetch);
                if self.consumers.parked.len() != before {
                    let at = self.out.now.plus_ms(self.out.latency());
                    self.out.at(at, ConsumePending::FetchResponse { group, client_id, token, records: Vec::new() });
                }
            }
            ConsumePending::FetchResponse { group, client_id, token, records } => {
                self.consumers.fetch_response(&group, &client_id, token, records, &self.cluster, &mut self.out)
            }
        }
    }
}

/// The fetch path alone: a `Consumers` with one member, a `Cluster`, a `Driver`; no `Sim`.
#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::driver::Effect;
    use crate::sim::produce::WireBatch;

    /// Topic `t` with one partition on one broker (RF 1), group `g` with member `c1`
    /// owning it from offset 0, stable.
    fn world() -> (Cluster, Consumers, TopicPartition) {
        let mut out = Driver::new(1, 20);
        let mut cluster = Cluster::new(ClusterConfig { brokers: 1, ..ClusterConfig::default() });
        cluster.add_topic("t", 1, 1, crate::cluster::TopicConfig::default(), &mut out);
        let mut consumers = Consumers::new();
        consumers.groups.insert("g".into(), Group::new("g", vec!["t".into()], crate::config::GroupConfig::default()));
        consumers.join("g", MemberSpec::new("c1"), &cluster, &mut out);
        let tp = TopicPartition::new("t", 0);
        let m = consumers.groups.get_mut("g").and_then(|g| g.member_mut("c1")).unwrap();
        m.phase = Phase::Stable;
        m.assigned = vec![tp.clone()];
        m.positions.insert(tp.clone(), 0);
        (cluster, consumers, tp)
    }

    fn responses(out: &Driver) -> Vec<(SimTime, Vec<u64>)> {
        out.effects()
            .iter()
            .filter_map(|e| match e {
                Effect::At { at, pending: Pending::Consume(ConsumePending::FetchResponse { records, .. }) } => {
                    Some((*at, records.iter().map(|(_, r, _, _, _)| r.offset).collect()))
                }
                _ => None,
            })
            .collect()
    }

    #[test]
    fn an_empty_fetch_is_parked_until_the_high_watermark_moves_then_answered_one_hop_later() {
        let (mut cluster, mut consumers, tp) = world();
        let token = consumers.groups["g"].member("c1").unwrap().token;
        let mut out = Driver::new(1, 20);
        consumers.fetch_arrive("g", "c1", token, &cluster, &mut out);
        assert!(responses(&out).is_empty(), "nothing to read: the broker holds the fetch");
        assert!(
            out.effects()
                .iter()
                .any(|e| matches!(e, Effect::At { at: SimTime(500), pending: Pending::Consume(ConsumePending::FetchTimeout { .. }) })),
            "fetch.max.wait.ms 500: {:?}",
            out.effects()
        );
        // A record arrives (acks=1 on a single replica): the high watermark moves at once,
        // and the leader completes the parked fetch (the cluster calls into the consumers'
        // purgatory, as `tryCompleteDelayedRequests` does).
        let record = Record::sample(1, 0);
        let batch = WireBatch {
            batch: 1,
            tp: tp.clone(),
            records: vec![record],
            sequence: None,
            transactional_id: None,
            txn_verified: false,
            txn_error: None,
        };
        let leader = cluster.partition(&tp).and_then(|p| p.leader).unwrap();
        let mut out = Driver::new(1, 20);
        cluster.produce_arrive("p".into(), leader, 1, Acks::Leader, 30_000, vec![batch], &mut consumers, &mut out);
        assert_eq!(responses(&out), [(SimTime(20), vec![0])], "m1 at offset 0, the network's latency later");
        // Woken once: a second advance finds nothing parked.
        let mut out = Driver::new(1, 20);
        consumers.wake_parked(&tp, &cluster, &mut out);
        assert!(responses(&out).is_empty());
    }

    /// The leader's log holds offsets 0-1 under epoch 0 and 2-4 under epoch 1 (the new
    /// leader after an unclean election wrote over what the old one had at 2..); `c1`
    /// read up to 4 under epoch 0 from the old leader.
    fn diverged(reset: OffsetReset) -> (Cluster, Consumers, TopicPartition) {
        let (mut cluster, mut consumers, tp) = world();
        let part = cluster.partition_mut(&tp).unwrap();
        let leader = part.leader.unwrap();
        let log = part.logs.get_mut(&leader).unwrap();
        for (id, epoch) in [(1, 0), (2, 0), (3, 1), (4, 1), (5, 1)] {
            log.append(Record::sample(id, 0), SimTime(0), crate::record::TimestampType::CreateTime, epoch);
        }
        log.advance_high_watermark(5);
        part.leader_epoch = 1;
        let g = consumers.groups.get_mut("g").unwrap();
        g.config.auto_offset_reset = reset;
        let m = g.member_mut("c1").unwrap();
        m.positions.insert(tp.clone(), 4);
        m.position_epochs.insert(tp.clone(), PositionEpochs { offset_epoch: Some(0), validated_at: Some(0) });
        (cluster, consumers, tp)
    }

    fn emitted(out: &Driver) -> Vec<EventKind> {
        out.effects()
            .iter()
            .filter_map(|e| match e {
                Effect::Emit(kind) => Some(kind.clone()),
                _ => None,
            })
            .collect()
    }

    #[test]
    fn a_position_whose_epoch_ends_below_it_on_the_new_leader_resumes_at_the_divergence_point() {
        let (cluster, mut consumers, tp) = diverged(OffsetReset::Latest);
        let mut out = Driver::new(1, 20);
        let fetched = consumers.read_for("g", "c1", &cluster, &mut out);
        assert_eq!(fetched.iter().map(|(_, r, _, _, _)| r.offset).collect::<Vec<_>>(), [2, 3, 4], "not 'latest': the divergence point");
        assert_eq!(
            emitted(&out),
            [EventKind::Consume(ConsumeEvent::TruncationDetected {
                group: "g".into(),
                client_id: "c1".into(),
                tp: tp.clone(),
                from: 4,
                offset_epoch: 0,
                to: 2
            })]
        );
        let m = consumers.groups["g"].member("c1").unwrap();
        assert_eq!(m.position_epochs.get(&tp), Some(&PositionEpochs { offset_epoch: Some(0), validated_at: Some(1) }));
        // Validated once per leader epoch: the next fetch asks nothing.
        let mut out = Driver::new(1, 20);
        consumers.read_for("g", "c1", &cluster, &mut out);
        assert!(emitted(&out).is_empty());
    }

    #[test]
    fn with_auto_offset_reset_none_a_truncated_position_fails_the_consumer_with_log_truncation() {
        let (cluster, mut consumers, _) = diverged(OffsetReset::None);
        let mut out = Driver::new(1, 20);
        assert!(consumers.read_for("g", "c1", &cluster, &mut out).is_empty());
        assert!(emitted(&out).contains(&EventKind::ConsumerProtocol(ConsumerProtocolEvent::ConsumerFailed {
            group: "g".into(),
            client_id: "c1".into(),
            error: GroupError::LogTruncation
        })));
        assert_eq!(consumers.groups["g"].member("c1").unwrap().phase, Phase::Crashed);
    }

    #[test]
    fn a_position_without_an_epoch_past_the_log_end_is_out_of_range_and_reset_by_policy() {
        // `seek(offset)` gives no epoch: nothing to validate, and a fetch past the log end
        // is OFFSET_OUT_OF_RANGE, reset per `auto.offset.reset` (latest: the HW).
        let (cluster, mut consumers, tp) = diverged(OffsetReset::Latest);
        let g = consumers.groups.get_mut("g").unwrap();
        let m = g.member_mut("c1").unwrap();
        m.positions.insert(tp.clone(), 9);
        m.position_epochs.insert(tp.clone(), PositionEpochs::default());
        let mut out = Driver::new(1, 20);
        assert!(consumers.read_for("g", "c1", &cluster, &mut out).is_empty());
        assert_eq!(
            emitted(&out),
            [EventKind::Consume(ConsumeEvent::PositionReset { group: "g".into(), client_id: "c1".into(), tp, from: 9, to: 5 })]
        );
    }
}
