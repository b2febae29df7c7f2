import FlowLua
import FlowStackCore
import Foundation

/// A Swift function rules call as `host.<name>(...)`.
package struct FlowHostFunction {
    package enum Body {
        case sync(@MainActor ([FlowScriptValue?]) throws -> [FlowScriptValue?])
        case async(@MainActor ([FlowScriptValue?]) async throws -> [FlowScriptValue?])
        /// `async` during async navigations, `sync` everywhere else.
        case adaptive(
            sync: @MainActor ([FlowScriptValue?]) throws -> [FlowScriptValue?],
            async: @MainActor ([FlowScriptValue?]) async throws -> [FlowScriptValue?])
    }

    package let body: Body
}

/// An error a host function throws to fail the rule that called it, with a message for the
/// script's author.
public struct FlowHostError: Error, CustomStringConvertible, Sendable {
    /// What went wrong.
    public let description: String

    /// Creates an error.
    public init(_ description: String) {
        self.description = description
    }
}

extension FlowRulesEngine {
    /// The facts rules read through `facts`.
    public var currentFacts: [String: FlowScriptValue] { facts }

    /// Sets (or with `nil` removes) one fact; rules see it at once, the facts rules
    /// (`flow.on_facts_changed`) run, and a deep link or a navigation held until the facts allow
    /// it is retried (`router.factsDidChange(plan:)`).
    ///
    /// - Throws: with a manifest, an undeclared fact or a value of the wrong type.
    public func setFact(_ name: String, _ value: FlowScriptValue?) throws(FlowScriptError) {
        try setFacts([name: value])
    }

    /// Sets several facts at once (`nil` removes one). When no value changes, nothing happens:
    /// rules are not told and nothing held is retried.
    public func setFacts(_ changes: [String: FlowScriptValue?]) throws(FlowScriptError) {
        try validateFacts(changes)
        let changed = Set(changes.filter { facts[$0.key] != $0.value }.keys)
        guard !changed.isEmpty else { return }
        for (name, value) in changes { facts[name] = value }
        try refreshFacts(changed: changed)
    }

    /// Replaces every fact (a manifest's declared defaults fill the gaps). What is held is
    /// retried; the facts rules do not run (a reset is a new start, not a change on screen).
    public func resetFacts(_ values: [String: FlowScriptValue] = [:]) throws(FlowScriptError) {
        try validateFacts(values.mapValues { Optional($0) })
        facts = configuration.manifest?.facts ?? [:]
        for (name, value) in values { facts[name] = value }
        try refreshFacts(changed: [])
    }

    /// Replaces every fact with exactly `values`: a declared fact left out is unset, and a rule
    /// reading it (or iterating `facts`) calls `onMissingFact` (exploration assigns facts only
    /// once a rule reads them).
    package func replaceFacts(exactly values: [String: FlowScriptValue]) throws(FlowScriptError) {
        try validateFacts(values.mapValues { Optional($0) })
        facts = values
        try refreshFacts(changed: [])
    }

    /// With a manifest, throws for an undeclared fact or a value of the wrong type.
    private func validateFacts(_ changes: [String: FlowScriptValue?]) throws(FlowScriptError) {
        guard let manifest = configuration.manifest, !manifest.facts.isEmpty else { return }
        for (name, value) in changes.sorted(by: { $0.key < $1.key }) {
            let problem = value.map { manifest.problem(withFact: name, value: $0) } ?? manifest.problem(withFact: name)
            if let problem { throw FlowScriptError(kind: .typeError, message: problem) }
        }
    }

    /// Tells the rules and the routers: the facts rules run for `changed` (a reset changes
    /// nothing they act on), then the held link and navigation are retried.
    private func refreshFacts(changed: Set<String>) throws(FlowScriptError) {
        experimentFactsChanged()
        if let vm = ruleSet?.vm, !vm.isClosed {
            try vm.replaceReadOnlyContents(at: "facts", with: factsTable)
        }
        onFactsChange?()
        routers.removeAll { $0.router == nil }
        for box in routers { box.factsDidChange(changed) }
    }

    var factsTable: LuaTable {
        LuaTable(fields: Dictionary(uniqueKeysWithValues: facts.map { (LuaTableKey.string($0.key), $0.value.luaValue) }))
    }

