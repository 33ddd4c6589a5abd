//! The producer's RecordAccumulator and Sender under load: a default producer keeps up
//! with 1,000 records a second, `max.in.flight.requests.per.connection` counts per broker,
//! the last batch of a partition keeps filling while its broker is at the in-flight limit,
//! one Produce request per broker carries a batch for each of its partitions, and the
//! idempotent producer keeps each partition's order through retries.

use kafka_sandbox_core::command::{BrokerCommand, ProduceCommand};
use std::collections::BTreeMap;

use kafka_sandbox_core::config::{ClusterConfig, ProducerConfig};
use kafka_sandbox_core::event::EventKind;
use kafka_sandbox_core::event::ProduceEvent;
use kafka_sandbox_core::record::RecordId;
use kafka_sandbox_core::scenario::{ProducerSpec, Scenario, TopicSpec};
use kafka_sandbox_core::{Command, Sim, SimTime};

/// Three brokers (20 ms one way), topic "events" with `partitions` partitions on all
/// three (`min.insync.replicas` 2), and producer "p" with `config`.
fn cluster(partitions: u32, config: ProducerConfig) -> Sim {
    let scenario = Scenario {
        seed: 7,
        cluster: ClusterConfig { brokers: 3, network_latency_ms: 20, ..ClusterConfig::default() },
        topics: vec![TopicSpec {
            name: "events".into(),
            partitions,
            replication_factor: 3,
            min_insync_replicas: 2,
            ..TopicSpec::default()
        }],
        producers: vec![ProducerSpec { name: "p".into(), config, ..ProducerSpec::default() }],
        ..Scenario::default()
    };
    scenario.build().expect("test scenario builds")
}

fn produce(key: Option<String>, value: String) -> Command {
    Command::Produce(ProduceCommand::Produce {
        producer: "p".into(),
        topic: "events".into(),
        key,
        value: Some(value),
        partition: None,
        headers: vec![],
    })
}

/// What a load run saw, read from the trace as it goes (the trace keeps only the newest
/// events).
#[derive(Default)]
struct Load {
    sent_at: BTreeMap<RecordId, SimTime>,
    /// `send()` to the leader's append, per record.
    append_latency_ms: BTreeMap<RecordId, u64>,
    acked: u64,
    failed: u64,
}

impl Load {
    fn read(&mut self, sim: &Sim, from_seq: &mut u64) {
        for e in sim.events_since(*from_seq) {
            match &e.kind {
                EventKind::Produce(ProduceEvent::RecordSent { record, .. }) => {
                    self.sent_at.insert(*record, e.time);
                }
                EventKind::Produce(ProduceEvent::RecordAppended { record, .. }) => {
                    if let Some(sent) = self.sent_at.get(record) {
                        self.append_latency_ms.entry(*record).or_insert(e.time.ms() - sent.ms());
                    }
                }
                EventKind::Produce(ProduceEvent::RecordAcked { .. }) => self.acked += 1,
                EventKind::Produce(ProduceEvent::ProduceFailed { retrying: false, records, .. }) => self.failed += records.len() as u64,
                _ => {}
            }
        }
        *from_seq = sim.trace().total();
    }

    fn max_latency(&self) -> u64 {
        self.append_latency_ms.values().copied().max().unwrap_or(0)
    }

    /// The latency below which `q` of the appended records fall.
    fn quantile(&self, q: f64) -> u64 {
        let mut v: Vec<u64> = self.append_latency_ms.values().copied().collect();
        v.sort_unstable();
        v.get(((v.len() as f64 - 1.0) * q) as usize).copied().unwrap_or(0)
    }
}

/// Sends one record a millisecond for `seconds`, keyless or keyed by `keys` distinct keys,
/// then lets the producer drain for 10 seconds.
fn load(sim: &mut Sim, seconds: u64, keys: Option<u32>) -> Load {
    let mut load = Load::default();
    let mut seq = 0;
    let start = sim.now().ms() + 1;
    let mut n: u64 = 0;
    for s in 0..seconds {
        for i in 0..1000 {
            let key = keys.map(|k| format!("k{}", n % u64::from(k)));
            sim.schedule_command(SimTime(start + s * 1000 + i), produce(key, format!("r{n}")));
            n += 1;
        }
        sim.run_to(SimTime(start + (s + 1) * 1000));
        load.read(sim, &mut seq);
    }
    sim.run_to(SimTime(start + seconds * 1000 + 10_000));
    load.read(sim, &mut seq);
    load
}

