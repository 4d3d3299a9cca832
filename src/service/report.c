/* The proving service's reports (czk/service.h): the GetStatus snapshot,
 * GET /status JSON (cuzk's fields plus budget and residency) and the
 * Prometheus text of GetMetrics and GET /metrics. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <jansson.h>

#include "czk/czk.h"
#include "service/service_internal.h"

const double czk__svc_hist_bounds[SVC_HIST_BUCKETS] = {0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 900};
const char *const czk__svc_stage_names[SVC_N_STAGES] = {"queue", "srs_load", "synthesis", "prove", "total"};

void czk__svc_hist_add(svc_hist *h, double s)
{
    if (s < 0) s = 0;
    size_t b = 0;
    while (b < SVC_HIST_BUCKETS && s > czk__svc_hist_bounds[b]) b++;
    h->count[b]++;
    h->n++;
    h->sum += s;
}

static const czk_svc_kind wire_kinds[CZK_SVC_N_KINDS - 1] = {CZK_SVC_POREP, CZK_SVC_SNAP, CZK_SVC_WINDOW_POST,
                                                             CZK_SVC_WINNING_POST};

/* ---- the snapshot ------------------------------------------------------------------------ */

static uint64_t stat_size(const char *path, int *exists)
{
    struct stat sb;
    *exists = stat(path, &sb) == 0;
    return *exists ? (uint64_t)sb.st_size : 0;
}

czk_status czk_service_status(czk_service *s, czk_svc_status *out)
{
    memset(out, 0, sizeof *out);
    size_t nc;
    const svc_circuit *cs = czk__svc_circuits(&nc);
    pthread_mutex_lock(&s->mu);
    size_t nres = 0;
    for (svc_resident *r = s->res; r; r = r->next) nres++;
    out->srs = calloc(nc + nres + 1, sizeof *out->srs);
    if (!out->srs) {
        pthread_mutex_unlock(&s->mu);
        return czk_error(CZK_ERR_NOMEM, "status");
    }
    for (size_t i = 0; i < CZK_SVC_N_KINDS - 1; i++) out->queues[i].kind = wire_kinds[i];
    for (svc_job *j = s->jobs; j; j = j->next) {
        if (j->state == SVC_DONE || j->pay.kind < 1 || j->pay.kind >= CZK_SVC_N_KINDS) continue;
        czk_svc_queue *q = NULL;
        for (size_t i = 0; i < CZK_SVC_N_KINDS - 1; i++)
            if (out->queues[i].kind == j->pay.kind) q = &out->queues[i];
        if (j->state == SVC_RUNNING) q->in_progress++, out->running_jobs++;
        else q->pending++;
    }
    double now = czk_now();
    /* resident sets first, then the known circuits' files on disk */
    for (svc_resident *r = s->res; r; r = r->next) {
        if (!r->loaded) continue;
        czk_svc_srs *e = &out->srs[out->n_srs++];
        snprintf(e->circuit_id, sizeof e->circuit_id, "%s", r->circuit_id);
        /* streamed: served from the file through the page cache */
        e->tier = r->streamed ? CZK_SVC_WARM : CZK_SVC_HOT;
        e->size_bytes = r->streamed ? r->file_size : r->bytes;
        e->pce_bytes = r->src_bytes;
        e->ref_count = r->refs;
        e->idle_s = r->refs ? 0 : now - r->last_used;
        out->resident_bytes += r->bytes + r->src_bytes;
    }
    for (size_t i = 0; i < nc; i++) {
        char path[1024];
        if (czk__svc_circuit_path(path, sizeof path, s->param_cache, &cs[i]) != CZK_OK) continue;
        int resident = 0;
        for (svc_resident *r = s->res; r; r = r->next)
            if (r->loaded && !strcmp(r->path, path)) resident = 1;
        int exists;
        uint64_t sz = stat_size(path, &exists);
        if (resident || !exists) continue;
        czk_svc_srs *e = &out->srs[out->n_srs++];
        snprintf(e->circuit_id, sizeof e->circuit_id, "%s", cs[i].id);
        e->tier = CZK_SVC_COLD;
        e->size_bytes = sz;
    }
    czk_error_clear();
    out->completed = s->completed;
    out->failed = s->failed;
    out->cancelled = s->cancelled;
    memcpy(out->completed_by_kind, s->completed_by_kind, sizeof out->completed_by_kind);
    memcpy(out->failed_by_kind, s->failed_by_kind, sizeof out->failed_by_kind);
    out->uptime_s = (uint64_t)(now - s->t0);
    czk_engine_progress p;
    czk_engine_progress_get(s->engine, &p);
    out->memory_reserved = p.memory_used;
    out->memory_limit = p.memory_budget;
    out->memory_peak = czk_engine_peak_reserved(s->engine);
    out->synth_workers = s->o.synth_workers > 0 ? s->o.synth_workers : (s->o.threads / 2 > 1 ? s->o.threads / 2 : 1);
    pthread_mutex_unlock(&s->mu);
    out->active_synth = 0;
    czk_engine_event *ev = NULL;
    size_t nev = 0;
    if (czk_engine_events(s->engine, &ev, &nev) == CZK_OK) {
        for (size_t i = 0; i < nev; i++)
            if (ev[i].synth_start >= 0 && ev[i].synth_end < 0 && ev[i].status == CZK_OK) out->active_synth++;
        free(ev);
    }
    return CZK_OK;
}

