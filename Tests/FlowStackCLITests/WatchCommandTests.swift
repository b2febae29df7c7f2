import FlowStackTestSupport
import Foundation
import Testing

@Suite("flowstack watch")
struct WatchCommandTests {
    @Test("re-runs the flows after a rename-save")
    func renameSave() throws {
        let project = try TemporaryProject([
            "routes.lua": TemporaryProject.manifest,
            "rules/auth.lua": TemporaryProject.rules,
            "flows/f.lua": """
                it("guards detail", function()
                  expect(router.push({ name = "detail", id = "1" }).applied).to_be(false)
                end)
                """,
        ])
        defer { project.remove() }
        let command = try RunningCommand(["watch", project.path])
        defer { command.stop() }
        let output = command.output

        let first = output.waitForLine(containing: "1 passed, 0 failed", timeout: 30)
        #expect(first != nil, "first summary: \(output.text)")

        // An editor's save: write a temporary file, then rename it over the rule.
        let rule = project.url.appendingPathComponent("rules/auth.lua")
        let temporary = project.url.appendingPathComponent("rules/.auth.lua.swp")
        try Data("flow.guard(\"detail\", function() end)\n".utf8).write(to: temporary)
        #expect(rename(temporary.path, rule.path) == 0)

        // How fast is flowstack-bench's figure (live_rules); here only that the run comes.
        let second = output.waitForLine(containing: "0 passed, 1 failed", timeout: 30)
        #expect(second != nil, "second summary: \(output.text)")
        #expect(output.text.contains("guards detail"))
    }

    @Test("Ctrl-C at once after the banner ends it with its last line and status 0, every time")
    func interruptAfterBanner() throws {
        let project = try TemporaryProject([
            "routes.lua": TemporaryProject.manifest,
            "rules/auth.lua": TemporaryProject.rules,
            "flows/f.lua": "it(\"a\", function() end)\n",
        ])
        defer { project.remove() }
        for attempt in 1...10 {
            let command = try RunningCommand(["watch", project.path])
            let banner = command.output.waitForLine(containing: "press Ctrl-C to stop", timeout: 30)
            #expect(banner != nil, "attempt \(attempt): \(command.output.text)")
            let status = command.stop()
            #expect(status == 0, "attempt \(attempt) ended by a signal or failed: \(command.output.text)")
            #expect(command.output.text.contains("stopped watching"), "attempt \(attempt): \(command.output.text)")
        }
    }
}

@Suite("flowstack watch: rules that do not load")
struct WatchLoadErrorTests {
    @Test("a syntax error in the rules gives one did-not-load line and a one-line summary")
    func syntaxError() throws {
        let project = try TemporaryProject([
            "routes.lua": TemporaryProject.manifest,
            "rules/auth.lua": "flow.guard(\"detail\", function()\n",
            "flows/f.lua": "it(\"a\", function() end)\nit(\"b\", function() end)\n",
        ])
        defer { project.remove() }
        let command = try RunningCommand(["watch", project.path])
        defer { command.stop() }
        let output = command.output
        let summary = output.waitForLine(containing: "the rules did not load: 2 tests not run", timeout: 30)
        #expect(summary != nil, "\(output.text)")
        #expect(output.text.components(separatedBy: "did not load: rules/auth.lua").count == 2, "\(output.text)")
        #expect(!output.text.contains("✗"), "no line per test")
    }
}
