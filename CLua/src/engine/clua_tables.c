/* FlowScript's C boundary: Locked globals, read-only proxies and deep equality.
 * The rules are in CLua.h. */
#include "clua_engine.h"

/* ------------------------------------------------------------------------------------------ */
/* Locked globals                                                                               */
/* ------------------------------------------------------------------------------------------ */

/* Upvalue 1 of both: the set of declared global names; upvalue 2 (if any): the frozen globals
 * (what FlowStack provides: flow, host, facts, the libraries), which no script can replace. */
static int clua_env_index(lua_State *L) {
    lua_pushvalue(L, 2);
    if (lua_rawget(L, lua_upvalueindex(1)) != LUA_TNIL) {
        lua_pushnil(L);
        return 1;
    }
    return clua_raisef_kinded(L, CLUA_KIND_UNDECLARED_GLOBAL, "undeclared global '%s'", clua_keyname(L, 2));
}

/** Raises when the key at 2 names a frozen global (upvalue `up`, when it is a table). */
static void clua_env_check_frozen(lua_State *L, int up) {
    if (lua_type(L, lua_upvalueindex(up)) != LUA_TTABLE) return;
    lua_pushvalue(L, 2);
    if (lua_rawget(L, lua_upvalueindex(up)) != LUA_TNIL) {
        clua_raisef_kinded(L, CLUA_KIND_READ_ONLY,
            "global '%s' is read-only (FlowStack provides it; rules cannot replace it)", clua_keyname(L, 2));
    }
    lua_pop(L, 1);
}

static int clua_env_newindex(lua_State *L) {
    clua_env_check_frozen(L, 2);
    lua_pushvalue(L, 2);
    if (lua_rawget(L, lua_upvalueindex(1)) == LUA_TNIL) {
        return clua_raisef_kinded(L, CLUA_KIND_UNDECLARED_GLOBAL,
            "assignment to undeclared global '%s' (globals are locked after loading; use a local variable)",
            clua_keyname(L, 2));
    }
    lua_settop(L, 3);
    lua_rawset(L, 1);
    return 0;
}

/* While loading (upvalue 1: the set of declared names, 2: the frozen globals): an assignment to
 * a new global declares it, `nil` included (`helper = nil` at the top level, filled in later, is
 * a declared global). */
static int clua_env_declare(lua_State *L) {
    clua_env_check_frozen(L, 2);
    lua_pushvalue(L, 2);
    lua_pushboolean(L, 1);
    lua_rawset(L, lua_upvalueindex(1));
    lua_settop(L, 3);
    lua_rawset(L, 1);
    return 0;
}

/** Starts recording global declarations on the global table (argument 1): every assignment to
 *  a new name declares it, even to nil, until clua_lock_fn. What the table holds now (what
 *  FlowStack provides) moves to the frozen globals, each table frozen (clua_freeze); the
 *  string metatable then reads the frozen string library's backing directly. Protected. */
static int clua_declaring_fn(lua_State *L) {
    lua_settop(L, 1);
    if (lua_getmetatable(L, 1)) return 0;  /* already recording, or locked */
    lua_newtable(L); /* 2: declared names */
    lua_newtable(L); /* 3: frozen globals */
    lua_pushnil(L);
    while (lua_next(L, 1) != 0) {
        if (lua_type(L, -1) == LUA_TTABLE && !lua_rawequal(L, -1, 1) && lua_type(L, -2) == LUA_TSTRING) {
            clua_freeze(L, -1, lua_tostring(L, -2), 0, 1);
        }
        lua_pushvalue(L, -2);
        lua_insert(L, -2);
        lua_rawset(L, 3);
    }
    lua_pushnil(L);
    while (lua_next(L, 3) != 0) {
        lua_pop(L, 1);
        lua_pushvalue(L, -1);
        lua_pushnil(L);
        lua_rawset(L, 1);
    }
    lua_pushliteral(L, "");
    if (lua_getmetatable(L, -1)) {                 /* ("" ; its metatable) */
        lua_getfield(L, 3, LUA_STRLIBNAME);
        if (clua_frozen_backing(L, -1)) {
            lua_setfield(L, -3, "__index");
        }
        lua_settop(L, 3);
    }
    lua_settop(L, 3);
    lua_createtable(L, 0, 5); /* 4: metatable */
    lua_pushvalue(L, 3); lua_setfield(L, 4, "__index");
    lua_pushvalue(L, 2); lua_pushvalue(L, 3); lua_pushcclosure(L, clua_env_declare, 2); lua_setfield(L, 4, "__newindex");
    lua_pushvalue(L, 2); lua_setfield(L, 4, "__declared");
    lua_pushvalue(L, 3); lua_setfield(L, 4, "__frozen");
    lua_pushliteral(L, "locked globals"); lua_setfield(L, 4, "__metatable");
    lua_setmetatable(L, 1);
    return 0;
}

