/* Batch-affine summation of many affine points, written once over the group
 * descriptor (ec/group.h) and instantiated per group by src/io/circom_msm.c
 * (include ec/group_g1.h or ec/group_g2.h first; no include guard).
 *
 * The m points are added pairwise, level by level: pair k of a level is
 * (P_2k, P_2k+1) -> P_2k + P_2k+1, so a level of c points leaves ceil(c/2).
 * The slopes of one level share one field inversion (Montgomery's trick:
 * prefix products, one inversion, a backward pass), so an addition costs
 * 5 multiplications + 1 squaring (3 of the multiplications are the trick's),
 * against 11 for a mixed Jacobian addition. The chord (P1 != +-P2) and
 * tangent (P1 = P2, y1 != 0) steps with the inverse given are those of
 * ec/ec_formulas_tmpl.h; P1 = -P2 gives infinity. (Bernstein-Lange,
 * Explicit-Formulas Database, "g1p/short-w affine"; the batching: Montgomery
 * 1987, "Speeding the Pollard and elliptic curve methods", §10.3.1.) Level 0
 * reads bases[idx[i] & IDX] directly, negated when bit SIGN of idx[i] is set. */

#include "ec/ec_formulas_tmpl.h"

enum { G_LOCAL(KIND_COPY_P), G_LOCAL(KIND_COPY_Q), G_LOCAL(KIND_INF), G_LOCAL(KIND_ADD), G_LOCAL(KIND_DBL) };

/* Point i of the current level. */
static inline void G_LOCAL(sum_load)(AFF *p, const AFF *bases, const uint32_t *idx, const AFF *wk, int level0,
                                     size_t i)
{
    if (!level0) {
        *p = wk[i];
        return;
    }
    *p = bases[idx[i] & CZK__SUM_IDX];
    if ((idx[i] & CZK__SUM_SIGN) && !p->inf) FE_NEG(&p->y, &p->y);
}

/* Which formula P + Q needs, and the slope's denominator (1 when none). */
static inline int G_LOCAL(sum_kind)(FE *den, const AFF *p, const AFF *q, const FE *one)
{
    *den = *one;
    if (p->inf) return G_LOCAL(KIND_COPY_Q);
    if (q->inf) return G_LOCAL(KIND_COPY_P);
    if (!FE_EQ(&p->x, &q->x)) {
        FE_SUB(den, &q->x, &p->x);
        return G_LOCAL(KIND_ADD);
    }
    if (FE_EQ(&p->y, &q->y) && !FE_IS_ZERO(&p->y)) {
        FE_DBL(den, &p->y);
        return G_LOCAL(KIND_DBL);
    }
    return G_LOCAL(KIND_INF);
}

/* Sum of the m points of idx into *out (Jacobian). wk: ceil(m/2) points,
 * pre: m/2 field elements of scratch. */
static void G_LOCAL(sum_chunk)(JAC *out, const AFF *bases, const uint32_t *idx, size_t m, AFF *wk, FE *pre)
{
    FE one;
    FE_SET_ONE(&one);
    G_FN(jac_set_inf)(out);
    int level0 = 1;
    size_t cur = m;
    /* Below this many points an inversion (~100 multiplications) costs more
     * than the Jacobian additions it saves. */
    while (cur > 24) {
        size_t h = cur / 2;
        FE acc = one, den, t;
        AFF p, q;
        for (size_t k = 0; k < h; k++) {
            G_LOCAL(sum_load)(&p, bases, idx, wk, level0, 2 * k);
            G_LOCAL(sum_load)(&q, bases, idx, wk, level0, 2 * k + 1);
            (void)G_LOCAL(sum_kind)(&den, &p, &q, &one);
            pre[k] = acc; /* den_0 ... den_(k-1) */
            FE_MUL(&acc, &acc, &den);
        }
        FE_INV_VAR(&t, &acc); /* 1 / (den_0 ... den_(h-1)) */
        for (size_t k = h; k-- > 0;) {
            G_LOCAL(sum_load)(&p, bases, idx, wk, level0, 2 * k);
            G_LOCAL(sum_load)(&q, bases, idx, wk, level0, 2 * k + 1);
            (void)G_LOCAL(sum_kind)(&den, &p, &q, &one);
            FE_MUL(&pre[k], &pre[k], &t); /* 1 / den_k */
            FE_MUL(&t, &t, &den);
        }
        for (size_t k = 0; k < h; k++) {
            G_LOCAL(sum_load)(&p, bases, idx, wk, level0, 2 * k);
            G_LOCAL(sum_load)(&q, bases, idx, wk, level0, 2 * k + 1);
            AFF r;
            int kind = G_LOCAL(sum_kind)(&den, &p, &q, &one);
            if (kind == G_LOCAL(KIND_COPY_P)) r = p;
            else if (kind == G_LOCAL(KIND_COPY_Q)) r = q;
            else if (kind == G_LOCAL(KIND_INF)) {
                memset(&r, 0, sizeof r);
                r.inf = 1;
            } else {
                if (kind == G_LOCAL(KIND_ADD)) G_LOCAL(aff_add_inv)(&r.x, &r.y, &p.x, &p.y, &q.x, &q.y, 0, &pre[k]);
                else G_LOCAL(aff_dbl_inv)(&r.x, &r.y, &p.x, &p.y, &pre[k]);
                r.inf = 0;
            }
            wk[k] = r;
        }
        if (cur & 1) G_LOCAL(sum_load)(&wk[h], bases, idx, wk, level0, cur - 1);
        cur = h + (cur & 1);
        level0 = 0;
    }
    for (size_t i = 0; i < cur; i++) {
        AFF p;
        G_LOCAL(sum_load)(&p, bases, idx, wk, level0, i);
        if (!p.inf) G_FN(jac_add_affine)(out, out, &p);
    }
}

