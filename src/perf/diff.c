/* A/B comparison: per-metric statistics, the explanation (time = instructions
 * x time per instruction; counter deltas ranked by an estimated cycle cost),
 * and the text / JSON / SVG renderings. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "common/fileio.h"
#include "czk/perf.h"
#include "perf/perf_internal.h"

#define RESAMPLES 2000

typedef struct kv {
    const char *name, *unit, *source, *how;
    double value;
    int exact;
} kv;

/* The metrics of one report, in a fixed order. */
static size_t metrics_of(kv *out, size_t cap, const czk_perf_report *r, czk_perf_metric *dm)
{
    size_t n = 0;
#define PUT(nm, un, src, hw, v, ex)                                                      \
    do {                                                                                \
        if (n < cap) out[n++] = (kv){nm, un, src, hw, v, ex};                           \
    } while (0)
    PUT("time", "s", "measured", r->region_fn[0] ? "whole run (counters: --region)" : "", r->seconds, 0);
    PUT("task-clock", "s", "software", "", r->task_clock_s, 0);
    PUT("page-faults", "", "software", "", r->page_faults, 0);
    PUT("context-switches", "", "software", "", r->ctx_switches, 0);
    PUT("max RSS", "MiB", "software", "getrusage", r->max_rss / 1048576.0, 0);
    size_t fixed = n;
    for (size_t i = 0; i < r->n; i++) {
        int dup = 0; /* a software event named like a fixed row is measured there already */
        for (size_t k = 0; k < fixed; k++) dup |= !strcmp(out[k].name, r->v[i].name);
        const czk_perf_value *v = &r->v[i];
        if (!dup && v->source != CZK_PERF_UNAVAILABLE)
            PUT(v->name, "", czk_perf_source_str(v->source), v->source == CZK_PERF_COUNTED ? "" : v->note, v->value,
                v->source == CZK_PERF_SIMULATED && r->sim_exact);
    }
    size_t nd = czk_perf_derive(dm, r);
    for (size_t i = 0; i < nd; i++)
        PUT(dm[i].name, dm[i].unit, czk_perf_source_str(dm[i].source), dm[i].how, dm[i].value,
            dm[i].source == CZK_PERF_SIMULATED && r->sim_exact);
#undef PUT
    return n;
}

/* Deterministic counts (a simulation that repeated exactly) are compared as
 * they are: the delta is exact, and "differs" means outside +-1%. */
static void exact_row(czk_perf_diff_row *row)
{
    row->u = row->p = NAN;
    row->delta_pct = row->ci_lo = row->ci_hi = NAN;
    if (row->a_med == 0) {
        row->delta_pct = row->b_med == 0 ? 0 : NAN;
        row->differs = row->b_med != 0;
        return;
    }
    row->delta_pct = row->ci_lo = row->ci_hi = 100.0 * (row->b_med / row->a_med - 1.0);
    row->differs = fabs(row->delta_pct) > 1.0;
}

static void stat_row(czk_perf_diff_row *row, uint64_t seed)
{
    row->a_med = czk_perf_median(row->a, row->na);
    row->b_med = czk_perf_median(row->b, row->nb);
    if (row->exact) {
        exact_row(row);
        return;
    }
    row->delta_pct = row->ci_lo = row->ci_hi = NAN;
    row->p = czk_perf_mann_whitney(&row->u, row->a, row->na, row->b, row->nb);
    row->differs = 0;
    if (row->a_med == 0 && row->b_med == 0) {
        row->delta_pct = 0;
        return;
    }
    if (row->a_med != 0) {
        row->delta_pct = 100.0 * (row->b_med / row->a_med - 1.0);
        if (czk_perf_bootstrap_delta(&row->ci_lo, &row->ci_hi, row->a, row->na, row->b, row->nb, 0.95, RESAMPLES, seed))
            row->ci_lo = row->ci_hi = NAN;
    }
    if (row->na < 2 || row->nb < 2 || !(row->p < 0.05)) return;
    if (row->a_med == 0) row->differs = 1; /* from nothing to something: the test alone decides */
    else if (!isnan(row->ci_lo) && (row->ci_lo > 1.0 || row->ci_hi < -1.0)) row->differs = 1;
}

static uint64_t name_seed(uint64_t seed, const char *s)
{
    uint64_t h = seed ^ 0xcbf29ce484222325ULL;
    for (; *s; s++) h = (h ^ (unsigned char)*s) * 0x100000001b3ULL;
    return h;
}

