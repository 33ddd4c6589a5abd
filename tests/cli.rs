//! Integration tests of the `kafka-sandbox` binary: assign and partition, through stdin/stdout and exit codes.

#![allow(clippy::unwrap_used)] // Tests may unwrap: a panic is a failed test.

use std::io::Write;
use std::process::{Command, Output, Stdio};

fn sandbox(args: &[&str], stdin: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_kafka-sandbox"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(stdin.as_bytes()).unwrap();
    child.wait_with_output().unwrap()
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8(bytes.to_vec()).unwrap()
}

/// kafka-semantics §5 R1 (RangeAssignorTest.testMultipleConsumersMixedTopics).
const R1: &str = r#"{
  "strategy": "range",
  "topics": {"t1": 3, "t2": 2},
  "members": [
    {"member_id": "c1", "subscription": ["t1"]},
    {"member_id": "c2", "group_instance_id": null, "subscription": ["t1", "t2"], "owned": [], "generation": 1},
    {"member_id": "c3", "subscription": ["t1"]}
  ]
}"#;

#[test]
fn assign_range_r1() {
    let out = sandbox(&["assign"], R1);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let got: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let expected = serde_json::json!({
        "c1": {"t1": [0]},
        "c2": {"t1": [1], "t2": [0, 1]},
        "c3": {"t1": [2]}
    });
    assert_eq!(got, expected);
    assert_eq!(text(&out.stderr), "");
}

#[test]
fn assign_roundrobin_r1_input_and_empty_member() {
    let input = R1.replace("\"range\"", "\"roundrobin\"").replace(
        "{\"member_id\": \"c3\", \"subscription\": [\"t1\"]}",
        "{\"member_id\": \"c3\", \"subscription\": [\"t1\"]}, {\"member_id\": \"c4\", \"subscription\": []}",
    );
    let out = sandbox(&["assign"], &input);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout), "{\"c1\":{\"t1\":[0]},\"c2\":{\"t1\":[1],\"t2\":[0,1]},\"c3\":{\"t1\":[2]},\"c4\":{}}\n");
}

#[test]
fn assign_unknown_strategy_exits_2_with_empty_stdout() {
    let out = sandbox(&["assign"], &R1.replace("\"range\"", "\"fair\""));
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
    assert!(text(&out.stderr).contains("unknown assignment strategy \"fair\""));
}

/// kafka-semantics §5 S3 (AbstractStickyAssignorTest
/// .testMaxQuotaConsumerMoreThanNumExpectedMaxCapacityMembers): Java HashMap order visits
/// consumer3, consumer2, consumer1, so consumer2 keeps both of its partitions.
const S3: &str = r#"{
  "strategy": "STRATEGY",
  "topics": {"topic1": 2, "topic2": 2},
  "members": [
    {"member_id": "consumer1", "subscription": ["topic1", "topic2"], "owned": [["topic1", 0], ["topic2", 0]], "generation": 1},
    {"member_id": "consumer2", "subscription": ["topic1", "topic2"], "owned": [["topic1", 1], ["topic2", 1]], "generation": 1},
    {"member_id": "consumer3", "subscription": ["topic1", "topic2"], "generation": 1}
  ]
}"#;

#[test]
fn assign_sticky_s3() {
    let out = sandbox(&["assign"], &S3.replace("STRATEGY", "sticky"));
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(
        text(&out.stdout),
        "{\"consumer1\":{\"topic1\":[0]},\"consumer2\":{\"topic1\":[1],\"topic2\":[1]},\"consumer3\":{\"topic2\":[0]}}\n"
    );
    assert_eq!(text(&out.stderr), "");
}

