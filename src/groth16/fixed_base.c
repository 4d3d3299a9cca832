/* Fixed-base scalar multiplication (fixed_base.h), G1 and G2.
 *
 * Digits: a canonical scalar k is first replaced by r - k when k > (r - 1)/2
 * (the point is then negated: y -> -y), so k' < r/2 < 2^254; k' is written
 * in W = ceil(255 / c) signed c-bit digits d_w in (-2^(c-1), 2^(c-1)],
 * k' = sum_w d_w 2^(c w) (each window's unsigned value plus the carry of the
 * one below; a value above 2^(c-1) becomes value - 2^c and carries one; the
 * top window never carries out since k' < 2^254 <= 2^(c W - 1)).
 *
 * Table: for the base G, T[w][d] = d 2^(c w) G for d in [1, 2^(c-1)],
 * affine. k' G = sum over the non-zero digits of +-T[w][|d_w|]: at most
 * W - 1 additions and no doubling (fixed-base windowing: Brickell, Gordon,
 * McCurley, Wilson, "Fast exponentiation with precomputation", EUROCRYPT
 * 1992; HAC §14.6.3; signed digits halve the table, since -P costs nothing
 * in affine coordinates). A row is built from its base by E[2h] = 2 E[h],
 * then E[2h + j] = E[j] + E[2h] for all j < 2h in one batch, so the table
 * costs about one addition per entry.
 *
 * Sums: the points are taken FB_CHUNK at a time; window w's additions of a
 * chunk are one batch of affine chord additions,
 *   l = (y2 - y1) / (x2 - x1), x3 = l^2 - x1 - x2, y3 = l (x1 - x3) - y1,
 * whose denominators share one inversion (Montgomery, "Speeding the Pollard
 * and elliptic curve methods of factorization", 1987, §10.3.1): 6
 * multiplications per addition and 1/FB_CHUNK of an inversion, against 11
 * for a mixed Jacobian addition. A point's first non-zero digit is copied,
 * not added. Where the CPU has AVX-512 IFMA, a chunk runs 8 points at a time
 * with their sums held in the vector lanes from the first window to the
 * last (fixed_base_ifma_tmpl.h): a window gathers only its table entries and
 * nothing is written back until the chunk is done (against a general batch
 * kernel, ec/ec_batch.h, which gathers and scatters both operands of every
 * addition: 15% less time per point here).
 *
 * No exceptional case (c >= 3): before window w the sum is s G with
 * s = sum_{j<w} d_j 2^(c j), so |s| <= 2^(c-1) (2^(c w) - 1) / (2^c - 1)
 * < 2^(c w) <= |d_w| 2^(c w): s != +-d_w 2^(c w) as integers, and s != 0
 * once a digit was non-zero (the lowest one is not 0 mod 2^c). Equality
 * mod r would need |s| + |d_w| 2^(c w) >= r. Below the top window that sum
 * is < 2^(c w) (1 + 2^(c-1)) <= 2^(c (W-1) - 1) (1 + 2^(1-c)) < 2^254 < r
 * (c (W - 1) < 255); in the top window |d_w| 2^(c w) = |k' - s|, so the sum
 * is at most k' + 2 |s| < r/2 + 2^(c (W-1)) (1 + 1/(2^c - 1)) < r because
 * c (W - 1) <= 253 for every c in 3..22. So x1 != x2 in every addition,
 * and no sum is the identity before the last (which is k' G, finite).
 *
 * Memory: the table is read at random (W entries per point). While window
 * w's batch is assembled, the entries of window w + 1 are prefetched, so
 * their cache misses overlap window w's arithmetic; the table is a big
 * buffer (2 MiB pages where the kernel gives them, so the random reads do
 * not miss the TLB as well).
 */
#include "groth16/fixed_base.h"

#include <omp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "common/bigmem.h"
#include "czk/czk.h"
#include "ec/ec_batch.h"
#include "ff/field_impl.h"

/* Points per chunk: one window's batch. A chunk's sums and the table
 * entries it touches stay in L2 (G1: 2 x 96 KiB; G2: 2 x 192 KiB). */
#define FB_CHUNK 1024

static inline unsigned fb_windows(unsigned c) { return (255 + c - 1) / c; }

/* The c bits at position pos (c <= 32) of a 4-limb scalar. */
static inline uint32_t fb_bits(const uint64_t l[4], unsigned pos, unsigned c)
{
    unsigned li = pos / 64, sh = pos % 64;
    if (li >= 4) return 0;
    uint64_t v = l[li] >> sh;
    if (sh + c > 64 && li + 1 < 4) v |= l[li + 1] << (64 - sh);
    return (uint32_t)(v & (((uint64_t)1 << c) - 1));
}

