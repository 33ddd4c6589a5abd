//! The page's state: the running simulation, the player controls and messages.
//! Components only send [`Action`]s; the reducer is the one place that changes anything.

use crate::i18n::{self, Lang};
use crate::timeline::{self, GroupWatch};
use kafka_sandbox_core::command::{GroupCommand, ProduceCommand};
use kafka_sandbox_core::command::{GroupSpec, MemberSpec};
use kafka_sandbox_core::config::Strategy;
use kafka_sandbox_core::config::{GroupConfig, OffsetReset};
use kafka_sandbox_core::event::ProduceEvent;
use kafka_sandbox_core::scenario::{self, Scenario};
use kafka_sandbox_core::{Command, Sim, SimTime};
use std::cell::RefCell;
use std::rc::Rc;
use yew::Reducible;

/// Simulated milliseconds per real second, per speed setting.
pub const SPEEDS: &[(f64, &str)] = &[(0.25, "¼×"), (0.5, "½×"), (1.0, "1×"), (2.0, "2×"), (5.0, "5×"), (20.0, "20×")];
pub const DEFAULT_SPEED: usize = 2;
/// Real milliseconds between animation ticks.
pub const TICK_MS: u32 = 50;
/// The most wall-clock time one tick makes up for (a tab back from the background does
/// not leap minutes ahead).
pub const MAX_CATCH_UP_MS: u32 = 250;
/// Most events one tick may apply, so a frame never does unbounded work.
const MAX_STEPS_PER_TICK: u64 = 20_000;
/// How much the "slow follower" button delays a broker's replica fetches.
pub const SLOW_FOLLOWER_MS: u64 = 2000;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Notice {
    Info(String),
    Error(String),
}

/// Everything that can change.
pub struct Model {
    pub sim: Sim,
    pub scenario: Scenario,
    pub scenario_key: String,
    pub playing: bool,
    pub speed: usize,
    pub lang: Lang,
    pub notice: Option<Notice>,
    /// Why the JSON last loaded from the scenario's text box was refused, shown in the box
    /// (which covers part of the notice) until the next load or a dismissal.
    pub json_error: Option<String>,
    /// The sentence explaining where the last record produced from the page went.
    pub last_produce: Option<String>,
    /// The error each producer is retrying after, read from the trace.
    pub retries: RetryWatch,
    /// Each group's rebalance timeline and departures, read from the trace.
    pub groups: GroupWatch,
    /// Checkpoints of this run, for going back in time.
    pub history: kafka_sandbox_core::history::History,
    /// After going back: the commands of the run still to come (re-applied when their
    /// step comes, dropped when the learner does something new).
    pub redo: Vec<kafka_sandbox_core::sim::LoggedCommand>,
    /// Step counts of the points the learner saw (after each step or tick), for ⟲.
    pub marks: Vec<u64>,
    /// The furthest step this run has reached (the scrubber's end).
    pub reached: u64,
    /// The event log's filter: a kind of event, and text an event must mention.
    pub event_filter: (crate::view::EventCategory, String),
    /// The event the learner selected in the log (the view moved to just after it).
    pub selected: Option<u64>,
    /// Lag, throughput and stopped members over time, for the charts.
    pub series: crate::charts::Series,
    /// After the learner changed something while a fork is open: the recorded future the
    /// run still replays, by moment (unless the learner chose to diverge, `keep_future`).
    pub timed: Vec<kafka_sandbox_core::sim::LoggedCommand>,
    /// Whether a change after going back keeps the recorded future (with a fork open);
    /// the fork panel's choice.
    pub keep_future: bool,
    /// A fork: a copy of the run taken at some moment that goes on unchanged, for
    /// comparing with what the learner does from there.
    pub fork: Option<Fork>,
    /// The sequence diagram is open.
    pub show_sequence: bool,
    /// The `__consumer_offsets` partition opened from a group's card (issue 19).
    pub offsets_partition: Option<u32>,
    /// The colour theme: None follows the system, else "light" or "dark".
    pub theme: Option<&'static str>,
    /// Reduced motion chosen in the page (the system's preference applies either way):
    /// the same information, nothing sliding or flashing.
    pub less_motion: bool,
    /// The keyboard help is open.
    pub show_keys: bool,
    /// The lesson being followed, if any (see [`LessonState`]).
    pub lesson: Option<LessonState>,
    /// The list of lessons is open.
    pub show_lessons: bool,
    /// On a narrow screen the lesson is a drawer at the bottom: folded to its heading.
    pub lesson_collapsed: bool,
    /// The glossary is open.
    pub show_glossary: bool,
    /// "Try it on real Kafka": the bridge of the scenario, made when the panel opens (or
    /// why it could not be).
    pub bridge: Option<Rc<Result<kafka_sandbox_core::bridge::Bridge, String>>>,
    /// Presentation mode (a toggle, or `?present` in the address): large type, high
    /// contrast, the lesson's narration as captions, steps from the keyboard.
    pub present: bool,
    /// The built-in lessons (number, lesson), once fetched; `None` until then.
    pub catalog: Option<Rc<Vec<(u32, kafka_sandbox_core::lesson::Lesson)>>>,
    /// Per lesson id, how many of its steps the learner has seen (remembered).
    pub lesson_progress: kafka_sandbox_core::vecmap::VecMap<String, usize>,
    /// The record whose path is shown.
    pub record_path: Option<kafka_sandbox_core::record::RecordId>,
    /// What the browser is to be handed (autosaves, a file to download), oldest first:
    /// the reducer puts it here, an effect in `app.rs` hands it over and reports back with
    /// [`Action::Delivered`] (the effect never changes the model).
    pub outbox: Vec<Outgoing>,
    /// The scenario's JSON, made when first asked for after the scenario changed (not
    /// every frame); `set_scenario` clears it.
    scenario_json: std::cell::RefCell<Option<Rc<String>>>,
    /// What the last "Share" click made: a link (copied to the clipboard, or not), or the
    /// run was too big for one.
    pub share: Option<ShareState>,
    /// Something worth autosaving happened since the last save; ticks since then.
    dirty: bool,
    ticks_since_save: u32,
    /// The last eager/cooperative/KIP-848 comparison asked for (or why it could not run).
    pub comparison: Option<Result<Rc<kafka_sandbox_core::compare::Comparison>, String>>,
    /// Fractional simulated milliseconds carried between ticks.
    carry_ms: f64,
    /// Wall-clock ms the current tick stands for.
    tick_ms: u32,
    /// Wall-clock ms that really passed before the current tick (not capped).
    wall_ms: u32,
    /// The pace the run keeps while playing (issue 20): what the page says when it cannot
    /// keep the chosen speed.
    pub pace: Pace,
    /// Run to: the moment the run is going to, a slice of events per tick (the page
    /// stays responsive), pausing there. Any step, travel, command or Play/Pause ends it.
    pub run_to: Option<SimTime>,
}

/// The error a producer is retrying after, per producer: set by a failed request it will
/// retry, cleared by its next acknowledgement or when it gives the records up (the sent
/// record then carries the error). Fed with the trace's new events after every action.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RetryWatch {
    cursor: u64,
    retrying: kafka_sandbox_core::vecmap::VecMap<String, (SimTime, kafka_sandbox_core::event::ProduceError)>,
}

impl RetryWatch {
    pub fn ingest(&mut self, sim: &Sim) {
        use kafka_sandbox_core::EventKind as E;
        let total = sim.trace().total();
        if total == self.cursor {
            return;
        }
        for e in sim.events_since(self.cursor) {
            match &e.kind {
                E::Produce(ProduceEvent::ProduceFailed { producer, error, retrying: true, .. }) => {
                    self.retrying.insert(producer.to_string(), (e.time, *error));
                }
                E::Produce(ProduceEvent::ProduceFailed { producer, retrying: false, .. })
                | E::Produce(ProduceEvent::RecordAcked { producer, .. }) => {
                    self.retrying.remove(producer.as_str());
                }
                _ => {}
            }
        }
        self.cursor = total;
    }

    /// Since when and with what error `producer` is retrying, if it is.
    pub fn of(&self, producer: &str) -> Option<(SimTime, kafka_sandbox_core::event::ProduceError)> {
        self.retrying.get(producer).copied()
    }
}

impl Model {
    pub fn new(lang: Lang) -> Self {
        let scenario = scenario::default_scenario();
        let sim = build_or_empty(&scenario);
        Self {
            history: new_history(&sim),
            redo: Vec::new(),
            marks: Vec::new(),
            reached: 0,
            share: None,
            outbox: Vec::new(),
            scenario_json: Default::default(),
            series: Default::default(),
            record_path: None,
            show_keys: false,
            theme: None,
            less_motion: false,
            lesson: None,
            show_lessons: false,
            lesson_collapsed: false,
            present: false,
            show_glossary: false,
            bridge: None,
            catalog: None,
            lesson_progress: Default::default(),
            show_sequence: false,
            offsets_partition: None,
            fork: None,
            timed: Vec::new(),
            keep_future: true,
            event_filter: Default::default(),
            selected: None,
            dirty: false,
            ticks_since_save: 0,
            sim,
            scenario,
            scenario_key: "two-groups".into(),
            playing: true,
            speed: DEFAULT_SPEED,
            lang,
            notice: None,
            json_error: None,
            last_produce: None,
            retries: RetryWatch::default(),
            groups: GroupWatch::default(),
            comparison: None,
            carry_ms: 0.0,
            tick_ms: TICK_MS,
            wall_ms: TICK_MS,
            pace: Pace::default(),
            run_to: None,
        }
    }

    /// A new run starts: what was read from the old run's trace is forgotten.
    fn new_run(&mut self, sim: Sim) {
        self.fork = None;
        self.timed.clear();
        self.series = Default::default();
        self.history = new_history(&sim);
        self.redo.clear();
        self.marks.clear();
        self.reached = 0;
        self.sim = sim;
        self.retries = RetryWatch::default();
        self.groups = GroupWatch::default();
        self.last_produce = None;
        self.carry_ms = 0.0;
        self.run_to = None;
    }
}

/// A lesson in progress: its runner (which owns the lesson's own copy of the run), what
/// the last step reported, and the learner's answer to its question.
#[derive(Clone, Debug)]
pub struct LessonState {
    pub run: kafka_sandbox_core::lesson::LessonRun,
    pub report: Option<kafka_sandbox_core::lesson::StepReport>,
    /// The choice the learner picked, and the simulation's answer.
    pub chosen: Option<usize>,
    pub reveal: Option<kafka_sandbox_core::lesson::Reveal>,
    /// Why the lesson cannot go on (a lesson that disagrees with the simulation).
    pub error: Option<kafka_sandbox_core::lesson::LessonError>,
    /// Questions answered so far, and how many the learner predicted as the simulation
    /// did (the summary at the lesson's end).
    pub answered: usize,
    pub right: usize,
    /// The lesson after this one in the list (id and title), offered at the end.
    pub next: Option<(String, kafka_sandbox_core::lesson::Text)>,
}

impl LessonState {
    /// The step shown now (the last one run).
    pub fn step(&self) -> Option<&kafka_sandbox_core::lesson::Step> {
        self.report.as_ref().and_then(|r| self.run.lesson().steps.get(r.index))
    }

    /// Waiting for the learner's prediction before going on.
    pub fn awaiting_answer(&self) -> bool {
        self.step().is_some_and(|s| s.question.is_some()) && self.reveal.is_none()
    }

    /// Every step has run and every question is answered: free play.
    pub fn free_play(&self) -> bool {
        self.run.finished() && !self.awaiting_answer()
    }
}

/// A copy of the run from `at_ms` on, with none of the learner's later changes.
#[derive(Clone, Debug)]
pub struct Fork {
    pub at_ms: u64,
    pub sim: Sim,
    /// The run as it was when forked (for saving and sharing the fork): its commands and
    /// step count then.
    pub base_commands: Vec<kafka_sandbox_core::sim::LoggedCommand>,
    pub base_steps: u64,
    /// The recorded future (the commands the run had still to come when forked): the fork
    /// replays each at its moment, so a crash made before going back happens in it too.
    pub future: Vec<kafka_sandbox_core::sim::LoggedCommand>,
    /// How many of `future` the fork has applied.
    pub applied: usize,
}

/// Something the page hands to the browser after a change.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outgoing {
    /// The run as a share text, for local storage.
    Autosave(String),
    /// The run as a JSON file to download.
    Download(String),
    /// A share link's text, for the clipboard (the page's address goes before it); the
    /// browser's answer comes back as [`Action::Copied`].
    CopyLink(String),
    /// A text file to download (the bridge's compose.yaml).
    SaveText { name: String, text: String },
    /// A text for the clipboard (a bridge step's lines).
    CopyText(String),
}

/// Where pasted properties go.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PasteTarget {
    Producer(String),
    Member { group: String, client_id: String },
}

/// What Share made of the run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ShareState {
    /// The link's text (`ks1.…`, the page's address goes before it) and whether the browser
    /// took it on the clipboard (`None` until it answers).
    Link { text: String, copied: Option<bool> },
    /// Longer than a link may be ([`kafka_sandbox_core::share::MAX_ENCODED`]): Save file instead.
    TooBig { chars: usize },
}

/// Where a shared run comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SharedFrom {
    /// The page's address (a share link).
    Link,
    /// The browser's storage (autosave).
    Autosave,
    /// A file the learner chose.
    File,
}

impl Model {
    /// The scenario as pretty JSON (cached until the scenario changes).
    pub fn scenario_json(&self) -> Rc<String> {
        self.scenario_json.borrow_mut().get_or_insert_with(|| Rc::new(self.scenario.to_json_pretty())).clone()
    }

    /// Replaces the scenario (and forgets its cached JSON).
    fn set_scenario(&mut self, s: Scenario) {
        self.scenario = s;
        self.scenario_json.borrow_mut().take();
    }

