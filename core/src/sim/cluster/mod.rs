//! The brokers as one owner of the simulation's state ([`Cluster`]): each broker's life,
//! the topics with every replica's log, where `__consumer_offsets` lives, and what the
//! brokers keep in memory — replication's purgatories and fetch sessions, the leaders'
//! waiting acks=all writes, what leader changes left behind.
//!
//! Its handlers are `Cluster` methods in this folder: `replication.rs` (follower fetches,
//! ISR, high watermark, broker faults, the controller's fencing and elections, topic
//! commands), `produce.rs` (the leader's side of a Produce request), `retention.rs`.
//! Other owners read the cluster's public face — `topics`, `brokers`, `config`,
//! `internal`, `partition`, `reachable`, `coordinator_of`, `txn_coordinator_of`, `lost_records` — and
//! never its private state: the fields private here are visible only in this folder.

use super::*;

pub(super) mod cleaner;
pub(super) mod produce;
pub(super) mod replication;
pub(super) mod retention;
pub(super) mod txn;

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
    /// The coordinators' internal topics, `__consumer_offsets` and `__transaction_state`
    /// (indexed by [`Internal`]): their partitions' replicas, leaders, ISRs and ELRs, elected
    /// by the controller like any partition's; no records (see `coordinator_of`).
    pub(crate) internal: [CoordinatorTopic; 2],
    /// The controller's preferred-leader balance is queued
    /// (`QuorumController.imbalancedScheduled`).
    balance_scheduled: bool,
    /// Replication's own state: the leaders' waiting acks=all writes and parked follower
    /// fetches, the followers' fetch sessions (`replication.rs`).
    replication: ReplicationState,
    lost: VecMap<TopicPartition, std::collections::VecDeque<LostView>>,
    /// Lost records no longer remembered under [`crate::SimOptions::lost_per_partition`].
    pub(crate) lost_dropped: u64,
    /// The leaders' part in transactions: markers waiting for their HW (`txn.rs`).
    txn: txn::LeaderTxns,
    /// The brokers' log cleaners wake every `log.cleaner.backoff.ms` (`cleaner.rs`).
    cleaner_scheduled: bool,
    /// Leader changes of internal partitions so far: a group coordinator that sees it move
    /// checks which `__consumer_offsets` partitions a new leader must load.
    pub(crate) internal_leader_changes: u64,
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
    producer: Name,
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

/// A coordinator's internal topic: `__consumer_offsets` (group coordinators) or
/// `__transaction_state` (transaction coordinators). The leader of a partition coordinates
/// the ids that hash to it; the sandbox keeps the partitions' leadership, not their records.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Internal {
    /// `__consumer_offsets` (`offsets.topic.num.partitions` 50).
    ConsumerOffsets = 0,
    /// `__transaction_state` (`transaction.state.log.num.partitions` 50).
    TransactionState = 1,
}

impl Internal {
    /// Both, in the order the controller visits them.
    pub(crate) const ALL: [Internal; 2] = [Internal::ConsumerOffsets, Internal::TransactionState];
}

/// One internal topic's partitions as the controller keeps them, with when each got its
/// current leader (a coordinator taking ids over gives their clients fresh sessions), and
/// its `min.insync.replicas`.
#[derive(Clone, Debug, Default)]
pub(crate) struct CoordinatorTopic {
    pub(crate) partitions: Vec<Registration>,
    leader_since: Vec<SimTime>,
    min_isr: usize,
}

