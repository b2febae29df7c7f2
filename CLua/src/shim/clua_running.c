/* FlowScript's C boundary: which rule is running, for errors whose own location is lost (a tail
 * call such as `return flow.redirect(...)` removes the rule's frame; memory errors carry no
 * location). (The rules are in CLua.h.)
 *
 * A decision's running rule is its rule list (an upvalue of the decide closure, written once per
 * list, at the context's runlist_upvalue) and its position in it (the context's running_rule,
 * written before each rule): decide writes no table per rule. A suspended async decision saves
 * both when it yields and gets them back when it resumes, since other decisions may run in
 * between (clua_running_save, clua_running_restore). The prelude reads them through running(). */
#include "clua_shim.h"

/** Pushes which rule a decision runs (its list, or nil, and its position), for a decision about
 *  to be suspended: others may run before it resumes (clua_running_restore). Can raise. */
void clua_running_save(lua_State *L, clua_ctx *c) {
    luaL_checkstack(L, 3, "running rule");
    int top = lua_gettop(L);
    if (c->decide_ref > 0 && lua_rawgeti(L, LUA_REGISTRYINDEX, c->decide_ref) == LUA_TFUNCTION &&
        lua_getupvalue(L, -1, c->runlist_upvalue) != NULL) {
        lua_remove(L, -2);
    } else {
        lua_settop(L, top);
        lua_pushnil(L);
    }
    lua_pushinteger(L, c->running_rule);
}

/** Makes the rule clua_running_save pushed at `at` (absolute; two slots, removed) the running
 *  one again. Can raise. */
void clua_running_restore(lua_State *L, clua_ctx *c, int at) {
    if (c->decide_ref > 0) {
        if (lua_rawgeti(L, LUA_REGISTRYINDEX, c->decide_ref) == LUA_TFUNCTION) {
            lua_pushvalue(L, at);
            if (lua_setupvalue(L, -2, c->runlist_upvalue) == NULL) lua_pop(L, 1);
        }
        lua_pop(L, 1);
    }
    c->running_rule = lua_tointeger(L, at + 1);
    lua_remove(L, at);
    lua_remove(L, at);
}

/** running() (upvalue 1: the decide closure): the entry of the rule a decision runs, or ran
 *  when it failed; nil when none does; nil, true while Swift runs style rules (running_rule
 *  -1: the prelude knows which). */
int clua_running_fn(lua_State *L) {
    lua_Integer i = clua_getctx(L)->running_rule;
    lua_settop(L, 0);
    if (i == CLUA_RUNNING_STYLE) {
        lua_pushnil(L);
        lua_pushboolean(L, 1);
        return 2;
    }
    if (i <= 0 || lua_getupvalue(L, lua_upvalueindex(1), clua_getctx(L)->runlist_upvalue) == NULL || lua_type(L, 1) != LUA_TTABLE) {
        lua_pushnil(L);
        return 1;
    }
    if (lua_getfield(L, 1, "entries") != LUA_TTABLE) return 0;
    lua_rawgeti(L, 2, i);
    return 1;
}
