/* The constraint system's internals: its layout and the backends'
 * operations (which the library's synthesis code calls inline), the LC
 * buffer pool's counters, and what the backends share. czk/cs.h keeps
 * czk_cs opaque; this header is for libczk, the czk program and the tests. */
#ifndef CZK_CS_INTERNAL_H
#define CZK_CS_INTERNAL_H

#include <stdlib.h>
#include <string.h>

#include "czk/cs.h"

/* Internal to libczk and the czk program: hidden in libczk.so. */
#pragma GCC visibility push(hidden)

typedef struct czk_cs_ops {
    czk_status (*alloc)(czk_cs *cs, czk_var *out, const czk_fr *value, const char *name, uint64_t idx);
    czk_status (*alloc_input)(czk_cs *cs, czk_var *out, const czk_fr *value, const char *name,
                              uint64_t idx);
    czk_status (*enforce)(czk_cs *cs, const czk_lc_view *a, const czk_lc_view *b,
                          const czk_lc_view *c, const char *name, uint64_t idx);
    void (*ns_push)(czk_cs *cs, const char *name, uint64_t idx);
    void (*ns_pop)(czk_cs *cs);
} czk_cs_ops;

/* The counts and flags are read-only outside the backends; backends own the
 * rest. */
struct czk_cs {
    const czk_cs_ops *ops;
    czk_cs_backend backend;
    czk_lc_kind lc_kind;
    int has_values;        /* gadgets must compute witness values */
    int needs_constraints; /* 0: enforce is a no-op (WITNESS) */
    int wants_names;       /* namespaces matter (TEST) */
    uint32_t n_inputs;     /* including ONE */
    uint32_t n_aux;
    uint64_t n_constraints;
    void *lc_scratch;      /* CZK_CS_SCRATCH LCs of kind lc_kind (the library's) */
    void *impl;            /* backend state */
};

#define CZK_CS_SCRATCH 8

/* czk_cs_alloc ... czk_cs_ns_pop of czk/cs.h without the call: what the
 * library's synthesis code uses (one indirect call per variable). */
CZK_WUR static inline czk_status czk__cs_alloc(czk_cs *cs, czk_var *out, const czk_fr *value, const char *name,
                                               uint64_t idx)
{
    return cs->ops->alloc(cs, out, value, name, idx);
}
CZK_WUR static inline czk_status czk__cs_alloc_input(czk_cs *cs, czk_var *out, const czk_fr *value,
                                                     const char *name, uint64_t idx)
{
    return cs->ops->alloc_input(cs, out, value, name, idx);
}
static inline int czk__cs_has_values(const czk_cs *cs) { return cs->has_values; }
static inline int czk__cs_needs_constraints(const czk_cs *cs) { return cs->needs_constraints; }
static inline void czk__cs_ns_push(czk_cs *cs, const char *name, uint64_t idx)
{
    if (cs->wants_names) cs->ops->ns_push(cs, name, idx);
}
static inline void czk__cs_ns_pop(czk_cs *cs)
{
    if (cs->wants_names) cs->ops->ns_pop(cs);
}

/* sum coeff * value over a view, skipping zero coefficients (and multiplying
 * only when the coefficient is not one). */
void czk_lc_view_eval(czk_fr *out, const czk_lc_view *lc, const czk_fr *input, const czk_fr *aux);

/* ---- LC buffer pool (per thread, src/cs/lc_pool.c) --------------------------- */

typedef struct czk_lc_pool_stats {
    uint64_t mallocs;  /* buffers obtained from malloc */
    uint64_t reuses;   /* buffers served from the pool */
    uint64_t releases; /* buffers returned to the pool */
    uint64_t oom;      /* allocation failures (the LC op was dropped) */
} czk_lc_pool_stats;

/* This thread's counters since it started (or since the last reset). */
void czk_lc_pool_stats_get(czk_lc_pool_stats *out);
void czk_lc_pool_stats_reset(void);
/* Free this thread's pooled buffers (returns bytes freed). */
size_t czk_lc_pool_trim(void);

/* ---- what the backends share --------------------------------------------------- */

/* Grow *p (elements of `elem` bytes, capacity *cap) to hold at least `need`. */
czk_status czk__cs_reserve(void **p, size_t *cap, size_t need, size_t elem) CZK_WUR;
/* The same for a big buffer (common/bigmem.h: released with czk__big_free;
 * the grown part reads as zero): the values, a, b, c and density bitmaps. */
czk_status czk__cs_reserve_big(void **p, size_t *cap, size_t need, size_t elem) CZK_WUR;

/* Witness values kept by PROVE, TEST and WITNESS (big buffers). */
typedef struct czk__cs_values {
    czk_fr *input, *aux;
    size_t cap_input, cap_aux;
} czk__cs_values;

czk_status czk__cs_values_init(czk__cs_values *v, const czk_cs_sizes *sizes) CZK_WUR;
void czk__cs_values_clear(czk__cs_values *v);

czk_status czk__cs_prove_create(czk_cs *cs, const czk_cs_sizes *sizes) CZK_WUR;
czk_status czk__cs_shape_create(czk_cs *cs, const czk_cs_sizes *sizes) CZK_WUR;
czk_status czk__cs_test_create(czk_cs *cs, const czk_cs_sizes *sizes) CZK_WUR;
czk_status czk__cs_witness_create(czk_cs *cs, const czk_cs_sizes *sizes) CZK_WUR;
void czk__cs_prove_destroy(czk_cs *cs);
void czk__cs_shape_destroy(czk_cs *cs);
void czk__cs_test_destroy(czk_cs *cs);
void czk__cs_witness_destroy(czk_cs *cs);
/* Reset to the state after creation (ONE allocated again by the caller). */
void czk__cs_prove_reset(czk_cs *cs);
void czk__cs_shape_reset(czk_cs *cs);
void czk__cs_test_reset(czk_cs *cs);
void czk__cs_witness_reset(czk_cs *cs);
czk_status czk__cs_prove_finalize(czk_cs *cs) CZK_WUR;
czk_status czk__cs_shape_finalize(czk_cs *cs) CZK_WUR;
/* Values of the backend (NULL when it keeps none). */
const czk__cs_values *czk__cs_values_of(const czk_cs *cs);

static inline int czk__fr_is_zero(const czk_fr *a)
{
    return (a->l[0] | a->l[1] | a->l[2] | a->l[3]) == 0;
}
static inline int czk__fr_is_one(const czk_fr *a)
{
    return a->l[0] == CZK_FR_ONE.l[0] && a->l[1] == CZK_FR_ONE.l[1] && a->l[2] == CZK_FR_ONE.l[2] &&
           a->l[3] == CZK_FR_ONE.l[3];
}

static inline int czk__fr_is_minus_one(const czk_fr *a)
{
    return a->l[0] == CZK_FR_MINUS_ONE.l[0] && a->l[1] == CZK_FR_MINUS_ONE.l[1] &&
           a->l[2] == CZK_FR_MINUS_ONE.l[2] && a->l[3] == CZK_FR_MINUS_ONE.l[3];
}

#pragma GCC visibility pop

#endif
