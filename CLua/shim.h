#ifndef FLOWSTACK_CLUA_SHIM_H
#define FLOWSTACK_CLUA_SHIM_H
/*
 * The C boundary of FlowScript: Lua 5.4's headers plus everything Swift cannot import or must
 * never do itself.
 *
 * Rules (see LuaVM.swift):
 *  - lua_error and lua_yield never run in a Swift frame: a longjmp across Swift frames is
 *    undefined behaviour. Only the C functions below raise or yield. Swift host functions
 *    return a marker (CLUA_RESULT_ERROR, CLUA_RESULT_YIELD) and the trampoline acts on it.
 *  - Swift only calls API functions that cannot raise once the memory budget is lifted
 *    (ctx->mem_enforce == 0): pushes, raw gets and sets on tables without metatables, type
 *    queries. Everything that runs Lua code goes through clua_call/lua_resume/lua_pcall.
 *  - The memory budget is enforced only while Lua code runs (mem_enforce == 1), so Swift-side
 *    pushes can fail only when the process itself is out of memory (the panic handler aborts).
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

/* ------------------------------------------------------------------------------------------ */
/* Per-VM context: budgets, error bookkeeping, the Swift dispatcher                             */
/* ------------------------------------------------------------------------------------------ */

/** Markers a Swift host function returns instead of a result count. */
enum {
    /** The error value is on top of the stack; raise it with kind `pending_kind`. */
    CLUA_RESULT_ERROR = -1,
    /** Yield the running coroutine to Swift (an asynchronous host call). */
    CLUA_RESULT_YIELD = -2
};

/** Error kinds known to C (Swift maps them onto FlowScriptError.Kind). */
enum {
    CLUA_KIND_NONE = 0,
    CLUA_KIND_RUNTIME = 1,
    CLUA_KIND_UNDECLARED_GLOBAL = 2,
    CLUA_KIND_READ_ONLY = 3,
    CLUA_KIND_SANDBOX = 4,
    CLUA_KIND_TYPE = 5,
    CLUA_KIND_HOST = 6,
    CLUA_KIND_ASYNC_IN_SYNC = 7,
    CLUA_KIND_BAD_RETURN = 8,
    /** Flag added to pending_kind: the message already starts with a position. */
    CLUA_KIND_FLAG_POSITIONED = 0x100
};

/** Function id the print replacement passes to the dispatcher. */
enum { CLUA_PRINT_FID = 0 };

/** The Swift dispatcher: runs host function `fid`; returns a result count or a marker. */
typedef int (*clua_dispatch_fn)(lua_State *L, void *owner, lua_Integer fid);

typedef struct clua_ctx {
    /* memory budget (bytes) */
    size_t mem_used;
    size_t mem_limit;
    size_t mem_peak;
    size_t mem_refused;     /* size of the last allocation refused by the budget */
    int mem_enforce;        /* 1 while Lua code runs */
    int mem_exceeded;       /* set when an allocation was refused */
    /* instruction budget (per call) */
    long long instr_budget;
    long long instr_used;
    int instr_step;         /* instructions between two hook calls */
    int instr_exhausted;    /* set when the budget ran out during the current call */
    /* errors */
    int kinded_kind;        /* kind of the value stored in the registry slot keyed by &kinded_kind */
    int pending_kind;       /* kind Swift asks the trampoline to raise with */
    int err_line;           /* location of the innermost Lua frame when the last error was handled */
    char err_src[LUA_IDSIZE];
    /* host functions */
    clua_dispatch_fn dispatch;
    void *owner;
    lua_State *async_thread; /* the only thread allowed to yield to Swift, or NULL */
    int closing;
} clua_ctx;

static inline clua_ctx *clua_getctx(lua_State *L) { return *(clua_ctx **)lua_getextraspace(L); }
static inline void *clua_kinded_key(clua_ctx *c) { return (void *)&c->kinded_kind; }

/* ------------------------------------------------------------------------------------------ */
/* Budgeted allocator                                                                           */
/* ------------------------------------------------------------------------------------------ */

static void *clua_alloc(void *ud, void *ptr, size_t osize, size_t nsize) {
    clua_ctx *c = (clua_ctx *)ud;
    size_t old = ptr ? osize : 0;
    if (nsize == 0) {
        free(ptr);
        c->mem_used -= old;
        return NULL;
    }
    if (nsize > old && c->mem_enforce) {
        size_t grow = nsize - old;
        if (c->mem_used > c->mem_limit || grow > c->mem_limit - c->mem_used) {
            c->mem_exceeded = 1;
            c->mem_refused = nsize;
            return NULL;
        }
    }
    void *p = realloc(ptr, nsize);
    if (p == NULL) {
        c->mem_exceeded = 1;
        c->mem_refused = nsize;
        return NULL;
    }
    c->mem_used = c->mem_used - old + nsize;
    if (c->mem_used > c->mem_peak) c->mem_peak = c->mem_used;
    return p;
}

static int clua_panic(lua_State *L) {
    const char *msg = lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : "(non-string error)";
    fprintf(stderr, "FlowScript: unprotected Lua error (out of memory?): %s\n", msg);
    fflush(stderr);
    abort();
    return 0;
}

/** Creates a state whose allocations are accounted in `c`; NULL when out of memory. */
static inline lua_State *clua_newstate(clua_ctx *c) {
    lua_State *L = lua_newstate(clua_alloc, c);
    if (L == NULL) return NULL;
    *(clua_ctx **)lua_getextraspace(L) = c;
    lua_atpanic(L, clua_panic);
    return L;
}

