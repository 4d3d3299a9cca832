/* Per-function profiles: a table of functions x columns, the callgrind
 * output parser that fills it (self cost per function), and the conversion
 * of raw callgrind columns into a counter set's events.
 *
 * Callgrind's output format is described in the valgrind manual, "Callgrind
 * Format Specification": name compression "(id) name" / "(id)" shared by
 * ob/cob, fn/cfn and the file keys; position compression (+N, -N, *); a
 * "calls=" line makes the next cost line the inclusive cost of that call,
 * which is not the caller's self cost. */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "czk/perf.h"
#include "perf/perf_internal.h"
#include "perf/perf_impl.h"

const char *const czk_perf_cg_columns[CZK_PERF_CG_NCOL] = {"Ir",   "Dr",   "Dw", "I1mr", "D1mr", "D1mw", "ILmr",
                                                           "DLmr", "DLmw", "Bc", "Bcm",  "Bi",   "Bim"};

/* ---- the container ------------------------------------------------------------ */

void czk_perf_profile_init(czk_perf_profile *p, size_t nev, const char *const *names)
{
    memset(p, 0, sizeof *p);
    if (nev > CZK_PERF_MAX_EVENTS) nev = CZK_PERF_MAX_EVENTS;
    p->nev = nev;
    for (size_t i = 0; i < nev; i++) snprintf(p->ev[i], sizeof p->ev[i], "%s", names[i]);
}

void czk_perf_profile_clear(czk_perf_profile *p)
{
    for (size_t i = 0; i < p->n; i++) free(p->fn[i].name), free(p->fn[i].object), free(p->fn[i].v);
    free(p->fn);
    free(p->index);
    p->fn = NULL;
    p->index = NULL;
    p->n = p->cap = p->index_cap = 0;
}

static uint64_t hash_str(const char *s)
{
    uint64_t h = 0xcbf29ce484222325ULL; /* FNV-1a */
    for (; *s; s++) h = (h ^ (unsigned char)*s) * 0x100000001b3ULL;
    return h;
}

static size_t *slot_of(const czk_perf_profile *p, const char *name)
{
    if (!p->index_cap) return NULL;
    size_t mask = p->index_cap - 1, i = (size_t)hash_str(name) & mask;
    while (p->index[i] && strcmp(p->fn[p->index[i] - 1].name, name)) i = (i + 1) & mask;
    return &p->index[i];
}

static int grow_index(czk_perf_profile *p)
{
    size_t cap = p->index_cap ? p->index_cap * 2 : 1024;
    size_t *ix = calloc(cap, sizeof *ix);
    if (!ix) return -1;
    free(p->index);
    p->index = ix;
    p->index_cap = cap;
    for (size_t k = 0; k < p->n; k++) *slot_of(p, p->fn[k].name) = k + 1;
    return 0;
}

void czk_perf_fn_normalize(char *out, size_t cap, const char *name)
{
    size_t len = strlen(name);
    /* callgrind --separate-recs: "f'2" is f at recursion depth 2 */
    size_t q = len;
    while (q > 0 && isdigit((unsigned char)name[q - 1])) q--;
    if (q > 0 && q < len && name[q - 1] == '\'') len = q - 1;
    /* Rust legacy mangling keeps a hash of the crate and types: "::h" + 16 hex
     * digits, different in every build of A and B */
    if (len > 19 && !strncmp(name + len - 19, "::h", 3)) {
        int hex = 1;
        for (size_t i = len - 16; i < len; i++) hex &= isxdigit((unsigned char)name[i]) != 0;
        if (hex) len -= 19;
    }
    if (len >= cap) len = cap - 1;
    memcpy(out, name, len);
    out[len] = 0;
}

