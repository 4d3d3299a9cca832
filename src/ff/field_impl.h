/* czk ff — internal: implementation dispatch for the hot field operations.
 *
 * czk__field_use_adx is written once by czk_field_init()/czk_field_select()
 * and only read afterwards, so the branch in these inline dispatchers is
 * perfectly predicted. Modules with hot loops (msm, ntt, tower, ec) include
 * this header and call czk__fr_mul() etc. instead of the public czk_fr_mul(),
 * which saves one call level; the result is the same.
 */
#ifndef CZK_FF_FIELD_IMPL_H
#define CZK_FF_FIELD_IMPL_H

#include "czk/field.h"

/* Internal to libczk and the czk program: hidden in libczk.so. */
#pragma GCC visibility push(hidden)

/* Each implementation of the hot operations under its own name, for the
 * dispatchers below and for the tests and benchmarks that compare the two
 * (calling an `_adx` function on a CPU without ADX and BMI2 is undefined;
 * tools/gen_field_adx.py writes them). */
void czk_fr_mul_portable(czk_fr *r, const czk_fr *a, const czk_fr *b);
void czk_fr_sqr_portable(czk_fr *r, const czk_fr *a);
void czk_fr_add_portable(czk_fr *r, const czk_fr *a, const czk_fr *b);
void czk_fr_sub_portable(czk_fr *r, const czk_fr *a, const czk_fr *b);
void czk_fr_mul_adx(czk_fr *r, const czk_fr *a, const czk_fr *b);
void czk_fr_sqr_adx(czk_fr *r, const czk_fr *a);
void czk_fr_add_adx(czk_fr *r, const czk_fr *a, const czk_fr *b);
void czk_fr_sub_adx(czk_fr *r, const czk_fr *a, const czk_fr *b);
void czk_fp_mul_portable(czk_fp *r, const czk_fp *a, const czk_fp *b);
void czk_fp_sqr_portable(czk_fp *r, const czk_fp *a);
void czk_fp_add_portable(czk_fp *r, const czk_fp *a, const czk_fp *b);
void czk_fp_sub_portable(czk_fp *r, const czk_fp *a, const czk_fp *b);
void czk_fp_mul_adx(czk_fp *r, const czk_fp *a, const czk_fp *b);
void czk_fp_sqr_adx(czk_fp *r, const czk_fp *a);
void czk_fp_add_adx(czk_fp *r, const czk_fp *a, const czk_fp *b);
void czk_fp_sub_adx(czk_fp *r, const czk_fp *a, const czk_fp *b);

extern int czk__field_use_adx;
/* 1: the 8-lane AVX-512 IFMA kernels (ff/vec_ifma.h, ec/ec_batch.h) run. */
extern int czk__field_use_ifma;

#define CZK__FIELD_DISPATCH3(f, op)                                                     \
    CZK_INLINE void czk__##f##_##op(czk_##f *r, const czk_##f *a, const czk_##f *b)     \
    {                                                                                   \
        if (CZK_LIKELY(czk__field_use_adx)) czk_##f##_##op##_adx(r, a, b);              \
        else czk_##f##_##op##_portable(r, a, b);                                        \
    }
#define CZK__FIELD_DISPATCH2(f, op)                                                     \
    CZK_INLINE void czk__##f##_##op(czk_##f *r, const czk_##f *a)                       \
    {                                                                                   \
        if (CZK_LIKELY(czk__field_use_adx)) czk_##f##_##op##_adx(r, a);                 \
        else czk_##f##_##op##_portable(r, a);                                           \
    }

CZK__FIELD_DISPATCH3(fr, mul)
CZK__FIELD_DISPATCH2(fr, sqr)
CZK__FIELD_DISPATCH3(fp, mul)
CZK__FIELD_DISPATCH2(fp, sqr)

/* Addition and subtraction need only ADD/ADC/SBB/CMOV, so on x86-64 they are
 * inlined as assembly whatever the selection (the bulk of an NTT butterfly or
 * of a point addition's cheap steps). Moduli as memory operands: */
#if defined(__x86_64__) && defined(__GNUC__)
static const uint64_t czk__fr_m_inl[4] = {0xffffffff00000001ULL, 0x53bda402fffe5bfeULL,
                                          0x3339d80809a1d805ULL, 0x73eda753299d7d48ULL};

