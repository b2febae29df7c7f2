import CLua

/// Integers, booleans and nils that cross into Lua with one C call: the arguments of a hot call,
/// without a boundary crossing (and a stack check) per value.
struct LuaScalars {
    var storage = clua_scalars()

    /// The number of scalars so far.
    var count: Int { Int(storage.count) }

    /// Appends an integer, or `nil` when absent.
    mutating func append(_ value: Int?) {
        if let value {
            add(numericCast(CLUA_SCALAR_INTEGER), lua_Integer(value))
        } else {
            add(numericCast(CLUA_SCALAR_NIL), 0)
        }
    }

    /// Appends a boolean.
    mutating func append(_ value: Bool) {
        add(numericCast(CLUA_SCALAR_BOOLEAN), value ? 1 : 0)
    }

    private mutating func add(_ type: UInt8, _ value: lua_Integer) {
        let index = count
        precondition(index < Int(CLUA_MAX_SCALARS), "at most \(CLUA_MAX_SCALARS) scalars per push")
        withUnsafeMutableBytes(of: &storage.types) { $0[index] = type }
        withUnsafeMutableBytes(of: &storage.values) {
            $0.storeBytes(of: value, toByteOffset: index * MemoryLayout<lua_Integer>.stride, as: lua_Integer.self)
        }
        storage.count += 1
    }
}

extension LuaStackWriter {
    /// Pushes every scalar of `scalars`, in order, with one C call.
    func push(_ scalars: inout LuaScalars) {
        reserve(scalars.count)
        clua_pushscalars(state, &scalars.storage)
    }
}
