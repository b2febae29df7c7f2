import Foundation

/// Why a deep-link pattern such as `/products/:id` could not be parsed.
///
/// `message` says what is wrong, in which pattern, and how to fix it; it is also the error's
/// `description` and `errorDescription`.
public struct FlowLinkPatternError: Error, Hashable, Sendable, CustomStringConvertible, LocalizedError {
    /// The kind of mistake found in a pattern.
    public enum Kind: Hashable, Sendable {
        /// The pattern is the empty string.
        case empty
        /// The pattern does not start with `/`.
        case missingLeadingSlash
        /// A segment is a lone `:` with no parameter name after it.
        case emptyParameterName
        /// A parameter name is not an identifier (letters, digits and `_`, not starting with a digit).
        case invalidParameterName(String)
        /// The same parameter name is used twice in one pattern.
        case duplicateParameterName(String)
        /// A `*` segment is followed by more segments.
        case wildcardNotLast
        /// A literal segment holds a character that patterns do not accept.
        case invalidCharacter(Character, segment: String)
    }

    /// The pattern as it was written.
    public let pattern: String
    /// What is wrong with it.
    public let kind: Kind

    /// Creates an error for `pattern`.
    public init(pattern: String, kind: Kind) {
        self.pattern = pattern
        self.kind = kind
    }

    /// A sentence saying what is wrong with the pattern and what to write instead.
    public var message: String {
        let quoted = "deep link pattern '\(pattern)'"
        switch kind {
        case .empty:
            return "deep link pattern is empty; write '/' for the root link or a path such as '/products/:id'"
        case .missingLeadingSlash:
            return "\(quoted) must start with '/'; write '/\(pattern)'"
        case .emptyParameterName:
            return "\(quoted) has a ':' with no parameter name; name the parameter, as in '/products/:id'"
        case .invalidParameterName(let name):
            return "\(quoted) has an invalid parameter name ':\(name)'; use letters, digits and '_', "
                + "starting with a letter or '_', as in ':id' or ':user_id'"
        case .duplicateParameterName(let name):
            return "\(quoted) uses the parameter ':\(name)' twice; give each parameter its own name, "
                + "as in '/users/:uid/posts/:pid'"
        case .wildcardNotLast:
            return "\(quoted) has a '*' that is not the last segment; '*' captures the rest of the path, "
                + "so move it to the end, or use a ':name' parameter to match a single segment"
        case .invalidCharacter(let character, let segment):
            return "\(quoted) has the character '\(Self.display(character))' in the segment '\(segment)'; "
                + Self.hint(for: character)
        }
    }

    /// The same text as `message`.
    public var description: String { message }

    /// The same text as `message`, for `localizedDescription`.
    public var errorDescription: String? { message }

    private static func display(_ character: Character) -> String {
        character.unicodeScalars.map { scalar in
            scalar.properties.isWhitespace || scalar.properties.generalCategory == .control
                ? "U+" + String(scalar.value, radix: 16, uppercase: true)
                : String(scalar)
        }.joined()
    }

    private static func hint(for character: Character) -> String {
        switch character {
        case "?":
            return "leave the query out of the pattern: query items are added to the parameters automatically"
        case "#":
            return "leave the fragment out of the pattern: fragments are ignored when matching"
        case "%":
            return "write the decoded character instead: patterns are compared with percent-decoded segments"
        case "*":
            return "'*' must be a whole segment and the last one, as in '/promo/*'"
        case ":":
            return "':' may only begin a segment, where it starts a parameter, as in '/products/:id'"
        default:
            return "use letters, digits and - . _ ~ ! $ & ' ( ) + , ; = @ in literal segments"
        }
    }
}
