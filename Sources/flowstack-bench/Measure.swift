import Foundation

/// Timing helpers: each figure is the best of several rounds, so a busy machine skews it less.
enum Measure {
    /// Nanoseconds per iteration of `body`, best of `rounds` rounds of `iterations` each.
    @MainActor
    static func nanosecondsPerIteration(iterations: Int, rounds: Int = 5, _ body: () -> Void) -> Double {
        let iterations = scaled(iterations)
        var best = Double.infinity
        for _ in 0..<rounds {
            let start = DispatchTime.now().uptimeNanoseconds
            for _ in 0..<iterations { body() }
            let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start)
            best = min(best, elapsed / Double(iterations))
        }
        return best
    }

    /// `iterations` scaled by `FLOWSTACK_BENCH_SCALE` (a fraction, for runs under callgrind).
    static func scaled(_ iterations: Int) -> Int {
        guard let text = ProcessInfo.processInfo.environment["FLOWSTACK_BENCH_SCALE"], let scale = Double(text), scale > 0 else {
            return iterations
        }
        return max(1, Int(Double(iterations) * scale))
    }

    /// Prints one figure as `name: value unit`.
    static func report(_ name: String, _ value: Double, _ unit: String) {
        let text = value >= 100 ? String(format: "%.0f", value) : String(format: "%.2f", value)
        print("\(name): \(text) \(unit)")
    }
}
