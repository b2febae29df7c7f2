// The test targets' one polling helper. Not a product: never shipped.

/// Checks `condition` on the main actor every 10 ms until it holds or `timeout` has passed;
/// returns whether it held.
///
/// The default, two minutes, is a bound for a loaded machine (a second build beside the suite),
/// not a speed check: a condition that holds returns at its first poll after it does.
///
/// For a state other code reaches on its own (a callback, a process's output, a reload). Past the
/// deadline the condition gets one more look after one more sleep: when the main actor is busy
/// (other suites' tests, a sanitizer run), a poll can resume after the deadline ahead of a callback
/// that was queued on time; the last poll resumes behind everything already queued, so a callback
/// that was due has run by then, and one that never came still fails.
@MainActor
public func eventually(timeout: Duration = .seconds(120), _ condition: @MainActor () -> Bool) async -> Bool {
    let deadline = ContinuousClock.now + timeout
    while !condition() {
        try? await Task.sleep(for: .milliseconds(10))
        if ContinuousClock.now >= deadline { return condition() }
    }
    return true
}
