//! Brokers, topics and partitions with their replicas, leader, epoch and ISR, and
//! Kafka's replica placement.

pub use crate::config::{CleanupPolicy, Ratio};
use crate::event::LossCause;
use crate::log::{PartitionLog, SegmentConfig};
use crate::name::Name;
use crate::record::RecordId;
use crate::record::TimestampType;
use crate::rng::SimRng;
use crate::time::SimTime;
use crate::vecmap::VecMap;
use serde::{Deserialize, Serialize};

pub use crate::record::BrokerId;

/// The topics the cluster creates itself (`Topic.GROUP_METADATA_TOPIC_NAME`,
/// `Topic.TRANSACTION_STATE_TOPIC_NAME`): a scenario cannot create one.
pub const INTERNAL_TOPICS: [&str; 2] = [crate::record::OFFSETS_TOPIC, crate::record::TRANSACTION_STATE_TOPIC];

/// A broker as the sandbox sees it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct Broker {
    pub(crate) id: BrokerId,
    /// Running (false after a crash, until restarted).
    pub(crate) alive: bool,
    /// Cut off the network: nothing reaches it and nothing it sends arrives.
    pub(crate) isolated: bool,
    /// Extra delay on this broker's replica fetches (a slow follower).
    pub(crate) slow_ms: u64,
    /// The controller's view: a fenced broker leads nothing and is in no ISR. The
    /// controller fences a broker it has not heard from for `broker.session.timeout.ms`.
    pub(crate) fenced: bool,
    /// Stopped by a controlled shutdown (`shutdown_broker`) rather than a crash: when it
    /// registers again its shutdown was clean, so it keeps its places in the ELRs
    /// (KAFKA-15586 removes only brokers whose last shutdown was unclean).
    #[serde(default)]
    pub(crate) shut_down_cleanly: bool,
}

impl Broker {
    pub fn new(id: BrokerId) -> Self {
        Self { id, alive: true, isolated: false, slow_ms: 0, fenced: false, shut_down_cleanly: false }
    }

    /// Whether a message can reach this broker or leave it.
    pub fn reachable(&self) -> bool {
        self.alive && !self.isolated
    }
}

/// Per-topic settings (Kafka's topic configs).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct TopicConfig {
    /// `message.timestamp.type` (KIP-32): `CreateTime` or `LogAppendTime`.
    pub message_timestamp_type: TimestampType,
    /// `min.insync.replicas` (1): with acks=all, fewer in-sync replicas refuse writes.
    pub min_insync_replicas: u32,
    /// `unclean.leader.election.enable` (false since 0.11): may an out-of-sync replica lead?
    pub unclean_leader_election_enable: bool,
    /// `retention.ms` (604800000 = 7 days; -1 = no time limit): a segment whose newest
    /// record is older than this is deleted.
    pub retention_ms: i64,
    /// `retention.bytes` (-1 = no size limit): the most each partition's log keeps,
    /// deleting whole segments, oldest first.
    pub retention_bytes: i64,
    /// `segment.bytes` (1073741824 = 1 GiB): a segment rolls before it would pass this.
    pub segment_bytes: u32,
    /// `segment.ms` (604800000 = 7 days): a segment rolls once a new batch's timestamp is
    /// this much newer than its first batch's.
    pub segment_ms: u64,
    /// `cleanup.policy` (`delete`): retention, the log cleaner, or both.
    pub cleanup_policy: CleanupPolicy,
    /// `min.cleanable.dirty.ratio` (0.5): the cleaner takes a log only when its dirty part
    /// is more than this share of the cleanable log (strictly more, `LogCleanerManager`).
    pub min_cleanable_dirty_ratio: Ratio,
    /// `min.compaction.lag.ms` (0): a record stays uncompacted at least this long (segments
    /// holding a newer record are not cleaned).
    pub min_compaction_lag_ms: u64,
    /// `max.compaction.lag.ms` (9223372036854775807, Long.MAX_VALUE): a dirty segment older
    /// than this is cleaned whatever the ratio; the active segment rolls by it too.
    pub max_compaction_lag_ms: u64,
    /// `delete.retention.ms` (86400000 = 1 day): how long a tombstone, once the cleaner has
    /// seen it, stays for consumers to read before a later pass removes it (KIP-534).
    pub delete_retention_ms: u64,
}

