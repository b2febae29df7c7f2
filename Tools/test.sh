#!/usr/bin/env bash
# Runs FlowStack's whole test suite: installs Lua 5.4 when missing, builds, runs `swift test`.
set -euo pipefail
cd "$(dirname "$0")/.."
bash Tools/install-deps.sh
swift build --build-tests
swift test --skip-build "$@"
