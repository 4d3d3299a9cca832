/* Fixed-base scalar multiplication: out[i] = k[i] G for many scalars and one
 * base G, the work of the Groth16 setup (setup.c). Internal to czk.
 *
 * A table holds d 2^(c w) G for every c-bit window w and digit
 * 0 < d <= 2^(c-1); a point is the sum of + or - one entry per non-zero
 * signed digit (fixed-base windowing: Brickell, Gordon, McCurley and Wilson,
 * "Fast exponentiation with precomputation", EUROCRYPT 1992; Menezes, van
 * Oorschot and Vanstone, Handbook of Applied Cryptography, §14.6.3). The
 * sums run in affine coordinates in batches that share one inversion
 * (Montgomery's trick). See fixed_base.c.
 */
#ifndef CZK_GROTH16_FIXED_BASE_H
#define CZK_GROTH16_FIXED_BASE_H

#include <stddef.h>
#include <stdint.h>

#include "czk/ec.h"
#include "czk/field.h"

/* Window widths a table may have. */
#define CZK__FB_MIN_WINDOW 3
#define CZK__FB_MAX_WINDOW 22

typedef struct czk__fb_table {
    unsigned c;    /* window bits */
    unsigned nwin; /* windows: ceil(255 / c) */
    size_t per;    /* entries per window: 2^(c-1), the digits 1 .. 2^(c-1) */
    void *t;       /* nwin * per affine points {x, y}, window-major; a big buffer */
} czk__fb_table;

/* Progress of one batch: fn(ctx, stage, fraction done); fn may be NULL. */
typedef struct czk__fb_progress {
    void (*fn)(void *ctx, const char *stage, double fraction);
    void *ctx;
    const char *stage;
} czk__fb_progress;

/* The window minimising the estimated time of `n` multiplications plus the
 * table's construction, among tables of at most `max_bytes` (0: no limit);
 * g2: for a G2 table (entries twice as large). */
unsigned czk__fb_window(size_t n, int g2, size_t max_bytes);
/* Bytes of a table with window c, for G1 (g2 = 0) or G2. */
size_t czk__fb_table_bytes(unsigned c, int g2);

/* Build the table of window c (CZK__FB_MIN_WINDOW .. CZK__FB_MAX_WINDOW) for the finite base g. */
czk_status czk__fb_g1_table(czk__fb_table *tb, const czk_g1_affine *g, unsigned c, int threads) CZK_WUR;
czk_status czk__fb_g2_table(czk__fb_table *tb, const czk_g2_affine *g, unsigned c, int threads) CZK_WUR;
void czk__fb_table_free(czk__fb_table *tb);

/* out[i] = k[i] G for i < n, G the table's base, on `threads` threads;
 * pg may be NULL. */
czk_status czk__fb_g1_mul(czk_g1_affine *out, const czk_fr *k, size_t n, const czk__fb_table *tb, int threads,
                          const czk__fb_progress *pg) CZK_WUR;
czk_status czk__fb_g2_mul(czk_g2_affine *out, const czk_fr *k, size_t n, const czk__fb_table *tb, int threads,
                          const czk__fb_progress *pg) CZK_WUR;

/* Module-internal: one chunk of n points with AVX-512 IFMA
 * (fixed_base_ifma.c), given the signed digits dig[w * stride + i] (zero for
 * i in [n, 8 ceil(n / 8))) and flip[i] (the point is negated) of fb_recode;
 * scratch: *_scratch(n) bytes, 64-byte aligned. Only when
 * czk__field_use_ifma is set. */
size_t czk__fb_g1_chunk_ifma_scratch(size_t n);
size_t czk__fb_g2_chunk_ifma_scratch(size_t n);
void czk__fb_g1_chunk_ifma(czk_g1_affine *out, const int32_t *dig, size_t stride, const uint8_t *flip, size_t n,
                           const czk__fb_table *tb, void *scratch);
void czk__fb_g2_chunk_ifma(czk_g2_affine *out, const int32_t *dig, size_t stride, const uint8_t *flip, size_t n,
                           const czk__fb_table *tb, void *scratch);

/* Internal to libczk and the czk program: hidden in libczk.so. */
#pragma GCC visibility push(hidden)
/* Test hooks (setup.c): out[i] = k[i] G, G the generator, through the
 * fixed-base path with window c (0: chosen from n). */
czk_status czk_groth16_fixed_g1_var(czk_g1_affine *out, const czk_fr *k, size_t n, unsigned c,
                                    int threads) CZK_WUR;
czk_status czk_groth16_fixed_g2_var(czk_g2_affine *out, const czk_fr *k, size_t n, unsigned c,
                                    int threads) CZK_WUR;
#pragma GCC visibility pop

#endif
