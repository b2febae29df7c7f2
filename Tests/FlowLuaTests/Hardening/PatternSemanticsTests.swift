import FlowLuaTestSupport
import Testing
@testable import FlowLua

/// The sandbox runs Lua's own pattern functions after bounding their work: results, captures
/// and errors must be exactly those of stock Lua.
@Suite("Hardening: pattern functions keep Lua's semantics")
@MainActor
struct PatternSemanticsTests {
    nonisolated static let cases: [(subject: String, expression: String)] = [
        ("hello world", "s:find('o w')"), ("hello world", "s:find('o', 6)"), ("hello", "s:find('l+')"),
        ("hello", "s:find('^h(.)l')"), ("hello", "s:find('()ll()')"), ("hello", "s:find('x')"),
        ("hello", "s:find('', 10)"), ("hello", "s:find('', 6)"), ("a.b", "s:find('.', 1, true)"),
        ("a+b", "s:find('+', 1, true)"), ("hello", "s:find('l', -2)"), ("THE (quick) fox", "s:find('%f[%a]%a+', 5)"),
        ("f(a(b)c)d", "s:find('%b()')"), ("f((a)", "s:find('%b()')"), ("abcabc", "s:find('(abc)%1')"),
        ("  x  ", "s:find('^%s*(.-)%s*$')"), ("x=1, y=22", "s:find('(%w+)=(%d+)', 4)"), ("[]]", "s:find('[]]')"),
        ("a-z", "s:find('[a%-z]+')"), ("abc", "s:find('[^a]+')"), ("$^", "s:find('$^')"), ("ab$", "s:find('b$')"),
        ("key = value", "s:match('^(%w+)%s*=%s*(%w+)$')"), ("2024-01-02", "s:match('(%d+)-(%d+)-(%d+)')"),
        ("abc", "s:match('.-')"), ("abc", "s:match('a?b?c?d?')"), ("aaab", "s:match('a-b')"), ("xaaab", "s:match('a+', 3)"),
        ("/products/42?x=1", "s:match('^/products/(%d+)')"), ("ÄÖ", "s:match('[\\128-\\255]+')"), ("a1_b2", "s:match('[%w_]+')"),
        ("one two  three", "list(s:gmatch('%a+'))"), ("a=1&b=2", "list(s:gmatch('(%w+)=(%w+)'))"), ("abc", "list(s:gmatch(''))"),
        ("aaa", "list(s:gmatch('a*'))"), ("^a^b", "list(s:gmatch('^%a'))"), ("hello world", "list(s:gmatch('%a+', 3))"),
        ("abc", "list(s:gmatch('()'))"), ("abc", "list(s:gmatch('x*'))"), ("f(a)(b)", "list(s:gmatch('%b()'))"),
        ("hello world", "s:gsub('o', '0')"), ("hello world", "s:gsub('(%w+)', '<%1>')"), ("hello", "s:gsub('', '-')"),
        ("hello world", "s:gsub('%w+', {hello = 'HI'})"), ("abc", "s:gsub('%w', function(c) return c:upper() .. '.' end)"),
        ("abc", "s:gsub('^a', 'X')"), ("aaa", "s:gsub('a', 'b', 2)"), ("abc", "s:gsub('%w', '%0%0')"), ("x y", "s:gsub('%w', '%%')"),
        ("abc", "s:gsub('b*', '-')"), ("abc", "s:gsub('a', 'b', 0)"), ("abc", "s:gsub('(a)(b)', '%2%1')"),
        ("abc", "s:find('%')"), ("abc", "s:find('[a')"), ("abc", "s:match('(a')"), ("abc", "s:match('a)')"),
        ("abc", "s:find('%bx')"), ("abc", "s:find('%f')"), ("abc", "s:gsub('a', '%2')"), ("abc", "s:find('%1')"),
        ("abc", "s:gsub('a', true)"), ("abc", "s:find({})"), ("abc", "s:rep(3, ', ')"), ("abc", "s:byte(1, -1)"),
        ("abc", "s:format()"), ("%5.1f|%-3d|%q", "s:format(3.14159, 7, 'a\\nb')"), ("abc", "utf8.len(s)"),
    ]

