import Foundation

extension FlowRouter {
    /// Records a navigation request's outcome and returns its typed result.
    @inlinable
    func record(
        _ command: consuming FlowCommand<Route>,
        source: FlowOperationSource,
        status: FlowOperationStatus,
        reason: String?,
        previous: [FlowStackState<Route>],
        pendingRedirect: FlowCommand<Route>? = nil,
        generation decidedBy: Int? = nil
    ) -> FlowOperationResult<Route> {
        let generation = decidedBy ?? self.generation
        let sequence = nextSequence
        nextSequence = sequence + 1
        store(FlowHistoryEntry(
            salt: idSalt, sequence: sequence, date: Date(), event: .navigation(copy command),
            source: source, status: status, reason: reason, generation: generation,
            previousStacks: previous, newStacks: _stacks
        ))
        return FlowOperationResult(
            command: command, status: status, reason: reason, sequence: sequence,
            generation: generation, pendingRedirect: pendingRedirect
        )
    }

    /// Records an applied command whose result nobody needs: the command moves into the entry.
    @inlinable
    func recordApplied(
        _ command: consuming FlowCommand<Route>, source: FlowOperationSource, reason: String?, previous: [FlowStackState<Route>]
    ) {
        let sequence = nextSequence
        nextSequence = sequence + 1
        store(FlowHistoryEntry(
            salt: idSalt, sequence: sequence, date: Date(), event: .navigation(command),
            source: source, status: .applied, reason: reason, generation: self.generation,
            previousStacks: previous, newStacks: _stacks
        ))
    }

    /// Records a dialog change.
    func recordDialog(_ change: FlowDialogChange, status: FlowOperationStatus, source: FlowOperationSource, reason: String? = nil) {
        let sequence = nextSequence
        nextSequence = sequence + 1
        store(FlowHistoryEntry<Route>(
            salt: idSalt, sequence: sequence, date: Date(), event: .dialog(change),
            source: source, status: status, reason: reason, generation: generation,
            previousStacks: _stacks, newStacks: _stacks
        ))
    }

    /// Keeps an entry: in the running transaction, or in the history. The entry is consumed, so
    /// the common case (no observer) moves it into the history without a copy.
    @inlinable
    func store(_ entry: consuming FlowHistoryEntry<Route>) {
        if let transaction = transactionState {
            transaction.entries.append(entry)
        } else if changeObservers.isEmpty {
            _history.append(entry)
        } else {
            _history.append(copy entry)
            didChange(.recorded(entry))
        }
    }

    /// A stable, readable id for a dialog: its `id` when `Identifiable`, else its description.
    @usableFromInline
    func dialogKey(_ dialog: Dialog?) -> String? {
        guard let dialog else { return nil }
        if let identifiable = dialog as? any Identifiable {
            return String(describing: identifiable.id)
        }
        return String(describing: dialog)
    }
}
