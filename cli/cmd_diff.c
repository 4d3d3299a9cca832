/* czk diff: run two variants interleaved, decide with statistics whether they
 * differ, and explain the difference with counters. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "czk/perf.h"
#include "perf/perf_internal.h"
#include "czk/rand.h"

static const char usage[] =
    "usage: czk diff [-n RUNS] [--counters SPEC] [--backend auto|hw|sim|none] [--region FUNCTION]\n"
    "                [--sim-runs K] [--sim-jobs J] [--warmup W] [--randomize] [--seed S]\n"
    "                [--primary METRIC] [--where N] [--where-all] [--rename FROM=TO]\n"
    "                [--json FILE] [--svg FILE] [--keep] [--quiet]\n"
    "                -- A-ARGS -- B-ARGS\n"
    "       czk diff [options] --a \"COMMAND\" --b \"COMMAND\"\n\n"
    "Run A and B interleaved (A B A B ..., or each pair in random order with\n"
    "--randomize) after W warm-up pairs, and report for each metric the A and B\n"
    "medians, the delta with a 95% bootstrap interval, the Mann-Whitney U p-value\n"
    "and a verdict: 'differs' only when p < 0.05 and the interval lies outside\n"
    "+-1%. Then: WHERE - for every counter that differs, the functions that account\n"
    "for the change, ranked, with A's and B's counts and each one's share of it;\n"
    "WHY - the time change split into instruction count and time per instruction,\n"
    "the counter deltas ranked by estimated cycles, the model's total next to the\n"
    "measured change, and the remainder the counters do not explain.\n\n"
    "A-ARGS and B-ARGS are czk arguments (e.g. `bench planted --case list\n"
    "--variant a`): a `czk bench` run measures its own marked region; other\n"
    "commands, and --a/--b shell commands, are measured as whole processes.\n\n"
    "What a run costs. A measured run is one native execution per side (RUNS of\n"
    "them, plus W warm-ups). Without hardware counters (most VMs) the counters are\n"
    "simulated with valgrind's callgrind, about 50-160x slower than native: a\n"
    "simulation is one callgrind execution per cache pass (pass 1 models L2; pass\n"
    "2, run only for L3/DRAM events such as ls_any_fills_from_sys.dram_io_all,\n"
    "models L3). Each side is simulated twice to confirm that its counts repeat\n"
    "exactly (with both passes, pass 2 is the confirmation: it shares pass 1's L1\n"
    "and branch model); counts that repeat are exact and need no more runs. Only\n"
    "counts that do not repeat (timing-dependent threads) get up to K simulations\n"
    "per side. Simulations run J at a time. So with pass 1 only: 2 callgrind runs\n"
    "per side, ~2 x 100 x the native run time per side, divided by J.\n\n"
    "  -n RUNS            native runs per side (default 5)\n"
    "  --counters SPEC    default|topdown|l2|fills|ref|EVENTS (default: default)\n"
    "  --backend B        auto (hardware, else simulated), hw, sim, none\n"
    "  --region FUNCTION  count only inside FUNCTION and its callees (callgrind\n"
    "                     --toggle-collect, * and ? wildcards); time stays the\n"
    "                     whole run\n"
    "  --sim-runs K       simulations per side when counts do not repeat (default 4)\n"
    "  --sim-jobs J       simulations at a time (default: the CPUs, at most 2)\n"
    "  --warmup W         warm-up pairs, not measured (default 1)\n"
    "  --randomize        random order within each pair (seeded by --seed)\n"
    "  --seed S           seed for --randomize and the bootstrap (default 1)\n"
    "  --primary METRIC   metric of the overall verdict (default time; task-clock\n"
    "                     is steadier on a shared machine)\n"
    "  --where N          functions per metric in the where tables (default 10)\n"
    "  --where-all        where tables for every metric, not only those that differ\n"
    "  --rename FROM=TO   read FROM as TO in function names before matching A's\n"
    "                     functions with B's (repeatable; czk's own `--lc X` vs\n"
    "                     `--lc Y` sides get _Y=_X automatically)\n"
    "  --json FILE        also write one JSON document (every raw sample, the where\n"
    "                     tables, the diagnosis); '-' = stdout, the text then goes\n"
    "                     to stderr\n"
    "  --svg FILE         draw the per-run distributions of the main metrics\n"
    "  --keep             keep the scratch folder: A/ and B/, one folder per run\n"
    "                     (run-01, sim-1-pass1 ...), never reused\n"
    "  --quiet            no progress on stderr (progress is shown when a diff\n"
    "                     takes more than a few seconds, also off a terminal)\n";

enum { OPT_COUNTERS = CZK_OPT_FIRST_FREE, OPT_BACKEND, OPT_SIM_RUNS, OPT_WARMUP, OPT_RANDOMIZE, OPT_SEED, OPT_SVG,
       OPT_A, OPT_B, OPT_KEEP, OPT_PRIMARY, OPT_JSON, OPT_WHERE, OPT_WHERE_ALL, OPT_RENAME, OPT_REGION, OPT_SIM_JOBS };

#define MAX_RENAME 8

typedef struct opts {
    long long runs, sim_runs, warmup, seed, where, sim_jobs;
    const char *spec, *svg, *a, *b, *primary, *json, *region;
    czk_perf_backend backend;
    int randomize, keep, where_all;
    czk_perf_rename ren[MAX_RENAME];
    size_t nren;
} opts;

static int on_opt(void *ctx, int opt, const char *arg)
{
    opts *o = ctx;
    switch (opt) {
    case 'n':
        if (czk_cli_parse_int(arg, 1, 100000, &o->runs)) return czk_cli_usage_error("diff", usage, "-n wants 1..100000, got '%s'", arg);
        return 0;
    case OPT_COUNTERS: o->spec = arg; return 0;
    case OPT_BACKEND:
        if (czk_perf_backend_parse(&o->backend, arg) != CZK_OK) return czk_cli_usage_error("diff", usage, "%s", czk_last_error());
        return 0;
    case OPT_SIM_RUNS:
        if (czk_cli_parse_int(arg, 0, 24, &o->sim_runs))
            return czk_cli_usage_error("diff", usage, "--sim-runs wants 0..24, got '%s'", arg);
        return 0;
    case OPT_SIM_JOBS:
        if (czk_cli_parse_int(arg, 1, 64, &o->sim_jobs))
            return czk_cli_usage_error("diff", usage, "--sim-jobs wants 1..64, got '%s'", arg);
        return 0;
    case OPT_WARMUP:
        if (czk_cli_parse_int(arg, 0, 1000, &o->warmup)) return czk_cli_usage_error("diff", usage, "--warmup wants 0..1000, got '%s'", arg);
        return 0;
    case OPT_SEED:
        if (czk_cli_parse_int(arg, 0, (long long)(~0ULL >> 1), &o->seed))
            return czk_cli_usage_error("diff", usage, "--seed wants a non-negative number, got '%s'", arg);
        return 0;
    case OPT_WHERE:
        if (czk_cli_parse_int(arg, 1, 100000, &o->where))
            return czk_cli_usage_error("diff", usage, "--where wants 1..100000, got '%s'", arg);
        return 0;
    case OPT_WHERE_ALL: o->where_all = 1; return 0;
    case OPT_RENAME: {
        const char *eq = strchr(arg, '=');
        if (!eq || eq == arg || strlen(eq + 1) >= 64 || (size_t)(eq - arg) >= 64)
            return czk_cli_usage_error("diff", usage, "--rename wants FROM=TO (each < 64 characters), got '%s'", arg);
        if (o->nren >= MAX_RENAME) return czk_cli_usage_error("diff", usage, "at most %d --rename", MAX_RENAME);
        czk_perf_rename *r = &o->ren[o->nren++];
        snprintf(r->from, sizeof r->from, "%.*s", (int)(eq - arg), arg);
        snprintf(r->to, sizeof r->to, "%s", eq + 1);
        return 0;
    }
    case OPT_REGION:
        if (!*arg || strlen(arg) >= 96) return czk_cli_usage_error("diff", usage, "--region wants a function name (< 96 characters)");
        o->region = arg;
        return 0;
    case OPT_JSON:
        if (!*arg || (arg[0] == '-' && arg[1]))
            return czk_cli_usage_error("diff", usage, "--json wants a file name or '-' (stdout), got '%s'", arg);
        o->json = arg;
        return 0;
    case OPT_RANDOMIZE: o->randomize = 1; return 0;
    case OPT_KEEP: o->keep = 1; return 0;
    case OPT_SVG: o->svg = arg; return 0;
    case OPT_A: o->a = arg; return 0;
    case OPT_PRIMARY: o->primary = arg; return 0;
    case OPT_B: o->b = arg; return 0;
    }
    return czk_cli_usage_error("diff", usage, "unexpected option");
}

typedef struct side {
    char *argv[260];
    int czk_bench;
    char desc[512];
    char dir[600];
    czk_perf_report *r;
    size_t n;
    czk_perf_child sim; /* the child description the simulations use */
    char sim_log[700];
    czk_perf_profile prof[24];
    size_t nprof;
    int exact;
    double spread;
} side;

