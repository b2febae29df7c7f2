import FlowStackCore
import FlowStackTestSupport
import Foundation
import Testing

/// Property-based fuzzing of the router: random operation sequences checked step by step
/// against a reference model and the router's invariants.
///
/// The base seed is fixed; set `FLOWSTACK_FUZZ_SEED` (hex `0x…` or decimal) to explore others
/// or replay a reported failure, and `FLOWSTACK_FUZZ_SEQUENCES` to change the number of sync
/// sequences (the async property runs a twentieth as many): 10,000 in the slow tier
/// (`TestTier.slow`, what `Tools/test.sh` and CI run), 500 in the fast one. A failure reports the
/// seed and the shortest sequence that reproduces it.
@Suite("Router fuzzing")
@MainActor
struct RouterFuzzTests {
    static let baseSeed: UInt64 = ProcessInfo.processInfo.environment["FLOWSTACK_FUZZ_SEED"].flatMap(parseSeed) ?? 0xF10A_57AC_2025_0007
    static let sequences = ProcessInfo.processInfo.environment["FLOWSTACK_FUZZ_SEQUENCES"].flatMap { Int($0) } ?? (TestTier.slow ? 10_000 : 500)

    nonisolated static func parseSeed(_ text: String) -> UInt64? {
        let trimmed = text.trimmingCharacters(in: .whitespaces).lowercased()
        return trimmed.hasPrefix("0x") ? UInt64(trimmed.dropFirst(2), radix: 16) : UInt64(trimmed)
    }

    @Test func syncSequencesKeepEveryInvariant() async {
        var steps = 0
        for index in 0..<Self.sequences {
            // About a millisecond a sequence: every 20, the other main-actor tests get their turn
            // (without it, this loop holds the main actor for seconds and they wait).
            if index % 20 == 19 { await Task.yield() }
            let seed = SeededRandom.sequenceSeed(base: Self.baseSeed, index: index)
            var generator = FuzzGenerator(seed: seed)
            let sequence = generator.sequence(length: 5 + generator.random.below(7), async: false)
            let executor = FuzzExecutor()
            if let violation = executor.run(sequence) {
                await report("sync", index: index, sequence: sequence, violation) { FuzzExecutor().run($0) }
                return
            }
            steps += executor.stepsRun
        }
        print("fuzz: \(Self.sequences) sync sequences, \(steps) steps, seed 0x\(String(Self.baseSeed, radix: 16))")
    }

    @Test func asyncSequencesKeepEveryInvariant() async {
        let count = max(Self.sequences / 20, 1)
        var steps = 0
        for index in 0..<count {
            let seed = SeededRandom.sequenceSeed(base: ~Self.baseSeed, index: index)
            var generator = FuzzGenerator(seed: seed)
            let sequence = generator.sequence(length: 5 + generator.random.below(8), async: true)
            let executor = FuzzExecutor()
            if let violation = await executor.runAsync(sequence) {
                await report("async", index: index, sequence: sequence, violation) { await FuzzExecutor().runAsync($0) }
                return
            }
            steps += executor.stepsRun
        }
        print("fuzz: \(count) async sequences, \(steps) steps, seed 0x\(String(Self.baseSeed, radix: 16))")
    }

    /// Shrinks a failing sequence and records it as a test issue.
    private func report(
        _ property: String, index: Int, sequence: [FuzzStep], _ violation: FuzzViolation,
        run: @escaping ([FuzzStep]) async -> FuzzViolation?
    ) async {
        var shrinker = FuzzShrinker(run: run)
        let (shortest, final) = await shrinker.shrink(sequence, violation)
        Issue.record(Comment(rawValue: Self.failureText(
            property: property, index: index, original: sequence.count, shortest: shortest, violation: final)))
    }

