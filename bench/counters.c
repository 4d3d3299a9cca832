#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "counters.h"
#include "czk/perf.h"
#include "perf/perf_internal.h"

static const char usage_counters[] =
    "--counters [default|topdown|l2|fills|ref|EVENTS]: EVENTS is a comma-separated list of perf names,\n"
    "czk's Zen names, libpfm4 names or raw rHEX (see src/perf/README.md)\n";

static int is_preset_or_list(const char *s)
{
    return s && s[0] && s[0] != '-';
}

int czk_bench_counters_strip(int *argc, char **argv, czk_bench_counters *o, const char *bench)
{
    memset(o, 0, sizeof *o);
    o->group = -1;
    int out = 1;
    for (int i = 1; i < *argc; i++) {
        const char *a = argv[i];
        const char *val = NULL;
        int takes = 0; /* 1: needs a value */
        if (!strcmp(a, "--")) {
            while (i < *argc) argv[out++] = argv[i++];
            break;
        }
        if (!strcmp(a, "--json")) o->json = 1;
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) o->help = 1;
        if (!strcmp(a, "--counters")) {
            o->active = 1;
            if (i + 1 < *argc && is_preset_or_list(argv[i + 1])) o->spec = argv[++i];
            else o->spec = "default";
            continue;
        }
        if (!strncmp(a, "--counters=", 11)) {
            o->active = 1;
            o->spec = a + 11;
            if (!*o->spec) o->spec = "default";
            continue;
        }
        if (!strcmp(a, "--perf-sim-whole")) {
            o->active = 1;
            o->sim_whole = 1;
            continue;
        }
        if (!strcmp(a, "--perf-report") || !strcmp(a, "--perf-events") || !strcmp(a, "--perf-group") ||
            !strcmp(a, "--perf-sim"))
            takes = 1;
        if (!takes) {
            argv[out++] = argv[i];
            continue;
        }
        if (i + 1 >= *argc) {
            fprintf(stderr, "czk bench %s: option '%s' needs a value\n", bench, a);
            return CZK_EXIT_USAGE;
        }
        val = argv[++i];
        o->active = 1;
        long long v;
        if (!strcmp(a, "--perf-sim-whole")) {
            o->active = 1;
            o->sim_whole = 1;
            continue;
        }
        if (!strcmp(a, "--perf-report")) o->report = val;
        else if (!strcmp(a, "--perf-events")) o->spec = val;
        else if (!strcmp(a, "--perf-group")) {
            if (czk_cli_parse_int(val, -1, 1000, &v)) {
                fprintf(stderr, "czk bench %s: --perf-group wants -1..1000, got '%s'\n", bench, val);
                return CZK_EXIT_USAGE;
            }
            o->group = (int)v;
        } else {
            if (czk_cli_parse_int(val, 1, 2, &v)) {
                fprintf(stderr, "czk bench %s: --perf-sim wants 1 or 2, got '%s'\n", bench, val);
                return CZK_EXIT_USAGE;
            }
            o->sim_pass = (int)v;
        }
    }
    argv[out] = NULL;
    *argc = out;
    return 0;
}

int czk_bench_counters_run(czk_bench_fn fn, int argc, char **argv, const czk_bench_counters *o)
{
    const char *bench = argv[0];
    czk_perf_eventset set;
    memset(&set, 0, sizeof set);
    if (o->spec && czk_perf_eventset_parse(&set, o->spec, czk_perf_cpu_this()) != CZK_OK) {
        fprintf(stderr, "czk bench %s: %s\n%s", bench, czk_last_error(), usage_counters);
        return CZK_EXIT_USAGE;
    }
    czk_perf_backend backend = CZK_PERF_BACKEND_AUTO;
    const char *be = getenv("CZK_PERF_BACKEND");
    if (be && *be && czk_perf_backend_parse(&backend, be) != CZK_OK) {
        fprintf(stderr, "czk bench %s: CZK_PERF_BACKEND: %s\n", bench, czk_last_error());
        return CZK_EXIT_USAGE;
    }
    if (czk_perf_session_start(o->spec && backend != CZK_PERF_BACKEND_SIM && backend != CZK_PERF_BACKEND_NONE ? &set : NULL,
                               o->group, o->sim_whole ? -o->sim_pass : o->sim_pass) != CZK_OK)
        return czk_cli_fail(bench, CZK_ERR_INTERNAL, "counters");
    int rc = fn(argc, argv);
    czk_perf_report r;
    if (czk_perf_session_stop(&r) != CZK_OK) return czk_cli_fail(bench, CZK_ERR_INTERNAL, "counters");
    if (rc != 0 || o->help) return rc;
    if (o->spec && r.n == 0) { /* sim/none backend: keep the event list for reporting */
        for (size_t i = 0; i < set.n; i++) {
            czk_perf_value *v = &r.v[i];
            memset(v, 0, sizeof *v);
            snprintf(v->name, sizeof v->name, "%s", set.ev[i].name);
            v->role = set.ev[i].role;
            snprintf(v->note, sizeof v->note, "%s", backend == CZK_PERF_BACKEND_NONE ? "counters disabled" : "hardware not used");
        }
        r.n = set.n;
    }
    if (o->report || o->sim_pass) {
        if (o->report && czk_perf_report_save(o->report, &r) != CZK_OK) return czk_cli_fail(bench, CZK_ERR_IO, "counters");
        return CZK_EXIT_OK;
    }
    int sim = o->spec && czk_perf_sim_passes(&set) &&
              (backend == CZK_PERF_BACKEND_SIM || (backend == CZK_PERF_BACKEND_AUTO && !czk_perf_hw_available()));
    if (sim) {
        const char *self = czk_cli_self_path();
        char tmp[] = "/tmp/czk-counters-XXXXXX";
        if (!self || !mkdtemp(tmp)) {
            fprintf(stderr, "czk bench %s: counters: cannot create a scratch directory: %s\n", bench, strerror(errno));
            return CZK_EXIT_FAIL;
        }
        char *cargv[260];
        int n = 0;
        cargv[n++] = (char *)self;
        cargv[n++] = "bench";
        for (int i = 0; i < argc && n < 256; i++) cargv[n++] = argv[i];
        cargv[n] = NULL;
        char log[64];
        snprintf(log, sizeof log, "%s/log", tmp);
        czk_perf_child c = {cargv, 1, o->spec, -1, tmp, log, r.regions == 0, NULL, 0};
        czk_status s = czk_perf_child_simulate(&r, NULL, &set, &c);
        if (s != CZK_OK) {
            fprintf(stderr, "czk bench %s: simulated counters failed (reported as unavailable): %s\n", bench,
                    czk_last_error());
            for (size_t i = 0; i < r.n; i++)
                if (r.v[i].source == CZK_PERF_UNAVAILABLE && set.ev[i].sim_pass)
                    snprintf(r.v[i].note, sizeof r.v[i].note, "simulation failed (see stderr)");
            FILE *lf = fopen(log, "r");
            if (lf) {
                char line[512];
                int k = 0;
                while (fgets(line, sizeof line, lf) && k++ < 20) fprintf(stderr, "  | %s", line);
                fclose(lf);
            }
        }
        char cmd[128];
        snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmp);
        if (system(cmd) != 0) fprintf(stderr, "czk bench %s: could not remove %s\n", bench, tmp);
    }
    fflush(stdout);
    if (o->json) {
        if (czk_perf_report_write_json(stdout, &r) != CZK_OK) return czk_cli_fail(bench, CZK_ERR_IO, "counters");
    } else {
        czk_perf_report_print(stdout, &r);
    }
    return CZK_EXIT_OK;
}