impl Default for TopicConfig {
    fn default() -> Self {
        Self {
            message_timestamp_type: TimestampType::CreateTime,
            min_insync_replicas: 1,
            unclean_leader_election_enable: false,
            retention_ms: 7 * 24 * 3600 * 1000,
            retention_bytes: -1,
            segment_bytes: 1 << 30,
            segment_ms: 7 * 24 * 3600 * 1000,
            cleanup_policy: CleanupPolicy::Delete,
            min_cleanable_dirty_ratio: Ratio(0.5),
            min_compaction_lag_ms: 0,
            max_compaction_lag_ms: i64::MAX as u64,
            delete_retention_ms: 86_400_000,
        }
    }
}

impl TopicConfig {
    /// How each replica's log of this topic rolls its segments: a compacted topic rolls by
    /// `max.compaction.lag.ms` too, so a dirty active segment becomes cleanable in time
    /// (`LogConfig.maxSegmentMs`).
    pub fn segment_config(&self) -> SegmentConfig {
        let segment_ms = if self.cleanup_policy.compact() && self.max_compaction_lag_ms > 0 {
            self.segment_ms.min(self.max_compaction_lag_ms)
        } else {
            self.segment_ms
        };
        SegmentConfig { segment_bytes: u64::from(self.segment_bytes), segment_ms }
    }

    /// What the log cleaner reads of this topic.
    pub fn compaction(&self) -> crate::log::CompactionConfig {
        crate::log::CompactionConfig {
            min_cleanable_dirty_ratio: self.min_cleanable_dirty_ratio.0,
            min_compaction_lag_ms: self.min_compaction_lag_ms,
            max_compaction_lag_ms: self.max_compaction_lag_ms,
            delete_retention_ms: self.delete_retention_ms,
            segment_bytes: u64::from(self.segment_bytes),
        }
    }
}

/// What the leader knows of a follower (`Replica` in Kafka's `Partition`).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct FollowerState {
    /// The follower's LEO, as its last fetch offset told.
    pub(crate) leo: u64,
    /// When the follower was last fully caught up (`Replica.lastCaughtUpTimeMs`).
    pub(crate) last_caught_up: SimTime,
    pub(crate) last_fetch_at: SimTime,
    pub(crate) last_fetch_leader_leo: u64,
}

/// A partition: replicas in assignment order (the first is the preferred leader), the
/// leader and its epoch, the ISR, and each replica's log.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct Partition {
    pub(crate) replicas: Vec<BrokerId>,
    /// `None` while the partition is offline (no eligible leader).
    pub(crate) leader: Option<BrokerId>,
    pub(crate) leader_epoch: u32,
    /// In-sync replicas, in assignment order. Empty only with eligible leader replicas on
    /// (KIP-966), when no replica is in sync.
    pub(crate) isr: Vec<BrokerId>,
    /// Eligible leader replicas (KIP-966, `PartitionRegistration.elr`), in assignment
    /// order: replicas that left the ISR while it was below `min.insync.replicas`, so they
    /// hold every committed record (the HW does not move below the minimum). Always empty
    /// when the run's Kafka version has ELR off.
    #[serde(default)]
    pub(crate) elr: Vec<BrokerId>,
    /// The leader when the partition last lost its ISR (`lastKnownElr` used as the last
    /// known leader, `PartitionChangeBuilder.maybeUpdateLastKnownLeader`); ELR only.
    #[serde(default)]
    pub(crate) last_known_leader: Option<BrokerId>,
    /// Each replica's copy of the log, kept while its broker is down (it is on disk).
    pub(crate) logs: VecMap<BrokerId, PartitionLog>,
    /// The leader's view of its followers; reset at each election.
    pub(crate) followers: VecMap<BrokerId, FollowerState>,
}

impl Partition {
    /// A partition whose replicas' logs roll segments by `segments`.
    pub fn with_segment_config(replicas: Vec<BrokerId>, segments: SegmentConfig) -> Self {
        let logs = replicas.iter().map(|b| (*b, PartitionLog::new(segments))).collect();
        let leader = replicas.first().copied();
        Self {
            isr: replicas.clone(),
            replicas,
            leader,
            leader_epoch: 0,
            elr: Vec::new(),
            last_known_leader: None,
            logs,
            followers: VecMap::new(),
        }
    }

    /// The leader's log, which producers append to and consumers read from.
    pub fn leader_log(&self) -> Option<&PartitionLog> {
        self.leader.and_then(|l| self.logs.get(&l))
    }

    /// What the controller keeps of it (`PartitionRegistration`).
    pub fn registration(&self) -> Registration {
        Registration {
            replicas: self.replicas.clone(),
            leader: self.leader,
            leader_epoch: self.leader_epoch,
            isr: self.isr.clone(),
            elr: self.elr.clone(),
            last_known_leader: self.last_known_leader,
        }
    }

