//! Share groups (KIP-932): the state of a share partition at its leader (`SharePartition`:
//! the in-flight window SPSO..SPEO, each record's state, delivery count, owner and lock),
//! what `__share_group_state` keeps of it, and a share group's coordinator side and
//! consumers. The protocol (ShareGroupHeartbeat, ShareFetch, ShareAcknowledge, lock
//! timers) lives in `sim/share/`.

pub use crate::command::{AcknowledgeType, AcknowledgementMode, ShareConsumerConfig, ShareGroupConfig};
pub use crate::event::ShareError;
use crate::record::{RecordId, TopicPartition};
use crate::time::SimTime;
use crate::vecmap::VecMap;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, VecDeque};

/// A record's state in a share partition (`RecordState`; Kafka's ids in brackets).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RecordState {
    /// AVAILABLE (0): may be acquired by the next ShareFetch.
    Available,
    /// ACQUIRED (1): delivered to one consumer, locked to it until its lock expires.
    Acquired,
    /// ACKNOWLEDGED (2): accepted; terminal.
    Acknowledged,
    /// ARCHIVED (4): rejected, or delivered `group.share.delivery.count.limit` times;
    /// terminal, never delivered again.
    Archived,
}

impl RecordState {
    /// ACKNOWLEDGED and ARCHIVED are terminal: the start offset moves over them.
    pub fn is_terminal(self) -> bool {
        matches!(self, RecordState::Acknowledged | RecordState::Archived)
    }

    /// Kafka's name.
    pub fn kafka_name(self) -> &'static str {
        match self {
            RecordState::Available => "AVAILABLE",
            RecordState::Acquired => "ACQUIRED",
            RecordState::Acknowledged => "ACKNOWLEDGED",
            RecordState::Archived => "ARCHIVED",
        }
    }
}

/// One record in flight (`InFlightState`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct InFlight {
    pub(crate) state: RecordState,
    /// How many times it was acquired (`deliveryCount`).
    pub(crate) delivery_count: u32,
    /// The member id holding it while ACQUIRED.
    pub(crate) owner: Option<String>,
    /// When its acquisition lock expires, while ACQUIRED.
    pub(crate) lock_until: Option<SimTime>,
    /// Which acquisition holds it (its lock timer names it; a stale timer finds another).
    pub(crate) acquisition: u64,
}

/// What the share coordinator keeps of a share partition in `__share_group_state` (its
/// `ShareSnapshot` and `ShareUpdate` records folded): the start offset and each record's
/// state and delivery count as last written. Written when records become AVAILABLE,
/// ACKNOWLEDGED or ARCHIVED and when the start offset moves — not at acquisition — so a new
/// leader reloads acquired records as they were last written.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Persisted {
    pub(crate) start_offset: u64,
    pub(crate) records: BTreeMap<u64, (RecordState, u32)>,
    /// How many state writes were made (each `WriteShareGroupState`).
    pub(crate) writes: u64,
}

/// A record a ShareFetch acquired: its offset and delivery count.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Acquired {
    pub(crate) offset: u64,
    pub(crate) delivery_count: u32,
}

/// A share partition as its leader holds it (`SharePartition`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct SharePartition {
    /// SPSO (`startOffset`): every offset below it is done with.
    pub(crate) start: u64,
    /// One past the last offset ever in flight; SPEO (`endOffset`) is one less, or SPSO
    /// while nothing is in flight.
    pub(crate) next_new: u64,
    /// The in-flight records, SPSO..next_new (`cachedState`; an offset missing in that
    /// range was never acquired since a reload: it is AVAILABLE with count 0).
    pub(crate) cached: BTreeMap<u64, InFlight>,
    /// The leader epoch it was loaded under: another epoch means a new leader, which
    /// reloads it from [`Persisted`].
    pub(crate) leader_epoch: u32,
    pub(crate) persisted: Persisted,
    next_acquisition: u64,
}

/// An offset's batch, as the leader's log groups records: consecutive records appended
/// together (one Produce request's batch for the partition: the same producer, moment and
/// leader epoch). Acquisition in `batch_optimized` mode takes whole batches.
pub(crate) fn same_batch(a: &crate::record::StoredRecord, b: &crate::record::StoredRecord) -> bool {
    a.record.producer == b.record.producer && a.appended_at == b.appended_at && a.leader_epoch == b.leader_epoch
}

