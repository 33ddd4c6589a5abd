//! Charts over simulated time: consumer lag per partition and group, records produced
//! and consumed per second, members that cannot consume. Plain SVG; strokes use the
//! text colour or the record hues, so both themes read them.

use super::record_hue;
use crate::charts::{lag_lines, polyline, Sample, Samples};
use crate::i18n::{self, Lang};
use yew::prelude::*;

/// `samples` compare by pointer: the panel renders again only when a sample was taken.
#[derive(Properties, PartialEq)]
pub struct ChartsProps {
    pub lang: Lang,
    pub samples: Samples,
}

/// Lines per lag chart: beyond this the group's total and the partitions lagging most.
const MAX_LAG_LINES: usize = 9;

const W: f64 = 320.0;
const H: f64 = 90.0;

/// One line of a chart: its name, its colour, and its points (time, value).
type Line = (String, String, Vec<(u64, f64)>);

fn chart(title: String, id: String, lines: Vec<Line>, t0: u64, t1: u64) -> Html {
    let max = lines.iter().flat_map(|(_, _, pts)| pts.iter().map(|(_, v)| *v)).fold(0.0_f64, f64::max);
    let top = if max <= 0.0 { 1.0 } else { max };
    html! {
        <figure class="chart" id={id}>
            <figcaption>{ title }</figcaption>
            <svg viewBox={format!("0 0 {W} {H}")} role="img" aria-label={format!("max {top:.0}")} preserveAspectRatio="none">
                <line class="axis" x1="0" y1={H.to_string()} x2={W.to_string()} y2={H.to_string()} />
                { for lines.iter().map(|(_, colour, pts)| html! {
                    <polyline points={polyline(pts, t0, t1, top, W, H)} style={format!("stroke:{colour}")} />
                }) }
            </svg>
            <div class="chart-legend small">
                <span class="muted">{ format!("0–{top:.0} · {:.0}–{:.0} s", t0 as f64 / 1000.0, t1 as f64 / 1000.0) }</span>
                { for lines.iter().map(|(name, colour, pts)| html! {
                    <span class="key"><span class="swatch" style={format!("background:{colour}")} />{ format!("{name} {:.0}", pts.last().map(|p| p.1).unwrap_or(0.0)) }</span>
                }) }
            </div>
        </figure>
    }
}

#[component]
pub fn Charts(p: &ChartsProps) -> Html {
    let lang = p.lang;
    let open = use_state(|| false);
    let toggle = {
        let open = open.clone();
        Callback::from(move |e: Event| {
            let d: web_sys::HtmlDetailsElement = e.target_unchecked_into();
            open.set(d.open());
        })
    };
    let s = &p.samples;
    let body = if *open && s.len() >= 2 {
        let t0 = s.front().map(|x| x.t_ms).unwrap_or(0);
        let t1 = s.back().map(|x| x.t_ms).unwrap_or(0);
        let groups: Vec<String> = s.back().map(|x| x.lag.keys().cloned().collect()).unwrap_or_default();
        let lag_charts = groups.iter().map(|g| {
            let (lines, parts) = lag_lines(s, g, MAX_LAG_LINES, i18n::TOTAL.get(lang));
            let lines = lines
                .into_iter()
                .enumerate()
                .map(|(i, (label, pts))| (label, format!("hsl({} 65% 45%)", record_hue(i as u64)), pts))
                .collect();
            let mut title = format!("{} · {g}", i18n::CHART_LAG.get(lang));
            if parts > MAX_LAG_LINES {
                title = format!("{title} · {}", i18n::chart_top_lag(lang, MAX_LAG_LINES - 1, parts));
            }
            chart(title, format!("chart-lag-{}", g.replace(|c: char| !c.is_ascii_alphanumeric(), "_")), lines, t0, t1)
        });
        let rate = |f: fn(&Sample) -> u64| -> Vec<(u64, f64)> {
            s.iter()
                .zip(s.iter().skip(1))
                .map(|(a, b)| (b.t_ms, (f(b).saturating_sub(f(a))) as f64 * 1000.0 / (b.t_ms.saturating_sub(a.t_ms)).max(1) as f64))
                .collect()
        };
        let throughput = vec![
            (i18n::PRODUCED.get(lang).to_string(), "hsl(210 65% 45%)".to_string(), rate(|x| x.produced)),
            (i18n::CONSUMED.get(lang).to_string(), "hsl(140 55% 38%)".to_string(), rate(|x| x.consumed)),
        ];
        let stopped = vec![(
            i18n::STOPPED.get(lang).to_string(),
            "hsl(0 65% 45%)".to_string(),
            s.iter().map(|x| (x.t_ms, f64::from(x.stopped))).collect(),
        )];
        html! {
            <div class="chart-grid">
                { for lag_charts }
                { chart(i18n::CHART_THROUGHPUT.get(lang).to_string(), "chart-throughput".into(), throughput, t0, t1) }
                { chart(i18n::CHART_STOPPED.get(lang).to_string(), "chart-stopped".into(), stopped, t0, t1) }
            </div>
        }
    } else if *open {
        html! { <p class="muted">{ i18n::CHART_WAIT.get(lang) }</p> }
    } else {
        html! {}
    };
    html! {
        <details class="panel charts" id="charts" ontoggle={toggle}>
            <summary><h2>{ i18n::CHARTS.get(lang) }</h2></summary>
            { body }
        </details>
    }
}
