import Foundation

/// One navigation stack: the root stack or a presented sheet or full-screen cover.
///
/// A plain value: it compares, hashes and (when `Route` is `Codable`) encodes as data. The path is
/// stored persistently, so copies and snapshots share it and cost the same at any depth.
public struct FlowStackState<Route: Hashable>: Identifiable, Hashable {
    /// The stack's identity.
    public let id: UUID
    /// The stack's root screen.
    public internal(set) var root: Route
    /// The identity of the root screen; a new one makes SwiftUI rebuild the root.
    public internal(set) var rootID: UUID
    /// How the stack is shown.
    public internal(set) var style: FlowPresentationStyle
    /// The stack's presentation options.
    public internal(set) var options: FlowPresentationOptions
    @usableFromInline var storage: FlowPath<Route>

    /// Creates a stack; screens in `path` get fresh identities.
    public init(
        id: UUID = UUID(),
        rootID: UUID = UUID(),
        root: Route,
        path: [Route] = [],
        style: FlowPresentationStyle = .root,
        options: FlowPresentationOptions = .init()
    ) {
        self.init(
            id: id, rootID: rootID, root: root,
            nodes: path.map { FlowRouteNode(route: $0) }, style: style, options: options
        )
    }

    /// Creates a stack from nodes with known identities (state restoration).
    public init(
        id: UUID,
        rootID: UUID,
        root: Route,
        nodes: [FlowRouteNode<Route>],
        style: FlowPresentationStyle,
        options: FlowPresentationOptions
    ) {
        self.id = id
        self.rootID = rootID
        self.root = root
        self.storage = FlowPath(nodes: nodes)
        self.style = style
        self.options = options
    }

    /// The screens above the root, bottom first, each with its identity.
    public internal(set) var navigationPath: [FlowRouteNode<Route>] {
        get { storage.nodes }
        set { storage = FlowPath(nodes: newValue) }
    }

    /// The routes above the root, bottom first.
    public var path: [Route] {
        // A closure, not `map(\.route)`: a key path in this generic code is instantiated at run
        // time on every call in a debug build (rules read every tab's routes per operation:
        // about 5% of exploring a tabbed app).
        storage.nodes.map { $0.route }
    }

    /// The number of screens above the root.
    public var pathCount: Int { storage.count }

    /// The route on top of the stack (the root when the path is empty).
    public var topRoute: Route {
        storage.last?.route ?? root
    }

    /// The identity of the top screen (`rootID` when the path is empty).
    public var topID: UUID {
        storage.last?.id ?? rootID
    }

    /// Replaces the root screen with a fresh identity.
    mutating func replaceRoot(_ route: Route, id: UUID) {
        root = route
        rootID = id
    }

    /// The route at a depth: 0 is the root screen, `pathCount` the top. Walks down from the
    /// top, so screens near the top are found fastest; `nil` outside `0...pathCount`.
    public func route(atDepth depth: Int) -> Route? {
        if depth == 0 { return root }
        return storage.node(at: depth - 1)?.route
    }

    /// Whether this is the root stack.
    public var isRoot: Bool {
        style == .root
    }

    /// All routes of the stack, root first.
    public var routes: [Route] {
        [root] + path
    }

    /// Stacks are equal when every field is, paths compared node by node.
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.id == rhs.id && lhs.rootID == rhs.rootID && lhs.style == rhs.style
            && lhs.options == rhs.options && lhs.root == rhs.root && lhs.storage.isSame(as: rhs.storage)
    }

    /// Hashes the identities and the shape of the stack.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(id)
        hasher.combine(rootID)
        hasher.combine(style)
        hasher.combine(storage.count)
        hasher.combine(storage.last?.id)
    }
}

extension FlowStackState: Sendable where Route: Sendable {}

extension FlowStackState: Codable where Route: Codable {
    /// What a stack is written as: every identity, the screens as `path`.
    private struct Fields: Codable {
        let id: UUID
        let rootID: UUID
        let root: Route
        let path: [FlowRouteNode<Route>]
        let style: FlowPresentationStyle
        let options: FlowPresentationOptions
    }

    /// Decodes a stack, keeping every identity.
    public init(from decoder: any Decoder) throws {
        let fields = try Fields(from: decoder)
        self.init(
            id: fields.id, rootID: fields.rootID, root: fields.root, nodes: fields.path, style: fields.style, options: fields.options)
    }

    /// Encodes a stack with every identity.
    public func encode(to encoder: any Encoder) throws {
        try Fields(id: id, rootID: rootID, root: root, path: storage.nodes, style: style, options: options).encode(to: encoder)
    }
}
