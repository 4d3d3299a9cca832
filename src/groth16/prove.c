/* Groth16 prover as bellperson computes it, for a batch of witnesses of one
 * circuit (the single proof is the batch of one):
 *
 *   A = alpha + sum_i w_i a_i + r delta                          (G1)
 *   B = beta  + sum_i w_i b_i + s delta                          (G2, and B1 in G1)
 *   C = sum_aux w_i l_i + sum_j h_j H_j + s A + r B1 - r s delta (G1)
 *
 * with h the coefficients of (A(x) B(x) - C(x)) / (x^m - 1) computed by NTTs
 * on the coset 7 (czk_ntt_groth16_h) and r, s fresh uniform scalars. The
 * skeleton (padding, H, the G2 thread, the assembly) is prove_run.c's; this
 * file supplies the bellperson inputs and queries.
 *
 * Shared across the batch: the NTT domain (twiddles built once), and each
 * query's MSM is one multi-scalar-set Pippenger pass (czk_msm_g1_var_multi /
 * czk_msm_g2_var_multi): every base of h, l, a, b_g1 and b_g2 is read once
 * per window for all n witnesses and added into n bucket sets side by side,
 * sharing the base traffic and the batch inversions. This needs the
 * witnesses' density masks to be equal (they are for one circuit: the masks
 * record which variables occur in A and B); if they differ, or n = 1, each
 * witness gets its own MSM calls (same results).
 */
#include <stdlib.h>
#include <string.h>

#include "czk/czk.h"
#include "czk/msm.h"
#include "groth16/groth16_internal.h"

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
    size_t off[CZK_GROTH16_MAX_BATCH], nb[CZK_GROTH16_MAX_BATCH];
    const czk_fr *sc[CZK_GROTH16_MAX_BATCH];
    const uint64_t *dens[CZK_GROTH16_MAX_BATCH];
    size_t len;
} query;