void czk_svc_status_clear(czk_svc_status *st)
{
    if (!st) return;
    free(st->srs);
    st->srs = NULL;
    st->n_srs = 0;
}

static const char *tier_name(czk_svc_tier t) { return t == CZK_SVC_HOT ? "hot" : t == CZK_SVC_WARM ? "warm" : "cold"; }

/* ---- GET /status -------------------------------------------------------------------------- */

/* The state of one task from its timeline entry. */
static const char *task_state(const czk_engine_event *e)
{
    if (e->status != CZK_OK) return "failed";
    if (e->prove_end >= 0) return "done";
    if (e->prove_start >= 0) return "gpu";
    if (e->synth_end >= 0) return "synth_done";
    if (e->synth_start >= 0) return "synthesizing";
    return "pending";
}

/* The running jobs with their partitions, from the engine's timeline. */
static json_t *pipelines_json(czk_service *s)
{
    json_t *arr = json_array();
    czk_engine_event *ev = NULL;
    size_t nev = 0;
    if (czk_engine_events(s->engine, &ev, &nev) != CZK_OK) {
        czk_error_clear();
        return arr;
    }
    pthread_mutex_lock(&s->mu);
    double now = czk_now();
    for (svc_job *j = s->jobs; j; j = j->next) {
        if (j->state != SVC_RUNNING && j->state != SVC_PREPARING) continue;
        json_t *parts = json_array();
        uint32_t done = 0;
        for (size_t i = 0; j->in_engine && i < nev; i++) {
            if (ev[i].job != j->engine_id) continue;
            const czk_engine_event *e = &ev[i];
            const char *st = task_state(e);
            if (!strcmp(st, "done")) done++;
            double sm = e->synth_end >= 0 ? (e->synth_end - e->synth_start) * 1e3 : 0;
            double gm = e->prove_end >= 0 ? (e->prove_end - e->prove_start) * 1e3 : 0;
            json_array_append_new(parts, json_pack("{s:I, s:s, s:I, s:I}", "index", (json_int_t)e->partition, "state",
                                                   st, "synth_ms", (json_int_t)sm, "gpu_ms", (json_int_t)gm));
        }
        json_array_append_new(
            arr, json_pack("{s:s, s:s, s:I, s:I, s:I, s:o, s:s}", "job_id", j->id, "proof_kind",
                           czk_svc_kind_label(j->pay.kind), "started_secs_ago", (json_int_t)(now - j->t_prep),
                           "total_partitions", (json_int_t)j->pay.partitions, "partitions_done", (json_int_t)done,
                           "partitions", parts, "stage", j->state == SVC_PREPARING ? "loading" : "proving"));
    }
    pthread_mutex_unlock(&s->mu);
    free(ev);
    return arr;
}

