/* Batched Groth16 prover: n witnesses of one circuit, one parameter set.
 *
 * Per witness, as bellperson computes it (FACTS.md §2):
 *   A = alpha + sum_i w_i a_i + r delta                          (G1)
 *   B = beta  + sum_i w_i b_i + s delta                          (G2, and B1 in G1)
 *   C = sum_aux w_i l_i + sum_j h_j H_j + s A + r B1 - r s delta (G1)
 * with h the coefficients of (A(x) B(x) - C(x)) / (x^m - 1) on the coset 7.
 *
 * Shared across the batch: the NTT domain (twiddles built once), one G1 MSM
 * scratch sized for the largest query, one G2 thread with its own scratch
 * running all B (G2) MSMs beside the G1 work, and each query's bases read
 * for all witnesses back to back (h for all, then l for all, ...), so a
 * query that fits in cache is read from memory once per batch.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "czk/czk.h"
#include "czk/engine.h"
#include "czk/msm.h"
#include "czk/ntt.h"


typedef struct g2_batch {
    const czk_groth16_params *p;
    const czk_cs_assignment *const *w;
    size_t n;
    int threads;
    czk_g2_jac *result; /* n */
    czk_status status;
    char msg[400];
} g2_batch;

static size_t max_sz(size_t a, size_t b) { return a > b ? a : b; }

static void *aligned_scratch(size_t bytes)
{
    if (bytes == 0) return NULL;
    return aligned_alloc(64, (bytes + 63) & ~(size_t)63);
}

static void *g2_batch_worker(void *arg)
{
    g2_batch *j = arg;
    czk_msm_opts o = {0};
    o.threads = j->threads;
    /* the scratch size is not monotone in the base count (the window
     * changes): take the largest over the calls made */
    size_t need = 0;
    for (size_t i = 0; i < j->n; i++) {
        need = max_sz(need, czk_msm_g2_scratch_size(j->w[i]->b_input_popcount, &o));
        need = max_sz(need, czk_msm_g2_scratch_size(j->w[i]->b_aux_popcount, &o));
    }
    void *scratch = aligned_scratch(need);
    if (need && !scratch) {
        j->status = CZK_ERR_NOMEM;
        snprintf(j->msg, sizeof j->msg, "B (G2) MSM scratch of %zu bytes", need);
        return NULL;
    }
    o.scratch = scratch;
    o.scratch_size = need;
    for (size_t i = 0; i < j->n && j->status == CZK_OK; i++) {
        const czk_cs_assignment *w = j->w[i];
        czk_g2_jac in_sum, aux_sum;
        j->status = czk_msm_g2_var(&in_sum, j->p->b_g2, w->b_input_popcount, w->input, w->n_input,
                                   w->b_input_density, &o);
        if (j->status == CZK_OK)
            j->status = czk_msm_g2_var(&aux_sum, j->p->b_g2 + w->b_input_popcount, w->b_aux_popcount,
                                       w->aux, w->n_aux, w->b_aux_density, &o);
        if (j->status == CZK_OK)
            czk_g2_jac_add(&j->result[i], &in_sum, &aux_sum);
        else
            snprintf(j->msg, sizeof j->msg, "witness %zu: B (G2) MSM: %s", i, czk_last_error());
    }
    free(scratch);
    return NULL;
}

static void random_nonzero(czk_fr *r, czk_rng *rng)
{
    do czk_fr_random(r, rng);
    while (czk_fr_is_zero(r));
}

/* Per witness: the G1 sums the proof combines. */
typedef struct g1_sums {
    czk_g1_jac h, l, a_in, a_aux, b_in, b_aux;
} g1_sums;