/// The cooperative first round withholds topic2-0 (consumer1 must revoke it first); the
/// second round, with consumer1 owning only topic1-0, hands it to consumer3.
#[test]
fn assign_cooperative_sticky_s3_two_rounds() {
    let first = sandbox(&["assign"], &S3.replace("STRATEGY", "cooperative-sticky"));
    assert_eq!(first.status.code(), Some(0), "{}", text(&first.stderr));
    assert_eq!(text(&first.stdout), "{\"consumer1\":{\"topic1\":[0]},\"consumer2\":{\"topic1\":[1],\"topic2\":[1]},\"consumer3\":{}}\n");
    let second_input = S3.replace("STRATEGY", "cooperative-sticky").replace(r#"[["topic1", 0], ["topic2", 0]]"#, r#"[["topic1", 0]]"#);
    let second = sandbox(&["assign"], &second_input);
    assert_eq!(second.status.code(), Some(0), "{}", text(&second.stderr));
    assert_eq!(
        text(&second.stdout),
        "{\"consumer1\":{\"topic1\":[0]},\"consumer2\":{\"topic1\":[1],\"topic2\":[1]},\"consumer3\":{\"topic2\":[0]}}\n"
    );
}

/// A fresh group with equal subscriptions: partition i goes to member i % C in member-id
/// order, whatever the input order and `group.instance.id` (S1 for the sticky assignors).
#[test]
fn assign_sticky_fresh_group_ignores_instance_ids() {
    for name in ["sticky", "cooperative-sticky"] {
        let input = format!(
            r#"{{"strategy": "{name}", "topics": {{"t1": 3, "t2": 3}},
                "members": [{{"member_id": "c2", "group_instance_id": "a", "subscription": ["t1", "t2"]}},
                            {{"member_id": "c1", "subscription": ["t1", "t2"]}}]}}"#
        );
        let out = sandbox(&["assign"], &input);
        assert_eq!(out.status.code(), Some(0), "{name}: {}", text(&out.stderr));
        assert_eq!(text(&out.stdout), "{\"c1\":{\"t1\":[0,2],\"t2\":[1]},\"c2\":{\"t1\":[1],\"t2\":[0,2]}}\n", "{name}");
    }
}

#[test]
fn assign_duplicate_member_exits_2() {
    let out = sandbox(&["assign"], &R1.replace("\"c3\"", "\"c1\""));
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
    assert!(text(&out.stderr).contains("\"c1\" appears more than once"));
}

#[test]
fn assign_malformed_json_and_unknown_fields_exit_2() {
    for input in [
        "not json",
        "",
        r#"{"strategy": "range", "topics": {}, "members": [], "protocol": "x"}"#,
        r#"{"strategy": "range", "topics": {}, "members": [{"member_id": "a", "subscription": [], "rack": "r1"}]}"#,
        r#"{"strategy": "range", "topics": {}}"#,
    ] {
        let out = sandbox(&["assign"], input);
        assert_eq!(out.status.code(), Some(2), "{input}");
        assert!(out.stdout.is_empty(), "{input}");
        assert!(!out.stderr.is_empty(), "{input}");
    }
}

#[test]
fn assign_topic_without_metadata_warns_and_succeeds() {
    let input = r#"{"strategy": "range", "topics": {"t1": 2},
                    "members": [{"member_id": "c1", "subscription": ["t1", "ghost"]}]}"#;
    let out = sandbox(&["assign"], input);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(text(&out.stdout), "{\"c1\":{\"t1\":[0,1]}}\n");
    assert!(text(&out.stderr).contains("Skipping assignment for topic ghost since no metadata is available"));
}

/// kafka-semantics §8: "key1" % 4 = 0, "key2" % 4 = 3, "key3" % 4 = 1, "" % 4 = 1.
#[test]
fn partition_keys_match_the_table() {
    let out = sandbox(&["partition", "--partitions", "4", "key1", "key2", "key3", ""], "");
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout), "0\n3\n1\n1\n");
    // The same keys % 3 and % 6 (the other columns of the table).
    let out = sandbox(&["partition", "--partitions=3", "key1", "key2", "key3", "", "a", "kafka"], "");
    assert_eq!(text(&out.stdout), "2\n2\n1\n0\n1\n1\n");
    let out = sandbox(&["partition", "--partitions", "6", "foobar", "abc"], "");
    assert_eq!(text(&out.stdout), "0\n3\n");
}