static json_t *by_kind_json(const uint64_t *v)
{
    json_t *o = json_object();
    for (size_t i = 0; i < CZK_SVC_N_KINDS - 1; i++)
        json_object_set_new(o, czk_svc_kind_label(wire_kinds[i]), json_integer((json_int_t)v[wire_kinds[i]]));
    return o;
}

czk_status czk_service_status_json(czk_service *s, char **out)
{
    *out = NULL;
    czk_svc_status st;
    CZK_TRY(czk_service_status(s, &st));
    json_t *srs = json_array(), *pce = json_array();
    for (size_t i = 0; i < st.n_srs; i++) {
        const czk_svc_srs *e = &st.srs[i];
        json_array_append_new(srs, json_pack("{s:s, s:s, s:I, s:I, s:f}", "circuit_id", e->circuit_id, "tier",
                                             tier_name(e->tier), "size_bytes", (json_int_t)e->size_bytes, "ref_count",
                                             (json_int_t)e->ref_count, "idle_secs", e->idle_s));
        if (e->pce_bytes)
            json_array_append_new(pce, json_pack("{s:s, s:I}", "circuit_id", e->circuit_id, "size_bytes",
                                                 (json_int_t)e->pce_bytes));
    }
    uint32_t depth = 0;
    for (size_t i = 0; i < CZK_SVC_N_KINDS - 1; i++) depth += st.queues[i].pending;
    json_t *queues = json_object();
    for (size_t i = 0; i < CZK_SVC_N_KINDS - 1; i++)
        json_object_set_new(queues, czk_svc_kind_label(st.queues[i].kind),
                            json_pack("{s:I, s:I}", "pending", (json_int_t)st.queues[i].pending, "in_progress",
                                      (json_int_t)st.queues[i].in_progress));
    czk_memory_info mi; /* MemTotal and the cgroup limit, read now */
    czk_memory_probe(&mi);
    json_t *doc = json_pack(
        "{s:I, s:{s:I, s:I, s:s, s:I, s:I, s:I, s:I, s:I}, s:{s:i, s:i}, s:o, s:{s:o, s:o}, "
        "s:{s:I, s:I, s:I, s:o, s:o, s:I}, s:o}",
        "uptime_secs", (json_int_t)st.uptime_s, "memory", "total_bytes", (json_int_t)mi.mem_total, "limit_bytes",
        (json_int_t)mi.limit, "limit_source", mi.source, "used_bytes",
        (json_int_t)(st.memory_reserved + st.resident_bytes), "available_bytes",
        (json_int_t)(st.memory_limit > st.memory_reserved + st.resident_bytes
                         ? st.memory_limit - st.memory_reserved - st.resident_bytes
                         : 0),
        "budget_bytes", (json_int_t)st.memory_limit, "reserved_bytes", (json_int_t)st.memory_reserved,
        "resident_bytes", (json_int_t)st.resident_bytes, "synthesis", "max_concurrent", st.synth_workers, "active",
        st.active_synth, "pipelines", pipelines_json(s), "allocations", "srs", srs, "pce", pce, "counters",
        "total_completed", (json_int_t)st.completed, "total_failed", (json_int_t)st.failed, "total_cancelled",
        (json_int_t)st.cancelled, "completed_by_kind", by_kind_json(st.completed_by_kind), "failed_by_kind",
        by_kind_json(st.failed_by_kind), "queue_depth", (json_int_t)depth, "queues", queues);
    czk_svc_status_clear(&st);
    if (!doc) return czk_error(CZK_ERR_INTERNAL, "status JSON");
    *out = json_dumps(doc, JSON_COMPACT);
    json_decref(doc);
    return *out ? CZK_OK : czk_error(CZK_ERR_NOMEM, "status JSON");
}

/* ---- Prometheus text ---------------------------------------------------------------------- */

typedef struct buf {
    char *p;
    size_t n, cap;
    int oom;
} buf;

static void bprintf(buf *b, const char *fmt, ...) CZK_PRINTF(2, 3);
static void bprintf(buf *b, const char *fmt, ...)
{
    if (b->oom) return;
    for (;;) {
        va_list ap;
        va_start(ap, fmt);
        int w = vsnprintf(b->p + b->n, b->cap - b->n, fmt, ap);
        va_end(ap);
        if (w < 0) {
            b->oom = 1;
            return;
        }
        if ((size_t)w < b->cap - b->n) {
            b->n += (size_t)w;
            return;
        }
        size_t nc = b->cap * 2 + (size_t)w + 1;
        char *np = realloc(b->p, nc);
        if (!np) {
            b->oom = 1;
            return;
        }
        b->p = np;
        b->cap = nc;
    }
}