void czk_perf_diff_free(czk_perf_diff *d)
{
    for (size_t i = 0; i < d->nrows; i++) free(d->rows[i].a), free(d->rows[i].b);
    d->nrows = 0;
    for (size_t i = 0; i < d->nwhere; i++) {
        for (size_t k = 0; k < d->where[i].n; k++) free(d->where[i].rows[k].name);
        free(d->where[i].rows);
    }
    free(d->where);
    d->where = NULL;
    d->nwhere = 0;
}

/* Role samples used by the cost model; returns 0 when unavailable in r. */
typedef enum { K_INSTR, K_CYCLES, K_MISP, K_L2HIT, K_L2MISS, K_DRAM, K_N } kind;

static int role_value(double *v, const czk_perf_report *r, kind k, const czk_perf_value **src)
{
    const czk_perf_value *x, *y;
    switch (k) {
    case K_INSTR: x = czk_perf_report_find(r, CZK_PERF_ROLE_INSTRUCTIONS); break;
    case K_CYCLES: x = czk_perf_report_find(r, CZK_PERF_ROLE_CYCLES); break;
    case K_MISP: x = czk_perf_report_find(r, CZK_PERF_ROLE_BRANCH_MISSES); break;
    case K_L2HIT:
        x = czk_perf_report_find(r, CZK_PERF_ROLE_L2_DC_HIT);
        if (!x) x = czk_perf_report_find(r, CZK_PERF_ROLE_FILL_L2);
        break;
    case K_L2MISS:
        x = czk_perf_report_find(r, CZK_PERF_ROLE_L2_MISS);
        if (x) break;
        x = czk_perf_report_find(r, CZK_PERF_ROLE_L2_DC_ACCESS);
        y = czk_perf_report_find(r, CZK_PERF_ROLE_L2_DC_HIT);
        if (x && y) {
            *v = x->value - y->value;
            *src = x;
            return 1;
        }
        x = czk_perf_report_find(r, CZK_PERF_ROLE_CACHE_MISSES);
        if (x && x->source != CZK_PERF_SIMULATED && !strstr(x->note, "L2 misses")) x = NULL;
        break;
    case K_DRAM: x = czk_perf_report_find(r, CZK_PERF_ROLE_FILL_DRAM); break;
    default: x = NULL;
    }
    if (!x) return 0;
    *v = x->value;
    *src = x;
    return 1;
}

static int role_row(czk_perf_diff_row *row, const czk_perf_report *a, size_t na, const czk_perf_report *b, size_t nb,
                    kind k, uint64_t seed)
{
    memset(row, 0, sizeof *row);
    row->a = malloc((na + 1) * sizeof *row->a);
    row->b = malloc((nb + 1) * sizeof *row->b);
    if (!row->a || !row->b) return 0;
    double v;
    const czk_perf_value *x;
    int exact = 1;
    for (size_t i = 0; i < na; i++)
        if (role_value(&v, &a[i], k, &x)) row->a[row->na++] = v, exact &= x->source == CZK_PERF_SIMULATED && a[i].sim_exact;
    for (size_t i = 0; i < nb; i++)
        if (role_value(&v, &b[i], k, &x)) row->b[row->nb++] = v, exact &= x->source == CZK_PERF_SIMULATED && b[i].sim_exact;
    if (!row->na || !row->nb) return 0;
    row->exact = exact;
    stat_row(row, seed + (uint64_t)k);
    return 1;
}

static void fmt_num(char *buf, size_t n, double v)
{
    if (!isfinite(v)) snprintf(buf, n, "-");
    else if (v != 0 && (fabs(v) >= 1e6 || fabs(v) < 1e-3)) snprintf(buf, n, "%.4g", v);
    else if (fabs(v) >= 1000) snprintf(buf, n, "%.0f", v);
    else snprintf(buf, n, "%.4g", v);
}

/* d's rows: each metric's samples over the runs of A and B, the names in
 * order of first appearance over A then B. */
