import Foundation

/// The rules `flowstack serve` hands out: the last bundle that loaded cleanly, and the apps
/// waiting in a long poll for the next one.
actor LiveRulesHub {
    /// One served version of the rules.
    struct Snapshot: Sendable {
        /// Counts clean loads since the server started.
        let generation: Int
        /// The quoted entity tag: a hash of the file list and contents.
        let etag: String
        /// The bundle archive.
        let body: Data
    }

    private(set) var current: Snapshot?
    private var waiters: [UUID: CheckedContinuation<Snapshot?, Never>] = [:]

    /// Serves `snapshot` from now on and answers every waiting poll with it.
    func publish(_ snapshot: Snapshot) {
        current = snapshot
        let waiting = waiters
        waiters.removeAll()
        for continuation in waiting.values { continuation.resume(returning: snapshot) }
    }

    /// The rules, unless their tag is `etag`: then waits up to `seconds` for new rules and
    /// returns `nil` when none came (or the request went away).
    func next(notMatching etag: String?, seconds: Int) async -> Snapshot? {
        if let current, current.etag != etag { return current }
        guard seconds > 0, current != nil else { return nil }
        let id = UUID()
        let timer = Task { [weak self] in
            try? await Task.sleep(for: .seconds(seconds))
            await self?.expire(id)
        }
        defer { timer.cancel() }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                waiters[id] = continuation
            }
        } onCancel: {
            Task { await self.expire(id) }
        }
    }

    private func expire(_ id: UUID) {
        waiters.removeValue(forKey: id)?.resume(returning: nil)
    }
}
