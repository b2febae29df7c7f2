/* FlowScript's C boundary: table.insert, remove, concat, unpack and sort, metered per element.
 * (The rules are in CLua.h.)
 *
 * Why: Lua's versions take the length from `__len` and then loop in C over the elements
 * through `__index`/`__newindex`. With `__len` returning 2^40 and C functions as the other
 * metamethods (`__index = os.clock`), `table.insert(t, 1, x)` or `table.sort(t)` loop for
 * hours without running one VM instruction, so the instruction hook never stops them. Charging
 * the raw length up front does not help (it is 0 for such a proxy), and calling `__len`
 * twice is unsound (it can answer 1 the first time and 2^40 the second).
 *
 * How: insert, remove, concat and unpack are written here with the semantics of the Lua 5.4
 * manual and charge per element moved or read, as they go (2 units, 8 when the table has a
 * metatable: each access may call a metamethod). sort runs Lua's own
 * sort: directly on a table without a metatable (charged n log2 n, plus the bytes of the
 * strings it compares), otherwise on a plain copy read and written back element by element
 * (each charged), so `__len` is called once.
 */
#include "clua_engine.h"

/** Units per element read or written: 2, or 8 when metamethods may run (a call each). */
static lua_Integer clua_elem_cost(lua_State *L, int idx) {
    if (!lua_getmetatable(L, idx)) return 2;
    lua_pop(L, 1);
    return 8;
}

/** `table.insert(list, [pos,] value)`. */
int clua_sb_tinsert(lua_State *L) {
    luaL_checktype(L, 1, LUA_TTABLE);
    lua_Integer first_empty = (lua_Integer)((lua_Unsigned)luaL_len(L, 1) + 1u);
    lua_Integer pos = first_empty;
    lua_Integer cost = clua_elem_cost(L, 1);
    int nargs = lua_gettop(L);
    if (nargs == 3) {
        pos = luaL_checkinteger(L, 2);
        luaL_argcheck(L, (lua_Unsigned)pos - 1u < (lua_Unsigned)first_empty, 2, "position out of bounds");
        for (lua_Integer i = first_empty; i > pos; i--) {
            clua_charge(L, cost);
            lua_geti(L, 1, i - 1);
            lua_seti(L, 1, i);
        }
    } else if (nargs != 2) {
        return luaL_error(L, "wrong number of arguments to 'insert'");
    }
    lua_seti(L, 1, pos);
    return 0;
}

/** `table.remove(list [, pos])`. */
int clua_sb_tremove(lua_State *L) {
    luaL_checktype(L, 1, LUA_TTABLE);
    lua_Integer size = luaL_len(L, 1);
    lua_Integer pos = luaL_optinteger(L, 2, size);
    lua_Integer cost = clua_elem_cost(L, 1);
    if (pos != size) {
        luaL_argcheck(L, (lua_Unsigned)pos - 1u <= (lua_Unsigned)size, 2, "position out of bounds");
    }
    lua_geti(L, 1, pos);
    for (; pos < size; pos++) {
        clua_charge(L, cost);
        lua_geti(L, 1, pos + 1);
        lua_seti(L, 1, pos);
    }
    lua_pushnil(L);
    lua_seti(L, 1, pos);
    return 1;
}

/** `table.concat(list [, sep [, i [, j]]])`. */
int clua_sb_tconcat(lua_State *L) {
    luaL_checktype(L, 1, LUA_TTABLE);
    lua_Integer last = luaL_len(L, 1);
    size_t lsep;
    const char *sep = luaL_optlstring(L, 2, "", &lsep);
    lua_Integer i = luaL_optinteger(L, 3, 1);
    last = luaL_optinteger(L, 4, last);
    lua_Integer cost = 2 + clua_elem_cost(L, 1);
    luaL_Buffer b;
    luaL_buffinit(L, &b);
    while (i <= last) {
        clua_charge(L, cost);
        lua_geti(L, 1, i);
        if (!lua_isstring(L, -1)) {
            return luaL_error(L, "invalid value (at index %I) in table for 'concat': a %s, not a string or a number",
                              (LUAI_UACINT)i, luaL_typename(L, -1));
        }
        luaL_addvalue(&b);
        if (i == last) break;
        luaL_addlstring(&b, sep, lsep);
        i++;
    }
    luaL_pushresult(&b);
    return 1;
}

/** `table.unpack(list [, i [, j]])`. */
int clua_sb_tunpack(lua_State *L) {
    lua_Integer i = luaL_optinteger(L, 2, 1);
    lua_Integer last = lua_isnoneornil(L, 3) ? luaL_len(L, 1) : luaL_checkinteger(L, 3);
    if (i > last) return 0;
    lua_Unsigned n = (lua_Unsigned)last - (lua_Unsigned)i;
    if (n >= (lua_Unsigned)INT_MAX || !lua_checkstack(L, (int)(++n))) {
        return luaL_error(L, "too many results to unpack");
    }
    lua_Integer cost = lua_type(L, 1) == LUA_TTABLE ? clua_elem_cost(L, 1) : 8;
    clua_charge(L, (lua_Integer)n > LUA_MAXINTEGER / cost ? LUA_MAXINTEGER : cost * (lua_Integer)n);
    for (; i < last; i++) lua_geti(L, 1, i);
    lua_geti(L, 1, last);
    return (int)n;
}

/** Charges Lua's sort of the plain table at `idx` (n elements): n log2 n comparisons, each
 *  string compared about log2 n times (strcoll reads its bytes), and the scan that finds them.
 *  (A comparison through the C API costs about four VM instructions.) */
static void clua_sort_charge(lua_State *L, int idx, lua_Integer n) {
    lua_Integer log2n = 1, bytes = 0;
    while ((((lua_Integer)1) << log2n) < n && log2n < 62) log2n++;
    for (lua_Integer k = 1; k <= n; k++) {
        if (lua_rawgeti(L, idx, k) == LUA_TSTRING) bytes += (lua_Integer)lua_rawlen(L, -1);
        lua_pop(L, 1);
    }
    clua_charge(L, n + 4 * n * log2n + bytes / 2 * log2n);
}

/** `table.sort(list [, comp])` (upvalue 1: Lua's sort). */
int clua_sb_tsort(lua_State *L) {
    luaL_checktype(L, 1, LUA_TTABLE);
    if (!lua_isnoneornil(L, 2)) luaL_checktype(L, 2, LUA_TFUNCTION);
    lua_settop(L, 2);
    if (!lua_getmetatable(L, 1)) {
        clua_sort_charge(L, 1, (lua_Integer)lua_rawlen(L, 1));
        return clua_forward(L);
    }
    lua_pop(L, 1);
    lua_Integer n = luaL_len(L, 1);
    if (n < 2) return 0;
    luaL_argcheck(L, n < INT_MAX, 1, "array too big");
    lua_createtable(L, (int)n, 0); /* 3: the plain copy */
    for (lua_Integer k = 1; k <= n; k++) {
        clua_charge(L, 8);
        lua_geti(L, 1, k);
        lua_rawseti(L, 3, k);
    }
    clua_sort_charge(L, 3, n);
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_pushvalue(L, 3);
    lua_pushvalue(L, 2);
    lua_call(L, 2, 0);
    for (lua_Integer k = 1; k <= n; k++) {
        clua_charge(L, 8);
        lua_rawgeti(L, 3, k);
        lua_seti(L, 1, k);
    }
    return 0;
}
