/* Running a measured command as a child process. */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <linux/perf_event.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "czk/perf.h"
#include "perf/perf_internal.h"
#include "perf/perf_impl.h"

#define MAX_ARGS 256

static const char *cmd_name(char *const *argv, char buf[160])
{
    size_t o = 0;
    buf[0] = 0;
    for (int i = 0; argv[i] && o < 150; i++)
        o += (size_t)snprintf(buf + o, 160 - o, "%s%s", i ? " " : "", argv[i]);
    if (o >= 150) strcpy(buf + 150, "...");
    return buf;
}

/* fork + exec with the child held until `go` is written (so counters can be
 * attached first); returns pid or -1. */
static pid_t spawn_held(char *const *argv, const char *log, int show, int *go_fd)
{
    int p[2];
    if (pipe2(p, O_CLOEXEC)) return -1;
    pid_t pid = fork();
    if (pid < 0) {
        close(p[0]), close(p[1]);
        return -1;
    }
    if (pid == 0) {
        close(p[1]);
        char c;
        if (read(p[0], &c, 1) != 1) _exit(126);
        int fd = show ? -1 : open(log ? log : "/dev/null", O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
        int nul = open("/dev/null", O_RDONLY | O_CLOEXEC);
        if (fd >= 0) dup2(fd, 1), dup2(fd, 2);
        if (nul >= 0) dup2(nul, 0);
        execvp(argv[0], argv);
        _exit(127);
    }
    close(p[0]);
    *go_fd = p[1];
    return pid;
}

static czk_status wait_child(pid_t pid, int go_fd, struct rusage *ru, double *secs, char *const *argv, const char *log)
{
    double t0 = czk_now();
    char c = 1;
    if (write(go_fd, &c, 1) != 1) {
        close(go_fd);
        kill(pid, SIGKILL);
        waitpid(pid, NULL, 0);
        return czk_error(CZK_ERR_IO, "could not start child process");
    }
    close(go_fd);
    int st;
    pid_t w;
    do w = wait4(pid, &st, 0, ru);
    while (w < 0 && errno == EINTR);
    *secs = czk_now() - t0;
    char nb[160];
    if (w < 0) return czk_error(CZK_ERR_IO, "waiting for '%s': %s", cmd_name(argv, nb), strerror(errno));
    if (WIFEXITED(st) && WEXITSTATUS(st) == 0) return CZK_OK;
    if (WIFEXITED(st) && WEXITSTATUS(st) == 127)
        return czk_error(CZK_ERR_IO, "'%s': command not found or not executable", cmd_name(argv, nb));
    if (WIFEXITED(st))
        return czk_error(CZK_ERR_IO, "'%s' exited with status %d%s%s", cmd_name(argv, nb), WEXITSTATUS(st),
                         log ? "; its output is in " : "", log ? log : "");
    return czk_error(CZK_ERR_IO, "'%s' killed by signal %d%s%s", cmd_name(argv, nb), WTERMSIG(st),
                     log ? "; its output is in " : "", log ? log : "");
}

/* argv for a czk bench child: the command plus hidden flags. */
static czk_status bench_argv(char *out[MAX_ARGS], char store[4][64], const czk_perf_child *c, size_t prefix_n,
                             char *const *prefix, const char *report, int sim_pass)
{
    size_t n = 0;
    for (size_t i = 0; i < prefix_n; i++) out[n++] = prefix[i];
    for (size_t i = 0; c->argv[i]; i++) {
        if (n + 10 >= MAX_ARGS) return czk_error(CZK_ERR_INVALID_ARG, "command has too many arguments (max %d)", MAX_ARGS - 10);
        out[n++] = c->argv[i];
    }
    if (c->czk_bench) {
        out[n++] = "--perf-report";
        out[n++] = (char *)report;
        if (c->spec) {
            out[n++] = "--perf-events";
            out[n++] = (char *)c->spec;
        }
        snprintf(store[0], 64, "%d", c->group);
        out[n++] = "--perf-group";
        out[n++] = store[0];
        if (sim_pass) {
            snprintf(store[1], 64, "%d", sim_pass);
            out[n++] = "--perf-sim";
            out[n++] = store[1];
            if (c->sim_whole) out[n++] = "--perf-sim-whole";
        }
    }
    out[n] = NULL;
    return CZK_OK;
}

czk_status czk_perf_child_run(czk_perf_report *r, const czk_perf_child *c)
{
    memset(r, 0, sizeof *r);
    char report[1024], store[4][64];
    snprintf(report, sizeof report, "%s/report.json", c->tmpdir);
    unlink(report);
    char *argv[MAX_ARGS];
    CZK_TRY(bench_argv(argv, store, c, 0, NULL, report, 0));
    czk_perf_eventset set;
    memset(&set, 0, sizeof set);
    if (c->spec && !c->czk_bench) CZK_TRY(czk_perf_eventset_parse(&set, c->spec, czk_perf_cpu_this()));
    int go;
    pid_t pid = spawn_held(argv, c->log, c->show_output, &go);
    if (pid < 0) return czk_error(CZK_ERR_IO, "fork: %s", strerror(errno));
    int fd[CZK_PERF_MAX_EVENTS], err[CZK_PERF_MAX_EVENTS], hidden[CZK_PERF_MAX_EVENTS], nhidden = 0;
    if (!c->czk_bench) czk__perf_open_set(fd, err, hidden, &nhidden, &set, c->group, pid, 1);
    struct rusage ru;
    double secs = 0;
    czk_status s = wait_child(pid, go, &ru, &secs, argv, c->log);
    if (!c->czk_bench) {
        int counted = 0;
        for (size_t i = 0; i < set.n; i++) {
            uint64_t v[3] = {0, 0, 0};
            if (fd[i] >= 0 && czk__perf_read(fd[i], v)) v[2] = 0;
            czk__perf_fill_value(&r->v[i], &set.ev[i], fd[i], err[i], (double)v[0], (double)v[1], (double)v[2]);
            counted |= r->v[i].source == CZK_PERF_COUNTED;
            if (fd[i] >= 0) close(fd[i]);
        }
        for (int i = 0; i < nhidden; i++) close(hidden[i]);
        r->n = set.n;
        if (s != CZK_OK) return s;
        r->seconds = secs;
        r->regions = 0;
        r->task_clock_s = (double)ru.ru_utime.tv_sec + 1e-6 * (double)ru.ru_utime.tv_usec +
                          (double)ru.ru_stime.tv_sec + 1e-6 * (double)ru.ru_stime.tv_usec;
        r->page_faults = (double)(ru.ru_minflt + ru.ru_majflt);
        r->ctx_switches = (double)(ru.ru_nvcsw + ru.ru_nivcsw);
        r->max_rss = (double)ru.ru_maxrss * 1024.0;
        r->hw_available = czk_perf_hw_available();
        snprintf(r->backend, sizeof r->backend, "%s", counted ? "perf_event_open (whole process)" : "wait4 rusage (whole process)");
        return CZK_OK;
    }
    if (s != CZK_OK) return s;
    return czk_perf_report_load(r, report);
}

static void empty_dir(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d) return;
    struct dirent *de;
    while ((de = readdir(d)))
        if (de->d_name[0] != '.') {
            char p[1400];
            snprintf(p, sizeof p, "%s/%s", dir, de->d_name);
            unlink(p);
        }
    closedir(d);
}

