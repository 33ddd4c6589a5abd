//! `__consumer_offsets` as a real compacted topic (issue 19), scenario by scenario: commits
//! land as records keyed by (group, topic, partition); the cleaner compacts them to the
//! newest per key; offsets that expire after `offsets.retention.minutes` get tombstones and
//! the group restarts from `auto.offset.reset`; a new coordinator loads the group's offsets
//! from the partition's log.

use kafka_sandbox_core::command::{BrokerCommand, GroupCommand, GroupSpec, MemberSpec, ProduceCommand};
use kafka_sandbox_core::config::{ClusterConfig, CommitMode, ConsumerConfig, GroupConfig, OffsetReset};
use kafka_sandbox_core::event::{CompactionEvent, ConsumeEvent, EventKind};
use kafka_sandbox_core::scenario::{ProducerSpec, Scenario, TopicSpec};
use kafka_sandbox_core::{Sim, SimTime};

/// Group "g" (auto.offset.reset earliest, one member "c1" auto-committing every second) on
/// "t" (3 partitions, 3 replicas) over 3 brokers; offsets kept one minute, checked every
/// 10 s; `__consumer_offsets` segments of `segment_bytes`; cleaners every second.
fn build(segment_bytes: u64) -> Sim {
    build_with(segment_bytes, kafka_sandbox_core::SimOptions::default())
}

fn build_with(segment_bytes: u64, options: kafka_sandbox_core::SimOptions) -> Sim {
    let scenario = Scenario {
        seed: 9,
        cluster: ClusterConfig {
            brokers: 3,
            network_latency_ms: 10,
            group_initial_rebalance_delay_ms: 0,
            offsets_retention_minutes: 1,
            offsets_retention_check_interval_ms: 10_000,
            offsets_topic_segment_bytes: segment_bytes,
            log_cleaner_backoff_ms: 1_000,
            broker_session_timeout_ms: 3_000,
            ..ClusterConfig::default()
        },
        topics: vec![TopicSpec { name: "t".into(), partitions: 3, replication_factor: 3, ..TopicSpec::default() }],
        producers: vec![ProducerSpec { name: "p".into(), ..ProducerSpec::default() }],
        groups: vec![GroupSpec {
            id: "g".into(),
            topics: vec!["t".into()],
            config: GroupConfig { auto_offset_reset: OffsetReset::Earliest, ..GroupConfig::default() },
            members: vec![consumer("c1")],
            ..GroupSpec::default()
        }],
        ..Scenario::default()
    };
    scenario.build_with(options).expect("test scenario builds")
}

fn consumer(client_id: &str) -> MemberSpec {
    MemberSpec {
        client_id: client_id.into(),
        config: ConsumerConfig { commit_mode: CommitMode::Auto, auto_commit_interval_ms: 1_000, ..ConsumerConfig::default() },
        ..MemberSpec::default()
    }
}

fn produce(sim: &mut Sim, from: u32, n: u32) {
    for i in from..from + n {
        let command = ProduceCommand::Produce {
            producer: "p".into(),
            topic: "t".into(),
            key: Some(format!("k{i}")),
            value: Some(format!("m{i}")),
            partition: None,
            headers: vec![],
        };
        sim.apply(command).expect("produce");
    }
}

fn received(sim: &Sim, client: &str) -> Vec<String> {
    let g = sim.group("g").expect("group g");
    g.member(client).map(|m| m.received().map(|d| d.value.to_string()).collect()).unwrap_or_default()
}

/// The group's offsets as `__consumer_offsets` holds them now: the newest record per
/// `["g","t",p]` key (tombstoned keys left out), as (key, value).
fn offsets_in_topic(sim: &Sim) -> Vec<(String, String)> {
    let topic = sim.read().offsets_topic();
    let p = topic.partition_of("g").expect("the offsets topic exists");
    let Some(log) = topic.partition(p).and_then(|p| p.log()) else { return Vec::new() };
    log.latest_per_key()
        .into_iter()
        .filter_map(|r| {
            let key = r.record.key.as_deref()?.to_string();
            key.starts_with("[\"g\",").then(|| (key, r.record.value.to_string()))
        })
        .collect()
}

