//! Consumer groups: the coordinator's view (members it knows, generations, the group
//! state machine of the classic protocol) and each consumer's own view (its member id,
//! generation, assignment, positions, what it received and processed).
//!
//! The protocol itself (JoinGroup, SyncGroup, Heartbeat, LeaveGroup, OffsetCommit,
//! OffsetFetch as messages with latency) lives in `sim/group/` (`classic.rs`, `consumer.rs`).

pub use crate::config::CommitMode;
use crate::config::{ConsumerConfig, GroupConfig};
use crate::event::ConsumeEvent;
use crate::name::Name;
use crate::record::{RecordId, TopicPartition};
use crate::time::SimTime;
use crate::vecmap::VecMap;
use serde::{Deserialize, Serialize};
use std::collections::VecDeque;

/// Group states, named as in Kafka's classic `GroupState`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum GroupState {
    /// No members.
    Empty,
    /// Waiting for every member to (re)send JoinGroup.
    PreparingRebalance,
    /// JoinGroup answered; waiting for the leader's SyncGroup with the assignment.
    CompletingRebalance,
    /// Every member has its partitions and consumes.
    Stable,
    /// KIP-848 (`ConsumerGroup.ConsumerGroupState.RECONCILING`): a new target assignment
    /// exists and some member has not reached it yet; the others go on consuming.
    Reconciling,
}

/// How members give partitions up in a rebalance (`RebalanceProtocol`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RebalanceProtocol {
    /// Revoke everything before rejoining: nobody consumes during the rebalance.
    Eager,
    /// KIP-429: keep what you own; only partitions that move are revoked, and a second
    /// rebalance hands them over.
    Cooperative,
}

impl RebalanceProtocol {
    /// The protocol an assignor supports: only CooperativeSticky is cooperative (with a
    /// single configured assignor, that is what `ConsumerCoordinator` selects).
    pub fn for_assignor(assignor: crate::assign::Strategy) -> Self {
        if assignor == crate::assign::Strategy::CooperativeSticky {
            RebalanceProtocol::Cooperative
        } else {
            RebalanceProtocol::Eager
        }
    }
}

/// Where a consumer is in the protocol, as it sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Phase {
    /// JoinGroup sent (or about to be).
    Joining,
    /// SyncGroup sent, waiting for the assignment.
    Syncing,
    /// In a stable generation.
    Stable,
    /// Left after exceeding `max.poll.interval.ms`; rejoins at its next `poll()`.
    LeftPollTimeout,
    /// The process is gone (no heartbeats, no LeaveGroup).
    Crashed,
}

/// A member as the coordinator knows it (`MemberMetadata`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Registered {
    pub(crate) member_id: String,
    pub(crate) client_id: Name,
    pub(crate) group_instance_id: Option<String>,
    pub(crate) subscription: Vec<String>,
    /// What it owned when it joined (cooperative protocol), with its generation.
    pub(crate) owned: Vec<TopicPartition>,
    pub(crate) owned_generation: i32,
    /// Sent JoinGroup in the current round.
    pub(crate) joined: bool,
    /// The coordinator removes it if no heartbeat arrives by then.
    pub(crate) session_deadline: SimTime,
    /// `session.timeout.ms` and the rebalance timeout (`max.poll.interval.ms`) it joined with.
    pub(crate) session_timeout_ms: u64,
    pub(crate) rebalance_timeout_ms: u64,
    pub(crate) assignment: Vec<TopicPartition>,
    /// The incarnation of the process its last JoinGroup or SyncGroup came from, carried
    /// in that request (classic protocol): the coordinator addresses its held answers with
    /// it and never reads the consumer's own state. Unused by the consumer protocol, whose
    /// answers carry the incarnation of the heartbeat they answer.
    pub(crate) incarnation: u64,
    /// The consumer protocol's view of the member (KIP-848); unused by the classic one.
    pub(crate) cg: CgMember,
}

/// Where a consumer-protocol member is on its way to its target assignment
/// (`MemberState` in Kafka's `CurrentAssignmentBuilder`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Reconcile {
    /// At the target assignment of its epoch.
    #[default]
    Stable,
    /// Must first give up partitions it owns (`UNREVOKED_PARTITIONS`); its epoch waits.
    UnrevokedPartitions,
    /// Has its new epoch but some target partitions are still owned by others
    /// (`UNRELEASED_PARTITIONS`); it gets them as they are released.
    UnreleasedPartitions,
}

