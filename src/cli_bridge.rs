//! `kafka-sandbox bridge SCENARIO [--compose FILE]`: what to run against Apache Kafka 4.x
//! to try the scenario on a real cluster (`kafka_sandbox_core::bridge`): the compose file,
//! then each step's command lines with what the sandbox predicts beside them.

use std::io::Write;

pub const USAGE: &str = "\
kafka-sandbox bridge SCENARIO [--compose FILE]
    SCENARIO is a scenario file (JSON) or builtin:NAME, as for `run`.
    Prints a compose.yaml for the scenario's brokers (KRaft, the official apache/kafka
    image) and the Kafka tools' command lines to try the same experiment, each step with
    what the sandbox predicts and where a real cluster may differ.
    --compose FILE    also write the compose file to FILE";

/// Runs the subcommand; returns the exit code.
pub fn bridge_command(args: &[String], out: &mut dyn Write, err: &mut dyn Write) -> i32 {
    let mut scenario = None;
    let mut compose = None;
    let mut i = 0;
    while i < args.len() {
        match args[i].as_str() {
            "-h" | "--help" => {
                let _ = writeln!(out, "{USAGE}");
                return 0;
            }
            "--compose" => {
                let Some(path) = args.get(i + 1) else {
                    let _ = writeln!(err, "kafka-sandbox bridge: --compose needs a file\n\n{USAGE}");
                    return 2;
                };
                compose = Some(path.clone());
                i += 2;
            }
            s if s.starts_with('-') => {
                let _ = writeln!(err, "kafka-sandbox bridge: unknown option {s:?}\n\n{USAGE}");
                return 2;
            }
            s => {
                if scenario.replace(s.to_string()).is_some() {
                    let _ = writeln!(err, "kafka-sandbox bridge: give one scenario (a second one, {s:?}, was given)");
                    return 2;
                }
                i += 1;
            }
        }
    }
    let Some(spec) = scenario else {
        let _ = writeln!(err, "kafka-sandbox bridge: which scenario? give a file or builtin:NAME\n\n{USAGE}");
        return 2;
    };
    let scenario = match crate::run::load(&spec) {
        Ok(s) => s,
        Err(e) => {
            let _ = writeln!(err, "kafka-sandbox bridge: {e}");
            return 2;
        }
    };
    let bridge = match kafka_sandbox_core::bridge::bridge(&scenario) {
        Ok(b) => b,
        Err(e) => {
            let _ = writeln!(err, "kafka-sandbox bridge: {e}");
            return 2;
        }
    };
    if let Some(path) = compose {
        if let Err(e) = std::fs::write(&path, &bridge.compose) {
            let _ = writeln!(err, "kafka-sandbox bridge: cannot write {path}: {e}");
            return 2;
        }
    }
    if out.write_all(bridge.text().as_bytes()).and_then(|()| out.flush()).is_err() {
        return 1;
    }
    0
}
