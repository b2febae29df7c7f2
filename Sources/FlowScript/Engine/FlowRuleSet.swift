import CLua
import FlowStack
import Foundation

/// One loaded generation of rules: its VM, the prelude's entry points, and what is registered.
@MainActor @usableFromInline
final class FlowRuleSet {
    let vm: LuaVM
    let generation: Int
    var decideFunction: LuaFunctionRef! {
        didSet { decisionArguments = decideFunction.flatMap { LuaDecisionArguments(of: $0, in: vm) } }
    }
    /// Where the decide function reads a decision's scalar arguments (written before each call).
    @exclusivity(unchecked) var decisionArguments: LuaDecisionArguments?
    var styleFunction: LuaFunctionRef!
    /// Returns `"file:line"` of the rule run last (for errors that lost their location).
    var runningWhereFunction: LuaFunctionRef!
    /// Kinds with a default precondition (`"*"` included when one is registered for every kind).
    @usableFromInline var preconditionKinds: Set<String> = [] {
        didSet { updateDefaultsByKind() }
    }
    @usableFromInline var hasStarPrecondition = false {
        didSet { updateDefaultsByKind() }
    }
    /// Whether a kind has a Lua default precondition, by its position in the prelude's `KINDS`
    /// (1-based, see `FlowRulesEngineKinds.index(of:)`): the hot path asks this, not the string set.
    @usableFromInline private(set) var defaultsByKind = [Bool](repeating: false, count: FlowRulesEngineKinds.names.count + 1)
    /// Route names with a guard.
    @usableFromInline var guardNames: Set<String> = []
    /// Style rules per hook.
    var styleCounts: [FlowStyleHook: Int] = [:]
    /// Deep-link handlers by pattern.
    var links = FlowLinkMatcher<LuaFunctionRef>()
    /// Route tables of routes without parameters, by name, as registry references: a decision
    /// reuses the one an earlier decision got when no rule has changed it since.
    @exclusivity(unchecked) private var routeTables: [String: Int32] = [:]
    /// The route table pushed last, by name: consecutive decisions about one route (a push and
    /// its pop, a screen asked about again) skip hashing the name.
    @exclusivity(unchecked) private var lastRouteTable: (name: String, reference: Int32)?
    /// Async decisions still running in this VM (it closes once they finish).
    var callsInFlight = 0
    var retired = false

    init(vm: LuaVM, generation: Int) {
        self.vm = vm
        self.generation = generation
    }

    private func updateDefaultsByKind() {
        for (offset, name) in FlowRulesEngineKinds.names.enumerated() {
            defaultsByKind[offset + 1] = hasStarPrecondition || preconditionKinds.contains(name)
        }
    }

    /// Pushes `{ name = name }` for a route without parameters: the table an earlier decision
    /// got when it is still exactly that (`clua_route_intact`), else a new one, remembered.
    /// Building a table costs more than the rest of a simple decision's arguments together.
    func pushRouteTable(named name: String, on writer: LuaStackWriter) {
        let state = writer.state
        writer.reserve(3)
        let known: Int32?
        if let last = lastRouteTable, last.name == name { known = last.reference } else { known = routeTables[name] }
        if let reference = known {
            lua_rawgeti(state, clua_registryindex(), lua_Integer(reference))
            if routeTableIsIntact(state, name) {
                lastRouteTable = (name, reference)
                return
            }
            lua_settop(state, -2)
            luaL_unref(state, clua_registryindex(), reference)
            routeTables[name] = nil
            lastRouteTable = nil
        }
        writer.pushTable(fieldCount: 1) { table in table.set("name", name) }
        if routeTables.count >= 256 {
            for reference in routeTables.values { luaL_unref(state, clua_registryindex(), reference) }
            routeTables.removeAll(keepingCapacity: true)
            lastRouteTable = nil
        }
        lua_pushvalue(state, -1)
        let reference = luaL_ref(state, clua_registryindex())
        if reference >= 0 {
            routeTables[name] = reference
            lastRouteTable = (name, reference)
        }
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

/// Whether the table on top of `state`'s stack is still exactly `{ name = name }`. Nonisolated:
/// a closure written in main-actor code gets a runtime executor check on every call.
nonisolated func routeTableIsIntact(_ state: OpaquePointer, _ name: String) -> Bool {
    var name = name
    return name.withUTF8 { bytes in
        clua_route_intact(state, bytes.baseAddress.map { UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self) }, bytes.count) != 0
    }
}
