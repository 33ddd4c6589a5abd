//! **Question:** with `acks=1`, can a record the producer was told is written disappear?
//!
//! **Answer:** yes. `acks=1` means the leader answers as soon as it has appended the record
//! itself. Here the two followers are slow (each replica fetch takes 5 s longer: a busy
//! disk), so they are still in the ISR — `replica.lag.time.max.ms` is 30 s — but have not
//! copied p2 when the leader crashes right after acknowledging it at offset 1. The
//! controller fences the dead broker after `broker.session.timeout.ms` (9 s) and elects
//! one of the followers: a clean election from the ISR, and the new leader's log ends
//! before offset 1, so p2 is gone. The guarantee monitors report it as
//! `FindingKind::AcknowledgedRecordLost { acks: Acks::Leader, cause: LossCause::LeaderFailover }`,
//! not as a broken promise: Kafka never promised to keep it (`min.insync.replicas=2` does
//! not change that; it applies to `acks=all` writes only). The same happens for every seed
//! tried; the test sweeps 10.
//!
//! Run it: `cargo run -p kafka-sandbox-core --example acks_one_loses_record`.

use kafka_sandbox_core::event::LossCause;
use kafka_sandbox_core::monitor::FindingKind;
use kafka_sandbox_core::{Acks, BrokerCommand, Command, EventKind, ProduceEvent, ProducerSpec, Scenario, SendPlan, SimTime, TopicSpec};
use std::error::Error;

/// What one run showed.
struct Loss {
    old_leader: u32,
    new_leader: u32,
    epoch: u32,
    acked_at_ms: u64,
    acked_offset: u64,
    elected_at_ms: u64,
    now_at_offset: Option<String>,
    log: Vec<String>,
    lost_values: Vec<String>,
}

fn acks_one_loses_an_acknowledged_record(seed: u64) -> Result<Loss, Box<dyn Error>> {
    let mut b = Scenario::builder();
    b.seed(seed).brokers(3);
    let payments = b.topic(TopicSpec::new("payments").partitions(1).replication_factor(3).min_insync_replicas(2));
    // One record that every replica copies before anything goes wrong.
    let app = b.producer(ProducerSpec::new("app").acks(Acks::Leader).linger_ms(0).send(SendPlan::values(&payments, ["p1"]).start_ms(500)));
    let mut sim = b.build()?;
    let tp = payments.partition(0);

    sim.run_until(|r| r.partition(&tp).is_some_and(|p| p.high_watermark() == 1), SimTime(10_000))?;
    let (old_leader, followers) = {
        let part = sim.read().partition(&tp).ok_or("the partition exists")?;
        let leader = part.leader().ok_or("the partition has a leader")?;
        (leader, part.replicas().iter().copied().filter(|b| *b != leader).collect::<Vec<_>>())
    };

    // The followers slow down (no builder shorthand for this one: the command itself).
    for f in &followers {
        sim.apply(BrokerCommand::SlowBroker { broker: *f, slow_ms: 5_000 })?;
    }
    sim.run_for(std::time::Duration::from_secs(1));

    // p2 is acknowledged by the leader alone; the leader dies at that moment.
    sim.apply(Command::produce(&app, &payments, None, "p2"))?;
    let ack = sim.run_until_event(
        |e| matches!(&e.kind, EventKind::Produce(ProduceEvent::RecordAcked { value, .. }) if value == "p2"),
        SimTime(60_000),
    )?;
    let EventKind::Produce(ProduceEvent::RecordAcked { offset, .. }) = ack.kind else { return Err("an acknowledgement".into()) };
    let acked_offset = u64::try_from(offset)?;
    let isr_at_ack = sim.read().partition(&tp).map(|p| p.isr().to_vec()).unwrap_or_default();
    assert_eq!(isr_at_ack.len(), 3, "the slow followers are still in the ISR when p2 is acknowledged");
    sim.apply(Command::crash_broker(old_leader))?;

    let elected_at = sim.run_until(|r| r.partition(&tp).and_then(|p| p.leader()).is_some_and(|l| l != old_leader), SimTime(60_000))?;
    sim.run_for(std::time::Duration::from_secs(10));

    let read = sim.read();
    let part = read.partition(&tp).ok_or("the partition exists")?;
    let log = part.log().ok_or("the new leader has a log")?;
    let lost: Vec<_> =
        read.findings().iter().filter(|f| matches!(f.kind, FindingKind::AcknowledgedRecordLost { .. }) && f.tp == tp).collect();
    assert_eq!(lost.len(), 1, "one loss finding: {lost:?}");
    let finding = lost[0];
    assert_eq!(finding.kind, FindingKind::AcknowledgedRecordLost { acks: Acks::Leader, cause: LossCause::LeaderFailover });
    assert!(!finding.promised, "acks=1 promises nothing after a leader failover");
    sim.check_promises()?;
    let values: Vec<String> = log.records().iter().map(|r| r.record.value.to_string()).collect();
    assert!(!values.iter().any(|v| v == "p2"), "p2 is not in the new leader's log: {values:?}");
    assert!(part.lost().any(|l| l.value == "p2"), "the partition lists p2 among the records the leader change left behind");

    Ok(Loss {
        old_leader,
        new_leader: part.leader().ok_or("a leader")?,
        epoch: part.leader_epoch(),
        acked_at_ms: ack.time.ms(),
        acked_offset,
        elected_at_ms: elected_at.ms(),
        now_at_offset: log.record(acked_offset).map(|r| r.record.value.to_string()),
        log: values,
        lost_values: finding.values.clone(),
    })
}

fn main() -> Result<(), Box<dyn Error>> {
    let l = acks_one_loses_an_acknowledged_record(0)?;
    println!("acks=1, replication factor 3, min.insync.replicas=2; both followers 5 s slow (still in the ISR)");
    println!("  p2 acknowledged by leader broker {} at {} ms, offset {}", l.old_leader, l.acked_at_ms, l.acked_offset);
    println!(
        "  broker {} crashed at once; broker {} elected from the ISR at {} ms (epoch {})",
        l.old_leader, l.new_leader, l.elected_at_ms, l.epoch
    );
    match &l.now_at_offset {
        Some(v) => println!("  the new leader's log: {:?}; offset {} now holds {v}", l.log, l.acked_offset),
        None => println!("  the new leader's log: {:?}; it ends before offset {}", l.log, l.acked_offset),
    }
    println!("  monitors' finding: acknowledged (acks=1) record lost in a leader failover: {:?} (not a broken promise)", l.lost_values);
    println!("Answer: yes, an acknowledged record is lost.");
    assert_eq!(l.lost_values, ["p2"]);
    Ok(())
}

#[test]
fn acks_one_loses_the_acknowledged_record_for_every_seed() {
    kafka_sandbox_core::for_seeds(0..10, |seed| {
        let l = acks_one_loses_an_acknowledged_record(seed).expect("the run answers");
        assert_eq!(l.lost_values, ["p2"]);
        assert_eq!(l.log, ["p1"]);
    });
}