czk_status czk_service_metrics(czk_service *s, char **out)
{
    *out = NULL;
    czk_svc_status st;
    CZK_TRY(czk_service_status(s, &st));
    buf b = {malloc(4096), 0, 4096, 0};
    if (!b.p) {
        czk_svc_status_clear(&st);
        return czk_error(CZK_ERR_NOMEM, "metrics");
    }
    b.p[0] = 0;
    uint32_t depth = 0;
    for (size_t i = 0; i < CZK_SVC_N_KINDS - 1; i++) depth += st.queues[i].pending;
    bprintf(&b, "# HELP cuzk_proofs_completed_total Proofs completed.\n# TYPE cuzk_proofs_completed_total counter\n"
                "cuzk_proofs_completed_total %llu\n",
            (unsigned long long)st.completed);
    bprintf(&b, "# HELP cuzk_proofs_failed_total Proofs failed.\n# TYPE cuzk_proofs_failed_total counter\n"
                "cuzk_proofs_failed_total %llu\n",
            (unsigned long long)st.failed);
    bprintf(&b, "# HELP cuzk_uptime_seconds Seconds since the daemon started.\n# TYPE cuzk_uptime_seconds gauge\n"
                "cuzk_uptime_seconds %llu\n",
            (unsigned long long)st.uptime_s);
    bprintf(&b, "# HELP cuzk_queue_depth Jobs waiting to run.\n# TYPE cuzk_queue_depth gauge\ncuzk_queue_depth %u\n",
            depth);
    bprintf(&b, "# HELP cuzk_proofs_completed Proofs completed by proof kind.\n# TYPE cuzk_proofs_completed counter\n");
    for (size_t i = 0; i < CZK_SVC_N_KINDS - 1; i++)
        bprintf(&b, "cuzk_proofs_completed{proof_kind=\"%s\"} %llu\n", czk_svc_kind_label(wire_kinds[i]),
                (unsigned long long)st.completed_by_kind[wire_kinds[i]]);
    bprintf(&b, "# HELP cuzk_proofs_failed Proofs failed by proof kind.\n# TYPE cuzk_proofs_failed counter\n");
    for (size_t i = 0; i < CZK_SVC_N_KINDS - 1; i++)
        bprintf(&b, "cuzk_proofs_failed{proof_kind=\"%s\"} %llu\n", czk_svc_kind_label(wire_kinds[i]),
                (unsigned long long)st.failed_by_kind[wire_kinds[i]]);
    bprintf(&b, "# HELP cuzk_running_jobs Jobs being proven.\n# TYPE cuzk_running_jobs gauge\ncuzk_running_jobs %u\n",
            st.running_jobs);
    bprintf(&b, "# HELP cuzk_gpu_workers GPU workers (czk proves on the CPU: 0).\n# TYPE cuzk_gpu_workers gauge\n"
                "cuzk_gpu_workers 0\n");

    pthread_mutex_lock(&s->mu);
    svc_hist h[SVC_N_STAGES][CZK_SVC_N_KINDS];
    memcpy(h, s->stage, sizeof h);
    uint64_t cancelled = s->cancelled;
    pthread_mutex_unlock(&s->mu);
    bprintf(&b, "# HELP cuzk_proof_duration_seconds Submission to completion of completed proofs.\n"
                "# TYPE cuzk_proof_duration_seconds summary\n");
    for (size_t i = 0; i < CZK_SVC_N_KINDS - 1; i++) {
        const svc_hist *t = &h[SVC_STAGE_TOTAL][wire_kinds[i]];
        const char *l = czk_svc_kind_label(wire_kinds[i]);
        bprintf(&b, "cuzk_proof_duration_seconds_sum{proof_kind=\"%s\"} %.6f\n", l, t->sum);
        bprintf(&b, "cuzk_proof_duration_seconds_count{proof_kind=\"%s\"} %llu\n", l, (unsigned long long)t->n);
    }
    bprintf(&b, "# HELP czk_stage_duration_seconds Per-stage duration of completed proofs (queue wait, parameter "
                "load, synthesis, prove, total).\n# TYPE czk_stage_duration_seconds histogram\n");
    for (int g = 0; g < SVC_N_STAGES; g++)
        for (size_t i = 0; i < CZK_SVC_N_KINDS - 1; i++) {
            const svc_hist *t = &h[g][wire_kinds[i]];
            const char *l = czk_svc_kind_label(wire_kinds[i]), *sn = czk__svc_stage_names[g];
            uint64_t cum = 0;
            for (size_t k = 0; k < SVC_HIST_BUCKETS; k++) {
                cum += t->count[k];
                bprintf(&b, "czk_stage_duration_seconds_bucket{stage=\"%s\",proof_kind=\"%s\",le=\"%g\"} %llu\n", sn,
                        l, czk__svc_hist_bounds[k], (unsigned long long)cum);
            }
            cum += t->count[SVC_HIST_BUCKETS];
            bprintf(&b, "czk_stage_duration_seconds_bucket{stage=\"%s\",proof_kind=\"%s\",le=\"+Inf\"} %llu\n", sn, l,
                    (unsigned long long)cum);
            bprintf(&b, "czk_stage_duration_seconds_sum{stage=\"%s\",proof_kind=\"%s\"} %.6f\n", sn, l, t->sum);
            bprintf(&b, "czk_stage_duration_seconds_count{stage=\"%s\",proof_kind=\"%s\"} %llu\n", sn, l,
                    (unsigned long long)t->n);
        }
    bprintf(&b, "# HELP czk_proofs_cancelled_total Jobs cancelled.\n# TYPE czk_proofs_cancelled_total counter\n"
                "czk_proofs_cancelled_total %llu\n",
            (unsigned long long)cancelled);
    bprintf(&b, "# HELP czk_memory_budget_bytes The engine's memory budget.\n# TYPE czk_memory_budget_bytes gauge\n"
                "czk_memory_budget_bytes %llu\n",
            (unsigned long long)st.memory_limit);
    bprintf(&b, "# HELP czk_memory_reserved_bytes Bytes the engine has reserved now.\n"
                "# TYPE czk_memory_reserved_bytes gauge\nczk_memory_reserved_bytes %llu\n",
            (unsigned long long)st.memory_reserved);
    bprintf(&b, "# HELP czk_memory_reserved_peak_bytes Peak of the engine's reservation.\n"
                "# TYPE czk_memory_reserved_peak_bytes gauge\nczk_memory_reserved_peak_bytes %llu\n",
            (unsigned long long)st.memory_peak);
    uint64_t params = 0, pce = 0;
    for (size_t i = 0; i < st.n_srs; i++)
        if (st.srs[i].tier == CZK_SVC_HOT) params += st.srs[i].size_bytes, pce += st.srs[i].pce_bytes;
    bprintf(&b, "# HELP czk_resident_bytes Parameters and witness-source data kept loaded.\n"
                "# TYPE czk_resident_bytes gauge\nczk_resident_bytes{what=\"params\"} %llu\n"
                "czk_resident_bytes{what=\"pce\"} %llu\n",
            (unsigned long long)params, (unsigned long long)pce);
    bprintf(&b, "# HELP czk_queue_jobs Jobs per proof kind and state.\n# TYPE czk_queue_jobs gauge\n");
    for (size_t i = 0; i < CZK_SVC_N_KINDS - 1; i++) {
        const char *l = czk_svc_kind_label(st.queues[i].kind);
        bprintf(&b, "czk_queue_jobs{proof_kind=\"%s\",state=\"pending\"} %u\n", l, st.queues[i].pending);
        bprintf(&b, "czk_queue_jobs{proof_kind=\"%s\",state=\"in_progress\"} %u\n", l, st.queues[i].in_progress);
    }
    czk_svc_status_clear(&st);
    if (b.oom) {
        free(b.p);
        return czk_error(CZK_ERR_NOMEM, "metrics");
    }
    *out = b.p;
    return CZK_OK;
}
