/* What `czk bench synth-only` shares between the proof kinds that run
 * through the registry (bench_synth_kind.c): the checks of a synthesized
 * partition, the parallel prover's and PCE's timed runs, and the medians
 * they print. A partition is described by a czk__synth_kind. */
#ifndef CZK_BENCH_SYNTH_KIND_H
#define CZK_BENCH_SYNTH_KIND_H

#include <stdio.h>

#include "czk/cs.h"
#include "czk/kind.h"
#include "czk/pce.h"

typedef struct czk__synth_kind {
    const char *name;            /* "post", "snap": czk_<name>_circuit_counts, czk_<name>_public_inputs */
    const czk_proof_kind *kind;  /* its parallel witness source and PCE */
    const void *v;               /* the vanilla proofs, as the kind's functions take them */
    uint32_t k;                  /* the partition */
    const czk_fr *pub;           /* the verifier's public inputs */
    size_t n_pub;
    const char *par_split;       /* what the parallel prover splits: "challenges", "circuit sectors" */
    uint32_t n_par_split;
    const char *pce_split;       /* what PCE's witness splits: "challenges", "sectors" */
} czk__synth_kind;

/* Medians and minima of one mode's iterations. */
typedef struct czk__synth_sum {
    double wall, cpu, wall_min, cpu_min;
} czk__synth_sum;

/* Sorts wall[0..n) and cpu[0..n); medians as czk_bench_stats_of (an even n: the mean of the middle two). */
void czk__synth_summarize(czk__synth_sum *m, double *wall, double *cpu, long long n);
/* The text line "min <wall> <cpu>   median wall <wall>   peak RSS <GiB>". */
void czk__synth_print_min(FILE *out, const czk__synth_sum *m);

/* The input vector (with ONE) against the verifier's public inputs. */
czk_status czk__synth_inputs_check(const czk__synth_kind *sk, const czk_fr *in, size_t ni);
/* A partition synthesized into cs against the closed form (inputs, aux,
 * constraints without the input rows) and, with values, the public inputs;
 * rows: a*b = c on every row too (PROVE backend). */
czk_status czk__synth_cs_check(const czk__synth_kind *sk, czk_cs *cs, uint64_t inputs, uint64_t aux,
                               uint64_t constraints, int rows);

/* The parallel prover (the kind's "parallel" source), iters times: each
 * iteration synthesizes, then (outside the timing) checks a*b = c (unless
 * no_check) and the public inputs. Prints its header, a line (or JSON
 * object) per iteration and, in JSON, the medians. */
czk_status czk__synth_run_parallel(FILE *out, int json, const czk__synth_kind *sk, const czk_cs_sizes *z,
                                   long long iters, czk_lc_kind lc, int no_check, czk__synth_sum *sum);
/* PCE: the shape's matrices from the cache (built on first use), then per
 * iteration the parallel witness and the mat-vec, timed apart (a, b, c
 * streamed in chunks when the full assignment would not fit in memory, or
 * force_stream); checks as above; validate: the streamed comparison with
 * the parallel PROVE synthesis afterwards. */
czk_status czk__synth_run_pce(FILE *out, int json, const czk__synth_kind *sk, const czk_cs_sizes *z, long long iters,
                              int no_check, int validate, int force_stream, czk__synth_sum *sum);

#endif
