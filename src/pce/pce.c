/* Pre-compiled constraint evaluation: the compact matrices, built row by
 * row (from a CSR or by the recorder, pce_record.c), and what a PCE says
 * of itself. Evaluation is in pce_eval.c, the file format in pce_file.c. */
#define _GNU_SOURCE
#include "czk/pce.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "czk/czk.h"
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

void czk__pce_classify_init(void) { pthread_once(&pow2_once, pow2_init); }

/* meta of v: GENERAL or (neg << 8 | e) when v = +-2^e */
uint16_t czk__pce_classify(const czk_fr *v)
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
    uint16_t meta;             /* czk__pce_classify() */
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
    b->vi[id].meta = czk__pce_classify(v);
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

static size_t eval_bytes(const czk_pce *p);

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
        info->eval_bytes = eval_bytes(p);
    }
    info->a_aux_popcount = p->pop[0];
    info->b_input_popcount = p->pop[1];
    info->b_aux_popcount = p->pop[2];
    snprintf(info->key, sizeof info->key, "%s", p->key);
}

/* Drop the whole pages inside [lo, hi) of the process's mapping. */
static void drop_span(const void *lo, const void *hi)
{
    const uintptr_t page = 4096;
    uintptr_t a = ((uintptr_t)lo + page - 1) & ~(page - 1), b = (uintptr_t)hi & ~(page - 1);
    if (b > a) (void)madvise((void *)a, b - a, MADV_DONTNEED);
}

void czk__pce_drop_rows(const czk_pce *p, int which, uint64_t r0, uint64_t r1)
{
    if (!p || !p->map || r0 >= r1) return;
    if (r1 > p->rows) r1 = p->rows;
    const uint64_t b0 = r0 / CZK_PCE_BLOCK, b1 = (r1 + CZK_PCE_BLOCK - 1) / CZK_PCE_BLOCK;
    for (int i = 0; i < 3; i++) {
        if (which >= 0 && i != which) continue;
        const czk__pmat *m = &p->m[i];
        const uint64_t k0 = m->block[b0], k1 = m->block[b1];
        drop_span(m->len + r0, m->len + r1);
        drop_span(m->col + k0, m->col + k1);
        drop_span(m->code + k0, m->code + k1);
    }
}

/* What a windowed evaluation holds of the mapping at once: every matrix's
 * tables (coefficients, their classes, the long rows), and the largest
 * window's lengths, columns and codes of the three matrices, each span with
 * a page more at either end (pages shared with the neighbours). */
static size_t eval_bytes(const czk_pce *p)
{
    const uint64_t w = czk__pce_eval_window, nb = w / CZK_PCE_BLOCK;
    size_t tables = 0, window = 0;
    for (int i = 0; i < 3; i++) {
        const czk__pmat *m = &p->m[i];
        tables += m->distinct * (sizeof(czk_fr) + sizeof(uint16_t)) + m->n_over * 16 + 2 * 4096;
    }
    for (uint64_t b0 = 0; b0 < p->nblocks; b0 += nb) {
        const uint64_t b1 = b0 + nb < p->nblocks ? b0 + nb : p->nblocks;
        size_t bytes = 0;
        for (int i = 0; i < 3; i++) {
            const czk__pmat *m = &p->m[i];
            bytes += (size_t)(m->block[b1] - m->block[b0]) * (sizeof(uint32_t) + sizeof(uint16_t)) +
                     (size_t)(b1 - b0) * CZK_PCE_BLOCK * sizeof(uint16_t) + 3 * 2 * 4096;
        }
        if (bytes > window) window = bytes;
    }
    size_t total = tables + window;
    return total < p->map_len ? total : p->map_len;
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
