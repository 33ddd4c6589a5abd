//! Eager vs cooperative vs KIP-848: the same membership change under the three
//! protocols, side by side (computed by `kafka_sandbox_core::compare`).

use super::send;
use crate::i18n::{self, Lang};
use crate::state::Action;
use kafka_sandbox_core::compare::{Change, Comparison, Variant};
use std::rc::Rc;
use web_sys::HtmlSelectElement;
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct CompareProps {
    pub lang: Lang,
    /// Each group's id and its members' client ids, in order: all it shows of the run (so
    /// a frame that changes neither does not render it again).
    pub groups: Rc<Vec<(String, Vec<String>)>>,
    pub result: Option<Result<Rc<Comparison>, String>>,
    pub dispatch: Callback<Action>,
}

/// The changes offered: a newcomer joins any group; any member of a group closes or crashes.
fn choices(groups: &[(String, Vec<String>)]) -> Vec<(String, Change)> {
    let mut out = Vec::new();
    for (id, members) in groups {
        let newcomer = (1..).map(|i| format!("new-{i}")).find(|c| !members.contains(c)).unwrap_or_default();
        out.push((id.clone(), Change::Join { client_id: newcomer }));
        for m in members {
            out.push((id.clone(), Change::Leave { client_id: m.clone() }));
            out.push((id.clone(), Change::Crash { client_id: m.clone() }));
        }
    }
    out
}

/// What the panel shows of the run, read through the read layer.
pub fn compare_groups(read: kafka_sandbox_core::read::Read<'_>) -> Vec<(String, Vec<String>)> {
    read.groups().map(|g| (g.id().to_string(), g.members().map(|m| m.client_id().to_string()).collect())).collect()
}

#[component]
pub fn ComparePanel(p: &CompareProps) -> Html {
    let lang = p.lang;
    let select = use_node_ref();
    let options = choices(&p.groups);
    let run = {
        let select = select.clone();
        let options = options.clone();
        let dispatch = p.dispatch.clone();
        Callback::from(move |e: SubmitEvent| {
            e.prevent_default();
            let i: usize = select.cast::<HtmlSelectElement>().and_then(|s| s.value().parse().ok()).unwrap_or(0);
            if let Some((group, change)) = options.get(i).cloned() {
                dispatch.emit(Action::Compare { group, change });
            }
        })
    };
    let close = send(&p.dispatch, Action::CloseComparison);
    html! {
        <div class="panel compare" id="compare">
            <h2>{ i18n::COMPARE_TITLE.get(lang) }</h2>
            <p class="muted small">{ i18n::COMPARE_HINT.get(lang) }</p>
            <form id="compare-form" onsubmit={run}>
                <label>{ i18n::COMPARE_CHANGE.get(lang) }{ " " }
                    <select id="compare-change" ref={select}>
                        { for options.iter().enumerate().map(|(i, (g, c))| html! {
                            <option value={i.to_string()}>{ format!("{g}: {}", i18n::change_label(lang, c)) }</option>
                        }) }
                    </select>
                </label>
                <button id="compare-run" class="primary" type="submit" disabled={options.is_empty()}>{ i18n::COMPARE_RUN.get(lang) }</button>
                if p.result.is_some() {
                    <button id="compare-close" type="button" onclick={close}>{ i18n::COMPARE_CLOSE.get(lang) }</button>
                }
            </form>
            {
                match &p.result {
                    None => html! {},
                    Some(Err(e)) => html! { <p class="notice error" role="alert">{ e.clone() }</p> },
                    Some(Ok(c)) => table(lang, c),
                }
            }
        </div>
    }
}

