/* Linear-combination operations of ONE storage variant, CZK_LCV (cs/lc.h).
 *
 * Included by files compiled for one variant (*_lcv.c, and files compiled
 * once that define CZK_LCV to vec). Functions are static inline and written
 * with the generic names, which cs/lc.h maps to the variant's names
 * (czk_lc_add_var -> czk_lc_add_var_inline2 ...).
 *
 * Each indexer (inputs, aux) is an array of terms sorted by index, duplicate
 * indices merged by adding coefficients (bellpepper's Indexer).
 *
 * The LC functions never fail: if a buffer cannot grow, the term is dropped
 * and the next enforce returns CZK_ERR_NOMEM.
 *
 *   void czk_lc_init(czk_lc *lc);        empty LC (or zero the struct)
 *   void czk_lc_free(czk_lc *lc);        release heap buffers to the pool
 *   void czk_lc_clear(czk_lc *lc);       empty, keep buffers
 *   size_t czk_lc_len(const czk_lc *lc);
 *   void czk_lc_view_of(czk_lc_view *v, const czk_lc *lc);
 *   void czk_lc_add_term(czk_lc *lc, const czk_fr *coeff, czk_var v);  lc + (coeff, v)
 *   void czk_lc_sub_term(czk_lc *lc, const czk_fr *coeff, czk_var v);  lc - (coeff, v)
 *   void czk_lc_add_var(czk_lc *lc, czk_var v);                        lc + v
 *   void czk_lc_sub_var(czk_lc *lc, czk_var v);                        lc - v
 *   void czk_lc_add_lc(czk_lc *lc, const czk_lc *o);                   lc + &o
 *   void czk_lc_sub_lc(czk_lc *lc, const czk_lc *o);                   lc - &o
 *   void czk_lc_add_scaled(czk_lc *lc, const czk_fr *k, const czk_lc *o);  lc + (k, &o)
 *   void czk_lc_sub_scaled(czk_lc *lc, const czk_fr *k, const czk_lc *o);  lc - (k, &o)
 *   void czk_lc_copy(czk_lc *dst, const czk_lc *src);   dst = src (dst initialized)
 *   void czk_lc_set_var(czk_lc *lc, czk_var v);         lc = 0 + v
 *   void czk_lc_push_unsorted(czk_lc *lc, const czk_fr *coeff, czk_var v);
 *   void czk_lc_normalize(czk_lc *lc);
 *       a batch of terms appended in any order, then sorted and merged once
 *       (same result as czk_lc_add_term for each; use nothing else on lc in
 *       between)
 *   czk_lc *czk_lc_scratch(czk_cs *cs, unsigned i);     cleared scratch LC i
 *                                                       (i < CZK_CS_SCRATCH)
 *   czk_status czk_enforce(czk_cs *cs, const czk_lc *a, const czk_lc *b,
 *                          const czk_lc *c, const char *name, uint64_t idx);
 */
#ifndef CZK_CS_LC_LCV_H
#define CZK_CS_LC_LCV_H

#ifndef CZK_LCV
#error "cs/lc_lcv.h: compile for one LC variant (-DCZK_LCV=vec|inline1|inline2|inline4; cs/lc.h)"
#endif

#include "cs/lc.h"

#if CZK_LCV_INLINE_N == 0
#define CZK__IX czk_lcix_vec
#define CZK__IX_DATA(ix) ((ix)->p)
#define CZK__IX_CAP(ix) ((ix)->cap)
#else
#define CZK__IX czk_lcix
#define CZK__IX_DATA(ix) ((ix)->cap ? (ix)->u.heap : (ix)->u.inl)
#define CZK__IX_CAP(ix) ((ix)->cap ? (ix)->cap : (uint32_t)CZK_LCV_INLINE_N)
#endif