static int setup_side(side *s, const char *shell_cmd, char **args, int nargs, const char *self, const char *tmp, const char *tag)
{
    int n = 0;
    size_t o = 0;
    if (shell_cmd) {
        s->argv[n++] = "/bin/sh";
        s->argv[n++] = "-c";
        s->argv[n++] = (char *)shell_cmd;
        snprintf(s->desc, sizeof s->desc, "%s", shell_cmd);
    } else {
        s->argv[n++] = (char *)self;
        s->czk_bench = nargs > 0 && !strcmp(args[0], "bench");
        o += (size_t)snprintf(s->desc, sizeof s->desc, "czk");
        for (int i = 0; i < nargs && n < 255; i++) {
            s->argv[n++] = args[i];
            if (o < sizeof s->desc) o += (size_t)snprintf(s->desc + o, sizeof s->desc - o, " %s", args[i]);
        }
    }
    s->argv[n] = NULL;
    snprintf(s->dir, sizeof s->dir, "%s/%s", tmp, tag);
    if (mkdir(s->dir, 0700)) return -1;
    return 0;
}

/* czk's LC variants are compiled under names ending in _vec, _inline2 ...:
 * when A and B differ in `--lc X` / `--lc Y` only there, B's names are read
 * as A's. */
static void auto_rename(opts *o, char **aargs, int na, char **bargs, int nb)
{
    if (!aargs || na != nb || o->nren >= MAX_RENAME) return;
    const char *x = NULL, *y = NULL;
    for (int i = 0; i < na; i++) {
        if (!strcmp(aargs[i], bargs[i])) continue;
        if (i > 0 && !strcmp(aargs[i - 1], "--lc") && !strcmp(bargs[i - 1], "--lc") && !x) x = aargs[i], y = bargs[i];
        else return;
    }
    if (!x || strlen(x) > 60 || strlen(y) > 60) return;
    czk_perf_rename *r = &o->ren[o->nren++];
    snprintf(r->from, sizeof r->from, "_%s", y);
    snprintf(r->to, sizeof r->to, "_%s", x);
}

