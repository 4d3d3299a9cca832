/* Bulk linear-combination kernels on sorted term arrays (used by every LC
 * variant): merging one LC into another in one linear pass instead of one
 * binary-search insertion per term, and sorting + merging a batch of terms
 * appended out of order. The result equals bellpepper's term-by-term
 * insert_or_update: the same sorted indices, coefficients summed, zero sums
 * kept. */
#include "cs/cs_internal.h"
#include "cs/lc.h"
#include "ff/field_impl.h"

/* out = k * b (k NULL: b; neg: -that), with b's and k's power-of-two tags
 * turned into a table lookup instead of a multiplication. */
static inline void scaled(czk_lc_term *out, const czk_lc_term *b, const czk_fr *k, uint32_t ktag, int neg)
{
    uint32_t bt = b->reserved_;
    if (!k) {
        if (!neg) {
            out->coeff = b->coeff;
            out->reserved_ = bt;
            return;
        }
        ktag = CZK__TAG_POW2; /* scale by 2^0 */
    }
    if ((bt & CZK__TAG_POW2) && (ktag & CZK__TAG_POW2)) {
        uint32_t e = (bt & 0xff) + (ktag & 0xff);
        uint32_t sgn = ((bt ^ ktag) & CZK__TAG_NEG) ^ (neg ? CZK__TAG_NEG : 0);
        if (e < 256) {
            out->coeff = sgn ? czk__pow2_neg_table[e] : czk__pow2_table[e];
            out->reserved_ = CZK__TAG_POW2 | sgn | e;
            return;
        }
    }
    if (k) czk__fr_mul(&out->coeff, &b->coeff, k);
    else out->coeff = b->coeff;
    if (neg) czk_fr_neg(&out->coeff, &out->coeff);
    out->reserved_ = 0;
}

uint32_t czk__lc_merge(czk_lc_term *out, const czk_lc_term *a, uint32_t na, const czk_lc_term *b, uint32_t nb,
                       const czk_fr *k, int neg)
{
    uint32_t i = 0, j = 0, n = 0, ktag = k ? czk__pow2_tag(k) : 0;
    while (i < na && j < nb) {
        if (a[i].index < b[j].index) out[n++] = a[i++];
        else if (a[i].index > b[j].index) {
            scaled(&out[n], &b[j], k, ktag, neg);
            out[n].index = b[j].index;
            n++, j++;
        } else {
            czk_lc_term c;
            scaled(&c, &b[j], k, ktag, neg);
            out[n].index = a[i].index;
            out[n].reserved_ = 0;
            czk__fr_add(&out[n].coeff, &a[i].coeff, &c.coeff);
            n++, i++, j++;
        }
    }
    while (i < na) out[n++] = a[i++];
    for (; j < nb; j++, n++) {
        scaled(&out[n], &b[j], k, ktag, neg);
        out[n].index = b[j].index;
    }
    return n;
}

void czk__lc_append_scaled(czk_lc_term *out, const czk_lc_term *b, uint32_t nb, const czk_fr *k, int neg)
{
    uint32_t ktag = k ? czk__pow2_tag(k) : 0;
    for (uint32_t j = 0; j < nb; j++) {
        scaled(&out[j], &b[j], k, ktag, neg);
        out[j].index = b[j].index;
    }
}

/* Stable merge sort by index (runs of equal index keep their order), then
 * equal indices summed. scratch: n terms. */
uint32_t czk__lc_normalize(czk_lc_term *t, uint32_t n, czk_lc_term *scratch)
{
    if (n < 2) return n;
    /* insertion sort for short arrays; otherwise a natural merge sort: the
     * terms usually arrive as a few increasing runs (the bits of each
     * operand, allocated in order, possibly rotated) */
    if (n <= 24) {
        for (uint32_t i = 1; i < n; i++) {
            czk_lc_term x = t[i];
            uint32_t j = i;
            while (j > 0 && t[j - 1].index > x.index) {
                t[j] = t[j - 1];
                j--;
            }
            t[j] = x;
        }
    } else {
        czk_lc_term *src = t, *dst = scratch;
        for (;;) {
            uint32_t lo = 0, o = 0, runs = 0;
            while (lo < n) {
                uint32_t mid = lo + 1;
                while (mid < n && src[mid - 1].index <= src[mid].index) mid++;
                uint32_t hi = mid;
                if (mid < n) {
                    hi = mid + 1;
                    while (hi < n && src[hi - 1].index <= src[hi].index) hi++;
                }
                uint32_t i = lo, j = mid;
                while (i < mid && j < hi) dst[o++] = src[j].index < src[i].index ? src[j++] : src[i++];
                while (i < mid) dst[o++] = src[i++];
                while (j < hi) dst[o++] = src[j++];
                lo = hi;
                runs++;
            }
            czk_lc_term *tmp = src;
            src = dst;
            dst = tmp;
            if (runs <= 1) break;
        }
        if (src != t) memcpy(t, src, (size_t)n * sizeof(czk_lc_term));
    }
    uint32_t m = 0;
    for (uint32_t i = 0; i < n; i++) {
        if (m && t[m - 1].index == t[i].index) {
            czk__fr_add(&t[m - 1].coeff, &t[m - 1].coeff, &t[i].coeff);
            t[m - 1].reserved_ = 0;
        } else {
            t[m++] = t[i];
        }
    }
    return m;
}
