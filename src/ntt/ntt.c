/* NTT over Fr: domains, transforms, cosets, Groth16 / snarkjs H steps.
 * Layout and measurements: src/ntt/README.md. */
#include "czk/ntt.h"

#include <omp.h>
#include <stdlib.h>
#include <string.h>

#include "czk/czk.h"
#include "ff/field_impl.h"
#include "ntt/ntt_ifma.h"
#include "ntt/ntt_internal.h"

#define NTT_COLS 16      /* contiguous elements per tile row (512 bytes) */
#define NTT_PASS_MAX 7   /* levels fused per top pass (tile of 128 rows, 64 KiB) */
#define NTT_BLOCK_LOG 14 /* bottom block: 2^14 elements = 512 KiB, + 512 KiB twiddles */
#define NTT_PAR_MIN_LOG 14 /* smaller transforms run on one thread */

struct czk_ntt_domain {
    unsigned k;
    size_t n;
    czk_ntt_roots family;
    czk_fr omega, omega_inv, n_inv;
    czk_fr *tw; /* n - 1 elements: level l at tw + 2^l - 1 */
    size_t tw_len;
    int threads;
    unsigned block_log;
    unsigned pass_max;
    int radix4;
};

#define NTT_SFX(x) x##_adx
#define NTT_MUL czk_fr_mul_adx
#define NTT_ADD czk__fr_add /* inline, impl-independent */
#define NTT_SUB czk__fr_sub
#include "ntt_kernel.h"
#undef NTT_SFX
#undef NTT_MUL
#undef NTT_ADD
#undef NTT_SUB

#define NTT_SFX(x) x##_portable
#define NTT_MUL czk_fr_mul_portable
#define NTT_ADD czk__fr_add
#define NTT_SUB czk__fr_sub
#include "ntt_kernel.h"
#undef NTT_SFX
#undef NTT_MUL
#undef NTT_ADD
#undef NTT_SUB

/* ---- roots ------------------------------------------------------------- */

/* t = (r - 1) / 2^32, little-endian limbs. */
static const uint64_t R_MINUS_1_ODD[4] = {0xfffe5bfeffffffffULL, 0x09a1d80553bda402ULL,
                                          0x299d7d483339d808ULL, 0x0000000073eda753ULL};

czk_status czk_ntt_root_of_unity(czk_fr *r, unsigned k, czk_ntt_roots family)
{
    if (k > 32) return czk_error(CZK_ERR_INVALID_ARG, "ntt root of unity: 2^%u exceeds the 2-adicity 32 of r", k);
    if (family == CZK_NTT_ROOTS_GEN7) return czk_fr_root_of_unity(r, k);
    if (family != CZK_NTT_ROOTS_NQR5)
        return czk_error(CZK_ERR_INVALID_ARG, "ntt root of unity: unknown root family %d", (int)family);
    czk_fr five;
    czk_fr_from_u64(&five, 5);
    czk_fr_pow(r, &five, R_MINUS_1_ODD, 4); /* omega_(2^32) = 5^t */
    for (unsigned i = k; i < 32; i++) czk_fr_sqr(r, r);
    return CZK_OK;
}

/* ---- helpers ----------------------------------------------------------- */

static int resolve_threads(int t) { return t > 0 ? t : czk_threads(); }

static int domain_threads(const czk_ntt_domain *d)
{
    return d->k < NTT_PAR_MIN_LOG ? 1 : resolve_threads(d->threads);
}

static inline size_t rev_bits(size_t x, unsigned bits)
{
    uint64_t v = (uint64_t)x;
    v = ((v >> 1) & 0x5555555555555555ULL) | ((v & 0x5555555555555555ULL) << 1);
    v = ((v >> 2) & 0x3333333333333333ULL) | ((v & 0x3333333333333333ULL) << 2);
    v = ((v >> 4) & 0x0f0f0f0f0f0f0f0fULL) | ((v & 0x0f0f0f0f0f0f0f0fULL) << 4);
    v = __builtin_bswap64(v);
    return bits ? (size_t)(v >> (64 - bits)) : 0;
}

