/// The names flow scripts can use, for tools that check or describe flows (`flowstack check`,
/// `flowstack types`).
package enum FlowTestAPI {
    /// The navigation functions of `router` in flows; each also has its `<name>Async` twin.
    package static let routerNavigations = [
        "setRoot", "push", "pushMany", "pushRemovingPrevious", "replaceCurrent", "replacePath", "pop", "popToRoot",
        "popTo", "sheet", "fullScreenCover", "dismiss", "dismissAll",
    ]
    /// The functions (and the one property) of `router` in flows.
    package static let routerMembers = routerNavigations + routerNavigations.map { $0 + "Async" } + [
        "userPop", "userDismiss", "showDialog", "showDialogAsync", "hideDialog", "clearDialogs", "dialog",
        "queuedDialogCount", "top", "stacks", "history", "style", "open", "pendingLink", "resumePendingLink",
        "pendingLinkTimeout",
    ]
    /// The `router` functions whose first argument is a route.
    package static let routerRouteFunctions = [
        "setRoot", "push", "pushRemovingPrevious", "replaceCurrent", "replacePath", "popTo", "sheet", "fullScreenCover",
    ].flatMap { [$0, $0 + "Async"] }
    /// The functions of `app` in flows.
    package static let appMembers = ["reset", "facts", "host", "wait", "advance", "calls", "scriptErrors", "reload", "generation"]
    /// The matchers of `expect(value)`.
    package static let matchers = FlowTestPrelude.matchers
    /// The functions of `flow` in rules.
    package static let flowMembers = ["precondition", "guard", "redirect", "op", "style", "deeplink"]
    /// The style hooks of `flow.style`.
    package static let styleHooks = ["screen", "stack", "modal"]
    /// The globals a flow file can use.
    package static let flowGlobals = [
        "describe", "it", "pending", "before_each", "after_each", "before_all", "after_all", "setup", "teardown",
        "expect", "spy", "app", "router", "facts",
    ]
}
