import FlowStackCore
import Foundation

extension FlowRulesEngine {
    /// Installs the engine into a router: every operation, sync and async, and every style
    /// resolution goes through the Lua rules, links opened with `router.open(url:)` resolve
    /// through `flow.deeplink`, and when facts change the facts rules (`flow.on_facts_changed`)
    /// run and held deep links and held navigations are retried (`router.factsDidChange(plan:)`).
    ///
    /// Inlinable so that `installRules` is compiled where the app's route type is known: the
    /// route conversions it makes are then specialized (unspecialized, each navigation converted
    /// its routes through generic metadata: about 190 ns more per Lua-guarded push).
    @inlinable
    public func install<Dialog>(into router: FlowRouter<Route, Dialog>) {
        router.installRules(self)
        register(router)
    }

    @usableFromInline
    package func register<Dialog>(_ router: FlowRouter<Route, Dialog>) {
        router.deepLinks.resolver = self
        routers.removeAll { $0.router == nil }
        routers.append(WeakRouterBox(router: router, factsDidChange: { [weak router, unowned self] changed in
            guard let router else { return }
            // The facts rules first (signed out: the private screens go), then what is held.
            let plan = self.factsPlan(changed: changed, state: router.state, dialog: router.visibleDialogID)
            router.factsDidChange(plan: plan.commands, dialogs: plan.dialogs)
        }))
    }
}
