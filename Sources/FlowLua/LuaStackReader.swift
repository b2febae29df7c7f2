import CLua

/// Reads values from a range of a Lua stack: a host function's arguments or a call's results.
///
/// Positions are 1-based within the range. Typed accessors throw `typeError` with Lua's usual
/// wording (`bad argument #1 to 'flow.guard' (string expected, got nil)`). Valid only during
/// the host function or the results closure that received it.
@MainActor
package struct LuaStackReader {
    /// The thread whose stack holds the values.
    package let state: OpaquePointer
    /// Absolute stack index of position 1.
    let base: Int32
    /// How many values the range holds.
    package let count: Int
    /// The host function's name for argument errors, or nil for call results.
    let functionName: String?
    /// The VM (for function references).
    unowned(unsafe) let vm: LuaVM

    /// The absolute stack index of `position`.
    package func stackIndex(_ position: Int) -> Int32 { base + Int32(position) - 1 }

    /// The type at `position` (`.none` past the end).
    package func type(at position: Int) -> LuaType {
        guard position >= 1, position <= count else { return .none }
        return LuaType(rawValue: lua_type(state, stackIndex(position))) ?? .none
    }

    /// Whether the value at `position` is nil or absent.
    package func isNil(at position: Int) -> Bool {
        let type = type(at: position)
        return type == .nil || type == .none
    }

    /// Whether Lua treats the value at `position` as true.
    package func isTruthy(at position: Int) -> Bool {
        guard position >= 1, position <= count else { return false }
        return lua_toboolean(state, stackIndex(position)) != 0
    }

    /// The error for a value of the wrong type.
    package func typeError(at position: Int, expected: String) -> FlowScriptError {
        let got = type(at: position).name
        if let functionName {
            return FlowScriptError(
                kind: .typeError, message: "bad argument #\(position) to '\(functionName)' (\(expected) expected, got \(got))")
        }
        return FlowScriptError(kind: .typeError, message: "result #\(position): \(expected) expected, got \(got)")
    }

    /// The string at `position` (numbers are converted, as Lua does).
    package func string(at position: Int) throws(FlowScriptError) -> String {
        switch type(at: position) {
        case .string: return LuaStackReader.string(state, stackIndex(position))
        case .number:
            guard lua_checkstack(state, 1) != 0 else { throw typeError(at: position, expected: "string") }
            lua_pushvalue(state, stackIndex(position))
            defer { lua_settop(state, -2) }
            return LuaStackReader.string(state, -1)
        default: throw typeError(at: position, expected: "string")
        }
    }

    /// The string at `position`, or nil when the value is nil or absent.
    package func optionalString(at position: Int) throws(FlowScriptError) -> String? {
        isNil(at: position) ? nil : try string(at: position)
    }

    /// The integer at `position` (a float with an exact integer value is accepted).
    package func integer(at position: Int) throws(FlowScriptError) -> Int {
        var isInteger: Int32 = 0
        if type(at: position) == .number {
            let value = lua_tointegerx(state, stackIndex(position), &isInteger)
            if isInteger != 0 { return Int(value) }
        }
        throw typeError(at: position, expected: "integer")
    }

    /// The number at `position`.
    package func number(at position: Int) throws(FlowScriptError) -> Double {
        guard type(at: position) == .number else { throw typeError(at: position, expected: "number") }
        return lua_tonumberx(state, stackIndex(position), nil)
    }

    /// The boolean at `position` (strict: only `true` and `false`).
    package func bool(at position: Int) throws(FlowScriptError) -> Bool {
        guard type(at: position) == .boolean else { throw typeError(at: position, expected: "boolean") }
        return lua_toboolean(state, stackIndex(position)) != 0
    }

    /// A reference to the function at `position`.
    package func function(at position: Int) throws(FlowScriptError) -> LuaFunctionRef {
        guard type(at: position) == .function else { throw typeError(at: position, expected: "function") }
        return vm.makeFunctionRef(state: state, index: stackIndex(position))
    }

    /// The table at `position`, converted.
    package func table(at position: Int) throws(FlowScriptError) -> LuaTable {
        guard type(at: position) == .table else { throw typeError(at: position, expected: "table") }
        guard case .table(let table) = try value(at: position) else { throw typeError(at: position, expected: "table") }
        return table
    }

    /// The value at `position`, converted (`.nil` past the end).
    package func value(at position: Int) throws(FlowScriptError) -> LuaValue {
        guard position >= 1, position <= count else { return .nil }
        var decoder = LuaValueDecoder(state: state, vm: vm)
        return try decoder.decode(at: stackIndex(position))
    }

    /// Every value of the range, converted.
    package func values() throws(FlowScriptError) -> [LuaValue] {
        var result: [LuaValue] = []
        result.reserveCapacity(count)
        var decoder = LuaValueDecoder(state: state, vm: vm)
        for position in 0..<count { result.append(try decoder.decode(at: base + Int32(position))) }
        return result
    }

    /// Reads the string at `index` (which must hold a string).
    package nonisolated static func string(_ state: OpaquePointer, _ index: Int32) -> String {
        var length = 0
        guard let pointer = lua_tolstring(state, index, &length) else { return "" }
        return String(decoding: UnsafeRawBufferPointer(start: pointer, count: length), as: UTF8.self)
    }
}

