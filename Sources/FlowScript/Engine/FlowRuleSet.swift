import FlowStack
import Foundation

/// One loaded generation of rules: its VM, the prelude's entry points, and what is registered.
@MainActor @usableFromInline
final class FlowRuleSet {
    let vm: LuaVM
    let generation: Int
    var decideFunction: LuaFunctionRef!
    var styleFunction: LuaFunctionRef!
    /// Returns `"file:line"` of the rule run last (for errors that lost their location).
    var runningWhereFunction: LuaFunctionRef!
    /// Kinds with a default precondition (`"*"` included when one is registered for every kind).
    @usableFromInline var preconditionKinds: Set<String> = []
    @usableFromInline var hasStarPrecondition = false
    /// Route names with a guard.
    @usableFromInline var guardNames: Set<String> = []
    /// Style rules per hook.
    var styleCounts: [FlowStyleHook: Int] = [:]
    /// Deep-link handlers by pattern.
    var links = FlowLinkMatcher<LuaFunctionRef>()
    /// Async decisions still running in this VM (it closes once they finish).
    var callsInFlight = 0
    var retired = false

    init(vm: LuaVM, generation: Int) {
        self.vm = vm
        self.generation = generation
    }

    /// Whether a request needs the VM at all.
    func needsDecision(kind: String, runsDefaults: Bool, routeNames: some Sequence<String>) -> Bool {
        if runsDefaults, hasStarPrecondition || preconditionKinds.contains(kind) { return true }
        for name in routeNames where guardNames.contains(name) { return true }
        return false
    }

    /// Closes the VM once no async decision uses it.
    func retire() {
        retired = true
        if callsInFlight == 0 { vm.close() }
    }

    /// `error` located at the rule run last when its own location is inside the prelude (a
    /// memory error carries none; the VM then names the prelude function it called).
    func relocated(_ error: FlowScriptError) -> FlowScriptError {
        guard error.file == FlowRulesPrelude.chunkName, !vm.isClosed,
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
