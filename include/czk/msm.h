/* czk — multi-scalar multiplication (MSM) on BLS12-381 G1 and G2.
 *
 *   out = sum_i scalars[i] * bases[i]
 *
 * Pippenger's bucket method with signed (Booth-recoded) base-2^c digits, so a
 * window needs 2^(c-1) buckets. The window size c is chosen per call by a
 * cost model from the number of bases and the thread count (see
 * src/msm/README.md), unless czk_msm_opts.window forces it. Two bucket
 * kernels exist: XYZZ buckets with mixed additions, and batch-affine buckets
 * (many bucket additions sharing one field inversion by Montgomery's trick).
 * CZK_MSM_AUTO picks by the cost model.
 *
 * Variable time. The running time and memory access pattern depend on the
 * scalars (digits select buckets), so these functions carry `_var`: they are
 * meant for Groth16 witness values on a prover the caller controls, never for
 * secret keys on shared hardware.
 *
 * Inputs. Scalars are Fr elements in Montgomery form, as stored by
 * czk/field.h (converted to plain integers internally). Bases are affine
 * points in Montgomery form, assumed on the curve and in the prime-order
 * subgroup (the caller validated them when it decoded them); bases with
 * inf = 1 are allowed and contribute nothing.
 *
 * Density masks (bellperson's DensityTracker, docs/groth16.md). `density` is
 * either NULL (dense: nbases must equal n and scalars[i] pairs with bases[i])
 * or a bitmap of n bits, bit i = (density[i / 64] >> (i % 64)) & 1. The
 * scalars array is full length (n entries); the bases array holds only the
 * entries whose bit is set, in order: the j-th set bit (counting from bit 0)
 * pairs scalars[i] with bases[j]. Scalars whose bit is clear are skipped
 * (their base is the identity in the parameters and was left out). nbases
 * must equal the number of set bits among the first n; bits at positions
 * >= n in the last word are ignored. This is how bellperson evaluates the
 * queries (docs/groth16.md; the parameters hold only the non-identity entries,
 * inputs first):
 *   a (inputs dense):  czk_msm_g1_var(&o1, a_query, n_in, input, n_in, NULL, opts)
 *                      czk_msm_g1_var(&o2, a_query + n_in, popcount(a_aux_density),
 *                                     aux, n_aux, a_aux_density, opts)
 *   b_g1 / b_g2:       czk_msm_g1_var(&o1, b_query, k = popcount(b_input_density),
 *                                     input, n_in, b_input_density, opts)
 *                      czk_msm_g1_var(&o2, b_query + k, popcount(b_aux_density),
 *                                     aux, n_aux, b_aux_density, opts)
 *
 * Memory. The MSM needs scratch memory of czk_msm_g1_scratch_size() bytes
 * (for the same nbases and opts). Pass it in opts->scratch to avoid any
 * allocation; with opts == NULL or opts->scratch == NULL the call allocates it
 * once (one aligned allocation per call, freed before returning) and returns
 * CZK_ERR_NOMEM if that fails. Nothing else is allocated and no state is kept
 * between calls.
 *
 * Threads. OpenMP, opts->threads threads (0: czk_threads()). Work is split
 * into (window, range of points) tasks, scheduled dynamically; the split is
 * part of the cost model. The result does not depend on the thread count.
 */
#ifndef CZK_MSM_H
#define CZK_MSM_H

#include "czk/ec.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Largest window size accepted (and considered by the cost model). */
#define CZK_MSM_MAX_WINDOW 20

typedef enum czk_msm_algo {
    CZK_MSM_AUTO = 0,         /* cost model */
    CZK_MSM_XYZZ = 1,         /* XYZZ buckets, mixed additions */
    CZK_MSM_BATCH_AFFINE = 2, /* affine buckets, batched inversions; XYZZ for conflicts */
} czk_msm_algo;

typedef struct czk_msm_opts {
    int threads;        /* 0: czk_threads() */
    unsigned window;    /* 0: cost model; else 1..CZK_MSM_MAX_WINDOW */
    czk_msm_algo algo;  /* CZK_MSM_AUTO by default */
    void *scratch;      /* NULL: allocate once per call; else >= scratch_size bytes, 64-byte aligned */
    size_t scratch_size;
} czk_msm_opts;

