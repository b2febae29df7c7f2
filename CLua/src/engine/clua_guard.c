/* FlowScript's C boundary: what keeps one rule from weakening another, and C loops bounded.
 * (The rules are in CLua.h.)
 *
 *  - Frozen tables (clua_freeze): a table keeps its identity but its fields move to a hidden
 *    backing table; reads go through `__index`, writes (`t.k = v`, `rawset`, `setmetatable`) are
 *    read-only errors naming the field. `flow`, `host`, the libraries and `facts` are frozen when
 *    the rules start loading (clua_declaring_fn), and so are `op.route`, `op.routes`, the routes
 *    of `stacks` and the style context when a rule first sees them.
 *  - The coroutine library is wrapped: threads FlowScript runs (the main thread, the threads of
 *    async decisions) cannot be resumed or closed by a script, and `coroutine.close` nests at
 *    most CLUA_CLOSE_DEPTH deep (Lua 5.4.4 overflows the C stack on deep nesting).
 *  - `load` with a reader function reads it here, each piece charged to the budget.
 *  - A `__call` metamethod must be a function (a table whose `__call` is itself loops in C).
 *
 * Everything here works on Lua 5.4.4 to 5.4.7 through the public API only. */
#include "clua_engine.h"

/** Deepest nesting of `coroutine.close`: each level costs a few C calls (this wrapper, its
 *  pcall, Lua's close, the `__close` call), and rules get CLUA_C_LEVELS (64) on every Lua. */
#define CLUA_CLOSE_DEPTH 16

/** Deepest nesting frozen by clua_freeze (payload tables deeper than this stay as they are). */
#define CLUA_FREEZE_DEPTH 16

int clua_frozen_backing(lua_State *L, int idx) {
    if (lua_type(L, idx) != LUA_TTABLE || !lua_getmetatable(L, idx)) return 0;
    lua_pushliteral(L, "__frozen");
    if (lua_rawget(L, -2) == LUA_TTABLE) {
        lua_remove(L, -2);
        return 1;
    }
    lua_pop(L, 2);
    return 0;
}

static int clua_frozen_newindex(lua_State *L) {
    const char *name = "table";
    if (lua_getmetatable(L, 1)) {
        lua_pushliteral(L, "__readonly");
        if (lua_rawget(L, -2) == LUA_TSTRING) name = lua_tostring(L, -1);
    }
    return clua_raisef_kinded(L, CLUA_KIND_READ_ONLY, "%s is read-only (cannot assign '%s')", name, clua_keyname(L, 2));
}

static int clua_frozen_next(lua_State *L) {
    lua_settop(L, 2);
    if (lua_next(L, lua_upvalueindex(1))) return 2;
    lua_pushnil(L);
    return 1;
}

static int clua_frozen_pairs(lua_State *L) {
    if (!clua_frozen_backing(L, 1)) lua_newtable(L);
    lua_pushcclosure(L, clua_frozen_next, 1);
    lua_pushnil(L);
    lua_pushnil(L);
    return 3;
}

static int clua_frozen_len(lua_State *L) {
    lua_Integer n = 0;
    if (clua_frozen_backing(L, 1)) n = (lua_Integer)lua_rawlen(L, -1);
    lua_pushinteger(L, n);
    return 1;
}

/** Whether the table at `idx` must not be frozen: it is frozen already, a read-only proxy, or
 *  has a protected metatable (never raises). */
static int clua_freeze_skip(lua_State *L, int idx) {
    if (!lua_getmetatable(L, idx)) return 0;
    lua_pushliteral(L, "__metatable");
    int protected_ = lua_rawget(L, -2) != LUA_TNIL;
    lua_pop(L, 2);
    return protected_;
}

/** Freezes the table at `idx` in place, named `name` in errors, and the tables it holds (up to
 *  CLUA_FREEZE_DEPTH, skipping `skip`, an absolute index or 0). Raises only when out of memory. */
