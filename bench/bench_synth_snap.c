/* czk bench synth-only --circuit snap: synthesis of one EmptySectorUpdate
 * partition (czk/snap.h) of a generated update or a real one (--vanilla
 * DIR), timed and self-checked (counts against the closed form and the
 * counting pass, public inputs against czk_snap_public_inputs, a*b = c),
 * then the digest pass of --r1cs-digest (bench_r1cs.c). Three ways to
 * synthesize: sequentially into a constraint system of the chosen backend
 * (--seq, or one thread), the parallel prover (the partition's challenges
 * split across threads; the kind's "parallel" witness source), or PCE
 * (parallel witness-only synthesis + sparse mat-vec over the cached
 * matrices; --pce on, or both for off and on in one run). */
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "czk/czk.h"
#include "czk/perf.h"
#include "pce/pce_internal.h"
#include "czk/snap.h"
#include "czk/snap_kind.h"

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* The input vector (with ONE) against the verifier's public inputs. */
static czk_status inputs_check(const czk_fr *in, size_t ni, const czk_fr *pub)
{
    if (ni != CZK_SNAP_PUBLIC_INPUTS + 1 || !czk_fr_eq(&in[0], &CZK_FR_ONE) ||
        memcmp(in + 1, pub, CZK_SNAP_PUBLIC_INPUTS * sizeof *pub) != 0)
        return czk_error(CZK_ERR_INTERNAL, "the circuit's public inputs differ from czk_snap_public_inputs");
    return CZK_OK;
}

/* The synthesized partition against the closed form and the verifier. */
static czk_status snap_check(czk_cs *cs, const czk_snap_counts *n, const czk_fr *pub, int rows)
{
    if (cs->n_inputs != n->inputs || cs->n_aux != n->aux ||
        (cs->needs_constraints && cs->n_constraints != n->constraints + n->inputs))
        return czk_error(CZK_ERR_INTERNAL,
                         "%u inputs, %u aux, %llu constraints; czk_snap_circuit_counts says %llu, %llu, %llu "
                         "(+ inputs)",
                         cs->n_inputs, cs->n_aux, (unsigned long long)cs->n_constraints,
                         (unsigned long long)n->inputs, (unsigned long long)n->aux,
                         (unsigned long long)n->constraints);
    if (!cs->has_values) return CZK_OK;
    const czk_fr *in, *aux;
    size_t ni, na;
    if (cs->backend == CZK_CS_PROVE) {
        czk_cs_assignment a;
        CZK_TRY(czk_cs_prove_get(cs, &a));
        if (rows) CZK_TRY(czk_cs_prove_check(cs));
        in = a.input;
        ni = a.n_input;
    } else {
        CZK_TRY(czk_cs_witness_get(cs, &in, &ni, &aux, &na));
    }
    return inputs_check(in, ni, pub);
}

/* Medians and minima of one mode's iterations. */
typedef struct mode_sum {
    double wall, cpu, wall_min, cpu_min;
} mode_sum;

static void summarize(mode_sum *m, double *wall, double *cpu, long long n)
{
    qsort(wall, (size_t)n, sizeof(double), cmp_double);
    qsort(cpu, (size_t)n, sizeof(double), cmp_double);
    m->wall = wall[n / 2];
    m->cpu = cpu[n / 2];
    m->wall_min = wall[0];
    m->cpu_min = cpu[0];
}

