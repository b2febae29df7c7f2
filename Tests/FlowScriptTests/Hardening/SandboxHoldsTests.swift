import FlowLuaTestSupport
import FlowStackCore
import Foundation
import Testing
@testable import FlowLua
@testable import FlowScript

/// No rule can hang or crash the app, or weaken another rule. The hostile projects
/// (`Tests/Hostile`) cover what flows can see; these cover the rest: style rules, deep-link plans,
/// and the VM's own boundaries.
@Suite("Hardening: the sandbox holds")
@MainActor
struct SandboxHoldsTests {
    static let endless = "setmetatable({}, { __pairs = function() return math.max, 1, 0 end })"

    @Test("A style rule cannot write the context the next style rule reads")
    func styleContextReadOnly() throws {
        let rig = try RulesRig("""
            flow.style.screen(function(c)
              host.log(tostring(pcall(function() c.screenDepth = 99 end)),
                tostring(pcall(function() c.screenRoute.name = "hijacked" end)),
                tostring(pcall(rawset, c, "isRootScreen", false)))
            end)
            flow.style.screen(function(c)
              return { navigationTitle = c.screenRoute.name .. " " .. c.screenDepth }
            end)
            """)
        let style = try #require(rig.router.resolvedStyle(stackIndex: 0, screenDepth: 0))
        #expect(style.screen.navigationTitle == "home 0")
        #expect(rig.log == ["false false false"])
    }

    @Test("A style result's own __pairs never runs: its plain fields are read, quickly")
    func styleEndlessPairs() throws {
        let rig = try RulesRig("""
            flow.style.screen(function(c)
              local t = \(Self.endless)
              t.navigationTitle = "plain"
              return t
            end)
            flow.style.stack(function(c)
              local deep = {}
              local t = deep
              for i = 1, 20 do t.next = {} t = t.next end
              return { tint = deep }
            end)
            """)
        let style = try #require(rig.router.resolvedStyle(stackIndex: 0, screenDepth: 0))
        #expect(style.screen.navigationTitle == "plain")
        let reports = rig.engine.diagnostics.map(\.description)
        #expect(reports.contains { $0.hasPrefix("rules/test.lua:6") && $0.contains("nested more than 8") }, "\(reports)")
    }

    @Test("A deep-link plan's pop count must be a whole number of at least 1", arguments: ["2.5", "0/0", "1/0", "0", "-3"])
    func deepLinkPopCounts(count: String) throws {
        let rig = try RulesRig("""
            flow.deeplink("/back", function() return { flow.op("pop", nil, \(count)) } end)
            """)
        rig.router.push(contentsOf: [route("a"), route("b"), route("c")])
        let result = rig.router.open(URL(string: "myapp://back")!)
        #expect(result.status != .applied)
        #expect(result.reason?.contains("rules/test.lua:1") == true, "\(result.reason ?? "no reason")")
        #expect(result.reason?.contains("count must be a whole number of at least 1") == true, "\(result.reason ?? "no reason")")
        #expect(rig.router.topRoute == route("c"))
    }

    @Test("A deep-link plan whose route has an endless __pairs fails with its file:line")
    func deepLinkEndlessPairs() throws {
        let rig = try RulesRig("flow.deeplink(\"/x\", function() return { flow.op(\"push\", \(Self.endless)) } end)\n")
        let result = rig.router.open(URL(string: "myapp://x")!)
        #expect(result.status != .applied)
        #expect(result.reason?.contains("instruction budget exceeded") == true, "\(result.reason ?? "no reason")")
    }

    @Test("What FlowStack provides reads through rawget and pairs, and no write reaches it")
    func frozenReads() throws {
        let rig = try RulesRig("""
            flow.precondition("*", function(op)
              local names = 0
              for _ in pairs(string) do names = names + 1 end
              host.log(type(rawget(string, "rep")), type(rawget(_G, "flow")), type(rawget(flow, "redirect")),
                names > 10, getmetatable(string), ("x"):rep(3))
              host.log(tostring(pcall(function() _G.flow = nil end)), tostring(pcall(rawset, flow, "guard", print)),
                tostring(pcall(rawset, _G, "string", {})), tostring(pcall(function() flow.style.screen = print end)))
            end)
            """)
        #expect(rig.push("a").isApplied)
        #expect(rig.log == ["function table function true read-only xxx", "false false false false"])
    }

    @Test("print escapes control characters and cuts long lines to 4 KiB with a mark")
    func printEscapedAndCut() throws {
        let vm = try LuaVM()
        var lines: [String] = []
        vm.printSink = { lines.append($0) }
        _ = try run(vm, "print('a\\nb\\r\\27[2J', 'c\\td') print(('y'):rep(10000))")
        #expect(lines.first == "a\\nb\\r\\x1b[2J\tc\td")
        let long = try #require(lines.last)
        #expect(long.hasPrefix(String(repeating: "y", count: 4096) + "... [cut: the line had 10000 bytes"))
        #expect(long.utf8.count < 4_200)
    }

