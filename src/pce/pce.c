/* Pre-compiled constraint evaluation: compact CSR, evaluation, files. */
#define _GNU_SOURCE
#include "czk/pce.h"

#include <errno.h>
#include <fcntl.h>
#include <omp.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <xxhash.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "common/fileio.h"
#include "czk/czk.h"
#include "ff/field_impl.h"
#include "pce/pce_internal.h"

#define LEN_ESCAPE CZK__PCE_LEN_ESCAPE
#define MAX_CODES CZK__PCE_MAX_CODES
#define GENERAL CZK__PCE_GENERAL
typedef czk__pmat pmat;

void czk__pmat_free(pmat *m)
{
    free(m->len);
    free(m->block);
    free(m->col);
    free(m->code);
    free(m->table);
    free(m->meta);
    free(m->over);
    memset(m, 0, sizeof *m);
}

void czk_pce_destroy(czk_pce *p)
{
    if (!p) return;
    for (int i = 0; i < 3; i++) {
        if (p->map) /* the arrays are views of the file's mapping; the block index is the PCE's own */
            free(p->m[i].block);
        else
            czk__pmat_free(&p->m[i]);
        free(p->dens[i]);
    }
    if (p->map) munmap(p->map, p->map_len);
    free(p);
}

/* ---- building ------------------------------------------------------------------ */

/* +-2^e (0 <= e < 256) in Montgomery form, sorted by the low limb, for
 * classifying coefficients by binary search. */
typedef struct pow2_ent {
    czk_fr v;
    uint16_t meta;
} pow2_ent;
static pow2_ent pow2_sorted[512];
static pthread_once_t pow2_once = PTHREAD_ONCE_INIT;
static int pow2_cmp(const void *x, const void *y)
{
    uint64_t a = ((const pow2_ent *)x)->v.l[0], b = ((const pow2_ent *)y)->v.l[0];
    return (a > b) - (a < b);
}
static void pow2_init(void)
{
    czk_fr p = CZK_FR_ONE;
    for (unsigned e = 0; e < 256; e++) {
        pow2_sorted[2 * e].v = p;
        pow2_sorted[2 * e].meta = (uint16_t)e;
        czk_fr_neg(&pow2_sorted[2 * e + 1].v, &p);
        pow2_sorted[2 * e + 1].meta = (uint16_t)(CZK__PCE_NEG | e);
        czk_fr_dbl(&p, &p);
    }
    qsort(pow2_sorted, 512, sizeof *pow2_sorted, pow2_cmp);
}

/* meta of v: GENERAL or (neg << 8 | e) when v = +-2^e */
static uint16_t classify(const czk_fr *v)
{
    size_t lo = 0, hi = 512;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (pow2_sorted[mid].v.l[0] < v->l[0]) lo = mid + 1;
        else hi = mid;
    }
    for (; lo < 512 && pow2_sorted[lo].v.l[0] == v->l[0]; lo++)
        if (czk_fr_eq(&pow2_sorted[lo].v, v)) return pow2_sorted[lo].meta;
    return GENERAL;
}

/* Distinct values -> value id; each value has up to two codes (multiplied
 * "general" and Horner "pow2"). */
typedef struct vinfo {
    int32_t code_gen, code_p2; /* -1 until used */
    uint16_t meta;             /* classify() */
} vinfo;

typedef struct rterm {
    uint32_t col;
    uint32_t vid;
    uint32_t key; /* sort key: general first, then decreasing exponent */
    uint16_t code;
} rterm;

struct czk__pmb {
    const char *name;
    uint64_t rows, nnz, cap_nnz, cap_code, cap_rows, cap_blocks, n_over, cap_over;
    uint16_t *len;
    uint64_t *block;
    uint32_t *col;
    uint16_t *code;
    uint64_t *over;
    /* value map */
    uint64_t hcap; /* power of two */
    int32_t *slot; /* -1 empty, else value id */
    czk_fr *vals;
    vinfo *vi;
    uint64_t nv, vcap, vicap;
    int32_t id_one, id_minus_one;
    /* codes */
    czk_fr *ctab;
    uint16_t *cmeta;
    uint64_t ncodes, ccap, cmcap;
    /* row scratch */
    rterm *rt;
    uint64_t rt_cap;
};

static inline int fr_same(const czk_fr *a, const czk_fr *b)
{
    return ((a->l[0] ^ b->l[0]) | (a->l[1] ^ b->l[1]) | (a->l[2] ^ b->l[2]) | (a->l[3] ^ b->l[3])) == 0;
}

static uint64_t fr_hash(const czk_fr *v)
{
    uint64_t h = v->l[0] * 0x9e3779b97f4a7c15ULL ^ v->l[1] * 0xc2b2ae3d27d4eb4fULL ^
                 v->l[2] * 0x165667b19e3779f9ULL ^ v->l[3];
    return h ^ (h >> 29);
}

static int grow(void **p, uint64_t *cap, uint64_t need, size_t elem)
{
    if (need <= *cap) return 1;
    uint64_t nc = *cap ? *cap : 64;
    while (nc < need) nc *= 2;
    void *q = realloc(*p, nc * elem);
    if (!q) return 0;
    *p = q;
    *cap = nc;
    return 1;
}

czk_status czk__pmb_create(czk__pmb **out, const char *name, uint64_t rows_hint)
{
    pthread_once(&pow2_once, pow2_init);
    *out = NULL;
    czk__pmb *b = calloc(1, sizeof *b);
    if (!b) return czk_error(CZK_ERR_NOMEM, "PCE builder");
    b->name = name;
    b->hcap = 1024;
    b->slot = malloc(b->hcap * sizeof *b->slot);
    b->id_one = b->id_minus_one = -1;
    int ok = b->slot && grow((void **)&b->len, &b->cap_rows, rows_hint ? rows_hint : 64, sizeof *b->len) &&
             grow((void **)&b->block, &b->cap_blocks, rows_hint / CZK_PCE_BLOCK + 2, sizeof *b->block);
    if (!ok) {
        czk__pmb_destroy(b);
        return czk_error(CZK_ERR_NOMEM, "PCE builder for matrix %s", name);
    }
    memset(b->slot, 0xff, b->hcap * sizeof *b->slot);
    *out = b;
    return CZK_OK;
}