fn committed(sim: &Sim) -> Vec<(String, u64)> {
    let g = sim.group("g").expect("group g");
    g.committed_offsets().map(|(tp, o)| (tp.to_string(), o)).collect()
}

#[test]
fn each_commit_lands_in_the_groups_consumer_offsets_partition_keyed_by_group_topic_and_partition() {
    let mut sim = build(104_857_600);
    sim.run_to(SimTime(1_000));
    produce(&mut sim, 0, 9);
    sim.run_to(SimTime(10_000));
    assert_eq!(received(&sim, "c1").len(), 9);
    let topic = sim.read().offsets_topic();
    assert_eq!(topic.partition_count(), 50);
    let p = topic.partition_of("g").expect("partition");
    // Java's "g".hashCode() is 103: partition 103 % 50 = 3.
    assert_eq!(p, 3);
    let part = topic.partition(p).expect("partition 3");
    assert_eq!(part.groups(), ["g"]);
    assert_eq!(part.replicas().len(), 3);
    assert_eq!(sim.group("g").and_then(|g| g.coordinator()), part.leader(), "its leader is the group's coordinator");
    // The newest record of each key is the committed offset.
    let in_topic = offsets_in_topic(&sim);
    assert_eq!(in_topic.len(), 3, "{in_topic:?}");
    let committed = committed(&sim);
    assert_eq!(committed.iter().map(|(_, o)| o).sum::<u64>(), 9);
    for (tp, o) in &committed {
        let (topic, partition) = tp.rsplit_once('-').expect("t-N");
        let key = format!("[\"g\",\"{topic}\",{partition}]");
        let value = &in_topic.iter().find(|(k, _)| *k == key).expect("a record per committed partition").1;
        assert!(value.starts_with(&format!("{{\"offset\":{o},")), "{key} = {value}");
    }
    // The group's metadata is there too, under the group's id.
    let log = part.log().expect("a log");
    let meta: Vec<&str> =
        log.records().iter().filter(|r| r.record.key.as_deref() == Some("\"g\"")).map(|r| r.record.value.as_str()).collect();
    assert!(meta.iter().any(|v| v.contains("\"generation\":1") && v.contains("\"members\":[\"c1\"]")), "{meta:?}");
    // A quiet group writes nothing more: the commits that move nothing add no record.
    let end = log.log_end_offset();
    let mut quiet = sim.clone();
    quiet.run_to(SimTime(20_000));
    let after = quiet.read().offsets_topic().partition(p).and_then(|p| p.log()).map(|l| l.log_end_offset());
    assert_eq!(after, Some(end));
}

