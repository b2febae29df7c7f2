import Foundation
#if canImport(Combine)
import Combine
#endif

/// A navigation router: a root stack, presented stacks, a global dialog with its queue, and the
/// history of every request.
///
/// All state is plain values (`FlowStackState`, `FlowRouterState`), every decision is made here,
/// and the SwiftUI layer only renders it. Actions run in this order: a one-off condition (or the
/// default preconditions for the kind), then `guardOperation`, then the rules hook if one is
/// installed; blocked requests are recorded in the history with their reason.
@MainActor
@dynamicMemberLookup
public final class FlowRouter<Route: Hashable, Dialog> {
    /// FlowStack's guard: consulted for every operation after the preconditions.
    public typealias Guard = @MainActor (FlowOperation<Route>) -> Bool
    /// A precondition: the operation and the stacks before it; `false` blocks.
    public typealias Precondition = @MainActor (FlowOperation<Route>, [FlowStackState<Route>]) -> Bool
    /// An asynchronous precondition, for the async actions.
    public typealias AsyncPrecondition = @MainActor (FlowOperation<Route>, [FlowStackState<Route>]) async -> Bool
    /// Called after each applied operation with the new stacks.
    public typealias Observer = @MainActor (FlowOperation<Route>, [FlowStackState<Route>]) -> Void
    /// A Swift style rule: attributes for a context, or `nil`.
    public typealias StyleRule = @MainActor (FlowStyleContext) -> FlowStyleAttributes?

    #if canImport(Combine)
    /// Publishes before every change, so SwiftUI views observing the router update.
    nonisolated(unsafe) public let objectWillChange = ObservableObjectPublisher()
    /// The subjects of `$stacks` and the other publishers, made when first asked for.
    var publishers: FlowRouterSubjects<Route, Dialog>?
    #endif

    /// Everything an operation reads or writes, in one stored property: the state value (`state`),
    /// and the checks and bookkeeping the pipeline consults on every operation. One property, so
    /// one attribute: the runtime's exclusivity tracking is skipped for it. Measured (callgrind,
    /// release bench, Swift-rules push + pop): about 840 instructions per operation more without
    /// the attribute (11 runtime access checks per operation, about 76 instructions each).
    /// Why no access can overlap: the router is `@MainActor`; no access to `storage` is held
    /// while app code runs (preconditions, the guard, observers and rules are called between
    /// accesses, never inside a `modify` of it); nested changes go through `FlowRouterState`'s
    /// own mutating methods, which call no app code.
    @exclusivity(unchecked) @usableFromInline var storage: FlowRouterStorage<Route, Dialog>

    /// The stacks: the root stack first, the front-most presented stack last.
    @inlinable public var stacks: [FlowStackState<Route>] { storage.state.stacks }
    /// The visible global dialog.
    public internal(set) var globalDialog: Dialog? {
        get { storage.state.globalDialog }
        set { storage.state.globalDialog = newValue }
    }
    /// The identity of the root; refreshed by `setRoot` of the same route.
    public internal(set) var rootID: UUID {
        get { storage.state.rootID }
        set { storage.state.rootID = newValue }
    }
    /// The bounded history of navigation requests and dialog changes, oldest first.
    @inlinable public var history: FlowHistory<Route> { storage.state.history }

