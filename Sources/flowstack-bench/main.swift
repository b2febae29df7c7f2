// flowstack-bench: prints FlowStack's speed figures, one a line as `name: value unit`.
// Run with `swift run -c release flowstack-bench`.
import FlowStackCore
import Foundation

/// A route type like an app's.
enum BenchRoute: Hashable { case home, list, detail(Int) }

/// A push + pop pair on a router with a Swift default precondition for both kinds and the
/// history on; returns nanoseconds per operation.
@MainActor
func swiftGuardedPushNanoseconds(depth: Int) -> Double {
    let router = FlowRouter<BenchRoute, String>(root: .home)
    for i in 0..<depth { router.push(.detail(i)) }
    router.setDefaultPrecondition(for: .push) { _, stacks in stacks.count < 10 }
    router.setDefaultPrecondition(for: .pop) { _, stacks in !stacks.isEmpty }
    let pairs = 200_000
    let perPair = Measure.nanosecondsPerIteration(iterations: pairs) {
        router.push(.list)
        router.pop()
    }
    precondition(router.history.count == router.maximumOperationHistoryCount, "history must be on and bounded")
    return perPair / 2
}

@MainActor
func runBenchmarks() {
    if ProcessInfo.processInfo.environment["FLOWSTACK_BENCH_ONLY"] == "bundle_install" {
        do { try BundleStoreBenchmarks.run() } catch {
            FileHandle.standardError.write(Data("flowstack-bench: \(error)\n".utf8))
            exit(1)
        }
        return
    }
    if ["lua_push", "enum_push", "reload", "decision", "one_default", "style", "experiment_push", "experiment_push_base"].contains(ProcessInfo.processInfo.environment["FLOWSTACK_BENCH_ONLY"]) {
        do {
            try LuaBenchmarks.run(swiftGuardedPush: 1)
        } catch {
            FileHandle.standardError.write(Data("flowstack-bench: \(error)\n".utf8))
            exit(1)
        }
        return
    }
    if ProcessInfo.processInfo.environment["FLOWSTACK_BENCH_ONLY"] == "swift_push" {
        // Both depths, as the full run measures them (callgrind's toggle on this function).
        Measure.report("swift_guarded_push_ns", swiftGuardedPushNanoseconds(depth: 0), "ns")
        Measure.report("swift_guarded_push_depth1000_ns", swiftGuardedPushNanoseconds(depth: 1_000), "ns")
        return
    }
    let depth1 = swiftGuardedPushNanoseconds(depth: 0)
    Measure.report("swift_guarded_push_ns", depth1, "ns")
    let depth1000 = swiftGuardedPushNanoseconds(depth: 1_000)
    Measure.report("swift_guarded_push_depth1000_ns", depth1000, "ns")
    Measure.report("swift_depth1000_vs_depth1", depth1000 / depth1, "x")
    do {
        try LuaBenchmarks.run(swiftGuardedPush: depth1)
    } catch {
        FileHandle.standardError.write(Data("flowstack-bench: \(error)\n".utf8))
        exit(1)
    }
}

// Exploration runs only when asked: it takes minutes, where the rest takes seconds. So does the
// live-rules latency: it needs a debug build and a `flowstack serve` process.
if ProcessInfo.processInfo.environment["FLOWSTACK_BENCH_ONLY"] == "live_rules" {
    #if DEBUG
    do { try await LiveRulesBenchmark.run() } catch {
        FileHandle.standardError.write(Data("flowstack-bench: \(error)\n".utf8))
        exit(1)
    }
    #else
    FileHandle.standardError.write(Data("flowstack-bench: live_rules needs a debug build (connect(to:token:) is debug-only): FLOWSTACK_BENCH_ONLY=live_rules swift run flowstack-bench\n".utf8))
    exit(1)
    #endif
} else if ProcessInfo.processInfo.environment["FLOWSTACK_BENCH_ONLY"] == "explore" {
    do { try await ExploreBenchmarks.run() } catch {
        FileHandle.standardError.write(Data("flowstack-bench: \(error)\n".utf8))
        exit(1)
    }
} else {
    runBenchmarks()  // top-level code runs on the main actor
}
