import FlowStackCore
import Foundation

/// What each operation did from each screens exploration tried it on, with the values of the
/// facts and host answers its decisions read, in the order read: the same operation on the
/// same screens under another assignment that gives those values the same answers is not run
/// again (a decision is a function of what it read).
///
/// The lever that makes exploration fast: splitting on facts explores the same screens under
/// many assignments, and most operations read none of the facts that tell them apart (the
/// shop fixture tries each operation on each screens about twelve times without it).
@MainActor
struct FlowExploreMemo {
    /// One variable read: its index among the assignments' variables and its value number (-1:
    /// unset, the read split the branch).
    struct Read: Hashable {
        var variable: Int32
        var value: Int8
    }

    /// An operation's outcome, without the router state it led to (a router state takes a
    /// kilobyte inline: kept, it was most of the memo's memory), and what its decisions read
    /// to reach it. A class: looking through a slot's entries copies none of their fields.
    final class Entry {
        let reads: [Read]
        let codes: [UInt32]
        let changed: Bool
        let allowed: Bool
        let decision: String
        let entries: [(text: String, route: String?)]
        let locations: [String]
        let failures: [String]
        let unanswered: [String]
        let styleFailures: [String]

        init(_ outcome: FlowExplorer.Outcome, reads: [Read]) {
            let transition = outcome.transition
            self.reads = reads
            codes = transition.key.codes
            changed = transition.changed
            allowed = transition.allowed
            decision = transition.decision
            entries = transition.entries
            locations = transition.locations
            failures = transition.failures
            unanswered = outcome.unanswered
            styleFailures = outcome.styleFailures
        }
    }

    /// What the memo knows of an operation under an assignment.
    enum Answer {
        /// The outcome (its key under the assignment asked about).
        case outcome(FlowExplorer.Outcome)
        /// Its decisions read this variable, unset in the assignment: the branch splits on it.
        case split(Int)
        /// Not known: the operation runs.
        case unknown
    }

    private var screens: [[UInt32]: Int32] = [:]
    private var steps: [FlowExploreStep: Int32] = [:]
    private var entries: [Int64: [Entry]] = [:]

    /// The memo's number of `codes` (a state key's screens), to ask about operations on them.
    mutating func screensNumber(_ codes: [UInt32]) -> Int32 {
        if let number = screens[codes] { return number }
        let number = Int32(screens.count)
        screens[codes] = number
        return number
    }

    /// Where the operations `step` on `screens` are kept. Steps numbered by the caller (the
    /// route steps, in one order everywhere) pass `number`; others are numbered here, after
    /// them (hashing a step costs more than the rest of a lookup).
    mutating func slot(_ screens: Int32, _ number: Int?, _ step: FlowExploreStep) -> Int64 {
        if let number { return Int64(screens) << 32 | Int64(number) }
        let numbered: Int32
        if let known = steps[step] {
            numbered = known
        } else {
            numbered = Int32(steps.count)
            steps[step] = numbered
        }
        return Int64(screens) << 32 | Int64(1 << 20 + numbered)
    }

    /// What the operation of `slot` did under an assignment whose variable values `value` gives.
    ///
    /// An entry answers when each value it read is the assignment's: its decisions ran the same
    /// way. The first read the assignment leaves unset splits the branch (the operation would
    /// read it, unset, right there).
    /// The outcome holds no router state (`successor` is `nil`).
    func answer(_ slot: Int64, combination: Int, value: (Int) -> Int?) -> Answer {
        guard let known = entries[slot] else { return .unknown }
        // By position: iterators are most of a lookup's cost in a debug build.
        var position = 0
        entries: while position < known.count {
            let entry = known[position]
            position += 1
            let reads = entry.reads
            var index = 0
            while index < reads.count {
                let read = reads[index]
                index += 1
                guard let current = value(Int(read.variable)) else { return .split(Int(read.variable)) }
                if current != Int(read.value) { continue entries }
            }
            let transition = FlowExplorer.Transition(
                key: FlowExplorer.StateKey(codes: entry.codes, combination: combination), changed: entry.changed,
                allowed: entry.allowed, decision: entry.decision, entries: entry.entries, locations: entry.locations,
                failures: entry.failures)
            return .outcome(FlowExplorer.Outcome(
                transition: transition, unanswered: entry.unanswered, styleFailures: entry.styleFailures))
        }
        return .unknown
    }

    /// Keeps what the operation of `slot` did, having read `reads`.
    mutating func keep(_ outcome: FlowExplorer.Outcome, in slot: Int64, reads: [Read]) {
        entries[slot, default: []].append(Entry(outcome, reads: reads))
    }
}
