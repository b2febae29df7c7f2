import FlowStackCore
import Foundation

/// One step the router took (or refused) during a test, for navigation graphs.
package struct FlowNavigationStep: Hashable, Sendable {
    /// The route on top of the front-most stack before the step (its name).
    package let from: String
    /// Where the step went (applied) or would have gone (refused): a route name.
    package let to: String
    /// The operation kind (`push`, `sheet`, `dismiss`, ...).
    package let kind: String
    /// Whether it applied.
    package let applied: Bool
    /// Why it did not apply (the rule's reason), or `nil`.
    package let reason: String?
    /// `code`, `user` or `deeplink`.
    package let source: String
    /// The dialog a rule answered the step with (`flow.redirect("dialog", id, reason)`): its id, or `nil`.
    package let dialog: String?
    /// The tab whose stack shows `to` after an applied step (nothing presented above it), or
    /// `nil` (no tabs, a presented stack, a refused step).
    package let tab: String?
    /// The experiments the rules deciding it read, experiment → variant (the history entry's).
    package let experiments: [String: String]

    /// Creates a step.
    package init(
        from: String, to: String, kind: String, applied: Bool, reason: String?, source: String, dialog: String? = nil,
        tab: String? = nil, experiments: [String: String] = [:]
    ) {
        self.experiments = experiments
        self.dialog = dialog
        self.tab = tab
        self.from = from
        self.to = to
        self.kind = kind
        self.applied = applied
        self.reason = reason
        self.source = source
    }
}
