import Foundation
#if canImport(Combine)
import Combine
#endif

/// The router's publishers, FlowStack's `@Published` projections: `router.$stacks`,
/// `router.$globalDialog`, `router.$rootID` and `router.$operationHistory`.
///
/// `router.$stacks` is looked up here (`FlowRouter` is `@dynamicMemberLookup` over this type
/// only, so a misspelt member is still an error). Where Combine exists each is a Combine
/// `Publisher` that, like `@Published`, emits the current value when subscribed and then a value
/// each time that value changed (an operation that changed nothing, or changed only the dialog,
/// sends nothing on `$stacks`); unlike `@Published` it emits after the change, so a subscriber
/// that reads the router sees the new state. Where Combine does not exist (Linux) the publishers are
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
/// an observer of the router from then on: each sends only the values that changed.
@MainActor
final class FlowRouterSubjects<Route: Hashable, Dialog> {
    let stacks = FlowValueSubject<[FlowStackState<Route>]>()
    let globalDialog = FlowValueSubject<Dialog?>()
    let rootID = FlowValueSubject<UUID>()
    let operationHistory = FlowValueSubject<[FlowOperationRecord<Route>]>()
    var changes: FlowPublishedChanges<Route, Dialog>

    init(router: FlowRouter<Route, Dialog>) {
        changes = FlowPublishedChanges(router)
    }

    /// Sends the values the last event changed.
    func publish(from router: FlowRouter<Route, Dialog>) {
        let changed = changes.update(router)
        if changed.contains(.stacks) { stacks.send { router.stacks } }
        if changed.contains(.rootID) { rootID.send { router.rootID } }
        if changed.contains(.globalDialog) { globalDialog.send { router.globalDialog } }
        if changed.contains(.operationHistory) { operationHistory.send { router.operationHistory } }
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
        let made = FlowRouterSubjects<Route, Dialog>(router: self)
        publishers = made
        observe { [unowned self, unowned made] _ in made.publish(from: self) }
        return made
    }
}
#endif

/// The published values that changed since the last look (`FlowRouterSubjects` sends only
/// those). Kept apart from Combine so every platform tests it.
@MainActor
struct FlowPublishedChanges<Route: Hashable, Dialog> {
    /// Which values changed.
    typealias Values = FlowPublishedValues

    private var stacks: [FlowStackState<Route>]
    private var rootID: UUID
    private var globalDialog: Dialog?
    private var navigation: FlowNavigationMark

    init(_ router: FlowRouter<Route, Dialog>) {
        stacks = router.stacks
        rootID = router.rootID
        globalDialog = router.globalDialog
        navigation = FlowNavigationMark(router.history)
    }

    /// The values that differ from the last look, which now becomes the router's state.
    mutating func update(_ router: FlowRouter<Route, Dialog>) -> Values {
        var changed: Values = []
        // Arrays sharing their storage compare without reading the elements.
        if router.stacks != stacks {
            stacks = router.stacks
            changed.insert(.stacks)
        }
        if router.rootID != rootID {
            rootID = router.rootID
            changed.insert(.rootID)
        }
        if !router.isSameDialog(router.globalDialog, globalDialog) {
            globalDialog = router.globalDialog
            changed.insert(.globalDialog)
        }
        let mark = FlowNavigationMark(router.history)
        if mark != navigation {
            navigation = mark
            changed.insert(.operationHistory)
        }
        return changed
    }
}

/// Which of the published values changed.
struct FlowPublishedValues: OptionSet {
    let rawValue: Int
    static let stacks = FlowPublishedValues(rawValue: 1)
    static let rootID = FlowPublishedValues(rawValue: 2)
    static let globalDialog = FlowPublishedValues(rawValue: 4)
    static let operationHistory = FlowPublishedValues(rawValue: 8)
}

/// Where the history's navigation entries begin and end: entries are only appended at the end,
/// dropped from the front or all cleared, so `operationHistory` changed exactly when this did.
struct FlowNavigationMark: Equatable {
    let first: Int?
    let last: Int?

    init<Route: Hashable>(_ history: FlowHistory<Route>) {
        first = history.first { $0.command != nil }?.sequence
        last = history.last { $0.command != nil }?.sequence
    }
}

extension FlowRouter {
    /// Whether two dialogs are the same: by `==` when the dialog type is `Equatable`, else by
    /// the key the history records (its `id` when `Identifiable`, else its description).
    func isSameDialog(_ a: Dialog?, _ b: Dialog?) -> Bool {
        switch (a, b) {
        case (nil, nil): return true
        case (nil, _), (_, nil): return false
        case let (a?, b?):
            if let equatable = a as? any Equatable { return equatable.isEqual(to: b) }
            return dialogKey(a) == dialogKey(b)
        }
    }
}

extension Equatable {
    /// Whether `other` is a value of this type equal to this one.
    fileprivate func isEqual(to other: Any) -> Bool {
        (other as? Self) == self
    }
}
