/* czk stat: perf stat for any command, with the events of czk's tables
 * (the AMD Zen names of the reference study included), simulated with
 * callgrind where the machine has no PMU, every figure labelled measured,
 * simulated or unavailable. */
#define _GNU_SOURCE
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <jansson.h>

#include "cli.h"
#include "czk/perf.h"
#include "perf/perf_internal.h"

static const char usage[] =
    "usage: czk stat [-e EVENTS] [-r N] [--backend auto|hw|sim|none] [--region FUNCTION]\n"
    "                [--json FILE] [--keep] [--quiet] -- COMMAND [ARGS...]\n\n"
    "Run COMMAND N times and print, in perf stat's layout, the time elapsed, the\n"
    "software events and the counters of EVENTS, each labelled with where it comes\n"
    "from: measured (this machine's clock, kernel or PMU), simulated (valgrind's\n"
    "callgrind, with its formula: where the CPU has no PMU, or for an AMD Zen event\n"
    "on another CPU) or unavailable (with the reason). Like perf stat, the report\n"
    "goes to stderr; COMMAND's output is shown for its first run.\n\n"
    "What a run costs: each of the N runs is one native execution. Simulated\n"
    "counters add one callgrind execution per cache pass (about 50-160x slower than\n"
    "native; pass 2 only for L3/DRAM events); with N > 1 the simulation is run a\n"
    "second time (pass 2 counts as that second time when both passes are needed)\n"
    "to confirm that its counts repeat.\n\n"
    "  -e, --events EVENTS  default|topdown|l2|fills|ref|list (as `--counters`;\n"
    "                       ref = the reference study's AMD Zen list)\n"
    "  -r, --repeat N       native runs (default 1); figures are means, with\n"
    "                       +- the relative standard error when N > 1\n"
    "  --backend B          auto (hardware, else simulated), hw, sim, none\n"
    "  --region FUNCTION    simulated counters only inside FUNCTION and its callees\n"
    "  --json FILE          also write the figures as JSON ('-' = stdout)\n"
    "  --keep               keep the scratch folder (logs, callgrind output)\n"
    "  --quiet              no progress on stderr\n";

enum { OPT_BACKEND = CZK_OPT_FIRST_FREE, OPT_JSON, OPT_REGION, OPT_KEEP };

typedef struct opts {
    const char *spec, *json, *region;
    long long repeat;
    czk_perf_backend backend;
    int keep;
} opts;

static int on_opt(void *ctx, int opt, const char *arg)
{
    opts *o = ctx;
    switch (opt) {
    case 'e': o->spec = arg; return 0;
    case 'r':
        if (czk_cli_parse_int(arg, 1, 100000, &o->repeat))
            return czk_cli_usage_error("stat", usage, "-r wants 1..100000, got '%s'", arg);
        return 0;
    case OPT_BACKEND:
        if (czk_perf_backend_parse(&o->backend, arg) != CZK_OK) return czk_cli_usage_error("stat", usage, "%s", czk_last_error());
        return 0;
    case OPT_REGION:
        if (!*arg || strlen(arg) >= 96) return czk_cli_usage_error("stat", usage, "--region wants a function name (< 96 characters)");
        o->region = arg;
        return 0;
    case OPT_JSON:
        if (!*arg || (arg[0] == '-' && arg[1]))
            return czk_cli_usage_error("stat", usage, "--json wants a file name or '-' (stdout), got '%s'", arg);
        o->json = arg;
        return 0;
    case OPT_KEEP: o->keep = 1; return 0;
    }
    return czk_cli_usage_error("stat", usage, "unexpected option");
}

/* One printed figure. */
typedef struct fig {
    char name[96];
    double mean, se_pct; /* se_pct: relative standard error of the mean, NAN with one sample */
    const char *label;   /* "measured", "simulated", "unavailable" */
    char how[160];
    char comment[64];
    int available, msec;
} fig;

