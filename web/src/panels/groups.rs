//! Consumer groups: the coordinator, the group state machine, generation, leader, protocol
//! and assignor; members with their phase, partitions, processing and commit settings,
//! crash/pause controls and the messages each received; the group's rebalance timeline.

use super::record_style;
use super::send;
use crate::i18n::{self, Lang};
use crate::state::Action;
use crate::timeline::GroupLog;
use kafka_sandbox_core::command::GroupCommand;
use kafka_sandbox_core::config::ServerAssignor;
use kafka_sandbox_core::config::Strategy;
use kafka_sandbox_core::config::{GroupProtocol, OffsetReset};
use kafka_sandbox_core::event::LeaveReason;
use kafka_sandbox_core::read::{Activity, CommitMode, GroupState, Phase, Reconcile};
use kafka_sandbox_core::snapshot::{GroupView, MemberView};
use kafka_sandbox_core::vecmap::VecMap;
use kafka_sandbox_core::SimTime;
use std::rc::Rc;
use web_sys::{HtmlInputElement, HtmlSelectElement};
use yew::prelude::*;

/// Processing times offered per record (the member's own value is added if it differs).
const PROCESSING_CHOICES_MS: [u64; 5] = [1, 10, 100, 1000, 30_000];
const COMMIT_MODES: [CommitMode; 5] =
    [CommitMode::Auto, CommitMode::SyncAfterProcessing, CommitMode::AsyncAfterProcessing, CommitMode::BeforeProcessing, CommitMode::Off];
/// Newest records drawn per member.
const CHIPS_SHOWN: usize = 60;

#[derive(Properties, PartialEq)]
pub struct GroupsProps {
    pub lang: Lang,
    /// The snapshot's groups.
    pub groups: Rc<Vec<GroupView>>,
    pub dispatch: Callback<Action>,
    /// Each group's protocol timeline and departures, by group id.
    #[prop_or_default]
    pub logs: Rc<VecMap<String, Rc<GroupLog>>>,
    /// Each group as `kafka-consumer-groups.sh --describe` prints it, by group id.
    #[prop_or_default]
    pub describes: Rc<VecMap<String, String>>,
    /// Where each group's offsets live (issue 19): its `__consumer_offsets` partition and
    /// that partition's leader, by group id.
    #[prop_or_default]
    pub offsets_homes: Rc<VecMap<String, (u32, Option<u32>)>>,
}

fn strategy_from(v: &str) -> Strategy {
    v.parse().unwrap_or(Strategy::Range)
}

fn commit_mode_value(c: CommitMode) -> &'static str {
    match c {
        CommitMode::Auto => "auto",
        CommitMode::SyncAfterProcessing => "sync_after_processing",
        CommitMode::AsyncAfterProcessing => "async_after_processing",
        CommitMode::BeforeProcessing => "before_processing",
        CommitMode::Off => "off",
    }
}

fn commit_mode_from(v: &str) -> Option<CommitMode> {
    COMMIT_MODES.into_iter().find(|c| commit_mode_value(*c) == v)
}

/// A select that always shows the model's value. The pick goes out as an action and the
/// element is put back at once; keyed by the value, it is rebuilt when the value really
/// changes, so a refused pick (shown in the notice) does not stay on screen.
fn picker(class: &'static str, title: &str, current: &str, options: &[(String, String)], on_pick: Callback<String>) -> Html {
    let restore = current.to_string();
    let onchange = Callback::from(move |e: Event| {
        let select = e.target_unchecked_into::<HtmlSelectElement>();
        let picked = select.value();
        select.set_value(&restore);
        on_pick.emit(picked);
    });
    html! {
        <select key={current.to_string()} class={class} title={title.to_string()} {onchange}>
            { for options.iter().map(|(value, label)| html! {
                <option value={value.clone()} selected={value == current}>{ label }</option>
            }) }
        </select>
    }
}

