/* Where a difference is: each counter's value per function on both sides,
 * ranked by |B - A| with the share of the total change each function
 * explains (the view `perf diff` gives of two perf.data files). */
#define _GNU_SOURCE
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "czk/perf.h"
#include "perf/perf_internal.h"
#include "perf/perf_impl.h"

#define MAX_SIDE 24

static void rename_fn(char *out, size_t cap, const char *name, const czk_perf_rename *ren, size_t nren)
{
    snprintf(out, cap, "%s", name);
    for (size_t k = 0; k < nren; k++) {
        size_t fl = strlen(ren[k].from), tl = strlen(ren[k].to);
        if (!fl) continue;
        char tmp[1024];
        size_t o = 0;
        for (const char *p = out; *p && o + 1 < sizeof tmp;) {
            if (!strncmp(p, ren[k].from, fl) && o + tl + 1 < sizeof tmp) {
                memcpy(tmp + o, ren[k].to, tl);
                o += tl;
                p += fl;
            } else {
                tmp[o++] = *p++;
            }
        }
        tmp[o] = 0;
        snprintf(out, cap, "%s", tmp);
    }
}

typedef struct item {
    size_t fn;
    double a, b, delta;
} item;

static int by_delta(const void *x, const void *y)
{
    const item *p = x, *q = y;
    double dp = fabs(p->delta), dq = fabs(q->delta);
    if (dp != dq) return dp < dq ? 1 : -1;
    return p->fn < q->fn ? -1 : p->fn > q->fn;
}

static czk_status where_one(czk_perf_where *w, const czk_perf_diff_row *row, const czk_perf_profile *a, size_t na,
                            const int *ca, const czk_perf_profile *b, size_t nb, const int *cb, size_t top,
                            const czk_perf_rename *ren, size_t nren)
{
    memset(w, 0, sizeof *w);
    snprintf(w->metric, sizeof w->metric, "%s", row->name);
    snprintf(w->how, sizeof w->how, "%s", a[0].how[ca[0]]);
    w->differs = row->differs;
    const char *cols[2 * MAX_SIDE];
    char cn[2 * MAX_SIDE][24];
    for (size_t i = 0; i < na + nb; i++) snprintf(cn[i], sizeof cn[i], "%zu", i), cols[i] = cn[i];
    czk_perf_profile u;
    czk_perf_profile_init(&u, na + nb, cols);
    czk_status st = CZK_OK;
    double v[2 * MAX_SIDE];
    for (size_t side = 0; side < 2 && st == CZK_OK; side++) {
        const czk_perf_profile *ps = side ? b : a;
        size_t np = side ? nb : na;
        for (size_t i = 0; i < np && st == CZK_OK; i++) {
            int col = side ? cb[i] : ca[i];
            for (size_t f = 0; f < ps[i].n && st == CZK_OK; f++) {
                double x = ps[i].fn[f].v[col];
                if (x == 0) continue;
                char key[1024];
                rename_fn(key, sizeof key, ps[i].fn[f].name, ren, nren);
                memset(v, 0, (na + nb) * sizeof v[0]);
                v[side * na + i] = x;
                st = czk_perf_profile_add(&u, key, ps[i].fn[f].object, v);
            }
        }
    }
    item *it = st == CZK_OK ? malloc((u.n ? u.n : 1) * sizeof *it) : NULL;
    if (st == CZK_OK && !it) st = czk_error(CZK_ERR_NOMEM, "where: no memory");
    if (st != CZK_OK) {
        czk_perf_profile_clear(&u);
        free(it);
        return st;
    }
    for (size_t f = 0; f < u.n; f++) {
        it[f].fn = f;
        it[f].a = czk_perf_median(u.fn[f].v, na);
        it[f].b = czk_perf_median(u.fn[f].v + na, nb);
        it[f].delta = it[f].b - it[f].a;
        w->a_total += it[f].a;
        w->b_total += it[f].b;
    }
    w->nfn = u.n;
    qsort(it, u.n, sizeof *it, by_delta);
    size_t n = 0; /* functions that changed, at most top */
    while (n < u.n && n < top && it[n].delta != 0) n++;
    w->rows = calloc(n ? n : 1, sizeof *w->rows);
    if (!w->rows) st = czk_error(CZK_ERR_NOMEM, "where: no memory");
    double total = w->b_total - w->a_total;
    for (size_t k = 0; k < u.n && st == CZK_OK; k++) {
        if (k >= n) {
            w->rest_a += it[k].a;
            w->rest_b += it[k].b;
            continue;
        }
        czk_perf_where_row *r = &w->rows[w->n];
        const czk_perf_fn *fn = &u.fn[it[k].fn];
        r->name = strdup(fn->name);
        if (!r->name) {
            st = czk_error(CZK_ERR_NOMEM, "where: no memory");
            break;
        }
        snprintf(r->object, sizeof r->object, "%s", fn->object);
        r->a = it[k].a, r->b = it[k].b, r->delta = it[k].delta;
        r->share = total != 0 ? 100.0 * r->delta / total : NAN;
        w->n++;
    }
    free(it);
    czk_perf_profile_clear(&u);
    return st;
}

