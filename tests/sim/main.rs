//! Integration tests of the simulation core, one module per theme.
// Spec literals end in `..Spec::default()` even when they name every field today, so a
// field added to the format later changes no test that does not use it.
#![allow(clippy::needless_update)]
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod compaction;
mod connect;
mod consumer_protocol;
mod controller;
mod determinism;
mod events;
mod group_rules;
mod groups;
mod lessons;
mod offsets_topic;
mod producer;
mod properties;
mod push;
mod replication;
mod retention;
mod scenarios;
mod seed;
mod share_groups;
mod streams;
mod support;
mod swarm;
mod transactions;
