/* czk serve: the proving daemon (docs/serve.md). The configuration file,
 * then the flags over it; a proving service (czk/service.h) behind the
 * cuzk.v1.ProvingEngine gRPC server and the optional HTTP status server
 * (server/server.h); SIGINT / SIGTERM stop it cleanly. */
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <jansson.h>

#include "cli.h"
#include "czk/filecoin.h"
#include "server/server.h"
#include "czk/service.h"

static const char usage[] =
    "usage: czk serve [-c czk.toml] [--listen ADDR] [--status-listen HOST:PORT] [--param-cache DIR]\n"
    "                 [--memory SIZE] [--threads N] [--pce on|off|auto] [--params-check pinned|full|curve]\n"
    "                 [--retention SECONDS] [--cancel-on-shutdown] [--background-nice N]\n"
    "                 [--stream-params auto|always|never]\n"
    "                 [--log-level LEVEL] [--log-format text|json]\n"
    "                 [--tls-cert FILE --tls-key FILE --tls-client-ca FILE]\n\n"
    "The proving daemon: cuzk.v1.ProvingEngine over gRPC (what Curio's cuzk client\n"
    "speaks), with parameters and PCE matrices kept loaded between jobs.\n"
    "-c FILE: a czk.toml / cuzk.toml (docs/serve.md); the flags override it.\n"
    "--listen ADDR: host:port (port 0: any free port) or unix:///path (default\n"
    "unix:///run/czk/czk.sock; a stale socket is removed, the directory made, mode 0660).\n"
    "--status-listen HOST:PORT: HTTP GET /status (JSON) and GET /metrics (Prometheus).\n"
    "--param-cache DIR: Filecoin's v28 parameter files (default $FIL_PROOFS_PARAMETER_CACHE,\n"
    "else /var/tmp/filecoin-proof-parameters). --memory SIZE: the memory budget (default:\n"
    "MemTotal, or a smaller cgroup limit, less 5GiB). --retention: seconds a finished\n"
    "result is kept (default 600). At start it removes the temporary files of writers\n"
    "that died in the parameter cache and czk's cache directory (the log says how many).\n"
    "--params-check: how parameter files are validated when loaded (default pinned:\n"
    "the checksum sidecar, else a full check once). --stream-params: parameters that do\n"
    "not fit the memory budget beside a partition stay on disk and each prover pass\n"
    "streams them (auto, the default), always, or never (such jobs fail).\n"
    "--cancel-on-shutdown: SIGINT/SIGTERM\n"
    "cancel running jobs instead of letting them finish.\n"
    "--background-nice N: beside the critical lane, the other workers lower their own\n"
    "priority by N nice levels (0 to 19; default 10; 0: not at all), so that a\n"
    "WinningPoSt gets most of the cores while a PoRep partition is being proven.\n"
    "Once serving it prints 'listening on ADDR' lines to stderr; SIGINT or SIGTERM\n"
    "refuses new jobs, finishes (or cancels) running ones and exits 0; a second\n"
    "signal cancels the ones still running.\n";

enum {
    OPT_CONFIG = 'c',
    OPT_LISTEN = CZK_OPT_FIRST_FREE,
    OPT_STATUS,
    OPT_PARAM_CACHE,
    OPT_MEMORY,
    OPT_PCE,
    OPT_CHECK,
    OPT_RETENTION,
    OPT_CANCEL,
    OPT_BG_NICE,
    OPT_LOG_LEVEL,
    OPT_LOG_FORMAT,
    OPT_TLS_CERT,
    OPT_TLS_KEY,
    OPT_TLS_CA,
    OPT_STREAM,
};

/* Flags as given, applied over the file afterwards. */
typedef struct args {
    const char *config, *listen, *status, *param_cache, *tls_cert, *tls_key, *tls_ca;
    unsigned long long memory;
    int pce_set, check_set, cancel, log_level_set, log_format_set, log_json, bg_nice; /* bg_nice: -1 unset */
    int stream_set, stream;
    czk_pce_mode pce;
    czk_groth16_check check;
    double retention;
    czk_log_level log_level;
} args;

