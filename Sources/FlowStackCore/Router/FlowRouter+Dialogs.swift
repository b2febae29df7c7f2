import Foundation

/// The global dialog: one visible dialog above every stack, and a queue behind it.
extension FlowRouter {
    /// Shows a dialog by `policy` (FlowStack's signature: nothing is returned, so
    /// `router.showGlobalDialog` stores as `(Dialog, FlowDialogPolicy) -> Void`).
    ///
    /// With rules installed and a dialog type that converts (`FlowDialogConvertible`), the
    /// dialog rules decide first, and a rule may show another dialog instead (see
    /// `FlowRouter+DialogRules.swift`). A dialog requested while a rule decides is refused. To
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
        willChange()
        let hidden = dialogKey(globalDialog)
        let hadDialog = globalDialog != nil
        globalDialog = dialogQueue.isEmpty ? nil : dialogQueue.removeFirst()
        recordDialog(
            FlowDialogChange(action: .hide, dialog: hidden, visibleAfter: dialogKey(globalDialog), queuedAfter: dialogQueue.count),
            status: hadDialog ? .applied : .ignored, source: source
        )
    }

    /// Removes the visible dialog and every queued one.
    public func clearGlobalDialogs() {
        willChange()
        let hadAny = globalDialog != nil || !dialogQueue.isEmpty
        dialogQueue.removeAll()
        globalDialog = nil
        recordDialog(
            FlowDialogChange(action: .clear, dialog: nil, visibleAfter: nil, queuedAfter: 0),
            status: hadAny ? .applied : .ignored, source: .code
        )
    }
}
