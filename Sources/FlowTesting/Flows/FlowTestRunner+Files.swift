import FlowLua
import FlowScript
import FlowStackCore
import Foundation

/// One `it` collected from a flow file.
struct FlowCollectedTest {
    let path: [String]
    /// The test's function; `nil` for a pending test.
    let body: LuaFunctionRef?
    let before: [LuaFunctionRef]
    let after: [LuaFunctionRef]
    let line: Int?
    /// The enclosing blocks (the file first), with their `before_all` and `after_all` hooks.
    let blocks: [FlowCollectedBlock]
}

/// A call of a `before_all` hook that sets where the block's tests start: replayed on the fresh
/// router of each later test of the block.
enum FlowSetupCall<Route> {
    /// `app.reset{ root = ..., tab = ..., facts = ..., experiments = ..., unit = ... }`.
    case reset(root: Route?, tab: String?, facts: [String: FlowScriptValue], experiments: FlowExperimentChoices)
    /// `app.facts{ ... }`.
    case facts([String: FlowScriptValue])
    /// `app.experiments{ ... }`.
    case experiments([String: String?])
}

/// A `describe` block (or the file's top level) and its once-per-block hooks.
struct FlowCollectedBlock {
    let id: Int
    let beforeAll: [LuaFunctionRef]
    let afterAll: [LuaFunctionRef]
}

extension FlowTestRunner {
    /// Loads one flow file into a fresh VM and runs its selected tests.
    func runFile(_ flow: FlowRulesSource, selection: FlowTestSelection, loadErrors: inout [FlowScriptError]) async -> [FlowTestResult] {
        let vm: LuaVM
        let tests: [FlowCollectedTest]
        do {
            vm = try LuaVM(configuration: .init(memoryBudget: options.memoryBudget, instructionBudget: options.instructionBudget))
            self.vm = vm
            tests = try load(flow, into: vm)
        } catch {
            self.vm?.close()
            self.vm = nil
            loadErrors.append(error)
            let failure = FlowTestFailure(kind: .error, file: error.file ?? flow.name, line: error.line, message: error.message)
            let result = FlowTestResult(
                file: flow.name, line: error.line, path: ["did not load"], failures: [failure], isLoadFailure: true)
            guard selection.matchesFilter(file: flow.name, path: result.path) else { return [] }
            onResult?(result)
            return [result]
        }
        defer {
            stubs.removeAll()
            fileStubs.removeAll()
            enteredBlocks.removeAll()
            blockSetups.removeAll()
            router = nil
            vm.close()
            self.vm = nil
        }
        var selected = tests.filter { selection.includes(file: flow.name, path: $0.path) }
        if let seed = selection.seed { selected = FlowTestSelection.shuffled(selected, seed: seed, salt: flow.name) }
        // How many tests each block has left to run; a pending test never runs, so it is not
        // counted (a block whose last test is pending still runs its after_all hooks).
        var remaining: [Int: Int] = [:]
        for test in selected where test.body != nil {
            for block in test.blocks { remaining[block.id, default: 0] += 1 }
        }
        var results: [FlowTestResult] = []
        for test in selected {
            let result = await run(test, file: flow.name, vm: vm, remaining: &remaining)
            results.append(result)
            onResult?(result)
        }
        return results
    }