static int on_opt(void *ctx, int opt, const char *arg)
{
    args *a = ctx;
    switch (opt) {
    case OPT_CONFIG: a->config = arg; return 0;
    case OPT_LISTEN: a->listen = arg; return 0;
    case OPT_STATUS: a->status = arg; return 0;
    case OPT_PARAM_CACHE: a->param_cache = arg; return 0;
    case OPT_TLS_CERT: a->tls_cert = arg; return 0;
    case OPT_TLS_KEY: a->tls_key = arg; return 0;
    case OPT_TLS_CA: a->tls_ca = arg; return 0;
    case OPT_CANCEL: a->cancel = 1; return 0;
    case OPT_BG_NICE:
    {
        char *end;
        long v = strtol(arg, &end, 10);
        if (end == arg || *end || v < 0 || v > 19)
            return czk_cli_usage_error("serve", usage, "--background-nice wants 0 to 19, got '%s'", arg);
        a->bg_nice = (int)v;
        return 0;
    }
    case OPT_STREAM:
        if (!strcmp(arg, "auto")) a->stream = 0;
        else if (!strcmp(arg, "always")) a->stream = 1;
        else if (!strcmp(arg, "never")) a->stream = -1;
        else return czk_cli_usage_error("serve", usage, "--stream-params wants auto, always or never, got '%s'", arg);
        a->stream_set = 1;
        return 0;
    case OPT_MEMORY:
        if (czk_cli_parse_size(arg, &a->memory) || a->memory == 0)
            return czk_cli_usage_error("serve", usage, "--memory wants a size such as 64GiB, got '%s'", arg);
        return 0;
    case OPT_PCE:
        if (czk_pce_mode_parse(&a->pce, arg) != CZK_OK)
            return czk_cli_usage_error("serve", usage, "--pce wants on, off or auto, got '%s'", arg);
        a->pce_set = 1;
        return 0;
    case OPT_CHECK:
        if (czk_groth16_check_parse(&a->check, arg) != CZK_OK)
            return czk_cli_usage_error("serve", usage, "--params-check wants pinned, full or curve, got '%s'", arg);
        a->check_set = 1;
        return 0;
    case OPT_RETENTION:
    {
        char *end;
        a->retention = strtod(arg, &end);
        if (end == arg || *end || !(a->retention > 0) || a->retention > 315360000.0)
            return czk_cli_usage_error("serve", usage, "--retention wants seconds (> 0), got '%s'", arg);
        return 0;
    }
    case OPT_LOG_LEVEL:
    {
        static const char *const names[] = {"error", "warn", "info", "debug"};
        for (int i = 0; i < 4; i++)
            if (!strcmp(arg, names[i])) {
                a->log_level = (czk_log_level)i;
                a->log_level_set = 1;
                return 0;
            }
        return czk_cli_usage_error("serve", usage, "--log-level wants error, warn, info or debug, got '%s'", arg);
    }
    case OPT_LOG_FORMAT:
        if (strcmp(arg, "text") && strcmp(arg, "json"))
            return czk_cli_usage_error("serve", usage, "--log-format wants text or json, got '%s'", arg);
        a->log_json = !strcmp(arg, "json");
        a->log_format_set = 1;
        return 0;
    }
    return czk_cli_usage_error("serve", usage, "unexpected option");
}

/* ---- the log ---------------------------------------------------------------------- */

typedef struct serve_log {
    pthread_mutex_t mu;
    czk_log_level level;
    int json;
} serve_log;

static const char *const level_names[] = {"error", "warn", "info", "debug"};

static void log_line(void *ctx, czk_log_level level, const char *job, const char *msg)
{
    serve_log *l = ctx;
    if (level > l->level) return;
    pthread_mutex_lock(&l->mu);
    if (l->json) {
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        struct tm tm;
        gmtime_r(&ts.tv_sec, &tm);
        char when[96];
        snprintf(when, sizeof when, "%04d-%02d-%02dT%02d:%02d:%02d.%03ldZ", tm.tm_year + 1900, tm.tm_mon + 1,
                 tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec, (long)(ts.tv_nsec / 1000000) % 1000);
        json_t *o = json_pack("{s:s, s:s, s:s?, s:s}", "ts", when, "level", level_names[level], "job", job, "msg", msg);
        char *text = o ? json_dumps(o, JSON_COMPACT) : NULL;
        if (text) fprintf(stderr, "%s\n", text);
        else /* not UTF-8 (a cut multibyte character): the line as text rather than nothing */
            fprintf(stderr, "czk serve: %s: %s%s%s%s\n", level_names[level], job ? "[" : "", job ? job : "",
                    job ? "] " : "", msg);
        free(text);
        json_decref(o);
    } else if (job) {
        fprintf(stderr, "czk serve: %s: [%s] %s\n", level_names[level], job, msg);
    } else {
        fprintf(stderr, "czk serve: %s: %s\n", level_names[level], msg);
    }
    fflush(stderr);
    pthread_mutex_unlock(&l->mu);
}

