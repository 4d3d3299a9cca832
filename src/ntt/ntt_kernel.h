/* NTT kernels, instantiated once per field implementation by ntt.c:
 *
 *   #define NTT_SFX(x) x##_adx
 *   #define NTT_MUL czk_fr_mul_adx  (and NTT_ADD, NTT_SUB)
 *   #include "ntt_kernel.h"
 *
 * so the butterflies call the selected Fr routines directly rather than
 * through czk_fr_mul's dispatch.
 *
 * Twiddles: level l (half-size h = 2^l) has the table T_l[i] = w_(2h)^i,
 * i < h, at tw + (h - 1). Inverse transforms use w_(2h)^-i = -T_l[h - i]
 * (w_(2h)^h = -1) and fold the sign into the butterfly.
 *
 * Gentleman-Sande DIF butterfly at level l, index i < h:
 *   (u, v) -> (u + v, (u - v) w^i)          natural -> bit-reversed
 * Cooley-Tukey DIT butterfly:
 *   (u, v) -> (u + v w^i, u - v w^i)        bit-reversed -> natural
 * No 1/n scaling here. Layout of one transform (see README.md):
 *   top levels l >= b: passes of up to NTT_PASS_MAX levels over tiles of
 *   2^s rows x NTT_COLS contiguous elements, gathered into a stack buffer;
 *   bottom levels l < b: each block of 2^b elements done whole (in L2).
 */

#define NTT_K(x) NTT_SFX(x)

/* ---- butterflies ------------------------------------------------------ */

/* DIF at index i > 0 of a level with table T, half-size h. */
static inline __attribute__((always_inline)) void NTT_K(bf_dif)(czk_fr *x, czk_fr *y, const czk_fr *T,
                                                                size_t h, size_t i, int inv)
{
    czk_fr t;
    if (!inv) {
        NTT_SUB(&t, x, y);
        NTT_ADD(x, x, y);
        NTT_MUL(y, &t, &T[i]);
    } else {
        NTT_SUB(&t, y, x);
        NTT_ADD(x, x, y);
        NTT_MUL(y, &t, &T[h - i]);
    }
}

/* Butterfly with twiddle 1 (index 0): (u, v) -> (u + v, u - v). */
static inline __attribute__((always_inline)) void NTT_K(bf_one)(czk_fr *x, czk_fr *y)
{
    czk_fr t;
    NTT_SUB(&t, x, y);
    NTT_ADD(x, x, y);
    *y = t;
}

/* DIT at index i > 0. */
static inline __attribute__((always_inline)) void NTT_K(bf_dit)(czk_fr *x, czk_fr *y, const czk_fr *T,
                                                                size_t h, size_t i, int inv)
{
    czk_fr t;
    if (!inv) {
        NTT_MUL(&t, y, &T[i]);
        NTT_SUB(y, x, &t);
        NTT_ADD(x, x, &t);
    } else {
        NTT_MUL(&t, y, &T[h - i]);
        NTT_ADD(y, x, &t);
        NTT_SUB(x, x, &t);
    }
}

/* ---- one level over a contiguous range (radix-2) ----------------------- */

static inline __attribute__((always_inline)) void NTT_K(level_dif)(czk_fr *a, size_t len, const czk_fr *tw,
                                                                   unsigned l, int inv)
{
    size_t h = (size_t)1 << l;
    const czk_fr *T = tw + (h - 1);
    for (size_t s = 0; s < len; s += 2 * h) {
        czk_fr *x = a + s, *y = a + s + h;
        NTT_K(bf_one)(&x[0], &y[0]);
        for (size_t i = 1; i < h; i++) NTT_K(bf_dif)(&x[i], &y[i], T, h, i, inv);
    }
}

static inline __attribute__((always_inline)) void NTT_K(level_dit)(czk_fr *a, size_t len, const czk_fr *tw,
                                                                   unsigned l, int inv)
{
    size_t h = (size_t)1 << l;
    const czk_fr *T = tw + (h - 1);
    for (size_t s = 0; s < len; s += 2 * h) {
        czk_fr *x = a + s, *y = a + s + h;
        NTT_K(bf_one)(&x[0], &y[0]);
        for (size_t i = 1; i < h; i++) NTT_K(bf_dit)(&x[i], &y[i], T, h, i, inv);
    }
}

/* Two levels l, l-1 (l >= 1) fused: radix-4 data flow, each element loaded
 * and stored once for the two levels. Same multiplications as radix-2 (a
 * multiplication by w_4 costs a full Fr multiplication in a prime field). */
