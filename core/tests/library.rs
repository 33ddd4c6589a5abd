//! The library as an engineer embeds it: only the public API (this is an external crate).
//! The builder and its refusals, the bounds and what says data was dropped, run control,
//! properties and seed sweeps, and the read API's counters.

use kafka_sandbox_core::event::{EventKind, GroupEvent, ProduceEvent};
use kafka_sandbox_core::{
    for_seeds, Acks, ClusterConfig, Command, GroupId, GroupSpec, MemberSpec, OffsetReset, ProducerSpec, Property, RunError, Scenario,
    ScenarioBuilder, SendPlan, SimOptions, SimTime, TopicName, TopicSpec,
};

/// Three brokers, `orders` with 3 partitions and RF 3, a producer sending `n` records
/// every 10 ms, and a group of two reading from the earliest offset.
fn shop(n: usize) -> (ScenarioBuilder, TopicName, GroupId) {
    let mut b = Scenario::builder();
    b.seed(3).brokers(3);
    let orders = b.topic(TopicSpec::new("orders").partitions(3).replication_factor(3).min_insync_replicas(2));
    b.producer(ProducerSpec::new("app").acks(Acks::All).send(SendPlan::values(&orders, (0..n).map(|i| format!("m{i}"))).every_ms(10)));
    let billing = b.group(
        GroupSpec::new("billing", [&orders])
            .auto_offset_reset(OffsetReset::Earliest)
            .members([MemberSpec::new("c1"), MemberSpec::new("c2")]),
    );
    (b, orders, billing)
}

#[test]
fn a_built_scenario_is_the_json_format_and_loads_back_equal() {
    let (b, _, _) = shop(5);
    let scenario = b.scenario().expect("valid");
    let text = scenario.to_json_pretty();
    assert!(text.contains("\"replication_factor\": 3"), "{text}");
    assert_eq!(Scenario::from_json(&text).expect("loads"), scenario);
}

/// Each refusal names the field by its JSON path and says what is allowed.
#[test]
fn the_builder_refuses_what_kafka_would_refuse_naming_the_field() {
    let refused = |b: &ScenarioBuilder| b.build().err().map(|e| e.to_string()).unwrap_or_else(|| "built".into());

    let mut b = Scenario::builder();
    b.brokers(3);
    b.topic(TopicSpec::new("t").replication_factor(5));
    let e = refused(&b);
    assert!(e.starts_with("topics[0].replication_factor") && e.contains("5 replicas") && e.contains("3 broker"), "{e}");

    let mut b = Scenario::builder();
    b.topic(TopicSpec::new("t").replication_factor(2).min_insync_replicas(3));
    let e = refused(&b);
    assert!(e.starts_with("topics[0].min_insync_replicas") && e.contains('3') && e.contains('2'), "{e}");

    let mut b = Scenario::builder();
    b.brokers(0);
    b.topic(TopicSpec::new("t"));
    let e = refused(&b);
    assert!(e.starts_with("cluster.brokers"), "{e}");

    let mut b = Scenario::builder();
    b.topic(TopicSpec::new("t").partitions(0));
    assert!(refused(&b).starts_with("topics[0].partitions"), "{}", refused(&b));

    // A send plan to a topic that does not exist (a handle from another builder).
    let (_, elsewhere, _) = shop(1);
    let mut b = Scenario::builder();
    b.topic(TopicSpec::new("t"));
    b.producer(ProducerSpec::new("p").send(SendPlan::values(&elsewhere, ["x"])));
    let e = refused(&b);
    assert!(e.starts_with("producers[0].send[0].topic") && e.contains("orders"), "{e}");

    // A timeline command for a member that does not exist by then.
    let (mut b, _, billing) = shop(1);
    b.at(1_000, Command::crash_member(&billing.member("c9")));
    let e = refused(&b);
    assert!(e.starts_with("commands[0]") && e.contains("c9"), "{e}");

    // Explicit idempotence with a setting that rules it out: Kafka's producer refuses to
    // start (`ProducerConfig.postProcessAndValidateIdempotenceConfigs`).
    let mut b = Scenario::builder();
    let t = b.topic(TopicSpec::new("t"));
    b.producer(ProducerSpec::new("p").enable_idempotence(true).acks(Acks::Leader).send(SendPlan::values(&t, ["x"])));
    let e = refused(&b);
    assert!(e.starts_with("producers[0].config.acks") && e.contains("enable_idempotence") && e.contains("\"all\""), "{e}");
    let mut b = Scenario::builder();
    b.topic(TopicSpec::new("t"));
    b.producer(ProducerSpec::new("p").enable_idempotence(true).retries(0));
    assert!(refused(&b).starts_with("producers[0].config.retries"), "{}", refused(&b));
    let mut b = Scenario::builder();
    b.topic(TopicSpec::new("t"));
    b.producer(ProducerSpec::new("p").enable_idempotence(true).max_in_flight_requests_per_connection(6));
    assert!(refused(&b).starts_with("producers[0].config.max_in_flight_requests_per_connection"), "{}", refused(&b));
    // Left unset, idempotence is simply off under acks=1 (Kafka 3.0+'s default rule).
    let mut b = Scenario::builder();
    b.topic(TopicSpec::new("t"));
    b.producer(ProducerSpec::new("p").acks(Acks::Leader));
    assert_eq!(refused(&b), "built");

    // Nothing at all: a scenario needs a topic.
    assert!(refused(&Scenario::builder()).starts_with("topics"), "{}", refused(&Scenario::builder()));
}