void czk_perf_sim_job_clear(czk_perf_sim_job *j)
{
    czk_perf_profile_clear(&j->raw);
}

czk_status czk_perf_sim_start(czk_perf_sim_job *j, const czk_perf_child *c, int pass, const char *dir,
                              const czk_perf_geometry *g)
{
    memset(j, 0, sizeof *j);
    j->pid = -1;
    j->go_fd = -1;
    j->pass = pass;
    snprintf(j->dir, sizeof j->dir, "%s", dir);
    if (mkdir(dir, 0700) && errno != EEXIST) return czk_error(CZK_ERR_IO, "%s: cannot create: %s", dir, strerror(errno));
    empty_dir(dir);
    char out[1100], vbuf[1536], report[1100], log[1100], store[4][64];
    snprintf(out, sizeof out, "%s/cg.%s", dir, c->czk_bench ? "out" : "%p");
    snprintf(report, sizeof report, "%s/report.json", dir);
    snprintf(log, sizeof log, "%s/log.txt", dir);
    char *vargv[20];
    size_t vn = czk_perf_sim_argv(vargv, vbuf, pass, g, out, !c->czk_bench, c->region);
    char *argv[MAX_ARGS];
    CZK_TRY(bench_argv(argv, store, c, vn, vargv, report, pass));
    cmd_name(c->argv, j->desc);
    czk_perf_profile_init(&j->raw, CZK_PERF_CG_NCOL, czk_perf_cg_columns);
    pid_t pid = spawn_held(argv, log, 0, &j->go_fd);
    if (pid < 0) return czk_error(CZK_ERR_IO, "fork: %s", strerror(errno));
    j->pid = (int)pid;
    j->t0 = czk_now();
    char ch = 1;
    if (write(j->go_fd, &ch, 1) != 1) {
        czk_perf_sim_kill(j);
        return czk_error(CZK_ERR_IO, "could not start valgrind");
    }
    close(j->go_fd);
    j->go_fd = -1;
    return CZK_OK;
}

