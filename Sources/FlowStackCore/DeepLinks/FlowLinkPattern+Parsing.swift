extension FlowLinkPattern {
    /// Punctuation accepted in literal segments besides letters, digits and marks.
    private static let literalPunctuation: Set<Character> = [
        "-", ".", "_", "~", "!", "$", "&", "'", "(", ")", "+", ",", ";", "=", "@",
    ]

    /// Splits and validates the text of a pattern.
    static func parseSegments(_ source: String) throws(FlowLinkPatternError) -> [Segment] {
        guard !source.isEmpty else {
            throw FlowLinkPatternError(pattern: source, kind: .empty)
        }
        guard source.unicodeScalars.first == "/" else {
            throw FlowLinkPatternError(pattern: source, kind: .missingLeadingSlash)
        }
        let parts = source.unicodeScalars
            .split(separator: "/", omittingEmptySubsequences: true)
            .map { String(String.UnicodeScalarView($0)) }
        var segments: [Segment] = []
        var names: Set<String> = []
        for (index, part) in parts.enumerated() {
            if part == "*" {
                guard index == parts.count - 1 else {
                    throw FlowLinkPatternError(pattern: source, kind: .wildcardNotLast)
                }
                segments.append(.wildcard)
            } else if part.unicodeScalars.first == ":" {
                let name = String(String.UnicodeScalarView(part.unicodeScalars.dropFirst()))
                guard !name.isEmpty else {
                    throw FlowLinkPatternError(pattern: source, kind: .emptyParameterName)
                }
                guard isIdentifier(name) else {
                    throw FlowLinkPatternError(pattern: source, kind: .invalidParameterName(name))
                }
                guard names.insert(name).inserted else {
                    throw FlowLinkPatternError(pattern: source, kind: .duplicateParameterName(name))
                }
                segments.append(.parameter(name))
            } else {
                if let bad = part.first(where: { !isLiteralCharacter($0) }) {
                    throw FlowLinkPatternError(pattern: source, kind: .invalidCharacter(bad, segment: part))
                }
                segments.append(.literal(part))
            }
        }
        return segments
    }

    /// Whether `name` is an ASCII identifier: `[A-Za-z_][A-Za-z0-9_]*`.
    private static func isIdentifier(_ name: String) -> Bool {
        for (offset, scalar) in name.unicodeScalars.enumerated() {
            let isLetter = ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || scalar == "_"
            let isDigit = ("0"..."9").contains(scalar)
            guard isLetter || (isDigit && offset > 0) else { return false }
        }
        return true
    }

    /// Whether a literal segment may hold `character`: letters, digits, marks and a few
    /// URL-safe punctuation characters.
    private static func isLiteralCharacter(_ character: Character) -> Bool {
        if literalPunctuation.contains(character) { return true }
        return character.unicodeScalars.allSatisfy { scalar in
            switch scalar.properties.generalCategory {
            case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
                 .nonspacingMark, .spacingMark, .enclosingMark,
                 .decimalNumber, .letterNumber, .otherNumber:
                return true
            default:
                return false
            }
        }
    }
}