void czk__pmb_destroy(czk__pmb *b)
{
    if (!b) return;
    free(b->len);
    free(b->block);
    free(b->col);
    free(b->code);
    free(b->over);
    free(b->slot);
    free(b->vals);
    free(b->vi);
    free(b->ctab);
    free(b->cmeta);
    free(b->rt);
    free(b);
}

/* value id of v (added if new); -1 out of memory */
static int32_t value_id(czk__pmb *b, const czk_fr *v)
{
    uint64_t mask = b->hcap - 1, i = fr_hash(v) & mask;
    while (b->slot[i] >= 0) {
        if (fr_same(&b->vals[b->slot[i]], v)) return b->slot[i];
        i = (i + 1) & mask;
    }
    if (!grow((void **)&b->vals, &b->vcap, b->nv + 1, sizeof *b->vals)) return -1;
    if (!grow((void **)&b->vi, &b->vicap, b->nv + 1, sizeof *b->vi)) return -1;
    int32_t id = (int32_t)b->nv++;
    b->vals[id] = *v;
    b->vi[id].code_gen = b->vi[id].code_p2 = -1;
    b->vi[id].meta = classify(v);
    b->slot[i] = id;
    if (2 * b->nv > b->hcap) {
        uint64_t ncap = 2 * b->hcap;
        int32_t *ns = malloc(ncap * sizeof *ns);
        if (!ns) return -1;
        memset(ns, 0xff, ncap * sizeof *ns);
        for (uint64_t c = 0; c < b->nv; c++) {
            uint64_t j = fr_hash(&b->vals[c]) & (ncap - 1);
            while (ns[j] >= 0) j = (j + 1) & (ncap - 1);
            ns[j] = (int32_t)c;
        }
        free(b->slot);
        b->slot = ns;
        b->hcap = ncap;
    }
    return id;
}

/* code of value id in mode p2 (1) or general (0); -1 table full, -2 no memory */
static int32_t code_for(czk__pmb *b, int32_t id, int p2)
{
    int32_t *c = p2 ? &b->vi[id].code_p2 : &b->vi[id].code_gen;
    if (*c >= 0) return *c;
    if (b->ncodes >= MAX_CODES) return -1;
    if (!grow((void **)&b->ctab, &b->ccap, b->ncodes + 1, sizeof *b->ctab)) return -2;
    if (!grow((void **)&b->cmeta, &b->cmcap, b->ncodes + 1, sizeof *b->cmeta)) return -2;
    b->ctab[b->ncodes] = b->vals[id];
    b->cmeta[b->ncodes] = p2 ? b->vi[id].meta : GENERAL;
    *c = (int32_t)b->ncodes++;
    return *c;
}

static int rterm_cmp(const void *x, const void *y)
{
    const rterm *a = x, *b = y;
    return (a->key > b->key) - (a->key < b->key);
}

/* Horner's doublings form a dependent chain (~6 cycles each) while the
 * multiplications of a row are independent (~30 cycles each, ADX Fr): Horner
 * pays when the row's largest exponent is at most 3 per +-2^e term (dense
 * bit packing: 1). */
#define HORNER_DBL_PER_TERM 3

