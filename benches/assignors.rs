//! The assignors at scale — the four client ones and the group coordinator's `uniform` and
//! `range` (KIP-848) — at 2,000 partitions × 100 members and 10,000 × 1,000, fresh and
//! after one member leaves (the others report their previous assignment as owned, or, for
//! the coordinator's assignors, as their current target assignment).
//!
//! `cargo bench --bench assignors` prints, per case, the best and median wall time of
//! repeated runs, the spread of partitions per member and how many partitions changed
//! owner. When `java` is on PATH it first runs `benches/java/run.sh`, which times Kafka's
//! own assignors on the same inputs (a harness of ours over Kafka's classes compiled from
//! Kafka's source, JIT warmed), and prints Kafka's figures beside the sandbox's with the
//! ratio, and whether both computed the same assignment (a digest of it). Without Java the
//! 10,000 × 1,000 rows are compared with kafka-python 3.0.12's figures. Figures are
//! printed, never asserted; CI does not run this.
//!
//! Environment: `BENCH_QUICK=1` for a short pass; `BENCH_ONLY=sticky,uniform` for some
//! assignors (names as printed; `general` for the sticky assignors' general path); `BENCH_SIZES=10000x1000` for some sizes; `BENCH_JAVA=0` to
//! leave Java out; `BENCH_MAPS=0` to leave out timing `assign` (the maps column);
//! `BENCH_RUNS=1` for exactly one run of each case. Instructions per call, which do not
//! depend on the machine's load: `BENCH_RUNS=1 BENCH_MAPS=0 BENCH_JAVA=0 BENCH_ONLY=sticky
//! valgrind --tool=callgrind --toggle-collect='kafka_sandbox_core::assign::assign_lists'
//! target/release/deps/assignors-*` (`...::server::assign_server` for `uniform` and
//! `server-range`) counts the fresh and the leave call together.

use std::collections::BTreeMap;
use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

use kafka_sandbox_core::assign::server::{assign_server, ServerAssignor, TopicMeta, Uuid};
use kafka_sandbox_core::assign::{assign, assign_lists, Assignment, Strategy, Subscription};

const TOPIC: &str = "events";
/// What the sandbox must reach against Kafka's Java assignors (issue 20).
const JAVA_TARGET: f64 = 10.0;

/// kafka-python 3.0.12 for 10,000 partitions × 1,000 members (the anchor before Java), and
/// how many times faster the sandbox was asked to be.
fn python_anchor(name: &str) -> Option<(Duration, f64)> {
    match name {
        "range" => Some((Duration::from_millis(180), 20.0)),
        "roundrobin" => Some((Duration::from_millis(29), 20.0)),
        "sticky" => Some((Duration::from_millis(17_100), 300.0)),
        _ => None,
    }
}

fn members(n: usize) -> Vec<Subscription> {
    (0..n).map(|i| Subscription::new(&member_id(i), &[TOPIC])).collect()
}

fn member_id(i: usize) -> String {
    format!("consumer-{i:04}")
}

/// Runs `f` until `budget` has passed (at least `min_runs` times, at most 200; exactly
/// `BENCH_RUNS` times if set) and returns the best and median times and the last result.
/// Only `f` is timed: the previous result is dropped outside the timed region.
fn time<T>(min_runs: usize, budget: Duration, mut f: impl FnMut() -> T) -> (Duration, Duration, T) {
    let fixed: Option<usize> = std::env::var("BENCH_RUNS").ok().and_then(|n| n.parse().ok()).filter(|n| *n > 0);
    let mut times = Vec::new();
    let started = Instant::now();
    let mut last = None;
    loop {
        drop(last.take());
        let t = Instant::now();
        let result = f();
        times.push(t.elapsed());
        last = Some(result);
        let done = match fixed {
            Some(n) => times.len() >= n,
            None => times.len() >= 200 || (times.len() >= min_runs && started.elapsed() >= budget),
        };
        if done {
            break;
        }
    }
    times.sort();
    let Some(last) = last else { unreachable!("at least one run") };
    (times[0], times[times.len() / 2], last)
}

/// Fewest and most partitions a member got.
fn spread(assignment: &Assignment) -> (usize, usize) {
    let counts: Vec<usize> = assignment.values().map(|topics| topics.values().map(Vec::len).sum()).collect();
    (counts.iter().copied().min().unwrap_or(0), counts.iter().copied().max().unwrap_or(0))
}

