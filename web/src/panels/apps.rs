//! Kafka Connect source connectors and Kafka Streams applications of the scenario: for a
//! connector its table, the task's position and the offset flushed to the offsets store
//! (what a restarted task resumes after), with crash / restart; for a Streams app its
//! topology (source → operator → sink), its instances and its state stores per task.
//! Shown only when the scenario has any.

use super::send;
use crate::i18n::{self, Lang};
use crate::state::Action;
use kafka_sandbox_core::command::ConnectCommand;
use kafka_sandbox_core::read::{ConnectorView, QueryMode, SourceOffset, StreamsOp, StreamsView};
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct AppsProps {
    pub lang: Lang,
    pub connectors: Vec<ConnectorView>,
    pub streams: Vec<StreamsView>,
    pub dispatch: Callback<Action>,
}

fn offset(o: Option<&SourceOffset>, lang: Lang) -> String {
    o.map(i18n::source_offset).unwrap_or_else(|| i18n::NONE.get(lang).to_string())
}

fn op_text(op: &StreamsOp) -> String {
    match op {
        StreamsOp::Filter { value_contains } => format!("filter(v → v.contains(\"{value_contains}\"))"),
        StreamsOp::MapUpper {} => "mapValues(v → v.toUpperCase())".to_string(),
        StreamsOp::CountByKey { store } => format!("groupByKey().count(\"{store}\")"),
    }
}

#[component]
pub fn Apps(p: &AppsProps) -> Html {
    let lang = p.lang;
    if p.connectors.is_empty() && p.streams.is_empty() {
        return html! {};
    }
    html! {
        <section id="apps" class="panel apps">
            <h2>{ i18n::APPS.get(lang) }</h2>
            <div class="apps-grid">
                { for p.connectors.iter().map(|c| connector(lang, c, &p.dispatch)) }
                { for p.streams.iter().map(|s| streams(lang, s)) }
            </div>
        </section>
    }
}

fn connector(lang: Lang, c: &ConnectorView, d: &Callback<Action>) -> Html {
    let name = c.name.clone();
    let button = if c.running {
        html! { <button class="crash-connector" title={i18n::CONNECTOR_CRASH_HINT.get(lang)}
        onclick={send(d, Action::Apply(ConnectCommand::CrashConnector { connector: name.clone() }.into()))}>{ i18n::CRASH.get(lang) }</button> }
    } else {
        html! { <button class="restart-connector primary" onclick={send(d, Action::Apply(ConnectCommand::RestartConnector { connector: name.clone() }.into()))}>{ i18n::RESTART.get(lang) }</button> }
    };
    let mode = match c.mode {
        QueryMode::Incrementing => "incrementing",
        QueryMode::TimestampIncrementing => "timestamp+incrementing",
    };
    html! {
        <div class={classes!("card", "connector", (!c.running).then_some("crashed"))} data-connector={c.name.clone()}>
            <div class="card-head">
                <strong>{ &c.name }</strong>
                <span class="badge">{ i18n::SOURCE_CONNECTOR.get(lang) }</span>
                <span class="muted small">{ format!("mode={mode} → {}", c.topic) }</span>
                { button }
            </div>
            <table class="rows small">
                <thead><tr><th>{ "id" }</th><th>{ i18n::VALUE.get(lang) }</th><th>{ i18n::MODIFIED.get(lang) }</th></tr></thead>
                <tbody>
                    { for c.rows.iter().map(|r| html! {
                        <tr><td>{ r.id }</td><td>{ &r.value }</td><td>{ format!("{} ms", r.modified_ms) }</td></tr>
                    }) }
                </tbody>
            </table>
            <p class="small">
                <span class="position">{ format!("{}: {}", i18n::TASK_POSITION.get(lang), offset(c.position.as_ref(), lang)) }</span>{ " · " }
                <span class="committed" title={i18n::FLUSHED_HINT.get(lang)}>{ format!("{}: {}", i18n::FLUSHED_OFFSET.get(lang), offset(c.committed.as_ref(), lang)) }</span>{ " · " }
                <span class={classes!("unflushed", (c.unflushed > 0).then_some("bad"))}>{ format!("{}: {}", i18n::UNFLUSHED.get(lang), c.unflushed) }</span>{ " · " }
                <span>{ format!("{}: {}", i18n::SENT.get(lang), c.sent_total) }</span>
            </p>
        </div>
    }
}

fn streams(lang: Lang, s: &StreamsView) -> Html {
    html! {
        <div class="card streams" data-streams={s.application_id.clone()}>
            <div class="card-head">
                <strong>{ &s.application_id }</strong>
                <span class="badge">{ i18n::STREAMS_APP.get(lang) }</span>
            </div>
            <p class="topology"><code>{ format!("{} → {} → {}", s.source, op_text(&s.op), s.sink) }</code></p>
            <p class="small muted">
                { format!("{}: {}", i18n::INSTANCES.get(lang), s.instances.join(", ")) }
                if let Some(c) = &s.changelog { { format!(" · {}: {c}", i18n::CHANGELOG.get(lang)) } }
                { format!(" · commit.interval.ms={} · {}: {} · {}: {}", s.commit_interval_ms, i18n::PROCESSED.get(lang), s.processed_total, i18n::SENT.get(lang), s.output_total) }
            </p>
            if !s.stores.is_empty() {
                <table class="stores small">
                    <thead><tr><th>{ i18n::TASK.get(lang) }</th><th>{ i18n::HELD_BY.get(lang) }</th><th>{ i18n::COUNTS.get(lang) }</th></tr></thead>
                    <tbody>
                        { for s.stores.iter().map(|st| html! {
                            <tr data-task={st.partition.to_string()}>
                                <td>{ format!("P{}", st.partition) }</td>
                                <td>{ st.instance.clone().unwrap_or_else(|| "—".into()) }</td>
                                <td>{ st.counts.iter().map(|(k, n)| format!("{k}={n}")).collect::<Vec<_>>().join(", ") }</td>
                            </tr>
                        }) }
                    </tbody>
                </table>
            }
        </div>
    }
}
