//! Play, pause, step, reset, speed, and the clock.

use super::send;
use crate::i18n::{self, Lang};
use crate::state::{Action, SPEEDS};
use crate::timeline::JumpKind;
use kafka_sandbox_core::SimTime;
use web_sys::HtmlSelectElement;
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct ControlsProps {
    pub lang: Lang,
    pub playing: bool,
    /// Run to is under way, to this many simulated ms.
    pub running_to: Option<u64>,
    pub speed: usize,
    pub now: SimTime,
    pub events: u64,
    /// Steps taken so far, and the furthest this run has reached (for the scrubber).
    pub steps: u64,
    pub reached: u64,
    /// The speed the run really keeps, when it falls behind the chosen one (issue 20).
    pub behind: Option<f64>,
    pub dispatch: Callback<Action>,
}

#[component]
pub fn Controls(p: &ControlsProps) -> Html {
    let lang = p.lang;
    let toggle = send(&p.dispatch, Action::TogglePlay);
    let step = send(&p.dispatch, Action::Step);
    let back = send(&p.dispatch, Action::StepBack);
    let fork = send(&p.dispatch, Action::Fork);
    let scrub = p.dispatch.reform(|e: Event| {
        let v = e.target_unchecked_into::<web_sys::HtmlInputElement>().value().parse().unwrap_or(0);
        Action::GoTo(v)
    });
    let jump = |forward: bool, kind: JumpKind| send(&p.dispatch, Action::Jump { forward, kind });
    let reset = send(&p.dispatch, Action::Reset);
    let run_to_input = use_node_ref();
    let run_to = {
        let input = run_to_input.clone();
        p.dispatch.reform(move |e: SubmitEvent| {
            e.prevent_default();
            let text = input.cast::<web_sys::HtmlInputElement>().map(|i| i.value()).unwrap_or_default();
            Action::RunTo(text)
        })
    };
    // While running to a moment the button pauses (it stops the run there).
    let busy = p.playing || p.running_to.is_some();
    let speed = p.dispatch.reform(|e: Event| {
        let i = e.target_unchecked_into::<HtmlSelectElement>().value().parse().unwrap_or(crate::state::DEFAULT_SPEED);
        Action::SetSpeed(i)
    });
    html! {
        <nav class="controls" aria-label="player">
            <button id="play" class={classes!("primary", busy.then_some("on"))} onclick={toggle}>
                { if busy { i18n::PAUSE.get(lang) } else { i18n::PLAY.get(lang) } }
            </button>
            <button id="step-back" title={i18n::BACK_HINT.get(lang)} disabled={p.steps == 0} onclick={back}>{ i18n::BACK.get(lang) }</button>
            <button id="step" title={i18n::STEP_HINT.get(lang)} onclick={step}>{ i18n::STEP.get(lang) }</button>
            <button id="reset" onclick={reset}>{ i18n::RESET.get(lang) }</button>
            <button id="fork-here" title={i18n::FORK_HINT.get(lang)} onclick={fork}>{ i18n::FORK.get(lang) }</button>
            <label class="speed">
                { i18n::SPEED.get(lang) }
                <select id="speed" onchange={speed}>
                    { for SPEEDS.iter().enumerate().map(|(i, (_, label))| html! {
                        <option value={i.to_string()} selected={i == p.speed}>{ *label }</option>
                    }) }
                </select>
            </label>
            if let (Some(x), true) = (p.behind, p.playing) {
                <span id="speed-reached" class="speed-reached" role="status" title={i18n::speed_reached_hint(lang, x, SPEEDS.get(p.speed).map_or(1.0, |s| s.0))}>
                    { i18n::speed_reached(lang, x) }
                </span>
            }
            <label class="scrub" title={i18n::SCRUB_HINT.get(lang)}>
                { i18n::SCRUB.get(lang) }
                <input id="scrubber" type="range" min="0" max={p.reached.max(p.steps).to_string()} value={p.steps.to_string()}
                    aria-valuetext={format!("{} / {}", p.steps, p.reached.max(p.steps))} onchange={scrub} />
            </label>
            <span class="jumps">
                { for [JumpKind::Rebalance, JumpKind::Fault, JumpKind::Finding].into_iter().map(|k| {
                    let name = k.id();
                    html! {
                        <span class="jump">
                            <button id={format!("jump-prev-{name}")} title={format!("{} {}", i18n::JUMP_PREV.get(lang), i18n::jump_label(lang, k))}
                                aria-label={format!("{} {}", i18n::JUMP_PREV.get(lang), i18n::jump_label(lang, k))} onclick={jump(false, k)}>{ "◀" }</button>
                            <span class="jump-name">{ i18n::jump_label(lang, k) }</span>
                            <button id={format!("jump-next-{name}")} title={format!("{} {}", i18n::JUMP_NEXT.get(lang), i18n::jump_label(lang, k))}
                                aria-label={format!("{} {}", i18n::JUMP_NEXT.get(lang), i18n::jump_label(lang, k))} onclick={jump(true, k)}>{ "▶" }</button>
                        </span>
                    }
                }) }
            </span>
            <form class="run-to" title={i18n::RUN_TO_HINT.get(lang)} onsubmit={run_to}>
                <label for="run-to-time">{ i18n::RUN_TO.get(lang) }</label>
                <input id="run-to-time" ref={run_to_input} type="text" inputmode="decimal" size="6" placeholder="12.5"
                    autocomplete="off" aria-describedby="run-to-unit" />
                <span id="run-to-unit" class="muted">{ "s" }</span>
                <button id="run-to" type="submit">{ i18n::RUN_TO_GO.get(lang) }</button>
                if let Some(ms) = p.running_to {
                    <span id="run-to-status" role="status">{ i18n::running_to(lang, ms) }</span>
                }
            </form>
            <span class="clock" aria-live="off">
                { i18n::TIME.get(lang) }{ ": " }
                <strong id="sim-time" data-ms={p.now.ms().to_string()}>{ format!("{:.1} s", p.now.ms() as f64 / 1000.0) }</strong>
                <span class="muted">{ format!(" · {} {}", p.events, i18n::EVENTS.get(lang)) }</span>
            </span>
        </nav>
    }
}
