import CLua

/// Pushes Swift values onto a Lua stack without building `LuaValue` trees (the hot path).
///
/// Used for call arguments and host-function results. Pushes cannot raise: they run while the
/// memory budget is lifted.
package struct LuaStackWriter {
    /// The thread whose stack receives the values.
    package let state: OpaquePointer
    /// The VM's reference owner (function references of other VMs are refused).
    let owner: LuaReferenceOwner

    /// Makes room for `count` more values.
    package func reserve(_ count: Int) {
        guard lua_checkstack(state, Int32(clamping: count)) != 0 else {
            preconditionFailure("Lua stack overflow: cannot push \(count) more values")
        }
    }

    /// Makes room for `count` more values a script decided the number of (a host function's
    /// results, a call's arguments): a Lua stack cannot hold them all (about a million values at
    /// most) is an error the script gets, never a trap.
    package func reserveChecked(_ count: Int) throws(FlowScriptError) {
        guard count <= 100_000, lua_checkstack(state, Int32(clamping: count)) != 0 else {
            throw FlowScriptError(
                kind: .runtime,
                message: "too many values for the Lua stack (\(count)): pass or return at most 100,000 values; use a table")
        }
    }

    /// Pushes `nil`.
    func pushNil() {
        reserve(1)
        lua_pushnil(state)
    }

    /// Pushes a boolean.
    package func push(_ value: Bool) {
        reserve(1)
        lua_pushboolean(state, value ? 1 : 0)
    }

    /// Pushes an integer.
    package func push(_ value: Int) {
        reserve(1)
        lua_pushinteger(state, lua_Integer(value))
    }

    /// Pushes a float.
    package func push(_ value: Double) {
        reserve(1)
        lua_pushnumber(state, value)
    }

    /// Pushes a string (as its UTF-8 bytes).
    package func push(_ value: String) {
        reserve(1)
        var value = value
        value.withUTF8 { bytes in
            _ = lua_pushlstring(state, bytes.baseAddress.map { UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self) }, bytes.count)
        }
    }

    /// Pushes a string into room already reserved (see `reserve(_:)`).
    package func pushReserved(_ value: String) {
        var value = value
        value.withUTF8 { bytes in
            _ = lua_pushlstring(state, bytes.baseAddress.map { UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self) }, bytes.count)
        }
    }

    /// Pushes `nil` into room already reserved (see `reserve(_:)`).
    package func pushNilReserved() {
        lua_pushnil(state)
    }

    /// Pushes an optional string (`nil` when absent).
    package func push(_ value: String?) {
        if let value { push(value) } else { pushNil() }
    }

    /// Pushes a function held by a reference.
    ///
    /// - Throws: `typeError` when the function belongs to another VM.
    package func push(_ function: LuaFunctionRef) throws(FlowScriptError) {
        guard function.owner === owner else {
            throw FlowScriptError(kind: .typeError, message: "a Lua function from another Lua VM cannot be used here")
        }
        reserve(1)
        pushAnchored(function.reference)
    }

    /// Pushes the sequence `{ strings[1], ... }`.
    package func push(strings: [String]) {
        reserve(2)
        let table = pushNewTable(arrayCount: strings.count)
        for (offset, string) in strings.enumerated() {
            push(string)
            storeElement(in: table, at: offset + 1)
        }
    }

    /// Pushes a new table filled by `build`.
    package func pushTable<E: Error>(
        arrayCount: Int = 0, fieldCount: Int = 0, _ build: (inout LuaTableWriter) throws(E) -> Void
    ) throws(E) {
        reserve(3)
        var writer = LuaTableWriter(stack: self, table: pushNewTable(arrayCount: arrayCount, fieldCount: fieldCount))
        try build(&writer)
    }

    /// Pushes any Lua value (tables are built recursively).
    package func push(_ value: LuaValue) throws(FlowScriptError) {
        switch value {
        case .nil: pushNil()
        case .boolean(let value): push(value)
        case .integer(let value): push(value)
        case .number(let value): push(value)
        case .string(let value): push(value)
        case .function(let function): try push(function)
        case .table(let table): try push(table)
        }
    }

    /// Pushes a table value.
    package func push(_ table: LuaTable) throws(FlowScriptError) {
        try pushTable(arrayCount: table.array.count, fieldCount: table.fields.count) { (writer: inout LuaTableWriter) throws(FlowScriptError) in
            for element in table.array { try writer.append(element) }
            for (key, value) in table.fields { try writer.set(key, value) }
        }
    }
}

