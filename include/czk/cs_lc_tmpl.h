/* czk — linear-combination operations for ONE storage variant.
 *
 * Included by czk/cs.h once per variant with CZK__LCV (name suffix) and
 * CZK__LC_INLINE_N (0 = heap vector, N = inline capacity) defined. Not a
 * standalone header; no include guard on purpose.
 *
 * Each indexer (inputs, aux) is an array of terms sorted by index, duplicate
 * indices merged by adding coefficients (bellpepper's Indexer). */

#if CZK__LC_INLINE_N == 0
#define CZK__LC_THIS_KIND CZK_LC_VEC
#elif CZK__LC_INLINE_N == 1
#define CZK__LC_THIS_KIND CZK_LC_INLINE1
#elif CZK__LC_INLINE_N == 2
#define CZK__LC_THIS_KIND CZK_LC_INLINE2
#else
#define CZK__LC_THIS_KIND CZK_LC_INLINE4
#endif

#if CZK__LC_INLINE_N == 0
#define CZK__IX czk_lcix_vec
#define CZK__IX_DATA(ix) ((ix)->p)
#define CZK__IX_CAP(ix) ((ix)->cap)
#else
#define CZK__IX CZK_V(czk_lcix)
#define CZK__IX_DATA(ix) ((ix)->cap ? (ix)->u.heap : (ix)->u.inl)
#define CZK__IX_CAP(ix) ((ix)->cap ? (ix)->cap : (uint32_t)CZK__LC_INLINE_N)
#endif

