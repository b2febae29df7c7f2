import CLua

/// One sandboxed Lua 5.4 state: the only type of FlowScript that talks to Lua's C API.
///
/// Everything else (the rules engine, the flow runner) goes through this type's Swift API:
/// loading text chunks, protected calls, host functions, values, read-only tables.
///
/// The C boundary rules, which every file of this module (`Sources/FlowLua`) follows:
/// - Lua's C API (`lua_*`, `luaL_*`) is called only in this file, `LuaStackReader.swift` and
///   `LuaStackWriter.swift`; the other files speak in their named operations (`onMainStack`,
///   `pushAnchored`, `anchor`, `storeField`, ...) and in the `clua_` functions of `CLua.h`.
/// - `lua_error` and `lua_yield` never run in a Swift frame (a `longjmp` across Swift frames is
///   undefined behaviour). A Swift host function returns a marker (`CLUA_RESULT_ERROR` with the
///   message pushed, or `CLUA_RESULT_YIELD`) and the C trampoline in `CLua/src/shim/clua_calls.c` raises or
///   yields. The instruction hook, the message handler, the sandbox wrappers and the locked-global
///   and read-only metamethods are C too.
/// - Swift calls only API functions that cannot raise: pushes, raw gets and sets on tables
///   without metatables, type queries, `lua_next`. Lua code runs only inside `clua_call`
///   (`lua_pcall`), `clua_resume` (`lua_resume`) or the shim's protected helpers.
/// - The memory budget is enforced only while Lua code runs; the trampoline lifts it while
///   Swift runs, so a push from Swift fails only if the process itself is out of memory (Lua's
///   panic handler then aborts, as Swift does on allocation failure).
/// - Every thread that runs Lua code has the counting hook (`lua_newthread` copies it; the
///   async call thread gets it explicitly). Once a call's budget is spent, the hook fires at
///   every instruction, so `pcall` in a script cannot swallow the budget error; `xpcall`'s
///   handler is not run any more (Lua would run it with hooks off), and a call that caught the
///   error where no instruction of its own follows (`return pcall(f)`) still fails. The same
///   holds once the memory budget refuses Lua's retry after a full collection (`clua_mem_stop`):
///   the memory error is raised again at every instruction.
/// - Work done in C is charged to the instruction budget too (one unit is about one VM
///   instruction of time): pattern matching by a bound computed before the matcher runs
///   (`CLua/src/engine/clua_patterns.c`; a bound above the whole budget is refused as "pattern too
///   expensive"), table functions per element (`clua_tablelib.c`), other library functions by
///   their input (`clua_sandbox.c`), and every allocation while Lua runs (16 bytes = 1 unit), which
///   meters whatever builds large values (`..`, `string.rep`, `table.concat`, ...).
/// - A wall-clock time limit per call (beyond 2 µs per charged instruction; host functions and
///   suspensions excluded) backs the count up for work it cannot see, such as a loop comparing
///   megabyte strings; `print` emits at most 64 KiB per call.
/// - Nothing a rule does reaches another rule (`CLua/src/engine/clua_guard.c`): what FlowStack provides
///   (`flow`, `host`, `facts`, the libraries) is frozen when the rules start loading, the
///   decision's inputs are read-only at every depth, `coroutine.resume`/`close` refuse the
///   threads FlowScript runs, and `load` keeps an explicit environment. Text kept from scripts
///   is cut to 4 KiB (`FlowScriptText`); see the sandbox section of `docs/lua-surface.md`.
/// - The main thread's stack slot 1 permanently holds the message handler (`clua_msgh`), so
///   a call pushes only the function and its arguments.
///
/// The VM is `@MainActor`, like the router: host functions run on the main actor, and an
/// asynchronous call suspends on it between resumes.
@MainActor
package final class LuaVM {
    /// Budgets of a VM.
    package struct Configuration: Sendable {
        /// Bytes the VM may hold (default 32 MiB).
        package var memoryBudget: Int
        /// VM instructions one call may run (default 1,000,000).
        package var instructionBudget: Int
        /// Wall-clock time one call may run beyond 2 µs per instruction it was charged, host
        /// functions excluded (default 1 second; nil: none). A backstop for work in C that the
        /// instruction count cannot see: counted work takes a few nanoseconds per instruction,
        /// so only uncounted work reaches it.
        package var timeLimit: Duration?

        /// Creates a configuration.
        package init(memoryBudget: Int = 32 << 20, instructionBudget: Int = 1_000_000, timeLimit: Duration? = .seconds(1)) {
            self.memoryBudget = memoryBudget
            self.instructionBudget = instructionBudget
            self.timeLimit = timeLimit
        }
    }

    /// The state and its C context.
    let handle: LuaStateHandle
    /// Receives registry references released by `LuaFunctionRef`s.
    let referenceOwner = LuaReferenceOwner()
    /// Host functions by id - 1 (id 0 is the print sink).
    var hostFunctions: [HostFunction] = []
    /// Where `print` output goes (dropped when nil).
    package var printSink: (@MainActor (String) -> Void)?
    /// Chunk names loaded so far (to restore names Lua shortened in error messages).
    var chunkNames: Set<String> = []
    /// Backing tables of read-only globals, by global name.
    var readOnlyBackings: [String: Int32] = [:]
    /// Calls in progress (a host function can call back into Lua).
    var callDepth = 0
    /// The thread the running host function was called on.
    var currentThread: OpaquePointer?
    /// The request of an asynchronous host function that just asked to yield.
    var pendingAsyncRequest: AsyncHostRequest?
    /// Whether `lockGlobals()` ran.
    var globalsLocked = false
    /// Operations running Lua code right now (a close waits for them to finish).
    var busy = 0
    /// Whether `close()` was called while an operation was running.
    var closeRequested = false

    /// Creates a VM with the sandboxed standard library.
    ///
    /// - Throws: `FlowScriptError` of kind `memoryBudget` when the budget cannot hold a fresh VM.
    package init(configuration: Configuration = Configuration()) throws(FlowScriptError) {
        guard let handle = LuaStateHandle(
            memoryBudget: configuration.memoryBudget, instructionBudget: configuration.instructionBudget,
            timeLimit: configuration.timeLimit)
        else {
            throw FlowScriptError(kind: .memoryBudget, message: "out of memory while creating a Lua VM")
        }
        self.handle = handle
        let state = handle.main
        if clua_setup_sandbox(state) != LUA_OK {
            handle.close()
            throw FlowScriptError(
                kind: .memoryBudget,
                message: "the memory budget of \(LuaVM.formatBytes(configuration.memoryBudget)) is too small "
                    + "for a Lua VM; raise it")
        }
        clua_pushmsgh(state)
        clua_armhook(state)
        clua_ctx_set_host(handle.context, luaDispatch, Unmanaged.passUnretained(self).toOpaque())
    }

    /// Whether the VM was closed.
    package var isClosed: Bool { handle.isClosed }

    /// Closes the Lua state and releases every host function (and what their closures capture).
    ///
    /// Called from inside a call (a host function), the close happens when that call returns.
    package func close() {
        guard !handle.isClosed else { return }
        if busy > 0 {
            closeRequested = true
            return
        }
        handle.close()
        referenceOwner.markClosed()
        hostFunctions.removeAll()
        printSink = nil
        readOnlyBackings.removeAll()
        pendingAsyncRequest = nil
    }

    /// Ends an operation counted in `busy`; runs a close requested meanwhile.
    func finishOperation() {
        busy -= 1
        if busy == 0, closeRequested {
            closeRequested = false
            close()
        }
    }

    /// The main thread, or a `closed` error.
    func openState() throws(FlowScriptError) -> OpaquePointer {
        guard !handle.isClosed else {
            throw FlowScriptError(kind: .closed, message: "the Lua VM is closed")
        }
        return handle.main
    }

    /// VM instructions one call may run.
    package var instructionBudget: Int {
        get { isClosed ? 0 : Int(clua_ctx_instruction_budget(handle.context)) }
        set { if !isClosed { clua_ctx_set_instruction_budget(handle.context, Int64(newValue)) } }
    }

    /// Wall-clock time one call may run beyond 2 µs per instruction, host functions excluded
    /// (nil: no limit).
    package var timeLimit: Duration? {
        get {
            guard !isClosed, clua_ctx_time_limit(handle.context) > 0 else { return nil }
            return .nanoseconds(clua_ctx_time_limit(handle.context))
        }
        set { if !isClosed { LuaStateHandle.setTimeLimit(newValue, in: handle.context) } }
    }

    /// Bytes the VM may hold.
    package var memoryBudget: Int {
        get { isClosed ? 0 : clua_ctx_memory_limit(handle.context) }
        set { if !isClosed { clua_ctx_set_memory_limit(handle.context, max(newValue, 0)) } }
    }

    /// Bytes the VM holds now (its allocator's count).
    package var memoryInUse: Int { isClosed ? 0 : clua_ctx_memory_used(handle.context) }

    /// The most bytes the VM held at once.
    var peakMemory: Int { isClosed ? 0 : clua_ctx_memory_peak(handle.context) }

    /// Instructions the last (or current) call ran, as counted by the hook (to within 1,000).
    var instructionsUsed: Int { isClosed ? 0 : Int(clua_ctx_instructions_used(handle.context)) }

    /// `1.5 MiB`, `512 KiB`, `100 bytes`.
    static func formatBytes(_ bytes: Int) -> String {
        if bytes >= 1 << 20 {
            let mib = Double(bytes) / Double(1 << 20)
            return mib == mib.rounded() ? "\(Int(mib)) MiB" : "\((mib * 10).rounded() / 10) MiB"
        }
        if bytes >= 1 << 10 {
            let kib = Double(bytes) / Double(1 << 10)
            return kib == kib.rounded() ? "\(Int(kib)) KiB" : "\((kib * 10).rounded() / 10) KiB"
        }
        return "\(bytes) bytes"
    }
}