static double *fn_values(czk_perf_profile *p, const char *name, const char *object, czk_status *st)
{
    char key[1024];
    czk_perf_fn_normalize(key, sizeof key, name);
    if (p->n + 1 > p->index_cap / 2 && grow_index(p)) goto nomem;
    size_t *slot = slot_of(p, key);
    if (*slot) return p->fn[*slot - 1].v;
    if (p->n == p->cap) {
        size_t cap = p->cap ? p->cap * 2 : 256;
        czk_perf_fn *nf = realloc(p->fn, cap * sizeof *nf);
        if (!nf) goto nomem;
        p->fn = nf;
        p->cap = cap;
    }
    czk_perf_fn *f = &p->fn[p->n];
    f->name = strdup(key);
    f->object = strdup(object ? object : "");
    f->v = calloc(p->nev ? p->nev : 1, sizeof *f->v);
    if (!f->name || !f->object || !f->v) {
        free(f->name), free(f->object), free(f->v);
        goto nomem;
    }
    *slot = ++p->n;
    return f->v;
nomem:
    *st = czk_error(CZK_ERR_NOMEM, "profile: no memory for function '%.80s'", name);
    return NULL;
}

czk_status czk_perf_profile_add(czk_perf_profile *p, const char *name, const char *object, const double *v)
{
    czk_status st = CZK_OK;
    double *x = fn_values(p, name, object, &st);
    if (!x) return st;
    for (size_t i = 0; i < p->nev; i++) x[i] += v[i];
    return CZK_OK;
}

const czk_perf_fn *czk_perf_profile_find(const czk_perf_profile *p, const char *name)
{
    char key[1024];
    czk_perf_fn_normalize(key, sizeof key, name);
    size_t *slot = slot_of(p, key);
    return slot && *slot ? &p->fn[*slot - 1] : NULL;
}

int czk_perf_profile_column(const czk_perf_profile *p, const char *event)
{
    for (size_t i = 0; i < p->nev; i++)
        if (!strcmp(p->ev[i], event)) return (int)i;
    return -1;
}

/* ---- callgrind output ----------------------------------------------------------- */

typedef struct names {
    char **v;
    size_t cap;
} names;

static void names_free(names *t)
{
    for (size_t i = 0; i < t->cap; i++) free(t->v[i]);
    free(t->v);
    t->v = NULL;
    t->cap = 0;
}

/* "(id) name" defines id, "(id)" refers to it, "name" is uncompressed.
 * Returns the name (owned by the table or pointing into s), NULL on error. */
static const char *names_resolve(names *t, char *s)
{
    while (*s == ' ') s++;
    if (*s != '(') return s;
    char *end;
    errno = 0;
    unsigned long id = strtoul(s + 1, &end, 10);
    if (errno || *end != ')' || id > (1ul << 26)) return NULL;
    char *rest = end + 1;
    while (*rest == ' ') rest++;
    if (id >= t->cap) {
        size_t cap = t->cap ? t->cap : 64;
        while (cap <= id) cap *= 2;
        char **nv = realloc(t->v, cap * sizeof *nv);
        if (!nv) return NULL;
        memset(nv + t->cap, 0, (cap - t->cap) * sizeof *nv);
        t->v = nv;
        t->cap = cap;
    }
    if (*rest) {
        free(t->v[id]);
        t->v[id] = strdup(rest);
        return t->v[id];
    }
    return t->v[id] ? t->v[id] : NULL;
}

static const char *base_name(const char *path)
{
    const char *s = strrchr(path, '/');
    return s ? s + 1 : path;
}

/* Skip one position column: decimal, 0x hex, +N, -N or '*'. */
static const char *skip_position(const char *p)
{
    while (*p == ' ' || *p == '\t') p++;
    if (*p == '*') return p + 1;
    if (*p == '+' || *p == '-') p++;
    if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) p += 2;
    const char *q = p;
    while (isxdigit((unsigned char)*p)) p++;
    return p == q ? NULL : p;
}

typedef struct cg_state {
    const char *what;
    unsigned long line;
    int map[32], nev, npos;
    double self[CZK_PERF_CG_NCOL], totals[CZK_PERF_CG_NCOL], summary[CZK_PERF_CG_NCOL];
    int have_totals, have_summary, seen_events, have_cache, have_branch;
    unsigned long ncost;
    names obs, fns;
    const char *ob, *fn;
    double *cur; /* values of the current function in the profile */
    int after_calls;
    czk_perf_profile *raw;
} cg_state;

