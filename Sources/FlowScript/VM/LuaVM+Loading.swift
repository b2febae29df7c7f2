import CLua

extension LuaVM {
    /// Compiles a text chunk; errors and tracebacks name it `chunkName` (for example
    /// `rules/paywall.lua`, relative to the loaded directory).
    ///
    /// - Throws: `syntax` with the file and line, or `memoryBudget`.
    func load(source: String, chunkName: String) throws(FlowScriptError) -> LuaFunctionRef {
        let state = try openState()
        let top = lua_gettop(state)
        defer { lua_settop(state, top) }
        guard lua_checkstack(state, 2) != 0 else {
            throw FlowScriptError(kind: .runtime, message: "Lua stack overflow while loading \(chunkName)")
        }
        chunkNames.insert(chunkName)
        var source = source
        let status = source.withUTF8 { bytes in
            bytes.withMemoryRebound(to: CChar.self) { chars in
                clua_loadtext(state, chars.baseAddress, chars.count, "=" + chunkName)
            }
        }
        guard status == LUA_OK else {
            var error = makeError(status: status, state: state, function: nil)
            if error.file == nil { error.file = chunkName }
            throw error
        }
        return makeFunctionRef(state: state, index: -1)
    }

    /// Compiles and runs a text chunk; returns what it returns.
    func run(source: String, chunkName: String) throws(FlowScriptError) -> [LuaValue] {
        let chunk = try load(source: source, chunkName: chunkName)
        return try call(chunk, [])
    }
}
