import CLua

extension LuaVM {
    /// Calls `function` inside a new coroutine, so that asynchronous host functions can
    /// suspend it: each time one is called, this awaits its Swift body, then resumes the
    /// script with its results (or raises its error in the script).
    ///
    /// The instruction budget covers the whole call, across resumes. Synchronous calls may run
    /// while this one is suspended.
    ///
    /// - Throws: the script's error, or `closed` when the VM closes while the call is suspended.
    func callAsync(_ function: LuaFunctionRef, _ arguments: [LuaValue] = []) async throws(FlowScriptError) -> [LuaValue] {
        let main = try openState()
        guard function.owner === referenceOwner else {
            throw FlowScriptError(kind: .typeError, message: "a Lua function from another Lua VM cannot be called here")
        }
        let mainWriter = LuaStackWriter(state: main, owner: referenceOwner)
        mainWriter.reserve(2)
        guard let thread = lua_newthread(main) else {
            throw FlowScriptError(kind: .memoryBudget, message: "out of memory while creating a coroutine")
        }
        let threadReference = luaL_ref(main, clua_registryindex())
        defer {
            if !isClosed { luaL_unref(handle.main, clua_registryindex(), threadReference) }
        }
        clua_armhook(thread)
        let writer = LuaStackWriter(state: thread, owner: referenceOwner)
        try writer.push(function)
        writer.reserve(arguments.count)
        for argument in arguments { try writer.push(argument) }

        var argumentCount = Int32(arguments.count)
        var instructionsUsed: Int64 = 0
        while true {
            let context = handle.context
            context.pointee.instr_used = instructionsUsed
            context.pointee.instr_exhausted = 0
            context.pointee.mem_exceeded = 0
            context.pointee.kinded_kind = Int32(CLUA_KIND_NONE)
            pendingAsyncRequest = nil
            var resultCount: Int32 = 0
            callDepth += 1
            let status = clua_resume(thread, main, argumentCount, &resultCount)
            callDepth -= 1
            instructionsUsed = context.pointee.instr_used

            if status == LUA_OK {
                let results = LuaResults(
                    state: thread, base: lua_gettop(thread) - resultCount + 1, count: Int(resultCount),
                    functionName: nil, vm: self)
                return try results.values()
            }
            guard status == LUA_YIELD else {
                throw coroutineError(status: status, thread: thread, function: function)
            }
            lua_settop(thread, -resultCount - 1)
            guard let request = pendingAsyncRequest else {
                clua_record_thread_location(thread)
                var error = FlowScriptError(
                    kind: .runtime,
                    message: "coroutine.yield was called outside a coroutine the script created "
                        + "(a rule cannot yield by itself)")
                let context = handle.context.pointee
                if context.err_line > 0 {
                    error.file = expandChunkName(LuaVM.cString(context.err_src))
                    error.line = Int(context.err_line)
                }
                throw error
            }
            pendingAsyncRequest = nil
            let outcome: Result<[LuaValue], any Error>
            do {
                outcome = .success(try await request.body(request.arguments))
            } catch {
                outcome = .failure(error)
            }
            guard !isClosed else {
                throw FlowScriptError(kind: .closed, message: "the Lua VM was closed while \(request.name) was running")
            }
            switch outcome {
            case .success(let values):
                let base = lua_gettop(thread)
                writer.reserve(values.count + 1)
                writer.push(true)
                do {
                    for value in values { try writer.push(value) }
                    argumentCount = Int32(values.count + 1)
                } catch {
                    lua_settop(thread, base)
                    resumeWithError(error, from: request.name, thread: thread, writer: writer)
                    argumentCount = 2
                }
            case .failure(let error):
                resumeWithError(error, from: request.name, thread: thread, writer: writer)
                argumentCount = 2
            }
        }
    }

    /// Pushes `false, message` for the continuation to raise `error` in the script.
    private func resumeWithError(_ error: any Error, from name: String? = nil, thread: OpaquePointer, writer: LuaStackWriter) {
        writer.reserve(2)
        writer.push(false)
        _ = raise(error, from: name, on: thread)
    }

    /// The error of a coroutine that died: its location is read from the dead coroutine's stack.
    private func coroutineError(status: Int32, thread: OpaquePointer, function: LuaFunctionRef) -> FlowScriptError {
        let main = handle.main
        let top = lua_gettop(main)
        defer { lua_settop(main, top) }
        let kinded = clua_top_is_kinded(thread) != 0
        clua_record_thread_location(thread)
        let writer = LuaStackWriter(state: main, owner: referenceOwner)
        writer.reserve(3)
        lua_xmove(thread, main, 1)
        if status == LUA_ERRRUN { clua_describe_top(main) }
        return makeError(status: status, state: main, kinded: kinded, function: function)
    }
}