czk_status czk__pmb_row(czk__pmb *b, const uint32_t *col, const czk_fr *const *coeff, uint32_t n)
{
    uint64_t r = b->rows;
    if (CZK_UNLIKELY(!grow((void **)&b->len, &b->cap_rows, r + 1, sizeof *b->len) ||
                     !grow((void **)&b->block, &b->cap_blocks, r / CZK_PCE_BLOCK + 2, sizeof *b->block) ||
                     !grow((void **)&b->rt, &b->rt_cap, n, sizeof *b->rt)))
        return czk_error(CZK_ERR_NOMEM, "PCE: matrix %s row %llu", b->name, (unsigned long long)r);
    if (r % CZK_PCE_BLOCK == 0) b->block[r / CZK_PCE_BLOCK] = b->nnz;
    uint32_t m = 0, np = 0, maxe = 0;
    for (uint32_t i = 0; i < n; i++) {
        const czk_fr *v = coeff[i];
        if ((v->l[0] | v->l[1] | v->l[2] | v->l[3]) == 0) continue;
        int32_t id;
        if (b->id_one >= 0 && fr_same(v, &CZK_FR_ONE)) id = b->id_one;
        else if (b->id_minus_one >= 0 && fr_same(v, &CZK_FR_MINUS_ONE)) id = b->id_minus_one;
        else {
            id = value_id(b, v);
            if (id < 0) return czk_error(CZK_ERR_NOMEM, "PCE: coefficient table of matrix %s", b->name);
            if (b->vi[id].meta == 0) b->id_one = id;
            if (b->vi[id].meta == CZK__PCE_NEG) b->id_minus_one = id;
        }
        uint16_t meta = b->vi[id].meta;
        if (meta != GENERAL && (meta & 0xff)) {
            np++;
            if ((meta & 0xffu) > maxe) maxe = meta & 0xffu;
        }
        b->rt[m].col = col[i];
        b->rt[m].vid = (uint32_t)id;
        m++;
    }
    int horner = np > 0 && maxe <= HORNER_DBL_PER_TERM * np;
    int sorted = 1;
    for (uint32_t i = 0; i < m; i++) {
        uint16_t meta = b->vi[b->rt[i].vid].meta;
        int p2 = meta != GENERAL && ((meta & 0xff) == 0 || horner);
        int32_t c = code_for(b, (int32_t)b->rt[i].vid, p2);
        if (c < 0)
            return c == -1 ? czk_error(CZK_ERR_UNSUPPORTED, "PCE: matrix %s has more than %u distinct coefficients",
                                       b->name, MAX_CODES)
                           : czk_error(CZK_ERR_NOMEM, "PCE: coefficient table of matrix %s", b->name);
        b->rt[i].code = (uint16_t)c;
        b->rt[i].key = p2 ? 512u - (meta & 0xffu) : 0u;
        if (i && b->rt[i].key < b->rt[i - 1].key) sorted = 0;
    }
    if (!sorted) {
        if (m <= 32) { /* insertion sort, stable */
            for (uint32_t i = 1; i < m; i++) {
                rterm t = b->rt[i];
                uint32_t j = i;
                while (j && b->rt[j - 1].key > t.key) b->rt[j] = b->rt[j - 1], j--;
                b->rt[j] = t;
            }
        } else {
            qsort(b->rt, m, sizeof *b->rt, rterm_cmp);
        }
    }
    if (CZK_UNLIKELY(!grow((void **)&b->col, &b->cap_nnz, b->nnz + m, sizeof *b->col))) goto nomem;
    if (CZK_UNLIKELY(!grow((void **)&b->code, &b->cap_code, b->nnz + m, sizeof *b->code))) goto nomem;
    for (uint32_t i = 0; i < m; i++) {
        b->col[b->nnz + i] = b->rt[i].col;
        b->code[b->nnz + i] = b->rt[i].code;
    }
    b->nnz += m;
    if (m >= LEN_ESCAPE) {
        if (!grow((void **)&b->over, &b->cap_over, 2 * (b->n_over + 1), sizeof *b->over)) goto nomem;
        b->over[2 * b->n_over] = r;
        b->over[2 * b->n_over + 1] = m;
        b->n_over++;
        b->len[r] = LEN_ESCAPE;
    } else {
        b->len[r] = (uint16_t)m;
    }
    b->rows = r + 1;
    return CZK_OK;
nomem:
    return czk_error(CZK_ERR_NOMEM, "PCE: matrix %s at %llu non-zeros", b->name, (unsigned long long)b->nnz);
}

czk_status czk__pmb_finish(czk__pmb *b, pmat *out, uint64_t *rows)
{
    memset(out, 0, sizeof *out);
    uint64_t nblocks = (b->rows + CZK_PCE_BLOCK - 1) / CZK_PCE_BLOCK;
    if (!grow((void **)&b->block, &b->cap_blocks, nblocks + 1, sizeof *b->block))
        return czk_error(CZK_ERR_NOMEM, "PCE: matrix %s", b->name);
    b->block[nblocks] = b->nnz;
    out->nnz = b->nnz;
    out->distinct = b->ncodes;
    out->n_over = b->n_over;
    /* shrink to size (mremap for large blocks, no copy) */
    out->len = b->len, b->len = NULL;
    out->block = b->block, b->block = NULL;
    out->col = b->nnz ? realloc(b->col, b->nnz * sizeof *out->col) : b->col;
    out->code = b->nnz ? realloc(b->code, b->nnz * sizeof *out->code) : b->code;
    if (!out->col) out->col = b->col;
    if (!out->code) out->code = b->code;
    b->col = NULL, b->code = NULL;
    if (!out->len) out->len = malloc(sizeof *out->len);
    if (!out->col) out->col = malloc(sizeof *out->col);
    if (!out->code) out->code = malloc(sizeof *out->code);
    out->over = b->over, b->over = NULL;
    out->table = b->ctab, b->ctab = NULL;
    out->meta = b->cmeta, b->cmeta = NULL;
    if (!out->table) out->table = malloc(sizeof *out->table);
    if (!out->meta) out->meta = malloc(sizeof *out->meta);
    if (!out->len || !out->col || !out->code || !out->table || !out->meta) {
        czk__pmat_free(out);
        return czk_error(CZK_ERR_NOMEM, "PCE: matrix %s", b->name);
    }
    for (uint64_t k = 0; k < out->nnz; k++) {
        uint16_t mt = out->meta[out->code[k]];
        out->unit += mt == 0 || mt == CZK__PCE_NEG;
        out->pow2 += mt != GENERAL;
    }
    *rows = b->rows;
    return CZK_OK;
}

static czk_status derive_densities(czk_pce *p)
{
    uint64_t n_aux = p->cols - p->n_inputs;
    size_t words_aux = (size_t)((n_aux + 63) / 64), words_in = (size_t)((p->n_inputs + 63) / 64);
    for (int i = 0; i < 3; i++) free(p->dens[i]);
    p->dens[0] = calloc(words_aux ? words_aux : 1, 8);
    p->dens[1] = calloc(words_in ? words_in : 1, 8);
    p->dens[2] = calloc(words_aux ? words_aux : 1, 8);
    if (!p->dens[0] || !p->dens[1] || !p->dens[2]) return czk_error(CZK_ERR_NOMEM, "PCE: density bitmaps");
    for (int mi = 0; mi < 2; mi++) {
        const pmat *m = &p->m[mi];
        uint64_t *da = p->dens[mi == 0 ? 0 : 2];
        const uint64_t n_in = p->n_inputs;
        for (uint64_t k = 0; k < m->nnz; k++) {
            uint64_t c = m->col[k];
            if (c >= n_in) {
                uint64_t j = c - n_in;
                da[j / 64] |= 1ULL << (j % 64);
            } else if (mi == 1) {
                p->dens[1][c / 64] |= 1ULL << (c % 64);
            }
        }
    }
    p->pop[0] = p->pop[1] = p->pop[2] = 0;
    for (size_t i = 0; i < words_aux; i++) p->pop[0] += (uint64_t)__builtin_popcountll(p->dens[0][i]);
    for (size_t i = 0; i < words_in; i++) p->pop[1] += (uint64_t)__builtin_popcountll(p->dens[1][i]);
    for (size_t i = 0; i < words_aux; i++) p->pop[2] += (uint64_t)__builtin_popcountll(p->dens[2][i]);
    return CZK_OK;
}

