/* R1CS and assignment digests (docs/r1cs-digest.md): the per-constraint hash
 * h_c of the canonical encoding, the digest over the h_c and the counts, the
 * dump of every h_c and the comparison with another side's dump. Sources: the
 * TEST backend's constraints, CSR matrices (SHAPE), or the streaming digester
 * (a constraint system that hashes each constraint when it is enforced). */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <openssl/evp.h>
#ifdef _OPENMP
#include <omp.h>
#endif

#include "common/fileio.h"
#include "cs/cs_internal.h"
#include "cs/lc.h"

#define AUX_BIT ((uint64_t)1 << 63)
#define HDR CZK_R1CS_DUMP_HEADER
#define BLOCK_ROWS ((uint64_t)1 << 16) /* rows hashed in parallel between two sequential pushes */
#define REF_BUF 4096                   /* dump hashes read at a time */

/* ---- SHA-256 (libcrypto; the digest is fetched once, not per row) ---------- */

static EVP_MD *sha_md;
static pthread_once_t sha_once = PTHREAD_ONCE_INIT;

static void sha_fetch(void) { sha_md = EVP_MD_fetch(NULL, "SHA256", NULL); }

static const EVP_MD *sha256(void)
{
    pthread_once(&sha_once, sha_fetch);
    return sha_md ? sha_md : EVP_sha256();
}

static int sha_init(EVP_MD_CTX *c) { return EVP_DigestInit_ex(c, sha256(), NULL); }

static void put_le32(uint8_t *p, uint32_t x)
{
    for (int i = 0; i < 4; i++) p[i] = (uint8_t)(x >> (8 * i));
}
static void put_le64(uint8_t *p, uint64_t x)
{
    for (int i = 0; i < 8; i++) p[i] = (uint8_t)(x >> (8 * i));
}
static uint64_t get_le64(const uint8_t *p)
{
    uint64_t x = 0;
    for (int i = 7; i >= 0; i--) x = (x << 8) | p[i];
    return x;
}

/* ---- canonical encoding of one constraint ----------------------------------- */

/* Per-thread scratch: E_c, a normalization area, a CSR row's terms. */
typedef struct enc {
    uint8_t *buf;
    size_t cap;
    czk_lc_term *nrm; /* 2n: copy + czk__lc_normalize's scratch */
    size_t cap_nrm;
    czk_lc_term *row; /* a CSR row's terms, as views */
    size_t cap_row;
    EVP_MD_CTX *md;
} enc;

static void enc_clear(enc *e)
{
    free(e->buf);
    free(e->nrm);
    free(e->row);
    EVP_MD_CTX_free(e->md);
    memset(e, 0, sizeof *e);
}

static czk_status grow(void **p, size_t *cap, size_t need, size_t elem)
{
    if (need <= *cap) return CZK_OK;
    size_t nc = *cap ? *cap : 64;
    while (nc < need) nc *= 2;
    void *q = realloc(*p, nc * elem);
    if (!q) return czk_error(CZK_ERR_NOMEM, "r1cs digest: cannot grow a buffer to %zu x %zu bytes", nc, elem);
    *p = q;
    *cap = nc;
    return CZK_OK;
}

/* 1 when indices strictly increase (the LC invariant: sorted, no repeats). */
static int strictly_sorted(const czk_lc_term *t, uint32_t n)
{
    for (uint32_t i = 1; i < n; i++)
        if (t[i].index <= t[i - 1].index) return 0;
    return 1;
}

/* Canonical little-endian bytes of a Montgomery-form coefficient. */
static void coeff_bytes(uint8_t out[32], const czk_fr *c)
{
    if (czk__fr_is_one(c)) {
        memset(out, 0, 32);
        out[0] = 1;
    } else
        czk_fr_to_bytes(out, c);
}

/* Terms of one part (inputs or aux), strictly sorted, written at p: returns
 * the bytes written, adds the non-zero terms to *count. */
static size_t put_part(uint8_t *p, const czk_lc_term *t, uint32_t n, uint64_t tag, uint32_t *count)
{
    uint8_t *q = p;
    for (uint32_t i = 0; i < n; i++) {
        if (czk__fr_is_zero(&t[i].coeff)) continue;
        put_le64(q, tag | t[i].index);
        coeff_bytes(q + 8, &t[i].coeff);
        q += 40;
        (*count)++;
    }
    return (size_t)(q - p);
}

/* A part in canonical order: t itself, or a sorted, summed copy in e->nrm
 * (offset off, n terms reserved there by the caller). */
static const czk_lc_term *canon_part(enc *e, size_t off, const czk_lc_term *t, uint32_t *n)
{
    if (strictly_sorted(t, *n)) return t;
    czk_lc_term *d = e->nrm + off;
    memcpy(d, t, (size_t)*n * sizeof *t);
    *n = czk__lc_normalize(d, *n, e->nrm + off + *n);
    return d;
}

/* Encode LC(v) at p (room for 4 + 40 * terms bytes); returns bytes written. */
static size_t put_lc(enc *e, uint8_t *p, const czk_lc_view *v)
{
    uint32_t count = 0, ni = v->n_in, na = v->n_aux;
    const czk_lc_term *in = canon_part(e, 0, v->in, &ni);
    const czk_lc_term *aux = canon_part(e, 2 * (size_t)v->n_in, v->aux, &na);
    size_t len = 4;
    len += put_part(p + len, in, ni, 0, &count);
    len += put_part(p + len, aux, na, AUX_BIT, &count);
    put_le32(p, count);
    return len;
}

static czk_status enc_row(enc *e, uint8_t h[32], const czk_lc_view *v[3])
{
    size_t terms = 0, maxn = 0;
    for (int k = 0; k < 3; k++) {
        size_t n = (size_t)v[k]->n_in + v[k]->n_aux;
        terms += n;
        if (n > maxn) maxn = n;
    }
    CZK_TRY(grow((void **)&e->buf, &e->cap, 12 + 40 * terms, 1));
    CZK_TRY(grow((void **)&e->nrm, &e->cap_nrm, 2 * maxn + 1, sizeof(czk_lc_term)));
    if (!e->md && !(e->md = EVP_MD_CTX_new())) return czk_error(CZK_ERR_NOMEM, "r1cs digest: EVP_MD_CTX_new");
    size_t len = 0;
    for (int k = 0; k < 3; k++) len += put_lc(e, e->buf + len, v[k]);
    unsigned hl = 0;
    if (!sha_init(e->md) || !EVP_DigestUpdate(e->md, e->buf, len) || !EVP_DigestFinal_ex(e->md, h, &hl) || hl != 32)
        return czk_error(CZK_ERR_INTERNAL, "r1cs digest: SHA-256 failed");
    return CZK_OK;
}

