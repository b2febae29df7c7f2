#ifndef FLOWSTACK_CLUA_STACKS_H
#define FLOWSTACK_CLUA_STACKS_H
/* FlowScript's C boundary: the lazy `stacks` argument of rules. Included by shim.h (read the
 * rules there).
 *
 * Rules see plain-looking read-only tables: `stacks` (the array of stacks), each stack's view
 * `{ id, index, presentation, routes }`, and `routes` (the stack's routes, root first). Nothing
 * is copied into Lua up front: the number of stacks and the front-most stack's length come with
 * each decision; a stack's id, presentation and other lengths, and every route, are asked from
 * Swift (the prelude's `stackInfo` and `routeAt`) when a rule reads them.
 *
 * The proxies' state is C memory, not table fields: each metamethod is a C closure whose first
 * upvalue is a userdata holding it, so `#stacks`, `stacks[i]` and `#stack.routes` are a few
 * loads, not hashed table lookups. The synchronous decisions share one `stacks` proxy whose
 * views live on from decision to decision: decide bumps the state's serial, and a view read in a
 * new decision forgets its cached length and id (clua_stacks_index). Async decisions, which may
 * be suspended while others run, get their own proxy.
 *
 * These functions only ever run called by Lua (as metamethods, or from the prelude while it
 * loads), never from a Swift frame, so raising (out of memory, or an error from the Swift
 * helpers they call) is allowed. */
#include <lua.h>
#include <lauxlib.h>

/** The state of a `stacks` proxy. */
typedef struct {
    lua_Integer snap;    /* which stacks in Swift (0: the synchronous decisions') */
    lua_Integer count;   /* the number of stacks */
    lua_Integer front;   /* the front-most stack's number of screens */
    lua_Integer serial;  /* the decision being run (views refresh when it changes) */
} clua_stacks_state;

/** The state of one stack's view and its `routes`; user values 1 and 2 cache the stack's id
 *  and presentation. */
typedef struct {
    lua_Integer snap;
    lua_Integer stack;        /* the stack's 1-based index */
    lua_Integer serial;       /* the decision the view was last refreshed for */
    lua_Integer len;          /* the stack's number of screens; -1: ask Swift */
    lua_Integer info_serial;  /* the decision the cached id and presentation belong to */
} clua_view_state;

/** Positions in the kit list the prelude hands to stackKit. */
enum {
    CLUA_SK_READONLY = 1, /* function raising "stacks are read-only" (the __newindex) */
    CLUA_SK_PAIRS,        /* the __pairs of `stacks` and `routes` (i = 1, 2, ... until nil) */
    CLUA_SK_STACKINFO,    /* function stackInfo(snap, stack, lengthOnly) (Swift) */
    CLUA_SK_ROUTEAT       /* function routeAt(snap, stack, position) (Swift) */
};

/** A 1-based index from a key as `math.tointeger` reads it; 0 when it is not one. */
static inline lua_Integer clua_sk_index(lua_State *L, int idx) {
    int valid = 0;
    lua_Integer i = lua_tointegerx(L, idx, &valid);
    return valid && i >= 1 ? i : 0;
}

/** Sets field `name` of the table on top to kit[key]. */
static inline void clua_sk_setkit(lua_State *L, int kit, const char *name, int key) {
    lua_rawgeti(L, kit, key);
    lua_setfield(L, -2, name);
}

/** Protects the metatable on top: `getmetatable` returns "read-only", and `setmetatable` and
 *  `rawset` refuse the proxy (clua_sandbox.h reads `__readonly`), so no rule can take a shared
 *  proxy apart, or fill it, for the decisions after it. */
static inline void clua_sk_protect(lua_State *L) {
    lua_pushliteral(L, "read-only");
    lua_setfield(L, -2, "__metatable");
    lua_pushliteral(L, "stacks");
    lua_setfield(L, -2, "__readonly");
}

/** Sets field `name` of the table on top to a C closure of `fn` over the `n` values below it. */
static inline void clua_sk_setclosure(lua_State *L, const char *name, lua_CFunction fn, int n) {
    lua_pushcclosure(L, fn, n);
    lua_setfield(L, -2, name);
}

/** routes.__len (upvalue 1: the view state, 2: stackInfo): the stack's number of screens,
 *  asked from Swift once per decision unless decide passed it (the front-most stack). */
