//! The benchmarks' shared scenario: 3 brokers, one topic of 12 partitions with replication
//! factor 3, one producer, two consumer groups (also compiled into `web/tests/bench.rs`).
//!
//! Built through the scenario API (`Scenario::from_json`, `check`, `build`), as a person's
//! file would be; only the planned values are filled in by code, because 100,000 of them
//! would make the JSON text long.

#![allow(dead_code)] // Each bench binary uses its own part.

use kafka_sandbox_core::{Scenario, Sim};

/// Settings of the throughput scenario. Consumers process in 0 ms so that they keep up
/// with the producer and the run measures the simulation, not a backlog. The producer has
/// Kafka's defaults (`linger.ms` 5): since `658147e` it keeps up with 1,000 records a
/// second (the figures in BENCHMARKS.md before 2026-11-29 evening used `linger.ms` 50).
pub const THROUGHPUT_JSON: &str = r#"{
  "version": 1,
  "name": "bench: 3 brokers, RF 3, 12 partitions, 2 groups",
  "seed": 7,
  "cluster": { "brokers": 3, "network_latency_ms": 20 },
  "topics": [
    { "name": "events", "partitions": 12, "replication_factor": 3, "min_insync_replicas": 2 }
  ],
  "producers": [
    { "name": "producer",
      "send": [ { "topic": "events", "values": ["v"], "start_ms": 5000, "interval_ms": 1 } ] }
  ],
  "groups": [
    { "id": "billing", "topics": ["events"],
      "config": { "assignor": "range", "auto_offset_reset": "earliest" },
      "members": [
        { "client_id": "billing-1", "config": { "processing_ms": 0 } },
        { "client_id": "billing-2", "config": { "processing_ms": 0 } },
        { "client_id": "billing-3", "config": { "processing_ms": 0 } }
      ] },
    { "id": "audit", "topics": ["events"],
      "config": { "assignor": "cooperative-sticky", "auto_offset_reset": "earliest" },
      "members": [
        { "client_id": "audit-1", "config": { "processing_ms": 0 } },
        { "client_id": "audit-2", "config": { "processing_ms": 0 } }
      ] }
  ]
}"#;

/// When the producer starts (after both groups have formed).
pub const START_MS: u64 = 5000;

/// The throughput scenario with `records` keyless records, one every `interval_ms` from
/// [`START_MS`] (at most 100,000: the scenario format's timeline limit).
pub fn throughput_scenario(records: u32, interval_ms: u64) -> Scenario {
    let mut scenario = match Scenario::from_json(THROUGHPUT_JSON) {
        Ok(s) => s,
        Err(e) => panic!("the bench scenario is invalid: {e}"),
    };
    let plan = &mut scenario.producers[0].send[0];
    plan.values = (0..records).map(|i| format!("r{i}")).collect();
    plan.interval_ms = interval_ms;
    if let Err(e) = scenario.check() {
        panic!("the bench scenario is invalid: {e}");
    }
    scenario
}

/// What one throughput run did.
pub struct Run {
    pub sim: Sim,
    /// Records each group processed (summed over its members).
    pub processed: Vec<(String, u64)>,
}

/// Builds the scenario and runs it until both groups have processed every record (or
/// `limit_ms` of simulated time passed).
pub fn run_throughput(scenario: &Scenario, records: u32, limit_ms: u64) -> Run {
    let mut sim = match scenario.build() {
        Ok(sim) => sim,
        Err(e) => panic!("the bench scenario does not build: {e}"),
    };
    let step_ms = 1000;
    let mut t = 0;
    loop {
        t += step_ms;
        sim.run_to(kafka_sandbox_core::SimTime(t));
        let processed = processed(&sim);
        let done = processed.iter().all(|(_, n)| *n >= u64::from(records));
        if done || t >= limit_ms {
            return Run { sim, processed };
        }
    }
}

/// Records processed per group (summed over its members).
pub fn processed(sim: &Sim) -> Vec<(String, u64)> {
    sim.read().groups().map(|g| (g.id().to_string(), g.members().map(|m| m.processed_total()).sum())).collect()
}

