import FlowLua
import FlowStackCore
import Foundation

/// Dialogs in the rules: the dialog guards (`flow.dialog_guard`), a navigation
/// answered with a dialog (`flow.redirect("dialog", ...)`), and the checks of dialog ids.
extension FlowRulesEngine {
    /// Runs the dialog guards of a dialog about to be shown (the prelude's `decideDialog`),
    /// under the same instruction and memory budgets and failure policy as navigation rules.
    ///
    /// A guard gets `(dialog, stacks, ctx)`: a read-only `{ id, policy, source, ...payload }`,
    /// the lazy read-only stacks, and `ctx = { dialog, queuedDialogs, generation }`. Dialog
    /// guards run synchronously: asynchronous host functions are refused in them.
    public func decideDialog(_ request: FlowDialogRuleRequest, stacks: any FlowRuleStacks) -> FlowDialogRuleDecision {
        guard let set = ruleSet, set.dialogGuardNames.contains(request.dialog.id) || set.dialogGuardNames.contains("*") else {
            return .show
        }
        let snapshot = nextSnapshot
        nextSnapshot += 1
        snapshots[snapshot] = stacks
        set.beginCall()
        experimentState.elsewhere = "dialog"
        defer {
            snapshots[snapshot] = nil
            set.endCall()
            experimentState.elsewhere = "rules"
        }
        var view = LuaTable()
        for (key, value) in request.dialog.fields ?? [:] { view[key] = value.luaValue }
        view["id"] = .string(request.dialog.id)
        view["policy"] = .string(request.policy.rawValue)
        view["source"] = .string(request.source.rawValue)
        var context = LuaTable()
        if let visible = request.visibleDialog { context["dialog"] = .string(visible) }
        context["queuedDialogs"] = .integer(request.queuedDialogCount)
        context["generation"] = .integer(generation)
        let front = stacks.screens(stacks.count) ?? 0
        let summary = "dialog '\(request.dialog.id)'"
        let results: [LuaValue]
        set.vm.noteStyleRulesRunning()
        do {
            results = try set.vm.call(
                set.dialogFunction,
                [.table(view), .integer(snapshot), .integer(stacks.count), .integer(front), .table(context)])
        } catch {
            return dialogFailure(Self.synchronous(set.relocated(error), "dialog rules run synchronously (for showGlobalDialogAsync too)"), summary: summary)
        }
        guard case .integer(let verdict)? = results.first, verdict != 0 else { return .show }
        let location: String? = if results.count > 2, case .string(let text) = results[2] { text } else { nil }
        onDecidingRule?(location)
        var reason: String? = if results.count > 1, case .string(let text) = results[1] { FlowScriptText.bounded(text) } else { nil }
        if verdict == 1 {
            return .refuse(FlowRuleBlock(stage: .guard, reason: reason ?? "refused by the dialog guard at \(location ?? "an unknown location")"))
        }
        do throws(FlowScriptError) {
            let target = try dialogTarget(results.count > 3 ? results[3] : .nil, policy: results.count > 4 ? results[4] : .nil, location: location)
            if reason == nil {
                reason = "the dialog guard at \(location ?? "an unknown location") showed '\(target.dialog.id)' (\(target.policy.rawValue)) instead"
            }
            return .showInstead(target, FlowRuleBlock(stage: .guard, reason: reason, location: location))
        } catch {
            return dialogFailure(error, summary: summary)
        }
    }

    /// The decision for `flow.redirect("dialog", dialog [, reason [, policy]])` from a
    /// precondition or guard: the navigation is blocked and the dialog shown.
    func dialogBlock(_ route: LuaValue, block: FlowRuleBlock, location: String?) throws(FlowScriptError) -> FlowRuleBlock {
        guard case .table(let table) = route else {
            throw located("a dialog redirect must be made with flow.redirect(\"dialog\", dialog [, reason [, policy]])", location)
        }
        let target = try dialogTarget(table.fields["dialog"] ?? .nil, policy: table.fields["policy"] ?? .nil, location: location)
        var block = block
        if block.reason == nil { block.reason = "answered by \(location ?? "a rule") with the dialog '\(target.dialog.id)'" }
        block.dialog = target
        return block
    }

    /// A dialog and policy a rule gave, checked (and the dialog id against the manifest).
    func dialogTarget(_ dialog: LuaValue, policy: LuaValue, location: String?) throws(FlowScriptError) -> FlowDialogRedirect {
        let value: FlowDialogValue
        do {
            value = try FlowDialogValue(lua: dialog)
        } catch {
            throw located("flow.redirect(\"dialog\", ...): \(error.message)", location)
        }
        if let problem = dialogProblem(value.id) { throw located(problem, location) }
        switch policy {
        case .nil:
            return FlowDialogRedirect(dialog: value, policy: .replace)
        case .string(let name):
            guard let parsed = FlowDialogPolicy(rawValue: name) else {
                throw located("unknown dialog policy '\(name)'; policies are \(FlowDialogPolicy.allCases.map(\.rawValue).joined(separator: ", "))", location)
            }
            return FlowDialogRedirect(dialog: value, policy: parsed)
        default:
            throw located("a dialog policy must be a string, got \(policy.typeName)", location)
        }
    }

    /// The problem with a dialog id the manifest does not declare, or `nil`.
    func dialogProblem(_ id: String) -> String? {
        guard let manifest = configuration.manifest, !manifest.dialogs.isEmpty else { return nil }
        return manifest.problem(withDialog: id)
    }

    /// `__flow_native.dialogProblem(id)`: the prelude's check of dialog ids at registration.
    func registerDialogNative(in vm: LuaVM) throws(FlowScriptError) {
        try vm.register("__flow_native.dialogProblem", returning: { [unowned self] arguments in
            [self.dialogProblem(try arguments.string(at: 1)).map(LuaValue.string) ?? .nil]
        })
    }

    /// The decision for a failing dialog rule, by the failure policy.
    func dialogFailure(_ error: FlowScriptError, summary: String) -> FlowDialogRuleDecision {
        failsOpen(error, rule: "dialog rule", summary: summary, refused: "refused", allowed: "shown")
            ? .showAfterFailure(error.description) : .refuse(FlowRuleBlock(stage: .error, reason: error.description))
    }

    /// A deep-link plan step `flow.op("showDialog", dialog [, policy])`.
    func planDialog(_ op: LuaTable, context: String?) throws(FlowScriptError) -> FlowDialogRedirect {
        try dialogTarget(op.fields["dialog"] ?? .nil, policy: op.fields["policy"] ?? .nil, location: context)
    }
}
