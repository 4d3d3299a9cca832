/* Running a service job: the parameter sets kept resident (loaded into
 * memory or streamed from disk, shared by the jobs of one circuit with
 * their witness source, evicted least recently used), the job thread that
 * acquires them and drives the engine, and preload / evict. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cs/cs_internal.h"
#include "czk/czk.h"
#include "service/service_internal.h"

/* ---- residency ------------------------------------------------------------------------- */

static uint64_t resident_bytes_locked(const czk_service *s)
{
    uint64_t b = 0;
    for (const svc_resident *r = s->res; r; r = r->next) b += r->bytes + r->src_bytes;
    return b;
}

static void resident_drop(czk_service *s, svc_resident *r)
{
    if (r->have_src) {
        /* its pooled witness buffers first (the engine outlives no resident but may be gone at shutdown) */
        if (s->engine) czk_engine_source_release(s->engine, &r->src);
        czk_witness_source_close(&r->src);
    }
    if (r->loaded) czk_groth16_params_clear(&r->params);
    r->have_src = r->loaded = r->streamed = 0;
    r->bytes = r->src_bytes = 0;
}

void czk__svc_resident_unlink_locked(czk_service *s, svc_resident *r)
{
    for (svc_resident **pp = &s->res; *pp; pp = &(*pp)->next)
        if (*pp == r) {
            *pp = r->next;
            break;
        }
    resident_drop(s, r);
    free(r);
}

/* Drop idle resident sets, least recently used first, until `need` more
 * bytes fit in the budget beside what stays. */
static void make_room_locked(czk_service *s, uint64_t need, const svc_resident *keep)
{
    uint64_t budget = s->o.memory_budget;
    for (;;) {
        czk_engine_progress p;
        czk_engine_progress_get(s->engine, &p);
        if (resident_bytes_locked(s) + need + p.memory_used <= budget) return;
        svc_resident *lru = NULL;
        for (svc_resident *r = s->res; r; r = r->next)
            if (r != keep && !r->refs && !r->loading && r->loaded && (!lru || r->last_used < lru->last_used)) lru = r;
        if (!lru) return; /* the engine's budget decides the rest */
        czk__svc_log(s, CZK_LOG_INFO, NULL, "evicting %s (%llu bytes, idle %.0f s) to make room", lru->circuit_id,
                     (unsigned long long)(lru->bytes + lru->src_bytes), czk_now() - lru->last_used);
        czk__svc_resident_unlink_locked(s, lru);
    }
}

static svc_resident *resident_get_locked(czk_service *s, const char *path, const char *circuit_id)
{
    for (svc_resident *r = s->res; r; r = r->next)
        if (!strcmp(r->path, path)) return r;
    svc_resident *r = calloc(1, sizeof *r);
    if (!r) return NULL;
    snprintf(r->path, sizeof r->path, "%s", path);
    snprintf(r->circuit_id, sizeof r->circuit_id, "%s", circuit_id && *circuit_id ? circuit_id : "custom");
    r->last_used = czk_now();
    r->next = s->res;
    s->res = r;
    return r;
}

static uint64_t file_size(const char *path)
{
    struct stat sb;
    return stat(path, &sb) == 0 ? (uint64_t)sb.st_size : 0;
}

/* The file's size and mtime (ns); 0 when it cannot be stat'ed. */
static int file_stamp(const char *path, uint64_t *size, int64_t *mtime_ns)
{
    struct stat sb;
    if (stat(path, &sb) != 0) return 0;
    *size = (uint64_t)sb.st_size;
    *mtime_ns = (int64_t)sb.st_mtim.tv_sec * 1000000000 + sb.st_mtim.tv_nsec;
    return 1;
}

/* Bytes parameters with p's counts hold when read into memory. */
static uint64_t resident_params_bytes(const czk_groth16_params *p)
{
    return sizeof *p + p->vk.n_ic * sizeof(czk_g1_affine) +
           (p->n_h + p->n_l + p->n_a + p->n_b_g1) * sizeof(czk_g1_affine) + p->n_b_g2 * sizeof(czk_g2_affine);
}

/* Load r's parameters (the caller set r->loading and holds a reference),
 * called without the lock: read into memory when they fit the budget beside
 * the other resident sets and `task` bytes (one partition's witness and
 * prover scratch; 0: a preload, which keeps a quarter of the budget for
 * them), else opened as streamed parameters (the file stays on disk and
 * each prover pass reads it: the page cache is their WARM tier). */
