import CLua
import FlowLuaTestSupport
import Testing
@testable import FlowLua

/// One probe of what a rule sees of Lua: a chunk run in a fresh sandboxed VM, and the text it
/// must answer (its results joined by "|", or the error a call of it throws, prefixed "error: ").
struct LuaProbe: CustomTestStringConvertible, Sendable {
    /// What the probe looks at.
    let name: String
    /// The chunk (named "probe.lua").
    let source: String
    /// The answer on every Lua the package builds: Debian's 5.4.4 and the 5.4.7 sources.
    let expected: String

    init(_ name: String, _ source: String, _ expected: String) {
        self.name = name
        self.source = source
        self.expected = expected
    }

    var testDescription: String { name }
}

/// The conformance table: the same probes, with the same answers written here, on Debian's Lua
/// 5.4.4 (`swift test`) and on the 5.4.7 sources the package builds for Apple platforms
/// (`Tools/test.sh`'s source pass runs this target again). A rule that passes `flowstack test` on
/// Linux behaves the same on the device because every answer here is the same on both; a
/// difference fails the build that differs. The contract (docs/lua-surface.md, "Lua versions")
/// lists what no probe can hold equal and why.
enum LuaConformanceTable {
    /// The deepest `n` for which `make(n)` loads, up to 300 (`make` is Lua source of a function).
    static func deepestLoad(_ make: String) -> String {
        "local make = \(make) local n = 0 while n < 300 and load(make(n + 1)) do n = n + 1 end return n"
    }

    /// Globals, libraries and their functions: standard Lua 5.4, less what the sandbox removes.
    static let surface: [LuaProbe] = [
        .init("_VERSION", "return _VERSION", "Lua 5.4"),
        .init(
            "globals", "local t = {} for k in pairs(_G) do t[#t + 1] = k end table.sort(t) return table.concat(t, ',')",
            "_G,_VERSION,assert,collectgarbage,coroutine,error,getmetatable,ipairs,load,math,next,os,pairs,pcall,print,"
                + "rawequal,rawget,rawlen,rawset,select,setmetatable,string,table,tonumber,tostring,type,utf8,warn,xpcall"),
        .init(
            "string library", "local t = {} for k in pairs(string) do t[#t + 1] = k end table.sort(t) return table.concat(t, ',')",
            "byte,char,find,format,gmatch,gsub,len,lower,match,pack,packsize,rep,reverse,sub,unpack,upper"),
        .init(
            "table library", "local t = {} for k in pairs(table) do t[#t + 1] = k end table.sort(t) return table.concat(t, ',')",
            "concat,insert,move,pack,remove,sort,unpack"),
        .init(
            "math library", "local t = {} for k in pairs(math) do t[#t + 1] = k end table.sort(t) return table.concat(t, ',')",
            "abs,acos,asin,atan,ceil,cos,deg,exp,floor,fmod,huge,log,max,maxinteger,min,mininteger,modf,pi,rad,random,"
                + "randomseed,sin,sqrt,tan,tointeger,type,ult"),
        .init(
            "utf8 library", "local t = {} for k in pairs(utf8) do t[#t + 1] = k end table.sort(t) return table.concat(t, ',')",
            "char,charpattern,codepoint,codes,len,offset"),
        .init(
            "coroutine library", "local t = {} for k in pairs(coroutine) do t[#t + 1] = k end table.sort(t) return table.concat(t, ',')",
            "close,create,isyieldable,resume,running,status,wrap,yield"),
        .init("os library", "local t = {} for k in pairs(os) do t[#t + 1] = k end table.sort(t) return table.concat(t, ',')", "clock,date,time"),
        .init(
            "Lua 5.3's math functions are absent",
            "return tostring(math.pow), tostring(math.log10), tostring(math.ldexp), tostring(math.frexp), tostring(math.cosh), "
                + "tostring(math.sinh), tostring(math.tanh)", "nil|nil|nil|nil|nil|nil|nil"),
        .init("calling math.pow", "return math.pow(2, 3)", "error: attempt to call a nil value (field 'pow')"),
        .init("exponentiation instead", "return 2 ^ 3, math.log(100, 10), math.exp(0)", "8.0|2.0|1.0"),
    ]