static czk_status numbers(cg_state *s, const char *p, double *out, int add)
{
    for (int k = 0; k < s->nev; k++) {
        while (*p == ' ' || *p == '\t') p++;
        if (!*p || *p == '\n' || *p == '\r') break; /* trailing zero counts are omitted */
        char *end;
        errno = 0;
        unsigned long long v = strtoull(p, &end, 10);
        if (end == p || errno || (*end && *end != ' ' && *end != '\t' && *end != '\n' && *end != '\r'))
            return czk_error(CZK_ERR_FORMAT, "%s: line %lu: bad number for event %d", s->what, s->line, k + 1);
        p = end;
        if (s->map[k] >= 0) {
            if (add) out[s->map[k]] += (double)v;
            else out[s->map[k]] = (double)v;
        }
    }
    return CZK_OK;
}

static czk_status cg_line(cg_state *s, char *l)
{
    size_t len = strlen(l);
    while (len && (l[len - 1] == '\n' || l[len - 1] == '\r')) l[--len] = 0;
    if (!len || l[0] == '#') return CZK_OK;
    char c = l[0];
    if (isdigit((unsigned char)c) || c == '+' || c == '-' || c == '*') {
        if (!s->seen_events) return czk_error(CZK_ERR_FORMAT, "%s: line %lu: cost line before 'events:'", s->what, s->line);
        const char *p = l;
        for (int k = 0; k < s->npos; k++)
            if (!(p = skip_position(p)))
                return czk_error(CZK_ERR_FORMAT, "%s: line %lu: bad position", s->what, s->line);
        if (s->after_calls) { /* the callee's inclusive cost: not self cost */
            s->after_calls = 0;
            return CZK_OK;
        }
        double v[CZK_PERF_CG_NCOL] = {0};
        CZK_TRY(numbers(s, p, v, 1));
        s->ncost++;
        for (int k = 0; k < CZK_PERF_CG_NCOL; k++) s->self[k] += v[k];
        if (s->raw) {
            if (!s->cur) {
                czk_status st = CZK_OK;
                s->cur = fn_values(s->raw, s->fn ? s->fn : "(unknown)", base_name(s->ob ? s->ob : ""), &st);
                if (!s->cur) return st;
            }
            for (int k = 0; k < CZK_PERF_CG_NCOL; k++) s->cur[k] += v[k];
        }
        return CZK_OK;
    }
#define KEY(k) (!strncmp(l, k, sizeof k - 1) ? l + sizeof k - 1 : NULL)
    char *arg;
    if ((arg = KEY("fn="))) {
        if (!(s->fn = names_resolve(&s->fns, arg)))
            return czk_error(CZK_ERR_FORMAT, "%s: line %lu: bad function name reference", s->what, s->line);
        s->cur = NULL;
        s->after_calls = 0;
    } else if ((arg = KEY("ob="))) {
        if (!(s->ob = names_resolve(&s->obs, arg)))
            return czk_error(CZK_ERR_FORMAT, "%s: line %lu: bad object name reference", s->what, s->line);
        s->cur = NULL;
    } else if ((arg = KEY("cfn="))) {
        if (!names_resolve(&s->fns, arg))
            return czk_error(CZK_ERR_FORMAT, "%s: line %lu: bad function name reference", s->what, s->line);
    } else if ((arg = KEY("cob="))) {
        if (!names_resolve(&s->obs, arg))
            return czk_error(CZK_ERR_FORMAT, "%s: line %lu: bad object name reference", s->what, s->line);
    } else if (KEY("calls=")) {
        s->after_calls = 1;
    } else if ((arg = KEY("events:"))) {
        s->nev = 0;
        s->seen_events = 1;
        for (char *tok = strtok(arg, " \t"); tok && s->nev < 32; tok = strtok(NULL, " \t")) {
            int m = -1;
            for (int k = 0; k < CZK_PERF_CG_NCOL; k++)
                if (!strcmp(tok, czk_perf_cg_columns[k])) m = k;
            if (m >= 3 && m <= 8) s->have_cache = 1;
            if (m >= 9) s->have_branch = 1;
            s->map[s->nev++] = m;
        }
    } else if ((arg = KEY("positions:"))) {
        s->npos = 0;
        for (char *tok = strtok(arg, " \t"); tok; tok = strtok(NULL, " \t")) s->npos++;
        if (s->npos < 1 || s->npos > 2)
            return czk_error(CZK_ERR_FORMAT, "%s: line %lu: unsupported positions '%s'", s->what, s->line, arg);
    } else if ((arg = KEY("totals:"))) {
        if (!s->seen_events) return czk_error(CZK_ERR_FORMAT, "%s: line %lu: totals before 'events:'", s->what, s->line);
        CZK_TRY(numbers(s, arg, s->totals, 1));
        s->have_totals = 1;
    } else if ((arg = KEY("summary:"))) {
        if (!s->seen_events) return czk_error(CZK_ERR_FORMAT, "%s: line %lu: summary before 'events:'", s->what, s->line);
        CZK_TRY(numbers(s, arg, s->summary, 1));
        s->have_summary = 1;
    }
    /* fl= fi= fe= cfi= cfl= jump= jcnd= and header lines carry nothing we count */
#undef KEY
    return CZK_OK;
}

