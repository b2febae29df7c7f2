/* FlowScript's C boundary: The sandboxed standard library: wrappers, metering and the global table built from scratch.
 * The rules are in CLua.h. */
#include "clua_engine.h"

/* ------------------------------------------------------------------------------------------ */
/* Sandbox library wrappers                                                                     */
/* ------------------------------------------------------------------------------------------ */

/**
 * `load`: text chunks only, whatever mode is asked for; charges the chunk's size. A reader
 * function is read here first, each piece charged (clua_read_chunk). A chunk loaded without a
 * name is named after the line that loads it (`rules/a.lua:3 (load)`), so errors inside it point
 * back into the rules file rather than at `[string "..."]`. An environment given as argument 4
 * is kept whatever the name and mode.
 *
 * A script's chunk never gets a source name starting with '=': those are the names FlowScript
 * gives the files it loads itself ("=rules/a.lua"), which rules coverage counts by. A name the
 * script gives as "=name" is loaded as "@name" (messages show the same "name:1:"), so
 * `load(src, "=rules/a.lua")` cannot pass its lines off as lines of rules/a.lua.
 */
static int clua_sb_load(lua_State *L) {
    int n = lua_gettop(L);
    if (lua_type(L, 1) == LUA_TFUNCTION) clua_read_chunk(L);
    if (lua_type(L, 1) == LUA_TSTRING) clua_charge(L, (lua_Integer)(lua_rawlen(L, 1) / 16));
    if (n < 3) lua_settop(L, 3);
    if (lua_isnil(L, 2) && !lua_isnil(L, 1)) {
        size_t len;
        luaL_where(L, 1);
        const char *where = lua_tolstring(L, -1, &len);
        if (len > 2) {
            lua_pushliteral(L, "@");
            lua_pushlstring(L, where, len - 2); /* without the trailing ": " */
            lua_pushliteral(L, " (load)");
            lua_concat(L, 3);
            lua_replace(L, 2);
        }
        lua_pop(L, 1);
    } else if (lua_type(L, 2) == LUA_TSTRING) {
        size_t len;
        const char *name = lua_tolstring(L, 2, &len);
        if (len > 0 && name[0] == '=') {
            lua_pushliteral(L, "@");
            lua_pushlstring(L, name + 1, len - 1);
            lua_concat(L, 2);
            lua_replace(L, 2);
        }
    }
    lua_pushliteral(L, "t");
    lua_replace(L, 3);
    lua_settop(L, n > 4 ? 4 : (n < 3 ? 3 : n));
    return clua_forward(L);
}

/**
 * The message handler `xpcall` installs: the script's own (upvalue 1), unless the call has run
 * out of instructions or time. An error raised from the count hook leaves hooks off until a
 * protected call catches it, and Lua runs the message handler before that: a handler that loops
 * would then loop forever, unmetered. So once the budget, the time or the memory is spent, the
 * script's handler is not called and the error goes on unchanged.
 */
static int clua_xpcall_handler(lua_State *L) {
    clua_ctx *c = clua_getctx(L);
    if (c->instr_exhausted || c->time_exhausted || c->mem_stopped) return 1;
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 1);
    lua_call(L, lua_gettop(L) - 1, 1);
    return 1;
}

static int clua_xpcall_done(lua_State *L, int status, lua_KContext k) {
    (void)status;
    (void)k;
    return lua_gettop(L);
}

/** `xpcall(f, handler, ...)`: Lua's (upvalue 1) with the handler wrapped (see above); calls
 *  inside may still yield. */
static int clua_sb_xpcall(lua_State *L) {
    luaL_checktype(L, 2, LUA_TFUNCTION);
    lua_pushvalue(L, 2);
    lua_pushcclosure(L, clua_xpcall_handler, 1);
    lua_replace(L, 2);
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 1);
    lua_callk(L, lua_gettop(L) - 1, LUA_MULTRET, 0, clua_xpcall_done);
    return clua_xpcall_done(L, LUA_OK, 0);
}

