/* The engine's timeline (one event per task, one span per verified job),
 * its progress counters, and the timeline written as a Chrome trace. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/fileio.h"
#include "engine/engine_internal.h"

czk_status czk_engine_events(const czk_engine *e, czk_engine_event **out, size_t *n)
{
    czk_engine *m = (czk_engine *)e;
    *out = NULL;
    *n = 0;
    pthread_mutex_lock(&m->mu);
    czk_status st = CZK_OK;
    if (m->n_events) {
        *out = malloc(m->n_events * sizeof **out);
        if (*out) {
            memcpy(*out, m->events, m->n_events * sizeof **out);
            *n = m->n_events;
        } else {
            st = czk_error(CZK_ERR_NOMEM, "engine events copy");
        }
    }
    pthread_mutex_unlock(&m->mu);
    return st;
}

czk_status czk_engine_job_events(const czk_engine *e, uint64_t id, czk_engine_event **out, size_t *n)
{
    czk_engine *m = (czk_engine *)e;
    *out = NULL;
    *n = 0;
    pthread_mutex_lock(&m->mu);
    size_t k = 0;
    for (size_t i = 0; i < m->n_events; i++) k += m->events[i].job == id;
    czk_status st = CZK_OK;
    if (k) {
        *out = malloc(k * sizeof **out);
        if (*out) {
            for (size_t i = 0; i < m->n_events; i++)
                if (m->events[i].job == id) (*out)[(*n)++] = m->events[i];
        } else {
            st = czk_error(CZK_ERR_NOMEM, "engine events of job %llu", (unsigned long long)id);
        }
    }
    pthread_mutex_unlock(&m->mu);
    return st;
}

void czk_engine_forget(czk_engine *e, uint64_t id)
{
    pthread_mutex_lock(&e->mu);
    for (job *j = e->jobs; j; j = j->next)
        if (j->id == id) { /* not waited yet: its tasks still point into the timeline */
            pthread_mutex_unlock(&e->mu);
            return;
        }
    /* compact: live tasks' indices move with their entries */
    size_t *map = malloc((e->n_events ? e->n_events : 1) * sizeof *map);
    if (!map) {
        pthread_mutex_unlock(&e->mu);
        return; /* the entries stay; nothing is lost but memory */
    }
    size_t w = 0;
    for (size_t i = 0; i < e->n_events; i++) {
        map[i] = w;
        if (e->events[i].job != id) e->events[w++] = e->events[i];
    }
    for (job *j = e->jobs; j; j = j->next)
        for (uint32_t t = 0; t < j->spec.n_partitions; t++) j->tasks[t].ev = map[j->tasks[t].ev];
    e->n_events = w;
    free(map);
    w = 0;
    for (size_t i = 0; i < e->n_spans; i++)
        if (e->spans[i].id != id) e->spans[w++] = e->spans[i];
    e->n_spans = w;
    pthread_mutex_unlock(&e->mu);
}

void czk_engine_progress_get(const czk_engine *e, czk_engine_progress *out)
{
    czk_engine *m = (czk_engine *)e;
    pthread_mutex_lock(&m->mu);
    *out = m->prog;
    out->memory_used = m->used;
    out->memory_budget = m->budget;
    out->ready = m->n_ready;
    out->elapsed_s = rel(m);
    pthread_mutex_unlock(&m->mu);
}

uint64_t czk_engine_peak_reserved(const czk_engine *e)
{
    czk_engine *m = (czk_engine *)e;
    pthread_mutex_lock(&m->mu);
    uint64_t p = m->peak;
    pthread_mutex_unlock(&m->mu);
    return p;
}

/* Chrome trace event format: "X" complete events (ts, dur in microseconds)
 * on one track per worker, "b"/"e" async events for the queue waits. */
