/* FlowScript's C boundary: the `op` and `ctx` arguments of rules.
 * (The rules are in CLua.h.)
 *
 * Rules see plain-looking read-only tables (spec §1 "op", §2 "Decisions"):
 *   op  = { kind, route, routes, count, target, source, async, tab }
 *   ctx = { dialog, queuedDialogs, generation, tab }
 * Both are empty proxies over one state userdata (a clua_op_state: the decision's scalars and what
 * is set or frozen in it) and,
 * as user values, the route, the routes, the dialog and ctx's fields. `op`'s metamethods are C
 * closures over that state, so a decision sets no field of it: fields are made when a rule reads
 * them, and a route without parameters arrives as its name and becomes `{ name = ... }` on the
 * first read of `op.route` in a decision. `ctx` reads a hidden plain table of its fields (a
 * read is a table lookup, not a call), which decide writes only when a value changed: no rule
 * can write it, so what it holds is always what decide last wrote. The synchronous decisions
 * share one `op` and one `ctx`; decide copies each new decision into their state
 * (clua_op_set).
 *
 * Writing to either, with `t.k = v` or `rawset`, is an error ("op is read-only"); `pairs` walks
 * a copy of the fields; the metatables are protected (`getmetatable` returns "read-only").
 *
 * These functions only ever run called by Lua (as metamethods, or from decide), never from a
 * Swift frame, so raising (out of memory, the read-only error) is allowed. */
#include "clua_engine.h"

/* The user values of an op state: the route (nil, its name, or its table), the routes (nil or
 * a table of route tables), the dialog (nil or its id), ctx's fields (a plain table), op.tab
 * and ctx.tab (nil or a tab's name). ctx.tabs lives in ctx's fields only. */
enum {
    CLUA_OU_ROUTE = 1, CLUA_OU_ROUTES = 2, CLUA_OU_DIALOG = 3, CLUA_OU_CTX = 4, CLUA_OU_TAB = 5, CLUA_OU_CTXTAB = 6,
    CLUA_OU_COUNT = 6
};

/* The fields of op, 1-based, in the order pairs walks them. */
enum {
    CLUA_OF_KIND = 1, CLUA_OF_ROUTE, CLUA_OF_ROUTES, CLUA_OF_COUNT, CLUA_OF_TARGET, CLUA_OF_SOURCE, CLUA_OF_ASYNC,
    CLUA_OF_TAB, CLUA_OF_LAST = CLUA_OF_TAB
};

static const char *const clua_op_names[] = { "kind", "route", "routes", "count", "target", "source", "async", "tab" };

_Static_assert(sizeof(clua_op_names) / sizeof(clua_op_names[0]) == CLUA_OF_LAST, "one name per CLUA_OF_ field");

/** The 1-based position of the string key at `idx` among `n` names; 0 for any other key. */
static int clua_op_field(lua_State *L, int idx, const char *const *names, int n) {
    if (lua_type(L, idx) != LUA_TSTRING) return 0;
    size_t len = 0;
    const char *key = lua_tolstring(L, idx, &len);
    for (int i = 0; i < n; i++) {
        if (names[i][0] == key[0] && strlen(names[i]) == len && memcmp(names[i], key, len) == 0) return i + 1;
    }
    return 0;
}

/** Pushes op.route of the state at `st`: the route's table, made from its name on first read;
 *  nil when the operation has none. */
static void clua_op_pushroute(lua_State *L, int st) {
    clua_op_state *d = (clua_op_state *)lua_touserdata(L, st);
    if (!d->has_route) {
        lua_pushnil(L);
        return;
    }
    int type = lua_getiuservalue(L, st, CLUA_OU_ROUTE);
    if (d->route_frozen) return;
    if (type == LUA_TSTRING) {
        lua_createtable(L, 0, 1);
        lua_pushvalue(L, -2);
        lua_setfield(L, -2, "name");
        lua_replace(L, -2);
        lua_pushvalue(L, -1);
        lua_setiuservalue(L, st, CLUA_OU_ROUTE);
    }
    if (lua_type(L, -1) == LUA_TTABLE) clua_freeze(L, -1, "op.route", 0, 0);
    d->route_frozen = 1;
}

/** Pushes op.routes of the state at `st`, frozen on first read (nil when there are none). */
static void clua_op_pushroutes(lua_State *L, int st) {
    clua_op_state *d = (clua_op_state *)lua_touserdata(L, st);
    if (!d->has_routes) {
        lua_pushnil(L);
        return;
    }
    lua_getiuservalue(L, st, CLUA_OU_ROUTES);
    if (!d->routes_frozen && lua_type(L, -1) == LUA_TTABLE) clua_freeze(L, -1, "op.routes", 0, 0);
    d->routes_frozen = 1;
}

