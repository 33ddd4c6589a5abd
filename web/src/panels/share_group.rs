//! Share groups (KIP-932): drawn like a consumer group, but several members per partition;
//! each share partition with its SPSO/SPEO window and every in-flight record's state,
//! delivery count and lock countdown; each member with the order it received records; and
//! the controls: add a member (more than partitions, up to 64), crash or restart one, slow
//! one down, switch its acknowledgement mode, make it release or reject a record (a poison
//! pill is archived after the delivery limit).

use super::send;
use crate::i18n::Lang;
use crate::share_group_words::{acknowledge_type, Words as W};
use crate::state::Action;
use kafka_sandbox_core::command::{AcknowledgeType, AcknowledgementMode, ShareGroupCommand, ShareMemberSpec};
use kafka_sandbox_core::share_view::{RecordState, SharePhase};
use kafka_sandbox_core::share_view::{ShareGroupView, ShareMemberView, SharePartitionView};
use kafka_sandbox_core::SimTime;
use std::rc::Rc;
use web_sys::HtmlInputElement;
use yew::prelude::*;

/// The time per record of a slowed member: past the 30 s lock, so its locks expire while
/// it processes.
const SLOW_MS: u64 = 40_000;

#[derive(Properties, PartialEq)]
pub struct ShareGroupsProps {
    pub lang: Lang,
    pub groups: Rc<Vec<ShareGroupView>>,
    pub now: SimTime,
    pub dispatch: Callback<Action>,
}

#[component]
pub fn ShareGroups(p: &ShareGroupsProps) -> Html {
    if p.groups.is_empty() {
        return html! {};
    }
    let lang = p.lang;
    html! {
        <section id="share-groups" class="panel share-groups" aria-label={W::TITLE.get(lang)}>
            <h2>{ W::TITLE.get(lang) }</h2>
            { for p.groups.iter().map(|g| group(lang, g, p.now, &p.dispatch)) }
        </section>
    }
}

fn group(lang: Lang, g: &ShareGroupView, now: SimTime, d: &Callback<Action>) -> Html {
    let id = g.id.clone();
    let next = (1..).map(|i| format!("ShareConsumer{i}")).find(|c| !g.members.iter().any(|m| &m.client_id == c)).unwrap_or_default();
    let add =
        send(d, Action::Apply(ShareGroupCommand::AddShareMember { group: id.clone(), share_member: ShareMemberSpec::new(next) }.into()));
    html! {
        <div class="share-group" id={format!("share-group-{}", g.id)}>
            <h3>
                { format!("{} ", g.id) }
                <span class="badge">{ "group.type share" }</span>
                <span class="meta">{ W::epoch_line(lang, g.group_epoch, g.desired_sharing, g.members.len()) }</span>
            </h3>
            <p class="meta">{ W::counters(lang, g.delivered, g.redelivered, g.acknowledged, g.archived, g.processed_again) }</p>
            <div class="share-partitions">
                { for g.partitions.iter().map(|sp| partition(lang, sp, now)) }
            </div>
            <div class="share-members">
                { for g.members.iter().map(|m| member(lang, &id, m, d)) }
            </div>
            <button class="add-share-member" disabled={g.members.len() >= 64} onclick={add}>{ W::ADD_MEMBER.get(lang) }</button>
        </div>
    }
}

fn state_class(s: RecordState) -> &'static str {
    match s {
        RecordState::Available => "available",
        RecordState::Acquired => "acquired",
        RecordState::Acknowledged => "acknowledged",
        RecordState::Archived => "archived",
    }
}

fn partition(lang: Lang, sp: &SharePartitionView, now: SimTime) -> Html {
    let window = if sp.initialized {
        W::window(lang, sp.start_offset, sp.end_offset, sp.in_flight, sp.high_watermark, sp.lag)
    } else {
        W::NOT_INITIALIZED.get(lang).to_string()
    };
    let cells = sp.records.iter().map(|(r, value)| {
        let lock = r.lock_until.map(|t| format!(" 🔒{:.1}s", t.ms().saturating_sub(now.ms()) as f64 / 1000.0)).unwrap_or_default();
        let owner = r.owner.as_deref().map(|o| format!(" {o}")).unwrap_or_default();
        let title = format!("offset {} · {} · ×{}{owner}{lock}", r.offset, r.state.kafka_name(), r.delivery_count);
        html! {
            <span class={classes!("share-record", state_class(r.state))} title={title.clone()} aria-label={title}>
                <b>{ value.clone() }</b>
                <small>{ format!(" @{} ×{}", r.offset, r.delivery_count) }</small>
                if r.state == RecordState::Acquired { <small class="lock">{ format!("{owner}{lock}") }</small> }
            </span>
        }
    });
    html! {
        <div class="share-partition" id={format!("share-{}-{}", sp.tp.topic, sp.tp.partition)}>
            <div class="share-partition-head">
                <b>{ format!("P{}", sp.tp.partition) }</b>
                <span class="owners">{ W::owners(lang, &sp.owners) }</span>
                <span class="window">{ window }</span>
            </div>
            <div class="share-records">
                <span class="marker spso">{ format!("SPSO {}", sp.start_offset) }</span>
                { for cells }
                <span class="marker speo">{ format!("SPEO {}", sp.end_offset) }</span>
            </div>
        </div>
    }
}

