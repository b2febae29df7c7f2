#!/usr/bin/env bash
# The package as an app team consumes it: from a git URL at a version tag, with a fresh resolve.
#
#  1. A bare git copy of HEAD (committed work only), tagged 1.0.0.
#  2. A throwaway app package in a temporary directory that depends on it with
#     `.package(url: "file://…/FlowStack.git", from: "1.0.0")` and no Package.resolved, so
#     SwiftPM resolves afresh and reads FlowStack's manifest from its git store, as Xcode's Add
#     Package Dependencies does. Its library imports FlowStack, makes a FlowRouter over a
#     Codable route enum, loads a rules folder (its bundled resource) into a FlowRulesEngine,
#     installs it, and says what the rules decided and which Lua ran (its executable prints
#     that); its test target imports FlowTesting and runs the app's flow tests against the app's
#     own engine, as an app team's test target does.
#  3. Built, run and tested twice: with the default Lua (Linux: the system's Lua 5.4), then with
#     FLOWSTACK_LUA=source, the branch every Apple build takes: SwiftPM checks out FlowStack's
#     CLuaSource/lua submodule and the Lua 5.4.7 sources are built as a C target.
#  4. On a Mac with FLOWSTACK_CONSUMER_IOS=1 (the Apple workflow): built with xcodebuild for the
#     generic iOS Simulator destination, and its tests run on an available iPhone simulator.
#
# Where github.com/lua/lua cannot be reached (CI here), the submodule's URL is pointed at a local
# git repository of the official 5.4.7 sources (Tools/lua-source.sh places them, sha256-checked),
# through git's own configuration in the environment of the swift commands (GIT_CONFIG_COUNT,
# url.<local>.insteadOf=https://github.com/lua/lua), and the throwaway copy's gitlink is moved to
# that repository's commit, in a commit made in the throwaway copy only: the repository's own
# .gitmodules and gitlink never change.
#
#   bash Tools/consumer-test.sh
#   FLOWSTACK_CONSUMER_LUA=github bash Tools/consumer-test.sh   the real submodule (network)
#   FLOWSTACK_CONSUMER_LUA=local  bash Tools/consumer-test.sh   the local copy (default when
#                                                               github.com/lua/lua is unreachable)
#   FLOWSTACK_CONSUMER_KEEP=1 bash Tools/consumer-test.sh       keeps the temporary directory
#   FLOWSTACK_CONSUMER_IOS=1 bash Tools/consumer-test.sh        (macOS) the iOS Simulator too
set -euo pipefail
cd "$(dirname "$0")/.."
repo="$PWD"
started=$SECONDS

if ! git -C "$repo" rev-parse --verify -q HEAD >/dev/null; then
    echo "error: $repo has no commit to consume" >&2
    exit 1
fi
if [ -n "$(git -C "$repo" status --porcelain --untracked-files=no -- Package.swift CLua CLuaLibrary CLuaSource/include CLuaSource/lua_sources.c Sources)" ]; then
    echo "note: uncommitted changes are not part of the test: it consumes HEAD ($(git -C "$repo" rev-parse --short HEAD))" >&2
fi

work="$(mktemp -d "${TMPDIR:-/tmp}/flowstack-consumer.XXXXXX")"
if [ "${FLOWSTACK_CONSUMER_KEEP:-0}" = 1 ]; then
    echo "keeping $work" >&2
else
    trap 'rm -rf "$work"' EXIT
fi

version=1.0.0
bare="$work/FlowStack.git"
gitlink="$(git -C "$repo" ls-tree HEAD CLuaSource/lua | awk '{print $3}')"
submodule_url="$(git -C "$repo" config -f .gitmodules submodule.CLuaSource/lua.url)"

# --- 1. the bare copy, tagged ------------------------------------------------------------------
git init -q --bare "$bare"
git -C "$repo" push -q "$bare" "HEAD:refs/heads/main"
git -C "$bare" symbolic-ref HEAD refs/heads/main

# The git configuration the swift commands run with: appended to any the environment has.
config_count="${GIT_CONFIG_COUNT:-0}"
git_config() {
    export "GIT_CONFIG_KEY_$config_count=$1" "GIT_CONFIG_VALUE_$config_count=$2"
    config_count=$((config_count + 1))
    export GIT_CONFIG_COUNT="$config_count"
}