fn table(lang: Lang, c: &Comparison) -> Html {
    let caption = format!("{}: {} @ {}", c.group, i18n::change_label(lang, &c.change), i18n::seconds(c.at.ms()));
    let row = |label: &str, cell: &dyn Fn(&kafka_sandbox_core::compare::ProtocolRun) -> String, class: &'static str| {
        html! {
            <tr class={class}>
                <th scope="row">{ label.to_string() }</th>
                { for c.runs.iter().map(|r| html! { <td data-variant={variant_key(r.variant)}>{ cell(r) }</td> }) }
            </tr>
        }
    };
    html! {
        <div id="compare-result">
            <table class="compare-table">
                <caption>{ caption }</caption>
                <thead>
                    <tr><th />{ for c.runs.iter().map(|r| html! { <th scope="col">{ i18n::variant(lang, r.variant) }</th> }) }</tr>
                </thead>
                <tbody>
                    { row(i18n::METRIC_STOPPED.get(lang), &|r| {
                        let stopped: Vec<String> = r.members.iter().filter(|m| m.paused_ms > 0).map(|m| format!("{} ({})", m.client_id, i18n::seconds(m.paused_ms))).collect();
                        if stopped.is_empty() { "—".into() } else { stopped.join(", ") }
                    }, "m-stopped") }
                    { row(i18n::METRIC_REVOKED.get(lang), &|r| r.members.iter().map(|m| m.revoked).sum::<usize>().to_string(), "m-revoked") }
                    { row(i18n::METRIC_DOWNTIME.get(lang), &|r| i18n::seconds(r.partition_downtime_ms), "m-downtime") }
                    { row(i18n::METRIC_SETTLED.get(lang), &|r| r.settled_after_ms.map(i18n::seconds).unwrap_or_else(|| i18n::NOT_SETTLED.get(lang).into()), "m-settled") }
                    { row(i18n::METRIC_ROUNDS.get(lang), &|r| r.rebalances.to_string(), "m-rounds") }
                    { row(i18n::METRIC_DUP_LOST.get(lang), &|r| format!("{} / {}", r.duplicates, r.lost), "m-duplost") }
                </tbody>
            </table>
            <p class="small compare-note">{ i18n::COMPARE_NOTE.get(lang) }</p>
            <p class="muted small">{ i18n::COMPARE_LANES.get(lang) }</p>
            <div class="lanes">
                { for c.runs.iter().map(|r| html! {
                    <div class="lane-group" data-variant={variant_key(r.variant)}>
                        <div class="lane-title">{ i18n::variant(lang, r.variant) }</div>
                        { for r.members.iter().map(|m| lane(&m.client_id, &m.owned)) }
                    </div>
                }) }
            </div>
        </div>
    }
}

/// One member's row of samples: a cell per sample, darker with more partitions, red at none.
fn lane(client: &str, samples: &[u32]) -> Html {
    let max = samples.iter().copied().max().unwrap_or(0).max(1);
    let n = samples.len().max(1) as f64;
    let w = 100.0 / n;
    html! {
        <div class="lane">
            <span class="lane-name">{ client.to_string() }</span>
            <svg class="lane-bar" viewBox="0 0 100 10" preserveAspectRatio="none" role="img" aria-label={client.to_string()}>
                { for samples.iter().enumerate().map(|(i, k)| {
                    let fill = if *k == 0 { "var(--bad, #c0392b)".to_string() } else { format!("hsl(210 60% {}%)", 75 - (35 * k / max)) };
                    html! { <rect x={format!("{:.3}", i as f64 * w)} y="0" width={format!("{:.3}", w + 0.05)} height="10" style={format!("fill:{fill}")} /> }
                }) }
            </svg>
        </div>
    }
}

/// A protocol's name in `data-variant` (the variant's name in lower case).
fn variant_key(v: Variant) -> &'static str {
    match v {
        Variant::Eager => "eager",
        Variant::Cooperative => "cooperative",
        Variant::Consumer => "consumer",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use kafka_sandbox_core::scenario::default_scenario;
    use kafka_sandbox_core::time::SimTime;

    #[test]
    fn the_choices_are_every_groups_newcomer_and_each_members_leave_and_crash() {
        let mut sim = default_scenario().build().unwrap_or_else(|e| panic!("{e}"));
        sim.run_to(SimTime(12_000));
        let groups = compare_groups(sim.read());
        let snap = sim.snapshot();
        assert_eq!(
            groups,
            snap.groups
                .iter()
                .map(|g| (g.id.clone(), g.members.iter().map(|m| m.client_id.clone()).collect::<Vec<_>>()))
                .collect::<Vec<_>>()
        );
        let members: usize = snap.groups.iter().map(|g| g.members.len()).sum();
        let options = choices(&groups);
        assert!(members > 0);
        assert_eq!(options.len(), snap.groups.len() + 2 * members);
        let Some((g, Change::Join { client_id })) = options.first() else { panic!("a join first") };
        assert_eq!((g.as_str(), client_id.as_str()), (snap.groups[0].id.as_str(), "new-1"));
    }

    /// `data-variant` is the variant's name in lower case, as when it was written with `Debug`.
    #[test]
    fn variant_keys_are_the_variants_names() {
        for v in [Variant::Eager, Variant::Cooperative, Variant::Consumer] {
            assert_eq!(variant_key(v), format!("{v:?}").to_ascii_lowercase());
        }
    }
}
