//! **Question:** two consumers share a topic and a third one joins. How long does each
//! consumer stop consuming under the classic protocol with eager `range`, with
//! `cooperative-sticky`, and with the KIP-848 consumer protocol (`group.protocol=consumer`)?
//!
//! **Answer:** under eager `range` every consumer gives up all its partitions and stops
//! until the new assignment arrives: here c1 and c2 stop for 120 ms each, and the group is
//! settled 1.2 s after the join. Under `cooperative-sticky` and KIP-848, c1 and c2 never
//! stop: each keeps the two partitions it keeps and hands over only one. But the handover
//! is slower, so the moved partitions wait longer for c3: 4 s of partition-time without a
//! consumer under cooperative-sticky (two rebalance rounds), 10 s under KIP-848 (members
//! learn of and acknowledge the revocation on their heartbeats, every
//! `group.consumer.heartbeat.interval.ms` = 5 s), against 0.7 s under eager. Incremental
//! protocols stop fewer consumers, not the moved partitions sooner.
//!
//! Run it: `cargo run -p kafka-sandbox-core --example rebalance_pause_by_protocol`.

use kafka_sandbox_core::compare::{compare_protocols, Change, Comparison, MemberRun, ProtocolRun, Variant};
use kafka_sandbox_core::{GroupSpec, MemberSpec, OffsetReset, ProducerSpec, Scenario, SendPlan, SimTime, TopicSpec};
use std::error::Error;

const JOIN_AT_MS: u64 = 20_000;
const WINDOW_MS: u64 = 15_000;

fn compare_a_join() -> Result<Comparison, Box<dyn Error>> {
    let mut b = Scenario::builder();
    b.seed(0).brokers(3);
    let events = b.topic(TopicSpec::new("events").partitions(6).replication_factor(3).min_insync_replicas(2));
    // A steady stream: 50 records a second for a minute.
    b.producer(ProducerSpec::new("app").send(SendPlan::values(&events, (0..3000).map(|i| format!("e{i}"))).every_ms(20)));
    let readers = b.group(
        GroupSpec::new("readers", [&events])
            .auto_offset_reset(OffsetReset::Earliest)
            .members([MemberSpec::new("c1"), MemberSpec::new("c2")]),
    );
    // The group's protocol and assignor are set by the comparison, once per run.
    let scenario = b.scenario()?;
    Ok(compare_protocols(&scenario, &readers, &Change::Join { client_id: "c3".into() }, SimTime(JOIN_AT_MS), WINDOW_MS)?)
}

fn label(v: Variant) -> &'static str {
    match v {
        Variant::Eager => "classic, eager range",
        Variant::Cooperative => "classic, cooperative-sticky",
        Variant::Consumer => "consumer (KIP-848), uniform",
    }
}

fn member<'a>(run: &'a ProtocolRun, client_id: &str) -> Result<&'a MemberRun, String> {
    run.members.iter().find(|m| m.client_id == client_id).ok_or_else(|| format!("{:?}: no member {client_id}", run.variant))
}

/// The first sample at which the member consumed something, as ms after the change (the
/// comparison samples ownership every `sample_ms`, so this is an upper bound).
fn consuming_after_ms(c: &Comparison, m: &MemberRun) -> Option<u64> {
    m.owned.iter().position(|n| *n > 0).map(|i| (i as u64 + 1) * c.sample_ms)
}

fn who_stops_when_a_consumer_joins() -> Result<(), Box<dyn Error>> {
    let c = compare_a_join()?;
    println!(
        "c1 and c2 read 6 partitions; c3 joins at {:.1} s. Over the next {:.0} s (ownership sampled every {} ms):",
        JOIN_AT_MS as f64 / 1000.0,
        WINDOW_MS as f64 / 1000.0,
        c.sample_ms
    );
    println!(
        "{:<28}  {:>10}  {:>10}  {:>14}  {:>16}  {:>18}  {:>13}",
        "protocol", "c1 stopped", "c2 stopped", "c1/c2 gave up", "c3 consuming by", "partitions unread", "settled after"
    );
    for run in &c.runs {
        let (c1, c2, c3) = (member(run, "c1")?, member(run, "c2")?, member(run, "c3")?);
        println!(
            "{:<28}  {:>7} ms  {:>7} ms  {:>14}  {:>13} ms  {:>15} ms  {:>10} ms",
            label(run.variant),
            c1.paused_ms,
            c2.paused_ms,
            format!("{} / {}", c1.revoked, c2.revoked),
            consuming_after_ms(&c, c3).map_or("never".into(), |t| t.to_string()),
            run.partition_downtime_ms,
            run.settled_after_ms.map_or("never".into(), |t| t.to_string()),
        );
    }
    println!("(\"partitions unread\": partition-time without a consumer, summed over the 6 partitions.)");

    let [eager, cooperative, consumer] = [Variant::Eager, Variant::Cooperative, Variant::Consumer]
        .map(|v| c.runs.iter().find(|r| r.variant == v).ok_or_else(|| format!("no {v:?} run")));
    let (eager, cooperative, consumer) = (eager?, cooperative?, consumer?);
    println!(
        "Answer: eager stops both consumers ({} ms and {} ms); cooperative-sticky and KIP-848 stop neither, but leave the moved \
         partitions unread longer ({} ms and {} ms against {} ms).",
        member(eager, "c1")?.paused_ms,
        member(eager, "c2")?.paused_ms,
        cooperative.partition_downtime_ms,
        consumer.partition_downtime_ms,
        eager.partition_downtime_ms
    );

    for old in ["c1", "c2"] {
        // Eager: everyone gives up everything (3 partitions each) and stops.
        let m = member(eager, old)?;
        assert!(m.paused_ms > 0, "eager stops {old}: {m:?}");
        assert_eq!(m.revoked, 3, "eager revokes all of {old}'s partitions");
        // Incremental: the old members keep consuming and give up one partition each.
        for run in [cooperative, consumer] {
            let m = member(run, old)?;
            assert_eq!(m.paused_ms, 0, "{:?} does not stop {old}: {m:?}", run.variant);
            assert_eq!(m.revoked, 1, "{:?}: {old} hands over one partition", run.variant);
        }
    }
    // The price: the moved partitions wait longer, and the group takes longer to settle.
    assert!(cooperative.partition_downtime_ms > eager.partition_downtime_ms);
    assert!(consumer.partition_downtime_ms > cooperative.partition_downtime_ms);
    assert_eq!(cooperative.rebalances, 2, "cooperative-sticky takes two rounds: revoke, then assign");
    for run in &c.runs {
        assert!(run.settled_after_ms.is_some(), "{:?} settles within the window", run.variant);
        assert_eq!(member(run, "c3")?.owned.last(), Some(&2), "{:?}: c3 ends with 2 of the 6 partitions", run.variant);
        assert_eq!((run.duplicates, run.lost), (0, 0), "{:?}: a clean join neither repeats nor skips a record", run.variant);
    }
    Ok(())
}

fn main() -> Result<(), Box<dyn Error>> {
    who_stops_when_a_consumer_joins()
}

#[test]
fn only_eager_stops_the_existing_consumers_but_it_moves_partitions_fastest() {
    who_stops_when_a_consumer_joins().expect("the comparison answers");
}