#[component]
pub fn Groups(p: &GroupsProps) -> Html {
    let lang = p.lang;
    let id_ref = use_node_ref();
    let reset_ref = use_node_ref();
    let assignor_ref = use_node_ref();
    let next_id = format!("ConsumerGroup{:02}", p.groups.len() + 1);
    let create = {
        let (id_ref, reset_ref, assignor_ref) = (id_ref.clone(), reset_ref.clone(), assignor_ref.clone());
        let dispatch = p.dispatch.clone();
        let next_id = next_id.clone();
        Callback::from(move |e: SubmitEvent| {
            e.prevent_default();
            let typed = id_ref.cast::<HtmlInputElement>().map(|i| i.value()).unwrap_or_default();
            let id = if typed.trim().is_empty() { next_id.clone() } else { typed };
            let reset = match reset_ref.cast::<HtmlSelectElement>().map(|s| s.value()).as_deref() {
                Some("latest") => OffsetReset::Latest,
                Some("none") => OffsetReset::None,
                _ => OffsetReset::Earliest,
            };
            let picked = assignor_ref.cast::<HtmlSelectElement>().map(|s| s.value()).unwrap_or_default();
            let protocol = ServerAssignor::ALL.into_iter().find(|a| picked == format!("consumer:{a}"));
            let assignor = strategy_from(&picked);
            if let Some(i) = id_ref.cast::<HtmlInputElement>() {
                i.set_value("");
            }
            dispatch.emit(Action::AddGroup { id, reset, assignor, protocol });
        })
    };
    html! {
        <div class="panel groups">
            <h2>{ i18n::GROUPS.get(lang) }</h2>
            // Side by side where there is room (CSS grid): two groups read the same topic,
            // and the comparison is the point.
            <div class="group-list">
            { for p.groups.iter().map(|g| html! {
                <GroupCard key={g.id.clone()} {lang} group={g.clone()}
                    log={p.logs.get(&g.id).cloned().unwrap_or_default()}
                    describe={p.describes.get(&g.id).cloned().unwrap_or_default()}
                    offsets_home={p.offsets_homes.get(&g.id).copied()} dispatch={p.dispatch.clone()} />
            }) }
            </div>
            <details class="card add-group">
                <summary id="add-group-open">{ i18n::ADD_GROUP.get(lang) }</summary>
                <form id="add-group-form" onsubmit={create}>
                    <label class="row">{ i18n::GROUP_ID.get(lang) }<input id="group-id" ref={id_ref} placeholder={next_id} maxlength="64" autocomplete="off" /></label>
                    <label class="row">{ i18n::RESET_POLICY.get(lang) }
                        <select id="group-reset" ref={reset_ref}>
                            <option value="earliest" selected=true>{ "earliest" }</option>
                            <option value="latest">{ "latest" }</option>
                            <option value="none">{ "none" }</option>
                        </select>
                    </label>
                    <label class="row">{ i18n::ASSIGNOR.get(lang) }
                        <select id="group-assignor" ref={assignor_ref} title={i18n::ASSIGNOR_HINT.get(lang)}>
                            { for Strategy::ALL.iter().map(|s| html! {
                                <option value={s.name()} selected={*s == Strategy::Range}>{ s.name() }</option>
                            }) }
                            { for ServerAssignor::ALL.iter().map(|a| html! {
                                <option value={format!("consumer:{a}")}>{ format!("group.protocol=consumer (KIP-848), {a}") }</option>
                            }) }
                        </select>
                    </label>
                    <p class="muted small">{ i18n::GROUP_CREATED_NOTE.get(lang) }</p>
                    <button id="add-group-create" class="primary" type="submit">{ i18n::CREATE.get(lang) }</button>
                </form>
            </details>
        </div>
    }
}

#[derive(Properties, PartialEq)]
struct GroupCardProps {
    lang: Lang,
    group: GroupView,
    log: Rc<GroupLog>,
    /// The group as `kafka-consumer-groups.sh --describe` prints it.
    #[prop_or_default]
    describe: String,
    /// Its `__consumer_offsets` partition and that partition's leader (issue 19).
    #[prop_or_default]
    offsets_home: Option<(u32, Option<u32>)>,
    dispatch: Callback<Action>,
}

fn state_class(s: GroupState) -> &'static str {
    match s {
        GroupState::Empty => "empty",
        GroupState::PreparingRebalance => "preparing",
        GroupState::CompletingRebalance => "completing",
        GroupState::Stable => "stable",
        GroupState::Reconciling => "reconciling",
    }
}