/* Make room for at least min_cap terms; 0 if out of memory. */
static CZK_NOINLINE CZK_UNUSED int czk__lcix_grow(CZK__IX *ix, uint32_t min_cap)
{
    uint32_t cap;
    czk_lc_term *p;
    uint32_t want = CZK__IX_CAP(ix) * 2;
    if (want < min_cap) want = min_cap;
#if CZK_LCV_INLINE_N == 0
    p = czk__lc_buf_grow(ix->p, ix->cap, ix->p, ix->n, want, &cap);
    if (!p) return 0;
    ix->p = p;
#else
    if (ix->cap) {
        p = czk__lc_buf_grow(ix->u.heap, ix->cap, ix->u.heap, ix->n, want, &cap);
    } else {
        p = czk__lc_buf_grow(NULL, 0, ix->u.inl, ix->n, want, &cap);
    }
    if (!p) return 0;
    ix->u.heap = p;
#endif
    ix->cap = cap;
    return 1;
}

/* Slow path of czk__lcix_add: idx <= the last index. */
static CZK_NOINLINE CZK_UNUSED void czk__lcix_add_slow(CZK__IX *ix, uint32_t idx, const czk_fr *c)
{
    czk_lc_term *d = CZK__IX_DATA(ix);
    uint32_t n = ix->n, lo = 0, hi = n;
    while (lo < hi) {
        uint32_t mid = (lo + hi) >> 1;
        if (d[mid].index < idx) lo = mid + 1;
        else hi = mid;
    }
    if (d[lo].index == idx) {
        czk_fr_add(&d[lo].coeff, &d[lo].coeff, c);
        d[lo].reserved_ = 0;
        return;
    }
    if (CZK_UNLIKELY(n == CZK__IX_CAP(ix))) {
        if (!czk__lcix_grow(ix, n + 1)) return;
        d = CZK__IX_DATA(ix);
    }
    for (uint32_t k = n; k > lo; k--) d[k] = d[k - 1];
    d[lo].index = idx;
    d[lo].reserved_ = czk__pow2_tag(c);
    d[lo].coeff = *c;
    ix->n = n + 1;
}

/* ix[idx] += c (insert if absent); appending past the last index is the
 * inline fast path. */
static inline CZK_UNUSED void czk__lcix_add(CZK__IX *ix, uint32_t idx, const czk_fr *c)
{
    czk_lc_term *d = CZK__IX_DATA(ix);
    uint32_t n = ix->n;
    if (CZK_LIKELY(n == 0 || d[n - 1].index < idx)) {
        if (CZK_UNLIKELY(n == CZK__IX_CAP(ix))) {
            if (!czk__lcix_grow(ix, n + 1)) return;
            d = CZK__IX_DATA(ix);
        }
        d[n].index = idx;
        d[n].reserved_ = czk__pow2_tag(c);
        d[n].coeff = *c;
        ix->n = n + 1;
        return;
    }
    czk__lcix_add_slow(ix, idx, c);
}

static inline CZK_UNUSED void czk__lcix_free(CZK__IX *ix)
{
#if CZK_LCV_INLINE_N == 0
    if (ix->cap) czk__lc_buf_put(ix->p, ix->cap);
#else
    if (ix->cap) czk__lc_buf_put(ix->u.heap, ix->cap);
#endif
    memset(ix, 0, sizeof(*ix));
}

/* dst = src (dst already initialized). */
static inline CZK_UNUSED void czk__lcix_copy(CZK__IX *dst, const CZK__IX *src)
{
    uint32_t n = src->n;
    if (CZK_UNLIKELY(n > CZK__IX_CAP(dst))) {
        dst->n = 0;
        if (!czk__lcix_grow(dst, n)) return;
    }
    if (n) memcpy(CZK__IX_DATA(dst), CZK__IX_DATA(src), (size_t)n * sizeof(czk_lc_term));
    dst->n = n;
}