#[test]
fn a_bounded_trace_says_it_was_truncated_and_an_unbounded_one_does_not() {
    let (mut b, _, _) = shop(50);
    b.options(SimOptions::default().with_trace_events(100));
    let mut sim = b.build().expect("valid");
    sim.run_to(SimTime(5_000));
    assert!(sim.trace().is_truncated());
    assert_eq!(sim.trace().events().len(), 100);
    assert_eq!(sim.dropped().trace_events, sim.trace().total() - 100);
    assert!(!sim.dropped().is_none());

    let (mut b, _, _) = shop(50);
    b.options(SimOptions::unbounded());
    let mut sim = b.build().expect("valid");
    sim.run_to(SimTime(5_000));
    assert!(!sim.trace().is_truncated());
    assert!(sim.dropped().is_none(), "{:?}", sim.dropped());
}

/// A checker over forgotten data does not say "no broken promise": it says it cannot tell.
#[test]
fn the_promise_checker_refuses_to_answer_from_forgotten_records() {
    let (mut b, _, _) = shop(300);
    b.options(SimOptions::default().with_monitor_records(20));
    let mut sim = b.build().expect("valid");
    sim.run_to(SimTime(10_000));
    assert!(!sim.monitors().is_complete());
    let e = sim.check_promises().expect_err("the monitors forgot records");
    assert!(e.to_string().contains("cannot tell") && e.to_string().contains("SimOptions::unbounded()"), "{e}");
    let panic = std::panic::catch_unwind(|| sim.assert_no_broken_promises()).expect_err("it panics");
    assert!(panic.downcast_ref::<String>().is_some_and(|m| m.contains("seed 3")));

    let (mut b, _, _) = shop(300);
    b.options(SimOptions::unbounded());
    let mut sim = b.build().expect("valid");
    sim.run_to(SimTime(10_000));
    assert!(sim.monitors().is_complete());
    sim.assert_no_broken_promises();
}

