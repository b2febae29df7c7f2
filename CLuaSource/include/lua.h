/* Forwards <lua.h> to the official Lua 5.4.7 sources of the CLuaSource/lua submodule. */
#if __has_include("../lua/lua.h")
#include "../lua/lua.h"
#else
#error "FlowStack builds Lua 5.4.7 from CLuaSource/lua, which is empty in this clone: run 'git submodule update --init' (or 'bash Tools/lua-source.sh'), or set FLOWSTACK_LUA=system to link the system's Lua 5.4 (pkg-config lua5.4)."
/* A missing file is a fatal error: the compiler stops here instead of reporting every use of Lua. */
#include "CLuaSource/lua (the Lua 5.4.7 sources)"
#endif
