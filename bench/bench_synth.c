/* czk bench synth-only: synthesis of StackedDRG PoRep partitions (cuzk's
 * `synth-only`), one partition or all of them in parallel; self-checking
 * (counts against czk_porep_sizes, a*b = c on every row, public inputs). */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "shape_opts.h"
#include "czk/czk.h"
#include "czk/perf.h"
#include "czk/porep.h"

static const char usage[] =
    "usage: czk bench synth-only (--c1 FILE | --sector-size S [--seed N] | CUSTOM SHAPE)\n"
    "                            [--partition K | --all] [-i ITER] [--lc vec|inline1|inline2|inline4]\n"
    "                            [--backend prove|witness|shape] [--seq] [--no-nnz] [--no-check]\n"
    "                            [--threads T] [--json]\n\n"
    "Synthesize PoRep partition circuits (FACTS.md §5) from a C1 file or a generated\n"
    "consistent sector, and time it. Per iteration: wall time (reset + synthesis +\n"
    "finalize), synthesis time, circuits, constraints, aux, inputs, constraints/s,\n"
    "peak RSS; then min / median. The constraint system is sized once from\n"
    "czk_porep_sizes (no reallocation) and reused across iterations.\n"
    "Also reports the A/B/C non-zero counts from a counting pass (FACTS.md §6 lists\n"
    "the 32GiB figures). Checks: counts equal czk_porep_sizes, the input vector equals\n"
    "the verifier's public inputs, and (prove) a*b = c on every row.\n\n"
    "  --c1 FILE         read a C1 output (lotus-bench envelope or plain JSON)\n" CZK_SHAPE_USAGE
    "  --seed N          generator seed for --sector-size / custom shapes (default 1)\n"
    "  --partition K     the partition to synthesize (default 0)\n"
    "  --all             every partition, in parallel (one per thread, bounded by memory;\n"
    "                    each is checked right after its synthesis: inside the wall\n"
    "                    time, outside the synth column, which sums the workers' times)\n"
    "  -i, --iters N     timed iterations (default 3)\n"
    "  --lc KIND         LC storage variant (default vec)\n"
    "  --backend B       prove (default), witness or shape\n"
    "  --seq             prove backend, one partition: synthesize the challenges one\n"
    "                    after the other through the PROVE backend (default with\n"
    "                    --threads > 1: the parallel prover, challenges on all threads,\n"
    "                    written in place; identical assignment)\n"
    "  --no-nnz          skip the counting pass (non-zeros)\n"
    "  --no-check        skip the a*b = c check of every row\n";

#define CMD "bench synth-only"

enum { OPT_C1 = CZK_OPT_FIRST_FREE, OPT_SEED, OPT_PARTITION, OPT_ALL, OPT_LC, OPT_BACKEND, OPT_NO_NNZ, OPT_NO_CHECK, OPT_SEQ };

typedef struct opts {
    czk_shape_args shape;
    const char *c1;
    unsigned long long seed;
    long long partition, iters;
    int all, no_nnz, no_check, seq;
    czk_lc_kind lc;
    czk_cs_backend backend;
} opts;

static int on_opt(void *ctx, int opt, const char *arg)
{
    opts *o = ctx;
    int rc;
    long long v;
    if (czk_shape_option(&o->shape, opt, arg, CMD, usage, &rc)) return rc;
    switch (opt) {
    case OPT_C1: o->c1 = arg; return 0;
    case OPT_SEED:
        if (czk_cli_parse_int(arg, 0, INT64_MAX, &v))
            return czk_cli_usage_error(CMD, usage, "--seed wants a non-negative integer, got '%s'", arg);
        o->seed = (unsigned long long)v;
        return 0;
    case OPT_PARTITION:
        if (czk_cli_parse_int(arg, 0, 1000, &o->partition))
            return czk_cli_usage_error(CMD, usage, "--partition wants 0..1000, got '%s'", arg);
        return 0;
    case OPT_ALL: o->all = 1; return 0;
    case OPT_NO_NNZ: o->no_nnz = 1; return 0;
    case OPT_NO_CHECK: o->no_check = 1; return 0;
    case OPT_SEQ: o->seq = 1; return 0;
    case 'i':
        if (czk_cli_parse_int(arg, 1, 10000, &o->iters))
            return czk_cli_usage_error(CMD, usage, "--iters wants 1..10000, got '%s'", arg);
        return 0;
    case OPT_LC:
        if (czk_lc_kind_parse(&o->lc, arg) != CZK_OK)
            return czk_cli_usage_error(CMD, usage, "--lc wants vec|inline1|inline2|inline4, got '%s'", arg);
        return 0;
    case OPT_BACKEND:
        if (czk_cs_backend_parse(&o->backend, arg) != CZK_OK || o->backend == CZK_CS_TEST)
            return czk_cli_usage_error(CMD, usage, "--backend wants prove|witness|shape, got '%s'", arg);
        return 0;
    }
    return czk_cli_usage_error(CMD, usage, "unexpected option");
}

