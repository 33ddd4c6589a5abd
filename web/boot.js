// Starts the wasm app from an external module instead of Trunk's inline <script>, so the
// page's Content-Security-Policy can forbid inline scripts (script-src 'self' 'wasm-unsafe-eval').
// Trunk writes the hashed file names into <script type="application/json" id="trunk-app">
// (see `pattern_script` in Trunk.toml); a JSON data block is never executed, so CSP allows it.
const { js, wasm } = JSON.parse(document.getElementById("trunk-app").textContent);
const bindings = await import(js);
const instance = await bindings.default({ module_or_path: wasm });
dispatchEvent(new CustomEvent("TrunkApplicationStarted", { detail: { wasm: instance } }));
