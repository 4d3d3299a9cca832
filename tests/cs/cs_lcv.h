/* tests/cs/cs_lcv.c, compiled once per LC variant: the generic names and the
 * four compiled names of each (cs/lc.h). */
#ifndef CZK_TESTS_CS_LCV_H
#define CZK_TESTS_CS_LCV_H

#include "cs/lc.h"
#include "czk/rand.h"

/* Random add/sub/scaled operations against a dense reference model. */
#define lc_random_ops                                                                   \
    CZK_LCV_NAME(lc_random_ops_vec, lc_random_ops_inline1, lc_random_ops_inline2, lc_random_ops_inline4)
/* Bulk operations (lc + lc, scaled, normalize) against term-by-term ones. */
#define lc_bulk_ops CZK_LCV_NAME(lc_bulk_ops_vec, lc_bulk_ops_inline1, lc_bulk_ops_inline2, lc_bulk_ops_inline4)
/* A small circuit with known a/b/c, densities and CSR. */
#define small_circuit                                                                   \
    CZK_LCV_NAME(small_circuit_vec, small_circuit_inline1, small_circuit_inline2, small_circuit_inline4)

void lc_random_ops_vec(czk_rng *rng);
void lc_random_ops_inline1(czk_rng *rng);
void lc_random_ops_inline2(czk_rng *rng);
void lc_random_ops_inline4(czk_rng *rng);
void lc_bulk_ops_vec(czk_rng *rng);
void lc_bulk_ops_inline1(czk_rng *rng);
void lc_bulk_ops_inline2(czk_rng *rng);
void lc_bulk_ops_inline4(czk_rng *rng);
czk_status small_circuit_vec(czk_cs *cs) CZK_WUR;
czk_status small_circuit_inline1(czk_cs *cs) CZK_WUR;
czk_status small_circuit_inline2(czk_cs *cs) CZK_WUR;
czk_status small_circuit_inline4(czk_cs *cs) CZK_WUR;

#endif
