/* FlowScript's C boundary: the rules prelude's `decide`, the loop that runs a decision's
 * default preconditions and guards. The rules are in CLua.h.
 *
 * Why C: every VM instruction runs under the instruction-budget count hook, which costs about
 * as much as the instruction itself. Written in Lua, the loop (setting the operation's fields,
 * walking the rule lists, telling "returned nothing" from "returned nil") cost more traced
 * instructions than the rules it ran. Here only the rules' own code is traced.
 *
 * Semantics are the prelude's (spec "Decisions"): rules run in order; nothing or `true`
 * allows (the next rule decides); `false`/`nil` (and a reason) blocks; a `flow.redirect(...)`
 * value redirects; anything else is an error naming the rule's `file:line`.
 *
 * Rules are called with lua_callk: an async host function may yield from inside a rule (the
 * decision then runs in a coroutine, see LuaVM+Async.swift), and clua_decide_k carries the loop
 * on when it is resumed. The function only ever runs called by Lua (the prelude's decide,
 * entered through lua_pcall or lua_resume), never from a Swift frame, so raising is allowed. */
#include "clua_engine.h"

static int clua_decide_k(lua_State *L, int status, lua_KContext kc);

/* A rule list holds the rules' functions at 1..n, in order, and their entries (the prelude's
 * `{ fn = ..., order = ..., where = "file:line" }`) in the field `entries`: the loop reads
 * a function with one lookup and looks at an entry only to report a verdict or an error.
 *
 * The rule running now is its list (the decide closure's upvalue CLUA_DU_RUNLIST, written when
 * a list starts) and its position (the VM context's running_rule, written before each rule, 0
 * once the decision is over): see clua_running.c. */

/* The decide function's stack: its 6 arguments, then these slots; a rule's results come above. */
enum {
    CLUA_DS_ROUTE = 1, CLUA_DS_ROUTES = 2, CLUA_DS_DIALOG = 3,
    CLUA_DS_TAB = 4,      /* op.tab: the tab a selectTab selects, or nil */
    CLUA_DS_CTXTAB = 5,   /* ctx.tab: the selected tab, or nil (a router without tabs) */
    CLUA_DS_CTXTABS = 6,  /* ctx.tabs: every tab and its stack, or nil (a router without tabs) */
    CLUA_DS_ARGS = CLUA_DS_CTXTABS,
    CLUA_DS_OP = 7,       /* the `op` argument of rules */
    CLUA_DS_STACKS,       /* the `stacks` argument */
    CLUA_DS_CTX,          /* the `ctx` argument */
    CLUA_DS_LIST,         /* the rule list being run */
    CLUA_DS_SEEN,         /* route names whose guards ran (phase CLUA_DP_ROUTES) */
    CLUA_DS_ROUTEINDEX,   /* the position in `routes` (phase CLUA_DP_ROUTES) */
    CLUA_DS_ROUTECOUNT,   /* `#routes` when the phase began, as a Lua `for` reads it once */
    CLUA_DS_TOP = CLUA_DS_ROUTECOUNT
};

/* The phases of a decision: the default preconditions, the guards of `route`, the guards of
 * each of `routes` whose name's guards have not run yet. */
enum { CLUA_DP_DEFAULTS = 0, CLUA_DP_ROUTE = 1, CLUA_DP_ROUTES = 2, CLUA_DP_DONE = 3 };

/* The decide closure's upvalues, in order: every position is a name of this one list (an
 * upvalue is read without a table lookup; none but RUNLIST changes after decider made them). */
