//! The bridge's files are checked for syntax: the compose file parses as YAML with the
//! services and settings it says; every command line splits into shell words and every
//! Kafka tool's arguments are among its documented options (the table below, from the
//! tools' option parsers in Apache Kafka 4.x: `TopicCommand.TopicCommandOptions`,
//! `ConsoleConsumerOptions`, `ConsoleProducer.ConsoleProducerOptions`,
//! `ProducerPerformance.argParser`, `ConsumerGroupCommandOptions`, `ConfigCommand`), with
//! a value where the option takes one and the options each tool requires.
//!
//! The bridge writes `--producer-property`, `--consumer-property` and `--property`, which
//! every 4.x accepts; Kafka 4.2 (KIP-1147) adds `--command-property`, `--command-config`,
//! `--reader-property` and `--formatter-property` and deprecates the older names, which
//! still parse there (with a warning). The table lists both.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use super::*;

/// A tool's options: (name, takes a value).
struct ToolOptions {
    tool: &'static str,
    options: &'static [(&'static str, bool)],
    /// At least one of each group must be present.
    required: &'static [&'static [&'static str]],
}

const TOOLS: &[ToolOptions] = &[
    ToolOptions {
        tool: "kafka-topics.sh",
        options: &[
            ("bootstrap-server", true),
            ("command-config", true),
            ("list", false),
            ("create", false),
            ("delete", false),
            ("alter", false),
            ("describe", false),
            ("topic", true),
            ("topic-id", true),
            ("config", true),
            ("delete-config", true),
            ("partitions", true),
            ("replication-factor", true),
            ("replica-assignment", true),
            ("under-replicated-partitions", false),
            ("unavailable-partitions", false),
            ("under-min-isr-partitions", false),
            ("at-min-isr-partitions", false),
            ("topics-with-overrides", false),
            ("if-exists", false),
            ("if-not-exists", false),
            ("exclude-internal", false),
            ("partition-size-limit-per-response", true),
            ("help", false),
            ("version", false),
        ],
        required: &[&["bootstrap-server"], &["list", "create", "delete", "alter", "describe"]],
    },
    ToolOptions {
        tool: "kafka-console-consumer.sh",
        options: &[
            ("topic", true),
            ("include", true),
            ("partition", true),
            ("offset", true),
            ("consumer-property", true),
            ("consumer.config", true),
            ("command-config", true),
            ("command-property", true),
            ("formatter-property", true),
            ("formatter", true),
            ("formatter-config", true),
            ("property", true),
            ("from-beginning", false),
            ("max-messages", true),
            ("timeout-ms", true),
            ("skip-message-on-error", false),
            ("bootstrap-server", true),
            ("key-deserializer", true),
            ("value-deserializer", true),
            ("enable-systest-events", false),
            ("isolation-level", true),
            ("group", true),
            ("help", false),
            ("version", false),
        ],
        required: &[&["bootstrap-server"], &["topic", "include"]],
    },
    ToolOptions {
        tool: "kafka-console-producer.sh",
        options: &[
            ("topic", true),
            ("bootstrap-server", true),
            ("sync", false),
            ("compression-codec", true),
            ("batch-size", true),
            ("message-send-max-retries", true),
            ("retry-backoff-ms", true),
            ("timeout", true),
            ("request-required-acks", true),
            ("request-timeout-ms", true),
            ("metadata-expiry-ms", true),
            ("max-block-ms", true),
            ("max-memory-bytes", true),
            ("max-partition-memory-bytes", true),
            ("line-reader", true),
            ("socket-buffer-size", true),
            ("property", true),
            ("reader-config", true),
            ("producer-property", true),
            ("producer.config", true),
            ("command-config", true),
            ("command-property", true),
            ("reader-property", true),
            ("help", false),
            ("version", false),
        ],
        required: &[&["bootstrap-server"], &["topic"]],
    },
    ToolOptions {
        tool: "kafka-producer-perf-test.sh",
        options: &[
            ("topic", true),
            ("num-records", true),
            ("record-size", true),
            ("payload-file", true),
            ("payload-delimiter", true),
            ("payload-monotonic", false),
            ("throughput", true),
            // `nargs("+")`: one or more key=value words.
            ("producer-props", true),
            ("producer.config", true),
            ("print-metrics", false),
            ("transactional-id", true),
            ("transaction-duration-ms", true),
            ("help", false),
        ],
        required: &[
            &["topic"],
            &["num-records"],
            &["throughput"],
            &["record-size", "payload-file"],
            &["producer-props", "producer.config"],
        ],
    },
    ToolOptions {
        tool: "kafka-consumer-groups.sh",
        options: &[
            ("bootstrap-server", true),
            ("group", true),
            ("topic", true),
            ("all-topics", false),
            ("list", false),
            ("describe", false),
            ("all-groups", false),
            ("delete", false),
            ("timeout", true),
            ("command-config", true),
            ("reset-offsets", false),
            ("delete-offsets", false),
            ("dry-run", false),
            ("execute", false),
            ("export", false),
            ("to-offset", true),
            ("from-file", true),
            ("to-datetime", true),
            ("by-duration", true),
            ("to-earliest", false),
            ("to-latest", false),
            ("to-current", false),
            ("shift-by", true),
            ("members", false),
            ("verbose", false),
            ("offsets", false),
            ("state", false),
            ("type", true),
            ("help", false),
            ("version", false),
        ],
        required: &[&["bootstrap-server"], &["list", "describe", "delete", "reset-offsets", "delete-offsets"]],
    },
    ToolOptions {
        tool: "kafka-configs.sh",
        options: &[
            ("bootstrap-server", true),
            ("bootstrap-controller", true),
            ("command-config", true),
            ("alter", false),
            ("describe", false),
            ("all", false),
            ("entity-type", true),
            ("entity-name", true),
            ("entity-default", false),
            ("add-config", true),
            ("add-config-file", true),
            ("delete-config", true),
            ("force", false),
            ("topic", true),
            ("client", true),
            ("client-defaults", false),
            ("user", true),
            ("user-defaults", false),
            ("broker", true),
            ("broker-defaults", false),
            ("broker-logger", true),
            ("ip-defaults", false),
            ("ip", true),
            ("group", true),
            ("client-metrics", true),
            ("help", false),
            ("version", false),
        ],
        required: &[&["bootstrap-server", "bootstrap-controller"], &["alter", "describe"]],
    },
];

