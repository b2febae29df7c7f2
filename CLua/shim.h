#ifndef FLOWSTACK_CLUA_SHIM_H
#define FLOWSTACK_CLUA_SHIM_H
// The C boundary of FlowScript: Lua 5.4's headers plus static inline wrappers for what
// Swift cannot import (function-like macros). The Lua engine issue fills in the rest.
#include <lua.h>
#include <lauxlib.h>
#include <lualib.h>

static inline int clua_pcall(lua_State *L, int nargs, int nresults, int msgh) {
    return lua_pcall(L, nargs, nresults, msgh);
}
static inline void clua_pop(lua_State *L, int n) { lua_pop(L, n); }
static inline const char *clua_tostring(lua_State *L, int index) { return lua_tostring(L, index); }
static inline void clua_newtable(lua_State *L) { lua_newtable(L); }
static inline int clua_registryindex(void) { return LUA_REGISTRYINDEX; }
static inline int clua_upvalueindex(int i) { return lua_upvalueindex(i); }

#endif