enum {
    CLUA_DU_ARGS = 1,     /* the clua_decision userdata Swift writes a decision's scalars into */
    /* The prelude's state, handed to decider by name (clua_decide_state): */
    CLUA_DU_KINDS,        /* the operation kinds, by index (Swift's FlowRulesEngineKinds.names) */
    CLUA_DU_SOURCES,      /* the operation sources, by index (Swift's FlowDecisionScalars.sourceIndex) */
    CLUA_DU_DEFAULTS,     /* kind index -> the rule list of its default preconditions */
    CLUA_DU_GUARDS,       /* route name -> the rule list of its guards */
    CLUA_DU_SYNCSTACKS,   /* the `stacks` proxy synchronous decisions share */
    CLUA_DU_MAKESTACKS,   /* function makeStacks(snap, count, front) -> a new stacks proxy, its state */
    CLUA_DU_REDIRECT,     /* the metatable of flow.redirect(...) values */
    CLUA_DU_SYNCSTATE,    /* the state of the shared `stacks` proxy (clua_stacks_state) */
    /* Made by decider: */
    CLUA_DU_SYNCOP,       /* the `op` proxy synchronous decisions share */
    CLUA_DU_SYNCCTX,      /* the `ctx` proxy synchronous decisions share */
    CLUA_DU_SYNCOPSTATE,  /* the state of the shared `op` and `ctx` (clua_op.c) */
    /* The field names decide reads, made once (lua_getfield would look each name up in Lua's
     * string cache with a strcmp on every call), clua_decide_names: */
    CLUA_DN_KIND, CLUA_DN_ROUTE, CLUA_DN_WHERE, CLUA_DN_NAME, CLUA_DN_REASON, CLUA_DN_ENTRIES,
    CLUA_DU_RUNLIST,      /* the rule list being run (or run last) */
    CLUA_DU_LAST = CLUA_DU_RUNLIST
};

#define CLUA_DU_PUSH(up) lua_pushvalue(L, lua_upvalueindex(up))

/** The names (and types) of the prelude's state in `decider({ kinds = KINDS, ... })`, by upvalue. */
static const clua_named clua_decide_state[CLUA_DU_SYNCSTATE + 1] = {
    [CLUA_DU_KINDS] = { "kinds", LUA_TTABLE },
    [CLUA_DU_SOURCES] = { "sources", LUA_TTABLE },
    [CLUA_DU_DEFAULTS] = { "defaults", LUA_TTABLE },
    [CLUA_DU_GUARDS] = { "guards", LUA_TTABLE },
    [CLUA_DU_SYNCSTACKS] = { "syncStacks", LUA_TTABLE },
    [CLUA_DU_MAKESTACKS] = { "makeStacks", LUA_TFUNCTION },
    [CLUA_DU_REDIRECT] = { "redirect", LUA_TTABLE },
    [CLUA_DU_SYNCSTATE] = { "syncState", LUA_TUSERDATA },
};

/** The names of the CLUA_DN_ upvalues, by upvalue. */
static const char *const clua_decide_names[CLUA_DN_ENTRIES + 1] = {
    [CLUA_DN_KIND] = "kind", [CLUA_DN_ROUTE] = "route", [CLUA_DN_WHERE] = "where", [CLUA_DN_NAME] = "name",
    [CLUA_DN_REASON] = "reason", [CLUA_DN_ENTRIES] = "entries",
};

/* A rule suspended in an async host function carries its place through lua_callk's context:
 * its position in the list, shifted left by CLUA_DP_BITS, and the phase in the low bits. */
#define CLUA_DP_BITS 2

_Static_assert(CLUA_DP_DONE < (1 << CLUA_DP_BITS), "a decision's phase fits in CLUA_DP_BITS bits");

/** The lua_callk context of rule `i` of the current list of `phase`. */
static lua_KContext clua_decide_place(lua_Integer i, int phase) {
    return (lua_KContext)((i << CLUA_DP_BITS) | phase);
}

/** Pushes t[name] (raw; `t` an absolute index, `name` a CLUA_DN_ upvalue). */
static int clua_decide_get(lua_State *L, int t, int name) {
    lua_pushvalue(L, lua_upvalueindex(name));
    return lua_rawget(L, t);
}