/// The C dispatcher every trampoline calls: finds the VM and runs the host function on the main actor.
private func luaDispatch(_ state: OpaquePointer?, _ owner: UnsafeMutableRawPointer?, _ id: lua_Integer) -> Int32 {
    guard let owner else { return 0 }
    nonisolated(unsafe) let state = state
    let vm = Unmanaged<LuaVM>.fromOpaque(owner).takeUnretainedValue()
    return assumingMainActor {
        guard let state else { return 0 }
        return vm.dispatch(state, Int(id))
    }
}

/// Runs main-actor code from the synchronous C callback of a host function.
///
/// Why the caller is the main actor: Lua code runs only inside a call a `LuaVM` method makes
/// (`call`, `run`, `load`, a coroutine's resume in `LuaVM+Async`), and `LuaVM` is `@MainActor`;
/// Lua runs that code synchronously on the calling thread, and calls a host function's
/// trampoline from within it, before the method returns. No `lua_State` of a VM is handed to
/// other code, so no other thread can reach a trampoline. (`LuaStateHandle`'s deinit may close
/// the state off the main actor, but closing runs no host function: the sandbox refuses `__gc`.)
///
/// Debug builds (the tests) check it on every host call (`MainActor.assumeIsolated` traps with
/// a message when it does not hold). Release builds skip the check: asking the runtime for the
/// current executor costs more than most host functions (on Linux, well over a thousand
/// instructions); the function type's isolation is removed with an `unsafeBitCast` instead.
@inline(__always)
private func assumingMainActor<T: Sendable>(_ body: @MainActor () -> T) -> T {
    #if DEBUG
    return MainActor.assumeIsolated(body)
    #else
    return withoutActuallyEscaping(body) { body in
        unsafeBitCast(body, to: (() -> T).self)()
    }
    #endif
}

