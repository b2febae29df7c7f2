import CLua

/// A stock Lua 5.4 state with the standard libraries, to compare the sandbox's replacements
/// of library functions against the originals.
@MainActor
enum PlainLua {
    /// Runs `source` in a fresh stock state and returns its first result as a string
    /// (`tostring`), or `error: message`.
    static func run(_ source: String) -> String {
        guard let state = luaL_newstate() else { return "error: no state" }
        defer { lua_close(state) }
        luaL_openlibs(state)
        if luaL_loadstring(state, source) != LUA_OK || clua_pcall(state, 0, 1, 0) != LUA_OK {
            return "error: " + String(cString: luaL_tolstring(state, -1, nil))
        }
        return String(cString: luaL_tolstring(state, -1, nil))
    }
}

/// Lua helpers both sides of a comparison load first: `ser(...)` turns values into one
/// string (type and value of each), `list(iterator)` collects what an iterator yields, and
/// `try(f)` returns ser of f's results, or `error:` and the message without its position.
let comparisonPrelude = """
    local function ser(...)
      local t = table.pack(...)
      local out = {}
      for i = 1, t.n do out[i] = type(t[i]) .. ':' .. tostring(t[i]) end
      return table.concat(out, '|')
    end
    local function list(f, s, c)
      local out = {}
      while true do
        local v = table.pack(f(s, c))
        if v[1] == nil then break end
        c = v[1]
        out[#out + 1] = ser(table.unpack(v, 1, v.n))
      end
      return '[' .. table.concat(out, ';') .. ']'
    end
    local function try(f)
      local r = table.pack(pcall(f))
      if r[1] then return ser(table.unpack(r, 2, r.n)) end
      return 'error:' .. (tostring(r[2]):gsub('^[^\\n]-:%d+: ', ''))
    end

    """
