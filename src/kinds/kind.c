/* The proof-kind registry and the one call that proves a job of any kind
 * through the engine (czk/kind.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <time.h>

#include "czk/czk.h"
#include "czk/kind.h"
#include "kinds/request.h"
#include "czk/post_kind.h"
#include "czk/snap_kind.h"

static const czk_proof_kind *const kinds[] = {&czk_kind_porep, &czk_kind_window_post, &czk_kind_winning_post,
                                              &czk_kind_snap};

const czk_proof_kind *czk_proof_kind_at(size_t i)
{
    return i < sizeof kinds / sizeof kinds[0] ? kinds[i] : NULL;
}

const czk_proof_kind *czk_proof_kind_find(const char *name)
{
    for (size_t i = 0; name && czk_proof_kind_at(i); i++)
        if (!strcmp(kinds[i]->name, name)) return kinds[i];
    return NULL;
}

void czk_proof_kind_names(char *out, size_t cap)
{
    size_t n = 0, used = 0;
    while (czk_proof_kind_at(n)) n++;
    if (cap) out[0] = 0;
    for (size_t i = 0; i < n && used < cap; i++) {
        const char *sep = i == 0 ? "" : i + 1 == n ? " or " : ", ";
        int w = snprintf(out + used, cap - used, "%s%s", sep, kinds[i]->name);
        if (w < 0) break;
        used += (size_t)w;
    }
}

const czk_proof_kind *czk_proof_kind_of_wire(int wire_kind)
{
    for (size_t i = 0; czk_proof_kind_at(i); i++)
        if (kinds[i]->wire_kind == wire_kind) return kinds[i];
    return NULL;
}

czk_status czk_kind_circuit_id(char *out, size_t cap, const czk_proof_kind *k, uint64_t sector_size)
{
    static const struct { uint64_t size; const char *tag; } sizes[] = {
        {2048, "2k"}, {8ull << 20, "8m"}, {512ull << 20, "512m"}, {32ull << 30, "32g"}, {64ull << 30, "64g"}};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++)
        if (sizes[i].size == sector_size) {
            snprintf(out, cap, "%s-%s", k->circuit_prefix, sizes[i].tag);
            return CZK_OK;
        }
    return czk_error(CZK_ERR_INVALID_ARG, "%s: no circuit id for %llu-byte sectors", k->name,
                     (unsigned long long)sector_size);
}

typedef czk_status (*inputs_fn)(czk_fr *out, size_t n, const void *of, uint32_t k);

/* n proofs against the public inputs inputs(of, partition) derives, in one batch. */
static czk_status verify_batch(const czk_groth16_vk *vk, const czk_proof_kind *k, inputs_fn inputs, const void *of,
                               uint32_t parts, const czk_groth16_proof *proofs, const uint32_t *partitions, uint32_t n)
{
    if (vk->n_ic < 1) return czk_error(CZK_ERR_INVALID_ARG, "the verifying key has no public inputs (not even ONE)");
    const size_t per = vk->n_ic - 1;
    const size_t total = (size_t)n * per;
    czk_fr *in = malloc((total ? total : 1) * sizeof *in);
    if (!in) return czk_error(CZK_ERR_NOMEM, "%u partitions' public inputs", n);
    czk_status st = CZK_OK;
    for (uint32_t i = 0; i < n && st == CZK_OK; i++) {
        uint32_t p = partitions ? partitions[i] : i;
        if (p >= parts)
            st = czk_error(CZK_ERR_INVALID_ARG, "partition %u of a %s proof with %u", p, k->name, parts);
        else
            st = inputs(in + (size_t)i * per, per, of, p);
    }
    czk_groth16_pvk pvk;
    if (st == CZK_OK) st = czk_groth16_pvk_prepare(&pvk, vk);
    if (st == CZK_OK)
        st = n == 1 ? czk_groth16_verify(&pvk, proofs, in, per) : czk_groth16_verify_batch(&pvk, proofs, n, in, per, NULL);
    free(in);
    return st;
}

czk_status czk_kind_verify(const czk_groth16_vk *vk, const czk_proof_kind *k, const void *pub,
                           const czk_groth16_proof *proofs, const uint32_t *partitions, uint32_t n)
{
    return verify_batch(vk, k, k->public_inputs, pub, k->public_partitions(pub), proofs, partitions, n);
}

czk_status czk_kind_verify_data(const czk_groth16_vk *vk, const czk_proof_kind *k, const void *data,
                                const czk_groth16_proof *proofs, const uint32_t *partitions, uint32_t n)
{
    czk_cs_sizes z; /* the data must be the kind's (the circuit's sizes refuse another's) */
    CZK_TRY(k->circuit->sizes(&z, data, 0));
    return verify_batch(vk, k, k->circuit->public_inputs, data, k->partitions(data), proofs, partitions, n);
}

