/* PCE evaluation: a = A.w, b = B.w, c = C.w over blocks of rows on
 * threads (the sparse mat-vec), and the setup's column sums M^T L. */
#include <omp.h>
#include <stdlib.h>
#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "czk/czk.h"
#include "czk/pce.h"
#include "ff/field_impl.h"
#include "pce/pce_internal.h"

#define LEN_ESCAPE CZK__PCE_LEN_ESCAPE
#define GENERAL CZK__PCE_GENERAL
typedef czk__pmat pmat;

static uint64_t long_row_len(const pmat *m, uint64_t r)
{
    uint64_t lo = 0, hi = m->n_over;
    while (lo < hi) {
        uint64_t mid = (lo + hi) / 2;
        if (m->over[2 * mid] < r) lo = mid + 1;
        else hi = mid;
    }
    return m->over[2 * lo + 1];
}

/* Store a result: non-temporal for large outputs (no read-for-ownership of
 * the destination line; a/b/c of a 32GiB partition are 12.5 GB that are not
 * read again before the NTT). */
static inline void store_fr(czk_fr *dst, const czk_fr *v, int nt)
{
#if defined(__SSE2__)
    if (nt) {
        __m128i lo = _mm_set_epi64x((long long)v->l[1], (long long)v->l[0]);
        __m128i hi = _mm_set_epi64x((long long)v->l[3], (long long)v->l[2]);
        _mm_stream_si128((__m128i *)(void *)dst, lo);
        _mm_stream_si128((__m128i *)(void *)dst + 1, hi);
        return;
    }
#else
    (void)nt;
#endif
    *dst = *v;
}

static inline int fr_is_zero(const czk_fr *v)
{
    return (v->l[0] | v->l[1] | v->l[2] | v->l[3]) == 0;
}

static inline int fr_is_one(const czk_fr *v)
{
    return ((v->l[0] ^ CZK_FR_ONE.l[0]) | (v->l[1] ^ CZK_FR_ONE.l[1]) | (v->l[2] ^ CZK_FR_ONE.l[2]) |
            (v->l[3] ^ CZK_FR_ONE.l[3])) == 0;
}

/* Rows [r0, r1) of m starting at non-zero k. Row r = sum of the general terms
 * table[code] * w[col], then the +-2^e terms by Horner's rule:
 * sum +-2^e_i w_i = ((+-w_1 2^(e_1-e_2) +- w_2) 2^(e_2-e_3) ...) 2^e_last, e_i decreasing. */
