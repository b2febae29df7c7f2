// swift-tools-version: 6.0
// FlowStack: a SwiftUI navigation router whose rules are Lua 5.4 scripts loaded at runtime.
import PackageDescription

/// Platforms without SwiftUI compile `FlowStackUI` against a declarations-only stand-in.
let platformsWithoutSwiftUI: [Platform] = [.linux, .windows, .android, .openbsd, .wasi]

let package = Package(
    name: "FlowStack",
    platforms: [.iOS(.v16), .macOS(.v13), .tvOS(.v16), .watchOS(.v9), .visionOS(.v1)],
    products: [
        .library(name: "FlowStack", targets: ["FlowStack"]),
        .library(name: "FlowScript", targets: ["FlowScript"]),
        .library(name: "FlowStackUI", targets: ["FlowStackUI"]),
        .executable(name: "flowstack", targets: ["flowstack"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
        .package(url: "https://github.com/apple/swift-crypto", "3.0.0"..<"5.0.0"),
        .package(url: "https://github.com/swhitty/FlyingFox", from: "0.27.1"),
    ],
    targets: [
        // Lua 5.4 from the system (Debian: liblua5.4-dev), plus a shim of static inline wrappers.
        .systemLibrary(
            name: "CLua",
            path: "CLua",
            pkgConfig: "lua5.4",
            providers: [.apt(["liblua5.4-dev"]), .brew(["lua@5.4"])]
        ),
        // The router: all navigation state and decisions, Foundation only.
        .target(name: "FlowStack"),
        // The Lua rules engine and the flow-test runner.
        .target(
            name: "FlowScript",
            dependencies: [
                "FlowStack",
                "CLua",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        // Declarations-only stand-in for the part of SwiftUI that FlowStackUI uses (never linked on Apple platforms).
        .target(name: "SwiftUIStandIn"),
        // The SwiftUI host: a thin adapter over the core.
        .target(
            name: "FlowStackUI",
            dependencies: [
                "FlowStack",
                "FlowScript",
                .target(name: "SwiftUIStandIn", condition: .when(platforms: platformsWithoutSwiftUI)),
            ]
        ),
        // A small SwiftUI example app, type-checked like FlowStackUI. Its rules, the repository's
        // `Scripts/` (also what `flowstack test Scripts` runs), are its bundled resource.
        .target(
            name: "FlowStackExample",
            dependencies: [
                "FlowStackUI",
                .target(name: "SwiftUIStandIn", condition: .when(platforms: platformsWithoutSwiftUI)),
            ],
            path: "Examples/FlowStackExample",
            resources: [.copy("../../Scripts")]
        ),
        // The command-line tool: flow tests, check, watch, graph, types.
        .executableTarget(
            name: "flowstack",
            dependencies: [
                "FlowScript",
                "FlowStack",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "FlyingFox", package: "FlyingFox"),
            ]
        ),
        // Benchmarks that print figures (`swift run -c release flowstack-bench`).
        .executableTarget(name: "flowstack-bench", dependencies: ["FlowStack", "FlowScript"]),
        // Helpers shared by the test targets; not a product, never shipped.
        .target(name: "FlowStackTestSupport", dependencies: ["FlowStack"]),
        .testTarget(
            name: "FlowStackTests",
            dependencies: ["FlowStack", "FlowStackTestSupport"],
            swiftSettings: [.define("FLOWSTACK_TESTS")]
        ),
        .testTarget(name: "FlowScriptTests", dependencies: ["FlowScript", "FlowStack", "FlowStackTestSupport"]),
        .testTarget(name: "FlowStackCLITests", dependencies: ["FlowStackTestSupport"]),
    ]
)
