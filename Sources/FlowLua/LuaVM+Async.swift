import CLua

extension LuaVM {
    /// Calls `function` inside a new coroutine, so that asynchronous host functions can
    /// suspend it: each time one is called, this awaits its Swift body, then resumes the
    /// script with its results (or raises its error in the script).
    ///
    /// `arguments` pushes the arguments; `results` reads the final results. The instruction
    /// budget covers the whole call, across resumes. Synchronous calls may run while this one
    /// is suspended; asynchronous host functions are refused in them.
    ///
    /// - Throws: the script's error, or `closed` when the VM closes while the call is suspended.
    package func callAsync<R>(
        _ function: LuaFunctionRef,
        arguments: (LuaStackWriter) throws(FlowScriptError) -> Void,
        results: (LuaResults) throws(FlowScriptError) -> R
    ) async throws(FlowScriptError) -> R {
        let main = try openState()
        guard function.owner === referenceOwner else {
            throw FlowScriptError(kind: .typeError, message: "a Lua function from another Lua VM cannot be called here")
        }
        let (thread, threadReference) = newCallThread(main)
        defer {
            if !isClosed { LuaStackWriter(state: handle.main, owner: referenceOwner).releaseAnchor(threadReference) }
        }
        let writer = LuaStackWriter(state: thread, owner: referenceOwner)
        try writer.push(function)
        try arguments(writer)
        var argumentCount = writer.height - 1
        var instructionsUsed: Int64 = 0
        while true {
            let request: AsyncHostRequest
            switch try resume(
                thread, argumentCount: argumentCount, instructionsUsed: &instructionsUsed, function: function,
                results: results)
            {
            case .finished(let value): return value
            case .suspended(let pending): request = pending
            }
            let outcome: Result<[LuaValue], any Error>
            do {
                outcome = .success(try await request.body(request.arguments))
            } catch {
                outcome = .failure(error)
            }
            guard !isClosed else {
                throw FlowScriptError(kind: .closed, message: "the Lua VM was closed while \(request.name) was running")
            }
            argumentCount = pushResumeValues(outcome, request: request, thread: thread)
        }
    }

    /// Calls `function` with `arguments` in a new coroutine (see `callAsync(_:arguments:results:)`)
    /// and returns its results converted to `LuaValue`s.
    package func callAsync(_ function: LuaFunctionRef, _ arguments: [LuaValue] = []) async throws(FlowScriptError) -> [LuaValue] {
        try await callAsync(
            function,
            arguments: { (writer: LuaStackWriter) throws(FlowScriptError) in
                try writer.reserveChecked(arguments.count)
                for argument in arguments { try writer.push(argument) }
            },
            results: { (results: LuaResults) throws(FlowScriptError) in try results.values() })
    }

    /// What one resume of an asynchronous call ended with.
    private enum ResumeStep<R> {
        /// The function returned; its results were read.
        case finished(R)
        /// An asynchronous host function suspended the coroutine.
        case suspended(AsyncHostRequest)
    }

    /// A new thread anchored in the registry, with the counting hook.
    private func newCallThread(_ main: OpaquePointer) -> (OpaquePointer, Int32) {
        let stack = LuaStackWriter(state: main, owner: referenceOwner)
        stack.reserve(2)
        let thread = pushNewThread(stack)
        let reference = stack.anchor()
        clua_armhook(thread)
        // Scripts cannot resume or close it (coroutine.running() hands it out).
        clua_mark_host_thread(main, thread)
        return (thread, reference)
    }

    /// Resumes `thread` once under the call's instruction count; reads the results when it returns.
    private func resume<R>(
        _ thread: OpaquePointer, argumentCount: Int32, instructionsUsed: inout Int64, function: LuaFunctionRef,
        results: (LuaResults) throws(FlowScriptError) -> R
    ) throws(FlowScriptError) -> ResumeStep<R> {
        busy += 1
        defer { finishOperation() }
        pendingAsyncRequest = nil
        var resultCount: Int32 = 0
        callDepth += 1
        let status = clua_resume(thread, handle.main, argumentCount, &resultCount, &instructionsUsed)
        callDepth -= 1

        let stack = LuaStackWriter(state: thread, owner: referenceOwner)
        if status == LUA_OK {
            let reader = LuaResults(
                state: thread, base: stack.height - resultCount + 1, count: Int(resultCount), functionName: nil, vm: self)
            return .finished(try results(reader))
        }
        guard status == LUA_YIELD else {
            throw coroutineError(status: status, thread: thread, function: function)
        }
        stack.pop(resultCount)
        guard let request = pendingAsyncRequest else {
            clua_record_thread_location(thread)
            var error = FlowScriptError(
                kind: .runtime,
                message: "coroutine.yield was called outside a coroutine the script created (a rule cannot yield by itself)")
            let outcome = clua_ctx_outcome(handle.context)
            if outcome.err_line > 0 {
                error.file = expandChunkName(String(cString: outcome.err_src))
                error.line = Int(outcome.err_line)
            }
            throw error
        }
        pendingAsyncRequest = nil
        return .suspended(request)
    }

    /// Pushes `true, results...` or `false, error` onto `thread`; returns how many values.
    private func pushResumeValues(_ outcome: Result<[LuaValue], any Error>, request: AsyncHostRequest, thread: OpaquePointer) -> Int32 {
        let writer = LuaStackWriter(state: thread, owner: referenceOwner)
        let base = writer.height
        var failure: any Error
        switch outcome {
        case .success(let values):
            do {
                try writer.reserveChecked(values.count + 1)
                writer.push(true)
                for value in values { try writer.push(value) }
                return Int32(values.count + 1)
            } catch {
                writer.restore(height: base)
                failure = error
            }
        case .failure(let error):
            failure = error
        }
        writer.reserve(2)
        writer.push(false)
        _ = raise(failure, from: request.name, on: thread)
        return 2
    }

    /// The error of a coroutine that died: its location is read from the dead coroutine's stack.
    private func coroutineError(status: Int32, thread: OpaquePointer, function: LuaFunctionRef) -> FlowScriptError {
        let main = LuaStackWriter(state: handle.main, owner: referenceOwner)
        let top = main.height
        defer { main.restore(height: top) }
        let kinded = clua_top_is_kinded(thread) != 0
        clua_record_thread_location(thread)
        main.reserve(3)
        main.moveTop(1, from: thread)
        if status == LUA_ERRRUN { clua_describe_top(main.state) }
        return makeError(status: status, state: main.state, kinded: kinded, located: true, function: function)
    }
}
