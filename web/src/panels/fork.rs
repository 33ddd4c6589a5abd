//! Branch and compare: the run against its fork (the same run from the fork's moment on,
//! without the learner's later changes), side by side; differing rows stand out. A fork
//! made after going back replays the recorded future by moment (the crash made before
//! going back happens in it), and so does the run after a change, unless the learner
//! chooses to diverge.

use super::send;
use crate::i18n::{self, Lang};
use crate::state::Action;
use kafka_sandbox_core::compare::Outcome;
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct ForkProps {
    pub lang: Lang,
    pub at_ms: u64,
    pub now_ms: u64,
    pub this: Outcome,
    pub fork: Outcome,
    /// The recorded future the fork replays: (moment in ms, the command as JSON).
    pub future: std::rc::Rc<Vec<(u64, String)>>,
    /// Whether this run keeps replaying it after a change.
    pub keep_future: bool,
    /// Commands of the recorded future this run has still to replay by moment.
    pub timed: usize,
    pub dispatch: Callback<Action>,
}

#[component]
pub fn ForkPanel(p: &ForkProps) -> Html {
    let lang = p.lang;
    let close = send(&p.dispatch, Action::CloseFork);
    let rows: [(&str, u64, u64); 8] = [
        (i18n::OUT_ACKED_LOST.get(lang), p.this.acked_lost, p.fork.acked_lost),
        (i18n::OUT_RECORDS_LOST.get(lang), p.this.records_lost, p.fork.records_lost),
        (i18n::OUT_DUPLICATES.get(lang), p.this.duplicates, p.fork.duplicates),
        (i18n::OUT_UNPROCESSED.get(lang), p.this.unprocessed, p.fork.unprocessed),
        (i18n::OUT_PAUSE.get(lang), p.this.rebalance_stopped_ms, p.fork.rebalance_stopped_ms),
        (i18n::OUT_LAG.get(lang), p.this.lag, p.fork.lag),
        (i18n::OUT_DELIVERED.get(lang), p.this.delivered, p.fork.delivered),
        (i18n::OUT_ACKED.get(lang), p.this.acked, p.fork.acked),
    ];
    html! {
        <section id="fork" class="panel fork">
            <div class="rp-head">
                <h2>{ format!("{} · {} → {}", i18n::FORK_TITLE.get(lang), i18n::seconds(p.at_ms), i18n::seconds(p.now_ms)) }</h2>
                <button id="fork-close" onclick={close}>{ i18n::FORK_CLOSE.get(lang) }</button>
            </div>
            if !p.future.is_empty() {
                <div class="fork-future">
                    <p class="small">{ i18n::classroom::fork_future(lang, p.future.len()) }</p>
                    <ul class="fork-commands small">
                        { for p.future.iter().map(|(at, c)| html! { <li><span class="t">{ i18n::seconds(*at) }</span>{ " " }<code>{ c }</code></li> }) }
                    </ul>
                    <label class="fork-keep">
                        <input id="fork-keep-future" type="checkbox" checked={p.keep_future}
                            onchange={p.dispatch.reform(|e: Event| Action::KeepFuture(e.target_unchecked_into::<web_sys::HtmlInputElement>().checked()))} />
                        { i18n::classroom::FORK_KEEP.get(lang) }
                    </label>
                    if p.timed > 0 {
                        <p class="small muted">{ i18n::classroom::fork_timed(lang, p.timed) }</p>
                    }
                </div>
            }
            <table class="compare-table">
                <thead><tr><th />
                    <th scope="col">{ i18n::FORK_THIS.get(lang) }</th>
                    <th scope="col">{ i18n::FORK_COPY.get(lang) }</th>
                </tr></thead>
                <tbody>
                    { for rows.iter().enumerate().map(|(i, (label, a, b))| html! {
                        <tr class={classes!(format!("o-{i}"), (a != b).then_some("differs"))}>
                            <th scope="row">{ label.to_string() }</th>
                            <td>{ if i == 4 { i18n::seconds(*a) } else { a.to_string() } }</td>
                            <td>{ if i == 4 { i18n::seconds(*b) } else { b.to_string() } }</td>
                        </tr>
                    }) }
                </tbody>
            </table>
        </section>
    }
}
