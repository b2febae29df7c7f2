#ifndef FLOWSTACK_CLUA_SOURCE_H
#define FLOWSTACK_CLUA_SOURCE_H
/*
 * `import CLua` over the Lua built from source (the CLuaSource/lua submodule, official Lua 5.4.7):
 * the same shim and sandbox headers as over the system library. `<lua.h>`, `<lauxlib.h>` and
 * `<lualib.h>` in those headers resolve to the forwarding headers next to this one.
 */
#include "../../CLua/shim.h"
#include "../../CLua/clua_version.h"

#endif