static czk_status resident_load(czk_service *s, svc_resident *r, uint64_t task)
{
    czk_groth16_check check = s->o.params_check_set ? s->o.params_check : CZK_GROTH16_CHECK_DEFAULT;
    double t0 = czk_now();
    czk_groth16_params head;
    czk_status st = czk_groth16_params_open_streamed(&head, r->path, check, s->o.stream_chunk_bytes, s->o.threads);
    if (st != CZK_OK) return czk_error_context(st, "parameters %s", r->path);
    uint64_t need = resident_params_bytes(&head);
    pthread_mutex_lock(&s->mu);
    uint64_t others = 0;
    for (const svc_resident *x = s->res; x; x = x->next)
        if (x != r) others += x->bytes + x->src_bytes;
    pthread_mutex_unlock(&s->mu);
    uint64_t budget = s->o.memory_budget, room = budget > others ? budget - others : 0;
    uint64_t keep = task ? task : budget / 4;
    int stream = s->o.stream_params == 1 || (s->o.stream_params == 0 && need + keep > room);
    if (stream) {
        r->params = head;
        r->streamed = 1;
        czk__svc_log(s, CZK_LOG_INFO, NULL,
                     "%s: parameters streamed from %s (%.1f GB; in memory they would take %.1f GB, the budget "
                     "leaves %.1f GB beside a partition's %.1f GB): each prover pass reads them, %s",
                     r->circuit_id, r->path, (double)file_size(r->path) / 1e9, (double)need / 1e9,
                     (double)room / 1e9, (double)keep / 1e9,
                     check == CZK_GROTH16_CHECK_PINNED ? "its checksum compared with the sidecar"
                                                        : czk_groth16_check_name(check));
        return CZK_OK;
    }
    czk_groth16_params_clear(&head);
    czk_groth16_read_info info;
    czk_groth16_read_opts ro;
    memset(&ro, 0, sizeof ro);
    ro.check = check;
    ro.threads = s->o.threads;
    st = czk_groth16_params_read_ex(&r->params, r->path, &ro, &info);
    if (st != CZK_OK) return czk_error_context(st, "parameters %s", r->path);
    r->streamed = 0;
    char desc[600];
    czk_groth16_read_info_describe(desc, sizeof desc, &info);
    czk__svc_log(s, CZK_LOG_INFO, NULL, "loaded %s from %s in %.2f s (%s)", r->circuit_id, r->path, czk_now() - t0,
                 desc);
    return CZK_OK;
}

/* The least memory budget a job of data needs with src (the engine's own
 * estimate: its largest task, the parameters, the source's shared data). */
static uint64_t job_need(const czk_service *s, const czk_proof_kind *pk, const void *data,
                         const czk_groth16_params *params, const czk_witness_source *src)
{
    czk_engine_job ej;
    czk_kind_engine_job(&ej, pk, data, params, src, NULL, pk->partitions(data), 0, "budget");
    czk_engine_opts eo;
    memset(&eo, 0, sizeof eo);
    eo.prove_threads = s->o.threads;
    eo.batch = s->o.batch;
    uint64_t need = 0;
    if (czk_engine_job_min_budget(&need, &ej, &eo) != CZK_OK) {
        czk_error_clear();
        return 0;
    }
    return need;
}

/* A PCE source whose matrices do not fit in the budget beside a task and
 * the parameters (a 32GiB WindowPoSt partition: 7.6 GB of matrices beside
 * a 17 GB task on a 24 GiB machine) is closed and the job synthesizes
 * without it (the parallel prover) where that fits: slower synthesis
 * instead of a refused job. */
static czk_status source_fit(czk_service *s, const czk_proof_kind *pk, const void *data,
                             const czk_groth16_params *params, czk_witness_source *src, czk_source_opts *so,
                             czk_status st, const char *circuit_id)
{
    if (st != CZK_OK || so->pce == CZK_PCE_MODE_OFF || !src->shared_bytes) return st;
    const uint64_t need = job_need(s, pk, data, params, src);
    if (need <= s->o.memory_budget) return CZK_OK;
    czk_source_opts po = *so;
    po.pce = CZK_PCE_MODE_OFF;
    po.parallel = 1;
    czk_witness_source par;
    if (czk_kind_source_open(&par, pk, data, &po) != CZK_OK) {
        czk_error_clear();
        return CZK_OK; /* the engine's refusal will say what does not fit */
    }
    const uint64_t need_par = job_need(s, pk, data, params, &par);
    if (need_par > s->o.memory_budget) {
        czk_witness_source_close(&par);
        return CZK_OK;
    }
    czk__svc_log(s, CZK_LOG_WARN, NULL,
                 "%s: with its PCE matrices (%.2f GB) a job needs %.2f GB, more than the memory budget (%.2f GB): "
                 "synthesizing without them (the parallel prover, %.2f GB)",
                 circuit_id, (double)src->shared_bytes / 1e9, (double)need / 1e9, (double)s->o.memory_budget / 1e9,
                 (double)need_par / 1e9);
    czk_witness_source_close(src);
    *src = par;
    *so = po;
    return CZK_OK;
}

