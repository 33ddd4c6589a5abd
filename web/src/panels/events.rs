//! The newest trace events as sentences, newest first.

use crate::i18n::{self, Lang};
use kafka_sandbox_core::Event;
use std::rc::Rc;
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct EventLogProps {
    pub lang: Lang,
    pub events: Rc<Vec<Event>>,
}

#[component]
pub fn EventLog(p: &EventLogProps) -> Html {
    let lang = p.lang;
    html! {
        <section class="panel events">
            <h2>{ i18n::EVENT_LOG.get(lang) }</h2>
            <ol id="event-log" reversed=true>
                { for p.events.iter().rev().enumerate().map(|(i, e)| html! {
                    <li key={e.seq} class={classes!((i == 0).then_some("newest"))}>
                        <span class="t">{ format!("{:>6} ms", e.time.ms()) }</span>
                        <span class="what">{ i18n::event_line(lang, &e.kind) }</span>
                    </li>
                }) }
            </ol>
        </section>
    }
}