#[test]
fn partition_double_dash_allows_dash_keys() {
    let out = sandbox(&["partition", "--partitions", "1000", "--", "-x", "--partitions"], "");
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let lines: Vec<u32> = text(&out.stdout).lines().map(|l| l.parse().unwrap()).collect();
    assert_eq!(lines.len(), 2);
    assert!(lines.iter().all(|p| *p < 1000));
    // Without --, "-x" is an unknown option.
    let out = sandbox(&["partition", "--partitions", "4", "-x"], "");
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
}

#[test]
fn partition_errors_exit_2() {
    for args in [
        &["partition", "key1"][..],
        &["partition", "--partitions", "0", "key1"],
        &["partition", "--partitions", "four", "key1"],
        &["partition", "--partitions", "4"],
        &["partition", "--partitions"],
    ] {
        let out = sandbox(args, "");
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(out.stdout.is_empty(), "{args:?}");
        assert!(!out.stderr.is_empty(), "{args:?}");
    }
}

#[test]
fn help_and_no_arguments() {
    let out = sandbox(&["--help"], "");
    assert_eq!(out.status.code(), Some(0));
    assert!(text(&out.stdout).contains("USAGE"));
    assert!(out.stderr.is_empty());

    let out = sandbox(&[], "");
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
    assert!(text(&out.stderr).contains("USAGE"));

    let out = sandbox(&["frobnicate"], "");
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
}

