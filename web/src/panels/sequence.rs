//! The sequence diagram: requests between producers, brokers and consumers over a window
//! of simulated time (the last `window` ms, or around the selected event), drawn from the
//! trace. Rendered only while open.

use crate::i18n::{self, Lang};
use crate::sequence::{lanes, Message};
use std::rc::Rc;
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct SequenceProps {
    pub lang: Lang,
    /// Window start and end (ms) and the messages in it; computed by the app when open.
    pub window: (u64, u64),
    pub messages: Rc<Vec<Message>>,
    pub open: bool,
    pub on_toggle: Callback<bool>,
}

const LANE_W: f64 = 110.0;
const ROW_H: f64 = 18.0;
const TOP: f64 = 42.0;

#[component]
pub fn SequenceDiagram(p: &SequenceProps) -> Html {
    let lang = p.lang;
    let toggle = {
        let cb = p.on_toggle.clone();
        Callback::from(move |e: Event| cb.emit(e.target_unchecked_into::<web_sys::HtmlDetailsElement>().open()))
    };
    let body = if !p.open {
        html! {}
    } else if p.messages.is_empty() {
        html! { <p class="muted">{ i18n::SEQ_EMPTY.get(lang) }</p> }
    } else {
        let ls = lanes(&p.messages);
        let x = |l: &crate::sequence::Lane| ls.iter().position(|o| o == l).unwrap_or(0) as f64 * LANE_W + LANE_W / 2.0;
        let width = ls.len() as f64 * LANE_W;
        let height = TOP + (p.messages.len() as f64 + 1.0) * ROW_H;
        html! {
            <div class="seq-scroll">
                <svg class="seq" width={width.to_string()} height={height.to_string()} viewBox={format!("0 0 {width} {height}")}
                    role="img" aria-label={i18n::SEQUENCE.get(lang)}>
                    <defs>
                        <marker id="seq-arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="6" markerHeight="6" orient="auto-start-reverse">
                            <path d="M 0 0 L 10 5 L 0 10 z" class="seq-head" />
                        </marker>
                    </defs>
                    { for ls.iter().map(|l| html! {
                        <g class="seq-lane">
                            {
                                // Consumers: the client on top, its group below.
                                match l.label().split_once('/') {
                                    Some((g, c)) => html! {
                                        <text x={x(l).to_string()} y="12" text-anchor="middle">
                                            <tspan x={x(l).to_string()} dy="0">{ c.to_string() }</tspan>
                                            <tspan x={x(l).to_string()} dy="11" class="seq-group">{ g.to_string() }</tspan>
                                        </text>
                                    },
                                    None => html! { <text x={x(l).to_string()} y="14" text-anchor="middle">{ l.label() }</text> },
                                }
                            }
                            <line x1={x(l).to_string()} y1="28" x2={x(l).to_string()} y2={height.to_string()} />
                        </g>
                    }) }
                    { for p.messages.iter().enumerate().map(|(i, m)| {
                        let y = TOP + i as f64 * ROW_H;
                        let (x1, x2) = (x(&m.from), x(&m.to));
                        let kind = if m.label.starts_with("Produce") || m.label.starts_with("ack") {
                            "produce"
                        } else if m.label.starts_with("Fetch") {
                            "fetch"
                        } else {
                            "group"
                        };
                        html! {
                            <g class={classes!("seq-msg", kind)}>
                                <line x1={x1.to_string()} y1={y.to_string()} x2={x2.to_string()} y2={(y + ROW_H * 0.6).to_string()} marker-end="url(#seq-arrow)" />
                                <text x={((x1 + x2) / 2.0).to_string()} y={(y - 2.0).to_string()} text-anchor="middle">
                                    { format!("{} · {} ms", m.label, m.sent_ms) }
                                </text>
                            </g>
                        }
                    }) }
                </svg>
            </div>
        }
    };
    html! {
        <details class="panel sequence" id="sequence" ontoggle={toggle} open={p.open}>
            <summary><h2>{ i18n::SEQUENCE.get(lang) }</h2>
                <span class="muted small">{ format!(" {} – {} ms", p.window.0, p.window.1) }</span></summary>
            <p class="muted small">{ i18n::SEQ_HINT.get(lang) }</p>
            { body }
        </details>
    }
}
