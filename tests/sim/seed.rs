//! The seed material's examples, exactly: who receives which of m1..m7, in order.

use super::support::{partitions, received, run, run_built_in, words};
use kafka_sandbox_core::command::MemberSpec;
use kafka_sandbox_core::command::{GroupCommand, ProduceCommand};
use kafka_sandbox_core::event::{ConsumeEvent, GroupEvent, ProduceEvent};
use kafka_sandbox_core::scenario;
use kafka_sandbox_core::{Command, EventKind, SimTime};

#[test]
fn producer_round_robin_puts_m1_to_m7_on_partitions_0_1_2_3_0_1_2() {
    let sim = run_built_in("one-consumer");
    let placed: Vec<(String, u32)> = sim
        .trace()
        .events()
        .filter_map(|e| match &e.kind {
            EventKind::Produce(ProduceEvent::RecordAppended { partition, value, .. }) => Some((value.to_string(), *partition)),
            _ => None,
        })
        .collect();
    let expected: Vec<(String, u32)> = [0, 1, 2, 3, 0, 1, 2].iter().enumerate().map(|(i, p)| (format!("m{}", i + 1), *p)).collect();
    assert_eq!(placed, expected);
}

#[test]
fn one_consumer_receives_all_of_m1_to_m7_in_order() {
    let sim = run_built_in("one-consumer");
    assert_eq!(received(&sim, "ConsumerGroup01", "Consumer1"), words("m1 m2 m3 m4 m5 m6 m7"));
    assert_eq!(partitions(&sim, "ConsumerGroup01", "Consumer1"), vec![0, 1, 2, 3]);
}

#[test]
fn two_consumers_split_partitions_0_2_and_1_3() {
    let sim = run_built_in("two-consumers");
    assert_eq!(partitions(&sim, "ConsumerGroup01", "Consumer1"), vec![0, 2]);
    assert_eq!(partitions(&sim, "ConsumerGroup01", "Consumer2"), vec![1, 3]);
    assert_eq!(received(&sim, "ConsumerGroup01", "Consumer1"), words("m1 m3 m5 m7"));
    assert_eq!(received(&sim, "ConsumerGroup01", "Consumer2"), words("m2 m4 m6"));
}

#[test]
fn five_consumers_on_four_partitions_leave_the_fifth_idle() {
    let sim = run_built_in("five-consumers");
    let g = "ConsumerGroup01";
    assert_eq!(received(&sim, g, "Consumer1"), words("m1 m5"));
    assert_eq!(received(&sim, g, "Consumer2"), words("m2 m6"));
    assert_eq!(received(&sim, g, "Consumer3"), words("m3 m7"));
    assert_eq!(received(&sim, g, "Consumer4"), words("m4"));
    assert!(received(&sim, g, "Consumer5").is_empty());
    assert!(partitions(&sim, g, "Consumer5").is_empty());
    let c5 = sim.group(g).and_then(|g| g.member("Consumer5")).map(|m| m.activity());
    assert_eq!(c5, Some(kafka_sandbox_core::group::Activity::Idle));
}

#[test]
fn two_groups_each_receive_every_record() {
    let sim = run_built_in("two-groups");
    assert_eq!(received(&sim, "ConsumerGroup01", "Consumer1"), words("m1 m3 m5 m7"));
    assert_eq!(received(&sim, "ConsumerGroup01", "Consumer2"), words("m2 m4 m6"));
    assert_eq!(received(&sim, "ConsumerGroup02", "Consumer1"), words("m1 m2 m3 m4 m5 m6 m7"));
}

#[test]
fn default_scenario_is_the_two_group_seed() {
    let s = scenario::default_scenario();
    assert_eq!(s, scenario::built_in("two-groups").unwrap().unwrap());
}

#[test]
fn a_consumer_added_later_takes_over_partitions_from_the_committed_offsets() {
    // Run the two-consumer seed to the end (everything read and auto-committed on the
    // rebalance), then add Consumer3: RoundRobin over 3 members gives it partition 2,
    // and it starts from the committed offset, so it re-reads nothing.
    let mut sim = run_built_in("two-consumers");
    let end = sim.now();
    sim.apply(GroupCommand::AddMember { group: "ConsumerGroup01".into(), member: MemberSpec::new("Consumer3") }).unwrap();
    // The others learn of the rebalance at their next heartbeat (heartbeat.interval.ms).
    sim.run_to(end.plus_ms(5000));
    let g = "ConsumerGroup01";
    assert_eq!(partitions(&sim, g, "Consumer1"), vec![0, 3]);
    assert_eq!(partitions(&sim, g, "Consumer2"), vec![1]);
    assert_eq!(partitions(&sim, g, "Consumer3"), vec![2]);
    assert!(received(&sim, g, "Consumer3").is_empty(), "committed offsets prevent re-reading");
    sim.apply(ProduceCommand::Produce {
        producer: "Producer1".into(),
        topic: "Topic01".into(),
        key: None,
        value: Some("m8".into()),
        partition: Some(2),
        headers: vec![],
    })
    .unwrap();
    sim.run_to(sim.now().plus_ms(1000));
    assert_eq!(received(&sim, g, "Consumer3"), words("m8"));
    let group = sim.group(g).unwrap();
    assert_eq!(group.generation(), 2);
}