/** Pushes field `f` (CLUA_OF_*) of the op whose state is at `st`; `kinds` and `sources` hold the
 *  prelude's KINDS and SOURCES (all acceptable indices, pseudo-indices included). */
static void clua_op_push(lua_State *L, int st, int kinds, int sources, int f) {
    const clua_op_state *s = (const clua_op_state *)lua_touserdata(L, st);
    const clua_decision *d = &s->d;
    switch (f) {
    case CLUA_OF_KIND: lua_rawgeti(L, kinds, d->kind); break;
    case CLUA_OF_ROUTE: clua_op_pushroute(L, st); break;
    case CLUA_OF_ROUTES: clua_op_pushroutes(L, st); break;
    case CLUA_OF_COUNT: if (d->has_count) lua_pushinteger(L, d->count); else lua_pushnil(L); break;
    case CLUA_OF_TARGET: if (d->has_target) lua_pushinteger(L, d->target); else lua_pushnil(L); break;
    case CLUA_OF_SOURCE: lua_rawgeti(L, sources, d->source); break;
    case CLUA_OF_TAB: if (s->has_tab) lua_getiuservalue(L, st, CLUA_OU_TAB); else lua_pushnil(L); break;
    default: lua_pushboolean(L, d->is_async); break;
    }
}

/** op.__index(t, k) (upvalues: 1 the state, 2 KINDS, 3 SOURCES). */
static int clua_op_index(lua_State *L) {
    int f = clua_op_field(L, 2, clua_op_names, CLUA_OF_LAST);
    if (f == 0) return 0;
    clua_op_push(L, lua_upvalueindex(1), lua_upvalueindex(2), lua_upvalueindex(3), f);
    return 1;
}

/** __newindex of op and ctx (upvalue 1: "op" or "ctx"). */
static int clua_op_newindex(lua_State *L) {
    return clua_raisef_kinded(L, CLUA_KIND_READ_ONLY, "%s is read-only (cannot assign '%s'); rules navigate only "
                              "through flow.redirect", lua_tostring(L, lua_upvalueindex(1)), clua_keyname(L, 2));
}

/** op.__pairs (upvalues as clua_op_index): iterates a copy of the fields that are set. */
static int clua_op_pairs(lua_State *L) {
    lua_createtable(L, 0, CLUA_OF_LAST);
    for (int f = CLUA_OF_KIND; f <= CLUA_OF_LAST; f++) {
        clua_op_push(L, lua_upvalueindex(1), lua_upvalueindex(2), lua_upvalueindex(3), f);
        lua_setfield(L, -2, clua_op_names[f - 1]);
    }
    lua_pushcclosure(L, clua_view_next, 1);
    lua_pushnil(L);
    lua_pushnil(L);
    return 3;
}

/** Gives the empty table on top the read-only metatable of `name` (op or ctx): `pairs` is a
 *  closure over the `n` values on top of it (popped), and so is `index` unless it is NULL (the
 *  first of them is then the `__index` table). */
static void clua_op_seal(lua_State *L, const char *name, lua_CFunction index, lua_CFunction pairs, int n) {
    int proxy = lua_gettop(L) - n;
    int first = proxy + 1;
    lua_createtable(L, 0, 5);
    int mt = lua_gettop(L);
    if (index == NULL) {
        lua_pushvalue(L, first);
    } else {
        for (int k = 0; k < n; k++) lua_pushvalue(L, first + k);
        lua_pushcclosure(L, index, n);
    }
    lua_setfield(L, mt, "__index");
    for (int k = 0; k < n; k++) lua_pushvalue(L, first + k);
    lua_pushcclosure(L, pairs, n);
    lua_setfield(L, mt, "__pairs");
    lua_pushstring(L, name);
    lua_pushcclosure(L, clua_op_newindex, 1);
    lua_setfield(L, mt, "__newindex");
    lua_pushstring(L, name);
    lua_setfield(L, mt, "__readonly");      /* rawset refuses it (clua_sb_rawset) */
    lua_pushliteral(L, "read-only");
    lua_setfield(L, mt, "__metatable");     /* setmetatable cannot take the proxy apart */
    lua_setmetatable(L, proxy);
    lua_settop(L, proxy);
}

/** Pushes a new op, its ctx, then their state (a zeroed clua_op_state with CLUA_OU_COUNT user
 *  values, all nil). `kinds` and `sources` are the prelude's KINDS and SOURCES (any acceptable
 *  index). */