static czk_status cg_stream(czk_perf_cg_totals *t, czk_perf_profile *raw, FILE *f, const char *what)
{
    cg_state s;
    memset(&s, 0, sizeof s);
    s.what = what;
    s.npos = 1;
    s.raw = raw;
    if (raw) raw->source[0] = 0;
    char *line = NULL;
    size_t cap = 0;
    czk_status st = CZK_OK;
    while (st == CZK_OK && getline(&line, &cap, f) >= 0) {
        s.line++;
        st = cg_line(&s, line);
    }
    free(line);
    names_free(&s.obs);
    names_free(&s.fns);
    if (st != CZK_OK) return st;
    if (!s.seen_events || (!s.have_totals && !s.have_summary && !s.ncost))
        return czk_error(CZK_ERR_FORMAT, "%s: not a callgrind output (no 'events:' and 'totals:'/'summary:' lines)", what);
    /* totals: is right after CALLGRIND_ZERO_STATS, summary: is not */
    const double *tot = s.have_totals ? s.totals : s.have_summary ? s.summary : s.self;
    double *slot[CZK_PERF_CG_NCOL] = {&t->ir,   &t->dr,   &t->dw, &t->i1mr, &t->d1mr, &t->d1mw, &t->ilmr,
                                      &t->dlmr, &t->dlmw, &t->bc, &t->bcm,  &t->bi,   &t->bim};
    for (int k = 0; k < CZK_PERF_CG_NCOL; k++) *slot[k] += tot[k];
    t->have_cache |= s.have_cache;
    t->have_branch |= s.have_branch;
    if (raw) {
        raw->have_cache |= s.have_cache;
        raw->have_branch |= s.have_branch;
        snprintf(raw->source, sizeof raw->source, "callgrind self cost per function");
    }
    return CZK_OK;
}

czk_status czk_perf_cg_parse_profile(czk_perf_cg_totals *t, czk_perf_profile *raw, const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f) return czk_error(CZK_ERR_IO, "%s: cannot open callgrind output: %s", path, strerror(errno));
    czk_status st = cg_stream(t, raw, f, path);
    fclose(f);
    return st;
}

czk_status czk_perf_cg_parse_profile_text(czk_perf_cg_totals *t, czk_perf_profile *raw, const char *text, const char *what)
{
    size_t len = strlen(text);
    FILE *f = fmemopen((void *)text, len ? len : 1, "r");
    if (!f) return czk_error(CZK_ERR_NOMEM, "%s: fmemopen: %s", what, strerror(errno));
    czk_status st = cg_stream(t, raw, f, what);
    fclose(f);
    return st;
}

czk_status czk_perf_cg_parse_text(czk_perf_cg_totals *t, const char *text, const char *what, int accumulate)
{
    if (!accumulate) memset(t, 0, sizeof *t);
    return czk_perf_cg_parse_profile_text(t, NULL, text, what);
}