static void show_log(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f) return;
    char line[512];
    char *tail[24] = {0};
    int k = 0;
    while (fgets(line, sizeof line, f)) {
        free(tail[k % 24]);
        tail[k % 24] = strdup(line);
        k++;
    }
    fclose(f);
    for (int i = k > 24 ? k - 24 : 0; i < k; i++) {
        if (tail[i % 24]) fprintf(stderr, "  | %s", tail[i % 24]);
        free(tail[i % 24]);
        tail[i % 24] = NULL;
    }
}

static int write_json(const char *path, const czk_perf_diff *d, side *s, const char *order)
{
    FILE *f = strcmp(path, "-") ? fopen(path, "w") : stdout;
    if (!f) return czk_cli_fail("diff", czk_error(CZK_ERR_IO, "%s: cannot create: %s", path, strerror(errno)), "--json");
    czk_status st = czk_perf_diff_write_json(f, d, s[0].desc, s[1].desc, order, s[0].r, s[0].n, s[1].r, s[1].n);
    if (f != stdout && fclose(f) && st == CZK_OK) st = czk_error(CZK_ERR_IO, "%s: write failed: %s", path, strerror(errno));
    if (st != CZK_OK) {
        if (f != stdout) unlink(path);
        return czk_cli_fail("diff", st, "--json");
    }
    return CZK_EXIT_OK;
}

