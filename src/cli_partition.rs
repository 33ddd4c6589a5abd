//! `kafka-sandbox partition`: the partition Kafka's default partitioner gives each key.

use std::io::Write;

use kafka_sandbox_core::partitioner::partition_for_key;

const USAGE: &str = "usage: kafka-sandbox partition --partitions N [--] KEY...";

/// Runs `partition` with the arguments that follow it; returns the exit code.
///
/// Options may come before or between keys until `--`, after which every argument is a
/// key. `N` is a Java int partition count: 1 to 2147483647.
pub fn partition_command(args: &[String], out: &mut dyn Write, err: &mut dyn Write) -> i32 {
    match parse(args) {
        Ok(Parsed::Help) => {
            if writeln!(out, "{USAGE}").is_err() {
                return 1;
            }
            0
        }
        Ok(Parsed::Run { partitions, keys }) => {
            let mut text = String::new();
            for key in keys {
                text.push_str(&partition_for_key(key.as_bytes(), partitions).to_string());
                text.push('\n');
            }
            if out.write_all(text.as_bytes()).and_then(|()| out.flush()).is_err() {
                return 1;
            }
            0
        }
        Err(message) => {
            let _ = writeln!(err, "kafka-sandbox partition: {message}\n{USAGE}");
            2
        }
    }
}

enum Parsed<'a> {
    Help,
    Run { partitions: u32, keys: Vec<&'a str> },
}

fn parse(args: &[String]) -> Result<Parsed<'_>, String> {
    let mut partitions: Option<u32> = None;
    let mut keys = Vec::new();
    let mut i = 0;
    while i < args.len() {
        let arg = args[i].as_str();
        i += 1;
        if arg == "--" {
            keys.extend(args[i..].iter().map(String::as_str));
            break;
        }
        if arg == "-h" || arg == "--help" {
            return Ok(Parsed::Help);
        }
        let value = if arg == "--partitions" || arg == "-p" {
            let Some(value) = args.get(i) else {
                return Err(format!("{arg} needs a value"));
            };
            i += 1;
            Some(value.as_str())
        } else {
            arg.strip_prefix("--partitions=")
        };
        if let Some(value) = value {
            if partitions.is_some() {
                return Err("--partitions given more than once".to_string());
            }
            partitions = Some(parse_count(value)?);
            continue;
        }
        if arg.len() > 1 && arg.starts_with('-') {
            return Err(format!("unknown option {arg:?} (put -- before keys that begin with '-')"));
        }
        keys.push(arg);
    }
    let Some(partitions) = partitions else {
        return Err("missing --partitions N".to_string());
    };
    if keys.is_empty() {
        return Err("no keys given".to_string());
    }
    Ok(Parsed::Run { partitions, keys })
}

fn parse_count(value: &str) -> Result<u32, String> {
    match value.parse::<u32>() {
        Ok(n) if n >= 1 && n <= i32::MAX as u32 => Ok(n),
        _ => Err(format!("invalid partition count {value:?}: expected a whole number from 1 to 2147483647")),
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)] // Tests may unwrap: a panic is a failed test.
mod tests {
    use super::*;

    fn run(args: &[&str]) -> (i32, String, String) {
        let args: Vec<String> = args.iter().map(|s| s.to_string()).collect();
        let (mut out, mut err) = (Vec::new(), Vec::new());
        let code = partition_command(&args, &mut out, &mut err);
        (code, String::from_utf8(out).unwrap(), String::from_utf8(err).unwrap())
    }

    #[test]
    fn keys_and_option_forms() {
        assert_eq!(run(&["--partitions", "4", "key1", "key2", "key3", ""]).1, "0\n3\n1\n1\n");
        assert_eq!(run(&["key1", "--partitions=3"]).1, "2\n");
        assert_eq!(run(&["-p", "6", "--", "-x", "--partitions"]).0, 0);
        assert_eq!(run(&["-p", "1000", "-"]).0, 0);
    }

    #[test]
    fn errors_exit_2_with_nothing_on_stdout() {
        for args in [
            &["key1"][..],
            &["--partitions"],
            &["--partitions", "0", "k"],
            &["--partitions", "-3", "k"],
            &["--partitions", "2147483648", "k"],
            &["--partitions", "x", "k"],
            &["--partitions", "4"],
            &["--partitions", "4", "-x"],
            &["--partitions", "4", "--partitions", "5", "k"],
        ] {
            let (code, out, err) = run(args);
            assert_eq!(code, 2, "{args:?}");
            assert!(out.is_empty(), "{args:?}");
            assert!(err.starts_with("kafka-sandbox partition: "), "{args:?}: {err}");
        }
    }
}
