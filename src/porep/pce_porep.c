/* PCE for the PoRep partition circuit: recording, cache, witness + evaluation. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "czk/czk.h"
#include "czk/pce.h"
#include "czk/porep.h"
#include "circuits/porep_internal.h"
#include "pce/pce_internal.h"


void czk_pce_porep_key(char out[CZK_PCE_KEY_MAX], const czk_fc_shape *s)
{
    snprintf(out, CZK_PCE_KEY_MAX, "porep %s ss=%llu nodes=%llu L=%u P=%u C=%u tree=%u,%u,%u h=%u d=%u v1_1=%d %s",
             czk_fc_proof_name(s->proof), (unsigned long long)s->sector_size, (unsigned long long)s->nodes,
             s->layers, s->partitions, s->challenges, s->base_arity, s->sub_arity, s->top_arity, s->base_height,
             s->d_height, s->api_v1_1, CZK_PCE_POREP_VERSION);
}

czk_status czk_pce_porep_build(czk_pce **out, const czk_fc_shape *shape, czk_pce_progress_fn progress, void *ctx)
{
    *out = NULL;
    czk_cs_sizes z;
    CZK_TRY(czk_porep_sizes(&z, shape));
    czk_pce_recorder *r;
    czk_cs *cs;
    CZK_TRY(czk_pce_recorder_create(&r, &cs, CZK_LC_DEFAULT, &z));
    if (progress) progress(ctx, "recording the circuit shape", 0.0);
    czk_pce_recorder_set_progress(r, progress, ctx, z.n_constraints);
    czk_status st = czk_porep_synthesize(cs, shape, NULL, 0);
    if (st == CZK_OK && (cs->n_inputs != z.n_inputs || cs->n_aux != z.n_aux ||
                         cs->n_constraints + cs->n_inputs != z.n_constraints))
        st = czk_error(CZK_ERR_INTERNAL, "PCE: recorded %u inputs, %u aux, %llu constraints; expected %llu, %llu, %llu",
                       cs->n_inputs, cs->n_aux, (unsigned long long)cs->n_constraints, (unsigned long long)z.n_inputs,
                       (unsigned long long)z.n_aux, (unsigned long long)(z.n_constraints - z.n_inputs));
    if (progress) progress(ctx, "compiling", 0.9);
    char key[CZK_PCE_KEY_MAX];
    czk_pce_porep_key(key, shape);
    if (st == CZK_OK) st = czk_pce_recorder_finish(r, out, key);
    czk_pce_recorder_destroy(r);
    if (progress) progress(ctx, "compiled", 1.0);
    return st;
}

czk_status czk_pce_cache_path(char *out, size_t n, const czk_fc_shape *s)
{
    char dir[400];
    CZK_TRY(czk_cache_dir(dir, sizeof dir));
    char key[CZK_PCE_KEY_MAX];
    czk_pce_porep_key(key, s);
    /* the file name carries a digest of the whole key; the key itself is checked on read */
    uint64_t h = 1469598103934665603ULL;
    for (const char *p = key; *p; p++) h = (h ^ (uint8_t)*p) * 1099511628211ULL;
    int w = snprintf(out, n, "%s/pce-%s-%llu-L%u-C%u-%016llx.pce", dir, czk_fc_proof_name(s->proof),
                     (unsigned long long)s->sector_size, s->layers, s->challenges, (unsigned long long)h);
    if (w < 0 || (size_t)w >= n) return czk_error(CZK_ERR_INVALID_ARG, "PCE cache path too long (%s)", dir);
    return CZK_OK;
}

czk_status czk_pce_porep_get(czk_pce **out, const czk_fc_shape *shape, czk_pce_progress_fn progress, void *ctx,
                             int *built)
{
    *out = NULL;
    if (built) *built = 0;
    char path[600], key[CZK_PCE_KEY_MAX];
    CZK_TRY(czk_pce_cache_path(path, sizeof path, shape));
    czk_pce_porep_key(key, shape);
    struct stat stt;
    if (stat(path, &stt) == 0) {
        if (progress) progress(ctx, "reading the cached PCE", 0.0);
        if (czk_pce_read(out, path, key) == CZK_OK) return CZK_OK;
        fprintf(stderr, "czk: cached PCE unusable (%s); rebuilding\n", czk_last_error());
    }
    CZK_TRY(czk_pce_porep_build(out, shape, progress, ctx));
    if (built) *built = 1;
    if (progress) progress(ctx, "writing the PCE cache", 1.0);
    if (czk_pce_write(*out, path) != CZK_OK)
        fprintf(stderr, "czk: could not cache the PCE: %s\n", czk_last_error());
    return CZK_OK;
}

