#ifndef FLOWSTACK_CLUA_SHIM_H
#define FLOWSTACK_CLUA_SHIM_H
/*
 * What the shim (src/shim: the context, calls, errors, coverage) offers the engine and shares
 * among its own files, never Swift: the context's fields, the hook, the clock, raising errors
 * with a kind, charging work to the instruction budget, and which rule is running. What Swift
 * calls is in CLua.h; the shim uses nothing of the engine.
 *
 * Each file's own helpers stay `static` in it. A few accessors are `static inline` here, each
 * with its reason beside it.
 *
 * Legend of the prefixes shared with Swift (CLua.h): CLUA_KIND_ (error kinds), CLUA_RESULT_
 * (what a host function returns instead of a result count).
 */
#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "CLua.h"

/* ---- clua_coverage.c --------------------------------------------------------------------- */

/** One chunk's counts, indexed by line (1...lines). */
typedef struct clua_coverage_file {
    char *source;             /* the chunk's source name as Lua reports it ("=rules/a.lua") */
    int lines;
    long long *line_hits;     /* line events that landed on each line */
    long long *function_hits; /* calls of the Lua functions defined on each line */
} clua_coverage_file;

/** The counts of the chunks registered for coverage (shared by every VM counting into it). */
struct clua_coverage {
    int count;
    clua_coverage_file *files;
};

void clua_coverage_event(lua_State *L, lua_Debug *ar, clua_coverage *cov);

/* ---- clua_context.c ---------------------------------------------------------------------- */

/** clua_ctx.running_rule while style rules run (clua_running.c). */
#define CLUA_RUNNING_STYLE (-1)

/* The context behind the opaque clua_ctx of CLua.h: C reads and writes its fields; Swift goes
 * through the clua_ctx_ functions (clua_ctx.c). */
struct clua_ctx {
    /* memory budget (bytes) */
    size_t mem_used;
    size_t mem_limit;
    size_t mem_peak;
    size_t mem_refused;     /* size of the last allocation refused by the budget */
    int mem_enforce;        /* 1 while Lua code runs */
    int mem_exceeded;       /* set when an allocation was refused */
    int mem_stopped;        /* set when a refusal was final: the call stops like an exhausted budget */
    int mem_pending;        /* 1 after a refusal until it is known whether Lua's retry after a full
                             * collection (the same block and size, asked for at once) gets it */
    void *mem_refused_block; /* the block of the last refused allocation (NULL: a new one) */
    /* instruction budget (per call) */
    long long instr_budget;
    long long instr_used;
    int instr_step;         /* instructions between two hook calls */
    int instr_exhausted;    /* set when the budget ran out during the current call */
    /* time limit (per call, or per resume of an asynchronous call; host functions excluded) */
    long long time_limit_ns; /* 0: no limit */
    long long time_start_ns; /* when the running call started, moved forward by host time */
    int time_exhausted;     /* set when the limit ran out during the current call */
    char stop_message[LUA_IDSIZE + 96]; /* the first budget or time error of the call, with its position */
    /* print output */
    long long print_left;   /* bytes print may still emit in the running call */
    /* errors */
    int kinded_kind;        /* kind of the value stored in the registry slot keyed by &kinded_kind */
    int pending_kind;       /* kind Swift asks the trampoline to raise with */
    int err_line;           /* location of the innermost Lua frame when the last error was handled */
    char err_src[LUA_IDSIZE];
    lua_State *mem_thread;  /* the thread running now (main or async call thread; NULL while loading),
                             * whose location a refused allocation records */
    /* host functions */
    clua_dispatch_fn dispatch;
    void *owner;
    lua_State *async_thread; /* the only thread allowed to yield to Swift, or NULL */
    int closing;
    /* rules: the position of the rule a decision runs in its list (0: none; CLUA_RUNNING_STYLE
     * while style rules run), see clua_decide.c */
    lua_Integer running_rule;
    int decide_ref;         /* registry reference of the rules' decide closure (0: none) */
    int close_depth;        /* coroutine.close calls in progress (clua_guard.c) */
    unsigned alloc_tick;    /* allocations since the allocator last read the clock */
    int alloc_refusals;     /* growing allocations still to refuse after a stop (clua_alloc_stop) */
    int runlist_upvalue;    /* its upvalue holding the rule list being run */
    clua_coverage *coverage; /* where the hook counts lines and calls (NULL: coverage off) */
};



/** Bytes `print` may emit during one call. */
#define CLUA_PRINT_LIMIT (64LL * 1024)

/** Bytes kept of one printed line (and of any text FlowScript retains: reasons, warnings,
 *  error messages, see FlowScriptText.swift); longer ones are cut with a mark. */
#define CLUA_PRINT_LINE_LIMIT 4096

/* static inline: one load, on every entry from Lua into this target (a call would double it). */
static inline clua_ctx *clua_getctx(lua_State *L) { return *(clua_ctx **)lua_getextraspace(L); }

/* static inline: two loads, read wherever a hook is (re)armed. */
/** The events the hook asks for: instruction counts, and lines and calls while counting coverage. */
static inline int clua_hookmask(clua_ctx *c) {
    return LUA_MASKCOUNT | (c->coverage != NULL ? LUA_MASKLINE | LUA_MASKCALL : 0);
}

/* static inline: an address computation. */
static inline void *clua_kinded_key(clua_ctx *c) { return (void *)&c->kinded_kind; }

int clua_raise_kinded(lua_State *L, int kind);

int clua_raisef_kinded(lua_State *L, int kind, const char *fmt, ...);

const char *clua_keyname(lua_State *L, int idx);

/* static inline: a vDSO clock read, on the allocator's and the trampoline's paths. */
/** A cheap monotonic clock in nanoseconds (coarse where available: a few ms of resolution
 *  is plenty for a limit of about a second). */
static inline long long clua_now_ns(void) {
    struct timespec ts;
#if defined(CLOCK_MONOTONIC_COARSE)
    clock_gettime(CLOCK_MONOTONIC_COARSE, &ts);
#else
    clock_gettime(CLOCK_MONOTONIC, &ts);
#endif
    return (long long)ts.tv_sec * 1000000000LL + (long long)ts.tv_nsec;
}

/* static inline: three stores, at the start of every call and resume. */
/** Starts the time limit of a call (or of one resume of an asynchronous call). */
static inline void clua_start_clock(clua_ctx *c) {
    c->time_exhausted = 0;
    c->alloc_refusals = 0;
    if (c->time_limit_ns > 0) c->time_start_ns = clua_now_ns();
}

void clua_hook(lua_State *L, lua_Debug *ar);

void clua_charge(lua_State *L, lua_Integer units);

lua_Integer clua_posrelat(lua_Integer pos, size_t len);

int clua_forward(lua_State *L);

/* ---- clua_errors.c ----------------------------------------------------------------------- */

void clua_record_location(lua_State *L, clua_ctx *c, int level);

/* ---- clua_running.c ---------------------------------------------------------------------- */

void clua_running_save(lua_State *L, clua_ctx *c);

void clua_running_restore(lua_State *L, clua_ctx *c, int at);

int clua_running_fn(lua_State *L);

#endif