/// FNV-1a 64 of the assignment as `member:topic=p,p,...;` lines (benches/java's digest).
fn digest(assignment: &Assignment) -> String {
    let mut text = String::new();
    for (member, topics) in assignment {
        text.push_str(member);
        text.push(':');
        for (topic, partitions) in topics {
            text.push_str(topic);
            text.push('=');
            let list: Vec<String> = partitions.iter().map(u32::to_string).collect();
            text.push_str(&list.join(","));
            text.push(';');
        }
        text.push('\n');
    }
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for b in text.bytes() {
        hash ^= u64::from(b);
        hash = hash.wrapping_mul(0x0100_0000_01b3);
    }
    format!("{hash:016x}")
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

/// One of Kafka's figures from benches/java/run.sh.
struct JavaFigure {
    best_ms: f64,
    median_ms: f64,
    digest: String,
}

/// (assignor, "PxN", case) -> Kafka's figure.
type JavaFigures = BTreeMap<(String, String, String), JavaFigure>;

/// Runs Kafka's assignors through benches/java/run.sh, if `java` is on PATH.
fn java_figures(budget: Duration, sizes: &[(u32, usize)]) -> Option<JavaFigures> {
    if std::env::var("BENCH_JAVA").is_ok_and(|v| v == "0") {
        return None;
    }
    let on_path = std::env::var_os("PATH").is_some_and(|p| std::env::split_paths(&p).any(|d| d.join("java").is_file()));
    if !on_path {
        return None;
    }
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("benches/java/run.sh");
    let quick = std::env::var_os("BENCH_QUICK").is_some();
    let mut command = Command::new(script);
    command.arg(budget.as_millis().to_string()).arg(if quick { "5" } else { "30" }).arg(topic_id().to_string());
    for (p, n) in sizes {
        command.arg(format!("{p}x{n}"));
    }
    println!("running Kafka's assignors (benches/java/run.sh; the first run compiles them, about a minute)...");
    let output = match command.output() {
        Ok(o) if o.status.success() => o,
        Ok(o) => {
            println!("benches/java/run.sh failed ({}):\n{}", o.status, String::from_utf8_lossy(&o.stderr));
            return None;
        }
        Err(e) => {
            println!("benches/java/run.sh could not start: {e}");
            return None;
        }
    };
    let stderr = String::from_utf8_lossy(&output.stderr);
    if let Some(line) = stderr.lines().find(|l| l.starts_with("Kafka source:")) {
        println!("{line}");
    }
    let mut figures = JavaFigures::new();
    for line in String::from_utf8_lossy(&output.stdout).lines() {
        let f: Vec<&str> = line.split_whitespace().collect();
        if let ["java", name, size, case, best, median, _runs, _moved, digest] = f[..] {
            let (Ok(best_ms), Ok(median_ms)) = (best.parse(), median.parse()) else { continue };
            figures.insert(
                (name.to_string(), size.to_string(), case.to_string()),
                JavaFigure { best_ms, median_ms, digest: digest.to_string() },
            );
        }
    }
    Some(figures)
}

/// The id the coordinator's assignors see for the topic (Kafka's harness is given it too).
fn topic_id() -> Uuid {
    Uuid::derived(0, TOPIC)
}

struct Bench {
    budget: Duration,
    only: Option<Vec<String>>,
    java: Option<JavaFigures>,
}

impl Bench {
    fn wanted(&self, name: &str) -> bool {
        self.only.as_ref().is_none_or(|o| o.iter().any(|x| x == name))
    }
}

fn main() {
    let quick = std::env::var_os("BENCH_QUICK").is_some();
    let budget = Duration::from_millis(if quick { 200 } else { 2000 });
    let sizes: Vec<(u32, usize)> = match std::env::var("BENCH_SIZES") {
        Ok(list) => list
            .split(',')
            .filter_map(|s| {
                let (p, n) = s.trim().split_once('x')?;
                Some((p.parse().ok()?, n.parse().ok()?))
            })
            .collect(),
        Err(_) => vec![(2_000, 100), (10_000, 1_000)],
    };
    let only = std::env::var("BENCH_ONLY").ok().map(|s| s.split(',').map(|x| x.trim().to_string()).collect());
    let java = java_figures(budget, &sizes);
    let bench = Bench { budget, only, java };
    println!("assignors: one topic, every member subscribed; best and median of repeated runs (>= 3, ~{} s each)", budget.as_secs_f64());
    println!();
    let versus =
        if bench.java.is_some() { "Kafka (Java): best / median ms, ratio of bests and medians" } else { "vs kafka-python (target)" };
    println!(
        "{:<19} {:>13} {:<6} {:>10} {:>10} {:>9} {:>7} {:>6} {:>10}  {versus}",
        "assignor", "partitions", "case", "best ms", "median ms", "maps ms", "min/mbr", "max", "moved"
    );
    for &(partitions, n_members) in &sizes {
        let topics: BTreeMap<String, u32> = [(TOPIC.to_string(), partitions)].into();
        let fresh_members = members(n_members);
        for strategy in Strategy::ALL {
            if bench.wanted(strategy.name()) {
                fresh_then_leave(&bench, strategy, &topics, &fresh_members, partitions, true);
            }
        }
        for assignor in ServerAssignor::ALL {
            if bench.wanted(server_name(assignor)) {
                server_fresh_then_leave(&bench, assignor, partitions, &fresh_members);
            }
        }
        println!();
    }
    println!("moved: partitions whose owner differs from the fresh assignment (cooperative-sticky withholds");
    println!("those that change owner in this first round, so they count as moved). Kafka's figures: benches/java/run.sh");
    println!("(JIT warmed; only the assign call timed); \"same\": both computed the same assignment (a digest of it).");
    println!("Client assignors: best/median of assign_lists (each member's list, what the simulated leader calls);");
    println!("maps ms: best of assign (the same answer as maps, what kafka-sandbox assign prints). The coordinator's");
    println!("assignors: assign_server, target assignment and records.");
    println!();
    if bench.wanted("general") {
        general_path(&bench, &sizes);
    }
}

/// The bench's name for a coordinator assignor (`range` is taken by the client one).
fn server_name(assignor: ServerAssignor) -> &'static str {
    match assignor {
        ServerAssignor::Range => "server-range",
        other => other.name(),
    }
}

