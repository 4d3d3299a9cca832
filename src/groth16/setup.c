/* Groth16 parameter generation (Groth 2016, §3.2), laid out as bellperson's
 * generate_parameters does (docs/groth16.md).
 *
 * With the QAP polynomials evaluated at tau through the Lagrange basis of the
 * size-m domain,
 *   L_j(tau) = (tau^m - 1) / m * w^j / (tau - w^j),
 *   u_i = sum_j A[j][i] L_j(tau), v_i likewise from B, w_i from C,
 * the points are
 *   a_i = u_i G1, b_i = v_i G1 / G2 (identity entries dropped),
 *   ic_i = (beta u_i + alpha v_i + w_i) / gamma G1   (inputs),
 *   l_i  = (beta u_i + alpha v_i + w_i) / delta G1   (aux),
 *   h_i  = tau^i (tau^m - 1) / delta G1              (i < m - 1).
 *
 * Every point is a multiple of the G1 or G2 generator: fixed-base
 * multiplication with window tables and batch-affine additions (fixed_base.c),
 * the window chosen from the number of points (a G1 table of at most
 * TABLE_MAX_BYTES). The element-wise passes (Lagrange weights, powers of tau,
 * the scalars) run in blocks on all threads, each block starting from its
 * own power of omega or tau; the three column evaluations run side by side.
 */
#include <omp.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/bigmem.h"
#include "czk/czk.h"
#include "czk/groth16.h"
#include "czk/ntt.h"
#include "groth16/fixed_base.h"
#include "groth16/groth16_internal.h"

/* Tables of at most this many bytes (G1 and G2 each). */
#define TABLE_MAX_BYTES ((size_t)1 << 30)

static unsigned choose_window(size_t n, int g2) { return czk__fb_window(n, g2, TABLE_MAX_BYTES); }

static czk_status g1_batch(czk_g1_affine *out, const czk_fr *k, size_t n, const czk__fb_table *t, int threads,
                           const czk_groth16_setup_opts *o, const char *stage)
{
    czk__fb_progress pg = {o ? o->progress : NULL, o ? o->progress_ctx : NULL, stage};
    return czk__fb_g1_mul(out, k, n, t, threads, &pg);
}

static czk_status g2_batch(czk_g2_affine *out, const czk_fr *k, size_t n, const czk__fb_table *t, int threads,
                           const czk_groth16_setup_opts *o, const char *stage)
{
    czk__fb_progress pg = {o ? o->progress : NULL, o ? o->progress_ctx : NULL, stage};
    return czk__fb_g2_mul(out, k, n, t, threads, &pg);
}

/* col_eval[col] += coeff * lag[row] over a CSR matrix. */
static void eval_columns(czk_fr *col_eval, const czk_csr *m, const czk_fr *lag)
{
    for (uint64_t r = 0; r < m->n_rows; r++) {
        for (uint64_t k = m->row_ptr[r]; k < m->row_ptr[r + 1]; k++) {
            czk_fr t;
            czk_fr_mul(&t, &m->val[k], &lag[r]);
            czk_fr_add(&col_eval[m->col[k]], &col_eval[m->col[k]], &t);
        }
    }
}

static void random_nonzero(czk_fr *r, czk_rng *rng)
{
    do czk_fr_random(r, rng);
    while (czk_fr_is_zero(r));
}

/* Elements per thread block of powers(). */
#define PAR_BLOCK ((size_t)1 << 14)

/* k[i] = x tau^(first + i) for i < n, on `threads` threads (each block
 * starts from its own power). */
static void powers(czk_fr *k, size_t n, size_t first, const czk_fr *x, const czk_fr *tau, int threads)
{
#pragma omp parallel for num_threads(threads) schedule(static)
    for (size_t lo = 0; lo < n; lo += PAR_BLOCK) {
        size_t hi = lo + PAR_BLOCK < n ? lo + PAR_BLOCK : n;
        czk_fr v;
        czk_fr_pow_u64(&v, tau, (uint64_t)(first + lo));
        czk_fr_mul(&v, &v, x);
        for (size_t i = lo; i < hi; i++) {
            k[i] = v;
            czk_fr_mul(&v, &v, tau);
        }
    }
}

/* out[j] = zm w^(j0 + j) / (tau - w^(j0 + j)) for j < cnt: the Lagrange
 * basis of the size-m domain at tau, L_j(tau) = Z(tau)/m w^j / (tau - w^j)
 * (zm = Z(tau)/m). tau - w^j != 0 because Z(tau) != 0. One batch inversion
 * per block of LAG_BLOCK (Montgomery's trick), in the thread's own scratch. */
