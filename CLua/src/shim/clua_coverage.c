/* FlowScript's C boundary: rules coverage counted by the VM's hook (line and call events).
 * (The rules are in CLua.h.) Counting lives outside the Lua heap
 * (plain malloc, done before any Lua code runs) and outside the instruction budget: the hook
 * only charges count events, and the line and call events are asked for only while a VM
 * counts coverage (clua_ctx.coverage non-NULL), so coverage off costs nothing. */
#include "clua_shim.h"

clua_coverage *clua_coverage_new(void) {
    return (clua_coverage *)calloc(1, sizeof(clua_coverage));
}

int clua_coverage_add(clua_coverage *cov, const char *source, int lines) {
    if (lines < 0) lines = 0;
    clua_coverage_file *files = (clua_coverage_file *)realloc(cov->files, (size_t)(cov->count + 1) * sizeof *files);
    if (files == NULL) return -1;
    cov->files = files;
    clua_coverage_file *f = &files[cov->count];
    f->lines = lines;
    f->source = strdup(source);
    f->line_hits = (long long *)calloc((size_t)lines + 1, sizeof(long long));
    f->function_hits = (long long *)calloc((size_t)lines + 1, sizeof(long long));
    if (f->source == NULL || f->line_hits == NULL || f->function_hits == NULL) {
        free(f->source);
        free(f->line_hits);
        free(f->function_hits);
        return -1;
    }
    return cov->count++;
}

long long clua_coverage_line(const clua_coverage *cov, int index, int line) {
    if (index < 0 || index >= cov->count || line < 1 || line > cov->files[index].lines) return 0;
    return cov->files[index].line_hits[line];
}

long long clua_coverage_function(const clua_coverage *cov, int index, int line) {
    if (index < 0 || index >= cov->count || line < 1 || line > cov->files[index].lines) return 0;
    return cov->files[index].function_hits[line];
}

void clua_coverage_free(clua_coverage *cov) {
    if (cov == NULL) return;
    for (int i = 0; i < cov->count; i++) {
        free(cov->files[i].source);
        free(cov->files[i].line_hits);
        free(cov->files[i].function_hits);
    }
    free(cov->files);
    free(cov);
}

/** Records a line or call event (from the hook): reads the running function's source and
 *  definition line, which allocates nothing and cannot raise; never charges the budget. */
void clua_coverage_event(lua_State *L, lua_Debug *ar, clua_coverage *cov) {
    if (!lua_getinfo(L, "S", ar) || ar->source == NULL || ar->what == NULL || strcmp(ar->what, "C") == 0) return;
    for (int i = 0; i < cov->count; i++) {
        clua_coverage_file *f = &cov->files[i];
        if (strcmp(f->source, ar->source) != 0) continue;
        if (ar->event == LUA_HOOKLINE) {
            if (ar->currentline >= 1 && ar->currentline <= f->lines) f->line_hits[ar->currentline]++;
        } else if (ar->linedefined >= 1 && ar->linedefined <= f->lines) {
            f->function_hits[ar->linedefined]++;
        }
        return;
    }
}