static czk_status collect_rows(czk_perf_diff *d, const czk_perf_report *a, size_t na, const czk_perf_report *b,
                               size_t nb)
{
    kv m[CZK_PERF_MAX_EVENTS + CZK_PERF_MAX_METRICS + 8];
    czk_perf_metric dm[CZK_PERF_MAX_METRICS];
    const size_t cap = sizeof m / sizeof m[0];
    /* rows: names in order of first appearance over A then B */
    for (int side = 0; side < 2; side++) {
        const czk_perf_report *rs = side ? b : a;
        size_t nr = side ? nb : na;
        for (size_t i = 0; i < nr; i++) {
            size_t k = metrics_of(m, cap, &rs[i], dm);
            for (size_t j = 0; j < k; j++) {
                size_t r = 0;
                while (r < d->nrows && strcmp(d->rows[r].name, m[j].name)) r++;
                if (r == d->nrows) {
                    if (d->nrows >= CZK_PERF_DIFF_MAX_ROWS) continue;
                    czk_perf_diff_row *row = &d->rows[d->nrows++];
                    memset(row, 0, sizeof *row);
                    snprintf(row->name, sizeof row->name, "%s", m[j].name);
                    snprintf(row->unit, sizeof row->unit, "%s", m[j].unit);
                    snprintf(row->source, sizeof row->source, "%s", m[j].source);
                    snprintf(row->how, sizeof row->how, "%s", m[j].how ? m[j].how : "");
                    row->exact = 1;
                    row->a = malloc(na * sizeof *row->a);
                    row->b = malloc(nb * sizeof *row->b);
                    if (!row->a || !row->b) {
                        return czk_error(CZK_ERR_NOMEM, "diff: no memory for samples");
                    }
                }
                czk_perf_diff_row *row = &d->rows[r];
                row->exact &= m[j].exact;
                if (side) {
                    if (row->nb < nb) row->b[row->nb++] = m[j].value;
                } else if (row->na < na) {
                    row->a[row->na++] = m[j].value;
                }
            }
        }
    }
    return CZK_OK;
}

/* 1 when a row of d comes from callgrind's simulation. */
static int any_simulated(const czk_perf_diff *d)
{
    int simulated = 0;
    for (size_t r = 0; r < d->nrows; r++) simulated |= !strcmp(d->rows[r].source, "simulated");
    return simulated;
}

/* A's cycles per instruction for the instruction term (d->cpi_src says
 * how): counted cycles; else A's CPU time x the clock rate, when the
 * counters and the clock cover the same region; else IPC 4 assumed. */
static double cycles_per_instr(czk_perf_diff *d, const czk_perf_diff_row *rr, const int *have,
                               const czk_perf_diff_row *time, int region)
{
    const czk_perf_diff_row *tc = NULL;
    for (size_t r = 0; r < d->nrows; r++)
        if (!strcmp(d->rows[r].name, "task-clock") && d->rows[r].na && d->rows[r].a_med > 0) tc = &d->rows[r];
    double cpi = CZK_PERF_COST_INSTR;
    snprintf(d->cpi_src, sizeof d->cpi_src, "assumed (IPC 4; no cycle count)");
    if (have[K_CYCLES] && have[K_INSTR] && rr[K_INSTR].a_med > 0) {
        cpi = rr[K_CYCLES].a_med / rr[K_INSTR].a_med;
        snprintf(d->cpi_src, sizeof d->cpi_src, "A's counted cycles / instructions");
    } else if (have[K_INSTR] && rr[K_INSTR].a_med > 0 && isfinite(d->ghz) && !region) {
        const czk_perf_diff_row *t = tc ? tc : time;
        if (t->a_med > 0) {
            cpi = t->a_med * d->ghz * 1e9 / rr[K_INSTR].a_med;
            snprintf(d->cpi_src, sizeof d->cpi_src, "A's %.16s x %.2f GHz / %s instructions", t->name, d->ghz,
                     any_simulated(d) ? "simulated" : "counted");
        }
    }
    return cpi;
}

/* d->causes ranked by |cycles|; d->cause: the largest significant one in
 * the direction of the time change (when the time differs), d->largest:
 * the largest significant one. */
static void rank_causes(czk_perf_diff *d, const czk_perf_diff_row *time)
{
    for (size_t i = 1; i < d->ncauses; i++)
        for (size_t j = i; j > 0 && fabs(d->causes[j].cycles) > fabs(d->causes[j - 1].cycles); j--) {
            czk_perf_diff_cause t = d->causes[j];
            d->causes[j] = d->causes[j - 1];
            d->causes[j - 1] = t;
        }
    snprintf(d->cause, sizeof d->cause, "none");
    snprintf(d->largest, sizeof d->largest, "none");
    double dir = time->b_med >= time->a_med ? 1.0 : -1.0;
    for (size_t i = 0; i < d->ncauses; i++) {
        const czk_perf_diff_cause *c = &d->causes[i];
        if (!c->significant || c->cycles == 0) continue;
        if (!strcmp(d->largest, "none")) snprintf(d->largest, sizeof d->largest, "%s", c->key);
        if (d->differs && c->cycles * dir > 0 && !strcmp(d->cause, "none")) snprintf(d->cause, sizeof d->cause, "%s", c->key);
    }
}

/* The cost model: the counters' deltas (B - A, medians) priced in cycles
 * next to the measured change in cycles. *have_cycles: cycles were counted
 * on both sides. */
