/* The proof-kind registry and the one call that proves a job of any kind
 * through the engine (czk/kind.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <time.h>

#include "czk/czk.h"
#include "czk/kind.h"
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
    char st[96];
    snprintf(st, sizeof st, "proving: %llu/%llu partitions synthesized, %llu proven",
             (unsigned long long)p->tasks_synthesized, (unsigned long long)p->tasks_total,
             (unsigned long long)p->tasks_proven);
    r->job->progress(r->job->progress_ctx, st,
                     p->tasks_total ? (double)p->tasks_proven / (double)p->tasks_total : 0);
}

/* ---- parameters streamed from disk ------------------------------------------------- */

typedef struct stream_fill {
    const czk_witness_ops *ops;
    czk_witness *w;
    int threads;
} stream_fill;

static czk_status fill_relay(void *ctx, int which, czk_fr *out, size_t m)
{
    const stream_fill *f = ctx;
    return f->ops->fill(f->w, which, out, m, f->threads);
}

static void stream_progress(void *ctx, const char *stage, double fraction)
{
    const czk_kind_job *job = ctx;
    job->progress(job->progress_ctx, stage, fraction);
}

/* One partition: witness, check, streamed proof, verification. */
static czk_status stream_partition(czk_groth16_proof *out, const czk_kind_job *job, czk_witness_source *src,
                                   czk_witness *w, uint32_t part, czk_groth16_pvk *pvk, czk_groth16_vk *vk,
                                   int *have_pvk, czk_kind_partition_times *pt)
{
    const czk_witness_ops *ops = src->ops;
    int threads = czk_threads();
    int lean = ops->synthesize_witness && ops->fill;
    double t0 = czk_now();
    if (job->progress) job->progress(job->progress_ctx, "synthesis", -1);
    czk_status st = lean ? ops->synthesize_witness(w, job->data, part, threads)
                         : ops->synthesize(w, job->data, part, threads);
    if (st != CZK_OK) return czk_error_context(st, "partition %u: synthesis", part);
    st = ops->check(w, threads);
    if (st != CZK_OK) return czk_error_context(st, "partition %u: witness check", part);
    czk_cs_assignment asg;
    CZK_TRY(ops->get(w, &asg));
    double t1 = czk_now();
    stream_fill sf = {ops, w, threads};
    czk_groth16_stream_opts so;
    memset(&so, 0, sizeof so);
    so.threads = threads;
    so.check = job->stream_check;
    so.chunk_bytes = job->stream_chunk_bytes;
    if (lean) so.fill = fill_relay, so.fill_ctx = &sf;
    if (job->progress) so.progress = stream_progress, so.progress_ctx = (void *)job;
    czk_groth16_stream_stats stats;
    so.stats = &stats;
    so.info = job->stream_info;
    czk_groth16_vk_clear(vk);
    st = czk_groth16_prove_stream(out, vk, job->params_stream, &asg, &so);
    if (st != CZK_OK) return czk_error_context(st, "partition %u: prove", part);
    if (job->stream_stats) {
        job->stream_stats->read_s += stats.read_s;
        job->stream_stats->bytes_read += stats.bytes_read;
        job->stream_stats->chunk_points_g1 = stats.chunk_points_g1;
        job->stream_stats->chunk_points_g2 = stats.chunk_points_g2;
    }
    if (pt) pt->partition = part, pt->synth_s = t1 - t0, pt->prove_s = czk_now() - t1, pt->batch = 1;
    if (job->engine.no_verify) return CZK_OK;
    if (!*have_pvk) {
        CZK_TRY(czk_groth16_pvk_prepare(pvk, vk));
        *have_pvk = 1;
    }
    size_t n = vk->n_ic - 1;
    czk_fr *inputs = malloc((n ? n : 1) * sizeof *inputs);
    if (!inputs) return czk_error(CZK_ERR_NOMEM, "public inputs");
    st = job->kind->circuit->public_inputs(inputs, n, job->data, part);
    if (st == CZK_OK) st = czk_groth16_verify(pvk, out, inputs, n);
    free(inputs);
    if (st == CZK_ERR_VERIFY) return czk_error(st, "partition %u: the proof does not verify", part);
    if (st != CZK_OK) return czk_error_context(st, "partition %u: verification", part);
    return CZK_OK;
}

static czk_status prove_streamed(czk_groth16_proof *proofs, const czk_kind_job *job, czk_kind_report *report)
{
    const czk_proof_kind *k = job->kind;
    if (job->stream_stats) memset(job->stream_stats, 0, sizeof *job->stream_stats);
    czk_witness_source src;
    CZK_TRY(k->source_open(&src, job->data, &job->source));
    double t0 = czk_now();
    czk_witness *w = NULL;
    czk_groth16_vk vk;
    memset(&vk, 0, sizeof vk);
    czk_groth16_pvk pvk;
    int have_pvk = 0;
    uint32_t first = job->partitions ? job->partitions[0] : 0;
    czk_cs_sizes z;
    czk_status st = k->circuit->sizes(&z, job->data, first);
    if (st == CZK_OK) st = src.ops->create(&w, &src, &z);
    for (uint32_t i = 0; i < job->n && st == CZK_OK; i++) {
        uint32_t part = job->partitions ? job->partitions[i] : i;
        st = stream_partition(&proofs[i], job, &src, w, part, &pvk, &vk, &have_pvk,
                              report && report->parts ? &report->parts[i] : NULL);
    }
    if (w) src.ops->destroy(w);
    czk_groth16_vk_clear(&vk);
    if (report) {
        report->source = src.ops->name;
        report->verified = st == CZK_OK && !job->engine.no_verify;
        report->wall_s = czk_now() - t0;
        report->peak_reserved = 0;
    }
    czk_witness_source_close(&src);
    return st;
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
    if (job->params_stream) return prove_streamed(proofs, job, report);
    czk_witness_source src;
    CZK_TRY(k->source_open(&src, job->data, &job->source));

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
        return st;
    }
    czk_engine_job ej;
    memset(&ej, 0, sizeof ej);
    ej.circuit = k->circuit;
    ej.source = &src;
    ej.data = job->data;
    ej.params = job->params;
    ej.partitions = job->partitions;
    ej.n_partitions = job->n;
    ej.name = k->name;
    double t0 = czk_now();
    uint64_t id;
    st = czk_engine_submit(e, &id, &ej);
    if (st == CZK_OK) st = czk_engine_wait(e, id, proofs, job->n);
    double wall = czk_now() - t0;
    char msg[700] = "";
    if (st != CZK_OK) snprintf(msg, sizeof msg, "%s", czk_last_error());
    if (report) {
        report->source = src.ops->name;
        report->verified = st == CZK_OK && !o.no_verify;
        report->wall_s = wall;
        report->peak_reserved = czk_engine_peak_reserved(e);
        czk_engine_event *ev = NULL;
        size_t nev = 0;
        if (report->parts && czk_engine_events(e, &ev, &nev) == CZK_OK) {
            for (size_t i = 0; i < job->n; i++) {
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
    }
    czk_engine_destroy(e);
    /* the source's name stays valid: names are string literals */
    czk_witness_source_close(&src);
    if (st != CZK_OK) return czk_error(st, "%s", msg);
    return CZK_OK;
}
