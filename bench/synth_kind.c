/* The synth-only modes the registry's kinds share (synth_kind.h). */
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "czk/czk.h"
#include "czk/perf.h"
#include "pce/pce_internal.h"
#include "synth_kind.h"

void czk__synth_summarize(czk__synth_sum *m, double *wall, double *cpu, long long n)
{
    czk_bench_stats w, c;
    czk_bench_stats_of(&w, wall, (size_t)n);
    czk_bench_stats_of(&c, cpu, (size_t)n);
    m->wall = w.median;
    m->cpu = c.median;
    m->wall_min = w.min;
    m->cpu_min = c.min;
}

void czk__synth_print_min(FILE *out, const czk__synth_sum *m)
{
    char a1[32], a2[32], a3[32];
    fprintf(out, "min    %10s %10s   median wall %s   peak RSS %.2f GiB\n", czk_bench_fmt_time(a1, m->wall_min),
            czk_bench_fmt_time(a2, m->cpu_min), czk_bench_fmt_time(a3, m->wall),
            (double)czk_bench_peak_rss() / 1073741824.0);
}

czk_status czk__synth_inputs_check(const czk__synth_kind *sk, const czk_fr *in, size_t ni)
{
    if (ni != sk->n_pub + 1 || !czk_fr_eq(&in[0], &CZK_FR_ONE) || memcmp(in + 1, sk->pub, sk->n_pub * sizeof *in) != 0)
        return czk_error(CZK_ERR_INTERNAL, "the circuit's public inputs differ from czk_%s_public_inputs", sk->name);
    return CZK_OK;
}

czk_status czk__synth_cs_check(const czk__synth_kind *sk, czk_cs *cs, uint64_t inputs, uint64_t aux,
                               uint64_t constraints, int rows)
{
    if (cs->n_inputs != inputs || cs->n_aux != aux ||
        (cs->needs_constraints && cs->n_constraints != constraints + inputs))
        return czk_error(CZK_ERR_INTERNAL,
                         "%u inputs, %u aux, %llu constraints; czk_%s_circuit_counts says %llu, %llu, %llu (+ inputs)",
                         cs->n_inputs, cs->n_aux, (unsigned long long)cs->n_constraints, sk->name,
                         (unsigned long long)inputs, (unsigned long long)aux, (unsigned long long)constraints);
    if (!cs->has_values) return CZK_OK;
    const czk_fr *in, *a_aux;
    size_t ni, na;
    if (cs->backend == CZK_CS_PROVE) {
        czk_cs_assignment a;
        CZK_TRY(czk_cs_prove_get(cs, &a));
        if (rows) CZK_TRY(czk_cs_prove_check(cs));
        in = a.input;
        ni = a.n_input;
    } else {
        CZK_TRY(czk_cs_witness_get(cs, &in, &ni, &a_aux, &na));
    }
    return czk__synth_inputs_check(sk, in, ni);
}

/* One timed iteration's line (text) or object (json; first: no comma);
 * part1 < 0: no witness / mat-vec split. */
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