void czk_perf_sim_kill(czk_perf_sim_job *j)
{
    if (j->go_fd >= 0) close(j->go_fd);
    j->go_fd = -1;
    if (j->pid > 0) {
        kill((pid_t)j->pid, SIGKILL);
        waitpid((pid_t)j->pid, NULL, 0);
    }
    j->pid = -1;
}

czk_status czk_perf_sim_poll(czk_perf_sim_job *j, int *done)
{
    *done = 0;
    if (j->pid <= 0) return czk_error(CZK_ERR_INVALID_ARG, "simulation pass %d: not running", j->pass);
    int st;
    pid_t w = waitpid((pid_t)j->pid, &st, WNOHANG);
    if (w == 0) return CZK_OK;
    if (w < 0 && errno == EINTR) return CZK_OK;
    j->pid = -1;
    j->seconds = czk_now() - j->t0;
    *done = 1;
    if (w < 0) return czk_error(CZK_ERR_IO, "simulation pass %d of '%s': wait: %s", j->pass, j->desc, strerror(errno));
    if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) {
        if (WIFEXITED(st))
            return czk_error(CZK_ERR_IO, "simulation pass %d (valgrind) of '%s' exited with status %d; its output is in %s/log.txt",
                             j->pass, j->desc, WEXITSTATUS(st), j->dir);
        return czk_error(CZK_ERR_IO, "simulation pass %d (valgrind) of '%s' killed by signal %d; its output is in %s/log.txt",
                         j->pass, j->desc, WTERMSIG(st), j->dir);
    }
    DIR *d = opendir(j->dir);
    if (!d) return czk_error(CZK_ERR_IO, "%s: %s", j->dir, strerror(errno));
    int files = 0;
    czk_status s = CZK_OK;
    struct dirent *de;
    memset(&j->tot, 0, sizeof j->tot);
    while ((de = readdir(d)) && s == CZK_OK)
        if (!strncmp(de->d_name, "cg.", 3)) {
            char p[1400];
            snprintf(p, sizeof p, "%s/%s", j->dir, de->d_name);
            s = czk_perf_cg_parse_profile(&j->tot, &j->raw, p);
            files++;
        }
    closedir(d);
    CZK_TRY(s);
    if (!files) return czk_error(CZK_ERR_IO, "simulation pass %d wrote no callgrind output in %s", j->pass, j->dir);
    return CZK_OK;
}

int czk_perf_cg_repeat(double *spread, const czk_perf_cg_totals *x, int xpass, const czk_perf_cg_totals *y, int ypass)
{
    const double a[] = {x->ir, x->dr, x->dw, x->bc, x->bcm, x->bi, x->bim, x->i1mr, x->d1mr, x->d1mw, x->ilmr, x->dlmr, x->dlmw};
    const double b[] = {y->ir, y->dr, y->dw, y->bc, y->bcm, y->bi, y->bim, y->i1mr, y->d1mr, y->d1mw, y->ilmr, y->dlmr, y->dlmw};
    size_t n = xpass == ypass ? 13 : 10; /* the LL events only within one pass */
    int ok = x->have_cache == y->have_cache && x->have_branch == y->have_branch;
    *spread = 0;
    for (size_t i = 0; i < n; i++) {
        double d = fabs(a[i] - b[i]), m = fmax(a[i], b[i]);
        if (m > 0 && d / m > *spread) *spread = d / m;
        if (d > CZK_PERF_SIM_REPEAT * m + 2) ok = 0;
    }
    return ok;
}

