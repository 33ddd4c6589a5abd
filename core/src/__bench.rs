//! Not part of the API: clones of the model's parts for the memory benchmark
//! (`benches/memory.rs` measures what each part allocates). Unstable; do not use.
use crate::Sim;
use std::any::Any;

/// A clone of every topic (partitions, replica logs).
pub fn clone_topics(sim: &Sim) -> Box<dyn Any> {
    Box::new(sim.cluster.topics.clone())
}

/// A clone of every consumer group (coordinator and members).
pub fn clone_groups(sim: &Sim) -> Box<dyn Any> {
    Box::new(sim.consumers.groups.clone())
}

/// A clone of every producer.
pub fn clone_producers(sim: &Sim) -> Box<dyn Any> {
    Box::new(sim.clients.producers.clone())
}

/// A clone of `__consumer_offsets`' logs, and how many records they hold.
pub fn clone_offsets_topic(sim: &Sim) -> (Box<dyn Any>, usize) {
    let records = sim.consumers.offsets.partitions.values().map(|p| p.log.records().len()).sum();
    (Box::new(sim.consumers.offsets.clone()), records)
}

/// A clone of the event queue (what is still to happen).
pub fn clone_queue(sim: &Sim) -> Box<dyn Any> {
    Box::new(sim.out.queue.clone())
}

/// A clone of the cluster (brokers, topics, controller state).
pub fn clone_cluster(sim: &Sim) -> Box<dyn Any> {
    Box::new(sim.cluster.clone())
}

/// A clone of the consumers' side (groups, share groups, `__consumer_offsets`, fetches).
pub fn clone_consumers(sim: &Sim) -> Box<dyn Any> {
    Box::new(sim.consumers.clone())
}
