//! Lessons: every built-in lesson agrees with the simulation and exists in both languages;
//! a lesson that disagrees, or a malformed one, fails with a message saying where.

use kafka_sandbox_core::lesson::{self, has_cjk, Lesson, LessonRun, BUILT_IN};

fn built_ins() -> Vec<Lesson> {
    lesson::built_in_lessons()
        .into_iter()
        .zip(BUILT_IN)
        .map(|(l, (name, _))| l.unwrap_or_else(|e| panic!("lesson file {name}: {e}")))
        .collect()
}

/// The first built-in lesson's JSON, changed by `edit`.
fn edited(edit: impl FnOnce(&mut serde_json::Value)) -> String {
    let mut v: serde_json::Value = serde_json::from_str(BUILT_IN[0].1).unwrap();
    edit(&mut v);
    serde_json::to_string(&v).unwrap()
}

#[test]
fn lessons_every_built_in_lesson_agrees_with_the_simulation() {
    let lessons = built_ins();
    assert!(lessons.len() >= 3, "lessons 1, 3 and 4 at least");
    for l in &lessons {
        if let Err(problems) = lesson::check(l) {
            panic!("lesson {} disagrees with the simulation:\n{}", l.id, problems.join("\n"));
        }
        assert!(l.steps.iter().any(|s| s.question.is_some()), "lesson {} asks no question", l.id);
        assert!(l.steps.iter().all(|s| !s.claims.is_empty() || s.question.is_some()), "lesson {}: a step claims nothing", l.id);
    }
}

#[test]
fn lessons_every_text_exists_in_english_and_chinese() {
    for l in built_ins() {
        let texts = l.texts();
        // Title, summary, one `say` per step, and the free-play text at least.
        assert!(texts.len() >= l.steps.len() + 3);
        for (path, t) in texts {
            assert!(!t.en.trim().is_empty(), "{} {path}: no English", l.id);
            assert!(!t.zh.trim().is_empty(), "{} {path}: no Chinese", l.id);
            assert!(t.zh == t.en || has_cjk(&t.zh), "{} {path}: the Chinese text is not in Chinese: {:?}", l.id, t.zh);
            assert!(!has_cjk(&t.en), "{} {path}: Chinese in the English text: {:?}", l.id, t.en);
        }
        // Narration is never the same in both languages (only names and numbers may be).
        for (i, s) in l.steps.iter().enumerate() {
            assert_ne!(s.say.en, s.say.zh, "{} step {}", l.id, i + 1);
        }
    }
}

#[test]
fn lessons_ids_are_unique_and_files_are_numbered_in_order() {
    let lessons = built_ins();
    let mut ids: Vec<&str> = lessons.iter().map(|l| l.id.as_str()).collect();
    for ((name, _), l) in BUILT_IN.iter().zip(&lessons) {
        let (number, rest) = name.split_once('-').unwrap();
        assert_eq!(number.len(), 2, "{name}: NN-id");
        assert_eq!(rest, l.id, "file {name} holds lesson {}", l.id);
    }
    let names: Vec<&str> = BUILT_IN.iter().map(|(n, _)| *n).collect();
    let mut sorted = names.clone();
    sorted.sort_unstable();
    assert_eq!(names, sorted, "listed in teaching order");
    ids.sort_unstable();
    ids.dedup();
    assert_eq!(ids.len(), lessons.len(), "ids unique");
    assert!(lesson::built_in(&lessons[0].id).is_some());
}

#[test]
fn lessons_run_the_same_every_time() {
    for l in built_ins() {
        let reports = |l: &Lesson| {
            let mut run = LessonRun::new(l).unwrap();
            let mut out = Vec::new();
            while run.next_step() < l.steps.len() {
                let s = run.step().unwrap();
                let q = if s.has_question { Some(run.reveal().unwrap()) } else { None };
                out.push((s, q));
            }
            (out, run.sim().trace().digest())
        };
        assert_eq!(reports(&l), reports(&l), "{}", l.id);
    }
}

