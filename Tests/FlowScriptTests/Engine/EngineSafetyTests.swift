import FlowStackCore
import Foundation
import Testing
@testable import FlowScript

/// Spec §2 "Safety", from inside rules: sandbox removals, locked globals, budgets.
@Suite("Engine: sandbox, globals and budgets")
@MainActor
struct EngineSafetyTests {
    /// The reason a rule running `statement` on its second line fails with.
    func failure(of statement: String, configuration: FlowRulesConfiguration = FlowRulesConfiguration()) throws -> String {
        let rig = try RulesRig("""
            flow.guard("probe", function(op, stacks, ctx)
              \(statement)
            end)
            """, configuration: configuration)
        let result = rig.push("probe")
        #expect(result.status == .failed, "\(statement) did not fail: \(result)")
        #expect(rig.router.activeStack.path.isEmpty)
        return result.reason ?? ""
    }

    @Test("Every sandbox removal errors inside a rule, with file:line", arguments: [
        ("io.write('x')", "'io'"),
        ("local f = io.open('/etc/passwd')", "'io'"),
        ("os.execute('true')", "execute"),
        ("os.exit(1)", "exit"),
        ("os.getenv('HOME')", "getenv"),
        ("os.remove('/tmp/x')", "remove"),
        ("require('socket')", "'require'"),
        ("local p = package.path", "'package'"),
        ("debug.sethook()", "'debug'"),
        ("dofile('/etc/passwd')", "'dofile'"),
        ("loadfile('/etc/passwd')", "'loadfile'"),
        ("assert(load('\\27LuaT\\0'))", "binary chunk"),
        ("assert(load(string.char(27) .. 'Lua', 'x', 'b'))", "binary chunk"),
        ("string.dump(function() end)", "dump"),
        ("local s = ('x'):dump()", "dump"),
        ("collectgarbage('collect')", "collectgarbage"),
        ("collectgarbage('stop')", "collectgarbage"),
    ])
    func sandboxRemovals(statement: String, mention: String) throws {
        let reason = try failure(of: statement)
        #expect(reason.hasPrefix("rules/test.lua:2: "), "\(reason)")
        #expect(reason.contains(mention), "\(reason)")
    }

    @Test("What the sandbox keeps works inside rules")
    func allowedLibraries() throws {
        let rig = try RulesRig("""
            flow.guard("probe", function()
              local t = {3, 1, 2}
              table.sort(t)
              local co = coroutine.wrap(function() coroutine.yield(1) end)
              host.log(table.concat(t), string.format("%02d", 7), math.max(1, 9), utf8.char(72),
                type(os.time()), type(os.clock()), type(os.date("%Y")), type(collectgarbage("count")), co(),
                select("#", load("return 1")()))
            end)
            """)
        rig.push("probe")
        #expect(rig.log == ["123 07 9 H number number string number 1 1"])
    }

    @Test("Globals are locked after load: assigning or reading an undeclared global names it", arguments: [
        ("counter = 1", "counter"),
        ("local x = undefinedHelper", "undefinedHelper"),
        ("undefinedHelper()", "undefinedHelper"),
        ("rawset(_G, 'sneaky', 1)", "sneaky"),
    ])
    func lockedGlobals(statement: String, name: String) throws {
        let reason = try failure(of: statement)
        #expect(reason.hasPrefix("rules/test.lua:2: "), "\(reason)")
        #expect(reason.contains("'\(name)'"), "\(reason)")
    }

    @Test("A global assigned at the top level is declared even when the value is nil")
    func topLevelNilDeclares() throws {
        let rig = try RulesRig("""
            cache = nil
            local function remember(name) cache = name end
            flow.guard("editor", function(op)
              local before = cache
              remember(op.route.name)
              return before == nil or before == "editor"
            end)
            flow.guard("detail", function() return undeclaredName end)
            """)
        #expect(rig.push("editor").isApplied)
        #expect(rig.push("editor").isApplied)
        let result = rig.push("detail")
        #expect(result.status == .failed)
        #expect(result.reason?.contains("undeclared global 'undeclaredName'") == true, "\(result.reason ?? "nil")")
    }

