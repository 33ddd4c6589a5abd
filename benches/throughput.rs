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
    let records: u32 = std::env::var("BENCH_RECORDS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(100_000)
        .clamp(1, 100_000);
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
}

/// The optimisation level the bench was built with, for the table's caption.
fn profile() -> &'static str {
    if cfg!(debug_assertions) {
        "debug build"
    } else {
        "release profile"
    }
}