/* One timed iteration's line (text) or object (json; first: no comma). */
static void print_iter(FILE *out, int json, int first, long long it, double wall, double cpu, double part1,
                       double part2, double cons)
{
    unsigned long long rss = czk_bench_peak_rss();
    if (json) {
        fprintf(out, "%s{\"wall_s\":%.6f,\"cpu_s\":%.6f", first ? "" : ",", wall, cpu);
        if (part1 >= 0) fprintf(out, ",\"witness_s\":%.6f,\"matvec_s\":%.6f", part1, part2);
        fprintf(out, ",\"constraints_per_s\":%.0f,\"peak_rss_bytes\":%llu}", cons / wall, rss);
        return;
    }
    char a1[32], a2[32], a3[32], a4[32];
    if (part1 >= 0)
        fprintf(out, "%5lld %10s %10s %10s %10s %12.0f %8.2fGiB\n", it, czk_bench_fmt_time(a1, wall),
                czk_bench_fmt_time(a2, cpu), czk_bench_fmt_time(a3, part1), czk_bench_fmt_time(a4, part2),
                cons / wall, (double)rss / 1073741824.0);
    else
        fprintf(out, "%5lld %10s %10s %12.0f %8.2fGiB\n", it, czk_bench_fmt_time(a1, wall),
                czk_bench_fmt_time(a2, cpu), cons / wall, (double)rss / 1073741824.0);
    fflush(out);
}

/* The parallel prover (the kind's "parallel" source), iters times: each
 * iteration synthesizes, then (outside the timing) checks a*b = c and the
 * public inputs. */
static czk_status run_parallel(FILE *out, int json, const czk_snap_vanilla *v, uint32_t k, const czk_cs_sizes *z,
                               long long iters, czk_lc_kind lc, int no_check, const czk_fr *pub, mode_sum *sum)
{
    const int threads = czk_threads() > 0 ? czk_threads() : 1;
    czk_source_opts o;
    memset(&o, 0, sizeof o);
    o.lc = lc;
    o.parallel = 1;
    czk_witness_source src;
    CZK_TRY(czk_kind_snap.source_open(&src, v, &o));
    czk_witness *w = NULL;
    czk_status st = src.ops->create(&w, &src, z);
    double *wall = calloc((size_t)iters, sizeof(double)), *cpu = calloc((size_t)iters, sizeof(double));
    if (st == CZK_OK && (!wall || !cpu)) st = czk_error(CZK_ERR_NOMEM, "samples");
    if (!json)
        fprintf(out, "# parallel prover: the %u challenges on %d threads, written in place\n%5s %10s %10s %12s %10s\n",
                v->shape.challenges, threads, "iter", "wall", "cpu", "cons/s", "peakRSS");
    else
        fprintf(out, ",\"parallel\":{\"threads\":%d,\"iterations\":[", threads);
    for (long long it = 0; it < iters && st == CZK_OK; it++) {
        double w0 = czk_now(), c0 = czk_cpu_now();
        czk_perf_begin();
        st = src.ops->synthesize(w, v, k, threads);
        czk_perf_end();
        wall[it] = czk_now() - w0;
        cpu[it] = czk_cpu_now() - c0;
        czk_cs_assignment a;
        if (st == CZK_OK && !no_check) st = src.ops->check(w, threads);
        if (st == CZK_OK) st = src.ops->get(w, &a);
        if (st == CZK_OK && a.n_constraints != z->n_constraints)
            st = czk_error(CZK_ERR_INTERNAL, "parallel prover: %zu rows, expected %llu", a.n_constraints,
                           (unsigned long long)z->n_constraints);
        if (st == CZK_OK) st = inputs_check(a.input, a.n_input, pub);
        if (st == CZK_OK) print_iter(out, json, it == 0, it, wall[it], cpu[it], -1, -1, (double)z->n_constraints);
    }
    if (st == CZK_OK) {
        summarize(sum, wall, cpu, iters);
        if (json) fprintf(out, "],\"wall_median_s\":%.6f,\"cpu_median_s\":%.6f}", sum->wall, sum->cpu);
    }
    free(wall);
    free(cpu);
    if (w) src.ops->destroy(w);
    czk_witness_source_close(&src);
    return st;
}

static void pce_progress(void *ctx, const char *stage, double f)
{
    (void)ctx, (void)stage, (void)f;
}

