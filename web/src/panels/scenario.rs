//! Choose a built-in scenario, edit the current one in a form, or paste one as JSON.

use super::Editor;
use crate::i18n::{self, Lang};
use crate::state::Action;
use web_sys::{HtmlDetailsElement, HtmlSelectElement, HtmlTextAreaElement};
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct ScenarioProps {
    pub lang: Lang,
    pub current: String,
    pub json: std::rc::Rc<String>,
    /// The scenario's `name` (the selector shows it for a scenario not built in).
    pub name: Option<String>,
    /// Why the last JSON loaded from the box was refused (the notice says it too, but the
    /// open box covers part of it).
    pub error: Option<String>,
    pub dispatch: Callback<Action>,
}

const CHOICES: &[(&str, i18n::Msg)] = &[
    ("two-groups", i18n::SC_TWO_GROUPS),
    ("one-consumer", i18n::SC_ONE),
    ("two-consumers", i18n::SC_TWO),
    ("five-consumers", i18n::SC_FIVE),
    ("kip-848", i18n::SC_KIP848),
    ("five-consumers-share", crate::share_group_words::SC_FIVE_SHARE),
    ("transactions", crate::i18n_txn::SC_TRANSACTIONS),
];

#[component]
pub fn ScenarioPanel(p: &ScenarioProps) -> Html {
    let lang = p.lang;
    let text = use_node_ref();
    let choose = p.dispatch.reform(|e: Event| Action::LoadBuiltIn(e.target_unchecked_into::<HtmlSelectElement>().value()));
    // The text area is filled when it opens, not bound to the model: a binding would
    // overwrite what the person types on every animation frame. It is filled by the
    // summary's click, which runs before the box opens; the details' toggle event comes
    // later (queued), so filling there would wipe out anything typed in between.
    let details = use_node_ref();
    let fill = {
        let (text, details) = (text.clone(), details.clone());
        let json = p.json.clone();
        Callback::from(move |_: MouseEvent| {
            let opening = details.cast::<HtmlDetailsElement>().is_some_and(|d| !d.open());
            if let (true, Some(area)) = (opening, text.cast::<HtmlTextAreaElement>()) {
                area.set_value(&json);
            }
        })
    };
    // Another scenario (chosen, loaded, edited): an open box shows it, unless the person
    // has typed in it (their text stays; Load would load it). Without this, Load brought
    // back the scenario the box was opened on.
    let shown = use_mut_ref(|| p.json.clone());
    {
        let (text, shown) = (text.clone(), shown.clone());
        use_effect_with(p.json.clone(), move |json| {
            if let Some(area) = text.cast::<HtmlTextAreaElement>() {
                if area.value() == **shown.borrow() {
                    area.set_value(json);
                }
            }
            *shown.borrow_mut() = json.clone();
        });
    }
    let fill = {
        let fill = fill.clone();
        let shown = shown.clone();
        let json = p.json.clone();
        Callback::from(move |e: MouseEvent| {
            *shown.borrow_mut() = json.clone();
            fill.emit(e);
        })
    };
    // The form editor: open or closed here; its working copy lives in the editor itself.
    let editing = use_state(|| false);
    let edit_button = use_node_ref();
    let toggle_editor = {
        let editing = editing.clone();
        Callback::from(move |_: MouseEvent| editing.set(!*editing))
    };
    let close_editor = {
        let (editing, button) = (editing.clone(), edit_button.clone());
        Callback::from(move |()| {
            // The focus goes back to the button that opened the editor before it leaves.
            if let Some(b) = button.cast::<web_sys::HtmlElement>() {
                let _ = b.focus();
            }
            editing.set(false);
        })
    };
    let load = {
        let text = text.clone();
        let dispatch = p.dispatch.clone();
        Callback::from(move |_: MouseEvent| {
            if let Some(area) = text.cast::<HtmlTextAreaElement>() {
                dispatch.emit(Action::LoadJson(area.value()));
            }
        })
    };
    html! {
        <>
        <div class="scenario">
            <label>
                { i18n::SCENARIO.get(lang) }
                <select id="scenario" onchange={choose}>
                    { for CHOICES.iter().map(|(key, name)| html! {
                        <option value={*key} selected={p.current == *key}>{ name.get(lang) }</option>
                    }) }
                    if p.current == "custom" {
                        <option value="custom" selected=true disabled=true>{ custom_label(lang, p.name.as_deref()) }</option>
                    }
                </select>
            </label>
            <button id="edit-scenario" type="button" ref={edit_button} title={i18n::EDIT_SCENARIO_HINT.get(lang)}
                aria-expanded={(*editing).to_string()} aria-controls="scenario-editor" onclick={toggle_editor}>
                { i18n::EDIT_SCENARIO.get(lang) }
            </button>
            <details class="json" ref={details}>
                <summary onclick={fill}>{ i18n::SCENARIO_JSON.get(lang) }</summary>
                <textarea id="scenario-json" ref={text} spellcheck="false" />
                <button id="load-json" onclick={load}>{ i18n::LOAD.get(lang) }</button>
                if let Some(why) = &p.error {
                    <p id="json-error" class="json-error">{ why }</p>
                }
            </details>
        </div>
        // Outside `.scenario`, whose label and text-area styles are not the form's.
        if *editing {
            <Editor {lang} json={p.json.clone()} dispatch={p.dispatch.clone()} on_close={close_editor} />
        }
        </>
    }
}

/// The most characters of a scenario's name the selector shows.
const NAME_SHOWN: usize = 48;

/// What the selector shows for a scenario not built in: its name, else "your scenario".
fn custom_label(lang: Lang, name: Option<&str>) -> String {
    match name.map(str::trim).filter(|n| !n.is_empty()) {
        // A long name is cut (the selector never widens the page).
        Some(n) if n.chars().count() > NAME_SHOWN => format!("{}…", n.chars().take(NAME_SHOWN - 1).collect::<String>()),
        Some(n) => n.to_string(),
        None => i18n::classroom::SC_CUSTOM.get(lang).to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The selector names a pasted scenario by its name, never "JSON".
    #[test]
    fn a_scenario_not_built_in_is_shown_by_its_name() {
        assert_eq!(custom_label(Lang::En, Some("A slow consumer")), "A slow consumer");
        assert_eq!(custom_label(Lang::En, None), "Your scenario");
        assert_eq!(custom_label(Lang::Zh, Some("  ")), "你的场景");
        let long = "N".repeat(200);
        assert_eq!(custom_label(Lang::En, Some(&long)).chars().count(), NAME_SHOWN);
    }
}
