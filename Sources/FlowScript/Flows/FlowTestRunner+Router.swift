import FlowStackCore
import Foundation

/// The navigation calls of `router` in flows (spec §5): each returns a result table.
extension FlowTestRunner {
    /// Registers the synchronous and async navigation calls and the user gestures.
    func registerRouter(in vm: LuaVM) throws(FlowScriptError) {
        try navigation(vm, "setRoot") { runner, arguments throws(FlowScriptError) in
            FlowCommand(.setRoot(try runner.route(try arguments.value(at: 1), function: "router.setRoot", position: 1)))
        }
        try navigation(vm, "push") { runner, arguments throws(FlowScriptError) in
            FlowCommand(.push(try runner.route(try arguments.value(at: 1), function: "router.push", position: 1), target: .active))
        }
        try navigation(vm, "pushMany") { runner, arguments throws(FlowScriptError) in
            guard case .table(let list) = try arguments.value(at: 1), !list.array.isEmpty, list.fields.isEmpty else {
                throw FlowScriptError(
                    kind: .typeError, message: "router.pushMany needs a non-empty list of routes, as in router.pushMany{ \"a\", \"b\" }")
            }
            var routes: [Route] = []
            for (offset, item) in list.array.enumerated() {
                routes.append(try runner.route(item, function: "router.pushMany (route #\(offset + 1))", position: 1))
            }
            return FlowCommand.pushMany(routes, target: .active)!
        }
        try navigation(vm, "pushRemovingPrevious") { runner, arguments throws(FlowScriptError) in
            FlowCommand(.pushRemovingPrevious(
                try runner.route(try arguments.value(at: 1), function: "router.pushRemovingPrevious", position: 1), target: .active))
        }
        try navigation(vm, "replaceCurrent") { runner, arguments throws(FlowScriptError) in
            FlowCommand(.replaceCurrent(
                try runner.route(try arguments.value(at: 1), function: "router.replaceCurrent", position: 1), target: .active))
        }
        try navigation(vm, "replacePath") { runner, arguments throws(FlowScriptError) in
            let root = try runner.route(try arguments.value(at: 1), function: "router.replacePath", position: 1)
            var path: [Route] = []
            if !arguments.isNil(at: 2) {
                for item in try arguments.table(at: 2).array {
                    path.append(try runner.route(item, function: "router.replacePath", position: 2))
                }
            }
            return FlowCommand(.replacePath(root: root, path: path, target: .active))
        }
        try registerPop(in: vm)
        try navigation(vm, "popToRoot") { _, _ in FlowCommand(.popToRoot(target: .active)) }
        try navigation(vm, "popTo") { runner, arguments throws(FlowScriptError) in
            let route = try runner.route(try arguments.value(at: 1), function: "router.popTo", position: 1)
            let match: FlowPopMatch
            switch try arguments.optionalString(at: 2) {
            case nil, "exclusive": match = .exclusive
            case "inclusive": match = .inclusive
            case let other?:
                throw FlowScriptError(
                    kind: .typeError, message: "bad argument #2 to 'router.popTo' (\"inclusive\" or \"exclusive\" expected, got \"\(other)\")")
            }
            return FlowCommand(.popTo(route, match: match, target: .active))
        }
        try navigation(vm, "sheet") { runner, arguments throws(FlowScriptError) in
            FlowCommand(.present(try runner.route(try arguments.value(at: 1), function: "router.sheet", position: 1), style: .sheet))
        }
        try navigation(vm, "fullScreenCover") { runner, arguments throws(FlowScriptError) in
            FlowCommand(.present(
                try runner.route(try arguments.value(at: 1), function: "router.fullScreenCover", position: 1), style: .fullScreenCover))
        }
        try vm.register("router.dismiss", returning: { [unowned self] arguments in
            let router = try self.currentRouter()
            guard !arguments.isNil(at: 1) else {
                return [self.resultValue(router.perform(FlowCommand(.dismiss(target: .active)), source: .code))]
            }
            let index = try arguments.integer(at: 1)
            let stacks = router.stacks
            guard index >= 1, index <= stacks.count else {
                let there = stacks.count == 1 ? "there is 1 stack" : "there are \(stacks.count) stacks"
                return [Self.refusal("dismiss", "no stack at index \(index): \(there) (router.stacks() lists them)")]
            }
            return [self.resultValue(router.perform(FlowCommand(.dismiss(target: .stack(stacks[index - 1].id))), source: .code))]
        })
        try navigation(vm, "dismissAll") { _, _ in FlowCommand(.dismissAll) }

        try asyncNavigation(vm, "pushAsync") { runner, arguments throws(FlowScriptError) in
            FlowCommand(.push(try runner.route(arguments.first ?? .nil, function: "router.pushAsync", position: 1), target: .active))
        }
        try asyncNavigation(vm, "sheetAsync") { runner, arguments throws(FlowScriptError) in
            FlowCommand(.present(try runner.route(arguments.first ?? .nil, function: "router.sheetAsync", position: 1), style: .sheet))
        }
        try asyncNavigation(vm, "fullScreenCoverAsync") { runner, arguments throws(FlowScriptError) in
            FlowCommand(.present(
                try runner.route(arguments.first ?? .nil, function: "router.fullScreenCoverAsync", position: 1), style: .fullScreenCover))
        }

        try vm.register("router.userPop", returning: { [unowned self] _ in
            let router = try self.currentRouter()
            guard let result = router.userDidPop() else {
                return [Self.refusal("pop", "nothing to pop: the front-most stack shows its root screen")]
            }
            return [self.resultValue(result)]
        })
        try vm.register("router.userDismiss", returning: { [unowned self] _ in
            let router = try self.currentRouter()
            if router.stacks.last?.style == .fullScreenCover {
                return [Self.refusal(
                    "dismiss", "a full-screen cover has no swipe-down: close it with router.dismiss() (a button in the cover)")]
            }
            guard let result = router.userDidDismiss() else {
                return [Self.refusal("dismiss", "nothing to dismiss: no stack is presented")]
            }
            return [self.resultValue(result)]
        })
    }

