import CLua

extension LuaVM {
    /// Compiles a text chunk; errors and tracebacks name it `chunkName` (for example
    /// `rules/paywall.lua`, relative to the loaded directory).
    ///
    /// - Throws: `syntax` with the file and line, or `memoryBudget`.
    package func load(source: String, chunkName: String) throws(FlowScriptError) -> LuaFunctionRef {
        var source = source
        return try loadChunk(named: chunkName) { state, name in
            source.withUTF8 { bytes in
                bytes.withMemoryRebound(to: CChar.self) { chars in clua_loadtext(state, chars.baseAddress, chars.count, name) }
            }
        }
    }

    /// Loads a binary chunk this process produced with `dump(_:)` (never bytes from elsewhere:
    /// scripts only ever load text). Much faster than compiling the text again.
    package func loadTrusted(binary: [UInt8], chunkName: String) throws(FlowScriptError) -> LuaFunctionRef {
        try loadChunk(named: chunkName) { state, name in
            binary.withUnsafeBytes { bytes in
                clua_loadtrusted(state, bytes.baseAddress?.assumingMemoryBound(to: CChar.self), bytes.count, name)
            }
        }
    }

    /// The function `load` leaves on the stack of `state` (given the Lua chunk name, `=` and
    /// `chunkName`), as a reference; a failed load's error names `chunkName` when it has no file.
    private func loadChunk(
        named chunkName: String, _ load: (OpaquePointer, String) -> Int32
    ) throws(FlowScriptError) -> LuaFunctionRef {
        try onMainStack { stack throws(FlowScriptError) in
            guard stack.hasRoom(for: 2) else {
                throw FlowScriptError(kind: .runtime, message: "Lua stack overflow while loading \(chunkName)")
            }
            chunkNames.insert(chunkName)
            let status = load(stack.state, "=" + chunkName)
            guard status == LUA_OK else {
                var error = makeError(status: status, state: stack.state, function: nil)
                if error.file == nil { error.file = chunkName }
                throw error
            }
            return makeFunctionRef(state: stack.state, index: -1)
        }
    }

    /// The function's compiled form (debug information kept), for `loadTrusted(binary:chunkName:)`
    /// in another VM of this process; nil for a C function or when memory runs out.
    package func dump(_ function: LuaFunctionRef) -> [UInt8]? {
        guard !isClosed, function.owner === referenceOwner else { return nil }
        let stack = LuaStackWriter(state: handle.main, owner: referenceOwner)
        guard stack.hasRoom(for: 1) else { return nil }
        let top = stack.height
        defer { stack.restore(height: top) }
        stack.pushAnchored(function.reference)
        guard LuaStackReader.isLuaFunction(stack.state, -1) else { return nil }
        var buffer = clua_dumpbuf()
        defer { free(buffer.bytes) }
        guard clua_dump(stack.state, &buffer) == 0, let bytes = buffer.bytes else { return nil }
        return Array(UnsafeRawBufferPointer(start: bytes, count: buffer.length))
    }

    /// Compiles and runs a text chunk; returns what it returns.
    package func run(source: String, chunkName: String) throws(FlowScriptError) -> [LuaValue] {
        let chunk = try load(source: source, chunkName: chunkName)
        return try call(chunk, [])
    }
}