/* ------------------------------------------------------------------------------------------ */
/* Raising with a kind                                                                          */
/* ------------------------------------------------------------------------------------------ */

/** Raises the value on top of the stack, remembering it as an error of `kind`. */
static int clua_raise_kinded(lua_State *L, int kind) {
    clua_ctx *c = clua_getctx(L);
    lua_pushvalue(L, -1);
    lua_rawsetp(L, LUA_REGISTRYINDEX, clua_kinded_key(c));
    c->kinded_kind = kind;
    return lua_error(L);
}

/** Like luaL_error (position of the calling Lua code first) but with a kind. */
static int clua_raisef_kinded(lua_State *L, int kind, const char *fmt, ...) {
    va_list argp;
    va_start(argp, fmt);
    luaL_where(L, 1);
    lua_pushvfstring(L, fmt, argp);
    va_end(argp);
    lua_concat(L, 2);
    return clua_raise_kinded(L, kind);
}

/** A printable name for the value at `idx` (a string key as is, anything else via tostring). */
static const char *clua_keyname(lua_State *L, int idx) {
    if (lua_type(L, idx) == LUA_TSTRING) return lua_tostring(L, idx);
    return luaL_tolstring(L, idx, NULL);
}

/* ------------------------------------------------------------------------------------------ */
/* Instruction budget                                                                           */
/* ------------------------------------------------------------------------------------------ */

static int clua_budget_error(lua_State *L, int level) {
    clua_ctx *c = clua_getctx(L);
    c->instr_exhausted = 1;
    /* From now on this thread stops at every instruction, so a Lua pcall cannot swallow it. */
    if (lua_gethookcount(L) != 1) lua_sethook(L, lua_gethook(L), LUA_MASKCOUNT, 1);
    luaL_where(L, level);
    lua_pushfstring(L, "instruction budget exceeded (%I instructions)", (LUAI_UACINT)c->instr_budget);
    lua_concat(L, 2);
    return lua_error(L);
}

static void clua_hook(lua_State *L, lua_Debug *ar) {
    (void)ar;
    clua_ctx *c = clua_getctx(L);
    c->instr_used += lua_gethookcount(L);
    if (c->instr_used >= c->instr_budget) clua_budget_error(L, 0);
}

/** Installs the counting hook on `L` (every thread that runs Lua code needs it). */
static inline void clua_armhook(lua_State *L) {
    lua_sethook(L, clua_hook, LUA_MASKCOUNT, clua_getctx(L)->instr_step);
}

/** Charges `units` instructions for work done in C (string and table functions). */
static void clua_charge(lua_State *L, lua_Integer units) {
    clua_ctx *c = clua_getctx(L);
    if (units <= 0) return;
    if (units > c->instr_budget) units = c->instr_budget;
    c->instr_used += units;
    if (c->instr_used >= c->instr_budget) clua_budget_error(L, 1);
}

/* ------------------------------------------------------------------------------------------ */
/* Error descriptions and the message handler                                                   */
/* ------------------------------------------------------------------------------------------ */

/** Records the innermost Lua frame at or above `level` in c->err_src / c->err_line. */
static void clua_record_location(lua_State *L, clua_ctx *c, int level) {
    lua_Debug ar;
    c->err_line = 0;
    c->err_src[0] = '\0';
    while (lua_getstack(L, level++, &ar)) {
        if (lua_getinfo(L, "Sl", &ar) && ar.currentline > 0) {
            memcpy(c->err_src, ar.short_src, LUA_IDSIZE);
            c->err_src[LUA_IDSIZE - 1] = '\0';
            c->err_line = ar.currentline;
            return;
        }
    }
}

/** Pushes a string describing the error object at `idx`; never raises for odd objects. */
static void clua_describe_error(lua_State *L, int idx) {
    idx = lua_absindex(L, idx);
    switch (lua_type(L, idx)) {
    case LUA_TSTRING:
        lua_pushvalue(L, idx);
        return;
    case LUA_TNUMBER:
        lua_pushvalue(L, idx);
        lua_tolstring(L, -1, NULL);
        return;
    case LUA_TNIL:
        lua_pushliteral(L, "error raised with a nil value");
        return;
    case LUA_TBOOLEAN:
        lua_pushfstring(L, "error raised with a boolean value (%s)", lua_toboolean(L, idx) ? "true" : "false");
        return;
    default:
        break;
    }
    if (luaL_getmetafield(L, idx, "__tostring") != LUA_TNIL) {
        lua_pushvalue(L, idx);
        int status = lua_pcall(L, 1, 1, 0);
        if (status == LUA_OK && lua_type(L, -1) == LUA_TSTRING) return;
        if (status == LUA_OK) {
            lua_pushfstring(L, "error object's __tostring returned a %s value, not a string", luaL_typename(L, -1));
        } else {
            const char *inner = lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : "(non-string error)";
            lua_pushfstring(L, "error object's __tostring failed: %s", inner);
        }
        lua_remove(L, -2);
        return;
    }
    if (lua_type(L, idx) == LUA_TTABLE) {
        lua_pushliteral(L, "message");
        if (lua_rawget(L, idx) == LUA_TSTRING) return;
        lua_pop(L, 1);
    }
    lua_pushfstring(L, "error object is a %s value", luaL_typename(L, idx));
}

