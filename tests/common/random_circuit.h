/* A random R1CS for tests of the prover, PCE and engine.
 *
 * czk_test_random_circuit synthesizes, on any backend, a circuit whose
 * STRUCTURE depends only on shape_seed and whose VALUES depend on value_seed:
 * n_in public inputs, n_free free aux variables, then n_mul constraints
 * (sum of 1..3 terms) * (sum of 1..3 terms) = z with z a fresh aux variable,
 * then ONE * free_i = free_i for every free variable. Half of the free
 * variables never occur in A and some inputs occur in B, so every density
 * case is exercised. pub[0..n_in) receives the public inputs (without ONE).
 */
#ifndef CZK_TEST_RANDOM_CIRCUIT_H
#define CZK_TEST_RANDOM_CIRCUIT_H

#include "czk/cs.h"

czk_status czk_test_random_circuit(czk_cs *cs, uint64_t shape_seed, uint64_t value_seed, size_t n_in,
                                   size_t n_free, size_t n_mul, czk_fr *pub);

#endif
