/* czk — the Filecoin StackedDRG PoRep partition circuit (docs/filecoin.md#porep).
 *
 * One partition of a sector's PoRep proof is one Groth16 circuit. Its public
 * inputs, in Filecoin's order: ONE, replica_id, comm_d, comm_r, then 18 per
 * challenge (comm_d leaf index, 6 DRG parent indices, 8 expander parent
 * indices, the challenge, comm_r_last index, comm_c index): 4 + 18 k with
 * ONE. The synthesis emits exactly the R1CS of rust-fil-proofs'
 * StackedCircuit for the same shape.
 */
#ifndef CZK_POREP_H
#define CZK_POREP_H

#include "czk/cs.h"
#include "czk/filecoin.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Public inputs of a partition including ONE: 4 + 18 * challenges. */
size_t czk_porep_num_inputs(const czk_fc_shape *shape);

/* Expected counts (inputs incl. ONE, aux, constraints incl. the input
 * constraints) of one partition, for pre-sizing the backends. Exact for the
 * shapes czk knows. */
czk_status czk_porep_sizes(czk_cs_sizes *out, const czk_fc_shape *shape) CZK_WUR;

/* Synthesize partition k. c1 == NULL synthesizes the shape only (for the
 * SHAPE backend / setup: no values); otherwise c1 must have this shape and k
 * < shape->partitions. Does not call czk_cs_finalize. */
czk_status czk_porep_synthesize(czk_cs *cs, const czk_fc_shape *shape, const czk_fc_c1 *c1,
                                uint32_t k) CZK_WUR;

/* The public inputs of partition k WITHOUT the leading ONE
 * (czk_porep_num_inputs - 1 values), as the verifier derives them from the
 * C1 data (replica_id, comm_d, comm_r, the challenges and their parents). */
czk_status czk_porep_public_inputs(czk_fr *out, const czk_fc_c1 *c1, uint32_t k) CZK_WUR;

/* Exact counts of one partition's R1CS without synthesizing values: a
 * counting pass (constraints built with LC storage `lc`, then only counted).
 * Includes ONE in n_inputs and bellperson's input constraints
 * (input_i) * 0 = 0 in n_constraints (one A term each). nnz: terms with a
 * non-zero coefficient per matrix; terms: all LC terms (a coefficient that
 * summed to zero stays in an LC, as in bellpepper). */
typedef struct czk_porep_counts {
    uint64_t n_inputs, n_aux;
    uint64_t n_circuit_constraints; /* without the input constraints */
    uint64_t n_constraints;         /* with them */
    uint64_t nnz[3], terms[3];      /* A, B, C */
} czk_porep_counts;
czk_status czk_porep_count(czk_porep_counts *out, const czk_fc_shape *shape, czk_lc_kind lc) CZK_WUR;

/* Parallel PROVE synthesis of one partition: the challenges are synthesized
 * on `threads` threads, each writing its variables, a/b/c rows and density
 * bits straight to their final positions (every challenge has the same
 * counts), giving exactly the PROVE backend's sequential assignment
 * (czk_cs_prove_get after czk_cs_finalize, input constraints included).
 * create sizes every vector once (reused by later synthesize calls);
 * get borrows them (valid until the next synthesize / destroy); check
 * verifies a*b = c on every row. */
typedef struct czk_porep_prover czk_porep_prover;
czk_status czk_porep_prover_create(czk_porep_prover **out, const czk_fc_shape *shape, czk_lc_kind lc) CZK_WUR;
czk_status czk_porep_prover_synthesize(czk_porep_prover *p, const czk_fc_c1 *c1, uint32_t k, int threads) CZK_WUR;
czk_status czk_porep_prover_get(const czk_porep_prover *p, czk_cs_assignment *out) CZK_WUR;
czk_status czk_porep_prover_check(const czk_porep_prover *p, int threads) CZK_WUR;
void czk_porep_prover_destroy(czk_porep_prover *p);

#ifdef __cplusplus
}
#endif
#endif