czk_status czk_cs_r1cs_digest_row(uint8_t h[32], const czk_lc_view *a, const czk_lc_view *b, const czk_lc_view *c)
{
    enc e;
    memset(&e, 0, sizeof e);
    const czk_lc_view *v[3] = {a, b, c};
    czk_status s = enc_row(&e, h, v);
    enc_clear(&e);
    return s;
}

/* ---- diffs ------------------------------------------------------------------ */

void czk_cs_r1cs_diff_clear(czk_r1cs_diff *d)
{
    if (!d) return;
    free(d->terms_);
    free(d->path);
    memset(d, 0, sizeof *d);
    d->first = -1;
}

/* Record constraint v's canonical terms (Montgomery form) into d. */
static czk_status capture_terms(czk_r1cs_diff *d, const czk_lc_view *v[3])
{
    size_t n = 0;
    for (int k = 0; k < 3; k++) n += (size_t)v[k]->n_in + v[k]->n_aux;
    czk_lc_term *t = malloc((2 * n + 1) * sizeof *t), *scratch = t + n;
    if (!t) return czk_error(CZK_ERR_NOMEM, "r1cs digest: constraint terms");
    free(d->terms_);
    d->terms_ = t;
    size_t off = 0;
    for (int k = 0; k < 3; k++) {
        for (int part = 0; part < 2; part++) {
            const czk_lc_term *src = part ? v[k]->aux : v[k]->in;
            uint32_t m = part ? v[k]->n_aux : v[k]->n_in, kept = 0;
            czk_lc_term *dst = t + off;
            if (m) memcpy(dst, src, (size_t)m * sizeof *src);
            m = czk__lc_normalize(dst, m, scratch);
            for (uint32_t i = 0; i < m; i++)
                if (!czk__fr_is_zero(&dst[i].coeff)) dst[kept++] = dst[i];
            for (uint32_t i = 0; i < kept; i++) dst[i].reserved_ = 0;
            if (part) {
                d->lc[k].aux = dst;
                d->lc[k].n_aux = kept;
            } else {
                d->lc[k].in = dst;
                d->lc[k].n_in = kept;
            }
            off += kept;
        }
    }
    return CZK_OK;
}

/* ---- the sink: outer hash, dump, comparison --------------------------------- */

typedef struct sink {
    EVP_MD_CTX *outer;
    czk__afile dump_file; /* the dump's atomic writer, when dump is not NULL */
    FILE *dump;
    const char *ref_path;
    FILE *ref;
    uint64_t ref_n[3];
    uint8_t *refbuf;
    uint64_t ref_have, ref_pos; /* hashes in refbuf, next one */
    uint64_t m;                 /* h_c pushed */
    int64_t first;
    uint8_t h_ours[32], h_ref[32];
} sink;

static void sink_abort(sink *s)
{
    EVP_MD_CTX_free(s->outer);
    if (s->dump) czk__afile_abort(&s->dump_file);
    if (s->ref) fclose(s->ref);
    free(s->refbuf);
    memset(s, 0, sizeof *s);
}

static czk_status open_ref(sink *s, const char *path)
{
    s->ref_path = path;
    s->ref = fopen(path, "rb");
    if (!s->ref) return czk_error(CZK_ERR_IO, "%s: %s", path, strerror(errno));
    struct stat st;
    if (fstat(fileno(s->ref), &st) != 0) return czk_error(CZK_ERR_IO, "%s: stat: %s", path, strerror(errno));
    if (!S_ISREG(st.st_mode)) return czk_error(CZK_ERR_FORMAT, "%s: not a regular file", path);
    uint64_t size = (uint64_t)st.st_size;
    uint8_t h[HDR];
    size_t got = fread(h, 1, HDR, s->ref);
    if (got < 8 || memcmp(h, CZK_R1CS_DUMP_MAGIC, 8) != 0) {
        if (got < 8 && (got == 0 || memcmp(h, CZK_R1CS_DUMP_MAGIC, got) == 0))
            return czk_error(CZK_ERR_FORMAT, "%s: truncated at offset %zu: the magic \"%s\" is 8 bytes", path, got,
                             CZK_R1CS_DUMP_MAGIC);
        return czk_error(CZK_ERR_FORMAT, "%s: offset 0: not an R1CS dump (magic \"%s\" expected)", path,
                         CZK_R1CS_DUMP_MAGIC);
    }
    if (got < HDR)
        return czk_error(CZK_ERR_FORMAT, "%s: truncated at offset %zu inside the %d-byte header", path, got, HDR);
    for (int i = 0; i < 3; i++) s->ref_n[i] = get_le64(h + 8 + 8 * i);
    uint64_t m = s->ref_n[2];
    if (m > (UINT64_MAX - HDR) / 32)
        return czk_error(CZK_ERR_FORMAT, "%s: offset 24: constraint count %llu is impossible", path,
                         (unsigned long long)m);
    uint64_t want = HDR + 32 * m;
    if (size < want)
        return czk_error(CZK_ERR_FORMAT,
                         "%s: truncated at offset %llu, inside the hash of constraint %llu (the header at offset 24 "
                         "announces %llu constraints: %llu bytes)",
                         path, (unsigned long long)size, (unsigned long long)((size - HDR) / 32),
                         (unsigned long long)m, (unsigned long long)want);
    if (size > want)
        return czk_error(CZK_ERR_FORMAT,
                         "%s: %llu bytes after the last constraint hash, at offset %llu (the header announces %llu "
                         "constraints)",
                         path, (unsigned long long)(size - want), (unsigned long long)want, (unsigned long long)m);
    s->refbuf = malloc(REF_BUF * 32);
    if (!s->refbuf) return czk_error(CZK_ERR_NOMEM, "%s: read buffer", path);
    return CZK_OK;
}

