//! Memory over a long run: live heap after 1 and after 24 simulated hours at 1,000
//! records a second with retention on. It must not grow with the run's length.
//!
//! `cargo bench --bench memory` counts every allocation of this binary (a counting
//! global allocator around the system one) and prints the live and peak heap at
//! checkpoints, with the wall time so far. `BENCH_HOURS` sets the length (default 24).
//! Beside the run it keeps the page's time travel, a `History` of `BENCH_HISTORY`
//! checkpoints (default 48, as the page; 0 for none) observed after every simulated
//! second, and prints what it holds: the bytes freed when it is dropped (a fresh one then
//! starts for the next checkpoint).
//! Figures are printed, never asserted.

// The counting allocator needs `unsafe impl GlobalAlloc`; it only forwards to `System`.
#![allow(unsafe_code)]

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

use kafka_sandbox_core::history::History;
use kafka_sandbox_core::{__bench, Scenario, SimTime};

mod common;

struct Counting;

static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

fn grew(by: usize) {
    let live = LIVE.fetch_add(by, Ordering::Relaxed) + by;
    PEAK.fetch_max(live, Ordering::Relaxed);
}

// SAFETY: every call is forwarded unchanged to `System`; only counters are added.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() {
            grew(layout.size());
        }
        p
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        let p = unsafe { System.alloc_zeroed(layout) };
        if !p.is_null() {
            grew(layout.size());
        }
        p
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) };
        LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let p = unsafe { System.realloc(ptr, layout, new_size) };
        if !p.is_null() {
            LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
            grew(new_size);
        }
        p
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

fn mib(bytes: usize) -> f64 {
    bytes as f64 / (1024.0 * 1024.0)
}

