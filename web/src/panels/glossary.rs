//! The glossary panel: each Kafka term in the page's language (with the other language's
//! word), its one-line meaning and how the seed articles say it (`crate::glossary`).

use super::send;
use crate::glossary::TERMS;
use crate::i18n::{self, Lang};
use crate::state::Action;
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct GlossaryProps {
    pub lang: Lang,
    pub dispatch: Callback<Action>,
}

#[component]
pub fn GlossaryPanel(p: &GlossaryProps) -> Html {
    use i18n::classroom as w;
    let lang = p.lang;
    html! {
        <section id="glossary" class="panel glossary" role="dialog" aria-label={w::GLOSSARY.get(lang)}>
            <div class="lesson-head">
                <h2>{ w::GLOSSARY.get(lang) }</h2>
                <button id="glossary-close" onclick={send(&p.dispatch, Action::ToggleGlossary)}>{ i18n::CLOSE.get(lang) }</button>
            </div>
            <p class="small">{ w::GLOSSARY_HINT.get(lang) }</p>
            <table class="glossary-table">
                <thead>
                    <tr><th scope="col">{ w::GLOSSARY_TERM.get(lang) }</th><th scope="col">{ w::GLOSSARY_MEANING.get(lang) }</th><th scope="col">{ w::GLOSSARY_SEED.get(lang) }</th></tr>
                </thead>
                <tbody>
                    { for TERMS.iter().map(|t| html! {
                        <tr key={t.id} data-term={t.id}>
                            <th scope="row" class="term">
                                { t.word(lang) }
                                if t.word(lang) != t.word(lang.other()) {
                                    <span class="other">{ format!(" ({})", t.word(lang.other())) }</span>
                                }
                            </th>
                            <td class="meaning">{ t.meaning(lang) }</td>
                            <td class="seed" lang="zh-CN">{ t.seed }</td>
                        </tr>
                    }) }
                </tbody>
            </table>
        </section>
    }
}
