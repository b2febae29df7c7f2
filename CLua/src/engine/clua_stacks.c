/* FlowScript's C boundary: the lazy `stacks` argument of rules. (The rules are in CLua.h.)
 *
 * Rules see plain-looking read-only tables: `stacks` (the array of stacks), each stack's view
 * `{ id, index, presentation, routes }`, and `routes` (the stack's routes, root first). Nothing
 * is copied into Lua up front: the number of stacks and the front-most stack's length come with
 * each decision; a stack's id, presentation and other lengths, and every route, are asked from
 * Swift (the prelude's `stackInfo` and `routeAt`) when a rule reads them.
 *
 * The proxies' state is C memory, not table fields: each metamethod is a C closure whose first
 * upvalue is a userdata holding it, so `#stacks` and `#stack.routes` are a few loads, not hashed
 * table lookups. `stacks[i]` is a table read: the proxy's __index is the table of the views made
 * so far (a C function makes a view on its first read). The synchronous decisions share one
 * `stacks` proxy whose views live on from decision to decision: decide bumps the state's serial
 * (a view read in a new decision forgets its cached length and id, clua_view_refresh) and drops
 * the views of stacks that are gone (clua_stacks_setcount). Async decisions, which may be
 * suspended while others run, get their own proxy.
 *
 * These functions only ever run called by Lua (as metamethods, or from the prelude while it
 * loads), never from a Swift frame, so raising (out of memory, or an error from the Swift
 * helpers they call) is allowed. */
#include "clua_engine.h"