static void mean_se(double *mean, double *se_pct, const double *v, size_t n)
{
    double s = 0, q = 0;
    for (size_t i = 0; i < n; i++) s += v[i];
    *mean = n ? s / (double)n : 0;
    for (size_t i = 0; i < n; i++) q += (v[i] - *mean) * (v[i] - *mean);
    *se_pct = n > 1 && *mean != 0 ? 100.0 * sqrt(q / (double)(n - 1) / (double)n) / fabs(*mean) : NAN;
}

static const czk_perf_value *role_val(const czk_perf_report *r, czk_perf_role role)
{
    return czk_perf_report_find(r, role);
}

static void comments(fig *f, size_t nf, const czk_perf_report *r, double secs)
{
    const czk_perf_value *ins = role_val(r, CZK_PERF_ROLE_INSTRUCTIONS), *cyc = role_val(r, CZK_PERF_ROLE_CYCLES);
    const czk_perf_value *br = role_val(r, CZK_PERF_ROLE_BRANCHES), *l2a = role_val(r, CZK_PERF_ROLE_L2_DC_ACCESS);
    const czk_perf_value *refs = role_val(r, CZK_PERF_ROLE_CACHE_REFS);
    for (size_t i = 0; i < nf; i++) {
        const czk_perf_value *v = czk_perf_report_find_name(r, f[i].name);
        if (!v || !f[i].available) continue;
        switch (v->role) {
        case CZK_PERF_ROLE_INSTRUCTIONS:
            if (cyc && cyc->value > 0) snprintf(f[i].comment, sizeof f[i].comment, "%6.2f  insn per cycle", v->value / cyc->value);
            else if (v->value > 0 && secs > 0 && !r->region_fn[0])
                snprintf(f[i].comment, sizeof f[i].comment, "%6.3f  ns per insn (%s)", secs * 1e9 / v->value,
                         v->source == CZK_PERF_SIMULATED ? "native time / simulated" : "measured");
            break;
        case CZK_PERF_ROLE_BRANCH_MISSES:
            if (br && br->value > 0) snprintf(f[i].comment, sizeof f[i].comment, "%6.2f%% of all branches", 100 * v->value / br->value);
            break;
        case CZK_PERF_ROLE_L2_DC_HIT:
            if (l2a && l2a->value > 0) snprintf(f[i].comment, sizeof f[i].comment, "%6.2f%% of L2 data accesses", 100 * v->value / l2a->value);
            break;
        case CZK_PERF_ROLE_CACHE_MISSES:
            if (refs && refs->value > 0) snprintf(f[i].comment, sizeof f[i].comment, "%6.2f%% of all cache refs", 100 * v->value / refs->value);
            break;
        case CZK_PERF_ROLE_BRANCHES:
        case CZK_PERF_ROLE_L2_DC_ACCESS:
        case CZK_PERF_ROLE_FILL_DRAM:
            if (ins && ins->value > 0) snprintf(f[i].comment, sizeof f[i].comment, "%8.3f  per 1k instructions", 1000 * v->value / ins->value);
            break;
        default: break;
        }
    }
}