static void cost_model(czk_perf_diff *d, const czk_perf_diff_row *time, const czk_perf_report *a, size_t na,
                       const czk_perf_report *b, size_t nb, uint64_t seed, int *have_cycles)
{
    czk_perf_diff_row rr[K_N];
    int have[K_N];
    for (int k = 0; k < K_N; k++) have[k] = role_row(&rr[k], a, na, b, nb, (kind)k, seed);
    if (have[K_INSTR] && rr[K_INSTR].a_med > 0) {
        d->instr_ratio = rr[K_INSTR].b_med / rr[K_INSTR].a_med;
        d->tpi_ratio = d->time_ratio / d->instr_ratio;
    }
    d->ghz = czk_perf_cpu_ghz(d->ghz_src, sizeof d->ghz_src);
    int simulated = any_simulated(d), region = a[0].region_fn[0] != 0;
    double cpi = cycles_per_instr(d, rr, have, time, region);
    d->cpi_a = cpi;
    /* the measured change in cycles */
    d->measured_cycles = d->model_cycles = d->unexplained_cycles = NAN;
    int time_like = !strcmp(time->name, "time") || !strcmp(time->name, "task-clock");
    if (have[K_CYCLES] && !region) d->measured_cycles = rr[K_CYCLES].b_med - rr[K_CYCLES].a_med;
    else if (time_like && isfinite(d->ghz) && !region) d->measured_cycles = (time->b_med - time->a_med) * d->ghz * 1e9;
    snprintf(d->unobserved, sizeof d->unobserved, "%s",
             simulated ? "what callgrind does not simulate: overlap between misses (memory-level parallelism), "
                         "store-to-load forwarding and memory dependences, dependency chains and execution ports, "
                         "the width of moved values (larger copies), instruction fetch and decode, hardware "
                         "prefetching, TLB misses, the clock rate, other load on the machine"
                       : "what the counted events do not separate: overlap between misses, dependency chains and "
                         "execution ports, store forwarding, fetch and decode (the top-down rows, where the CPU "
                         "offers them, split the cycles), the clock rate, other load on the machine");
    static const struct {
        kind k;
        const char *key, *what;
    } items[] = {{K_INSTR, "instructions", "instruction count"},
                 {K_MISP, "branch-mispredictions", "branch mispredictions"},
                 {K_L2HIT, "l2-hits", "L1d misses served by L2"},
                 {K_L2MISS, "l2-misses", "L2 misses (cache misses)"},
                 {K_DRAM, "dram-fills", "DRAM fills (memory traffic)"}};
    for (size_t i = 0; i < sizeof items / sizeof items[0]; i++) {
        kind k = items[i].k;
        if (!have[k]) continue;
        czk_perf_diff_cause *c = &d->causes[d->ncauses++];
        snprintf(c->key, sizeof c->key, "%s", items[i].key);
        snprintf(c->what, sizeof c->what, "%s", items[i].what);
        c->delta = rr[k].b_med - rr[k].a_med;
        double cost = k == K_INSTR ? cpi : k == K_MISP ? CZK_PERF_COST_MISPREDICT : k == K_L2HIT ? CZK_PERF_COST_L2_HIT
                                         : k == K_L2MISS ? CZK_PERF_COST_L2_MISS : CZK_PERF_COST_DRAM;
        c->cycles = c->delta * cost;
        c->significant = rr[k].differs;
    }
    for (int k = 0; k < K_N; k++) free(rr[k].a), free(rr[k].b);
    rank_causes(d, time);
    double model = 0;
    for (size_t i = 0; i < d->ncauses; i++) model += d->causes[i].cycles;
    if (d->ncauses) d->model_cycles = model;
    if (d->ncauses && isfinite(d->measured_cycles)) d->unexplained_cycles = d->measured_cycles - model;
    *have_cycles = have[K_CYCLES];
}

/* d->explain: the verdict, the time split into instructions and time per
 * instruction, the ranked counter deltas, the cycles they explain, the
 * main cause. */
