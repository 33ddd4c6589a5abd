//! Fuzzing with proptest, one module per input: scenario text, the CLI's inputs, and
//! command sequences on a running simulation. A short pass runs with `cargo test`; at
//! volume: `FUZZ_CASES=1000000 cargo test --profile fuzz --test fuzz -- --nocapture`
//! (see README). A failure prints the `FUZZ_SEED` that draws it again.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod cli;
mod commands;
mod scenario;
mod support;