    @Test("Retained text is cut to 4 KiB with a mark, never inside a character")
    func boundedText() {
        #expect(FlowScriptText.bounded("short") == "short")
        let long = String(repeating: "é", count: 3_000)  // 6,000 bytes
        let cut = FlowScriptText.bounded(long)
        #expect(cut.hasPrefix(String(repeating: "é", count: 2_048) + "... [cut: 6000 bytes, FlowStack keeps 4096]"))
        #expect(!cut.contains("\u{FFFD}"))
    }

    @Test("Did-you-mean compares only names a typo could be near")
    func suggestionBounded() {
        #expect(FlowSuggestion.closest(to: "pussh", in: ["push", "pop"]) == "push")
        #expect(FlowSuggestion.closest(to: String(repeating: "q", count: 256 << 10), in: ["push"]) == nil)
        #expect(FlowSuggestion.closest(to: "push", in: [String(repeating: "p", count: 1 << 20)]) == nil)
    }

    @Test("load keeps an explicit environment whatever the chunk name and mode, and reads readers here", arguments: [
        "return load('return string', nil, 't', {})()",
        "return load('return string', '=named', 't', {})()",
        "return load('return string', nil, nil, {})()",
        "local parts = { 'return ', 'string' } local i = 0 return load(function() i = i + 1 return parts[i] end, nil, 't', {})()",
    ])
    func loadEnvironment(source: String) throws {
        let vm = try LuaVM()
        #expect(try run(vm, source) == [.nil])
    }

    @Test("C loops are charged: __pairs and load readers in C stop at the budget", arguments: [
        "return load(os.date)",
        "return load(os.date, '=dated', 't', {})",
    ])
    func cLoopsCharged(source: String) throws {
        let vm = try LuaVM()
        let error = scriptError(vm, source)
        #expect(error?.kind == .instructionBudget, "\(error?.description ?? "no error")")
        #expect(error?.line == 1)
    }

    @Test("A conversion to Swift of a table whose __pairs never ends stops at the budget")
    func conversionCharged() throws {
        let vm = try LuaVM()
        let error = scriptError(vm, "return \(Self.endless)")
        #expect(error?.message.contains("instruction budget exceeded") == true, "\(error?.description ?? "no error")")
    }

    @Test("Too many host arguments or results are script errors, never traps")
    func hugeCounts() throws {
        let vm = try LuaVM()
        try vm.register("f", returning: { arguments in [.integer(arguments.count)] })
        try vm.register("many", returning: { _ in Array(repeating: .integer(1), count: 200_000) })
        let arguments = scriptError(vm, "return f(string.byte(('x'):rep(20000), 1, -1))")
        #expect(arguments?.message.contains("20000 arguments") == true, "\(arguments?.description ?? "no error")")
        #expect(arguments?.line == 1)
        let results = scriptError(vm, "return many()")
        #expect(results?.message.contains("too many values") == true, "\(results?.description ?? "no error")")
        #expect(try run(vm, "return f(1, 2, 3)") == [.integer(3)])
    }

    @Test("coroutine.close nests at most 16 deep; a __call must be a function", arguments: [
        ("local function chain(n) local co = coroutine.create(function() local x <close> = setmetatable({}, { __close = function() if n > 0 then local ok, e = coroutine.close(chain(n - 1)) if not ok then error(e, 0) end end end }) coroutine.yield() end) coroutine.resume(co) return co end local ok, e = coroutine.close(chain(3000)) error(e, 0)", "nested more than 16 deep"),
        ("local t = setmetatable({}, {}) getmetatable(t).__call = t t()", "__call metamethod must be a function"),
        ("local t = {} setmetatable(t, { __call = t })", "__call metamethod must be a function"),
    ])
    func nestingBounded(source: String, message: String) throws {
        let vm = try LuaVM()
        let error = scriptError(vm, source)
        #expect(error?.message.contains(message) == true, "\(error?.description ?? "no error")")
        #expect(error?.line == 1)
    }

    @Test("A __call chain Lua loops on in C is stopped by the time limit")
    func callChainStopped() throws {
        let vm = try LuaVM()
        let error = scriptError(vm, "local mt = { __call = function() end } local t = setmetatable({}, mt) mt.__call = t return t()")
        #expect(error?.kind == .timeLimit || error?.kind == .instructionBudget, "\(error?.description ?? "no error")")
        #expect(error?.line == 1)
        #expect(try run(vm, "return 1 + 1") == [.integer(2)])
    }
}