// The VM's own uses of Lua's C API: with `LuaStackReader` and `LuaStackWriter` (the stack
// operations the other files speak in), the only Swift that calls `lua_*` or `luaL_*` itself.
extension LuaVM {
    /// The main thread's stack height (1 between calls: the message handler), for tests.
    var stackHeight: Int32 { isClosed ? 0 : lua_gettop(handle.main) }

    /// Calls `function` in protected mode under the instruction budget (the hot path, written
    /// with Lua's C API itself: a writer held across the call costs a retain and a release).
    ///
    /// `arguments` pushes the arguments; `results` reads the results while they are on the
    /// stack. Nothing here builds `LuaValue`s unless the closures do. A call made from inside a
    /// host function shares the budget of the call that is running.
    ///
    /// - Throws: the script's error as a `FlowScriptError`, or what `arguments`/`results` throw.
    @inline(__always)
    package func call<R>(
        _ function: LuaFunctionRef,
        arguments: (LuaStackWriter) throws(FlowScriptError) -> Void,
        results: (LuaResults) throws(FlowScriptError) -> R
    ) throws(FlowScriptError) -> R {
        let main = try openState()
        guard function.owner === referenceOwner else {
            throw FlowScriptError(kind: .typeError, message: "a Lua function from another Lua VM cannot be called here")
        }
        let nested = callDepth > 0
        let state = nested ? (currentThread ?? main) : main
        busy += 1
        defer { finishOperation() }  // runs after the stack is restored
        let top = lua_gettop(state)
        defer { lua_settop(state, top) }
        guard lua_checkstack(state, 3) != 0 else {
            throw FlowScriptError(kind: .runtime, message: "Lua stack overflow: calls nested too deeply")
        }
        var handler: Int32 = 1
        if nested {
            clua_pushmsgh(state)
            handler = top + 1
        }
        lua_rawgeti(state, clua_registryindex(), lua_Integer(function.reference))
        let functionIndex = lua_gettop(state)
        try arguments(LuaStackWriter(state: state, owner: referenceOwner))
        let argumentCount = lua_gettop(state) - functionIndex
        callDepth += 1
        let status = nested
            ? clua_call_nested(state, argumentCount, clua_multret(), handler)
            : clua_call(state, argumentCount, clua_multret(), handler)
        callDepth -= 1
        guard status == LUA_OK else {
            throw makeError(status: status, state: state, function: function)
        }
        let reader = LuaResults(
            state: state, base: functionIndex, count: Int(lua_gettop(state) - functionIndex + 1),
            functionName: nil, vm: self)
        return try results(reader)
    }