static czk_status sink_open(sink *s, const czk_r1cs_digest_opts *o)
{
    memset(s, 0, sizeof *s);
    s->first = -1;
    s->outer = EVP_MD_CTX_new();
    if (!s->outer || !sha_init(s->outer)) return czk_error(CZK_ERR_NOMEM, "r1cs digest: SHA-256 context");
    if (o && o->compare_path) CZK_TRY(open_ref(s, o->compare_path));
    if (o && o->dump_path) {
        CZK_TRY(czk__afile_open_stream(&s->dump_file, &s->dump, o->dump_path, 0));
        static const uint8_t zero[HDR];
        if (fwrite(zero, 1, HDR, s->dump) != HDR)
            return czk_error(CZK_ERR_IO, "%s: write: %s", o->dump_path, strerror(s->dump_file.err));
    }
    return CZK_OK;
}

/* Append h_c; *differs = 1 when this is the first h_c unequal to the dump's. */
static czk_status sink_push(sink *s, const uint8_t h[32], int *differs)
{
    *differs = 0;
    if (!EVP_DigestUpdate(s->outer, h, 32)) return czk_error(CZK_ERR_INTERNAL, "r1cs digest: SHA-256 failed");
    if (s->dump && fwrite(h, 1, 32, s->dump) != 32)
        return czk_error(CZK_ERR_IO, "%s: write: %s", s->dump_file.path, strerror(s->dump_file.err));
    if (s->ref && s->m < s->ref_n[2]) {
        if (s->ref_pos == s->ref_have) {
            uint64_t left = s->ref_n[2] - s->m, n = left < REF_BUF ? left : REF_BUF;
            size_t got = fread(s->refbuf, 32, (size_t)n, s->ref);
            if (got != n)
                return czk_error(CZK_ERR_FORMAT, "%s: cannot read the hash of constraint %llu at offset %llu%s",
                                 s->ref_path, (unsigned long long)(s->m + got),
                                 (unsigned long long)(HDR + 32 * (s->m + got)),
                                 ferror(s->ref) ? "" : " (the file shrank while being read)");
            s->ref_have = n;
            s->ref_pos = 0;
        }
        const uint8_t *r = s->refbuf + 32 * s->ref_pos++;
        if (s->first < 0 && memcmp(h, r, 32) != 0) {
            s->first = (int64_t)s->m;
            memcpy(s->h_ours, h, 32);
            memcpy(s->h_ref, r, 32);
            *differs = 1;
        }
    }
    s->m++;
    return CZK_OK;
}

/* Final digest, dump header and rename, comparison result. Closes s. */
static czk_status sink_finish(sink *s, uint64_t n_inputs, uint64_t n_aux, czk_r1cs_digest *out, czk_r1cs_diff *diff)
{
    uint8_t hdr[HDR];
    memcpy(hdr, CZK_R1CS_DUMP_MAGIC, 8);
    put_le64(hdr + 8, n_inputs);
    put_le64(hdr + 16, n_aux);
    put_le64(hdr + 24, s->m);
    unsigned hl = 0;
    czk_status st = CZK_OK;
    if (!EVP_DigestUpdate(s->outer, hdr + 8, 24) || !EVP_DigestFinal_ex(s->outer, out->r1cs, &hl) || hl != 32)
        st = czk_error(CZK_ERR_INTERNAL, "r1cs digest: SHA-256 failed");
    out->n_inputs = n_inputs;
    out->n_aux = n_aux;
    out->n_constraints = s->m;
    if (st == CZK_OK && s->dump) {
        s->dump = NULL; /* the writer's: commit closes it */
        st = czk__afile_pwrite(&s->dump_file, hdr, HDR, 0);
        if (st == CZK_OK)
            st = czk__afile_commit(&s->dump_file, NULL, 0);
        else
            czk__afile_abort(&s->dump_file);
    }
    if (st == CZK_OK && s->ref && diff) {
        diff->ref_n_inputs = s->ref_n[0];
        diff->ref_n_aux = s->ref_n[1];
        diff->ref_n_constraints = s->ref_n[2];
        diff->counts_differ = (n_inputs != s->ref_n[0] ? CZK_R1CS_DIFF_INPUTS : 0) |
                              (n_aux != s->ref_n[1] ? CZK_R1CS_DIFF_AUX : 0) |
                              (s->m != s->ref_n[2] ? CZK_R1CS_DIFF_CONSTRAINTS : 0);
        diff->first = s->first;
        memcpy(diff->h_ours, s->h_ours, 32);
        memcpy(diff->h_ref, s->h_ref, 32);
        diff->identical = !diff->counts_differ && s->first < 0;
    }
    sink_abort(s);
    return st;
}

/* ---- recorded sources: TEST backend, CSR ------------------------------------ */

typedef struct rows_src {
    const czk_cs *test; /* or: */
    const czk_csr *m[3];
    uint64_t n_inputs, n_cols;
} rows_src;

/* Constraint r's views (CSR rows are copied into e->row). */
static czk_status src_views(enc *e, const rows_src *src, uint64_t r, czk_lc_view v[3])
{
    if (src->test) return czk_cs_test_constraint(src->test, r, &v[0], &v[1], &v[2]);
    size_t n = 0;
    for (int k = 0; k < 3; k++) n += src->m[k]->row_ptr[r + 1] - src->m[k]->row_ptr[r];
    CZK_TRY(grow((void **)&e->row, &e->cap_row, n + 1, sizeof(czk_lc_term)));
    czk_lc_term *t = e->row;
    for (int k = 0; k < 3; k++) {
        const czk_csr *m = src->m[k];
        uint64_t b = m->row_ptr[r], end = m->row_ptr[r + 1];
        v[k].in = t;
        v[k].n_in = 0;
        for (uint64_t i = b; i < end; i++) {
            if (m->col[i] >= src->n_cols)
                return czk_error(CZK_ERR_INVALID_ARG, "r1cs digest: row %llu: column %u of %llu", (unsigned long long)r,
                                 m->col[i], (unsigned long long)src->n_cols);
            if (m->col[i] < src->n_inputs) {
                t->index = m->col[i];
                t->reserved_ = 0;
                t->coeff = m->val[i];
                t++;
                v[k].n_in++;
            }
        }
        v[k].aux = t;
        v[k].n_aux = 0;
        for (uint64_t i = b; i < end; i++)
            if (m->col[i] >= src->n_inputs) {
                t->index = (uint32_t)(m->col[i] - src->n_inputs);
                t->reserved_ = 0;
                t->coeff = m->val[i];
                t++;
                v[k].n_aux++;
            }
    }
    return CZK_OK;
}