fn member(lang: Lang, group: &str, m: &ShareMemberView, d: &Callback<Action>) -> Html {
    let (g, c) = (group.to_string(), m.client_id.clone());
    let crashed = m.phase == SharePhase::Crashed;
    let crash_or_restart = if crashed {
        send(d, Action::Apply(ShareGroupCommand::RestartShareMember { group: g.clone(), client_id: c.clone() }.into()))
    } else {
        send(d, Action::Apply(ShareGroupCommand::CrashShareMember { group: g.clone(), client_id: c.clone() }.into()))
    };
    let slow = m.processing_ms >= SLOW_MS;
    let toggle_slow = send(
        d,
        Action::Apply(
            ShareGroupCommand::SetShareProcessing {
                group: g.clone(),
                client_id: c.clone(),
                processing_ms: if slow { 10 } else { SLOW_MS },
            }
            .into(),
        ),
    );
    let other_mode = match m.mode {
        AcknowledgementMode::Implicit => AcknowledgementMode::Explicit,
        AcknowledgementMode::Explicit => AcknowledgementMode::Implicit,
    };
    let switch_mode = send(
        d,
        Action::Apply(
            ShareGroupCommand::SetAcknowledgementMode { group: g.clone(), client_id: c.clone(), share_acknowledgement_mode: other_mode }
                .into(),
        ),
    );
    let input = NodeRef::default();
    let rule = |t: AcknowledgeType| {
        let (g, c, input, d) = (g.clone(), c.clone(), input.clone(), d.clone());
        Callback::from(move |_: MouseEvent| {
            let value = input.cast::<HtmlInputElement>().map(|i| i.value()).unwrap_or_default();
            if !value.is_empty() {
                d.emit(Action::Apply(
                    ShareGroupCommand::SetAcknowledgeRule { group: g.clone(), client_id: c.clone(), value, acknowledge_type: Some(t) }
                        .into(),
                ));
            }
        })
    };
    let mode = match m.mode {
        AcknowledgementMode::Implicit => "implicit",
        AcknowledgementMode::Explicit => "explicit",
    };
    let parts: Vec<String> = m.assigned.iter().map(|tp| format!("P{}", tp.partition)).collect();
    html! {
        <div class={classes!("share-member", crashed.then_some("crashed"), slow.then_some("slow"))} id={format!("share-member-{}", m.client_id)}>
            <div class="share-member-head">
                <b>{ m.client_id.clone() }</b>
                <span class="meta">{ W::member_line(lang, m.phase, m.member_epoch, &parts, mode, m.processing_ms) }</span>
            </div>
            <div class="received" aria-label={W::RECEIVED_ORDER.get(lang)}>
                <span class="label">{ W::RECEIVED_ORDER.get(lang) }</span>
                if m.received.is_empty() { <span class="idle">{ W::NOTHING_YET.get(lang) }</span> }
                { for m.received.iter().map(|(v, p, o, n)| html! {
                    <span class={classes!("chip", (*n > 1).then_some("redelivered"))} title={format!("P{p} @{o} ×{n}")}>
                        { if *n > 1 { format!("{v}×{n}") } else { v.clone() } }
                    </span>
                }) }
            </div>
            if !m.rules.is_empty() {
                <div class="rules">
                    { for m.rules.iter().map(|r| html! { <span class="rule">{ format!("{} → {}", r.value, acknowledge_type(lang, r.acknowledge_type)) }</span> }) }
                    if m.mode == AcknowledgementMode::Implicit { <span class="meta">{ W::RULES_INACTIVE.get(lang) }</span> }
                </div>
            }
            <div class="controls">
                <button class="crash" onclick={crash_or_restart}>{ if crashed { W::RESTART.get(lang) } else { W::CRASH.get(lang) } }</button>
                <button class="slow" aria-pressed={slow.to_string()} onclick={toggle_slow}>{ if slow { W::UNSLOW.get(lang) } else { W::SLOW.get(lang) } }</button>
                <button class="mode" onclick={switch_mode}>{ W::switch_mode(lang, other_mode) }</button>
                <input ref={input.clone()} class="rule-value" size="6" placeholder={W::VALUE_PLACEHOLDER.get(lang)} aria-label={W::VALUE_PLACEHOLDER.get(lang)} />
                <button class="release" onclick={rule(AcknowledgeType::Release)}>{ "RELEASE" }</button>
                <button class="reject" onclick={rule(AcknowledgeType::Reject)}>{ "REJECT" }</button>
            </div>
        </div>
    }
}
