import FlowStackCore
import Foundation
import Testing
@testable import FlowScript

/// Spec §2 "Decisions": what each returned form of a precondition or guard does.
@Suite("Engine: decision forms")
@MainActor
struct EngineDecisionTests {
    @Test("Nothing, a bare return, or true allows", arguments: [
        "",
        "return",
        "do return end",
        "return true",
        "return true, 'ignored reason'",
        "if facts.missing then return false end",
    ])
    func allowingForms(body: String) throws {
        let rig = try RulesRig("flow.guard('editor', function(op, stacks, ctx)\n\(body)\nend)")
        let result = rig.push("editor")
        #expect(result.status == .applied)
        #expect(result.reason == nil)
        #expect(rig.router.topRoute == route("editor"))
        #expect(rig.router.history.last?.status == .applied)
    }

    @Test("false or nil as a returned value blocks, with the reason that follows it", arguments: [
        ("return false, 'premium required'", "premium required"),
        ("return nil, 'no account'", "no account"),
        ("return facts.unset, 'login required'", "login required"),
        ("return false, 42", "42"),
    ])
    func blockingFormsWithReason(body: String, reason: String) throws {
        let rig = try RulesRig("flow.guard('editor', function(op, stacks, ctx)\n\(body)\nend)")
        let result = rig.push("editor")
        #expect(result.status == .blockedByGuard)
        #expect(result.reason == reason)
        #expect(rig.router.topRoute == route("home"))
        #expect(rig.router.history.last?.reason == reason)
    }

    @Test("A block without a reason names the rule's file and line", arguments: [
        "return false",
        "return nil",
        "return facts.isLoggedIn",
    ])
    func blockingFormsWithoutReason(body: String) throws {
        let rig = try RulesRig("""
            -- a comment line
            flow.guard('editor', function(op, stacks, ctx)
              \(body)
            end)
            """)
        let result = rig.push("editor")
        #expect(result.status == .blockedByGuard)
        #expect(result.reason == "blocked by the guard at rules/test.lua:2")
        #expect(rig.router.activeStack.path.isEmpty)
    }

    @Test("A rule in a file whose name is longer than Lua keeps is still named in full")
    func longFileNames() throws {
        let file = "rules/" + String(repeating: "deeply-nested-feature/", count: 4) + "guards-for-the-editor.lua"
        #expect(file.count > 60)
        let rig = try RulesRig("""
            flow.guard('editor', function(op, stacks, ctx)
              return false
            end)
            """, file: file)
        let result = rig.push("editor")
        #expect(result.reason == "blocked by the guard at \(file):1")
    }

    @Test("A default precondition blocks with the precondition outcome")
    func preconditionBlock() throws {
        let rig = try RulesRig("""
            flow.precondition("push", function(op, stacks, ctx)
              return facts.isLoggedIn, "login required"
            end)
            """)
        let blocked = rig.push("detail")
        #expect(blocked.status == .blockedByPrecondition)
        #expect(blocked.reason == "login required")
        try rig.engine.setFact("isLoggedIn", true)
        #expect(rig.push("detail").isApplied)
        try rig.engine.setFact("isLoggedIn", 1)
        #expect(rig.push("detail").status == .failed, "a value that is not true never allows: 1 is a script error")
    }

    @Test("Anything else returned is a script error: blocked (fail closed) with file:line", arguments: [
        ("return 1", "number"),
        ("return 'yes'", "string"),
        ("return {}", "table"),
        ("return print", "function"),
        ("return 0, 'zero'", "number"),
    ])
    func otherReturnsFailClosed(body: String, typeName: String) throws {
        let rig = try RulesRig("""
            local x = 1
            flow.guard('editor', function(op, stacks, ctx)
              \(body)
            end)
            """)
        let result = rig.push("editor")
        #expect(result.status == .failed)
        let reason = try #require(result.reason)
        #expect(reason.hasPrefix("rules/test.lua:2: "), "\(reason)")
        #expect(reason.contains("returned a \(typeName)"), "\(reason)")
        #expect(rig.router.activeStack.path.isEmpty)
        #expect(rig.router.history.last?.status == .failed)
        #expect(rig.router.history.last?.reason == reason)
    }

