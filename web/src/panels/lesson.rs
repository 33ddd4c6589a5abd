//! Lesson mode: the list of lessons with the learner's progress, and the lesson being
//! followed — its narration, what to look at (outlined on the page), predict-then-reveal
//! questions whose correct answer the simulation computes, and free play at the end.
//! The lessons themselves are data (`core/lessons/*.json`, `kafka_sandbox_core::lesson`).

use super::send;
use crate::i18n::{self, Lang};
use crate::state::{Action, LessonState};
use kafka_sandbox_core::lesson::{self, Focus};
use kafka_sandbox_core::vecmap::VecMap;
use yew::prelude::*;

fn core_lang(lang: Lang) -> lesson::Lang {
    match lang {
        Lang::En => lesson::Lang::En,
        Lang::Zh => lesson::Lang::Zh,
    }
}

/// What the lesson panel shows, computed from the lesson's state (plain data).
#[derive(Clone, Debug, PartialEq)]
pub struct LessonView {
    pub title: String,
    /// The step shown (from 1) and how many there are.
    pub step: usize,
    pub steps: usize,
    pub say: String,
    pub ask: Option<String>,
    pub choices: Vec<String>,
    pub chosen: Option<usize>,
    /// The right choice, once revealed; the simulation's answer as text.
    pub correct: Option<usize>,
    pub answer: Option<String>,
    pub explain: Option<String>,
    pub awaiting: bool,
    pub free_play: Option<String>,
    /// At the lesson's end: what was done (steps, predictions right), and the next lesson.
    pub summary: Option<String>,
    pub next_lesson: Option<(String, String)>,
    pub error: Option<String>,
}

pub fn lesson_view(l: &LessonState, lang: Lang) -> LessonView {
    let cl = core_lang(lang);
    let lesson = l.run.lesson();
    let step = l.step();
    let question = step.and_then(|s| s.question.as_ref());
    LessonView {
        title: lesson.title.get(cl).to_string(),
        step: l.report.as_ref().map_or(0, |r| r.index + 1),
        steps: lesson.steps.len(),
        say: step.map(|s| s.say.get(cl).to_string()).unwrap_or_default(),
        ask: question.map(|q| q.ask.get(cl).to_string()),
        choices: question.map(|q| q.choices.iter().map(|c| c.label(cl)).collect()).unwrap_or_default(),
        chosen: l.chosen,
        correct: l.reveal.as_ref().and_then(|r| r.correct()),
        answer: l.reveal.as_ref().map(|r| lesson::show(&r.answer)),
        explain: l.reveal.as_ref().and(question).map(|q| q.explain.get(cl).to_string()),
        awaiting: l.awaiting_answer(),
        free_play: l.free_play().then(|| lesson.free_play.get(cl).to_string()),
        summary: l.free_play().then(|| i18n::classroom::lesson_summary(lang, lesson.steps.len(), l.answered, l.right)),
        next_lesson: l.free_play().then(|| l.next.as_ref().map(|(id, t)| (id.clone(), t.get(cl).to_string()))).flatten(),
        error: l.error.as_ref().map(|e| crate::messages::lesson_refusal(lang, e)),
    }
}

/// What the page outlines during a lesson: the step's `look_at`, or once its question is
/// answered, where the answer is ([`kafka_sandbox_core::lesson::Reveal::look_at`]) when
/// it names something on the page.
pub fn lesson_look_at(l: &crate::state::LessonState) -> Vec<Focus> {
    let step = l.report.as_ref().map(|r| r.look_at.clone()).unwrap_or_default();
    let answered = match (&l.reveal, l.step().and_then(|s| s.question.as_ref())) {
        (Some(r), Some(q)) => r.look_at(&q.query),
        _ => Vec::new(),
    };
    if answered.is_empty() {
        step
    } else {
        answered
    }
}

