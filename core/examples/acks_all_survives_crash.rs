//! **Question:** with `acks=all`, `min.insync.replicas=2` and a replication factor of 3,
//! do I lose an acknowledged record when the partition's leader crashes in the middle of a
//! stream of writes?
//!
//! **Answer:** no. The producer sends 200 records, one every 50 ms; the leader crashes at
//! 4 s, when 79 are acknowledged. Writes stall for 9 s, until the controller fences the
//! dead broker (`broker.session.timeout.ms`) and elects a new leader from the ISR; the
//! idempotent producer retries its failed requests (12 here), and by 13.6 s all 200 records
//! are acknowledged. Every acknowledged record is in the new leader's log at the offset its
//! acknowledgement gave, once, in send order, and the guarantee monitors find no broken
//! promise.
//!
//! Run it: `cargo run -p kafka-sandbox-core --example acks_all_survives_crash`.

use kafka_sandbox_core::{Acks, Command, EventKind, ProduceEvent, ProducerSpec, Scenario, SendPlan, SimOptions, SimTime, TopicSpec};
use std::collections::BTreeMap;
use std::error::Error;

const RECORDS: usize = 200;
const CRASH_AT_MS: u64 = 4_000;

fn acks_all_survives_a_leader_crash() -> Result<(), Box<dyn Error>> {
    let mut b = Scenario::builder();
    b.seed(1).brokers(3).options(SimOptions::unbounded());
    let orders = b.topic(TopicSpec::new("orders").partitions(1).replication_factor(3).min_insync_replicas(2));
    let values: Vec<String> = (0..RECORDS).map(|i| format!("order-{i}")).collect();
    let app = b.producer(ProducerSpec::new("app").acks(Acks::All).linger_ms(0).send(SendPlan::values(&orders, values).every_ms(50)));
    let mut sim = b.build()?;
    let tp = orders.partition(0);

    // The leader is placed by the seed: read it, then crash it mid-stream.
    sim.run_to(SimTime(CRASH_AT_MS));
    let old_leader = sim.read().partition(&tp).and_then(|p| p.leader()).ok_or("the partition has a leader")?;
    let acked_before = acked(&sim, &app).len();
    sim.apply(Command::crash_broker(old_leader))?;
    let crashed_at = sim.now();

    // Until a new leader is elected, then until every record is acknowledged.
    let elected_at = sim.run_until(|r| r.partition(&tp).and_then(|p| p.leader()).is_some_and(|l| l != old_leader), SimTime(60_000))?;
    let all_acked_at = sim.run_until(
        |r| r.producer(&app).is_some_and(|p| p.sent().filter(|s| s.acked_offset.is_some()).count() == RECORDS),
        SimTime(120_000),
    )?;
    sim.run_for(std::time::Duration::from_secs(5));

    // The monitors watched every append, copy, truncation and election.
    sim.assert_no_broken_promises();

    // And the same check by hand: each acknowledged record is at its offset in the log.
    let read = sim.read();
    let part = read.partition(&tp).ok_or("the partition exists")?;
    let log = part.log().ok_or("the partition has a log")?;
    let acks = acked(&sim, &app);
    let mut missing = Vec::new();
    for (value, offset) in &acks {
        if log.record(*offset).map(|r| r.record.value.as_str()) != Some(value.as_str()) {
            missing.push(value.clone());
        }
    }
    let in_log: Vec<&str> = log.records().iter().map(|r| r.record.value.as_str()).collect();
    let sent: Vec<String> = read.producer(&app).ok_or("the producer exists")?.sent().map(|s| s.value.to_string()).collect();
    let new_leader = part.leader().ok_or("the partition has a leader")?;
    // Produce requests that failed and were retried (to the dead leader, or before the election).
    let retried =
        read.events().filter(|e| matches!(&e.kind, EventKind::Produce(ProduceEvent::ProduceFailed { retrying: true, .. }))).count();

    println!("acks=all, min.insync.replicas=2, replication factor 3; {RECORDS} records, one every 50 ms");
    println!("  leader broker {old_leader} crashed at {} ms, {acked_before} of {RECORDS} records acknowledged by then", crashed_at.ms());
    println!(
        "  broker {new_leader} elected leader (epoch {}) at {} ms: writes stalled {} ms; {retried} failed produce requests retried",
        part.leader_epoch(),
        elected_at.ms(),
        elected_at.ms() - crashed_at.ms()
    );
    println!(
        "  all {RECORDS} acknowledged by {} ms; ISR {:?}, high watermark {}, log end offset {}",
        all_acked_at.ms(),
        part.isr(),
        part.high_watermark(),
        part.log_end_offset()
    );
    println!(
        "  acknowledged records missing from the log: {}; broken promises found by the monitors: {}",
        missing.len(),
        read.promises_broken()
    );
    println!("Answer: no acknowledged record was lost.");

    assert_eq!(acks.len(), RECORDS, "every record is acknowledged in the end");
    assert!(missing.is_empty(), "acknowledged but not in the log: {missing:?}");
    assert_eq!(in_log, sent, "the log holds every record once, in send order");
    assert_ne!(new_leader, old_leader);
    assert!(acked_before > 0 && acked_before < RECORDS, "the crash came mid-stream");
    assert!(sim.dropped().is_none(), "SimOptions::unbounded() kept the whole run");
    Ok(())
}

