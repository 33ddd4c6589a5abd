//! The root component: owns the state and the animation timer, lays out the panels.

use crate::i18n::{self, Lang};
use crate::panels::send;
use crate::panels::Now;
use crate::panels::{Apps, LessonList, LessonPanel};
use crate::panels::{
    BridgePanel, Brokers, Charts, ComparePanel, Controls, EventLog, ForkPanel, GlossaryPanel, Groups, Guarantees, Producers,
    RecordPathPanel, ScenarioPanel, SequenceDiagram, SharePanel, TopicView, Wire, WireSide,
};
use crate::state::{Action, AppState, Notice, Outgoing, SharedFrom, TICK_MS};
use gloo_timers::callback::Interval;
use kafka_sandbox_core::Snapshot;
use std::rc::Rc;
use yew::prelude::*;

/// The language the browser prefers: Chinese for `zh*`, English otherwise.
fn initial_lang() -> Lang {
    let preferred = web_sys::window().and_then(|w| w.navigator().language()).unwrap_or_default();
    let query = web_sys::window().and_then(|w| w.location().search().ok()).unwrap_or_default();
    let saved = crate::browser::load_lang().unwrap_or_default();
    if query.contains("lang=en") {
        Lang::En
    } else if query.contains("lang=zh") {
        Lang::Zh
    } else if saved == "en" {
        Lang::En
    } else if saved == "zh" || preferred.starts_with("zh") {
        Lang::Zh
    } else {
        Lang::En
    }
}

/// A style that outlines who an event involves (its brokers, consumers, producers,
/// connectors and Streams apps; `view::involved_selectors`).
fn highlight_css(kind: &kafka_sandbox_core::EventKind) -> String {
    let selectors = crate::view::involved_selectors(kind);
    if selectors.is_empty() {
        return String::new();
    }
    format!("{} {{ outline: 3px solid var(--accent, #2b6cb0); outline-offset: 2px; }}", selectors.join(", "))
}

/// Above this many partitions, each log shows only its newest few records.
const LARGE_PARTITIONS: usize = 48;

/// Newest guarantee findings listed.
const GUARANTEE_ROWS: usize = 50;