/* (r - 1) / 2 and r, little-endian limbs. */
static const uint64_t fb_half_r[4] = {0x7fffffff80000000ULL, 0xa9ded2017fff2dffULL, 0x199cec0404d0ec02ULL,
                                      0x39f6d3a994cebea4ULL};
static const uint64_t fb_r[4] = {0xffffffff00000001ULL, 0x53bda402fffe5bfeULL, 0x3339d80809a1d805ULL,
                                 0x73eda753299d7d48ULL};

/* The signed digits of k' = min(k, r - k) (see the file comment) into
 * dig[w * stride], w < nwin; returns 1 if k' = r - k. */
static int fb_recode(int32_t *dig, size_t stride, const czk_fr *k, unsigned c, unsigned nwin)
{
    uint64_t l[4];
    czk_fr_to_limbs(l, k);
    int flip = 0;
    for (int j = 3; j >= 0; j--) {
        if (l[j] != fb_half_r[j]) {
            flip = l[j] > fb_half_r[j];
            break;
        }
    }
    if (flip) { /* l = r - l */
        unsigned __int128 b = 0;
        for (int j = 0; j < 4; j++) {
            unsigned __int128 d = (unsigned __int128)fb_r[j] - l[j] - b;
            l[j] = (uint64_t)d;
            b = (d >> 64) & 1;
        }
    }
    const uint32_t half = (uint32_t)1 << (c - 1);
    uint32_t carry = 0;
    for (unsigned w = 0; w < nwin; w++) {
        uint32_t v = fb_bits(l, w * c, c) + carry;
        carry = v > half;
        dig[(size_t)w * stride] = carry ? (int32_t)v - (int32_t)((uint32_t)1 << c) : (int32_t)v;
    }
    return flip;
}

size_t czk__fb_table_bytes(unsigned c, int g2)
{
    size_t entry = 2 * (g2 ? sizeof(czk_fp2) : sizeof(czk_fp));
    return (size_t)fb_windows(c) * ((size_t)1 << (c - 1)) * entry;
}

/* Cost in batch additions: the sums (W - 1 per point), the table (an
 * addition and a copy per entry), and each row's c doublings with their
 * inversions (about 15 additions each). */
unsigned czk__fb_window(size_t n, int g2, size_t max_bytes)
{
    unsigned best = CZK__FB_MIN_WINDOW;
    double best_cost = 1e300;
    for (unsigned c = CZK__FB_MIN_WINDOW; c <= CZK__FB_MAX_WINDOW; c++) {
        if (max_bytes && c > CZK__FB_MIN_WINDOW && czk__fb_table_bytes(c, g2) > max_bytes) break;
        double nw = (double)fb_windows(c);
        double cost = (double)n * (nw - 1) + 1.2 * nw * (double)((size_t)1 << (c - 1)) + 15.0 * nw * c;
        if (cost < best_cost) best_cost = cost, best = c;
    }
    return best;
}

void czk__fb_table_free(czk__fb_table *tb)
{
    czk__big_free(tb->t);
    memset(tb, 0, sizeof *tb);
}

#include "ec/group_g1.h"
#include "ec/ec_formulas_tmpl.h"
#define FB_TABLE czk__fb_g1_table
#define FB_MUL czk__fb_g1_mul
#define FB_BATCH_IFMA czk__g1_batch_add_ifma
#define FB_IFMA_SCRATCH czk__g1_batch_add_scratch
#define FB_CHUNK_IFMA czk__fb_g1_chunk_ifma
#define FB_CHUNK_IFMA_SCRATCH czk__fb_g1_chunk_ifma_scratch
#include "groth16/fixed_base_tmpl.h"
#undef FB_TABLE
#undef FB_MUL
#undef FB_BATCH_IFMA
#undef FB_IFMA_SCRATCH
#undef FB_CHUNK_IFMA
#undef FB_CHUNK_IFMA_SCRATCH
#include "ec/group_end.h"

#include "ec/group_g2.h"
#include "ec/ec_formulas_tmpl.h"
#define FB_TABLE czk__fb_g2_table
#define FB_MUL czk__fb_g2_mul
#define FB_BATCH_IFMA czk__g2_batch_add_ifma
#define FB_IFMA_SCRATCH czk__g2_batch_add_scratch
#define FB_CHUNK_IFMA czk__fb_g2_chunk_ifma
#define FB_CHUNK_IFMA_SCRATCH czk__fb_g2_chunk_ifma_scratch
#include "groth16/fixed_base_tmpl.h"
#undef FB_TABLE
#undef FB_MUL
#undef FB_BATCH_IFMA
#undef FB_IFMA_SCRATCH
#undef FB_CHUNK_IFMA
#undef FB_CHUNK_IFMA_SCRATCH
#include "ec/group_end.h"