/** `collectgarbage`: only "count". */
static int clua_sb_collectgarbage(lua_State *L) {
    const char *opt = luaL_optstring(L, 1, "collect");
    if (strcmp(opt, "count") != 0) {
        return clua_raisef_kinded(L, CLUA_KIND_SANDBOX,
            "collectgarbage(\"%s\") is not allowed in FlowScript (only \"count\" is)", opt);
    }
    int kb = lua_gc(L, LUA_GCCOUNT, 0);
    int b = lua_gc(L, LUA_GCCOUNTB, 0);
    lua_pushnumber(L, (lua_Number)kb + (lua_Number)b / 1024.0);
    return 1;
}

/** `rawset`: refused on read-only proxies; on the locked global table, same rule as `t[k] = v`. */
static int clua_sb_rawset(lua_State *L) {
    luaL_checktype(L, 1, LUA_TTABLE);
    luaL_checkany(L, 2);
    luaL_checkany(L, 3);
    lua_settop(L, 3);
    if (lua_type(L, 2) == LUA_TSTRING && strcmp(lua_tostring(L, 2), "__call") == 0 &&
        !lua_isnil(L, 3) && lua_type(L, 3) != LUA_TFUNCTION) {
        return clua_raisef_kinded(L, CLUA_KIND_SANDBOX, "rawset: a __call metamethod must be a function in FlowScript");
    }

    if (lua_getmetatable(L, 1)) {
        lua_pushliteral(L, "__readonly");
        if (lua_rawget(L, 4) == LUA_TSTRING) {
            return clua_raisef_kinded(L, CLUA_KIND_READ_ONLY, "%s is read-only (rawset cannot change it)",
                                      lua_tostring(L, -1));
        }
        lua_pop(L, 1);
        lua_pushliteral(L, "__lockedglobals");
        if (lua_rawget(L, 4) != LUA_TNIL) {
            lua_pop(L, 1);
            lua_pushliteral(L, "__newindex");
            lua_rawget(L, 4);
            lua_pushvalue(L, 1);
            lua_pushvalue(L, 2);
            lua_pushvalue(L, 3);
            lua_call(L, 3, 0);
            lua_settop(L, 1);
            return 1;
        }
        lua_pop(L, 2);
        if (clua_frozen_backing(L, 1)) {   /* the globals while rules load: what FlowStack provides */
            lua_pushvalue(L, 2);
            if (lua_rawget(L, -2) != LUA_TNIL) {
                return clua_raisef_kinded(L, CLUA_KIND_READ_ONLY, "global '%s' is read-only (rawset cannot change it)",
                                          clua_keyname(L, 2));
            }
            lua_settop(L, 3);
        }
    }
    lua_rawset(L, 1);
    return 1;
}

/** `setmetatable`: no __gc (finalizers would run Lua code at arbitrary times); a read-only proxy
 *  keeps its metatable. */
static int clua_sb_setmetatable(lua_State *L) {
    if (lua_type(L, 1) == LUA_TTABLE && lua_getmetatable(L, 1)) {
        lua_pushliteral(L, "__readonly");
        if (lua_rawget(L, -2) == LUA_TSTRING) {
            return clua_raisef_kinded(L, CLUA_KIND_READ_ONLY, "%s is read-only (setmetatable cannot change it)",
                                      lua_tostring(L, -1));
        }
        lua_pop(L, 2);
    }
    if (lua_type(L, 2) == LUA_TTABLE) {
        lua_pushliteral(L, "__gc");
        int t = lua_rawget(L, 2);
        lua_pop(L, 1);
        if (t != LUA_TNIL) {
            return clua_raisef_kinded(L, CLUA_KIND_SANDBOX,
                "setmetatable: __gc metamethods are not allowed in FlowScript");
        }
        clua_check_call_field(L, 2);
        clua_guard_metatable(L, 2);
    }
    return clua_forward(L);
}

/** Replaces the string on top by a copy with its control characters escaped (`\n`, `\r`, `\t`,
 *  `\x1b` ...) except the tabs print puts between values, so a rule cannot start lines or
 *  send terminal escapes of its own (a forged "99 passed, 0 failed"). Charged by its length. */
