import CLua

extension FlowScriptError.Kind {
    /// The code the C side and the trampoline use for this kind.
    package var code: Int32 {
        switch self {
        case .runtime: return Int32(CLUA_KIND_RUNTIME)
        case .undeclaredGlobal: return Int32(CLUA_KIND_UNDECLARED_GLOBAL)
        case .readOnly: return Int32(CLUA_KIND_READ_ONLY)
        case .sandbox: return Int32(CLUA_KIND_SANDBOX)
        case .typeError: return Int32(CLUA_KIND_TYPE)
        case .host: return Int32(CLUA_KIND_HOST)
        case .asyncHostInSyncCall: return Int32(CLUA_KIND_ASYNC_IN_SYNC)
        case .badReturn: return Int32(CLUA_KIND_BAD_RETURN)
        case .syntax: return 9
        case .instructionBudget: return 10
        case .memoryBudget: return 11
        case .closed: return 12
        case .timeLimit: return 13
        }
    }

    /// The kind of a code; `.runtime` for unknown codes.
    package init(code: Int32) {
        self = FlowScriptError.Kind.allCases.first { $0.code == code } ?? .runtime
    }
}

extension LuaVM {
    /// Turns a failed status (`LUA_ERRRUN`, `LUA_ERRMEM`, `LUA_ERRSYNTAX`, `LUA_ERRERR`) and the
    /// error on top of `state` into a typed error. For runtime errors the message handler (or
    /// `recordThreadLocation`) has stored the innermost Lua location in the context.
    ///
    /// - Parameters:
    ///   - kinded: whether the error object is the last one raised with a kind.
    ///   - located: whether the context's location is valid whatever the status (read from a
    ///     dead coroutine's stack rather than by the message handler, which memory errors skip).
    ///   - function: the function that was called, to locate errors that carry no position.
    func makeError(
        status: Int32, state: OpaquePointer, kinded: Bool = true, located: Bool = false, function: LuaFunctionRef?
    ) -> FlowScriptError {
        let context = clua_ctx_outcome(handle.context)
        let text = LuaStackReader.stringIfString(state, -1) ?? "(error object is not a string)"
        var kind: FlowScriptError.Kind
        if context.time_exhausted != 0 {
            kind = .timeLimit
        } else if context.instr_exhausted != 0 {
            kind = .instructionBudget
        } else if status == LUA_ERRMEM || (context.mem_exceeded != 0 && text.hasSuffix("not enough memory")) {
            kind = .memoryBudget
        } else if status == LUA_ERRSYNTAX {
            kind = .syntax
        } else if status == LUA_ERRRUN, kinded, context.kinded_kind != CLUA_KIND_NONE {
            kind = FlowScriptError.Kind(code: context.kinded_kind)
        } else {
            kind = .runtime
        }

        var error = FlowScriptError(kind: kind, message: text)
        if let (file, line, message) = FlowScriptError.splitLocation(text) {
            error.file = expandChunkName(file)
            error.line = line
            error.message = message
        } else if status == LUA_ERRRUN || status == LUA_ERRMEM || located, context.err_line > 0 {
            error.file = expandChunkName(String(cString: context.err_src))
            error.line = Int(context.err_line)
        } else if let function, let location = definitionLocation(of: function) {
            error.file = location.file
            error.line = location.line
        }

        // Text kept from a script is bounded; a location the message repeats is said once
        // (`rules/x.lua:40: rules/x.lua:40: ...` from errors re-raised with their position).
        if let file = error.file, let line = error.line {
            let prefix = "\(file):\(line): "
            while error.message.hasPrefix(prefix) { error.message.removeFirst(prefix.count) }
        }
        error.message = FlowScriptText.bounded(error.message)

        // A budget or time error names where the limit first ran out (coroutine.wrap and
        // rethrowing handlers put other positions in front of the message; a memory error
        // raised again after a swallowed one names the refused allocation).
        if kind == .instructionBudget || kind == .timeLimit || (kind == .memoryBudget && context.mem_stopped != 0),
           let first = FlowScriptError.splitLocation(String(cString: context.stop_message)) {
            error.file = expandChunkName(first.file)
            error.line = first.line
        }

        switch kind {
        case .instructionBudget:
            error.message = "instruction budget exceeded (\(instructionBudget) instructions): "
                + "look for an endless loop, or raise the instruction budget"
        case .timeLimit:
            error.message = "time limit exceeded: the call ran for more than \(clua_ctx_time_limit(handle.context) / 1_000_000) ms "
                + "beyond what its instructions account for (work the instruction budget does not count, such as "
                + "comparing or hashing very long strings in a loop): work on smaller values (the time limit is fixed)"
        case .memoryBudget:
            var message = "memory budget exceeded: the VM needed more than its \(LuaVM.formatBytes(memoryBudget)) budget"
            if context.mem_refused > 0 {
                message += " (an allocation of \(LuaVM.formatBytes(context.mem_refused)) was refused)"
            }
            error.message = message + "; build smaller values, or raise the memory budget"
        default:
            if status == LUA_ERRERR {
                error.message = "error while handling an error: \(error.message)"
            }
        }
        return error
    }
}
