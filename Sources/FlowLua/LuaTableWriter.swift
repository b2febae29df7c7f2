/// Fills the table a `LuaStackWriter` just pushed (raw sets: the table has no metatable).
package struct LuaTableWriter {
    /// The writer of the stack holding the table.
    package let stack: LuaStackWriter
    /// Absolute stack index of the table.
    package let table: Int32
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
        stack.storeField(in: table)
    }

    /// `t[name] = value` (a string).
    package func set(_ name: String, _ value: String) { setField(name) { stack.push(value) } }
    /// `t[name] = value` (an optional string: nothing when nil).
    package func set(_ name: String, _ value: String?) { if let value { set(name, value) } }
    /// `t[name] = value` (an integer).
    package func set(_ name: String, _ value: Int) { setField(name) { stack.push(value) } }
    /// `t[name] = value` (a float).
    package func set(_ name: String, _ value: Double) { setField(name) { stack.push(value) } }
    /// `t[name] = value` (a boolean).
    package func set(_ name: String, _ value: Bool) { setField(name) { stack.push(value) } }
    /// `t[name] = value` (any value).
    package func set(_ name: String, _ value: LuaValue) throws(FlowScriptError) {
        try setField(name) { () throws(FlowScriptError) in try stack.push(value) }
    }

    /// `t[key] = value` for a table key.
    package func set(_ key: LuaTableKey, _ value: LuaValue) throws(FlowScriptError) {
        switch key {
        case .string(let name): try set(name, value)
        case .integer(let index):
            try stack.push(value)
            stack.storeElement(in: table, at: index)
        }
    }

    /// `t[name] = { ... }`, a nested table filled by `build`.
    package func setTable<E: Error>(
        _ name: String, arrayCount: Int = 0, fieldCount: Int = 0, _ build: (inout LuaTableWriter) throws(E) -> Void
    ) throws(E) {
        stack.push(name)
        try stack.pushTable(arrayCount: arrayCount, fieldCount: fieldCount, build)
        stack.storeField(in: table)
    }

    /// `t[#t + 1] = value` for the value `push` leaves on the stack.
    private mutating func storeAppended() {
        stack.storeElement(in: table, at: nextIndex)
        nextIndex += 1
    }

    /// Appends a string.
    package mutating func append(_ value: String) {
        stack.push(value)
        storeAppended()
    }

    /// Appends an integer.
    package mutating func append(_ value: Int) {
        stack.push(value)
        storeAppended()
    }

    /// Appends a boolean.
    package mutating func append(_ value: Bool) {
        stack.push(value)
        storeAppended()
    }

    /// Appends any value.
    package mutating func append(_ value: LuaValue) throws(FlowScriptError) {
        try stack.push(value)
        storeAppended()
    }

    /// Appends a nested table filled by `build`.
    package mutating func appendTable<E: Error>(
        arrayCount: Int = 0, fieldCount: Int = 0, _ build: (inout LuaTableWriter) throws(E) -> Void
    ) throws(E) {
        try stack.pushTable(arrayCount: arrayCount, fieldCount: fieldCount, build)
        stack.storeElement(in: table, at: nextIndex)
        nextIndex += 1
    }

    /// Appends the one value `push` leaves on the stack.
    package mutating func appendPushed(_ push: () -> Void) {
        push()
        storeAppended()
    }

    /// `t[name] = v` for the one value `push` leaves on the stack.
    package func setPushed(_ name: String, _ push: () -> Void) {
        stack.push(name)
        push()
        stack.storeField(in: table)
    }
}
