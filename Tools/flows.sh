#!/usr/bin/env bash
# Runs the example app's flow tests (Scripts/) through `flowstack test`: installs Lua 5.4 when
# missing, builds the CLI, runs it. Extra arguments go to `flowstack test` (a directory, --filter, --format).
set -euo pipefail
cd "$(dirname "$0")/.."
bash Tools/install-deps.sh
swift build --product flowstack
exec .build/debug/flowstack test "$@"
