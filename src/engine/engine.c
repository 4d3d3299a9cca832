/* The pipelined proving engine: pending tasks -> synthesis workers -> ready
 * queue -> prover workers (batched) -> assembler (verify) -> waiters. One
 * mutex guards all queues and counters; the work itself (synthesis, NTT,
 * MSM, verification) runs outside it. This file: sizing, creation, submit,
 * wait, cancel and shutdown; the other parts are listed in
 * engine_internal.h. See include/czk/engine.h and src/engine/README.md. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "czk/czk.h"
#include "czk/engine.h"
#include "engine/engine_internal.h"

/* ---- sizing ------------------------------------------------------------------ */

uint64_t czk_engine_params_bytes(const czk_groth16_params *p)
{
    if (!p) return 0;
    if (czk_groth16_params_streamed(p)) /* the sections stay on disk; each prover pass holds its chunk */
        return sizeof *p + p->vk.n_ic * sizeof(czk_g1_affine) + 256;
    return sizeof *p + p->vk.n_ic * sizeof(czk_g1_affine) +
           (p->n_h + p->n_l + p->n_a + p->n_b_g1) * sizeof(czk_g1_affine) + p->n_b_g2 * sizeof(czk_g2_affine);
}

uint64_t czk_engine_default_budget(void)
{
    czk_memory_info mi;
    czk_memory_probe(&mi); /* MemTotal or a smaller cgroup limit */
    uint64_t phys = mi.limit;
    uint64_t margin = phys / 8 > (1ull << 30) ? phys / 8 : (1ull << 30);
    return phys > 2 * margin ? phys - margin : phys / 2;
}

static void resolve_opts(czk_engine_opts *o, const czk_engine_opts *in)
{
    if (in)
        *o = *in;
    else
        memset(o, 0, sizeof *o);
    int n = czk_threads();
    if (o->synth_workers <= 0) o->synth_workers = n / 2 > 1 ? n / 2 : 1;
    if (o->synth_threads <= 0) o->synth_threads = n / o->synth_workers > 1 ? n / o->synth_workers : 1;
    if (o->prove_workers <= 0) o->prove_workers = 1;
    if (o->prove_threads <= 0) o->prove_threads = n;
    if (o->batch <= 0) o->batch = 1;
    if (o->batch > CZK_ENGINE_MAX_BATCH) o->batch = CZK_ENGINE_MAX_BATCH;
    if (o->batch_timeout_s <= 0) o->batch_timeout_s = 0.05;
    if (o->queue_depth <= 0) o->queue_depth = o->synth_workers + o->prove_workers * o->batch;
    if (o->memory_budget == 0) o->memory_budget = czk_engine_default_budget();
}

static czk_status check_job(const czk_engine_job *job)
{
    if (!job || !job->circuit || !job->params)
        return czk_error(CZK_ERR_INVALID_ARG, "engine job: circuit and params are required");
    if (!job->circuit->sizes || !job->circuit->public_inputs || (!job->source && !job->circuit->synthesize))
        return czk_error(CZK_ERR_INVALID_ARG, "engine job: circuit '%s' lacks a function",
                         job->circuit->name ? job->circuit->name : "?");
    const czk_witness_source *w = job->source;
    const czk_witness_ops *op = w ? w->ops : NULL;
    if (w && (!op || !op->bytes || !op->create || !op->synthesize || !op->check || !op->get || !op->destroy))
        return czk_error(CZK_ERR_INVALID_ARG, "engine job: witness source '%s' lacks a function",
                         op && op->name ? op->name : "?");
    if (job->n_partitions == 0) return czk_error(CZK_ERR_INVALID_ARG, "engine job: no partitions");
    return CZK_OK;
}

/* A job with streamed parameters whose source can make the witness alone
 * and evaluate a, b, c one at a time into the prover's vector: its tasks
 * hold input and aux only (PCE), not the rows' a, b, c. */
static int job_lean(const czk_engine_job *job)
{
    const czk_witness_ops *op = job->source ? job->source->ops : NULL;
    return czk_groth16_params_streamed(job->params) && op && op->synthesize_witness && op->fill;
}

