//! The Kafka Sandbox page's entry point: renders the app (in the browser only), then takes
//! the loading screen away (`#loading` in index.html, painted before the wasm arrived).

fn main() {
    #[cfg(target_arch = "wasm32")]
    {
        yew::Renderer::<kafka_sandbox_web::App>::new().render();
        if let Some(loading) = web_sys::window().and_then(|w| w.document()).and_then(|d| d.get_element_by_id("loading")) {
            loading.remove();
        }
    }
}
