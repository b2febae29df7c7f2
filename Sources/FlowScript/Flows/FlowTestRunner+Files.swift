import FlowStack
import Foundation

/// One `it` collected from a flow file.
struct FlowCollectedTest {
    let path: [String]
    let body: LuaFunctionRef
    let before: [LuaFunctionRef]
    let after: [LuaFunctionRef]
    let line: Int?
}

extension FlowTestRunner {
    /// Loads one flow file into a fresh VM and runs its matching tests.
    func runFile(_ flow: FlowRulesSource, filter: String?, loadErrors: inout [FlowScriptError]) async -> [FlowTestResult] {
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
            let result = FlowTestResult(file: flow.name, line: error.line, path: ["did not load"], failures: [failure])
            guard Self.matches(filter, file: flow.name, path: result.path) else { return [] }
            onResult?(result)
            return [result]
        }
        defer {
            stubs.removeAll()
            fileStubs.removeAll()
            router = nil
            vm.close()
            self.vm = nil
        }
        var results: [FlowTestResult] = []
        for test in tests where Self.matches(filter, file: flow.name, path: test.path) {
            let result = await run(test, file: flow.name, vm: vm)
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
        let prelude = try vm.load(source: FlowTestPrelude.source, chunkName: FlowTestPrelude.chunkName)
        guard case .function(let finish)? = try vm.call(prelude, []).first else {
            throw FlowScriptError(kind: .badReturn, file: "flowstack", message: "the flow prelude did not return its entry point")
        }
        stubs.removeAll()
        _ = try vm.run(source: flow.text, chunkName: flow.name)
        fileStubs = stubs
        let collected = try vm.call(finish, [])
        try vm.lockGlobals()
        guard case .table(let list)? = collected.first else { return [] }
        return list.array.compactMap { item -> FlowCollectedTest? in
            guard case .table(let test) = item, case .function(let body) = test["fn"] else { return nil }
            let path = test["path"].tableValue?.array.compactMap(\.stringValue) ?? []
            let before = test["before"].tableValue?.array.compactMap(\.functionValue) ?? []
            let after = test["after"].tableValue?.array.compactMap(\.functionValue) ?? []
            let line = test["where"].stringValue.flatMap { FlowScriptError.splitLocation($0 + ": x")?.line }
            return FlowCollectedTest(path: path, body: body, before: before, after: after, line: line)
        }
    }

    /// Runs one test: a fresh router, the `before_each` hooks (outer first), the body, then the
    /// `after_each` hooks (inner first), which run even when the test failed.
    private func run(_ test: FlowCollectedTest, file: String, vm: LuaVM) async -> FlowTestResult {
        let started = ContinuousClock.now
        stubs = fileStubs
        output.removeAll()
        steps.removeAll()
        pendingExpectation = nil
        clock = options.startDate
        var failures: [FlowTestFailure] = []
        guard engine != nil else {
            failures.append(FlowTestFailure(
                kind: .error, file: file, line: test.line,
                message: "not run: the rules did not load (fix the error reported above)"))
            return FlowTestResult(file: file, line: test.line, path: test.path, failures: failures)
        }
        do {
            try resetState(root: nil, facts: [:])
        } catch {
            failures.append(failure(from: error, file: file))
        }
        if failures.isEmpty {
            for hook in test.before {
                failures += await invoke(hook, file: file, vm: vm)
                if !failures.isEmpty { break }
            }
        }
        if failures.isEmpty {
            failures += await invoke(test.body, file: file, vm: vm)
        }
        for hook in test.after {
            failures += await invoke(hook, file: file, vm: vm)
        }
        harvestSteps()
        let elapsed = ContinuousClock.now - started
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        return FlowTestResult(
            file: file, line: test.line, path: test.path, failures: failures, output: output, steps: steps,
            duration: seconds)
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
                expected: expectation.expected, actual: expectation.actual, stacks: describeStacks()), at: 0)
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
                expected: expectation.expected, actual: expectation.actual, stacks: stacks)
        }
        return FlowTestFailure(kind: .error, file: error.file ?? file, line: error.line, message: error.message, stacks: stacks)
    }

    /// The router's stacks and dialog, one line each (`1 root: home > detail{id="42"}`).
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
        return lines
    }
}
