#ifndef FLOWSTACK_CLUA_H
#define FLOWSTACK_CLUA_H
/*
 * What Swift calls in C (`import CLua`): Lua 5.4's own headers, and the functions FlowLua needs
 * that Swift cannot write or must never run itself. Nothing else: what the C files share is in
 * their private headers, src/shim/clua_shim.h and src/engine/clua_engine.h.
 *
 * Two parts, one folder each under src/:
 *  - shim/: the boundary itself. The per-VM context (budgets, error bookkeeping, the Swift
 *    dispatcher), protected calls and resumes, the host-function trampoline, the message
 *    handler and error descriptions, loading, coverage counts, and Lua's macros Swift cannot
 *    call.
 *  - engine/: what runs inside Lua for the rules. The sandbox, nesting limit, frozen and
 *    read-only tables, metered library functions, and the decide loop with its `op`, `ctx` and
 *    `stacks` proxies.
 *
 * The longjmp rules Swift follows are written in Sources/FlowLua/LuaVM.swift. In short:
 * lua_error and lua_yield never run in a Swift frame (a host function returns CLUA_RESULT_ERROR or
 * CLUA_RESULT_YIELD and the trampoline acts on it), and Swift calls only API functions that cannot
 * raise while the memory budget is lifted. Everything that runs Lua code goes through
 * clua_call, clua_decide_call, clua_call_nested or clua_resume.
 */
#include <stddef.h>
#include <stdlib.h> /* free(), for clua_dumpbuf.bytes */
#include <lua.h>
#include <lauxlib.h>
#include <lualib.h>

/* ---- Lua's macros, as functions (Swift cannot call a C macro) ---------------------------- */

static inline int clua_registryindex(void) { return LUA_REGISTRYINDEX; }
static inline int clua_ridx_globals(void) { return LUA_RIDX_GLOBALS; }
static inline int clua_multret(void) { return LUA_MULTRET; }
static inline int clua_pcall(lua_State *L, int nargs, int nresults, int msgh) {
    return lua_pcall(L, nargs, nresults, msgh);
}
static inline void clua_remove(lua_State *L, int index) { lua_remove(L, index); }

/* ======================================================================================== */
/* shim/: the boundary                                                                      */
/* ======================================================================================== */

/* ---- The context: budgets, error bookkeeping, the dispatcher (clua_ctx.c) ---------------- */

/** Markers a Swift host function returns instead of a result count. */
enum {
    /** The error value is on top of the stack; raise it with the kind set by
     *  clua_ctx_set_pending_kind. */
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
    /** Flag added to the pending kind: the message already starts with a position. */
    CLUA_KIND_FLAG_POSITIONED = 0x100
};

/** Function id the print replacement passes to the dispatcher. */
enum { CLUA_PRINT_FID = 0 };

/** The Swift dispatcher: runs host function `fid`; returns a result count or a marker. */
typedef int (*clua_dispatch_fn)(lua_State *L, void *owner, lua_Integer fid);

/** A VM's context. Opaque: set and read through the functions below. */
typedef struct clua_ctx clua_ctx;

/** A new context, every budget off and no dispatcher; NULL when out of memory. */
clua_ctx *clua_ctx_new(void);

/** Frees a context (after clua_close of its state). */
void clua_ctx_free(clua_ctx *c);

/** Sets the Swift dispatcher of host functions and the owner it is handed. */
void clua_ctx_set_host(clua_ctx *c, clua_dispatch_fn dispatch, void *owner);

/** Sets the memory budget in bytes (what the VM may hold). */
void clua_ctx_set_memory_limit(clua_ctx *c, size_t bytes);

/** The memory budget in bytes. */
size_t clua_ctx_memory_limit(const clua_ctx *c);

/** Bytes the VM holds now (the allocator's count). */
size_t clua_ctx_memory_used(const clua_ctx *c);

/** The most bytes the VM held at once. */
size_t clua_ctx_memory_peak(const clua_ctx *c);