struct czk_pce_porep_work {
    const czk_pce *p;
    czk_fc_shape shape;
    czk__cs_values v; /* input, aux: exactly the partition's counts */
    size_t n_input, n_aux;
    int threads;
    czk_fr *a, *b, *c;
};

/* Zero n values in parallel: the pages are mapped now, not during the first
 * timed synthesis. */
static void touch(czk_fr *v, size_t n, int threads)
{
    const size_t CH = (size_t)1 << 18;
#pragma omp parallel for num_threads(threads) schedule(dynamic, 1)
    for (size_t off = 0; off < n; off += CH) memset(v + off, 0, (n - off < CH ? n - off : CH) * sizeof(czk_fr));
}

void czk_pce_porep_work_destroy(czk_pce_porep_work *w)
{
    if (!w) return;
    free(w->v.input);
    free(w->v.aux);
    free(w->a);
    free(w->b);
    free(w->c);
    free(w);
}

czk_status czk_pce_porep_work_create(czk_pce_porep_work **out, const czk_pce *p, const czk_fc_shape *shape)
{
    *out = NULL;
    czk_cs_sizes z;
    CZK_TRY(czk_porep_sizes(&z, shape));
    if (z.n_inputs != p->n_inputs || z.n_inputs + z.n_aux != p->cols || z.n_constraints != p->rows)
        return czk_error(CZK_ERR_INVALID_ARG, "PCE '%s' does not match the shape (%llu x %llu)", p->key,
                         (unsigned long long)z.n_constraints, (unsigned long long)(z.n_inputs + z.n_aux));
    czk_pce_porep_work *w = calloc(1, sizeof *w);
    if (!w) return czk_error(CZK_ERR_NOMEM, "PCE work");
    w->p = p;
    w->shape = *shape;
    w->n_input = (size_t)z.n_inputs;
    w->n_aux = (size_t)z.n_aux;
    w->v.input = malloc(w->n_input * sizeof(czk_fr));
    w->v.aux = malloc((w->n_aux ? w->n_aux : 1) * sizeof(czk_fr));
    w->v.cap_input = w->n_input;
    w->v.cap_aux = w->n_aux;
    if (!w->v.input || !w->v.aux) {
        czk_pce_porep_work_destroy(w);
        return czk_error(CZK_ERR_NOMEM, "PCE work: witness of %zu aux variables", (size_t)z.n_aux);
    }
    touch(w->v.aux, w->n_aux, czk_threads() > 0 ? czk_threads() : 1);
    *out = w;
    return CZK_OK;
}

czk_status czk_pce_porep_work_reserve(czk_pce_porep_work *w, int threads)
{
    if (w->a) return CZK_OK;
    if (threads <= 0) threads = czk_threads() > 0 ? czk_threads() : 1;
    size_t rows = (size_t)w->p->rows;
    w->a = malloc(rows * sizeof(czk_fr));
    w->b = malloc(rows * sizeof(czk_fr));
    w->c = malloc(rows * sizeof(czk_fr));
    if (!w->a || !w->b || !w->c) {
        free(w->a), free(w->b), free(w->c);
        w->a = w->b = w->c = NULL;
        return czk_error(CZK_ERR_NOMEM, "PCE: a, b, c of %zu rows", rows);
    }
    touch(w->a, rows, threads);
    touch(w->b, rows, threads);
    touch(w->c, rows, threads);
    return CZK_OK;
}

void czk_pce_porep_work_set_threads(czk_pce_porep_work *w, int threads)
{
    w->threads = threads;
}

czk_status czk_pce_porep_witness(czk_pce_porep_work *w, const czk_fc_c1 *c1, uint32_t k, const czk_fr **input,
                                 size_t *n_input, const czk_fr **aux, size_t *n_aux)
{
    int threads = w->threads > 0 ? w->threads : czk_threads();
    CZK_TRY(czk__porep_witness_par(&w->v, &w->shape, c1, k, CZK_LC_DEFAULT, threads > 0 ? threads : 1));
    *input = w->v.input;
    *n_input = w->n_input;
    *aux = w->v.aux;
    *n_aux = w->n_aux;
    return CZK_OK;
}

