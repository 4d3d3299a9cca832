/* czk — number-theoretic transform over the BLS12-381 scalar field Fr.
 *
 * A domain of size n = 2^k holds the roots and the twiddle table of one
 * transform size; every transform works in place on n Montgomery-form Fr
 * elements and is threaded with OpenMP (czk_ntt_domain_set_threads, default
 * czk_threads() at call time). Results do not depend on the thread count.
 *
 * Root families (they fix which evaluation sits at which index):
 *   CZK_NTT_ROOTS_GEN7  omega_(2^k) = czk_fr_root_of_unity(k): 7^((r-1)/2^32)
 *                       squared 32-k times (bellperson, docs/bls12-381.md#roots-of-unity).
 *   CZK_NTT_ROOTS_NQR5  omega_(2^k) = (5^t)^(2^(32-k)), r-1 = 2^32 t (snarkjs /
 *                       ffjavascript, docs/circom.md).
 *
 * Orders. The DFT of x is X_i = sum_j x_j omega^(ij). czk_ntt_forward and
 * czk_ntt_inverse take and return natural order. The `_dif` / `_dit` kernels
 * skip the bit-reversal permutation: forward_dif / inverse_dif map natural
 * order to bit-reversed order, forward_dit / inverse_dit map bit-reversed
 * order to natural order. Pointwise products do not care about order, so a
 * forward_dif, a pointwise step and an inverse_dit need no permutation at all
 * (see src/ntt/README.md). The inverse transforms include the 1/n factor.
 *
 * Cost: n/2 log2 n Fr multiplications per transform, less the trivial
 * twiddles (the last DIF / first DIT stage multiplies by nothing).
 * Algorithm: Gentleman-Sande DIF and Cooley-Tukey DIT, the top stages fused
 * into cache-sized passes (groups of up to 2^7 rows of 16 contiguous
 * elements), the bottom stages done per block that fits in L2 (src/ntt/README.md).
 */
#ifndef CZK_NTT_H
#define CZK_NTT_H

#include "czk/common.h"
#include "czk/field.h"

