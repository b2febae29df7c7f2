import Foundation

/// The complete state of a router as one value: stacks, root identity, visible dialog and queue,
/// the held navigation, the bounded history, and the counters that name new screens and entries.
///
/// Every change of a router is a change of this value: `validate(_:)` says whether a command can
/// run against it, `apply(_:)` runs it, `showDialog`, `hideDialog` and `clearDialogs` change the
/// dialog, and `record` keeps an entry. None of them calls app code, observers or rules, so
/// the state is tested without a router, and copied and restored as a value.
///
/// Two states are equal when they show the same (stacks, root identity, dialog and queue; the
/// dialog compared when `Dialog` is `Equatable`); the history, the held deep link, the held
/// navigation and the identity generator are the router's bookkeeping, neither compared nor encoded. `Codable` when `Route` and `Dialog` are:
/// save it, restore it with `FlowRouter.restore(_:)`, and the router continues where it was.
public struct FlowRouterState<Route: Hashable, Dialog> {
    /// The stacks, root first.
    public var stacks: [FlowStackState<Route>]
    /// The root identity.
    public var rootID: UUID
    /// The visible global dialog.
    public var globalDialog: Dialog?
    /// The queued dialogs, next first.
    public var dialogQueue: [Dialog]
    /// The navigation a rule refused with a resuming redirect, held until the rules allow it
    /// (see ``FlowPendingNavigation``); `FlowRouter.pendingNavigation` reads it with its timeout.
    public internal(set) var pendingNavigation: FlowPendingNavigation<Route>?
    /// The bounded history of navigation requests and dialog changes, oldest first.
    @inlinable public var history: FlowHistory<Route> { log }
    /// The history's storage.
    @usableFromInline var log: FlowHistory<Route>
    /// Names new screens, stacks and observations.
    @usableFromInline var ids: FlowIDGenerator
    /// The sequence number of the next history entry.
    @usableFromInline var nextSequence: Int
    /// The random salt of the history entries' identities.
    @usableFromInline var salt: UInt64
    /// The tabs in order (empty for a router without tabs). The selected tab's slot is not kept
    /// current: its stack is `stacks[0]` (read `tabs`, which puts it in).
    @usableFromInline var tabSlots: [FlowTabState<Route>] = []
    /// The selected tab's position in `tabs`, or `nil` for a router without tabs.
    public internal(set) var selectedTabIndex: Int?

    // What the router holds to retry later. Like the history, bookkeeping: neither compared nor
    // encoded.

    /// The deep link held because a rule blocked its plan (`router.deepLinks.heldLink` reads it,
    /// dropping it first when it expired), or `nil`.
    public internal(set) var pendingLink: FlowPendingLink<Route>?

    /// Creates a state value (a fresh history and identity generator).
    public init(stacks: [FlowStackState<Route>], rootID: UUID, globalDialog: Dialog? = nil, dialogQueue: [Dialog] = []) {
        self.stacks = stacks
        self.rootID = rootID
        self.globalDialog = globalDialog
        self.dialogQueue = dialogQueue
        self.log = FlowHistory(limit: 200)
        self.ids = FlowIDGenerator()
        self.salt = ids.nextWord()
        self.nextSequence = 1
    }

    /// A state with one root stack showing `root`.
    init(root: Route) {
        var ids = FlowIDGenerator()
        let stack = FlowStackState(id: ids.next(), rootID: ids.next(), root: root, nodes: [], style: .root, options: .init())
        self.init(stacks: [stack], rootID: ids.next())
        self.ids = ids
        self.salt = self.ids.nextWord()
    }

    /// A state with tabs (`tabs` in order, each with its root), `selected` on screen.
    init(tabs: [(name: String, root: Route)], selected: Int) {
        var ids = FlowIDGenerator()
        let slots = tabs.map { tab in
            FlowTabState(name: tab.name, stack: FlowStackState(
                id: ids.next(), rootID: ids.next(), root: tab.root, nodes: [], style: .root, options: .init()))
        }
        self.init(stacks: [slots[selected].stack], rootID: ids.next())
        self.ids = ids
        self.salt = self.ids.nextWord()
        self.tabSlots = slots
        self.selectedTabIndex = selected
    }

