/* The counting constraint system the circuits' counting passes share
 * (czk_porep_count, czk_post_count): every LC is built as for the SHAPE
 * backend, then only counted, so the largest partitions are counted by real
 * synthesis in constant memory. */
#ifndef CZK_CIRCUITS_COUNT_H
#define CZK_CIRCUITS_COUNT_H

#include "cs/lc.h"
#include "czk/cs.h"

typedef struct czk__count {
    uint64_t terms[3]; /* LC terms of A, B, C */
    uint64_t nnz[3];   /* of those, the ones with a non-zero coefficient */
} czk__count;

/* czk__pow2_table (used through LC coefficients) is filled by the first
 * czk_cs_create; a hand-made constraint system calls this first. */
czk_status czk__cs_tables_init(void) CZK_WUR;

/* Make *cs a counting constraint system (backend SHAPE: no values,
 * constraints wanted, no names) whose LCs have storage lc, counting into *c
 * (zeroed here), with ONE allocated. Release it with czk__count_cs_clear. */
czk_status czk__count_cs_init(czk_cs *cs, czk__count *c, czk_lc_kind lc) CZK_WUR;
void czk__count_cs_clear(czk_cs *cs);

/* Namespaces ignored (the hand-made backends keep no names). */
void czk__cs_ns_push_none(czk_cs *cs, const char *name, uint64_t idx);
void czk__cs_ns_pop_none(czk_cs *cs);

#endif