#define LAG_BLOCK ((size_t)1 << 13)

static czk_status lagrange(czk_fr *out, size_t j0, size_t cnt, const czk_fr *tau, const czk_fr *omega,
                           const czk_fr *zm, int threads)
{
    int nomem = 0;
#pragma omp parallel num_threads(threads)
    {
        czk_fr *d = malloc(2 * LAG_BLOCK * sizeof(czk_fr)), *t = d + LAG_BLOCK;
        if (!d) {
#pragma omp atomic write
            nomem = 1;
        }
#pragma omp for schedule(static)
        for (size_t lo = 0; lo < cnt; lo += LAG_BLOCK) {
            if (!d) continue;
            size_t len = cnt - lo < LAG_BLOCK ? cnt - lo : LAG_BLOCK;
            czk_fr wj;
            czk_fr_pow_u64(&wj, omega, (uint64_t)(j0 + lo));
            for (size_t j = 0; j < len; j++) {
                czk_fr_sub(&d[j], tau, &wj);
                out[lo + j] = wj;
                czk_fr_mul(&wj, &wj, omega);
            }
            czk_fr_batch_inv(d, d, len, t);
            for (size_t j = 0; j < len; j++) {
                czk_fr_mul(&out[lo + j], &out[lo + j], &d[j]);
                czk_fr_mul(&out[lo + j], &out[lo + j], zm);
            }
        }
        free(d);
    }
    if (nomem) return czk_error(CZK_ERR_NOMEM, "setup: Lagrange weights: scratch for %d threads", threads);
    return CZK_OK;
}

/* The toxic waste, drawn in this order (both setups: one seed, one file). */
typedef struct toxic {
    czk_fr tau, alpha, beta, gamma, delta;
} toxic;

static czk_status toxic_draw(toxic *t, const czk_groth16_setup_opts *opts)
{
    czk_rng rng;
    if (opts && opts->use_seed)
        czk_rng_seed(&rng, opts->seed);
    else
        CZK_TRY(czk_rng_from_os(&rng));
    random_nonzero(&t->tau, &rng);
    random_nonzero(&t->alpha, &rng);
    random_nonzero(&t->beta, &rng);
    random_nonzero(&t->gamma, &rng);
    random_nonzero(&t->delta, &rng);
    czk_rng_clear(&rng);
    return CZK_OK;
}

static void toxic_clear(toxic *t)
{
    memset(&t->tau, 0, sizeof t->tau);
    memset(&t->alpha, 0, sizeof t->alpha);
    memset(&t->beta, 0, sizeof t->beta);
    memset(&t->gamma, 0, sizeof t->gamma);
    memset(&t->delta, 0, sizeof t->delta);
}

/* The domain of n_rows constraints: m = 2^log_m >= n_rows. */
static czk_status domain_size(size_t *m, unsigned *log_m, size_t n_rows)
{
    *log_m = 0;
    *m = 1;
    while (*m < n_rows) *m <<= 1, (*log_m)++;
    if (*log_m > 32) return czk_error(CZK_ERR_UNSUPPORTED, "setup: %zu constraints exceed 2^32", n_rows);
    return CZK_OK;
}

/* The domain's generator omega, Z(tau) = tau^m - 1 and Z(tau)/m. */
static czk_status domain_at_tau(czk_fr *omega, czk_fr *zt, czk_fr *zm, const czk_fr *tau, size_t m, unsigned log_m)
{
    CZK_TRY(czk_fr_root_of_unity(omega, log_m));
    czk_fr_pow_u64(zt, tau, (uint64_t)m);
    czk_fr_sub(zt, zt, &CZK_FR_ONE);
    if (czk_fr_is_zero(zt)) return czk_error(CZK_ERR_INTERNAL, "setup: tau is a root of unity of the domain");
    czk_fr minv;
    czk_fr_from_u64(&minv, (uint64_t)m);
    czk_fr_inv(&minv, &minv);
    czk_fr_mul(zm, zt, &minv);
    return CZK_OK;
}

/* Fixed-base tables of the G1 and G2 generators, windows c1 and c2. */
static czk_status generator_tables(czk__fb_table *t1, czk__fb_table *t2, unsigned c1, unsigned c2, int threads)
{
    czk_g1_affine g1;
    czk_g2_affine g2;
    czk_g1_generator(&g1);
    czk_g2_generator(&g2);
    CZK_TRY(czk__fb_g1_table(t1, &g1, c1, threads));
    return czk__fb_g2_table(t2, &g2, c2, threads);
}

