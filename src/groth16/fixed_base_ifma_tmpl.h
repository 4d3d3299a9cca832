/* One chunk of fixed-base multiplications, 8 points at a time in the lanes
 * of AVX-512 IFMA vectors (fixed_base.h); written once over the coordinate
 * field and included by fixed_base_ifma.c with
 *   FBV_CHUNK FBV_SCRATCH     the names of the chunk function and its scratch size
 *   AFFT                      the affine point type (x, y, inf)
 *   VFE SFE                   the 8-lane and the scalar field types
 *   VFE_GATHER VFE_MUL VFE_SQR VFE_SUB VFE_SUB_LAZY VFE_CNEG VFE_BLEND
 *   VFE_STORE VFE_LOAD VFE_SET1 SFE_MUL SFE_INV_VAR SFE_SET_ONE
 *   ENTRY                     bytes of a table entry (x then y)
 *   COORD                     bytes of one coordinate
 *
 * The sums stay in the lanes for the whole chunk: group g (points 8 g ..
 * 8 g + 7) has its x and y in X[g], Y[g], so a window's additions gather only
 * the table entries (x in pass 1, kept for pass 2; y in pass 2) and nothing
 * is scattered until the chunk is done. Per window, pass 1 forms
 * den = x_entry - x_sum and the lane-wise prefix products pre[g] =
 * pre[g - 1] den; the 8 lane products share one inversion; pass 2 walks the
 * groups backwards (1/den = inv pre[g - 1], inv <- inv den) and applies
 * the chord step of ec/ec_formulas_tmpl.h's aff_add_inv to the lanes that
 * add. A lane whose digit is 0 carries den = 1 and keeps its sum; a lane
 * meeting its first non-zero digit takes the entry (copied, y negated for a
 * negative digit). While pass 2 handles group g, the entries group g needs
 * in the next window are prefetched. The results are the scalar path's bit
 * for bit (affine coordinates are unique). */

size_t FBV_SCRATCH(size_t n)
{
    size_t G = (n + 7) / 8;
    return G * 4 * sizeof(VFE) + ((3 * G + 63) & ~(size_t)63);
}