czk_status czk_perf_cg_parse(czk_perf_cg_totals *t, const char *path, int accumulate)
{
    if (!accumulate) memset(t, 0, sizeof *t);
    return czk_perf_cg_parse_profile(t, NULL, path);
}

static void totals_of(czk_perf_cg_totals *t, const double *v, const czk_perf_profile *p)
{
    memset(t, 0, sizeof *t);
    if (v) {
        t->ir = v[0], t->dr = v[1], t->dw = v[2], t->i1mr = v[3], t->d1mr = v[4], t->d1mw = v[5], t->ilmr = v[6];
        t->dlmr = v[7], t->dlmw = v[8], t->bc = v[9], t->bcm = v[10], t->bi = v[11], t->bim = v[12];
    }
    t->have_cache = p->have_cache;
    t->have_branch = p->have_branch;
}

czk_status czk_perf_profile_from_sim(czk_perf_profile *out, const czk_perf_eventset *set, const czk_perf_profile *raw1,
                                     const czk_perf_profile *raw2)
{
    memset(out, 0, sizeof *out);
    const czk_perf_profile *any = raw1 ? raw1 : raw2;
    if (!any) return czk_error(CZK_ERR_INVALID_ARG, "profile: no simulation pass");
    /* columns: the set's events the passes at hand can simulate */
    czk_perf_cg_totals z1, z2;
    totals_of(&z1, NULL, raw1 ? raw1 : any);
    totals_of(&z2, NULL, raw2 ? raw2 : any);
    size_t col_ev[CZK_PERF_MAX_EVENTS], nc = 0;
    const char *names[CZK_PERF_MAX_EVENTS] = {0};
    const char *hows[CZK_PERF_MAX_EVENTS];
    for (size_t i = 0; i < set->n; i++) {
        double x;
        const char *how;
        if (!set->ev[i].sim_pass) continue;
        if (!czk__perf_sim_value(&x, &how, set->ev[i].role, raw1 ? &z1 : NULL, raw2 ? &z2 : NULL)) continue;
        int dup = 0;
        for (size_t k = 0; k < nc; k++) dup |= !strcmp(names[k], set->ev[i].name);
        if (dup) continue;
        col_ev[nc] = i;
        hows[nc] = how;
        names[nc++] = set->ev[i].name;
    }
    czk_perf_profile_init(out, nc, names);
    for (size_t k = 0; k < nc; k++) snprintf(out->how[k], sizeof out->how[k], "%s", hows[k]);
    snprintf(out->source, sizeof out->source, "%s", any->source);
    for (int side = 0; side < 2; side++) {
        const czk_perf_profile *p = side ? raw2 : raw1;
        if (!p) continue;
        for (size_t f = 0; f < p->n; f++) {
            const czk_perf_fn *fn = &p->fn[f];
            if (side && raw1 && czk_perf_profile_find(raw1, fn->name)) continue; /* done from pass 1 */
            const czk_perf_fn *o1 = raw1 ? (side ? NULL : fn) : NULL;
            const czk_perf_fn *o2 = raw2 ? (side ? fn : czk_perf_profile_find(raw2, fn->name)) : NULL;
            czk_perf_cg_totals t1, t2;
            totals_of(&t1, o1 ? o1->v : NULL, raw1 ? raw1 : any);
            totals_of(&t2, o2 ? o2->v : NULL, raw2 ? raw2 : any);
            double v[CZK_PERF_MAX_EVENTS];
            int nz = 0;
            for (size_t k = 0; k < nc; k++) {
                const char *how;
                v[k] = 0;
                czk__perf_sim_value(&v[k], &how, set->ev[col_ev[k]].role, raw1 ? &t1 : NULL, raw2 ? &t2 : NULL);
                nz |= v[k] != 0;
            }
            if (!nz) continue;
            czk_status st = czk_perf_profile_add(out, fn->name, fn->object, v);
            if (st != CZK_OK) {
                czk_perf_profile_clear(out);
                return st;
            }
        }
    }
    return CZK_OK;
}
