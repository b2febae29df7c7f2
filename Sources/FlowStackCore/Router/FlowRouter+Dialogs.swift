import Foundation

/// The global dialog: one visible dialog above every stack, and a queue behind it.
extension FlowRouter {
    /// Shows a dialog by `policy`; returns whether it became visible or was queued.
    @discardableResult
    public func showGlobalDialog(_ dialog: Dialog, policy: FlowDialogPolicy = .replace) -> Bool {
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
            status: taken ? .applied : .ignored, source: .code
        )
        return taken
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
