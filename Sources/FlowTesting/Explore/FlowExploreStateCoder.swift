import FlowStackCore
import Foundation

/// Numbers the routes and dialogs of explored states, so that a state key is one
/// array of small integers: cheap to hash and compare, a few bytes per screen to keep.
///
/// The two explorers of a `diff` share one coder, so that their keys compare.
@MainActor
final class FlowExploreStateCoder {
    private var routeCodes: [FlowRouteValue: UInt32] = [:]
    private var routes: [FlowRouteValue] = []
    private var dialogCodes: [FlowDialogValue: UInt32] = [:]
    private var textCodes: [String: UInt32] = [:]

    /// The number of `route` (numbers start at 0).
    func code(_ route: FlowRouteValue) -> UInt32 {
        if let code = routeCodes[route] { return code }
        let code = UInt32(routes.count)
        routes.append(route)
        routeCodes[route] = code
        return code
    }

    /// The route numbered `code`.
    func route(_ code: UInt32) -> FlowRouteValue {
        routes[Int(code)]
    }

    /// The number of `dialog` (numbers start at 0).
    func code(_ dialog: FlowDialogValue) -> UInt32 {
        if let code = dialogCodes[dialog] { return code }
        let code = UInt32(dialogCodes.count)
        dialogCodes[dialog] = code
        return code
    }

    /// The number of `text` (a held navigation or link, described; numbers start at 0).
    func code(text: String) -> UInt32 {
        if let code = textCodes[text] { return code }
        let code = UInt32(textCodes.count)
        textCodes[text] = code
        return code
    }

}

extension FlowExplorer {
    /// What two states share when they show the same thing: routes, presentations and dialogs
    /// (never the identities of stacks and screens), as one array of numbers.
    ///
    /// The layout: the number of stacks; per stack its presentation (high bits) and screen count,
    /// then its routes root first; the number of dialogs (visible one first) with a bit for
    /// whether one is visible, then the dialogs; the selected tab plus one (0 without tabs),
    /// then per tab its screen count and routes. With fact changes, then what a change of facts
    /// retries: the held navigation and the held link, each as its number plus one (0: none).
    struct StateKey: Hashable {
        /// The numbers (see the type's summary).
        var codes: [UInt32]
        /// The fact assignment in force (the same screens under other facts are another state).
        var combination: Int
    }

    static func styleCode(_ style: FlowPresentationStyle) -> UInt32 {
        switch style {
        case .root: 0
        case .sheet: 1
        case .fullScreenCover: 2
        }
    }

    static func style(code: UInt32) -> FlowPresentationStyle {
        switch code {
        case 1: .sheet
        case 2: .fullScreenCover
        default: .root
        }
    }

    /// The key of a state under fact combination `combination`, built screen by screen with no
    /// intermediate arrays: exploration computes one per operation tried.
    func key(of state: FlowRouterState<FlowRouteValue, FlowDialogValue>, combination: Int = 0) -> StateKey {
        var codes: [UInt32] = []
        codes.reserveCapacity(16)
        codes.append(UInt32(state.stacks.count))
        for stack in state.stacks {
            let count = stack.pathCount + 1
            codes.append(Self.styleCode(stack.style) << 24 | UInt32(count))
            for depth in 0..<count {
                if let route = stack.route(atDepth: depth) { codes.append(coder.code(route)) }
            }
        }
        let hasDialog = state.globalDialog != nil
        codes.append(UInt32(state.dialogQueue.count + (hasDialog ? 1 : 0)) << 1 | (hasDialog ? 1 : 0))
        if let dialog = state.globalDialog { codes.append(coder.code(dialog)) }
        for dialog in state.dialogQueue { codes.append(coder.code(dialog)) }
        if let selected = state.selectedTabIndex {
            codes.append(UInt32(selected + 1))
            for tab in state.tabs {
                let count = tab.stack.pathCount + 1
                codes.append(UInt32(count))
                for depth in 0..<count {
                    if let route = tab.stack.route(atDepth: depth) { codes.append(coder.code(route)) }
                }
            }
        } else {
            codes.append(0)
        }
        if options.factChanges {
            codes.append(state.pendingNavigation.map { coder.code(text: Self.heldText($0, in: state)) + 1 } ?? 0)
            codes.append(state.pendingLink.map { coder.code(text: Self.heldText($0, in: state)) + 1 } ?? 0)
        }
        return StateKey(codes: codes, combination: combination)
    }

    /// What a key shows under any facts: its screens and dialogs (with `held`, without its last
    /// two numbers: what is held).
    static func screensOnly(of key: StateKey, held: Bool) -> [UInt32] {
        held ? Array(key.codes.dropLast(2)) : key.codes
    }

    /// A key without what is held (with fact changes, its last two numbers): what it shows.
    static func screens(of key: StateKey) -> StateKey {
        StateKey(codes: Array(key.codes.dropLast(2)), combination: key.combination)
    }

    /// A held navigation as a key tells it apart: what runs when it resumes, and whether the
    /// presentation its redirect opened (dismissed first) is still shown.
    static func heldText(
        _ held: FlowPendingNavigation<FlowRouteValue>, in state: FlowRouterState<FlowRouteValue, FlowDialogValue>
    ) -> String {
        let shown = held.presentedStackID.map { id in state.stacks.contains { $0.id == id } } ?? false
        return "\(held.command.kindName) \(destination(of: held.command) ?? "")\(shown ? " after dismiss" : "")"
    }

    /// A held link as a key tells it apart: its URL, the redirect last performed for it (not
    /// performed again) and whether the presentation that redirect opened (dismissed first) is
    /// still shown.
    static func heldText(
        _ held: FlowPendingLink<FlowRouteValue>, in state: FlowRouterState<FlowRouteValue, FlowDialogValue>
    ) -> String {
        let redirect = held.lastRedirect.map { " \($0.kindName) \(destination(of: $0) ?? "")" } ?? ""
        let shown = held.presentedStackID.map { id in state.stacks.contains { $0.id == id } } ?? false
        return held.url.absoluteString + redirect + (shown ? " after dismiss" : "")
    }

    /// Calls `body` with the number of every route the stacks of `key` show (`state.stacks`,
    /// root first), read from its numbers.
    static func forEachStackRoute(in key: StateKey, _ body: (UInt32) -> Void) {
        let codes = key.codes
        var index = 1
        for _ in 0..<Int(codes[0]) {
            let end = index + 1 + Int(codes[index] & 0xFF_FFFF)
            index += 1
            while index < end {
                body(codes[index])
                index += 1
            }
        }
    }

    /// The stacks a key shows (presentation and routes, root first), decoded.
    func stacks(of key: StateKey) -> [(style: FlowPresentationStyle, routes: [FlowRouteValue])] {
        var stacks: [(style: FlowPresentationStyle, routes: [FlowRouteValue])] = []
        let codes = key.codes
        var index = 1
        for _ in 0..<Int(codes[0]) {
            let header = codes[index]
            let count = Int(header & 0xFF_FFFF)
            let routes = codes[(index + 1)..<(index + 1 + count)].map { coder.route($0) }
            stacks.append((Self.style(code: header >> 24), routes))
            index += 1 + count
        }
        return stacks
    }
}
