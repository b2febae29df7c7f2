import FlowLua
import FlowStackCore
import Foundation

/// The queries, dialogs and deep links of `router` in flows (spec §5, §8).
extension FlowTestRunner {
    /// Registers `top`, `stacks`, `history`, `style`, the dialog calls and the deep-link calls.
    func registerQueries(in vm: LuaVM) throws(FlowScriptError) {
        try vm.register("router.top", returning: { [unowned self] _ in
            [self.routeValue(try self.currentRouter().topRoute)]
        })
        try vm.register("router.stacks", returning: { [unowned self] _ in
            [self.stacksValue(try self.currentRouter().stacks)]
        })
        // Tabs: the selected tab's name (nil without tabs) and every tab with its stack.
        try vm.register("router.tab", returning: { [unowned self] _ in
            [try self.currentRouter().selectedTabName.map(LuaValue.string) ?? .nil]
        })
        try vm.register("router.tabs", returning: { [unowned self] _ in
            [self.tabsValue(try self.currentRouter())]
        })
        try vm.register("router.history", returning: { [unowned self] _ in
            [self.historyValue(try self.currentRouter())]
        })
        try vm.register("router.style", returning: { [unowned self] arguments in
            let stackIndex = try arguments.integer(at: 1)
            let depth = arguments.isNil(at: 2) ? 0 : try arguments.integer(at: 2)
            // Numbers a flow passes are checked before any arithmetic (math.mininteger - 1 traps);
            // a stack or screen that does not exist (yet) styles as nil.
            guard stackIndex >= 1 else {
                throw FlowScriptError(
                    kind: .typeError, message: "bad argument #1 to 'router.style' (a stack index of at least 1 expected, got \(stackIndex))")
            }
            guard depth >= 0 else {
                throw FlowScriptError(
                    kind: .typeError, message: "bad argument #2 to 'router.style' (a screen depth of at least 0 expected, got \(depth))")
            }
            let style = try self.currentRouter().resolvedStyle(stackIndex: stackIndex - 1, screenDepth: depth)
            return [style?.luaValue ?? .nil]
        })
        try registerDialogs(in: vm)
        try registerDeepLinks(in: vm)
        try registerPendingNavigation(in: vm)
    }

    private func registerDialogs(in vm: LuaVM) throws(FlowScriptError) {
        try vm.register("router.showDialog", returning: { [unowned self] arguments in
            let dialog = try self.dialog(try arguments.value(at: 1))
            let policy = try Self.dialogPolicy(try arguments.optionalString(at: 2), function: "router.showDialog")
            return [.boolean(try self.currentRouter().requestGlobalDialog(dialog, policy: policy))]
        })
        try vm.registerAsync("router.showDialogAsync") { [unowned self] arguments in
            let dialog = try self.dialog(arguments.first ?? .nil)
            let name: String?
            switch arguments.count > 1 ? arguments[1] : .nil {
            case .nil: name = nil
            case .string(let text): name = text
            case let other:
                throw FlowScriptError(
                    kind: .typeError, message: "bad argument #2 to 'router.showDialogAsync' (string expected, got \(other.typeName))")
            }
            let policy = try Self.dialogPolicy(name, function: "router.showDialogAsync")
            let router = try self.currentRouter()
            return [.boolean(await router.showGlobalDialogAsync(dialog, policy: policy))]
        }
        try vm.register("router.hideDialog", returning: { [unowned self] _ in
            try self.currentRouter().hideGlobalDialog()
            return []
        })
        try vm.register("router.clearDialogs", returning: { [unowned self] _ in
            try self.currentRouter().clearGlobalDialogs()
            return []
        })
        try vm.register("router.dialog", returning: { [unowned self] _ in
            [try self.currentRouter().globalDialog?.luaValue ?? .nil]
        })
        try vm.register("router.queuedDialogCount", returning: { [unowned self] _ in
            [.integer(try self.currentRouter().queuedGlobalDialogCount)]
        })
    }

    /// A dialog policy a flow names (`replace` when `nil`).
    static func dialogPolicy(_ name: String?, function: String) throws(FlowScriptError) -> FlowDialogPolicy {
        guard let name else { return .replace }
        guard let parsed = FlowDialogPolicy(rawValue: name) else {
            let names = FlowDialogPolicy.allCases.map(\.rawValue)
            let hint = FlowSuggestion.closest(to: name, in: names).map { " (did you mean '\($0)'?)" } ?? ""
            throw FlowScriptError(
                kind: .typeError, message: "\(function): unknown policy '\(name)'\(hint); policies are \(names.joined(separator: ", "))")
        }
        return parsed
    }

    /// A dialog a flow names, checked against the manifest.
    func dialog(_ value: LuaValue) throws(FlowScriptError) -> FlowDialogValue {
        let dialog: FlowDialogValue
        do {
            dialog = try FlowDialogValue(lua: value)
        } catch {
            throw FlowScriptError(kind: .typeError, message: "router.showDialog: \(error.message)")
        }
        if let manifest, !manifest.dialogs.isEmpty, let problem = manifest.problem(withDialog: dialog.id) {
            throw FlowScriptError(kind: .typeError, message: "router.showDialog: \(problem)")
        }
        return dialog
    }

    /// An example link with a scheme (and host) the manifest accepts.
    var exampleLink: String {
        let links = manifest?.links
        let schemes = links?.schemes ?? []
        if let custom = schemes.first(where: { !["http", "https"].contains($0.lowercased()) }) {
            return "\(custom)://products/42"
        }
        if let web = schemes.first {
            return "\(web)://\(links?.hosts.first ?? "example.com")/products/42"
        }
        return "myapp://products/42"
    }

    private func registerDeepLinks(in vm: LuaVM) throws(FlowScriptError) {
        try vm.register("router.open", returning: { [unowned self] arguments in
            let text = try arguments.string(at: 1)
            guard let url = URL(string: text), url.scheme != nil else {
                throw FlowScriptError(
                    kind: .typeError, message: "router.open: '\(text)' is not a URL; write it with a scheme, as in \(self.exampleLink)")
            }
            return [self.linkValue(try self.currentRouter().open(url))]
        })
        try vm.register("router.pendingLink", returning: { [unowned self] _ in
            [try self.currentRouter().pendingLink.map { .string($0.absoluteString) } ?? .nil]
        })
        try vm.register("router.resumePendingLink", returning: { [unowned self] _ in
            [try self.currentRouter().resumePendingLink().map(self.linkValue) ?? .nil]
        })
    }
}