    /// How deep things nest: the same on every build (CLUA_C_LEVELS, the contract's "Nesting").
    static let nesting: [LuaProbe] = [
        .init("parentheses", deepestLoad("function(n) return 'return ' .. ('('):rep(n) .. '1' .. (')'):rep(n) end"), "59"),
        .init("table constructors", deepestLoad("function(n) return 'return ' .. ('{'):rep(n) .. ('}'):rep(n) end"), "60"),
        .init("nested calls", deepestLoad("function(n) return 'local f = print return ' .. ('f('):rep(n) .. '1' .. (')'):rep(n) end"), "59"),
        .init("blocks", deepestLoad("function(n) return ('do '):rep(n) .. (' end'):rep(n) end"), "61"),
        .init("while loops", deepestLoad("function(n) return ('while x do '):rep(n) .. (' end'):rep(n) end"), "60"),
        .init("if-else", deepestLoad("function(n) return ('if x then else '):rep(n) .. (' end'):rep(n) end"), "60"),
        .init("functions", deepestLoad("function(n) return ('function f() '):rep(n) .. (' end'):rep(n) end"), "61"),
        .init("multiple assignment", deepestLoad("function(n) return 'local a; a' .. (',a'):rep(n) .. '= 1' .. (',1'):rep(n) end"), "59"),
        .init("concatenation chain", deepestLoad("function(n) return 'local a = \"\" return ' .. ('a..'):rep(n) .. 'a' end"), "59"),
        .init("exponent chain", deepestLoad("function(n) return 'local a = 1 return ' .. ('a^'):rep(n) .. 'a' end"), "59"),
        .init("the parser's message", "return select(2, load('return ' .. ('('):rep(300) .. '1' .. (')'):rep(300)))", "C stack overflow"),
        .init(
            "nested pcall",
            "local deepest = 0 local function f(n) deepest = n pcall(f, n + 1) end pcall(f, 1) return deepest", "62"),
        .init(
            "the message at the limit",
            "local last local function f(n) local ok, e = pcall(f, n + 1) if not ok and last == nil then last = e end end f(1) return last", "C stack overflow"),
        .init(
            "__index functions",
            "local deepest = 0 local t = setmetatable({}, { __index = function(t, k) deepest = k return t[k + 1] end }) "
                + "pcall(function() return t[1] end) return deepest", "61"),
        .init(
            "__add metamethods",
            "local deepest = 0 local mt = {} mt.__add = function(a, b) deepest = deepest + 1 return a + b end "
                + "pcall(function() return setmetatable({}, mt) + 1 end) return deepest", "61"),
        .init(
            "__tostring",
            "local deepest = 0 local mt = {} mt.__tostring = function(v) deepest = deepest + 1 return tostring(v) end "
                + "pcall(tostring, setmetatable({}, mt)) return deepest", "61"),
        .init(
            "coroutines inside coroutines",
            "local deepest = 0 local function f(n) deepest = n coroutine.wrap(f)(n + 1) end pcall(f, 1) return deepest", "62"),
        .init(
            "string.gsub callbacks",
            "local deepest = 0 local function f(n) deepest = n; ('x'):gsub('x', function() f(n + 1) end) end pcall(f, 1) return deepest", "31"),
        .init("__index table chain", "local t = {} setmetatable(t, { __index = t }) return pcall(function() return t.x end)", "false|probe.lua:1: '__index' chain too long; possible loop"),
        .init(
            "coroutine.close inside __close",
            "local deepest = 0 local function nest(n) deepest = n local co = coroutine.create(function() "
                + "local x <close> = setmetatable({}, { __close = function() nest(n + 1) end }) coroutine.yield() end) "
                + "coroutine.resume(co) coroutine.close(co) end local ok, e = pcall(nest, 1) return deepest, ok", "17|true"),
    ]