/* Bytes one partition's constraint system holds (backend vectors). */
static double cs_bytes(czk_cs_backend b, const czk_cs_sizes *z, const czk_porep_counts *n)
{
    double fr = 32.0, vals = (double)(z->n_inputs + z->n_aux) * fr;
    switch (b) {
    case CZK_CS_PROVE: return vals + 3.0 * (double)z->n_constraints * fr + (double)(z->n_aux + z->n_inputs) / 4.0;
    case CZK_CS_WITNESS: return vals;
    default: {
        double terms = n ? (double)(n->terms[0] + n->terms[1] + n->terms[2]) : 6.0 * (double)z->n_constraints;
        return terms * 40.0 + 3.0 * 8.0 * (double)z->n_constraints;
    }
    }
}

static double mem_available(void)
{
    FILE *f = fopen("/proc/meminfo", "r");
    char line[256];
    double kb = 0;
    if (!f) return 0;
    while (fgets(line, sizeof line, f))
        if (sscanf(line, "MemAvailable: %lf kB", &kb) == 1) break;
    fclose(f);
    return kb * 1024.0;
}

/* The assignment's public inputs are the verifier's. */
static czk_status check_inputs(const czk_fr *in, size_t ni, const czk_fc_c1 *c1, uint32_t k, size_t nin)
{
    czk_fr *pub = malloc(nin * sizeof *pub);
    if (!pub) return czk_error(CZK_ERR_NOMEM, "public inputs");
    pub[0] = CZK_FR_ONE;
    czk_status s = czk_porep_public_inputs(pub + 1, c1, k);
    if (s == CZK_OK && (ni != nin || memcmp(in, pub, nin * sizeof *pub) != 0))
        s = czk_error(CZK_ERR_INTERNAL, "partition %u: the circuit's public inputs differ from the verifier's", k);
    free(pub);
    return s;
}

/* Self-check of one synthesized partition. */
static czk_status check_partition(czk_cs *cs, const czk_cs_sizes *z, const czk_fc_c1 *c1, uint32_t k, int rows)
{
    if (cs->n_inputs != z->n_inputs || cs->n_aux != z->n_aux ||
        (cs->needs_constraints && cs->n_constraints != z->n_constraints))
        return czk_error(CZK_ERR_INTERNAL,
                         "partition %u: %u inputs, %u aux, %llu constraints; czk_porep_sizes says %llu, %llu, %llu", k,
                         cs->n_inputs, cs->n_aux, (unsigned long long)cs->n_constraints,
                         (unsigned long long)z->n_inputs, (unsigned long long)z->n_aux,
                         (unsigned long long)z->n_constraints);
    if (!cs->has_values) return CZK_OK;
    const czk_fr *in = NULL;
    size_t ni = 0;
    czk_status s;
    if (cs->backend == CZK_CS_PROVE) {
        czk_cs_assignment a;
        s = czk_cs_prove_get(cs, &a);
        in = a.input;
        ni = a.n_input;
        if (s == CZK_OK && rows) s = czk_cs_prove_check(cs);
    } else {
        const czk_fr *aux;
        size_t na;
        s = czk_cs_witness_get(cs, &in, &ni, &aux, &na);
    }
    if (s == CZK_OK) s = check_inputs(in, ni, c1, k, (size_t)z->n_inputs);
    return s;
}

typedef struct worker {
    czk_cs *cs;
    czk_status st;
    double synth_s;
    uint64_t circuits;
} worker;

static void *destroy_thread(void *p)
{
    czk_cs_destroy(p);
    return NULL;
}

/* Free a constraint system without waiting (tens of GiB take a while). */
static void destroy_background(czk_cs *cs, pthread_t *t, int *have)
{
    *have = pthread_create(t, NULL, destroy_thread, cs) == 0;
    if (!*have) czk_cs_destroy(cs);
}

