import CLua

extension LuaVM {
    /// Where this VM's hook counts lines and function calls (nil: coverage off, the hook then
    /// asks Lua for instruction counts only). Takes effect from the next call.
    package var coverage: LuaCoverageCounts? {
        get { handle.coverage }
        set {
            guard !isClosed else { return }
            handle.coverage = newValue
            clua_ctx_set_coverage(handle.context, newValue?.store)
            clua_armhook(handle.main)
        }
    }
}