/** The state of a `stacks` proxy (a userdata whose user value is the table of its views). */
typedef struct {
    lua_Integer snap;    /* which stacks in Swift (0: the synchronous decisions') */
    lua_Integer count;   /* the number of stacks */
    lua_Integer front;   /* the front-most stack's number of screens */
    lua_Integer serial;  /* the decision being run (views refresh when it changes) */
    lua_Integer made;    /* views exist for stacks 1 to made at most */
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

/** Positions in the kit list (the upvalue of makeStacks), which stackKit makes from the table
 *  the prelude hands it by name (clua_stacks_kit). */
enum {
    CLUA_SK_READONLY = 1, /* function raising "stacks are read-only" (the __newindex) */
    CLUA_SK_PAIRS,        /* the __pairs of `stacks` and `routes` (i = 1, 2, ... until nil) */
    CLUA_SK_STACKINFO,    /* function stackInfo(snap, stack, lengthOnly) (Swift) */
    CLUA_SK_ROUTEAT,      /* function routeAt(snap, stack, position) (Swift) */
    CLUA_SK_LAST = CLUA_SK_ROUTEAT
};

/** The names of the kit's entries in the prelude's `stackKit({ readOnly = ..., ... })`. */
static const clua_named clua_stacks_kit[CLUA_SK_LAST + 1] = {
    [CLUA_SK_READONLY] = { "readOnly", LUA_TFUNCTION },
    [CLUA_SK_PAIRS] = { "pairs", LUA_TFUNCTION },
    [CLUA_SK_STACKINFO] = { "stackInfo", LUA_TFUNCTION },
    [CLUA_SK_ROUTEAT] = { "routeAt", LUA_TFUNCTION },
};

/** Brings a view up to the decision being run: a view read in a new decision forgets its cached
 *  length (the decision's own for the front-most stack, asked again otherwise); its id and
 *  presentation are asked again (info_serial). */
static void clua_view_refresh(clua_view_state *v, const clua_stacks_state *s) {
    if (v->serial == s->serial) return;
    v->serial = s->serial;
    v->len = v->stack == s->count ? s->front : -1;
}

/** A 1-based index from a key as `math.tointeger` reads it; 0 when it is not one. */
static lua_Integer clua_sk_index(lua_State *L, int idx) {
    int valid = 0;
    lua_Integer i = lua_tointegerx(L, idx, &valid);
    return valid && i >= 1 ? i : 0;
}

/** Sets field `name` of the table on top to kit[key]. */
static void clua_sk_setkit(lua_State *L, int kit, const char *name, int key) {
    lua_rawgeti(L, kit, key);
    lua_setfield(L, -2, name);
}

/** Protects the metatable on top: `getmetatable` returns "read-only", and `setmetatable` and
 *  `rawset` refuse the proxy (clua_sandbox.c reads `__readonly`), so no rule can take a shared
 *  proxy apart, or fill it, for the decisions after it. */
static void clua_sk_protect(lua_State *L) {
    lua_pushliteral(L, "read-only");
    lua_setfield(L, -2, "__metatable");
    lua_pushliteral(L, "stacks");
    lua_setfield(L, -2, "__readonly");
}

/** Sets field `name` of the table on top to a C closure of `fn` over the `n` values below it. */
static void clua_sk_setclosure(lua_State *L, const char *name, lua_CFunction fn, int n) {
    lua_pushcclosure(L, fn, n);
    lua_setfield(L, -2, name);
}

/** routes.__len (upvalue 1: the view state, 2: stackInfo, 3: the stacks state): the stack's
 *  number of screens, asked from Swift once per decision unless decide passed it (the front-most
 *  stack). */
static int clua_routes_len(lua_State *L) {
    clua_view_state *v = (clua_view_state *)lua_touserdata(L, lua_upvalueindex(1));
    clua_view_refresh(v, (const clua_stacks_state *)lua_touserdata(L, lua_upvalueindex(3)));
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
    if (lua_type(L, -1) == LUA_TTABLE) clua_freeze(L, -1, "stacks route", 0, 0);
    return 1;
}

/** A view's fields' __index (upvalue 1: the view state, 2: stackInfo, 3: "id",
 *  4: "presentation", 5: the stacks state): the stack's id and presentation, asked from Swift
 *  once per decision. */
static int clua_fields_index(lua_State *L) {
    int slot = lua_rawequal(L, 2, lua_upvalueindex(3)) ? 1 : lua_rawequal(L, 2, lua_upvalueindex(4)) ? 2 : 0;
    if (slot == 0) return 0;
    clua_view_state *v = (clua_view_state *)lua_touserdata(L, lua_upvalueindex(1));
    clua_view_refresh(v, (const clua_stacks_state *)lua_touserdata(L, lua_upvalueindex(5)));
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
int clua_view_next(lua_State *L) {
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

/** Makes the view of stack `i` of the stacks whose state is at `sst` (absolute or pseudo
 *  index): pushes the view, then its state (a userdata). `kit` is an absolute or pseudo index. */
static void clua_stacks_makeview(lua_State *L, int sst, lua_Integer i, int kit) {
    const clua_stacks_state *s = (const clua_stacks_state *)lua_touserdata(L, sst);
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
    lua_pushvalue(L, sst);
    clua_sk_setclosure(L, "__len", clua_routes_len, 3);
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
    lua_pushvalue(L, sst);
    clua_sk_setclosure(L, "__index", clua_fields_index, 5);
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

/** The views table's __index(views, i) (upvalue 1: the stacks state, 2: the kit): makes the view
 *  of stack i on its first read and keeps it in the table, so later reads of `stacks[i]` are
 *  table reads; nil past the last stack. (The view's metamethods are closures over its state.) */
static int clua_views_index(lua_State *L) {
    lua_Integer i = clua_sk_index(L, 2);
    clua_stacks_state *s = (clua_stacks_state *)lua_touserdata(L, lua_upvalueindex(1));
    if (i == 0 || i > s->count) return 0;
    clua_stacks_makeview(L, lua_upvalueindex(1), i, lua_upvalueindex(2)); /* view, state */
    lua_pop(L, 1);
    lua_pushvalue(L, -1);
    lua_rawseti(L, 1, i);
    if (i > s->made) s->made = i;
    return 1;
}

/** Sets the number of stacks of the proxy whose state is at `sst` (absolute or pseudo index),
 *  for a new decision: its views refresh on their next read, and the views of stacks past the
 *  new count are dropped (`stacks[i]` reads nil there). */
void clua_stacks_setcount(lua_State *L, int sst, lua_Integer count, lua_Integer front) {
    clua_stacks_state *s = (clua_stacks_state *)lua_touserdata(L, sst);
    s->serial++;
    s->count = count;
    s->front = front;
    if (s->made <= count) return;
    lua_getiuservalue(L, sst, 1);
    for (lua_Integer i = count + 1; i <= s->made; i++) {
        lua_pushnil(L);
        lua_rawseti(L, -2, i);
    }
    lua_pop(L, 1);
    s->made = count;
}

/** makeStacks(snap, count, front) (upvalue 1: the kit): a new `stacks` proxy, and its state
 *  (a userdata: decide updates the synchronous decisions' proxy through it). */
static int clua_makestacks_fn(lua_State *L) {
    clua_stacks_state *s = (clua_stacks_state *)lua_newuserdatauv(L, sizeof(clua_stacks_state), 1);
    s->snap = luaL_checkinteger(L, 1);
    s->count = luaL_checkinteger(L, 2);
    s->front = luaL_checkinteger(L, 3);
    s->serial = 0;
    s->made = 0;
    int state = lua_gettop(L);
    lua_createtable(L, 8, 0);                               /* the views */
    lua_createtable(L, 0, 1);
    lua_pushvalue(L, state);
    lua_pushvalue(L, lua_upvalueindex(1));
    clua_sk_setclosure(L, "__index", clua_views_index, 2);
    lua_setmetatable(L, -2);
    lua_pushvalue(L, -1);
    lua_setiuservalue(L, state, 1);
    int views = lua_gettop(L);
    lua_createtable(L, 0, 0);                               /* the proxy */
    lua_createtable(L, 0, 4);
    lua_pushvalue(L, views);
    lua_setfield(L, -2, "__index");
    lua_pushvalue(L, state);
    clua_sk_setclosure(L, "__len", clua_stacks_len, 1);
    clua_sk_setkit(L, lua_upvalueindex(1), "__newindex", CLUA_SK_READONLY);
    clua_sk_setkit(L, lua_upvalueindex(1), "__pairs", CLUA_SK_PAIRS);
    clua_sk_protect(L);
    lua_setmetatable(L, -2);
    lua_pushvalue(L, state);
    return 2;
}

/** stackKit(kit): the makeStacks function bound to the prelude's kit, a table by name
 *  (clua_stacks_kit), kept as a list in CLUA_SK_* order. */
static int clua_stackkit_fn(lua_State *L) {
    lua_settop(L, 1);
    clua_named_push(L, 1, clua_stacks_kit, CLUA_SK_READONLY, CLUA_SK_LAST, "stackKit");
    lua_createtable(L, CLUA_SK_LAST, 0);
    lua_insert(L, 2);
    for (int k = CLUA_SK_LAST; k >= CLUA_SK_READONLY; k--) lua_rawseti(L, 2, k);
    lua_pushcclosure(L, clua_makestacks_fn, 1);
    return 1;
}

void clua_pushstackkit(lua_State *L) { lua_pushcfunction(L, clua_stackkit_fn); }