/* Take a reference on the resident set at path with its parameters loaded
 * and (data != NULL) its witness source open, loading what is missing;
 * task: one partition's bytes (0 for a preload). A set whose file changed
 * since it was loaded (size or mtime) is loaded again once no job holds it. */
static czk_status resident_acquire(czk_service *s, svc_resident **out, const char *path, const char *circuit_id,
                                   const czk_proof_kind *pk, const void *data, svc_job *j, uint64_t task)
{
    *out = NULL;
    pthread_mutex_lock(&s->mu);
    svc_resident *r = resident_get_locked(s, path, circuit_id);
    if (!r) {
        pthread_mutex_unlock(&s->mu);
        return czk_error(CZK_ERR_NOMEM, "resident entry");
    }
    uint64_t fsz;
    int64_t fmt;
    if (r->loaded && !r->refs && !r->loading && file_stamp(path, &fsz, &fmt) &&
        (fsz != r->file_size || fmt != r->file_mtime_ns)) {
        czk__svc_log(s, CZK_LOG_WARN, NULL, "%s: %s changed since it was loaded (size %llu -> %llu): loading it again",
                     r->circuit_id, path, (unsigned long long)r->file_size, (unsigned long long)fsz);
        resident_drop(s, r);
    }
    r->refs++;
    czk_status st = CZK_OK;
    for (;;) {
        if (r->loading) {
            pthread_cond_wait(&s->cv, &s->mu);
            continue;
        }
        if (!r->loaded) {
            r->loading = 1;
            if (j) j->loading_self = 1;
            make_room_locked(s, file_size(path), r);
            pthread_mutex_unlock(&s->mu);
            uint64_t size0 = 0;
            int64_t mtime0 = 0;
            (void)file_stamp(path, &size0, &mtime0);
            st = resident_load(s, r, task);
            pthread_mutex_lock(&s->mu);
            r->loading = 0;
            if (j) j->loading_self = 0;
            pthread_cond_broadcast(&s->cv);
            if (st != CZK_OK) break;
            r->loaded = 1;
            r->file_size = size0;
            r->file_mtime_ns = mtime0;
            r->bytes = czk_engine_params_bytes(&r->params);
            continue;
        }
        if (data && !r->have_src) {
            r->loading = 1;
            if (j) j->loading_self = 1;
            pthread_mutex_unlock(&s->mu);
            czk_source_opts so;
            memset(&so, 0, sizeof so);
            so.pce = s->o.pce;
            so.lc = CZK_LC_DEFAULT;
            czk_witness_source src;
            st = czk_kind_source_open(&src, pk, data, &so);
            st = source_fit(s, pk, data, &r->params, &src, &so, st, r->circuit_id);
            pthread_mutex_lock(&s->mu);
            r->loading = 0;
            if (j) j->loading_self = 0;
            pthread_cond_broadcast(&s->cv);
            if (st != CZK_OK) {
                st = czk_error_context(st, "witness source of %s", r->circuit_id);
                break;
            }
            r->src = src;
            r->have_src = 1;
            r->src_bytes = src.shared_bytes;
            /* the partition buffers of its witness instances stay pooled between jobs */
            if (czk_engine_source_keep(s->engine, &r->src) != CZK_OK) czk_error_clear();
            czk__svc_log(s, CZK_LOG_INFO, NULL, "%s: witness source '%s' open (%llu shared bytes)", r->circuit_id,
                         src.ops->name, (unsigned long long)src.shared_bytes);
        }
        break;
    }
    if (st != CZK_OK) {
        r->refs--;
        pthread_mutex_unlock(&s->mu);
        return st;
    }
    pthread_mutex_unlock(&s->mu);
    *out = r;
    return CZK_OK;
}

static void resident_release(czk_service *s, svc_resident *r)
{
    pthread_mutex_lock(&s->mu);
    r->refs--;
    r->last_used = czk_now();
    pthread_cond_broadcast(&s->cv);
    pthread_mutex_unlock(&s->mu);
}

/* ---- the job thread ---------------------------------------------------------------------- */

