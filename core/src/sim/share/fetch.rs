//! Share consumers and the share partitions at their leaders: `poll()` sends one ShareFetch
//! per leader of its partitions (`ShareConsumeRequestManager`), carrying the
//! acknowledgements of what it processed since (implicit mode: ACCEPT for every record of
//! the last poll; explicit: the application's own types); the leader applies them, then
//! acquires records (`SharePartition.acquire`: lowest available first, whole batches, the
//! window under `group.share.partition.max.record.locks`) under a lock of
//! `share_record_lock_duration_ms`, or holds the fetch up to `fetch.max.wait.ms`
//! (`DelayedShareFetch`). The application processes records one at a time; `close()`
//! sends ShareAcknowledge, which also ends the share session (what is still acquired is
//! released). A lock that runs out makes its records available again with their delivery
//! count, or archives them at `group.share.delivery.count.limit`.

use super::*;
use crate::event::{ArchiveCause, ReturnCause, ShareError};
use crate::share_group::{RecordState, ShareDelivery, SharePartition};

/// One acknowledgement: the partition, the offset and its type.
pub(crate) type Ack = (TopicPartition, u64, AcknowledgeType);

/// A ShareFetch request to one leader (`ShareFetchRequest`): the partitions it fetches for
/// the member, and the acknowledgements riding on it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct ShareFetch {
    pub(crate) id: u64,
    pub(crate) group: String,
    pub(crate) client_id: String,
    pub(crate) member_id: String,
    pub(crate) token: u64,
    pub(crate) broker: BrokerId,
    pub(crate) tps: Vec<TopicPartition>,
    pub(crate) acks: Vec<Ack>,
    pub(crate) max_records: u32,
    pub(crate) wait_ms: u64,
}

impl ShareGroups {
    /// `poll()`: one ShareFetch per leader of the member's partitions (and of the partitions
    /// it owes acknowledgements to), with those acknowledgements.
    pub(super) fn poll(&mut self, group: &str, client_id: &str, token: u64, cluster: &Cluster, out: &mut Driver) {
        let Some(m) = self.groups.get_mut(group).and_then(|g| g.member_mut(client_id)) else { return };
        if m.token != token || m.phase != SharePhase::Stable || m.fetches_out > 0 {
            return;
        }
        let mut by_broker: VecMap<BrokerId, (Vec<TopicPartition>, Vec<Ack>)> = VecMap::new();
        for tp in &m.assigned {
            if let Some(leader) = cluster.partition(tp).and_then(|p| p.leader).filter(|b| cluster.reachable(*b)) {
                by_broker.entry(leader).or_default().0.push(tp.clone());
            }
        }
        let mut kept = Vec::new();
        for ack in std::mem::take(&mut m.pending_acks) {
            match cluster.partition(&ack.0).and_then(|p| p.leader).filter(|b| cluster.reachable(*b)) {
                Some(leader) => by_broker.entry(leader).or_default().1.push(ack),
                // No leader to take it: kept for the next poll (its lock may run out first).
                None => kept.push(ack),
            }
        }
        m.pending_acks = kept;
        let (member_id, max_records, wait_ms) = (m.member_id.clone(), m.config.max_poll_records, m.config.fetch_max_wait_ms);
        let at = out.now.plus_ms(out.latency());
        for (broker, (tps, acks)) in by_broker {
            if tps.is_empty() {
                // No partition of this leader to fetch: the acknowledgements go alone, in a
                // ShareAcknowledge.
                out.at(
                    at,
                    SharePending::AcknowledgeArrive {
                        group: group.into(),
                        client_id: client_id.into(),
                        member_id: member_id.clone(),
                        broker,
                        acks,
                        close: false,
                    },
                );
                continue;
            }
            m.fetches_out += 1;
            let id = self.next_fetch;
            self.next_fetch += 1;
            let fetch = ShareFetch {
                id,
                group: group.into(),
                client_id: client_id.into(),
                member_id: member_id.clone(),
                token,
                broker,
                tps,
                acks,
                max_records,
                wait_ms,
            };
            out.at(at, SharePending::FetchArrive { fetch });
        }
        if m.fetches_out == 0 && !m.assigned.is_empty() {
            // Nothing to fetch from (no leader of its partitions reachable): try again after
            // `retry.backoff.ms`.
            out.at(out.now.plus_ms(100), SharePending::Poll { group: group.into(), client_id: client_id.into(), token });
        }
    }

