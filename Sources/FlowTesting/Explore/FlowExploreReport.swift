import FlowStackCore
import Foundation

/// One problem `flowstack explore` found, with the facts that show it and the shortest trace
/// from the root.
package struct FlowExploreFinding: Hashable, Sendable, Codable {
    /// What was found.
    package enum Kind: String, Hashable, Sendable, Codable, CaseIterable {
        /// A declared route no explored state shows, under any facts.
        case unreachable
        /// A rule raised an error or broke a budget.
        case ruleError = "rule-error"
        /// Redirects that never settle.
        case redirectLoop = "redirect-loop"
        /// A state from which no allowed operation leads back to the root state.
        case trap
        /// A property of `explore/*.lua` that a reachable state breaks.
        case invariant
        /// A registered rule that never changed a decision.
        case deadRule = "dead-rule"
        /// A host function called with no listed answers (`explore.hostAnswers`).
        case unansweredHost = "unanswered-host"
    }

    /// What was found.
    package var kind: Kind
    /// One sentence saying what is wrong and what to do.
    package var message: String
    /// The route concerned, if one.
    package var route: String?
    /// The rule's `file:line`, if known.
    package var location: String?
    /// The invariant's name (`invariant` findings).
    package var invariant: String?
    /// The fact assignment that shows it (host answers as `host.<name>`).
    package var facts: [String: FlowScriptValue]
    /// The shortest trace from the root, as history steps (`push checkout`).
    package var trace: [String]
    /// The steps of the trace, to replay them (emitted flows).
    package var steps: [FlowExploreStep]

    /// Creates a finding.
    package init(
        kind: Kind, message: String, route: String? = nil, location: String? = nil, invariant: String? = nil,
        facts: [String: FlowScriptValue] = [:], steps: [FlowExploreStep] = []
    ) {
        self.kind = kind
        self.message = message
        self.route = route
        self.location = location
        self.invariant = invariant
        self.facts = facts
        self.steps = steps
        self.trace = steps.map(\.description)
    }

    private enum CodingKeys: String, CodingKey {
        case kind, message, route, location, invariant, facts, trace
    }

    /// Decodes a finding from its JSON (the steps are not kept in JSON).
    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        kind = try container.decode(Kind.self, forKey: .kind)
        message = try container.decode(String.self, forKey: .message)
        route = try container.decodeIfPresent(String.self, forKey: .route)
        location = try container.decodeIfPresent(String.self, forKey: .location)
        invariant = try container.decodeIfPresent(String.self, forKey: .invariant)
        facts = try container.decode([String: FlowScriptValue].self, forKey: .facts)
        trace = try container.decode([String].self, forKey: .trace)
        steps = []
    }

    /// Encodes the JSON shape tools read.
    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(kind, forKey: .kind)
        try container.encode(message, forKey: .message)
        try container.encodeIfPresent(route, forKey: .route)
        try container.encodeIfPresent(location, forKey: .location)
        try container.encodeIfPresent(invariant, forKey: .invariant)
        try container.encode(facts, forKey: .facts)
        try container.encode(trace, forKey: .trace)
    }
}

/// What `flowstack explore` found: the size of the explored space and the findings.
package struct FlowExploreReport: Hashable, Sendable {
    /// Whether every reachable state within the bounds was explored.
    package var complete: Bool
    /// The depth to which every state was explored under every fact combination: the diameter
    /// when complete, else how far a bound (or an interruption) let every combination get.
    package var completeDepth = 0
    /// The depth being explored when the run was interrupted (Ctrl-C, SIGTERM), if it was.
    package var interruptedAtDepth: Int?
    /// Distinct (facts, state) pairs explored.
    package var states: Int
    /// Operations tried.
    package var transitions: Int
    /// Combinations of facts and host answers the manifest declares (saturating): what they
    /// would cost explored one by one.
    package var factCombinations: Int
    /// Fact assignments explored: facts are set only once a rule reads them, so combinations
    /// no rule tells apart are one assignment.
    package var assignments = 0
    /// The most steps any explored state is from the root.
    package var diameter: Int
    /// The findings, ordered by kind then message.
    package var findings: [FlowExploreFinding]
    /// Routes shown only under some facts: route → fact → the values under which it is shown.
    package var someFactsOnly: [String: [String: [FlowScriptValue]]]
    /// Seconds the exploration took (not part of the JSON, which stays byte-identical).
    package var seconds: Double

    /// Creates a report.
    package init(
        complete: Bool = true, states: Int = 0, transitions: Int = 0, factCombinations: Int = 0, diameter: Int = 0,
        findings: [FlowExploreFinding] = [], someFactsOnly: [String: [String: [FlowScriptValue]]] = [:], seconds: Double = 0
    ) {
        self.complete = complete
        self.states = states
        self.transitions = transitions
        self.factCombinations = factCombinations
        self.diameter = diameter
        self.findings = findings
        self.someFactsOnly = someFactsOnly
        self.seconds = seconds
    }

    /// The JSON of `flowstack explore --format json` (sorted keys, byte-identical between runs).
    package func json() -> String {
        struct Shape: Encodable {
            let complete: Bool
            let completeDepth: Int
            let interruptedAtDepth: Int?
            let states: Int
            let transitions: Int
            let factCombinations: Int
            let assignments: Int
            let diameter: Int
            let findings: [FlowExploreFinding]
            let someFactsOnly: [String: [String: [FlowScriptValue]]]
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let shape = Shape(
            complete: complete, completeDepth: completeDepth, interruptedAtDepth: interruptedAtDepth, states: states,
            transitions: transitions, factCombinations: factCombinations, assignments: assignments, diameter: diameter,
            findings: findings, someFactsOnly: someFactsOnly)
        guard let data = try? encoder.encode(shape) else { return "{}" }
        return String(decoding: data, as: UTF8.self)
    }
}