/* Synthesis and prover time of engine job eid, from the engine's timeline
 * (a batched pass is counted once). */
static void job_times(czk_service *s, svc_job *j, uint64_t eid)
{
    czk_engine_event *ev = NULL;
    size_t n = 0;
    czk_status st = czk_engine_job_events(s->engine, eid, &ev, &n);
    czk_engine_forget(s->engine, eid); /* the daemon's timeline holds live work only */
    if (st != CZK_OK) {
        czk_error_clear();
        return;
    }
    double synth = 0, prove = 0, last_pass = -1;
    for (size_t i = 0; i < n; i++) {
        if (ev[i].synth_start >= 0 && ev[i].synth_end >= ev[i].synth_start) synth += ev[i].synth_end - ev[i].synth_start;
        if (ev[i].prove_start >= 0 && ev[i].prove_end >= ev[i].prove_start && ev[i].prove_start != last_pass) {
            prove += ev[i].prove_end - ev[i].prove_start;
            last_pass = ev[i].prove_start;
        }
    }
    free(ev);
    pthread_mutex_lock(&s->mu); /* waiters read them under the lock */
    j->synth_ms = (uint64_t)(synth * 1e3);
    j->prove_ms = (uint64_t)(prove * 1e3);
    pthread_mutex_unlock(&s->mu);
}

/* Prepare and run one job; `msg` receives why it failed. */
static czk_svc_outcome job_run(czk_service *s, svc_job *j, char *msg, size_t cap)
{
    const czk_proof_kind *pk = j->pay.pk;
    char path[1024];
    czk_status st = czk_kind_param_path(path, sizeof path, pk, s->param_cache, j->pay.data, ".params");
    if (st != CZK_OK) {
        snprintf(msg, cap, "no parameter file for %s: %s", j->pay.what, czk_last_error());
        return CZK_SVC_FAILED;
    }
    svc_resident *r;
    st = resident_acquire(s, &r, path, j->pay.circuit_id, pk, j->pay.data, j, j->task_bytes);
    if (st != CZK_OK) {
        snprintf(msg, cap, "%s", czk_last_error());
        return CZK_SVC_FAILED;
    }
    pthread_mutex_lock(&s->mu);
    int cancelled = j->cancel; /* while it prepared: finished as CANCELLED already */
    pthread_mutex_unlock(&s->mu);
    if (cancelled) {
        resident_release(s, r);
        snprintf(msg, cap, "cancelled");
        return CZK_SVC_CANCELLED;
    }
    uint32_t np = j->pay.partitions;
    czk_groth16_proof *proofs = calloc(np, sizeof *proofs);
    uint8_t *bytes = malloc((size_t)np * CZK_GROTH16_PROOF_BYTES);
    if (!proofs || !bytes) {
        free(proofs);
        free(bytes);
        resident_release(s, r);
        snprintf(msg, cap, "out of memory for %u proofs", np);
        return CZK_SVC_FAILED;
    }
    czk_engine_job ej;
    czk_kind_engine_job(&ej, pk, j->pay.data, &r->params, &r->src, NULL, np, j->priority, j->id);
    uint64_t eid = 0;
    st = czk_engine_submit(s->engine, &eid, &ej);
    czk_svc_outcome oc = CZK_SVC_COMPLETED;
    if (st != CZK_OK) {
        snprintf(msg, cap, "%s", czk_last_error());
        oc = CZK_SVC_FAILED;
    } else {
        pthread_mutex_lock(&s->mu);
        j->engine_id = eid;
        j->in_engine = 1;
        if (j->state != SVC_DONE) j->state = SVC_RUNNING;
        j->t_run = czk_now();
        int cancel = j->cancel;
        pthread_mutex_unlock(&s->mu);
        if (cancel && czk_engine_cancel(s->engine, eid, NULL) != CZK_OK) czk_error_clear();
        st = czk_engine_wait(s->engine, eid, proofs, np);
        if (st == CZK_ERR_CANCELLED) {
            snprintf(msg, cap, "cancelled");
            oc = CZK_SVC_CANCELLED;
        } else if (st != CZK_OK) {
            snprintf(msg, cap, "%s", czk_last_error());
            oc = CZK_SVC_FAILED;
        }
        job_times(s, j, eid);
    }
    resident_release(s, r);
    pthread_mutex_lock(&s->mu);
    j->in_engine = 0;
    if (oc == CZK_SVC_COMPLETED) {
        for (uint32_t i = 0; i < np; i++) czk_groth16_proof_encode(bytes + (size_t)i * CZK_GROTH16_PROOF_BYTES, &proofs[i]);
        j->proof = bytes;
        j->proof_len = (size_t)np * CZK_GROTH16_PROOF_BYTES;
        bytes = NULL;
    }
    pthread_mutex_unlock(&s->mu);
    free(bytes);
    free(proofs);
    return oc;
}