    /// Strings, patterns, numbers, utf8 and `%q`.
    static let values: [LuaProbe] = [
        .init("string.rep", "return ('ab'):rep(3, ','), ('x'):rep(0), ('x'):rep(-1)", "ab,ab,ab||"),
        .init("string.rep too large", "return pcall(string.rep, 'x', math.maxinteger)", "false|resulting string too large"),
        .init("too many captures", "return pcall(string.find, ('a'):rep(40), ('(a)'):rep(33))", "false|too many captures"),
        .init("malformed pattern", "return pcall(string.find, 'a', '%')", "false|malformed pattern (ends with '%')"),
        .init("missing ]", "return pcall(string.find, 'a', '[a')", "false|malformed pattern (missing ']')"),
        .init("gsub with a bad replacement", "return pcall(string.gsub, 'a', 'a', '%2')", "false|invalid capture index %2"),
        .init("integers and floats", "return 7 // 2, 7 / 2, 3 % -2, -7 // 2, 7.0 // 2, 2^53, 1e15, 1e16, -0.0", "3|3.5|-1|-4|3.0|9.007199254741e+15|1e+15|1e+16|-0.0"),
        .init("integer limits", "return math.maxinteger + 1 == math.mininteger, math.maxinteger + 1.0, tonumber('9223372036854775808')", "true|9.2233720368548e+18|9.2233720368548e+18"),
        .init("float formatting", "return tostring(1/3), tostring(100.0), tostring(1e100), tostring(math.huge), tostring(-math.huge)", "0.33333333333333|100.0|1e+100|inf|-inf"),
        .init("string.format", "return ('%5.2f|%d|%x|%g|%10.3s|%-5d|'):format(math.pi, 3.0, 255, 1e20, 'abcdef', 42)", " 3.14|3|ff|1e+20|       abc|42   |"),
        .init("%d of a fraction", "return pcall(string.format, '%d', 3.5)", "false|bad argument #2 to 'string.format' (number has no integer representation)"),
        .init("%a", "return ('%a'):format(1)", "0x1p+0"),
        .init("math.type and tointeger", "return math.type(1), math.type(1.0), math.type('1'), math.tointeger(3.0), math.tointeger(3.5), math.tointeger('8')", "integer|float|nil|3|nil|8"),
        .init("coercions", "return '10' + 1, '0x10' + 0, '1e1' + 0, 10 .. '', 1.5 .. ''", "11|16|10.0|10|1.5"),
        .init("fmod and ult", "return math.fmod(-6, 4), math.fmod(math.mininteger, -1), math.ult(1, -1), math.abs(math.mininteger)", "-2|0|true|-9223372036854775808"),
        .init("division by zero", "return pcall(function(a) return 1 // a end, 0)", "false|probe.lua:1: attempt to divide by zero"),
        .init("modulo by zero", "return pcall(function(a) return 1 % a end, 0)", "false|probe.lua:1: attempt to perform 'n%0'"),
        .init("float division by zero", "return 1 / 0, -1 / 0, 1 // 0.0", "inf|-inf|inf"),
        .init("random with a seed", "math.randomseed(42) return math.random(1, 100), math.random(1, 100), math.random(0) ~= nil", "50|76|true"),
        .init("integer for loop at the limit", "local n = 0 for i = math.maxinteger - 1, math.maxinteger do n = n + 1 end return n", "2"),
        .init("float keys", "local t = {} t[1.0] = 'a' t[2^53] = 'b' return t[1], math.type(next(t))", "a|integer"),
        .init("string.pack", "return string.pack('>i4', 100):byte(1, -1)", "0|0|0|100"),
        .init("os.date", "return os.date('!%Y-%m-%d %H:%M:%S', 0)", "1970-01-01 00:00:00"),
        .init("utf8.char", "return utf8.char(72, 228, 8364, 128512, 0x7FFFFFFF):len()", "16"),
        .init("utf8.len", "return utf8.len('häll€'), utf8.len('\\xff'), utf8.len('\\u{7FFFFFFF}'), utf8.len('\\u{7FFFFFFF}', 1, -1, true)", "5|nil|nil|1"),
        .init("utf8.codepoint", "return utf8.codepoint('h€', 1, -1)", "104|8364"),
        .init("utf8.offset", "return utf8.offset('h€x', 3), utf8.offset('h€x', -1)", "5|5"),
        .init("utf8.charpattern", "return utf8.charpattern == '[\\0-\\x7F\\xC2-\\xFD][\\x80-\\xBF]*'", "true"),
        .init(
            "utf8.codes", "local t = {} for p, c in utf8.codes('h€x') do t[#t + 1] = p .. ':' .. c end return table.concat(t, ',')",
            "1:104,2:8364,5:120"),
        .init(
            "utf8.codes with a stray continuation byte",
            "local t = {} local ok, e = pcall(function() for p, c in utf8.codes('ab\\x80c') do t[#t + 1] = p end end) "
                + "return table.concat(t, ','), ok, e", "1|false|probe.lua:1: invalid UTF-8 code"),
        .init("utf8.codes starting with a continuation byte", "return pcall(utf8.codes, '\\x80a')", "false|bad argument #1 to 'utf8.codes' (invalid UTF-8 code)"),
        .init("%q of a string", "return ('%q'):format('a\\nb\\0c\"\\r\\t\\127')", "\"a\\\nb\\0c\\\"\\13\\9\\127\""),
        .init("%q of numbers", "return ('%q|%q|%q|%q|%q'):format(42, 1/3, math.mininteger, 1/0, -1/0)", "42|0x1.5555555555555p-2|0x8000000000000000|1e9999|-1e9999"),
        .init("%q of nan", "return ('%q'):format(0/0)", "(0/0)"),
        .init("%q of a table", "return pcall(string.format, '%q', {})", "false|bad argument #2 to 'string.format' (value has no literal form)"),
    ]