#ifdef __cplusplus
extern "C" {
#endif

#define CZK_NTT_MAX_LOG 32

typedef enum czk_ntt_roots {
    CZK_NTT_ROOTS_GEN7 = 0, /* bellperson: roots of 7 */
    CZK_NTT_ROOTS_NQR5 = 1, /* snarkjs: roots of 5 */
} czk_ntt_roots;

typedef struct czk_ntt_domain czk_ntt_domain;

/* Primitive 2^k-th root of unity of the given family, 0 <= k <= 32.
 * CZK_ERR_INVALID_ARG for k > 32 or an unknown family. */
czk_status czk_ntt_root_of_unity(czk_fr *r, unsigned k, czk_ntt_roots family) CZK_WUR;

/* Create a domain of size 2^log_n (log_n <= CZK_NTT_MAX_LOG): roots, 1/n and
 * a twiddle table of n/2 elements plus a small table for the in-cache
 * stages. *out is NULL on failure (CZK_ERR_INVALID_ARG, CZK_ERR_NOMEM).
 * Free with czk_ntt_domain_destroy. */
czk_status czk_ntt_domain_create(czk_ntt_domain **out, unsigned log_n, czk_ntt_roots family) CZK_WUR;
void czk_ntt_domain_destroy(czk_ntt_domain *d); /* NULL is fine */

size_t czk_ntt_domain_size(const czk_ntt_domain *d);
unsigned czk_ntt_domain_log_size(const czk_ntt_domain *d);
czk_ntt_roots czk_ntt_domain_family(const czk_ntt_domain *d);
/* omega_n, omega_n^-1 and 1/n (Montgomery form). */
void czk_ntt_domain_omega(czk_fr *omega, czk_fr *omega_inv, czk_fr *n_inv, const czk_ntt_domain *d);
/* Bytes the domain holds (struct and tables). */
size_t czk_ntt_domain_memory(const czk_ntt_domain *d);
/* Thread count of the domain's transforms; 0 (the default) means czk_threads()
 * at each call. Set it before sharing the domain between threads. */
void czk_ntt_domain_set_threads(czk_ntt_domain *d, int threads);
/* Log2 of the in-cache block (tuning; default 14 = 512 KiB). Clamped to 4..20. */
void czk_ntt_domain_set_block_log(czk_ntt_domain *d, unsigned block_log);
/* Most levels fused into one pass over memory above the block (tuning;
 * default and maximum 7, minimum 1). */
void czk_ntt_domain_set_pass_max(czk_ntt_domain *d, unsigned levels);
/* 1 (default): the in-block stages go two at a time (radix-4 data flow);
 * 0: one at a time (radix-2). Same results; for benchmarks. */
void czk_ntt_domain_set_radix4(czk_ntt_domain *d, int on);

/* All transforms: `a` holds n = czk_ntt_domain_size(d) elements; any other n
 * is CZK_ERR_INVALID_ARG (message names the sizes). */

/* a <- DFT(a) (natural -> natural). */
czk_status czk_ntt_forward(const czk_ntt_domain *d, czk_fr *a, size_t n) CZK_WUR;
/* a <- DFT^-1(a) = (1/n) sum_j a_j omega^(-ij) (natural -> natural). */
czk_status czk_ntt_inverse(const czk_ntt_domain *d, czk_fr *a, size_t n) CZK_WUR;
/* Without the permutation: natural in, bit-reversed out. */
czk_status czk_ntt_forward_dif(const czk_ntt_domain *d, czk_fr *a, size_t n) CZK_WUR;
czk_status czk_ntt_inverse_dif(const czk_ntt_domain *d, czk_fr *a, size_t n) CZK_WUR;
/* Without the permutation: bit-reversed in, natural out. */
czk_status czk_ntt_forward_dit(const czk_ntt_domain *d, czk_fr *a, size_t n) CZK_WUR;
czk_status czk_ntt_inverse_dit(const czk_ntt_domain *d, czk_fr *a, size_t n) CZK_WUR;

/* Coset transforms with shift s (NULL: the generator 7, czk_fr_coset_gen):
 * coset_forward: a_i <- a_i s^i, then forward: a <- (A(s omega^i))_i.
 * coset_inverse: inverse, then a_i <- a_i s^-i. Natural order. */
czk_status czk_ntt_coset_forward(const czk_ntt_domain *d, czk_fr *a, size_t n, const czk_fr *s) CZK_WUR;
czk_status czk_ntt_coset_inverse(const czk_ntt_domain *d, czk_fr *a, size_t n, const czk_fr *s) CZK_WUR;

/* a_i <- a_i * c * s^i for i < n (c NULL: 1). Threaded with `threads`
 * (0: czk_threads()). */
void czk_ntt_distribute_powers(czk_fr *a, size_t n, const czk_fr *s, const czk_fr *c, int threads);
/* In-place bit-reversal permutation of n = 2^k elements (cache-blocked for
 * large n). CZK_ERR_INVALID_ARG if n is not a power of two. */
czk_status czk_ntt_bitreverse(czk_fr *a, size_t n, int threads) CZK_WUR;

/* bellperson's H step (docs/groth16.md). a, b, c: m = domain size evaluations of
 * the A, B, C polynomials on the domain (the caller zero-pads the constraint
 * values to m). On return a[0..m-2] holds the coefficients of
 *   h = (A B - C) / (x^m - 1),
 * computed as: a, b, c <- iFFT; coset shift by g = 7; FFT; a <- (a b - c) /
 * (g^m - 1); inverse coset FFT. a[m-1] is the top coefficient (zero when the
 * constraints are satisfied). b and c are clobbered. Uses no permutation but
 * the last (see src/ntt/README.md). */
czk_status czk_ntt_groth16_h(const czk_ntt_domain *d, czk_fr *a, czk_fr *b, czk_fr *c, size_t m) CZK_WUR;

/* Fills out[0..m) with vector `which` (0: a, 1: b, 2: c) of the H step,
 * zero past the last constraint; a non-OK status stops the step. */
typedef czk_status (*czk_ntt_fill_fn)(void *ctx, int which, czk_fr *out, size_t m);

/* czk_ntt_groth16_h in two vectors of m instead of three, for provers short
 * of memory: fill(ctx, 0, a), fill(ctx, 1, t), fill(ctx, 2, t) in this
 * order, each transformed before the next is asked for (a <- coset(a) *
 * coset(b), then a <- (a - coset(c)) / Z). a ends as czk_ntt_groth16_h leaves
 * it, bit for bit; t is clobbered. */
czk_status czk_ntt_groth16_h_fill(const czk_ntt_domain *d, czk_fr *a, czk_fr *t, size_t m, czk_ntt_fill_fn fill,
                                  void *ctx) CZK_WUR;

/* snarkjs's H step (docs/circom.md#the-h-section), on a CZK_NTT_ROOTS_NQR5
 * domain of size n (log n <= 31): for each of a, b, c: iFFT, multiply
 * coefficient k by omega_2n^k, FFT (values at the odd coset omega_2n^(2i+1));
 * then a_i <- a_i b_i - c_i, natural order. b and c are clobbered.
 * CZK_ERR_INVALID_ARG on a GEN7 domain. */
czk_status czk_ntt_snarkjs_h(const czk_ntt_domain *d, czk_fr *a, czk_fr *b, czk_fr *c, size_t n) CZK_WUR;

#ifdef __cplusplus
}
#endif
#endif
