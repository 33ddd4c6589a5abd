//! `kafka-sandbox run`: runs a scenario to its end and prints a readable summary (counts,
//! first and last values, offset ranges), or with `--json` every record and delivery the
//! run keeps.

use kafka_sandbox_core::scenario::{self, Scenario, MAX_TIME_MS};
use kafka_sandbox_core::snapshot::Snapshot;
use kafka_sandbox_core::{Sim, SimTime};
use std::fmt::Write as _;
use std::io::Write;

pub const USAGE: &str = "\
kafka-sandbox run SCENARIO [--until MS] [--trace FILE] [--max-events N] [--json]
    SCENARIO is a scenario file (JSON, see docs/scenario-format.md) or builtin:NAME
    (NAME: two-groups, one-consumer, two-consumers, five-consumers, kip-848).
    --until MS        stop at MS simulated milliseconds, at most 604800000 (default: the
                      scenario's duration_ms, or 10 s after its last timeline entry)
    --trace FILE      write every trace event as one JSON object per line to FILE
    --max-events N    stop after N events even if MS is not reached (default 100000000);
                      the summary is printed and the exit code is 3
    --json            print the result as JSON with the full lists (every record of each
                      partition's log, every delivery each member remembers) instead of
                      the summary";

/// How many events `run` applies at most unless `--max-events` says otherwise: a bound
/// on the time a run takes (tens of seconds natively), whatever the scenario asks for.
pub const DEFAULT_MAX_EVENTS: u64 = 100_000_000;

/// The exit code of a run that stopped at `--max-events` before reaching its end.
pub const EXIT_EVENT_LIMIT: i32 = 3;

/// The parsed command line of `run`.
#[derive(Debug, PartialEq, Eq)]
pub struct Options {
    pub scenario: String,
    pub until: Option<u64>,
    pub trace: Option<String>,
    pub max_events: u64,
    /// `--json`: the full lists as JSON instead of the text summary.
    pub json: bool,
}

/// Parses the arguments that follow `run`. `Err("")` asks for the usage text.
pub fn parse(args: &[String]) -> Result<Options, String> {
    let mut scenario = None;
    let mut until = None;
    let mut trace = None;
    let mut max_events = DEFAULT_MAX_EVENTS;
    let mut json = false;
    let mut i = 0;
    while i < args.len() {
        let a = &args[i];
        match a.as_str() {
            "--until" | "--trace" | "--max-events" => {
                let Some(v) = args.get(i + 1) else { return Err(format!("{a} needs a value")) };
                match a.as_str() {
                    "--until" => {
                        let ms = v.parse::<u64>().ok().filter(|ms| *ms <= MAX_TIME_MS).ok_or_else(|| {
                            format!("--until takes a whole number of milliseconds from 0 to {MAX_TIME_MS} (one simulated week), not {v:?}")
                        })?;
                        until = Some(ms);
                    }
                    "--max-events" => {
                        max_events = v
                            .parse::<u64>()
                            .ok()
                            .filter(|n| *n >= 1)
                            .ok_or_else(|| format!("--max-events takes a whole number of at least 1, not {v:?}"))?;
                    }
                    _ => trace = Some(v.clone()),
                }
                i += 2;
            }
            "--json" => {
                json = true;
                i += 1;
            }
            "-h" | "--help" => return Err(String::new()),
            s if s.starts_with('-') => return Err(format!("unknown option {s:?}")),
            s => {
                if scenario.replace(s.to_string()).is_some() {
                    return Err(format!("give one scenario (a second one, {s:?}, was given)"));
                }
                i += 1;
            }
        }
    }
    let Some(scenario) = scenario else { return Err("which scenario? give a file or builtin:NAME".into()) };
    Ok(Options { scenario, until, trace, max_events, json })
}

/// Reads a scenario: `builtin:NAME` or a file.
pub fn load(spec: &str) -> Result<Scenario, String> {
    if let Some(name) = spec.strip_prefix("builtin:") {
        let names: Vec<&str> = scenario::BUILT_IN.iter().map(|(n, _)| *n).collect();
        return match scenario::built_in(name) {
            Some(r) => r.map_err(|e| e.to_string()),
            None => Err(format!("no built-in scenario {name:?}; there are: {}", names.join(", "))),
        };
    }
    let text = std::fs::read_to_string(spec).map_err(|e| format!("cannot read {spec}: {e}"))?;
    Scenario::from_json(&text).map_err(|e| format!("{spec}: {e}"))
}

/// How a run ended.
pub struct Finished {
    pub sim: Sim,
    /// Where the run was asked to stop, in ms.
    pub until: u64,
    /// False when it stopped at the event limit before `until`.
    pub complete: bool,
}

/// Why [`simulate`] failed.
#[derive(Debug)]
pub enum RunError {
    /// The scenario does not build (a scenario from [`Scenario::from_json`] always does).
    Scenario(String),
    /// Writing the trace failed.
    Trace(std::io::Error),
}

impl std::fmt::Display for RunError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            RunError::Scenario(e) => f.write_str(e),
            RunError::Trace(e) => write!(f, "writing the trace failed: {e}"),
        }
    }
}

