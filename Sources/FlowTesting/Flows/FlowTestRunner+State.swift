import FlowLua
import FlowStackCore
import Foundation

extension FlowTestRunner {
    /// Replaces the router with a fresh one (one root stack, or the manifest's tabs with `tab`
    /// selected; empty history, no dialog, no held link) and resets the facts to the manifest's
    /// defaults merged with `facts`. With tabs, `root` replaces the selected tab's root.
    func resetState(
        root: Route?, tab: String? = nil, facts: [String: FlowScriptValue], experiments: FlowExperimentChoices = FlowExperimentChoices()
    ) throws(FlowScriptError) {
        if let manifest, !manifest.facts.isEmpty {
            for (name, value) in facts.sorted(by: { $0.key < $1.key }) {
                if let problem = manifest.problem(withFact: name, value: value) {
                    throw FlowScriptError(kind: .typeError, message: problem)
                }
            }
        }
        let router: FlowRouter<Route, FlowDialogValue>
        if let tabs = try freshTabs(selected: tab, root: root) {
            harvestSteps()
            router = FlowRouter(tabs: tabs, selected: tab)
        } else {
            if let tab {
                throw FlowScriptError(
                    kind: .typeError,
                    message: "app.reset: tab '\(tab)' needs tabs; declare them in routes.lua: tabs = { { name = \"\(tab)\", root = ... } }")
            }
            let start: Route
            if let root { start = root } else { start = try freshRoot() }
            harvestSteps()
            router = FlowRouter(root: start)
        }
        // Bounded like an app's (a flow looping over navigations must not grow without end).
        router.maximumOperationHistoryCount = Self.historyLimit
        engine?.install(into: router)
        router.deepLinks.now = { [weak self] in self?.clock ?? Date() }
        self.router = router
        harvested = 0
        asyncSequences.removeAll()
        dialogAnswers.removeAll()
        try engine?.resetFacts(facts)
        try refreshFlowFacts()
        if let engine {
            // A fresh app: no unit but the one given, no override but those given, nothing exposed.
            engine.clearExperimentOverride()
            engine.setExperimentUnit(experiments.unit)
            engine.forgetExposures()
            exposures.removeAll()
            try setFlowExperiments(experiments.variants)
        }
    }

    /// The tabs of a fresh router (the manifest's, `root` replacing the selected one's root), or
    /// `nil` when the manifest declares none; `selected` must be one of them.
    func freshTabs(selected: String?, root: Route?) throws(FlowScriptError) -> [(name: String, root: Route)]? {
        guard let manifest, !manifest.tabs.isEmpty else { return nil }
        if let selected, let problem = manifest.problem(withTab: selected) {
            throw FlowScriptError(kind: .typeError, message: "app.reset: \(problem)")
        }
        let chosen = selected ?? manifest.tabs[0].name
        var tabs: [(name: String, root: Route)] = []
        for tab in manifest.tabs {
            if tab.name == chosen, let root {
                tabs.append((tab.name, root))
                continue
            }
            do {
                tabs.append((tab.name, try Route(flowRoute: tab.root)))
            } catch {
                throw FlowScriptError(
                    kind: .typeError, message: "tab '\(tab.name)': the root route \(tab.root) cannot be built as \(Route.self): \(error)")
            }
        }
        return tabs
    }

    /// The root of a fresh router: the manifest's, the option's, or a route named `root`.
    func freshRoot() throws(FlowScriptError) -> Route {
        let value = manifest?.root ?? options.defaultRoot ?? FlowRouteValue("root")
        do {
            return try Route(flowRoute: value)
        } catch {
            throw FlowScriptError(
                kind: .typeError,
                message: "the root route \(value) cannot be built as \(Route.self): \(error); declare root in routes.lua "
                    + "or pass FlowTestRunner.Options(defaultRoot:)")
        }
    }

    /// The router of the running test (created on first use outside a test, for `check`).
    func currentRouter() throws(FlowScriptError) -> FlowRouter<Route, FlowDialogValue> {
        if let router { return router }
        try resetState(root: nil, facts: [:])
        return router!
    }

    /// Turns the history entries recorded since the last call into navigation steps.
    func harvestSteps() {
        guard let router else { return }
        let history = router.history
        guard let last = history.last?.sequence, last > harvested else { return }
        // Tabs: a tab's stack keeps its identity across selections.
        let tabOfStack = Dictionary(router.tabs.map { ($0.stack.id, $0.name) }, uniquingKeysWith: { first, _ in first })
        for entry in history where entry.sequence > harvested {
            // A failed rule refuses (fail closed), or lets the navigation through with the
            // error as the applied entry's reason (fail open).
            if entry.status == .failed || (entry.status.isApplied && entry.reason.flatMap(FlowScriptError.splitLocation) != nil) {
                noteScriptError(entry)
            }
            guard let command = entry.command else { continue }
            let from = entry.previousStacks.last?.topRoute
            // A step with nothing to do (a link's popToRoot at the root) is drawn as applied: it stays.
            let applied = entry.status.isApplied || entry.status.isNoOp
            let to = applied ? entry.newStacks.last?.topRoute : Self.destination(of: command, in: entry.previousStacks)
            steps.append(FlowNavigationStep(
                from: from.map { $0.flowRoute.name } ?? "?",
                to: (to ?? from).map { $0.flowRoute.name } ?? "?",
                kind: command.kindName, applied: applied,
                reason: applied ? nil : entry.reason, source: entry.source.rawValue,
                dialog: dialogAnswers[entry.sequence],
                tab: entry.status.isApplied && entry.newStacks.count == 1 ? entry.newStacks.first.flatMap { tabOfStack[$0.id] } : nil,
                experiments: entry.experiments))
        }
        harvested = last
        if steps.count > Self.historyLimit { steps.removeFirst(steps.count - Self.historyLimit) }
    }

