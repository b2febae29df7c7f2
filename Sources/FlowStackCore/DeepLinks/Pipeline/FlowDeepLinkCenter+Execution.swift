import Foundation

extension FlowDeepLinkCenter {
    /// Resolves `url` and runs its plan as one transaction, after dismissing `gate` (what the
    /// held link's last redirect showed) if it is still shown; settles a refusal as every held
    /// request does (`FlowRouter.retryHeld`: the same gate changes nothing, another gate replaces
    /// it). Returns the result and the gate the link waits behind now. Does not touch the held
    /// link (the callers do).
    func attempt(
        _ url: URL,
        source: FlowOperationSource,
        trigger: FlowDeepLinkTrigger,
        gate: FlowHeldGate<Route>? = nil
    ) -> (result: FlowDeepLinkResult<Route>, gate: FlowHeldGate<Route>?) {
        let link = "'\(url.absoluteString)'"
        /// A result for a link that runs nothing.
        func refused(_ status: FlowDeepLinkStatus, _ reason: String) -> (result: FlowDeepLinkResult<Route>, gate: FlowHeldGate<Route>?) {
            (FlowDeepLinkResult(url: url, status: status, reason: reason, trigger: trigger), nil)
        }
        guard let router else {
            return refused(.unhandled, "link \(link) was not opened: the router of this deep-link center no longer exists; "
                + "open links through router.deepLinks of a live router")
        }
        guard let resolver else {
            return refused(.unhandled, "no deep links are registered, so link \(link) is unhandled; set router.deepLinks.resolver "
                + "(FlowDeepLinks for Swift handlers, or load rules that call flow.deeplink)")
        }
        let plan: FlowDeepLinkPlan<Route>
        switch resolver.resolve(url) {
        case .rejected(let reason): return refused(.rejected, reason)
        case .unhandled(let reason): return refused(.unhandled, reason)
        case .plan(let resolved):
            plan = resolved
        }
        guard !plan.commands.isEmpty || !plan.dialogs.isEmpty else {
            return (FlowDeepLinkResult(
                url: url, status: .unhandled,
                reason: "\(plan.origin) returned an empty plan for link \(link); return at least one operation",
                trigger: trigger, plan: plan
            ), nil)
        }
        let attempt = router.retryHeld(gate: gate, explicit: trigger != .factsChanged, source: source) { router in
            for command in plan.commands {
                router.perform(command, source: source)
            }
        }
        let transaction = attempt.transaction
        switch attempt.outcome {
        case .ran:
            // The plan's dialogs, after its navigation, through the dialog rules.
            let dialogs = plan.dialogs.map { router.showRuleDialog($0, source: .deeplink) }
            var result = FlowDeepLinkResult(url: url, status: .applied, trigger: trigger, plan: plan, transaction: transaction)
            result.dialogs = dialogs
            return (result, nil)
        case .cannotRun(let why):
            return (FlowDeepLinkResult(
                url: url, status: .unhandled,
                reason: "the plan of \(plan.origin) for link \(link) cannot run in the current state: \(why)",
                trigger: trigger, plan: plan, transaction: transaction
            ), nil)
        case .sameGate(let why), .gateRefused(let why):
            return (FlowDeepLinkResult(
                url: url, status: .pending, reason: why, trigger: trigger, plan: plan, transaction: transaction,
                requestedRedirect: transaction.pendingRedirect, redirect: nil
            ), gate)
        case .nextGate(let next, _, let why):
            // A blocked link is held whatever its redirect says (a link is held whole).
            var result = FlowDeepLinkResult(
                url: url, status: .pending, reason: why, trigger: trigger, plan: plan, transaction: transaction,
                requestedRedirect: transaction.pendingRedirect, redirect: attempt.redirect
            )
            result.dialogRedirect = attempt.dialog
            return (result, next)
        }
    }
}