lua_mode="${FLOWSTACK_CONSUMER_LUA:-}"
if [ -z "$lua_mode" ]; then
    if git ls-remote --exit-code "$submodule_url" "refs/tags/v5.4.7" >/dev/null 2>&1; then lua_mode=github; else lua_mode=local; fi
fi
case "$lua_mode" in
github)
    lua_origin="$submodule_url at $gitlink (the repository's own gitlink)"
    ;;
local)
    lua_repo="$work/lua"
    bash Tools/lua-source.sh --dest "$lua_repo" 2>"$work/lua-source.log" || { cat "$work/lua-source.log" >&2; exit 1; }
    git init -q "$lua_repo"
    git -C "$lua_repo" add -A
    GIT_AUTHOR_NAME=consumer-test GIT_AUTHOR_EMAIL=consumer-test@localhost \
        GIT_COMMITTER_NAME=consumer-test GIT_COMMITTER_EMAIL=consumer-test@localhost \
        git -C "$lua_repo" commit -q -m "Lua 5.4.7, the official release's sources"
    lua_commit="$(git -C "$lua_repo" rev-parse HEAD)"
    # The throwaway copy's gitlink moves to the local repository's commit (a temporary index:
    # the bare copy has no work tree).
    GIT_INDEX_FILE="$work/index" git -C "$bare" read-tree HEAD
    GIT_INDEX_FILE="$work/index" git -C "$bare" update-index --cacheinfo "160000,$lua_commit,CLuaSource/lua"
    tree="$(GIT_INDEX_FILE="$work/index" git -C "$bare" write-tree)"
    commit="$(GIT_AUTHOR_NAME=consumer-test GIT_AUTHOR_EMAIL=consumer-test@localhost \
        GIT_COMMITTER_NAME=consumer-test GIT_COMMITTER_EMAIL=consumer-test@localhost \
        git -C "$bare" commit-tree "$tree" -p HEAD -m "consumer test: the Lua submodule at a local copy of the 5.4.7 sources")"
    git -C "$bare" update-ref refs/heads/main "$commit"
    # The submodule's URL, for git only: github.com/lua/lua is the local repository. Submodules
    # from a local path need protocol.file.allow (git refuses them by default since 2.38.1).
    # A longer url.*.insteadOf wins over a shorter one, so a machine-wide rewrite of all of
    # https://github.com/ (this CI's package mirrors) keeps serving the other packages.
    git_config "url.$lua_repo.insteadOf" "$submodule_url"
    git_config protocol.file.allow always
    lua_origin="a local git repository of the official 5.4.7 sources ($(sed 's/, sha256.*//' "$lua_repo/.flowstack-lua-source"), sha256-checked), commit ${lua_commit:0:12}, in place of $submodule_url"
    ;;
*)
    echo "error: FLOWSTACK_CONSUMER_LUA is '$lua_mode' (github or local)" >&2
    exit 2
    ;;
esac
git -C "$bare" tag "$version" refs/heads/main
tagged="$(git -C "$bare" rev-parse --short "$version")"

# --- 2. the throwaway app ----------------------------------------------------------------------
# A library target (the app's code: its routes, dialogs, and rules and flows as resources), an
# executable that runs it, and a test target that imports FlowTesting.
app="$work/ConsumerApp"
mkdir -p "$app/Sources/ConsumerApp/rules" "$app/Sources/ConsumerApp/flows" "$app/Sources/consumer-app" \
    "$app/Tests/ConsumerAppTests"