static int clua_routes_len(lua_State *L) {
    clua_view_state *v = (clua_view_state *)lua_touserdata(L, lua_upvalueindex(1));
    if (v->len < 0) {
        lua_pushvalue(L, lua_upvalueindex(2));
        lua_pushinteger(L, v->snap);
        lua_pushinteger(L, v->stack);
        lua_pushboolean(L, 1);
        lua_call(L, 3, 1);
        v->len = lua_isinteger(L, -1) ? lua_tointeger(L, -1) : 0;
    }
    lua_pushinteger(L, v->len);
    return 1;
}

/** routes.__index(t, i) (upvalue 1: the view state, 2: routeAt): the route at screen i (1:
 *  the stack's root), asked from Swift. */
static int clua_routes_index(lua_State *L) {
    lua_Integer i = clua_sk_index(L, 2);
    if (i == 0) return 0;
    clua_view_state *v = (clua_view_state *)lua_touserdata(L, lua_upvalueindex(1));
    lua_pushvalue(L, lua_upvalueindex(2));
    lua_pushinteger(L, v->snap);
    lua_pushinteger(L, v->stack);
    lua_pushinteger(L, i);
    lua_call(L, 3, 1);
    return 1;
}

/** A view's fields' __index (upvalue 1: the view state, 2: stackInfo, 3: "id",
 *  4: "presentation"): the stack's id and presentation, asked from Swift once per decision. */
static int clua_fields_index(lua_State *L) {
    int slot = lua_rawequal(L, 2, lua_upvalueindex(3)) ? 1 : lua_rawequal(L, 2, lua_upvalueindex(4)) ? 2 : 0;
    if (slot == 0) return 0;
    clua_view_state *v = (clua_view_state *)lua_touserdata(L, lua_upvalueindex(1));
    if (v->info_serial != v->serial) {
        lua_settop(L, 2);
        lua_pushvalue(L, lua_upvalueindex(2));
        lua_pushinteger(L, v->snap);
        lua_pushinteger(L, v->stack);
        lua_call(L, 2, 2);                                  /* 3: id, 4: presentation */
        lua_setiuservalue(L, lua_upvalueindex(1), 2);
        lua_setiuservalue(L, lua_upvalueindex(1), 1);
        v->info_serial = v->serial;
    }
    lua_getiuservalue(L, lua_upvalueindex(1), slot);
    return 1;
}

/** The iterator a view's __pairs returns (upvalue 1: the copy it iterates). */
static int clua_view_next(lua_State *L) {
    lua_settop(L, 2);
    if (lua_next(L, lua_upvalueindex(1))) return 2;
    return 0;
}

/** A view's __pairs (upvalue 1: its fields): iterates a copy holding every field, the lazy
 *  ones included, through a closure, so that no table a rule could write to is handed out. */
static int clua_view_pairs(lua_State *L) {
    lua_createtable(L, 0, 4);
    const char *names[4] = { "id", "index", "presentation", "routes" };
    for (int k = 0; k < 4; k++) {
        lua_getfield(L, lua_upvalueindex(1), names[k]);
        lua_setfield(L, -2, names[k]);
    }
    lua_pushcclosure(L, clua_view_next, 1);
    lua_pushnil(L);
    lua_pushnil(L);
    return 3;
}

/** Makes the view of stack `i` of the stacks whose state `s` is: pushes the view, then its
 *  state (a userdata). `kit` is an absolute or pseudo index. */
static void clua_stacks_makeview(lua_State *L, const clua_stacks_state *s, lua_Integer i, int kit) {
    clua_view_state *v = (clua_view_state *)lua_newuserdatauv(L, sizeof(clua_view_state), 2);
    v->snap = s->snap;
    v->stack = i;
    v->serial = s->serial - 1;
    v->len = -1;
    v->info_serial = s->serial - 1;
    int state = lua_gettop(L);
    lua_createtable(L, 0, 0);                               /* routes */
    lua_createtable(L, 0, 4);
    lua_pushvalue(L, state);
    lua_rawgeti(L, kit, CLUA_SK_ROUTEAT);
    clua_sk_setclosure(L, "__index", clua_routes_index, 2);
    lua_pushvalue(L, state);
    lua_rawgeti(L, kit, CLUA_SK_STACKINFO);
    clua_sk_setclosure(L, "__len", clua_routes_len, 2);
    clua_sk_setkit(L, kit, "__newindex", CLUA_SK_READONLY);
    clua_sk_setkit(L, kit, "__pairs", CLUA_SK_PAIRS);
    clua_sk_protect(L);
    lua_setmetatable(L, -2);
    int routes = lua_gettop(L);
    lua_createtable(L, 0, 2);                               /* fields */
    lua_pushinteger(L, i);
    lua_setfield(L, -2, "index");
    lua_pushvalue(L, routes);
    lua_setfield(L, -2, "routes");
    lua_createtable(L, 0, 1);
    lua_pushvalue(L, state);
    lua_rawgeti(L, kit, CLUA_SK_STACKINFO);
    lua_pushliteral(L, "id");
    lua_pushliteral(L, "presentation");
    clua_sk_setclosure(L, "__index", clua_fields_index, 4);
    lua_setmetatable(L, -2);
    int fields = lua_gettop(L);
    lua_createtable(L, 0, 0);                               /* the view */
    lua_createtable(L, 0, 3);
    lua_pushvalue(L, fields);
    lua_setfield(L, -2, "__index");
    clua_sk_setkit(L, kit, "__newindex", CLUA_SK_READONLY);
    lua_pushvalue(L, fields);
    clua_sk_setclosure(L, "__pairs", clua_view_pairs, 1);
    clua_sk_protect(L);
    lua_setmetatable(L, -2);
    /* state, routes, fields, view -> view, state */
    lua_pushvalue(L, state);
    lua_replace(L, routes);
    lua_replace(L, state);
    lua_settop(L, state + 1);
}

