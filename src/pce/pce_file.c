/* The PCE file (version 3): written through czk's atomic writer, read by
 * mapping it (the matrices point into the mapping) and validated on
 * threads: layout, checksum, every row and non-zero. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <omp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <xxhash.h>

#include "common/fileio.h"
#include "czk/czk.h"
#include "czk/pce.h"
#include "pce/pce_internal.h"

#define LEN_ESCAPE CZK__PCE_LEN_ESCAPE
#define MAX_CODES CZK__PCE_MAX_CODES
#define GENERAL CZK__PCE_GENERAL
typedef czk__pmat pmat;

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

static const char *const mat_names[3] = {"A", "B", "C"};

/* Row lengths of matrix mi against its long-row table and its non-zero
 * count, and its block index rebuilt; esc0[b + 1] (zeroed, nb + 1 words):
 * the long-row entries before block b + 1; bn: scratch, nb words. */
static czk_status check_rows(czk_pce *p, int mi, const char *path, int nt, uint64_t *esc0, uint64_t *bn)
{
    pmat *m = &p->m[mi];
    const uint64_t nb = p->nblocks, rows = p->rows, nnz = m->nnz;
    first_err e = {UINT64_MAX, ""};
    /* escapes per block, then where each block's entries of the long-row table start */
#pragma omp parallel for num_threads(nt) schedule(dynamic, 64)
    for (uint64_t b = 0; b < nb; b++) {
        uint64_t r1 = (b + 1) * CZK_PCE_BLOCK < rows ? (b + 1) * CZK_PCE_BLOCK : rows, c = 0;
        for (uint64_t r = b * CZK_PCE_BLOCK; r < r1; r++) c += m->len[r] == LEN_ESCAPE;
        esc0[b + 1] = c;
    }
    for (uint64_t b = 0; b < nb; b++) esc0[b + 1] += esc0[b];
    if (esc0[nb] != m->n_over)
        return czk_error(CZK_ERR_FORMAT, "%s: matrix %s: %llu long rows, the long-row table has %llu", path,
                         mat_names[mi], (unsigned long long)esc0[nb], (unsigned long long)m->n_over);
    /* non-zeros per block */
#pragma omp parallel for num_threads(nt) schedule(dynamic, 64)
    for (uint64_t b = 0; b < nb; b++) {
        uint64_t r1 = (b + 1) * CZK_PCE_BLOCK < rows ? (b + 1) * CZK_PCE_BLOCK : rows, w = 0, oi = esc0[b];
        for (uint64_t r = b * CZK_PCE_BLOCK; r < r1; r++) {
            uint64_t n = m->len[r];
            if (n == LEN_ESCAPE) {
                if (m->over[2 * oi] != r) {
                    note_err(&e, r, "%s: matrix %s row %llu: long-row table inconsistent", path, mat_names[mi],
                             (unsigned long long)r);
                    break;
                }
                n = m->over[2 * oi + 1];
                oi++;
            }
            if (n > nnz - w) {
                note_err(&e, r, "%s: matrix %s row %llu: lengths exceed the non-zero count", path, mat_names[mi],
                         (unsigned long long)r);
                break;
            }
            w += n;
        }
        bn[b] = w;
    }
    if (e.pos != UINT64_MAX) return czk_error(CZK_ERR_FORMAT, "%s", e.msg);
    uint64_t w = 0;
    for (uint64_t b = 0; b < nb; b++) {
        m->block[b] = w;
        if (bn[b] > nnz - w)
            return czk_error(CZK_ERR_FORMAT, "%s: matrix %s row %llu: lengths exceed the non-zero count", path,
                             mat_names[mi], (unsigned long long)(b * CZK_PCE_BLOCK));
        w += bn[b];
    }
    m->block[nb] = w;
    if (w != nnz)
        return czk_error(CZK_ERR_FORMAT, "%s: matrix %s: row lengths sum to %llu, header says %llu", path,
                         mat_names[mi], (unsigned long long)w, (unsigned long long)nnz);
    return CZK_OK;
}

