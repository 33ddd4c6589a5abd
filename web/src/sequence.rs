//! The sequence diagram's messages, read from the trace: for a window of simulated time,
//! the requests and answers between producers, brokers (leaders, followers, group
//! coordinators) and consumers — Produce and its acknowledgement, follower Fetch, consumer
//! Fetch, JoinGroup, SyncGroup and their answers, ConsumerGroupHeartbeat, OffsetCommit.
//! Each trace event marks one end of a message; the other end is placed one network
//! latency away (the sandbox's `network_latency_ms`).

use kafka_sandbox_core::event::{ConsumeEvent, ConsumerProtocolEvent, GroupEvent, ProduceEvent, ReplicationEvent};
use kafka_sandbox_core::{EventKind, Sim};

/// A participant: a lane of the diagram.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Lane {
    Producer(String),
    Broker(u32),
    Consumer(String, String),
}

impl Lane {
    pub fn label(&self) -> String {
        match self {
            Lane::Producer(p) => p.clone(),
            Lane::Broker(b) => format!("B{b}"),
            Lane::Consumer(g, c) => format!("{g}/{c}"),
        }
    }
}

/// One arrow.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Message {
    pub from: Lane,
    pub to: Lane,
    pub sent_ms: u64,
    pub arrived_ms: u64,
    pub label: String,
}

/// The messages of `[from_ms, to_ms]`, at most `max` (the newest kept).
pub fn messages(sim: &Sim, from_ms: u64, to_ms: u64, max: usize) -> Vec<Message> {
    let lat = sim.cluster().network_latency_ms;
    let read = sim.read();
    let leader_of = |topic: &str, p: u32| read.topic(topic).and_then(|t| t.partition(p)).and_then(|x| x.leader());
    let mut out = Vec::new();
    for e in read.events() {
        let t = e.time.ms();
        if t + lat < from_ms || t > to_ms {
            continue;
        }
        let mut push = |from: Lane, to: Lane, sent: u64, arrived: u64, label: String| {
            out.push(Message { from, to, sent_ms: sent, arrived_ms: arrived, label });
        };
        match &e.kind {
            EventKind::Produce(ProduceEvent::BatchSent { producer, topic, partition, records }) => {
                if let Some(l) = leader_of(topic, *partition) {
                    push(
                        Lane::Producer(producer.to_string()),
                        Lane::Broker(l),
                        t,
                        t + lat,
                        format!("Produce P{partition} ×{}", records.len()),
                    );
                }
            }
            EventKind::Produce(ProduceEvent::RecordAcked { producer, topic, partition, offset, .. }) => {
                if let Some(l) = leader_of(topic, *partition) {
                    push(
                        Lane::Broker(l),
                        Lane::Producer(producer.to_string()),
                        t.saturating_sub(lat),
                        t,
                        format!("ack P{partition}@{offset}"),
                    );
                }
            }
            EventKind::Replication(ReplicationEvent::ReplicaFetched { topic, partition, follower, records, .. }) => {
                if let Some(l) = leader_of(topic, *partition) {
                    push(
                        Lane::Broker(l),
                        Lane::Broker(*follower),
                        t.saturating_sub(lat),
                        t,
                        format!("Fetch P{partition} ×{}", records.len()),
                    );
                }
            }
            EventKind::Consume(ConsumeEvent::RecordDelivered { group, client_id, tp, offset, .. }) => {
                if let Some(l) = leader_of(&tp.topic, tp.partition) {
                    push(
                        Lane::Broker(l),
                        Lane::Consumer(group.to_string(), client_id.to_string()),
                        t.saturating_sub(lat),
                        t,
                        format!("Fetch P{}@{offset}", tp.partition),
                    );
                }
            }
            EventKind::Group(GroupEvent::JoinGroupSent { group, client_id, .. }) => {
                if let Some(c) = sim.coordinator_of(group) {
                    push(Lane::Consumer(group.clone(), client_id.clone()), Lane::Broker(c), t, t + lat, "JoinGroup".into());
                }
            }
            EventKind::Group(GroupEvent::MemberIdRequired { group, client_id, .. }) => {
                if let Some(c) = sim.coordinator_of(group) {
                    push(
                        Lane::Broker(c),
                        Lane::Consumer(group.clone(), client_id.clone()),
                        t.saturating_sub(lat),
                        t,
                        "MEMBER_ID_REQUIRED".into(),
                    );
                }
            }
            EventKind::Group(GroupEvent::SyncGroupSent { group, client_id, .. }) => {
                if let Some(c) = sim.coordinator_of(group) {
                    push(Lane::Consumer(group.clone(), client_id.clone()), Lane::Broker(c), t, t + lat, "SyncGroup".into());
                }
            }
            EventKind::Group(GroupEvent::PartitionsAssigned { group, client_id, partitions, .. }) => {
                if let Some(c) = sim.coordinator_of(group) {
                    push(
                        Lane::Broker(c),
                        Lane::Consumer(group.clone(), client_id.clone()),
                        t.saturating_sub(lat),
                        t,
                        format!("assignment ×{}", partitions.len()),
                    );
                }
            }
            EventKind::ConsumerProtocol(ConsumerProtocolEvent::ConsumerHeartbeatSent { group, client_id, member_epoch, .. }) => {
                if let Some(c) = sim.coordinator_of(group) {
                    push(
                        Lane::Consumer(group.clone(), client_id.clone()),
                        Lane::Broker(c),
                        t,
                        t + lat,
                        format!("ConsumerGroupHeartbeat e{member_epoch}"),
                    );
                }
            }
            EventKind::ConsumerProtocol(ConsumerProtocolEvent::AssignmentReconciled { group, client_id, epoch, .. }) => {
                if let Some(c) = sim.coordinator_of(group) {
                    push(
                        Lane::Broker(c),
                        Lane::Consumer(group.clone(), client_id.clone()),
                        t.saturating_sub(lat),
                        t,
                        format!("assignment e{epoch}"),
                    );
                }
            }
            EventKind::Consume(ConsumeEvent::OffsetsCommitted { group, client_id, .. }) => {
                if let Some(c) = sim.coordinator_of(group) {
                    push(
                        Lane::Consumer(group.to_string(), client_id.to_string()),
                        Lane::Broker(c),
                        t.saturating_sub(lat),
                        t,
                        "OffsetCommit".into(),
                    );
                }
            }
            _ => {}
        }
    }
    out.retain(|m| m.arrived_ms >= from_ms && m.sent_ms <= to_ms);
    let skip = out.len().saturating_sub(max);
    out.drain(..skip);
    out
}

