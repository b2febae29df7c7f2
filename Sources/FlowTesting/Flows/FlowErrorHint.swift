import FlowScript
import FlowStackCore
import Foundation

/// What to do about a Lua error a flow raised on a global name: the flow global a misspelled
/// name is near (`undeclared global 'rooter' (did you mean 'router'?)`), or what to write instead
/// of a busted or luassert habit (`assert.are.same(...)`, `spy.new(fn)`).
enum FlowErrorHint {
    /// `message` with what to do appended, or `message` unchanged when it names no global or
    /// there is nothing to add.
    static func hinted(_ message: String) -> String {
        if message.hasSuffix("attempt to index a function value (global 'assert')") {
            return message + ": assert is Lua's assert(value, message), not luassert's table: write "
                + "expect(actual).to_equal(expected), expect(v).to_be_truthy(), ... (docs/lua-surface.md, section 9)"
        }
        if message.hasSuffix("attempt to index a function value (global 'spy')") {
            return message + ": spy is a function, not luassert's table: write local s = spy(fn) "
                + "(app.host(\"name\", s) stubs a host with it), then expect(s).to_have_been_called_with(...)"
        }
        guard let name = undeclaredName(in: message),
              let close = FlowSuggestion.closest(to: name, in: candidates), close != name
        else { return message }
        return message + " (did you mean '\(close)'?)"
    }

    /// The globals a flow can use: the flow API and Lua's standard functions the sandbox keeps.
    static let candidates = FlowTestAPI.flowGlobals + FlowLuaSurface.luaStandardGlobals

    /// The global a message says is missing: `undeclared global 'x'` (the locked globals of a
    /// running test), `attempt to call a nil value (global 'x')` or `attempt to index a nil
    /// value (global 'x')` (the flow file's top level).
    private static func undeclaredName(in message: String) -> String? {
        for (prefix, suffix) in [
            ("undeclared global '", "'"), ("attempt to call a nil value (global '", "')"),
            ("attempt to index a nil value (global '", "')"),
        ] {
            guard let start = message.range(of: prefix, options: .backwards), message.hasSuffix(suffix) else { continue }
            let name = message[start.upperBound...].dropLast(suffix.count)
            if !name.isEmpty, !name.contains("'") { return String(name) }
        }
        return nil
    }
}
