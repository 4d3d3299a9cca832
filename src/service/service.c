/* The proving service (czk/service.h): the job table and job ids,
 * submit / await / cancel, retention (the reaper), creation and shutdown.
 * Each job runs on a thread of its own (run.c). */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>

#include "czk/czk.h"
#include "czk/filecoin.h"
#include "service/service_internal.h"

const char *czk_svc_kind_label(czk_svc_kind k)
{
    switch (k) {
    case CZK_SVC_POREP: return "porep_c2";
    case CZK_SVC_SNAP: return "snap_update";
    case CZK_SVC_WINDOW_POST: return "window_post";
    case CZK_SVC_WINNING_POST: return "winning_post";
    default: return "unspecified";
    }
}

czk_svc_priority czk_svc_default_priority(czk_svc_kind k)
{
    return k == CZK_SVC_WINNING_POST ? CZK_SVC_CRITICAL : k == CZK_SVC_WINDOW_POST ? CZK_SVC_HIGH : CZK_SVC_NORMAL;
}

void czk__svc_log(czk_service *s, czk_log_level lv, const char *job, const char *fmt, ...)
{
    if (!s->o.log || lv > s->o.log_level) return;
    char msg[1536];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    s->o.log(s->o.log_ctx, lv, job, msg);
}


/* ---- jobs ---------------------------------------------------------------------------- */

/* The job with job id `id`. */
static svc_job *find_locked(czk_service *s, const char *id)
{
    for (svc_job *j = s->jobs; j; j = j->next)
        if (!strcmp(j->id, id)) return j;
    return NULL;
}

/* The job of the same request: request_id and content digest equal. */
static svc_job *find_request_locked(czk_service *s, const char *request_id, const uint8_t digest[32])
{
    for (svc_job *j = s->jobs; j; j = j->next)
        if (!strcmp(j->request_id, request_id) && !memcmp(j->digest, digest, 32)) return j;
    return NULL;
}

void czk__svc_job_unref_locked(svc_job *j)
{
    if (--j->refs) return;
    czk__svc_payload_free(&j->pay);
    free(j->proof);
    free(j);
}

static void unlink_locked(czk_service *s, svc_job *j)
{
    for (svc_job **pp = &s->jobs; *pp; pp = &(*pp)->next)
        if (*pp == j) {
            *pp = j->next;
            j->in_table = 0;
            czk__svc_job_unref_locked(j);
            return;
        }
}

/* The job reaches its end (once): counters, histograms, a log line. */
void czk__svc_finish_locked(czk_service *s, svc_job *j, czk_svc_outcome oc, const char *msg)
{
    if (j->state == SVC_DONE) return;
    j->state = SVC_DONE;
    j->outcome = oc;
    j->t_done = czk_now();
    if (msg) snprintf(j->error, sizeof j->error, "%s", msg);
    int k = j->pay.kind;
    if (oc == CZK_SVC_COMPLETED) {
        s->completed++;
        s->completed_by_kind[k]++;
        double tp = j->t_prep > 0 ? j->t_prep : j->t_done, tr = j->t_run > 0 ? j->t_run : tp;
        czk__svc_hist_add(&s->stage[SVC_STAGE_QUEUE][k], tp - j->t_submit);
        czk__svc_hist_add(&s->stage[SVC_STAGE_SRS][k], tr - tp);
        czk__svc_hist_add(&s->stage[SVC_STAGE_SYNTH][k], (double)j->synth_ms / 1e3);
        czk__svc_hist_add(&s->stage[SVC_STAGE_PROVE][k], (double)j->prove_ms / 1e3);
        czk__svc_hist_add(&s->stage[SVC_STAGE_TOTAL][k], j->t_done - j->t_submit);
        czk__svc_log(s, CZK_LOG_INFO, j->id, "completed: %s, %zu-byte proof in %.2f s", j->pay.what, j->proof_len,
                     j->t_done - j->t_submit);
    } else if (oc == CZK_SVC_CANCELLED) {
        s->cancelled++;
        czk__svc_log(s, CZK_LOG_INFO, j->id, "cancelled: %s", j->pay.what);
    } else {
        s->failed++;
        s->failed_by_kind[k]++;
        czk__svc_log(s, CZK_LOG_ERROR, j->id, "failed: %s: %s", j->pay.what, j->error);
    }
    pthread_cond_broadcast(&s->cv);
}

