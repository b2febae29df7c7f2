import FlowLua
import FlowScript
import FlowStackCore
import Foundation

/// The properties of a project's `explore/*.lua` files: each calls `invariant(name, fn)`, and
/// `fn(s)` returns true when the state `s` (`s.stacks` as `router.stacks()`, `s.top`,
/// `s.dialog`, `s.facts`, read-only) is fine.
@MainActor
package final class FlowExploreInvariants {
    /// One registered property.
    struct Invariant {
        let name: String
        let function: LuaFunctionRef
        let location: String
    }

    private let vm: LuaVM
    /// Runs an invariant on a state with `s.facts` the read-only `facts` proxy.
    private let checker: LuaFunctionRef
    private(set) var invariants: [Invariant] = []
    /// Called when an invariant reads a fact `facts` does not set (`nil`: iterates them);
    /// returns the value read (`nil`: none) or the error to raise.
    var onMissingFact: (@MainActor (String?) -> Result<FlowScriptValue?, FlowScriptError>)?
    /// The source of every file, by name (emitted flows carry them).
    private(set) var sources: [FlowRulesSource] = []

    /// Loads every `*.lua` file of `directory` (none when it does not exist).
    init(directory: URL) throws(FlowScriptError) {
        vm = try LuaVM(configuration: .init(memoryBudget: 64 << 20, instructionBudget: 1_000_000))
        var registered: [Invariant] = []
        let vm = self.vm
        try vm.register("invariant", returning: { arguments in
            let name = try arguments.string(at: 1)
            let function = try arguments.function(at: 2)
            if registered.contains(where: { $0.name == name }) {
                throw FlowScriptError(kind: .typeError, message: "invariant '\(name)' is declared twice; give each its own name")
            }
            let location = vm.definitionLocation(of: function).map { "\($0.file):\($0.line)" } ?? "?"
            registered.append(Invariant(name: name, function: function, location: location))
            return []
        })
        checker = try vm.load(source: "local fn, s = ...\ns.facts = facts\nreturn fn(s)", chunkName: "=explore")
        sources = try FlowProject.sources(in: directory)
        for source in sources {
            _ = try vm.run(source: source.text, chunkName: source.name)
        }
        invariants = registered
        try vm.installReadOnlyTable(at: "facts", contents: LuaTable(), onMissingKey: { [weak self] name in
            (self?.onMissingFact?(name) ?? .success(nil)).map { $0?.luaValue }
        })
    }

    /// Every error of loading `sources` as `flowstack explore` does, one per file that does not
    /// load (a syntax error, an error at the top level, an invariant name declared twice), with
    /// `file:line`: `flowstack check` reports them all, where explore stops at the first.
    package static func loadProblems(in sources: [FlowRulesSource]) -> [FlowScriptError] {
        guard !sources.isEmpty,
              let vm = try? LuaVM(configuration: .init(memoryBudget: 64 << 20, instructionBudget: 1_000_000)) else { return [] }
        defer { vm.close() }
        var names = Set<String>()
        do {
            try vm.register("invariant", returning: { arguments in
                let name = try arguments.string(at: 1)
                _ = try arguments.function(at: 2)
                guard names.insert(name).inserted else {
                    throw FlowScriptError(kind: .typeError, message: "invariant '\(name)' is declared twice; give each its own name")
                }
                return []
            })
        } catch {
            return [error]
        }
        var problems: [FlowScriptError] = []
        for source in sources {
            do {
                _ = try vm.run(source: source.text, chunkName: source.name)
            } catch {
                problems.append(error)
            }
        }
        return problems
    }

    /// Whether there is anything to check.
    var isEmpty: Bool { invariants.isEmpty }

    /// The names of the invariants `state` breaks, with the error of one that failed to run.
    func broken(
        by state: FlowRouterState<FlowRouteValue, FlowDialogValue>, facts: [String: FlowScriptValue]
    ) -> [(invariant: Invariant, error: String?)] {
        guard !invariants.isEmpty else { return [] }
        var s = LuaTable()
        s["stacks"] = .table(LuaTable(array: state.stacks.enumerated().map { index, stack in
            var table = LuaTable()
            table["index"] = .integer(index + 1)
            table["presentation"] = .string(stack.style.rawValue)
            table["routes"] = .table(LuaTable(array: stack.routes.map { .table($0.luaTable) }))
            return .table(table)
        }))
        s["top"] = state.stacks.last.map { .table($0.topRoute.luaTable) } ?? .nil
        s["dialog"] = state.globalDialog?.luaValue ?? .nil
        do {
            try vm.replaceReadOnlyContents(
                at: "facts", with: LuaTable(fields: Dictionary(uniqueKeysWithValues: facts.map { (LuaTableKey.string($0.key), $0.value.luaValue) })))
        } catch {
            return invariants.map { ($0, error.description) }
        }
        var broken: [(Invariant, String?)] = []
        for invariant in invariants {
            do {
                let results = try vm.call(checker, [.function(invariant.function), .table(s)])
                if !(results.first?.isTruthy ?? false) { broken.append((invariant, nil)) }
            } catch {
                broken.append((invariant, error.description))
            }
        }
        return broken
    }
}