czk_status czk__pce_assemble(czk_pce **out, pmat m[3], uint64_t rows, uint64_t cols, uint64_t n_inputs,
                             const char *key)
{
    *out = NULL;
    czk_pce *p = calloc(1, sizeof *p);
    if (!p) {
        for (int i = 0; i < 3; i++) czk__pmat_free(&m[i]);
        return czk_error(CZK_ERR_NOMEM, "PCE");
    }
    p->rows = rows;
    p->cols = cols;
    p->n_inputs = n_inputs;
    p->nblocks = (rows + CZK_PCE_BLOCK - 1) / CZK_PCE_BLOCK;
    snprintf(p->key, sizeof p->key, "%s", key ? key : "");
    for (int i = 0; i < 3; i++) {
        p->m[i] = m[i];
        memset(&m[i], 0, sizeof m[i]);
    }
    czk_status st = derive_densities(p);
    if (st != CZK_OK) {
        czk_pce_destroy(p);
        return st;
    }
    *out = p;
    return CZK_OK;
}

czk_status czk_pce_from_csr(czk_pce **out, const czk_csr *a, const czk_csr *b, const czk_csr *c,
                            uint64_t n_inputs, const char *key)
{
    *out = NULL;
    if (a->n_rows != b->n_rows || a->n_rows != c->n_rows || a->n_cols != b->n_cols ||
        a->n_cols != c->n_cols || n_inputs == 0 || n_inputs > a->n_cols)
        return czk_error(CZK_ERR_INVALID_ARG, "PCE: inconsistent matrices");
    if (a->n_cols > UINT32_MAX)
        return czk_error(CZK_ERR_UNSUPPORTED, "PCE: %llu columns exceed 2^32", (unsigned long long)a->n_cols);
    const czk_csr *ms[3] = {a, b, c};
    static const char *const names[3] = {"A", "B", "C"};
    pmat m[3];
    memset(m, 0, sizeof m);
    czk_status st = CZK_OK;
    const czk_fr **cf = NULL;
    uint64_t cf_cap = 0;
    for (int i = 0; i < 3 && st == CZK_OK; i++) {
        czk__pmb *bld = NULL;
        st = czk__pmb_create(&bld, names[i], ms[i]->n_rows);
        for (uint64_t r = 0; r < ms[i]->n_rows && st == CZK_OK; r++) {
            uint64_t k0 = ms[i]->row_ptr[r], n = ms[i]->row_ptr[r + 1] - k0;
            if (!grow((void **)&cf, &cf_cap, n, sizeof *cf)) {
                st = czk_error(CZK_ERR_NOMEM, "PCE: row of %llu terms", (unsigned long long)n);
                break;
            }
            for (uint64_t k = 0; k < n; k++) cf[k] = &ms[i]->val[k0 + k];
            st = czk__pmb_row(bld, ms[i]->col + k0, cf, (uint32_t)n);
        }
        uint64_t rows = 0;
        if (st == CZK_OK) st = czk__pmb_finish(bld, &m[i], &rows);
        czk__pmb_destroy(bld);
    }
    free(cf);
    if (st != CZK_OK) {
        for (int i = 0; i < 3; i++) czk__pmat_free(&m[i]);
        return st;
    }
    return czk__pce_assemble(out, m, a->n_rows, a->n_cols, n_inputs, key);
}

void czk_pce_info_get(const czk_pce *p, czk_pce_info *info)
{
    memset(info, 0, sizeof *info);
    info->rows = p->rows;
    info->cols = p->cols;
    info->n_inputs = p->n_inputs;
    size_t bytes = sizeof *p;
    uint64_t total = 0;
    for (int i = 0; i < 3; i++) {
        const pmat *m = &p->m[i];
        info->nnz[i] = m->nnz;
        info->distinct[i] = m->distinct;
        info->unit[i] = m->unit;
        info->pow2[i] = m->pow2;
        total += m->nnz;
        bytes += p->rows * sizeof(uint16_t) + (p->nblocks + 1) * sizeof(uint64_t) +
                 m->nnz * (sizeof(uint32_t) + sizeof(uint16_t)) + m->distinct * (sizeof(czk_fr) + 2) +
                 m->n_over * 16;
    }
    uint64_t n_aux = p->cols - p->n_inputs;
    bytes += 2 * ((n_aux + 63) / 64) * 8 + ((p->n_inputs + 63) / 64) * 8;
    info->bytes = bytes;
    info->bytes_per_nnz = total ? (double)bytes / (double)total : 0;
    if (p->map) {
        info->mapped_bytes = p->map_len;
        for (int i = 0; i < 3; i++) {
            size_t mb = p->map_range[i][1] - p->map_range[i][0];
            if (mb > info->max_matrix_bytes) info->max_matrix_bytes = mb;
        }
    }
    info->a_aux_popcount = p->pop[0];
    info->b_input_popcount = p->pop[1];
    info->b_aux_popcount = p->pop[2];
    snprintf(info->key, sizeof info->key, "%s", p->key);
}

void czk__pce_drop_pages(const czk_pce *p, int which)
{
    if (!p || !p->map) return;
    const uintptr_t page = 4096;
    for (int i = 0; i < 3; i++) {
        if (which >= 0 && i != which) continue;
        /* whole pages inside the matrix's range: its neighbours' pages stay */
        uintptr_t lo = ((uintptr_t)p->map + p->map_range[i][0] + page - 1) & ~(page - 1);
        uintptr_t hi = ((uintptr_t)p->map + p->map_range[i][1]) & ~(page - 1);
        if (hi > lo) (void)madvise((void *)lo, hi - lo, MADV_DONTNEED);
    }
}