    /// `router.pop([count])`: when fewer screens than asked were popped, the applied result
    /// says how many (`count`) and why (`reason`).
    private func registerPop(in vm: LuaVM) throws(FlowScriptError) {
        try vm.register("router.pop", returning: { [unowned self] arguments in
            let count = arguments.isNil(at: 1) ? 1 : try arguments.integer(at: 1)
            guard count >= 1 else {
                throw FlowScriptError(kind: .typeError, message: "bad argument #1 to 'router.pop' (a count of at least 1 expected, got \(count))")
            }
            let router = try self.currentRouter()
            let front = router.stacks.last
            let result = router.perform(FlowCommand(.pop(count: count, target: .active)), source: .code)
            guard result.isApplied, let front, case .table(var table) = self.resultValue(result) else {
                return [self.resultValue(result)]
            }
            let popped = min(count, front.pathCount)
            if popped < count {
                table["count"] = .integer(popped)
                let screens = front.pathCount == 1 ? "1 screen" : "\(front.pathCount) screens"
                table["reason"] = .string(front.style == .root
                    ? "popped \(popped) of \(count): the stack held only \(screens) above its root"
                    : "popped \(popped) of \(count) and dismissed the \(front.style.rawValue): it held only \(screens) above its root")
            }
            return [.table(table)]
        })
    }

    /// A result for a call refused before it reached the router (not in the history).
    static func refusal(_ kind: String, _ reason: String) -> LuaValue {
        .table(["applied": false, "kind": .string(kind), "reason": .string(reason)])
    }

    /// Registers `router.<name>`: builds the command, performs it, returns the result.
    private func navigation(
        _ vm: LuaVM, _ name: String,
        _ command: @escaping @MainActor (FlowTestRunner, LuaArguments) throws(FlowScriptError) -> FlowCommand<Route>
    ) throws(FlowScriptError) {
        try vm.register("router.\(name)", returning: { [unowned self] arguments in
            let command = try command(self, arguments)
            return [self.resultValue(try self.currentRouter().perform(command, source: .code))]
        })
    }

    /// Registers `router.<name>` running through the async queue (the flow is suspended until done).
    private func asyncNavigation(
        _ vm: LuaVM, _ name: String,
        _ command: @escaping @MainActor (FlowTestRunner, [LuaValue]) throws(FlowScriptError) -> FlowCommand<Route>
    ) throws(FlowScriptError) {
        try vm.registerAsync("router.\(name)") { [unowned self] arguments in
            let command = try command(self, arguments)
            let router = try self.currentRouter()
            let before = router.history.last?.sequence ?? 0
            let result = await router.performAsync(command, source: .code)
            for entry in router.history.reversed() {
                guard entry.sequence > before else { break }
                self.asyncSequences.insert(entry.sequence)
            }
            return [self.resultValue(result)]
        }
    }
}
