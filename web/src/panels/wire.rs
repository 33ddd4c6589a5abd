//! Messages on the wire, moving between clients and the broker.

use crate::i18n::{self, Lang};
use crate::state::progress;
use kafka_sandbox_core::sim::FlightKind;
use kafka_sandbox_core::Snapshot;
use std::rc::Rc;
use yew::prelude::*;

#[derive(Clone, Copy, PartialEq, Eq)]
pub enum WireSide {
    /// Between producers and the broker.
    Produce,
    /// Between the broker and consumers.
    Fetch,
}

#[derive(Properties, PartialEq)]
pub struct WireProps {
    pub lang: Lang,
    pub snap: Rc<Snapshot>,
    pub side: WireSide,
}

#[component]
pub fn Wire(p: &WireProps) -> Html {
    let now = p.snap.now;
    let chips = p.snap.flights.iter().filter_map(|f| {
        let t = progress(now, f.sent_at, f.arrives_at);
        let (label, forward) = match (&f.kind, p.side) {
            (FlightKind::Produce { values, tp, .. }, WireSide::Produce) => (format!("{} → P{}", values.join(" "), tp.partition), true),
            (FlightKind::ProduceAck { offsets, .. }, WireSide::Produce) => {
                (format!("ack @{}", offsets.iter().map(u64::to_string).collect::<Vec<_>>().join(",")), false)
            }
            (FlightKind::FetchData { records, client_id, .. }, WireSide::Fetch) => {
                let values: Vec<&str> = records.iter().map(|(_, v)| v.as_str()).collect();
                (format!("{} → {client_id}", values.join(" ")), true)
            }
            _ => return None,
        };
        let left = if forward { t } else { 1.0 - t } * 100.0;
        Some(html! {
            <div class={classes!("flight", (!forward).then_some("back"))}>
                <span class="chip" style={format!("left: {left:.1}%; transform: translateX(-{left:.1}%)")}>{ label }</span>
            </div>
        })
    });
    html! {
        <div class="wire" aria-label={i18n::IN_FLIGHT.get(p.lang)}>
            <div class="wire-title">{ i18n::IN_FLIGHT.get(p.lang) }</div>
            { for chips }
        </div>
    }
}
