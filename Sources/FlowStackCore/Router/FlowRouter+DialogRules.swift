import Foundation

/// Dialogs through the rules (issue 21): every dialog shown goes through the installed hook's
/// `decideDialog` when the router's dialog type converts (`FlowDialogConvertible`); a rule may
/// refuse it or show another instead, and a navigation may be answered with a dialog.
extension FlowRouter {
    /// What became of one dialog request.
    struct DialogOutcome {
        /// Whether the dialog (or the one shown instead) became visible or was queued.
        var shown: Bool
        /// Why not, or the failure a fail-open policy let through.
        var reason: String?
    }

    /// The dialog as rules see it, or `nil` when the dialog type does not convert.
    func ruleDialog(_ dialog: Dialog) -> FlowDialogValue? {
        if let value = dialog as? FlowDialogValue { return value }
        return (dialog as? any FlowDialogConvertible)?.flowDialog
    }

    /// The app's dialog a rule named.
    func appDialog(_ value: FlowDialogValue) throws -> Dialog {
        if let dialog = value as? Dialog { return dialog }
        guard let type = Dialog.self as? any FlowDialogConvertible.Type else {
            throw FlowDialogConversionError(
                "the router's dialog type \(Dialog.self) does not conform to FlowDialogConvertible, so rules cannot show '\(value.id)'")
        }
        guard let dialog = try type.init(flowDialog: value) as? Dialog else {
            throw FlowDialogConversionError("\(type) built from '\(value.id)' is not a \(Dialog.self)")
        }
        return dialog
    }

    /// Shows a dialog through the dialog rules: asks the hook (unless `askRules` is false, or
    /// no hook is installed, or the dialog does not convert), follows a rule's "show this
    /// instead" (each one asked again, up to `maximumRedirects`; the same id with another
    /// policy is shown without asking), and records every request in the history.
    @discardableResult
    func requestDialog(
        _ dialog: Dialog, policy: FlowDialogPolicy, source: FlowDialogSource,
        chain: [FlowDialogValue] = [], askRules: Bool = true
    ) -> DialogOutcome {
        let value = ruleDialog(dialog)
        // A dialog requested while a rule decides is refused, as navigation is.
        if isDeciding || (decidingTask != nil && decidingTask == FlowSerialQueue.currentTask) {
            let reason = "a dialog was requested while a rule was deciding; rules show dialogs only through flow.redirect(\"dialog\", ...)"
            willChange()
            recordDialogRequest(dialog, policy: policy, status: .failed, reason: reason, source: source)
            return DialogOutcome(shown: false, reason: reason)
        }
        guard askRules, let link = rules, let value else {
            return DialogOutcome(shown: applyDialog(dialog, policy: policy, source: source, reason: nil), reason: nil)
        }
        let request = FlowDialogRuleRequest(
            dialog: value, policy: policy, source: source, visibleDialog: dialogKey(globalDialog),
            queuedDialogCount: dialogQueue.count, redirectChain: chain)
        isDeciding = true
        let decision = link.hook.decideDialog(request, stacks: FlowRouterStacks(encode: link.encode, stacks: _stacks))
        isDeciding = false
        willChange()
        switch decision {
        case .show:
            return DialogOutcome(shown: applyDialog(dialog, policy: policy, source: source, reason: nil), reason: nil)
        case .showAfterFailure(let reason):
            return DialogOutcome(shown: applyDialog(dialog, policy: policy, source: source, reason: reason), reason: reason)
        case .refuse(let block):
            let reason = block.reason ?? "refused by a dialog rule"
            recordDialogRequest(dialog, policy: policy, status: block.stage.status, reason: reason, source: source)
            return DialogOutcome(shown: false, reason: reason)
        case .showInstead(let other, let block):
            let steps = chain + [value, other.dialog]
            if chain.count + 1 > Self.maximumRedirects {
                let reason = "dialog redirect loop: more than \(Self.maximumRedirects) redirects: "
                    + steps.map(\.id).joined(separator: " → ") + "; make one of these dialog rules show its dialog"
                recordDialogRequest(dialog, policy: policy, status: .failed, reason: reason, source: source)
                return DialogOutcome(shown: false, reason: reason)
            }
            let instead: Dialog
            do {
                instead = try appDialog(other.dialog)
            } catch {
                let reason = "\(block.reason.map { "\($0): " } ?? "")cannot show '\(other.dialog.id)' instead: \(error)"
                recordDialogRequest(dialog, policy: policy, status: .failed, reason: reason, source: source)
                return DialogOutcome(shown: false, reason: reason)
            }
            let reason = block.reason ?? "a dialog rule showed '\(other.dialog.id)' (\(other.policy.rawValue)) instead"
            recordDialogRequest(dialog, policy: policy, status: .redirected, reason: reason, source: source)
            let followed = requestDialog(
                instead, policy: other.policy, source: .rules, chain: chain + [value],
                askRules: other.dialog.id != value.id)
            return DialogOutcome(shown: followed.shown, reason: followed.shown ? nil : (followed.reason ?? reason))
        }
    }

