//! Replication's events: leader elections, the ISR, follower fetches, the high watermark, truncation, records lost in a failover, and retention deleting segments.

use super::{part, Category, Jump, LossCause, LostRecord, SegmentDeletionReason, Subject};
use crate::name::Name;
use crate::record::{BrokerId, RecordId};
use serde::{Deserialize, Serialize};

/// Replication: what happened, with what it touched (one kind of [`super::EventKind`]).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
// Explicit discriminants: the place each kind had in the one flat `EventKind`, so the
// trace digest (derived `Hash`, which hashes the discriminant) is unchanged.
#[repr(isize)]
pub enum ReplicationEvent {
    /// A new leader and epoch; `leader: None` means the partition is offline.
    LeaderElected {
        /// The partition's topic.
        topic: Name,
        /// The partition's number within its topic.
        partition: u32,
        /// The new leader; `None` when no replica may lead (the partition is offline).
        leader: Option<BrokerId>,
        /// The partition's leader epoch now (0 for a new partition's first leader, then one
        /// more per election).
        epoch: u32,
        /// The in-sync replicas after the election (only the new leader after an unclean one).
        isr: Vec<BrokerId>,
        /// Whether the leader came from outside the ISR (`unclean.leader.election.enable`):
        /// records only the old ISR had may be lost.
        unclean: bool,
    } = 13,
    /// A replica left the ISR: its leader saw it not caught up for `replica.lag.time.max.ms`
    /// (`Partition.maybeShrinkIsr`), or the controller fenced its broker. With fewer than
    /// `min.insync.replicas` left, acks=all writes are refused and the HW stops.
    IsrShrunk {
        /// The partition's topic.
        topic: Name,
        /// The partition's number within its topic.
        partition: u32,
        /// The replica's broker that left the ISR.
        removed: BrokerId,
        /// The in-sync replicas now.
        isr: Vec<BrokerId>,
    } = 14,
    /// A follower rejoined the ISR: its log end reached the high watermark and the start of
    /// the leader's epoch (`Partition.isFollowerInSync`).
    IsrExpanded {
        /// The partition's topic.
        topic: Name,
        /// The partition's number within its topic.
        partition: u32,
        /// The follower's broker that rejoined the ISR.
        added: BrokerId,
        /// The in-sync replicas now, in assignment order.
        isr: Vec<BrokerId>,
    } = 15,
    /// A follower copied records from the leader.
    ReplicaFetched {
        /// The partition's topic.
        topic: Name,
        /// The partition's number within its topic.
        partition: u32,
        /// The follower's broker.
        follower: BrokerId,
        /// The records it appended, oldest first.
        records: Vec<RecordId>,
        /// The follower's log end offset afterwards (the offset its next record will take).
        log_end_offset: u64,
    } = 16,
    /// The leader's HW moved: records below it are committed and visible to consumers.
    HighWatermarkAdvanced {
        /// The partition's topic.
        topic: Name,
        /// The partition's number within its topic.
        partition: u32,
        /// The new high watermark: the smallest log end offset in the ISR; every record
        /// below it is on every in-sync replica.
        high_watermark: u64,
    } = 17,
    /// A replica removed records past the point where its log diverged from the leader's.
    RecordsTruncated {
        /// The partition's topic.
        topic: Name,
        /// The partition's number within its topic.
        partition: u32,
        /// The replica's broker (a follower of the current leader).
        broker: BrokerId,
        /// Where its log now ends: the offset the logs diverge at (KIP-101), or its old log
        /// start when retention on the leader had deleted what it lacked and it starts over
        /// at the leader's log start.
        from_offset: u64,
        /// The records it removed.
        records: Vec<RecordId>,
    } = 18,
    /// A leader change left these records behind: the new leader never had them.
    RecordsLost {
        /// The partition's topic.
        topic: Name,
        /// The partition's number within its topic.
        partition: u32,
        /// The records the old leader had past the new leader's log, with their offsets.
        records: Vec<LostRecord>,
        /// Whether the election was unclean or a clean failover.
        cause: LossCause,
    } = 19,
    /// Retention deleted whole segments of one replica's log, oldest first; records below
    /// the new log start offset can no longer be read (consuming deletes nothing).
    SegmentsDeleted {
        /// The partition's topic.
        topic: Name,
        /// The partition's number within its topic.
        partition: u32,
        /// The broker whose replica deleted them (each replica applies retention to its own
        /// log).
        broker: BrokerId,
        /// Which retention limit deleted them.
        reason: SegmentDeletionReason,
        /// The deleted segments' base offsets.
        base_offsets: Vec<u64>,
        /// Their size in bytes, together.
        bytes: u64,
        /// The records the deleted segments held.
        records: Vec<RecordId>,
        /// The log start offset afterwards.
        log_start_offset: u64,
    } = 46,
    /// The controller's preferred-leader election (`auto.leader.rebalance.enable`,
    /// `leader.imbalance.check.interval.seconds` after the partition was seen led by
    /// another replica): its first replica leads again (a `LeaderElected` follows).
    PreferredLeaderElected {
        /// The partition's topic.
        topic: Name,
        /// The partition's number within its topic.
        partition: u32,
        /// The preferred replica, leading again.
        leader: BrokerId,
        /// The leader it replaced.
        previous: Option<BrokerId>,
        /// The leader epoch now (one more).
        epoch: u32,
    } = 66,
    /// The eligible leader replicas changed (KIP-966, Kafka 4.1+): replicas that left the
    /// ISR while it was below `min.insync.replicas` and so hold every committed record;
    /// with the ISR empty the controller elects from them. Cleared once the ISR reaches
    /// the minimum again.
    EligibleLeadersChanged {
        /// The partition's topic.
        topic: Name,
        /// The partition's number within its topic.
        partition: u32,
        /// The eligible leader replicas now, in assignment order.
        elr: Vec<BrokerId>,
        /// The in-sync replicas now (possibly empty).
        isr: Vec<BrokerId>,
    } = 67,
}

