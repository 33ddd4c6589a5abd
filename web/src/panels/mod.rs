//! The page's panels. Each renders from a snapshot and only emits actions.

mod apps;
mod bridge;
mod brokers;
mod charts;
mod compaction;
mod compare;
mod controls;
mod editor;
mod events;
mod fork;
mod glossary;
mod groups;
mod guarantees;
mod lesson;
mod producers;
mod record_path;
mod scenario;
mod sequence;
mod share;
mod share_group;
mod topic;
mod txn;
mod wire;

pub use apps::Apps;
pub use bridge::BridgePanel;
pub use brokers::{Brokers, BrokersProps};
pub use charts::Charts;
pub use compaction::OffsetsPanel;
pub use compare::{compare_groups, ComparePanel};
pub use controls::Controls;
pub use editor::{fault_command, Editor, EditorProps};
pub use events::EventLog;
pub use fork::ForkPanel;
pub use glossary::GlossaryPanel;
pub use groups::{Groups, GroupsProps, Now};
pub use guarantees::{Guarantees, GuaranteesProps};
pub use lesson::{focus_selectors, groups_in_focus, lesson_look_at, lesson_view, LessonList, LessonPanel};
pub use producers::Producers;
pub use record_path::RecordPathPanel;
pub use scenario::ScenarioPanel;
pub use sequence::SequenceDiagram;
pub use share::SharePanel;
pub use share_group::ShareGroups;
pub use topic::{TopicProps, TopicView};
pub use txn::{Transactions, TransactionsProps};
pub use wire::{Wire, WireSide};

/// A callback that sends `value` whatever the DOM event: one compiled closure (per kind of
/// value and event) for every button that sends a fixed action, where each `reform(|_| …)`
/// compiled its own (the page's download, BENCHMARKS.md).
pub fn send<T: Clone + 'static, E: 'static>(to: &yew::Callback<T>, value: T) -> yew::Callback<E> {
    to.reform(move |_: E| value.clone())
}

/// A soft colour per record, so the same record is recognisable in the log and at
/// every consumer: eight well-separated hues in turn, so m1..m8 all differ.
pub fn record_hue(id: u64) -> u32 {
    const HUES: [u32; 8] = [210, 30, 140, 280, 0, 55, 180, 320];
    HUES[(id % 8) as usize]
}

pub fn record_style(id: u64) -> String {
    format!("--hue: {}", record_hue(id))
}

/// A `<details>` to paste a client's properties into (producer.properties or
/// consumer.properties); Apply sends them as [`crate::state::Action::PasteProperties`].
pub fn paste_properties(
    lang: crate::i18n::Lang,
    target: crate::state::PasteTarget,
    dispatch: &yew::Callback<crate::state::Action>,
) -> yew::Html {
    use crate::i18n::classroom as w;
    use yew::prelude::*;
    let producer = matches!(target, crate::state::PasteTarget::Producer(_));
    let dispatch = dispatch.clone();
    let submit = Callback::from(move |e: SubmitEvent| {
        e.prevent_default();
        let form: web_sys::Element = e.target_unchecked_into();
        let text = form
            .query_selector("textarea")
            .ok()
            .flatten()
            .and_then(|t| wasm_bindgen::JsCast::dyn_into::<web_sys::HtmlTextAreaElement>(t).ok())
            .map(|t| t.value())
            .unwrap_or_default();
        dispatch.emit(crate::state::Action::PasteProperties { target: target.clone(), text });
    });
    let label = if producer { w::PASTE_PRODUCER } else { w::PASTE_CONSUMER };
    html! {
        <details class="paste-props">
            <summary>{ label.get(lang) }</summary>
            <form class="paste-form" onsubmit={submit}>
                <p class="small">{ w::PASTE_HINT.get(lang) }</p>
                <textarea class="paste-text" rows="5" spellcheck="false" aria-label={label.get(lang)}
                    placeholder={if producer { "acks=1\nlinger.ms=20" } else { "max.poll.records=50\nsession.timeout.ms=10000" }} />
                <button class="paste-apply" type="submit">{ w::PASTE_APPLY.get(lang) }</button>
            </form>
        </details>
    }
}
