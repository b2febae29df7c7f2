// NavigationStack, NavigationPath and NavigationLink (stand-in: declarations only, for
// type-checking SwiftUI code on platforms without SwiftUI; never linked on Apple platforms; runtime
// behaviour is not modelled: no path is synchronised and no destination is looked up).

#if !canImport(SwiftUI)

/// A type-erased list of data representing the content of a navigation stack.
public struct NavigationPath: Equatable {
    /// The values on the path, oldest first.
    var elements: [AnyHashable]

    /// Creates a new, empty navigation path.
    public init() { self.elements = [] }

    /// Creates a new navigation path from the contents of a sequence.
    public init<S: Sequence>(_ elements: S) where S.Element: Hashable {
        self.elements = elements.map { AnyHashable($0) }
    }

    /// Creates a new navigation path from the contents of a sequence of codable values.
    public init<S: Sequence>(_ elements: S) where S.Element: Hashable, S.Element: Codable {
        self.elements = elements.map { AnyHashable($0) }
    }

    /// The number of elements in this path.
    public var count: Int { elements.count }

    /// A Boolean that indicates whether this path is empty.
    public var isEmpty: Bool { elements.isEmpty }

    /// Appends a new value to the end of this path.
    public mutating func append<V: Hashable>(_ value: V) { elements.append(AnyHashable(value)) }

    /// Appends a new codable value to the end of this path.
    public mutating func append<V: Hashable & Codable>(_ value: V) { elements.append(AnyHashable(value)) }

    /// Removes values from the end of this path.
    public mutating func removeLast(_ k: Int = 1) { elements.removeLast(k) }
}

/// A view that displays a root view and enables you to present additional views over the root view.
nonisolated public struct NavigationStack<Data, Root: View>: View {
    /// The view shown when the stack is empty.
    let root: Root

    /// A navigation stack is a primitive view.
    public typealias Body = Never
}

extension NavigationStack where Data == NavigationPath {
    /// Creates a navigation stack that manages its own navigation state.
    public init(@ViewBuilder root: () -> Root) { self.root = root() }

    /// Creates a navigation stack with heterogeneous navigation state that you can control.
    public init(path: Binding<NavigationPath>, @ViewBuilder root: () -> Root) { self.root = root() }
}

extension NavigationStack
where
    Data: MutableCollection,
    Data: RandomAccessCollection,
    Data: RangeReplaceableCollection,
    Data.Element: Hashable
{
    /// Creates a navigation stack with homogeneous navigation state that you can control.
    public init(path: Binding<Data>, @ViewBuilder root: () -> Root) { self.root = root() }
}

/// A view that controls a navigation presentation.
nonisolated public struct NavigationLink<Label: View, Destination: View>: View {
    /// The link's label.
    let label: Label

    /// Creates a navigation link that presents the destination view.
    public init(@ViewBuilder destination: () -> Destination, @ViewBuilder label: () -> Label) {
        self.label = label()
    }

    /// A navigation link is a primitive view.
    public typealias Body = Never
}

extension NavigationLink where Destination == Never {
    /// Creates a navigation link that presents the view corresponding to a value.
    public init<P: Hashable>(value: P?, @ViewBuilder label: () -> Label) { self.label = label() }

    /// Creates a navigation link that presents the view for a value, labelled from a localized key.
    public init<P: Hashable>(_ titleKey: LocalizedStringKey, value: P?) where Label == Text {
        self.label = Text(titleKey)
    }

    /// Creates a navigation link that presents the view for a value, labelled from a string.
    @_disfavoredOverload
    public init<S: StringProtocol, P: Hashable>(_ title: S, value: P?) where Label == Text {
        self.label = Text(title)
    }
}

#endif