/* The verifying key's alpha, beta, delta in G1 and beta, gamma, delta in G2. */
static czk_status vk_points(czk_groth16_vk *vk, const toxic *t, const czk__fb_table *t1, const czk__fb_table *t2)
{
    czk_fr k1[3] = {t->alpha, t->beta, t->delta}, k2[3] = {t->beta, t->gamma, t->delta};
    czk_g1_affine p1[3];
    czk_g2_affine p2[3];
    czk_status st = g1_batch(p1, k1, 3, t1, 1, NULL, "vk");
    if (st == CZK_OK) st = g2_batch(p2, k2, 3, t2, 1, NULL, "vk");
    memset(k1, 0, sizeof k1);
    memset(k2, 0, sizeof k2);
    if (st != CZK_OK) return st;
    vk->alpha_g1 = p1[0], vk->beta_g1 = p1[1], vk->delta_g1 = p1[2];
    vk->beta_g2 = p2[0], vk->gamma_g2 = p2[1], vk->delta_g2 = p2[2];
    return CZK_OK;
}

/* ic and l: (beta u + alpha v + w) / gamma for inputs, / delta for aux, into k. */
static czk_status setup_ic_l(czk_groth16_params *out, czk_fr *k, const czk_fr *u, const czk_fr *v, const czk_fr *w,
                             const toxic *t, const czk_fr *gamma_inv, const czk_fr *delta_inv, size_t n_inputs,
                             size_t n_cols, const czk__fb_table *t1, int threads, const czk_groth16_setup_opts *opts)
{
    size_t n_aux = n_cols - n_inputs;
#pragma omp parallel for num_threads(threads) schedule(static)
    for (size_t i = 0; i < n_cols; i++) {
        czk_fr x, y;
        czk_fr_mul(&x, &t->beta, &u[i]);
        czk_fr_mul(&y, &t->alpha, &v[i]);
        czk_fr_add(&x, &x, &y);
        czk_fr_add(&x, &x, &w[i]);
        czk_fr_mul(&k[i], &x, i < n_inputs ? gamma_inv : delta_inv);
    }
    out->vk.n_ic = n_inputs;
    out->vk.ic = malloc(n_inputs * sizeof(czk_g1_affine));
    out->n_l = n_aux;
    out->big_sections = 1;
    out->l = czk__big_alloc((n_aux ? n_aux : 1) * sizeof(czk_g1_affine));
    if (!out->vk.ic || !out->l) return czk_error(CZK_ERR_NOMEM, "setup: ic / l queries");
    CZK_TRY(g1_batch(out->vk.ic, k, n_inputs, t1, threads, opts, "ic"));
    return g1_batch(out->l, k + n_inputs, n_aux, t1, threads, opts, "l");
}

/* a: all inputs, then aux with u != 0; b: entries with v != 0 (u and v compacted in place). */
static czk_status setup_a_b(czk_groth16_params *out, czk_fr *u, czk_fr *v, size_t n_inputs, size_t n_cols,
                            const czk__fb_table *t1, const czk__fb_table *t2, int threads,
                            const czk_groth16_setup_opts *opts)
{
    size_t na = 0, nb = 0;
    for (size_t i = 0; i < n_cols; i++) {
        if (i < n_inputs || !czk_fr_is_zero(&u[i])) u[na++] = u[i];
    }
    for (size_t i = 0; i < n_cols; i++)
        if (!czk_fr_is_zero(&v[i])) v[nb++] = v[i];
    out->n_a = na;
    out->n_b_g1 = out->n_b_g2 = nb;
    out->a = czk__big_alloc((na ? na : 1) * sizeof(czk_g1_affine));
    out->b_g1 = czk__big_alloc((nb ? nb : 1) * sizeof(czk_g1_affine));
    out->b_g2 = czk__big_alloc((nb ? nb : 1) * sizeof(czk_g2_affine));
    if (!out->a || !out->b_g1 || !out->b_g2) return czk_error(CZK_ERR_NOMEM, "setup: a / b queries");
    CZK_TRY(g1_batch(out->a, u, na, t1, threads, opts, "a"));
    CZK_TRY(g1_batch(out->b_g1, v, nb, t1, threads, opts, "b_g1"));
    return g2_batch(out->b_g2, v, nb, t2, threads, opts, "b_g2");
}