static inline __attribute__((always_inline)) void NTT_K(level2_dif)(czk_fr *a, size_t len, const czk_fr *tw,
                                                                    unsigned l, int inv)
{
    size_t h = (size_t)1 << l, q = h >> 1;
    const czk_fr *T1 = tw + (h - 1), *T0 = tw + (q - 1);
    for (size_t s = 0; s < len; s += 2 * h) {
        czk_fr *x0 = a + s, *x1 = x0 + q, *x2 = x1 + q, *x3 = x2 + q;
        /* i = 0: level l twiddles 1 and w_(2h)^q; level l-1 twiddle 1 */
        NTT_K(bf_one)(&x0[0], &x2[0]);
        NTT_K(bf_dif)(&x1[0], &x3[0], T1, h, q, inv);
        NTT_K(bf_one)(&x0[0], &x1[0]);
        NTT_K(bf_one)(&x2[0], &x3[0]);
        for (size_t i = 1; i < q; i++) {
            NTT_K(bf_dif)(&x0[i], &x2[i], T1, h, i, inv);
            NTT_K(bf_dif)(&x1[i], &x3[i], T1, h, i + q, inv);
            NTT_K(bf_dif)(&x0[i], &x1[i], T0, q, i, inv);
            NTT_K(bf_dif)(&x2[i], &x3[i], T0, q, i, inv);
        }
    }
}

static inline __attribute__((always_inline)) void NTT_K(level2_dit)(czk_fr *a, size_t len, const czk_fr *tw,
                                                                    unsigned l, int inv)
{
    size_t h = (size_t)1 << l, q = h >> 1;
    const czk_fr *T1 = tw + (h - 1), *T0 = tw + (q - 1);
    for (size_t s = 0; s < len; s += 2 * h) {
        czk_fr *x0 = a + s, *x1 = x0 + q, *x2 = x1 + q, *x3 = x2 + q;
        NTT_K(bf_one)(&x0[0], &x1[0]);
        NTT_K(bf_one)(&x2[0], &x3[0]);
        NTT_K(bf_one)(&x0[0], &x2[0]);
        NTT_K(bf_dit)(&x1[0], &x3[0], T1, h, q, inv);
        for (size_t i = 1; i < q; i++) {
            NTT_K(bf_dit)(&x0[i], &x1[i], T0, q, i, inv);
            NTT_K(bf_dit)(&x2[i], &x3[i], T0, q, i, inv);
            NTT_K(bf_dit)(&x0[i], &x2[i], T1, h, i, inv);
            NTT_K(bf_dit)(&x1[i], &x3[i], T1, h, i + q, inv);
        }
    }
}

/* Levels lo_b-1 .. 0 of a block of 2^lo_b elements, DIF order (top first). */
static void NTT_K(block_dif)(czk_fr *a, unsigned lo_b, const czk_fr *tw, int inv, int radix4)
{
    size_t len = (size_t)1 << lo_b;
    int l = (int)lo_b - 1;
    if (radix4) {
        if ((lo_b & 1) && l >= 0) {
            if (inv) NTT_K(level_dif)(a, len, tw, (unsigned)l, 1);
            else NTT_K(level_dif)(a, len, tw, (unsigned)l, 0);
            l--;
        }
        for (; l >= 1; l -= 2) {
            if (inv) NTT_K(level2_dif)(a, len, tw, (unsigned)l, 1);
            else NTT_K(level2_dif)(a, len, tw, (unsigned)l, 0);
        }
    } else {
        for (; l >= 0; l--) {
            if (inv) NTT_K(level_dif)(a, len, tw, (unsigned)l, 1);
            else NTT_K(level_dif)(a, len, tw, (unsigned)l, 0);
        }
    }
}

/* Levels 0 .. lo_b-1, DIT order (bottom first). */
static void NTT_K(block_dit)(czk_fr *a, unsigned lo_b, const czk_fr *tw, int inv, int radix4)
{
    size_t len = (size_t)1 << lo_b;
    unsigned l = 0;
    if (radix4) {
        for (; l + 1 < lo_b; l += 2) {
            if (inv) NTT_K(level2_dit)(a, len, tw, l + 1, 1);
            else NTT_K(level2_dit)(a, len, tw, l + 1, 0);
        }
    }
    for (; l < lo_b; l++) {
        if (inv) NTT_K(level_dit)(a, len, tw, l, 1);
        else NTT_K(level_dit)(a, len, tw, l, 0);
    }
}

/* ---- top levels: one pass over levels [l_lo, l_lo + s) ----------------- */

/* One tile of a pass over levels [l_lo, l_lo + s): in the block of
 * 2^(l_lo+s) elements at `base`, row r < 2^s is the NTT_COLS elements at
 * base + j0 + r 2^l_lo. Level l (half-size h = 2^l) pairs rows r and
 * r + h/2^l_lo; an element's index within its half-block, which selects the
 * twiddle, is j0 + c + (r mod h/2^l_lo) 2^l_lo. `dif` runs the levels top
 * down (DIF), else bottom up (DIT). */
