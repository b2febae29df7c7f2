import FlowStackCore
import Foundation

/// Delta debugging: the shortest sequence that still breaks the same invariant.
///
/// Repeatedly drops everything after the failing step, removes chunks of steps (halves, then
/// quarters, down to single steps), and simplifies the remaining steps (removes conditions,
/// rules and interleavings, empties or inlines transactions), keeping a change only while the
/// failure of the same kind persists.
@MainActor
struct FuzzShrinker {
    /// Runs a candidate sequence; returns its violation, or `nil` when it passes.
    let run: ([FuzzStep]) async -> FuzzViolation?
    /// The most candidates tried.
    var budget = 4000

    /// The shortest failing sequence found, and its violation.
    mutating func shrink(_ steps: [FuzzStep], _ violation: FuzzViolation) async -> ([FuzzStep], FuzzViolation) {
        var best = steps
        var bestViolation = violation
        func attempt(_ candidate: [FuzzStep]) async -> Bool {
            guard budget > 0, candidate != best else { return false }
            budget -= 1
            guard let found = await run(candidate), found.kind == violation.kind else { return false }
            best = candidate
            bestViolation = found
            return true
        }
        var progress = true
        while progress, budget > 0 {
            progress = false
            if bestViolation.stepIndex + 1 < best.count, await attempt(Array(best[...bestViolation.stepIndex])) {
                progress = true
            }
            var chunk = max(best.count / 2, 1)
            while chunk >= 1 {
                var start = 0
                while start < best.count {
                    let end = min(best.count, start + chunk)
                    if await attempt(Array(best[..<start] + best[end...])) {
                        progress = true
                    } else {
                        start += chunk
                    }
                }
                chunk /= 2
            }
            var index = 0
            while index < best.count {
                for replacement in Self.simplifications(of: best[index]) {
                    if await attempt(Array(best[..<index] + replacement + best[(index + 1)...])) {
                        progress = true
                        break
                    }
                }
                index += 1
            }
        }
        return (best, bestViolation)
    }

    /// Simpler replacements for one step (each a list spliced in its place).
    static func simplifications(of step: FuzzStep) -> [[FuzzStep]] {
        switch step {
        case .action(let op, let condition, let rules):
            var result: [[FuzzStep]] = []
            if condition != nil { result.append([.action(op, condition: nil, rules: rules)]) }
            for smaller in fewer(rules) { result.append([.action(op, condition: condition, rules: smaller)]) }
            return result
        case .asyncAction(let op, let condition, let rules, let interleave):
            var result: [[FuzzStep]] = [[.action(op, condition: condition, rules: rules)]]
            if let interleave {
                result.append([.asyncAction(op, condition: condition, rules: rules, interleave: nil)])
                result.append([.action(interleave.op, condition: nil, rules: interleave.rules),
                               .asyncAction(op, condition: condition, rules: rules, interleave: nil)])
            } else if condition != nil {
                result.append([.asyncAction(op, condition: nil, rules: rules, interleave: nil)])
            }
            for smaller in fewer(rules) { result.append([.asyncAction(op, condition: condition, rules: smaller, interleave: interleave)]) }
            return result
        case .queued(let op, let rules):
            return [[.action(op, condition: nil, rules: rules)]] + fewer(rules).map { [.queued(op, rules: $0)] }
        case .transaction(let steps, let throwing):
            var result: [[FuzzStep]] = [steps]
            if throwing { result.append([.transaction(steps, throwing: false)]) }
            for index in steps.indices {
                result.append([.transaction(Array(steps[..<index] + steps[(index + 1)...]), throwing: throwing)])
                for replacement in simplifications(of: steps[index]) {
                    result.append([.transaction(Array(steps[..<index] + replacement + steps[(index + 1)...]), throwing: throwing)])
                }
            }
            return result
        default:
            return []
        }
    }

    /// The decision lists with one decision removed, shortest first.
    private static func fewer(_ rules: [FuzzDecision]) -> [[FuzzDecision]] {
        guard !rules.isEmpty else { return [] }
        return [[]] + (rules.count > 1 ? rules.indices.map { index in Array(rules[..<index] + rules[(index + 1)...]) } : [])
    }
}
