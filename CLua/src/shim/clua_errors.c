/* FlowScript's C boundary: Describing error objects and the message handler of protected calls.
 * The rules are in CLua.h. */
#include "clua_shim.h"

/* ------------------------------------------------------------------------------------------ */
/* Error descriptions and the message handler                                                   */
/* ------------------------------------------------------------------------------------------ */

/** Records the innermost Lua frame at or above `level` in c->err_src / c->err_line. */
void clua_record_location(lua_State *L, clua_ctx *c, int level) {
    lua_Debug ar;
    c->err_line = 0;
    c->err_src[0] = '\0';
    while (lua_getstack(L, level++, &ar)) {
        if (lua_getinfo(L, "Sl", &ar) && ar.currentline > 0) {
            memcpy(c->err_src, ar.short_src, LUA_IDSIZE);
            c->err_src[LUA_IDSIZE - 1] = '\0';
            c->err_line = ar.currentline;
            return;
        }
    }
}

/** Pushes a string describing the error object at `idx`; never raises for odd objects. */
static void clua_describe_error(lua_State *L, int idx) {
    idx = lua_absindex(L, idx);
    switch (lua_type(L, idx)) {
    case LUA_TSTRING:
        lua_pushvalue(L, idx);
        return;
    case LUA_TNUMBER:
        lua_pushvalue(L, idx);
        lua_tolstring(L, -1, NULL);
        return;
    case LUA_TNIL:
        lua_pushliteral(L, "error raised with a nil value");
        return;
    case LUA_TBOOLEAN:
        lua_pushfstring(L, "error raised with a boolean value (%s)", lua_toboolean(L, idx) ? "true" : "false");
        return;
    default:
        break;
    }
    if (luaL_getmetafield(L, idx, "__tostring") != LUA_TNIL) {
        lua_pushvalue(L, idx);
        int status = lua_pcall(L, 1, 1, 0);
        if (status == LUA_OK && lua_type(L, -1) == LUA_TSTRING) return;
        if (status == LUA_OK) {
            lua_pushfstring(L, "error object's __tostring returned a %s value, not a string", luaL_typename(L, -1));
        } else {
            const char *inner = lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : "(non-string error)";
            lua_pushfstring(L, "error object's __tostring failed: %s", inner);
        }
        lua_remove(L, -2);
        return;
    }
    if (lua_type(L, idx) == LUA_TTABLE) {
        lua_pushliteral(L, "message");
        if (lua_rawget(L, idx) == LUA_TSTRING) return;
        lua_pop(L, 1);
    }
    lua_pushfstring(L, "error object is a %s value", luaL_typename(L, idx));
}

/**
 * Whether the error object at `idx` is the last error raised with a kind: the same value, or a
 * string ending with it (coroutine.wrap and error handlers add positions in front).
 */
static int clua_is_kinded(lua_State *L, int idx) {
    clua_ctx *c = clua_getctx(L);
    idx = lua_absindex(L, idx);
    lua_rawgetp(L, LUA_REGISTRYINDEX, clua_kinded_key(c));
    int same = lua_rawequal(L, idx, -1);
    if (!same && lua_type(L, idx) == LUA_TSTRING && lua_type(L, -1) == LUA_TSTRING) {
        size_t lm, lk;
        const char *m = lua_tolstring(L, idx, &lm);
        const char *k = lua_tolstring(L, -1, &lk);
        same = lk > 0 && lk <= lm && memcmp(m + (lm - lk), k, lk) == 0;
    }
    lua_pop(L, 1);
    return same;
}

/** The message handler of every protected call: records the location, returns a string. */
static int clua_msgh(lua_State *L) {
    clua_ctx *c = clua_getctx(L);
    clua_record_location(L, c, 1);
    if (!clua_is_kinded(L, 1)) c->kinded_kind = CLUA_KIND_NONE;
    clua_describe_error(L, 1);
    return 1;
}

void clua_pushmsgh(lua_State *L) { lua_pushcfunction(L, clua_msgh); }

static int clua_describe_fn(lua_State *L) {
    clua_describe_error(L, 1);
    return 1;
}

int clua_describe_top(lua_State *L) {
    clua_ctx *c = clua_getctx(L);
    lua_pushcfunction(L, clua_describe_fn);
    lua_insert(L, -2);
    int enforce = c->mem_enforce;
    c->mem_enforce = 1;
    int status = lua_pcall(L, 1, 1, 0);
    c->mem_enforce = enforce;
    if (status != LUA_OK) {
        lua_pop(L, 1);
        lua_pushliteral(L, "(the error object could not be described)");
    }
    return status;
}

int clua_top_is_kinded(lua_State *L) {
    return clua_is_kinded(L, -1);
}

void clua_record_thread_location(lua_State *co) {
    clua_record_location(co, clua_getctx(co), 0);
}
