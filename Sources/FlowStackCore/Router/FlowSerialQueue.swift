import Foundation

/// A strict FIFO lock for the router's async actions.
///
/// Waiters suspend on a continuation and are resumed one at a time in arrival order: no
/// spinning on `Task.yield`, and the turn passes straight to the next waiter.
@MainActor
final class FlowSerialQueue {
    private var isBusy = false
    private var waiters: [CheckedContinuation<Void, Never>] = []
    private var head = 0

    /// The number of tasks waiting for their turn.
    var waitingCount: Int { waiters.count - head }

    /// Whether an action holds the queue.
    var isRunning: Bool { isBusy }

    /// The task holding the turn (by its hash), so that its own nested requests run in its turn.
    private var holder: Int?

    /// A key for the running task, or `nil` outside a task.
    static var currentTask: Int? {
        withUnsafeCurrentTask { $0?.hashValue }
    }

    /// Waits for the caller's turn and returns true; returns false at once when the calling task
    /// already holds the turn (a request made from inside an async precondition), which would
    /// otherwise wait for itself forever. Pair a true result with `leave()`.
    func enter() async -> Bool {
        let task = Self.currentTask
        if isBusy, let task, task == holder { return false }
        await acquire()
        holder = task
        return true
    }

    /// Ends the turn taken by `enter()`.
    func leave() {
        holder = nil
        release()
    }

    /// Waits for this caller's turn.
    func acquire() async {
        if !isBusy {
            isBusy = true
            return
        }
        await withCheckedContinuation { continuation in
            waiters.append(continuation)
        }
    }

    /// Passes the turn to the next waiter, or frees the queue.
    func release() {
        if head < waiters.count {
            let next = waiters[head]
            head += 1
            if head > 32, head * 2 > waiters.count {
                waiters.removeFirst(head)
                head = 0
            }
            next.resume()
        } else {
            waiters.removeAll(keepingCapacity: true)
            head = 0
            isBusy = false
        }
    }
}