/* What a call with these arguments does (for benchmarks and logs). */
typedef struct czk_msm_plan {
    unsigned window;    /* c */
    unsigned windows;   /* number of windows, ceil(255 / c) */
    unsigned chunks;    /* point ranges per window */
    int threads;        /* threads used */
    czk_msm_algo algo;  /* XYZZ or BATCH_AFFINE (never AUTO) */
    unsigned batch;     /* batch size of the batch-affine kernel */
    unsigned lanes;     /* lanes of its batch-affine bucket sum (0: XYZZ running sum) */
    unsigned sets;      /* scalar vectors sharing the bucket pass (1 for czk_msm_*_var) */
    unsigned sparse;    /* 1: scalars 0 and +-1 may be split off first (scratch for their index lists) */
    double cost;        /* model cost per thread, in multiplications of the coordinate field */
    size_t scratch;     /* bytes of scratch needed */
} czk_msm_plan;

/* The plan the MSM would follow for nbases bases (after the density mask). */
void czk_msm_g1_plan(czk_msm_plan *plan, size_t nbases, const czk_msm_opts *opts);
void czk_msm_g2_plan(czk_msm_plan *plan, size_t nbases, const czk_msm_opts *opts);

/* Bytes of scratch needed for nbases bases with these options (threads,
 * window and algo matter; scratch fields are ignored). */
size_t czk_msm_g1_scratch_size(size_t nbases, const czk_msm_opts *opts);
size_t czk_msm_g2_scratch_size(size_t nbases, const czk_msm_opts *opts);

/* out = sum scalars[i] * bases[j(i)] as described above. opts may be NULL
 * (defaults). Errors (CZK_ERR_INVALID_ARG, message naming the argument):
 * NULL pointers with non-zero lengths, nbases not matching n or the density's
 * popcount, a window outside 1..CZK_MSM_MAX_WINDOW, an unknown algo, scratch
 * too small or misaligned; CZK_ERR_NOMEM if the allocation fails. On error
 * *out is set to infinity. */
czk_status czk_msm_g1_var(czk_g1_jac *out, const czk_g1_affine *bases, size_t nbases,
                          const czk_fr *scalars, size_t n, const uint64_t *density,
                          const czk_msm_opts *opts) CZK_WUR;
czk_status czk_msm_g2_var(czk_g2_jac *out, const czk_g2_affine *bases, size_t nbases,
                          const czk_fr *scalars, size_t n, const uint64_t *density,
                          const czk_msm_opts *opts) CZK_WUR;

/* Several MSMs over the same bases in one bucket pass:
 *   out[s] = sum_i scalars[s][i] * bases[j(i)],  s = 0 .. nsets - 1,
 * with the density semantics of czk_msm_g1_var (one mask shared by all sets;
 * every scalars[s] has n entries). Each base is read once per window and
 * added into nsets bucket sets side by side, so the base traffic and the
 * batch inversions are shared: for a batch of proofs over one parameter set
 * (the same query, different witnesses) it costs less than nsets separate
 * calls. The result equals nsets calls of czk_msm_g1_var. nsets = 0 does
 * nothing; nsets is at most CZK_MSM_MAX_SETS. Scratch: the _multi_scratch_size
 * bytes (about nsets x the plain scalars and buckets of a single call) in
 * opts->scratch, else one allocation per call. Errors as czk_msm_g1_var, plus
 * scalars (or scalars[s] with n > 0) NULL, nsets too large; on error every
 * out[s] is set to infinity (except for nsets > CZK_MSM_MAX_SETS: out is not
 * touched). */
#define CZK_MSM_MAX_SETS 256

void czk_msm_g1_multi_plan(czk_msm_plan *plan, size_t nbases, size_t nsets, const czk_msm_opts *opts);
void czk_msm_g2_multi_plan(czk_msm_plan *plan, size_t nbases, size_t nsets, const czk_msm_opts *opts);
size_t czk_msm_g1_multi_scratch_size(size_t nbases, size_t nsets, const czk_msm_opts *opts);
size_t czk_msm_g2_multi_scratch_size(size_t nbases, size_t nsets, const czk_msm_opts *opts);

czk_status czk_msm_g1_var_multi(czk_g1_jac *out, size_t nsets, const czk_g1_affine *bases, size_t nbases,
                                const czk_fr *const *scalars, size_t n, const uint64_t *density,
                                const czk_msm_opts *opts) CZK_WUR;
czk_status czk_msm_g2_var_multi(czk_g2_jac *out, size_t nsets, const czk_g2_affine *bases, size_t nbases,
                                const czk_fr *const *scalars, size_t n, const uint64_t *density,
                                const czk_msm_opts *opts) CZK_WUR;

#ifdef __cplusplus
}
#endif
#endif
