import CLua

/// Converts Lua values on a stack to `LuaValue`s (tables recursively, refusing cycles).
@MainActor
struct LuaValueDecoder {
    /// The thread whose stack holds the values.
    package let state: OpaquePointer
    /// The VM (for function references).
    unowned(unsafe) let vm: LuaVM
    /// Tables being converted, outermost first.
    private var path: [UnsafeRawPointer] = []

    /// The deepest table nesting converted.
    static let maximumDepth = 100

    init(state: OpaquePointer, vm: LuaVM) {
        self.state = state
        self.vm = vm
    }

    /// The value at absolute or relative stack `index`.
    package mutating func decode(at index: Int32) throws(FlowScriptError) -> LuaValue {
        let index = lua_absindex(state, index)
        switch LuaType(rawValue: lua_type(state, index)) ?? .none {
        case .none, .nil: return .nil
        case .boolean: return .boolean(lua_toboolean(state, index) != 0)
        case .number:
            if lua_isinteger(state, index) != 0 { return .integer(Int(lua_tointegerx(state, index, nil))) }
            return .number(lua_tonumberx(state, index, nil))
        case .string: return .string(LuaStackReader.string(state, index))
        case .function: return .function(vm.makeFunctionRef(state: state, index: index))
        case .table: return .table(try decodeTable(at: index))
        case let other:
            throw FlowScriptError(kind: .typeError, message: "a Lua \(other.name) value cannot be converted to a Swift value")
        }
    }

    private mutating func decodeTable(at index: Int32) throws(FlowScriptError) -> LuaTable {
        guard let pointer = lua_topointer(state, index) else { return LuaTable() }
        if path.contains(pointer) {
            throw FlowScriptError(kind: .typeError, message: "a table that contains itself cannot be converted to a Swift value")
        }
        guard path.count < LuaValueDecoder.maximumDepth else {
            throw FlowScriptError(
                kind: .typeError,
                message: "tables nested more than \(LuaValueDecoder.maximumDepth) deep cannot be converted to Swift values")
        }
        guard lua_checkstack(state, 4) != 0 else {
            throw FlowScriptError(kind: .runtime, message: "Lua stack overflow while converting a table")
        }
        path.append(pointer)
        defer { path.removeLast() }
        // A read-only proxy (facts, op, ctx, stacks) is empty: its fields come from `__pairs`,
        // which a protected call copies into a plain table first.
        var source = index
        if clua_haspairs(state, index) != 0 {
            guard clua_plaincopy(state, index) == LUA_OK else {
                let message = lua_type(state, -1) == LUA_TSTRING ? LuaStackReader.string(state, -1) : "an error"
                lua_settop(state, -2)
                throw FlowScriptError(
                    kind: .typeError, message: "a table could not be converted to a Swift value (its __pairs failed: \(message))")
            }
            source = lua_gettop(state)
        }
        defer { if source != index { lua_settop(state, -2) } }
        var table = LuaTable()
        lua_pushnil(state)
        while lua_next(state, source) != 0 {
            let key: LuaTableKey
            switch LuaType(rawValue: lua_type(state, -2)) ?? .none {
            case .string:
                key = .string(LuaStackReader.string(state, -2))
            case .number where lua_isinteger(state, -2) != 0:
                key = .integer(Int(lua_tointegerx(state, -2, nil)))
            case let other:
                lua_settop(state, -3)
                let what = other == .number ? "a non-integer number" : "a \(other.name)"
                throw FlowScriptError(
                    kind: .typeError, message: "a table with \(what) key cannot be converted to a Swift value")
            }
            let value: LuaValue
            do {
                value = try decode(at: -1)
            } catch {
                lua_settop(state, -3)
                throw error
            }
            table[key: key] = value
            lua_settop(state, -2)
        }
        return table
    }
}
