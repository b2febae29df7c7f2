/* FlowScript's C boundary: tables the prelude hands C by name. (The rules are in CLua.h.)
 *
 * C keeps such a table's values at fixed positions (upvalues, a list read with lua_rawgeti),
 * but the prelude never writes a position: it writes `{ kinds = KINDS, ... }`, and C reads each
 * name of its legend (a clua_named array indexed by the position) once, when the prelude loads.
 * A name missing, of the wrong type, or unknown to the legend is an error naming it, so the Lua
 * and C sides cannot drift apart silently. */
#include "clua_engine.h"

/** Pushes legend[first..last]'s values of the named table at `t` (absolute), in that order.
 *  `what` names the call in errors (`decider`). Raises on a missing, mistyped or unknown name
 *  (only ever called by Lua, while the prelude loads). */
void clua_named_push(lua_State *L, int t, const clua_named *legend, int first, int last, const char *what) {
    luaL_checktype(L, t, LUA_TTABLE);
    luaL_checkstack(L, last - first + 3, what);
    for (int k = first; k <= last; k++) {
        if (legend[k].name == NULL) luaL_error(L, "%s: position %d of its legend has no name (a mistake in CLua's C)", what, k);
        int type = lua_getfield(L, t, legend[k].name);
        if (type != legend[k].type) {
            luaL_error(L, "%s: the table the prelude passes has %s '%s' (%s expected)", what,
                       type == LUA_TNIL ? "no" : lua_typename(L, type), legend[k].name, lua_typename(L, legend[k].type));
        }
    }
    lua_pushnil(L);
    while (lua_next(L, t)) {
        lua_pop(L, 1);
        int known = 0;
        if (lua_type(L, -1) == LUA_TSTRING) {
            for (int k = first; k <= last && !known; k++) known = strcmp(legend[k].name, lua_tostring(L, -1)) == 0;
        }
        if (!known) luaL_error(L, "%s: the table the prelude passes has '%s', a name %s does not know", what, luaL_tolstring(L, -1, NULL), what);
    }
}