/* PCE: the shape's matrices from the cache (built on first use), then per
 * iteration the parallel witness and the mat-vec, timed apart; checks as
 * above; validate: the streamed comparison with the parallel PROVE
 * synthesis afterwards (a, b, c released first). */
/* Rows of a, b, c evaluated per chunk when streaming. */
#define STREAM_ROWS ((uint64_t)1024 * CZK_PCE_BLOCK)

/* a, b, c of every row in chunks (3 x STREAM_ROWS values), each chunk
 * checked (a*b = c) and dropped: the mat-vec without the full assignment.
 * *check_wall / *check_cpu: the time the checks took (to leave them out of
 * the timed region, as the full mode does). */
static czk_status eval_streamed(const czk_pce *p, czk_fr *buf, const czk_fr *in, size_t ni, const czk_fr *aux,
                                size_t na, uint64_t rows, int threads, int check, double *check_wall,
                                double *check_cpu)
{
    *check_wall = *check_cpu = 0;
    for (uint64_t r0 = 0; r0 < rows; r0 += STREAM_ROWS) {
        uint64_t r1 = r0 + STREAM_ROWS < rows ? r0 + STREAM_ROWS : rows;
        czk_fr *a = buf, *b = buf + STREAM_ROWS, *c = buf + 2 * STREAM_ROWS;
        CZK_TRY(czk_pce_eval_range(p, a, b, c, r0, r1, in, ni, aux, na, threads));
        if (!check) continue;
        czk_cs_assignment chunk;
        memset(&chunk, 0, sizeof chunk);
        chunk.a = a;
        chunk.b = b;
        chunk.c = c;
        chunk.n_constraints = (size_t)(r1 - r0);
        double w0 = czk_now(), c0 = czk_cpu_now();
        czk_status st = czk_pce_check(&chunk, threads);
        *check_wall += czk_now() - w0;
        *check_cpu += czk_cpu_now() - c0;
        if (st != CZK_OK) return czk_error(st, "row %llu and after: %s", (unsigned long long)r0, czk_last_error());
    }
    return CZK_OK;
}