    /// Sets the VM up, runs the flow file's top level and returns its tests.
    func load(_ flow: FlowRulesSource, into vm: LuaVM) throws(FlowScriptError) -> [FlowCollectedTest] {
        vm.printSink = { [weak self] line in self?.recordOutput(line) }
        try installNative(in: vm)
        try registerRouter(in: vm)
        try registerQueries(in: vm)
        try registerApp(in: vm)
        try installFacts(in: vm)
        let prelude = try vm.load(source: try FlowTestPrelude.source, chunkName: FlowTestPrelude.chunkName)
        guard let finish = try vm.call(prelude, []).first?["finish"].functionValue else {
            throw FlowScriptError(
                kind: .badReturn, file: FlowTestPrelude.chunkName, message: "the flow prelude did not return a table with its 'finish' function")
        }
        stubs.removeAll()
        do {
            _ = try vm.run(source: flow.text, chunkName: flow.name)
        } catch {
            var hinted = error
            hinted.message = FlowErrorHint.hinted(error.message)
            throw hinted
        }
        fileStubs = stubs
        let collected = try vm.call(finish, [])
        try vm.lockGlobals()
        guard case .table(let list)? = collected.first else { return [] }
        return list.array.compactMap { item -> FlowCollectedTest? in
            guard case .table(let test) = item else { return nil }
            let body = test["fn"].functionValue
            if body == nil, test["pending"] != .boolean(true) { return nil }
            let path = test["path"].tableValue?.array.compactMap(\.stringValue) ?? []
            let before = test["before"].tableValue?.array.compactMap(\.functionValue) ?? []
            let after = test["after"].tableValue?.array.compactMap(\.functionValue) ?? []
            let line = test["where"].stringValue.flatMap { FlowScriptError.splitLocation($0 + ": x")?.line }
            let blocks = (test["blocks"].tableValue?.array ?? []).compactMap { value -> FlowCollectedBlock? in
                guard case .table(let block) = value, let id = block["id"].intValue else { return nil }
                return FlowCollectedBlock(
                    id: id, beforeAll: block["before_all"].tableValue?.array.compactMap(\.functionValue) ?? [],
                    afterAll: block["after_all"].tableValue?.array.compactMap(\.functionValue) ?? [])
            }
            return FlowCollectedTest(path: path, body: body, before: before, after: after, line: line, blocks: blocks)
        }
    }

    /// Runs one test: a fresh router, the `before_all` hooks of blocks entered for the first
    /// time (outer first), the `before_each` hooks (outer first), the body, then the
    /// `after_each` hooks (inner first), which run even when the test failed, and the
    /// `after_all` hooks of blocks whose last selected test this was (inner first).
    private func run(
        _ test: FlowCollectedTest, file: String, vm: LuaVM, remaining: inout [Int: Int]
    ) async -> FlowTestResult {
        let started = ContinuousClock.now
        stubs = fileStubs
        output.removeAll()
        steps.removeAll()
        hostCalls.removeAll()
        pendingExpectation = nil
        clock = options.startDate
        var failures: [FlowTestFailure] = []
        guard let body = test.body else {
            return FlowTestResult(file: file, line: test.line, path: test.path, failures: [], isPending: true)
        }
        guard engine != nil else {
            failures.append(FlowTestFailure(
                kind: .error, file: file, line: test.line,
                message: "not run: the rules did not load (the load error at \(rulesLoadError.map { [$0.file, $0.line.map(String.init)].compactMap { $0 }.joined(separator: ":") } ?? "the rules"))"))
            return FlowTestResult(file: file, line: test.line, path: test.path, failures: failures, isStoppedByRulesLoadError: true)
        }
        do {
            try resetState(root: nil, facts: [:])
        } catch {
            failures.append(failure(from: error, file: file))
        }
        if failures.isEmpty {
            for block in test.blocks {
                if let entered = enteredBlocks[block.id] {
                    failures += entered
                    // Where the block's before_all left the start (app.reset, app.facts).
                    if entered.isEmpty {
                        do {
                            try replay(blockSetups[block.id] ?? [])
                        } catch {
                            failures.append(failure(from: error, file: file).prefixed("before_all failed: "))
                        }
                    }
                    continue
                }
                var blockFailures: [FlowTestFailure] = []
                recordingSetup = []
                for hook in block.beforeAll where blockFailures.isEmpty {
                    blockFailures += await invoke(hook, file: file, vm: vm).map { $0.prefixed("before_all failed: ") }
                }
                blockSetups[block.id] = recordingSetup
                recordingSetup = nil
                // Stubs a before_all sets last for the whole block.
                fileStubs.merge(stubs) { _, new in new }
                enteredBlocks[block.id] = blockFailures
                failures += blockFailures
            }
        }
        if failures.isEmpty {
            for hook in test.before where failures.isEmpty {
                failures += await invoke(hook, file: file, vm: vm).map { $0.prefixed("before_each failed: ") }
            }
        }
        if failures.isEmpty {
            failures += await invoke(body, file: file, vm: vm)
        }
        for hook in test.after {
            failures += await invoke(hook, file: file, vm: vm).map { $0.prefixed("after_each failed: ") }
        }
        for block in test.blocks.reversed() {
            remaining[block.id, default: 1] -= 1
            guard remaining[block.id] == 0, enteredBlocks[block.id] != nil else { continue }
            for hook in block.afterAll {
                failures += await invoke(hook, file: file, vm: vm).map { $0.prefixed("after_all failed: ") }
            }
        }
        harvestSteps()
        restoreRules()
        let elapsed = ContinuousClock.now - started
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        return withScriptErrors(FlowTestResult(
            file: file, line: test.line, path: test.path, failures: failures, output: output, steps: steps,
            duration: seconds))
    }