static czk_status run_job(czk_perf_sim_job *j, const czk_perf_child *c, int pass, const czk_perf_geometry *g)
{
    char dir[1024];
    snprintf(dir, sizeof dir, "%s/sim-pass%d", c->tmpdir, pass);
    CZK_TRY(czk_perf_sim_start(j, c, pass, dir, g));
    for (;;) {
        int done;
        czk_status s = czk_perf_sim_poll(j, &done);
        if (s != CZK_OK || done) return s;
        struct timespec ts = {0, 50 * 1000 * 1000};
        nanosleep(&ts, NULL);
    }
}

czk_status czk_perf_child_simulate(czk_perf_report *r, czk_perf_profile *prof, const czk_perf_eventset *set,
                                   const czk_perf_child *c)
{
    unsigned passes = czk_perf_sim_passes(set);
    if (!passes) return CZK_OK;
    if (!czk_perf_valgrind_available())
        return czk_error(CZK_ERR_UNSUPPORTED, "simulated counters need valgrind (not found in PATH; set CZK_VALGRIND)");
    czk_perf_geometry g;
    CZK_TRY(czk_perf_geometry_from_env(&g));
    czk_perf_sim_job job[2];
    int have[2] = {0, 0};
    czk_status s = CZK_OK;
    for (int pass = 1; pass <= 2 && s == CZK_OK; pass++) {
        if (!(passes & (1u << (pass - 1)))) continue;
        have[pass - 1] = 1;
        s = run_job(&job[pass - 1], c, pass, &g);
    }
    if (s == CZK_OK) {
        czk_perf_sim_apply(r, set, have[0] ? &job[0].tot : NULL, have[1] ? &job[1].tot : NULL, &g);
        r->sim_runs = 1;
        if (c->region) snprintf(r->region_fn, sizeof r->region_fn, "%s", c->region);
        if (prof) s = czk_perf_profile_from_sim(prof, set, have[0] ? &job[0].raw : NULL, have[1] ? &job[1].raw : NULL);
    }
    for (int k = 0; k < 2; k++)
        if (have[k]) czk_perf_sim_job_clear(&job[k]);
    return s;
}

/* Sampling period per event: about a thousand samples a second at a few GHz
 * for instructions and cycles, and enough samples of the rarer events. */
static uint64_t sample_period(czk_perf_role r)
{
    return r == CZK_PERF_ROLE_INSTRUCTIONS || r == CZK_PERF_ROLE_CYCLES || r == CZK_PERF_ROLE_RETIRED_OPS ||
                   r == CZK_PERF_ROLE_DISPATCHED_OPS || r == CZK_PERF_ROLE_TD_FRONTEND || r == CZK_PERF_ROLE_TD_BACKEND
               ? 1000003
               : 10007;
}

#define SAMPLE_EVENTS 4
#define RING_PAGES 512 /* data pages (2 MiB): drained every 10 ms */

