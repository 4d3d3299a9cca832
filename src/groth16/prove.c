/* Groth16 prover as bellperson computes it (FACTS.md §2):
 *
 *   A = alpha + sum_i w_i a_i + r delta                          (G1)
 *   B = beta  + sum_i w_i b_i + s delta                          (G2, and B1 in G1)
 *   C = sum_aux w_i l_i + sum_j h_j H_j + s A + r B1 - r s delta (G1)
 *
 * with h the coefficients of (A(x) B(x) - C(x)) / (x^m - 1) computed by NTTs
 * on the coset 7 (czk_ntt_groth16_h), and r, s fresh uniform scalars.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "czk/czk.h"
#include "czk/groth16.h"
#include "czk/msm.h"
#include "czk/ntt.h"

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static size_t next_pow2_log(size_t n, unsigned *log)
{
    size_t m = 1;
    unsigned k = 0;
    while (m < n) m <<= 1, k++;
    *log = k;
    return m;
}

typedef struct g2_job {
    const czk_groth16_params *p;
    const czk_cs_assignment *w;
    int threads;
    czk_g2_jac result;
    czk_status status;
    char msg[512];
    double seconds;
} g2_job;

/* sum over inputs (masked by the B-input density) + aux (B-aux density). */
static void *g2_worker(void *arg)
{
    g2_job *j = arg;
    double t0 = now_s();
    const czk_cs_assignment *w = j->w;
    czk_msm_opts o = {0};
    o.threads = j->threads;
    czk_g2_jac in_sum, aux_sum;
    j->status = czk_msm_g2_var(&in_sum, j->p->b_g2, w->b_input_popcount, w->input, w->n_input,
                               w->b_input_density, &o);
    if (j->status == CZK_OK)
        j->status = czk_msm_g2_var(&aux_sum, j->p->b_g2 + w->b_input_popcount, w->b_aux_popcount,
                                   w->aux, w->n_aux, w->b_aux_density, &o);
    if (j->status == CZK_OK)
        czk_g2_jac_add(&j->result, &in_sum, &aux_sum);
    else
        snprintf(j->msg, sizeof j->msg, "B (G2) MSM: %s", czk_last_error());
    j->seconds = now_s() - t0;
    return NULL;
}

static czk_status random_nonzero(czk_fr *r, czk_rng *rng)
{
    do czk_fr_random(r, rng);
    while (czk_fr_is_zero(r));
    return CZK_OK;
}

