/* FlowScript's C boundary: Metered pattern functions: string.find, match, gmatch, gsub.
 * (The rules are in CLua.h.)
 *
 * Each wrapper computes the work bound of its pattern on its subject (clua_pattern_bound.c),
 * charges it to the instruction budget, or refuses the call, then runs Lua's own function, so
 * results and errors are exactly Lua's. find with a plain pattern is charged by the positions
 * it may try. gmatch's iterator is wrapped so that once it has returned nothing it never
 * searches again (Lua's own would rescan on every further call).
 */
#include "clua_engine.h"

/** Whether a pattern has none of the characters that make it a pattern (string.find then
 *  does a plain search). */
static int clua_pat_plain(const char *p, size_t lp) {
    for (size_t i = 0; i < lp; i++) {
        if (p[i] != '\0' && strchr("^$*+?.([%-", p[i]) != NULL) return 0;
    }
    return 1;
}

/** Charges `bound` before the matcher runs, or raises: "pattern too expensive" when it is
 *  above the whole instruction budget, the budget error when above what is left of it. */
static void clua_pat_require(lua_State *L, const char *name, const char *p, size_t lp, size_t n, double bound) {
    clua_ctx *c = clua_getctx(L);
    double budget = (double)c->instr_budget;
    if (bound > budget) {
        char shown[44];
        size_t len = lp < 40 ? lp : 40;
        memcpy(shown, p, len);
        shown[len] = '\0';
        clua_raisef_kinded(L, CLUA_KIND_SANDBOX,
            "%s: pattern '%s%s' is too expensive on a subject of %I bytes (its worst case is more than the "
            "instruction budget of %I steps): use fewer '-', '*' and '+' items, anchor it with '^', "
            "or match a shorter string",
            name, shown, lp > 40 ? "..." : "", (LUAI_UACINT)n, (LUAI_UACINT)c->instr_budget);
    }
    clua_charge(L, (lua_Integer)ceil(bound));
}

/** `string.find` and `string.match` (upvalue 1: the original). */
static int clua_sb_findmatch(lua_State *L, const char *name, int find) {
    size_t ls, lp;
    const char *s = luaL_checklstring(L, 1, &ls);
    const char *p = luaL_checklstring(L, 2, &lp);
    lua_Integer init = clua_posrelat(luaL_optinteger(L, 3, 1), ls);
    if (init > (lua_Integer)ls + 1) {
        luaL_pushfail(L);
        return 1;
    }
    size_t from = (size_t)init - 1;
    if (find && (lua_toboolean(L, 4) || clua_pat_plain(p, lp))) {
        /* A plain search tries at most every position (a memchr step and a memcmp of up to
         * #pattern bytes each). */
        double units = (double)(ls - from + 1) * (double)(lp + 3) / 8;
        clua_charge(L, units > 4e18 ? (lua_Integer)4e18 : (lua_Integer)units);
        return clua_forward(L);
    }
    int anchored = lp > 0 && p[0] == '^';
    clua_ctx *c = clua_getctx(L);
    double bound = clua_pat_bound(L, s, ls, p + anchored, lp - (size_t)anchored, from, anchored,
                                  (double)c->instr_budget);
    clua_pat_require(L, name, p, lp, ls, bound);
    return clua_forward(L);
}

int clua_sb_find(lua_State *L) { return clua_sb_findmatch(L, "string.find", 1); }

int clua_sb_match(lua_State *L) { return clua_sb_findmatch(L, "string.match", 0); }

/** `string.gsub` (upvalue 1: the original). */
int clua_sb_gsub(lua_State *L) {
    size_t ls, lp;
    const char *s = luaL_checklstring(L, 1, &ls);
    const char *p = luaL_checklstring(L, 2, &lp);
    int repl = lua_type(L, 3);
    luaL_argexpected(L, repl == LUA_TNUMBER || repl == LUA_TSTRING || repl == LUA_TFUNCTION || repl == LUA_TTABLE, 3,
                     "string/function/table");
    lua_Integer max = luaL_optinteger(L, 4, (lua_Integer)ls + 1);
    double bound = 0;
    if (max > 0) {
        int anchored = lp > 0 && p[0] == '^';
        clua_ctx *c = clua_getctx(L);
        bound = clua_pat_bound(L, s, ls, p + anchored, lp - (size_t)anchored, 0, anchored,
                               (double)c->instr_budget / 2);
        if (!anchored) bound *= 2;
    }
    clua_pat_require(L, "string.gsub", p, lp, ls, bound);
    return clua_forward(L);
}

/** The iterator `string.gmatch` returns: Lua's (upvalue 1), until it has returned nothing
 *  once (upvalue 2 becomes true). */
static int clua_sb_gmatch_next(lua_State *L) {
    if (lua_toboolean(L, lua_upvalueindex(2))) return 0;
    int base = lua_gettop(L);
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_call(L, 0, LUA_MULTRET);
    int results = lua_gettop(L) - base;
    if (results == 0) {
        lua_pushboolean(L, 1);
        lua_replace(L, lua_upvalueindex(2));
    }
    return results;
}

/** `string.gmatch` (upvalue 1: the original). A leading '^' is a literal there, as in Lua. */
int clua_sb_gmatch(lua_State *L) {
    size_t ls, lp;
    const char *s = luaL_checklstring(L, 1, &ls);
    const char *p = luaL_checklstring(L, 2, &lp);
    lua_Integer init = clua_posrelat(luaL_optinteger(L, 3, 1), ls);
    size_t from = init > (lua_Integer)ls + 1 ? ls + 1 : (size_t)init - 1;
    clua_ctx *c = clua_getctx(L);
    double bound = 2 * clua_pat_bound(L, s, ls, p, lp, from, 0, (double)c->instr_budget / 2);
    clua_pat_require(L, "string.gmatch", p, lp, ls, bound);
    clua_forward(L);
    lua_settop(L, lua_gettop(L) > 0 ? lua_gettop(L) : 1);
    lua_pushboolean(L, 0);
    lua_pushcclosure(L, clua_sb_gmatch_next, 2);
    return 1;
}