/* ---- the reaper ------------------------------------------------------------------------------ */

static void reap_locked(czk_service *s)
{
    double now = czk_now();
    for (svc_job *j = s->jobs, *next; j; j = next) {
        next = j->next;
        if (j->state == SVC_DONE && now - j->t_done > s->o.retention_s) unlink_locked(s, j);
    }
    for (svc_resident *r = s->res, *next; r; r = next) {
        next = r->next;
        if (!r->refs && !r->loading && now - r->last_used > s->o.eviction_min_idle_s) {
            if (r->loaded)
                czk__svc_log(s, CZK_LOG_INFO, NULL, "evicting %s: idle %.0f s", r->circuit_id, now - r->last_used);
            czk__svc_resident_unlink_locked(s, r);
        }
    }
}

static void *reaper_main(void *arg)
{
    czk_service *s = arg;
    pthread_mutex_lock(&s->mu);
    while (!s->stopped) {
        reap_locked(s);
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        ts.tv_sec += 1;
        pthread_cond_timedwait(&s->cv_reaper, &s->mu, &ts);
    }
    pthread_mutex_unlock(&s->mu);
    return NULL;
}

/* ---- lifecycle ------------------------------------------------------------------------------- */

czk_status czk_service_create(czk_service **out, const czk_service_opts *opts)
{
    *out = NULL;
    czk_service *s = calloc(1, sizeof *s);
    if (!s) return czk_error(CZK_ERR_NOMEM, "service");
    if (opts) s->o = *opts;
    else s->o.log_level = CZK_LOG_INFO;
    if (s->o.retention_s <= 0) s->o.retention_s = 600;
    if (s->o.eviction_min_idle_s <= 0) s->o.eviction_min_idle_s = 300;
    if (!s->o.memory_budget) s->o.memory_budget = czk_engine_default_budget();
    if (s->o.threads <= 0) s->o.threads = czk_threads();
    /* a streamed pass's chunk: small enough that a 32GiB partition's
     * witness, H's vectors and the PCE's largest matrix fit a 24 GiB box's
     * budget beside it; per point, 2M-point MSMs cost about what 8M-point ones do */
    if (!s->o.stream_chunk_bytes) s->o.stream_chunk_bytes = (uint64_t)256 << 20;
    s->param_cache = strdup(s->o.param_cache ? s->o.param_cache : czk_fc_param_cache_dir());
    s->o.param_cache = s->param_cache;
    s->o.log = opts ? opts->log : NULL;
    s->t0 = czk_now();
    czk_engine_opts eo;
    memset(&eo, 0, sizeof eo);
    eo.synth_workers = s->o.synth_workers > 0 ? s->o.synth_workers : (s->o.threads / 2 > 1 ? s->o.threads / 2 : 1);
    eo.synth_threads = s->o.threads;
    eo.prove_threads = s->o.threads;
    eo.batch = s->o.batch;
    eo.queue_depth = s->o.queue_depth;
    eo.batch_timeout_s = s->o.batch_timeout_s;
    eo.memory_budget = s->o.memory_budget;
    eo.lc = CZK_LC_DEFAULT;
    eo.no_verify = s->o.no_verify;
    eo.urgent_priority = s->o.no_critical_lane ? 0 : (int)CZK_SVC_CRITICAL;
    eo.background_nice = s->o.background_nice;
    czk_status st = s->param_cache ? czk_engine_create(&s->engine, &eo) : czk_error(CZK_ERR_NOMEM, "service");
    if (st != CZK_OK) {
        free(s->param_cache);
        free(s);
        return st;
    }
    pthread_mutex_init(&s->mu, NULL);
    pthread_cond_init(&s->cv, NULL);
    pthread_cond_init(&s->cv_reaper, NULL);
    if (pthread_create(&s->reaper, NULL, reaper_main, s) != 0) {
        czk_engine_destroy(s->engine);
        pthread_mutex_destroy(&s->mu);
        pthread_cond_destroy(&s->cv);
        pthread_cond_destroy(&s->cv_reaper);
        free(s->param_cache);
        free(s);
        return czk_error(CZK_ERR_INTERNAL, "service: starting the reaper thread: %s", strerror(errno));
    }
    s->reaper_started = 1;
    char lane[96];
    if (eo.urgent_priority <= 0) snprintf(lane, sizeof lane, "no critical lane");
    else if (eo.background_nice > 0)
        snprintf(lane, sizeof lane, "critical lane (regular workers at nice +%d)", eo.background_nice);
    else snprintf(lane, sizeof lane, "critical lane");
    czk__svc_log(s, CZK_LOG_INFO, NULL,
                 "service up: %d threads, %d synthesis workers, %s, budget %llu bytes, params %s", s->o.threads,
                 eo.synth_workers, lane, (unsigned long long)s->o.memory_budget, s->param_cache);
    *out = s;
    return CZK_OK;
}

