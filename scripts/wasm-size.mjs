#!/usr/bin/env node
// What the page's wasm is made of: code size per part (serde, Yew, std's BTreeMap and sort,
// each core and web module), raw and gzipped, from the function names of a release build
// before wasm-bindgen and wasm-opt strip them.
//
//   cargo build --release --target wasm32-unknown-unknown -p kafka-sandbox-web --bin kafka-sandbox-web
//   node scripts/wasm-size.mjs [target/wasm32-unknown-unknown/release/kafka-sandbox-web.wasm] [--top N]
//
// "gzip" is each part's function bodies gzipped together (level 9): shares of the final
// gzipped size, since duplicated generic code compresses well and unique code does not.
// --top N also lists the N largest functions; "copies" counts the instantiations of a few
// generic functions (sorts, BTreeMap) that grow with every new element type. See
// BENCHMARKS.md, "Bundle".
import { readFileSync } from "node:fs";
import { gzipSync } from "node:zlib";

const args = process.argv.slice(2);
const topIndex = args.indexOf("--top");
const top = topIndex >= 0 ? Number(args[topIndex + 1]) : 0;
const file =
  args.find((a, i) => !a.startsWith("--") && (topIndex < 0 || i !== topIndex + 1)) ??
  "target/wasm32-unknown-unknown/release/kafka-sandbox-web.wasm";
const bytes = readFileSync(file);

function leb(at) {
  let result = 0;
  let shift = 0;
  for (;;) {
    const b = bytes[at++];
    result += (b & 0x7f) * 2 ** shift;
    shift += 7;
    if (b < 0x80) return [result, at];
  }
}

// Sections: imports (to number functions), code (bodies), data, and the "name" section.
let imported = 0;
const bodies = [];
const names = new Map();
let dataBytes = Buffer.alloc(0);
for (let at = 8; at < bytes.length; ) {
  const id = bytes[at++];
  let size;
  [size, at] = leb(at);
  const start = at;
  const end = at + size;
  if (id === 2) {
    let count;
    [count, at] = leb(at);
    for (let i = 0; i < count; i++) {
      let len;
      [len, at] = leb(at);
      at += len;
      [len, at] = leb(at);
      at += len;
      const kind = bytes[at++];
      if (kind === 0) {
        [, at] = leb(at);
        imported++;
      } else if (kind === 1) {
        at++;
        let flags;
        [flags, at] = leb(at);
        [, at] = leb(at);
        if (flags & 1) [, at] = leb(at);
      } else if (kind === 2) {
        let flags;
        [flags, at] = leb(at);
        [, at] = leb(at);
        if (flags & 1) [, at] = leb(at);
      } else if (kind === 3) {
        at += 2;
      }
    }
  } else if (id === 10) {
    let count;
    [count, at] = leb(at);
    for (let i = 0; i < count; i++) {
      let len;
      [len, at] = leb(at);
      bodies.push(bytes.subarray(at, at + len));
      at += len;
    }
  } else if (id === 11) {
    dataBytes = bytes.subarray(start, end);
  } else if (id === 0) {
    let len;
    [len, at] = leb(at);
    const name = bytes.subarray(at, at + len).toString();
    at += len;
    if (name === "name") {
      while (at < end) {
        const sub = bytes[at++];
        let subSize;
        [subSize, at] = leb(at);
        const subEnd = at + subSize;
        if (sub === 1) {
          let count;
          [count, at] = leb(at);
          for (let i = 0; i < count; i++) {
            let index;
            [index, at] = leb(at);
            [len, at] = leb(at);
            names.set(index, bytes.subarray(at, at + len).toString());
            at += len;
          }
        }
        at = subEnd;
      }
    }
  }
  at = end;
}
if (names.size === 0) {
  console.error(`${file} has no name section: use the cargo build's output, not dist/'s`);
  process.exit(1);
}

