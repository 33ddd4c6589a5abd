//! Producers: their settings, what they sent and where it went, and the produce form.

use super::record_style;
use crate::i18n::{self, Lang};
use crate::state::Action;
use kafka_sandbox_core::partitioner::PartitionerKind;
use kafka_sandbox_core::Snapshot;
use std::rc::Rc;
use web_sys::{HtmlInputElement, HtmlSelectElement};
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct ProducersProps {
    pub lang: Lang,
    pub snap: Rc<Snapshot>,
    pub last_produce: Option<String>,
    pub next_value: String,
    pub dispatch: Callback<Action>,
}

#[component]
pub fn Producers(p: &ProducersProps) -> Html {
    let lang = p.lang;
    let snap = &p.snap;
    let producer_ref = use_node_ref();
    let key_ref = use_node_ref();
    let value_ref = use_node_ref();
    let partition_ref = use_node_ref();
    let topic = snap.topics.first().map(|t| t.name.clone()).unwrap_or_default();
    let partitions = snap.topics.first().map(|t| t.partitions.len() as u32).unwrap_or(0);
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
            { for snap.producers.iter().map(|prod| {
                let name = prod.name.clone();
                let change = p.dispatch.reform(move |e: Event| {
                    let v = e.target_unchecked_into::<HtmlSelectElement>().value();
                    let partitioner = if v == "round_robin" { PartitionerKind::RoundRobin } else { PartitionerKind::BuiltIn };
                    Action::SetPartitioner { producer: name.clone(), partitioner }
                });
                let recent: Vec<_> = prod.sent.iter().rev().take(8).collect();
                html! {
                    <div class="producer card" data-producer={prod.name.clone()}>
                        <div class="card-head">
                            <strong>{ &prod.name }</strong>
                            <span class="muted">{ format!("acks={} · linger.ms={}", acks_text(prod.acks), prod.linger_ms) }</span>
                        </div>
                        <label class="row">
                            { i18n::PARTITIONER.get(lang) }
                            <select class="partitioner" onchange={change}>
                                <option value="built_in" selected={prod.partitioner == PartitionerKind::BuiltIn}>{ i18n::PARTITIONER_BUILT_IN.get(lang) }</option>
                                <option value="round_robin" selected={prod.partitioner == PartitionerKind::RoundRobin}>{ i18n::PARTITIONER_ROUND_ROBIN.get(lang) }</option>
                            </select>
                        </label>
                        <div class="muted">{ format!("{}: {}", i18n::SENT.get(lang), prod.sent_total) }</div>
                        <ul class="sent">
                            { for recent.into_iter().map(|s| html! {
                                <li key={s.record.0}>
                                    <span class="rec" style={record_style(s.record.0)}>{ &s.value }</span>
                                    { format!(" → P{}", s.partition) }
                                    <span class="muted">{
                                        match s.acked_offset {
                                            Some(o) => format!(" @{o}"),
                                            None => format!(" · {}", i18n::ACK_PENDING.get(lang)),
                                        }
                                    }</span>
                                </li>
                            }) }
                        </ul>
                    </div>
                }
            }) }
            <form id="produce-form" class="card produce" onsubmit={send}>
                <h3>{ i18n::PRODUCE.get(lang) }</h3>
                <label class="row">{ i18n::PRODUCER.get(lang) }
                    <select id="produce-producer" ref={producer_ref}>
                        { for snap.producers.iter().map(|prod| html! { <option value={prod.name.clone()}>{ &prod.name }</option> }) }
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

fn acks_text(a: kafka_sandbox_core::config::Acks) -> &'static str {
    match a {
        kafka_sandbox_core::config::Acks::None => "0",
        kafka_sandbox_core::config::Acks::Leader => "1",
        kafka_sandbox_core::config::Acks::All => "all",
    }
}