static void scale_all(czk_fr *a, size_t n, const czk_fr *c, int nt)
{
#pragma omp parallel for schedule(static) num_threads(nt) if (nt > 1)
    for (size_t i = 0; i < n; i++) czk__fr_mul(&a[i], &a[i], c);
}

static czk_status check_args(const czk_ntt_domain *d, const czk_fr *a, size_t n, const char *fn)
{
    if (!d) return czk_error(CZK_ERR_INVALID_ARG, "%s: domain is NULL", fn);
    if (n != d->n)
        return czk_error(CZK_ERR_INVALID_ARG, "%s: vector has %zu elements, domain size is %zu (2^%u)", fn, n,
                         d->n, d->k);
    if (!a) return czk_error(CZK_ERR_INVALID_ARG, "%s: vector is NULL", fn);
    return CZK_OK;
}

/* Block log for this call: the domain's, but small enough that every
 * thread gets at least two blocks (never below 8). */
static unsigned block_log_for(const czk_ntt_domain *d, int nt)
{
    unsigned b = d->block_log < d->k ? d->block_log : d->k;
    if (nt > 1) {
        unsigned tl = 1;
        while (((size_t)1 << tl) < (size_t)nt * 2) tl++;
        unsigned want = d->k > tl ? d->k - tl : 0;
        if (want < 8) want = 8;
        if (want < b) b = want;
    }
    return b;
}

/* Raw kernels: no scaling, no permutation. The IFMA butterflies (ntt_ifma.c)
 * take n >= 16 when the CPU has them; same results. */
#define IFMA_MIN_LOG 4

static void run_dif(const czk_ntt_domain *d, czk_fr *a, int inv)
{
    int nt = domain_threads(d);
    unsigned b = block_log_for(d, nt);
    if (czk__field_use_ifma && d->k >= IFMA_MIN_LOG) czk__ntt_dif_ifma(a, d->k, d->tw, inv, b, d->pass_max, nt);
    else if (czk_field_impl() == CZK_FIELD_ADX) dif_adx(a, d->k, d->tw, inv, b, d->pass_max, d->radix4, nt);
    else dif_portable(a, d->k, d->tw, inv, b, d->pass_max, d->radix4, nt);
}

static void run_dit(const czk_ntt_domain *d, czk_fr *a, int inv)
{
    int nt = domain_threads(d);
    unsigned b = block_log_for(d, nt);
    if (czk__field_use_ifma && d->k >= IFMA_MIN_LOG) czk__ntt_dit_ifma(a, d->k, d->tw, inv, b, d->pass_max, nt);
    else if (czk_field_impl() == CZK_FIELD_ADX) dit_adx(a, d->k, d->tw, inv, b, d->pass_max, d->radix4, nt);
    else dit_portable(a, d->k, d->tw, inv, b, d->pass_max, d->radix4, nt);
}

/* ---- domain ------------------------------------------------------------ */

