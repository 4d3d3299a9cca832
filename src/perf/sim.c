/* Simulated counters: callgrind (valgrind 3.x) with --cache-sim=yes and
 * --branch-sim=yes. Callgrind models two cache levels (I1/D1 and LL), so a
 * three-level hierarchy takes two runs: pass 1 with LL = the L2 geometry
 * (L2 hits/misses), pass 2 with LL = the L3 geometry (L3 misses = DRAM fills).
 * The mapping from callgrind's events to counter roles is in sim_value(). */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "czk/perf.h"
#include "perf/perf_internal.h"
#include "perf/perf_impl.h"

void czk_perf_geometry_default(czk_perf_geometry *g)
{
    g->i1 = (czk_perf_cache){32 << 10, 8, 64};
    g->d1 = (czk_perf_cache){32 << 10, 8, 64};
    g->l2 = (czk_perf_cache){1 << 20, 8, 64};
    g->l3 = (czk_perf_cache){32 << 20, 16, 64};
}

static int parse_size(const char *s, char **end, unsigned *out)
{
    errno = 0;
    unsigned long long v = strtoull(s, end, 10);
    if (errno || *end == s) return -1;
    if (**end == 'K' || **end == 'k') v <<= 10, (*end)++;
    else if (**end == 'M' || **end == 'm') v <<= 20, (*end)++;
    if (v == 0 || v > (1ULL << 31)) return -1;
    *out = (unsigned)v;
    return 0;
}

czk_status czk_perf_geometry_from_env(czk_perf_geometry *g)
{
    czk_perf_geometry_default(g);
    const char *s = getenv("CZK_PERF_SIM_GEOMETRY");
    if (!s || !*s) return CZK_OK;
    const char *p = s;
    while (*p) {
        czk_perf_cache *c = NULL;
        if (!strncmp(p, "i1=", 3)) c = &g->i1;
        else if (!strncmp(p, "d1=", 3)) c = &g->d1;
        else if (!strncmp(p, "l2=", 3)) c = &g->l2;
        else if (!strncmp(p, "l3=", 3)) c = &g->l3;
        if (!c) return czk_error(CZK_ERR_INVALID_ARG, "CZK_PERF_SIM_GEOMETRY '%s': unknown level at offset %zu", s, (size_t)(p - s));
        char *end;
        unsigned size, assoc;
        if (parse_size(p + 3, &end, &size) || *end != '/' || parse_size(end + 1, &end, &assoc))
            return czk_error(CZK_ERR_INVALID_ARG, "CZK_PERF_SIM_GEOMETRY '%s': want LEVEL=SIZE/WAYS at offset %zu", s,
                             (size_t)(p - s));
        c->size = size;
        c->assoc = assoc;
        if (*end == ',') end++;
        else if (*end) return czk_error(CZK_ERR_INVALID_ARG, "CZK_PERF_SIM_GEOMETRY '%s': junk at offset %zu", s, (size_t)(end - s));
        p = end;
    }
    return CZK_OK;
}

int czk_perf_valgrind_available(void)
{
    const char *v = getenv("CZK_VALGRIND");
    if (v && *v) return access(v, X_OK) == 0;
    const char *path = getenv("PATH");
    if (!path) path = "/usr/bin:/bin";
    char buf[4096];
    for (const char *p = path; *p;) {
        const char *c = strchr(p, ':');
        size_t len = c ? (size_t)(c - p) : strlen(p);
        if (len && len < sizeof buf - 16) {
            memcpy(buf, p, len);
            strcpy(buf + len, "/valgrind");
            if (access(buf, X_OK) == 0) return 1;
        }
        if (!c) break;
        p = c + 1;
    }
    return 0;
}

size_t czk_perf_sim_argv(char *argv[20], char buf[1536], int pass, const czk_perf_geometry *g, const char *outfile,
                         int whole, const char *region)
{
    size_t n = 0, off = 0;
#define ADD(...)                                                                        \
    do {                                                                                \
        argv[n++] = buf + off;                                                          \
        off += (size_t)snprintf(buf + off, 1536 - off, __VA_ARGS__) + 1;                \
        if (off > 1536) off = 1536;                                                     \
    } while (0)
    const char *v = getenv("CZK_VALGRIND");
    ADD("%s", v && *v ? v : "valgrind");
    ADD("--tool=callgrind");
    ADD("-q");
    ADD("--cache-sim=yes");
    ADD("--branch-sim=yes");
    ADD("--instr-atstart=%s", whole ? "yes" : "no");
    if (whole) ADD("--trace-children=yes");
    ADD("--callgrind-out-file=%s", outfile);
    ADD("--I1=%u,%u,%u", g->i1.size, g->i1.assoc, g->i1.line);
    ADD("--D1=%u,%u,%u", g->d1.size, g->d1.assoc, g->d1.line);
    const czk_perf_cache *ll = pass == 2 ? &g->l3 : &g->l2;
    ADD("--LL=%u,%u,%u", ll->size, ll->assoc, ll->line);
    if (region && *region) {
        ADD("--collect-atstart=no");
        ADD("--toggle-collect=%s", region);
    }
#undef ADD
    argv[n] = NULL;
    return n;
}

unsigned czk_perf_sim_passes(const czk_perf_eventset *set)
{
    unsigned p = 0;
    for (size_t i = 0; i < set->n; i++) {
        int s = set->ev[i].sim_pass;
        if (s & 1) p |= 1;
        if (s & 2) p |= 2;
    }
    return p;
}

