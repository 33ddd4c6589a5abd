//! Same scenario, seed and commands ⇒ the same trace; replay rebuilds the same state.

use kafka_sandbox_core::command::MemberSpec;
use kafka_sandbox_core::command::{GroupCommand, ProduceCommand};
use kafka_sandbox_core::scenario;
use kafka_sandbox_core::{Command, Sim, SimTime};

fn keyless_scenario(seed: u64) -> scenario::Scenario {
    let mut s = scenario::built_in("two-groups").unwrap().unwrap();
    s.seed = seed;
    // Keyless records with the built-in (sticky) partitioner draw from the RNG.
    s.producers[0].config.partitioner = kafka_sandbox_core::partitioner::PartitionerKind::BuiltIn;
    s.producers[0].config.batch_size = 64;
    s.producers[0].send[0].values = (1..=60).map(|i| format!("m{i}")).collect();
    s.producers[0].send[0].interval_ms = 37;
    s.duration_ms = Some(20_000);
    s
}

fn events_json(sim: &Sim) -> Vec<String> {
    sim.trace().events().map(|e| serde_json::to_string(e).unwrap()).collect()
}

#[test]
fn same_seed_twice_gives_an_identical_trace() {
    for seed in [0, 1, 42, 0xDEAD_BEEF] {
        let s = keyless_scenario(seed);
        let a = super::support::run(&s);
        let b = super::support::run(&s);
        assert_eq!(events_json(&a), events_json(&b), "seed {seed}");
        assert_eq!(a.trace().digest(), b.trace().digest(), "seed {seed}");
    }
}

#[test]
fn different_seeds_give_different_runs() {
    let a = super::support::run(&keyless_scenario(1));
    let b = super::support::run(&keyless_scenario(2));
    assert_ne!(a.trace().digest(), b.trace().digest());
}

#[test]
fn replaying_the_command_log_rebuilds_the_same_state_and_trace() {
    let s = keyless_scenario(7);
    let mut live = s.build().unwrap();
    // A person clicks at odd moments, some between events of the same instant.
    live.run_to(SimTime(3_100));
    live.apply(GroupCommand::AddMember { group: "ConsumerGroup01".into(), member: MemberSpec::new("Consumer3") }).unwrap();
    live.step();
    live.step_visible();
    live.apply(ProduceCommand::Produce {
        producer: "Producer1".into(),
        topic: "Topic01".into(),
        key: Some("key1".into()),
        value: Some("hello".into()),
        partition: None,
        headers: vec![],
    })
    .unwrap();
    live.run_to(SimTime(5_000));
    live.apply(GroupCommand::RemoveMember { group: "ConsumerGroup02".into(), client_id: "Consumer1".into() }).unwrap();
    live.run_to(SimTime(9_000));

    let replayed = Sim::replay(s.build().unwrap(), live.command_log()).unwrap();
    let mut replayed = replayed;
    replayed.run_to(live.now());
    assert_eq!(events_json(&live), events_json(&replayed));
    assert_eq!(live.snapshot(), replayed.snapshot());
}

#[test]
fn a_visible_step_in_an_idle_cluster_returns_instead_of_spinning() {
    let s = keyless_scenario(5);
    let mut sim = s.build().unwrap();
    sim.run_to(SimTime(60_000));
    // Only fetches waiting out fetch.max.wait.ms remain: nothing visible ever comes.
    let before = sim.trace().total();
    assert_eq!(sim.step_visible(), None);
    assert_eq!(sim.trace().total(), before);
    assert!(sim.now() <= SimTime(60_000 + Sim::STEP_HORIZON_MS));
}

#[test]
fn a_clone_is_an_independent_fork() {
    let s = keyless_scenario(3);
    let mut a = s.build().unwrap();
    a.run_to(SimTime(4_000));
    let mut b = a.clone();
    a.run_to(SimTime(8_000));
    b.run_to(SimTime(8_000));
    assert_eq!(a.trace().digest(), b.trace().digest());
    b.apply(GroupCommand::RemoveMember { group: "ConsumerGroup01".into(), client_id: "Consumer1".into() }).unwrap();
    b.run_to(SimTime(9_000));
    a.run_to(SimTime(9_000));
    assert_ne!(a.trace().digest(), b.trace().digest());
}

/// The trace digest of the default scenario run to its end; web/tests/browser.rs checks
/// the same value inside headless Chromium (wasm32).
#[test]
fn the_default_scenario_has_the_golden_digest_shared_with_the_browser_test() {
    let golden = include_str!("../golden/two-groups.digest").trim();
    let sim = super::support::run_built_in("two-groups");
    let digest = format!("{:016x}", sim.trace().digest());
    assert_eq!(digest, golden, "update tests/golden/two-groups.digest if the model changed on purpose");
}

/// The second golden digest, shared with web/tests/browser.rs like the first: a scenario
/// that draws on every source of platform difference the default one leaves out (keyed
/// and keyless sticky partitioning, the sticky assignors' Java HashMap order, KIP-848's
/// broker assignor, retry jitter, broker faults, retention and segments).
#[test]
fn the_every_feature_scenario_has_the_golden_digest_shared_with_the_browser_test() {
    let scenario = scenario::Scenario::from_json(include_str!("../golden/every-feature.json")).unwrap();
    let sim = super::support::run(&scenario);
    let golden = include_str!("../golden/every-feature.digest").trim();
    let digest = format!("{:016x}", sim.trace().digest());
    assert_eq!(digest, golden, "update tests/golden/every-feature.digest if the model changed on purpose");
}

/// A scenario's planned sends are queued one at a time (a checkpoint clone then copies one
/// queued send, not thousands); they must run exactly as if every value had been queued
/// when the scenario was built — same events, same times, same order, ties included.
#[test]
fn planned_sends_run_as_if_all_were_queued_at_once() {
    let mut s = keyless_scenario(7);
    // A second plan on the same producer, keyed, several values at the same moment, some
    // at the very moments of the first plan's values.
    let mut second = s.producers[0].send[0].clone();
    second.values = (1..=40).map(|i| format!("k{i}")).collect();
    second.keys = Some((1..=40).map(|i| if i % 3 == 0 { None } else { Some(format!("user-{}", i % 5)) }).collect());
    second.start_ms = 37 * 3;
    second.interval_ms = 0;
    s.producers[0].send.push(second.clone());
    let mut third = second;
    third.interval_ms = 74;
    s.producers[0].send.push(third);
    let lazy = super::support::run(&s);

    // The old way: everything queued up front, in build order.
    let mut bare = s.clone();
    bare.producers[0].send.clear();
    let mut eager = bare.build().unwrap();
    for p in &s.producers {
        for plan in &p.send {
            for (k, value) in plan.values.iter().enumerate() {
                let at = plan.start_ms + plan.interval_ms * k as u64;
                let key = plan.keys.as_ref().and_then(|keys| keys[k].clone());
                eager.schedule_command(
                    SimTime(at),
                    Command::Produce(ProduceCommand::Produce {
                        producer: p.name.clone(),
                        topic: plan.topic.clone(),
                        key,
                        value: Some(value.clone()),
                        partition: None,
                        headers: vec![],
                    }),
                );
            }
        }
    }
    eager.run_to(SimTime(s.duration_ms.unwrap()));
    assert!(lazy.trace().total() > 1000, "a busy run: {}", lazy.trace().total());
    assert_eq!(events_json(&lazy), events_json(&eager));
    assert_eq!(lazy.steps(), eager.steps());
}
