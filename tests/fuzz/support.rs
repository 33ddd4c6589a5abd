//! The fuzz runner (case count and seed from the environment), the seed documents, the
//! interesting values, and the mutations applied to JSON documents and their text.

use proptest::prelude::*;
use proptest::test_runner::{Config, RngAlgorithm, TestCaseResult, TestRng, TestRunner};
use serde_json::Value;
use std::fmt::Debug;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::OnceLock;
use std::time::Instant;

/// How many cases a target runs: `FUZZ_CASES` for all of them, else the target's short
/// default (the CI pass takes a few seconds in all).
pub fn cases(default: u32) -> u32 {
    std::env::var("FUZZ_CASES").ok().and_then(|s| s.parse().ok()).unwrap_or(default)
}

/// The seed of the random inputs: `FUZZ_SEED` (a number, or `random` for a new one each
/// run), else a fixed seed per target, so the suite run by CI is the same every time (a
/// failure there is a bug to fix, never luck). Exploring with `FUZZ_SEED=random` and many
/// cases finds new inputs; the seed is printed either way, so a failure can be run again.
fn seed(name: &str) -> u64 {
    match std::env::var("FUZZ_SEED").ok().as_deref() {
        Some("random") => {
            let nanos = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_nanos() as u64).unwrap_or(0);
            nanos ^ u64::from(std::process::id()).rotate_left(32)
        }
        Some(s) if s.parse::<u64>().is_ok() => s.parse().unwrap_or(0),
        // FNV-1a of the target's name.
        _ => name.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)),
    }
}

/// Runs `test` on `cases(default_cases)` inputs drawn from `strategy`. A failing or
/// panicking case is shrunk and reported with the seed that draws it again. Prints the
/// count and the time taken (shown with `--nocapture`); nothing asserts on the time.
pub fn fuzz<S>(name: &str, default_cases: u32, strategy: S, test: impl Fn(S::Value) -> TestCaseResult)
where
    S: Strategy,
    S::Value: Debug,
{
    let cases = cases(default_cases);
    let seed = seed(name);
    let mut key = [0u8; 32];
    key[..8].copy_from_slice(&seed.to_le_bytes());
    let config = Config { cases, failure_persistence: None, ..Config::default() };
    let mut runner = TestRunner::new_with_rng(config, TestRng::from_seed(RngAlgorithm::ChaCha, &key));
    let ran = AtomicU64::new(0);
    let start = Instant::now();
    // Long runs say how far they are, every tenth of the way.
    let every = u64::from(cases / 10).max(100_000);
    let result = runner.run(&strategy, |v| {
        let n = ran.fetch_add(1, Ordering::Relaxed) + 1;
        if n % every == 0 {
            eprintln!("fuzz {name}: {n} of {cases} inputs, {:.0} s", start.elapsed().as_secs_f64());
        }
        test(v)
    });
    let ran = ran.into_inner();
    eprintln!("fuzz {name}: {ran} inputs in {:.1} s (FUZZ_SEED={seed})", start.elapsed().as_secs_f64());
    if let Err(e) = result {
        panic!("fuzz {name} failed; run it again with FUZZ_SEED={seed} FUZZ_CASES={cases} cargo test --test fuzz {name}\n{e}");
    }
}

/// Runs the code under test and fails the case if it allocated more than
/// `FUZZ_MAX_CASE_MB` (default 512) at its peak: input that makes the code allocate
/// without limit is found and shrunk like a panic. (Making the input is not counted.)
pub fn bounded<T>(code: impl FnOnce() -> T) -> Result<T, TestCaseError> {
    let max_bytes = std::env::var("FUZZ_MAX_CASE_MB").ok().and_then(|s| s.parse::<isize>().ok()).unwrap_or(512) << 20;
    let live = crate::live_now();
    crate::peak_reset();
    let out = code();
    let peak = crate::peak_since(live);
    prop_assert!(peak <= max_bytes, "the code under test allocated {} MiB at its peak; the bound is {} MiB", peak >> 20, max_bytes >> 20);
    Ok(out)
}