static size_t query_scratch(const query *q, size_t n, int multi, int g2, const czk_msm_opts *o)
{
    if (multi)
        return g2 ? czk_msm_g2_multi_scratch_size(q->nb[0], n, o) : czk_msm_g1_multi_scratch_size(q->nb[0], n, o);
    size_t need = 0;
    for (size_t i = 0; i < n; i++)
        need = max_sz(need, g2 ? czk_msm_g2_scratch_size(q->nb[i], o) : czk_msm_g1_scratch_size(q->nb[i], o));
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

/* The queries of a batch (inputs first, then aux under the density masks). */
enum { Q_H, Q_L, Q_A_IN, Q_A_AUX, Q_B_IN, Q_B_AUX, Q_COUNT };

typedef struct batch {
    const czk_groth16_params *p;
    const czk_cs_assignment *const *w;
    size_t n;
    int multi;
    query q[Q_COUNT];
    czk_g1_jac g1[Q_COUNT][CZK_GROTH16_MAX_BATCH]; /* each query's sum per witness */
    czk_g2_jac g2[2][CZK_GROTH16_MAX_BATCH];       /* b_g2 (inputs), b_g2 (aux) */
    czk_groth16_timings tm;
} batch;

static void queries_init(batch *B, size_t m)
{
    query *Q = B->q;
    const czk_cs_assignment *w0 = B->w[0];
    Q[Q_H].len = m - 1;
    Q[Q_L].len = Q[Q_A_AUX].len = Q[Q_B_AUX].len = w0->n_aux;
    Q[Q_A_IN].len = Q[Q_B_IN].len = w0->n_input;
    for (size_t i = 0; i < B->n; i++) {
        const czk_cs_assignment *x = B->w[i];
        Q[Q_H].off[i] = 0, Q[Q_H].nb[i] = m - 1, Q[Q_H].sc[i] = NULL, Q[Q_H].dens[i] = NULL;
        Q[Q_L].off[i] = 0, Q[Q_L].nb[i] = x->n_aux, Q[Q_L].sc[i] = x->aux, Q[Q_L].dens[i] = NULL;
        Q[Q_A_IN].off[i] = 0, Q[Q_A_IN].nb[i] = x->n_input, Q[Q_A_IN].sc[i] = x->input;
        Q[Q_A_IN].dens[i] = NULL;
        Q[Q_A_AUX].off[i] = x->n_input, Q[Q_A_AUX].nb[i] = x->a_aux_popcount, Q[Q_A_AUX].sc[i] = x->aux;
        Q[Q_A_AUX].dens[i] = x->a_aux_density;
        Q[Q_B_IN].off[i] = 0, Q[Q_B_IN].nb[i] = x->b_input_popcount, Q[Q_B_IN].sc[i] = x->input;
        Q[Q_B_IN].dens[i] = x->b_input_density;
        Q[Q_B_AUX].off[i] = x->b_input_popcount, Q[Q_B_AUX].nb[i] = x->b_aux_popcount, Q[Q_B_AUX].sc[i] = x->aux;
        Q[Q_B_AUX].dens[i] = x->b_aux_density;
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

int czk__groth16_batch_is_multi(const czk_cs_assignment *const *w, size_t n)
{
    if (n < 2) return 0;
    for (size_t i = 1; i < n; i++) {
        if (w[i]->n_input != w[0]->n_input || w[i]->n_aux != w[0]->n_aux) return 0;
        if (!bits_equal(w[i]->a_aux_density, w[0]->a_aux_density, w[0]->n_aux) ||
            !bits_equal(w[i]->b_input_density, w[0]->b_input_density, w[0]->n_input) ||
            !bits_equal(w[i]->b_aux_density, w[0]->b_aux_density, w[0]->n_aux))
            return 0;
    }
    return 1;
}

/* a, b, c of the constraints, zero-padded to m. */
static czk_status batch_abc(void *ctx, size_t i, czk_fr *a, czk_fr *b, czk_fr *c, size_t m, int threads)
{
    const czk_cs_assignment *w = ((const batch *)ctx)->w[i];
    size_t nc = w->n_constraints;
    (void)threads;
    memcpy(a, w->a, nc * sizeof(czk_fr));
    memcpy(b, w->b, nc * sizeof(czk_fr));
    memcpy(c, w->c, nc * sizeof(czk_fr));
    memset(a + nc, 0, (m - nc) * sizeof(czk_fr));
    memset(b + nc, 0, (m - nc) * sizeof(czk_fr));
    memset(c + nc, 0, (m - nc) * sizeof(czk_fr));
    return CZK_OK;
}

/* a = a_in + a_aux, b1 = b_in + b_aux, c = h + l; one pass per query. */
static czk_status batch_g1(void *ctx, czk__groth16_sums *sums, const czk_fr *h, size_t m, int threads)
{
    batch *B = ctx;
    size_t n = B->n;
    const czk_groth16_params *p = B->p;
    static const char *const name[Q_COUNT] = {"h", "l", "a (inputs)", "a (aux)", "b_g1 (inputs)", "b_g1 (aux)"};
    const czk_g1_affine *bases[Q_COUNT] = {p->h, p->l, p->a, p->a, p->b_g1, p->b_g1};
    double *secs[Q_COUNT] = {&B->tm.msm_h_s, &B->tm.msm_l_s, &B->tm.msm_a_s,
                             &B->tm.msm_a_s, &B->tm.msm_b_g1_s, &B->tm.msm_b_g1_s};
    for (size_t i = 0; i < n; i++) B->q[Q_H].sc[i] = h + i * m;
    czk_msm_opts o = {0};
    o.threads = threads;
    size_t need = 0;
    for (int k = 0; k < Q_COUNT; k++) need = max_sz(need, query_scratch(&B->q[k], n, B->multi, 0, &o));
    void *scratch = aligned_scratch(need);
    if (need && !scratch) return czk_error(CZK_ERR_NOMEM, "prove: G1 MSM scratch of %zu bytes", need);
    o.scratch = scratch;
    o.scratch_size = need;
    czk_status st = CZK_OK;
    for (int k = 0; k < Q_COUNT && st == CZK_OK; k++) {
        double t0 = czk_now();
        st = g1_query_run(B->g1[k], bases[k], &B->q[k], n, B->multi, &o);
        *secs[k] += czk_now() - t0;
        if (st != CZK_OK) st = czk_error_context(st, "prove: %s MSM", name[k]);
    }
    free(scratch);
    for (size_t i = 0; i < n && st == CZK_OK; i++) {
        czk_g1_jac_add(&sums[i].a, &B->g1[Q_A_IN][i], &B->g1[Q_A_AUX][i]);
        czk_g1_jac_add(&sums[i].b1, &B->g1[Q_B_IN][i], &B->g1[Q_B_AUX][i]);
        czk_g1_jac_add(&sums[i].c, &B->g1[Q_H][i], &B->g1[Q_L][i]);
    }
    return st;
}

/* b2 = b_in + b_aux in G2. */
static czk_status batch_g2(void *ctx, czk__groth16_sums *sums, int threads)
{
    batch *B = ctx;
    size_t n = B->n;
    czk_msm_opts o = {0};
    o.threads = threads;
    size_t need = max_sz(query_scratch(&B->q[Q_B_IN], n, B->multi, 1, &o),
                         query_scratch(&B->q[Q_B_AUX], n, B->multi, 1, &o));
    void *scratch = aligned_scratch(need);
    if (need && !scratch) return czk_error(CZK_ERR_NOMEM, "prove: B (G2) MSM scratch of %zu bytes", need);
    o.scratch = scratch;
    o.scratch_size = need;
    czk_status st = g2_query_run(B->g2[0], B->p->b_g2, &B->q[Q_B_IN], n, B->multi, &o);
    if (st == CZK_OK) st = g2_query_run(B->g2[1], B->p->b_g2, &B->q[Q_B_AUX], n, B->multi, &o);
    free(scratch);
    if (st != CZK_OK) return czk_error_context(st, "prove: B (G2) MSM");
    for (size_t i = 0; i < n; i++) czk_g2_jac_add(&sums[i].b2, &B->g2[0][i], &B->g2[1][i]);
    return CZK_OK;
}

static czk_status h_step(const czk_ntt_domain *d, czk_fr *a, czk_fr *b, czk_fr *c, size_t m)
{
    return czk_ntt_groth16_h(d, a, b, c, m);
}

czk_status czk_groth16_prove_batch(czk_groth16_proof *out, const czk_groth16_params *p,
                                   const czk_cs_assignment *const *w, size_t n, const czk_groth16_prove_opts *opts)
{
    czk_init();
    double t_start = czk_now();
    if (opts && opts->timings) memset(opts->timings, 0, sizeof *opts->timings);
    if (n == 0) return CZK_OK;
    if (!out || !p || !w) return czk_error(CZK_ERR_INVALID_ARG, "prove: NULL argument");
    if (n > CZK_GROTH16_MAX_BATCH)
        return czk_error(CZK_ERR_INVALID_ARG, "prove: %zu witnesses, at most %d", n, CZK_GROTH16_MAX_BATCH);
    for (size_t i = 0; i < n; i++) {
        if (!w[i]) return czk_error(CZK_ERR_INVALID_ARG, "prove: witness %zu is NULL", i);
        czk_status st = czk_groth16_params_match(p, w[i]);
        if (st != CZK_OK) return n > 1 ? czk_error_context(st, "prove: witness %zu", i) : st;
        if (w[i]->n_constraints != w[0]->n_constraints)
            return czk_error(CZK_ERR_INVALID_ARG, "prove: witness %zu has %zu constraints, witness 0 %zu", i,
                             w[i]->n_constraints, w[0]->n_constraints);
    }
    int threads = opts && opts->threads > 0 ? opts->threads : czk_threads();
    batch *B = malloc(sizeof *B);
    if (!B) return czk_error(CZK_ERR_NOMEM, "prove: batch of %zu witnesses", n);
    memset(B, 0, sizeof *B);
    B->p = p;
    B->w = w;
    B->n = n;
    B->multi = czk__groth16_batch_is_multi(w, n);
    unsigned log_m = 0;
    while (((size_t)1 << log_m) < w[0]->n_constraints) log_m++;
    queries_init(B, (size_t)1 << log_m);

    czk__groth16_keys keys = {.alpha_g1 = p->vk.alpha_g1, .beta_g1 = p->vk.beta_g1, .delta_g1 = p->vk.delta_g1,
                              .beta_g2 = p->vk.beta_g2, .delta_g2 = p->vk.delta_g2};
    czk__groth16_run run = {.n = n, .log_m = log_m, .roots = CZK_NTT_ROOTS_GEN7, .h_step = h_step,
                            .abc = batch_abc, .g1 = batch_g1, .g2 = batch_g2, .ctx = B, .keys = &keys};
    czk__groth16_run_times rt;
    czk_status st = czk__groth16_prove_run(out, &run, opts ? opts->rng : NULL, threads, &rt);
    if (opts && opts->timings) {
        czk_groth16_timings *tm = opts->timings;
        *tm = B->tm;
        tm->h_s = rt.abc_s + rt.h_s;
        tm->msm_b_g2_s = rt.g2_s;
        tm->total_s = czk_now() - t_start;
    }
    free(B);
    return st;
}

czk_status czk_groth16_prove(czk_groth16_proof *out, const czk_groth16_params *p, const czk_cs_assignment *w,
                             const czk_groth16_prove_opts *opts)
{
    return czk_groth16_prove_batch(out, p, &w, 1, opts);
}

/* ---- memory ---------------------------------------------------------------- */

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

uint64_t czk_groth16_prove_bytes(const czk_cs_sizes *s, const czk_groth16_params *p, int threads, int batch)
{
    if (p && p->file) return czk_groth16_prove_stream_bytes(s, czk__params_file_chunk(p), threads);
    if (threads <= 0) threads = czk_threads();
    if (batch < 1) batch = 1;
    if (batch > CZK_GROTH16_MAX_BATCH) batch = CZK_GROTH16_MAX_BATCH;
    uint64_t m = 1;
    while (m < s->n_constraints) m <<= 1;
    czk_msm_opts o1 = {0}, o2 = {0};
    o1.threads = czk__groth16_g1_threads(threads);
    o2.threads = czk__groth16_g2_threads(threads);
    size_t nvar = (size_t)(s->n_aux + s->n_inputs);
    size_t c1[6] = {p ? p->n_h : (size_t)m - 1, p ? p->n_l : (size_t)s->n_aux, p ? p->n_a : nvar,
                    p ? p->n_b_g1 : nvar, (size_t)s->n_inputs, (size_t)s->n_aux};
    size_t c2[3] = {p ? p->n_b_g2 : nvar, (size_t)s->n_inputs, (size_t)s->n_aux};
    size_t n1 = max_sz(max_sz(c1[0], c1[1]), max_sz(c1[2], c1[3]));
    size_t n2 = max_sz(c2[0], nvar);
    /* A pass over k witnesses (k <= batch, each holding this reservation)
     * needs h of each (k m), b and c (2 m), twiddles (< m elements plus
     * small tables) and the k-set G1 and G2 scratch: reserve the largest
     * share per witness over k. For k = 1 this is a single proof's
     * footprint. */
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