static czk_status digest_rows(czk_r1cs_digest *out, czk_r1cs_diff *diff, const rows_src *src, uint64_t m,
                              uint64_t n_inputs, uint64_t n_aux, const czk_r1cs_digest_opts *o)
{
    if (diff) czk_cs_r1cs_diff_clear(diff);
    int threads = o && o->threads > 1 ? o->threads : 1;
    uint64_t block = m < BLOCK_ROWS ? (m ? m : 1) : BLOCK_ROWS;
    uint8_t *h = malloc(block * 32);
    enc *encs = calloc((size_t)threads, sizeof *encs);
    sink s;
    czk_status st = !h || !encs ? czk_error(CZK_ERR_NOMEM, "r1cs digest: %llu row hashes", (unsigned long long)block)
                                : sink_open(&s, o);
    for (uint64_t r0 = 0; st == CZK_OK && r0 < m; r0 += block) {
        const int64_t nb = (int64_t)(m - r0 < block ? m - r0 : block);
        int bad = 0;
#pragma omp parallel num_threads(threads) if (threads > 1 && nb > 256) reduction(| : bad)
        {
            int tid = 0;
#ifdef _OPENMP
            tid = omp_get_thread_num();
#endif
#pragma omp for schedule(static)
            for (int64_t i = 0; i < nb; i++) {
                if (bad) continue;
                czk_lc_view v[3];
                const czk_lc_view *pv[3] = {&v[0], &v[1], &v[2]};
                if (src_views(&encs[tid], src, r0 + (uint64_t)i, v) != CZK_OK ||
                    enc_row(&encs[tid], h + 32 * i, pv) != CZK_OK)
                    bad = 1;
            }
        }
        if (bad) {
            /* redo sequentially to report the first failing row's message */
            for (int64_t i = 0; i < nb && st == CZK_OK; i++) {
                czk_lc_view v[3];
                const czk_lc_view *pv[3] = {&v[0], &v[1], &v[2]};
                st = src_views(&encs[0], src, r0 + (uint64_t)i, v);
                if (st == CZK_OK) st = enc_row(&encs[0], h + 32 * i, pv);
            }
            if (st == CZK_OK) st = czk_error(CZK_ERR_INTERNAL, "r1cs digest: a row failed only in parallel");
        }
        for (int64_t i = 0; i < nb && st == CZK_OK; i++) {
            int differs;
            st = sink_push(&s, h + 32 * i, &differs);
            if (st == CZK_OK && differs && diff) {
                czk_lc_view v[3];
                const czk_lc_view *pv[3] = {&v[0], &v[1], &v[2]};
                uint64_t r = r0 + (uint64_t)i;
                st = src_views(&encs[0], src, r, v);
                if (st == CZK_OK) st = capture_terms(diff, pv);
                const char *name = src->test ? czk_cs_test_constraint_name(src->test, r) : NULL;
                if (st == CZK_OK && name && !(diff->path = strdup(name)))
                    st = czk_error(CZK_ERR_NOMEM, "r1cs digest: constraint name");
            }
        }
    }
    if (st == CZK_OK) st = sink_finish(&s, n_inputs, n_aux, out, diff);
    else if (h && encs) sink_abort(&s);
    for (int i = 0; encs && i < threads; i++) enc_clear(&encs[i]);
    free(encs);
    free(h);
    return st;
}

czk_status czk_cs_r1cs_digest_csr(czk_r1cs_digest *out, czk_r1cs_diff *diff, const czk_csr *a, const czk_csr *b,
                                  const czk_csr *c, uint64_t n_inputs, uint64_t m, const czk_r1cs_digest_opts *opts)
{
    if (a->n_rows != b->n_rows || a->n_rows != c->n_rows || a->n_cols != b->n_cols || a->n_cols != c->n_cols)
        return czk_error(CZK_ERR_INVALID_ARG, "r1cs digest: A, B, C have different shapes");
    if (m > a->n_rows || n_inputs > a->n_cols || n_inputs == 0)
        return czk_error(CZK_ERR_INVALID_ARG, "r1cs digest: %llu rows of %llu, %llu inputs of %llu columns",
                         (unsigned long long)m, (unsigned long long)a->n_rows, (unsigned long long)n_inputs,
                         (unsigned long long)a->n_cols);
    rows_src src = {NULL, {a, b, c}, n_inputs, a->n_cols};
    return digest_rows(out, diff, &src, m, n_inputs, a->n_cols - n_inputs, opts);
}

/* After czk_cs_finalize, SHAPE's last n_inputs rows are (input_i) * 0 = 0. */
static czk_status check_input_rows(const czk_csr *csr[3], uint64_t m, uint64_t n_inputs)
{
    for (uint64_t i = 0; i < n_inputs; i++) {
        uint64_t r = m + i;
        const czk_csr *a = csr[0];
        int ok = a->row_ptr[r + 1] - a->row_ptr[r] == 1 && a->col[a->row_ptr[r]] == i &&
                 czk__fr_is_one(&a->val[a->row_ptr[r]]);
        for (int k = 1; k < 3; k++) ok &= csr[k]->row_ptr[r + 1] == csr[k]->row_ptr[r];
        if (!ok)
            return czk_error(CZK_ERR_INVALID_ARG,
                             "r1cs digest: SHAPE row %llu is not input %llu's constraint (input) * 0 = 0: was "
                             "czk_cs_finalize called?",
                             (unsigned long long)r, (unsigned long long)i);
    }
    return CZK_OK;
}

