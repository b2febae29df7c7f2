#!/usr/bin/env bash
# Counts the public declarations of each module: the API an app sees.
#
#   bash Tools/public-surface.sh               the engine side (below), a line a module and the total
#   bash Tools/public-surface.sh FlowScript …  those modules
#   bash Tools/public-surface.sh --list FlowScript
#                                              each declaration counted, as file:line: text
#
# The engine side is every library module but the router core (FlowStackCore), the SwiftUI host
# (FlowStack) and the test-support targets.
#
# What counts: one per declaration written with the `public` (or `open`) modifier — a type
# (struct, class, enum, protocol, actor), typealias, func, init, subscript, var or let (a `let a,
# b` is one), whether it sits in a type or in an extension. A public enum's cases, a public
# protocol's requirements and a `public extension` itself are not counted (they carry no
# modifier of their own); a `public extension` would make its members public without one, so it
# is refused (write the modifier on each member). A pattern check over one line at a time,
# comment lines skipped: a declaration's modifiers and its keyword are on one line here.
set -euo pipefail
cd "$(dirname "$0")/.."

engine=(FlowTesting FlowRuleBundles FlowScript FlowLua FlowLiveRules FlowLiveRulesServer)

list=0
if [ "${1:-}" = --list ]; then list=1; shift; fi
modules=("$@")
[ ${#modules[@]} -gt 0 ] || modules=("${engine[@]}")

modifier='(@[A-Za-z_]+(\([^)]*\))?|nonisolated|final|static|class|override|mutating|nonmutating|convenience|required|indirect|lazy|dynamic|(private|fileprivate|internal|package)\(set\))'
declaration="^[[:space:]]*($modifier[[:space:]]+)*(public|open)([[:space:]]+$modifier)*[[:space:]]+(struct|class|enum|protocol|actor|typealias|func|init|subscript|var|let)([^A-Za-z0-9_]|$)"

total=0
for module in "${modules[@]}"; do
    dir="Sources/$module"
    [ -d "$dir" ] || { echo "error: no module folder $dir" >&2; exit 2; }
    if grep -rnE --include='*.swift' '^[[:space:]]*(@[A-Za-z_]+[[:space:]]+)*public[[:space:]]+extension([^A-Za-z0-9_]|$)' "$dir" >&2; then
        echo "error: a public extension in $module (above): write 'public' on each member it makes public" >&2
        exit 1
    fi
    if [ "$list" = 1 ]; then
        grep -rnE --include='*.swift' "$declaration" "$dir" | sed -E 's/:[[:space:]]+/: /' || true
        continue
    fi
    count=$( (grep -rhE --include="*.swift" "$declaration" "$dir" || true) | wc -l | tr -d " ")
    printf '%-22s %5d\n' "$module" "$count"
    total=$((total + count))
done
[ "$list" = 1 ] || printf '%-22s %5d\n' total "$total"
