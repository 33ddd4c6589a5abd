//! "Try it on real Kafka": the bridge of the scenario (`kafka_sandbox_core::bridge`) — its
//! compose.yaml to save, then each step's command lines to copy, with what the sandbox
//! predicts beside them and where a real cluster may differ.

use super::send;
use crate::i18n::{self, Lang};
use crate::state::Action;
use kafka_sandbox_core::bridge::Bridge;
use std::rc::Rc;
use yew::prelude::*;

#[derive(Properties)]
pub struct BridgeProps {
    pub lang: Lang,
    pub bridge: Rc<Result<Bridge, String>>,
    pub dispatch: Callback<Action>,
}

/// The bridge is made once when the panel opens: compared by pointer.
impl PartialEq for BridgeProps {
    fn eq(&self, other: &Self) -> bool {
        self.lang == other.lang && Rc::ptr_eq(&self.bridge, &other.bridge) && self.dispatch == other.dispatch
    }
}

#[component]
pub fn BridgePanel(p: &BridgeProps) -> Html {
    use i18n::classroom as w;
    let lang = p.lang;
    let d = &p.dispatch;
    let body = match p.bridge.as_ref() {
        Err(e) => html! { <p class="notice error" role="alert">{ e }</p> },
        Ok(b) => html! {
            <>
                <div class="bridge-compose">
                    <div class="bridge-head">
                        <h3>{ format!("compose.yaml · {}", b.image) }</h3>
                        <button id="bridge-save-compose" onclick={send(d, Action::SaveText { name: "compose.yaml".into(), text: b.compose.clone() })}>
                            { w::BRIDGE_SAVE.get(lang) }
                        </button>
                    </div>
                    <pre class="bridge-code"><code>{ &b.compose }</code></pre>
                </div>
                <ol class="bridge-steps">
                    { for b.steps.iter().enumerate().map(|(i, s)| {
                        let lines = s.lines.join("\n");
                        html! {
                            <li key={i} class="bridge-step" data-step={i.to_string()}>
                                <div class="bridge-head">
                                    <h3>
                                        { w::bridge_what(lang, &s.what) }
                                        if let Some(at) = s.at_ms {
                                            <span class="bridge-at">{ format!(" · {} {}", w::BRIDGE_AT.get(lang), i18n::seconds(at)) }</span>
                                        }
                                    </h3>
                                    if !s.lines.is_empty() {
                                        <button class="bridge-copy" onclick={send(d, Action::CopyText(lines.clone()))}>{ w::BRIDGE_COPY.get(lang) }</button>
                                    }
                                </div>
                                if !s.lines.is_empty() {
                                    <pre class="bridge-code"><code>{ lines }</code></pre>
                                }
                                if !s.predicts.is_empty() {
                                    <div class="bridge-predicts">
                                        <strong>{ w::BRIDGE_PREDICTS.get(lang) }</strong>
                                        <ul>{ for s.predicts.iter().map(|pr| {
                                            let text = w::bridge_predict(lang, pr);
                                            if matches!(pr, kafka_sandbox_core::bridge::Predict::DescribeTable(_)) {
                                                html! { <li><pre class="bridge-code describe"><code>{ text }</code></pre></li> }
                                            } else {
                                                html! { <li>{ text }</li> }
                                            }
                                        }) }</ul>
                                    </div>
                                }
                                { for s.caveats.iter().map(|c| html! { <p class="bridge-caveat small">{ format!("{}{}", w::BRIDGE_NOTE.get(lang), w::bridge_caveat(lang, *c)) }</p> }) }
                            </li>
                        }
                    }) }
                </ol>
            </>
        },
    };
    html! {
        <section id="bridge" class="panel bridge" aria-label={w::BRIDGE.get(lang)}>
            <div class="lesson-head">
                <h2>{ w::BRIDGE.get(lang) }</h2>
                <button id="bridge-close" onclick={send(d, Action::ToggleBridge)}>{ i18n::CLOSE.get(lang) }</button>
            </div>
            <p class="small">{ w::BRIDGE_HINT.get(lang) }</p>
            { body }
        </section>
    }
}