/* r = a + b mod r: s = a + b (no carry: r < 2^255), d = s - r, keep s on borrow. */
CZK_INLINE void czk__fr_add(czk_fr *r, const czk_fr *a, const czk_fr *b)
{
    uint64_t s0 = a->l[0], s1 = a->l[1], s2 = a->l[2], s3 = a->l[3], d0, d1, d2, d3;
    __asm__("add %[b0], %[s0]\n\t"
            "adc %[b1], %[s1]\n\t"
            "adc %[b2], %[s2]\n\t"
            "adc %[b3], %[s3]\n\t"
            "mov %[s0], %[d0]\n\t"
            "mov %[s1], %[d1]\n\t"
            "mov %[s2], %[d2]\n\t"
            "mov %[s3], %[d3]\n\t"
            "sub %[m0], %[d0]\n\t"
            "sbb %[m1], %[d1]\n\t"
            "sbb %[m2], %[d2]\n\t"
            "sbb %[m3], %[d3]\n\t"
            "cmovc %[s0], %[d0]\n\t"
            "cmovc %[s1], %[d1]\n\t"
            "cmovc %[s2], %[d2]\n\t"
            "cmovc %[s3], %[d3]"
            : [s0] "+&r"(s0), [s1] "+&r"(s1), [s2] "+&r"(s2), [s3] "+&r"(s3), [d0] "=&r"(d0),
              [d1] "=&r"(d1), [d2] "=&r"(d2), [d3] "=&r"(d3)
            : [b0] "m"(b->l[0]), [b1] "m"(b->l[1]), [b2] "m"(b->l[2]), [b3] "m"(b->l[3]),
              [m0] "m"(czk__fr_m_inl[0]), [m1] "m"(czk__fr_m_inl[1]), [m2] "m"(czk__fr_m_inl[2]),
              [m3] "m"(czk__fr_m_inl[3])
            : "cc");
    r->l[0] = d0, r->l[1] = d1, r->l[2] = d2, r->l[3] = d3;
}

/* r = a - b mod r: s = a - b, then add (borrow ? r : 0), the addend chosen by
 * CMOV so the carry chain is not broken. */
CZK_INLINE void czk__fr_sub(czk_fr *r, const czk_fr *a, const czk_fr *b)
{
    uint64_t s0 = a->l[0], s1 = a->l[1], s2 = a->l[2], s3 = a->l[3], d0, d1, d2, d3;
    __asm__("xor %k[d0], %k[d0]\n\t"
            "xor %k[d1], %k[d1]\n\t"
            "xor %k[d2], %k[d2]\n\t"
            "xor %k[d3], %k[d3]\n\t"
            "sub %[b0], %[s0]\n\t"
            "sbb %[b1], %[s1]\n\t"
            "sbb %[b2], %[s2]\n\t"
            "sbb %[b3], %[s3]\n\t"
            "cmovc %[m0], %[d0]\n\t"
            "cmovc %[m1], %[d1]\n\t"
            "cmovc %[m2], %[d2]\n\t"
            "cmovc %[m3], %[d3]\n\t"
            "add %[d0], %[s0]\n\t"
            "adc %[d1], %[s1]\n\t"
            "adc %[d2], %[s2]\n\t"
            "adc %[d3], %[s3]"
            : [s0] "+&r"(s0), [s1] "+&r"(s1), [s2] "+&r"(s2), [s3] "+&r"(s3), [d0] "=&r"(d0),
              [d1] "=&r"(d1), [d2] "=&r"(d2), [d3] "=&r"(d3)
            : [b0] "m"(b->l[0]), [b1] "m"(b->l[1]), [b2] "m"(b->l[2]), [b3] "m"(b->l[3]),
              [m0] "m"(czk__fr_m_inl[0]), [m1] "m"(czk__fr_m_inl[1]), [m2] "m"(czk__fr_m_inl[2]),
              [m3] "m"(czk__fr_m_inl[3])
            : "cc");
    r->l[0] = s0, r->l[1] = s1, r->l[2] = s2, r->l[3] = s3;
}
#else
CZK__FIELD_DISPATCH3(fr, add)
CZK__FIELD_DISPATCH3(fr, sub)
#endif
/* The 6-limb versions hold 12 values in registers: only in optimized gcc
 * builds without sanitizers (which reserve registers of their own); clang's
 * register allocator cannot place them inside large inlined kernels (the MSM
 * bucket tasks), so clang takes the dispatched versions. */
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__) && defined(__OPTIMIZE__) && \
    !defined(CZK_SANITIZED)
static const uint64_t czk__fp_m_inl[6] = {0xb9feffffffffaaabULL, 0x1eabfffeb153ffffULL,
                                          0x6730d2a0f6b0f624ULL, 0x64774b84f38512bfULL,
                                          0x4b1ba7b6434bacd7ULL, 0x1a0111ea397fe69aULL};

