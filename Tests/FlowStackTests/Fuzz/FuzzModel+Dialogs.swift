import FlowStackCore
import Foundation

/// The model's dialogs and transactions.
extension FuzzModel {
    // MARK: Dialogs

    /// `showGlobalDialog`; returns whether it was shown or queued.
    mutating func show(_ dialog: String, policy: FlowDialogPolicy) -> Bool {
        var taken = true
        switch policy {
        case .replace:
            queue = []
            self.dialog = dialog
        case .replaceKeepingQueue:
            self.dialog = dialog
        case .queue:
            if self.dialog == nil { self.dialog = dialog } else { queue.append(dialog) }
        case .ignoreIfVisible:
            if self.dialog == nil { self.dialog = dialog } else { taken = false }
        }
        _ = record(taken ? .applied : .ignored, .code)
        return taken
    }

    /// `hideGlobalDialog`: the next queued dialog becomes visible.
    mutating func hide(source: FlowOperationSource) {
        let had = dialog != nil
        dialog = queue.isEmpty ? nil : queue.removeFirst()
        _ = record(had ? .applied : .ignored, source)
    }

    /// `clearGlobalDialogs`.
    mutating func clearDialogs() {
        let had = dialog != nil || !queue.isEmpty
        dialog = nil
        queue = []
        _ = record(had ? .applied : .ignored, .code)
    }

    // MARK: Transactions

    /// Starts a transaction, or joins the running one; returns whether it started one.
    mutating func beginTransaction() -> Bool {
        guard transaction == nil else { return false }
        transaction = ModelTransaction(saved: (stacks, rootID, dialog, queue))
        return true
    }

    /// Ends the outermost transaction: keeps or undoes its changes and records its entries.
    /// Returns the index of the failed step, if any.
    mutating func endTransaction(threw: Bool) -> Int? {
        guard let finished = transaction else { return nil }
        transaction = nil
        if !threw, finished.failedIndex == nil {
            recorded += finished.entries
            return nil
        }
        (stacks, rootID, dialog, queue) = finished.saved
        if !threw, let entry = finished.failedEntry { recorded.append(entry) }
        return finished.failedIndex
    }
}
