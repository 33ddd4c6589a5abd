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
    child
        .stdin
        .take()
        .unwrap()
        .write_all(stdin.as_bytes())
        .unwrap();
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
    assert_eq!(
        text(&out.stdout),
        "{\"c1\":{\"t1\":[0]},\"c2\":{\"t1\":[1],\"t2\":[0,1]},\"c3\":{\"t1\":[2]},\"c4\":{}}\n"
    );
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
    assert_eq!(
        text(&first.stdout),
        "{\"consumer1\":{\"topic1\":[0]},\"consumer2\":{\"topic1\":[1],\"topic2\":[1]},\"consumer3\":{}}\n"
    );
    let second_input = S3
        .replace("STRATEGY", "cooperative-sticky")
        .replace(r#"[["topic1", 0], ["topic2", 0]]"#, r#"[["topic1", 0]]"#);
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
        assert_eq!(
            text(&out.stdout),
            "{\"c1\":{\"t1\":[0,2],\"t2\":[1]},\"c2\":{\"t1\":[1],\"t2\":[0,2]}}\n",
            "{name}"
        );
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
    assert!(text(&out.stderr)
        .contains("Skipping assignment for topic ghost since no metadata is available"));
}

/// kafka-semantics §8: "key1" % 4 = 0, "key2" % 4 = 3, "key3" % 4 = 1, "" % 4 = 1.
#[test]
fn partition_keys_match_the_table() {
    let out = sandbox(
        &["partition", "--partitions", "4", "key1", "key2", "key3", ""],
        "",
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout), "0\n3\n1\n1\n");
    // The same keys % 3 and % 6 (the other columns of the table).
    let out = sandbox(
        &[
            "partition",
            "--partitions=3",
            "key1",
            "key2",
            "key3",
            "",
            "a",
            "kafka",
        ],
        "",
    );
    assert_eq!(text(&out.stdout), "2\n2\n1\n0\n1\n1\n");
    let out = sandbox(&["partition", "--partitions", "6", "foobar", "abc"], "");
    assert_eq!(text(&out.stdout), "0\n3\n");
}

#[test]
fn partition_double_dash_allows_dash_keys() {
    let out = sandbox(
        &[
            "partition",
            "--partitions",
            "1000",
            "--",
            "-x",
            "--partitions",
        ],
        "",
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let lines: Vec<u32> = text(&out.stdout)
        .lines()
        .map(|l| l.parse().unwrap())
        .collect();
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