czk_status czk_groth16_prove(czk_groth16_proof *out, const czk_groth16_params *p,
                             const czk_cs_assignment *w, const czk_groth16_prove_opts *opts)
{
    czk_init();
    double t_start = now_s();
    czk_groth16_timings tm;
    memset(&tm, 0, sizeof tm);
    CZK_TRY(czk_groth16_params_match(p, w));
    int threads = opts && opts->threads > 0 ? opts->threads : czk_threads();

    czk_rng own;
    czk_rng *rng = opts && opts->rng ? opts->rng : NULL;
    if (!rng) {
        CZK_TRY(czk_rng_from_os(&own));
        rng = &own;
    }
    czk_fr r, s;
    random_nonzero(&r, rng);
    random_nonzero(&s, rng);
    if (rng == &own) czk_rng_clear(&own);

    unsigned log_m;
    size_t m = next_pow2_log(w->n_constraints, &log_m);
    czk_status st = CZK_OK;
    czk_ntt_domain *dom = NULL;
    czk_fr *abc = malloc(3 * m * sizeof(czk_fr));
    pthread_t g2_thread;
    int g2_started = 0;
    g2_job g2 = {0};
    if (!abc) {
        st = czk_error(CZK_ERR_NOMEM, "prove: a/b/c vectors of %zu elements", m);
        goto out;
    }

    /* B in G2 runs beside the G1 work; on 2 threads it takes one. */
    g2.p = p;
    g2.w = w;
    g2.threads = threads > 2 ? threads / 3 : 1;
    int g1_threads = threads > 2 ? threads - g2.threads : threads;
    if (pthread_create(&g2_thread, NULL, g2_worker, &g2) == 0) {
        g2_started = 1;
    } else {
        g2_worker(&g2);
    }

    /* H: coefficients of (AB - C)/Z from the constraint evaluations. */
    double t0 = now_s();
    czk_fr *a = abc, *b = abc + m, *c = abc + 2 * m;
    memcpy(a, w->a, w->n_constraints * sizeof(czk_fr));
    memcpy(b, w->b, w->n_constraints * sizeof(czk_fr));
    memcpy(c, w->c, w->n_constraints * sizeof(czk_fr));
    memset(a + w->n_constraints, 0, (m - w->n_constraints) * sizeof(czk_fr));
    memset(b + w->n_constraints, 0, (m - w->n_constraints) * sizeof(czk_fr));
    memset(c + w->n_constraints, 0, (m - w->n_constraints) * sizeof(czk_fr));
    st = czk_ntt_domain_create(&dom, log_m, CZK_NTT_ROOTS_GEN7);
    if (st != CZK_OK) goto out;
    czk_ntt_domain_set_threads(dom, g1_threads);
    st = czk_ntt_groth16_h(dom, a, b, c, m);
    if (st != CZK_OK) goto out;
    tm.h_s = now_s() - t0;

    czk_msm_opts o = {0};
    o.threads = g1_threads;
    czk_g1_jac h_sum, l_sum, a_in, a_aux, b_in, b_aux;
    t0 = now_s();
    st = czk_msm_g1_var(&h_sum, p->h, p->n_h, a, m - 1, NULL, &o);
    if (st != CZK_OK) goto msm_fail;
    tm.msm_h_s = now_s() - t0;
    t0 = now_s();
    st = czk_msm_g1_var(&l_sum, p->l, p->n_l, w->aux, w->n_aux, NULL, &o);
    if (st != CZK_OK) goto msm_fail;
    tm.msm_l_s = now_s() - t0;
    t0 = now_s();
    st = czk_msm_g1_var(&a_in, p->a, w->n_input, w->input, w->n_input, NULL, &o);
    if (st == CZK_OK)
        st = czk_msm_g1_var(&a_aux, p->a + w->n_input, w->a_aux_popcount, w->aux, w->n_aux,
                            w->a_aux_density, &o);
    if (st != CZK_OK) goto msm_fail;
    tm.msm_a_s = now_s() - t0;
    t0 = now_s();
    st = czk_msm_g1_var(&b_in, p->b_g1, w->b_input_popcount, w->input, w->n_input,
                        w->b_input_density, &o);
    if (st == CZK_OK)
        st = czk_msm_g1_var(&b_aux, p->b_g1 + w->b_input_popcount, w->b_aux_popcount, w->aux,
                            w->n_aux, w->b_aux_density, &o);
    if (st != CZK_OK) goto msm_fail;
    tm.msm_b_g1_s = now_s() - t0;

    if (g2_started) pthread_join(g2_thread, NULL), g2_started = 0;
    if (g2.status != CZK_OK) {
        st = czk_error(g2.status, "%s", g2.msg);
        goto out;
    }
    tm.msm_b_g2_s = g2.seconds;

    {
        czk_g1_jac A, B1, C, t;
        czk_g2_jac B, t2;
        /* A = alpha + a_in + a_aux + r delta */
        czk_g1_jac_from_affine(&A, &p->vk.alpha_g1);
        czk_g1_jac_add(&A, &A, &a_in);
        czk_g1_jac_add(&A, &A, &a_aux);
        czk_g1_jac_from_affine(&t, &p->vk.delta_g1);
        czk_g1_mul_ct(&t, &t, &r);
        czk_g1_jac_add(&A, &A, &t);
        /* B = beta + sum + s delta (G2) */
        czk_g2_jac_from_affine(&B, &p->vk.beta_g2);
        czk_g2_jac_add(&B, &B, &g2.result);
        czk_g2_jac_from_affine(&t2, &p->vk.delta_g2);
        czk_g2_mul_ct(&t2, &t2, &s);
        czk_g2_jac_add(&B, &B, &t2);
        /* B1 = beta + sum + s delta (G1) */
        czk_g1_jac_from_affine(&B1, &p->vk.beta_g1);
        czk_g1_jac_add(&B1, &B1, &b_in);
        czk_g1_jac_add(&B1, &B1, &b_aux);
        czk_g1_jac_from_affine(&t, &p->vk.delta_g1);
        czk_g1_mul_ct(&t, &t, &s);
        czk_g1_jac_add(&B1, &B1, &t);
        /* C = h + l + s A + r B1 - r s delta */
        czk_g1_jac_add(&C, &h_sum, &l_sum);
        czk_g1_mul_ct(&t, &A, &s);
        czk_g1_jac_add(&C, &C, &t);
        czk_g1_mul_ct(&t, &B1, &r);
        czk_g1_jac_add(&C, &C, &t);
        czk_fr rs;
        czk_fr_mul(&rs, &r, &s);
        czk_g1_jac_from_affine(&t, &p->vk.delta_g1);
        czk_g1_mul_ct(&t, &t, &rs);
        czk_g1_jac_neg(&t, &t);
        czk_g1_jac_add(&C, &C, &t);
        czk_g1_jac_to_affine(&out->a, &A);
        czk_g2_jac_to_affine(&out->b, &B);
        czk_g1_jac_to_affine(&out->c, &C);
        memset(&rs, 0, sizeof rs);
    }
    goto out;

msm_fail:
    st = czk_error_context(st, "G1 MSM");
out:
    if (g2_started) pthread_join(g2_thread, NULL);
    memset(&r, 0, sizeof r);
    memset(&s, 0, sizeof s);
    czk_ntt_domain_destroy(dom);
    free(abc);
    tm.total_s = now_s() - t_start;
    if (opts && opts->timings) *opts->timings = tm;
    return st;
}