/// The lanes the messages use, producers first, then brokers, then consumers.
pub fn lanes(msgs: &[Message]) -> Vec<Lane> {
    let mut l: Vec<Lane> = msgs.iter().flat_map(|m| [m.from.clone(), m.to.clone()]).collect();
    kafka_sandbox_core::sorted::sort(&mut l);
    l.dedup();
    l
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_seed_examples_first_seconds_have_joins_produces_fetches() {
        let scenario = kafka_sandbox_core::scenario::default_scenario();
        let mut sim = scenario.build().expect("builds");
        sim.run_to(kafka_sandbox_core::SimTime(8_000));
        let all = messages(&sim, 0, 8_000, 10_000);
        let has = |p: &str| all.iter().any(|m| m.label.starts_with(p));
        assert!(has("JoinGroup") && has("MEMBER_ID_REQUIRED") && has("SyncGroup") && has("assignment"));
        assert!(has("Produce") && has("ack") && has("Fetch"));
        assert!(all.iter().all(|m| m.sent_ms <= m.arrived_ms));
        let l = lanes(&all);
        assert!(matches!(l.first(), Some(Lane::Producer(_))));
        assert!(matches!(l.last(), Some(Lane::Consumer(..))));
        // A window keeps only what overlaps it, at most `max`.
        let some = messages(&sim, 7_000, 7_500, 5);
        assert!(some.len() <= 5 && some.iter().all(|m| m.arrived_ms >= 7_000 && m.sent_ms <= 7_500));
    }
}
