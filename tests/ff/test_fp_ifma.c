/* The 8-lane AVX-512 IFMA field arithmetic (src/ff/vec_ifma.h) against the
 * scalar Fp / Fp2 / Fr routines (themselves checked against GMP by test_fp.c and test_fr.c),
 * lane by lane, on operands biased to edges: 0, 1, p - 1, p - 2, powers of
 * two and 2^k - 1 below p, values whose 48-bit limbs are all zero or all
 * one, and uniform ones. Compiled with the IFMA flags (CMakeLists.txt);
 * skipped where the build or the CPU lacks IFMA. */
#include <stdlib.h>
#include <string.h>

#include "czk/czk.h"
#include "czk/tower.h"
#include "ff/field_impl.h"
#include "ff/vec_ifma.h"
#include "runner.h"

#ifdef CZK_HAVE_IFMA_KERNELS

static int ifma_cpu(void) { return czk_cpu_has_avx512ifma(); }

/* A reduced Fp element biased to edges. */
static void edge_fp(czk_fp *r, czk_rng *rng)
{
    uint64_t v[6] = {0, 0, 0, 0, 0, 0};
    const uint64_t *p = CZK_FP_MODULUS;
    switch (czk_rng_below(rng, 12)) {
    case 0: *r = CZK_FP_ZERO; return;
    case 1: *r = CZK_FP_ONE; return;
    case 2: memcpy(v, p, sizeof v); v[0] -= 1 + czk_rng_below(rng, 2); break; /* p - 1, p - 2 */
    case 3: { unsigned b = (unsigned)czk_rng_below(rng, 381); v[b / 64] = 1ull << (b % 64); break; }
    case 4: { /* 2^b - 1 */
        unsigned b = (unsigned)czk_rng_below(rng, 381);
        for (unsigned i = 0; i < b; i++) v[i / 64] |= 1ull << (i % 64);
        break;
    }
    case 5: { /* p minus 2^(48 j): the 48-bit limbs below j are those of p, limb j one less */
        unsigned j = (unsigned)czk_rng_below(rng, 8), b = 48 * j;
        memcpy(v, p, sizeof v);
        uint64_t borrow = 1ull << (b % 64);
        for (unsigned i = b / 64; i < 6 && borrow; i++) { uint64_t o = v[i]; v[i] -= borrow; borrow = o < borrow; }
        break;
    }
    case 6: { /* 48-bit limbs all ones (below p's top limb) or all zero, chosen per limb */
        for (unsigned j = 0; j < 7; j++)
            if (czk_rng_below(rng, 2))
                for (unsigned i = 48 * j; i < 48 * j + 48; i++) v[i / 64] |= 1ull << (i % 64);
        break;
    }
    default: czk_fp_random(r, rng); return;
    }
    if (czk_fp_from_limbs(r, v) != CZK_OK) abort(); /* every case above is below p */
}

static void edge_fp2(czk_fp2 *r, czk_rng *rng)
{
    edge_fp(&r->c0, rng);
    edge_fp(&r->c1, rng);
}

#define EQ_LANES(got, want, what)                                                             \
    for (int i = 0; i < 8; i++)                                                               \
        CHECK_MSG(memcmp(&(got)[i], &(want)[i], sizeof(got)[i]) == 0, "%s: lane %d differs (iteration %zu)", \
                  what, i, it)

