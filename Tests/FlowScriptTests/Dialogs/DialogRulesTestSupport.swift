import FlowStackCore
import Foundation
import Testing
@testable import FlowScript

/// A router whose dialogs are `FlowDialogValue`s, as in flows.
typealias DialogRouter = FlowRouter<FlowRouteValue, FlowDialogValue>

/// An engine with dialog rules installed into a router with convertible dialogs.
@MainActor
final class DialogRig {
    let engine: FlowRulesEngine<FlowRouteValue>
    let router: DialogRouter

    /// Loads `text` as `rules/dialogs.lua` and installs the engine into a new router.
    init(_ text: String, configuration: FlowRulesConfiguration = FlowRulesConfiguration()) throws {
        engine = try FlowRulesEngine(sources: [FlowRulesSource(name: "rules/dialogs.lua", text: text)], configuration: configuration)
        router = DialogRouter(root: FlowRouteValue("home"))
        engine.install(into: router)
    }

    /// Shows a dialog given by id.
    @discardableResult
    func show(_ id: String, _ policy: FlowDialogPolicy = .replace, fields: [String: FlowScriptValue]? = nil) -> Bool {
        router.requestGlobalDialog(FlowDialogValue(id: id, fields: fields), policy: policy)
    }

    /// The history's dialog-show entries.
    var dialogEntries: [FlowHistoryEntry<FlowRouteValue>] {
        router.history.filter { entry in
            if case .show? = entry.dialogChange?.action { return true }
            return false
        }
    }

    /// The last history entry's reason.
    var lastReason: String? { router.history.last?.reason }
}
