//! Integration tests of the simulation core, one module per theme.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod connect;
mod consumer_protocol;
mod determinism;
mod events;
mod groups;
mod lessons;
mod producer;
mod properties;
mod push;
mod replication;
mod retention;
mod scenarios;
mod seed;
mod streams;
mod support;
mod swarm;