    @Test("A precondition returning something else is an error naming the precondition")
    func badPreconditionReturn() throws {
        let rig = try RulesRig("flow.precondition('*', function() return 'ok' end)")
        let result = rig.push("detail")
        #expect(result.status == .failed)
        #expect(result.reason?.hasPrefix("rules/test.lua:1: a precondition must return") == true, "\(result.reason ?? "")")
    }

    @Test("A runtime error in a guard blocks with file:line: message")
    func runtimeErrorFailsClosed() throws {
        let rig = try RulesRig("""
            flow.guard('editor', function(op)
              local count = nil
              return count + 1
            end)
            """)
        let result = rig.push("editor")
        #expect(result.status == .failed)
        let reason = try #require(result.reason)
        #expect(reason.hasPrefix("rules/test.lua:3: "), "\(reason)")
        #expect(reason.contains("arithmetic"), "\(reason)")
    }

    @Test("error() with a message keeps the script's location")
    func explicitErrorCall() throws {
        let rig = try RulesRig("""
            flow.guard('editor', function(op)

              error("editor is disabled")
            end)
            """)
        #expect(rig.push("editor").reason == "rules/test.lua:3: editor is disabled")
    }

    @Test("Fail open allows the operation and records the error as its reason")
    func failOpen() throws {
        let rig = try RulesRig("""
            flow.guard('editor', function(op)
              return 7
            end)
            flow.guard('detail', function(op)
              error("boom")
            end)
            """, configuration: FlowRulesConfiguration(failurePolicy: .failOpen))
        let bad = rig.push("editor")
        #expect(bad.status == .applied)
        #expect(bad.reason?.hasPrefix("rules/test.lua:1: ") == true, "\(bad.reason ?? "")")
        #expect(rig.router.topRoute == route("editor"))
        #expect(rig.router.history.last?.reason == bad.reason)
        let failing = rig.push("detail")
        #expect(failing.status == .applied)
        #expect(failing.reason == "rules/test.lua:5: boom")
        let errors = rig.engine.diagnostics.filter { $0.severity == .error }
        #expect(errors.count == 2)
        #expect(errors.last?.file == "rules/test.lua")
        #expect(errors.last?.line == 5)
        #expect(errors.last?.message.contains("allowed (fail open)") == true)
    }

    @Test("Fail open never turns a returned block into an allow")
    func failOpenStillBlocks() throws {
        let rig = try RulesRig(
            "flow.guard('editor', function() return false, 'no' end)",
            configuration: FlowRulesConfiguration(failurePolicy: .failOpen))
        #expect(rig.push("editor").status == .blockedByGuard)
    }

    @Test("Operations no rule is registered for are allowed without asking Lua")
    func unguardedOperationsAllow() throws {
        let rig = try RulesRig("flow.guard('editor', function() error('must not run') end)")
        #expect(rig.push("detail").isApplied)
        #expect(rig.router.perform(.pop(count: 1, target: .active)).isApplied)
        #expect(rig.router.history.allSatisfy { $0.generation == 1 })
    }

    @Test("A user gesture is recorded and applies without asking the rules")
    func userGesturesSkipRules() throws {
        let rig = try RulesRig("""
            flow.precondition("*", function(op) host.log(op.kind); return false end)
            """)
        rig.router.perform(.push(route("detail"), target: .active), source: .user)
        #expect(rig.router.topRoute == route("detail"))
        let popped = try #require(rig.router.userDidPop())
        #expect(popped.isApplied)
        #expect(popped.command.kindName == "pop")
        #expect(rig.router.history.last?.source == .user)
        #expect(rig.log.isEmpty)
        #expect(!rig.router.push(route("detail")))
        #expect(rig.log == ["push"])
    }
}
