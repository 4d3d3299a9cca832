/* czk — BLS12-381 prime fields.
 *
 *   Fr: the scalar field, r = 0x73eda753...00000001 (255 bits), 4 x 64-bit limbs.
 *   Fp: the base field,   p = 0x1a0111ea...ffffaaab (381 bits), 6 x 64-bit limbs.
 *
 * Elements are kept in Montgomery form (a * R mod m, R = 2^256 for Fr and
 * 2^384 for Fp), fully reduced (< m), little-endian limbs. Every function
 * accepts aliased arguments (r == a == b is fine).
 *
 * Two implementations of the hot operations (mul, sqr, add, sub) exist: a
 * portable one using unsigned __int128 and an x86-64 one using MULX/ADCX/ADOX.
 * czk_field_init() (called by czk_init() and at library load; idempotent,
 * thread-safe) selects one by CPU features; czk_field_impl() names the
 * selection. Each implementation's own entry points (`_portable`, `_adx`)
 * are internal (src/ff/field_impl.h): czk's tests and benchmarks call them.
 *
 * Dispatch cost: the selection is one global int written at start-up, and
 * czk_fr_mul() etc. test it (a perfectly predicted branch) and call the
 * selected routine. Hot loops inside libczk (msm, ntt, tower, ec) may include
 * the internal header "ff/field_impl.h" and call czk__fr_mul(), czk__fp_sqr()
 * ... : static inline dispatchers that save the extra call level. The ADX
 * routines are generated assembly (tools/gen_field_adx.py), so they are
 * out-of-line calls either way, like blst's. Both implementations give
 * bit-identical results, so switching with czk_field_select() while other
 * threads compute changes speed, never values.
 *
 * Functions whose running time depends on their inputs carry `_var` and must
 * only see public data. Everything else is constant-time.
 */
#ifndef CZK_FIELD_H
#define CZK_FIELD_H

#include "czk/common.h"
#include "czk/rand.h"

