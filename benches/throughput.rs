//! Core throughput, end to end: simulated records and events per second of wall time.
//!
//! `cargo bench --bench throughput` runs the shared scenario (benches/common: 3 brokers,
//! replication factor 3, 12 partitions, 2 groups) until both groups have processed every
//! record, three times, and prints a table. Figures are printed, never asserted.
//! `BENCH_RECORDS` sets how many records (default and most: 100000). The wasm figure
//! comes from `web/tests/bench.rs` (see BENCHMARKS.md).

use std::time::Instant;

mod common;

fn main() {
    let records: u32 = std::env::var("BENCH_RECORDS").ok().and_then(|v| v.parse().ok()).unwrap_or(100_000).clamp(1, 100_000);
    let runs = 3;
    let scenario = common::throughput_scenario(records, 1);
    println!("core throughput: {records} records, one per simulated ms, 3 brokers, RF 3, 12 partitions,");
    println!("2 groups (range x3, cooperative-sticky x2), acks=all, idempotent; {runs} runs");
    println!();
    println!(
        "{:>4} {:>9} {:>9} {:>13} {:>11} {:>11} {:>12} {:>11}",
        "run", "sim s", "wall ms", "records/s", "steps", "steps/s", "trace events", "events/s"
    );
    let mut best: Option<(f64, f64, f64)> = None;
    for run in 1..=runs {
        let start = Instant::now();
        let out = common::run_throughput(&scenario, records, 3_600_000);
        let wall = start.elapsed().as_secs_f64();
        for (group, n) in &out.processed {
            if *n < u64::from(records) {
                println!("warning: group {group} processed {n} of {records} records");
            }
        }
        let steps = out.sim.steps();
        let events = out.sim.trace().total();
        let sim_s = out.sim.now().ms() as f64 / 1000.0;
        let rps = f64::from(records) / wall;
        println!(
            "{:>4} {:>9.1} {:>9.1} {:>13.0} {:>11} {:>11.0} {:>12} {:>11.0}",
            run,
            sim_s,
            wall * 1000.0,
            rps,
            steps,
            steps as f64 / wall,
            events,
            events as f64 / wall
        );
        if best.is_none_or(|(r, _, _)| rps > r) {
            best = Some((rps, steps as f64 / wall, events as f64 / wall));
        }
    }
    if let Some((rps, sps, eps)) = best {
        println!();
        println!("best: {rps:.0} records/s, {sps:.0} steps/s, {eps:.0} trace events/s (native, {})", profile());
        println!("records/s counts each record once: produced, replicated to 3 brokers, read and processed by both groups");
    }
    println!();
    page_ticks();
}

/// What the page does per animation tick (web/src/state.rs and app.rs: every 50 ms it runs
/// the simulation for 50 ms × speed, at most 20,000 events, then renders from a snapshot,
/// the scenario's JSON and the newest events), timed natively part by part.
fn page_ticks() {
    println!("page tick work, natively (model only, no rendering): mean / p95 / max ms per tick over 160 ticks (8 s at 20 ticks/s)");
    println!("{:<44} {:>20} {:>20} {:>20} {:>20}", "scenario, speed", "run sim", "snapshot()", "to_json_pretty()", "recent_events(60)");
    let default = match kafka_sandbox_core::scenario::built_in("two-groups") {
        Some(Ok(s)) => s,
        _ => panic!("the built-in two-groups scenario is missing"),
    };
    let large = match kafka_sandbox_core::Scenario::from_json(&common::large_scenario_json()) {
        Ok(s) => s,
        Err(e) => panic!("the large bench scenario is invalid: {e}"),
    };
    for (label, scenario, speed) in [
        ("default (two-groups), 1x", &default, 1u64),
        ("10 brokers / 240 partitions / 40 members, 1x", &large, 1),
        ("the same, 5x", &large, 5),
    ] {
        let Ok(mut sim) = scenario.build() else { panic!("{label} does not build") };
        let mut parts: [Vec<f64>; 4] = Default::default();
        for _ in 0..160 {
            let until = kafka_sandbox_core::SimTime(sim.now().ms() + 50 * speed);
            let t = Instant::now();
            sim.run_to_bounded(until, 20_000);
            parts[0].push(t.elapsed().as_secs_f64() * 1000.0);
            let t = Instant::now();
            std::hint::black_box(sim.snapshot());
            parts[1].push(t.elapsed().as_secs_f64() * 1000.0);
            let t = Instant::now();
            std::hint::black_box(scenario.to_json_pretty());
            parts[2].push(t.elapsed().as_secs_f64() * 1000.0);
            let t = Instant::now();
            std::hint::black_box(sim.recent_events(60));
            parts[3].push(t.elapsed().as_secs_f64() * 1000.0);
        }
        let cell = |v: &mut Vec<f64>| {
            v.sort_by(f64::total_cmp);
            let mean = v.iter().sum::<f64>() / v.len() as f64;
            format!("{mean:.2} / {:.2} / {:.1}", v[v.len() * 95 / 100], v[v.len() - 1])
        };
        println!(
            "{:<44} {:>20} {:>20} {:>20} {:>20}",
            label,
            cell(&mut parts[0]),
            cell(&mut parts[1]),
            cell(&mut parts[2]),
            cell(&mut parts[3])
        );
    }
}

/// The optimisation level the bench was built with, for the table's caption.
fn profile() -> &'static str {
    if cfg!(debug_assertions) {
        "debug build"
    } else {
        "release profile"
    }
}
