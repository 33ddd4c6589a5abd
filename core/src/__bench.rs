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