// The stack operations the rest of the module speaks in: with `LuaStackReader` and `LuaVM`'s
// core file, the only Swift that calls Lua's C API (`lua_*`, `luaL_*`) itself. None can raise
// while the memory budget is lifted: raw gets and sets, on tables without metatables.
extension LuaStackWriter {
    /// The stack's height: the absolute index of its top value (0 when empty).
    var height: Int32 { lua_gettop(state) }

    /// Drops every value above `height` (see `height`).
    func restore(height: Int32) { lua_settop(state, height) }

    /// Pops the `count` values on top.
    func pop(_ count: Int32 = 1) { lua_settop(state, -count - 1) }

    /// Whether the stack can grow by `count` values (false: it cannot, the caller reports it).
    func hasRoom(for count: Int32) -> Bool { lua_checkstack(state, count) != 0 }

    /// Pushes a copy of the value at `index`, into room already reserved.
    func pushCopy(of index: Int32) { lua_pushvalue(state, index) }

    /// Pushes the value a registry reference anchors (see `anchor()`), into room already reserved.
    func pushAnchored(_ reference: Int32) { lua_rawgeti(state, clua_registryindex(), lua_Integer(reference)) }

    /// Pushes the global table itself (its raw fields: the locked table's lock is not consulted),
    /// into room already reserved.
    func pushGlobalTable() { lua_rawgeti(state, clua_registryindex(), lua_Integer(clua_ridx_globals())) }

    /// Pushes an empty table with room for `arrayCount` elements and `fieldCount` fields, into
    /// room already reserved; its absolute index.
    @discardableResult
    func pushNewTable(arrayCount: Int = 0, fieldCount: Int = 0) -> Int32 {
        lua_createtable(state, Int32(clamping: arrayCount), Int32(clamping: fieldCount))
        return lua_gettop(state)
    }

    /// `t[key] = value` for the table at `table` and the key and value on top (popped); raw.
    func storeField(in table: Int32) { lua_rawset(state, table) }

    /// `t[index] = value` for the table at `table` and the value on top (popped); raw.
    func storeElement(in table: Int32, at index: Int) { lua_rawseti(state, table, lua_Integer(index)) }

    /// Replaces the key on top by `t[key]` of the table at `table` (raw); the value's type.
    func replaceKeyByField(of table: Int32) -> LuaType { LuaType(rawValue: lua_rawget(state, table)) ?? .none }

    /// Removes every field of the table at absolute index `table` (raw; needs two free slots).
    func clearTable(at table: Int32) {
        // Clearing the fields a traversal has passed is allowed during it.
        lua_pushnil(state)
        while lua_next(state, table) != 0 {
            pop()
            lua_pushvalue(state, -1)
            lua_pushnil(state)
            lua_rawset(state, table)
        }
    }

    /// Pops the value on top into the registry; the reference that anchors it there until
    /// `releaseAnchor(_:)`.
    func anchor() -> Int32 { luaL_ref(state, clua_registryindex()) }

    /// Frees a registry reference made by `anchor()`.
    func releaseAnchor(_ reference: Int32) { luaL_unref(state, clua_registryindex(), reference) }

    /// Moves the `count` values on top of `thread`'s stack (of the same state) onto this one.
    func moveTop(_ count: Int32, from thread: OpaquePointer) { lua_xmove(thread, state, count) }
}
