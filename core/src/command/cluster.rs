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
    CrashBroker { broker: BrokerId },
    /// The broker starts again and registers with the controller; its replicas catch up.
    RestartBroker { broker: BrokerId },
    /// Cut the broker off the network: from the other brokers, the controller and clients.
    IsolateBroker { broker: BrokerId },
    /// Reconnect an isolated broker.
    HealBroker { broker: BrokerId },
    /// Slow the broker's replica fetches by `slow_ms` (0 restores them).
    SlowBroker { broker: BrokerId, slow_ms: u64 },
}

/// An administrator's change to a topic. Executed by `sim/cluster/replication.rs`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum TopicCommand {
    /// `kafka-topics --alter --partitions`: the topic grows to `partitions` (never
    /// shrinks). Keys may now hash elsewhere; groups rebalance once their leader's
    /// metadata refresh (`metadata.max.age.ms`) notices.
    AddPartitions { topic: String, partitions: u32 },
    /// Topic settings change (`kafka-configs --alter`): `min.insync.replicas`,
    /// `unclean.leader.election.enable`.
    SetTopicConfig {
        topic: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        min_insync_replicas: Option<u32>,
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