/** Sets the instructions one call may run (at least 1) and the hook's step that goes with it
 *  (every 1,000 instructions, or the budget when smaller). */
void clua_ctx_set_instruction_budget(clua_ctx *c, long long budget);

/** The instructions one call may run. */
long long clua_ctx_instruction_budget(const clua_ctx *c);

/** Instructions the last (or running) call ran, as the hook counted them. */
long long clua_ctx_instructions_used(const clua_ctx *c);

/** Sets the wall-clock limit of one call in nanoseconds beyond what its instructions account
 *  for (0: none). */
void clua_ctx_set_time_limit(clua_ctx *c, long long nanoseconds);

/** The time limit in nanoseconds (0: none). */
long long clua_ctx_time_limit(const clua_ctx *c);

/** The line and call counts of the chunks registered for coverage (clua_coverage.c). */
typedef struct clua_coverage clua_coverage;

/** Where the hook counts lines and calls (NULL: coverage off); re-arm the hook after it. */
void clua_ctx_set_coverage(clua_ctx *c, clua_coverage *coverage);

/** Notes that style rules run next: the running rule is the style rule last started. */
void clua_ctx_note_style_rules(clua_ctx *c);

/** The kind the trampoline raises the error a host function left (CLUA_RESULT_ERROR) with. */
void clua_ctx_set_pending_kind(clua_ctx *c, int kind);

/** The only thread allowed to yield to Swift now (an asynchronous call's), or NULL. */
lua_State *clua_ctx_async_thread(const clua_ctx *c);

/** What the last call left for Swift to type and locate its error. */
typedef struct clua_outcome {
    int time_exhausted;        /* the time limit ran out */
    int instr_exhausted;       /* the instruction budget ran out */
    int mem_exceeded;          /* an allocation was refused by the memory budget */
    int mem_stopped;           /* a refusal was final: the call stopped like an exhausted budget */
    int kinded_kind;           /* the kind of the last error raised with one (CLUA_KIND_NONE: none) */
    size_t mem_refused;        /* the size of the last refused allocation */
    int err_line;              /* the innermost Lua frame of the last error handled (0: none) */
    const char *err_src;       /* its chunk name; valid until the next call */
    const char *stop_message;  /* the first budget or time error with its position ("" none) */
} clua_outcome;

/** The outcome of the last call (read before the next one). */
clua_outcome clua_ctx_outcome(const clua_ctx *c);

/* ---- The state: allocator, hook, closing (clua_context.c) -------------------------------- */

/** Creates a state whose allocations are accounted in `c`; NULL when out of memory. */
lua_State *clua_newstate(clua_ctx *c);

/** Installs the counting hook on `L` (every thread that runs Lua code needs it). */
void clua_armhook(lua_State *L);

/** Closes the state; any Lua code still run by the close stops at its first hook. */
void clua_close(lua_State *L);

/* ---- Calls, resumes, loading, the trampoline (clua_calls.c) ------------------------------ */

/** Protected call for a fresh top-level call: resets the instruction budget, arms the hook,
 *  enforces the memory budget while Lua runs. `msgh` is the stack index of the message handler. */
int clua_call(lua_State *L, int nargs, int nresults, int msgh);

/** clua_decide_call's status for a decision that allowed (nothing left on the stack). */
#define CLUA_DECIDED_ALLOW (-1)

/** clua_call for a rules decide function at `top + 1` with its arguments above it, from the
 *  main thread (the message handler at index 1). A decision that allowed (decide returned the
 *  single integer 0) returns CLUA_DECIDED_ALLOW with the stack back at `top`, so the common case
 *  reads no results; any other status is clua_call's, with its results or error on the stack. */
int clua_decide_call(lua_State *L, int top);

/** Protected call nested inside a running call (from a host function): shares its budget. */
int clua_call_nested(lua_State *L, int nargs, int nresults, int msgh);

/** Resumes `co` (the coroutine of an asynchronous call) with the budget enforced, counting on
 *  from `*instructions` (what the call ran before it suspended) and leaving the new count there;
 *  the outcome (clua_ctx_outcome) is the resume's own. */
