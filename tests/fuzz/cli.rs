//! The command-line tool's inputs, through the library functions the binary calls:
//! `assign`'s JSON on stdin, `partition`'s arguments, and `run`'s arguments, built-in
//! names and scenario text (run for a bounded number of events, with its trace).

use super::support::{all_nodes, apply_edits, apply_text_edits, bounded, edit, fuzz, mutant, seed_values, text_edit};
use kafka_sandbox::{cli_assign, cli_partition, run};
use kafka_sandbox_core::scenario::{Scenario, MAX_TIME_MS};
use proptest::prelude::*;
use proptest::sample::select;
use serde_json::{json, Value};
use std::collections::{BTreeMap, BTreeSet};

// ----- assign ----------------------------------------------------------------

fn name() -> impl Strategy<Value = String> {
    prop_oneof![
        8 => select(vec!["t0", "t1", "t2", "c0", "c1", "c2", "c3"]).prop_map(str::to_string),
        1 => select(vec!["", "ghost", "T0", "😀", "\u{e000}", "\u{0}", "<b>", "t0 "]).prop_map(str::to_string),
        1 => ".{0,5}",
    ]
}

/// A partition count: mostly small, sometimes at or past the limits or of the wrong type.
fn count() -> impl Strategy<Value = Value> {
    prop_oneof![
        20 => (0u32..9).prop_map(Value::from),
        1 => select(vec![json!(1_000_001), json!(u32::MAX), json!(4_294_967_296u64), json!(-1), json!(2.5), json!("3"), Value::Null]),
    ]
}

fn member() -> impl Strategy<Value = Value> {
    let generation =
        select(vec![Value::Null, json!(-1), json!(0), json!(1), json!(2), json!(i32::MAX), json!(i32::MIN), json!(2_147_483_648u64)]);
    let partition = prop_oneof![8 => (0u32..9).prop_map(Value::from), 1 => select(vec![json!(u32::MAX), json!(-1)])];
    (
        name(),
        proptest::option::of(name()),
        proptest::collection::vec(name(), 0..4),
        proptest::option::of(proptest::collection::vec((name(), partition), 0..6)),
        proptest::option::of(generation),
    )
        .prop_map(|(id, instance, subscription, owned, generation)| {
            let mut m = json!({ "member_id": id, "subscription": subscription });
            if let Some(i) = instance {
                m["group_instance_id"] = json!(i);
            }
            if let Some(o) = owned {
                m["owned"] = Value::Array(o.into_iter().map(|(t, p)| json!([t, p])).collect());
            }
            if let Some(g) = generation {
                m["generation"] = g;
            }
            m
        })
}

fn group() -> impl Strategy<Value = Value> {
    let strategy = prop_oneof![
        8 => select(vec!["range", "roundrobin", "sticky", "cooperative-sticky"]),
        1 => select(vec!["RANGE", "", "fair", "cooperative_sticky", "range "]),
    ];
    (strategy, proptest::collection::btree_map(name(), count(), 0..4), proptest::collection::vec(member(), 0..7))
        .prop_map(|(s, topics, members)| json!({ "strategy": s, "topics": topics, "members": members }))
}

/// A group document, sometimes mutated as a JSON value and as text.
fn assign_input() -> impl Strategy<Value = String> {
    (
        group(),
        prop_oneof![3 => Just(Vec::new()), 1 => proptest::collection::vec((any::<usize>(), edit()), 1..3)],
        prop_oneof![5 => Just(Vec::new()), 1 => proptest::collection::vec(text_edit(), 1..3)],
    )
        .prop_map(|(mut doc, edits, text_edits)| {
            let donors = all_nodes(std::slice::from_ref(&doc));
            apply_edits(&mut doc, &edits, &donors);
            let mut text = doc.to_string();
            apply_text_edits(&mut text, &text_edits);
            text
        })
}

type Assignment = BTreeMap<String, BTreeMap<String, Vec<u32>>>;

fn check_assign(input: &str) -> Result<(), TestCaseError> {
    let (mut out, mut err) = (Vec::new(), Vec::new());
    let code = cli_assign::assign_command(&[], &mut input.as_bytes(), &mut out, &mut err);
    let (out, err) = (String::from_utf8_lossy(&out).into_owned(), String::from_utf8_lossy(&err).into_owned());
    match code {
        0 => {
            prop_assert!(out.ends_with('\n') && out.lines().count() == 1, "not one line: {out:?}");
            prop_assert!(err.lines().all(|l| l.starts_with("warning: ")), "stderr: {err:?}");
            let got: Assignment = serde_json::from_str(&out).map_err(|e| TestCaseError::fail(format!("{e}: {out}")))?;
            let doc: Value = serde_json::from_str(input).map_err(|e| TestCaseError::fail(e.to_string()))?;
            let ids: BTreeSet<&str> = doc["members"].as_array().into_iter().flatten().filter_map(|m| m["member_id"].as_str()).collect();
            prop_assert_eq!(got.keys().map(String::as_str).collect::<BTreeSet<_>>(), ids, "every member appears, once");
            let mut taken = BTreeSet::new();
            for topics in got.values() {
                for (topic, partitions) in topics {
                    let count = doc["topics"][topic.as_str()].as_u64().unwrap_or(0);
                    prop_assert!(partitions.windows(2).all(|w| w[0] < w[1]), "not ascending: {partitions:?}");
                    for p in partitions {
                        prop_assert!(u64::from(*p) < count, "{topic}-{p} does not exist ({count} partitions)");
                        prop_assert!(taken.insert((topic.clone(), *p)), "{topic}-{p} given twice");
                    }
                }
            }
        }
        2 => {
            prop_assert!(out.is_empty(), "stdout on error: {out:?}");
            prop_assert!(err.starts_with("kafka-sandbox assign: ") && err.len() > 23, "stderr: {err:?}");
        }
        other => prop_assert!(false, "exit code {other}"),
    }
    Ok(())
}

