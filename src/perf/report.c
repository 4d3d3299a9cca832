/* Counter reports: lookup by role, derived metrics, text and JSON. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "common/fileio.h"
#include "czk/perf.h"
#include "perf/perf_internal.h"

static int usable(const czk_perf_value *v)
{
    return v->source == CZK_PERF_COUNTED || v->source == CZK_PERF_SIMULATED;
}

const czk_perf_value *czk_perf_report_find(const czk_perf_report *r, czk_perf_role role)
{
    const czk_perf_value *best = NULL;
    for (size_t i = 0; i < r->n; i++)
        if (r->v[i].role == role && usable(&r->v[i])) {
            if (r->v[i].source == CZK_PERF_COUNTED) return &r->v[i];
            if (!best) best = &r->v[i];
        }
    return best;
}

const czk_perf_value *czk_perf_report_find_name(const czk_perf_report *r, const char *name)
{
    for (size_t i = 0; i < r->n; i++)
        if (!strcmp(r->v[i].name, name)) return &r->v[i];
    return NULL;
}

static czk_perf_source src_of(const czk_perf_value *a, const czk_perf_value *b)
{
    if ((a && a->source == CZK_PERF_SIMULATED) || (b && b->source == CZK_PERF_SIMULATED)) return CZK_PERF_SIMULATED;
    return CZK_PERF_COUNTED;
}

static void put(czk_perf_metric *out, size_t *n, const char *name, const char *unit, double v, czk_perf_source s)
{
    if (*n >= CZK_PERF_MAX_METRICS || !isfinite(v)) return;
    czk_perf_metric *m = &out[(*n)++];
    snprintf(m->name, sizeof m->name, "%s", name);
    snprintf(m->unit, sizeof m->unit, "%s", unit);
    m->value = v;
    m->source = s;
    m->how[0] = 0;
}

size_t czk_perf_derive(czk_perf_metric out[CZK_PERF_MAX_METRICS], const czk_perf_report *r)
{
    size_t n = 0;
#define F(role) czk_perf_report_find(r, CZK_PERF_ROLE_##role)
    const czk_perf_value *ins = F(INSTRUCTIONS), *cyc = F(CYCLES), *br = F(BRANCHES), *bm = F(BRANCH_MISSES);
    const czk_perf_value *l2a = F(L2_DC_ACCESS), *l2h = F(L2_DC_HIT), *l2m = F(L2_MISS);
    const czk_perf_value *fl2 = F(FILL_L2), *fccx = F(FILL_CCX), *fnear = F(FILL_NEAR), *ffar = F(FILL_FAR);
    const czk_perf_value *fdram = F(FILL_DRAM), *fdfar = F(FILL_DRAM_FAR);
    const czk_perf_value *rops = F(RETIRED_OPS), *dops = F(DISPATCHED_OPS), *tdf = F(TD_FRONTEND), *tdb = F(TD_BACKEND);
#undef F
    if (ins && cyc && cyc->value > 0) put(out, &n, "IPC", "", ins->value / cyc->value, src_of(ins, cyc));
    if (ins && ins->value > 0 && r->seconds > 0 && !r->region_fn[0]) {
        size_t k = n;
        put(out, &n, "ns per instruction", "ns", r->seconds * 1e9 / ins->value, CZK_PERF_MEASURED);
        if (n > k)
            snprintf(out[k].how, sizeof out[k].how, "%s",
                 ins->source == CZK_PERF_SIMULATED ? "native time / simulated instructions (callgrind Ir)"
                                                   : "time / counted instructions");
    }
    if (br && bm && br->value > 0) put(out, &n, "branch-miss %", "%", 100.0 * bm->value / br->value, src_of(br, bm));
    if (ins && bm && ins->value > 0) put(out, &n, "branch MPKI", "/1k", 1000.0 * bm->value / ins->value, src_of(ins, bm));
    if (l2a && l2h && l2a->value > 0)
        put(out, &n, "L2 demand hit %", "%", 100.0 * l2h->value / l2a->value, src_of(l2a, l2h));
    if (ins && ins->value > 0) {
        if (l2m) put(out, &n, "L2 misses /1k instr", "/1k", 1000.0 * l2m->value / ins->value, src_of(ins, l2m));
        else if (l2a && l2h)
            put(out, &n, "L2 misses /1k instr", "/1k", 1000.0 * (l2a->value - l2h->value) / ins->value, src_of(l2a, l2h));
        if (fdram) put(out, &n, "DRAM fills /1k instr", "/1k", 1000.0 * fdram->value / ins->value, src_of(ins, fdram));
    }
    if (fl2 && fdram) {
        double parts[5] = {fl2->value, fccx ? fccx->value : 0, fnear ? fnear->value : 0, ffar ? ffar->value : 0,
                           fdram->value};
        static const char *const names[5] = {"fills from L2 %", "fills from L3/CCX %", "fills from near CCX %",
                                             "fills from far cache %", "fills from DRAM %"};
        const czk_perf_value *pv[5] = {fl2, fccx, fnear, ffar, fdram};
        double sum = 0;
        for (int k = 0; k < 5; k++) sum += parts[k];
        if (sum > 0)
            for (int k = 0; k < 5; k++)
                if (pv[k]) put(out, &n, names[k], "%", 100.0 * parts[k] / sum, src_of(pv[k], NULL));
        (void)fdfar;
    }
    if (cyc && cyc->value > 0 && tdf && tdb && rops) {
        double slots = 6.0 * cyc->value; /* Zen4: 6 dispatch slots per cycle */
        czk_perf_source s = src_of(cyc, tdf);
        put(out, &n, "topdown frontend-bound %", "%", 100.0 * tdf->value / slots, s);
        put(out, &n, "topdown backend-bound %", "%", 100.0 * tdb->value / slots, s);
        put(out, &n, "topdown retiring %", "%", 100.0 * rops->value / slots, s);
        if (dops) put(out, &n, "topdown bad-speculation %", "%", 100.0 * (dops->value - rops->value) / slots, s);
    }
    if (r->seconds > 0 && r->task_clock_s > 0)
        put(out, &n, "CPUs utilized", "", r->task_clock_s / r->seconds, CZK_PERF_SOFTWARE);
    return n;
}

