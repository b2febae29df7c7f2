/// What became of an opened deep link.
///
/// The raw values are the strings the Lua side reports (`"applied"`, `"pending"`, ...).
public enum FlowDeepLinkStatus: String, Hashable, Codable, Sendable, CaseIterable {
    /// The whole plan applied, as one transaction.
    case applied
    /// A step of the plan was blocked: nothing of it applied, the blocking rule's redirect (if
    /// any) was performed, and the link is held until it can be applied.
    case pending
    /// The link's scheme or host is not allowed; nothing happened.
    case rejected
    /// No pattern matched, the handler returned no plan, or the plan cannot run in the current
    /// state for a reason other than a rule; nothing happened.
    case unhandled
}

/// Why a deep link was attempted.
public enum FlowDeepLinkTrigger: String, Hashable, Codable, Sendable, CaseIterable {
    /// `open(_:)`: a new link.
    case open
    /// `resumePendingLink()`: an explicit retry of the held link.
    case resume
    /// `factsDidChange()`: an automatic retry of the held link.
    case factsChanged
}