    /// Creates a state value with tabs: `tabs` in order, the one at `selectedTab` on screen
    /// (its stack is `stacks[0]`: pass `stacks` with it first).
    public init(
        stacks: [FlowStackState<Route>], rootID: UUID, tabs: [FlowTabState<Route>], selectedTab: Int?,
        globalDialog: Dialog? = nil, dialogQueue: [Dialog] = []
    ) {
        self.init(stacks: stacks, rootID: rootID, globalDialog: globalDialog, dialogQueue: dialogQueue)
        self.tabSlots = tabs
        self.selectedTabIndex = tabs.isEmpty ? nil : selectedTab
    }

    /// The tabs in order, each with its stack (the selected one's as on screen); empty without
    /// tabs.
    public var tabs: [FlowTabState<Route>] {
        guard let selected = selectedTabIndex, !stacks.isEmpty else { return tabSlots }
        var tabs = tabSlots
        tabs[selected].stack = stacks[0]
        return tabs
    }

    /// The selected tab's name, or `nil` without tabs.
    public var selectedTab: String? {
        selectedTabIndex.map { tabSlots[$0].name }
    }

    /// Why this state cannot drive a router, or `nil` when it can.
    public var problem: String? {
        guard let first = stacks.first else { return "a router state needs at least the root stack" }
        if let problem = tabsProblem { return problem }
        if first.style != .root { return "the first stack must have style .root, not .\(first.style.rawValue)" }
        if let bad = stacks.dropFirst().first(where: { $0.style == .root }) {
            return "only the first stack may have style .root (stack \(bad.id.uuidString) has it)"
        }
        var seen = Set<UUID>()
        var otherTabs: [FlowStackState<Route>] = []
        for index in tabSlots.indices where index != selectedTabIndex { otherTabs.append(tabSlots[index].stack) }
        for stack in stacks + otherTabs {
            // A loop, not `nodes.map(\.id)`: a key path in this generic code is instantiated at
            // run time on every call, and exploration restores a state per operation it tries.
            var ids = [stack.id, stack.rootID]
            for node in stack.storage.nodes { ids.append(node.id) }
            for id in ids where !seen.insert(id).inserted {
                return "identity \(id.uuidString) appears twice; every stack and screen needs its own"
            }
        }
        return nil
    }

    /// What is wrong with the tabs, or `nil`.
    var tabsProblem: String? {
        if tabSlots.isEmpty {
            return selectedTabIndex == nil ? nil : "a selected tab is set but there are no tabs"
        }
        guard let selected = selectedTabIndex, tabSlots.indices.contains(selected) else {
            return "the selected tab must be one of the \(tabSlots.count) tabs (0..<\(tabSlots.count))"
        }
        var names = Set<String>()
        for tab in tabSlots {
            if tab.name.isEmpty { return "a tab needs a name" }
            if !names.insert(tab.name).inserted { return "two tabs are named '\(tab.name)'; every tab needs its own name" }
            if tab.stack.style != .root { return "tab '\(tab.name)' has a stack with style .\(tab.stack.style.rawValue), not .root" }
        }
        return nil
    }
}

// MARK: - Navigation: validate, then apply

extension FlowRouterState {
    /// The index of the stack a target names, if it exists.
    @inlinable @inline(__always)
    func index(for target: FlowStackTarget) -> Int? {
        switch target {
        case .root: return 0
        case .active: return stacks.count - 1
        case .stack(let id): return stacks.firstIndex { $0.id == id }
        }
    }

    /// Why `command` cannot run against this state (its status and reason), or `nil` when it can.
    /// Changes nothing; `mutating` so a router asks it of its stored state in place (a
    /// non-mutating call copied the whole state first: about 350 instructions per operation,
    /// callgrind).
    @inlinable
    mutating func validate(_ command: FlowCommand<Route>) -> (FlowOperationStatus, String)? {
        // Push and pop read the command's shape: a switch over the operation would copy it.
        let shape = command.shape
        switch shape.kind {
        case .push:
            guard let target = shape.target else { return validateOther(command) }
            return index(for: target) == nil ? Self.missingStack(target) : nil
        case .pop:
            guard let target = shape.target else { return validateOther(command) }
            guard let index = index(for: target) else { return Self.missingStack(target) }
            if shape.count > 0, index == 0, stacks[0].storage.isEmpty {
                return (.nothingToPop, "the root stack shows only its root screen")
            }
            return nil
        default:
            return validateOther(command)
        }
    }

