/* czk ec — the 8-lane batch-affine kernel of ec/ec_batch.h, written once over
 * the coordinate field; included by ec_batch_ifma.c with
 *   BATCH_NAME            the function's name
 *   VFE, SFE              the 8-lane and the scalar field types
 *   VFE_GATHER(r, addr, off, k) / VFE_SCATTER(addr, off, a, k)
 *   VFE_MUL VFE_SQR VFE_SUB VFE_BLEND VFE_LOAD VFE_STORE VFE_SET1
 *   VFE_SUB_LAZY(r, a, b) / VFE_NEGSUB_LAZY(r, a, b): a - b / -a - b as a
 *     first operand of VFE_MUL only (its second operand reduced); the
 *     reducing VFE_SUB (and a negation) where the field has no lazy form
 *   SFE_MUL SFE_INV_VAR SFE_SET_ONE
 *   COORD                 bytes of one coordinate (y follows x)
 *
 * Pass 1, groups of 8 additions (lane i of group g is addition 8 g + i):
 *   den = x_src - x_dst, pre[g] = pre[g - 1] den, lane by lane.
 * The 8 lane products are inverted together (scalar Montgomery trick).
 * Pass 2, from the last group: 1/den = inv pre[g - 1], inv <- inv den, then
 * the chord step of ec_formulas_tmpl.h's aff_add_inv. Lanes past n carry
 * den = 1 and are neither read nor written. */

/* Lanes of group g that exist. */
static inline __attribute__((always_inline)) __mmask8 BATCH_LANES(size_t n, size_t g)
{
    size_t left = n - 8 * g;
    return left >= 8 ? (__mmask8)0xff : (__mmask8)((1u << left) - 1);
}

void BATCH_NAME(const uintptr_t *dst, const uintptr_t *src, const uint8_t *neg, size_t n, void *scratch)
{
    if (n == 0) return;
    VFE *pre = scratch, one, den, xs, xd, ys, yd, l, t, inv, di;
    size_t G = (n + 7) / 8;
    SFE s;
    SFE_SET_ONE(&s);
    VFE_SET1(&one, &s);
    for (size_t g = 0; g < G; g++) {
        __mmask8 k = BATCH_LANES(n, g);
        __m512i ad = _mm512_maskz_loadu_epi64(k, dst + 8 * g), as = _mm512_maskz_loadu_epi64(k, src + 8 * g);
        VFE_GATHER(&xs, as, 0, k);
        VFE_GATHER(&xd, ad, 0, k);
        if (g) {
            VFE_SUB_LAZY(&den, &xs, &xd);
            if (k != 0xff) VFE_BLEND(&den, &one, &den, k);
            VFE_MUL(&pre[g], &den, &pre[g - 1]);
        } else { /* pre[0] itself is a multiplication's second operand later: reduced */
            VFE_SUB(&den, &xs, &xd);
            if (k != 0xff) VFE_BLEND(&den, &one, &den, k);
            pre[0] = den;
        }
    }
    SFE v[8], c[8];
    VFE_STORE(v, &pre[G - 1]);
    c[0] = v[0];
    for (int i = 1; i < 8; i++) SFE_MUL(&c[i], &c[i - 1], &v[i]);
    SFE_INV_VAR(&s, &c[7]);
    for (int i = 7; i > 0; i--) { /* c[i] <- 1 / v[i], s <- 1 / (v[0] ... v[i-1]) */
        SFE_MUL(&c[i], &s, &c[i - 1]);
        SFE_MUL(&s, &s, &v[i]);
    }
    c[0] = s;
    VFE_LOAD(&inv, c);
    for (size_t g = G; g-- > 0;) {
        __mmask8 k = BATCH_LANES(n, g), ng = 0;
        __m512i ad = _mm512_maskz_loadu_epi64(k, dst + 8 * g), as = _mm512_maskz_loadu_epi64(k, src + 8 * g);
        for (unsigned i = 0; i < 8; i++)
            if (((k >> i) & 1) && neg[8 * g + i]) ng |= (__mmask8)(1u << i);
        VFE_GATHER(&xs, as, 0, k);
        VFE_GATHER(&xd, ad, 0, k);
        VFE_GATHER(&ys, as, COORD, k);
        VFE_GATHER(&yd, ad, COORD, k);
        if (g) {
            VFE_SUB_LAZY(&den, &xs, &xd);
            if (k != 0xff) VFE_BLEND(&den, &one, &den, k);
            VFE_MUL(&di, &inv, &pre[g - 1]);
            VFE_MUL(&inv, &den, &inv);
        } else {
            di = inv;
        }
        if (ng) { /* y2 - y1, or -y2 - y1 in the lanes of ng */
            VFE l2;
            VFE_SUB_LAZY(&t, &ys, &yd);
            VFE_NEGSUB_LAZY(&l2, &ys, &yd);
            VFE_BLEND(&t, &t, &l2, ng);
        } else {
            VFE_SUB_LAZY(&t, &ys, &yd);
        }
        VFE_MUL(&l, &t, &di);  /* l = (y2 - y1) / (x2 - x1) */
        VFE_SQR(&t, &l);
        VFE_SUB(&t, &t, &xd);
        VFE_SUB(&t, &t, &xs);  /* x3 = l^2 - x1 - x2 */
        VFE_SUB_LAZY(&xs, &xd, &t);
        VFE_MUL(&xs, &xs, &l);
        VFE_SUB(&ys, &xs, &yd); /* y3 = l (x1 - x3) - y1 */
        VFE_SCATTER(ad, 0, &t, k);
        VFE_SCATTER(ad, COORD, &ys, k);
    }
}
