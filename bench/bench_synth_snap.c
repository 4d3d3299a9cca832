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
#include "synth_kind.h"
#include "czk/czk.h"
#include "czk/snap.h"
#include "czk/snap_kind.h"

/* The kind's PCE entry points as synth_kind.h calls them. */
static czk_status snap_pce_get(czk_pce **out, const void *v, czk_pce_progress_fn progress, void *ctx, int *built)
{
    return czk_pce_snap_get(out, &((const czk_snap_vanilla *)v)->shape, progress, ctx, built);
}

static czk_status snap_pce_witness(czk_pce_work *w, const void *v, uint32_t k, int threads)
{
    return czk_snap_pce_witness(w, v, k, threads);
}

static czk_status snap_pce_validate(const czk_pce_work *w, const void *v, uint32_t k, int threads)
{
    return czk_snap_pce_validate(w, v, k, threads);
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
    const czk__synth_kind sk = {.name = "snap",
                                .kind = &czk_kind_snap,
                                .v = &v,
                                .k = k,
                                .pub = pub,
                                .n_pub = CZK_SNAP_PUBLIC_INPUTS,
                                .par_split = "challenges",
                                .n_par_split = v.shape.challenges,
                                .pce_split = "challenges",
                                .pce_get = snap_pce_get,
                                .pce_witness = snap_pce_witness,
                                .pce_validate = snap_pce_validate};
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
    czk__synth_sum off_sum = {0, 0, 0, 0}, on_sum = {0, 0, 0, 0};
    if (run_off && par) {
        st = czk__synth_run_parallel(out, com->json, &sk, &z, iters, lc, no_check, &off_sum);
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
        if (st == CZK_OK) st = czk__synth_cs_check(&sk, cs, n.inputs, n.aux, n.constraints, !no_check);
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
    if (run_off && !par) czk__synth_summarize(&off_sum, wall, cpu, iters);
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
            czk__synth_print_min(out, &off_sum);
    }
    /* the off run's memory goes before the PCE is loaded */
    czk_cs_destroy(cs);
    cs = NULL;
    if (run_on) {
        st = czk__synth_run_pce(out, com->json, &sk, &z, iters, no_check, b->validate, b->stream, &on_sum);
        if (st != CZK_OK) {
            if (com->json) fprintf(out, ",\"ok\":false}\n");
            czk_cli_fail(cmd, st, "PCE");
            goto done;
        }
        if (!com->json) czk__synth_print_min(out, &on_sum);
    } else if (par && !com->json) {
        czk__synth_print_min(out, &off_sum);
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