static void explain(czk_perf_diff *d, const czk_perf_diff_row *time, const char *primary, int have_cycles,
                    int region)
{
    const int simulated = any_simulated(d);
    const double cpi = d->cpi_a, model = d->ncauses ? d->model_cycles : 0;
    char *e = d->explain;
    size_t cap2 = sizeof d->explain, o = 0;
#define OUT(...)                                                                        \
    do {                                                                                \
        if (o < cap2) o += (size_t)snprintf(e + o, cap2 - o, __VA_ARGS__);              \
    } while (0)
    if (d->differs)
        OUT("B is %s than A: %s %+.1f%% (95%% CI %+.1f%% .. %+.1f%%, p = %.3g).\n",
            time->delta_pct > 0 ? "slower" : "faster", primary, time->delta_pct, time->ci_lo, time->ci_hi, time->p);
    else
        OUT("No difference in %s: %+.1f%% (95%% CI %+.1f%% .. %+.1f%%, p = %.3g; 'differs' needs p < 0.05 and the CI outside +-1%%).\n",
            primary, time->delta_pct, time->ci_lo, time->ci_hi, time->p);
    if (time->na < 4 || time->nb < 4)
        OUT("Note: with fewer than 4 runs per side the Mann-Whitney p cannot fall below 0.05: nothing can be called different.\n");
    if (!region && isfinite(d->instr_ratio) && isfinite(d->tpi_ratio) && d->time_ratio > 0) {
        double lt = log(d->time_ratio), li = log(d->instr_ratio);
        OUT("%s = instructions x %s per instruction: instructions %+.1f%%, %s per instruction %+.1f%%%s", primary, primary,
            100 * (d->instr_ratio - 1), primary, 100 * (d->tpi_ratio - 1),
            simulated ? " (native time / simulated instructions)" : "");
        if (d->differs && fabs(lt) > 1e-9)
            OUT(" (instruction count explains %.0f%% of the change, CPI %.0f%%, on a log scale).\n", 100 * li / lt,
                100 * (lt - li) / lt);
        else
            OUT(".\n");
    }
    int any = 0;
    for (size_t i = 0; i < d->ncauses; i++) any |= d->causes[i].significant;
    if (d->ncauses) {
        OUT("Counter deltas (B - A, medians) ranked by estimated cycles:\n");
        for (size_t i = 0; i < d->ncauses; i++) {
            const czk_perf_diff_cause *c = &d->causes[i];
            OUT("  %zu. %-30s %+14.0f events  %+14.0f cycles%s\n", i + 1, c->what, c->delta, c->cycles,
                c->significant ? "" : "  (not significant)");
        }
    }
    if (d->ncauses) {
        OUT("Why, in cycles (the counter model next to the measured change):\n");
        if (isfinite(d->measured_cycles))
            OUT("  measured: %s %+.4g s = %+.4g cycles (%s)\n", primary, time->b_med - time->a_med, d->measured_cycles,
                have_cycles && !region ? "counted cycles" : d->ghz_src);
        else
            OUT("  measured: %s has no cycle equivalent here%s\n", primary, region ? " (--region: time covers the whole run)" : "");
        OUT("  model: %+.4g cycles = the ranked counter deltas above (instructions at %.3g cycles each: %s; "
            "mispredict %.0f, L2 hit %.0f, L2 miss %.0f, DRAM fill %.0f cycles)\n",
            model, cpi, d->cpi_src, CZK_PERF_COST_MISPREDICT, CZK_PERF_COST_L2_HIT, CZK_PERF_COST_L2_MISS, CZK_PERF_COST_DRAM);
        if (isfinite(d->unexplained_cycles)) {
            double share = d->measured_cycles != 0 ? 100.0 * d->unexplained_cycles / fabs(d->measured_cycles) : NAN;
            OUT("  unexplained: %+.4g cycles", d->unexplained_cycles);
            if (isfinite(share)) OUT(" (%.0f%% of the measured change)", share);
            OUT(", not explained by the counters: %s.\n", d->unobserved);
        }
    }
    if (strcmp(d->cause, "none")) {
        for (size_t i = 0; i < d->ncauses; i++)
            if (!strcmp(d->causes[i].key, d->cause)) OUT("Main cause: %s.\n", d->causes[i].what);
    } else if (!d->ncauses) {
        OUT("No counters to explain a difference (run with --counters).\n");
    } else if (!any) {
        OUT("No counter differs between A and B.\n");
    } else if (d->differs) {
        OUT("No significant counter difference in the direction of the time change.\n");
    } else {
        for (size_t i = 0; i < d->ncauses; i++)
            if (!strcmp(d->causes[i].key, d->largest))
                OUT("No time difference to explain; the largest counter change is %s (est. %+.0f cycles).\n",
                    d->causes[i].what, d->causes[i].cycles);
    }
#undef OUT
}

