/* FlowScript's C boundary: The per-VM context, the budgeted allocator, raising with a kind, the instruction budget.
 * The rules are in CLua.h. */
#include "clua_shim.h"

static void clua_stop_note(clua_ctx *c, int time, int frames_ok);
static void clua_mem_refused(clua_ctx *c);
static void clua_mem_settle(clua_ctx *c, int rescued);

/* ------------------------------------------------------------------------------------------ */
/* Budgeted allocator                                                                           */
/* ------------------------------------------------------------------------------------------ */

/**
 * The allocator's backstop for work done in C that no hook sees (a loop inside Lua's C code
 * that only allocates, such as a `__call` chain growing the stack): once the call has spent
 * four times its instruction budget (allocations are charged, but only a hook or a charge
 * raises), or run past its time limit (the clock is read every 64 allocations
 * and on every large one), allocations fail, which stops the loop with an error, reported as
 * the budget or time error it is. Only the first refusal per call counts (the error itself
 * needs memory).
 */
static int clua_alloc_stop(clua_ctx *c, size_t grow, int frames_ok) {
    if (c->alloc_refusals > 0) {  /* Lua tries again after a full collection: refuse that too */
        c->alloc_refusals--;
        return 1;
    }
    if (c->mem_thread == NULL || c->instr_exhausted || c->time_exhausted) return 0;  /* (NULL: loading, no call) */
    if (c->instr_used >= 4 * c->instr_budget) {  /* far past where any hook would have stopped it */
        clua_stop_note(c, 0, frames_ok);
        return 1;
    }
    if (c->time_limit_ns > 0 && ((++c->alloc_tick & 63) == 0 || grow >= 4096) &&
        clua_now_ns() - c->time_start_ns > c->time_limit_ns + c->instr_used * 2000LL) {
        clua_stop_note(c, 1, frames_ok);
        return 1;
    }
    return 0;
}

/**
 * Whether the call frames of `L` may be read (lua_getinfo) from inside an allocation.
 *
 * Lua 5.4.7 turns every frame's stack pointer into an offset while it allocates a new stack
 * (luaD_reallocstack's relstack), so reading a frame then dereferences an offset; Lua 5.4.4
 * reallocates in place and its frames stay valid. In every Lua 5.4 release a frame's first
 * field is that stack pointer (`CallInfo.func`), and lua_getstack (which reads no stack slot)
 * gives the innermost frame; an offset is below the largest stack (LUAI_MAXSTACK slots of 16
 * bytes, 16 MiB), a pointer into the heap is far above. A refusal made while the frames cannot
 * be read reports no line of its own; the rules engine then names the running rule.
 */
static int clua_frames_readable(lua_State *L) {
    lua_Debug ar;
    if (!lua_getstack(L, 0, &ar)) return 1;
    uintptr_t func = *(const uintptr_t *)(const void *)ar.i_ci;
    return func >= ((uintptr_t)1 << 26);
}

static void *clua_alloc(void *ud, void *ptr, size_t osize, size_t nsize) {
    clua_ctx *c = (clua_ctx *)ud;
    size_t old = ptr ? osize : 0;
    int frames_ok = c->mem_thread == NULL || clua_frames_readable(c->mem_thread);
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
            c->mem_refused_block = ptr;
            /* Memory errors skip the message handler: remember where the script was now (this
             * only reads the thread's call frames; it allocates nothing). */
            if (c->mem_thread != NULL && frames_ok) clua_record_location(c->mem_thread, c, 0);
            clua_mem_refused(c);
            return NULL;
        }
    }
    if (nsize > old && c->mem_enforce && clua_alloc_stop(c, nsize - old, frames_ok)) {
        c->mem_refused = 0;
        return NULL;
    }
    void *p = ptr ? realloc(ptr, nsize) : malloc(nsize);  /* Lua allocates far more than it grows */
    if (p == NULL) {
        c->mem_exceeded = 1;
        c->mem_refused = nsize;
        return NULL;
    }
    /* After a refusal, the next request is Lua's retry of it (rescued: go on) or not (the
     * refusal reached the script: final). */
    if (c->mem_pending) clua_mem_settle(c, ptr == c->mem_refused_block && nsize == c->mem_refused);
    c->mem_used = c->mem_used - old + nsize;
    if (c->mem_used > c->mem_peak) c->mem_peak = c->mem_used;
    /* Copying, filling and collecting memory is work too: while Lua runs, every 16 bytes
     * allocated cost one instruction (the hook or the next charge raises when it is spent).
     * This meters whatever builds large values in C: '..', string.rep, sub, upper, format,
     * gsub's result, table.concat, tostring. */
    if (c->mem_enforce && nsize > old) c->instr_used += (long long)((nsize - old) >> 4);
    return p;
}

static int clua_panic(lua_State *L) {
    const char *msg = lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : "(non-string error)";
    fprintf(stderr, "FlowScript: unprotected Lua error (out of memory?): %s\n", msg);
    fflush(stderr);
    abort();
    return 0;
}