    /// The run as it stands: scenario, commands, step, commands still to come.
    pub fn shared(&self) -> kafka_sandbox_core::share::SharedRun {
        kafka_sandbox_core::share::SharedRun {
            scenario: self.scenario.clone(),
            commands: self.sim.command_log().to_vec(),
            steps: self.sim.steps(),
            to_come: self.redo.clone(),
            timed: self.timed.clone(),
            fork: self.fork.as_ref().map(|f| kafka_sandbox_core::share::SharedFork {
                commands: f.base_commands.clone(),
                steps: f.base_steps,
                at_ms: f.at_ms,
                future: f.future.clone(),
            }),
        }
    }

    /// The text to autosave, when it is time to (something changed, and at most every
    /// `AUTOSAVE_TICKS` ticks while only time moves).
    pub fn take_autosave(&mut self) -> Option<String> {
        if !self.dirty && self.ticks_since_save < AUTOSAVE_TICKS {
            return None;
        }
        self.dirty = false;
        self.ticks_since_save = 0;
        Some(kafka_sandbox_core::share::encode(&self.shared()))
    }
}

// ----- lessons ---------------------------------------------------------------------

/// Starts lesson `id`: its scenario becomes the run (as loading it would), then its first
/// step runs. A lesson that cannot start leaves the current run as it is.
fn start_lesson(m: &mut Model, id: &str) {
    let lang = m.lang;
    let started =
        m.catalog.as_ref().and_then(|c| c.iter().find(|(_, l)| l.id == id).map(|(_, l)| l.clone())).ok_or(None).and_then(|lesson| {
            let scenario = lesson.scenario().map_err(Some)?;
            let run = kafka_sandbox_core::lesson::LessonRun::new(&lesson).map_err(Some)?;
            Ok((scenario, run))
        });
    match started {
        Ok((scenario, run)) => {
            m.new_run(run.sim().clone());
            m.set_scenario(scenario);
            m.scenario_key = "custom".into();
            m.playing = false;
            m.show_lessons = false;
            m.notice = None;
            let next = m.catalog.as_ref().and_then(|c| {
                let at = c.iter().position(|(_, l)| l.id == id)?;
                c.get(at + 1).map(|(_, l)| (l.id.clone(), l.title.clone()))
            });
            m.lesson = Some(LessonState { run, report: None, chosen: None, reveal: None, error: None, answered: 0, right: 0, next });
            lesson_next(m);
        }
        Err(e) => {
            let why = match e {
                Some(e) => crate::messages::lesson_refusal(lang, &e),
                None => format!("\"{id}\""),
            };
            m.notice = Some(Notice::Error(format!("{}{why}", i18n::LESSON_ERROR.get(lang))))
        }
    }
}

/// Runs the lesson's next step (not before the current question is answered); the page
/// shows the lesson's run from there.
fn lesson_next(m: &mut Model) {
    let Some(l) = m.lesson.as_mut() else { return };
    if l.awaiting_answer() || l.run.finished() || l.error.is_some() {
        return;
    }
    match l.run.step() {
        Ok(report) => {
            let seen = report.index + 1;
            l.report = Some(report);
            l.chosen = None;
            l.reveal = None;
            let id = l.run.lesson().id.clone();
            let sim = l.run.sim().clone();
            let best = m.lesson_progress.entry(id).or_insert(0);
            *best = (*best).max(seen);
            m.sim = sim;
            m.playing = false;
        }
        Err(e) => l.error = Some(e),
    }
}

/// The learner predicts: the simulation runs on to the answer and says which is right.
fn lesson_answer(m: &mut Model, choice: usize) {
    let Some(l) = m.lesson.as_mut() else { return };
    if !l.awaiting_answer() {
        return;
    }
    match l.run.reveal() {
        Ok(reveal) => {
            l.chosen = Some(choice);
            l.answered += 1;
            l.right += usize::from(reveal.correct() == Some(choice));
            l.reveal = Some(reveal);
            m.sim = l.run.sim().clone();
            m.playing = false;
        }
        Err(e) => l.error = Some(e),
    }
}

/// Lesson progress as remembered: "id:steps,id:steps" (ids are [a-z0-9-]).
pub fn progress_text(p: &kafka_sandbox_core::vecmap::VecMap<String, usize>) -> String {
    p.iter().map(|(id, n)| format!("{id}:{n}")).collect::<Vec<_>>().join(",")
}

/// Reads [`progress_text`]; anything malformed is skipped.
pub fn parse_progress(text: &str) -> kafka_sandbox_core::vecmap::VecMap<String, usize> {
    text.split(',')
        .filter_map(|pair| {
            let (id, n) = pair.split_once(':')?;
            let ok = !id.is_empty() && id.len() <= 64 && id.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-');
            ok.then(|| n.parse().ok().map(|n| (id.to_string(), n))).flatten()
        })
        .take(100)
        .collect()
}

/// While playing, autosave every 40 ticks (2 s); any other change saves at once.
pub const AUTOSAVE_TICKS: u32 = 40;

/// Opens a shared run; on error the current run stays and the notice says why.
fn open_shared(m: &mut Model, text: &str, from: SharedFrom) {
    let lang = m.lang;
    // A file may hold a run (JSON), a scenario (JSON) or a link text.
    let parsed = match from {
        SharedFrom::File => kafka_sandbox_core::share::open_file(text),
        SharedFrom::Link | SharedFrom::Autosave => kafka_sandbox_core::share::open_any(text),
    };
    let rebuilt = parsed.and_then(|run| kafka_sandbox_core::share::rebuild(&run).map(|(sim, to_come)| (run, sim, to_come)));
    match rebuilt {
        Ok((run, sim, to_come)) => {
            let steps = sim.steps();
            let fork = kafka_sandbox_core::share::rebuild_fork(&run, sim.now()).ok().flatten();
            m.new_run(run.scenario.build().unwrap_or_else(|_| sim.clone()));
            m.fork = fork.zip(run.fork.clone()).map(|((fork_sim, applied), f)| Fork {
                at_ms: f.at_ms,
                sim: fork_sim,
                base_commands: f.commands,
                base_steps: f.steps,
                future: f.future,
                applied,
            });
            m.timed = run.timed.clone();
            m.set_scenario(run.scenario);
            m.scenario_key = "custom".into();
            m.sim = sim;
            m.redo = to_come;
            m.reached = steps;
            m.playing = false;
            m.notice = Some(Notice::Info(i18n::opened(lang, from, steps)));
        }
        Err(e) => m.notice = Some(Notice::Error(i18n::open_failed(lang, from, &crate::messages::share_refusal(lang, &e)))),
    }
}

/// The speed the run really keeps while playing, over about the last two seconds of wall
/// time (each tick's weight decays by 0.95): the simulated time the ticks covered against
/// the wall-clock time that passed. A tick covers less than speed × elapsed when a frame
/// came later than [`MAX_CATCH_UP_MS`] or a tick's slice of events ran out.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Pace {
    wall_ms: f64,
    sim_ms: f64,
    rate: f64,
}

/// Wall time the pace must cover before the page says anything (ms).
const PACE_WINDOW_MS: f64 = 1_000.0;

impl Pace {
    fn observe(&mut self, wall_ms: u32, sim_ms: u64, rate: f64) {
        // A tab in the background gets ticks seconds apart: that is not the simulation.
        let wall = f64::from(wall_ms.min(2_000));
        self.wall_ms = self.wall_ms * 0.95 + wall;
        self.sim_ms = self.sim_ms * 0.95 + sim_ms as f64;
        self.rate = rate;
    }

    /// The speed reached, when it is clearly below the speed chosen (under 90 % of it,
    /// over at least a second of play); `None` while it keeps up.
    pub fn falling_behind(&self) -> Option<f64> {
        if self.wall_ms < PACE_WINDOW_MS || self.rate <= 0.0 {
            return None;
        }
        let reached = self.sim_ms / self.wall_ms;
        (reached < 0.9 * self.rate).then_some(reached)
    }
}

/// Checkpoints every 200 steps at first, at most 48 kept (the spacing doubles when full).
fn new_history(sim: &Sim) -> kafka_sandbox_core::history::History {
    kafka_sandbox_core::history::History::new(sim.clone(), 200, 48)
}

/// Most steps one time-travel move may replay (a bound on the work of one click).
const MAX_REPLAY_STEPS: u64 = 2_000_000;

/// Replaces the run by an earlier (or later) state of itself, reached by replay; what
/// was read from the trace is read again.
fn travel(m: &mut Model, stop: impl Fn(&Sim) -> bool) {
    let mut full = m.sim.command_log().to_vec();
    full.extend(m.redo.iter().cloned());
    let sim = m.history.restore(&full, stop, MAX_REPLAY_STEPS);
    m.redo = full.split_off(sim.command_log().len().min(full.len()));
    m.sim = sim;
    m.retries = RetryWatch::default();
    m.groups = GroupWatch::default();
    m.carry_ms = 0.0;
}

/// Runs forward to the moment `until` (at most `max_steps` events), applying the commands
/// still to come after going back, each at its moment; whether it got there.
///
/// It stops on the way at each moment the charts sample (see [`crate::charts`]), so they
/// are the same however the run got there; the last samples' span is all that is kept, so
/// a long way is sampled only at its end.
fn advance_to(m: &mut Model, until: SimTime, max_steps: u64) -> bool {
    m.series.forget_after(m.sim.now().ms());
    let every = m.series.every_ms.max(1);
    // The first sample moment worth taking: the span the charts keep, before `until`.
    let from = until.ms().saturating_sub(m.series.span_ms()).div_ceil(every) * every;
    let mut left = max_steps;
    loop {
        let sample = m.series.next_sample_ms(m.sim.now().ms()).max(from);
        let stop = SimTime(sample.min(until.ms()));
        let before = m.sim.steps();
        let reached = if m.timed.is_empty() {
            let (applied, reached) = kafka_sandbox_core::history::advance_to(&mut m.sim, &m.redo, stop, left);
            m.redo.drain(..applied.min(m.redo.len()));
            reached
        } else {
            advance_timed(m, stop, left)
        };
        left = left.saturating_sub(m.sim.steps() - before);
        if !reached {
            return false;
        }
        if sample <= until.ms() {
            m.series.observe(&m.sim);
        }
        if stop == until {
            return true;
        }
    }
}

/// The furthest moment Run to accepts: one simulated week, as `kafka-sandbox run --until`.
pub const MAX_RUN_TO_MS: u64 = 7 * 24 * 3_600_000;

/// Reads a moment typed as seconds ("12", "12.5", "12.5 s", "12,5"), to the millisecond;
/// `None` when it is not one, or beyond [`MAX_RUN_TO_MS`].
pub fn parse_seconds(text: &str) -> Option<u64> {
    // Full-width digits and stops, as a Chinese input method types them, read as ASCII.
    let t: String = text
        .trim()
        .chars()
        .take(32)
        .map(|c| match c {
            '０'..='９' => char::from(b'0' + (c as u32 - '０' as u32) as u8),
            '．' | '。' | ',' | '，' => '.',
            other => other,
        })
        .collect();
    let t = t.strip_suffix('秒').or_else(|| t.strip_suffix('s')).unwrap_or(&t).trim_end();
    let (whole, frac) = t.split_once('.').unwrap_or((t, ""));
    let digits = |d: &str| d.bytes().all(|b| b.is_ascii_digit());
    if (whole.is_empty() && frac.is_empty()) || !digits(whole) || !digits(frac) || whole.len() > 9 || frac.len() > 3 {
        return None;
    }
    let secs: u64 = if whole.is_empty() { 0 } else { whole.parse().ok()? };
    let milli: u64 = if frac.is_empty() { 0 } else { format!("{frac:0<3}").parse().ok()? };
    let ms = secs.checked_mul(1000)?.checked_add(milli)?;
    (ms <= MAX_RUN_TO_MS).then_some(ms)
}

/// After going back, the commands still to come that the learner gave at this very step
/// count: the first time they came before the next step (and before the step, jump or
/// search that followed them), so they come first again. The moves forward apply them
/// before deciding where to stop, so a Step lands where it landed the first time.
/// Pasted properties into the scenario's producer or member: Kafka's names taken, the
/// rest reported, nothing else changed; the run starts again with the new client (in Kafka
/// a client's settings change only with a new client). A member added during the run is
/// not in the scenario: the notice says so.
fn paste_properties(m: &mut Model, target: PasteTarget, text: &str) {
    use kafka_sandbox_core::bridge::properties;
    let lang = m.lang;
    let mut s = m.scenario.clone();
    let pasted = match &target {
        PasteTarget::Producer(name) => {
            s.producers.iter_mut().find(|p| &p.name == name).map(|p| properties::apply_producer(&mut p.config, text))
        }
        PasteTarget::Member { group, client_id } => s
            .groups
            .iter_mut()
            .find(|g| &g.id == group)
            .and_then(|g| g.members.iter_mut().find(|mm| &mm.client_id == client_id))
            .map(|mm| properties::apply_consumer(&mut mm.config, &mut mm.group_instance_id, text)),
    };
    let Some(pasted) = pasted else {
        m.notice = Some(Notice::Error(i18n::classroom::PASTE_NOT_IN_SCENARIO.get(lang).to_string()));
        return;
    };
    if !pasted.applied.is_empty() {
        match s.check() {
            Ok(()) => {
                m.new_run(build_or_empty(&s));
                m.set_scenario(s);
                m.scenario_key = "custom".into();
            }
            Err(e) => {
                m.notice = Some(Notice::Error(format!("{}{}", i18n::REFUSED.get(lang), crate::messages::scenario_refusal(lang, &e))));
                return;
            }
        }
    }
    let text = crate::messages::pasted(lang, &pasted);
    m.notice = Some(if pasted.refused.iter().any(|r| !matches!(r, properties::Refused::NotModelled { .. })) {
        Notice::Error(text)
    } else {
        Notice::Info(text)
    });
}

/// Two lists of commands still to come as one, in the order of their moments.
fn merge_by_time(
    a: Vec<kafka_sandbox_core::sim::LoggedCommand>,
    b: Vec<kafka_sandbox_core::sim::LoggedCommand>,
) -> Vec<kafka_sandbox_core::sim::LoggedCommand> {
    let mut all = a;
    all.extend(b);
    kafka_sandbox_core::sorted::sort_by_key(&mut all, |c| c.at);
    all
}