czk_status czk_perf_diff_compute(czk_perf_diff *d, const czk_perf_report *a, size_t na, const czk_perf_report *b,
                                 size_t nb, uint64_t seed, const char *primary)
{
    memset(d, 0, sizeof *d);
    if (na == 0 || nb == 0) return czk_error(CZK_ERR_INVALID_ARG, "diff: no runs (A %zu, B %zu)", na, nb);
    czk_status st = collect_rows(d, a, na, b, nb);
    if (st != CZK_OK) {
        czk_perf_diff_free(d);
        return st;
    }
    for (size_t r = 0; r < d->nrows; r++)
        if (d->rows[r].na && d->rows[r].nb) stat_row(&d->rows[r], name_seed(seed, d->rows[r].name));
    if (!primary) primary = "time";
    const czk_perf_diff_row *time = NULL;
    for (size_t r = 0; r < d->nrows; r++)
        if (!strcmp(d->rows[r].name, primary) && d->rows[r].na && d->rows[r].nb) time = &d->rows[r];
    if (!time) {
        czk_perf_diff_free(d);
        return czk_error(CZK_ERR_INVALID_ARG, "diff: no metric '%s' measured on both sides", primary);
    }
    snprintf(d->primary, sizeof d->primary, "%s", primary);
    d->differs = time->differs;
    d->time_ratio = time->a_med > 0 ? time->b_med / time->a_med : NAN;
    d->instr_ratio = d->tpi_ratio = NAN;
    int have_cycles = 0;
    cost_model(d, time, a, na, b, nb, seed, &have_cycles);
    explain(d, time, primary, have_cycles, a[0].region_fn[0] != 0);
    return CZK_OK;
}

static void row_source(char *buf, size_t n, const czk_perf_diff_row *r)
{
    snprintf(buf, n, "%s%s%s%s", r->source, r->exact ? " (exact)" : "", r->how[0] ? ": " : "", r->how);
}

void czk_perf_diff_print(FILE *f, const czk_perf_diff *d)
{
    fprintf(f, "%-40s %12s %12s %9s %21s %9s  %-13s %s\n", "metric", "A median", "B median", "delta", "95% CI", "p",
            "verdict", "source");
    int any_exact = 0;
    for (size_t i = 0; i < d->nrows; i++) {
        const czk_perf_diff_row *r = &d->rows[i];
        if (!r->na || !r->nb) continue;
        char am[32], bm[32], dl[32], ci[48], pv[16], src[160];
        fmt_num(am, sizeof am, r->a_med);
        fmt_num(bm, sizeof bm, r->b_med);
        if (isfinite(r->delta_pct)) snprintf(dl, sizeof dl, "%+.2f%%", r->delta_pct);
        else snprintf(dl, sizeof dl, "n/a");
        if (r->exact) snprintf(ci, sizeof ci, "-");
        else if (isfinite(r->ci_lo)) snprintf(ci, sizeof ci, "[%+.2f, %+.2f]", r->ci_lo, r->ci_hi);
        else snprintf(ci, sizeof ci, "-");
        if (r->exact) snprintf(pv, sizeof pv, "exact");
        else snprintf(pv, sizeof pv, "%.3g", r->p);
        any_exact |= r->exact;
        char name[64];
        snprintf(name, sizeof name, "%s%s%s%s", r->name, r->unit[0] ? " (" : "", r->unit, r->unit[0] ? ")" : "");
        row_source(src, sizeof src, r);
        fprintf(f, "%-40.40s %12s %12s %9s %21s %9s  %-13s %s\n", name, am, bm, dl, ci, pv,
                r->differs ? "differs" : "no difference", src);
    }
    if (any_exact)
        fprintf(f, "(exact: simulated counts that repeated in a second simulation, exactly or within %.1g%%; compared "
                   "as they are, 'differs' when outside +-1%%)\n", 100 * CZK_PERF_SIM_REPEAT);
    czk_perf_diff_print_where(f, d, 0);
    fprintf(f, "\nverdict (%s): %s\n%s", d->primary, d->differs ? "differs" : "no difference", d->explain);
}

json_t *czk__perf_report_json(const czk_perf_report *r);
json_t *czk__perf_where_json(const czk_perf_diff *d);

static json_t *num_or_null(double v)
{
    return isfinite(v) ? json_real(v) : json_null();
}