void clua_freeze(lua_State *L, int idx, const char *name, int depth, int skip) {
    idx = lua_absindex(L, idx);
    if (clua_freeze_skip(L, idx)) return;
    luaL_checkstack(L, 8, "freeze");
    int top = lua_gettop(L);
    lua_newtable(L);                                  /* top+1: backing */
    int b = top + 1;
    lua_pushnil(L);
    while (lua_next(L, idx) != 0) {
        if (depth < CLUA_FREEZE_DEPTH && lua_type(L, -1) == LUA_TTABLE && !(skip && lua_rawequal(L, -1, skip)) &&
            !lua_rawequal(L, -1, idx)) {
            if (lua_type(L, -2) == LUA_TSTRING) {
                lua_pushfstring(L, "%s.%s", name, lua_tostring(L, -2));
            } else {
                lua_pushfstring(L, "%s[%s]", name, luaL_tolstring(L, -2, NULL));
                lua_remove(L, -2);
            }
            clua_freeze(L, -2, lua_tostring(L, -1), depth + 1, skip);
            lua_pop(L, 1);
        }
        lua_pushvalue(L, -2);
        lua_insert(L, -2);
        lua_rawset(L, b);
    }
    lua_pushnil(L);
    while (lua_next(L, b) != 0) {
        lua_pop(L, 1);
        lua_pushvalue(L, -1);
        lua_pushnil(L);
        lua_rawset(L, idx);
    }
    if (lua_getmetatable(L, idx)) lua_setmetatable(L, b); /* (host's missing-name handler) */
    lua_createtable(L, 0, 7);
    lua_pushvalue(L, b);                         lua_setfield(L, -2, "__index");
    lua_pushcfunction(L, clua_frozen_newindex);  lua_setfield(L, -2, "__newindex");
    lua_pushcfunction(L, clua_frozen_pairs);     lua_setfield(L, -2, "__pairs");
    lua_pushcfunction(L, clua_frozen_len);       lua_setfield(L, -2, "__len");
    lua_pushstring(L, name);                     lua_setfield(L, -2, "__readonly");
    lua_pushvalue(L, b);                         lua_setfield(L, -2, "__frozen");
    lua_pushliteral(L, "read-only");             lua_setfield(L, -2, "__metatable");
    lua_setmetatable(L, idx);
    lua_settop(L, top);
}

/** freeze(t, name): freezes t in place (deeply) and returns it; any other value is returned as
 *  is. For the prelude (the style context). */
static int clua_freeze_fn(lua_State *L) {
    lua_settop(L, 2);
    if (lua_type(L, 1) == LUA_TTABLE) clua_freeze(L, 1, luaL_optstring(L, 2, "table"), 0, 0);
    lua_settop(L, 1);
    return 1;
}

void clua_pushfreeze(lua_State *L) { lua_pushcfunction(L, clua_freeze_fn); }

/** `rawget`: reads through a frozen table (or the locked globals) to its backing. */
int clua_sb_rawget(lua_State *L) {
    luaL_checktype(L, 1, LUA_TTABLE);
    luaL_checkany(L, 2);
    lua_settop(L, 2);
    lua_pushvalue(L, 2);
    if (lua_rawget(L, 1) == LUA_TNIL && clua_frozen_backing(L, 1)) {
        lua_pushvalue(L, 2);
        lua_rawget(L, -2);
    }
    return 1;
}

/* ------------------------------------------------------------------------------------------ */
/* Coroutines                                                                                   */
/* ------------------------------------------------------------------------------------------ */
static void *clua_hostthreads_key(clua_ctx *c) { return (void *)&c->close_depth; }

void clua_mark_host_thread(lua_State *L, lua_State *thread) {
    clua_ctx *c = clua_getctx(L);
    if (lua_rawgetp(L, LUA_REGISTRYINDEX, clua_hostthreads_key(c)) != LUA_TTABLE) {
        lua_pop(L, 1);
        lua_newtable(L);
        lua_createtable(L, 0, 1);
        lua_pushliteral(L, "k");
        lua_setfield(L, -2, "__mode");
        lua_setmetatable(L, -2);
        lua_pushvalue(L, -1);
        lua_rawsetp(L, LUA_REGISTRYINDEX, clua_hostthreads_key(c));
    }
    lua_pushthread(thread);
    lua_xmove(thread, L, 1);
    lua_pushboolean(L, 1);
    lua_rawset(L, -3);
    lua_pop(L, 1);
}

/** Raises when argument 1 is a thread FlowScript runs (the main thread, an async call's). */
static void clua_check_script_thread(lua_State *L, const char *fname) {
    lua_State *co = lua_tothread(L, 1);
    if (co == NULL) return;
    clua_ctx *c = clua_getctx(L);
    lua_rawgeti(L, LUA_REGISTRYINDEX, LUA_RIDX_MAINTHREAD);
    int host = lua_tothread(L, -1) == co;
    lua_pop(L, 1);
    if (!host) {
        if (lua_rawgetp(L, LUA_REGISTRYINDEX, clua_hostthreads_key(c)) == LUA_TTABLE) {
            lua_pushvalue(L, 1);
            host = lua_rawget(L, -2) != LUA_TNIL;
            lua_pop(L, 1);
        }
        lua_pop(L, 1);
    }
    if (host) {
        clua_raisef_kinded(L, CLUA_KIND_SANDBOX,
            "%s: this coroutine is run by FlowStack (a rule's own decision), not by the script; "
            "only coroutines the script created can be resumed or closed", fname);
    }
}

