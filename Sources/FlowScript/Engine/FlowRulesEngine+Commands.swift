import FlowLua
import FlowStackCore
import Foundation

extension FlowRulesEngine {
    /// A script route value, checked against the manifest.
    package func routeValue(from value: LuaValue, context: String?) throws(FlowScriptError) -> FlowRouteValue {
        let routeValue: FlowRouteValue
        do {
            routeValue = try FlowRouteValue(lua: value)
        } catch {
            throw located(error.message, context)
        }
        if let manifest = configuration.manifest, !manifest.routes.isEmpty, let problem = manifest.problem(with: routeValue) {
            throw located(problem, context)
        }
        return routeValue
    }

    /// The operation a script asks for (`flow.redirect` or a deep-link plan's `flow.op`), its
    /// routes checked against the manifest; the router builds its command from it.
    package func target(
        kind name: String, route: LuaValue, count: Int?, match: String?, context: String?
    ) throws(FlowScriptError) -> FlowRuleTarget {
        guard let kind = FlowRuleKind(rawValue: name) else { throw located("unknown operation kind '\(name)'", context) }
        var target = FlowRuleTarget(kind, count: max(1, count ?? 1), match: match == "inclusive" ? .inclusive : .exclusive, location: context)
        switch kind {
        case .pop, .popToRoot, .dismiss, .dismissAll:
            break
        case .selectTab:
            guard case .string(let tab) = route, !tab.isEmpty else { throw located("'selectTab' needs a tab name", context) }
            if let manifest = configuration.manifest, !manifest.tabs.isEmpty, let problem = manifest.problem(withTab: tab) {
                throw located(problem, context)
            }
            target.tab = tab
        case .pushMany:
            guard case .table(let list) = route, !list.array.isEmpty else { throw located("'pushMany' needs a non-empty list of routes", context) }
            for item in list.array { target.routes.append(try routeValue(from: item, context: context)) }
        default:
            if case .nil = route { throw located("'\(name)' needs a route", context) }
            target.route = try routeValue(from: route, context: context)
        }
        return target
    }

    /// The command a target names in the app's route type.
    package func command(_ target: FlowRuleTarget) throws(FlowScriptError) -> FlowCommand<Route> {
        do {
            return try target.command(as: Route.self)
        } catch {
            throw located("cannot build the app's route from \(target.route.map(String.init(describing:)) ?? target.description): \(error)", target.location)
        }
    }

    func located(_ message: String, _ context: String?) -> FlowScriptError {
        guard let context, let split = FlowScriptError.splitLocation(context + ": x") else {
            return FlowScriptError(kind: .typeError, message: message)
        }
        return FlowScriptError(kind: .typeError, file: split.file, line: split.line, message: message)
    }

    /// One `flow.op(kind, ...)` step of a plan a rule returned (a deep link's, a facts rule's)
    /// as a command; `plan` names the plan in errors (`"a deep-link plan"`).
    func planStep(_ op: LuaTable, kind: String, plan: String, context: String?) throws(FlowScriptError) -> FlowCommand<Route> {
        var count: Int?
        if let value = op.fields["count"] {
            // A count that is not a whole number of at least 1 is an error, never rounded.
            guard case .integer(let whole) = value, whole >= 1 else {
                throw located("\(plan)'s \(kind) count must be a whole number of at least 1, got \(value)", context)
            }
            count = whole
        }
        var match: String?
        if case .string(let value)? = op.fields["match"] { match = value }
        let route = op.fields["route"] ?? op.fields["routes"] ?? op.fields["tab"] ?? .nil
        return try command(target(kind: kind, route: route, count: count, match: match, context: context))
    }
}