czk_status czk_perf_diff_write_json(FILE *f, const czk_perf_diff *d, const char *a_cmd, const char *b_cmd,
                                    const char *order, const czk_perf_report *a, size_t na,
                                    const czk_perf_report *b, size_t nb)
{
    json_t *o = json_object();
    json_object_set_new(o, "a", json_string(a_cmd));
    json_object_set_new(o, "b", json_string(b_cmd));
    json_object_set_new(o, "order", json_string(order));
    json_t *ms = json_array();
    for (size_t i = 0; i < d->nrows; i++) {
        const czk_perf_diff_row *r = &d->rows[i];
        json_t *m = json_object(), *sa = json_array(), *sb = json_array();
        for (size_t k = 0; k < r->na; k++) json_array_append_new(sa, json_real(r->a[k]));
        for (size_t k = 0; k < r->nb; k++) json_array_append_new(sb, json_real(r->b[k]));
        json_object_set_new(m, "name", json_string(r->name));
        json_object_set_new(m, "unit", json_string(r->unit));
        json_object_set_new(m, "source", json_string(r->source));
        json_object_set_new(m, "how", json_string(r->how));
        json_object_set_new(m, "exact", json_boolean(r->exact));
        json_object_set_new(m, "a_median", num_or_null(r->a_med));
        json_object_set_new(m, "b_median", num_or_null(r->b_med));
        json_object_set_new(m, "delta_pct", num_or_null(r->delta_pct));
        json_object_set_new(m, "ci95_lo", num_or_null(r->ci_lo));
        json_object_set_new(m, "ci95_hi", num_or_null(r->ci_hi));
        json_object_set_new(m, "mann_whitney_u", num_or_null(r->u));
        json_object_set_new(m, "p", num_or_null(r->p));
        json_object_set_new(m, "verdict", json_string(r->differs ? "differs" : "no difference"));
        json_object_set_new(m, "a_samples", sa);
        json_object_set_new(m, "b_samples", sb);
        json_array_append_new(ms, m);
    }
    json_object_set_new(o, "metrics", ms);
    json_t *dg = json_object(), *cs = json_array();
    json_object_set_new(dg, "verdict", json_string(d->differs ? "differs" : "no difference"));
    json_object_set_new(dg, "primary", json_string(d->primary));
    json_object_set_new(dg, "cause", json_string(d->cause));
    json_object_set_new(dg, "largest_counter_change", json_string(d->largest));
    json_object_set_new(dg, "time_ratio", num_or_null(d->time_ratio));
    json_object_set_new(dg, "instructions_ratio", num_or_null(d->instr_ratio));
    json_object_set_new(dg, "time_per_instruction_ratio", num_or_null(d->tpi_ratio));
    for (size_t i = 0; i < d->ncauses; i++) {
        json_t *c = json_object();
        json_object_set_new(c, "key", json_string(d->causes[i].key));
        json_object_set_new(c, "what", json_string(d->causes[i].what));
        json_object_set_new(c, "delta", json_real(d->causes[i].delta));
        json_object_set_new(c, "cycles", json_real(d->causes[i].cycles));
        json_object_set_new(c, "significant", json_boolean(d->causes[i].significant));
        json_array_append_new(cs, c);
    }
    json_object_set_new(dg, "ranked", cs);
    json_t *why = json_object();
    json_object_set_new(why, "clock_ghz", num_or_null(d->ghz));
    json_object_set_new(why, "clock_source", json_string(d->ghz_src));
    json_object_set_new(why, "cycles_per_instruction_a", num_or_null(d->cpi_a));
    json_object_set_new(why, "cpi_source", json_string(d->cpi_src));
    json_object_set_new(why, "measured_cycles", num_or_null(d->measured_cycles));
    json_object_set_new(why, "model_cycles", num_or_null(d->model_cycles));
    json_object_set_new(why, "unexplained_cycles", num_or_null(d->unexplained_cycles));
    json_object_set_new(why, "not_observed", json_string(d->unobserved));
    json_object_set_new(dg, "why", why);
    json_object_set_new(dg, "text", json_string(d->explain));
    json_object_set_new(o, "diagnosis", dg);
    json_object_set_new(o, "where", czk__perf_where_json(d));
    json_t *runs = json_object(), *ra = json_array(), *rb = json_array();
    for (size_t i = 0; i < na; i++) json_array_append_new(ra, czk__perf_report_json(&a[i]));
    for (size_t i = 0; i < nb; i++) json_array_append_new(rb, czk__perf_report_json(&b[i]));
    json_object_set_new(runs, "a", ra);
    json_object_set_new(runs, "b", rb);
    json_object_set_new(o, "runs", runs);
    int rc = json_dumpf(o, f, JSON_INDENT(1) | JSON_REAL_PRECISION(12));
    fputc('\n', f);
    json_decref(o);
    return rc ? czk_error(CZK_ERR_IO, "diff: JSON write failed") : CZK_OK;
}

static void xml_text(FILE *f, const char *s)
{
    for (; *s; s++) {
        if (*s == '<') fputs("&lt;", f);
        else if (*s == '>') fputs("&gt;", f);
        else if (*s == '&') fputs("&amp;", f);
        else fputc(*s, f);
    }
}