/* h_i = tau^i Z(tau) / delta, i < m - 1 (scalars in k). */
static czk_status setup_h(czk_groth16_params *out, czk_fr *k, const czk_fr *zt, const czk_fr *delta_inv,
                          const czk_fr *tau, size_t m, const czk__fb_table *t1, int threads,
                          const czk_groth16_setup_opts *opts)
{
    czk_fr x;
    czk_fr_mul(&x, zt, delta_inv);
    powers(k, m - 1, 0, &x, tau, threads);
    out->n_h = m - 1;
    out->h = czk__big_alloc((m > 1 ? m - 1 : 1) * sizeof(czk_g1_affine));
    if (!out->h) return czk_error(CZK_ERR_NOMEM, "setup: h query of %zu points", m - 1);
    return g1_batch(out->h, k, m - 1, t1, threads, opts, "h");
}

czk_status czk_groth16_setup(czk_groth16_params *out, const czk_csr *A, const czk_csr *B,
                             const czk_csr *C, size_t n_inputs, const czk_groth16_setup_opts *opts)
{
    czk_init();
    memset(out, 0, sizeof *out);
    if (A->n_rows != B->n_rows || A->n_rows != C->n_rows || A->n_cols != B->n_cols ||
        A->n_cols != C->n_cols || n_inputs == 0 || n_inputs > A->n_cols)
        return czk_error(CZK_ERR_INVALID_ARG, "setup: inconsistent matrices (%llu/%llu/%llu rows, %zu inputs)",
                         (unsigned long long)A->n_rows, (unsigned long long)B->n_rows,
                         (unsigned long long)C->n_rows, n_inputs);
    int threads = opts && opts->threads > 0 ? opts->threads : czk_threads();
    size_t n_rows = A->n_rows, n_cols = A->n_cols;
    unsigned log_m;
    size_t m;
    CZK_TRY(domain_size(&m, &log_m, n_rows));
    toxic t;
    CZK_TRY(toxic_draw(&t, opts));

    czk_status st = CZK_OK;
    /* big buffers: 2 MiB pages, one fault each instead of 512 */
    czk_fr *lag = czk__big_alloc(m * sizeof(czk_fr));
    czk_fr *u = czk__big_alloc(n_cols * sizeof(czk_fr));
    czk_fr *v = czk__big_alloc(n_cols * sizeof(czk_fr));
    czk_fr *w = czk__big_alloc(n_cols * sizeof(czk_fr));
    czk_fr *k = czk__big_alloc((n_cols > m ? n_cols : m) * sizeof(czk_fr));
    czk__fb_table t1 = {0};
    czk__fb_table t2 = {0};
    if (!lag || !u || !v || !w || !k) {
        st = czk_error(CZK_ERR_NOMEM, "setup: evaluation vectors for %zu constraints, %zu variables", n_rows, n_cols);
        goto out;
    }

    /* Lagrange basis at tau: L_j = Z(tau)/m * w^j / (tau - w^j) */
    czk_fr omega, zt, zm;
    st = domain_at_tau(&omega, &zt, &zm, &t.tau, m, log_m);
    if (st == CZK_OK) st = lagrange(lag, 0, m, &t.tau, &omega, &zm, threads);
    if (st != CZK_OK) goto out;
    /* the three matrices on their own threads */
#pragma omp parallel sections num_threads(threads < 3 ? threads : 3)
    {
#pragma omp section
        eval_columns(u, A, lag);
#pragma omp section
        eval_columns(v, B, lag);
#pragma omp section
        eval_columns(w, C, lag);
    }
    /* the Lagrange weights are spent: their memory goes back before the tables */
    czk__big_free(lag);
    lag = NULL;
    if (opts && opts->progress) opts->progress(opts->progress_ctx, "QAP evaluation", 1.0);

    size_t na = 0, nb = 0;
    for (size_t i = 0; i < n_cols; i++) {
        na += i < n_inputs || !czk_fr_is_zero(&u[i]);
        nb += !czk_fr_is_zero(&v[i]);
    }
    st = generator_tables(&t1, &t2, choose_window(3 + n_cols + na + nb + (m - 1), 0), choose_window(3 + nb, 1),
                          threads);
    if (st == CZK_OK) st = vk_points(&out->vk, &t, &t1, &t2);
    czk_fr gamma_inv, delta_inv;
    czk_fr_inv(&gamma_inv, &t.gamma);
    czk_fr_inv(&delta_inv, &t.delta);
    if (st == CZK_OK)
        st = setup_ic_l(out, k, u, v, w, &t, &gamma_inv, &delta_inv, n_inputs, n_cols, &t1, threads, opts);
    if (st == CZK_OK) st = setup_a_b(out, u, v, n_inputs, n_cols, &t1, &t2, threads, opts);
    if (st == CZK_OK) st = setup_h(out, k, &zt, &delta_inv, &t.tau, m, &t1, threads, opts);

out:
    toxic_clear(&t);
    czk__big_free(lag);
    czk__big_free(u);
    czk__big_free(v);
    czk__big_free(w);
    czk__big_free(k);
    czk__fb_table_free(&t1);
    czk__fb_table_free(&t2);
    if (st != CZK_OK) czk_groth16_params_clear(out);
    return st;
}

