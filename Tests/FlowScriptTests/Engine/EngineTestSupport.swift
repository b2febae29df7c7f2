import FlowStackCore
import Foundation
import Testing
@testable import FlowLua
@testable import FlowScript

/// The dynamic router every engine test drives.
typealias ScriptRouter = FlowRouter<FlowRouteValue, String>

/// A route value with no payload.
func route(_ name: String, _ payload: [String: FlowScriptValue] = [:]) -> FlowRouteValue {
    FlowRouteValue(name, payload)
}

/// An app route type with the `Codable` default conversion: labelled and unlabelled payloads.
enum AppRoute: Codable, Hashable, FlowRouteConvertible {
    case home
    case detail(id: String)
    case editor(id: Int, draft: Bool)
    case photo(String)
    case pair(String, Int)
    case paywall
    case login
}

/// An engine and a router it is installed into, with a log rules append to through `host.log`.
@MainActor
final class RulesRig {
    let engine: FlowRulesEngine<FlowRouteValue>
    let router: ScriptRouter
    /// What rules passed to `host.log(...)`, one string per call (arguments joined by spaces).
    private(set) var log: [String] = []

    /// Loads `text` as one rules file named `file` and installs the engine into a new router.
    init(
        _ text: String,
        file: String = "rules/test.lua",
        root: FlowRouteValue = route("home"),
        configuration: FlowRulesConfiguration = FlowRulesConfiguration()
    ) throws {
        engine = try FlowRulesEngine(sources: [FlowRulesSource(name: file, text: text)], configuration: configuration)
        router = ScriptRouter(root: root)
        engine.install(into: router)
        engine.registerHost("log") { [weak self] arguments in
            self?.log.append(arguments.map { $0.map(Self.describe) ?? "nil" }.joined(separator: " "))
            return []
        }
    }

    /// Pushes a route through the rules.
    @discardableResult
    func push(_ name: String, _ payload: [String: FlowScriptValue] = [:]) -> FlowOperationResult<FlowRouteValue> {
        router.perform(.push(route(name, payload), target: .active))
    }

    /// Clears the log.
    func clearLog() { log.removeAll() }

    static func describe(_ value: FlowScriptValue) -> String {
        switch value {
        case .bool(let flag): String(flag)
        case .int(let number): String(number)
        case .double(let number): String(number)
        case .string(let text): text
        case .array, .table: value.luaSource
        }
    }
}

/// The engine's load error for `text`, or `nil` when it loads.
@MainActor
func loadError(
    _ text: String, file: String = "rules/bad.lua", configuration: FlowRulesConfiguration = FlowRulesConfiguration()
) -> FlowScriptError? {
    do {
        _ = try FlowRulesEngine<FlowRouteValue>(sources: [FlowRulesSource(name: file, text: text)], configuration: configuration)
        return nil
    } catch {
        return error
    }
}

/// The last result of a redirect chain.
func finalResult<Route>(_ result: FlowOperationResult<Route>) -> FlowOperationResult<Route> {
    var current = result
    while let next = current.redirect { current = next }
    return current
}

/// The number of redirects a result followed.
func redirectDepth<Route>(_ result: FlowOperationResult<Route>) -> Int {
    var depth = 0
    var current = result
    while let next = current.redirect {
        depth += 1
        current = next
    }
    return depth
}

/// A continuation the test resumes by hand, for async host functions.
@MainActor
final class HostLatch {
    private var continuations: [CheckedContinuation<FlowScriptValue?, Never>] = []
    /// How many callers have arrived so far.
    private(set) var arrivals = 0

    /// Suspends until `resume(with:)`.
    func wait() async -> FlowScriptValue? {
        arrivals += 1
        return await withCheckedContinuation { continuations.append($0) }
    }

    /// Callers suspended now.
    var waitingCount: Int { continuations.count }

    /// Resumes the oldest waiter with `value`.
    func resume(with value: FlowScriptValue?) {
        guard !continuations.isEmpty else { return }
        continuations.removeFirst().resume(returning: value)
    }

    /// Yields until `count` callers have arrived (bounded by turns, not time).
    func waitForArrivals(_ count: Int, turns: Int = 100_000) async {
        var turn = 0
        while arrivals < count, turn < turns {
            await Task.yield()
            turn += 1
        }
    }
}

/// Yields to other main-actor tasks until `condition` holds or `turns` have passed.
@MainActor
func spinUntil(turns: Int = 100_000, _ condition: () -> Bool) async {
    var turn = 0
    while !condition(), turn < turns {
        await Task.yield()
        turn += 1
    }
}

/// A fresh temporary directory, removed by the caller.
func temporaryDirectory(_ name: String = "rules") throws -> URL {
    let base = FileManager.default.temporaryDirectory
        .appendingPathComponent("flowscript-engine-tests-\(UUID().uuidString)")
    let directory = base.appendingPathComponent(name)
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    return directory
}

/// A mutable value main-actor closures share with the test.
@MainActor
final class Shared<Value> {
    var value: Value

    init(_ value: Value) {
        self.value = value
    }
}

/// Runs `statement` inside a guard of "probe" (`op`, `stacks` and `ctx` in scope) and expects
/// the push to fail closed at the statement's line with a "read-only" reason, the stack unchanged.
@MainActor
func expectReadOnlyWrite(_ statement: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
    let rig = try RulesRig("""
        flow.guard("probe", function(op, stacks, ctx)
          \(statement)
        end)
        """)
    let result = rig.push("probe")
    #expect(result.status == .failed, sourceLocation: sourceLocation)
    let reason = try #require(result.reason, sourceLocation: sourceLocation)
    #expect(reason.hasPrefix("rules/test.lua:2: "), "\(reason)", sourceLocation: sourceLocation)
    #expect(reason.contains("read-only"), "\(reason)", sourceLocation: sourceLocation)
    #expect(rig.router.activeStack.path.isEmpty, sourceLocation: sourceLocation)
}
