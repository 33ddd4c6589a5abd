//! A deterministic discrete-event simulation of Apache Kafka, for teaching.
//!
//! The simulation ([`sim::Sim`]) is a plain struct: [`sim::Sim::apply`] is the only way
//! the outside changes it, [`sim::Sim::step`] applies the next event, and
//! [`sim::Sim::snapshot`] gives read-only views. No clock, no ambient randomness,
//! no web dependency: the same scenario, seed and commands give the same trace
//! everywhere. See ARCHITECTURE.md for the code map and the invariants.

#[doc(hidden)]
pub mod __bench;
pub mod assign;
mod builder;
pub mod cluster;
pub mod command;
pub mod compare;
pub mod config;
pub mod error;
pub mod event;
pub mod group;
pub mod history;
pub mod invariant;
pub mod json;
pub mod lesson;
pub mod limits;
pub mod log;
pub mod monitor;
pub mod partitioner;
pub mod producer;
pub mod provenance;
pub mod read;
pub mod record;
pub mod rng;
mod run;
pub mod scenario;
pub mod share;
pub mod sim;
pub mod snapshot;
pub mod sorted;
pub(crate) mod tagged;
pub mod time;
pub mod vecmap;

pub use builder::{GroupId, MemberRef, ProducerName, ScenarioBuilder, TopicName};
pub use command::{
    BrokerCommand, Command, CommandError, ConnectCommand, GroupCommand, GroupSpec, MemberSpec, ProduceCommand, TopicCommand,
};
pub use config::{Acks, ClusterConfig, CommitMode, ConsumerConfig, GroupConfig, GroupProtocol, OffsetReset, ProducerConfig, Strategy};
pub use event::{
    ClusterEvent, ConnectEvent, ConsumeEvent, ConsumerProtocolEvent, Event, EventKind, GroupEvent, ProduceEvent, PushEvent,
    ReplicationEvent, SettingsEvent, StreamsEvent,
};
pub use record::{BrokerId, TopicPartition};
pub use run::{for_seeds, Property, RunError};
pub use scenario::{ProducerSpec, Scenario, ScenarioError, SendPlan, TopicSpec};
pub use sim::{Dropped, Sim, SimOptions, StepOutcome};
pub use snapshot::Snapshot;
pub use time::SimTime;