    /// Takes what the controller decided (its replicas do not change).
    pub fn set_registration(&mut self, r: Registration) {
        self.leader = r.leader;
        self.leader_epoch = r.leader_epoch;
        self.isr = r.isr;
        self.elr = r.elr;
        self.last_known_leader = r.last_known_leader;
    }

    /// The log to show: the leader's, or while offline the first replica's.
    pub fn display_log(&self) -> Option<&PartitionLog> {
        self.leader_log().or_else(|| self.replicas.first().and_then(|b| self.logs.get(b)))
    }
}

/// A topic: a name, its settings and its partitions.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct Topic {
    pub(crate) name: Name,
    /// Its topic id (KIP-516), fixed at creation.
    pub(crate) id: crate::uuid::Uuid,
    pub(crate) config: TopicConfig,
    pub(crate) partitions: Vec<Partition>,
}

impl Topic {
    pub fn new(name: impl Into<Name>, id: crate::uuid::Uuid, config: TopicConfig, assignment: Vec<Vec<BrokerId>>) -> Self {
        let segments = config.segment_config();
        let partitions = assignment.into_iter().map(|r| Partition::with_segment_config(r, segments)).collect();
        Self { name: name.into(), id, config, partitions }
    }

    pub fn partition_count(&self) -> u32 {
        self.partitions.len() as u32
    }

    /// The replication factor (replicas of the first partition).
    pub fn replication_factor(&self) -> u32 {
        self.partitions.first().map(|p| p.replicas.len() as u32).unwrap_or(0)
    }

    /// Partitions that have a leader now (`availablePartitionsForTopic`).
    pub fn available_partitions(&self) -> Vec<u32> {
        // A plain loop into a vector sized once: the producer asks this for every record.
        let mut available = Vec::with_capacity(self.partitions.len());
        for (p, part) in (0u32..).zip(&self.partitions) {
            if part.leader.is_some() {
                available.push(p);
            }
        }
        available
    }
}

/// What the controller keeps of one partition (`PartitionRegistration`): its replicas in
/// assignment order (the first is the preferred leader), leader and epoch, ISR, eligible
/// leader replicas and last known leader. A topic's [`Partition`] holds these beside its
/// logs; a `__consumer_offsets` partition, whose records the sandbox does not store, is
/// only this.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct Registration {
    pub(crate) replicas: Vec<BrokerId>,
    pub(crate) leader: Option<BrokerId>,
    pub(crate) leader_epoch: u32,
    pub(crate) isr: Vec<BrokerId>,
    pub(crate) elr: Vec<BrokerId>,
    pub(crate) last_known_leader: Option<BrokerId>,
}

impl Registration {
    /// A new partition: its first replica leads, every replica in the ISR, epoch 0.
    pub fn new(replicas: Vec<BrokerId>) -> Self {
        Self {
            leader: replicas.first().copied(),
            leader_epoch: 0,
            isr: replicas.clone(),
            replicas,
            elr: Vec::new(),
            last_known_leader: None,
        }
    }

    /// Led by its preferred replica (`PartitionRegistration.hasPreferredLeader`); the
    /// controller's auto-rebalance looks at the others.
    pub fn has_preferred_leader(&self) -> bool {
        self.leader.is_some() && self.leader == self.replicas.first().copied()
    }
}

/// The kind of election the controller runs (`PartitionChangeBuilder.Election`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Election {
    /// `replicas[0]` if it may lead, else the current leader if it still may, else as
    /// `Online` (`electPreferredLeader`): the auto-rebalance and `kafka-leader-election`.
    Preferred,
    /// From the ISR (or the ELR while the ISR is empty), else the last known leader.
    Online,
    /// As `Online`, then any live replica (`unclean.leader.election.enable`).
    Unclean,
}

/// One partition change the controller asks for: the target ISR and who may lead.
pub(crate) struct ChangeRequest<'a> {
    /// The ISR wanted (the old one without a fenced, stopping or lagging replica, or with a
    /// caught-up one).
    pub(crate) target_isr: Vec<BrokerId>,
    pub(crate) election: Election,
    /// Eligible leader replicas on (KIP-966; `KafkaVersion::eligible_leader_replicas`).
    pub(crate) elr_enabled: bool,
    /// The topic's `min.insync.replicas`.
    pub(crate) min_isr: usize,
    /// A broker re-registering after an unclean shutdown (KAFKA-15586): out of the ISR,
    /// the ELR and the candidates.
    pub(crate) unclean_shutdown: Option<BrokerId>,
    /// Whether a broker may lead (`isAcceptableLeader`: registered, unfenced, not the one
    /// being removed).
    pub(crate) acceptable: &'a dyn Fn(BrokerId) -> bool,
}

