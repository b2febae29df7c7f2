import FlowLua
import FlowStackCore
import Foundation

/// One loaded generation of rules: its VM, the prelude's entry points, and what is registered.
@MainActor @usableFromInline
final class FlowRuleSet {
    package let vm: LuaVM
    package let generation: Int
    var decideFunction: LuaFunctionRef! {
        didSet { decisionArguments = decideFunction.flatMap { LuaDecisionArguments(of: $0, in: vm) } }
    }
    /// Where the decide function reads a decision's scalar arguments (written before each call).
    var decisionArguments: LuaDecisionArguments?
    var styleFunction: LuaFunctionRef!
    /// Runs the dialog guards (`flow.dialog_guard`) for one dialog (FlowRulesEngine+Dialogs.swift).
    var dialogFunction: LuaFunctionRef!
    /// Dialog ids with a dialog guard (`"*"` when one is registered for every dialog).
    var dialogGuardNames: Set<String> = []
    /// Runs the facts rules (`flow.on_facts_changed`) for one change (FlowRulesEngine+FactsRules.swift).
    var factsFunction: LuaFunctionRef!
    /// Experiments with an audience (`flow.audience`).
    var audienceNames: Set<String> = []
    /// Whether the manifest declares experiments (decisions then note where rules read them);
    /// a constant, read on every decision without an access check.
    let hasExperiments: Bool
    /// How many `flow.on_facts_changed` handlers are registered.
    var factsHandlerCount = 0
    /// Returns `"file:line"` of the rule run last (for errors that lost their location).
    var runningWhereFunction: LuaFunctionRef!
    /// Kinds with a default precondition (`"*"` included when one is registered for every kind).
    var preconditionKinds: Set<String> = [] {
        didSet { updateDefaultsByKind() }
    }
    var hasStarPrecondition = false {
        didSet { updateDefaultsByKind() }
    }
    /// Whether a kind has a Lua default precondition, by its position in the prelude's `KINDS`
    /// (1-based `FlowRuleKind.position`): the hot path asks this, not the string set.
    var defaultsByKind: [Bool] {
        _read { yield lookup.defaultsByKind }
    }
    /// Route names with a guard.
    var guardNames: Set<String> {
        _read { yield lookup.guardNames }
        _modify { yield &lookup.guardNames }
    }
    /// What every decision reads (`defaultsByKind`, `guardNames`), one property so one attribute
    /// covers it. Unchecked: written only while the rules load, read by every decision, always on
    /// the main actor and never while a write is under way (measured with the engine's other
    /// unchecked state: see `ruleSet` in `FlowRulesEngine.swift`).
    @exclusivity(unchecked) private var lookup = FlowRuleLookup()
    /// Style rules per hook.
    var styleCounts: [FlowStyleHook: Int] = [:]
    /// Deep-link handlers by pattern.
    package var links = FlowLinkMatcher<LuaFunctionRef>()
    /// Async decisions still running in this VM (it closes once they finish).
    var callsInFlight = 0
    var retired = false

    init(vm: LuaVM, generation: Int, hasExperiments: Bool = false) {
        self.vm = vm
        self.generation = generation
        self.hasExperiments = hasExperiments
    }

    private func updateDefaultsByKind() {
        for kind in FlowRuleKind.allCases {
            lookup.defaultsByKind[kind.position] = hasStarPrecondition || preconditionKinds.contains(kind.rawValue)
        }
    }

    /// Closes the VM once no async decision uses it.
    func retire() {
        retired = true
        if callsInFlight == 0 { vm.close() }
    }

    /// `error` located at the rule run last when its own location is inside the prelude (a
    /// memory error carries none; the VM then names the prelude function it called) or missing
    /// (a stop the allocator made while Lua 5.4.7 was moving the stack, when no frame can be read).
    func relocated(_ error: FlowScriptError) -> FlowScriptError {
        guard error.file == FlowRulesPrelude.chunkName || error.line == nil, !vm.isClosed,
              let results = try? vm.call(runningWhereFunction, []),
              case .string(let location)? = results.first,
              let split = FlowScriptError.splitLocation(location + ": x") else { return error }
        var moved = error
        moved.file = split.file
        moved.line = split.line
        return moved
    }

    func beginCall() { callsInFlight += 1 }

    func endCall() {
        callsInFlight -= 1
        if retired, callsInFlight == 0 { vm.close() }
    }
}

/// The rule set's lookups that every decision reads.
struct FlowRuleLookup {
    /// Whether a kind has a Lua default precondition, by `FlowRuleKind.position`.
    var defaultsByKind = [Bool](repeating: false, count: FlowRuleKind.allCases.count + 1)
    /// Route names with a guard.
    var guardNames: Set<String> = []
}