/// The coordinator's consumer-protocol record of a member (`ConsumerGroupMember`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct CgMember {
    /// `memberEpoch`: the group epoch whose target this member has reached.
    pub(crate) member_epoch: i32,
    /// `previousMemberEpoch`: accepted too, for a heartbeat whose answer was lost.
    pub(crate) previous_epoch: i32,
    pub(crate) state: Reconcile,
    /// Partitions it must revoke before it advances.
    pub(crate) pending_revocation: Vec<TopicPartition>,
    /// It must have revoked by then (`rebalance timeout` = `max.poll.interval.ms`), or it
    /// is fenced.
    pub(crate) revoke_deadline: Option<SimTime>,
    /// A static member that left with epoch -2: its place and partitions are kept until
    /// its session times out, for its next incarnation.
    pub(crate) left_static: bool,
}

/// What a member is doing right now.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Activity {
    /// Waiting for the rebalance to give it partitions.
    AwaitingAssignment,
    /// In the group but assigned nothing: more members than partitions.
    Idle,
    /// A fetch request is on its way or parked at the broker waiting for data.
    Fetching,
    /// The application is processing the records of the last poll.
    Processing,
}

/// One record handed to the application by `poll()`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Delivery {
    /// The record's id in the sandbox (the same from the producer to every consumer).
    pub record: RecordId,
    /// The partition it was read from.
    pub tp: TopicPartition,
    /// Its offset in that partition.
    pub offset: u64,
    /// Its key, if it has one.
    pub key: Option<Name>,
    /// Its value (empty for a null value).
    pub value: Name,
    /// Its value is null: on a compacted topic, a tombstone deleting its key (issue 19).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub tombstone: bool,
    /// When it was handed to the application (simulated time).
    pub at: SimTime,
}

/// Whether a record at `offset`, read by a fetch from `fetched_from`, is the next record
/// for a consumer at `position`: the record at the position itself, or, when the fetch
/// read from at or before the position, the first record after it — the offsets between
/// were not in the log when it was read (the log cleaner removed them; issue 19), so the
/// position skips them, as Kafka's consumer moves its position to each returned record's
/// offset + 1 (`CompletedFetch`, `FetchCollector`). A fetch read from beyond the position
/// (the consumer seeked back meanwhile) continues it only exactly.
pub(crate) fn continues(position: u64, offset: u64, fetched_from: u64) -> bool {
    offset == position || (fetched_from <= position && offset > position)
}

/// The leader epochs behind a consumer's position (KIP-320, `SubscriptionState.FetchPosition`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct PositionEpochs {
    /// `offsetEpoch`: the leader epoch of the record just before the position (the last
    /// one consumed, or the committed offset's `leaderEpoch`); `None` when unknown (a
    /// `seek()` to an offset, an offset committed without one): no validation then.
    pub(crate) offset_epoch: Option<u32>,
    /// The partition's leader epoch this position was last validated against (or
    /// fetched under); `None` right after `seekUnvalidated` (committed offsets). When the
    /// partition's epoch differs, the next fetch first asks `OffsetsForLeaderEpoch`.
    pub(crate) validated_at: Option<u32>,
}

