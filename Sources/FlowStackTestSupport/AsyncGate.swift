// A one-shot gate for ordering async tests. Not a product: never shipped.

/// Suspends waiters until `open()` is called; waiters arriving after that pass straight through.
@MainActor
public final class AsyncGate {
    private var isOpen = false
    private var waiters: [CheckedContinuation<Void, Never>] = []

    /// The number of tasks suspended at the gate.
    public var waitingCount: Int { waiters.count }

    /// Creates a closed gate.
    public init() {}

    /// Waits until the gate is open.
    public func wait() async {
        if isOpen { return }
        await withCheckedContinuation { waiters.append($0) }
    }

    /// Opens the gate and resumes every waiter.
    public func open() {
        isOpen = true
        let resumed = waiters
        waiters.removeAll()
        for waiter in resumed { waiter.resume() }
    }
}

/// Yields to other main-actor tasks until `condition` holds or `limit` turns have passed.
@MainActor
public func yieldUntil(limit: Int = 10_000, _ condition: () -> Bool) async {
    var turns = 0
    while !condition(), turns < limit {
        await Task.yield()
        turns += 1
    }
}

/// Runs `operation` in a new main-actor task and returns its value, or `nil` when it has not
/// finished after `seconds` (a deadlock then fails the test instead of hanging the run).
@MainActor
public func valueWithin<T: Sendable>(seconds: Double, _ operation: @escaping @MainActor () async -> T) async -> T? {
    let race = FirstResult<T>()
    return await withCheckedContinuation { continuation in
        race.continuation = continuation
        Task { @MainActor in race.finish(await operation()) }
        Task { @MainActor in
            try? await Task.sleep(nanoseconds: UInt64(seconds * 1_000_000_000))
            race.finish(nil)
        }
    }
}

/// Resumes a continuation with the first result it is given.
@MainActor
private final class FirstResult<T: Sendable> {
    var continuation: CheckedContinuation<T?, Never>?

    func finish(_ value: T?) {
        continuation?.resume(returning: value)
        continuation = nil
    }
}
