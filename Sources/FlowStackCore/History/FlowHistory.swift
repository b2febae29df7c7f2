import Foundation

/// The router's bounded history, oldest first: a ring buffer, so recording costs the same
/// whatever its length.
public struct FlowHistory<Route: Hashable>: RandomAccessCollection {
    @usableFromInline var buffer: [FlowHistoryEntry<Route>] = []
    @usableFromInline var head = 0
    /// The bound; 0 or less keeps everything.
    public var limit: Int { storedLimit }
    @usableFromInline var storedLimit: Int

    /// An empty history bounded to `limit` entries (0 or less: unbounded).
    public init(limit: Int) {
        self.storedLimit = limit
    }

    /// The first position.
    @inlinable public var startIndex: Int { 0 }
    /// One past the last position.
    @inlinable public var endIndex: Int { buffer.count }

    /// The entry at a position, oldest first.
    @inlinable public subscript(position: Int) -> FlowHistoryEntry<Route> {
        let physical = head + position
        return buffer[physical < buffer.count ? physical : physical - buffer.count]
    }

    /// Appends an entry, dropping the oldest when the bound is reached (the entry is moved in).
    @inlinable
    mutating func append(_ entry: consuming FlowHistoryEntry<Route>) {
        if storedLimit <= 0 || buffer.count < storedLimit {
            if head != 0 { linearize() }
            buffer.append(entry)
        } else {
            buffer[head] = entry
            head += 1
            if head == buffer.count { head = 0 }
        }
    }

    /// The stacks array the next `append` would free with the entry it evicts, taken out of that
    /// entry (which keeps an empty one until it goes); `nil` when `append` evicts nothing.
    ///
    /// The router gives its changed stacks this array's storage (`FlowRouterState.reuseEvictedStacks`)
    /// instead of copying them into a new one while the evicted entry frees this one: one
    /// allocation and one free less per recorded navigation.
    @inlinable
    mutating func takeEvictedStacks() -> [FlowStackState<Route>]? {
        guard storedLimit > 0, buffer.count >= storedLimit else { return nil }
        return buffer[head].takePreviousStacks()
    }

    /// Changes the bound, keeping the newest entries.
    mutating func setLimit(_ newLimit: Int) {
        linearize()
        storedLimit = newLimit
        if newLimit > 0, buffer.count > newLimit {
            buffer.removeFirst(buffer.count - newLimit)
        }
    }

    /// Removes every entry.
    mutating func removeAll() {
        buffer.removeAll()
        head = 0
    }

    @usableFromInline
    mutating func linearize() {
        guard head != 0 else { return }
        buffer = Array(buffer[head...] + buffer[..<head])
        head = 0
    }
}

extension FlowHistory: Sendable where Route: Sendable {}