/// Runs `scenario` until `until` ms or until it has applied `max_events` events, whichever
/// comes first, and writes every trace event as one JSON line to `trace` when given.
pub fn simulate(scenario: &Scenario, until: u64, max_events: u64, trace: Option<&mut dyn Write>) -> Result<Finished, RunError> {
    simulate_with(scenario, kafka_sandbox_core::SimOptions::default(), until, max_events, trace)
}

/// Deliveries each member remembers under `--json`: its full list for any run `run`
/// finishes in reasonable time (the default keeps the newest 1,000).
pub const JSON_RECEIVED_PER_MEMBER: usize = 1_000_000;

/// [`simulate`] with the run's bounds given.
pub fn simulate_with(
    scenario: &Scenario,
    options: kafka_sandbox_core::SimOptions,
    until: u64,
    max_events: u64,
    mut trace: Option<&mut dyn Write>,
) -> Result<Finished, RunError> {
    let mut sim = scenario.build_with(options).map_err(|e| RunError::Scenario(e.to_string()))?;
    // Step in slices so the trace gets every event even when the in-memory trace keeps
    // only the newest ones.
    let mut written = 0;
    let mut left = max_events;
    loop {
        let slice = left.min(1_000);
        let before = sim.steps();
        let done = sim.run_to_bounded(SimTime(until), slice);
        left = left.saturating_sub(sim.steps() - before);
        if let Some(out) = trace.as_deref_mut() {
            for e in sim.events_since(written) {
                let line = serde_json::to_string(e).unwrap_or_default();
                writeln!(out, "{line}").map_err(RunError::Trace)?;
            }
        }
        written = sim.trace().total();
        if done {
            return Ok(Finished { sim, until, complete: true });
        }
        if left == 0 {
            return Ok(Finished { sim, until, complete: false });
        }
    }
}

