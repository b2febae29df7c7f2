/*
 * The release of the Lua library actually linked, for `flowstack --version`.
 *
 * LUA_RELEASE is the header's macro; lua_ident is the linked library's own identification
 * string ("$LuaVersion: Lua 5.4.7  Copyright (C) ... $"), so a header and library that differ
 * cannot lie about it. Swift reads the release out of it (FlowLuaRelease).
 */
#include "clua_shim.h"

const char *clua_library_ident(void) { return lua_ident; }

const char *clua_header_release(void) { return LUA_RELEASE; }