const char *czk_perf_fmt_count(char buf[40], double v)
{
    if (!isfinite(v) || fabs(v) >= 1e18) {
        snprintf(buf, 40, "%.4g", v);
        return buf;
    }
    char tmp[32];
    long long x = llround(v);
    snprintf(tmp, sizeof tmp, "%lld", x < 0 ? -x : x);
    size_t len = strlen(tmp), o = 0;
    if (x < 0) buf[o++] = '-';
    for (size_t i = 0; i < len; i++) {
        buf[o++] = tmp[i];
        if ((len - i - 1) % 3 == 0 && i + 1 < len) buf[o++] = ',';
    }
    buf[o] = 0;
    return buf;
}

void czk_perf_report_print(FILE *f, const czk_perf_report *r)
{
    char b[40];
    fprintf(f, "# counters: %s; backend: %s\n",
            r->regions ? "region = marked section(s)" : "region = whole benchmark (no czk_perf_begin/end)", r->backend);
    if (r->sim_geometry[0]) fprintf(f, "# simulated cache geometry: %s\n", r->sim_geometry);
    fprintf(f, "  %-46s %18.6f s\n", "time in region", r->seconds);
    if (r->regions) fprintf(f, "  %-46s %18u\n", "marked regions", r->regions);
    fprintf(f, "  %-46s %18.6f s   software\n", "task-clock", r->task_clock_s);
    fprintf(f, "  %-46s %18s     software\n", "page-faults", czk_perf_fmt_count(b, r->page_faults));
    fprintf(f, "  %-46s %18s     software\n", "context-switches", czk_perf_fmt_count(b, r->ctx_switches));
    fprintf(f, "  %-46s %15.1f MiB   getrusage (process)\n", "max RSS", r->max_rss / 1048576.0);
    for (size_t i = 0; i < r->n; i++) {
        const czk_perf_value *v = &r->v[i];
        if (v->source == CZK_PERF_UNAVAILABLE)
            fprintf(f, "  %-46s %18s     unavailable: %s\n", v->name, "-", v->note);
        else
            fprintf(f, "  %-46s %18s     %s%s%s%s\n", v->name, czk_perf_fmt_count(b, v->value), czk_perf_source_str(v->source),
                    v->multiplexed ? " (multiplexed, scaled)" : "", v->note[0] ? ": " : "", v->note);
    }
    czk_perf_metric m[CZK_PERF_MAX_METRICS];
    size_t nm = czk_perf_derive(m, r);
    if (nm) fprintf(f, "# derived\n");
    for (size_t i = 0; i < nm; i++)
        fprintf(f, "  %-46s %18.4f     %s%s%s\n", m[i].name, m[i].value, czk_perf_source_str(m[i].source),
                m[i].how[0] ? ": " : "", m[i].how);
}

