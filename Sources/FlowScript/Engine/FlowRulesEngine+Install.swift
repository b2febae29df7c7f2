import FlowStackCore
import Foundation

extension FlowRulesEngine {
    /// Installs the engine into a router: every operation, sync and async, and every style
    /// resolution goes through the Lua rules, links opened with `router.open(url:)` resolve
    /// through `flow.deeplink`, and held deep links are retried when facts change.
    @inlinable
    public func install<Dialog>(into router: FlowRouter<Route, Dialog>) {
        let dispatch = FlowRulesDispatch(
            owner: self,
            needsDecision: { command, runsDefaults in self.needsDecision(command, runsDefaults: runsDefaults) },
            decide: { request in self.decideChecked(request) },
            decideParts: { command, parts in self.decideChecked(command, parts) },
            generation: generation
        )
        router.installRules(self, dispatch: dispatch)
        register(router, dispatch: dispatch)
    }

    @usableFromInline
    func register<Dialog>(_ router: FlowRouter<Route, Dialog>, dispatch: FlowRulesDispatch<Route>) {
        router.deepLinks.resolver = self
        routers.removeAll { $0.router == nil }
        let box = WeakRouterBox(
            router: router,
            factsDidChange: { [weak router] in _ = router?.deepLinks.factsDidChange() },
            rulesDidChange: { [weak dispatch] every, generation in
                dispatch?.decidesEveryCommand = every
                dispatch?.generation = generation
            })
        box.rulesDidChange(decidesEveryCommand, generation)
        routers.append(box)
    }

    /// Whether the rules in force have a default precondition for every kind (a `"*"` one).
    var decidesEveryCommand: Bool { ruleSet?.hasStarPrecondition ?? false }

    /// Tells the routers the engine is installed in what the rules in force decide, and their
    /// generation (after a load, a reload or a close).
    func rulesDidChange() {
        routers.removeAll { $0.router == nil }
        let every = decidesEveryCommand
        for box in routers { box.rulesDidChange(every, generation) }
    }
}