/// Runs the `run` subcommand with the arguments that follow `run`; returns the exit code.
pub fn run_command(args: &[String]) -> i32 {
    let options = match parse(args) {
        Ok(o) => o,
        Err(e) if e.is_empty() => {
            println!("{USAGE}");
            return 0;
        }
        Err(e) => {
            eprintln!("kafka-sandbox run: {e}\n\n{USAGE}");
            return 2;
        }
    };
    let scenario = match load(&options.scenario) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("kafka-sandbox run: {e}");
            return 2;
        }
    };
    let until = options.until.unwrap_or_else(|| scenario.end_ms());
    let mut trace_file = match &options.trace {
        Some(path) => match std::fs::File::create(path) {
            Ok(f) => Some(std::io::BufWriter::new(f)),
            Err(e) => {
                eprintln!("kafka-sandbox run: cannot write {path}: {e}");
                return 2;
            }
        },
        None => None,
    };
    let bounds = if options.json {
        kafka_sandbox_core::SimOptions::default().with_received_per_member(JSON_RECEIVED_PER_MEMBER)
    } else {
        kafka_sandbox_core::SimOptions::default()
    };
    let finished = match simulate_with(&scenario, bounds, until, options.max_events, trace_file.as_mut().map(|f| f as &mut dyn Write)) {
        Ok(f) => f,
        Err(e) => {
            eprintln!("kafka-sandbox run: {e}");
            return match e {
                RunError::Scenario(_) => 2,
                RunError::Trace(_) => 1,
            };
        }
    };
    if let Some(mut out) = trace_file {
        if out.flush().is_err() {
            eprintln!("kafka-sandbox run: writing the trace failed");
            return 1;
        }
    }
    if options.json {
        println!("{}", serde_json::to_string_pretty(&full_report(&scenario, &finished.sim)).unwrap_or_default());
    } else {
        print!("{}", summary(&scenario, &finished.sim));
        print!("{}", share_summary(&finished.sim));
    }
    if !finished.complete {
        eprintln!(
            "kafka-sandbox run: stopped at {} ms after {} events, before {} ms; raise --max-events to run further",
            finished.sim.now().ms(),
            finished.sim.steps(),
            finished.until
        );
        return EXIT_EVENT_LIMIT;
    }
    0
}

/// The share groups (KIP-932): per member its partitions and the values it received in
/// order (redeliveries with their delivery count), and per share partition its window.
pub fn share_summary(sim: &kafka_sandbox_core::Sim) -> String {
    let mut s = String::new();
    for g in kafka_sandbox_core::share_view::views(sim) {
        let _ = writeln!(
            s,
            "share group {} (group epoch {}, up to {} members per partition, {} delivered, {} accepted, {} archived)",
            g.id, g.group_epoch, g.desired_sharing, g.delivered, g.acknowledged, g.archived
        );
        for m in &g.members {
            let parts: Vec<String> = m.assigned.iter().map(|tp| tp.to_string()).collect();
            let values: Vec<String> = m.received.iter().map(|(v, _, _, n)| if *n > 1 { format!("{v}×{n}") } else { v.clone() }).collect();
            let got = if values.is_empty() { "(nothing)".to_string() } else { values.join(" ") };
            let _ = writeln!(s, "  {} [{}]: {got}", m.client_id, parts.join(", "));
        }
        for p in g.partitions.iter().filter(|p| p.initialized) {
            let lag = p.lag.map_or_else(|| "-".to_string(), |l| l.to_string());
            let _ = writeln!(s, "  {}: SPSO {} SPEO {}, {} in flight, lag {lag}", p.tp, p.start_offset, p.end_offset, p.in_flight);
        }
    }
    s
}

/// Lists longer than this are shown by their first and last [`ENDS`] values.
pub const SHOWN_WHOLE: usize = 8;
/// How many values a long list shows at each end.
pub const ENDS: usize = 3;

/// A list of values as the summary shows it: all of them when short, else the first and
/// last few around "…".
pub fn some_values<'a>(values: impl ExactSizeIterator<Item = &'a str> + DoubleEndedIterator) -> String {
    let count = values.len();
    if count <= SHOWN_WHOLE {
        return values.collect::<Vec<_>>().join(" ");
    }
    let all: Vec<&str> = values.collect();
    format!("{} … {}", all[..ENDS].join(" "), all[count - ENDS..].join(" "))
}

/// Per partition, the first and last offset of `deliveries` (in the order partitions are
/// first seen): `Topic01-0 offsets 0 to 9`.
fn offset_ranges<'a>(deliveries: impl Iterator<Item = &'a kafka_sandbox_core::group::Delivery>) -> String {
    let mut ranges: Vec<(&kafka_sandbox_core::record::TopicPartition, u64, u64)> = Vec::new();
    for d in deliveries {
        match ranges.iter_mut().find(|(tp, _, _)| **tp == d.tp) {
            Some((_, lo, hi)) => {
                *lo = (*lo).min(d.offset);
                *hi = (*hi).max(d.offset);
            }
            None => ranges.push((&d.tp, d.offset, d.offset)),
        }
    }
    ranges
        .iter()
        .map(|(tp, lo, hi)| if lo == hi { format!("{tp} offset {lo}") } else { format!("{tp} offsets {lo} to {hi}") })
        .collect::<Vec<_>>()
        .join("; ")
}

