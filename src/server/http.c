/* czk serve's HTTP status server (server/server.h): GET /status and GET
 * /metrics over libmicrohttpd, one internal polling thread.
 *
 * The listening socket is made here rather than by libmicrohttpd, so that
 * a bind failure is reported with its address and errno, and port 0 can
 * be read back; libmicrohttpd takes it over (MHD_OPTION_LISTEN_SOCKET) and
 * closes it in MHD_stop_daemon. Hosts are IP literals ("127.0.0.1",
 * "[::1]", "0.0.0.0", "[::]") or "localhost" (127.0.0.1): nothing is
 * looked up in DNS.
 *
 * Without a service (svc NULL: tests of the HTTP layer alone) /status and
 * /metrics answer 503; a service that is shutting down (CZK_ERR_UNAVAILABLE)
 * likewise, any other service error 500 with its message.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <microhttpd.h>

#include "czk/czk.h"
#include "server/server.h"

#define HTTP_CONNECTION_LIMIT 64 /* concurrent clients: Prometheus and a few curls */
#define HTTP_TIMEOUT_S 10        /* an idle connection is closed after this */

struct czk_http {
    struct MHD_Daemon *d;
    czk_service *svc;
    int port;
};

/* ---- the address ---------------------------------------------------------------- */

/* "host:port" -> a socket address. The port is decimal 0..65535; the host
 * an IPv4 literal, a bracketed IPv6 literal or "localhost". */
static czk_status parse_listen(struct sockaddr_storage *ss, socklen_t *len, const char *listen)
{
    const char *colon = listen ? strrchr(listen, ':') : NULL;
    if (!colon || colon == listen)
        return czk_error(CZK_ERR_INVALID_ARG, "HTTP status address '%s': expected host:port",
                         listen ? listen : "(null)");
    char *end;
    errno = 0;
    unsigned long port = strtoul(colon + 1, &end, 10);
    if (colon[1] < '0' || colon[1] > '9' || *end || errno || port > 65535)
        return czk_error(CZK_ERR_INVALID_ARG, "HTTP status address '%s': bad port '%s'", listen, colon + 1);
    char host[INET6_ADDRSTRLEN + 2];
    size_t hlen = (size_t)(colon - listen);
    if (hlen >= sizeof host) return czk_error(CZK_ERR_INVALID_ARG, "HTTP status address '%s': host too long", listen);
    memcpy(host, listen, hlen);
    host[hlen] = 0;
    memset(ss, 0, sizeof *ss);
    if (host[0] == '[' && host[hlen - 1] == ']') {
        struct sockaddr_in6 *a6 = (struct sockaddr_in6 *)ss;
        host[hlen - 1] = 0;
        if (inet_pton(AF_INET6, host + 1, &a6->sin6_addr) != 1)
            return czk_error(CZK_ERR_INVALID_ARG, "HTTP status address '%s': bad IPv6 address '%s'", listen, host + 1);
        a6->sin6_family = AF_INET6;
        a6->sin6_port = htons((uint16_t)port);
        *len = sizeof *a6;
        return CZK_OK;
    }
    struct sockaddr_in *a4 = (struct sockaddr_in *)ss;
    if (!strcmp(host, "localhost")) strcpy(host, "127.0.0.1");
    if (inet_pton(AF_INET, host, &a4->sin_addr) != 1)
        return czk_error(CZK_ERR_INVALID_ARG,
                         "HTTP status address '%s': host '%s' is not an IPv4 address, [IPv6] address or localhost",
                         listen, host);
    a4->sin_family = AF_INET;
    a4->sin_port = htons((uint16_t)port);
    *len = sizeof *a4;
    return CZK_OK;
}

/* A listening TCP socket on the address; *port is the one bound. */
static czk_status listen_socket(int *fd_out, int *port, const char *addr)
{
    struct sockaddr_storage ss;
    socklen_t len;
    CZK_TRY(parse_listen(&ss, &len, addr));
    int fd = socket(ss.ss_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0) return czk_error(CZK_ERR_IO, "HTTP status server: socket: %s", strerror(errno));
    int one = 1;
    (void)setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one); /* restart over TIME_WAIT */
    if (ss.ss_family == AF_INET6) (void)setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &one, sizeof one);
    if (bind(fd, (struct sockaddr *)&ss, len) != 0 || listen(fd, 64) != 0) {
        int e = errno;
        close(fd);
        return czk_error(CZK_ERR_IO, "HTTP status server: cannot listen on %s: %s (errno %d)", addr, strerror(e), e);
    }
    if (getsockname(fd, (struct sockaddr *)&ss, &len) != 0) {
        int e = errno;
        close(fd);
        return czk_error(CZK_ERR_IO, "HTTP status server: getsockname on %s: %s", addr, strerror(e));
    }
    *port = ntohs(ss.ss_family == AF_INET6 ? ((struct sockaddr_in6 *)&ss)->sin6_port
                                           : ((struct sockaddr_in *)&ss)->sin_port);
    *fd_out = fd;
    return CZK_OK;
}

