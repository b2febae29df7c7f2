import FlowStackCore
import Foundation

/// A navigation action, with its stack targets still symbolic.
enum FuzzOp: Hashable, CustomStringConvertible {
    case setRoot(FuzzRoute, path: [FuzzRoute], refresh: Bool)
    case push(FuzzRoute, FuzzTarget)
    case pushMany([FuzzRoute], FuzzTarget)
    case pushRemovingPrevious(FuzzRoute, FuzzTarget)
    case replaceCurrent(FuzzRoute, FuzzTarget)
    case replacePath(FuzzRoute, path: [FuzzRoute], FuzzTarget)
    case pop(Int, FuzzTarget)
    case popToRoot(FuzzTarget)
    case popTo(FuzzRoute, FlowPopMatch, FuzzTarget)
    case present(FuzzRoute, FlowPresentationStyle, path: [FuzzRoute], FlowPresentationOptions)
    case dismiss(FuzzTarget)
    case dismissAll

    /// The command the action performs among stacks with these identities; `nil` for the calls
    /// that return `true` without a request (`pop(count: 0)`, `push(contentsOf: [])`).
    func command(_ ids: [UUID]) -> FlowCommand<FuzzRoute>? {
        switch self {
        case .setRoot(let route, let path, let refresh):
            return FlowCommand(.setRoot(route), path: path, refreshIfSameRoute: refresh)
        case .push(let route, let target):
            return FlowCommand(.push(route, target: target.resolve(ids)))
        case .pushMany(let routes, let target):
            return FlowCommand.pushMany(routes, target: target.resolve(ids))
        case .pushRemovingPrevious(let route, let target):
            return FlowCommand(.pushRemovingPrevious(route, target: target.resolve(ids)))
        case .replaceCurrent(let route, let target):
            return FlowCommand(.replaceCurrent(route, target: target.resolve(ids)))
        case .replacePath(let root, let path, let target):
            return FlowCommand(.replacePath(root: root, path: path, target: target.resolve(ids)))
        case .pop(let count, let target):
            return count > 0 ? FlowCommand(.pop(count: count, target: target.resolve(ids))) : nil
        case .popToRoot(let target):
            return FlowCommand(.popToRoot(target: target.resolve(ids)))
        case .popTo(let route, let match, let target):
            return FlowCommand(.popTo(route, match: match, target: target.resolve(ids)))
        case .present(let route, let style, let path, let options):
            return FlowCommand(.present(route, style: style), path: path, options: options)
        case .dismiss(let target):
            return FlowCommand(.dismiss(target: target.resolve(ids)))
        case .dismissAll:
            return FlowCommand(.dismissAll)
        }
    }

    /// The command a rule's redirect to this op runs: as rules name it (kind and routes, on the
    /// front-most stack), through `FlowRuleTarget`.
    func ruleCommand(_ ids: [UUID]) -> FlowCommand<FuzzRoute>? {
        command(ids).flatMap { try? FlowRuleTarget($0).command(as: FuzzRoute.self) }
    }

    /// Calls the router's public action for this op.
    @MainActor
    func call(_ router: FuzzRouter, condition: FuzzRouter.Precondition?) -> Bool {
        let ids = router.stacks.map(\.id)
        switch self {
        case .setRoot(let route, let path, let refresh):
            return router.setRoot(route, path: path, refreshIfSameRoute: refresh, condition: condition)
        case .push(let route, let target):
            return router.push(route, on: target.resolve(ids), condition: condition)
        case .pushMany(let routes, let target):
            return router.push(contentsOf: routes, on: target.resolve(ids), condition: condition)
        case .pushRemovingPrevious(let route, let target):
            return router.pushRemovingPrevious(route, on: target.resolve(ids), condition: condition)
        case .replaceCurrent(let route, let target):
            return router.replaceCurrent(with: route, on: target.resolve(ids), condition: condition)
        case .replacePath(let root, let path, let target):
            return router.replacePath(root: root, path: path, on: target.resolve(ids), condition: condition)
        case .pop(let count, let target):
            return router.pop(count: count, on: target.resolve(ids), condition: condition)
        case .popToRoot(let target):
            return router.popToRoot(on: target.resolve(ids), condition: condition)
        case .popTo(let route, let match, let target):
            return router.popTo(route, match: match, on: target.resolve(ids), condition: condition)
        case .present(let route, let style, let path, let options):
            switch style {
            case .sheet: return router.sheet(route, path: path, options: options, condition: condition)
            case .fullScreenCover: return router.fullScreenCover(route, path: path, options: options, condition: condition)
            case .root: return router.present(route, style: style, path: path, options: options, condition: condition)
            }
        case .dismiss(let target):
            return router.dismiss(target.resolve(ids), condition: condition)
        case .dismissAll:
            return router.dismissAll(condition: condition)
        }
    }

