// Helpers for the tests that run Lua: FlowLuaTests, FlowScriptTests, FlowTestingTests. Not a
// product: never shipped.
import FlowLua

/// Runs `source` as chunk `chunkName` in `vm` and returns its results.
@MainActor
package func run(_ vm: LuaVM, _ source: String, chunkName: String = "test.lua") throws(FlowScriptError) -> [LuaValue] {
    try vm.run(source: source, chunkName: chunkName)
}

/// The error `body` throws, or nil.
@MainActor
package func scriptError(_ body: () throws(FlowScriptError) -> Void) -> FlowScriptError? {
    do {
        try body()
        return nil
    } catch {
        return error
    }
}

/// The error running `source` throws, or nil.
@MainActor
package func scriptError(_ vm: LuaVM, _ source: String, chunkName: String = "test.lua") -> FlowScriptError? {
    scriptError { () throws(FlowScriptError) in _ = try vm.run(source: source, chunkName: chunkName) }
}

/// The error an async body throws, or nil.
@MainActor
package func thrownAsync(_ body: () async throws(FlowScriptError) -> Void) async -> FlowScriptError? {
    do {
        try await body()
        return nil
    } catch {
        return error
    }
}