#[test]
fn cli_assign_json() {
    fuzz("cli_assign_json", 1_500, assign_input(), |input| bounded(|| check_assign(&input))?);
}

// ----- partition -----------------------------------------------------------------

fn partition_args() -> impl Strategy<Value = Vec<String>> {
    let arg = prop_oneof![
        4 => select(vec![
            "--partitions", "-p", "--partitions=4", "--partitions=", "--", "-h", "--help", "-", "", "-x", "4", "1", "0",
            "-3", "2147483647", "2147483648", "4294967296", "99999999999999999999", "key", "😀", "+1", " 4", "4 ",
        ])
        .prop_map(str::to_string),
        1 => ".{0,6}",
    ];
    proptest::collection::vec(arg, 0..7)
}

#[test]
fn cli_partition_args() {
    fuzz("cli_partition_args", 3_000, partition_args(), |args| {
        let (mut out, mut err) = (Vec::new(), Vec::new());
        let code = cli_partition::partition_command(&args, &mut out, &mut err);
        let (out, err) = (String::from_utf8_lossy(&out), String::from_utf8_lossy(&err));
        match code {
            0 => {
                prop_assert!(err.is_empty(), "stderr: {err:?}");
                let help = out.starts_with("usage:");
                prop_assert!(help || out.lines().all(|l| l.parse::<u32>().is_ok()), "stdout: {out:?}");
            }
            2 => {
                prop_assert!(out.is_empty(), "stdout on error: {out:?}");
                prop_assert!(err.starts_with("kafka-sandbox partition: ") && err.contains("usage:"), "stderr: {err:?}");
            }
            other => prop_assert!(false, "exit code {other}"),
        }
        Ok(())
    });
}

// ----- run -------------------------------------------------------------------------

fn run_args() -> impl Strategy<Value = Vec<String>> {
    let arg = prop_oneof![
        4 => select(vec![
            "--until", "--trace", "--max-events", "-h", "--help", "x.json", "builtin:two-groups", "builtin:", "builtin:nope",
            "0", "1", "-1", "604800000", "604800001", "18446744073709551615", "18446744073709551616", "1e3", "", "-", "--",
        ])
        .prop_map(str::to_string),
        1 => ".{0,6}",
    ];
    proptest::collection::vec(arg, 0..6)
}

#[test]
fn cli_run_args_and_builtin_names() {
    fuzz("cli_run_args_and_builtin_names", 3_000, (run_args(), ".{0,12}"), |(args, name)| {
        match run::parse(&args) {
            Ok(o) => {
                prop_assert!(o.until.is_none_or(|ms| ms <= MAX_TIME_MS), "--until {:?} accepted", o.until);
                prop_assert!(o.max_events >= 1);
            }
            Err(e) => prop_assert!(e.is_empty() || e.len() > 8, "unclear: {e:?}"),
        }
        if let Err(e) = run::load(&format!("builtin:{name}")) {
            prop_assert!(e.contains("no built-in scenario"), "{e}");
        }
        Ok(())
    });
}

/// The scenario text as `run` reads it, run to a random stop with a small event budget
/// and its trace written: the trace is JSON lines with consecutive `seq` and growing time,
/// and the summary is printed.
#[test]
fn cli_run_scenario() {
    let seeds = seed_values();
    let stop = prop_oneof![Just(None), select(vec![0u64, 1, 1000, 7_500, MAX_TIME_MS]).prop_map(Some)];
    let budget = select(vec![1u64, 10, 300]);
    fuzz("cli_run_scenario", 150, (mutant(), stop, budget), |(m, stop, budget)| {
        let text = m.render(&seeds);
        let Ok(scenario) = bounded(|| Scenario::from_json(&text))? else { return Ok(()) };
        let until = stop.unwrap_or_else(|| scenario.end_ms());
        let mut trace = Vec::new();
        let finished = bounded(|| run::simulate(&scenario, until, budget, Some(&mut trace)))?;
        let finished = finished.map_err(|e| TestCaseError::fail(e.to_string()))?;
        prop_assert!(finished.sim.steps() <= budget);
        prop_assert!(finished.complete || finished.sim.steps() == budget);
        let mut time = 0;
        for (i, line) in String::from_utf8_lossy(&trace).lines().enumerate() {
            let e: Value = serde_json::from_str(line).map_err(|e| TestCaseError::fail(format!("{e}: {line}")))?;
            prop_assert_eq!(e["seq"].as_u64(), Some(i as u64), "{}", line);
            let t = e["time"].as_u64().unwrap_or(0);
            prop_assert!(t >= time && e["type"].is_string(), "{}", line);
            time = t;
        }
        let summary = run::summary(&scenario, &finished.sim);
        prop_assert!(summary.ends_with('\n') && summary.contains("guarantee monitors:"), "{summary}");
        let report = run::full_report(&scenario, &finished.sim);
        prop_assert!(report["topics"].is_array() && report["groups"].is_array());
        Ok(())
    });
}
