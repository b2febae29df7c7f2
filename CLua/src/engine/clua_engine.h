#ifndef FLOWSTACK_CLUA_ENGINE_H
#define FLOWSTACK_CLUA_ENGINE_H
/*
 * What the engine's files (src/engine: the sandbox, frozen and read-only tables, metered
 * library functions, the decide loop and its proxies) share, never Swift: the functions one file
 * defines for another and the decision's op state. They build on the shim (clua_shim.h); what
 * Swift calls is in CLua.h.
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
 *  CLUA_METER_, CLUA_PAT_    metered library functions, pattern items (clua_metered.c, clua_pattern_bound.c)
 */
#include "../shim/clua_shim.h"

/* ---- clua_levels.c ----------------------------------------------------------------------- */

/** Holds a fresh state's main thread to CLUA_C_LEVELS levels (a head start on Lua's own count,
 *  checked by a probe); returns CLUA_C_LEVELS, or 0 when this Lua's layout is not the one
 *  expected (the state keeps its own limit, and a warning goes to standard error once). */
int clua_align_c_levels(lua_State *L);


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

/** The state behind a decision's `op` and `ctx` (a userdata with user values, clua_op.c): the
 *  decision's scalars, and what clua_op_set set and a rule's first read froze in it. */
typedef struct clua_op_state {
    clua_decision d;
    /* Whether the route, routes and dialog are set: a user value is read only while its flag
     * is set, so a decision without one writes nothing (the value left there is never read). */
    int has_route, has_routes, has_dialog;
    /* Whether op.tab (the tab a selectTab selects), ctx.tab (the selected tab) and ctx.tabs
     * (every tab of a tabbed router, a table made for the decision) are set. */
    int has_tab, has_ctx_tab, has_ctx_tabs;
    /* Whether op.route / op.routes were frozen (clua_guard.c) on their first read in the
     * decision: a rule can never change what later rules and the guards read. */
    int route_frozen, routes_frozen;
} clua_op_state;

void clua_op_make(lua_State *L, int kinds, int sources);

void clua_op_set(lua_State *L, int st, const clua_decision *d, int route, int routes, int dialog, int tab, int ctx_tab,
                 int ctx_tabs);

#endif
