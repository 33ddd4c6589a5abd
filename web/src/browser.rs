//! The few browser services the page uses beyond the DOM: the address's fragment, local
//! storage (autosave, language) and files (save, open). Every call tolerates a browser
//! that refuses (private mode, storage full): the page keeps working without it.

use wasm_bindgen::JsCast;

const AUTOSAVE_KEY: &str = "kafka-sandbox.autosave";
const LANG_KEY: &str = "kafka-sandbox.lang";

fn storage() -> Option<web_sys::Storage> {
    web_sys::window()?.local_storage().ok().flatten()
}

/// The fragment of the address, without '#', if any.
pub fn fragment() -> Option<String> {
    let hash = web_sys::window()?.location().hash().ok()?;
    let hash = hash.trim_start_matches('#');
    (!hash.is_empty()).then(|| hash.to_string())
}

/// The page's address without fragment (for share links).
pub fn base_url() -> String {
    web_sys::window()
        .and_then(|w| w.location().href().ok())
        .map(|h| h.split('#').next().unwrap_or_default().to_string())
        .unwrap_or_default()
}

pub fn load_autosave() -> Option<String> {
    storage()?.get_item(AUTOSAVE_KEY).ok().flatten()
}

pub fn save_autosave(text: &str) {
    if let Some(s) = storage() {
        // Full storage: the session is simply not saved.
        let _ = s.set_item(AUTOSAVE_KEY, text);
    }
}

const THEME_KEY: &str = "kafka-sandbox.theme";

/// The theme chosen earlier: "light", "dark", or nothing (follow the system).
pub fn load_theme() -> Option<String> {
    storage()?.get_item(THEME_KEY).ok().flatten()
}

/// Applies a theme to the page (and remembers it); `None` follows the system.
pub fn apply_theme(theme: Option<&str>) {
    let Some(root) = web_sys::window().and_then(|w| w.document()).and_then(|d| d.document_element()) else { return };
    match theme {
        Some(t) => {
            let _ = root.set_attribute("data-theme", t);
        }
        None => {
            let _ = root.remove_attribute("data-theme");
        }
    }
    if let Some(s) = storage() {
        let _ = match theme {
            Some(t) => s.set_item(THEME_KEY, t),
            None => s.remove_item(THEME_KEY),
        };
    }
}

/// Scrolls the first element any of `selectors` matches to the middle of the window
/// (nothing happens if none matches or a selector is not valid CSS).
pub fn scroll_to_first(selectors: &[String]) {
    let Some(doc) = web_sys::window().and_then(|w| w.document()) else { return };
    let Some(el) = selectors.iter().find_map(|s| doc.query_selector(s).ok().flatten()) else { return };
    // Its top into view (the page's scroll-padding keeps it clear of a lesson drawer): a
    // tall card centred would hide its heading.
    let options = web_sys::ScrollIntoViewOptions::new();
    options.set_block(web_sys::ScrollLogicalPosition::Start);
    el.scroll_into_view_with_scroll_into_view_options(&options);
    // The lesson itself starts at its top.
    if let Some(side) = doc.get_element_by_id("lesson-side") {
        side.set_scroll_top(0);
    }
}

/// Fetches one of the page's own files as text (same origin: the CSP allows nothing else).
pub async fn fetch_text(url: &str) -> Result<String, String> {
    use wasm_bindgen::JsCast;
    let window = web_sys::window().ok_or("no window")?;
    let response = wasm_bindgen_futures::JsFuture::from(window.fetch_with_str(url)).await.map_err(|e| format!("{e:?}"))?;
    let response: web_sys::Response = response.dyn_into().map_err(|_| "not a response".to_string())?;
    if !response.ok() {
        return Err(format!("{url}: HTTP {}", response.status()));
    }
    let text = wasm_bindgen_futures::JsFuture::from(response.text().map_err(|e| format!("{e:?}"))?).await.map_err(|e| format!("{e:?}"))?;
    text.as_string().ok_or_else(|| format!("{url}: not text"))
}

const LESSONS_KEY: &str = "kafka-sandbox.lessons";

/// Lesson progress remembered from an earlier visit (see `state::progress_text`).
pub fn load_lesson_progress() -> Option<String> {
    storage()?.get_item(LESSONS_KEY).ok().flatten()
}

