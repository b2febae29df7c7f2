#ifndef FLOWSTACK_CLUA_SHIM_H
#define FLOWSTACK_CLUA_SHIM_H
/*
 * The C boundary of FlowScript: Lua 5.4's headers plus everything Swift cannot import or must
 * never do itself.
 *
 * Rules (see LuaVM.swift):
 *  - lua_error and lua_yield never run in a Swift frame: a longjmp across Swift frames is
 *    undefined behaviour. Only the C functions of the clua_*.h headers raise or yield. Swift host functions
 *    return a marker (CLUA_RESULT_ERROR, CLUA_RESULT_YIELD) and the trampoline acts on it.
 *  - Swift only calls API functions that cannot raise once the memory budget is lifted
 *    (ctx->mem_enforce == 0): pushes, raw gets and sets on tables without metatables, type
 *    queries. Everything that runs Lua code goes through clua_call/lua_resume/lua_pcall.
 *  - The memory budget is enforced only while Lua code runs (mem_enforce == 1), so Swift-side
 *    pushes can fail only when the process itself is out of memory (the panic handler aborts).
 *
 * Legend of the prefixes (each list is one enum; a position the prelude or Swift must agree on
 * is checked when the prelude loads, see clua_named.h):
 *  CLUA_DU_  upvalues of the rules' decide closure (clua_decide.h): ARGS, the prelude's state
 *            (given by name, clua_decide_state), the shared op/ctx, the names (DN), RUNLIST
 *  CLUA_DN_  the field names decide reads, kept as upvalues (a subrange of CLUA_DU_)
 *  CLUA_DS_  slots of decide's own Lua stack: its 3 arguments, then its working slots
 *  CLUA_DP_  the phases of a decision (defaults, route, routes, done); a suspended rule's place
 *            is (position << CLUA_DP_BITS) | phase in lua_callk's context (clua_decide_place)
 *  CLUA_OU_  user values of an op state userdata (clua_op.h)
 *  CLUA_OF_  the fields of `op`, in the order pairs walks them (clua_op_names)
 *  CLUA_SK_  positions in the stacks kit (clua_stacks.h), made from the prelude's named table
 *  CLUA_KIND_, CLUA_RESULT_  error kinds and host-function results shared with Swift (clua_context.h)
 *  CLUA_METER_, CLUA_PAT_    metered library functions, pattern items (clua_metered.h, clua_pattern_bound.h)
 *
 * SwiftPM does not track this header's changes: after editing a clua_*.h header, touch the
 * Swift files of FlowScript (or clean) so that they are compiled against the new code.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <lua.h>
#include <lauxlib.h>
#include <lualib.h>

/* ------------------------------------------------------------------------------------------ */
/* Macro wrappers                                                                               */
/* ------------------------------------------------------------------------------------------ */

static inline int clua_registryindex(void) { return LUA_REGISTRYINDEX; }
static inline int clua_upvalueindex(int i) { return lua_upvalueindex(i); }
static inline int clua_ridx_globals(void) { return LUA_RIDX_GLOBALS; }
static inline int clua_multret(void) { return LUA_MULTRET; }
static inline int clua_pcall(lua_State *L, int nargs, int nresults, int msgh) {
    return lua_pcall(L, nargs, nresults, msgh);
}
static inline void clua_pop(lua_State *L, int n) { lua_pop(L, n); }
static inline const char *clua_tostring(lua_State *L, int index) { return lua_tostring(L, index); }
static inline lua_Number clua_tonumber(lua_State *L, int index) { return lua_tonumber(L, index); }
static inline lua_Integer clua_tointeger(lua_State *L, int index) { return lua_tointeger(L, index); }
static inline void clua_newtable(lua_State *L) { lua_newtable(L); }
static inline int clua_isnil(lua_State *L, int index) { return lua_isnil(L, index); }
static inline int clua_isnone(lua_State *L, int index) { return lua_isnone(L, index); }
static inline int clua_isnoneornil(lua_State *L, int index) { return lua_isnoneornil(L, index); }
static inline void clua_insert(lua_State *L, int index) { lua_insert(L, index); }
static inline void clua_remove(lua_State *L, int index) { lua_remove(L, index); }
static inline void clua_replace(lua_State *L, int index) { lua_replace(L, index); }
static inline void clua_pushglobaltable(lua_State *L) { lua_pushglobaltable(L); }

#include "clua_context.h"
#include "clua_errors.h"
#include "clua_calls.h"
#include "clua_sandbox.h"
#include "clua_tables.h"
#include "clua_stacks.h"
#include "clua_decide.h"

#endif
