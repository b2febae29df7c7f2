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

    /// The whole navigation state as one value: stacks, dialog and queue, history, identities
    /// (see `FlowRouterState`). Every operation reads and writes it through `validate`, `apply`
    /// and `entry`, so the runtime checks exclusive access to one property, not to eleven.
    // `@exclusivity(unchecked)`, measured (callgrind, release bench, the paired build with and
    // without it): see the README's speed section, which lists the figures. Why no access can
    // overlap: the router is `@MainActor`; no access to `core` is held while app code runs
    // (preconditions, the guard, observers and rules are called between accesses, never inside
    // a `modify` of it); nested changes go through `FlowRouterState`'s own mutating methods.
    @exclusivity(unchecked) @usableFromInline var core: FlowRouterState<Route, Dialog>

    /// The stacks: the root stack first, the front-most presented stack last.
    @inlinable public var stacks: [FlowStackState<Route>] { core.stacks }
    /// The visible global dialog.
    public internal(set) var globalDialog: Dialog? {
        get { core.globalDialog }
        set { core.globalDialog = newValue }
    }
    /// The identity of the root; refreshed by `setRoot` of the same route.
    public internal(set) var rootID: UUID {
        get { core.rootID }
        set { core.rootID = newValue }
    }
    /// The bounded history of navigation requests and dialog changes, oldest first.
    @inlinable public var history: FlowHistory<Route> { core.history }

    /// FlowStack's guard, consulted after the preconditions.
    public var guardOperation: Guard?
    /// Called after every applied operation.
    public var didApplyOperation: Observer?
    /// The history's bound (default 200; 0 keeps everything).
    public var maximumOperationHistoryCount = 200 {
        didSet { core.log.setLimit(maximumOperationHistoryCount) }
    }
    /// Pause after each transition of the async queue, in nanoseconds.
    public var queuedTransitionDelayNanoseconds: UInt64 = 0
    /// The installed rules and the conversions of the route type (see `installRules(_:)`).
    @usableFromInline var rules: FlowRulesLink<Route>?

    /// Default preconditions, indexed by `FlowOperationKind.tableIndex`.
    @usableFromInline var preconditionTable: [Precondition?] = Array(repeating: nil, count: FlowOperationKind.allCases.count)
    var defaultAsyncPreconditions: [FlowOperationKind: AsyncPrecondition] = [:]
    @usableFromInline var transactionState: FlowTransactionState<Route>?
    /// Whether a synchronous rule is deciding (a request made then is refused).
    @usableFromInline var isDeciding = false
    /// The task (by `FlowSerialQueue.currentTask`) whose async rule decision is suspended.
    @usableFromInline var decidingTask: Int?
    let serialQueue = FlowSerialQueue()
    @usableFromInline var changeObservers: [(id: UUID, handler: @MainActor (FlowRouterEvent<Route>) -> Void)] = []
    var styleRules: [FlowStyleHook: [StyleRule]] = [:]
    /// The stacks whose views reported their appearance (`viewDidAppear(stackID:)`).
    var appearedViewStackIDs: Set<UUID> = []
    /// Whether the app reports appearances (`viewDidAppear(stackID:)` was called once).
    var reportsViewAppearance = false

    /// The router's deep links: the resolver (Swift `FlowDeepLinks` or the Lua engine), the held
    /// link and its timeout. Open links with `open(url:)`.
    public private(set) lazy var deepLinks: FlowDeepLinkCenter<Route, Dialog> = FlowDeepLinkCenter(router: self)

    /// Creates a router with one root stack.
    public init(root: Route) {
        core = FlowRouterState(root: root)
    }

    /// Creates a router with one root stack and a path on it.
    public convenience init(root: Route, path: [Route]) {
        self.init(root: root)
        for route in path {
            let node = core.makeNode(route)
            core.stacks[0].storage.append(node)
        }
    }

    /// The root stack.
    public var rootStack: FlowStackState<Route> { stacks[0] }

    /// The front-most stack.
    @inlinable public var activeStack: FlowStackState<Route> { core.stacks[activeIndex] }

    /// The index of the front-most stack.
    @inlinable public var activeIndex: Int { max(core.stacks.count - 1, 0) }

    /// Whether any stack is presented.
    public var isPresenting: Bool { stacks.count > 1 }

    /// The number of dialogs waiting behind the visible one.
    public var queuedGlobalDialogCount: Int { core.dialogQueue.count }

    /// The queued dialogs, next first.
    public var queuedGlobalDialogs: [Dialog] { core.dialogQueue }

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
                records.append(FlowOperationRecord(
                    id: entry.id, date: entry.date, operation: operation,
                    previousStacks: entry.previousStacks, newStacks: entry.newStacks,
                    status: entry.status, reason: entry.reason, source: entry.source,
                    sequence: entry.sequence, generation: entry.generation
                ))
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
        core.log.removeAll()
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