static int write_json(const char *path, const char *cmd, long long runs, const fig *f, size_t nf, double el, double el_se,
                      const czk_perf_report *r0)
{
    json_t *o = json_object(), *ev = json_array();
    json_object_set_new(o, "command", json_string(cmd));
    json_object_set_new(o, "runs", json_integer(runs));
    json_object_set_new(o, "seconds_elapsed", json_real(el));
    json_object_set_new(o, "seconds_elapsed_se_pct", isfinite(el_se) ? json_real(el_se) : json_null());
    json_object_set_new(o, "backend", json_string(r0->backend));
    json_object_set_new(o, "sim_geometry", json_string(r0->sim_geometry));
    json_object_set_new(o, "sim_spread", json_real(r0->sim_spread));
    for (size_t i = 0; i < nf; i++) {
        json_t *e = json_object();
        json_object_set_new(e, "name", json_string(f[i].name));
        json_object_set_new(e, "label", json_string(f[i].label));
        json_object_set_new(e, "value", f[i].available ? json_real(f[i].msec ? f[i].mean * 1e3 : f[i].mean) : json_null());
        json_object_set_new(e, "unit", json_string(f[i].msec ? "msec" : ""));
        json_object_set_new(e, "se_pct", isfinite(f[i].se_pct) ? json_real(f[i].se_pct) : json_null());
        json_object_set_new(e, "how", json_string(f[i].how));
        json_object_set_new(e, "comment", json_string(f[i].comment));
        json_array_append_new(ev, e);
    }
    json_object_set_new(o, "events", ev);
    FILE *out = strcmp(path, "-") ? fopen(path, "w") : stdout;
    int rc = CZK_EXIT_OK;
    if (!out) {
        rc = czk_cli_fail("stat", czk_error(CZK_ERR_IO, "%s: cannot create: %s", path, strerror(errno)), "--json");
    } else {
        int bad = json_dumpf(o, out, JSON_INDENT(1) | JSON_REAL_PRECISION(12)) != 0;
        fputc('\n', out);
        if (out != stdout) bad |= fclose(out) != 0;
        if (bad) {
            if (out != stdout) unlink(path);
            rc = czk_cli_fail("stat", czk_error(CZK_ERR_IO, "%s: write failed", path), "--json");
        }
    }
    json_decref(o);
    return rc;
}

/* Simulate once (twice to confirm with more than one run) and put the
 * values into every report. */
static czk_status simulate(czk_perf_report *r, size_t n, const czk_perf_eventset *set, const czk_perf_child *c,
                           int confirm, double native_s, czk_perf_progress *pr)
{
    czk_perf_geometry g;
    CZK_TRY(czk_perf_geometry_from_env(&g));
    unsigned passes = czk_perf_sim_passes(set);
    czk_perf_sim_task t[2];
    memset(t, 0, sizeof t);
    size_t nt = 0;
    if (passes == 3) {
        t[nt++].pass = 1;
        t[nt++].pass = 2;
    } else {
        t[nt++].pass = passes == 2 ? 2 : 1;
        if (confirm) t[nt++].pass = t[0].pass;
    }
    for (size_t i = 0; i < nt; i++) {
        t[i].c = c;
        t[i].est_s = native_s * 100.0 + 1.0;
        snprintf(t[i].dir, sizeof t[i].dir, "%s/sim-%zu-pass%d", c->tmpdir, i + 1, t[i].pass);
    }
    czk_status st = czk_perf_sim_run_all(t, nt, 2, &g, pr, "simulation");
    if (st == CZK_OK) {
        const czk_perf_cg_totals *p1 = passes & 1 ? &t[0].job.tot : NULL;
        const czk_perf_cg_totals *p2 = passes == 3 ? &t[1].job.tot : passes == 2 ? &t[0].job.tot : NULL;
        double spread = 0;
        int rep = nt == 2 ? czk_perf_cg_repeat(&spread, &t[0].job.tot, t[0].pass, &t[1].job.tot, t[1].pass) : 0;
        for (size_t i = 0; i < n; i++) {
            czk_perf_sim_apply(&r[i], set, p1, p2, &g);
            r[i].sim_runs = (int)nt;
            r[i].sim_exact = rep;
            r[i].sim_spread = nt == 2 ? spread : NAN;
            if (c->region) snprintf(r[i].region_fn, sizeof r[i].region_fn, "%s", c->region);
        }
    }
    for (size_t i = 0; i < nt; i++)
        if (t[i].started) czk_perf_sim_job_clear(&t[i].job);
    return st;
}

/* The figures of n runs: the kernel's software events, then each event of
 * the set (measured, simulated or unavailable); v: scratch, n values.
 * Returns how many (at most set->n + 3). */
