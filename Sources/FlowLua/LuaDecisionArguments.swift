import CLua

/// The memory a rules decide function (made by the prelude's `decider`, see `clua_decide.c`)
/// reads a decision's scalar arguments from: Swift writes them here before each call instead of
/// pushing them, and the C function reads them once, on entry.
///
/// The memory belongs to the function (a userdata upvalue): it lives as long as the function,
/// which the rule set holds until its VM closes.
package struct LuaDecisionArguments {
    private let pointer: UnsafeMutablePointer<clua_decision>

    /// The arguments memory of `function`, or `nil` when it is not a decide function.
    @MainActor
    package init?(of function: LuaFunctionRef, in vm: LuaVM) {
        guard let pointer = vm.decisionArgumentsPointer(of: function) else { return nil }
        self.pointer = pointer
    }

    /// Writes one decision's arguments: positions are 1-based (`kind` in the prelude's `KINDS`,
    /// `source` in its `SOURCES`, `target` among the stacks); `snapshot` names the stacks in
    /// Swift (0: the synchronous decision's).
    package func write(
        kind: Int, count: Int?, target: Int?, source: Int, isAsync: Bool, runsDefaults: Bool, queued: Int,
        generation: Int, snapshot: Int, stackCount: Int, frontScreens: Int, tabbed: Bool
    ) {
        pointer.pointee = clua_decision(
            kind: Int64(kind), count: Int64(count ?? 0), target: Int64(target ?? 0),
            source: Int64(source), queued: Int64(queued), generation: Int64(generation),
            snap: Int64(snapshot), stack_count: Int64(stackCount), front: Int64(frontScreens),
            has_count: count == nil ? 0 : 1, has_target: target == nil ? 0 : 1,
            is_async: isAsync ? 1 : 0, run_defaults: runsDefaults ? 1 : 0, tabbed: tabbed ? 1 : 0)
    }
}
