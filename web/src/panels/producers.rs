//! Producers: their settings, what they sent and where it went, and the produce form.

use super::record_style;
use crate::i18n::{self, Lang};
use crate::state::{Action, RetryWatch};
use kafka_sandbox_core::command::ProduceCommand;
use kafka_sandbox_core::config::Acks;
use kafka_sandbox_core::config::PartitionerKind;
use kafka_sandbox_core::snapshot::ProducerView;
use std::rc::Rc;
use web_sys::{HtmlInputElement, HtmlSelectElement};
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct ProducersProps {
    pub lang: Lang,
    /// The producers (built from the read layer each frame: a frame where none changed
    /// does not render the panel again), and the first topic's name and partitions (the
    /// produce form's target).
    pub producers: Rc<Vec<ProducerView>>,
    pub topic: AttrValue,
    pub partitions: u32,
    pub last_produce: Option<String>,
    pub next_value: String,
    /// The error each producer is retrying after.
    pub retries: RetryWatch,
    /// Records the producer was acknowledged for and a leader change then lost.
    #[prop_or_default]
    pub lost: Rc<kafka_sandbox_core::vecmap::VecMap<kafka_sandbox_core::record::RecordId, kafka_sandbox_core::event::LossCause>>,
    pub dispatch: Callback<Action>,
}

#[component]
pub fn Producers(p: &ProducersProps) -> Html {
    let lang = p.lang;
    let producer_ref = use_node_ref();
    let key_ref = use_node_ref();
    let value_ref = use_node_ref();
    let partition_ref = use_node_ref();
    let topic = p.topic.to_string();
    let partitions = p.partitions;
    let send = {
        let (producer_ref, key_ref, value_ref, partition_ref) =
            (producer_ref.clone(), key_ref.clone(), value_ref.clone(), partition_ref.clone());
        let dispatch = p.dispatch.clone();
        let topic = topic.clone();
        let fallback_value = p.next_value.clone();
        Callback::from(move |e: SubmitEvent| {
            e.prevent_default();
            let producer = producer_ref.cast::<HtmlSelectElement>().map(|s| s.value()).unwrap_or_default();
            let key = key_ref.cast::<HtmlInputElement>().map(|i| i.value()).unwrap_or_default();
            let value_input = value_ref.cast::<HtmlInputElement>();
            let typed = value_input.as_ref().map(|i| i.value()).unwrap_or_default();
            let value = if typed.trim().is_empty() { fallback_value.clone() } else { typed };
            if let Some(i) = value_input {
                i.set_value("");
            }
            let partition = partition_ref.cast::<HtmlSelectElement>().and_then(|s| s.value().parse::<u32>().ok());
            // An empty key box means no key; a key of zero characters is not reachable here.
            let key = if key.is_empty() { None } else { Some(key) };
            dispatch.emit(Action::Produce { producer, topic: topic.clone(), key, value, partition });
        })
    };
    html! {
        <div class="panel producers">
            <h2>{ i18n::PRODUCERS.get(lang) }</h2>
            { for p.producers.iter().map(|prod| producer_card(lang, prod, &p.retries, &p.lost, &p.dispatch)) }
            <form id="produce-form" class="card produce" onsubmit={send}>
                <h3>{ i18n::PRODUCE.get(lang) }</h3>
                <label class="row">{ i18n::PRODUCER.get(lang) }
                    <select id="produce-producer" ref={producer_ref}>
                        { for p.producers.iter().map(|prod| html! { <option value={prod.name.clone()}>{ &prod.name }</option> }) }
                    </select>
                </label>
                <label class="row">{ i18n::KEY.get(lang) }<input id="produce-key" ref={key_ref} maxlength="1024" autocomplete="off" /></label>
                <label class="row">{ i18n::VALUE.get(lang) }<input id="produce-value" ref={value_ref} maxlength="1024" placeholder={p.next_value.clone()} autocomplete="off" /></label>
                <label class="row">{ i18n::TARGET_PARTITION.get(lang) }
                    <select id="produce-partition" ref={partition_ref}>
                        <option value="auto" selected=true>{ i18n::AUTO.get(lang) }</option>
                        { for (0..partitions).map(|i| html! { <option value={i.to_string()}>{ format!("P{i}") }</option> }) }
                    </select>
                </label>
                <button id="produce-send" class="primary" type="submit">{ i18n::SEND.get(lang) }</button>
                if let Some(why) = &p.last_produce {
                    <p id="produce-why" class="why"><span class="muted">{ i18n::WHY.get(lang) }{ ": " }</span>{ why }</p>
                }
            </form>
        </div>
    }
}

/// Newest sends drawn as chips, and newest described in a line each.
const STRIP_CHIPS: usize = 40;
const DETAIL_LINES: usize = 5;