/* Sizes and bytes of every task of a job; *max_task the largest. */
static czk_status job_task_sizes(const czk_engine_job *job, const czk_engine_opts *o, czk_cs_sizes *sizes,
                                 uint64_t *wbytes, uint64_t *pbytes, uint64_t *max_task)
{
    *max_task = 0;
    czk_cs_sizes prev = {0, 0, 0};
    uint64_t prev_p = 0;
    for (uint32_t i = 0; i < job->n_partitions; i++) {
        uint32_t k = job->partitions ? job->partitions[i] : i;
        czk_cs_sizes s;
        czk_status st = job->circuit->sizes(&s, job->data, k);
        if (st != CZK_OK)
            return czk_error_context(st, "engine job '%s': sizes of partition %u", job->name ? job->name : "",
                                     k);
        uint64_t w = job->source ? job->source->ops->bytes(job->source, &s) : czk_witness_cs_bytes(&s), p;
        if (job_lean(job) && job->source->ops->witness_only_bytes)
            w = job->source->ops->witness_only_bytes(job->source, &s);
        if (i > 0 && s.n_inputs == prev.n_inputs && s.n_aux == prev.n_aux && s.n_constraints == prev.n_constraints)
            p = prev_p; /* partitions of one circuit: computed once */
        else
            p = czk_groth16_prove_bytes(&s, job->params, o->prove_threads, o->batch);
        prev = s;
        prev_p = p;
        if (sizes) sizes[i] = s;
        if (wbytes) wbytes[i] = w;
        if (pbytes) pbytes[i] = p;
        if (w + p > *max_task) *max_task = w + p;
    }
    return CZK_OK;
}

czk_status czk_engine_job_min_budget(uint64_t *out, const czk_engine_job *job, const czk_engine_opts *opts)
{
    czk_engine_opts o;
    resolve_opts(&o, opts);
    CZK_TRY(check_job(job));
    uint64_t mx;
    CZK_TRY(job_task_sizes(job, &o, NULL, NULL, NULL, &mx));
    *out = mx + czk_engine_params_bytes(job->params) + (job->source ? job->source->shared_bytes : 0);
    return CZK_OK;
}

/* ---- lifecycle ---------------------------------------------------------------------- */

static void free_job(job *j)
{
    free(j->parts);
    free(j->tasks);
    free(j->proofs);
    free(j);
}

czk_status czk_engine_create(czk_engine **out, const czk_engine_opts *opts)
{
    czk_init();
    *out = NULL;
    czk_engine *e = calloc(1, sizeof *e);
    if (!e) return czk_error(CZK_ERR_NOMEM, "engine");
    resolve_opts(&e->o, opts);
    if (e->o.trace_path) {
        e->trace_path = strdup(e->o.trace_path);
        if (!e->trace_path) {
            free(e);
            return czk_error(CZK_ERR_NOMEM, "engine trace path");
        }
    }
    e->o.trace_path = NULL;
    e->rng = e->o.rng;
    e->budget = e->o.memory_budget;
    e->t0 = czk_now();
    pthread_condattr_t ca;
    pthread_condattr_init(&ca);
    pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
    pthread_mutex_init(&e->mu, NULL);
    pthread_mutex_init(&e->cb_mu, NULL);
    pthread_cond_init(&e->cv_synth, NULL);
    pthread_cond_init(&e->cv_prove, &ca);
    pthread_cond_init(&e->cv_asm, NULL);
    pthread_cond_init(&e->cv_done, NULL);
    pthread_condattr_destroy(&ca);
    e->prog.memory_budget = e->budget;
    e->prog.pass_fraction = -1;

    /* the urgent lane: one more worker of each stage */
    const int lane = e->o.urgent_priority > 0;
    e->n_synth = e->o.synth_workers + lane;
    e->n_prove = e->o.prove_workers + lane;
    e->synth_threads = calloc((size_t)e->n_synth, sizeof(pthread_t));
    e->prove_threads = calloc((size_t)e->n_prove, sizeof(pthread_t));
    e->synth_args = calloc((size_t)e->n_synth, sizeof(worker_arg));
    e->prove_args = calloc((size_t)e->n_prove, sizeof(worker_arg));
    czk_status st = CZK_OK;
    if (!e->synth_threads || !e->prove_threads || !e->synth_args || !e->prove_args)
        st = czk_error(CZK_ERR_NOMEM, "engine worker arrays");
    for (int i = 0; st == CZK_OK && i < e->n_synth; i++) {
        e->synth_args[i].e = e;
        e->synth_args[i].index = i;
        e->synth_args[i].urgent = i >= e->o.synth_workers;
        if (pthread_create(&e->synth_threads[i], NULL, czk__engine_synth_main, &e->synth_args[i]) != 0)
            st = czk_error(CZK_ERR_NOMEM, "engine: starting synthesis worker %d", i);
        else
            e->n_synth_started++;
    }
    for (int i = 0; st == CZK_OK && i < e->n_prove; i++) {
        e->prove_args[i].e = e;
        e->prove_args[i].index = i;
        e->prove_args[i].urgent = i >= e->o.prove_workers;
        if (pthread_create(&e->prove_threads[i], NULL, czk__engine_prove_main, &e->prove_args[i]) != 0)
            st = czk_error(CZK_ERR_NOMEM, "engine: starting prover worker %d", i);
        else
            e->n_prove_started++;
    }
    if (st == CZK_OK) {
        if (pthread_create(&e->asm_thread, NULL, czk__engine_asm_main, e) != 0)
            st = czk_error(CZK_ERR_NOMEM, "engine: starting the assembler");
        else
            e->asm_started = 1;
    }
    if (st != CZK_OK) {
        czk_engine_destroy(e);
        return st;
    }
    *out = e;
    return CZK_OK;
}