/** Locks the global table (argument 1): every name present now, or assigned while declarations
 *  were recorded, is declared; the frozen globals stay frozen. Protected. */
static int clua_lock_fn(lua_State *L) {
    lua_settop(L, 1);
    lua_pushnil(L);                  /* 2: the frozen globals, or nil */
    if (lua_getmetatable(L, 1)) {
        lua_pushliteral(L, "__lockedglobals");
        if (lua_rawget(L, -2) != LUA_TNIL) return 0;
        lua_pop(L, 1);
        lua_pushliteral(L, "__frozen");
        lua_rawget(L, -2);
        lua_replace(L, 2);
        lua_pushliteral(L, "__declared");
        lua_rawget(L, -2);           /* 4: the names recorded while loading, or nil */
        lua_remove(L, 3);
    }
    if (lua_type(L, 3) != LUA_TTABLE) {
        lua_settop(L, 2);
        lua_newtable(L); /* 3: declared names */
    }
    lua_pushnil(L);
    while (lua_next(L, 1) != 0) {
        lua_pop(L, 1);
        lua_pushvalue(L, -1);
        lua_pushboolean(L, 1);
        lua_rawset(L, 3);
    }
    lua_createtable(L, 0, 6); /* 4: metatable */
    lua_pushvalue(L, 3); lua_pushcclosure(L, clua_env_index, 1);
    if (lua_type(L, 2) == LUA_TTABLE) {
        /* Reads: the globals, then the frozen ones (a table lookup), then the missing-name error. */
        lua_createtable(L, 0, 1);
        lua_insert(L, -2);
        lua_setfield(L, -2, "__index");
        lua_setmetatable(L, 2);
        lua_pushvalue(L, 2);
        lua_pushvalue(L, 2); lua_setfield(L, 4, "__frozen");
    }
    lua_setfield(L, 4, "__index");
    lua_pushvalue(L, 3); lua_pushvalue(L, 2); lua_pushcclosure(L, clua_env_newindex, 2); lua_setfield(L, 4, "__newindex");
    lua_pushvalue(L, 3); lua_setfield(L, 4, "__declared");
    lua_pushboolean(L, 1); lua_setfield(L, 4, "__lockedglobals");
    lua_pushliteral(L, "locked globals"); lua_setfield(L, 4, "__metatable");
    lua_setmetatable(L, 1);
    return 0;
}

/** Declares name (argument 2) in the locked global table (argument 1), if locked. Protected. */
static int clua_declare_fn(lua_State *L) {
    if (!lua_getmetatable(L, 1)) return 0;
    lua_pushliteral(L, "__declared");
    if (lua_rawget(L, -2) == LUA_TTABLE) {
        lua_pushvalue(L, 2);
        lua_pushboolean(L, 1);
        lua_rawset(L, -3);
    }
    return 0;
}

/** Runs `fn` on the `nargs` values on top of the stack in protected mode. */
static int clua_protected(lua_State *L, lua_CFunction fn, int nargs) {
    clua_ctx *c = clua_getctx(L);
    lua_pushcfunction(L, fn);
    lua_insert(L, -(nargs + 1));
    int enforce = c->mem_enforce;
    c->mem_enforce = 1;
    int status = lua_pcall(L, nargs, 0, 0);
    c->mem_enforce = enforce;
    return status;
}

int clua_declaring_globals(lua_State *L) {
    lua_pushglobaltable(L);
    return clua_protected(L, clua_declaring_fn, 1);
}

int clua_lock_globals(lua_State *L) {
    lua_pushglobaltable(L);
    return clua_protected(L, clua_lock_fn, 1);
}

int clua_declare_global(lua_State *L) {
    lua_pushglobaltable(L);
    lua_insert(L, -2);
    return clua_protected(L, clua_declare_fn, 2);
}

/* ------------------------------------------------------------------------------------------ */
/* Read-only proxies                                                                            */
/* ------------------------------------------------------------------------------------------ */

/* Upvalues of the proxy metamethods: 1 the backing table, 2 the proxy's name (string), and for
 * __newindex 3 what to do instead (a string, or nil). The backing table never reaches scripts:
 * it is only ever an upvalue. */

