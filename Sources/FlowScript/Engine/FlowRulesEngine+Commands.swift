import FlowStackCore
import Foundation

extension FlowRulesEngine {
    /// The app route for a script route value, checked against the manifest.
    func route(from value: LuaValue, context: String?) throws(FlowScriptError) -> Route {
        let routeValue = try FlowRouteValue(lua: value)
        if let manifest = configuration.manifest, !manifest.routes.isEmpty, let problem = manifest.problem(with: routeValue) {
            throw located(problem, context)
        }
        do {
            return try Route(flowRoute: routeValue)
        } catch {
            throw located("cannot build the app's route from \(routeValue): \(error)", context)
        }
    }

    /// The command a script asks for (`flow.redirect` or a deep-link plan's `flow.op`).
    func command(
        kind: String, route: LuaValue, count: Int?, target: Int?, match: String?, context: String?
    ) throws(FlowScriptError) -> FlowCommand<Route> {
        func needRoute() throws(FlowScriptError) -> Route {
            if case .nil = route { throw located("'\(kind)' needs a route", context) }
            return try self.route(from: route, context: context)
        }
        let targetStack: FlowStackTarget = .active
        if let target, target != 0 {
            throw located("a target stack index cannot be given here (\(target)); operations apply to the front-most stack", context)
        }
        switch kind {
        case "setRoot": return FlowCommand(.setRoot(try needRoute()))
        case "push": return FlowCommand(.push(try needRoute(), target: targetStack))
        case "pushMany":
            guard case .table(let list) = route, !list.array.isEmpty else { throw located("'pushMany' needs a non-empty list of routes", context) }
            var routes: [Route] = []
            for item in list.array { routes.append(try self.route(from: item, context: context)) }
            return FlowCommand.pushMany(routes, target: targetStack)!
        case "pushRemovingPrevious": return FlowCommand(.pushRemovingPrevious(try needRoute(), target: targetStack))
        case "replaceCurrent": return FlowCommand(.replaceCurrent(try needRoute(), target: targetStack))
        case "replacePath": return FlowCommand(.replacePath(root: try needRoute(), path: [], target: targetStack))
        case "pop": return FlowCommand(.pop(count: max(1, count ?? 1), target: targetStack))
        case "popToRoot": return FlowCommand(.popToRoot(target: targetStack))
        case "popTo": return FlowCommand(.popTo(try needRoute(), match: match == "inclusive" ? .inclusive : .exclusive, target: targetStack))
        case "sheet": return FlowCommand(.present(try needRoute(), style: .sheet))
        case "fullScreenCover": return FlowCommand(.present(try needRoute(), style: .fullScreenCover))
        case "dismiss": return FlowCommand(.dismiss(target: targetStack))
        case "dismissAll": return FlowCommand(.dismissAll)
        default: throw located("unknown operation kind '\(kind)'", context)
        }
    }

    func located(_ message: String, _ context: String?) -> FlowScriptError {
        guard let context, let split = FlowScriptError.splitLocation(context + ": x") else {
            return FlowScriptError(kind: .typeError, message: message)
        }
        return FlowScriptError(kind: .typeError, file: split.file, line: split.line, message: message)
    }
}
