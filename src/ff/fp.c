/* Fp, the BLS12-381 base field: everything but the hot operations. */
#include "czk/field.h"
#include "ff/field_impl.h"

#define T czk_fp
#define FN(x) czk_fp_##x
#define NAME "fp"
#define N CZK_FP_LIMBS
#define NBYTES CZK_FP_BYTES
#define NBITS 381
#define K(x) CZK__FP_##x
#define HMUL czk__fp_mul
#define HSQR czk__fp_sqr
#define HADD czk__fp_add
#define HSUB czk__fp_sub
#include "ff/field_tmpl.h"

const czk_fp CZK_FP_ZERO = {{0}};
const czk_fp CZK_FP_ONE = {CZK__FP_R1};
const uint64_t CZK_FP_MODULUS[CZK_FP_LIMBS] = CZK__FP_M;

static const uint64_t SQRT_EXP[N] = CZK__FP_SQRT_EXP;

czk_status czk_fp_from_bytes(czk_fp *r, const uint8_t in[CZK_FP_BYTES])
{
    return from_bytes_be(r, in, "czk_fp_from_bytes");
}

void czk_fp_to_bytes(uint8_t out[CZK_FP_BYTES], const czk_fp *a) { to_bytes_be(out, a); }

czk_status czk_fp_from_bytes_le(czk_fp *r, const uint8_t in[CZK_FP_BYTES])
{
    return from_bytes_le(r, in, "czk_fp_from_bytes_le");
}

void czk_fp_to_bytes_le(uint8_t out[CZK_FP_BYTES], const czk_fp *a) { to_bytes_le(out, a); }

void czk_fp_to_dec(char out[120], const czk_fp *a) { to_dec(out, a); }

/* p = 3 mod 4: a square a has the roots +-a^((p+1)/4). */
int czk_fp_sqrt(czk_fp *r, const czk_fp *a)
{
    czk_fp z, chk;
    czk_fp_pow(&z, a, SQRT_EXP, N);
    HSQR(&chk, &z);
    uint64_t ok = czk__limbs_eq_mask(chk.l, a->l, N);
    for (int i = 0; i < N; i++) r->l[i] = z.l[i] & ok;
    return (int)(ok & 1);
}

/* plain(a) > (p-1)/2 */
int czk_fp_is_lex_largest(const czk_fp *a)
{
    uint64_t v[N];
    czk_fp_to_limbs(v, a);
    return (int)czk__limbs_lt(M_MINUS_1_HALF_, v, N);
}