fn producer_card(
    lang: Lang,
    prod: &ProducerView,
    retries: &RetryWatch,
    lost: &kafka_sandbox_core::vecmap::VecMap<kafka_sandbox_core::record::RecordId, kafka_sandbox_core::event::LossCause>,
    dispatch: &Callback<Action>,
) -> Html {
    let name = prod.name.clone();
    let set_partitioner = dispatch.reform(move |e: Event| {
        let v = e.target_unchecked_into::<HtmlSelectElement>().value();
        let partitioner = if v == "round_robin" { PartitionerKind::RoundRobin } else { PartitionerKind::BuiltIn };
        Action::Apply(ProduceCommand::SetPartitioner { producer: name.clone(), partitioner }.into())
    });
    let name = prod.name.clone();
    let set_acks = dispatch.reform(move |e: Event| {
        let acks = match e.target_unchecked_into::<HtmlSelectElement>().value().as_str() {
            "0" => Acks::Zero,
            "1" => Acks::Leader,
            _ => Acks::All,
        };
        Action::Apply(ProduceCommand::SetAcks { producer: name.clone(), acks }.into())
    });
    let failed = prod.sent.iter().filter(|s| s.failed.is_some()).count();
    let strip_from = prod.sent.len().saturating_sub(STRIP_CHIPS);
    let first_key = prod.sent_total.saturating_sub((prod.sent.len() - strip_from) as u64);
    let head = format!(
        "linger.ms={}{}",
        prod.linger_ms,
        if prod.idempotent { format!(" · {}", i18n::IDEMPOTENT.get(lang)) } else { String::new() }
    );
    html! {
        <div class="producer card" data-producer={prod.name.clone()}>
            <div class="card-head">
                <strong>{ &prod.name }</strong>
                <span class="muted">{ head }</span>
            </div>
            <label class="row">
                { i18n::PARTITIONER.get(lang) }
                <select class="partitioner" onchange={set_partitioner}>
                    <option value="built_in" selected={prod.partitioner == PartitionerKind::BuiltIn}>{ i18n::PARTITIONER_BUILT_IN.get(lang) }</option>
                    <option value="round_robin" selected={prod.partitioner == PartitionerKind::RoundRobin}>{ i18n::PARTITIONER_ROUND_ROBIN.get(lang) }</option>
                </select>
            </label>
            <label class="row" title={i18n::ACKS_HINT.get(lang)}>
                { "acks" }
                <select class="acks" onchange={set_acks}>
                    { for [Acks::Zero, Acks::Leader, Acks::All].into_iter().map(|a| html! {
                        <option value={i18n::acks_text(a)} selected={prod.acks == a}>{ i18n::acks_text(a) }</option>
                    }) }
                </select>
            </label>
            <div class="counts">
                <span>{ format!("{}: {}", i18n::SENT.get(lang), prod.sent_total) }</span>
                <span class={classes!("pending-count", (prod.pending > 0).then_some("busy"))}>{ format!("{}: {}", i18n::PENDING.get(lang), prod.pending) }</span>
                if failed > 0 {
                    <span class="failed-count">{ format!("{}: {failed}", i18n::FAILED.get(lang)) }</span>
                }
            </div>
            if let Some((since, e)) = retries.of(&prod.name) {
                <div class="retrying" title={i18n::produce_error(lang, e)}>{ i18n::retrying_line(lang, e, since.ms()) }</div>
            }
            <div class="sent-strip">
                { for prod.sent[strip_from..].iter().enumerate().map(|(i, s)| {
                    let (class, title) = match (s.acked_offset, s.failed) {
                        (Some(o), None) if lost.contains_key(&s.record) => {
                            ("lost", format!("{} → P{} @{o} · {}", s.value, s.partition, i18n::classroom::ACKED_THEN_LOST.get(lang)))
                        }
                        (_, Some(e)) => ("failed", format!("{} → P{} · {}", s.value, s.partition, i18n::produce_error(lang, e))),
                        (Some(o), None) => ("acked", format!("{} → P{} @{o} · {}", s.value, s.partition, i18n::ACKED.get(lang))),
                        (None, None) => ("pending", format!("{} → P{} · {}", s.value, s.partition, i18n::ACK_PENDING.get(lang))),
                    };
                    html! { <span key={first_key + i as u64} class={classes!("rec", class)} style={record_style(s.record.0)} {title}>{ s.value.to_string() }</span> }
                }) }
            </div>
            <ul class="sent">
                { for prod.sent.iter().rev().take(DETAIL_LINES).map(|s| html! {
                    <li key={s.record.0}>
                        <span class="rec" style={record_style(s.record.0)}>{ s.value.to_string() }</span>
                        { format!(" → P{}", s.partition) }
                        {
                            match (s.acked_offset, s.failed) {
                                (Some(o), None) if lost.contains_key(&s.record) => html! {
                                    <span class="lost-badge" title={i18n::classroom::ACKED_THEN_LOST.get(lang)}>
                                        { format!(" @{o} ✗ {}", lost.get(&s.record).map(|c| i18n::loss_cause(lang, *c)).unwrap_or_default()) }
                                    </span>
                                },
                                (_, Some(e)) => html! {
                                    <span class="error-badge" title={i18n::produce_error(lang, e)}>{ format!("✗ {}", i18n::produce_error_code(e)) }</span>
                                },
                                (Some(o), None) if o >= 0 => html! { <span class="muted">{ format!(" @{o}") }</span> },
                                (Some(_), None) => html! { <span class="muted">{ " @-1 (acks=0)" }</span> },
                                (None, None) => html! { <span class="muted">{ format!(" · {}", i18n::ACK_PENDING.get(lang)) }</span> },
                            }
                        }
                    </li>
                }) }
            </ul>
            { super::paste_properties(lang, crate::state::PasteTarget::Producer(prod.name.clone()), dispatch) }
        </div>
    }
}
