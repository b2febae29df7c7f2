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
        lua_rawgeti(state, clua_registryindex(), lua_Integer(function.reference))
    }

    /// Pushes the sequence `{ strings[1], ... }`.
    package func push(strings: [String]) {
        reserve(2)
        lua_createtable(state, Int32(clamping: strings.count), 0)
        let table = lua_gettop(state)
        for (offset, string) in strings.enumerated() {
            push(string)
            lua_rawseti(state, table, lua_Integer(offset + 1))
        }
    }

    /// Pushes a new table filled by `build`.
    package func pushTable<E: Error>(
        arrayCount: Int = 0, fieldCount: Int = 0, _ build: (inout LuaTableWriter) throws(E) -> Void
    ) throws(E) {
        reserve(3)
        lua_createtable(state, Int32(clamping: arrayCount), Int32(clamping: fieldCount))
        var writer = LuaTableWriter(stack: self, table: lua_gettop(state))
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
