//! Messages on the wire, moving between clients and the broker.

use crate::i18n::{self, Lang};
use crate::state::progress;
use kafka_sandbox_core::read::{Flight, FlightKind};
use kafka_sandbox_core::SimTime;
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
    /// The snapshot's messages on the wire (shared with the brokers panel), and the time
    /// that places each along its way.
    pub flights: Rc<Vec<Flight>>,
    pub now: SimTime,
    pub side: WireSide,
}

#[component]
pub fn Wire(p: &WireProps) -> Html {
    let now = p.now;
    let lang = p.lang;
    let chips = p.flights.iter().filter_map(|f| {
        let t = progress(now, f.sent_at, f.arrives_at);
        // (label, forward, error, title)
        let (label, forward, error, title) = match (&f.kind, p.side) {
            (FlightKind::Produce { values, tp, .. }, WireSide::Produce) => {
                (format!("{} → P{}", values.join(" "), tp.partition), true, false, None)
            }
            (FlightKind::ProduceAck { error: Some(e), tp, .. }, WireSide::Produce) => {
                {
                    // A break opportunity after each underscore, so a long code wraps inside the wire.
                    let code = i18n::produce_error_code(*e).replace('_', "_\u{200b}");
                    (format!("✗ P{} {code}", tp.partition), false, true, Some(i18n::produce_error(lang, *e).to_string()))
                }
            }
            (FlightKind::ProduceAck { offsets, .. }, WireSide::Produce) => {
                let at = offsets.iter().map(u64::to_string).collect::<Vec<_>>().join(",");
                (format!("{} @{at}", i18n::ACK_CHIP.get(lang)), false, false, Some(i18n::ACK_CHIP_HINT.get(lang).to_string()))
            }
            (FlightKind::FetchData { records, client_id, .. }, WireSide::Fetch) => {
                let values: Vec<&str> = records.iter().map(|(_, v)| v.as_str()).collect();
                (format!("{} → {client_id}", values.join(" ")), true, false, None)
            }
            (FlightKind::ShareAcknowledge { acks, client_id, .. }, WireSide::Fetch) => {
                (crate::share_group_words::ack_chip(lang, client_id, acks), false, false, None)
            }
            _ => return None,
        };
        let left = if forward { t } else { 1.0 - t } * 100.0;
        Some(html! {
            <div class={classes!("flight", (!forward).then_some("back"), error.then_some("error"))} {title}>
                <span class="chip" style={format!("left: {left:.1}%; transform: translateX(-{left:.1}%)")}>
                    { label }<span class="pct">{ format!(" {:.0}%", t * 100.0) }</span>
                </span>
            </div>
        })
    });
    html! {
        <div class="wire" aria-label={i18n::IN_FLIGHT.get(lang)}>
            <div class="wire-title">{ i18n::IN_FLIGHT.get(lang) }</div>
            { for chips }
        </div>
    }
}