void *czk__svc_job_main(void *arg)
{
    svc_job *j = arg;
    czk_service *s = j->svc;
    pthread_mutex_lock(&s->mu);
    if (j->state == SVC_PENDING) {
        j->state = SVC_PREPARING;
        j->t_prep = czk_now();
        pthread_mutex_unlock(&s->mu);
        char msg[1024] = "";
        czk_svc_outcome oc = job_run(s, j, msg, sizeof msg);
        pthread_mutex_lock(&s->mu);
        /* a cancel that came after every partition was proven changes
         * nothing: a finished job is left as it is */
        int cancelled = j->cancel && oc != CZK_SVC_COMPLETED;
        czk__svc_finish_locked(s, j, cancelled ? CZK_SVC_CANCELLED : oc, cancelled ? "cancelled" : msg);
    }
    czk__svc_job_unref_locked(j);
    s->threads_live--;
    pthread_cond_broadcast(&s->cv);
    pthread_mutex_unlock(&s->mu);
    czk_lc_pool_trim();
    return NULL;
}

/* ---- preload / evict -------------------------------------------------------------------------- */

static czk_status circuit_path(char *path, size_t cap, czk_service *s, const char *circuit_id, const svc_circuit **c)
{
    *c = czk__svc_circuit_find(circuit_id);
    if (!*c) {
        size_t n;
        const svc_circuit *all = czk__svc_circuits(&n);
        char list[512] = "";
        for (size_t i = 0; i < n; i++) {
            size_t l = strlen(list);
            snprintf(list + l, sizeof list - l, "%s%s", i ? ", " : "", all[i].id);
        }
        return czk_error(CZK_ERR_INVALID_ARG, "circuit id '%s': not one of %s", circuit_id ? circuit_id : "", list);
    }
    return czk__svc_circuit_path(path, cap, s->param_cache, *c);
}

czk_status czk_service_preload(czk_service *s, const char *circuit_id, int *already, uint64_t *ms)
{
    if (already) *already = 0;
    if (ms) *ms = 0;
    pthread_mutex_lock(&s->mu);
    int stopping = s->stopping;
    pthread_mutex_unlock(&s->mu);
    if (stopping) return czk_error(CZK_ERR_UNAVAILABLE, "shutting down: no new parameter loads");
    char path[1024];
    const svc_circuit *c;
    CZK_TRY(circuit_path(path, sizeof path, s, circuit_id, &c));
    pthread_mutex_lock(&s->mu);
    int was = 0;
    for (svc_resident *r = s->res; r; r = r->next)
        if (!strcmp(r->path, path) && r->loaded) was = 1;
    pthread_mutex_unlock(&s->mu);
    double t0 = czk_now();
    svc_resident *r;
    CZK_TRY(resident_acquire(s, &r, path, c->id, NULL, NULL, NULL, 0));
    resident_release(s, r);
    if (already) *already = was;
    if (ms) *ms = (uint64_t)czk__svc_ms_between(t0, czk_now());
    return CZK_OK;
}

czk_status czk_service_evict(czk_service *s, const char *circuit_id, int *was_loaded, uint64_t *freed)
{
    if (was_loaded) *was_loaded = 0;
    if (freed) *freed = 0;
    char path[1024];
    const svc_circuit *c;
    CZK_TRY(circuit_path(path, sizeof path, s, circuit_id, &c));
    pthread_mutex_lock(&s->mu);
    for (svc_resident *r = s->res; r; r = r->next) {
        if (strcmp(r->path, path)) continue;
        if (r->refs || r->loading) {
            uint32_t n = r->refs;
            pthread_mutex_unlock(&s->mu);
            return czk_error(CZK_ERR_BUSY, "%s is in use by %u job%s: evict it when they are done", circuit_id, n,
                             n == 1 ? "" : "s");
        }
        if (was_loaded) *was_loaded = r->loaded;
        if (freed) *freed = r->bytes + r->src_bytes;
        czk__svc_log(s, CZK_LOG_INFO, NULL, "evicting %s on request (%llu bytes)", circuit_id,
                     (unsigned long long)(r->bytes + r->src_bytes));
        czk__svc_resident_unlink_locked(s, r);
        break;
    }
    pthread_mutex_unlock(&s->mu);
    return CZK_OK;
}
