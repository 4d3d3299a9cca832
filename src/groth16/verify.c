/* Groth16 verification: e(A, B) = e(alpha, beta) e(acc, gamma) e(C, delta),
 * acc = IC_0 + sum_i input_i IC_i (Groth 2016, §3.2; docs/groth16.md). */
#include <stdlib.h>
#include <string.h>

#include "czk/groth16.h"
#include "czk/msm.h"

czk_status czk_groth16_pvk_prepare(czk_groth16_pvk *pvk, const czk_groth16_vk *vk)
{
    memset(pvk, 0, sizeof *pvk);
    if (vk->n_ic == 0 || !vk->ic) return czk_error(CZK_ERR_INVALID_ARG, "verifying key without IC points");
    pvk->vk = vk;
    czk_pairing(&pvk->alpha_beta, &vk->alpha_g1, &vk->beta_g2);
    czk_g2_affine_neg(&pvk->neg_gamma_g2, &vk->gamma_g2);
    czk_g2_affine_neg(&pvk->neg_delta_g2, &vk->delta_g2);
    czk_g2_prepare(&pvk->neg_gamma_prep, &pvk->neg_gamma_g2);
    czk_g2_prepare(&pvk->neg_delta_prep, &pvk->neg_delta_g2);
    return CZK_OK;
}

/* acc = IC_0 + sum_i scalars[i] IC_{i+1} (scalars may be NULL when n = 0). */
static czk_status input_acc(czk_g1_affine *out, const czk_groth16_vk *vk, const czk_fr *scalars,
                            size_t n, const czk_fr *ic0_scale)
{
    czk_g1_jac acc, t;
    czk_g1_jac_from_affine(&t, &vk->ic[0]);
    if (ic0_scale)
        czk_g1_mul_var(&acc, &t, ic0_scale);
    else
        acc = t;
    if (n > 0) {
        czk_msm_opts o = {0};
        o.threads = 1;
        CZK_TRY(czk_msm_g1_var(&t, vk->ic + 1, n, scalars, n, NULL, n < 64 ? &o : NULL));
        czk_g1_jac_add(&acc, &acc, &t);
    }
    czk_g1_jac_to_affine(out, &acc);
    return CZK_OK;
}

czk_status czk_groth16_verify(const czk_groth16_pvk *pvk, const czk_groth16_proof *pr,
                              const czk_fr *inputs, size_t n)
{
    const czk_groth16_vk *vk = pvk->vk;
    if (n + 1 != vk->n_ic)
        return czk_error(CZK_ERR_INVALID_ARG, "the verifying key takes %zu public inputs, %zu given",
                         vk->n_ic - 1, n);
    czk_g1_affine acc;
    CZK_TRY(input_acc(&acc, vk, inputs, n, NULL));
    /* e(A, B) e(acc, -gamma) e(C, -delta) = e(alpha, beta) */
    czk_fp12 f1, f2, f;
    czk_pairing_miller_loop(&f1, &pr->a, &pr->b, 1);
    czk_g1_affine ps[2] = {acc, pr->c};
    czk_g2_prepared *qs = malloc(2 * sizeof *qs);
    if (!qs) return czk_error(CZK_ERR_NOMEM, "verify: line coefficients");
    qs[0] = pvk->neg_gamma_prep;
    qs[1] = pvk->neg_delta_prep;
    czk_pairing_miller_loop_prepared(&f2, ps, qs, 2);
    free(qs);
    czk_fp12_mul(&f, &f1, &f2);
    czk_pairing_final_exp(&f, &f);
    if (!czk_fp12_eq(&f, &pvk->alpha_beta)) return czk_error(CZK_ERR_VERIFY, "proof does not verify");
    return CZK_OK;
}

czk_status czk_groth16_verify_batch(const czk_groth16_pvk *pvk, const czk_groth16_proof *prs,
                                    size_t n_proofs, const czk_fr *inputs, size_t n_per_proof,
                                    czk_rng *rng)
{
    const czk_groth16_vk *vk = pvk->vk;
    if (n_per_proof + 1 != vk->n_ic)
        return czk_error(CZK_ERR_INVALID_ARG, "the verifying key takes %zu public inputs, %zu given",
                         vk->n_ic - 1, n_per_proof);
    if (n_proofs == 0) return CZK_OK;
    if (n_proofs == 1) return czk_groth16_verify(pvk, prs, inputs, n_per_proof);
    czk_rng own;
    if (!rng) {
        CZK_TRY(czk_rng_from_os(&own));
        rng = &own;
    }
    /* Random 128-bit non-zero weights rho_j:
     *   prod_j e(rho_j A_j, B_j) e(sum rho_j acc_j, -gamma) e(sum rho_j C_j, -delta)
     *     e(-(sum rho_j) alpha, beta) = 1 */
    size_t np = n_proofs + 3;
    czk_g1_affine *p = malloc(np * sizeof *p);
    czk_g2_affine *q = malloc(np * sizeof *q);
    czk_fr *rho = malloc(n_proofs * sizeof *rho);
    czk_fr *comb = calloc(n_per_proof ? n_per_proof : 1, sizeof *comb);
    czk_status s = CZK_OK;
    if (!p || !q || !rho || !comb) {
        s = czk_error(CZK_ERR_NOMEM, "batch verify of %zu proofs", n_proofs);
        goto out;
    }
    czk_fr rho_sum = CZK_FR_ZERO;
    czk_g1_jac c_sum;
    czk_g1_jac_set_inf(&c_sum);
    for (size_t j = 0; j < n_proofs; j++) {
        uint64_t limbs[4] = {czk_rng_u64(rng), czk_rng_u64(rng) | 1, 0, 0};
        s = czk_fr_from_limbs(&rho[j], limbs);
        if (s != CZK_OK) goto out;
        czk_fr_add(&rho_sum, &rho_sum, &rho[j]);
        czk_g1_jac t;
        czk_g1_jac_from_affine(&t, &prs[j].a);
        czk_g1_mul_var(&t, &t, &rho[j]);
        czk_g1_jac_to_affine(&p[j], &t);
        q[j] = prs[j].b;
        czk_g1_jac_from_affine(&t, &prs[j].c);
        czk_g1_mul_var(&t, &t, &rho[j]);
        czk_g1_jac_add(&c_sum, &c_sum, &t);
        for (size_t i = 0; i < n_per_proof; i++) {
            czk_fr m;
            czk_fr_mul(&m, &rho[j], &inputs[j * n_per_proof + i]);
            czk_fr_add(&comb[i], &comb[i], &m);
        }
    }
    s = input_acc(&p[n_proofs], vk, comb, n_per_proof, &rho_sum);
    if (s != CZK_OK) goto out;
    q[n_proofs] = pvk->neg_gamma_g2;
    czk_g1_jac_to_affine(&p[n_proofs + 1], &c_sum);
    q[n_proofs + 1] = pvk->neg_delta_g2;
    {
        czk_g1_jac t;
        czk_g1_jac_from_affine(&t, &vk->alpha_g1);
        czk_g1_mul_var(&t, &t, &rho_sum);
        czk_g1_jac_neg(&t, &t);
        czk_g1_jac_to_affine(&p[n_proofs + 2], &t);
        q[n_proofs + 2] = vk->beta_g2;
    }
    if (!czk_pairing_check(p, q, np)) s = czk_error(CZK_ERR_VERIFY, "batch of %zu proofs does not verify", n_proofs);
out:
    if (rng == &own) czk_rng_clear(&own);
    free(p);
    free(q);
    free(rho);
    free(comb);
    return s;
}
