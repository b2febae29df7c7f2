import FlowLua
import FlowStackCore
import Foundation

/// Conversions between the router's Swift values and the tables flows see (spec §1).
extension FlowTestRunner {
    /// The route a flow names, checked against the manifest and built as the app's route type.
    func route(_ value: LuaValue, function: String, position: Int) throws(FlowScriptError) -> Route {
        if case .nil = value {
            throw FlowScriptError(kind: .typeError, message: "bad argument #\(position) to '\(function)' (route expected, got nil)")
        }
        let routeValue: FlowRouteValue
        do {
            routeValue = try FlowRouteValue(lua: value)
        } catch {
            throw FlowScriptError(kind: .typeError, message: "\(function): \(error.message)")
        }
        if let manifest, !manifest.routes.isEmpty, let problem = manifest.problem(with: routeValue) {
            throw FlowScriptError(kind: .typeError, message: "\(function): \(problem)")
        }
        do {
            return try Route(flowRoute: routeValue)
        } catch {
            throw FlowScriptError(kind: .typeError, message: "\(function): cannot build \(Route.self) from \(routeValue): \(error)")
        }
    }

    /// A route as a table: `{ name = "detail", id = "42" }`.
    func routeValue(_ route: Route) -> LuaValue {
        .table(route.flowRoute.luaTable)
    }

    /// A result (spec §1): `{ applied, kind, reason, redirect }`, the redirect nested.
    ///
    /// When a redirect chain ends in a redirect loop, the outermost result says so: its
    /// `reason` is the loop's (with the chain, then the first rule's reason) and `loop` is `true`.
    func resultValue(_ result: FlowOperationResult<Route>) -> LuaValue {
        noteDialogAnswers(result)
        guard case .table(var table) = nestedResultValue(result) else { return .nil }
        var last = result
        while let next = last.redirect { last = next }
        if last.status == .failed, let reason = last.reason,
           (FlowScriptError.splitLocation(reason)?.message ?? reason).hasPrefix("redirect loop") {
            table["reason"] = .string(reason + (result.reason.map { " (the first redirect: \($0))" } ?? ""))
            table["loop"] = .boolean(true)
        }
        return .table(table)
    }

    private func nestedResultValue(_ result: FlowOperationResult<Route>) -> LuaValue {
        var table = LuaTable()
        table["applied"] = .boolean(result.isApplied)
        table["kind"] = .string(result.command.kindName)
        if let reason = result.reason { table["reason"] = .string(reason) }
        if let redirect = result.redirect { table["redirect"] = nestedResultValue(redirect) }
        if let dialog = result.dialogRedirect { table["redirect"] = dialogRedirectValue(dialog) }
        return .table(table)
    }

    /// A navigation answered with a dialog: `{ kind = "dialog", dialog, policy, applied, reason }`.
    func dialogRedirectValue(_ dialog: FlowDialogRedirectResult) -> LuaValue {
        var table = LuaTable()
        table["kind"] = .string("dialog")
        table["dialog"] = dialog.dialog.luaValue
        table["policy"] = .string(dialog.policy.rawValue)
        table["applied"] = .boolean(dialog.applied)
        if let reason = dialog.reason { table["reason"] = .string(reason) }
        return .table(table)
    }

    /// A dialog change as the history shows it: `{ kind = "showDialog", dialog = <id>, policy }`,
    /// `{ kind = "hideDialog", dialog = <id hidden> }` or `{ kind = "clearDialogs" }`.
    func dialogOpValue(_ change: FlowDialogChange) -> LuaValue {
        var table = LuaTable()
        switch change.action {
        case .show(let policy):
            table["kind"] = .string("showDialog")
            table["policy"] = .string(policy.rawValue)
        case .hide:
            table["kind"] = .string("hideDialog")
        case .clear:
            table["kind"] = .string("clearDialogs")
        }
        if let dialog = change.dialog { table["dialog"] = .string(dialog) }
        return .table(table)
    }

    /// An operation (spec §1) as the history shows it.
    func opValue(_ command: FlowCommand<Route>, source: FlowOperationSource, isAsync: Bool, stacks: [FlowStackState<Route>]) -> LuaValue {
        var table = LuaTable()
        table["kind"] = .string(command.kindName)
        if let batch = command.batch {
            table["routes"] = .table(LuaTable(array: batch.map(routeValue)))
        } else {
            switch command.operation {
            case .setRoot(let route), .push(let route, _), .pushRemovingPrevious(let route, _), .replaceCurrent(let route, _),
                 .popTo(let route, _, _), .present(let route, _):
                table["route"] = routeValue(route)
            case .replacePath(let root, let path, _):
                table["route"] = routeValue(root)
                table["routes"] = .table(LuaTable(array: ([root] + path).map(routeValue)))
            case .pop(let count, _):
                table["count"] = .integer(count)
            case .popToRoot, .dismiss, .dismissAll:
                break
            }
        }
        if let tab = command.tab {
            table["tab"] = .string(tab)
        } else if let target = command.operation.target {
            let index: Int?
            switch target {
            case .root: index = 0
            case .active: index = stacks.count - 1
            case .stack(let id): index = stacks.firstIndex { $0.id == id }
            }
            if let index { table["target"] = .integer(index + 1) }
        }
        table["source"] = .string(source.rawValue)
        table["async"] = .boolean(isAsync)
        return .table(table)
    }