/// The text summary: per partition its offsets, record count and first and last values;
/// per group per member its partitions, how many records it received, their offset
/// ranges and first and last values (`--json` has every value).
pub fn summary(scenario: &Scenario, sim: &Sim) -> String {
    let snap: Snapshot = sim.snapshot();
    let snap = &snap;
    let mut s = String::new();
    let name = scenario.name.as_deref().unwrap_or("(unnamed scenario)");
    let _ = writeln!(s, "{name}: seed {}, ran to {} ms, {} events", snap.seed, snap.now.ms(), snap.events_total);
    for t in sim.topics() {
        let _ = writeln!(s, "topic {}", t.name());
        for p in t.partitions() {
            let records = p.log().map(|l| l.records()).unwrap_or_default();
            let count = records.len();
            let values = some_values(records.iter().map(|r| r.record.value.as_str()));
            let _ = writeln!(
                s,
                "  partition {}: offsets {}..{} (HW {}), {count} record{}{}{values}",
                p.index(),
                p.log_start_offset(),
                p.log_end_offset(),
                p.high_watermark(),
                if count == 1 { "" } else { "s" },
                if count == 0 { "" } else { ": " },
            );
        }
    }
    for b in &snap.brokers {
        let state = if !b.alive {
            "crashed"
        } else if b.isolated {
            "cut off"
        } else if b.fenced {
            "fenced"
        } else {
            "up"
        };
        let _ = writeln!(s, "broker {}: {state}{}", b.id, if b.slow_ms > 0 { format!(", slow +{} ms", b.slow_ms) } else { String::new() });
    }
    for t in &snap.topics {
        for p in &t.partitions {
            let leader = p.leader.map(|l| l.to_string()).unwrap_or_else(|| "none (offline)".into());
            let isr: Vec<String> = p.isr.iter().map(ToString::to_string).collect();
            let _ = writeln!(
                s,
                "  {}-{}: leader {leader}, epoch {}, replicas {:?}, ISR [{}]",
                t.name,
                p.partition,
                p.leader_epoch,
                p.replicas,
                isr.join(", ")
            );
            if !p.lost.is_empty() {
                let lost: Vec<String> = p
                    .lost
                    .iter()
                    .map(|l| {
                        let cause = match l.cause {
                            kafka_sandbox_core::event::LossCause::UncleanElection => "unclean election",
                            kafka_sandbox_core::event::LossCause::LeaderFailover => "leader failover",
                        };
                        format!("{}@{} ({cause})", l.value, l.offset)
                    })
                    .collect();
                let _ = writeln!(s, "    lost: {}", lost.join(", "));
            }
        }
    }
    for g in &snap.groups {
        let protocol = match g.protocol {
            kafka_sandbox_core::group::RebalanceProtocol::Eager => "eager",
            kafka_sandbox_core::group::RebalanceProtocol::Cooperative => "cooperative",
        };
        let coordinator = g.coordinator.map(|b| format!("broker {b}")).unwrap_or_else(|| "none".into());
        if g.group_protocol == kafka_sandbox_core::config::GroupProtocol::Consumer {
            let _ = writeln!(
                s,
                "group {} (consumer protocol, {} broker assignor, {:?}, group epoch {}, coordinator {coordinator}, {} rebalance(s), {} processed twice, {} committed unprocessed)",
                g.id, g.remote_assignor, g.state, g.generation, g.rebalances, g.duplicates, g.lost
            );
        } else {
            let _ = writeln!(
                s,
                "group {} ({}, {protocol}, {:?}, generation {}, coordinator {coordinator}, {} rebalance(s), {} processed twice, {} committed unprocessed)",
                g.id, g.assignor, g.state, g.generation, g.rebalances, g.duplicates, g.lost
            );
        }
        for m in sim.group(&g.id).into_iter().flat_map(|g| g.members()) {
            let parts: Vec<String> = m.assigned().iter().map(ToString::to_string).collect();
            let kept: Vec<&kafka_sandbox_core::group::Delivery> = m.received().collect();
            let got = if kept.is_empty() {
                "(nothing)".to_string()
            } else {
                let total = m.received_total();
                let newest = if total > kept.len() as u64 { format!(", the newest {} kept", kept.len()) } else { String::new() };
                format!(
                    "{total} received{newest} ({}): {}",
                    offset_ranges(kept.iter().copied()),
                    some_values(kept.iter().map(|d| d.value.as_str()))
                )
            };
            let _ = writeln!(s, "  {} [{}]: {}", m.client_id(), parts.join(", "), got);
        }
        let committed: Vec<String> = g.committed.iter().map(|(tp, o)| format!("{tp}={o}")).collect();
        let _ = writeln!(s, "  committed: {}", if committed.is_empty() { "(none)".into() } else { committed.join(", ") });
    }
    let _ = writeln!(s, "guarantee monitors: {} finding(s), {} breaking a promise Kafka makes", snap.findings_total, snap.promises_broken);
    for f in &snap.findings {
        let _ = writeln!(
            s,
            "  {} ms {}: {} [{}]{}",
            f.time.ms(),
            f.tp,
            f.kind,
            f.values.join(" "),
            if f.promised { " — BROKEN PROMISE" } else { "" }
        );
    }
    s
}