cat >"$app/Package.swift" <<EOF
// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "ConsumerApp",
    platforms: [.macOS(.v13), .iOS(.v16)],
    products: [.library(name: "ConsumerApp", targets: ["ConsumerApp"])],
    dependencies: [.package(url: "file://$bare", from: "1.0.0")],
    targets: [
        .target(
            name: "ConsumerApp",
            dependencies: [.product(name: "FlowStack", package: "FlowStack")],
            resources: [.copy("rules"), .copy("flows")]
        ),
        .executableTarget(name: "consumer-app", dependencies: ["ConsumerApp"]),
        .testTarget(
            name: "ConsumerAppTests",
            dependencies: ["ConsumerApp", .product(name: "FlowTesting", package: "FlowStack")]
        ),
    ]
)
EOF
cat >"$app/Sources/ConsumerApp/rules/10-account.lua" <<'EOF'
-- The app's rules: a guard, a default precondition and a redirect.
flow.guard("profile", function(op, stacks, ctx)
  if not facts.isLoggedIn then return false, "login required" end
end)

flow.guard("settings", function(op, stacks, ctx)
  if not facts.isPremium then return flow.redirect("push", "paywall", "premium required") end
end)

flow.precondition("push", function(op, stacks, ctx)
  return #stacks[#stacks].routes < 5, "too deep"
end)
EOF
cat >"$app/Sources/ConsumerApp/flows/account.lua" <<'EOF'
-- The app's flow tests, run by its Swift test target through FlowTesting.
describe("the account rules", function()
  it("ask a visitor to log in before the profile", function()
    app.reset{ root = "home", facts = { isLoggedIn = false, isPremium = false } }
    local r = router.push({ name = "profile", id = 7 })
    expect(r.applied).to_be(false)
    expect(r.reason).to_be("login required")
  end)

  it("send a member who is not premium to the paywall", function()
    app.reset{ root = "home", facts = { isLoggedIn = true, isPremium = false } }
    router.push("settings")
    expect(router.top()).to_equal({ name = "paywall" })
  end)
end)
EOF
cat >"$app/Sources/ConsumerApp/ConsumerApp.swift" <<'EOF'
import FlowStack
import Foundation

/// The app's routes: a Codable enum, which FlowRouteConvertible converts for the rules.
public enum AppRoute: Hashable, Codable, FlowRouteConvertible {
    case home
    case profile(id: Int)
    case settings
    case paywall
}

/// The app's dialogs.
public enum AppDialog: Hashable, Codable, FlowDialogConvertible {
    case rate
}

/// The app's bundled rules folder.
public func rulesFolder() throws -> URL {
    guard let rules = Bundle.module.url(forResource: "rules", withExtension: nil) else {
        throw CocoaError(.fileNoSuchFile, userInfo: [NSLocalizedDescriptionKey: "the app has no bundled rules folder"])
    }
    return rules
}

/// The app's bundled flow tests.
public func flowsFolder() -> URL? { Bundle.module.url(forResource: "flows", withExtension: nil) }

/// Makes a router, installs the rules, navigates, and returns what happened, a line each.
@MainActor
public func runApp() throws -> [String] {
    let router = FlowRouter<AppRoute, AppDialog>(root: .home)
    let engine = try FlowRulesEngine<AppRoute>(directory: try rulesFolder())
    try engine.setFacts(["isLoggedIn": .bool(false), "isPremium": .bool(false)])
    engine.install(into: router)

    var lines = ["lua: \(FlowLuaRelease.linked)", "rules: generation \(engine.generation)"]
    func report(_ label: String, _ applied: Bool) {
        let recent = router.operationHistory.suffix(2).map { "\($0.status)" + ($0.reason.map { " (\($0))" } ?? "") }
        lines.append("\(label): \(applied ? "applied" : "not applied"); history: \(recent.joined(separator: ", ")); path: \(router.activeStack.pathCount)")
    }
    report("push profile (logged out)", router.push(.profile(id: 7)))
    report("push settings (not premium)", router.push(.settings))
    try engine.setFacts(["isLoggedIn": .bool(true), "isPremium": .bool(false)])
    report("push profile (logged in)", router.push(.profile(id: 7)))
    let encoded = try JSONEncoder().encode(router.activeStack.navigationPath.map(\.route))
    lines.append("path as JSON: \(String(decoding: encoded, as: UTF8.self))")
    return lines
}
EOF
cat >"$app/Sources/consumer-app/main.swift" <<'EOF'
import ConsumerApp
import Foundation

