//! One record's whole path (from `kafka_sandbox_core::provenance`).

use super::record_style;
use super::send;
use crate::i18n::{self, Lang};
use crate::state::Action;
use kafka_sandbox_core::provenance::Path;
use std::rc::Rc;
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct RecordPathProps {
    pub lang: Lang,
    pub path: Rc<Path>,
    /// The partition count of the record's topic (for the key-hash sentence).
    pub partitions: Option<u32>,
    pub dispatch: Callback<Action>,
}

#[component]
pub fn RecordPathPanel(p: &RecordPathProps) -> Html {
    let lang = p.lang;
    let close = send(&p.dispatch, Action::ShowRecord(None));
    html! {
        <section id="record-path" class="panel record-path" aria-label={i18n::RECORD_PATH.get(lang)}>
            <div class="rp-head">
                <h2>{ i18n::RECORD_PATH.get(lang) }{ " " }<span class="rec" style={record_style(p.path.record.0)}>{ &p.path.value }</span></h2>
                <button id="record-path-close" onclick={close}>{ i18n::CLOSE.get(lang) }</button>
            </div>
            if !p.path.complete {
                <p class="muted small">{ i18n::RECORD_PATH_PARTIAL.get(lang) }</p>
            }
            <ol class="hops">
                { for p.path.hops.iter().map(|(at, h)| html! {
                    <li>
                        <span class="t">{ format!("{} ms", at.ms()) }</span>
                        <span class="what">{ i18n::hop_line(lang, h, p.partitions) }</span>
                    </li>
                }) }
            </ol>
        </section>
    }
}
