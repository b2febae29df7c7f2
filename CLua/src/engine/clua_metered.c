/* FlowScript's C boundary: Library functions metered by their input (string.rep, byte, format,
 * upper, lower, reverse, utf8.len, offset, codepoint, tonumber, table.move, os.date).
 * (The rules are in CLua.h.) */
#include "clua_engine.h"

static lua_Integer clua_optint(lua_State *L, int idx, lua_Integer def) {
    int isnum = 0;
    lua_Integer v = lua_tointegerx(L, idx, &isnum);
    return isnum ? v : def;
}

static lua_Integer clua_range(lua_Integer from, lua_Integer to) {
    if (to < from) return 0;
    if (from < 0 && to > LUA_MAXINTEGER + from) return LUA_MAXINTEGER;
    return to - from + 1;
}

int clua_metered(lua_State *L) {
    lua_Integer meter = lua_tointeger(L, lua_upvalueindex(2));
    lua_Integer units = 0;
    size_t len = lua_type(L, 1) == LUA_TSTRING ? lua_rawlen(L, 1) : 0;
    switch (meter) {
    case CLUA_METER_SCAN:
        units = (lua_Integer)(len / 2);
        break;
    case CLUA_METER_READ:
        units = (lua_Integer)(len / 4);
        break;
    case CLUA_METER_FORMAT: {
        const char *f = lua_type(L, 1) == LUA_TSTRING ? lua_tostring(L, 1) : "";
        units = (lua_Integer)(len / 4);
        for (size_t k = 0; k < len; k++) if (f[k] == '%') units += 40;
        break;
    }
    case CLUA_METER_STRING_RANGE: {
        lua_Integer i = clua_posrelat(clua_optint(L, 2, 1), len);
        lua_Integer j = lua_isnoneornil(L, 3) ? i : clua_optint(L, 3, i);
        if (j < 0) j = (lua_Integer)len + j + 1;
        if (j > (lua_Integer)len) j = (lua_Integer)len;
        units = clua_range(i, j);
        break;
    }
    case CLUA_METER_STRING_REP: {
        if (lua_type(L, 1) != LUA_TSTRING) break;
        size_t lsep = lua_type(L, 3) == LUA_TSTRING ? lua_rawlen(L, 3) : 0;
        lua_Integer n = clua_optint(L, 2, 0);
        if (n > 0 && len + lsep == 0) { /* n copies of nothing: no work, no loop */
            lua_pushliteral(L, "");
            return 1;
        }
        if (n > 0) {
            /* A result the memory budget cannot hold fails on memory first: no charge. */
            clua_ctx *c = clua_getctx(L);
            size_t avail = c->mem_used < c->mem_limit ? c->mem_limit - c->mem_used : 0;
            if ((size_t)n <= avail / (len + lsep)) units = n / 2;
        }
        break;
    }
    case CLUA_METER_TABLE_MOVE:
        units = clua_range(clua_optint(L, 2, 1), clua_optint(L, 3, 0));
        break;
    case CLUA_METER_OS_DATE:
        units = (lua_Integer)(len * 16);
        break;
    default:
        break;
    }
    clua_charge(L, units);
    return clua_forward(L);
}
