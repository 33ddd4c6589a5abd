//! Integration tests of the simulation core, one module per theme.

mod determinism;
mod properties;
mod scenarios;
mod seed;
mod support;
mod replication;
mod retention;
mod swarm;
mod groups;