/* The shared-resource entry of key (created with `bytes`); NULL: out of memory. */
static res_ref *ref_get_locked(czk_engine *e, const void *key, uint64_t bytes)
{
    res_ref *r = e->refs;
    while (r && r->key != key) r = r->next;
    if (r) return r;
    r = calloc(1, sizeof *r);
    if (!r) return NULL;
    r->key = key;
    r->bytes = bytes;
    r->next = e->refs;
    e->refs = r;
    return r;
}

/* The engine's PROVE-backend source for a circuit; NULL: out of memory. */
static const czk_witness_source *own_source_locked(czk_engine *e, const czk_engine_circuit *c)
{
    own_source *o = e->own;
    while (o && o->circuit != c) o = o->next;
    if (o) return &o->src;
    o = calloc(1, sizeof *o);
    if (!o) return NULL;
    if (czk_witness_source_cs(&o->src, c->synthesize, e->o.lc) != CZK_OK) {
        free(o);
        czk_error_clear();
        return NULL;
    }
    o->circuit = c;
    o->next = e->own;
    e->own = o;
    return &o->src;
}

czk_status czk_engine_submit(czk_engine *e, uint64_t *id, const czk_engine_job *spec)
{
    CZK_TRY(check_job(spec));
    uint32_t np = spec->n_partitions;
    job *j = calloc(1, sizeof *j);
    czk_cs_sizes *sizes = malloc(np * sizeof *sizes);
    uint64_t *wb = malloc(np * sizeof *wb), *pb = malloc(np * sizeof *pb);
    if (j) {
        j->parts = malloc(np * sizeof *j->parts);
        j->tasks = calloc(np, sizeof *j->tasks);
        j->proofs = calloc(np, sizeof *j->proofs);
    }
    czk_status st = CZK_OK;
    if (!j || !sizes || !wb || !pb || !j->parts || !j->tasks || !j->proofs)
        st = czk_error(CZK_ERR_NOMEM, "engine job of %u partitions", np);
    uint64_t max_task = 0;
    if (st == CZK_OK) st = job_task_sizes(spec, &e->o, sizes, wb, pb, &max_task);
    uint64_t pbytes = czk_engine_params_bytes(spec->params);
    uint64_t sbytes = spec->source ? spec->source->shared_bytes : 0;
    if (st == CZK_OK && max_task + pbytes + sbytes > e->budget)
        st = czk_error(CZK_ERR_NOMEM,
                       "engine job '%s': a task needs %llu bytes (witness + prover scratch) plus %llu of "
                       "parameters and %llu of the witness source's shared data, more than the memory budget of "
                       "%llu bytes",
                       spec->name ? spec->name : "", (unsigned long long)max_task, (unsigned long long)pbytes,
                       (unsigned long long)sbytes, (unsigned long long)e->budget);
    if (st != CZK_OK) {
        if (j) free_job(j);
        free(sizes);
        free(wb);
        free(pb);
        return st;
    }
    j->spec = *spec;
    for (uint32_t i = 0; i < np; i++) j->parts[i] = spec->partitions ? spec->partitions[i] : i;
    j->spec.partitions = j->parts;
    j->status = CZK_OK;

    pthread_mutex_lock(&e->mu);
    if (e->stopping) {
        pthread_mutex_unlock(&e->mu);
        free_job(j);
        free(sizes);
        free(wb);
        free(pb);
        return czk_error(CZK_ERR_INVALID_ARG, "engine: submit after shutdown began");
    }
    if (e->n_events + np > e->cap_events) {
        size_t nc = e->cap_events ? e->cap_events : 64;
        while (nc < e->n_events + np) nc *= 2;
        czk_engine_event *ne = realloc(e->events, nc * sizeof *ne);
        if (!ne) {
            pthread_mutex_unlock(&e->mu);
            free_job(j);
            free(sizes);
            free(wb);
            free(pb);
            return czk_error(CZK_ERR_NOMEM, "engine timeline");
        }
        e->events = ne;
        e->cap_events = nc;
    }
    j->pref = ref_get_locked(e, spec->params, pbytes);
    j->src = spec->source ? spec->source : own_source_locked(e, spec->circuit);
    j->sref = NULL;
    if (j->src && j->src->shared_bytes) j->sref = ref_get_locked(e, j->src, j->src->shared_bytes);
    if (!j->pref || !j->src || (j->src->shared_bytes && !j->sref)) {
        pthread_mutex_unlock(&e->mu);
        free_job(j);
        free(sizes);
        free(wb);
        free(pb);
        return czk_error(CZK_ERR_NOMEM, "engine: parameter / witness source entries");
    }
    j->id = ++e->next_job_id;
    double tq = rel(e);
    for (uint32_t i = 0; i < np; i++) {
        task *t = &j->tasks[i];
        t->job = j;
        t->partition = j->parts[i];
        t->index = i;
        t->seq = e->next_seq++;
        t->sizes = sizes[i];
        t->witness_bytes = wb[i];
        t->prove_bytes = pb[i];
        t->lean = job_lean(spec);
        t->ev = e->n_events++;
        czk_engine_event *ev = &e->events[t->ev];
        memset(ev, 0, sizeof *ev);
        ev->job = j->id;
        ev->partition = t->partition;
        ev->priority = spec->priority;
        ev->synth_worker = ev->prove_worker = -1;
        ev->queued = tq;
        ev->synth_start = ev->synth_end = ev->prove_start = ev->prove_end = -1;
        czk__engine_insert_sorted(&e->pending, t);
    }
    j->next = e->jobs;
    e->jobs = j;
    e->prog.tasks_total += np;
    e->prog.jobs_total++;
    *id = j->id;
    pthread_cond_broadcast(&e->cv_synth);
    czk_engine_progress snap;
    uint64_t seq = czk__engine_progress_snapshot_locked(e, &snap);
    pthread_mutex_unlock(&e->mu);
    czk__engine_progress_deliver(e, &snap, seq);
    free(sizes);
    free(wb);
    free(pb);
    return CZK_OK;
}

