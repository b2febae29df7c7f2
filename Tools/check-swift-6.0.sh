#!/usr/bin/env bash
# Fails on Swift constructs newer than Swift 6.0 (Xcode 16.0, the oldest toolchain the package
# supports: swift-tools-version 6.0) in Sources, Tests and Examples, and on a manifest that asks
# for newer tools. CI's toolchain is newer and accepts them all, so without this check they
# would only fail on the oldest Xcode. Prints file:line, the construct and what to write instead.
#
#   bash Tools/check-swift-6.0.sh          (Tools/test.sh runs it first)
#
# A pattern check, not a compiler: each rule is a regular expression over one line, comment
# lines skipped. Rules (the Swift release that brought the construct):
set -euo pipefail
cd "$(dirname "$0")/.."

# name | ERE | what to do instead
rules=(
    "weak let (6.2)|(^|[^A-Za-z0-9_])weak[[:space:]]+let([^A-Za-z0-9_]|$)|use 'weak var'"
    "nonisolated(nonsending) (6.2)|nonisolated\\(nonsending\\)|drop it: in 6.0 a nonisolated async function runs on the generic executor"
    "@concurrent (6.2)|@concurrent([^A-Za-z0-9_]|$)|drop it: 6.0 runs nonisolated async functions concurrently already"
    "InlineArray (6.2)|(^|[^A-Za-z0-9_])InlineArray([^A-Za-z0-9_]|$)|use a tuple or an Array"
    "[N of T] inline array type (6.2)|\\[[[:space:]]*[0-9_]+[[:space:]]+of[[:space:]]+[A-Z]|use a tuple or an Array"
    "Span types (6.2)|(^|[^A-Za-z0-9_])(Span|RawSpan|MutableSpan|MutableRawSpan|UTF8Span|OutputSpan|OutputRawSpan)[[:space:]]*[<(.]|use withUnsafeBufferPointer"
    "~Escapable / @lifetime (6.2)|~Escapable|@_?lifetime\\(|drop it"
    "isolated deinit (6.2)|(^|[^A-Za-z0-9_])isolated[[:space:]]+deinit|move the work out of deinit"
    "isolated conformance ': @MainActor P' (6.2)|^[[:space:]]*([a-z]+[[:space:]]+)*(struct|class|enum|actor|extension)[[:space:]][^{]*:[^{]*@MainActor[[:space:]]+[A-Z]|isolate the type, or conform without isolation"
    "nonisolated on a type or extension (6.1)|^[[:space:]]*([a-z]+[[:space:]]+)*nonisolated[[:space:]]+([a-z]+[[:space:]]+)*(struct|class|enum|actor|extension|protocol)[[:space:]]|mark the members nonisolated instead"
    "@abi (6.2)|@abi\\(|drop it"
    "@c / @section / @used / @specialized (6.3)|@(c|section|used|specialized)([[:space:]]|\\(|$)|use @_cdecl, or drop it"
    "@inline(always) (6.3)|@inline\\(always\\)|use @inline(__always)"
    "Task.immediate / Task(name:) (6.2)|Task\\.immediate|Task(\\.detached)?[[:space:]]*\\([[:space:]]*name:|use Task { } without a name"
    "Swift Testing exit tests, attachments (6.2)|#(expect|require)\\([[:space:]]*processExitsWith:|Attachment\\.record|not available with Xcode 16.0's Swift Testing"
    "defaultIsolation (6.2)|defaultIsolation\\(|drop it; annotate @MainActor explicitly"
)

status=0
found=0
files=()
while IFS= read -r -d '' file; do files+=("$file"); done < <(find Sources Tests Examples -name '*.swift' -print0 | sort -z)

for rule in "${rules[@]}"; do
    name="${rule%%|*}"
    rest="${rule#*|}"
    advice="${rest##*|}"
    pattern="${rest%|*}"
    # grep -n over every file; comment lines (//, ///, a block comment's *) are skipped.
    while IFS= read -r hit; do
        [ -n "$hit" ] || continue
        location="${hit%%:*}"
        rest_hit="${hit#*:}"
        line="${rest_hit%%:*}"
        text="${rest_hit#*:}"
        case "$(printf '%s' "$text" | sed -e 's/^[[:space:]]*//')" in
        //* | \** | /\**) continue ;;
        esac
        # SwiftUIStandIn is fenced with `#if !canImport(SwiftUI)`: never compiled where Xcode is.
        # An inactive block is only parsed, and Swift 6.0 parses `nonisolated struct` (rejecting
        # it is a semantic check), so only the platforms without SwiftUI, on CI's Swift, see it.
        case "$name:$location" in
        "nonisolated on a type"*:Sources/SwiftUIStandIn/*) continue ;;
        esac
        echo "$location:$line: error: $name is newer than Swift 6.0 (the oldest supported, Xcode 16.0): $advice" >&2
        echo "    $(printf '%s' "$text" | sed -e 's/^[[:space:]]*//')" >&2
        status=1
        found=$((found + 1))
    done < <(grep -nE -H -- "$pattern" "${files[@]}" || true)
done

# Trailing commas in argument, parameter and tuple lists (6.1): a line ending with ',' followed
# by a line that starts with ')'. Array and dictionary literals (']') allowed them already.
while IFS= read -r hit; do
    [ -n "$hit" ] || continue
    echo "$hit: error: a trailing comma before ')' is newer than Swift 6.0 (6.1): remove the comma" >&2
    status=1
    found=$((found + 1))
done < <(awk 'FNR == 1 { prev = "" } {
        line = $0; sub(/[[:space:]]*\/\/.*$/, "", line)
        if (prev ~ /,[[:space:]]*$/ && line ~ /^[[:space:]]*\)/) print FILENAME ":" FNR
        prev = line
    }' "${files[@]}")

# The manifest: no tools version above 6.0.
tools="$(head -n 1 Package.swift | sed -n 's/^\/\/ *swift-tools-version: *\([0-9.]*\).*/\1/p')"
case "$tools" in
5.* | 6.0 | 6.0.*) ;;
*)
    echo "Package.swift:1: error: swift-tools-version $tools is newer than 6.0 (Xcode 16.0)" >&2
    status=1
    found=$((found + 1))
    ;;
esac

if [ "$status" -ne 0 ]; then
    echo "check-swift-6.0: $found construct(s) newer than Swift 6.0 in ${#files[@]} files" >&2
    exit 1
fi
echo "check-swift-6.0: ${#files[@]} Swift files need nothing newer than Swift 6.0 (swift-tools-version $tools)" >&2