czk_status czk_groth16_fixed_g1_var(czk_g1_affine *out, const czk_fr *k, size_t n, unsigned c,
                                    int threads)
{
    czk_g1_affine g;
    czk_g1_generator(&g);
    czk__fb_table tb = {0};
    CZK_TRY(czk__fb_g1_table(&tb, &g, c ? c : choose_window(n, 0), threads));
    czk_status st = g1_batch(out, k, n, &tb, threads, NULL, "g1");
    czk__fb_table_free(&tb);
    return st;
}

czk_status czk_groth16_fixed_g2_var(czk_g2_affine *out, const czk_fr *k, size_t n, unsigned c,
                                    int threads)
{
    czk_g2_affine g;
    czk_g2_generator(&g);
    czk__fb_table tb = {0};
    CZK_TRY(czk__fb_g2_table(&tb, &g, c ? c : choose_window(n, 1), threads));
    czk_status st = g2_batch(out, k, n, &tb, threads, NULL, "g2");
    czk__fb_table_free(&tb);
    return st;
}

/* ---- streamed setup: sections computed and written chunk by chunk --------------------- */

/* Points per chunk of a streamed section (a test hook may lower it). */
static size_t stream_chunk = (size_t)1 << 20;

void czk__groth16_setup_stream_chunk(size_t n);
void czk__groth16_setup_stream_chunk(size_t n) { stream_chunk = n ? n : (size_t)1 << 20; }

/* The section writer on a thread of its own, one chunk behind the
 * computation: chunk i is encoded, hashed and written (the writer's SHA-256
 * and write(2) are serial) while chunk i + 1 is computed on all threads.
 * Without the thread (pthread_create failed) the chunks are written in
 * place. */
typedef struct bg_writer {
    pthread_t th;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    int started, has_job, quit;
    czk__params_writer *w;
    const void *pts; /* the job: n points, G2 if g2 */
    size_t n;
    int g2;
    czk_status st; /* the first failure, its message in msg */
    char msg[512];
} bg_writer;

static void *bg_main(void *arg)
{
    bg_writer *b = arg;
    pthread_mutex_lock(&b->mu);
    for (;;) {
        while (!b->has_job && !b->quit) pthread_cond_wait(&b->cv, &b->mu);
        if (!b->has_job) break;
        pthread_mutex_unlock(&b->mu);
        czk_status st = b->g2 ? czk__params_writer_g2(b->w, b->pts, b->n) : czk__params_writer_g1(b->w, b->pts, b->n);
        pthread_mutex_lock(&b->mu);
        if (st != CZK_OK && b->st == CZK_OK) {
            b->st = st;
            snprintf(b->msg, sizeof b->msg, "%s", czk_last_error());
        }
        b->has_job = 0;
        pthread_cond_broadcast(&b->cv);
    }
    pthread_mutex_unlock(&b->mu);
    return NULL;
}

static void bg_start(bg_writer *b, czk__params_writer *w)
{
    memset(b, 0, sizeof *b);
    b->w = w;
    if (pthread_mutex_init(&b->mu, NULL) != 0) return;
    if (pthread_cond_init(&b->cv, NULL) != 0) {
        pthread_mutex_destroy(&b->mu);
        return;
    }
    if (pthread_create(&b->th, NULL, bg_main, b) == 0) {
        b->started = 1;
    } else {
        pthread_cond_destroy(&b->cv);
        pthread_mutex_destroy(&b->mu);
    }
}

/* Wait until the pending chunk is written; the writer's failure, if any,
 * with its message raised again on this thread. */
static czk_status bg_wait(bg_writer *b)
{
    if (!b->started) return CZK_OK;
    pthread_mutex_lock(&b->mu);
    while (b->has_job) pthread_cond_wait(&b->cv, &b->mu);
    czk_status st = b->st;
    pthread_mutex_unlock(&b->mu);
    return st == CZK_OK ? CZK_OK : czk_error(st, "%s", b->msg);
}