CZK_TEST(fp_ifma_vs_scalar)
{
    if (!ifma_cpu()) {
        printf("  (skipped: this CPU lacks AVX-512 IFMA)\n");
        return;
    }
    czk_rng *rng = czk_test_rng();
    size_t iters = czk_test_iters(4000);
    for (size_t it = 0; it < iters; it++) {
        czk_fp a[8], b[8], want[8], got[8];
        for (int i = 0; i < 8; i++) edge_fp(&a[i], rng), edge_fp(&b[i], rng);
        if (it % 4 == 0) memcpy(b, a, sizeof b);
        czk__v8fp va, vb, vr;
        czk__v8fp_load(&va, a);
        czk__v8fp_load(&vb, b);
        czk__v8fp_store(got, &va);
        EQ_LANES(got, a, "load/store");
        czk__v8fp_mul(&vr, &va, &vb);
        czk__v8fp_store(got, &vr);
        for (int i = 0; i < 8; i++) czk_fp_mul(&want[i], &a[i], &b[i]);
        EQ_LANES(got, want, "mul");
        czk__v8fp_sqr(&vr, &va);
        czk__v8fp_store(got, &vr);
        for (int i = 0; i < 8; i++) czk_fp_sqr(&want[i], &a[i]);
        EQ_LANES(got, want, "sqr");
        czk__v8fp_add(&vr, &va, &vb);
        czk__v8fp_store(got, &vr);
        for (int i = 0; i < 8; i++) czk_fp_add(&want[i], &a[i], &b[i]);
        EQ_LANES(got, want, "add");
        czk__v8fp_sub(&vr, &va, &vb);
        czk__v8fp_store(got, &vr);
        for (int i = 0; i < 8; i++) czk_fp_sub(&want[i], &a[i], &b[i]);
        EQ_LANES(got, want, "sub");
        __mmask8 k = (__mmask8)czk_rng_below(rng, 256);
        czk__v8fp_cneg(&vr, &va, k);
        czk__v8fp_store(got, &vr);
        for (int i = 0; i < 8; i++) {
            if ((k >> i) & 1) czk_fp_neg(&want[i], &a[i]);
            else want[i] = a[i];
        }
        EQ_LANES(got, want, "cneg");
        /* lazy differences as the first operand of a multiplication by a reduced c */
        czk_fp c[8], t;
        czk__v8fp vc, vl;
        for (int i = 0; i < 8; i++) edge_fp(&c[i], rng);
        czk__v8fp_load(&vc, c);
        czk__v8fp_sub_lazy(&vl, &va, &vb);
        czk__v8fp_mul(&vr, &vl, &vc);
        czk__v8fp_store(got, &vr);
        for (int i = 0; i < 8; i++) czk_fp_sub(&t, &a[i], &b[i]), czk_fp_mul(&want[i], &t, &c[i]);
        EQ_LANES(got, want, "sub_lazy then mul");
        czk__v8fp_negsub_lazy(&vl, &va, &vb);
        czk__v8fp_mul(&vr, &vl, &vc);
        czk__v8fp_store(got, &vr);
        for (int i = 0; i < 8; i++) czk_fp_add(&t, &a[i], &b[i]), czk_fp_neg(&t, &t), czk_fp_mul(&want[i], &t, &c[i]);
        EQ_LANES(got, want, "negsub_lazy then mul");
        czk__v8fp_set1(&vr, &a[3]);
        czk__v8fp_store(got, &vr);
        for (int i = 0; i < 8; i++) want[i] = a[3];
        EQ_LANES(got, want, "set1");
    }
}

CZK_TEST(fp2_ifma_vs_scalar)
{
    if (!ifma_cpu()) {
        printf("  (skipped: this CPU lacks AVX-512 IFMA)\n");
        return;
    }
    czk_rng *rng = czk_test_rng();
    size_t iters = czk_test_iters(2000);
    for (size_t it = 0; it < iters; it++) {
        czk_fp2 a[8], b[8], want[8], got[8];
        for (int i = 0; i < 8; i++) edge_fp2(&a[i], rng), edge_fp2(&b[i], rng);
        czk__v8fp2 va, vb, vr;
        czk__v8fp2_load(&va, a);
        czk__v8fp2_load(&vb, b);
        czk__v8fp2_mul(&vr, &va, &vb);
        czk__v8fp2_store(got, &vr);
        for (int i = 0; i < 8; i++) czk_fp2_mul(&want[i], &a[i], &b[i]);
        EQ_LANES(got, want, "fp2 mul");
        czk__v8fp2_sqr(&vr, &va);
        czk__v8fp2_store(got, &vr);
        for (int i = 0; i < 8; i++) czk_fp2_sqr(&want[i], &a[i]);
        EQ_LANES(got, want, "fp2 sqr");
        czk__v8fp2_sub(&vr, &va, &vb);
        czk__v8fp2_store(got, &vr);
        for (int i = 0; i < 8; i++) czk_fp2_sub(&want[i], &a[i], &b[i]);
        EQ_LANES(got, want, "fp2 sub");
        czk__v8fp2_add(&vr, &va, &vb);
        czk__v8fp2_store(got, &vr);
        for (int i = 0; i < 8; i++) czk_fp2_add(&want[i], &a[i], &b[i]);
        EQ_LANES(got, want, "fp2 add");
    }
}

