// Serves a built page (dist/) over HTTP with the compression a real web server gives it:
// gzip or brotli when the browser asks (Accept-Encoding), compressed once per file version
// and kept, so the wasm (1.5 MB raw, about 570 KB gzipped) travels compressed. Used by
// scripts/serve.sh (the app on http://127.0.0.1:8080) and by the end-to-end tests and
// benchmarks (tests/e2e/helpers.mjs serveDist), so what they measure is what a person gets.
//
// As a program: node scripts/static-server.mjs [DIR] [--port N] [--host H]
// "/" serves index.html; missing files are 404 (no SPA fallback); only GET and HEAD; no
// path outside DIR is ever read.
import { createServer } from "node:http";
import { existsSync } from "node:fs";
import { readFile, stat } from "node:fs/promises";
import { extname, join, normalize, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";

export const MIME = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".wasm": "application/wasm",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".ico": "image/x-icon",
  ".txt": "text/plain; charset=utf-8",
};

/** Types worth compressing (images are compressed already). */
const COMPRESSIBLE = new Set([".html", ".js", ".mjs", ".wasm", ".css", ".json", ".svg", ".txt"]);

/** The encoding to send for an Accept-Encoding header: brotli, else gzip, else none. */
export function pickEncoding(accept = "") {
  const offered = new Set(
    accept
      .split(",")
      .map((part) => part.trim().split(";"))
      .filter(([, q]) => !q || !/^q=0(\.0*)?$/.test(q.trim()))
      .map(([name]) => name.trim().toLowerCase()),
  );
  if (offered.has("br")) return "br";
  if (offered.has("gzip")) return "gzip";
  return null;
}

/**
 * Starts a server for `dir` on `host:port` (port 0: an ephemeral one). Options:
 * `compress` (default true), `cache` (Cache-Control, default "no-store").
 * Returns { url, port, requests, close() }; `requests` lists "METHOD path status encoding".
 */
export async function serveDir(dir, { port = 0, host = "127.0.0.1", compress = true, cache = "no-store" } = {}) {
  const root = resolve(dir);
  if (!existsSync(join(root, "index.html"))) {
    throw new Error(`${root}/index.html is missing: run \`trunk build --release\` first`);
  }
  const requests = [];
  // path -> { mtimeMs, size, gzip, br }: compressed once per file version.
  const compressed = new Map();
  const server = createServer(async (req, res) => {
    const done = (status, headers = {}, body = "", encoding = "") => {
      requests.push(`${req.method} ${req.url} ${status}${encoding ? ` ${encoding}` : ""}`);
      res.writeHead(status, { "Cache-Control": cache, ...headers });
      res.end(req.method === "HEAD" ? undefined : body);
    };
    if (req.method !== "GET" && req.method !== "HEAD") return done(405);
    let path;
    try {
      path = decodeURIComponent(new URL(req.url, "http://x").pathname);
    } catch {
      return done(400);
    }
    if (path.endsWith("/")) path += "index.html";
    const file = normalize(join(root, path));
    if (file !== root && !file.startsWith(root + sep)) return done(403);
    try {
      const info = await stat(file);
      if (!info.isFile()) return done(404);
      const ext = extname(file).toLowerCase();
      const type = MIME[ext] ?? "application/octet-stream";
      const encoding = compress && COMPRESSIBLE.has(ext) ? pickEncoding(req.headers["accept-encoding"]) : null;
      if (!encoding) {
        const body = await readFile(file);
        return done(200, { "Content-Type": type, "Content-Length": body.length }, body);
      }
      let entry = compressed.get(file);
      if (!entry || entry.mtimeMs !== info.mtimeMs || entry.size !== info.size) {
        entry = { mtimeMs: info.mtimeMs, size: info.size, raw: await readFile(file) };
        compressed.set(file, entry);
      }
      if (!entry[encoding]) {
        entry[encoding] =
          encoding === "br"
            ? brotliCompressSync(entry.raw, { params: { [constants.BROTLI_PARAM_QUALITY]: 9 } })
            : gzipSync(entry.raw, { level: 9 });
      }
      const body = entry[encoding];
      done(
        200,
        { "Content-Type": type, "Content-Encoding": encoding, "Content-Length": body.length, Vary: "Accept-Encoding" },
        body,
        encoding,
      );
    } catch {
      done(404, { "Content-Type": "text/plain" }, "not found");
    }
  });
  await new Promise((ok, fail) => {
    server.once("error", fail);
    server.listen(port, host, ok);
  });
  const bound = server.address().port;
  return {
    url: `http://${host}:${bound}/`,
    port: bound,
    requests,
    close: () =>
      new Promise((ok) => {
        server.closeAllConnections?.();
        server.close(() => ok());
      }),
  };
}

// As a program (scripts/serve.sh): serve DIR until stopped.
if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  let dir = "dist";
  let port = 8080;
  let host = "127.0.0.1";
  for (let i = 0; i < args.length; i++) {
    if (args[i] === "--port") port = Number(args[++i]);
    else if (args[i] === "--host") host = args[++i];
    else dir = args[i];
  }
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    console.error(`static-server: --port ${port}: expected 0 to 65535`);
    process.exit(2);
  }
  const { url } = await serveDir(dir, { port, host });
  console.log(`serving ${resolve(dir)} on ${url} (gzip and brotli when asked); Ctrl-C stops`);
}
