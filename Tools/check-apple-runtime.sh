#!/usr/bin/env bash
# Fails when a built object needs a Swift runtime newer than the Apple OS versions Package.swift
# declares (iOS 16, macOS 13, tvOS 16, watchOS 9, visionOS 1: the Swift 5.7 runtime; visionOS 1
# has 5.10). Linux ships the newest Swift runtime with the toolchain, so a Linux build links and
# runs what an iPhone on iOS 16 cannot: the compiler rejects it only when it builds for those
# Apple targets. This scan sees it on Linux, after the build, in every object file of every
# target, and prints the source file each offending object was compiled from.
#
#   bash Tools/check-apple-runtime.sh [build directory ...]   (default: .build/debug; Tools/test.sh runs it after each build)
#
# Two checks per object (`nm`, names demangled by `swift demangle`):
#   1. An undefined reference to a runtime entry point the compiler calls only for features of a
#      newer runtime (the list below: swiftlang/swift include/swift/Runtime/RuntimeFunctions.def,
#      each entry's availability in include/swift/AST/FeatureAvailability.def, the OS versions of
#      each runtime in include/swift/AST/RuntimeVersions.def).
#   2. Type metadata (an accessor or a demangling cache) for a function type that needs the
#      Swift 6.0 runtime's extended function metadata: `throws(E)` (typed throws) or
#      `@isolated(any)`. Through a mangled name the runtime builds it without a call to
#      swift_getExtendedFunctionTypeMetadata that check 1 could see.
set -euo pipefail
cd "$(dirname "$0")/.."

# entry point | the Swift runtime and Apple OS versions that first have it. Only entry points the
# compiler calls for a language feature (which it rejects for older Apple targets) are listed:
# the ones it merely prefers when the target allows (swift_getTypeByMangledNameInContext2,
# swift_conformsToProtocol2, ...: Swift 5.9, signed descriptors) have older fallbacks it uses on
# Apple targets, and a Linux build calls them everywhere.
entries=(
    "swift_getExtendedFunctionTypeMetadata|Swift 6.0: macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2 (typed-throws or @isolated(any) function types as values or generic arguments)"
    "swift_initRawStructMetadata|Swift 6.0: macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2 (@_rawLayout types)"
    "swift_allocateMetadataPack|Swift 5.9: macOS 14, iOS 17, tvOS 17, watchOS 10 (parameter packs)"
    "swift_allocateWitnessTablePack|Swift 5.9: macOS 14, iOS 17, tvOS 17, watchOS 10 (parameter packs)"
    "swift_taskGroup_initializeWithFlags|Swift 5.9: macOS 14, iOS 17, tvOS 17, watchOS 10 (discarding task groups)"
    "swift_task_deinitOnExecutor|Swift 6.1: macOS 15.4, iOS 18.4, tvOS 18.4, watchOS 11.4, visionOS 2.4 (isolated deinit)"
    "swift_getFixedArrayTypeMetadata|Swift 6.2: macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26 (InlineArray, value generics)"
    "swift_initRawStructMetadata2|Swift 6.2: macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26 (@_rawLayout types)"
    "swift_taskGroup_initializeWithOptions|Swift 6.2: macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26 (task executor preferences)"
    "swift_task_dealloc_through|no released Apple OS (coroutine accessors)"
    "swift_task_run_inline|no released Apple OS (Task.runInline)"
    "swift_clearSensitive|no released Apple OS (@sensitive)"
    "swift_autoDiffCreateLinearMapContextWithType|no released Apple OS (differentiation)"
    "swift_autoDiffProjectTopLevelSubcontext|no released Apple OS (differentiation)"
    "swift_autoDiffAllocateSubcontextWithType|no released Apple OS (differentiation)"
)

dirs=("$@")
if [ "${#dirs[@]}" -eq 0 ]; then dirs=(.build/debug); fi
objects=()
for dir in "${dirs[@]}"; do
    if [ ! -d "$dir" ]; then
        echo "check-apple-runtime: error: no build directory '$dir': build first (swift build --build-tests)" >&2
        exit 1
    fi
    # Every target's objects: <target>.build/**/*.o (the package's own targets and its dependencies').
    while IFS= read -r -d '' object; do objects+=("$object"); done < <(find -L "$dir" -path '*.build/*' -name '*.o' -print0 | sort -z)
