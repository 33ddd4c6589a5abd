//! A small test DSL: build a scenario, run it, and read who received what.

use kafka_sandbox_core::scenario::{self, Scenario};
use kafka_sandbox_core::{Sim, SimTime};

/// A built-in scenario, run to its end.
pub fn run_built_in(name: &str) -> Sim {
    let scenario = scenario::built_in(name).expect("known scenario").expect("valid scenario");
    run(&scenario)
}

pub fn run(scenario: &Scenario) -> Sim {
    let mut sim = scenario.build().expect("scenario builds");
    sim.run_to(SimTime(scenario.end_ms()));
    sim
}

/// The values a member received, in order of receipt.
pub fn received(sim: &Sim, group: &str, client_id: &str) -> Vec<String> {
    let g = sim.group(group).unwrap_or_else(|| panic!("no group {group}"));
    let m = g.member(client_id).unwrap_or_else(|| panic!("no member {client_id} in {group}"));
    m.received().map(|d| d.value.to_string()).collect()
}

/// The partitions a member owns, as numbers (single-topic scenarios).
pub fn partitions(sim: &Sim, group: &str, client_id: &str) -> Vec<u32> {
    let g = sim.group(group).expect("group");
    g.member(client_id).expect("member").assigned().iter().map(|tp| tp.partition).collect()
}

pub fn words(s: &str) -> Vec<String> {
    s.split_whitespace().map(str::to_string).collect()
}