/// The memory scenario: the throughput scenario's cluster and groups with retention on
/// (`retention.ms` one minute, segments rolled every 10 s, checked every 30 s), fed by
/// [`feed`] rather than planned sends. Consumers take 1 ms per record.
pub const MEMORY_JSON: &str = r#"{
  "version": 1,
  "name": "bench: 1,000 records/s with retention",
  "seed": 7,
  "cluster": { "brokers": 3, "network_latency_ms": 20, "log_retention_check_interval_ms": 30000 },
  "topics": [
    { "name": "events", "partitions": 12, "replication_factor": 3, "min_insync_replicas": 2,
      "retention_ms": 60000, "segment_ms": 10000, "segment_bytes": 1048576 }
  ],
  "producers": [ { "name": "producer", "config": { "linger_ms": 50 } } ],
  "groups": [
    { "id": "billing", "topics": ["events"],
      "config": { "assignor": "range", "auto_offset_reset": "earliest" },
      "members": [
        { "client_id": "billing-1", "config": { "processing_ms": 1 } },
        { "client_id": "billing-2", "config": { "processing_ms": 1 } },
        { "client_id": "billing-3", "config": { "processing_ms": 1 } }
      ] },
    { "id": "audit", "topics": ["events"],
      "config": { "assignor": "cooperative-sticky", "auto_offset_reset": "earliest" },
      "members": [
        { "client_id": "audit-1", "config": { "processing_ms": 1 } },
        { "client_id": "audit-2", "config": { "processing_ms": 1 } }
      ] }
  ]
}"#;

/// Queues one simulated second of production from `from_ms`: `per_second` keyless
/// records, evenly spaced, numbered from `first`. They go on the timeline
/// (`Sim::schedule_command`), not through `Sim::apply`, so the command log stays empty.
pub fn feed(sim: &mut Sim, from_ms: u64, per_second: u64, first: u64) {
    for i in 0..per_second {
        sim.schedule_command(
            kafka_sandbox_core::SimTime(from_ms + i * 1000 / per_second),
            kafka_sandbox_core::Command::Produce(kafka_sandbox_core::ProduceCommand::Produce {
                producer: "producer".into(),
                topic: "events".into(),
                key: None,
                value: Some(format!("r{}", first + i)),
                partition: None,
                headers: Vec::new(),
            }),
        );
    }
}

/// The page benchmark's large scenario (issue 7): 10 brokers, one topic of 240 partitions
/// with replication factor 3, two groups of 20 members, and a producer sending 100 records
/// a second (50,000 of them). `large.json` holds the settings; the members and values are
/// filled in here and, identically, by scripts/bench-page.mjs.
pub const LARGE_JSON: &str = include_str!("large.json");

/// [`LARGE_JSON`] with its members and values, as JSON text (what the page is given).
pub fn large_scenario_json() -> String {
    let mut scenario = match Scenario::from_json(LARGE_JSON) {
        Ok(s) => s,
        Err(e) => panic!("the large bench scenario is invalid: {e}"),
    };
    scenario.producers[0].send[0].values = (0..50_000).map(|i| format!("v{i}")).collect();
    for group in &mut scenario.groups {
        let prefix = group.id.clone();
        group.members = (1..=20).map(|i| kafka_sandbox_core::MemberSpec::new(format!("{prefix}-{i:02}"))).collect();
    }
    scenario.to_json_pretty()
}

/// Issue 20's long busy run (`long.json`): 12 partitions, two producers of 30,000 records at
/// 10 a second each, three groups of 3 members. The page's figures play it at 20×.
pub const LONG_JSON: &str = include_str!("long.json");

/// `long.json` with its 30,000 values per producer and 3 members per group filled in.
pub fn long_scenario_json() -> String {
    let mut scenario = match Scenario::from_json(LONG_JSON) {
        Ok(s) => s,
        Err(e) => panic!("the long bench scenario is invalid: {e}"),
    };
    for (p, producer) in scenario.producers.iter_mut().enumerate() {
        let tag = if p == 0 { "a" } else { "b" };
        producer.send[0].values = (0..30_000).map(|i| format!("{tag}{i}")).collect();
    }
    for group in &mut scenario.groups {
        let prefix = group.id.clone();
        group.members = (1..=3).map(|i| kafka_sandbox_core::MemberSpec::new(format!("{prefix}-{i}"))).collect();
    }
    scenario.to_json_pretty()
}