czk_status czk_perf_child_sample(czk_perf_profile *out, const czk_perf_eventset *set, const czk_perf_child *c)
{
    memset(out, 0, sizeof *out);
    if (!czk_perf_hw_available()) return czk_error(CZK_ERR_UNSUPPORTED, "sampling needs hardware counters (no PMU here)");
    int fd[SAMPLE_EVENTS];
    const char *names[SAMPLE_EVENTS];
    uint64_t ids[SAMPLE_EVENTS], period[SAMPLE_EVENTS];
    size_t nev = 0;
    char report[1024], store[4][64];
    snprintf(report, sizeof report, "%s/report.json", c->tmpdir);
    char *argv[MAX_ARGS];
    czk_perf_child whole = *c;
    whole.czk_bench = 0; /* sampled from outside: the whole process */
    CZK_TRY(bench_argv(argv, store, &whole, 0, NULL, report, 0));
    int go;
    pid_t pid = spawn_held(argv, c->log, 0, &go);
    if (pid < 0) return czk_error(CZK_ERR_IO, "fork: %s", strerror(errno));
    size_t page = (size_t)sysconf(_SC_PAGESIZE), data = RING_PAGES * page;
    void *ring = MAP_FAILED;
    czk_status st = CZK_OK;
    for (size_t i = 0; i < set->n && nev < SAMPLE_EVENTS; i++) {
        const czk_perf_event *e = &set->ev[i];
        if (!e->has_hw || e->type == PERF_TYPE_SOFTWARE) continue;
        struct perf_event_attr a;
        czk__perf_attr(&a, e);
        a.sample_period = sample_period(e->role);
        a.sample_type = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_PERIOD;
        a.disabled = 1;
        a.enable_on_exec = 1;
        if (!nev) a.mmap = a.mmap2 = a.comm = a.task = 1;
        int f = (int)syscall(SYS_perf_event_open, &a, pid, -1, -1, PERF_FLAG_FD_CLOEXEC);
        if (f < 0) continue; /* this event cannot sample here: the others still can */
        if (!nev) {
            ring = mmap(NULL, page + data, PROT_READ | PROT_WRITE, MAP_SHARED, f, 0);
            if (ring == MAP_FAILED) {
                close(f);
                st = czk_error(CZK_ERR_IO, "sampling: mmap of the ring buffer: %s", strerror(errno));
                break;
            }
        } else if (ioctl(f, PERF_EVENT_IOC_SET_OUTPUT, fd[0])) {
            close(f);
            continue;
        }
        if (ioctl(f, PERF_EVENT_IOC_ID, &ids[nev])) {
            close(f);
            continue;
        }
        names[nev] = e->name;
        period[nev] = a.sample_period;
        fd[nev++] = f;
    }
    if (st == CZK_OK && !nev) st = czk_error(CZK_ERR_UNSUPPORTED, "sampling: no event of the set can sample here");
    czk_perf_sampler *smp = NULL;
    if (st == CZK_OK) st = czk_perf_sampler_create(&smp, nev, names, ids, c->region);
    if (st != CZK_OK) {
        close(go);
        kill(pid, SIGKILL);
        waitpid(pid, NULL, 0);
    } else {
        char ch = 1;
        if (write(go, &ch, 1) != 1) st = czk_error(CZK_ERR_IO, "could not start child process");
        close(go);
        int wst = 0;
        for (;;) {
            czk_perf_sampler_drain(smp, ring, data);
            pid_t w = waitpid(pid, &wst, WNOHANG);
            if (w == pid || (w < 0 && errno != EINTR)) break;
            struct timespec ts = {0, 10 * 1000 * 1000};
            nanosleep(&ts, NULL);
        }
        czk_perf_sampler_drain(smp, ring, data);
        char nb[160];
        if (st == CZK_OK && (!WIFEXITED(wst) || WEXITSTATUS(wst)))
            st = czk_error(CZK_ERR_IO, "'%s' (sampled run) failed%s%s", cmd_name(argv, nb), c->log ? "; its output is in " : "",
                           c->log ? c->log : "");
        uint64_t ns, lost, unres;
        if (st == CZK_OK) st = czk_perf_sampler_profile(smp, out, &ns, &lost, &unres);
        if (st == CZK_OK)
            snprintf(out->source, sizeof out->source, "sampled (perf_event_open): %llu samples, %llu lost, %llu unresolved",
                     (unsigned long long)ns, (unsigned long long)lost, (unsigned long long)unres);
        for (size_t i = 0; i < nev && st == CZK_OK; i++)
            snprintf(out->how[i], sizeof out->how[i], "samples x period (1 per %llu events)",
                     (unsigned long long)period[i]);
    }
    czk_perf_sampler_destroy(smp);
    if (ring != MAP_FAILED) munmap(ring, page + data);
    for (size_t i = 0; i < nev; i++) close(fd[i]);
    return st;
}