/// CSS selectors for what a step asks the learner to look at.
pub fn focus_selectors(focus: &[Focus]) -> Vec<String> {
    let q = |s: &str| crate::view::css_escape(s);
    focus
        .iter()
        .flat_map(|f| match f {
            Focus::Partition { topic, partition } => vec![
                format!("[data-topic=\"{}\"] #partition-{partition}", q(topic)),
                format!("[data-topic=\"{}\"][data-partition=\"{partition}\"]", q(topic)),
            ],
            Focus::Member { group, client_id } => vec![format!("[data-group=\"{}\"] [data-client=\"{}\"]", q(group), q(client_id))],
            Focus::Group(g) => vec![format!(".group[data-group=\"{}\"]", q(g))],
            Focus::Broker(b) => vec![format!("[data-broker=\"{b}\"]")],
            Focus::Producer(p) => vec![format!("[data-producer=\"{}\"]", q(p))],
            Focus::Record(v) => vec![format!("[data-value=\"{}\"]", q(v))],
        })
        .collect()
}

/// How many consumer groups a step looks at (a group, or a member of it): two or more,
/// and the page puts the groups side by side.
pub fn groups_in_focus(focus: &[Focus]) -> usize {
    let mut groups: Vec<&str> = Vec::new();
    for f in focus {
        let g = match f {
            Focus::Group(g) => g.as_str(),
            Focus::Member { group, .. } => group.as_str(),
            _ => continue,
        };
        if !groups.contains(&g) {
            groups.push(g);
        }
    }
    groups.len()
}

#[derive(Properties, PartialEq)]
pub struct LessonPanelProps {
    pub lang: Lang,
    pub view: LessonView,
    /// Folded to its heading (the drawer on a narrow screen).
    #[prop_or_default]
    pub collapsed: bool,
    pub dispatch: Callback<Action>,
}

#[component]
pub fn LessonPanel(p: &LessonPanelProps) -> Html {
    let lang = p.lang;
    let v = &p.view;
    let d = &p.dispatch;
    let verdict = match (v.chosen, v.correct) {
        (Some(c), Some(r)) if c == r => Some(("right", i18n::LESSON_RIGHT.get(lang).to_string())),
        (Some(_), Some(r)) => Some(("wrong", format!("{}{}", i18n::LESSON_WRONG.get(lang), v.choices.get(r).cloned().unwrap_or_default()))),
        (Some(_), None) => Some(("wrong", format!("{}{}", i18n::LESSON_ANSWER.get(lang), v.answer.clone().unwrap_or_default()))),
        _ => None,
    };
    html! {
        <section id="lesson" class="panel lesson" aria-label={i18n::LESSON.get(lang)}>
            <div class="lesson-head">
                <h2>{ format!("{} · {}", i18n::LESSON.get(lang), v.title) }</h2>
                <span class="muted small lesson-progress">{ i18n::lesson_step(lang, v.step, v.steps) }</span>
                <button id="lesson-fold" class="lesson-fold" aria-expanded={(!p.collapsed).to_string()} aria-controls="lesson-body"
                    onclick={send(d, Action::ToggleLessonDrawer)}>
                    { if p.collapsed { i18n::classroom::LESSON_UNFOLD.get(lang) } else { i18n::classroom::LESSON_FOLD.get(lang) } }
                </button>
                <button id="lesson-close" onclick={send(d, Action::CloseLesson)}>{ i18n::LESSON_CLOSE.get(lang) }</button>
            </div>
            <div id="lesson-body" class="lesson-body" hidden={p.collapsed}>
            <p class="lesson-say" aria-live="polite">{ &v.say }</p>
            if let Some(ask) = &v.ask {
                <div class="lesson-question">
                    <p class="ask"><strong>{ i18n::LESSON_PREDICT.get(lang) }</strong>{ " " }{ ask }</p>
                    <div class="choices" role="group" aria-label={ask.clone()}>
                        { for v.choices.iter().enumerate().map(|(i, label)| {
                            let class = classes!(
                                "choice",
                                (v.chosen == Some(i)).then_some("chosen"),
                                (v.correct == Some(i)).then_some("correct"),
                            );
                            html! {
                                <button {class} data-choice={i.to_string()} disabled={!v.awaiting}
                                    onclick={send(d, Action::LessonAnswer(i))}>{ label }</button>
                            }
                        }) }
                    </div>
                    if let Some((class, text)) = verdict {
                        <p class={classes!("verdict", class)} role="status">{ text }</p>
                    }
                    if let Some(explain) = &v.explain {
                        <p class="explain">{ explain }</p>
                    }
                </div>
            }
            if let Some(e) = &v.error {
                <p class="notice error" role="alert">{ format!("{}{e}", i18n::LESSON_ERROR.get(lang)) }</p>
            }
            if let Some(text) = &v.free_play {
                if let Some(summary) = &v.summary {
                    <p id="lesson-summary" class="lesson-summary" role="status">{ summary }</p>
                }
                <p class="lesson-free"><strong>{ i18n::LESSON_FREE_PLAY.get(lang) }</strong>{ " " }{ text }</p>
                if let Some((id, title)) = &v.next_lesson {
                    <button id="lesson-next-lesson" class="primary" onclick={send(d, Action::StartLesson(id.clone()))}>
                        { format!("{} {title} →", i18n::classroom::NEXT_LESSON.get(lang)) }
                    </button>
                } else {
                    <button id="lesson-all" onclick={send(d, Action::ToggleLessons)}>{ i18n::classroom::ALL_LESSONS_DONE.get(lang) }</button>
                }
            } else {
                <button id="lesson-next" class="primary" disabled={v.awaiting || v.error.is_some()}
                    title={if v.awaiting { i18n::LESSON_PREDICT_FIRST.get(lang) } else { "" }}
                    onclick={send(d, Action::LessonNext)}>{ i18n::LESSON_NEXT.get(lang) }</button>
            }
            </div>
        </section>
    }
}

