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
#include "pce/pce_internal.h"

static double cpu_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

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

static czk_status cache_dir(char *out, size_t n)
{
    const char *d = getenv("CZK_CACHE_DIR");
    if (d && *d) snprintf(out, n, "%s", d);
    else if ((d = getenv("XDG_CACHE_HOME")) && *d) snprintf(out, n, "%s/czk", d);
    else if ((d = getenv("HOME")) && *d) snprintf(out, n, "%s/.cache/czk", d);
    else return czk_error(CZK_ERR_IO, "no cache directory: set CZK_CACHE_DIR or HOME");
    char tmp[512];
    snprintf(tmp, sizeof tmp, "%s", out);
    for (char *p = tmp + 1; *p; p++) {
        if (*p == '/') {
            *p = 0;
            (void)mkdir(tmp, 0755);
            *p = '/';
        }
    }
    if (mkdir(tmp, 0755) != 0 && errno != EEXIST) return czk_error(CZK_ERR_IO, "%s: %s", tmp, strerror(errno));
    return CZK_OK;
}

czk_status czk_pce_cache_path(char *out, size_t n, const czk_fc_shape *s)
{
    char dir[400];
    CZK_TRY(cache_dir(dir, sizeof dir));
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
    czk_cs *cs;
    czk_fr *a, *b, *c;
};

void czk_pce_porep_work_destroy(czk_pce_porep_work *w)
{
    if (!w) return;
    czk_cs_destroy(w->cs);
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
    czk_status st = czk_cs_create(&w->cs, CZK_CS_WITNESS, CZK_LC_DEFAULT, &z);
    if (st != CZK_OK) {
        czk_pce_porep_work_destroy(w);
        return st;
    }
    *out = w;
    return CZK_OK;
}

czk_status czk_pce_porep_witness(czk_pce_porep_work *w, const czk_fc_c1 *c1, uint32_t k, const czk_fr **input,
                                 size_t *n_input, const czk_fr **aux, size_t *n_aux)
{
    czk_cs_reset(w->cs);
    CZK_TRY(czk_porep_synthesize(w->cs, &w->shape, c1, k));
    CZK_TRY(czk_cs_witness_get(w->cs, input, n_input, aux, n_aux));
    if (*n_input != w->p->n_inputs || *n_input + *n_aux != w->p->cols)
        return czk_error(CZK_ERR_INTERNAL, "PCE: witness has %zu inputs, %zu aux; the PCE %llu columns", *n_input,
                         *n_aux, (unsigned long long)w->p->cols);
    return CZK_OK;
}

czk_status czk_pce_porep_synthesize(czk_pce_porep_work *w, const czk_fc_c1 *c1, uint32_t k, int threads,
                                    czk_cs_assignment *out, czk_pce_timings *t)
{
    const czk_fr *in, *aux;
    size_t ni, na;
    double t0 = now_s(), c0 = cpu_s();
    CZK_TRY(czk_pce_porep_witness(w, c1, k, &in, &ni, &aux, &na));
    double t1 = now_s(), c1t = cpu_s();
    size_t rows = (size_t)w->p->rows;
    if (!w->a) {
        w->a = malloc(rows * sizeof(czk_fr));
        w->b = malloc(rows * sizeof(czk_fr));
        w->c = malloc(rows * sizeof(czk_fr));
        if (!w->a || !w->b || !w->c) {
            free(w->a), free(w->b), free(w->c);
            w->a = w->b = w->c = NULL;
            return czk_error(CZK_ERR_NOMEM, "PCE: a, b, c of %zu rows", rows);
        }
    }
    CZK_TRY(czk_pce_eval(w->p, w->a, w->b, w->c, in, ni, aux, na, threads));
    double t2 = now_s(), c2 = cpu_s();
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
    if (bad < n) return czk_error(CZK_ERR_UNSATISFIED, "PCE assignment: row %lld: a*b != c", (long long)bad);
    return CZK_OK;
}