czk_status czk_pce_porep_synthesize(czk_pce_porep_work *w, const czk_fc_c1 *c1, uint32_t k, int threads,
                                    czk_cs_assignment *out, czk_pce_timings *t)
{
    const czk_fr *in, *aux;
    size_t ni, na;
    double t0 = czk_now(), c0 = czk_cpu_now();
    const int saved = w->threads;
    if (threads > 0) w->threads = threads;
    czk_status ws = czk_pce_porep_witness(w, c1, k, &in, &ni, &aux, &na);
    w->threads = saved;
    CZK_TRY(ws);
    double t1 = czk_now(), c1t = czk_cpu_now();
    size_t rows = (size_t)w->p->rows;
    (void)rows;
    CZK_TRY(czk_pce_porep_work_reserve(w, threads));
    CZK_TRY(czk_pce_eval(w->p, w->a, w->b, w->c, in, ni, aux, na, threads));
    double t2 = czk_now(), c2 = czk_cpu_now();
    czk_pce_assignment(out, w->p, in, aux, w->a, w->b, w->c);
    if (t) {
        t->witness_s = t1 - t0;
        t->eval_s = t2 - t1;
        t->witness_cpu_s = c1t - c0;
        t->eval_cpu_s = c2 - c1t;
    }
    return CZK_OK;
}

