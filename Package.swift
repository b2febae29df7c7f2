// swift-tools-version: 6.0
// FlowStack: a SwiftUI navigation router whose rules are Lua 5.4 scripts loaded at runtime.
import Foundation
import PackageDescription

/// Platforms without SwiftUI compile `FlowStack` against a declarations-only stand-in.
let platformsWithoutSwiftUI: [Platform] = [.linux, .windows, .android, .openbsd, .wasi]

/// Where Lua comes from. Apple hosts (Xcode, `swift build` on macOS, for every Apple platform)
/// build the official Lua 5.4.7 sources of the `CLuaSource/lua` submodule; other hosts link the
/// system's Lua 5.4 (Debian: liblua5.4-dev, pkg-config `lua5.4`). `FLOWSTACK_LUA=source` or
/// `system` overrides the default (`bash Tools/lua-source.sh` places the sources without git).
///
/// The manifest looks at no file: SwiftPM and Xcode read a dependency's manifest from its git
/// store, where no checkout exists. A clone without the Lua sources fails at compile time, with
/// one message saying what to run (`CLuaSource/include/lua.h`).
let luaFromSource: Bool = {
    switch ProcessInfo.processInfo.environment["FLOWSTACK_LUA"] {
    case "source": return true
    case "system": return false
    default:
        #if os(macOS)
        return true
        #else
        return false
        #endif
    }
}()

/// The Lua library's C files (the official makefile's CORE_O and LIB_O): no `lua.c`, `luac.c`,
/// `onelua.c`, `ltests.c`, `testes/` or `manual/`.
let luaLibrarySources = [
    "lapi", "lcode", "lctype", "ldebug", "ldo", "ldump", "lfunc", "lgc", "llex", "lmem", "lobject",
    "lopcodes", "lparser", "lstate", "lstring", "ltable", "ltm", "lundump", "lvm", "lzio",
    "lauxlib", "lbaselib", "lcorolib", "ldblib", "liolib", "lmathlib", "loadlib", "loslib",
    "lstrlib", "ltablib", "lutf8lib", "linit",
].map { "lua/\($0).c" }

/// The Lua library, one target whichever Lua it is: the system's (a system-library target, its
/// module map in `CLuaLibrary/`) or the 5.4.7 sources built here (`CLuaSource/`, its module map
/// in `CLuaSource/include/`). Swift never imports it: the shim, `CLua`, includes its headers.
let cLuaLibrary: Target = {
    guard luaFromSource else {
        return .systemLibrary(
            name: "CLuaLibrary", path: "CLuaLibrary", pkgConfig: "lua5.4", providers: [.apt(["liblua5.4-dev"])])
    }
    return .target(
        name: "CLuaLibrary",
        path: "CLuaSource",
        // lua_sources.c stops a build without the sources with a clear #error.
        sources: ["lua_sources.c"] + luaLibrarySources,
        publicHeadersPath: "include",
        cSettings: [
            // iOS and its relatives have no system(): os.execute is not built (the sandbox removes it anyway).
            .define("LUA_USE_IOS", .when(platforms: [.iOS, .tvOS, .watchOS, .visionOS, .macCatalyst])),
            .define("LUA_USE_MACOSX", .when(platforms: [.macOS])),
            .define("LUA_USE_LINUX", .when(platforms: [.linux])),
            // `a <= b` with only `__lt` is `not (b < a)`, as in Debian's Lua (built with
            // LUA_COMPAT_5_3): one answer on every build. The nesting limit is not set here: the
            // sandbox holds rules to the same depth on every Lua (CLua/src/engine/clua_levels.c).
            .define("LUA_COMPAT_LT_LE"),
        ],
        linkerSettings: [
            .linkedLibrary("m", .when(platforms: [.linux])),
            .linkedLibrary("dl", .when(platforms: [.linux])),
        ]
    )
}()