static inline CZK_UNUSED void czk_lc_init(czk_lc *lc)
{
    memset(lc, 0, sizeof(*lc));
}
static inline CZK_UNUSED void czk_lc_free(czk_lc *lc)
{
    czk__lcix_free(&lc->in);
    czk__lcix_free(&lc->aux);
}
static inline CZK_UNUSED void czk_lc_clear(czk_lc *lc)
{
    lc->in.n = 0;
    lc->aux.n = 0;
}
static inline CZK_UNUSED size_t czk_lc_len(const czk_lc *lc)
{
    return (size_t)lc->in.n + lc->aux.n;
}
static inline CZK_UNUSED void czk_lc_view_of(czk_lc_view *v, const czk_lc *lc)
{
    v->in = CZK__IX_DATA(&lc->in);
    v->n_in = lc->in.n;
    v->aux = CZK__IX_DATA(&lc->aux);
    v->n_aux = lc->aux.n;
}
static inline CZK_UNUSED void czk_lc_add_term(czk_lc *lc, const czk_fr *coeff, czk_var v)
{
    if (czk_var_is_input(v)) czk__lcix_add(&lc->in, czk_var_index(v), coeff);
    else czk__lcix_add(&lc->aux, v, coeff);
}
static inline CZK_UNUSED void czk_lc_sub_term(czk_lc *lc, const czk_fr *coeff, czk_var v)
{
    czk_fr n;
    czk_fr_neg(&n, coeff);
    czk_lc_add_term(lc, &n, v);
}
static inline CZK_UNUSED void czk_lc_add_var(czk_lc *lc, czk_var v)
{
    czk_lc_add_term(lc, &CZK_FR_ONE, v);
}
static inline CZK_UNUSED void czk_lc_sub_var(czk_lc *lc, czk_var v)
{
    czk_lc_add_term(lc, &CZK_FR_MINUS_ONE, v);
}
static inline CZK_UNUSED void czk_lc_set_var(czk_lc *lc, czk_var v)
{
    czk_lc_clear(lc);
    czk_lc_add_term(lc, &CZK_FR_ONE, v);
}
/* ix += k * src (neg: -=; k NULL: 1) for a sorted src of ns terms: appended
 * when every index is new and larger, else merged in one pass into a pool
 * buffer that replaces ix's storage. */
static CZK_UNUSED void czk__lcix_add_many(CZK__IX *ix, const czk_lc_term *src, uint32_t ns, const czk_fr *k,
                                          int neg)
{
    if (ns == 0) return;
    czk_lc_term *d = CZK__IX_DATA(ix);
    uint32_t n = ix->n, cap;
    if (CZK_UNLIKELY(src >= d && src < d + CZK__IX_CAP(ix))) {
        /* lc + lc: work on a copy */
        czk_lc_term *t = czk__lc_buf_get(ns, &cap);
        if (!t) return;
        memcpy(t, src, (size_t)ns * sizeof(czk_lc_term));
        czk__lcix_add_many(ix, t, ns, k, neg);
        czk__lc_buf_put(t, cap);
        return;
    }
    if (n == 0 || d[n - 1].index < src[0].index) {
        if (n + ns > CZK__IX_CAP(ix)) {
            if (!czk__lcix_grow(ix, n + ns)) return;
            d = CZK__IX_DATA(ix);
        }
        czk__lc_append_scaled(d + n, src, ns, k, neg);
        ix->n = n + ns;
        return;
    }
    if (ns <= 2) {
        for (uint32_t j = 0; j < ns; j++) {
            czk_fr c = src[j].coeff;
            if (k) czk_fr_mul(&c, &c, k);
            if (neg) czk_fr_neg(&c, &c);
            czk__lcix_add(ix, src[j].index, &c);
        }
        return;
    }
    czk_lc_term *t = czk__lc_buf_get(n + ns, &cap);
    if (!t) return;
    uint32_t m = czk__lc_merge(t, d, n, src, ns, k, neg);
#if CZK_LCV_INLINE_N == 0
    if (ix->cap) czk__lc_buf_put(ix->p, ix->cap);
    ix->p = t;
#else
    if (ix->cap) {
        czk__lc_buf_put(ix->u.heap, ix->cap);
    } else if (m <= CZK_LCV_INLINE_N) {
        memcpy(ix->u.inl, t, (size_t)m * sizeof(czk_lc_term));
        czk__lc_buf_put(t, cap);
        ix->n = m;
        return;
    }
    ix->u.heap = t;
#endif
    ix->cap = cap;
    ix->n = m;
}