czk_status czk_perf_diff_where(czk_perf_diff *d, const czk_perf_profile *a, size_t na, const czk_perf_profile *b,
                               size_t nb, size_t top, const czk_perf_rename *ren, size_t nren)
{
    if (!na || !nb) return CZK_OK;
    if (na > MAX_SIDE) na = MAX_SIDE;
    if (nb > MAX_SIDE) nb = MAX_SIDE;
    d->where = calloc(d->nrows ? d->nrows : 1, sizeof *d->where);
    if (!d->where) return czk_error(CZK_ERR_NOMEM, "where: no memory");
    snprintf(d->where_source, sizeof d->where_source, "%s", a[0].source);
    size_t o = (size_t)snprintf(d->where_note, sizeof d->where_note,
                                "self cost: a function's own instructions, callees excluded; inlined code is counted "
                                "in the function it was inlined into");
    for (size_t k = 0; k < nren && o < sizeof d->where_note; k++)
        o += (size_t)snprintf(d->where_note + o, sizeof d->where_note - o, "%s'%s' read as '%s'", k ? ", " : "; names: ",
                              ren[k].from, ren[k].to);
    for (size_t r = 0; r < d->nrows; r++) {
        const czk_perf_diff_row *row = &d->rows[r];
        if (!row->na || !row->nb || row->unit[0]) continue;
        int ca[MAX_SIDE], cb[MAX_SIDE], ok = 1;
        for (size_t i = 0; i < na && ok; i++) ok = (ca[i] = czk_perf_profile_column(&a[i], row->name)) >= 0;
        for (size_t i = 0; i < nb && ok; i++) ok = (cb[i] = czk_perf_profile_column(&b[i], row->name)) >= 0;
        if (!ok) continue;
        czk_status st = where_one(&d->where[d->nwhere], row, a, na, ca, b, nb, cb, top, ren, nren);
        if (st != CZK_OK) return st;
        d->nwhere++;
    }
    return CZK_OK;
}

static void fmt_count(char *buf, size_t n, double v)
{
    if (fabs(v) >= 1e5) snprintf(buf, n, "%.4g", v);
    else snprintf(buf, n, "%.0f", v);
}

