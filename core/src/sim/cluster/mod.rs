//! The brokers as one owner of the simulation's state ([`Cluster`]): each broker's life,
//! the topics with every replica's log, where `__consumer_offsets` lives, and what the
//! brokers keep in memory — replication's purgatories and fetch sessions, the leaders'
//! waiting acks=all writes, what leader changes left behind.
//!
//! Its handlers are `Cluster` methods in this folder: `replication.rs` (follower fetches,
//! ISR, high watermark, broker faults, the controller's fencing and elections, topic
//! commands), `produce.rs` (the leader's side of a Produce request), `retention.rs`.
//! Other owners read the cluster's public face — `topics`, `brokers`, `config`,
//! `offsets_topic`, `partition`, `reachable`, `coordinator_of`, `lost_records` — and
//! never its private state: the fields private here are visible only in this folder.

use super::*;

pub(super) mod produce;
pub(super) mod replication;
pub(super) mod retention;

/// The brokers and what they keep: the cluster's settings, each broker's life, the topics
/// with every replica's log, where `__consumer_offsets` lives, replication's purgatories
/// and fetch sessions, and what leader changes left behind. Changed by the replication,
/// produce (the leader's side) and retention handlers.
#[derive(Clone, Debug)]
pub(crate) struct Cluster {
    pub(crate) config: ClusterConfig,
    pub(crate) brokers: VecMap<BrokerId, Broker>,
    /// Bumped at each restart, so a stale session expiry or registration is ignored.
    incarnations: VecMap<BrokerId, u64>,
    pub(crate) topics: VecMap<String, Topic>,
    /// `__consumer_offsets`' partitions: their replicas, leaders, ISRs and ELRs, elected
    /// by the controller like any partition's; no records (see `coordinator_of`).
    pub(crate) offsets_topic: Vec<Registration>,
    /// When each `__consumer_offsets` partition's leader was elected (time 0 for the first):
    /// a coordinator taking a group over gives its members fresh sessions.
    offsets_leader_since: Vec<SimTime>,
    /// The controller's preferred-leader balance is queued
    /// (`QuorumController.imbalancedScheduled`).
    balance_scheduled: bool,
    /// Replication's own state: the leaders' waiting acks=all writes and parked follower
    /// fetches, the followers' fetch sessions (`replication.rs`).
    replication: ReplicationState,
    lost: VecMap<TopicPartition, std::collections::VecDeque<LostView>>,
    /// Lost records no longer remembered under [`crate::SimOptions::lost_per_partition`].
    pub(crate) lost_dropped: u64,
}

/// What replication keeps (`replication.rs`, and the leader's answer to an acks=all
/// Produce request in `produce.rs`): the leaders' purgatories
/// (`DelayedProduce`, parked follower fetches) and each follower's fetch session.
#[derive(Clone, Debug)]
struct ReplicationState {
    delayed_produces: Vec<DelayedProduce>,
    next_delayed: u64,
    /// The current fetch session of each (partition, follower): a fetch answered under an
    /// older token is stale.
    tokens: VecMap<(TopicPartition, BrokerId), u64>,
    parked: Vec<ParkedReplicaFetch>,
    /// The follower fetch each (partition, follower) is waiting on.
    pending: VecMap<(TopicPartition, BrokerId), u64>,
    next_fetch: u64,
}

impl ReplicationState {
    fn new() -> Self {
        Self {
            delayed_produces: Vec::new(),
            next_delayed: 1,
            tokens: VecMap::new(),
            parked: Vec::new(),
            pending: VecMap::new(),
            next_fetch: 1,
        }
    }
}

/// A follower fetch the leader holds until data arrives or `replica.fetch.wait.max.ms`.
#[derive(Clone, Debug, PartialEq, Eq)]
struct ParkedReplicaFetch {
    id: u64,
    tp: TopicPartition,
    follower: BrokerId,
    token: u64,
    fetch_offset: u64,
}

/// An acks=all Produce request waiting at the leader until every partition it appended to
/// is committed (`DelayedProduce`): the response goes when all parts are settled, or
/// at `request.timeout.ms` with `REQUEST_TIMED_OUT` for those still waiting.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct DelayedProduce {
    id: u64,
    producer: String,
    broker: BrokerId,
    request: u64,
    parts: Vec<DelayedPart>,
}

/// One partition of a [`DelayedProduce`] (`ProducePartitionStatus`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct DelayedPart {
    batch: u64,
    tp: TopicPartition,
    /// The HW the write needs: the log end offset right after it.
    required_offset: u64,
    acked: Vec<crate::sim::produce::Acked>,
    /// Settled: an error at append, or the outcome once the HW got there.
    result: Option<crate::sim::produce::PartitionResult>,
}

