//! The topic: each partition as a log of offset cells, with LEO and HW.

use super::record_style;
use crate::i18n::{self, Lang};
use kafka_sandbox_core::Snapshot;
use std::rc::Rc;
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct TopicProps {
    pub lang: Lang,
    pub snap: Rc<Snapshot>,
}

#[component]
pub fn TopicView(p: &TopicProps) -> Html {
    let lang = p.lang;
    let now = p.snap.now.ms();
    html! {
        <div class="panel topics">
            { for p.snap.topics.iter().map(|t| html! {
                <div class="topic" data-topic={t.name.clone()}>
                    <h2>{ i18n::TOPIC.get(lang) }{ " " }<code>{ &t.name }</code></h2>
                    { for t.partitions.iter().map(|part| html! {
                        <div class="partition" id={format!("partition-{}", part.partition)}>
                            <div class="plabel">
                                <strong>{ format!("P{}", part.partition) }</strong>
                                <span class="muted" title={format!("{} / {}", i18n::LEO.get(lang), i18n::HW.get(lang))}>
                                    { format!("{} {} · {} {}", i18n::LEO.get(lang), part.log_end_offset, i18n::HW.get(lang), part.high_watermark) }
                                </span>
                            </div>
                            <ol class="log" start={part.log_start_offset.to_string()}>
                                if part.records.is_empty() {
                                    <li class="empty muted">{ i18n::EMPTY_LOG.get(lang) }</li>
                                }
                                { for part.records.iter().map(|r| {
                                    let fresh = now.saturating_sub(r.appended_at.ms()) < 600;
                                    let committed = r.offset < part.high_watermark;
                                    let title = match &r.key {
                                        Some(k) => format!("offset {} · key \"{k}\" · {} · t={} ms", r.offset, r.producer, r.timestamp.ms()),
                                        None => format!("offset {} · key null · {} · t={} ms", r.offset, r.producer, r.timestamp.ms()),
                                    };
                                    html! {
                                        <li key={r.id.0} class={classes!("cell", fresh.then_some("fresh"), committed.then_some("committed"))}
                                            style={record_style(r.id.0)} {title}>
                                            <span class="off">{ r.offset }</span>
                                            <span class="val">{ &r.value }</span>
                                        </li>
                                    }
                                }) }
                            </ol>
                        </div>
                    }) }
                    <p class="legend muted">{ i18n::LEGEND_COMMITTED.get(lang) }</p>
                </div>
            }) }
        </div>
    }
}