/** Rust's legacy mangling (_ZN...E), enough to read paths. */
function demangle(name) {
  if (!name.startsWith("_ZN")) return name;
  const parts = [];
  let at = 3;
  while (at < name.length && name[at] !== "E") {
    const m = /^\d+/.exec(name.slice(at));
    if (!m) break;
    at += m[0].length;
    parts.push(name.slice(at, at + Number(m[0])));
    at += Number(m[0]);
  }
  if (parts.length && /^h[0-9a-f]{16}$/.test(parts[parts.length - 1])) parts.pop();
  let out = parts.join("::");
  for (const [a, b] of [["$LT$", "<"], ["$GT$", ">"], ["$u20$", " "], ["$RF$", "&"], ["$BP$", "*"], ["$C$", ","], ["$u7b$", "{"], ["$u7d$", "}"], ["$u5b$", "["], ["$u5d$", "]"], ["$u27$", "'"], ["$LP$", "("], ["$RP$", ")"], ["..", "::"]]) {
    out = out.split(a).join(b);
  }
  return out.replace(/^_</, "<");
}

function part(name) {
  if (/serde|Deserial|Serializ|Visitor|visit_/.test(name)) return "serde (derives, serde_json, serde_path_to_error)";
  let m = /kafka_sandbox_web::(\w+)(?:::(\w+))?/.exec(name);
  if (m) return `web::${m[1] === "panels" ? `panels::${m[2]}` : m[1]}`;
  m = /kafka_sandbox_core::(\w+)/.exec(name);
  if (m) return `core::${m[1]}`;
  if (/yew|implicit_clone/.test(name)) return "yew";
  if (/slice::sort/.test(name)) return "std sort";
  if (/btree/.test(name)) return "std BTreeMap/BTreeSet";
  if (/wasm_bindgen|js_sys|web_sys|gloo/.test(name)) return "wasm-bindgen, js-sys, web-sys, gloo";
  if (/fmt/.test(name)) return "std fmt";
  return "other std/alloc";
}

const groups = new Map();
const functions = [];
bodies.forEach((body, i) => {
  const name = demangle(names.get(imported + i) ?? `function ${imported + i}`);
  functions.push([body.length, name]);
  const key = part(name);
  if (!groups.has(key)) groups.set(key, []);
  groups.get(key).push(body);
});
const gz = (chunks) => gzipSync(Buffer.concat(chunks), { level: 9 }).length;
const rows = [...groups].map(([key, chunks]) => [gz(chunks), chunks.reduce((a, c) => a + c.length, 0), chunks.length, key]);
rows.sort((a, b) => b[0] - a[0]);
const totalGz = rows.reduce((a, r) => a + r[0], 0);
const totalRaw = rows.reduce((a, r) => a + r[1], 0);
console.log(`${file}: ${functions.length} functions, code ${(totalRaw / 1000).toFixed(0)} KB raw, data ${(dataBytes.length / 1000).toFixed(0)} KB raw / ${(gz([dataBytes]) / 1000).toFixed(0)} KB gzipped`);
console.log("(before wasm-opt, which shrinks code by about a sixth; KB = 1000 bytes)");
console.log(`${"raw KB".padStart(8)} ${"gzip KB".padStart(8)} ${"share".padStart(6)} ${"fns".padStart(5)}  part`);
for (const [g, raw, n, key] of rows) {
  console.log(`${(raw / 1000).toFixed(1).padStart(8)} ${(g / 1000).toFixed(1).padStart(8)} ${((100 * g) / totalGz).toFixed(1).padStart(5)}% ${String(n).padStart(5)}  ${key}`);
}
// Copies of generic code that one copy can serve (BENCHMARKS.md, "Bundle"): each copy of
// the standard library's sorts comes from a sort or a collect() into a BTreeMap/BTreeSet
// with its own types (core's go through core::sorted, which is one copy).
const copies = (re) => functions.filter(([, name]) => re.test(name)).length;
console.log(
  `copies: stable sort ${copies(/driftsort_main/)}, unstable sort ${copies(/unstable::ipnsort/)}, ` +
    `BTreeMap::insert ${copies(/BTreeMap<K,V,A>::insert$/)}, BTreeMap remove paths ${copies(/remove_leaf_kv/)}`,
);
if (top > 0) {
  console.log();
  functions.sort((a, b) => b[0] - a[0]);
  for (const [size, name] of functions.slice(0, top)) console.log(`${String(size).padStart(8)}  ${name.slice(0, 160)}`);
}
