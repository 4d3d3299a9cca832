/* czk ec — the encodings of one group, written once over the group
 * descriptor (ec/group.h) and included by encoding.c for G1 and G2 (no
 * include guard). encoding.c defines before it, per group, G_LOCAL(write_fe)
 * (one coordinate, big-endian) and G_LOCAL(read_fe) (the same, rejecting
 * values >= p with a message naming the coordinate and its bytes). */

void G_FN(compress)(uint8_t out[G_COMPRESSED], const AFF *a)
{
    if (a->inf) {
        memset(out, 0, G_COMPRESSED);
        out[0] = FLAG_C | FLAG_I;
        return;
    }
    G_LOCAL(write_fe)(out, &a->x);
    out[0] |= FLAG_C;
    if (FE_IS_LEX_LARGEST(&a->y)) out[0] |= FLAG_S;
}

void G_FN(serialize)(uint8_t out[G_UNCOMPRESSED], const AFF *a)
{
    if (a->inf) {
        memset(out, 0, G_UNCOMPRESSED);
        out[0] = FLAG_I;
        return;
    }
    G_LOCAL(write_fe)(out, &a->x);
    G_LOCAL(write_fe)(out + G_COMPRESSED, &a->y);
}

/* y = +-sqrt(x^3 + b), the root the sort flag names. */
czk_status G_FN(decompress)(AFF *r, const uint8_t in[G_COMPRESSED])
{
    const char *what = G_TITLE " compressed point";
    int inf = 0, sort = 0;
    CZK_TRY(check_flags(what, in, G_COMPRESSED, 1, &inf, &sort));
    if (inf) {
        G_FN(affine_set_inf)(r);
        return CZK_OK;
    }
    AFF p;
    CZK_TRY(G_LOCAL(read_fe)(&p.x, what, "x", in, 0));
    FE y2, t, b;
    FE_SQR(&t, &p.x);
    FE_MUL(&y2, &t, &p.x);
    FE_SET_B(&b);
    FE_ADD(&y2, &y2, &b);
    if (!FE_SQRT(&p.y, &y2))
        return czk_error(CZK_ERR_NOT_ON_CURVE, "%s: x^3 + " G_B_STR " is not a square (no point with this x)", what);
    if (FE_IS_LEX_LARGEST(&p.y) != sort) FE_NEG(&p.y, &p.y);
    p.inf = 0;
    if (!G_FN(affine_in_subgroup)(&p))
        return czk_error(CZK_ERR_NOT_IN_SUBGROUP, "%s: not in the prime-order subgroup", what);
    *r = p;
    return CZK_OK;
}

/* check: 2 curve and subgroup, 1 curve, 0 the encoding only */
static czk_status G_LOCAL(deserialize)(AFF *r, const uint8_t in[G_UNCOMPRESSED], int check)
{
    const char *what = G_TITLE " uncompressed point";
    int inf = 0, sort = 0;
    CZK_TRY(check_flags(what, in, G_UNCOMPRESSED, 0, &inf, &sort));
    if (inf) {
        G_FN(affine_set_inf)(r);
        return CZK_OK;
    }
    AFF p;
    CZK_TRY(G_LOCAL(read_fe)(&p.x, what, "x", in, 0));
    CZK_TRY(G_LOCAL(read_fe)(&p.y, what, "y", in, G_COMPRESSED));
    p.inf = 0;
    if (check >= 1 && !G_FN(affine_is_on_curve)(&p))
        return czk_error(CZK_ERR_NOT_ON_CURVE, "%s: (x, y) is not on y^2 = x^3 + " G_B_STR, what);
    if (check >= 2 && !G_FN(affine_in_subgroup)(&p))
        return czk_error(CZK_ERR_NOT_IN_SUBGROUP, "%s: not in the prime-order subgroup", what);
    *r = p;
    return CZK_OK;
}

czk_status G_FN(deserialize)(AFF *r, const uint8_t in[G_UNCOMPRESSED])
{
    return G_LOCAL(deserialize)(r, in, 2);
}

czk_status G_FN(deserialize_unchecked_subgroup)(AFF *r, const uint8_t in[G_UNCOMPRESSED])
{
    return G_LOCAL(deserialize)(r, in, 1);
}

czk_status G_FN(deserialize_trusted)(AFF *r, const uint8_t in[G_UNCOMPRESSED])
{
    return G_LOCAL(deserialize)(r, in, 0);
}
