//! Transactions (issue 17): each transactional producer's card — its `transactional.id`,
//! producer id and epoch, state, the open transaction's partitions, its coordinator and
//! the coordinator's state — with begin / commit / abort, crash / restart and "start a
//! second instance" (a zombie gets fenced); each group's `isolation.level` side by side
//! with a switch; each Streams application's `processing.guarantee` with a switch. Also the
//! log cells' marks (markers, open, committed and aborted records) the topic panel uses.
//! Shown only when the scenario has a transactional producer, a read_committed group or a
//! Streams application.

use super::send;
use crate::i18n::Lang;
use crate::i18n_txn as t;
use crate::state::Action;
use kafka_sandbox_core::command::TxnCommand;
use kafka_sandbox_core::config::{IsolationLevel, ProcessingGuarantee};
use kafka_sandbox_core::event::ClientTxnState;
use kafka_sandbox_core::read::{TxnMark, TxnPartition};
use kafka_sandbox_core::snapshot::{GroupView, ProducerView, RecordView, TxnProducerView};
use std::rc::Rc;
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct TransactionsProps {
    pub lang: Lang,
    /// The snapshot's producers (shared with the producers panel).
    pub producers: Rc<Vec<ProducerView>>,
    /// The snapshot's groups (shared with the groups panel).
    pub groups: Rc<Vec<GroupView>>,
    /// Each Streams application's id and guarantee.
    pub streams: Rc<Vec<(String, ProcessingGuarantee)>>,
    pub dispatch: Callback<Action>,
}

/// Whether the panel has anything to show.
pub fn shown(producers: &[ProducerView], groups: &[GroupView], streams: &[(String, ProcessingGuarantee)]) -> bool {
    producers.iter().any(|p| p.transaction.is_some())
        || groups.iter().any(|g| g.isolation_level == IsolationLevel::ReadCommitted)
        || !streams.is_empty()
}

#[component]
pub fn Transactions(p: &TransactionsProps) -> Html {
    let lang = p.lang;
    if !shown(&p.producers, &p.groups, &p.streams) {
        return html! {};
    }
    let names: Vec<&str> = p.producers.iter().map(|x| x.name.as_str()).collect();
    html! {
        <section id="transactions" class="panel transactions" aria-label={t::TXN_TITLE.get(lang)}>
            <h2 title={t::TXN_HINT.get(lang)}>{ t::TXN_TITLE.get(lang) }</h2>
            <div class="txn-grid">
                { for p.producers.iter().filter_map(|x| x.transaction.as_ref().map(|v| (x, v))).map(|(x, v)| card(lang, &x.name, v, &names, &p.dispatch)) }
            </div>
            if !p.groups.is_empty() {
                <div class="txn-isolation">
                    <h3>{ t::TXN_ISOLATION.get(lang) }</h3>
                    <div class="txn-groups">
                        { for p.groups.iter().map(|g| isolation(lang, g, &p.dispatch)) }
                    </div>
                </div>
            }
            if !p.streams.is_empty() {
                <div class="txn-guarantee">
                    <h3>{ t::TXN_GUARANTEE.get(lang) }</h3>
                    { for p.streams.iter().map(|(app, g)| guarantee(lang, app, *g, &p.dispatch)) }
                </div>
            }
        </section>
    }
}

fn partition_text(lang: Lang, p: &TxnPartition) -> String {
    match p {
        TxnPartition::Topic { tp } => format!("{}-{}", tp.topic, tp.partition),
        TxnPartition::Offsets { group } => match lang {
            Lang::Zh => format!("{group} 的偏移量"),
            Lang::En => format!("{group}'s offsets"),
        },
    }
}

/// The first free `<name>-<n>` for a second instance.
fn second_name(name: &str, taken: &[&str]) -> String {
    (2..).map(|n| format!("{name}-{n}")).find(|c| !taken.contains(&c.as_str())).unwrap_or_else(|| format!("{name}-x"))
}