/* The __index of the backing table itself when the proxy is strict (upvalues: 1 the proxy's
 * name, 2 a function called as f(name, key)): a key the backing table has is found without any
 * function call (the proxy's __index is the backing table), a missing key calls the handler. */
static int clua_ro_missing(lua_State *L) {
    lua_pushvalue(L, lua_upvalueindex(2));
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_pushvalue(L, 2);
    lua_call(L, 2, 1);
    return 1;
}

static int clua_ro_newindex(lua_State *L) {
    const char *instead = lua_tostring(L, lua_upvalueindex(3));
    return clua_raisef_kinded(L, CLUA_KIND_READ_ONLY, "%s is read-only (cannot assign '%s')%s%s",
                              lua_tostring(L, lua_upvalueindex(2)), clua_keyname(L, 2),
                              instead ? ": " : "", instead ? instead : "");
}

static int clua_ro_len(lua_State *L) {
    lua_pushinteger(L, (lua_Integer)lua_rawlen(L, lua_upvalueindex(1)));
    return 1;
}

/** The iterator `pairs` returns for a proxy: `next` over the backing table (upvalue 1), which
 *  it keeps to itself (handing the table out as the loop's state would let a script write it). */
static int clua_ro_next_fn(lua_State *L) {
    lua_settop(L, 2);
    if (lua_next(L, lua_upvalueindex(1))) return 2;
    lua_pushnil(L);
    return 1;
}

int clua_ro_pairs_fn(lua_State *L) {
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_pushcclosure(L, clua_ro_next_fn, 1);
    lua_pushnil(L);
    lua_pushnil(L);
    return 3;
}

/** `pairs` of a strict proxy (upvalues: 1 the backing table, 2 the proxy's name, 3 the
 *  missing-key handler): the handler is told that every key is read (called as f(name, nil)),
 *  then the loop runs as for any proxy, over the table the handler returned if it returned one
 *  (keys it serves itself), else over the backing table. */
static int clua_ro_pairs_strict_fn(lua_State *L) {
    lua_pushvalue(L, lua_upvalueindex(3));
    lua_pushvalue(L, lua_upvalueindex(2));
    lua_pushnil(L);
    lua_call(L, 2, 1);
    if (!lua_istable(L, -1)) {
        lua_pop(L, 1);
        lua_pushvalue(L, lua_upvalueindex(1));
    }
    lua_pushcclosure(L, clua_ro_next_fn, 1);
    lua_pushnil(L);
    lua_pushnil(L);
    return 3;
}

/**
 * Arguments: backing table, name, missing-key handler or nil, what to do instead of assigning
 * (a string) or nil. Returns the proxy. Protected.
 */
static int clua_readonly_fn(lua_State *L) {
    lua_settop(L, 4);
    lua_newtable(L);              /* 5: proxy */
    lua_createtable(L, 0, 6);     /* 6: metatable */
    lua_pushvalue(L, 1);
    lua_setfield(L, 6, "__index");
    if (!lua_isnil(L, 3)) {
        lua_createtable(L, 0, 1);
        lua_pushvalue(L, 2); lua_pushvalue(L, 3);
        lua_pushcclosure(L, clua_ro_missing, 2);
        lua_setfield(L, -2, "__index");
        lua_setmetatable(L, 1);
    }
    lua_pushvalue(L, 1); lua_pushvalue(L, 2); lua_pushvalue(L, 4);
    lua_pushcclosure(L, clua_ro_newindex, 3); lua_setfield(L, 6, "__newindex");
    if (lua_isnil(L, 3)) {
        lua_pushvalue(L, 1); lua_pushcclosure(L, clua_ro_pairs_fn, 1);
    } else {
        lua_pushvalue(L, 1); lua_pushvalue(L, 2); lua_pushvalue(L, 3); lua_pushcclosure(L, clua_ro_pairs_strict_fn, 3);
    }
    lua_setfield(L, 6, "__pairs");
    lua_pushvalue(L, 1); lua_pushcclosure(L, clua_ro_len, 1);      lua_setfield(L, 6, "__len");
    lua_pushvalue(L, 2); lua_setfield(L, 6, "__readonly");
    lua_pushliteral(L, "read-only"); lua_setfield(L, 6, "__metatable");
    lua_setmetatable(L, 5);
    return 1;
}

int clua_make_readonly(lua_State *L) {
    clua_ctx *c = clua_getctx(L);
    lua_pushcfunction(L, clua_readonly_fn);
    lua_insert(L, -5);
    int enforce = c->mem_enforce;
    c->mem_enforce = 1;
    int status = lua_pcall(L, 4, 1, 0);
    c->mem_enforce = enforce;
    return status;
}