impl Cluster {
    /// `config.brokers` brokers (at least one), running, with no topics.
    pub(super) fn new(config: ClusterConfig) -> Self {
        let brokers = config.brokers.max(1);
        Cluster {
            config,
            brokers: (0..brokers).map(|b| (b, Broker::new(b))).collect(),
            incarnations: VecMap::new(),
            topics: VecMap::new(),
            internal: [CoordinatorTopic::default(), CoordinatorTopic::default()],
            balance_scheduled: false,
            replication: ReplicationState::new(),
            lost: VecMap::new(),
            lost_dropped: 0,
            txn: txn::LeaderTxns::default(),
            cleaner_scheduled: false,
            internal_leader_changes: 0,
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
        self.topics.get(tp.topic.as_str()).and_then(|t| t.partitions.get(tp.partition as usize))
    }

    pub(crate) fn partition_mut(&mut self, tp: &TopicPartition) -> Option<&mut Partition> {
        self.topics.get_mut(tp.topic.as_str()).and_then(|t| t.partitions.get_mut(tp.partition as usize))
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
        let rf = self.config.offsets_topic_replication_factor;
        self.create_internal(Internal::ConsumerOffsets, rng, group::OFFSETS_TOPIC_PARTITIONS, rf, 1);
    }

    /// Creates `__transaction_state` as `__consumer_offsets` is created
    /// (`transaction.state.log.num.partitions` 50, `transaction.state.log.replication.factor`,
    /// `transaction.state.log.min.isr`), or none with fewer brokers than its replication
    /// factor (transactional producers then find no coordinator; the scenario checks refuse
    /// such a cluster with one). Kafka creates it at the first FindCoordinator for a
    /// transactional id; the sandbox at the start, placed with `rng` — the caller's own
    /// stream, so runs without transactions draw nothing more from the run's RNG.
    pub(in crate::sim) fn create_transaction_state_topic(&mut self, rng: &mut crate::rng::SimRng) {
        let (rf, min_isr) = (self.config.transaction_state_log_replication_factor, self.config.transaction_state_log_min_isr);
        self.create_internal(Internal::TransactionState, rng, crate::txn::TRANSACTION_STATE_PARTITIONS, rf, min_isr as usize);
    }

    fn create_internal(&mut self, which: Internal, rng: &mut crate::rng::SimRng, partitions: u32, rf: u32, min_isr: usize) {
        let brokers: Vec<BrokerId> = self.brokers.keys().copied().collect();
        let rf = rf.max(1);
        let topic = &mut self.internal[which as usize];
        topic.min_isr = min_isr.max(1);
        if (brokers.len() as u32) < rf {
            topic.partitions = Vec::new();
            topic.leader_since = Vec::new();
            return;
        }
        let placement = place_replicas(rng, &brokers, partitions, rf);
        topic.partitions = placement.into_iter().map(Registration::new).collect();
        topic.leader_since = vec![SimTime::ZERO; topic.partitions.len()];
    }

    /// One internal topic's partitions.
    pub(crate) fn internal(&self, which: Internal) -> &CoordinatorTopic {
        &self.internal[which as usize]
    }

    /// The partition of `which` that coordinates `id` (Java's `hashCode` of the id,
    /// modulo the partition count: `GroupCoordinator.partitionFor`,
    /// `TransactionStateManager.partitionFor`).
    fn internal_partition_of(&self, which: Internal, id: &str) -> Option<(usize, &Registration)> {
        let partitions = match which {
            Internal::ConsumerOffsets => group::OFFSETS_TOPIC_PARTITIONS,
            Internal::TransactionState => crate::txn::TRANSACTION_STATE_PARTITIONS,
        };
        let p = crate::partitioner::coordinator_partition(id, partitions) as usize;
        self.internal(which).partitions.get(p).map(|r| (p, r))
    }

    /// How many partitions `__consumer_offsets` has (0: it could not be created).
    pub(crate) fn offsets_partition_count(&self) -> u32 {
        self.internal(Internal::ConsumerOffsets).partitions.len() as u32
    }

    /// Partition `p` of `__consumer_offsets` as the controller keeps it.
    pub(crate) fn offsets_partition(&self, p: u32) -> Option<&Registration> {
        self.internal(Internal::ConsumerOffsets).partitions.get(p as usize)
    }

    /// The `__consumer_offsets` partition holding `group`'s offsets and metadata
    /// (`GroupCoordinator.partitionFor`), `None` when the topic could not be created.
    pub(crate) fn offsets_partition_of(&self, group: &str) -> Option<u32> {
        self.internal_partition_of(Internal::ConsumerOffsets, group).map(|(p, _)| p as u32)
    }

    /// The broker coordinating `id` in `which`, when a client can reach it: the leader of
    /// its partition.
    fn internal_coordinator_of(&self, which: Internal, id: &str) -> Option<BrokerId> {
        self.internal_partition_of(which, id)?.1.leader.filter(|b| self.reachable(*b))
    }

    /// Since when `group`'s coordinator has led its `__consumer_offsets` partition, while
    /// a client can reach it (`None` while the group has no coordinator).
    pub(crate) fn coordinator_since(&self, group: &str) -> Option<SimTime> {
        self.coordinator_of(group)?;
        let (p, _) = self.internal_partition_of(Internal::ConsumerOffsets, group)?;
        self.internal(Internal::ConsumerOffsets).leader_since.get(p).copied()
    }

    /// The `__transaction_state` partition of `transactional_id` (`TransactionStateManager.partitionFor`:
    /// `abs(hashCode) % 50`), with its number.
    pub(crate) fn transaction_partition_of(&self, transactional_id: &str) -> Option<(usize, &Registration)> {
        self.internal_partition_of(Internal::TransactionState, transactional_id)
    }

    /// The transaction coordinator of `transactional_id`, when a client can reach it: the
    /// leader of its `__transaction_state` partition, elected as any partition's (a crashed
    /// one stays leader until the controller fences it, `broker.session.timeout.ms`).
    pub(crate) fn txn_coordinator_of(&self, transactional_id: &str) -> Option<BrokerId> {
        self.internal_coordinator_of(Internal::TransactionState, transactional_id)
    }

    /// Whether the coordinator of `transactional_id` can write its transaction log: it is
    /// reachable and its partition has at least `transaction.state.log.min.isr` in-sync
    /// replicas (`TransactionStateManager.appendTransactionToLog`: NOT_ENOUGH_REPLICAS,
    /// which the client sees as COORDINATOR_NOT_AVAILABLE). With the coordinator epoch:
    /// the partition's leader epoch.
    pub(crate) fn txn_log_writable(&self, transactional_id: &str) -> Option<(BrokerId, u32)> {
        let min_isr = self.internal(Internal::TransactionState).min_isr;
        let (_, r) = self.transaction_partition_of(transactional_id)?;
        let leader = r.leader.filter(|b| self.reachable(*b))?;
        (r.isr.len() >= min_isr).then_some((leader, r.leader_epoch))
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
        self.internal_coordinator_of(Internal::ConsumerOffsets, group)
    }
}