// ----- seed documents ------------------------------------------------------

/// Committed inputs worth starting from (every field and command; HTML in names).
const CORPUS: &[(&str, &str)] = &[
    ("every-feature", include_str!("../golden/every-feature.json")),
    ("html-names", include_str!("corpus/html-names.json")),
    // A source connector, two Streams apps (a count with its changelog, a map) and a push
    // group, with a connector crash and a Streams instance crash on the timeline.
    ("apps", include_str!("corpus/apps.json")),
    // Compacted topics (compact, compact,delete) with every cleaner setting, a tombstone
    // and a keyless record (refused) on the timeline (issue 19).
    ("compaction", include_str!("corpus/compaction.json")),
    // Transactions (issue 17): every transaction field and cluster setting, a commit with
    // sendOffsetsToTransaction, an abort, a crash and restart, a second instance, both
    // isolation levels and an exactly_once_v2 Streams count switched back.
    ("transactions", include_str!("corpus/transactions.json")),
];

/// Every complete scenario in the docs (```json blocks with a `version`): they tour the
/// format, so mutating them reaches most checks. Kept in step with the docs for free.
const DOCS: &[&str] = &[include_str!("../../docs/scenario-format.md"), include_str!("../../docs/cli.md")];

/// The scenarios mutations start from: the built-ins, the corpus and the docs' examples.
pub fn seed_scenarios() -> Vec<String> {
    let mut out: Vec<String> = kafka_sandbox_core::scenario::BUILT_IN.iter().map(|(_, t)| t.to_string()).collect();
    out.extend(CORPUS.iter().map(|(_, t)| t.to_string()));
    for doc in DOCS {
        for block in doc.split("```json\n").skip(1) {
            let Some((json, _)) = block.split_once("```") else { continue };
            if let Ok(Value::Object(map)) = serde_json::from_str::<Value>(json) {
                if map.contains_key("version") {
                    out.push(json.to_string());
                }
            }
        }
    }
    out
}

/// The seed scenarios as JSON values, and all their nodes (for grafts).
pub struct Seeds {
    pub docs: Vec<Value>,
    pub nodes: Vec<Value>,
}

/// Seeds from other documents (the built-in lessons), with their nodes to graft.
pub fn seeds_from(docs: Vec<Value>) -> Seeds {
    let nodes = all_nodes(&docs);
    Seeds { docs, nodes }
}

pub fn seed_values() -> Seeds {
    let docs: Vec<Value> = seed_scenarios().iter().filter_map(|t| serde_json::from_str(t).ok()).collect();
    let nodes = all_nodes(&docs);
    Seeds { docs, nodes }
}

// ----- interesting values --------------------------------------------------

/// Numbers at and around every limit, the integer widths, and JSON's odd corners.
pub fn numbers() -> &'static [Value] {
    static NUMBERS: OnceLock<Vec<Value>> = OnceLock::new();
    NUMBERS.get_or_init(make_numbers)
}

fn make_numbers() -> Vec<Value> {
    let mut v: Vec<Value> = [
        0i64,
        1,
        2,
        3,
        4,
        5,
        7,
        12,
        13,
        14,
        15,
        16,
        17,
        32,
        33,
        49,
        50,
        63,
        64,
        65,
        100,
        255,
        256,
        257,
        500,
        1000,
        1024,
        1025,
        5000,
        9999,
        10_000,
        10_001,
        16384,
        60_000,
        60_001,
        100_000,
        100_001,
        300_000,
        300_001,
        1_000_000,
        1_000_001,
        1_048_576,
        3_600_000,
        3_600_001,
        16_777_216,
        16_777_217,
        604_800_000,
        604_800_001,
        1_000_000_000,
        1_000_000_000_000_000,
        i64::from(i32::MAX),
        i64::from(i32::MAX) + 1,
        i64::from(u32::MAX),
        i64::from(u32::MAX) + 1,
        1 << 53,
        (1 << 53) + 1,
        i64::MAX,
        -1,
        -2,
        i64::from(i32::MIN),
        i64::MIN,
    ]
    .iter()
    .map(|n| Value::from(*n))
    .collect();
    v.extend([u64::MAX, u64::MAX - 1, 1u64 << 63].iter().map(|n| Value::from(*n)));
    v.extend([0.5, -0.0, 1.0, 1e15, 1e300, -1e300, 1e-7, 2.5e9].iter().map(|f| Value::from(*f)));
    v
}

