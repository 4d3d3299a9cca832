/* czk bench cs: constraint-system synthesis speed per LC storage variant and
 * backend, on a chain of SHA-256 compressions; self-checking. */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench.h"
#include "bench_cs.h"
#include "czk/cs.h"
#include "czk/gadgets.h"
#include "czk/merkle.h"
#include "czk/sha256.h"

static const char usage[] =
    "usage: czk bench cs [-i N] [--circuit sha|merkle|all] [--blocks N] [--paths N]\n"
    "                    [--lc vec|inline1|inline2|inline4|all]\n"
    "                    [--backend prove|shape|test|witness|all] [--json] [--quiet]\n\n"
    "Synthesize, with each LC storage variant and each constraint-system backend:\n"
    "  sha     512 allocated message bits and a chain of N SHA-256 compressions\n"
    "          (bellpepper's gadget, ~26-28k constraints each);\n"
    "  merkle  N Poseidon Merkle inclusion proofs of the 32GiB tree-R shape\n"
    "          (arity 8, sub-tree 8, 2^30 leaves; rust-fil-proofs PoRCircuit).\n"
    "The CS is created once (vectors pre-sized from a first run) and reset\n"
    "between samples, as a prover reuses it. Prints\n"
    "the synthesis time min / median / max, constraints per second, ns per\n"
    "constraint, and LC buffer mallocs and pool reuses per constraint (0 mallocs\n"
    "is the goal once warm). Checks every run: the output state equals the native\n"
    "SHA-256 chain (sha, backends with values), a*b = c for every row (prove), the test\n"
    "CS is satisfied (test), the constraint count matches across backends.\n\n"
    "  -i, --iters N     timed samples per case (default 5)\n"
    "  --circuit C       sha, merkle or all (default sha)\n"
    "  --blocks N        compressions in the chain (default 8; test backend: min(N, 2))\n"
    "  --paths N         Merkle paths (default 18, one partition's tree-R proofs)\n"
    "  --lc KIND         LC storage variant, or all (default all)\n"
    "  --backend B       backend, or all (default all)\n";

enum { OPT_LC = CZK_OPT_FIRST_FREE, OPT_BACKEND, OPT_BLOCKS, OPT_CIRCUIT, OPT_PATHS };
enum { CIRCUIT_SHA = 0, CIRCUIT_MERKLE = 1 };

typedef struct opts {
    long long iters, blocks, paths;
    int lc, backend, circuit; /* -1 = all */
} opts;

static int on_opt(void *ctx, int opt, const char *arg)
{
    opts *o = ctx;
    switch (opt) {
    case 'i':
        if (czk_cli_parse_int(arg, 1, 100000, &o->iters))
            return czk_cli_usage_error("bench cs", usage, "--iters wants 1..100000, got '%s'", arg);
        return 0;
    case OPT_BLOCKS:
        if (czk_cli_parse_int(arg, 1, 100000, &o->blocks))
            return czk_cli_usage_error("bench cs", usage, "--blocks wants 1..100000, got '%s'", arg);
        return 0;
    case OPT_PATHS:
        if (czk_cli_parse_int(arg, 1, 100000, &o->paths))
            return czk_cli_usage_error("bench cs", usage, "--paths wants 1..100000, got '%s'", arg);
        return 0;
    case OPT_CIRCUIT:
        if (strcmp(arg, "sha") == 0) o->circuit = CIRCUIT_SHA;
        else if (strcmp(arg, "merkle") == 0) o->circuit = CIRCUIT_MERKLE;
        else if (strcmp(arg, "all") == 0) o->circuit = -1;
        else return czk_cli_usage_error("bench cs", usage, "--circuit wants sha|merkle|all, got '%s'", arg);
        return 0;
    case OPT_LC: {
        czk_lc_kind k;
        if (strcmp(arg, "all") == 0) o->lc = -1;
        else if (czk_lc_kind_parse(&k, arg) == CZK_OK) o->lc = (int)k;
        else return czk_cli_usage_error("bench cs", usage, "--lc wants vec|inline1|inline2|inline4|all, got '%s'", arg);
        return 0;
    }
    case OPT_BACKEND: {
        czk_cs_backend b;
        if (strcmp(arg, "all") == 0) o->backend = -1;
        else if (czk_cs_backend_parse(&b, arg) == CZK_OK) o->backend = (int)b;
        else return czk_cli_usage_error("bench cs", usage, "--backend wants prove|shape|test|witness|all, got '%s'", arg);
        return 0;
    }
    }
    return czk_cli_usage_error("bench cs", usage, "unexpected option");
}

