//! Scenario files: the built-ins parse, bad input is refused with what and where.

use kafka_sandbox_core::scenario::{self, Scenario};

#[test]
fn every_built_in_scenario_parses_and_round_trips() {
    for (name, text) in scenario::BUILT_IN {
        let s = Scenario::from_json(text).unwrap_or_else(|e| panic!("{name}: {e}"));
        let again = Scenario::from_json(&s.to_json_pretty()).unwrap();
        assert_eq!(s, again, "{name}");
    }
}

fn error_of(json: &str) -> String {
    match Scenario::from_json(json) {
        Ok(_) => panic!("accepted: {json}"),
        Err(e) => e.to_string(),
    }
}

#[test]
fn malformed_scenarios_say_what_and_where() {
    let cases: &[(&str, &str)] = &[
        ("not json", "line 1, column 2: not valid JSON"),
        (r#"{"version": 1, "topics": [{"name": "t", "partitions": 1}"#, "not valid JSON (EOF while parsing"),
        (r#"{"topics": []}"#, "version: missing"),
        (r#"{"version": 2, "topics": []}"#, "version 2 is not supported"),
        (r#"{"version": 1, "topics": []}"#, "topics: a scenario needs at least one topic"),
        (r#"{"version": 1, "topics": [{"name": "t", "partitons": 3}]}"#, "unknown field `partitons`"),
        (r#"{"version": 1, "topics": [{"name": "t", "partitions": 0}]}"#, "topics[0].partitions"),
        (r#"{"version": 1, "topics": [{"name": "t", "partitions": 100000}]}"#, "allowed: 1 to 256"),
        (
            r#"{"version": 1, "topics": [{"name": "t", "partitions": 1}, {"name": "t", "partitions": 2}]}"#,
            "topics[1].name: topic \"t\" is defined twice",
        ),
        (r#"{"version": 1, "topics": [{"name": "", "partitions": 1}]}"#, "topics[0].name: the topic name must not be empty"),
        (
            r#"{"version": 1, "topics": [{"name": "t", "partitions": 1}], "groups": [{"id": "g", "topics": ["nope"]}]}"#,
            "groups[0]: there is no topic named \"nope\"",
        ),
        (
            r#"{"version": 1, "topics": [{"name": "t", "partitions": 1}], "groups": [{"id": "g", "topics": ["t"], "members": [{"client_id": "a"}, {"client_id": "a"}]}]}"#,
            "groups[0]: group \"g\" already has a member with client id \"a\"",
        ),
        (
            r#"{"version": 1, "topics": [{"name": "t", "partitions": 1}], "groups": [{"id": "g", "topics": ["t"], "config": {"assignor": "fair"}}]}"#,
            "unknown variant `fair`",
        ),
        (
            r#"{"version": 1, "topics": [{"name": "t", "partitions": 1}], "producers": [{"name": "p", "send": [{"topic": "u", "values": ["a"]}]}]}"#,
            "producers[0].send[0].topic: there is no topic named \"u\"",
        ),
        (
            r#"{"version": 1, "topics": [{"name": "t", "partitions": 1}], "producers": [{"name": "p", "send": [{"topic": "t", "values": ["a", "b"], "keys": ["k"]}]}]}"#,
            "1 keys for 2 values",
        ),
        (
            r#"{"version": 1, "topics": [{"name": "t", "partitions": 1}], "commands": [{"at_ms": 5, "command": {"type": "remove_member", "group": "g", "client_id": "c"}}]}"#,
            "commands[0]: there is no consumer group \"g\" by then",
        ),
        (
            r#"{"version": 1, "topics": [{"name": "t", "partitions": 1}], "groups": [{"id": "g", "topics": ["t"], "members": [{"client_id": "c"}]}], "commands": [{"at_ms": 5, "command": {"type": "remove_member", "group": "g", "client_id": "c"}}, {"at_ms": 6, "command": {"type": "remove_member", "group": "g", "client_id": "c"}}]}"#,
            "commands[1]: group \"g\" has no member with client id \"c\" by then",
        ),
        (
            r#"{"version": 1, "topics": [{"name": "t", "partitions": 1}], "producers": [{"name": "p"}], "commands": [{"at_ms": 5, "command": {"type": "produce", "producer": "p", "topic": "t", "value": "v", "partition": 3}}]}"#,
            "commands[0]: topic \"t\" has partitions 0..0 but partition 3 was asked for",
        ),
        (r#"{"version": 1, "topics": [{"name": "t", "partitions": 1}], "duration_ms": 999999999999}"#, "duration_ms"),
        (r#"[1, null, null, 0, {}, []]"#, "a scenario is a JSON object"),
        (
            r#"{"version": 1, "topics": [{"name": "t", "partitions": 1}], "groups": [{"id": "g", "topics": ["t"]}], "commands": [{"at_ms": 5, "command": {"type": "add_member", "group": "g", "member": {"client_id": "c", "config": {"max_poll_records": 0}}}}]}"#,
            "commands[0]: max_poll_records of member \"c\" in group \"g\" is 0; allowed: 1 to 10000",
        ),
    ];
    for (json, expected) in cases {
        let message = error_of(json);
        assert!(message.contains(expected), "input {json}\n  message {message:?}\n  expected to contain {expected:?}");
    }
}

#[test]
fn an_oversized_scenario_is_refused_before_parsing() {
    let big = format!("{{\"version\": 1, \"name\": \"{}\"}}", "x".repeat(scenario::MAX_SCENARIO_BYTES));
    assert!(error_of(&big).contains("bytes"));
}

/// A valid scenario to break one field at a time: every kind of refusal below starts here.
fn base() -> serde_json::Value {
    serde_json::json!({
        "version": 1,
        "cluster": {"brokers": 3},
        "topics": [{"name": "t", "partitions": 2, "replication_factor": 2}],
        "producers": [{"name": "p", "send": [{"topic": "t", "values": ["a"]}]}],
        "groups": [{"id": "g", "topics": ["t"], "members": [{"client_id": "c"}]}],
        "commands": []
    })
}

/// `base()` with the value at each JSON pointer replaced (or added to its object).
fn with(changes: &[(&str, serde_json::Value)]) -> String {
    let mut doc = base();
    for (pointer, value) in changes {
        let (parent, key) = pointer.rsplit_once('/').unwrap();
        match doc.pointer_mut(parent).unwrap() {
            serde_json::Value::Object(map) => {
                map.insert(key.to_string(), value.clone());
            }
            serde_json::Value::Array(items) => items[key.parse::<usize>().unwrap()] = value.clone(),
            other => panic!("{pointer}: {other}"),
        }
    }
    doc.to_string()
}

/// The same, with one timeline command at 1000 ms.
fn command(c: serde_json::Value) -> String {
    with(&[("/commands", serde_json::json!([{"at_ms": 1000, "command": c}]))])
}

/// One case per check of the validator (and of the commands a timeline may hold): the
/// message names the place (JSON path), what is wrong (usually the value) and what is
/// allowed.
#[test]
fn every_kind_of_refusal_says_what_where_and_what_is_allowed() {
    use serde_json::json;
    let long = "n".repeat(65);
    let cases: Vec<(String, &str)> = vec![
        // Text and types.
        ("{".into(), "line 1, column 1: not valid JSON (EOF while parsing an object)"),
        (format!("{} x", base()), "not valid JSON (trailing characters)"),
        ("[]".into(), "a scenario is a JSON object"),
        (with(&[("/version", json!(2))]), "version: version 2 is not supported; this build reads version 1"),
        (with(&[("/version", json!("1"))]), "version: is \"1\"; write the number 1"),
        (with(&[("/topics/0/partitions", json!("3"))]), "topics[0].partitions (line 1, column"),
        (with(&[("/topics/0/partitions", json!("3"))]), "invalid type: string \"3\", expected a whole number from 0 to 4294967295"),
        (with(&[("/topics/0/partitions", json!(-1))]), "invalid value: integer `-1`, expected a whole number from 0 to 4294967295"),
        (with(&[("/topics/0/partitions", json!(1.5))]), "invalid type: floating point `1.5`, expected a whole number"),
        (with(&[("/topics/0/partitions", json!(4_294_967_296u64))]), "expected a whole number from 0 to 4294967295"),
        (with(&[("/topics/0/retention_ms", json!(true))]), "expected a whole number from -9223372036854775808"),
        (with(&[("/topics/0/unclean_leader_election_enable", json!(1))]), "expected true or false"),
        (with(&[("/topics", json!({}))]), "topics (line 1, column"),
        (with(&[("/topics", json!({}))]), "expected an array [...]"),
        (with(&[("/topics/0", json!(5))]), "topics[0] (line 1, column"),
        (with(&[("/topics/0", json!(5))]), "expected an object {...}"),
        (with(&[("/producers/0/config", json!({"acks": 1}))]), "producers[0].config.acks (line 1, column"),
        (with(&[("/producers/0/config", json!({"acks": 1}))]), "as a JSON string (for acks: \"1\", not 1)"),
        (with(&[("/groups/0/config", json!({"assignor": "fair"}))]), "groups[0].config.assignor (line 1, column"),
        (
            with(&[("/groups/0/config", json!({"assignor": "fair"}))]),
            "unknown variant `fair`, expected one of `range`, `roundrobin`, `sticky`, `cooperative-sticky`",
        ),
        (with(&[("/topics/0/partitons", json!(3))]), "unknown field `partitons`, expected one of `name`, `partitions`"),
        (with(&[("/groups/0/members/0", json!({}))]), "groups[0].members[0] (line 1, column"),
        (with(&[("/groups/0/members/0", json!({}))]), "missing field `client_id`"),
        (command(json!(7)), "expected a command object with a \"type\""),
        (command(json!({"type": "explode"})), "commands[0].command.type (line 1, column"),
        (command(json!({"type": "explode"})), "unknown variant `explode`, expected one of `produce`"),
        // Cluster.
        (with(&[("/cluster/brokers", json!(0))]), "cluster.brokers: is 0; allowed: 1 to 12"),
        (with(&[("/cluster/brokers", json!(13))]), "cluster.brokers: is 13; allowed: 1 to 12"),
        (with(&[("/cluster/network_latency_ms", json!(60_001))]), "cluster.network_latency_ms: is 60001; allowed: 0 to 60000"),
        (
            with(&[("/cluster/replica_lag_time_max_ms", json!(0))]),
            "cluster.replica_lag_time_max_ms: is 0; allowed: 1 to 604800000 (one week)",
        ),
        (with(&[("/cluster/replica_fetch_wait_max_ms", json!(0))]), "cluster.replica_fetch_wait_max_ms: is 0; allowed: 1 to 60000"),
        (
            with(&[("/cluster/broker_session_timeout_ms", json!(3_600_001))]),
            "cluster.broker_session_timeout_ms: is 3600001; allowed: 1 to 3600000 (one hour)",
        ),
        (
            with(&[("/cluster/group_initial_rebalance_delay_ms", json!(300_001))]),
            "cluster.group_initial_rebalance_delay_ms: is 300001; allowed: 0 to 300000",
        ),
        (
            with(&[("/cluster/log_retention_check_interval_ms", json!(0))]),
            "cluster.log_retention_check_interval_ms: is 0; allowed: 1 to 604800000",
        ),
        (
            with(&[("/duration_ms", json!(1_000_000_000_000_000u64))]),
            "duration_ms: is 1000000000000000; allowed: 0 to 604800000 (one week)",
        ),
        // Topics.
        (with(&[("/topics", json!([]))]), "topics: a scenario needs at least one topic"),
        (
            with(&[("/topics", json!((0..17).map(|i| json!({"name": format!("t{i}"), "partitions": 1})).collect::<Vec<_>>()))]),
            "topics: 17 topics; allowed: 1 to 16",
        ),
        (with(&[("/topics/0/name", json!(""))]), "topics[0].name: the topic name must not be empty"),
        (with(&[("/topics/0/name", json!("n".repeat(250)))]), "topics[0].name: the topic name \"nnnnn"),
        (with(&[("/topics/0/name", json!("n".repeat(250)))]), "is longer than 249 characters"),
        (with(&[("/producers/0/name", json!(long))]), "is longer than 64 characters"),
        (with(&[("/topics/0/name", json!("a\u{7}"))]), "topics[0].name: the topic name \"a\\u{7}\" contains '\\u{7}'"),
        // Kafka's topic naming rule (`Topic.validate`), in the scenario and in its commands.
        (
            with(&[("/topics/0/name", json!("bad topic!"))]),
            "topics[0].name: the topic name \"bad topic!\" contains ' '; allowed: ASCII letters, digits",
        ),
        (with(&[("/topics/0/name", json!("<b>x</b> topic"))]), "topics[0].name: the topic name \"<b>x</b> topic\" contains '<'"),
        (with(&[("/topics/0/name", json!(".."))]), "topics[0].name: the topic name cannot be \".\" or \"..\""),
        (
            command(json!({"type": "produce", "producer": "p", "topic": "no such!", "value": "v"})),
            "commands[0]: the topic name \"no such!\" contains ' '",
        ),
        (
            command(json!({"type": "add_partitions", "topic": ".", "partitions": 4})),
            "commands[0]: the topic name cannot be \".\" or \"..\"",
        ),
        (with(&[("/topics/0/partitions", json!(0))]), "topics[0].partitions: topic \"t\" has 0 partitions; allowed: 1 to 256"),
        (
            with(&[("/topics/0/partitions", json!(1_000_000_000))]),
            "topics[0].partitions: topic \"t\" has 1000000000 partitions; allowed: 1 to 256",
        ),
        (
            with(&[("/topics/0/replication_factor", json!(4))]),
            "topics[0].replication_factor: topic \"t\" asks for 4 replicas but the cluster has 3 broker(s)",
        ),
        (
            with(&[("/topics/0/min_insync_replicas", json!(3))]),
            "topics[0].min_insync_replicas: is 3; allowed: 1 to the replication factor (2)",
        ),
        (with(&[("/topics/0/retention_ms", json!(-2))]), "topics[0].retention_ms: is -2; allowed: -1 (no time limit) or 0 and more"),
        (with(&[("/topics/0/retention_bytes", json!(-2))]), "topics[0].retention_bytes: is -2; allowed: -1 (no size limit) or 0 and more"),
        (with(&[("/topics/0/segment_bytes", json!(13))]), "topics[0].segment_bytes: is 13; allowed: 14 to 2147483647"),
        (with(&[("/topics/0/segment_ms", json!(0))]), "topics[0].segment_ms: is 0; allowed: 1 to 9223372036854775807"),
        // Producers.
        (
            with(&[("/producers", json!((0..17).map(|i| json!({"name": format!("p{i}")})).collect::<Vec<_>>()))]),
            "producers: 17 producers; allowed: at most 16",
        ),
        (with(&[("/producers/0/name", json!(""))]), "producers[0].name: the producer name must not be empty"),
        (with(&[("/producers/0/config", json!({"linger_ms": 60_001}))]), "producers[0].config.linger_ms: is 60001; allowed: 0 to 60000"),
        (
            with(&[("/producers/0/config", json!({"retry_backoff_ms": 0}))]),
            "producers[0].config.retry_backoff_ms: is 0; allowed: 1 to 604800000",
        ),
        (
            with(&[("/producers/0/config", json!({"delivery_timeout_ms": 604_800_001}))]),
            "producers[0].config.delivery_timeout_ms: is 604800001; allowed: 1 to 604800000",
        ),
        (with(&[("/producers/0/config", json!({"batch_size": 0}))]), "producers[0].config.batch_size: is 0; allowed: 1 to 16777216"),
        (
            with(&[("/producers/0/config", json!({"max_in_flight_requests_per_connection": 0}))]),
            "producers[0].config.max_in_flight_requests_per_connection: is 0; allowed: 1 or more",
        ),
        (with(&[("/producers/0/send/0/topic", json!("u"))]), "producers[0].send[0].topic: there is no topic named \"u\""),
        (
            with(&[("/producers/0/send/0/keys", json!(["k", "l"]))]),
            "producers[0].send[0].keys: 2 keys for 1 values; give one key (or null) per value",
        ),
        (
            with(&[("/producers/0/send/0/values", json!(["v".repeat(1025)]))]),
            "producers[0].send[0]: keys and values may have at most 1024 characters",
        ),
        (
            with(&[("/producers/0/send/0/values", json!(["a", "b"])), ("/producers/0/send/0/interval_ms", json!(604_800_001))]),
            "producers[0].send[0]: the last value would be sent at 604800001 ms; everything must happen by 604800000 ms",
        ),
        (
            with(&[("/producers/0/send/0/values", json!(vec!["a"; 100_001]))]),
            "commands: 100001 timeline entries (commands plus planned sends); allowed: at most 100000",
        ),
        // Groups.
        (with(&[("/groups/0/id", json!(""))]), "groups[0]: a group id must not be empty"),
        (with(&[("/groups/0/topics", json!([]))]), "groups[0]: group \"g\" must subscribe to at least one topic"),
        (with(&[("/groups/0/topics", json!(["u"]))]), "groups[0]: there is no topic named \"u\""),
        (
            with(&[("/groups/0/members", json!((0..65).map(|i| json!({"client_id": format!("c{i}")})).collect::<Vec<_>>()))]),
            "groups[0]: group \"g\" has 65 members; the sandbox allows at most 64",
        ),
        (with(&[("/groups/0/members/0/client_id", json!(""))]), "groups[0]: a client id must not be empty"),
        (with(&[("/groups/0/members/0/group_instance_id", json!(""))]), "groups[0]: a group.instance.id must not be empty"),
        (
            with(&[("/groups/0/members/0/config", json!({"max_poll_records": 10_001}))]),
            "groups[0]: max_poll_records of member \"c\" in group \"g\" is 10001; allowed: 1 to 10000",
        ),
        (
            with(&[("/groups/0/members/0/config", json!({"session_timeout_ms": 0}))]),
            "groups[0]: session_timeout_ms of member \"c\" in group \"g\" is 0; allowed: 1 to 604800000 (one week)",
        ),
        (
            // Kafka's consumer refuses it (`Heartbeat`: "Heartbeat must be set lower than the
            // session timeout"): its session would expire between two heartbeats.
            with(&[("/groups/0/members/0/config", json!({"heartbeat_interval_ms": 45_000, "session_timeout_ms": 45_000}))]),
            "groups[0]: heartbeat_interval_ms of member \"c\" in group \"g\" is 45000; allowed: less than session_timeout_ms (45000)",
        ),
        (
            with(&[("/groups/0/members/0/config", json!({"heartbeat_interval_ms": 604_800_001}))]),
            "heartbeat_interval_ms of member \"c\" in group \"g\" is 604800001; allowed: 1 to 604800000",
        ),
        (
            with(&[("/groups/0/members/0/config", json!({"auto_commit_interval_ms": 0}))]),
            "groups[0]: auto_commit_interval_ms of member \"c\" in group \"g\" is 0; allowed: 1 or more",
        ),
        (
            with(&[("/groups/0/members/0/config", json!({"fetch_max_wait_ms": 60_001}))]),
            "groups[0]: fetch_max_wait_ms of member \"c\" in group \"g\" is 60001; allowed: 1 to 60000",
        ),
        (
            with(&[("/groups/0/members/0/config", json!({"processing_ms": 3_600_001}))]),
            "groups[0]: processing_ms of member \"c\" in group \"g\" is 3600001; allowed: 0 to 3600000",
        ),
        // Timeline commands.
        (
            with(&[("/commands", json!([{"at_ms": 604_800_001u64, "command": {"type": "crash_broker", "broker": 0}}]))]),
            "commands[0].at_ms: is 604800001; allowed: 0 to 604800000 (one week)",
        ),
        (command(json!({"type": "produce", "producer": "q", "topic": "t", "value": "v"})), "commands[0]: there is no producer named \"q\""),
        (command(json!({"type": "produce", "producer": "p", "topic": "u", "value": "v"})), "commands[0]: there is no topic named \"u\""),
        (
            command(json!({"type": "produce", "producer": "p", "topic": "t", "value": "v", "partition": 2})),
            "commands[0]: topic \"t\" has partitions 0..1 but partition 2 was asked for",
        ),
        (
            command(json!({"type": "produce", "producer": "p", "topic": "t", "value": "v".repeat(1025)})),
            "commands[0]: a key or value may have at most 1024 characters",
        ),
        (
            command(
                json!({"type": "produce", "producer": "p", "topic": "t", "value": "v", "headers": vec![json!({"key": "k", "value": "v"}); 17]}),
            ),
            "commands[0]: a record may have at most 16 headers",
        ),
        (
            command(json!({"type": "add_group", "group": {"id": "g", "topics": ["t"]}})),
            "commands[0]: a consumer group \"g\" already exists by then",
        ),
        (command(json!({"type": "add_group", "group": {"id": "h", "topics": ["u"]}})), "commands[0]: there is no topic named \"u\""),
        (
            command(json!({"type": "add_member", "group": "h", "member": {"client_id": "d"}})),
            "commands[0]: there is no consumer group \"h\" by then",
        ),
        (
            command(json!({"type": "add_member", "group": "g", "member": {"client_id": "c"}})),
            "commands[0]: group \"g\" already has a member with client id \"c\" by then",
        ),
        (
            command(json!({"type": "crash_member", "group": "g", "client_id": "x"})),
            "commands[0]: group \"g\" has no member with client id \"x\" by then",
        ),
        (
            command(json!({"type": "remove_member", "group": "h", "client_id": "c"})),
            "commands[0]: there is no consumer group \"h\" by then",
        ),
        (command(json!({"type": "crash_broker", "broker": 3})), "commands[0]: there is no broker 3"),
        (
            command(json!({"type": "slow_broker", "broker": 0, "slow_ms": 3_600_001})),
            "commands[0].command: slow_ms is 3600001; allowed: 0 to 3600000 (one hour)",
        ),
        (
            command(json!({"type": "set_processing", "group": "g", "client_id": "c", "processing_ms": 3_600_001})),
            "commands[0].command: processing_ms is 3600001; allowed: 0 to 3600000",
        ),
        (
            command(json!({"type": "add_partitions", "topic": "t", "partitions": 2})),
            "commands[0]: topic \"t\" has 2 partitions; it can grow to between 3 and 256 (partitions never shrink)",
        ),
        (
            command(json!({"type": "add_partitions", "topic": "t", "partitions": 257})),
            "commands[0]: topic \"t\" has 2 partitions; it can grow to between 3 and 256 (partitions never shrink)",
        ),
        (command(json!({"type": "add_partitions", "topic": "u", "partitions": 3})), "commands[0]: there is no topic named \"u\""),
        (
            command(json!({"type": "set_topic_config", "topic": "t", "min_insync_replicas": 3})),
            "commands[0]: min.insync.replicas of \"t\" must be between 1 and its replication factor (2)",
        ),
        (command(json!({"type": "set_acks", "producer": "q", "acks": "1"})), "commands[0]: there is no producer named \"q\""),
        (
            command(json!({"type": "set_assignor", "group": "h", "assignor": "range"})),
            "commands[0]: there is no consumer group \"h\" by then",
        ),
    ];
    let mut wrong = Vec::new();
    for (json, expected) in &cases {
        let message = error_of(json);
        if !message.contains(expected) {
            let shown: String = json.chars().take(300).collect();
            wrong.push(format!("input {shown}\n  message  {message:?}\n  expected {expected:?}"));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// A group defined twice and a topic defined twice: the second one is named.
#[test]
fn a_name_defined_twice_names_the_second() {
    let mut doc = base();
    doc["topics"].as_array_mut().unwrap().push(serde_json::json!({"name": "t", "partitions": 1}));
    assert!(error_of(&doc.to_string()).contains("topics[1].name: topic \"t\" is defined twice"));
    let mut doc = base();
    doc["groups"].as_array_mut().unwrap().push(serde_json::json!({"id": "g", "topics": ["t"]}));
    assert!(error_of(&doc.to_string()).contains("groups[1]: a consumer group \"g\" already exists"));
    let mut doc = base();
    doc["producers"].as_array_mut().unwrap().push(serde_json::json!({"name": "p"}));
    assert!(error_of(&doc.to_string()).contains("producers[1].name: producer \"p\" is defined twice"));
}

/// A short text can name thousands of members on the timeline; written out in full it
/// would pass the size limit, so it is refused (what is loaded can always be loaded again).
#[test]
fn a_scenario_too_big_once_written_out_is_refused() {
    let mut commands = Vec::new();
    for i in 0..12_000 {
        let t = if i % 2 == 0 { "add_member" } else { "remove_member" };
        let c = if i % 2 == 0 {
            serde_json::json!({"type": t, "group": "g", "member": {"client_id": "d"}})
        } else {
            serde_json::json!({"type": t, "group": "g", "client_id": "d"})
        };
        commands.push(serde_json::json!({"at_ms": 1000 + i, "command": c}));
    }
    let text = with(&[("/commands", serde_json::Value::Array(commands))]);
    assert!(text.len() < scenario::MAX_SCENARIO_BYTES, "{}", text.len());
    let message = error_of(&text);
    assert!(message.contains("written out with every default filled in, the scenario takes"), "{message}");
}

/// KIP-516 topic ids: a scenario may give one (checked as Kafka prints ids); otherwise the
/// same seed and name give the same id, another seed another.
#[test]
fn topic_ids_are_given_or_derived_from_the_seed() {
    let with = |id: &str| format!(r#"{{"version": 1, "seed": 7, "topics": [{{"name": "t", "partitions": 1, "topic_id": "{id}"}}]}}"#);
    let sim = Scenario::from_json(&with("dLccQCXeGjwzN5MNSgPv5Q")).unwrap().build().unwrap();
    assert_eq!(sim.topic("t").unwrap().id().to_string(), "dLccQCXeGjwzN5MNSgPv5Q");
    for (id, needle) in [
        ("short", "topics[0].topic_id: \"short\" is not a topic id: a topic id is 22 characters"),
        ("AAAAAAAAAAAAAAAAAAAAAA", "topics[0].topic_id: \"AAAAAAAAAAAAAAAAAAAAAA\" is not a topic id: Kafka reserves"),
        ("dLccQCXeGjwzN5MNSgPv5R", "its last character does not end a 16-byte id"),
        ("dLccQCXeGjwzN5MNSgPv+Q", "uses only A-Z"),
        ("-LccQCXeGjwzN5MNSgPv5Q", "starting with '-'"),
    ] {
        let e = error_of(&with(id));
        assert!(e.contains(needle), "{id}: {e}");
    }
    let twice = r#"{"version": 1, "topics": [{"name": "a", "partitions": 1, "topic_id": "dLccQCXeGjwzN5MNSgPv5Q"},
        {"name": "b", "partitions": 1, "topic_id": "dLccQCXeGjwzN5MNSgPv5Q"}]}"#;
    assert!(error_of(twice).contains("topics[1].topic_id: topic id \"dLccQCXeGjwzN5MNSgPv5Q\" is defined twice"), "{}", error_of(twice));
    let derived = |seed: u64| {
        let json = format!(r#"{{"version": 1, "seed": {seed}, "topics": [{{"name": "t", "partitions": 1}}]}}"#);
        Scenario::from_json(&json).unwrap().build().unwrap().topic("t").unwrap().id()
    };
    assert_eq!(derived(1), derived(1));
    assert_ne!(derived(1), derived(2));
    assert_eq!(derived(1), kafka_sandbox_core::uuid::Uuid::derived(1, "t"));
}