static size_t figures(fig *f, double *v, const czk_perf_report *r, size_t n, const czk_perf_eventset *set)
{
    size_t nf = 0;
    /* software events: measured by the kernel (wait4 rusage) */
    static const char *const swn[] = {"task-clock", "context-switches", "page-faults"};
    for (int k = 0; k < 3; k++) {
        for (size_t i = 0; i < n; i++) v[i] = k == 0 ? r[i].task_clock_s : k == 1 ? r[i].ctx_switches : r[i].page_faults;
        fig *x = &f[nf++];
        snprintf(x->name, sizeof x->name, "%s", swn[k]);
        mean_se(&x->mean, &x->se_pct, v, n);
        x->label = "measured", x->available = 1, x->msec = k == 0;
        snprintf(x->how, sizeof x->how, "wait4 rusage");
    }
    for (size_t e = 0; e < set->n; e++) {
        int dup = 0;
        for (size_t k = 0; k < 3; k++) dup |= !strcmp(set->ev[e].name, swn[k]);
        if (dup) continue;
        fig *x = &f[nf++];
        const czk_perf_value *v0 = &r[0].v[e];
        snprintf(x->name, sizeof x->name, "%s", set->ev[e].name);
        size_t m = 0;
        for (size_t i = 0; i < n; i++)
            if (r[i].v[e].source != CZK_PERF_UNAVAILABLE) v[m++] = r[i].v[e].value;
        x->available = m > 0;
        if (!m) {
            x->label = "unavailable";
            snprintf(x->how, sizeof x->how, "%s", v0->note);
        } else if (v0->source == CZK_PERF_SIMULATED) {
            x->label = "simulated";
            x->mean = v0->value;
            x->se_pct = NAN;
            snprintf(x->how, sizeof x->how, "%.110s%s", v0->note,
                     r[0].sim_runs < 2 ? "; simulated once"
                     : r[0].sim_exact ? (r[0].sim_spread == 0 ? "; repeated exactly" : "; repeated within 0.1%")
                                      : "; did NOT repeat (>0.1% apart)");
        } else {
            x->label = "measured";
            mean_se(&x->mean, &x->se_pct, v, m);
            snprintf(x->how, sizeof x->how, "%s%s", v0->source == CZK_PERF_SOFTWARE ? "kernel software event" : "PMU",
                     v0->multiplexed ? " (multiplexed, scaled)" : "");
        }
    }
    return nf;
}

/* The table, as perf stat prints it, on stderr (the command's own stdout stays clean). */
static void print_table(const char *cmd, const fig *f, size_t nf, size_t n, double el, double el_se,
                        const czk_perf_report *r0, const char *region)
{
    FILE *tf = stderr;
    fprintf(tf, "\n Performance counter stats for '%s'", cmd);
    if (n > 1) fprintf(tf, " (%zu runs)", n);
    fprintf(tf, ":\n\n");
    for (size_t i = 0; i < nf; i++) {
        char b[40], se[24] = "";
        if (isfinite(f[i].se_pct)) snprintf(se, sizeof se, "( +- %5.2f%% )", f[i].se_pct);
        if (!f[i].available)
            fprintf(tf, " %18s      %-44s %-38s %-14s %s: %s\n", "<not counted>", f[i].name, "", "", f[i].label, f[i].how);
        else if (f[i].msec)
            fprintf(tf, " %18.2f msec %-44s %s%-36s %-14s %s: %s\n", f[i].mean * 1e3, f[i].name, f[i].comment[0] ? "# " : "  ",
                    f[i].comment, se, f[i].label, f[i].how);
        else
            fprintf(tf, " %18s      %-44s %s%-36s %-14s %s: %s\n", czk_perf_fmt_count(b, f[i].mean), f[i].name,
                    f[i].comment[0] ? "# " : "  ", f[i].comment, se, f[i].label, f[i].how);
    }
    fprintf(tf, "\n %18.6f", el);
    if (isfinite(el_se)) fprintf(tf, " +- %.6f", el * el_se / 100);
    fprintf(tf, " seconds time elapsed");
    if (isfinite(el_se)) fprintf(tf, "  ( +- %5.2f%% )", el_se);
    fprintf(tf, "   measured\n");
    if (r0->sim_geometry[0]) fprintf(tf, "\n simulated: valgrind callgrind, caches %s%s%s\n", r0->sim_geometry,
                                     region ? "; only inside " : "", region ? region : "");
    fprintf(tf, "\n");
    fflush(tf);
}