#[test]
fn a_default_producer_keeps_up_with_1000_records_a_second_for_five_minutes() {
    let mut sim = cluster(12, ProducerConfig::default());
    sim.run_to(SimTime(1_000));
    let t0 = std::time::Instant::now();
    let load = load(&mut sim, 300, None);
    eprintln!(
        "1,000 records/s for 300 s (keyless, defaults): {} sent, {} appended, {} acked, {} failed; \
         send->append p50 {} ms, p99 {} ms, max {} ms; {:.1} s wall",
        load.sent_at.len(),
        load.append_latency_ms.len(),
        load.acked,
        load.failed,
        load.quantile(0.5),
        load.quantile(0.99),
        load.max_latency(),
        t0.elapsed().as_secs_f64()
    );
    assert_eq!(load.sent_at.len(), 300_000);
    assert_eq!(load.append_latency_ms.len(), 300_000, "every record is appended");
    assert!(load.max_latency() < 1_000, "every record appended within a second of send(), max {} ms", load.max_latency());
    assert_eq!(load.acked, 300_000);
    assert_eq!(load.failed, 0);
}

/// Sends `value` to an explicit partition.
fn send_to(sim: &mut Sim, partition: u32, value: String) {
    let c = Command::Produce(ProduceCommand::Produce {
        producer: "p".into(),
        topic: "events".into(),
        key: None,
        value: Some(value),
        partition: Some(partition),
        headers: vec![],
    });
    sim.apply(c).expect("produce");
}

fn leader(sim: &Sim, partition: u32) -> u32 {
    sim.topic("events").and_then(|t| t.partition(partition).expect("partition").leader()).expect("leader")
}

/// Records per `BatchSent`, in order, for one partition.
fn batch_sizes(sim: &Sim, partition: u32) -> Vec<usize> {
    sim.trace()
        .events()
        .filter_map(|e| match &e.kind {
            EventKind::Produce(ProduceEvent::BatchSent { partition: p, records, .. }) if *p == partition => Some(records.len()),
            _ => None,
        })
        .collect()
}

#[test]
fn max_in_flight_counts_per_broker_connection() {
    // Three partitions led by three brokers; linger.ms 0 and a record to each every
    // millisecond: every connection fills up to 5 requests (an acks=all round trip
    // takes about 80 ms), 15 in all.
    let mut sim = cluster(3, ProducerConfig { linger_ms: 0, ..ProducerConfig::default() });
    sim.run_to(SimTime(1_000));
    let leaders: Vec<u32> = (0..3).map(|p| leader(&sim, p)).collect();
    let mut distinct = leaders.clone();
    distinct.sort_unstable();
    distinct.dedup();
    assert_eq!(distinct.len(), 3, "one leader per broker: {leaders:?}");
    let mut most_per_broker = 0;
    let mut most_total = 0;
    for i in 0..200u32 {
        for p in 0..3 {
            send_to(&mut sim, p, format!("p{p}-{i}"));
        }
        sim.run_to(SimTime(1_000 + u64::from(i) + 1));
        let producer = sim.producers().next().expect("producer");
        for b in 0..3 {
            most_per_broker = most_per_broker.max(producer.in_flight_requests(b));
        }
        most_total = most_total.max(producer.in_flight_total());
    }
    assert_eq!(most_per_broker, 5, "max.in.flight.requests.per.connection bounds each connection");
    assert_eq!(most_total, 15, "5 in flight to each of the three leaders at once");
    sim.run_to(SimTime(3_000));
    let acked = sim.trace().events().filter(|e| matches!(e.kind, EventKind::Produce(ProduceEvent::RecordAcked { .. }))).count();
    assert_eq!(acked, 600);
}

