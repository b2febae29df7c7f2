import CLua

/// Pushes Swift values onto a Lua stack without building `LuaValue` trees (the hot path).
///
/// Used for call arguments and host-function results. Pushes cannot raise: they run while the
/// memory budget is lifted.
struct LuaStackWriter {
    /// The thread whose stack receives the values.
    let state: OpaquePointer
    /// The VM's reference owner (function references of other VMs are refused).
    let owner: LuaReferenceOwner

    /// Makes room for `count` more values.
    func reserve(_ count: Int) {
        guard lua_checkstack(state, Int32(clamping: count)) != 0 else {
            preconditionFailure("Lua stack overflow: cannot push \(count) more values")
        }
    }

    /// Pushes `nil`.
    func pushNil() {
        reserve(1)
        lua_pushnil(state)
    }

    /// Pushes a boolean.
    func push(_ value: Bool) {
        reserve(1)
        lua_pushboolean(state, value ? 1 : 0)
    }

    /// Pushes an integer.
    func push(_ value: Int) {
        reserve(1)
        lua_pushinteger(state, lua_Integer(value))
    }

    /// Pushes a float.
    func push(_ value: Double) {
        reserve(1)
        lua_pushnumber(state, value)
    }

    /// Pushes a string (as its UTF-8 bytes).
    func push(_ value: String) {
        reserve(1)
        var value = value
        value.withUTF8 { bytes in
            _ = lua_pushlstring(state, bytes.baseAddress.map { UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self) }, bytes.count)
        }
    }

    /// Pushes an optional string (`nil` when absent).
    func push(_ value: String?) {
        if let value { push(value) } else { pushNil() }
    }

    /// Pushes a function held by a reference.
    ///
    /// - Throws: `typeError` when the function belongs to another VM.
    func push(_ function: LuaFunctionRef) throws(FlowScriptError) {
        guard function.owner === owner else {
            throw FlowScriptError(kind: .typeError, message: "a Lua function from another Lua VM cannot be used here")
        }
        reserve(1)
        lua_rawgeti(state, clua_registryindex(), lua_Integer(function.reference))
    }

    /// Pushes the sequence `{ strings[1], ... }`.
    func push(strings: [String]) {
        reserve(2)
        lua_createtable(state, Int32(clamping: strings.count), 0)
        let table = lua_gettop(state)
        for (offset, string) in strings.enumerated() {
            push(string)
            lua_rawseti(state, table, lua_Integer(offset + 1))
        }
    }

    /// Pushes a new table filled by `build`.
    func pushTable<E: Error>(
        arrayCount: Int = 0, fieldCount: Int = 0, _ build: (inout LuaTableWriter) throws(E) -> Void
    ) throws(E) {
        reserve(3)
        lua_createtable(state, Int32(clamping: arrayCount), Int32(clamping: fieldCount))
        var writer = LuaTableWriter(stack: self, table: lua_gettop(state))
        try build(&writer)
    }

    /// Pushes any Lua value (tables are built recursively).
    func push(_ value: LuaValue) throws(FlowScriptError) {
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
    func push(_ table: LuaTable) throws(FlowScriptError) {
        try pushTable(arrayCount: table.array.count, fieldCount: table.fields.count) { (writer: inout LuaTableWriter) throws(FlowScriptError) in
            for element in table.array { try writer.append(element) }
            for (key, value) in table.fields { try writer.set(key, value) }
        }
    }
}

/// Fills the table a `LuaStackWriter` just pushed (raw sets: the table has no metatable).
struct LuaTableWriter {
    /// The writer of the stack holding the table.
    let stack: LuaStackWriter
    /// Absolute stack index of the table.
    let table: Int32
    /// The index the next `append` uses.
    private(set) var nextIndex = 1

    init(stack: LuaStackWriter, table: Int32) {
        self.stack = stack
        self.table = table
    }

    /// Sets `t[name] = value` for the value `push` leaves on the stack.
    private func setField<E: Error>(_ name: String, _ push: () throws(E) -> Void) throws(E) {
        stack.push(name)
        try push()
        lua_rawset(stack.state, table)
    }

    /// `t[name] = value` (a string).
    func set(_ name: String, _ value: String) { setField(name) { stack.push(value) } }
    /// `t[name] = value` (an optional string: nothing when nil).
    func set(_ name: String, _ value: String?) { if let value { set(name, value) } }
    /// `t[name] = value` (an integer).
    func set(_ name: String, _ value: Int) { setField(name) { stack.push(value) } }
    /// `t[name] = value` (a float).
    func set(_ name: String, _ value: Double) { setField(name) { stack.push(value) } }
    /// `t[name] = value` (a boolean).
    func set(_ name: String, _ value: Bool) { setField(name) { stack.push(value) } }
    /// `t[name] = value` (any value).
    func set(_ name: String, _ value: LuaValue) throws(FlowScriptError) {
        try setField(name) { () throws(FlowScriptError) in try stack.push(value) }
    }

    /// `t[key] = value` for a table key.
    func set(_ key: LuaTableKey, _ value: LuaValue) throws(FlowScriptError) {
        switch key {
        case .string(let name): try set(name, value)
        case .integer(let index):
            try stack.push(value)
            lua_rawseti(stack.state, table, lua_Integer(index))
        }
    }

    /// `t[name] = { ... }`, a nested table filled by `build`.
    func setTable<E: Error>(
        _ name: String, arrayCount: Int = 0, fieldCount: Int = 0, _ build: (inout LuaTableWriter) throws(E) -> Void
    ) throws(E) {
        stack.push(name)
        try stack.pushTable(arrayCount: arrayCount, fieldCount: fieldCount, build)
        lua_rawset(stack.state, table)
    }

    /// `t[#t + 1] = value` for the value `push` leaves on the stack.
    private mutating func storeAppended() {
        lua_rawseti(stack.state, table, lua_Integer(nextIndex))
        nextIndex += 1
    }

    /// Appends a string.
    mutating func append(_ value: String) {
        stack.push(value)
        storeAppended()
    }

    /// Appends an integer.
    mutating func append(_ value: Int) {
        stack.push(value)
        storeAppended()
    }

    /// Appends a boolean.
    mutating func append(_ value: Bool) {
        stack.push(value)
        storeAppended()
    }

    /// Appends any value.
    mutating func append(_ value: LuaValue) throws(FlowScriptError) {
        try stack.push(value)
        storeAppended()
    }

    /// Appends a nested table filled by `build`.
    mutating func appendTable<E: Error>(
        arrayCount: Int = 0, fieldCount: Int = 0, _ build: (inout LuaTableWriter) throws(E) -> Void
    ) throws(E) {
        try stack.pushTable(arrayCount: arrayCount, fieldCount: fieldCount, build)
        lua_rawseti(stack.state, table, lua_Integer(nextIndex))
        nextIndex += 1
    }
}
