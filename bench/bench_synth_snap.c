/* czk bench synth-only --circuit snap: synthesis of one EmptySectorUpdate
 * partition (czk/snap.h) of a generated update or a real one (--vanilla
 * DIR), timed and self-checked (counts against the closed form and the
 * counting pass, public inputs against czk_snap_public_inputs, a*b = c),
 * then the digest pass of --r1cs-digest (bench_r1cs.c). */
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "czk/czk.h"
#include "czk/snap.h"
#include "czk/snap_kind.h"

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
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
    if (ni != CZK_SNAP_PUBLIC_INPUTS + 1 || !czk_fr_eq(&in[0], &CZK_FR_ONE) ||
        memcmp(in + 1, pub, CZK_SNAP_PUBLIC_INPUTS * sizeof *pub) != 0)
        return czk_error(CZK_ERR_INTERNAL, "the circuit's public inputs differ from czk_snap_public_inputs");
    return CZK_OK;
}

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
    const double gen_s = czk_now() - t0;
    const czk_snap_shape *s = &shape;
    const uint32_t k = b->partition;
    int rc = CZK_EXIT_FAIL;
    czk_cs *cs = NULL;
    double *wall = calloc((size_t)iters, sizeof(double)), *cpu = calloc((size_t)iters, sizeof(double));
    if (k >= s->partitions) {
        fprintf(stderr, "czk %s: --partition %u: the update has %u partitions\n", cmd, k, s->partitions);
        rc = CZK_EXIT_USAGE;
        goto done;
    }
    if (!wall || !cpu) {
        czk_cli_fail(cmd, czk_error(CZK_ERR_NOMEM, "timings"), "allocating");
        goto done;
    }
    czk_snap_counts n;
    czk_snap_circuit_counts(&n, s);
    czk_fr pub[CZK_SNAP_PUBLIC_INPUTS];
    st = czk_snap_public_inputs(pub, s, k, v.h, &v.comm_r_old, &v.comm_d_new, &v.comm_r_new);
    if (st != CZK_OK) {
        czk_cli_fail(cmd, st, "public inputs");
        goto done;
    }
    double cnt_s = 0;
    if (!b->no_count) {
        czk_snap_counts cnt;
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
    st = czk_cs_create(&cs, backend, lc, &z);
    if (st != CZK_OK) {
        czk_cli_fail(cmd, st, "creating the constraint system");
        goto done;
    }
    const czk_fc_shape *t = &s->tree;
    const char *name = czk_snap_proof_name(s->update_proof);
    if (com->json) {
        fprintf(out, "{");
        czk_bench_print_config(out, 1, "bench", "synth-only");
        fprintf(out,
                ",\"circuit\":\"snap\",\"update_proof\":\"%s\",\"sector_size\":%llu,\"partition\":%u,\"partitions\":%u,"
                "\"challenges\":%u,\"lc\":\"%s\",\"backend\":\"%s\",\"inputs\":%llu,\"aux\":%llu,\"constraints\":%llu,"
                "\"circuit_constraints\":%llu",
                name, (unsigned long long)t->sector_size, k, s->partitions, s->challenges, czk_lc_kind_name(lc),
                czk_cs_backend_name(backend), (unsigned long long)n.inputs, (unsigned long long)n.aux,
                (unsigned long long)(n.constraints + n.inputs), (unsigned long long)n.constraints);
        fprintf(out, ",\"vanilla\":\"%s\",\"vanilla_s\":%.3f", b->vanilla_dir ? "read" : "generated", gen_s);
        if (!b->no_count) fprintf(out, ",\"count_pass_s\":%.3f", cnt_s);
        fprintf(out, ",\"iterations\":[");
    } else {
        char cfg[128];
        snprintf(cfg, sizeof cfg, "snap lc=%s backend=%s", czk_lc_kind_name(lc), czk_cs_backend_name(backend));
        czk_bench_print_config(out, 0, "bench", cfg);
        fprintf(out,
                "# snap %s: %llu nodes, tree %u,%u,%u h%u, partition %u of %u, %u challenges, %u apex leaves, h %u "
                "(update %s, %.2f s)\n",
                name, (unsigned long long)t->nodes, t->base_arity, t->sub_arity, t->top_arity, t->base_height, k,
                s->partitions, s->challenges, s->apex_leaves, v.h,
                b->vanilla_dir ? "read and checked" : "generated", gen_s);
        if (b->vanilla_dir) fprintf(out, "# vanilla proofs: %s\n", b->vanilla_dir);
        fprintf(out, "# per partition: %llu inputs, %llu aux, %llu constraints (%llu + %llu input constraints)\n",
                (unsigned long long)n.inputs, (unsigned long long)n.aux,
                (unsigned long long)(n.constraints + n.inputs), (unsigned long long)n.constraints,
                (unsigned long long)n.inputs);
        if (!b->no_count) fprintf(out, "# counting pass (shape-only synthesis): %.2f s\n", cnt_s);
        fprintf(out, "%5s %10s %10s %13s %12s %8s %12s %10s\n", "iter", "wall", "cpu", "constraints", "aux", "inputs",
                "cons/s", "peakRSS");
    }
    for (long long it = 0; it < iters; it++) {
        czk_cs_reset(cs);
        double w0 = czk_now(), c0 = czk_cpu_now();
        st = czk_snap_synthesize(cs, s, backend == CZK_CS_SHAPE ? NULL : &v, k);
        if (st == CZK_OK) st = czk_cs_finalize(cs);
        wall[it] = czk_now() - w0;
        cpu[it] = czk_cpu_now() - c0;
        if (st == CZK_OK) st = snap_check(cs, &n, pub, !b->no_check);
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
    czk__r1cs_result rr;
    memset(&rr, 0, sizeof rr);
    int r1cs_bad = 0, r1cs_show = 0;
    if (b->r1cs) {
        uint8_t timed[32];
        int have_timed = 0;
        czk_cs_assignment a;
        const czk_fr *in, *aux;
        size_t ni, na;
        if (backend == CZK_CS_PROVE && czk_cs_prove_get(cs, &a) == CZK_OK) {
            czk_cs_r1cs_digest_assignment(timed, a.input, a.n_input, a.aux, a.n_aux);
            have_timed = 1;
        } else if (backend == CZK_CS_WITNESS && czk_cs_witness_get(cs, &in, &ni, &aux, &na) == CZK_OK) {
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
    qsort(wall, (size_t)iters, sizeof(double), cmp_double);
    qsort(cpu, (size_t)iters, sizeof(double), cmp_double);
    if (com->json) {
        fprintf(out, "],\"wall_min_s\":%.6f,\"wall_median_s\":%.6f,\"cpu_min_s\":%.6f,\"peak_rss_bytes\":%llu",
                wall[0], wall[iters / 2], cpu[0], czk_bench_peak_rss());
        if (r1cs_show) czk__bench_r1cs_print_json(out, &rr, b->r1cs);
        fprintf(out, ",\"ok\":%s}\n", r1cs_bad ? "false" : "true");
        if (r1cs_show && b->r1cs->compare && !rr.diff.identical) czk__bench_r1cs_print_diff(stderr, &rr, b->r1cs);
    } else {
        char a1[32], a2[32], a3[32];
        fprintf(out, "min    %10s %10s   median wall %s   peak RSS %.2f GiB\n", czk_bench_fmt_time(a1, wall[0]),
                czk_bench_fmt_time(a2, cpu[0]), czk_bench_fmt_time(a3, wall[iters / 2]),
                (double)czk_bench_peak_rss() / 1073741824.0);
        fprintf(out, "checks: counts = czk_snap_circuit_counts%s%s%s: ok\n", b->no_count ? "" : " = counting pass",
                backend == CZK_CS_SHAPE ? "" : ", public inputs = czk_snap_public_inputs",
                backend == CZK_CS_PROVE && !b->no_check ? ", a*b = c on every row" : "");
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
