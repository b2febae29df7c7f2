// An app written against the original FlowStack's public API (github.com/tu-konnichiwa/FlowStack,
// "Initial release"), unchanged but for the two lines that pick SwiftUI or its Linux stand-in.
// It uses every public declaration and overload of the original, with `import FlowStack` only.
// Compiling it is the test: `swift build --build-tests` fails if a source break comes back. The
// router-level part also runs (FlowStackDropInTests) and checks the original's behaviour.

import Foundation
import FlowStack
#if canImport(SwiftUI)
import SwiftUI
#else
import SwiftUIStandIn
#endif
#if canImport(Combine)
import Combine
#endif

// MARK: - Routes and dialogs

enum ShopRoute: Hashable {
    case home
    case login
    case product(id: Int)
    case cart
    case checkout
}

struct ShopDialog: Identifiable, Hashable {
    let id: String
}

enum ItemRoute: RouteHashable {
    case item(Int, note: String)
}

final class LegacyRoute: AnyRouteHashable {}

// MARK: - Style

/// Every style API of the original, with the closures stored as the original types them.
@MainActor
func makeStyle() -> FlowNavigationStyle {
    let screen: (AnyView, FlowNavigationStyle.Context) -> AnyView = { view, context in
        let depth = context.screenDepth + (context.isRootScreen ? 0 : 1)
        let route: ShopRoute? = context.screenRoute(as: ShopRoute.self)
        let root: ShopRoute? = context.rootRoute()
        _ = (depth, route, root, context.rootRoute, context.screenRoute, context.stackID, context.stackIndex)
        return context.isRootStack && context.presentationStyle == .root ? view : AnyView(view.padding())
    }
    var style = FlowNavigationStyle(
        hidesNavigationBar: false,
        multilineTextAlignment: .center,
        stack: { view, _ in view },
        screen: screen,
        modal: { view, _ in view }
    )
    style.hidesNavigationBar = true
    style.multilineTextAlignment = nil
    let storedStack: (AnyView, FlowNavigationStyle.Context) -> AnyView = style.stack
    let storedModal: (AnyView, FlowNavigationStyle.Context) -> AnyView = style.modal
    style.stack = storedStack
    style.modal = storedModal
    style.screen = { view, context in screen(view, context) }
    return FlowNavigationStyle.default
        .navigationBarHidden(false)
        .multilineTextAlignment(.leading)
        .stackStyle { view in view.padding() }
        .stackStyle { view, context in view.opacity(context.isRootStack ? 1 : 0.9) }
        .screenStyle { view in view.padding() }
        .screenStyle { view, context in view.background(context.isRootScreen ? Color.white : Color.gray) }
        .modalStyle { view in view.padding() }
        .modalStyle { view, context in view.opacity(context.presentationStyle == .sheet ? 1 : 0.95) }
}

/// Calls a style closure from nonisolated code, as the original allows.
nonisolated func applyNonisolated(
    _ closure: (AnyView, FlowNavigationStyle.Context) -> AnyView, to view: AnyView, in context: FlowNavigationStyle.Context
) -> AnyView {
    closure(view, context)
}

// MARK: - Views

struct ShopRootView: View {
    @StateObject private var router = FlowRouter<ShopRoute, ShopDialog>(root: .home)
    #if canImport(Combine)
    @State private var cancellables = Set<AnyCancellable>()
    #endif

    var body: some View {
        FlowStackView(
            router: router,
            style: makeStyle(),
            root: { route in ShopScreen(route: route) },
            destination: { route in ShopScreen(route: route) },
            dialog: { binding in AnyView(DialogView(dialog: binding)) }
        )
        .onReceive(router.$globalDialog) { dialog in _ = dialog?.id }
        .onReceive(router.$stacks) { stacks in _ = stacks.count }
    }
}

struct MinimalRootView: View {
    @ObservedObject var router: FlowRouter<ShopRoute, ShopDialog>

    var body: some View {
        FlowStackView(router: router) { route in
            ShopScreen(route: route)
        } destination: { route in
            ShopScreen(route: route)
        }
    }
}

struct ShopScreen: View {
    let route: ShopRoute
    var body: some View { Text(String(describing: route)) }
}

struct DialogView: View {
    @Binding var dialog: ShopDialog?
    var body: some View {
        Button("Close") { dialog = nil }
    }
}

struct PathEditor: View {
    @ObservedObject var router: FlowRouter<ShopRoute, ShopDialog>

