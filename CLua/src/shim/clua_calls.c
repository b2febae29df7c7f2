/* FlowScript's C boundary: Protected calls, resumes, text loading and the host-function trampoline.
 * The rules are in CLua.h. */
#include "clua_shim.h"

/* ------------------------------------------------------------------------------------------ */
/* Calls                                                                                        */
/* ------------------------------------------------------------------------------------------ */

/**
 * A call that ended normally although its budget or time ran out: the script caught the
 * error where no instruction of its own ran afterwards (`return pcall(f)` as a tail call at the
 * end of the called function). Turns it into the failure it is: drops the `nresults` results,
 * pushes the first such error and returns LUA_ERRRUN; returns `status` otherwise.
 */
static int clua_stopped_ok(lua_State *L, int status, int nresults) {
    clua_ctx *c = clua_getctx(L);
    if (c->mem_pending) {  /* a refusal the script swallowed with no instruction after it */
        c->mem_pending = 0;
        c->mem_stopped = 1;
    }
    if (status != LUA_OK || (!c->instr_exhausted && !c->time_exhausted && !c->mem_stopped)) return status;
    lua_pop(L, nresults);
    lua_pushstring(L, c->stop_message);
    return LUA_ERRRUN;
}

int clua_call(lua_State *L, int nargs, int nresults, int msgh) {
    clua_ctx *c = clua_getctx(L);
    c->instr_used = 0;
    c->instr_exhausted = 0;
    c->mem_exceeded = 0;
    c->mem_stopped = 0;
    c->mem_pending = 0;
    c->kinded_kind = CLUA_KIND_NONE;
    c->print_left = CLUA_PRINT_LIMIT;
    c->err_line = 0;
    c->mem_thread = L;
    clua_start_clock(c);
    lua_sethook(L, clua_hook, clua_hookmask(c), c->instr_step);
    c->mem_enforce = 1;
    int base = lua_gettop(L) - nargs - 1;
    int status = lua_pcall(L, nargs, nresults, msgh);
    c->mem_enforce = 0;
    c->mem_thread = NULL;
    return clua_stopped_ok(L, status, lua_gettop(L) - base);
}

/* Called once per decision, out of line: measured with callgrind (a push + pop through the
 * example rules, flowstack-bench's lua_guarded_push), 10,967 instructions per operation, against
 * 10,969 when this and clua_call were static inline functions compiled into Swift. */
int clua_decide_call(lua_State *L, int top) {
    int status = clua_call(L, lua_gettop(L) - top - 1, LUA_MULTRET, 1);
    if (status == LUA_OK && lua_gettop(L) == top + 1 && lua_isinteger(L, top + 1) && lua_tointeger(L, top + 1) == 0) {
        lua_settop(L, top);
        return CLUA_DECIDED_ALLOW;
    }
    return status;
}

int clua_call_nested(lua_State *L, int nargs, int nresults, int msgh) {
    clua_ctx *c = clua_getctx(L);
    int enforce = c->mem_enforce;
    lua_State *async = c->async_thread;
    lua_State *thread = c->mem_thread;
    c->async_thread = NULL;
    c->mem_thread = L;
    c->mem_enforce = 1;
    int status = lua_pcall(L, nargs, nresults, msgh);
    c->mem_enforce = enforce;
    c->async_thread = async;
    c->mem_thread = thread;
    return status;
}

int clua_resume(lua_State *co, lua_State *from, int nargs, int *nresults, long long *instructions) {
    clua_ctx *c = clua_getctx(co);
    c->instr_used = *instructions;
    c->instr_exhausted = 0;
    c->mem_exceeded = 0;
    c->kinded_kind = CLUA_KIND_NONE;
    lua_State *async = c->async_thread;
    c->async_thread = co;
    c->mem_stopped = 0;
    c->mem_pending = 0;
    c->print_left = CLUA_PRINT_LIMIT;
    c->err_line = 0;
    c->mem_thread = co;
    clua_start_clock(c);
    c->mem_enforce = 1;
    int status = lua_resume(co, from, nargs, nresults);
    c->mem_enforce = 0;
    c->mem_thread = NULL;
    c->async_thread = async;
    if (status == LUA_OK && (c->instr_exhausted || c->time_exhausted || c->mem_stopped || c->mem_pending)) {
        status = clua_stopped_ok(co, status, *nresults);
        *nresults = 0;
    }
    *instructions = c->instr_used;
    return status;
}

/** Loads a chunk in `mode` ("t" text, "b" precompiled) under the memory budget. */
static int clua_load_metered(lua_State *L, const char *buf, size_t len, const char *chunkname, const char *mode) {
    clua_ctx *c = clua_getctx(L);
    c->mem_exceeded = 0;
    c->mem_thread = NULL;
    c->mem_enforce = 1;
    int status = luaL_loadbufferx(L, buf, len, chunkname, mode);
    c->mem_enforce = 0;
    return status;
}

int clua_loadtext(lua_State *L, const char *buf, size_t len, const char *chunkname) {
    return clua_load_metered(L, buf, len, chunkname, "t");
}

int clua_loadtrusted(lua_State *L, const char *buf, size_t len, const char *chunkname) {
    return clua_load_metered(L, buf, len, chunkname, "b");
}

static int clua_dump_writer(lua_State *L, const void *p, size_t sz, void *ud) {
    (void)L;
    clua_dumpbuf *b = (clua_dumpbuf *)ud;
    if (b->length + sz > b->capacity) {
        size_t capacity = b->capacity ? b->capacity : 4096;
        while (capacity < b->length + sz) capacity *= 2;
        char *grown = (char *)realloc(b->bytes, capacity);
        if (grown == NULL) { b->failed = 1; return 1; }
        b->bytes = grown;
        b->capacity = capacity;
    }
    memcpy(b->bytes + b->length, p, sz);
    b->length += sz;
    return 0;
}

int clua_dump(lua_State *L, clua_dumpbuf *b) {
    b->bytes = NULL;
    b->length = b->capacity = 0;
    b->failed = 0;
    int status = lua_dump(L, clua_dump_writer, b, 0);
    return (status != 0 || b->failed) ? 1 : 0;
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
    clua_running_restore(L, clua_getctx(L), nargs + 1);
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
 * holds the arguments, the running rule (clua_running_save), then `true, results...` or
 * `false, error`.
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
    long long started = c->time_limit_ns > 0 ? clua_now_ns() : 0;
    int r = c->dispatch(L, c->owner, fid);
    if (started != 0) c->time_start_ns += clua_now_ns() - started; /* host time does not count */
    c->mem_enforce = enforce;
    if (r >= 0) return r;
    if (r == CLUA_RESULT_YIELD) {
        clua_running_save(L, c);    /* above the arguments: the continuation restores it */
        return lua_yieldk(L, 0, (lua_KContext)nargs, clua_async_cont);
    }
    return clua_raise_pending(L);
}

void clua_pushhostfunction(lua_State *L, lua_Integer fid) {
    lua_pushinteger(L, fid);
    lua_pushcclosure(L, clua_trampoline, 1);
}