    @usableFromInline
    static func missingStack(_ target: FlowStackTarget) -> (FlowOperationStatus, String) {
        let name = switch target {
        case .root: "root"
        case .active: "active"
        case .stack(let id): "with id \(id.uuidString)"
        }
        return (.stackNotFound, "no stack \(name) exists; it may have been dismissed")
    }

    @usableFromInline
    func validateOther(_ command: FlowCommand<Route>) -> (FlowOperationStatus, String)? {
        if let tab = command.tab { return validateTabSelection(tab) }
        let operation = command.operation
        var stackIndex = 0
        if let target = operation.target {
            guard let index = index(for: target) else { return Self.missingStack(target) }
            stackIndex = index
        }
        switch operation {
        case .popToRoot:
            if stacks[stackIndex].storage.isEmpty {
                return (.nothingToPop, "the stack already shows its root screen")
            }
        case .popTo(let route, _, _):
            if stacks[stackIndex].storage.lastIndex(where: { $0 == route }) == nil {
                if stacks[stackIndex].root == route {
                    return (.routeNotFound, "\(route) is the stack's root screen, not in its path: popToRoot goes back to it")
                }
                return (.routeNotFound, "\(route) is not in the stack's path")
            }
        case .present(_, let style):
            if style == .root {
                return (.failed, "a stack cannot be presented with style .root; use setRoot(_:path:)")
            }
        case .dismiss:
            if stackIndex == 0 {
                return (.nothingToDismiss, "the root stack cannot be dismissed")
            }
        case .dismissAll:
            if stacks.count == 1 {
                return (.nothingToDismiss, "nothing is presented")
            }
        case .setRoot, .push, .pop, .pushRemovingPrevious, .replaceCurrent, .replacePath:
            break
        }
        return nil
    }

    /// Why selecting the tab `name` cannot run, or `nil` when it can.
    func validateTabSelection(_ name: String) -> (FlowOperationStatus, String)? {
        if tabSlots.isEmpty {
            return (.stackNotFound, "this router has no tabs; create it with FlowRouter(tabs:selected:) or declare tabs in the manifest")
        }
        if tabSlots.contains(where: { $0.name == name }) { return nil }
        let names = tabSlots.map(\.name)
        let near = FlowSuggestion.closest(to: name, in: names).map { "did you mean '\($0)'? " } ?? ""
        return (.stackNotFound, "no tab named '\(name)'; \(near)the tabs are \(names.map { "'\($0)'" }.joined(separator: ", "))")
    }

    /// Selects the tab `name` (`validateTabSelection` accepted it): its stack comes on screen and
    /// the one that was there is kept in its tab; the selected tab again is popped to its root.
    @usableFromInline
    mutating func selectTab(_ name: String) {
        guard let index = tabSlots.firstIndex(where: { $0.name == name }), let selected = selectedTabIndex else { return }
        if index == selected {
            stacks[0].storage = FlowPath()
            return
        }
        tabSlots[selected].stack = stacks[0]
        stacks[0] = tabSlots[index].stack
        selectedTabIndex = index
    }

