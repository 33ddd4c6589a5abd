//! Consumer groups and their members: membership, assignment, positions, commits.
//!
//! This is the simplified group of the walking skeleton: a membership change
//! starts an eager rebalance that completes after one JoinGroup + SyncGroup round
//! trip (or `group.initial.rebalance.delay.ms` for a group formed from empty).
//! Heartbeats, session timeouts and the cooperative protocol arrive with the
//! group-protocol issue and replace `Sim::start_rebalance`/`complete_rebalance`.

use crate::config::{ConsumerConfig, GroupConfig};
use crate::record::{RecordId, TopicPartition};
use crate::time::SimTime;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, VecDeque};

/// How many delivered records a member remembers for the view and for tests.
pub const RECEIVED_KEPT: usize = 1000;

/// Group states, named as in Kafka's `GroupState` (classic protocol).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum GroupState {
    /// No members.
    Empty,
    /// Members are (re)joining; nobody consumes (eager protocol).
    PreparingRebalance,
    /// Every member has its partitions and consumes.
    Stable,
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
    pub record: RecordId,
    pub tp: TopicPartition,
    pub offset: u64,
    pub key: Option<String>,
    pub value: String,
    pub at: SimTime,
}

/// A consumer in a group.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Member {
    pub client_id: String,
    /// `clientId-UUID` as the coordinator makes it (KIP-394); the UUID comes from the
    /// simulation's RNG. Range and RoundRobin order members by it.
    pub member_id: String,
    pub group_instance_id: Option<String>,
    pub topics: Vec<String>,
    pub config: ConsumerConfig,
    pub assigned: Vec<TopicPartition>,
    /// The next offset to fetch, per assigned partition (`position()`).
    pub positions: BTreeMap<TopicPartition, u64>,
    pub activity: Activity,
    pub(crate) received: VecDeque<Delivery>,
    pub(crate) received_total: u64,
    /// Bumped whenever the member's fetch loop restarts, so stale events are ignored.
    pub(crate) token: u64,
    pub(crate) next_auto_commit: SimTime,
    pub(crate) fetch_cursor: u32,
}

impl Member {
    pub(crate) fn remember(&mut self, d: Delivery) {
        if self.received.len() == RECEIVED_KEPT {
            self.received.pop_front();
        }
        self.received.push_back(d);
        self.received_total += 1;
    }

    /// The newest deliveries (at most [`RECEIVED_KEPT`]), oldest first.
    pub fn received(&self) -> impl Iterator<Item = &Delivery> {
        self.received.iter()
    }

    pub fn received_total(&self) -> u64 {
        self.received_total
    }
}

/// A consumer group.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Group {
    pub id: String,
    pub topics: Vec<String>,
    pub config: GroupConfig,
    /// In join order: the first is the group leader, as in Kafka.
    pub members: Vec<Member>,
    pub state: GroupState,
    /// Starts at 0; the first stable generation is 1.
    pub generation: i32,
    /// Committed offsets: the next offset to read, per partition.
    pub committed: BTreeMap<TopicPartition, u64>,
    /// When the pending rebalance completes, if one is pending.
    pub rebalance_due: Option<SimTime>,
    pub(crate) round: u64,
    pub(crate) initial_delay_since: Option<SimTime>,
}

impl Group {
    pub fn member(&self, client_id: &str) -> Option<&Member> {
        self.members.iter().find(|m| m.client_id == client_id)
    }

    pub(crate) fn member_mut(&mut self, client_id: &str) -> Option<&mut Member> {
        self.members.iter_mut().find(|m| m.client_id == client_id)
    }
}
