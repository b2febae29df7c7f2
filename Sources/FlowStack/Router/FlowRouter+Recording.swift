import Foundation

extension FlowRouter {
    /// Records a navigation request's outcome and returns its typed result.
    func record(
        _ command: FlowCommand<Route>,
        source: FlowOperationSource,
        outcome: FlowOperationOutcome,
        reason: String?,
        previous: [FlowStackState<Route>],
        pendingRedirect: FlowCommand<Route>? = nil
    ) -> FlowOperationResult<Route> {
        let generation = rulesHook?.generation ?? 0
        let entry = FlowHistoryEntry(
            id: ids.next(), sequence: nextSequence, date: Date(), event: .navigation(command),
            source: source, outcome: outcome, reason: reason, generation: generation,
            previousStacks: previous, newStacks: stacks
        )
        nextSequence += 1
        store(entry)
        return FlowOperationResult(
            command: command, outcome: outcome, reason: reason, sequence: entry.sequence,
            generation: generation, pendingRedirect: pendingRedirect
        )
    }

    /// Records a dialog change.
    func recordDialog(_ change: FlowDialogChange, outcome: FlowOperationOutcome, source: FlowOperationSource) {
        let entry = FlowHistoryEntry<Route>(
            id: ids.next(), sequence: nextSequence, date: Date(), event: .dialog(change),
            source: source, outcome: outcome, reason: nil, generation: rulesHook?.generation ?? 0,
            previousStacks: stacks, newStacks: stacks
        )
        nextSequence += 1
        store(entry)
    }

    private func store(_ entry: FlowHistoryEntry<Route>) {
        if let transaction = transactionState {
            transaction.entries.append(entry)
        } else {
            history.append(entry)
            didChange(.recorded(entry))
        }
    }

    /// A stable, readable id for a dialog: its `id` when `Identifiable`, else its description.
    func dialogKey(_ dialog: Dialog?) -> String? {
        guard let dialog else { return nil }
        if let identifiable = dialog as? any Identifiable {
            return String(describing: identifiable.id)
        }
        return String(describing: dialog)
    }
}
