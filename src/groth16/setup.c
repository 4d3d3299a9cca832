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
 * Fixed-base multiplication: k = sum_w d_w 2^(c w) with c-bit unsigned
 * windows and a table T[w][d] = d 2^(c w) G (c chosen from the number of
 * points, at most 16 for G1). Each point is the sum of one table entry per
 * non-zero window. The sums of a chunk of points advance one window at a
 * time in affine coordinates, all additions of a step sharing one field
 * inversion (Montgomery's trick): x3 = l^2 - x1 - x2, y3 = l (x1 - x3) - y1,
 * l = (y2 - y1) / (x2 - x1), i.e. 5M + 1S per addition instead of 7M + 4S
 * for a mixed Jacobian one. With k < r and unsigned windows, a partial sum
 * s < 2^(cw) never equals +-d 2^(cw) (mod r), so x1 = x2 cannot occur; a
 * point that met it anyway is recomputed with czk_g1_mul_var. The table
 * (16 x 65535 points, 100 MB for G1) does not fit in cache: the entry of the
 * point PF_DIST ahead is prefetched.
 */
#include <omp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "common/bigmem.h"
#include "czk/czk.h"
#include "czk/groth16.h"
#include "czk/ntt.h"
#include "groth16/groth16_internal.h"

#define CHUNK 1024
#define PF_DIST 8 /* table entries prefetched this many points ahead */
#define MAX_WIN_G1 16
#define MAX_WIN_G2 14

static unsigned scalar_digit(const uint64_t l[4], unsigned pos, unsigned c)
{
    unsigned li = pos / 64, sh = pos % 64;
    if (li >= 4) return 0;
    uint64_t v = l[li] >> sh;
    if (sh + c > 64 && li + 1 < 4) v |= l[li + 1] << (64 - sh);
    return (unsigned)(v & ((1u << c) - 1));
}

/* Window width minimising additions + table construction for n points
 * (cost units: one batch-affine addition; one table entry ~ 3). */
static unsigned choose_window(size_t n, unsigned max_c)
{
    unsigned best = 2;
    double best_cost = 1e300;
    for (unsigned c = 2; c <= max_c; c++) {
        double nw = (double)((255 + c - 1) / c);
        double cost = (double)n * nw + 3.0 * nw * (double)((1u << c) - 1);
        if (cost < best_cost) best_cost = cost, best = c;
    }
    return best;
}

/* FIXED_BASE(pfx, FE, AFF, JAC): table type pfx##_tab, pfx##_tab_build,
 * pfx##_tab_free, pfx##_batch (threaded, progress), for group pfx. */
#define FIXED_BASE(pfx, FE, FEP, AFF, JAC)                                                            \
    typedef struct pfx##_xy {                                                                        \
        FE x, y;                                                                                     \
    } pfx##_xy;                                                                                      \
    typedef struct pfx##_tab {                                                                       \
        unsigned c, nwin;                                                                            \
        size_t per; /* 2^c - 1 entries per window (digit 0 omitted) */                               \
        pfx##_xy *t;                                                                                 \
        AFF g;                                                                                       \
    } pfx##_tab;                                                                                     \
                                                                                                     \
    static void pfx##_tab_free(pfx##_tab *tb)                                                        \
    {                                                                                                \
        free(tb->t);                                                                                 \
        tb->t = NULL;                                                                                \
    }                                                                                                \
                                                                                                     \
    static czk_status pfx##_tab_build(pfx##_tab *tb, const AFF *g, unsigned c, int threads)          \
    {                                                                                                \
        tb->c = c;                                                                                   \
        tb->nwin = (255 + tb->c - 1) / tb->c;                                                        \
        tb->per = ((size_t)1 << tb->c) - 1;                                                          \
        tb->g = *g;                                                                                  \
        tb->t = malloc(tb->nwin * tb->per * sizeof(pfx##_xy));                                       \
        if (!tb->t) return czk_error(CZK_ERR_NOMEM, "setup: " #pfx " table of %u x %zu points",     \
                                     tb->nwin, tb->per);                                             \
        JAC *bases = malloc(tb->nwin * sizeof(JAC));                                                 \
        if (!bases) {                                                                                \
            pfx##_tab_free(tb);                                                                      \
            return czk_error(CZK_ERR_NOMEM, "setup: " #pfx " table bases");                          \
        }                                                                                            \
        czk_##pfx##_jac_from_affine(&bases[0], g);                                                   \
        for (unsigned w = 1; w < tb->nwin; w++) {                                                    \
            bases[w] = bases[w - 1];                                                                 \
            for (unsigned k = 0; k < tb->c; k++) czk_##pfx##_jac_dbl(&bases[w], &bases[w]);          \
        }                                                                                            \
        int nomem = 0;                                                                               \
        size_t per = tb->per;                                                                        \
        _Pragma("omp parallel num_threads(threads)")                                                 \
        {                                                                                            \
            JAC *tmp = malloc(per * sizeof(JAC));                                                    \
            FE *scr = malloc(per * sizeof(FE));                                                      \
            AFF *aff = malloc(per * sizeof(AFF));                                                    \
            if (!tmp || !scr || !aff) {                                                              \
                _Pragma("omp atomic write") nomem = 1;                                               \
            }                                                                                        \
            _Pragma("omp for schedule(dynamic, 1)")                                                  \
            for (unsigned w = 0; w < tb->nwin; w++) {                                                \
                if (!tmp || !scr || !aff) continue;                                                  \
                tmp[0] = bases[w];                                                                   \
                for (size_t d = 1; d < per; d++) czk_##pfx##_jac_add(&tmp[d], &tmp[d - 1], &bases[w]); \
                czk_##pfx##_jac_batch_to_affine(aff, tmp, per, scr);                                 \
                pfx##_xy *row = tb->t + (size_t)w * per;                                             \
                for (size_t d = 0; d < per; d++) row[d].x = aff[d].x, row[d].y = aff[d].y;           \
            }                                                                                        \
            free(tmp);                                                                               \
            free(scr);                                                                               \
            free(aff);                                                                               \
        }                                                                                            \
        free(bases);                                                                                 \
        if (nomem) {                                                                                 \
            pfx##_tab_free(tb);                                                                      \
            return czk_error(CZK_ERR_NOMEM, "setup: " #pfx " table scratch");                        \
        }                                                                                            \
        return CZK_OK;                                                                               \
    }                                                                                                \
                                                                                                     \
    typedef struct pfx##_scratch {                                                                   \
        uint64_t *limbs;                                                                             \
        pfx##_xy *acc;                                                                               \
        uint8_t *state; /* 0 identity, 1 running, 2 exceptional */                                   \
        uint32_t *idx;                                                                               \
        const pfx##_xy **ent;                                                                        \
        FE *den, *pre;                                                                               \
    } pfx##_scratch;                                                                                 \
                                                                                                     \
    static void pfx##_scratch_free(pfx##_scratch *s)                                                 \
    {                                                                                                \
        free(s->limbs), free(s->acc), free(s->state), free(s->idx), free(s->ent), free(s->den),      \
            free(s->pre);                                                                            \
    }                                                                                                \
                                                                                                     \
    static int pfx##_scratch_alloc(pfx##_scratch *s)                                                 \
    {                                                                                                \
        s->limbs = malloc(CHUNK * 4 * sizeof(uint64_t));                                             \
        s->acc = malloc(CHUNK * sizeof(pfx##_xy));                                                   \
        s->state = malloc(CHUNK);                                                                    \
        s->idx = malloc(CHUNK * sizeof(uint32_t));                                                   \
        s->ent = malloc(CHUNK * sizeof(const pfx##_xy *));                                           \
        s->den = malloc(CHUNK * sizeof(FE));                                                         \
        s->pre = malloc(CHUNK * sizeof(FE));                                                         \
        return s->limbs && s->acc && s->state && s->idx && s->ent && s->den && s->pre;               \
    }                                                                                                \
                                                                                                     \
    /* out[i] = scalars[i] G for n <= CHUNK points (see the file comment). */                       \
    static void pfx##_chunk(AFF *out, const czk_fr *scalars, size_t n, const pfx##_tab *tb,          \
                            pfx##_scratch *s)                                                        \
    {                                                                                                \
        for (size_t i = 0; i < n; i++) {                                                             \
            czk_fr_to_limbs(s->limbs + 4 * i, &scalars[i]);                                          \
            s->state[i] = 0;                                                                         \
        }                                                                                            \
        for (unsigned w = 0; w < tb->nwin; w++) {                                                    \
            const pfx##_xy *row = tb->t + (size_t)w * tb->per;                                       \
            size_t cnt = 0;                                                                          \
            for (size_t i = 0; i < n; i++) {                                                         \
                if (i + PF_DIST < n) {                                                               \
                    unsigned dp = scalar_digit(s->limbs + 4 * (i + PF_DIST), w * tb->c, tb->c);     \
                    if (dp) __builtin_prefetch(&row[dp - 1]), __builtin_prefetch((const char *)&row[dp - 1] + 64); \
                }                                                                                    \
                unsigned d = scalar_digit(s->limbs + 4 * i, w * tb->c, tb->c);                       \
                if (!d || s->state[i] == 2) continue;                                                \
                const pfx##_xy *e = &row[d - 1];                                                     \
                if (s->state[i] == 0) {                                                              \
                    s->acc[i] = *e;                                                                  \
                    s->state[i] = 1;                                                                 \
                    continue;                                                                        \
                }                                                                                    \
                FEP##_sub(&s->den[cnt], &e->x, &s->acc[i].x);                                        \
                if (FEP##_is_zero(&s->den[cnt])) {                                                   \
                    s->state[i] = 2;                                                                 \
                    continue;                                                                        \
                }                                                                                    \
                if (cnt)                                                                             \
                    FEP##_mul(&s->pre[cnt], &s->pre[cnt - 1], &s->den[cnt]);                         \
                else                                                                                 \
                    s->pre[0] = s->den[0];                                                           \
                s->idx[cnt] = (uint32_t)i;                                                           \
                s->ent[cnt] = e;                                                                     \
                cnt++;                                                                               \
            }                                                                                        \
            if (!cnt) continue;                                                                      \
            FE inv, dinv, lam, t;                                                                    \
            FEP##_inv(&inv, &s->pre[cnt - 1]);                                                       \
            for (size_t j = cnt; j-- > 0;) {                                                         \
                if (j) {                                                                             \
                    FEP##_mul(&dinv, &inv, &s->pre[j - 1]);                                          \
                    FEP##_mul(&inv, &inv, &s->den[j]);                                               \
                } else {                                                                             \
                    dinv = inv;                                                                      \
                }                                                                                    \
                pfx##_xy *a = &s->acc[s->idx[j]];                                                    \
                const pfx##_xy *e = s->ent[j];                                                       \
                FEP##_sub(&lam, &e->y, &a->y);                                                       \
                FEP##_mul(&lam, &lam, &dinv);                                                        \
                FEP##_sqr(&t, &lam);                                                                 \
                FEP##_sub(&t, &t, &a->x);                                                            \
                FEP##_sub(&t, &t, &e->x); /* x3 */                                                   \
                FEP##_sub(&a->x, &a->x, &t);                                                         \
                FEP##_mul(&a->x, &a->x, &lam);                                                       \
                FEP##_sub(&a->y, &a->x, &a->y); /* y3 = l (x1 - x3) - y1 */                          \
                a->x = t;                                                                            \
            }                                                                                        \
        }                                                                                            \
        for (size_t i = 0; i < n; i++) {                                                             \
            if (s->state[i] == 1) {                                                                  \
                out[i].x = s->acc[i].x, out[i].y = s->acc[i].y, out[i].inf = 0;                      \
            } else if (s->state[i] == 0) {                                                           \
                czk_##pfx##_affine_set_inf(&out[i]);                                                 \
            } else {                                                                                 \
                JAC j;                                                                               \
                czk_##pfx##_jac_from_affine(&j, &tb->g);                                             \
                czk_##pfx##_mul_var(&j, &j, &scalars[i]);                                            \
                czk_##pfx##_jac_to_affine(&out[i], &j);                                              \
            }                                                                                        \
        }                                                                                            \
    }                                                                                                \
                                                                                                     \
    static czk_status pfx##_batch(AFF *out, const czk_fr *scalars, size_t n, const pfx##_tab *tb,    \
                                  int threads, const czk_groth16_setup_opts *o, const char *stage)   \
    {                                                                                                \
        int nomem = 0;                                                                               \
        size_t nchunks = (n + CHUNK - 1) / CHUNK, done = 0;                                          \
        _Pragma("omp parallel num_threads(threads)")                                                 \
        {                                                                                            \
            pfx##_scratch s;                                                                         \
            int ok = pfx##_scratch_alloc(&s);                                                        \
            if (!ok) {                                                                               \
                _Pragma("omp atomic write") nomem = 1;                                               \
            }                                                                                        \
            _Pragma("omp for schedule(dynamic, 1)")                                                  \
            for (size_t ch = 0; ch < nchunks; ch++) {                                                \
                if (!ok) continue;                                                                   \
                size_t lo = ch * CHUNK, hi = lo + CHUNK < n ? lo + CHUNK : n;                        \
                pfx##_chunk(out + lo, scalars + lo, hi - lo, tb, &s);                                \
                if (o && o->progress) {                                                              \
                    _Pragma("omp critical(czk_setup_progress)")                                      \
                    {                                                                                \
                        done++;                                                                      \
                        if (omp_get_thread_num() == 0 || done == nchunks)                            \
                            o->progress(o->progress_ctx, stage, (double)done / (double)nchunks);     \
                    }                                                                                \
                }                                                                                    \
            }                                                                                        \
            pfx##_scratch_free(&s);                                                                  \
        }                                                                                            \
        if (nomem) return czk_error(CZK_ERR_NOMEM, "setup: %s: scratch allocation", stage);          \
        return CZK_OK;                                                                               \
    }

FIXED_BASE(g1, czk_fp, czk_fp, czk_g1_affine, czk_g1_jac)
FIXED_BASE(g2, czk_fp2, czk_fp2, czk_g2_affine, czk_g2_jac)

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
    size_t n_rows = A->n_rows, n_cols = A->n_cols, n_aux = n_cols - n_inputs;
    unsigned log_m = 0;
    size_t m = 1;
    while (m < n_rows) m <<= 1, log_m++;
    if (log_m > 32) return czk_error(CZK_ERR_UNSUPPORTED, "setup: %zu constraints exceed 2^32", n_rows);

    czk_rng rng;
    if (opts && opts->use_seed)
        czk_rng_seed(&rng, opts->seed);
    else
        CZK_TRY(czk_rng_from_os(&rng));
    czk_fr tau, alpha, beta, gamma, delta;
    random_nonzero(&tau, &rng);
    random_nonzero(&alpha, &rng);
    random_nonzero(&beta, &rng);
    random_nonzero(&gamma, &rng);
    random_nonzero(&delta, &rng);
    czk_rng_clear(&rng);

    czk_status st = CZK_OK;
    czk_fr *lag = malloc(m * sizeof(czk_fr));
    czk_fr *scr = malloc(m * sizeof(czk_fr));
    czk_fr *u = calloc(n_cols, sizeof(czk_fr));
    czk_fr *v = calloc(n_cols, sizeof(czk_fr));
    czk_fr *w = calloc(n_cols, sizeof(czk_fr));
    czk_fr *k = malloc((n_cols > m ? n_cols : m) * sizeof(czk_fr));
    g1_tab t1 = {0};
    g2_tab t2 = {0};
    if (!lag || !scr || !u || !v || !w || !k) {
        st = czk_error(CZK_ERR_NOMEM, "setup: evaluation vectors for %zu constraints, %zu variables", n_rows, n_cols);
        goto out;
    }

    /* Lagrange basis at tau: L_j = Z(tau)/m * w^j / (tau - w^j) */
    czk_fr omega, zt, minv, t;
    st = czk_fr_root_of_unity(&omega, log_m);
    if (st != CZK_OK) goto out;
    czk_fr_pow_u64(&zt, &tau, (uint64_t)m);
    czk_fr_sub(&zt, &zt, &CZK_FR_ONE);
    if (czk_fr_is_zero(&zt)) {
        st = czk_error(CZK_ERR_INTERNAL, "setup: tau is a root of unity of the domain");
        goto out;
    }
    czk_fr_from_u64(&minv, (uint64_t)m);
    czk_fr_inv(&minv, &minv);
    czk_fr zm;
    czk_fr_mul(&zm, &zt, &minv);
    {
        czk_fr wj = CZK_FR_ONE;
        for (size_t j = 0; j < m; j++) {
            czk_fr_sub(&scr[j], &tau, &wj); /* tau - w^j (non-zero since Z(tau) != 0) */
            lag[j] = wj;
            czk_fr_mul(&wj, &wj, &omega);
        }
        czk_fr_batch_inv(scr, scr, m, k);
        for (size_t j = 0; j < m; j++) {
            czk_fr_mul(&lag[j], &lag[j], &scr[j]);
            czk_fr_mul(&lag[j], &lag[j], &zm);
        }
    }
    eval_columns(u, A, lag);
    eval_columns(v, B, lag);
    eval_columns(w, C, lag);
    if (opts && opts->progress) opts->progress(opts->progress_ctx, "QAP evaluation", 1.0);

    size_t na = 0, nb = 0;
    for (size_t i = 0; i < n_cols; i++) {
        na += i < n_inputs || !czk_fr_is_zero(&u[i]);
        nb += !czk_fr_is_zero(&v[i]);
    }
    {
        czk_g1_affine g1;
        czk_g2_affine g2;
        czk_g1_generator(&g1);
        czk_g2_generator(&g2);
        st = g1_tab_build(&t1, &g1, choose_window(3 + n_cols + na + nb + (m - 1), MAX_WIN_G1), threads);
        if (st == CZK_OK) st = g2_tab_build(&t2, &g2, choose_window(3 + nb, MAX_WIN_G2), threads);
        if (st != CZK_OK) goto out;
    }

    /* verifying key */
    {
        czk_fr k1[3] = {alpha, beta, delta}, k2[3] = {beta, gamma, delta};
        czk_g1_affine p1[3];
        czk_g2_affine p2[3];
        st = g1_batch(p1, k1, 3, &t1, 1, NULL, "vk");
        if (st == CZK_OK) st = g2_batch(p2, k2, 3, &t2, 1, NULL, "vk");
        memset(k1, 0, sizeof k1);
        memset(k2, 0, sizeof k2);
        if (st != CZK_OK) goto out;
        out->vk.alpha_g1 = p1[0], out->vk.beta_g1 = p1[1], out->vk.delta_g1 = p1[2];
        out->vk.beta_g2 = p2[0], out->vk.gamma_g2 = p2[1], out->vk.delta_g2 = p2[2];
    }

    /* (beta u + alpha v + w) / gamma for inputs, / delta for aux */
    czk_fr gamma_inv, delta_inv;
    czk_fr_inv(&gamma_inv, &gamma);
    czk_fr_inv(&delta_inv, &delta);
    for (size_t i = 0; i < n_cols; i++) {
        czk_fr x;
        czk_fr_mul(&x, &beta, &u[i]);
        czk_fr_mul(&t, &alpha, &v[i]);
        czk_fr_add(&x, &x, &t);
        czk_fr_add(&x, &x, &w[i]);
        czk_fr_mul(&k[i], &x, i < n_inputs ? &gamma_inv : &delta_inv);
    }
    out->vk.n_ic = n_inputs;
    out->vk.ic = malloc(n_inputs * sizeof(czk_g1_affine));
    out->n_l = n_aux;
    out->big_sections = 1;
    out->l = czk__big_alloc((n_aux ? n_aux : 1) * sizeof(czk_g1_affine));
    if (!out->vk.ic || !out->l) {
        st = czk_error(CZK_ERR_NOMEM, "setup: ic / l queries");
        goto out;
    }
    st = g1_batch(out->vk.ic, k, n_inputs, &t1, threads, opts, "ic");
    if (st == CZK_OK) st = g1_batch(out->l, k + n_inputs, n_aux, &t1, threads, opts, "l");
    if (st != CZK_OK) goto out;

    /* a: all inputs, then aux with u != 0; b: entries with v != 0 */
    {
        na = 0, nb = 0;
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
        if (!out->a || !out->b_g1 || !out->b_g2) {
            st = czk_error(CZK_ERR_NOMEM, "setup: a / b queries");
            goto out;
        }
        st = g1_batch(out->a, u, na, &t1, threads, opts, "a");
        if (st == CZK_OK) st = g1_batch(out->b_g1, v, nb, &t1, threads, opts, "b_g1");
        if (st == CZK_OK) st = g2_batch(out->b_g2, v, nb, &t2, threads, opts, "b_g2");
        if (st != CZK_OK) goto out;
    }

    /* h_i = tau^i Z(tau) / delta, i < m - 1 */
    {
        czk_fr x;
        czk_fr_mul(&x, &zt, &delta_inv);
        for (size_t i = 0; i + 1 < m; i++) {
            k[i] = x;
            czk_fr_mul(&x, &x, &tau);
        }
        out->n_h = m - 1;
        out->h = czk__big_alloc((m > 1 ? m - 1 : 1) * sizeof(czk_g1_affine));
        if (!out->h) {
            st = czk_error(CZK_ERR_NOMEM, "setup: h query of %zu points", m - 1);
            goto out;
        }
        st = g1_batch(out->h, k, m - 1, &t1, threads, opts, "h");
    }

out:
    memset(&tau, 0, sizeof tau);
    memset(&alpha, 0, sizeof alpha);
    memset(&beta, 0, sizeof beta);
    memset(&gamma, 0, sizeof gamma);
    memset(&delta, 0, sizeof delta);
    free(lag);
    free(scr);
    free(u);
    free(v);
    free(w);
    free(k);
    g1_tab_free(&t1);
    g2_tab_free(&t2);
    if (st != CZK_OK) czk_groth16_params_clear(out);
    return st;
}

/* Test hooks (declared in tests/groth16/test_groth16_setup.c): out[i] = k[i] G
 * through the fixed-base path with window c (0: chosen from n). */
czk_status czk_groth16_fixed_g1_var(czk_g1_affine *out, const czk_fr *k, size_t n, unsigned c,
                                    int threads);
czk_status czk_groth16_fixed_g2_var(czk_g2_affine *out, const czk_fr *k, size_t n, unsigned c,
                                    int threads);

czk_status czk_groth16_fixed_g1_var(czk_g1_affine *out, const czk_fr *k, size_t n, unsigned c,
                                    int threads)
{
    if (c > MAX_WIN_G1) return czk_error(CZK_ERR_INVALID_ARG, "fixed_g1: window %u > %d", c, MAX_WIN_G1);
    czk_g1_affine g;
    czk_g1_generator(&g);
    g1_tab tb = {0};
    CZK_TRY(g1_tab_build(&tb, &g, c ? c : choose_window(n, MAX_WIN_G1), threads));
    czk_status st = g1_batch(out, k, n, &tb, threads, NULL, "g1");
    g1_tab_free(&tb);
    return st;
}

czk_status czk_groth16_fixed_g2_var(czk_g2_affine *out, const czk_fr *k, size_t n, unsigned c,
                                    int threads)
{
    if (c > MAX_WIN_G2) return czk_error(CZK_ERR_INVALID_ARG, "fixed_g2: window %u > %d", c, MAX_WIN_G2);
    czk_g2_affine g;
    czk_g2_generator(&g);
    g2_tab tb = {0};
    CZK_TRY(g2_tab_build(&tb, &g, c ? c : choose_window(n, MAX_WIN_G2), threads));
    czk_status st = g2_batch(out, k, n, &tb, threads, NULL, "g2");
    g2_tab_free(&tb);
    return st;
}

/* ---- streamed setup: sections computed and written chunk by chunk --------------------- */

/* Points per chunk of a streamed section (a test hook may lower it). */
static size_t stream_chunk = (size_t)1 << 20;

void czk__groth16_setup_stream_chunk(size_t n);
void czk__groth16_setup_stream_chunk(size_t n) { stream_chunk = n ? n : (size_t)1 << 20; }

typedef struct stream_ctx {
    czk__params_writer *w;
    g1_tab *t1;
    g2_tab *t2;
    czk_g1_affine *p1;
    czk_g2_affine *p2;
    czk_fr *k; /* one chunk's scalars */
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
    CZK_TRY(czk__params_writer_section(c->w, sec, n));
    for (size_t first = 0; first < n; first += stream_chunk) {
        size_t cnt = n - first < stream_chunk ? n - first : stream_chunk;
        next(nctx, c->k, first, cnt);
        if (g2) {
            CZK_TRY(g2_batch(c->p2, c->k, cnt, c->t2, c->threads, NULL, stage));
            CZK_TRY(czk__params_writer_g2(c->w, c->p2, cnt));
        } else {
            CZK_TRY(g1_batch(c->p1, c->k, cnt, c->t1, c->threads, NULL, stage));
            CZK_TRY(czk__params_writer_g1(c->w, c->p1, cnt));
        }
        stream_progress(c, stage, first + cnt, n);
    }
    if (!n) stream_progress(c, stage, 0, 0);
    return CZK_OK;
}

/* h_i = x tau^i, x = Z(tau) / delta */
typedef struct h_scalars {
    czk_fr x, tau;
} h_scalars;

static void next_h(void *ctx, czk_fr *k, size_t first, size_t cnt)
{
    const h_scalars *h = ctx;
    czk_fr v;
    czk_fr_pow_u64(&v, &h->tau, (uint64_t)first);
    czk_fr_mul(&v, &v, &h->x);
    for (size_t i = 0; i < cnt; i++) {
        k[i] = v;
        czk_fr_mul(&v, &v, &h->tau);
    }
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
 * L_j(tau) = Z(tau)/m * w^j / (tau - w^j) for j in [j0, j0 + cnt), times f. */
typedef struct lag_ctx {
    czk_fr tau, omega, zm;
    czk_fr *scr, *scr2;
} lag_ctx;

static void lag_chunk(const lag_ctx *L, czk_fr *out, size_t j0, size_t cnt, const czk_fr *f)
{
    czk_fr wj, zf;
    czk_fr_mul(&zf, &L->zm, f);
    czk_fr_pow_u64(&wj, &L->omega, (uint64_t)j0);
    for (size_t j = 0; j < cnt; j++) {
        czk_fr_sub(&L->scr[j], &L->tau, &wj); /* non-zero: Z(tau) != 0 */
        out[j] = wj;
        czk_fr_mul(&wj, &wj, &L->omega);
    }
    czk_fr_batch_inv(L->scr, L->scr, cnt, L->scr2);
    for (size_t j = 0; j < cnt; j++) {
        czk_fr_mul(&out[j], &out[j], &L->scr[j]);
        czk_fr_mul(&out[j], &out[j], &zf);
    }
}

/* acc += sum over the matrices ms[0..nm) of f[i] M_i^T L, one chunk of rows at a time */
static czk_status columns_pass(const czk_groth16_setup_circuit *c, const lag_ctx *L, czk_fr *lag, size_t chunk,
                               const int *ms, const czk_fr *f, int nm, czk_fr *acc, int threads)
{
    for (size_t j0 = 0; j0 < c->n_rows; j0 += chunk) {
        size_t cnt = c->n_rows - j0 < chunk ? c->n_rows - j0 : chunk;
        for (int i = 0; i < nm; i++) {
            lag_chunk(L, lag, j0, cnt, &f[i]);
            CZK_TRY(c->columns(c->ctx, ms[i], acc, lag, j0, j0 + cnt, threads));
        }
    }
    return CZK_OK;
}

czk_status czk_groth16_setup_write(const char *params_path, const char *vk_path, const czk_groth16_setup_circuit *c,
                                   const czk_groth16_setup_opts *opts)
{
    czk_init();
    if (!c || !c->columns || c->n_inputs == 0 || c->n_inputs > c->n_cols || c->n_cols > UINT32_MAX)
        return czk_error(CZK_ERR_INVALID_ARG, "streamed setup: %zu columns, %zu inputs", c ? c->n_cols : 0,
                         c ? c->n_inputs : 0);
    const int threads = opts && opts->threads > 0 ? opts->threads : czk_threads();
    const size_t n_rows = c->n_rows, n_cols = c->n_cols, n_inputs = c->n_inputs, n_aux = n_cols - n_inputs;
    unsigned log_m = 0;
    size_t m = 1;
    while (m < n_rows) m <<= 1, log_m++;
    if (log_m > 32) return czk_error(CZK_ERR_UNSUPPORTED, "setup: %zu constraints exceed 2^32", n_rows);

    /* toxic waste, drawn as czk_groth16_setup draws it (same seed, same file) */
    czk_rng rng;
    if (opts && opts->use_seed)
        czk_rng_seed(&rng, opts->seed);
    else
        CZK_TRY(czk_rng_from_os(&rng));
    czk_fr tau, alpha, beta, gamma, delta;
    random_nonzero(&tau, &rng);
    random_nonzero(&alpha, &rng);
    random_nonzero(&beta, &rng);
    random_nonzero(&gamma, &rng);
    random_nonzero(&delta, &rng);
    czk_rng_clear(&rng);

    czk_status st = CZK_OK;
    czk__params_writer *w = NULL;
    czk_groth16_vk vk;
    memset(&vk, 0, sizeof vk);
    uint32_t *sel = NULL;
    const size_t chunk = stream_chunk;
    /* one column vector and chunks: the Lagrange values of a chunk of rows
     * are made when a pass over the matrices reaches it */
    czk_fr *acc = czk__big_alloc(n_cols * sizeof(czk_fr));
    czk_fr *lag = malloc(chunk * sizeof(czk_fr));
    czk_fr *k = malloc(chunk * sizeof(czk_fr)), *scr = malloc(chunk * sizeof(czk_fr)),
           *scr2 = malloc(chunk * sizeof(czk_fr));
    czk_g1_affine *p1 = czk__big_alloc(chunk * sizeof(czk_g1_affine));
    czk_g2_affine *p2 = czk__big_alloc(chunk * sizeof(czk_g2_affine));
    g1_tab t1 = {0};
    g2_tab t2 = {0};
    lag_ctx L;
    memset(&L, 0, sizeof L);
    if (!lag || !acc || !k || !scr || !scr2 || !p1 || !p2) {
        st = czk_error(CZK_ERR_NOMEM, "setup: %zu variables (%.1f GiB)", n_cols, (double)n_cols * 32.0 / 1073741824.0);
        goto out;
    }
    czk_fr zt, minv;
    st = czk_fr_root_of_unity(&L.omega, log_m);
    if (st != CZK_OK) goto out;
    czk_fr_pow_u64(&zt, &tau, (uint64_t)m);
    czk_fr_sub(&zt, &zt, &CZK_FR_ONE);
    if (czk_fr_is_zero(&zt)) {
        st = czk_error(CZK_ERR_INTERNAL, "setup: tau is a root of unity of the domain");
        goto out;
    }
    czk_fr_from_u64(&minv, (uint64_t)m);
    czk_fr_inv(&minv, &minv);
    czk_fr_mul(&L.zm, &zt, &minv);
    L.tau = tau;
    L.scr = scr;
    L.scr2 = scr2;

    /* acc = beta u + alpha v + w */
    {
        const int ms[3] = {0, 1, 2};
        const czk_fr f[3] = {beta, alpha, CZK_FR_ONE};
        st = columns_pass(c, &L, lag, chunk, ms, f, 3, acc, threads);
        if (st != CZK_OK) goto out;
    }
    if (opts && opts->progress) opts->progress(opts->progress_ctx, "QAP evaluation", 1.0);
    czk_fr gamma_inv, delta_inv;
    czk_fr_inv(&gamma_inv, &gamma);
    czk_fr_inv(&delta_inv, &delta);
#pragma omp parallel for num_threads(threads) schedule(static)
    for (size_t i = 0; i < n_cols; i++) czk_fr_mul(&acc[i], &acc[i], i < n_inputs ? &gamma_inv : &delta_inv);

    {
        czk_g1_affine g1;
        czk_g2_affine g2;
        czk_g1_generator(&g1);
        czk_g2_generator(&g2);
        /* the window of the in-memory setup's table (the points do not depend on it) */
        st = g1_tab_build(&t1, &g1, choose_window(3 + 3 * n_cols + (m - 1), MAX_WIN_G1), threads);
        if (st == CZK_OK) st = g2_tab_build(&t2, &g2, choose_window(3 + n_cols, MAX_WIN_G2), threads);
        if (st != CZK_OK) goto out;
    }
    /* the verifying key, IC included */
    {
        czk_fr k1[3] = {alpha, beta, delta}, k2[3] = {beta, gamma, delta};
        czk_g1_affine q1[3];
        czk_g2_affine q2[3];
        st = g1_batch(q1, k1, 3, &t1, 1, NULL, "vk");
        if (st == CZK_OK) st = g2_batch(q2, k2, 3, &t2, 1, NULL, "vk");
        memset(k1, 0, sizeof k1);
        memset(k2, 0, sizeof k2);
        if (st != CZK_OK) goto out;
        vk.alpha_g1 = q1[0], vk.beta_g1 = q1[1], vk.delta_g1 = q1[2];
        vk.beta_g2 = q2[0], vk.gamma_g2 = q2[1], vk.delta_g2 = q2[2];
        vk.n_ic = n_inputs;
        vk.ic = malloc(n_inputs * sizeof *vk.ic);
        if (!vk.ic) {
            st = czk_error(CZK_ERR_NOMEM, "setup: IC");
            goto out;
        }
        st = g1_batch(vk.ic, acc, n_inputs, &t1, threads, NULL, "ic");
        if (st != CZK_OK) goto out;
    }
    st = czk__params_writer_open(&w, params_path, vk_path, &vk, 0);
    if (st != CZK_OK) goto out;
    stream_ctx sx = {w, &t1, &t2, p1, p2, k, threads, opts};
    h_scalars hs;
    czk_fr_mul(&hs.x, &zt, &delta_inv);
    hs.tau = tau;
    st = stream_section(&sx, 0, "h", m - 1, 0, next_h, &hs);
    memset(&hs, 0, sizeof hs);
    sel_scalars ls = {acc, NULL, n_inputs};
    if (st == CZK_OK) st = stream_section(&sx, 1, "l", n_aux, 0, next_sel, &ls);
    /* a: u = A^T lag; every input, then the aux variables with u != 0 */
    if (st == CZK_OK) {
        const int ma = 0;
        memset(acc, 0, n_cols * sizeof(czk_fr));
        st = columns_pass(c, &L, lag, chunk, &ma, &CZK_FR_ONE, 1, acc, threads);
    }
    size_t cnt = 0;
    if (st == CZK_OK) st = select_nonzero(&sel, &cnt, acc, n_cols, n_inputs);
    sel_scalars as = {acc, sel, 0};
    if (st == CZK_OK) st = stream_section(&sx, 2, "a", cnt, 0, next_sel, &as);
    czk__big_free(sel);
    sel = NULL;
    /* b: v = B^T lag, entries with v != 0, in G1 then G2 */
    if (st == CZK_OK) {
        const int mb = 1;
        memset(acc, 0, n_cols * sizeof(czk_fr));
        st = columns_pass(c, &L, lag, chunk, &mb, &CZK_FR_ONE, 1, acc, threads);
    }
    if (st == CZK_OK) st = select_nonzero(&sel, &cnt, acc, n_cols, 0);
    sel_scalars bs = {acc, sel, 0};
    if (st == CZK_OK) st = stream_section(&sx, 3, "b_g1", cnt, 0, next_sel, &bs);
    if (st == CZK_OK) st = stream_section(&sx, 4, "b_g2", cnt, 1, next_sel, &bs);
    if (st == CZK_OK) {
        st = czk__params_writer_commit(w);
        w = NULL;
    }
out:
    czk__params_writer_abort(w);
    memset(&tau, 0, sizeof tau);
    memset(&alpha, 0, sizeof alpha);
    memset(&beta, 0, sizeof beta);
    memset(&gamma, 0, sizeof gamma);
    memset(&delta, 0, sizeof delta);
    memset(&L, 0, sizeof L);
    czk__big_free(sel);
    free(lag);
    czk__big_free(acc);
    czk__big_free(p1);
    czk__big_free(p2);
    free(k);
    free(scr);
    free(scr2);
    g1_tab_free(&t1);
    g2_tab_free(&t2);
    czk_groth16_vk_clear(&vk);
    return st;
}
