//! Consumer groups: state, generation, assignor, members with their partitions and
//! the messages each received, and controls to add/remove members and groups.

use super::record_style;
use crate::i18n::{self, Lang};
use crate::state::Action;
use kafka_sandbox_core::assign::Strategy;
use kafka_sandbox_core::config::OffsetReset;
use kafka_sandbox_core::group::{Activity, GroupState};
use kafka_sandbox_core::snapshot::GroupView;
use kafka_sandbox_core::Snapshot;
use std::rc::Rc;
use web_sys::{HtmlInputElement, HtmlSelectElement};
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct GroupsProps {
    pub lang: Lang,
    pub snap: Rc<Snapshot>,
    pub dispatch: Callback<Action>,
}

fn strategy_from(v: &str) -> Strategy {
    if v == "roundrobin" {
        Strategy::RoundRobin
    } else {
        Strategy::Range
    }
}

#[component]
pub fn Groups(p: &GroupsProps) -> Html {
    let lang = p.lang;
    let id_ref = use_node_ref();
    let reset_ref = use_node_ref();
    let assignor_ref = use_node_ref();
    let next_id = format!("ConsumerGroup{:02}", p.snap.groups.len() + 1);
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
                _ => OffsetReset::Earliest,
            };
            let assignor = strategy_from(&assignor_ref.cast::<HtmlSelectElement>().map(|s| s.value()).unwrap_or_default());
            if let Some(i) = id_ref.cast::<HtmlInputElement>() {
                i.set_value("");
            }
            dispatch.emit(Action::AddGroup { id, reset, assignor });
        })
    };
    html! {
        <div class="panel groups">
            <h2>{ i18n::GROUPS.get(lang) }</h2>
            { for p.snap.groups.iter().map(|g| html! { <GroupCard key={g.id.clone()} {lang} group={g.clone()} dispatch={p.dispatch.clone()} /> }) }
            <details class="card add-group">
                <summary id="add-group-open">{ i18n::ADD_GROUP.get(lang) }</summary>
                <form id="add-group-form" onsubmit={create}>
                    <label class="row">{ i18n::GROUP_ID.get(lang) }<input id="group-id" ref={id_ref} placeholder={next_id} maxlength="64" autocomplete="off" /></label>
                    <label class="row">{ i18n::RESET_POLICY.get(lang) }
                        <select id="group-reset" ref={reset_ref}>
                            <option value="earliest" selected=true>{ "earliest" }</option>
                            <option value="latest">{ "latest" }</option>
                        </select>
                    </label>
                    <label class="row">{ i18n::ASSIGNOR.get(lang) }
                        <select id="group-assignor" ref={assignor_ref}>
                            <option value="range" selected=true>{ "range" }</option>
                            <option value="roundrobin">{ "roundrobin" }</option>
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
    dispatch: Callback<Action>,
}

#[component]
fn GroupCard(p: &GroupCardProps) -> Html {
    let lang = p.lang;
    let g = &p.group;
    let add = {
        let group = g.id.clone();
        p.dispatch.reform(move |_| Action::AddMember { group: group.clone() })
    };
    let set_assignor = {
        let group = g.id.clone();
        p.dispatch.reform(move |e: Event| Action::SetAssignor {
            group: group.clone(),
            assignor: strategy_from(&e.target_unchecked_into::<HtmlSelectElement>().value()),
        })
    };
    let state_class = match g.state {
        GroupState::Empty => "empty",
        GroupState::PreparingRebalance | GroupState::CompletingRebalance => "rebalancing",
        GroupState::Stable => "stable",
    };
    let committed: Vec<String> = g.committed.iter().map(|(tp, o)| format!("P{}={o}", tp.partition)).collect();
    html! {
        <div class={classes!("group", "card", state_class)} data-group={g.id.clone()}>
            <div class="card-head">
                <strong class="gid">{ &g.id }</strong>
                <span class={classes!("badge", state_class)}>{ i18n::group_state(lang, g.state) }</span>
            </div>
            <div class="meta muted">
                { format!("{} · ", i18n::generation(lang, g.generation)) }
                if let Some(leader) = &g.leader { { format!("{} {leader} · ", i18n::LEADER.get(lang)) } }
                <label>
                    { i18n::ASSIGNOR.get(lang) }{ " " }
                    <select class="assignor" onchange={set_assignor}>
                        <option value="range" selected={g.assignor == Strategy::Range}>{ "range" }</option>
                        <option value="roundrobin" selected={g.assignor == Strategy::RoundRobin}>{ "roundrobin" }</option>
                    </select>
                </label>
                { format!(" · auto.offset.reset={}", match g.auto_offset_reset { OffsetReset::Earliest => "earliest", OffsetReset::Latest => "latest" }) }
            </div>
            if let Some(due) = g.rebalance_due {
                <div class="rebalance-note">
                    { format!("{}{:.1} s", i18n::REBALANCE_DUE.get(lang), due.ms() as f64 / 1000.0) }
                    { if g.initial_rebalance { i18n::INITIAL_DELAY.get(lang) } else { i18n::REBALANCE_ROUND.get(lang) } }
                </div>
            }
            <ul class="members">
                { for g.members.iter().map(|m| {
                    let remove = {
                        let group = g.id.clone();
                        let client_id = m.client_id.clone();
                        p.dispatch.reform(move |_| Action::RemoveMember { group: group.clone(), client_id: client_id.clone() })
                    };
                    let idle = m.activity == Activity::Idle;
                    // Keyed by position in everything the member received, so a new record
                    // adds one chip instead of shifting (and re-animating) all of them.
                    let shown = m.received.len().min(60);
                    let first = m.received_total.saturating_sub(shown as u64);
                    let chips: Html = m.received[m.received.len() - shown..]
                        .iter()
                        .enumerate()
                        .map(|(i, d)| html! {
                            <span key={first + i as u64} class="rec" style={record_style(d.record.0)} title={format!("P{} @{}", d.tp.partition, d.offset)}>{ &d.value }</span>
                        })
                        .collect();
                    let parts = if m.assigned.is_empty() {
                        "—".to_string()
                    } else {
                        m.assigned.iter().map(|tp| format!("P{}", tp.partition)).collect::<Vec<_>>().join(" ")
                    };
                    html! {
                        <li key={m.member_id.clone()} class={classes!("member", idle.then_some("idle"))} data-client={m.client_id.clone()} title={m.member_id.clone()}>
                            <div class="member-head">
                                <span class="cid">{ &m.client_id }</span>
                                <span class="parts">{ parts }</span>
                                <span class={classes!("activity", format!("a-{:?}", m.activity).to_lowercase())}>{ i18n::activity(lang, m.activity) }</span>
                                <button class="remove" title={i18n::REMOVE_MEMBER_HINT.get(lang)} aria-label={format!("{} {}", i18n::REMOVE_MEMBER_HINT.get(lang), m.client_id)} onclick={remove}>{ "×" }</button>
                            </div>
                            <div class="received">
                                if m.received.is_empty() {
                                    <span class="muted">{ if idle { i18n::IDLE.get(lang) } else { i18n::NOTHING_YET.get(lang) } }</span>
                                }
                                { chips }
                            </div>
                        </li>
                    }
                }) }
            </ul>
            <div class="group-foot">
                <span class="muted small">{ format!("{}: {}", i18n::COMMITTED.get(lang), if committed.is_empty() { i18n::NONE.get(lang).to_string() } else { committed.join(", ") }) }</span>
                <button class="add-member" title={i18n::ADD_MEMBER_HINT.get(lang)} onclick={add}>{ i18n::ADD_MEMBER.get(lang) }</button>
            </div>
        </div>
    }
}