do {
    for line in try MainActor.assumeIsolated({ try runApp() }) { print(line) }
} catch {
    print("error: \(error)")
    exit(1)
}
EOF
cat >"$app/Tests/ConsumerAppTests/FlowsTests.swift" <<'EOF'
import ConsumerApp
import FlowStack
import FlowTesting
import Foundation
import Testing

@MainActor
struct FlowsTests {
    @Test func flowsPass() async throws {
        let engine = try FlowRulesEngine<AppRoute>(directory: try rulesFolder())
        let flows = try #require(flowsFolder())
        // No routes.lua here: the flows start from the app's home screen.
        let report = try await FlowTestRunner<AppRoute>.run(
            flowsIn: flows, rules: engine, options: .init(defaultRoot: FlowRouteValue("home")))
        print("flows: \(report.passedCount) passed, \(report.failedCount) failed on \(FlowLuaRelease.linked)")
        #expect(report.passedCount == 2)
        #expect(report.failedCount == 0, "\(report.results)")
    }

    @Test func appRuns() throws {
        let lines = try runApp()
        #expect(lines.count == 6)
        #expect(lines.first?.hasPrefix("lua: Lua 5.4") == true)
    }
}
EOF

expected_output() {
    cat <<EOF
lua: $1
rules: generation 1
push profile (logged out): not applied; history: blockedByGuard (login required); path: 0
push settings (not premium): not applied; history: redirected (premium required), applied; path: 1
push profile (logged in): applied; history: applied, applied; path: 2
path as JSON: [{"paywall":{}},{"profile":{"id":7}}]
EOF
}

