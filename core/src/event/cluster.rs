//! The cluster's events: brokers crashing, restarting, cut off, slowed, fenced by the controller; a topic growing.

use super::{Category, Jump, Subject};
use crate::record::BrokerId;
use serde::{Deserialize, Serialize};

/// Cluster: what happened, with what it touched (one kind of [`super::EventKind`]).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
// Explicit discriminants: the place each kind had in the one flat `EventKind`, so the
// trace digest (derived `Hash`, which hashes the discriminant) is unchanged.
#[repr(isize)]
pub enum ClusterEvent {
    /// The broker process stopped: it lost what it held in memory (waiting acks=all
    /// requests, parked follower fetches) and its clients see their connections close. The
    /// controller fences it after `broker.session.timeout.ms` (`BrokerFenced`).
    BrokerCrashed {
        /// The broker that crashed.
        broker: BrokerId,
    } = 6,
    /// The broker process started again with its log. The controller fences the old
    /// incarnation if it had not yet, and the new one registers one network delay later
    /// (`BrokerUnfenced`).
    BrokerRestarted {
        /// The broker that restarted.
        broker: BrokerId,
    } = 7,
    /// Cut off the network (from the other brokers, the controller and every client).
    BrokerIsolated {
        /// The broker that was cut off.
        broker: BrokerId,
    } = 8,
    /// The network to an isolated broker is back: it registers with the controller again,
    /// and its follower fetches, and its followers' fetches from it, start again.
    BrokerHealed {
        /// The broker that is reachable again.
        broker: BrokerId,
    } = 9,
    /// Its replica fetches now take `slow_ms` longer.
    BrokerSlowed {
        /// The slowed broker.
        broker: BrokerId,
        /// The extra delay of each of its follower fetches, in ms of simulated time (0 is
        /// full speed again; at most one hour).
        slow_ms: u64,
    } = 10,
    /// The controller stopped hearing from the broker for `broker.session.timeout.ms`.
    BrokerFenced {
        /// The fenced broker: it leaves every ISR it was in (unless it was the last
        /// member) and every partition it led gets a new leader.
        broker: BrokerId,
    } = 11,
    /// The broker registered (again) with the controller.
    BrokerUnfenced {
        /// The broker, eligible again to lead and to rejoin ISRs.
        broker: BrokerId,
    } = 12,
    /// A topic grew: `partitions` is the new count.
    PartitionsAdded {
        /// The topic that grew.
        topic: String,
        /// The topic's partition count now (the new partitions each get a leader at
        /// epoch 0).
        partitions: u32,
    } = 20,
    /// A controlled shutdown (`shutdown_broker`): the broker asked the controller to let it
    /// go; the controller took it out of every ISR, moved its leaderships at once
    /// (`handleBrokerInControlledShutdown`) and fenced it; the process then stops. Unlike a
    /// crash, no `broker.session.timeout.ms` passes with its partitions unwritable.
    BrokerShutDown {
        /// The broker shutting down.
        broker: BrokerId,
    } = 65,
}

impl ClusterEvent {
    /// This feature's part of [`EventKind::name`](super::EventKind::name).
    pub fn name(&self) -> &'static str {
        use ClusterEvent as E;
        match self {
            E::BrokerCrashed { .. } => "BrokerCrashed",
            E::BrokerRestarted { .. } => "BrokerRestarted",
            E::BrokerIsolated { .. } => "BrokerIsolated",
            E::BrokerHealed { .. } => "BrokerHealed",
            E::BrokerSlowed { .. } => "BrokerSlowed",
            E::BrokerFenced { .. } => "BrokerFenced",
            E::BrokerUnfenced { .. } => "BrokerUnfenced",
            E::PartitionsAdded { .. } => "PartitionsAdded",
            E::BrokerShutDown { .. } => "BrokerShutDown",
        }
    }

    /// This feature's part of [`EventKind::subjects`](super::EventKind::subjects).
    pub fn subjects(&self) -> Vec<Subject<'_>> {
        use ClusterEvent as E;
        use Subject as S;
        match self {
            E::BrokerCrashed { broker }
            | E::BrokerRestarted { broker }
            | E::BrokerIsolated { broker }
            | E::BrokerHealed { broker }
            | E::BrokerSlowed { broker, .. }
            | E::BrokerFenced { broker }
            | E::BrokerUnfenced { broker }
            | E::BrokerShutDown { broker } => vec![S::Broker(*broker)],
            E::PartitionsAdded { topic, .. } => vec![S::Topic(topic)],
        }
    }

    /// This feature's part of [`EventKind::category`](super::EventKind::category).
    pub fn category(&self) -> Category {
        use ClusterEvent as E;
        match self {
            E::BrokerCrashed { .. }
            | E::BrokerRestarted { .. }
            | E::BrokerIsolated { .. }
            | E::BrokerHealed { .. }
            | E::BrokerSlowed { .. }
            | E::BrokerFenced { .. }
            | E::BrokerUnfenced { .. }
            | E::BrokerShutDown { .. } => Category::Fault,
            E::PartitionsAdded { .. } => Category::Replication,
        }
    }

    /// This feature's part of [`EventKind::jump`](super::EventKind::jump).
    pub fn jump(&self) -> Option<Jump> {
        use ClusterEvent as E;
        match self {
            E::BrokerCrashed { .. } | E::BrokerIsolated { .. } | E::BrokerShutDown { .. } => Some(Jump::Fault),
            E::BrokerRestarted { .. }
            | E::BrokerHealed { .. }
            | E::BrokerSlowed { .. }
            | E::BrokerFenced { .. }
            | E::BrokerUnfenced { .. }
            | E::PartitionsAdded { .. } => None,
        }
    }

    /// This feature's part of [`EventKind::details`](super::EventKind::details).
    pub fn details(&self) -> Vec<&str> {
        use ClusterEvent as E;
        match self {
            E::BrokerCrashed { .. }
            | E::BrokerRestarted { .. }
            | E::BrokerIsolated { .. }
            | E::BrokerHealed { .. }
            | E::BrokerSlowed { .. }
            | E::BrokerFenced { .. }
            | E::BrokerUnfenced { .. }
            | E::BrokerShutDown { .. }
            | E::PartitionsAdded { .. } => Vec::new(),
        }
    }
}
