fn main() {
    #[cfg(target_arch = "wasm32")]
    yew::Renderer::<kafka_sandbox_web::App>::new().render();
}