/** coroutine.resume (upvalue 1: Lua's). */
int clua_sb_coresume(lua_State *L) {
    clua_check_script_thread(L, "coroutine.resume");
    return clua_forward(L);
}

/** coroutine.close (upvalue 1: Lua's): refused on FlowScript's threads; nested at most
 *  CLUA_CLOSE_DEPTH deep (a `__close` that closes another coroutine nests one C level). */
int clua_sb_coclose(lua_State *L) {
    clua_ctx *c = clua_getctx(L);
    clua_check_script_thread(L, "coroutine.close");
    if (c->close_depth >= CLUA_CLOSE_DEPTH) {
        return clua_raisef_kinded(L, CLUA_KIND_SANDBOX,
            "coroutine.close nested more than %d deep (a __close that closes another coroutine)", CLUA_CLOSE_DEPTH);
    }
    luaL_checkstack(L, 2, "coroutine.close");
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 1);
    c->close_depth++;
    int status = lua_pcall(L, lua_gettop(L) - 1, LUA_MULTRET, 0);
    c->close_depth--;
    if (status != LUA_OK) return lua_error(L);
    return lua_gettop(L);
}

/* ------------------------------------------------------------------------------------------ */
/* load with a reader, __call                                                                   */
/* ------------------------------------------------------------------------------------------ */

/** Reads the chunk the reader function at 1 returns, piece by piece, each piece charged (a C
 *  reader such as `pairs(t)`'s iterator never ends by itself), and replaces it by the text. */
void clua_read_chunk(lua_State *L) {
    luaL_Buffer b;
    luaL_checkstack(L, 4, "load");
    int top = lua_gettop(L);
    luaL_buffinit(L, &b);
    for (;;) {
        lua_pushvalue(L, 1);
        lua_call(L, 0, 1);
        clua_charge(L, 8);
        if (lua_isnil(L, -1)) { lua_pop(L, 1); break; }
        if (lua_type(L, -1) != LUA_TSTRING) {
            clua_raisef_kinded(L, CLUA_KIND_TYPE, "load: the reader function must return a string");
        }
        size_t len = lua_rawlen(L, -1);
        if (len == 0) { lua_pop(L, 1); break; }
        clua_charge(L, (lua_Integer)(len / 16));
        luaL_addvalue(&b);
    }
    luaL_pushresult(&b);
    lua_replace(L, 1);
    lua_settop(L, top);
}

/** Raises when the metatable at `mt` has a `__call` that is not a function. */
void clua_check_call_field(lua_State *L, int mt) {
    lua_pushliteral(L, "__call");
    int t = lua_rawget(L, mt);
    lua_pop(L, 1);
    if (t != LUA_TNIL && t != LUA_TFUNCTION) {
        clua_raisef_kinded(L, CLUA_KIND_SANDBOX,
            "setmetatable: a __call metamethod must be a function in FlowScript (got a %s)", lua_typename(L, t));
    }
}

/** __newindex of the metatables scripts set: a `__call` assigned later must be a function too. */
static int clua_mt_newindex(lua_State *L) {
    if (lua_type(L, 2) == LUA_TSTRING && strcmp(lua_tostring(L, 2), "__call") == 0 &&
        !lua_isnil(L, 3) && lua_type(L, 3) != LUA_TFUNCTION) {
        return clua_raisef_kinded(L, CLUA_KIND_SANDBOX,
            "a __call metamethod must be a function in FlowScript (got a %s)", luaL_typename(L, 3));
    }
    lua_settop(L, 3);
    lua_rawset(L, 1);
    return 0;
}

/** Gives the metatable at `mt` (a script's) a guard for later `__call` assignments, unless it
 *  has a metatable of its own. */
void clua_guard_metatable(lua_State *L, int mt) {
    if (lua_getmetatable(L, mt)) { lua_pop(L, 1); return; }
    lua_createtable(L, 0, 1);
    lua_pushcfunction(L, clua_mt_newindex);
    lua_setfield(L, -2, "__newindex");
    lua_setmetatable(L, mt);
}