/// A consumer in a group.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Member {
    pub(crate) client_id: Name,
    /// `clientId-UUID` as the coordinator makes it (KIP-394); the UUID comes from the
    /// simulation's RNG. Range and RoundRobin order members by it.
    pub(crate) member_id: String,
    pub(crate) group_instance_id: Option<String>,
    pub(crate) topics: Vec<String>,
    pub(crate) config: ConsumerConfig,
    pub(crate) assigned: Vec<TopicPartition>,
    /// The next offset to fetch, per assigned partition (`position()`).
    pub(crate) positions: VecMap<TopicPartition, u64>,
    /// What the consumer knows of each position's leader epochs (`FetchPosition`'s
    /// `offsetEpoch` and `currentLeader`, KIP-320); an entry is only read where a
    /// position is, and every place that sets a position from outside the log's flow
    /// (a reset, a seek, committed offsets) sets its entry too.
    pub(crate) position_epochs: VecMap<TopicPartition, PositionEpochs>,
    pub(crate) activity: Activity,
    pub(crate) received: VecDeque<Delivery>,
    pub(crate) received_total: u64,
    /// Bumped whenever the member's fetch loop restarts, so stale events are ignored.
    pub(crate) token: u64,
    pub(crate) next_auto_commit: SimTime,
    pub(crate) fetch_cursor: u32,
    /// Where it is in the protocol.
    pub(crate) phase: Phase,
    /// The generation it last joined (-1 before the first).
    pub(crate) generation: i32,
    /// Bumped at each crash or restart, so messages to an older incarnation are dropped.
    pub(crate) incarnation: u64,
    /// When the application last called `poll()` (for `max.poll.interval.ms`).
    pub(crate) last_poll: SimTime,
    /// The application is stuck (paused): it stops calling `poll()`.
    pub(crate) paused: bool,
    /// Records `poll()` returned that are still being processed.
    pub(crate) processing: VecDeque<Delivery>,
    /// The partitions of its last generation, sent with JoinGroup as owned partitions
    /// (the cooperative protocol) or as the StickyAssignor's user data (eager).
    pub(crate) last_assignment: Vec<TopicPartition>,
    /// Records of the current batch already processed (for commits after processing).
    pub(crate) done_in_batch: Vec<(TopicPartition, u64)>,
    /// A heartbeat said the group is rebalancing; it rejoins at its next `poll()`.
    pub(crate) rejoin_needed: bool,
    /// A JoinGroup is on its way or waiting at the coordinator (one at a time).
    pub(crate) join_in_flight: bool,
    /// Partitions it stopped consuming because of a rebalance, and since when.
    pub(crate) stopped_since: Option<SimTime>,
    /// Total time it could not consume because of rebalances.
    pub(crate) rebalance_stopped_ms: u64,
    /// Records it finished processing.
    pub(crate) processed_total: u64,
    /// Classic protocol, as the group's leader: the partition count of each topic it
    /// assigned (`ConsumerCoordinator`'s `assignmentSnapshot`), checked at every metadata
    /// refresh; `None` when its last JoinGroup answer did not make it the leader.
    pub(crate) leader_snapshot: Option<VecMap<String, u32>>,
    /// KIP-848: the heartbeat interval the coordinator gave it (0 before the first answer).
    pub(crate) cg_interval_ms: u64,
    /// KIP-848: send another heartbeat as soon as the one in flight is answered (its
    /// owned partitions changed meanwhile).
    pub(crate) cg_resend: bool,
    /// KIP-848 with auto-commit on Kafka 4.1+ (KAFKA-18641): an assignment a heartbeat
    /// answer brought that the consumer reconciles only inside the application's next
    /// `poll()` (`AbstractMembershipManager.maybeReconcile(canCommit)`); `None` when
    /// nothing waits.
    pub(crate) cg_pending_assignment: Option<Vec<TopicPartition>>,
    /// OffsetFetch answers UNSTABLE_OFFSET_COMMIT in a row (a transaction holds pending
    /// offsets of its partitions): the retry backoff grows with them (KIP-580).
    pub(crate) unstable_fetches: u32,
}

impl Member {
    /// When `max.poll.interval.ms` runs out, if the application is outside `poll()` (it
    /// is processing what the last poll returned, or stuck): the last poll plus the
    /// interval. Kafka's poll timer expires then (`Timer.isExpired`: now ≥ deadline) and
    /// the heartbeat thread, which wakes at least every `retry.backoff.ms` to look
    /// (`AbstractCoordinator.HeartbeatThread`), leaves the group at once.
    pub(crate) fn poll_deadline(&self) -> Option<SimTime> {
        (self.paused || !self.processing.is_empty()).then(|| self.last_poll.plus_ms(self.config.max_poll_interval_ms))
    }

