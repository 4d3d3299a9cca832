/* Batched Groth16 prover: n witnesses of one circuit, one parameter set.
 *
 * Per witness, as bellperson computes it (FACTS.md §2):
 *   A = alpha + sum_i w_i a_i + r delta                          (G1)
 *   B = beta  + sum_i w_i b_i + s delta                          (G2, and B1 in G1)
 *   C = sum_aux w_i l_i + sum_j h_j H_j + s A + r B1 - r s delta (G1)
 * with h the coefficients of (A(x) B(x) - C(x)) / (x^m - 1) on the coset 7.
 *
 * Shared across the batch: the NTT domain (twiddles built once), and each
 * query's MSM is one multi-scalar-set Pippenger pass
 * (czk_msm_g1_var_multi / czk_msm_g2_var_multi): every base of h, l, a,
 * b_g1 and b_g2 is read once per window for all n witnesses and added into
 * n bucket sets side by side, sharing the base traffic and the batch
 * inversions. The B (G2) queries run on their own thread beside the G1
 * work. This needs the witnesses' density masks to be equal (they are for
 * one circuit: the masks record which variables occur in A and B); if they
 * differ, or n = 1, each witness gets its own MSM calls (same results).
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "czk/czk.h"
#include "czk/engine.h"
#include "czk/msm.h"
#include "czk/ntt.h"
#include "engine/engine_internal.h"


static size_t max_sz(size_t a, size_t b) { return a > b ? a : b; }

static void *aligned_scratch(size_t bytes)
{
    if (bytes == 0) return NULL;
    return aligned_alloc(64, (bytes + 63) & ~(size_t)63);
}

/* One query's MSM for every witness: bases + off[i] (nb[i] of them) against
 * scalars sc[i] (len entries) under density dens[i] (NULL: dense). With
 * multi the off, nb and dens of every witness are equal and one
 * multi-scalar-set pass serves all. */
typedef struct query {
    size_t off[CZK_ENGINE_MAX_BATCH], nb[CZK_ENGINE_MAX_BATCH];
    const czk_fr *sc[CZK_ENGINE_MAX_BATCH];
    const uint64_t *dens[CZK_ENGINE_MAX_BATCH];
    size_t len;
} query;

static size_t g1_query_scratch(const query *q, size_t n, int multi, const czk_msm_opts *o)
{
    if (multi) return czk_msm_g1_multi_scratch_size(q->nb[0], n, o);
    size_t need = 0;
    for (size_t i = 0; i < n; i++) need = max_sz(need, czk_msm_g1_scratch_size(q->nb[i], o));
    return need;
}

static size_t g2_query_scratch(const query *q, size_t n, int multi, const czk_msm_opts *o)
{
    if (multi) return czk_msm_g2_multi_scratch_size(q->nb[0], n, o);
    size_t need = 0;
    for (size_t i = 0; i < n; i++) need = max_sz(need, czk_msm_g2_scratch_size(q->nb[i], o));
    return need;
}

static czk_status g1_query_run(czk_g1_jac *out, const czk_g1_affine *bases, const query *q, size_t n, int multi,
                               const czk_msm_opts *o)
{
    if (multi) return czk_msm_g1_var_multi(out, n, bases + q->off[0], q->nb[0], q->sc, q->len, q->dens[0], o);
    for (size_t i = 0; i < n; i++)
        CZK_TRY(czk_msm_g1_var(&out[i], bases + q->off[i], q->nb[i], q->sc[i], q->len, q->dens[i], o));
    return CZK_OK;
}

static czk_status g2_query_run(czk_g2_jac *out, const czk_g2_affine *bases, const query *q, size_t n, int multi,
                               const czk_msm_opts *o)
{
    if (multi) return czk_msm_g2_var_multi(out, n, bases + q->off[0], q->nb[0], q->sc, q->len, q->dens[0], o);
    for (size_t i = 0; i < n; i++)
        CZK_TRY(czk_msm_g2_var(&out[i], bases + q->off[i], q->nb[i], q->sc[i], q->len, q->dens[i], o));
    return CZK_OK;
}

/* The queries of a batch (FACTS.md §2: inputs first, then aux under the
 * density masks). */
typedef struct queries {
    query h, l, a_in, a_aux, b_in, b_aux;
} queries;