int clua_resume(lua_State *co, lua_State *from, int nargs, int *nresults, long long *instructions);

/** Loads a text chunk (never binary) under the memory budget; never raises. */
int clua_loadtext(lua_State *L, const char *buf, size_t len, const char *chunkname);

/** Loads a binary chunk FlowScript itself dumped in this process (the rules prelude, compiled
 *  once): never call it with bytes from anywhere else, scripts only ever load text. */
int clua_loadtrusted(lua_State *L, const char *buf, size_t len, const char *chunkname);

/** A growing byte buffer for clua_dump (free `bytes` with free()). */
typedef struct clua_dumpbuf {
    char *bytes;
    size_t length;
    size_t capacity;
    int failed;
} clua_dumpbuf;

/** Dumps the Lua function on top of the stack (debug information kept) into `b`; 0 on success.
 *  Leaves the function on the stack; allocates with malloc, outside the VM's budget. */
int clua_dump(lua_State *L, clua_dumpbuf *b);

/** Pushes a trampoline closure for host function `fid`. Can raise (allocates): Swift calls it
 *  with the memory budget lifted only. */
void clua_pushhostfunction(lua_State *L, lua_Integer fid);

/* ---- Errors (clua_errors.c) -------------------------------------------------------------- */

/** Pushes the message handler: records the innermost Lua frame of an error and describes its
 *  value; the main thread keeps it at stack index 1. */
void clua_pushmsgh(lua_State *L);

/** Replaces the error object on top of `L` by its description, in protected mode. Returns 0 on
 *  success; otherwise the top is a fixed string. */
int clua_describe_top(lua_State *L);

/** Whether the value on top of `L` is the last error raised with a kind (the outcome's
 *  kinded_kind), for errors that did not go through the message handler (coroutines). */
int clua_top_is_kinded(lua_State *L);

/** Records the innermost Lua frame of a dead or suspended coroutine. */
void clua_record_thread_location(lua_State *co);

/* ---- Coverage counts (clua_coverage.c) --------------------------------------------------- */

/** A new, empty store; NULL when out of memory. Shared by every VM counting into it. */
clua_coverage *clua_coverage_new(void);

/** Registers chunk `source` with `lines` lines; its index, or -1 when out of memory. */
int clua_coverage_add(clua_coverage *cov, const char *source, int lines);

/** How many line events landed on `line` of file `index` (0 outside it). */
long long clua_coverage_line(const clua_coverage *cov, int index, int line);

/** How often the Lua functions defined on `line` of file `index` were called. */
long long clua_coverage_function(const clua_coverage *cov, int index, int line);

/** Frees the store (no VM may count into it any more). */
void clua_coverage_free(clua_coverage *cov);

/* ---- The linked Lua (clua_version.c) ----------------------------------------------------- */

/** The linked Lua library's own identification string, lua_ident ("$LuaVersion: Lua 5.4.7 ..."):
 *  a header and a library that differ cannot lie about it. */
const char *clua_library_ident(void);

/** LUA_RELEASE of the headers this target was compiled against ("Lua 5.4.7"). */
const char *clua_header_release(void);

/* ======================================================================================== */
/* engine/: what runs inside Lua for the rules                                              */
/* ======================================================================================== */

/* ---- The sandbox (clua_sandbox.c, clua_levels.c) ----------------------------------------- */

/** Builds the sandbox in protected mode; returns a Lua status (the error is left on top). First
 *  holds the state to CLUA_C_LEVELS nested C levels. */
int clua_setup_sandbox(lua_State *L);

/** Nested C levels a rule may use (C calls, `pcall`, metamethods, resumes, parser levels) before
 *  "C stack overflow", whichever Lua is linked (docs/lua-surface.md, "Nesting"). */
#define CLUA_C_LEVELS 64

/** The C levels a call from `L` may still nest: CLUA_C_LEVELS on a VM's main thread at rest. */
int clua_c_levels(lua_State *L);

/* ---- Globals and read-only tables (clua_tables.c, clua_guard.c) -------------------------- */