pub fn save_lesson_progress(text: &str) {
    if let Some(s) = storage() {
        let _ = s.set_item(LESSONS_KEY, text);
    }
}

const MOTION_KEY: &str = "kafka-sandbox.motion";

/// Whether reduced motion was chosen on an earlier visit.
pub fn load_less_motion() -> bool {
    storage().and_then(|s| s.get_item(MOTION_KEY).ok().flatten()).is_some_and(|v| v == "reduced")
}

/// Applies reduced motion to the page (`data-motion="reduced"`) and remembers it.
pub fn apply_less_motion(on: bool) {
    let Some(root) = web_sys::window().and_then(|w| w.document()).and_then(|d| d.document_element()) else { return };
    let _ = if on { root.set_attribute("data-motion", "reduced") } else { root.remove_attribute("data-motion") };
    if let Some(s) = storage() {
        let _ = if on { s.set_item(MOTION_KEY, "reduced") } else { s.remove_item(MOTION_KEY) };
    }
}

pub fn load_lang() -> Option<String> {
    storage()?.get_item(LANG_KEY).ok().flatten()
}

pub fn save_lang(code: &str) {
    if let Some(s) = storage() {
        let _ = s.set_item(LANG_KEY, code);
    }
}

/// Offers `text` as a file download named `name`.
pub fn download(name: &str, text: &str) -> Option<()> {
    download_as(name, text, "application/json")
}

/// Offers `text` as a plain-text (YAML, shell) file named `name`.
pub fn download_text(name: &str, text: &str) -> Option<()> {
    download_as(name, text, "text/plain")
}

fn download_as(name: &str, text: &str, mime: &str) -> Option<()> {
    let parts = js_sys::Array::of1(&wasm_bindgen::JsValue::from_str(text));
    let options = web_sys::BlobPropertyBag::new();
    options.set_type(mime);
    let blob = web_sys::Blob::new_with_str_sequence_and_options(&parts, &options).ok()?;
    let url = web_sys::Url::create_object_url_with_blob(&blob).ok()?;
    let document = web_sys::window()?.document()?;
    let a: web_sys::HtmlAnchorElement = document.create_element("a").ok()?.dyn_into().ok()?;
    a.set_href(&url);
    a.set_download(name);
    a.click();
    let _ = web_sys::Url::revoke_object_url(&url);
    Some(())
}

/// Reads the first file chosen in `input` as text.
pub async fn read_chosen(input: web_sys::HtmlInputElement) -> Option<String> {
    let file = input.files()?.get(0)?;
    // A file far larger than any run or scenario is not read at all.
    if file.size() > 8.0 * 1024.0 * 1024.0 {
        return Some(String::new());
    }
    let text = wasm_bindgen_futures::JsFuture::from(file.text()).await.ok()?;
    text.as_string()
}

/// Puts `text` on the clipboard; whether the browser took it (it may refuse: no focus,
/// no permission, an old browser).
pub async fn copy_text(text: &str) -> bool {
    let Some(window) = web_sys::window() else { return false };
    let clipboard = window.navigator().clipboard();
    wasm_bindgen_futures::JsFuture::from(clipboard.write_text(text)).await.is_ok()
}

/// Listens to `keydown` on the window while the returned value lives (dropping it removes
/// the listener).
pub fn on_key(f: impl FnMut(&web_sys::KeyboardEvent) + 'static) -> Option<KeyListener> {
    use wasm_bindgen::closure::Closure;
    let window = web_sys::window()?;
    let mut f = f;
    let closure = Closure::<dyn FnMut(web_sys::KeyboardEvent)>::new(move |e: web_sys::KeyboardEvent| f(&e));
    window.add_event_listener_with_callback("keydown", closure.as_ref().unchecked_ref()).ok()?;
    Some(KeyListener { window, closure })
}

/// A window `keydown` listener, removed when dropped.
pub struct KeyListener {
    window: web_sys::Window,
    closure: wasm_bindgen::closure::Closure<dyn FnMut(web_sys::KeyboardEvent)>,
}

impl Drop for KeyListener {
    fn drop(&mut self) {
        let _ = self.window.remove_event_listener_with_callback("keydown", self.closure.as_ref().unchecked_ref());
    }
}