/**
 * Whether the error object at `idx` is the last error raised with a kind: the same value, or a
 * string ending with it (coroutine.wrap and error handlers add positions in front).
 */
static int clua_is_kinded(lua_State *L, int idx) {
    clua_ctx *c = clua_getctx(L);
    idx = lua_absindex(L, idx);
    lua_rawgetp(L, LUA_REGISTRYINDEX, clua_kinded_key(c));
    int same = lua_rawequal(L, idx, -1);
    if (!same && lua_type(L, idx) == LUA_TSTRING && lua_type(L, -1) == LUA_TSTRING) {
        size_t lm, lk;
        const char *m = lua_tolstring(L, idx, &lm);
        const char *k = lua_tolstring(L, -1, &lk);
        same = lk > 0 && lk <= lm && memcmp(m + (lm - lk), k, lk) == 0;
    }
    lua_pop(L, 1);
    return same;
}

/** The message handler of every protected call: records the location, returns a string. */
static int clua_msgh(lua_State *L) {
    clua_ctx *c = clua_getctx(L);
    clua_record_location(L, c, 1);
    if (!clua_is_kinded(L, 1)) c->kinded_kind = CLUA_KIND_NONE;
    clua_describe_error(L, 1);
    return 1;
}

static inline void clua_pushmsgh(lua_State *L) { lua_pushcfunction(L, clua_msgh); }

static int clua_describe_fn(lua_State *L) {
    clua_describe_error(L, 1);
    return 1;
}

/**
 * Replaces the error object on top of `L` by its description, in protected mode. Returns 0 on
 * success; otherwise the top is a fixed string.
 */
static inline int clua_describe_top(lua_State *L) {
    clua_ctx *c = clua_getctx(L);
    lua_pushcfunction(L, clua_describe_fn);
    lua_insert(L, -2);
    int enforce = c->mem_enforce;
    c->mem_enforce = 1;
    int status = lua_pcall(L, 1, 1, 0);
    c->mem_enforce = enforce;
    if (status != LUA_OK) {
        lua_pop(L, 1);
        lua_pushliteral(L, "(the error object could not be described)");
    }
    return status;
}

/**
 * Whether the value on top of `L` is the last error raised with a kind (the kind stays in
 * ctx->kinded_kind), for errors that did not go through the message handler (coroutines).
 */
static inline int clua_top_is_kinded(lua_State *L) {
    return clua_is_kinded(L, -1);
}

/** Records the innermost Lua frame of a dead or suspended coroutine. */
static inline void clua_record_thread_location(lua_State *co) {
    clua_record_location(co, clua_getctx(co), 0);
}

/* ------------------------------------------------------------------------------------------ */
/* Calls                                                                                        */
/* ------------------------------------------------------------------------------------------ */

/**
 * Protected call for a fresh top-level call: resets the instruction budget, arms the hook,
 * enforces the memory budget while Lua runs. `msgh` is the stack index of clua_msgh.
 */
static inline int clua_call(lua_State *L, int nargs, int nresults, int msgh) {
    clua_ctx *c = clua_getctx(L);
    c->instr_used = 0;
    c->instr_exhausted = 0;
    c->mem_exceeded = 0;
    c->kinded_kind = CLUA_KIND_NONE;
    lua_sethook(L, clua_hook, LUA_MASKCOUNT, c->instr_step);
    c->mem_enforce = 1;
    int status = lua_pcall(L, nargs, nresults, msgh);
    c->mem_enforce = 0;
    return status;
}

/** Protected call nested inside a running call (from a host function): shares its budget. */
static inline int clua_call_nested(lua_State *L, int nargs, int nresults, int msgh) {
    clua_ctx *c = clua_getctx(L);
    int enforce = c->mem_enforce;
    lua_State *async = c->async_thread;
    c->async_thread = NULL;
    c->mem_enforce = 1;
    int status = lua_pcall(L, nargs, nresults, msgh);
    c->mem_enforce = enforce;
    c->async_thread = async;
    return status;
}

/** Resumes `co` (the coroutine of an asynchronous call) with the budget enforced. */
static inline int clua_resume(lua_State *co, lua_State *from, int nargs, int *nresults) {
    clua_ctx *c = clua_getctx(co);
    lua_State *async = c->async_thread;
    c->async_thread = co;
    c->mem_enforce = 1;
    int status = lua_resume(co, from, nargs, nresults);
    c->mem_enforce = 0;
    c->async_thread = async;
    return status;
}

/** Loads a text chunk (never binary) under the memory budget; never raises. */
static inline int clua_loadtext(lua_State *L, const char *buf, size_t len, const char *chunkname) {
    clua_ctx *c = clua_getctx(L);
    c->mem_exceeded = 0;
    c->mem_enforce = 1;
    int status = luaL_loadbufferx(L, buf, len, chunkname, "t");
    c->mem_enforce = 0;
    return status;
}

/* ------------------------------------------------------------------------------------------ */
/* Host-function trampoline                                                                     */
/* ------------------------------------------------------------------------------------------ */

/** Raises the error Swift left on top with ctx->pending_kind, adding the caller's position
 *  (as luaL_error does) unless the message already has one. */