static inline CZK_UNUSED void czk_lc_add_lc(czk_lc *lc, const czk_lc *o)
{
    czk__lcix_add_many(&lc->in, CZK__IX_DATA(&o->in), o->in.n, NULL, 0);
    czk__lcix_add_many(&lc->aux, CZK__IX_DATA(&o->aux), o->aux.n, NULL, 0);
}
static inline CZK_UNUSED void czk_lc_sub_lc(czk_lc *lc, const czk_lc *o)
{
    czk__lcix_add_many(&lc->in, CZK__IX_DATA(&o->in), o->in.n, NULL, 1);
    czk__lcix_add_many(&lc->aux, CZK__IX_DATA(&o->aux), o->aux.n, NULL, 1);
}
static inline CZK_UNUSED void czk_lc_add_scaled(czk_lc *lc, const czk_fr *k, const czk_lc *o)
{
    czk__lcix_add_many(&lc->in, CZK__IX_DATA(&o->in), o->in.n, k, 0);
    czk__lcix_add_many(&lc->aux, CZK__IX_DATA(&o->aux), o->aux.n, k, 0);
}
static inline CZK_UNUSED void czk_lc_sub_scaled(czk_lc *lc, const czk_fr *k, const czk_lc *o)
{
    czk__lcix_add_many(&lc->in, CZK__IX_DATA(&o->in), o->in.n, k, 1);
    czk__lcix_add_many(&lc->aux, CZK__IX_DATA(&o->aux), o->aux.n, k, 1);
}
/* Append without keeping order (see czk_lc_normalize). */
static inline CZK_UNUSED void czk__lcix_push(CZK__IX *ix, uint32_t idx, const czk_fr *c)
{
    uint32_t n = ix->n;
    if (CZK_UNLIKELY(n == CZK__IX_CAP(ix)))
        if (!czk__lcix_grow(ix, n + 1)) return;
    czk_lc_term *d = CZK__IX_DATA(ix);
    d[n].index = idx;
    d[n].reserved_ = czk__pow2_tag(c);
    d[n].coeff = *c;
    ix->n = n + 1;
}
static inline CZK_UNUSED void czk_lc_push_unsorted(czk_lc *lc, const czk_fr *coeff, czk_var v)
{
    if (czk_var_is_input(v)) czk__lcix_push(&lc->in, czk_var_index(v), coeff);
    else czk__lcix_push(&lc->aux, v, coeff);
}
static CZK_UNUSED void czk__lcix_normalize(CZK__IX *ix)
{
    uint32_t n = ix->n, cap = 0;
    czk_lc_term *d = CZK__IX_DATA(ix), *scratch = NULL;
    if (n < 2) return;
    if (n > 24 && !(scratch = czk__lc_buf_get(n, &cap))) return;
    ix->n = czk__lc_normalize(d, n, scratch);
    if (scratch) czk__lc_buf_put(scratch, cap);
}
static inline CZK_UNUSED void czk_lc_normalize(czk_lc *lc)
{
    czk__lcix_normalize(&lc->in);
    czk__lcix_normalize(&lc->aux);
}
static inline CZK_UNUSED void czk_lc_copy(czk_lc *dst, const czk_lc *src)
{
    czk__lcix_copy(&dst->in, &src->in);
    czk__lcix_copy(&dst->aux, &src->aux);
}
static inline CZK_UNUSED czk_lc *czk_lc_scratch(czk_cs *cs, unsigned i)
{
    /* a gadget of one variant used on a CS of another would corrupt memory */
    CZK_ASSERT(cs->lc_kind == CZK_LCV_KIND && i < CZK_CS_SCRATCH);
    czk_lc *s = (czk_lc *)cs->lc_scratch + i;
    czk_lc_clear(s);
    return s;
}
CZK_WUR static inline CZK_UNUSED czk_status czk_enforce(czk_cs *cs, const czk_lc *a, const czk_lc *b,
                                                        const czk_lc *c, const char *name, uint64_t idx)
{
    czk_lc_view va, vb, vc;
    czk_lc_view_of(&va, a);
    czk_lc_view_of(&vb, b);
    czk_lc_view_of(&vc, c);
    return czk__cs_enforce(cs, &va, &vb, &vc, name, idx);
}

#undef CZK__IX
#undef CZK__IX_DATA
#undef CZK__IX_CAP

#endif
