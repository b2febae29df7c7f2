import Foundation

/// Who asked for a dialog, as dialog rules see it (`dialog.source`).
public enum FlowDialogSource: String, Hashable, Codable, Sendable, CaseIterable {
    /// App code called `showGlobalDialog` (or a flow called `router.showDialog`).
    case code
    /// A rule answered a navigation, or another dialog, with this dialog.
    case rules
    /// A deep link's plan ended with it (`flow.op("showDialog", ...)`).
    case deeplink
    /// A facts rule's plan ended with it (`flow.on_facts_changed` returning a `showDialog` step).
    case facts
    /// The person asked for it.
    case user

    /// The source the history records for a dialog request of this source.
    public var operationSource: FlowOperationSource {
        switch self {
        case .code, .rules: .code
        case .deeplink: .deeplink
        case .facts: .facts
        case .user: .user
        }
    }
}

/// A dialog a rule asks for: the dialog (as rules see it) and the policy to show it with.
public struct FlowDialogRedirect: Hashable, Codable, Sendable {
    /// The dialog.
    public var dialog: FlowDialogValue
    /// How it is shown.
    public var policy: FlowDialogPolicy

    /// Creates a dialog request.
    public init(dialog: FlowDialogValue, policy: FlowDialogPolicy = .replace) {
        self.dialog = dialog
        self.policy = policy
    }
}

/// What the rules are asked about a dialog about to be shown.
public struct FlowDialogRuleRequest: Hashable, Sendable {
    /// The dialog, as rules see it.
    public let dialog: FlowDialogValue
    /// How it is to be shown.
    public let policy: FlowDialogPolicy
    /// Who asked.
    public let source: FlowDialogSource
    /// The visible dialog's id, or `nil`.
    public let visibleDialog: String?
    /// The number of queued dialogs.
    public let queuedDialogCount: Int
    /// The dialogs redirected so far in this chain (empty for a direct request).
    public let redirectChain: [FlowDialogValue]

    /// Creates a request.
    public init(
        dialog: FlowDialogValue, policy: FlowDialogPolicy, source: FlowDialogSource, visibleDialog: String?,
        queuedDialogCount: Int, redirectChain: [FlowDialogValue] = []
    ) {
        self.dialog = dialog
        self.policy = policy
        self.source = source
        self.visibleDialog = visibleDialog
        self.queuedDialogCount = queuedDialogCount
        self.redirectChain = redirectChain
    }
}

/// What the rules decide about a dialog.
public enum FlowDialogRuleDecision: Hashable, Sendable {
    /// Show it.
    case show
    /// Refuse it: `showGlobalDialog` returns `false` and the history records the reason (stage
    /// `.error` when a rule failed and the failure policy is fail closed).
    case refuse(FlowRuleBlock)
    /// Refuse it and show another dialog (or the same with another policy) instead; another
    /// dialog is itself checked by the rules.
    case showInstead(FlowDialogRedirect, FlowRuleBlock)
    /// A rule failed but the failure policy shows the dialog (fail open); the reason is recorded.
    case showAfterFailure(String)
}

/// What happened to the dialog a rule answered a navigation with (`FlowOperationResult.dialogRedirect`).
public struct FlowDialogRedirectResult: Hashable, Codable, Sendable {
    /// The dialog as the rule gave it.
    public let dialog: FlowDialogValue
    /// The policy it was shown with.
    public let policy: FlowDialogPolicy
    /// Whether it was shown (visible or queued).
    public let applied: Bool
    /// Why it was not shown (a dialog rule's reason, a conversion error, a transaction), or `nil`.
    public let reason: String?

}