    /// FlowStack's guard, consulted after the preconditions.
    public var guardOperation: Guard? {
        get { storage.guardOperation }
        set { storage.guardOperation = newValue }
    }
    /// Called after every applied operation.
    public var didApplyOperation: Observer? {
        get { storage.didApplyOperation }
        set { storage.didApplyOperation = newValue }
    }
    /// The history's bound (default 200; 0 keeps everything).
    public var maximumOperationHistoryCount = 200 {
        didSet { storage.state.log.setLimit(maximumOperationHistoryCount) }
    }
    /// Pause after each transition of the async queue, in nanoseconds.
    public var queuedTransitionDelayNanoseconds: UInt64 = 0
    /// The installed rules and the conversions of the route type (see `installRules(_:)`).
    @inlinable var rules: FlowRulesLink<Route>? {
        get { storage.rules }
        set {
            storage.rules = newValue
            storage.syncStacks = nil
        }
    }
    /// Default preconditions, indexed by `FlowOperationKind.tableIndex`.
    @inlinable var preconditionTable: [Precondition?] {
        get { storage.preconditionTable }
        _modify { yield &storage.preconditionTable }
    }
    var defaultAsyncPreconditions: [FlowOperationKind: AsyncPrecondition] = [:]
    /// The running transaction, or `nil`.
    @inlinable var transactionState: FlowTransactionState<Route>? {
        get { storage.transactionState }
        set { storage.transactionState = newValue }
    }
    /// Whether a synchronous rule is deciding (a request made then is refused).
    @inlinable var isDeciding: Bool {
        get { storage.isDeciding }
        set { storage.isDeciding = newValue }
    }
    /// The task (by `FlowSerialQueue.currentTask`) whose async rule decision is suspended.
    @inlinable var decidingTask: Int? {
        get { storage.decidingTask }
        set { storage.decidingTask = newValue }
    }
    /// The observers of `observe(_:)`.
    @inlinable var changeObservers: [(id: UUID, handler: @MainActor (FlowRouterEvent<Route>) -> Void)] {
        get { storage.changeObservers }
        _modify { yield &storage.changeObservers }
    }
    let serialQueue = FlowSerialQueue()
    var styleRules: [FlowStyleHook: [StyleRule]] = [:]
    /// The stacks whose views reported their appearance (`viewDidAppear(stackID:)`).
    var appearedViewStackIDs: Set<UUID> = []
    /// Whether the app reports appearances (`viewDidAppear(stackID:)` was called once).
    var reportsViewAppearance = false

    /// The router's deep links: the resolver (Swift `FlowDeepLinks` or the Lua engine), the held
    /// link and its timeout. Open links with `open(url:)`.
    public private(set) lazy var deepLinks: FlowDeepLinkCenter<Route, Dialog> = FlowDeepLinkCenter(router: self)
    /// Seconds after which a held navigation (`pendingNavigation`) is dropped; 600 (10 minutes)
    /// by default, measured with the clock of held links, `deepLinks.now`.
    public var pendingNavigationTimeout: TimeInterval = 600

    /// Creates a router with one root stack.
    public init(root: Route) {
        storage = FlowRouterStorage(state: FlowRouterState(root: root))
    }

    /// Creates a router with one root stack and a path on it.
    public convenience init(root: Route, path: [Route]) {
        self.init(root: root)
        for route in path {
            let node = storage.state.makeNode(route)
            storage.state.stacks[0].storage.append(node)
        }
    }

    /// The root stack.
    public var rootStack: FlowStackState<Route> { stacks[0] }

    /// The front-most stack.
    @inlinable public var activeStack: FlowStackState<Route> { storage.state.stacks[activeIndex] }

    /// The index of the front-most stack.
    @inlinable public var activeIndex: Int { max(storage.state.stacks.count - 1, 0) }

    /// Whether any stack is presented.
    public var isPresenting: Bool { stacks.count > 1 }

    /// The number of dialogs waiting behind the visible one.
    public var queuedGlobalDialogCount: Int { storage.state.dialogQueue.count }

    /// The queued dialogs, next first.
    public var queuedGlobalDialogs: [Dialog] { storage.state.dialogQueue }

    /// The top route of the front-most stack.
    @inlinable public var topRoute: Route { activeStack.topRoute }

    /// Whether a stack with this identity exists.
    public func containsStack(id: UUID) -> Bool {
        stacks.contains { $0.id == id }
    }

    /// FlowStack's history of navigation operations, oldest first (dialog changes are in
    /// `history`; a `push(contentsOf:)` batch appears as one record per route).
    public var operationHistory: [FlowOperationRecord<Route>] {
        var records: [FlowOperationRecord<Route>] = []
        records.reserveCapacity(history.count)
        for entry in history {
            guard let command = entry.command else { continue }
            for operation in command.operations {
                records.append(FlowOperationRecord(entry, operation: operation))
            }
        }
        return records
    }

