import FlowLua
import FlowStackCore
import Foundation

/// One operation exploration tries: a router call, a user gesture, a dialog or a link.
package enum FlowExploreStep: Hashable, Sendable {
    /// `router.push(route)`.
    case push(FlowRouteValue)
    /// `router.pushMany{ route }`.
    case pushMany(FlowRouteValue)
    /// `router.sheet(route)`.
    case sheet(FlowRouteValue)
    /// `router.fullScreenCover(route)`.
    case fullScreenCover(FlowRouteValue)
    /// `router.setRoot(route)`.
    case setRoot(FlowRouteValue)
    /// `router.replaceCurrent(route)`.
    case replaceCurrent(FlowRouteValue)
    /// `router.popTo(route)`.
    case popTo(FlowRouteValue)
    /// `router.pop()`.
    case pop
    /// `router.popToRoot()`.
    case popToRoot
    /// `router.dismiss()`.
    case dismiss
    /// `router.dismissAll()`.
    case dismissAll
    /// The person's back swipe (`router.userPop()`).
    case userPop
    /// The person's swipe-down on a sheet (`router.userDismiss()`).
    case userDismiss
    /// `router.showDialog(id)`.
    case showDialog(String)
    /// The person closes the visible dialog (`router.hideDialog()`).
    case hideDialog
    /// `router.open(url)`.
    case open(String)
    /// `router.selectTab(name)` (a project with tabs).
    case selectTab(String)
    /// A fact changes between two steps (`app.facts{ name = value }`): explored with
    /// `--fact-changes`.
    case setFact(String, FlowScriptValue)

    /// The step as a history step: `push checkout`, `userDismiss`, `open myapp://orders/7`,
    /// `set isLoggedIn false`.
    package var description: String {
        switch self {
        case .push(let route): "push \(route)"
        case .pushMany(let route): "pushMany \(route)"
        case .sheet(let route): "sheet \(route)"
        case .fullScreenCover(let route): "fullScreenCover \(route)"
        case .setRoot(let route): "setRoot \(route)"
        case .replaceCurrent(let route): "replaceCurrent \(route)"
        case .popTo(let route): "popTo \(route)"
        case .pop: "pop"
        case .popToRoot: "popToRoot"
        case .dismiss: "dismiss"
        case .dismissAll: "dismissAll"
        case .userPop: "userPop"
        case .userDismiss: "userDismiss"
        case .showDialog(let id): "showDialog \(id)"
        case .hideDialog: "hideDialog"
        case .open(let url): "open \(url)"
        case .selectTab(let name): "selectTab \(name)"
        case .setFact(let name, let value): "set \(name) \(value.luaSource)"
        }
    }

    /// The step as a line of a flow test: names, ids, URLs and payloads quoted as Lua strings,
    /// fact names and payload keys written as table keys, so no name can become code.
    package var luaCall: String {
        func route(_ value: FlowRouteValue) -> String {
            let name = FlowLuaSourceText.string(value.name)
            guard !value.payload.isEmpty else { return name }
            var fields = ["name = \(name)"]
            for key in value.payload.keys.sorted() {
                fields.append("\(FlowLuaSourceText.key(key)) = \(value.payload[key]!.luaSource)")
            }
            return "{ \(fields.joined(separator: ", ")) }"
        }
        switch self {
        case .push(let value): return "router.push(\(route(value)))"
        case .pushMany(let value): return "router.pushMany{ \(route(value)) }"
        case .sheet(let value): return "router.sheet(\(route(value)))"
        case .fullScreenCover(let value): return "router.fullScreenCover(\(route(value)))"
        case .setRoot(let value): return "router.setRoot(\(route(value)))"
        case .replaceCurrent(let value): return "router.replaceCurrent(\(route(value)))"
        case .popTo(let value): return "router.popTo(\(route(value)))"
        case .pop: return "router.pop()"
        case .popToRoot: return "router.popToRoot()"
        case .dismiss: return "router.dismiss()"
        case .dismissAll: return "router.dismissAll()"
        case .userPop: return "router.userPop()"
        case .userDismiss: return "router.userDismiss()"
        case .showDialog(let id): return "router.showDialog(\(FlowLuaSourceText.string(id)))"
        case .hideDialog: return "router.hideDialog()"
        case .open(let url): return "router.open(\(FlowLuaSourceText.string(url)))"
        case .selectTab(let name): return "router.selectTab(\(FlowLuaSourceText.string(name)))"
        case .setFact(let name, let value): return "app.facts{ \(FlowLuaSourceText.key(name)) = \(value.luaSource) }"
        }
    }

    /// The route the step names, if one.
    package var route: FlowRouteValue? {
        switch self {
        case .push(let route), .pushMany(let route), .sheet(let route), .fullScreenCover(let route), .setRoot(let route),
             .replaceCurrent(let route), .popTo(let route):
            route
        default:
            nil
        }
    }
}