/// The run's by-moment future ([`Model::timed`]) due by `until`, applied; the run goes
/// there. Whether it got there within `max_steps`.
fn advance_timed(m: &mut Model, until: SimTime, max_steps: u64) -> bool {
    let (applied, reached) = kafka_sandbox_core::history::advance_to_by_time(&mut m.sim, &m.timed, until, max_steps);
    m.timed.drain(..applied.min(m.timed.len()));
    reached
}

fn apply_due_commands(m: &mut Model) {
    let steps = m.sim.steps();
    let due = m.redo.iter().take_while(|e| e.after_steps <= steps).count();
    for entry in m.redo.drain(..due) {
        m.sim.apply_logged(&entry);
    }
}

/// Runs forward until `stop`, applying the commands still to come after going back.
///
/// The commands due at the current step count go in first ([`apply_due_commands`]), then
/// `stop_from` makes the stop from the state it starts at (a Step stops at the first event
/// after that state's last one); returns whether the stop holds at the end.
fn forward<S: Fn(&Sim) -> bool>(m: &mut Model, stop_from: impl FnOnce(&Sim) -> S, max_steps: u64) -> bool {
    apply_due_commands(m);
    let stop = stop_from(&m.sim);
    let applied = kafka_sandbox_core::history::advance(&mut m.sim, &m.redo, &stop, max_steps);
    m.redo.drain(..applied.min(m.redo.len()));
    stop(&m.sim)
}

fn build_or_empty(s: &Scenario) -> Sim {
    // Built-in and loaded scenarios are checked before they get here.
    s.build().unwrap_or_else(|_| Sim::new(s.seed, s.cluster.clone()))
}

/// Shared handle to the model; `version` makes every change a new value for Yew.
#[derive(Clone)]
pub struct AppState {
    pub model: Rc<RefCell<Model>>,
    pub version: u64,
}

impl PartialEq for AppState {
    fn eq(&self, other: &Self) -> bool {
        self.version == other.version && Rc::ptr_eq(&self.model, &other.model)
    }
}

