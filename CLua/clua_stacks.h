#ifndef FLOWSTACK_CLUA_STACKS_H
#define FLOWSTACK_CLUA_STACKS_H
/* FlowScript's C boundary: the metamethods of the lazy `stacks` argument of rules.
 * Included by shim.h (read the rules there).
 *
 * The rules prelude keeps each stacks proxy's state in raw fields under private key tables
 * (SNAP, STACK, COUNT, ...). These C functions are its hottest metamethods: `#stacks`,
 * `stacks[i]`, `#stack.routes` and `stack.routes[i]`. In Lua each cost a metamethod call into
 * the interpreter, every instruction of it traced by the count hook; here they are a few raw
 * table reads. Upvalue 1 of each is the prelude's key list (see clua_stackmeta_fn). They only
 * ever run as metamethods called by Lua, never from Swift, so raising (out of memory, or an
 * error from the Swift helpers they call) is allowed. */
#include <lua.h>
#include <lauxlib.h>

/** Positions in the key list the prelude hands to clua_stackmeta_fn. */
enum {
    CLUA_SK_SNAP = 1,     /* key: which stacks in Swift (0: the synchronous decision's) */
    CLUA_SK_STACK,        /* key: a routes proxy's stack index */
    CLUA_SK_COUNT,        /* key: the number of stacks */
    CLUA_SK_FRONT,        /* key: the front-most stack's number of screens */
    CLUA_SK_VIEWS,        /* key: the per-stack views made so far */
    CLUA_SK_SERIAL,       /* key: the decision a view was last refreshed for */
    CLUA_SK_FIELDS,       /* key: a view's field table */
    CLUA_SK_LEN,          /* key: a routes proxy's cached length (false: ask Swift) */
    CLUA_SK_STACKINFO,    /* function stackInfo(snap, stack, lengthOnly) (Swift) */
    CLUA_SK_ROUTEAT,      /* function routeAt(snap, stack, position) (Swift) */
    CLUA_SK_MAKEVIEW      /* function makeView(stacks, i) -> view, fields, routes (Lua) */
};

/** Pushes t[K[key]] (raw) where `t` is at `idx` (an absolute index). */
static inline int clua_sk_get(lua_State *L, int idx, int key) {
    lua_rawgeti(L, lua_upvalueindex(1), key);
    return lua_rawget(L, idx);
}

/** Sets t[K[key]] = the value on top (raw, popped), `t` at absolute index `idx`. */
static inline void clua_sk_set(lua_State *L, int idx, int key) {
    lua_rawgeti(L, lua_upvalueindex(1), key);
    lua_insert(L, -2);
    lua_rawset(L, idx);
}

/** A 1-based index from a key as `math.tointeger` reads it; 0 when it is not one. */
static inline lua_Integer clua_sk_index(lua_State *L, int idx) {
    int valid = 0;
    lua_Integer i = lua_tointegerx(L, idx, &valid);
    return valid && i >= 1 ? i : 0;
}

/** stacks.__len: the number of stacks. */
static int clua_stacks_len(lua_State *L) {
    clua_sk_get(L, 1, CLUA_SK_COUNT);
    return 1;
}

/** stacks.__index(t, i): the view of stack i, refreshed once per decision (its id and
 *  presentation are read again when asked, its length is the decision's). */
static int clua_stacks_index(lua_State *L) {
    lua_Integer i = clua_sk_index(L, 2);
    if (i == 0) return 0;
    lua_settop(L, 2);
    clua_sk_get(L, 1, CLUA_SK_COUNT);                       /* 3: count */
    lua_Integer count = lua_tointeger(L, 3);
    if (i > count) return 0;
    clua_sk_get(L, 1, CLUA_SK_SERIAL);                      /* 4: serial */
    clua_sk_get(L, 1, CLUA_SK_VIEWS);                       /* 5: views */
    if (lua_rawgeti(L, 5, i) == LUA_TTABLE) {               /* 6: view */
        clua_sk_get(L, 6, CLUA_SK_SERIAL);                  /* 7: the view's serial */
        if (lua_rawequal(L, 7, 4)) { lua_settop(L, 6); return 1; }
        lua_settop(L, 6);
        clua_sk_get(L, 6, CLUA_SK_FIELDS);                  /* 7: fields */
        lua_pushliteral(L, "id");
        lua_pushnil(L);
        lua_rawset(L, 7);
        lua_pushliteral(L, "presentation");
        lua_pushnil(L);
        lua_rawset(L, 7);
        lua_pushliteral(L, "routes");
        lua_rawget(L, 7);                                   /* 8: routes */
    } else {
        lua_settop(L, 5);
        lua_rawgeti(L, lua_upvalueindex(1), CLUA_SK_MAKEVIEW);
        lua_pushvalue(L, 1);
        lua_pushinteger(L, i);
        lua_call(L, 2, 3);                                  /* 6: view, 7: fields, 8: routes */
        lua_pushvalue(L, 6);
        lua_rawseti(L, 5, i);
    }
    lua_pushvalue(L, 4);
    clua_sk_set(L, 6, CLUA_SK_SERIAL);
    if (i == count) clua_sk_get(L, 1, CLUA_SK_FRONT); else lua_pushboolean(L, 0);
    clua_sk_set(L, 8, CLUA_SK_LEN);
    lua_settop(L, 6);
    return 1;
}

/** routes.__len: the stack's number of screens (asked from Swift once per decision). */
static int clua_routes_len(lua_State *L) {
    lua_settop(L, 1);
    if (clua_sk_get(L, 1, CLUA_SK_LEN) != LUA_TNIL && lua_toboolean(L, 2)) return 1;
    lua_settop(L, 1);
    lua_rawgeti(L, lua_upvalueindex(1), CLUA_SK_STACKINFO);
    clua_sk_get(L, 1, CLUA_SK_SNAP);
    clua_sk_get(L, 1, CLUA_SK_STACK);
    lua_pushboolean(L, 1);
    lua_call(L, 3, 1);                                      /* 2: length or nil */
    if (lua_isnil(L, 2)) { lua_pop(L, 1); lua_pushinteger(L, 0); }
    lua_pushvalue(L, 2);
    clua_sk_set(L, 1, CLUA_SK_LEN);
    return 1;
}

/** routes.__index(t, i): the route at screen i (1: the stack's root), asked from Swift. */
static int clua_routes_index(lua_State *L) {
    lua_Integer i = clua_sk_index(L, 2);
    if (i == 0) return 0;
    lua_settop(L, 1);
    lua_rawgeti(L, lua_upvalueindex(1), CLUA_SK_ROUTEAT);
    clua_sk_get(L, 1, CLUA_SK_SNAP);
    clua_sk_get(L, 1, CLUA_SK_STACK);
    lua_pushinteger(L, i);
    lua_call(L, 3, 1);
    return 1;
}

/** stackMeta(K): the four metamethods above bound to the key list K (a sequence in the order
 *  of the CLUA_SK_ enum): stacks __index, stacks __len, routes __index, routes __len. */
static int clua_stackmeta_fn(lua_State *L) {
    luaL_checktype(L, 1, LUA_TTABLE);
    lua_CFunction functions[4] = { clua_stacks_index, clua_stacks_len, clua_routes_index, clua_routes_len };
    for (int k = 0; k < 4; k++) {
        lua_pushvalue(L, 1);
        lua_pushcclosure(L, functions[k], 1);
    }
    return 4;
}

static inline void clua_pushstackmeta(lua_State *L) { lua_pushcfunction(L, clua_stackmeta_fn); }

#endif