/* Value of a role from the pass totals; returns 0 when the passes needed are missing. */
int czk__perf_sim_value(double *out, const char **how, czk_perf_role role, const czk_perf_cg_totals *p1,
                        const czk_perf_cg_totals *p2)
{
    const czk_perf_cg_totals *any = p1 ? p1 : p2;
    double d1m = 0, dlm = 0;
    if (p1) d1m = p1->d1mr + p1->d1mw, dlm = p1->dlmr + p1->dlmw;
    switch (role) {
    case CZK_PERF_ROLE_INSTRUCTIONS:
        if (!any) return 0;
        *out = any->ir, *how = "callgrind Ir";
        return 1;
    case CZK_PERF_ROLE_BRANCHES:
        if (!any || !any->have_branch) return 0;
        *out = any->bc + any->bi, *how = "callgrind Bc+Bi (conditional + indirect)";
        return 1;
    case CZK_PERF_ROLE_BRANCH_MISSES:
        if (!any || !any->have_branch) return 0;
        *out = any->bcm + any->bim, *how = "callgrind Bcm+Bim (its predictor)";
        return 1;
    default: break;
    }
    if (!p1 || !p1->have_cache) {
        if (role == CZK_PERF_ROLE_FILL_DRAM && p2 && p2->have_cache) {
            *out = p2->dlmr + p2->dlmw, *how = "callgrind DLmr+DLmw, pass 2 (LL=L3)";
            return 1;
        }
        return 0;
    }
    switch (role) {
    case CZK_PERF_ROLE_CACHE_REFS: *out = p1->i1mr + d1m, *how = "callgrind I1mr+D1mr+D1mw (L2 accesses)"; return 1;
    case CZK_PERF_ROLE_CACHE_MISSES: *out = p1->ilmr + dlm, *how = "callgrind ILmr+DLmr+DLmw, LL=L2 (AMD meaning)"; return 1;
    case CZK_PERF_ROLE_L2_DC_ACCESS: *out = d1m, *how = "callgrind D1mr+D1mw"; return 1;
    case CZK_PERF_ROLE_L2_DC_HIT: *out = d1m - dlm, *how = "callgrind D1mr+D1mw-DLmr-DLmw, LL=L2"; return 1;
    case CZK_PERF_ROLE_L2_MISS: *out = p1->ilmr + dlm, *how = "callgrind ILmr+DLmr+DLmw, LL=L2"; return 1;
    case CZK_PERF_ROLE_L2_HIT: *out = p1->i1mr + d1m - p1->ilmr - dlm, *how = "callgrind I1+D1 misses - LL=L2 misses"; return 1;
    case CZK_PERF_ROLE_L2_REQUESTS: *out = p1->i1mr + d1m, *how = "callgrind I1mr+D1mr+D1mw"; return 1;
    case CZK_PERF_ROLE_FILL_L2: *out = d1m - dlm, *how = "callgrind D1 misses that hit LL=L2"; return 1;
    case CZK_PERF_ROLE_L1_LOADS: *out = p1->dr, *how = "callgrind Dr"; return 1;
    case CZK_PERF_ROLE_L1_LOAD_MISSES: *out = p1->d1mr, *how = "callgrind D1mr"; return 1;
    case CZK_PERF_ROLE_FILL_CCX:
        if (!p2 || !p2->have_cache) return 0;
        *out = dlm - (p2->dlmr + p2->dlmw);
        if (*out < 0) *out = 0;
        *how = "callgrind LL=L2 misses - LL=L3 misses (passes 1, 2)";
        return 1;
    case CZK_PERF_ROLE_FILL_DRAM:
        if (!p2 || !p2->have_cache) return 0;
        *out = p2->dlmr + p2->dlmw, *how = "callgrind DLmr+DLmw, pass 2 (LL=L3)";
        return 1;
    default: return 0;
    }
}

void czk_perf_sim_apply(czk_perf_report *r, const czk_perf_eventset *set, const czk_perf_cg_totals *p1,
                        const czk_perf_cg_totals *p2, const czk_perf_geometry *g)
{
    int any = 0, counted = 0;
    for (size_t i = 0; i < set->n && i < r->n; i++) {
        czk_perf_value *v = &r->v[i];
        if (v->source == CZK_PERF_COUNTED) {
            counted = 1;
            continue;
        }
        if (v->source == CZK_PERF_SOFTWARE || !set->ev[i].sim_pass) continue;
        double x;
        const char *how;
        if (!czk__perf_sim_value(&x, &how, set->ev[i].role, p1, p2)) {
            if (set->ev[i].sim_pass & 2 && !p2) snprintf(v->note, sizeof v->note, "simulation pass 2 (LL=L3) not run");
            continue;
        }
        v->source = CZK_PERF_SIMULATED;
        v->value = x;
        v->multiplexed = 0;
        v->running = 1;
        /* an AMD name on another CPU: say that this is the simulated equivalent */
        snprintf(v->note, sizeof v->note, "%.72s%s", how,
                 strstr(set->ev[i].origin, "table") ? "; AMD Zen event, simulated equivalent" : "");
        any = 1;
    }
    if (any) {
        snprintf(r->backend, sizeof r->backend, "%s", counted ? "perf_event_open + callgrind" : "callgrind (simulated)");
        int len = snprintf(r->sim_geometry, sizeof r->sim_geometry, "I1 %uK/%u, D1 %uK/%u, L2 %uK/%u (pass 1 LL)",
                           g->i1.size >> 10, g->i1.assoc, g->d1.size >> 10, g->d1.assoc, g->l2.size >> 10, g->l2.assoc);
        if (p2 && len > 0 && (size_t)len < sizeof r->sim_geometry)
            snprintf(r->sim_geometry + len, sizeof r->sim_geometry - (size_t)len, ", L3 %uK/%u (pass 2 LL)",
                     g->l3.size >> 10, g->l3.assoc);
    }
}
