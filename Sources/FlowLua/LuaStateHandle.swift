import CLua

/// Owns the `lua_State` and its C context (budgets, error bookkeeping); closes them once.
///
/// Separate from `LuaVM` so that the state is closed by a plain (nonisolated) deinit.
final class LuaStateHandle {
    /// The main thread of the state.
    let main: OpaquePointer
    /// The C context the allocator, the hook and the trampoline share (an opaque `clua_ctx`,
    /// set and read through the `clua_ctx_` functions).
    let context: OpaquePointer
    /// The coverage counts the hook writes to, kept alive as long as the state (nil: off).
    package var coverage: LuaCoverageCounts?
    /// Whether `close()` ran.
    private(set) var isClosed = false

    /// Creates a state whose allocations are accounted in a new context; nil when out of memory.
    init?(memoryBudget: Int, instructionBudget: Int, timeLimit: Duration? = nil) {
        guard let context = clua_ctx_new() else { return nil }
        clua_ctx_set_memory_limit(context, max(memoryBudget, 0))
        clua_ctx_set_instruction_budget(context, Int64(instructionBudget))
        LuaStateHandle.setTimeLimit(timeLimit, in: context)
        guard let state = clua_newstate(context) else {
            clua_ctx_free(context)
            return nil
        }
        self.main = state
        self.context = context
    }

    /// Sets the per-call time limit (nil: none).
    static func setTimeLimit(_ limit: Duration?, in context: OpaquePointer) {
        guard let limit, limit > .zero else {
            clua_ctx_set_time_limit(context, 0)
            return
        }
        let (seconds, attoseconds) = limit.components
        let nanoseconds = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        clua_ctx_set_time_limit(context, nanoseconds.overflow ? Int64.max : nanoseconds.partialValue + attoseconds / 1_000_000_000)
    }

    /// Closes the state (no host function runs during the close) and frees the context.
    package func close() {
        guard !isClosed else { return }
        isClosed = true
        clua_close(main)
        clua_ctx_free(context)
    }

    deinit {
        close()
    }
}
