/* FlowScript's C boundary: one nesting limit whichever Lua 5.4 is linked.
 * (The rules are in CLua.h.)
 *
 * Lua counts what nests on the C stack (C calls, `pcall`, metamethods, coroutine resumes, and
 * the parser's levels: parentheses, table constructors, blocks, `..` and `^` chains) in a field
 * of the thread, and stops with "C stack overflow" when the count reaches LUAI_MAXCCALLS, a
 * constant compiled into the library: 200 in Debian's 5.4.4 and in the 5.4.7 sources as the
 * package builds them (the official default). Rules may use CLUA_C_LEVELS of those levels, on
 * every build alike: each VM's main thread starts its count at LUAI_MAXCCALLS - CLUA_C_LEVELS,
 * and every thread resumed from it inherits the count (lua_resume starts from the resumer's).
 * The reason for the number, and the stack it takes, are in docs/lua-surface.md ("Nesting").
 *
 * The count is not in Lua's public API. lua_setcstacklimit(L, 0) answers LUAI_MAXCCALLS (5.4.3
 * and later); the field sits where struct clua_lstate below puts it, the layout of lstate.h from
 * 5.4.3 to 5.4.7. A probe checks both on every new state: the field must read "main thread, no
 * call", then count one more for each nested call, and after the head start the deepest nesting
 * must be exactly CLUA_C_LEVELS. When a check fails (a Lua whose layout differs), the state keeps
 * its library's own limit and FlowScript says so on standard error, once per process: scripts
 * still run, but the conformance tests (Tests/FlowLuaTests) fail on such a build. */
#include "clua_engine.h"
#include <stddef.h>

/** The first fields of Lua 5.4.3-5.4.7's `struct lua_State` (lstate.h), up to its C-call count.
 *  Pointers and pointer-sized unions (5.4.6's StkIdRel) all take a pointer's room. */
struct clua_lstate {
    void *next;                 /* CommonHeader */
    unsigned char tt, marked;
    unsigned char status, allowhook;
    unsigned short nci;
    void *top, *l_G, *ci, *stack_last, *stack, *openupval, *tbclist, *gclist, *twups, *errorJmp;
    struct {                    /* base_ci: a CallInfo */
        void *func, *top, *previous, *next;
        union {
            struct { const void *savedpc; volatile int trap; int nextraargs; } l;
            struct { lua_KFunction k; ptrdiff_t old_errfunc; lua_KContext ctx; } c;
        } u;
        union { int funcidx, nyield, nres; struct { unsigned short ftransfer, ntransfer; } transferinfo; } u2;
        short nresults;
        unsigned short callstatus;
    } base_ci;
    volatile lua_Hook hook;
    ptrdiff_t errfunc;
    uint32_t nCcalls;           /* low 16 bits: nested C calls; high 16 bits: non-yieldable calls */
};

static uint32_t *clua_ccalls(lua_State *L) {
    return (uint32_t *)(void *)((char *)L + offsetof(struct clua_lstate, nCcalls));
}

/** What the probes saw (the registry is not used: nothing here may allocate much). */
typedef struct {
    int depth_left;      /* clua_probe_nest: calls still to nest */
    int counts[4];       /* clua_probe_nest: the C-call count at each depth */
    int deepest;         /* clua_probe_deep: the highest count a call ran at */
} clua_levels_probe;

/** Records the C-call count, then calls itself (through lua_call) until depth_left is spent. */
static int clua_probe_nest(lua_State *L) {
    clua_levels_probe *p = (clua_levels_probe *)lua_touserdata(L, lua_upvalueindex(1));
    p->counts[3 - p->depth_left] = (int)(*clua_ccalls(L) & 0xffff);
    if (p->depth_left-- > 0) {
        lua_pushvalue(L, lua_upvalueindex(1));
        lua_pushcclosure(L, clua_probe_nest, 1);
        lua_call(L, 0, 0);
    }
    return 0;
}

/** Calls itself until Lua refuses, recording the deepest count a call ran at. */
static int clua_probe_deep(lua_State *L) {
    clua_levels_probe *p = (clua_levels_probe *)lua_touserdata(L, lua_upvalueindex(1));
    int count = (int)(*clua_ccalls(L) & 0xffff);
    if (count > p->deepest) p->deepest = count;
    if (count > 1000) return 0; /* not counting: stop before the C stack does */
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_pushcclosure(L, clua_probe_deep, 1);
    lua_call(L, 0, 0);
    return 0;
}

/** Runs `probe` in protected mode with `p` as its upvalue; returns the Lua status. */
static int clua_run_probe(lua_State *L, lua_CFunction probe, clua_levels_probe *p) {
    lua_pushlightuserdata(L, p);
    lua_pushcclosure(L, probe, 1);
    int status = lua_pcall(L, 0, 0, 0);
    if (status != LUA_OK) lua_pop(L, 1);
    return status;
}

/** Says once per process that this Lua keeps its own limit, and why. */
static void clua_levels_warn(const char *why, int library_limit) {
    static int warned = 0;
    if (warned) return;
    warned = 1;
    fprintf(stderr,
            "FlowScript: warning: cannot hold rules to %d nested C levels on %s (%s): rules nest up to "
            "this Lua's own limit (%d) here, and to %d on the Lua the package builds for Apple platforms\n",
            CLUA_C_LEVELS, LUA_RELEASE, why, library_limit, CLUA_C_LEVELS);
    fflush(stderr);
}

int clua_align_c_levels(lua_State *L) {
    uint32_t *ccalls = clua_ccalls(L);
    uint32_t at_rest = *ccalls;
    int library_limit = lua_setcstacklimit(L, 0); /* LUAI_MAXCCALLS, 5.4.3 and later */
    if (library_limit < CLUA_C_LEVELS || library_limit > 0xffff) {
        clua_levels_warn("its C-call limit is unknown", library_limit);
        return 0;
    }
    /* A fresh main thread: no call, one non-yieldable level (lua_newstate). */
    if (at_rest != 0x10000u) {
        clua_levels_warn("its thread layout differs from Lua 5.4.3-5.4.7", library_limit);
        return 0;
    }
    clua_levels_probe p = { .depth_left = 3 };
    if (clua_run_probe(L, clua_probe_nest, &p) != LUA_OK || *ccalls != at_rest ||
        p.counts[0] != 1 || p.counts[1] != 2 || p.counts[2] != 3 || p.counts[3] != 4) {
        clua_levels_warn("its C-call count is not where Lua 5.4.3-5.4.7 keep it", library_limit);
        *ccalls = at_rest;
        return 0;
    }
    uint32_t head_start = (uint32_t)(library_limit - CLUA_C_LEVELS);
    *ccalls = at_rest + head_start;
    p.deepest = 0;
    int status = clua_run_probe(L, clua_probe_deep, &p);
    if (status == LUA_OK || *ccalls != at_rest + head_start || p.deepest != library_limit - 1) {
        clua_levels_warn("the head start did not change where it stops", library_limit);
        *ccalls = at_rest;
        return 0;
    }
    return CLUA_C_LEVELS;
}

int clua_c_levels(lua_State *L) {
    return lua_setcstacklimit(L, 0) - (int)(*clua_ccalls(L) & 0xffff);
}