static void queries_init(queries *Q, const czk_cs_assignment *const *w, size_t n, const czk_fr *h, size_t m)
{
    Q->h.len = m - 1;
    Q->l.len = w[0]->n_aux;
    Q->a_in.len = w[0]->n_input;
    Q->a_aux.len = w[0]->n_aux;
    Q->b_in.len = w[0]->n_input;
    Q->b_aux.len = w[0]->n_aux;
    for (size_t i = 0; i < n; i++) {
        const czk_cs_assignment *x = w[i];
        Q->h.off[i] = 0, Q->h.nb[i] = m - 1, Q->h.sc[i] = h + i * m, Q->h.dens[i] = NULL;
        Q->l.off[i] = 0, Q->l.nb[i] = x->n_aux, Q->l.sc[i] = x->aux, Q->l.dens[i] = NULL;
        Q->a_in.off[i] = 0, Q->a_in.nb[i] = x->n_input, Q->a_in.sc[i] = x->input, Q->a_in.dens[i] = NULL;
        Q->a_aux.off[i] = x->n_input, Q->a_aux.nb[i] = x->a_aux_popcount, Q->a_aux.sc[i] = x->aux;
        Q->a_aux.dens[i] = x->a_aux_density;
        Q->b_in.off[i] = 0, Q->b_in.nb[i] = x->b_input_popcount, Q->b_in.sc[i] = x->input;
        Q->b_in.dens[i] = x->b_input_density;
        Q->b_aux.off[i] = x->b_input_popcount, Q->b_aux.nb[i] = x->b_aux_popcount, Q->b_aux.sc[i] = x->aux;
        Q->b_aux.dens[i] = x->b_aux_density;
    }
}

/* Bitmaps equal in their first nbits bits (the MSM ignores the rest). */
static int bits_equal(const uint64_t *x, const uint64_t *y, size_t nbits)
{
    if (x == y) return 1;
    if (!x || !y) return 0;
    size_t full = nbits / 64, rest = nbits % 64;
    if (full && memcmp(x, y, full * sizeof(uint64_t)) != 0) return 0;
    return rest == 0 || ((x[full] ^ y[full]) & ((UINT64_C(1) << rest) - 1)) == 0;
}

static int densities_equal(const czk_cs_assignment *const *w, size_t n)
{
    for (size_t i = 1; i < n; i++) {
        if (w[i]->n_input != w[0]->n_input || w[i]->n_aux != w[0]->n_aux) return 0;
        if (!bits_equal(w[i]->a_aux_density, w[0]->a_aux_density, w[0]->n_aux) ||
            !bits_equal(w[i]->b_input_density, w[0]->b_input_density, w[0]->n_input) ||
            !bits_equal(w[i]->b_aux_density, w[0]->b_aux_density, w[0]->n_aux))
            return 0;
    }
    return 1;
}

int czk__engine_batch_is_multi(const czk_cs_assignment *const *w, size_t n)
{
    return n > 1 && densities_equal(w, n);
}

typedef struct g2_batch {
    const czk_groth16_params *p;
    const queries *Q;
    size_t n;
    int multi, threads;
    czk_g2_jac *in, *aux; /* n each */
    czk_status status;
    char msg[400];
} g2_batch;

static void *g2_batch_worker(void *arg)
{
    g2_batch *j = arg;
    czk_msm_opts o = {0};
    o.threads = j->threads;
    size_t need = max_sz(g2_query_scratch(&j->Q->b_in, j->n, j->multi, &o),
                         g2_query_scratch(&j->Q->b_aux, j->n, j->multi, &o));
    void *scratch = aligned_scratch(need);
    if (need && !scratch) {
        j->status = CZK_ERR_NOMEM;
        snprintf(j->msg, sizeof j->msg, "B (G2) MSM scratch of %zu bytes", need);
        return NULL;
    }
    o.scratch = scratch;
    o.scratch_size = need;
    j->status = g2_query_run(j->in, j->p->b_g2, &j->Q->b_in, j->n, j->multi, &o);
    if (j->status == CZK_OK) j->status = g2_query_run(j->aux, j->p->b_g2, &j->Q->b_aux, j->n, j->multi, &o);
    if (j->status != CZK_OK) snprintf(j->msg, sizeof j->msg, "B (G2) MSM: %s", czk_last_error());
    free(scratch);
    return NULL;
}

static void random_nonzero(czk_fr *r, czk_rng *rng)
{
    do czk_fr_random(r, rng);
    while (czk_fr_is_zero(r));
}

/* G1 sums of the batch, one array of n per query. */
enum { S_H, S_L, S_A_IN, S_A_AUX, S_B_IN, S_B_AUX, S_COUNT };

