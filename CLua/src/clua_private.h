#ifndef FLOWSTACK_CLUA_PRIVATE_H
#define FLOWSTACK_CLUA_PRIVATE_H
/*
 * What the .c files of CLua share and Swift never calls: limits, shared enums and types, and the
 * functions one file defines for another. Each file's own helpers stay
 * `static` in it. A few accessors are `static inline` here, each with its reason beside it.
 * Include order: this header includes the public one (CLua.h), never the other way.
 *
 * Legend of the prefixes (each list is one enum; a position the prelude or Swift must agree on
 * is checked when the prelude loads, see clua_named.c):
 *  CLUA_DU_  upvalues of the rules' decide closure (clua_decide.c): ARGS, the prelude's state
 *            (given by name, clua_decide_state), the shared op/ctx, the names (DN), RUNLIST
 *  CLUA_DN_  the field names decide reads, kept as upvalues (a subrange of CLUA_DU_)
 *  CLUA_DS_  slots of decide's own Lua stack: its 3 arguments, then its working slots
 *  CLUA_DP_  the phases of a decision (defaults, route, routes, done); a suspended rule's place
 *            is (position << CLUA_DP_BITS) | phase in lua_callk's context (clua_decide_place)
 *  CLUA_OU_  user values of an op state userdata (clua_op.c)
 *  CLUA_OF_  the fields of `op`, in the order pairs walks them (clua_op_names)
 *  CLUA_SK_  positions in the stacks kit (clua_stacks.c), made from the prelude's named table
 *  CLUA_KIND_, CLUA_RESULT_  error kinds and host-function results shared with Swift (CLua.h)
 *  CLUA_METER_, CLUA_PAT_    metered library functions, pattern items (clua_metered.c, clua_pattern_bound.c)
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

/* ---- clua_levels.c ----------------------------------------------------------------------- */

/** Holds a fresh state's main thread to CLUA_C_LEVELS levels (a head start on Lua's own count,
 *  checked by a probe); returns CLUA_C_LEVELS, or 0 when this Lua's layout is not the one
 *  expected (the state keeps its own limit, and a warning goes to standard error once). */
int clua_align_c_levels(lua_State *L);


/* ---- clua_errors.c ----------------------------------------------------------------------- */

void clua_record_location(lua_State *L, clua_ctx *c, int level);

/* ---- clua_running.c ---------------------------------------------------------------------- */

void clua_running_save(lua_State *L, clua_ctx *c);

void clua_running_restore(lua_State *L, clua_ctx *c, int at);

int clua_running_fn(lua_State *L);

/* ---- clua_metered.c ---------------------------------------------------------------------- */

/* Metered library functions: charge the work they do in C against the instruction budget
 * before they run. Upvalue 1: the original function; upvalue 2: the meter. (Pattern functions
 * and the table functions that loop over elements have their own wrappers: clua_patterns.c,
 * clua_tablelib.c; building large values is charged by the allocator.) */
enum {
    CLUA_METER_SCAN = 1,         /* utf8.len, utf8.offset, upper, lower, reverse: #arg1 / 2 (work on each byte) */
    CLUA_METER_READ = 2,         /* tonumber: #arg1 / 4 (strtod, one pass) */
    CLUA_METER_STRING_RANGE = 3, /* string.byte, utf8.codepoint: values pushed, j - i + 1 */
    CLUA_METER_STRING_REP = 4,   /* string.rep: n / 2 (a copy per repetition; the bytes are charged as allocated) */
    CLUA_METER_TABLE_MOVE = 5,   /* table.move: e - f + 1 */
    CLUA_METER_OS_DATE = 6,      /* os.date: 16 per format byte (a strftime per conversion) */
    CLUA_METER_FORMAT = 7        /* string.format: #format / 4, and 40 per '%' (a sprintf per conversion) */
};

int clua_metered(lua_State *L);

/* ---- clua_pattern_bound.c ---------------------------------------------------------------- */

double clua_pat_bound(lua_State *L, const char *subj, size_t n, const char *p, size_t lp,
                      size_t from, int anchored, double limit);

/* ---- clua_patterns.c --------------------------------------------------------------------- */

int clua_sb_find(lua_State *L);

int clua_sb_match(lua_State *L);

int clua_sb_gsub(lua_State *L);

int clua_sb_gmatch(lua_State *L);

/* ---- clua_tablelib.c --------------------------------------------------------------------- */

int clua_sb_tinsert(lua_State *L);

int clua_sb_tremove(lua_State *L);

int clua_sb_tconcat(lua_State *L);

int clua_sb_tunpack(lua_State *L);

int clua_sb_tsort(lua_State *L);

/* ---- clua_guard.c ------------------------------------------------------------------------ */

void clua_freeze(lua_State *L, int idx, const char *name, int depth, int skip);

int clua_sb_rawget(lua_State *L);

int clua_sb_coresume(lua_State *L);

int clua_sb_coclose(lua_State *L);

void clua_read_chunk(lua_State *L);

void clua_check_call_field(lua_State *L, int mt);

void clua_guard_metatable(lua_State *L, int mt);

/* ---- clua_tables.c ----------------------------------------------------------------------- */

int clua_ro_pairs_fn(lua_State *L);

/* ---- clua_named.c ------------------------------------------------------------------------ */

/** One entry of a legend: the name the prelude uses and the Lua type the value must have. */
typedef struct clua_named {
    const char *name;
    int type;
} clua_named;

void clua_named_push(lua_State *L, int t, const clua_named *legend, int first, int last, const char *what);

/* ---- clua_stacks.c ----------------------------------------------------------------------- */

int clua_view_next(lua_State *L);

void clua_stacks_setcount(lua_State *L, int sst, lua_Integer count, lua_Integer front);

/* ---- clua_op.c --------------------------------------------------------------------------- */

void clua_op_make(lua_State *L, int kinds, int sources);

void clua_op_set(lua_State *L, int st, const clua_decision *d, int route, int routes, int dialog, int tab, int ctx_tab,
                 int ctx_tabs);

#endif
