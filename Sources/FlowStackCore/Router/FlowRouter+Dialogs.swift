import Foundation

/// The global dialog: one visible dialog above every stack, and a queue behind it. Every dialog
/// shown goes through the installed hook's `decideDialog` when the router's dialog type converts
/// (`FlowDialogConvertible`); a rule may refuse it or show another instead, and a navigation may
/// be answered with a dialog. The state changes are `FlowRouterState`'s (`showDialog`,
/// `hideDialog`, `clearDialogs`); every request is committed through `commitDialog` (the
/// pipeline's: one willChange, the change, one entry recorded by `store`).

extension FlowRouter {
    /// Shows a dialog by `policy` (FlowStack's signature: nothing is returned, so
    /// `router.showGlobalDialog` stores as `(Dialog, FlowDialogPolicy) -> Void`).
    ///
    /// With rules installed and a dialog type that converts (`FlowDialogConvertible`), the
    /// dialog rules decide first, and a rule may show another dialog instead (see
    /// `requestDialog` below). A dialog requested while a rule decides is refused. To
    /// know whether it became visible or was queued, call `requestGlobalDialog(_:policy:)` or
    /// read the last history entry.
    public func showGlobalDialog(_ dialog: Dialog, policy: FlowDialogPolicy = .replace) {
        requestDialog(dialog, policy: policy, source: .code)
    }

    /// Shows a dialog exactly as `showGlobalDialog(_:policy:)` does and returns whether it
    /// became visible or was queued: `false` when a rule refused it (the history entry has the
    /// reason) or `.ignoreIfVisible` found a dialog showing.
    @discardableResult
    public func requestGlobalDialog(_ dialog: Dialog, policy: FlowDialogPolicy = .replace) -> Bool {
        requestDialog(dialog, policy: policy, source: .code).shown
    }

    /// Shows a dialog as one turn of the async queue, after the navigations queued before it;
    /// returns whether it became visible or was queued (see `showGlobalDialog(_:policy:)`).
    @discardableResult
    public func showGlobalDialogAsync(_ dialog: Dialog, policy: FlowDialogPolicy = .replace) async -> Bool {
        await queued { self.requestDialog(dialog, policy: policy, source: .code).shown }
    }

    /// The person asked for a dialog (reported by the host): shown like `showGlobalDialog`,
    /// the dialog rules seeing `source = "user"`, recorded with source `user`.
    @discardableResult
    public func userDidShowGlobalDialog(_ dialog: Dialog, policy: FlowDialogPolicy = .replace) -> Bool {
        requestDialog(dialog, policy: policy, source: .user).shown
    }

    /// Hides the visible dialog; the next queued one, if any, becomes visible.
    public func hideGlobalDialog() {
        hideDialog(source: .code)
    }

    /// The person closed the visible dialog (reported by the UI layer): hides it like
    /// `hideGlobalDialog()`, recorded with source `user`. A name of its own keeps
    /// `router.hideGlobalDialog` an unambiguous method reference.
    public func userDidHideGlobalDialog() {
        hideDialog(source: .user)
    }

    func hideDialog(source: FlowOperationSource) {
        commitDialog(.hide, dialog: dialogKey(storage.state.globalDialog), source: source) { $0.hideDialog() }
    }

    /// Removes the visible dialog and every queued one.
    public func clearGlobalDialogs() {
        commitDialog(.clear, dialog: nil, source: .code) { $0.clearDialogs() }
    }
}

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
        if isRuleDeciding {
            let reason = "a dialog was requested while a rule was deciding; rules show dialogs only through flow.redirect(\"dialog\", ...)"
            recordDialogRequest(dialog, policy: policy, status: .failed, reason: reason, source: source)
            return DialogOutcome(shown: false, reason: reason)
        }
        guard askRules, let link = rules, let value else {
            return DialogOutcome(shown: applyDialog(dialog, policy: policy, source: source, reason: nil), reason: nil)
        }
        let request = FlowDialogRuleRequest(
            dialog: value, policy: policy, source: source, visibleDialog: dialogKey(storage.state.globalDialog),
            queuedDialogCount: storage.state.dialogQueue.count, redirectChain: chain)
        isDeciding = true
        let decision = link.hook.decideDialog(request, stacks: FlowRouterStacks(encode: link.encode, stacks: storage.state.stacks))
        isDeciding = false
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
                let reason = "\(block.location.map { "\($0): " } ?? "")dialog redirect loop: more than \(Self.maximumRedirects) redirects: "
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
        source: FlowOperationSource, generation: Int? = nil
    ) -> FlowOperationResult<Route> {
        let reason = reason ?? "answered with the dialog '\(dialog.dialog.id)'"
        var result: FlowOperationResult<Route> = commit(command, source: source, status: status, reason: reason, generation: generation)
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
            let reason = "cannot show '\(dialog.dialog.id)': \(error)"
            commitDialog(.show(dialog.policy), dialog: dialog.dialog.id, source: source.operationSource, refused: .failed, reason: reason)
            outcome = DialogOutcome(shown: false, reason: reason)
        }
        return FlowDialogRedirectResult(dialog: dialog.dialog, policy: dialog.policy, applied: outcome.shown, reason: outcome.reason)
    }

    /// Records a dialog request that changed nothing.
    func recordDialogRequest(
        _ dialog: Dialog, policy: FlowDialogPolicy, status: FlowOperationStatus, reason: String, source: FlowDialogSource
    ) {
        commitDialog(.show(policy), dialog: dialogKey(dialog), source: source.operationSource, refused: status, reason: reason)
    }

    /// Shows a dialog by `policy` (the rules allowed it) and records it; returns whether it
    /// became visible or was queued.
    func applyDialog(_ dialog: Dialog, policy: FlowDialogPolicy, source: FlowDialogSource, reason: String?) -> Bool {
        commitDialog(.show(policy), dialog: dialogKey(dialog), source: source.operationSource, reason: reason) {
            $0.showDialog(dialog, policy: policy)
        }
    }
}