static czk_status run_pce(FILE *out, int json, const czk_snap_vanilla *v, uint32_t k, const czk_cs_sizes *z,
                          long long iters, int no_check, int validate, int force_stream, const czk_fr *pub,
                          mode_sum *sum)
{
    const int threads = czk_threads() > 0 ? czk_threads() : 1;
    double t0 = czk_now();
    czk_pce *p = NULL;
    int built = 0;
    CZK_TRY(czk_pce_snap_get(&p, &v->shape, pce_progress, NULL, &built));
    const double load_s = czk_now() - t0;
    czk_pce_info in;
    czk_pce_info_get(p, &in);
    /* the full assignment, or a, b, c streamed when it does not fit */
    const double fr = (double)sizeof(czk_fr), GiB = 1073741824.0;
    const double wit_b = (double)(z->n_inputs + z->n_aux) * fr, abc_b = 3.0 * (double)in.rows * fr;
    const double avail = czk_bench_mem_available();
    const int stream = force_stream || (avail > 0 && wit_b + abc_b > 0.9 * avail);
    czk_pce_work *w = NULL;
    czk_fr *buf = NULL;
    czk_status st = czk_pce_work_create(&w, p);
    if (st == CZK_OK && !stream) st = czk_pce_work_reserve(w, threads);
    if (st == CZK_OK && stream && !(buf = malloc(3 * (size_t)STREAM_ROWS * sizeof(czk_fr))))
        st = czk_error(CZK_ERR_NOMEM, "PCE chunk buffers");
    double *wall = calloc((size_t)iters, sizeof(double)), *cpu = calloc((size_t)iters, sizeof(double));
    if (st == CZK_OK && (!wall || !cpu)) st = czk_error(CZK_ERR_NOMEM, "samples");
    if (json)
        fprintf(out,
                ",\"pce\":{\"built\":%s,\"stream\":%s,\"load_s\":%.3f,\"rows\":%llu,\"cols\":%llu,"
                "\"nnz\":[%llu,%llu,%llu],"
                "\"bytes\":%zu,\"bytes_per_nnz\":%.4f,\"threads\":%d,\"iterations\":[",
                built ? "true" : "false", stream ? "true" : "false", load_s, (unsigned long long)in.rows,
                (unsigned long long)in.cols,
                (unsigned long long)in.nnz[0], (unsigned long long)in.nnz[1], (unsigned long long)in.nnz[2],
                in.bytes, in.bytes_per_nnz, threads);
    else
        fprintf(out,
                "# PCE %s in %.2f s: %llu rows, %llu columns, non-zeros A %llu, B %llu, C %llu; %.2f GiB, %.3f "
                "bytes/non-zero\n# mode: %s; witness %.2f GiB, a/b/c %.2f GiB, %.1f GiB available\n"
                "# witness: challenges on %d threads; mat-vec: row blocks on %d threads\n"
                "%5s %10s %10s %10s %10s %12s %10s\n",
                built ? "built (now cached)" : "read from the cache", load_s, (unsigned long long)in.rows,
                (unsigned long long)in.cols, (unsigned long long)in.nnz[0], (unsigned long long)in.nnz[1],
                (unsigned long long)in.nnz[2], (double)in.bytes / GiB, in.bytes_per_nnz,
                stream ? "streamed a,b,c (3 x 2^20-row chunks, checked chunk by chunk)" : "full assignment",
                wit_b / GiB, stream ? 3.0 * (double)STREAM_ROWS * fr / GiB : abc_b / GiB, avail / GiB, threads,
                threads, "iter", "wall", "cpu", "witness", "mat-vec", "cons/s", "peakRSS");
    for (long long it = 0; it < iters && st == CZK_OK; it++) {
        double w0 = czk_now(), c0 = czk_cpu_now();
        czk_perf_begin();
        st = czk_snap_pce_witness(w, v, k, threads);
        double w1 = czk_now();
        czk_cs_assignment a;
        const czk_fr *in_v = NULL, *aux_v = NULL;
        size_t ni = 0, na = 0;
        double chk_w = 0, chk_c = 0;
        if (st == CZK_OK && !stream) {
            st = czk_pce_work_eval(w, threads, &a);
            in_v = a.input;
            ni = a.n_input;
        } else if (st == CZK_OK) {
            /* the chunks are checked as they are made (inside the timing) */
            in_v = w->v.input;
            aux_v = w->v.aux;
            ni = w->n_input;
            na = w->n_aux;
            st = eval_streamed(p, buf, in_v, ni, aux_v, na, in.rows, threads, !no_check, &chk_w, &chk_c);
        }
        czk_perf_end();
        wall[it] = czk_now() - w0 - chk_w;
        cpu[it] = czk_cpu_now() - c0 - chk_c;
        if (st == CZK_OK && !no_check && !stream) st = czk_pce_check(&a, threads);
        if (st == CZK_OK) st = inputs_check(in_v, ni, pub);
        if (st == CZK_OK)
            print_iter(out, json, it == 0, it, wall[it], cpu[it], w1 - w0, wall[it] - (w1 - w0),
                       (double)z->n_constraints);
    }
    if (st == CZK_OK) {
        summarize(sum, wall, cpu, iters);
        if (json) fprintf(out, "],\"wall_median_s\":%.6f,\"cpu_median_s\":%.6f", sum->wall, sum->cpu);
    }
    if (st == CZK_OK && validate) {
        /* a fresh workspace without a, b, c: the witness, then the PROVE rows
         * window by window against the PCE's */
        czk_pce_work_destroy(w);
        w = NULL;
        double tv = czk_now();
        st = czk_pce_work_create(&w, p);
        if (st == CZK_OK) st = czk_snap_pce_witness(w, v, k, threads);
        if (st == CZK_OK) st = czk_snap_pce_validate(w, v, k, threads);
        if (st == CZK_OK) {
            if (json) fprintf(out, ",\"validate\":{\"ok\":true,\"s\":%.3f}", czk_now() - tv);
            else
                fprintf(out, "validate: input, aux, a, b, c and the densities equal the parallel PROVE synthesis "
                             "bit for bit (streamed, %.2f s)\n", czk_now() - tv);
        }
    }
    if (json && st == CZK_OK) fprintf(out, "}");
    free(wall);
    free(cpu);
    free(buf);
    czk_pce_work_destroy(w);
    czk_pce_destroy(p);
    return st;
}

