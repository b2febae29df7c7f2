import Foundation

/// A loosely typed value, as a script hands style attributes over.
public enum FlowStyleValue: Hashable, Sendable {
    /// A boolean.
    case bool(Bool)
    /// A number.
    case number(Double)
    /// A string.
    case string(String)
    /// An array.
    case array([FlowStyleValue])
    /// A table with string keys.
    case table([String: FlowStyleValue])

    /// A short description of the value for warnings.
    public var summary: String {
        switch self {
        case .bool(let value): String(value)
        case .number(let value): value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
        case .string(let value): "\"\(value)\""
        case .array(let values): "{" + values.map(\.summary).joined(separator: ", ") + "}"
        case .table(let values):
            "{" + values.keys.sorted().map { "\($0) = \(values[$0]!.summary)" }.joined(separator: ", ") + "}"
        }
    }
}

/// A style attribute that was unknown or had a bad value, and was ignored.
public struct FlowStyleWarning: Hashable, Sendable, CustomStringConvertible {
    /// The attribute's key.
    public let key: String
    /// What was wrong and what is accepted.
    public let message: String

    /// Creates a warning.
    public init(key: String, message: String) {
        self.key = key
        self.message = message
    }

    /// `key: message`.
    public var description: String { "\(key): \(message)" }
}

extension FlowStyleAttributes {
    /// The keys style rules may set.
    public static let knownKeys: [String] = [
        "navigationBarHidden", "multilineTextAlignment", "tint", "background", "preferredColorScheme",
        "presentationDragIndicator", "presentationDetents", "interactiveDismissDisabled",
        "navigationBarBackButtonHidden", "navigationTitle",
    ]

    /// Parses attributes from a script's table; unknown keys and bad values become warnings and
    /// are ignored.
    public static func parse(_ table: [String: FlowStyleValue]) -> (FlowStyleAttributes, [FlowStyleWarning]) {
        var attributes = FlowStyleAttributes()
        var warnings: [FlowStyleWarning] = []
        for key in table.keys.sorted() {
            if let problem = attributes.set(key, table[key]!) {
                warnings.append(FlowStyleWarning(key: key, message: problem))
            }
        }
        return (attributes, warnings)
    }

    /// Sets one attribute from a script value; returns what was wrong, or `nil`.
    mutating func set(_ key: String, _ value: FlowStyleValue) -> String? {
        func bool() -> Bool? { if case .bool(let b) = value { return b } else { return nil } }
        func string() -> String? { if case .string(let s) = value { return s } else { return nil } }
        func choice<E: RawRepresentable & CaseIterable>(_: E.Type) -> (E?, String?) where E.RawValue == String {
            if let raw = string(), let parsed = E(rawValue: raw) { return (parsed, nil) }
            let allowed = E.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", ")
            return (nil, "expected one of \(allowed), got \(value.summary)")
        }
        switch key {
        case "navigationBarHidden", "interactiveDismissDisabled", "navigationBarBackButtonHidden":
            guard let flag = bool() else { return "expected a boolean, got \(value.summary)" }
            if key == "navigationBarHidden" { navigationBarHidden = flag }
            else if key == "interactiveDismissDisabled" { interactiveDismissDisabled = flag }
            else { navigationBarBackButtonHidden = flag }
        case "multilineTextAlignment":
            let (parsed, problem) = choice(FlowTextAlignment.self)
            guard let parsed else { return problem }
            multilineTextAlignment = parsed
        case "preferredColorScheme":
            let (parsed, problem) = choice(FlowColorScheme.self)
            guard let parsed else { return problem }
            preferredColorScheme = parsed
        case "presentationDragIndicator":
            let (parsed, problem) = choice(FlowVisibility.self)
            guard let parsed else { return problem }
            presentationDragIndicator = parsed
        case "tint", "background":
            guard let text = string(), let color = FlowColor(parsing: text) else {
                return "expected \"#RRGGBB\", \"#RRGGBBAA\" or a named colour (\(FlowNamedColor.allCases.map(\.rawValue).joined(separator: ", "))), got \(value.summary)"
            }
            if key == "tint" { tint = color } else { background = color }
        case "navigationTitle":
            guard let text = string() else { return "expected a string, got \(value.summary)" }
            navigationTitle = text
        case "presentationDetents":
            guard case .array(let items) = value, !items.isEmpty else {
                return "expected a non-empty array of \"medium\", \"large\", a fraction 0 < x <= 1 or { height = points }, got \(value.summary)"
            }
            var detents: [FlowDetent] = []
            for item in items {
                switch item {
                case .string("medium"): detents.append(.medium)
                case .string("large"): detents.append(.large)
                case .number(let x) where x > 0 && x <= 1: detents.append(.fraction(x))
                case .table(let fields) where fields.count == 1:
                    guard case .number(let h)? = fields["height"], h > 0, h.isFinite else { fallthrough }
                    detents.append(.height(h))
                default:
                    return "bad detent \(item.summary): expected \"medium\", \"large\", a fraction 0 < x <= 1 or { height = points }"
                }
            }
            presentationDetents = detents
        default:
            // A near name: did you mean; none: the attributes there are (hidesBackButton is not
            // near navigationBarBackButtonHidden, and says nothing of what to write).
            let suggestion = FlowSuggestion.closest(to: key, in: Self.knownKeys).map { " (did you mean '\($0)'?)" }
                ?? "; attributes are \(Self.knownKeys.joined(separator: ", "))"
            return "unknown style attribute\(suggestion)"
        }
        return nil
    }
}