czk_status czk_ntt_domain_create(czk_ntt_domain **out, unsigned log_n, czk_ntt_roots family)
{
    if (!out) return czk_error(CZK_ERR_INVALID_ARG, "ntt domain create: out is NULL");
    *out = NULL;
    if (log_n > CZK_NTT_MAX_LOG)
        return czk_error(CZK_ERR_INVALID_ARG, "ntt domain create: size 2^%u exceeds 2^%u", log_n, CZK_NTT_MAX_LOG);
    if (family != CZK_NTT_ROOTS_GEN7 && family != CZK_NTT_ROOTS_NQR5)
        return czk_error(CZK_ERR_INVALID_ARG, "ntt domain create: unknown root family %d", (int)family);
    czk_init();
    czk_ntt_domain *d = calloc(1, sizeof *d);
    if (!d) return czk_error(CZK_ERR_NOMEM, "ntt domain create: out of memory for the domain");
    d->k = log_n;
    d->n = (size_t)1 << log_n;
    d->family = family;
    d->block_log = NTT_BLOCK_LOG;
    d->pass_max = NTT_PASS_MAX;
    d->radix4 = 1;
    czk_status st = czk_ntt_root_of_unity(&d->omega, log_n, family);
    if (st != CZK_OK) {
        free(d);
        return st;
    }
    czk_fr_inv_var(&d->omega_inv, &d->omega);
    czk_fr nn;
    czk_fr_from_u64(&nn, 1);
    for (unsigned i = 0; i < log_n; i++) czk_fr_dbl(&nn, &nn);
    czk_fr_inv_var(&d->n_inv, &nn);

    d->tw_len = d->n > 1 ? d->n - 1 : 1;
    size_t bytes = (d->tw_len * sizeof(czk_fr) + 63) & ~(size_t)63;
    d->tw = aligned_alloc(64, bytes);
    if (!d->tw) {
        free(d);
        return czk_error(CZK_ERR_NOMEM, "ntt domain create: out of memory for %zu bytes of twiddles (2^%u)",
                         bytes, log_n);
    }
    d->tw[0] = CZK_FR_ONE;
    if (log_n >= 1) {
        /* top level l = k-1: T[i] = omega^i, i < n/2 */
        size_t h = d->n / 2;
        czk_fr *T = d->tw + (h - 1);
        int nt = log_n < NTT_PAR_MIN_LOG ? 1 : czk_threads();
#pragma omp parallel num_threads(nt) if (nt > 1)
        {
            int id = omp_get_thread_num(), cnt = omp_get_num_threads();
            size_t lo = h * (size_t)id / (size_t)cnt, hi = h * (size_t)(id + 1) / (size_t)cnt;
            czk_fr cur;
            czk_fr_pow_u64(&cur, &d->omega, lo);
            for (size_t i = lo; i < hi; i++) {
                T[i] = cur;
                czk__fr_mul(&cur, &cur, &d->omega);
            }
        }
        /* lower levels: T_l[i] = T_(l+1)[2i] (w_(2h) = w_(4h)^2) */
        for (unsigned l = log_n - 1; l-- > 0;) {
            size_t hl = (size_t)1 << l;
            czk_fr *Tl = d->tw + (hl - 1);
            const czk_fr *Tu = d->tw + (2 * hl - 1);
#pragma omp parallel for schedule(static) num_threads(nt) if (nt > 1 && hl >= 4096)
            for (size_t i = 0; i < hl; i++) Tl[i] = Tu[2 * i];
        }
    }
    *out = d;
    return CZK_OK;
}

void czk_ntt_domain_destroy(czk_ntt_domain *d)
{
    if (!d) return;
    free(d->tw);
    free(d);
}

size_t czk_ntt_domain_size(const czk_ntt_domain *d) { return d->n; }
unsigned czk_ntt_domain_log_size(const czk_ntt_domain *d) { return d->k; }
czk_ntt_roots czk_ntt_domain_family(const czk_ntt_domain *d) { return d->family; }

void czk_ntt_domain_omega(czk_fr *omega, czk_fr *omega_inv, czk_fr *n_inv, const czk_ntt_domain *d)
{
    if (omega) *omega = d->omega;
    if (omega_inv) *omega_inv = d->omega_inv;
    if (n_inv) *n_inv = d->n_inv;
}

size_t czk_ntt_domain_memory(const czk_ntt_domain *d)
{
    return sizeof *d + ((d->tw_len * sizeof(czk_fr) + 63) & ~(size_t)63);
}

void czk_ntt_domain_set_threads(czk_ntt_domain *d, int threads) { d->threads = threads > 0 ? threads : 0; }

void czk_ntt_domain_set_block_log(czk_ntt_domain *d, unsigned block_log)
{
    d->block_log = block_log < 4 ? 4 : block_log > 20 ? 20 : block_log;
}

