#!/usr/bin/env bash
# Runs FLOWSTACK_SMALL_STACK_BINARY (a flowstack binary) with the arguments given, under a C stack
# of FLOWSTACK_STACK_KIB KiB (default 512: what iOS gives a secondary thread). The limit is set
# with `ulimit -s` before exec, so it bounds the main thread's stack, and glibc gives the
# threads the process starts the same size by default.
#
# The hostile-projects test (Tests/FlowStackCLITests/HostileScriptsTests.swift) runs every project
# through it once more, on each Lua Tools/test.sh tests: a change that lets a script overflow the
# C stack shows as a crash there, not only on a device.
set -euo pipefail
binary="${FLOWSTACK_SMALL_STACK_BINARY:?FLOWSTACK_SMALL_STACK_BINARY names the flowstack binary to run}"
ulimit -s "${FLOWSTACK_STACK_KIB:-512}"
exec "$binary" "$@"
