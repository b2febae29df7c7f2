import FlowStackCore
import Foundation
import Testing
@testable import FlowScript

/// An error in every kind of hook is reported with `file:line` and never crashes or navigates.
@Suite("Engine: errors in every kind of hook")
@MainActor
struct EngineHookErrorTests {
    @Test("Precondition, guard and redirect-target guard errors fail closed with file:line", arguments: [
        ("flow.precondition('push', function()\n  error('precondition broke')\nend)", "rules/test.lua:2: precondition broke"),
        ("flow.precondition('*', function()\n  return nil .. 'x'\nend)", "rules/test.lua:2: attempt to concatenate a nil value"),
        ("flow.guard('editor', function()\n  error({ code = 1 })\nend)", "rules/test.lua:2: error object is a table value"),
        ("flow.guard('editor', function() return flow.redirect('push', 'next') end)\nflow.guard('next', function()\n  error('target guard broke')\nend)",
         "rules/test.lua:3: target guard broke"),
    ])
    func decisionErrors(text: String, reason: String) throws {
        let rig = try RulesRig(text)
        let result = finalResult(rig.push("editor"))
        #expect(result.status == .failed)
        #expect(result.reason?.hasPrefix(reason) == true, "\(result.reason ?? "")")
        #expect(rig.router.activeStack.path.isEmpty)
    }

    @Test("Errors in async decisions fail closed with file:line too")
    func asyncDecisionError() async throws {
        let rig = try RulesRig("""
            flow.guard("editor", function()
              local value = host.fetch()
              return value.missing.field
            end)
            """)
        rig.engine.registerAsyncHost("fetch") { _ in await Task.yield(); return [["present": true]] }
        #expect(await rig.router.pushAsync(route("editor")) == false)
        let entry = try #require(rig.router.history.last)
        #expect(entry.status == .failed)
        #expect(entry.reason?.hasPrefix("rules/test.lua:3: ") == true, "\(entry.reason ?? "")")
    }

    @Test("An error in each style hook is a diagnostic with file:line", arguments: ["screen", "stack", "modal"])
    func styleErrors(hook: String) throws {
        let rig = try RulesRig("""
            flow.style.\(hook)(function(c)
              error("\(hook) style broke")
            end)
            """)
        rig.router.sheet(route("s"))
        let style = try #require(rig.router.resolvedStyle(stackIndex: 1, screenDepth: 0))
        #expect(style.screen == FlowStyleAttributes.flowStackScreenDefaults)
        let error = try #require(rig.engine.diagnostics.first { $0.severity == .error })
        #expect(error.file == "rules/test.lua")
        #expect(error.line == 2)
        #expect(error.message.contains("\(hook) style broke"))
    }

    @Test("An error in a deep-link handler leaves the link unhandled with file:line")
    func deepLinkError() throws {
        let rig = try RulesRig("""
            flow.deeplink("/x", function(p)
              return { flow.op("push", p.missing.name) }
            end)
            """)
        let result = rig.router.open(url: try #require(URL(string: "myapp://x")))
        #expect(result.status == .unhandled)
        #expect(result.reason?.contains("rules/test.lua:2: attempt to index a nil value") == true, "\(result.reason ?? "")")
        #expect(rig.router.history.isEmpty)
    }

    @Test("An error in load-time top-level code fails the load with file:line", arguments: [
        ("local a = 1\nlocal b = a + {}", 2),
        ("flow.guard('ok', function() end)\n\nerror('config missing')", 3),
        ("host.config()", 1),
        ("require('other')", 1),
        ("local s = string.dump(print)", 1),
    ])
    func loadTimeErrors(text: String, line: Int) {
        let error = loadError(text)
        #expect(error?.file == "rules/bad.lua", "\(String(describing: error))")
        #expect(error?.line == line, "\(String(describing: error))")
    }

    @Test("Yielding from a rule is an error, not a hang", arguments: [false, true])
    func yieldingRule(isAsync: Bool) async throws {
        let rig = try RulesRig("""
            flow.guard("editor", function()
              coroutine.yield()
            end)
            """)
        let applied = isAsync ? await rig.router.pushAsync(route("editor")) : rig.router.push(route("editor"))
        #expect(!applied)
        let entry = try #require(rig.router.history.last)
        #expect(entry.status == .failed)
        #expect(entry.reason?.hasPrefix("rules/test.lua:2: ") == true, "\(entry.reason ?? "")")
    }

    @Test("An async host function called inside a coroutine the rule created is an error")
    func asyncHostInsideScriptCoroutine() async throws {
        let rig = try RulesRig("""
            flow.guard("editor", function()
              local co = coroutine.wrap(function() return host.fetch() end)
              return co()
            end)
            """)
        rig.engine.registerAsyncHost("fetch") { _ in [true] }
        #expect(await rig.router.pushAsync(route("editor")) == false)
        #expect(rig.router.history.last?.status == .failed)
        #expect(rig.router.history.last?.reason?.contains("coroutine") == true, "\(rig.router.history.last?.reason ?? "")")
    }
}
