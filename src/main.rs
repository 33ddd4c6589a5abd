//! `kafka-sandbox`: the command-line face of the Kafka simulator (assign, partition, run,
//! bridge, lesson).
//!
//! Argument parsing is written by hand (no clap) to keep the build lean. Every
//! subcommand writes its result to stdout only when it succeeds; errors go to stderr
//! with exit code 2.

use std::io::{self, Write};
use std::process::ExitCode;

use kafka_sandbox::{cli_assign, cli_bridge, cli_lesson, cli_partition, run};

const USAGE: &str = "\
kafka-sandbox: a deterministic simulation of Apache Kafka

USAGE:
    kafka-sandbox assign < group.json
        Runs a consumer group assignor, as the group leader would. Reads JSON on stdin:
          {\"strategy\": \"range\" | \"roundrobin\" | \"sticky\" | \"cooperative-sticky\",
           \"topics\": {\"t0\": 3},
           \"members\": [{\"member_id\": \"c1\", \"group_instance_id\": null,
                        \"subscription\": [\"t0\"], \"owned\": [[\"t0\", 0]], \"generation\": 3}]}
        (group_instance_id, owned and generation are optional) and prints
          {\"c1\":{\"t0\":[0,1,2]}}
        A subscribed topic missing from \"topics\" is skipped with a warning on stderr.

    kafka-sandbox partition --partitions N [--] KEY...
        Prints the partition of each key (its UTF-8 bytes) under Kafka's default
        partitioner: toPositive(murmur2(key)) % N, one line per key. Use -- before
        keys that begin with '-'; \"\" is a key of zero bytes.

    kafka-sandbox run ...
        Runs a scenario through the simulation.

    kafka-sandbox bridge SCENARIO [--compose FILE]
        Prints what to run against Apache Kafka 4.x to try the scenario on a real
        cluster: a compose.yaml (KRaft, apache/kafka) and the Kafka tools' command
        lines, each step with what the sandbox predicts.

    kafka-sandbox lesson check [FILE...] | show LESSON [--lang en|zh] | list
        Checks lessons against the simulation, or prints one with the simulation's
        answers (see docs/lesson-format.md).

    kafka-sandbox --help
        Prints this text.

Errors go to stderr with exit code 2, and nothing is printed on stdout.
";

fn main() -> ExitCode {
    let mut args = Vec::new();
    for (i, arg) in std::env::args_os().enumerate().skip(1) {
        match arg.into_string() {
            Ok(arg) => args.push(arg),
            Err(raw) => {
                eprintln!("kafka-sandbox: argument {i} is not valid UTF-8: {raw:?}");
                return ExitCode::from(2);
            }
        }
    }
    let code = dispatch(&args);
    ExitCode::from(u8::try_from(code).unwrap_or(1))
}

/// Chooses the subcommand; returns the exit code.
fn dispatch(args: &[String]) -> i32 {
    let Some(command) = args.first() else {
        eprint!("{USAGE}");
        return 2;
    };
    let rest = &args[1..];
    match command.as_str() {
        "-h" | "--help" | "help" => {
            let mut out = io::stdout().lock();
            if out.write_all(USAGE.as_bytes()).and_then(|()| out.flush()).is_err() {
                return 1;
            }
            0
        }
        "assign" => cli_assign::assign_command(rest, &mut io::stdin().lock(), &mut io::stdout().lock(), &mut io::stderr().lock()),
        "partition" => cli_partition::partition_command(rest, &mut io::stdout().lock(), &mut io::stderr().lock()),
        "run" => run::run_command(rest),
        "bridge" => cli_bridge::bridge_command(rest, &mut io::stdout().lock(), &mut io::stderr().lock()),
        "lesson" => cli_lesson::lesson_command(rest, &mut io::stdout().lock(), &mut io::stderr().lock()),
        other => {
            eprintln!("kafka-sandbox: unknown command {other:?}; try `kafka-sandbox --help`");
            2
        }
    }
}