/** Pushes the name of the route at `idx` (absolute): the value itself for a route passed by
 *  its name, else its `name` field (metamethods respected, as a rule's `route.name` would). */
static void clua_decide_routename(lua_State *L, int idx) {
    if (lua_type(L, idx) == LUA_TSTRING) {
        lua_pushvalue(L, idx);
        return;
    }
    lua_pushvalue(L, lua_upvalueindex(CLUA_DN_NAME));
    lua_gettable(L, idx);
}

/** tostring(v) for a block reason (run protected). */
static int clua_decide_tostring(lua_State *L) {
    luaL_tolstring(L, 1, NULL);
    return 1;
}

/** Returns decide's `n` results (on top), no rule running any more. */
static int clua_decide_done(lua_State *L, int n) {
    clua_getctx(L)->running_rule = 0;
    return n;
}

/** Pushes the `where` of rule `i` of the list at `list` (absolute), or nil. */
static void clua_decide_where(lua_State *L, int list, lua_Integer i) {
    int base = lua_gettop(L);
    clua_decide_get(L, list, CLUA_DN_ENTRIES);
    if (lua_type(L, -1) == LUA_TTABLE && lua_rawgeti(L, -1, i) == LUA_TTABLE) {
        clua_decide_get(L, lua_gettop(L), CLUA_DN_WHERE);
    } else {
        lua_pushnil(L);
    }
    lua_replace(L, base + 1);
    lua_settop(L, base + 1);
}

/** Reads the results rule `i` of the list in CLUA_DS_LIST left above CLUA_DS_TOP. Returns 0
 *  when the next rule decides (the results are popped), else the number of values pushed on
 *  top for decide to return: 1, stage, reason, where (block) or 2, stage, reason, where, kind,
 *  route, resume (redirect). */
static int clua_decide_verdict(lua_State *L, int phase, lua_Integer i) {
    int results = lua_gettop(L) - CLUA_DS_TOP;
    int first = CLUA_DS_TOP + 1;
    if (results == 0) return 0;
    int type = lua_type(L, first);
    if (type == LUA_TBOOLEAN && lua_toboolean(L, first)) {
        lua_settop(L, CLUA_DS_TOP);
        return 0;
    }
    luaL_checkstack(L, 10, "decide");
    const char *stage = phase == CLUA_DP_DEFAULTS ? "precondition" : "guard";
    if (type == LUA_TNIL || type == LUA_TBOOLEAN) {
        lua_settop(L, first + 1);                      /* the reason, or nil */
        int reason = first + 1;
        if (!lua_isnil(L, reason) && lua_type(L, reason) != LUA_TSTRING) {
            /* A __tostring that fails or returns a non-string: an error at the rule's line. */
            lua_pushcfunction(L, clua_decide_tostring);
            lua_pushvalue(L, reason);
            if (lua_pcall(L, 1, 1, 0) != LUA_OK) {
                const char *inner = lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : "(an error object)";
                clua_decide_where(L, CLUA_DS_LIST, i);
                lua_pushfstring(L, "%s: the reason this %s returned cannot be turned into text: %s",
                                lua_isnil(L, -1) ? "?" : lua_tostring(L, -1), stage, inner);
                return lua_error(L);
            }
            lua_replace(L, reason);
        }
        lua_pushinteger(L, 1);
        lua_pushstring(L, stage);
        lua_pushvalue(L, reason);
        clua_decide_where(L, CLUA_DS_LIST, i);
        return 4;
    }
    if (type == LUA_TTABLE && lua_getmetatable(L, first)) {
        CLUA_DU_PUSH(CLUA_DU_REDIRECT);
        int redirect = lua_rawequal(L, -1, -2);
        lua_pop(L, 2);
        if (redirect) {
            lua_pushinteger(L, 2);
            lua_pushstring(L, stage);
            clua_decide_get(L, first, CLUA_DN_REASON);
            clua_decide_where(L, CLUA_DS_LIST, i);
            clua_decide_get(L, first, CLUA_DN_KIND);
            clua_decide_get(L, first, CLUA_DN_ROUTE);
            /* { resume = true }: hold the refused navigation (rare: read by name). */
            lua_pushliteral(L, "resume");
            lua_rawget(L, first);
            return 7;
        }
    }
    clua_decide_where(L, CLUA_DS_LIST, i);
    lua_pushfstring(L, "%s: a %s must return nothing, true, false or nil (and a reason), or "
                    "flow.redirect(...); it returned a %s", lua_tostring(L, -1), stage, lua_typename(L, type));
    return lua_error(L);
}

