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
        try fromGlobals(path, slots: 5) { state, parts, writer throws(FlowScriptError) in
            for part in parts {
                guard lua_type(state, -1) == LUA_TTABLE else { return .nil }
                writer.push(part)
                if lua_rawget(state, -2) == LUA_TNIL, clua_frozen_backing(state, -2) != 0 {
                    // A frozen table's fields (and the frozen globals) live in its backing.
                    writer.push(part)
                    lua_rawget(state, -2)
                    clua_remove(state, -2)
                    clua_remove(state, -2)
                }
                clua_remove(state, -2)
            }
            var decoder = LuaValueDecoder(state: state, vm: self)
            return try decoder.decode(at: -1)
        }
    }

    /// Records global declarations until `lockGlobals()`: assigning to a new global declares
    /// it, even when the value is `nil` (a rules file's `helper = nil`, set later, stays usable).
    package func recordGlobalDeclarations() throws(FlowScriptError) {
        let state = try openState()
        let top = lua_gettop(state)
        defer { lua_settop(state, top) }
        guard clua_declaring_globals(state) == LUA_OK else {
            throw makeError(status: LUA_ERRMEM, state: state, function: nil)
        }
    }

    /// Locks the global table: from now on, reading or assigning a global that does not exist
    /// yet is an `undeclaredGlobal` error naming it.
    ///
    /// Every name present now is declared (assigning `nil` to it later keeps it declared).
    /// `rawget(_G, name)` still reads freely (a way to test for a global); `rawset(_G, ...)`
    /// follows the same rule as an assignment; `setmetatable(_G, ...)` is refused.
    package func lockGlobals() throws(FlowScriptError) {
        let state = try openState()
        let top = lua_gettop(state)
        defer { lua_settop(state, top) }
        guard clua_lock_globals(state) == LUA_OK else {
            throw makeError(status: LUA_ERRMEM, state: state, function: nil)
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
        let state = try openState()
        let top = lua_gettop(state)
        defer { lua_settop(state, top) }
        let writer = LuaStackWriter(state: state, owner: referenceOwner)
        try pushReadOnlyBacking(contents, name: path, writer: writer)
        lua_pushvalue(state, -1)
        let backing = luaL_ref(state, clua_registryindex())
        if let old = readOnlyBackings.updateValue(backing, forKey: path) {
            luaL_unref(state, clua_registryindex(), old)
        }
        writer.push(path)
        if let onMissingKey {
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
            }, on: writer)
        } else {
            writer.pushNil()
        }
        writer.push(instead)
        guard clua_make_readonly(state) == LUA_OK else {
            throw makeError(status: LUA_ERRMEM, state: state, function: nil)
        }
        try assign(path) { writer in
            writer.reserve(1)
            lua_pushvalue(writer.state, top + 1)
        }
    }

    /// Makes `path` a global holding a read-only view of `contents` whose missing keys are read
    /// by a Lua function: reading a key `contents` lacks returns `function(path, key)` (`pairs`
    /// calls it with a nil key first), so the function computes what the table holds.
    package func installReadOnlyTable(
        at path: String, contents: LuaTable, missingKeyFunction function: LuaFunctionRef, instead: String? = nil
    ) throws(FlowScriptError) {
        let state = try openState()
        let top = lua_gettop(state)
        defer { lua_settop(state, top) }
        let writer = LuaStackWriter(state: state, owner: referenceOwner)
        try pushReadOnlyBacking(contents, name: path, writer: writer)
        lua_pushvalue(state, -1)
        let backing = luaL_ref(state, clua_registryindex())
        if let old = readOnlyBackings.updateValue(backing, forKey: path) {
            luaL_unref(state, clua_registryindex(), old)
        }
        writer.push(path)
        try writer.push(function)
        writer.push(instead)
        guard clua_make_readonly(state) == LUA_OK else {
            throw makeError(status: LUA_ERRMEM, state: state, function: nil)
        }
        try assign(path) { writer in
            writer.reserve(1)
            lua_pushvalue(writer.state, top + 1)
        }
    }

    /// Replaces the contents of a read-only table made by `installReadOnlyTable(at:contents:)`
    /// (scripts holding it see the new contents).
    package func replaceReadOnlyContents(at path: String, with contents: LuaTable) throws(FlowScriptError) {
        let state = try openState()
        guard let backing = readOnlyBackings[path] else {
            throw FlowScriptError(kind: .typeError, message: "no read-only table is installed at '\(path)'")
        }
        let top = lua_gettop(state)
        defer { lua_settop(state, top) }
        let writer = LuaStackWriter(state: state, owner: referenceOwner)
        writer.reserve(4)
        lua_rawgeti(state, clua_registryindex(), lua_Integer(backing))
        let table = lua_gettop(state)
        // Clearing existing fields during a traversal is allowed.
        lua_pushnil(state)
        while lua_next(state, table) != 0 {
            lua_settop(state, -2)
            lua_pushvalue(state, -1)
            lua_pushnil(state)
            lua_rawset(state, table)
        }
        try fillReadOnlyBacking(table, with: contents, name: path, writer: writer)
    }

    /// Pushes a plain table holding `contents`, nested tables replaced by read-only proxies.
    private func pushReadOnlyBacking(_ contents: LuaTable, name: String, writer: LuaStackWriter) throws(FlowScriptError) {
        writer.reserve(1)
        lua_createtable(writer.state, Int32(clamping: contents.array.count), Int32(clamping: contents.fields.count))
        try fillReadOnlyBacking(lua_gettop(writer.state), with: contents, name: name, writer: writer)
    }

    private func fillReadOnlyBacking(
        _ table: Int32, with contents: LuaTable, name: String, writer: LuaStackWriter
    ) throws(FlowScriptError) {
        let state = writer.state
        for (offset, value) in contents.array.enumerated() {
            try pushReadOnlyValue(value, name: "\(name)[\(offset + 1)]", writer: writer)
            lua_rawseti(state, table, lua_Integer(offset + 1))
        }
        for (key, value) in contents.fields {
            let childName: String
            switch key {
            case .string(let field): writer.push(field); childName = "\(name).\(field)"
            case .integer(let index): writer.push(index); childName = "\(name)[\(index)]"
            }
            try pushReadOnlyValue(value, name: childName, writer: writer)
            lua_rawset(state, table)
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
        let state = handle.main
        let top = lua_gettop(state)
        defer { lua_settop(state, top) }
        LuaStackWriter(state: state, owner: referenceOwner).reserve(2)
        lua_rawgeti(state, clua_registryindex(), lua_Integer(function.reference))
        return clua_decision_args(state)
    }

    /// Tells the rules prelude that the next call runs style rules: until a decision starts, the
    /// running rule (for errors that lost their location) is the style rule it last started.
    package func noteStyleRulesRunning() {
        guard !isClosed else { return }
        clua_ctx_note_style_rules(handle.context)
    }

    /// Stores the value `push` leaves on the stack at `path`, creating intermediate tables.
    func assign(_ path: String, push: (LuaStackWriter) throws(FlowScriptError) -> Void) throws(FlowScriptError) {
        try fromGlobals(path, slots: 3) { state, parts, writer throws(FlowScriptError) in
            for (position, part) in parts.dropLast().enumerated() {
                Self.enterFrozen(state)
                writer.push(part)
                let type = lua_rawget(state, -2)
                if type == LUA_TNIL {
                    lua_settop(state, -2)
                    lua_createtable(state, 0, 4)
                    writer.push(part)
                    lua_pushvalue(state, -2)
                    lua_rawset(state, -4)
                    if position == 0 { declareGlobal(part) }
                } else if type != LUA_TTABLE {
                    let prefix = parts[...position].joined(separator: ".")
                    throw FlowScriptError(
                        kind: .typeError,
                        message: "cannot set '\(path)': '\(prefix)' is a \(LuaType(rawValue: type)?.name ?? "value"), not a table")
                }
                clua_remove(state, -2)
            }
            Self.enterFrozen(state)
            writer.push(parts[parts.count - 1])
            try push(writer)
            lua_rawset(state, -3)
            if parts.count == 1 { declareGlobal(parts[0]) }
        }
    }

    /// Runs `body` with the global table on top of the stack (`slots` free above it) and the
    /// parts of `path`; the stack is as it was afterwards.
    private func fromGlobals<Value>(
        _ path: String, slots: Int,
        _ body: (OpaquePointer, [String], LuaStackWriter) throws(FlowScriptError) -> Value
    ) throws(FlowScriptError) -> Value {
        let state = try openState()
        let parts = try LuaVM.pathParts(path)
        let top = lua_gettop(state)
        defer { lua_settop(state, top) }
        let writer = LuaStackWriter(state: state, owner: referenceOwner)
        writer.reserve(slots + 1)
        lua_rawgeti(state, clua_registryindex(), lua_Integer(clua_ridx_globals()))
        return try body(state, parts, writer)
    }

    /// Replaces the table on top by its backing when it is frozen (what FlowStack provides to
    /// rules: `flow`, `host`, the libraries, and the global table's frozen part): Swift reads and
    /// writes them there, scripts only read them (see `clua_guard.c`). Needs one free slot.
    static func enterFrozen(_ state: OpaquePointer) {
        if clua_frozen_backing(state, -1) != 0 { clua_remove(state, -2) }
    }

    /// Declares `name` in the locked global table (no effect before `lockGlobals()`).
    private func declareGlobal(_ name: String) {
        guard globalsLocked else { return }
        let state = handle.main
        LuaStackWriter(state: state, owner: referenceOwner).push(name)
        if clua_declare_global(state) != LUA_OK { lua_settop(state, -2) }
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