czk_status czk_engine_wait(czk_engine *e, uint64_t id, czk_groth16_proof *proofs, size_t n)
{
    pthread_mutex_lock(&e->mu);
    job **pp = &e->jobs;
    while (*pp && (*pp)->id != id) pp = &(*pp)->next;
    if (!*pp) {
        pthread_mutex_unlock(&e->mu);
        return czk_error(CZK_ERR_INVALID_ARG, "engine: no job %llu (unknown or already waited)",
                         (unsigned long long)id);
    }
    job *j = *pp;
    while (!j->done) pthread_cond_wait(&e->cv_done, &e->mu);
    /* the list may have changed while waiting */
    pp = &e->jobs;
    while (*pp != j) pp = &(*pp)->next;
    *pp = j->next;
    pthread_mutex_unlock(&e->mu);
    czk_status st;
    if (j->failed) {
        st = czk_error(j->status, "%s", j->msg);
    } else if (n != j->spec.n_partitions) {
        st = czk_error(CZK_ERR_INVALID_ARG, "engine_wait: job %llu has %u partitions, room for %zu",
                       (unsigned long long)id, j->spec.n_partitions, n);
    } else {
        if (proofs) memcpy(proofs, j->proofs, n * sizeof *proofs);
        st = CZK_OK;
    }
    free_job(j);
    return st;
}

/* Unlink and finish every task of j in *list; returns how many. */
static uint32_t drop_tasks_locked(czk_engine *e, task **list, const job *j, size_t *count)
{
    uint32_t n = 0;
    for (task **pp = list; *pp;) {
        task *t = *pp;
        if (t->job == j) {
            *pp = t->next;
            if (count) (*count)--;
            e->events[t->ev].status = j->status;
            czk__engine_task_finished_locked(e, t);
            n++;
        } else {
            pp = &t->next;
        }
    }
    return n;
}