    var body: some View {
        let stackID = router.rootStack.id
        let path: Binding<[ShopRoute]> = router.bindingForPath(stackID: stackID)
        let sheet: Binding<FlowStackState<ShopRoute>?> = router.bindingForPresentedStack(style: .sheet)
        return Button("Clear") {
            path.wrappedValue = []
            sheet.wrappedValue = nil
        }
    }
}

/// Generic code over the original's protocol.
@MainActor
func describe<R: FlowRouting>(_ router: R) -> String {
    "\(router.stacks.count) stacks, dialog \(router.globalDialog == nil ? "none" : "shown"), root \(router.rootID)"
}

// MARK: - The router API

/// Every router call of the original; returns a description of the outcomes seen.
@MainActor
func driveShop(_ router: FlowRouter<ShopRoute, ShopDialog>) async -> [String] {
    let guardOperation: FlowRouter<ShopRoute, ShopDialog>.Guard = { operation in operation.kind != .dismissAll }
    let observer: FlowRouter<ShopRoute, ShopDialog>.Observer = { operation, stacks in _ = (operation, stacks.count) }
    let loggedIn: FlowRouter<ShopRoute, ShopDialog>.Precondition = { _, stacks in !stacks.isEmpty }
    let asyncCheck: FlowRouter<ShopRoute, ShopDialog>.AsyncPrecondition = { _, _ in true }
    router.guardOperation = guardOperation
    router.didApplyOperation = observer
    router.maximumOperationHistoryCount = 50
    router.queuedTransitionDelayNanoseconds = 0
    router.setDefaultPrecondition(for: .push, loggedIn)
    router.setDefaultPrecondition(for: .present, nil)
    router.setDefaultAsyncPrecondition(for: .push, asyncCheck)
    router.clearDefaultPreconditions()
    router.clearOperationHistory()

    router.setRoot(.home)
    router.setRoot(.home, path: [.cart], refreshIfSameRoute: false, condition: { _, _ in true })
    router.push(.product(id: 1))
    router.push(.product(id: 2), on: .root, condition: loggedIn)
    router.push(contentsOf: [.cart, .checkout], on: .active)
    router.pushRemovingPrevious(.cart)
    router.replaceCurrent(with: .checkout, on: .active, condition: nil)
    router.replacePath(root: .home, path: [.product(id: 3)], on: .root)
    router.pop()
    router.pop(count: 2, on: .root, condition: nil)
    router.popToRoot(on: .active)
    router.popTo(.home, match: .inclusive, on: .root)
    router.present(.login, style: .sheet, path: [], options: FlowPresentationOptions(), condition: nil)
    router.sheet(.login, path: [.cart], options: .init(allowsInteractiveDismiss: false))
    router.fullScreenCover(.checkout, options: FlowPresentationOptions(clearsNestedPresentationOnDismiss: false))
    if let presented = router.stacks.last, router.containsStack(id: presented.id) {
        router.push(.cart, on: .stack(presented.id))
        router.dismiss(.stack(presented.id))
    }
    router.dismiss()
    _ = router.dismissAll(condition: { _, _ in true })

    await router.pushAsync(.product(id: 4))
    await router.pushAsync(.product(id: 5), on: .root, condition: asyncCheck)
    await router.presentAsync(.login, style: .fullScreenCover, path: [], options: .init(), condition: nil)
    await router.sheetAsync(.cart)
    await router.fullScreenCoverAsync(.checkout, path: [.cart])
    await router.popAsync(count: 1, on: .active)
    await router.dismissAsync(.active)
    let queued: Bool = await router.queued { router.pop() }
    _ = queued

    router.showGlobalDialog(ShopDialog(id: "a"))
    router.showGlobalDialog(ShopDialog(id: "b"), policy: .queue)
    router.showGlobalDialog(ShopDialog(id: "c"), policy: .replaceKeepingQueue)
    router.showGlobalDialog(ShopDialog(id: "d"), policy: .ignoreIfVisible)
    router.showGlobalDialog(ShopDialog(id: "e"), policy: .replace)
    let hide = router.hideGlobalDialog
    hide()
    let hideTyped: () -> Void = router.hideGlobalDialog
    hideTyped()
    router.clearGlobalDialogs()

    let state: FlowStackState<ShopRoute> = router.activeStack
    _ = (state.id, state.root, state.rootID, state.path, state.style, state.options.allowsInteractiveDismiss,
         state.options.clearsNestedPresentationOnDismiss, state.topRoute, state.isRoot)
    _ = (router.rootStack, router.activeIndex, router.isPresenting, router.queuedGlobalDialogCount,
         router.topRoute, router.rootID, router.globalDialog, describe(router))

    var seen: [String] = []
    for record in router.operationHistory {
        let record: FlowOperationRecord<ShopRoute> = record
        _ = (record.id, record.date, record.previousStacks, record.newStacks)
        switch record.outcome {
        case .applied: seen.append("applied \(name(of: record.operation))")
        case .blockedByPrecondition: seen.append("precondition \(name(of: record.operation))")
        case .blockedByGuard: seen.append("guard \(name(of: record.operation))")
        }
    }
    return seen
}

