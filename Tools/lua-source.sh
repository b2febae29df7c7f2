#!/usr/bin/env bash
# Places the official Lua 5.4.7 sources at CLuaSource/lua (the path of the lua/lua submodule,
# tag v5.4.7) when the submodule is not checked out, so that `FLOWSTACK_LUA=source swift build`
# builds Lua from source on a machine where git cannot fetch the submodule.
#
# The sources come from the official release tarball lua-5.4.7.tar.gz, which is Debian trixie's
# source package lua5.4 5.4.7-1 (its lua5.4_5.4.7.orig.tar.gz) or www.lua.org/ftp. Whatever the
# origin, the tarball must have the sha256 below; anything else is refused. The tarball keeps
# the library in lua-5.4.7/src/; the git repository, and so the submodule, keeps it at its
# root: the files are laid out as the submodule has them (every .c and .h of src/ but luac.c).
#
#   bash Tools/lua-source.sh              places the sources unless already there
#   bash Tools/lua-source.sh --force      replaces what this script placed before
#   bash Tools/lua-source.sh --dest DIR   places them in DIR instead (Tools/consumer-test.sh
#                                         makes a git repository of them there)
#   LUA_TARBALL=/path/lua-5.4.7.tar.gz bash Tools/lua-source.sh   uses a tarball you have
set -euo pipefail
cd "$(dirname "$0")/.."

readonly version=5.4.7
readonly sha256=9fbf5e28ef86c69858f6d3d34eccc32e911c1a28b4120ff3e84aaa70cfbf1e30
dest=CLuaSource/lua
force=0
while [ "$#" -gt 0 ]; do
    case "$1" in
    --force) force=1 ;;
    --dest) dest="${2:?--dest needs a directory}"; shift ;;
    *) echo "error: unknown argument '$1' (--force, --dest DIR)" >&2; exit 2 ;;
    esac
    shift
done
readonly dest force
readonly marker="$dest/.flowstack-lua-source"

if [ -e "$dest/.git" ]; then
    echo "$dest is a git checkout of the submodule; nothing to do." >&2
    exit 0
fi
if [ -f "$dest/lapi.c" ] && [ "$force" = 0 ]; then
    echo "$dest already has the Lua sources ($(cat "$marker" 2>/dev/null || echo "origin unknown")); --force replaces them." >&2
    exit 0
fi

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
tarball="$work/lua-$version.tar.gz"

sha_of() { sha256sum "$1" 2>/dev/null | cut -d' ' -f1 || shasum -a 256 "$1" | cut -d' ' -f1; }

# Keeps the file only if its sha256 is the official one.
accept() {
    local got
    got="$(sha_of "$1")"
    if [ "$got" = "$sha256" ]; then
        cp "$1" "$tarball"
        return 0
    fi
    echo "refused $2: sha256 $got is not the official lua-$version.tar.gz ($sha256)" >&2
    return 1
}

from_given() {
    [ -n "${LUA_TARBALL:-}" ] || return 1
    accept "$LUA_TARBALL" "$LUA_TARBALL"
}

# Debian trixie's source package, through a private apt configuration (no root, no change to
# the system's sources).
from_debian() {
    command -v apt-get >/dev/null 2>&1 || return 1
    local apt="$work/apt"
    mkdir -p "$apt/lists/partial" "$apt/cache/archives/partial" "$apt/dl"
    echo "deb-src http://deb.debian.org/debian trixie main" >"$apt/sources.list"
    local opts=(
        -o "Dir::Etc::SourceList=$apt/sources.list" -o "Dir::Etc::SourceParts=/dev/null"
        -o "Dir::State::Lists=$apt/lists" -o "Dir::Cache=$apt/cache"
        -o "Debug::NoLocking=1" -o "APT::Sandbox::User=$(id -un)"
    )
    echo "fetching Debian trixie's source package lua5.4 5.4.7-1 (apt-get source)..." >&2
    apt-get "${opts[@]}" -qq update >/dev/null 2>&1 || return 1
    (cd "$apt/dl" && apt-get "${opts[@]}" -qq source --download-only "lua5.4=$version-1" >/dev/null 2>&1) || return 1
    accept "$apt/dl/lua5.4_$version.orig.tar.gz" "Debian's lua5.4_$version.orig.tar.gz"
}

from_lua_org() {
    local url="https://www.lua.org/ftp/lua-$version.tar.gz"
    echo "fetching $url..." >&2
    if command -v curl >/dev/null 2>&1; then
        curl -fsSL --max-time 60 -o "$work/download.tar.gz" "$url" || return 1
    elif command -v wget >/dev/null 2>&1; then
        wget -q -T 60 -O "$work/download.tar.gz" "$url" || return 1
    else
        return 1
    fi
    accept "$work/download.tar.gz" "$url"
}

if from_given; then origin="$LUA_TARBALL"
elif from_debian; then origin="Debian trixie lua5.4_$version.orig.tar.gz"
elif from_lua_org; then origin="www.lua.org lua-$version.tar.gz"
else
    echo "error: could not get lua-$version.tar.gz with sha256 $sha256." >&2
    echo "       Check out the submodule (git submodule update --init), or download the tarball" >&2
    echo "       and run: LUA_TARBALL=/path/to/lua-$version.tar.gz bash Tools/lua-source.sh" >&2
    exit 1
fi

tar -xzf "$tarball" -C "$work"
src="$work/lua-$version/src"
[ -f "$src/lapi.c" ] || { echo "error: the tarball has no lua-$version/src/lapi.c" >&2; exit 1; }

mkdir -p "$dest"
# Only what this script placed before is removed, never a checkout.
find "$dest" -maxdepth 1 -type f \( -name '*.c' -o -name '*.h' -o -name '.flowstack-lua-source' \) -delete
for file in "$src"/*.c "$src"/*.h; do
    [ "$(basename "$file")" = luac.c ] && continue
    cp "$file" "$dest/"
done
echo "$origin, sha256 $sha256" >"$marker"
echo "placed Lua $version at $dest ($origin): FLOWSTACK_LUA=source swift build builds it." >&2