static void eval_rows(const pmat *m, czk_fr *out, uint64_t r0, uint64_t r1, const czk_fr *input, uint32_t n_in,
                      const czk_fr *aux_base, int nt)
{
    const uint16_t *meta = m->meta;
    const uint32_t *col = m->col;
    const uint16_t *code = m->code;
    uint64_t k = m->block[r0 / CZK_PCE_BLOCK];
    /* the witness values of the next PREFETCH non-zeros are requested ahead
     * (the evaluation otherwise waits on each load) */
    enum { PREFETCH = 32 };
    const uint64_t kend = m->block[(r1 + CZK_PCE_BLOCK - 1) / CZK_PCE_BLOCK];
    uint64_t pf = k;
    for (uint64_t r = r0; r < r1; r++) {
        uint64_t n = m->len[r];
        if (CZK_UNLIKELY(n == LEN_ESCAPE)) n = long_row_len(m, r);
        for (uint64_t want = k + n + PREFETCH < kend ? k + n + PREFETCH : kend; pf < want; pf++) {
            uint32_t cl = col[pf];
            __builtin_prefetch(cl < n_in ? &input[cl] : &aux_base[cl]);
        }
        if (n <= 1) { /* single-variable and empty rows (about half of a SHA-256 circuit's) */
            if (n == 0) {
                store_fr(&out[r], &CZK_FR_ZERO, nt);
                continue;
            }
            uint16_t c = code[k], mt = meta[c];
            uint32_t cl = col[k++];
            const czk_fr *v = cl < n_in ? &input[cl] : &aux_base[cl];
            czk_fr x;
            if (mt == 0) x = *v;
            else if (mt == CZK__PCE_NEG) czk__fr_sub(&x, &CZK_FR_ZERO, v);
            else if (fr_is_zero(v)) x = CZK_FR_ZERO;
            else if (fr_is_one(v)) x = m->table[c];
            else czk__fr_mul(&x, &m->table[c], v);
            store_fr(&out[r], &x, nt);
            continue;
        }
        uint64_t e = k + n;
        czk_fr acc = CZK_FR_ZERO, t;
        int any = 0;
        for (; k < e; k++) {
            uint16_t c = code[k];
            if (meta[c] != GENERAL) break;
            uint32_t cl = col[k];
            const czk_fr *v = cl < n_in ? &input[cl] : &aux_base[cl];
            /* most witness values are bits: 0 adds nothing, 1 adds the coefficient */
            if (fr_is_zero(v)) continue;
            any = 1;
            if (fr_is_one(v)) {
                czk__fr_add(&acc, &acc, &m->table[c]);
                continue;
            }
            czk__fr_mul(&t, &m->table[c], v);
            czk__fr_add(&acc, &acc, &t);
        }
        if (k < e) {
            czk_fr h = CZK_FR_ZERO;
            unsigned ep = meta[code[k]] & 0xffu;
            for (; k < e; k++) {
                uint16_t mt = meta[code[k]];
                unsigned ex = mt & 0xffu;
                for (unsigned d = ep - ex; d; d--) czk__fr_dbl(&h, &h);
                ep = ex;
                uint32_t cl = col[k];
                const czk_fr *v = cl < n_in ? &input[cl] : &aux_base[cl];
                if (mt & CZK__PCE_NEG) czk__fr_sub(&h, &h, v);
                else czk__fr_add(&h, &h, v);
            }
            for (unsigned d = ep; d; d--) czk__fr_dbl(&h, &h);
            if (any) czk__fr_add(&acc, &acc, &h);
            else acc = h;
        }
        store_fr(&out[r], &acc, nt);
    }
}

czk_status czk_pce_eval_range(const czk_pce *p, czk_fr *a, czk_fr *b, czk_fr *c, uint64_t row0, uint64_t row1,
                              const czk_fr *input, size_t n_input, const czk_fr *aux, size_t n_aux, int threads)
{
    if (n_input != p->n_inputs || n_input + n_aux != p->cols)
        return czk_error(CZK_ERR_INVALID_ARG, "PCE: witness has %zu inputs and %zu aux, the circuit %llu and %llu",
                         n_input, n_aux, (unsigned long long)p->n_inputs,
                         (unsigned long long)(p->cols - p->n_inputs));
    if (row0 % CZK_PCE_BLOCK != 0 || row0 > row1 || row1 > p->rows)
        return czk_error(CZK_ERR_INVALID_ARG, "PCE: rows [%llu, %llu) (start a multiple of %u, end <= %llu)",
                         (unsigned long long)row0, (unsigned long long)row1, CZK_PCE_BLOCK,
                         (unsigned long long)p->rows);
    if (threads <= 0) threads = czk_threads();
    czk_fr *outs[3] = {a ? a - row0 : NULL, b ? b - row0 : NULL, c ? c - row0 : NULL};
    const czk_fr *aux_base = aux - p->n_inputs; /* aux_base[col] for col >= n_inputs */
    const uint32_t n_in = (uint32_t)p->n_inputs;
    int nt[3];
    for (int i = 0; i < 3; i++) /* large 16-byte aligned outputs: streaming stores */
        nt[i] = outs[i] && row1 - row0 >= ((uint64_t)1 << 20) && ((uintptr_t)(outs[i] + row0) & 15) == 0;
    const uint64_t b0 = row0 / CZK_PCE_BLOCK, b1 = (row1 + CZK_PCE_BLOCK - 1) / CZK_PCE_BLOCK;
    /* A, B, C of a block of rows together: they read the same variables */
#pragma omp parallel num_threads(threads)
    {
#pragma omp for schedule(dynamic, 8) nowait
        for (uint64_t bi = b0; bi < b1; bi++) {
            uint64_t r0 = bi * CZK_PCE_BLOCK, r1 = r0 + CZK_PCE_BLOCK < row1 ? r0 + CZK_PCE_BLOCK : row1;
            for (int i = 0; i < 3; i++)
                if (outs[i]) eval_rows(&p->m[i], outs[i], r0, r1, input, n_in, aux_base, nt[i]);
        }
#if defined(__SSE2__)
        _mm_sfence(); /* each thread orders its streaming stores before the barrier */
#endif
    }
    return CZK_OK;
}