fn main() {
    if std::env::var("BENCH_RUN").as_deref() == Ok("long") {
        return long_run();
    }
    let hours: u64 = std::env::var("BENCH_HOURS").ok().and_then(|v| v.parse().ok()).unwrap_or(24).clamp(1, 168);
    let per_second = 1000;
    let scenario = match Scenario::from_json(common::MEMORY_JSON) {
        Ok(s) => s,
        Err(e) => panic!("the memory scenario is invalid: {e}"),
    };
    let before = LIVE.load(Ordering::Relaxed);
    let mut sim = match scenario.build() {
        Ok(sim) => sim,
        Err(e) => panic!("the memory scenario does not build: {e}"),
    };
    let keep: usize = std::env::var("BENCH_HISTORY").ok().and_then(|v| v.parse().ok()).unwrap_or(48);
    // The page's history: a checkpoint every 200 steps at first, at most 48 (web/src/state.rs).
    let mut history = (keep > 0).then(|| History::new(sim.clone(), 200, keep));
    println!("memory: {per_second} records/s for {hours} simulated h; 3 brokers, RF 3, 12 partitions, 2 groups;");
    println!("retention.ms 60000, segment.ms 10000, retention check every 30 s; consumers 1 ms per record");
    println!();
    println!("live/peak: heap allocated and not freed since before the build; trace, monitors, logs, groups:");
    println!("what a clone of that part allocates (about what it holds); kept: records on all replicas;");
    println!("snapshot: the time of one Sim::snapshot() (the page takes one per frame); lost_records: of");
    println!("Group::unprocessed_records() for every group (a snapshot calls it); history: what a History of");
    println!("{keep} checkpoints observed every simulated second since the last row holds (freed when dropped)");
    println!();
    println!(
        "{:>5} {:>11} {:>9} {:>9} {:>7} {:>9} {:>7} {:>8} {:>9} {:>9} {:>8} {:>8} {:>9} {:>12} {:>11} {:>7} {:>8} {:>8}",
        "sim h",
        "records",
        "live MiB",
        "peak MiB",
        "trace",
        "monitors",
        "logs",
        "groups",
        "producers",
        "sim clone",
        "kept",
        "cmd log",
        "snapshot",
        "lost_records",
        "history MiB",
        "wall s",
        "offsets",
        "o. kept"
    );
    let mut checkpoints: Vec<u64> = [1, 2, 4, 8, 12, 16, 20, 24, 48, 72, 96, 120, 144, 168].into_iter().filter(|h| *h <= hours).collect();
    if checkpoints.last() != Some(&hours) {
        checkpoints.push(hours);
    }
    let start = Instant::now();
    let from_ms = common::START_MS;
    let mut sent = 0u64;
    let mut second = 0u64;
    for h in checkpoints {
        while second < h * 3600 {
            let at = from_ms + second * 1000;
            common::feed(&mut sim, at, per_second, sent);
            sent += per_second;
            second += 1;
            sim.run_to(SimTime(at + 1000));
            if let Some(h) = history.as_mut() {
                h.observe(&sim);
            }
        }
        let (checkpoints_kept, _) = history.as_ref().map_or((0, 0), History::stats);
        let history_bytes = match history.take() {
            Some(h) => {
                let before = LIVE.load(Ordering::Relaxed);
                drop(h);
                history = Some(History::new(sim.clone(), 200, keep));
                before.saturating_sub(LIVE.load(Ordering::Relaxed))
            }
            None => 0,
        };
        let kept: usize =
            sim.read().topics().flat_map(|t| t.partitions()).flat_map(|p| p.replica_logs()).map(|r| r.log().records().len()).sum();
        let live = LIVE.load(Ordering::Relaxed) - before;
        let peak = PEAK.load(Ordering::Relaxed) - before;
        let wall = start.elapsed().as_secs_f64();
        let logs = allocated_by(|| __bench::clone_topics(&sim));
        let groups = allocated_by(|| __bench::clone_groups(&sim));
        let producers = allocated_by(|| __bench::clone_producers(&sim));
        let mut offsets_kept = 0;
        let offsets = allocated_by(|| {
            let (clone, n) = __bench::clone_offsets_topic(&sim);
            offsets_kept = n;
            clone
        });
        let whole = cloned_bytes(&sim);
        // What the page does each frame: a snapshot (it reads every group's lost records).
        let t = Instant::now();
        std::hint::black_box(sim.snapshot());
        let snapshot_ms = t.elapsed().as_secs_f64() * 1000.0;
        let t = Instant::now();
        for group in sim.groups() {
            std::hint::black_box(group.unprocessed_details(usize::MAX));
        }
        let lost_ms = t.elapsed().as_secs_f64() * 1000.0;
        println!(
            "{:>5} {:>11} {:>9.1} {:>9.1} {:>7.1} {:>9.1} {:>7.1} {:>8.1} {:>9.1} {:>9.1} {:>8} {:>8} {:>6.1} ms {:>9.1} ms {:>6.1} ({:>2}) {:>7.0} {:>8.1} {:>8}",
            h,
            sent,
            mib(live),
            mib(peak),
            mib(cloned_bytes(sim.trace())),
            mib(cloned_bytes(sim.monitors())),
            mib(logs),
            mib(groups),
            mib(producers),
            mib(whole),
            kept,
            sim.command_log().len(),
            snapshot_ms,
            lost_ms,
            mib(history_bytes),
            checkpoints_kept,
            wall,
            mib(offsets),
            offsets_kept
        );
    }
    println!();
    for (group, n) in common::processed(&sim) {
        println!("group {group}: {n} records processed of {sent} sent");
    }
    println!("trace events: {}, simulation steps: {}", sim.trace().total(), sim.steps());
}

