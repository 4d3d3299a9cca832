/* czk ec — point encodings of FACTS.md §1 (the zcash / bellperson format).
 *
 * Big-endian coordinates, Fp2 written c1 then c0. The three top bits of
 * byte 0 are flags: 0x80 compressed, 0x40 infinity (every other bit zero),
 * 0x20 (compressed finite points only) y is the lexicographically larger root.
 */
#include <string.h>

#include "czk/ec.h"

#define FLAG_C 0x80
#define FLAG_I 0x40
#define FLAG_S 0x20
#define FLAG_MASK 0xe0

/* All bytes zero after clearing the flag bits of byte 0. */
static int rest_is_zero(const uint8_t *in, size_t n)
{
    uint8_t acc = in[0] & (uint8_t)~FLAG_MASK;
    for (size_t i = 1; i < n; i++) acc |= in[i];
    return acc == 0;
}

/* Shared flag validation. Returns CZK_OK and sets *inf, *sort. */
static czk_status check_flags(const char *what, const uint8_t *in, size_t n, int compressed,
                              int *inf, int *sort)
{
    uint8_t f = in[0] & FLAG_MASK;
    int c = (f & FLAG_C) != 0, i = (f & FLAG_I) != 0, s = (f & FLAG_S) != 0;
    if (c != compressed)
        return czk_error(CZK_ERR_FORMAT,
                         "%s: compression flag (bit 7 of byte 0) is %d in a%s encoding of %zu bytes",
                         what, c, compressed ? " compressed" : "n uncompressed", n);
    if (i) {
        if (s)
            return czk_error(CZK_ERR_FORMAT,
                             "%s: infinity encoding with the sort flag (bit 5 of byte 0) set", what);
        if (!rest_is_zero(in, n))
            return czk_error(CZK_ERR_FORMAT, "%s: infinity encoding with non-zero coordinate bytes",
                             what);
    } else if (s && !compressed) {
        return czk_error(CZK_ERR_FORMAT,
                         "%s: sort flag (bit 5 of byte 0) set in an uncompressed encoding", what);
    }
    *inf = i;
    *sort = s;
    return CZK_OK;
}

/* Parse a 48-byte big-endian coordinate at `off`, clearing the flag bits when
 * it is the first one. */
static czk_status read_fp(czk_fp *r, const char *what, const char *coord, const uint8_t *in,
                          size_t off)
{
    uint8_t buf[CZK_FP_BYTES];
    memcpy(buf, in + off, CZK_FP_BYTES);
    if (off == 0) buf[0] &= (uint8_t)~FLAG_MASK;
    if (czk_fp_from_bytes(r, buf) != CZK_OK)
        return czk_error(CZK_ERR_NOT_CANONICAL, "%s: coordinate %s (bytes %zu..%zu) is not below p",
                         what, coord, off, off + CZK_FP_BYTES - 1);
    return CZK_OK;
}

/* ---- G1 ------------------------------------------------------------------- */

void czk_g1_compress(uint8_t out[CZK_G1_COMPRESSED], const czk_g1_affine *a)
{
    if (a->inf) {
        memset(out, 0, CZK_G1_COMPRESSED);
        out[0] = FLAG_C | FLAG_I;
        return;
    }
    czk_fp_to_bytes(out, &a->x);
    out[0] |= FLAG_C;
    if (czk_fp_is_lex_largest(&a->y)) out[0] |= FLAG_S;
}

void czk_g1_serialize(uint8_t out[CZK_G1_UNCOMPRESSED], const czk_g1_affine *a)
{
    if (a->inf) {
        memset(out, 0, CZK_G1_UNCOMPRESSED);
        out[0] = FLAG_I;
        return;
    }
    czk_fp_to_bytes(out, &a->x);
    czk_fp_to_bytes(out + CZK_FP_BYTES, &a->y);
}

czk_status czk_g1_decompress(czk_g1_affine *r, const uint8_t in[CZK_G1_COMPRESSED])
{
    const char *what = "G1 compressed point";
    int inf = 0, sort = 0;
    CZK_TRY(check_flags(what, in, CZK_G1_COMPRESSED, 1, &inf, &sort));
    if (inf) {
        czk_g1_affine_set_inf(r);
        return CZK_OK;
    }
    czk_g1_affine p;
    CZK_TRY(read_fp(&p.x, what, "x", in, 0));
    czk_fp y2, t, b;
    czk_fp_sqr(&t, &p.x);
    czk_fp_mul(&y2, &t, &p.x);
    czk_fp_from_u64(&b, 4);
    czk_fp_add(&y2, &y2, &b);
    if (!czk_fp_sqrt(&p.y, &y2))
        return czk_error(CZK_ERR_NOT_ON_CURVE, "%s: x^3 + 4 is not a square (no point with this x)",
                         what);
    if (czk_fp_is_lex_largest(&p.y) != sort) czk_fp_neg(&p.y, &p.y);
    p.inf = 0;
    if (!czk_g1_affine_in_subgroup(&p))
        return czk_error(CZK_ERR_NOT_IN_SUBGROUP, "%s: not in the prime-order subgroup", what);
    *r = p;
    return CZK_OK;
}

