//! Share a link, save the run to a file, open a file.

use super::send;
use crate::i18n::{self, Lang};
use crate::state::{Action, ShareState, SharedFrom};
use web_sys::HtmlInputElement;
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct ShareProps {
    pub lang: Lang,
    /// What the last Share click made (the link with the page's address).
    pub share: Option<ShareState>,
    pub dispatch: Callback<Action>,
}

#[component]
pub fn SharePanel(p: &ShareProps) -> Html {
    let lang = p.lang;
    let share = send(&p.dispatch, Action::Share);
    let save = send(&p.dispatch, Action::SaveFile);
    let open = {
        let dispatch = p.dispatch.clone();
        Callback::from(move |e: Event| {
            let input: HtmlInputElement = e.target_unchecked_into();
            let dispatch = dispatch.clone();
            yew::platform::spawn_local(async move {
                if let Some(text) = crate::browser::read_chosen(input.clone()).await {
                    dispatch.emit(Action::OpenShared { text, from: SharedFrom::File });
                }
                input.set_value("");
            });
        })
    };
    let select_all = Callback::from(|e: FocusEvent| e.target_unchecked_into::<HtmlInputElement>().select());
    html! {
        <div class="share">
            <button id="share" title={i18n::SHARE_HINT.get(lang)} onclick={share}>{ i18n::SHARE.get(lang) }</button>
            <button id="save-file" title={i18n::SAVE_FILE_HINT.get(lang)} onclick={save}>{ i18n::SAVE_FILE.get(lang) }</button>
            <label class="open-file button" title={i18n::OPEN_FILE_HINT.get(lang)}>
                { i18n::OPEN_FILE.get(lang) }
                <input id="open-file" type="file" accept=".json,application/json,text/plain" onchange={open} />
            </label>
            if let Some(ShareState::Link { text, copied }) = &p.share {
                <input id="share-link" class="share-link" readonly=true aria-label={i18n::SHARE_LINK.get(lang)}
                    title={i18n::SHARE_LINK.get(lang)} value={text.clone()} onfocus={select_all} />
                if let Some(ok) = copied {
                    <span id="share-copied" class={classes!("share-copied", (!ok).then_some("bad"))} role="status">
                        { if *ok { i18n::classroom::LINK_COPIED.get(lang) } else { i18n::classroom::LINK_NOT_COPIED.get(lang) } }
                    </span>
                }
            }
            if let Some(ShareState::TooBig { chars }) = &p.share {
                <span id="share-too-big" class="share-too-big bad" role="status">
                    { crate::messages::share_refusal(lang, &kafka_sandbox_core::share::ShareError::TooBigForLink { chars: *chars }) }
                </span>
                <button id="share-save-file" class="primary" onclick={send(&p.dispatch, Action::SaveFile)}>{ i18n::classroom::SAVE_INSTEAD.get(lang) }</button>
            }
        </div>
    }
}