impl SharePartition {
    /// Initialized at `start` (from `share.auto.offset.reset`: nothing persisted yet).
    pub(crate) fn new(start: u64, leader_epoch: u32) -> Self {
        let persisted = Persisted { start_offset: start, records: BTreeMap::new(), writes: 1 };
        Self { start, next_new: start, cached: BTreeMap::new(), leader_epoch, persisted, next_acquisition: 1 }
    }

    /// SPEO as Kafka reports it (`endOffset`).
    pub fn end_offset(&self) -> u64 {
        if self.next_new > self.start {
            self.next_new - 1
        } else {
            self.start
        }
    }

    /// Records in flight: SPEO − SPSO + 1, or 0 with nothing in flight (`numInFlightRecords`).
    pub fn in_flight(&self) -> u64 {
        self.next_new - self.start
    }

    /// A record's state and delivery count (AVAILABLE with 0 for an offset at or past
    /// SPEO + 1, or in a gap; ARCHIVED-or-done below SPSO is `None`).
    pub fn state_of(&self, offset: u64) -> Option<(RecordState, u32)> {
        if offset < self.start {
            return None;
        }
        Some(self.cached.get(&offset).map(|r| (r.state, r.delivery_count)).unwrap_or((RecordState::Available, 0)))
    }

    /// `nextFetchOffset`: the lowest AVAILABLE offset in flight (released and expired records
    /// go first), else the first offset after the window.
    pub fn next_fetch_offset(&self) -> u64 {
        for o in self.start..self.next_new {
            match self.cached.get(&o) {
                Some(r) if r.state != RecordState::Available => {}
                _ => return o,
            }
        }
        self.next_new
    }

    /// `canAcquireRecords`: something in flight is available again, or the window is below
    /// `group.share.partition.max.record.locks`.
    pub fn can_acquire(&self, max_locks: u32) -> bool {
        self.next_fetch_offset() != self.next_new || self.in_flight() < u64::from(max_locks)
    }