static void NTT_K(tile)(czk_fr *buf, czk_fr *a, size_t base, size_t j0, unsigned l_lo, unsigned s,
                        const czk_fr *tw, int inv, int dif)
{
    size_t R = (size_t)1 << s, hl = (size_t)1 << l_lo;
    for (size_t r = 0; r < R; r++)
        memcpy(buf + r * NTT_COLS, a + base + j0 + r * hl, NTT_COLS * sizeof(czk_fr));
    for (unsigned t = 0; t < s; t++) {
        unsigned lv = dif ? l_lo + s - 1 - t : l_lo + t;
        size_t hr = (size_t)1 << (lv - l_lo), h = (size_t)1 << lv;
        const czk_fr *T = tw + (h - 1);
        for (size_t r = 0; r < R; r++) {
            if (r & hr) continue;
            czk_fr *x = buf + r * NTT_COLS, *y = buf + (r + hr) * NTT_COLS;
            size_t i0 = j0 + (r & (hr - 1)) * hl;
            size_t c = 0;
            if (i0 == 0) {
                NTT_K(bf_one)(&x[0], &y[0]);
                c = 1;
            }
            if (dif) {
                if (inv)
                    for (; c < NTT_COLS; c++) NTT_K(bf_dif)(&x[c], &y[c], T, h, i0 + c, 1);
                else
                    for (; c < NTT_COLS; c++) NTT_K(bf_dif)(&x[c], &y[c], T, h, i0 + c, 0);
            } else {
                if (inv)
                    for (; c < NTT_COLS; c++) NTT_K(bf_dit)(&x[c], &y[c], T, h, i0 + c, 1);
                else
                    for (; c < NTT_COLS; c++) NTT_K(bf_dit)(&x[c], &y[c], T, h, i0 + c, 0);
            }
        }
    }
    for (size_t r = 0; r < R; r++)
        memcpy(a + base + j0 + r * hl, buf + r * NTT_COLS, NTT_COLS * sizeof(czk_fr));
}

static void NTT_K(pass)(czk_fr *a, unsigned k, unsigned l_lo, unsigned s, const czk_fr *tw, int inv,
                        int dif, int nt)
{
    size_t hl = (size_t)1 << l_lo;
    size_t span = (size_t)1 << (l_lo + s); /* block of the pass's outermost level */
    size_t nblk = ((size_t)1 << k) / span, ncol = hl / NTT_COLS;
    size_t units = nblk * ncol;
    /* j0 outer, block inner: consecutive units of one thread reuse the same
     * twiddles (they depend on j0 and r only). */
#pragma omp parallel num_threads(nt) if (nt > 1)
    {
        czk_fr buf[((size_t)1 << NTT_PASS_MAX) * NTT_COLS];
#pragma omp for schedule(static)
        for (size_t u = 0; u < units; u++) {
            size_t jc = u / nblk, blk = u % nblk;
            NTT_K(tile)(buf, a, blk * span, jc * NTT_COLS, l_lo, s, tw, inv, dif);
        }
    }
}

/* ---- whole transforms (no scaling, no permutation) --------------------- */

static void NTT_K(dif)(czk_fr *a, unsigned k, const czk_fr *tw, int inv, unsigned b, unsigned pmax, int radix4,
                       int nt)
{
    if (k <= b) {
        NTT_K(block_dif)(a, k, tw, inv, radix4);
        return;
    }
    unsigned top = k - b, npass = (top + pmax - 1) / pmax;
    unsigned hi = k; /* levels [b, hi) remain, done from the top */
    for (unsigned p = 0; p < npass; p++) {
        unsigned s = (hi - b) / (npass - p);
        NTT_K(pass)(a, k, hi - s, s, tw, inv, 1, nt);
        hi -= s;
    }
    size_t nblk = (size_t)1 << (k - b), bl = (size_t)1 << b;
#pragma omp parallel for schedule(static) num_threads(nt) if (nt > 1)
    for (size_t j = 0; j < nblk; j++) NTT_K(block_dif)(a + j * bl, b, tw, inv, radix4);
}

static void NTT_K(dit)(czk_fr *a, unsigned k, const czk_fr *tw, int inv, unsigned b, unsigned pmax, int radix4,
                       int nt)
{
    if (k <= b) {
        NTT_K(block_dit)(a, k, tw, inv, radix4);
        return;
    }
    size_t nblk = (size_t)1 << (k - b), bl = (size_t)1 << b;
#pragma omp parallel for schedule(static) num_threads(nt) if (nt > 1)
    for (size_t j = 0; j < nblk; j++) NTT_K(block_dit)(a + j * bl, b, tw, inv, radix4);
    unsigned top = k - b, npass = (top + pmax - 1) / pmax;
    unsigned lo = b; /* levels [lo, k) remain, done from the bottom */
    for (unsigned p = 0; p < npass; p++) {
        unsigned s = (k - lo) / (npass - p);
        NTT_K(pass)(a, k, lo, s, tw, inv, 0, nt);
        lo += s;
    }
}

#undef NTT_K