/* One benchmark workload and its inputs. */
typedef struct workload {
    int circuit;
    const uint8_t *msg;
    unsigned blocks;
    czk_merkle_shape shape;
    unsigned paths;
    czk_fr *leaves, *siblings, *roots;
    uint64_t *index;
} workload;

/* CPU time of this thread (robust against preemption on a shared machine). */
static double thread_cpu_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static czk_status synth(czk_cs *cs, const workload *w, czk_u32 out[8])
{
    if (w->circuit == CIRCUIT_SHA) return CZK_LC_DISPATCH(cs->lc_kind, bench_sha_chain, (cs, w->msg, w->blocks, out));
    return CZK_LC_DISPATCH(cs->lc_kind, bench_merkle_paths,
                           (cs, &w->shape, w->paths, w->leaves, w->siblings, w->index, w->roots));
}

/* Random leaves, paths and their roots for the Merkle workload. */
static czk_status merkle_inputs(workload *w, unsigned paths)
{
    w->shape = (czk_merkle_shape){CZK_MERKLE_POSEIDON, 8, 9, 8, 0};
    w->paths = paths;
    size_t plen = czk_merkle_path_len(&w->shape);
    w->leaves = malloc(paths * sizeof(czk_fr));
    w->roots = malloc(paths * sizeof(czk_fr));
    w->siblings = malloc(paths * plen * sizeof(czk_fr));
    w->index = malloc(paths * sizeof(uint64_t));
    if (!w->leaves || !w->roots || !w->siblings || !w->index) return czk_error(CZK_ERR_NOMEM, "bench cs: Merkle inputs");
    czk_rng rng;
    czk_rng_seed(&rng, 7);
    uint64_t leaves = czk_merkle_leaves(&w->shape);
    for (unsigned p = 0; p < paths; p++) {
        czk_fr_random(&w->leaves[p], &rng);
        for (size_t j = 0; j < plen; j++) czk_fr_random(&w->siblings[p * plen + j], &rng);
        w->index[p] = czk_rng_below(&rng, leaves);
        CZK_TRY(czk_merkle_root_from_path(&w->roots[p], &w->shape, &w->leaves[p], w->siblings + p * plen, w->index[p]));
    }
    return CZK_OK;
}

/* Check one synthesis; returns 0 and prints why on failure. */
static int check_run(czk_cs *cs, const czk_u32 out[8], const uint32_t *want, uint64_t want_constraints)
{
    if (cs->has_values && want)
        for (int i = 0; i < 8; i++)
            if (out[i].value != want[i]) {
                fprintf(stderr, "czk bench cs: %s/%s: output word %d is %08x, native %08x\n",
                        czk_lc_kind_name(cs->lc_kind), czk_cs_backend_name(cs->backend), i, out[i].value, want[i]);
                return 0;
            }
    if (cs->needs_constraints && cs->n_constraints != want_constraints) {
        fprintf(stderr, "czk bench cs: %s/%s: %llu constraints, expected %llu\n", czk_lc_kind_name(cs->lc_kind),
                czk_cs_backend_name(cs->backend), (unsigned long long)cs->n_constraints,
                (unsigned long long)want_constraints);
        return 0;
    }
    czk_status s = CZK_OK;
    if (cs->backend == CZK_CS_PROVE) s = czk_cs_prove_check(cs);
    if (cs->backend == CZK_CS_TEST) s = czk_cs_test_check(cs);
    if (s != CZK_OK) {
        fprintf(stderr, "czk bench cs: %s/%s: %s\n", czk_lc_kind_name(cs->lc_kind), czk_cs_backend_name(cs->backend),
                czk_last_error());
        return 0;
    }
    return 1;
}

