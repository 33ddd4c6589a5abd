//! `kafka-sandbox run`: runs a scenario to its end and prints who received what.

use kafka_sandbox_core::scenario::{self, Scenario, MAX_TIME_MS};
use kafka_sandbox_core::snapshot::Snapshot;
use kafka_sandbox_core::{Sim, SimTime};
use std::fmt::Write as _;
use std::io::Write;

pub const USAGE: &str = "\
kafka-sandbox run SCENARIO [--until MS] [--trace FILE] [--max-events N]
    SCENARIO is a scenario file (JSON, see docs/scenario-format.md) or builtin:NAME
    (NAME: two-groups, one-consumer, two-consumers, five-consumers, kip-848).
    --until MS        stop at MS simulated milliseconds, at most 604800000 (default: the
                      scenario's duration_ms, or 10 s after its last timeline entry)
    --trace FILE      write every trace event as one JSON object per line to FILE
    --max-events N    stop after N events even if MS is not reached (default 100000000);
                      the summary is printed and the exit code is 3";

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
}

/// Parses the arguments that follow `run`. `Err("")` asks for the usage text.
pub fn parse(args: &[String]) -> Result<Options, String> {
    let mut scenario = None;
    let mut until = None;
    let mut trace = None;
    let mut max_events = DEFAULT_MAX_EVENTS;
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
    Ok(Options { scenario, until, trace, max_events })
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
pub fn simulate(scenario: &Scenario, until: u64, max_events: u64, mut trace: Option<&mut dyn Write>) -> Result<Finished, RunError> {
    let mut sim = scenario.build().map_err(|e| RunError::Scenario(e.to_string()))?;
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
    let finished = match simulate(&scenario, until, options.max_events, trace_file.as_mut().map(|f| f as &mut dyn Write)) {
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
    print!("{}", summary(&scenario, &finished.sim.snapshot()));
    print!("{}", share_summary(&finished.sim));
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

/// The text summary: per partition its records, per group per member its partitions
/// and the values received in order.
pub fn summary(scenario: &Scenario, snap: &Snapshot) -> String {
    let mut s = String::new();
    let name = scenario.name.as_deref().unwrap_or("(unnamed scenario)");
    let _ = writeln!(s, "{name}: seed {}, ran to {} ms, {} events", snap.seed, snap.now.ms(), snap.events_total);
    for t in &snap.topics {
        let _ = writeln!(s, "topic {}", t.name);
        for p in &t.partitions {
            let values: Vec<&str> = p.records.iter().map(|r| r.value.as_str()).collect();
            let _ = writeln!(
                s,
                "  partition {}: offsets {}..{} (HW {}): {}",
                p.partition,
                p.log_start_offset,
                p.log_end_offset,
                p.high_watermark,
                values.join(" ")
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
        for m in &g.members {
            let parts: Vec<String> = m.assigned.iter().map(ToString::to_string).collect();
            let values: Vec<&str> = m.received.iter().map(|d| d.value.as_str()).collect();
            let got = if values.is_empty() { "(nothing)".to_string() } else { values.join(" ") };
            let _ = writeln!(s, "  {} [{}]: {}", m.client_id, parts.join(", "), got);
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