static int clua_raise_pending(lua_State *L) {
    int kind = clua_getctx(L)->pending_kind;
    if (!(kind & CLUA_KIND_FLAG_POSITIONED) && lua_type(L, -1) == LUA_TSTRING) {
        luaL_where(L, 1);
        lua_insert(L, -2);
        lua_concat(L, 2);
    }
    return clua_raise_kinded(L, kind & ~CLUA_KIND_FLAG_POSITIONED);
}

static int clua_async_cont(lua_State *L, int status, lua_KContext k) {
    (void)status;
    int nargs = (int)k;
    if (!lua_toboolean(L, nargs + 1)) {
        lua_settop(L, nargs + 2);
        return clua_raise_pending(L);
    }
    return lua_gettop(L) - nargs - 1;
}

/**
 * The lua_CFunction behind every Swift host function (upvalue 1: the function id). Calls the
 * Swift dispatcher with the memory budget lifted, then returns its results, raises the error
 * it left on the stack, or yields to Swift for an asynchronous host call. On resume the stack
 * holds `true, results...` or `false, error`.
 */
static int clua_trampoline(lua_State *L) {
    clua_ctx *c = clua_getctx(L);
    lua_Integer fid = lua_tointeger(L, lua_upvalueindex(1));
    int nargs = lua_gettop(L);
    if (c->closing || c->dispatch == NULL) {
        return clua_raisef_kinded(L, CLUA_KIND_HOST, "host function called while the Lua VM is closing");
    }
    int enforce = c->mem_enforce;
    c->mem_enforce = 0;
    int r = c->dispatch(L, c->owner, fid);
    c->mem_enforce = enforce;
    if (r >= 0) return r;
    if (r == CLUA_RESULT_YIELD) return lua_yieldk(L, 0, (lua_KContext)nargs, clua_async_cont);
    return clua_raise_pending(L);
}

/** Pushes a trampoline closure for host function `fid`. Can raise (allocates): Swift calls it
 *  with the memory budget lifted only. */
static inline void clua_pushhostfunction(lua_State *L, lua_Integer fid) {
    lua_pushinteger(L, fid);
    lua_pushcclosure(L, clua_trampoline, 1);
}

/* ------------------------------------------------------------------------------------------ */
/* Sandbox library wrappers                                                                     */
/* ------------------------------------------------------------------------------------------ */

/** Calls upvalue 1 with all arguments and returns all its results. */
static int clua_forward(lua_State *L) {
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 1);
    lua_call(L, lua_gettop(L) - 1, LUA_MULTRET);
    return lua_gettop(L);
}

/** `load`: text chunks only, whatever mode is asked for; charges the chunk's size. */
static int clua_sb_load(lua_State *L) {
    if (lua_type(L, 1) == LUA_TSTRING) clua_charge(L, (lua_Integer)(lua_rawlen(L, 1) / 16));
    if (lua_gettop(L) < 3) lua_settop(L, 3);
    lua_pushliteral(L, "t");
    lua_replace(L, 3);
    return clua_forward(L);
}

/** `collectgarbage`: only "count". */
static int clua_sb_collectgarbage(lua_State *L) {
    const char *opt = luaL_optstring(L, 1, "collect");
    if (strcmp(opt, "count") != 0) {
        return clua_raisef_kinded(L, CLUA_KIND_SANDBOX,
            "collectgarbage(\"%s\") is not allowed in FlowScript (only \"count\" is)", opt);
    }
    int kb = lua_gc(L, LUA_GCCOUNT, 0);
    int b = lua_gc(L, LUA_GCCOUNTB, 0);
    lua_pushnumber(L, (lua_Number)kb + (lua_Number)b / 1024.0);
    return 1;
}

/** `rawset`: refused on read-only proxies; on the locked global table, same rule as `t[k] = v`. */
static int clua_sb_rawset(lua_State *L) {
    luaL_checktype(L, 1, LUA_TTABLE);
    luaL_checkany(L, 2);
    luaL_checkany(L, 3);
    lua_settop(L, 3);
    if (lua_getmetatable(L, 1)) {
        lua_pushliteral(L, "__readonly");
        if (lua_rawget(L, 4) == LUA_TSTRING) {
            return clua_raisef_kinded(L, CLUA_KIND_READ_ONLY, "%s is read-only (rawset cannot change it)",
                                      lua_tostring(L, -1));
        }
        lua_pop(L, 1);
        lua_pushliteral(L, "__lockedglobals");
        if (lua_rawget(L, 4) != LUA_TNIL) {
            lua_pop(L, 1);
            lua_pushliteral(L, "__newindex");
            lua_rawget(L, 4);
            lua_pushvalue(L, 1);
            lua_pushvalue(L, 2);
            lua_pushvalue(L, 3);
            lua_call(L, 3, 0);
            lua_settop(L, 1);
            return 1;
        }
        lua_pop(L, 2);
    }
    lua_rawset(L, 1);
    return 1;
}

/** `setmetatable`: no __gc (finalizers would run Lua code at arbitrary times). */
static int clua_sb_setmetatable(lua_State *L) {
    if (lua_type(L, 2) == LUA_TTABLE) {
        lua_pushliteral(L, "__gc");
        int t = lua_rawget(L, 2);
        lua_pop(L, 1);
        if (t != LUA_TNIL) {
            return clua_raisef_kinded(L, CLUA_KIND_SANDBOX,
                "setmetatable: __gc metamethods are not allowed in FlowScript");
        }
    }
    return clua_forward(L);
}