/// The run as JSON with the full lists: every record of each partition's log (the
/// summary shows the first and last), every delivery each member remembers, the committed
/// offsets, the brokers and the monitors' counts.
pub fn full_report(scenario: &Scenario, sim: &Sim) -> serde_json::Value {
    use serde_json::json;
    let read = sim.read();
    let topics: Vec<serde_json::Value> = sim
        .topics()
        .map(|t| {
            let partitions: Vec<serde_json::Value> = t
                .partitions()
                .map(|p| {
                    let records: Vec<serde_json::Value> = p
                        .log()
                        .map(|l| l.records())
                        .unwrap_or_default()
                        .iter()
                        .map(|r| json!({ "offset": r.offset, "key": r.record.key, "value": r.record.value }))
                        .collect();
                    json!({
                        "partition": p.index(),
                        "leader": p.leader(),
                        "isr": p.isr(),
                        "log_start_offset": p.log_start_offset(),
                        "log_end_offset": p.log_end_offset(),
                        "high_watermark": p.high_watermark(),
                        "records": records,
                    })
                })
                .collect();
            json!({ "name": t.name(), "partitions": partitions })
        })
        .collect();
    let groups: Vec<serde_json::Value> = sim
        .groups()
        .map(|g| {
            let members: Vec<serde_json::Value> = g
                .members()
                .map(|m| {
                    let received: Vec<serde_json::Value> = m
                        .received()
                        .map(|d| json!({ "topic": d.tp.topic, "partition": d.tp.partition, "offset": d.offset, "key": d.key, "value": d.value }))
                        .collect();
                    json!({
                        "client_id": m.client_id(),
                        "member_id": m.member_id(),
                        "assigned": m.assigned().iter().map(ToString::to_string).collect::<Vec<_>>(),
                        "received_total": m.received_total(),
                        "received": received,
                    })
                })
                .collect();
            let committed: serde_json::Map<String, serde_json::Value> =
                g.committed_offsets().map(|(tp, o)| (tp.to_string(), json!(o))).collect();
            json!({
                "id": g.id(),
                "state": format!("{:?}", g.state()),
                "generation": g.generation(),
                "rebalances": g.rebalances(),
                "processed_twice": g.duplicates(),
                "committed_unprocessed": g.unprocessed(),
                "members": members,
                "committed": committed,
            })
        })
        .collect();
    json!({
        "scenario": scenario.name,
        "seed": read.seed(),
        "now_ms": read.now().ms(),
        "events": read.events_total(),
        "topics": topics,
        "groups": groups,
        "findings": read.findings_total(),
        "promises_broken": read.promises_broken(),
    })
}
