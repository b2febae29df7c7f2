import Foundation

/// Which tests a run runs, and in which order: a name filter, tags to include or exclude
/// (`#slow` in a test's or a `describe`'s name), and a seed that shuffles the order.
///
/// ```swift
/// let report = await runner.run(selection: FlowTestSelection(excludedTags: ["slow"], seed: 42))
/// ```
package struct FlowTestSelection: Sendable, Equatable {
    /// Only tests whose file or name contains this text (case-insensitive).
    package var filter: String?
    /// Only tests with at least one of these tags (empty: every test).
    package var tags: [String]
    /// No test with any of these tags.
    package var excludedTags: [String]
    /// When set, the flow files and the tests of each file run in an order shuffled by this
    /// seed; the same seed gives the same order.
    package var seed: UInt64?

    /// Creates a selection.
    package init(filter: String? = nil, tags: [String] = [], excludedTags: [String] = [], seed: UInt64? = nil) {
        self.filter = filter
        self.tags = tags
        self.excludedTags = excludedTags
        self.seed = seed
    }

    /// Whether a test's file or name contains the filter.
    package func matchesFilter(file: String, path: [String]) -> Bool {
        guard let filter, !filter.isEmpty else { return true }
        let haystack = ([file] + path).joined(separator: " › ")
        return haystack.range(of: filter, options: [.caseInsensitive]) != nil
    }

    /// Whether a test is selected: it matches the filter, has one of `tags` (if any) and none
    /// of `excludedTags`.
    package func includes(file: String, path: [String]) -> Bool {
        guard matchesFilter(file: file, path: path) else { return false }
        let testTags = FlowTestResult.tags(in: path)
        if !tags.isEmpty, !testTags.contains(where: tags.contains) { return false }
        return !testTags.contains(where: excludedTags.contains)
    }

    /// `items` in an order fixed by `seed` and `salt` (a file name, so that files differ).
    static func shuffled<T>(_ items: [T], seed: UInt64, salt: String) -> [T] {
        var state = seed ^ salt.utf8.reduce(UInt64(0xcbf2_9ce4_8422_2325)) { ($0 ^ UInt64($1)) &* 0x100_0000_01b3 }
        func next() -> UInt64 {
            state &+= 0x9e37_79b9_7f4a_7c15
            var z = state
            z = (z ^ (z >> 30)) &* 0xbf58_476d_1ce4_e5b9
            z = (z ^ (z >> 27)) &* 0x94d0_49bb_1331_11eb
            return z ^ (z >> 31)
        }
        var result = items
        guard result.count > 1 else { return result }
        for index in stride(from: result.count - 1, to: 0, by: -1) {
            let other = Int(next() % UInt64(index + 1))
            result.swapAt(index, other)
        }
        return result
    }
}
