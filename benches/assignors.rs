//! The four assignors at scale: 2,000 partitions × 100 members and 10,000 × 1,000, fresh
//! and after one member leaves (the others report their previous assignment as owned).
//!
//! `cargo bench --bench assignors` prints, per case, the best and median wall time of
//! several runs, the spread of partitions per member, and how many partitions changed
//! owner; the 10,000 × 1,000 rows are compared with kafka-python 3.0.12's figures on
//! this kind of machine. Figures are printed, never asserted.

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use kafka_sandbox_core::assign::{assign, Assignment, Strategy, Subscription};

/// kafka-python 3.0.12 for 10,000 partitions × 1,000 members (the anchor), and
/// how many times faster the sandbox must be.
fn anchor(strategy: Strategy) -> Option<(Duration, f64)> {
    match strategy {
        Strategy::Range => Some((Duration::from_millis(180), 20.0)),
        Strategy::RoundRobin => Some((Duration::from_millis(29), 20.0)),
        Strategy::Sticky => Some((Duration::from_millis(17_100), 300.0)),
        Strategy::CooperativeSticky => None,
    }
}

const TOPIC: &str = "events";

fn members(n: usize) -> Vec<Subscription> {
    (0..n).map(|i| Subscription::new(&format!("consumer-{i:04}"), &[TOPIC])).collect()
}

/// Runs `f` until `budget` has passed (at least `min_runs` times, at most 50) and returns
/// the best and median times and the last result.
fn time<T>(min_runs: usize, budget: Duration, mut f: impl FnMut() -> T) -> (Duration, Duration, T) {
    let mut times = Vec::new();
    let started = Instant::now();
    let mut last;
    loop {
        let t = Instant::now();
        last = f();
        times.push(t.elapsed());
        if times.len() >= 50 || (times.len() >= min_runs && started.elapsed() >= budget) {
            break;
        }
    }
    times.sort();
    (times[0], times[times.len() / 2], last)
}

/// Fewest and most partitions a member got.
fn spread(assignment: &Assignment) -> (usize, usize) {
    let counts: Vec<usize> = assignment.values().map(|topics| topics.values().map(Vec::len).sum()).collect();
    (counts.iter().copied().min().unwrap_or(0), counts.iter().copied().max().unwrap_or(0))
}

fn main() {
    let quick = std::env::var_os("BENCH_QUICK").is_some();
    let budget = Duration::from_millis(if quick { 200 } else { 2000 });
    println!("assignors: one topic, every member subscribed; best and median of repeated runs (>= 3, ~{} s each)", budget.as_secs_f64());
    println!();
    println!(
        "{:<19} {:>13} {:<6} {:>10} {:>10} {:>7} {:>6} {:>10}  vs kafka-python (target)",
        "assignor", "partitions", "case", "best ms", "median ms", "min/mbr", "max", "moved"
    );
    for &(partitions, n_members) in &[(2_000u32, 100usize), (10_000, 1_000)] {
        let topics: BTreeMap<String, u32> = [(TOPIC.to_string(), partitions)].into();
        let fresh_members = members(n_members);
        for strategy in Strategy::ALL {
            fresh_then_leave(strategy, &topics, &fresh_members, budget, partitions, true);
        }
        println!();
    }
    println!("moved: partitions whose owner differs from the fresh assignment (cooperative-sticky withholds");
    println!("those that change owner in this first round, so they count as moved).");
    println!();
    general_path(budget);
}