/// What a change did (`PartitionChangeRecord`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Change {
    pub(crate) after: Registration,
    /// The leader changed (so the epoch went up by one).
    pub(crate) leader_changed: bool,
    /// The new leader came from outside the ISR and ELR (unclean election, or the last
    /// known leader): the ISR is just it.
    pub(crate) unclean: bool,
}

impl Change {
    /// Nothing changed (`changeRecordIsNoOp`).
    pub fn is_noop(&self, before: &Registration) -> bool {
        &self.after == before
    }
}

/// The controller's partition change, as `PartitionChangeBuilder.build()` makes it
/// (metadata module, 4.x): the ELR first (`maybePopulateTargetElr`: cleared once the target
/// ISR reaches `min.insync.replicas`, else (old ELR ∪ old ISR) − target ISR − a broker
/// whose shutdown was unclean), then the election (`electLeader`: keep a leader that may
/// still lead; else the first replica in assignment order that is in the ISR, or in the
/// ELR while the ISR is empty, and may lead; else the last known leader when ISR and ELR
/// are empty; else with `Unclean` any replica that may lead; a leader taken from the ELR
/// makes the ISR just it), then the ISR (without ELR an empty target leaves the last member
/// in it, leaderless), then the last known leader (`maybeUpdateLastKnownLeader`). Orders
/// follow the assignment (Kafka's are `HashSet` orders). The leader epoch goes up by one
/// when the leader changes; an ISR change alone does not bump it (metadata 3.6+).
///
/// One simplification: Kafka elects the last known leader even when it is not alive (the
/// check in `canElectLastKnownLeader` only logs); the sandbox elects it only when it may
/// lead, so a partition never has a stopped leader.
pub(crate) fn partition_change(before: &Registration, req: &ChangeRequest) -> Change {
    let order = |v: &mut Vec<BrokerId>| {
        let replicas = before.replicas.clone();
        crate::sorted::sort_by_key(v, |b| replicas.iter().position(|r| r == b));
    };
    let unclean_shutdown = |b: &BrokerId| req.unclean_shutdown == Some(*b);
    let mut target_isr: Vec<BrokerId> = req.target_isr.iter().copied().filter(|b| !unclean_shutdown(b)).collect();
    order(&mut target_isr);
    // maybePopulateTargetElr
    let mut elr: Vec<BrokerId> = before.elr.clone();
    if req.elr_enabled {
        if target_isr.len() >= req.min_isr {
            elr.clear();
        } else {
            for b in &before.isr {
                if !elr.contains(b) {
                    elr.push(*b);
                }
            }
            elr.retain(|b| !target_isr.contains(b) && !unclean_shutdown(b));
            order(&mut elr);
        }
    }
    // electLeader
    let valid =
        |b: BrokerId, isr: &[BrokerId], elr: &[BrokerId]| (isr.contains(&b) || (isr.is_empty() && elr.contains(&b))) && (req.acceptable)(b);
    let last_known = || {
        let lkl = before.last_known_leader?;
        (req.elr_enabled && target_isr.is_empty() && elr.is_empty() && (req.acceptable)(lkl)).then_some(lkl)
    };
    let current = before.leader.filter(|l| valid(*l, &target_isr, &elr));
    let first_valid = |skip: usize| before.replicas.iter().skip(skip).copied().find(|b| valid(*b, &target_isr, &elr));
    let (leader, unclean) = match req.election {
        Election::Preferred => {
            let preferred = before.replicas.first().copied().filter(|b| valid(*b, &target_isr, &elr));
            match preferred.or(current).or_else(|| first_valid(1)) {
                Some(b) => (Some(b), false),
                None => (last_known(), last_known().is_some()),
            }
        }
        Election::Online | Election::Unclean => match current.or_else(|| first_valid(0)) {
            Some(b) => (Some(b), false),
            None => match last_known() {
                Some(b) => (Some(b), true),
                None if req.election == Election::Unclean => {
                    let any = before.replicas.iter().copied().find(|b| (req.acceptable)(*b));
                    (any, any.is_some())
                }
                None => (None, false),
            },
        },
    };
    let leader_changed = leader != before.leader;
    let mut isr = target_isr;
    if leader_changed {
        if let Some(l) = leader {
            if elr.contains(&l) {
                isr = vec![l];
                elr.retain(|b| *b != l);
            }
        }
    }
    // maybeUpdateRecordElr: an unclean election or ELR off clears the ELR.
    if unclean || !req.elr_enabled {
        elr.clear();
    }
    if let (true, Some(l)) = (unclean, leader) {
        isr = vec![l];
    } else if isr.is_empty() && !req.elr_enabled {
        // Without ELR the ISR never empties: its last member stays (leaderless).
        isr = before.isr.clone();
    }
    // maybeUpdateLastKnownLeader
    let mut last_known_leader = before.last_known_leader;
    if req.elr_enabled {
        if isr.is_empty() && !before.isr.is_empty() {
            // Kafka stores the leader (`partition.leader`). The sandbox never elects a
            // crashed broker its controller has not fenced yet, where Kafka's controller,
            // not knowing, would have: a leaderless ISR's last member stands in for it.
            last_known_leader = before.leader.or(before.isr.first().copied());
        } else if leader.is_some() {
            last_known_leader = None;
        }
    }
    let leader_epoch = if leader_changed { before.leader_epoch + 1 } else { before.leader_epoch };
    Change {
        after: Registration { replicas: before.replicas.clone(), leader, leader_epoch, isr, elr, last_known_leader },
        leader_changed,
        unclean,
    }
}