// Reads at a stack index, for the readers of whole values (`LuaValueDecoder`, errors,
// references): with `LuaStackWriter` and `LuaVM`'s core file, the only Swift that calls Lua's C
// API itself. None runs Lua code or raises.
extension LuaStackReader {
    /// The type of the value at `index` (`.none` for an index past the top).
    nonisolated static func type(_ state: OpaquePointer, _ index: Int32) -> LuaType {
        LuaType(rawValue: lua_type(state, index)) ?? .none
    }

    /// Whether the value at `index` is a function written in Lua (not a C function).
    nonisolated static func isLuaFunction(_ state: OpaquePointer, _ index: Int32) -> Bool {
        lua_type(state, index) == LUA_TFUNCTION && lua_iscfunction(state, index) == 0
    }

    /// The string at `index` when it holds one (no conversion of numbers), else nil.
    nonisolated static func stringIfString(_ state: OpaquePointer, _ index: Int32) -> String? {
        lua_type(state, index) == LUA_TSTRING ? string(state, index) : nil
    }

    /// Whether Lua treats the value at `index` as true.
    nonisolated static func isTruthy(_ state: OpaquePointer, _ index: Int32) -> Bool { lua_toboolean(state, index) != 0 }

    /// The number at `index` as an integer when it is one (a number with the integer subtype), else nil.
    nonisolated static func integer(_ state: OpaquePointer, _ index: Int32) -> Int? {
        lua_isinteger(state, index) != 0 ? Int(lua_tointegerx(state, index, nil)) : nil
    }

    /// The number at `index` as a float.
    nonisolated static func number(_ state: OpaquePointer, _ index: Int32) -> Double { lua_tonumberx(state, index, nil) }

    /// What tells the table at `index` apart from every other live table (its address).
    nonisolated static func identity(_ state: OpaquePointer, _ index: Int32) -> UnsafeRawPointer? { lua_topointer(state, index) }

    /// The absolute form of a relative stack index.
    nonisolated static func absolute(_ state: OpaquePointer, _ index: Int32) -> Int32 { lua_absindex(state, index) }

    /// Advances a traversal of the table at absolute index `table`: replaces the key on top by the
    /// next key and its value (push `nil` to start); false, with the key popped, at the end.
    nonisolated static func advance(_ state: OpaquePointer, in table: Int32) -> Bool { lua_next(state, table) != 0 }

    /// Where the function on top is defined (popped): Lua's short source (`[C]` for a C
    /// function) and its first line (0 for the main chunk, -1 for a C function); nil when Lua
    /// cannot tell. Nonisolated on purpose: a closure written inside main-actor code and handed
    /// to a generic function gets a runtime executor check on every call, here once per byte.
    nonisolated static func popFunctionDefinition(_ state: OpaquePointer) -> (source: String, line: Int)? {
        var info = lua_Debug()
        guard lua_getinfo(state, ">S", &info) != 0 else { return nil }
        let source = withUnsafeBytes(of: &info.short_src) { bytes in
            String(decoding: bytes.prefix(while: { $0 != 0 }), as: UTF8.self)
        }
        return (source, Int(info.linedefined))
    }
}
