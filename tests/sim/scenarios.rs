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
        (r#"{"version": 1, "topics": [{"name": "t", "partitions": 1}, {"name": "t", "partitions": 2}]}"#, "topics[1].name: topic \"t\" is defined twice"),
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
            "commands[1]: group \"g\" has no member \"c\" by then",
        ),
        (
            r#"{"version": 1, "topics": [{"name": "t", "partitions": 1}], "producers": [{"name": "p"}], "commands": [{"at_ms": 5, "command": {"type": "produce", "producer": "p", "topic": "t", "value": "v", "partition": 3}}]}"#,
            "commands[0]: topic \"t\" has no partition 3",
        ),
        (r#"{"version": 1, "topics": [{"name": "t", "partitions": 1}], "duration_ms": 999999999999}"#, "duration_ms"),
        (r#"[1, null, null, 0, {}, []]"#, "a scenario is a JSON object"),
        (
            r#"{"version": 1, "topics": [{"name": "t", "partitions": 1}], "groups": [{"id": "g", "topics": ["t"]}], "commands": [{"at_ms": 5, "command": {"type": "add_member", "group": "g", "member": {"client_id": "c", "config": {"max_poll_records": 0}}}}]}"#,
            "commands[0]: max_poll_records of member \"c\" in group \"g\" must be between 1 and 10000",
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
