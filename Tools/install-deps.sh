#!/usr/bin/env bash
# Installs what FlowStack needs from the system when it is missing: Lua 5.4 (headers and
# library, found through pkg-config as `lua5.4`). Debian/Ubuntu: apt-get. macOS needs nothing:
# the package builds Lua 5.4.7 from its CLuaSource/lua submodule (checked out here when missing).
set -euo pipefail
cd "$(dirname "$0")/.."

if [ "$(uname -s)" = Darwin ] && [ "${FLOWSTACK_LUA:-}" != system ]; then
    if [ ! -f CLuaSource/lua/lapi.c ]; then
        git submodule update --init CLuaSource/lua 2>/dev/null || bash Tools/lua-source.sh
    fi
    exit 0
fi

# Optional, for CI: FLOWSTACK_LINT_TOOLS=1 also installs luacheck (Debian's lua-check) and lcov
# (genhtml), which the tests use when present (`luacheck Scripts`, coverage reports).
if [ "${FLOWSTACK_LINT_TOOLS:-0}" = "1" ] && command -v apt-get >/dev/null 2>&1 \
    && ! { command -v luacheck >/dev/null 2>&1 && command -v genhtml >/dev/null 2>&1; }; then
    lint_sudo=""
    if [ "$(id -u)" -ne 0 ]; then lint_sudo="sudo"; fi
    echo "installing lua-check and lcov (apt-get)..." >&2
    $lint_sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $lint_sudo apt-get install -y -qq lua-check lcov >/dev/null
fi

if pkg-config --exists lua5.4 2>/dev/null; then
    exit 0
fi

case "$(uname -s)" in
Linux)
    if ! command -v apt-get >/dev/null 2>&1; then
        echo "error: Lua 5.4 is missing and this is not a Debian-like system." >&2
        echo "       Install Lua 5.4 with its headers so that 'pkg-config lua5.4' works, then retry." >&2
        exit 1
    fi
    sudo=""
    if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
    echo "installing liblua5.4-dev and pkg-config (apt-get)..." >&2
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq liblua5.4-dev pkg-config >/dev/null
    ;;
Darwin)
    echo "error: FLOWSTACK_LUA=system and no Lua 5.4 that 'pkg-config lua5.4' finds." >&2
    echo "       Unset FLOWSTACK_LUA to build Lua 5.4.7 from the package's submodule instead." >&2
    exit 1
    ;;
*)
    echo "error: Lua 5.4 is missing; install it so that 'pkg-config lua5.4' works." >&2
    exit 1
    ;;
esac

pkg-config --exists lua5.4 || { echo "error: liblua5.4-dev installed but pkg-config lua5.4 still fails" >&2; exit 1; }