/// POSIX shell words of `line`: single and double quotes, backslashes; `|`, `;`, `&&`,
/// `>`, `2>&1` as words of their own when unquoted. Panics on an unterminated quote.
fn words(line: &str) -> Vec<(String, bool)> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut quoted = false;
    let mut started = false;
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\'' => {
                started = true;
                quoted = true;
                loop {
                    match chars.next() {
                        Some('\'') => break,
                        Some(c) => cur.push(c),
                        None => panic!("unterminated ' in {line}"),
                    }
                }
            }
            '"' => {
                started = true;
                quoted = true;
                loop {
                    match chars.next() {
                        Some('"') => break,
                        Some('\\') => {
                            if let Some(n) = chars.next() {
                                cur.push(n);
                            }
                        }
                        Some(c) => cur.push(c),
                        None => panic!("unterminated \" in {line}"),
                    }
                }
            }
            '\\' => {
                started = true;
                if let Some(n) = chars.next() {
                    cur.push(n);
                }
            }
            ' ' | '\t' => {
                if started {
                    out.push((std::mem::take(&mut cur), quoted));
                    started = false;
                    quoted = false;
                }
            }
            '|' | ';' | '>' if !started || c != '>' || !cur.ends_with('2') => {
                if started {
                    out.push((std::mem::take(&mut cur), quoted));
                    started = false;
                    quoted = false;
                }
                out.push((c.to_string(), false));
            }
            c => {
                started = true;
                cur.push(c);
            }
        }
    }
    if started {
        out.push((cur, quoted));
    }
    out
}