json_t *czk__perf_report_json(const czk_perf_report *r);
json_t *czk__perf_report_json(const czk_perf_report *r)
{
    json_t *o = json_object(), *ev = json_array();
    json_object_set_new(o, "seconds", json_real(r->seconds));
    json_object_set_new(o, "regions", json_integer(r->regions));
    json_object_set_new(o, "task_clock_s", json_real(r->task_clock_s));
    json_object_set_new(o, "page_faults", json_real(r->page_faults));
    json_object_set_new(o, "context_switches", json_real(r->ctx_switches));
    json_object_set_new(o, "max_rss", json_real(r->max_rss));
    json_object_set_new(o, "hw_available", json_boolean(r->hw_available));
    json_object_set_new(o, "backend", json_string(r->backend));
    json_object_set_new(o, "sim_geometry", json_string(r->sim_geometry));
    json_object_set_new(o, "sim_exact", json_boolean(r->sim_exact));
    json_object_set_new(o, "sim_runs", json_integer(r->sim_runs));
    json_object_set_new(o, "sim_spread", json_real(r->sim_spread));
    json_object_set_new(o, "region_fn", json_string(r->region_fn));
    for (size_t i = 0; i < r->n; i++) {
        const czk_perf_value *v = &r->v[i];
        json_t *e = json_object();
        json_object_set_new(e, "name", json_string(v->name));
        json_object_set_new(e, "role", json_integer(v->role));
        json_object_set_new(e, "source", json_string(czk_perf_source_str(v->source)));
        json_object_set_new(e, "value", json_real(v->value));
        json_object_set_new(e, "multiplexed", json_boolean(v->multiplexed));
        json_object_set_new(e, "running", json_real(v->running));
        json_object_set_new(e, "note", json_string(v->note));
        json_array_append_new(ev, e);
    }
    json_object_set_new(o, "events", ev);
    czk_perf_metric m[CZK_PERF_MAX_METRICS];
    size_t nm = czk_perf_derive(m, r);
    json_t *dm = json_array();
    for (size_t i = 0; i < nm; i++) {
        json_t *e = json_object();
        json_object_set_new(e, "name", json_string(m[i].name));
        json_object_set_new(e, "value", json_real(m[i].value));
        json_object_set_new(e, "source", json_string(czk_perf_source_str(m[i].source)));
        json_array_append_new(dm, e);
    }
    json_object_set_new(o, "derived", dm);
    return o;
}

czk_status czk_perf_report_write_json(FILE *f, const czk_perf_report *r)
{
    json_t *o = czk__perf_report_json(r);
    if (!o) return czk_error(CZK_ERR_NOMEM, "counter report: no memory for JSON");
    int rc = json_dumpf(o, f, JSON_COMPACT | JSON_REAL_PRECISION(17));
    json_decref(o);
    fputc('\n', f);
    return rc ? czk_error(CZK_ERR_IO, "counter report: write failed") : CZK_OK;
}

