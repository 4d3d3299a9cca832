/* PCE for any circuit: the cache of compiled matrices by key, a partition's
 * workspace (witness, a/b/c over the PCE) and the comparisons against the
 * PROVE synthesis that --validate runs. The circuits' drivers
 * (src/porep/pce_porep.c, src/post/pce_post.c) add the shape's key, its
 * recording and its witness-only synthesis. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "common/bigmem.h"
#include "czk/czk.h"
#include "pce/pce_internal.h"

/* ---- the cache ------------------------------------------------------------------------ */

czk_status czk_pce_cache_file(char *out, size_t n, const char *key, const char *label)
{
    char dir[400];
    CZK_TRY(czk_cache_dir(dir, sizeof dir));
    /* the file name carries a digest of the whole key (FNV-1a); the key itself is checked on read */
    uint64_t h = 1469598103934665603ULL;
    for (const char *p = key; *p; p++) h = (h ^ (uint8_t)*p) * 1099511628211ULL;
    int w = snprintf(out, n, "%s/pce-%s-%016llx.pce", dir, label, (unsigned long long)h);
    if (w < 0 || (size_t)w >= n) return czk_error(CZK_ERR_INVALID_ARG, "PCE cache path too long (%s)", dir);
    return CZK_OK;
}

int czk_pce_cache_has(const char *path)
{
    struct stat st;
    return path && stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

czk_status czk_pce_cache_get(czk_pce **out, const char *path, const char *key, czk_pce_build_fn build,
                             void *build_ctx, czk_pce_progress_fn progress, void *ctx, int *built)
{
    *out = NULL;
    if (built) *built = 0;
    if (czk_pce_cache_has(path)) {
        if (progress) progress(ctx, "reading the cached PCE", 0.0);
        if (czk_pce_read(out, path, key) == CZK_OK) return CZK_OK;
        fprintf(stderr, "czk: cached PCE unusable (%s); rebuilding\n", czk_last_error());
    }
    CZK_TRY(build(out, build_ctx, progress, ctx));
    if (built) *built = 1;
    if (progress) progress(ctx, "writing the PCE cache", 1.0);
    if (czk_pce_write(*out, path) != CZK_OK)
        fprintf(stderr, "czk: could not cache the PCE: %s\n", czk_last_error());
    return CZK_OK;
}

czk_status czk_pce_record(czk_pce **out, const czk_cs_sizes *z, czk_pce_synth_fn synth, const void *ctx,
                          const char *key, czk_pce_progress_fn progress, void *pctx)
{
    *out = NULL;
    czk_pce_recorder *r;
    czk_cs *cs;
    CZK_TRY(czk_pce_recorder_create(&r, &cs, CZK_LC_DEFAULT, z));
    if (progress) progress(pctx, "recording the circuit shape", 0.0);
    czk_pce_recorder_set_progress(r, progress, pctx, z->n_constraints);
    czk_status st = synth(cs, ctx);
    if (st == CZK_OK &&
        (cs->n_inputs != z->n_inputs || cs->n_aux != z->n_aux || cs->n_constraints + cs->n_inputs != z->n_constraints))
        st = czk_error(CZK_ERR_INTERNAL, "PCE: recorded %u inputs, %u aux, %llu constraints; expected %llu, %llu, %llu",
                       cs->n_inputs, cs->n_aux, (unsigned long long)cs->n_constraints, (unsigned long long)z->n_inputs,
                       (unsigned long long)z->n_aux, (unsigned long long)(z->n_constraints - z->n_inputs));
    if (progress) progress(pctx, "compiling", 0.9);
    if (st == CZK_OK) st = czk_pce_recorder_finish(r, out, key);
    czk_pce_recorder_destroy(r);
    if (progress) progress(pctx, "compiled", 1.0);
    return st;
}

/* ---- a partition's workspace ---------------------------------------------------------- */

/* Fault n values' pages in now, in parallel (the kernel zero-fills them;
 * nothing is written twice), not during the first timed synthesis. */
static void touch(czk_fr *v, size_t n, int threads)
{
    czk__big_populate(v, n * sizeof(czk_fr), threads);
}

void czk_pce_work_destroy(czk_pce_work *w)
{
    if (!w) return;
    czk__big_free(w->v.input);
    czk__big_free(w->v.aux);
    czk__big_free(w->a);
    czk__big_free(w->b);
    czk__big_free(w->c);
    free(w);
}

czk_status czk_pce_work_create(czk_pce_work **out, const czk_pce *p)
{
    *out = NULL;
    if (!p) return czk_error(CZK_ERR_INVALID_ARG, "PCE work: NULL PCE");
    czk_pce_work *w = calloc(1, sizeof *w);
    if (!w) return czk_error(CZK_ERR_NOMEM, "PCE work");
    w->p = p;
    w->n_input = (size_t)p->n_inputs;
    w->n_aux = (size_t)(p->cols - p->n_inputs);
    w->v.input = czk__big_alloc(w->n_input * sizeof(czk_fr));
    w->v.aux = czk__big_alloc((w->n_aux ? w->n_aux : 1) * sizeof(czk_fr));
    w->v.cap_input = w->n_input;
    w->v.cap_aux = w->n_aux;
    if (!w->v.input || !w->v.aux) {
        czk_pce_work_destroy(w);
        return czk_error(CZK_ERR_NOMEM, "PCE work: witness of %zu aux variables", w->n_aux);
    }
    touch(w->v.aux, w->n_aux, czk_threads() > 0 ? czk_threads() : 1);
    *out = w;
    return CZK_OK;
}

czk_status czk_pce_work_reserve(czk_pce_work *w, int threads)
{
    if (w->a) return CZK_OK;
    if (threads <= 0) threads = czk_threads() > 0 ? czk_threads() : 1;
    size_t rows = (size_t)w->p->rows;
    w->a = czk__big_alloc(rows * sizeof(czk_fr));
    w->b = czk__big_alloc(rows * sizeof(czk_fr));
    w->c = czk__big_alloc(rows * sizeof(czk_fr));
    if (!w->a || !w->b || !w->c) {
        czk__big_free(w->a), czk__big_free(w->b), czk__big_free(w->c);
        w->a = w->b = w->c = NULL;
        return czk_error(CZK_ERR_NOMEM, "PCE: a, b, c of %zu rows", rows);
    }
    touch(w->a, rows, threads);
    touch(w->b, rows, threads);
    touch(w->c, rows, threads);
    return CZK_OK;
}

czk_status czk_pce_work_eval(czk_pce_work *w, int threads, czk_cs_assignment *out)
{
    CZK_TRY(czk_pce_work_reserve(w, threads));
    CZK_TRY(czk_pce_eval(w->p, w->a, w->b, w->c, w->v.input, w->n_input, w->v.aux, w->n_aux, threads));
    czk_pce_assignment(out, w->p, w->v.input, w->v.aux, w->a, w->b, w->c);
    return CZK_OK;
}

/* ---- comparisons against the PROVE synthesis --------------------------------------------- */

static size_t first_diff(const czk_fr *x, const czk_fr *y, size_t n)
{
    const size_t CH = 4096;
    for (size_t i = 0; i < n; i += CH) {
        size_t m = n - i < CH ? n - i : CH;
        if (memcmp(x + i, y + i, m * sizeof(czk_fr)) == 0) continue;
        for (size_t j = i; j < i + m; j++)
            if (memcmp(&x[j], &y[j], sizeof(czk_fr))) return j;
    }
    return n;
}

static czk_status cmp_vec(const char *what, const czk_fr *pce, const czk_fr *ref, size_t n, uint64_t base, uint32_t k)
{
    size_t i = first_diff(pce, ref, n);
    if (i == n) return CZK_OK;
    return czk_error(CZK_ERR_INTERNAL, "partition %u: PCE %s[%llu] differs from the PROVE synthesis", k, what,
                     (unsigned long long)(base + i));
}

static czk_status cmp_bits(const char *what, const uint64_t *pce, size_t pop_pce, const uint64_t *ref,
                           size_t pop_ref, size_t nbits, uint32_t k)
{
    for (size_t i = 0; i < (nbits + 63) / 64; i++)
        if (pce[i] != ref[i]) {
            size_t b = i * 64 + (size_t)__builtin_ctzll(pce[i] ^ ref[i]);
            return czk_error(CZK_ERR_INTERNAL, "partition %u: PCE %s density bit %zu differs from the PROVE synthesis",
                             k, what, b);
        }
    if (pop_pce != pop_ref)
        return czk_error(CZK_ERR_INTERNAL, "partition %u: PCE %s density popcount %zu, PROVE %zu", k, what, pop_pce,
                         pop_ref);
    return CZK_OK;
}

/* The PCE's assignment over the workspace's witness (a, b, c may be NULL). */
static void work_assignment(czk_cs_assignment *pa, const czk_pce_work *w)
{
    czk_pce_assignment(pa, w->p, w->v.input, w->v.aux, w->a, w->b, w->c);
    pa->n_input = w->n_input;
    pa->n_aux = w->n_aux;
}

czk_status czk_pce_work_compare(const czk_pce_work *w, const czk_cs_assignment *r, uint32_t k)
{
    if (!w->a)
        return czk_error(CZK_ERR_INVALID_ARG, "PCE validate: no a, b, c held (evaluate first, or stream)");
    czk_cs_assignment pa;
    work_assignment(&pa, w);
    if (r->n_input != pa.n_input || r->n_aux != pa.n_aux || r->n_constraints != pa.n_constraints)
        return czk_error(CZK_ERR_INTERNAL, "partition %u: PCE sizes %zu/%zu/%zu, PROVE %zu/%zu/%zu", k, pa.n_input,
                         pa.n_aux, pa.n_constraints, r->n_input, r->n_aux, r->n_constraints);
    CZK_TRY(cmp_vec("input", pa.input, r->input, r->n_input, 0, k));
    CZK_TRY(cmp_vec("aux", pa.aux, r->aux, r->n_aux, 0, k));
    CZK_TRY(cmp_vec("a", pa.a, r->a, r->n_constraints, 0, k));
    CZK_TRY(cmp_vec("b", pa.b, r->b, r->n_constraints, 0, k));
    CZK_TRY(cmp_vec("c", pa.c, r->c, r->n_constraints, 0, k));
    CZK_TRY(cmp_bits("A-aux", pa.a_aux_density, pa.a_aux_popcount, r->a_aux_density, r->a_aux_popcount, r->n_aux, k));
    CZK_TRY(cmp_bits("B-input", pa.b_input_density, pa.b_input_popcount, r->b_input_density, r->b_input_popcount,
                     r->n_input, k));
    return cmp_bits("B-aux", pa.b_aux_density, pa.b_aux_popcount, r->b_aux_density, r->b_aux_popcount, r->n_aux, k);
}

/* Rows of the PCE evaluated per window of the streamed comparison. */
#define STREAM_ROWS ((uint64_t)1 << 20)

typedef struct stream_cmp {
    const czk_pce_work *w;
    czk_fr *buf; /* 3 x STREAM_ROWS */
    uint32_t k;
    int threads;
} stream_cmp;

/* PROVE rows [r0, r1) against the PCE's evaluation of the same rows */
static czk_status stream_rows(void *ctx, uint64_t r0, uint64_t r1, const czk_fr *a, const czk_fr *b, const czk_fr *c)
{
    stream_cmp *s = ctx;
    const czk_pce_work *w = s->w;
    for (uint64_t e0 = r0 & ~(uint64_t)(CZK_PCE_BLOCK - 1); e0 < r1; e0 += STREAM_ROWS) {
        uint64_t e1 = e0 + STREAM_ROWS < r1 ? e0 + STREAM_ROWS : r1;
        czk_fr *ea = s->buf, *eb = s->buf + STREAM_ROWS, *ec = s->buf + 2 * STREAM_ROWS;
        CZK_TRY(czk_pce_eval_range(w->p, ea, eb, ec, e0, e1, w->v.input, w->n_input, w->v.aux, w->n_aux, s->threads));
        uint64_t lo = e0 > r0 ? e0 : r0;
        size_t m = (size_t)(e1 - lo);
        CZK_TRY(cmp_vec("a", ea + (lo - e0), a + (lo - r0), m, lo, s->k));
        CZK_TRY(cmp_vec("b", eb + (lo - e0), b + (lo - r0), m, lo, s->k));
        CZK_TRY(cmp_vec("c", ec + (lo - e0), c + (lo - r0), m, lo, s->k));
    }
    return CZK_OK;
}

size_t czk_pce_work_compare_stream_bytes(const czk_pce_work *w, uint64_t window_rows)
{
    const size_t fr = sizeof(czk_fr), cols = w->n_input + w->n_aux, bits = (cols + 63) / 64 * 8 * 3;
    return cols * fr + bits + 3 * (size_t)window_rows * fr + 3 * (size_t)STREAM_ROWS * fr;
}

czk_status czk_pce_work_compare_stream(const czk_pce_work *w, czk_pce_stream_fn stream, void *stream_ctx, uint32_t k,
                                       int threads)
{
    if (threads <= 0) threads = czk_threads() > 0 ? czk_threads() : 1;
    czk_cs_assignment pa;
    work_assignment(&pa, w);
    /* the PROVE synthesis' own witness and densities, beside the PCE's */
    czk_fr *in = czk__big_alloc(w->n_input * sizeof(czk_fr));
    czk_fr *aux = czk__big_alloc((w->n_aux ? w->n_aux : 1) * sizeof(czk_fr));
    size_t wa = (w->n_aux + 63) / 64, wi = (w->n_input + 63) / 64;
    uint64_t *dens[3] = {czk__big_alloc((wa + 1) * 8), czk__big_alloc((wi + 1) * 8), czk__big_alloc((wa + 1) * 8)};
    stream_cmp sc = {w, czk__big_alloc(3 * (size_t)STREAM_ROWS * sizeof(czk_fr)), k, threads};
    czk_status s = CZK_OK;
    if (!in || !aux || !dens[0] || !dens[1] || !dens[2] || !sc.buf)
        s = czk_error(CZK_ERR_NOMEM, "PCE validate: PROVE witness of %zu aux variables", w->n_aux);
    if (s == CZK_OK) s = stream(stream_ctx, in, w->n_input, aux, w->n_aux, dens, stream_rows, &sc);
    if (s == CZK_OK) s = cmp_vec("input", pa.input, in, w->n_input, 0, k);
    if (s == CZK_OK) s = cmp_vec("aux", pa.aux, aux, w->n_aux, 0, k);
    size_t pop[3] = {0, 0, 0};
    for (size_t i = 0; s == CZK_OK && i < wa; i++) {
        pop[0] += (size_t)__builtin_popcountll(dens[0][i]);
        pop[2] += (size_t)__builtin_popcountll(dens[2][i]);
    }
    for (size_t i = 0; s == CZK_OK && i < wi; i++) pop[1] += (size_t)__builtin_popcountll(dens[1][i]);
    if (s == CZK_OK) s = cmp_bits("A-aux", pa.a_aux_density, pa.a_aux_popcount, dens[0], pop[0], w->n_aux, k);
    if (s == CZK_OK) s = cmp_bits("B-input", pa.b_input_density, pa.b_input_popcount, dens[1], pop[1], w->n_input, k);
    if (s == CZK_OK) s = cmp_bits("B-aux", pa.b_aux_density, pa.b_aux_popcount, dens[2], pop[2], w->n_aux, k);
    czk__big_free(in);
    czk__big_free(aux);
    czk__big_free(dens[0]);
    czk__big_free(dens[1]);
    czk__big_free(dens[2]);
    czk__big_free(sc.buf);
    return s;
}