/// An exhaustive switch over the original's operations and kinds.
func name(of operation: FlowOperation<ShopRoute>) -> String {
    let kind: FlowOperationKind = operation.kind
    switch kind {
    case .setRoot, .push, .pushRemovingPrevious, .replaceCurrent, .replacePath, .pop, .popToRoot, .popTo,
         .present, .dismiss, .dismissAll:
        break
    }
    switch operation {
    case .setRoot(let route): return "setRoot \(route)"
    case .push(let route, let target): return "push \(route) \(target)"
    case .pushRemovingPrevious(let route, target: let target): return "pushRemovingPrevious \(route) \(target)"
    case .replaceCurrent(let route, target: _): return "replaceCurrent \(route)"
    case .replacePath(root: let root, path: let path, target: _): return "replacePath \(root) \(path)"
    case .pop(count: let count, target: _): return "pop \(count)"
    case .popToRoot(target: _): return "popToRoot"
    case .popTo(let route, match: let match, target: _): return "popTo \(route) \(match == .inclusive)"
    case .present(let route, style: let style): return "present \(route) \(style)"
    case .dismiss(target: let target): return "dismiss \(target)"
    case .dismissAll: return "dismissAll"
    }
}

/// Values of the original's other public types.
func originalValues() -> [AnyHashable] {
    let node = FlowRouteNode(id: UUID(), route: ShopRoute.cart)
    let state = FlowStackState(
        id: UUID(), rootID: UUID(), root: ShopRoute.home, path: [.cart], style: .sheet, options: .init()
    )
    let record = FlowOperationRecord(
        id: UUID(), date: Date(), operation: FlowOperation<ShopRoute>.dismissAll,
        previousStacks: [state], newStacks: [], outcome: .blockedByGuard
    )
    let outcome: FlowOperationOutcome = record.outcome
    let policies: [FlowDialogPolicy] = [.replace, .replaceKeepingQueue, .queue, .ignoreIfVisible]
    let targets: [FlowStackTarget] = [.root, .active, .stack(UUID())]
    let styles: [FlowPresentationStyle] = [.root, .sheet, .fullScreenCover]
    let matches: [FlowPopMatch] = [.exclusive, .inclusive]
    FlowRouteIDDiagnostics.warnsOnFallbackID = false
    let item = ItemRoute.item(1, note: "n")
    let legacy = LegacyRoute(id: "legacy")
    return [node, node.id, node.route, state, outcome, policies, targets, styles, matches, item.id, legacy.id]
}

#if canImport(Combine)
/// The original's `@Published` projections, subscribed to with Combine.
@MainActor
func subscribe(to router: FlowRouter<ShopRoute, ShopDialog>, into cancellables: inout Set<AnyCancellable>) {
    router.$stacks.sink { stacks in _ = stacks.count }.store(in: &cancellables)
    router.$globalDialog.sink { dialog in _ = dialog?.id }.store(in: &cancellables)
    router.$rootID.sink { id in _ = id }.store(in: &cancellables)
    router.$operationHistory.sink { records in _ = records.last?.outcome }.store(in: &cancellables)
}
#else
/// The same subscriptions, against the stand-in's publisher declarations (Linux).
@MainActor
func subscribe(to router: FlowRouter<ShopRoute, ShopDialog>, into cancellables: inout Set<AnyCancellable>) {
    router.$stacks.sink { stacks in _ = stacks.count }.store(in: &cancellables)
    router.$globalDialog.sink { dialog in _ = dialog?.id }.store(in: &cancellables)
    router.$rootID.sink { id in _ = id }.store(in: &cancellables)
    router.$operationHistory.sink { records in _ = records.last?.outcome }.store(in: &cancellables)
}
#endif
