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
    BrokerCrashed {
        broker: BrokerId,
    } = 6,
    BrokerRestarted {
        broker: BrokerId,
    } = 7,
    /// Cut off the network (from the other brokers, the controller and every client).
    BrokerIsolated {
        broker: BrokerId,
    } = 8,
    BrokerHealed {
        broker: BrokerId,
    } = 9,
    /// Its replica fetches now take `slow_ms` longer.
    BrokerSlowed {
        broker: BrokerId,
        slow_ms: u64,
    } = 10,
    /// The controller stopped hearing from the broker for `broker.session.timeout.ms`.
    BrokerFenced {
        broker: BrokerId,
    } = 11,
    /// The broker registered (again) with the controller.
    BrokerUnfenced {
        broker: BrokerId,
    } = 12,
    /// A topic grew: `partitions` is the new count.
    PartitionsAdded {
        topic: String,
        partitions: u32,
    } = 20,
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
            | E::BrokerUnfenced { broker } => vec![S::Broker(*broker)],
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
            | E::BrokerUnfenced { .. } => Category::Fault,
            E::PartitionsAdded { .. } => Category::Replication,
        }
    }

    /// This feature's part of [`EventKind::jump`](super::EventKind::jump).
    pub fn jump(&self) -> Option<Jump> {
        use ClusterEvent as E;
        match self {
            E::BrokerCrashed { .. } | E::BrokerIsolated { .. } => Some(Jump::Fault),
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
            | E::PartitionsAdded { .. } => Vec::new(),
        }
    }
}