czk_status czk__synth_run_parallel(FILE *out, int json, const czk__synth_kind *sk, const czk_cs_sizes *z,
                                   long long iters, czk_lc_kind lc, int no_check, czk__synth_sum *sum)
{
    const int threads = czk_threads() > 0 ? czk_threads() : 1;
    czk_source_opts o;
    memset(&o, 0, sizeof o);
    o.lc = lc;
    o.parallel = 1;
    czk_witness_source src;
    CZK_TRY(czk_kind_source_open(&src, sk->kind, sk->v, &o));
    czk_witness *w = NULL;
    czk_status st = src.ops->create(&w, &src, z);
    double *wall = calloc((size_t)iters, sizeof(double)), *cpu = calloc((size_t)iters, sizeof(double));
    if (st == CZK_OK && (!wall || !cpu)) st = czk_error(CZK_ERR_NOMEM, "samples");
    if (!json)
        fprintf(out, "# parallel prover: the %u %s on %d threads, written in place\n%5s %10s %10s %12s %10s\n",
                sk->n_par_split, sk->par_split, threads, "iter", "wall", "cpu", "cons/s", "peakRSS");
    else
        fprintf(out, ",\"parallel\":{\"threads\":%d,\"iterations\":[", threads);
    for (long long it = 0; it < iters && st == CZK_OK; it++) {
        double w0 = czk_now(), c0 = czk_cpu_now();
        czk_perf_begin();
        st = src.ops->synthesize(w, sk->v, sk->k, threads);
        czk_perf_end();
        wall[it] = czk_now() - w0;
        cpu[it] = czk_cpu_now() - c0;
        czk_cs_assignment a;
        if (st == CZK_OK && !no_check) st = src.ops->check(w, threads);
        if (st == CZK_OK) st = src.ops->get(w, &a);
        if (st == CZK_OK && a.n_constraints != z->n_constraints)
            st = czk_error(CZK_ERR_INTERNAL, "parallel prover: %zu rows, expected %llu", a.n_constraints,
                           (unsigned long long)z->n_constraints);
        if (st == CZK_OK) st = czk__synth_inputs_check(sk, a.input, a.n_input);
        if (st == CZK_OK) print_iter(out, json, it == 0, it, wall[it], cpu[it], -1, -1, (double)z->n_constraints);
    }
    if (st == CZK_OK) {
        czk__synth_summarize(sum, wall, cpu, iters);
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

czk_status czk__synth_run_pce(FILE *out, int json, const czk__synth_kind *sk, const czk_cs_sizes *z, long long iters,
                              int no_check, int validate, int force_stream, czk__synth_sum *sum)
{
    const int threads = czk_threads() > 0 ? czk_threads() : 1;
    double t0 = czk_now();
    czk_pce *p = NULL;
    int built = 0;
    CZK_TRY(czk_kind_pce_get(&p, sk->kind, sk->kind->shape_of(sk->v), pce_progress, NULL, &built));
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
                "\"nnz\":[%llu,%llu,%llu],\"bytes\":%zu,\"bytes_per_nnz\":%.4f,\"threads\":%d,\"iterations\":[",
                built ? "true" : "false", stream ? "true" : "false", load_s, (unsigned long long)in.rows,
                (unsigned long long)in.cols, (unsigned long long)in.nnz[0], (unsigned long long)in.nnz[1],
                (unsigned long long)in.nnz[2], in.bytes, in.bytes_per_nnz, threads);
    else
        fprintf(out,
                "# PCE %s in %.2f s: %llu rows, %llu columns, non-zeros A %llu, B %llu, C %llu; %.2f GiB, %.3f "
                "bytes/non-zero\n# mode: %s; witness %.2f GiB, a/b/c %.2f GiB, %.1f GiB available\n"
                "# witness: %s on %d threads; mat-vec: row blocks on %d threads\n"
                "%5s %10s %10s %10s %10s %12s %10s\n",
                built ? "built (now cached)" : "read from the cache", load_s, (unsigned long long)in.rows,
                (unsigned long long)in.cols, (unsigned long long)in.nnz[0], (unsigned long long)in.nnz[1],
                (unsigned long long)in.nnz[2], (double)in.bytes / GiB, in.bytes_per_nnz,
                stream ? "streamed a,b,c (3 x 2^20-row chunks, checked chunk by chunk)" : "full assignment",
                wit_b / GiB, stream ? 3.0 * (double)STREAM_ROWS * fr / GiB : abc_b / GiB, avail / GiB, sk->pce_split,
                threads, threads, "iter", "wall", "cpu", "witness", "mat-vec", "cons/s", "peakRSS");
    for (long long it = 0; it < iters && st == CZK_OK; it++) {
        double w0 = czk_now(), c0 = czk_cpu_now();
        czk_perf_begin();
        st = czk_kind_pce_witness(w, sk->kind, sk->v, sk->k, threads);
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
        if (st == CZK_OK) st = czk__synth_inputs_check(sk, in_v, ni);
        if (st == CZK_OK)
            print_iter(out, json, it == 0, it, wall[it], cpu[it], w1 - w0, wall[it] - (w1 - w0),
                       (double)z->n_constraints);
    }
    if (st == CZK_OK) {
        czk__synth_summarize(sum, wall, cpu, iters);
        if (json) fprintf(out, "],\"wall_median_s\":%.6f,\"cpu_median_s\":%.6f", sum->wall, sum->cpu);
    }
    if (st == CZK_OK && validate) {
        /* a fresh workspace without a, b, c: the witness, then the PROVE rows
         * window by window against the PCE's */
        czk_pce_work_destroy(w);
        w = NULL;
        double tv = czk_now();
        st = czk_pce_work_create(&w, p);
        if (st == CZK_OK) st = czk_kind_pce_witness(w, sk->kind, sk->v, sk->k, threads);
        if (st == CZK_OK) st = czk_kind_pce_validate(w, sk->kind, sk->v, sk->k, threads);
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