/** `print`: tab-joined tostring of the arguments, handed to the Swift sink. */
static int clua_sb_print(lua_State *L) {
    clua_ctx *c = clua_getctx(L);
    int n = lua_gettop(L);
    luaL_Buffer b;
    luaL_buffinit(L, &b);
    for (int i = 1; i <= n; i++) {
        if (i > 1) luaL_addchar(&b, '\t');
        luaL_tolstring(L, i, NULL);
        luaL_addvalue(&b);
    }
    luaL_pushresult(&b);
    if (c->dispatch != NULL && !c->closing) {
        int enforce = c->mem_enforce;
        c->mem_enforce = 0;
        c->dispatch(L, c->owner, CLUA_PRINT_FID);
        c->mem_enforce = enforce;
    }
    return 0;
}

/* Metered library functions: charge the work they do in C against the instruction budget.
 * Upvalue 1: the original function; upvalue 2: the meter. One unit per element or per 16 bytes. */
enum {
    CLUA_METER_STRING_SUBJECT = 1, /* find, match, gmatch, gsub: length of the subject */
    CLUA_METER_STRING_REP = 2,     /* rep: length of the result / 64 (copies are cheap) */
    CLUA_METER_TABLE_LENGTH = 3,   /* insert, remove, concat: length of the table */
    CLUA_METER_TABLE_RANGE = 4,    /* unpack: j - i + 1 */
    CLUA_METER_TABLE_MOVE = 5,     /* move: e - f + 1 */
    CLUA_METER_TABLE_SORT = 6      /* sort: n log2 n */
};

static lua_Integer clua_optint(lua_State *L, int idx, lua_Integer def) {
    int isnum = 0;
    lua_Integer v = lua_tointegerx(L, idx, &isnum);
    return isnum ? v : def;
}

static lua_Integer clua_range(lua_Integer from, lua_Integer to) {
    if (to < from) return 0;
    if (from < 0 && to > LUA_MAXINTEGER + from) return LUA_MAXINTEGER;
    return to - from + 1;
}

static int clua_metered(lua_State *L) {
    lua_Integer meter = lua_tointeger(L, lua_upvalueindex(2));
    lua_Integer units = 0;
    switch (meter) {
    case CLUA_METER_STRING_SUBJECT:
        if (lua_type(L, 1) == LUA_TSTRING) units = (lua_Integer)(lua_rawlen(L, 1) / 16);
        break;
    case CLUA_METER_STRING_REP: {
        if (lua_type(L, 1) != LUA_TSTRING) break;
        size_t l = lua_rawlen(L, 1);
        size_t lsep = lua_type(L, 3) == LUA_TSTRING ? lua_rawlen(L, 3) : 0;
        lua_Integer n = clua_optint(L, 2, 0);
        if (n > 0 && l + lsep == 0) { /* n copies of nothing: no work, no loop */
            lua_pushliteral(L, "");
            return 1;
        }
        if (n > 0) {
            /* A result the memory budget cannot hold fails on memory first: no charge. */
            clua_ctx *c = clua_getctx(L);
            size_t avail = c->mem_used < c->mem_limit ? c->mem_limit - c->mem_used : 0;
            size_t per = l + lsep;
            if ((size_t)n <= avail / per) units = (lua_Integer)(((size_t)n * per) / 64);
        }
        break;
    }
    case CLUA_METER_TABLE_LENGTH:
        if (lua_type(L, 1) == LUA_TTABLE) units = (lua_Integer)lua_rawlen(L, 1);
        break;
    case CLUA_METER_TABLE_RANGE:
        if (lua_type(L, 1) == LUA_TTABLE) {
            lua_Integer i = clua_optint(L, 2, 1);
            lua_Integer j = lua_isnoneornil(L, 3) ? (lua_Integer)lua_rawlen(L, 1) : clua_optint(L, 3, 0);
            units = clua_range(i, j);
        }
        break;
    case CLUA_METER_TABLE_MOVE:
        units = clua_range(clua_optint(L, 2, 1), clua_optint(L, 3, 0));
        break;
    case CLUA_METER_TABLE_SORT:
        if (lua_type(L, 1) == LUA_TTABLE) {
            lua_Integer n = (lua_Integer)lua_rawlen(L, 1), log2n = 1;
            while ((((lua_Integer)1) << log2n) < n && log2n < 62) log2n++;
            units = n * log2n;
        }
        break;
    default:
        break;
    }
    clua_charge(L, units);
    return clua_forward(L);
}

/* ------------------------------------------------------------------------------------------ */
/* Building the sandbox                                                                         */
/* ------------------------------------------------------------------------------------------ */

/** Copies field `name` of the table at `from` into the table at `to`. */
static void clua_copyfield(lua_State *L, int from, int to, const char *name) {
    lua_getfield(L, from, name);
    lua_setfield(L, to, name);
}

/** Pushes a copy of the table at `from` without the fields listed in `skip` (NULL-terminated). */
static void clua_copytable(lua_State *L, int from, const char *const *skip) {
    from = lua_absindex(L, from);
    lua_newtable(L);
    int to = lua_gettop(L);
    lua_pushnil(L);
    while (lua_next(L, from) != 0) {
        int skipped = 0;
        if (skip != NULL && lua_type(L, -2) == LUA_TSTRING) {
            const char *k = lua_tostring(L, -2);
            for (const char *const *s = skip; *s != NULL; s++) {
                if (strcmp(*s, k) == 0) { skipped = 1; break; }
            }
        }
        if (skipped) {
            lua_pop(L, 1);
        } else {
            lua_pushvalue(L, -2);
            lua_insert(L, -2);
            lua_rawset(L, to);
        }
    }
}