    /// Applies a block's `before_all` calls of `app.reset` and `app.facts` again, in order.
    private func replay(_ calls: [FlowSetupCall<Route>]) throws(FlowScriptError) {
        for call in calls {
            switch call {
            case .reset(let root, let tab, let facts, let experiments):
                try resetState(root: root, tab: tab, facts: facts, experiments: experiments)
            case .experiments(let choices):
                try setFlowExperiments(choices)
            case .facts(let changes):
                guard let engine else { continue }
                try engine.setFacts(changes.mapValues { Optional($0) })
                try refreshFlowFacts()
            }
        }
    }

    /// Calls a test function in a coroutine (so async navigations can suspend it); its failures:
    /// the error it raised, and an expectation whose error something caught before the test saw
    /// it (a host stub's, which the rules turn into a rule failure).
    private func invoke(_ function: LuaFunctionRef, file: String, vm: LuaVM) async -> [FlowTestFailure] {
        var failures: [FlowTestFailure] = []
        do {
            _ = try await vm.callAsync(function, [])
        } catch {
            failures.append(failure(from: error, file: file))
        }
        if let expectation = pendingExpectation {
            pendingExpectation = nil
            let location = expectation.location.flatMap { FlowScriptError.splitLocation($0 + " x") }
            failures.insert(FlowTestFailure(
                kind: .expectation, file: location?.file ?? file, line: location?.line,
                message: expectation.message + " (its error was caught before the test saw it: in a host stub, "
                    + "a failed expectation becomes a failed rule)",
                expected: expectation.expected, actual: expectation.actual, stacks: describeStacks(),
                traceback: expectation.traceback, diff: expectation.diff), at: 0)
        }
        return failures
    }

    /// A failure from an error a test raised: an expectation's details when it came from one.
    func failure(from error: FlowScriptError, file: String) -> FlowTestFailure {
        let stacks = describeStacks()
        if let expectation = pendingExpectation, error.message == expectation.message {
            pendingExpectation = nil
            return FlowTestFailure(
                kind: .expectation, file: error.file ?? file, line: error.line, message: expectation.message,
                expected: expectation.expected, actual: expectation.actual, stacks: stacks,
                traceback: expectation.traceback, diff: expectation.diff)
        }
        return FlowTestFailure(
            kind: .error, file: error.file ?? file, line: error.line, message: FlowErrorHint.hinted(error.message), stacks: stacks)
    }

    /// The router's stacks and dialog, one line each (`1 root: home > detail{id="42"}`), and the
    /// last link opened when it did not apply (`last link: myapp://x unhandled: ...`).
    func describeStacks() -> [String] {
        guard let router else { return [] }
        var lines = router.stacks.enumerated().map { index, stack in
            let routes = ([stack.root] + stack.path).map { $0.flowRoute.description }
            return "\(index + 1) \(stack.style.rawValue): " + routes.joined(separator: " > ")
        }
        if let dialog = router.globalDialog {
            let queued = router.queuedGlobalDialogCount
            lines.append("dialog: \(dialog)" + (queued > 0 ? " (+\(queued) queued)" : ""))
        }
        // A link the test opened last that did not apply: why (the patterns tried, the handler's error).
        if let last = router.deepLinks.linkLog.last, case .attempted(_, let status) = last.event, status != .applied {
            lines.append("last link: \(last.url.absoluteString) \(status.rawValue)" + (last.reason.map { ": \($0)" } ?? ""))
        }
        return lines
    }
}

/// What `app.reset` sets of experiments: the unit id (default none) and the forced variants
/// (a `nil` variant: not enrolled).
struct FlowExperimentChoices {
    var unit: String?
    var variants: [String: String?] = [:]
}
