import Foundation

/// A complete navigation request: the operation plus what it needs to run.
///
/// `FlowOperation` is what preconditions see (FlowStack's shape); a command adds the initial path
/// of a presentation or a new root, presentation options, and batches (`push(contentsOf:)`, which
/// the rules see as one `pushMany`). Rules redirect to commands, and deep-link plans are lists of
/// them.
public struct FlowCommand<Route: Hashable>: Hashable {
    /// The operation (for a batch, a push of the first route).
    public var operation: FlowOperation<Route> {
        didSet { shape = FlowOperationShape(operation) }
    }
    /// The operation's kind, target and count, read without copying the operation (see
    /// `FlowOperationShape`); set only by `operation`'s observer and the initializers.
    @usableFromInline package internal(set) var shape: FlowOperationShape
    /// The routes of a `push(contentsOf:)` batch, or `nil`.
    public var batch: [Route]?
    /// The initial path of `setRoot` or a presentation.
    public var path: [Route]
    /// The options of a presentation.
    public var options: FlowPresentationOptions
    /// Whether `setRoot` gives the root a fresh identity when the route is unchanged. When false,
    /// a `replacePath` with an unchanged root keeps the root's identity and the identities of the
    /// screens the new path shares with the old one (how a path change made by the UI is applied).
    public var refreshIfSameRoute: Bool
    /// The tab a tab selection selects (`selectTab`), or `nil` for every other command. A tab
    /// selection's `operation` is `.popToRoot(target: .root)`: `FlowOperation` is FlowStack's
    /// closed enum, so the tab is named here (see `FlowRouter.selectTab(named:)`).
    public var tab: String?

    /// Creates a command from an operation.
    @inlinable
    public init(
        _ operation: FlowOperation<Route>,
        path: [Route] = [],
        options: FlowPresentationOptions = .init(),
        refreshIfSameRoute: Bool = true
    ) {
        self.operation = operation
        self.shape = FlowOperationShape(operation)
        self.batch = nil
        self.path = path
        self.options = options
        self.refreshIfSameRoute = refreshIfSameRoute
        self.tab = nil
    }

    /// A tab selection: selects the tab `name` (re-selecting the selected tab pops it to its root).
    public static func selectTab(_ name: String) -> FlowCommand {
        var command = FlowCommand(.popToRoot(target: .root))
        command.tab = name
        return command
    }

    /// A `push(contentsOf:)` batch (`pushMany` to the rules); `nil` when `routes` is empty.
    public static func pushMany(_ routes: [Route], target: FlowStackTarget = .active) -> FlowCommand? {
        guard let first = routes.first else { return nil }
        var command = FlowCommand(.push(first, target: target))
        command.batch = routes
        return command
    }

    /// The kind's name as rules scripts see it (`push`, `pushMany`, `sheet`, `fullScreenCover`, ...).
    @inlinable
    public var kindName: String {
        FlowRuleKind(self).rawValue
    }

    /// The routes the command navigates to: what route guards look at.
    @inlinable
    public var routes: [Route] {
        batch ?? operation.routes
    }

    /// The operations Swift preconditions see: one per pushed route for a batch.
    public var operations: [FlowOperation<Route>] {
        guard let batch, let target = operation.target else { return [operation] }
        return batch.map { .push($0, target: target) }
    }

    /// A one-line description for reasons and redirect chains, such as `push detail`.
    public var summary: String {
        if let tab { return "selectTab \(tab)" }
        let names = routes.map { String(describing: $0) }
        return names.isEmpty ? kindName : "\(kindName) \(names.joined(separator: ", "))"
    }
}

extension FlowCommand: Codable where Route: Codable {
    /// What a command is written as: its fields but the shape, which the operation gives.
    private struct Fields: Codable {
        let operation: FlowOperation<Route>
        let batch: [Route]?
        let path: [Route]
        let options: FlowPresentationOptions
        let refreshIfSameRoute: Bool
        let tab: String?
    }

    /// Decodes a command (the shape is derived from the operation, not stored).
    public init(from decoder: any Decoder) throws {
        let fields = try Fields(from: decoder)
        self.init(fields.operation, path: fields.path, options: fields.options, refreshIfSameRoute: fields.refreshIfSameRoute)
        batch = fields.batch
        tab = fields.tab
    }

    /// Encodes a command's fields (the operation, batch, path, options, refreshIfSameRoute, tab).
    public func encode(to encoder: any Encoder) throws {
        try Fields(
            operation: operation, batch: batch, path: path, options: options, refreshIfSameRoute: refreshIfSameRoute, tab: tab
        ).encode(to: encoder)
    }
}
extension FlowCommand: Sendable where Route: Sendable {}
