import FlowLua
import FlowStackCore
import Foundation

/// The held navigation in flows: `router.pendingNavigation()`, `router.resumePendingNavigation()`
/// (and its `Async` twin) and `router.cancelPendingNavigation()`.
extension FlowTestRunner {
    /// Registers the held-navigation calls of `router`.
    func registerPendingNavigation(in vm: LuaVM) throws(FlowScriptError) {
        try vm.register("router.pendingNavigation", returning: { [unowned self] _ in
            let router = try self.currentRouter()
            return [router.pendingNavigation.map { self.pendingNavigationValue($0, router: router) } ?? .nil]
        })
        try vm.register("router.resumePendingNavigation", returning: { [unowned self] _ in
            let result = try self.currentRouter().resumePendingNavigation()
            return [.boolean(result.didResume), result.reason.map(LuaValue.string) ?? .nil]
        })
        try vm.registerAsync("router.resumePendingNavigationAsync") { [unowned self] _ in
            let router = try self.currentRouter()
            let result = await router.resumePendingNavigationAsync()
            return [.boolean(result.didResume), result.reason.map(LuaValue.string) ?? .nil]
        }
        try vm.register("router.cancelPendingNavigation", returning: { [unowned self] _ in
            [.boolean(try self.currentRouter().cancelPendingNavigation() != nil)]
        })
    }

    /// A held navigation as flows see it: the operation as the history shows it (`kind`, `route`
    /// or `routes`, `source`), with `reason`, `heldAt` (seconds since 1970 on the flows' clock),
    /// `attempts` and `redirect` (the redirect's operation). `target` is the stack it runs on
    /// when resumed: the presentation its redirect opened is dismissed first.
    func pendingNavigationValue(_ pending: FlowPendingNavigation<Route>, router: FlowRouter<Route, FlowDialogValue>) -> LuaValue {
        var stacks = router.stacks
        if let id = pending.presentedStackID, let index = stacks.firstIndex(where: { $0.id == id }), index > 0 {
            stacks.removeSubrange(index...)
        }
        guard case .table(var table) = opValue(pending.command, source: pending.source, isAsync: false, stacks: stacks) else {
            return .nil
        }
        table["async"] = .nil
        table["reason"] = .string(pending.reason)
        table["heldAt"] = .number(pending.heldAt.timeIntervalSince1970)
        table["attempts"] = .integer(pending.attempts)
        if let gate = pending.redirect,
           case .table(var redirect) = opValue(gate, source: pending.source, isAsync: false, stacks: stacks) {
            redirect["async"] = .nil
            redirect["source"] = .nil
            table["redirect"] = .table(redirect)
        } else if let dialog = pending.dialog {
            table["redirect"] = .table(LuaTable(fields: ["kind": .string("dialog"), "dialog": .string(dialog.id)]))
        }
        if pending.isAsync { table["async"] = .boolean(true) }
        return .table(table)
    }
}
