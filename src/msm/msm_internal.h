/* czk msm — internal helpers shared by the G1 and G2 instantiations. */
#ifndef CZK_MSM_INTERNAL_H
#define CZK_MSM_INTERNAL_H

#include "czk/msm.h"

/* Plain (non-Montgomery) little-endian scalar k' = min(k, r - k) < 2^254,
 * with bit 63 of l[3] (bit 255) set when k' = r - k: then k P = k' (-P), and
 * the kernels flip the sign of every digit of that scalar. Scalars thus need
 * one bit less, which saves a window whenever c divides 255 but not 256
 * (c = 15: 17 windows instead of 18; c = 17: 15 instead of 16). */
typedef struct czk__msm_scalar {
    uint64_t l[4];
} czk__msm_scalar;

#define CZK__MSM_NEG_BIT (1ull << 63)

CZK_INLINE int czk__msm_scalar_neg(const czk__msm_scalar *k) { return (k->l[3] & CZK__MSM_NEG_BIT) != 0; }

CZK_INLINE uint64_t czk__msm_limb(const czk__msm_scalar *k, unsigned i)
{
    return i < 3 ? k->l[i] : i == 3 ? k->l[3] & ~CZK__MSM_NEG_BIT : 0;
}

/* Booth (signed) digit j of k' in radix 2^c:
 *   d_j = b[jc-1] + sum_{i=0}^{c-2} b[jc+i] 2^i - b[jc+c-1] 2^(c-1),  b[-1] = 0,
 * so sum_j d_j 2^(jc) = k' whenever bit W c - 1 of k' is zero (W c >= 255,
 * k' < 2^254), and |d_j| <= 2^(c-1). It reads the c + 1 bits [jc - 1, jc + c)
 * and needs no carry from lower windows (Booth 1951; the recoding used by
 * blst's Pippenger). The sign flag of k' is not part of the digits. */
CZK_INLINE int czk__msm_booth_digit(const czk__msm_scalar *k, unsigned j, unsigned c)
{
    uint64_t v;
    if (j == 0) {
        v = (k->l[0] << 1) & ((2ull << c) - 1); /* c + 1 bits, the lowest (b[-1]) zero */
    } else {
        unsigned pos = j * c - 1, li = pos >> 6, sh = pos & 63;
        v = czk__msm_limb(k, li) >> sh;
        if (sh + c + 1 > 64) v |= czk__msm_limb(k, li + 1) << (64 - sh);
        v &= (2ull << c) - 1;
    }
    int u = (int)((v + 1) >> 1);            /* unsigned window value + carry bit, 0..2^c */
    return (v >> c) ? u - (1 << c) : u;     /* top bit set: negative digit */
}

/* -1 if the folded scalar k' is neither 0 nor 1, else k' (the sparse
 * pre-pass: 0 is skipped, 1 means +-P). */
CZK_INLINE int czk__msm_scalar_small(const czk__msm_scalar *k)
{
    if ((k->l[1] | k->l[2] | (k->l[3] & ~CZK__MSM_NEG_BIT)) != 0 || k->l[0] > 1) return -1;
    return (int)k->l[0];
}

/* Number of windows for window size c: the least W with W c >= 255. */
CZK_INLINE unsigned czk__msm_windows(unsigned c) { return (255 + c - 1) / c; }

/* Validate the common arguments (scalars: one vector of n scalars). `what`
 * names the function in messages. */
czk_status czk__msm_check_args(const char *what, const void *out, const void *bases, size_t nbases,
                               const void *scalars, size_t n, const uint64_t *density,
                               const czk_msm_opts *opts) CZK_WUR;

/* Convert the scalars selected by density (all if NULL) from Montgomery Fr
 * to plain integers, compacted so plain[j * stride] pairs with bases[j].
 * Called by every thread of a parallel region (tid of nthreads); no barrier
 * inside. */
void czk__msm_prepare_scalars(czk__msm_scalar *plain, size_t stride, const czk_fr *scalars, size_t n,
                              const uint64_t *density, int tid, int nthreads);

/* Curve-independent part of the cost model. Costs are in units of one
 * field multiplication of the curve's coordinate field. */
/* The bytes of buckets per thread past which most bucket accesses go to
 * memory: a thread's share of a last-level cache that other tenants of the
 * host share too (README.md "Cost model": measured, not read from the CPU). */
#define CZK__MSM_L3_SHARE ((double)(4u << 20))

