/* Groth16 prover and verifier with snarkjs' semantics (FACTS.md §8, "The H
 * section" and "snarkjs prover"; snarkjs groth16_prove.js / groth16_verify.js). */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "czk/czk.h"
#include "czk/msm.h"
#include "czk/ntt.h"
#include "czk/pairing.h"
#include "io/io_internal.h"

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static double cpu_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Close a stage: its wall and CPU time since (*w, *c), which move to now. */
static void stage_end(czk_circom_timings *tm, int stage, double *w, double *c)
{
    double w1 = now_s(), c1 = cpu_s();
    tm->wall[stage] = w1 - *w;
    tm->cpu[stage] = c1 - *c;
    *w = w1;
    *c = c1;
}

static const char *const STAGE_NAMES[CZK_CIRCOM_NSTAGES] = {
    "a,b,c", "H (6 NTTs)", "MSM A", "MSM B1", "MSM B2 (G2)", "MSM C", "MSM H", "blinding", "total prove",
};

const char *czk_circom_stage_name(int stage)
{
    return stage >= 0 && stage < CZK_CIRCOM_NSTAGES ? STAGE_NAMES[stage] : "?";
}

static void g1_add_aff(czk_g1_jac *r, const czk_g1_affine *p)
{
    if (!p->inf) czk_g1_jac_add_affine(r, r, p);
}

/* acc[row] += coef * w[signal] over the records of one matrix; witness
 * values 0 and 1 (most of a circom witness) need no multiplication. */
static void accumulate(czk_fr *acc, const czk_circom_zkey *z, const czk_fr *w, uint8_t matrix)
{
    for (size_t i = 0; i < z->n_coefs; i++) {
        if (z->coef_matrix[i] != matrix) continue;
        const czk_fr *v = &w[z->coef_signal[i]];
        czk_fr *d = &acc[z->coef_row[i]];
        if (czk__fr_limbs_eq(v, &CZK_FR_ZERO)) continue;
        if (czk__fr_limbs_eq(v, &CZK_FR_ONE)) {
            czk_fr_add(d, d, &z->coef_value[i]);
        } else {
            czk_fr p;
            czk_fr_mul(&p, &z->coef_value[i], v);
            czk_fr_add(d, d, &p);
        }
    }
}

