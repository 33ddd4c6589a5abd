#!/usr/bin/env bash
# Runs every test of the project, installing the tools first (scripts/setup.sh):
#   0. lint:    cargo fmt --all --check; cargo clippy (native and wasm32) with -D warnings;
#               rustdoc of the core with -D warnings (missing docs, broken links); the
#               core's package list
#   1. native:  cargo test --workspace --locked (tests/tidy.rs checks the layers and habits)
#   2. wasm:    cargo test -p kafka-sandbox-web --target wasm32-unknown-unknown --locked
#               (web/tests/browser.rs in headless Chromium via chromedriver)
#   3. build:   trunk build --release  (dist/), then prints the download's size (scripts/bundle-size.mjs)
#   4. e2e:     node --test tests/e2e/*.test.mjs  (serves dist/ itself, drives /usr/bin/chromium;
#               screenshots in tests/e2e/output/)
# Stops at the first failing stage and exits non-zero; the last line is a summary.
set -euo pipefail
cd "$(dirname "$0")/.."

export PATH="$PWD/node_modules/.bin:$HOME/.cargo/bin:$PATH"
export TRUNK_SKIP_VERSION_CHECK=true
export CARGO_TERM_COLOR="${CARGO_TERM_COLOR:-never}"

passed=0
timings=()
total_start=$SECONDS

header() { printf '\n\033[1;34m===== %s =====\033[0m\n' "$*"; }

summary() {
  local failed=$1
  echo
  echo "timings: ${timings[*]:-none} total=$((SECONDS - total_start))s"
  echo "stages: $passed passed, $failed failed"
}

# stage NAME COMMAND...: runs one stage, records its time, stops everything if it fails.
stage() {
  local name=$1
  shift
  header "$name: $*"
  local start=$SECONDS status=0
  "$@" || status=$?
  timings+=("$name=$((SECONDS - start))s")
  if [ "$status" -ne 0 ]; then
    echo "FAILED: stage '$name' exited with status $status" >&2
    summary 1
    exit "$status"
  fi
  passed=$((passed + 1))
}

stage setup scripts/setup.sh
lint() {
  cargo fmt --all --check &&
    cargo clippy --workspace --all-targets --locked -- -D warnings &&
    cargo clippy -p kafka-sandbox-web --target wasm32-unknown-unknown --all-targets --locked -- -D warnings &&
    RUSTDOCFLAGS="-D warnings" cargo doc -p kafka-sandbox-core --no-deps --locked &&
    package_check
}
# The library crate would publish: its package holds only the source, the embedded
# scenarios and lessons, the examples, the tests and the README (no fuzz corpus, no
# build output), and cargo has no warning about its manifest.
package_check() {
  local list
  list=$(cargo package -p kafka-sandbox-core --allow-dirty --no-verify --list --locked 2>&1) || { echo "$list" >&2; return 1; }
  if echo "$list" | grep -i '^warning'; then return 1; fi
  local stray
  stray=$(echo "$list" | grep -vE '^(src/.*\.rs|scenarios/[^/]+\.json|lessons/[^/]+\.json|examples/[^/]+\.rs|tests/[^/]+\.rs|README\.md|Cargo\.toml|Cargo\.toml\.orig|Cargo\.lock|\.cargo_vcs_info\.json)$' || true)
  if [ -n "$stray" ]; then echo "the core package holds files that do not belong: $stray" >&2; return 1; fi
}

stage lint lint
stage native cargo test --workspace --locked
stage wasm cargo test -p kafka-sandbox-web --target wasm32-unknown-unknown --locked
stage build trunk build --release
# The download's size, printed (never a failure): BENCHMARKS.md, "Bundle".
node scripts/bundle-size.mjs dist || true
stage e2e node --test tests/e2e/*.test.mjs
summary 0
