import Foundation

extension FlowDeepLinkCenter {
    /// Resolves `url` and runs its plan as one transaction, after dismissing `presented` (the
    /// stack a held link's redirect presented) if it is still shown; performs the blocking
    /// rule's redirect when allowed. Does not touch the held link (the callers do).
    func attempt(
        _ url: URL,
        source: FlowOperationSource,
        trigger: FlowDeepLinkTrigger,
        lastRedirect: FlowCommand<Route>?,
        dismissing presented: UUID? = nil
    ) -> FlowDeepLinkResult<Route> {
        let link = "'\(url.absoluteString)'"
        guard let router else {
            return FlowDeepLinkResult(
                url: url, status: .unhandled,
                reason: "link \(link) was not opened: the router of this deep-link center no longer exists; "
                    + "open links through router.deepLinks of a live router",
                trigger: trigger
            )
        }
        guard let resolver else {
            return FlowDeepLinkResult(
                url: url, status: .unhandled,
                reason: "no deep links are registered, so link \(link) is unhandled; set router.deepLinks.resolver "
                    + "(FlowDeepLinks for Swift handlers, or load rules that call flow.deeplink)",
                trigger: trigger
            )
        }
        let plan: FlowDeepLinkPlan<Route>
        switch resolver.resolve(url) {
        case .rejected(let reason):
            return FlowDeepLinkResult(url: url, status: .rejected, reason: reason, trigger: trigger)
        case .unhandled(let reason):
            return FlowDeepLinkResult(url: url, status: .unhandled, reason: reason, trigger: trigger)
        case .plan(let resolved):
            plan = resolved
        }
        guard !plan.commands.isEmpty || !plan.dialogs.isEmpty else {
            return FlowDeepLinkResult(
                url: url, status: .unhandled,
                reason: "\(plan.origin) returned an empty plan for link \(link); return at least one operation",
                trigger: trigger, plan: plan
            )
        }
        let transaction = router.transaction { router in
            if let presented, router.stacks.dropFirst().contains(where: { $0.id == presented }) {
                router.perform(FlowCommand(.dismiss(target: .stack(presented))), source: source)
            }
            for command in plan.commands {
                router.perform(command, source: source)
            }
        }
        if transaction.isCommitted {
            // The plan's dialogs, after its navigation, through the dialog rules.
            let dialogs = plan.dialogs.map { router.showRuleDialog($0, source: .deeplink) }
            var result = FlowDeepLinkResult(url: url, status: .applied, trigger: trigger, plan: plan, transaction: transaction)
            result.dialogs = dialogs
            return result
        }
        let why = transaction.reason ?? "a step of the plan failed"
        guard let failure = transaction.failure, failure.status.isBlocked else {
            return FlowDeepLinkResult(
                url: url, status: .unhandled,
                reason: "the plan of \(plan.origin) for link \(link) cannot run in the current state: \(why)",
                trigger: trigger, plan: plan, transaction: transaction
            )
        }
        let requested = transaction.pendingRedirect
        var redirect: FlowOperationResult<Route>?
        if let requested, shouldPerform(requested, trigger: trigger, lastRedirect: lastRedirect, on: router) {
            redirect = router.perform(requested, source: source)
        }
        var result = FlowDeepLinkResult(
            url: url, status: .pending, reason: why, trigger: trigger, plan: plan, transaction: transaction,
            requestedRedirect: requested, redirect: redirect
        )
        // A blocking rule that answered with a dialog: shown once the plan is rolled back (not
        // again on an automatic retry).
        if let answer = failure.dialogRedirect, trigger != .factsChanged {
            result.dialogRedirect = router.showRuleDialog(FlowDialogRedirect(dialog: answer.dialog, policy: answer.policy))
        }
        return result
    }

    /// The stack `result`'s redirect presented (the login sheet), or `nil` when it presented none.
    func presentedStack(by result: FlowDeepLinkResult<Route>) -> UUID? {
        guard let redirect = result.redirect, redirect.isApplied, case .present = redirect.command.operation else {
            return nil
        }
        return router?.stacks.last?.id
    }

    /// Whether the blocking rule's redirect runs: never when its target is already showing;
    /// on an automatic retry, not when it is the redirect performed last time for this link.
    func shouldPerform(
        _ redirect: FlowCommand<Route>,
        trigger: FlowDeepLinkTrigger,
        lastRedirect: FlowCommand<Route>?,
        on router: FlowRouter<Route, Dialog>
    ) -> Bool {
        if redirect.isShowing(in: router.stacks) { return false }
        if trigger == .factsChanged, redirect == lastRedirect { return false }
        return true
    }
}
