/// The navigation plan a deep-link handler produced, with where it came from.
///
/// The center runs `commands` as one transaction. A plan that needs several presentations
/// (a sheet over a sheet) is fine: the core produces the nested state at once, and
/// FlowStack stages it for SwiftUI one presentation per update (see `FlowStagingPlanner`).
public struct FlowDeepLinkPlan<Route: Hashable>: Hashable {
    /// The operations to run, in order.
    public var commands: [FlowCommand<Route>]
    /// The dialogs to show after the operations, only if the whole plan applies, through the
    /// dialog rules (`flow.op("showDialog", dialog [, policy])`).
    public var dialogs: [FlowDialogRedirect] = []
    /// The pattern that matched, as written canonically (`/products/:id`), if known.
    public var pattern: String?
    /// The parameters the handler received: path parameters merged over query items.
    public var parameters: [String: String]
    /// Where the handler was registered, if known.
    public var location: FlowLinkSourceLocation?

    /// Creates a plan.
    public init(
        _ commands: [FlowCommand<Route>],
        pattern: String? = nil,
        parameters: [String: String] = [:],
        location: FlowLinkSourceLocation? = nil
    ) {
        self.commands = commands
        self.pattern = pattern
        self.parameters = parameters
        self.location = location
    }

    /// `'/products/:id' (links.lua:3)`, or `the resolver` when the pattern is unknown; for messages.
    var origin: String {
        guard let pattern else { return "the resolver" }
        return "'\(pattern)'" + (location.map { " (\($0))" } ?? "")
    }
}

extension FlowDeepLinkPlan: Sendable where Route: Sendable {}