#[derive(Properties)]
pub struct LessonListProps {
    pub lang: Lang,
    pub progress: VecMap<String, usize>,
    /// The lessons once fetched (number, lesson).
    pub catalog: Option<std::rc::Rc<Vec<(u32, lesson::Lesson)>>>,
    pub dispatch: Callback<Action>,
}

/// The catalog is compared by pointer: it is fetched once and never changed, and a derived
/// comparison would put a deep equality of every lesson type in the page (BENCHMARKS.md,
/// "Bundle").
impl PartialEq for LessonListProps {
    fn eq(&self, other: &Self) -> bool {
        let same_catalog = match (&self.catalog, &other.catalog) {
            (Some(a), Some(b)) => std::rc::Rc::ptr_eq(a, b),
            (a, b) => a.is_none() && b.is_none(),
        };
        same_catalog && self.lang == other.lang && self.progress == other.progress && self.dispatch == other.dispatch
    }
}

/// The built-in lessons, with how far the learner got in each.
#[component]
pub fn LessonList(p: &LessonListProps) -> Html {
    let lang = p.lang;
    let cl = core_lang(lang);
    let Some(catalog) = p.catalog.clone() else {
        return html! {
            <section id="lessons" class="panel lessons" role="dialog" aria-label={i18n::LESSONS.get(lang)}>
                <p class="muted" aria-busy="true">{ i18n::LESSONS_LOADING.get(lang) }</p>
            </section>
        };
    };
    let lessons = catalog.iter();
    html! {
        <section id="lessons" class="panel lessons" role="dialog" aria-label={i18n::LESSONS.get(lang)}>
            <div class="lesson-head">
                <h2>{ i18n::LESSONS.get(lang) }</h2>
                <button id="lessons-close" onclick={send(&p.dispatch, Action::ToggleLessons)}>{ i18n::CLOSE.get(lang) }</button>
            </div>
            <ul class="lesson-list">
                { for lessons.map(|(number, l)| {
                    let number = *number;
                    let seen = p.progress.get(&l.id).copied().unwrap_or(0).min(l.steps.len());
                    let status = if seen >= l.steps.len() {
                        i18n::LESSON_DONE.get(lang).to_string()
                    } else if seen > 0 {
                        i18n::lesson_step(lang, seen, l.steps.len())
                    } else {
                        String::new()
                    };
                    let id = l.id.clone();
                    html! {
                        <li data-lesson={l.id.clone()} class={classes!((seen >= l.steps.len()).then_some("done"))}>
                            <span class="lesson-number">{ number }</span>
                            <button class="start-lesson" onclick={send(&p.dispatch, Action::StartLesson(id.clone()))}>
                                { l.title.get(cl) }
                            </button>
                            <span class="muted small">{ l.summary.get(cl) }</span>
                            <span class="lesson-status small">{ status }</span>
                        </li>
                    }
                }) }
            </ul>
        </section>
    }
}