    @Test("setmetatable(_G) is refused inside a rule")
    func globalMetatable() throws {
        let reason = try failure(of: "setmetatable(_G, nil)")
        #expect(!reason.isEmpty)
    }

    @Test("Globals declared at load stay usable in rules")
    func declaredGlobals() throws {
        let rig = try RulesRig("""
            count = 0
            helper = false
            flow.guard("probe", function()
              count = count + 1
              helper = "set"
              host.log(count, helper)
            end)
            """)
        rig.push("probe")
        rig.push("probe")
        #expect(rig.log == ["1 set", "2 set"])
    }

    @Test("Registering rules after load is an error")
    func registrationAfterLoad() throws {
        let reason = try failure(of: "flow.guard('other', function() end)")
        #expect(reason.contains("flow.guard can only be called while the rules load"), "\(reason)")
    }

    @Test("A runaway loop in a guard is stopped by the instruction budget; the VM stays usable")
    func runawayLoop() throws {
        let rig = try RulesRig("""
            flow.guard("spin", function()
              while true do end
            end)
            flow.guard("swallow", function()
              local ok = pcall(function() while true do end end)
              return true
            end)
            flow.guard("fine", function() return true end)
            """)
        let spun = rig.push("spin")
        #expect(spun.status == .failed)
        #expect(spun.reason?.hasPrefix("rules/test.lua:2: ") == true, "\(spun.reason ?? "")")
        #expect(spun.reason?.contains("instruction budget") == true, "\(spun.reason ?? "")")
        let swallowed = rig.push("swallow")
        #expect(swallowed.status == .failed, "pcall cannot swallow the budget error")
        #expect(swallowed.reason?.contains("instruction budget") == true)
        #expect(rig.push("fine").isApplied)
        #expect(rig.router.activeStack.path == [route("fine")])
    }

    @Test("The instruction budget is configurable and counts per call")
    func configurableInstructionBudget() throws {
        let rig = try RulesRig("""
            flow.guard("work", function()
              local n = 0
              for i = 1, 20000 do n = n + i end
            end)
            """, configuration: FlowRulesConfiguration(instructionBudget: 10_000))
        #expect(rig.push("work").reason?.contains("instruction budget") == true)
        let roomy = try RulesRig("""
            flow.guard("work", function()
              local n = 0
              for i = 1, 20000 do n = n + i end
            end)
            """, configuration: FlowRulesConfiguration(instructionBudget: 200_000))
        for _ in 0..<5 { #expect(roomy.push("work").isApplied) }
    }

    @Test("A memory bomb in a guard is stopped by the memory budget; the VM stays usable")
    func memoryBomb() throws {
        let rig = try RulesRig("""
            flow.guard("bomb", function()
              local hoard = {}
              while true do hoard[#hoard + 1] = string.rep("x", 1 << 20) .. #hoard end
            end)
            flow.guard("modest", function()
              local t = {}
              for i = 1, 1000 do t[i] = tostring(i) end
              return #t == 1000
            end)
            """, configuration: FlowRulesConfiguration(instructionBudget: 500_000_000, memoryBudget: 8 << 20))
        let bombed = rig.push("bomb")
        #expect(bombed.status == .failed)
        let reason = try #require(bombed.reason)
        #expect(reason.contains("memory budget"), "\(reason)")
        #expect(reason.hasPrefix("rules/test.lua:1: ") || reason.hasPrefix("rules/test.lua:3: "),
                "memory errors name the rule or the line that allocated: \(reason)")
        #expect(rig.push("modest").isApplied)
        #expect(rig.push("bomb").status == .failed, "the budget holds a second time")
        #expect(rig.push("modest").isApplied)
        #expect(rig.engine.memoryInUse < 8 << 20)
    }

    @Test("A runaway loop at the top level of a rules file fails the load with the budget")
    func runawayAtLoad() {
        let error = loadError("local x = 1\nwhile true do x = x + 1 end")
        #expect(error?.kind == .instructionBudget)
        #expect(error?.file == "rules/bad.lua")
        #expect(error?.line == 2)
    }
}