/* Cancel a job (the lock held); *was_running: it had started. */
static void cancel_locked(czk_service *s, svc_job *j, int *was_running)
{
    *was_running = 0;
    if (j->state == SVC_DONE) return;
    j->cancel = 1;
    /* preparing counts as running only while the job itself loads (not
     * while it waits for another job's load of the same parameters) */
    *was_running = j->state == SVC_RUNNING || (j->state == SVC_PREPARING && j->loading_self);
    if (j->in_engine) {
        /* queued in the engine behind other work is not running: the
         * engine says whether a partition of it had started. Its lock is
         * never taken before ours elsewhere. */
        int started = 0;
        if (czk_engine_cancel(s->engine, j->engine_id, &started) != CZK_OK) czk_error_clear();
        *was_running = started;
        return; /* the job thread finishes it at the stage boundary */
    }
    czk__svc_finish_locked(s, j, CZK_SVC_CANCELLED, j->state == SVC_PENDING ? "cancelled before it started" : "cancelled");
}

void czk_service_shutdown(czk_service *s, int cancel_running)
{
    if (!s) return;
    pthread_mutex_lock(&s->mu);
    if (!s->stopping) czk__svc_log(s, CZK_LOG_INFO, NULL, "shutting down (%s running jobs)",
                                   cancel_running ? "cancelling" : "finishing");
    s->stopping = 1;
    if (cancel_running)
        for (svc_job *j = s->jobs; j; j = j->next) {
            int was;
            cancel_locked(s, j, &was);
        }
    while (s->threads_live > 0) pthread_cond_wait(&s->cv, &s->mu);
    pthread_mutex_unlock(&s->mu);
}

void czk_service_destroy(czk_service *s)
{
    if (!s) return;
    czk_service_shutdown(s, 1);
    pthread_mutex_lock(&s->mu);
    s->stopped = 1;
    pthread_cond_broadcast(&s->cv_reaper);
    pthread_mutex_unlock(&s->mu);
    if (s->reaper_started) pthread_join(s->reaper, NULL);
    pthread_mutex_lock(&s->mu);
    while (s->jobs) unlink_locked(s, s->jobs);
    pthread_mutex_unlock(&s->mu);
    czk_engine_destroy(s->engine);
    s->engine = NULL;
    while (s->res) czk__svc_resident_unlink_locked(s, s->res);
    pthread_mutex_destroy(&s->mu);
    pthread_cond_destroy(&s->cv);
    pthread_cond_destroy(&s->cv_reaper);
    free(s->param_cache);
    free(s);
}

/* ---- submit / await / cancel ------------------------------------------------------------------ */

static czk_status check_request_id(const char *id)
{
    size_t n = id ? strlen(id) : 0;
    if (n > CZK_SVC_REQUEST_ID_MAX)
        return czk_error(CZK_ERR_INVALID_ARG, "request_id: %zu bytes, at most %d", n, CZK_SVC_REQUEST_ID_MAX);
    for (size_t i = 0; i < n; i++)
        if ((unsigned char)id[i] < 0x20 || id[i] == 0x7f)
            return czk_error(CZK_ERR_INVALID_ARG, "request_id: control character 0x%02x at byte %zu",
                             (unsigned char)id[i], i);
    return CZK_OK;
}