void czk_ntt_domain_set_pass_max(czk_ntt_domain *d, unsigned levels)
{
    d->pass_max = levels < 1 ? 1 : levels > NTT_PASS_MAX ? NTT_PASS_MAX : levels;
}

void czk_ntt_domain_set_radix4(czk_ntt_domain *d, int on) { d->radix4 = on ? 1 : 0; }

/* ---- permutations and pointwise ---------------------------------------- */

#define BR_TILE_LOG 4

czk_status czk_ntt_bitreverse(czk_fr *a, size_t n, int threads)
{
    if (n == 0 || (n & (n - 1)))
        return czk_error(CZK_ERR_INVALID_ARG, "ntt bitreverse: length %zu is not a power of two", n);
    if (!a) return czk_error(CZK_ERR_INVALID_ARG, "ntt bitreverse: vector is NULL");
    unsigned k = (unsigned)__builtin_ctzll((unsigned long long)n);
    if (k < 2 * BR_TILE_LOG + 2) {
        for (size_t i = 0; i < n; i++) {
            size_t j = rev_bits(i, k);
            if (i < j) {
                czk_fr t = a[i];
                a[i] = a[j];
                a[j] = t;
            }
        }
        return CZK_OK;
    }
    /* Index = hi (BR_TILE_LOG bits) | mid | lo (BR_TILE_LOG bits); rev maps
     * (hi, mid, lo) to (rev lo, rev mid, rev hi), so tile mid (16 rows of 16
     * contiguous elements) swaps with tile rev(mid), both cache-resident
     * (Carter & Gatlin, "Towards an optimal bit-reversal permutation", 1998). */
    unsigned tb = BR_TILE_LOG, mb = k - 2 * tb;
    size_t T = (size_t)1 << tb, nmid = (size_t)1 << mb;
    int nt = k < NTT_PAR_MIN_LOG ? 1 : resolve_threads(threads);
    unsigned char rt[1 << BR_TILE_LOG];
    for (size_t i = 0; i < T; i++) rt[i] = (unsigned char)rev_bits(i, tb);
#pragma omp parallel for schedule(dynamic, 64) num_threads(nt) if (nt > 1)
    for (size_t m = 0; m < nmid; m++) {
        size_t mr = rev_bits(m, mb);
        if (mr < m) continue;
        for (size_t hi = 0; hi < T; hi++) {
            for (size_t lo = 0; lo < T; lo++) {
                size_t p = (hi << (k - tb)) | (m << tb) | lo;
                size_t q = ((size_t)rt[lo] << (k - tb)) | (mr << tb) | rt[hi];
                if (m == mr && q <= p) continue;
                czk_fr t = a[p];
                a[p] = a[q];
                a[q] = t;
            }
        }
    }
    return CZK_OK;
}

void czk_ntt_distribute_powers(czk_fr *a, size_t n, const czk_fr *s, const czk_fr *c, int threads)
{
    int nt = n < ((size_t)1 << NTT_PAR_MIN_LOG) ? 1 : resolve_threads(threads);
#pragma omp parallel num_threads(nt) if (nt > 1)
    {
        int id = omp_get_thread_num(), cnt = omp_get_num_threads();
        size_t lo = n * (size_t)id / (size_t)cnt, hi = n * (size_t)(id + 1) / (size_t)cnt;
        czk_fr cur;
        czk_fr_pow_u64(&cur, s, lo);
        if (c) czk__fr_mul(&cur, &cur, c);
        for (size_t i = lo; i < hi; i++) {
            czk__fr_mul(&a[i], &a[i], &cur);
            czk__fr_mul(&cur, &cur, s);
        }
    }
}

#define DB_LOG 10

/* a_j <- a_j c s^rev_k(j): distribute powers on a bit-reversed vector.
 * j = hi 2^lb + lo gives rev_k(j) = rev_lb(lo) 2^(k-lb) + rev_(k-lb)(hi), so
 * s^rev(j) = G[lo] s^rev(hi) with G[lo] = (s^(2^(k-lb)))^rev_lb(lo). */
