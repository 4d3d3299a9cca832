/* czk — `czk serve`'s front ends over a proving service (czk/service.h):
 * the cuzk.v1.ProvingEngine gRPC server and client (C++ inside, generated
 * by protoc from proto/cuzk/v1/proving.proto; this C API outside), the
 * HTTP status server (GET /status, GET /metrics), and the daemon's
 * configuration file (cuzk's TOML keys).
 *
 * Part of the czk program only (the static library czk_server, over
 * gRPC, protobuf, libmicrohttpd and toml++, which scripts/install-deps
 * installs): libczk does not depend on them, and this header is not
 * installed with include/czk/.
 */
#ifndef CZK_SERVER_SERVER_H
#define CZK_SERVER_SERVER_H

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
    int queue_depth;       /* [pipeline] slot_size: witnesses synthesized ahead of the provers; 0: default */
    int batch;             /* [scheduler] max_batch_size; default 1 */
    int critical_lane;     /* [scheduler] critical_lane (czk's): CRITICAL jobs get the engine's urgent lane; default 1 */
    int background_nice;   /* [scheduler] background_nice (czk's): with the lane, the regular workers' nice
                              increment (0..19); default 10 */
    double batch_wait_s;   /* [scheduler] max_batch_wait_ms / 1000 */
    czk_pce_mode pce;      /* [pipeline] pce (czk's): "on", "off", "auto"; default auto */
    int stream_params;     /* [srs] stream_params (czk's): "auto" 0 (default), "always" 1, "never" -1 */
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

/* A client of a cuzk.v1.ProvingEngine daemon (czk serve, or cuzk). Every
 * call is one RPC; a failed one returns a status mapped from its gRPC code
 * (UNAVAILABLE and DEADLINE_EXCEEDED: CZK_ERR_UNAVAILABLE; NOT_FOUND:
 * CZK_ERR_NOT_FOUND; INVALID_ARGUMENT: CZK_ERR_INVALID_ARG;
 * RESOURCE_EXHAUSTED: CZK_ERR_NOMEM; CANCELLED: CZK_ERR_CANCELLED; any
 * other: CZK_ERR_IO) with the message "CODE_NAME: <the server's message>"
 * (e.g. "INVALID_ARGUMENT: vanilla_proof: ..."). The wire's enums have
 * service.h's numbers. A client may be used by several threads at once. */
typedef struct czk_client czk_client;

typedef struct czk_client_opts {
    /* "host:port", "unix:///path", or any other gRPC target, passed on as it
     * is; or a comma-separated list of IPv4 "a.b.c.d:port" addresses, called
     * round robin (gRPC's ipv4: resolver; other lists are refused). */
    const char *addr;
    /* PEM files. tls_ca alone: TLS checking the server against it; with
     * tls_cert and tls_key (both or neither): mutual TLS. None: plaintext. */
    const char *tls_ca, *tls_cert, *tls_key;
    double deadline_s; /* every call's deadline in seconds; 0: none */
} czk_client_opts;

/* Make the channel: no connection is attempted until the first call.
 * Errors: CZK_ERR_INVALID_ARG (no address, a bad list, tls_cert without
 * tls_key), CZK_ERR_IO (a PEM file that cannot be read). */
czk_status czk_client_open(czk_client **out, const czk_client_opts *o) CZK_WUR;
/* NULL is fine. */
void czk_client_close(czk_client *c);

/* SubmitProof. out->attached is always 0 (the wire does not say). */
czk_status czk_client_submit(czk_client *c, const czk_svc_request *r, czk_svc_submitted *out) CZK_WUR;
/* AwaitProof: wait up to timeout_ms (0: as long as the server lets it,
 * the wire's meaning). The job's own outcome is out->status (COMPLETED,
 * FAILED, CANCELLED, TIMEOUT): CZK_OK says only that the call worked.
 * out->proof is malloc'd (czk_svc_result_clear). */
czk_status czk_client_await(czk_client *c, const char *job_id, uint64_t timeout_ms, czk_svc_result *out) CZK_WUR;
/* Prove: submit and await in one call (what Curio calls), as above. */
czk_status czk_client_prove(czk_client *c, const czk_svc_request *r, czk_svc_result *out) CZK_WUR;
czk_status czk_client_cancel(czk_client *c, const char *job_id, int *was_running) CZK_WUR;
/* GetStatus into out (czk_svc_status_clear): the queues of the four kinds
 * (the wire's proof_kind strings are the metric labels: porep_c2, ...; the
 * enum names POREP_SEAL_COMMIT, ... are read too), loaded_srs into srs
 * (pce_bytes and idle_s 0), total_proofs_completed / _failed into
 * completed / failed, uptime_seconds into uptime_s, pinned_memory_bytes
 * and pinned_memory_limit_bytes into memory_reserved and memory_limit.
 * What the wire does not carry is 0. */
czk_status czk_client_status(czk_client *c, czk_svc_status *out) CZK_WUR;
/* GetMetrics: the Prometheus text, malloc'd and NUL-terminated. */
czk_status czk_client_metrics(czk_client *c, char **text) CZK_WUR;
czk_status czk_client_preload(czk_client *c, const char *circuit_id, int *already, uint64_t *ms) CZK_WUR;
czk_status czk_client_evict(czk_client *c, const char *circuit_id, int *was_loaded, uint64_t *freed) CZK_WUR;

/* The gRPC status code (google.rpc.Code numbers: UNAVAILABLE 14, ...) of
 * this thread's last czk_client_* call; 0 when it succeeded or failed
 * before any RPC. */
int czk_client_last_grpc_code(void);

#ifdef __cplusplus
}
#endif
#endif