    /// Applies a command that `validate(_:)` accepted.
    @inlinable
    mutating func apply(_ command: FlowCommand<Route>) {
        switch command.operation {
        case .push(let route, let target):
            let index = index(for: target)!
            if let batch = command.batch {
                for pushed in batch {
                    let node = makeNode(pushed)
                    stacks[index].storage.append(node)
                }
            } else {
                let node = makeNode(route)
                stacks[index].storage.append(node)
            }
        case .pop(let count, let target):
            let index = index(for: target)!
            let removable = min(count, stacks[index].storage.count)
            stacks[index].storage.removeLast(removable)
            if removable < count, index > 0 {
                dismissStack(at: index)
            }
        case .setRoot(let route):
            setRoot(route, path: command.path, refresh: command.refreshIfSameRoute)
        case .pushRemovingPrevious(let route, let target), .replaceCurrent(let route, let target):
            replaceTop(with: route, at: index(for: target)!)
        case .replacePath(let root, let path, let target):
            replacePath(root: root, path: path, at: index(for: target)!, refresh: command.refreshIfSameRoute)
        case .popToRoot(let target):
            if let tab = command.tab {
                selectTab(tab)
            } else {
                stacks[index(for: target)!].storage = FlowPath()
            }
        case .popTo(let route, let match, let target):
            popTo(route, match: match, at: index(for: target)!)
        case .present(let route, let style):
            let stack = makeStack(root: route, path: command.path, style: style, options: command.options)
            stacks.append(stack)
        case .dismiss(let target):
            if let index = index(for: target) {
                dismissStack(at: index)
            }
        case .dismissAll:
            stacks.removeSubrange(1...)
        }
    }

    /// A screen with a new identity.
    @inlinable
    mutating func makeNode(_ route: Route) -> FlowRouteNode<Route> {
        FlowRouteNode(id: ids.next(), route: route)
    }

    /// A stack with new identities.
    @usableFromInline
    mutating func makeStack(
        root: Route, path: [Route], style: FlowPresentationStyle, options: FlowPresentationOptions
    ) -> FlowStackState<Route> {
        let id = ids.next()
        let rootID = ids.next()
        var nodes: [FlowRouteNode<Route>] = []
        for route in path { nodes.append(makeNode(route)) }
        return FlowStackState(id: id, rootID: rootID, root: root, nodes: nodes, style: style, options: options)
    }

    /// Replaces the top screen of the stack at `index` (its root when the path is empty).
    @usableFromInline
    mutating func replaceTop(with route: Route, at index: Int) {
        if stacks[index].storage.isEmpty {
            let id = ids.next()
            stacks[index].replaceRoot(route, id: id)
        } else {
            stacks[index].storage.removeLast(1)
            let node = makeNode(route)
            stacks[index].storage.append(node)
        }
    }

    /// Replaces the root and path of the stack at `index`; without `refresh`, the same root keeps
    /// its identity and the screens the new path shares with the old one keep theirs.
    @usableFromInline
    mutating func replacePath(root: Route, path: [Route], at index: Int, refresh: Bool) {
        if !refresh, stacks[index].root == root {
            keepSharedScreens(ofStack: index, path: path)
        } else {
            let id = ids.next()
            stacks[index].replaceRoot(root, id: id)
            var nodes: [FlowRouteNode<Route>] = []
            for route in path { nodes.append(makeNode(route)) }
            stacks[index].storage = FlowPath(nodes: nodes)
        }
    }

    /// Pops the stack at `index` back to the last screen showing `route` (and that screen too
    /// with `.inclusive`).
    @usableFromInline
    mutating func popTo(_ route: Route, match: FlowPopMatch, at index: Int) {
        if let position = stacks[index].storage.lastIndex(where: { $0 == route }) {
            stacks[index].storage.keepFirst(match == .inclusive ? position : position + 1)
        }
    }

    /// Replaces the root stack (same route without `refresh`: only the presentations go, and the
    /// root stack keeps its identities and the screens the new path shares with the old one).
    @usableFromInline
    mutating func setRoot(_ route: Route, path: [Route], refresh: Bool) {
        if stacks.first?.root == route {
            if !refresh {
                stacks.removeSubrange(1...)
                keepSharedScreens(ofStack: 0, path: path)
                return
            }
            rootID = ids.next()
        }
        stacks = [makeStack(root: route, path: path, style: .root, options: .init())]
    }

    /// Sets the path of the stack at `index` to `path`, keeping the identities of the screens it
    /// shares with the old path (the longest common prefix of routes).
    mutating func keepSharedScreens(ofStack index: Int, path: [Route]) {
        let old = stacks[index].storage.nodes
        var shared = 0
        while shared < min(old.count, path.count), old[shared].route == path[shared] { shared += 1 }
        stacks[index].storage.keepFirst(shared)
        for route in path[shared...] {
            let node = makeNode(route)
            stacks[index].storage.append(node)
        }
    }

