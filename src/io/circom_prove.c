/* Groth16 prover and verifier with snarkjs' semantics (docs/circom.md, "The H
 * section" and "snarkjs prover"; snarkjs groth16_prove.js / groth16_verify.js). */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "czk/czk.h"
#include "czk/msm.h"
#include "czk/ntt.h"
#include "czk/pairing.h"
#include "groth16/groth16_internal.h"
#include "io/io_internal.h"

/* Close a stage: its wall and CPU time since (*w, *c), which move to now. */
static void stage_end(czk_circom_timings *tm, int stage, double *w, double *c)
{
    double w1 = czk_now(), c1 = czk_cpu_now();
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

/* One snarkjs proof through the shared skeleton (src/groth16/groth16_internal.h):
 * a, b from the coefficient section and c = a b (no C matrix), snarkjs' H
 * step on the nqr-5 domain, the 0/1-aware MSMs, B2 first on all threads so
 * that the stages run one after the other. */
typedef struct circom_run {
    const czk_circom_zkey *z;
    const czk_fr *w;
    czk_circom_timings tm;
    double wall, cpu; /* where the open stage began */
    size_t cnt[3];    /* what the 0/1 pre-pass found */
} circom_run;

static void stage_begin(circom_run *c)
{
    c->wall = czk_now();
    c->cpu = czk_cpu_now();
}

/* a_j = sum over A records of row j of coef * w_signal; b likewise; c = a b. */
static czk_status circom_abc(void *ctx, size_t i, czk_fr *a, czk_fr *b, czk_fr *c, size_t m, int threads)
{
    circom_run *cr = ctx;
    const czk_circom_zkey *z = cr->z;
    (void)i;
    stage_begin(cr);
    memset(a, 0, m * sizeof(czk_fr));
    memset(b, 0, m * sizeof(czk_fr));
#pragma omp parallel sections num_threads(threads < 2 ? 1 : 2) if (z->n_coefs >= 32768)
    {
#pragma omp section
        accumulate(a, z, cr->w, 0);
#pragma omp section
        accumulate(b, z, cr->w, 1);
    }
    int64_t nn = (int64_t)m;
#pragma omp parallel for num_threads(threads) schedule(static) if (nn >= 16384)
    for (int64_t k = 0; k < nn; k++) czk_fr_mul(&c[k], &a[k], &b[k]);
    stage_end(&cr->tm, CZK_CIRCOM_STAGE_AB, &cr->wall, &cr->cpu);
    return CZK_OK;
}

static czk_status circom_h_step(const czk_ntt_domain *d, czk_fr *a, czk_fr *b, czk_fr *c, size_t m)
{
    return czk_ntt_snarkjs_h(d, a, b, c, m);
}

/* a = sum w A, b1 = sum w B1, c = sum_{s > nPublic} w C + sum h H. */
static czk_status circom_g1(void *ctx, czk__groth16_sums *sums, const czk_fr *h, size_t m, int threads)
{
    circom_run *cr = ctx;
    const czk_circom_zkey *z = cr->z;
    const czk_fr *w = cr->w;
    stage_end(&cr->tm, CZK_CIRCOM_STAGE_H, &cr->wall, &cr->cpu);
    CZK_TRY(czk__circom_msm01_g1(&sums->a, z->a, z->n_a, w, z->n_vars, z->a_density, threads, cr->cnt));
    stage_end(&cr->tm, CZK_CIRCOM_STAGE_MSM_A, &cr->wall, &cr->cpu);
    CZK_TRY(czk__circom_msm01_g1(&sums->b1, z->b1, z->n_b1, w, z->n_vars, z->b1_density, threads, cr->cnt));
    stage_end(&cr->tm, CZK_CIRCOM_STAGE_MSM_B1, &cr->wall, &cr->cpu);
    size_t np1 = (size_t)z->n_public + 1;
    czk_g1_jac msm_c, msm_h;
    CZK_TRY(czk__circom_msm01_g1(&msm_c, z->c, z->n_vars - np1, w + np1, z->n_vars - np1, NULL, threads, cr->cnt));
    stage_end(&cr->tm, CZK_CIRCOM_STAGE_MSM_C, &cr->wall, &cr->cpu);
    czk_msm_opts mo;
    memset(&mo, 0, sizeof mo);
    mo.threads = threads;
    CZK_TRY(czk_msm_g1_var(&msm_h, z->h, m, h, m, NULL, &mo));
    czk_g1_jac_add(&sums->c, &msm_c, &msm_h);
    stage_end(&cr->tm, CZK_CIRCOM_STAGE_MSM_H, &cr->wall, &cr->cpu);
    return CZK_OK;
}

static czk_status circom_g2(void *ctx, czk__groth16_sums *sums, int threads)
{
    circom_run *cr = ctx;
    const czk_circom_zkey *z = cr->z;
    stage_begin(cr);
    CZK_TRY(czk__circom_msm01_g2(&sums->b2, z->b2, z->n_b2, cr->w, z->n_vars, z->b2_density, threads, cr->cnt));
    stage_end(&cr->tm, CZK_CIRCOM_STAGE_MSM_B2, &cr->wall, &cr->cpu);
    return CZK_OK;
}

czk_status czk_circom_prove(czk_groth16_proof *out, const czk_circom_zkey *z, const czk_fr *w, size_t n_w,
                            czk_rng *rng, int threads, czk_circom_timings *t)
{
    double wt = czk_now(), ct = czk_cpu_now();
    if (n_w != z->n_vars)
        return czk_error(CZK_ERR_INVALID_ARG, "witness has %zu values but the zkey has %u signals", n_w,
                         z->n_vars);
    if (!czk_fr_is_one(&w[0]))
        return czk_error(CZK_ERR_INVALID_ARG, "witness value 0 (the constant ONE signal) is not 1");
    if (threads <= 0) threads = czk_threads();
    circom_run cr = {.z = z, .w = w};
    /* Blinding, as snarkjs groth16_prove.js: pi_A = alpha1 + sum w A + r delta1;
     * pi_B = beta2 + sum w B2 + s delta2; B1 = beta1 + sum w B1 + s delta1;
     * pi_C = sum_{s>nPublic} w C + sum h H + s pi_A + r B1 - r s delta1. */
    czk__groth16_keys keys = {.alpha_g1 = z->alpha1, .beta_g1 = z->beta1, .delta_g1 = z->delta1,
                              .beta_g2 = z->beta2, .delta_g2 = z->delta2};
    czk__groth16_run run = {.n = 1, .log_m = z->log_n, .roots = CZK_NTT_ROOTS_NQR5, .h_step = circom_h_step,
                            .abc = circom_abc, .g1 = circom_g1, .g2 = circom_g2, .g2_inline = 1, .ctx = &cr,
                            .keys = &keys};
    CZK_TRY(czk__groth16_prove_run(out, &run, rng, threads, NULL));
    stage_end(&cr.tm, CZK_CIRCOM_STAGE_FINISH, &cr.wall, &cr.cpu);
    stage_end(&cr.tm, CZK_CIRCOM_STAGE_TOTAL, &wt, &ct);
    cr.tm.n_zero = cr.cnt[0];
    cr.tm.n_one = cr.cnt[1];
    cr.tm.n_rest = cr.cnt[2];
    if (t) *t = cr.tm;
    return CZK_OK;
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