impl ReplicationEvent {
    /// This feature's part of [`EventKind::name`](super::EventKind::name).
    pub fn name(&self) -> &'static str {
        use ReplicationEvent as E;
        match self {
            E::LeaderElected { .. } => "LeaderElected",
            E::IsrShrunk { .. } => "IsrShrunk",
            E::IsrExpanded { .. } => "IsrExpanded",
            E::ReplicaFetched { .. } => "ReplicaFetched",
            E::HighWatermarkAdvanced { .. } => "HighWatermarkAdvanced",
            E::RecordsTruncated { .. } => "RecordsTruncated",
            E::RecordsLost { .. } => "RecordsLost",
            E::SegmentsDeleted { .. } => "SegmentsDeleted",
            E::PreferredLeaderElected { .. } => "PreferredLeaderElected",
            E::EligibleLeadersChanged { .. } => "EligibleLeadersChanged",
        }
    }

    /// This feature's part of [`EventKind::subjects`](super::EventKind::subjects).
    pub fn subjects(&self) -> Vec<Subject<'_>> {
        use ReplicationEvent as E;
        use Subject as S;
        match self {
            E::LeaderElected { topic, partition, leader, .. } => {
                let mut out = vec![part(topic, *partition)];
                out.extend(leader.map(S::Broker));
                out
            }
            E::IsrShrunk { topic, partition, removed: broker, .. }
            | E::IsrExpanded { topic, partition, added: broker, .. }
            | E::RecordsTruncated { topic, partition, broker, .. }
            | E::SegmentsDeleted { topic, partition, broker, .. } => vec![S::Broker(*broker), part(topic, *partition)],
            E::ReplicaFetched { topic, partition, follower, records, .. } => {
                let mut out = vec![S::Broker(*follower), part(topic, *partition)];
                out.extend(records.iter().map(|r| S::Record(*r)));
                out
            }
            E::HighWatermarkAdvanced { topic, partition, .. } => vec![part(topic, *partition)],
            E::PreferredLeaderElected { topic, partition, leader, .. } => vec![S::Broker(*leader), part(topic, *partition)],
            E::EligibleLeadersChanged { topic, partition, elr, .. } => {
                let mut out = vec![part(topic, *partition)];
                out.extend(elr.iter().map(|b| S::Broker(*b)));
                out
            }
            E::RecordsLost { topic, partition, records, .. } => {
                let mut out = vec![part(topic, *partition)];
                out.extend(records.iter().map(|r| S::Record(r.record)));
                out
            }
        }
    }

    /// This feature's part of [`EventKind::category`](super::EventKind::category).
    pub fn category(&self) -> Category {
        use ReplicationEvent as E;
        match self {
            E::RecordsLost { .. } => Category::Fault,
            E::LeaderElected { .. }
            | E::IsrShrunk { .. }
            | E::IsrExpanded { .. }
            | E::ReplicaFetched { .. }
            | E::HighWatermarkAdvanced { .. }
            | E::RecordsTruncated { .. }
            | E::SegmentsDeleted { .. }
            | E::PreferredLeaderElected { .. }
            | E::EligibleLeadersChanged { .. } => Category::Replication,
        }
    }

    /// This feature's part of [`EventKind::jump`](super::EventKind::jump).
    pub fn jump(&self) -> Option<Jump> {
        use ReplicationEvent as E;
        match self {
            E::LeaderElected { .. }
            | E::IsrShrunk { .. }
            | E::IsrExpanded { .. }
            | E::ReplicaFetched { .. }
            | E::HighWatermarkAdvanced { .. }
            | E::RecordsTruncated { .. }
            | E::RecordsLost { .. }
            | E::SegmentsDeleted { .. }
            | E::PreferredLeaderElected { .. }
            | E::EligibleLeadersChanged { .. } => None,
        }
    }

    /// This feature's part of [`EventKind::details`](super::EventKind::details).
    pub fn details(&self) -> Vec<&str> {
        use ReplicationEvent as E;
        match self {
            E::LeaderElected { .. }
            | E::IsrShrunk { .. }
            | E::IsrExpanded { .. }
            | E::ReplicaFetched { .. }
            | E::HighWatermarkAdvanced { .. }
            | E::RecordsTruncated { .. }
            | E::PreferredLeaderElected { .. }
            | E::EligibleLeadersChanged { .. } => Vec::new(),
            E::RecordsLost { records, cause, .. } => {
                let mut out: Vec<&str> = records.iter().map(|r| r.value.as_str()).collect();
                out.push(cause.name());
                out
            }
            E::SegmentsDeleted { reason, .. } => vec![reason.name()],
        }
    }
}
