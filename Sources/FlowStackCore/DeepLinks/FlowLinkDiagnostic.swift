/// A problem with the registered deep links that does not stop them from working:
/// a pattern that can never be the first match.
public struct FlowLinkDiagnostic: Hashable, Sendable, CustomStringConvertible {
    /// How serious the problem is.
    public enum Severity: String, Hashable, Sendable {
        /// The links work, but probably not as intended.
        case warning
    }

    /// What the problem is.
    public enum Kind: String, Hashable, Sendable {
        /// The pattern has the same shape as an earlier one (parameter names aside), so the
        /// earlier one always wins.
        case duplicate
        /// Every path the pattern matches is matched by earlier patterns, so it never wins.
        case shadowed
    }

    /// How serious the problem is (always `.warning` for now).
    public let severity: Severity = .warning
    /// What the problem is.
    public let kind: Kind
    /// The pattern that can never win.
    public let subject: FlowLinkPatternReference
    /// The earlier patterns responsible, in registration order: one for a duplicate; for a
    /// shadowed pattern, one that covers it alone when there is one, otherwise a set that
    /// covers it together and from which none can be removed.
    public let earlier: [FlowLinkPatternReference]
    /// A sentence saying what is wrong, where, and what to do.
    public let message: String

    /// Where the subject pattern was registered, if known.
    public var location: FlowLinkSourceLocation? { subject.location }

    /// `warning: ` followed by the message.
    public var description: String { "\(severity.rawValue): \(message)" }
}
