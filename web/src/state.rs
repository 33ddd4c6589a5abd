//! The page's state: the running simulation, the player controls and messages.
//! Components only send [`Action`]s; the reducer is the one place that changes anything.

use crate::i18n::{self, Lang};
use kafka_sandbox_core::assign::Strategy;
use kafka_sandbox_core::command::{GroupSpec, MemberSpec};
use kafka_sandbox_core::config::{GroupConfig, OffsetReset};
use kafka_sandbox_core::partitioner::PartitionerKind;
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
/// Most events one tick may apply, so a frame never does unbounded work.
const MAX_STEPS_PER_TICK: u64 = 20_000;

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
    /// The sentence explaining where the last record produced from the page went.
    pub last_produce: Option<String>,
    /// Fractional simulated milliseconds carried between ticks.
    carry_ms: f64,
}

impl Model {
    pub fn new(lang: Lang) -> Self {
        let scenario = scenario::default_scenario();
        let sim = build_or_empty(&scenario);
        Self {
            sim,
            scenario,
            scenario_key: "two-groups".into(),
            playing: true,
            speed: DEFAULT_SPEED,
            lang,
            notice: None,
            last_produce: None,
            carry_ms: 0.0,
        }
    }
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
    Tick,
    TogglePlay,
    Step,
    Reset,
    SetSpeed(usize),
    ToggleLang,
    LoadBuiltIn(String),
    LoadJson(String),
    Produce { producer: String, topic: String, key: Option<String>, value: String, partition: Option<u32> },
    AddMember { group: String },
    RemoveMember { group: String, client_id: String },
    AddGroup { id: String, reset: OffsetReset, assignor: Strategy },
    SetAssignor { group: String, assignor: Strategy },
    SetPartitioner { producer: String, partitioner: PartitionerKind },
    Dismiss,
}

impl Reducible for AppState {
    type Action = Action;

    fn reduce(self: Rc<Self>, action: Action) -> Rc<Self> {
        let Ok(mut m) = self.model.try_borrow_mut() else { return self };
        let changed = reduce_model(&mut m, action);
        drop(m);
        if changed {
            Rc::new(AppState { model: self.model.clone(), version: self.version.wrapping_add(1) })
        } else {
            self
        }
    }
}

