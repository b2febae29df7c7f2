import Foundation
#if canImport(Combine)
import Combine
#endif

/// The router's publishers, FlowStack's `@Published` projections: `router.$stacks`,
/// `router.$globalDialog`, `router.$rootID` and `router.$operationHistory`.
///
/// `router.$stacks` is looked up here (`FlowRouter` is `@dynamicMemberLookup` over this type
/// only, so a misspelt member is still an error). Where Combine exists each is a Combine
/// `Publisher` that, like `@Published`, emits the current value when subscribed and the new
/// value on every change; unlike `@Published` it emits after the change, so a subscriber that
/// reads the router sees the new state. Where Combine does not exist (Linux) the publishers are
/// only declared, so that app code type-checks; `observe(_:)` is the signal that works everywhere.
@MainActor
public struct FlowRouterPublishers<Route: Hashable, Dialog> {
    /// The stacks, root first.
    @FlowPublishedValue public var stacks: [FlowStackState<Route>]
    /// The visible global dialog.
    @FlowPublishedValue public var globalDialog: Dialog?
    /// The identity of the root.
    @FlowPublishedValue public var rootID: UUID
    /// FlowStack's history of navigation operations.
    @FlowPublishedValue public var operationHistory: [FlowOperationRecord<Route>]

    init(router: FlowRouter<Route, Dialog>) {
        #if canImport(Combine)
        _stacks = FlowPublishedValue({ router.stacks }, { router.publisher(\.stacks, \.stacks) })
        _globalDialog = FlowPublishedValue({ router.globalDialog }, { router.publisher(\.globalDialog, \.globalDialog) })
        _rootID = FlowPublishedValue({ router.rootID }, { router.publisher(\.rootID, \.rootID) })
        _operationHistory = FlowPublishedValue(
            { router.operationHistory }, { router.publisher(\.operationHistory, \.operationHistory) })
        #else
        _stacks = FlowPublishedValue({ router.stacks }, { FlowValuePublisher() })
        _globalDialog = FlowPublishedValue({ router.globalDialog }, { FlowValuePublisher() })
        _rootID = FlowPublishedValue({ router.rootID }, { FlowValuePublisher() })
        _operationHistory = FlowPublishedValue({ router.operationHistory }, { FlowValuePublisher() })
        #endif
    }
}

/// One property of `FlowRouterPublishers`: its value is the router's, its projection
/// (`router.$name`) the publisher, made when asked for.
@MainActor
@propertyWrapper
public struct FlowPublishedValue<Value> {
    let read: @MainActor () -> Value
    let make: @MainActor () -> FlowValuePublisher<Value>

    /// The router's current value.
    public var wrappedValue: Value { read() }

    /// The publisher of this value.
    public var projectedValue: FlowValuePublisher<Value> { make() }

    init(_ read: @escaping @MainActor () -> Value, _ make: @escaping @MainActor () -> FlowValuePublisher<Value>) {
        self.read = read
        self.make = make
    }
}

/// A router value's publisher (`router.$stacks`): a Combine `Publisher` of the value where
/// Combine exists, with `Failure == Never`.
public struct FlowValuePublisher<Value> {
    #if canImport(Combine)
    let subject: CurrentValueSubject<Value, Never>
    #endif
}

extension FlowRouter {
    /// `router.$stacks`, `$globalDialog`, `$rootID`, `$operationHistory`: FlowStack's
    /// `@Published` projections (see `FlowRouterPublishers`).
    public subscript<Member>(dynamicMember member: KeyPath<FlowRouterPublishers<Route, Dialog>, Member>) -> Member {
        FlowRouterPublishers(router: self)[keyPath: member]
    }
}

#if canImport(Combine)
extension FlowValuePublisher: Publisher {
    /// The router's value.
    public typealias Output = Value
    /// Never fails.
    public typealias Failure = Never

    /// Attaches a subscriber: it receives the current value, then every new one.
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Value, S.Failure == Never {
        subject.receive(subscriber: subscriber)
    }
}

/// The router's subjects, made the first time a publisher is asked for, and kept up to date by
/// an observer of the router from then on.
@MainActor
final class FlowRouterSubjects<Route: Hashable, Dialog> {
    let stacks = FlowValueSubject<[FlowStackState<Route>]>()
    let globalDialog = FlowValueSubject<Dialog?>()
    let rootID = FlowValueSubject<UUID>()
    let operationHistory = FlowValueSubject<[FlowOperationRecord<Route>]>()

    /// Sends the values an event may have changed.
    func publish(_ event: FlowRouterEvent<Route>, from router: FlowRouter<Route, Dialog>) {
        if case .recorded(let entry) = event, entry.dialogChange != nil {
            globalDialog.send { router.globalDialog }
            return
        }
        if case .historyCleared = event {
            operationHistory.send { router.operationHistory }
            return
        }
        stacks.send { router.stacks }
        rootID.send { router.rootID }
        globalDialog.send { router.globalDialog }
        operationHistory.send { router.operationHistory }
    }
}

/// A subject made when first subscribed to; sends read values only once it exists.
@MainActor
final class FlowValueSubject<Value> {
    private var made: CurrentValueSubject<Value, Never>?

    func subject(initial: () -> Value) -> CurrentValueSubject<Value, Never> {
        if let made { return made }
        let subject = CurrentValueSubject<Value, Never>(initial())
        made = subject
        return subject
    }

    func send(_ read: () -> Value) {
        made?.send(read())
    }
}

extension FlowRouter {
    /// The publisher of one value, over its subject (made once).
    func publisher<Value>(
        _ value: KeyPath<FlowRouter, Value>, _ subject: KeyPath<FlowRouterSubjects<Route, Dialog>, FlowValueSubject<Value>>
    ) -> FlowValuePublisher<Value> {
        FlowValuePublisher(subject: publishedValues()[keyPath: subject].subject(initial: { self[keyPath: value] }))
    }

    /// The subjects behind the publishers, made (and hooked to the router's changes) once.
    func publishedValues() -> FlowRouterSubjects<Route, Dialog> {
        if let publishers { return publishers }
        let made = FlowRouterSubjects<Route, Dialog>()
        publishers = made
        observe { [unowned self, unowned made] event in made.publish(event, from: self) }
        return made
    }
}
#endif