    /// `SharePartition.acquire` for `member`: from [`Self::next_fetch_offset`], the AVAILABLE
    /// records in flight and then new records of `log` (the leader's log below its HW), at
    /// most `max_records` — whole batches of new records in `batch_optimized` mode, so it
    /// may bring more — and new records only while the window stays under `max_locks`
    /// (`lastOffsetAndMaxRecordsToAcquire`). Each acquired record's delivery count goes up
    /// by one and it is locked until `lock_until`. Returns what was acquired, in offset
    /// order, and the acquisition id its lock timer must name.
    pub(crate) fn acquire<'r, L>(
        &mut self,
        member: &str,
        log: L,
        max_records: u32,
        max_locks: u32,
        lock_until: SimTime,
    ) -> (Vec<Acquired>, u64)
    where
        // The leader's records: a slice, or the log's own view (`&Records`), read in place.
        L: IntoIterator<Item = &'r crate::record::StoredRecord> + Copy,
        L::IntoIter: DoubleEndedIterator,
    {
        let mut got = Vec::new();
        let acquisition = self.next_acquisition;
        if max_records == 0 || !self.can_acquire(max_locks) {
            return (got, acquisition);
        }
        let fetch_offset = self.next_fetch_offset();
        // Records before the log start (deleted by retention) are gone: the window moves.
        if let Some(first) = log.into_iter().next() {
            if self.cached.is_empty() && self.start < first.offset && self.next_new <= first.offset {
                self.start = first.offset;
                self.next_new = first.offset;
            }
        }
        let in_flight = self.in_flight();
        let room = u64::from(max_locks).saturating_sub(in_flight);
        let mut budget = u64::from(max_records).min(room);
        // At the limit, only what is already in flight can be re-acquired.
        let within_window_only = budget == 0;
        if within_window_only {
            if fetch_offset >= self.next_new {
                return (got, acquisition);
            }
            budget = u64::from(max_records).min(self.next_new - fetch_offset);
        }
        let lock = |count: u32| InFlight {
            state: RecordState::Acquired,
            delivery_count: count,
            owner: Some(member.to_string()),
            lock_until: Some(lock_until),
            acquisition,
        };
        // Re-acquire AVAILABLE records in flight, lowest first.
        let mut o = fetch_offset;
        while o < self.next_new && (got.len() as u64) < budget {
            let available = match self.cached.get(&o) {
                None => Some(0),
                Some(r) if r.state == RecordState::Available => Some(r.delivery_count),
                Some(_) => None,
            };
            if let Some(count) = available {
                // The log slice is contiguous: a range check finds the record.
                if log.into_iter().next().is_some_and(|f| f.offset <= o) && log.into_iter().next_back().is_some_and(|l| o <= l.offset) {
                    self.cached.insert(o, lock(count + 1));
                    got.push(Acquired { offset: o, delivery_count: count + 1 });
                }
            }
            o += 1;
        }
        // Then new records, whole batches: the batch holding the last one within the budget
        // is taken to its end.
        if !within_window_only && (got.len() as u64) < budget {
            let new: Vec<&crate::record::StoredRecord> = log.into_iter().filter(|r| r.offset >= self.next_new).collect();
            let want = (budget - got.len() as u64) as usize;
            let mut take = want.min(new.len());
            while take > 0 && take < new.len() && same_batch(new[take - 1], new[take]) {
                take += 1;
            }
            for r in new.iter().take(take) {
                self.cached.insert(r.offset, lock(1));
                got.push(Acquired { offset: r.offset, delivery_count: 1 });
                self.next_new = self.next_new.max(r.offset + 1);
            }
        }
        if !got.is_empty() {
            self.next_acquisition += 1;
        }
        (got, acquisition)
    }

    /// The member's acknowledgement of `offset`: ACCEPT → ACKNOWLEDGED, RELEASE → AVAILABLE
    /// (ARCHIVED at `limit` deliveries, `InFlightState.tryUpdateState`), REJECT → ARCHIVED.
    /// Refused with INVALID_RECORD_STATE unless the record is ACQUIRED by `member`.
    /// Returns the record's new state.
    pub(crate) fn acknowledge(&mut self, member: &str, offset: u64, kind: AcknowledgeType, limit: u32) -> Result<RecordState, ShareError> {
        let Some(r) = self.cached.get_mut(&offset) else { return Err(ShareError::InvalidRecordState) };
        if r.state != RecordState::Acquired || r.owner.as_deref() != Some(member) {
            return Err(ShareError::InvalidRecordState);
        }
        let state = match kind {
            AcknowledgeType::Accept => RecordState::Acknowledged,
            AcknowledgeType::Reject => RecordState::Archived,
            AcknowledgeType::Release if r.delivery_count >= limit => RecordState::Archived,
            AcknowledgeType::Release => RecordState::Available,
        };
        r.state = state;
        r.owner = None;
        r.lock_until = None;
        self.persisted.records.insert(offset, (state, r.delivery_count));
        Ok(state)
    }

    /// An acquisition lock ran out (`AcquisitionLockTimerTask`): the records still held by
    /// that acquisition become AVAILABLE, or ARCHIVED at `limit` deliveries. Returns each
    /// offset it changed with its new state and delivery count.
    pub(crate) fn expire(&mut self, acquisition: u64, limit: u32) -> Vec<(u64, RecordState, u32)> {
        let mut changed = Vec::new();
        for (o, r) in self.cached.iter_mut() {
            if r.state == RecordState::Acquired && r.acquisition == acquisition {
                let state = if r.delivery_count >= limit { RecordState::Archived } else { RecordState::Available };
                r.state = state;
                r.owner = None;
                r.lock_until = None;
                changed.push((*o, state, r.delivery_count));
            }
        }
        for (o, state, count) in &changed {
            self.persisted.records.insert(*o, (*state, *count));
        }
        changed
    }

    /// A member's share session ended (`releaseAcquiredRecords`): what it still holds goes
    /// back, AVAILABLE or ARCHIVED at `limit` deliveries.
    pub(crate) fn release_member(&mut self, member: &str, limit: u32) -> Vec<(u64, RecordState, u32)> {
        let mut changed = Vec::new();
        for (o, r) in self.cached.iter_mut() {
            if r.state == RecordState::Acquired && r.owner.as_deref() == Some(member) {
                let state = if r.delivery_count >= limit { RecordState::Archived } else { RecordState::Available };
                r.state = state;
                r.owner = None;
                r.lock_until = None;
                changed.push((*o, state, r.delivery_count));
            }
        }
        for (o, state, count) in &changed {
            self.persisted.records.insert(*o, (*state, *count));
        }
        changed
    }

    /// SPSO moves over the terminal records at the start of the window
    /// (`maybeUpdateCachedStateAndOffsets`); `Some(new start)` if it moved.
    pub(crate) fn advance_start(&mut self) -> Option<u64> {
        let before = self.start;
        while self.start < self.next_new {
            match self.cached.get(&self.start) {
                Some(r) if r.state.is_terminal() => {
                    self.cached.remove(&self.start);
                    self.start += 1;
                }
                _ => break,
            }
        }
        if self.start == before {
            return None;
        }
        let start = self.start;
        self.persisted.start_offset = start;
        self.persisted.records = self.persisted.records.split_off(&start);
        self.persisted.writes += 1;
        Some(start)
    }

    /// Counts a state write (`WriteShareGroupState`) for acknowledgements, releases and
    /// expiries that did not move the start.
    pub(crate) fn note_write(&mut self) {
        self.persisted.writes += 1;
    }

    /// A new leader (another `leader_epoch`) loads the share partition from
    /// `__share_group_state` (`SharePartition.maybeInitialize`): what was ACQUIRED there is
    /// as last written — AVAILABLE with its written count, or never written at all.
    pub(crate) fn reload(&mut self, leader_epoch: u32) {
        let p = self.persisted.clone();
        self.start = p.start_offset;
        self.cached = p
            .records
            .iter()
            .filter(|(o, _)| **o >= p.start_offset)
            .map(|(o, (state, count))| {
                (*o, InFlight { state: *state, delivery_count: *count, owner: None, lock_until: None, acquisition: 0 })
            })
            .collect();
        self.next_new = self.cached.keys().next_back().map(|o| o + 1).unwrap_or(self.start).max(self.start);
        self.leader_epoch = leader_epoch;
    }

    /// The share partition's lag (Kafka 4.2, KIP-1226): `hw` − SPSO minus the terminal
    /// records in the window.
    pub fn lag(&self, hw: u64) -> u64 {
        let terminal = self.cached.values().filter(|r| r.state.is_terminal()).count() as u64;
        hw.saturating_sub(self.start).saturating_sub(terminal)
    }

    /// How many records are ACQUIRED now.
    pub fn acquired(&self) -> u64 {
        self.cached.values().filter(|r| r.state == RecordState::Acquired).count() as u64
    }

    /// The in-flight records: offset, state, delivery count, owner (member id) and lock.
    pub(crate) fn records(&self) -> impl Iterator<Item = (u64, &InFlight)> {
        self.cached.iter().map(|(o, r)| (*o, r))
    }
}

