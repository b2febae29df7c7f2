import FlowScript

/// The names flow scripts can use, for tools that check or describe flows (`flowstack check`,
/// `flowstack types`): each list is read from ``FlowLuaSurface``.
package enum FlowTestAPI {
    /// The navigation functions of `router` in flows; each also has its `<name>Async` twin.
    package static let routerNavigations = FlowLuaSurface.functions(of: .router).filter(\.hasAsyncTwin).map(\.name)
    /// The functions (and the one property) of `router` in flows, `Async` twins included.
    package static let routerMembers = FlowLuaSurface.names(of: .router)
    /// The `router` functions whose first argument is a route, `Async` twins included.
    package static let routerRouteFunctions = FlowLuaSurface.functions(of: .router)
        .filter { $0.parameters.first?.type == "RouteLike" }
        .flatMap { $0.hasAsyncTwin ? [$0.name, $0.name + "Async"] : [$0.name] }
    /// The functions of `app` in flows.
    package static let appMembers = FlowLuaSurface.names(of: .app)
    /// The matchers of `expect(value)`.
    package static let matchers = FlowTestPrelude.matchers
    /// The functions (and the `style` table) of `flow` in rules.
    package static let flowMembers = FlowLuaSurface.names(of: .flow)
    /// The style hooks of `flow.style`.
    package static let styleHooks = FlowLuaSurface.names(of: .flowStyle)
    /// The globals a flow file can use.
    package static let flowGlobals = FlowLuaSurface.globalNames(of: .flows)
}