const STATES: [GroupState; 4] = [GroupState::Empty, GroupState::PreparingRebalance, GroupState::CompletingRebalance, GroupState::Stable];
/// The consumer protocol's states (KIP-848: `ASSIGNING` lasts no time here, the target
/// is computed in the heartbeat that bumps the epoch).
const CG_STATES: [GroupState; 3] = [GroupState::Empty, GroupState::Reconciling, GroupState::Stable];

#[component]
fn GroupCard(p: &GroupCardProps) -> Html {
    let lang = p.lang;
    let g = &p.group;
    let add = {
        let group = g.id.clone();
        send(&p.dispatch, Action::AddMember { group: group.clone() })
    };
    let add_static = {
        let group = g.id.clone();
        send(&p.dispatch, Action::AddStaticMember { group: group.clone() })
    };
    let step_group = {
        let group = g.id.clone();
        send(&p.dispatch, Action::StepGroup { group: group.clone() })
    };
    let set_assignor = {
        let group = g.id.clone();
        p.dispatch
            .reform(move |v: String| Action::Apply(GroupCommand::SetAssignor { group: group.clone(), assignor: strategy_from(&v) }.into()))
    };
    let assignors: Vec<(String, String)> = Strategy::ALL.iter().map(|s| (s.name().to_string(), s.name().to_string())).collect();
    let consumer = g.group_protocol == GroupProtocol::Consumer;
    let rebalancing = matches!(g.state, GroupState::PreparingRebalance | GroupState::CompletingRebalance | GroupState::Reconciling);
    let card_class = if rebalancing { "rebalancing" } else { state_class(g.state) };
    let many_topics = g.topics.len() > 1;
    let committed: Vec<String> = g.committed.iter().map(|(tp, o)| format!("{}={o}", crate::view::part_label(tp, many_topics))).collect();
    let coordinator = match g.coordinator {
        Some(b) => {
            html! { <span class="coordinator" title={i18n::COORDINATOR_HINT.get(lang)} data-coordinator={b.to_string()}>{ i18n::coordinator(lang, b) }</span> }
        }
        None => {
            html! { <span class="coordinator none" title={i18n::COORDINATOR_NONE_HINT.get(lang)} data-coordinator="none">{ i18n::COORDINATOR_NONE.get(lang) }</span> }
        }
    };
    html! {
        <div class={classes!("group", "card", card_class)} data-group={g.id.clone()} data-state={state_class(g.state)}>
            <div class="card-head">
                <strong class="gid">{ &g.id }</strong>
                <span class={classes!("badge", card_class)} title={i18n::group_state_why(lang, g.state)}>{ i18n::group_state(lang, g.state) }</span>
                { coordinator }
            </div>
            <ol class="states" aria-label={i18n::GROUP_STATE.get(lang)}>
                { for (if consumer { &CG_STATES[..] } else { &STATES[..] }).iter().map(|s| html! {
                    <li class={classes!((*s == g.state).then_some("current"))} title={i18n::group_state_why(lang, *s)}>{ s_short(*s) }</li>
                }) }
            </ol>
            <p class="state-why">{ i18n::group_state_why(lang, g.state) }</p>
            if let Some((partition, leader)) = p.offsets_home {
                <button class="offsets-home" data-partition={partition.to_string()} title={crate::i18n_compaction::OFFSETS_LIVE_HINT.get(lang)}
                    onclick={super::send(&p.dispatch, Action::ShowOffsets(Some(partition)))}>
                    { crate::i18n_compaction::offsets_live_in(lang, partition, leader) }
                </button>
            }
            <div class="meta muted">
                if consumer {
                    <span class="item epoch" title={i18n::EPOCH_HINT.get(lang)}>{ format!("{} {} · {} {}", i18n::GROUP_EPOCH.get(lang), g.generation, i18n::TARGET.get(lang), g.assignment_epoch) }</span>
                } else {
                    <span class="item">{ i18n::generation(lang, g.generation) }</span>
                }
                if let Some(leader) = &g.leader { <span class="item">{ format!("{} {leader}", i18n::LEADER.get(lang)) }</span> }
                <span class="item rebalances">{ format!("{}: {}", i18n::REBALANCES.get(lang), g.rebalances) }</span>
                if consumer {
                    <span class="item protocol consumer" title={i18n::PROTOCOL_CONSUMER_HINT.get(lang)}>{ format!("{} {}", i18n::PROTOCOL.get(lang), i18n::PROTOCOL_CONSUMER.get(lang)) }</span>
                    <span class="item remote-assignor" title={i18n::PROTOCOL_CONSUMER_HINT.get(lang)}>{ format!("{} {} (broker)", i18n::ASSIGNOR.get(lang), g.remote_assignor) }</span>
                } else {
                    <span class="item protocol" title={i18n::protocol_hint(lang, g.protocol)}>{ format!("{} {}", i18n::PROTOCOL.get(lang), i18n::protocol(lang, g.protocol)) }</span>
                    <label class="item" title={i18n::ASSIGNOR_HINT.get(lang)}>
                        { i18n::ASSIGNOR.get(lang) }{ " " }
                        { picker("assignor", i18n::ASSIGNOR_HINT.get(lang), g.assignor.name(), &assignors, set_assignor) }
                    </label>
                }
                if g.delivery == kafka_sandbox_core::config::DeliveryMode::Push {
                    <span class="item push-badge" title={i18n::PUSH_HINT.get(lang)}>{ i18n::PUSH_BADGE.get(lang) }</span>
                }
                <span class="item">{ format!("auto.offset.reset={}", match g.auto_offset_reset { OffsetReset::Earliest => "earliest", OffsetReset::Latest => "latest", OffsetReset::None => "none" }) }</span>
            </div>
            if let Some(due) = g.join_phase_ends {
                <div class="rebalance-note">{ i18n::rebalance_due_line(lang, due.ms(), g.initial_rebalance) }</div>
            }
            <div class="counters">
                <span class={classes!("duplicates", (g.duplicates > 0).then_some("bad"))} title={i18n::DUPLICATES_HINT.get(lang)}>
                    { format!("{}: {}", i18n::DUPLICATES.get(lang), g.duplicates) }
                </span>
                <span class={classes!("lost", (g.lost > 0).then_some("bad"))} title={i18n::UNPROCESSED_COUNT_HINT.get(lang)}>
                    { format!("{}: {}", i18n::UNPROCESSED_COUNT.get(lang), g.lost) }
                </span>
                <span class="item downtime muted" title={i18n::METRIC_DOWNTIME.get(lang)}>{ format!("{}: {}", i18n::METRIC_DOWNTIME.get(lang), i18n::seconds(g.partition_downtime_ms)) }</span>
                if g.duplicates > 0 { <span class="cause dup-why">{ i18n::DUPLICATES_HINT.get(lang) }</span> }
                if g.lost > 0 { <span class="cause lost-why">{ i18n::UNPROCESSED_COUNT_HINT.get(lang) }</span> }
            </div>
            if !g.duplicate_details.is_empty() {
                <details class="why-list dup-list">
                    <summary>{ format!("{} ({})", i18n::DUP_LIST.get(lang), g.duplicate_details.len()) }</summary>
                    <ul>{ for g.duplicate_details.iter().rev().map(|d| html! { <li>{ i18n::duplicate_line(lang, d) }</li> }) }</ul>
                </details>
            }
            if !g.unprocessed_details.is_empty() {
                <details class="why-list lost-list">
                    <summary>{ format!("{} ({})", i18n::LOST_LIST.get(lang), g.unprocessed_details.len()) }</summary>
                    <ul>{ for g.unprocessed_details.iter().map(|l| html! { <li>{ i18n::lost_line(lang, l) }</li> }) }</ul>
                </details>
            }
            <ul class="members">
                { for g.members.iter().map(|m| html! {
                    <MemberRow key={m.client_id.clone()} {lang} {consumer} {many_topics} group={g.id.clone()} member={m.clone()}
                        registered={g.registered.contains(&m.client_id)}
                        left={p.log.left(&m.client_id)} dispatch={p.dispatch.clone()} />
                }) }
            </ul>
            <div class="group-foot">
                <span class="muted small">{ format!("{}: {}", i18n::COMMITTED.get(lang), if committed.is_empty() { i18n::NONE.get(lang).to_string() } else { committed.join(", ") }) }</span>
                <span class="add-buttons">
                    <button class="add-member" title={i18n::ADD_MEMBER_HINT.get(lang)} onclick={add}>{ i18n::ADD_MEMBER.get(lang) }</button>
                    <button class="add-static-member" title={i18n::ADD_STATIC_HINT.get(lang)} onclick={add_static}>{ i18n::ADD_STATIC.get(lang) }</button>
                </span>
            </div>
            <details class="describe">
                <summary title={i18n::classroom::DESCRIBE_HINT.get(lang)}><code>{ i18n::classroom::DESCRIBE.get(lang) }</code></summary>
                <pre class="describe-table" aria-label={i18n::classroom::DESCRIBE.get(lang)}><code>{ p.describe.trim_start_matches('\n') }</code></pre>
            </details>
            <div class="timeline">
                <div class="tl-head">
                    <h3>{ i18n::TIMELINE.get(lang) }</h3>
                    <button class="step-group" title={i18n::STEP_GROUP_HINT.get(lang)} onclick={step_group}>{ i18n::STEP_GROUP.get(lang) }</button>
                </div>
                // Oldest first, as a story reads; the box scrolls from its end (CSS), so the
                // newest line is in view.
                <div class="tl-scroll">
                <ol class="tl">
                    if p.log.events.is_empty() {
                        <li class="muted">{ i18n::TIMELINE_EMPTY.get(lang) }</li>
                    }
                    { for p.log.events.iter().enumerate().map(|(i, e)| html! {
                        <li key={e.seq} data-seq={e.seq.to_string()} class={classes!((i + 1 == p.log.events.len()).then_some("newest"))}>
                            <span class="t">{ i18n::seconds(e.time.ms()) }</span>
                            <span class="what">{ i18n::timeline_line(lang, &e.kind) }</span>
                            if let Some((more, last)) = p.log.repeated.get(&e.seq) {
                                <span class="repeat muted">{ i18n::repeated_line(lang, *more, last.ms()) }</span>
                            }
                        </li>
                    }) }
                </ol>
                </div>
            </div>
        </div>
    }
}