#[test]
fn other_bounds_are_counted_as_dropped() {
    let (mut b, _, _) = shop(40);
    b.options(SimOptions::default().with_sent_per_producer(10).with_received_per_member(5));
    let mut sim = b.build().expect("valid");
    sim.run_to(SimTime(10_000));
    let d = sim.dropped();
    assert_eq!(d.sent, 30);
    let group = sim.group("billing").expect("group");
    assert_eq!(group.members().map(|m| m.received_total()).sum::<u64>(), 40);
    assert!(group.members().all(|m| m.received().count() <= 5));
    assert_eq!(d.received, group.members().map(|m| m.received_total().saturating_sub(5)).sum::<u64>());
    assert!(d.received > 0);
    let p = sim.producer("app").expect("producer");
    assert_eq!((p.sent_total(), p.sent().len(), p.acknowledged()), (40, 10, 40), "counters cover the whole run");
}

#[test]
fn run_for_and_run_until_move_the_clock_and_stop_at_the_deadline() {
    let (b, orders, _) = shop(30);
    let mut sim = b.build().expect("valid");
    sim.run_for(std::time::Duration::from_millis(1_500));
    assert_eq!(sim.now(), SimTime(1_500));

    // Until every record is committed: the sum of the high watermarks.
    let done = sim
        .run_until(
            |r| (0..3).filter_map(|p| r.partition(&orders.partition(p))).map(|p| p.high_watermark()).sum::<u64>() == 30,
            SimTime(60_000),
        )
        .expect("all committed");
    assert!(done > SimTime(290) && done < SimTime(2_000), "{done:?}");

    // A condition that never holds: the deadline, and the clock moves there.
    let err = sim.run_until(|r| r.group("billing").is_some_and(|g| g.members().count() == 3), SimTime(20_000)).expect_err("no third");
    assert!(matches!(err, RunError::Deadline { deadline: SimTime(20_000), seed: 3, .. }), "{err:?}");
    assert_eq!(sim.now(), SimTime(20_000));
}

#[test]
fn run_until_event_returns_the_event_and_step_says_what_it_recorded() {
    let (b, _, _) = shop(3);
    let mut sim = b.build().expect("valid");
    let acked = sim
        .run_until_event(
            |e| matches!(&e.kind, EventKind::Produce(ProduceEvent::RecordAcked { value, .. }) if value == "m2"),
            SimTime(10_000),
        )
        .expect("m2 is acknowledged");
    assert!(acked.time > SimTime(20));
    let outcome = loop {
        let o = sim.step().expect("the consumers keep the queue busy");
        if o.events > 0 {
            break o;
        }
    };
    let recorded: Vec<u64> = sim.read().events_since(outcome.first_event).map(|e| e.seq).collect();
    assert_eq!(recorded.len() as u64, outcome.events);
    assert_eq!(recorded.first(), Some(&outcome.first_event));
}

#[test]
fn an_always_property_that_fails_names_itself_the_seed_and_the_trace() {
    let (b, _, _) = shop(20);
    let mut sim = b.build().expect("valid");
    let mut props = [
        Property::always("no broker crashed", |r| r.brokers().all(|b| b.alive())),
        Property::always("fewer than 5 records committed", |r| {
            r.topics().flat_map(|t| t.partitions()).map(|p| p.high_watermark()).sum::<u64>() < 5
        }),
    ];
    let err = sim.run_checking(SimTime(30_000), &mut props).expect_err("5 records get committed");
    let text = err.to_string();
    assert!(text.contains("fewer than 5 records") && text.contains("always") && text.contains("seed 3"), "{text}");
    assert!(text.lines().count() > 3, "the trace before it: {text}");
}

#[test]
fn an_eventually_property_fails_at_its_deadline_and_passes_when_met() {
    let (mut b, _, billing) = shop(5);
    b.at(1_000, Command::add_member(&billing, MemberSpec::new("c3")));
    let mut sim = b.build().expect("valid");
    let three = |r: kafka_sandbox_core::read::Read<'_>| {
        r.group("billing").is_some_and(|g| g.members().count() == 3 && g.state() == kafka_sandbox_core::read::GroupState::Stable)
    };
    let mut props = [Property::eventually("three members stable by 30 s", SimTime(30_000), three)];
    sim.run_checking(SimTime(40_000), &mut props).expect("met");
    assert!(props[0].is_met());

    let (b, _, _) = shop(5);
    let mut sim = b.build().expect("valid");
    let mut props = [Property::eventually("three members by 30 s", SimTime(30_000), three)];
    let err = sim.run_checking(SimTime(40_000), &mut props).expect_err("nobody joins");
    assert!(matches!(&err, RunError::Violated { kind: "eventually", .. }), "{err:?}");
    assert!(sim.now() <= SimTime(30_100), "it stops at the deadline, not the end: {:?}", sim.now());
}