/** stacks.__len (upvalue 1: the stacks state): the number of stacks. */
static int clua_stacks_len(lua_State *L) {
    const clua_stacks_state *s = (const clua_stacks_state *)lua_touserdata(L, lua_upvalueindex(1));
    lua_pushinteger(L, s->count);
    return 1;
}

/** stacks.__index(t, i) (upvalue 1: the stacks state, 2: the views made so far, view i at
 *  2i - 1 and its state at 2i, 3: the kit): the view of stack i, made once and refreshed on its
 *  first read in each decision (its length is the decision's for the front-most stack, asked
 *  again otherwise; its id and presentation are asked again). */
static int clua_stacks_index(lua_State *L) {
    lua_Integer i = clua_sk_index(L, 2);
    const clua_stacks_state *s = (const clua_stacks_state *)lua_touserdata(L, lua_upvalueindex(1));
    if (i == 0 || i > s->count) return 0;
    int views = lua_upvalueindex(2);
    clua_view_state *v;
    if (lua_rawgeti(L, views, 2 * i) == LUA_TUSERDATA) {
        v = (clua_view_state *)lua_touserdata(L, -1);
        lua_rawgeti(L, views, 2 * i - 1);
    } else {
        lua_pop(L, 1);
        clua_stacks_makeview(L, s, i, lua_upvalueindex(3)); /* view, state */
        v = (clua_view_state *)lua_touserdata(L, -1);
        lua_rawseti(L, views, 2 * i);
        lua_pushvalue(L, -1);
        lua_rawseti(L, views, 2 * i - 1);
    }
    if (v->serial != s->serial) {
        v->serial = s->serial;
        v->len = i == s->count ? s->front : -1;
    }
    return 1;
}

/** makeStacks(snap, count, front) (upvalue 1: the kit): a new `stacks` proxy, and its state
 *  (a userdata: decide updates the synchronous decisions' proxy through it). */
static int clua_makestacks_fn(lua_State *L) {
    clua_stacks_state *s = (clua_stacks_state *)lua_newuserdatauv(L, sizeof(clua_stacks_state), 0);
    s->snap = luaL_checkinteger(L, 1);
    s->count = luaL_checkinteger(L, 2);
    s->front = luaL_checkinteger(L, 3);
    s->serial = 0;
    int state = lua_gettop(L);
    lua_createtable(L, 0, 0);                               /* the proxy */
    lua_createtable(L, 0, 4);
    lua_pushvalue(L, state);
    lua_createtable(L, 8, 0);
    lua_pushvalue(L, lua_upvalueindex(1));
    clua_sk_setclosure(L, "__index", clua_stacks_index, 3);
    lua_pushvalue(L, state);
    clua_sk_setclosure(L, "__len", clua_stacks_len, 1);
    clua_sk_setkit(L, lua_upvalueindex(1), "__newindex", CLUA_SK_READONLY);
    clua_sk_setkit(L, lua_upvalueindex(1), "__pairs", CLUA_SK_PAIRS);
    clua_sk_protect(L);
    lua_setmetatable(L, -2);
    lua_pushvalue(L, state);
    return 2;
}

/** stackKit(kit): the makeStacks function bound to the prelude's kit list (CLUA_SK_*). */
static int clua_stackkit_fn(lua_State *L) {
    luaL_checktype(L, 1, LUA_TTABLE);
    lua_settop(L, 1);
    lua_pushcclosure(L, clua_makestacks_fn, 1);
    return 1;
}

static inline void clua_pushstackkit(lua_State *L) { lua_pushcfunction(L, clua_stackkit_fn); }

#endif
