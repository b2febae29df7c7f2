#ifndef FLOWSTACK_CLUA_METERED_H
#define FLOWSTACK_CLUA_METERED_H
/* FlowScript's C boundary: Library functions metered by their input (string.rep, byte, format,
 * upper, lower, reverse, utf8.len, offset, codepoint, tonumber, table.move, os.date).
 * Included by clua_sandbox.h (read the rules in shim.h). */
#include "clua_context.h"

/* Metered library functions: charge the work they do in C against the instruction budget
 * before they run. Upvalue 1: the original function; upvalue 2: the meter. (Pattern functions
 * and the table functions that loop over elements have their own wrappers: clua_patterns.h,
 * clua_tablelib.h; building large values is charged by the allocator.) */
enum {
    CLUA_METER_SCAN = 1,         /* utf8.len, utf8.offset, upper, lower, reverse: #arg1 / 2 (work on each byte) */
    CLUA_METER_READ = 2,         /* tonumber: #arg1 / 4 (strtod, one pass) */
    CLUA_METER_STRING_RANGE = 3, /* string.byte, utf8.codepoint: values pushed, j - i + 1 */
    CLUA_METER_STRING_REP = 4,   /* string.rep: n / 2 (a copy per repetition; the bytes are charged as allocated) */
    CLUA_METER_TABLE_MOVE = 5,   /* table.move: e - f + 1 */
    CLUA_METER_OS_DATE = 6,      /* os.date: 16 per format byte (a strftime per conversion) */
    CLUA_METER_FORMAT = 7        /* string.format: #format / 4, and 40 per '%' (a sprintf per conversion) */
};

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

static int clua_metered(lua_State *L) {
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

#endif