    @Test("find, match, gmatch and gsub give stock Lua's results and errors", arguments: Array(0..<cases.count))
    func sameAsStock(index: Int) throws {
        let (subject, expression) = Self.cases[index]
        let source = comparisonPrelude + "local s = \"\(subject)\"\nreturn try(function() return \(expression) end)\n"
        let vm = try LuaVM()
        let sandboxed = try run(vm, source).first?.stringValue
        #expect(sandboxed == PlainLua.run(source), "\(expression) on \"\(subject)\"")
    }

    nonisolated static let tableCases = [
        "local t = {1, 2, 3} table.insert(t, 2, 9) return ser(table.unpack(t))",
        "local t = {1, 2, 3} table.insert(t, 4) return ser(table.unpack(t))",
        "local t = {1, 2, 3} return ser(table.remove(t), table.remove(t, 1), #t, t[1])",
        "local t = {} return ser(table.remove(t), table.remove(t, 0), #t)",
        "local t = {1, 2} return ser(table.remove(t, 3), #t)",
        "return ser(table.concat({1, 'a', 2.5}, ', '), table.concat({}, 'x'), table.concat({'a', 'b', 'c'}, '-', 2, 3))",
        "return ser(table.concat({'a', 'b'}, '-', 3, 2), table.concat({'a'}, '-', 1, 1))",
        "return ser(table.unpack({1, 2, 3}, 2), table.unpack({1, 2, 3}, 2, 5))",
        "return ser(table.unpack({1, 2, 3}, 3, 1))",
        "return ser(table.unpack('abc', 1, 2))",
        "local t = {5, 2, 8, 1} table.sort(t, function(a, b) return a > b end) return ser(table.unpack(t))",
        "local t = {'b', 'c', 'a'} table.sort(t) return ser(table.unpack(t))",
        """
        local back = {3, 1, 2}
        local t = setmetatable({}, {__index = back, __newindex = back, __len = function() return #back end})
        table.sort(t)
        table.insert(t, 1, 0)
        local r = table.remove(t, 2)
        return ser(r, table.concat(t, ','), table.unpack(t))
        """,
        "return try(function() table.insert({}, 5, 1) end)",
        "return try(function() table.insert({}, 1, 2, 3) end)",
        "return try(function() table.sort({3, 1, 2}, 5) end)",
        // 2^33 results: refused before any stack is grown, by every Lua 5.4. (With 1e8, Lua 5.4.7
        // first grows the stack to its 16 MB error size, which the sandbox charges to the budget.)
        "return try(function() return table.unpack({}, 1, 2^33) end)",
        "return try(function() table.insert(nil, 1) end)",
    ]

    @Test("insert, remove, concat, unpack and sort give stock Lua's results", arguments: Array(0..<tableCases.count))
    func tablesSameAsStock(index: Int) throws {
        let source = comparisonPrelude + Self.tableCases[index]
        let vm = try LuaVM()
        #expect(try run(vm, source).first?.stringValue == PlainLua.run(source), "\(Self.tableCases[index])")
    }

    @Test("table.remove names the position argument when it is out of bounds (Lua 5.4.4 says #1)")
    func removeOutOfBounds() throws {
        let vm = try LuaVM()
        let results = try run(vm, comparisonPrelude + "return try(function() table.remove({1}, 5) end)")
        #expect(results == ["error:bad argument #2 to 'remove' (position out of bounds)"])
    }

    @Test("table.concat says which element is not a string")
    func concatBadElement() throws {
        let vm = try LuaVM()
        let error = scriptError(vm, "return table.concat({'a', {}, 'c'})", chunkName: "rules/join.lua")
        #expect(error?.file == "rules/join.lua")
        #expect(error?.line == 1)
        #expect(error?.message.contains("invalid value (at index 2) in table for 'concat': a table") == true)
    }
}