/// The simulated clock, as a context: the countdowns read it, so a member card whose
/// member did not change is not rendered again just because time moved.
#[derive(Clone, Copy, PartialEq)]
pub struct Now(pub SimTime);

#[derive(Properties, PartialEq)]
struct CountdownProps {
    lang: Lang,
    session: Option<SimTime>,
    poll: Option<SimTime>,
    stopped_since: Option<SimTime>,
    crashed: bool,
}

/// Live countdowns: the session deadline (while the coordinator still counts the member),
/// the poll deadline (while the application is outside `poll()`), and a pause under way.
#[component]
fn Countdowns(p: &CountdownProps) -> Html {
    let lang = p.lang;
    let now = use_context::<Now>().map(|n| n.0).unwrap_or_default();
    let left = |t: SimTime| i18n::seconds(t.ms().saturating_sub(now.ms()));
    let paused = p.stopped_since.map(|s| i18n::seconds(now.ms().saturating_sub(s.ms())));
    if p.session.is_none() && p.poll.is_none() && paused.is_none() {
        return html! {};
    }
    html! {
        <div class="countdowns small">
            if let Some(t) = p.session {
                <span class={classes!("cd-session", p.crashed.then_some("bad"))} title={i18n::SESSION_LEFT_HINT.get(lang)}>{ format!("{} {}", i18n::SESSION_LEFT.get(lang), left(t)) }</span>
            }
            if let Some(t) = p.poll {
                <span class="cd-poll" title={i18n::POLL_LEFT_HINT.get(lang)}>{ format!("{} {}", i18n::POLL_LEFT.get(lang), left(t)) }</span>
            }
            if let Some(d) = paused {
                <span class="cd-paused bad">{ format!("{} {d}", i18n::PAUSED_NOW.get(lang)) }</span>
            }
        </div>
    }
}