uint64_t czk__pce_eval_window = (uint64_t)1 << 22;

czk_status czk_pce_eval(const czk_pce *p, czk_fr *a, czk_fr *b, czk_fr *c, const czk_fr *input,
                        size_t n_input, const czk_fr *aux, size_t n_aux, int threads)
{
    if (!p->map) return czk_pce_eval_range(p, a, b, c, 0, p->rows, input, n_input, aux, n_aux, threads);
    /* mapped: window by window, each window's pages let go after it */
    uint64_t w = czk__pce_eval_window - czk__pce_eval_window % CZK_PCE_BLOCK;
    if (w == 0) w = CZK_PCE_BLOCK;
    const int which = a && !b && !c ? 0 : !a && b && !c ? 1 : !a && !b && c ? 2 : -1;
    for (uint64_t r0 = 0; r0 < p->rows; r0 += w) {
        const uint64_t r1 = p->rows - r0 < w ? p->rows : r0 + w;
        CZK_TRY(czk_pce_eval_range(p, a ? a + r0 : NULL, b ? b + r0 : NULL, c ? c + r0 : NULL, r0, r1, input,
                                   n_input, aux, n_aux, threads));
        czk__pce_drop_rows(p, which, r0, r1);
    }
    return CZK_OK;
}

uint64_t czk_pce_rows(const czk_pce *p)
{
    return p->rows;
}

void czk_pce_assignment(czk_cs_assignment *out, const czk_pce *p, const czk_fr *input,
                        const czk_fr *aux, const czk_fr *a, const czk_fr *b, const czk_fr *c)
{
    memset(out, 0, sizeof *out);
    out->input = input;
    out->n_input = p->n_inputs;
    out->aux = aux;
    out->n_aux = p->cols - p->n_inputs;
    out->a = a;
    out->b = b;
    out->c = c;
    out->n_constraints = p->rows;
    out->a_aux_density = p->dens[0];
    out->a_aux_popcount = p->pop[0];
    out->b_input_density = p->dens[1];
    out->b_input_popcount = p->pop[1];
    out->b_aux_density = p->dens[2];
    out->b_aux_popcount = p->pop[2];
}

/* ---- the setup's column sums ------------------------------------------------------------- */

czk_status czk_pce_columns(const czk_pce *p, int matrix, czk_fr *acc, const czk_fr *lag, uint64_t row0,
                           uint64_t row1, int threads)
{
    if (!p || matrix < 0 || matrix > 2 || !acc || !lag || row0 > row1 || row1 > p->rows)
        return czk_error(CZK_ERR_INVALID_ARG, "czk_pce_columns: matrix %d, rows [%llu, %llu)", matrix,
                         (unsigned long long)row0, (unsigned long long)row1);
    const pmat *m = &p->m[matrix];
    int nt = threads > 0 ? threads : czk_threads();
    if (nt < 1) nt = 1;
    /* each thread owns a range of columns and scans every row: no two
     * threads add into one element */
#pragma omp parallel num_threads(nt)
    {
        const int t = omp_get_thread_num(), n = omp_get_num_threads();
        const uint64_t lo = p->cols * (uint64_t)t / (uint64_t)n, hi = p->cols * (uint64_t)(t + 1) / (uint64_t)n;
        /* the first non-zero of row0: its block's offset, then the rows before it */
        uint64_t r = row0 / CZK_PCE_BLOCK * CZK_PCE_BLOCK, k = m->block[r / CZK_PCE_BLOCK];
        for (; r < row0; r++) k += m->len[r] == LEN_ESCAPE ? long_row_len(m, r) : m->len[r];
        for (; r < row1; r++) {
            uint64_t len = m->len[r] == LEN_ESCAPE ? long_row_len(m, r) : m->len[r];
            for (uint64_t e = k + len; k < e; k++) {
                uint64_t c = m->col[k];
                if (c < lo || c >= hi) continue;
                czk_fr x;
                czk_fr_mul(&x, &m->table[m->code[k]], &lag[r - row0]);
                czk_fr_add(&acc[c], &acc[c], &x);
            }
        }
    }
    return CZK_OK;
}