void clua_op_make(lua_State *L, int kinds, int sources) {
    kinds = lua_absindex(L, kinds);
    sources = lua_absindex(L, sources);
    luaL_checkstack(L, 10, "op");
    clua_op_state *d = (clua_op_state *)lua_newuserdatauv(L, sizeof(clua_op_state), CLUA_OU_COUNT);
    memset(d, 0, sizeof(clua_op_state));
    int st = lua_gettop(L);
    lua_createtable(L, 0, 0);
    lua_pushvalue(L, st);
    lua_pushvalue(L, kinds);
    lua_pushvalue(L, sources);
    clua_op_seal(L, "op", clua_op_index, clua_op_pairs, 3);
    lua_createtable(L, 0, 0);
    lua_createtable(L, 0, 3);                               /* ctx's fields, as the zeroed state says */
    lua_pushinteger(L, 0);
    lua_setfield(L, -2, "queuedDialogs");
    lua_pushinteger(L, 0);
    lua_setfield(L, -2, "generation");
    lua_pushvalue(L, -1);
    lua_setiuservalue(L, st, CLUA_OU_CTX);
    clua_op_seal(L, "ctx", NULL, clua_ro_pairs_fn, 1);   /* pairs: next over the fields, kept to itself */
    lua_pushvalue(L, st);
    lua_remove(L, st);
}

/** Whether the string-or-nil at `value` (absolute) is what the state at `st` holds in user value
 *  `uv` while `held` says one is set. */
static int clua_op_same(lua_State *L, int st, int uv, int held, int value) {
    int has = !lua_isnil(L, value);
    if (!has || !held) return !has && !held;
    lua_getiuservalue(L, st, uv);
    int same = lua_rawequal(L, -1, value);
    lua_pop(L, 1);
    return same;
}

/** Makes the state at `st` (absolute or pseudo index) hold decision `d` with the route, routes,
 *  dialog, op.tab, ctx.tab and ctx.tabs at absolute indices `route`, `routes`, `dialog`, `tab`,
 *  `ctx_tab`, `ctx_tabs`. ctx's fields are written only where they changed; ctx.tabs, a table
 *  made for each decision of a tabbed router (nil without tabs), is frozen here, at every depth. */
void clua_op_set(lua_State *L, int st, const clua_decision *d, int route, int routes, int dialog, int tab, int ctx_tab,
                 int ctx_tabs) {
    clua_op_state *s = (clua_op_state *)lua_touserdata(L, st);
    int queued = s->d.queued != d->queued;
    int generation = s->d.generation != d->generation;
    int has_dialog = !lua_isnil(L, dialog);
    int same_dialog = clua_op_same(L, st, CLUA_OU_DIALOG, s->has_dialog, dialog);
    /* A router without tabs (this decision and the last): the tab fields stay nil, unread. */
    int tabs = d->tabbed || s->d.tabbed;
    int has_ctx_tab = tabs && !lua_isnil(L, ctx_tab);
    int same_ctx_tab = !tabs || clua_op_same(L, st, CLUA_OU_CTXTAB, s->has_ctx_tab, ctx_tab);
    int has_ctx_tabs = tabs && !lua_isnil(L, ctx_tabs);
    int tabs_changed = has_ctx_tabs || s->has_ctx_tabs;
    s->d = *d;
    s->route_frozen = 0;
    s->routes_frozen = 0;
    s->has_ctx_tabs = has_ctx_tabs;
    s->has_dialog = has_dialog;
    s->has_ctx_tab = has_ctx_tab;
    s->has_tab = tabs && !lua_isnil(L, tab);
    if (s->has_tab) {
        lua_pushvalue(L, tab);
        lua_setiuservalue(L, st, CLUA_OU_TAB);
    }
    s->has_route = !lua_isnil(L, route);
    s->has_routes = !lua_isnil(L, routes);
    if (s->has_route) {
        lua_pushvalue(L, route);
        lua_setiuservalue(L, st, CLUA_OU_ROUTE);
    }
    if (s->has_routes) {
        lua_pushvalue(L, routes);
        lua_setiuservalue(L, st, CLUA_OU_ROUTES);
    }
    if (queued || generation || !same_dialog || !same_ctx_tab || tabs_changed) {
        lua_getiuservalue(L, st, CLUA_OU_CTX);
        if (tabs_changed) {
            if (has_ctx_tabs) clua_freeze(L, ctx_tabs, "ctx.tabs", 0, 0);
            lua_pushvalue(L, ctx_tabs);
            lua_setfield(L, -2, "tabs");
        }
        if (!same_ctx_tab) {
            lua_pushvalue(L, ctx_tab);
            lua_setiuservalue(L, st, CLUA_OU_CTXTAB);
            lua_pushvalue(L, ctx_tab);
            lua_setfield(L, -2, "tab");
        }
        if (!same_dialog) {
            lua_pushvalue(L, dialog);
            lua_setiuservalue(L, st, CLUA_OU_DIALOG);
            lua_pushvalue(L, dialog);
            lua_setfield(L, -2, "dialog");
        }
        if (queued) {
            lua_pushinteger(L, d->queued);
            lua_setfield(L, -2, "queuedDialogs");
        }
        if (generation) {
            lua_pushinteger(L, d->generation);
            lua_setfield(L, -2, "generation");
        }
        lua_pop(L, 1);
    }
}
