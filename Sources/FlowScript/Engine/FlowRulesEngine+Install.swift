import FlowStackCore
import Foundation

extension FlowRulesEngine {
    /// Installs the engine into a router: every operation, sync and async, and every style
    /// resolution goes through the Lua rules, links opened with `router.open(url:)` resolve
    /// through `flow.deeplink`, and held deep links are retried when facts change.
    public func install<Dialog>(into router: FlowRouter<Route, Dialog>) {
        router.installRules(self)
        router.deepLinks.resolver = self
        routers.removeAll { $0.router == nil }
        routers.append(WeakRouterBox(router: router, factsDidChange: { [weak router] in _ = router?.deepLinks.factsDidChange() }))
    }

}