czk_status czk_cs_r1cs_digest(czk_r1cs_digest *out, czk_r1cs_diff *diff, const czk_cs *cs, int finalized,
                              const czk_r1cs_digest_opts *opts)
{
    if (cs->backend == CZK_CS_TEST) {
        rows_src src = {cs, {NULL, NULL, NULL}, cs->n_inputs, 0};
        return digest_rows(out, diff, &src, cs->n_constraints, cs->n_inputs, cs->n_aux, opts);
    }
    if (cs->backend != CZK_CS_SHAPE)
        return czk_error(CZK_ERR_INVALID_ARG,
                         "czk_cs_r1cs_digest: the %s backend keeps no constraints (TEST, SHAPE, or the digester)",
                         czk_cs_backend_name(cs->backend));
    if (finalized && cs->n_constraints < cs->n_inputs)
        return czk_error(CZK_ERR_INVALID_ARG, "r1cs digest: %llu rows cannot hold %u input constraints",
                         (unsigned long long)cs->n_constraints, cs->n_inputs);
    czk_csr a, b, c;
    CZK_TRY(czk_cs_shape_csr(cs, &a, &b, &c));
    uint64_t m = cs->n_constraints - (finalized ? cs->n_inputs : 0);
    const czk_csr *csr[3] = {&a, &b, &c};
    czk_status st = finalized ? check_input_rows(csr, m, cs->n_inputs) : CZK_OK;
    if (st == CZK_OK) st = czk_cs_r1cs_digest_csr(out, diff, &a, &b, &c, cs->n_inputs, m, opts);
    czk_csr_clear(&a);
    czk_csr_clear(&b);
    czk_csr_clear(&c);
    return st;
}

/* ---- assignment digest ------------------------------------------------------- */

void czk_cs_r1cs_digest_assignment(uint8_t out[32], const czk_fr *input, size_t n_input, const czk_fr *aux,
                                   size_t n_aux)
{
    enum { CH = 1024 };
    uint8_t buf[CH * 32];
    EVP_MD_CTX *c = EVP_MD_CTX_new();
    unsigned hl = 0;
    int ok = c && sha_init(c);
    for (int part = 0; part < 2 && ok; part++) {
        const czk_fr *v = part ? aux : input;
        size_t n = part ? n_aux : n_input;
        for (size_t i0 = 0; i0 < n && ok; i0 += CH) {
            size_t k = n - i0 < CH ? n - i0 : CH;
            for (size_t i = 0; i < k; i++) czk_fr_to_bytes(buf + 32 * i, &v[i0 + i]);
            ok = EVP_DigestUpdate(c, buf, 32 * k);
        }
    }
    put_le64(buf, n_input);
    put_le64(buf + 8, n_aux);
    ok = ok && EVP_DigestUpdate(c, buf, 16) && EVP_DigestFinal_ex(c, out, &hl) && hl == 32;
    EVP_MD_CTX_free(c);
    CZK_ASSERT(ok); /* only an allocation failure inside libcrypto */
    if (!ok) memset(out, 0, 32);
}

czk_status czk_cs_r1cs_digest_values(uint8_t out[32], const czk_cs *cs)
{
    const czk__cs_values *v = czk__cs_values_of(cs);
    if (!v)
        return czk_error(CZK_ERR_INVALID_ARG, "r1cs digest: the %s backend keeps no values",
                         czk_cs_backend_name(cs->backend));
    czk_cs_r1cs_digest_assignment(out, v->input, cs->n_inputs, v->aux, cs->n_aux);
    return CZK_OK;
}

/* ---- the digester's batches: rows hashed on every core, pushed in order ----- */

/* Synthesis enforces one constraint at a time. With threads > 1 the digester
 * copies each row's terms into a batch; a full batch is encoded and hashed by
 * a pool of threads - 1 workers (the synthesizing thread joins in when it has
 * filled the next batch first) while synthesis goes on into the other batch;
 * its h_c then enter the sink in row order, so the digest, the dump and the
 * comparison are those of the one-row-at-a-time path. */
#define BATCH_ROWS ((uint32_t)1 << 14)
#define BATCH_TERMS ((size_t)1 << 18) /* a batch is full at either bound */
#define CHUNK_ROWS 256u               /* rows a thread takes at a time */

typedef struct batch {
    czk_lc_term *terms; /* row after row: A in, A aux, B in, B aux, C in, C aux */
    size_t n_terms, cap_terms;
    size_t *off;        /* row i's first term */
    uint32_t *cnt;      /* row i's six part sizes at cnt[6 i] */
    uint32_t n_rows;
    uint8_t *h;         /* row i's h_c at h + 32 i */
} batch;

static void batch_clear(batch *b)
{
    free(b->terms);
    free(b->off);
    free(b->cnt);
    free(b->h);
    memset(b, 0, sizeof *b);
}

static czk_status batch_init(batch *b)
{
    memset(b, 0, sizeof *b);
    b->off = malloc(BATCH_ROWS * sizeof *b->off);
    b->cnt = malloc(6 * BATCH_ROWS * sizeof *b->cnt);
    b->h = malloc(32 * (size_t)BATCH_ROWS);
    if (!b->off || !b->cnt || !b->h) return czk_error(CZK_ERR_NOMEM, "r1cs digest: a batch of %u rows", BATCH_ROWS);
    return CZK_OK;
}

/* Row i's views into the batch's terms. */
static void batch_views(const batch *b, uint32_t i, czk_lc_view v[3])
{
    const czk_lc_term *t = b->terms + b->off[i];
    const uint32_t *c = b->cnt + 6 * (size_t)i;
    for (int k = 0; k < 3; k++) {
        v[k].in = t;
        v[k].n_in = c[2 * k];
        t += c[2 * k];
        v[k].aux = t;
        v[k].n_aux = c[2 * k + 1];
        t += c[2 * k + 1];
    }
}