static void distribute_powers_bitrev(czk_fr *a, unsigned k, const czk_fr *s, const czk_fr *c, int nt)
{
    unsigned lb = k < DB_LOG ? k : DB_LOG, hb = k - lb;
    size_t B = (size_t)1 << lb, nhi = (size_t)1 << hb;
    czk_fr G[(size_t)1 << DB_LOG], P = *s, cur = CZK_FR_ONE;
    for (unsigned i = 0; i < hb; i++) czk_fr_sqr(&P, &P);
    for (size_t x = 0; x < B; x++) {
        G[rev_bits(x, lb)] = cur;
        czk__fr_mul(&cur, &cur, &P);
    }
#pragma omp parallel for schedule(static) num_threads(nt) if (nt > 1)
    for (size_t hi = 0; hi < nhi; hi++) {
        czk_fr ch, t;
        czk_fr_pow_u64(&ch, s, rev_bits(hi, hb));
        czk__fr_mul(&ch, &ch, c);
        czk_fr *x = a + hi * B;
        for (size_t lo = 0; lo < B; lo++) {
            czk__fr_mul(&t, &G[lo], &ch);
            czk__fr_mul(&x[lo], &x[lo], &t);
        }
    }
}

/* ---- transforms -------------------------------------------------------- */

czk_status czk_ntt_forward(const czk_ntt_domain *d, czk_fr *a, size_t n)
{
    CZK_TRY(check_args(d, a, n, "ntt forward"));
    run_dif(d, a, 0);
    return czk_ntt_bitreverse(a, n, domain_threads(d));
}

czk_status czk_ntt_inverse(const czk_ntt_domain *d, czk_fr *a, size_t n)
{
    CZK_TRY(check_args(d, a, n, "ntt inverse"));
    run_dif(d, a, 1);
    CZK_TRY(czk_ntt_bitreverse(a, n, domain_threads(d)));
    scale_all(a, n, &d->n_inv, domain_threads(d));
    return CZK_OK;
}

czk_status czk_ntt_forward_dif(const czk_ntt_domain *d, czk_fr *a, size_t n)
{
    CZK_TRY(check_args(d, a, n, "ntt forward_dif"));
    run_dif(d, a, 0);
    return CZK_OK;
}

czk_status czk_ntt_inverse_dif(const czk_ntt_domain *d, czk_fr *a, size_t n)
{
    CZK_TRY(check_args(d, a, n, "ntt inverse_dif"));
    run_dif(d, a, 1);
    scale_all(a, n, &d->n_inv, domain_threads(d));
    return CZK_OK;
}

czk_status czk_ntt_forward_dit(const czk_ntt_domain *d, czk_fr *a, size_t n)
{
    CZK_TRY(check_args(d, a, n, "ntt forward_dit"));
    run_dit(d, a, 0);
    return CZK_OK;
}

czk_status czk_ntt_inverse_dit(const czk_ntt_domain *d, czk_fr *a, size_t n)
{
    CZK_TRY(check_args(d, a, n, "ntt inverse_dit"));
    run_dit(d, a, 1);
    scale_all(a, n, &d->n_inv, domain_threads(d));
    return CZK_OK;
}

static czk_status coset_shift(czk_fr *g, const czk_fr *s, const char *fn)
{
    if (s) *g = *s;
    else czk_fr_coset_gen(g);
    if (czk_fr_is_zero(g)) return czk_error(CZK_ERR_INVALID_ARG, "%s: coset shift is zero", fn);
    return CZK_OK;
}

czk_status czk_ntt_coset_forward(const czk_ntt_domain *d, czk_fr *a, size_t n, const czk_fr *s)
{
    czk_fr g;
    CZK_TRY(check_args(d, a, n, "ntt coset_forward"));
    CZK_TRY(coset_shift(&g, s, "ntt coset_forward"));
    czk_ntt_distribute_powers(a, n, &g, NULL, domain_threads(d));
    run_dif(d, a, 0);
    return czk_ntt_bitreverse(a, n, domain_threads(d));
}

