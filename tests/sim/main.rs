//! Integration tests of the simulation core, one module per theme.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod determinism;
mod properties;
mod scenarios;
mod seed;
mod support;
mod replication;
mod retention;
mod swarm;
mod groups;
mod consumer_protocol;
mod producer;
mod push;
mod connect;
mod streams;
mod lessons;