static void uuid4(char out[37])
{
    uint8_t b[16];
    if (getrandom(b, sizeof b, 0) != (ssize_t)sizeof b) {
        uint64_t t = (uint64_t)(czk_now() * 1e9);
        for (int i = 0; i < 16; i++) b[i] = (uint8_t)(t >> (8 * (i % 8))) ^ (uint8_t)(i * 131);
    }
    b[6] = (b[6] & 0x0f) | 0x40;
    b[8] = (b[8] & 0x3f) | 0x80;
    snprintf(out, 37, "%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x", b[0], b[1], b[2], b[3],
             b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15]);
}

static uint32_t queue_position_locked(const czk_service *s, const svc_job *j)
{
    uint32_t n = 0;
    for (const svc_job *x = s->jobs; x; x = x->next)
        if (x != j && x->state != SVC_DONE && x->priority >= j->priority && x->t_submit <= j->t_submit) n++;
    return n;
}

/* The existing job of the same request (id and content) to attach to: one
 * not finished, or completed (its result); a failed or cancelled one is
 * replaced by a new job. */
static int attach_locked(czk_service *s, const char *request_id, const uint8_t digest[32], czk_svc_submitted *out)
{
    svc_job *j = find_request_locked(s, request_id, digest);
    if (!j) return 0;
    if (j->state == SVC_DONE && j->outcome != CZK_SVC_COMPLETED) {
        unlink_locked(s, j);
        return 0;
    }
    snprintf(out->job_id, sizeof out->job_id, "%s", j->id);
    out->queue_position = j->state == SVC_PENDING || j->state == SVC_PREPARING ? queue_position_locked(s, j) : 0;
    out->attached = 1;
    return 1;
}

/* A job id no job in the table holds: the request_id itself, else the
 * request_id, "~" and 16 hex digits of the digest (another request under
 * the same id), else that with "-2", "-3" ... (an id chosen by a client to
 * look like ours). */
static void job_id_locked(czk_service *s, char out[CZK_SVC_ID_MAX], const char *request_id, const uint8_t digest[32])
{
    snprintf(out, CZK_SVC_ID_MAX, "%s", request_id);
    if (!find_locked(s, out)) return;
    char base[CZK_SVC_REQUEST_ID_MAX + 1 + 16 + 1];
    snprintf(base, sizeof base, "%s~%02x%02x%02x%02x%02x%02x%02x%02x", request_id, digest[0], digest[1], digest[2],
             digest[3], digest[4], digest[5], digest[6], digest[7]);
    snprintf(out, CZK_SVC_ID_MAX, "%s", base);
    for (unsigned k = 2; find_locked(s, out); k++) snprintf(out, CZK_SVC_ID_MAX, "%s-%u", base, k);
}