/// Unequal subscriptions take the sticky assignors' general path
/// (`GeneralAssignmentBuilder`): two topics of half the partitions each; even members
/// subscribe to both, odd ones to the first only. No other figures for this shape.
fn general_path(bench: &Bench, sizes: &[(u32, usize)]) {
    println!("sticky general path (unequal subscriptions: two topics, even members subscribe to both, odd to one)");
    for &(partitions, n_members) in sizes {
        let topics: BTreeMap<String, u32> = [("left".to_string(), partitions / 2), ("right".to_string(), partitions / 2)].into();
        let subs: Vec<Subscription> = (0..n_members)
            .map(|i| {
                let id = member_id(i);
                if i % 2 == 0 {
                    Subscription::new(&id, &["left", "right"])
                } else {
                    Subscription::new(&id, &["left"])
                }
            })
            .collect();
        for strategy in [Strategy::Sticky, Strategy::CooperativeSticky] {
            if bench.wanted(strategy.name()) {
                fresh_then_leave(bench, strategy, &topics, &subs, partitions, false);
            }
        }
    }
}

/// Times `strategy` on `members` fresh, then after the middle member (by id) leaves and the
/// others rejoin from generation 1 owning what the fresh run gave them; prints both rows
/// (`compared`: with Kafka's or kafka-python's figures).
fn fresh_then_leave(
    bench: &Bench,
    strategy: Strategy,
    topics: &BTreeMap<String, u32>,
    members: &[Subscription],
    partitions: u32,
    compared: bool,
) {
    let n_members = members.len();
    let row = Row { bench, name: strategy.name(), partitions, compared };
    let Some(fresh) = client_case(&row, strategy, topics, members, "fresh", None) else { return };
    let leaver = member_id(n_members / 2);
    let rest: Vec<Subscription> = members
        .iter()
        .filter(|m| m.member_id != leaver)
        .map(|m| {
            let mut m = m.clone();
            m.owned = fresh[&m.member_id].iter().flat_map(|(t, ps)| ps.iter().map(move |p| (t.clone(), *p))).collect();
            m.generation = Some(1);
            m
        })
        .collect();
    client_case(&row, strategy, topics, &rest, "leave", Some(&fresh));
}