static void emit_x(FILE *f, int *first, const char *name, const char *cat, int tid, double s, double e2,
                   const czk_engine_event *ev)
{
    if (s < 0 || e2 < 0) return;
    fprintf(f, "%s\n{\"name\":\"%s\",\"cat\":\"%s\",\"ph\":\"X\",\"pid\":1,\"tid\":%d,\"ts\":%.3f,\"dur\":%.3f",
            *first ? "" : ",", name, cat, tid, s * 1e6, (e2 - s) * 1e6);
    if (ev)
        fprintf(f, ",\"args\":{\"job\":%llu,\"partition\":%u,\"priority\":%d,\"batch\":%d,\"status\":%d}",
                (unsigned long long)ev->job, ev->partition, ev->priority, ev->batch, ev->status);
    fputc('}', f);
    *first = 0;
}

static void emit_async(FILE *f, const char *name, size_t id, double s, double e2)
{
    if (s < 0 || e2 < 0) return;
    fprintf(f, ",\n{\"name\":\"%s\",\"cat\":\"queue\",\"ph\":\"b\",\"pid\":1,\"tid\":0,\"id\":%zu,\"ts\":%.3f}", name,
            id, s * 1e6);
    fprintf(f, ",\n{\"name\":\"%s\",\"cat\":\"queue\",\"ph\":\"e\",\"pid\":1,\"tid\":0,\"id\":%zu,\"ts\":%.3f}", name,
            id, e2 * 1e6);
}

czk_status czk_engine_write_trace(const czk_engine *e, const char *path)
{
    czk_engine *m = (czk_engine *)e;
    czk__afile af;
    FILE *f;
    CZK_TRY(czk__afile_open_stream(&af, &f, path, 0));
    pthread_mutex_lock(&m->mu);
    fprintf(f, "{\"displayTimeUnit\":\"ms\",\"traceEvents\":[");
    int first = 1;
    for (int i = 0; i < m->n_synth; i++) {
        fprintf(f, "%s\n{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":1,\"tid\":%d,\"args\":{\"name\":\"synthesis %d%s\"}}",
                first ? "" : ",", 1 + i, i, i >= m->o.synth_workers ? " (urgent lane)" : "");
        first = 0;
    }
    for (int i = 0; i < m->n_prove; i++)
        fprintf(f, ",\n{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":1,\"tid\":%d,\"args\":{\"name\":\"prover %d%s\"}}",
                1000 + i, i, i >= m->o.prove_workers ? " (urgent lane)" : "");
    fprintf(f, ",\n{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":1,\"tid\":2000,\"args\":{\"name\":\"assembler\"}}");
    for (size_t i = 0; i < m->n_events; i++) {
        const czk_engine_event *ev = &m->events[i];
        char name[64];
        snprintf(name, sizeof name, "job %llu p%u", (unsigned long long)ev->job, ev->partition);
        if (ev->synth_worker >= 0)
            emit_x(f, &first, name, "synthesis", 1 + ev->synth_worker, ev->synth_start, ev->synth_end, ev);
        if (ev->prove_worker >= 0)
            emit_x(f, &first, name, "prove", 1000 + ev->prove_worker, ev->prove_start, ev->prove_end, ev);
        char qn[80];
        snprintf(qn, sizeof qn, "%s pending", name);
        emit_async(f, qn, 2 * i, ev->queued, ev->synth_start);
        snprintf(qn, sizeof qn, "%s ready", name);
        emit_async(f, qn, 2 * i + 1, ev->synth_end, ev->prove_start);
    }
    for (size_t i = 0; i < m->n_spans; i++) {
        char name[64];
        snprintf(name, sizeof name, "verify job %llu", (unsigned long long)m->spans[i].id);
        emit_x(f, &first, name, "verify", 2000, m->spans[i].start, m->spans[i].end, NULL);
    }
    fprintf(f, "\n]}\n");
    pthread_mutex_unlock(&m->mu);
    return czk__afile_commit(&af, NULL, 0);
}