czk_status czk_service_submit(czk_service *s, const czk_svc_request *r, czk_svc_submitted *out)
{
    memset(out, 0, sizeof *out);
    if (!s || !r) return czk_error(CZK_ERR_INVALID_ARG, "submit: service and request are required");
    CZK_TRY(check_request_id(r->request_id));
    int named = r->request_id && *r->request_id;
    uint8_t digest[32];
    czk__svc_request_digest(digest, r);
    pthread_mutex_lock(&s->mu);
    if (s->stopping) {
        pthread_mutex_unlock(&s->mu);
        return czk_error(CZK_ERR_UNAVAILABLE, "the service is shutting down");
    }
    int attached = named && attach_locked(s, r->request_id, digest, out);
    pthread_mutex_unlock(&s->mu);
    if (attached) return CZK_OK;

    svc_job *j = calloc(1, sizeof *j);
    if (!j) return czk_error(CZK_ERR_NOMEM, "job");
    j->t_submit = czk_now();
    czk_status st = czk__svc_payload_decode(&j->pay, r);
    if (st != CZK_OK) {
        free(j);
        return st;
    }
    j->svc = s;
    j->priority = r->priority >= CZK_SVC_LOW && r->priority <= CZK_SVC_CRITICAL ? (int)r->priority
                                                                              : (int)czk_svc_default_priority(r->kind);
    memcpy(j->digest, digest, sizeof digest);
    if (named) snprintf(j->request_id, sizeof j->request_id, "%s", r->request_id);
    /* a job that cannot fit even alone with its parameters streamed: one
     * partition's witness (PCE: input and aux alone) and the streamed
     * prover's vectors and chunk */
    czk_cs_sizes z;
    if (j->pay.pk->circuit->sizes(&z, j->pay.data, 0) == CZK_OK) {
        uint64_t w = czk_witness_cs_bytes(&z), lean = ((uint64_t)z.n_inputs + z.n_aux) * sizeof(czk_fr);
        uint64_t ps = czk_groth16_prove_stream_bytes(&z, s->o.stream_chunk_bytes, s->o.threads);
        j->task_bytes = w + czk_groth16_prove_bytes(&z, NULL, s->o.threads, s->o.batch);
        uint64_t need = (s->o.pce != CZK_PCE_MODE_OFF ? lean : w) + ps;
        if (need > s->o.memory_budget) {
            czk__svc_payload_free(&j->pay);
            free(j);
            return czk_error(CZK_ERR_NOMEM,
                             "the job needs at least %.2f GB even with its parameters streamed from disk (one "
                             "partition's witness %.2f GB, the streamed prover's vectors and chunk %.2f GB), more than "
                             "the memory budget of %.2f GB: raise [memory] total_budget (--memory) to at least "
                             "%llu bytes",
                             (double)need / 1e9, (double)(need - ps) / 1e9, (double)ps / 1e9,
                             (double)s->o.memory_budget / 1e9, (unsigned long long)need);
        }
    }
    czk_error_clear();
    pthread_mutex_lock(&s->mu);
    if (s->stopping || (named && attach_locked(s, r->request_id, digest, out))) {
        int stopping = s->stopping;
        pthread_mutex_unlock(&s->mu);
        czk__svc_payload_free(&j->pay);
        free(j);
        return stopping ? czk_error(CZK_ERR_UNAVAILABLE, "the service is shutting down") : CZK_OK;
    }
    if (named) job_id_locked(s, j->id, r->request_id, digest);
    else uuid4(j->id);
    j->refs = 2; /* the table, the thread */
    j->in_table = 1;
    j->next = s->jobs;
    s->jobs = j;
    s->threads_live++;
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
    pthread_t th;
    int rc = pthread_create(&th, &attr, czk__svc_job_main, j);
    pthread_attr_destroy(&attr);
    if (rc != 0) {
        s->threads_live--;
        j->refs--;
        unlink_locked(s, j);
        pthread_mutex_unlock(&s->mu);
        return czk_error(CZK_ERR_NOMEM, "job thread: %s", strerror(rc));
    }
    snprintf(out->job_id, sizeof out->job_id, "%s", j->id);
    out->queue_position = queue_position_locked(s, j);
    if (named && strcmp(j->id, j->request_id))
        czk__svc_log(s, CZK_LOG_INFO, j->id,
                     "request_id '%s' names another request too (other content): this one is job '%s'",
                     j->request_id, j->id);
    czk__svc_log(s, CZK_LOG_INFO, j->id, "queued: %s, priority %d, %u partition%s", j->pay.what, j->priority,
                 j->pay.partitions, j->pay.partitions == 1 ? "" : "s");
    pthread_mutex_unlock(&s->mu);
    return CZK_OK;
}

void czk_svc_result_clear(czk_svc_result *r)
{
    if (!r) return;
    free(r->proof);
    r->proof = NULL;
    r->proof_len = 0;
}