czk_status czk_ntt_coset_inverse(const czk_ntt_domain *d, czk_fr *a, size_t n, const czk_fr *s)
{
    czk_fr g, gi;
    CZK_TRY(check_args(d, a, n, "ntt coset_inverse"));
    CZK_TRY(coset_shift(&g, s, "ntt coset_inverse"));
    czk_fr_inv_var(&gi, &g);
    run_dif(d, a, 1);
    CZK_TRY(czk_ntt_bitreverse(a, n, domain_threads(d)));
    czk_ntt_distribute_powers(a, n, &gi, &d->n_inv, domain_threads(d));
    return CZK_OK;
}

/* Values on the domain -> values on the coset s<omega>, no permutation:
 * inverse DIF (natural -> bit-reversed coefficients), coefficient j times
 * s^j / n (in bit-reversed order), forward DIT (-> natural). */
static void to_coset(const czk_ntt_domain *d, czk_fr *a, const czk_fr *s)
{
    if (czk__field_use_ifma && d->k >= IFMA_MIN_LOG) { /* the same, the scaling fused into the blocks */
        int nt = domain_threads(d);
        czk__ntt_coset_ifma(a, d->k, d->tw, block_log_for(d, nt), d->pass_max, nt, s, &d->n_inv);
        return;
    }
    run_dif(d, a, 1);
    distribute_powers_bitrev(a, d->k, s, &d->n_inv, domain_threads(d));
    run_dit(d, a, 0);
}

/* The last part of bellperson's H step: a holds (A B - C) / Z on the coset;
 * inverse coset FFT to the coefficients of h, natural order. */
static czk_status h_tail(const czk_ntt_domain *d, czk_fr *a, size_t m, const czk_fr *gi, int nt)
{
    if (czk__field_use_ifma && d->k >= IFMA_MIN_LOG) {
        czk__ntt_dif_scale_ifma(a, d->k, d->tw, 1, block_log_for(d, nt), d->pass_max, nt, gi, &d->n_inv);
        return czk_ntt_bitreverse(a, m, nt);
    }
    run_dif(d, a, 1);
    distribute_powers_bitrev(a, d->k, gi, &d->n_inv, nt);
    return czk_ntt_bitreverse(a, m, nt);
}

/* 1 / Z on the coset: Z(g omega^i) = g^m - 1 for every i. */
static void h_zinv(czk_fr *z, const czk_fr *g, size_t m)
{
    czk_fr_pow_u64(z, g, (uint64_t)m);
    czk_fr_sub(z, z, &CZK_FR_ONE);
    czk_fr_inv_var(z, z);
}

czk_status czk_ntt_groth16_h_fill(const czk_ntt_domain *d, czk_fr *a, czk_fr *t, size_t m, czk_ntt_fill_fn fill,
                                  void *ctx)
{
    CZK_TRY(check_args(d, a, m, "ntt groth16_h_fill (a)"));
    CZK_TRY(check_args(d, t, m, "ntt groth16_h_fill (scratch)"));
    if (!fill) return czk_error(CZK_ERR_INVALID_ARG, "ntt groth16_h_fill: no fill function");
    czk_fr g, gi, z;
    czk_fr_coset_gen(&g);
    czk_fr_inv_var(&gi, &g);
    h_zinv(&z, &g, m);
    int nt = domain_threads(d);
    CZK_TRY(fill(ctx, 0, a, m));
    to_coset(d, a, &g);
    CZK_TRY(fill(ctx, 1, t, m));
    to_coset(d, t, &g);
#pragma omp parallel for schedule(static) num_threads(nt) if (nt > 1)
    for (size_t i = 0; i < m; i++) czk__fr_mul(&a[i], &a[i], &t[i]);
    CZK_TRY(fill(ctx, 2, t, m));
    to_coset(d, t, &g);
#pragma omp parallel for schedule(static) num_threads(nt) if (nt > 1)
    for (size_t i = 0; i < m; i++) {
        czk__fr_sub(&a[i], &a[i], &t[i]);
        czk__fr_mul(&a[i], &a[i], &z);
    }
    return h_tail(d, a, m, &gi, nt);
}

