//! The command-line tool's subcommands as a library, so tests (tests/fuzz) call the same
//! code the binary runs without spawning a process. `src/main.rs` only dispatches.

pub mod cli_assign;
pub mod cli_bridge;
pub mod cli_lesson;
pub mod cli_partition;
pub mod run;
