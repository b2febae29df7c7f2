@_spi(Benchmarks) import FlowLua
import FlowScript
import FlowStackCore
import Foundation

/// The Lua figures: the example rules deciding real router operations.
@MainActor
enum LuaBenchmarks {
    /// The example project's directory (`Scripts/` of the package, or `FLOWSTACK_SCRIPTS`).
    static var scripts: URL {
        if let path = ProcessInfo.processInfo.environment["FLOWSTACK_SCRIPTS"] {
            return URL(fileURLWithPath: path)
        }
        return URL(fileURLWithPath: FileManager.default.currentDirectoryPath).appendingPathComponent("Scripts")
    }

    /// An engine with the example rules and manifest, facts set so navigation is allowed.
    static func exampleEngine<Route: FlowRouteConvertible>(_ route: Route.Type = FlowRouteValue.self) throws -> FlowRulesEngine<Route> {
        let manifest = try FlowManifest.load(contentsOf: scripts.appendingPathComponent("routes.lua"))
        var configuration = FlowRulesConfiguration(manifest: manifest)
        configuration.logger.logLevel = .critical
        let engine = try FlowRulesEngine<Route>(directory: scripts.appendingPathComponent("rules"), configuration: configuration)
        try engine.setFacts(["isLoggedIn": true, "hasSeenOnboarding": true, "isPremium": true, "maxPushDepth": 100_000])
        return engine
    }

    /// A push + pop pair through the example rules; nanoseconds per operation.
    static func guardedPush(depth: Int) throws -> Double {
        try pushPop(through: exampleEngine(), depth: depth)
    }

    /// A push + pop pair through `engine`'s rules with `depth` screens under the top, on a router
    /// with the history on; nanoseconds per operation.
    static func pushPop(through engine: FlowRulesEngine<FlowRouteValue>, depth: Int) -> Double {
        pushPop(
            through: engine, root: FlowRouteValue("home"), pushed: FlowRouteValue("projects"), depth: depth,
            below: { FlowRouteValue("detail", ["id": .string(String($0))]) })
    }

    /// A push + pop pair of `projects` through `engine`'s rules on a router rooted at `root`,
    /// with `depth` screens (`below(index)`) under the top and the history on; nanoseconds per
    /// operation.
    static func pushPop<Route: FlowRouteConvertible>(
        through engine: FlowRulesEngine<Route>, root: Route, pushed projects: Route, depth: Int, below: (Int) -> Route
    ) -> Double {
        let router = FlowRouter<Route, String>(root: root)
        for index in 0..<depth { router.push(below(index)) }
        engine.install(into: router)
        precondition(router.push(projects) && router.pop(), "the rules must allow the benchmark's push and pop")
        let perPair = Measure.nanosecondsPerIteration(iterations: 100_000) {
            router.push(projects)
            router.pop()
        }
        precondition(router.history.count == router.maximumOperationHistoryCount)
        precondition(router.history.allSatisfy { $0.status == .applied }, "every benchmark operation must apply")
        return perPair / 2
    }