static czk_status g1_deserialize(czk_g1_affine *r, const uint8_t in[CZK_G1_UNCOMPRESSED],
                                 int check_subgroup)
{
    const char *what = "G1 uncompressed point";
    int inf = 0, sort = 0;
    CZK_TRY(check_flags(what, in, CZK_G1_UNCOMPRESSED, 0, &inf, &sort));
    if (inf) {
        czk_g1_affine_set_inf(r);
        return CZK_OK;
    }
    czk_g1_affine p;
    CZK_TRY(read_fp(&p.x, what, "x", in, 0));
    CZK_TRY(read_fp(&p.y, what, "y", in, CZK_FP_BYTES));
    p.inf = 0;
    if (!czk_g1_affine_is_on_curve(&p))
        return czk_error(CZK_ERR_NOT_ON_CURVE, "%s: (x, y) is not on y^2 = x^3 + 4", what);
    if (check_subgroup && !czk_g1_affine_in_subgroup(&p))
        return czk_error(CZK_ERR_NOT_IN_SUBGROUP, "%s: not in the prime-order subgroup", what);
    *r = p;
    return CZK_OK;
}

czk_status czk_g1_deserialize(czk_g1_affine *r, const uint8_t in[CZK_G1_UNCOMPRESSED])
{
    return g1_deserialize(r, in, 1);
}

czk_status czk_g1_deserialize_unchecked_subgroup(czk_g1_affine *r,
                                                 const uint8_t in[CZK_G1_UNCOMPRESSED])
{
    return g1_deserialize(r, in, 0);
}

/* ---- G2 ------------------------------------------------------------------- */

static void write_fp2(uint8_t *out, const czk_fp2 *a)
{
    czk_fp_to_bytes(out, &a->c1);
    czk_fp_to_bytes(out + CZK_FP_BYTES, &a->c0);
}

void czk_g2_compress(uint8_t out[CZK_G2_COMPRESSED], const czk_g2_affine *a)
{
    if (a->inf) {
        memset(out, 0, CZK_G2_COMPRESSED);
        out[0] = FLAG_C | FLAG_I;
        return;
    }
    write_fp2(out, &a->x);
    out[0] |= FLAG_C;
    if (czk_fp2_is_lex_largest(&a->y)) out[0] |= FLAG_S;
}

void czk_g2_serialize(uint8_t out[CZK_G2_UNCOMPRESSED], const czk_g2_affine *a)
{
    if (a->inf) {
        memset(out, 0, CZK_G2_UNCOMPRESSED);
        out[0] = FLAG_I;
        return;
    }
    write_fp2(out, &a->x);
    write_fp2(out + 2 * CZK_FP_BYTES, &a->y);
}

czk_status czk_g2_decompress(czk_g2_affine *r, const uint8_t in[CZK_G2_COMPRESSED])
{
    const char *what = "G2 compressed point";
    int inf = 0, sort = 0;
    CZK_TRY(check_flags(what, in, CZK_G2_COMPRESSED, 1, &inf, &sort));
    if (inf) {
        czk_g2_affine_set_inf(r);
        return CZK_OK;
    }
    czk_g2_affine p;
    CZK_TRY(read_fp(&p.x.c1, what, "x.c1", in, 0));
    CZK_TRY(read_fp(&p.x.c0, what, "x.c0", in, CZK_FP_BYTES));
    czk_fp2 y2, t, b;
    czk_fp2_sqr(&t, &p.x);
    czk_fp2_mul(&y2, &t, &p.x);
    /* b' = 4(u + 1) */
    czk_fp_from_u64(&b.c0, 4);
    b.c1 = b.c0;
    czk_fp2_add(&y2, &y2, &b);
    if (!czk_fp2_sqrt(&p.y, &y2))
        return czk_error(CZK_ERR_NOT_ON_CURVE,
                         "%s: x^3 + 4(u + 1) is not a square (no point with this x)", what);
    if (czk_fp2_is_lex_largest(&p.y) != sort) czk_fp2_neg(&p.y, &p.y);
    p.inf = 0;
    if (!czk_g2_affine_in_subgroup(&p))
        return czk_error(CZK_ERR_NOT_IN_SUBGROUP, "%s: not in the prime-order subgroup", what);
    *r = p;
    return CZK_OK;
}

static czk_status g2_deserialize(czk_g2_affine *r, const uint8_t in[CZK_G2_UNCOMPRESSED],
                                 int check_subgroup)
{
    const char *what = "G2 uncompressed point";
    int inf = 0, sort = 0;
    CZK_TRY(check_flags(what, in, CZK_G2_UNCOMPRESSED, 0, &inf, &sort));
    if (inf) {
        czk_g2_affine_set_inf(r);
        return CZK_OK;
    }
    czk_g2_affine p;
    CZK_TRY(read_fp(&p.x.c1, what, "x.c1", in, 0));
    CZK_TRY(read_fp(&p.x.c0, what, "x.c0", in, CZK_FP_BYTES));
    CZK_TRY(read_fp(&p.y.c1, what, "y.c1", in, 2 * CZK_FP_BYTES));
    CZK_TRY(read_fp(&p.y.c0, what, "y.c0", in, 3 * CZK_FP_BYTES));
    p.inf = 0;
    if (!czk_g2_affine_is_on_curve(&p))
        return czk_error(CZK_ERR_NOT_ON_CURVE, "%s: (x, y) is not on y^2 = x^3 + 4(u + 1)", what);
    if (check_subgroup && !czk_g2_affine_in_subgroup(&p))
        return czk_error(CZK_ERR_NOT_IN_SUBGROUP, "%s: not in the prime-order subgroup", what);
    *r = p;
    return CZK_OK;
}

czk_status czk_g2_deserialize(czk_g2_affine *r, const uint8_t in[CZK_G2_UNCOMPRESSED])
{
    return g2_deserialize(r, in, 1);
}

czk_status czk_g2_deserialize_unchecked_subgroup(czk_g2_affine *r,
                                                 const uint8_t in[CZK_G2_UNCOMPRESSED])
{
    return g2_deserialize(r, in, 0);
}