/* CPU time of the whole process (all threads): robust against other load on
 * a shared machine, where wall time is not. */
static double process_cpu_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static int bench_synth_main(int argc, char **argv)
{
    opts o;
    memset(&o, 0, sizeof o);
    o.seed = 1;
    o.iters = 3;
    o.lc = CZK_LC_VEC;
    o.backend = CZK_CS_PROVE;
    static const struct option lopts[] = {
        CZK_SHAPE_OPTIONS,
        {"c1", required_argument, 0, OPT_C1},
        {"seed", required_argument, 0, OPT_SEED},
        {"partition", required_argument, 0, OPT_PARTITION},
        {"all", no_argument, 0, OPT_ALL},
        {"iters", required_argument, 0, 'i'},
        {"lc", required_argument, 0, OPT_LC},
        {"backend", required_argument, 0, OPT_BACKEND},
        {"no-nnz", no_argument, 0, OPT_NO_NNZ},
        {"no-check", no_argument, 0, OPT_NO_CHECK},
        {"seq", no_argument, 0, OPT_SEQ},
        {0, 0, 0, 0},
    };
    czk_cli_common com;
    int rc = czk_cli_parse(argc, argv, CMD, usage, lopts, &o, on_opt, &com, NULL);
    if (rc != CZK_CLI_CONTINUE) return rc;
    if (o.c1 && (o.shape.have_size || o.shape.have_custom))
        return czk_cli_usage_error(CMD, usage, "--c1 and a shape (--sector-size / custom) exclude each other");
    if (!o.c1 && !o.shape.have_size && !o.shape.have_custom)
        return czk_cli_usage_error(CMD, usage, "give --c1 FILE, --sector-size S or a custom shape");
    if (o.all && o.partition)
        return czk_cli_usage_error(CMD, usage, "--all and --partition exclude each other");
    czk_cli_apply_common(&com);
    czk_init();

    czk_fc_c1 c1;
    czk_fc_shape shape;
    memset(&c1, 0, sizeof c1);
    double tg0 = czk_bench_now();
    if (o.c1) {
        czk_status s = czk_fc_c1_read(&c1, o.c1);
        if (s != CZK_OK) return czk_cli_fail(CMD, s, "reading the C1 file");
        shape = c1.shape;
    } else {
        if (czk_shape_resolve(&shape, &o.shape, CMD, usage) != 0) return CZK_EXIT_USAGE;
        czk_status s = czk_fc_gen_c1(&c1, &shape, o.seed, NULL, NULL);
        if (s != CZK_OK) return czk_cli_fail(CMD, s, "generating a synthetic sector");
    }
    double gen_s = czk_bench_now() - tg0;
    if ((uint64_t)o.partition >= shape.partitions) {
        czk_fc_c1_free(&c1);
        return czk_cli_usage_error(CMD, usage, "--partition %lld: the sector has %u partitions", o.partition,
                                   shape.partitions);
    }
    czk_cs_sizes z;
    czk_status s = czk_porep_sizes(&z, &shape);
    if (s != CZK_OK) return czk_cli_fail(CMD, s, "circuit sizes");

    czk_porep_counts cnt;
    int have_cnt = 0;
    double cnt_s = 0;
    if (!o.no_nnz) {
        double t0 = czk_bench_now();
        s = czk_porep_count(&cnt, &shape, o.lc);
        cnt_s = czk_bench_now() - t0;
        if (s != CZK_OK) return czk_cli_fail(CMD, s, "counting pass");
        if (cnt.n_inputs != z.n_inputs || cnt.n_aux != z.n_aux || cnt.n_constraints != z.n_constraints) {
            fprintf(stderr, "czk " CMD ": counting pass %llu/%llu/%llu != czk_porep_sizes %llu/%llu/%llu\n",
                    (unsigned long long)cnt.n_inputs, (unsigned long long)cnt.n_aux,
                    (unsigned long long)cnt.n_constraints, (unsigned long long)z.n_inputs,
                    (unsigned long long)z.n_aux, (unsigned long long)z.n_constraints);
            return CZK_EXIT_FAIL;
        }
        have_cnt = 1;
    }

    /* partitions and workers (memory bound) */
    uint32_t nparts = o.all ? shape.partitions : 1, first = o.all ? 0 : (uint32_t)o.partition;
    double per = cs_bytes(o.backend, &z, have_cnt ? &cnt : NULL), avail = mem_available();
    int threads = czk_threads() > 0 ? czk_threads() : 1;
    int nw = o.all ? threads : 1;
    if (nw > (int)nparts) nw = (int)nparts;
    if (avail > 0 && o.all) {
        int fit = (int)(avail * 0.9 / per);
        if (fit < nw) nw = fit < 1 ? 1 : fit;
    }
    /* the parallel prover: one partition, or --all when one partition at a
     * time is what memory allows */
    const int par = o.backend == CZK_CS_PROVE && !o.seq && threads > 1 && nw == 1;
    if (avail > 0 && per > avail)
        fprintf(stderr, "czk " CMD ": warning: one partition needs ~%.1f GiB, %.1f GiB available\n", per / 1073741824.0,
                avail / 1073741824.0);

    FILE *out = stdout;
    char cfg[160];
    snprintf(cfg, sizeof cfg, "%s lc=%s backend=%s%s", czk_fc_proof_name(shape.proof), czk_lc_kind_name(o.lc),
             czk_cs_backend_name(o.backend), par ? " (parallel prover)" : "");
    if (com.json) {
        fprintf(out, "{");
        czk_bench_print_config(out, 1, "bench", "synth-only");
        fprintf(out,
                ",\"proof\":\"%s\",\"sector_size\":%llu,\"lc\":\"%s\",\"backend\":\"%s\",\"partitions\":%u,"
                "\"workers\":%d,\"parallel_prover\":%s,\"inputs\":%llu,\"aux\":%llu,\"constraints\":%llu,\"circuit_constraints\":%llu",
                czk_fc_proof_name(shape.proof), (unsigned long long)shape.sector_size, czk_lc_kind_name(o.lc),
                czk_cs_backend_name(o.backend), nparts, nw, par ? "true" : "false", (unsigned long long)z.n_inputs,
                (unsigned long long)z.n_aux, (unsigned long long)z.n_constraints,
                (unsigned long long)(z.n_constraints - z.n_inputs));
        if (have_cnt)
            fprintf(out,
                    ",\"nnz_a\":%llu,\"nnz_b\":%llu,\"nnz_c\":%llu,\"nonzero_coeff_a\":%llu,\"nonzero_coeff_b\":%llu,"
                    "\"nonzero_coeff_c\":%llu,\"count_pass_s\":%.3f",
                    (unsigned long long)cnt.terms[0], (unsigned long long)cnt.terms[1],
                    (unsigned long long)cnt.terms[2], (unsigned long long)cnt.nnz[0], (unsigned long long)cnt.nnz[1],
                    (unsigned long long)cnt.nnz[2], cnt_s);
        fprintf(out, ",\"iterations\":[");
    } else {
        czk_bench_print_config(out, 0, "bench", cfg);
        fprintf(out, "# %s: %u layers, %u partitions x %u challenges, trees %u,%u,%u h%u, tree D h%u (%s %.2f s)\n",
                czk_fc_proof_name(shape.proof), shape.layers, shape.partitions, shape.challenges, shape.base_arity,
                shape.sub_arity, shape.top_arity, shape.base_height, shape.d_height, o.c1 ? "read" : "generated",
                gen_s);
        fprintf(out, "# per partition: %llu inputs, %llu aux, %llu constraints (%llu + %llu input constraints)\n",
                (unsigned long long)z.n_inputs, (unsigned long long)z.n_aux, (unsigned long long)z.n_constraints,
                (unsigned long long)(z.n_constraints - z.n_inputs), (unsigned long long)z.n_inputs);
        if (have_cnt)
            fprintf(out,
                    "# non-zeros (LC terms) A %llu, B %llu, C %llu; with a non-zero coefficient A %llu, B %llu, "
                    "C %llu (counting pass %.2f s)\n",
                    (unsigned long long)cnt.terms[0], (unsigned long long)cnt.terms[1],
                    (unsigned long long)cnt.terms[2], (unsigned long long)cnt.nnz[0], (unsigned long long)cnt.nnz[1],
                    (unsigned long long)cnt.nnz[2], cnt_s);
        if (par)
            fprintf(out,
                    "# %u partition(s) one at a time, the %u challenges of each on %d threads (parallel prover), "
                    "~%.2f GiB; %lld iterations\n",
                    nparts, shape.challenges, threads, per / 1073741824.0, o.iters);
        else
            fprintf(out, "# %u partition(s) on %d worker(s), ~%.2f GiB each; %lld iterations\n", nparts, nw,
                    per / 1073741824.0, o.iters);
        fprintf(out, "# cpu = process CPU time of the iteration (all threads; steadier than wall on a shared machine)\n");
        fprintf(out, "%5s %10s %10s %10s %8s %13s %12s %8s %12s %10s\n", "iter", "wall", "synth", "cpu", "circuits",
                "constraints", "aux", "inputs", "cons/s", "peakRSS");
    }

    worker *w = calloc((size_t)nw, sizeof *w);
    double *wall = calloc((size_t)o.iters, sizeof(double)), *syn = calloc((size_t)o.iters, sizeof(double));
    double *cpu = calloc((size_t)o.iters, sizeof(double));
    if (!w || !wall || !syn || !cpu) return czk_cli_fail(CMD, czk_error(CZK_ERR_NOMEM, "samples"), "allocating");
    czk_porep_prover *pp = NULL;
    if (par) {
        s = czk_porep_prover_create(&pp, &shape, o.lc);
        if (s != CZK_OK) return czk_cli_fail(CMD, s, "creating the parallel prover");
    } else
        for (int i = 0; i < nw; i++) {
            s = czk_cs_create(&w[i].cs, o.backend, o.lc, &z);
            if (s != CZK_OK) return czk_cli_fail(CMD, s, "creating the constraint system");
        }
    int failed = 0;
    for (long long it = 0; it < o.iters && !failed; it++) {
        double t0 = czk_bench_now(), cpu0 = process_cpu_now();
        if (par) {
            /* partitions one after the other; wall and cpu exclude the checks */
            wall[it] = syn[it] = cpu[it] = 0;
            s = CZK_OK;
            for (uint32_t q = first; q < first + nparts && s == CZK_OK; q++) {
                t0 = czk_bench_now();
                cpu0 = process_cpu_now();
                czk_perf_begin();
                s = czk_porep_prover_synthesize(pp, &c1, q, threads);
                czk_perf_end();
                wall[it] += czk_bench_now() - t0;
                cpu[it] += process_cpu_now() - cpu0;
                if (s == CZK_OK && !o.no_check) s = czk_porep_prover_check(pp, threads);
                czk_cs_assignment asg;
                if (s == CZK_OK) s = czk_porep_prover_get(pp, &asg);
                if (s == CZK_OK) s = check_inputs(asg.input, asg.n_input, &c1, q, (size_t)z.n_inputs);
                if (s == CZK_OK && (asg.n_aux != z.n_aux || asg.n_constraints != z.n_constraints))
                    s = czk_error(CZK_ERR_INTERNAL, "parallel prover: counts differ from czk_porep_sizes");
            }
            syn[it] = wall[it];
            if (s != CZK_OK) {
                fprintf(stderr, "czk " CMD ": %s\n", czk_last_error());
                failed = 1;
                break;
            }
            w[0].circuits = 1;
            goto report;
        }
        czk_perf_begin();
#pragma omp parallel for num_threads(nw) schedule(static, 1) if (nw > 1)
        for (int wi = 0; wi < nw; wi++) {
            worker *me = &w[wi];
            me->st = CZK_OK;
            me->synth_s = 0;
            me->circuits = 0;
            for (uint32_t p = (uint32_t)wi; p < nparts && me->st == CZK_OK; p += (uint32_t)nw) {
                czk_cs_reset(me->cs);
                double a = czk_bench_now();
                me->st = czk_porep_synthesize(me->cs, &shape, o.backend == CZK_CS_SHAPE ? NULL : &c1, first + p);
                me->synth_s += czk_bench_now() - a;
                if (me->st == CZK_OK) me->st = czk_cs_finalize(me->cs);
                if (me->st == CZK_OK && nw > 1) me->st = check_partition(me->cs, &z, &c1, first + p, !o.no_check);
                me->circuits++;
            }
        }
        czk_perf_end();
        wall[it] = czk_bench_now() - t0;
        cpu[it] = process_cpu_now() - cpu0;
        syn[it] = 0;
        for (int wi = 0; wi < nw; wi++) {
            if (w[wi].st != CZK_OK) {
                fprintf(stderr, "czk " CMD ": %s\n", czk_last_error());
                failed = 1;
            }
            syn[it] += w[wi].synth_s;
        }
        /* one worker: check outside the timed section */
        if (!failed && nw == 1) {
            s = check_partition(w[0].cs, &z, &c1, first + nparts - 1, !o.no_check);
            if (s != CZK_OK) {
                fprintf(stderr, "czk " CMD ": check failed: %s\n", czk_last_error());
                failed = 1;
            }
        }
        if (failed) break;
    report:;
        uint64_t circuits = par ? nparts : 0;
        for (int wi = 0; wi < nw && !par; wi++) circuits += w[wi].circuits;
        double cons = (double)(z.n_constraints - z.n_inputs) * (double)circuits;
        unsigned long long rss = czk_bench_peak_rss();
        if (com.json)
            fprintf(out,
                    "%s{\"wall_s\":%.6f,\"synth_s\":%.6f,\"circuits\":%llu,\"constraints\":%.0f,\"aux\":%llu,"
                    "\"inputs\":%llu,\"constraints_per_s\":%.0f,\"peak_rss_bytes\":%llu,\"cpu_s\":%.6f}",
                    it ? "," : "", wall[it], syn[it], (unsigned long long)circuits, cons,
                    (unsigned long long)(z.n_aux * circuits), (unsigned long long)(z.n_inputs * circuits),
                    cons / wall[it], rss, cpu[it]);
        else {
            char a1[32], a2[32];
            char a3[32];
            fprintf(out, "%5lld %10s %10s %10s %8llu %13.0f %12llu %8llu %12.0f %8.2fGiB\n", it,
                    czk_bench_fmt_time(a1, wall[it]), czk_bench_fmt_time(a2, syn[it]), czk_bench_fmt_time(a3, cpu[it]),
                    (unsigned long long)circuits, cons, (unsigned long long)(z.n_aux * circuits),
                    (unsigned long long)(z.n_inputs * circuits), cons / wall[it], (double)rss / 1073741824.0);
        }
        fflush(out);
    }
    pthread_t bg[64];
    int have_bg[64] = {0};
    czk_porep_prover_destroy(pp);
    for (int i = 0; i < nw && !par; i++) {
        if (i < 64) destroy_background(w[i].cs, &bg[i], &have_bg[i]);
        else czk_cs_destroy(w[i].cs);
    }
    if (!failed) {
        qsort(wall, (size_t)o.iters, sizeof(double), cmp_double);
        qsort(syn, (size_t)o.iters, sizeof(double), cmp_double);
        qsort(cpu, (size_t)o.iters, sizeof(double), cmp_double);
        double wmed = wall[o.iters / 2], smed = syn[o.iters / 2];
        double cons = (double)(z.n_constraints - z.n_inputs) * nparts;
        if (com.json)
            fprintf(out, "],\"wall_min_s\":%.6f,\"wall_median_s\":%.6f,\"synth_min_s\":%.6f,\"synth_median_s\":%.6f,"
                         "\"cpu_min_s\":%.6f,\"constraints_per_s\":%.0f,\"peak_rss_bytes\":%llu,\"ok\":true}\n",
                    wall[0], wmed, syn[0], smed, cpu[0], cons / wmed, czk_bench_peak_rss());
        else {
            char a1[32], a2[32], a3[32], a4[32];
            char a5[32];
            fprintf(out, "min    %10s %10s %10s   median wall %s / synth %s   %.0f constraints/s (median wall)   peak RSS %.2f GiB\n",
                    czk_bench_fmt_time(a1, wall[0]), czk_bench_fmt_time(a2, syn[0]), czk_bench_fmt_time(a5, cpu[0]),
                    czk_bench_fmt_time(a3, wmed), czk_bench_fmt_time(a4, smed), cons / wmed,
                    (double)czk_bench_peak_rss() / 1073741824.0);
            fprintf(out, "checks: counts = czk_porep_sizes%s%s: ok\n",
                    o.backend == CZK_CS_SHAPE ? "" : ", public inputs",
                    o.backend == CZK_CS_PROVE && !o.no_check ? ", a*b = c on every row" : "");
        }
    } else if (com.json) {
        fprintf(out, "],\"ok\":false}\n");
    }
    for (int i = 0; i < nw && i < 64 && !par; i++)
        if (have_bg[i]) pthread_join(bg[i], NULL);
    free(w);
    free(wall);
    free(syn);
    free(cpu);
    czk_fc_c1_free(&c1);
    return failed ? CZK_EXIT_FAIL : CZK_EXIT_OK;
}

__attribute__((constructor)) static void register_synth_only(void)
{
    czk__cli_register("synth-only", "PoRep partition synthesis (cuzk synth-only): time, counts, non-zeros",
                      bench_synth_main, 1);
}
