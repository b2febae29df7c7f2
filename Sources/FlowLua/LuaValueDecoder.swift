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
        let index = LuaStackReader.absolute(state, index)
        switch LuaStackReader.type(state, index) {
        case .none, .nil: return .nil
        case .boolean: return .boolean(LuaStackReader.isTruthy(state, index))
        case .number:
            if let integer = LuaStackReader.integer(state, index) { return .integer(integer) }
            return .number(LuaStackReader.number(state, index))
        case .string: return .string(LuaStackReader.string(state, index))
        case .function: return .function(vm.makeFunctionRef(state: state, index: index))
        case .table: return .table(try decodeTable(at: index))
        case let other:
            throw FlowScriptError(kind: .typeError, message: "a Lua \(other.name) value cannot be converted to a Swift value")
        }
    }

    private mutating func decodeTable(at index: Int32) throws(FlowScriptError) -> LuaTable {
        guard let pointer = LuaStackReader.identity(state, index) else { return LuaTable() }
        if path.contains(pointer) {
            throw FlowScriptError(kind: .typeError, message: "a table that contains itself cannot be converted to a Swift value")
        }
        guard path.count < LuaValueDecoder.maximumDepth else {
            throw FlowScriptError(
                kind: .typeError,
                message: "tables nested more than \(LuaValueDecoder.maximumDepth) deep cannot be converted to Swift values")
        }
        let stack = LuaStackWriter(state: state, owner: vm.referenceOwner)
        guard stack.hasRoom(for: 4) else {
            throw FlowScriptError(kind: .runtime, message: "Lua stack overflow while converting a table")
        }
        path.append(pointer)
        defer { path.removeLast() }
        // A read-only proxy (facts, op, ctx, stacks) is empty: its fields come from `__pairs`,
        // which a protected call copies into a plain table first.
        var source = index
        if clua_haspairs(state, index) != 0 {
            guard clua_plaincopy(state, index) == LUA_OK else {
                let message = LuaStackReader.stringIfString(state, -1) ?? "an error"
                stack.pop()
                throw FlowScriptError(
                    kind: .typeError, message: "a table could not be converted to a Swift value (its __pairs failed: \(message))")
            }
            source = stack.height
        }
        defer { if source != index { stack.pop() } }
        var table = LuaTable()
        stack.pushNilReserved()
        while LuaStackReader.advance(state, in: source) {
            let key: LuaTableKey
            let keyType = LuaStackReader.type(state, -2)
            if keyType == .string {
                key = .string(LuaStackReader.string(state, -2))
            } else if keyType == .number, let integer = LuaStackReader.integer(state, -2) {
                key = .integer(integer)
            } else {
                stack.pop(2)
                let what = keyType == .number ? "a non-integer number" : "a \(keyType.name)"
                throw FlowScriptError(
                    kind: .typeError, message: "a table with \(what) key cannot be converted to a Swift value")
            }
            let value: LuaValue
            do {
                value = try decode(at: -1)
            } catch {
                stack.pop(2)
                throw error
            }
            table[key: key] = value
            stack.pop()
        }
        return table
    }
}
