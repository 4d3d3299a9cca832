/* The process-wide measurement session: perf_event_open groups with inherit,
 * software events, getrusage, and the czk_perf_begin/end region logic.
 * perf_event_open(2); counts of exited inherited threads are folded into the
 * parent event by the kernel, so one read covers every worker thread. */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/perf_event.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <valgrind/callgrind.h>

#include "czk/perf.h"
#include "perf/perf_internal.h"
#include "perf/perf_impl.h"

void czk__perf_attr(struct perf_event_attr *a, const czk_perf_event *e)
{
    memset(a, 0, sizeof *a);
    a->size = sizeof *a;
    a->type = e->type;
    a->config = e->config;
    a->config1 = e->config1;
    a->inherit = 1;
    a->exclude_kernel = e->exclude_kernel ? 1 : 0;
    a->exclude_hv = 1;
}

int czk__perf_open(const czk_perf_event *e, pid_t pid, int group_fd, int enable_on_exec, int *err)
{
    struct perf_event_attr a;
    czk__perf_attr(&a, e);
    a.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
    if (enable_on_exec) {
        a.disabled = group_fd < 0;
        a.enable_on_exec = group_fd < 0;
    }
    int fd = (int)syscall(SYS_perf_event_open, &a, pid, -1, group_fd, PERF_FLAG_FD_CLOEXEC);
    if (fd < 0 && err) *err = errno;
    return fd;
}

int czk__perf_read(int fd, uint64_t out[3])
{
    uint64_t buf[3];
    if (fd < 0 || read(fd, buf, sizeof buf) != (ssize_t)sizeof buf) return -1;
    memcpy(out, buf, sizeof buf);
    return 0;
}

int czk_perf_hw_available(void)
{
    static int cached = -1;
    if (cached >= 0) return cached;
    const char *force = getenv("CZK_PERF_NO_HW");
    if (force && *force && strcmp(force, "0")) return cached = 0;
    czk_perf_event e;
    memset(&e, 0, sizeof e);
    e.type = PERF_TYPE_HARDWARE;
    e.config = PERF_COUNT_HW_INSTRUCTIONS;
    e.exclude_kernel = 1;
    int err = 0, fd = czk__perf_open(&e, 0, -1, 0, &err);
    if (fd >= 0) close(fd);
    return cached = fd >= 0;
}

czk_status czk_perf_backend_parse(czk_perf_backend *b, const char *s)
{
    if (!strcmp(s, "auto")) *b = CZK_PERF_BACKEND_AUTO;
    else if (!strcmp(s, "hw")) *b = CZK_PERF_BACKEND_HW;
    else if (!strcmp(s, "sim")) *b = CZK_PERF_BACKEND_SIM;
    else if (!strcmp(s, "none")) *b = CZK_PERF_BACKEND_NONE;
    else return czk_error(CZK_ERR_INVALID_ARG, "counter backend '%s': want auto, hw, sim or none", s);
    return CZK_OK;
}

/* ---- session --------------------------------------------------------------- */

enum { SW_TASK_CLOCK, SW_FAULTS, SW_CS, SW_N };

typedef struct acc {
    double value, enabled, running;
} acc;

static struct {
    int active, sim_pass, sim_whole;
    int depth, implicit;
    unsigned regions;
    double t0, seconds;
    czk_perf_eventset set;
    int fd[CZK_PERF_MAX_EVENTS];
    int err[CZK_PERF_MAX_EVENTS];
    int hidden_fd[CZK_PERF_MAX_EVENTS]; /* instructions leaders not in the set */
    int nhidden;
    int sw_fd[SW_N];
    uint64_t snap[CZK_PERF_MAX_EVENTS][3], sw_snap[SW_N][3];
    acc ev[CZK_PERF_MAX_EVENTS], sw[SW_N];
    struct rusage ru0;
    double ru_cpu, ru_faults, ru_cs;
} S;

int czk_perf_session_active(void)
{
    return S.active;
}

static double ru_cpu_of(const struct rusage *r)
{
    return (double)r->ru_utime.tv_sec + 1e-6 * (double)r->ru_utime.tv_usec + (double)r->ru_stime.tv_sec +
           1e-6 * (double)r->ru_stime.tv_usec;
}

static void snapshot(void)
{
    for (size_t i = 0; i < S.set.n; i++)
        if (S.fd[i] >= 0 && czk__perf_read(S.fd[i], S.snap[i])) S.snap[i][0] = S.snap[i][1] = S.snap[i][2] = 0;
    for (int k = 0; k < SW_N; k++)
        if (S.sw_fd[k] >= 0 && czk__perf_read(S.sw_fd[k], S.sw_snap[k])) memset(S.sw_snap[k], 0, sizeof S.sw_snap[k]);
    getrusage(RUSAGE_SELF, &S.ru0);
    S.t0 = czk_now();
}