    /// The heartbeat thread's next wake-up after `now`: the next heartbeat, or the poll
    /// deadline if it comes first (so a stuck member leaves the moment its interval runs
    /// out, not at the next heartbeat).
    pub(crate) fn next_heartbeat_wake(&self, now: SimTime, interval_ms: u64) -> SimTime {
        let next = now.plus_ms(interval_ms);
        match self.poll_deadline() {
            Some(deadline) if deadline > now && deadline < next => deadline,
            _ => next,
        }
    }

    /// The member gives up every partition it owns (a revocation before rejoining, a
    /// fenced or removed member): positions forgotten, the fetch in flight made stale
    /// (`token`), waiting for an assignment; its pause starts if it owned anything.
    /// Returns what it owned, for the `PartitionsRevoked` event.
    pub(crate) fn lose_partitions(&mut self, now: SimTime) -> Vec<TopicPartition> {
        let revoked = std::mem::take(&mut self.assigned);
        self.positions.clear();
        self.position_epochs.clear();
        self.token += 1;
        self.activity = Activity::AwaitingAssignment;
        if !revoked.is_empty() {
            self.stopped_since.get_or_insert(now);
        }
        revoked
    }

    /// Hands a fetched (or pushed) record to the application, as `poll()` returns it:
    /// only a record that continues the member's position on its partition (which keeps
    /// positions contiguous by construction). It joins the records in hand and those
    /// remembered; the event says so. `None`: not the next record, nothing changes.
    pub(crate) fn hand_over(
        &mut self,
        group: &Name,
        tp: TopicPartition,
        stored: &crate::record::StoredRecord,
        (high_watermark, fetched_from): (u64, u64),
        now: SimTime,
        kept: usize,
    ) -> Option<crate::event::EventKind> {
        let position = self.positions.get_mut(&tp)?;
        if !continues(*position, stored.offset, fetched_from) {
            return None;
        }
        *position = stored.offset + 1;
        // The position's offset epoch is the consumed record's (`FetchCollector`: the
        // batch's partition leader epoch).
        let epochs = self.position_epochs.entry(tp.clone()).or_default();
        epochs.offset_epoch = Some(stored.leader_epoch);
        let delivery = Delivery {
            record: stored.record.id,
            tp: tp.clone(),
            offset: stored.offset,
            key: stored.record.key.clone(),
            value: stored.record.value.clone(),
            tombstone: stored.record.tombstone,
            at: now,
        };
        self.processing.push_back(delivery.clone());
        self.remember(delivery, kept);
        Some(crate::event::EventKind::Consume(ConsumeEvent::RecordDelivered {
            group: group.clone(),
            client_id: self.client_id.clone(),
            record: stored.record.id,
            tp,
            offset: stored.offset,
            value: stored.record.value.clone(),
            high_watermark,
        }))
    }

    /// Moves the position past a record `poll()` does not return (a transaction marker, or
    /// an aborted transaction's record under read_committed), if it is the next one.
    pub(crate) fn skip(&mut self, tp: &TopicPartition, offset: u64, fetched_from: u64) -> bool {
        let Some(position) = self.positions.get_mut(tp) else { return false };
        if !continues(*position, offset, fetched_from) {
            return false;
        }
        *position = offset + 1;
        true
    }

    /// Remembers a delivery, keeping the newest `kept` ([`crate::SimOptions::received_per_member`]).
    pub(crate) fn remember(&mut self, d: Delivery, kept: usize) {
        if self.received.len() >= kept.max(1) {
            self.received.pop_front();
        }
        self.received.push_back(d);
        self.received_total += 1;
    }

    /// Since when it cannot consume because of a rebalance or crash, if it cannot now.
    pub fn not_consuming_since(&self) -> Option<SimTime> {
        self.stopped_since
    }

    /// The newest deliveries (at most [`crate::SimOptions::received_per_member`]), oldest first.
    pub fn received(&self) -> impl DoubleEndedIterator + ExactSizeIterator<Item = &Delivery> {
        self.received.iter()
    }

    pub fn received_total(&self) -> u64 {
        self.received_total
    }
}