void FBV_CHUNK(AFFT *out, const int32_t *dig, size_t stride, const uint8_t *flip, size_t n, const czk__fb_table *tb,
               void *scratch)
{
    const size_t G = (n + 7) / 8;
    VFE *X = scratch, *Y = X + G, *XS = Y + G, *PRE = XS + G;
    uint8_t *run = (uint8_t *)(PRE + G), *nzm = run + G, *negm = nzm + G;
    memset(X, 0, 2 * G * sizeof(VFE));
    memset(run, 0, G);
    const size_t rowbytes = tb->per * ENTRY;
    VFE one;
    SFE s1;
    SFE_SET_ONE(&s1);
    VFE_SET1(&one, &s1);
    for (unsigned w = 0; w < tb->nwin; w++) {
        const char *row = (const char *)tb->t + (size_t)w * rowbytes;
        const int32_t *dw = dig + (size_t)w * stride;
        const int ahead = w + 1 < tb->nwin;
        /* pass 1: gather x of the entries, prefix products of the denominators */
        int adds = 0;
        for (size_t g = 0; g < G; g++) {
            __mmask8 nz, ng;
            __m512i addr = fbv_addr(dw + 8 * g, row, ENTRY, &nz, &ng);
            nzm[g] = nz, negm[g] = ng;
            VFE_GATHER(&XS[g], addr, 0, nz);
            __mmask8 add = nz & run[g];
            adds |= add;
            VFE den;
            if (g) {
                VFE_SUB_LAZY(&den, &XS[g], &X[g]);
                if (add != 0xff) VFE_BLEND(&den, &one, &den, add);
                VFE_MUL(&PRE[g], &den, &PRE[g - 1]);
            } else { /* PRE[0] is a second operand later: reduced */
                VFE_SUB(&den, &XS[0], &X[0]);
                if (add != 0xff) VFE_BLEND(&den, &one, &den, add);
                PRE[0] = den;
            }
        }
        VFE inv;
        if (adds) { /* invert the 8 lane products with one inversion */
            SFE v[8], c[8], s;
            VFE_STORE(v, &PRE[G - 1]);
            c[0] = v[0];
            for (int i = 1; i < 8; i++) SFE_MUL(&c[i], &c[i - 1], &v[i]);
            SFE_INV_VAR(&s, &c[7]);
            for (int i = 7; i > 0; i--) {
                SFE_MUL(&c[i], &s, &c[i - 1]);
                SFE_MUL(&s, &s, &v[i]);
            }
            c[0] = s;
            VFE_LOAD(&inv, c);
        }
        /* pass 2, backwards: the chord steps; copies; the next window's prefetches */
        for (size_t g = G; g-- > 0;) {
            __mmask8 nz = nzm[g], ng = negm[g], add = nz & run[g], cp = nz & (__mmask8)~run[g];
            __m512i addr = fbv_addr(dw + 8 * g, row, ENTRY, &nz, &ng);
            VFE ys, den, di, t, l, x3;
            VFE_GATHER(&ys, addr, COORD, nz);
            if (ng) VFE_CNEG(&ys, &ys, ng);
            if (add) {
                if (g) {
                    VFE_SUB_LAZY(&den, &XS[g], &X[g]);
                    if (add != 0xff) VFE_BLEND(&den, &one, &den, add);
                    VFE_MUL(&di, &inv, &PRE[g - 1]);
                    VFE_MUL(&inv, &den, &inv);
                } else {
                    di = inv;
                }
                VFE_SUB_LAZY(&t, &ys, &Y[g]);
                VFE_MUL(&l, &t, &di); /* l = (y2 - y1) / (x2 - x1) */
                VFE_SQR(&x3, &l);
                VFE_SUB(&x3, &x3, &X[g]);
                VFE_SUB(&x3, &x3, &XS[g]); /* x3 = l^2 - x1 - x2 */
                VFE_SUB_LAZY(&t, &X[g], &x3);
                VFE_MUL(&t, &t, &l);
                VFE_SUB(&t, &t, &Y[g]); /* y3 = l (x1 - x3) - y1 */
                VFE_BLEND(&X[g], &X[g], &x3, add);
                VFE_BLEND(&Y[g], &Y[g], &t, add);
            }
            if (cp) {
                VFE_BLEND(&X[g], &X[g], &XS[g], cp);
                VFE_BLEND(&Y[g], &Y[g], &ys, cp);
            }
            run[g] |= nz;
            if (ahead) {
                __mmask8 nzn, ngn;
                uint64_t a[8];
                _mm512_storeu_si512(a, fbv_addr(dw + stride + 8 * g, row + rowbytes, ENTRY, &nzn, &ngn));
                for (int i = 0; i < 8; i++)
                    if ((nzn >> i) & 1)
                        for (size_t off = 0; off < ENTRY; off += 64) __builtin_prefetch((const char *)a[i] + off);
            }
        }
    }
    for (size_t g = 0; g < G; g++) {
        __mmask8 fl = 0;
        for (int i = 0; i < 8 && 8 * g + i < n; i++) fl |= (__mmask8)((flip[8 * g + i] & 1) << i);
        if (fl) VFE_CNEG(&Y[g], &Y[g], fl);
        SFE x[8], y[8];
        VFE_STORE(x, &X[g]);
        VFE_STORE(y, &Y[g]);
        for (int i = 0; i < 8 && 8 * g + i < n; i++) {
            AFFT *o = &out[8 * g + i];
            if ((run[g] >> i) & 1) {
                o->x = x[i], o->y = y[i], o->inf = 0;
            } else {
                memset(o, 0, sizeof *o);
                o->inf = 1;
            }
        }
    }
}
