import CLua

extension LuaVM {
    /// A registry reference to the function at `index` of `state`'s stack.
    func makeFunctionRef(state: OpaquePointer, index: Int32) -> LuaFunctionRef {
        releaseDroppedReferences()
        let index = lua_absindex(state, index)
        let writer = LuaStackWriter(state: state, owner: referenceOwner)
        writer.reserve(2)
        lua_pushvalue(state, index)
        let label = LuaVM.functionLabel(state)
        let reference = luaL_ref(state, clua_registryindex())
        return LuaFunctionRef(reference: reference, owner: referenceOwner, label: label)
    }

    /// Frees the registry slots of function references Swift no longer holds.
    func releaseDroppedReferences() {
        guard !isClosed else { return }
        for reference in referenceOwner.drain() {
            luaL_unref(handle.main, clua_registryindex(), reference)
        }
    }

    /// `file:line` where the function on top of the stack is defined, or `[C]` (leaves the stack as is).
    static func functionLabel(_ state: OpaquePointer) -> String {
        var info = lua_Debug()
        lua_pushvalue(state, -1)
        guard lua_getinfo(state, ">S", &info) != 0 else { return "?" }
        let source = luaShortSource(&info)
        return info.linedefined > 0 ? "\(source):\(info.linedefined)" : source
    }

    /// Where the function of `reference` is defined: its chunk name and first line, if it is a Lua function.
    package func definitionLocation(of function: LuaFunctionRef) -> (file: String, line: Int)? {
        guard !isClosed, function.owner === referenceOwner else { return nil }
        let state = handle.main
        guard lua_checkstack(state, 2) != 0 else { return nil }
        lua_rawgeti(state, clua_registryindex(), lua_Integer(function.reference))
        var info = lua_Debug()
        guard lua_getinfo(state, ">S", &info) != 0, info.linedefined >= 0 else { return nil }
        let source = luaShortSource(&info)
        guard source != "[C]" else { return nil }
        return (expandChunkName(source), max(Int(info.linedefined), 1))
    }

    /// The full chunk name for a name Lua shortened to fit its 60-byte source ids.
    package func expandChunkName(_ name: String) -> String {
        if chunkNames.contains(name) { return name }
        let candidates = chunkNames.filter { $0.hasPrefix(name) }
        return candidates.count == 1 ? candidates.first! : name
    }
}

/// The `short_src` of a `lua_Debug` as a String. Nonisolated on purpose: a closure written inside
/// main-actor code and handed to a generic function gets a runtime executor check on every call
/// (Swift 6's dynamic isolation checks), here once per byte.
nonisolated func luaShortSource(_ info: inout lua_Debug) -> String {
    withUnsafeBytes(of: &info.short_src) { bytes in
        String(decoding: bytes.prefix(while: { $0 != 0 }), as: UTF8.self)
    }
}