    /// The stacks (spec §1): `{ id, index, presentation, routes }`, root stack first.
    func stacksValue(_ stacks: [FlowStackState<Route>]) -> LuaValue {
        .table(LuaTable(array: stacks.enumerated().map { index, stack in
            var table = LuaTable()
            table["id"] = .string(stack.id.uuidString)
            table["index"] = .integer(index + 1)
            table["presentation"] = .string(stack.style.rawValue)
            table["routes"] = .table(LuaTable(array: ([stack.root] + stack.path).map(routeValue)))
            return .table(table)
        }))
    }

    /// The tabs (`router.tabs()`): `{ name, selected, stack = { id, index, presentation, routes } }`
    /// in the order of the tab bar; empty without tabs.
    func tabsValue(_ router: FlowRouter<Route, FlowDialogValue>) -> LuaValue {
        let selected = router.selectedTabName
        return .table(LuaTable(array: router.tabs.map { tab in
            var table = LuaTable()
            table["name"] = .string(tab.name)
            table["selected"] = .boolean(tab.name == selected)
            if case .table(let list) = stacksValue([tab.stack]), let stack = list.array.first { table["stack"] = stack }
            return .table(table)
        }))
    }

    /// The navigation entries of the history (spec §5), oldest first.
    func historyValue(_ router: FlowRouter<Route, FlowDialogValue>) -> LuaValue {
        var entries: [LuaValue] = []
        for entry in router.history {
            var table = LuaTable()
            if let change = entry.dialogChange {
                // Dialog requests are entries too; hiding and clearing only when they closed a dialog.
                if case .show = change.action {} else if !entry.status.isApplied { continue }
                table["op"] = dialogOpValue(change)
            } else if let command = entry.command {
                table["op"] = opValue(
                    command, source: entry.source, isAsync: asyncSequences.contains(entry.sequence), stacks: entry.previousStacks)
            } else {
                continue
            }
            table["applied"] = .boolean(entry.status.isApplied)
            if let reason = entry.reason { table["reason"] = .string(reason) }
            table["generation"] = .integer(entry.generation)
            if !entry.experiments.isEmpty {
                table["experiments"] = .table(LuaTable(fields: Dictionary(uniqueKeysWithValues: entry.experiments.map { (LuaTableKey.string($0.key), LuaValue.string($0.value)) })))
            }
            entries.append(.table(table))
        }
        return .table(LuaTable(array: entries))
    }

    /// A deep link's result (spec §8): `{ status, reason, result, steps }`.
    ///
    /// `result` is the result of the step that decided: the last step when applied, the
    /// blocked step when pending (its `redirect` is the redirect performed, if one was).
    func linkValue(_ link: FlowDeepLinkResult<Route>) -> LuaValue {
        var table = LuaTable()
        table["status"] = .string(link.status.rawValue)
        if let reason = link.reason { table["reason"] = .string(reason) }
        let steps = link.steps
        if !steps.isEmpty { table["steps"] = .table(LuaTable(array: steps.map(resultValue))) }
        if !link.dialogs.isEmpty { table["dialogs"] = .table(LuaTable(array: link.dialogs.map(dialogRedirectValue))) }
        switch link.status {
        case .applied:
            if let last = steps.last { table["result"] = resultValue(last) }
        case .pending:
            if let failure = link.transaction?.failure, case .table(var blocked) = resultValue(failure) {
                blocked["redirect"] = link.redirect.map(resultValue) ?? link.dialogRedirect.map(dialogRedirectValue) ?? .nil
                table["result"] = .table(blocked)
            }
        case .rejected, .unhandled:
            break
        }
        return .table(table)
    }
}

extension FlowStyleAttributes {
    /// The attributes as a script writes them: only the set keys, colours as names or hex.
    var luaValue: LuaValue {
        var table = LuaTable()
        if let value = navigationBarHidden { table["navigationBarHidden"] = .boolean(value) }
        if let value = multilineTextAlignment { table["multilineTextAlignment"] = .string(value.rawValue) }
        if let value = tint { table["tint"] = .string(value.scriptValue) }
        if let value = background { table["background"] = .string(value.scriptValue) }
        if let value = preferredColorScheme { table["preferredColorScheme"] = .string(value.rawValue) }
        if let value = presentationDragIndicator { table["presentationDragIndicator"] = .string(value.rawValue) }
        if let detents = presentationDetents {
            table["presentationDetents"] = .table(LuaTable(array: detents.map { detent -> LuaValue in
                switch detent {
                case .medium: return "medium"
                case .large: return "large"
                case .fraction(let value): return .number(value)
                case .height(let points): return .table(["height": points == points.rounded() && abs(points) < 1e15 ? .integer(Int(points)) : .number(points)])
                }
            }))
        }
        if let value = interactiveDismissDisabled { table["interactiveDismissDisabled"] = .boolean(value) }
        if let value = navigationBarBackButtonHidden { table["navigationBarBackButtonHidden"] = .boolean(value) }
        if let value = navigationTitle { table["navigationTitle"] = .string(value) }
        return .table(table)
    }
}

extension FlowResolvedStyle {
    /// `{ screen = {...}, stack = {...}, modal = {...} or nil }`.
    var luaValue: LuaValue {
        var table = LuaTable()
        table["screen"] = screen.luaValue
        table["stack"] = stack.luaValue
        if let modal { table["modal"] = modal.luaValue }
        return .table(table)
    }
}
