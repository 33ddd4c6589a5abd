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

/// The same scenario and seed give the same trace in wasm32 as natively: the digest
/// equals the golden value the native test checks (tests/golden/two-groups.digest).
#[wasm_bindgen_test]
fn the_default_scenario_runs_to_the_native_digest_in_the_browser() {
    let scenario = kafka_sandbox_core::scenario::default_scenario();
    let mut sim = scenario.build().expect("the default scenario builds");
    sim.run_until(kafka_sandbox_core::SimTime(scenario.end_ms()));
    let golden = include_str!("../../tests/golden/two-groups.digest").trim();
    assert_eq!(format!("{:016x}", sim.trace().digest()), golden);
}

/// The groups panel, given the seed run, shows who owns which partition and what each
/// consumer received, in order.
#[wasm_bindgen_test]
async fn groups_panel_shows_the_seed_assignment_and_messages() {
    use kafka_sandbox_web::i18n::Lang;
    use kafka_sandbox_web::panels::{Groups, GroupsProps};
    use std::rc::Rc;

    let scenario = kafka_sandbox_core::scenario::default_scenario();
    let mut sim = scenario.build().expect("the default scenario builds");
    sim.run_until(kafka_sandbox_core::SimTime(scenario.end_ms()));
    let props = GroupsProps { lang: Lang::En, snap: Rc::new(sim.snapshot()), dispatch: yew::Callback::noop() };

    let document = web_sys::window().and_then(|w| w.document()).expect("a document");
    let host = document.create_element("div").expect("create a div");
    document.body().expect("a body").append_child(&host).expect("append");
    yew::Renderer::<Groups>::with_root_and_props(host.clone(), props).render();
    settle().await;

    let text = |selector: &str| {
        host.query_selector(selector).ok().flatten().and_then(|e| e.text_content()).unwrap_or_default()
    };
    let received = |group: &str, client: &str| {
        let list = host
            .query_selector_all(&format!("[data-group=\"{group}\"] [data-client=\"{client}\"] .received .rec"))
            .expect("a valid selector");
        (0..list.length())
            .filter_map(|i| list.item(i).and_then(|n| n.text_content()))
            .collect::<Vec<_>>()
            .join(" ")
    };
    assert_eq!(text("[data-group=\"ConsumerGroup01\"] [data-client=\"Consumer1\"] .parts"), "P0 P2");
    assert_eq!(text("[data-group=\"ConsumerGroup01\"] [data-client=\"Consumer2\"] .parts"), "P1 P3");
    assert_eq!(received("ConsumerGroup01", "Consumer1"), "m1 m3 m5 m7");
    assert_eq!(received("ConsumerGroup01", "Consumer2"), "m2 m4 m6");
    assert_eq!(received("ConsumerGroup02", "Consumer1"), "m1 m2 m3 m4 m5 m6 m7");
    assert!(text("[data-group=\"ConsumerGroup01\"] .badge").contains("Stable"));
}
