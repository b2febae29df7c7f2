#!/usr/bin/env bash
# Builds the DocC documentation of the public modules (FlowStackCore, FlowLua, FlowScript,
# FlowRuleBundles, FlowLiveRules, FlowTesting, FlowStack) from their catalogs, Sources/<Module>/<Module>.docc, and the modules' symbol graphs, without
# the swift-docc-plugin: `swift build`, then `swift symbolgraph-extract` and `docc convert` per
# module. Writes .build/docs/<Module>.doccarchive and fails on any DocC warning (an unresolved
# symbol link, an undocumented parameter). In Xcode, Product › Build Documentation finds the
# same catalogs.
set -euo pipefail
cd "$(dirname "$0")/.."

modules=(FlowStackCore FlowLua FlowScript FlowRuleBundles FlowLiveRules FlowTesting FlowStack)
out=.build/docs
docc=(docc)
if ! command -v docc >/dev/null 2>&1; then docc=(xcrun docc); fi

# FlowStack brings every module an app links; FlowTesting is not one of them.
swift build --target FlowStack
swift build --target FlowTesting
bin=$(swift build --show-bin-path)
moduleDir="$bin/Modules"
[ -d "$moduleDir" ] || moduleDir="$bin"
triple=$(swift -print-target-info | sed -n 's/.*"triple": "\(.*\)".*/\1/p' | head -n 1)

# `import CLua`: the system Lua (Linux's default) or the sources of CLuaSource, as Package.swift decides.
lua_source=false
case "${FLOWSTACK_LUA:-}" in
    source) lua_source=true ;;
    system) ;;
    *) [ "$(uname)" = Darwin ] && lua_source=true ;;
esac
# CLua is a C target (SwiftPM writes its module map into the build directory) over the Lua
# library target, whose module map is CLuaSource/include's or CLuaLibrary's.
lua_flags=(-I CLua/include -Xcc "-fmodule-map-file=$bin/CLua.build/module.modulemap")
if $lua_source; then
    lua_flags+=(-I CLuaSource/include)
else
    lua_flags+=(-I CLuaLibrary)
    for flag in $(pkg-config --cflags lua5.4); do lua_flags+=(-Xcc "$flag"); done
fi
sdk_flags=()
if [ "$(uname)" = Darwin ]; then sdk_flags=(-sdk "$(xcrun --show-sdk-path)"); fi

rm -rf "$out"
mkdir -p "$out/symbol-graphs"
failed=()
for module in "${modules[@]}"; do
    graphs="$out/symbol-graphs/$module"
    mkdir -p "$graphs"
    swift symbolgraph-extract -module-name "$module" -target "$triple" -I "$moduleDir" \
        "${lua_flags[@]}" ${sdk_flags[@]+"${sdk_flags[@]}"} \
        -minimum-access-level public -emit-extension-block-symbols -output-dir "$graphs"
    if "${docc[@]}" convert "Sources/$module/$module.docc" --additional-symbol-graph-dir "$graphs" \
        --fallback-display-name "$module" --fallback-bundle-identifier "org.flowstack.$module" \
        --output-path "$out/$module.doccarchive" --warnings-as-errors; then
        echo "$out/$module.doccarchive"
    else
        failed+=("$module")
    fi
done
if [ ${#failed[@]} -gt 0 ]; then
    echo "DocC reported problems in: ${failed[*]} (see the errors above)" >&2
    exit 1
fi