czk_status czk_kind_prove_partition(czk_groth16_proof *out, const czk_proof_kind *kind,
                                    const czk_groth16_params *params, const void *data, uint32_t k,
                                    const czk_witness_source *src, czk_kind_times *times)
{
    czk_witness_source own;
    memset(&own, 0, sizeof own);
    if (!src) {
        CZK_TRY(czk_kind_source_open(&own, kind, data, NULL));
        src = &own;
    }
    czk_cs_sizes sizes;
    czk_status s = kind->circuit->sizes(&sizes, data, k);
    czk_witness *w = NULL;
    if (s == CZK_OK) s = src->ops->create(&w, src, &sizes);
    double t0 = czk_now(), t1 = t0;
    if (s == CZK_OK) s = src->ops->synthesize(w, data, k, czk_threads());
    t1 = czk_now();
    if (s == CZK_OK) s = src->ops->check(w, czk_threads());
    czk_cs_assignment asg;
    if (s == CZK_OK) s = src->ops->get(w, &asg);
    if (s != CZK_OK) {
        s = czk_error_context(s, "partition %u: %s synthesis", k, src->ops->name);
    } else {
        czk_groth16_prove_opts o = {0};
        czk_groth16_timings tm;
        o.timings = &tm;
        s = czk_groth16_prove(out, params, &asg, &o);
        if (s != CZK_OK) s = czk_error_context(s, "partition %u", k);
        if (s == CZK_OK && times) {
            memset(times, 0, sizeof *times);
            times->synth_s = t1 - t0;
            times->source = src->ops->name;
            times->g = tm;
            times->constraints = asg.n_constraints;
            times->aux = asg.n_aux;
            times->inputs = asg.n_input;
        }
    }
    if (w) src->ops->destroy(w);
    czk_witness_source_close(&own);
    return s;
}

czk_status czk_kind_param_path(char *out, size_t cap, const czk_proof_kind *k, const char *dir, const void *data,
                               const char *ext)
{
    return k->param_path(out, cap, dir, k->shape_of(data), ext);
}

czk_status czk_kind_param_path_of_size(char *out, size_t cap, const czk_proof_kind *k, const char *dir,
                                       uint64_t sector_size, const char *ext)
{
    const czk_shape_spec spec = {.sector_size = sector_size};
    void *shape = NULL;
    czk_status st = k->shape_resolve(&shape, &spec);
    if (st == CZK_OK) st = k->param_path(out, cap, dir, shape, ext);
    free(shape);
    return st;
}

czk_status czk__kind_proof_lists(const czk_kind_request *r, const uint8_t ***pp, size_t **lens)
{
    size_t n = r->n_proofs ? r->n_proofs : 1;
    *pp = malloc(n * sizeof **pp);
    *lens = malloc(n * sizeof **lens);
    if (!*pp || !*lens) {
        free((void *)*pp);
        free(*lens);
        *pp = NULL;
        *lens = NULL;
        return czk_error(CZK_ERR_NOMEM, "vanilla_proofs: %zu entries", r->n_proofs);
    }
    for (size_t i = 0; i < r->n_proofs; i++) {
        (*pp)[i] = r->proofs[i].data;
        (*lens)[i] = r->proofs[i].len;
    }
    return CZK_OK;
}

void czk_kind_engine_job(czk_engine_job *out, const czk_proof_kind *k, const void *data,
                         const czk_groth16_params *params, const czk_witness_source *source,
                         const uint32_t *partitions, uint32_t n, int priority, const char *name)
{
    memset(out, 0, sizeof *out);
    out->circuit = k->circuit;
    out->source = source;
    out->data = data;
    out->params = params;
    out->partitions = partitions;
    out->n_partitions = n;
    out->priority = priority;
    out->name = name;
}

czk_status czk_pce_mode_parse(czk_pce_mode *out, const char *s)
{
    if (s && !strcmp(s, "off")) *out = CZK_PCE_MODE_OFF;
    else if (s && !strcmp(s, "on")) *out = CZK_PCE_MODE_ON;
    else if (s && !strcmp(s, "auto")) *out = CZK_PCE_MODE_AUTO;
    else return czk_error(CZK_ERR_INVALID_ARG, "PCE mode '%s': wanted on, off or auto", s ? s : "(null)");
    return CZK_OK;
}

const char *czk_pce_mode_name(czk_pce_mode m)
{
    switch (m) {
    case CZK_PCE_MODE_ON: return "on";
    case CZK_PCE_MODE_AUTO: return "auto";
    default: return "off";
    }
}

typedef struct relay {
    const czk_kind_job *job;
} relay;

static void engine_progress(void *ctx, const czk_engine_progress *p)
{
    const relay *r = ctx;
    char st[160];
    int n = snprintf(st, sizeof st, "proving: %llu/%llu partitions synthesized, %llu proven",
                     (unsigned long long)p->tasks_synthesized, (unsigned long long)p->tasks_total,
                     (unsigned long long)p->tasks_proven);
    double done = p->tasks_proven;
    /* a streamed pass moves the bar within its partition */
    if (p->pass_fraction >= 0 && p->pass_fraction < 1 && p->tasks_proven < p->tasks_total) {
        snprintf(st + n, sizeof st - (size_t)n, "; partition %u: parameters streamed", p->pass_partition);
        done += p->pass_fraction;
    }
    r->job->progress(r->job->progress_ctx, st, p->tasks_total ? done / (double)p->tasks_total : 0);
}