    /// The leader's side of a ShareFetch: acknowledgements first, then acquisition, or the
    /// fetch waits.
    pub(super) fn fetch_arrive(&mut self, fetch: ShareFetch, cluster: &Cluster, out: &mut Driver) {
        self.apply_acks(&fetch.group, &fetch.client_id, &fetch.member_id, fetch.broker, &fetch.acks, cluster, out);
        let records = self.acquire_for(&fetch, cluster, out);
        if records.is_empty() && cluster.reachable(fetch.broker) && fetch.wait_ms > 0 {
            let id = fetch.id;
            out.at(out.now.plus_ms(fetch.wait_ms), SharePending::FetchTimeout { id });
            self.parked.push(ShareFetch { acks: Vec::new(), ..fetch });
            return;
        }
        let at = out.now.plus_ms(out.latency());
        out.at(at, SharePending::FetchResponse { group: fetch.group, client_id: fetch.client_id, token: fetch.token, records });
    }

    /// `fetch.max.wait.ms` ran out: the parked fetch is answered with what there is.
    pub(super) fn fetch_timeout(&mut self, id: u64, cluster: &Cluster, out: &mut Driver) {
        let Some(i) = self.parked.iter().position(|f| f.id == id) else { return };
        let fetch = self.parked.remove(i);
        let records = self.acquire_for(&fetch, cluster, out);
        let at = out.now.plus_ms(out.latency());
        out.at(at, SharePending::FetchResponse { group: fetch.group, client_id: fetch.client_id, token: fetch.token, records });
    }

    /// New records (a HW advance) or records available again: the parked ShareFetches for
    /// the partition try again, and answer if they acquire something.
    pub(crate) fn wake_parked(&mut self, tp: &TopicPartition, cluster: &Cluster, out: &mut Driver) {
        if self.parked.is_empty() {
            return;
        }
        let mut i = 0;
        while i < self.parked.len() {
            if !self.parked[i].tps.contains(tp) {
                i += 1;
                continue;
            }
            let fetch = self.parked[i].clone();
            let records = self.acquire_for(&fetch, cluster, out);
            if records.is_empty() {
                i += 1;
                continue;
            }
            self.parked.remove(i);
            let at = out.now.plus_ms(out.latency());
            out.at(at, SharePending::FetchResponse { group: fetch.group, client_id: fetch.client_id, token: fetch.token, records });
        }
    }

    /// The broker forgets a member's parked fetches (it crashed or closed).
    pub(super) fn drop_parked(&mut self, group: &str, client_id: &str) {
        self.parked.retain(|f| !(f.group == group && f.client_id == client_id));
    }