/// How far back a leader looks in its log for an idempotent producer's last records
/// (Kafka keeps the last five batches' metadata per producer, `ProducerStateEntry`).
const PRODUCER_STATE_SCAN: usize = 5_000;

impl Cluster {
    /// `config.brokers` brokers (at least one), running, with no topics.
    pub(super) fn new(config: ClusterConfig) -> Self {
        let brokers = config.brokers.max(1);
        Cluster {
            config,
            brokers: (0..brokers).map(|b| (b, Broker::new(b))).collect(),
            incarnations: VecMap::new(),
            topics: VecMap::new(),
            offsets_topic: Vec::new(),
            offsets_leader_since: Vec::new(),
            balance_scheduled: false,
            replication: ReplicationState::new(),
            lost: VecMap::new(),
            lost_dropped: 0,
        }
    }

    /// Records leader changes left behind on `tp`, oldest first (the newest few hundred).
    pub(crate) fn lost_records(&self, tp: &TopicPartition) -> impl Iterator<Item = &LostView> {
        self.lost.get(tp).into_iter().flatten()
    }

    /// Records leader changes left behind over the whole run, on every partition (kept
    /// or not).
    pub(crate) fn lost_total(&self) -> u64 {
        self.lost.values().map(|l| l.len() as u64).sum::<u64>() + self.lost_dropped
    }

    pub(crate) fn partition(&self, tp: &TopicPartition) -> Option<&Partition> {
        self.topics.get(&tp.topic).and_then(|t| t.partitions.get(tp.partition as usize))
    }

    pub(crate) fn partition_mut(&mut self, tp: &TopicPartition) -> Option<&mut Partition> {
        self.topics.get_mut(&tp.topic).and_then(|t| t.partitions.get_mut(tp.partition as usize))
    }

    /// Whether a message can reach the broker (running and not cut off).
    pub(crate) fn reachable(&self, broker: BrokerId) -> bool {
        self.brokers.get(&broker).is_some_and(Broker::reachable)
    }
}

impl Cluster {
    /// Creates `__consumer_offsets`: [`group::OFFSETS_TOPIC_PARTITIONS`] partitions of
    /// `offsets.topic.replication.factor` replicas, placed as any topic
    /// (`StripedReplicaPlacer`), each led by its first replica. With fewer brokers than the
    /// replication factor Kafka cannot create it (`AutoTopicCreationManager`), so there is
    /// none and no group finds a coordinator (the scenario checks refuse such a cluster
    /// with groups).
    pub(in crate::sim) fn create_offsets_topic(&mut self, rng: &mut crate::rng::SimRng) {
        let brokers: Vec<BrokerId> = self.brokers.keys().copied().collect();
        let rf = self.config.offsets_topic_replication_factor.max(1);
        if (brokers.len() as u32) < rf {
            self.offsets_topic = Vec::new();
            return;
        }
        let placement = place_replicas(rng, &brokers, group::OFFSETS_TOPIC_PARTITIONS, rf);
        self.offsets_topic = placement.into_iter().map(Registration::new).collect();
        self.offsets_leader_since = vec![SimTime::ZERO; self.offsets_topic.len()];
    }

    /// Since when `group`'s coordinator has led its `__consumer_offsets` partition, while
    /// a client can reach it (`None` while the group has no coordinator).
    pub(crate) fn coordinator_since(&self, group: &str) -> Option<SimTime> {
        self.coordinator_of(group)?;
        let p = crate::partitioner::coordinator_partition(group, group::OFFSETS_TOPIC_PARTITIONS) as usize;
        self.offsets_leader_since.get(p).copied()
    }

    /// The `__consumer_offsets` partition holding `group`'s offsets
    /// (`GroupCoordinator.partitionFor`: Java's `hashCode` of the id, modulo 50).
    pub(crate) fn offsets_partition_of(&self, group: &str) -> Option<&Registration> {
        let p = crate::partitioner::coordinator_partition(group, group::OFFSETS_TOPIC_PARTITIONS) as usize;
        self.offsets_topic.get(p)
    }

    /// The broker coordinating `group`, when a client can reach it: the **leader** of its
    /// `__consumer_offsets` partition (`GroupCoordinator.partitionFor`, FindCoordinator).
    /// The controller elects that leader as for any partition: a crashed coordinator stays
    /// the leader until it is fenced (`broker.session.timeout.ms`), and until then clients
    /// get COORDINATOR_NOT_AVAILABLE / NOT_COORDINATOR (`None` here; the group code
    /// retries); leadership comes back to a restarted broker only through a preferred-leader
    /// election. The sandbox keeps that topic's leadership but not its records: the group's
    /// state survives a failover (Kafka reloads it from the compacted topic).
    pub(crate) fn coordinator_of(&self, group: &str) -> Option<BrokerId> {
        self.offsets_partition_of(group)?.leader.filter(|b| self.reachable(*b))
    }
}
