import Foundation

/// What a resolver made of a link: a plan to run, a refusal by the policy, or nothing to do.
public enum FlowDeepLinkResolution<Route: Hashable>: Hashable {
    /// A pattern matched and its handler produced this plan.
    case plan(FlowDeepLinkPlan<Route>)
    /// The policy refuses the link's scheme or host; the reason says which and what is allowed.
    case rejected(reason: String)
    /// No pattern matched, or the handler produced no plan; the reason says which.
    case unhandled(reason: String)

    /// Turns a matcher's resolution into a deep-link resolution by asking `makePlan` for the
    /// plan of a match.
    ///
    /// This is the glue every resolver needs, so Swift closures and Lua handlers report the
    /// same reasons: `nil` or an empty plan is `unhandled` ("matched ... but its handler
    /// returned no plan"), and an error thrown by `makePlan` is `unhandled` with the error.
    public init<Handler>(
        _ resolution: FlowLinkResolution<Handler>,
        plan makePlan: (FlowLinkMatch<Handler>) throws -> [FlowCommand<Route>]?
    ) {
        switch resolution {
        case .rejected(let reason):
            self = .rejected(reason: reason)
        case .unhandled(let reason):
            self = .unhandled(reason: reason)
        case .matched(let match):
            let origin = "deep link '\(match.pattern)'" + (match.location.map { " (\($0))" } ?? "")
            let commands: [FlowCommand<Route>]?
            do {
                commands = try makePlan(match)
            } catch {
                self = .unhandled(reason: "\(origin) matched '\(match.request.path)' but its handler failed: \(error)")
                return
            }
            guard let commands, !commands.isEmpty else {
                self = .unhandled(
                    reason: "\(origin) matched '\(match.request.path)' but its handler returned no plan; "
                        + "return a list of operations to handle this link"
                )
                return
            }
            self = .plan(FlowDeepLinkPlan(
                commands, pattern: match.pattern.description, parameters: match.parameters, location: match.location
            ))
        }
    }

    /// The plan, when there is one.
    public var plan: FlowDeepLinkPlan<Route>? {
        if case .plan(let plan) = self { return plan }
        return nil
    }

    /// The reason for a rejected or unhandled link, `nil` for a plan.
    public var reason: String? {
        switch self {
        case .plan: nil
        case .rejected(let reason), .unhandled(let reason): reason
        }
    }
}

extension FlowDeepLinkResolution: Sendable where Route: Sendable {}