/// Checks one tool invocation's arguments against its table; `args` stop at an operator.
fn check_tool(name: &str, args: &[(String, bool)], line: &str) {
    let Some(t) = TOOLS.iter().find(|t| t.tool == name) else { panic!("{name} is not a documented tool: {line}") };
    let mut seen: Vec<&str> = Vec::new();
    let mut i = 0;
    while i < args.len() {
        let (a, quoted) = &args[i];
        if !quoted && matches!(a.as_str(), "|" | ";" | ">" | "&&" | "2>&1") {
            break;
        }
        let Some(opt) = a.strip_prefix("--") else { panic!("{name}: {a:?} is not an option: {line}") };
        let Some((o, takes)) = t.options.iter().find(|(o, _)| *o == opt) else { panic!("{name} has no option --{opt}: {line}") };
        seen.push(o);
        i += 1;
        if *takes {
            let Some((v, _)) = args.get(i) else { panic!("{name} --{opt} needs a value: {line}") };
            assert!(!v.starts_with("--"), "{name} --{opt} needs a value, got {v}: {line}");
            i += 1;
            // `--producer-props` takes several key=value words.
            while opt == "producer-props" && args.get(i).is_some_and(|(v, _)| !v.starts_with("--") && v.contains('=')) {
                i += 1;
            }
        }
    }
    for group in t.required {
        assert!(group.iter().any(|g| seen.contains(g)), "{name} needs one of {group:?}: {line}");
    }
}

/// Every Kafka tool in `line` (directly, or inside an `sh -c` script) checked.
fn check_line(line: &str, services: &[String]) -> usize {
    let w = words(line);
    assert!(!w.is_empty(), "empty line");
    let mut tools = 0;
    match w[0].0.as_str() {
        "docker" => {
            let sub: Vec<&str> = w.iter().skip(1).take(2).map(|(s, _)| s.as_str()).collect();
            match sub.as_slice() {
                ["compose", "up"] => assert_eq!(w.get(3).map(|x| x.0.as_str()), Some("-d"), "{line}"),
                ["compose", "ps" | "down"] => {}
                ["compose", "kill" | "stop" | "start"] => assert!(services.contains(&w[3].0), "no service {}: {line}", w[3].0),
                ["compose", "exec"] => {
                    let mut i = 3;
                    while w[i].0.starts_with('-') {
                        assert!(matches!(w[i].0.as_str(), "-T" | "-d"), "{line}");
                        i += 1;
                    }
                    assert!(services.contains(&w[i].0), "no service {}: {line}", w[i].0);
                    let rest = &w[i + 1..];
                    match rest[0].0.as_str() {
                        "sh" => {
                            assert_eq!(rest[1].0, "-c", "{line}");
                            assert_eq!(rest.len(), 3, "one script: {line}");
                            let script = words(&rest[2].0);
                            for (j, (s, _)) in script.iter().enumerate() {
                                if let Some(tool) = s.strip_prefix(&format!("{BIN}/")) {
                                    check_tool(tool, &script[j + 1..], line);
                                    tools += 1;
                                }
                            }
                            assert!(tools > 0, "the script runs a Kafka tool: {line}");
                        }
                        "pkill" => {
                            assert!(matches!(rest[1].0.as_str(), "-TERM" | "-KILL"), "{line}");
                            assert_eq!(rest[2].0, "-f", "{line}");
                            assert_eq!(rest.len(), 4, "{line}");
                        }
                        tool_path => {
                            let Some(tool) = tool_path.strip_prefix(&format!("{BIN}/")) else { panic!("not a Kafka tool: {line}") };
                            check_tool(tool, &rest[1..], line);
                            tools += 1;
                        }
                    }
                }
                ["network", "connect" | "disconnect"] => {
                    assert_eq!(w[3].0, format!("{PROJECT}_default"), "{line}");
                    assert!(services.contains(&w[4].0), "{line}");
                }
                other => panic!("docker {other:?} is not a command the bridge uses: {line}"),
            }
        }
        other => panic!("{other} is not a command the bridge uses: {line}"),
    }
    tools
}