/* Hand over n points (they must stay untouched until the next bg_put or bg_wait returns). */
static czk_status bg_put(bg_writer *b, const void *pts, size_t n, int g2)
{
    if (!b->started) return g2 ? czk__params_writer_g2(b->w, pts, n) : czk__params_writer_g1(b->w, pts, n);
    CZK_TRY(bg_wait(b));
    pthread_mutex_lock(&b->mu);
    b->pts = pts, b->n = n, b->g2 = g2, b->has_job = 1;
    pthread_cond_broadcast(&b->cv);
    pthread_mutex_unlock(&b->mu);
    return CZK_OK;
}

/* Finish the pending chunk and end the thread. */
static void bg_stop(bg_writer *b)
{
    if (!b->started) return;
    pthread_mutex_lock(&b->mu);
    b->quit = 1;
    pthread_cond_broadcast(&b->cv);
    pthread_mutex_unlock(&b->mu);
    pthread_join(b->th, NULL);
    pthread_cond_destroy(&b->cv);
    pthread_mutex_destroy(&b->mu);
    b->started = 0;
}

typedef struct stream_ctx {
    czk__params_writer *w;
    bg_writer *bg;
    const czk__fb_table *t1;
    const czk__fb_table *t2;
    void *buf[2]; /* chunks of points, G1 or G2: one computed while the other is written */
    int cur;
    czk_fr *k;    /* one chunk's scalars */
    int threads;
    const czk_groth16_setup_opts *opts;
} stream_ctx;

static void stream_progress(const stream_ctx *c, const char *stage, size_t done, size_t n)
{
    if (c->opts && c->opts->progress) c->opts->progress(c->opts->progress_ctx, stage, n ? (double)done / (double)n : 1);
}

/* One section of n points whose scalars next(ctx, k, first, count) fills chunk by chunk. */
typedef void (*scalars_fn)(void *ctx, czk_fr *k, size_t first, size_t count);

static czk_status stream_section(stream_ctx *c, int sec, const char *stage, size_t n, int g2, scalars_fn next,
                                 void *nctx)
{
    CZK_TRY(bg_wait(c->bg)); /* the last section's points are all written */
    CZK_TRY(czk__params_writer_section(c->w, sec, n));
    for (size_t first = 0; first < n; first += stream_chunk) {
        size_t cnt = n - first < stream_chunk ? n - first : stream_chunk;
        void *buf = c->buf[c->cur];
        next(nctx, c->k, first, cnt);
        if (g2)
            CZK_TRY(g2_batch(buf, c->k, cnt, c->t2, c->threads, NULL, stage));
        else
            CZK_TRY(g1_batch(buf, c->k, cnt, c->t1, c->threads, NULL, stage));
        CZK_TRY(bg_put(c->bg, buf, cnt, g2));
        c->cur ^= 1;
        stream_progress(c, stage, first + cnt, n);
    }
    if (!n) stream_progress(c, stage, 0, 0);
    return CZK_OK;
}

/* h_i = x tau^i, x = Z(tau) / delta */
typedef struct h_scalars {
    czk_fr x, tau;
    int threads;
} h_scalars;

static void next_h(void *ctx, czk_fr *k, size_t first, size_t cnt)
{
    const h_scalars *h = ctx;
    powers(k, cnt, first, &h->x, &h->tau, h->threads);
}

/* a section's scalars: src[idx] for the selected indices (sel NULL: idx = first + i) */
typedef struct sel_scalars {
    const czk_fr *src;
    const uint32_t *sel;
    size_t base;
} sel_scalars;

static void next_sel(void *ctx, czk_fr *k, size_t first, size_t cnt)
{
    const sel_scalars *s = ctx;
    for (size_t i = 0; i < cnt; i++) k[i] = s->src[s->sel ? s->sel[first + i] : s->base + first + i];
}

/* The indices i < n with v[i] != 0, or i < keep: *count of them, listed in
 * sel (uint32: columns fit 2^32, the reader's counts do too). */
static czk_status select_nonzero(uint32_t **sel, size_t *count, const czk_fr *v, size_t n, size_t keep)
{
    size_t c = 0;
    for (size_t i = 0; i < n; i++) c += i < keep || !czk_fr_is_zero(&v[i]);
    *sel = czk__big_alloc((c ? c : 1) * sizeof **sel);
    if (!*sel) return czk_error(CZK_ERR_NOMEM, "setup: %zu indices", c);
    c = 0;
    for (size_t i = 0; i < n; i++)
        if (i < keep || !czk_fr_is_zero(&v[i])) (*sel)[c++] = (uint32_t)i;
    *count = c;
    return CZK_OK;
}

