//! **Question:** my consumer takes 200 ms per record. With the defaults
//! (`max.poll.records`=500, `max.poll.interval.ms`=300000), does it get kicked out of its
//! group for not calling `poll()` often enough?
//!
//! **Answer:** no. A full poll of 500 records takes 500 × 200 ms = 100 s to process, well
//! inside the 300 s `max.poll.interval.ms`: over a backlog of 1000 records it polls every
//! 100 s, commits 500 then 1000, and never leaves the group. At 1000 ms per record the same
//! batch takes 500 s: 300 s after the poll the consumer leaves the group (a poll timeout),
//! its partition is revoked and, since it never got to commit, it starts again from offset
//! 0 when it finally polls — and is kicked out again, forever: in 25 minutes it is
//! removed 3 times, processes 1490 records of which 990 twice, and commits nothing.
//! Lowering `max.poll.records` to 100 (100 s per batch) fixes it.
//!
//! Run it: `cargo run -p kafka-sandbox-core --example slow_consumer_poll_timeout`.

use kafka_sandbox_core::event::LeaveReason;
use kafka_sandbox_core::{
    ConsumeEvent, EventKind, GroupEvent, GroupSpec, MemberSpec, OffsetReset, ProducerSpec, Scenario, SendPlan, SimOptions, SimTime,
    TopicSpec,
};
use std::error::Error;

const BACKLOG: u64 = 1000;
const RUN_MS: u64 = 25 * 60 * 1000;

/// One consumer's settings and what the run did with them.
struct Case {
    processing_ms: u64,
    max_poll_records: u32,
    max_poll_interval_ms: u64,
    /// The most records one `poll()` returned.
    largest_poll: u64,
    /// The longest time between two `poll()`s that returned records.
    longest_gap_ms: u64,
    /// Times the consumer left the group because it did not poll in time.
    poll_timeouts: usize,
    processed: u64,
    duplicates: u64,
    committed: Option<u64>,
}

fn slow_consumer(processing_ms: u64, max_poll_records: u32) -> Result<Case, Box<dyn Error>> {
    let mut b = Scenario::builder();
    b.seed(0).brokers(1).offsets_topic_replication_factor(1).options(SimOptions::unbounded());
    let jobs = b.topic(TopicSpec::new("jobs"));
    // A backlog: 1000 records written at once, before the consumer starts.
    b.producer(ProducerSpec::new("app").send(SendPlan::values(&jobs, (0..BACKLOG).map(|i| format!("job-{i}")))));
    let member = MemberSpec::new("worker").processing_ms(processing_ms).max_poll_records(max_poll_records);
    let max_poll_interval_ms = member.config.max_poll_interval_ms;
    let workers = b.group(GroupSpec::new("workers", [&jobs]).auto_offset_reset(OffsetReset::Earliest).members([member]));
    let mut sim = b.build()?;
    sim.run_to(SimTime(RUN_MS));

    let read = sim.read();
    // Each poll() hands over its records at one moment: group the deliveries by time.
    let mut polls: Vec<(u64, u64)> = Vec::new();
    for e in read.events() {
        if let EventKind::Consume(ConsumeEvent::RecordDelivered { .. }) = e.kind {
            match polls.last_mut() {
                Some((at, n)) if *at == e.time.ms() => *n += 1,
                _ => polls.push((e.time.ms(), 1)),
            }
        }
    }
    let poll_timeouts = read
        .events()
        .filter(|e| matches!(e.kind, EventKind::Group(GroupEvent::MemberLeft { reason: LeaveReason::PollTimeout, .. })))
        .count();
    let group = read.group(&workers).ok_or("the group exists")?;
    let worker = group.member("worker").ok_or("the member exists")?;
    Ok(Case {
        processing_ms,
        max_poll_records,
        max_poll_interval_ms,
        largest_poll: polls.iter().map(|(_, n)| *n).max().unwrap_or(0),
        longest_gap_ms: polls.windows(2).map(|w| w[1].0 - w[0].0).max().unwrap_or(0),
        poll_timeouts,
        processed: worker.processed_total(),
        duplicates: group.duplicates(),
        committed: group.committed(&jobs.partition(0)),
    })
}

fn a_slow_consumer_stays_unless_a_batch_outlasts_the_poll_interval() -> Result<(), Box<dyn Error>> {
    let ok = slow_consumer(200, 500)?;
    let kicked = slow_consumer(1000, 500)?;
    let fixed = slow_consumer(1000, 100)?;

    println!("A consumer with a backlog of {BACKLOG} records, over {} minutes:", RUN_MS / 60_000);
    println!("ms/record  max.poll.records  max.poll.interval.ms  largest poll  longest poll gap  left group  processed  twice  committed");
    for c in [&ok, &kicked, &fixed] {
        println!(
            "{:>9}  {:>16}  {:>20}  {:>12}  {:>14.1} s  {:>10}  {:>9}  {:>5}  {:>9}",
            c.processing_ms,
            c.max_poll_records,
            c.max_poll_interval_ms,
            c.largest_poll,
            c.longest_gap_ms as f64 / 1000.0,
            c.poll_timeouts,
            c.processed,
            c.duplicates,
            c.committed.map_or("none".to_string(), |o| o.to_string()),
        );
    }
    println!(
        "Answer: at 200 ms/record a batch of 500 takes {:.0} s < {} s, so it stays; at 1000 ms/record it takes 500 s and the consumer \
         is kicked out {} times, redoing the same batch; max.poll.records=100 keeps it in.",
        ok.longest_gap_ms as f64 / 1000.0,
        ok.max_poll_interval_ms / 1000,
        kicked.poll_timeouts
    );

    // 200 ms × 500 records: 100 s a batch, inside 300 s. It stays and finishes.
    assert_eq!((ok.max_poll_records, ok.max_poll_interval_ms), (500, 300_000), "Kafka's defaults");
    assert_eq!(ok.largest_poll, 500);
    assert!(ok.longest_gap_ms >= 100_000 && ok.longest_gap_ms < ok.max_poll_interval_ms, "{}", ok.longest_gap_ms);
    assert_eq!((ok.poll_timeouts, ok.processed, ok.duplicates, ok.committed), (0, BACKLOG, 0, Some(BACKLOG)));
    // 1000 ms × 500 records: 500 s a batch. Kicked out, again and again, committing nothing.
    assert!(kicked.poll_timeouts >= 2, "{}", kicked.poll_timeouts);
    assert!(kicked.longest_gap_ms > kicked.max_poll_interval_ms);
    assert!(kicked.duplicates > 0);
    assert_eq!(kicked.committed, None, "it never commits the batch it is kicked out in the middle of");
    // 1000 ms × 100 records: 100 s a batch again.
    assert_eq!((fixed.poll_timeouts, fixed.processed, fixed.duplicates, fixed.committed), (0, BACKLOG, 0, Some(BACKLOG)));
    Ok(())
}

fn main() -> Result<(), Box<dyn Error>> {
    a_slow_consumer_stays_unless_a_batch_outlasts_the_poll_interval()
}

#[test]
fn a_200_ms_per_record_consumer_stays_in_its_group_and_a_1000_ms_one_is_kicked_out() {
    a_slow_consumer_stays_unless_a_batch_outlasts_the_poll_interval().expect("the run answers");
}