static void clua_escape_controls(lua_State *L) {
    size_t len;
    const char *s = lua_tolstring(L, -1, &len);
    size_t k = 0;
    while (k < len && ((unsigned char)s[k] >= 0x20 || s[k] == '\t') && (unsigned char)s[k] != 0x7f) k++;
    if (k == len) return;
    clua_charge(L, (lua_Integer)(len / 16));
    luaL_Buffer b;
    luaL_buffinit(L, &b);
    for (k = 0; k < len; k++) {
        unsigned char ch = (unsigned char)s[k];
        if ((ch >= 0x20 && ch != 0x7f) || ch == '\t') {
            luaL_addchar(&b, (char)ch);
        } else if (ch == '\n') {
            luaL_addstring(&b, "\\n");
        } else if (ch == '\r') {
            luaL_addstring(&b, "\\r");
        } else {
            char esc[8];
            snprintf(esc, sizeof esc, "\\x%02x", ch);
            luaL_addstring(&b, esc);
        }
    }
    luaL_pushresult(&b);
    lua_remove(L, -2);
}

/** Hands the string on top of the stack to the Swift print sink (host time excluded). */
static void clua_emit_print(lua_State *L) {
    clua_ctx *c = clua_getctx(L);
    if (c->dispatch == NULL || c->closing) return;
    int enforce = c->mem_enforce;
    c->mem_enforce = 0;
    long long started = c->time_limit_ns > 0 ? clua_now_ns() : 0;
    c->dispatch(L, c->owner, CLUA_PRINT_FID);
    if (started != 0) c->time_start_ns += clua_now_ns() - started;
    c->mem_enforce = enforce;
}

/**
 * `print`: tab-joined tostring of the arguments, handed to the Swift sink. One call prints at
 * most CLUA_PRINT_LIMIT bytes (a loop printing megabytes would flood the host's logs and
 * memory, which no budget covers): the line that crosses the limit is cut, with a note, and
 * the rest of the call's output is dropped. Each line costs 16 instructions besides its bytes.
 */
static int clua_sb_print(lua_State *L) {
    clua_ctx *c = clua_getctx(L);
    int n = lua_gettop(L);
    luaL_Buffer b;
    luaL_buffinit(L, &b);
    for (int i = 1; i <= n; i++) {
        if (i > 1) luaL_addchar(&b, '\t');
        luaL_tolstring(L, i, NULL);
        luaL_addvalue(&b);
    }
    luaL_pushresult(&b);
    clua_charge(L, 16);
    if (c->print_left <= 0) return 0;
    clua_escape_controls(L);
    size_t len = lua_rawlen(L, -1);
    if (len > CLUA_PRINT_LINE_LIMIT) {
        lua_pushlstring(L, lua_tostring(L, -1), CLUA_PRINT_LINE_LIMIT);
        lua_pushfstring(L, "... [cut: the line had %I bytes, lines keep %d]", (LUAI_UACINT)len, (int)CLUA_PRINT_LINE_LIMIT);
        lua_concat(L, 2);
        lua_remove(L, -2);
        len = lua_rawlen(L, -1);
    }
    if ((long long)len > c->print_left) {
        lua_pushlstring(L, lua_tostring(L, -1), (size_t)c->print_left);
        lua_pushfstring(L, "... [print output of this call passed %d KiB: the rest is dropped]",
                        (int)(CLUA_PRINT_LIMIT / 1024));
        lua_concat(L, 2);
        c->print_left = 0;
    } else {
        c->print_left -= (long long)len;
    }
    clua_emit_print(L);
    return 0;
}

/** Whether byte `c` is a UTF-8 continuation byte (10xxxxxx). */
static int clua_utf8_cont(unsigned char c) { return (c & 0xC0) == 0x80; }

/** The iterator `utf8.codes` returns: Lua's (upvalue 1), then, as Lua 5.4.6 and later check, a
 *  stray continuation byte right after the character is "invalid UTF-8 code". Lua's iterator
 *  runs protected: its error gets the position of the loop, as when Lua calls it directly. */