/* ---- requests ---------------------------------------------------------------------- */

/* Queue a response with the body (taken: freed by libmicrohttpd) and its
 * content type. */
static enum MHD_Result respond(struct MHD_Connection *conn, unsigned code, char *body, const char *type,
                               const char *allow)
{
    struct MHD_Response *r = MHD_create_response_from_buffer(strlen(body), body, MHD_RESPMEM_MUST_FREE);
    if (!r) {
        free(body);
        return MHD_NO;
    }
    MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, type);
    MHD_add_response_header(r, MHD_HTTP_HEADER_CACHE_CONTROL, "no-store");
    if (allow) MHD_add_response_header(r, MHD_HTTP_HEADER_ALLOW, allow);
    enum MHD_Result ret = MHD_queue_response(conn, code, r);
    MHD_destroy_response(r);
    return ret;
}

/* A plain-text body "msg\n" (malloc'd). */
static enum MHD_Result respond_text(struct MHD_Connection *conn, unsigned code, const char *msg, const char *allow)
{
    size_t n = strlen(msg);
    char *body = malloc(n + 2);
    if (!body) return MHD_NO;
    memcpy(body, msg, n);
    memcpy(body + n, "\n", 2);
    return respond(conn, code, body, "text/plain; charset=utf-8", allow);
}

/* GET /status or /metrics: the service's document, or its error. */
static enum MHD_Result serve_doc(struct MHD_Connection *conn, czk_status (*get)(czk_service *, char **),
                                 czk_service *svc, const char *type)
{
    if (!svc) return respond_text(conn, MHD_HTTP_SERVICE_UNAVAILABLE, "no proving service", NULL);
    char *doc = NULL;
    czk_status st = get(svc, &doc);
    if (st != CZK_OK) {
        free(doc);
        unsigned code = st == CZK_ERR_UNAVAILABLE ? MHD_HTTP_SERVICE_UNAVAILABLE : MHD_HTTP_INTERNAL_SERVER_ERROR;
        return respond_text(conn, code, czk_last_error(), NULL);
    }
    return respond(conn, MHD_HTTP_OK, doc, type, NULL);
}

static enum MHD_Result on_request(void *cls, struct MHD_Connection *conn, const char *url, const char *method,
                                  const char *version, const char *upload_data, size_t *upload_data_size,
                                  void **con_cls)
{
    struct czk_http *h = cls;
    int is_status = !strcmp(url, "/status"), is_metrics = !strcmp(url, "/metrics");
    if (!is_status && !is_metrics)
        return respond_text(conn, MHD_HTTP_NOT_FOUND, "not found: GET /status or /metrics", NULL);
    if (strcmp(method, MHD_HTTP_METHOD_GET) && strcmp(method, MHD_HTTP_METHOD_HEAD))
        return respond_text(conn, MHD_HTTP_METHOD_NOT_ALLOWED, "method not allowed: GET or HEAD only", "GET, HEAD");
    if (is_status) return serve_doc(conn, czk_service_status_json, h->svc, "application/json");
    return serve_doc(conn, czk_service_metrics, h->svc, "text/plain; version=0.0.4");
}

/* ---- the server ------------------------------------------------------------------------ */

czk_status czk_http_start(czk_http **out, czk_service *svc, const char *listen)
{
    *out = NULL;
    struct czk_http *h = calloc(1, sizeof *h);
    if (!h) return czk_error(CZK_ERR_NOMEM, "HTTP status server");
    h->svc = svc;
    int fd = -1;
    czk_status st = listen_socket(&fd, &h->port, listen);
    if (st != CZK_OK) {
        free(h);
        return st;
    }
    h->d = MHD_start_daemon(MHD_USE_AUTO_INTERNAL_THREAD | MHD_USE_ERROR_LOG, 0, NULL, NULL, on_request, h,
                            MHD_OPTION_LISTEN_SOCKET, (MHD_socket)fd,
                            MHD_OPTION_CONNECTION_LIMIT, (unsigned)HTTP_CONNECTION_LIMIT,
                            MHD_OPTION_CONNECTION_TIMEOUT, (unsigned)HTTP_TIMEOUT_S, MHD_OPTION_END);
    if (!h->d) {
        close(fd);
        free(h);
        return czk_error(CZK_ERR_IO, "HTTP status server on %s: libmicrohttpd did not start", listen);
    }
    *out = h;
    return CZK_OK;
}

int czk_http_port(const czk_http *h) { return h ? h->port : 0; }

void czk_http_stop(czk_http *h)
{
    if (!h) return;
    MHD_stop_daemon(h->d); /* closes the listening socket */
    free(h);
}