static double median_time(const side *s)
{
    double t[512];
    size_t n = s->n < 512 ? s->n : 512;
    for (size_t i = 0; i < n; i++) t[i] = s->r[i].seconds;
    return n ? czk_perf_median(t, n) : 1.0;
}

/* Callgrind slows a program down by about this much (cache + branch
 * simulation); only the first ETA uses it, later ones use what was measured. */
#define SIM_SLOWDOWN 100.0

/* Simulate both sides: twice each (pass 1 + pass 2, or pass 1 twice); a side
 * whose counts repeated exactly is done, the others get up to K simulations.
 * Fills the reports and the per-function profiles. */
static czk_status simulate_sides(side *s, const czk_perf_eventset *set, long long sim_runs, int jobs,
                                 czk_perf_progress *pr)
{
    czk_perf_geometry g;
    CZK_TRY(czk_perf_geometry_from_env(&g));
    unsigned passes = czk_perf_sim_passes(set);
    int both = passes == 3, single = passes == 2 ? 2 : 1;
    size_t cap = 2 * 2 * (size_t)(sim_runs > 2 ? sim_runs : 2);
    czk_perf_sim_task *t = calloc(cap, sizeof *t);
    if (!t) return czk_error(CZK_ERR_NOMEM, "simulation tasks");
    size_t nt = 0;
    int sim_no[2] = {0, 0};
    /* round 1: two simulations per side */
    for (int k = 0; k < 2; k++)
        for (int r = 0; r < 2; r++) {
            czk_perf_sim_task *x = &t[nt++];
            x->c = &s[k].sim;
            x->pass = both ? r + 1 : single;
            if (!both || r == 0) sim_no[k]++;
            snprintf(x->dir, sizeof x->dir, "%s/sim-%d-pass%d", s[k].dir, sim_no[k], x->pass);
            x->est_s = median_time(&s[k]) * SIM_SLOWDOWN + 1.0;
        }
    czk_status st = czk_perf_sim_run_all(t, nt, jobs, &g, pr, "simulation");
    size_t first_round = nt;
    int exact[2] = {0, 0};
    double spread[2] = {0, 0};
    if (st == CZK_OK) {
        for (int k = 0; k < 2; k++) {
            czk_perf_sim_task *x = &t[2 * k], *y = &t[2 * k + 1];
            exact[k] = czk_perf_cg_repeat(&spread[k], &x->job.tot, x->pass, &y->job.tot, y->pass);
        }
        /* round 2: more simulations for a side whose counts did not repeat */
        size_t start = nt;
        for (int k = 0; k < 2; k++) {
            if (exact[k]) continue;
            long long have = both ? 1 : 2;
            for (long long r = have; r < sim_runs; r++)
                for (int p = 1; p <= (both ? 2 : 1) && nt < cap; p++) {
                    czk_perf_sim_task *x = &t[nt++];
                    x->c = &s[k].sim;
                    x->pass = both ? p : single;
                    if (!both || p == 1) sim_no[k]++;
                    snprintf(x->dir, sizeof x->dir, "%s/sim-%d-pass%d", s[k].dir, sim_no[k], x->pass);
                    x->est_s = t[2 * k].job.seconds;
                }
        }
        if (nt > start) st = czk_perf_sim_run_all(t + start, nt - start, jobs, &g, pr, "simulation (counts did not repeat)");
    }
    /* results per side: (pass-1 totals, pass-2 totals) per simulation */
    for (int k = 0; k < 2 && st == CZK_OK; k++) {
        s[k].exact = exact[k];
        s[k].spread = spread[k];
        const czk_perf_sim_task *res[48][2];
        size_t nres = 0;
        for (size_t i = 0; i < nt; i++) {
            if (t[i].c != &s[k].sim) continue;
            if (both && t[i].pass == 2) continue;
            if (nres >= 48) break;
            res[nres][0] = &t[i];
            res[nres][1] = NULL;
            if (both) /* its pass 2 is the next task of this side */
                for (size_t j = i + 1; j < nt; j++)
                    if (t[j].c == &s[k].sim) {
                        res[nres][1] = &t[j];
                        break;
                    }
            nres++;
        }
        if (exact[k]) nres = 1; /* both simulations agree: one result stands for all */
        for (size_t r = 0; r < nres && st == CZK_OK; r++) {
            const czk_perf_sim_task *p1 = passes & 1 ? res[r][0] : NULL;
            const czk_perf_sim_task *p2 = both ? res[r][1] : passes == 2 ? res[r][0] : NULL;
            size_t from = exact[k] ? 0 : r, to = exact[k] ? s[k].n : r + 1;
            for (size_t i = from; i < to && i < s[k].n; i++) {
                czk_perf_sim_apply(&s[k].r[i], set, p1 ? &p1->job.tot : NULL, p2 ? &p2->job.tot : NULL, &g);
                s[k].r[i].sim_exact = exact[k];
                s[k].r[i].sim_runs = exact[k] ? 2 : 1;
                s[k].r[i].sim_spread = exact[k] ? spread[k] : 0;
                if (s[k].sim.region) snprintf(s[k].r[i].region_fn, sizeof s[k].r[i].region_fn, "%s", s[k].sim.region);
            }
            if (s[k].nprof < 24) {
                st = czk_perf_profile_from_sim(&s[k].prof[s[k].nprof], set, p1 ? &p1->job.raw : NULL,
                                               p2 ? &p2->job.raw : NULL);
                if (st == CZK_OK) s[k].nprof++;
            }
        }
    }
    (void)first_round;
    for (size_t i = 0; i < nt; i++)
        if (t[i].started) czk_perf_sim_job_clear(&t[i].job);
    free(t);
    return st;
}

