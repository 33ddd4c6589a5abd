//! The newest trace events as sentences, newest first.

use super::send;
use crate::i18n::{self, Lang};
use crate::state::Action;
use crate::view::EventCategory;
use kafka_sandbox_core::Event;
use std::rc::Rc;
use web_sys::{HtmlInputElement, HtmlSelectElement};
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct EventLogProps {
    pub lang: Lang,
    pub events: Rc<Vec<Event>>,
    #[prop_or_default]
    pub category: EventCategory,
    #[prop_or_default]
    pub entity: String,
    #[prop_or_default]
    pub selected: Option<u64>,
    #[prop_or_default]
    pub dispatch: Callback<Action>,
}

#[component]
pub fn EventLog(p: &EventLogProps) -> Html {
    let lang = p.lang;
    let on_kind = {
        let (d, entity) = (p.dispatch.clone(), p.entity.clone());
        Callback::from(move |e: yew::Event| {
            let v = e.target_unchecked_into::<HtmlSelectElement>().value();
            d.emit(Action::SetEventFilter { category: EventCategory::from_key(&v), entity: entity.clone() })
        })
    };
    let on_entity = {
        let (d, category) = (p.dispatch.clone(), p.category);
        Callback::from(move |e: InputEvent| {
            let v = e.target_unchecked_into::<HtmlInputElement>().value();
            d.emit(Action::SetEventFilter { category, entity: v })
        })
    };
    html! {
        <section class="panel events">
            <h2>{ i18n::EVENT_LOG.get(lang) }</h2>
            <div class="event-filter">
                <label>{ i18n::FILTER_KIND.get(lang) }{ " " }
                    <select id="event-kind" onchange={on_kind}>
                        { for EventCategory::choices().map(|c| html! {
                            <option value={c.key()} selected={c == p.category}>{ i18n::category(lang, c) }</option>
                        }) }
                    </select>
                </label>
                <label>{ i18n::FILTER_ENTITY.get(lang) }{ " " }
                    <input id="event-entity" type="search" value={p.entity.clone()} placeholder={i18n::FILTER_ENTITY_HINT.get(lang)}
                        maxlength="64" autocomplete="off" oninput={on_entity} />
                </label>
            </div>
            <ol id="event-log" reversed=true>
                if p.events.is_empty() {
                    <li class="muted">{ i18n::NO_EVENTS.get(lang) }</li>
                }
                { for p.events.iter().rev().enumerate().map(|(i, e)| {
                    let seq = e.seq;
                    let onclick = send(&p.dispatch, Action::SelectEvent(seq));
                    html! {
                        <li key={e.seq} data-seq={e.seq.to_string()}
                            class={classes!((i == 0).then_some("newest"), (p.selected == Some(e.seq)).then_some("selected"))}>
                            <button class="event-go" title={i18n::EVENT_GO_HINT.get(lang)} {onclick}>
                                <span class="t">{ format!("{:>6} ms", e.time.ms()) }</span>
                                <span class="what">{ i18n::event_line(lang, &e.kind) }</span>
                            </button>
                            { partition_link(lang, e, &p.dispatch) }
                        </li>
                    }
                }) }
            </ol>
        </section>
    }
}

/// A cleaner's pass (issue 19) links to the partition it compacted: the run goes to that
/// moment (as clicking the event does) and the page scrolls to the partition's segments.
fn partition_link(lang: Lang, e: &Event, dispatch: &Callback<Action>) -> Html {
    let kafka_sandbox_core::EventKind::Compaction(kafka_sandbox_core::event::CompactionEvent::LogCleaned { topic, partition, .. }) =
        &e.kind
    else {
        return html! {};
    };
    // A pass over `__consumer_offsets` opens that partition's view, which scrolls itself in.
    let offsets = (topic == kafka_sandbox_core::record::OFFSETS_TOPIC).then_some(*partition);
    let selector = crate::view::partition_selector(topic, *partition);
    let (seq, d) = (e.seq, dispatch.clone());
    let onclick = Callback::from(move |_: MouseEvent| {
        d.emit(Action::SelectEvent(seq));
        if offsets.is_some() {
            d.emit(Action::ShowOffsets(offsets));
            return;
        }
        let found = web_sys::window().and_then(|w| w.document()).and_then(|doc| doc.query_selector(&selector).ok().flatten());
        if let Some(el) = found {
            el.scroll_into_view();
        }
    });
    html! {
        <button class="event-link" data-topic={topic.clone()} data-partition={partition.to_string()}
            title={crate::i18n_compaction::GO_TO_PARTITION_HINT.get(lang)} {onclick}>
            { format!("→ {topic}-{partition}") }
        </button>
    }
}
