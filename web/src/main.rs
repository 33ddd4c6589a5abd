//! The Kafka Sandbox page's entry point: renders the app (in the browser only).

fn main() {
    #[cfg(target_arch = "wasm32")]
    yew::Renderer::<kafka_sandbox_web::App>::new().render();
}
