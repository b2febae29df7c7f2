import FlowLua
import FlowStackCore
import Foundation

extension FlowRulesEngine {
    /// The attributes the Lua style rules of one hook give a context, merged in order.
    ///
    /// Unknown keys and bad values become warnings (in `diagnostics` and the log) and are
    /// ignored, so an earlier rule's value for that key stays. Each style rule runs on its own: one
    /// that fails is reported at its `file:line` and left out, and the others still apply, a rule
    /// stopped by the instruction or time budget included.
    ///
    /// A resolution is kept until the rules or the facts change (`FlowStyleCache`): asking again
    /// for the same context costs a lookup, unless a rule called a host function or facts are
    /// served as rules read them (`onMissingFact`, exploration: the facts held do not say what
    /// a resolution read).
    public func style(for context: FlowStyleContext, hook: FlowStyleHook) -> FlowStyleAttributes? {
        guard let set = ruleSet, (set.styleCounts[hook] ?? 0) > 0 else { return nil }
        let caches = onMissingFact == nil
        if caches, let kept = styleCache.lookup(hook, context, generation: generation, facts: facts) { return kept }
        let hostCalls = hostCallCount
        experimentState.elsewhere = "style"
        let attributes = resolveStyle(for: context, hook: hook, in: set)
        experimentState.elsewhere = "rules"
        if caches, hostCallCount == hostCalls { styleCache.store(attributes, hook, context) }
        return attributes
    }

    /// Runs the Lua style rules of one hook for `context` (`style(for:hook:)` without the cache).
    private func resolveStyle(for context: FlowStyleContext, hook: FlowStyleHook, in set: FlowRuleSet) -> FlowStyleAttributes? {
        guard let root = context.rootRoute(as: Route.self), let screen = context.screenRoute(as: Route.self) else {
            return nil
        }
        let styleCount = set.styleCounts[hook] ?? 0
        var merged = LuaValue.nil
        var failures = LuaValue.nil
        // A rule stopped by a budget ends the whole call: it is reported, and the call runs again
        // without it (and without any rule stopped before it), so the others still apply.
        var retry = false
        for attempt in 0...styleCount {
            set.vm.noteStyleRulesRunning()
            do {
                (merged, failures) = try set.vm.call(
                    set.styleFunction,
                    arguments: { writer throws(FlowScriptError) in
                        writer.push(hook.rawValue)
                        writer.pushTable(fieldCount: 9) { table in
                            table.set("stackIndex", context.stackIndex + 1)
                            table.set("stackID", context.stackID.flowString)
                            table.set("presentation", context.presentationStyle.rawValue)
                            table.set("isRootStack", context.isRootStack)
                            table.set("screenDepth", context.screenDepth)
                            table.set("isRootScreen", context.isRootScreen)
                            if let tab = context.tab { table.set("tab", tab) }
                            table.setPushed("rootRoute") { Self.push(root.flowRoute, on: writer) }
                            table.setPushed("screenRoute") { Self.push(screen.flowRoute, on: writer) }
                        }
                        writer.push(retry)
                    },
                    results: { results throws(FlowScriptError) in (try results.value(at: 1), try results.value(at: 2)) }
                )
                break
            } catch {
                let error = set.relocated(error)
                note(FlowScriptDiagnostic(severity: .error, file: error.file, line: error.line, message: "style rule failed: \(error.message)"))
                guard Self.stopsTheWholeCall(error), attempt < styleCount else { return nil }
                retry = true
            }
        }
        if case .table(let failed) = failures { noteStyleFailures(failed.array) }
        guard case .table(let list) = merged else { return nil }
        var attributes = FlowStyleAttributes()
        for case .table(let table) in list.array {
            attributes = attributes.merging(parseStyle(table, hook: hook))
        }
        return attributes
    }

    /// Whether an error stopped the whole style call rather than one rule (a budget's stop,
    /// which a rule's protected call cannot catch).
    private static func stopsTheWholeCall(_ error: FlowScriptError) -> Bool {
        error.kind == .instructionBudget || error.kind == .timeLimit
    }

    /// Notes the style rules that failed: pairs of the rule's registration (`file:line`) and its
    /// error, located where the error says when that is in a rules file, else at the rule.
    private func noteStyleFailures(_ pairs: [LuaValue]) {
        var index = 0
        while index + 1 < pairs.count {
            defer { index += 2 }
            guard case .string(let registration) = pairs[index], case .string(let text) = pairs[index + 1] else { continue }
            let rule = FlowScriptError.splitLocation(registration + ": x")
            var file = rule?.file, line = rule?.line, message = text
            if let located = FlowScriptError.splitLocation(text) {
                message = located.message
                if located.file != FlowRulesPrelude.chunkName {
                    file = located.file
                    line = located.line
                }
            }
            message = Self.synchronous(message, "style rules run synchronously")
            note(FlowScriptDiagnostic(severity: .error, file: file, line: line, message: "style rule failed: \(message)"))
        }
    }

    /// One rule's attributes; what cannot be used is reported as a warning. (Warnings carry no
    /// location: `flowstack check` finds the line that sets the key in the rules files.)
    private func parseStyle(_ table: LuaTable, hook: FlowStyleHook) -> FlowStyleAttributes {
        func warn(_ message: String) {
            note(FlowScriptDiagnostic(severity: .warning, message: message))
        }
        var values: [String: FlowStyleValue] = [:]
        for (key, value) in table.fields {
            guard case .string(let name) = key else { continue }
            guard let converted = FlowScriptValue(value) else {
                warn("\(hook.rawValue) style attribute '\(name)' ignored: \(value.typeName) is not a style value")
                continue
            }
            values[name] = converted.styleValue
        }
        let (attributes, warnings) = FlowStyleAttributes.parse(values)
        for warning in warnings {
            warn("\(hook.rawValue) style attribute \(warning.key) ignored: \(warning.message)")
        }
        return attributes
    }
}