#[test]
fn the_cleaner_compacts_consumer_offsets_to_the_newest_commit_of_each_key() {
    // Segments of 300 bytes: a commit record is about 110 bytes with its batch header.
    let mut sim = build(300);
    sim.run_to(SimTime(1_000));
    for i in 0..20 {
        produce(&mut sim, i * 3, 3);
        let t = sim.now().plus_ms(1_500);
        sim.run_to(t);
    }
    sim.run_to(sim.now().plus_ms(5_000));
    let cleaned: Vec<(u64, usize)> = sim
        .trace()
        .events()
        .filter_map(|e| match &e.kind {
            EventKind::Compaction(CompactionEvent::LogCleaned { topic, end_offset, removed, .. }) if topic == "__consumer_offsets" => {
                Some((*end_offset, removed.len()))
            }
            _ => None,
        })
        .collect();
    assert!(!cleaned.is_empty(), "the cleaner compacted the group's partition");
    assert!(cleaned.iter().any(|(_, n)| *n > 0), "{cleaned:?}");
    let topic = sim.read().offsets_topic();
    let log = topic.partition(topic.partition_of("g").expect("p")).and_then(|p| p.log()).expect("log");
    let checkpoint = log.cleaner_checkpoint().expect("cleaned at least once");
    // Below the checkpoint each key appears once (its newest record as of the pass);
    // offsets kept their places (increasing, with gaps).
    let clean: Vec<&str> = log.records().iter().filter(|r| r.offset < checkpoint).filter_map(|r| r.record.key.as_deref()).collect();
    let mut unique = clean.clone();
    unique.sort_unstable();
    unique.dedup();
    assert_eq!(clean.len(), unique.len(), "one record per key in the clean part: {clean:?}");
    let offsets: Vec<u64> = log.records().iter().map(|r| r.offset).collect();
    assert!(offsets.windows(2).all(|w| w[0] < w[1]));
    assert!(offsets.len() < log.log_end_offset() as usize, "gaps where older commits were");
    // Nothing a consumer relies on was lost: the newest per key is still the committed offset.
    let committed: u64 = committed(&sim).iter().map(|(_, o)| o).sum();
    assert_eq!(committed, 60);
    let in_topic: u64 = offsets_in_topic(&sim)
        .iter()
        .map(|(_, v)| v.trim_start_matches("{\"offset\":").split(',').next().and_then(|o| o.parse::<u64>().ok()).unwrap_or(0))
        .sum();
    assert_eq!(in_topic, committed);
}

/// How many records the group's `__consumer_offsets` partition holds, and its LEO.
fn offsets_log_size(sim: &Sim) -> (usize, u64) {
    let topic = sim.read().offsets_topic();
    let log = topic.partition(topic.partition_of("g").expect("p")).and_then(|p| p.log()).expect("log");
    (log.records().len(), log.log_end_offset())
}

#[test]
fn a_busy_groups_offsets_stay_bounded_in_memory_under_kafkas_segment_size() {
    // Kafka's 100 MiB segments: the active one is never compacted. The sandbox rolls at
    // SimOptions::offsets_segment_bytes (here 2,000 bytes; 1 MiB by default), so the
    // cleaner keeps the partition to about a segment's worth of commits.
    let options = kafka_sandbox_core::SimOptions::default().with_offsets_segment_bytes(2_000);
    let mut sim = build_with(104_857_600, options);
    assert_eq!(sim.read().offsets_topic().segment_bytes(), 2_000);
    sim.run_to(SimTime(1_000));
    let mut most = 0;
    for i in 0..120 {
        produce(&mut sim, i * 3, 3);
        let t = sim.now().plus_ms(1_000);
        sim.run_to(t);
        most = most.max(offsets_log_size(&sim).0);
    }
    let (held, written) = offsets_log_size(&sim);
    assert!(written > 200, "a commit record a second or so: {written}");
    assert!(most < 60 && held < 60, "held {held} (at most {most}) of {written} written");
    // Unbounded, the same run keeps every record: nothing is ever compacted.
    let mut kafka = build_with(104_857_600, kafka_sandbox_core::SimOptions::unbounded());
    kafka.run_to(SimTime(1_000));
    for i in 0..120 {
        produce(&mut kafka, i * 3, 3);
        let t = kafka.now().plus_ms(1_000);
        kafka.run_to(t);
    }
    let (held, written) = offsets_log_size(&kafka);
    assert_eq!(held as u64, written);
}