done
if [ "${#objects[@]}" -eq 0 ]; then
    echo "check-apple-runtime: error: no object files under ${dirs[*]}: build first (swift build --build-tests)" >&2
    exit 1
fi

# The Swift source an object was compiled from: its `<file>.swift.o` name and the target folder
# it sits in (<target>.build), looked up under Sources/, Tests/ and Examples/.
source_of() {
    local object="$1" base target found
    base="$(basename "$object" .o)"
    target="$(basename "$(dirname "$object")" .build)"
    found="$(find Sources Tests Examples -path "*/$target/*" -name "$base" -print -quit 2>/dev/null || true)"
    if [ -z "$found" ]; then found="$(find Sources Tests Examples -name "$base" -print -quit 2>/dev/null || true)"; fi
    printf '%s' "${found:-$object (source: $base in target $target)}"
}

status=0
found=0
report() { # object, message
    echo "$(source_of "$1"): error: $2 ($1)" >&2
    status=1
    found=$((found + 1))
}

# 1. Undefined references to the entry points above (one nm over every object: "object: U symbol";
# Mach-O names start with an underscore).
pattern="$(printf '%s\n' "${entries[@]}" | sed 's/|.*//' | paste -sd'|')"
while IFS=' ' read -r object symbol; do
    [ -n "$symbol" ] || continue
    # The SwiftUI stand-in (Linux only) builds SwiftUI's result builders with parameter packs; on
    # Apple platforms the files that import it compile against SwiftUI itself.
    case "$symbol" in
    swift_allocateMetadataPack | swift_allocateWitnessTablePack)
        source="$(source_of "$object")"
        if [ -f "$source" ] && grep -q "SwiftUIStandIn" "$source"; then continue; fi
        case "$object" in */SwiftUIStandIn.build/*) continue ;; esac
        ;;
    esac
    for entry in "${entries[@]}"; do
        if [ "${entry%%|*}" = "$symbol" ]; then
            report "$object" "calls $symbol, which exists from ${entry#*|}; the package declares iOS 16 and macOS 13"
        fi
    done
done < <(printf '%s\0' "${objects[@]}" | xargs -0 nm -A -u 2>/dev/null \
    | awk -v p="^_?($pattern)\$" '{ sub(/\.o:.*$/, ".o", $1); sym = $NF; if (sym ~ p) { sub(/^_/, "", sym); print $1, sym } }' | sort -u)

# 2. Metadata of a function type that needs the Swift 6.0 runtime (typed throws: YK in the
# mangling; @isolated(any): YA), whichever way it is instantiated. An opaque result type names
# the signature of the function that returns it, which needs no function metadata: left out.
while IFS= read -r line; do
    [ -n "$line" ] || continue
    object="${line%%: *}"
    report "$object" "needs metadata for a function type that exists from Swift 6.0 (macOS 15, iOS 18): ${line#*: }; use plain 'throws' (cast at the boundary), a Result, or a protocol"
done < <(printf '%s\0' "${objects[@]}" | xargs -0 nm -A 2>/dev/null | awk '$NF ~ /YK|YA/ { sub(/\.o:.*$/, ".o", $1); print $1 ": " $NF }' \
    | swift demangle 2>/dev/null | perl -pe 's/<<opaque return type of .*?>>/<<opaque type>>/g' \
    | grep -E ': (type metadata accessor for|demangling cache variable for type metadata for|type metadata for|lazy cache variable for type metadata for) .*(throws\(|@isolated\(any\))' \
    | sort -u || true)

if [ "$status" -ne 0 ]; then
    echo "check-apple-runtime: $found use(s) of a Swift runtime newer than the deployment targets in ${#objects[@]} objects" >&2
    exit 1
fi
echo "check-apple-runtime: ${#objects[@]} objects need nothing newer than the Swift 5.7 runtime (iOS 16, macOS 13)" >&2