    /// Notes the script error of a history entry a failed rule decided (refused, or let
    /// through by a fail-open engine): at the rule's `file:line`, once per test, at most
    /// `scriptErrorLimit`.
    private func noteScriptError(_ entry: FlowHistoryEntry<Route>) {
        let reason = entry.reason ?? "a rule failed"
        let what: String
        if let command = entry.command {
            let route = Self.subject(of: command, in: entry.previousStacks).map { " " + $0.flowRoute.description } ?? ""
            what = command.kindName + route
        } else {
            what = "showDialog" + (entry.dialogChange?.dialog.map { " " + $0 } ?? "")
        }
        let located = FlowScriptError.splitLocation(reason)
        let outcome = entry.status.isApplied ? "the failure policy let \(what) through" : "it refused \(what)"
        let error = FlowTestFailure(
            kind: .error, file: located?.file, line: located?.line,
            message: "script error in a rule (\(outcome)): \(located?.message ?? reason)")
        guard scriptErrors.count < Self.scriptErrorLimit, !scriptErrors.contains(error) else { return }
        scriptErrors.append(error)
    }

    /// The script errors one test result lists.
    static var scriptErrorLimit: Int { 20 }

    /// `result` with the script errors the rules raised during its test (which are then
    /// forgotten): listed, and failures of the test under `Options.failOnScriptErrors`.
    func withScriptErrors(_ result: FlowTestResult) -> FlowTestResult {
        let errors = scriptErrors
        scriptErrors.removeAll()
        guard !errors.isEmpty else { return result }
        return FlowTestResult(
            file: result.file, line: result.line, path: result.path,
            failures: result.failures + (options.failOnScriptErrors ? errors : []), output: result.output,
            steps: result.steps, duration: result.duration, isPending: result.isPending, isLoadFailure: result.isLoadFailure,
            scriptErrors: errors)
    }

    /// Notes the dialogs rules answered a navigation (or its redirects) with, for the steps.
    func noteDialogAnswers(_ result: FlowOperationResult<Route>) {
        var next: FlowOperationResult<Route>? = result
        while let current = next {
            if let answer = current.dialogRedirect, let sequence = current.sequence {
                dialogAnswers[sequence] = answer.dialog.id
            }
            next = current.redirect
        }
    }

    /// Keeps a printed line in the running test's output: at most `historyLimit` lines (each
    /// at most 4 KiB, cut by `print`), then one line saying the rest was dropped.
    func recordOutput(_ line: String) {
        if output.count < Self.historyLimit {
            output.append(line)
        } else if output.count == Self.historyLimit {
            output.append("... [this test printed more than \(Self.historyLimit) lines: the rest is dropped]")
        }
    }

    /// The history entries a flow's router keeps, and the navigation steps a test report keeps
    /// (the most recent ones).
    static var historyLimit: Int { 1_000 }

    /// The route a message names for a command: what it leaves for a dismissal or a pop (the
    /// top route of the stack it would dismiss or pop: `dismiss player`), else where it goes.
    static func subject(of command: FlowCommand<Route>, in stacks: [FlowStackState<Route>]) -> Route? {
        switch command.operation {
        case .dismiss(let target), .pop(_, let target), .popToRoot(let target), .popTo(_, _, let target):
            let stack: FlowStackState<Route>? = switch target {
            case .root: stacks.first
            case .active: stacks.last
            case .stack(let id): stacks.first { $0.id == id }
            }
            return stack?.topRoute
        case .dismissAll:
            return stacks.last?.topRoute
        default:
            return destination(of: command, in: stacks)
        }
    }

    /// Where a command would lead from `stacks`: its target route, or the screen it would uncover.
    static func destination(of command: FlowCommand<Route>, in stacks: [FlowStackState<Route>]) -> Route? {
        guard let front = stacks.last else { return nil }
        if let batch = command.batch { return batch.last }
        // A tab selection leads to another tab's stack, which `stacks` does not show.
        if command.tab != nil { return nil }
        func stackIndex(_ target: FlowStackTarget) -> Int? {
            switch target {
            case .root: return 0
            case .active: return stacks.count - 1
            case .stack(let id): return stacks.firstIndex { $0.id == id }
            }
        }
        switch command.operation {
        case .setRoot(let route), .push(let route, _), .pushRemovingPrevious(let route, _), .replaceCurrent(let route, _),
             .present(let route, _):
            return route
        case .replacePath(let root, let path, _):
            return path.last ?? root
        case .popTo(let route, let match, let target):
            guard match == .inclusive, let index = stackIndex(target) else { return route }
            let routes = [stacks[index].root] + stacks[index].path
            guard let position = routes.lastIndex(of: route), position > 0 else { return route }
            return routes[position - 1]
        case .pop(let count, let target):
            guard let index = stackIndex(target) else { return front.topRoute }
            let stack = stacks[index]
            if count > stack.pathCount {
                return index > 0 ? stacks[index - 1].topRoute : stack.root
            }
            let routes = [stack.root] + stack.path
            return routes[routes.count - 1 - count]
        case .popToRoot(let target):
            return stackIndex(target).map { stacks[$0].root } ?? front.root
        case .dismiss(let target):
            guard let index = stackIndex(target), index > 0 else { return front.topRoute }
            return stacks[index - 1].topRoute
        case .dismissAll:
            return stacks.first?.topRoute
        }
    }
}