/* Make room for at least min_cap terms; 0 if out of memory. */
static CZK_NOINLINE CZK_UNUSED int CZK_V(czk__lcix_grow)(CZK__IX *ix, uint32_t min_cap)
{
    uint32_t cap;
    czk_lc_term *p;
    uint32_t want = CZK__IX_CAP(ix) * 2;
    if (want < min_cap) want = min_cap;
#if CZK__LC_INLINE_N == 0
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
static CZK_NOINLINE CZK_UNUSED void CZK_V(czk__lcix_add_slow)(CZK__IX *ix, uint32_t idx, const czk_fr *c)
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
        if (!CZK_V(czk__lcix_grow)(ix, n + 1)) return;
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
static inline CZK_UNUSED void CZK_V(czk__lcix_add)(CZK__IX *ix, uint32_t idx, const czk_fr *c)
{
    czk_lc_term *d = CZK__IX_DATA(ix);
    uint32_t n = ix->n;
    if (CZK_LIKELY(n == 0 || d[n - 1].index < idx)) {
        if (CZK_UNLIKELY(n == CZK__IX_CAP(ix))) {
            if (!CZK_V(czk__lcix_grow)(ix, n + 1)) return;
            d = CZK__IX_DATA(ix);
        }
        d[n].index = idx;
        d[n].reserved_ = czk__pow2_tag(c);
        d[n].coeff = *c;
        ix->n = n + 1;
        return;
    }
    CZK_V(czk__lcix_add_slow)(ix, idx, c);
}

static inline CZK_UNUSED void CZK_V(czk__lcix_free)(CZK__IX *ix)
{
#if CZK__LC_INLINE_N == 0
    if (ix->cap) czk__lc_buf_put(ix->p, ix->cap);
#else
    if (ix->cap) czk__lc_buf_put(ix->u.heap, ix->cap);
#endif
    memset(ix, 0, sizeof(*ix));
}

/* dst = src (dst already initialized). */
static inline CZK_UNUSED void CZK_V(czk__lcix_copy)(CZK__IX *dst, const CZK__IX *src)
{
    uint32_t n = src->n;
    if (CZK_UNLIKELY(n > CZK__IX_CAP(dst))) {
        dst->n = 0;
        if (!CZK_V(czk__lcix_grow)(dst, n)) return;
    }
    if (n) memcpy(CZK__IX_DATA(dst), CZK__IX_DATA(src), (size_t)n * sizeof(czk_lc_term));
    dst->n = n;
}

static inline CZK_UNUSED void CZK_V(czk_lc_init)(CZK_V(czk_lc) *lc)
{
    memset(lc, 0, sizeof(*lc));
}
static inline CZK_UNUSED void CZK_V(czk_lc_free)(CZK_V(czk_lc) *lc)
{
    CZK_V(czk__lcix_free)(&lc->in);
    CZK_V(czk__lcix_free)(&lc->aux);
}
static inline CZK_UNUSED void CZK_V(czk_lc_clear)(CZK_V(czk_lc) *lc)
{
    lc->in.n = 0;
    lc->aux.n = 0;
}
static inline CZK_UNUSED size_t CZK_V(czk_lc_len)(const CZK_V(czk_lc) *lc)
{
    return (size_t)lc->in.n + lc->aux.n;
}
static inline CZK_UNUSED void CZK_V(czk_lc_view_of)(czk_lc_view *v, const CZK_V(czk_lc) *lc)
{
    v->in = CZK__IX_DATA(&lc->in);
    v->n_in = lc->in.n;
    v->aux = CZK__IX_DATA(&lc->aux);
    v->n_aux = lc->aux.n;
}
static inline CZK_UNUSED void CZK_V(czk_lc_add_term)(CZK_V(czk_lc) *lc, const czk_fr *coeff, czk_var v)
{
    if (czk_var_is_input(v)) CZK_V(czk__lcix_add)(&lc->in, czk_var_index(v), coeff);
    else CZK_V(czk__lcix_add)(&lc->aux, v, coeff);
}
static inline CZK_UNUSED void CZK_V(czk_lc_sub_term)(CZK_V(czk_lc) *lc, const czk_fr *coeff, czk_var v)
{
    czk_fr n;
    czk_fr_neg(&n, coeff);
    CZK_V(czk_lc_add_term)(lc, &n, v);
}
static inline CZK_UNUSED void CZK_V(czk_lc_add_var)(CZK_V(czk_lc) *lc, czk_var v)
{
    CZK_V(czk_lc_add_term)(lc, &CZK_FR_ONE, v);
}
static inline CZK_UNUSED void CZK_V(czk_lc_sub_var)(CZK_V(czk_lc) *lc, czk_var v)
{
    CZK_V(czk_lc_add_term)(lc, &CZK_FR_MINUS_ONE, v);
}
static inline CZK_UNUSED void CZK_V(czk_lc_set_var)(CZK_V(czk_lc) *lc, czk_var v)
{
    CZK_V(czk_lc_clear)(lc);
    CZK_V(czk_lc_add_term)(lc, &CZK_FR_ONE, v);
}
/* ix += k * src (neg: -=; k NULL: 1) for a sorted src of ns terms: appended
 * when every index is new and larger, else merged in one pass into a pool
 * buffer that replaces ix's storage. */
static CZK_UNUSED void CZK_V(czk__lcix_add_many)(CZK__IX *ix, const czk_lc_term *src, uint32_t ns,
                                                 const czk_fr *k, int neg)
{
    if (ns == 0) return;
    czk_lc_term *d = CZK__IX_DATA(ix);
    uint32_t n = ix->n, cap;
    if (CZK_UNLIKELY(src >= d && src < d + CZK__IX_CAP(ix))) {
        /* lc + lc: work on a copy */
        czk_lc_term *t = czk__lc_buf_get(ns, &cap);
        if (!t) return;
        memcpy(t, src, (size_t)ns * sizeof(czk_lc_term));
        CZK_V(czk__lcix_add_many)(ix, t, ns, k, neg);
        czk__lc_buf_put(t, cap);
        return;
    }
    if (n == 0 || d[n - 1].index < src[0].index) {
        if (n + ns > CZK__IX_CAP(ix)) {
            if (!CZK_V(czk__lcix_grow)(ix, n + ns)) return;
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
            CZK_V(czk__lcix_add)(ix, src[j].index, &c);
        }
        return;
    }
    czk_lc_term *t = czk__lc_buf_get(n + ns, &cap);
    if (!t) return;
    uint32_t m = czk__lc_merge(t, d, n, src, ns, k, neg);
#if CZK__LC_INLINE_N == 0
    if (ix->cap) czk__lc_buf_put(ix->p, ix->cap);
    ix->p = t;
#else
    if (ix->cap) {
        czk__lc_buf_put(ix->u.heap, ix->cap);
    } else if (m <= CZK__LC_INLINE_N) {
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

static inline CZK_UNUSED void CZK_V(czk_lc_add_lc)(CZK_V(czk_lc) *lc, const CZK_V(czk_lc) *o)
{
    CZK_V(czk__lcix_add_many)(&lc->in, CZK__IX_DATA(&o->in), o->in.n, NULL, 0);
    CZK_V(czk__lcix_add_many)(&lc->aux, CZK__IX_DATA(&o->aux), o->aux.n, NULL, 0);
}
static inline CZK_UNUSED void CZK_V(czk_lc_sub_lc)(CZK_V(czk_lc) *lc, const CZK_V(czk_lc) *o)
{
    CZK_V(czk__lcix_add_many)(&lc->in, CZK__IX_DATA(&o->in), o->in.n, NULL, 1);
    CZK_V(czk__lcix_add_many)(&lc->aux, CZK__IX_DATA(&o->aux), o->aux.n, NULL, 1);
}
static inline CZK_UNUSED void CZK_V(czk_lc_add_scaled)(CZK_V(czk_lc) *lc, const czk_fr *k,
                                                       const CZK_V(czk_lc) *o)
{
    CZK_V(czk__lcix_add_many)(&lc->in, CZK__IX_DATA(&o->in), o->in.n, k, 0);
    CZK_V(czk__lcix_add_many)(&lc->aux, CZK__IX_DATA(&o->aux), o->aux.n, k, 0);
}
static inline CZK_UNUSED void CZK_V(czk_lc_sub_scaled)(CZK_V(czk_lc) *lc, const czk_fr *k,
                                                       const CZK_V(czk_lc) *o)
{
    CZK_V(czk__lcix_add_many)(&lc->in, CZK__IX_DATA(&o->in), o->in.n, k, 1);
    CZK_V(czk__lcix_add_many)(&lc->aux, CZK__IX_DATA(&o->aux), o->aux.n, k, 1);
}
/* Append without keeping order (see czk_lc_normalize). */
static inline CZK_UNUSED void CZK_V(czk__lcix_push)(CZK__IX *ix, uint32_t idx, const czk_fr *c)
{
    uint32_t n = ix->n;
    if (CZK_UNLIKELY(n == CZK__IX_CAP(ix)))
        if (!CZK_V(czk__lcix_grow)(ix, n + 1)) return;
    czk_lc_term *d = CZK__IX_DATA(ix);
    d[n].index = idx;
    d[n].reserved_ = czk__pow2_tag(c);
    d[n].coeff = *c;
    ix->n = n + 1;
}
static inline CZK_UNUSED void CZK_V(czk_lc_push_unsorted)(CZK_V(czk_lc) *lc, const czk_fr *coeff, czk_var v)
{
    if (czk_var_is_input(v)) CZK_V(czk__lcix_push)(&lc->in, czk_var_index(v), coeff);
    else CZK_V(czk__lcix_push)(&lc->aux, v, coeff);
}
static CZK_UNUSED void CZK_V(czk__lcix_normalize)(CZK__IX *ix)
{
    uint32_t n = ix->n, cap = 0;
    czk_lc_term *d = CZK__IX_DATA(ix), *scratch = NULL;
    if (n < 2) return;
    if (n > 24 && !(scratch = czk__lc_buf_get(n, &cap))) return;
    ix->n = czk__lc_normalize(d, n, scratch);
    if (scratch) czk__lc_buf_put(scratch, cap);
}
static inline CZK_UNUSED void CZK_V(czk_lc_normalize)(CZK_V(czk_lc) *lc)
{
    CZK_V(czk__lcix_normalize)(&lc->in);
    CZK_V(czk__lcix_normalize)(&lc->aux);
}
static inline CZK_UNUSED void CZK_V(czk_lc_copy)(CZK_V(czk_lc) *dst, const CZK_V(czk_lc) *src)
{
    CZK_V(czk__lcix_copy)(&dst->in, &src->in);
    CZK_V(czk__lcix_copy)(&dst->aux, &src->aux);
}
static inline CZK_UNUSED CZK_V(czk_lc) *CZK_V(czk_lc_scratch)(czk_cs *cs, unsigned i)
{
    /* a gadget of one variant used on a CS of another would corrupt memory */
    CZK_ASSERT(cs->lc_kind == CZK__LC_THIS_KIND && i < CZK_CS_SCRATCH);
    CZK_V(czk_lc) *s = (CZK_V(czk_lc) *)cs->lc_scratch + i;
    CZK_V(czk_lc_clear)(s);
    return s;
}
CZK_WUR static inline CZK_UNUSED czk_status CZK_V(czk_enforce)(czk_cs *cs, const CZK_V(czk_lc) *a,
                                                               const CZK_V(czk_lc) *b,
                                                               const CZK_V(czk_lc) *c,
                                                               const char *name, uint64_t idx)
{
    czk_lc_view va, vb, vc;
    CZK_V(czk_lc_view_of)(&va, a);
    CZK_V(czk_lc_view_of)(&vb, b);
    CZK_V(czk_lc_view_of)(&vc, c);
    return czk_cs_enforce(cs, &va, &vb, &vc, name, idx);
}

#undef CZK__LC_THIS_KIND
#undef CZK__IX
#undef CZK__IX_DATA
#undef CZK__IX_CAP
