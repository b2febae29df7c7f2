import FlowLua
import FlowStackCore
import Foundation

/// The facts rules: what the screens on show become when facts change
/// (`flow.on_facts_changed(function(changed, stacks, ctx) return { flow.op(...) } end)`).
extension FlowRulesEngine {
    /// The plan the facts rules return for a change of the facts `changed` on a router in
    /// `state`: every handler's steps, in registration order, as commands, and its
    /// `showDialog` steps as the dialogs to show once the commands applied. A handler that
    /// fails, or returns what is not a plan, is noted as an error diagnostic (at its
    /// `file:line`) and no step runs.
    ///
    /// A handler gets `changed` (the changed facts' names, each `true`), `stacks` (what is on
    /// screen, as flows' `router.stacks()` shows it: `{ id, index, presentation, routes }`) and
    /// `ctx = { tab, dialog, generation }`, all read-only.
    package func factsPlan<Dialog>(
        changed: Set<String>, state: FlowRouterState<Route, Dialog>, dialog: String?
    ) -> (commands: [FlowCommand<Route>], dialogs: [FlowDialogRedirect]) {
        guard let set = ruleSet, set.factsHandlerCount > 0, !changed.isEmpty else { return ([], []) }
        set.beginCall()
        defer { set.endCall() }
        let names = LuaTable(fields: Dictionary(uniqueKeysWithValues: changed.map { (LuaTableKey.string($0), LuaValue.boolean(true)) }))
        let stacks = LuaTable(array: state.stacks.enumerated().map { index, stack in
            .table(LuaTable(fields: [
                "id": .string(stack.id.uuidString),
                "index": .integer(index + 1),
                "presentation": .string(stack.style.rawValue),
                "routes": .table(LuaTable(array: ([stack.root] + stack.path).map { .table($0.flowRoute.luaTable) })),
            ]))
        })
        var context = LuaTable()
        if let tab = state.selectedTab { context["tab"] = .string(tab) }
        if let dialog { context["dialog"] = .string(dialog) }
        context["generation"] = .integer(generation)
        set.vm.noteStyleRulesRunning()
        do {
            let results = try set.vm.call(set.factsFunction, [.table(names), .table(stacks), .table(context)])
            guard case .table(let steps)? = results.first else { return ([], []) }
            let wheres = results.count > 1 ? results[1].tableValue?.array ?? [] : []
            var commands: [FlowCommand<Route>] = []
            var dialogs: [FlowDialogRedirect] = []
            for (index, step) in steps.array.enumerated() {
                let context: String? = if index < wheres.count, case .string(let text) = wheres[index] { text } else { nil }
                if case .table(let op) = step, case .string("showDialog")? = op.fields["kind"] {
                    dialogs.append(try planDialog(op, context: context))
                } else {
                    commands.append(try factsStep(step, context: context))
                }
            }
            return (commands, dialogs)
        } catch {
            let error = Self.synchronous(set.relocated(error), "flow.on_facts_changed handlers run synchronously")
            note(FlowScriptDiagnostic(
                severity: .error, file: error.file, line: error.line,
                message: "flow.on_facts_changed: \(error.message); no step of its plan ran"))
            return ([], [])
        }
    }

    /// One step of a facts plan, a `flow.op(...)` table, as a command.
    private func factsStep(_ step: LuaValue, context: String?) throws(FlowScriptError) -> FlowCommand<Route> {
        guard case .table(let op) = step, case .string(let kind)? = op.fields["kind"] else {
            throw located("a flow.on_facts_changed plan must be a list of flow.op(kind, route) tables, got \(step.typeName)", context)
        }
        return try planStep(op, kind: kind, plan: "a flow.on_facts_changed plan", context: context)
    }
}