/* The figures of the runs printed, and written as JSON with --json. */
static int report(const opts *o, const char *cmd, const czk_perf_report *r, const czk_perf_eventset *set)
{
    size_t n = (size_t)o->repeat;
    double *v = malloc(n * sizeof *v);
    fig *f = calloc(set->n + 3, sizeof *f);
    if (!v || !f) {
        free(v), free(f);
        return czk_cli_fail("stat", czk_error(CZK_ERR_NOMEM, "figures"), "report");
    }
    size_t nf = figures(f, v, r, n, set);
    for (size_t i = 0; i < n; i++) v[i] = r[i].seconds;
    double el, el_se;
    mean_se(&el, &el_se, v, n);
    comments(f, nf, &r[0], el);
    if (f[0].available && el > 0) snprintf(f[0].comment, sizeof f[0].comment, "%8.3f CPUs utilized", f[0].mean / el);
    print_table(cmd, f, nf, n, el, el_se, &r[0], o->region);
    int status = CZK_EXIT_OK;
    if (o->json) status = write_json(o->json, cmd, o->repeat, f, nf, el, el_se, &r[0]);
    free(v), free(f);
    return status;
}

/* 1 when an event the set asks for is unavailable from the counters and
 * callgrind can simulate it (and may: not --backend hw, valgrind here). */
static int want_simulation(const opts *o, const czk_perf_report *r0, const czk_perf_eventset *set, const char *spec)
{
    int simulate_it = 0;
    for (size_t i = 0; spec && i < set->n; i++)
        if (r0->v[i].source == CZK_PERF_UNAVAILABLE && set->ev[i].sim_pass) simulate_it = 1;
    if (simulate_it && o->backend == CZK_PERF_BACKEND_HW) simulate_it = 0;
    if (simulate_it && !czk_perf_valgrind_available()) {
        fprintf(stderr, "czk stat: valgrind is not installed: events without hardware counters stay unavailable\n");
        simulate_it = 0;
    }
    return simulate_it;
}