/// Parses the compose file as YAML and checks its services; returns their names.
fn check_compose(yaml: &str, brokers: u32, image: &str) -> Vec<String> {
    let doc: yaml_serde::Value = yaml_serde::from_str(yaml).unwrap_or_else(|e| panic!("compose.yaml does not parse: {e}\n{yaml}"));
    assert_eq!(doc["name"].as_str(), Some(PROJECT));
    let services = doc["services"].as_mapping().expect("services");
    let names: Vec<String> = services.keys().map(|k| k.as_str().expect("a name").to_string()).collect();
    assert_eq!(names.len() as u32, brokers + 2, "{names:?}");
    let voters = format!("{CONTROLLER_ID}@controller:9093");
    let controller = &doc["services"]["controller"];
    assert_eq!(controller["environment"]["KAFKA_PROCESS_ROLES"].as_str(), Some("controller"));
    assert_eq!(controller["environment"]["KAFKA_NODE_ID"].as_str(), Some(CONTROLLER_ID.to_string().as_str()));
    assert_eq!(controller["environment"]["KAFKA_LISTENERS"].as_str(), Some("CONTROLLER://:9093"));
    for b in 0..brokers {
        let s = &doc["services"][format!("kafka-{b}").as_str()];
        assert_eq!(s["image"].as_str(), Some(image));
        let env = &s["environment"];
        assert_eq!(env["KAFKA_NODE_ID"].as_str(), Some(b.to_string().as_str()));
        assert_eq!(env["KAFKA_PROCESS_ROLES"].as_str(), Some("broker"));
        assert_eq!(env["KAFKA_CONTROLLER_QUORUM_VOTERS"].as_str(), Some(voters.as_str()));
        assert_eq!(s["ports"][0].as_str(), Some(format!("{}:9092", 29092 + b).as_str()));
        assert_eq!(s["depends_on"][0].as_str(), Some("controller"));
    }
    for (name, s) in services {
        assert_eq!(s["image"].as_str(), Some(image), "{name:?}");
        for (k, v) in s["environment"].as_mapping().into_iter().flatten() {
            assert!(v.is_string(), "{name:?} {k:?} is a string for the image: {v:?}");
        }
    }
    assert_eq!(doc["services"]["tools"]["image"].as_str(), Some(image));
    names
}

/// Every scenario the repository holds, bridged: the compose file parses, every line
/// parses against the tools' documented options.
#[test]
fn every_scenario_bridges_to_files_that_parse() {
    let mut scenarios: Vec<(String, Scenario)> =
        crate::scenario::BUILT_IN.iter().map(|(n, t)| (n.to_string(), Scenario::from_json(t).unwrap())).collect();
    scenarios.push(("every-feature".into(), Scenario::from_json(include_str!("../../../tests/golden/every-feature.json")).unwrap()));
    let mut tools = 0;
    let mut caveats = std::collections::BTreeSet::new();
    for (name, s) in &scenarios {
        let b = bridge(s).unwrap_or_else(|e| panic!("{name}: {e}"));
        let services = check_compose(&b.compose, s.cluster.brokers, &b.image);
        for step in &b.steps {
            for line in &step.lines {
                tools += check_line(line, &services);
            }
            caveats.extend(step.caveats.iter().map(|c| format!("{c:?}")));
        }
        assert!(b.text().contains("kafka-consumer-groups.sh"), "{name}");
    }
    assert!(tools > 30, "{tools} tool invocations checked");
    // The every-feature scenario reaches the caveats of what the tools cannot do.
    for c in ["NoSlowFollower", "NoStuckApplication", "NewClient"] {
        assert!(caveats.contains(c), "{c} in {caveats:?}");
    }
}