    /// The share partition at its leader, created from `share.auto.offset.reset` the first
    /// time, reloaded from `__share_group_state` by a new leader.
    fn share_partition<'a>(
        g: &'a mut crate::share_group::ShareGroup,
        tp: &TopicPartition,
        cluster: &Cluster,
        out: &mut Driver,
    ) -> Option<&'a mut SharePartition> {
        let part = cluster.partition(tp)?;
        let leader = part.leader?;
        let log = part.logs.get(&leader)?;
        let epoch = part.leader_epoch;
        if !g.partitions.contains_key(tp) {
            let earliest = g.config.share_auto_offset_reset == crate::config::OffsetReset::Earliest;
            let start = if earliest { log.log_start_offset() } else { log.high_watermark() };
            g.partitions.insert(tp.clone(), SharePartition::new(start, epoch));
            out.emit(EventKind::ShareGroup(ShareGroupEvent::SharePartitionInitialized {
                group: g.id.clone(),
                tp: tp.clone(),
                start_offset: start,
                earliest,
            }));
        }
        let sp = g.partitions.get_mut(tp)?;
        if sp.leader_epoch != epoch {
            sp.reload(epoch);
            out.emit(EventKind::ShareGroup(ShareGroupEvent::SharePartitionReloaded {
                group: g.id.clone(),
                tp: tp.clone(),
                start_offset: sp.start,
            }));
        }
        Some(sp)
    }

    /// Acquires records for a ShareFetch at its broker, partition by partition, up to the
    /// fetch's `max_records` in all (whole batches may bring more).
    fn acquire_for(&mut self, fetch: &ShareFetch, cluster: &Cluster, out: &mut Driver) -> Vec<(TopicPartition, StoredRecord, u32)> {
        let mut records = Vec::new();
        if !cluster.reachable(fetch.broker) {
            return records;
        }
        let Some(g) = self.groups.get_mut(&fetch.group) else { return records };
        let (lock_ms, max_locks) = (g.config.share_record_lock_duration_ms, g.config.share_partition_max_record_locks);
        let mut budget = fetch.max_records;
        for tp in &fetch.tps {
            if budget == 0 {
                break;
            }
            let Some(part) = cluster.partition(tp) else { continue };
            if part.leader != Some(fetch.broker) {
                continue;
            }
            let Some(log) = part.logs.get(&fetch.broker) else { continue };
            let lock_until = out.now.plus_ms(lock_ms);
            let Some(sp) = Self::share_partition(g, tp, cluster, out) else { continue };
            let slice = log.read_committed(sp.next_fetch_offset(), u32::MAX);
            let (got, acquisition) = sp.acquire(&fetch.member_id, &slice, budget, max_locks, lock_until);
            if got.is_empty() {
                continue;
            }
            budget = budget.saturating_sub(got.len() as u32);
            g.delivered += got.len() as u64;
            g.redelivered += got.iter().filter(|a| a.delivery_count > 1).count() as u64;
            for a in &got {
                if let Some(r) = log.get(a.offset) {
                    records.push((tp.clone(), r.clone(), a.delivery_count));
                }
            }
            out.emit(EventKind::ShareGroup(ShareGroupEvent::ShareRecordsAcquired {
                group: fetch.group.clone(),
                client_id: fetch.client_id.clone(),
                tp: tp.clone(),
                records: got.iter().map(|a| (a.offset, a.delivery_count)).collect(),
                lock_until_ms: lock_until.ms(),
            }));
            out.at(lock_until, SharePending::LockExpiry { group: fetch.group.clone(), tp: tp.clone(), acquisition });
        }
        records
    }

    /// The leader applies acknowledgements (ShareFetch or ShareAcknowledge).
    #[allow(clippy::too_many_arguments)]
    fn apply_acks(
        &mut self,
        group: &str,
        client_id: &str,
        member_id: &str,
        broker: BrokerId,
        acks: &[Ack],
        cluster: &Cluster,
        out: &mut Driver,
    ) {
        if acks.is_empty() || !cluster.reachable(broker) {
            return;
        }
        let Some(g) = self.groups.get_mut(group) else { return };
        let limit = g.config.share_delivery_count_limit;
        // Per partition and type, in order: one event for each run.
        let mut done: Vec<(TopicPartition, AcknowledgeType, Vec<u64>)> = Vec::new();
        let mut failed: Vec<(TopicPartition, ShareError, Vec<u64>)> = Vec::new();
        let mut archived = Vec::new();
        let mut released: Vec<(TopicPartition, (), Vec<u64>)> = Vec::new();
        let mut touched: Vec<TopicPartition> = Vec::new();
        for (tp, offset, kind) in acks {
            let leads = cluster.partition(tp).is_some_and(|p| p.leader == Some(broker));
            let result = if leads {
                match Self::share_partition(g, tp, cluster, out) {
                    Some(sp) => sp.acknowledge(member_id, *offset, *kind, limit),
                    None => Err(ShareError::NotLeaderOrFollower),
                }
            } else {
                Err(ShareError::NotLeaderOrFollower)
            };
            match result {
                Ok(state) => {
                    push_run(&mut done, tp, *kind, *offset);
                    if !touched.contains(tp) {
                        touched.push(tp.clone());
                    }
                    match state {
                        RecordState::Acknowledged => g.acknowledged += 1,
                        RecordState::Archived => {
                            g.archived += 1;
                            let count = g.partitions.get(tp).and_then(|sp| sp.state_of(*offset)).map_or(0, |(_, c)| c);
                            let cause = if *kind == AcknowledgeType::Reject { ArchiveCause::Rejected } else { ArchiveCause::DeliveryLimit };
                            archived.push((tp.clone(), *offset, count, cause));
                        }
                        RecordState::Available => push_run(&mut released, tp, (), *offset),
                        RecordState::Acquired => {}
                    }
                }
                Err(e) => push_run(&mut failed, tp, e, *offset),
            }
        }
        for (tp, acknowledge_type, offsets) in done {
            out.emit(EventKind::ShareGroup(ShareGroupEvent::ShareAcknowledged {
                group: group.into(),
                client_id: client_id.into(),
                tp,
                offsets,
                acknowledge_type,
            }));
        }
        for (tp, error, offsets) in failed {
            out.emit(EventKind::ShareGroup(ShareGroupEvent::ShareAcknowledgeFailed {
                group: group.into(),
                client_id: client_id.into(),
                tp,
                offsets,
                error,
            }));
        }
        for (tp, (), offsets) in released {
            out.emit(EventKind::ShareGroup(ShareGroupEvent::ShareRecordsReturned {
                group: group.into(),
                client_id: client_id.into(),
                tp,
                offsets,
                cause: ReturnCause::Released,
            }));
        }
        for (tp, offset, delivery_count, cause) in archived {
            out.emit(EventKind::ShareGroup(ShareGroupEvent::ShareRecordArchived {
                group: group.into(),
                tp,
                offset,
                delivery_count,
                cause,
            }));
        }
        for tp in touched {
            self.after_change(group, &tp, cluster, out);
        }
    }

    /// After records changed state: SPSO moves over terminal ones (written to
    /// `__share_group_state`), and parked fetches may now acquire what came back.
    fn after_change(&mut self, group: &str, tp: &TopicPartition, cluster: &Cluster, out: &mut Driver) {
        let Some(sp) = self.groups.get_mut(group).and_then(|g| g.partitions.get_mut(tp)) else { return };
        match sp.advance_start() {
            Some(start_offset) => out.emit(EventKind::ShareGroup(ShareGroupEvent::ShareStartOffsetMoved {
                group: group.into(),
                tp: tp.clone(),
                start_offset,
            })),
            None => sp.note_write(),
        }
        self.wake_parked(tp, cluster, out);
    }

    /// A ShareAcknowledge at a leader: the acknowledgements, and with `close` the end of the
    /// member's share session there (what it still holds is released).
    #[allow(clippy::too_many_arguments)]
    pub(super) fn acknowledge_arrive(
        &mut self,
        group: &str,
        client_id: &str,
        member_id: &str,
        broker: BrokerId,
        acks: Vec<Ack>,
        close: bool,
        cluster: &Cluster,
        out: &mut Driver,
    ) {
        self.apply_acks(group, client_id, member_id, broker, &acks, cluster, out);
        if !close || !cluster.reachable(broker) {
            return;
        }
        let Some(g) = self.groups.get_mut(group) else { return };
        let limit = g.config.share_delivery_count_limit;
        let led: Vec<TopicPartition> =
            g.partitions.keys().filter(|tp| cluster.partition(tp).is_some_and(|p| p.leader == Some(broker))).cloned().collect();
        for tp in led {
            let Some(sp) = self.groups.get_mut(group).and_then(|g| g.partitions.get_mut(&tp)) else { continue };
            let changed = sp.release_member(member_id, limit);
            if changed.is_empty() {
                continue;
            }
            self.returned(group, client_id, &tp, changed, ReturnCause::SessionClosed, cluster, out);
        }
    }

    /// Records came back (lock expiry, session end): the event, the archived ones at the
    /// limit, SPSO, parked fetches.
    #[allow(clippy::too_many_arguments)]
    fn returned(
        &mut self,
        group: &str,
        client_id: &str,
        tp: &TopicPartition,
        changed: Vec<(u64, RecordState, u32)>,
        cause: ReturnCause,
        cluster: &Cluster,
        out: &mut Driver,
    ) {
        let Some(g) = self.groups.get_mut(group) else { return };
        let back: Vec<u64> = changed.iter().filter(|c| c.1 == RecordState::Available).map(|c| c.0).collect();
        if !back.is_empty() {
            out.emit(EventKind::ShareGroup(ShareGroupEvent::ShareRecordsReturned {
                group: group.into(),
                client_id: client_id.into(),
                tp: tp.clone(),
                offsets: back,
                cause,
            }));
        }
        for (offset, state, delivery_count) in &changed {
            if *state == RecordState::Archived {
                g.archived += 1;
                out.emit(EventKind::ShareGroup(ShareGroupEvent::ShareRecordArchived {
                    group: group.into(),
                    tp: tp.clone(),
                    offset: *offset,
                    delivery_count: *delivery_count,
                    cause: ArchiveCause::DeliveryLimit,
                }));
            }
        }
        self.after_change(group, tp, cluster, out);
    }

    /// An acquisition lock ran out (`AcquisitionLockTimerTask`).
    pub(super) fn lock_expiry(&mut self, group: &str, tp: &TopicPartition, acquisition: u64, cluster: &Cluster, out: &mut Driver) {
        let Some(g) = self.groups.get_mut(group) else { return };
        let limit = g.config.share_delivery_count_limit;
        let Some(sp) = g.partitions.get_mut(tp) else { return };
        let owner =
            sp.records().find(|(_, r)| r.acquisition == acquisition && r.state == RecordState::Acquired).and_then(|(_, r)| r.owner.clone());
        let changed = sp.expire(acquisition, limit);
        if changed.is_empty() {
            return;
        }
        g.lock_expiries += changed.len() as u64;
        let client = owner.as_deref().and_then(|o| g.client_of(o)).unwrap_or_default().to_string();
        self.returned(group, &client, tp, changed, ReturnCause::LockExpired, cluster, out);
    }

    /// The ShareFetch answer reaches the consumer: `poll()` returns the records, which the
    /// application processes one at a time.
    pub(super) fn fetch_response(
        &mut self,
        group: &str,
        client_id: &str,
        token: u64,
        records: Vec<(TopicPartition, StoredRecord, u32)>,
        cluster: &Cluster,
        out: &mut Driver,
    ) {
        let kept = out.options.received_per_member;
        let now = out.now;
        let Some(m) = self.groups.get_mut(group).and_then(|g| g.member_mut(client_id)) else { return };
        if m.token != token || m.phase == SharePhase::Crashed {
            return;
        }
        m.fetches_out = m.fetches_out.saturating_sub(1);
        for (tp, r, delivery_count) in records {
            let d = ShareDelivery {
                record: r.record.id,
                tp: tp.clone(),
                offset: r.offset,
                value: r.record.value.to_string(),
                delivery_count,
                at: now,
            };
            out.emit(EventKind::ShareGroup(ShareGroupEvent::ShareRecordDelivered {
                group: group.into(),
                client_id: client_id.into(),
                record: r.record.id,
                tp,
                offset: r.offset,
                value: r.record.value.to_string(),
                delivery_count,
            }));
            m.in_hand.push_back(d.clone());
            m.remember(d, kept);
        }
        if m.fetches_out > 0 {
            return;
        }
        self.next_record(group, client_id, cluster, out);
    }

    /// The application takes the next record in hand, or polls again when it has none.
    fn next_record(&mut self, group: &str, client_id: &str, cluster: &Cluster, out: &mut Driver) {
        let Some(m) = self.groups.get_mut(group).and_then(|g| g.member_mut(client_id)) else { return };
        let token = m.token;
        if m.in_hand.is_empty() {
            self.poll(group, client_id, token, cluster, out);
        } else {
            let at = out.now.plus_ms(m.config.processing_ms);
            out.at(at, SharePending::ProcessingDone { group: group.into(), client_id: client_id.into(), token });
        }
    }

    /// The application finished a record: it acknowledges it (implicit mode: ACCEPT, sent
    /// with the next poll; explicit: the type its code chooses).
    pub(super) fn processing_done(&mut self, group: &str, client_id: &str, token: u64, cluster: &Cluster, out: &mut Driver) {
        let Some(g) = self.groups.get_mut(group) else { return };
        let Some(m) = g.members.iter_mut().find(|m| m.client_id == client_id) else { return };
        if m.token != token || m.phase == SharePhase::Crashed {
            return;
        }
        let Some(d) = m.in_hand.pop_front() else { return };
        let kind = m.acknowledgement_for(&d.value);
        m.pending_acks.push((d.tp.clone(), d.offset, kind));
        m.processed_total += 1;
        if kind == AcknowledgeType::Accept && !g.processed.entry(d.tp.clone()).or_default().insert(d.offset) {
            // At-least-once: a record processed again (its lock ran out while it was being
            // processed, and another delivery was processed too).
            g.processed_again += 1;
        }
        self.next_record(group, client_id, cluster, out);
    }

    /// `close()`: the consumer acknowledges what it processed and ends its share sessions
    /// (ShareAcknowledge to every leader it fetched from; what it still holds is released),
    /// then leaves with member epoch −1.
    pub(super) fn close_member(&mut self, group: &str, client_id: &str, cluster: &Cluster, out: &mut Driver) {
        let Some(g) = self.groups.get_mut(group) else { return };
        let Some(i) = g.members.iter().position(|m| m.client_id == client_id) else { return };
        let m = g.members.remove(i);
        self.drop_parked(group, client_id);
        if m.phase == SharePhase::Crashed {
            return;
        }
        let at = out.now.plus_ms(out.latency());
        let mut by_broker: VecMap<BrokerId, Vec<Ack>> = VecMap::new();
        if let Some(g) = self.groups.get(group) {
            for tp in g.partitions.keys() {
                if let Some(leader) = cluster.partition(tp).and_then(|p| p.leader) {
                    by_broker.entry(leader).or_default();
                }
            }
        }
        for ack in m.pending_acks {
            if let Some(leader) = cluster.partition(&ack.0).and_then(|p| p.leader) {
                by_broker.entry(leader).or_default().push(ack);
            }
        }
        for (broker, acks) in by_broker {
            out.at(
                at,
                SharePending::AcknowledgeArrive {
                    group: group.into(),
                    client_id: client_id.into(),
                    member_id: m.member_id.clone(),
                    broker,
                    acks,
                    close: true,
                },
            );
        }
        if cluster.coordinator_of(group).is_some() {
            out.at(
                at,
                SharePending::HeartbeatArrive {
                    group: group.into(),
                    client_id: client_id.into(),
                    incarnation: m.incarnation,
                    member_id: m.member_id,
                    member_epoch: super::coordinator::LEAVE_EPOCH,
                },
            );
        }
    }
}

/// Appends `offset` to the last run if it has the same partition and key, else starts one.
fn push_run<K: PartialEq + Copy>(runs: &mut Vec<(TopicPartition, K, Vec<u64>)>, tp: &TopicPartition, key: K, offset: u64) {
    match runs.last_mut() {
        Some((t, k, offsets)) if t == tp && *k == key => offsets.push(offset),
        _ => runs.push((tp.clone(), key, vec![offset])),
    }
}
