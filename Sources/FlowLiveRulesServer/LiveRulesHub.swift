import FlowRuleBundles
import Foundation

/// The rules `flowstack serve` hands out: the last bundle that loaded cleanly, and the apps
/// waiting in a long poll for the next one.
package actor LiveRulesHub {
    /// One served version of the rules.
    package struct Snapshot: Sendable {
        /// Counts clean loads since the server started.
        let generation: Int
        /// The quoted entity tag: a hash of the file list and contents.
        let etag: String
        /// The bundle archive.
        let body: Data
    }

    /// The rules served now, if any loaded.
    package private(set) var current: Snapshot?
    private var waiters: [UUID: CheckedContinuation<Snapshot?, Never>] = [:]

    /// Creates a hub serving nothing yet.
    package init() {}

    /// Serves `files` (the project's `routes.lua` and rules) as the next generation, a bundle
    /// archive signed with `signingKey` when given; its generation. Throws, changing nothing,
    /// when the archive cannot be made or every app would refuse it (`ServeRefusal`: the bundle
    /// limits `bundle`, `install` and launch share).
    package func publish(files: [String: Data], signingKey: FlowRuleBundleSigningKey?) throws -> Int {
        let next = (current?.generation ?? 0) + 1
        let archive = try FlowRuleBundleArchive.make(
            files: files, version: FlowRuleBundleVersion(components: [0, 0, next])!, minimumAppVersion: FlowRuleBundleVersion(components: [0])!,
            expires: Date().addingTimeInterval(30 * 86_400), signingKey: signingKey)
        do {
            try FlowRuleBundleLimits.check(archive, bundle: "the served rules")
        } catch {
            throw ServeRefusal(description: "\(error.description); every app would refuse it, so it is not published")
        }
        publish(Snapshot(generation: next, etag: Self.etag(files), body: archive.encoded()))
        return next
    }

    /// A tag that depends on the files only, so a restarted server gives the same rules the same tag.
    package static func etag(_ files: [String: Data]) -> String {
        var listing = Data()
        for path in files.keys.sorted() {
            listing.append(Data("\(path) \(FlowRuleBundle.sha256Hex(files[path] ?? Data()))\n".utf8))
        }
        return "\"\(FlowRuleBundle.sha256Hex(listing).prefix(32))\""
    }

    /// Serves `snapshot` from now on and answers every waiting poll with it.
    private func publish(_ snapshot: Snapshot) {
        current = snapshot
        let waiting = waiters
        waiters.removeAll()
        for continuation in waiting.values { continuation.resume(returning: snapshot) }
    }

    /// The rules, unless their tag is `etag`: then waits up to `seconds` for new rules and
    /// returns `nil` when none came (or the request went away).
    package func next(notMatching etag: String?, seconds: Int) async -> Snapshot? {
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

/// Why `flowstack serve` does not publish rules that loaded.
package struct ServeRefusal: Error, CustomStringConvertible {
    /// What is wrong and what happens.
    package let description: String
}
