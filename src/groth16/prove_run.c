/* The prover skeleton both semantics share (groth16_internal.h): blinding
 * scalars, the padded H step, the G2 thread beside the G1 work, and the
 * proof assembly. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "czk/czk.h"
#include "common/bigmem.h"
#include "groth16/groth16_internal.h"

void czk__groth16_assemble(czk_groth16_proof *out, const czk__groth16_keys *k, const czk__groth16_sums *sums,
                           const czk_fr *r, const czk_fr *s)
{
    czk_g1_jac A, B1, C, d1, t;
    czk_g2_jac B, t2;
    czk_fr rs;
    czk_g1_jac_from_affine(&d1, &k->delta_g1);
    /* A = alpha + a + r delta */
    czk_g1_jac_add_affine(&A, &sums->a, &k->alpha_g1);
    czk_g1_mul_ct(&t, &d1, r);
    czk_g1_jac_add(&A, &A, &t);
    /* B = beta + b2 + s delta (G2) */
    czk_g2_jac_add_affine(&B, &sums->b2, &k->beta_g2);
    czk_g2_jac_from_affine(&t2, &k->delta_g2);
    czk_g2_mul_ct(&t2, &t2, s);
    czk_g2_jac_add(&B, &B, &t2);
    /* B1 = beta + b1 + s delta (G1) */
    czk_g1_jac_add_affine(&B1, &sums->b1, &k->beta_g1);
    czk_g1_mul_ct(&t, &d1, s);
    czk_g1_jac_add(&B1, &B1, &t);
    /* C = c + s A + r B1 - r s delta */
    czk_g1_mul_ct(&t, &A, s);
    czk_g1_jac_add(&C, &sums->c, &t);
    czk_g1_mul_ct(&t, &B1, r);
    czk_g1_jac_add(&C, &C, &t);
    czk_fr_mul(&rs, r, s);
    czk_g1_mul_ct(&t, &d1, &rs);
    czk_g1_jac_neg(&t, &t);
    czk_g1_jac_add(&C, &C, &t);
    memset(&rs, 0, sizeof rs);
    czk_g1_jac_to_affine(&out->a, &A);
    czk_g2_jac_to_affine(&out->b, &B);
    czk_g1_jac_to_affine(&out->c, &C);
}

czk_status czk__groth16_draw_rs(czk_fr *rs, size_t n, czk_rng *rng)
{
    czk_rng own;
    if (!rng) {
        CZK_TRY(czk_rng_from_os(&own));
        rng = &own;
    }
    for (size_t i = 0; i < 2 * n; i++) {
        do czk_fr_random(&rs[i], rng);
        while (czk_fr_is_zero(&rs[i]));
    }
    if (rng == &own) czk_rng_clear(&own);
    return CZK_OK;
}

int czk__groth16_g2_threads(int threads) { return threads > 2 ? threads / 3 : 1; }

int czk__groth16_g1_threads(int threads) { return threads > 2 ? threads - czk__groth16_g2_threads(threads) : threads; }

typedef struct g2_job {
    const czk__groth16_run *run;
    czk__groth16_sums *sums;
    int threads;
    czk_status status;
    char msg[512];
    double seconds;
} g2_job;

static void *g2_worker(void *arg)
{
    g2_job *j = arg;
    double t0 = czk_now();
    j->status = j->run->g2(j->run->ctx, j->sums, j->threads);
    if (j->status != CZK_OK) snprintf(j->msg, sizeof j->msg, "%s", czk_last_error());
    j->seconds = czk_now() - t0;
    return NULL;
}

czk_status czk__groth16_prove_run(czk_groth16_proof *out, const czk__groth16_run *run, czk_rng *rng, int threads,
                                  czk__groth16_run_times *times)
{
    czk__groth16_run_times tm = {0, 0, 0, 0};
    size_t n = run->n, m = (size_t)1 << run->log_m;
    czk_status st = CZK_OK;
    czk_fr *rs = malloc(2 * n * sizeof(czk_fr));
    czk__groth16_sums *sums = malloc(n * sizeof *sums);
    /* big buffers (2 MiB pages where the kernel allows): 4 m scalars at least */
    czk_fr *h = czk__big_alloc(n * m * sizeof(czk_fr)); /* a of each proof, then its h scalars */
    czk_fr *bc = czk__big_alloc(2 * m * sizeof(czk_fr));
    czk_ntt_domain *dom = NULL;
    pthread_t g2_thread;
    int g2_started = 0;
    g2_job g2 = {0};
    if (!rs || !sums || !h || !bc) {
        st = czk_error(CZK_ERR_NOMEM, "prove: vectors for %zu proofs over a domain of %zu", n, m);
        goto out;
    }
    st = czk__groth16_draw_rs(rs, n, rng);
    if (st != CZK_OK) goto out;

    g2.run = run;
    g2.sums = sums;
    int g1_threads = threads;
    /* On 2 threads or fewer a G2 thread beside the NTTs would share their
     * cores: their OpenMP barriers then wait for a preempted thread and the H
     * step runs at about one core's speed while G2 lasts. So G2 runs after H
     * on all threads instead (src/groth16/README.md, "Prover"). */
    int g2_after_h = !run->g2_inline && threads <= 2;
    if (run->g2_inline) {
        g2.threads = threads;
        g2_worker(&g2);
    } else if (!g2_after_h) {
        g2.threads = czk__groth16_g2_threads(threads);
        g1_threads = czk__groth16_g1_threads(threads);
        if (pthread_create(&g2_thread, NULL, g2_worker, &g2) == 0)
            g2_started = 1;
        else
            g2_worker(&g2);
    }
    if (g2.status != CZK_OK && !g2_started) goto g2_fail;

    st = czk_ntt_domain_create(&dom, run->log_m, run->roots);
    if (st != CZK_OK) goto out;
    czk_ntt_domain_set_threads(dom, g1_threads);
    for (size_t i = 0; i < n; i++) {
        czk_fr *a = h + i * m, *b = bc, *c = bc + m;
        double t0 = czk_now();
        st = run->abc(run->ctx, i, a, b, c, m, g1_threads);
        double t1 = czk_now();
        if (st == CZK_OK) st = run->h_step(dom, a, b, c, m);
        tm.abc_s += t1 - t0;
        tm.h_s += czk_now() - t1;
        if (st != CZK_OK) {
            st = czk_error_context(st, "prove: H of proof %zu", i);
            goto out;
        }
    }
    if (g2_after_h) {
        g2.threads = threads;
        g2_worker(&g2);
        if (g2.status != CZK_OK) goto g2_fail;
    }
    double t0 = czk_now();
    st = run->g1(run->ctx, sums, h, m, g1_threads);
    tm.g1_s = czk_now() - t0;
    if (st != CZK_OK) goto out;
    if (g2_started) pthread_join(g2_thread, NULL), g2_started = 0;
    if (g2.status != CZK_OK) goto g2_fail;
    tm.g2_s = g2.seconds;
    for (size_t i = 0; i < n; i++) czk__groth16_assemble(&out[i], run->keys, &sums[i], &rs[2 * i], &rs[2 * i + 1]);
    goto out;

g2_fail:
    st = czk_error(g2.status, "%s", g2.msg);
out:
    if (g2_started) pthread_join(g2_thread, NULL);
    if (rs) memset(rs, 0, 2 * n * sizeof(czk_fr));
    free(rs);
    free(sums);
    czk__big_free(h);
    czk__big_free(bc);
    czk_ntt_domain_destroy(dom);
    if (times) *times = tm;
    return st;
}
