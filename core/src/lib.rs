//! A deterministic discrete-event simulation of Apache Kafka (4.x behaviour and defaults):
//! brokers with replicated partitions, the ISR, the high watermark and leader elections;
//! producers with Kafka's partitioners, batching, `acks`, retries and idempotence; consumer
//! groups under the classic protocol (Range, RoundRobin, Sticky, CooperativeSticky) and the
//! KIP-848 consumer protocol; offset commits, retention, Connect and Streams. No I/O, no
//! clock, no threads, no ambient randomness: the same scenario, seed and commands give the
//! same run on every machine, natively and in the browser.
//!
//! # Quick start
//!
//! Build a cluster with [`Scenario::builder`], inject a fault, run simulated time, and ask
//! what happened:
//!
//! ```
//! use kafka_sandbox_core::{Acks, Command, ProducerSpec, Scenario, SendPlan, SimOptions, SimTime, TopicSpec};
//!
//! let mut b = Scenario::builder();
//! b.seed(7).brokers(3).options(SimOptions::unbounded());
//! let orders = b.topic(TopicSpec::new("orders").partitions(3).replication_factor(3).min_insync_replicas(2));
//! let values = (0..100).map(|i| format!("order-{i}"));
//! b.producer(ProducerSpec::new("app").acks(Acks::All).send(SendPlan::values(&orders, values).every_ms(20)));
//! b.at(1_000, Command::crash_broker(0));
//! let mut sim = b.build()?;
//!
//! sim.run_to(SimTime(30_000));
//!
//! // acks=all with min.insync.replicas=2: no acknowledged record lost, all committed.
//! sim.assert_no_broken_promises();
//! let committed: u64 = (0..3).filter_map(|p| sim.partition(&orders.partition(p))).map(|p| p.high_watermark()).sum();
//! assert_eq!(committed, 100);
//! assert!(sim.dropped().is_none(), "nothing was dropped: the answer covers the whole run");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # Where to look
//!
//! - **Build:** [`Scenario::builder`] (typed, checked; returns handles such as
//!   [`TopicName`] and [`GroupId`]) or [`Scenario::from_json`] (the format of
//!   `docs/scenario-format.md`); both give a [`Scenario`], and [`Scenario::build`] checks
//!   it and gives a [`Sim`].
//! - **Change:** [`Sim::apply`] with a [`Command`] (`Command::crash_broker(1)`,
//!   `Command::produce(..)`, `Command::add_member(..)`, …) is the only way the outside
//!   changes a run; a refused command changes nothing and says why ([`CommandError`]).
//! - **Run:** [`Sim::step`] (one event), [`Sim::run_to`], [`Sim::run_for`],
//!   [`Sim::run_until`] and [`Sim::run_until_event`] (with a deadline: consumers
//!   heartbeat forever, so the queue never empties), [`Sim::run_checking`] with
//!   [`Property::always`] and [`Property::eventually`], and [`for_seeds`] to sweep seeds.
//! - **Read:** [`Sim::partition`], [`Sim::group`], [`Sim::member`], [`Sim::producer`]
//!   (and [`Sim::read`] for the rest) give borrowed views ([`read`]); [`Sim::snapshot`]
//!   gives an owned, serialisable copy of everything (for a UI, or to compare two moments).
//!   [`Sim::trace`] holds the events; [`Sim::monitors`] the guarantee monitors' findings,
//!   and [`Sim::check_promises`] / [`Sim::assert_no_broken_promises`] judge them.
//! - **Bounds:** a run keeps the newest events, deliveries and sends within
//!   [`SimOptions`] (the page's defaults keep memory flat at any run length);
//!   [`SimOptions::unbounded`] keeps everything, and [`Sim::dropped`] says what was
//!   dropped, so no answer silently comes from part of the run.
//! - **Assignors and partitioner alone:** [`assign`] (Kafka's exact assignments) and
//!   [`partitioner::partition_for_key`] (murmur2, as Kafka's `BuiltInPartitioner`).
//! - **Protocols side by side:** [`compare::compare_protocols`] runs one change under
//!   eager, cooperative and KIP-848 rebalancing.
//!
//! The examples in `core/examples/` answer five questions an engineer asks (acks=all
//! survives a crash; acks=1 loses an acknowledged record; a slow consumer and
//! `max.poll.interval.ms`; how long each consumer stops per rebalance protocol; per-key
//! order across a rebalance). Where the sandbox differs from Kafka, `docs/fidelity.md`
//! says so. ARCHITECTURE.md has the code map and the invariants.

#![warn(missing_docs)]

#[doc(hidden)]
pub mod __bench;
pub mod assign;
mod base64url;
pub mod bridge;
mod builder;
#[doc(hidden)]
pub mod chunked;
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
mod monitor_txn;
mod name;
pub mod offsets_view;
pub mod partitioner;
pub mod producer;
pub mod provenance;
pub mod read;
pub mod record;
#[doc(hidden)]
pub mod rng;
mod run;
pub mod scenario;
pub mod share;
pub mod share_group;
pub mod share_view;
pub mod sim;
pub mod snapshot;
#[doc(hidden)]
pub mod sorted;
pub(crate) mod tagged;
pub mod time;
pub mod txn;
pub mod uuid;
#[doc(hidden)]
pub mod vecmap;

pub use builder::{GroupId, MemberRef, ProducerName, ScenarioBuilder, TopicName};
pub use command::{
    BrokerCommand, Command, CommandError, ConnectCommand, GroupCommand, GroupSpec, MemberSpec, ProduceCommand, ShareGroupCommand,
    ShareGroupSpec, ShareMemberSpec, TopicCommand, TxnCommand,
};
pub use config::{
    Acks, ClusterConfig, CommitMode, ConsumerConfig, GroupConfig, GroupProtocol, IsolationLevel, KafkaVersion, OffsetReset,
    ProcessingGuarantee, ProducerConfig, Strategy,
};
pub use event::{
    ClusterEvent, ConnectEvent, ConsumeEvent, ConsumerProtocolEvent, Event, EventKind, GroupEvent, LeaveReason, LossCause, ProduceEvent,
    PushEvent, ReplicationEvent, SettingsEvent, StreamsEvent,
};
pub use monitor::{Finding, FindingKind};
pub use name::Name;
pub use record::{BrokerId, TopicPartition};
pub use run::{for_seeds, Property, RunError};
pub use scenario::{ProducerSpec, Scenario, ScenarioError, SendPlan, TopicSpec};
pub use sim::{Dropped, Sim, SimOptions, StepOutcome};
pub use snapshot::Snapshot;
pub use time::SimTime;
