/* Parallel synthesis of one partition whose circuit is a common part
 * followed by n units of identical cost (PoRep: the challenges; FallbackPoSt:
 * the sectors). Because every unit allocates the same numbers of aux
 * variables and inputs and emits the same number of constraints, unit i's
 * variables and rows start at known offsets (top + i x unit), so threads
 * synthesize whole units through constraint systems whose counters start at
 * those offsets and write straight into the partition's vectors. The result
 * equals the sequential backend's bit for bit, with no merge step.
 *
 * Three backends share that plan:
 *   prover   PROVE semantics: values, a/b/c evaluations and the density
 *            bitmaps of every row (the evaluation and density rules of
 *            src/cs/cs_prove.c, docs/groth16.md), then bellperson's input rows;
 *   witness  WITNESS semantics: the values only (no LC is built), for PCE;
 *   stream   the prover with a/b/c held for a window of rows at a time (the
 *            common part, then `threads` units, then the input rows), handed
 *            to a callback: for comparisons where two full assignments do not
 *            fit in memory. */
#ifndef CZK_CIRCUITS_PAR_H
#define CZK_CIRCUITS_PAR_H

#include "circuits/count.h"
#include "cs/cs_internal.h"

/* Counts of a part of the circuit: constraints, aux variables, inputs. The
 * common part's count includes the ONE input. */
typedef struct czk__par_cost {
    uint64_t c, a, i;
} czk__par_cost;

/* The circuit of one partition, as the parallel backends run it. top(cs,
 * ctx) synthesizes the common part (ONE is already allocated; NULL when the
 * common part is ONE alone) and may fill ctx for the units; unit(cs, ctx, i)
 * synthesizes unit i and must not write ctx (units run concurrently). what
 * names the circuit in errors ("porep", "post"). */
typedef struct czk__par_circuit {
    czk__par_cost top, unit;
    uint32_t units;
    czk_lc_kind lc;
    czk_status (*top_fn)(czk_cs *cs, void *ctx);
    czk_status (*unit_fn)(czk_cs *cs, void *ctx, uint32_t i);
    void *ctx;
    const char *what;
} czk__par_circuit;

/* Inputs, aux variables and rows (with the input rows) of the partition. */
uint64_t czk__par_inputs(const czk__par_circuit *c);
uint64_t czk__par_aux(const czk__par_circuit *c);
uint64_t czk__par_rows(const czk__par_circuit *c);

/* ---- prover: the whole PROVE assignment ---------------------------------------- */

typedef struct czk__par_prover czk__par_prover;
/* Vectors for partitions of c's counts (c's functions are not called),
 * every page touched once now, in parallel, not during the first synthesis. */
czk_status czk__par_prover_create(czk__par_prover **out, const czk__par_circuit *c) CZK_WUR;
void czk__par_prover_destroy(czk__par_prover *p);
/* Synthesize c (of the counts p was made for) on `threads` threads. */
czk_status czk__par_prover_synthesize(czk__par_prover *p, const czk__par_circuit *c, int threads) CZK_WUR;
/* The last synthesis' assignment (borrowed until the next synthesis or
 * destroy); CZK_ERR_INVALID_ARG when none succeeded. */
czk_status czk__par_prover_get(const czk__par_prover *p, czk_cs_assignment *out) CZK_WUR;
/* a * b = c on every row; CZK_ERR_UNSATISFIED naming the first bad row. */
czk_status czk__par_prover_check(const czk__par_prover *p, int threads) CZK_WUR;

/* ---- witness only ----------------------------------------------------------------- */

/* v->input / v->aux must hold at least czk__par_inputs / czk__par_aux values
 * (cap_input, cap_aux); exactly those are written. */
czk_status czk__par_witness(czk__cs_values *v, const czk__par_circuit *c, int threads) CZK_WUR;

/* ---- PROVE synthesis streamed by row windows ---------------------------------------- */

typedef czk_status (*czk__par_rows_fn)(void *ctx, uint64_t row0, uint64_t row1, const czk_fr *a, const czk_fr *b,
                                       const czk_fr *c);
/* fn(ctx, row0, row1, a, b, c) receives rows [row0, row1) in increasing
 * order; v receives input and aux as czk__par_witness; dens[0..2] (A-aux,
 * B-input, B-aux bitmaps, zeroed by the caller) the densities. An error from
 * fn stops it. */
czk_status czk__par_prove_stream(czk__cs_values *v, uint64_t *dens[3], const czk__par_circuit *c, int threads,
                                 czk__par_rows_fn fn, void *fn_ctx) CZK_WUR;

#endif