/// The default scenario's bridge: the sandbox's predictions beside each step are the
/// simulation's own (placement, what each consumer gets, the describe).
#[test]
fn the_default_scenario_bridge_says_what_the_sandbox_predicts() {
    let s = crate::scenario::default_scenario();
    let b = bridge(&s).unwrap();
    assert_eq!(b.image, "apache/kafka:4.2.0");
    let create = b.steps.iter().find(|st| st.what == What::CreateTopic { topic: "Topic01".into() }).unwrap();
    assert!(
        create.lines[0].contains("--create --topic Topic01 --partitions 4 --replication-factor 3 --config min.insync.replicas=2"),
        "{}",
        create.lines[0]
    );
    assert_eq!(create.predicts[0], Predict::Placement { tp: TopicPartition::new("Topic01", 0), replicas: vec![2, 0, 1] });
    let c1 = b
        .steps
        .iter()
        .find(|st| st.what == What::StartConsumer { group: "ConsumerGroup01".into(), client_id: "Consumer1".into() })
        .unwrap();
    assert!(
        c1.lines[0].contains("--group ConsumerGroup01")
            && c1.lines[0].contains("partition.assignment.strategy=org.apache.kafka.clients.consumer.RoundRobinAssignor"),
        "{}",
        c1.lines[0]
    );
    assert_eq!(c1.predicts[0].to_string(), "Consumer1 of ConsumerGroup01 owns [Topic01-0, Topic01-2] and receives 4 records: m1 m3 m5 m7");
    let produce = b.steps.iter().find(|st| matches!(st.what, What::Produce { .. })).unwrap();
    assert_eq!(produce.at_ms, Some(7_000));
    assert!(produce.lines[0].contains("partitioner.class=org.apache.kafka.clients.producer.RoundRobinPartitioner"), "{}", produce.lines[0]);
    assert!(produce.lines[0].contains("sleep 0.500"), "{}", produce.lines[0]);
    let describe = b.steps.iter().find(|st| st.what == What::Describe { group: "ConsumerGroup02".into() }).unwrap();
    let Predict::DescribeTable(table) = &describe.predicts[0] else { panic!("a table") };
    assert!(table.contains("CURRENT-OFFSET  LOG-END-OFFSET  LAG"), "{table}");
    let text = b.text();
    assert!(text.contains("#   sandbox: Topic01-0: replicas [2,0,1], leader 2"), "{text}");
}

/// A fault on the timeline: its docker line, and where the leaders are once the
/// controller has fenced the broker.
#[test]
fn a_broker_crash_becomes_docker_compose_kill_with_the_leaders_predicted() {
    let mut s = crate::scenario::default_scenario();
    s.commands.push(crate::scenario::TimedCommand { at_ms: 8_000, command: BrokerCommand::CrashBroker { broker: 1 }.into() });
    s.commands.push(crate::scenario::TimedCommand { at_ms: 9_000, command: BrokerCommand::RestartBroker { broker: 1 }.into() });
    let b = bridge(&s).unwrap();
    let crash = b.steps.iter().find(|st| st.lines.first().is_some_and(|l| l == "docker compose kill kafka-1")).unwrap();
    assert_eq!(crash.at_ms, Some(8_000));
    let leaders: Vec<String> = crash.predicts.iter().map(ToString::to_string).collect();
    assert!(leaders.iter().any(|l| l.starts_with("Topic01-2: leader broker 2")), "{leaders:?}");
    assert!(b.steps.iter().any(|st| st.lines.first().is_some_and(|l| l == "docker compose start kafka-1")));
    let order: Vec<Option<u64>> = b.steps.iter().map(|s| s.at_ms).collect();
    assert!(order.windows(2).all(|w| w[0] <= w[1]), "in time order: {order:?}");
}

#[test]
fn shell_words_quote_what_the_shell_would_change() {
    assert_eq!(shell_word("Topic01"), "Topic01");
    assert_eq!(shell_word("a b"), "'a b'");
    assert_eq!(shell_word("it's"), r"'it'\''s'");
    assert_eq!(words(&shell_word("it's $HOME")), vec![("it's $HOME".to_string(), true)]);
}

/// Every Kafka tool invocation in `line`: the tool's name and its argument words.
fn invocations(line: &str) -> Vec<(String, Vec<String>)> {
    let mut out = Vec::new();
    let mut scan = |w: &[(String, bool)]| {
        for (j, (s, _)) in w.iter().enumerate() {
            if let Some(tool) = s.strip_prefix(&format!("{BIN}/")) {
                let args =
                    w[j + 1..].iter().take_while(|(a, q)| *q || !matches!(a.as_str(), "|" | ";" | ">" | "2>&1")).map(|(a, _)| a.clone());
                out.push((tool.to_string(), args.collect()));
            }
        }
    };
    let w = words(line);
    match w.iter().position(|(s, _)| s == "-c") {
        Some(i) if w.get(i - 1).is_some_and(|(s, _)| s == "sh") => scan(&words(&w[i + 1].0)),
        _ => scan(&w),
    }
    out
}