/// The state's own name, the same in every language (Kafka's).
fn s_short(s: GroupState) -> &'static str {
    match s {
        GroupState::Empty => "Empty",
        GroupState::PreparingRebalance => "PreparingRebalance",
        GroupState::CompletingRebalance => "CompletingRebalance",
        GroupState::Stable => "Stable",
        GroupState::Reconciling => "Reconciling",
    }
}

/// A KIP-848 member's reconciliation state as its class names it (`r-` and the variant's
/// name in lower case).
fn reconcile_class(r: Reconcile) -> &'static str {
    match r {
        Reconcile::Stable => "r-stable",
        Reconcile::UnrevokedPartitions => "r-unrevokedpartitions",
        Reconcile::UnreleasedPartitions => "r-unreleasedpartitions",
    }
}

/// What a member is doing as its class names it (`a-` and the variant's name in lower case).
fn activity_class(a: Activity) -> &'static str {
    match a {
        Activity::AwaitingAssignment => "a-awaitingassignment",
        Activity::Idle => "a-idle",
        Activity::Fetching => "a-fetching",
        Activity::Processing => "a-processing",
    }
}

fn phase_key(p: Phase) -> &'static str {
    match p {
        Phase::Joining => "joining",
        Phase::Syncing => "syncing",
        Phase::Stable => "stable",
        Phase::LeftPollTimeout => "left",
        Phase::Crashed => "crashed",
    }
}