#[test]
fn removing_a_member_hands_its_partitions_to_the_rest_without_loss_or_duplicates() {
    let mut s = scenario::built_in("two-consumers").unwrap().unwrap();
    // Consumer2 leaves after m4 (sent at 8500, committed and read by 9000) has been read.
    s.commands.push(kafka_sandbox_core::scenario::TimedCommand {
        at_ms: 9100,
        command: Command::Group(GroupCommand::RemoveMember { group: "ConsumerGroup01".into(), client_id: "Consumer2".into() }),
    });
    s.duration_ms = Some(18_000);
    let sim = run(&s);
    let c1 = received(&sim, "ConsumerGroup01", "Consumer1");
    assert_eq!(partitions(&sim, "ConsumerGroup01", "Consumer1"), vec![0, 1, 2, 3]);
    // After the rebalance C1 reads m6 (P1, from Consumer2's commit) and m7 (its own P2)
    // in the order its fetches return them; what matters: each once, none missing.
    let mut sorted = c1.clone();
    sorted.sort();
    assert_eq!(sorted, words("m1 m3 m5 m6 m7"), "{c1:?}");
    assert!(sim.group("ConsumerGroup01").unwrap().member("Consumer2").is_none());
    let left = sim
        .trace()
        .events()
        .any(|e| matches!(&e.kind, EventKind::Group(GroupEvent::MemberLeft { client_id, .. }) if client_id == "Consumer2"));
    assert!(left);
}

#[test]
fn a_new_group_with_latest_reset_sees_only_new_records() {
    use kafka_sandbox_core::command::GroupSpec;
    use kafka_sandbox_core::config::{GroupConfig, OffsetReset};
    let mut sim = run_built_in("one-consumer");
    let mut spec = GroupSpec {
        id: "late".into(),
        topics: vec!["Topic01".into()],
        config: GroupConfig::default(),
        members: vec![MemberSpec::new("L1")],
        ..GroupSpec::default()
    };
    spec.config.auto_offset_reset = OffsetReset::Latest;
    sim.apply(GroupCommand::AddGroup { group: spec.clone() }).unwrap();
    sim.run_to(sim.now().plus_ms(4000));
    assert!(received(&sim, "late", "L1").is_empty());
    spec.id = "early".into();
    spec.config.auto_offset_reset = OffsetReset::Earliest;
    sim.apply(GroupCommand::AddGroup { group: spec }).unwrap();
    sim.run_to(sim.now().plus_ms(4000));
    let mut got = received(&sim, "early", "L1");
    got.sort();
    assert_eq!(got, words("m1 m2 m3 m4 m5 m6 m7"));
    assert_eq!(sim.now(), SimTime(sim.now().ms()));
}

#[test]
fn a_parked_fetch_is_answered_when_data_arrives_not_cut_short_by_an_older_timeout() {
    // Long polling: a fetch with nothing to return waits at the broker (fetch.max.wait.ms
    // = 500) and is answered as soon as a record is appended. Regression: the timeout of
    // an earlier fetch (parked at 3900, due at 4400) once ended the member's next fetch
    // (parked at 4315), so m2, appended at 4505, waited for yet another fetch.
    let mut s = scenario::built_in("one-consumer").unwrap().unwrap();
    // One replica: the HW moves at the append, so the timing is the fetch's alone.
    s.topics[0].replication_factor = 1;
    s.topics[0].min_insync_replicas = 1;
    s.producers[0].send[0].values = words("m1 m2");
    s.producers[0].send[0].start_ms = 4000;
    s.producers[0].send[0].interval_ms = 400;
    let sim = run(&s);
    let latency = sim.cluster().network_latency_ms;
    let mut appended = std::collections::BTreeMap::new();
    let mut delivered = Vec::new();
    for e in sim.trace().events() {
        match &e.kind {
            EventKind::Produce(ProduceEvent::RecordAppended { value, .. }) => {
                appended.insert(value.clone(), e.time);
            }
            EventKind::Consume(ConsumeEvent::RecordDelivered { value, .. }) => delivered.push((value.clone(), e.time)),
            _ => {}
        }
    }
    assert_eq!(delivered.len(), 2);
    for (value, at) in delivered {
        assert_eq!(at, appended[&value].plus_ms(latency), "{value} should arrive one hop after its append");
    }
}
