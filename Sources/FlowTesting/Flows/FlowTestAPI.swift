/// The names flow scripts can use, for tools that check or describe flows (`flowstack check`,
/// `flowstack types`).
public enum FlowTestAPI {
    /// The navigation functions of `router` in flows; each also has its `<name>Async` twin.
    public static let routerNavigations = [
        "setRoot", "push", "pushMany", "pushRemovingPrevious", "replaceCurrent", "replacePath", "pop", "popToRoot",
        "popTo", "sheet", "fullScreenCover", "dismiss", "dismissAll",
    ]
    /// The functions (and the one property) of `router` in flows.
    public static let routerMembers = routerNavigations + routerNavigations.map { $0 + "Async" } + [
        "userPop", "userDismiss", "showDialog", "showDialogAsync", "hideDialog", "clearDialogs", "dialog",
        "queuedDialogCount", "top", "stacks", "history", "style", "open", "pendingLink", "resumePendingLink",
        "pendingLinkTimeout",
    ]
    /// The `router` functions whose first argument is a route.
    public static let routerRouteFunctions = [
        "setRoot", "push", "pushRemovingPrevious", "replaceCurrent", "replacePath", "popTo", "sheet", "fullScreenCover",
    ].flatMap { [$0, $0 + "Async"] }
    /// The functions of `app` in flows.
    public static let appMembers = ["reset", "facts", "host", "wait", "advance", "calls", "scriptErrors", "reload", "generation"]
    /// The matchers of `expect(value)`.
    public static let matchers = FlowTestPrelude.matchers
    /// The functions of `flow` in rules.
    public static let flowMembers = ["precondition", "guard", "redirect", "op", "style", "deeplink"]
    /// The style hooks of `flow.style`.
    public static let styleHooks = ["screen", "stack", "modal"]
    /// The globals a flow file can use.
    public static let flowGlobals = [
        "describe", "it", "pending", "before_each", "after_each", "before_all", "after_all", "setup", "teardown",
        "expect", "spy", "app", "router", "facts",
    ]
}