static int bench_cs_main(int argc, char **argv)
{
    opts o = {5, 8, 18, -1, -1, CIRCUIT_SHA};
    static const struct option lopts[] = {
        {"iters", required_argument, 0, 'i'},
        {"circuit", required_argument, 0, OPT_CIRCUIT},
        {"paths", required_argument, 0, OPT_PATHS},
        {"blocks", required_argument, 0, OPT_BLOCKS},
        {"lc", required_argument, 0, OPT_LC},
        {"backend", required_argument, 0, OPT_BACKEND},
        {0, 0, 0, 0},
    };
    czk_cli_common com;
    int rc = czk_cli_parse(argc, argv, "bench cs", usage, lopts, &o, on_opt, &com, NULL);
    if (rc != CZK_CLI_CONTINUE) return rc;
    czk_init();

    uint8_t msg[64];
    for (int i = 0; i < 64; i++) msg[i] = (uint8_t)(i * 37 + 11);
    double *t = malloc(sizeof(double) * (size_t)o.iters), *tc = malloc(sizeof(double) * (size_t)o.iters);
    if (!t || !tc) return czk_cli_fail("bench cs", CZK_ERR_NOMEM, "allocating samples");

    FILE *out = stdout;
    if (com.json) {
        fprintf(out, "{");
        czk_bench_print_config(out, 1, "bench", "cs");
        fprintf(out, ",\"blocks\":%lld,\"paths\":%lld,\"results\":[", o.blocks, o.paths);
    } else {
        czk_bench_print_config(out, 0, "bench", "cs");
        fprintf(out, "# sha: chain of %lld SHA-256 compressions (test backend: %lld); merkle: %lld Poseidon 8-8 paths;"
                " %lld samples\n", o.blocks, o.blocks < 2 ? o.blocks : 2, o.paths, o.iters);
        fprintf(out, "# wall-clock min/median/max; cpu = thread CPU time (min); Mcons/s from the median wall time,\n"
                     "# ns/cons from the cpu time (steadier on a shared machine)\n");
        fprintf(out, "%-6s %-8s %-8s %10s %10s %10s %10s %10s %9s %8s %9s %9s\n", "circ", "lc", "backend",
                "constraints", "min", "median", "max", "cpu", "Mcons/s", "ns/cons", "malloc/c", "reuse/c");
    }
    int failed = 0, first = 1;
    workload wl = {0};
    wl.msg = msg;
    for (int circ = 0; circ < 2 && !failed; circ++) {
    if (o.circuit >= 0 && o.circuit != circ) continue;
    wl.circuit = circ;
    if (circ == CIRCUIT_MERKLE && !wl.leaves) {
        czk_status ms = merkle_inputs(&wl, (unsigned)o.paths);
        if (ms != CZK_OK) return czk_cli_fail("bench cs", ms, "Merkle inputs");
    }
    for (int b = 0; b < CZK_CS_BACKEND_COUNT && !failed; b++) {
        if (o.backend >= 0 && o.backend != b) continue;
        unsigned blocks = (unsigned)(b == CZK_CS_TEST && o.blocks > 2 ? 2 : o.blocks);
        wl.blocks = blocks;
        uint32_t want_words[8], *want = circ == CIRCUIT_SHA ? want_words : NULL;
        memcpy(want_words, CZK_SHA256_IV, sizeof(want_words));
        for (unsigned k = 0; k < blocks; k++) czk_sha256_compress(want_words, msg);
        for (int lc = 0; lc < CZK_LC_KIND_COUNT && !failed; lc++) {
            if (o.lc >= 0 && o.lc != lc) continue;
            /* a first run to learn the sizes (and the constraint count) */
            czk_cs *cs;
            czk_u32 res[8];
            czk_status s = czk_cs_create(&cs, CZK_CS_SHAPE, (czk_lc_kind)lc, NULL);
            if (s == CZK_OK) s = synth(cs, &wl, res);
            if (s != CZK_OK) return czk_cli_fail("bench cs", s, "shape run");
            czk_cs_sizes sz = {cs->n_inputs, cs->n_aux, cs->n_constraints};
            czk_cs_destroy(cs);
            s = czk_cs_create(&cs, (czk_cs_backend)b, (czk_lc_kind)lc, &sz);
            if (s != CZK_OK) return czk_cli_fail("bench cs", s, "creating the constraint system");
            /* warm-up (also fills the LC pool) */
            s = synth(cs, &wl, res);
            if (s != CZK_OK) return czk_cli_fail("bench cs", s, "synthesis");
            if (!check_run(cs, res, want, sz.n_constraints)) {
                failed = 1;
                czk_cs_destroy(cs);
                break;
            }
            czk_lc_pool_stats p0, p1;
            czk_lc_pool_stats_get(&p0);
            for (long long it = 0; it < o.iters; it++) {
                czk_cs_reset(cs);
                double t0 = czk_now(), c0 = thread_cpu_now();
                s = synth(cs, &wl, res);
                t[it] = czk_now() - t0;
                tc[it] = thread_cpu_now() - c0;
                if (s != CZK_OK) return czk_cli_fail("bench cs", s, "synthesis");
                if ((b != CZK_CS_TEST || it == 0) && !check_run(cs, res, want, sz.n_constraints)) {
                    failed = 1;
                    break;
                }
            }
            czk_lc_pool_stats_get(&p1);
            czk_cs_destroy(cs);
            if (failed) break;
            czk_bench_stats st, sc;
            czk_bench_stats_of(&st, t, (size_t)o.iters);
            czk_bench_stats_of(&sc, tc, (size_t)o.iters);
            double ncons = (double)sz.n_constraints, total = ncons * (double)o.iters;
            double mallocs = (double)(p1.mallocs - p0.mallocs) / total, reuses = (double)(p1.reuses - p0.reuses) / total;
            if (com.json) {
                fprintf(out,
                        "%s{\"circuit\":\"%s\",\"lc\":\"%s\",\"backend\":\"%s\",\"constraints\":%llu,\"min_s\":%.6f,\"median_s\":%.6f,"
                        "\"max_s\":%.6f,\"cpu_min_s\":%.6f,\"cpu_median_s\":%.6f,\"constraints_per_s\":%.0f,\"ns_per_constraint\":%.2f,\"ns_per_enforce\":%.2f,"
                        "\"lc_mallocs_per_constraint\":%.6f,\"lc_pool_reuses_per_constraint\":%.6f}",
                        first ? "" : ",", circ ? "merkle" : "sha", czk_lc_kind_name((czk_lc_kind)lc), czk_cs_backend_name((czk_cs_backend)b),
                        (unsigned long long)sz.n_constraints, st.min, st.median, st.max, sc.min, sc.median, ncons / st.median,
                        st.median * 1e9 / ncons, b == CZK_CS_WITNESS ? 0.0 : st.median * 1e9 / ncons, mallocs, reuses);
            } else {
                char a1[32], a2[32], a3[32], a4[32];
                fprintf(out, "%-6s %-8s %-8s %10llu %10s %10s %10s %10s %9.2f %8.1f %9.4f %9.4f\n",
                        circ ? "merkle" : "sha", czk_lc_kind_name((czk_lc_kind)lc), czk_cs_backend_name((czk_cs_backend)b),
                        (unsigned long long)sz.n_constraints, czk_bench_fmt_time(a1, st.min),
                        czk_bench_fmt_time(a2, st.median), czk_bench_fmt_time(a3, st.max), czk_bench_fmt_time(a4, sc.min),
                        ncons / st.median * 1e-6,
                        sc.min * 1e9 / ncons, mallocs, reuses);
            }
            first = 0;
        }
    }
    }
    if (com.json) fprintf(out, "],\"ok\":%s}\n", failed ? "false" : "true");
    free(t);
    free(tc);
    free(wl.leaves);
    free(wl.roots);
    free(wl.siblings);
    free(wl.index);
    return failed ? CZK_EXIT_FAIL : CZK_EXIT_OK;
}

CZK_BENCH(cs, "constraint-system synthesis per LC variant and backend (SHA-256 chain)", bench_cs_main)
