/* FlowScript's C boundary: The work bound of a Lua pattern on a subject (used by clua_patterns.c).
 * (The rules are in CLua.h.)
 *
 * Why: Lua's matcher backtracks. With k unbounded items ('*', '+', '-') a pattern can take
 * on the order of n^(k+1) steps on a subject of n bytes, all inside one C call that the
 * instruction hook never interrupts: ('a'):rep(400):find('.-.-.-b') runs for seconds.
 *
 * How: before the original function runs, a dynamic program over (pattern item, subject
 * position) computes an upper bound of the work the matcher can do on that subject: V(i, s),
 * the work of the search entered at item i and position s when every branch fails (which is
 * the most it can do), weighted by the work of one visit (class tests, the counting loop of
 * '*', the scan of '%b'):
 *
 *   V(end, s)          = v
 *   V(x,   s)          = v + t + [x matches s[s]] V(i+1, s+1)
 *   V(x?,  s)          = v + t + [x matches s[s]] V(i+1, s+1) + V(i+1, s)
 *   V(x*,  s), V(x-,s) = v + t (r+2) + sum of V(i+1, s+k) for k = 0..r    (r: run of x at s)
 *   V(x+,  s)          = v + t (r+2) + sum of V(i+1, s+k) for k = 1..r    (nothing when r = 0)
 *   V((, s), V((), s), V(), s) = v + V(i+1, s);   V($ at the end, s) = v
 *   V(%bxy, s)         = v + t + scan/2 + V(i+1, just after the balanced closer), when s[s] is x
 *   V(%f[set], s)      = v + 2t + [frontier at s] V(i+1, s)
 *   V(%1, s)           = v + (n - s + 1) t / 8 + sum of V(i+1, k) for k >= s  (any length)
 *
 * (v: one visit, CLUA_PAT_VISIT units; t: one class test, 1 + a quarter of the class's
 * length; a unit is about one VM instruction of time, measured.) It follows the
 * subject: a quantified class only expands over the run of bytes it accepts and a literal
 * only continues where the byte matches, so ordinary patterns get bounds close to linear.
 * It assumes every branch is explored (no early success), that a back reference matches any
 * length, and, past 16 nested unmatched '%b' closers, that a '%b' can end anywhere: it can
 * overestimate, never underestimate. The sweep goes from the last position to the first and
 * keeps O(1) state per item (the run, the sum over the run, the sum over the tail), so it
 * costs O(#subject x #pattern) time, O(#pattern) memory, and is charged too.
 *
 * The bound, summed over the start positions the function tries (doubled for gmatch and
 * gsub, which can try a start twice after an empty match), is charged against the
 * instruction budget before the original matcher runs. A bound larger than the whole budget
 * raises "pattern too expensive" (a catchable error: nothing ran); one larger than what is
 * left of the budget raises the instruction budget error (clua_patterns.c).
 */
#include "clua_engine.h"

/** Work units of one visit of the matcher (a call of its `match` step: about two VM instructions). */
#define CLUA_PAT_VISIT 2.0

/** Saturation value of the bounds (far above any budget; keeps sums finite). */
#define CLUA_PAT_CAP 1e30

/** Nested '%b' closers remembered exactly, per item. */
#define CLUA_PAT_RING 16

enum {
    CLUA_PAT_CLASS,      /* a one-byte class (x, %x, [set], .), optionally followed by * + - ? */
    CLUA_PAT_OPEN,       /* ( */
    CLUA_PAT_CLOSE,      /* ) */
    CLUA_PAT_POSITION,   /* () */
    CLUA_PAT_END,        /* $ at the end of the pattern */
    CLUA_PAT_BALANCE,    /* %bxy */
    CLUA_PAT_FRONTIER,   /* %f[set] */
    CLUA_PAT_BACKREF,    /* %0 - %9 */
    CLUA_PAT_MALFORMED   /* the matcher raises an error when it gets here */
};

/** One item of a pattern, with the per-position state of the sweep. */
typedef struct clua_pat_item {
    const char *cls;       /* CLASS, FRONTIER: the class text */
    const char *cls_end;   /* one past it */
    double test;           /* cost of one test of the class */
    double v;              /* V(item, s) at the position last swept */
    double range;          /* sum of V(next item) over the class run starting at s */
    double tail;           /* sum of V(next item, k) for k >= s */
    size_t run;            /* length of the class run starting at s */
    size_t depth;          /* BALANCE: closers pending (the ring keeps the nearest) */
    size_t floor;          /* BALANCE: lowest depth whose ring entry is still there */
    size_t ring_pos[CLUA_PAT_RING];
    double ring_val[CLUA_PAT_RING];
    unsigned char kind, suffix, open, close;
} clua_pat_item;

static double clua_pat_sat(double x) { return x > CLUA_PAT_CAP ? CLUA_PAT_CAP : x; }