#[test]
fn lessons_a_step_after_an_unrevealed_question_reveals_it_first() {
    let l = &built_ins()[0];
    let q = l.steps.iter().position(|s| s.question.is_some()).unwrap();
    let mut revealed = LessonRun::new(l).unwrap();
    let mut skipped = LessonRun::new(l).unwrap();
    for _ in 0..=q {
        revealed.step().unwrap();
        skipped.step().unwrap();
    }
    revealed.reveal().unwrap();
    let a = revealed.step().unwrap();
    let b = skipped.step().unwrap();
    assert_eq!(a, b, "the same state whether or not the learner answered");
    assert!(skipped.reveal().is_err() || l.steps[q + 1].question.is_some());
}

#[test]
fn lessons_a_wrong_claim_fails_naming_the_step_and_both_values() {
    // Lesson 1, step 3 says P0 holds m1 and m5; claim P0 holds m1 and m2 instead.
    let text = edited(|v| v["steps"][2]["claims"][0]["expect"] = serde_json::json!(["m1", "m2"]));
    let l = Lesson::from_json(&text).unwrap();
    let problems = lesson::check(&l).unwrap_err();
    assert_eq!(problems.len(), 1, "{problems:?}");
    let p = &problems[0];
    assert!(p.contains("steps[2] (step 3).claims[0]"), "{p}");
    assert!(p.contains(r#"the lesson says ["m1","m2"], the simulation gives ["m1","m5"]"#), "{p}");
    assert!(p.contains("the records of Topic01-0"), "{p}");
}

#[test]
fn lessons_a_question_whose_answer_matches_no_choice_fails() {
    // Lesson 1, step 2 asks where m2 goes (P1); leave P1 out of the choices.
    let text = edited(|v| {
        let choices = v["steps"][1]["question"]["choices"].as_array_mut().unwrap();
        choices.remove(1);
    });
    let l = Lesson::from_json(&text).unwrap();
    let problems = lesson::check(&l).unwrap_err();
    assert_eq!(problems.len(), 1, "{problems:?}");
    assert!(problems[0].contains("steps[1] (step 2).question"), "{}", problems[0]);
    assert!(problems[0].contains("gives 1, which matches none of the choices [0, 2, 3]"), "{}", problems[0]);
}

#[test]
fn lessons_two_choices_with_the_same_value_are_refused() {
    let text = edited(|v| v["steps"][1]["question"]["choices"][2]["value"] = serde_json::json!(1));
    let e = Lesson::from_json(&text).unwrap_err();
    assert_eq!(e.path, "steps[1] (step 2).question.choices[2].value");
    assert_eq!(e.problem.to_string(), "1 is also an earlier choice");
}

#[test]
fn lessons_errors_that_stop_a_run_say_where() {
    // An event that never comes.
    let text = edited(|v| v["steps"][1]["run"]["until_event"]["mentions"] = serde_json::json!(["m99"]));
    let problems = lesson::check(&Lesson::from_json(&text).unwrap()).unwrap_err();
    assert!(
        problems[0].contains("steps[1] (step 2).run.until_event: no record_appended event mentioning \"m99\" within 60000 ms"),
        "{problems:?}"
    );
    // Time cannot go backwards.
    let text = edited(|v| v["steps"][2]["run"]["until_ms"] = serde_json::json!(100));
    let problems = lesson::check(&Lesson::from_json(&text).unwrap()).unwrap_err();
    assert!(problems[0].contains("steps[2] (step 3).run.until_ms: 100 ms is before the run's time now"), "{problems:?}");
    // A claim about a group that does not exist.
    let text = edited(|v| v["steps"][0]["claims"][0]["query"] = serde_json::json!({"ask": "group_state", "group": "nobody"}));
    let problems = lesson::check(&Lesson::from_json(&text).unwrap()).unwrap_err();
    assert!(problems[0].contains("steps[0] (step 1).claims[0]: there is no consumer group \"nobody\""), "{problems:?}");
    // A command the simulation refuses.
    let text = edited(|v| v["steps"][0]["run"]["apply"] = serde_json::json!([{"type": "crash_broker", "broker": 9}]));
    let problems = lesson::check(&Lesson::from_json(&text).unwrap()).unwrap_err();
    assert!(problems[0].contains("steps[0] (step 1).run.apply[0]: the simulation refused it: there is no broker 9"), "{problems:?}");
}

#[test]
fn lessons_malformed_files_get_clear_errors() {
    let cases: Vec<(String, &str)> = vec![
        ("not json".into(), "expected ident"),
        ("[1, 2]".into(), "a lesson is a JSON object"),
        (r#"{"id": "x"}"#.into(), "version: missing; write \"version\": 1"),
        (r#"{"version": 2}"#.into(), "version: version 2 is not supported; this build reads lesson version 1"),
        (r#"{"version": "1"}"#.into(), "version: is \"1\"; write the number 1"),
        (edited(|v| v["stpes"] = serde_json::json!([])), "unknown field `stpes`"),
        (edited(|v| v["steps"][0]["say"]["fr"] = serde_json::json!("bonjour")), "steps[0].say.fr (line 1, column "),
        (
            edited(|v| v["steps"][0]["say"]["zh"] = serde_json::json!("")),
            "steps[0] (step 1).say.zh: is empty; every text needs both languages",
        ),
        (edited(|v| v["title"]["zh"] = serde_json::json!("Topics")), "title.zh: \"Topics\" has no Chinese characters"),
        (edited(|v| v["id"] = serde_json::json!("Lesson One")), "id: \"Lesson One\" may hold only lowercase letters, digits and '-'"),
        (
            edited(|v| v["scenario"] = serde_json::json!({"built_in": "nope"})),
            "scenario.built_in: there is no built-in scenario \"nope\"; there are: two-groups",
        ),
        (edited(|v| v["scenario"]["inline"]["topics"][0]["partitions"] = serde_json::json!(0)), "scenario.inline.topics[0].partitions"),
        (edited(|v| v["steps"] = serde_json::json!([])), "steps: has 0 steps; allowed: 1 to 60"),
        (
            edited(|v| v["steps"][0]["run"]["for_ms"] = serde_json::json!(5)),
            "steps[0] (step 1).run: give at most one of until_ms, for_ms and until_event",
        ),
        (
            edited(|v| v["steps"][0]["run"] = serde_json::json!({"until_ms": 604_800_001u64})),
            "steps[0] (step 1).run.until_ms: is 604800001; allowed: 0 to 604800000",
        ),
        (
            edited(|v| v["steps"][1]["run"]["until_event"]["kind"] = serde_json::json!("RecordAppended")),
            "is not an event type; write it as in the trace",
        ),
        (
            edited(|v| v["steps"][0]["claims"][0]["expect"] = serde_json::json!(0.5)),
            "steps[0] (step 1).claims[0].expect: 0.5 is not a whole number",
        ),
        (edited(|v| v["steps"][0]["claims"][0]["query"]["ask"] = serde_json::json!("guess")), "unknown variant `guess`"),
        (
            edited(|v| v["steps"][1]["question"]["choices"] = serde_json::json!([{"value": 1}])),
            "question.choices: has 1 choices; allowed: 2 to 8",
        ),
        ("x".repeat(lesson::MAX_LESSON_BYTES + 1), "the lesson is 1048577 bytes; the most accepted is 1048576"),
    ];
    for (text, expected) in cases {
        let e = Lesson::from_json(&text).expect_err(expected);
        assert!(e.to_string().contains(expected), "expected {expected:?} in {e}");
    }
}

/// Whether `label` occurs in `text` as a whole word (not inside a longer name: `P2` is not
/// in `P20`, `Consumer1` not in `Consumer10`).
fn names(text: &str, label: &str) -> bool {
    let word = |c: char| c.is_ascii_alphanumeric() || c == '_' || c == '-';
    text.match_indices(label).any(|(i, _)| {
        let before = text[..i].chars().next_back();
        let after = text[i + label.len()..].chars().next();
        !before.is_some_and(word) && !after.is_some_and(word)
    })
}

/// A step's narration must not give away its own question: the correct partition is not
/// named in what the step says before asking, unless every choice is (lesson 1 once said
/// "every order-1 event lands in P2", then asked where the next order-1 event goes).
#[test]
fn lessons_no_narration_gives_away_its_question() {
    for l in built_ins() {
        let mut run = LessonRun::new(&l).unwrap_or_else(|e| panic!("{}: {e}", l.id));
        for (i, step) in l.steps.iter().enumerate() {
            run.step().unwrap_or_else(|e| panic!("{} step {}: {e}", l.id, i + 1));
            let Some(q) = &step.question else { continue };
            let reveal = run.reveal().unwrap_or_else(|e| panic!("{} step {}: {e}", l.id, i + 1));
            let Some(correct) = reveal.correct() else { continue };
            for lang in [lesson::Lang::En, lesson::Lang::Zh] {
                let say = step.say.get(lang);
                let labels: Vec<String> = q.choices.iter().map(|c| c.label(lang)).collect();
                // Partition questions ("which partition will it go to?"): a client id in
                // the narration is usually another group's member, not the answer.
                let partitions = labels.iter().all(|label| label.strip_prefix('P').is_some_and(|n| n.parse::<u32>().is_ok()));
                if !partitions || labels.iter().all(|label| names(say, label)) {
                    continue;
                }
                let answer = &labels[correct];
                assert!(
                    !names(say, answer),
                    "lesson {} step {} ({lang:?}) names the answer {answer:?} before asking {:?}:\n{say}",
                    l.id,
                    i + 1,
                    q.ask.get(lang)
                );
            }
        }
    }
}

/// Lesson 2 teaches the sticky partitioner, which contradicts the seed article (keyless
/// records "以循环的方式分配"): it says, in both languages, that the article describes
/// Kafka before 2.4 (KIP-480).
#[test]
fn lessons_the_producer_lesson_says_the_article_describes_kafka_before_2_4() {
    let l = built_ins().into_iter().find(|l| l.id == "producer").unwrap_or_else(|| panic!("lesson producer"));
    let sticky = l.steps.iter().find(|s| s.say.en.contains("KIP-480")).unwrap_or_else(|| panic!("the sticky step"));
    assert!(sticky.say.en.contains("before 2.4") && sticky.say.en.contains("round robin"), "{}", sticky.say.en);
    assert!(sticky.say.zh.contains("2.4 之前") && sticky.say.zh.contains("循环"), "{}", sticky.say.zh);
}

/// Once a question is answered the highlight follows the answer: lesson 1's "which
/// partition will order-1 shipped go to?" outlines the partition the simulation put it in
/// and the record itself; lesson 3's "who receives m11?" outlines the member that did.
/// Every built-in question whose answer names something on the page gets a focus the
/// lesson checker accepts (a topic, member, record that exists).
#[test]
fn lessons_the_highlight_follows_the_answer() {
    use lesson::Focus;
    let mut followed = 0;
    for l in built_ins() {
        let mut run = LessonRun::new(&l).unwrap_or_else(|e| panic!("{}: {e}", l.id));
        for (i, step) in l.steps.iter().enumerate() {
            run.step().unwrap_or_else(|e| panic!("{} step {}: {e}", l.id, i + 1));
            let Some(q) = &step.question else { continue };
            let reveal = run.reveal().unwrap_or_else(|e| panic!("{} step {}: {e}", l.id, i + 1));
            let focus = reveal.look_at(&q.query);
            if focus.is_empty() {
                continue;
            }
            followed += 1;
            let shipped = q.ask.en.contains("order-1 shipped");
            if shipped {
                let Some(Focus::Partition { partition, .. }) = focus.first() else { panic!("{focus:?}") };
                assert_eq!(serde_json::json!(partition), reveal.answer, "the partition it went to");
                assert!(focus.contains(&Focus::Record("order-1 shipped".into())), "{focus:?}");
            }
            if l.id == "consumer-groups" && q.ask.en.contains("m11") {
                assert!(
                    focus.iter().any(|f| matches!(f, Focus::Member { client_id, .. } if serde_json::json!([client_id]) == reveal.answer)),
                    "{focus:?} for {}",
                    reveal.answer
                );
            }
        }
    }
    assert!(followed >= 10, "{followed} answers followed");
}
