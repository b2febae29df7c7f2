import FlowLua
import FlowStackCore
import Foundation

/// A test found in a flow file, without running it.
package struct FlowTestInfo: Hashable, Sendable {
    /// The flow file (`flows/auth.lua`).
    package let file: String
    /// The line where the test's function starts.
    package let line: Int?
    /// The enclosing `describe` names, then the test's own name.
    package let path: [String]
    /// Whether the test is pending (declared, not run).
    package var isPending: Bool = false

    /// The test's name: its `describe` names and its own, joined with ` › `.
    package var name: String { path.joined(separator: " › ") }
}

extension FlowTestRunner {
    /// The error of the rules, when they did not load (no test runs then).
    package var rulesLoadError: FlowScriptError? { setupErrors.first }

    /// Loads every flow file (running its top level, not its tests) and lists the tests;
    /// files that do not load are returned as errors with `file:line`.
    package func listTests(filter: String? = nil) -> (tests: [FlowTestInfo], loadErrors: [FlowScriptError]) {
        listTests(selection: FlowTestSelection(filter: filter))
    }

    /// Lists the tests a run with `selection` would run (in file order).
    package func listTests(selection: FlowTestSelection) -> (tests: [FlowTestInfo], loadErrors: [FlowScriptError]) {
        var tests: [FlowTestInfo] = []
        var errors: [FlowScriptError] = []
        for flow in project.flows {
            do {
                let vm = try LuaVM(configuration: .init(memoryBudget: options.memoryBudget, instructionBudget: options.instructionBudget))
                self.vm = vm
                defer {
                    vm.close()
                    self.vm = nil
                    router = nil
                    stubs.removeAll()
                    fileStubs.removeAll()
                }
                for test in try load(flow, into: vm) where selection.includes(file: flow.name, path: test.path) {
                    tests.append(FlowTestInfo(file: flow.name, line: test.line, path: test.path, isPending: test.body == nil))
                }
            } catch {
                errors.append(error)
            }
        }
        return (tests, errors)
    }
}
