#!/usr/bin/env bash
# Core throughput natively and in wasm (Node), and their ratio (see BENCHMARKS.md):
#   1. cargo bench --bench throughput                     (native, release profile)
#   2. cargo test -p kafka-sandbox-web --target wasm32-unknown-unknown --release --test bench
#      -- --nocapture                                     (web/tests/bench.rs under Node)
# Both run the same scenario (benches/common) three times and report their best run.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PWD/node_modules/.bin:$HOME/.cargo/bin:$PATH"

native=$(cargo bench --bench throughput 2>/dev/null | tee /dev/stderr | sed -n 's/^best: \([0-9]*\) records\/s.*/\1/p')
wasm=$(cargo test -p kafka-sandbox-web --target wasm32-unknown-unknown --release --test bench -- --nocapture 2>/dev/null \
  | tee /dev/stderr | sed -n 's/^best: \([0-9]*\) records\/s.*/\1/p')
echo
if [ -n "$native" ] && [ -n "$wasm" ]; then
  awk -v n="$native" -v w="$wasm" 'BEGIN { printf "records/s: native %d, wasm %d; wasm/native = %.2f\n", n, w, w / n }'
else
  echo "a figure is missing (native: '${native}', wasm: '${wasm}')" >&2
  exit 1
fi