/// Times one client case: `assign_lists` (what the simulated leader calls), then `assign`
/// (the same answer as maps, what `kafka-sandbox assign` prints) for the last column.
fn client_case(
    row: &Row,
    strategy: Strategy,
    topics: &BTreeMap<String, u32>,
    members: &[Subscription],
    case: &str,
    fresh: Option<&Assignment>,
) -> Option<Assignment> {
    let (best, median, lists) = time(3, row.bench.budget, || assign_lists(strategy, topics, members));
    let lists = match lists {
        Ok(lists) => lists,
        Err(e) => {
            println!("{strategy}: error {e:?}");
            return None;
        }
    };
    let maps_best = if std::env::var("BENCH_MAPS").is_ok_and(|v| v == "0") {
        None
    } else {
        Some(time(3, row.bench.budget, || assign(strategy, topics, members)).0)
    };
    let assignment = lists.into_outcome().assignment;
    row.print(members.len(), case, best, median, maps_best, &assignment, fresh.map(|f| count_moved(f, &assignment)));
    Some(assignment)
}

/// The coordinator's assignor fresh, then after the middle member leaves, the others'
/// current target assignments being the records the fresh run wrote.
fn server_fresh_then_leave(bench: &Bench, assignor: ServerAssignor, partitions: u32, members: &[Subscription]) {
    let metadata: BTreeMap<String, TopicMeta> = [(TOPIC.to_string(), TopicMeta { id: topic_id(), partitions })].into();
    let n_members = members.len();
    let row = Row { bench, name: server_name(assignor), partitions, compared: true };
    let (best, median, fresh) = time(3, bench.budget, || assign_server(assignor, &metadata, members));
    row.print(n_members, "fresh", best, median, None, &fresh.assignment, None);
    let leaver = member_id(n_members / 2);
    let rest: Vec<Subscription> = members
        .iter()
        .filter(|m| m.member_id != leaver)
        .map(|m| {
            let mut m = m.clone();
            m.owned = fresh.records.get(&m.member_id).cloned().unwrap_or_default();
            m
        })
        .collect();
    let (best, median, after) = time(3, bench.budget, || assign_server(assignor, &metadata, &rest));
    let moved = count_moved(&fresh.assignment, &after.assignment);
    row.print(n_members - 1, "leave", best, median, None, &after.assignment, Some(moved));
}

struct Row<'a> {
    bench: &'a Bench,
    name: &'a str,
    partitions: u32,
    compared: bool,
}

impl Row<'_> {
    #[allow(clippy::too_many_arguments)]
    fn print(
        &self,
        n_members: usize,
        case: &str,
        best: Duration,
        median: Duration,
        maps_best: Option<Duration>,
        assignment: &Assignment,
        moved: Option<usize>,
    ) {
        let (min, max) = spread(assignment);
        let (best_ms, median_ms) = (best.as_secs_f64() * 1000.0, median.as_secs_f64() * 1000.0);
        let size = format!("{}x{n_members}", self.partitions);
        let versus = match &self.bench.java {
            _ if !self.compared => String::new(),
            Some(java) => match java.get(&(self.name.to_string(), size.clone(), case.to_string())) {
                Some(k) => {
                    let (by_best, by_median) = (k.best_ms / best_ms, k.median_ms / median_ms);
                    format!(
                        "{:>8.3} {:>8.3}  {by_best:>6.1}x {by_median:>6.1}x  {}  {}",
                        k.best_ms,
                        k.median_ms,
                        if by_best >= JAVA_TARGET { "met" } else { "MISSED" },
                        if k.digest == digest(assignment) { "same" } else { "DIFFERENT RESULT" }
                    )
                }
                None => "(no Kafka figure)".to_string(),
            },
            None => match python_anchor(self.name) {
                Some((reference, target)) if self.partitions == 10_000 => {
                    let speedup = reference.as_secs_f64() / median.as_secs_f64();
                    format!(
                        "{speedup:.0}x faster than {} ms (target >= {target:.0}x: {})",
                        reference.as_millis(),
                        if speedup >= target { "met" } else { "MISSED" }
                    )
                }
                _ => String::new(),
            },
        };
        println!(
            "{:<19} {:>13} {:<6} {:>10.3} {:>10.3} {:>9} {:>7} {:>6} {:>10}  {}",
            self.name,
            size,
            case,
            best_ms,
            median_ms,
            maps_best.map_or("-".to_string(), |d| format!("{:.3}", d.as_secs_f64() * 1000.0)),
            min,
            max,
            moved.map_or("-".to_string(), |m| m.to_string()),
            versus
        );
    }
}