let package = Package(
    name: "FlowStack",
    platforms: [.iOS(.v16), .macOS(.v13), .tvOS(.v16), .watchOS(.v9), .visionOS(.v1)],
    products: [
        .library(name: "FlowStackCore", targets: ["FlowStackCore"]),
        .library(name: "FlowScript", targets: ["FlowScript"]),
        .library(name: "FlowRuleBundles", targets: ["FlowRuleBundles"]),
        .library(name: "FlowLiveRules", targets: ["FlowLiveRules"]),
        // The flow-test runner and `flowstack explore`'s explorer: for the CLI and tests, never
        // linked into an app that does not ask for it.
        .library(name: "FlowTesting", targets: ["FlowTesting"]),
        .library(name: "FlowStack", targets: ["FlowStack"]),
        // The example app's target, a product only so that xcodebuild has a scheme to build it.
        .library(name: "FlowStackExample", targets: ["FlowStackExample"]),
        .executable(name: "flowstack", targets: ["FlowStackCLI"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
        .package(url: "https://github.com/apple/swift-crypto", "3.0.0"..<"5.0.0"),
        .package(url: "https://github.com/swhitty/FlyingFox", from: "0.27.1"),
    ],
    targets: [
        cLuaLibrary,
        // `import CLua`: the C boundary over Lua, one public header (`include/CLua.h`, what Swift
        // calls), the C in two folders: `src/shim` (the context, calls, errors) and `src/engine`
        // (the sandbox, read-only tables, the decide loop). The same target on every platform.
        .target(name: "CLua", dependencies: ["CLuaLibrary"], path: "CLua"),
        // The router: all navigation state and decisions, Foundation only.
        .target(name: "FlowStackCore"),
        // The Lua VM and the Swift side of the C boundary: a sandboxed, budgeted Lua 5.4 state,
        // values crossing it, host functions. `package` API, but for `FlowScriptError`.
        .target(name: "FlowLua", dependencies: ["CLua"]),
        // The rules engine: manifest, rules, decisions, facts, styles, deep links, reload, watcher.
        .target(
            name: "FlowScript",
            dependencies: [
                "FlowStackCore",
                "FlowLua",
                .product(name: "Logging", package: "swift-log"),
            ],
            // The rules prelude, `Prelude/rules.lua`, read through Bundle.module.
            resources: [.copy("Prelude")]
        ),
        // Signed rule bundles, their store and updater, and the HTTP they are fetched with: the
        // only user of swift-crypto. Hands the engine verified rules; the engine knows no bundle.
        .target(
            name: "FlowRuleBundles",
            dependencies: [
                "FlowStackCore",
                "FlowLua",
                "FlowScript",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        // Live rules: `engine.connect(to:token:)` to a `flowstack serve` (DEBUG builds).
        .target(
            name: "FlowLiveRules",
            dependencies: [
                "FlowStackCore",
                "FlowLua",
                "FlowScript",
                "FlowRuleBundles",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // The live-rules server `flowstack serve` runs: the protocol's endpoints over a small,
        // hardened HTTP/1.1 server (sockets from FlyingSocks), beside its client, FlowLiveRules.
        .target(
            name: "FlowLiveRulesServer",
            dependencies: [
                "FlowLiveRules",
                "FlowRuleBundles",
                .product(name: "FlyingSocks", package: "FlyingFox"),
            ]
        ),
        // The flow-test runner and the explorer (`flowstack test`, `explore`, `diff`).
        .target(
            name: "FlowTesting",
            dependencies: ["FlowStackCore", "FlowLua", "FlowScript", "FlowRuleBundles"],
            // The flow-test prelude, `Prelude/flows.lua`, read through Bundle.module.
            resources: [.copy("Prelude")]
        ),
        // Declarations-only stand-in for the part of SwiftUI that FlowStack uses (never linked on Apple platforms).
        .target(name: "SwiftUIStandIn"),
        // The SwiftUI host: a thin adapter over the core.
        .target(
            name: "FlowStack",
            dependencies: [
                "FlowStackCore",
                "FlowScript",
                "FlowRuleBundles",
                "FlowLiveRules",
                .target(name: "SwiftUIStandIn", condition: .when(platforms: platformsWithoutSwiftUI)),
            ]
        ),
        // A small SwiftUI example app, type-checked like FlowStack. Its rules, the repository's
        // `Scripts/` (also what `flowstack test Scripts` runs), are its bundled resource.
        .target(
            name: "FlowStackExample",
            dependencies: [
                "FlowStack",
                .target(name: "SwiftUIStandIn", condition: .when(platforms: platformsWithoutSwiftUI)),
            ],
            path: "Examples/FlowStackExample",
            resources: [.copy("../../Scripts")]
        ),
        // The command-line tool: flow tests, check, watch, graph, types.
        .executableTarget(
            name: "FlowStackCLI",
            dependencies: [
                "FlowLua",
                "FlowScript",
                "FlowRuleBundles",
                "FlowLiveRulesServer",
                "FlowTesting",
                "FlowStackCore",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // Benchmarks that print figures (`swift run -c release flowstack-bench`).
        .executableTarget(
            name: "flowstack-bench", dependencies: ["FlowStackCore", "FlowLua", "FlowScript", "FlowRuleBundles", "FlowLiveRules", "FlowTesting", "FlowStackTestSupport"]),
        // Helpers shared by the test targets; not a product, never shipped.
        .target(name: "FlowStackTestSupport", dependencies: ["FlowStackCore"]),
        // Helpers shared by the test targets that run Lua; not a product, never shipped.
        .target(name: "FlowLuaTestSupport", dependencies: ["FlowLua"]),
        // A test target per module, each in the folder `Tests/<Module>Tests`, depending on the
        // module it tests, what that module's API hands out, and the test-support targets.
        .testTarget(
            name: "FlowStackTests",
            dependencies: ["FlowStackCore", "FlowStackTestSupport"],
            swiftSettings: [.define("FLOWSTACK_TESTS")]
        ),
        .testTarget(name: "FlowLuaTests", dependencies: ["FlowLua", "FlowStackCore", "FlowLuaTestSupport", "FlowStackTestSupport"]),
        .testTarget(
            name: "FlowScriptTests",
            dependencies: [
                "FlowScript", "FlowLua", "FlowStackCore", "FlowLuaTestSupport", "FlowStackTestSupport",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .testTarget(
            name: "FlowRuleBundlesTests",
            dependencies: ["FlowRuleBundles", "FlowScript", "FlowLua", "FlowStackCore", "FlowStackTestSupport"]
        ),
        .testTarget(
            name: "FlowLiveRulesTests",
            dependencies: ["FlowLiveRules", "FlowRuleBundles", "FlowScript", "FlowStackCore", "FlowStackTestSupport"]
        ),
        .testTarget(name: "FlowLiveRulesServerTests", dependencies: ["FlowLiveRulesServer", "FlowLiveRules", "FlowStackTestSupport"]),
        .testTarget(
            name: "FlowTestingTests",
            dependencies: ["FlowTesting", "FlowScript", "FlowLua", "FlowStackCore", "FlowLuaTestSupport", "FlowStackTestSupport"]
        ),
        // The CLI, run as processes; its output is read back with the Lua VM (annotations, emitted flows).
        .testTarget(name: "FlowStackCLITests", dependencies: ["FlowStackTestSupport", "FlowStackCore", "FlowLua", "FlowLuaTestSupport"]),
        // An app written against the original FlowStack's public API, with `import FlowStack` alone.
        .testTarget(
            name: "FlowStackDropInTests",
            dependencies: [
                "FlowStack",
                .target(name: "SwiftUIStandIn", condition: .when(platforms: platformsWithoutSwiftUI)),
            ]
        ),
    ]
)