lua_State *clua_newstate(clua_ctx *c) {
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
int clua_raise_kinded(lua_State *L, int kind) {
    clua_ctx *c = clua_getctx(L);
    lua_pushvalue(L, -1);
    lua_rawsetp(L, LUA_REGISTRYINDEX, clua_kinded_key(c));
    c->kinded_kind = kind;
    return lua_error(L);
}

/** Like luaL_error (position of the calling Lua code first) but with a kind. */
int clua_raisef_kinded(lua_State *L, int kind, const char *fmt, ...) {
    va_list argp;
    va_start(argp, fmt);
    luaL_where(L, 1);
    lua_pushvfstring(L, fmt, argp);
    va_end(argp);
    lua_concat(L, 2);
    return clua_raise_kinded(L, kind);
}

/** A printable name for the value at `idx` (a string key as is, anything else via tostring). */
const char *clua_keyname(lua_State *L, int idx) {
    if (lua_type(L, idx) == LUA_TSTRING) return lua_tostring(L, idx);
    return luaL_tolstring(L, idx, NULL);
}

/* ------------------------------------------------------------------------------------------ */
/* Instruction budget                                                                           */
/* ------------------------------------------------------------------------------------------ */

/** Raises the error on top of the stack after a budget or time limit ran out; the first one of
 *  a call is kept (clua_stopped_ok turns a call that swallowed it into a failure). */
static int clua_raise_stop(lua_State *L, int first) {
    clua_ctx *c = clua_getctx(L);
    if (first) {
        size_t len;
        const char *text = lua_tolstring(L, -1, &len);
        if (len >= sizeof c->stop_message) len = sizeof c->stop_message - 1;
        memcpy(c->stop_message, text, len);
        c->stop_message[len] = '\0';
    }
    /* From now on this thread stops at every instruction, so a Lua pcall cannot swallow it. */
    if (lua_gethookcount(L) != 1) lua_sethook(L, lua_gethook(L), clua_hookmask(c), 1);
    return lua_error(L);
}

static int clua_budget_error(lua_State *L, int level) {
    clua_ctx *c = clua_getctx(L);
    if (c->instr_exhausted || c->time_exhausted) { /* raised again: where it first ran out */
        lua_pushstring(L, c->stop_message);
        return clua_raise_stop(L, 0);
    }
    c->instr_exhausted = 1;
    luaL_where(L, level);
    lua_pushfstring(L, "instruction budget exceeded (%I instructions)", (LUAI_UACINT)c->instr_budget);
    lua_concat(L, 2);
    return clua_raise_stop(L, 1);
}

static int clua_time_error(lua_State *L) {
    clua_ctx *c = clua_getctx(L);
    if (c->instr_exhausted || c->time_exhausted) {
        lua_pushstring(L, c->stop_message);
        return clua_raise_stop(L, 0);
    }
    c->time_exhausted = 1;
    luaL_where(L, 0);
    lua_pushfstring(L, "time limit exceeded (%I ms)", (LUAI_UACINT)(c->time_limit_ns / 1000000));
    lua_concat(L, 2);
    return clua_raise_stop(L, 1);
}

/** Marks the running call as stopped by its budget (or time, `time` 1) from the allocator,
 *  where nothing may be raised: the message names the script's position; from now on the hook
 *  fires at every instruction (a script's pcall cannot swallow the stop). */
static void clua_stop_note(clua_ctx *c, int time, int frames_ok) {
    if (time) c->time_exhausted = 1; else c->instr_exhausted = 1;
    c->alloc_refusals = 1;
    char where[LUA_IDSIZE + 16] = "";
    if (c->mem_thread != NULL) {
        if (frames_ok) clua_record_location(c->mem_thread, c, 0);
        if (c->err_line > 0) snprintf(where, sizeof where, "%s:%d: ", c->err_src, c->err_line);
        if (lua_gethook(c->mem_thread) != NULL) lua_sethook(c->mem_thread, lua_gethook(c->mem_thread), clua_hookmask(c), 1);
    }
    if (time) {
        snprintf(c->stop_message, sizeof c->stop_message, "%stime limit exceeded (%lld ms)", where, c->time_limit_ns / 1000000);
    } else {
        snprintf(c->stop_message, sizeof c->stop_message, "%sinstruction budget exceeded (%lld instructions)", where, c->instr_budget);
    }
}

/*
 * The memory budget, as final as the instruction budget. A refused allocation is not always an
 * error: Lua answers a refusal with a full collection and asks for the same block once more, and
 * that retry may fit. So a refusal during a call is pending until the next request: the retry
 * (same block, same size) settles it either way; anything else, or the next instruction (the
 * hook is armed for it), means the script got the error, and the call stops: from then on the
 * memory error is raised again at every instruction, so a script's pcall, xpcall or coroutine
 * cannot swallow it (lauxlib's buffers, behind string.rep, table.concat or gsub, never retry).
 */

/** A refusal during a call: pending, or final when one was pending already (the retry refused). */
static void clua_mem_refused(clua_ctx *c) {
    if (c->mem_thread == NULL || c->mem_stopped) return;  /* loading: the load fails by itself */
    if (c->mem_pending) {
        clua_mem_settle(c, 0);
        return;
    }
    c->mem_pending = 1;
    if (!c->instr_exhausted && !c->time_exhausted) {  /* the message, with where the script was */
        if (c->err_line > 0) {
            snprintf(c->stop_message, sizeof c->stop_message, "%s:%d: not enough memory", c->err_src, c->err_line);
        } else {
            snprintf(c->stop_message, sizeof c->stop_message, "not enough memory");
        }
    }
    if (lua_gethook(c->mem_thread) != NULL) lua_sethook(c->mem_thread, lua_gethook(c->mem_thread), clua_hookmask(c), 1);
}

/** Settles a pending refusal: rescued by the retry (the hook goes back to its pace), or final. */
static void clua_mem_settle(clua_ctx *c, int rescued) {
    c->mem_pending = 0;
    if (!rescued) {
        c->mem_stopped = 1;
    } else if (!c->instr_exhausted && !c->time_exhausted && c->mem_thread != NULL && lua_gethook(c->mem_thread) != NULL) {
        lua_sethook(c->mem_thread, lua_gethook(c->mem_thread), clua_hookmask(c), c->instr_step);
    }
}

/** Time a call may take per instruction (or unit) it was charged, on top of its time limit:
 *  far more than counted work needs (a few ns per unit, tens under sanitizers), so the limit
 *  only catches time the count does not account for. */
#define CLUA_TIME_PER_UNIT_NS 2000LL

/**
 * The count hook: charges the instructions run since the last call and enforces the budget.
 * It also enforces the time limit, a backstop for work the instruction count cannot see
 * (each of a loop's instructions comparing or hashing megabyte strings, say): the call stops
 * at the first hook after it has run longer than its limit plus CLUA_TIME_PER_UNIT_NS per
 * unit it was charged, host functions excluded.
 * Line and call events (asked for only while coverage is counted) are recorded and charge
 * nothing, so a script stops at the same instruction with coverage on and off.
 */
void clua_hook(lua_State *L, lua_Debug *ar) {
    clua_ctx *c = clua_getctx(L);
    if (ar->event != LUA_HOOKCOUNT) {
        if (c->coverage != NULL) clua_coverage_event(L, ar, c->coverage);
        return;
    }
    c->instr_used += lua_gethookcount(L);
    if (c->mem_pending) clua_mem_settle(c, 0);  /* an instruction ran: the script got the error */
    if (c->mem_stopped) {  /* out of memory for good: raised again until the call has unwound */
        lua_pushstring(L, c->stop_message);
        clua_raise_stop(L, 0);
    }
    if (c->instr_used >= c->instr_budget) clua_budget_error(L, 0);
    if (c->time_limit_ns > 0 &&
        clua_now_ns() - c->time_start_ns > c->time_limit_ns + c->instr_used * CLUA_TIME_PER_UNIT_NS) {
        clua_time_error(L);
    }
}

void clua_armhook(lua_State *L) {
    lua_sethook(L, clua_hook, clua_hookmask(clua_getctx(L)), clua_getctx(L)->instr_step);
}

/** Charges `units` instructions for work done in C (string and table functions). */
void clua_charge(lua_State *L, lua_Integer units) {
    clua_ctx *c = clua_getctx(L);
    if (units <= 0) return;
    if (units > c->instr_budget) units = c->instr_budget;
    c->instr_used += units;
    if (c->instr_used >= c->instr_budget) clua_budget_error(L, 1);
    if (c->time_limit_ns > 0 &&
        clua_now_ns() - c->time_start_ns > c->time_limit_ns + c->instr_used * CLUA_TIME_PER_UNIT_NS) {
        clua_time_error(L);
    }
}

/** Lua's relative string position (1-based; negative counts from the end). */
lua_Integer clua_posrelat(lua_Integer pos, size_t len) {
    if (pos > 0) return pos;
    if (pos == 0) return 1;
    if (pos < -(lua_Integer)len) return 1;
    return (lua_Integer)len + pos + 1;
}

/** Calls upvalue 1 with all arguments and returns all its results. */
int clua_forward(lua_State *L) {
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 1);
    lua_call(L, lua_gettop(L) - 1, LUA_MULTRET);
    return lua_gettop(L);
}

void clua_close(lua_State *L) {
    clua_ctx *c = clua_getctx(L);
    c->closing = 1;
    c->coverage = NULL;
    c->instr_used = c->instr_budget;
    c->mem_enforce = 0;
    lua_close(L);
}
