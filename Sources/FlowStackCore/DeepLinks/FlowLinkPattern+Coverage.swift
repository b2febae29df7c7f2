extension FlowLinkPattern {
    /// Whether every path this pattern matches is also matched by `other`.
    ///
    /// `/products/*` covers `/products/:id`, `/a/:x` covers `/a/b`, and every pattern
    /// covers itself. The answer is exact for all combinations of literals, parameters
    /// and wildcards.
    public func isCovered(by other: FlowLinkPattern) -> Bool {
        uncoveredPath(by: [other]) == nil
    }

    /// Whether every path this pattern matches is matched by at least one of `patterns`.
    ///
    /// Several patterns can cover one together without any of them covering it alone:
    /// `/` and `/:x/*` together cover `/*`.
    public func isCovered(by patterns: [FlowLinkPattern]) -> Bool {
        uncoveredPath(by: patterns) == nil
    }

    /// A concrete path (percent-decoded segments) that this pattern matches and none of
    /// `patterns` matches, or `nil` when there is none, that is, when `patterns` cover it.
    ///
    /// The analysis works on the finite set of literals that appear in the patterns: any
    /// segment that is not one of them behaves the same way everywhere, so one fresh
    /// segment stands for all of them.
    public func uncoveredPath(by patterns: [FlowLinkPattern]) -> [String]? {
        var search = FlowLinkCoverageSearch(target: segments, patterns: patterns.map(\.segments))
        return search.uncoveredPath(from: 0, states: search.initialStates)
    }
}

/// Decides whether the union of some patterns covers a target pattern, by running the
/// patterns as one nondeterministic automaton over path segments while walking the target.
struct FlowLinkCoverageSearch {
    typealias Segment = FlowLinkPattern.Segment

    /// A position inside one of the covering patterns.
    struct State: Hashable {
        var pattern: Int
        var position: Int
    }

    private struct MemoKey: Hashable {
        var targetPosition: Int
        var states: Set<State>
    }

    private let target: [Segment]
    private let patterns: [[Segment]]
    /// A segment that equals no literal in any pattern.
    private let fresh: String
    private var memo: [MemoKey: [String]?] = [:]

    init(target: [Segment], patterns: [[Segment]]) {
        self.target = target
        self.patterns = patterns
        var literals: Set<String> = []
        for segment in (patterns + [target]).joined() {
            if case .literal(let text) = segment { literals.insert(text) }
        }
        var candidate = "x"
        var counter = 1
        while literals.contains(candidate) {
            counter += 1
            candidate = "x\(counter)"
        }
        self.fresh = candidate
    }

    /// Every covering pattern at its first segment.
    var initialStates: Set<State> {
        Set(patterns.indices.map { State(pattern: $0, position: 0) })
    }

    /// A path that the target matches from `targetPosition` on and that no state in
    /// `states` accepts, or `nil` when none exists.
    mutating func uncoveredPath(from targetPosition: Int, states: Set<State>) -> [String]? {
        if states.isEmpty { return exampleRemainder(from: targetPosition) }
        let key = MemoKey(targetPosition: targetPosition, states: states)
        if let known = memo[key] { return known }
        let result: [String]?
        if targetPosition == target.count {
            result = states.contains(where: isAccepting) ? nil : []
        } else {
            switch target[targetPosition] {
            case .wildcard:
                result = nonUniversalWitness(states)
            case .literal(let text):
                result = uncoveredPath(from: targetPosition + 1, states: step(states, text)).map { [text] + $0 }
            case .parameter:
                var found: [String]?
                for symbol in relevantSymbols(states) {
                    if let rest = uncoveredPath(from: targetPosition + 1, states: step(states, symbol)) {
                        found = [symbol] + rest
                        break
                    }
                }
                result = found
            }
        }
        memo[key] = result
        return result
    }

    /// A path the target matches from `targetPosition` on (used when nothing can match any more).
    private func exampleRemainder(from targetPosition: Int) -> [String] {
        target[targetPosition...].compactMap { segment in
            switch segment {
            case .literal(let text): return text
            case .parameter: return fresh
            case .wildcard: return nil
            }
        }
    }

    /// A sequence of segments after which no state accepts, or `nil` when `states` accept
    /// every sequence (breadth-first over the reachable sets of states, so the witness is short).
    private func nonUniversalWitness(_ start: Set<State>) -> [String]? {
        var visited: Set<Set<State>> = [start]
        var queue: [(states: Set<State>, path: [String])] = [(start, [])]
        var head = 0
        while head < queue.count {
            let (states, path) = queue[head]
            head += 1
            if !states.contains(where: isAccepting) { return path }
            for symbol in relevantSymbols(states) {
                let next = step(states, symbol)
                if visited.insert(next).inserted {
                    queue.append((next, path + [symbol]))
                }
            }
        }
        return nil
    }

    /// The literals the states can consume next, plus the fresh segment standing for all others.
    private func relevantSymbols(_ states: Set<State>) -> [String] {
        var symbols: Set<String> = []
        for state in states where state.position < patterns[state.pattern].count {
            if case .literal(let text) = patterns[state.pattern][state.position] { symbols.insert(text) }
        }
        return symbols.sorted() + [fresh]
    }

    private func isAccepting(_ state: State) -> Bool {
        let segments = patterns[state.pattern]
        return state.position == segments.count || segments[state.position] == .wildcard
    }

    private func step(_ states: Set<State>, _ symbol: String) -> Set<State> {
        var next: Set<State> = []
        for state in states {
            let segments = patterns[state.pattern]
            guard state.position < segments.count else { continue }
            switch segments[state.position] {
            case .wildcard:
                next.insert(state)
            case .parameter:
                next.insert(State(pattern: state.pattern, position: state.position + 1))
            case .literal(let text):
                if text == symbol { next.insert(State(pattern: state.pattern, position: state.position + 1)) }
            }
        }
        return next
    }
}