#[test]
fn the_open_batch_keeps_filling_while_its_broker_is_at_the_in_flight_limit() {
    // One partition, linger.ms 0: each record would go at once, but after five requests
    // the connection is full; the records that follow join the partition's last batch,
    // which goes as one when a response frees a slot.
    let mut sim = cluster(1, ProducerConfig { linger_ms: 0, ..ProducerConfig::default() });
    sim.run_to(SimTime(1_000));
    let mut batched_at_the_limit = 0;
    for i in 0..1_000u64 {
        send_to(&mut sim, 0, format!("r{i}"));
        let producer = sim.producers().next().expect("producer");
        if producer.in_flight_requests(leader(&sim, 0)) == 5 {
            batched_at_the_limit = batched_at_the_limit.max(sim.snapshot().producers[0].batched);
        }
        sim.run_to(SimTime(1_000 + i + 1));
    }
    sim.run_to(SimTime(4_000));
    let sizes = batch_sizes(&sim, 0);
    assert_eq!(sizes.iter().sum::<usize>(), 1_000);
    assert_eq!(&sizes[..5], &[1, 1, 1, 1, 1], "the first five go one by one: {sizes:?}");
    assert!(sizes.len() < 100, "1,000 records in {} batches", sizes.len());
    // Responses come back in bursts (one HW step answers several requests), so a few
    // single-record batches still go whenever the connection has room again.
    assert!(sizes.iter().max().is_some_and(|n| *n >= 30), "batches grew while waiting: {sizes:?}");
    assert!(batched_at_the_limit >= 10, "records waited in the open batch at the limit ({batched_at_the_limit})");
    // batch.size still caps a batch: with 200 bytes, a waiting batch closes and the next
    // record starts another (which makes the partition sendable at once).
    let mut sim = cluster(1, ProducerConfig { linger_ms: 0, batch_size: 200, ..ProducerConfig::default() });
    sim.run_to(SimTime(1_000));
    for i in 0..1_000u64 {
        send_to(&mut sim, 0, format!("r{i:04}"));
        sim.run_to(SimTime(1_000 + i + 1));
    }
    sim.run_to(SimTime(4_000));
    let sizes = batch_sizes(&sim, 0);
    let record = kafka_sandbox_core::partitioner::record_size_in_bytes(None, Some(b"r0000"), &[]) as usize;
    let most = (200 - 61) / record;
    assert_eq!(sizes.iter().sum::<usize>(), 1_000);
    assert!(sizes.iter().all(|n| *n <= most), "no batch above batch.size ({most} records): {sizes:?}");
    assert!(sizes.iter().filter(|n| **n == most).count() > 50, "full batches under back-pressure: {sizes:?}");
}

#[test]
fn a_request_timeout_closes_the_connection_and_fails_every_request_on_it() {
    // The leader is cut off: five requests go out and are lost. When the oldest reaches
    // request.timeout.ms the producer closes the connection (NetworkClient), so all five
    // fail at that moment, not each at its own deadline.
    let config = ProducerConfig { linger_ms: 0, request_timeout_ms: 1_000, ..ProducerConfig::default() };
    let mut sim = cluster(1, config);
    sim.run_to(SimTime(1_000));
    let broker = leader(&sim, 0);
    sim.apply(BrokerCommand::IsolateBroker { broker }).expect("isolate");
    for i in 0..5u64 {
        send_to(&mut sim, 0, format!("r{i}"));
        sim.run_to(SimTime(1_000 + i + 1));
    }
    sim.run_to(SimTime(2_500));
    let timed_out: Vec<u64> = sim
        .trace()
        .events()
        .filter(|e| {
            matches!(
                e.kind,
                EventKind::Produce(ProduceEvent::ProduceFailed { error: kafka_sandbox_core::event::ProduceError::RequestTimedOut, .. })
            )
        })
        .map(|e| e.time.ms())
        .collect();
    assert_eq!(timed_out, vec![2_000; 5], "all five at the oldest one's deadline");
}

/// The values in the leader's log of partition `p`.
fn log_values(sim: &Sim, p: u32) -> Vec<String> {
    let part = &sim.topic("events").expect("topic").partition(p).expect("partition");
    let leader = part.leader().expect("leader");
    part.log_on(leader).expect("leader log").records().iter().map(|r| r.record.value.to_string()).collect()
}

