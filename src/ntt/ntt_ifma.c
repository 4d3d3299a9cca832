/* czk ntt — the DIF / DIT transforms with 8-lane AVX-512 IFMA butterflies
 * (ntt_ifma.h). The schedule is ntt_kernel.h's (top levels in passes of up
 * to 7 levels over tiles of 2^s rows x 16 columns, bottom levels per block),
 * the arithmetic ff/vec_ifma.h's Fr in radix 2^52. A tile or block is
 * converted once into lanes (8 consecutive elements per vector) on the
 * stack, all its levels run there, and it is converted back; twiddles are
 * converted as they are read. Levels whose half-size h is 4, 2 or 1 pair
 * lanes of one vector: two vectors are permuted into the 8 x and 8 y
 * operands, one vector butterfly, and permuted back. */
#include "ntt/ntt_ifma.h"

#include <stdlib.h>

#include "ff/field_impl.h"
#include "ff/vec_ifma.h"

#ifdef CZK_HAVE_IFMA_KERNELS

#include <omp.h>

typedef czk__v8fr V;

#define NTT_COLS 16 /* a tile row: 16 contiguous elements, two vectors */

/* Twiddles of lanes c = 0..7 at indices i0 + c of level table T (half-size
 * h >= 8): T[i0 + c]; inverse: w^-(i0+c) = -T[h - i0 - c] (the butterflies
 * carry the sign), and -1 where i0 + c = 0 (w^0 = 1 with the sign carried;
 * T[h] is past the table). */
static inline __attribute__((always_inline)) void tw8(V *w, const czk_fr *T, size_t h, size_t i0, int inv)
{
    if (!inv) {
        czk__v8fr_loadu(w, T + i0);
        return;
    }
    if (i0) { /* T[h - i0 - 7 .. h - i0], reversed */
        const __m512i rev = _mm512_set_epi64(0, 1, 2, 3, 4, 5, 6, 7);
        czk__v8fr_loadu(w, T + h - i0 - 7);
        for (int j = 0; j < 5; j++) w->l[j] = _mm512_permutexvar_epi64(rev, w->l[j]);
        return;
    }
    /* lanes 1..7: T[h - 1 .. h - 7] = block T[h - 8 ..] at 7 .. 1; lane 0: -1 */
    const __m512i idx = _mm512_set_epi64(1, 2, 3, 4, 5, 6, 7, 0);
    V m1;
    czk_fr mone;
    czk_fr_neg(&mone, &CZK_FR_ONE);
    czk__v8fr_loadu(w, T + h - 8);
    czk__v8fr_set1(&m1, &mone);
    for (int j = 0; j < 5; j++)
        w->l[j] = _mm512_mask_mov_epi64(_mm512_permutexvar_epi64(idx, w->l[j]), 1, m1.l[j]);
}

/* DIF (x, y) -> (x + y, (x - y) w); inverse (x + y, (y - x) T[h - i]). */
static inline __attribute__((always_inline)) void bf_dif(V *x, V *y, const V *w, int inv)
{
    V t;
    if (!inv) czk__v8fr_sub(&t, x, y);
    else czk__v8fr_sub(&t, y, x);
    czk__v8fr_add(x, x, y);
    czk__v8fr_mul(y, &t, w);
}

/* DIT (x, y) -> (x + y w, x - y w); inverse (x - y T[h - i], x + y T[h - i]). */
static inline __attribute__((always_inline)) void bf_dit(V *x, V *y, const V *w, int inv)
{
    V t;
    czk__v8fr_mul(&t, y, w);
    if (!inv) {
        czk__v8fr_sub(y, x, &t);
        czk__v8fr_add(x, x, &t);
    } else {
        czk__v8fr_add(y, x, &t);
        czk__v8fr_sub(x, x, &t);
    }
}

static inline __attribute__((always_inline)) void bf(V *x, V *y, const V *w, int inv, int dif)
{
    if (dif) bf_dif(x, y, w, inv);
    else bf_dit(x, y, w, inv);
}

