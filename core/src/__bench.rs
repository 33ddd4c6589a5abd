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