#[test]
fn the_idempotent_producer_keeps_each_partitions_order_through_retries() {
    // Two partitions, a record to each every 2 ms; the leader of partition 0 crashes with
    // requests in flight and comes back: those fail (NETWORK_EXCEPTION), the leadership
    // moves, and the retries go to the new leader one at a time, oldest first, ahead of
    // the batches queued behind them.
    for idempotent in [true, false] {
        let config = ProducerConfig {
            linger_ms: 0,
            enable_idempotence: Some(idempotent),
            acks: if idempotent { kafka_sandbox_core::config::Acks::All } else { kafka_sandbox_core::config::Acks::Leader },
            ..ProducerConfig::default()
        };
        let mut sim = cluster(2, config);
        sim.run_to(SimTime(1_000));
        let old = leader(&sim, 0);
        let mut sent = [Vec::new(), Vec::new()];
        for i in 0..1_000u64 {
            if i == 200 {
                sim.apply(BrokerCommand::CrashBroker { broker: old }).expect("crash");
            }
            if i == 210 {
                sim.apply(BrokerCommand::RestartBroker { broker: old }).expect("restart");
            }
            for p in 0..2 {
                let v = format!("p{p}-{i:04}");
                sent[p as usize].push(v.clone());
                send_to(&mut sim, p, v);
            }
            sim.run_to(SimTime(1_000 + 2 * i + 2));
        }
        sim.run_to(SimTime(20_000));
        let retried = sim
            .trace()
            .events()
            .filter(|e| matches!(e.kind, EventKind::Produce(ProduceEvent::ProduceFailed { retrying: true, partition: 0, .. })))
            .count();
        assert!(retried > 0, "batches were retried");
        let mut order_kept = true;
        for p in 0..2 {
            let log = log_values(&sim, p);
            let mut deduped = log.clone();
            deduped.dedup();
            let in_order = log.windows(2).all(|w| w[0] < w[1]);
            if idempotent {
                assert!(in_order, "partition {p}: idempotent order and no duplicates");
                assert_eq!(log, sent[p as usize], "partition {p}: every record once, in send() order");
            }
            order_kept &= in_order;
        }
        if !idempotent {
            // Without idempotence a retry can land after a batch sent later.
            assert!(!order_kept, "acks=1 without idempotence reorders under these retries");
        }
    }
}

#[test]
fn the_sticky_partition_switches_between_batches_not_inside_one() {
    // KIP-794: after batch.size bytes the keyless producer moves to another partition,
    // but only once the current partition has no incomplete batch
    // (`RecordAccumulator.partitionChanged`): the record that would open a new batch
    // there goes to the next partition instead, so no one-record batch is left behind.
    let mut sim = cluster(6, ProducerConfig::default());
    sim.run_to(SimTime(1_000));
    let load = load(&mut sim, 10, None);
    assert_eq!(load.append_latency_ms.len(), 10_000);
    let mut runs = Vec::new();
    for e in sim.trace().events() {
        if let EventKind::Produce(ProduceEvent::RecordSent { partition, .. }) = e.kind {
            if runs.last() != Some(&partition) {
                runs.push(partition);
            }
        }
    }
    assert!(runs.len() >= 6, "the sticky partition moved: {runs:?}");
    let sizes: Vec<usize> = (0..6).flat_map(|p| batch_sizes(&sim, p)).collect();
    assert!(sizes.iter().all(|n| *n > 1), "no one-record batch at a switch: {sizes:?}");
}

/// Events of the producer about `record`: (time, kind name, error).
fn story(sim: &Sim, record: RecordId) -> Vec<(u64, &'static str, Option<&'static str>)> {
    sim.trace()
        .events()
        .filter_map(|e| match &e.kind {
            EventKind::Produce(ProduceEvent::SendBlocked { record: r, .. }) if *r == record => Some((e.time.ms(), "SendBlocked", None)),
            EventKind::Produce(ProduceEvent::RecordSent { record: r, .. }) if *r == record => Some((e.time.ms(), "RecordSent", None)),
            EventKind::Produce(ProduceEvent::RecordAcked { record: r, .. }) if *r == record => Some((e.time.ms(), "RecordAcked", None)),
            EventKind::Produce(ProduceEvent::ProduceFailed { records, error, retrying: false, .. }) if records.contains(&record) => {
                Some((e.time.ms(), "ProduceFailed", Some(error.name())))
            }
            _ => None,
        })
        .collect()
}