/// The values of `--<option>` in `args`, as a properties text.
fn option_values(args: &[String], option: &str) -> String {
    args.windows(2).filter(|w| w[0] == format!("--{option}")).map(|w| format!("{}\n", w[1])).collect()
}

/// What the bridge hands the real clients is what the sandbox's clients are: each console
/// producer's `--producer-property` settings, read back as a pasted producer.properties,
/// give the scenario producer's config with nothing refused; each console consumer's
/// `--consumer-property` settings give the member's (commit mode aside: the console
/// consumer auto-commits, a caveat says so). The console producer's own defaults
/// (linger.ms 1000, request.timeout.ms 1500, retries 3) never stand in for the client's.
#[test]
fn the_real_clients_get_the_sandboxs_client_settings() {
    let mut scenarios: Vec<(String, Scenario)> =
        crate::scenario::BUILT_IN.iter().map(|(n, t)| (n.to_string(), Scenario::from_json(t).unwrap())).collect();
    scenarios.push(("every-feature".into(), Scenario::from_json(include_str!("../../../tests/golden/every-feature.json")).unwrap()));
    let (mut producers, mut consumers) = (0, 0);
    for (name, s) in &scenarios {
        let b = bridge(s).unwrap();
        for step in &b.steps {
            for line in &step.lines {
                for (tool, args) in invocations(line) {
                    match (tool.as_str(), &step.what) {
                        ("kafka-console-producer.sh", What::Produce { producer, .. }) => {
                            let props = option_values(&args, "producer-property");
                            for k in ["linger.ms=", "request.timeout.ms=", "retries="] {
                                assert!(props.contains(k), "{name}: {k} given: {line}");
                            }
                            let mut c = crate::config::ProducerConfig::default();
                            let pasted = properties::apply_producer(&mut c, &props);
                            assert_eq!(pasted.refused, vec![], "{name}: {props}");
                            let spec = s.producers.iter().find(|p| &p.name == producer).unwrap();
                            assert_eq!(c, spec.config, "{name}: {producer}");
                            producers += 1;
                        }
                        ("kafka-console-consumer.sh", What::StartConsumer { group, client_id }) => {
                            let props = option_values(&args, "consumer-property");
                            let g = s.groups.iter().find(|g| &g.id == group).unwrap();
                            let m = g.members.iter().find(|m| &m.client_id == client_id).unwrap();
                            let mut c = crate::config::ConsumerConfig::default();
                            let mut instance = None;
                            let pasted = properties::apply_consumer(&mut c, &mut instance, &props);
                            for r in &pasted.refused {
                                let properties::Refused::NotModelled { key } = r else { panic!("{name}: {r}") };
                                assert!(
                                    matches!(
                                        key.as_str(),
                                        "client.id"
                                            | "auto.offset.reset"
                                            | "partition.assignment.strategy"
                                            | "group.protocol"
                                            | "group.remote.assignor"
                                    ),
                                    "{name}: {key}"
                                );
                            }
                            c.commit_mode = m.config.commit_mode;
                            c.processing_ms = m.config.processing_ms;
                            if g.config.group_protocol == GroupProtocol::Consumer {
                                // KIP-848: the group's heartbeat and session are the broker's
                                // group.consumer.* settings (in compose.yaml), not the client's.
                                c.heartbeat_interval_ms = m.config.heartbeat_interval_ms;
                                c.session_timeout_ms = m.config.session_timeout_ms;
                            }
                            assert_eq!((c, instance), (m.config.clone(), m.group_instance_id.clone()), "{name}: {client_id} of {group}");
                            consumers += 1;
                        }
                        _ => {}
                    }
                }
            }
        }
    }
    assert!(producers > 5 && consumers > 10, "{producers} producers, {consumers} consumers checked");
}
