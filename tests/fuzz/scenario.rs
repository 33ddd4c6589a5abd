//! The scenario parser and validator (`Scenario::from_json`): arbitrary text, JSON token
//! soup, and mutated copies of the built-in, corpus and documented scenarios (wrong types,
//! values at and past every limit, huge arrays, unknown fields, broken text).
//!
//! For any text: no panic, and a refusal carries a message. An accepted scenario builds,
//! serialises back to text the parser accepts as the same scenario, ends within the
//! format's time limit, and runs its first events without a panic.

use super::support::{bounded, fuzz, mutant, seed_values};
use kafka_sandbox_core::scenario::{Scenario, MAX_TIME_MS};
use kafka_sandbox_core::SimTime;
use proptest::prelude::*;
use proptest::test_runner::TestCaseResult;

/// Events an accepted scenario is run for: enough to start every loop (fetches,
/// heartbeats, the first joins) while keeping a million cases affordable.
const STEPS: u64 = 300;

/// The properties every text must have; shared with the CLI's `run` target.
pub fn check_text(text: &str) -> TestCaseResult {
    match Scenario::from_json(text) {
        Err(e) => {
            prop_assert!(!e.problem.to_string().trim().is_empty(), "a refusal without a message: {:?}", e);
        }
        Ok(s) => {
            // Compared without printing either side: a scenario can be a megabyte long.
            let again = Scenario::from_json(&s.to_json_pretty());
            prop_assert!(again.as_ref() == Ok(&s), "the scenario does not survive a round trip: {:?}", again.err());
            prop_assert!(s.end_ms() <= MAX_TIME_MS + 10_000, "ends at {} ms", s.end_ms());
            let built = s.build();
            prop_assert!(built.is_ok(), "accepted but does not build: {:?}", built.err());
            if let Ok(mut sim) = built {
                sim.run_to_bounded(SimTime(s.end_ms()), STEPS);
                sim.step_visible();
                let _ = sim.snapshot();
                let _ = sim.in_flight();
            }
        }
    }
    Ok(())
}

#[test]
fn scenario_arbitrary_text() {
    fuzz("scenario_arbitrary_text", 2_000, any::<String>(), |text| bounded(|| check_text(&text))?);
}

/// Sequences of JSON tokens and scenario words: mostly well-formed-looking, rarely valid,
/// they reach the parser's deeper states (nesting, numbers, escapes) that random text does not.
#[test]
fn scenario_json_token_soup() {
    let token = proptest::sample::select(vec![
        "{",
        "}",
        "[",
        "]",
        ",",
        ":",
        "\"version\"",
        "1",
        "\"topics\"",
        "\"name\"",
        "\"t\"",
        "\"partitions\"",
        "0",
        "-1",
        "1e400",
        "18446744073709551616",
        "1.5",
        "true",
        "null",
        "\"\\u0000\"",
        "\"\\ud83d\"",
        "\"groups\"",
        "\"id\"",
        "\"members\"",
        "\"client_id\"",
        "\"commands\"",
        "\"at_ms\"",
        "\"command\"",
        "\"type\"",
        "\"produce\"",
        " ",
        "\"",
        "\"producers\"",
        "\"cluster\"",
        "\"brokers\"",
        "\"duration_ms\"",
        "\"send\"",
        "\"values\"",
        "\"topic\"",
    ]);
    let soup = proptest::collection::vec(token, 0..60).prop_map(|t| t.concat());
    fuzz("scenario_json_token_soup", 2_000, soup, |text| bounded(|| check_text(&text))?);
}

#[test]
fn scenario_mutated() {
    let seeds = seed_values();
    assert!(seeds.docs.len() >= 8, "the built-ins, the corpus and the docs' examples: {}", seeds.docs.len());
    fuzz("scenario_mutated", 400, mutant(), |m| {
        let text = m.render(&seeds);
        bounded(|| check_text(&text))?
    });
}

/// Every seed as it stands is accepted (a broken seed would leave the mutations little
/// to work from, and a doc example that does not load is a doc bug).
#[test]
fn every_seed_scenario_is_accepted() {
    for (i, v) in seed_values().docs.iter().enumerate() {
        let text = v.to_string();
        if let Err(e) = Scenario::from_json(&text) {
            panic!("seed {i} is refused: {e}\n{text}");
        }
    }
}
