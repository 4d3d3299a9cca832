/* czk — `czk serve`'s front ends over a proving service (czk/service.h):
 * the cuzk.v1.ProvingEngine gRPC server and client (C++ inside, generated
 * by protoc from proto/cuzk/v1/proving.proto; this C API outside), the
 * HTTP status server (GET /status, GET /metrics), and the daemon's
 * configuration file (cuzk's TOML keys).
 *
 * Built only when gRPC, protobuf, libmicrohttpd and toml++ are present
 * (scripts/install-deps installs them); the library libczk does not
 * depend on them.
 */
#ifndef CZK_SERVER_H
#define CZK_SERVER_H

#include <stddef.h>
#include <stdint.h>

#include "czk/common.h"
#include "czk/service.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Largest gRPC message either way (256 MiB, as Curio's client). */
#define CZK_SERVER_MAX_MESSAGE (256u << 20)

/* ---- configuration ------------------------------------------------------------ */

/* What czk.toml (cuzk's keys, docs/serve.md) and the command line set.
 * Strings are owned by the struct (czk_serve_config_clear frees them). */
typedef struct czk_serve_config {
    char *listen;          /* [daemon] listen: "host:port" or "unix:///path"; default unix:///run/czk/czk.sock */
    char *status_listen;   /* [daemon] status_listen: "host:port" for HTTP; NULL: none */
    char *param_cache;     /* [srs] param_cache; NULL: czk_fc_param_cache_dir() */
    uint64_t memory_total; /* [memory] total_budget bytes; 0: "auto" (MemTotal - safety_margin) */
    uint64_t safety_margin;/* [memory] safety_margin; default 5 GiB */
    double eviction_min_idle_s; /* [memory] eviction_min_idle; default 300 */
    double retention_s;    /* [daemon] result_retention (czk's); default 600 */
    int threads;           /* [synthesis] threads; 0: all cores */
    int synth_workers;     /* [pipeline] synthesis_concurrency; 0: default */
    int batch;             /* [scheduler] max_batch_size; default 1 */
    double batch_wait_s;   /* [scheduler] max_batch_wait_ms / 1000 */
    czk_pce_mode pce;      /* [pipeline] pce (czk's): "on", "off", "auto"; default auto */
    czk_log_level log_level; /* [logging] level; default info */
    int log_json;          /* [logging] format = "json" (czk's) */
    char *tls_cert, *tls_key, *tls_client_ca; /* [daemon] tls_* (czk's): mutual TLS when all three are set */
    int cancel_on_shutdown; /* [daemon] cancel_on_shutdown (czk's): SIGTERM cancels running jobs */
} czk_serve_config;

/* Defaults (as above). */
void czk_serve_config_init(czk_serve_config *c);
/* Read a TOML file over c. Unknown sections or keys are CZK_ERR_FORMAT
 * naming the key and line; a wrong type or a bad size / duration likewise.
 * Deprecated or ignored cuzk keys (the [gpus] section, ...) are accepted
 * and each produces one warning line through warn (may be NULL). */
czk_status czk_serve_config_load(czk_serve_config *c, const char *path,
                                 void (*warn)(void *ctx, const char *msg), void *ctx) CZK_WUR;
void czk_serve_config_clear(czk_serve_config *c);
/* The service options the configuration gives (borrowing c's strings). */
void czk_serve_config_service_opts(const czk_serve_config *c, czk_service_opts *out);

/* ---- gRPC server ------------------------------------------------------------------ */

typedef struct czk_server czk_server;

typedef struct czk_server_opts {
    const char *listen;         /* "host:port" or "unix:///path" (stale socket removed, parent made, mode 0660) */
    const char *tls_cert, *tls_key, *tls_client_ca; /* PEM files: mutual TLS when all set; else plaintext */
    czk_log_fn log;             /* warnings (plaintext on a non-loopback address) and errors */
    void *log_ctx;
} czk_server_opts;

/* Serve svc (borrowed until czk_server_stop returns) on opts->listen. The
 * address actually bound (port 0 resolved) is in czk_server_address. */
czk_status czk_server_start(czk_server **out, czk_service *svc, const czk_server_opts *opts) CZK_WUR;
const char *czk_server_address(const czk_server *srv);
/* Stop accepting, end in-flight calls (waiting ones return UNAVAILABLE),
 * free. NULL is fine. */
void czk_server_stop(czk_server *srv);

/* ---- HTTP status server ----------------------------------------------------------- */

typedef struct czk_http czk_http;
/* GET /status (czk_service_status_json) and GET /metrics
 * (czk_service_metrics) on "host:port"; anything else 404. */
czk_status czk_http_start(czk_http **out, czk_service *svc, const char *listen) CZK_WUR;
/* The port bound (when listen asked for port 0). */
int czk_http_port(const czk_http *h);
void czk_http_stop(czk_http *h);

/* ---- gRPC client (czk client) ----------------------------------------------------- */

/* Run one `czk client` subcommand (argv[0] is the subcommand: prove,
 * submit, await, cancel, status, metrics, preload, evict); returns the
 * process exit code. */
int czk_client_main(int argc, char **argv);

#ifdef __cplusplus
}
#endif
#endif
