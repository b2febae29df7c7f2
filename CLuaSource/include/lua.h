/* Forwards <lua.h> to the official Lua sources of the CLuaSource/lua submodule. */
#include "../lua/lua.h"