/* One level with h >= 8 on a buffer of ng vectors (vector g = elements 8g .. 8g + 7). */
static void level_v(V *buf, size_t ng, unsigned l, const czk_fr *tw, int inv, int dif)
{
    size_t h = (size_t)1 << l, hg = h / 8;
    const czk_fr *T = tw + (h - 1);
    for (size_t i = 0; i < hg; i++) {
        V w;
        tw8(&w, T, h, 8 * i, inv);
        for (size_t s = 0; s < ng; s += 2 * hg) bf(&buf[s + i], &buf[s + i + hg], &w, inv, dif);
    }
}

/* One level with h = 4, 2 or 1 (l = 2, 1, 0): vectors g, g + 1 give the x and
 * y lanes by a permutation (element 8 g + c pairs with 8 g + c + h when
 * c & h == 0), the butterfly's twiddle of lane c depends on c mod h. */
static void level_small(V *buf, size_t ng, unsigned l, const czk_fr *tw, int inv, int dif)
{
    __m512i px, py, bx, by;
    switch (l) {
    case 2:
        px = _mm512_set_epi64(11, 10, 9, 8, 3, 2, 1, 0), py = _mm512_set_epi64(15, 14, 13, 12, 7, 6, 5, 4);
        bx = _mm512_set_epi64(11, 10, 9, 8, 3, 2, 1, 0), by = _mm512_set_epi64(15, 14, 13, 12, 7, 6, 5, 4);
        break;
    case 1:
        px = _mm512_set_epi64(13, 12, 9, 8, 5, 4, 1, 0), py = _mm512_set_epi64(15, 14, 11, 10, 7, 6, 3, 2);
        bx = _mm512_set_epi64(11, 10, 3, 2, 9, 8, 1, 0), by = _mm512_set_epi64(15, 14, 7, 6, 13, 12, 5, 4);
        break;
    default:
        px = _mm512_set_epi64(14, 12, 10, 8, 6, 4, 2, 0), py = _mm512_set_epi64(15, 13, 11, 9, 7, 5, 3, 1);
        bx = _mm512_set_epi64(11, 3, 10, 2, 9, 1, 8, 0), by = _mm512_set_epi64(15, 7, 14, 6, 13, 5, 12, 4);
        break;
    }
    /* twiddle of x lane c: index i = c mod h (both halves of the x vector hold 4 pairs each) */
    size_t h = (size_t)1 << l;
    const czk_fr *T = tw + (h - 1);
    czk_fr t8[8], mone;
    czk_fr_neg(&mone, &CZK_FR_ONE);
    for (size_t c = 0; c < 8; c++) { /* inverse: T[h - i], and -1 for i = 0 (see tw8) */
        size_t i = c % h;
        t8[c] = !inv ? T[i] : i == 0 ? mone : T[h - i];
    }
    V w;
    czk__v8fr_loadu(&w, t8);
    for (size_t g = 0; g < ng; g += 2) {
        V x, y;
        for (int j = 0; j < 5; j++) {
            x.l[j] = _mm512_permutex2var_epi64(buf[g].l[j], px, buf[g + 1].l[j]);
            y.l[j] = _mm512_permutex2var_epi64(buf[g].l[j], py, buf[g + 1].l[j]);
        }
        bf(&x, &y, &w, inv, dif);
        for (int j = 0; j < 5; j++) {
            buf[g].l[j] = _mm512_permutex2var_epi64(x.l[j], bx, y.l[j]);
            buf[g + 1].l[j] = _mm512_permutex2var_epi64(x.l[j], by, y.l[j]);
        }
    }
}

static inline size_t rev_bits(size_t x, unsigned bits)
{
    size_t r = 0;
    for (unsigned i = 0; i < bits; i++) r |= ((x >> i) & 1) << (bits - 1 - i);
    return r;
}

