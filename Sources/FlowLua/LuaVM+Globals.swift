import CLua

extension LuaVM {
    /// Sets the global or nested field at `path` (`"facts"`, `"flow.style"`) to `value`.
    ///
    /// Raw sets: no metamethod runs. Intermediate tables are created; a global created after
    /// `lockGlobals()` is declared.
    package func setGlobal(_ path: String, _ value: LuaValue) throws(FlowScriptError) {
        try assign(path) { writer throws(FlowScriptError) in try writer.push(value) }
    }

    /// The value of the global or nested field at `path` (`.nil` when any part is missing).
    func global(_ path: String) throws(FlowScriptError) -> LuaValue {
        try fromGlobals(path, slots: 5) { stack, parts throws(FlowScriptError) in
            for part in parts {
                guard LuaStackReader.type(stack.state, -1) == .table else { return .nil }
                stack.push(part)
                if stack.replaceKeyByField(of: -2) == .nil, clua_frozen_backing(stack.state, -2) != 0 {
                    // A frozen table's fields (and the frozen globals) live in its backing.
                    stack.push(part)
                    _ = stack.replaceKeyByField(of: -2)
                    clua_remove(stack.state, -2)
                    clua_remove(stack.state, -2)
                }
                clua_remove(stack.state, -2)
            }
            var decoder = LuaValueDecoder(state: stack.state, vm: self)
            return try decoder.decode(at: -1)
        }
    }

    /// Records global declarations until `lockGlobals()`: assigning to a new global declares
    /// it, even when the value is `nil` (a rules file's `helper = nil`, set later, stays usable).
    package func recordGlobalDeclarations() throws(FlowScriptError) {
        try onMainStack { stack throws(FlowScriptError) in
            guard clua_declaring_globals(stack.state) == LUA_OK else {
                throw makeError(status: LUA_ERRMEM, state: stack.state, function: nil)
            }
        }
    }

    /// Locks the global table: from now on, reading or assigning a global that does not exist
    /// yet is an `undeclaredGlobal` error naming it.
    ///
    /// Every name present now is declared (assigning `nil` to it later keeps it declared).
    /// `rawget(_G, name)` still reads freely (a way to test for a global); `rawset(_G, ...)`
    /// follows the same rule as an assignment; `setmetatable(_G, ...)` is refused.
    package func lockGlobals() throws(FlowScriptError) {
        try onMainStack { stack throws(FlowScriptError) in
            guard clua_lock_globals(stack.state) == LUA_OK else {
                throw makeError(status: LUA_ERRMEM, state: stack.state, function: nil)
            }
        }
        globalsLocked = true
    }

    /// Makes `path` a global (or field) holding a read-only view of `contents`.
    ///
    /// Scripts read it like a table (`pairs`, `#`, `ipairs` work); assigning to it, or `rawset`
    /// on it, raises `readOnly` ("facts is read-only"). Nested tables are read-only too.
    /// When `onMissingKey` is given, reading a key `contents` lacks calls it with the key: it
    /// returns the value read (`nil`: none) or the error to raise; `pairs` calls it with `nil`
    /// (every key is read), and loops over the table it returns, if a table (over `contents`
    /// otherwise). `instead` ends the message of an
    /// assignment with what to do instead ("facts is read-only (cannot assign 'x'): " + instead).
    package func installReadOnlyTable(
        at path: String, contents: LuaTable, onMissingKey: (@MainActor (String?) -> Result<LuaValue?, FlowScriptError>)? = nil,
        instead: String? = nil
    ) throws(FlowScriptError) {
        try installReadOnlyTable(at: path, contents: contents, instead: instead) { stack throws(FlowScriptError) in
            guard let onMissingKey else { return stack.pushNil() }
            pushHostFunction(named: "\(path) (missing key)", { [unowned self] arguments, results in
                let key: String?
                switch arguments.type(at: 2) {
                case .string: key = try arguments.string(at: 2)
                case .nil: key = nil
                default: return 0
                }
                guard let value = try onMissingKey(key).get() else { return 0 }
                switch (key, value) {
                case (let key?, .table):
                    try self.pushReadOnlyValue(value, name: "\(path).\(key)", writer: results)
                case (.some, _):
                    // A scalar needs no read-only name (built for each read, it cost as much as the read).
                    try results.push(value)
                case (nil, .table(let contents)):
                    // What `pairs` loops over: a plain table, its nested tables read-only.
                    try self.pushReadOnlyBacking(contents, name: path, writer: results)
                case (nil, _):
                    return 0
                }
                return 1
            }, on: stack)
        }
    }

