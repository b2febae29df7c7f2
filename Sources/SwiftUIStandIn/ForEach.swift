// ForEach and List (stand-in: declarations only, for type-checking SwiftUI code on platforms
// without SwiftUI; never linked on Apple platforms; runtime behaviour is not modelled).

#if !canImport(SwiftUI)

/// A structure that computes views on demand from an underlying collection of identified data.
nonisolated public struct ForEach<Data: RandomAccessCollection, ID: Hashable, Content> {
    /// The collection of underlying identified data that SwiftUI uses to create views dynamically.
    public var data: Data

    /// A function to create content on demand using the underlying data.
    public var content: (Data.Element) -> Content
}

extension ForEach: View where Content: View {
    /// A for-each is a primitive view.
    public typealias Body = Never
}

extension ForEach where ID == Data.Element.ID, Content: View, Data.Element: Identifiable {
    /// Creates an instance that computes views on demand over a collection of identifiable data.
    public init(_ data: Data, @ViewBuilder content: @escaping (Data.Element) -> Content) {
        self.data = data
        self.content = content
    }
}

extension ForEach where Content: View {
    /// Creates an instance that computes views on demand over a collection, identified by a key path.
    public init(
        _ data: Data,
        id: KeyPath<Data.Element, ID>,
        @ViewBuilder content: @escaping (Data.Element) -> Content
    ) {
        self.data = data
        self.content = content
    }
}

extension ForEach where Data == Range<Int>, ID == Int, Content: View {
    /// Creates an instance that computes views on demand over a given constant range.
    public init(_ data: Range<Int>, @ViewBuilder content: @escaping (Int) -> Content) {
        self.data = data
        self.content = content
    }
}

/// A container that presents rows of data arranged in a single column.
nonisolated public struct List<SelectionValue: Hashable, Content: View>: View {
    /// The list's rows.
    let content: Content

    /// A list is a primitive view.
    public typealias Body = Never
}

extension List where SelectionValue == Never {
    /// Creates a list with the given content.
    public init(@ViewBuilder content: () -> Content) { self.content = content() }

    /// Creates a list that computes its rows on demand from a collection of identifiable data.
    public init<Data, RowContent>(
        _ data: Data,
        @ViewBuilder rowContent: @escaping (Data.Element) -> RowContent
    )
    where
        Content == ForEach<Data, Data.Element.ID, RowContent>,
        Data: RandomAccessCollection,
        RowContent: View,
        Data.Element: Identifiable
    {
        self.content = ForEach(data, content: rowContent)
    }

    /// Creates a list that computes its rows on demand from a collection identified by a key path.
    public init<Data, ID, RowContent>(
        _ data: Data,
        id: KeyPath<Data.Element, ID>,
        @ViewBuilder rowContent: @escaping (Data.Element) -> RowContent
    )
    where Content == ForEach<Data, ID, RowContent>, Data: RandomAccessCollection, ID: Hashable, RowContent: View {
        self.content = ForEach(data, id: id, content: rowContent)
    }
}

#endif
