//! The core throughput benchmark in wasm, under Node: the same scenario and loop as the
//! native `cargo bench --bench throughput` (benches/common), timed with `performance.now()`.
//!
//! Not part of `cargo test` (`test = false` in web/Cargo.toml); run it with
//! `cargo test -p kafka-sandbox-web --target wasm32-unknown-unknown --release --test bench`,
//! or `scripts/bench-throughput.sh` for both figures and their ratio. Figures are printed,
//! never asserted.
#![cfg(target_arch = "wasm32")]

use wasm_bindgen::prelude::wasm_bindgen;
use wasm_bindgen_test::{console_log, wasm_bindgen_test};

#[path = "../../benches/common/mod.rs"]
mod common;

#[wasm_bindgen]
extern "C" {
    /// `performance.now()`: milliseconds, from the JS host (Node here).
    #[wasm_bindgen(js_namespace = performance, js_name = now)]
    fn performance_now() -> f64;
}

#[wasm_bindgen_test]
fn throughput() {
    let records = 100_000;
    let scenario = common::throughput_scenario(records, 1);
    let mut best = 0.0f64;
    for run in 1..=3 {
        let start = performance_now();
        let out = common::run_throughput(&scenario, records, 3_600_000);
        let ms = performance_now() - start;
        let rps = f64::from(records) / (ms / 1000.0);
        console_log!(
            "wasm run {run}: {ms:.0} ms, {rps:.0} records/s, {:.0} steps/s, {:.0} trace events/s, sim {:.1} s",
            out.sim.steps() as f64 / (ms / 1000.0),
            out.sim.trace().total() as f64 / (ms / 1000.0),
            out.sim.now().ms() as f64 / 1000.0
        );
        best = best.max(rps);
    }
    console_log!("best: {best:.0} records/s (wasm32, Node)");
}