#[test]
fn a_producer_whose_buffer_is_full_blocks_then_fails_after_max_block_ms() {
    // `buffer.memory` holds two batches of `batch.size` 1000; `linger.ms` one minute keeps
    // them in the accumulator. A record for a third partition needs a third batch:
    // `BufferPool.allocate` blocks `send()` for `max.block.ms`, then it fails with
    // BufferExhaustedException. The application thread was inside that `send()`, so a
    // send it asked for meanwhile waits behind it, then blocks in its turn.
    let config =
        ProducerConfig { batch_size: 1000, buffer_memory: 2000, max_block_ms: 1000, linger_ms: 60_000, ..ProducerConfig::default() };
    let mut sim = cluster(3, config);
    sim.run_to(SimTime(100));
    send_to(&mut sim, 0, "a".into());
    send_to(&mut sim, 1, "b".into());
    let p = sim.producer("p").expect("producer");
    assert_eq!(p.buffer_available_bytes(), 0, "two batches hold the whole pool");
    send_to(&mut sim, 2, "c".into());
    assert_eq!(sim.producer("p").and_then(|p| p.blocked_send()), Some((RecordId(3), SimTime(100))));
    sim.run_to(SimTime(500));
    send_to(&mut sim, 0, "d".into());
    assert_eq!(sim.producer("p").map(|p| p.queued_sends()), Some(1), "d waits behind the blocked send");
    sim.run_to(SimTime(5_000));
    assert_eq!(story(&sim, RecordId(3)), vec![(100, "SendBlocked", None), (1100, "ProduceFailed", Some("BUFFER_EXHAUSTED"))]);
    // d's turn comes when c's send() returns; partition 0's batch still has room for it
    // (no new memory needed), so it goes in at once.
    assert_eq!(story(&sim, RecordId(4)), vec![(1100, "RecordSent", None)]);
    let p = sim.producer("p").expect("producer");
    assert_eq!((p.buffer_exhausted(), p.failed(), p.blocked_sends(), p.blocked_ms_total()), (1, 1, 1, 1000));
    let failed = p.sent().find(|s| s.record == RecordId(3)).and_then(|s| s.failed);
    assert_eq!(failed.map(|e| e.name()), Some("BUFFER_EXHAUSTED"), "the send's callback gets the exception");
    // A send that needs a new batch while the pool is still full blocks again.
    send_to(&mut sim, 2, "e".into());
    sim.run_to(SimTime(7_000));
    assert_eq!(story(&sim, RecordId(5)), vec![(5000, "SendBlocked", None), (6000, "ProduceFailed", Some("BUFFER_EXHAUSTED"))]);
}

#[test]
fn memory_given_back_by_acknowledged_batches_lets_a_blocked_send_through() {
    // Same pool of two batches, `linger.ms` 500: the first two batches leave at 600 and
    // are acknowledged (acks=all, 20 ms a hop) — their memory goes back to the pool and
    // the blocked send gets its batch then, well within `max.block.ms`; the send queued
    // behind it follows in order.
    let config = ProducerConfig { batch_size: 1000, buffer_memory: 2000, max_block_ms: 5_000, linger_ms: 500, ..ProducerConfig::default() };
    let mut sim = cluster(3, config);
    sim.run_to(SimTime(100));
    send_to(&mut sim, 0, "a".into());
    send_to(&mut sim, 1, "b".into());
    send_to(&mut sim, 2, "c".into());
    send_to(&mut sim, 2, "d".into());
    sim.run_to(SimTime(3_000));
    let a = story(&sim, RecordId(1));
    let acked_a = a.iter().find(|s| s.1 == "RecordAcked").map(|s| s.0).expect("a acknowledged");
    let c = story(&sim, RecordId(3));
    assert_eq!(c[0], (100, "SendBlocked", None));
    assert_eq!(c[1], (acked_a, "RecordSent", None), "c gets its batch when a's batch gives its memory back");
    assert_eq!(c[2].1, "RecordAcked");
    assert_eq!(story(&sim, RecordId(4))[0], (acked_a, "RecordSent", None), "d, queued behind c, goes right after it");
    let p = sim.producer("p").expect("producer");
    assert_eq!((p.acknowledged(), p.failed(), p.buffer_exhausted(), p.blocked_sends()), (4, 0, 0, 1));
    assert_eq!(p.blocked_ms_total(), acked_a - 100);
    assert_eq!(p.buffer_available_bytes(), 2000, "everything done: the whole pool is free again");
}

#[test]
fn a_buffer_smaller_than_a_batch_is_refused_and_a_record_larger_than_the_buffer_fails_at_once() {
    let config = ProducerConfig { batch_size: 1000, buffer_memory: 999, ..ProducerConfig::default() };
    let scenario = Scenario {
        topics: vec![TopicSpec { name: "events".into(), ..TopicSpec::default() }],
        producers: vec![ProducerSpec { name: "p".into(), config, ..ProducerSpec::default() }],
        ..Scenario::default()
    };
    let Err(err) = scenario.build() else { panic!("a buffer smaller than a batch is refused") };
    assert_eq!(
        err.to_string(),
        "producers[0].config.buffer_memory: is 999; allowed: at least batch_size (1000): a batch must fit in buffer.memory"
    );
    let config = ProducerConfig { batch_size: 100, buffer_memory: 500, ..ProducerConfig::default() };
    let mut sim = cluster(1, config);
    send_to(&mut sim, 0, "x".repeat(600));
    sim.run_to(SimTime(100));
    assert_eq!(story(&sim, RecordId(1)), vec![(0, "ProduceFailed", Some("RECORD_TOO_LARGE"))]);
}