/* a_j <- a_j c s^rev_k(j) on a bit-reversed vector (ntt.c's
 * distribute_powers_bitrev), applied block by block: for j = jb 2^lb + i,
 * rev_k(j) = rev_lb(i) 2^(k-lb) + rev_(k-lb)(jb), so the factor is
 * G[i] h(jb) with G[i] = (s^(2^(k-lb)))^rev_lb(i) (a table of one block,
 * in lanes) and h(jb) = c s^rev_(k-lb)(jb). */
typedef struct scale {
    V G[((size_t)1 << CZK__NTT_IFMA_BLOCK_LOG) / 8];
    czk_fr s, c;
    unsigned k, lb;
} scale;

static void scale_init(scale *sc, unsigned k, unsigned lb, const czk_fr *s, const czk_fr *c)
{
    size_t B = (size_t)1 << lb;
    czk_fr S = *s, t[8];
    for (unsigned i = lb; i < k; i++) czk_fr_sqr(&S, &S);
    for (size_t g = 0; g < B / 8; g++) {
        for (size_t i = 0; i < 8; i++) czk_fr_pow_u64(&t[i], &S, rev_bits(8 * g + i, lb));
        czk__v8fr_loadu(&sc->G[g], t);
    }
    sc->s = *s;
    sc->c = *c;
    sc->k = k;
    sc->lb = lb;
}

static void block_scale(V *buf, size_t ng, const scale *sc, size_t jb)
{
    czk_fr h;
    V hv, t;
    czk_fr_pow_u64(&h, &sc->s, rev_bits(jb, sc->k - sc->lb));
    czk__fr_mul(&h, &h, &sc->c);
    czk__v8fr_set1(&hv, &h);
    for (size_t g = 0; g < ng; g++) {
        czk__v8fr_mul(&t, &sc->G[g], &hv);
        czk__v8fr_mul(&buf[g], &buf[g], &t);
    }
}

/* Block jb of 2^lb elements (4 <= lb <= BLOCK_LOG) at a: DIF levels lb - 1 .. 0
 * (dif >= 0; inverse when dif = 1), then the scaling sc (when not NULL), then
 * DIT levels 0 .. lb - 1 (dit >= 0; inverse when dit = 1), in lanes on the stack. */
static void block_v(czk_fr *a, unsigned lb, const czk_fr *tw, int dif, const scale *sc, int dit, size_t jb)
{
    V buf[((size_t)1 << CZK__NTT_IFMA_BLOCK_LOG) / 8];
    size_t ng = ((size_t)1 << lb) / 8;
    for (size_t g = 0; g < ng; g++) czk__v8fr_loadu(&buf[g], a + 8 * g);
    if (dif >= 0) {
        for (unsigned l = lb; l-- > 3;) level_v(buf, ng, l, tw, dif, 1);
        for (unsigned l = 3; l-- > 0;) level_small(buf, ng, l, tw, dif, 1);
    }
    if (sc) block_scale(buf, ng, sc, jb);
    if (dit >= 0) {
        for (unsigned l = 0; l < 3; l++) level_small(buf, ng, l, tw, dit, 0);
        for (unsigned l = 3; l < lb; l++) level_v(buf, ng, l, tw, dit, 0);
    }
    for (size_t g = 0; g < ng; g++) czk__v8fr_storeu(a + 8 * g, &buf[g]);
}

/* One tile of a pass over levels [l_lo, l_lo + s) (see ntt_kernel.h's tile):
 * row r is the 16 elements at base + j0 + r 2^l_lo, two vectors. */