#[component]
pub fn App() -> Html {
    let state = use_reducer(|| AppState::new(initial_lang()));
    // What the compaction views read of each compacted log, kept between frames (issue 19).
    let key_cache = use_mut_ref(crate::compaction::KeyCache::new);
    {
        let dispatcher = state.dispatcher();
        use_effect_with((), move |_| {
            // Each tick says how long really passed since the last, so the simulation keeps
            // its pace when frames are slow (the view drops frames, not simulated time).
            let mut last = js_sys::Date::now();
            let interval = Interval::new(TICK_MS, move || {
                let now = js_sys::Date::now();
                let elapsed = (now - last).max(0.0).round() as u32;
                last = now;
                dispatcher.dispatch(Action::TickAfter(elapsed));
            });
            // Dropping the Interval cancels it.
            move || drop(interval)
        });
    }
    {
        // `?present` in the address opens the page in presentation mode.
        let dispatcher = state.dispatcher();
        use_effect_with((), move |_| {
            let query = web_sys::window().and_then(|w| w.location().search().ok()).unwrap_or_default();
            if query.trim_start_matches('?').split('&').any(|p| p == "present" || p == "present=1" || p == "present=true") {
                dispatcher.dispatch(Action::SetPresent(Some(true)));
            }
        });
    }
    {
        // A share link in the address wins; otherwise the autosaved session comes back.
        let dispatcher = state.dispatcher();
        use_effect_with((), move |_| {
            if let Some(text) = crate::browser::load_lesson_progress() {
                dispatcher.dispatch(Action::SetLessonProgress(text));
            }
            if crate::browser::load_less_motion() {
                dispatcher.dispatch(Action::SetMotion(true));
            }
            match crate::browser::load_theme().as_deref() {
                Some("light") => dispatcher.dispatch(Action::SetTheme(Some("light"))),
                Some("dark") => dispatcher.dispatch(Action::SetTheme(Some("dark"))),
                _ => {}
            }
            if let Some(text) = crate::browser::fragment() {
                dispatcher.dispatch(Action::OpenShared { text, from: SharedFrom::Link });
            } else if let Some(text) = crate::browser::load_autosave() {
                dispatcher.dispatch(Action::OpenShared { text, from: SharedFrom::Autosave });
            }
        });
    }
    {
        // Hand the browser what the reducer queued (autosaves after changes and every
        // couple of seconds while playing, files to download), then say so: the model
        // changes only in the reducer.
        let model = state.model.clone();
        let dispatcher = state.dispatcher();
        use_effect_with(state.version, move |_| {
            let delivered = match model.try_borrow() {
                Ok(m) => {
                    for out in &m.outbox {
                        match out {
                            Outgoing::Autosave(text) => crate::browser::save_autosave(text),
                            Outgoing::Download(text) => {
                                let _ = crate::browser::download("kafka-sandbox-run.json", text);
                            }
                            Outgoing::SaveText { name, text } => {
                                let _ = crate::browser::download_text(name, text);
                            }
                            Outgoing::CopyText(text) => {
                                let text = text.clone();
                                yew::platform::spawn_local(async move {
                                    let _ = crate::browser::copy_text(&text).await;
                                });
                            }
                            Outgoing::CopyLink(text) => {
                                let url = format!("{}#{text}", crate::browser::base_url());
                                let dispatcher = dispatcher.clone();
                                yew::platform::spawn_local(async move {
                                    let ok = crate::browser::copy_text(&url).await;
                                    dispatcher.dispatch(Action::Copied(ok));
                                });
                            }
                        }
                    }
                    m.outbox.len()
                }
                Err(_) => 0,
            };
            if delivered > 0 {
                dispatcher.dispatch(Action::Delivered(delivered));
            }
        });
    }
    {
        // The learner's choices, applied and remembered when they change (not every tick).
        let prefs =
            state.model.try_borrow().ok().map(|m| (m.lang, m.theme, m.less_motion, crate::state::progress_text(&m.lesson_progress)));
        use_effect_with(prefs, |prefs| {
            if let Some((lang, theme, less_motion, progress)) = prefs {
                crate::browser::save_lang(lang.code());
                crate::browser::apply_theme(*theme);
                crate::browser::apply_less_motion(*less_motion);
                if !progress.is_empty() {
                    crate::browser::save_lesson_progress(progress);
                }
            }
        });
    }
    // The lesson step shown, and what it asks to look at (CSS selectors, outlined below).
    let (lesson_step, lesson_selectors, compared_groups) = match state.model.try_borrow() {
        Ok(m) => {
            let report = m.lesson.as_ref().and_then(|l| l.report.as_ref());
            // Once the answer is shown, the highlight follows it (where the record went,
            // who received it); before, it is what the step looks at.
            let look_at = m.lesson.as_ref().map(crate::panels::lesson_look_at).unwrap_or_default();
            let revealed = m.lesson.as_ref().is_some_and(|l| l.reveal.is_some());
            (
                report.map(|r| (r.index, r.now_ms, revealed)),
                crate::panels::focus_selectors(&look_at),
                crate::panels::groups_in_focus(&look_at),
            )
        }
        Err(_) => (None, Vec::new(), 0),
    };
    {
        // A new lesson step: bring what it asks to look at into view (the lesson panel
        // stays on screen above it).
        let focus = lesson_selectors.clone();
        use_effect_with(lesson_step, move |step| {
            if step.is_some() {
                crate::browser::scroll_to_first(&focus);
            }
        });
    }
    {
        // The lessons are fetched the first time the list opens (they are not in the wasm).
        let wanted = state.model.try_borrow().is_ok_and(|m| m.show_lessons && m.catalog.is_none());
        let dispatcher = state.dispatcher();
        use_effect_with(wanted, move |wanted| {
            if *wanted {
                wasm_bindgen_futures::spawn_local(async move {
                    let mut files = Vec::new();
                    for name in kafka_sandbox_core::lesson::LESSON_FILES {
                        files.push((name.to_string(), crate::browser::fetch_text(&format!("lessons/{name}.json")).await));
                    }
                    dispatcher.dispatch(Action::LessonsFetched(files));
                });
            }
        });
    }
    // One callback for the page's life: panels that compare their props see it unchanged.
    let dispatch: Callback<Action> = {
        let dispatcher = state.dispatcher();
        (*use_memo((), move |_| Callback::from(move |a: Action| dispatcher.dispatch(a)))).clone()
    };
    {
        // The keyboard, listened to on the whole window (a key pressed while focus is on
        // the page's body, or on a button that was just removed, still counts); the
        // reducer decides what a key does (`Action::Key`).
        let dispatcher = state.dispatcher();
        use_effect_with((), move |_| {
            let listener = crate::browser::on_key(move |e: &web_sys::KeyboardEvent| {
                let tag = e.target().and_then(|t| wasm_bindgen::JsCast::dyn_into::<web_sys::Element>(t).ok()).map(|el| el.tag_name());
                let key = e.key();
                // Keys typed into a field are its own; on a focused button or summary only
                // the keys that activate it (Space, Enter) are, so a presenter's → still steps.
                let field = matches!(tag.as_deref(), Some("INPUT" | "TEXTAREA" | "SELECT"));
                let control = matches!(tag.as_deref(), Some("BUTTON" | "SUMMARY"));
                let handled = crate::state::KEYS.contains(&key.as_str()) || key.parse::<u8>().is_ok_and(|n| (1..=9).contains(&n));
                if field || (control && matches!(key.as_str(), " " | "Enter")) || !handled || e.ctrl_key() || e.alt_key() || e.meta_key() {
                    return;
                }
                if matches!(key.as_str(), " " | "ArrowRight" | "ArrowLeft" | "PageDown" | "PageUp") {
                    e.prevent_default();
                }
                dispatcher.dispatch(Action::Key(key));
            });
            move || drop(listener)
        });
    }

    let Ok(model) = state.model.try_borrow() else {
        return html! { <main id="app-root" class="app" /> };
    };
    let lang = model.lang;
    // What this frame reads of the simulation goes through the core's read layer.
    let read = model.sim.read();
    // A large cluster draws fewer records per partition: the page stays responsive.
    let big = read.partition_count() > LARGE_PARTITIONS;
    // Panels given only what they show, so Yew skips those whose part did not change:
    // the snapshot's parts are moved out, not copied, and shared where two panels show one.
    let Snapshot {
        now,
        steps,
        events_total,
        brokers,
        topics,
        producers,
        groups,
        flights,
        findings_total,
        promises_broken,
        connectors,
        streams,
        ..
    } = model.sim.snapshot_with(if big { 8 } else { usize::MAX });
    let (brokers, topics, groups, flights) = (Rc::new(brokers), Rc::new(topics), Rc::new(groups), Rc::new(flights));
    let txn_streams = Rc::new(streams.iter().map(|s| (s.application_id.clone(), s.processing_guarantee)).collect::<Vec<_>>());
    let (produce_topic, produce_partitions) =
        read.topics().next().map_or((AttrValue::default(), 0), |t| (AttrValue::from(t.name().to_string()), t.partition_count()));
    let kafka_version = model.sim.cluster().kafka_version;
    let compare_groups = Rc::new(crate::panels::compare_groups(read));
    let share_groups = Rc::new(kafka_sandbox_core::share_view::views(&model.sim));
    let marks = Rc::new(crate::view::offset_marks(read));
    let mut key_cache = key_cache.borrow_mut();
    let compaction = Rc::new(crate::compaction::compactions(read, &mut key_cache));
    // Where each group's offsets live, and the `__consumer_offsets` partition opened (issue 19).
    let offsets_homes = Rc::new(crate::compaction::offsets_homes(read));
    let offsets_view = model.offsets_partition.and_then(|p| crate::compaction::offsets_partition(read, p, &mut key_cache)).map(Rc::new);
    let acked_lost = Rc::new(crate::view::acked_lost(&topics, &producers));
    // Each group as kafka-consumer-groups.sh --describe prints it.
    let describes: Rc<kafka_sandbox_core::vecmap::VecMap<String, String>> = Rc::new(
        read.groups()
            .map(|g| {
                let d = kafka_sandbox_core::bridge::describe::describe(g, |tp| read.partition(tp).map(|p| p.high_watermark()));
                (g.id().to_string(), i18n::classroom::describe_table(lang, &d))
            })
            .collect(),
    );
    let (category, entity) = model.event_filter.clone();
    let events = Rc::new(crate::view::filtered_events(read, lang, category, &entity, 60, 5000));
    let findings = Rc::new(crate::view::guarantee_rows(lang, read, GUARANTEE_ROWS));
    let selected = model.selected;
    let show_keys = model.show_keys;
    let theme = model.theme;
    let less_motion = model.less_motion;
    let lesson = model.lesson.as_ref().map(|l| crate::panels::lesson_view(l, lang));
    let lesson_focus = if lesson_selectors.is_empty() {
        String::new()
    } else {
        format!("{} {{ outline: 3px dashed var(--warn, #a05a00); outline-offset: 2px; }}", lesson_selectors.join(", "))
    };
    let show_lessons = model.show_lessons;
    let present = model.present;
    let show_glossary = model.show_glossary;
    let bridge = model.bridge.clone();
    let lesson_collapsed = model.lesson_collapsed && (model.lesson.is_some() || model.show_lessons);
    let lesson_progress = model.lesson_progress.clone();
    let catalog = model.catalog.clone();
    let show_sequence = model.show_sequence;
    let fork_view = model.fork.as_ref().map(|f| {
        // The recorded future the fork replays, and whether this run still does too.
        let future: Vec<(u64, String)> =
            f.future.iter().map(|c| (c.at.ms(), kafka_sandbox_core::json::write_json(&c.command, false))).collect();
        (f.at_ms, kafka_sandbox_core::compare::outcome(&model.sim), kafka_sandbox_core::compare::outcome(&f.sim), Rc::new(future))
    });
    let keep_future = model.keep_future;
    let timed = model.timed.len();
    // The sequence diagram's window: 2 s up to now, or around the selected event.
    let selected_event = selected.and_then(|seq| read.event(seq));
    let seq_end = selected_event.map(|e| e.time.ms() + 1_000).unwrap_or_else(|| read.now().ms());
    let seq_window = (seq_end.saturating_sub(2_000), seq_end);
    let seq_messages =
        Rc::new(if model.show_sequence { crate::sequence::messages(&model.sim, seq_window.0, seq_window.1, 80) } else { Vec::new() });
    let chart_samples = model.series.samples.clone();
    let record_path = model.record_path.map(|r| Rc::new(read.record_path(r)));
    let record_partitions = record_path.as_ref().and_then(|p| {
        p.hops.iter().find_map(|(_, h)| match h {
            kafka_sandbox_core::read::Hop::Sent { topic, .. } => read.topic(topic).map(|t| t.partition_count()),
            _ => None,
        })
    });
    let highlight = selected_event.map(|e| highlight_css(&e.kind)).unwrap_or_default();
    // For screen readers: while paused, the newest event is read out after each step.
    let narration =
        if model.playing { String::new() } else { read.last_event().map(|e| i18n::event_line(lang, &e.kind)).unwrap_or_default() };
    let notice = model.notice.clone();
    let last_produce = model.last_produce.clone();
    let scenario_json = model.scenario_json();
    let json_error = model.json_error.clone();
    let scenario_key = model.scenario_key.clone();
    let scenario_name = model.scenario.name.clone();
    let playing = model.playing;
    let running_to = model.run_to.map(|t| t.ms());
    let speed = model.speed;
    let behind = model.pace.falling_behind();
    let next_value = crate::state::next_value(&model.sim);
    let retries = model.retries.clone();
    let group_logs = Rc::new(model.groups.all());
    let comparison = model.comparison.clone();
    let share = model.share.as_ref().map(|s| match s {
        crate::state::ShareState::Link { text, copied } => {
            crate::state::ShareState::Link { text: format!("{}#{text}", crate::browser::base_url()), copied: *copied }
        }
        other => other.clone(),
    });
    let reached = model.reached.max(read.steps());
    drop(model);

    let toggle_lang = send(&dispatch, Action::ToggleLang);
    let dismiss = send(&dispatch, Action::Dismiss);
    let with_lesson = lesson.is_some() || show_lessons;
    // A lesson that compares groups (it looks at two or more): the groups go side by side.
    let compare_groups_layout = compared_groups >= 2;
    let side = html! {
        <>
            if show_lessons {
                <LessonList {lang} progress={lesson_progress} {catalog} dispatch={dispatch.clone()} />
            }
            if let Some(view) = lesson {
                <LessonPanel {lang} {view} collapsed={lesson_collapsed} dispatch={dispatch.clone()} />
            }
        </>
    };
    html! {
        <main id="app-root" class={classes!("app", big.then_some("big"), with_lesson.then_some("with-lesson"), lesson_collapsed.then_some("lesson-collapsed"), present.then_some("present"))}
            lang={lang.code()} tabindex="0">
            // The lesson beside the cluster on wide screens, a drawer at the bottom on narrow
            // ones (CSS): never over what it talks about.
            if with_lesson {
                <aside id="lesson-side" class="lesson-side" aria-label={i18n::LESSON.get(lang)}>{ side }</aside>
            }
            <div class="main-col">
            <style id="highlight">{ highlight }</style>
            <style id="lesson-focus">{ lesson_focus }</style>
            <div id="narration" class="sr-only" aria-live="polite" aria-atomic="true">{ narration }</div>
            <header class="top">
                <div class="brand">
                    <h1>{ i18n::TITLE.get(lang) }</h1>
                    <span class="subtitle">{ i18n::SUBTITLE.get(lang) }</span>
                </div>
                <ScenarioPanel {lang} current={scenario_key} json={scenario_json} name={scenario_name} error={json_error} dispatch={dispatch.clone()} />
                <SharePanel {lang} {share} dispatch={dispatch.clone()} />
                <button id="bridge-toggle" aria-expanded={bridge.is_some().to_string()} onclick={send(&dispatch, Action::ToggleBridge)}>
                    { i18n::classroom::BRIDGE.get(lang) }
                </button>
                <button id="glossary-toggle" aria-expanded={show_glossary.to_string()} onclick={send(&dispatch, Action::ToggleGlossary)}>
                    { i18n::classroom::GLOSSARY.get(lang) }
                </button>
                <button id="present-toggle" title={i18n::classroom::PRESENT_HINT.get(lang)} aria-pressed={present.to_string()}
                    onclick={send(&dispatch, Action::SetPresent(None))}>{ i18n::classroom::PRESENT.get(lang) }</button>
                <button id="theme-toggle" title={i18n::THEME_HINT.get(lang)} onclick={send(&dispatch, Action::CycleTheme)}>
                    { i18n::theme_label(lang, theme) }
                </button>
                <button id="lessons-toggle" title={i18n::LESSONS_HINT.get(lang)} aria-expanded={show_lessons.to_string()}
                    onclick={send(&dispatch, Action::ToggleLessons)}>{ i18n::LESSONS.get(lang) }</button>
                <button id="motion-toggle" title={i18n::MOTION_HINT.get(lang)} aria-pressed={less_motion.to_string()}
                    onclick={send(&dispatch, Action::ToggleMotion)}>
                    { if less_motion { i18n::MOTION_REDUCED.get(lang) } else { i18n::MOTION_FULL.get(lang) } }
                </button>
                <button id="lang-toggle" class="lang" onclick={toggle_lang}>{ i18n::LANG_SWITCH.get(lang) }</button>
            </header>
            <Controls {lang} {playing} {running_to} {speed} {now} events={events_total} {steps} {reached} {behind} dispatch={dispatch.clone()} />
            if let Some(n) = notice {
                {
                    match n {
                        Notice::Error(text) => html! {
                            <div id="notice" class="notice error" role="alert">
                                <span>{ text }</span>
                                <button onclick={dismiss}>{ i18n::DISMISS.get(lang) }</button>
                            </div>
                        },
                        Notice::Info(text) => html! {
                            <div id="notice" class="notice info" role="status">
                                <span>{ text }</span>
                                <button onclick={dismiss}>{ i18n::DISMISS.get(lang) }</button>
                            </div>
                        },
                    }
                }
            }
            if show_glossary {
                <GlossaryPanel {lang} dispatch={dispatch.clone()} />
            }
            if let Some(bridge) = bridge {
                <BridgePanel {lang} {bridge} dispatch={dispatch.clone()} />
            }
            if show_keys {
                <div id="keys" class="panel keys" role="dialog" aria-label={i18n::KEYS_TITLE.get(lang)}>
                    <h2>{ i18n::KEYS_TITLE.get(lang) }</h2>
                    <dl>
                        <dt><kbd>{ "Space" }</kbd></dt><dd>{ i18n::KEY_PLAY.get(lang) }</dd>
                        <dt><kbd>{ "→" }</kbd></dt><dd>{ i18n::STEP_HINT.get(lang) }</dd>
                        <dt><kbd>{ "←" }</kbd></dt><dd>{ i18n::BACK_HINT.get(lang) }</dd>
                        <dt><kbd>{ "Tab" }</kbd></dt><dd>{ i18n::KEY_TAB.get(lang) }</dd>
                        <dt><kbd>{ "Enter" }</kbd></dt><dd>{ i18n::KEY_ENTER.get(lang) }</dd>
                        <dt><kbd>{ "?" }</kbd></dt><dd>{ i18n::KEY_HELP.get(lang) }</dd>
                        <dt><kbd>{ "Esc" }</kbd></dt><dd>{ i18n::KEY_ESC.get(lang) }</dd>
                    </dl>
                </div>
            }
            if let Some((at_ms, this, fork, future)) = fork_view {
                <ForkPanel {lang} {at_ms} now_ms={now.ms()} {this} {fork} {future} {keep_future} {timed} dispatch={dispatch.clone()} />
            }
            if let Some(path) = record_path {
                <RecordPathPanel {lang} {path} partitions={record_partitions} dispatch={dispatch.clone()} />
            }
            <ContextProvider<Now> context={Now(now)}>
            <section class={classes!("stage", compare_groups_layout.then_some("compare-groups"))}>
                <Producers {lang} producers={producers.clone()} topic={produce_topic} partitions={produce_partitions} {last_produce} {next_value} {retries} lost={acked_lost} dispatch={dispatch.clone()} />
                <Wire {lang} flights={flights.clone()} {now} side={WireSide::Produce} />
                <TopicView {lang} topics={topics.clone()} brokers={brokers.len() as u32} {now} producers={producers.clone()} {marks} {compaction} dispatch={dispatch.clone()} />
                <Wire {lang} flights={flights.clone()} {now} side={WireSide::Fetch} />
                <Groups {lang} groups={groups.clone()} logs={group_logs} {describes} {offsets_homes} dispatch={dispatch.clone()} />
            </section>
            </ContextProvider<Now>>
            if let Some(view) = offsets_view {
                <crate::panels::OffsetsPanel {lang} {view} dispatch={dispatch.clone()} />
            }
            <crate::panels::ShareGroups {lang} groups={share_groups} {now} dispatch={dispatch.clone()} />
            <Apps {lang} {connectors} {streams} dispatch={dispatch.clone()} />
            <crate::panels::Transactions {lang} producers={producers.clone()} groups={groups.clone()} streams={txn_streams} dispatch={dispatch.clone()} />
            <Brokers {lang} {kafka_version} {brokers} {topics} {flights} {now} {producers} dispatch={dispatch.clone()} />
            <Charts {lang} samples={chart_samples} />
            <SequenceDiagram {lang} window={seq_window} messages={seq_messages} open={show_sequence}
                on_toggle={dispatch.reform(Action::ShowSequence)} />
            <ComparePanel {lang} groups={compare_groups} result={comparison} dispatch={dispatch.clone()} />
            <div class="bottom">
                <EventLog {lang} {events} {category} {entity} {selected} dispatch={dispatch.clone()} />
                <Guarantees {lang} rows={findings} total={findings_total} broken={promises_broken} />
            </div>
            </div>
        </main>
    }
}
