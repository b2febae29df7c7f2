import FlowStackCore
import FlowStackTestSupport
import Foundation
import Testing

/// Brute-force checks of the coverage analysis on a tiny alphabet.
///
/// Patterns use the literals `a` and `b`, parameters and a trailing `*`, with at most
/// `maxFixed` fixed segments. Paths use `a`, `b` and `c` (which no pattern names, so it stands
/// for every other segment) and are at most `maxFixed + 1` long: a longer path is matched
/// exactly when its first `maxFixed + 1` segments are, so these paths decide coverage.
@Suite("Deep link coverage (brute force)")
struct DeepLinkCoveragePropertyTests {
    private static let maxFixed = 3
    private static let seed: UInt64 = ProcessInfo.processInfo.environment["FLOWLINK_SEED"].flatMap { UInt64($0) }
        ?? 0x5EED_F10A

    private static let paths: [[String]] = {
        var all: [[String]] = [[]]
        var layer: [[String]] = [[]]
        for _ in 0...maxFixed {
            layer = layer.flatMap { path in ["a", "b", "c"].map { path + [$0] } }
            all += layer
        }
        return all
    }()

    /// Every pattern shape over the alphabet, with distinct parameter names.
    private static let allPatterns: [FlowLinkPattern] = {
        var texts: [[String]] = [[]]
        var layer: [[String]] = [[]]
        for _ in 0..<maxFixed {
            layer = layer.flatMap { parts in ["a", "b", ":p\(parts.count)"].map { parts + [$0] } }
            texts += layer
        }
        let withStars = texts + texts.map { $0 + ["*"] }
        // Built from valid segments only, so parsing cannot fail.
        return withStars.compactMap { try? FlowLinkPattern("/" + $0.joined(separator: "/")) }
    }()

    @Test func pairwiseCoverageAgreesWithBruteForceForEveryPair() {
        #expect(Self.allPatterns.count == 80)
        var disagreements: [String] = []
        for covering in Self.allPatterns {
            for target in Self.allPatterns {
                let brute = Self.paths.allSatisfy { !target.matches($0) || covering.matches($0) }
                if target.isCovered(by: covering) != brute {
                    disagreements.append("\(target) covered by \(covering): checker \(!brute), brute force \(brute)")
                }
                if let witness = target.uncoveredPath(by: [covering]),
                   !target.matches(witness) || covering.matches(witness) {
                    disagreements.append("bad witness \(witness) for \(target) against \(covering)")
                }
            }
        }
        #expect(disagreements.isEmpty, "\(disagreements.prefix(10))")
    }

    @Test func unionCoverageAgreesWithBruteForceOnRandomSets() {
        var random = SeededRandom(seed: Self.seed)
        var covered = 0
        for round in 0..<3000 {
            let target = Self.allPatterns[random.below(Self.allPatterns.count)]
            let earlier = (0...random.below(4)).map { _ in Self.allPatterns[random.below(Self.allPatterns.count)] }
            let distinguishing = Self.paths.first { path in target.matches(path) && !earlier.contains { $0.matches(path) } }
            let witness = target.uncoveredPath(by: earlier)
            let context = "seed \(Self.seed) round \(round): \(target) against \(earlier)"
            #expect((witness == nil) == (distinguishing == nil), "\(context); brute force found \(distinguishing ?? [])")
            if let witness {
                #expect(target.matches(witness) && !earlier.contains { $0.matches(witness) }, "\(context); witness \(witness)")
            } else {
                covered += 1
            }
        }
        #expect(covered > 100, "seed \(Self.seed): the random sets should cover their target often enough to test it")
    }

    @Test func diagnosticsFlagExactlyThePatternsThatNeverWin() throws {
        var random = SeededRandom(seed: Self.seed ^ 0xD1A6)
        var flagged = 0
        for round in 0..<400 {
            var matcher = FlowLinkMatcher<Int>()
            for index in 0..<(2 + random.below(5)) {
                matcher.add(Self.allPatterns[random.below(Self.allPatterns.count)], index)
            }
            let winners = Set(Self.paths.compactMap { path in
                matcher.match(FlowLinkRequest(link: "", scheme: nil, host: nil, pathSegments: path))?.index
            })
            let neverWin = Set(matcher.registrations.indices).subtracting(winners)
            let reported = matcher.diagnostics
            let context = "seed \(Self.seed) round \(round): \(matcher.registrations.map { "\($0.pattern)" })"
            #expect(Set(reported.map(\.subject.index)) == neverWin, "\(context)")
            #expect(reported.count == Set(reported.map(\.subject.index)).count, "\(context): one diagnostic per pattern")
            for diagnostic in reported {
                let earlier = diagnostic.earlier.map(\.pattern)
                #expect(diagnostic.earlier.allSatisfy { $0.index < diagnostic.subject.index }, "\(context)")
                #expect(diagnostic.subject.pattern.isCovered(by: earlier), "\(context): \(diagnostic.message)")
                for dropped in earlier.indices where earlier.count > 1 {
                    var fewer = earlier
                    fewer.remove(at: dropped)
                    #expect(!diagnostic.subject.pattern.isCovered(by: fewer), "\(context): cover is not minimal")
                }
            }
            flagged += reported.count
        }
        #expect(flagged > 50, "seed \(Self.seed): the random lists should produce diagnostics")
    }
}

