//! Browser tests of the web crate: `cargo test -p kafka-sandbox-web --target wasm32-unknown-unknown`
//! runs them in headless Chromium (see .cargo/config.toml and webdriver.json).
//! Only `#[wasm_bindgen_test]` functions run there: a plain `#[test]` is silently skipped.
#![cfg(target_arch = "wasm32")]

use wasm_bindgen_test::{wasm_bindgen_test, wasm_bindgen_test_configure};
use web_sys::Element;

wasm_bindgen_test_configure!(run_in_browser);

/// Mounts `App` into a fresh element of the test page and returns that element.
fn mount_app() -> Element {
    let document = web_sys::window()
        .and_then(|w| w.document())
        .expect("a document");
    let host = document.create_element("div").expect("create a div");
    document
        .body()
        .expect("a body")
        .append_child(&host)
        .expect("append the host element");
    yew::Renderer::<kafka_sandbox_web::App>::with_root(host.clone()).render();
    host
}

/// Lets Yew's scheduler run before the DOM is read.
async fn settle() {
    gloo_timers::future::TimeoutFuture::new(0).await;
}

#[wasm_bindgen_test]
async fn app_renders_its_root() {
    let host = mount_app();
    settle().await;
    let root = host
        .query_selector("#app-root")
        .expect("a valid selector")
        .expect("App renders #app-root");
    let text = root.text_content().unwrap_or_default();
    assert!(text.contains("Kafka Sandbox"), "unexpected text: {text:?}");
}
