#!/usr/bin/env bash
# Runs FlowStack's whole test suite: installs Lua 5.4 when missing, builds, runs `swift test`
# against the system's Lua (Debian: 5.4.4). Then runs the Lua modules' suites (FlowScriptTests:
# FlowLua, FlowScript, FlowTesting, FlowRuleBundles and FlowLiveRules, each in the folder of its
# name; and FlowStackCLITests with the hostile projects) again against the official Lua 5.4.7 built
# from source (FLOWSTACK_LUA=source, its own scratch path .build-lua-source; the sources come
# from the submodule or from Tools/lua-source.sh). The two Luas have different limits (C stack,
# parser depth), so both run. Each Lua's hostile projects run a second time on a 512 KiB C stack
# (Tools/small-stack.sh: what iOS gives a secondary thread), and first of all nothing in
# Sources, Tests or Examples may need a Swift newer than 6.0 (Tools/check-swift-6.0.sh).
#
#   bash Tools/test.sh                       both
#   bash Tools/test.sh --filter Router       the system-Lua run only, with swift test's arguments
#   FLOWSTACK_LUA_SOURCE_TESTS=0 bash Tools/test.sh     the system-Lua run only
set -euo pipefail
cd "$(dirname "$0")/.."
bash Tools/check-swift-6.0.sh
bash Tools/install-deps.sh

# The hostile projects again, each flowstack process on a 512 KiB stack (main thread included).
small_stack_hostile() {
    local binary="$1" scratch="$2"
    local small_started=$SECONDS
    FLOWSTACK_SMALL_STACK_BINARY="$PWD/$binary" FLOWSTACK_BINARY="$PWD/Tools/small-stack.sh" \
        swift test --skip-build --scratch-path "$scratch" --filter HostileScriptsTests
    echo "hostile projects on a 512 KiB stack: passed ($(FLOWSTACK_SMALL_STACK_BINARY="$PWD/$binary" bash Tools/small-stack.sh --version), $((SECONDS - small_started)) s)" >&2
}

start=$SECONDS
swift build --build-tests
swift test --skip-build "$@"
echo "system Lua: $(.build/debug/flowstack --version) ($((SECONDS - start)) s)" >&2
if [ "$#" -eq 0 ]; then
    small_stack_hostile .build/debug/flowstack .build
fi

# On macOS the run above already used Lua 5.4.7 from source.
if [ "$#" -gt 0 ] || [ "${FLOWSTACK_LUA_SOURCE_TESTS:-1}" = 0 ] || [ "$(uname -s)" = Darwin ]; then
    exit 0
fi

start=$SECONDS
bash Tools/lua-source.sh
export FLOWSTACK_LUA=source
scratch=.build-lua-source
swift build --build-tests --scratch-path "$scratch"
version="$("$scratch/debug/flowstack" --version)"
case "$version" in
*"(Lua 5.4.7)") ;;
*) echo "error: the source build runs '$version', expected Lua 5.4.7" >&2; exit 1 ;;
esac
FLOWSTACK_BINARY="$PWD/$scratch/debug/flowstack" \
    swift test --skip-build --scratch-path "$scratch" --filter FlowScriptTests --filter FlowStackCLITests
echo "source Lua: $version ($((SECONDS - start)) s)" >&2
small_stack_hostile "$scratch/debug/flowstack" "$scratch"
