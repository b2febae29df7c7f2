#ifndef FLOWSTACK_CLUA_LIBRARY_H
#define FLOWSTACK_CLUA_LIBRARY_H
/* The system's Lua 5.4 (Debian: liblua5.4-dev, found through pkg-config `lua5.4`): the Lua
 * library target `CLuaLibrary` on Linux by default. CLua (the shim) includes these headers. */
#include <lua.h>
#include <lauxlib.h>
#include <lualib.h>

#endif