/* A's and B's arguments: after "--" separators, or none with --a/--b
 * (shell commands). CZK_CLI_CONTINUE, or the exit code of a usage error. */
static int split_sides(opts *o, int argc, char **argv, int first, char ***aargs, int *na, char ***bargs, int *nb)
{
    if (o->a || o->b) {
        if (!o->a || !o->b) return czk_cli_usage_error("diff", usage, "--a and --b go together");
        if (first < argc) return czk_cli_usage_error("diff", usage, "give either --a/--b or -- A-ARGS -- B-ARGS, not both");
        return CZK_CLI_CONTINUE;
    }
    int sep = -1;
    if (first < argc && !strcmp(argv[first], "--")) first++;
    for (int i = first; i < argc; i++)
        if (!strcmp(argv[i], "--")) {
            sep = i;
            break;
        }
    if (sep < 0) return czk_cli_usage_error("diff", usage, "want -- A-ARGS -- B-ARGS (or --a CMD --b CMD)");
    *aargs = argv + first, *na = sep - first;
    *bargs = argv + sep + 1, *nb = argc - sep - 1;
    if (*na == 0 || *nb == 0) return czk_cli_usage_error("diff", usage, "A-ARGS and B-ARGS must not be empty");
    if (!strcmp((*aargs)[0], "diff") || !strcmp((*bargs)[0], "diff"))
        return czk_cli_usage_error("diff", usage, "A and B cannot themselves be 'czk diff'");
    auto_rename(o, *aargs, *na, *bargs, *nb);
    return CZK_CLI_CONTINUE;
}

/* The measured runs: W warm-up pairs, then RUNS pairs, interleaved (each
 * pair in random order with --randomize); order[] records the sides run. */
