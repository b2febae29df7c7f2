import FlowStackCore
import Foundation
import Testing
@testable import FlowLua
@testable import FlowScript

/// Spec §2 "What rules can read": the read-only `facts` table, set from Swift.
@Suite("Engine: facts")
@MainActor
struct EngineFactsTests {
    static let manifest = FlowManifest(
        routes: ["home": .init(), "editor": .init(), "paywall": .init()],
        facts: ["isLoggedIn": false, "isPremium": false, "credits": 0, "name": ""]
    )

    @Test("Typed facts from Swift are visible to rules with their Lua types")
    func typedFacts() throws {
        let rig = try RulesRig("""
            flow.guard("probe", function()
              local f = facts
              host.log(type(f.flag), tostring(f.flag), math.type(f.count), f.count, math.type(f.ratio), f.ratio,
                f.title, #f.list, f.list[1], f.list[3], f.user.name, f.user.tags[2], tostring(f.missing))
            end)
            """)
        try rig.engine.setFacts([
            "flag": true, "count": 3, "ratio": 0.25, "title": "Hello",
            "list": ["a", "b", "c"], "user": ["name": "Ada", "tags": ["x", "y"]],
        ])
        rig.push("probe")
        #expect(rig.log == ["boolean true integer 3 float 0.25 Hello 3 a c Ada y nil"])
        #expect(rig.engine.currentFacts["count"] == 3)
    }

    @Test("Rules see fact changes at once; nil removes a fact; resetFacts replaces all")
    func factChanges() throws {
        let rig = try RulesRig("flow.precondition('push', function() return facts.isLoggedIn, 'login required' end)")
        var changes = 0
        rig.engine.onFactsChange = { changes += 1 }
        #expect(rig.push("a").status == .blockedByPrecondition)
        try rig.engine.setFact("isLoggedIn", true)
        #expect(rig.push("a").isApplied)
        try rig.engine.setFact("isLoggedIn", nil)
        #expect(rig.push("b").status == .blockedByPrecondition)
        try rig.engine.setFacts(["isLoggedIn": true, "other": 1])
        #expect(rig.push("b").isApplied)
        try rig.engine.resetFacts(["other": 2])
        #expect(rig.engine.currentFacts == ["other": 2])
        #expect(rig.push("c").status == .blockedByPrecondition)
        #expect(changes == 4)
    }

    @Test("Facts survive a reload")
    func factsSurviveReload() throws {
        let rig = try RulesRig("flow.guard('a', function() return facts.ok == 1 end)")
        try rig.engine.setFact("ok", 1)
        #expect(rig.engine.reload() == .loaded(generation: 2))
        #expect(rig.push("a").isApplied)
    }

    @Test("Writing to facts inside a rule is an error with file:line", arguments: [
        "facts.isLoggedIn = true",
        "facts.brandNew = 1",
        "rawset(facts, 'isLoggedIn', true)",
        "facts.user.name = 'Eve'",
        "rawset(facts.user, 'name', 'Eve')",
        "facts.list[1] = 'z'",
        "table.insert(facts.list, 'z')",
        "setmetatable(facts, nil)",
    ])
    func factsAreReadOnly(statement: String) throws {
        let rig = try RulesRig("""
            flow.guard("probe", function()
              \(statement)
            end)
            """)
        try rig.engine.setFacts(["isLoggedIn": false, "user": ["name": "Ada"], "list": ["a"]])
        let result = rig.push("probe")
        #expect(result.status == .failed)
        let reason = try #require(result.reason)
        #expect(reason.hasPrefix("rules/test.lua:2: "), "\(reason)")
        #expect(reason.contains("read-only") || reason.contains("protected"), "\(reason)")
        #expect(rig.engine.currentFacts["isLoggedIn"] == false)
        try rig.engine.setFact("isLoggedIn", true)
        #expect(rig.engine.currentFacts["user"] == ["name": "Ada"])
    }

    @Test("Assigning a fact in a rule says what to do instead")
    func factAssignmentSaysWhatToDo() throws {
        let rig = try RulesRig(#"flow.guard("probe", function() facts.isLoggedIn = true end)"#)
        let reason = try #require(rig.push("probe").reason)
        #expect(reason == "rules/test.lua:1: facts is read-only (cannot assign 'isLoggedIn'): rules read facts, the app sets "
            + "them (engine.setFacts); keep a value a rule computes in a local", "\(reason)")
    }

    @Test("Writing to facts at the top level of a rules file fails the load")
    func factsReadOnlyAtLoad() {
        let error = loadError("\nfacts.isLoggedIn = true")
        #expect(error?.file == "rules/bad.lua")
        #expect(error?.line == 2)
        #expect(error?.kind == .readOnly)
    }

    @Test("facts can be iterated with pairs")
    func pairsOverFacts() throws {
        let rig = try RulesRig("""
            flow.guard("probe", function()
              local names = {}
              for k in pairs(facts) do names[#names + 1] = k end
              table.sort(names)
              host.log(table.concat(names, ","))
            end)
            """)
        try rig.engine.setFacts(["b": 1, "a": true, "c": "x"])
        rig.push("probe")
        #expect(rig.log == ["a,b,c"])
    }

    @Test("With a manifest, facts start from the declared defaults")
    func manifestDefaults() throws {
        let rig = try RulesRig("""
            flow.guard("editor", function() host.log(tostring(facts.isLoggedIn), facts.credits, facts.name == "") end)
            """, configuration: FlowRulesConfiguration(manifest: Self.manifest))
        #expect(rig.engine.currentFacts["credits"] == 0)
        rig.push("editor")
        #expect(rig.log == ["false 0 true"])
    }

    @Test("With a manifest, reading an undeclared fact is an error naming it, with a suggestion")
    func undeclaredFactRead() throws {
        let rig = try RulesRig("""
            flow.guard("editor", function()

              if not facts.isPremuim then return false end
            end)
            """, configuration: FlowRulesConfiguration(manifest: Self.manifest))
        let result = rig.push("editor")
        #expect(result.status == .failed)
        let reason = try #require(result.reason)
        #expect(reason.hasPrefix("rules/test.lua:3: "), "\(reason)")
        #expect(reason.contains("unknown fact 'isPremuim' (did you mean 'isPremium'?)"), "\(reason)")
    }

    @Test("With a manifest, Swift cannot set an undeclared fact or one of the wrong type")
    func manifestChecksSwiftFacts() throws {
        let engine = try FlowRulesEngine<FlowRouteValue>(sources: [], configuration: FlowRulesConfiguration(manifest: Self.manifest))
        #expect(throws: FlowScriptError.self) { try engine.setFact("isPremum", true) }
        do {
            try engine.setFact("isPremium", "yes")
            Issue.record("a string was accepted for a boolean fact")
        } catch {
            #expect(error.message.contains("fact 'isPremium' is a boolean"), "\(error)")
        }
        do {
            try engine.setFact("isPremum", true)
        } catch {
            #expect(error.message.contains("did you mean 'isPremium'"), "\(error)")
        }
        try engine.setFact("credits", 2.5)
        #expect(engine.currentFacts["credits"] == 2.5)
        #expect(engine.currentFacts["isPremium"] == false)
    }

    @Test("Without a manifest, an unset fact reads nil")
    func unsetFactIsNil() throws {
        let rig = try RulesRig("flow.guard('a', function() host.log(tostring(facts.whatever)) end)")
        rig.push("a")
        #expect(rig.log == ["nil"])
    }
}