czk_status czk_engine_cancel(czk_engine *e, uint64_t id, int *running)
{
    if (running) *running = 0;
    pthread_mutex_lock(&e->mu);
    job *j = e->jobs;
    while (j && j->id != id) j = j->next;
    if (!j) {
        pthread_mutex_unlock(&e->mu);
        return czk_error(CZK_ERR_NOT_FOUND, "engine: no job %llu", (unsigned long long)id);
    }
    if (j->done || j->failed || j->n_finished == j->spec.n_partitions) {
        pthread_mutex_unlock(&e->mu);
        return CZK_OK;
    }
    j->failed = 1;
    j->status = CZK_ERR_CANCELLED;
    snprintf(j->msg, sizeof j->msg, "job %llu%s%s%s: cancelled", (unsigned long long)j->id,
             j->spec.name ? " (" : "", j->spec.name ? j->spec.name : "", j->spec.name ? ")" : "");
    uint32_t queued = drop_tasks_locked(e, &e->pending, j, NULL);
    drop_tasks_locked(e, &e->ready, j, &e->n_ready);
    /* it had started unless every task was still queued */
    if (running) *running = queued < j->spec.n_partitions;
    pthread_cond_broadcast(&e->cv_synth);
    pthread_cond_broadcast(&e->cv_prove);
    czk_engine_progress snap;
    uint64_t seq = czk__engine_progress_snapshot_locked(e, &snap);
    pthread_mutex_unlock(&e->mu);
    czk__engine_progress_deliver(e, &snap, seq);
    return CZK_OK;
}

czk_status czk_engine_source_keep(czk_engine *e, const czk_witness_source *src)
{
    if (!e || !src) return czk_error(CZK_ERR_INVALID_ARG, "czk_engine_source_keep: NULL");
    kept_source *k = malloc(sizeof *k);
    if (!k) return czk_error(CZK_ERR_NOMEM, "engine: kept source");
    pthread_mutex_lock(&e->mu);
    int have = czk__engine_source_is_own(e, src);
    if (!have) {
        k->src = src;
        k->next = e->kept;
        e->kept = k;
    }
    pthread_mutex_unlock(&e->mu);
    if (have) free(k);
    return CZK_OK;
}

void czk_engine_source_release(czk_engine *e, const czk_witness_source *src)
{
    if (!e || !src) return;
    pthread_mutex_lock(&e->mu);
    for (kept_source **kp = &e->kept; *kp; kp = &(*kp)->next)
        if ((*kp)->src == src) {
            kept_source *k = *kp;
            *kp = k->next;
            free(k);
            break;
        }
    czk__engine_purge_source_locked(e, src);
    pthread_mutex_unlock(&e->mu);
}

void czk_engine_destroy(czk_engine *e)
{
    if (!e) return;
    pthread_mutex_lock(&e->mu);
    e->stopping = 1;
    pthread_cond_broadcast(&e->cv_synth);
    pthread_cond_broadcast(&e->cv_prove);
    pthread_cond_broadcast(&e->cv_asm);
    pthread_mutex_unlock(&e->mu);
    for (int i = 0; i < e->n_synth_started; i++) pthread_join(e->synth_threads[i], NULL);
    /* provers exit once synthesis is drained; wake them */
    pthread_mutex_lock(&e->mu);
    pthread_cond_broadcast(&e->cv_prove);
    pthread_mutex_unlock(&e->mu);
    for (int i = 0; i < e->n_prove_started; i++) pthread_join(e->prove_threads[i], NULL);
    pthread_mutex_lock(&e->mu);
    pthread_cond_broadcast(&e->cv_asm);
    pthread_mutex_unlock(&e->mu);
    if (e->asm_started) pthread_join(e->asm_thread, NULL);
    if (e->trace_path && czk_engine_write_trace(e, e->trace_path) != CZK_OK)
        fprintf(stderr, "czk: engine trace: %s\n", czk_last_error());
    while (e->jobs) {
        job *j = e->jobs;
        e->jobs = j->next;
        free_job(j);
    }
    while (e->refs) {
        res_ref *r = e->refs;
        e->refs = r->next;
        free(r);
    }
    while (e->pool) {
        pooled_wit *pw = e->pool;
        e->pool = pw->next;
        czk__engine_pooled_free(pw);
    }
    while (e->kept) {
        kept_source *k = e->kept;
        e->kept = k->next;
        free(k);
    }
    while (e->own) {
        own_source *o = e->own;
        e->own = o->next;
        czk_witness_source_close(&o->src);
        free(o);
    }
    pthread_mutex_destroy(&e->mu);
    pthread_mutex_destroy(&e->cb_mu);
    pthread_cond_destroy(&e->cv_synth);
    pthread_cond_destroy(&e->cv_prove);
    pthread_cond_destroy(&e->cv_asm);
    pthread_cond_destroy(&e->cv_done);
    free(e->synth_threads);
    free(e->prove_threads);
    free(e->synth_args);
    free(e->prove_args);
    free(e->events);
    free(e->spans);
    free(e->trace_path);
    free(e);
}