static int measure_runs(side *s, const opts *o, const char *spec, char *order, czk_perf_progress *pr, double t_start)
{
    czk_rng rng;
    czk_rng_seed(&rng, (uint64_t)o->seed);
    int status = CZK_EXIT_OK;
    size_t no = 0, total_runs = (size_t)(2 * (o->warmup + o->runs)), done_runs = 0;
    for (long long i = -o->warmup; i < o->runs && status == CZK_EXIT_OK; i++) {
        int first_side = o->randomize ? (int)czk_rng_below(&rng, 2) : 0;
        for (int t = 0; t < 2 && status == CZK_EXIT_OK; t++) {
            int k = first_side ^ t;
            char rdir[700], log[760];
            if (i < 0) snprintf(rdir, sizeof rdir, "%s/warmup-%02lld", s[k].dir, i + o->warmup + 1);
            else snprintf(rdir, sizeof rdir, "%s/run-%02lld", s[k].dir, i + 1);
            snprintf(log, sizeof log, "%s/log.txt", rdir);
            if (mkdir(rdir, 0700)) {
                status = czk_cli_fail("diff", czk_error(CZK_ERR_IO, "%s: %s", rdir, strerror(errno)), "run folder");
                break;
            }
            czk_perf_child c = {s[k].argv, s[k].czk_bench, i < 0 ? NULL : spec, i < 0 ? -1 : (int)i, rdir, log, 0, NULL, 0};
            double per = done_runs ? (czk_now() - t_start) / (double)done_runs : -1;
            char stage[48];
            snprintf(stage, sizeof stage, "%s run (side %c)", i < 0 ? "warm-up" : "native", "AB"[k]);
            czk_perf_progress_step(pr, stage, done_runs + 1, total_runs, per < 0 ? -1 : per * (double)(total_runs - done_runs), 0);
            czk_perf_report rep;
            czk_status st = czk_perf_child_run(&rep, &c);
            done_runs++;
            if (st != CZK_OK) {
                czk_perf_progress_end(pr);
                fprintf(stderr, "czk diff: side %c (%s), %s run %lld: %s\n", "AB"[k], s[k].desc,
                        i < 0 ? "warm-up" : "measured", i < 0 ? i + o->warmup + 1 : i + 1, czk_last_error());
                show_log(log);
                status = CZK_EXIT_FAIL;
                break;
            }
            if (i >= 0) {
                s[k].r[s[k].n++] = rep;
                order[no++] = "AB"[k];
            }
        }
    }
    return status;
}

/* Where, with a PMU: one sampled run per side (whole process); no tables
 * unless both sides have one. */
static void sample_sides(side *s, const opts *o, const czk_perf_eventset *set, const char *spec,
                         czk_perf_progress *pr)
{
    for (int k = 0; k < 2; k++) {
        char rdir[700], log[760];
        snprintf(rdir, sizeof rdir, "%s/sampled-01", s[k].dir);
        snprintf(log, sizeof log, "%s/log.txt", rdir);
        mkdir(rdir, 0700);
        czk_perf_child c = {s[k].argv, s[k].czk_bench, spec, -1, rdir, log, 0, o->region, 0};
        czk_perf_progress_step(pr, "sampled run", (size_t)k + 1, 2, -1, 1);
        czk_status st = czk_perf_child_sample(&s[k].prof[0], set, &c);
        if (st == CZK_OK) s[k].nprof = 1;
        else fprintf(stderr, "czk diff: side %c: no where tables: %s\n", "AB"[k], czk_last_error());
    }
    if (!s[0].nprof || !s[1].nprof) {
        for (int k = 0; k < 2; k++)
            if (s[k].nprof) czk_perf_profile_clear(&s[k].prof[0]), s[k].nprof = 0;
    }
}

/* The statistics, the where tables and the diagnosis: text on stdout (on
 * stderr with --json -), then --json and --svg. */
