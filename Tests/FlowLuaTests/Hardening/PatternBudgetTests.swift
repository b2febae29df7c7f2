import FlowLuaTestSupport
import Foundation
import Testing
@testable import FlowLua

/// Backtracking patterns cannot run outside the instruction budget: their work is bounded
/// before Lua's matcher runs (CLua/src/engine/clua_patterns.c).
@Suite("Hardening: pattern bombs")
@MainActor
struct PatternBudgetTests {
    /// Patterns that make Lua's matcher backtrack for seconds or hours on the subject given.
    nonisolated static let bombs = [
        "return ('a'):rep(400):find('.-.-.-b')",
        "return ('a'):rep(2000):match('a*a*b')",
        "for _ in ('a'):rep(2000):gmatch('a*a*b') do end",
        "return ('a'):rep(3000):gsub('a-a-a-b', '')",
        "return ('a'):rep(30):match(('a?'):rep(30) .. ('a'):rep(30) .. 'b')",
        "return ('ab'):rep(2000):find('(.-)(.-)%1%2x')",
        "return ('x'):rep(5000):find('.*.*.*=')",
        "return ('('):rep(20000):find('%b()%b()x')",
        "return (' '):rep(5000):match('^(%s*)(.-)(%s*)(.-)%s*$x')",
        "return ('a'):rep(1000):find('[%w_]*[%w_]*[%w_]*!')",
    ]

    @Test("A pattern bomb is refused before it runs, with the function, the pattern and the line", arguments: bombs)
    func bombRefused(source: String) throws {
        let vm = try LuaVM()
        let started = ContinuousClock.now
        let error = scriptError(vm, "local x = 1\n" + source, chunkName: "rules/bomb.lua")
        let elapsed = ContinuousClock.now - started
        #expect(error?.kind == .sandbox)
        #expect(error?.file == "rules/bomb.lua")
        #expect(error?.line == 2)
        #expect(error?.message.contains("is too expensive on a subject of") == true, "\(error?.description ?? "no error")")
        #expect(error?.message.contains("string.") == true)
        #expect(elapsed < .milliseconds(500), "refusing took \(elapsed)")
        // The VM is still usable.
        #expect(try run(vm, "return ('abc'):find('b')") == [2, 2])
    }

    @Test("A refused pattern is an ordinary error a script can catch")
    func refusalCatchable() throws {
        let vm = try LuaVM()
        let results = try run(vm, """
            local ok, message = pcall(string.find, ('a'):rep(400), '.-.-.-b')
            return ok, message:match('pattern .- is too expensive') ~= nil, ('done'):upper()
            """)
        #expect(results == [false, true, "DONE"])
    }

    @Test("Catching refusals in a loop still ends at the instruction budget")
    func refusalLoopBudgeted() throws {
        let vm = try LuaVM()
        let error = scriptError(vm, "local s = ('a'):rep(400) while true do pcall(string.find, s, '.-.-.-b') end")
        #expect(error?.kind == .instructionBudget)
    }

    @Test("A costly pattern within the budget runs, and its bound is charged")
    func withinBudgetCharged() throws {
        let vm = try LuaVM(configuration: .init(instructionBudget: 50_000_000))
        #expect(try run(vm, "return (('a'):rep(60)):find('.-.-b')") == [.nil])
        let oneSearch = vm.instructionsUsed
        #expect(oneSearch > 60 * 60 * 60 / 6)
        vm.instructionBudget = 3 * oneSearch
        let error = scriptError(vm, "for i = 1, 100 do (('a'):rep(60)):find('.-.-b') end")
        #expect(error?.kind == .instructionBudget)
    }

    @Test("Ordinary patterns on ordinary strings cost about one pass", arguments: [
        ("('hello world '):rep(100)", "s:find('wor')"),
        ("('hello world '):rep(100)", "s:match('^(%w+)%s')"),
        ("('key=value&'):rep(100)", "for k, v in s:gmatch('([^&=]+)=([^&=]*)') do end"),
        ("('  padded  '):rep(100)", "s:match('^%s*(.-)%s*$')"),
        ("('a b c '):rep(100)", "s:gsub('%s+', ' ')"),
        ("('/products/42/reviews'):rep(50)", "s:find('/products/(%d+)')"),
        ("('THE (quick) fox '):rep(60)", "for w in s:gmatch('%f[%a]%a+') do end"),
        ("('f(a(b)c)d'):rep(100)", "for b in s:gmatch('%b()') do end"),
    ])
    func ordinaryPatternsCheap(subject: String, statement: String) throws {
        let vm = try LuaVM()
        _ = try run(vm, "local s = \(subject)\n\(statement)")
        let length = try run(vm, "return #(\(subject))").first?.intValue ?? 0
        #expect(vm.instructionsUsed < 40 * length + 5_000, "\(statement): \(vm.instructionsUsed) units for \(length) bytes")
    }

    @Test("An exhausted gmatch iterator does not search again")
    func exhaustedIteratorStops() throws {
        let vm = try LuaVM(configuration: .init(instructionBudget: 10_000_000))
        // Each full search of this subject is a sizeable part of the budget; calling the
        // exhausted iterator again must cost nothing (Lua's own rescans the subject on every
        // call: 10,000 rescans would take minutes).
        let started = ContinuousClock.now
        let results = try run(vm, """
            local it = (('a'):rep(100)):gmatch('a-a-b')
            local first = it()
            for i = 1, 10000 do if it() ~= nil then return 'unexpected' end end
            return first
            """)
        #expect(results == [.nil])
        #expect(ContinuousClock.now - started < .seconds(1))
    }

    @Test("Plain searches are charged by positions tried")
    func plainSearchCharged() throws {
        let vm = try LuaVM(configuration: .init(instructionBudget: 200_000))
        let error = scriptError(vm, "local s = ('x'):rep(1e6) for i = 1, 1e6 do s:find('xxy', 1, true) end")
        #expect(error?.kind == .instructionBudget)
    }
}