static void accumulate(void)
{
    double t = czk_now();
    uint64_t cur[3];
    for (size_t i = 0; i < S.set.n; i++)
        if (S.fd[i] >= 0 && czk__perf_read(S.fd[i], cur) == 0) {
            S.ev[i].value += (double)(cur[0] - S.snap[i][0]);
            S.ev[i].enabled += (double)(cur[1] - S.snap[i][1]);
            S.ev[i].running += (double)(cur[2] - S.snap[i][2]);
        }
    for (int k = 0; k < SW_N; k++)
        if (S.sw_fd[k] >= 0 && czk__perf_read(S.sw_fd[k], cur) == 0) S.sw[k].value += (double)(cur[0] - S.sw_snap[k][0]);
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    S.ru_cpu += ru_cpu_of(&ru) - ru_cpu_of(&S.ru0);
    S.ru_faults += (double)(ru.ru_minflt - S.ru0.ru_minflt + ru.ru_majflt - S.ru0.ru_majflt);
    S.ru_cs += (double)(ru.ru_nvcsw - S.ru0.ru_nvcsw + ru.ru_nivcsw - S.ru0.ru_nivcsw);
    S.seconds += t - S.t0;
}

static void clear_acc(void)
{
    memset(S.ev, 0, sizeof S.ev);
    memset(S.sw, 0, sizeof S.sw);
    S.seconds = S.ru_cpu = S.ru_faults = S.ru_cs = 0;
    S.regions = 0;
}

void czk_perf_begin(void)
{
    if (!S.active) return;
    if (S.implicit) {
        /* first explicit region: drop what the implicit one measured */
        S.implicit = 0;
        clear_acc();
        if (S.sim_pass && S.sim_whole) CALLGRIND_ZERO_STATS;
        else if (S.sim_pass) CALLGRIND_START_INSTRUMENTATION;
        snapshot();
        S.depth = 1;
        return;
    }
    if (S.depth++ > 0) return;
    if (S.sim_pass) CALLGRIND_START_INSTRUMENTATION;
    snapshot();
}

void czk_perf_end(void)
{
    if (!S.active || S.implicit || S.depth == 0) return;
    if (--S.depth > 0) return;
    if (S.sim_pass) CALLGRIND_STOP_INSTRUMENTATION;
    accumulate();
    S.regions++;
}

czk_status czk_perf_session_start(const czk_perf_eventset *set, int group, int sim_pass)
{
    if (S.active) return czk_error(CZK_ERR_INVALID_ARG, "perf session: already active");
    memset(&S, 0, sizeof S);
    for (int i = 0; i < CZK_PERF_MAX_EVENTS; i++) S.fd[i] = S.hidden_fd[i] = -1;
    for (int k = 0; k < SW_N; k++) S.sw_fd[k] = -1;
    if (set) S.set = *set;
    S.sim_pass = sim_pass;
    if (!sim_pass) {
        static const uint64_t sw_cfg[SW_N] = {PERF_COUNT_SW_TASK_CLOCK, PERF_COUNT_SW_PAGE_FAULTS,
                                              PERF_COUNT_SW_CONTEXT_SWITCHES};
        for (int k = 0; k < SW_N; k++) {
            czk_perf_event e;
            memset(&e, 0, sizeof e);
            e.type = PERF_TYPE_SOFTWARE;
            e.config = sw_cfg[k];
            S.sw_fd[k] = czk__perf_open(&e, 0, -1, 0, NULL);
        }
        czk__perf_open_set(S.fd, S.err, S.hidden_fd, &S.nhidden, &S.set, group, 0, 0);
    }
    S.active = 1;
    S.implicit = 1;
    S.depth = 1;
    S.sim_whole = sim_pass < 0;
    S.sim_pass = sim_pass < 0 ? -sim_pass : sim_pass;
    /* region mode: instrumentation starts at the first czk_perf_begin (set-up
     * runs at native speed; the simulated caches start cold) */
    if (S.sim_whole) CALLGRIND_START_INSTRUMENTATION;
    snapshot();
    return CZK_OK;
}

