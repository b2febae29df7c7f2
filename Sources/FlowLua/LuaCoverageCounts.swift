import CLua

/// Line and function hit counts that the VM's hook records for registered chunks (rules
/// coverage, see `FlowCoverage`).
///
/// The counts live in C memory outside the Lua heap; every VM counting into them keeps them
/// alive (`LuaVM.coverage`), so the hook never writes to freed memory.
package final class LuaCoverageCounts {
    /// The C store the hook writes to.
    package let store: OpaquePointer

    /// Creates an empty store.
    package init() {
        guard let store = clua_coverage_new() else { fatalError("out of memory allocating rules coverage counts") }
        self.store = store
    }

    /// Registers the chunk loaded as `chunkName` with `lineCount` lines; returns its index.
    package func register(chunkName: String, lineCount: Int) -> Int32 {
        let index = clua_coverage_add(store, "=" + chunkName, Int32(clamping: lineCount))
        if index < 0 { fatalError("out of memory allocating rules coverage counts") }
        return index
    }

    /// Line events that landed on `line` of chunk `index`.
    package func lineHits(_ index: Int32, line: Int) -> Int {
        Int(clua_coverage_line(store, index, Int32(clamping: line)))
    }

    /// Calls of the Lua functions defined on `line` of chunk `index`.
    package func functionHits(_ index: Int32, line: Int) -> Int {
        Int(clua_coverage_function(store, index, Int32(clamping: line)))
    }

    deinit {
        clua_coverage_free(store)
    }
}
