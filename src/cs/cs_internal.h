/* Internal interface shared by the constraint-system backends. */
#ifndef CZK_CS_INTERNAL_H
#define CZK_CS_INTERNAL_H

#include <stdlib.h>
#include <string.h>

#include "cs/lc.h"
#include "czk/cs.h"

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

#endif