    /// Removes a presented stack (and, by its options, the ones above it).
    @usableFromInline
    mutating func dismissStack(at index: Int) {
        guard index > 0, stacks.indices.contains(index) else { return }
        if stacks[index].options.clearsNestedPresentationOnDismiss {
            stacks.removeSubrange(index...)
        } else {
            stacks.remove(at: index)
        }
    }
}

// MARK: - The global dialog

extension FlowRouterState {
    /// Shows a dialog by `policy`; returns whether it became visible or was queued.
    mutating func showDialog(_ dialog: Dialog, policy: FlowDialogPolicy) -> Bool {
        switch policy {
        case .replace:
            dialogQueue.removeAll()
            globalDialog = dialog
        case .replaceKeepingQueue:
            globalDialog = dialog
        case .queue:
            if globalDialog == nil { globalDialog = dialog } else { dialogQueue.append(dialog) }
        case .ignoreIfVisible:
            guard globalDialog == nil else { return false }
            globalDialog = dialog
        }
        return true
    }

    /// Hides the visible dialog (the next queued one shows); returns whether one was visible.
    mutating func hideDialog() -> Bool {
        let hadDialog = globalDialog != nil
        globalDialog = dialogQueue.isEmpty ? nil : dialogQueue.removeFirst()
        return hadDialog
    }

    /// Removes the visible dialog and the queue; returns whether there was any.
    mutating func clearDialogs() -> Bool {
        let hadAny = globalDialog != nil || !dialogQueue.isEmpty
        dialogQueue.removeAll()
        globalDialog = nil
        return hadAny
    }

    /// A stable, readable id for a dialog: its `id` when `Identifiable`, else its description.
    @usableFromInline
    static func dialogKey(_ dialog: Dialog?) -> String? {
        guard let dialog else { return nil }
        if let identifiable = dialog as? any Identifiable {
            return String(describing: identifiable.id)
        }
        return String(describing: dialog)
    }

    /// The dialog change as the history records it, with the dialog afterwards.
    func dialogChange(_ action: FlowDialogChange.Action, dialog: String?) -> FlowDialogChange {
        FlowDialogChange(action: action, dialog: dialog, visibleAfter: Self.dialogKey(globalDialog), queuedAfter: dialogQueue.count)
    }
}

// MARK: - The history

extension FlowRouterState {
    /// Before a change that the history records: gives `stacks` storage of their own, the
    /// array of the entry the history is about to evict, so that the change copies the shared
    /// stacks into it instead of into a new allocation while the evicted entry frees its own.
    /// Call it only when the next entry goes into the history (no transaction is running).
    ///
    /// Measured (callgrind, release bench, Swift-rules push + pop): 2,084 instructions per
    /// operation before, 1,768 after (one `malloc` and one `free` of the stacks array less, and
    /// the evicted entry destroys no array); emptying the array and appending, instead of
    /// assigning in place, gave back about 190 of them.
    @inlinable
    mutating func reuseEvictedStacks() {
        guard var spare = log.takeEvictedStacks() else { return }
        // Unique in the common case (the evicted entry's stacks before); when something else
        // still shares it, the first write copies it and nothing is lost.
        if spare.count == stacks.count {
            // The common case, assigned in place (cheaper than emptying and appending).
            for index in stacks.indices { spare[index] = stacks[index] }
        } else {
            spare.removeAll(keepingCapacity: true)
            spare.append(contentsOf: stacks)
        }
        stacks = spare
    }

    /// The entry recording `event`, numbered next; `previous` are the stacks before it.
    @inlinable
    mutating func entry(
        _ event: consuming FlowHistoryEvent<Route>, source: FlowOperationSource, status: FlowOperationStatus,
        reason: String?, generation: Int, previous: [FlowStackState<Route>], experiments: [String: String] = [:]
    ) -> FlowHistoryEntry<Route> {
        let sequence = nextSequence
        nextSequence = sequence + 1
        return FlowHistoryEntry(
            salt: salt, sequence: sequence, date: Date(), event: event, source: source, status: status,
            reason: reason, generation: generation, previousStacks: previous, newStacks: stacks, experiments: experiments)
    }
}

