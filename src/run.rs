//! `kafka-sandbox run`: runs a scenario through the simulation (stub until the lead's version lands).

/// Runs the `run` subcommand with the arguments that follow `run`; returns the exit code.
pub fn run_command(args: &[String]) -> i32 {
    let _ = args;
    eprintln!("kafka-sandbox run: not yet implemented");
    2
}