czk_status czk_circom_prove(czk_groth16_proof *out, const czk_circom_zkey *z, const czk_fr *w, size_t n_w,
                            czk_rng *rng, int threads, czk_circom_timings *t)
{
    czk_circom_timings tm;
    memset(&tm, 0, sizeof tm);
    double w0 = now_s(), c0 = cpu_s(), wt = w0, ct = c0;
    if (n_w != z->n_vars)
        return czk_error(CZK_ERR_INVALID_ARG, "witness has %zu values but the zkey has %u signals", n_w,
                         z->n_vars);
    if (!czk_fr_is_one(&w[0]))
        return czk_error(CZK_ERR_INVALID_ARG, "witness value 0 (the constant ONE signal) is not 1");
    if (threads <= 0) threads = czk_threads();
    size_t n = z->domain_size;
    czk_fr *a = NULL, *b = NULL, *c = NULL;
    czk_ntt_domain *d = NULL;
    czk_status st = CZK_OK;
    a = calloc(n, sizeof(czk_fr));
    b = calloc(n, sizeof(czk_fr));
    c = malloc(n * sizeof(czk_fr));
    if (!a || !b || !c) {
        st = czk_error(CZK_ERR_NOMEM, "prover: 3 x %zu scalars", n);
        goto done;
    }

    /* a_j = sum over A records of row j of coef * w_signal; b likewise. */
#pragma omp parallel sections num_threads(threads < 2 ? 1 : 2) if (z->n_coefs >= 32768)
    {
#pragma omp section
        accumulate(a, z, w, 0);
#pragma omp section
        accumulate(b, z, w, 1);
    }
    int64_t nn = (int64_t)n;
#pragma omp parallel for num_threads(threads) schedule(static) if (nn >= 16384)
    for (int64_t i = 0; i < nn; i++) czk_fr_mul(&c[i], &a[i], &b[i]);
    stage_end(&tm, CZK_CIRCOM_STAGE_AB, &w0, &c0);

    st = czk_ntt_domain_create(&d, z->log_n, CZK_NTT_ROOTS_NQR5);
    if (st != CZK_OK) goto done;
    czk_ntt_domain_set_threads(d, threads);
    st = czk_ntt_snarkjs_h(d, a, b, c, n);
    if (st != CZK_OK) goto done;
    stage_end(&tm, CZK_CIRCOM_STAGE_H, &w0, &c0);

    czk_g1_jac msm_a, msm_b1, msm_c, msm_h;
    czk_g2_jac msm_b2;
    size_t cnt[3] = {0, 0, 0};
    st = czk__circom_msm01_g1(&msm_a, z->a, z->n_a, w, z->n_vars, z->a_density, threads, cnt);
    if (st != CZK_OK) goto done;
    stage_end(&tm, CZK_CIRCOM_STAGE_MSM_A, &w0, &c0);
    st = czk__circom_msm01_g1(&msm_b1, z->b1, z->n_b1, w, z->n_vars, z->b1_density, threads, cnt);
    if (st != CZK_OK) goto done;
    stage_end(&tm, CZK_CIRCOM_STAGE_MSM_B1, &w0, &c0);
    st = czk__circom_msm01_g2(&msm_b2, z->b2, z->n_b2, w, z->n_vars, z->b2_density, threads, cnt);
    if (st != CZK_OK) goto done;
    stage_end(&tm, CZK_CIRCOM_STAGE_MSM_B2, &w0, &c0);
    size_t np1 = (size_t)z->n_public + 1;
    st = czk__circom_msm01_g1(&msm_c, z->c, z->n_vars - np1, w + np1, z->n_vars - np1, NULL, threads, cnt);
    if (st != CZK_OK) goto done;
    stage_end(&tm, CZK_CIRCOM_STAGE_MSM_C, &w0, &c0);
    czk_msm_opts mo;
    memset(&mo, 0, sizeof mo);
    mo.threads = threads;
    st = czk_msm_g1_var(&msm_h, z->h, n, a, n, NULL, &mo);
    if (st != CZK_OK) goto done;
    stage_end(&tm, CZK_CIRCOM_STAGE_MSM_H, &w0, &c0);
    tm.n_zero = cnt[0];
    tm.n_one = cnt[1];
    tm.n_rest = cnt[2];

    /* Blinding with fresh r, s (FACTS.md §8):
     * pi_A = alpha1 + sum w A + r delta1; pi_B = beta2 + sum w B2 + s delta2;
     * B1 = beta1 + sum w B1 + s delta1;
     * pi_C = sum_{s>nPublic} w C + sum h H + s pi_A + r B1 - r s delta1. */
    czk_fr r, s, rs;
    czk_rng os;
    if (!rng) {
        st = czk_rng_from_os(&os);
        if (st != CZK_OK) goto done;
        rng = &os;
    }
    czk_fr_random(&r, rng);
    czk_fr_random(&s, rng);
    if (rng == &os) memset(&os, 0, sizeof os);
    czk_fr_mul(&rs, &r, &s);
    czk_g1_jac d1, tj, pa, b1, pc;
    czk_g2_jac d2, t2, pb;
    czk_g1_jac_from_affine(&d1, &z->delta1);
    czk_g2_jac_from_affine(&d2, &z->delta2);

    pa = msm_a;
    g1_add_aff(&pa, &z->alpha1);
    czk_g1_mul_ct(&tj, &d1, &r);
    czk_g1_jac_add(&pa, &pa, &tj);

    pb = msm_b2;
    if (!z->beta2.inf) czk_g2_jac_add_affine(&pb, &pb, &z->beta2);
    czk_g2_mul_ct(&t2, &d2, &s);
    czk_g2_jac_add(&pb, &pb, &t2);

    b1 = msm_b1;
    g1_add_aff(&b1, &z->beta1);
    czk_g1_mul_ct(&tj, &d1, &s);
    czk_g1_jac_add(&b1, &b1, &tj);

    czk_g1_jac_add(&pc, &msm_c, &msm_h);
    czk_g1_mul_ct(&tj, &pa, &s);
    czk_g1_jac_add(&pc, &pc, &tj);
    czk_g1_mul_ct(&tj, &b1, &r);
    czk_g1_jac_add(&pc, &pc, &tj);
    czk_g1_mul_ct(&tj, &d1, &rs);
    czk_g1_jac_neg(&tj, &tj);
    czk_g1_jac_add(&pc, &pc, &tj);
    memset(&r, 0, sizeof r);
    memset(&s, 0, sizeof s);
    memset(&rs, 0, sizeof rs);

    czk_g1_jac_to_affine(&out->a, &pa);
    czk_g2_jac_to_affine(&out->b, &pb);
    czk_g1_jac_to_affine(&out->c, &pc);
    stage_end(&tm, CZK_CIRCOM_STAGE_FINISH, &w0, &c0);
    stage_end(&tm, CZK_CIRCOM_STAGE_TOTAL, &wt, &ct);
    if (t) *t = tm;
done:
    czk_ntt_domain_destroy(d);
    free(a);
    free(b);
    free(c);
    return st;
}

czk_status czk_circom_verify(const czk_circom_vk *vk, const czk_groth16_proof *pr, const czk_fr *pub,
                             size_t n_pub)
{
    if (n_pub != vk->n_public)
        return czk_error(CZK_ERR_INVALID_ARG, "%zu public values given, the verification key expects %u", n_pub,
                         vk->n_public);
    /* vk_x = IC_0 + sum pub_i IC_i */
    czk_g1_jac acc;
    czk_g1_jac_from_affine(&acc, &vk->ic[0]);
    if (vk->ic[0].inf) czk_g1_jac_set_inf(&acc);
    for (size_t i = 0; i < n_pub; i++) {
        if (vk->ic[i + 1].inf) continue;
        czk_g1_jac p, q;
        czk_g1_jac_from_affine(&p, &vk->ic[i + 1]);
        czk_g1_mul_var(&q, &p, &pub[i]);
        czk_g1_jac_add(&acc, &acc, &q);
    }
    /* e(-A, B) e(vk_x, gamma2) e(C, delta2) e(alpha1, beta2) == 1 */
    czk_g1_affine p[4];
    czk_g2_affine q[4];
    czk_g1_affine_neg(&p[0], &pr->a);
    q[0] = pr->b;
    czk_g1_jac_to_affine(&p[1], &acc);
    q[1] = vk->gamma2;
    p[2] = pr->c;
    q[2] = vk->delta2;
    p[3] = vk->alpha1;
    q[3] = vk->beta2;
    if (!czk_pairing_check(p, q, 4)) return czk_error(CZK_ERR_VERIFY, "the Groth16 pairing equation does not hold");
    return CZK_OK;
}