    /// Error messages rules match on, and the metamethods whose behaviour changed in 5.4.
    static let errors: [LuaProbe] = [
        .init("arithmetic on a nil global", "return pcall(function() return undefinedName + 1 end)", "false|probe.lua:1: attempt to perform arithmetic on a nil value (global 'undefinedName')"),
        .init("arithmetic on a nil local", "return pcall(function() local v return v + 1 end)", "false|probe.lua:1: attempt to perform arithmetic on a nil value (local 'v')"),
        .init("arithmetic on a nil field", "return pcall(function() local t = {} return t.x + 1 end)", "false|probe.lua:1: attempt to perform arithmetic on a nil value (field 'x')"),
        .init("arithmetic on a nil upvalue", "local u return pcall(function() return u + 1 end)", "false|probe.lua:1: attempt to perform arithmetic on a nil value (upvalue 'u')"),
        .init("arithmetic on a string", "return pcall(function() return 'abc' + 1 end)", "false|probe.lua:1: attempt to add a 'string' with a 'number'"),
        .init("calling a nil field", "return pcall(function() local t = {} t.go() end)", "false|probe.lua:1: attempt to call a nil value (field 'go')"),
        .init("calling a nil method", "return pcall(function() local t = {} t:go() end)", "false|probe.lua:1: attempt to call a nil value (method 'go')"),
        .init("indexing a number", "return pcall(function() local n = 1 return n.x end)", "false|probe.lua:1: attempt to index a number value (local 'n')"),
        .init("indexing a nil field", "return pcall(function() local t = {} return t.x.y end)", "false|probe.lua:1: attempt to index a nil value (field 'x')"),
        .init("comparing", "return pcall(function() return {} < 1 end)", "false|probe.lua:1: attempt to compare table with number"),
        .init("comparing tables", "return pcall(function() return {} < {} end)", "false|probe.lua:1: attempt to compare two table values"),
        .init("concatenating a table", "return pcall(function() return 'a' .. {} end)", "false|probe.lua:1: attempt to concatenate a table value"),
        .init("length of nil", "return pcall(function() local v return #v end)", "false|probe.lua:1: attempt to get length of a nil value (local 'v')"),
        .init("for initial value", "return pcall(function() for i = 'a', 2 do end end)", "false|probe.lua:1: bad 'for' initial value (number expected, got string)"),
        .init("error levels", "local function f() error('boom', 2) end return pcall(function() f() end)", "false|probe.lua:1: boom"),
        .init("error with a table", "return select(2, pcall(error, { code = 7 })).code", "7"),
        .init("error without position", "return pcall(error, 'plain', 0)", "false|plain"),
        .init("a syntax error", "return load('x = = 1', '=rule')", "nil|rule:1: unexpected symbol near '='"),
        .init("a syntax error in an unnamed chunk", "return load('x = = 1')", "nil|probe.lua:1 (load):1: unexpected symbol near '='"),
        .init("unfinished string", "return load('x = \"abc')", "nil|probe.lua:1 (load):1: unfinished string near <eof>"),
        .init("table.insert arguments", "return pcall(table.insert, {}, 1, 2, 3)", "false|wrong number of arguments to 'insert'"),
        .init("table.insert position", "return pcall(table.insert, {}, 5, 1)", "false|bad argument #2 to '?' (position out of bounds)"),
        .init("table.remove position", "return pcall(table.remove, {}, 5)", "false|bad argument #2 to '?' (position out of bounds)"),
        .init("table.concat of a table", "return pcall(table.concat, { {} })", "false|invalid value (at index 1) in table for 'concat': a table, not a string or a number"),
        .init("bad argument", "return pcall(string.rep)", "false|bad argument #1 to 'string.rep' (string expected, got no value)"),
        .init("bad argument to a method", "return pcall(function() return ('x'):rep('y') end)", "false|bad argument #2 to 'string.rep' (number expected, got string)"),
        .init("tostring(nil) and tonumber", "return tostring(nil), tonumber('z'), tonumber('10', 2), tonumber('ff', 16)", "nil|nil|2|255"),
        .init(
            "__le from __lt", "local mt = { __lt = function(a, b) return false end } "
                + "return pcall(function() return setmetatable({}, mt) <= setmetatable({}, mt) end)", "true|true"),
        .init(
            "__close", "local log = {} do local x <close> = setmetatable({}, { __close = function() log[#log + 1] = 'closed' end }) "
                + "log[#log + 1] = 'body' end return table.concat(log, ',')", "body,closed"),
        .init("__eq between different types", "local mt = { __eq = function() return true end } return setmetatable({}, mt) == 1", "false"),
        .init("__concat", "local mt = { __concat = function(a, b) return 'joined' end } return setmetatable({}, mt) .. 'x'", "joined"),
        .init("__len", "return #setmetatable({}, { __len = function() return 42 end })", "42"),
        .init("__call with arguments", "return setmetatable({}, { __call = function(self, a, b) return a + b end })(1, 2)", "3"),
        .init("integer keys after a float assignment", "local t = { [1] = 'a' } t[1.0] = 'b' return t[1], #t", "b|1"),
        .init("goto", "local n = 0 ::top:: n = n + 1 if n < 3 then goto top end return n", "3"),
        .init("a const assignment", "return load('local x <const> = 1 x = 2')", "nil|probe.lua:1 (load):1: attempt to assign to const variable 'x'"),
        .init("coroutine errors", "local co = coroutine.create(function() error('inside') end) return coroutine.resume(co)", "false|probe.lua:1: inside"),
        .init("resuming a dead coroutine", "local co = coroutine.create(function() end) coroutine.resume(co) return coroutine.resume(co)", "false|cannot resume dead coroutine"),
        .init("coroutine.wrap errors", "return pcall(coroutine.wrap(function() error('wrapped') end))", "false|probe.lua:1: wrapped"),
        .init("yield outside a coroutine", "return pcall(coroutine.yield, 1)", "false|attempt to yield from outside a coroutine"),
    ]

}

