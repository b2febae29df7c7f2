import CLua

/// Owns the `lua_State` and its C context (budgets, error bookkeeping); closes them once.
///
/// Separate from `LuaVM` so that the state is closed by a plain (nonisolated) deinit.
final class LuaStateHandle {
    /// The main thread of the state.
    let main: OpaquePointer
    /// The C context the allocator, the hook and the trampoline share.
    let context: UnsafeMutablePointer<clua_ctx>
    /// The coverage counts the hook writes to, kept alive as long as the state (nil: off).
    package var coverage: LuaCoverageCounts?
    /// Whether `close()` ran.
    private(set) var isClosed = false

    /// Creates a state whose allocations are accounted in a new context; nil when out of memory.
    init?(memoryBudget: Int, instructionBudget: Int, timeLimit: Duration? = nil) {
        let context = UnsafeMutablePointer<clua_ctx>.allocate(capacity: 1)
        context.initialize(to: clua_ctx())
        context.pointee.mem_limit = max(memoryBudget, 0)
        LuaStateHandle.setInstructionBudget(instructionBudget, in: context)
        LuaStateHandle.setTimeLimit(timeLimit, in: context)
        guard let state = clua_newstate(context) else {
            context.deinitialize(count: 1)
            context.deallocate()
            return nil
        }
        self.main = state
        self.context = context
    }

    /// Sets the per-call instruction budget and the hook granularity that goes with it.
    static func setInstructionBudget(_ budget: Int, in context: UnsafeMutablePointer<clua_ctx>) {
        let budget = max(budget, 1)
        context.pointee.instr_budget = Int64(budget)
        context.pointee.instr_step = Int32(min(budget, 1000))
    }

    /// Sets the per-call time limit (nil: none).
    static func setTimeLimit(_ limit: Duration?, in context: UnsafeMutablePointer<clua_ctx>) {
        guard let limit, limit > .zero else {
            context.pointee.time_limit_ns = 0
            return
        }
        let (seconds, attoseconds) = limit.components
        let nanoseconds = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        context.pointee.time_limit_ns = nanoseconds.overflow ? Int64.max : nanoseconds.partialValue + attoseconds / 1_000_000_000
    }

    /// Closes the state (no host function runs during the close) and frees the context.
    package func close() {
        guard !isClosed else { return }
        isClosed = true
        clua_close(main)
        context.deinitialize(count: 1)
        context.deallocate()
    }

    deinit {
        close()
    }
}