/// Kafka's replica placement without racks (KRaft `StripedReplicaPlacer`): brokers
/// sorted by id, a random starting offset, partition p starting one broker further than
/// partition p-1, its replicas the next brokers in turn; after as many partitions as
/// brokers the broker list is shuffled so the pattern does not repeat. The first replica
/// is the preferred leader. Kafka draws from `java.util.Random`; the sandbox draws from
/// its own seeded RNG, so the pattern is Kafka's and the starting point is the seed's.
pub fn place_replicas(rng: &mut SimRng, brokers: &[BrokerId], partitions: u32, replication_factor: u32) -> Vec<Vec<BrokerId>> {
    let mut list: Vec<BrokerId> = brokers.to_vec();
    list.sort_unstable();
    let n = list.len() as u32;
    if n == 0 {
        return Vec::new();
    }
    let rf = replication_factor.clamp(1, n);
    let mut offset = rng.below(n);
    let mut epoch = 0u32;
    let mut out = Vec::with_capacity(partitions as usize);
    for p in 0..partitions {
        if p > 0 {
            if epoch == n && n > 1 {
                // Fisher–Yates, as `Collections.shuffle` does.
                for i in (1..n).rev() {
                    let j = rng.below(i + 1);
                    list.swap(i as usize, j as usize);
                }
                epoch = 0;
            }
            offset = (offset + 1) % n;
        }
        out.push((0..rf).map(|j| list[((offset + j) % n) as usize]).collect());
        epoch += 1;
    }
    out
}

/// A record a leader change left behind, as its partition remembers it (the newest
/// [`crate::SimOptions::lost_per_partition`]): what it was, whether it had been committed, why and when it was lost.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LostView {
    /// The lost record's id.
    pub record: RecordId,
    /// The lost record's value.
    pub value: String,
    /// Its offset in the old leader's log.
    pub offset: u64,
    /// Whether it was below the old leader's high watermark (committed) when the leader
    /// changed. A clean election from the ISR keeps committed records; an unclean one may
    /// lose them.
    pub was_committed: bool,
    /// Why: a clean failover, or an unclean election.
    pub cause: LossCause,
    /// When the leader changed (simulated time).
    pub at: SimTime,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn placement_is_striped_distinct_and_spreads_leaders() {
        let mut rng = SimRng::new(3);
        let a = place_replicas(&mut rng, &[1, 2, 3], 6, 3);
        assert_eq!(a.len(), 6);
        for r in &a {
            let mut s = r.clone();
            s.sort_unstable();
            s.dedup();
            assert_eq!(s.len(), 3, "no broker twice in {r:?}");
        }
        // The first three partitions stripe: each starts one broker after the previous.
        let leaders: Vec<u32> = a[..3].iter().map(|r| r[0]).collect();
        let mut sorted = leaders.clone();
        sorted.sort_unstable();
        assert_eq!(sorted, vec![1, 2, 3], "each broker leads one of the first three");
        assert_eq!(a[1][0], a[0][1], "partition 1 starts where partition 0's second replica is");
    }

    #[test]
    fn replication_factor_one_places_one_replica_per_partition() {
        let mut rng = SimRng::new(9);
        let a = place_replicas(&mut rng, &[0], 4, 1);
        assert_eq!(a, vec![vec![0]; 4]);
    }
}
