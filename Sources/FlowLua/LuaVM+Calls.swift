/// The arguments a host function receives.
package typealias LuaArguments = LuaStackReader
/// The results a call hands to its reader.
package typealias LuaResults = LuaStackReader

extension LuaVM {
    /// Calls `function` with no arguments, ignoring its results.
    @inline(__always)
    package func call(_ function: LuaFunctionRef) throws(FlowScriptError) {
        try call(function, arguments: { _ in }, results: { _ in })
    }

    /// Calls `function` with `arguments` and returns its results converted to `LuaValue`s.
    package func call(_ function: LuaFunctionRef, _ arguments: [LuaValue]) throws(FlowScriptError) -> [LuaValue] {
        try call(
            function,
            arguments: { (writer: LuaStackWriter) throws(FlowScriptError) in
                try writer.reserveChecked(arguments.count)
                for argument in arguments { try writer.push(argument) }
            },
            results: { (results: LuaResults) throws(FlowScriptError) in try results.values() })
    }
}