/** Puts the rule list of `phase` (for phase CLUA_DP_ROUTES: of routes[j]) in CLUA_DS_LIST;
 *  returns 0 when there is none. The first phase is only ever asked on entry, with the
 *  decision's arguments `d`. */
static int clua_decide_list(lua_State *L, int phase, lua_Integer j, const clua_decision *d) {
    switch (phase) {
    case CLUA_DP_DEFAULTS:
        if (!d->run_defaults) return 0;
        lua_rawgeti(L, lua_upvalueindex(CLUA_DU_DEFAULTS), d->kind);
        break;
    case CLUA_DP_ROUTE:
        if (!lua_toboolean(L, CLUA_DS_ROUTE)) return 0;
        clua_decide_routename(L, CLUA_DS_ROUTE);
        lua_rawget(L, lua_upvalueindex(CLUA_DU_GUARDS));
        break;
    default:
        /* the guards of routes[j]'s name, unless they ran already */
        lua_geti(L, CLUA_DS_ROUTES, j);
        clua_decide_routename(L, lua_gettop(L));
        lua_pushvalue(L, -1);
        if (lua_rawget(L, CLUA_DS_SEEN) != LUA_TNIL) {
            lua_settop(L, CLUA_DS_TOP);
            return 0;
        }
        lua_pop(L, 1);
        lua_pushvalue(L, -1);
        lua_pushboolean(L, 1);
        lua_rawset(L, CLUA_DS_SEEN);
        lua_rawget(L, lua_upvalueindex(CLUA_DU_GUARDS));
        break;
    }
    /* (An empty list counts as found: the loop's first read of it ends it.) */
    int found = lua_type(L, -1) == LUA_TTABLE;
    if (found) lua_copy(L, -1, lua_upvalueindex(CLUA_DU_RUNLIST));
    lua_replace(L, CLUA_DS_LIST);
    if (lua_gettop(L) != CLUA_DS_TOP) lua_settop(L, CLUA_DS_TOP);
    return found;
}

/** Finds the next list with rules after the current one of `*phase`; 0 when the decision is
 *  done. */
static int clua_decide_next_list(lua_State *L, int *phase) {
    for (;;) {
        lua_Integer j = 0;
        if (*phase == CLUA_DP_ROUTES) {
            j = lua_tointeger(L, CLUA_DS_ROUTEINDEX) + 1;
        } else {
            *phase += 1;
            if (*phase == CLUA_DP_ROUTES) {
                if (!lua_toboolean(L, CLUA_DS_ROUTES)) return 0;
                lua_createtable(L, 0, 4);
                if (lua_toboolean(L, CLUA_DS_ROUTE)) {
                    clua_decide_routename(L, CLUA_DS_ROUTE);
                    lua_pushboolean(L, 1);
                    lua_rawset(L, -3);
                }
                lua_replace(L, CLUA_DS_SEEN);
                lua_pushinteger(L, luaL_len(L, CLUA_DS_ROUTES));
                lua_replace(L, CLUA_DS_ROUTECOUNT);
                j = 1;
            }
        }
        if (*phase == CLUA_DP_ROUTES) {
            if (j > lua_tointeger(L, CLUA_DS_ROUTECOUNT)) return 0;
            lua_pushinteger(L, j);
            lua_replace(L, CLUA_DS_ROUTEINDEX);
        }
        if (clua_decide_list(L, *phase, j, NULL)) return 1;
    }
}