fn card(lang: Lang, name: &str, v: &TxnProducerView, names: &[&str], d: &Callback<Action>) -> Html {
    let cmd = |c: TxnCommand| send(d, Action::Apply(c.into()));
    let producer = name.to_string();
    let state = v.state;
    let id_epoch = match v.producer_id_and_epoch {
        Some(tag) => format!("{} / {}", tag.producer_id, tag.producer_epoch),
        None => "—".to_string(),
    };
    let coordinator = v.coordinator.map(|b| format!("B{b}")).unwrap_or_else(|| "—".to_string());
    let coord_state = v.coordinator_state.map(|s| s.name().to_string()).unwrap_or_else(|| "—".to_string());
    let fenced = v.coordinator_epoch.zip(v.producer_id_and_epoch).is_some_and(|(c, tag)| c > i32::from(tag.producer_epoch) + 1);
    let open = !v.coordinator_partitions.is_empty();
    let second = second_name(name, names);
    let mut config =
        kafka_sandbox_core::ProducerConfig { transactional_id: Some(v.transactional_id.clone()), linger_ms: 0, ..Default::default() };
    config.transaction_timeout_ms = v.timeout_ms;
    let crashed = state == ClientTxnState::Crashed;
    let begin = state == ClientTxnState::Ready;
    let end = state == ClientTxnState::InTransaction;
    let abort = matches!(state, ClientTxnState::InTransaction | ClientTxnState::AbortableError);
    html! {
        <div class={classes!("txn-card", crashed.then_some("crashed"), matches!(state, ClientTxnState::FatalError).then_some("fatal"))}
            data-producer={producer.clone()}>
            <div class="txn-head">
                <strong>{ name.to_string() }</strong>
                <span class={classes!("txn-state", format!("state-{}", state.name()))}>{ t::client_state(lang, state) }</span>
            </div>
            <dl class="txn-facts">
                <dt>{ t::TXN_ID.get(lang) }</dt><dd><code class="txn-id">{ v.transactional_id.clone() }</code></dd>
                <dt>{ t::TXN_PRODUCER_ID.get(lang) }</dt><dd class="txn-pid">{ id_epoch }</dd>
                <dt>{ t::TXN_COORDINATOR.get(lang) }</dt><dd class="txn-coordinator">{ coordinator }</dd>
                <dt>{ t::TXN_COORD_STATE.get(lang) }</dt>
                <dd class="txn-coord-state">{ coord_state }
                    if let Some(e) = v.coordinator_epoch { { format!(" · epoch {e}") } }
                </dd>
                <dt>{ t::TXN_OPEN.get(lang) }</dt>
                <dd class="txn-partitions">
                    if open {
                        { v.coordinator_partitions.iter().map(|p| partition_text(lang, p)).collect::<Vec<_>>().join(", ") }
                    } else {
                        <span class="muted">{ t::TXN_NONE_OPEN.get(lang) }</span>
                    }
                </dd>
                <dt>{ t::TXN_COMMITTED_COUNT.get(lang) }</dt><dd>{ format!("{} / {}", v.committed, v.aborted) }</dd>
            </dl>
            if let Some(e) = v.last_error {
                <p class="txn-error err">{ t::txn_error(lang, e) }</p>
            }
            if fenced && !crashed {
                <p class="txn-fenced warn">{ t::TXN_ZOMBIE_HINT.get(lang) }</p>
            }
            <div class="txn-controls">
                <button class="txn-begin" disabled={!begin} onclick={cmd(TxnCommand::BeginTransaction { producer: producer.clone() })}>{ t::TXN_BEGIN.get(lang) }</button>
                <button class="txn-commit primary" disabled={!end} onclick={cmd(TxnCommand::CommitTransaction { producer: producer.clone() })}>{ t::TXN_COMMIT.get(lang) }</button>
                <button class="txn-abort" disabled={!abort} onclick={cmd(TxnCommand::AbortTransaction { producer: producer.clone() })}>{ t::TXN_ABORT.get(lang) }</button>
                if crashed {
                    <button class="txn-restart primary" onclick={cmd(TxnCommand::RestartProducer { producer: producer.clone() })}>{ t::TXN_RESTART.get(lang) }</button>
                } else {
                    <button class="txn-crash" onclick={cmd(TxnCommand::CrashProducer { producer: producer.clone() })}>{ t::TXN_CRASH.get(lang) }</button>
                }
                <button class="txn-zombie" title={t::TXN_ZOMBIE_HINT.get(lang)}
                    onclick={cmd(TxnCommand::AddProducer { producer: second, config })}>{ t::TXN_ZOMBIE.get(lang) }</button>
            </div>
        </div>
    }
}