czk_status czk_engine_prove_batch(czk_groth16_proof *out, const czk_groth16_params *p,
                                  const czk_cs_assignment *const *w, size_t n, int threads,
                                  czk_rng *rng)
{
    czk_init();
    if (n == 0) return CZK_OK;
    if (!out || !p || !w) return czk_error(CZK_ERR_INVALID_ARG, "prove_batch: NULL argument");
    for (size_t i = 0; i < n; i++) {
        czk_status st = czk_groth16_params_match(p, w[i]);
        if (st != CZK_OK) return czk_error_context(st, "prove_batch: witness %zu", i);
        if (w[i]->n_constraints != w[0]->n_constraints)
            return czk_error(CZK_ERR_INVALID_ARG, "prove_batch: witness %zu has %zu constraints, witness 0 %zu",
                             i, w[i]->n_constraints, w[0]->n_constraints);
    }
    if (threads <= 0) threads = czk_threads();

    unsigned log_m = 0;
    size_t m = 1;
    while (m < w[0]->n_constraints) m <<= 1, log_m++;

    czk_status st = CZK_OK;
    czk_fr *rs = malloc(2 * n * sizeof(czk_fr));
    g1_sums *sums = malloc(n * sizeof(g1_sums));
    czk_g2_jac *g2res = malloc(n * sizeof(czk_g2_jac));
    czk_fr *h = malloc(n * m * sizeof(czk_fr)); /* h scalars of each witness */
    czk_fr *bc = malloc(2 * m * sizeof(czk_fr));
    czk_ntt_domain *dom = NULL;
    void *scratch = NULL;
    pthread_t g2_thread;
    int g2_started = 0;
    g2_batch g2 = {0};
    if (!rs || !sums || !g2res || !h || !bc) {
        st = czk_error(CZK_ERR_NOMEM, "prove_batch: vectors for %zu witnesses of %zu constraints", n, m);
        goto out;
    }

    czk_rng own;
    czk_rng *src = rng;
    if (!src) {
        st = czk_rng_from_os(&own);
        if (st != CZK_OK) goto out;
        src = &own;
    }
    for (size_t i = 0; i < 2 * n; i++) random_nonzero(&rs[i], src);
    if (src == &own) czk_rng_clear(&own);

    g2.p = p;
    g2.w = w;
    g2.n = n;
    g2.threads = threads > 2 ? threads / 3 : 1;
    g2.result = g2res;
    int g1_threads = threads > 2 ? threads - g2.threads : threads;
    if (pthread_create(&g2_thread, NULL, g2_batch_worker, &g2) == 0)
        g2_started = 1;
    else
        g2_batch_worker(&g2);

    /* H of each witness: pad a, b, c to m; czk_ntt_groth16_h leaves h in a. */
    st = czk_ntt_domain_create(&dom, log_m, CZK_NTT_ROOTS_GEN7);
    if (st != CZK_OK) goto out;
    czk_ntt_domain_set_threads(dom, g1_threads);
    for (size_t i = 0; i < n && st == CZK_OK; i++) {
        const czk_cs_assignment *wi = w[i];
        size_t nc = wi->n_constraints;
        czk_fr *a = h + i * m, *b = bc, *c = bc + m;
        memcpy(a, wi->a, nc * sizeof(czk_fr));
        memcpy(b, wi->b, nc * sizeof(czk_fr));
        memcpy(c, wi->c, nc * sizeof(czk_fr));
        memset(a + nc, 0, (m - nc) * sizeof(czk_fr));
        memset(b + nc, 0, (m - nc) * sizeof(czk_fr));
        memset(c + nc, 0, (m - nc) * sizeof(czk_fr));
        st = czk_ntt_groth16_h(dom, a, b, c, m);
        if (st != CZK_OK) st = czk_error_context(st, "prove_batch: witness %zu: H", i);
    }
    if (st != CZK_OK) goto out;

    czk_msm_opts o = {0};
    o.threads = g1_threads;
    size_t need = max_sz(czk_msm_g1_scratch_size(p->n_h, &o), czk_msm_g1_scratch_size(p->n_l, &o));
    for (size_t i = 0; i < n; i++) {
        need = max_sz(need, czk_msm_g1_scratch_size(w[i]->n_input, &o));
        need = max_sz(need, czk_msm_g1_scratch_size(w[i]->a_aux_popcount, &o));
        need = max_sz(need, czk_msm_g1_scratch_size(w[i]->b_input_popcount, &o));
        need = max_sz(need, czk_msm_g1_scratch_size(w[i]->b_aux_popcount, &o));
    }
    scratch = aligned_scratch(need);
    if (need && !scratch) {
        st = czk_error(CZK_ERR_NOMEM, "prove_batch: G1 MSM scratch of %zu bytes", need);
        goto out;
    }
    o.scratch = scratch;
    o.scratch_size = need;
    for (size_t i = 0; i < n && st == CZK_OK; i++)
        st = czk_msm_g1_var(&sums[i].h, p->h, p->n_h, h + i * m, m - 1, NULL, &o);
    for (size_t i = 0; i < n && st == CZK_OK; i++)
        st = czk_msm_g1_var(&sums[i].l, p->l, p->n_l, w[i]->aux, w[i]->n_aux, NULL, &o);
    for (size_t i = 0; i < n && st == CZK_OK; i++) {
        st = czk_msm_g1_var(&sums[i].a_in, p->a, w[i]->n_input, w[i]->input, w[i]->n_input, NULL, &o);
        if (st == CZK_OK)
            st = czk_msm_g1_var(&sums[i].a_aux, p->a + w[i]->n_input, w[i]->a_aux_popcount, w[i]->aux,
                                w[i]->n_aux, w[i]->a_aux_density, &o);
    }
    for (size_t i = 0; i < n && st == CZK_OK; i++) {
        st = czk_msm_g1_var(&sums[i].b_in, p->b_g1, w[i]->b_input_popcount, w[i]->input, w[i]->n_input,
                            w[i]->b_input_density, &o);
        if (st == CZK_OK)
            st = czk_msm_g1_var(&sums[i].b_aux, p->b_g1 + w[i]->b_input_popcount, w[i]->b_aux_popcount,
                                w[i]->aux, w[i]->n_aux, w[i]->b_aux_density, &o);
    }
    if (st != CZK_OK) {
        st = czk_error_context(st, "prove_batch: G1 MSM");
        goto out;
    }
    if (g2_started) pthread_join(g2_thread, NULL), g2_started = 0;
    if (g2.status != CZK_OK) {
        st = czk_error(g2.status, "prove_batch: %s", g2.msg);
        goto out;
    }

    for (size_t i = 0; i < n; i++) {
        const czk_fr *r = &rs[2 * i], *s = &rs[2 * i + 1];
        g1_sums *q = &sums[i];
        czk_g1_jac A, B1, C, t;
        czk_g2_jac B, t2;
        /* A = alpha + a_in + a_aux + r delta */
        czk_g1_jac_from_affine(&A, &p->vk.alpha_g1);
        czk_g1_jac_add(&A, &A, &q->a_in);
        czk_g1_jac_add(&A, &A, &q->a_aux);
        czk_g1_jac_from_affine(&t, &p->vk.delta_g1);
        czk_g1_mul_ct(&t, &t, r);
        czk_g1_jac_add(&A, &A, &t);
        /* B = beta + sum + s delta (G2) */
        czk_g2_jac_from_affine(&B, &p->vk.beta_g2);
        czk_g2_jac_add(&B, &B, &g2res[i]);
        czk_g2_jac_from_affine(&t2, &p->vk.delta_g2);
        czk_g2_mul_ct(&t2, &t2, s);
        czk_g2_jac_add(&B, &B, &t2);
        /* B1 = beta + sum + s delta (G1) */
        czk_g1_jac_from_affine(&B1, &p->vk.beta_g1);
        czk_g1_jac_add(&B1, &B1, &q->b_in);
        czk_g1_jac_add(&B1, &B1, &q->b_aux);
        czk_g1_jac_from_affine(&t, &p->vk.delta_g1);
        czk_g1_mul_ct(&t, &t, s);
        czk_g1_jac_add(&B1, &B1, &t);
        /* C = h + l + s A + r B1 - r s delta */
        czk_g1_jac_add(&C, &q->h, &q->l);
        czk_g1_mul_ct(&t, &A, s);
        czk_g1_jac_add(&C, &C, &t);
        czk_g1_mul_ct(&t, &B1, r);
        czk_g1_jac_add(&C, &C, &t);
        czk_fr rsv;
        czk_fr_mul(&rsv, r, s);
        czk_g1_jac_from_affine(&t, &p->vk.delta_g1);
        czk_g1_mul_ct(&t, &t, &rsv);
        czk_g1_jac_neg(&t, &t);
        czk_g1_jac_add(&C, &C, &t);
        czk_g1_jac_to_affine(&out[i].a, &A);
        czk_g2_jac_to_affine(&out[i].b, &B);
        czk_g1_jac_to_affine(&out[i].c, &C);
        memset(&rsv, 0, sizeof rsv);
    }

out:
    if (g2_started) pthread_join(g2_thread, NULL);
    if (rs) memset(rs, 0, 2 * n * sizeof(czk_fr));
    free(rs);
    free(sums);
    free(g2res);
    free(h);
    free(bc);
    free(scratch);
    czk_ntt_domain_destroy(dom);
    return st;
}

