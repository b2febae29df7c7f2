#!/usr/bin/env bash
# Runs the tests of the modules that run Lua (FlowLuaTests, FlowScriptTests, FlowRuleBundlesTests,
# FlowLiveRulesTests, FlowTestingTests: the VM, the sandbox, the rules engine, the hardening
# suites, the flow-test runner, bundles, live rules) under AddressSanitizer with LeakSanitizer, then under ThreadSanitizer.
# Each sanitizer builds into its own scratch path (.build-asan, .build-tsan), so the normal
# .build stays as it is. A run fails on the first sanitizer report.
#
#   Tools/sanitize.sh                 both sanitizers
#   Tools/sanitize.sh address         AddressSanitizer + LeakSanitizer only
#   Tools/sanitize.sh thread          ThreadSanitizer only
#   FLOWSTACK_SANITIZE_FILTER=Hardening Tools/sanitize.sh address    another test filter
#
# Needs: Lua 5.4 (installed by Tools/install-deps.sh when missing) and the Swift toolchain's
# own sanitizer runtimes (libclang_rt.asan/tsan, shipped with swift.org toolchains on Linux).
# Reports are symbolized when llvm-symbolizer is on PATH (apt-get install llvm).
# Each run's output is kept in <scratch path>/sanitize.log. Expect 10 to 30 minutes per
# sanitizer on two cores the first time, most of it building (later runs rebuild what changed).
set -euo pipefail
cd "$(dirname "$0")/.."

which_sanitizers=${1:-all}
filter=${FLOWSTACK_SANITIZE_FILTER:-'^(FlowLua|FlowScript|FlowRuleBundles|FlowLiveRules|FlowTesting)Tests\.'}

bash Tools/install-deps.sh

# The toolchain's runtimes must be there, or swift test fails late with a link error.
toolchain_lib="$(dirname "$(dirname "$(command -v swift)")")/lib"
check_runtime() {
    if ! find -L "$toolchain_lib" -name "libclang_rt.$1-*.a" -print -quit 2>/dev/null | grep -q .; then
        echo "error: the Swift toolchain at $toolchain_lib has no $1 sanitizer runtime (libclang_rt.$1-<arch>.a)." >&2
        echo "       Install a swift.org toolchain for Linux (it ships them), then retry." >&2
        exit 1
    fi
}

if command -v llvm-symbolizer >/dev/null 2>&1; then
    export ASAN_SYMBOLIZER_PATH="${ASAN_SYMBOLIZER_PATH:-$(command -v llvm-symbolizer)}"
    export TSAN_SYMBOLIZER_PATH="${TSAN_SYMBOLIZER_PATH:-$(command -v llvm-symbolizer)}"
fi

run() {
    local sanitizer=$1 scratch=$2
    check_runtime "$3"
    echo "== $sanitizer: swift test --sanitize=$sanitizer --scratch-path $scratch --filter $filter"
    local started=$SECONDS
    local status=0
    local log="$scratch/sanitize.log"
    mkdir -p "$scratch"
    swift test --sanitize="$sanitizer" --scratch-path "$scratch" --filter "$filter" >"$log" 2>&1 || status=$?
    local elapsed=$((SECONDS - started))
    local summary
    summary=$(grep -E "Test run with [0-9]+ tests?" "$log" | tail -1 || true)
    if [ "$status" -ne 0 ] || grep -qE "ERROR: (AddressSanitizer|LeakSanitizer)|WARNING: ThreadSanitizer|SUMMARY: (Address|Leak|Thread)Sanitizer" "$log"; then
        grep -nE -A40 "ERROR: (AddressSanitizer|LeakSanitizer)|WARNING: ThreadSanitizer" "$log" | head -120 >&2 || true
        tail -20 "$log" >&2
        echo "== $sanitizer: FAILED after ${elapsed}s (full output in $log)" >&2
        return 1
    fi
    echo "== $sanitizer: no report: ${summary:-tests passed} (${elapsed}s including the build; output in $log)"
}

failed=0
case "$which_sanitizers" in
all | address)
    # LeakSanitizer runs inside AddressSanitizer on Linux; it reports at exit. The toolchain's
    # XCTest harness (which swift test starts before Swift Testing) leaks two small objects of
    # its own at exit: suppressed, nothing else is.
    suppressions="$PWD/.build-asan/lsan-suppressions.txt"
    mkdir -p .build-asan
    printf 'leak:libXCTest.so\n' >"$suppressions"
    ASAN_OPTIONS="detect_leaks=1:halt_on_error=1:strict_string_checks=1:detect_stack_use_after_return=1${ASAN_OPTIONS:+:$ASAN_OPTIONS}" \
    LSAN_OPTIONS="suppressions=$suppressions${LSAN_OPTIONS:+:$LSAN_OPTIONS}" \
        run address .build-asan asan || failed=1
    ;;&
all | thread)
    TSAN_OPTIONS="halt_on_error=1${TSAN_OPTIONS:+:$TSAN_OPTIONS}" \
        run thread .build-tsan tsan || failed=1
    ;;
address) ;;
*)
    echo "usage: Tools/sanitize.sh [all|address|thread]" >&2
    exit 2
    ;;
esac
exit $failed