#ifdef __cplusplus
extern "C" {
#endif

#define CZK_FR_LIMBS 4
#define CZK_FP_LIMBS 6
#define CZK_FR_BYTES 32
#define CZK_FP_BYTES 48

typedef struct czk_fr {
    uint64_t l[CZK_FR_LIMBS];
} czk_fr;

typedef struct czk_fp {
    uint64_t l[CZK_FP_LIMBS];
} czk_fp;

/* ---- implementation selection ---------------------------------------- */

typedef enum czk_field_impl_kind {
    CZK_FIELD_PORTABLE = 0,
    CZK_FIELD_ADX = 1,
} czk_field_impl_kind;

/* Detect CPU features and select the implementation (idempotent). The
 * environment variable CZK_FIELD_IMPL=portable forces the portable path. */
void czk_field_init(void);
/* Force a selection (tests, benchmarks). Returns CZK_ERR_UNSUPPORTED if the
 * CPU lacks what the implementation needs. */
czk_status czk_field_select(czk_field_impl_kind k) CZK_WUR;
czk_field_impl_kind czk_field_impl(void);
const char *czk_field_impl_name(czk_field_impl_kind k);
/* Whether this CPU can run the ADX path (MULX needs BMI2, ADCX/ADOX need ADX). */
int czk_cpu_has_adx(void);
int czk_cpu_has_bmi2(void);
int czk_cpu_has_avx2(void);
int czk_cpu_has_avx512ifma(void);

/* Eight-lane AVX-512 IFMA kernels (the MSM's batched affine additions, the
 * NTT's butterflies): used when the library was built with them and the CPU
 * has AVX-512F and IFMA, unless the environment sets CZK_IFMA=off. They
 * compute the same values as the scalar code, bit for bit.
 * czk_field_ifma_select(0) turns them off, (1) on (CZK_ERR_UNSUPPORTED where
 * they are not built or the CPU lacks IFMA); for tests and benchmarks.
 * Not thread-safe against running kernels: select before starting work. */
czk_status czk_field_ifma_select(int on) CZK_WUR;
int czk_field_ifma(void);
/* Whether this build contains the IFMA kernels. */
int czk_field_ifma_built(void);

/* ---- constants --------------------------------------------------------- */

extern const czk_fr CZK_FR_ZERO, CZK_FR_ONE;      /* Montgomery form */
extern const czk_fp CZK_FP_ZERO, CZK_FP_ONE;
extern const uint64_t CZK_FR_MODULUS[CZK_FR_LIMBS]; /* plain integers */
extern const uint64_t CZK_FP_MODULUS[CZK_FP_LIMBS];

/* ---- Fr ------------------------------------------------------------------ */

void czk_fr_add(czk_fr *r, const czk_fr *a, const czk_fr *b);
void czk_fr_sub(czk_fr *r, const czk_fr *a, const czk_fr *b);
void czk_fr_neg(czk_fr *r, const czk_fr *a);
void czk_fr_dbl(czk_fr *r, const czk_fr *a);
void czk_fr_mul(czk_fr *r, const czk_fr *a, const czk_fr *b);
void czk_fr_sqr(czk_fr *r, const czk_fr *a);
/* r = a^-1; r = 0 when a = 0. Constant time (Pornin's optimized binary GCD,
 * IACR ePrint 2020/972; see src/ff/README.md). */
void czk_fr_inv(czk_fr *r, const czk_fr *a);
/* Same result; may take variable time, so public data only (today it is the
 * constant-time routine, which is also the fastest). */
void czk_fr_inv_var(czk_fr *r, const czk_fr *a);
/* out[i] = in[i]^-1 for n elements with one inversion (Montgomery's trick);
 * zero inputs give zero outputs. out may equal in. scratch: n elements. */
void czk_fr_batch_inv(czk_fr *out, const czk_fr *in, size_t n, czk_fr *scratch);
/* r = a^e, e given as plain little-endian limbs. Constant time in a, and in
 * e for a fixed nlimbs. */
void czk_fr_pow(czk_fr *r, const czk_fr *a, const uint64_t *e, size_t nlimbs);
/* Variable-time r = a^e for a small public exponent. */
void czk_fr_pow_u64(czk_fr *r, const czk_fr *a, uint64_t e);
/* Square root (Tonelli-Shanks, S = 32). Returns 1 and sets r if a is a
 * square, else returns 0 and leaves r = 0. */
int czk_fr_sqrt(czk_fr *r, const czk_fr *a);
/* Legendre symbol: 0 for a = 0, 1 for a non-zero square, -1 otherwise. */
int czk_fr_legendre(const czk_fr *a);
int czk_fr_eq(const czk_fr *a, const czk_fr *b);
int czk_fr_is_zero(const czk_fr *a);
int czk_fr_is_one(const czk_fr *a);
void czk_fr_from_u64(czk_fr *r, uint64_t v);
/* Plain little-endian limbs (value < r required; reduced mod r otherwise
 * for _reduce) to Montgomery form and back. */
czk_status czk_fr_from_limbs(czk_fr *r, const uint64_t v[CZK_FR_LIMBS]) CZK_WUR;
void czk_fr_from_limbs_reduce(czk_fr *r, const uint64_t v[CZK_FR_LIMBS]);
void czk_fr_to_limbs(uint64_t v[CZK_FR_LIMBS], const czk_fr *a);
/* Canonical 32-byte little-endian form. from_bytes rejects values >= r
 * with CZK_ERR_NOT_CANONICAL. */
czk_status czk_fr_from_bytes(czk_fr *r, const uint8_t in[CZK_FR_BYTES]) CZK_WUR;
void czk_fr_to_bytes(uint8_t out[CZK_FR_BYTES], const czk_fr *a);
/* Big-endian 32-byte form (same checks). */
czk_status czk_fr_from_bytes_be(czk_fr *r, const uint8_t in[CZK_FR_BYTES]) CZK_WUR;
void czk_fr_to_bytes_be(uint8_t out[CZK_FR_BYTES], const czk_fr *a);
/* Uniform random element (rejection sampling on 255-bit candidates). */
void czk_fr_random(czk_fr *r, czk_rng *rng);
/* Primitive 2^k-th root of unity, 0 <= k <= 32 (k = 32: w of docs/bls12-381.md#roots-of-unity;
 * smaller k: w squared 32 - k times). Returns CZK_ERR_INVALID_ARG for k > 32. */
czk_status czk_fr_root_of_unity(czk_fr *r, unsigned k) CZK_WUR;
/* The multiplicative generator 7, used as the NTT coset shift. */
void czk_fr_coset_gen(czk_fr *r);
/* Hex (big-endian, "0x" optional) parse / print of the plain value. */
czk_status czk_fr_from_hex(czk_fr *r, const char *hex) CZK_WUR;
void czk_fr_to_hex(char out[67], const czk_fr *a); /* "0x" + 64 digits + NUL */
/* Decimal parse / print of the plain value. */
czk_status czk_fr_from_dec(czk_fr *r, const char *dec) CZK_WUR;
void czk_fr_to_dec(char out[80], const czk_fr *a);

/* ---- Fp ------------------------------------------------------------------ */

void czk_fp_add(czk_fp *r, const czk_fp *a, const czk_fp *b);
void czk_fp_sub(czk_fp *r, const czk_fp *a, const czk_fp *b);
void czk_fp_neg(czk_fp *r, const czk_fp *a);
void czk_fp_dbl(czk_fp *r, const czk_fp *a);
void czk_fp_mul(czk_fp *r, const czk_fp *a, const czk_fp *b);
void czk_fp_sqr(czk_fp *r, const czk_fp *a);
void czk_fp_inv(czk_fp *r, const czk_fp *a);
void czk_fp_inv_var(czk_fp *r, const czk_fp *a);
void czk_fp_batch_inv(czk_fp *out, const czk_fp *in, size_t n, czk_fp *scratch);
void czk_fp_pow(czk_fp *r, const czk_fp *a, const uint64_t *e, size_t nlimbs);
void czk_fp_pow_u64(czk_fp *r, const czk_fp *a, uint64_t e);
/* Square root (p = 3 mod 4: a^((p+1)/4)). Returns 1 if a is a square. */
int czk_fp_sqrt(czk_fp *r, const czk_fp *a);
int czk_fp_legendre(const czk_fp *a);
int czk_fp_eq(const czk_fp *a, const czk_fp *b);
int czk_fp_is_zero(const czk_fp *a);
int czk_fp_is_one(const czk_fp *a);
/* 1 if the plain value of a is > (p-1)/2 (the "lexicographically larger"
 * of a and -a, as point compression uses). */
int czk_fp_is_lex_largest(const czk_fp *a);
void czk_fp_from_u64(czk_fp *r, uint64_t v);
czk_status czk_fp_from_limbs(czk_fp *r, const uint64_t v[CZK_FP_LIMBS]) CZK_WUR;
void czk_fp_to_limbs(uint64_t v[CZK_FP_LIMBS], const czk_fp *a);
/* Canonical 48-byte big-endian form (as point encodings use); rejects >= p. */
czk_status czk_fp_from_bytes(czk_fp *r, const uint8_t in[CZK_FP_BYTES]) CZK_WUR;
void czk_fp_to_bytes(uint8_t out[CZK_FP_BYTES], const czk_fp *a);
/* 48-byte little-endian form (snarkjs files). */
czk_status czk_fp_from_bytes_le(czk_fp *r, const uint8_t in[CZK_FP_BYTES]) CZK_WUR;
void czk_fp_to_bytes_le(uint8_t out[CZK_FP_BYTES], const czk_fp *a);
void czk_fp_random(czk_fp *r, czk_rng *rng);
czk_status czk_fp_from_hex(czk_fp *r, const char *hex) CZK_WUR;
void czk_fp_to_hex(char out[99], const czk_fp *a); /* "0x" + 96 digits + NUL */
czk_status czk_fp_from_dec(czk_fp *r, const char *dec) CZK_WUR;
void czk_fp_to_dec(char out[120], const czk_fp *a);

#ifdef __cplusplus
}
#endif
#endif
