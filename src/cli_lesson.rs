//! `kafka-sandbox lesson`: check lessons against the simulation, or print one with the
//! answers the simulation computes.

use kafka_sandbox_core::lesson::{self, Lang, Lesson, LessonRun};
use std::fmt::Write as _;
use std::io::Write;

pub const USAGE: &str = "\
kafka-sandbox lesson check [FILE...]
    Runs each lesson file (every built-in lesson when none is given) and reports every
    claim the simulation contradicts and every question without exactly one correct
    choice. Exit code 4 if any lesson fails (the report is on stdout either way).
kafka-sandbox lesson show LESSON [--lang en|zh]
    Prints a lesson's narration with the simulation's answers. LESSON is a file or the
    id of a built-in lesson.
kafka-sandbox lesson list
    Lists the built-in lessons.";

/// The exit code of `lesson check` when a lesson disagrees with the simulation or does not
/// load.
pub const EXIT_LESSON_FAILED: i32 = 4;

/// Reads a lesson from a file, or a built-in one by id.
pub fn load(spec: &str) -> Result<Lesson, String> {
    if let Some(l) = lesson::built_in(spec) {
        return Ok(l);
    }
    let text = std::fs::read_to_string(spec).map_err(|e| {
        let ids: Vec<String> = lesson::built_in_lessons().into_iter().flatten().map(|l| l.id).collect();
        format!("no built-in lesson \"{spec}\" (there are: {}) and cannot read it as a file: {e}", ids.join(", "))
    })?;
    Lesson::from_json(&text).map_err(|e| format!("{spec}: {e}"))
}

/// `lesson check`: the report and whether every lesson passed.
pub fn check(specs: &[String]) -> (String, bool) {
    let mut out = String::new();
    let mut ok = true;
    let lessons: Vec<(String, Result<Lesson, String>)> = if specs.is_empty() {
        lesson::BUILT_IN
            .iter()
            .map(|(name, text)| (name.to_string(), Lesson::from_json(text).map_err(|e| format!("{name}: {e}"))))
            .collect()
    } else {
        specs.iter().map(|s| (s.clone(), load(s))).collect()
    };
    for (name, l) in lessons {
        match l.map_err(|e| vec![e]).and_then(|l| lesson::check(&l).map(|()| l)) {
            Ok(l) => {
                let questions = l.steps.iter().filter(|s| s.question.is_some()).count();
                let claims: usize = l.steps.iter().map(|s| s.claims.len()).sum();
                let _ = writeln!(out, "ok    {name}: {} steps, {claims} claims, {questions} questions", l.steps.len());
            }
            Err(problems) => {
                ok = false;
                let _ = writeln!(out, "FAIL  {name}");
                for p in problems {
                    let _ = writeln!(out, "      {p}");
                }
            }
        }
    }
    (out, ok)
}

/// `lesson show`: the narration in one language, with each claim's and question's answer.
pub fn show(l: &Lesson, lang: Lang) -> Result<String, String> {
    let mut out = String::new();
    let _ = writeln!(out, "# {} ({})\n\n{}\n", l.title.get(lang), l.id, l.summary.get(lang));
    let mut runner = LessonRun::new(l).map_err(|e| e.to_string())?;
    for (i, step) in l.steps.iter().enumerate() {
        let report = runner.step().map_err(|e| e.to_string())?;
        let _ = writeln!(out, "## {} — {:.1} s\n\n{}\n", i + 1, report.now_ms as f64 / 1000.0, step.say.get(lang));
        for c in &report.claims {
            let mark = if c.holds() { "✓" } else { "✗" };
            let _ = writeln!(out, "  {mark} {} = {}", lesson::describe(&c.query), lesson::show(&c.actual));
        }
        if let Some(q) = &step.question {
            let _ = writeln!(out, "\n  ? {}", q.ask.get(lang));
            let reveal = runner.reveal().map_err(|e| e.to_string())?;
            for (c, choice) in q.choices.iter().enumerate() {
                let mark = if reveal.matching.contains(&c) { "→" } else { " " };
                let _ = writeln!(out, "    {mark} {}", choice.label(lang));
            }
            let _ = writeln!(out, "  ({:.1} s) {}", reveal.now_ms as f64 / 1000.0, q.explain.get(lang));
        }
        out.push('\n');
    }
    let _ = writeln!(out, "## {}\n\n{}", if lang == Lang::Zh { "自由练习" } else { "Free play" }, l.free_play.get(lang));
    Ok(out)
}

/// Runs `lesson ...`; returns the exit code.
pub fn lesson_command(args: &[String], out: &mut dyn Write, err: &mut dyn Write) -> i32 {
    let fail = |err: &mut dyn Write, msg: &str| {
        let _ = writeln!(err, "kafka-sandbox lesson: {msg}");
        2
    };
    match args.first().map(String::as_str) {
        Some("check") => {
            let (report, ok) = check(&args[1..]);
            if out.write_all(report.as_bytes()).is_err() {
                return 1;
            }
            if ok {
                0
            } else {
                EXIT_LESSON_FAILED
            }
        }
        Some("list") => {
            for l in lesson::built_in_lessons().into_iter().flatten() {
                if writeln!(out, "{}\t{}\t{}", l.id, l.title.en, l.title.zh).is_err() {
                    return 1;
                }
            }
            0
        }
        Some("show") => {
            let mut spec = None;
            let mut lang = Lang::En;
            let mut i = 1;
            while i < args.len() {
                match args[i].as_str() {
                    "--lang" => {
                        lang = match args.get(i + 1).map(String::as_str) {
                            Some("en") => Lang::En,
                            Some("zh") => Lang::Zh,
                            Some(other) => return fail(err, &format!("--lang takes en or zh, not {other:?}")),
                            None => return fail(err, "--lang needs a value: en or zh"),
                        };
                        i += 1;
                    }
                    s if spec.is_none() && !s.starts_with("--") => spec = Some(s.to_string()),
                    s => return fail(err, &format!("unexpected argument {s:?}")),
                }
                i += 1;
            }
            let Some(spec) = spec else { return fail(err, "which lesson? give a file or a built-in lesson's id") };
            let text = match load(&spec).and_then(|l| show(&l, lang)) {
                Ok(t) => t,
                Err(e) => return fail(err, &e),
            };
            if out.write_all(text.as_bytes()).is_err() {
                return 1;
            }
            0
        }
        Some("-h" | "--help") => {
            let _ = writeln!(out, "{USAGE}");
            0
        }
        _ => {
            let _ = writeln!(err, "{USAGE}");
            2
        }
    }
}
