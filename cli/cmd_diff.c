/* czk diff: run two variants interleaved, decide with statistics whether they
 * differ, and explain the difference with counters. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "czk/perf.h"
#include "czk/rand.h"

static const char usage[] =
    "usage: czk diff [-n RUNS] [--counters SPEC] [--backend auto|hw|sim|none] [--sim-runs K]\n"
    "                [--warmup W] [--randomize] [--seed S] [--primary METRIC] [--json]\n"
    "                [--svg FILE] [--keep]\n"
    "                -- A-ARGS -- B-ARGS\n"
    "       czk diff [options] --a \"COMMAND\" --b \"COMMAND\"\n\n"
    "Run A and B interleaved (A B A B ..., or each pair in random order with\n"
    "--randomize) after W warm-up pairs, and report for each metric the A and B\n"
    "medians, the delta with a 95% bootstrap interval, the Mann-Whitney U p-value\n"
    "and a verdict: 'differs' only when p < 0.05 and the interval lies outside\n"
    "+-1%. Then the time difference is split into instruction count and time per\n"
    "instruction, and counter deltas are ranked by estimated cycle cost.\n\n"
    "A-ARGS and B-ARGS are czk arguments (e.g. `bench planted --case list\n"
    "--variant a`): a `czk bench` run measures its own marked region; other\n"
    "commands, and --a/--b shell commands, are measured as whole processes.\n"
    "Without hardware counters (most VMs) counters are simulated with valgrind's\n"
    "callgrind in --sim-runs extra runs per side (default min(RUNS, 4): with\n"
    "deterministic simulation, 4 runs per side are needed for p < 0.05).\n\n"
    "  -n RUNS            measured runs per side (default 5)\n"
    "  --counters SPEC    default|topdown|l2|fills|ref|EVENTS (default: default)\n"
    "  --backend B        auto (hardware, else simulated), hw, sim, none\n"
    "  --sim-runs K       simulated runs per side (default min(RUNS, 4))\n"
    "  --warmup W         warm-up pairs, not measured (default 1)\n"
    "  --randomize        random order within each pair (seeded by --seed)\n"
    "  --seed S           seed for --randomize and the bootstrap (default 1)\n"
    "  --primary METRIC   metric of the overall verdict (default time; task-clock\n"
    "                     is steadier on a shared machine)\n"
    "  --json             one JSON document with every raw sample\n"
    "  --svg FILE         draw the per-run distributions of the main metrics\n"
    "  --keep             keep the scratch directory (logs, callgrind output)\n";

enum { OPT_COUNTERS = CZK_OPT_FIRST_FREE, OPT_BACKEND, OPT_SIM_RUNS, OPT_WARMUP, OPT_RANDOMIZE, OPT_SEED, OPT_SVG,
       OPT_A, OPT_B, OPT_KEEP, OPT_PRIMARY };

typedef struct opts {
    long long runs, sim_runs, warmup, seed;
    const char *spec, *svg, *a, *b, *primary;
    czk_perf_backend backend;
    int randomize, keep;
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
        if (czk_cli_parse_int(arg, 0, 100000, &o->sim_runs))
            return czk_cli_usage_error("diff", usage, "--sim-runs wants 0..100000, got '%s'", arg);
        return 0;
    case OPT_WARMUP:
        if (czk_cli_parse_int(arg, 0, 1000, &o->warmup)) return czk_cli_usage_error("diff", usage, "--warmup wants 0..1000, got '%s'", arg);
        return 0;
    case OPT_SEED:
        if (czk_cli_parse_int(arg, 0, (long long)(~0ULL >> 1), &o->seed))
            return czk_cli_usage_error("diff", usage, "--seed wants a non-negative number, got '%s'", arg);
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
    char log[600];
    czk_perf_report *r;
    size_t n;
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
    snprintf(s->log, sizeof s->log, "%s/%s.log", tmp, tag);
    return 0;
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

static int run(int argc, char **argv)
{
    opts o = {5, -1, 1, 1, "default", NULL, NULL, NULL, "time", CZK_PERF_BACKEND_AUTO, 0, 0};
    static const struct option lopts[] = {{"runs", required_argument, 0, 'n'},
                                          {"counters", required_argument, 0, OPT_COUNTERS},
                                          {"backend", required_argument, 0, OPT_BACKEND},
                                          {"sim-runs", required_argument, 0, OPT_SIM_RUNS},
                                          {"warmup", required_argument, 0, OPT_WARMUP},
                                          {"randomize", no_argument, 0, OPT_RANDOMIZE},
                                          {"seed", required_argument, 0, OPT_SEED},
                                          {"svg", required_argument, 0, OPT_SVG},
                                          {"a", required_argument, 0, OPT_A},
                                          {"b", required_argument, 0, OPT_B},
                                          {"keep", no_argument, 0, OPT_KEEP},
                                          {"primary", required_argument, 0, OPT_PRIMARY},
                                          {0, 0, 0, 0}};
    czk_cli_common com;
    int first = 0;
    int rc = czk_cli_parse(argc, argv, "diff", usage, lopts, &o, on_opt, &com, &first);
    if (rc != CZK_CLI_CONTINUE) return rc;
    char **aargs = NULL, **bargs = NULL;
    int na = 0, nb = 0;
    if (o.a || o.b) {
        if (!o.a || !o.b) return czk_cli_usage_error("diff", usage, "--a and --b go together");
        if (first < argc) return czk_cli_usage_error("diff", usage, "give either --a/--b or -- A-ARGS -- B-ARGS, not both");
    } else {
        int sep = -1;
        if (first < argc && !strcmp(argv[first], "--")) first++;
        for (int i = first; i < argc; i++)
            if (!strcmp(argv[i], "--")) {
                sep = i;
                break;
            }
        if (sep < 0) return czk_cli_usage_error("diff", usage, "want -- A-ARGS -- B-ARGS (or --a CMD --b CMD)");
        aargs = argv + first, na = sep - first;
        bargs = argv + sep + 1, nb = argc - sep - 1;
        if (na == 0 || nb == 0) return czk_cli_usage_error("diff", usage, "A-ARGS and B-ARGS must not be empty");
        if (!strcmp(aargs[0], "diff") || !strcmp(bargs[0], "diff"))
            return czk_cli_usage_error("diff", usage, "A and B cannot themselves be 'czk diff'");
    }
    czk_perf_eventset set;
    const char *spec = o.backend == CZK_PERF_BACKEND_NONE ? NULL : o.spec;
    if (spec && czk_perf_eventset_parse(&set, spec, czk_perf_cpu_this()) != CZK_OK)
        return czk_cli_usage_error("diff", usage, "--counters: %s", czk_last_error());
    if (!spec) memset(&set, 0, sizeof set);
    int simulate = spec && czk_perf_sim_passes(&set) &&
                   (o.backend == CZK_PERF_BACKEND_SIM || (o.backend == CZK_PERF_BACKEND_AUTO && !czk_perf_hw_available()));
    long long sim_runs = o.sim_runs >= 0 ? o.sim_runs : (o.runs < 4 ? o.runs : 4);
    if (sim_runs > o.runs) sim_runs = o.runs;
    if (simulate && !czk_perf_valgrind_available()) {
        fprintf(stderr, "czk diff: no hardware counters here and valgrind is not installed: counters limited to software events\n");
        simulate = 0;
    }
    const char *self = czk_cli_self_path();
    if (!self) return czk_cli_fail("diff", czk_error(CZK_ERR_IO, "cannot resolve /proc/self/exe"), "start");
    char tmp[] = "/tmp/czk-diff-XXXXXX";
    if (!mkdtemp(tmp)) return czk_cli_fail("diff", czk_error(CZK_ERR_IO, "mkdtemp: %s", strerror(errno)), "start");
    side s[2];
    memset(s, 0, sizeof s);
    setup_side(&s[0], o.a, aargs, na, self, tmp, "a");
    setup_side(&s[1], o.b, bargs, nb, self, tmp, "b");
    for (int k = 0; k < 2; k++) {
        s[k].r = calloc((size_t)o.runs, sizeof *s[k].r);
        if (!s[k].r) return czk_cli_fail("diff", czk_error(CZK_ERR_NOMEM, "reports"), "start");
    }
    char *order = calloc((size_t)(2 * o.runs + 1), 1);
    czk_rng rng;
    czk_rng_seed(&rng, (uint64_t)o.seed);
    int progress = czk_cli_progress_enabled(&com);
    int status = CZK_EXIT_OK;
    size_t no = 0;
    for (long long i = -o.warmup; i < o.runs && status == CZK_EXIT_OK; i++) {
        int first_side = o.randomize ? (int)czk_rng_below(&rng, 2) : 0;
        for (int t = 0; t < 2 && status == CZK_EXIT_OK; t++) {
            int k = first_side ^ t;
            czk_perf_child c = {s[k].argv, s[k].czk_bench, i < 0 ? NULL : spec, i < 0 ? -1 : (int)i, tmp, s[k].log, 0};
            czk_perf_report rep;
            if (progress) fprintf(stderr, "\rczk diff: %s run %lld/%lld %c   ", i < 0 ? "warm-up" : "measured",
                                  i < 0 ? i + o.warmup + 1 : i + 1, i < 0 ? o.warmup : o.runs, "AB"[k]);
            czk_status st = czk_perf_child_run(&rep, &c);
            if (st == CZK_OK && i >= 0 && simulate && i < sim_runs) {
                c.sim_whole = rep.regions == 0;
                st = czk_perf_child_simulate(&rep, &set, &c);
            }
            if (st != CZK_OK) {
                if (progress) fprintf(stderr, "\n");
                fprintf(stderr, "czk diff: side %c (%s), %s run %lld: %s\n", "AB"[k], s[k].desc,
                        i < 0 ? "warm-up" : "measured", i < 0 ? i + o.warmup + 1 : i + 1, czk_last_error());
                show_log(s[k].log);
                status = CZK_EXIT_FAIL;
                break;
            }
            if (i >= 0) {
                s[k].r[s[k].n++] = rep;
                order[no++] = "AB"[k];
            }
        }
    }
    if (progress) fprintf(stderr, "\r%60s\r", "");
    if (status == CZK_EXIT_OK) {
        czk_perf_diff d;
        if (czk_perf_diff_compute(&d, s[0].r, s[0].n, s[1].r, s[1].n, (uint64_t)o.seed, o.primary) != CZK_OK) {
            status = czk_cli_fail("diff", CZK_ERR_INVALID_ARG, "statistics");
        } else {
            if (com.json) {
                if (czk_perf_diff_write_json(stdout, &d, s[0].desc, s[1].desc, order, s[0].r, s[0].n, s[1].r, s[1].n) != CZK_OK)
                    status = czk_cli_fail("diff", CZK_ERR_IO, "output");
            } else {
                printf("# A: %s\n# B: %s\n", s[0].desc, s[1].desc);
                printf("# %lld runs per side (order %s)%s; counters: %s", o.runs, order,
                       o.randomize ? ", randomized pairs" : "", spec ? spec : "none");
                if (s[0].n && s[0].r[0].backend[0]) printf("; backend: %s", s[0].r[0].backend);
                if (s[0].n && s[0].czk_bench)
                    printf("; region: %s", s[0].r[0].regions ? "marked sections" : "whole benchmark (no czk_perf_begin/end)");
                if (simulate) printf(" (%lld simulated runs per side)", sim_runs);
                printf("\n");
                if (simulate && s[0].n && s[0].r[0].sim_geometry[0]) printf("# simulated caches: %s\n", s[0].r[0].sim_geometry);
                czk_perf_diff_print(stdout, &d);
            }
            char title[1200];
            snprintf(title, sizeof title, "A: %.500s  vs  B: %.500s", s[0].desc, s[1].desc);
            if (o.svg && status == CZK_EXIT_OK && czk_perf_diff_write_svg(o.svg, &d, title) != CZK_OK)
                status = czk_cli_fail("diff", CZK_ERR_IO, "SVG");
            czk_perf_diff_free(&d);
        }
    }
    if (o.keep) {
        fprintf(stderr, "czk diff: scratch directory kept: %s\n", tmp);
    } else {
        char cmd[128];
        snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmp);
        if (system(cmd) != 0) fprintf(stderr, "czk diff: could not remove %s\n", tmp);
    }
    free(s[0].r), free(s[1].r), free(order);
    return status;
}

CZK_CLI_COMMAND(diff, "run two variants interleaved and explain whether and why they differ", run)