/// A consumer group.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Group {
    pub(crate) id: Name,
    pub(crate) topics: Vec<String>,
    pub(crate) config: GroupConfig,
    /// The consumers (client side), in the order they were started.
    pub(crate) members: Vec<Member>,
    /// The members the coordinator knows, in join order: the first is the leader.
    pub(crate) registry: Vec<Registered>,
    pub(crate) state: GroupState,
    /// Starts at 0; the first stable generation is 1.
    pub(crate) generation: i32,
    /// The leader's member id in the current generation.
    pub(crate) leader: Option<String>,
    pub(crate) protocol: RebalanceProtocol,
    /// Committed offsets: the next offset to read, per partition.
    pub(crate) committed: VecMap<TopicPartition, u64>,
    /// The leader epoch committed with each offset (`OffsetAndMetadata.leaderEpoch`,
    /// KIP-320), where the commit carried one: the next owner validates its position
    /// with it.
    pub(crate) committed_epochs: VecMap<TopicPartition, u32>,
    /// When the join phase ends at the latest (initial delay or rebalance timeout).
    pub(crate) rebalance_due: Option<SimTime>,
    /// Rebalances completed (generations reached).
    pub(crate) rebalances: u64,
    /// Records processed more than once by the group, and records the group committed
    /// past without processing them.
    pub(crate) duplicates: u64,
    /// How many times a member left the group because `max.poll.interval.ms` passed
    /// between two polls.
    pub(crate) poll_timeouts: u64,
    pub(crate) round: u64,
    pub(crate) initial_delay_since: Option<SimTime>,
    /// Which records each partition's records were processed (for duplicates).
    pub(crate) processed: VecMap<TopicPartition, OffsetRanges>,
    /// SyncGroup requests waiting for the leader's, by member id.
    pub(crate) pending_sync: Vec<String>,
    /// Member ids handed out with MEMBER_ID_REQUIRED, not yet joined with (KIP-394).
    pub(crate) pending_members: Vec<String>,
    /// `InitialDelayedJoin`: a member joined during the initial delay, and how much of the
    /// rebalance timeout further delays may still use.
    pub(crate) new_member_added: bool,
    pub(crate) initial_remaining: u64,
    /// KIP-848: the partition counts the coordinator computed the target assignment with
    /// (a grown topic bumps the group epoch). A classic leader keeps its own
    /// (`Member::leader_snapshot`).
    pub(crate) assigned_counts: VecMap<String, u32>,
    /// Where the group first started reading each partition (records before it were
    /// never its to read).
    pub(crate) first_positions: VecMap<TopicPartition, u64>,
    /// KIP-848: the epoch of the current target assignment (`assignmentEpoch`); the
    /// group epoch is `generation`.
    pub(crate) assignment_epoch: i32,
    /// KIP-848: each member's target assignment, by member id.
    pub(crate) target: VecMap<String, Vec<TopicPartition>>,
    /// KIP-848: each member's stored target assignment record (`ConsumerGroupTargetAssignmentMemberValue`):
    /// the same partitions as `target`, in the order Kafka wrote them, which the uniform
    /// assignor's stickiness reads back.
    pub(crate) target_records: VecMap<String, Vec<TopicPartition>>,
    /// Partitions nobody consumes since a revocation or crash, and since when.
    pub(crate) partition_gaps: VecMap<TopicPartition, SimTime>,
    /// Total time partitions went unconsumed between a revocation (or crash) and the
    /// next owner's start: what a rebalance costs the group, summed over partitions.
    pub(crate) partition_downtime_ms: u64,
    /// Who last gave each partition up, how and when (to explain duplicates).
    pub(crate) handovers: VecMap<TopicPartition, Handover>,
    /// The newest duplicates with their cause (at most [`crate::SimOptions::duplicates_per_group`]).
    pub(crate) duplicate_log: VecDeque<DuplicateRecord>,
    /// When each committed offset was last committed (`OffsetAndMetadata.commitTimestampMs`),
    /// for offset expiry (`sim/group/expiry.rs`).
    pub(crate) commit_times: VecMap<TopicPartition, SimTime>,
    /// Classic protocol: when the group last became Empty (`ClassicGroup.currentStateTimestamp`
    /// at the transition), for offset expiry (KIP-211).
    pub(crate) empty_since: Option<SimTime>,
    /// Offsets sent in transactions, waiting for their markers (`sim/group/txn.rs`).
    pub(crate) pending_txn: crate::txn::PendingTxnOffsets,
}

