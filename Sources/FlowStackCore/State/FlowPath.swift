import Foundation

/// One link of a persistent path: a node and the path below it.
///
/// Links never change after creation, so any number of snapshots (history entries, the state a
/// view shows) share them: a push allocates one link whatever the depth, and a pop moves a
/// pointer.
@usableFromInline
final class FlowPathLink<Route: Hashable>: @unchecked Sendable {
    // The node's fields, not a FlowRouteNode<Route>: the class's deinit is not specialized, and
    // destroying a field of type FlowRouteNode<Route> there costs a lookup of that type's
    // metadata (about 330 instructions) on every pop; Route's own metadata comes with the class's.
    @usableFromInline let id: UUID
    @usableFromInline let route: Route
    // Unchecked: written only by init and by deinit (which unlinks a uniquely held chain), when
    // nothing else can reach the link, so no access can overlap one of those writes. Every pop
    // reads it: callgrind, Swift-rules push + pop, about 134 instructions per operation more
    // without the attribute (2.4 runtime access checks per operation); swift_guarded_push_ns
    // 221 -> 211 ns with it (paired runs).
    @exclusivity(unchecked) @usableFromInline var parent: FlowPathLink<Route>?
    @usableFromInline let count: Int

    @inlinable
    init(node: FlowRouteNode<Route>, parent: FlowPathLink<Route>?) {
        self.id = node.id
        self.route = node.route
        self.parent = parent
        self.count = (parent?.count ?? 0) + 1
    }

    /// The screen this link holds.
    @inlinable var node: FlowRouteNode<Route> { FlowRouteNode(id: id, route: route) }

    deinit {
        // Unlink iteratively: releasing a long chain recursively would overflow the stack. A
        // parent that other paths share (or none, the usual case) ends no chain here.
        guard parent != nil, isKnownUniquelyReferenced(&parent!) else { return }
        var current = parent.take()
        while current != nil, isKnownUniquelyReferenced(&current!) {
            current = current!.parent.take()
        }
    }
}

/// A stack's path above its root screen, stored as a persistent list.
@usableFromInline
struct FlowPath<Route: Hashable> {
    @usableFromInline var top: FlowPathLink<Route>?

    /// An empty path.
    @inlinable init() {}

    /// A path holding these nodes, bottom first.
    @usableFromInline
    init<S: Sequence>(nodes: S) where S.Element == FlowRouteNode<Route> {
        for node in nodes { append(node) }
    }

    @inlinable var count: Int { top?.count ?? 0 }
    @inlinable var isEmpty: Bool { top == nil }
    @inlinable var last: FlowRouteNode<Route>? { top?.node }

    @inlinable
    mutating func append(_ node: FlowRouteNode<Route>) {
        top = FlowPathLink(node: node, parent: top)
    }

    /// Removes up to `k` screens from the top.
    @inlinable
    mutating func removeLast(_ k: Int) {
        var remaining = k
        while remaining > 0, let link = top {
            top = link.parent
            remaining -= 1
        }
    }

    /// Keeps the bottom `k` screens.
    mutating func keepFirst(_ k: Int) {
        removeLast(count - max(0, k))
    }

    /// The nodes, bottom first.
    var nodes: [FlowRouteNode<Route>] {
        var result = [FlowRouteNode<Route>]()
        result.reserveCapacity(count)
        var link = top
        while let current = link {
            result.append(current.node)
            link = current.parent
        }
        result.reverse()
        return result
    }

    /// The 0-based position (from the bottom) of the top-most node whose route matches.
    func lastIndex(where predicate: (Route) -> Bool) -> Int? {
        var link = top
        while let current = link {
            if predicate(current.route) { return current.count - 1 }
            link = current.parent
        }
        return nil
    }

    /// The node at a 0-based position from the bottom.
    func node(at index: Int) -> FlowRouteNode<Route>? {
        guard index >= 0, index < count else { return nil }
        var link = top
        while let current = link {
            if current.count - 1 == index { return current.node }
            link = current.parent
        }
        return nil
    }

    /// Whether two paths hold the same nodes (identity and route).
    func isSame(as other: FlowPath<Route>) -> Bool {
        var a = top
        var b = other.top
        guard count == other.count else { return false }
        while let left = a, let right = b {
            if left === right { return true }
            if left.id != right.id || left.route != right.route { return false }
            a = left.parent
            b = right.parent
        }
        return a == nil && b == nil
    }
}

extension FlowPath: @unchecked Sendable where Route: Sendable {}