    /// Makes `path` a global holding a read-only view of `contents` whose missing keys are read
    /// by a Lua function: reading a key `contents` lacks returns `function(path, key)` (`pairs`
    /// calls it with a nil key first), so the function computes what the table holds.
    package func installReadOnlyTable(
        at path: String, contents: LuaTable, missingKeyFunction function: LuaFunctionRef, instead: String? = nil
    ) throws(FlowScriptError) {
        try installReadOnlyTable(at: path, contents: contents, instead: instead) { stack throws(FlowScriptError) in
            try stack.push(function)
        }
    }

    /// Stores at `path` the read-only proxy of a new backing table holding `contents` (anchored
    /// in the registry for `replaceReadOnlyContents`), whose missing-key handler
    /// `pushMissingKeyHandler` pushes (`nil`: none).
    private func installReadOnlyTable(
        at path: String, contents: LuaTable, instead: String?,
        pushMissingKeyHandler: (LuaStackWriter) throws(FlowScriptError) -> Void
    ) throws(FlowScriptError) {
        try onMainStack { stack throws(FlowScriptError) in
            let proxy = stack.height + 1
            try pushReadOnlyBacking(contents, name: path, writer: stack)
            stack.pushCopy(of: -1)
            if let old = readOnlyBackings.updateValue(stack.anchor(), forKey: path) { stack.releaseAnchor(old) }
            stack.push(path)
            try pushMissingKeyHandler(stack)
            stack.push(instead)
            guard clua_make_readonly(stack.state) == LUA_OK else {
                throw makeError(status: LUA_ERRMEM, state: stack.state, function: nil)
            }
            try assign(path) { writer in
                writer.reserve(1)
                writer.pushCopy(of: proxy)
            }
        }
    }

    /// Replaces the contents of a read-only table made by `installReadOnlyTable(at:contents:)`
    /// (scripts holding it see the new contents).
    package func replaceReadOnlyContents(at path: String, with contents: LuaTable) throws(FlowScriptError) {
        _ = try openState()
        guard let backing = readOnlyBackings[path] else {
            throw FlowScriptError(kind: .typeError, message: "no read-only table is installed at '\(path)'")
        }
        try onMainStack { stack throws(FlowScriptError) in
            stack.reserve(4)
            stack.pushAnchored(backing)
            let table = stack.height
            stack.clearTable(at: table)
            try fillReadOnlyBacking(table, with: contents, name: path, writer: stack)
        }
    }

    /// Pushes a plain table holding `contents`, nested tables replaced by read-only proxies.
    private func pushReadOnlyBacking(_ contents: LuaTable, name: String, writer: LuaStackWriter) throws(FlowScriptError) {
        writer.reserve(1)
        let table = writer.pushNewTable(arrayCount: contents.array.count, fieldCount: contents.fields.count)
        try fillReadOnlyBacking(table, with: contents, name: name, writer: writer)
    }

    private func fillReadOnlyBacking(
        _ table: Int32, with contents: LuaTable, name: String, writer: LuaStackWriter
    ) throws(FlowScriptError) {
        for (offset, value) in contents.array.enumerated() {
            try pushReadOnlyValue(value, name: "\(name)[\(offset + 1)]", writer: writer)
            writer.storeElement(in: table, at: offset + 1)
        }
        for (key, value) in contents.fields {
            let childName: String
            switch key {
            case .string(let field): writer.push(field); childName = "\(name).\(field)"
            case .integer(let index): writer.push(index); childName = "\(name)[\(index)]"
            }
            try pushReadOnlyValue(value, name: childName, writer: writer)
            writer.storeField(in: table)
        }
    }

    private func pushReadOnlyValue(_ value: LuaValue, name: String, writer: LuaStackWriter) throws(FlowScriptError) {
        guard case .table(let nested) = value else {
            try writer.push(value)
            return
        }
        try pushReadOnlyBacking(nested, name: name, writer: writer)
        writer.reserve(3)
        writer.pushReserved(name)
        writer.pushNilReserved()
        writer.pushNilReserved()
        guard clua_make_readonly(writer.state) == LUA_OK else {
            throw makeError(status: LUA_ERRMEM, state: writer.state, function: nil)
        }
    }

    /// Stores at `path` one of the C functions FlowStack gives its preludes and scripts.
    package func installNativeFunction(_ function: LuaNativeFunction, at path: String) throws(FlowScriptError) {
        try assign(path) { writer in
            writer.reserve(1)
            function.push(writer.state)
        }
    }

    /// The memory a decide function made by `decider` reads its scalar arguments from (see
    /// `LuaDecisionArguments`), or `nil` when `function` is not one.
    func decisionArgumentsPointer(of function: LuaFunctionRef) -> UnsafeMutablePointer<clua_decision>? {
        guard !isClosed, function.owner === referenceOwner else { return nil }
        let stack = LuaStackWriter(state: handle.main, owner: referenceOwner)
        let top = stack.height
        defer { stack.restore(height: top) }
        stack.reserve(2)
        stack.pushAnchored(function.reference)
        return clua_decision_args(stack.state)
    }