#[test]
fn for_seeds_names_the_seed_that_fails() {
    for_seeds(0..5, |seed| assert!(seed < 5));
    let panic = std::panic::catch_unwind(|| for_seeds(0..10, |seed| assert_ne!(seed, 7, "seven"))).expect_err("seed 7 fails");
    let message = panic.downcast_ref::<String>().cloned().unwrap_or_default();
    assert!(message.contains("seed 7") && message.contains("seven"), "{message}");
}

#[test]
fn the_read_api_counts_rebalances_retries_and_poll_timeouts() {
    // A leader crash makes the producer retry; a consumer slower than max.poll.interval.ms
    // is kicked out of its group.
    let mut b = Scenario::builder();
    b.seed(1).cluster(ClusterConfig { brokers: 3, ..ClusterConfig::default() });
    let t = b.topic(TopicSpec::new("t").replication_factor(3).min_insync_replicas(2));
    let app = b.producer(ProducerSpec::new("app").linger_ms(0).send(SendPlan::values(&t, (0..200).map(|i| format!("v{i}"))).every_ms(20)));
    let g = b.group(GroupSpec::new("g", [&t]).members([MemberSpec::new("slow").processing_ms(2_000).max_poll_interval_ms(10_000)]));
    let mut sim = b.build().expect("valid");
    sim.run_to(SimTime(1_000));
    let leader = sim.partition(&t.partition(0)).and_then(|p| p.leader()).expect("a leader");
    sim.apply(Command::crash_broker(leader)).expect("crash");
    sim.run_to(SimTime(60_000));
    let p = sim.producer(&app).expect("producer");
    assert!(p.retries() > 0, "the crash failed requests that were retried");
    assert_eq!(p.acknowledged() + p.failed(), 200);
    assert!(p.latency_ms_max() >= 9_000, "records waited for the new leader: {}", p.latency_ms_max());
    let group = sim.group(&g).expect("group");
    assert!(group.poll_timeouts() >= 1, "2 s a record, up to 500 records a poll, 10 s allowed");
    assert!(group.rebalances() >= 1);
    assert_eq!(sim.member(&g, "slow").map(|m| m.config().processing_ms), Some(2_000));
    // Seen as events too.
    assert!(sim.trace().events().any(|e| matches!(e.kind, EventKind::Group(GroupEvent::MemberLeft { .. }))));
}

#[test]
fn set_acks_below_all_is_refused_for_an_explicitly_idempotent_producer() {
    let mut b = Scenario::builder();
    let t = b.topic(TopicSpec::new("t"));
    let strict = b.producer(ProducerSpec::new("strict").enable_idempotence(true));
    let loose = b.producer(ProducerSpec::new("loose"));
    let mut sim = b.build().expect("valid");
    let e = sim.apply(Command::set_acks(&strict, Acks::Leader)).expect_err("Kafka refuses acks=1 with enable.idempotence=true");
    assert!(matches!(&e, kafka_sandbox_core::CommandError::IdempotenceNeedsAcksAll { producer } if producer == "strict"), "{e}");
    assert_eq!(sim.producer(&strict).map(|p| p.acks()), Some(Acks::All), "nothing changed");
    sim.apply(Command::set_acks(&loose, Acks::Leader)).expect("unset idempotence just turns off");
    assert_eq!(sim.producer(&loose).map(|p| (p.acks(), p.idempotent())), Some((Acks::Leader, false)));
    let _ = t;
}
