/* czk ec — point encodings (the zcash / bellperson format), written once in
 * encoding_tmpl.h for both groups.
 *
 * Big-endian coordinates, Fp2 written c1 then c0. The three top bits of
 * byte 0 are flags: 0x80 compressed, 0x40 infinity (every other bit zero),
 * 0x20 (compressed finite points only) y is the lexicographically larger root.
 */
#include <stdio.h>
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
 * it is the first one. The coordinate is named `coord` `part` ("x" "", "y"
 * ".c1"): formatted only for the error, since parameter files decode
 * hundreds of millions of points through here. */
static czk_status read_fp(czk_fp *r, const char *what, const char *coord, const char *part, const uint8_t *in,
                          size_t off)
{
    uint8_t buf[CZK_FP_BYTES];
    memcpy(buf, in + off, CZK_FP_BYTES);
    if (off == 0) buf[0] &= (uint8_t)~FLAG_MASK;
    if (czk_fp_from_bytes(r, buf) != CZK_OK)
        return czk_error(CZK_ERR_NOT_CANONICAL, "%s: coordinate %s%s (bytes %zu..%zu) is not below p",
                         what, coord, part, off, off + CZK_FP_BYTES - 1);
    return CZK_OK;
}

/* ---- coordinates: an Fp element, or an Fp2 element as c1 then c0 ---------- */

static void write_fe_g1(uint8_t *out, const czk_fp *a) { czk_fp_to_bytes(out, a); }

static czk_status read_fe_g1(czk_fp *r, const char *what, const char *coord, const uint8_t *in, size_t off)
{
    return read_fp(r, what, coord, "", in, off);
}

static void write_fe_g2(uint8_t *out, const czk_fp2 *a)
{
    czk_fp_to_bytes(out, &a->c1);
    czk_fp_to_bytes(out + CZK_FP_BYTES, &a->c0);
}

static czk_status read_fe_g2(czk_fp2 *r, const char *what, const char *coord, const uint8_t *in, size_t off)
{
    CZK_TRY(read_fp(&r->c1, what, coord, ".c1", in, off));
    return read_fp(&r->c0, what, coord, ".c0", in, off + CZK_FP_BYTES);
}

#include "ec/group_g1.h"
#include "ec/encoding_tmpl.h"
#include "ec/group_end.h"

#include "ec/group_g2.h"
#include "ec/encoding_tmpl.h"
#include "ec/group_end.h"