static void tile_v(V *buf, czk_fr *a, size_t base, size_t j0, unsigned l_lo, unsigned s, const czk_fr *tw, int inv,
                   int dif)
{
    size_t R = (size_t)1 << s, hl = (size_t)1 << l_lo;
    for (size_t r = 0; r < R; r++) {
        czk__v8fr_loadu(&buf[2 * r], a + base + j0 + r * hl);
        czk__v8fr_loadu(&buf[2 * r + 1], a + base + j0 + r * hl + 8);
    }
    for (unsigned t = 0; t < s; t++) {
        unsigned lv = dif ? l_lo + s - 1 - t : l_lo + t;
        size_t hr = (size_t)1 << (lv - l_lo), h = (size_t)1 << lv;
        const czk_fr *T = tw + (h - 1);
        for (size_t r = 0; r < R; r++) {
            if (r & hr) continue;
            size_t i0 = j0 + (r & (hr - 1)) * hl;
            for (size_t v = 0; v < 2; v++) {
                V w;
                tw8(&w, T, h, i0 + 8 * v, inv);
                bf(&buf[2 * r + v], &buf[2 * (r + hr) + v], &w, inv, dif);
            }
        }
    }
    for (size_t r = 0; r < R; r++) {
        czk__v8fr_storeu(a + base + j0 + r * hl, &buf[2 * r]);
        czk__v8fr_storeu(a + base + j0 + r * hl + 8, &buf[2 * r + 1]);
    }
}

static void pass_v(czk_fr *a, unsigned k, unsigned l_lo, unsigned s, const czk_fr *tw, int inv, int dif, int nt)
{
    size_t hl = (size_t)1 << l_lo, span = (size_t)1 << (l_lo + s);
    size_t nblk = ((size_t)1 << k) / span, ncol = hl / NTT_COLS, units = nblk * ncol;
#pragma omp parallel num_threads(nt) if (nt > 1)
    {
        V buf[2 << 7]; /* 2^7 rows of two vectors: 80 KiB */
#pragma omp for schedule(static)
        for (size_t u = 0; u < units; u++) {
            size_t jc = u / nblk, blk = u % nblk;
            tile_v(buf, a, blk * span, jc * NTT_COLS, l_lo, s, tw, inv, dif);
        }
    }
}

static unsigned vblock(unsigned b) { return b < CZK__NTT_IFMA_BLOCK_LOG ? b : CZK__NTT_IFMA_BLOCK_LOG; }

/* DIF top passes (levels k - 1 .. b), from the top. */
static void dif_passes(czk_fr *a, unsigned k, const czk_fr *tw, int inv, unsigned b, unsigned pmax, int nt)
{
    unsigned top = k - b, npass = (top + pmax - 1) / pmax, hi = k;
    for (unsigned p = 0; p < npass; p++) {
        unsigned s = (hi - b) / (npass - p);
        pass_v(a, k, hi - s, s, tw, inv, 1, nt);
        hi -= s;
    }
}

/* DIT top passes (levels b .. k - 1), from the bottom. */
static void dit_passes(czk_fr *a, unsigned k, const czk_fr *tw, int inv, unsigned b, unsigned pmax, int nt)
{
    unsigned top = k - b, npass = (top + pmax - 1) / pmax, lo = b;
    for (unsigned p = 0; p < npass; p++) {
        unsigned s = (k - lo) / (npass - p);
        pass_v(a, k, lo, s, tw, inv, 0, nt);
        lo += s;
    }
}

/* The blocks, each through block_v(dif, sc, dit). */
static void blocks(czk_fr *a, unsigned k, unsigned b, const czk_fr *tw, int dif, const scale *sc, int dit, int nt)
{
    size_t nblk = (size_t)1 << (k - b), bl = (size_t)1 << b;
#pragma omp parallel for schedule(static) num_threads(nt) if (nt > 1)
    for (size_t j = 0; j < nblk; j++) block_v(a + j * bl, b, tw, dif, sc, dit, j);
}

void czk__ntt_dif_ifma(czk_fr *a, unsigned k, const czk_fr *tw, int inv, unsigned b, unsigned pmax, int nt)
{
    czk__ntt_dif_scale_ifma(a, k, tw, inv, b, pmax, nt, NULL, NULL);
}

void czk__ntt_dit_ifma(czk_fr *a, unsigned k, const czk_fr *tw, int inv, unsigned b, unsigned pmax, int nt)
{
    b = vblock(b);
    if (pmax > 7) pmax = 7;
    if (k <= b) {
        block_v(a, k, tw, -1, NULL, inv, 0);
        return;
    }
    blocks(a, k, b, tw, -1, NULL, inv, nt);
    dit_passes(a, k, tw, inv, b, pmax, nt);
}