/// Where a share consumer is, as it sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SharePhase {
    /// Its first heartbeat (epoch 0) is on its way.
    Joining,
    /// In the group with a member epoch: fetching and processing.
    Stable,
    /// The process is gone.
    Crashed,
}

/// A record `poll()` handed to a share consumer's application.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ShareDelivery {
    /// The record's id in the sandbox.
    pub record: RecordId,
    /// The partition.
    pub tp: TopicPartition,
    /// Its offset.
    pub offset: u64,
    /// Its value.
    pub value: String,
    /// The delivery count the leader gave it with this acquisition (1 the first time).
    pub delivery_count: u32,
    /// When `poll()` returned it.
    pub at: SimTime,
}

/// A share consumer (client side).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct ShareMember {
    pub(crate) client_id: String,
    /// Its member id: a UUID the consumer makes itself (KIP-1082), new at each start.
    pub(crate) member_id: String,
    pub(crate) config: ShareConsumerConfig,
    pub(crate) rules: Vec<crate::command::AcknowledgeRule>,
    pub(crate) phase: SharePhase,
    /// The member epoch the last heartbeat answer gave (0 before it).
    pub(crate) member_epoch: i32,
    /// Its assignment, as the last heartbeat answer gave it (no revocation step).
    pub(crate) assigned: Vec<TopicPartition>,
    /// Bumped at each crash or restart: messages to an older incarnation are dropped.
    pub(crate) incarnation: u64,
    /// Bumped whenever its poll loop restarts, so stale events are ignored.
    pub(crate) token: u64,
    /// ShareFetch responses it still waits for in this poll.
    pub(crate) fetches_out: u32,
    /// Records returned by `poll()` not processed yet, in order.
    pub(crate) in_hand: VecDeque<ShareDelivery>,
    /// Processed records' acknowledgements not sent yet: partition, offset, type.
    pub(crate) pending_acks: Vec<(TopicPartition, u64, AcknowledgeType)>,
    /// The newest deliveries (bounded), oldest first: the order it received records.
    pub(crate) received: VecDeque<ShareDelivery>,
    pub(crate) received_total: u64,
    pub(crate) processed_total: u64,
    /// Its heartbeat interval from the coordinator (0 before the first answer).
    pub(crate) interval_ms: u64,
    /// A heartbeat is on its way.
    pub(crate) heartbeat_out: bool,
}