    /// A navigation a rule answered with a dialog: records it blocked with the rule's reason,
    /// then shows the dialog through the dialog rules (source `rules`). Inside a transaction (a
    /// deep link's plan) the dialog is not shown: the result holds it, not applied.
    @usableFromInline
    func answerWithDialog(
        _ command: FlowCommand<Route>, status: FlowOperationStatus, reason: String?, dialog: FlowDialogRedirect,
        source: FlowOperationSource, previous: [FlowStackState<Route>], generation: Int? = nil
    ) -> FlowOperationResult<Route> {
        let reason = reason ?? "answered with the dialog '\(dialog.dialog.id)'"
        var result = record(command, source: source, status: status, reason: reason, previous: previous, generation: generation)
        guard transactionState == nil else {
            result.dialogRedirect = FlowDialogRedirectResult(
                dialog: dialog.dialog, policy: dialog.policy, applied: false,
                reason: "not shown inside a transaction; a deep link shows it once its plan is rolled back")
            return result
        }
        result.dialogRedirect = showRuleDialog(dialog)
        return result
    }

    /// Shows a dialog a rule or a deep link asked for, through the dialog rules.
    func showRuleDialog(_ dialog: FlowDialogRedirect, source: FlowDialogSource = .rules) -> FlowDialogRedirectResult {
        let outcome: DialogOutcome
        do {
            outcome = requestDialog(try appDialog(dialog.dialog), policy: dialog.policy, source: source)
        } catch {
            willChange()
            let reason = "cannot show '\(dialog.dialog.id)': \(error)"
            recordDialog(
                FlowDialogChange(action: .show(dialog.policy), dialog: dialog.dialog.id, visibleAfter: dialogKey(globalDialog), queuedAfter: dialogQueue.count),
                status: .failed, source: source.operationSource, reason: reason)
            outcome = DialogOutcome(shown: false, reason: reason)
        }
        return FlowDialogRedirectResult(dialog: dialog.dialog, policy: dialog.policy, applied: outcome.shown, reason: outcome.reason)
    }

    /// Records a dialog request that changed nothing.
    func recordDialogRequest(
        _ dialog: Dialog, policy: FlowDialogPolicy, status: FlowOperationStatus, reason: String, source: FlowDialogSource
    ) {
        recordDialog(
            FlowDialogChange(action: .show(policy), dialog: dialogKey(dialog), visibleAfter: dialogKey(globalDialog), queuedAfter: dialogQueue.count),
            status: status, source: source.operationSource, reason: reason)
    }

    /// Shows a dialog by `policy` (the rules allowed it) and records it; returns whether it
    /// became visible or was queued.
    func applyDialog(_ dialog: Dialog, policy: FlowDialogPolicy, source: FlowDialogSource, reason: String?) -> Bool {
        willChange()
        var taken = true
        switch policy {
        case .replace:
            dialogQueue.removeAll()
            globalDialog = dialog
        case .replaceKeepingQueue:
            globalDialog = dialog
        case .queue:
            if globalDialog == nil { globalDialog = dialog } else { dialogQueue.append(dialog) }
        case .ignoreIfVisible:
            if globalDialog == nil { globalDialog = dialog } else { taken = false }
        }
        recordDialog(
            FlowDialogChange(action: .show(policy), dialog: dialogKey(dialog), visibleAfter: dialogKey(globalDialog), queuedAfter: dialogQueue.count),
            status: taken ? .applied : .ignored, source: source.operationSource, reason: reason)
        return taken
    }
}
