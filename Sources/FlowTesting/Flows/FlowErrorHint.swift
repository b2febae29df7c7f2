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
        guard let name = undeclaredName(in: message) else { return message }
        if let instead = bustedNames[name] { return message + ": " + instead }
        guard let close = FlowSuggestion.closest(to: name, in: candidates), close != name else { return message }
        return message + " (did you mean '\(close)'?)"
    }

    /// busted's names a flow spells differently, and what to write instead.
    static let bustedNames = [
        "context": "busted's context is describe(name, fn) in a flow",
        "spec": "busted's spec is it(name, fn) in a flow",
        "test": "busted's test is it(name, fn) in a flow",
        "stub": "busted's stub is app.host(\"name\", fn) in a flow (app.host(\"name\", spy(fn)) also records the calls)",
        "finally": "busted's finally is after_each(fn) in a flow, declared in the test's describe",
        "lazy_setup": "busted's lazy_setup is before_all(fn) in a flow",
        "strict_setup": "busted's strict_setup is before_all(fn) in a flow",
        "lazy_teardown": "busted's lazy_teardown is after_all(fn) in a flow",
        "strict_teardown": "busted's strict_teardown is after_all(fn) in a flow",
    ]

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