/* ---- evaluation ------------------------------------------------------------------ */

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

czk_status czk_pce_eval(const czk_pce *p, czk_fr *a, czk_fr *b, czk_fr *c, const czk_fr *input,
                        size_t n_input, const czk_fr *aux, size_t n_aux, int threads)
{
    return czk_pce_eval_range(p, a, b, c, 0, p->rows, input, n_input, aux, n_aux, threads);
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

/* ---- files --------------------------------------------------------------------- */

#define MAGIC "CZKPCE\0\1"
#define FILE_VERSION 3u

typedef struct file_header {
    char magic[8];
    uint32_t version, header_bytes;
    char key[CZK_PCE_KEY_MAX];
    uint64_t rows, cols, n_inputs;
    uint64_t nnz[3], distinct[3], n_over[3];
} file_header;

/* Version 3: every array starts at a multiple of CZK__PCE_FILE_ALIGN, so that
 * a read maps the file and points into it (no copy); zero padding between.
 * The trailer is a u64: XXH3-64 over the little-endian XXH3-64 digests of
 * the file's 64 MiB chunks before it (hashed in parallel on read). */
static uint64_t align_up(uint64_t v)
{
    return (v + CZK__PCE_FILE_ALIGN - 1) / CZK__PCE_FILE_ALIGN * CZK__PCE_FILE_ALIGN;
}

/* The byte lengths of the 18 arrays in file order: per matrix len, col,
 * code, table, meta, over. */
static void array_lens(uint64_t out[18], uint64_t rows, const uint64_t nnz[3], const uint64_t distinct[3],
                       const uint64_t n_over[3])
{
    for (int i = 0; i < 3; i++) {
        out[6 * i + 0] = rows * sizeof(uint16_t);
        out[6 * i + 1] = nnz[i] * sizeof(uint32_t);
        out[6 * i + 2] = nnz[i] * sizeof(uint16_t);
        out[6 * i + 3] = distinct[i] * sizeof(czk_fr);
        out[6 * i + 4] = distinct[i] * sizeof(uint16_t);
        out[6 * i + 5] = n_over[i] * 2 * sizeof(uint64_t);
    }
}

uint64_t czk__pce_file_sum(const uint8_t *buf, uint64_t len, int threads)
{
    const uint64_t CH = CZK__PCE_SUM_CHUNK;
    uint64_t n = (len + CH - 1) / CH;
    uint64_t *d = malloc((n ? n : 1) * sizeof *d);
    if (!d) return 0;
    int nt = threads > 0 ? threads : czk_threads();
#pragma omp parallel for num_threads(nt > 0 ? nt : 1) schedule(dynamic, 1) if (n > 1)
    for (uint64_t k = 0; k < n; k++) {
        uint64_t m = len - k * CH < CH ? len - k * CH : CH;
        d[k] = XXH3_64bits(buf + k * CH, (size_t)m);
    }
    uint8_t *le = malloc((n ? n : 1) * 8);
    uint64_t r = 0;
    if (le) {
        for (uint64_t k = 0; k < n; k++)
            for (int b = 0; b < 8; b++) le[8 * k + (uint64_t)b] = (uint8_t)(d[k] >> (8 * b));
        r = XXH3_64bits(le, (size_t)(8 * n));
    }
    free(le);
    free(d);
    return r;
}

static const uint8_t zero_pad[CZK__PCE_FILE_ALIGN];

czk_status czk_pce_write(const czk_pce *p, const char *path)
{
    file_header h;
    memset(&h, 0, sizeof h);
    memcpy(h.magic, MAGIC, 8);
    h.version = FILE_VERSION;
    h.header_bytes = sizeof h;
    snprintf(h.key, sizeof h.key, "%s", p->key);
    h.rows = p->rows;
    h.cols = p->cols;
    h.n_inputs = p->n_inputs;
    for (int i = 0; i < 3; i++) {
        h.nnz[i] = p->m[i].nnz;
        h.distinct[i] = p->m[i].distinct;
        h.n_over[i] = p->m[i].n_over;
    }
    enum { MAXC = 2 * 19 + 1 };
    const void *chunks[MAXC];
    size_t lens[MAXC];
    size_t n = 0;
    uint64_t off = 0;
    chunks[n] = &h, lens[n++] = sizeof h, off += sizeof h;
    uint64_t al[18];
    array_lens(al, p->rows, h.nnz, h.distinct, h.n_over);
    for (int i = 0; i < 3; i++) {
        const pmat *m = &p->m[i];
        const void *src[6] = {m->len, m->col, m->code, m->table, m->meta, m->over};
        for (int j = 0; j < 6; j++) {
            uint64_t pad = align_up(off) - off;
            if (pad) chunks[n] = zero_pad, lens[n++] = (size_t)pad, off += pad;
            chunks[n] = src[j], lens[n++] = (size_t)al[6 * i + j], off += al[6 * i + j];
        }
    }
    /* the chunk digests over the byte stream, then the trailer */
    const uint64_t CH = CZK__PCE_SUM_CHUNK;
    uint64_t nd = (off + CH - 1) / CH;
    uint8_t *le = malloc((nd ? nd : 1) * 8);
    XXH3_state_t *xs = XXH3_createState();
    if (!xs || !le) {
        free(le);
        if (xs) XXH3_freeState(xs);
        return czk_error(CZK_ERR_NOMEM, "PCE: checksum state");
    }
    uint64_t pos = 0, k = 0;
    XXH3_64bits_reset(xs);
    for (size_t c = 0; c < n; c++) {
        const uint8_t *b = chunks[c];
        size_t left = lens[c];
        while (left) {
            uint64_t room = CH - pos % CH;
            size_t take = left < room ? left : (size_t)room;
            XXH3_64bits_update(xs, b, take);
            b += take, left -= take, pos += take;
            if (pos % CH == 0) {
                uint64_t d = XXH3_64bits_digest(xs);
                for (int q = 0; q < 8; q++) le[8 * k + (uint64_t)q] = (uint8_t)(d >> (8 * q));
                k++;
                XXH3_64bits_reset(xs);
            }
        }
    }
    if (pos % CH) {
        uint64_t d = XXH3_64bits_digest(xs);
        for (int q = 0; q < 8; q++) le[8 * k + (uint64_t)q] = (uint8_t)(d >> (8 * q));
        k++;
    }
    XXH3_freeState(xs);
    uint64_t sum = XXH3_64bits(le, (size_t)(8 * k));
    free(le);
    chunks[n] = &sum, lens[n++] = sizeof sum;
    return czk__write_atomic(path, chunks, lens, n);
}

/* First failure of a parallel pass: the lowest (row or non-zero) position wins,
 * so the message does not depend on the thread schedule. */
typedef struct first_err {
    uint64_t pos;
    char msg[256];
} first_err;

static void note_err(first_err *e, uint64_t pos, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void note_err(first_err *e, uint64_t pos, const char *fmt, ...)
{
#pragma omp critical(czk_pce_read_err)
    if (pos < e->pos) {
        e->pos = pos;
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(e->msg, sizeof e->msg, fmt, ap);
        va_end(ap);
    }
}

static inline void set_bit(uint64_t *d, uint64_t j)
{
    uint64_t bit = 1ULL << (j % 64);
    if (!(__atomic_load_n(&d[j / 64], __ATOMIC_RELAXED) & bit)) __atomic_fetch_or(&d[j / 64], bit, __ATOMIC_RELAXED);
}

/* Structure of matrix mi read from a file, on threads: row lengths (and the
 * long-row table) against the non-zero count, the block index rebuilt,
 * columns and codes in range, coefficients canonical, non-zero and of their
 * class, each row's evaluation order; the unit / pow2 counts and the
 * densities (A and B) derived in the same pass. */
static czk_status validate_matrix(czk_pce *p, int mi, const char *path, int nt)
{
    static const char *const names[3] = {"A", "B", "C"};
    pmat *m = &p->m[mi];
    const uint64_t nb = p->nblocks, rows = p->rows, nnz = m->nnz;
    uint64_t *esc0 = calloc(nb + 1, sizeof *esc0), *bn = calloc(nb + 1, sizeof *bn);
    if (!esc0 || !bn) {
        free(esc0), free(bn);
        return czk_error(CZK_ERR_NOMEM, "%s: PCE validation", path);
    }
    first_err e = {UINT64_MAX, ""};
    /* escapes per block, then where each block's entries of the long-row table start */
#pragma omp parallel for num_threads(nt) schedule(dynamic, 64)
    for (uint64_t b = 0; b < nb; b++) {
        uint64_t r1 = (b + 1) * CZK_PCE_BLOCK < rows ? (b + 1) * CZK_PCE_BLOCK : rows, c = 0;
        for (uint64_t r = b * CZK_PCE_BLOCK; r < r1; r++) c += m->len[r] == LEN_ESCAPE;
        esc0[b + 1] = c;
    }
    for (uint64_t b = 0; b < nb; b++) esc0[b + 1] += esc0[b];
    if (esc0[nb] != m->n_over) {
        uint64_t long_rows = esc0[nb];
        free(esc0), free(bn);
        return czk_error(CZK_ERR_FORMAT, "%s: matrix %s: %llu long rows, the long-row table has %llu", path,
                         names[mi], (unsigned long long)long_rows, (unsigned long long)m->n_over);
    }
    /* non-zeros per block */
#pragma omp parallel for num_threads(nt) schedule(dynamic, 64)
    for (uint64_t b = 0; b < nb; b++) {
        uint64_t r1 = (b + 1) * CZK_PCE_BLOCK < rows ? (b + 1) * CZK_PCE_BLOCK : rows, w = 0, oi = esc0[b];
        for (uint64_t r = b * CZK_PCE_BLOCK; r < r1; r++) {
            uint64_t n = m->len[r];
            if (n == LEN_ESCAPE) {
                if (m->over[2 * oi] != r) {
                    note_err(&e, r, "%s: matrix %s row %llu: long-row table inconsistent", path, names[mi],
                             (unsigned long long)r);
                    break;
                }
                n = m->over[2 * oi + 1];
                oi++;
            }
            if (n > nnz - w) {
                note_err(&e, r, "%s: matrix %s row %llu: lengths exceed the non-zero count", path, names[mi],
                         (unsigned long long)r);
                break;
            }
            w += n;
        }
        bn[b] = w;
    }
    if (e.pos != UINT64_MAX) {
        free(esc0), free(bn);
        return czk_error(CZK_ERR_FORMAT, "%s", e.msg);
    }
    uint64_t w = 0;
    for (uint64_t b = 0; b < nb; b++) {
        m->block[b] = w;
        if (bn[b] > nnz - w) {
            free(esc0), free(bn);
            return czk_error(CZK_ERR_FORMAT, "%s: matrix %s row %llu: lengths exceed the non-zero count", path,
                             names[mi], (unsigned long long)(b * CZK_PCE_BLOCK));
        }
        w += bn[b];
    }
    m->block[nb] = w;
    if (w != nnz) {
        free(esc0), free(bn);
        return czk_error(CZK_ERR_FORMAT, "%s: matrix %s: row lengths sum to %llu, header says %llu", path, names[mi],
                         (unsigned long long)w, (unsigned long long)nnz);
    }
    for (uint64_t c = 0; c < m->distinct; c++) {
        uint64_t limbs[4];
        memcpy(limbs, m->table[c].l, sizeof limbs);
        czk_fr chk;
        /* Montgomery values are < r exactly when canonical */
        if (czk_fr_from_limbs(&chk, limbs) != CZK_OK || czk_fr_is_zero(&m->table[c])) {
            free(esc0), free(bn);
            return czk_error(CZK_ERR_FORMAT, "%s: matrix %s coefficient %llu is not a canonical non-zero element",
                             path, names[mi], (unsigned long long)c);
        }
        if (m->meta[c] != GENERAL && m->meta[c] != classify(&m->table[c])) {
            free(esc0), free(bn);
            return czk_error(CZK_ERR_FORMAT, "%s: matrix %s coefficient %llu: wrong evaluation class", path,
                             names[mi], (unsigned long long)c);
        }
    }
    /* every non-zero: ranges, evaluation order, counts, densities; on a few
     * threads each marks its own copy of the bitmaps (plain stores, OR-ed
     * after), on many the shared ones with atomic ORs */
    uint64_t unit = 0, pow2 = 0;
    const uint64_t n_in = p->n_inputs, cols = p->cols, distinct = m->distinct;
    uint64_t *da = mi == 0 ? p->dens[0] : mi == 1 ? p->dens[2] : NULL, *di = mi == 1 ? p->dens[1] : NULL;
    const size_t wa = (size_t)((cols - n_in + 63) / 64), wi = (size_t)((n_in + 63) / 64);
    uint64_t *pa = NULL, *pi = NULL;
    int priv = (da || di) && nt > 1 && nt <= 8;
    if (priv) {
        pa = da ? calloc((size_t)nt * wa + 1, 8) : NULL;
        pi = di ? calloc((size_t)nt * wi + 1, 8) : NULL;
        priv = (!da || pa) && (!di || pi);
    }
#pragma omp parallel num_threads(nt) reduction(+ : unit, pow2)
    {
        const size_t t = (size_t)omp_get_thread_num();
        uint64_t *my_a = priv && da ? pa + t * wa : da, *my_i = priv && di ? pi + t * wi : di;
#pragma omp for schedule(dynamic, 64)
        for (uint64_t b = 0; b < nb; b++) {
            uint64_t r1 = (b + 1) * CZK_PCE_BLOCK < rows ? (b + 1) * CZK_PCE_BLOCK : rows, k = m->block[b],
                     oi = esc0[b];
            for (uint64_t r = b * CZK_PCE_BLOCK; r < r1; r++) {
                uint64_t n = m->len[r];
                if (n == LEN_ESCAPE) n = m->over[2 * oi++ + 1];
                unsigned last = 0x1ff; /* above every (general) key */
                for (uint64_t end = k + n; k < end; k++) {
                    uint32_t col = m->col[k];
                    uint16_t code = m->code[k];
                    if (col >= cols || code >= distinct) {
                        note_err(&e, k, "%s: matrix %s non-zero %llu: column or coefficient code out of range",
                                 path, names[mi], (unsigned long long)k);
                        r = r1;
                        break;
                    }
                    uint16_t mt = m->meta[code];
                    unsigned key = mt == GENERAL ? 0x1ff : (mt & 0xffu);
                    if (key > last) {
                        note_err(&e, k, "%s: matrix %s row %llu: terms out of evaluation order", path, names[mi],
                                 (unsigned long long)r);
                        r = r1;
                        break;
                    }
                    last = key;
                    unit += mt == 0 || mt == CZK__PCE_NEG;
                    pow2 += mt != GENERAL;
                    uint64_t *d = col >= n_in ? my_a : my_i;
                    uint64_t j = col >= n_in ? col - n_in : col;
                    if (!d) continue;
                    if (priv)
                        d[j / 64] |= 1ULL << (j % 64);
                    else
                        set_bit(d, j);
                }
            }
        }
    }
    if (priv) {
#pragma omp parallel for num_threads(nt) schedule(static)
        for (size_t x = 0; x < wa + wi; x++) {
            uint64_t *dst = x < wa ? da : di, *src = x < wa ? pa : pi;
            size_t w = x < wa ? x : x - wa, stride = x < wa ? wa : wi;
            if (!dst) continue;
            uint64_t v = dst[w];
            for (int t = 0; t < nt; t++) v |= src[(size_t)t * stride + w];
            dst[w] = v;
        }
    }
    free(pa), free(pi);
    free(esc0), free(bn);
    if (e.pos != UINT64_MAX) return czk_error(CZK_ERR_FORMAT, "%s", e.msg);
    m->unit = unit;
    m->pow2 = pow2;
    return CZK_OK;
}

czk_status czk_pce_read(czk_pce **out, const char *path, const char *expect_key)
{
    *out = NULL;
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return czk_error(CZK_ERR_IO, "%s: %s", path, strerror(errno));
    struct stat st;
    if (fstat(fd, &st) != 0) {
        close(fd);
        return czk_error(CZK_ERR_IO, "%s: %s", path, strerror(errno));
    }
    const uint64_t size = (uint64_t)st.st_size;
    if (!S_ISREG(st.st_mode)) {
        close(fd);
        return czk_error(CZK_ERR_IO, "%s: not a regular file", path);
    }
    if (size < sizeof(file_header) + 8) {
        close(fd);
        return czk_error(CZK_ERR_FORMAT, "%s: truncated: %llu bytes, less than a header and a checksum", path,
                         (unsigned long long)size);
    }
    /* The mapping stays for the PCE's life: its arrays point into it. czk
     * writes cache files under a temporary name and renames them, so a file
     * replaced meanwhile leaves this mapping's inode alone. */
    uint8_t *map = mmap(NULL, (size_t)size, PROT_READ, MAP_PRIVATE, fd, 0);
    close(fd);
    if (map == MAP_FAILED) return czk_error(CZK_ERR_IO, "%s: mmap: %s", path, strerror(errno));
    madvise(map, (size_t)size, MADV_WILLNEED);
    czk_pce *p = calloc(1, sizeof *p);
    czk_status s = CZK_OK;
    if (!p) {
        munmap(map, (size_t)size);
        return czk_error(CZK_ERR_NOMEM, "PCE read");
    }
    p->map = map;
    p->map_len = (size_t)size;
    file_header h;
    memcpy(&h, map, sizeof h);
    if (memcmp(h.magic, MAGIC, 8) != 0) {
        s = czk_error(CZK_ERR_FORMAT, "%s: not a czk PCE file (bad magic)", path);
        goto fail;
    }
    if (h.version != FILE_VERSION || h.header_bytes != sizeof h) {
        s = czk_error(CZK_ERR_FORMAT, "%s: PCE file version %u, this czk reads version %u", path, h.version,
                      FILE_VERSION);
        goto fail;
    }
    h.key[CZK_PCE_KEY_MAX - 1] = 0;
    if (expect_key && strcmp(expect_key, h.key) != 0) {
        s = czk_error(CZK_ERR_FORMAT, "%s: PCE file is for '%s', wanted '%s'", path, h.key, expect_key);
        goto fail;
    }
    if (h.n_inputs == 0 || h.n_inputs > h.cols || h.cols > UINT32_MAX || h.rows > size || h.cols > size * 64) {
        s = czk_error(CZK_ERR_FORMAT, "%s: implausible counts in the header", path);
        goto fail;
    }
    static const char *const names[3] = {"A", "B", "C"};
    for (int i = 0; i < 3; i++)
        if (h.nnz[i] > size || h.distinct[i] > MAX_CODES || h.n_over[i] > h.rows) {
            s = czk_error(CZK_ERR_FORMAT, "%s: implausible counts for matrix %s", path, names[i]);
            goto fail;
        }
    /* the layout the counts imply, against the file's size */
    uint64_t al[18], offs[18], off = sizeof h;
    array_lens(al, h.rows, h.nnz, h.distinct, h.n_over);
    for (int j = 0; j < 18; j++) {
        offs[j] = align_up(off);
        off = offs[j] + al[j];
    }
    if (off + 8 != size) {
        s = czk_error(CZK_ERR_FORMAT, "%s: %s: the header's counts need %llu bytes, the file has %llu", path,
                      off + 8 > size ? "truncated" : "trailing bytes", (unsigned long long)(off + 8),
                      (unsigned long long)size);
        goto fail;
    }
    int nt = czk_threads() > 0 ? czk_threads() : 1;
    uint64_t sum_file;
    memcpy(&sum_file, map + off, 8);
    if (czk__pce_file_sum(map, off, nt) != sum_file) {
        s = czk_error(CZK_ERR_FORMAT, "%s: checksum mismatch (file damaged)", path);
        goto fail;
    }
    p->rows = h.rows;
    p->cols = h.cols;
    p->n_inputs = h.n_inputs;
    p->nblocks = (p->rows + CZK_PCE_BLOCK - 1) / CZK_PCE_BLOCK;
    memcpy(p->key, h.key, sizeof p->key);
    uint64_t n_aux = p->cols - p->n_inputs;
    size_t words_aux = (size_t)((n_aux + 63) / 64), words_in = (size_t)((p->n_inputs + 63) / 64);
    p->dens[0] = calloc(words_aux ? words_aux : 1, 8);
    p->dens[1] = calloc(words_in ? words_in : 1, 8);
    p->dens[2] = calloc(words_aux ? words_aux : 1, 8);
    for (int i = 0; i < 3; i++) {
        pmat *m = &p->m[i];
        m->nnz = h.nnz[i];
        m->distinct = h.distinct[i];
        m->n_over = h.n_over[i];
        /* read-only views of the mapping (never written after a read) */
        m->len = (uint16_t *)(map + offs[6 * i + 0]);
        m->col = (uint32_t *)(map + offs[6 * i + 1]);
        m->code = (uint16_t *)(map + offs[6 * i + 2]);
        m->table = (czk_fr *)(map + offs[6 * i + 3]);
        m->meta = (uint16_t *)(map + offs[6 * i + 4]);
        m->over = (uint64_t *)(map + offs[6 * i + 5]);
        p->map_range[i][0] = offs[6 * i + 0];
        p->map_range[i][1] = offs[6 * i + 5] + al[6 * i + 5];
        m->block = malloc((p->nblocks + 1) * sizeof *m->block);
        if (!m->block || !p->dens[0] || !p->dens[1] || !p->dens[2]) {
            s = czk_error(CZK_ERR_NOMEM, "%s: matrix %s (%llu non-zeros)", path, names[i], (unsigned long long)m->nnz);
            goto fail;
        }
    }
    pthread_once(&pow2_once, pow2_init);
    for (int i = 0; i < 3 && s == CZK_OK; i++) s = validate_matrix(p, i, path, nt);
    if (s != CZK_OK) goto fail;
    p->pop[0] = p->pop[1] = p->pop[2] = 0;
    for (size_t i = 0; i < words_aux; i++) p->pop[0] += (uint64_t)__builtin_popcountll(p->dens[0][i]);
    for (size_t i = 0; i < words_in; i++) p->pop[1] += (uint64_t)__builtin_popcountll(p->dens[1][i]);
    for (size_t i = 0; i < words_aux; i++) p->pop[2] += (uint64_t)__builtin_popcountll(p->dens[2][i]);
    *out = p;
    return CZK_OK;
fail:
    czk_pce_destroy(p);
    return s;
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