czk_status czk_engine_prove_batch(czk_groth16_proof *out, const czk_groth16_params *p,
                                  const czk_cs_assignment *const *w, size_t n, int threads,
                                  czk_rng *rng)
{
    czk_init();
    if (n == 0) return CZK_OK;
    if (!out || !p || !w) return czk_error(CZK_ERR_INVALID_ARG, "prove_batch: NULL argument");
    if (n > CZK_ENGINE_MAX_BATCH)
        return czk_error(CZK_ERR_INVALID_ARG, "prove_batch: %zu witnesses, at most %d", n, CZK_ENGINE_MAX_BATCH);
    for (size_t i = 0; i < n; i++) {
        if (!w[i]) return czk_error(CZK_ERR_INVALID_ARG, "prove_batch: witness %zu is NULL", i);
        czk_status st = czk_groth16_params_match(p, w[i]);
        if (st != CZK_OK) return czk_error_context(st, "prove_batch: witness %zu", i);
        if (w[i]->n_constraints != w[0]->n_constraints)
            return czk_error(CZK_ERR_INVALID_ARG, "prove_batch: witness %zu has %zu constraints, witness 0 %zu",
                             i, w[i]->n_constraints, w[0]->n_constraints);
    }
    if (threads <= 0) threads = czk_threads();
    int multi = czk__engine_batch_is_multi(w, n);

    unsigned log_m = 0;
    size_t m = 1;
    while (m < w[0]->n_constraints) m <<= 1, log_m++;

    czk_status st = CZK_OK;
    czk_fr *rs = malloc(2 * n * sizeof(czk_fr));
    czk_g1_jac *sums = malloc(S_COUNT * n * sizeof(czk_g1_jac));
    czk_g2_jac *g2res = malloc(2 * n * sizeof(czk_g2_jac));
    czk_fr *h = malloc(n * m * sizeof(czk_fr)); /* h scalars of each witness */
    czk_fr *bc = malloc(2 * m * sizeof(czk_fr));
    queries *Q = malloc(sizeof *Q);
    czk_ntt_domain *dom = NULL;
    void *scratch = NULL;
    pthread_t g2_thread;
    int g2_started = 0;
    g2_batch g2 = {0};
    if (!rs || !sums || !g2res || !h || !bc || !Q) {
        st = czk_error(CZK_ERR_NOMEM, "prove_batch: vectors for %zu witnesses of %zu constraints", n, m);
        goto out;
    }
    queries_init(Q, w, n, h, m);

    czk_rng own;
    czk_rng *src = rng;
    if (!src) {
        st = czk_rng_from_os(&own);
        if (st != CZK_OK) goto out;
        src = &own;
    }
    /* r then s per proof, in witness order: the draws of n czk_groth16_prove calls */
    for (size_t i = 0; i < 2 * n; i++) random_nonzero(&rs[i], src);
    if (src == &own) czk_rng_clear(&own);

    g2.p = p;
    g2.Q = Q;
    g2.n = n;
    g2.multi = multi;
    g2.threads = threads > 2 ? threads / 3 : 1;
    g2.in = g2res;
    g2.aux = g2res + n;
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
    const query *g1q[S_COUNT] = {&Q->h, &Q->l, &Q->a_in, &Q->a_aux, &Q->b_in, &Q->b_aux};
    const czk_g1_affine *g1b[S_COUNT] = {p->h, p->l, p->a, p->a, p->b_g1, p->b_g1};
    static const char *const g1name[S_COUNT] = {"h", "l", "a (inputs)", "a (aux)", "b_g1 (inputs)", "b_g1 (aux)"};
    size_t need = 0;
    for (int k = 0; k < S_COUNT; k++) need = max_sz(need, g1_query_scratch(g1q[k], n, multi, &o));
    scratch = aligned_scratch(need);
    if (need && !scratch) {
        st = czk_error(CZK_ERR_NOMEM, "prove_batch: G1 MSM scratch of %zu bytes", need);
        goto out;
    }
    o.scratch = scratch;
    o.scratch_size = need;
    for (int k = 0; k < S_COUNT && st == CZK_OK; k++) {
        st = g1_query_run(sums + (size_t)k * n, g1b[k], g1q[k], n, multi, &o);
        if (st != CZK_OK) st = czk_error_context(st, "prove_batch: %s MSM", g1name[k]);
    }
    if (st != CZK_OK) goto out;
    if (g2_started) pthread_join(g2_thread, NULL), g2_started = 0;
    if (g2.status != CZK_OK) {
        st = czk_error(g2.status, "prove_batch: %s", g2.msg);
        goto out;
    }

    for (size_t i = 0; i < n; i++) {
        const czk_fr *r = &rs[2 * i], *s = &rs[2 * i + 1];
        const czk_g1_jac *q_h = &sums[S_H * n + i], *q_l = &sums[S_L * n + i];
        const czk_g1_jac *q_ain = &sums[S_A_IN * n + i], *q_aaux = &sums[S_A_AUX * n + i];
        const czk_g1_jac *q_bin = &sums[S_B_IN * n + i], *q_baux = &sums[S_B_AUX * n + i];
        czk_g1_jac A, B1, C, t;
        czk_g2_jac B, t2;
        /* A = alpha + a_in + a_aux + r delta */
        czk_g1_jac_from_affine(&A, &p->vk.alpha_g1);
        czk_g1_jac_add(&A, &A, q_ain);
        czk_g1_jac_add(&A, &A, q_aaux);
        czk_g1_jac_from_affine(&t, &p->vk.delta_g1);
        czk_g1_mul_ct(&t, &t, r);
        czk_g1_jac_add(&A, &A, &t);
        /* B = beta + b_in + b_aux + s delta (G2) */
        czk_g2_jac_from_affine(&B, &p->vk.beta_g2);
        czk_g2_jac_add(&B, &B, &g2res[i]);
        czk_g2_jac_add(&B, &B, &g2res[n + i]);
        czk_g2_jac_from_affine(&t2, &p->vk.delta_g2);
        czk_g2_mul_ct(&t2, &t2, s);
        czk_g2_jac_add(&B, &B, &t2);
        /* B1 = beta + b_in + b_aux + s delta (G1) */
        czk_g1_jac_from_affine(&B1, &p->vk.beta_g1);
        czk_g1_jac_add(&B1, &B1, q_bin);
        czk_g1_jac_add(&B1, &B1, q_baux);
        czk_g1_jac_from_affine(&t, &p->vk.delta_g1);
        czk_g1_mul_ct(&t, &t, s);
        czk_g1_jac_add(&B1, &B1, &t);
        /* C = h + l + s A + r B1 - r s delta */
        czk_g1_jac_add(&C, q_h, q_l);
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
    free(Q);
    free(scratch);
    czk_ntt_domain_destroy(dom);
    return st;
}

/* Largest scratch of a k-set MSM (k = 1: a plain call) over the base counts
 * an MSM of at most nmax bases may see: the counts themselves and every
 * power of two up to nmax (the size is not monotone in the count, but grows
 * with it within a window choice). */
static size_t scratch_bound(size_t nmax, const size_t *cand, size_t nc, int g2, size_t k, const czk_msm_opts *o)
{
    size_t need = 0;
    for (size_t i = 0; i <= nc; i++) {
        size_t c = i < nc ? cand[i] : nmax;
        if (c > nmax) continue;
        need = max_sz(need, g2 ? czk_msm_g2_multi_scratch_size(c, k, o) : czk_msm_g1_multi_scratch_size(c, k, o));
    }
    for (size_t b = 1; b <= nmax; b <<= 1) {
        need = max_sz(need, g2 ? czk_msm_g2_multi_scratch_size(b, k, o) : czk_msm_g1_multi_scratch_size(b, k, o));
        if (b > nmax / 2) break;
    }
    return need;
}

uint64_t czk__engine_prove_bytes_batch(const czk_cs_sizes *s, const czk_groth16_params *p, int threads, int batch)
{
    if (threads <= 0) threads = czk_threads();
    if (batch < 1) batch = 1;
    if (batch > CZK_ENGINE_MAX_BATCH) batch = CZK_ENGINE_MAX_BATCH;
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
    size_t n2 = max_sz(c2[0], nvar);
    /* A pass over k tasks (k <= batch, each holding this reservation) needs
     * h of each (k m), b and c (2 m), twiddles (< m elements plus small
     * tables) and the k-set G1 and G2 scratch: reserve the largest share
     * per task over k. For k = 1 this is the plain prover's footprint. */
    uint64_t share = 0;
    for (int k = 1; k <= batch; k++) {
        uint64_t kk = (uint64_t)k;
        uint64_t total = (kk + 3) * m * sizeof(czk_fr) + 65536 + scratch_bound(n1, c1, 6, 0, kk, &o1) +
                         scratch_bound(n2, c2, 3, 1, kk, &o2);
        uint64_t per = (total + kk - 1) / kk;
        if (per > share) share = per;
    }
    return share;
}

uint64_t czk_engine_prove_bytes(const czk_cs_sizes *s, const czk_groth16_params *p, int threads)
{
    return czk__engine_prove_bytes_batch(s, p, threads, 1);
}