/* The rows' weights of the streamed setup, chunk by chunk:
 * L_j(tau) = Z(tau)/m * w^j / (tau - w^j) for j in [j0, j0 + cnt). */
typedef struct lag_ctx {
    czk_fr tau, omega, zm;
    czk_fr *base;
} lag_ctx;

/* acc += sum over the matrices ms[0..nm) of f[i] M_i^T L, one chunk of rows
 * at a time (the chunk's weights made once, then times f[i]) */
static czk_status columns_pass(const czk_groth16_setup_circuit *c, const lag_ctx *L, czk_fr *lag, size_t chunk,
                               const int *ms, const czk_fr *f, int nm, czk_fr *acc, int threads)
{
    for (size_t j0 = 0; j0 < c->n_rows; j0 += chunk) {
        size_t cnt = c->n_rows - j0 < chunk ? c->n_rows - j0 : chunk;
        CZK_TRY(lagrange(L->base, j0, cnt, &L->tau, &L->omega, &L->zm, threads));
        for (int i = 0; i < nm; i++) {
            const czk_fr *fi = &f[i];
#pragma omp parallel for num_threads(threads) schedule(static)
            for (size_t j = 0; j < cnt; j++) czk_fr_mul(&lag[j], &L->base[j], fi);
            CZK_TRY(c->columns(c->ctx, ms[i], acc, lag, j0, j0 + cnt, threads));
        }
    }
    return CZK_OK;
}

/* The streamed setup's query sections after the verifying key, in file
 * order: h, l (from acc = the ic/l scalars), then a and b, each from its
 * own pass over the matrices into acc. */
static czk_status stream_queries(stream_ctx *sx, const czk_groth16_setup_circuit *c, const lag_ctx *L, czk_fr *lag,
                                 size_t chunk, czk_fr *acc, const czk_fr *zt, const czk_fr *delta_inv, size_t m)
{
    const size_t n_cols = c->n_cols, n_inputs = c->n_inputs, n_aux = n_cols - n_inputs;
    const int threads = sx->threads;
    uint32_t *sel = NULL;
    h_scalars hs;
    czk_fr_mul(&hs.x, zt, delta_inv);
    hs.tau = L->tau;
    hs.threads = threads;
    czk_status st = stream_section(sx, 0, "h", m - 1, 0, next_h, &hs);
    memset(&hs, 0, sizeof hs);
    sel_scalars ls = {acc, NULL, n_inputs};
    if (st == CZK_OK) st = stream_section(sx, 1, "l", n_aux, 0, next_sel, &ls);
    /* a: u = A^T lag; every input, then the aux variables with u != 0 */
    if (st == CZK_OK) {
        const int ma = 0;
        memset(acc, 0, n_cols * sizeof(czk_fr));
        st = columns_pass(c, L, lag, chunk, &ma, &CZK_FR_ONE, 1, acc, threads);
    }
    size_t cnt = 0;
    if (st == CZK_OK) st = select_nonzero(&sel, &cnt, acc, n_cols, n_inputs);
    sel_scalars as = {acc, sel, 0};
    if (st == CZK_OK) st = stream_section(sx, 2, "a", cnt, 0, next_sel, &as);
    czk__big_free(sel);
    sel = NULL;
    /* b: v = B^T lag, entries with v != 0, in G1 then G2 */
    if (st == CZK_OK) {
        const int mb = 1;
        memset(acc, 0, n_cols * sizeof(czk_fr));
        st = columns_pass(c, L, lag, chunk, &mb, &CZK_FR_ONE, 1, acc, threads);
    }
    if (st == CZK_OK) st = select_nonzero(&sel, &cnt, acc, n_cols, 0);
    sel_scalars bs = {acc, sel, 0};
    if (st == CZK_OK) st = stream_section(sx, 3, "b_g1", cnt, 0, next_sel, &bs);
    if (st == CZK_OK) st = stream_section(sx, 4, "b_g2", cnt, 1, next_sel, &bs);
    czk__big_free(sel);
    return st;
}