/** `%x` class test, as Lua defines the classes (the C locale's ctype). */
static int clua_pat_esc(int c, int cl) {
    int res;
    switch (tolower(cl)) {
    case 'a': res = isalpha(c); break;
    case 'c': res = iscntrl(c); break;
    case 'd': res = isdigit(c); break;
    case 'g': res = isgraph(c); break;
    case 'l': res = islower(c); break;
    case 'p': res = ispunct(c); break;
    case 's': res = isspace(c); break;
    case 'u': res = isupper(c); break;
    case 'w': res = isalnum(c); break;
    case 'x': res = isxdigit(c); break;
    default: return cl == c;
    }
    if (isupper(cl)) res = !res;
    return res != 0;
}

/** `[set]` test: `p` is at '[', `close` at the set's closing ']'. */
static int clua_pat_set(int c, const char *p, const char *close) {
    int inside = 1;
    p++;
    if (*p == '^') {
        inside = 0;
        p++;
    }
    for (; p < close; p++) {
        if (*p == '%') {
            p++;
            if (clua_pat_esc(c, (unsigned char)*p)) return inside;
        } else if (p[1] == '-' && p + 2 < close) {
            if ((unsigned char)p[0] <= c && c <= (unsigned char)p[2]) return inside;
            p += 2;
        } else if ((unsigned char)*p == c) {
            return inside;
        }
    }
    return !inside;
}

/** Whether byte `c` belongs to the class [cls, cls_end). */
static int clua_pat_test(int c, const char *cls, const char *cls_end) {
    switch (*cls) {
    case '.': return 1;
    case '%': return clua_pat_esc(c, (unsigned char)cls[1]);
    case '[': return clua_pat_set(c, cls, cls_end - 1);
    default: return (unsigned char)*cls == c;
    }
}

/** One past the class starting at `p`; NULL when it is malformed (the matcher raises). */
static const char *clua_pat_classend(const char *p, const char *end) {
    char c = *p++;
    if (c == '%') return p < end ? p + 1 : NULL;
    if (c != '[') return p;
    if (p < end && *p == '^') p++;
    do {
        if (p >= end) return NULL;
        c = *p++;
        if (c == '%' && p < end) p++;
    } while (p >= end || *p != ']');
    return p + 1;
}

/** Splits a pattern (without its anchor) into items; `*branching` tells whether any item
 *  can lead to more than one continuation. Stops after a malformed item. */
static size_t clua_pat_parse(const char *p, size_t lp, clua_pat_item *items, int *branching) {
    const char *end = p + lp;
    size_t k = 0;
    *branching = 0;
    while (p < end) {
        clua_pat_item *it = &items[k++];
        memset(it, 0, sizeof *it);
        it->test = 1;
        if (*p == '(') {
            it->kind = (p + 1 < end && p[1] == ')') ? CLUA_PAT_POSITION : CLUA_PAT_OPEN;
            p += it->kind == CLUA_PAT_POSITION ? 2 : 1;
            continue;
        }
        if (*p == ')') {
            it->kind = CLUA_PAT_CLOSE;
            p++;
            continue;
        }
        if (*p == '$' && p + 1 == end) {
            it->kind = CLUA_PAT_END;
            p++;
            continue;
        }
        if (*p == '%' && p + 1 < end) {
            if (p[1] == 'b') {
                if (p + 4 > end) { it->kind = CLUA_PAT_MALFORMED; return k; }
                it->kind = CLUA_PAT_BALANCE;
                it->open = (unsigned char)p[2];
                it->close = (unsigned char)p[3];
                p += 4;
                *branching = 1;
                continue;
            }
            if (p[1] == 'f') {
                const char *set = p + 2;
                const char *set_end = (set < end && *set == '[') ? clua_pat_classend(set, end) : NULL;
                if (set_end == NULL) { it->kind = CLUA_PAT_MALFORMED; return k; }
                it->kind = CLUA_PAT_FRONTIER;
                it->cls = set;
                it->cls_end = set_end;
                it->test = 1 + (double)(set_end - set) / 4;
                p = set_end;
                continue;
            }
            if (p[1] >= '0' && p[1] <= '9') {
                it->kind = CLUA_PAT_BACKREF;
                p += 2;
                *branching = 1;
                continue;
            }
        }
        const char *cls_end = clua_pat_classend(p, end);
        if (cls_end == NULL) { it->kind = CLUA_PAT_MALFORMED; return k; }
        it->kind = CLUA_PAT_CLASS;
        it->cls = p;
        it->cls_end = cls_end;
        it->test = 1 + (double)(cls_end - p - 1) / 4;
        p = cls_end;
        if (p < end && (*p == '*' || *p == '+' || *p == '-' || *p == '?')) {
            it->suffix = (unsigned char)*p++;
            *branching = 1;
        }
    }
    return k;
}