/** Replaces field `name` of the table at `t` by a wrapper closure (original as upvalue 1). */
static void clua_wrapfield(lua_State *L, int t, const char *name, lua_CFunction wrapper, int meter) {
    t = lua_absindex(L, t);
    lua_getfield(L, t, name);
    if (meter != 0) {
        lua_pushinteger(L, meter);
        lua_pushcclosure(L, wrapper, 2);
    } else {
        lua_pushcclosure(L, wrapper, 1);
    }
    lua_setfield(L, t, name);
}

/**
 * Builds the sandboxed global table from scratch and installs it as the global table.
 * Run in protected mode (clua_setup_sandbox).
 */
static int clua_setup(lua_State *L) {
    clua_ctx *c = clua_getctx(L);
    static const char *const base_names[] = {
        "assert", "error", "getmetatable", "ipairs", "next", "pairs", "pcall", "rawequal",
        "rawget", "rawlen", "select", "tonumber", "tostring", "type", "xpcall", "warn", "_VERSION",
        NULL
    };
    static const char *const no_dump[] = { "dump", NULL };

    lua_pushboolean(L, 0);
    lua_rawsetp(L, LUA_REGISTRYINDEX, clua_kinded_key(c));

    /* 1: the loaded-modules table (originals, for error messages naming 'table.insert' ...). */
    luaL_getsubtable(L, LUA_REGISTRYINDEX, LUA_LOADED_TABLE);
    /* 2: the original global table, filled by luaopen_base. */
    luaopen_base(L);
    lua_pushvalue(L, 2);
    lua_setfield(L, 1, LUA_GNAME);
    /* 3..8: the original libraries. */
    luaopen_string(L);    lua_pushvalue(L, -1); lua_setfield(L, 1, LUA_STRLIBNAME);
    luaopen_table(L);     lua_pushvalue(L, -1); lua_setfield(L, 1, LUA_TABLIBNAME);
    luaopen_math(L);      lua_pushvalue(L, -1); lua_setfield(L, 1, LUA_MATHLIBNAME);
    luaopen_utf8(L);      lua_pushvalue(L, -1); lua_setfield(L, 1, LUA_UTF8LIBNAME);
    luaopen_coroutine(L); lua_pushvalue(L, -1); lua_setfield(L, 1, LUA_COLIBNAME);
    luaopen_os(L);        lua_pushvalue(L, -1); lua_setfield(L, 1, LUA_OSLIBNAME);
    const int ostr = 3, otab = 4, omath = 5, outf8 = 6, oco = 7, oos = 8;

    /* 9: the new global table. */
    lua_createtable(L, 0, 32);
    const int env = 9;
    for (const char *const *n = base_names; *n != NULL; n++) clua_copyfield(L, 2, env, *n);
    lua_getfield(L, 2, "load");         lua_pushcclosure(L, clua_sb_load, 1);         lua_setfield(L, env, "load");
    lua_getfield(L, 2, "rawset");       lua_pushcclosure(L, clua_sb_rawset, 1);       lua_setfield(L, env, "rawset");
    lua_getfield(L, 2, "setmetatable"); lua_pushcclosure(L, clua_sb_setmetatable, 1); lua_setfield(L, env, "setmetatable");
    lua_pushcfunction(L, clua_sb_collectgarbage); lua_setfield(L, env, "collectgarbage");
    lua_pushcfunction(L, clua_sb_print);          lua_setfield(L, env, "print");
    lua_pushvalue(L, env); lua_setfield(L, env, LUA_GNAME);

    /* string: everything but dump; heavy functions metered; strings' methods use this table. */
    clua_copytable(L, ostr, no_dump);
    clua_wrapfield(L, -1, "find", clua_metered, CLUA_METER_STRING_SUBJECT);
    clua_wrapfield(L, -1, "match", clua_metered, CLUA_METER_STRING_SUBJECT);
    clua_wrapfield(L, -1, "gmatch", clua_metered, CLUA_METER_STRING_SUBJECT);
    clua_wrapfield(L, -1, "gsub", clua_metered, CLUA_METER_STRING_SUBJECT);
    clua_wrapfield(L, -1, "rep", clua_metered, CLUA_METER_STRING_REP);
    lua_pushliteral(L, "");
    if (lua_getmetatable(L, -1)) {
        lua_pushvalue(L, -3);
        lua_setfield(L, -2, "__index");
        lua_pop(L, 1);
    }
    lua_pop(L, 1);
    lua_setfield(L, env, LUA_STRLIBNAME);

    /* table: everything; work proportional to sizes is metered. */
    clua_copytable(L, otab, NULL);
    clua_wrapfield(L, -1, "insert", clua_metered, CLUA_METER_TABLE_LENGTH);
    clua_wrapfield(L, -1, "remove", clua_metered, CLUA_METER_TABLE_LENGTH);
    clua_wrapfield(L, -1, "concat", clua_metered, CLUA_METER_TABLE_LENGTH);
    clua_wrapfield(L, -1, "unpack", clua_metered, CLUA_METER_TABLE_RANGE);
    clua_wrapfield(L, -1, "move", clua_metered, CLUA_METER_TABLE_MOVE);
    clua_wrapfield(L, -1, "sort", clua_metered, CLUA_METER_TABLE_SORT);
    lua_setfield(L, env, LUA_TABLIBNAME);

    clua_copytable(L, omath, NULL);  lua_setfield(L, env, LUA_MATHLIBNAME);
    clua_copytable(L, outf8, NULL);  lua_setfield(L, env, LUA_UTF8LIBNAME);
    clua_copytable(L, oco, NULL);    lua_setfield(L, env, LUA_COLIBNAME);

    /* os: time, clock, date only. */
    lua_createtable(L, 0, 3);
    clua_copyfield(L, oos, lua_gettop(L), "time");
    clua_copyfield(L, oos, lua_gettop(L), "clock");
    clua_copyfield(L, oos, lua_gettop(L), "date");
    lua_setfield(L, env, LUA_OSLIBNAME);

    lua_pushvalue(L, env);
    lua_rawseti(L, LUA_REGISTRYINDEX, LUA_RIDX_GLOBALS);
    return 0;
}