czk_status czk_perf_diff_write_svg(const char *path, const czk_perf_diff *d, const char *title)
{
    static const char *const main_metrics[] = {"time", "instructions", "IPC", "ns per instruction", "branch-misses",
                                               "branch-miss %", "L2 misses /1k instr", "L2 demand hit %",
                                               "DRAM fills /1k instr", "cache-misses", "task-clock"};
    const czk_perf_diff_row *sel[16];
    size_t ns = 0;
    for (size_t k = 0; k < sizeof main_metrics / sizeof main_metrics[0]; k++)
        for (size_t i = 0; i < d->nrows && ns < 16; i++)
            if (!strcmp(d->rows[i].name, main_metrics[k]) && d->rows[i].na && d->rows[i].nb) sel[ns++] = &d->rows[i];
    czk__afile af;
    FILE *f;
    CZK_TRY(czk__afile_open_stream(&af, &f, path, 0));
    const int W = 760, PH = 74, top = 46, left = 230, right = 20;
    int H = top + (int)ns * PH + 20;
    fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" font-family=\"sans-serif\" font-size=\"12\">\n", W, H);
    fprintf(f, "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n<text x=\"10\" y=\"18\" font-size=\"14\">");
    xml_text(f, title ? title : "czk diff");
    fprintf(f, "</text>\n<text x=\"10\" y=\"36\"><tspan fill=\"#1f77b4\">&#9679; A</tspan>  <tspan fill=\"#d62728\">&#9679; B</tspan>  (one dot per run; bar = median)</text>\n");
    for (size_t p = 0; p < ns; p++) {
        const czk_perf_diff_row *r = sel[p];
        int y0 = top + (int)p * PH;
        double lo = r->a[0], hi = r->a[0];
        for (size_t i = 0; i < r->na; i++) lo = fmin(lo, r->a[i]), hi = fmax(hi, r->a[i]);
        for (size_t i = 0; i < r->nb; i++) lo = fmin(lo, r->b[i]), hi = fmax(hi, r->b[i]);
        double span = hi - lo;
        if (span <= 0) span = fabs(hi) > 0 ? fabs(hi) * 0.02 : 1;
        lo -= span * 0.05, hi += span * 0.05;
        double sx = (double)(W - left - right) / (hi - lo);
        fprintf(f, "<g>\n<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#ccc\"/>\n", left, y0 + PH - 8, W - right, y0 + PH - 8);
        fprintf(f, "<text x=\"10\" y=\"%d\">", y0 + 24);
        xml_text(f, r->name);
        if (r->unit[0]) fprintf(f, " (%s)", r->unit[0] == '%' ? "%" : r->unit);
        fprintf(f, "</text>\n<text x=\"10\" y=\"%d\" fill=\"#555\">", y0 + 42);
        if (isfinite(r->delta_pct)) fprintf(f, "%+.1f%%, p=%.2g, %s", r->delta_pct, r->p, r->differs ? "differs" : "no difference");
        else fprintf(f, "p=%.2g", r->p);
        fprintf(f, " [%s]</text>\n", r->source);
        char a[32], b[32];
        fmt_num(a, sizeof a, lo + span * 0.05);
        fmt_num(b, sizeof b, hi - span * 0.05);
        fprintf(f, "<text x=\"%d\" y=\"%d\" fill=\"#777\" font-size=\"10\">%s</text>\n", left, y0 + PH - 0, a);
        fprintf(f, "<text x=\"%d\" y=\"%d\" fill=\"#777\" font-size=\"10\" text-anchor=\"end\">%s</text>\n", W - right, y0 + PH, b);
        for (int side = 0; side < 2; side++) {
            const double *v = side ? r->b : r->a;
            size_t n = side ? r->nb : r->na;
            int yy = y0 + (side ? 40 : 18);
            const char *col = side ? "#d62728" : "#1f77b4";
            for (size_t i = 0; i < n; i++)
                fprintf(f, "<circle cx=\"%.1f\" cy=\"%d\" r=\"4\" fill=\"%s\" fill-opacity=\"0.6\"/>\n", left + (v[i] - lo) * sx,
                        yy + (int)(i % 3) * 3 - 3, col);
            double med = side ? r->b_med : r->a_med;
            fprintf(f, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"%s\" stroke-width=\"2\"/>\n", left + (med - lo) * sx,
                    yy - 9, left + (med - lo) * sx, yy + 9, col);
        }
        fprintf(f, "</g>\n");
    }
    fprintf(f, "</svg>\n");
    return czk__afile_commit(&af, NULL, 0);
}