@Suite("Lua conformance: one Lua on every build")
@MainActor
struct LuaConformanceTests {
    /// Runs a probe in a fresh VM and returns its answer as the table writes it: its results
    /// through `tostring`, joined by "|" (the probe runs as a rule's code does, inside one
    /// protected call from Swift, so its nesting is a rule's), or the error it throws.
    static func answer(_ probe: LuaProbe) throws -> String {
        let vm = try LuaVM()
        defer { vm.close() }
        let source = "return (function(...) local t = table.pack(...) for i = 1, t.n do t[i] = tostring(t[i]) end "
            + "return table.concat(t, '|', 1, t.n) end)((function() " + probe.source + "\nend)())"
        do {
            let results = try vm.run(source: source, chunkName: "probe.lua")
            guard results.count == 1, case .string(let text) = results[0] else { return "results: \(results)" }
            return text
        } catch {
            return "error: \(error.message)"
        }
    }

    @Test("Globals and libraries", arguments: LuaConformanceTable.surface)
    func surfaceProbe(_ probe: LuaProbe) throws {
        let answer = try Self.answer(probe)
        #expect(answer == probe.expected)
    }

    @Test("Nesting limits", arguments: LuaConformanceTable.nesting)
    func nestingProbe(_ probe: LuaProbe) throws {
        let answer = try Self.answer(probe)
        #expect(answer == probe.expected)
    }

    @Test("Strings, patterns, numbers, utf8 and %q", arguments: LuaConformanceTable.values)
    func valueProbe(_ probe: LuaProbe) throws {
        let answer = try Self.answer(probe)
        #expect(answer == probe.expected)
    }

    @Test("Error messages and metamethods", arguments: LuaConformanceTable.errors)
    func errorProbe(_ probe: LuaProbe) throws {
        let answer = try Self.answer(probe)
        #expect(answer == probe.expected)
    }

    @Test("An asynchronous call (a coroutine FlowScript resumes) nests as deep as a synchronous one")
    func asyncNesting() async throws {
        let vm = try LuaVM()
        defer { vm.close() }
        let source = "local deepest = 0 local function f(n) deepest = n pcall(f, n + 1) end pcall(f, 1) return deepest"
        let sync = try vm.run(source: source, chunkName: "probe.lua")
        let async = try await vm.callAsync(try vm.load(source: source, chunkName: "probe.lua"))
        #expect(sync == [62])
        #expect(async == sync)
    }

    @Test("Every VM's main thread may nest exactly CLUA_C_LEVELS C levels")
    func levels() throws {
        let vm = try LuaVM()
        defer { vm.close() }
        #expect(clua_c_levels(vm.handle.main) == CLUA_C_LEVELS)
        #expect(CLUA_C_LEVELS == 64)
    }
}