    /// Sets (or with `nil` removes) the default precondition for one kind of operation.
    public func setDefaultPrecondition(for kind: FlowOperationKind, _ precondition: Precondition?) {
        preconditionTable[kind.tableIndex] = precondition
    }

    /// Sets (or with `nil` removes) the default async precondition for one kind of operation.
    public func setDefaultAsyncPrecondition(for kind: FlowOperationKind, _ precondition: AsyncPrecondition?) {
        defaultAsyncPreconditions[kind] = precondition
    }

    /// Removes every default precondition, sync and async.
    public func clearDefaultPreconditions() {
        preconditionTable = Array(repeating: nil, count: FlowOperationKind.allCases.count)
        defaultAsyncPreconditions.removeAll()
    }

    /// Empties the history.
    public func clearOperationHistory() {
        willChange()
        storage.state.log.removeAll()
        didChange(.historyCleared)
    }
}

/// The protocol FlowStack's routers conform to.
#if canImport(Combine)
@MainActor
public protocol FlowRouting: AnyObject, ObservableObject {
    /// The route type.
    associatedtype Route: Hashable
    /// The dialog type.
    associatedtype Dialog
    /// The stacks, root first.
    var stacks: [FlowStackState<Route>] { get }
    /// The visible global dialog.
    var globalDialog: Dialog? { get }
    /// The root identity.
    var rootID: UUID { get }
}

extension FlowRouter: ObservableObject, FlowRouting {}
#else
@MainActor
public protocol FlowRouting: AnyObject {
    /// The route type.
    associatedtype Route: Hashable
    /// The dialog type.
    associatedtype Dialog
    /// The stacks, root first.
    var stacks: [FlowStackState<Route>] { get }
    /// The visible global dialog.
    var globalDialog: Dialog? { get }
    /// The root identity.
    var rootID: UUID { get }
}

extension FlowRouter: FlowRouting {}
#endif

/// A router's stored state (see `FlowRouter.storage`): the state value and what the pipeline
/// consults on every operation.
@usableFromInline
struct FlowRouterStorage<Route: Hashable, Dialog> {
    /// The state value.
    @usableFromInline var state: FlowRouterState<Route, Dialog>
    /// `FlowRouter.guardOperation`.
    var guardOperation: FlowRouter<Route, Dialog>.Guard?
    /// `FlowRouter.didApplyOperation`.
    var didApplyOperation: FlowRouter<Route, Dialog>.Observer?
    /// The installed rules.
    @usableFromInline var rules: FlowRulesLink<Route>?
    /// The view synchronous decisions read the stacks through: reused while no rule kept the
    /// request it was in (one allocation less per navigation), replaced when one did; made for
    /// the installed rules' route conversion (dropped when the rules change).
    @usableFromInline var syncStacks: FlowRouterStacks<Route>?
    /// Default preconditions, indexed by `FlowOperationKind.tableIndex`.
    @usableFromInline var preconditionTable: [FlowRouter<Route, Dialog>.Precondition?] =
        Array(repeating: nil, count: FlowOperationKind.allCases.count)
    /// The running transaction.
    @usableFromInline var transactionState: FlowTransactionState<Route>?
    /// Whether a synchronous rule is deciding.
    @usableFromInline var isDeciding = false
    /// The task whose async rule decision is suspended.
    @usableFromInline var decidingTask: Int?
    /// Counts the router's changes (`willChange`): a request whose checks ran while it moved
    /// is validated again.
    @usableFromInline var revision = 0
    /// The observers of `observe(_:)`.
    @usableFromInline var changeObservers: [(id: UUID, handler: @MainActor (FlowRouterEvent<Route>) -> Void)] = []
    /// The automatic resume of a navigation held from an async one (`FlowRouter.automaticResume`).
    var automaticResume: Task<Void, Never>?
    /// Whether a retry of a held request is showing its next gate (its old dialog going is then
    /// not a dismissal that drops it).
    var isSettlingHeld = false
    /// `FlowRouter.guardTabSelection`.
    var guardTabSelection: (@MainActor (String) -> Bool)?

    @usableFromInline
    init(state: FlowRouterState<Route, Dialog>) {
        self.state = state
    }
}