impl ShareMember {
    /// The acknowledgement the application gives a processed record.
    pub(crate) fn acknowledgement_for(&self, value: &str) -> AcknowledgeType {
        if self.config.share_acknowledgement_mode == AcknowledgementMode::Implicit {
            return AcknowledgeType::Accept;
        }
        self.rules.iter().find(|r| r.value == value).map(|r| r.acknowledge_type).unwrap_or(AcknowledgeType::Accept)
    }

    /// Remembers a delivery, keeping the newest `kept`.
    pub(crate) fn remember(&mut self, d: ShareDelivery, kept: usize) {
        if self.received.len() >= kept.max(1) {
            self.received.pop_front();
        }
        self.received.push_back(d);
        self.received_total += 1;
    }
}

/// A share-group member as the coordinator knows it (`ShareGroupMember`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct ShareRegistered {
    pub(crate) member_id: String,
    pub(crate) client_id: String,
    pub(crate) member_epoch: i32,
    pub(crate) assignment: Vec<TopicPartition>,
    /// Its stored target assignment record (`ShareGroupTargetAssignmentMemberValue`):
    /// topics and partitions in the order Kafka wrote them, which the assignor reads back.
    pub(crate) record: Vec<(String, u32)>,
    /// It is removed if no heartbeat arrives by then.
    pub(crate) session_deadline: SimTime,
}

/// A share group: the coordinator's side, its share partitions (at their leaders), and its
/// consumers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct ShareGroup {
    pub(crate) id: String,
    pub(crate) topics: Vec<String>,
    pub(crate) config: ShareGroupConfig,
    /// The consumers, in the order they started.
    pub(crate) members: Vec<ShareMember>,
    /// The members the coordinator knows, in join order.
    pub(crate) registry: Vec<ShareRegistered>,
    /// The group epoch: bumped by every membership or metadata change.
    pub(crate) group_epoch: i32,
    /// The target assignment by member id, and the epoch it was computed at.
    pub(crate) target: VecMap<String, Vec<TopicPartition>>,
    pub(crate) assignment_epoch: i32,
    /// The partition counts the target was computed with.
    pub(crate) assigned_counts: VecMap<String, u32>,
    /// Each share partition, held by the partition's leader.
    pub(crate) partitions: VecMap<TopicPartition, SharePartition>,
    /// Counters over the whole run.
    pub(crate) delivered: u64,
    pub(crate) redelivered: u64,
    pub(crate) acknowledged: u64,
    pub(crate) archived: u64,
    pub(crate) lock_expiries: u64,
    /// Records processed by more than one member or more than once (at-least-once).
    pub(crate) processed_again: u64,
    pub(crate) processed: VecMap<TopicPartition, crate::group::OffsetRanges>,
}

