/* Batch-affine summation of many affine points, instantiated once per group
 * by src/io/circom_msm.c (define SUM_G = g1 | g2, SUM_FE = czk_fp | czk_fp2,
 * SUM_FE_(op) = czk_fp_##op | czk_fp2_##op, SUM_SET_ONE(r) before including;
 * no include guard).
 *
 * The m points are added pairwise, level by level: pair k of a level is
 * (P_2k, P_2k+1) -> P_2k + P_2k+1, so a level of c points leaves ceil(c/2).
 * The slopes of one level share one field inversion (Montgomery's trick:
 * prefix products, one inversion, a backward pass), so an addition costs
 * 5 multiplications + 1 squaring (3 of the multiplications are the trick's),
 * against 11 for a mixed Jacobian addition. Affine addition (P1 != +-P2):
 *   l = (y2 - y1) / (x2 - x1), x3 = l^2 - x1 - x2, y3 = l (x1 - x3) - y1;
 * doubling (P1 = P2, y1 != 0): l = 3 x1^2 / (2 y1), same x3, y3;
 * P1 = -P2 gives infinity. (Bernstein-Lange, Explicit-Formulas Database,
 * "g1p/short-w affine"; the batching: Montgomery 1987, "Speeding the Pollard
 * and elliptic curve methods", §10.3.1.) Level 0 reads bases[idx[i] & IDX]
 * directly, negated when bit SIGN of idx[i] is set. */

#define SUM_CAT2(a, b) a##b
#define SUM_CAT(a, b) SUM_CAT2(a, b)
#define SUM_AFF SUM_CAT(SUM_CAT(czk_, SUM_G), _affine)
#define SUM_JAC SUM_CAT(SUM_CAT(czk_, SUM_G), _jac)
#define SUM_FN(name) SUM_CAT(SUM_CAT(name, _), SUM_G)

enum { SUM_FN(KIND_COPY_P), SUM_FN(KIND_COPY_Q), SUM_FN(KIND_INF), SUM_FN(KIND_ADD), SUM_FN(KIND_DBL) };

/* Point i of the current level. */
static inline void SUM_FN(sum_load)(SUM_AFF *p, const SUM_AFF *bases, const uint32_t *idx, const SUM_AFF *wk,
                                    int level0, size_t i)
{
    if (!level0) {
        *p = wk[i];
        return;
    }
    *p = bases[idx[i] & CZK__SUM_IDX];
    if ((idx[i] & CZK__SUM_SIGN) && !p->inf) SUM_FE_(neg)(&p->y, &p->y);
}

/* Which formula P + Q needs, and the slope's denominator (1 when none). */
static inline int SUM_FN(sum_kind)(SUM_FE *den, const SUM_AFF *p, const SUM_AFF *q, const SUM_FE *one)
{
    *den = *one;
    if (p->inf) return SUM_FN(KIND_COPY_Q);
    if (q->inf) return SUM_FN(KIND_COPY_P);
    if (!SUM_FE_(eq)(&p->x, &q->x)) {
        SUM_FE_(sub)(den, &q->x, &p->x);
        return SUM_FN(KIND_ADD);
    }
    if (SUM_FE_(eq)(&p->y, &q->y) && !SUM_FE_(is_zero)(&p->y)) {
        SUM_FE_(dbl)(den, &p->y);
        return SUM_FN(KIND_DBL);
    }
    return SUM_FN(KIND_INF);
}

/* Sum of the m points of idx into *out (Jacobian). wk: ceil(m/2) points,
 * pre: m/2 field elements of scratch. */