    /// Calls a rules decide function (see `clua_decide_call`): as `call(_:arguments:results:)`,
    /// but a decision that allowed returns `nil` without reading any result.
    @inline(__always)
    package func callDecision<R>(
        _ function: LuaFunctionRef,
        arguments: (LuaStackWriter) -> Void,
        results: (LuaResults) throws(FlowScriptError) -> R
    ) throws(FlowScriptError) -> R? {
        // A decision asked from inside a host function shares the running call's budget.
        guard callDepth == 0 else { return try call(function, arguments: arguments, results: results) }
        // A rule set's decide function is made by its own VM: checked in debug builds only.
        assert(function.owner === referenceOwner, "a decide function from another Lua VM")
        let state = try openState()
        busy += 1
        defer { finishOperation() }
        let top = lua_gettop(state)
        guard lua_checkstack(state, 4) != 0 else {
            throw FlowScriptError(kind: .runtime, message: "Lua stack overflow: calls nested too deeply")
        }
        lua_rawgeti(state, clua_registryindex(), lua_Integer(function.reference))
        arguments(LuaStackWriter(state: state, owner: referenceOwner))
        callDepth = 1
        let status = clua_decide_call(state, top)
        callDepth = 0
        if status == CLUA_DECIDED_ALLOW { return nil }
        defer { lua_settop(state, top) }
        guard status == LUA_OK else {
            throw makeError(status: status, state: state, function: function)
        }
        let reader = LuaResults(
            state: state, base: top + 1, count: Int(lua_gettop(state) - top), functionName: nil, vm: self)
        return try results(reader)
    }

    /// Runs `body` on the main thread's stack and puts the stack back to its height afterwards.
    ///
    /// - Throws: `closed` when the VM is closed, or what `body` throws.
    func onMainStack<Value>(_ body: (LuaStackWriter) throws(FlowScriptError) -> Value) throws(FlowScriptError) -> Value {
        let stack = LuaStackWriter(state: try openState(), owner: referenceOwner)
        let top = stack.height
        defer { stack.restore(height: top) }
        return try body(stack)
    }

    /// Pushes a new thread (coroutine) of this state onto `stack` (one slot, reserved by the
    /// caller); the thread, which lives as long as a reference to it does.
    func pushNewThread(_ stack: LuaStackWriter) -> OpaquePointer {
        guard let thread = lua_newthread(stack.state) else { preconditionFailure("lua_newthread returned NULL") }
        return thread
    }

    /// Whether the code running on `state` can yield to Swift now: not inside a metamethod, an
    /// iterator or a function the standard library calls.
    static func canYield(_ state: OpaquePointer) -> Bool { lua_isyieldable(state) != 0 }
}