    func installFacts(in vm: LuaVM) throws(FlowScriptError) {
        let manifest = configuration.manifest
        let missingFacts = self.missingFacts
        try vm.installReadOnlyTable(at: "facts", contents: factsTable, onMissingKey: { name in
            if let name, let manifest, !manifest.facts.isEmpty, let problem = manifest.problem(withFact: name) {
                return .failure(FlowScriptError(kind: .undeclaredGlobal, message: problem))
            }
            return (missingFacts.serve?(name) ?? .success(nil)).map { $0?.luaValue }
        }, instead: "rules read facts, the app sets them (engine.setFacts); keep a value a rule computes in a local")
    }

    /// Registers a synchronous host function rules call as `host.<name>(...)`.
    ///
    /// Arguments arrive as `FlowScriptValue`s (`nil` for Lua `nil`); throw `FlowHostError` to
    /// fail the calling rule with a message.
    public func registerHost(_ name: String, _ body: @escaping @MainActor ([FlowScriptValue?]) throws -> [FlowScriptValue?]) {
        addHost(name, FlowHostFunction(body: .sync(body)))
    }

    /// Registers an asynchronous host function (a permission prompt, a network check): it
    /// suspends the calling rule until it returns, and only async navigations may call it.
    public func registerAsyncHost(_ name: String, _ body: @escaping @MainActor ([FlowScriptValue?]) async throws -> [FlowScriptValue?]) {
        addHost(name, FlowHostFunction(body: .async(body)))
    }

    /// Registers a host function with two bodies: `async` runs (suspending the rule) during
    /// async navigations, `sync` during synchronous ones and style resolution. The flow-test
    /// runner stubs host functions this way: a stub that waits works in `pushAsync` and fails
    /// in `push` with the async-variant error, as a real asynchronous host function does.
    package func registerAdaptiveHost(
        _ name: String,
        sync: @escaping @MainActor ([FlowScriptValue?]) throws -> [FlowScriptValue?],
        async: @escaping @MainActor ([FlowScriptValue?]) async throws -> [FlowScriptValue?]
    ) {
        addHost(name, FlowHostFunction(body: .adaptive(sync: sync, async: async)))
    }

    /// The names of the registered host functions.
    package var hostFunctionNames: [String] { hosts.keys.sorted() }

    private func addHost(_ name: String, _ host: FlowHostFunction) {
        hosts[name] = host
        if let vm = ruleSet?.vm, !vm.isClosed {
            do {
                try install(host, named: name, in: vm)
            } catch {
                note(FlowScriptDiagnostic(severity: .error, message: "cannot register host.\(name): \(error.description)"))
            }
        }
    }

    package func install(_ host: FlowHostFunction, named name: String, in vm: LuaVM) throws(FlowScriptError) {
        let path = "host.\(name)"
        switch host.body {
        case .sync(let body):
            try vm.register(path, returning: { [unowned self] arguments in
                hostCallCount += 1
                let values = try arguments.values().map { FlowScriptValue($0) }
                return try Self.hostResults(try Self.runHost(name) { try body(values) })
            })
        case .async(let body):
            try vm.registerAsync(path, Self.asyncHostBody(name, body))
        case .adaptive(let sync, let async):
            try vm.registerAdaptive(path, sync: { [unowned self] arguments, writer in
                hostCallCount += 1
                let values = try arguments.values().map { FlowScriptValue($0) }
                let results = try Self.hostResults(try Self.runHost(name) { try sync(values) })
                try writer.reserveChecked(results.count)
                for value in results { try writer.push(value) }
                return results.count
            }, async: Self.asyncHostBody(name, async))
        }
    }

    /// The VM body of an asynchronous host function.
    private static func asyncHostBody(
        _ name: String, _ body: @escaping @MainActor ([FlowScriptValue?]) async throws -> [FlowScriptValue?]
    ) -> LuaAsyncHostBody {
        { arguments in
            let values = arguments.map { FlowScriptValue($0) }
            let results: [FlowScriptValue?]
            do {
                results = try await body(values)
            } catch let error as FlowScriptError {
                throw error
            } catch {
                throw FlowScriptError(kind: .host, message: "host.\(name) failed: \(error)")
            }
            return try hostResults(results)
        }
    }

    private static func runHost<T>(_ name: String, _ body: () throws -> T) throws(FlowScriptError) -> T {
        do {
            return try body()
        } catch let error as FlowScriptError {
            throw error
        } catch {
            throw FlowScriptError(kind: .host, message: "host.\(name) failed: \(error)")
        }
    }

    private static func hostResults(_ values: [FlowScriptValue?]) throws(FlowScriptError) -> [LuaValue] {
        values.map { $0?.luaValue ?? .nil }
    }
}