static void SUM_FN(sum_chunk)(SUM_JAC *out, const SUM_AFF *bases, const uint32_t *idx, size_t m, SUM_AFF *wk,
                              SUM_FE *pre)
{
    SUM_FE one;
    SUM_SET_ONE(&one);
    SUM_CAT(SUM_CAT(czk_, SUM_G), _jac_set_inf)(out);
    int level0 = 1;
    size_t cur = m;
    /* Below this many points an inversion (~100 multiplications) costs more
     * than the Jacobian additions it saves. */
    while (cur > 24) {
        size_t h = cur / 2;
        SUM_FE acc = one, den, t;
        SUM_AFF p, q;
        for (size_t k = 0; k < h; k++) {
            SUM_FN(sum_load)(&p, bases, idx, wk, level0, 2 * k);
            SUM_FN(sum_load)(&q, bases, idx, wk, level0, 2 * k + 1);
            (void)SUM_FN(sum_kind)(&den, &p, &q, &one);
            pre[k] = acc; /* den_0 ... den_(k-1) */
            SUM_FE_(mul)(&acc, &acc, &den);
        }
        SUM_FE_(inv_var)(&t, &acc); /* 1 / (den_0 ... den_(h-1)) */
        for (size_t k = h; k-- > 0;) {
            SUM_FN(sum_load)(&p, bases, idx, wk, level0, 2 * k);
            SUM_FN(sum_load)(&q, bases, idx, wk, level0, 2 * k + 1);
            (void)SUM_FN(sum_kind)(&den, &p, &q, &one);
            SUM_FE_(mul)(&pre[k], &pre[k], &t); /* 1 / den_k */
            SUM_FE_(mul)(&t, &t, &den);
        }
        for (size_t k = 0; k < h; k++) {
            SUM_FN(sum_load)(&p, bases, idx, wk, level0, 2 * k);
            SUM_FN(sum_load)(&q, bases, idx, wk, level0, 2 * k + 1);
            SUM_AFF r;
            int kind = SUM_FN(sum_kind)(&den, &p, &q, &one);
            if (kind == SUM_FN(KIND_COPY_P)) r = p;
            else if (kind == SUM_FN(KIND_COPY_Q)) r = q;
            else if (kind == SUM_FN(KIND_INF)) {
                memset(&r, 0, sizeof r);
                r.inf = 1;
            } else {
                SUM_FE l, num;
                if (kind == SUM_FN(KIND_ADD)) SUM_FE_(sub)(&num, &q.y, &p.y); /* y2 - y1 */
                else {
                    SUM_FE_(sqr)(&num, &p.x); /* 3 x1^2 */
                    SUM_FE_(dbl)(&t, &num);
                    SUM_FE_(add)(&num, &num, &t);
                }
                SUM_FE_(mul)(&l, &num, &pre[k]);
                SUM_FE_(sqr)(&r.x, &l); /* x3 = l^2 - x1 - x2 */
                SUM_FE_(sub)(&r.x, &r.x, &p.x);
                SUM_FE_(sub)(&r.x, &r.x, &q.x);
                SUM_FE_(sub)(&t, &p.x, &r.x); /* y3 = l (x1 - x3) - y1 */
                SUM_FE_(mul)(&r.y, &l, &t);
                SUM_FE_(sub)(&r.y, &r.y, &p.y);
                r.inf = 0;
            }
            wk[k] = r;
        }
        if (cur & 1) SUM_FN(sum_load)(&wk[h], bases, idx, wk, level0, cur - 1);
        cur = h + (cur & 1);
        level0 = 0;
    }
    for (size_t i = 0; i < cur; i++) {
        SUM_AFF p;
        SUM_FN(sum_load)(&p, bases, idx, wk, level0, i);
        if (!p.inf) SUM_CAT(SUM_CAT(czk_, SUM_G), _jac_add_affine)(out, out, &p);
    }
}

/* Sum of bases[idx[i]] (signed) on up to `threads` threads: contiguous
 * chunks of idx, one per thread, then the chunk sums in order. */
czk_status SUM_CAT(czk__circom_sum_, SUM_G)(SUM_JAC *out, const SUM_AFF *bases, const uint32_t *idx,
                                                      size_t m, int threads)
{
    SUM_CAT(SUM_CAT(czk_, SUM_G), _jac_set_inf)(out);
    if (m == 0) return CZK_OK;
    if (threads <= 0) threads = czk_threads();
    size_t nt = (size_t)threads;
    /* at least 2048 points a chunk (~0.5 ms): smaller ones cost more in thread
     * wake-ups than they save */
    if (nt > m / 2048) nt = m / 2048 ? m / 2048 : 1;
    size_t nwk = m / 2 + nt + 1;
    SUM_AFF *wk = malloc(nwk * sizeof *wk);
    SUM_FE *pre = malloc(nwk * sizeof *pre);
    SUM_JAC *part = malloc(nt * sizeof *part);
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
        SUM_FN(sum_chunk)(&part[t], bases, idx + lo, hi - lo, wk + off, pre + off);
    }
    for (size_t t = 0; t < nt; t++) SUM_CAT(SUM_CAT(czk_, SUM_G), _jac_add)(out, out, &part[t]);
    free(wk), free(pre), free(part);
    return CZK_OK;
}

czk_status SUM_CAT(czk__circom_msm01_, SUM_G)(SUM_JAC *out, const SUM_AFF *bases, size_t nbases,
                                                        const czk_fr *scalars, size_t n, const uint64_t *density,
                                                        int threads, size_t counts[3])
{
    SUM_CAT(SUM_CAT(czk_, SUM_G), _jac_set_inf)(out);
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
    SUM_JAC r1;
    st = SUM_CAT(czk__circom_sum_, SUM_G)(&r1, bases, one, n1, threads);
    if (st != CZK_OK) goto done;
    if (nr) {
        SUM_AFF *rb = malloc(nr * sizeof *rb);
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
        st = SUM_CAT(SUM_CAT(czk_msm_, SUM_G), _var)(out, rb, nr, rs, nr, NULL, &mo);
        free(rb), free(rs);
        if (st != CZK_OK) goto done;
    }
    SUM_CAT(SUM_CAT(czk_, SUM_G), _jac_add)(out, out, &r1);
done:
    free(one), free(rest);
    if (st != CZK_OK) SUM_CAT(SUM_CAT(czk_, SUM_G), _jac_set_inf)(out);
    return st;
}

#undef SUM_CAT2
#undef SUM_CAT
#undef SUM_AFF
#undef SUM_JAC
#undef SUM_FN
