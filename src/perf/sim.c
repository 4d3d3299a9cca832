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

size_t czk_perf_sim_argv(char *argv[16], char buf[1024], int pass, const czk_perf_geometry *g, const char *outfile,
                         int whole)
{
    size_t n = 0, off = 0;
#define ADD(...)                                                                        \
    do {                                                                                \
        argv[n++] = buf + off;                                                          \
        off += (size_t)snprintf(buf + off, 1024 - off, __VA_ARGS__) + 1;                \
        if (off > 1024) off = 1024;                                                     \
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

czk_status czk_perf_cg_parse_text(czk_perf_cg_totals *t, const char *text, const char *what, int accumulate)
{
    if (!accumulate) memset(t, 0, sizeof *t);
    static const char *const names[] = {"Ir", "Dr", "Dw", "I1mr", "D1mr", "D1mw", "ILmr", "DLmr", "DLmw", "Bc", "Bcm", "Bi", "Bim"};
    double *slot[] = {&t->ir, &t->dr, &t->dw, &t->i1mr, &t->d1mr, &t->d1mw, &t->ilmr, &t->dlmr, &t->dlmw, &t->bc, &t->bcm, &t->bi, &t->bim};
    int map[32];
    int nev = -1;
    const char *totals = NULL, *summary = NULL;
    for (const char *line = text; line && *line;) {
        const char *nl = strchr(line, '\n');
        size_t len = nl ? (size_t)(nl - line) : strlen(line);
        if (len > 7 && !strncmp(line, "events:", 7)) {
            nev = 0;
            const char *p = line + 7;
            while (p < line + len && nev < 32) {
                while (p < line + len && *p == ' ') p++;
                const char *q = p;
                while (q < line + len && *q != ' ') q++;
                if (q == p) break;
                map[nev] = -1;
                for (int k = 0; k < 13; k++)
                    if ((size_t)(q - p) == strlen(names[k]) && !strncmp(p, names[k], (size_t)(q - p))) map[nev] = k;
                nev++;
                p = q;
            }
        } else if (len > 7 && !strncmp(line, "totals:", 7)) {
            totals = line + 7;
        } else if (len > 8 && !strncmp(line, "summary:", 8)) {
            summary = line + 8;
        }
        line = nl ? nl + 1 : NULL;
    }
    const char *vals = totals ? totals : summary;
    if (nev <= 0 || !vals)
        return czk_error(CZK_ERR_FORMAT, "%s: not a callgrind output (no 'events:' and 'totals:'/'summary:' lines)", what);
    int seen_cache = 0, seen_branch = 0;
    const char *p = vals;
    for (int k = 0; k < nev; k++) {
        char *end;
        errno = 0;
        unsigned long long v = strtoull(p, &end, 10);
        if (end == p || errno) {
            if (*end == '\n' || *end == 0) break; /* trailing zero counts are omitted */
            return czk_error(CZK_ERR_FORMAT, "%s: bad number in totals line at event %d", what, k);
        }
        p = end;
        if (map[k] >= 0) {
            *slot[map[k]] += (double)v;
            if (map[k] >= 3 && map[k] <= 8) seen_cache = 1;
            if (map[k] >= 9) seen_branch = 1;
        }
    }
    for (int k = 0; k < nev; k++) {
        if (map[k] >= 3 && map[k] <= 8) seen_cache = 1;
        if (map[k] >= 9) seen_branch = 1;
    }
    t->have_cache |= seen_cache;
    t->have_branch |= seen_branch;
    return CZK_OK;
}

czk_status czk_perf_cg_parse(czk_perf_cg_totals *t, const char *path, int accumulate)
{
    FILE *f = fopen(path, "rb");
    if (!f) return czk_error(CZK_ERR_IO, "%s: cannot open callgrind output: %s", path, strerror(errno));
    size_t cap = 1 << 16, len = 0;
    char *buf = malloc(cap);
    if (!buf) {
        fclose(f);
        return czk_error(CZK_ERR_NOMEM, "%s: no memory", path);
    }
    size_t got;
    while ((got = fread(buf + len, 1, cap - len - 1, f)) > 0) {
        len += got;
        if (len + 1 == cap) {
            if (cap > (256u << 20)) break;
            char *nb = realloc(buf, cap * 2);
            if (!nb) break;
            buf = nb;
            cap *= 2;
        }
    }
    fclose(f);
    buf[len] = 0;
    czk_status s = czk_perf_cg_parse_text(t, buf, path, accumulate);
    free(buf);
    return s;
}

/* Value of a role from the pass totals; returns 0 when the passes needed are missing. */
static int sim_value(double *out, const char **how, czk_perf_role role, const czk_perf_cg_totals *p1,
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
        *out = any->bc + any->bi, *how = "Bc+Bi (conditional + indirect)";
        return 1;
    case CZK_PERF_ROLE_BRANCH_MISSES:
        if (!any || !any->have_branch) return 0;
        *out = any->bcm + any->bim, *how = "Bcm+Bim (callgrind predictor)";
        return 1;
    default: break;
    }
    if (!p1 || !p1->have_cache) {
        if (role == CZK_PERF_ROLE_FILL_DRAM && p2 && p2->have_cache) {
            *out = p2->dlmr + p2->dlmw, *how = "pass 2: D misses in LL=L3";
            return 1;
        }
        return 0;
    }
    switch (role) {
    case CZK_PERF_ROLE_CACHE_REFS: *out = p1->i1mr + d1m, *how = "I1+D1 misses = L2 accesses"; return 1;
    case CZK_PERF_ROLE_CACHE_MISSES: *out = p1->ilmr + dlm, *how = "I+D misses in LL=L2 (AMD meaning)"; return 1;
    case CZK_PERF_ROLE_L2_DC_ACCESS: *out = d1m, *how = "D1mr+D1mw"; return 1;
    case CZK_PERF_ROLE_L2_DC_HIT: *out = d1m - dlm, *how = "D1 misses - D misses in LL=L2"; return 1;
    case CZK_PERF_ROLE_L2_MISS: *out = p1->ilmr + dlm, *how = "ILmr+DLmr+DLmw, LL=L2"; return 1;
    case CZK_PERF_ROLE_L2_HIT: *out = p1->i1mr + d1m - p1->ilmr - dlm, *how = "I1+D1 misses - LL=L2 misses"; return 1;
    case CZK_PERF_ROLE_L2_REQUESTS: *out = p1->i1mr + d1m, *how = "I1mr+D1mr+D1mw"; return 1;
    case CZK_PERF_ROLE_FILL_L2: *out = d1m - dlm, *how = "D1 misses that hit LL=L2"; return 1;
    case CZK_PERF_ROLE_L1_LOADS: *out = p1->dr, *how = "Dr"; return 1;
    case CZK_PERF_ROLE_L1_LOAD_MISSES: *out = p1->d1mr, *how = "D1mr"; return 1;
    case CZK_PERF_ROLE_FILL_CCX:
        if (!p2 || !p2->have_cache) return 0;
        *out = dlm - (p2->dlmr + p2->dlmw);
        if (*out < 0) *out = 0;
        *how = "L2 misses (pass 1) - L3 misses (pass 2)";
        return 1;
    case CZK_PERF_ROLE_FILL_DRAM:
        if (!p2 || !p2->have_cache) return 0;
        *out = p2->dlmr + p2->dlmw, *how = "pass 2: D misses in LL=L3";
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
        if (!sim_value(&x, &how, set->ev[i].role, p1, p2)) {
            if (set->ev[i].sim_pass & 2 && !p2) snprintf(v->note, sizeof v->note, "simulation pass 2 (LL=L3) not run");
            continue;
        }
        v->source = CZK_PERF_SIMULATED;
        v->value = x;
        v->multiplexed = 0;
        v->running = 1;
        snprintf(v->note, sizeof v->note, "%s", how);
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