czk_status czk_perf_report_save(const char *path, const czk_perf_report *r)
{
    czk__afile af;
    FILE *f;
    CZK_TRY(czk__afile_open_stream(&af, &f, path, 0));
    czk_status s = czk_perf_report_write_json(f, r);
    if (s != CZK_OK) {
        czk__afile_abort(&af);
        return czk_error_context(s, "%s", path);
    }
    return czk__afile_commit(&af, NULL, 0);
}

static double num(json_t *o, const char *k)
{
    json_t *v = json_object_get(o, k);
    return v && json_is_number(v) ? json_number_value(v) : 0.0;
}

static const char *str(json_t *o, const char *k)
{
    json_t *v = json_object_get(o, k);
    return v && json_is_string(v) ? json_string_value(v) : "";
}

czk_status czk_perf_report_load(czk_perf_report *r, const char *path)
{
    memset(r, 0, sizeof *r);
    json_error_t err;
    json_t *o = json_load_file(path, 0, &err);
    if (!o) return czk_error(CZK_ERR_FORMAT, "%s: counter report: line %d: %s", path, err.line, err.text);
    czk_status s = CZK_OK;
    json_t *ev = json_object_get(o, "events");
    if (!json_is_object(o) || !json_is_number(json_object_get(o, "seconds")) || !json_is_array(ev)) {
        s = czk_error(CZK_ERR_FORMAT, "%s: counter report lacks 'seconds' or 'events'", path);
        goto out;
    }
    r->seconds = num(o, "seconds");
    r->regions = (unsigned)num(o, "regions");
    r->task_clock_s = num(o, "task_clock_s");
    r->page_faults = num(o, "page_faults");
    r->ctx_switches = num(o, "context_switches");
    r->max_rss = num(o, "max_rss");
    r->hw_available = json_is_true(json_object_get(o, "hw_available"));
    snprintf(r->backend, sizeof r->backend, "%s", str(o, "backend"));
    snprintf(r->sim_geometry, sizeof r->sim_geometry, "%s", str(o, "sim_geometry"));
    r->sim_exact = json_is_true(json_object_get(o, "sim_exact"));
    r->sim_runs = (int)num(o, "sim_runs");
    r->sim_spread = num(o, "sim_spread");
    snprintf(r->region_fn, sizeof r->region_fn, "%s", str(o, "region_fn"));
    size_t n = json_array_size(ev);
    if (n > CZK_PERF_MAX_EVENTS) {
        s = czk_error(CZK_ERR_FORMAT, "%s: counter report has %zu events (max %d)", path, n, CZK_PERF_MAX_EVENTS);
        goto out;
    }
    for (size_t i = 0; i < n; i++) {
        json_t *e = json_array_get(ev, i);
        czk_perf_value *v = &r->v[i];
        if (!json_is_object(e)) {
            s = czk_error(CZK_ERR_FORMAT, "%s: counter report event %zu is not an object", path, i);
            goto out;
        }
        snprintf(v->name, sizeof v->name, "%s", str(e, "name"));
        double role = num(e, "role");
        v->role = role >= 0 && role < CZK_PERF_ROLE_COUNT ? (czk_perf_role)role : CZK_PERF_ROLE_OTHER;
        const char *src = str(e, "source");
        v->source = !strcmp(src, "counted")     ? CZK_PERF_COUNTED
                    : !strcmp(src, "simulated") ? CZK_PERF_SIMULATED
                    : !strcmp(src, "software")  ? CZK_PERF_SOFTWARE
                                                : CZK_PERF_UNAVAILABLE;
        v->value = num(e, "value");
        v->multiplexed = json_is_true(json_object_get(e, "multiplexed"));
        v->running = num(e, "running");
        snprintf(v->note, sizeof v->note, "%s", str(e, "note"));
    }
    r->n = n;
out:
    json_decref(o);
    return s;
}