/* Gathers read, and masked scatters write, exactly the lanes of the mask. */
CZK_TEST(fp_ifma_gather_scatter_masks)
{
    if (!ifma_cpu()) {
        printf("  (skipped: this CPU lacks AVX-512 IFMA)\n");
        return;
    }
    czk_rng *rng = czk_test_rng();
    for (size_t it = 0; it < 200; it++) {
        czk_fp src[16], dst[16], keep[16], got[8];
        uint64_t as[8], ad[8];
        for (int i = 0; i < 16; i++) edge_fp(&src[i], rng), edge_fp(&dst[i], rng);
        memcpy(keep, dst, sizeof dst);
        for (int i = 0; i < 8; i++) {
            as[i] = (uint64_t)(uintptr_t)&src[czk_rng_below(rng, 16)];
            ad[i] = (uint64_t)(uintptr_t)&dst[2 * i + (int)czk_rng_below(rng, 2)]; /* distinct */
        }
        __mmask8 k = (__mmask8)czk_rng_below(rng, 256);
        czk__v8fp v;
        czk__v8fp_gather(&v, _mm512_loadu_si512(as), 0, k);
        czk__v8fp_store(got, &v);
        for (int i = 0; i < 8; i++) {
            const czk_fp *w = ((k >> i) & 1) ? (const czk_fp *)(uintptr_t)as[i] : &CZK_FP_ZERO;
            CHECK_MSG(memcmp(&got[i], w, sizeof *w) == 0, "gather lane %d (mask %02x)", i, (unsigned)k);
        }
        czk__v8fp_scatter(_mm512_loadu_si512(ad), 0, &v, k);
        for (int j = 0; j < 16; j++) {
            const czk_fp *w = &keep[j];
            for (int i = 0; i < 8; i++)
                if (((k >> i) & 1) && ad[i] == (uint64_t)(uintptr_t)&dst[j]) w = (const czk_fp *)(uintptr_t)as[i];
            CHECK_MSG(memcmp(&dst[j], w, sizeof *w) == 0, "scatter element %d (mask %02x)", j, (unsigned)k);
        }
    }
}


/* A reduced Fr element biased to edges (as edge_fp, radix 2^52 limbs). */
static void edge_fr(czk_fr *r, czk_rng *rng)
{
    uint64_t v[4] = {0, 0, 0, 0};
    const uint64_t *m = CZK_FR_MODULUS;
    switch (czk_rng_below(rng, 12)) {
    case 0: *r = CZK_FR_ZERO; return;
    case 1: *r = CZK_FR_ONE; return;
    case 2: memcpy(v, m, sizeof v); v[0] -= 1 + czk_rng_below(rng, 2); break;
    case 3: { unsigned b = (unsigned)czk_rng_below(rng, 254); v[b / 64] = 1ull << (b % 64); break; }
    case 4: { /* 2^b - 1 */
        unsigned b = (unsigned)czk_rng_below(rng, 255);
        for (unsigned i = 0; i < b; i++) v[i / 64] |= 1ull << (i % 64);
        break;
    }
    case 5: {
        unsigned j = (unsigned)czk_rng_below(rng, 5), b = 52 * j;
        memcpy(v, m, sizeof v);
        uint64_t borrow = 1ull << (b % 64);
        for (unsigned i = b / 64; i < 4 && borrow; i++) { uint64_t o = v[i]; v[i] -= borrow; borrow = o < borrow; }
        break;
    }
    case 6:
        for (unsigned j = 0; j < 4; j++)
            if (czk_rng_below(rng, 2))
                for (unsigned i = 52 * j; i < 52 * j + 52; i++) v[i / 64] |= 1ull << (i % 64);
        break;
    default: czk_fr_random(r, rng); return;
    }
    if (czk_fr_from_limbs(r, v) != CZK_OK) abort();
}

CZK_TEST(fr_ifma_vs_scalar)
{
    if (!ifma_cpu()) {
        printf("  (skipped: this CPU lacks AVX-512 IFMA)\n");
        return;
    }
    czk_rng *rng = czk_test_rng();
    size_t iters = czk_test_iters(4000);
    for (size_t it = 0; it < iters; it++) {
        czk_fr a[8], b[8], want[8], got[8];
        for (int i = 0; i < 8; i++) edge_fr(&a[i], rng), edge_fr(&b[i], rng);
        if (it % 4 == 0) memcpy(b, a, sizeof b);
        czk__v8fr va, vb, vr;
        czk__v8fr_loadu(&va, a);
        czk__v8fr_loadu(&vb, b);
        czk__v8fr_storeu(got, &va);
        EQ_LANES(got, a, "fr loadu/storeu");
        czk__v8fr_mul(&vr, &va, &vb);
        czk__v8fr_storeu(got, &vr);
        for (int i = 0; i < 8; i++) czk_fr_mul(&want[i], &a[i], &b[i]);
        EQ_LANES(got, want, "fr mul");
        czk__v8fr_add(&vr, &va, &vb);
        czk__v8fr_storeu(got, &vr);
        for (int i = 0; i < 8; i++) czk_fr_add(&want[i], &a[i], &b[i]);
        EQ_LANES(got, want, "fr add");
        czk__v8fr_sub(&vr, &va, &vb);
        czk__v8fr_storeu(got, &vr);
        for (int i = 0; i < 8; i++) czk_fr_sub(&want[i], &a[i], &b[i]);
        EQ_LANES(got, want, "fr sub");
        czk__v8fr_set1(&vr, &a[5]);
        czk__v8fr_storeu(got, &vr);
        for (int i = 0; i < 8; i++) want[i] = a[5];
        EQ_LANES(got, want, "fr set1");
    }
}

#else

CZK_TEST(fp_ifma_vs_scalar) { printf("  (skipped: built without the IFMA kernels)\n"); }

#endif