static void fill_result_locked(const svc_job *j, czk_svc_result *out)
{
    snprintf(out->job_id, sizeof out->job_id, "%s", j->id);
    out->status = j->state == SVC_DONE ? j->outcome : CZK_SVC_TIMEOUT;
    double now = czk_now(), end = j->state == SVC_DONE ? j->t_done : now;
    double tp = j->t_prep > 0 ? j->t_prep : end, tr = j->t_run > 0 ? j->t_run : (j->t_prep > 0 ? end : tp);
    out->queue_wait_ms = (uint64_t)czk__svc_ms_between(j->t_submit, tp);
    out->srs_load_ms = (uint64_t)czk__svc_ms_between(tp, tr);
    out->synthesis_ms = j->synth_ms;
    out->prove_ms = j->prove_ms;
    out->total_ms = (uint64_t)czk__svc_ms_between(j->t_submit, end);
    if (j->state == SVC_DONE && j->outcome != CZK_SVC_COMPLETED) snprintf(out->error, sizeof out->error, "%s", j->error);
    if (j->state == SVC_DONE && j->outcome == CZK_SVC_COMPLETED && j->proof) {
        out->proof = malloc(j->proof_len);
        if (out->proof) {
            memcpy(out->proof, j->proof, j->proof_len);
            out->proof_len = j->proof_len;
        } else {
            out->status = CZK_SVC_FAILED;
            snprintf(out->error, sizeof out->error, "out of memory copying the proof");
        }
    }
}

czk_status czk_service_await(czk_service *s, const char *job_id, int64_t timeout_ms, czk_svc_result *out)
{
    memset(out, 0, sizeof *out);
    if (!s || !job_id) return czk_error(CZK_ERR_INVALID_ARG, "await: service and job id are required");
    pthread_mutex_lock(&s->mu);
    svc_job *j = find_locked(s, job_id);
    if (!j) {
        pthread_mutex_unlock(&s->mu);
        return czk_error(CZK_ERR_NOT_FOUND, "no job '%s' (never submitted, or its result expired)", job_id);
    }
    j->refs++;
    struct timespec dl;
    clock_gettime(CLOCK_REALTIME, &dl);
    if (timeout_ms > 0) {
        long long ns = dl.tv_nsec + (timeout_ms % 1000) * 1000000LL;
        dl.tv_sec += (time_t)(timeout_ms / 1000) + (time_t)(ns / 1000000000LL);
        dl.tv_nsec = (long)(ns % 1000000000LL);
    }
    while (j->state != SVC_DONE && timeout_ms != 0) {
        if (timeout_ms < 0) {
            pthread_cond_wait(&s->cv, &s->mu);
        } else if (pthread_cond_timedwait(&s->cv, &s->mu, &dl) == ETIMEDOUT) {
            break;
        }
    }
    fill_result_locked(j, out);
    czk__svc_job_unref_locked(j);
    pthread_mutex_unlock(&s->mu);
    return CZK_OK;
}

czk_status czk_service_cancel(czk_service *s, const char *job_id, int *was_running)
{
    int dummy;
    if (!was_running) was_running = &dummy;
    *was_running = 0;
    if (!s || !job_id) return czk_error(CZK_ERR_INVALID_ARG, "cancel: service and job id are required");
    pthread_mutex_lock(&s->mu);
    svc_job *j = find_locked(s, job_id);
    if (!j) {
        pthread_mutex_unlock(&s->mu);
        return czk_error(CZK_ERR_NOT_FOUND, "no job '%s' (never submitted, or its result expired)", job_id);
    }
    cancel_locked(s, j, was_running);
    pthread_mutex_unlock(&s->mu);
    return CZK_OK;
}

int czk_service_grpc_code(czk_status st)
{
    /* google.rpc.Code: OK 0, CANCELLED 1, INVALID_ARGUMENT 3, NOT_FOUND 5,
     * RESOURCE_EXHAUSTED 8, FAILED_PRECONDITION 9, INTERNAL 13, UNAVAILABLE 14 */
    switch (st) {
    case CZK_OK: return 0;
    case CZK_ERR_CANCELLED: return 1;
    case CZK_ERR_INVALID_ARG:
    case CZK_ERR_FORMAT:
    case CZK_ERR_NOT_CANONICAL:
    case CZK_ERR_NOT_ON_CURVE:
    case CZK_ERR_NOT_IN_SUBGROUP:
    case CZK_ERR_IDENTITY:
    case CZK_ERR_UNSATISFIED:
    case CZK_ERR_VERIFY:
    case CZK_ERR_UNSUPPORTED: return 3;
    case CZK_ERR_NOT_FOUND: return 5;
    case CZK_ERR_NOMEM: return 8;
    case CZK_ERR_BUSY: return 9;
    case CZK_ERR_UNAVAILABLE: return 14;
    default: return 13;
    }
}
