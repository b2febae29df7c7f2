import CLua

/// A synchronous host function: reads its arguments, pushes its results, returns their count.
package typealias LuaHostBody = @MainActor (LuaArguments, LuaStackWriter) throws -> Int
/// An asynchronous host function: receives its arguments and returns its results.
package typealias LuaAsyncHostBody = @MainActor ([LuaValue]) async throws -> [LuaValue]

/// A Swift function callable from Lua.
struct HostFunction {
    /// How the function runs.
    package enum Body {
        /// Runs during the call.
        case sync(LuaHostBody)
        /// Suspends the calling coroutine until Swift resumes it (async calls only).
        case async(LuaAsyncHostBody)
        /// Suspends like `async` where the caller can be suspended (an async call), and runs
        /// the synchronous body everywhere else.
        case adaptive(LuaHostBody, LuaAsyncHostBody)
    }

    /// The name scripts use (`host.camera`), for messages.
    package let name: String
    /// The body.
    package let body: Body
}

/// What an asynchronous host function asked for when it suspended its coroutine.
struct AsyncHostRequest {
    /// The function's name.
    package let name: String
    /// Its arguments.
    let arguments: [LuaValue]
    /// Its body, to await.
    package let body: LuaAsyncHostBody
}

extension LuaVM {
    /// Registers a synchronous host function at `path` (`"print"`, `"flow.guard"`, ...),
    /// creating the intermediate tables. Returns the function's id.
    ///
    /// The VM keeps `body` until it closes. A body that captures the VM strongly makes a cycle
    /// that only `close()` breaks: capture it weakly, or make sure the owner closes the VM.
    @discardableResult
    package func register(_ path: String, _ body: @escaping LuaHostBody) throws(FlowScriptError) -> Int {
        try registerFunction(HostFunction(name: path, body: .sync(body)), at: path)
    }

    /// Registers a synchronous host function that returns `LuaValue`s.
    package func register(_ path: String, returning body: @escaping @MainActor (LuaArguments) throws -> [LuaValue]) throws(FlowScriptError) {
        try register(path) { arguments, writer in
            let values = try body(arguments)
            try writer.reserveChecked(values.count)
            for value in values { try writer.push(value) }
            return values.count
        }
    }

    /// Registers an asynchronous host function at `path`: during `callAsync` it suspends the
    /// script until `body` returns; during a synchronous call it is an error.
    package func registerAsync(_ path: String, _ body: @escaping LuaAsyncHostBody) throws(FlowScriptError) {
        _ = try registerFunction(HostFunction(name: path, body: .async(body)), at: path)
    }

    /// Registers a host function at `path` that suspends the script where it can (during
    /// `callAsync`, like `registerAsync`) and runs `sync` everywhere else.
    package func registerAdaptive(_ path: String, sync: @escaping LuaHostBody, async: @escaping LuaAsyncHostBody) throws(FlowScriptError) {
        _ = try registerFunction(HostFunction(name: path, body: .adaptive(sync, async)), at: path)
    }

    /// Adds `function` to the table of host functions and stores its trampoline at `path`.
    private func registerFunction(_ function: HostFunction, at path: String) throws(FlowScriptError) -> Int {
        _ = try openState()
        hostFunctions.append(function)
        let id = hostFunctions.count
        do {
            try assign(path) { writer throws(FlowScriptError) in
                writer.reserve(2)
                clua_pushhostfunction(writer.state, Int64(id))
            }
        } catch {
            hostFunctions.removeLast()
            throw error
        }
        return id
    }

    /// Pushes a new Lua function that runs `body` (not stored anywhere by itself).
    func pushHostFunction(named name: String, _ body: @escaping LuaHostBody, on writer: LuaStackWriter) {
        hostFunctions.append(HostFunction(name: name, body: .sync(body)))
        writer.reserve(2)
        clua_pushhostfunction(writer.state, Int64(hostFunctions.count))
    }