void czk__ntt_dif_scale_ifma(czk_fr *a, unsigned k, const czk_fr *tw, int inv, unsigned b, unsigned pmax, int nt,
                             const czk_fr *s, const czk_fr *c)
{
    b = vblock(b);
    if (pmax > 7) pmax = 7;
    unsigned lb = k < b ? k : b;
    scale *sc = NULL, own;
    if (s) {
        scale_init(&own, k, lb, s, c);
        sc = &own;
    }
    if (k <= b) {
        block_v(a, k, tw, inv, sc, -1, 0);
        return;
    }
    dif_passes(a, k, tw, inv, b, pmax, nt);
    blocks(a, k, b, tw, inv, sc, -1, nt);
}

void czk__ntt_coset_ifma(czk_fr *a, unsigned k, const czk_fr *tw, unsigned b, unsigned pmax, int nt, const czk_fr *s,
                         const czk_fr *c)
{
    b = vblock(b);
    if (pmax > 7) pmax = 7;
    unsigned lb = k < b ? k : b;
    scale sc;
    scale_init(&sc, k, lb, s, c);
    if (k <= b) {
        block_v(a, k, tw, 1, &sc, 0, 0);
        return;
    }
    dif_passes(a, k, tw, 1, b, pmax, nt);
    blocks(a, k, b, tw, 1, &sc, 0, nt);
    dit_passes(a, k, tw, 0, b, pmax, nt);
}

void czk__ntt_h_pointwise_ifma(czk_fr *a, const czk_fr *b, const czk_fr *c, const czk_fr *z, size_t m, int nt)
{
    V zv;
    czk__v8fr_set1(&zv, z);
#pragma omp parallel for schedule(static) num_threads(nt) if (nt > 1)
    for (size_t i = 0; i < m; i += 8) {
        V x, y, w;
        czk__v8fr_loadu(&x, a + i);
        czk__v8fr_loadu(&y, b + i);
        czk__v8fr_loadu(&w, c + i);
        czk__v8fr_mul(&x, &x, &y);
        czk__v8fr_sub(&x, &x, &w);
        czk__v8fr_mul(&x, &x, &zv);
        czk__v8fr_storeu(a + i, &x);
    }
}

#else

void czk__ntt_dif_scale_ifma(czk_fr *a, unsigned k, const czk_fr *tw, int inv, unsigned b, unsigned pmax, int nt,
                             const czk_fr *s, const czk_fr *c)
{
    (void)a, (void)k, (void)tw, (void)inv, (void)b, (void)pmax, (void)nt, (void)s, (void)c;
    abort();
}

void czk__ntt_coset_ifma(czk_fr *a, unsigned k, const czk_fr *tw, unsigned b, unsigned pmax, int nt, const czk_fr *s,
                         const czk_fr *c)
{
    (void)a, (void)k, (void)tw, (void)b, (void)pmax, (void)nt, (void)s, (void)c;
    abort();
}

void czk__ntt_h_pointwise_ifma(czk_fr *a, const czk_fr *b, const czk_fr *c, const czk_fr *z, size_t m, int nt)
{
    (void)a, (void)b, (void)c, (void)z, (void)m, (void)nt;
    abort();
}

void czk__ntt_dif_ifma(czk_fr *a, unsigned k, const czk_fr *tw, int inv, unsigned b, unsigned pmax, int nt)
{
    (void)a, (void)k, (void)tw, (void)inv, (void)b, (void)pmax, (void)nt;
    abort();
}

void czk__ntt_dit_ifma(czk_fr *a, unsigned k, const czk_fr *tw, int inv, unsigned b, unsigned pmax, int nt)
{
    (void)a, (void)k, (void)tw, (void)inv, (void)b, (void)pmax, (void)nt;
    abort();
}

#endif
