import FlowStack
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
        try navigation(vm, "pop") { _, arguments throws(FlowScriptError) in
            let count = arguments.isNil(at: 1) ? 1 : try arguments.integer(at: 1)
            guard count >= 1 else {
                throw FlowScriptError(kind: .typeError, message: "bad argument #1 to 'router.pop' (a count of at least 1 expected, got \(count))")
            }
            return FlowCommand(.pop(count: count, target: .active))
        }
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
        try navigation(vm, "dismiss") { runner, arguments throws(FlowScriptError) in
            guard !arguments.isNil(at: 1) else { return FlowCommand(.dismiss(target: .active)) }
            let index = try arguments.integer(at: 1)
            let stacks = try runner.currentRouter().stacks
            guard index >= 1, index <= stacks.count else {
                throw FlowScriptError(
                    kind: .typeError,
                    message: "bad argument #1 to 'router.dismiss' (no stack at index \(index): there \(stacks.count == 1 ? "is 1 stack" : "are \(stacks.count) stacks"))")
            }
            return FlowCommand(.dismiss(target: .stack(stacks[index - 1].id)))
        }
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
                return [.table(["applied": false, "kind": "pop", "reason": "nothing to pop: the front-most stack shows its root screen"])]
            }
            return [self.resultValue(result)]
        })
        try vm.register("router.userDismiss", returning: { [unowned self] _ in
            let router = try self.currentRouter()
            guard let result = router.userDidDismiss() else {
                return [.table(["applied": false, "kind": "dismiss", "reason": "nothing to dismiss: no stack is presented"])]
            }
            return [self.resultValue(result)]
        })
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