czk_status czk_ntt_groth16_h(const czk_ntt_domain *d, czk_fr *a, czk_fr *b, czk_fr *c, size_t m)
{
    CZK_TRY(check_args(d, a, m, "ntt groth16_h (a)"));
    CZK_TRY(check_args(d, b, m, "ntt groth16_h (b)"));
    CZK_TRY(check_args(d, c, m, "ntt groth16_h (c)"));
    czk_fr g, gi, z;
    czk_fr_coset_gen(&g);
    czk_fr_inv_var(&gi, &g);
    to_coset(d, a, &g);
    to_coset(d, b, &g);
    to_coset(d, c, &g);
    h_zinv(&z, &g, m);
    int nt = domain_threads(d);
    if (czk__field_use_ifma && d->k >= IFMA_MIN_LOG) {
        czk__ntt_h_pointwise_ifma(a, b, c, &z, m, nt);
    } else {
#pragma omp parallel for schedule(static) num_threads(nt) if (nt > 1)
        for (size_t i = 0; i < m; i++) {
            czk__fr_mul(&a[i], &a[i], &b[i]);
            czk__fr_sub(&a[i], &a[i], &c[i]);
            czk__fr_mul(&a[i], &a[i], &z);
        }
    }
    /* inverse coset FFT: coefficients h_j = g^-j (1/m) sum_i e_i omega^-ij */
    return h_tail(d, a, m, &gi, nt);
}

czk_status czk_ntt_snarkjs_h(const czk_ntt_domain *d, czk_fr *a, czk_fr *b, czk_fr *c, size_t n)
{
    CZK_TRY(check_args(d, a, n, "ntt snarkjs_h (a)"));
    CZK_TRY(check_args(d, b, n, "ntt snarkjs_h (b)"));
    CZK_TRY(check_args(d, c, n, "ntt snarkjs_h (c)"));
    if (d->family != CZK_NTT_ROOTS_NQR5)
        return czk_error(CZK_ERR_INVALID_ARG, "ntt snarkjs_h: the domain must use the roots of 5 (snarkjs)");
    if (d->k >= 32) return czk_error(CZK_ERR_UNSUPPORTED, "ntt snarkjs_h: domain 2^32 has no 2n-th root");
    czk_fr w2;
    CZK_TRY(czk_ntt_root_of_unity(&w2, d->k + 1, CZK_NTT_ROOTS_NQR5));
    to_coset(d, a, &w2);
    to_coset(d, b, &w2);
    to_coset(d, c, &w2);
    int nt = domain_threads(d);
#pragma omp parallel for schedule(static) num_threads(nt) if (nt > 1)
    for (size_t i = 0; i < n; i++) {
        czk__fr_mul(&a[i], &a[i], &b[i]);
        czk__fr_sub(&a[i], &a[i], &c[i]);
    }
    return CZK_OK;
}

/* ---- reference --------------------------------------------------------- */

void czk_ntt_dft_ref(czk_fr *out, const czk_fr *in, size_t n, const czk_fr *w)
{
    czk_fr wi = CZK_FR_ONE;
    for (size_t i = 0; i < n; i++) {
        czk_fr acc = CZK_FR_ZERO, x = CZK_FR_ONE, t;
        for (size_t j = 0; j < n; j++) {
            czk_fr_mul(&t, &in[j], &x);
            czk_fr_add(&acc, &acc, &t);
            czk_fr_mul(&x, &x, &wi);
        }
        out[i] = acc;
        czk_fr_mul(&wi, &wi, w);
    }
}
