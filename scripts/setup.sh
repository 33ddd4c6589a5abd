#!/usr/bin/env bash
# Installs every tool the build and the tests need, from crates.io, npm and
# Debian apt only, and skips whatever is already installed at the right version.
# Usage: scripts/setup.sh [--no-browser]
set -euo pipefail
cd "$(dirname "$0")/.."

want_browser=1
[ "${1:-}" = "--no-browser" ] && want_browser=0

log() { printf '\033[1;34m[setup]\033[0m %s\n' "$*"; }

export PATH="$HOME/.cargo/bin:$PATH"

# 1. The wasm target for rustc.
if ! rustup target list --installed | grep -qx wasm32-unknown-unknown; then
  log "adding rust target wasm32-unknown-unknown"
  rustup target add wasm32-unknown-unknown
fi

# 1b. rustfmt and clippy for the lint stage (part of rustup's default profile).
for component in rustfmt clippy; do
  if ! rustup component list --installed | grep -q "^$component"; then
    log "adding rust component $component"
    rustup component add "$component"
  fi
done

# 2. Trunk 0.22.1. It declares a newer rust-version than this toolchain but builds fine.
TRUNK_VERSION=0.22.1
if [ "$(trunk --version 2>/dev/null | awk '{print $2}')" != "$TRUNK_VERSION" ]; then
  log "installing trunk $TRUNK_VERSION (about 9 minutes on 2 cores)"
  CARGO_PROFILE_RELEASE_LTO=false CARGO_PROFILE_RELEASE_CODEGEN_UNITS=16 \
    cargo install trunk --version "$TRUNK_VERSION" --locked --ignore-rust-version
fi

# 3. wasm-bindgen-cli must equal the wasm-bindgen version in Cargo.lock.
WB_VERSION=$(awk '/^name = "wasm-bindgen"$/ {getline; gsub(/"/, "", $3); print $3; exit}' Cargo.lock)
if [ -z "$WB_VERSION" ]; then
  echo "setup: cannot read the wasm-bindgen version from Cargo.lock" >&2
  exit 1
fi
if [ "$(wasm-bindgen --version 2>/dev/null | awk '{print $2}')" != "$WB_VERSION" ] \
   || ! command -v wasm-bindgen-test-runner >/dev/null; then
  log "installing wasm-bindgen-cli $WB_VERSION (about 3 minutes)"
  # Its own lockfile pins a crate version the registry lacks: install unlocked.
  CARGO_PROFILE_RELEASE_LTO=false CARGO_PROFILE_RELEASE_CODEGEN_UNITS=16 \
    cargo install wasm-bindgen-cli --version "$WB_VERSION" --force
fi

# 4. npm tools: wasm-opt (binaryen 132) for Trunk, playwright-core for end-to-end tests.
if ! command -v npm >/dev/null; then
  echo "setup: node and npm are needed (Debian: apt-get install nodejs npm)" >&2
  exit 1
fi
if [ ! -x node_modules/.bin/wasm-opt ] || [ ! -d node_modules/playwright-core ] \
   || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  log "installing npm packages"
  npm ci --no-audit --no-fund
fi

# 5. Headless Chromium and its driver, from Debian.
if [ "$want_browser" = 1 ] && { ! command -v chromium >/dev/null || ! command -v chromedriver >/dev/null; }; then
  log "installing chromium and chromium-driver from apt"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq chromium chromium-driver >/dev/null
fi
# Chinese glyphs for the page's screenshots (the tests read the DOM, but people look at them).
if [ "$want_browser" = 1 ] && [ ! -d /usr/share/fonts/opentype/noto ]; then
  log "installing fonts-noto-cjk from apt"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq fonts-noto-cjk >/dev/null
fi

# 6. Every crate, once, so later builds can run offline and locked.
cargo fetch --locked
log "tools ready"