typedef struct czk__msm_costs {
    double madd;      /* XYZZ += affine */
    double add;       /* XYZZ += XYZZ */
    double dbl;       /* XYZZ doubling */
    double ba_add;    /* one batch-affine addition, excluding the shared inversion */
    double inv;       /* one field inversion */
    double miss;      /* extra cost of a bucket access that misses the L2 cache */
    double far;       /* and once a thread's buckets pass its share of the L3 (CZK__MSM_L3_SHARE) */
    double load;      /* reading a base and its digits once per task (shared by the scalar sets) */
    size_t xyzz_bytes, aff_bytes, fe_bytes, entry_bytes, point_bytes;
} czk__msm_costs;

/* Plan for m bases and nsets scalar vectors (nsets >= 1; the single MSM is
 * nsets = 1): the buckets of all sets live side by side (nsets x 2^(c-1)). */
void czk__msm_make_plan(czk_msm_plan *plan, size_t m, size_t nsets, const czk_msm_opts *opts,
                        const czk__msm_costs *k);

/* Scratch layout derived from a plan. */
typedef struct czk__msm_layout {
    size_t plain_off, res_off, thread_off, per_thread, total;
    size_t digit_off; /* inside one thread's area: the look-ahead digits (MSM_PF x nsets ints) */
    /* inside one thread's area (batch-affine) */
    size_t aff_off, xyzz_off, state_off, mark_off, entry_off, queue_off, den_off, pre_off, lane_off;
    size_t vec_off; /* the IFMA kernel's operand arrays (batch x (2 pointers + 1 byte)) */
    size_t sparse_off, count_off; /* the sparse pre-pass: 2 m index words; per-thread counts */
} czk__msm_layout;

void czk__msm_layout_of(czk__msm_layout *lay, const czk_msm_plan *plan, size_t m,
                        const czk__msm_costs *k);

/* Fewest bases for the sparse pre-pass (single MSMs, automatic kernel). */
#define CZK__MSM_SPARSE_MIN 4096
/* The sparse pre-pass's +-1 list: index | CZK__MSM_SPARSE_SIGN (negate the base). */
#define CZK__MSM_SPARSE_SIGN 0x80000000u
#define CZK__MSM_SPARSE_IDX 0x7fffffffu
/* Smallest window of the re-planned dense part (2^10 buckets: the +-1
 * accumulators are twice the batch, which is at most half the buckets). */
#define CZK__MSM_SPARSE_MIN_WINDOW 11

/* The scratch of a layout of `total` bytes: the caller's opts->scratch
 * (checked: size, 64-byte alignment) or allocated by czk__big_alloc
 * (*owned, which the caller releases with czk__big_free; NULL otherwise). */
czk_status czk__msm_scratch(uint8_t **mem, uint8_t **owned, const char *what, const czk_msm_opts *opts,
                            size_t total) CZK_WUR;

/* The S scalar sets prepared into plain (interleaved) on plan->threads
 * threads and, with plan->sparse, the sparse pre-pass: the folded scalars 0
 * and +-1 counted per thread range; when they are at least an eighth of
 * the m bases, the zeros are dropped and the indices of the others (dense,
 * m words at lay->sparse_off) and of the +-1 (the next m words) written.
 * Returns 1 when the pre-pass applies (*n_dense, *n_pm1 set), else 0. */
int czk__msm_prepass(czk__msm_scalar *plain, uint8_t *mem, const czk__msm_layout *lay, const czk_msm_plan *plan,
                     size_t m, size_t S, const czk_fr *const *scalars, size_t n, const uint64_t *density,
                     size_t *n_dense, size_t *n_pm1);

/* The plan of the pre-pass's n_dense scalars (batch-affine; a window of at
 * least CZK__MSM_SPARSE_MIN_WINDOW unless opts sets one; plan's threads at
 * least) and its layout over the m bases; 0 when it needs more scratch than
 * lay, laid out for plan. */
int czk__msm_replan_sparse(czk_msm_plan *plan2, czk__msm_layout *lay2, const czk_msm_plan *plan,
                           const czk__msm_layout *lay, size_t m, size_t n_dense, const czk_msm_opts *opts,
                           const czk__msm_costs *kc);

/* Look-ahead distance (points) of the bucket kernels' prefetches. */
#define CZK__MSM_PF 4

/* Internal to libczk and the czk program: hidden in libczk.so. */
#pragma GCC visibility push(hidden)
/* Slow reference, kept for tests: sum of czk_g1_mul_var / czk_g2_mul_var with
 * the same density semantics and errors. Single-threaded, no scratch. */
czk_status czk_msm_g1_ref(czk_g1_jac *out, const czk_g1_affine *bases, size_t nbases,
                          const czk_fr *scalars, size_t n, const uint64_t *density) CZK_WUR;
czk_status czk_msm_g2_ref(czk_g2_jac *out, const czk_g2_affine *bases, size_t nbases,
                          const czk_fr *scalars, size_t n, const uint64_t *density) CZK_WUR;
#pragma GCC visibility pop

#endif