static czk_status batch_add(batch *b, const czk_lc_view *v[3])
{
    size_t n = 0;
    for (int k = 0; k < 3; k++) n += (size_t)v[k]->n_in + v[k]->n_aux;
    CZK_TRY(grow((void **)&b->terms, &b->cap_terms, b->n_terms + n, sizeof(czk_lc_term)));
    czk_lc_term *t = b->terms + b->n_terms;
    uint32_t *c = b->cnt + 6 * (size_t)b->n_rows;
    for (int k = 0; k < 3; k++) {
        if (v[k]->n_in) memcpy(t, v[k]->in, v[k]->n_in * sizeof *t);
        t += v[k]->n_in;
        if (v[k]->n_aux) memcpy(t, v[k]->aux, v[k]->n_aux * sizeof *t);
        t += v[k]->n_aux;
        c[2 * k] = v[k]->n_in;
        c[2 * k + 1] = v[k]->n_aux;
    }
    b->off[b->n_rows++] = b->n_terms;
    b->n_terms += n;
    return CZK_OK;
}

static int batch_full(const batch *b) { return b->n_rows == BATCH_ROWS || b->n_terms >= BATCH_TERMS; }

typedef struct pool {
    pthread_t *th;
    int n_th, started;
    enc *encs; /* n_th + 1: the last is the synthesizing thread's */
    pthread_mutex_t mu;
    pthread_cond_t go, done;
    batch *job;
    uint64_t gen;   /* jobs handed out */
    uint32_t next;  /* the job's next unclaimed row (under mu) */
    int busy, quit; /* workers not finished with the job; stop */
    czk_status err;
    uint64_t err_row;
} pool;

/* Claim chunks of the job and hash them until none is left. */
static void pool_hash(pool *p, enc *e)
{
    batch *b = p->job;
    for (;;) {
        pthread_mutex_lock(&p->mu);
        uint32_t r0 = p->next, r1 = r0 + CHUNK_ROWS < b->n_rows ? r0 + CHUNK_ROWS : b->n_rows;
        p->next = r1;
        int stop = p->err != CZK_OK;
        pthread_mutex_unlock(&p->mu);
        if (r0 >= r1 || stop) return;
        for (uint32_t i = r0; i < r1; i++) {
            czk_lc_view v[3];
            const czk_lc_view *pv[3] = {&v[0], &v[1], &v[2]};
            batch_views(b, i, v);
            czk_status st = enc_row(e, b->h + 32 * (size_t)i, pv);
            if (st != CZK_OK) {
                pthread_mutex_lock(&p->mu);
                if (p->err == CZK_OK) {
                    p->err = st;
                    p->err_row = i;
                }
                pthread_mutex_unlock(&p->mu);
                return;
            }
        }
    }
}

static void *pool_main(void *arg)
{
    pool *p = arg;
    pthread_mutex_lock(&p->mu);
    int me = p->started++;
    uint64_t seen = 0; /* the first job is generation 1 */
    for (;;) {
        while (!p->quit && p->gen == seen) pthread_cond_wait(&p->go, &p->mu);
        if (p->quit) break;
        seen = p->gen;
        pthread_mutex_unlock(&p->mu);
        pool_hash(p, &p->encs[me]);
        pthread_mutex_lock(&p->mu);
        if (--p->busy == 0) pthread_cond_signal(&p->done);
    }
    pthread_mutex_unlock(&p->mu);
    return NULL;
}

static void pool_submit(pool *p, batch *b)
{
    pthread_mutex_lock(&p->mu);
    p->job = b;
    p->next = 0;
    p->busy = p->n_th;
    p->gen++;
    pthread_cond_broadcast(&p->go);
    pthread_mutex_unlock(&p->mu);
}

/* Help with the job, then wait until every worker is done with it; the
 * first failure, as the status of the row that failed. */
static void pool_wait(pool *p)
{
    pthread_mutex_lock(&p->mu);
    while (p->busy > 0) pthread_cond_wait(&p->done, &p->mu);
    pthread_mutex_unlock(&p->mu);
}

static czk_status pool_finish(pool *p, uint64_t first_row)
{
    pool_hash(p, &p->encs[p->n_th]);
    pool_wait(p);
    pthread_mutex_lock(&p->mu);
    czk_status st = p->err;
    uint64_t row = first_row + p->err_row;
    pthread_mutex_unlock(&p->mu);
    if (st != CZK_OK)
        return czk_error(st, "r1cs digest: constraint %llu could not be hashed (%s)", (unsigned long long)row,
                         st == CZK_ERR_NOMEM ? "out of memory" : "SHA-256 failed");
    return CZK_OK;
}

static void pool_destroy(pool *p)
{
    if (p->th) {
        pthread_mutex_lock(&p->mu);
        p->quit = 1;
        pthread_cond_broadcast(&p->go);
        pthread_mutex_unlock(&p->mu);
        for (int i = 0; i < p->n_th; i++) pthread_join(p->th[i], NULL);
        pthread_mutex_destroy(&p->mu);
        pthread_cond_destroy(&p->go);
        pthread_cond_destroy(&p->done);
    }
    for (int i = 0; p->encs && i <= p->n_th; i++) enc_clear(&p->encs[i]);
    free(p->encs);
    free(p->th);
    memset(p, 0, sizeof *p);
}

static czk_status pool_create(pool *p, int workers)
{
    memset(p, 0, sizeof *p);
    p->encs = calloc((size_t)workers + 1, sizeof *p->encs);
    pthread_t *th = calloc((size_t)workers, sizeof *th);
    if (!p->encs || !th) {
        free(th);
        return czk_error(CZK_ERR_NOMEM, "r1cs digest: %d hashing threads", workers);
    }
    pthread_mutex_init(&p->mu, NULL);
    pthread_cond_init(&p->go, NULL);
    pthread_cond_init(&p->done, NULL);
    p->th = th;
    for (; p->n_th < workers; p->n_th++) {
        int e = pthread_create(&p->th[p->n_th], NULL, pool_main, p);
        if (e != 0) {
            pool_destroy(p);
            return czk_error(CZK_ERR_NOMEM, "r1cs digest: cannot start a hashing thread: %s", strerror(e));
        }
    }
    return CZK_OK;
}

/* ---- the streaming digester --------------------------------------------------- */

