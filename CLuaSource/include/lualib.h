/* Forwards <lualib.h> to the official Lua 5.4.7 sources of the CLuaSource/lua submodule (when they
 * are missing, <lua.h> says what to run). */
#if __has_include("../lua/lualib.h")
#include "../lua/lualib.h"
#endif
