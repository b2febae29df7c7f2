import Foundation

/// What a router asks its rules about one navigation: the operation with its routes as script
/// values, who asked, and a read-only view of the stacks.
///
/// Built once per request by the router (`FlowRouter.ruleRequest`); the rules never see the app's
/// route type. Its scalars (kind, count, target, source, flags, counts) are what the Lua engine
/// writes straight into its decide function's memory.
public struct FlowRuleRequest {
    /// The operation's kind (`op.kind`).
    public var kind: FlowRuleKind
    /// The route it navigates to (`op.route`): the pushed or presented screen, the new root, the
    /// `popTo` target; `nil` for `pop`, `popToRoot`, `dismiss`, `dismissAll` and `pushMany`.
    public var route: FlowRouteValue?
    /// Every route it shows (`op.routes`): a batch push's routes, or the root and path of
    /// `replacePath` (and of `setRoot` or a presentation given a path); else `nil`.
    public var routes: [FlowRouteValue]?
    /// How many screens a `pop` removes; else `nil`.
    public var count: Int?
    /// The 1-based index of the stack the operation targets, when it targets one that exists.
    public var target: Int?
    /// Who asked.
    public var source: FlowOperationSource
    /// Whether it runs through the async queue (async host calls allowed).
    public var isAsync: Bool
    /// False when a one-off condition from the call site replaces the default preconditions:
    /// the rules then run their route guards only.
    public var runsDefaultPreconditions: Bool
    /// The visible dialog's id, or `nil`.
    public var dialog: String?
    /// The number of queued dialogs.
    public var queuedDialogCount: Int
    /// The operations redirected so far in this chain, as one-line summaries (empty for a direct
    /// request).
    public var redirectChain: [String]
    /// The number of stacks before the operation (the root stack included).
    package var stackCount: Int
    /// The number of screens of the front-most stack before the operation (its root included).
    package var frontScreenCount: Int
    /// The stacks before the operation.
    public var stacks: any FlowRuleStacks
    /// The tab a `selectTab` selects (`op.tab`); else `nil`.
    public var tab: String?
    /// The selected tab before the operation (`ctx.tab`), or `nil` for a router without tabs.
    public var selectedTab: String?
    /// Every tab before the operation, in the order of the tab bar (`ctx.tabs`); empty for a
    /// router without tabs.
    public var tabs: [FlowRuleTab]

    /// The names of every route the operation shows: what route guards are looked up by.
    public var routeNames: [String] {
        if let routes { return routes.map(\.name) }
        return route.map { [$0.name] } ?? []
    }

    /// A one-line description for reasons and logs, such as `push detail{id=42}`.
    public var summary: String {
        let names = (routes ?? route.map { [$0] } ?? []).map(\.description)
        return names.isEmpty ? kind.rawValue : "\(kind.rawValue) \(names.joined(separator: ", "))"
    }
}

// The initializers live in an extension so that the struct keeps its memberwise initializer: it
// builds a request in place, where an initializer assigning field by field made the optimizer
// copy and destroy the whole request once on its way to `decide` (a load, a retain and a
// release of every field).
extension FlowRuleRequest {
    /// Creates a request; `stackCount` and `frontScreenCount` are read from `stacks`.
    @MainActor
    public init(
        kind: FlowRuleKind, route: FlowRouteValue? = nil, routes: [FlowRouteValue]? = nil, count: Int? = nil,
        target: Int? = nil, source: FlowOperationSource = .code, isAsync: Bool = false,
        runsDefaultPreconditions: Bool = true, dialog: String? = nil, queuedDialogCount: Int = 0,
        redirectChain: [String] = [], stacks: any FlowRuleStacks
    ) {
        self.init(
            kind: kind, route: route, routes: routes, count: count, target: target, source: source, isAsync: isAsync,
            runsDefaultPreconditions: runsDefaultPreconditions, dialog: dialog, queuedDialogCount: queuedDialogCount,
            redirectChain: redirectChain, stackCount: stacks.count, frontScreenCount: stacks.screens(stacks.count) ?? 0,
            stacks: stacks, tab: nil, selectedTab: nil, tabs: [])
    }

    /// A request whose stack counts the router already knows (the router's, `FlowRouter.ruleRequest`).
    /// Not inlinable: inlinable code cannot call the memberwise initializer, and an inlinable
    /// initializer assigning field by field cost the copy (11,377 with it, 11,008 without,
    /// instructions per operation, callgrind, Lua-guarded push + pop).
    @usableFromInline
    static func routerRequest(
        kind: FlowRuleKind, route: FlowRouteValue?, routes: [FlowRouteValue]?, count: Int?, target: Int?,
        source: FlowOperationSource, isAsync: Bool, runsDefaultPreconditions: Bool, dialog: String?,
        queuedDialogCount: Int, redirectChain: [String], stackCount: Int, frontScreenCount: Int,
        stacks: any FlowRuleStacks, tab: String?, selectedTab: String?, tabs: [FlowRuleTab]
    ) -> FlowRuleRequest {
        FlowRuleRequest(
            kind: kind, route: route, routes: routes, count: count, target: target, source: source, isAsync: isAsync,
            runsDefaultPreconditions: runsDefaultPreconditions, dialog: dialog, queuedDialogCount: queuedDialogCount,
            redirectChain: redirectChain, stackCount: stackCount, frontScreenCount: frontScreenCount, stacks: stacks,
            tab: tab, selectedTab: selectedTab, tabs: tabs)
    }
}

/// A read-only view of a router's stacks for its rules, in script values.
///
/// Stacks and positions are 1-based, as Lua numbers them; routes are converted when read.
@MainActor
public protocol FlowRuleStacks: AnyObject {
    /// The number of stacks (the root stack included).
    var count: Int { get }
    /// A stack's identity and presentation (`root`, `sheet`, `fullScreenCover`), or `nil`.
    func info(_ index: Int) -> (id: String, presentation: String)?
    /// A stack's number of screens (its root included), or `nil`.
    func screens(_ index: Int) -> Int?
    /// The route at `position` (1: the root screen) of a stack, or `nil`.
    func route(stack index: Int, position: Int) -> FlowRouteValue?
}

/// One tab of a tabbed router as rules see it (`ctx.tabs`): its name, whether it is selected,
/// and its root stack.
public struct FlowRuleTab: Hashable, Sendable {
    /// The tab's name (`FlowTab.flowTabName`).
    public var name: String
    /// Whether the tab is the selected one (its stack is then `stacks[1]`).
    public var isSelected: Bool
    /// The identity of the tab's root stack.
    public var stackID: String
    /// The tab's screens, its root first.
    public var routes: [FlowRouteValue]

    /// Creates a tab's view.
    public init(name: String, isSelected: Bool, stackID: String, routes: [FlowRouteValue]) {
        self.name = name
        self.isSelected = isSelected
        self.stackID = stackID
        self.routes = routes
    }
}