/// A set of offsets kept as disjoint ranges: memory grows with the number of gaps (lost
/// records), not with the number of offsets, so a group can run for days.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct OffsetRanges {
    /// start → end (exclusive), disjoint and not touching.
    ranges: VecMap<u64, u64>,
}

impl OffsetRanges {
    /// Adds `o`; false if it was already there.
    pub fn insert(&mut self, o: u64) -> bool {
        if self.contains(o) {
            return false;
        }
        let below = self.ranges.range(..=o).next_back().map(|(s, e)| (*s, *e)).filter(|(_, e)| *e == o);
        let above = self.ranges.get(&(o + 1)).copied();
        match (below, above) {
            (Some((s, _)), Some(e2)) => {
                self.ranges.remove(&(o + 1));
                self.ranges.insert(s, e2);
            }
            (Some((s, _)), None) => {
                self.ranges.insert(s, o + 1);
            }
            (None, Some(e2)) => {
                self.ranges.remove(&(o + 1));
                self.ranges.insert(o, e2);
            }
            (None, None) => {
                self.ranges.insert(o, o + 1);
            }
        }
        true
    }

    pub fn contains(&self, o: u64) -> bool {
        self.ranges.range(..=o).next_back().is_some_and(|(_, e)| o < *e)
    }

    /// Adds every offset of `from..to`, merging the ranges it overlaps or touches.
    pub fn insert_range(&mut self, from: u64, to: u64) {
        if to <= from {
            return;
        }
        let (mut start, mut end) = (from, to);
        let touching: Vec<(u64, u64)> = self.ranges.range(..=to).filter(|(s, e)| **e >= from && **s <= to).map(|(s, e)| (*s, *e)).collect();
        for (s, e) in touching {
            self.ranges.remove(&s);
            start = start.min(s);
            end = end.max(e);
        }
        self.ranges.insert(start, end);
    }

    /// Marks offsets with nothing to process (the cleaner's gaps, transaction markers and
    /// records `poll()` hides): `ranges` of (partition, from, to).
    pub(crate) fn account(map: &mut VecMap<TopicPartition, OffsetRanges>, ranges: Vec<(TopicPartition, u64, u64)>) {
        for (tp, from, to) in ranges {
            map.entry(tp).or_default().insert_range(from, to);
        }
    }

    /// The offsets of `from..to` not in the set, in order.
    pub fn missing(&self, from: u64, to: u64) -> impl Iterator<Item = u64> + '_ {
        let mut at = from;
        let mut gaps = Vec::new();
        for (s, e) in self.ranges.range(..to) {
            if *e <= at {
                continue;
            }
            if *s > at {
                gaps.push(at..(*s).min(to));
            }
            at = at.max(*e);
            if at >= to {
                break;
            }
        }
        if at < to {
            gaps.push(at..to);
        }
        gaps.into_iter().flatten()
    }

    /// How many offsets of `from..to` are not in the set (without visiting them).
    pub fn missing_count(&self, from: u64, to: u64) -> u64 {
        if to <= from {
            return 0;
        }
        let covered: u64 = self.ranges.range(..to).map(|(s, e)| (*e).min(to).saturating_sub((*s).max(from))).sum();
        (to - from) - covered
    }
}

/// How a member lost a partition.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum HandoverKind {
    /// It gave the partition up in a rebalance (or after leaving the group).
    Revoked,
    /// Its process died.
    Crashed,
    /// Not a hand-over: the member itself called `seek()` back over what it had processed.
    Seek,
}

/// A partition changing hands.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Handover {
    /// The `client.id` of the member that gave it up.
    pub from: String,
    /// How it gave it up.
    pub kind: HandoverKind,
    /// When (simulated time).
    pub at: SimTime,
    /// The group's committed offset at that moment (where the next owner starts).
    pub committed: Option<u64>,
}

/// A record the group processed twice, and why.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DuplicateRecord {
    /// The record's partition.
    pub tp: TopicPartition,
    /// The record's offset.
    pub offset: u64,
    /// The record's value.
    pub value: String,
    /// Who processed it before and when, if still in that member's recent deliveries.
    pub first: Option<(String, SimTime)>,
    /// Who processed it again (`client.id`) and when it finished processing it.
    pub again: (String, SimTime),
    /// How the partition changed hands in between: the committed offset then was at or
    /// below this record, so the next owner read it again.
    pub handover: Option<Handover>,
}

