//! The replication feature's commands: faults of a broker, and the topic changes an
//! administrator makes (`kafka-topics --alter`, `kafka-configs --alter`).

use crate::record::BrokerId;
use serde::Serialize;

/// A fault of one broker, or its end. Executed by `sim/cluster/replication.rs`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum BrokerCommand {
    /// The broker process dies: it stops answering at once; the controller notices after
    /// `broker.session.timeout.ms`. Its logs stay on disk.
    CrashBroker {
        /// The broker's `node.id` (0 to `brokers − 1`).
        broker: BrokerId,
    },
    /// The broker starts again and registers with the controller; its replicas catch up.
    RestartBroker {
        /// The crashed broker's `node.id`; nothing happens if it is running.
        broker: BrokerId,
    },
    /// Cut the broker off the network: from the other brokers, the controller and clients.
    IsolateBroker {
        /// The broker's `node.id`; messages to and from it are lost until `HealBroker`.
        broker: BrokerId,
    },
    /// Reconnect an isolated broker.
    HealBroker {
        /// The cut-off broker's `node.id`; it registers with the controller again.
        broker: BrokerId,
    },
    /// Slow the broker's replica fetches by `slow_ms` (0 restores them).
    SlowBroker {
        /// The broker whose fetches, as a follower, are slowed.
        broker: BrokerId,
        /// Milliseconds added to each follower fetch on its way to the leader (sandbox
        /// only); 0 restores them. At most [`crate::limits::MAX_SLOW_MS`] (one hour); the
        /// simulation caps a larger value at it.
        slow_ms: u64,
    },
    /// A controlled shutdown (`kafka-server-stop`, SIGTERM): the broker asks the
    /// controller to move its leaderships and leaves every ISR at once (leader epoch + 1),
    /// then stops. Producers get NOT_LEADER_OR_FOLLOWER and resend to the new leaders; no
    /// `broker.session.timeout.ms` outage. `RestartBroker` starts it again.
    ShutdownBroker {
        /// The running broker's `node.id`; nothing happens if it is down, cut off or fenced.
        broker: BrokerId,
    },
}

/// An administrator's change to a topic. Executed by `sim/cluster/replication.rs`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum TopicCommand {
    /// `kafka-topics --alter --partitions`: the topic grows to `partitions` (never
    /// shrinks). Keys may now hash elsewhere; groups rebalance once their leader's
    /// metadata refresh (`metadata.max.age.ms`) notices.
    AddPartitions {
        /// The topic's name.
        topic: String,
        /// The new partition count: above today's, at most [`crate::limits::MAX_PARTITIONS`].
        partitions: u32,
    },
    /// Topic settings change (`kafka-configs --alter`): `min.insync.replicas`,
    /// `unclean.leader.election.enable`.
    SetTopicConfig {
        /// The topic's name.
        topic: String,
        /// `min.insync.replicas`, 1 to the topic's replication factor: the ISR size an
        /// `acks=all` write needs, and below which the high watermark stops. `None` keeps it.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        min_insync_replicas: Option<u32>,
        /// `unclean.leader.election.enable`: whether an out-of-sync replica may lead when no
        /// ISR member can (what it lacks is lost); turned on, it elects at once for every
        /// offline partition. `None` keeps it.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        unclean_leader_election_enable: Option<bool>,
    },
}

impl TopicCommand {
    /// `kafka-configs --alter --add-config min.insync.replicas=N` on `topic`.
    pub fn min_insync_replicas(topic: impl Into<String>, min_insync_replicas: u32) -> Self {
        TopicCommand::SetTopicConfig {
            topic: topic.into(),
            min_insync_replicas: Some(min_insync_replicas),
            unclean_leader_election_enable: None,
        }
    }

    /// `kafka-configs --alter --add-config unclean.leader.election.enable=…` on `topic`.
    pub fn unclean_leader_election(topic: impl Into<String>, enabled: bool) -> Self {
        TopicCommand::SetTopicConfig { topic: topic.into(), min_insync_replicas: None, unclean_leader_election_enable: Some(enabled) }
    }
}