void czk_perf_diff_print_where(FILE *f, const czk_perf_diff *d, int all_where)
{
    int shown = 0;
    for (size_t i = 0; i < d->nwhere; i++) {
        const czk_perf_where *w = &d->where[i];
        if (!all_where && !w->differs) continue;
        if (!shown++) fprintf(f, "\nWhere (%s; %s):\n", d->where_source, d->where_note);
        char ta[32], tb[32], td[32];
        fmt_count(ta, sizeof ta, w->a_total);
        fmt_count(tb, sizeof tb, w->b_total);
        fmt_count(td, sizeof td, w->b_total - w->a_total);
        fprintf(f, "\n%s: A %s, B %s, B - A %s%s [%s]\n", w->metric, ta, tb, w->b_total - w->a_total > 0 ? "+" : "", td,
                w->how);
        fprintf(f, "  %3s  %-60s %11s %11s %12s %7s  %s\n", "#", "function", "A", "B", "B - A", "share", "object");
        for (size_t k = 0; k < w->n; k++) {
            const czk_perf_where_row *r = &w->rows[k];
            char a[32], b[32], dl[32], sh[16], nm[64];
            fmt_count(a, sizeof a, r->a);
            fmt_count(b, sizeof b, r->b);
            fmt_count(dl, sizeof dl, r->delta);
            if (isfinite(r->share)) snprintf(sh, sizeof sh, "%.1f%%", r->share);
            else snprintf(sh, sizeof sh, "-");
            if (strlen(r->name) > 60) snprintf(nm, sizeof nm, "%.57s...", r->name);
            else snprintf(nm, sizeof nm, "%s", r->name);
            fprintf(f, "  %3zu  %-60s %11s %11s %s%11s %7s  %s\n", k + 1, nm, a, b, r->delta > 0 ? "+" : " ", dl, sh,
                    r->object);
        }
        if (w->nfn > w->n) {
            char a[32], b[32], dl[32], nm[64];
            fmt_count(a, sizeof a, w->rest_a);
            fmt_count(b, sizeof b, w->rest_b);
            fmt_count(dl, sizeof dl, w->rest_b - w->rest_a);
            snprintf(nm, sizeof nm, "(the other %zu functions)", w->nfn - w->n);
            fprintf(f, "  %3s  %-60s %11s %11s %s%11s\n", "", nm, a, b, w->rest_b - w->rest_a > 0 ? "+" : " ", dl);
        }
    }
}

static json_t *num_or_null(double v)
{
    return isfinite(v) ? json_real(v) : json_null();
}

json_t *czk__perf_where_json(const czk_perf_diff *d);
json_t *czk__perf_where_json(const czk_perf_diff *d)
{
    json_t *o = json_object(), *ms = json_array();
    json_object_set_new(o, "source", json_string(d->where_source));
    json_object_set_new(o, "note", json_string(d->where_note));
    for (size_t i = 0; i < d->nwhere; i++) {
        const czk_perf_where *w = &d->where[i];
        json_t *m = json_object(), *fs = json_array();
        json_object_set_new(m, "metric", json_string(w->metric));
        json_object_set_new(m, "how", json_string(w->how));
        json_object_set_new(m, "differs", json_boolean(w->differs));
        json_object_set_new(m, "a_total", json_real(w->a_total));
        json_object_set_new(m, "b_total", json_real(w->b_total));
        json_object_set_new(m, "functions_seen", json_integer((json_int_t)w->nfn));
        for (size_t k = 0; k < w->n; k++) {
            const czk_perf_where_row *r = &w->rows[k];
            json_t *e = json_object();
            json_object_set_new(e, "rank", json_integer((json_int_t)k + 1));
            json_object_set_new(e, "function", json_string(r->name));
            json_object_set_new(e, "object", json_string(r->object));
            json_object_set_new(e, "a", json_real(r->a));
            json_object_set_new(e, "b", json_real(r->b));
            json_object_set_new(e, "delta", json_real(r->delta));
            json_object_set_new(e, "share_pct", num_or_null(r->share));
            json_array_append_new(fs, e);
        }
        json_object_set_new(m, "functions", fs);
        json_object_set_new(m, "rest_a", json_real(w->rest_a));
        json_object_set_new(m, "rest_b", json_real(w->rest_b));
        json_array_append_new(ms, m);
    }
    json_object_set_new(o, "metrics", ms);
    return o;
}

double czk_perf_cpu_ghz(char *src, size_t cap)
{
    const char *e = getenv("CZK_PERF_GHZ");
    if (e && *e) {
        double g = strtod(e, NULL);
        if (g > 0 && g < 100) {
            snprintf(src, cap, "x %.2f GHz from CZK_PERF_GHZ", g);
            return g;
        }
    }
    FILE *f = fopen("/proc/cpuinfo", "r");
    double best = 0;
    if (f) {
        char line[256];
        while (fgets(line, sizeof line, f)) {
            double mhz;
            if (!strncmp(line, "cpu MHz", 7) && sscanf(strchr(line, ':') ? strchr(line, ':') + 1 : "", "%lf", &mhz) == 1 &&
                mhz > best)
                best = mhz;
        }
        fclose(f);
    }
    if (best <= 0) {
        snprintf(src, cap, "no clock rate known");
        return NAN;
    }
    snprintf(src, cap, "x %.2f GHz, /proc/cpuinfo cpu MHz", best / 1000);
    return best / 1000;
}