/// Unequal subscriptions take the sticky assignors' general path
/// (`GeneralAssignmentBuilder`): two topics of half the partitions each; even members
/// subscribe to both, odd ones to the first only. No kafka-python anchor for this shape.
fn general_path(budget: Duration) {
    println!("sticky general path (unequal subscriptions: two topics, even members subscribe to both, odd to one;");
    println!("no kafka-python anchor for this shape)");
    for &(partitions, n_members) in &[(2_000u32, 100usize), (10_000, 1_000)] {
        let topics: BTreeMap<String, u32> = [("left".to_string(), partitions / 2), ("right".to_string(), partitions / 2)].into();
        let subs: Vec<Subscription> = (0..n_members)
            .map(|i| {
                let id = format!("consumer-{i:04}");
                if i % 2 == 0 {
                    Subscription::new(&id, &["left", "right"])
                } else {
                    Subscription::new(&id, &["left"])
                }
            })
            .collect();
        for strategy in [Strategy::Sticky, Strategy::CooperativeSticky] {
            fresh_then_leave(strategy, &topics, &subs, budget, partitions, false);
        }
    }
}

/// Times `strategy` on `members` fresh, then after the middle member (by id) leaves and the
/// others rejoin from generation 1 owning what the fresh run gave them; prints both rows
/// (`anchored`: with the kafka-python comparison).
fn fresh_then_leave(
    strategy: Strategy,
    topics: &BTreeMap<String, u32>,
    members: &[Subscription],
    budget: Duration,
    partitions: u32,
    anchored: bool,
) {
    let n_members = members.len();
    let (best, median, fresh) = time(3, budget, || assign(strategy, topics, members));
    let Ok(fresh) = fresh else {
        println!("{strategy}: error {fresh:?}");
        return;
    };
    row(strategy, partitions, n_members, "fresh", best, median, &fresh.assignment, None, anchored);
    let leaver = format!("consumer-{:04}", n_members / 2);
    let rest: Vec<Subscription> = members
        .iter()
        .filter(|m| m.member_id != leaver)
        .map(|m| {
            let mut m = m.clone();
            m.owned = fresh.assignment[&m.member_id].iter().flat_map(|(t, ps)| ps.iter().map(move |p| (t.clone(), *p))).collect();
            m.generation = Some(1);
            m
        })
        .collect();
    let (best, median, after) = time(3, budget, || assign(strategy, topics, &rest));
    let Ok(after) = after else {
        println!("{strategy}: error {after:?}");
        return;
    };
    let moved = count_moved(&fresh.assignment, &after.assignment);
    row(strategy, partitions, n_members - 1, "leave", best, median, &after.assignment, Some(moved), anchored);
}

/// Partitions (of any topic) whose owner differs between two assignments.
fn count_moved(before: &Assignment, after: &Assignment) -> usize {
    let owners = |a: &Assignment| -> BTreeMap<(String, u32), String> {
        a.iter()
            .flat_map(|(m, topics)| topics.iter().flat_map(move |(t, ps)| ps.iter().map(move |p| ((t.clone(), *p), m.clone()))))
            .collect()
    };
    let (b, a) = (owners(before), owners(after));
    b.iter().filter(|(tp, m)| a.get(*tp) != Some(*m)).count()
}

#[allow(clippy::too_many_arguments)]
fn row(
    strategy: Strategy,
    partitions: u32,
    n_members: usize,
    case: &str,
    best: Duration,
    median: Duration,
    assignment: &Assignment,
    moved: Option<usize>,
    anchored: bool,
) {
    let (min, max) = spread(assignment);
    let versus = match anchor(strategy) {
        Some((reference, target)) if anchored && partitions == 10_000 => {
            let speedup = reference.as_secs_f64() / median.as_secs_f64();
            format!(
                "{speedup:.0}x faster than {} ms (target >= {target:.0}x: {})",
                reference.as_millis(),
                if speedup >= target { "met" } else { "MISSED" }
            )
        }
        _ => String::new(),
    };
    println!(
        "{:<19} {:>13} {:<6} {:>10.3} {:>10.3} {:>7} {:>6} {:>10}  {}",
        strategy.name(),
        format!("{partitions}x{n_members}"),
        case,
        best.as_secs_f64() * 1000.0,
        median.as_secs_f64() * 1000.0,
        min,
        max,
        moved.map_or("-".to_string(), |m| m.to_string()),
        versus
    );
}
