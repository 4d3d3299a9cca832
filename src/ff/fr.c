/* Fr, the BLS12-381 scalar field: everything but the hot operations. */
#include "czk/field.h"
#include "ff/field_impl.h"

#define T czk_fr
#define FN(x) czk_fr_##x
#define NAME "fr"
#define N CZK_FR_LIMBS
#define NBYTES CZK_FR_BYTES
#define NBITS 255
#define K(x) CZK__FR_##x
#define HMUL czk__fr_mul
#define HSQR czk__fr_sqr
#define HADD czk__fr_add
#define HSUB czk__fr_sub
#include "ff/field_tmpl.h"

const czk_fr CZK_FR_ZERO = {{0}};
const czk_fr CZK_FR_ONE = {CZK__FR_R1};
const uint64_t CZK_FR_MODULUS[CZK_FR_LIMBS] = CZK__FR_M;

static const uint64_t TS_C3[N] = CZK__FR_TS_C3;
static const uint64_t ROOT_MONT[N] = CZK__FR_ROOT_MONT;

void czk_fr_from_limbs_reduce(czk_fr *r, const uint64_t v[CZK_FR_LIMBS])
{
    uint64_t t[N];
    memcpy(t, v, sizeof t);
    /* v < 2^256 < 3r: at most two subtractions */
    czk__limbs_reduce_once(t, t, M_, N);
    czk__limbs_reduce_once(t, t, M_, N);
    to_mont(r, t);
}

czk_status czk_fr_from_bytes(czk_fr *r, const uint8_t in[CZK_FR_BYTES])
{
    return from_bytes_le(r, in, "czk_fr_from_bytes");
}

void czk_fr_to_bytes(uint8_t out[CZK_FR_BYTES], const czk_fr *a) { to_bytes_le(out, a); }

czk_status czk_fr_from_bytes_be(czk_fr *r, const uint8_t in[CZK_FR_BYTES])
{
    return from_bytes_be(r, in, "czk_fr_from_bytes_be");
}

void czk_fr_to_bytes_be(uint8_t out[CZK_FR_BYTES], const czk_fr *a) { to_bytes_be(out, a); }

void czk_fr_to_dec(char out[80], const czk_fr *a) { to_dec(out, a); }

/* Constant-time Tonelli-Shanks (RFC 9380, appendix I.4, sqrt_ts_ct) with
 * r - 1 = 2^S t, S = 32, c3 = (t - 1) / 2, c5 = 7^t = w. */
int czk_fr_sqrt(czk_fr *r, const czk_fr *a)
{
    czk_fr z, t, b, c, zt, tt, chk;
    czk_fr_pow(&z, a, TS_C3, N); /* z = a^c3 */
    HSQR(&t, &z);
    HMUL(&t, &t, a);             /* t = a^t */
    HMUL(&z, &z, a);             /* z = a^((t+1)/2) */
    b = t;
    memcpy(c.l, ROOT_MONT, sizeof c.l);
    for (int i = CZK__FR_TWO_ADICITY; i >= 2; i--) {
        for (int j = 1; j <= i - 2; j++) HSQR(&b, &b);
        uint64_t e = czk__limbs_eq_mask(b.l, R1_, N);
        HMUL(&zt, &z, &c);
        czk__limbs_select(z.l, e, z.l, zt.l, N);
        HSQR(&c, &c);
        HMUL(&tt, &t, &c);
        czk__limbs_select(t.l, e, t.l, tt.l, N);
        b = t;
    }
    HSQR(&chk, &z);
    uint64_t ok = czk__limbs_eq_mask(chk.l, a->l, N);
    for (int i = 0; i < N; i++) r->l[i] = z.l[i] & ok;
    return (int)(ok & 1);
}

czk_status czk_fr_root_of_unity(czk_fr *r, unsigned k)
{
    if (k > CZK__FR_TWO_ADICITY)
        return czk_error(CZK_ERR_INVALID_ARG,
                         "czk_fr_root_of_unity: no 2^%u-th root of unity (r has 2-adicity 32)",
                         k);
    czk_fr w;
    memcpy(w.l, ROOT_MONT, sizeof w.l);
    for (unsigned i = k; i < CZK__FR_TWO_ADICITY; i++) HSQR(&w, &w);
    *r = w;
    return CZK_OK;
}

void czk_fr_coset_gen(czk_fr *r) { czk_fr_from_u64(r, 7); }