static int clua_utf8_next(lua_State *L) {
    size_t len;
    const char *s = luaL_checklstring(L, 1, &len);
    lua_settop(L, 2);
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 1);
    int status = lua_pcall(L, 2, LUA_MULTRET, 0);
    if (status != LUA_OK) {
        if (status == LUA_ERRRUN && lua_type(L, -1) == LUA_TSTRING) {
            luaL_where(L, 1);
            lua_insert(L, -2);
            lua_concat(L, 2);
        }
        return lua_error(L);
    }
    if (lua_gettop(L) < 1 || lua_isnil(L, 1)) return lua_gettop(L);
    size_t at = (size_t)lua_tointeger(L, 1) - 1, size = 1;
    unsigned char lead = (unsigned char)s[at];
    if (lead >= 0xC0) {
        for (unsigned char c = lead; c & 0x40; c = (unsigned char)(c << 1)) size++;
    }
    if (at + size < len && clua_utf8_cont((unsigned char)s[at + size])) return luaL_error(L, "invalid UTF-8 code");
    return lua_gettop(L);
}

/**
 * `utf8.codes(s [, lax])` as Lua 5.4.6 and later have it, on every Lua: a string that starts
 * with a continuation byte is a bad argument, and a continuation byte after a character is an
 * error when the loop reaches it (Lua 5.4.4 skipped both silently).
 */
static int clua_sb_utf8codes(lua_State *L) {
    const char *s = luaL_checkstring(L, 1);
    if (clua_utf8_cont((unsigned char)s[0])) return luaL_error(L, "bad argument #1 to 'utf8.codes' (invalid UTF-8 code)");
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 1);
    lua_call(L, lua_gettop(L) - 1, 3);
    lua_pushvalue(L, -3);
    lua_pushcclosure(L, clua_utf8_next, 1);
    lua_replace(L, -4);
    return 3;
}

/* ------------------------------------------------------------------------------------------ */
/* Building the sandbox                                                                         */
/* ------------------------------------------------------------------------------------------ */

/** Copies field `name` of the table at `from` into the table at `to`. */
static void clua_copyfield(lua_State *L, int from, int to, const char *name) {
    lua_getfield(L, from, name);
    lua_setfield(L, to, name);
}

/** Pushes a table with the fields of the table at `from` named in `keep` (NULL-terminated): a
 *  library keeps exactly the functions of standard Lua 5.4, whatever else the linked library
 *  was built with (Debian's Lua has LUA_COMPAT_5_3's math.pow, math.log10, ...). */
static void clua_copytable(lua_State *L, int from, const char *const *keep) {
    from = lua_absindex(L, from);
    int count = 0;
    while (keep[count] != NULL) count++;
    lua_createtable(L, 0, count);
    int to = lua_gettop(L);
    for (const char *const *k = keep; *k != NULL; k++) clua_copyfield(L, from, to, *k);
}

/** Replaces field `name` of the table at `t` by a wrapper closure (original as upvalue 1). */
static void clua_wrapfield(lua_State *L, int t, const char *name, lua_CFunction wrapper, int meter) {
    t = lua_absindex(L, t);
    lua_getfield(L, t, name);
    if (meter != 0) {
        lua_pushinteger(L, meter);
        lua_pushcclosure(L, wrapper, 2);
    } else {
        lua_pushcclosure(L, wrapper, 1);
    }
    lua_setfield(L, t, name);
}

/**
 * Builds the sandboxed global table from scratch and installs it as the global table.
 * Run in protected mode (clua_setup_sandbox).
 */