/// Strings: empty, at and over the length limits, control characters, HTML, surrogate
/// pairs, and every enum spelling of the format (so a mutation can land on a valid one).
pub fn strings() -> &'static [Value] {
    static STRINGS: OnceLock<Vec<Value>> = OnceLock::new();
    STRINGS.get_or_init(make_strings)
}

fn make_strings() -> Vec<Value> {
    let mut v: Vec<String> = [
        "",
        " ",
        "a",
        "t",
        "x y",
        "\u{0}",
        "\n",
        "\u{7f}",
        "\u{200b}",
        "\u{feff}",
        "😀",
        "\u{fffd}",
        "é",
        "\\",
        "\"",
        "<img src=x onerror=alert(1)>",
        "<script>alert(1)</script>",
        "${jndi:ldap://x}",
        "../../etc/passwd",
        "NaN",
        "range",
        "roundrobin",
        "sticky",
        "cooperative-sticky",
        "Range",
        "0",
        "1",
        "all",
        "-1",
        "earliest",
        "latest",
        "none",
        "built_in",
        "round_robin",
        "CreateTime",
        "LogAppendTime",
        "auto",
        "sync_after_processing",
        "async_after_processing",
        "before_processing",
        "produce",
        "add_member",
        "remove_member",
        "crash_member",
        "restart_member",
        "pause_member",
        "set_processing",
        "set_commit_mode",
        "add_group",
        "set_partitioner",
        "add_partitions",
        "crash_broker",
        "restart_broker",
        "isolate_broker",
        "heal_broker",
        "slow_broker",
        "set_acks",
        "set_topic_config",
        "set_assignor",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    v.extend(["n".repeat(64), "n".repeat(65), "v".repeat(1024), "v".repeat(1025), "😀".repeat(64), "😀".repeat(65)]);
    v.into_iter().map(Value::from).collect()
}

/// Field names of the format (and near misses), for mutations that add a field.
pub const FIELDS: &[&str] = &[
    "version",
    "name",
    "description",
    "seed",
    "cluster",
    "topics",
    "producers",
    "groups",
    "commands",
    "duration_ms",
    "brokers",
    "network_latency_ms",
    "replica_lag_time_max_ms",
    "replica_fetch_wait_max_ms",
    "broker_session_timeout_ms",
    "group_initial_rebalance_delay_ms",
    "log_retention_check_interval_ms",
    "partitions",
    "replication_factor",
    "min_insync_replicas",
    "unclean_leader_election_enable",
    "message_timestamp_type",
    "retention_ms",
    "retention_bytes",
    "segment_bytes",
    "segment_ms",
    "cleanup_policy",
    "min_cleanable_dirty_ratio",
    "min_compaction_lag_ms",
    "max_compaction_lag_ms",
    "delete_retention_ms",
    "log_cleaner_backoff_ms",
    "offsets_topic_segment_bytes",
    "config",
    "send",
    "partitioner",
    "linger_ms",
    "batch_size",
    "acks",
    "enable_idempotence",
    "retries",
    "retry_backoff_ms",
    "retry_backoff_max_ms",
    "request_timeout_ms",
    "delivery_timeout_ms",
    "max_in_flight_requests_per_connection",
    "topic",
    "values",
    "keys",
    "start_ms",
    "interval_ms",
    "id",
    "members",
    "assignor",
    "auto_offset_reset",
    "client_id",
    "group_instance_id",
    "max_poll_records",
    "fetch_max_wait_ms",
    "auto_commit_interval_ms",
    "processing_ms",
    "commit_mode",
    "heartbeat_interval_ms",
    "session_timeout_ms",
    "max_poll_interval_ms",
    "metadata_max_age_ms",
    "at_ms",
    "command",
    "type",
    "producer",
    "key",
    "value",
    "partition",
    "headers",
    "group",
    "member",
    "paused",
    "broker",
    "slow_ms",
    "strategy",
    "member_id",
    "subscription",
    "owned",
    "generation",
    "partitons",
    "extra",
    "",
];

/// How many elements an array may be grown to: a few, just past each limit, and far past.
pub const REPEATS: &[usize] = &[2, 3, 13, 17, 33, 65, 257, 5_000, 100_001];
/// Most JSON nodes one repeat may create (100,001 strings, or fewer larger elements).
const REPEAT_NODES: usize = 100_001;

// ----- mutations -------------------------------------------------------------

/// One change to a JSON document, at the node `at` (an index into its nodes, modulo).
#[derive(Clone, Debug)]
pub enum Edit {
    /// Replace with an interesting number (index into [`numbers`]).
    Number(usize),
    /// Replace with an interesting string (index into [`strings`]).
    Text(usize),
    /// Replace with one of the strings the document itself holds (keeps references valid).
    Reuse(usize),
    Bool(bool),
    Null,
    EmptyArray,
    EmptyObject,
    /// Remove the node from its object or array.
    Remove,
    /// Grow an array by copies of its first element (index into [`REPEATS`]).
    Repeat(usize),
    /// Add a field (index into [`FIELDS`]) holding a number or string (index into both).
    AddField(usize, usize),
    /// Replace with a node of another seed document (index into all their nodes).
    Graft(usize),
}

pub fn edit() -> impl Strategy<Value = Edit> {
    prop_oneof![
        120 => any::<usize>().prop_map(Edit::Number),
        60 => any::<usize>().prop_map(Edit::Text),
        60 => any::<usize>().prop_map(Edit::Reuse),
        20 => any::<bool>().prop_map(Edit::Bool),
        20 => Just(Edit::Null),
        20 => Just(Edit::EmptyArray),
        20 => Just(Edit::EmptyObject),
        60 => Just(Edit::Remove),
        40 => (0..REPEATS.len() - 1).prop_map(Edit::Repeat),
        // The largest repeat makes megabytes of text (refused before parsing): rarely.
        1 => Just(Edit::Repeat(REPEATS.len() - 1)),
        60 => (any::<usize>(), any::<usize>()).prop_map(|(f, v)| Edit::AddField(f, v)),
        60 => any::<usize>().prop_map(Edit::Graft),
    ]
}

/// Every node of `docs` (subtrees cloned), in document order: what grafts draw from.
pub fn all_nodes(docs: &[Value]) -> Vec<Value> {
    fn walk(v: &Value, out: &mut Vec<Value>) {
        out.push(v.clone());
        match v {
            Value::Object(map) => map.values().for_each(|c| walk(c, out)),
            Value::Array(items) => items.iter().for_each(|c| walk(c, out)),
            _ => {}
        }
    }
    let mut out = Vec::new();
    docs.iter().for_each(|d| walk(d, &mut out));
    out
}

fn strings_in(v: &Value, out: &mut Vec<String>) {
    match v {
        Value::String(s) => out.push(s.clone()),
        Value::Array(items) => items.iter().for_each(|i| strings_in(i, out)),
        Value::Object(map) => map.values().for_each(|i| strings_in(i, out)),
        _ => {}
    }
}

/// How many nodes of `v` (itself included) satisfy `pred`.
fn count(v: &Value, pred: &dyn Fn(&Value) -> bool) -> usize {
    let own = usize::from(pred(v));
    own + match v {
        Value::Object(map) => map.values().map(|c| count(c, pred)).sum(),
        Value::Array(items) => items.iter().map(|c| count(c, pred)).sum(),
        _ => 0,
    }
}

/// Finds the `k`-th node satisfying `pred` (document order) and applies `act` to it, or
/// with `remove` takes it out of its parent (the root is never removed). True once done.
fn visit(v: &mut Value, pred: &dyn Fn(&Value) -> bool, k: &mut usize, remove: bool, act: &mut dyn FnMut(&mut Value)) -> bool {
    if pred(v) {
        if *k == 0 {
            if !remove {
                act(v);
            }
            return true;
        }
        *k -= 1;
    }
    let hit = |c: &Value, k: &usize| pred(c) && *k == 0;
    match v {
        Value::Object(map) => {
            let keys: Vec<String> = map.keys().cloned().collect();
            for key in keys {
                if remove && map.get(&key).is_some_and(|c| hit(c, k)) {
                    map.remove(&key);
                    return true;
                }
                if map.get_mut(&key).is_some_and(|c| visit(c, pred, k, remove, act)) {
                    return true;
                }
            }
        }
        Value::Array(items) => {
            for i in 0..items.len() {
                if remove && hit(&items[i], k) {
                    items.remove(i);
                    return true;
                }
                if visit(&mut items[i], pred, k, remove, act) {
                    return true;
                }
            }
        }
        _ => {}
    }
    false
}

/// Applies `edits` (node index, edit) to `doc`; grafts take nodes from `donors`.
pub fn apply_edits(doc: &mut Value, edits: &[(usize, Edit)], donors: &[Value]) {
    let numbers = numbers();
    let strings = strings();
    for (at, edit) in edits {
        // Values mostly replace values of their own type (reaching the range checks);
        // one time in four they land anywhere (reaching the type errors).
        let same_type = |v: &Value| {
            matches!(
                (edit, v),
                (Edit::Number(_), Value::Number(_))
                    | (Edit::Text(_) | Edit::Reuse(_), Value::String(_))
                    | (Edit::Bool(_), Value::Bool(_))
                    | (Edit::Repeat(_), Value::Array(_))
                    | (Edit::AddField(..), Value::Object(_))
            )
        };
        let any = |_: &Value| true;
        let typed = count(doc, &same_type);
        let (pred, mut k): (&dyn Fn(&Value) -> bool, usize) =
            if at % 4 != 0 && typed > 0 { (&same_type, (at / 4) % typed) } else { (&any, at % count(doc, &any)) };
        let reused = if let Edit::Reuse(i) = edit {
            let mut own = Vec::new();
            strings_in(doc, &mut own);
            own.get(i % own.len().max(1)).cloned().map(Value::from)
        } else {
            None
        };
        let replacement = match edit {
            Edit::Number(i) => Some(numbers[i % numbers.len()].clone()),
            Edit::Text(i) => Some(strings[i % strings.len()].clone()),
            Edit::Reuse(_) => reused,
            Edit::Bool(b) => Some(Value::Bool(*b)),
            Edit::Null => Some(Value::Null),
            Edit::EmptyArray => Some(Value::Array(Vec::new())),
            Edit::EmptyObject => Some(Value::Object(Default::default())),
            Edit::Graft(i) => donors.get(i % donors.len().max(1)).cloned(),
            Edit::Remove | Edit::Repeat(_) | Edit::AddField(..) => None,
        };
        let mut act = |node: &mut Value| match (edit, node) {
            (Edit::Repeat(i), Value::Array(items)) => {
                if let Some(first) = items.first().cloned() {
                    // Repeats of repeats would multiply: the grown array holds at most
                    // REPEAT_NODES nodes (the input stays a few megabytes at most).
                    let each = count(&first, &|_| true).max(1);
                    items.resize(REPEATS[i % REPEATS.len()].min((REPEAT_NODES / each).max(1)), first);
                }
            }
            (Edit::AddField(f, v), Value::Object(map)) => {
                let value = if v % 2 == 0 { numbers[(v / 2) % numbers.len()].clone() } else { strings[(v / 2) % strings.len()].clone() };
                map.insert(FIELDS[f % FIELDS.len()].to_string(), value);
            }
            (_, node) => {
                if let Some(new) = replacement.clone() {
                    *node = new;
                }
            }
        };
        visit(doc, pred, &mut k, matches!(edit, Edit::Remove), &mut act);
    }
}

/// A change to the text itself (positions are fractions of the length, on char boundaries).
#[derive(Clone, Debug)]
pub enum TextEdit {
    Truncate(u16),
    Insert(u16, String),
    Delete(u16, u16),
    Duplicate(u16, u16),
}

pub fn text_edit() -> impl Strategy<Value = TextEdit> {
    let snippet = prop_oneof![
        proptest::sample::select(vec![
            "{",
            "}",
            "[",
            "]",
            ",",
            ":",
            "\"",
            "\\",
            "\\u",
            "\\ud800",
            "0",
            "-",
            "1e999",
            "null",
            "\u{0}",
            "😀",
            " ",
            "\n",
            "{\"version\":1}"
        ])
        .prop_map(str::to_string),
        ".{0,4}",
    ];
    prop_oneof![
        1 => any::<u16>().prop_map(TextEdit::Truncate),
        3 => (any::<u16>(), snippet).prop_map(|(at, s)| TextEdit::Insert(at, s)),
        2 => (any::<u16>(), any::<u16>()).prop_map(|(a, b)| TextEdit::Delete(a, b)),
        1 => (any::<u16>(), any::<u16>()).prop_map(|(a, b)| TextEdit::Duplicate(a, b)),
    ]
}

/// The char boundary nearest below `frac`/65536 of the text.
fn at(text: &str, frac: u16) -> usize {
    let mut i = (text.len() as u64 * u64::from(frac) / 65_536) as usize;
    while !text.is_char_boundary(i) {
        i -= 1;
    }
    i
}

pub fn apply_text_edits(text: &mut String, edits: &[TextEdit]) {
    for e in edits {
        match e {
            TextEdit::Truncate(f) => {
                let i = at(text, *f);
                text.truncate(i);
            }
            TextEdit::Insert(f, s) => {
                let i = at(text, *f);
                text.insert_str(i, s);
            }
            TextEdit::Delete(a, b) | TextEdit::Duplicate(a, b) => {
                let (i, j) = (at(text, *a.min(b)), at(text, *a.max(b)));
                // At most 64 chars of JSON are deleted or copied, so the result stays close.
                let mut j = j.min(i + 64);
                while !text.is_char_boundary(j) {
                    j -= 1;
                }
                if let TextEdit::Delete(..) = e {
                    text.replace_range(i..j, "");
                } else {
                    let copy = text[i..j].to_string();
                    text.insert_str(j, &copy);
                }
            }
        }
    }
}

/// A mutated document: which seed, the JSON edits, and (sometimes) edits of its text.
#[derive(Clone, Debug)]
pub struct Mutant {
    pub seed: usize,
    pub edits: Vec<(usize, Edit)>,
    pub text_edits: Vec<TextEdit>,
}

pub fn mutant() -> impl Strategy<Value = Mutant> {
    (
        any::<usize>(),
        proptest::collection::vec((any::<usize>(), edit()), 0..5),
        prop_oneof![3 => Just(Vec::new()), 1 => proptest::collection::vec(text_edit(), 1..3)],
    )
        .prop_map(|(seed, edits, text_edits)| Mutant { seed, edits, text_edits })
}

impl Mutant {
    /// The mutated text of one of the seeds.
    pub fn render(&self, seeds: &Seeds) -> String {
        let mut doc = seeds.docs[self.seed % seeds.docs.len()].clone();
        apply_edits(&mut doc, &self.edits, &seeds.nodes);
        let mut text = serde_json::to_string(&doc).unwrap_or_default();
        apply_text_edits(&mut text, &self.text_edits);
        text
    }
}