    /// Loading a rules directory of about 5 KB into a fresh VM and swapping it in; microseconds.
    static func reload5KB() throws -> Double {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("flowstack-bench-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        var written = 0
        var index = 0
        while written < 5 * 1_024 {
            let text = """
            -- generated rules file \(index)
            local function isPrivate\(index)(route) return route ~= nil and route.name ~= "login" and route.name ~= "splash" end
            flow.precondition("push", function(op, stacks, ctx)
              if isPrivate\(index)(op.route) and not facts.isLoggedIn then return false, "login required (\(index))" end
            end)
            flow.guard("detail", function(op) if op.route.id == "blocked-\(index)" then return false, "blocked" end end)
            flow.style.screen(function(c) if c.screenDepth > \(index) then return { navigationTitle = "deep \(index)" } end end)

            """
            try Data(text.utf8).write(to: directory.appendingPathComponent(String(format: "%02d-rules.lua", index)))
            written += text.utf8.count
            index += 1
        }
        var configuration = FlowRulesConfiguration()
        configuration.logger.logLevel = .critical
        let engine = try FlowRulesEngine<FlowRouteValue>(directory: directory, configuration: configuration)
        let rounds = 200
        var best = Double.infinity
        for _ in 0..<5 {
            let start = DispatchTime.now().uptimeNanoseconds
            for _ in 0..<rounds {
                guard case .loaded = engine.reload() else { fatalError("the generated rules must load") }
            }
            best = min(best, Double(DispatchTime.now().uptimeNanoseconds - start) / Double(rounds) / 1_000)
        }
        engine.close()
        return best
    }

    /// One screen style of the example rules (four `flow.style.screen` rules), nanoseconds a
    /// resolution: `cold` for a context asked for the first time (the Lua style rules run; a new
    /// stack identity each time, its `UUID()` included), `cached` for the same context asked again
    /// (what most SwiftUI body evaluations cost).
    static func styleResolve() throws -> (cold: Double, cached: Double) {
        let engine = try exampleEngine()
        defer { engine.close() }
        func context(_ stackID: UUID) -> FlowStyleContext {
            FlowStyleContext(
                stackIndex: 0, stackID: stackID, presentationStyle: .root,
                rootRoute: AnyHashable(FlowRouteValue("home")), screenRoute: AnyHashable(FlowRouteValue("projects")),
                screenDepth: 1)
        }
        precondition(engine.style(for: context(UUID()), hook: .screen) != nil, "the example rules must style a screen")
        let cold = Measure.nanosecondsPerIteration(iterations: 20_000) {
            _ = engine.style(for: context(UUID()), hook: .screen)
        }
        let seen = context(UUID())
        let cached = Measure.nanosecondsPerIteration(iterations: 200_000) {
            _ = engine.style(for: seen, hook: .screen)
        }
        return (cold, cached)
    }

    /// Prints every Lua figure and the ratios.
    static func run(swiftGuardedPush: Double) throws {
        switch ProcessInfo.processInfo.environment["FLOWSTACK_BENCH_ONLY"] {
        case "lua_push":
            Measure.report("lua_guarded_push_ns", try guardedPush(depth: 0), "ns")
            return
        case "decision":
            Measure.report("lua_decision_only_ns", try decisionOnly(), "ns")
            return
        case "experiment_push":
            Measure.report("lua_experiment_push_ns", try experimentPush(reads: true), "ns")
            return
        case "experiment_push_base":
            Measure.report("lua_experiment_push_base_ns", try experimentPush(reads: false), "ns")
            return
        case "enum_push":
            Measure.report("lua_guarded_push_enum_ns", try guardedEnumPush(), "ns")
            return
        case "one_default":
            Measure.report("lua_one_default_push_ns", try oneDefaultPush(), "ns")
            return
        case "reload":
            Measure.report("reload_5kb_us", try reload5KB(), "us")
            return
        case "style":
            let style = try styleResolve()
            Measure.report("style_resolve_cold_ns", style.cold, "ns")
            Measure.report("style_resolve_cached_ns", style.cached, "ns")
            return
        default:
            break
        }
        let bare = try LuaVMBenchmarks.run(iterations: 1_000_000)
        Measure.report("bare_pcall_ns", bare.emptyCall, "ns")
        let lua = try guardedPush(depth: 0)
        Measure.report("lua_guarded_push_ns", lua, "ns")
        // The same push through an app-style `Codable` enum route (its conversion included).
        let enumPush = try guardedEnumPush()
        Measure.report("lua_guarded_push_enum_ns", enumPush, "ns")
        // Not targets: the engine deciding that push alone, without the router around it; and the
        // same push + pop through several guards and one default precondition.
        Measure.report("lua_decision_only_ns", try decisionOnly(), "ns")
        Measure.report("lua_one_default_push_ns", try oneDefaultPush(), "ns")
        // A guard reading an experiment's assignment, and the same guard reading a fact.
        Measure.report("lua_experiment_push_ns", try experimentPush(reads: true), "ns")
        Measure.report("lua_experiment_push_base_ns", try experimentPush(reads: false), "ns")
        let deep = try guardedPush(depth: 1_000)
        Measure.report("lua_guarded_push_depth1000_ns", deep, "ns")
        Measure.report("reload_5kb_us", try reload5KB(), "us")
        let style = try styleResolve()
        Measure.report("style_resolve_cold_ns", style.cold, "ns")
        Measure.report("style_resolve_cached_ns", style.cached, "ns")
        let engine = try exampleEngine()
        Measure.report("vm_bytes", Double(engine.memoryInUse), "bytes")
        engine.close()
        Measure.report("lua_vs_bare_pcall", lua / bare.emptyCall, "x")
        Measure.report("depth1000_vs_depth1", deep / lua, "x")
        Measure.report("lua_vs_swift", lua / swiftGuardedPush, "x")
        Measure.report("enum_vs_route_value", enumPush / lua, "x")
    }
}

extension LuaBenchmarks {
    /// The engine deciding the benchmark's push with the example rules, without a router
    /// (what the Lua path adds to `swift_guarded_push_ns`); nanoseconds per decision.
    static func decisionOnly() throws -> Double {
        let engine = try exampleEngine()
        let router = FlowRouter<FlowRouteValue, String>(root: FlowRouteValue("home"))
        let request = FlowRuleRequest(kind: .push, route: FlowRouteValue("projects"), target: 1, stacks: router.ruleStacks)
        return Measure.nanosecondsPerIteration(iterations: 200_000) {
            guard case .allow = engine.decide(request) else { fatalError("must allow") }
        }
    }
}
