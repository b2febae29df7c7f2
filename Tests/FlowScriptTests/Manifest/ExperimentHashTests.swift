import FlowStackCore
import Foundation
import FlowStackTestSupport
import Testing
@testable import FlowScript

/// The documented assignment hash: FNV-1a 32-bit "v2" bucketing over UTF-8, ranges in ascending
/// byte order of the variant names. The table below was computed once, outside this code, by an
/// independent implementation (run with python3):
///
/// ```
/// python3 -c '
/// import functools
/// f=lambda s:functools.reduce(lambda h,b:((h^b)*16777619)&0xffffffff,s.encode("utf-8"),2166136261)
/// def v(seed,u,ranges):
///   b=f(str(f(seed+u)))%10000
///   for name,end in ranges:
///     if b<end: return name,b
///   return None,b
/// ids=["user-%d"%i for i in range(14)]+["device-ß","ユーザー7","a","42","user-123","🐱"]
/// for u in ids:
///   print(repr(u), v("paywallStyle:2026-12:",u,[("annualFirst",5000),("control",10000)]),
///         v("onboarding:v2:",u,[("classic",2000),("long",5000),("short",6000)]))'
/// ```
@Suite("Experiments: the assignment hash")
struct ExperimentHashTests {
    static let paywall = FlowExperiment(
        name: "paywallStyle", variants: [.init(name: "control", weight: 50), .init(name: "annualFirst", weight: 50)], salt: "2026-12")
    static let onboarding = FlowExperiment(
        name: "onboarding",
        variants: [.init(name: "short", weight: 10), .init(name: "long", weight: 30), .init(name: "classic", weight: 20)], salt: "v2")

    /// unit, its paywallStyle bucket and variant, its onboarding bucket and variant (nil: not
    /// enrolled): the Python table above.
    static let table: [(String, Int, String, Int, String?)] = [
        ("user-0", 1014, "annualFirst", 8408, nil), ("user-1", 9583, "control", 8281, nil),
        ("user-2", 2766, "annualFirst", 3392, "long"), ("user-3", 302, "annualFirst", 4219, "long"),
        ("user-4", 4634, "annualFirst", 9188, nil), ("user-5", 3515, "annualFirst", 3915, "long"),
        ("user-6", 8383, "control", 7676, nil), ("user-7", 3867, "annualFirst", 6174, nil),
        ("user-8", 2285, "annualFirst", 77, "classic"), ("user-9", 6527, "control", 3172, "long"),
        ("user-10", 6871, "control", 6409, nil), ("user-11", 1698, "annualFirst", 7697, nil),
        ("user-12", 5248, "control", 1095, "classic"), ("user-13", 5627, "control", 349, "classic"),
        ("device-ß", 8661, "control", 4752, "long"), ("ユーザー7", 7027, "control", 2398, "long"),
        ("a", 4497, "annualFirst", 7927, nil), ("42", 6749, "control", 6575, nil),
        ("user-123", 9676, "control", 4526, "long"), ("🐱", 3996, "annualFirst", 4206, "long"),
    ]

    @Test("FNV-1a 32 matches its published test vectors")
    func fnvVectors() {
        #expect(FlowExperimentHash.fnv1a32("") == 0x811C_9DC5)
        #expect(FlowExperimentHash.fnv1a32("a") == 0xE40C_292C)
        #expect(FlowExperimentHash.fnv1a32("foobar") == 0xBF9C_F968)
    }

    @Test("The fixed table of units gets the variants an independent implementation computed")
    func fixedTable() {
        for (unit, paywallBucket, paywallVariant, onboardingBucket, onboardingVariant) in Self.table {
            #expect(FlowExperimentHash.bucket(seed: "paywallStyle:2026-12:", unit: unit) == paywallBucket, "\(unit)")
            #expect(Self.paywall.variant(forUnit: unit) == paywallVariant, "\(unit)")
            #expect(FlowExperimentHash.bucket(seed: "onboarding:v2:", unit: unit) == onboardingBucket, "\(unit)")
            #expect(Self.onboarding.variant(forUnit: unit) == onboardingVariant, "\(unit)")
        }
    }

    @Test("Variants are laid out in ascending byte order of their names")
    func byteOrder() {
        #expect(Self.onboarding.variantNames == ["classic", "long", "short"])
        let mixed = FlowExperiment(name: "x", variants: [.init(name: "b", weight: 1), .init(name: "B", weight: 1), .init(name: "a", weight: 1)], salt: "")
        #expect(mixed.variantNames == ["B", "a", "b"])
    }

    /// The shares of 100,000 units and the chi-square statistic of the two experiments'
    /// contingency table (independence), as the distribution test checks them.
    static func distribution(units: Int) -> (paywall: [String: Int], onboarding: [String: Int], chiSquare: Double) {
        let paywallArms = ["annualFirst", "control"]
        let onboardingArms = ["classic", "long", "short", "none"]
        var table = [[Int]](repeating: [Int](repeating: 0, count: onboardingArms.count), count: paywallArms.count)
        for index in 0..<units {
            let unit = "unit-\(index)"
            let row = paywallArms.firstIndex(of: paywall.variant(forUnit: unit) ?? "")!
            let column = onboardingArms.firstIndex(of: onboarding.variant(forUnit: unit) ?? "none")!
            table[row][column] += 1
        }
        var chiSquare = 0.0
        let total = Double(units)
        for row in table.indices {
            for column in onboardingArms.indices {
                let rowSum = Double(table[row].reduce(0, +))
                let columnSum = Double(table.map { $0[column] }.reduce(0, +))
                let expected = rowSum * columnSum / total
                chiSquare += pow(Double(table[row][column]) - expected, 2) / expected
            }
        }
        var paywallShares: [String: Int] = [:]
        for (row, arm) in paywallArms.enumerated() { paywallShares[arm] = table[row].reduce(0, +) }
        var onboardingShares: [String: Int] = [:]
        for (column, arm) in onboardingArms.enumerated() { onboardingShares[arm] = table.map { $0[column] }.reduce(0, +) }
        return (paywallShares, onboardingShares, chiSquare)
    }

    @Test(
        "100,000 units: each share within 1 point of its weight; the two experiments independent (chi-square, p > 0.001)",
        .enabled(if: TestTier.slow))
    func distribution() {
        let units = 100_000
        let (paywall, onboarding, chiSquare) = Self.distribution(units: units)
        let weights: [String: Double] = ["annualFirst": 50, "control": 50, "classic": 20, "long": 30, "short": 10, "none": 40]
        for (arm, count) in paywall.merging(onboarding, uniquingKeysWith: +) {
            let share = Double(count) * 100 / Double(units)
            #expect(abs(share - weights[arm]!) <= 1, "\(arm): \(share)% for a weight of \(weights[arm]!)%")
        }
        // A 2 × 4 table: (2 - 1) × (4 - 1) = 3 degrees of freedom, whose critical value at
        // p = 0.001 is 16.266.
        #expect(chiSquare < 16.266, "chi-square \(chiSquare)")
        print("experiment distribution: paywallStyle \(paywall), onboarding \(onboarding), chi-square \(chiSquare) (df 3)")
    }
}