/// Issue 20's long busy run as the page plays it: `long.json` (12 partitions, two producers
/// of 30,000 records at 10/s, three groups of 3) at 20×, a tick of 1/3 simulated second
/// (60 frames a second), the page's `History` (every 200 steps, at most 48) observed after
/// every tick. Every 600 simulated seconds (30 s of play at 20×) it prints the live heap
/// (the run and its history), the parts of one state, the checkpoints kept and what going back costs: Back (one step) and a jump to the
/// middle of the run, each a `History::restore` timed natively. "mon KiB": what a clone of
/// the monitors allocates, in KiB; "+1s KiB": what the monitors of a checkpoint taken one
/// simulated second later hold that this moment's do not (what a checkpoint does not share
/// with the previous one).
/// `BENCH_RUN=long BENCH_SECONDS=12000 cargo bench --bench memory` (12,000 s: 10 minutes).
fn long_run() {
    let seconds: u64 = std::env::var("BENCH_SECONDS").ok().and_then(|v| v.parse().ok()).unwrap_or(12_000).clamp(600, 604_800);
    let scenario = match Scenario::from_json(&common::long_scenario_json()) {
        Ok(s) => s,
        Err(e) => panic!("the long scenario is invalid: {e}"),
    };
    let before = LIVE.load(Ordering::Relaxed);
    let mut sim = match scenario.build() {
        Ok(sim) => sim,
        Err(e) => panic!("the long scenario does not build: {e}"),
    };
    let mut history = History::new(sim.clone(), 200, 48);
    println!("long run (issue 20): long.json at 20x, ticks of 333 ms simulated, History(200, 48) observed every tick");
    println!(
        "{:>7} {:>10} {:>10} {:>9} {:>9} {:>7} {:>9} {:>8} {:>8} {:>7} {:>7} {:>9} {:>7} {:>7} {:>9} {:>9} {:>12} {:>11} {:>9} {:>9} {:>7}",
        "sim s",
        "steps",
        "events",
        "live MiB",
        "peak MiB",
        "trace",
        "monitors",
        "mon KiB",
        "+1s KiB",
        "logs",
        "groups",
        "producers",
        "queue",
        "cluster",
        "consumers",
        "sim clone",
        "checkpoints",
        "snapshot ms",
        "back ms",
        "mid ms",
        "wall s"
    );
    let start = Instant::now();
    let mut tick = 0u64;
    let mut next_row = 600_000;
    while sim.now().ms() < seconds * 1000 {
        tick += 1;
        sim.run_to(SimTime(tick * 1000 / 3));
        history.observe(&sim);
        if sim.now().ms() >= next_row {
            next_row += 600_000;
            let log = sim.command_log().to_vec();
            let steps = sim.steps();
            let t = Instant::now();
            std::hint::black_box(history.restore(&log, |s| s.steps() >= steps - 1, 2_000_000));
            let back_ms = t.elapsed().as_secs_f64() * 1000.0;
            let t = Instant::now();
            std::hint::black_box(history.restore(&log, |s| s.steps() >= steps / 2, 2_000_000));
            let mid_ms = t.elapsed().as_secs_f64() * 1000.0;
            let (kept, _) = history.stats();
            let t = Instant::now();
            std::hint::black_box(sim.snapshot());
            let snapshot_ms = t.elapsed().as_secs_f64() * 1000.0;
            let live = LIVE.load(Ordering::Relaxed) - before;
            let peak = PEAK.load(Ordering::Relaxed) - before;
            // A clone of the run goes on one simulated second; once it is dropped, its
            // monitors' copy holds only what they share with this moment's plus what that
            // second wrote, and dropping it frees the latter.
            let monitors_unique = {
                let mut later = sim.clone();
                later.run_to(SimTime(sim.now().ms() + 1000));
                let monitors = later.monitors().clone();
                drop(later);
                let held = LIVE.load(Ordering::Relaxed);
                drop(monitors);
                held.saturating_sub(LIVE.load(Ordering::Relaxed))
            };
            println!(
                "{:>7} {:>10} {:>10} {:>9.1} {:>9.1} {:>7.1} {:>9.1} {:>8.1} {:>8.1} {:>7.1} {:>7.1} {:>9.1} {:>7.1} {:>7.1} {:>9.1} {:>9.1} {:>12} {:>11.2} {:>9.1} {:>9.1} {:>7.0}",
                sim.now().ms() / 1000,
                steps,
                sim.trace().total(),
                mib(live),
                mib(peak),
                mib(cloned_bytes(sim.trace())),
                mib(cloned_bytes(sim.monitors())),
                cloned_bytes(sim.monitors()) as f64 / 1024.0,
                monitors_unique as f64 / 1024.0,
                mib(allocated_by(|| __bench::clone_topics(&sim))),
                mib(allocated_by(|| __bench::clone_groups(&sim))),
                mib(allocated_by(|| __bench::clone_producers(&sim))),
                mib(allocated_by(|| __bench::clone_queue(&sim))),
                mib(allocated_by(|| __bench::clone_cluster(&sim))),
                mib(allocated_by(|| __bench::clone_consumers(&sim))),
                mib(cloned_bytes(&sim)),
                kept,
                snapshot_ms,
                back_ms,
                mid_ms,
                start.elapsed().as_secs_f64()
            );
        }
    }
}

/// Bytes `make` allocates for what it returns.
fn allocated_by<T>(make: impl FnOnce() -> T) -> usize {
    let before = LIVE.load(Ordering::Relaxed);
    let made = make();
    let bytes = LIVE.load(Ordering::Relaxed).saturating_sub(before);
    drop(made);
    bytes
}

/// Bytes a clone of `value` allocates.
fn cloned_bytes<T: Clone>(value: &T) -> usize {
    let before = LIVE.load(Ordering::Relaxed);
    let copy = value.clone();
    let bytes = LIVE.load(Ordering::Relaxed).saturating_sub(before);
    drop(copy);
    bytes
}
