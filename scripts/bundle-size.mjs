#!/usr/bin/env node
// The page's download: dist/'s wasm and JS, raw, gzipped (level 9) and brotli (quality 11),
// against the target of 400 KB gzipped for wasm + JS (BENCHMARKS.md, "Bundle"). Printed,
// never asserted: scripts/test.sh runs it after the build so every run shows the figure.
//
//   node scripts/bundle-size.mjs [DIST_DIR]
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";

const dir = process.argv[2] ?? "dist";
let raw = 0;
let gz = 0;
let br = 0;
for (const name of readdirSync(dir).filter((f) => /\.(wasm|js)$/.test(f)).sort()) {
  const bytes = readFileSync(join(dir, name));
  const g = gzipSync(bytes, { level: 9 }).length;
  const b = brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length;
  console.log(`${name.padEnd(48)} ${String(bytes.length).padStart(9)} raw ${String(g).padStart(8)} gzip ${String(b).padStart(8)} brotli`);
  raw += bytes.length;
  gz += g;
  br += b;
}
const kb = (n) => (n / 1000).toFixed(1);
console.log(`wasm + JS: ${kb(raw)} KB raw, ${kb(gz)} KB gzipped (target 400: ${gz <= 400_000 ? "met" : "missed"}), ${kb(br)} KB brotli`);
