//! The lesson parser and runner (`Lesson::from_json`, `LessonRun`): arbitrary text and
//! mutated copies of the built-in lessons (wrong types, values at and past every limit,
//! unknown fields, broken text). For any text: no panic, and a refusal carries a message;
//! an accepted lesson runs its first steps without a panic, every error saying where.

use super::support::{bounded, fuzz, mutant, seeds_from};
use kafka_sandbox_core::lesson::{Lesson, LessonRun, BUILT_IN};
use proptest::prelude::*;
use proptest::test_runner::TestCaseResult;

/// Steps an accepted lesson is run for (each bounded by the runner's own event limit).
const STEPS: usize = 3;

fn check_text(text: &str) -> TestCaseResult {
    match Lesson::from_json(text) {
        Err(e) => prop_assert!(!e.problem.to_string().trim().is_empty(), "a refusal without a message: {:?}", e),
        Ok(lesson) => match LessonRun::new(&lesson) {
            Err(e) => prop_assert!(!e.problem.to_string().trim().is_empty(), "a refusal without a message: {:?}", e),
            Ok(mut run) => {
                for _ in 0..STEPS.min(lesson.steps.len()) {
                    match run.step() {
                        Ok(report) => {
                            if report.has_question {
                                if let Err(e) = run.reveal() {
                                    prop_assert!(e.path.contains("question"), "a reveal's error without its place: {e}");
                                    break;
                                }
                            }
                        }
                        Err(e) => {
                            prop_assert!(e.path.starts_with("steps["), "a step's error without its place: {e}");
                            break;
                        }
                    }
                }
            }
        },
    }
    Ok(())
}

#[test]
fn lesson_arbitrary_text() {
    fuzz("lesson_arbitrary_text", 1_000, any::<String>(), |text| bounded(|| check_text(&text))?);
}

#[test]
fn lesson_mutated() {
    let seeds = seeds_from(BUILT_IN.iter().filter_map(|(_, t)| serde_json::from_str(t).ok()).collect());
    assert_eq!(seeds.docs.len(), BUILT_IN.len());
    fuzz("lesson_mutated", 150, mutant(), |m| {
        let text = m.render(&seeds);
        bounded(|| check_text(&text))?
    });
}