czk_status czk_kind_prove(czk_groth16_proof *proofs, const czk_kind_job *job, czk_kind_report *report)
{
    if (!proofs || !job || !job->kind || !job->data || (!job->params == !job->params_stream))
        return czk_error(CZK_ERR_INVALID_ARG, "prove: proofs, kind, data and params (or a file to stream) are required");
    const czk_proof_kind *k = job->kind;
    if (job->n == 0) return czk_error(CZK_ERR_INVALID_ARG, "prove %s: no partitions", k->name);
    uint32_t parts = k->partitions(job->data);
    for (uint32_t i = 0; i < job->n; i++) {
        uint32_t p = job->partitions ? job->partitions[i] : i;
        if (p >= parts)
            return czk_error(CZK_ERR_INVALID_ARG, "prove %s: partition %u of a job with %u", k->name, p, parts);
    }
    /* parameters left on disk: a parameter set like any other, each prover
     * pass streaming its file (czk_groth16_params_open_streamed) */
    czk_groth16_params streamed;
    memset(&streamed, 0, sizeof streamed);
    const czk_groth16_params *params = job->params;
    if (job->params_stream) {
        CZK_TRY(czk_groth16_params_open_streamed(&streamed, job->params_stream, job->stream_check,
                                                 job->stream_chunk_bytes, czk_threads()));
        params = &streamed;
    }
    if (job->stream_stats) memset(job->stream_stats, 0, sizeof *job->stream_stats);
    czk_witness_source src;
    czk_status sst = czk_kind_source_open(&src, k, job->data, &job->source);
    if (sst != CZK_OK) {
        czk_groth16_params_clear(&streamed);
        return sst;
    }

    czk_engine_opts o = job->engine;
    /* one job: no more synthesis workers than partitions; a multithreaded
     * source gets the cores as one worker */
    int nt = czk_threads();
    if (o.synth_workers <= 0) o.synth_workers = src.ops->multithreaded ? 1 : (nt / 2 > 1 ? nt / 2 : 1);
    if ((uint32_t)o.synth_workers > job->n) o.synth_workers = (int)job->n;
    relay r = {job};
    if (job->progress) {
        o.progress = engine_progress;
        o.progress_ctx = &r;
    }
    czk_engine *e = NULL;
    czk_status st = czk_engine_create(&e, &o);
    if (st != CZK_OK) {
        czk_witness_source_close(&src);
        czk_groth16_params_clear(&streamed);
        return st;
    }
    czk_engine_job ej;
    czk_kind_engine_job(&ej, k, job->data, params, &src, job->partitions, job->n, 0, k->name);
    double t0 = czk_now();
    uint64_t id;
    st = czk_engine_submit(e, &id, &ej);
    if (st == CZK_OK) st = czk_engine_wait(e, id, proofs, job->n);
    double wall = czk_now() - t0;
    char msg[700] = "";
    if (st != CZK_OK) snprintf(msg, sizeof msg, "%s", czk_last_error());
    czk_engine_event *ev = NULL;
    size_t nev = 0;
    if (czk_engine_events(e, &ev, &nev) != CZK_OK) czk_error_clear(), nev = 0;
    for (size_t i = 0; i < nev && job->params_stream; i++) {
        if (job->stream_stats) {
            job->stream_stats->read_s += ev[i].params_read_s;
            job->stream_stats->bytes_read += ev[i].params_bytes_read;
        }
        if (job->stream_info && ev[i].streamed) job->stream_info->ran = (czk_groth16_check)ev[i].params_check;
    }
    if (report) {
        report->source = src.ops->name;
        report->verified = st == CZK_OK && !o.no_verify;
        report->wall_s = wall;
        report->peak_reserved = czk_engine_peak_reserved(e);
        for (size_t i = 0; report->parts && i < job->n; i++) {
            czk_kind_partition_times *pt = &report->parts[i];
            memset(pt, 0, sizeof *pt);
            pt->partition = job->partitions ? job->partitions[i] : (uint32_t)i;
            if (i < nev) {
                pt->synth_s = ev[i].synth_end - ev[i].synth_start;
                pt->prove_s = ev[i].prove_end - ev[i].prove_start;
                pt->batch = ev[i].batch;
            }
        }
    }
    free(ev);
    czk_engine_destroy(e);
    /* the source's name stays valid: names are string literals */
    czk_witness_source_close(&src);
    czk_groth16_params_clear(&streamed);
    if (st != CZK_OK) return czk_error(st, "%s", msg);
    return CZK_OK;
}