impl AppState {
    pub fn new(lang: Lang) -> Self {
        Self { model: Rc::new(RefCell::new(Model::new(lang))), version: 0 }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub enum Action {
    /// A command to the cluster from a control of the page (a button, a select): applied
    /// now, a refusal shown in the reader's language. A new feature's command needs no
    /// action of its own.
    Apply(Command),
    /// The animation timer, [`TICK_MS`] after the last tick.
    Tick,
    /// The animation timer, this many wall-clock ms after the last tick: when the view
    /// cannot keep up (a long frame delays the timer) the simulation still moves by the
    /// time that really passed, up to [`MAX_CATCH_UP_MS`].
    TickAfter(u32),
    TogglePlay,
    Step,
    Reset,
    SetSpeed(usize),
    ToggleLang,
    LoadBuiltIn(String),
    LoadJson(String),
    Produce {
        producer: String,
        topic: String,
        key: Option<String>,
        value: String,
        partition: Option<u32>,
    },
    AddMember {
        group: String,
    },
    /// A static member: `group.instance.id` = its client id (KIP-345).
    AddStaticMember {
        group: String,
    },
    /// `seek()` on every partition the member is assigned.
    Seek {
        group: String,
        client_id: String,
        to: kafka_sandbox_core::command::SeekTo,
    },
    /// Pause and step until the group's protocol shows its next event.
    StepGroup {
        group: String,
    },
    /// `protocol` None: classic with `assignor`; Some: KIP-848 with that broker assignor.
    AddGroup {
        id: String,
        reset: OffsetReset,
        assignor: Strategy,
        protocol: Option<kafka_sandbox_core::config::ServerAssignor>,
    },
    /// Fixed at topic creation in Kafka: the scenario is rebuilt with the new value and
    /// runs again from the start.
    SetReplicationFactor {
        topic: String,
        replication_factor: u32,
    },
    Dismiss,
    /// Fork the run here (or drop the fork).
    Fork,
    CloseFork,
    /// Whether this run keeps replaying the recorded future after a change (false:
    /// diverge from the fork).
    KeepFuture(bool),
    /// The sequence diagram opens or closes.
    ShowSequence(bool),
    /// A `__consumer_offsets` partition's view opens (issue 19), or closes (`None`).
    ShowOffsets(Option<u32>),
    /// The theme button: system → light → dark → system.
    CycleTheme,
    /// The theme remembered from an earlier visit.
    SetTheme(Option<&'static str>),
    /// The reduced-motion button.
    ToggleMotion,
    /// Open or close the list of lessons.
    ToggleLessons,
    /// The built-in lessons' files arrived: (file name, its text or why it could not be
    /// fetched).
    LessonsFetched(Vec<(String, Result<String, String>)>),
    /// Start a built-in lesson from its beginning.
    StartLesson(String),
    /// Run the lesson's next step.
    LessonNext,
    /// The learner's prediction: a choice of the current question.
    LessonAnswer(usize),
    /// Leave the lesson (the run stays, to play with).
    CloseLesson,
    /// Fold or unfold the lesson drawer (narrow screens).
    ToggleLessonDrawer,
    /// Open or close the glossary.
    ToggleGlossary,
    /// Open or close "Try it on real Kafka" (the bridge of the scenario).
    ToggleBridge,
    /// A client's properties pasted into a producer or a member: Kafka's names taken into
    /// the scenario's client (a new client, as in Kafka: the run starts again).
    PasteProperties {
        target: PasteTarget,
        text: String,
    },
    /// Hand a text to the browser: a file to save, or the clipboard.
    SaveText {
        name: String,
        text: String,
    },
    CopyText(String),
    /// Presentation mode on or off (`Some`: set it, from the address).
    SetPresent(Option<bool>),
    /// → or Page Down during a lesson: its next step (none while a question waits for the
    /// learner's prediction); the next event without a lesson.
    Advance,
    /// A key pressed on the page (not in a field): [`KEYS`] and 1–9; the reducer decides
    /// what it does ([`key_action`]).
    Key(String),
    /// Lesson progress remembered from an earlier visit ("id:steps" pairs).
    SetLessonProgress(String),
    /// Reduced motion remembered from an earlier visit.
    SetMotion(bool),
    /// `?`: show or hide the keyboard help.
    ToggleKeys,
    /// Escape: close what is open (the keyboard help, a record's path, the notice).
    Escape,
    /// Nothing (a key that does not concern the control).
    Noop,
    /// Show (or close) one record's path.
    ShowRecord(Option<kafka_sandbox_core::record::RecordId>),
    /// The event log's filter changes.
    SetEventFilter {
        category: crate::view::EventCategory,
        entity: String,
    },
    /// Move the view to just after this event (by replay) and highlight who it involves.
    SelectEvent(u64),
    /// Open a run from a link, the autosave or a file.
    OpenShared {
        text: String,
        from: SharedFrom,
    },
    /// Make a share link for the run as it stands.
    Share,
    /// The clipboard took the share link (or refused it).
    Copied(bool),
    /// Save the run as a file.
    SaveFile,
    /// ⟲: back to the previous point the learner saw (replayed from a checkpoint).
    StepBack,
    /// The scrubber: to this step count of the run.
    GoTo(u64),
    /// To the next (or previous) rebalance, fault or monitor finding.
    Jump {
        forward: bool,
        kind: timeline::JumpKind,
    },
    /// Run to the simulated moment typed (seconds, forward or back), then pause. The
    /// text is read here, so a wrong one gets the page's message.
    RunTo(String),
    /// Run the scenario under eager, cooperative and KIP-848 with the same change to
    /// `group` at the current simulated time, and show the three side by side.
    Compare {
        group: String,
        change: kafka_sandbox_core::compare::Change,
    },
    CloseComparison,
    /// The page handed the browser the first this many entries of [`Model::outbox`].
    Delivered(usize),
}

impl Reducible for AppState {
    type Action = Action;

    fn reduce(self: Rc<Self>, action: Action) -> Rc<Self> {
        let Ok(mut m) = self.model.try_borrow_mut() else { return self };
        let changed = reduce_model(&mut m, action);
        if changed {
            // Autosave after changes (at most every `AUTOSAVE_TICKS` ticks while only time
            // moves); the effect that follows the new version hands it over.
            if let Some(text) = m.take_autosave() {
                m.outbox.push(Outgoing::Autosave(text));
            }
        }
        drop(m);
        if changed {
            Rc::new(AppState { model: self.model.clone(), version: self.version.wrapping_add(1) })
        } else {
            self
        }
    }
}

/// Applies one action, then reads what it caused from the trace; returns whether
/// anything visible changed.
pub fn reduce_model(m: &mut Model, action: Action) -> bool {
    if let Action::Delivered(n) = action {
        // Nothing visible changes, and it is not a change worth autosaving.
        let n = n.min(m.outbox.len());
        m.outbox.drain(..n);
        return false;
    }
    let action = match action {
        Action::Key(key) => key_action(m, &key),
        Action::TickAfter(ms) => {
            m.tick_ms = ms.clamp(1, MAX_CATCH_UP_MS);
            m.wall_ms = ms;
            Action::Tick
        }
        Action::Tick => {
            m.tick_ms = TICK_MS;
            m.wall_ms = TICK_MS;
            Action::Tick
        }
        other => other,
    };
    let tick = matches!(action, Action::Tick);
    let moves_time = matches!(
        action,
        Action::Tick
            | Action::Step
            | Action::StepBack
            | Action::GoTo(_)
            | Action::Jump { .. }
            | Action::SelectEvent(_)
            | Action::LessonNext
            | Action::Advance
            | Action::LessonAnswer(_)
            | Action::RunTo(_)
            | Action::StepGroup { .. }
    );
    if !matches!(action, Action::SelectEvent(_) | Action::SetEventFilter { .. }) && moves_time {
        m.selected = None;
    }
    if moves_time && !matches!(action, Action::Tick | Action::RunTo(_)) {
        // Another move in time ends a run to a moment.
        m.run_to = None;
    }
    let stepping = matches!(
        action,
        Action::Tick | Action::Step | Action::Advance | Action::Jump { forward: true, .. } | Action::RunTo(_) | Action::StepGroup { .. }
    );
    let logged = m.sim.command_log().len();
    let changed = apply_action(m, action);
    if m.sim.command_log().len() > logged {
        // The learner did something: a run to a moment stops here.
        m.run_to = None;
    }
    if !moves_time && m.sim.command_log().len() > logged && !m.redo.is_empty() {
        // Something new after going back: this is a new branch. With a fork open the
        // recorded future goes on in it by moment (the same crash under another setting),
        // unless the learner chose to diverge; without one it is gone.
        let future = std::mem::take(&mut m.redo);
        if m.fork.is_some() && m.keep_future {
            m.timed = merge_by_time(std::mem::take(&mut m.timed), future);
        }
        m.history.truncate(m.sim.steps());
    }
    if stepping {
        m.history.observe(&m.sim);
    }
    // The ⟲ points: where the learner looked, not each slice of a run to a moment.
    if moves_time && m.run_to.is_none() && m.marks.last() != Some(&m.sim.steps()) {
        if m.marks.len() >= MAX_MARKS {
            m.marks.drain(..MAX_MARKS / 2);
        }
        m.marks.push(m.sim.steps());
    }
    m.reached = m.reached.max(m.sim.steps());
    m.series.observe(&m.sim);
    // The fork keeps pace with the run (it never runs ahead, nor back), replaying its
    // recorded future by moment.
    if let Some(f) = m.fork.as_mut() {
        if f.sim.now() < m.sim.now() {
            let rest = &f.future[f.applied.min(f.future.len())..];
            let (applied, _) =
                kafka_sandbox_core::history::advance_to_by_time(&mut f.sim, rest, m.sim.now(), MAX_STEPS_PER_TICK.saturating_mul(4));
            f.applied += applied;
        }
    }
    if tick {
        m.ticks_since_save = m.ticks_since_save.saturating_add(1);
    } else {
        m.dirty = true;
    }
    m.retries.ingest(&m.sim);
    m.groups.ingest(&m.sim);
    changed
}

/// The keys the page answers (besides 1–9, which answer a lesson's question).
pub const KEYS: &[&str] = &[" ", "ArrowRight", "ArrowLeft", "PageDown", "PageUp", "?", "Escape"];

/// What a key does: Space plays or pauses; → and Page Down (a presenter's clicker) go to
/// the lesson's next step, or the next event without a lesson; ← and Page Up go back; 1–9
/// answer the lesson's question; ? shows the keys; Esc closes what is open.
pub fn key_action(m: &Model, key: &str) -> Action {
    let lesson = m.lesson.is_some();
    match key {
        " " => Action::TogglePlay,
        "ArrowRight" | "PageDown" if lesson => Action::Advance,
        "ArrowRight" | "PageDown" => Action::Step,
        "ArrowLeft" | "PageUp" => Action::StepBack,
        "?" => Action::ToggleKeys,
        "Escape" => Action::Escape,
        digit => match digit.parse::<usize>() {
            Ok(n @ 1..=9) if lesson => Action::LessonAnswer(n - 1),
            _ => Action::Noop,
        },
    }
}

/// Points kept for ⟲ (older ones are dropped; the scrubber still reaches them).
const MAX_MARKS: usize = 10_000;

fn apply_action(m: &mut Model, action: Action) -> bool {
    let lang = m.lang;
    match action {
        // reduce_model turns TickAfter into Tick (with its duration) before this.
        Action::Tick | Action::TickAfter(_) => {
            if let Some(target) = m.run_to {
                // Running to a moment: a slice of the way per tick, whatever the speed.
                if advance_to(m, target, MAX_STEPS_PER_TICK) {
                    m.run_to = None;
                }
                return true;
            }
            if !m.playing {
                return false;
            }
            let (rate, _) = SPEEDS.get(m.speed).copied().unwrap_or((1.0, ""));
            m.carry_ms += rate * f64::from(m.tick_ms);
            let whole = m.carry_ms.floor();
            m.carry_ms -= whole;
            let until = m.sim.now().plus_ms(whole as u64);
            let before = m.sim.now();
            // After going back: the same future, commands included, each at its moment.
            let arrived = advance_to(m, until, MAX_STEPS_PER_TICK);
            // Simulated time a tick did not reach (a slice of events too small) is dropped,
            // as is time past MAX_CATCH_UP_MS: both show in the pace.
            let moved = m.sim.now().ms().saturating_sub(before.ms());
            m.pace.observe(m.wall_ms, if arrived { moved.max(whole as u64) } else { moved }, rate);
            true
        }
        Action::TogglePlay => {
            m.pace = Pace::default();
            if m.run_to.take().is_some() {
                // Pause stops a run to a moment where it is.
                m.playing = false;
            } else {
                m.playing = !m.playing;
            }
            true
        }
        Action::RunTo(text) => {
            m.playing = false;
            let Some(ms) = parse_seconds(&text) else {
                m.run_to = None;
                m.notice = Some(Notice::Error(i18n::run_to_invalid(lang, &text, MAX_RUN_TO_MS)));
                return true;
            };
            let target = SimTime(ms);
            if target < m.sim.now() {
                // Back: the latest state with nothing else due by then, replayed.
                travel(m, move |s| s.next_event_time().is_none_or(|t| t > target));
            }
            m.notice = None;
            m.run_to = Some(target);
            // The first slice now: a short way is done in this one action.
            if advance_to(m, target, MAX_STEPS_PER_TICK) {
                m.run_to = None;
            }
            true
        }
        Action::Step => {
            m.playing = false;
            let timed_first = m.timed.first().map(|c| c.at).filter(|at| m.sim.next_event_time().is_none_or(|t| t > *at));
            if let Some(at) = timed_first {
                // The recorded future's next command comes before the next event.
                advance_timed(m, at, 0);
            } else if m.redo.is_empty() {
                m.sim.step_visible();
            } else {
                forward(
                    m,
                    |s| {
                        let total = s.trace().total();
                        move |x: &Sim| x.trace().total() > total
                    },
                    1_000_000,
                );
            }
            true
        }
        Action::StepBack => {
            m.playing = false;
            let now = m.sim.steps();
            while m.marks.last().is_some_and(|s| *s >= now) {
                m.marks.pop();
            }
            let target = m.marks.pop().unwrap_or(0);
            if target == now {
                return false;
            }
            travel(m, |s| s.steps() >= target);
            true
        }
        Action::GoTo(step) => {
            m.playing = false;
            let target = step.min(m.reached.max(m.sim.steps()));
            travel(m, |s| s.steps() >= target);
            m.marks.retain(|s| *s < target);
            true
        }
        Action::Jump { forward: ahead, kind } => {
            m.playing = false;
            if ahead {
                let hit_from = |s: &Sim| {
                    let (seq, findings) = (s.trace().total(), s.monitors().total());
                    move |x: &Sim| {
                        if kind == timeline::JumpKind::Finding {
                            x.monitors().total() > findings
                        } else {
                            x.events_since(seq).any(|e| timeline::jump_kind(&e.kind) == Some(kind))
                        }
                    }
                };
                if !forward(m, hit_from, 2_000_000) {
                    m.notice = Some(Notice::Info(i18n::jump_none(m.lang, kind, true)));
                }
            } else {
                // The newest such event before the current step's own events.
                let seq = m.sim.trace().total();
                let target = if kind == timeline::JumpKind::Finding {
                    m.sim.monitors().findings().iter().rev().map(|f| f.seq).find(|f| f + 1 < seq)
                } else {
                    m.sim.trace().events().rev().find(|e| e.seq + 1 < seq && timeline::jump_kind(&e.kind) == Some(kind)).map(|e| e.seq)
                };
                match target {
                    Some(t) => travel(m, |s| s.trace().total() > t),
                    None => m.notice = Some(Notice::Info(i18n::jump_none(m.lang, kind, false))),
                }
            }
            true
        }
        Action::Reset => {
            let sim = build_or_empty(&m.scenario);
            m.new_run(sim);
            m.notice = None;
            true
        }
        Action::SetSpeed(i) => {
            if i < SPEEDS.len() {
                m.speed = i;
                m.pace = Pace::default();
            }
            true
        }
        Action::ToggleLang => {
            m.lang = m.lang.other();
            // An information notice was written in the old language: it goes (an error
            // stays until dismissed, so nothing the learner must read is lost).
            if matches!(m.notice, Some(Notice::Info(_))) {
                m.notice = None;
            }
            true
        }
        Action::LoadBuiltIn(key) => {
            match scenario::built_in(&key) {
                Some(Ok(s)) => {
                    m.new_run(build_or_empty(&s));
                    m.set_scenario(s);
                    m.scenario_key = key;
                    m.notice = None;
                }
                Some(Err(e)) => {
                    m.notice =
                        Some(Notice::Error(format!("{}{}", i18n::INVALID_SCENARIO.get(lang), crate::messages::scenario_refusal(lang, &e))))
                }
                None => m.notice = Some(Notice::Error(format!("{}{key}", i18n::INVALID_SCENARIO.get(lang)))),
            }
            true
        }
        Action::LoadJson(text) => {
            match Scenario::from_json(&text) {
                Ok(s) => {
                    m.new_run(build_or_empty(&s));
                    m.set_scenario(s);
                    m.scenario_key = "custom".into();
                    m.notice = Some(Notice::Info(i18n::LOADED.get(lang).into()));
                    m.json_error = None;
                }
                Err(e) => {
                    let why = crate::messages::scenario_refusal(lang, &e);
                    m.notice = Some(Notice::Error(format!("{}{why}", i18n::INVALID_SCENARIO.get(lang))));
                    m.json_error = Some(why);
                }
            }
            true
        }
        Action::Produce { producer, topic, key, value, partition } => {
            let before = m.sim.trace().total();
            let command = Command::Produce(ProduceCommand::Produce {
                producer,
                topic: topic.clone(),
                key,
                value: Some(value),
                partition,
                headers: vec![],
            });
            match m.sim.apply(command) {
                Ok(()) => {
                    let partitions = m.sim.topic(&topic).map(|t| t.partition_count());
                    m.last_produce = m.sim.events_since(before).find_map(|e| match &e.kind {
                        kafka_sandbox_core::EventKind::Produce(ProduceEvent::RecordSent { value, key, partition, reason, .. }) => {
                            Some(format!("{value}: {}", i18n::reason(lang, reason, key.as_deref(), *partition, partitions)))
                        }
                        _ => None,
                    });
                    m.notice = None;
                }
                Err(e) => m.notice = Some(Notice::Error(format!("{}{}", i18n::REFUSED.get(lang), crate::messages::refusal(lang, &e)))),
            }
            true
        }
        Action::AddMember { group } => {
            let Some(g) = m.sim.group(&group) else { return false };
            let client_id = next_client_id(g.members().map(|m| m.client_id()));
            let result = m.sim.apply(GroupCommand::AddMember { group, member: MemberSpec::new(client_id) });
            report(m, result)
        }
        Action::AddStaticMember { group } => {
            let Some(g) = m.sim.group(&group) else { return false };
            let client_id = next_client_id(g.members().map(|m| m.client_id()));
            let mut spec = MemberSpec::new(client_id.clone());
            spec.group_instance_id = Some(format!("{client_id}-instance"));
            let result = m.sim.apply(GroupCommand::AddMember { group, member: spec });
            report(m, result)
        }
        Action::Seek { group, client_id, to } => {
            let topics: Vec<String> = m
                .sim
                .group(&group)
                .and_then(|g| g.member(&client_id))
                .map(|mm| {
                    let mut t: Vec<String> = mm.assigned().iter().map(|tp| tp.topic.to_string()).collect();
                    t.dedup();
                    t
                })
                .unwrap_or_default();
            if topics.is_empty() {
                let e = kafka_sandbox_core::CommandError::NothingToSeek { client_id: client_id.clone() };
                return report(m, Err(e));
            }
            let mut result = Ok(());
            for topic in topics {
                result = result.and(m.sim.apply(GroupCommand::Seek {
                    group: group.clone(),
                    client_id: client_id.clone(),
                    topic,
                    partition: None,
                    to: to.clone(),
                }));
            }
            report(m, result)
        }
        Action::Apply(command) => {
            let result = m.sim.apply(command);
            report(m, result)
        }
        Action::StepGroup { group } => {
            m.playing = false;
            if m.sim.group(&group).is_none() {
                let e = kafka_sandbox_core::CommandError::UnknownGroup(group);
                m.notice = Some(Notice::Error(format!("{}{}", i18n::REFUSED.get(lang), crate::messages::refusal(lang, &e))));
                return true;
            }
            m.notice =
                if step_to_group_event(m, &group) { None } else { Some(Notice::Info(i18n::quiet_group(lang, &group, MAX_GROUP_STEP_MS))) };
            true
        }
        Action::AddGroup { id, reset, assignor, protocol } => {
            let topics: Vec<String> = m.sim.topics().map(|t| t.name().to_string()).collect();
            let config = GroupConfig {
                assignor,
                auto_offset_reset: reset,
                group_protocol: if protocol.is_some() {
                    kafka_sandbox_core::config::GroupProtocol::Consumer
                } else {
                    kafka_sandbox_core::config::GroupProtocol::Classic
                },
                remote_assignor: protocol.unwrap_or_default(),
                ..GroupConfig::default()
            };
            let spec = GroupSpec::new(id.trim(), topics).with_config(config).with_members([MemberSpec::new("Consumer1")]);
            let result = m.sim.apply(GroupCommand::AddGroup { group: spec });
            report(m, result)
        }
        Action::SetReplicationFactor { topic, replication_factor } => {
            let mut s = m.scenario.clone();
            let Some(t) = s.topics.iter_mut().find(|t| t.name == topic) else {
                m.notice = Some(Notice::Error(format!(
                    "{}{}",
                    i18n::REFUSED.get(lang),
                    crate::messages::refusal(lang, &kafka_sandbox_core::CommandError::UnknownTopic(topic))
                )));
                return true;
            };
            t.replication_factor = replication_factor;
            // min.insync.replicas may not exceed the replication factor.
            t.min_insync_replicas = t.min_insync_replicas.clamp(1, replication_factor.max(1));
            match s.check() {
                Ok(()) => {
                    m.new_run(build_or_empty(&s));
                    m.set_scenario(s);
                    m.scenario_key = "custom".into();
                    m.notice = Some(Notice::Info(i18n::rf_changed(lang, &topic, replication_factor)));
                }
                Err(e) => {
                    m.notice = Some(Notice::Error(format!("{}{}", i18n::REFUSED.get(lang), crate::messages::scenario_refusal(lang, &e))))
                }
            }
            true
        }
        Action::Dismiss => {
            m.notice = None;
            m.json_error = None;
            true
        }
        Action::OpenShared { text, from } => {
            open_shared(m, &text, from);
            true
        }
        Action::SetEventFilter { category, entity } => {
            m.event_filter = (category, entity.chars().take(64).collect());
            true
        }
        Action::SelectEvent(seq) => {
            m.playing = false;
            if seq < m.sim.trace().total() {
                travel(m, |s| s.trace().total() > seq);
            } else {
                forward(m, |_| move |s: &Sim| s.trace().total() > seq, 2_000_000);
            }
            m.selected = Some(seq);
            true
        }
        // reduce_model turns a key into its action before this.
        Action::Noop | Action::Delivered(_) | Action::Key(_) => false,
        Action::Fork => {
            // The fork replays what this run still has to come (after going back), by moment.
            let future = merge_by_time(m.redo.clone(), m.timed.clone());
            m.fork = Some(Fork {
                at_ms: m.sim.now().ms(),
                sim: m.sim.clone(),
                base_commands: m.sim.command_log().to_vec(),
                base_steps: m.sim.steps(),
                future,
                applied: 0,
            });
            m.notice = Some(Notice::Info(i18n::forked(lang, m.sim.now().ms())));
            true
        }
        Action::CloseFork => {
            m.fork = None;
            true
        }
        Action::KeepFuture(keep) => {
            m.keep_future = keep;
            if !keep {
                // Diverge: this run no longer replays the recorded future (the fork does).
                m.timed.clear();
            }
            true
        }
        Action::ShowSequence(open) => {
            m.show_sequence = open;
            true
        }
        Action::ShowOffsets(partition) => {
            m.offsets_partition = partition;
            true
        }
        Action::CycleTheme => {
            m.theme = match m.theme {
                None => Some("light"),
                Some("light") => Some("dark"),
                _ => None,
            };
            true
        }
        Action::SetTheme(t) => {
            m.theme = t;
            true
        }
        Action::ToggleMotion => {
            m.less_motion = !m.less_motion;
            true
        }
        Action::ToggleLessons => {
            m.show_lessons = !m.show_lessons;
            true
        }
        Action::LessonsFetched(files) => {
            let mut lessons = Vec::new();
            let mut problems = Vec::new();
            for (file, text) in files {
                let read = text
                    .and_then(|t| kafka_sandbox_core::lesson::Lesson::from_json(&t).map_err(|e| crate::messages::lesson_refusal(lang, &e)));
                match read {
                    Ok(l) => lessons.push((kafka_sandbox_core::lesson::lesson_number(&file), l)),
                    Err(e) => problems.push(format!("{file}: {e}")),
                }
            }
            if !problems.is_empty() {
                m.notice = Some(Notice::Error(format!("{}{}", i18n::LESSON_ERROR.get(lang), problems.join("; "))));
            }
            m.catalog = Some(Rc::new(lessons));
            true
        }
        Action::StartLesson(id) => {
            start_lesson(m, &id);
            true
        }
        Action::LessonNext => {
            lesson_next(m);
            true
        }
        Action::LessonAnswer(choice) => {
            lesson_answer(m, choice);
            true
        }
        Action::CloseLesson => {
            m.lesson = None;
            true
        }
        Action::ToggleLessonDrawer => {
            m.lesson_collapsed = !m.lesson_collapsed;
            true
        }
        Action::ToggleGlossary => {
            m.show_glossary = !m.show_glossary;
            true
        }
        Action::ToggleBridge => {
            m.bridge = match m.bridge {
                Some(_) => None,
                None => {
                    Some(Rc::new(kafka_sandbox_core::bridge::bridge(&m.scenario).map_err(|e| crate::messages::scenario_refusal(lang, &e))))
                }
            };
            true
        }
        Action::SaveText { name, text } => {
            m.outbox.push(Outgoing::SaveText { name, text });
            true
        }
        Action::CopyText(text) => {
            m.outbox.push(Outgoing::CopyText(text));
            true
        }
        Action::PasteProperties { target, text } => {
            paste_properties(m, target, &text);
            true
        }
        Action::SetPresent(on) => {
            m.present = on.unwrap_or(!m.present);
            true
        }
        Action::Advance => {
            // A lesson waiting for a prediction stays (the keys 1-9 answer); a lesson goes
            // to its next step; without one the simulation takes its next step.
            match m.lesson.as_ref() {
                Some(l) if l.awaiting_answer() || l.free_play() => false,
                Some(_) => apply_action(m, Action::LessonNext),
                None => apply_action(m, Action::Step),
            }
        }
        Action::SetLessonProgress(text) => {
            m.lesson_progress = parse_progress(&text);
            true
        }
        Action::SetMotion(on) => {
            m.less_motion = on;
            true
        }
        Action::ToggleKeys => {
            m.show_keys = !m.show_keys;
            true
        }
        Action::Escape => {
            m.show_keys = false;
            m.show_glossary = false;
            m.record_path = None;
            m.notice = None;
            true
        }
        Action::ShowRecord(r) => {
            m.record_path = r;
            true
        }
        Action::SaveFile => {
            m.outbox.push(Outgoing::Download(kafka_sandbox_core::share::to_json_pretty(&m.shared())));
            true
        }
        Action::Share => {
            match kafka_sandbox_core::share::link(&m.shared()) {
                Ok(text) => {
                    m.outbox.push(Outgoing::CopyLink(text.clone()));
                    m.share = Some(ShareState::Link { text, copied: None });
                }
                Err(e) => {
                    let chars = match e {
                        kafka_sandbox_core::share::ShareError::TooBigForLink { chars } => chars,
                        _ => 0,
                    };
                    m.notice = Some(Notice::Error(crate::messages::share_refusal(lang, &e)));
                    m.share = Some(ShareState::TooBig { chars });
                }
            }
            true
        }
        Action::Copied(ok) => {
            if let Some(ShareState::Link { copied, .. }) = m.share.as_mut() {
                *copied = Some(ok);
            }
            let words = if ok { i18n::classroom::LINK_COPIED } else { i18n::classroom::LINK_NOT_COPIED };
            m.notice = Some(Notice::Info(words.get(lang).to_string()));
            true
        }
        Action::Compare { group, change } => {
            // From now (at least 15 s in, so the group has formed), over 45 s.
            let at = SimTime(m.sim.now().ms().max(15_000));
            let result = kafka_sandbox_core::compare::compare_protocols(&m.scenario, &group, &change, at, 45_000);
            m.comparison = Some(result.map(Rc::new));
            true
        }
        Action::CloseComparison => {
            m.comparison = None;
            true
        }
    }
}

fn report(m: &mut Model, result: Result<(), kafka_sandbox_core::CommandError>) -> bool {
    match result {
        Ok(()) => m.notice = None,
        Err(e) => m.notice = Some(Notice::Error(format!("{}{}", i18n::REFUSED.get(m.lang), crate::messages::refusal(m.lang, &e)))),
    }
    true
}

/// Most steps one "next group event" click may take, and how far in simulated time it
/// looks (beyond the default session timeout of 45 s, so a crash is seen through).
const MAX_GROUP_STEPS: u32 = 50_000;
pub const MAX_GROUP_STEP_MS: u64 = 120_000;

/// Steps until an event belongs to `group`'s protocol story; returns whether one did.
/// Bounded: a group with nothing going on must not freeze the page.
fn step_to_group_event(m: &mut Model, group: &str) -> bool {
    let seen = |s: &Sim, from: u64| s.events_since(from).any(|e| timeline::protocol_group(&e.kind, false) == Some(group));
    let mut from = 0;
    // After going back, the commands still to come are applied on the way (forward).
    forward(
        m,
        |s| {
            from = s.trace().total();
            let (from, until) = (from, s.now().plus_ms(MAX_GROUP_STEP_MS));
            move |x: &Sim| seen(x, from) || x.now() > until
        },
        u64::from(MAX_GROUP_STEPS),
    );
    seen(&m.sim, from)
}

/// The first "ConsumerN" not taken yet.
pub fn next_client_id<'a>(taken: impl Iterator<Item = &'a str> + Clone) -> String {
    (1..).map(|n| format!("Consumer{n}")).find(|c| !taken.clone().any(|t| t == c)).unwrap_or_else(|| "Consumer".into())
}

/// The next value in the m1, m2, … series for the produce form.
pub fn next_value(sim: &Sim) -> String {
    let n = sim.read().sent_total() + 1;
    format!("m{n}")
}

/// How far a message on the wire has travelled, 0.0 to 1.0.
pub fn progress(now: SimTime, sent: SimTime, arrives: SimTime) -> f64 {
    let span = arrives.ms().saturating_sub(sent.ms());
    if span == 0 {
        return 1.0;
    }
    (now.ms().saturating_sub(sent.ms()) as f64 / span as f64).clamp(0.0, 1.0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use kafka_sandbox_core::command::{BrokerCommand, TopicCommand};
    use kafka_sandbox_core::config::{Acks, CommitMode};

    #[test]
    fn ticks_advance_time_at_the_chosen_speed_and_pause_stops_them() {
        let mut m = Model::new(Lang::En);
        for _ in 0..20 {
            reduce_model(&mut m, Action::Tick);
        }
        assert_eq!(m.sim.now(), SimTime(1000));
        reduce_model(&mut m, Action::TogglePlay);
        reduce_model(&mut m, Action::Tick);
        assert_eq!(m.sim.now(), SimTime(1000));
    }

    /// Frames that come late (a device too slow for 20×) lose simulated time past
    /// MAX_CATCH_UP_MS: the page then says the speed it reaches, and says nothing while it
    /// keeps up; a new speed or Play starts the measure again.
    #[test]
    fn the_page_says_the_speed_reached_when_it_cannot_keep_the_chosen_one() {
        let mut m = Model::new(Lang::En);
        m.speed = SPEEDS.iter().position(|(r, _)| *r == 20.0).unwrap();
        for _ in 0..40 {
            reduce_model(&mut m, Action::TickAfter(TICK_MS));
        }
        assert_eq!(m.pace.falling_behind(), None, "on time, nothing to say");
        // Frames 500 ms apart: each tick covers 250 ms × 20 = 5 s of the 10 s that passed.
        for _ in 0..40 {
            reduce_model(&mut m, Action::TickAfter(500));
        }
        let reached = m.pace.falling_behind().expect("behind");
        assert!((9.0..11.0).contains(&reached), "about 10×, not {reached}");
        assert_eq!(crate::i18n::speed_reached(Lang::En, reached), "reaching 10×");
        let same = m.speed;
        reduce_model(&mut m, Action::SetSpeed(same));
        assert_eq!(m.pace.falling_behind(), None);
    }

    #[test]
    fn a_lesson_runs_step_by_step_waits_for_predictions_and_remembers_progress() {
        let mut m = Model::new(Lang::En);
        // As the page gets them: the files' texts.
        let files = kafka_sandbox_core::lesson::BUILT_IN.iter().map(|(f, t)| (f.to_string(), Ok(t.to_string()))).collect();
        reduce_model(&mut m, Action::LessonsFetched(files));
        assert_eq!(m.catalog.as_ref().map(|c| c.len()), Some(kafka_sandbox_core::lesson::LESSON_FILES.len()));
        assert!(m.notice.is_none());
        let lessons = kafka_sandbox_core::lesson::built_in_lessons();
        let Some(Ok(lesson)) = lessons.into_iter().find(|l| l.as_ref().is_ok_and(|l| l.steps.iter().any(|s| s.question.is_some()))) else {
            panic!("a built-in lesson with a question")
        };
        reduce_model(&mut m, Action::StartLesson(lesson.id.clone()));
        assert!(m.notice.is_none(), "{:?}", m.notice);
        assert_eq!(m.lesson.as_ref().and_then(|l| l.report.as_ref()).map(|r| r.index), Some(0));
        let mut answered = 0;
        for _ in 0..200 {
            let l = m.lesson.as_ref().expect("in the lesson");
            assert!(l.error.is_none(), "{:?}", l.error);
            // The page shows the lesson's own run.
            assert_eq!(m.sim.trace().digest(), l.run.sim().trace().digest());
            if l.free_play() {
                break;
            }
            if l.awaiting_answer() {
                // Next does nothing until the learner predicts.
                let at = l.report.as_ref().map(|r| r.index);
                reduce_model(&mut m, Action::LessonNext);
                assert_eq!(m.lesson.as_ref().and_then(|l| l.report.as_ref()).map(|r| r.index), at);
                reduce_model(&mut m, Action::LessonAnswer(0));
                let l = m.lesson.as_ref().expect("in the lesson");
                assert_eq!(l.chosen, Some(0));
                assert!(l.reveal.as_ref().and_then(|r| r.correct()).is_some(), "exactly one choice is right");
                answered += 1;
            } else {
                reduce_model(&mut m, Action::LessonNext);
            }
        }
        assert!(m.lesson.as_ref().is_some_and(LessonState::free_play));
        assert!(answered > 0);
        // At the end: a summary of the steps and the predictions, and the next lesson.
        let Some(l) = m.lesson.as_ref() else { panic!("in the lesson") };
        let right = l.right;
        assert_eq!(l.answered, answered);
        let v = crate::panels::lesson_view(l, Lang::En);
        assert_eq!(
            v.summary.as_deref(),
            Some(
                format!("Lesson done: {} steps; {right} of your {answered} predictions matched the simulation.", lesson.steps.len())
                    .as_str()
            )
        );
        let after = m
            .catalog
            .as_ref()
            .and_then(|c| c.iter().position(|(_, x)| x.id == lesson.id).and_then(|i| c.get(i + 1)))
            .map(|(_, x)| x.id.clone());
        assert!(after.is_some(), "a lesson after {}", lesson.id);
        assert_eq!(v.next_lesson.as_ref().map(|(id, _)| id.clone()), after);
        assert!(crate::panels::lesson_view(l, Lang::Zh).summary.is_some_and(|s| s.starts_with("本课完成")));
        assert_eq!(m.lesson_progress.get(&lesson.id), Some(&lesson.steps.len()));
        let text = progress_text(&m.lesson_progress);
        assert_eq!(parse_progress(&text), m.lesson_progress);
        assert!(parse_progress("x:1,BAD:2,y:z,:3,ok-1:4").into_iter().eq([("ok-1".to_string(), 4), ("x".to_string(), 1)]));
        // Closing keeps the run to play with.
        let digest = m.sim.trace().digest();
        reduce_model(&mut m, Action::CloseLesson);
        assert!(m.lesson.is_none());
        assert_eq!(m.sim.trace().digest(), digest);
        // An unknown lesson says so and changes nothing.
        reduce_model(&mut m, Action::StartLesson("no-such-lesson".into()));
        assert!(matches!(&m.notice, Some(Notice::Error(e)) if e.contains("no-such-lesson")));
        assert_eq!(m.sim.trace().digest(), digest);
    }

    #[test]
    fn switching_language_drops_an_information_notice_but_keeps_an_error() {
        let mut m = Model::new(Lang::En);
        m.notice = Some(Notice::Info("Scenario loaded".into()));
        reduce_model(&mut m, Action::ToggleLang);
        assert!(m.notice.is_none());
        m.notice = Some(Notice::Error("broken".into()));
        reduce_model(&mut m, Action::ToggleLang);
        assert!(matches!(m.notice, Some(Notice::Error(_))));
    }

    #[test]
    fn a_late_tick_moves_the_simulation_by_the_time_that_really_passed() {
        let mut m = Model::new(Lang::En);
        // A slow frame delayed the timer: 200 ms passed, the run moves 200 ms (at 1x).
        reduce_model(&mut m, Action::TickAfter(200));
        assert_eq!(m.sim.now(), SimTime(200));
        // At 5x, 100 ms of wall time is 500 ms of the run.
        m.speed = SPEEDS.iter().position(|(r, _)| *r == 5.0).unwrap();
        reduce_model(&mut m, Action::TickAfter(100));
        assert_eq!(m.sim.now(), SimTime(700));
        // A tab back from the background catches up at most MAX_CATCH_UP_MS.
        reduce_model(&mut m, Action::TickAfter(60_000));
        assert_eq!(m.sim.now(), SimTime(700 + 5 * u64::from(MAX_CATCH_UP_MS)));
        // The plain tick is TICK_MS again.
        reduce_model(&mut m, Action::Tick);
        assert_eq!(m.sim.now(), SimTime(700 + 5 * u64::from(MAX_CATCH_UP_MS) + 5 * u64::from(TICK_MS)));
    }

    #[test]
    fn a_bad_scenario_keeps_the_current_work_and_says_why() {
        let mut m = Model::new(Lang::En);
        for _ in 0..10 {
            reduce_model(&mut m, Action::Tick);
        }
        let before = m.sim.trace().digest();
        reduce_model(&mut m, Action::LoadJson("{\"version\": 1, \"topics\": [{\"name\": \"t\", \"partitions\": 0}]}".into()));
        assert_eq!(m.sim.trace().digest(), before);
        match &m.notice {
            Some(Notice::Error(e)) => assert!(e.contains("topics[0].partitions"), "{e}"),
            other => panic!("{other:?}"),
        }
        // The JSON box says why too, until the next load or a dismissal.
        assert!(m.json_error.as_deref().is_some_and(|e| e.starts_with("topics[0].partitions")), "{:?}", m.json_error);
        reduce_model(&mut m, Action::Dismiss);
        assert_eq!(m.json_error, None);
        reduce_model(&mut m, Action::LoadJson("{".into()));
        assert!(m.json_error.is_some());
        let good = m.scenario.to_json_pretty();
        reduce_model(&mut m, Action::LoadJson(good));
        assert_eq!(m.json_error, None);
    }

    #[test]
    fn adding_a_member_picks_a_free_client_id() {
        assert_eq!(next_client_id(["Consumer1", "Consumer2"].into_iter()), "Consumer3");
        assert_eq!(next_client_id(["Consumer2"].into_iter()), "Consumer1");
        let mut m = Model::new(Lang::En);
        reduce_model(&mut m, Action::AddMember { group: "ConsumerGroup01".into() });
        let g = m.sim.group("ConsumerGroup01").map(|g| g.members().count());
        assert_eq!(g, Some(3));
    }

    #[test]
    fn broker_buttons_crash_and_restart_and_the_leader_moves_after_the_session_timeout() {
        let mut m = Model::new(Lang::En);
        let leader = m.sim.snapshot().topics[0].partitions[0].leader;
        let Some(leader) = leader else { panic!("P0 has a leader at the start") };
        reduce_model(&mut m, Action::Apply(BrokerCommand::CrashBroker { broker: leader }.into()));
        assert_eq!(m.notice, None);
        assert!(m.sim.broker(leader).is_some_and(|b| !b.alive()));
        let timeout = m.sim.cluster().broker_session_timeout_ms;
        m.sim.run_to(m.sim.now().plus_ms(timeout + 1));
        let snap = m.sim.snapshot();
        assert_ne!(snap.topics[0].partitions[0].leader, Some(leader));
        assert!(snap.brokers.iter().any(|b| b.id == leader && b.fenced));
        reduce_model(&mut m, Action::Apply(BrokerCommand::RestartBroker { broker: leader }.into()));
        assert!(m.sim.broker(leader).is_some_and(|b| b.alive()));
        reduce_model(&mut m, Action::Apply(BrokerCommand::IsolateBroker { broker: leader }.into()));
        assert!(m.sim.broker(leader).is_some_and(|b| b.isolated()));
        reduce_model(&mut m, Action::Apply(BrokerCommand::HealBroker { broker: leader }.into()));
        reduce_model(&mut m, Action::Apply(BrokerCommand::SlowBroker { broker: leader, slow_ms: SLOW_FOLLOWER_MS }.into()));
        assert!(m.sim.broker(leader).is_some_and(|b| !b.isolated() && b.slow_ms() == SLOW_FOLLOWER_MS));
        // A broker that does not exist is refused with a message, nothing panics.
        reduce_model(&mut m, Action::Apply(BrokerCommand::CrashBroker { broker: 99 }.into()));
        assert!(matches!(&m.notice, Some(Notice::Error(e)) if e.contains("99")));
    }

    #[test]
    fn a_producer_refused_for_lack_of_replicas_shows_the_error_it_retries_after() {
        let mut m = Model::new(Lang::En);
        let snap = m.sim.snapshot();
        let p0 = &snap.topics[0].partitions[0];
        let Some(leader) = p0.leader else { panic!("P0 has a leader") };
        let follower = p0.replicas.iter().copied().find(|b| *b != leader).unwrap_or(0);
        reduce_model(&mut m, Action::Apply(TopicCommand::min_insync_replicas("Topic01", 3).into()));
        reduce_model(&mut m, Action::Apply(BrokerCommand::CrashBroker { broker: follower }.into()));
        let timeout = m.sim.cluster().broker_session_timeout_ms;
        // The scenario's own acks=all sends wait for the dead replica until
        // request.timeout.ms (30 s) and fill max.in.flight meanwhile: let them time out.
        m.sim.run_to(m.sim.now().plus_ms(timeout + 31_000));
        reduce_model(
            &mut m,
            Action::Produce { producer: "Producer1".into(), topic: "Topic01".into(), key: None, value: "x".into(), partition: Some(0) },
        );
        m.sim.run_to(m.sim.now().plus_ms(1000));
        reduce_model(&mut m, Action::Dismiss);
        let retrying = m.retries.of("Producer1").map(|(_, e)| e);
        assert_eq!(retrying, Some(kafka_sandbox_core::event::ProduceError::NotEnoughReplicas));
        // Enough replicas again: the next acknowledgement clears it.
        reduce_model(&mut m, Action::Apply(TopicCommand::min_insync_replicas("Topic01", 2).into()));
        m.sim.run_to(m.sim.now().plus_ms(1000));
        reduce_model(&mut m, Action::Dismiss);
        assert_eq!(m.retries.of("Producer1"), None);
        // A new run forgets the old one's errors.
        reduce_model(&mut m, Action::Apply(TopicCommand::min_insync_replicas("Topic01", 3).into()));
        reduce_model(
            &mut m,
            Action::Produce { producer: "Producer1".into(), topic: "Topic01".into(), key: None, value: "y".into(), partition: Some(0) },
        );
        m.sim.run_to(m.sim.now().plus_ms(1000));
        reduce_model(&mut m, Action::Dismiss);
        assert!(m.retries.of("Producer1").is_some());
        reduce_model(&mut m, Action::Reset);
        assert_eq!(m.retries.of("Producer1"), None);
    }

    #[test]
    fn settings_change_acks_and_topic_configs_and_refuse_out_of_range_values() {
        let mut m = Model::new(Lang::En);
        reduce_model(&mut m, Action::Apply(ProduceCommand::SetAcks { producer: "Producer1".into(), acks: Acks::Leader }.into()));
        assert_eq!(m.sim.snapshot().producers[0].acks, Acks::Leader);
        reduce_model(&mut m, Action::Apply(TopicCommand::min_insync_replicas("Topic01", 3).into()));
        reduce_model(&mut m, Action::Apply(TopicCommand::unclean_leader_election("Topic01", true).into()));
        let t = &m.sim.snapshot().topics[0];
        assert_eq!((t.min_insync_replicas, t.unclean_leader_election_enable), (3, true));
        reduce_model(&mut m, Action::Apply(TopicCommand::min_insync_replicas("Topic01", 4).into()));
        assert!(matches!(&m.notice, Some(Notice::Error(e)) if e.contains("min.insync.replicas")));
    }

    #[test]
    fn changing_the_replication_factor_rebuilds_the_run_and_clamps_min_insync_replicas() {
        let mut m = Model::new(Lang::En);
        for _ in 0..10 {
            reduce_model(&mut m, Action::Tick);
        }
        reduce_model(&mut m, Action::SetReplicationFactor { topic: "Topic01".into(), replication_factor: 1 });
        assert_eq!(m.sim.now(), SimTime::ZERO);
        assert_eq!(m.scenario_key, "custom");
        let t = &m.sim.snapshot().topics[0];
        assert_eq!((t.replication_factor, t.min_insync_replicas), (1, 1));
        assert!(t.partitions.iter().all(|p| p.replicas.len() == 1));
        assert!(matches!(&m.notice, Some(Notice::Info(_))));
        // More replicas than brokers: refused, the run is kept.
        reduce_model(&mut m, Action::SetReplicationFactor { topic: "Topic01".into(), replication_factor: 7 });
        assert!(matches!(&m.notice, Some(Notice::Error(e)) if e.contains("replication_factor")));
        assert_eq!(m.sim.snapshot().topics[0].replication_factor, 1);
        reduce_model(&mut m, Action::SetReplicationFactor { topic: "Nope".into(), replication_factor: 2 });
        assert!(matches!(&m.notice, Some(Notice::Error(e)) if e.contains("Nope")));
    }

    fn shop() -> Model {
        let mut m = Model::new(Lang::En);
        let json = r#"{
          "version": 1, "seed": 11,
          "topics": [{ "name": "orders", "partitions": 4 }],
          "producers": [{ "name": "Producer1", "config": { "partitioner": "round_robin" },
            "send": [{ "topic": "orders", "values": ["m1","m2","m3","m4","m5","m6","m7","m8"], "start_ms": 500, "interval_ms": 200 }] }],
          "groups": [{ "id": "shop", "topics": ["orders"], "config": { "auto_offset_reset": "earliest" },
            "members": [{ "client_id": "Consumer1", "config": { "session_timeout_ms": 6000 } },
                        { "client_id": "Consumer2", "config": { "session_timeout_ms": 6000 } }] }]
        }"#;
        reduce_model(&mut m, Action::LoadJson(json.into()));
        assert!(matches!(m.notice, Some(Notice::Info(_))), "{:?}", m.notice);
        m
    }

    /// Runs until `group` is Stable with every member stable (at most a simulated minute).
    pub(crate) fn run_until_stable(sim: &mut Sim, group: &str) {
        use kafka_sandbox_core::group::{GroupState, Phase};
        for _ in 0..600 {
            let stable =
                sim.group(group).is_some_and(|g| g.state() == GroupState::Stable && g.members().all(|m| m.phase() == Phase::Stable));
            if stable {
                return;
            }
            sim.run_to(sim.now().plus_ms(100));
        }
        panic!("{group} did not become stable within a simulated minute");
    }

    #[test]
    fn member_buttons_crash_restart_pause_and_configure_a_consumer() {
        use kafka_sandbox_core::group::Phase;
        let mut m = shop();
        run_until_stable(&mut m.sim, "shop");
        let member = |m: &Model| m.sim.snapshot().groups[0].members[1].clone();
        let (group, client_id) = ("shop".to_string(), "Consumer2".to_string());
        reduce_model(
            &mut m,
            Action::Apply(GroupCommand::SetProcessing { group: group.clone(), client_id: client_id.clone(), processing_ms: 1000 }.into()),
        );
        reduce_model(
            &mut m,
            Action::Apply(
                GroupCommand::SetCommitMode {
                    group: group.clone(),
                    client_id: client_id.clone(),
                    commit_mode: CommitMode::BeforeProcessing,
                }
                .into(),
            ),
        );
        assert_eq!((member(&m).processing_ms, member(&m).commit_mode), (1000, CommitMode::BeforeProcessing));
        reduce_model(
            &mut m,
            Action::Apply(GroupCommand::PauseMember { group: group.clone(), client_id: client_id.clone(), paused: true }.into()),
        );
        assert!(member(&m).paused);
        reduce_model(
            &mut m,
            Action::Apply(GroupCommand::PauseMember { group: group.clone(), client_id: client_id.clone(), paused: false }.into()),
        );
        reduce_model(&mut m, Action::Apply(GroupCommand::CrashMember { group: group.clone(), client_id: client_id.clone() }.into()));
        assert_eq!(member(&m).phase, Phase::Crashed);
        assert_eq!(m.notice, None);
        m.sim.run_to(m.sim.now().plus_ms(15_000));
        reduce_model(&mut m, Action::Dismiss);
        assert!(m.groups.of("shop").left("Consumer2").is_some(), "the session timeout removed it");
        reduce_model(&mut m, Action::Apply(GroupCommand::RestartMember { group: group.clone(), client_id: client_id.clone() }.into()));
        assert_eq!(member(&m).phase, Phase::Joining);
        // Unknown members are refused with a message.
        reduce_model(&mut m, Action::Apply(GroupCommand::CrashMember { group: group.clone(), client_id: "Nobody".into() }.into()));
        assert!(matches!(&m.notice, Some(Notice::Error(e)) if e.contains("Nobody")));
        // A new run forgets the old timeline.
        reduce_model(&mut m, Action::Reset);
        assert!(m.groups.of("shop").events.is_empty() || m.groups.of("shop").events.iter().all(|e| e.time.ms() == 0));
    }

    #[test]
    fn stepping_to_the_next_group_event_skips_producer_traffic_and_pauses() {
        use kafka_sandbox_core::group::GroupState;
        let mut m = shop();
        run_until_stable(&mut m.sim, "shop");
        reduce_model(&mut m, Action::AddMember { group: "shop".into() });
        let mut seen = Vec::new();
        for _ in 0..40 {
            let before = m.sim.trace().total();
            reduce_model(&mut m, Action::StepGroup { group: "shop".into() });
            assert!(!m.playing);
            let new: Vec<_> = m.sim.events_since(before).map(|e| e.kind.clone()).collect();
            assert!(new.iter().any(|k| timeline::protocol_group(k, false) == Some("shop")), "{new:?}");
            seen.extend(new);
            if seen.iter().any(|k| {
                matches!(k, kafka_sandbox_core::EventKind::Group(kafka_sandbox_core::event::GroupEvent::GroupStable { generation: 2, .. }))
            }) {
                break;
            }
        }
        assert!(seen.iter().any(|k| matches!(
            k,
            kafka_sandbox_core::EventKind::Group(kafka_sandbox_core::event::GroupEvent::JoinPhaseCompleted { generation: 2, .. })
        )));
        // A settled group with nothing coming: the click stops after a bounded look ahead.
        run_until_stable(&mut m.sim, "shop");
        let from = m.sim.now();
        reduce_model(&mut m, Action::StepGroup { group: "shop".into() });
        assert!(matches!(&m.notice, Some(Notice::Info(t)) if t.contains("shop")), "{:?}", m.notice);
        assert!(m.sim.now().ms() <= from.ms() + MAX_GROUP_STEP_MS + 60_000);
        assert_eq!(m.sim.group("shop").map(|g| g.state()), Some(GroupState::Stable));
        reduce_model(&mut m, Action::StepGroup { group: "nope".into() });
        assert!(matches!(&m.notice, Some(Notice::Error(e)) if e.contains("nope")));
    }

    #[test]
    fn producing_explains_the_partition_choice() {
        let mut m = Model::new(Lang::En);
        reduce_model(
            &mut m,
            Action::Produce {
                producer: "Producer1".into(),
                topic: "Topic01".into(),
                key: Some("key1".into()),
                value: "x".into(),
                partition: None,
            },
        );
        // The seed's producer uses RoundRobinPartitioner, which ignores keys.
        let text = m.last_produce.clone().unwrap_or_default();
        assert!(text.contains("RoundRobinPartitioner"), "{text}");
        reduce_model(
            &mut m,
            Action::Produce { producer: "Nobody".into(), topic: "Topic01".into(), key: None, value: "x".into(), partition: None },
        );
        assert!(matches!(&m.notice, Some(Notice::Error(e)) if e.contains("Nobody")));
    }

    /// Ticks while playing, then back and forward: the same states, the same trace.
    #[test]
    fn time_travel_through_ticks_and_a_command_gives_the_same_run() {
        let mut m = Model::new(Lang::En);
        let mut seen = Vec::new();
        for i in 0..200 {
            reduce_model(&mut m, Action::Tick);
            if i == 120 {
                reduce_model(&mut m, Action::AddMember { group: "ConsumerGroup01".into() });
            }
            seen.push((m.sim.steps(), m.sim.trace().digest()));
        }
        let end = (m.sim.steps(), m.sim.trace().digest(), m.sim.snapshot());
        // Back to the start of the run, one point at a time, each an earlier state.
        let mut back = 0;
        while m.sim.steps() > 0 && back < 500 {
            reduce_model(&mut m, Action::StepBack);
            back += 1;
            if let Some((_, d)) = seen.iter().find(|(s, _)| *s == m.sim.steps()) {
                assert_eq!(*d, m.sim.trace().digest(), "at step {}", m.sim.steps());
            }
        }
        assert_eq!(m.sim.steps(), 0);
        assert!(!m.redo.is_empty(), "the consumer added later is still to come");
        // Forward again to the end: the same run, the consumer included.
        reduce_model(&mut m, Action::GoTo(end.0));
        assert_eq!((m.sim.steps(), m.sim.trace().digest()), (end.0, end.1));
        assert_eq!(m.sim.snapshot(), end.2);
        assert!(m.redo.is_empty());
    }

    /// Ticks at 1× until the next event is more than `gap_ms` away (the clock then stands
    /// between events, as when a learner clicks during a quiet moment).
    fn tick_to_a_quiet_moment(m: &mut Model, gap_ms: u64) {
        for _ in 0..2000 {
            reduce_model(m, Action::Tick);
            if m.sim.next_event_time().is_some_and(|t| t.ms() > m.sim.now().ms() + gap_ms) {
                return;
            }
        }
        panic!("no quiet moment in the run");
    }

    #[test]
    fn playing_again_after_going_back_runs_each_command_at_its_moment() {
        let mut m = Model::new(Lang::En);
        for _ in 0..60 {
            reduce_model(&mut m, Action::Tick);
        }
        // A command while the clock stands past the last event, more than a tick before the
        // next: replaying must not let the clock run past its moment first.
        tick_to_a_quiet_moment(&mut m, 2 * u64::from(TICK_MS));
        reduce_model(&mut m, Action::AddMember { group: "ConsumerGroup01".into() });
        let at = m.sim.command_log()[0].at;
        for _ in 0..120 {
            reduce_model(&mut m, Action::Tick);
        }
        let end = (m.sim.now(), m.sim.trace().digest(), m.sim.command_log().to_vec());
        reduce_model(&mut m, Action::GoTo(0));
        assert_eq!(m.sim.steps(), 0);
        reduce_model(&mut m, Action::TogglePlay);
        while m.sim.now() < end.0 {
            reduce_model(&mut m, Action::Tick);
        }
        assert_eq!(m.sim.command_log()[0].at, at, "the consumer joined at its moment again");
        assert_eq!((m.sim.now(), m.sim.trace().digest()), (end.0, end.1));
        assert_eq!(m.sim.command_log(), &end.2[..]);
    }

    /// The default run to `ms`, played by the core alone.
    fn run_to_directly(ms: u64) -> Sim {
        let mut sim = scenario::default_scenario().build().unwrap_or_else(|e| panic!("{e}"));
        sim.run_to(SimTime(ms));
        sim
    }

    #[test]
    fn run_to_goes_to_exactly_that_moment_forward_and_back_and_pauses() {
        let mut m = Model::new(Lang::En);
        reduce_model(&mut m, Action::Tick);
        assert!(m.playing);
        reduce_model(&mut m, Action::RunTo("12.5".into()));
        assert!(!m.playing && m.run_to.is_none() && m.notice.is_none(), "{:?}", m.notice);
        assert_eq!(m.sim.now(), SimTime(12_500));
        assert_eq!(m.sim.trace().digest(), run_to_directly(12_500).trace().digest());
        // Ticks do not move it: it paused there.
        reduce_model(&mut m, Action::Tick);
        assert_eq!(m.sim.now(), SimTime(12_500));
        // Back, to a moment between events.
        reduce_model(&mut m, Action::RunTo("3.05 s".into()));
        assert_eq!(m.sim.now(), SimTime(3_050));
        let direct = run_to_directly(3_050);
        assert_eq!((m.sim.steps(), m.sim.trace().digest()), (direct.steps(), direct.trace().digest()));
        assert_eq!(m.sim.snapshot(), direct.snapshot());
        // And forward again.
        reduce_model(&mut m, Action::RunTo("１２。５".into()));
        assert_eq!(m.sim.now(), SimTime(12_500));
        assert_eq!(m.sim.trace().digest(), run_to_directly(12_500).trace().digest());
    }

    #[test]
    fn run_to_replays_the_learners_commands_at_their_moments() {
        let mut m = Model::new(Lang::En);
        reduce_model(&mut m, Action::RunTo("4".into()));
        reduce_model(&mut m, Action::TogglePlay);
        tick_to_a_quiet_moment(&mut m, 2 * u64::from(TICK_MS));
        reduce_model(&mut m, Action::TogglePlay);
        assert!(!m.playing);
        reduce_model(
            &mut m,
            Action::Apply(GroupCommand::CrashMember { group: "ConsumerGroup01".into(), client_id: "Consumer2".into() }.into()),
        );
        reduce_model(&mut m, Action::RunTo("20".into()));
        let end = (m.sim.trace().digest(), m.sim.command_log().to_vec());
        reduce_model(&mut m, Action::RunTo("1".into()));
        assert!(m.sim.command_log().is_empty() && m.redo.len() == 1);
        reduce_model(&mut m, Action::RunTo("20".into()));
        assert_eq!((m.sim.trace().digest(), m.sim.command_log().to_vec()), end);
        assert!(m.redo.is_empty());
    }

    #[test]
    fn a_long_run_to_goes_in_slices_and_pause_or_a_step_stops_it() {
        let mut m = Model::new(Lang::En);
        reduce_model(&mut m, Action::RunTo("3600".into()));
        assert!(m.run_to.is_some(), "an hour is more than one slice");
        let first = m.sim.now();
        assert!(first < SimTime(3_600_000));
        assert_eq!(m.marks.len(), 0, "a slice is not a point to go back to");
        // Each tick goes a slice further, whatever the speed, until it gets there.
        let mut ticks = 0;
        while m.run_to.is_some() && ticks < 10_000 {
            reduce_model(&mut m, Action::Tick);
            ticks += 1;
        }
        assert!(ticks > 1);
        assert_eq!(m.sim.now(), SimTime(3_600_000));
        assert_eq!(m.sim.trace().digest(), run_to_directly(3_600_000).trace().digest(), "slices change nothing");
        assert_eq!(m.marks.last(), Some(&m.sim.steps()), "the end is a point to go back to");
        // Pause stops the next one where it is, as does a step.
        reduce_model(&mut m, Action::RunTo("7200".into()));
        assert!(m.run_to.is_some());
        reduce_model(&mut m, Action::TogglePlay);
        assert!(m.run_to.is_none() && !m.playing);
        let at = m.sim.now();
        reduce_model(&mut m, Action::Tick);
        assert_eq!(m.sim.now(), at);
        reduce_model(&mut m, Action::RunTo("7200".into()));
        reduce_model(&mut m, Action::Step);
        assert!(m.run_to.is_none());
    }

    #[test]
    fn run_to_refuses_what_is_not_a_time_and_changes_nothing() {
        let mut m = Model::new(Lang::En);
        reduce_model(&mut m, Action::RunTo("5".into()));
        let before = (m.sim.now(), m.sim.trace().digest());
        for bad in ["", "abc", "-3", "1e3", "12.5.1", "5 min", "604801", "99999999999999999999"] {
            reduce_model(&mut m, Action::RunTo(bad.into()));
            let Some(Notice::Error(text)) = &m.notice else { panic!("{bad:?}: {:?}", m.notice) };
            assert!(text.contains("is not a time") && text.contains("604800"), "{text}");
            assert_eq!((m.sim.now(), m.sim.trace().digest()), before, "{bad:?}");
            assert!(m.run_to.is_none());
        }
        m.lang = Lang::Zh;
        reduce_model(&mut m, Action::RunTo("x".into()));
        assert!(matches!(&m.notice, Some(Notice::Error(t)) if t.contains("不是一个时间")));
    }

    #[test]
    fn next_group_event_after_going_back_replays_the_recorded_future() {
        let mut m = Model::new(Lang::En);
        reduce_model(&mut m, Action::RunTo("12".into()));
        reduce_model(&mut m, Action::AddMember { group: "ConsumerGroup01".into() });
        reduce_model(&mut m, Action::RunTo("30".into()));
        let joined = |m: &Model| m.sim.group("ConsumerGroup01").is_some_and(|g| g.member("Consumer3").is_some());
        assert!(joined(&m));
        reduce_model(&mut m, Action::RunTo("10".into()));
        assert!(!joined(&m) && m.redo.len() == 1);
        for _ in 0..50 {
            if joined(&m) {
                break;
            }
            reduce_model(&mut m, Action::StepGroup { group: "ConsumerGroup01".into() });
        }
        assert!(joined(&m), "the consumer added at 12 s joins again");
        assert_eq!(m.sim.command_log()[0].at, SimTime(12_000));
        assert!(m.redo.is_empty());
    }

    #[test]
    fn stepping_again_after_going_back_lands_where_the_steps_landed_the_first_time() {
        let mut m = Model::new(Lang::En);
        reduce_model(&mut m, Action::RunTo("3".into()));
        for _ in 0..3 {
            reduce_model(&mut m, Action::Step);
        }
        reduce_model(&mut m, Action::AddMember { group: "ConsumerGroup01".into() });
        let mut first = Vec::new();
        for _ in 0..5 {
            reduce_model(&mut m, Action::Step);
            first.push((m.sim.steps(), m.sim.now(), m.sim.trace().digest()));
        }
        for _ in 0..8 {
            reduce_model(&mut m, Action::StepBack);
        }
        assert!(m.sim.command_log().is_empty());
        for _ in 0..3 {
            reduce_model(&mut m, Action::Step);
        }
        let again: Vec<_> = (0..5)
            .map(|_| {
                reduce_model(&mut m, Action::Step);
                (m.sim.steps(), m.sim.now(), m.sim.trace().digest())
            })
            .collect();
        assert_eq!(again, first);
    }

    #[test]
    fn seconds_are_read_to_the_millisecond() {
        for (text, ms) in [
            ("0", 0),
            ("12", 12_000),
            ("12.5", 12_500),
            (" 12.5 s ", 12_500),
            ("0.001", 1),
            (".5", 500),
            ("5.", 5_000),
            ("3,25", 3_250),
            ("１２．５秒", 12_500),
            ("604800", 604_800_000),
        ] {
            assert_eq!(parse_seconds(text), Some(ms), "{text:?}");
        }
        for text in ["", ".", "s", "0.0001", "+1", "1 2", "604800.001", "٣"] {
            assert_eq!(parse_seconds(text), None, "{text:?}");
        }
    }

    #[test]
    fn the_outbox_fills_in_the_reducer_and_empties_when_the_page_delivers_it() {
        use yew::Reducible;
        let outbox = |s: &AppState| s.model.borrow().outbox.clone();
        let s = Rc::new(AppState::new(Lang::En)).reduce(Action::Step);
        assert!(matches!(outbox(&s).as_slice(), [Outgoing::Autosave(_)]), "a change is autosaved at once");
        let s = s.reduce(Action::SaveFile);
        let queued = outbox(&s);
        assert!(matches!(queued.as_slice(), [Outgoing::Autosave(_), Outgoing::Download(_), Outgoing::Autosave(_)]), "{queued:?}");
        let version = s.version;
        let s = s.reduce(Action::Delivered(2));
        assert_eq!(s.version, version, "delivering re-renders nothing");
        assert_eq!(outbox(&s), queued[2..].to_vec(), "only what was handed over goes");
        let s = s.reduce(Action::Delivered(usize::MAX));
        assert!(outbox(&s).is_empty());
        // Delivering is not a change worth autosaving.
        let s = s.reduce(Action::Delivered(1));
        assert!(outbox(&s).is_empty());
    }

    /// Share makes a link that opens, copies it, and says so; a run too big for a link is
    /// never made into one: Share says why and offers Save file.
    #[test]
    fn share_copies_a_link_that_opens_or_offers_save_file_when_the_run_is_too_big() {
        let mut m = Model::new(Lang::En);
        reduce_model(&mut m, Action::Share);
        let Some(ShareState::Link { text, copied: None }) = m.share.clone() else { panic!("a link: {:?}", m.share) };
        assert!(m.outbox.iter().any(|o| o == &Outgoing::CopyLink(text.clone())), "the link goes to the clipboard");
        assert!(kafka_sandbox_core::share::decode(&text).is_ok());
        reduce_model(&mut m, Action::Copied(true));
        assert_eq!(m.share, Some(ShareState::Link { text: text.clone(), copied: Some(true) }));
        assert_eq!(m.notice, Some(Notice::Info(i18n::classroom::LINK_COPIED.en.to_string())));
        // A learner's 900 KB scenario (values that do not compress).
        let mut rng = kafka_sandbox_core::rng::SimRng::new(3);
        let mut big = scenario::default_scenario();
        big.producers[0].send[0].values = (0..40_000).map(|_| format!("{:016x}", rng.next_u64())).collect();
        reduce_model(&mut m, Action::LoadJson(big.to_json_pretty()));
        m.outbox.clear();
        reduce_model(&mut m, Action::Share);
        let Some(ShareState::TooBig { chars }) = m.share else { panic!("too big: {:?}", m.share) };
        assert!(chars > kafka_sandbox_core::share::MAX_ENCODED);
        assert!(!m.outbox.iter().any(|o| matches!(o, Outgoing::CopyLink(_))), "no link to copy");
        assert!(matches!(&m.notice, Some(Notice::Error(e)) if e.contains("save it as a file")), "{:?}", m.notice);
        reduce_model(&mut m, Action::SaveFile);
        assert!(m.outbox.iter().any(|o| matches!(o, Outgoing::Download(_))), "Save file still works");
    }

    /// A file that is not JSON says so, not "not a Kafka Sandbox link"; the run stays.
    #[test]
    fn opening_a_file_that_is_not_json_says_so_and_keeps_the_run() {
        let mut m = Model::new(Lang::En);
        reduce_model(&mut m, Action::Step);
        let steps = m.sim.steps();
        reduce_model(&mut m, Action::OpenShared { text: "PNG\u{1a}binary".into(), from: SharedFrom::File });
        let Some(Notice::Error(e)) = &m.notice else { panic!("{:?}", m.notice) };
        assert!(e.contains("not JSON") && !e.contains("not a Kafka Sandbox link"), "{e}");
        assert_eq!(m.sim.steps(), steps);
    }

    /// The keys: → steps the simulation, or during a lesson goes to its next step (never
    /// past a question waiting for its prediction, which 1–9 answer); ← goes back; Space
    /// plays; a presenter's clicker (Page Down/Up) does what → and ← do.
    #[test]
    fn keys_step_the_simulation_or_the_lesson_and_answer_its_questions() {
        let mut m = Model::new(Lang::En);
        assert_eq!(key_action(&m, "ArrowRight"), Action::Step);
        assert_eq!(key_action(&m, "PageDown"), Action::Step);
        assert_eq!(key_action(&m, "PageUp"), Action::StepBack);
        assert_eq!(key_action(&m, "3"), Action::Noop, "no lesson, no answer");
        let events = m.sim.trace().total();
        reduce_model(&mut m, Action::Key("ArrowRight".into()));
        assert!(m.sim.trace().total() > events, "→ applied an event");
        let Some(lesson) = kafka_sandbox_core::lesson::built_in("topics-partitions") else { panic!("lesson 1") };
        m.catalog = Some(Rc::new(vec![(1, lesson)]));
        reduce_model(&mut m, Action::StartLesson("topics-partitions".into()));
        let step = |m: &Model| m.lesson.as_ref().and_then(|l| l.report.as_ref()).map(|r| r.index);
        assert_eq!(step(&m), Some(0));
        assert_eq!(key_action(&m, "ArrowRight"), Action::Advance);
        reduce_model(&mut m, Action::Key("PageDown".into()));
        assert_eq!(step(&m), Some(1), "the clicker went to step 2");
        // Step 2 asks a question: → waits for the prediction; 2 answers it.
        reduce_model(&mut m, Action::Key("ArrowRight".into()));
        assert_eq!(step(&m), Some(1), "a question waits for its answer");
        reduce_model(&mut m, Action::Key("2".into()));
        assert_eq!(m.lesson.as_ref().and_then(|l| l.chosen), Some(1));
        reduce_model(&mut m, Action::Key("ArrowRight".into()));
        assert_eq!(step(&m), Some(2));
        assert_eq!(key_action(&m, " "), Action::TogglePlay);
        assert_eq!(key_action(&m, "x"), Action::Noop);
    }

    #[test]
    fn presentation_mode_is_a_toggle_and_can_be_set() {
        let mut m = Model::new(Lang::En);
        assert!(!m.present);
        reduce_model(&mut m, Action::SetPresent(None));
        assert!(m.present);
        reduce_model(&mut m, Action::SetPresent(Some(true)));
        assert!(m.present);
        reduce_model(&mut m, Action::SetPresent(None));
        assert!(!m.present);
    }

    /// Runs the model to `seconds` the way the page does (Run to, then ticks until there).
    fn run_to_s(m: &mut Model, seconds: &str) {
        reduce_model(m, Action::RunTo(seconds.into()));
        for _ in 0..10_000 {
            if m.run_to.is_none() {
                break;
            }
            reduce_model(m, Action::Tick);
        }
    }

    /// The same crash under acks=1 and acks=all (min.insync.replicas=2): the learner crashed the leader, went back
    /// before the crash and forked; then set acks=all in the run. The fork replays the
    /// recorded crash at its moment (acks=1 loses acknowledged records), and so does the
    /// run (acks=all loses none); choosing to diverge drops it from the run only. Saved and
    /// opened again, the fork and the run's future come back.
    #[test]
    fn a_fork_replays_the_recorded_future_unless_the_run_diverges() {
        use kafka_sandbox_core::command::{BrokerCommand, ProduceCommand};
        let json = r#"{
          "version": 1, "name": "acks=1 and a leader crash", "seed": 7,
          "cluster": { "brokers": 3, "network_latency_ms": 50, "broker_session_timeout_ms": 2000, "group_initial_rebalance_delay_ms": 0 },
          "topics": [{ "name": "orders", "partitions": 1, "replication_factor": 3, "min_insync_replicas": 2 }],
          "producers": [{ "name": "Producer1", "config": { "acks": "1", "request_timeout_ms": 1500 },
            "send": [{ "topic": "orders", "values": ["m1","m2","m3","m4","m5","m6","m7","m8","m9","m10","m11","m12","m13","m14","m15","m16","m17","m18","m19","m20"], "start_ms": 1000, "interval_ms": 300 }] }],
          "groups": [{ "id": "readers", "topics": ["orders"], "config": { "auto_offset_reset": "earliest" }, "members": [{ "client_id": "Consumer1" }] }]
        }"#;
        let mut m = Model::new(Lang::En);
        reduce_model(&mut m, Action::LoadJson(json.into()));
        let leader = m.sim.partition(&kafka_sandbox_core::record::TopicPartition::new("orders", 0)).and_then(|p| p.leader());
        let Some(leader) = leader else { panic!("a leader") };
        for b in (0..3).filter(|b| *b != leader) {
            reduce_model(&mut m, Action::Apply(BrokerCommand::SlowBroker { broker: b, slow_ms: SLOW_FOLLOWER_MS }.into()));
        }
        run_to_s(&mut m, "3.2");
        reduce_model(&mut m, Action::Apply(BrokerCommand::CrashBroker { broker: leader }.into()));
        run_to_s(&mut m, "12");
        let lost = m.sim.monitors().acked_lost_total();
        assert!(lost > 0, "acks=1 with slow followers loses acknowledged records");
        // Back before the first send, and fork: the fork holds the recorded crash.
        run_to_s(&mut m, "0.5");
        assert_eq!(m.redo.len(), 1, "the crash is still to come");
        reduce_model(&mut m, Action::Fork);
        // In the run, acks=all from now on: a new branch, which keeps the recorded crash.
        reduce_model(
            &mut m,
            Action::Apply(ProduceCommand::SetAcks { producer: "Producer1".into(), acks: kafka_sandbox_core::config::Acks::All }.into()),
        );
        assert!(m.redo.is_empty());
        assert_eq!(m.timed.len(), 1, "the crash goes on by moment");
        run_to_s(&mut m, "12");
        let Some(fork) = m.fork.as_ref() else { panic!("the fork") };
        let crashed_at = |s: &Sim| {
            s.command_log().iter().find(|c| matches!(c.command, Command::Broker(BrokerCommand::CrashBroker { .. }))).map(|c| c.at)
        };
        assert_eq!(crashed_at(&m.sim), Some(SimTime(3_200)), "the run crashed the leader at its moment");
        assert_eq!(crashed_at(&fork.sim), Some(SimTime(3_200)), "so did the fork");
        assert_eq!(fork.sim.now(), m.sim.now());
        assert_eq!(fork.sim.monitors().acked_lost_total(), lost, "the fork is the recorded run: acks=1 loses records");
        assert_eq!(m.sim.monitors().acked_lost_total(), 0, "acks=all loses none under the same crash");
        // Saved and opened again: the fork and its future come back.
        let saved = kafka_sandbox_core::share::to_json_pretty(&m.shared());
        let mut opened = Model::new(Lang::En);
        reduce_model(&mut opened, Action::OpenShared { text: saved, from: SharedFrom::File });
        let Some(f) = opened.fork.as_ref() else { panic!("the fork was saved: {:?}", opened.notice) };
        assert_eq!(f.sim.trace().digest(), fork.sim.trace().digest(), "the same fork");
        assert_eq!(opened.sim.trace().digest(), m.sim.trace().digest(), "the same run");
        // Diverging: back again, a change, and the run no longer replays the crash.
        run_to_s(&mut m, "0.5");
        reduce_model(&mut m, Action::KeepFuture(false));
        reduce_model(
            &mut m,
            Action::Apply(ProduceCommand::SetAcks { producer: "Producer1".into(), acks: kafka_sandbox_core::config::Acks::All }.into()),
        );
        assert!(m.timed.is_empty() && m.redo.is_empty());
        run_to_s(&mut m, "12");
        assert_eq!(crashed_at(&m.sim), None, "diverged: no crash in this run");
    }

    /// A pasted producer.properties takes Kafka's names into the scenario's producer and
    /// the run starts again (a new client); a typo and a value Kafka refuses are reported;
    /// a paste into a member sets that member only.
    #[test]
    fn pasted_properties_take_kafkas_names_and_report_the_rest() {
        let mut m = Model::new(Lang::En);
        reduce_model(&mut m, Action::Step);
        reduce_model(
            &mut m,
            Action::PasteProperties {
                target: PasteTarget::Producer("Producer1".into()),
                text: "acks=1\nlinger.ms=20\nlingr.ms=3\nbootstrap.servers=x:9092\n".into(),
            },
        );
        assert_eq!(m.sim.steps(), 0, "a new client: the run starts again");
        let p = &m.scenario.producers[0].config;
        assert_eq!((p.acks, p.linger_ms), (kafka_sandbox_core::config::Acks::Leader, 20));
        let Some(Notice::Error(text)) = &m.notice else { panic!("{:?}", m.notice) };
        assert!(text.contains("Applied: acks=1, linger.ms=20") && text.contains("lingr.ms: no Kafka client has this setting"), "{text}");
        assert!(text.contains("bootstrap.servers: a Kafka setting the sandbox does not model"), "{text}");
        reduce_model(
            &mut m,
            Action::PasteProperties {
                target: PasteTarget::Member { group: "ConsumerGroup01".into(), client_id: "Consumer2".into() },
                text: "max.poll.records=7".into(),
            },
        );
        let g = &m.scenario.groups[0];
        assert_eq!(g.members[1].config.max_poll_records, 7);
        assert_ne!(g.members[0].config.max_poll_records, 7, "nothing else changed");
        assert!(matches!(&m.notice, Some(Notice::Info(t)) if t.contains("Applied: max.poll.records=7")));
        // A member added during the run is not in the scenario.
        reduce_model(
            &mut m,
            Action::PasteProperties {
                target: PasteTarget::Member { group: "ConsumerGroup01".into(), client_id: "nobody".into() },
                text: "max.poll.records=7".into(),
            },
        );
        assert!(matches!(&m.notice, Some(Notice::Error(_))));
    }

    /// The producer card marks a record it was acknowledged for and a leader change then
    /// lost: every such record (as many as the monitor counts) is in `view::acked_lost`,
    /// and none is under acks=all.
    #[test]
    fn the_producer_card_marks_an_acknowledged_record_lost() {
        use kafka_sandbox_core::command::BrokerCommand;
        let json = r#"{
          "version": 1, "name": "acks=1 and a leader crash", "seed": 7,
          "cluster": { "brokers": 3, "network_latency_ms": 50, "broker_session_timeout_ms": 2000, "group_initial_rebalance_delay_ms": 0 },
          "topics": [{ "name": "orders", "partitions": 1, "replication_factor": 3, "min_insync_replicas": 2 }],
          "producers": [{ "name": "Producer1", "config": { "acks": "ACKS", "request_timeout_ms": 1500 },
            "send": [{ "topic": "orders", "values": ["m1","m2","m3","m4","m5","m6","m7","m8","m9","m10"], "start_ms": 1000, "interval_ms": 300 }] }],
          "groups": []
        }"#;
        for (acks, loses) in [("1", true), ("all", false)] {
            let mut m = Model::new(Lang::En);
            reduce_model(&mut m, Action::LoadJson(json.replace("ACKS", acks)));
            let Some(leader) = m.sim.partition(&kafka_sandbox_core::record::TopicPartition::new("orders", 0)).and_then(|p| p.leader())
            else {
                panic!("a leader")
            };
            for b in (0..3).filter(|b| *b != leader) {
                reduce_model(&mut m, Action::Apply(BrokerCommand::SlowBroker { broker: b, slow_ms: SLOW_FOLLOWER_MS }.into()));
            }
            run_to_s(&mut m, "3.2");
            reduce_model(&mut m, Action::Apply(BrokerCommand::CrashBroker { broker: leader }.into()));
            run_to_s(&mut m, "8");
            let snap = m.sim.snapshot();
            let marked = crate::view::acked_lost(&snap.topics, &snap.producers);
            assert_eq!(marked.len() as u64, m.sim.monitors().acked_lost_total(), "acks={acks}");
            assert_eq!(!marked.is_empty(), loses, "acks={acks}: {} marked", marked.len());
            // Each marked record is one the card lists as sent and acknowledged.
            for (id, _) in marked.iter() {
                assert!(snap.producers[0].sent.iter().any(|s| s.record == *id && s.acked_offset.is_some()), "{id:?}");
            }
        }
    }

    #[test]
    fn the_bridge_opens_from_the_scenario_and_closes() {
        let mut m = Model::new(Lang::Zh);
        reduce_model(&mut m, Action::ToggleBridge);
        let Some(b) = m.bridge.clone() else { panic!("open") };
        let Ok(b) = b.as_ref() else { panic!("it bridges") };
        assert!(b.compose.contains("apache/kafka:4.2.0"));
        reduce_model(&mut m, Action::ToggleBridge);
        assert!(m.bridge.is_none());
    }
}