extension FlowColor {
    /// Parses `"#RRGGBB"`, `"#RRGGBBAA"` or a named colour.
    public init?(parsing text: String) {
        if let named = FlowNamedColor(rawValue: text) {
            self = .named(named)
            return
        }
        // Every character after `#` must be a hex digit: `UInt64(_:radix:)` alone accepts a sign.
        guard text.hasPrefix("#"), text.count == 7 || text.count == 9,
              text.dropFirst().allSatisfy(\.isHexDigit),
              let value = UInt64(text.dropFirst(), radix: 16) else { return nil }
        let hasAlpha = text.count == 9
        let rgba = hasAlpha ? value : (value << 8 | 0xFF)
        self = .rgba(
            red: UInt8(truncatingIfNeeded: rgba >> 24), green: UInt8(truncatingIfNeeded: rgba >> 16),
            blue: UInt8(truncatingIfNeeded: rgba >> 8), alpha: UInt8(truncatingIfNeeded: rgba)
        )
    }

    /// The colour as rules write it: a name or `#RRGGBB` / `#RRGGBBAA`.
    public var scriptValue: String {
        switch self {
        case .named(let name): return name.rawValue
        case .rgba(let r, let g, let b, let a):
            let hex = a == 0xFF ? String(format: "#%02X%02X%02X", r, g, b) : String(format: "#%02X%02X%02X%02X", r, g, b, a)
            return hex
        }
    }
}

/// "Did you mean" suggestions by edit distance.
package enum FlowSuggestion {
    /// The candidate closest to `word`, if it is close enough to be a likely typo.
    package static func closest(to word: String, in candidates: [String]) -> String? {
        // Bounded work whatever a script passes: a word (or candidate) longer than any name a
        // typo could be near gets no suggestion, and at most 4,096 candidates are compared.
        guard word.utf8.count <= maximumLength else { return nil }
        var best: (String, Int)?
        for candidate in candidates.prefix(4_096) where candidate.utf8.count <= maximumLength {
            let distance = editDistance(word.lowercased(), candidate.lowercased())
            if distance < (best?.1 ?? Int.max) { best = (candidate, distance) }
        }
        guard let (candidate, distance) = best else { return nil }
        return distance <= max(2, candidate.count / 3) ? candidate : nil
    }

    /// The longest word (in UTF-8 bytes) `closest(to:in:)` looks at.
    package static let maximumLength = 128

    /// The Damerau-Levenshtein (optimal string alignment) distance between two strings.
    package static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previous2 = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    current[j] = min(current[j], previous2[j - 2] + 1)
                }
            }
            (previous2, previous, current) = (previous, current, previous2)
        }
        return previous[b.count]
    }
}