impl ShareGroup {
    pub(crate) fn new(id: String, topics: Vec<String>, config: ShareGroupConfig) -> Self {
        Self {
            id,
            topics,
            config,
            members: Vec::new(),
            registry: Vec::new(),
            group_epoch: 0,
            target: VecMap::new(),
            assignment_epoch: 0,
            assigned_counts: VecMap::new(),
            partitions: VecMap::new(),
            delivered: 0,
            redelivered: 0,
            acknowledged: 0,
            archived: 0,
            lock_expiries: 0,
            processed_again: 0,
            processed: VecMap::new(),
        }
    }

    pub(crate) fn member(&self, client_id: &str) -> Option<&ShareMember> {
        self.members.iter().find(|m| m.client_id == client_id)
    }

    pub(crate) fn member_mut(&mut self, client_id: &str) -> Option<&mut ShareMember> {
        self.members.iter_mut().find(|m| m.client_id == client_id)
    }

    /// The client id of a member id, if the group knows it (client or coordinator side).
    pub(crate) fn client_of(&self, member_id: &str) -> Option<&str> {
        self.members
            .iter()
            .find(|m| m.member_id == member_id)
            .map(|m| m.client_id.as_str())
            .or_else(|| self.registry.iter().find(|r| r.member_id == member_id).map(|r| r.client_id.as_str()))
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use crate::record::{Record, StoredRecord, TimestampType};

    /// A log of `n` records from offset 0, each its own batch unless `batch` says how
    /// many records each Produce request carried.
    fn log(n: u64, batch: u64) -> Vec<StoredRecord> {
        (0..n)
            .map(|o| StoredRecord {
                offset: o,
                record: Record::sample(o, 0),
                timestamp: SimTime(0),
                timestamp_type: TimestampType::CreateTime,
                appended_at: SimTime(o / batch.max(1)),
                leader_epoch: 0,
                delete_horizon: None,
            })
            .collect()
    }

    #[test]
    fn acquisition_locks_records_and_counts_deliveries() {
        let mut sp = SharePartition::new(0, 0);
        let (got, a) = sp.acquire("m1", &log(5, 1), 3, 200, SimTime(30_000));
        assert_eq!(got.iter().map(|g| (g.offset, g.delivery_count)).collect::<Vec<_>>(), vec![(0, 1), (1, 1), (2, 1)]);
        assert_eq!((sp.start, sp.end_offset(), sp.in_flight()), (0, 2, 3));
        assert_eq!(sp.state_of(1), Some((RecordState::Acquired, 1)));
        assert_eq!(sp.cached[&1].owner.as_deref(), Some("m1"));
        // Another member gets what follows, never the locked ones.
        let (got2, b) = sp.acquire("m2", &log(5, 1), 10, 200, SimTime(30_000));
        assert_eq!(got2.iter().map(|g| g.offset).collect::<Vec<_>>(), vec![3, 4]);
        assert_ne!(a, b);
    }

    #[test]
    fn whole_batches_are_acquired_in_batch_optimized_mode() {
        // Batches of 4: asking for 2 brings the whole first batch.
        let mut sp = SharePartition::new(0, 0);
        let (got, _) = sp.acquire("m1", &log(8, 4), 2, 200, SimTime(1));
        assert_eq!(got.len(), 4);
    }

    #[test]
    fn released_and_expired_records_are_redelivered_lowest_first_with_their_count() {
        let mut sp = SharePartition::new(0, 0);
        let (_, a) = sp.acquire("m1", &log(4, 1), 2, 200, SimTime(1));
        sp.acquire("m2", &log(4, 1), 2, 200, SimTime(1));
        assert_eq!(sp.acknowledge("m2", 3, AcknowledgeType::Release, 5), Ok(RecordState::Available));
        assert_eq!(sp.expire(a, 5), vec![(0, RecordState::Available, 1), (1, RecordState::Available, 1)]);
        assert_eq!(sp.next_fetch_offset(), 0);
        let (got, _) = sp.acquire("m3", &log(4, 1), 10, 200, SimTime(1));
        assert_eq!(got.iter().map(|g| (g.offset, g.delivery_count)).collect::<Vec<_>>(), vec![(0, 2), (1, 2), (3, 2)]);
    }

    #[test]
    fn accept_moves_the_start_over_terminal_records_only() {
        let mut sp = SharePartition::new(0, 0);
        sp.acquire("m", &log(3, 1), 3, 200, SimTime(1));
        sp.acknowledge("m", 1, AcknowledgeType::Accept, 5).unwrap();
        assert_eq!(sp.advance_start(), None, "offset 0 is still acquired");
        sp.acknowledge("m", 0, AcknowledgeType::Reject, 5).unwrap();
        assert_eq!(sp.advance_start(), Some(2));
        assert_eq!(sp.lag(3), 1, "only offset 2 is left");
        sp.acknowledge("m", 2, AcknowledgeType::Accept, 5).unwrap();
        assert_eq!(sp.advance_start(), Some(3));
        assert_eq!((sp.in_flight(), sp.end_offset(), sp.lag(3)), (0, 3, 0));
    }

    #[test]
    fn a_record_is_archived_at_the_delivery_count_limit() {
        let mut sp = SharePartition::new(0, 0);
        let limit = 3;
        for delivery in 1..=limit {
            let (got, _) = sp.acquire("m", &log(1, 1), 1, 200, SimTime(1));
            assert_eq!(got[0].delivery_count, delivery);
            let state = sp.acknowledge("m", 0, AcknowledgeType::Release, limit).unwrap();
            let expect = if delivery == limit { RecordState::Archived } else { RecordState::Available };
            assert_eq!(state, expect);
        }
        assert!(sp.acquire("m", &log(1, 1), 1, 200, SimTime(1)).0.is_empty(), "never delivered again");
    }

    #[test]
    fn only_the_owner_acknowledges_and_only_while_acquired() {
        let mut sp = SharePartition::new(0, 0);
        let (_, a) = sp.acquire("m1", &log(1, 1), 1, 200, SimTime(1));
        assert_eq!(sp.acknowledge("m2", 0, AcknowledgeType::Accept, 5), Err(ShareError::InvalidRecordState));
        sp.expire(a, 5);
        assert_eq!(sp.acknowledge("m1", 0, AcknowledgeType::Accept, 5), Err(ShareError::InvalidRecordState));
        // A stale timer of an older acquisition changes nothing.
        sp.acquire("m2", &log(1, 1), 1, 200, SimTime(1));
        assert!(sp.expire(a, 5).is_empty());
    }

    #[test]
    fn the_window_stops_new_acquisitions_at_max_record_locks() {
        let mut sp = SharePartition::new(0, 0);
        let (got, _) = sp.acquire("m1", &log(10, 1), 100, 4, SimTime(1));
        assert_eq!(got.len(), 4);
        assert!(!sp.can_acquire(4));
        assert!(sp.acquire("m2", &log(10, 1), 100, 4, SimTime(1)).0.is_empty(), "one un-acked record at SPSO stalls it");
        // Releasing one inside the window lets it be re-acquired, but nothing new.
        sp.acknowledge("m1", 2, AcknowledgeType::Release, 5).unwrap();
        let (again, _) = sp.acquire("m2", &log(10, 1), 100, 4, SimTime(1));
        assert_eq!(again.iter().map(|g| g.offset).collect::<Vec<_>>(), vec![2]);
    }

    #[test]
    fn a_new_leader_reloads_what_was_written() {
        let mut sp = SharePartition::new(0, 0);
        let (_, a) = sp.acquire("m1", &log(3, 1), 3, 200, SimTime(1));
        sp.acknowledge("m1", 0, AcknowledgeType::Accept, 5).unwrap();
        sp.advance_start();
        sp.acknowledge("m1", 2, AcknowledgeType::Release, 5).unwrap();
        sp.reload(1);
        // Offset 1 was acquired, never written: it comes back as new.
        assert_eq!(sp.start, 1);
        assert_eq!(sp.state_of(1), Some((RecordState::Available, 0)));
        assert_eq!(sp.state_of(2), Some((RecordState::Available, 1)));
        assert!(sp.expire(a, 5).is_empty(), "the old leader's timers find nothing");
        let (got, _) = sp.acquire("m2", &log(3, 1), 5, 200, SimTime(1));
        assert_eq!(got.iter().map(|g| (g.offset, g.delivery_count)).collect::<Vec<_>>(), vec![(1, 1), (2, 2)]);
    }
}