static int report(const opts *o, side *s, const char *order, const char *spec, int simulate, double t_start)
{
    czk_perf_diff d;
    if (czk_perf_diff_compute(&d, s[0].r, s[0].n, s[1].r, s[1].n, (uint64_t)o->seed, o->primary) != CZK_OK)
        return czk_cli_fail("diff", CZK_ERR_INVALID_ARG, "statistics");
    int status = CZK_EXIT_OK;
    if (s[0].nprof && s[1].nprof &&
        czk_perf_diff_where(&d, s[0].prof, s[0].nprof, s[1].prof, s[1].nprof, (size_t)o->where, o->ren, o->nren) != CZK_OK)
        status = czk_cli_fail("diff", CZK_ERR_NOMEM, "where");
    FILE *tf = o->json && !strcmp(o->json, "-") ? stderr : stdout;
    fprintf(tf, "# A: %s\n# B: %s\n", s[0].desc, s[1].desc);
    fprintf(tf, "# %lld runs per side (order %s)%s; counters: %s", o->runs, order,
            o->randomize ? ", randomized pairs" : "", spec ? spec : "none");
    if (s[0].n && s[0].r[0].backend[0]) fprintf(tf, "; backend: %s", s[0].r[0].backend);
    if (s[0].n && s[0].czk_bench)
        fprintf(tf, "; region: %s", s[0].r[0].regions ? "marked sections" : "whole benchmark (no czk_perf_begin/end)");
    if (o->region && simulate) fprintf(tf, "; counters only inside %s (time: the whole run)", o->region);
    fprintf(tf, "\n");
    if (simulate) {
        char rep[2][96];
        for (int k = 0; k < 2; k++) {
            if (!s[k].exact) snprintf(rep[k], sizeof rep[k], "did not repeat (statistics over the simulations)");
            else if (s[k].spread == 0) snprintf(rep[k], sizeof rep[k], "repeated exactly (2 simulations)");
            else snprintf(rep[k], sizeof rep[k], "repeated within %.2g%% (2 simulations)", 100 * s[k].spread);
        }
        fprintf(tf, "# simulated counts: A %s, B %s; caches: %s\n", rep[0], rep[1], s[0].n ? s[0].r[0].sim_geometry : "");
    }
    czk_perf_diff_print(tf, &d);
    if (o->where_all) czk_perf_diff_print_where(tf, &d, 1);
    fprintf(tf, "# wall time of this diff: %.1f s\n", czk_now() - t_start);
    fflush(tf);
    if (o->json && status == CZK_EXIT_OK) status = write_json(o->json, &d, s, order);
    char title[1200];
    snprintf(title, sizeof title, "A: %.500s  vs  B: %.500s", s[0].desc, s[1].desc);
    if (o->svg && status == CZK_EXIT_OK && czk_perf_diff_write_svg(o->svg, &d, title) != CZK_OK)
        status = czk_cli_fail("diff", CZK_ERR_IO, "SVG");
    czk_perf_diff_free(&d);
    return status;
}