/// The producer's acknowledged sends: value → offset the acknowledgement gave.
fn acked(sim: &kafka_sandbox_core::Sim, producer: &str) -> BTreeMap<String, u64> {
    let Some(p) = sim.read().producer(producer) else { return BTreeMap::new() };
    p.sent().filter_map(|s| Some((s.value.to_string(), u64::try_from(s.acked_offset?).ok()?))).collect()
}

fn main() -> Result<(), Box<dyn Error>> {
    acks_all_survives_a_leader_crash()
}

#[test]
fn acks_all_loses_no_acknowledged_record_when_the_leader_crashes() {
    acks_all_survives_a_leader_crash().expect("the run answers");
}

/// The quick start of core/README.md, exactly as written there (the test after it checks
/// that the README still shows this code).
#[cfg(test)]
mod readme_quick_start {
    use kafka_sandbox_core::{Acks, Command, ProducerSpec, Scenario, SendPlan, SimOptions, SimTime, TopicSpec};

    #[test]
    fn acks_all_keeps_every_record_when_a_broker_crashes() -> Result<(), Box<dyn std::error::Error>> {
        let mut b = Scenario::builder();
        b.seed(7).brokers(3).options(SimOptions::unbounded());
        let orders = b.topic(TopicSpec::new("orders").partitions(3).replication_factor(3).min_insync_replicas(2));
        let values = (0..100).map(|i| format!("order-{i}"));
        b.producer(ProducerSpec::new("app").acks(Acks::All).send(SendPlan::values(&orders, values).every_ms(20)));
        b.at(1_000, Command::crash_broker(0));
        let mut sim = b.build()?;
        sim.run_to(SimTime(30_000));
        sim.assert_no_broken_promises();
        let read = sim.read();
        let committed: u64 = (0..3).filter_map(|p| read.partition(&orders.partition(p))).map(|p| p.high_watermark()).sum();
        assert_eq!(committed, 100, "every record is below its partition's high watermark");
        Ok(())
    }
}

#[test]
fn the_readme_quick_start_is_the_code_of_readme_quick_start() {
    let readme = include_str!("../README.md");
    let block = readme.split("```rust\n").nth(1).and_then(|rest| rest.split("```").next()).expect("core/README.md has a rust block");
    let wanted: Vec<&str> = block.lines().map(str::trim).collect();
    let source: Vec<&str> = include_str!("acks_all_survives_crash.rs").lines().map(str::trim).collect();
    assert!(
        source.windows(wanted.len()).any(|w| w == wanted.as_slice()),
        "core/README.md's quick start differs from mod readme_quick_start in core/examples/acks_all_survives_crash.rs"
    );
}
