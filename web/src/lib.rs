//! TEMPORARY placeholder written by the build/test tooling helper.
//! The lead replaces this with the real Kafka Sandbox app; keep `App` and `#app-root`.
use yew::prelude::*;

/// The root component of the page.
#[function_component(App)]
pub fn app() -> Html {
    html! {
        <main id="app-root">
            <h1>{ "Kafka Sandbox" }</h1>
            <p>{ "The simulator UI is on its way." }</p>
        </main>
    }
}