    static func failureText(property: String, index: Int, original: Int, shortest: [FuzzStep], violation: FuzzViolation) -> String {
        var lines = [
            "fuzz: \(property) property failed at sequence \(index) of seed 0x\(String(baseSeed, radix: 16)) "
                + "(replay: FLOWSTACK_FUZZ_SEED=0x\(String(baseSeed, radix: 16)) swift test --filter Fuzz)",
            "  \(violation) after step \(violation.stepIndex + 1)",
            "  shortest reproducing sequence (\(shortest.count) of \(original) steps), on FlowRouter<FuzzRoute, String>(root: .home) with the rules hook installed:",
        ]
        for (number, step) in shortest.enumerated() {
            let stepLines = step.lines(indent: "")
            lines.append("  \(number + 1). " + stepLines[0])
            lines += stepLines.dropFirst().map { "     " + $0 }
        }
        return lines.joined(separator: "\n")
    }
}

@Suite("Router fuzzing: the harness")
@MainActor
struct FuzzHarnessTests {
    /// A fault injected through the executor's extra check must be found and shrunk to its
    /// cause: a root path of three screens or more while a dialog is visible.
    @Test func shrinkingReducesAnInjectedFaultToItsCause() async {
        let fault: (FuzzRouter) -> String? = { router in
            router.rootStack.pathCount >= 3 && router.globalDialog != nil ? "root path of 3 with a dialog" : nil
        }
        var found: (sequence: [FuzzStep], violation: FuzzViolation)?
        for index in 0..<2000 where found == nil {
            var generator = FuzzGenerator(seed: SeededRandom.sequenceSeed(base: 0xFA17, index: index))
            let sequence = generator.sequence(length: 20, async: false)
            if let violation = FuzzExecutor(extraCheck: fault).run(sequence), violation.kind == "injected" {
                found = (sequence, violation)
            }
        }
        guard let found else {
            Issue.record("no generated sequence reached the injected fault")
            return
        }
        var shrinker = FuzzShrinker(run: { FuzzExecutor(extraCheck: fault).run($0) })
        let (shortest, violation) = await shrinker.shrink(found.sequence, found.violation)
        #expect(violation.kind == "injected")
        #expect(FuzzExecutor(extraCheck: fault).run(shortest)?.kind == "injected")
        #expect(shortest.count <= 3, "\(shortest)")
        #expect(shortest.count < found.sequence.count)
        #expect(shortest.contains { if case .showDialog = $0 { true } else { false } })
        let text = RouterFuzzTests.failureText(property: "sync", index: 0, original: found.sequence.count, shortest: shortest, violation: violation)
        #expect(text.contains("shortest reproducing sequence (\(shortest.count) of \(found.sequence.count) steps)"))
        #expect(text.contains("showGlobalDialog("))
    }

    /// The model and the router agree on a hand-written sequence, and a wrong model is caught.
    @Test func theExecutorCatchesAModelThatDisagrees() {
        let steps: [FuzzStep] = [
            .action(.push(.a, .active), condition: nil, rules: []),
            .action(.present(.b, .sheet, path: [.c], FlowPresentationOptions()), condition: nil, rules: [.redirect(.push(.d, .root))]),
            .transaction([.action(.push(.c, .active), condition: nil, rules: []), .action(.popTo(.login, .exclusive, .root), condition: nil, rules: [])], throwing: false),
        ]
        #expect(FuzzExecutor().run(steps) == nil)
        let executor = FuzzExecutor()
        executor.model.guardGate = .blockRoute(.a)
        #expect(executor.run(steps)?.kind == "model")
    }

    /// Generation is a function of the seed alone.
    @Test func generationIsReproducible() {
        var first = FuzzGenerator(seed: 42)
        var second = FuzzGenerator(seed: 42)
        #expect(first.sequence(length: 50, async: true) == second.sequence(length: 50, async: true))
        #expect(RouterFuzzTests.parseSeed("0x2a") == 42)
        #expect(RouterFuzzTests.parseSeed("42") == 42)
    }
}

extension FuzzViolation: Equatable {
    static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.kind == rhs.kind && lhs.message == rhs.message && lhs.stepIndex == rhs.stepIndex
    }
}