/* Largest scratch over the base counts an MSM of at most nmax bases may
 * see: the counts themselves and every power of two up to nmax (the size
 * is not monotone in the count, but grows with it within a window choice). */
static size_t scratch_bound(size_t nmax, const size_t *cand, size_t nc, int g2, const czk_msm_opts *o)
{
    size_t need = 0;
    for (size_t i = 0; i < nc; i++)
        if (cand[i] <= nmax)
            need = max_sz(need, g2 ? czk_msm_g2_scratch_size(cand[i], o) : czk_msm_g1_scratch_size(cand[i], o));
    for (size_t k = 1; k <= nmax; k <<= 1) {
        need = max_sz(need, g2 ? czk_msm_g2_scratch_size(k, o) : czk_msm_g1_scratch_size(k, o));
        if (k > nmax / 2) break;
    }
    return need;
}

uint64_t czk_engine_prove_bytes(const czk_cs_sizes *s, const czk_groth16_params *p, int threads)
{
    if (threads <= 0) threads = czk_threads();
    uint64_t m = 1;
    while (m < s->n_constraints) m <<= 1;
    int g2t = threads > 2 ? threads / 3 : 1;
    int g1t = threads > 2 ? threads - g2t : threads;
    czk_msm_opts o1 = {0}, o2 = {0};
    o1.threads = g1t;
    o2.threads = g2t;
    size_t nvar = (size_t)(s->n_aux + s->n_inputs);
    size_t c1[6] = {p ? p->n_h : (size_t)m - 1, p ? p->n_l : (size_t)s->n_aux, p ? p->n_a : nvar,
                    p ? p->n_b_g1 : nvar, (size_t)s->n_inputs, (size_t)s->n_aux};
    size_t c2[3] = {p ? p->n_b_g2 : nvar, (size_t)s->n_inputs, (size_t)s->n_aux};
    size_t n1 = max_sz(max_sz(c1[0], c1[1]), max_sz(c1[2], c1[3]));
    /* h + b, c (3 m), twiddles (< m elements plus small tables), scratch */
    return 3 * m * sizeof(czk_fr) + m * sizeof(czk_fr) + 65536 + scratch_bound(n1, c1, 6, 0, &o1) +
           scratch_bound(c2[0] > nvar ? c2[0] : nvar, c2, 3, 1, &o2);
}
