// Starts the wasm app from an external module instead of Trunk's inline <script>, so the
// page's Content-Security-Policy can forbid inline scripts (script-src 'self' 'wasm-unsafe-eval').
// Trunk writes the hashed file names into <script type="application/json" id="trunk-app">
// (see `pattern_script` in Trunk.toml); a JSON data block is never executed, so CSP allows it.
//
// Meanwhile the loading screen (#loading in index.html, painted before this runs) shows how
// much of the wasm has arrived; if WebAssembly cannot start, it says so in both languages
// with the browser's own reason. The app removes the screen once it has rendered.
const loading = document.getElementById("loading");
const status = document.getElementById("loading-status");
const fill = document.getElementById("loading-fill");

function fail(reason) {
  if (!loading) return;
  loading.setAttribute("data-failed", "");
  const error = document.getElementById("loading-error");
  if (error) error.textContent = String(reason?.message ?? reason);
}

function kb(bytes) {
  return `${Math.round(bytes / 1024)} KB`;
}

// Counts the wasm's bytes as they arrive, on a clone of the response (the original goes to
// instantiateStreaming untouched, so it compiles while downloading). Content-Length is the
// compressed size when the server compresses, so a percentage is shown only for an
// uncompressed response.
async function count(response) {
  const encoded = response.headers.get("content-encoding");
  const total = encoded ? 0 : Number(response.headers.get("content-length")) || 0;
  if (!response.body) return;
  const reader = response.body.getReader();
  let loaded = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    loaded += value.byteLength;
    if (status) {
      status.textContent = total
        ? `正在下载模拟器 · Downloading the simulator: ${Math.min(100, Math.round((100 * loaded) / total))} %`
        : `正在下载模拟器 · Downloading the simulator: ${kb(loaded)}`;
    }
    if (fill && total) {
      fill.setAttribute("data-known", "");
      fill.style.width = `${Math.min(100, (100 * loaded) / total)}%`;
    }
  }
  if (status) status.textContent = "正在启动… · Starting…";
}

try {
  if (typeof WebAssembly !== "object" || typeof WebAssembly.instantiate !== "function") {
    throw new Error("WebAssembly is not available in this browser");
  }
  const { js, wasm } = JSON.parse(document.getElementById("trunk-app").textContent);
  const bindings = await import(js);
  const response = await fetch(wasm);
  if (!response.ok) throw new Error(`${wasm}: HTTP ${response.status}`);
  const counting = count(response.clone()).catch(() => {});
  const instance = await bindings.default({ module_or_path: response });
  await counting;
  dispatchEvent(new CustomEvent("TrunkApplicationStarted", { detail: { wasm: instance } }));
} catch (e) {
  fail(e);
  // Still reported as an error (tests and the console see it).
  throw e;
}