/* ------------------------------------------------------------------------------------------ */
/* Deep equality                                                                                */
/* ------------------------------------------------------------------------------------------ */

/** Deep equality of two values (raw: no metamethods). Tables compare key by key, up to a depth
 *  of 64 (deeper or cyclic structures compare by identity). Never raises. */
static int clua_deepequal(lua_State *L, int a, int b, int depth) {
    a = lua_absindex(L, a);
    b = lua_absindex(L, b);
    if (lua_rawequal(L, a, b)) return 1;
    if (lua_type(L, a) != LUA_TTABLE || lua_type(L, b) != LUA_TTABLE) return 0;
    if (depth >= 64 || !lua_checkstack(L, 4)) return 0;
    int equal = 1;
    lua_Integer counta = 0, countb = 0;
    lua_pushnil(L);
    while (lua_next(L, a) != 0) {
        counta++;
        lua_pushvalue(L, -2);
        lua_rawget(L, b);
        if (lua_isnil(L, -1) || !clua_deepequal(L, -2, -1, depth + 1)) {
            lua_pop(L, 3);
            equal = 0;
            break;
        }
        lua_pop(L, 2);
    }
    if (!equal) return 0;
    lua_pushnil(L);
    while (lua_next(L, b) != 0) {
        countb++;
        lua_pop(L, 1);
    }
    return counta == countb;
}

/** deepEqual(a, b) as a Lua function. */
static int clua_deepequal_fn(lua_State *L) {
    lua_settop(L, 2);
    lua_pushboolean(L, clua_deepequal(L, 1, 2, 0));
    return 1;
}

void clua_pushdeepequal(lua_State *L) { lua_pushcfunction(L, clua_deepequal_fn); }

/** sourceOf(fn): the chunk name (as Lua shortened it) and first line of a Lua function, or
 *  "?" for anything else. */
static int clua_sourceof_fn(lua_State *L) {
    lua_Debug ar;
    lua_settop(L, 1);
    if (lua_type(L, 1) != LUA_TFUNCTION || !lua_getinfo(L, ">S", &ar) || ar.what[0] == 'C') {
        lua_pushliteral(L, "?");
        return 1;
    }
    lua_pushstring(L, ar.short_src);
    lua_pushinteger(L, ar.linedefined > 0 ? ar.linedefined : 1);
    return 2;
}

void clua_pushsourceof(lua_State *L) { lua_pushcfunction(L, clua_sourceof_fn); }

/* ------------------------------------------------------------------------------------------ */
/* Plain copies of proxies                                                                      */
/* ------------------------------------------------------------------------------------------ */

/** plaincopy(t): a plain table holding what t's __pairs yields (the read-only proxies: facts,
 *  op, ctx, stacks and their views; clua_haspairs says which tables have one). Raises what the
 *  iteration raises; run only by clua_plaincopy, protected. */
static int clua_plaincopy_fn(lua_State *L) {
    lua_settop(L, 1);
    lua_newtable(L);                                /* 2: the copy */
    if (luaL_getmetafield(L, 1, "__pairs") == LUA_TNIL) lua_pushnil(L);  /* 3: __pairs (the call raises if not callable) */
    lua_pushvalue(L, 1);
    lua_call(L, 1, 3);                              /* 3: iterator, 4: state, 5: control */
    for (;;) {
        lua_pushvalue(L, 3);
        lua_pushvalue(L, 4);
        lua_pushvalue(L, 5);
        lua_call(L, 2, 2);                          /* 6: key, 7: value */
        if (lua_isnil(L, 6)) break;
        clua_charge(L, 4);  /* an iterator in C (`math.max`) never ends by itself: each step counts */
        lua_pushvalue(L, 6);
        lua_replace(L, 5);
        lua_rawset(L, 2);
    }
    lua_settop(L, 2);
    return 1;
}

int clua_plaincopy(lua_State *L, int idx) {
    idx = lua_absindex(L, idx);
    lua_pushcfunction(L, clua_plaincopy_fn);
    lua_pushvalue(L, idx);
    return clua_call_nested(L, 1, 1, 0);
}

int clua_haspairs(lua_State *L, int idx) {
    if (!lua_getmetatable(L, idx)) return 0;
    lua_pushliteral(L, "__pairs");
    int type = lua_rawget(L, -2);
    lua_pop(L, 2);
    return type != LUA_TNIL;
}