/** V(item, s) from V(next item, s) and V(next item, s + 1); updates the item's state. */
static double clua_pat_step(clua_pat_item *it, const unsigned char *subj, size_t n, size_t s,
                            double vnext, double vnext1) {
    int c = s < n ? subj[s] : -1;
    switch (it->kind) {
    case CLUA_PAT_CLASS: {
        int m = c >= 0 && clua_pat_test(c, it->cls, it->cls_end);
        double range_after = it->range; /* over the run starting at s + 1 */
        if (m) {
            it->run += 1;
            it->range = clua_pat_sat(vnext + range_after);
        } else {
            it->run = 0;
            it->range = vnext;
        }
        double loop = it->test * (double)(it->run + 2);
        switch (it->suffix) {
        case 0: return CLUA_PAT_VISIT + it->test + (m ? vnext1 : 0);
        case '?': return clua_pat_sat(CLUA_PAT_VISIT + it->test + (m ? vnext1 : 0) + vnext);
        case '+': return m ? clua_pat_sat(CLUA_PAT_VISIT + loop + range_after) : CLUA_PAT_VISIT + it->test;
        default: return clua_pat_sat(CLUA_PAT_VISIT + loop + it->range);
        }
    }
    case CLUA_PAT_OPEN:
    case CLUA_PAT_CLOSE:
    case CLUA_PAT_POSITION:
        return clua_pat_sat(CLUA_PAT_VISIT + vnext);
    case CLUA_PAT_FRONTIER: {
        int before = s == 0 ? 0 : subj[s - 1];
        int after = c >= 0 ? c : 0;
        int edge = !clua_pat_set(before, it->cls, it->cls_end - 1) && clua_pat_set(after, it->cls, it->cls_end - 1);
        return CLUA_PAT_VISIT + 2 * it->test + (edge ? vnext : 0);
    }
    case CLUA_PAT_BACKREF:
        it->tail = clua_pat_sat(it->tail + vnext);
        return clua_pat_sat(CLUA_PAT_VISIT + it->test * (double)(n - s + 1) / 8 + it->tail);
    case CLUA_PAT_BALANCE: {
        double v = CLUA_PAT_VISIT + it->test;
        if (c == it->open) {
            if (it->depth == 0) {
                v += (double)(n - s) / 2; /* no closer: scans to the end and fails */
            } else {
                it->depth--;
                if (it->depth >= it->floor) {
                    size_t slot = it->depth % CLUA_PAT_RING;
                    v += (double)(it->ring_pos[slot] - s) / 2 + it->ring_val[slot];
                } else {
                    it->floor = it->depth;
                    v += (double)(n - s) / 2 + it->tail; /* forgotten closer: anywhere after s */
                }
            }
        }
        if (c == it->close && c >= 0) {
            it->ring_pos[it->depth % CLUA_PAT_RING] = s + 1;
            it->ring_val[it->depth % CLUA_PAT_RING] = vnext1;
            it->depth++;
            if (it->depth - it->floor > CLUA_PAT_RING) it->floor = it->depth - CLUA_PAT_RING;
        }
        it->tail = clua_pat_sat(it->tail + vnext);
        return clua_pat_sat(v);
    }
    default: /* END, MALFORMED: the search stops here */
        return CLUA_PAT_VISIT;
    }
}

/**
 * The work bound of matching `p` (without its '^' anchor) on `subj` from every start in
 * [from, n] (only `from` when `anchored`). Charges the analysis itself. Stops early, with a
 * result above `limit`, once the bound exceeds it.
 */
double clua_pat_bound(lua_State *L, const char *subj, size_t n, const char *p, size_t lp,
                      size_t from, int anchored, double limit) {
    if (from > n) return 0;
    clua_pat_item local[8];
    clua_pat_item *items = local;
    int top = lua_gettop(L);
    if (lp > 8) items = (clua_pat_item *)lua_newuserdatauv(L, lp * sizeof *items, 0);
    int branching = 0;
    size_t m = clua_pat_parse(p, lp, items, &branching);
    double starts = anchored ? 1 : (double)(n - from + 1);
    double total = 0;
    if (!branching) {
        /* One path per start: at most one visit per item. */
        double chain = CLUA_PAT_VISIT;
        for (size_t i = 0; i < m; i++) chain += CLUA_PAT_VISIT + 2 * items[i].test;
        total = clua_pat_sat(chain * starts);
    } else {
        /* The sweep below: about one unit per (position, item). */
        double analysis = (double)(n - from + 1) * (double)(m + 1) / 4;
        clua_charge(L, analysis > 4e18 ? (lua_Integer)4e18 : (lua_Integer)analysis);
        const unsigned char *s8 = (const unsigned char *)subj;
        for (size_t s = n + 1; s-- > from;) {
            double vnext = CLUA_PAT_VISIT, vnext1 = CLUA_PAT_VISIT;
            for (size_t i = m; i-- > 0;) {
                double v = clua_pat_step(&items[i], s8, n, s, vnext, vnext1);
                vnext1 = items[i].v;
                items[i].v = v;
                vnext = v;
            }
            if (anchored) {
                total = vnext;
            } else {
                total = clua_pat_sat(total + vnext);
                if (total > limit) break;
            }
        }
    }
    lua_settop(L, top);
    return total;
}