# --- 3. build and run, both Luas ---------------------------------------------------------------
# One scratch path for both builds: the second rebuilds the Lua targets and what depends on them,
# not swift-crypto. Package.resolved is removed before each, so each resolves afresh.
scratch="$work/.build"
run_mode() {
    local mode="$1" lua="$2" label="$3"
    local mode_started=$SECONDS
    rm -f "$app/Package.resolved"
    if [ "$mode" = default ]; then
        env -u FLOWSTACK_LUA swift build --package-path "$app" --scratch-path "$scratch" >"$work/build-$mode.log" 2>&1 \
            || { tail -n 60 "$work/build-$mode.log" >&2; echo "error: the app did not build ($label)" >&2; return 1; }
    else
        FLOWSTACK_LUA="$mode" swift build --package-path "$app" --scratch-path "$scratch" >"$work/build-$mode.log" 2>&1 \
            || { tail -n 60 "$work/build-$mode.log" >&2; echo "error: the app did not build ($label)" >&2; return 1; }
    fi
    [ -f "$app/Package.resolved" ] || { echo "error: the app's build wrote no Package.resolved" >&2; return 1; }
    local resolved
    resolved="$(tr -d ' \n' <"$app/Package.resolved" | grep -o '"identity":"flowstack"[^}]*' | grep -o '"version":"[^"]*"' || true)"
    [ "$resolved" = "\"version\":\"$version\"" ] || { echo "error: FlowStack resolved to '$resolved', expected $version" >&2; return 1; }
    local output
    output="$("$scratch/debug/consumer-app" 2>&1)" || { echo "$output" >&2; echo "error: the app failed ($label)" >&2; return 1; }
    if [ "$output" != "$(expected_output "$lua")" ]; then
        echo "error: the app printed ($label):" >&2
        echo "$output" >&2
        echo "expected:" >&2
        expected_output "$lua" >&2
        return 1
    fi
    # The test target: imports FlowTesting and runs the app's flows against the app's engine.
    if [ "$mode" = default ]; then
        env -u FLOWSTACK_LUA swift test --package-path "$app" --scratch-path "$scratch" >"$work/test-$mode.log" 2>&1 \
            || { tail -n 60 "$work/test-$mode.log" >&2; echo "error: the app's tests failed ($label)" >&2; return 1; }
    else
        FLOWSTACK_LUA="$mode" swift test --package-path "$app" --scratch-path "$scratch" >"$work/test-$mode.log" 2>&1 \
            || { tail -n 60 "$work/test-$mode.log" >&2; echo "error: the app's tests failed ($label)" >&2; return 1; }
    fi
    grep -qF "flows: 2 passed, 0 failed on $lua" "$work/test-$mode.log" \
        || { tail -n 30 "$work/test-$mode.log" >&2; echo "error: the app's flows did not report 2 passes on $lua ($label)" >&2; return 1; }
    echo "$label: FlowStack $version resolved afresh from file://$bare, built ($((SECONDS - mode_started)) s), ran, and its FlowTesting test target passed:" >&2
    echo "$output" | sed 's/^/    /' >&2
}


system_lua="$(pkg-config --modversion lua5.4 2>/dev/null || true)"
if [ "$(uname -s)" = Darwin ]; then
    run_mode default "Lua 5.4.7" "default Lua (macOS: 5.4.7 from the submodule)"
else
    run_mode default "Lua $system_lua" "default Lua (the system's, pkg-config lua5.4 $system_lua)"
fi
run_mode source "Lua 5.4.7" "FLOWSTACK_LUA=source (the Apple branch: the submodule checked out by SwiftPM, Lua built from it)"

# On a Mac with FLOWSTACK_CONSUMER_IOS=1 (the Apple workflow): the app built for the generic iOS
# Simulator destination, then its tests (the flows, through FlowTesting) run on the first
# available iPhone simulator `simctl` lists, of a runtime the machine has.
# The executable is left out there (a command-line tool is no iOS product): one library product
# named as the package, whose scheme holds the test target.
if [ "$(uname -s)" = Darwin ] && [ "${FLOWSTACK_CONSUMER_IOS:-0}" = 1 ]; then
    rm -f "$app/Package.resolved"
    sed -i '' '/executableTarget/d' "$app/Package.swift"
    rm -rf "$app/Sources/consumer-app"
    (cd "$app" && xcodebuild build -scheme ConsumerApp -destination "generic/platform=iOS Simulator" \
        -derivedDataPath "$work/xcode" -skipPackagePluginValidation CODE_SIGNING_ALLOWED=NO) >"$work/xcodebuild-ios.log" 2>&1 \
        || { tail -n 80 "$work/xcodebuild-ios.log" >&2; echo "error: the app did not build for the iOS Simulator" >&2; exit 1; }
    simulator="$(xcrun simctl list devices available | awk '/^-- / { ios = ($2 == "iOS") }
        ios && /iPhone/ && match($0, /\([0-9A-F]+-[0-9A-F-]+\)/) { print substr($0, RSTART + 1, RLENGTH - 2); exit }')"
    [ -n "$simulator" ] || { xcrun simctl list devices available >&2; echo "error: no available iPhone simulator" >&2; exit 1; }
    (cd "$app" && xcodebuild test -scheme ConsumerApp -destination "id=$simulator" \
        -derivedDataPath "$work/xcode" -skipPackagePluginValidation CODE_SIGNING_ALLOWED=NO) >"$work/xcodebuild-test.log" 2>&1 \
        || { tail -n 80 "$work/xcodebuild-test.log" >&2; echo "error: the app's tests failed on the iOS Simulator ($simulator)" >&2; exit 1; }
    echo "iOS Simulator $simulator: the app built for generic/platform=iOS Simulator and its FlowTesting tests passed" >&2
fi

# The repository itself is untouched: its .gitmodules and gitlink are what they were.
[ "$(git -C "$repo" ls-tree HEAD CLuaSource/lua | awk '{print $3}')" = "$gitlink" ] \
    && [ "$(git -C "$repo" config -f .gitmodules submodule.CLuaSource/lua.url)" = "$submodule_url" ] \
    || { echo "error: the repository's submodule changed" >&2; exit 1; }

checkout="$(find "$scratch/checkouts" -maxdepth 1 -iname 'flowstack*' | head -n 1)"
[ -f "$checkout/CLuaSource/lua/lapi.c" ] || { echo "error: SwiftPM did not check out the Lua submodule at $checkout/CLuaSource/lua" >&2; exit 1; }

echo "consumer test passed ($((SECONDS - started)) s): HEAD $(git -C "$repo" rev-parse --short HEAD) as tag $version ($tagged) of a bare copy;" \
    "Lua submodule from $lua_origin; the repository's .gitmodules and gitlink (${gitlink:0:12}) unchanged." >&2
