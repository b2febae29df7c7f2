import CLua

/// The arguments a host function receives.
package typealias LuaArguments = LuaStackReader
/// The results a call hands to its reader.
package typealias LuaResults = LuaStackReader

extension LuaVM {
    /// Calls `function` in protected mode under the instruction budget (the hot path).
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
        let stack = LuaStackWriter(state: state, owner: referenceOwner)
        let top = stack.height
        defer { stack.restore(height: top) }
        guard stack.hasRoom(for: 3) else {
            throw FlowScriptError(kind: .runtime, message: "Lua stack overflow: calls nested too deeply")
        }
        var handler: Int32 = 1
        if nested {
            clua_pushmsgh(state)
            handler = top + 1
        }
        stack.pushAnchored(function.reference)
        let functionIndex = stack.height
        try arguments(stack)
        let argumentCount = stack.height - functionIndex
        callDepth += 1
        let status = nested
            ? clua_call_nested(state, argumentCount, clua_multret(), handler)
            : clua_call(state, argumentCount, clua_multret(), handler)
        callDepth -= 1
        guard status == LUA_OK else {
            throw makeError(status: status, state: state, function: function)
        }
        let reader = LuaResults(
            state: state, base: functionIndex, count: Int(stack.height - functionIndex + 1), functionName: nil, vm: self)
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
        let stack = LuaStackWriter(state: state, owner: referenceOwner)
        let top = stack.height
        guard stack.hasRoom(for: 4) else {
            throw FlowScriptError(kind: .runtime, message: "Lua stack overflow: calls nested too deeply")
        }
        stack.pushAnchored(function.reference)
        arguments(stack)
        callDepth = 1
        let status = clua_decide_call(state, top)
        callDepth = 0
        if status == CLUA_DECIDED_ALLOW { return nil }
        defer { stack.restore(height: top) }
        guard status == LUA_OK else {
            throw makeError(status: status, state: state, function: function)
        }
        let reader = LuaResults(state: state, base: top + 1, count: Int(stack.height - top), functionName: nil, vm: self)
        return try results(reader)
    }

    /// Calls `function` with no arguments, ignoring its results.
    @inline(__always)
    package func call(_ function: LuaFunctionRef) throws(FlowScriptError) {
        try call(function, arguments: { _ in }, results: { _ in })
    }

    /// Calls `function` with `arguments` and returns its results converted to `LuaValue`s.
    package func call(_ function: LuaFunctionRef, _ arguments: [LuaValue]) throws(FlowScriptError) -> [LuaValue] {
        try call(
            function,
            arguments: { (writer: LuaStackWriter) throws(FlowScriptError) in
                try writer.reserveChecked(arguments.count)
                for argument in arguments { try writer.push(argument) }
            },
            results: { (results: LuaResults) throws(FlowScriptError) in try results.values() })
    }
}