/** Builds the sandbox in protected mode; returns a Lua status (the error is left on top). */
static inline int clua_setup_sandbox(lua_State *L) {
    clua_ctx *c = clua_getctx(L);
    lua_pushcfunction(L, clua_setup);
    c->mem_enforce = 1;
    int status = lua_pcall(L, 0, 0, 0);
    c->mem_enforce = 0;
    return status;
}

/* ------------------------------------------------------------------------------------------ */
/* Locked globals                                                                               */
/* ------------------------------------------------------------------------------------------ */

/* Upvalue 1 of both: the set of declared global names. */
static int clua_env_index(lua_State *L) {
    lua_pushvalue(L, 2);
    if (lua_rawget(L, lua_upvalueindex(1)) != LUA_TNIL) {
        lua_pushnil(L);
        return 1;
    }
    return clua_raisef_kinded(L, CLUA_KIND_UNDECLARED_GLOBAL, "undeclared global '%s'", clua_keyname(L, 2));
}

static int clua_env_newindex(lua_State *L) {
    lua_pushvalue(L, 2);
    if (lua_rawget(L, lua_upvalueindex(1)) == LUA_TNIL) {
        return clua_raisef_kinded(L, CLUA_KIND_UNDECLARED_GLOBAL,
            "assignment to undeclared global '%s' (globals are locked after loading; use a local variable)",
            clua_keyname(L, 2));
    }
    lua_settop(L, 3);
    lua_rawset(L, 1);
    return 0;
}

/** Locks the global table (argument 1): every name present now is declared. Protected. */
static int clua_lock_fn(lua_State *L) {
    if (lua_getmetatable(L, 1)) {
        lua_pushliteral(L, "__lockedglobals");
        if (lua_rawget(L, -2) != LUA_TNIL) return 0;
        lua_pop(L, 2);
    }
    lua_newtable(L); /* 2: declared names */
    lua_pushnil(L);
    while (lua_next(L, 1) != 0) {
        lua_pop(L, 1);
        lua_pushvalue(L, -1);
        lua_pushboolean(L, 1);
        lua_rawset(L, 2);
    }
    lua_createtable(L, 0, 5); /* 3: metatable */
    lua_pushvalue(L, 2); lua_pushcclosure(L, clua_env_index, 1);    lua_setfield(L, 3, "__index");
    lua_pushvalue(L, 2); lua_pushcclosure(L, clua_env_newindex, 1); lua_setfield(L, 3, "__newindex");
    lua_pushvalue(L, 2); lua_setfield(L, 3, "__declared");
    lua_pushboolean(L, 1); lua_setfield(L, 3, "__lockedglobals");
    lua_pushliteral(L, "locked globals"); lua_setfield(L, 3, "__metatable");
    lua_setmetatable(L, 1);
    return 0;
}

/** Declares name (argument 2) in the locked global table (argument 1), if locked. Protected. */
static int clua_declare_fn(lua_State *L) {
    if (!lua_getmetatable(L, 1)) return 0;
    lua_pushliteral(L, "__declared");
    if (lua_rawget(L, -2) == LUA_TTABLE) {
        lua_pushvalue(L, 2);
        lua_pushboolean(L, 1);
        lua_rawset(L, -3);
    }
    return 0;
}

/** Runs `fn` on the `nargs` values on top of the stack in protected mode. */
static inline int clua_protected(lua_State *L, lua_CFunction fn, int nargs) {
    clua_ctx *c = clua_getctx(L);
    lua_pushcfunction(L, fn);
    lua_insert(L, -(nargs + 1));
    int enforce = c->mem_enforce;
    c->mem_enforce = 1;
    int status = lua_pcall(L, nargs, 0, 0);
    c->mem_enforce = enforce;
    return status;
}

static inline int clua_lock_globals(lua_State *L) {
    lua_pushglobaltable(L);
    return clua_protected(L, clua_lock_fn, 1);
}

/** Declares the string on top of the stack as a global name (pops it). */
static inline int clua_declare_global(lua_State *L) {
    lua_pushglobaltable(L);
    lua_insert(L, -2);
    return clua_protected(L, clua_declare_fn, 2);
}

/* ------------------------------------------------------------------------------------------ */
/* Read-only proxies                                                                            */
/* ------------------------------------------------------------------------------------------ */

/* Upvalues of the proxy metamethods: 1 the backing table, 2 the proxy's name (string),
 * 3 (strict __index only) a function called as f(name, key) for keys missing from the backing
 * table. */
