// Which tests a run includes. Not a product: never shipped.
import Foundation

/// The two tiers of the test suite: the fast one every `swift test` runs, and the slow one that
/// `Tools/test.sh` (and so CI) adds.
///
/// The slow tier is what takes seconds of processor time or real time a test: the 10,000-sequence
/// fuzz pass, the hostile projects as processes and through the library runner, the explore
/// fixtures, the directory watcher, live rules and the bundle updater's network tests. Set
/// `FLOWSTACK_SLOW_TESTS=1` to run it; a suite of that tier says so with
/// `.enabled(if: TestTier.slow)`.
public enum TestTier {
    /// Whether this run includes the slow tier (`FLOWSTACK_SLOW_TESTS=1`).
    public static let slow: Bool = ProcessInfo.processInfo.environment["FLOWSTACK_SLOW_TESTS"] == "1"
}