    /// Tells the rules prelude that the next call runs style rules: until a decision starts, the
    /// running rule (for errors that lost their location) is the style rule it last started.
    package func noteStyleRulesRunning() {
        guard !isClosed else { return }
        clua_ctx_note_style_rules(handle.context)
    }

    /// Stores the value `push` leaves on the stack at `path`, creating intermediate tables.
    func assign(_ path: String, push: (LuaStackWriter) throws(FlowScriptError) -> Void) throws(FlowScriptError) {
        try fromGlobals(path, slots: 3) { stack, parts throws(FlowScriptError) in
            for (position, part) in parts.dropLast().enumerated() {
                Self.enterFrozen(stack)
                stack.push(part)
                let type = stack.replaceKeyByField(of: -2)
                if type == .nil {
                    stack.pop()
                    stack.pushNewTable(fieldCount: 4)
                    stack.push(part)
                    stack.pushCopy(of: -2)
                    stack.storeField(in: -4)
                    if position == 0 { declareGlobal(part) }
                } else if type != .table {
                    let prefix = parts[...position].joined(separator: ".")
                    throw FlowScriptError(
                        kind: .typeError, message: "cannot set '\(path)': '\(prefix)' is a \(type.name), not a table")
                }
                clua_remove(stack.state, -2)
            }
            Self.enterFrozen(stack)
            stack.push(parts[parts.count - 1])
            try push(stack)
            stack.storeField(in: -3)
            if parts.count == 1 { declareGlobal(parts[0]) }
        }
    }

    /// Runs `body` with the global table on top of the main stack (`slots` free above it) and
    /// the parts of `path`; the stack is as it was afterwards.
    private func fromGlobals<Value>(
        _ path: String, slots: Int, _ body: (LuaStackWriter, [String]) throws(FlowScriptError) -> Value
    ) throws(FlowScriptError) -> Value {
        let parts = try LuaVM.pathParts(path)
        return try onMainStack { stack throws(FlowScriptError) in
            stack.reserve(slots + 1)
            stack.pushGlobalTable()
            return try body(stack, parts)
        }
    }

    /// Replaces the table on top by its backing when it is frozen (what FlowStack provides to
    /// rules: `flow`, `host`, the libraries, and the global table's frozen part): Swift reads and
    /// writes them there, scripts only read them (see `clua_guard.c`). Needs one free slot.
    static func enterFrozen(_ stack: LuaStackWriter) {
        if clua_frozen_backing(stack.state, -1) != 0 { clua_remove(stack.state, -2) }
    }

    /// Declares `name` in the locked global table (no effect before `lockGlobals()`).
    private func declareGlobal(_ name: String) {
        guard globalsLocked else { return }
        let stack = LuaStackWriter(state: handle.main, owner: referenceOwner)
        stack.push(name)
        if clua_declare_global(stack.state) != LUA_OK { stack.pop() }
    }

    /// The dot-separated parts of a global path.
    static func pathParts(_ path: String) throws(FlowScriptError) -> [String] {
        let parts = path.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard !parts.isEmpty, !parts.contains(where: \.isEmpty) else {
            throw FlowScriptError(kind: .typeError, message: "'\(path)' is not a valid global path (use names like 'flow.guard')")
        }
        return parts
    }
}

/// The C functions FlowStack gives its preludes and scripts, installed by
/// `LuaVM.installNativeFunction(_:at:)`.
package enum LuaNativeFunction {
    /// `deepEqual(a, b)`: compares two values deeply (raw, no metamethods; 1 == 1.0), for flow
    /// scripts' `to_equal` (see `clua_tables.c`).
    case deepEqual
    /// `decider(state)`: returns the rules prelude's `decide` bound to its state list (see
    /// `clua_decide.c`).
    case decider
    /// `freeze(t, name)`: makes a table read-only in place, at every depth (see `clua_guard.c`).
    case freeze
    /// `stackKit(kit)`: returns the rules prelude's `makeStacks`, which makes the lazy `stacks`
    /// argument of rules (see `clua_stacks.c`).
    case stackKit
    /// `sourceOf(fn)`: a Lua function's chunk name (as Lua shortened it, see `expandChunkName`)
    /// and first line, or `"?"` for a C function (see `clua_tables.c`).
    case sourceOf

    /// Pushes the function onto `state`'s stack (one slot, reserved by the caller).
    func push(_ state: OpaquePointer) {
        switch self {
        case .deepEqual: clua_pushdeepequal(state)
        case .decider: clua_pushdecider(state)
        case .freeze: clua_pushfreeze(state)
        case .stackKit: clua_pushstackkit(state)
        case .sourceOf: clua_pushsourceof(state)
        }
    }
}
