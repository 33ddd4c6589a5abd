//! Brokers, topics and partitions with their replicas, leader, epoch and ISR, and
//! Kafka's replica placement.

use crate::event::LossCause;
use crate::log::{PartitionLog, SegmentConfig};
use crate::record::RecordId;
use crate::record::TimestampType;
use crate::rng::SimRng;
use crate::time::SimTime;
use crate::vecmap::VecMap;
use serde::{Deserialize, Serialize};

pub use crate::record::BrokerId;

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
}

impl Broker {
    pub fn new(id: BrokerId) -> Self {
        Self { id, alive: true, isolated: false, slow_ms: 0, fenced: false }
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
        }
    }
}

impl TopicConfig {
    /// How each replica's log of this topic rolls its segments.
    pub fn segment_config(&self) -> SegmentConfig {
        SegmentConfig { segment_bytes: u64::from(self.segment_bytes), segment_ms: self.segment_ms }
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
    /// In-sync replicas, in assignment order.
    pub(crate) isr: Vec<BrokerId>,
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
        Self { isr: replicas.clone(), replicas, leader, leader_epoch: 0, logs, followers: VecMap::new() }
    }

    /// The leader's log, which producers append to and consumers read from.
    pub fn leader_log(&self) -> Option<&PartitionLog> {
        self.leader.and_then(|l| self.logs.get(&l))
    }

    /// The log to show: the leader's, or while offline the first replica's.
    pub fn display_log(&self) -> Option<&PartitionLog> {
        self.leader_log().or_else(|| self.replicas.first().and_then(|b| self.logs.get(b)))
    }
}

/// A topic: a name, its settings and its partitions.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct Topic {
    pub(crate) name: String,
    /// Its topic id (KIP-516), fixed at creation.
    pub(crate) id: crate::uuid::Uuid,
    pub(crate) config: TopicConfig,
    pub(crate) partitions: Vec<Partition>,
}

impl Topic {
    pub fn new(name: impl Into<String>, id: crate::uuid::Uuid, config: TopicConfig, assignment: Vec<Vec<BrokerId>>) -> Self {
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
        (0..self.partition_count()).filter(|p| self.partitions[*p as usize].leader.is_some()).collect()
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
