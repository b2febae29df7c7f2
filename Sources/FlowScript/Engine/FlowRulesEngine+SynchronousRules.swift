import FlowLua

extension FlowRulesEngine {
    /// The VM's advice for an asynchronous host function called where it cannot suspend ("call it
    /// from an async navigation"), which helps only in a navigation rule.
    private static var asyncNavigationAdvice: String { " is asynchronous: call it from an async navigation (pushAsync, sheetAsync, ...)" }

    /// `message` with the VM's advice replaced for rules that always run synchronously (dialog
    /// rules, style rules, deep-link handlers): `what` says which, then what to do instead.
    static func synchronous(_ message: String, _ what: String) -> String {
        guard let advice = message.range(of: asyncNavigationAdvice) else { return message }
        return String(message[..<advice.lowerBound]) + " is asynchronous, and " + what
            + ": ask it in a navigation rule of an async navigation and keep the answer in a fact, "
            + "or register a synchronous host function (registerHost)"
    }

    /// `error` with the advice of `synchronous(_:_:)` when an asynchronous host function caused it.
    static func synchronous(_ error: FlowScriptError, _ what: String) -> FlowScriptError {
        guard error.kind == .asyncHostInSyncCall else { return error }
        var error = error
        error.message = synchronous(error.message, what)
        return error
    }
}