    /// Runs host function `id` for the trampoline; returns a result count or a marker.
    func dispatch(_ state: OpaquePointer, _ id: Int) -> Int32 {
        let savedThread = currentThread
        currentThread = state
        defer { currentThread = savedThread }
        if id == Int(CLUA_PRINT_FID) {
            printSink?(LuaStackReader.string(state, -1))
            return 0
        }
        guard id >= 1, id <= hostFunctions.count else {
            return raise(FlowScriptError(kind: .host, message: "unknown host function #\(id)"), on: state)
        }
        let function = hostFunctions[id - 1]
        let top = LuaStackWriter(state: state, owner: referenceOwner).height
        // Converting arguments costs memory outside the VM's budget: a script's count is bounded.
        guard top <= 10_000 else {
            return raise(FlowScriptError(
                kind: .host, message: "\(function.name) was called with \(top) arguments; at most 10,000 are accepted (pass a table)"),
                on: state)
        }
        let arguments = LuaArguments(
            state: state, base: 1, count: Int(top), functionName: function.name, vm: self)
        switch function.body {
        case .sync(let body):
            return runSync(body, function: function, arguments: arguments, top: top, state: state)
        case .async(let body):
            if let refusal = asyncRefusal(function.name, state: state) {
                return raise(refusal, on: state)
            }
            return suspend(body, function: function, arguments: arguments, state: state)
        case .adaptive(let sync, let async):
            if asyncRefusal(function.name, state: state) == nil {
                return suspend(async, function: function, arguments: arguments, state: state)
            }
            return runSync(sync, function: function, arguments: arguments, top: top, state: state)
        }
    }

    /// Runs a synchronous body; returns its result count or the error marker.
    private func runSync(
        _ body: LuaHostBody, function: HostFunction, arguments: LuaArguments, top: Int32, state: OpaquePointer
    ) -> Int32 {
        let results = LuaStackWriter(state: state, owner: referenceOwner)
        do {
            let count = try body(arguments, results)
            let pushed = Int(results.height - top)
            guard count >= 0, count <= pushed else {
                results.restore(height: top)
                return raise(
                    FlowScriptError(kind: .host, message: "\(function.name) returned \(count) results but pushed \(pushed)"),
                    on: state)
            }
            return Int32(count)
        } catch {
            results.restore(height: top)
            return raise(error, from: function.name, on: state)
        }
    }

    /// Records an asynchronous request and returns the yield marker.
    private func suspend(
        _ body: @escaping LuaAsyncHostBody, function: HostFunction, arguments: LuaArguments, state: OpaquePointer
    ) -> Int32 {
        do {
            pendingAsyncRequest = AsyncHostRequest(name: function.name, arguments: try arguments.values(), body: body)
            return Int32(CLUA_RESULT_YIELD)
        } catch {
            return raise(error, from: function.name, on: state)
        }
    }

    /// Why an asynchronous host function cannot suspend `state` now, or nil when it can.
    private func asyncRefusal(_ name: String, state: OpaquePointer) -> FlowScriptError? {
        guard let asyncThread = clua_ctx_async_thread(handle.context) else {
            return FlowScriptError(
                kind: .asyncHostInSyncCall,
                message: "\(name) is asynchronous: call it from an async navigation (pushAsync, sheetAsync, ...)")
        }
        if asyncThread != state {
            return FlowScriptError(
                kind: .host, message: "\(name) is asynchronous and cannot be called inside a coroutine the script created")
        }
        if !LuaVM.canYield(state) {
            return FlowScriptError(
                kind: .host,
                message: "\(name) is asynchronous and cannot be called here: not from a metamethod, an iterator, "
                    + "or a function called by the standard library (table.sort, string.gsub)")
        }
        return nil
    }

    /// Leaves `error`'s message on the stack for the trampoline to raise; returns the marker.
    func raise(_ error: any Error, from name: String? = nil, on state: OpaquePointer) -> Int32 {
        let scriptError: FlowScriptError
        if let error = error as? FlowScriptError {
            scriptError = error
        } else {
            let prefix = name.map { "\($0): " } ?? ""
            scriptError = FlowScriptError(kind: .host, message: prefix + String(describing: error))
        }
        pushPendingError(scriptError, on: state)
        return Int32(CLUA_RESULT_ERROR)
    }

    /// Pushes `error`'s text and records its kind for `clua_raise_pending`.
    ///
    /// An error located in one of this VM's chunks (a nested call back into Lua) keeps its
    /// position; any other (a host function's, or one located in another VM, such as a flow
    /// test's host stub) gets the position of the Lua code that called the host function in
    /// front, its own location kept in the message: `rules/a.lua:3: flows/b.lua:9: message`.
    func pushPendingError(_ error: FlowScriptError, on state: OpaquePointer) {
        LuaStackWriter(state: state, owner: referenceOwner).push(error.file == nil ? error.message : error.description)
        var kind = error.kind.code
        if let file = error.file, chunkNames.contains(file) { kind |= Int32(CLUA_KIND_FLAG_POSITIONED) }
        clua_ctx_set_pending_kind(handle.context, kind)
    }
}