/// Why the group never processed a record it committed past.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum UnprocessedCause {
    /// Delivered to `member`, whose offsets were committed before it processed the record
    /// (commit before processing, or an auto-commit), then it crashed or lost the partition.
    CommittedBeforeProcessing {
        /// The `client.id` of the member it was delivered to.
        member: String,
        /// When `poll()` handed it over.
        delivered_at: SimTime,
    },
    /// Committed past without anyone receiving it (the member's recent deliveries no
    /// longer show it, or a position jumped).
    NeverDelivered,
}

/// A record lost to the group, and why.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct UnprocessedRecord {
    /// The record's partition.
    pub tp: TopicPartition,
    /// The record's offset.
    pub offset: u64,
    /// Why it was never processed.
    pub cause: UnprocessedCause,
}

impl Group {
    /// The classic group is left with no member: Empty from `now` (kept if it already was,
    /// for offset expiry's `currentStateTimestamp`), no join phase due, no leader.
    pub(crate) fn become_empty(&mut self, now: SimTime) {
        if self.state != GroupState::Empty {
            self.empty_since = Some(now);
        }
        self.state = GroupState::Empty;
        self.rebalance_due = None;
        self.initial_delay_since = None;
        self.leader = None;
    }

    /// Whether the group speaks the KIP-848 consumer protocol.
    pub fn consumer_protocol(&self) -> bool {
        self.config.group_protocol == crate::config::GroupProtocol::Consumer
    }

    pub(crate) fn new(id: impl Into<Name>, topics: Vec<String>, config: GroupConfig) -> Self {
        let protocol = RebalanceProtocol::for_assignor(config.assignor);
        Self {
            id: id.into(),
            topics,
            config,
            members: Vec::new(),
            registry: Vec::new(),
            state: GroupState::Empty,
            generation: 0,
            leader: None,
            protocol,
            committed: VecMap::new(),
            committed_epochs: VecMap::new(),
            rebalance_due: None,
            rebalances: 0,
            duplicates: 0,
            poll_timeouts: 0,
            round: 0,
            initial_delay_since: None,
            processed: VecMap::new(),
            pending_sync: Vec::new(),
            pending_members: Vec::new(),
            first_positions: VecMap::new(),
            assigned_counts: VecMap::new(),
            new_member_added: false,
            initial_remaining: 0,
            assignment_epoch: 0,
            target: VecMap::new(),
            target_records: VecMap::new(),
            partition_gaps: VecMap::new(),
            partition_downtime_ms: 0,
            handovers: VecMap::new(),
            duplicate_log: VecDeque::new(),
            commit_times: VecMap::new(),
            empty_since: None,
            pending_txn: crate::txn::PendingTxnOffsets::default(),
        }
    }

    /// Records the group committed past without any member processing them (lost to
    /// at-most-once commits or crashes), counted from where the group started reading.
    /// Records a live member is still processing are not lost (yet).
    pub fn unprocessed_records(&self) -> u64 {
        static NONE: OffsetRanges = OffsetRanges { ranges: VecMap::new() };
        let mut lost = 0;
        for (tp, committed) in &self.committed {
            let first = self.first_positions.get(tp).copied().unwrap_or(*committed);
            let seen = self.processed.get(tp).unwrap_or(&NONE);
            let in_hand = self
                .members
                .iter()
                .filter(|m| m.phase != Phase::Crashed)
                .flat_map(|m| m.processing.iter())
                .filter(|d| &d.tp == tp && (first..*committed).contains(&d.offset) && !seen.contains(d.offset))
                .count() as u64;
            lost += seen.missing_count(first, *committed).saturating_sub(in_hand);
        }
        lost
    }

