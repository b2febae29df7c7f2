/*
 * The context as Swift sees it: an opaque clua_ctx made, freed, set and read through these
 * functions, so Swift never depends on its layout (the fields are in clua_shim.h). None of
 * them is on a decision's path: settings change between calls, the outcome is read on errors.
 */
#include "clua_shim.h"

clua_ctx *clua_ctx_new(void) {
    return calloc(1, sizeof(clua_ctx));
}

void clua_ctx_free(clua_ctx *c) {
    free(c);
}

void clua_ctx_set_host(clua_ctx *c, clua_dispatch_fn dispatch, void *owner) {
    c->dispatch = dispatch;
    c->owner = owner;
}

void clua_ctx_set_memory_limit(clua_ctx *c, size_t bytes) { c->mem_limit = bytes; }

size_t clua_ctx_memory_limit(const clua_ctx *c) { return c->mem_limit; }

size_t clua_ctx_memory_used(const clua_ctx *c) { return c->mem_used; }

size_t clua_ctx_memory_peak(const clua_ctx *c) { return c->mem_peak; }

void clua_ctx_set_instruction_budget(clua_ctx *c, long long budget) {
    if (budget < 1) budget = 1;
    c->instr_budget = budget;
    c->instr_step = budget < 1000 ? (int)budget : 1000;
}

long long clua_ctx_instruction_budget(const clua_ctx *c) { return c->instr_budget; }

long long clua_ctx_instructions_used(const clua_ctx *c) { return c->instr_used; }

void clua_ctx_set_time_limit(clua_ctx *c, long long nanoseconds) {
    c->time_limit_ns = nanoseconds > 0 ? nanoseconds : 0;
}

long long clua_ctx_time_limit(const clua_ctx *c) { return c->time_limit_ns; }

void clua_ctx_set_coverage(clua_ctx *c, clua_coverage *coverage) { c->coverage = coverage; }

void clua_ctx_note_style_rules(clua_ctx *c) { c->running_rule = CLUA_RUNNING_STYLE; }

void clua_ctx_set_pending_kind(clua_ctx *c, int kind) { c->pending_kind = kind; }

lua_State *clua_ctx_async_thread(const clua_ctx *c) { return c->async_thread; }

clua_outcome clua_ctx_outcome(const clua_ctx *c) {
    clua_outcome outcome = {
        .time_exhausted = c->time_exhausted,
        .instr_exhausted = c->instr_exhausted,
        .mem_exceeded = c->mem_exceeded,
        .mem_stopped = c->mem_stopped,
        .kinded_kind = c->kinded_kind,
        .mem_refused = c->mem_refused,
        .err_line = c->err_line,
        .err_src = c->err_src,
        .stop_message = c->stop_message,
    };
    return outcome;
}