fn isolation(lang: Lang, g: &GroupView, d: &Callback<Action>) -> Html {
    let other = match g.isolation_level {
        IsolationLevel::ReadCommitted => IsolationLevel::ReadUncommitted,
        IsolationLevel::ReadUncommitted => IsolationLevel::ReadCommitted,
    };
    let received: u64 = g.members.iter().map(|m| m.received_total).sum();
    let command = TxnCommand::SetIsolationLevel { group: g.id.clone(), isolation_level: other };
    html! {
        <div class={classes!("txn-group", format!("iso-{}", g.isolation_level.name()))} data-group={g.id.clone()}>
            <strong>{ g.id.clone() }</strong>
            <code class="iso">{ g.isolation_level.name() }</code>
            <span class="muted">{ format!(" · {received}") }</span>
            <button class="txn-isolation-switch" title={t::ED_ISOLATION_HINT.get(lang)} onclick={send(d, Action::Apply(command.into()))}>
                { format!("{} → {}", t::TXN_ISOLATION_SWITCH.get(lang), other.name()) }
            </button>
        </div>
    }
}

fn guarantee(lang: Lang, app: &str, g: ProcessingGuarantee, d: &Callback<Action>) -> Html {
    let other = match g {
        ProcessingGuarantee::AtLeastOnce => ProcessingGuarantee::ExactlyOnceV2,
        ProcessingGuarantee::ExactlyOnceV2 => ProcessingGuarantee::AtLeastOnce,
    };
    let command = TxnCommand::SetProcessingGuarantee { application_id: app.to_string(), processing_guarantee: other };
    html! {
        <div class="txn-app" data-app={app.to_string()}>
            <strong>{ app.to_string() }</strong>
            <code class="guarantee">{ g.name() }</code>
            <button class="txn-guarantee-switch" title={t::ED_GUARANTEE_HINT.get(lang)} onclick={send(d, Action::Apply(command.into()))}>
                { format!("{} → {}", t::TXN_GUARANTEE_SWITCH.get(lang), other.name()) }
            </button>
        </div>
    }
}

/// The class a log cell gets for what the record is to transactions.
pub fn cell_class(r: &RecordView) -> Option<&'static str> {
    r.txn.map(|m| match m {
        TxnMark::Open => "txn-open",
        TxnMark::Committed => "txn-committed",
        TxnMark::Aborted => "txn-aborted",
        TxnMark::CommitMarker => "marker marker-commit",
        TxnMark::AbortMarker => "marker marker-abort",
    })
}

/// What a marker cell shows instead of a value.
pub fn cell_value(lang: Lang, r: &RecordView) -> Option<&'static str> {
    match r.txn? {
        TxnMark::CommitMarker => Some(t::TXN_CELL_COMMIT.get(lang)),
        TxnMark::AbortMarker => Some(t::TXN_CELL_ABORT.get(lang)),
        _ => None,
    }
}

/// The explanation a log cell's title adds.
pub fn cell_hint(lang: Lang, r: &RecordView) -> Option<&'static str> {
    match r.txn? {
        TxnMark::Open => Some(t::TXN_ONGOING_HINT.get(lang)),
        TxnMark::Aborted => Some(t::TXN_ABORTED_HINT.get(lang)),
        TxnMark::Committed => Some(t::TXN_FATE_COMMITTED.get(lang)),
        TxnMark::CommitMarker | TxnMark::AbortMarker => Some(t::TXN_MARKER_HINT.get(lang)),
    }
}