extension FlowRouterState: Equatable where Dialog: Equatable {
    /// Equal when they show the same: stacks, root identity, dialog and queue, and the tabs.
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.stacks == rhs.stacks && lhs.rootID == rhs.rootID && lhs.globalDialog == rhs.globalDialog
            && lhs.dialogQueue == rhs.dialogQueue && lhs.selectedTabIndex == rhs.selectedTabIndex
            && (lhs.tabSlots.isEmpty && rhs.tabSlots.isEmpty || lhs.tabs == rhs.tabs)
    }
}

extension FlowRouterState: Codable where Route: Codable, Dialog: Codable {
    /// What a state is written as: the tabs only when there are.
    private struct Fields: Codable {
        let stacks: [FlowStackState<Route>]
        let rootID: UUID
        let globalDialog: Dialog?
        let dialogQueue: [Dialog]
        let tabs: [FlowTabState<Route>]?
        let selectedTab: Int?
    }

    /// Decodes the stacks, root identity, dialog and queue, and the tabs when there are (a fresh
    /// history).
    public init(from decoder: any Decoder) throws {
        let fields = try Fields(from: decoder)
        self.init(
            stacks: fields.stacks, rootID: fields.rootID, tabs: fields.tabs ?? [], selectedTab: fields.selectedTab,
            globalDialog: fields.globalDialog, dialogQueue: fields.dialogQueue)
    }

    /// Encodes the stacks, root identity, dialog and queue, and the tabs when there are.
    public func encode(to encoder: any Encoder) throws {
        let hasTabs = !tabSlots.isEmpty
        try Fields(
            stacks: stacks, rootID: rootID, globalDialog: globalDialog, dialogQueue: dialogQueue,
            tabs: hasTabs ? tabs : nil, selectedTab: hasTabs ? selectedTabIndex : nil
        ).encode(to: encoder)
    }
}

extension FlowRouterState: Sendable where Route: Sendable, Dialog: Sendable {}

/// A router state that cannot be restored.
public struct FlowStateError: Error, CustomStringConvertible, Equatable {
    /// What is wrong with the state.
    public let description: String
}

extension FlowRouter {
    /// The router's complete state as a value.
    public var state: FlowRouterState<Route, Dialog> { storage.state }

    /// Replaces the stacks, root identity, dialog and queue, and the tabs (state restoration). The
    /// history and the held navigation are kept; observers hear `.restored`. Throws when the state is malformed, leaving the router
    /// unchanged.
    public func restore(_ state: FlowRouterState<Route, Dialog>) throws {
        if let problem = state.problem { throw FlowStateError(description: problem) }
        restoreValidated(state)
    }

    /// Restores a state known to be valid (one this router showed before: exploration restores
    /// one per operation it tries), without `restore(_:)`'s check of every identity.
    ///
    /// With `held`, the held navigation and the held deep link become the state's too (a change
    /// of facts retries them: exploration with fact changes restores them with the screens).
    package func restoreValidated(_ state: FlowRouterState<Route, Dialog>, held: Bool = false) {
        willChange()
        storage.state.stacks = state.stacks
        storage.state.rootID = state.rootID
        storage.state.globalDialog = state.globalDialog
        storage.state.dialogQueue = state.dialogQueue
        storage.state.tabSlots = state.tabSlots
        storage.state.selectedTabIndex = state.selectedTabIndex
        if held {
            storage.state.pendingNavigation = state.pendingNavigation
            storage.state.pendingLink = state.pendingLink
        }
        didChange(.restored)
    }

    /// Creates a router from a saved state.
    public convenience init(state: FlowRouterState<Route, Dialog>) throws {
        guard let root = state.stacks.first?.root else {
            throw FlowStateError(description: "a router state needs at least the root stack")
        }
        self.init(root: root)
        try restore(state)
    }
}
