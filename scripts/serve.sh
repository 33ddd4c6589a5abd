#!/usr/bin/env bash
# Builds the page in release mode and serves it on http://127.0.0.1:8080, compressed as a
# real web server would (gzip or brotli: scripts/static-server.mjs), rebuilding when the app
# sources change (`trunk watch`, see Trunk.toml). Reload the browser tab by hand after a
# rebuild. Options: --port N, --host H (default 127.0.0.1:8080).
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/setup.sh --no-browser

export PATH="$PWD/node_modules/.bin:$HOME/.cargo/bin:$PATH"
export TRUNK_SKIP_VERSION_CHECK=true
trunk build --release
# Rebuild on change in the background; stop it when the server stops.
trunk watch --release --quiet &
watcher=$!
trap 'kill "$watcher" 2>/dev/null || true' EXIT INT TERM
node scripts/static-server.mjs dist "$@"