struct czk_r1cs_digester {
    czk__cs_values vals; /* first: czk_cs_value(cs) reads it (kept equal to the inner backend's) */
    czk_cs cs;
    czk_cs *inner;
    int inner_values;
    enc e;
    sink s;
    int open, finished;
    czk_r1cs_diff cap; /* the first differing constraint */
    /* threads > 1 without names: rows go to batches (above) */
    int batched;
    pool pool;
    batch bat[2];
    int fill;         /* the batch being filled; the other is the pool's when in_flight */
    int in_flight;
    uint64_t fly_row; /* the first row of the batch in flight */
    /* namespace stack (opts.names): "a/b/c" in ns, marks[i] = length before push i */
    char *ns;
    size_t ns_len, ns_cap;
    size_t *marks;
    size_t n_marks, cap_marks;
};

static void sync_values(czk_r1cs_digester *d)
{
    const czk__cs_values *v = d->inner_values ? czk__cs_values_of(d->inner) : NULL;
    if (v) d->vals = *v;
}

static czk_status d_alloc(czk_cs *cs, czk_var *out, const czk_fr *value, const char *name, uint64_t idx)
{
    czk_r1cs_digester *d = cs->impl;
    if (d->inner) {
        CZK_TRY(czk__cs_alloc(d->inner, out, value, name, idx));
        cs->n_aux = d->inner->n_aux;
        sync_values(d);
        return CZK_OK;
    }
    if (cs->n_aux >= CZK_VAR_MAX_INDEX) return czk_error(CZK_ERR_UNSUPPORTED, "digester: more than 2^31 aux variables");
    *out = czk_var_aux(cs->n_aux++);
    return CZK_OK;
}

static czk_status d_alloc_input(czk_cs *cs, czk_var *out, const czk_fr *value, const char *name, uint64_t idx)
{
    czk_r1cs_digester *d = cs->impl;
    if (d->finished) return czk_error(CZK_ERR_INVALID_ARG, "digester: alloc_input after finish");
    if (d->inner) {
        CZK_TRY(czk__cs_alloc_input(d->inner, out, value, name, idx));
        cs->n_inputs = d->inner->n_inputs;
        sync_values(d);
        return CZK_OK;
    }
    if (cs->n_inputs >= CZK_VAR_MAX_INDEX) return czk_error(CZK_ERR_UNSUPPORTED, "digester: more than 2^31 inputs");
    *out = czk_var_input(cs->n_inputs++);
    return CZK_OK;
}

static int valid_view(const czk_cs *cs, const czk_lc_view *v)
{
    uint32_t bad = 0;
    for (uint32_t i = 0; i < v->n_in; i++) bad |= v->in[i].index >= cs->n_inputs;
    for (uint32_t i = 0; i < v->n_aux; i++) bad |= v->aux[i].index >= cs->n_aux;
    return !bad;
}

/* "ns/name idx" of the constraint being enforced. */
static char *leaf_path(const czk_r1cs_digester *d, const char *name, uint64_t idx)
{
    char *s = NULL;
    const char *sep = d->ns_len ? "/" : "";
    int n = idx == CZK_NOIDX ? asprintf(&s, "%.*s%s%s", (int)d->ns_len, d->ns ? d->ns : "", sep, name ? name : "")
                             : asprintf(&s, "%.*s%s%s %llu", (int)d->ns_len, d->ns ? d->ns : "", sep,
                                        name ? name : "", (unsigned long long)idx);
    return n < 0 ? NULL : s;
}

/* Wait for the batch in flight and push its h_c into the sink, in order. */
static czk_status drain(czk_r1cs_digester *d)
{
    if (!d->in_flight) return CZK_OK;
    d->in_flight = 0;
    const batch *b = &d->bat[!d->fill];
    CZK_TRY(pool_finish(&d->pool, d->fly_row));
    for (uint32_t i = 0; i < b->n_rows; i++) {
        int differs;
        CZK_TRY(sink_push(&d->s, b->h + 32 * (size_t)i, &differs));
        if (CZK_UNLIKELY(differs)) {
            czk_lc_view v[3];
            const czk_lc_view *pv[3] = {&v[0], &v[1], &v[2]};
            batch_views(b, i, v);
            CZK_TRY(capture_terms(&d->cap, pv));
        }
    }
    return CZK_OK;
}

/* Hand the batch being filled to the pool (after the one in flight has been
 * pushed) and start filling the other. */
static czk_status rotate(czk_r1cs_digester *d)
{
    CZK_TRY(drain(d));
    batch *b = &d->bat[d->fill];
    if (!b->n_rows) return CZK_OK;
    d->fly_row = d->cs.n_constraints - b->n_rows;
    pool_submit(&d->pool, b);
    d->in_flight = 1;
    d->fill = !d->fill;
    d->bat[d->fill].n_rows = 0;
    d->bat[d->fill].n_terms = 0;
    return CZK_OK;
}

static czk_status d_enforce(czk_cs *cs, const czk_lc_view *a, const czk_lc_view *b, const czk_lc_view *c,
                            const char *name, uint64_t idx)
{
    czk_r1cs_digester *d = cs->impl;
    uint64_t r = cs->n_constraints;
    if (CZK_UNLIKELY(d->finished)) return czk_error(CZK_ERR_INVALID_ARG, "digester: enforce after finish");
    if (CZK_UNLIKELY(!valid_view(cs, a) || !valid_view(cs, b) || !valid_view(cs, c)))
        return czk_error(CZK_ERR_INVALID_ARG, "constraint %llu (%s): refers to an unallocated variable",
                         (unsigned long long)r, name ? name : "");
    const czk_lc_view *v[3] = {a, b, c};
    if (d->batched) {
        CZK_TRY(batch_add(&d->bat[d->fill], v));
        if (d->inner && d->inner->needs_constraints) CZK_TRY(czk_cs_enforce(d->inner, a, b, c, name, idx));
        cs->n_constraints = r + 1;
        if (batch_full(&d->bat[d->fill])) CZK_TRY(rotate(d));
        return CZK_OK;
    }
    uint8_t h[32];
    int differs;
    CZK_TRY(enc_row(&d->e, h, v));
    CZK_TRY(sink_push(&d->s, h, &differs));
    if (CZK_UNLIKELY(differs)) {
        CZK_TRY(capture_terms(&d->cap, v));
        if (d->cs.wants_names && !(d->cap.path = leaf_path(d, name, idx)))
            return czk_error(CZK_ERR_NOMEM, "digester: constraint name");
    }
    if (d->inner && d->inner->needs_constraints) CZK_TRY(czk_cs_enforce(d->inner, a, b, c, name, idx));
    cs->n_constraints = r + 1;
    return CZK_OK;
}

