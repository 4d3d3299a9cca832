/* Linear-combination storage variants: the internal interface.
 *
 * czk_lc_kind (czk/cs.h) chooses at run time how an LC stores its terms; the
 * code that builds LCs costs nothing per term for that choice because it is
 * compiled once per variant. A source file named *_lcv.c is such code: the
 * build compiles it four times, with -DCZK_LCV=vec, inline1, inline2 and
 * inline4 (cmake/czk_lcv.cmake). Written once with the generic names below
 * (czk_lc, czk_lc_add_var, czk_enforce, and the gadgets' czk_bool_and ... of
 * gadgets/gadgets_lc.h), each copy defines the variant's own names: every
 * generic name is listed here, or in the header of the module that defines
 * it, with the four names it stands for, spelled out:
 *
 *     #define czk_lc_add_var CZK_LCV_NAME(czk_lc_add_var_vec, czk_lc_add_var_inline1, ...)
 *
 * so each compiled name can be found with grep. Such a file includes
 * cs/lc_lcv.h (this variant's LC operations) and may call only its own
 * variant. Code compiled once chooses the variant at the top of a whole
 * synthesis, CZK_LC_DISPATCH(cs->lc_kind, fn, args); a file compiled once
 * that builds LCs itself defines CZK_LCV (to vec) before its includes and is
 * then a vec file.
 *
 * Everything here is internal: nothing is installed with include/czk/. */
#ifndef CZK_CS_LC_H
#define CZK_CS_LC_H

#include <string.h>

#include "cs/cs_internal.h"

/* ---- the variant a file is compiled for ------------------------------------ */

#define CZK__LCV_PICK_vec(v, i1, i2, i4) v
#define CZK__LCV_PICK_inline1(v, i1, i2, i4) i1
#define CZK__LCV_PICK_inline2(v, i1, i2, i4) i2
#define CZK__LCV_PICK_inline4(v, i1, i2, i4) i4
#define CZK__LCV_CAT(a, b) a##b
#define CZK__LCV_XCAT(a, b) CZK__LCV_CAT(a, b)
/* The argument of the variant CZK_LCV (vec, inline1, inline2 or inline4). */
#define CZK_LCV_NAME(v, i1, i2, i4) CZK__LCV_XCAT(CZK__LCV_PICK_, CZK_LCV)(v, i1, i2, i4)
/* The variant's czk_lc_kind and inline capacity (0: heap vector). */
#define CZK_LCV_KIND CZK_LCV_NAME(CZK_LC_VEC, CZK_LC_INLINE1, CZK_LC_INLINE2, CZK_LC_INLINE4)
#define CZK_LCV_INLINE_N CZK_LCV_NAME(0, 1, 2, 4)

/* fn_<variant>(args) for the variant `kind` (one switch: use it at the top
 * of a whole synthesis, not per term). fn is a generic name listed with its
 * four variants. */