/* Matrix mi's coefficients: canonical, non-zero and of their evaluation class. */
static czk_status check_table(const pmat *m, int mi, const char *path)
{
    for (uint64_t c = 0; c < m->distinct; c++) {
        uint64_t limbs[4];
        memcpy(limbs, m->table[c].l, sizeof limbs);
        czk_fr chk;
        /* Montgomery values are < r exactly when canonical */
        if (czk_fr_from_limbs(&chk, limbs) != CZK_OK || czk_fr_is_zero(&m->table[c]))
            return czk_error(CZK_ERR_FORMAT, "%s: matrix %s coefficient %llu is not a canonical non-zero element",
                             path, mat_names[mi], (unsigned long long)c);
        if (m->meta[c] != GENERAL && m->meta[c] != czk__pce_classify(&m->table[c]))
            return czk_error(CZK_ERR_FORMAT, "%s: matrix %s coefficient %llu: wrong evaluation class", path,
                             mat_names[mi], (unsigned long long)c);
    }
    return CZK_OK;
}

/* Every non-zero of matrix mi (its block index rebuilt, esc0 from
 * check_rows): column and code in range, each row's evaluation order; the
 * unit / pow2 counts and the densities (A and B) derived in the same pass.
 * On a few threads each marks its own copy of the bitmaps (plain stores,
 * OR-ed after), on many the shared ones with atomic ORs. */
static czk_status check_nonzeros(czk_pce *p, int mi, const char *path, int nt, const uint64_t *esc0)
{
    pmat *m = &p->m[mi];
    const uint64_t nb = p->nblocks, rows = p->rows;
    first_err e = {UINT64_MAX, ""};
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
                                 path, mat_names[mi], (unsigned long long)k);
                        r = r1;
                        break;
                    }
                    uint16_t mt = m->meta[code];
                    unsigned key = mt == GENERAL ? 0x1ff : (mt & 0xffu);
                    if (key > last) {
                        note_err(&e, k, "%s: matrix %s row %llu: terms out of evaluation order", path,
                                 mat_names[mi], (unsigned long long)r);
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
    if (e.pos != UINT64_MAX) return czk_error(CZK_ERR_FORMAT, "%s", e.msg);
    m->unit = unit;
    m->pow2 = pow2;
    return CZK_OK;
}

/* Structure of matrix mi read from a file, on threads: row lengths (and the
 * long-row table) against the non-zero count, the block index rebuilt,
 * columns and codes in range, coefficients canonical, non-zero and of their
 * class, each row's evaluation order; the unit / pow2 counts and the
 * densities (A and B) derived in the same pass. */
static czk_status validate_matrix(czk_pce *p, int mi, const char *path, int nt)
{
    uint64_t *esc0 = calloc(p->nblocks + 1, sizeof *esc0), *bn = calloc(p->nblocks + 1, sizeof *bn);
    if (!esc0 || !bn) {
        free(esc0), free(bn);
        return czk_error(CZK_ERR_NOMEM, "%s: PCE validation", path);
    }
    czk_status st = check_rows(p, mi, path, nt, esc0, bn);
    if (st == CZK_OK) st = check_table(&p->m[mi], mi, path);
    if (st == CZK_OK) st = check_nonzeros(p, mi, path, nt, esc0);
    free(esc0), free(bn);
    return st;
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
    for (int i = 0; i < 3; i++)
        if (h.nnz[i] > size || h.distinct[i] > MAX_CODES || h.n_over[i] > h.rows) {
            s = czk_error(CZK_ERR_FORMAT, "%s: implausible counts for matrix %s", path, mat_names[i]);
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
            s = czk_error(CZK_ERR_NOMEM, "%s: matrix %s (%llu non-zeros)", path, mat_names[i],
                          (unsigned long long)m->nnz);
            goto fail;
        }
    }
    czk__pce_classify_init();
    for (int i = 0; i < 3 && s == CZK_OK; i++) s = validate_matrix(p, i, path, nt);
    if (s != CZK_OK) goto fail;
    p->pop[0] = p->pop[1] = p->pop[2] = 0;
    for (size_t i = 0; i < words_aux; i++) p->pop[0] += (uint64_t)__builtin_popcountll(p->dens[0][i]);
    for (size_t i = 0; i < words_in; i++) p->pop[1] += (uint64_t)__builtin_popcountll(p->dens[1][i]);
    for (size_t i = 0; i < words_aux; i++) p->pop[2] += (uint64_t)__builtin_popcountll(p->dens[2][i]);
    /* the checks touched every page: they leave the process (the page cache
     * keeps them for the first evaluation) */
    czk__pce_drop_pages(p, -1);
    *out = p;
    return CZK_OK;
fail:
    czk_pce_destroy(p);
    return s;
}
