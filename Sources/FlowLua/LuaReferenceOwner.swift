import Foundation

/// The thread-safe part of a VM that registry references report to when they are released.
package final class LuaReferenceOwner: @unchecked Sendable {
    private let lock = NSLock()
    private var released: [Int32] = []
    private var closed = false

    /// Queues `reference` for `luaL_unref` (ignored once the VM is closed).
    func release(_ reference: Int32) {
        lock.lock()
        defer { lock.unlock() }
        if !closed { released.append(reference) }
    }

    /// Takes the queued references.
    func drain() -> [Int32] {
        lock.lock()
        defer { lock.unlock() }
        let taken = released
        released.removeAll(keepingCapacity: true)
        return taken
    }

    /// Stops queueing: the VM's registry is gone.
    func markClosed() {
        lock.lock()
        defer { lock.unlock() }
        closed = true
        released.removeAll()
    }
}