/* The partition for the digest pass. */
typedef struct snap_synth_ctx {
    const czk_snap_shape *s;
    const czk_snap_vanilla *v;
    uint32_t k;
} snap_synth_ctx;

static czk_status snap_synth(czk_cs *cs, const void *ctx)
{
    const snap_synth_ctx *p = ctx;
    return czk_snap_synthesize(cs, p->s, p->v, p->k);
}

int czk__bench_synth_snap(const czk__snap_bench *b, const czk_cli_common *com)
{
    const char *cmd = "bench synth-only";
    FILE *out = stdout;
    const long long iters = b->iters;
    const czk_lc_kind lc = b->lc;
    const czk_cs_backend backend = b->backend;
    const int no_count = b->no_count, no_check = b->no_check;
    const uint32_t k = b->partition;
    czk_snap_shape shape;
    czk_snap_vanilla v;
    double t0 = czk_now();
    czk_status st;
    if (b->vanilla_dir) {
        czk_snap_json j;
        st = czk_snap_dir_read(&v, &j, b->vanilla_dir);
        if (st != CZK_OK) return czk_cli_fail(cmd, st, "reading the vanilla proofs");
        shape = j.shape;
    } else {
        shape = *b->shape;
        st = czk_snap_gen(&v, &shape, b->seed);
        if (st != CZK_OK) return czk_cli_fail(cmd, st, "generating an update");
    }
    const czk_snap_shape *s = &shape;
    const double gen_s = czk_now() - t0;
    czk_snap_counts n;
    czk_snap_circuit_counts(&n, s);
    czk_fr pub[CZK_SNAP_PUBLIC_INPUTS];
    double *wall = calloc((size_t)iters, sizeof(double)), *cpu = calloc((size_t)iters, sizeof(double));
    int rc = CZK_EXIT_FAIL;
    czk_cs *cs = NULL;
    if (k >= s->partitions) {
        fprintf(stderr, "czk %s: --partition %u: the update has %u partitions\n", cmd, k, s->partitions);
        rc = CZK_EXIT_USAGE;
        goto done;
    }
    if (!wall || !cpu) {
        czk_cli_fail(cmd, czk_error(CZK_ERR_NOMEM, "timings"), "allocating");
        goto done;
    }
    st = czk_snap_public_inputs(pub, s, k, v.h, &v.comm_r_old, &v.comm_d_new, &v.comm_r_new);
    if (st != CZK_OK) {
        czk_cli_fail(cmd, st, "public inputs");
        goto done;
    }
    czk_snap_counts cnt;
    double cnt_s = 0;
    if (!no_count) {
        t0 = czk_now();
        st = czk_snap_count(&cnt, s, lc);
        cnt_s = czk_now() - t0;
        if (st != CZK_OK) {
            czk_cli_fail(cmd, st, "counting pass");
            goto done;
        }
        if (cnt.inputs != n.inputs || cnt.aux != n.aux || cnt.constraints != n.constraints) {
            fprintf(stderr, "czk %s: counting pass %llu/%llu/%llu != czk_snap_circuit_counts %llu/%llu/%llu\n", cmd,
                    (unsigned long long)cnt.inputs, (unsigned long long)cnt.aux, (unsigned long long)cnt.constraints,
                    (unsigned long long)n.inputs, (unsigned long long)n.aux, (unsigned long long)n.constraints);
            goto done;
        }
    }
    const czk_cs_sizes z = {n.inputs, n.aux, n.constraints + n.inputs};
    /* sequential into a constraint system (--seq, one thread, or a backend
     * other than prove), else the parallel prover; then PCE if asked */
    const int threads = czk_threads() > 0 ? czk_threads() : 1;
    const int run_off = b->pce != 1, run_on = b->pce != 0;
    const int par = backend == CZK_CS_PROVE && !b->seq && threads > 1;
    const char *mode = b->pce == 1 ? "pce" : b->pce == 2 ? (par ? "parallel,pce" : "sequential,pce")
                       : par ? "parallel" : "sequential";
    if (run_off && !par) {
        st = czk_cs_create(&cs, backend, lc, &z);
        if (st != CZK_OK) {
            czk_cli_fail(cmd, st, "creating the constraint system");
            goto done;
        }
    }
    const czk_fc_shape *t = &s->tree;
    if (com->json) {
        fprintf(out, "{");
        czk_bench_print_config(out, 1, "bench", "synth-only");
        fprintf(out,
                ",\"circuit\":\"snap\",\"update_proof\":\"%s\",\"sector_size\":%llu,\"partition\":%u,"
                "\"partitions\":%u,\"challenges\":%u,\"lc\":\"%s\",\"backend\":\"%s\",\"inputs\":%llu,\"aux\":%llu,"
                "\"constraints\":%llu,\"circuit_constraints\":%llu",
                czk_snap_proof_name(s->update_proof), (unsigned long long)t->sector_size, k, s->partitions,
                s->challenges, czk_lc_kind_name(lc), czk_cs_backend_name(backend), (unsigned long long)n.inputs,
                (unsigned long long)n.aux, (unsigned long long)(n.constraints + n.inputs),
                (unsigned long long)n.constraints);
        fprintf(out, ",\"vanilla\":\"%s\",\"mode\":\"%s\"", b->vanilla_dir ? "read" : "generated", mode);
        if (!no_count) fprintf(out, ",\"count_pass_s\":%.3f", cnt_s);
        if (run_off && !par) fprintf(out, ",\"iterations\":[");
    } else {
        char cfg[160];
        snprintf(cfg, sizeof cfg, "snap lc=%s backend=%s mode=%s", czk_lc_kind_name(lc), czk_cs_backend_name(backend),
                 mode);
        czk_bench_print_config(out, 0, "bench", cfg);
        fprintf(out,
                "# snap %s: %llu nodes, tree %u,%u,%u h%u, partition %u of %u, %u challenges, %u apex leaves, h %u "
                "(update %s, %.2f s)\n",
                czk_snap_proof_name(s->update_proof), (unsigned long long)t->nodes, t->base_arity, t->sub_arity,
                t->top_arity, t->base_height, k, s->partitions, s->challenges, s->apex_leaves, v.h,
                b->vanilla_dir ? "read and checked" : "generated", gen_s);
        if (b->vanilla_dir) fprintf(out, "# vanilla proofs: %s\n", b->vanilla_dir);
        fprintf(out, "# per partition: %llu inputs, %llu aux, %llu constraints (%llu + %llu input constraints)\n",
                (unsigned long long)n.inputs, (unsigned long long)n.aux,
                (unsigned long long)(n.constraints + n.inputs), (unsigned long long)n.constraints,
                (unsigned long long)n.inputs);
        if (!no_count) fprintf(out, "# counting pass (shape-only synthesis): %.2f s\n", cnt_s);
        if (run_off && !par)
            fprintf(out, "# sequential %s synthesis\n%5s %10s %10s %13s %12s %8s %12s %10s\n",
                    czk_cs_backend_name(backend), "iter", "wall", "cpu", "constraints", "aux", "inputs", "cons/s",
                    "peakRSS");
    }
    mode_sum off_sum = {0, 0, 0, 0}, on_sum = {0, 0, 0, 0};
    if (run_off && par) {
        st = run_parallel(out, com->json, &v, k, &z, iters, lc, no_check, pub, &off_sum);
        if (st != CZK_OK) {
            if (com->json) fprintf(out, ",\"ok\":false}\n");
            czk_cli_fail(cmd, st, "parallel synthesis");
            goto done;
        }
    }
    for (long long it = 0; run_off && !par && it < iters; it++) {
        czk_cs_reset(cs);
        double w0 = czk_now(), c0 = czk_cpu_now();
        st = czk_snap_synthesize(cs, s, backend == CZK_CS_SHAPE ? NULL : &v, k);
        if (st == CZK_OK) st = czk_cs_finalize(cs);
        wall[it] = czk_now() - w0;
        cpu[it] = czk_cpu_now() - c0;
        if (st == CZK_OK) st = snap_check(cs, &n, pub, !no_check);
        if (st != CZK_OK) {
            if (com->json) fprintf(out, "],\"ok\":false}\n");
            fprintf(stderr, "czk %s: %s\n", cmd, czk_last_error());
            goto done;
        }
        double cons = (double)n.constraints;
        unsigned long long rss = czk_bench_peak_rss();
        if (com->json)
            fprintf(out, "%s{\"wall_s\":%.6f,\"cpu_s\":%.6f,\"constraints_per_s\":%.0f,\"peak_rss_bytes\":%llu}",
                    it ? "," : "", wall[it], cpu[it], cons / wall[it], rss);
        else {
            char a1[32], a2[32];
            fprintf(out, "%5lld %10s %10s %13llu %12llu %8llu %12.0f %8.2fGiB\n", it, czk_bench_fmt_time(a1, wall[it]),
                    czk_bench_fmt_time(a2, cpu[it]), (unsigned long long)n.constraints, (unsigned long long)n.aux,
                    (unsigned long long)n.inputs, cons / wall[it], (double)rss / 1073741824.0);
        }
        fflush(out);
    }
    if (run_off && !par) summarize(&off_sum, wall, cpu, iters);
    /* --r1cs-digest: the timed run's assignment digest (sequential runs),
     * then its memory goes */
    czk__r1cs_result rr;
    memset(&rr, 0, sizeof rr);
    int r1cs_bad = 0, r1cs_show = 0;
    if (b->r1cs) {
        uint8_t timed[32];
        int have_timed = 0;
        czk_cs_assignment a;
        const czk_fr *in, *aux;
        size_t ni, na;
        if (cs && backend == CZK_CS_PROVE && czk_cs_prove_get(cs, &a) == CZK_OK) {
            czk_cs_r1cs_digest_assignment(timed, a.input, a.n_input, a.aux, a.n_aux);
            have_timed = 1;
        } else if (cs && backend == CZK_CS_WITNESS && czk_cs_witness_get(cs, &in, &ni, &aux, &na) == CZK_OK) {
            czk_cs_r1cs_digest_assignment(timed, in, ni, aux, na);
            have_timed = 1;
        }
        czk_cs_destroy(cs);
        cs = NULL;
        const snap_synth_ctx pc = {s, &v, k};
        st = czk__bench_r1cs_run(&rr, b->r1cs, snap_synth, &pc, &z, have_timed ? timed : NULL);
        if (st != CZK_OK) fprintf(stderr, "czk %s: r1cs digest: %s\n", cmd, czk_last_error());
        r1cs_bad = st != CZK_OK || (b->r1cs->compare && !rr.diff.identical);
        r1cs_show = st == CZK_OK;
    }
    char a1[32], a2[32], a3[32], a4[32];
    if (run_off && !par) {
        if (com->json)
            fprintf(out, "],\"wall_min_s\":%.6f,\"wall_median_s\":%.6f,\"cpu_min_s\":%.6f", off_sum.wall_min,
                    off_sum.wall, off_sum.cpu_min);
        else
            fprintf(out, "min    %10s %10s   median wall %s   peak RSS %.2f GiB\n",
                    czk_bench_fmt_time(a1, off_sum.wall_min), czk_bench_fmt_time(a2, off_sum.cpu_min),
                    czk_bench_fmt_time(a3, off_sum.wall), (double)czk_bench_peak_rss() / 1073741824.0);
    }
    /* the off run's memory goes before the PCE is loaded */
    czk_cs_destroy(cs);
    cs = NULL;
    if (run_on) {
        st = run_pce(out, com->json, &v, k, &z, iters, no_check, b->validate, b->stream, pub, &on_sum);
        if (st != CZK_OK) {
            if (com->json) fprintf(out, ",\"ok\":false}\n");
            czk_cli_fail(cmd, st, "PCE");
            goto done;
        }
        if (!com->json)
            fprintf(out, "min    %10s %10s   median wall %s   peak RSS %.2f GiB\n",
                    czk_bench_fmt_time(a1, on_sum.wall_min), czk_bench_fmt_time(a2, on_sum.cpu_min),
                    czk_bench_fmt_time(a3, on_sum.wall), (double)czk_bench_peak_rss() / 1073741824.0);
    } else if (par && !com->json) {
        fprintf(out, "min    %10s %10s   median wall %s   peak RSS %.2f GiB\n",
                czk_bench_fmt_time(a1, off_sum.wall_min), czk_bench_fmt_time(a2, off_sum.cpu_min), czk_bench_fmt_time(a3, off_sum.wall),
                (double)czk_bench_peak_rss() / 1073741824.0);
    }
    if (com->json) {
        if (b->pce == 2)
            fprintf(out, ",\"off_over_on_wall\":%.4f,\"off_over_on_cpu\":%.4f", off_sum.wall / on_sum.wall,
                    off_sum.cpu / on_sum.cpu);
        fprintf(out, ",\"peak_rss_bytes\":%llu", czk_bench_peak_rss());
        if (r1cs_show) czk__bench_r1cs_print_json(out, &rr, b->r1cs);
        fprintf(out, ",\"ok\":%s}\n", r1cs_bad ? "false" : "true");
        if (r1cs_show && b->r1cs->compare && !rr.diff.identical) czk__bench_r1cs_print_diff(stderr, &rr, b->r1cs);
    } else {
        if (b->pce == 2)
            fprintf(out, "\npce off (%s) vs on, same run: median wall %s -> %s (%.2fx), median cpu %s -> %s (%.2fx)\n",
                    par ? "parallel" : "sequential", czk_bench_fmt_time(a1, off_sum.wall),
                    czk_bench_fmt_time(a2, on_sum.wall), off_sum.wall / on_sum.wall,
                    czk_bench_fmt_time(a3, off_sum.cpu), czk_bench_fmt_time(a4, on_sum.cpu), off_sum.cpu / on_sum.cpu);
        fprintf(out, "checks: counts = czk_snap_circuit_counts%s%s%s: ok\n", no_count ? "" : " = counting pass",
                backend == CZK_CS_SHAPE ? "" : ", public inputs = czk_snap_public_inputs",
                backend == CZK_CS_PROVE && !no_check ? ", a*b = c on every row" : "");
        if (r1cs_show) czk__bench_r1cs_print_text(out, &rr, b->r1cs);
    }
    czk__bench_r1cs_clear(&rr);
    rc = r1cs_bad ? CZK_EXIT_FAIL : CZK_EXIT_OK;
done:
    czk_cs_destroy(cs);
    free(wall);
    free(cpu);
    czk_snap_vanilla_free(&v);
    return rc;
}