/** Starts declaring globals: until clua_lock_globals, the globals FlowScript installs are
 *  recorded as declared. Protected; returns a Lua status (the error is left on top). */
int clua_declaring_globals(lua_State *L);

/** Locks the global table: reading an undeclared global or writing any global is an error
 *  from now on. Protected; returns a Lua status (the error is left on top). */
int clua_lock_globals(lua_State *L);

/** Declares the string on top of the stack as a global name (pops it). */
int clua_declare_global(lua_State *L);

/** Replaces backing table, name, missing-key handler and what to do instead of assigning (top four
 *  values; the last two may be nil) by the read-only proxy. */
int clua_make_readonly(lua_State *L);

/** Pushes the backing table of the frozen table (or locked global table) at `idx` and returns 1;
 *  returns 0 with nothing pushed for any other value. Raw lookups; never raises. */
int clua_frozen_backing(lua_State *L, int idx);

/** Whether the table at `idx` has a metatable with a `__pairs` (raw lookups; never raises
 *  while the memory budget is lifted). */
int clua_haspairs(lua_State *L, int idx);

/** Pushes a plain copy of the table at `idx` in a protected call nested in the running one (its
 *  budgets apply), or the error; returns the call's status. */
int clua_plaincopy(lua_State *L, int idx);

/** Records `thread` as one FlowScript runs (an async call's): scripts cannot resume or close
 *  it. Run on the main thread with the memory budget lifted (may raise only when the process
 *  is out of memory, like any push). */
void clua_mark_host_thread(lua_State *L, lua_State *thread);

/* ---- The functions the preludes are given (clua_guard.c, clua_tables.c, clua_stacks.c,
 *      clua_decide.c) ------------------------------------------------------------------- */

/** Pushes `freeze(t, name)`, which makes a table and every table in it read-only (the prelude
 *  freezes what rules share). */
void clua_pushfreeze(lua_State *L);

/** Pushes `deepEqual(a, b)`, the structural comparison flow tests use. */
void clua_pushdeepequal(lua_State *L);

/** Pushes `sourceOf(f)`, the `file:line` where a Lua function was defined. */
void clua_pushsourceof(lua_State *L);

/** Pushes `stackKit(kit)`, which the rules prelude calls with its named table to get
 *  `makeStacks`, the maker of the lazy `stacks` argument of rules. */
void clua_pushstackkit(lua_State *L);

/** Pushes `decider(state)`, which the rules prelude calls to make its `decide` closure (and
 *  `running`) over its state, handed by name. */
void clua_pushdecider(lua_State *L);

/* ---- A decision's arguments (clua_decide.c) ---------------------------------------------- */

/** A decision's scalar arguments: written by Swift into the decide closure's own memory before
 *  each call (see clua_decision_args), and copied by decide into the state of the `op` and
 *  `ctx` the decision's rules read. */
typedef struct clua_decision {
    lua_Integer kind;          /* 1-based position in the prelude's KINDS */
    lua_Integer count;         /* op.count, when has_count */
    lua_Integer target;        /* op.target (1-based stack), when has_target */
    lua_Integer source;        /* 1-based position in the prelude's SOURCES */
    lua_Integer queued;        /* ctx.queuedDialogs */
    lua_Integer generation;    /* ctx.generation */
    lua_Integer snap;          /* which stacks in Swift (0: the synchronous decision's) */
    lua_Integer stack_count;   /* the number of stacks */
    lua_Integer front;         /* the front-most stack's number of screens */
    int has_count, has_target, is_async, run_defaults;
    /* Whether the router has tabs: without them, decide is called with 3 arguments (route,
     * routes, dialog) and op.tab, ctx.tab and ctx.tabs stay nil. */
    int tabbed;
} clua_decision;

/** The clua_decision a decide function made by decider reads (the function on top of the
 *  stack, left there); NULL for any other value. Swift writes a decision's arguments there. The
 *  memory lives as long as the function. */
clua_decision *clua_decision_args(lua_State *L);

#endif
