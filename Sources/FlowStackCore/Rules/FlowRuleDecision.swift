import Foundation

/// What the rules decide about one request, in script values (see ``FlowRulesHook``).
///
/// The refusing cases are `indirect` so the decision is two words: an allowed navigation (the
/// common answer) then moves no large payload around (measured: about 60 ns less per
/// Lua-guarded push, `flowstack-bench`, paired runs).
public enum FlowRuleDecision: Hashable, Sendable {
    /// Let it run.
    case allow
    /// Refuse it.
    indirect case block(FlowRuleBlock)
    /// Refuse it and run another request instead (itself checked by the rules).
    indirect case redirect(FlowRuleTarget, FlowRuleBlock)
    /// The rules failed, but the failure policy lets the operation run (fail open); the
    /// reason is recorded.
    case allowAfterFailure(String)
}

/// The operation a rule redirects to, in script values: what `flow.redirect(kind, route)` and a
/// deep-link plan's `flow.op(...)` name. A router builds its command with ``command(as:)``.
public struct FlowRuleTarget: Hashable, Sendable, CustomStringConvertible {
    /// The operation's kind.
    public var kind: FlowRuleKind
    /// The route of the kinds that take one.
    public var route: FlowRouteValue?
    /// The routes of `pushMany`.
    public var routes: [FlowRouteValue]
    /// How many screens `pop` removes (at least 1).
    public var count: Int
    /// Whether `popTo` also removes the route it names.
    public var match: FlowPopMatch
    /// Where the rule that asked for it is (`file:line`), for messages.
    public var location: String?
    /// The tab `selectTab` selects.
    public var tab: String?

    /// Creates a target; a kind that needs a route gets it in `route` (`routes` for `pushMany`).
    public init(
        _ kind: FlowRuleKind, route: FlowRouteValue? = nil, routes: [FlowRouteValue] = [], count: Int = 1,
        match: FlowPopMatch = .exclusive, location: String? = nil
    ) {
        self.kind = kind
        self.route = route
        self.routes = routes
        self.count = count
        self.match = match
        self.location = location
        self.tab = nil
    }

    /// A `selectTab` target: selects the tab `name`.
    public static func selectTab(_ name: String, location: String? = nil) -> FlowRuleTarget {
        var target = FlowRuleTarget(.selectTab, location: location)
        target.tab = name
        return target
    }

    /// The target of a typed command (what a Swift rule redirects to).
    public init<Route: FlowRouteConvertible>(_ command: FlowCommand<Route>) {
        let kind = FlowRuleKind(command)
        var count = 1
        var match = FlowPopMatch.exclusive
        var route: FlowRouteValue?
        switch command.operation {
        case .pop(let popped, _): count = popped
        case .popTo(let screen, let popMatch, _):
            route = screen.flowRoute
            match = popMatch
        case .setRoot(let screen), .push(let screen, _), .pushRemovingPrevious(let screen, _),
             .replaceCurrent(let screen, _), .replacePath(let screen, _, _), .present(let screen, _):
            route = screen.flowRoute
        case .popToRoot, .dismiss, .dismissAll:
            break
        }
        self.init(
            kind, route: kind == .pushMany ? nil : route, routes: (command.batch ?? []).map(\.flowRoute),
            count: count, match: match)
        tab = command.tab
    }

    /// `push detail{id=42}`, `pop 2`, `dismiss`.
    public var description: String {
        switch kind {
        case .pushMany: return "pushMany \(routes.map(\.description).joined(separator: ", "))"
        case .pop: return "pop \(count)"
        case .selectTab: return "selectTab \(tab ?? "?")"
        default: return route.map { "\(kind.rawValue) \($0)" } ?? kind.rawValue
        }
    }

    /// The command this target names, on the front-most stack, in the app's route type.
    ///
    /// - Throws: ``FlowRouteConversionError`` when a route does not fit `Route` or a kind that
    ///   needs a route has none.
    public func command<Route: FlowRouteConvertible>(as type: Route.Type) throws -> FlowCommand<Route> {
        func screen() throws -> Route {
            guard let route else { throw FlowRouteConversionError("'\(kind.rawValue)' needs a route") }
            return try Route(flowRoute: route)
        }
        switch kind {
        case .setRoot: return FlowCommand(.setRoot(try screen()))
        case .push: return FlowCommand(.push(try screen(), target: .active))
        case .pushMany:
            guard let command = FlowCommand.pushMany(try routes.map { try Route(flowRoute: $0) }, target: .active) else {
                throw FlowRouteConversionError("'pushMany' needs a non-empty list of routes")
            }
            return command
        case .pushRemovingPrevious: return FlowCommand(.pushRemovingPrevious(try screen(), target: .active))
        case .replaceCurrent: return FlowCommand(.replaceCurrent(try screen(), target: .active))
        case .replacePath: return FlowCommand(.replacePath(root: try screen(), path: [], target: .active))
        case .pop: return FlowCommand(.pop(count: max(1, count), target: .active))
        case .popToRoot: return FlowCommand(.popToRoot(target: .active))
        case .popTo: return FlowCommand(.popTo(try screen(), match: match, target: .active))
        case .sheet: return FlowCommand(.present(try screen(), style: .sheet))
        case .fullScreenCover: return FlowCommand(.present(try screen(), style: .fullScreenCover))
        case .dismiss: return FlowCommand(.dismiss(target: .active))
        case .dismissAll: return FlowCommand(.dismissAll)
        case .selectTab:
            guard let tab else { throw FlowRouteConversionError("'selectTab' needs a tab name") }
            return FlowCommand.selectTab(tab)
        }
    }
}