/// Applies one action; returns whether anything visible changed.
pub fn reduce_model(m: &mut Model, action: Action) -> bool {
    let lang = m.lang;
    match action {
        Action::Tick => {
            if !m.playing {
                return false;
            }
            let (rate, _) = SPEEDS.get(m.speed).copied().unwrap_or((1.0, ""));
            m.carry_ms += rate * f64::from(TICK_MS);
            let whole = m.carry_ms.floor();
            m.carry_ms -= whole;
            let until = m.sim.now().plus_ms(whole as u64);
            m.sim.run_until_bounded(until, MAX_STEPS_PER_TICK);
            true
        }
        Action::TogglePlay => {
            m.playing = !m.playing;
            true
        }
        Action::Step => {
            m.playing = false;
            m.sim.step_visible();
            true
        }
        Action::Reset => {
            m.sim = build_or_empty(&m.scenario);
            m.last_produce = None;
            m.notice = None;
            m.carry_ms = 0.0;
            true
        }
        Action::SetSpeed(i) => {
            if i < SPEEDS.len() {
                m.speed = i;
            }
            true
        }
        Action::ToggleLang => {
            m.lang = m.lang.other();
            true
        }
        Action::LoadBuiltIn(key) => {
            match scenario::built_in(&key) {
                Some(Ok(s)) => {
                    m.sim = build_or_empty(&s);
                    m.scenario = s;
                    m.scenario_key = key;
                    m.last_produce = None;
                    m.notice = None;
                }
                Some(Err(e)) => m.notice = Some(Notice::Error(format!("{}{e}", i18n::INVALID_SCENARIO.get(lang)))),
                None => m.notice = Some(Notice::Error(format!("{}{key}", i18n::INVALID_SCENARIO.get(lang)))),
            }
            true
        }
        Action::LoadJson(text) => {
            match Scenario::from_json(&text) {
                Ok(s) => {
                    m.sim = build_or_empty(&s);
                    m.scenario = s;
                    m.scenario_key = "custom".into();
                    m.last_produce = None;
                    m.notice = Some(Notice::Info(i18n::LOADED.get(lang).into()));
                }
                Err(e) => m.notice = Some(Notice::Error(format!("{}{e}", i18n::INVALID_SCENARIO.get(lang)))),
            }
            true
        }
        Action::Produce { producer, topic, key, value, partition } => {
            let before = m.sim.trace().total();
            let command = Command::Produce { producer, topic: topic.clone(), key, value, partition, headers: vec![] };
            match m.sim.apply(command) {
                Ok(()) => {
                    let partitions = m.sim.topic(&topic).map(|t| t.partition_count());
                    m.last_produce = m.sim.events_since(before).find_map(|e| match &e.kind {
                        kafka_sandbox_core::EventKind::RecordSent { value, key, partition, reason, .. } => Some(format!(
                            "{value}: {}",
                            i18n::reason(lang, reason, key.as_deref(), *partition, partitions)
                        )),
                        _ => None,
                    });
                    m.notice = None;
                }
                Err(e) => m.notice = Some(Notice::Error(format!("{}{e}", i18n::REFUSED.get(lang)))),
            }
            true
        }
        Action::AddMember { group } => {
            let Some(g) = m.sim.group(&group) else { return false };
            let client_id = next_client_id(g.members.iter().map(|m| m.client_id.as_str()));
            let result = m.sim.apply(Command::AddMember { group, member: MemberSpec::new(client_id) });
            report(m, result)
        }
        Action::RemoveMember { group, client_id } => {
            let result = m.sim.apply(Command::RemoveMember { group, client_id });
            report(m, result)
        }
        Action::AddGroup { id, reset, assignor } => {
            let topics: Vec<String> = m.sim.topics().map(|t| t.name.clone()).collect();
            let spec = GroupSpec {
                id: id.trim().to_string(),
                topics,
                config: GroupConfig { assignor, auto_offset_reset: reset },
                members: vec![MemberSpec::new("Consumer1")],
            };
            let result = m.sim.apply(Command::AddGroup { group: spec });
            report(m, result)
        }
        Action::SetAssignor { group, assignor } => {
            let result = m.sim.apply(Command::SetAssignor { group, assignor });
            report(m, result)
        }
        Action::SetPartitioner { producer, partitioner } => {
            let result = m.sim.apply(Command::SetPartitioner { producer, partitioner });
            report(m, result)
        }
        Action::Dismiss => {
            m.notice = None;
            true
        }
    }
}

fn report(m: &mut Model, result: Result<(), kafka_sandbox_core::CommandError>) -> bool {
    match result {
        Ok(()) => m.notice = None,
        Err(e) => m.notice = Some(Notice::Error(format!("{}{e}", i18n::REFUSED.get(m.lang)))),
    }
    true
}

/// The first "ConsumerN" not taken yet.
pub fn next_client_id<'a>(taken: impl Iterator<Item = &'a str> + Clone) -> String {
    (1..)
        .map(|n| format!("Consumer{n}"))
        .find(|c| !taken.clone().any(|t| t == c))
        .unwrap_or_else(|| "Consumer".into())
}

/// The next value in the m1, m2, … series for the produce form.
pub fn next_value(sim: &Sim) -> String {
    let n = sim.producers().map(|p| p.sent_total()).sum::<u64>() + 1;
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
    }

    #[test]
    fn adding_a_member_picks_a_free_client_id() {
        assert_eq!(next_client_id(["Consumer1", "Consumer2"].into_iter()), "Consumer3");
        assert_eq!(next_client_id(["Consumer2"].into_iter()), "Consumer1");
        let mut m = Model::new(Lang::En);
        reduce_model(&mut m, Action::AddMember { group: "ConsumerGroup01".into() });
        let g = m.sim.group("ConsumerGroup01").map(|g| g.members.len());
        assert_eq!(g, Some(3));
    }

    #[test]
    fn producing_explains_the_partition_choice() {
        let mut m = Model::new(Lang::En);
        reduce_model(
            &mut m,
            Action::Produce { producer: "Producer1".into(), topic: "Topic01".into(), key: Some("key1".into()), value: "x".into(), partition: None },
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
}