    /// Each lost record's partition and offset, partition by partition.
    fn lost_offsets(&self) -> impl Iterator<Item = (&TopicPartition, u64)> + '_ {
        let in_hand: crate::vecmap::VecSet<(&TopicPartition, u64)> = self
            .members
            .iter()
            .filter(|m| m.phase != Phase::Crashed)
            .flat_map(|m| m.processing.iter().map(|d| (&d.tp, d.offset)))
            .collect();
        static NONE: OffsetRanges = OffsetRanges { ranges: VecMap::new() };
        self.committed.iter().flat_map(move |(tp, committed)| {
            let first = self.first_positions.get(tp).copied().unwrap_or(*committed);
            let seen = self.processed.get(tp).unwrap_or(&NONE);
            let in_hand = in_hand.clone();
            // Only the gaps in what was processed are visited: the cost follows the number
            // of lost records, not the length of the run.
            seen.missing(first, *committed).filter(move |o| !in_hand.contains(&(tp, *o))).map(move |o| (tp, o))
        })
    }

    /// The lost records (at most `limit`), each with its cause.
    pub fn unprocessed_details(&self, limit: usize) -> Vec<UnprocessedRecord> {
        let mut out = Vec::new();
        for (tp, o) in self.lost_offsets().take(limit) {
            let delivered =
                self.members.iter().find_map(|m| m.received().find(|d| &d.tp == tp && d.offset == o).map(|d| (m.client_id.clone(), d.at)));
            let cause = match delivered {
                Some((member, delivered_at)) => UnprocessedCause::CommittedBeforeProcessing { member: member.to_string(), delivered_at },
                None => UnprocessedCause::NeverDelivered,
            };
            out.push(UnprocessedRecord { tp: tp.clone(), offset: o, cause });
        }
        out
    }

    /// The newest duplicates, oldest first, each with its cause.
    pub fn duplicate_details(&self) -> impl Iterator<Item = &DuplicateRecord> {
        self.duplicate_log.iter()
    }

    /// The coordinator's record of a member.
    pub fn registered(&self, member_id: &str) -> Option<&Registered> {
        self.registry.iter().find(|r| r.member_id == member_id)
    }

    pub fn member(&self, client_id: &str) -> Option<&Member> {
        self.members.iter().find(|m| m.client_id == client_id)
    }

    pub(crate) fn member_mut(&mut self, client_id: &str) -> Option<&mut Member> {
        self.members.iter_mut().find(|m| m.client_id == client_id)
    }
}

#[cfg(test)]
mod offset_ranges_tests {
    use super::OffsetRanges;

    #[test]
    fn ranges_merge_and_report_gaps() {
        let mut r = OffsetRanges::default();
        for o in [0, 1, 2, 5, 6, 4, 9] {
            assert!(r.insert(o));
        }
        assert!(!r.insert(1), "already there");
        assert_eq!(r.ranges.len(), 3, "0..3, 4..7, 9..10");
        assert!(r.contains(6) && !r.contains(3) && !r.contains(7));
        assert_eq!(r.missing(0, 12).collect::<Vec<_>>(), vec![3, 7, 8, 10, 11]);
        assert_eq!(r.missing(5, 9).collect::<Vec<_>>(), vec![7, 8]);
        assert!(r.insert(3));
        assert_eq!(r.ranges.len(), 2, "0..7 merged");
        // A range merges what it overlaps or touches; an empty one adds nothing.
        r.insert_range(7, 9);
        assert_eq!(r.ranges.len(), 1, "0..10");
        r.insert_range(20, 20);
        r.insert_range(12, 15);
        r.insert_range(11, 13);
        assert_eq!(r.missing(0, 16).collect::<Vec<_>>(), vec![10, 15]);
        // A million consecutive offsets stay one range.
        let mut big = OffsetRanges::default();
        for o in 0..1_000_000 {
            big.insert(o);
        }
        assert_eq!(big.ranges.len(), 1);
        assert_eq!(big.missing(0, 1_000_002).count(), 2);
    }
}

#[cfg(test)]
mod offset_ranges_count_tests {
    use super::OffsetRanges;

    #[test]
    fn missing_count_equals_the_missing_offsets() {
        let mut r = OffsetRanges::default();
        for o in [3, 4, 5, 9, 20, 21] {
            r.insert(o);
        }
        for (from, to) in [(0, 30), (4, 10), (10, 20), (21, 22), (25, 25), (30, 10)] {
            assert_eq!(r.missing_count(from, to), r.missing(from, to).count() as u64, "{from}..{to}");
        }
    }
}