/// One case per kind of input error of each subcommand: exit code 2, nothing on stdout,
/// and a message on stderr that says what is wrong, where, and what is allowed.
#[test]
fn every_kind_of_input_error_has_a_clear_message() {
    let dir = std::env::temp_dir().join(format!("kafka-sandbox-cli-errors-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let bad = dir.join("bad.json");
    std::fs::write(&bad, r#"{"version": 1, "topics": [{"name": "t", "partitions": "3"}]}"#).unwrap();
    let bad = bad.to_str().unwrap();
    let big = format!(
        r#"{{"strategy":"range","topics":{{"t":1000001}},"members":[{{"member_id":"a","subscription":["t"]}}],"pad":"{}"}}"#,
        "x".repeat(16 * 1024 * 1024)
    );
    let cases: Vec<(Vec<&str>, &str, &str)> = vec![
        // run
        (vec!["run"], "", "kafka-sandbox run: which scenario? give a file or builtin:NAME"),
        (vec!["run", "builtin:nope"], "", "kafka-sandbox run: no built-in scenario \"nope\"; there are: two-groups"),
        (vec!["run", "/nonexistent/x.json"], "", "kafka-sandbox run: cannot read /nonexistent/x.json: "),
        (
            vec!["run", bad],
            "",
            "topics[0].partitions (line 1, column 57): invalid type: string \"3\", expected a whole number from 0 to 4294967295",
        ),
        (
            vec!["run", "builtin:two-groups", "--until", "abc"],
            "",
            "--until takes a whole number of milliseconds from 0 to 604800000 (one simulated week), not \"abc\"",
        ),
        (
            vec!["run", "builtin:two-groups", "--until", "604800001"],
            "",
            "--until takes a whole number of milliseconds from 0 to 604800000 (one simulated week), not \"604800001\"",
        ),
        (vec!["run", "builtin:two-groups", "--until"], "", "kafka-sandbox run: --until needs a value"),
        (vec!["run", "builtin:two-groups", "--max-events", "0"], "", "--max-events takes a whole number of at least 1, not \"0\""),
        (vec!["run", "builtin:two-groups", "--frobnicate"], "", "kafka-sandbox run: unknown option \"--frobnicate\""),
        (
            vec!["run", "builtin:two-groups", "builtin:one-consumer"],
            "",
            "give one scenario (a second one, \"builtin:one-consumer\", was given)",
        ),
        (
            vec!["run", "builtin:two-groups", "--trace", "/nonexistent/dir/t.jsonl"],
            "",
            "kafka-sandbox run: cannot write /nonexistent/dir/t.jsonl: ",
        ),
        // assign
        (vec!["assign"], "{", "kafka-sandbox assign: invalid group JSON: line 1, column 1: not valid JSON (EOF while parsing an object)"),
        (
            vec!["assign"],
            r#"{"strategy":"range","topics":{"t":-1},"members":[]}"#,
            "invalid group JSON: topics.t (line 1, column 36): invalid value: integer `-1`, expected a whole number from 0 to 4294967295",
        ),
        (vec!["assign"], r#"{"strategy":"range","topics":{}}"#, "invalid group JSON: line 1, column 32: missing field `members`"),
        (
            vec!["assign"],
            r#"{"strategy":"range","topics":{},"members":[{"member_id":"a","subscription":"t"}]}"#,
            "invalid group JSON: members[0].subscription (line 1, column 78): invalid type: string \"t\", expected an array [...]",
        ),
        (
            vec!["assign"],
            r#"{"strategy":"range","topics":{},"members":[],"extra":1}"#,
            "invalid group JSON: extra (line 1, column 52): unknown field `extra`, expected one of `protocol`, `strategy`, `topic_ids`, `seed`, `topics`, `members`",
        ),
        (
            vec!["assign"],
            r#"{"strategy":"range","topics":{"t":1,"t":2},"members":[]}"#,
            "invalid group JSON: topics (line 1, column 42): topic \"t\" is listed twice",
        ),
        (
            vec!["assign"],
            r#"{"strategy":"fair","topics":{},"members":[]}"#,
            "unknown assignment strategy \"fair\": expected one of range, roundrobin, sticky, cooperative-sticky",
        ),
        (
            vec!["assign"],
            r#"{"strategy":"range","topics":{},"members":[{"member_id":"a","subscription":[]},{"member_id":"a","subscription":[]}]}"#,
            "member id \"a\" appears more than once; member ids in a group are unique",
        ),
        (
            vec!["assign"],
            r#"{"strategy":"range","topics":{"t":4294967295},"members":[{"member_id":"a","subscription":["t"]}]}"#,
            "the subscribed topics have 4294967295 partitions in total; the simulator assigns at most 1000000",
        ),
        (vec!["assign"], &big, "kafka-sandbox assign: the input is larger than 16777216 bytes"),
        (vec!["assign", "x"], "", "kafka-sandbox assign: unexpected argument \"x\"; the group is read from stdin"),
        // partition
        (vec!["partition", "k"], "", "kafka-sandbox partition: missing --partitions N"),
        (vec!["partition", "--partitions", "0", "k"], "", "invalid partition count \"0\": expected a whole number from 1 to 2147483647"),
        (
            vec!["partition", "--partitions", "2147483648", "k"],
            "",
            "invalid partition count \"2147483648\": expected a whole number from 1 to 2147483647",
        ),
        (vec!["partition", "--partitions"], "", "kafka-sandbox partition: --partitions needs a value"),
        (vec!["partition", "-p", "4", "-x"], "", "kafka-sandbox partition: unknown option \"-x\" (put -- before keys that begin with '-')"),
        (vec!["partition", "-p", "4"], "", "kafka-sandbox partition: no keys given"),
        (vec!["partition", "-p", "4", "--partitions=5", "k"], "", "kafka-sandbox partition: --partitions given more than once"),
    ];
    let mut wrong = Vec::new();
    for (args, stdin, expected) in &cases {
        let out = sandbox(args, stdin);
        let err = text(&out.stderr);
        if out.status.code() != Some(2) || !out.stdout.is_empty() || !err.contains(expected) {
            wrong.push(format!(
                "{args:?}: exit {:?}, stdout {} bytes, stderr {err:?}\n  expected {expected:?}",
                out.status.code(),
                out.stdout.len()
            ));
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// A 20,000-record run prints a summary a person reads (counts, offset ranges, the first
/// and last values), not 20,000 values; `--json` keeps the full lists.
#[test]
fn run_prints_a_readable_summary_and_keeps_the_full_lists_for_json() {
    let dir = std::env::temp_dir().join(format!("ks-cli-summary-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("big.json");
    let values: Vec<String> = (0..20_000).map(|i| format!("v{i}")).collect();
    let scenario = serde_json::json!({
        "version": 1, "name": "big", "seed": 1,
        "cluster": { "group_initial_rebalance_delay_ms": 0 },
        "topics": [{ "name": "t", "partitions": 1 }],
        "producers": [{ "name": "p", "send": [{ "topic": "t", "values": values, "start_ms": 5000, "interval_ms": 1 }] }],
        "groups": [{ "id": "g", "topics": ["t"], "config": { "auto_offset_reset": "earliest" }, "members": [{ "client_id": "c" }] }],
        "duration_ms": 400000
    });
    std::fs::write(&path, scenario.to_string()).unwrap();
    let path = path.to_str().unwrap();
    let out = sandbox(&["run", path], "");
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let summary = text(&out.stdout);
    assert!(summary.len() < 4_000, "{} bytes:\n{summary}", summary.len());
    assert!(summary.contains("  partition 0: offsets 0..20000 (HW 20000), 20000 records: v0 v1 v2 … v19997 v19998 v19999"), "{summary}");
    assert!(
        summary.contains(
            "  c [t-0]: 20000 received, the newest 1000 kept (t-0 offsets 19000 to 19999): v19000 v19001 v19002 … v19997 v19998 v19999"
        ),
        "{summary}"
    );
    let out = sandbox(&["run", path, "--json"], "");
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let records = report["topics"][0]["partitions"][0]["records"].as_array().unwrap();
    assert_eq!(records.len(), 20_000);
    assert_eq!(records[19_999]["value"], "v19999");
    let member = &report["groups"][0]["members"][0];
    assert_eq!(member["received_total"], 20_000);
    let received = member["received"].as_array().unwrap();
    assert_eq!(received.len(), 20_000, "every delivery");
    assert_eq!((received[0]["value"].as_str(), received[0]["offset"].as_u64()), (Some("v0"), Some(0)));
    let _ = std::fs::remove_dir_all(&dir);
}

/// A run that reaches `--max-events` prints the summary of where it stopped, says so on
/// stderr and exits with 3; `--until` is honoured up to one simulated week.
#[test]
fn run_stops_at_the_event_limit_with_exit_code_3() {
    let out = sandbox(&["run", "builtin:two-groups", "--max-events", "50"], "");
    assert_eq!(out.status.code(), Some(3), "{}", text(&out.stderr));
    assert!(text(&out.stdout).starts_with("Two groups read the same topic: seed 42, ran to "));
    assert!(text(&out.stderr).contains("after 50 events, before 12000 ms; raise --max-events to run further"), "{}", text(&out.stderr));
    let out = sandbox(&["run", "builtin:two-groups", "--until", "2000"], "");
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(text(&out.stdout).contains("ran to 2000 ms"));
}

#[test]
fn assign_input_that_is_not_utf8_is_refused() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_kafka-sandbox"))
        .arg("assign")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(b"{\"strategy\": \"\xff\"}").unwrap();
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
    assert_eq!(text(&out.stderr), "kafka-sandbox assign: the input is not UTF-8 text (invalid byte at offset 14)\n");
}

/// `lesson check` passes every built-in lesson; a lesson whose claim disagrees fails with
/// exit code 4 and names the step and both values; `show` prints the computed answers.
#[test]
fn lesson_check_show_and_list() {
    let out = sandbox(&["lesson", "check"], "");
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stdout));
    let report = text(&out.stdout);
    assert!(report.contains("ok    01-topics-partitions: "), "{report}");
    assert!(!report.contains("FAIL"), "{report}");

    let mut lesson: serde_json::Value = serde_json::from_str(kafka_sandbox_core::lesson::BUILT_IN[0].1).unwrap();
    lesson["steps"][2]["claims"][0]["expect"] = serde_json::json!(["m1", "m2"]);
    let path = std::env::temp_dir().join(format!("kafka-sandbox-wrong-lesson-{}.json", std::process::id()));
    std::fs::write(&path, lesson.to_string()).unwrap();
    let out = sandbox(&["lesson", "check", path.to_str().unwrap()], "");
    let _ = std::fs::remove_file(&path);
    assert_eq!(out.status.code(), Some(4));
    let report = text(&out.stdout);
    assert!(report.contains("FAIL"), "{report}");
    assert!(report.contains(r#"steps[2] (step 3).claims[0] at 4500 ms: the records of Topic01-0: the lesson says ["m1","m2"], the simulation gives ["m1","m5"]"#), "{report}");

    let out = sandbox(&["lesson", "show", "topics-partitions", "--lang", "zh"], "");
    assert_eq!(out.status.code(), Some(0));
    let shown = text(&out.stdout);
    assert!(shown.starts_with("# 消息、主题与分区 (topics-partitions)"), "{shown}");
    assert!(shown.contains("    → P1\n"), "the computed answer is marked: {shown}");
    assert!(!shown.contains('✗'), "{shown}");

    let out = sandbox(&["lesson", "list"], "");
    assert!(text(&out.stdout).starts_with("topics-partitions\tMessages, topics and partitions\t消息、主题与分区\n"));

    let out = sandbox(&["lesson", "show", "nope"], "");
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
    assert!(text(&out.stderr).contains("no built-in lesson \"nope\" (there are: topics-partitions, "), "{}", text(&out.stderr));
    let out = sandbox(&["lesson", "show", "topics-partitions", "--lang", "fr"], "");
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("--lang takes en or zh, not \"fr\""));
}

/// Differential vectors computed by Kafka's own assignors (tests/vectors/README.md): each
/// line is an `assign` input plus `label` and `expect`, Kafka's leader's assignment. Runs
/// each through `assign` in-process and stops at the first difference, printing it.
#[test]
fn assign_matches_kafka_vectors() {
    use std::collections::BTreeMap;
    type Assignment = BTreeMap<String, BTreeMap<String, Vec<u32>>>;
    let vectors = include_str!("vectors/client-assignors.jsonl");
    let mut per_strategy: BTreeMap<String, usize> = BTreeMap::new();
    for (n, line) in vectors.lines().enumerate() {
        let mut case: serde_json::Value = serde_json::from_str(line).unwrap();
        let object = case.as_object_mut().unwrap();
        let expect: Assignment = serde_json::from_value(object.remove("expect").unwrap()).unwrap();
        let label = object.remove("label").unwrap();
        let strategy = object["strategy"].as_str().unwrap().to_string();
        let input = case.to_string();
        let (mut out, mut err) = (Vec::new(), Vec::new());
        let code = kafka_sandbox::cli_assign::assign_command(&[], &mut input.as_bytes(), &mut out, &mut err);
        assert_eq!(code, 0, "line {}: {label}: {}\ninput: {input}", n + 1, text(&err));
        let got: Assignment = serde_json::from_slice(&out).unwrap();
        if got != expect {
            let mut diff = String::new();
            for member in expect.keys().chain(got.keys()).collect::<std::collections::BTreeSet<_>>() {
                let (e, g) = (expect.get(member), got.get(member));
                if e != g {
                    diff += &format!("  {member}:\n    Kafka:   {e:?}\n    sandbox: {g:?}\n");
                }
            }
            panic!("line {} ({strategy}, {label}) differs from Kafka:\n{diff}input: {input}", n + 1);
        }
        *per_strategy.entry(strategy).or_default() += 1;
    }
    for strategy in ["range", "roundrobin", "sticky", "cooperative-sticky"] {
        assert!(per_strategy.get(strategy).copied().unwrap_or(0) >= 200, "{per_strategy:?}");
    }
}

/// KIP-848's broker-side assignors: the audit's scale-out, as Kafka's own UniformAssignor
/// computes it (`tests/vectors/server-assignors.jsonl`, first line).
#[test]
fn assign_consumer_protocol_uniform_matches_kafka() {
    let line = std::fs::read_to_string("tests/vectors/server-assignors.jsonl").unwrap();
    let first: serde_json::Value = serde_json::from_str(line.lines().next().unwrap()).unwrap();
    let mut input = first.clone();
    let obj = input.as_object_mut().unwrap();
    obj.remove("expect");
    obj.remove("note");
    let out = sandbox(&["assign"], &input.to_string());
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let got: serde_json::Value = serde_json::from_str(&text(&out.stdout)).unwrap();
    assert_eq!(got, first["expect"]);
}

#[test]
fn assign_consumer_protocol_refusals_name_the_field() {
    let base = r#"{"protocol":"consumer","strategy":"STRATEGY","topics":{"t":2},"topic_ids":{"t":"ID"},
        "members":[{"member_id":"a","subscription":["t"],"owned":[["t",OWNED]]},{"member_id":"b","subscription":["t"]}]}"#;
    let with = |strategy: &str, id: &str, owned: &str| base.replace("STRATEGY", strategy).replace("ID", id).replace("OWNED", owned);
    let ok = sandbox(&["assign"], &with("range", "dLccQCXeGjwzN5MNSgPv5Q", "1"));
    assert_eq!(ok.status.code(), Some(0), "{}", text(&ok.stderr));
    assert_eq!(text(&ok.stdout), "{\"a\":{\"t\":[0]},\"b\":{\"t\":[1]}}\n");
    for (input, needle) in [
        (with("sticky", "dLccQCXeGjwzN5MNSgPv5Q", "0"), "\"strategy\": \"sticky\" is not a broker-side assignor"),
        (with("uniform", "not-an-id", "0"), "\"topic_ids\".\"t\": \"not-an-id\" is not a topic id"),
        (with("uniform", "AAAAAAAAAAAAAAAAAAAAAA", "0"), "Kafka reserves the zero id"),
        (with("uniform", "dLccQCXeGjwzN5MNSgPv5Q", "2"), "members[0].owned: t-2 does not exist"),
        (
            with("uniform", "dLccQCXeGjwzN5MNSgPv5Q", "0").replace("\"protocol\":\"consumer\"", "\"protocol\":\"eager\""),
            "\"protocol\": \"eager\"",
        ),
        (with("range", "dLccQCXeGjwzN5MNSgPv5Q", "0").replace("\"protocol\":\"consumer\",", ""), "\"topic_ids\" and \"seed\" belong to"),
    ] {
        let out = sandbox(&["assign"], &input);
        assert_eq!(out.status.code(), Some(2), "{input}");
        assert!(out.stdout.is_empty());
        assert!(text(&out.stderr).contains(needle), "{input}: {}", text(&out.stderr));
    }
}

/// `bridge` prints the compose file and the steps with the sandbox's predictions, and
/// writes the compose file with `--compose`; a bad scenario exits 2 with nothing printed.
#[test]
fn bridge_prints_what_to_run_on_real_kafka() {
    let dir = std::env::temp_dir().join(format!("ks-cli-bridge-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let compose = dir.join("compose.yaml");
    let out = sandbox(&["bridge", "builtin:two-groups", "--compose", compose.to_str().unwrap()], "");
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let printed = text(&out.stdout);
    assert!(printed.starts_with("# compose.yaml (apache/kafka:4.2.0)\n"), "{printed}");
    assert!(printed.contains("kafka-topics.sh --bootstrap-server kafka-0:19092,kafka-1:19092,kafka-2:19092 --create --topic Topic01"));
    assert!(printed.contains("#   sandbox: Consumer1 of ConsumerGroup01 owns [Topic01-0, Topic01-2] and receives 4 records: m1 m3 m5 m7"));
    assert!(printed.contains(
        "kafka-consumer-groups.sh --bootstrap-server kafka-0:19092,kafka-1:19092,kafka-2:19092 --describe --group ConsumerGroup02"
    ));
    let written = std::fs::read_to_string(&compose).unwrap();
    assert!(printed.contains(&written), "the file is the printed compose");
    let bad = sandbox(&["bridge", "builtin:nope"], "");
    assert_eq!(bad.status.code(), Some(2));
    assert!(bad.stdout.is_empty() && text(&bad.stderr).contains("no built-in scenario \"nope\""));
    let _ = std::fs::remove_dir_all(&dir);
}
