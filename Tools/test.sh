#!/usr/bin/env bash
# Runs FlowStack's whole test suite: installs Lua 5.4 when missing, builds, runs `swift test`
# against the system's Lua (Debian: 5.4.4). Then runs the test targets of the modules that run
# Lua (FlowLuaTests, FlowScriptTests, FlowRuleBundlesTests, FlowLiveRulesTests, FlowTestingTests:
# a target per module, `Tests/<Module>Tests`; and FlowStackCLITests with the hostile projects)
# again against the official Lua 5.4.7 built from source (FLOWSTACK_LUA=source, its own scratch path .build-lua-source; the sources come
# from the submodule or from Tools/lua-source.sh): the sandbox gives rules one Lua on both (the
# conformance table, Tests/FlowLuaTests/LuaConformanceTests.swift, fails on the build that
# differs), so both run. On each Lua the hostile projects run on the usual stack and on a
# 512 KiB C stack (HostileScriptsTests through Tools/small-stack.sh: what iOS gives a secondary
# thread), and first of all nothing in Sources, Tests or Examples may need a Swift newer than 6.0
# (Tools/check-swift-6.0.sh). After each build, no object may need a Swift runtime newer than the
# Apple OS versions Package.swift declares (Tools/check-apple-runtime.sh).
#
# Both passes run the slow tier too (FLOWSTACK_SLOW_TESTS=1: the 10,000-sequence fuzz pass, the
# hostile projects, the explore fixtures, the watcher, live rules; a plain `swift test` runs the
# fast tier alone: docs/testing.md).
#
# Each pass builds, then tests; the lines on standard error give each build's and each test run's
# seconds apart (the tests' time is the suite's own: nothing else runs beside them).
#
#   bash Tools/test.sh                       both
#   bash Tools/test.sh --filter Router       the system-Lua run only, with swift test's arguments
#   FLOWSTACK_LUA_SOURCE_TESTS=0 bash Tools/test.sh     the system-Lua run only
set -euo pipefail
cd "$(dirname "$0")/.."
bash Tools/check-swift-6.0.sh
bash Tools/install-deps.sh

# On macOS the system-Lua run already uses Lua 5.4.7 from source.
source_pass=1
if [ "$#" -gt 0 ] || [ "${FLOWSTACK_LUA_SOURCE_TESTS:-1}" = 0 ] || [ "$(uname -s)" = Darwin ]; then
    source_pass=0
fi
scratch=.build-lua-source
# The test targets that run Lua (a `swift test --filter` pattern): the modules that embed it, and
# FlowStackDropInTests (the README's and the DocC articles' Swift examples load rules); the
# source-Lua pass runs them and FlowStackCLITests. FlowStackTests (the router) runs no Lua.
lua_test_targets='^(FlowLua|FlowScript|FlowRuleBundles|FlowLiveRules|FlowTesting|FlowStackDropIn)Tests\.'

export FLOWSTACK_SLOW_TESTS=1
start=$SECONDS
swift build --build-tests
echo "system Lua: built in $((SECONDS - start)) s" >&2
bash Tools/check-apple-runtime.sh .build/debug
tests=$SECONDS
swift test --skip-build "$@"
echo "system Lua: $(.build/debug/flowstack --version): tests in $((SECONDS - tests)) s" >&2
if [ "$source_pass" = 0 ]; then
    exit 0
fi

bash Tools/lua-source.sh
start=$SECONDS
export FLOWSTACK_LUA=source
swift build --build-tests --scratch-path "$scratch"
version="$("$scratch/debug/flowstack" --version)"
case "$version" in
*"(Lua 5.4.7)") ;;
*) echo "error: the source build runs '$version', expected Lua 5.4.7" >&2; exit 1 ;;
esac
echo "source Lua: built in $((SECONDS - start)) s" >&2
bash Tools/check-apple-runtime.sh "$scratch/debug"
tests=$SECONDS
FLOWSTACK_BINARY="$PWD/$scratch/debug/flowstack" \
    swift test --skip-build --scratch-path "$scratch" --filter "$lua_test_targets" --filter FlowStackCLITests
echo "source Lua: $version: tests in $((SECONDS - tests)) s" >&2