czk_status czk_groth16_setup_write(const char *params_path, const char *vk_path, const czk_groth16_setup_circuit *c,
                                   const czk_groth16_setup_opts *opts)
{
    czk_init();
    if (!c || !c->columns || c->n_inputs == 0 || c->n_inputs > c->n_cols || c->n_cols > UINT32_MAX)
        return czk_error(CZK_ERR_INVALID_ARG, "streamed setup: %zu columns, %zu inputs", c ? c->n_cols : 0,
                         c ? c->n_inputs : 0);
    const int threads = opts && opts->threads > 0 ? opts->threads : czk_threads();
    const size_t n_rows = c->n_rows, n_cols = c->n_cols, n_inputs = c->n_inputs;
    unsigned log_m;
    size_t m;
    CZK_TRY(domain_size(&m, &log_m, n_rows));

    /* toxic waste, drawn as czk_groth16_setup draws it (same seed, same file) */
    toxic t;
    CZK_TRY(toxic_draw(&t, opts));

    czk_status st = CZK_OK;
    czk__params_writer *w = NULL;
    czk_groth16_vk vk;
    memset(&vk, 0, sizeof vk);
    const size_t chunk = stream_chunk;
    /* one column vector and chunks: the Lagrange values of a chunk of rows
     * are made when a pass over the matrices reaches it */
    czk_fr *acc = czk__big_alloc(n_cols * sizeof(czk_fr));
    czk_fr *lag = czk__big_alloc(chunk * sizeof(czk_fr));
    czk_fr *k = czk__big_alloc(chunk * sizeof(czk_fr)), *base = czk__big_alloc(chunk * sizeof(czk_fr));
    void *p1 = czk__big_alloc(chunk * sizeof(czk_g2_affine)), *p2 = czk__big_alloc(chunk * sizeof(czk_g2_affine));
    bg_writer bg;
    memset(&bg, 0, sizeof bg);
    czk__fb_table t1 = {0};
    czk__fb_table t2 = {0};
    lag_ctx L;
    memset(&L, 0, sizeof L);
    if (!lag || !acc || !k || !base || !p1 || !p2) {
        st = czk_error(CZK_ERR_NOMEM, "setup: %zu variables (%.1f GiB)", n_cols, (double)n_cols * 32.0 / 1073741824.0);
        goto out;
    }
    czk_fr zt;
    st = domain_at_tau(&L.omega, &zt, &L.zm, &t.tau, m, log_m);
    if (st != CZK_OK) goto out;
    L.tau = t.tau;
    L.base = base;

    /* acc = beta u + alpha v + w */
    {
        const int ms[3] = {0, 1, 2};
        const czk_fr f[3] = {t.beta, t.alpha, CZK_FR_ONE};
        st = columns_pass(c, &L, lag, chunk, ms, f, 3, acc, threads);
        if (st != CZK_OK) goto out;
    }
    if (opts && opts->progress) opts->progress(opts->progress_ctx, "QAP evaluation", 1.0);
    czk_fr gamma_inv, delta_inv;
    czk_fr_inv(&gamma_inv, &t.gamma);
    czk_fr_inv(&delta_inv, &t.delta);
#pragma omp parallel for num_threads(threads) schedule(static)
    for (size_t i = 0; i < n_cols; i++) czk_fr_mul(&acc[i], &acc[i], i < n_inputs ? &gamma_inv : &delta_inv);

    /* the window of the in-memory setup's table (the points do not depend on it) */
    st = generator_tables(&t1, &t2, choose_window(3 + 3 * n_cols + (m - 1), 0), choose_window(3 + n_cols, 1),
                          threads);
    /* the verifying key, IC included */
    if (st == CZK_OK) st = vk_points(&vk, &t, &t1, &t2);
    if (st != CZK_OK) goto out;
    vk.n_ic = n_inputs;
    vk.ic = malloc(n_inputs * sizeof *vk.ic);
    if (!vk.ic) {
        st = czk_error(CZK_ERR_NOMEM, "setup: IC");
        goto out;
    }
    st = g1_batch(vk.ic, acc, n_inputs, &t1, threads, NULL, "ic");
    if (st == CZK_OK) st = czk__params_writer_open(&w, params_path, vk_path, &vk, 0);
    if (st != CZK_OK) goto out;
    bg_start(&bg, w);
    stream_ctx sx = {w, &bg, &t1, &t2, {p1, p2}, 0, k, threads, opts};
    st = stream_queries(&sx, c, &L, lag, chunk, acc, &zt, &delta_inv, m);
    if (st == CZK_OK) st = bg_wait(&bg);
    bg_stop(&bg);
    if (st == CZK_OK) {
        st = czk__params_writer_commit(w);
        w = NULL;
    }
out:
    bg_stop(&bg);
    czk__params_writer_abort(w);
    toxic_clear(&t);
    memset(&L, 0, sizeof L);
    czk__big_free(lag);
    czk__big_free(acc);
    czk__big_free(p1);
    czk__big_free(p2);
    czk__big_free(k);
    czk__big_free(base);
    czk__fb_table_free(&t1);
    czk__fb_table_free(&t2);
    czk_groth16_vk_clear(&vk);
    return st;
}
