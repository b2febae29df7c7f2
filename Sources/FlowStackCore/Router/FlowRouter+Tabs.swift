import Foundation

/// Tabs: a root stack per tab, one selected at a time, and tab selection as a navigation.
///
/// A tabbed router's `stacks` are what is on screen: the selected tab's root stack first, then
/// the presentations (which stay above the tab bar); `push`, `pop`, `popTo`, `popToRoot` and
/// `setRoot` act on the selected tab. `selectTab` is a navigation of its own kind (`selectTab`
/// to the rules): it runs through the preconditions (`guardTabSelection`), the rules and the
/// history like every other, and selecting the selected tab again pops it to its root.
extension FlowRouter {
    /// Creates a router with tabs, in order, each with its root route; `selected` (default the
    /// first) is on screen. The tab names (`FlowTab.flowTabName`) must be unique.
    public convenience init<Tab: FlowTab>(tabs: KeyValuePairs<Tab, Route>, selected: Tab? = nil) {
        self.init(tabs: tabs.map { (name: $0.key.flowTabName, root: $0.value) }, selected: selected?.flowTabName)
    }

    /// Creates a router with tabs named by strings (how scripts and the manifest declare them),
    /// in order, each with its root route; `selected` (default the first) is on screen.
    public convenience init(tabs: [(name: String, root: Route)], selected: String? = nil) {
        precondition(!tabs.isEmpty, "FlowRouter(tabs:): a tabbed router needs at least one tab")
        let names = tabs.map(\.name)
        precondition(Set(names).count == names.count, "FlowRouter(tabs:): two tabs have the same name in \(names)")
        let index = selected.flatMap { names.firstIndex(of: $0) } ?? 0
        precondition(selected == nil || names.contains(selected!),
                     "FlowRouter(tabs:): the selected tab '\(selected ?? "")' is not one of \(names)")
        self.init(root: tabs[index].root)
        storage = FlowRouterStorage(state: FlowRouterState(tabs: tabs, selected: index))
    }

    /// Whether the router has tabs.
    public var hasTabs: Bool { storage.state.selectedTabIndex != nil }

    /// The tabs in order, each with its root stack (the selected one's as on screen); empty
    /// without tabs.
    public var tabs: [FlowTabState<Route>] { storage.state.tabs }

    /// The tab names in order; empty without tabs.
    public var tabNames: [String] { storage.state.tabSlots.map(\.name) }

    /// The selected tab's name, or `nil` without tabs.
    public var selectedTabName: String? { storage.state.selectedTab }

    /// The selected tab in the app's tab type, or `nil` without tabs (or when the name is not one
    /// of `Tab`'s).
    public func selectedTab<Tab: FlowTab>(as type: Tab.Type = Tab.self) -> Tab? {
        selectedTabName.flatMap { Tab(flowTabName: $0) }
    }

    /// The root stack of the tab `name` (the one on screen for the selected tab), or `nil`.
    public func stack(ofTab name: String) -> FlowStackState<Route>? {
        tabs.first { $0.name == name }?.stack
    }

    /// The Swift check of tab selections (their precondition and guard): the tab's name; `false`
    /// blocks. `FlowOperation` is FlowStack's closed enum, so `guardOperation` and the default
    /// preconditions do not see tab selections; the rules do (kind `selectTab`).
    public var guardTabSelection: (@MainActor (String) -> Bool)? {
        get { storage.guardTabSelection }
        set { storage.guardTabSelection = newValue }
    }

    /// Selects a tab (its stack comes on screen, the others keep theirs); selecting the selected
    /// tab again pops it to its root. Returns whether it applied.
    @discardableResult
    public func selectTab(_ tab: some FlowTab) -> Bool {
        selectTab(named: tab.flowTabName)
    }

    /// Selects the tab `name` (see `selectTab(_:)`).
    @discardableResult
    public func selectTab(named name: String) -> Bool {
        performApplied(.selectTab(name), condition: nil)
    }

    /// Selects a tab through the async queue (see `selectTab(_:)`).
    @discardableResult
    public func selectTabAsync(_ tab: some FlowTab) async -> Bool {
        await selectTabAsync(named: tab.flowTabName)
    }

    /// Selects the tab `name` through the async queue (see `selectTab(_:)`).
    @discardableResult
    public func selectTabAsync(named name: String) async -> Bool {
        await performAsync(.selectTab(name)).isApplied
    }

    /// `guardTabSelection`'s refusal of a tab selection, or `nil`.
    @usableFromInline
    func checkTabSelection(_ command: FlowCommand<Route>) -> (FlowOperationStatus, String)? {
        guard let tab = command.tab, let check = storage.guardTabSelection, !check(tab) else { return nil }
        return (.blockedByGuard, "guardTabSelection returned false for tab '\(tab)'")
    }
}