/** Runs the rules of the current list of `phase` from rule `i` on, then the later lists;
 *  returns decide's results. */
static int clua_decide_run(lua_State *L, int phase, lua_Integer i) {
    clua_ctx *c = clua_getctx(L);
    for (;;) {
        if (lua_rawgeti(L, CLUA_DS_LIST, i) != LUA_TFUNCTION) {
            lua_settop(L, CLUA_DS_TOP);
            if (!clua_decide_next_list(L, &phase)) {
                lua_pushinteger(L, 0);
                return clua_decide_done(L, 1);
            }
            i = 1;
            continue;
        }
        c->running_rule = i;
        lua_pushvalue(L, CLUA_DS_OP);
        lua_pushvalue(L, CLUA_DS_STACKS);
        lua_pushvalue(L, CLUA_DS_CTX);
        lua_KContext kc = clua_decide_place(i, phase);
        lua_callk(L, 3, LUA_MULTRET, kc, clua_decide_k);
        int verdict = clua_decide_verdict(L, phase, i);
        if (verdict) return clua_decide_done(L, verdict);
        i++;
    }
}

/** Carries a decision on after a rule that yielded (an async host function) returned. */
static int clua_decide_k(lua_State *L, int status, lua_KContext kc) {
    (void)status;
    int phase = (int)(kc & ((1 << CLUA_DP_BITS) - 1));
    lua_Integer i = (lua_Integer)(kc >> CLUA_DP_BITS);
    /* Other decisions may have run while this one was suspended: this rule is running again. */
    lua_copy(L, CLUA_DS_LIST, lua_upvalueindex(CLUA_DU_RUNLIST));
    clua_getctx(L)->running_rule = i;
    int verdict = clua_decide_verdict(L, phase, i);
    if (verdict) return clua_decide_done(L, verdict);
    return clua_decide_run(L, phase, i + 1);
}

/** decide(route, routes, dialog, tab, ctxTab, ctxTabs): the verdict of one navigation, as the prelude documents it;
 *  the other arguments are in the clua_decision of upvalue CLUA_DU_ARGS; the prelude's state
 *  is in the upvalues after it (CLUA_DU_*). */
static int clua_decide_fn(lua_State *L) {
    clua_decision d = *(const clua_decision *)lua_touserdata(L, lua_upvalueindex(CLUA_DU_ARGS));
    clua_getctx(L)->running_rule = 0;
    if (lua_gettop(L) != CLUA_DS_ARGS) lua_settop(L, CLUA_DS_ARGS);
    luaL_checkstack(L, 12, "decide");
    if (d.is_async) {
        /* A decision that may be suspended while others run: its own op, ctx and stacks. */
        CLUA_DU_PUSH(CLUA_DU_KINDS);
        CLUA_DU_PUSH(CLUA_DU_SOURCES);
        clua_op_make(L, -2, -1);                                    /* kinds, sources, op, ctx, state */
        clua_op_set(L, lua_gettop(L), &d, CLUA_DS_ROUTE, CLUA_DS_ROUTES, CLUA_DS_DIALOG, CLUA_DS_TAB, CLUA_DS_CTXTAB,
                    CLUA_DS_CTXTABS);
        lua_pop(L, 1);
        CLUA_DU_PUSH(CLUA_DU_MAKESTACKS);
        lua_pushinteger(L, d.snap);
        lua_pushinteger(L, d.stack_count);
        lua_pushinteger(L, d.front);
        lua_call(L, 3, 1);                                          /* kinds, sources, op, ctx, stacks */
        lua_insert(L, -2);                                          /* kinds, sources, op, stacks, ctx */
        lua_remove(L, CLUA_DS_ARGS + 1);
        lua_remove(L, CLUA_DS_ARGS + 1);
    } else {
        CLUA_DU_PUSH(CLUA_DU_SYNCOP);
        CLUA_DU_PUSH(CLUA_DU_SYNCSTACKS);
        CLUA_DU_PUSH(CLUA_DU_SYNCCTX);
        clua_op_set(L, lua_upvalueindex(CLUA_DU_SYNCOPSTATE), &d, CLUA_DS_ROUTE, CLUA_DS_ROUTES, CLUA_DS_DIALOG,
                    CLUA_DS_TAB, CLUA_DS_CTXTAB, CLUA_DS_CTXTABS);
        /* A new decision for the shared stacks proxy: its views refresh on first read. */
        clua_stacks_setcount(L, lua_upvalueindex(CLUA_DU_SYNCSTATE), d.stack_count, d.front);
    }
    lua_settop(L, CLUA_DS_TOP);
    int phase = CLUA_DP_DEFAULTS;
    if (!clua_decide_list(L, phase, 0, &d) && !clua_decide_next_list(L, &phase)) {
        lua_pushinteger(L, 0);
        return 1;
    }
    return clua_decide_run(L, phase, 1);
}

