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
const ROW_H: f64 = 26.0;
const TOP: f64 = 34.0;
/// The label's font size (CSS `.seq`) and the width of a character at it, generously.
const FONT: f64 = 10.0;
const CHAR_W: f64 = 6.2;

/// Where one message is drawn, in its own row: the label on top, the arrow under it, so
/// no label crosses an arrow (its own or its neighbours').
#[derive(Debug, PartialEq)]
struct MsgLayout {
    /// The label's centre and baseline.
    label_x: f64,
    label_y: f64,
    /// The arrow's start and end height.
    arrow_y1: f64,
    arrow_y2: f64,
}

/// Row `i`'s layout for an arrow from `x1` to `x2` with a label of `chars` characters, in a
/// diagram `width` wide: the label kept inside the diagram.
fn msg_layout(i: usize, x1: f64, x2: f64, chars: usize, width: f64) -> MsgLayout {
    let row = TOP + i as f64 * ROW_H;
    let half = chars as f64 * CHAR_W / 2.0;
    let mid = (x1 + x2) / 2.0;
    let label_x = if 2.0 * half >= width { width / 2.0 } else { mid.clamp(half, width - half) };
    MsgLayout { label_x, label_y: row + FONT + 1.0, arrow_y1: row + FONT + 6.0, arrow_y2: row + ROW_H - 4.0 }
}

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
        // Wide enough for the longest label too.
        let longest = p.messages.iter().map(|m| format!("{} · {} ms", m.label, m.sent_ms).chars().count()).max().unwrap_or(0);
        let width = (ls.len() as f64 * LANE_W).max(longest as f64 * CHAR_W + 8.0);
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
                        let (x1, x2) = (x(&m.from), x(&m.to));
                        let kind = if m.label.starts_with("Produce") || m.label.starts_with("ack") {
                            "produce"
                        } else if m.label.starts_with("Fetch") {
                            "fetch"
                        } else {
                            "group"
                        };
                        let label = format!("{} · {} ms", m.label, m.sent_ms);
                        let at = msg_layout(i, x1, x2, label.chars().count(), width);
                        html! {
                            <g class={classes!("seq-msg", kind)}>
                                <line x1={x1.to_string()} y1={at.arrow_y1.to_string()} x2={x2.to_string()} y2={at.arrow_y2.to_string()} marker-end="url(#seq-arrow)" />
                                <text x={at.label_x.to_string()} y={at.label_y.to_string()} text-anchor="middle">{ label }</text>
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

#[cfg(test)]
mod tests {
    use super::*;

    /// No label crosses an arrow: each row's label (from its baseline up by the font size,
    /// down by descenders) lies above its own arrow and below the previous row's; a long
    /// label at the diagram's edge stays inside it. (The diagram's labels used to sit on
    /// the arrow of the row above.)
    #[test]
    fn sequence_labels_never_cross_an_arrow() {
        let width = 3.0 * LANE_W;
        for i in 1..50 {
            let prev = msg_layout(i - 1, LANE_W / 2.0, width - LANE_W / 2.0, 30, width);
            let at = msg_layout(i, width - LANE_W / 2.0, LANE_W / 2.0, 30, width);
            let (top, bottom) = (at.label_y - FONT, at.label_y + 3.0);
            assert!(top > prev.arrow_y1.max(prev.arrow_y2), "row {i}: label top {top} under the previous arrow {prev:?}");
            assert!(bottom < at.arrow_y1.min(at.arrow_y2), "row {i}: label bottom {bottom} above its arrow {at:?}");
        }
        let long = 40;
        let edge = msg_layout(0, LANE_W / 2.0, LANE_W / 2.0 + 1.0, long, width);
        let half = long as f64 * CHAR_W / 2.0;
        assert!(edge.label_x - half >= 0.0 && edge.label_x + half <= width, "{edge:?}");
    }
}
