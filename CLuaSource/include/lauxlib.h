/* Forwards <lauxlib.h> to the official Lua 5.4.7 sources of the CLuaSource/lua submodule (when they
 * are missing, <lua.h> says what to run). */
#if __has_include("../lua/lauxlib.h")
#include "../lua/lauxlib.h"
#endif