/** decider(state): the decide function bound to the prelude's state, a table by name
 *  (clua_decide_state: a name missing, mistyped or unknown is an error naming it), and
 *  running() (see clua_running_fn). */
static int clua_decider_fn(lua_State *L) {
    lua_settop(L, 1);
    clua_decision *d = (clua_decision *)lua_newuserdatauv(L, sizeof(clua_decision), 0);
    memset(d, 0, sizeof(clua_decision));                                    /* CLUA_DU_ARGS */
    clua_named_push(L, 1, clua_decide_state, CLUA_DU_KINDS, CLUA_DU_SYNCSTATE, "decider");
    luaL_checkstack(L, CLUA_DU_LAST, "decider");
    clua_op_make(L, 1 + CLUA_DU_KINDS, 1 + CLUA_DU_SOURCES);                /* CLUA_DU_SYNCOP, SYNCCTX, SYNCOPSTATE */
    for (int k = CLUA_DN_KIND; k <= CLUA_DN_ENTRIES; k++) lua_pushstring(L, clua_decide_names[k]);
    lua_pushnil(L);                                                         /* CLUA_DU_RUNLIST */
    if (lua_gettop(L) != 1 + CLUA_DU_LAST) return luaL_error(L, "decider: %d upvalues made, %d expected", lua_gettop(L) - 1, CLUA_DU_LAST);
    lua_pushcclosure(L, clua_decide_fn, CLUA_DU_LAST);
    clua_ctx *c = clua_getctx(L);
    lua_pushvalue(L, -1);
    int ref = luaL_ref(L, LUA_REGISTRYINDEX);
    if (c->decide_ref > 0) luaL_unref(L, LUA_REGISTRYINDEX, c->decide_ref);
    c->decide_ref = ref;
    c->runlist_upvalue = CLUA_DU_RUNLIST;
    lua_pushvalue(L, -1);
    lua_pushcclosure(L, clua_running_fn, 1);
    return 2;
}

void clua_pushdecider(lua_State *L) { lua_pushcfunction(L, clua_decider_fn); }

clua_decision *clua_decision_args(lua_State *L) {
    /* Recognised by identity: the decide closure decider made last in this VM (its registry
     * reference is in the context), which is also what the rules engine calls. */
    clua_ctx *c = clua_getctx(L);
    if (c->decide_ref <= 0 || lua_type(L, -1) != LUA_TFUNCTION) return NULL;
    lua_rawgeti(L, LUA_REGISTRYINDEX, c->decide_ref);
    int same = lua_rawequal(L, -1, -2);
    lua_pop(L, 1);
    if (!same || lua_getupvalue(L, -1, CLUA_DU_ARGS) == NULL) return NULL;
    clua_decision *d = (clua_decision *)lua_touserdata(L, -1);
    lua_pop(L, 1);
    return d;
}