static int clua_ro_index_strict(lua_State *L) {
    lua_pushvalue(L, 2);
    if (lua_rawget(L, lua_upvalueindex(1)) != LUA_TNIL) return 1;
    lua_pop(L, 1);
    lua_pushvalue(L, lua_upvalueindex(3));
    lua_pushvalue(L, lua_upvalueindex(2));
    lua_pushvalue(L, 2);
    lua_call(L, 2, 1);
    return 1;
}

static int clua_ro_newindex(lua_State *L) {
    return clua_raisef_kinded(L, CLUA_KIND_READ_ONLY, "%s is read-only (cannot assign '%s')",
                              lua_tostring(L, lua_upvalueindex(2)), clua_keyname(L, 2));
}

static int clua_ro_len(lua_State *L) {
    lua_pushinteger(L, (lua_Integer)lua_rawlen(L, lua_upvalueindex(1)));
    return 1;
}

/** Wraps `next` as a lua_CFunction (lua_next's signature differs). */
static int clua_next_fn(lua_State *L) {
    luaL_checktype(L, 1, LUA_TTABLE);
    lua_settop(L, 2);
    if (lua_next(L, 1)) return 2;
    lua_pushnil(L);
    return 1;
}

static int clua_ro_pairs_fn(lua_State *L) {
    lua_pushcfunction(L, clua_next_fn);
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_pushnil(L);
    return 3;
}

/**
 * Arguments: backing table, name, missing-key handler or nil. Returns the proxy. Protected.
 */
static int clua_readonly_fn(lua_State *L) {
    lua_settop(L, 3);
    lua_newtable(L);              /* 4: proxy */
    lua_createtable(L, 0, 6);     /* 5: metatable */
    if (lua_isnil(L, 3)) {
        lua_pushvalue(L, 1);
    } else {
        lua_pushvalue(L, 1); lua_pushvalue(L, 2); lua_pushvalue(L, 3);
        lua_pushcclosure(L, clua_ro_index_strict, 3);
    }
    lua_setfield(L, 5, "__index");
    lua_pushvalue(L, 1); lua_pushvalue(L, 2); lua_pushcclosure(L, clua_ro_newindex, 2); lua_setfield(L, 5, "__newindex");
    lua_pushvalue(L, 1); lua_pushcclosure(L, clua_ro_pairs_fn, 1); lua_setfield(L, 5, "__pairs");
    lua_pushvalue(L, 1); lua_pushcclosure(L, clua_ro_len, 1);      lua_setfield(L, 5, "__len");
    lua_pushvalue(L, 2); lua_setfield(L, 5, "__readonly");
    lua_pushliteral(L, "read-only"); lua_setfield(L, 5, "__metatable");
    lua_setmetatable(L, 4);
    return 1;
}

/** Replaces backing table, name and handler (top three values) by the read-only proxy. */
static inline int clua_make_readonly(lua_State *L) {
    clua_ctx *c = clua_getctx(L);
    lua_pushcfunction(L, clua_readonly_fn);
    lua_insert(L, -4);
    int enforce = c->mem_enforce;
    c->mem_enforce = 1;
    int status = lua_pcall(L, 3, 1, 0);
    c->mem_enforce = enforce;
    return status;
}

/* ------------------------------------------------------------------------------------------ */
/* Deep equality                                                                                */
/* ------------------------------------------------------------------------------------------ */

/** Deep equality of two values (raw: no metamethods). Tables compare key by key, up to a depth
 *  of 64 (deeper or cyclic structures compare by identity). Never raises. */
static int clua_deepequal(lua_State *L, int a, int b, int depth) {
    a = lua_absindex(L, a);
    b = lua_absindex(L, b);
    if (lua_rawequal(L, a, b)) return 1;
    if (lua_type(L, a) != LUA_TTABLE || lua_type(L, b) != LUA_TTABLE) return 0;
    if (depth >= 64 || !lua_checkstack(L, 4)) return 0;
    int equal = 1;
    lua_Integer counta = 0, countb = 0;
    lua_pushnil(L);
    while (lua_next(L, a) != 0) {
        counta++;
        lua_pushvalue(L, -2);
        lua_rawget(L, b);
        if (lua_isnil(L, -1) || !clua_deepequal(L, -2, -1, depth + 1)) {
            lua_pop(L, 3);
            equal = 0;
            break;
        }
        lua_pop(L, 2);
    }
    if (!equal) return 0;
    lua_pushnil(L);
    while (lua_next(L, b) != 0) {
        countb++;
        lua_pop(L, 1);
    }
    return counta == countb;
}

/** deepEqual(a, b) as a Lua function. */
static int clua_deepequal_fn(lua_State *L) {
    lua_settop(L, 2);
    lua_pushboolean(L, clua_deepequal(L, 1, 2, 0));
    return 1;
}

static inline void clua_pushdeepequal(lua_State *L) { lua_pushcfunction(L, clua_deepequal_fn); }

/* ------------------------------------------------------------------------------------------ */
/* Closing                                                                                      */
/* ------------------------------------------------------------------------------------------ */

/** Closes the state; any Lua code still run by the close stops at its first hook. */
static inline void clua_close(lua_State *L) {
    clua_ctx *c = clua_getctx(L);
    c->closing = 1;
    c->instr_used = c->instr_budget;
    c->mem_enforce = 0;
    lua_close(L);
}

#endif