void czk__perf_open_set(int fd[], int err[], int hidden_fd[], int *nhidden, const czk_perf_eventset *set, int group,
                        pid_t pid, int enable_on_exec)
{
    int group_of[CZK_PERF_MAX_EVENTS];
    int ng = czk_perf_eventset_groups(set, group_of);
    int instr = -1;
    for (size_t i = 0; i < set->n; i++) {
        fd[i] = -1;
        err[i] = 0;
        if (group_of[i] == -2) instr = (int)i;
    }
    *nhidden = 0;
    int hw = czk_perf_hw_available();
    /* software events named in the set: alone, not grouped */
    for (size_t i = 0; i < set->n; i++)
        if (set->ev[i].has_hw && set->ev[i].type == PERF_TYPE_SOFTWARE)
            fd[i] = czk__perf_open(&set->ev[i], pid, -1, enable_on_exec, &err[i]);
    if (!hw) {
        for (size_t i = 0; i < set->n; i++)
            if (group_of[i] != -1) err[i] = ENOENT;
        return;
    }
    czk_perf_event ins;
    memset(&ins, 0, sizeof ins);
    ins.type = PERF_TYPE_HARDWARE;
    ins.config = PERF_COUNT_HW_INSTRUCTIONS;
    ins.exclude_kernel = 1;
    int used_instr = 0;
    for (int g = 0; g < ng; g++) {
        if (group >= 0 && g != group % ng) continue;
        int leader;
        int e = 0;
        if (instr >= 0 && !used_instr) {
            leader = fd[instr] = czk__perf_open(&set->ev[instr], pid, -1, enable_on_exec, &err[instr]);
            used_instr = 1;
        } else {
            leader = czk__perf_open(&ins, pid, -1, enable_on_exec, &e);
            if (leader >= 0) hidden_fd[(*nhidden)++] = leader;
        }
        for (size_t i = 0; i < set->n; i++) {
            if (group_of[i] != g) continue;
            if (leader < 0) {
                err[i] = e ? e : (instr >= 0 ? err[instr] : ENOENT);
                continue;
            }
            fd[i] = czk__perf_open(&set->ev[i], pid, leader, enable_on_exec, &err[i]);
        }
    }
    for (size_t i = 0; i < set->n; i++)
        if (group_of[i] >= 0 && fd[i] < 0 && err[i] == 0) err[i] = -1; /* another group this run */
}

void czk__perf_fill_value(czk_perf_value *v, const czk_perf_event *e, int fd, int err, double value, double enabled,
                          double running)
{
    memset(v, 0, sizeof *v);
    snprintf(v->name, sizeof v->name, "%s", e->name);
    v->role = e->role;
    v->running = 1;
    if (fd >= 0) {
        if (running <= 0) {
            v->source = CZK_PERF_UNAVAILABLE;
            snprintf(v->note, sizeof v->note, "not scheduled (time_running = 0)");
            return;
        }
        v->source = e->type == PERF_TYPE_SOFTWARE ? CZK_PERF_SOFTWARE : CZK_PERF_COUNTED;
        v->value = running < enabled ? value * enabled / running : value;
        v->multiplexed = running < enabled * 0.999;
        v->running = enabled > 0 ? running / enabled : 1;
        snprintf(v->note, sizeof v->note, "%.23s%s%.80s", e->origin, e->note[0] ? "; " : "", e->note);
        return;
    }
    v->source = CZK_PERF_UNAVAILABLE;
    if (!e->has_hw) snprintf(v->note, sizeof v->note, "%s", e->note[0] ? e->note : "no encoding");
    else if (err == -1) snprintf(v->note, sizeof v->note, "in another counter group this run");
    else if (err == ENOENT && !czk_perf_hw_available()) snprintf(v->note, sizeof v->note, "no hardware PMU (perf_event_open: ENOENT)");
    else snprintf(v->note, sizeof v->note, "perf_event_open: %s", strerror(err));
}

czk_status czk_perf_session_stop(czk_perf_report *r)
{
    memset(r, 0, sizeof *r);
    if (!S.active) return czk_error(CZK_ERR_INVALID_ARG, "perf session: not active");
    if (S.depth > 0) {
        S.depth = 0;
        if (S.sim_pass && (S.sim_whole || !S.implicit)) CALLGRIND_STOP_INSTRUMENTATION;
        accumulate();
        if (!S.implicit) S.regions++;
    }
    r->seconds = S.seconds;
    r->regions = S.implicit ? 0 : S.regions;
    r->hw_available = czk_perf_hw_available();
    r->task_clock_s = S.sw_fd[SW_TASK_CLOCK] >= 0 ? S.sw[SW_TASK_CLOCK].value * 1e-9 : S.ru_cpu;
    r->page_faults = S.sw_fd[SW_FAULTS] >= 0 ? S.sw[SW_FAULTS].value : S.ru_faults;
    r->ctx_switches = S.sw_fd[SW_CS] >= 0 ? S.sw[SW_CS].value : S.ru_cs;
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    r->max_rss = (double)ru.ru_maxrss * 1024.0;
    int counted = 0;
    for (size_t i = 0; i < S.set.n; i++) {
        czk__perf_fill_value(&r->v[i], &S.set.ev[i], S.fd[i], S.err[i], S.ev[i].value, S.ev[i].enabled,
                             S.ev[i].running);
        counted |= r->v[i].source == CZK_PERF_COUNTED;
    }
    r->n = S.set.n;
    snprintf(r->backend, sizeof r->backend, "%s", counted ? "perf_event_open" : "software events only");
    for (size_t i = 0; i < S.set.n; i++)
        if (S.fd[i] >= 0) close(S.fd[i]);
    for (int i = 0; i < S.nhidden; i++) close(S.hidden_fd[i]);
    for (int k = 0; k < SW_N; k++)
        if (S.sw_fd[k] >= 0) close(S.sw_fd[k]);
    S.active = 0;
    return CZK_OK;
}
