// Small helpers shared by FlowStack's test targets. Not a product: never shipped.
import Foundation
import FlowStackCore

extension FlowRouter {
    /// The outcomes of the navigation entries of the history, oldest first.
    public var navigationOutcomes: [FlowOperationStatus] {
        history.compactMap { $0.command == nil ? nil : $0.status }
    }

    /// The node identities of every stack's root and path, root stack first.
    public var allScreenIDs: [UUID] {
        stacks.flatMap { [$0.rootID] + $0.navigationPath.map(\.id) }
    }
}

extension FlowHistoryEntry {
    /// The navigation operation of this entry, or `nil` for a dialog change.
    public var operation: FlowOperation<Route>? { command?.operation }
}