#[test]
fn committed_offsets_expire_after_offsets_retention_minutes_once_the_group_is_empty_and_the_group_restarts_from_auto_offset_reset() {
    let mut sim = build(104_857_600);
    sim.run_to(SimTime(1_000));
    produce(&mut sim, 0, 9);
    sim.run_to(SimTime(10_000));
    assert_eq!(received(&sim, "c1").len(), 9);
    sim.apply(GroupCommand::RemoveMember { group: "g".into(), client_id: "c1".into() }).expect("remove");
    sim.run_to(SimTime(11_000));
    assert_eq!(offsets_in_topic(&sim).len(), 3, "the offsets outlive the members");
    // Empty since ~10 s: the first check a minute later (every 10 s: at 80 s) expires them.
    sim.run_to(SimTime(75_000));
    assert_eq!(committed(&sim).len(), 3, "kept for offsets.retention.minutes");
    sim.run_to(SimTime(85_000));
    let expired: Vec<u64> = sim
        .trace()
        .events()
        .filter_map(|e| {
            matches!(&e.kind, EventKind::Consume(ConsumeEvent::OffsetsExpired { group, .. }) if group == "g").then_some(e.time.ms())
        })
        .collect();
    assert_eq!(expired, [80_000]);
    assert!(committed(&sim).is_empty());
    // Each expired offset got a tombstone: the topic no longer holds them.
    assert!(offsets_in_topic(&sim).is_empty());
    let topic = sim.read().offsets_topic();
    let log = topic.partition(topic.partition_of("g").expect("p")).and_then(|p| p.log()).expect("log");
    let tombstones: Vec<&str> = log.records().iter().filter(|r| r.record.tombstone).filter_map(|r| r.record.key.as_deref()).collect();
    assert_eq!(tombstones.len(), 3, "{tombstones:?}");
    assert!(tombstones.iter().all(|k| k.starts_with("[\"g\",\"t\",")));
    // A member that joins now starts from auto.offset.reset (earliest): every record again.
    sim.apply(GroupCommand::AddMember { group: "g".into(), member: consumer("c2") }).expect("add");
    sim.run_to(SimTime(100_000));
    let mut again = received(&sim, "c2");
    again.sort();
    assert_eq!(again.len(), 9, "{again:?}");
}

#[test]
fn a_new_coordinator_loads_the_groups_offsets_from_consumer_offsets() {
    let mut sim = build(104_857_600);
    sim.run_to(SimTime(1_000));
    produce(&mut sim, 0, 9);
    sim.run_to(SimTime(10_000));
    let before = committed(&sim);
    assert_eq!(before.iter().map(|(_, o)| o).sum::<u64>(), 9);
    let old = sim.group("g").and_then(|g| g.coordinator()).expect("a coordinator");
    sim.apply(BrokerCommand::CrashBroker { broker: old }).expect("crash");
    // The controller fences it after broker.session.timeout.ms (3 s) and elects a new leader
    // of the group's partition, which loads it.
    sim.run_to(SimTime(20_000));
    let p = sim.read().offsets_topic().partition_of("g").expect("p");
    let loads: Vec<(u32, u32, Vec<String>, u32, u64)> = sim
        .trace()
        .events()
        .filter_map(|e| match &e.kind {
            EventKind::Compaction(CompactionEvent::CoordinatorLoaded { partition, broker, groups, offsets, records, .. }) => {
                Some((*partition, *broker, groups.clone(), *offsets, *records))
            }
            _ => None,
        })
        .collect();
    let new = sim.group("g").and_then(|g| g.coordinator()).expect("a new coordinator");
    assert_ne!(new, old);
    assert_eq!(loads.len(), 1, "{loads:?}");
    let (partition, broker, groups, offsets, records) = &loads[0];
    assert_eq!((*partition, *broker, groups.as_slice(), *offsets), (p, new, ["g".to_string()].as_slice(), 3));
    assert!(*records >= 4, "the commits and the metadata: {records}");
    assert_eq!(committed(&sim), before, "the loaded offsets are the committed ones");
    // The consumer goes on from them: new records once, nothing read again.
    produce(&mut sim, 9, 6);
    sim.run_to(SimTime(40_000));
    let mut got = received(&sim, "c1");
    got.sort();
    got.dedup();
    assert_eq!(got.len(), 15);
    assert_eq!(received(&sim, "c1").len(), 15, "no record delivered twice");
    assert_eq!(committed(&sim).iter().map(|(_, o)| o).sum::<u64>(), 15);
}