CZK_INLINE void czk__fp_add(czk_fp *r, const czk_fp *a, const czk_fp *b)
{
    uint64_t s0 = a->l[0], s1 = a->l[1], s2 = a->l[2], s3 = a->l[3], s4 = a->l[4], s5 = a->l[5], d0,
             d1, d2, d3, d4, d5;
    __asm__("add %[b0], %[s0]\n\t"
            "adc %[b1], %[s1]\n\t"
            "adc %[b2], %[s2]\n\t"
            "adc %[b3], %[s3]\n\t"
            "adc %[b4], %[s4]\n\t"
            "adc %[b5], %[s5]\n\t"
            "mov %[s0], %[d0]\n\t"
            "mov %[s1], %[d1]\n\t"
            "mov %[s2], %[d2]\n\t"
            "mov %[s3], %[d3]\n\t"
            "mov %[s4], %[d4]\n\t"
            "mov %[s5], %[d5]\n\t"
            "sub %[m0], %[d0]\n\t"
            "sbb %[m1], %[d1]\n\t"
            "sbb %[m2], %[d2]\n\t"
            "sbb %[m3], %[d3]\n\t"
            "sbb %[m4], %[d4]\n\t"
            "sbb %[m5], %[d5]\n\t"
            "cmovc %[s0], %[d0]\n\t"
            "cmovc %[s1], %[d1]\n\t"
            "cmovc %[s2], %[d2]\n\t"
            "cmovc %[s3], %[d3]\n\t"
            "cmovc %[s4], %[d4]\n\t"
            "cmovc %[s5], %[d5]"
            : [s0] "+&r"(s0), [s1] "+&r"(s1), [s2] "+&r"(s2), [s3] "+&r"(s3), [s4] "+&r"(s4),
              [s5] "+&r"(s5), [d0] "=&r"(d0), [d1] "=&r"(d1), [d2] "=&r"(d2), [d3] "=&r"(d3),
              [d4] "=&r"(d4), [d5] "=&r"(d5)
            : [b0] "m"(b->l[0]), [b1] "m"(b->l[1]), [b2] "m"(b->l[2]), [b3] "m"(b->l[3]),
              [b4] "m"(b->l[4]), [b5] "m"(b->l[5]), [m0] "m"(czk__fp_m_inl[0]),
              [m1] "m"(czk__fp_m_inl[1]), [m2] "m"(czk__fp_m_inl[2]), [m3] "m"(czk__fp_m_inl[3]),
              [m4] "m"(czk__fp_m_inl[4]), [m5] "m"(czk__fp_m_inl[5])
            : "cc");
    r->l[0] = d0, r->l[1] = d1, r->l[2] = d2, r->l[3] = d3, r->l[4] = d4, r->l[5] = d5;
}

CZK_INLINE void czk__fp_sub(czk_fp *r, const czk_fp *a, const czk_fp *b)
{
    uint64_t s0 = a->l[0], s1 = a->l[1], s2 = a->l[2], s3 = a->l[3], s4 = a->l[4], s5 = a->l[5], d0,
             d1, d2, d3, d4, d5;
    __asm__("xor %k[d0], %k[d0]\n\t"
            "xor %k[d1], %k[d1]\n\t"
            "xor %k[d2], %k[d2]\n\t"
            "xor %k[d3], %k[d3]\n\t"
            "xor %k[d4], %k[d4]\n\t"
            "xor %k[d5], %k[d5]\n\t"
            "sub %[b0], %[s0]\n\t"
            "sbb %[b1], %[s1]\n\t"
            "sbb %[b2], %[s2]\n\t"
            "sbb %[b3], %[s3]\n\t"
            "sbb %[b4], %[s4]\n\t"
            "sbb %[b5], %[s5]\n\t"
            "cmovc %[m0], %[d0]\n\t"
            "cmovc %[m1], %[d1]\n\t"
            "cmovc %[m2], %[d2]\n\t"
            "cmovc %[m3], %[d3]\n\t"
            "cmovc %[m4], %[d4]\n\t"
            "cmovc %[m5], %[d5]\n\t"
            "add %[d0], %[s0]\n\t"
            "adc %[d1], %[s1]\n\t"
            "adc %[d2], %[s2]\n\t"
            "adc %[d3], %[s3]\n\t"
            "adc %[d4], %[s4]\n\t"
            "adc %[d5], %[s5]"
            : [s0] "+&r"(s0), [s1] "+&r"(s1), [s2] "+&r"(s2), [s3] "+&r"(s3), [s4] "+&r"(s4),
              [s5] "+&r"(s5), [d0] "=&r"(d0), [d1] "=&r"(d1), [d2] "=&r"(d2), [d3] "=&r"(d3),
              [d4] "=&r"(d4), [d5] "=&r"(d5)
            : [b0] "m"(b->l[0]), [b1] "m"(b->l[1]), [b2] "m"(b->l[2]), [b3] "m"(b->l[3]),
              [b4] "m"(b->l[4]), [b5] "m"(b->l[5]), [m0] "m"(czk__fp_m_inl[0]),
              [m1] "m"(czk__fp_m_inl[1]), [m2] "m"(czk__fp_m_inl[2]), [m3] "m"(czk__fp_m_inl[3]),
              [m4] "m"(czk__fp_m_inl[4]), [m5] "m"(czk__fp_m_inl[5])
            : "cc");
    r->l[0] = s0, r->l[1] = s1, r->l[2] = s2, r->l[3] = s3, r->l[4] = s4, r->l[5] = s5;
}

#else
CZK__FIELD_DISPATCH3(fp, add)
CZK__FIELD_DISPATCH3(fp, sub)
#endif

CZK_INLINE void czk__fr_dbl(czk_fr *r, const czk_fr *a) { czk__fr_add(r, a, a); }
CZK_INLINE void czk__fp_dbl(czk_fp *r, const czk_fp *a) { czk__fp_add(r, a, a); }

#pragma GCC visibility pop

#endif