static int run(int argc, char **argv)
{
    opts o = {"default", NULL, NULL, 1, CZK_PERF_BACKEND_AUTO, 0};
    static const struct option lopts[] = {{"events", required_argument, 0, 'e'},   {"repeat", required_argument, 0, 'r'},
                                          {"backend", required_argument, 0, OPT_BACKEND}, {"json", required_argument, 0, OPT_JSON},
                                          {"region", required_argument, 0, OPT_REGION}, {"keep", no_argument, 0, OPT_KEEP},
                                          {0, 0, 0, 0}};
    czk_cli_common com;
    int first = 0;
    int rc = czk_cli_parse(argc, argv, "stat", usage, lopts, &o, on_opt, &com, &first);
    if (rc != CZK_CLI_CONTINUE) return rc;
    if (first < argc && !strcmp(argv[first], "--")) first++;
    if (first >= argc) return czk_cli_usage_error("stat", usage, "want -- COMMAND [ARGS...]");
    czk_perf_eventset set;
    memset(&set, 0, sizeof set);
    const char *spec = o.backend == CZK_PERF_BACKEND_NONE ? NULL : o.spec;
    if (spec && czk_perf_eventset_parse(&set, spec, czk_perf_cpu_this()) != CZK_OK)
        return czk_cli_usage_error("stat", usage, "-e: %s", czk_last_error());
    char cmd[512];
    size_t co = 0;
    cmd[0] = 0;
    for (int i = first; i < argc && co < sizeof cmd; i++)
        co += (size_t)snprintf(cmd + co, sizeof cmd - co, "%s%s", i > first ? " " : "", argv[i]);
    char tmp[512];
    if (czk_cli_scratch_dir(tmp, sizeof tmp, "stat") != CZK_OK) return czk_cli_fail("stat", CZK_ERR_IO, "start");
    czk_perf_report *r = calloc((size_t)o.repeat, sizeof *r);
    if (!r) return czk_cli_fail("stat", czk_error(CZK_ERR_NOMEM, "reports"), "start");
    czk_perf_progress pr;
    czk_perf_progress_init(&pr, "czk stat", com.quiet);
    int status = CZK_EXIT_OK;
    double t0 = czk_now();
    for (long long i = 0; i < o.repeat && status == CZK_EXIT_OK; i++) {
        char dir[600], log[700];
        snprintf(dir, sizeof dir, "%s/run-%02lld", tmp, i + 1);
        snprintf(log, sizeof log, "%s/log.txt", dir);
        mkdir(dir, 0700);
        /* the command's own output is shown, as perf stat does, for the first run only */
        czk_perf_child c = {argv + first, 0, spec, -1, dir, log, 0, NULL, i == 0};
        double per = i ? (czk_now() - t0) / (double)i : -1;
        czk_perf_progress_step(&pr, "run", (size_t)i + 1, (size_t)o.repeat, per < 0 ? -1 : per * (double)(o.repeat - i), 0);
        czk_status st = czk_perf_child_run(&r[i], &c);
        if (st != CZK_OK) {
            czk_perf_progress_end(&pr);
            fprintf(stderr, "czk stat: run %lld: %s\n", i + 1, czk_last_error());
            status = CZK_EXIT_FAIL;
        }
    }
    if (o.backend == CZK_PERF_BACKEND_SIM) /* simulate everything simulatable, counted or not */
        for (long long i = 0; i < o.repeat && status == CZK_EXIT_OK; i++)
            for (size_t e = 0; e < r[i].n; e++)
                if (r[i].v[e].source == CZK_PERF_COUNTED && set.ev[e].sim_pass) {
                    r[i].v[e].source = CZK_PERF_UNAVAILABLE;
                    snprintf(r[i].v[e].note, sizeof r[i].v[e].note, "--backend sim");
                }
    int simulate_it = status == CZK_EXIT_OK && want_simulation(&o, &r[0], &set, spec);
    if (o.region && !simulate_it) fprintf(stderr, "czk stat: --region applies to simulated counters only\n");
    if (simulate_it) {
        double times[1024];
        size_t nt = o.repeat < 1024 ? (size_t)o.repeat : 1024;
        for (size_t i = 0; i < nt; i++) times[i] = r[i].seconds;
        czk_perf_child c = {argv + first, 0, spec, -1, tmp, NULL, 0, o.region, 0};
        if (simulate(r, (size_t)o.repeat, &set, &c, o.repeat > 1, czk_perf_median(times, nt), &pr) != CZK_OK) {
            czk_perf_progress_end(&pr);
            fprintf(stderr, "czk stat: simulation: %s (see %s)\n", czk_last_error(), tmp);
            status = CZK_EXIT_FAIL;
            o.keep = 1;
        }
    }
    czk_perf_progress_end(&pr);
    if (status == CZK_EXIT_OK) status = report(&o, cmd, r, &set);
    if (o.keep) {
        fprintf(stderr, "czk stat: scratch folder kept: %s\n", tmp);
    } else {
        if (czk_cli_remove_tree(tmp) != 0)
            fprintf(stderr, "czk stat: could not remove %s: %s\n", tmp, strerror(errno));
    }
    free(r);
    return status;
}

CZK_CLI_COMMAND(stat, "perf stat for any command: counters measured, simulated (callgrind) or unavailable", run)
