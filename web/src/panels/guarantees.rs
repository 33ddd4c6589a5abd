//! Guarantees: what the monitors found, newest first. Takes plain rows (time, severity,
//! text), so any checker can feed it.

use crate::i18n::{self, Lang};
use crate::view::{GuaranteeRow, Severity};
use std::rc::Rc;
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct GuaranteesProps {
    pub lang: Lang,
    pub rows: Rc<Vec<GuaranteeRow>>,
    /// How many findings in all, and how many broke a promise.
    pub total: u64,
    pub broken: u64,
}

#[component]
pub fn Guarantees(p: &GuaranteesProps) -> Html {
    let lang = p.lang;
    html! {
        <section class={classes!("panel", "guarantees", (p.broken > 0).then_some("broken"))} id="guarantees">
            <h2>{ i18n::GUARANTEES.get(lang) }</h2>
            <p class="muted small">{ i18n::GUARANTEES_HINT.get(lang) }</p>
            if p.rows.is_empty() {
                <p class="none ok-note">{ "✓ " }{ i18n::GUARANTEES_NONE.get(lang) }</p>
            } else {
                <p class="summary">{ i18n::findings_summary(lang, p.total, p.broken) }</p>
                <ol class="findings">
                    { for p.rows.iter().map(|r| {
                        let (class, label) = match r.severity {
                            Severity::PromiseBroken => ("broken", i18n::SEV_BROKEN.get(lang)),
                            Severity::Warning => ("warning", i18n::SEV_WARNING.get(lang)),
                        };
                        html! {
                            <li class={classes!("finding", class)}>
                                <span class="t">{ format!("{:.1} s", r.time.ms() as f64 / 1000.0) }</span>
                                <span class={classes!("sev", class)}>{ label }</span>
                                <span class="what">{ &r.text }</span>
                            </li>
                        }
                    }) }
                </ol>
            }
        </section>
    }
}