    /// Calls the router's public async action for this op.
    @MainActor
    func callAsync(_ router: FuzzRouter, condition: FuzzRouter.AsyncPrecondition?) async -> Bool {
        let ids = router.stacks.map(\.id)
        switch self {
        case .setRoot(let route, let path, let refresh):
            return await router.setRootAsync(route, path: path, refreshIfSameRoute: refresh, condition: condition)
        case .push(let route, let target):
            return await router.pushAsync(route, on: target.resolve(ids), condition: condition)
        case .pushMany(let routes, let target):
            return await router.pushAsync(contentsOf: routes, on: target.resolve(ids), condition: condition)
        case .pushRemovingPrevious(let route, let target):
            return await router.pushRemovingPreviousAsync(route, on: target.resolve(ids), condition: condition)
        case .replaceCurrent(let route, let target):
            return await router.replaceCurrentAsync(with: route, on: target.resolve(ids), condition: condition)
        case .replacePath(let root, let path, let target):
            return await router.replacePathAsync(root: root, path: path, on: target.resolve(ids), condition: condition)
        case .pop(let count, let target):
            return await router.popAsync(count: count, on: target.resolve(ids), condition: condition)
        case .popToRoot(let target):
            return await router.popToRootAsync(on: target.resolve(ids), condition: condition)
        case .popTo(let route, let match, let target):
            return await router.popToAsync(route, match: match, on: target.resolve(ids), condition: condition)
        case .present(let route, let style, let path, let options):
            switch style {
            case .sheet: return await router.sheetAsync(route, path: path, options: options, condition: condition)
            case .fullScreenCover: return await router.fullScreenCoverAsync(route, path: path, options: options, condition: condition)
            case .root: return await router.presentAsync(route, style: style, path: path, options: options, condition: condition)
            }
        case .dismiss(let target):
            return await router.dismissAsync(target.resolve(ids), condition: condition)
        case .dismissAll:
            return await router.dismissAllAsync(condition: condition)
        }
    }

    var description: String {
        func list(_ routes: [FuzzRoute]) -> String { "[" + routes.map(\.rawValue).joined(separator: ", ") + "]" }
        switch self {
        case .setRoot(let route, let path, let refresh):
            return "setRoot(\(route), path: \(list(path)), refreshIfSameRoute: \(refresh))"
        case .push(let route, let target): return "push(\(route), on: \(target))"
        case .pushMany(let routes, let target): return "push(contentsOf: \(list(routes)), on: \(target))"
        case .pushRemovingPrevious(let route, let target): return "pushRemovingPrevious(\(route), on: \(target))"
        case .replaceCurrent(let route, let target): return "replaceCurrent(with: \(route), on: \(target))"
        case .replacePath(let root, let path, let target): return "replacePath(root: \(root), path: \(list(path)), on: \(target))"
        case .pop(let count, let target): return "pop(count: \(count), on: \(target))"
        case .popToRoot(let target): return "popToRoot(on: \(target))"
        case .popTo(let route, let match, let target): return "popTo(\(route), match: .\(match.rawValue), on: \(target))"
        case .present(let route, let style, let path, let options):
            return "present(\(route), style: .\(style.rawValue), path: \(list(path)), interactive: \(options.allowsInteractiveDismiss), "
                + "clearsNested: \(options.clearsNestedPresentationOnDismiss))"
        case .dismiss(let target): return "dismiss(\(target))"
        case .dismissAll: return "dismissAll()"
        }
    }
}