static void logf_(serve_log *l, czk_log_level level, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void logf_(serve_log *l, czk_log_level level, const char *fmt, ...)
{
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    log_line(l, level, NULL, msg);
}

static void config_warning(void *ctx, const char *msg) { log_line(ctx, CZK_LOG_WARN, NULL, msg); }

/* The temporary files of writers that died (a killed setup, PCE build or
 * daemon) in dir, removed and counted in the log. */
static void reclaim_temps(serve_log *log, const char *what, const char *dir)
{
    uint64_t files = 0, bytes = 0;
    if (czk_reclaim_temps(dir, &files, &bytes) != CZK_OK)
        logf_(log, CZK_LOG_WARN, "%s %s: %s", what, dir, czk_last_error());
    else
        logf_(log, CZK_LOG_INFO, "%s %s: reclaimed %llu dead writers' temporary files (%llu bytes)", what, dir,
              (unsigned long long)files, (unsigned long long)bytes);
}

/* ---- the daemon ------------------------------------------------------------------- */

typedef struct shutdown_arg {
    czk_service *svc;
    int cancel;
    int done;
} shutdown_arg;

static void *shutdown_main(void *p)
{
    shutdown_arg *a = p;
    czk_service_shutdown(a->svc, a->cancel);
    __atomic_store_n(&a->done, 1, __ATOMIC_RELEASE);
    return NULL;
}

static void apply_flags(czk_serve_config *c, const args *a)
{
    /* the strings are the config's to free */
#define SETS(field, v)                                                                  \
    do {                                                                                \
        if (v) {                                                                        \
            free(c->field);                                                             \
            c->field = strdup(v);                                                       \
        }                                                                               \
    } while (0)
    SETS(listen, a->listen);
    SETS(status_listen, a->status);
    SETS(param_cache, a->param_cache);
    SETS(tls_cert, a->tls_cert);
    SETS(tls_key, a->tls_key);
    SETS(tls_client_ca, a->tls_ca);
#undef SETS
    if (a->memory) c->memory_total = a->memory;
    if (a->pce_set) c->pce = a->pce;
    if (a->stream_set) c->stream_params = a->stream;
    if (a->retention > 0) c->retention_s = a->retention;
    if (a->cancel) c->cancel_on_shutdown = 1;
    if (a->bg_nice >= 0) c->background_nice = a->bg_nice;
    if (a->log_level_set) c->log_level = a->log_level;
    if (a->log_format_set) c->log_json = a->log_json;
}

static int run(int argc, char **argv)
{
    args a;
    memset(&a, 0, sizeof a);
    a.bg_nice = -1;
    czk_cli_common common;
    static const struct option opts[] = {{"config", required_argument, 0, OPT_CONFIG},
                                         {"listen", required_argument, 0, OPT_LISTEN},
                                         {"status-listen", required_argument, 0, OPT_STATUS},
                                         {"param-cache", required_argument, 0, OPT_PARAM_CACHE},
                                         {"memory", required_argument, 0, OPT_MEMORY},
                                         {"pce", required_argument, 0, OPT_PCE},
                                         {"params-check", required_argument, 0, OPT_CHECK},
                                         {"retention", required_argument, 0, OPT_RETENTION},
                                         {"cancel-on-shutdown", no_argument, 0, OPT_CANCEL},
                                         {"background-nice", required_argument, 0, OPT_BG_NICE},
                                         {"log-level", required_argument, 0, OPT_LOG_LEVEL},
                                         {"log-format", required_argument, 0, OPT_LOG_FORMAT},
                                         {"tls-cert", required_argument, 0, OPT_TLS_CERT},
                                         {"tls-key", required_argument, 0, OPT_TLS_KEY},
                                         {"tls-client-ca", required_argument, 0, OPT_TLS_CA},
                                         {"stream-params", required_argument, 0, OPT_STREAM},
                                         {0, 0, 0, 0}};
    int rc = czk_cli_parse(argc, argv, "serve", usage, opts, &a, on_opt, &common, NULL);
    if (rc != CZK_CLI_CONTINUE) return rc;
    czk_cli_apply_common(&common);

    serve_log log = {.level = CZK_LOG_INFO};
    pthread_mutex_init(&log.mu, NULL);
    czk_serve_config cfg;
    czk_serve_config_init(&cfg);
    if (a.config) {
        czk_status s = czk_serve_config_load(&cfg, a.config, config_warning, &log);
        if (s != CZK_OK) {
            fprintf(stderr, "czk serve: %s\n", czk_last_error());
            czk_serve_config_clear(&cfg);
            return CZK_EXIT_FAIL;
        }
    }
    apply_flags(&cfg, &a);
    if (common.threads) cfg.threads = common.threads;
    log.level = cfg.log_level;
    log.json = cfg.log_json;

    /* Every thread the service and gRPC start inherits this mask: the
     * signals come to sigwait below, and nowhere else. */
    sigset_t stop_signals;
    sigemptyset(&stop_signals);
    sigaddset(&stop_signals, SIGINT);
    sigaddset(&stop_signals, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &stop_signals, NULL);
    signal(SIGPIPE, SIG_IGN);

    czk_service_opts so;
    czk_serve_config_service_opts(&cfg, &so);
    so.log = log_line;
    so.log_ctx = &log;
    if (a.check_set) {
        so.params_check_set = 1;
        so.params_check = a.check;
    }
    reclaim_temps(&log, "parameter cache", so.param_cache ? so.param_cache : czk_fc_param_cache_dir());
    char cache_dir[1024];
    if (czk_cache_dir(cache_dir, sizeof cache_dir) == CZK_OK) reclaim_temps(&log, "cache directory", cache_dir);
    czk_memory_info mem;
    czk_memory_probe(&mem);
    czk_service *svc = NULL;
    czk_server *srv = NULL;
    czk_http *http = NULL;
    int code = CZK_EXIT_FAIL;
    czk_status s = czk_service_create(&svc, &so);
    if (s != CZK_OK) {
        logf_(&log, CZK_LOG_ERROR, "starting the proving service: %s", czk_last_error());
        goto out;
    }
    czk_server_opts gro = {.listen = cfg.listen, .tls_cert = cfg.tls_cert, .tls_key = cfg.tls_key,
                           .tls_client_ca = cfg.tls_client_ca, .log = log_line, .log_ctx = &log};
    s = czk_server_start(&srv, svc, &gro);
    if (s != CZK_OK) {
        logf_(&log, CZK_LOG_ERROR, "gRPC on %s: %s", cfg.listen, czk_last_error());
        goto out;
    }
    if (cfg.status_listen) {
        s = czk_http_start(&http, svc, cfg.status_listen);
        if (s != CZK_OK) {
            logf_(&log, CZK_LOG_ERROR, "HTTP on %s: %s", cfg.status_listen, czk_last_error());
            goto out;
        }
        char host[256];
        snprintf(host, sizeof host, "%s", cfg.status_listen);
        char *colon = strrchr(host, ':');
        if (colon) *colon = 0;
        logf_(&log, CZK_LOG_INFO, "HTTP (/status, /metrics) listening on %s:%d", host, czk_http_port(http));
    }
    logf_(&log, CZK_LOG_INFO, "listening on %s (memory budget %.1f GiB%s of a %.1f GiB limit from %s, %s, "
          "parameters in %s)",
          czk_server_address(srv), (double)so.memory_budget / (1u << 30), cfg.memory_total ? " as set" : "",
          (double)mem.limit / (1u << 30), mem.source,
          cfg.cancel_on_shutdown ? "SIGTERM cancels running jobs" : "SIGTERM lets running jobs finish",
          so.param_cache ? so.param_cache : czk_fc_param_cache_dir());

    int sig = 0;
    sigwait(&stop_signals, &sig);
    logf_(&log, CZK_LOG_INFO, "%s: refusing new jobs, %s", sig == SIGINT ? "SIGINT" : "SIGTERM",
          cfg.cancel_on_shutdown ? "cancelling running ones"
                                 : "waiting for running ones to finish (a second signal cancels them)");
    /* the service first: waiting calls get their jobs' results. It stops
     * in a thread of its own, so that a second signal can cancel. */
    shutdown_arg sa = {.svc = svc, .cancel = cfg.cancel_on_shutdown};
    pthread_t st_thread;
    if (pthread_create(&st_thread, NULL, shutdown_main, &sa) != 0) {
        czk_service_shutdown(svc, 1);
    } else {
        int cancelled = cfg.cancel_on_shutdown;
        const struct timespec tick = {0, 100 * 1000 * 1000};
        while (!__atomic_load_n(&sa.done, __ATOMIC_ACQUIRE)) {
            if (sigtimedwait(&stop_signals, NULL, &tick) > 0 && !cancelled) {
                logf_(&log, CZK_LOG_INFO, "second signal: cancelling the running jobs");
                czk_service_shutdown(svc, 1);
                cancelled = 1;
            }
        }
        pthread_join(st_thread, NULL);
    }
    code = CZK_EXIT_OK;
out:
    czk_server_stop(srv);
    czk_http_stop(http);
    czk_service_destroy(svc);
    if (code == CZK_EXIT_OK) logf_(&log, CZK_LOG_INFO, "stopped");
    czk_serve_config_clear(&cfg);
    pthread_mutex_destroy(&log.mu);
    return code;
}

CZK_CLI_COMMAND(serve, "run the proving daemon (cuzk.v1.ProvingEngine over gRPC) for Curio", run)
