/* Running simulation passes side by side, and progress on stderr. */
#define _GNU_SOURCE
#include <stdarg.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "czk/perf.h"
#include "perf/perf_internal.h"

#define LINES_AFTER_S 3.0 /* off a terminal: silent for runs shorter than this */
#define LINES_EVERY_S 20.0

void czk_perf_progress_init(czk_perf_progress *p, const char *who, int quiet)
{
    memset(p, 0, sizeof *p);
    p->mode = quiet ? 0 : isatty(STDERR_FILENO) ? 1 : 2;
    p->start = czk_now();
    snprintf(p->who, sizeof p->who, "%s", who);
}

static void fmt_dur(char *b, size_t n, double s)
{
    if (s < 0) snprintf(b, n, "?");
    else if (s < 60) snprintf(b, n, "%.0fs", s);
    else if (s < 3600) snprintf(b, n, "%dm%02ds", (int)s / 60, (int)s % 60);
    else snprintf(b, n, "%dh%02dm", (int)s / 3600, (int)s % 3600 / 60);
}

void czk_perf_progress_step(czk_perf_progress *p, const char *stage, size_t k, size_t n, double eta_s, int force)
{
    if (!p->mode) return;
    double now = czk_now(), el = now - p->start;
    if (p->mode == 2) {
        if (el < LINES_AFTER_S) return;
        if (!force && now - p->last < LINES_EVERY_S) return;
    } else if (!force && now - p->last < 0.5) {
        return;
    }
    p->last = now;
    char e[24], t[24];
    fmt_dur(e, sizeof e, el);
    fmt_dur(t, sizeof t, eta_s);
    if (p->mode == 1)
        fprintf(stderr, "\r%s: %s %zu of %zu, %s elapsed, ETA %s   ", p->who, stage, k, n, e, t), p->drawn = 1;
    else
        fprintf(stderr, "%s: %s %zu of %zu, %s elapsed, ETA %s\n", p->who, stage, k, n, e, t);
    fflush(stderr);
}

void czk_perf_progress_end(czk_perf_progress *p)
{
    if (p->mode == 1 && p->drawn) fprintf(stderr, "\r%100s\r", "");
    p->drawn = 0;
}

/* What is left of the running passes and the queued ones, jobs at a time;
 * scale: measured / estimated seconds of the passes done so far. */
static double eta(const czk_perf_sim_task *t, size_t n, double scale, int jobs)
{
    double left = 0, now = czk_now();
    for (size_t i = 0; i < n; i++) {
        if (t[i].done) continue;
        double e = t[i].est_s * scale;
        if (t[i].started) e -= now - t[i].job.t0;
        left += e > 0 ? e : 0;
    }
    return left / jobs;
}

czk_status czk_perf_sim_run_all(czk_perf_sim_task *t, size_t n, int jobs, const czk_perf_geometry *g,
                                czk_perf_progress *pr, const char *stage)
{
    if (jobs < 1) jobs = 1;
    size_t done = 0, next = 0;
    int running = 0;
    double ratio_sum = 0; /* measured / estimated seconds of finished passes */
    size_t ratio_n = 0;
    czk_status st = CZK_OK;
    while (done < n && st == CZK_OK) {
        while (running < jobs && next < n && st == CZK_OK) {
            st = czk_perf_sim_start(&t[next].job, t[next].c, t[next].pass, t[next].dir, g);
            t[next].started = 1;
            if (st == CZK_OK) running++;
            next++;
            czk_perf_progress_step(pr, stage, done + 1, n, eta(t, n, ratio_n ? ratio_sum / (double)ratio_n : 1.0, jobs), 1);
        }
        if (st != CZK_OK) break;
        struct timespec ts = {0, 100 * 1000 * 1000};
        nanosleep(&ts, NULL);
        for (size_t i = 0; i < next && st == CZK_OK; i++) {
            if (!t[i].started || t[i].done) continue;
            int fin;
            st = czk_perf_sim_poll(&t[i].job, &fin);
            if (fin) {
                t[i].done = 1;
                running--;
                done++;
                if (t[i].est_s > 0) ratio_sum += t[i].job.seconds / t[i].est_s, ratio_n++;
            }
        }
        czk_perf_progress_step(pr, stage, done < n ? done + 1 : n, n, eta(t, n, ratio_n ? ratio_sum / (double)ratio_n : 1.0, jobs), 0);
    }
    if (st != CZK_OK)
        for (size_t i = 0; i < next; i++)
            if (t[i].started && !t[i].done) czk_perf_sim_kill(&t[i].job);
    return st;
}