#define CZK_LC_DISPATCH(kind, fn, args)                                                 \
    ((kind) == CZK_LC_INLINE1   ? fn##_inline1 args                                     \
     : (kind) == CZK_LC_INLINE2 ? fn##_inline2 args                                     \
     : (kind) == CZK_LC_INLINE4 ? fn##_inline4 args                                     \
                                : fn##_vec args)

/* ---- storage ---------------------------------------------------------------- */

/* One indexer (the inputs or the aux of an LC). All-zero bytes are a valid
 * empty indexer of every variant. Inline variants: cap == 0 means the terms
 * live in u.inl (n <= N); cap > 0 means u.heap holds cap terms. */
typedef struct czk_lcix_vec {
    czk_lc_term *p;
    uint32_t n, cap;
} czk_lcix_vec;
#define CZK__LCIX_INLINE(name, N)                                                       \
    typedef struct name {                                                               \
        uint32_t n, cap;                                                                \
        union {                                                                         \
            czk_lc_term inl[N];                                                         \
            czk_lc_term *heap;                                                          \
        } u;                                                                            \
    } name;
CZK__LCIX_INLINE(czk_lcix_inline1, 1)
CZK__LCIX_INLINE(czk_lcix_inline2, 2)
CZK__LCIX_INLINE(czk_lcix_inline4, 4)
#undef CZK__LCIX_INLINE

typedef struct czk_lc_vec { czk_lcix_vec in, aux; } czk_lc_vec;
typedef struct czk_lc_inline1 { czk_lcix_inline1 in, aux; } czk_lc_inline1;
typedef struct czk_lc_inline2 { czk_lcix_inline2 in, aux; } czk_lc_inline2;
typedef struct czk_lc_inline4 { czk_lcix_inline4 in, aux; } czk_lc_inline4;

/* Bytes of one LC of kind k. */
size_t czk__lc_size(czk_lc_kind k);
/* CZK_CS_SCRATCH empty LCs of kind k (cs->lc_scratch), or NULL when out of
 * memory; destroy returns their buffers to the pool and frees them (NULL:
 * nothing). */
void *czk__lc_scratch_create(czk_lc_kind k);
void czk__lc_scratch_destroy(czk_lc_kind k, void *lcs);

/* ---- the buffer pool and the bulk kernels (lc_pool.c, lc_ops.c) -------------- */

/* A buffer of at least min_cap terms (its capacity in *cap), or NULL (which
 * sets the thread's czk__lc_oom). Capacities are powers of two >= 4. */
czk_lc_term *czk__lc_buf_get(uint32_t min_cap, uint32_t *cap);
void czk__lc_buf_put(czk_lc_term *p, uint32_t cap);
/* Grow: returns a buffer of >= min_cap terms holding the n old terms (old
 * buffer released if it was a pool buffer: old_cap > 0). */
czk_lc_term *czk__lc_buf_grow(czk_lc_term *old, uint32_t old_cap, const czk_lc_term *src, uint32_t n,
                              uint32_t min_cap, uint32_t *cap);
/* out = a merged with (k * b, or -(k * b) when neg; k NULL = 1), both sorted,
 * equal indices summed; returns the number of terms (out holds na + nb).
 * append_scaled writes k * b. normalize sorts t by index and sums equal
 * indices in place (scratch: n terms, or NULL for n <= 24); returns the new
 * count. */
uint32_t czk__lc_merge(czk_lc_term *out, const czk_lc_term *a, uint32_t na, const czk_lc_term *b, uint32_t nb,
                       const czk_fr *k, int neg);
void czk__lc_append_scaled(czk_lc_term *out, const czk_lc_term *b, uint32_t nb, const czk_fr *k, int neg);
uint32_t czk__lc_normalize(czk_lc_term *t, uint32_t n, czk_lc_term *scratch);

/* Sticky per-thread flag set when an LC could not grow (the term was
 * dropped); the next enforce reports it and clears it. */
extern _Thread_local int czk__lc_oom;

/* 2^i and -2^i (i < 256), Montgomery form; filled at load and by
 * czk_cs_create. A term whose coefficient was given as a pointer into these
 * tables carries the tag CZK__TAG_POW2 | (negative ? CZK__TAG_NEG : 0) | i in
 * reserved_ (to scale it without a multiplication). */
extern czk_fr czk__pow2_table[256], czk__pow2_neg_table[256];
#define CZK__TAG_POW2 0x100u
#define CZK__TAG_NEG 0x200u
static inline uint32_t czk__pow2_tag(const czk_fr *c)
{
    uintptr_t p = (uintptr_t)c, t = (uintptr_t)czk__pow2_table, tn = (uintptr_t)czk__pow2_neg_table;
    if (p - t < sizeof(czk__pow2_table)) return CZK__TAG_POW2 | (uint32_t)((p - t) / sizeof(czk_fr));
    if (p - tn < sizeof(czk__pow2_neg_table))
        return CZK__TAG_POW2 | CZK__TAG_NEG | (uint32_t)((p - tn) / sizeof(czk_fr));
    return 0;
}

/* czk_cs_enforce, inline for the synthesis code: a dropped LC term (out of
 * memory) fails the constraint. */
CZK_WUR static inline czk_status czk__cs_enforce(czk_cs *cs, const czk_lc_view *a, const czk_lc_view *b,
                                                 const czk_lc_view *c, const char *name, uint64_t idx)
{
    if (CZK_UNLIKELY(czk__lc_oom)) {
        czk__lc_oom = 0;
        return czk_error(CZK_ERR_NOMEM, "linear combination storage exhausted before constraint %llu",
                         (unsigned long long)cs->n_constraints);
    }
    return cs->ops->enforce(cs, a, b, c, name, idx);
}

/* ---- generic names of the LC operations (cs/lc_lcv.h defines them) ---------- */

#define czk_lc CZK_LCV_NAME(czk_lc_vec, czk_lc_inline1, czk_lc_inline2, czk_lc_inline4)
#define czk_lcix CZK_LCV_NAME(czk_lcix_vec, czk_lcix_inline1, czk_lcix_inline2, czk_lcix_inline4)
#define czk_lc_init CZK_LCV_NAME(czk_lc_init_vec, czk_lc_init_inline1, czk_lc_init_inline2, czk_lc_init_inline4)
#define czk_lc_free CZK_LCV_NAME(czk_lc_free_vec, czk_lc_free_inline1, czk_lc_free_inline2, czk_lc_free_inline4)
#define czk_lc_clear                                                                    \
    CZK_LCV_NAME(czk_lc_clear_vec, czk_lc_clear_inline1, czk_lc_clear_inline2, czk_lc_clear_inline4)
#define czk_lc_len CZK_LCV_NAME(czk_lc_len_vec, czk_lc_len_inline1, czk_lc_len_inline2, czk_lc_len_inline4)
#define czk_lc_view_of                                                                  \
    CZK_LCV_NAME(czk_lc_view_of_vec, czk_lc_view_of_inline1, czk_lc_view_of_inline2, czk_lc_view_of_inline4)
#define czk_lc_add_term                                                                 \
    CZK_LCV_NAME(czk_lc_add_term_vec, czk_lc_add_term_inline1, czk_lc_add_term_inline2, czk_lc_add_term_inline4)
#define czk_lc_sub_term                                                                 \
    CZK_LCV_NAME(czk_lc_sub_term_vec, czk_lc_sub_term_inline1, czk_lc_sub_term_inline2, czk_lc_sub_term_inline4)
#define czk_lc_add_var                                                                  \
    CZK_LCV_NAME(czk_lc_add_var_vec, czk_lc_add_var_inline1, czk_lc_add_var_inline2, czk_lc_add_var_inline4)
#define czk_lc_sub_var                                                                  \
    CZK_LCV_NAME(czk_lc_sub_var_vec, czk_lc_sub_var_inline1, czk_lc_sub_var_inline2, czk_lc_sub_var_inline4)
#define czk_lc_add_lc                                                                   \
    CZK_LCV_NAME(czk_lc_add_lc_vec, czk_lc_add_lc_inline1, czk_lc_add_lc_inline2, czk_lc_add_lc_inline4)
#define czk_lc_sub_lc                                                                   \
    CZK_LCV_NAME(czk_lc_sub_lc_vec, czk_lc_sub_lc_inline1, czk_lc_sub_lc_inline2, czk_lc_sub_lc_inline4)
#define czk_lc_add_scaled                                                               \
    CZK_LCV_NAME(czk_lc_add_scaled_vec, czk_lc_add_scaled_inline1, czk_lc_add_scaled_inline2,            \
                 czk_lc_add_scaled_inline4)
#define czk_lc_sub_scaled                                                               \
    CZK_LCV_NAME(czk_lc_sub_scaled_vec, czk_lc_sub_scaled_inline1, czk_lc_sub_scaled_inline2,            \
                 czk_lc_sub_scaled_inline4)
#define czk_lc_copy CZK_LCV_NAME(czk_lc_copy_vec, czk_lc_copy_inline1, czk_lc_copy_inline2, czk_lc_copy_inline4)
#define czk_lc_set_var                                                                  \
    CZK_LCV_NAME(czk_lc_set_var_vec, czk_lc_set_var_inline1, czk_lc_set_var_inline2, czk_lc_set_var_inline4)
#define czk_lc_scratch                                                                  \
    CZK_LCV_NAME(czk_lc_scratch_vec, czk_lc_scratch_inline1, czk_lc_scratch_inline2, czk_lc_scratch_inline4)
#define czk_lc_push_unsorted                                                            \
    CZK_LCV_NAME(czk_lc_push_unsorted_vec, czk_lc_push_unsorted_inline1, czk_lc_push_unsorted_inline2,   \
                 czk_lc_push_unsorted_inline4)
#define czk_lc_normalize                                                                \
    CZK_LCV_NAME(czk_lc_normalize_vec, czk_lc_normalize_inline1, czk_lc_normalize_inline2,               \
                 czk_lc_normalize_inline4)
#define czk_enforce CZK_LCV_NAME(czk_enforce_vec, czk_enforce_inline1, czk_enforce_inline2, czk_enforce_inline4)
/* lc_lcv.c: release n LCs of the variant (cs/lc.h's scratch arrays). */
#define czk__lc_free_n                                                                  \
    CZK_LCV_NAME(czk__lc_free_n_vec, czk__lc_free_n_inline1, czk__lc_free_n_inline2, czk__lc_free_n_inline4)

void czk__lc_free_n_vec(void *lcs, size_t n);
void czk__lc_free_n_inline1(void *lcs, size_t n);
void czk__lc_free_n_inline2(void *lcs, size_t n);
void czk__lc_free_n_inline4(void *lcs, size_t n);

#endif
