#!/usr/bin/env bash
# Builds the page in release mode and serves it on http://127.0.0.1:8080 (see Trunk.toml),
# rebuilding when the app sources change. Extra arguments go to `trunk serve`.
# Trunk's live-reload script is inline, which the page's CSP blocks, so it is turned off:
# reload the browser tab by hand after a rebuild.
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/setup.sh --no-browser

export PATH="$PWD/node_modules/.bin:$HOME/.cargo/bin:$PATH"
export TRUNK_SKIP_VERSION_CHECK=true
exec trunk serve --release --no-autoreload "$@"
