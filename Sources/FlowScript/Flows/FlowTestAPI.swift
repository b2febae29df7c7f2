/// The names flow scripts can use, for tools that check or describe flows (`flowstack check`,
/// `flowstack types`): each list is read from ``FlowLuaSurface``.
public enum FlowTestAPI {
    /// The navigation functions of `router` in flows; each also has its `<name>Async` twin.
    public static let routerNavigations = FlowLuaSurface.functions(of: .router).filter(\.hasAsyncTwin).map(\.name)
    /// The functions (and the one property) of `router` in flows, `Async` twins included.
    public static let routerMembers = FlowLuaSurface.names(of: .router)
    /// The `router` functions whose first argument is a route, `Async` twins included.
    public static let routerRouteFunctions = FlowLuaSurface.functions(of: .router)
        .filter { $0.parameters.first?.type == "RouteLike" }
        .flatMap { $0.hasAsyncTwin ? [$0.name, $0.name + "Async"] : [$0.name] }
    /// The functions of `app` in flows.
    public static let appMembers = FlowLuaSurface.names(of: .app)
    /// The matchers of `expect(value)`.
    public static let matchers = FlowTestPrelude.matchers
    /// The functions (and the `style` table) of `flow` in rules.
    public static let flowMembers = FlowLuaSurface.names(of: .flow)
    /// The style hooks of `flow.style`.
    public static let styleHooks = FlowLuaSurface.names(of: .flowStyle)
    /// The globals a flow file can use.
    public static let flowGlobals = FlowLuaSurface.globalNames(of: .flows)
}
