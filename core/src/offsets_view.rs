//! The read side of `__consumer_offsets` (issue 19): the compacted topic where the group
//! coordinators keep each group's committed offsets and metadata, as records a learner can
//! open — commits landing, the cleaner compacting them, tombstones when offsets expire.
//!
//! # Example
//!
//! ```
//! use kafka_sandbox_core::{GroupSpec, MemberSpec, ProducerSpec, Scenario, SendPlan, SimTime, TopicSpec};
//!
//! let mut b = Scenario::builder();
//! b.brokers(3);
//! let orders = b.topic(TopicSpec::new("orders").partitions(2).replication_factor(3));
//! b.producer(ProducerSpec::new("app").send(SendPlan::values(&orders, ["a", "b", "c"])));
//! b.group(GroupSpec::new("billing", [&orders]).members([MemberSpec::new("c1")]));
//! let mut sim = b.build()?;
//! sim.run_to(SimTime(20_000));
//!
//! let offsets = sim.read().offsets_topic();
//! // The group's partition: Java's `hashCode` of its id, modulo 50.
//! let p = offsets.partition_of("billing").expect("the topic exists");
//! let part = offsets.partition(p).expect("a partition");
//! assert_eq!(part.groups(), ["billing"]);
//! // Its log holds the group's commits, keyed ["group","topic",partition], and its metadata.
//! let log = part.log().expect("the group committed");
//! let latest: Vec<&str> = log.latest_per_key().iter().filter_map(|r| r.record.key.as_deref()).collect();
//! assert!(latest.contains(&r#"["billing","orders",0]"#) && latest.contains(&r#""billing""#));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use crate::cluster::Registration;
use crate::read::LogRead;
use crate::record::{BrokerId, OFFSETS_TOPIC};
use crate::sim::Sim;

impl Sim {
    /// `__consumer_offsets` (see [`OffsetsTopicRead`]).
    pub fn offsets_topic(&self) -> OffsetsTopicRead<'_> {
        OffsetsTopicRead { sim: self }
    }
}

/// `__consumer_offsets`: 50 partitions (`offsets.topic.num.partitions`) of
/// `offsets.topic.replication.factor` replicas, `cleanup.policy=compact`. The leader of a
/// partition is the coordinator of the groups that hash to it.
#[derive(Clone, Copy)]
pub struct OffsetsTopicRead<'a> {
    sim: &'a Sim,
}

impl<'a> OffsetsTopicRead<'a> {
    /// Its name, `__consumer_offsets`.
    pub fn name(self) -> &'static str {
        OFFSETS_TOPIC
    }

    /// Its partitions: 50, or 0 when the cluster has fewer brokers than
    /// `offsets.topic.replication.factor` (Kafka cannot create it then).
    pub fn partition_count(self) -> u32 {
        self.sim.cluster.offsets_partition_count()
    }

    /// `offsets.topic.segment.bytes`: its segments' size (the active one is never cleaned).
    pub fn segment_bytes(self) -> u64 {
        self.sim.cluster.config.offsets_topic_segment_bytes
    }

    /// The partition holding `group`'s offsets and metadata (`abs(hashCode(group.id)) % 50`,
    /// `GroupCoordinator.partitionFor`); `None` when the topic does not exist.
    pub fn partition_of(self, group: &str) -> Option<u32> {
        self.sim.cluster.offsets_partition_of(group)
    }

    /// Partition `index`, `None` past the last.
    pub fn partition(self, index: u32) -> Option<OffsetsPartitionRead<'a>> {
        let reg = self.sim.cluster.offsets_partition(index)?;
        Some(OffsetsPartitionRead { sim: self.sim, index, reg })
    }

    /// The partitions in use: those holding records or coordinating a group, by index.
    pub fn partitions_in_use(self) -> impl Iterator<Item = OffsetsPartitionRead<'a>> {
        let mut used: Vec<u32> = self.sim.consumers.offsets.partitions.keys().copied().collect();
        used.extend(self.sim.consumers.groups.keys().filter_map(|g| self.partition_of(g)));
        crate::sorted::sort(&mut used);
        used.dedup();
        used.into_iter().filter_map(move |p| self.partition(p))
    }
}

/// One partition of `__consumer_offsets`: its replicas, leader (the groups' coordinator) and
/// log.
#[derive(Clone, Copy)]
pub struct OffsetsPartitionRead<'a> {
    sim: &'a Sim,
    index: u32,
    reg: &'a Registration,
}

impl<'a> OffsetsPartitionRead<'a> {
    /// Its index, 0 to 49.
    pub fn index(self) -> u32 {
        self.index
    }
    /// Its leader: the coordinator of its groups (`None` while offline).
    pub fn leader(self) -> Option<BrokerId> {
        self.reg.leader
    }
    /// Its leader epoch: bumped by each new leader, each of which loads the partition.
    pub fn leader_epoch(self) -> u32 {
        self.reg.leader_epoch
    }
    /// Its replicas, in assignment order.
    pub fn replicas(self) -> &'a [BrokerId] {
        &self.reg.replicas
    }
    /// Its in-sync replicas.
    pub fn isr(self) -> &'a [BrokerId] {
        &self.reg.isr
    }
    /// The consumer groups (classic and consumer protocol) that hash to it, by id.
    pub fn groups(self) -> Vec<&'a str> {
        let sim = self.sim;
        sim.consumers.groups.keys().filter(|g| sim.cluster.offsets_partition_of(g) == Some(self.index)).map(String::as_str).collect()
    }
    /// The coordinator that has loaded it and the leader epoch it loaded under (`None`
    /// while it has no leader, or before its first record).
    pub fn loaded_by(self) -> Option<(BrokerId, u32)> {
        self.sim.consumers.offsets.partitions.get(&self.index).and_then(|p| p.loaded_by)
    }
    /// Its log (every in-sync copy's: the sandbox writes them together), `None` before
    /// its first record. Offset commits are keyed `["group","topic",partition]` with a
    /// JSON value `{"offset":…,"leaderEpoch":…,"commitTimestamp":…}` (a tombstone once
    /// the offset expired); group metadata is keyed `"group"`.
    pub fn log(self) -> Option<LogRead<'a>> {
        self.sim.consumers.offsets.partitions.get(&self.index).map(|p| LogRead::new(&p.log))
    }
}