static void d_ns_push(czk_cs *cs, const char *name, uint64_t idx)
{
    czk_r1cs_digester *d = cs->impl;
    if (d->inner) czk__cs_ns_push(d->inner, name, idx);
    char comp[64];
    if (idx != CZK_NOIDX) snprintf(comp, sizeof comp, " %llu", (unsigned long long)idx);
    else comp[0] = 0;
    size_t ln = name ? strlen(name) : 0, lc = strlen(comp);
    /* on allocation failure the component is dropped (paths are diagnostics) */
    if (grow((void **)&d->marks, &d->cap_marks, d->n_marks + 1, sizeof(size_t)) != CZK_OK) return;
    if (grow((void **)&d->ns, &d->ns_cap, d->ns_len + 1 + ln + lc + 1, 1) != CZK_OK) {
        czk_error_clear();
        d->marks[d->n_marks++] = d->ns_len;
        return;
    }
    d->marks[d->n_marks++] = d->ns_len;
    if (d->ns_len) d->ns[d->ns_len++] = '/';
    if (ln) memcpy(d->ns + d->ns_len, name, ln);
    memcpy(d->ns + d->ns_len + ln, comp, lc + 1);
    d->ns_len += ln + lc;
}

static void d_ns_pop(czk_cs *cs)
{
    czk_r1cs_digester *d = cs->impl;
    if (d->inner) czk__cs_ns_pop(d->inner);
    if (d->n_marks) d->ns_len = d->marks[--d->n_marks];
}

static const czk_cs_ops digester_ops = {d_alloc, d_alloc_input, d_enforce, d_ns_push, d_ns_pop};

void czk_cs_r1cs_digester_destroy(czk_r1cs_digester *d)
{
    if (!d) return;
    if (d->batched) {
        if (d->in_flight) pool_wait(&d->pool); /* the workers must be done with the batch */
        pool_destroy(&d->pool);
        batch_clear(&d->bat[0]);
        batch_clear(&d->bat[1]);
    }
    if (d->open) sink_abort(&d->s);
    enc_clear(&d->e);
    czk_cs_r1cs_diff_clear(&d->cap);
    czk__lc_scratch_destroy(d->cs.lc_kind, d->cs.lc_scratch);
    free(d->ns);
    free(d->marks);
    free(d);
}

czk_status czk_cs_r1cs_digester_create(czk_r1cs_digester **out, czk_cs **cs, czk_cs *values, czk_lc_kind lc,
                                       const czk_r1cs_digest_opts *opts)
{
    *out = NULL;
    *cs = NULL;
    if ((unsigned)lc >= CZK_LC_KIND_COUNT) return czk_error(CZK_ERR_INVALID_ARG, "digester: LC kind %d", (int)lc);
    if (values && (values->n_inputs != 1 || values->n_aux != 0 || values->n_constraints != 0))
        return czk_error(CZK_ERR_INVALID_ARG,
                         "digester: the values backend must be fresh (it has %u inputs, %u aux, %llu constraints)",
                         values->n_inputs, values->n_aux, (unsigned long long)values->n_constraints);
    /* czk__pow2_table (gadget coefficients) is filled by the first czk_cs_create */
    czk_cs *tmp;
    CZK_TRY(czk_cs_create(&tmp, CZK_CS_WITNESS, CZK_LC_VEC, NULL));
    czk_cs_destroy(tmp);
    czk_r1cs_digester *d = calloc(1, sizeof *d);
    if (!d) return czk_error(CZK_ERR_NOMEM, "digester");
    czk_cs_r1cs_diff_clear(&d->cap);
    d->inner = values;
    d->inner_values = values && values->has_values;
    d->cs.ops = &digester_ops;
    /* the values backend's kind, so that czk_cs_value reads d->vals; SHAPE without values */
    d->cs.backend = d->inner_values ? values->backend : CZK_CS_SHAPE;
    d->cs.lc_kind = lc;
    d->cs.has_values = d->inner_values;
    d->cs.needs_constraints = 1;
    d->cs.wants_names = opts && opts->names;
    d->cs.impl = d;
    d->cs.lc_scratch = czk__lc_scratch_create(lc);
    czk_status st = d->cs.lc_scratch ? CZK_OK : czk_error(CZK_ERR_NOMEM, "digester");
    if (st == CZK_OK) {
        st = sink_open(&d->s, opts);
        d->open = 1;
    }
    if (st == CZK_OK && opts && opts->threads > 1 && !opts->names) {
        d->batched = 1;
        st = batch_init(&d->bat[0]);
        if (st == CZK_OK) st = batch_init(&d->bat[1]);
        if (st == CZK_OK) st = pool_create(&d->pool, opts->threads - 1);
    }
    if (st == CZK_OK) {
        if (values) {
            d->cs.n_inputs = 1;
            sync_values(d);
        } else {
            czk_var one;
            st = czk__cs_alloc_input(&d->cs, &one, NULL, "ONE", CZK_NOIDX);
        }
    }
    if (st != CZK_OK) {
        czk_cs_r1cs_digester_destroy(d);
        return st;
    }
    *out = d;
    *cs = &d->cs;
    return CZK_OK;
}

czk_status czk_cs_r1cs_digester_finish(czk_r1cs_digester *d, czk_r1cs_digest *out, czk_r1cs_diff *diff)
{
    if (d->finished) return czk_error(CZK_ERR_INVALID_ARG, "digester: finished twice");
    d->finished = 1;
    if (d->batched) {
        czk_status st = rotate(d);
        if (st == CZK_OK) st = drain(d);
        if (st != CZK_OK) return st; /* destroy removes the dump */
    }
    d->open = 0;
    if (diff) {
        czk_cs_r1cs_diff_clear(diff);
        *diff = d->cap; /* the captured terms and path move to diff */
        memset(&d->cap, 0, sizeof d->cap);
        d->cap.first = -1;
    }
    return sink_finish(&d->s, d->cs.n_inputs, d->cs.n_aux, out, diff);
}