static int run(int argc, char **argv)
{
    opts o;
    memset(&o, 0, sizeof o);
    o.runs = 5, o.sim_runs = 4, o.warmup = 1, o.seed = 1, o.where = 10, o.sim_jobs = 0;
    o.spec = "default", o.primary = "time", o.backend = CZK_PERF_BACKEND_AUTO;
    static const struct option lopts[] = {{"runs", required_argument, 0, 'n'},
                                          {"counters", required_argument, 0, OPT_COUNTERS},
                                          {"backend", required_argument, 0, OPT_BACKEND},
                                          {"sim-runs", required_argument, 0, OPT_SIM_RUNS},
                                          {"sim-jobs", required_argument, 0, OPT_SIM_JOBS},
                                          {"warmup", required_argument, 0, OPT_WARMUP},
                                          {"randomize", no_argument, 0, OPT_RANDOMIZE},
                                          {"seed", required_argument, 0, OPT_SEED},
                                          {"svg", required_argument, 0, OPT_SVG},
                                          {"a", required_argument, 0, OPT_A},
                                          {"b", required_argument, 0, OPT_B},
                                          {"keep", no_argument, 0, OPT_KEEP},
                                          {"primary", required_argument, 0, OPT_PRIMARY},
                                          {"json", required_argument, 0, OPT_JSON},
                                          {"where", required_argument, 0, OPT_WHERE},
                                          {"where-all", no_argument, 0, OPT_WHERE_ALL},
                                          {"rename", required_argument, 0, OPT_RENAME},
                                          {"region", required_argument, 0, OPT_REGION},
                                          {0, 0, 0, 0}};
    czk_cli_common com;
    int first = 0;
    int rc = czk_cli_parse(argc, argv, "diff", usage, lopts, &o, on_opt, &com, &first);
    if (rc != CZK_CLI_CONTINUE) return rc;
    char **aargs = NULL, **bargs = NULL;
    int na = 0, nb = 0;
    rc = split_sides(&o, argc, argv, first, &aargs, &na, &bargs, &nb);
    if (rc != CZK_CLI_CONTINUE) return rc;
    czk_perf_eventset set;
    const char *spec = o.backend == CZK_PERF_BACKEND_NONE ? NULL : o.spec;
    if (spec && czk_perf_eventset_parse(&set, spec, czk_perf_cpu_this()) != CZK_OK)
        return czk_cli_usage_error("diff", usage, "--counters: %s", czk_last_error());
    if (!spec) memset(&set, 0, sizeof set);
    int simulate = spec && czk_perf_sim_passes(&set) &&
                   (o.backend == CZK_PERF_BACKEND_SIM || (o.backend == CZK_PERF_BACKEND_AUTO && !czk_perf_hw_available()));
    if (simulate && o.sim_runs == 0) simulate = 0;
    if (simulate && !czk_perf_valgrind_available()) {
        fprintf(stderr, "czk diff: no hardware counters here and valgrind is not installed: counters limited to software events\n");
        simulate = 0;
    }
    if (o.region && !simulate)
        fprintf(stderr, "czk diff: --region applies to simulated counters; %s\n",
                spec ? "hardware counters here count the whole run" : "no counters in this diff");
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    int jobs = o.sim_jobs ? (int)o.sim_jobs : cpus >= 2 ? 2 : 1;
    const char *self = czk_cli_self_path();
    if (!self) return czk_cli_fail("diff", czk_error(CZK_ERR_IO, "cannot resolve /proc/self/exe"), "start");
    char tmp[512];
    if (czk_cli_scratch_dir(tmp, sizeof tmp, "diff") != CZK_OK) return czk_cli_fail("diff", CZK_ERR_IO, "start");
    side *s = calloc(2, sizeof *s);
    char *order = calloc((size_t)(2 * o.runs + 1), 1);
    if (!s || !order) return czk_cli_fail("diff", czk_error(CZK_ERR_NOMEM, "sides"), "start");
    int status = CZK_EXIT_OK;
    if (setup_side(&s[0], o.a, aargs, na, self, tmp, "A") || setup_side(&s[1], o.b, bargs, nb, self, tmp, "B"))
        status = czk_cli_fail("diff", czk_error(CZK_ERR_IO, "%s: cannot create side folders: %s", tmp, strerror(errno)), "start");
    for (int k = 0; k < 2 && status == CZK_EXIT_OK; k++) {
        s[k].r = calloc((size_t)o.runs, sizeof *s[k].r);
        if (!s[k].r) status = czk_cli_fail("diff", czk_error(CZK_ERR_NOMEM, "reports"), "start");
    }
    czk_perf_progress pr;
    czk_perf_progress_init(&pr, "czk diff", com.quiet);
    double t_start = czk_now();
    if (status == CZK_EXIT_OK) status = measure_runs(s, &o, spec, order, &pr, t_start);
    if (status == CZK_EXIT_OK && simulate) {
        for (int k = 0; k < 2; k++) {
            s[k].sim = (czk_perf_child){s[k].argv, s[k].czk_bench, spec, -1, s[k].dir, NULL, s[k].n && s[k].r[0].regions == 0, o.region, 0};
        }
        czk_status st = simulate_sides(s, &set, o.sim_runs, jobs, &pr);
        if (st != CZK_OK) {
            czk_perf_progress_end(&pr);
            fprintf(stderr, "czk diff: simulation: %s\n", czk_last_error());
            status = CZK_EXIT_FAIL;
        }
    }
    if (status == CZK_EXIT_OK && spec && !simulate && o.backend != CZK_PERF_BACKEND_NONE && czk_perf_hw_available())
        sample_sides(s, &o, &set, spec, &pr);
    czk_perf_progress_end(&pr);
    if (status == CZK_EXIT_OK) status = report(&o, s, order, spec, simulate, t_start);
    if (o.keep) {
        fprintf(stderr, "czk diff: scratch folder kept: %s (A/, B/: one folder per run)\n", tmp);
    } else {
        if (czk_cli_remove_tree(tmp) != 0)
            fprintf(stderr, "czk diff: could not remove %s: %s\n", tmp, strerror(errno));
    }
    for (int k = 0; k < 2; k++) {
        for (size_t i = 0; i < s[k].nprof; i++) czk_perf_profile_clear(&s[k].prof[i]);
        free(s[k].r);
    }
    free(s), free(order);
    return status;
}

CZK_CLI_COMMAND(diff, "run two variants interleaved and explain whether, where and why they differ", run)
