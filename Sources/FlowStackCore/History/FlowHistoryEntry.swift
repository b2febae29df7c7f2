import Foundation

/// A change to the global dialog, as the history records it.
public struct FlowDialogChange: Hashable, Codable, Sendable {
    /// What was asked.
    public enum Action: Hashable, Codable, Sendable {
        /// `showGlobalDialog(_:policy:)`.
        case show(FlowDialogPolicy)
        /// `hideGlobalDialog()`.
        case hide
        /// `clearGlobalDialogs()`.
        case clear
    }

    /// What was asked.
    public let action: Action
    /// The dialog shown (its `id` when `Identifiable`, otherwise its description).
    public let dialog: String?
    /// The visible dialog afterwards.
    public let visibleAfter: String?
    /// The number of queued dialogs afterwards.
    public let queuedAfter: Int
}

/// What a history entry records: a navigation request or a dialog change.
public enum FlowHistoryEvent<Route: Hashable>: Hashable {
    /// A navigation request.
    case navigation(FlowCommand<Route>)
    /// A change of the global dialog.
    case dialog(FlowDialogChange)
}

/// One entry of the router's history.
public struct FlowHistoryEntry<Route: Hashable>: Identifiable {
    @usableFromInline let salt: UInt64
    /// Increasing number, unique for the router's lifetime.
    public let sequence: Int
    /// When it was recorded.
    public let date: Date
    /// What happened.
    public let event: FlowHistoryEvent<Route>
    /// Who asked.
    public let source: FlowOperationSource
    /// What happened, in detail.
    public let status: FlowOperationStatus
    /// Why it was not applied (with `file:line` for script errors), or `nil`.
    public let reason: String?
    /// The rules generation in force (0 without rules).
    public let generation: Int
    /// The experiments the rules deciding it read, experiment → variant (the enrolled ones;
    /// see `FlowRulesHook.takeExperimentReads()`).
    public var experiments: [String: String] { storedExperiments }
    /// `experiments`'s storage.
    @usableFromInline let storedExperiments: [String: String]
    /// The stacks before.
    @inlinable public var previousStacks: [FlowStackState<Route>] { storedPreviousStacks }
    /// `previousStacks`'s storage (taken out of an entry about to be evicted).
    @usableFromInline var storedPreviousStacks: [FlowStackState<Route>]
    /// The stacks after.
    public let newStacks: [FlowStackState<Route>]

    @inlinable
    init(
        salt: UInt64, sequence: Int, date: Date, event: FlowHistoryEvent<Route>, source: FlowOperationSource,
        status: FlowOperationStatus, reason: String?, generation: Int,
        previousStacks: [FlowStackState<Route>], newStacks: [FlowStackState<Route>], experiments: [String: String] = [:]
    ) {
        self.storedExperiments = experiments
        self.salt = salt
        self.sequence = sequence
        self.date = date
        self.event = event
        self.source = source
        self.status = status
        self.reason = reason
        self.generation = generation
        self.storedPreviousStacks = previousStacks
        self.newStacks = newStacks
    }

    /// Moves `previousStacks` out, leaving an empty array: only for an entry about to be evicted
    /// (see `FlowHistory.takeEvictedStacks`).
    @inlinable
    mutating func takePreviousStacks() -> [FlowStackState<Route>] {
        let taken = storedPreviousStacks
        storedPreviousStacks = []
        return taken
    }

    /// FlowStack's three-case summary of `status`.
    public var outcome: FlowOperationOutcome { FlowOperationOutcome(status) }

    /// The entry's identity, derived from the router's random salt and the sequence number.
    public var id: UUID {
        FlowIDGenerator.uuid(salt, UInt64(truncatingIfNeeded: sequence) &* 0x9E37_79B9_7F4A_7C15 ^ salt.byteSwapped)
    }

    /// This entry with another reason and before/after stacks (transactions rewrite the
    /// blocked step this way).
    func rewritten(reason: String?, previousStacks: [FlowStackState<Route>], newStacks: [FlowStackState<Route>]) -> FlowHistoryEntry {
        FlowHistoryEntry(
            salt: salt, sequence: sequence, date: date, event: event, source: source, status: status,
            reason: reason, generation: generation, previousStacks: previousStacks, newStacks: newStacks,
            experiments: storedExperiments
        )
    }

    /// The navigation command, or `nil` for a dialog change.
    public var command: FlowCommand<Route>? {
        if case .navigation(let command) = event { return command }
        return nil
    }

    /// The dialog change, or `nil` for a navigation entry.
    public var dialogChange: FlowDialogChange? {
        if case .dialog(let change) = event { return change }
        return nil
    }
}

/// FlowStack's history record of one navigation operation.
public struct FlowOperationRecord<Route: Hashable>: Identifiable {
    /// The record's identity.
    public let id: UUID
    /// When it was recorded.
    public let date: Date
    /// The operation.
    public let operation: FlowOperation<Route>
    /// The stacks before.
    public let previousStacks: [FlowStackState<Route>]
    /// The stacks after.
    public let newStacks: [FlowStackState<Route>]
    /// What happened, in detail.
    public let status: FlowOperationStatus
    /// Why it was not applied, or `nil`.
    public let reason: String?
    /// Who asked.
    public let source: FlowOperationSource
    /// The history sequence number.
    public let sequence: Int
    /// The rules generation that decided it.
    public let generation: Int

    /// What happened: FlowStack's three-case summary of `status`.
    public var outcome: FlowOperationOutcome { FlowOperationOutcome(status) }

    /// Creates a record with one of FlowStack's three outcomes (FlowStack's initializer); the
    /// fields FlowStack did not have are a code request's, with no reason and no rules.
    public init(
        id: UUID = UUID(),
        date: Date = Date(),
        operation: FlowOperation<Route>,
        previousStacks: [FlowStackState<Route>],
        newStacks: [FlowStackState<Route>],
        outcome: FlowOperationOutcome
    ) {
        self.id = id
        self.date = date
        self.operation = operation
        self.previousStacks = previousStacks
        self.newStacks = newStacks
        status = FlowOperationStatus(outcome)
        reason = nil
        source = .code
        sequence = 0
        generation = 0
    }

    /// The record of one operation of a history entry's command (a `push(contentsOf:)` batch
    /// has one per route, all with the entry's identity).
    init(_ entry: FlowHistoryEntry<Route>, operation: FlowOperation<Route>) {
        id = entry.id
        date = entry.date
        previousStacks = entry.previousStacks
        newStacks = entry.newStacks
        self.operation = operation
        status = entry.status
        reason = entry.reason
        source = entry.source
        sequence = entry.sequence
        generation = entry.generation
    }
}

extension FlowHistoryEvent: Sendable where Route: Sendable {}
extension FlowHistoryEntry: Sendable where Route: Sendable {}
extension FlowOperationRecord: Sendable where Route: Sendable {}