#[derive(Properties, PartialEq)]
struct MemberRowProps {
    lang: Lang,
    /// The group speaks the KIP-848 consumer protocol.
    consumer: bool,
    /// The group reads more than one topic: partitions are named `topic-partition`.
    many_topics: bool,
    group: String,
    member: MemberView,
    /// Whether the coordinator still counts it as a member.
    registered: bool,
    /// Why and when the coordinator removed it, if it did.
    left: Option<(SimTime, LeaveReason)>,
    dispatch: Callback<Action>,
}

#[component]
fn MemberRow(p: &MemberRowProps) -> Html {
    let lang = p.lang;
    let m = &p.member;
    let d = &p.dispatch;
    let (group, client_id) = (p.group.clone(), m.client_id.clone());
    let crashed = m.phase == Phase::Crashed;
    let remove = {
        let (group, client_id) = (group.clone(), client_id.clone());
        send(d, Action::Apply(GroupCommand::RemoveMember { group: group.clone(), client_id: client_id.clone() }.into()))
    };
    let life = {
        let (group, client_id) = (group.clone(), client_id.clone());
        if crashed {
            html! { <button class="restart-member primary" title={i18n::MEMBER_RESTART_HINT.get(lang)}
            onclick={send(d, Action::Apply(GroupCommand::RestartMember { group: group.clone(), client_id: client_id.clone() }.into()))}>{ i18n::RESTART.get(lang) }</button> }
        } else {
            html! { <button class="crash-member" title={i18n::MEMBER_CRASH_HINT.get(lang)}
            onclick={send(d, Action::Apply(GroupCommand::CrashMember { group: group.clone(), client_id: client_id.clone() }.into()))}>{ i18n::CRASH.get(lang) }</button> }
        }
    };
    let pause = {
        let (group, client_id) = (group.clone(), client_id.clone());
        let paused = !m.paused;
        let onclick = d.reform(move |_| {
            Action::Apply(GroupCommand::PauseMember { group: group.clone(), client_id: client_id.clone(), paused }.into())
        });
        let (class, label) = if m.paused { ("resume-member primary", i18n::RESUME_MEMBER) } else { ("pause-member", i18n::PAUSE_MEMBER) };
        html! { <button class={class} title={i18n::PAUSE_MEMBER_HINT.get(lang)} disabled={crashed} {onclick}>{ label.get(lang) }</button> }
    };
    let processing = {
        let mut choices: Vec<u64> = PROCESSING_CHOICES_MS.to_vec();
        if !choices.contains(&m.processing_ms) {
            choices.push(m.processing_ms);
            choices.sort_unstable();
        }
        let options: Vec<(String, String)> = choices.iter().map(|ms| (ms.to_string(), i18n::per_record(lang, *ms))).collect();
        let (group, client_id) = (group.clone(), client_id.clone());
        let current = m.processing_ms;
        let on_pick = d.reform(move |v: String| {
            Action::Apply(
                GroupCommand::SetProcessing {
                    group: group.clone(),
                    client_id: client_id.clone(),
                    processing_ms: v.parse().unwrap_or(current),
                }
                .into(),
            )
        });
        picker("processing", i18n::PROCESSING_HINT.get(lang), &m.processing_ms.to_string(), &options, on_pick)
    };
    let commit = {
        let options: Vec<(String, String)> =
            COMMIT_MODES.iter().map(|c| (commit_mode_value(*c).to_string(), i18n::commit_mode(lang, *c).to_string())).collect();
        let (group, client_id) = (group.clone(), client_id.clone());
        let current = m.commit_mode;
        let on_pick = d.reform(move |v: String| {
            Action::Apply(
                GroupCommand::SetCommitMode {
                    group: group.clone(),
                    client_id: client_id.clone(),
                    commit_mode: commit_mode_from(&v).unwrap_or(current),
                }
                .into(),
            )
        });
        picker("commit-mode", i18n::COMMIT_MODE_HINT.get(lang), commit_mode_value(m.commit_mode), &options, on_pick)
    };
    let seek = {
        use kafka_sandbox_core::command::SeekTo;
        let (group, client_id) = (group.clone(), client_id.clone());
        let options: Vec<(String, String)> = vec![
            (String::new(), i18n::SEEK.get(lang).to_string()),
            ("beginning".into(), "seekToBeginning".into()),
            ("end".into(), "seekToEnd".into()),
        ];
        let on_pick = d.reform(move |v: String| Action::Seek {
            group: group.clone(),
            client_id: client_id.clone(),
            to: if v == "end" { SeekTo::End } else { SeekTo::Beginning },
        });
        let on_pick = Callback::from(move |v: String| {
            if !v.is_empty() {
                on_pick.emit(v)
            }
        });
        picker("seek", i18n::SEEK_HINT.get(lang), "", &options, on_pick)
    };
    let idle = m.activity == Activity::Idle;
    // Keyed by position in everything the member received, so a new record adds one chip
    // instead of shifting (and re-animating) all of them.
    let shown = m.received.len().min(CHIPS_SHOWN);
    let first = m.received_total.saturating_sub(shown as u64);
    let chips: Html = m.received[m.received.len() - shown..]
        .iter()
        .enumerate()
        .map(|(i, d)| html! {
            <span key={first + i as u64} class="rec" style={record_style(d.record.0)} title={format!("{} · {} @{}", d.value, crate::view::part_label(&d.tp, p.many_topics), d.offset)}
                data-record={d.record.0.to_string()} data-value={d.value.to_string()} role="button" tabindex="0"
                onkeydown={p.dispatch.reform({ let id = d.record; move |e: KeyboardEvent| if e.key() == "Enter" { Action::ShowRecord(Some(id)) } else { Action::Noop } })}
                onclick={p.dispatch.reform({ let id = d.record; move |_| Action::ShowRecord(Some(id)) })}>{ d.value.to_string() }</span>
        })
        .collect();
    let parts = if m.assigned.is_empty() {
        "—".to_string()
    } else {
        m.assigned.iter().map(|tp| crate::view::part_label(tp, p.many_topics)).collect::<Vec<_>>().join(" ")
    };
    let member_id = if m.member_id.is_empty() { i18n::NO_MEMBER_ID.get(lang).to_string() } else { format!("member id: {}", m.member_id) };
    // What the coordinator made of a member that is gone.
    let note = match (m.phase, p.registered, p.left) {
        (Phase::Crashed, true, _) => Some(i18n::CRASHED_STILL_MEMBER.get(lang).to_string()),
        (Phase::Crashed | Phase::LeftPollTimeout, false, Some((at, reason))) => Some(i18n::removed_line(lang, at.ms(), reason, p.consumer)),
        _ => None,
    };
    // While joining or syncing the phase badge already says it waits for an assignment.
    let active = m.phase == Phase::Stable;
    html! {
        <li class={classes!("member", format!("phase-{}", phase_key(m.phase)), idle.then_some("idle"), m.paused.then_some("paused"))}
            data-client={m.client_id.clone()} data-phase={phase_key(m.phase)}>
            <div class="member-head">
                <span class="cid" title={member_id}>{ &m.client_id }</span>
                <span class={classes!("phase", format!("p-{}", phase_key(m.phase)))} title={i18n::phase_hint(lang, m.phase)}>{ i18n::phase(lang, m.phase) }</span>
                <span class="mgen">{ if m.reconcile.is_some() || p.consumer { i18n::member_epoch(lang, m.generation) } else { i18n::member_generation(lang, m.generation) } }</span>
                if let Some(r) = m.reconcile {
                    <span class={classes!("reconcile", reconcile_class(r))} title={i18n::RECONCILE_HINT.get(lang)}>
                        { i18n::reconcile(lang, r) }
                        if r != Reconcile::Stable {
                            { format!(" → {}", m.target.iter().map(|tp| crate::view::part_label(tp, p.many_topics)).collect::<Vec<_>>().join(" ")) }
                        }
                    </span>
                }
                <span class="parts">{ parts }</span>
                if active {
                    <span class={classes!("activity", activity_class(m.activity))}>{ i18n::activity(lang, m.activity) }</span>
                } else {
                    <span class="activity" />
                }
                <button class="remove" title={i18n::REMOVE_MEMBER_HINT.get(lang)} aria-label={format!("{} {}", i18n::REMOVE_MEMBER_HINT.get(lang), m.client_id)} onclick={remove}>{ "×" }</button>
            </div>
            if m.paused && !crashed {
                <div class="member-note stuck">{ i18n::STUCK.get(lang) }</div>
            }
            <Countdowns {lang} session={m.session_deadline.filter(|_| p.registered)} poll={m.poll_deadline.filter(|_| !crashed)}
                stopped_since={m.stopped_since} {crashed} />
            if let Some(text) = note {
                <div class={classes!("member-note", if p.registered { "pending" } else { "removed" })}>{ text }</div>
            }
            <div class="member-controls">
                { life }
                { pause }
                <label title={i18n::PROCESSING_HINT.get(lang)}>{ i18n::PROCESSING_TIME.get(lang) }{ processing }</label>
                <label title={i18n::COMMIT_MODE_HINT.get(lang)}>{ i18n::COMMIT_MODE.get(lang) }{ commit }</label>
                if !crashed && !m.assigned.is_empty() { { seek } }
            </div>
            <div class="member-stats">
                <span class="processed">{ format!("{}: {}", i18n::PROCESSED.get(lang), m.processed_total) }</span>
                if m.buffered > 0 {
                    <span class="buffered bad">{ format!("{}: {}", i18n::BUFFERED.get(lang), m.buffered) }</span>
                }
                <span class="rebalance-pause" title={i18n::REBALANCE_STOPPED_HINT.get(lang)}>
                    { format!("{}: {}", i18n::REBALANCE_STOPPED.get(lang), i18n::seconds(m.rebalance_stopped_ms)) }
                </span>
            </div>
            <div class="received">
                if m.received.is_empty() {
                    <span class="muted">{ if idle { i18n::IDLE.get(lang) } else { i18n::NOTHING_YET.get(lang) } }</span>
                }
                { chips }
            </div>
            { super::paste_properties(lang, crate::state::PasteTarget::Member { group: p.group.clone(), client_id: m.client_id.clone() }, d) }
        </li>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The classes are the variants' names in lower case, as when they were written with
    /// `Debug` (the stylesheet and the end-to-end tests name them).
    #[test]
    fn state_classes_are_the_variants_names() {
        for r in [Reconcile::Stable, Reconcile::UnrevokedPartitions, Reconcile::UnreleasedPartitions] {
            assert_eq!(reconcile_class(r), format!("r-{r:?}").to_ascii_lowercase());
        }
        for a in [Activity::AwaitingAssignment, Activity::Idle, Activity::Fetching, Activity::Processing] {
            assert_eq!(activity_class(a), format!("a-{a:?}").to_ascii_lowercase());
        }
    }
}