static int clua_setup(lua_State *L) {
    clua_ctx *c = clua_getctx(L);
    static const char *const base_names[] = {
        "assert", "error", "getmetatable", "ipairs", "next", "pairs", "pcall", "rawequal",
        "rawget", "rawlen", "select", "tonumber", "tostring", "type", "warn", "_VERSION",
        NULL
    };
    /* The libraries' functions in the Lua 5.4 manual (§6.4-6.7, 6.2), string.dump left out. */
    static const char *const string_names[] = {
        "byte", "char", "find", "format", "gmatch", "gsub", "len", "lower", "match", "pack",
        "packsize", "rep", "reverse", "sub", "unpack", "upper", NULL
    };
    static const char *const table_names[] = {
        "concat", "insert", "move", "pack", "remove", "sort", "unpack", NULL
    };
    static const char *const math_names[] = {
        "abs", "acos", "asin", "atan", "ceil", "cos", "deg", "exp", "floor", "fmod", "huge", "log",
        "max", "maxinteger", "min", "mininteger", "modf", "pi", "rad", "random", "randomseed", "sin",
        "sqrt", "tan", "tointeger", "type", "ult", NULL
    };
    static const char *const utf8_names[] = {
        "char", "charpattern", "codepoint", "codes", "len", "offset", NULL
    };
    static const char *const coroutine_names[] = {
        "close", "create", "isyieldable", "resume", "running", "status", "wrap", "yield", NULL
    };

    lua_pushboolean(L, 0);
    lua_rawsetp(L, LUA_REGISTRYINDEX, clua_kinded_key(c));

    /* 1: the loaded-modules table (originals, for error messages naming 'table.insert' ...). */
    luaL_getsubtable(L, LUA_REGISTRYINDEX, LUA_LOADED_TABLE);
    /* 2: the original global table, filled by luaopen_base. */
    luaopen_base(L);
    lua_pushvalue(L, 2);
    lua_setfield(L, 1, LUA_GNAME);
    /* 3..8: the original libraries. */
    luaopen_string(L);    lua_pushvalue(L, -1); lua_setfield(L, 1, LUA_STRLIBNAME);
    luaopen_table(L);     lua_pushvalue(L, -1); lua_setfield(L, 1, LUA_TABLIBNAME);
    luaopen_math(L);      lua_pushvalue(L, -1); lua_setfield(L, 1, LUA_MATHLIBNAME);
    luaopen_utf8(L);      lua_pushvalue(L, -1); lua_setfield(L, 1, LUA_UTF8LIBNAME);
    luaopen_coroutine(L); lua_pushvalue(L, -1); lua_setfield(L, 1, LUA_COLIBNAME);
    luaopen_os(L);        lua_pushvalue(L, -1); lua_setfield(L, 1, LUA_OSLIBNAME);
    const int ostr = 3, otab = 4, omath = 5, outf8 = 6, oco = 7, oos = 8;

    /* 9: the new global table. */
    lua_createtable(L, 0, 32);
    const int env = 9;
    for (const char *const *n = base_names; *n != NULL; n++) clua_copyfield(L, 2, env, *n);
    clua_wrapfield(L, env, "tonumber", clua_metered, CLUA_METER_READ);
    lua_getfield(L, 2, "load");         lua_pushcclosure(L, clua_sb_load, 1);         lua_setfield(L, env, "load");
    lua_getfield(L, 2, "rawset");       lua_pushcclosure(L, clua_sb_rawset, 1);       lua_setfield(L, env, "rawset");
    lua_pushcfunction(L, clua_sb_rawget);                                              lua_setfield(L, env, "rawget");
    lua_getfield(L, 2, "setmetatable"); lua_pushcclosure(L, clua_sb_setmetatable, 1); lua_setfield(L, env, "setmetatable");
    lua_getfield(L, 2, "xpcall");       lua_pushcclosure(L, clua_sb_xpcall, 1);       lua_setfield(L, env, "xpcall");
    lua_pushcfunction(L, clua_sb_collectgarbage); lua_setfield(L, env, "collectgarbage");
    lua_pushcfunction(L, clua_sb_print);          lua_setfield(L, env, "print");
    lua_pushvalue(L, env); lua_setfield(L, env, LUA_GNAME);

    /* string: all but dump; pattern functions bounded (clua_patterns.c), other heavy
     * functions metered; strings' methods use this table. */
    clua_copytable(L, ostr, string_names);
    clua_wrapfield(L, -1, "find", clua_sb_find, 0);
    clua_wrapfield(L, -1, "match", clua_sb_match, 0);
    clua_wrapfield(L, -1, "gmatch", clua_sb_gmatch, 0);
    clua_wrapfield(L, -1, "gsub", clua_sb_gsub, 0);
    clua_wrapfield(L, -1, "rep", clua_metered, CLUA_METER_STRING_REP);
    clua_wrapfield(L, -1, "byte", clua_metered, CLUA_METER_STRING_RANGE);
    clua_wrapfield(L, -1, "format", clua_metered, CLUA_METER_FORMAT);
    clua_wrapfield(L, -1, "upper", clua_metered, CLUA_METER_SCAN);
    clua_wrapfield(L, -1, "lower", clua_metered, CLUA_METER_SCAN);
    clua_wrapfield(L, -1, "reverse", clua_metered, CLUA_METER_SCAN);
    lua_pushliteral(L, "");
    if (lua_getmetatable(L, -1)) {
        lua_pushvalue(L, -3);
        lua_setfield(L, -2, "__index");
        /* getmetatable('') answers a stand-in { __index = string }: changing it changes nothing,
         * so a script cannot hijack the methods of every string in the VM. */
        lua_createtable(L, 0, 1);
        lua_pushvalue(L, -4);
        lua_setfield(L, -2, "__index");
        lua_setfield(L, -2, "__metatable");
        lua_pop(L, 1);
    }
    lua_pop(L, 1);
    lua_setfield(L, env, LUA_STRLIBNAME);

    /* table: loops over elements charged per element (clua_tablelib.c). */
    clua_copytable(L, otab, table_names);
    lua_pushcfunction(L, clua_sb_tinsert); lua_setfield(L, -2, "insert");
    lua_pushcfunction(L, clua_sb_tremove); lua_setfield(L, -2, "remove");
    lua_pushcfunction(L, clua_sb_tconcat); lua_setfield(L, -2, "concat");
    lua_pushcfunction(L, clua_sb_tunpack); lua_setfield(L, -2, "unpack");
    clua_wrapfield(L, -1, "sort", clua_sb_tsort, 0);
    clua_wrapfield(L, -1, "move", clua_metered, CLUA_METER_TABLE_MOVE);
    lua_setfield(L, env, LUA_TABLIBNAME);

    clua_copytable(L, omath, math_names);  lua_setfield(L, env, LUA_MATHLIBNAME);
    clua_copytable(L, outf8, utf8_names);
    clua_wrapfield(L, -1, "len", clua_metered, CLUA_METER_SCAN);
    clua_wrapfield(L, -1, "offset", clua_metered, CLUA_METER_SCAN);
    clua_wrapfield(L, -1, "codepoint", clua_metered, CLUA_METER_STRING_RANGE);
    clua_wrapfield(L, -1, "codes", clua_sb_utf8codes, 0);
    lua_setfield(L, env, LUA_UTF8LIBNAME);
    clua_copytable(L, oco, coroutine_names);
    clua_wrapfield(L, -1, "resume", clua_sb_coresume, 0);
    clua_wrapfield(L, -1, "close", clua_sb_coclose, 0);
    lua_setfield(L, env, LUA_COLIBNAME);

    /* os: time, clock, date only. */
    lua_createtable(L, 0, 3);
    clua_copyfield(L, oos, lua_gettop(L), "time");
    clua_copyfield(L, oos, lua_gettop(L), "clock");
    clua_copyfield(L, oos, lua_gettop(L), "date");
    clua_wrapfield(L, -1, "date", clua_metered, CLUA_METER_OS_DATE);
    lua_setfield(L, env, LUA_OSLIBNAME);

    lua_pushvalue(L, env);
    lua_rawseti(L, LUA_REGISTRYINDEX, LUA_RIDX_GLOBALS);
    return 0;
}

int clua_setup_sandbox(lua_State *L) {
    clua_ctx *c = clua_getctx(L);
    clua_align_c_levels(L);
    lua_pushcfunction(L, clua_setup);
    c->mem_enforce = 1;
    int status = lua_pcall(L, 0, 0, 0);
    c->mem_enforce = 0;
    return status;
}