/* Sum of bases[idx[i]] (signed) on up to `threads` threads: contiguous
 * chunks of idx, one per thread, then the chunk sums in order. */
czk_status G_LOCAL(czk__circom_sum)(JAC *out, const AFF *bases, const uint32_t *idx, size_t m, int threads)
{
    G_FN(jac_set_inf)(out);
    if (m == 0) return CZK_OK;
    if (threads <= 0) threads = czk_threads();
    size_t nt = (size_t)threads;
    /* at least 2048 points a chunk (~0.5 ms): smaller ones cost more in thread
     * wake-ups than they save */
    if (nt > m / 2048) nt = m / 2048 ? m / 2048 : 1;
    size_t nwk = m / 2 + nt + 1;
    AFF *wk = malloc(nwk * sizeof *wk);
    FE *pre = malloc(nwk * sizeof *pre);
    JAC *part = malloc(nt * sizeof *part);
    if (!wk || !pre || !part) {
        free(wk), free(pre), free(part);
        return czk_error(CZK_ERR_NOMEM, "summing %zu points: %zu bytes of scratch", m,
                         nwk * (sizeof *wk + sizeof *pre));
    }
    int64_t nti = (int64_t)nt;
#pragma omp parallel for num_threads((int)nt) schedule(static, 1)
    for (int64_t t = 0; t < nti; t++) {
        size_t lo = m * (size_t)t / nt, hi = m * (size_t)(t + 1) / nt;
        size_t off = lo / 2 + (size_t)t; /* chunks' scratch ranges do not overlap */
        G_LOCAL(sum_chunk)(&part[t], bases, idx + lo, hi - lo, wk + off, pre + off);
    }
    for (size_t t = 0; t < nt; t++) G_FN(jac_add)(out, out, &part[t]);
    free(wk), free(pre), free(part);
    return CZK_OK;
}

czk_status G_LOCAL(czk__circom_msm01)(JAC *out, const AFF *bases, size_t nbases, const czk_fr *scalars, size_t n,
                                      const uint64_t *density, int threads, size_t counts[3])
{
    G_FN(jac_set_inf)(out);
    if (n > CZK__SUM_IDX)
        return czk_error(CZK_ERR_INVALID_ARG, "0/1 MSM: %zu scalars (at most %u)", n, (unsigned)CZK__SUM_IDX);
    if (!density && nbases != n)
        return czk_error(CZK_ERR_INVALID_ARG, "0/1 MSM: %zu bases for %zu scalars without a density", nbases, n);
    uint32_t *one = malloc((n ? n : 1) * sizeof *one);
    uint32_t *rest = malloc((n ? n : 1) * sizeof *rest);
    if (!one || !rest) {
        free(one), free(rest);
        return czk_error(CZK_ERR_NOMEM, "0/1 MSM: index lists for %zu scalars", n);
    }
    czk_fr m1;
    czk_fr_neg(&m1, &CZK_FR_ONE);
    size_t n1 = 0, nr = 0, nz = 0, j = 0;
    czk_status st = CZK_OK;
    for (size_t i = 0; i < n; i++) {
        if (density && !((density[i / 64] >> (i % 64)) & 1)) continue;
        if (j >= nbases) {
            st = czk_error(CZK_ERR_INVALID_ARG, "0/1 MSM: the density has more than nbases = %zu set bits", nbases);
            goto done;
        }
        const czk_fr *s = &scalars[i];
        uint32_t b = (uint32_t)j++;
        if (czk__fr_limbs_eq(s, &CZK_FR_ZERO) || bases[b].inf) nz++;
        else if (czk__fr_limbs_eq(s, &CZK_FR_ONE)) one[n1++] = b;
        else if (czk__fr_limbs_eq(s, &m1)) one[n1++] = b | CZK__SUM_SIGN;
        else {
            rest[nr++] = (uint32_t)i;
            one[n - nr] = b; /* base indices of the rest fill `one` from the top */
        }
    }
    if (j != nbases) {
        st = czk_error(CZK_ERR_INVALID_ARG, "0/1 MSM: nbases = %zu but the density has %zu set bits", nbases, j);
        goto done;
    }
    if (counts) counts[0] += nz, counts[1] += n1, counts[2] += nr;
    JAC r1;
    st = G_LOCAL(czk__circom_sum)(&r1, bases, one, n1, threads);
    if (st != CZK_OK) goto done;
    if (nr) {
        AFF *rb = malloc(nr * sizeof *rb);
        czk_fr *rs = malloc(nr * sizeof *rs);
        if (!rb || !rs) {
            free(rb), free(rs);
            st = czk_error(CZK_ERR_NOMEM, "0/1 MSM: %zu remaining scalars", nr);
            goto done;
        }
        for (size_t k = 0; k < nr; k++) {
            rs[k] = scalars[rest[k]];
            rb[k] = bases[one[n - 1 - k]];
        }
        czk_msm_opts mo;
        memset(&mo, 0, sizeof mo);
        mo.threads = nr < 1024 ? 1 : threads;
        st = G_MSM(var)(out, rb, nr, rs, nr, NULL, &mo);
        free(rb), free(rs);
        if (st != CZK_OK) goto done;
    }
    G_FN(jac_add)(out, out, &r1);
done:
    free(one), free(rest);
    if (st != CZK_OK) G_FN(jac_set_inf)(out);
    return st;
}