int czk_pce_porep_is_cached(const czk_fc_shape *shape)
{
    char path[600];
    struct stat st;
    if (czk_pce_cache_path(path, sizeof path, shape) != CZK_OK) return 0;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

czk_status czk_pce_check(const czk_cs_assignment *w, int threads)
{
    if (threads <= 0) threads = czk_threads();
    const int64_t n = (int64_t)w->n_constraints;
    int64_t bad = n;
#pragma omp parallel for num_threads(threads) schedule(static) reduction(min : bad)
    for (int64_t r = 0; r < n; r++) {
        czk_fr ab;
        czk_fr_mul(&ab, &w->a[r], &w->b[r]);
        if (!czk_fr_eq(&ab, &w->c[r]) && r < bad) bad = r;
    }
    if (bad < n) return czk_error(CZK_ERR_UNSATISFIED, "constraint %lld is not satisfied (a*b != c)", (long long)bad);
    return CZK_OK;
}

/* ---- validation against the PROVE synthesis ------------------------------------ */

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

typedef struct stream_cmp {
    const czk_pce *p;
    const czk_fr *in, *aux;
    size_t ni, na;
    czk_fr *buf; /* 3 x rows */
    uint64_t rows;
    uint32_t k;
    int threads;
} stream_cmp;

/* PROVE rows [r0, r1) against the PCE's evaluation of the same rows */
static czk_status stream_rows(void *ctx, uint64_t r0, uint64_t r1, const czk_fr *a, const czk_fr *b, const czk_fr *c)
{
    stream_cmp *s = ctx;
    for (uint64_t e0 = r0 & ~(uint64_t)(CZK_PCE_BLOCK - 1); e0 < r1; e0 += s->rows) {
        uint64_t e1 = e0 + s->rows < r1 ? e0 + s->rows : r1;
        czk_fr *ea = s->buf, *eb = s->buf + s->rows, *ec = s->buf + 2 * s->rows;
        CZK_TRY(czk_pce_eval_range(s->p, ea, eb, ec, e0, e1, s->in, s->ni, s->aux, s->na, s->threads));
        uint64_t lo = e0 > r0 ? e0 : r0;
        size_t m = (size_t)(e1 - lo);
        CZK_TRY(cmp_vec("a", ea + (lo - e0), a + (lo - r0), m, lo, s->k));
        CZK_TRY(cmp_vec("b", eb + (lo - e0), b + (lo - r0), m, lo, s->k));
        CZK_TRY(cmp_vec("c", ec + (lo - e0), c + (lo - r0), m, lo, s->k));
    }
    return CZK_OK;
}

size_t czk_pce_porep_validate_bytes(const czk_pce_porep_work *w, int streamed, int threads)
{
    const size_t fr = sizeof(czk_fr), cols = w->n_input + w->n_aux, bits = (cols + 63) / 64 * 8 * 3;
    const czk_pce *p = w->p;
    if (!streamed) return cols * fr + 3 * (size_t)p->rows * fr + bits;
    if (threads <= 0) threads = czk_threads() > 0 ? czk_threads() : 1;
    if ((uint32_t)threads > w->shape.challenges) threads = (int)w->shape.challenges;
    /* window: at most the rows of `threads` challenges or the common part; plus the evaluation buffers */
    size_t per = (size_t)(p->rows - p->n_inputs) / w->shape.challenges + 1;
    return cols * fr + bits + 3 * per * (size_t)threads * fr + 3 * ((size_t)1 << 20) * fr;
}

czk_status czk_pce_porep_validate(czk_pce_porep_work *w, const czk_fc_c1 *c1, uint32_t k, int threads, int streamed)
{
    if (threads <= 0) threads = czk_threads() > 0 ? czk_threads() : 1;
    if (!streamed && !w->a)
        return czk_error(CZK_ERR_INVALID_ARG, "PCE validate: no a, b, c held (run czk_pce_porep_synthesize, or stream)");
    const czk_pce *p = w->p;
    czk_cs_assignment pa;
    czk_pce_assignment(&pa, p, w->v.input, w->v.aux, w->a, w->b, w->c);
    pa.n_input = w->n_input;
    pa.n_aux = w->n_aux;
    if (!streamed) {
        czk_porep_prover *pr;
        CZK_TRY(czk_porep_prover_create(&pr, &w->shape, CZK_LC_DEFAULT));
        czk_status s = czk_porep_prover_synthesize(pr, c1, k, threads);
        czk_cs_assignment r;
        if (s == CZK_OK) s = czk_porep_prover_get(pr, &r);
        if (s == CZK_OK && (r.n_input != pa.n_input || r.n_aux != pa.n_aux || r.n_constraints != pa.n_constraints))
            s = czk_error(CZK_ERR_INTERNAL, "partition %u: PCE sizes %zu/%zu/%zu, PROVE %zu/%zu/%zu", k, pa.n_input,
                          pa.n_aux, pa.n_constraints, r.n_input, r.n_aux, r.n_constraints);
        if (s == CZK_OK) s = cmp_vec("input", pa.input, r.input, r.n_input, 0, k);
        if (s == CZK_OK) s = cmp_vec("aux", pa.aux, r.aux, r.n_aux, 0, k);
        if (s == CZK_OK) s = cmp_vec("a", pa.a, r.a, r.n_constraints, 0, k);
        if (s == CZK_OK) s = cmp_vec("b", pa.b, r.b, r.n_constraints, 0, k);
        if (s == CZK_OK) s = cmp_vec("c", pa.c, r.c, r.n_constraints, 0, k);
        if (s == CZK_OK)
            s = cmp_bits("A-aux", pa.a_aux_density, pa.a_aux_popcount, r.a_aux_density, r.a_aux_popcount, r.n_aux, k);
        if (s == CZK_OK)
            s = cmp_bits("B-input", pa.b_input_density, pa.b_input_popcount, r.b_input_density, r.b_input_popcount,
                         r.n_input, k);
        if (s == CZK_OK)
            s = cmp_bits("B-aux", pa.b_aux_density, pa.b_aux_popcount, r.b_aux_density, r.b_aux_popcount, r.n_aux, k);
        czk_porep_prover_destroy(pr);
        return s;
    }
    /* streamed: the PROVE synthesis window by window, each compared with the
     * PCE's evaluation of the same rows on the PCE witness */
    czk__cs_values v = {malloc(w->n_input * sizeof(czk_fr)), malloc(w->n_aux * sizeof(czk_fr)), w->n_input, w->n_aux};
    size_t wa = (w->n_aux + 63) / 64, wi = (w->n_input + 63) / 64;
    uint64_t *dens[3] = {calloc(wa, 8), calloc(wi, 8), calloc(wa, 8)};
    stream_cmp sc = {p, w->v.input, w->v.aux, w->n_input, w->n_aux, NULL, (uint64_t)1 << 20, k, threads};
    sc.buf = malloc(3 * (size_t)sc.rows * sizeof(czk_fr));
    czk_status s = CZK_OK;
    if (!v.input || !v.aux || !dens[0] || !dens[1] || !dens[2] || !sc.buf)
        s = czk_error(CZK_ERR_NOMEM, "PCE validate: PROVE witness of %zu aux variables", w->n_aux);
    if (s == CZK_OK) s = czk__porep_prove_stream(&v, dens, &w->shape, c1, k, CZK_LC_DEFAULT, threads, stream_rows, &sc);
    if (s == CZK_OK) s = cmp_vec("input", pa.input, v.input, w->n_input, 0, k);
    if (s == CZK_OK) s = cmp_vec("aux", pa.aux, v.aux, w->n_aux, 0, k);
    size_t pop[3] = {0, 0, 0};
    for (size_t i = 0; s == CZK_OK && i < wa; i++) {
        pop[0] += (size_t)__builtin_popcountll(dens[0][i]);
        pop[2] += (size_t)__builtin_popcountll(dens[2][i]);
    }
    for (size_t i = 0; s == CZK_OK && i < wi; i++) pop[1] += (size_t)__builtin_popcountll(dens[1][i]);
    if (s == CZK_OK) s = cmp_bits("A-aux", pa.a_aux_density, pa.a_aux_popcount, dens[0], pop[0], w->n_aux, k);
    if (s == CZK_OK) s = cmp_bits("B-input", pa.b_input_density, pa.b_input_popcount, dens[1], pop[1], w->n_input, k);
    if (s == CZK_OK) s = cmp_bits("B-aux", pa.b_aux_density, pa.b_aux_popcount, dens[2], pop[2], w->n_aux, k);
    free(v.input);
    free(v.aux);
    free(dens[0]);
    free(dens[1]);
    free(dens[2]);
    free(sc.buf);
    return s;
}
