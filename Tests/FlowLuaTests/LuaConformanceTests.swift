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
/// difference fails the build that differs.
@Suite("Lua conformance: one Lua on every build")
@MainActor
struct LuaConformanceTests {
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
        .init("calling math.pow", "return math.pow(2, 3)", "error: probe.lua:1: attempt to call a nil value (field 'pow')"),
        .init("exponentiation instead", "return 2 ^ 3, math.log(100, 10), math.exp(0)", "8.0|2.0|1.0"),
    ]

    /// How deep things nest: the same on every build (CLUA_C_LEVELS, the contract's "Nesting").
    static let nesting: [LuaProbe] = [
        .init("parentheses", deepestLoad("function(n) return 'return ' .. ('('):rep(n) .. '1' .. (')'):rep(n) end"), ""),
        .init("table constructors", deepestLoad("function(n) return 'return ' .. ('{'):rep(n) .. ('}'):rep(n) end"), ""),
        .init("nested calls", deepestLoad("function(n) return 'local f = print return ' .. ('f('):rep(n) .. '1' .. (')'):rep(n) end"), ""),
        .init("blocks", deepestLoad("function(n) return ('do '):rep(n) .. (' end'):rep(n) end"), ""),
        .init("while loops", deepestLoad("function(n) return ('while x do '):rep(n) .. (' end'):rep(n) end"), ""),
        .init("if-else", deepestLoad("function(n) return ('if x then else '):rep(n) .. (' end'):rep(n) end"), ""),
        .init("functions", deepestLoad("function(n) return ('function f() '):rep(n) .. (' end'):rep(n) end"), ""),
        .init("multiple assignment", deepestLoad("function(n) return 'local a; a' .. (',a'):rep(n) .. '= 1' .. (',1'):rep(n) end"), ""),
        .init("concatenation chain", deepestLoad("function(n) return 'local a = \"\" return ' .. ('a..'):rep(n) .. 'a' end"), ""),
        .init("exponent chain", deepestLoad("function(n) return 'local a = 1 return ' .. ('a^'):rep(n) .. 'a' end"), ""),
        .init("the parser's message", "return select(2, load('return ' .. ('('):rep(300) .. '1' .. (')'):rep(300)))", ""),
        .init(
            "nested pcall",
            "local deepest = 0 local function f(n) deepest = n pcall(f, n + 1) end pcall(f, 1) return deepest", ""),
        .init(
            "the message at the limit",
            "local last local function f(n) local ok, e = pcall(f, n + 1) if not ok and last == nil then last = e end end f(1) return last", ""),
        .init(
            "__index functions",
            "local deepest = 0 local t = setmetatable({}, { __index = function(t, k) deepest = k return t[k + 1] end }) "
                + "pcall(function() return t[1] end) return deepest", ""),
        .init(
            "__add metamethods",
            "local deepest = 0 local mt = {} mt.__add = function(a, b) deepest = deepest + 1 return a + b end "
                + "pcall(function() return setmetatable({}, mt) + 1 end) return deepest", ""),
        .init(
            "__tostring",
            "local deepest = 0 local mt = {} mt.__tostring = function(v) deepest = deepest + 1 return tostring(v) end "
                + "pcall(tostring, setmetatable({}, mt)) return deepest", ""),
        .init(
            "coroutines inside coroutines",
            "local deepest = 0 local function f(n) deepest = n coroutine.wrap(f)(n + 1) end pcall(f, 1) return deepest", ""),
        .init(
            "string.gsub callbacks",
            "local deepest = 0 local function f(n) deepest = n ('x'):gsub('x', function() f(n + 1) end) end pcall(f, 1) return deepest", ""),
        .init("__index table chain", "local t = {} setmetatable(t, { __index = t }) return pcall(function() return t.x end)", ""),
        .init(
            "coroutine.close inside __close",
            "local deepest = 0 local function nest(n) deepest = n local co = coroutine.create(function() "
                + "local x <close> = setmetatable({}, { __close = function() nest(n + 1) end }) coroutine.yield() end) "
                + "coroutine.resume(co) coroutine.close(co) end local ok, e = pcall(nest, 1) return deepest, ok", ""),
    ]

    /// Strings, patterns, numbers, utf8 and `%q`.
    static let values: [LuaProbe] = [
        .init("string.rep", "return ('ab'):rep(3, ','), ('x'):rep(0), ('x'):rep(-1)", "ab,ab,ab||"),
        .init("string.rep too large", "return pcall(string.rep, 'x', math.maxinteger)", ""),
        .init("too many captures", "return pcall(string.find, ('a'):rep(40), ('(a)'):rep(33))", ""),
        .init("malformed pattern", "return pcall(string.find, 'a', '%')", ""),
        .init("missing ]", "return pcall(string.find, 'a', '[a')", ""),
        .init("gsub with a bad replacement", "return pcall(string.gsub, 'a', 'a', '%2')", ""),
        .init("integers and floats", "return 7 // 2, 7 / 2, 3 % -2, -7 // 2, 7.0 // 2, 2^53, 1e15, 1e16, -0.0", ""),
        .init("integer limits", "return math.maxinteger + 1 == math.mininteger, math.maxinteger + 1.0, tonumber('9223372036854775808')", ""),
        .init("float formatting", "return tostring(1/3), tostring(100.0), tostring(1e100), tostring(math.huge), tostring(-math.huge)", ""),
        .init("string.format", "return ('%5.2f|%d|%x|%g|%10.3s|%-5d|'):format(math.pi, 3.0, 255, 1e20, 'abcdef', 42)", ""),
        .init("%d of a fraction", "return pcall(string.format, '%d', 3.5)", ""),
        .init("%a", "return ('%a'):format(1)", ""),
        .init("math.type and tointeger", "return math.type(1), math.type(1.0), math.type('1'), math.tointeger(3.0), math.tointeger(3.5), math.tointeger('8')", ""),
        .init("coercions", "return '10' + 1, '0x10' + 0, '1e1' + 0, 10 .. '', 1.5 .. ''", ""),
        .init("fmod and ult", "return math.fmod(-6, 4), math.fmod(math.mininteger, -1), math.ult(1, -1), math.abs(math.mininteger)", ""),
        .init("division by zero", "return pcall(function(a) return 1 // a end, 0)", ""),
        .init("modulo by zero", "return pcall(function(a) return 1 % a end, 0)", ""),
        .init("float division by zero", "return 1 / 0, -1 / 0, 1 // 0.0", ""),
        .init("random with a seed", "math.randomseed(42) return math.random(1, 100), math.random(1, 100), math.random(0) ~= nil", ""),
        .init("integer for loop at the limit", "local n = 0 for i = math.maxinteger - 1, math.maxinteger do n = n + 1 end return n", "2"),
        .init("float keys", "local t = {} t[1.0] = 'a' t[2^53] = 'b' return t[1], math.type(next(t))", ""),
        .init("string.pack", "return string.pack('>i4', 100):byte(1, -1)", "0|0|0|100"),
        .init("os.date", "return os.date('!%Y-%m-%d %H:%M:%S', 0)", "1970-01-01 00:00:00"),
        .init("utf8.char", "return utf8.char(72, 228, 8364, 128512, 0x7FFFFFFF):len()", "16"),
        .init("utf8.len", "return utf8.len('häll€'), utf8.len('\\xff'), utf8.len('\\u{7FFFFFFF}'), utf8.len('\\u{7FFFFFFF}', 1, -1, true)", ""),
        .init("utf8.codepoint", "return utf8.codepoint('h€', 1, -1)", "104|8364"),
        .init("utf8.offset", "return utf8.offset('h€x', 3), utf8.offset('h€x', -1)", "5|5"),
        .init("utf8.charpattern", "return utf8.charpattern", "[\0-\u{7F}\u{C2}-\u{FD}][\u{80}-\u{BF}]*"),
        .init(
            "utf8.codes", "local t = {} for p, c in utf8.codes('h€x') do t[#t + 1] = p .. ':' .. c end return table.concat(t, ',')",
            "1:104,2:8364,5:120"),
        .init(
            "utf8.codes with a stray continuation byte",
            "local t = {} local ok, e = pcall(function() for p, c in utf8.codes('ab\\x80c') do t[#t + 1] = p end end) "
                + "return table.concat(t, ','), ok, e", ""),
        .init("utf8.codes starting with a continuation byte", "return pcall(utf8.codes, '\\x80a')", ""),
        .init("%q of a string", "return ('%q'):format('a\\nb\\0c\"\\r\\t\\200')", ""),
        .init("%q of numbers", "return ('%q|%q|%q|%q|%q'):format(42, 1/3, math.mininteger, 1/0, -1/0)", ""),
        .init("%q of nan", "return ('%q'):format(0/0)", "(0/0)"),
        .init("%q of a table", "return pcall(string.format, '%q', {})", ""),
    ]

    /// Error messages rules match on, and the metamethods whose behaviour changed in 5.4.
    static let errors: [LuaProbe] = [
        .init("arithmetic on a nil global", "return pcall(function() return undefinedName + 1 end)", ""),
        .init("arithmetic on a nil local", "return pcall(function() local v return v + 1 end)", ""),
        .init("arithmetic on a nil field", "return pcall(function() local t = {} return t.x + 1 end)", ""),
        .init("arithmetic on a nil upvalue", "local u return pcall(function() return u + 1 end)", ""),
        .init("arithmetic on a string", "return pcall(function() return 'abc' + 1 end)", ""),
        .init("calling a nil field", "return pcall(function() local t = {} t.go() end)", ""),
        .init("calling a nil method", "return pcall(function() local t = {} t:go() end)", ""),
        .init("indexing a number", "return pcall(function() local n = 1 return n.x end)", ""),
        .init("indexing a nil field", "return pcall(function() local t = {} return t.x.y end)", ""),
        .init("comparing", "return pcall(function() return {} < 1 end)", ""),
        .init("comparing tables", "return pcall(function() return {} < {} end)", ""),
        .init("concatenating a table", "return pcall(function() return 'a' .. {} end)", ""),
        .init("length of nil", "return pcall(function() local v return #v end)", ""),
        .init("for initial value", "return pcall(function() for i = 'a', 2 do end end)", ""),
        .init("error levels", "local function f() error('boom', 2) end return pcall(function() f() end)", ""),
        .init("error with a table", "return select(2, pcall(error, { code = 7 })).code", "7"),
        .init("error without position", "return pcall(error, 'plain', 0)", "false|plain"),
        .init("a syntax error", "return load('x = = 1', '=rule')", ""),
        .init("a syntax error in an unnamed chunk", "return load('x = = 1')", ""),
        .init("unfinished string", "return load('x = \"abc')", ""),
        .init("table.insert arguments", "return pcall(table.insert, {}, 1, 2, 3)", ""),
        .init("table.insert position", "return pcall(table.insert, {}, 5, 1)", ""),
        .init("table.remove position", "return pcall(table.remove, {}, 5)", ""),
        .init("table.concat of a table", "return pcall(table.concat, { {} })", ""),
        .init("bad argument", "return pcall(string.rep)", ""),
        .init("bad argument to a method", "return pcall(function() return ('x'):rep('y') end)", ""),
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
        .init("a const assignment", "return load('local x <const> = 1 x = 2')", ""),
        .init("coroutine errors", "local co = coroutine.create(function() error('inside') end) return coroutine.resume(co)", ""),
        .init("resuming a dead coroutine", "local co = coroutine.create(function() end) coroutine.resume(co) return coroutine.resume(co)", ""),
        .init("coroutine.wrap errors", "return pcall(coroutine.wrap(function() error('wrapped') end))", ""),
        .init("yield outside a coroutine", "return pcall(coroutine.yield, 1)", ""),
    ]

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

    @Test("Globals and libraries", arguments: surface)
    func surfaceProbe(_ probe: LuaProbe) throws {
        #expect(try Self.answer(probe) == probe.expected)
    }

    @Test("Nesting limits", arguments: nesting)
    func nestingProbe(_ probe: LuaProbe) throws {
        #expect(try Self.answer(probe) == probe.expected)
    }

    @Test("Strings, patterns, numbers, utf8 and %q", arguments: values)
    func valueProbe(_ probe: LuaProbe) throws {
        #expect(try Self.answer(probe) == probe.expected)
    }

    @Test("Error messages and metamethods", arguments: errors)
    func errorProbe(_ probe: LuaProbe) throws {
        #expect(try Self.answer(probe) == probe.expected)
    }

    @Test("Every VM's main thread may nest exactly CLUA_C_LEVELS C levels")
    func levels() throws {
        let vm = try LuaVM()
        defer { vm.close() }
        #expect(clua_c_levels(vm.handle.main) == CLUA_C_LEVELS)
        #expect(CLUA_C_LEVELS == 64)
    }
}
