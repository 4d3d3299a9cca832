/* czk serve's HTTP status server (czk_http_*), spoken to over a plain
 * socket: GET /status (JSON) and GET /metrics (Prometheus text) from the
 * service, 404 for other paths, 405 with Allow for other methods, HEAD,
 * port 0, IPv4, IPv6 and localhost, addresses refused before binding, a
 * bind failure on a taken port naming the address and errno, a restart on
 * the same port after a stop, no descriptor left behind, 503 without a
 * service.
 *
 * While the service is the placeholder (czk_service_create returns
 * CZK_ERR_UNSUPPORTED), /status and /metrics must be 500 with the
 * service's message, and the 200 assertions are skipped with a note. */
#include <arpa/inet.h>
#include <dirent.h>
#include <errno.h>
#include <netinet/in.h>
#include <pthread.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include <jansson.h>

#include "runner.h"

#include "czk/czk.h"
#include "server/server.h"

/* One HTTP exchange as the client saw it. */
typedef struct {
    int code;              /* 0: no well-formed status line */
    char head[4096];       /* status line and headers */
    char *body;            /* malloc'd, NUL-terminated */
    size_t body_len;
} reply;

static void reply_clear(reply *r)
{
    free(r->body);
    memset(r, 0, sizeof *r);
}

/* A TCP connection to host (an IPv4 or IPv6 literal) and port; -1 on failure. */
static int dial(const char *host, int port)
{
    struct sockaddr_storage ss;
    socklen_t len;
    memset(&ss, 0, sizeof ss);
    struct sockaddr_in *a4 = (struct sockaddr_in *)&ss;
    struct sockaddr_in6 *a6 = (struct sockaddr_in6 *)&ss;
    if (inet_pton(AF_INET, host, &a4->sin_addr) == 1) {
        a4->sin_family = AF_INET;
        a4->sin_port = htons((uint16_t)port);
        len = sizeof *a4;
    } else if (inet_pton(AF_INET6, host, &a6->sin6_addr) == 1) {
        a6->sin6_family = AF_INET6;
        a6->sin6_port = htons((uint16_t)port);
        len = sizeof *a6;
    } else return -1;
    int fd = socket(ss.ss_family, SOCK_STREAM, 0);
    if (fd < 0) return -1;
    struct timeval tv = {10, 0}; /* a hung server fails the test instead of hanging it */
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);
    if (connect(fd, (struct sockaddr *)&ss, len) != 0) {
        close(fd);
        return -1;
    }
    return fd;
}

/* Send "METHOD path HTTP/1.1" with Connection: close and read the reply
 * to the end. Returns 0 on a well-formed reply. */
static int request(reply *r, const char *host, int port, const char *method, const char *path)
{
    memset(r, 0, sizeof *r);
    int fd = dial(host, port);
    if (fd < 0) return -1;
    char req[512];
    int n = snprintf(req, sizeof req, "%s %s HTTP/1.1\r\nHost: test\r\nConnection: close\r\n\r\n", method, path);
    if (send(fd, req, (size_t)n, MSG_NOSIGNAL) != n) {
        close(fd);
        return -1;
    }
    size_t cap = 1 << 16, len = 0;
    char *buf = malloc(cap + 1);
    for (;;) {
        if (len == cap) buf = realloc(buf, (cap *= 2) + 1);
        ssize_t got = recv(fd, buf + len, cap - len, 0);
        if (got <= 0) break;
        len += (size_t)got;
    }
    close(fd);
    buf[len] = 0;
    char *end = strstr(buf, "\r\n\r\n");
    if (!end || sscanf(buf, "HTTP/1.%*d %d", &r->code) != 1) {
        free(buf);
        return -1;
    }
    size_t hlen = (size_t)(end - buf);
    snprintf(r->head, sizeof r->head, "%.*s", (int)hlen, buf);
    r->body_len = len - hlen - 4;
    r->body = malloc(r->body_len + 1);
    memcpy(r->body, end + 4, r->body_len + 1);
    free(buf);
    return 0;
}

/* The value of a header (case-insensitive name), or "" (static storage). */
static const char *header(const reply *r, const char *name)
{
    static char value[512];
    value[0] = 0;
    size_t n = strlen(name);
    for (const char *line = strstr(r->head, "\r\n"); line; line = strstr(line + 2, "\r\n")) {
        const char *l = line + 2;
        if (!strncasecmp(l, name, n) && l[n] == ':') {
            l += n + 1;
            while (*l == ' ') l++;
            const char *e = strstr(l, "\r\n");
            snprintf(value, sizeof value, "%.*s", (int)(e ? (size_t)(e - l) : strlen(l)), l);
            break;
        }
    }
    return value;
}

/* Open file descriptors of this process. */
static int count_fds(void)
{
    DIR *d = opendir("/proc/self/fd");
    if (!d) return -1;
    int n = 0;
    while (readdir(d)) n++;
    closedir(d);
    return n;
}

/* Every line of a Prometheus text exposition (version 0.0.4) is empty, a
 * "# HELP" / "# TYPE" comment or "name{labels} value"; the first that is
 * not, or NULL. */
static const char *bad_prometheus_line(const char *text)
{
    static char line[512];
    regex_t re;
    if (regcomp(&re,
                "^(# (HELP|TYPE) [a-zA-Z_:][a-zA-Z0-9_:]* .*|"
                "[a-zA-Z_:][a-zA-Z0-9_:]*(\\{([a-zA-Z_][a-zA-Z0-9_]*=\"[^\"]*\",?)*\\})? "
                "([-+]?[0-9.]+([eE][-+]?[0-9]+)?|NaN|[-+]Inf)|)$",
                REG_EXTENDED | REG_NOSUB) != 0)
        return "(regcomp failed)";
    const char *bad = NULL;
    for (const char *p = text; *p && !bad;) {
        const char *e = strchr(p, '\n');
        size_t n = e ? (size_t)(e - p) : strlen(p);
        snprintf(line, sizeof line, "%.*s", (int)n, p);
        if (regexec(&re, line, 0, NULL, 0) != 0) bad = line;
        p += n + (e ? 1 : 0);
    }
    regfree(&re);
    return bad;
}

/* A service to serve, or NULL while the service is the placeholder. */
static czk_service *make_service(void)
{
    czk_service_opts o;
    memset(&o, 0, sizeof o);
    o.param_cache = czk_test_tmpdir();
    o.threads = 1;
    o.memory_budget = 1ull << 30;
    czk_service *svc = NULL;
    czk_status st = czk_service_create(&svc, &o);
    if (st == CZK_ERR_UNSUPPORTED) {
        printf("  note: czk_service_create: %s: the service is a placeholder; the 200 checks are skipped\n",
               czk_last_error());
        return NULL;
    }
    CHECK_OK(st);
    return svc;
}

CZK_TEST(prometheus_line_check)
{
    CHECK(bad_prometheus_line("# HELP x A thing.\n# TYPE x counter\nx 1\n"
                              "x{kind=\"a\",le=\"+Inf\"} 2.5e-3\n\n") == NULL);
    CHECK(bad_prometheus_line("x NaN\ny -Inf\n") == NULL);
    CHECK(bad_prometheus_line("x 1\nnot a metric\n") != NULL);
    CHECK(bad_prometheus_line("x{kind=a} 1\n") != NULL);
    CHECK(bad_prometheus_line("9x 1\n") != NULL);
}

CZK_TEST(status_and_metrics)
{
    czk_service *svc = make_service();
    if (czk_test_failures()) return;
    czk_http *h;
    REQUIRE_OK(czk_http_start(&h, svc, "127.0.0.1:0"));
    int port = czk_http_port(h);
    CHECK(port > 0 && port < 65536);
    reply r;
    REQUIRE(request(&r, "127.0.0.1", port, "GET", "/status") == 0);
    if (svc) {
        CHECK_MSG(r.code == 200, "GET /status: %d %s", r.code, r.body);
        CHECK(!strcmp(header(&r, "Content-Type"), "application/json"));
        json_error_t err;
        json_t *doc = json_loads(r.body, 0, &err);
        CHECK_MSG(doc && json_is_object(doc), "GET /status: not a JSON object (%s): %.200s", err.text, r.body);
        CHECK_MSG(json_is_integer(json_object_get(doc, "uptime_secs")), "GET /status: no uptime_secs: %.200s",
                  r.body);
        json_decref(doc);
    } else {
        CHECK_MSG(r.code == 500, "GET /status from the placeholder: %d", r.code);
        CHECK_MSG(strstr(r.body, "not yet"), "GET /status: body '%s'", r.body);
        CHECK(!strncmp(header(&r, "Content-Type"), "text/plain", 10));
    }
    reply_clear(&r);
    REQUIRE(request(&r, "127.0.0.1", port, "GET", "/metrics") == 0);
    if (svc) {
        CHECK_MSG(r.code == 200, "GET /metrics: %d %s", r.code, r.body);
        CHECK(!strcmp(header(&r, "Content-Type"), "text/plain; version=0.0.4"));
        CHECK_MSG(strstr(r.body, "cuzk_proofs_completed_total"), "GET /metrics: %.200s", r.body);
        const char *bad = bad_prometheus_line(r.body);
        CHECK_MSG(!bad, "GET /metrics: not Prometheus text: '%s'", bad);
    } else {
        CHECK_MSG(r.code == 500, "GET /metrics from the placeholder: %d", r.code);
        CHECK(strstr(r.body, "not yet"));
    }
    reply_clear(&r);
    /* HEAD: the same status, no body */
    REQUIRE(request(&r, "127.0.0.1", port, "HEAD", "/status") == 0);
    CHECK(r.code == (svc ? 200 : 500));
    CHECK_EQ_U64(r.body_len, 0);
    reply_clear(&r);
    czk_http_stop(h);
    czk_service_destroy(svc);
}

/* One client thread of concurrent_clients: n GETs of /status, the count
 * of replies with the expected code. */
typedef struct {
    int port, n, want, ok;
} client_job;

static void *client(void *arg)
{
    client_job *j = arg;
    for (int i = 0; i < j->n; i++) {
        reply r;
        if (request(&r, "127.0.0.1", j->port, "GET", "/status") == 0 && r.code == j->want) j->ok++;
        reply_clear(&r);
    }
    return NULL;
}

CZK_TEST(concurrent_clients)
{
    czk_service *svc = make_service();
    if (czk_test_failures()) return;
    czk_http *h;
    REQUIRE_OK(czk_http_start(&h, svc, "127.0.0.1:0"));
    enum { T = 8, N = 25 };
    client_job jobs[T];
    pthread_t th[T];
    for (int t = 0; t < T; t++) {
        jobs[t] = (client_job){czk_http_port(h), N, svc ? 200 : 500, 0};
        REQUIRE(pthread_create(&th[t], NULL, client, &jobs[t]) == 0);
    }
    for (int t = 0; t < T; t++) {
        pthread_join(th[t], NULL);
        CHECK_MSG(jobs[t].ok == N, "client %d: %d of %d replies as expected", t, jobs[t].ok, N);
    }
    czk_http_stop(h);
    czk_service_destroy(svc);
}

CZK_TEST(not_found_and_method_not_allowed)
{
    czk_http *h;
    REQUIRE_OK(czk_http_start(&h, NULL, "127.0.0.1:0"));
    int port = czk_http_port(h);
    static const char *const paths[] = {"/", "/nope", "/status/", "/status/x", "/metricsx", "/STATUS"};
    reply r;
    for (size_t i = 0; i < sizeof paths / sizeof *paths; i++) {
        REQUIRE(request(&r, "127.0.0.1", port, "GET", paths[i]) == 0);
        CHECK_MSG(r.code == 404, "GET %s: %d", paths[i], r.code);
        reply_clear(&r);
    }
    static const char *const methods[] = {"POST", "PUT", "DELETE", "PATCH", "OPTIONS"};
    for (size_t i = 0; i < sizeof methods / sizeof *methods; i++) {
        REQUIRE(request(&r, "127.0.0.1", port, methods[i], i % 2 ? "/metrics" : "/status") == 0);
        CHECK_MSG(r.code == 405, "%s: %d", methods[i], r.code);
        CHECK_MSG(strstr(header(&r, "Allow"), "GET"), "%s: Allow '%s'", methods[i], header(&r, "Allow"));
        reply_clear(&r);
    }
    /* no service: 503 */
    REQUIRE(request(&r, "127.0.0.1", port, "GET", "/status") == 0);
    CHECK_MSG(r.code == 503 && strstr(r.body, "no proving service"), "GET /status without a service: %d %s", r.code,
              r.body);
    reply_clear(&r);
    /* many requests one after another on the one server thread */
    for (int i = 0; i < 50; i++) {
        REQUIRE(request(&r, "127.0.0.1", port, "GET", "/nope") == 0);
        CHECK(r.code == 404);
        reply_clear(&r);
    }
    czk_http_stop(h);
}

CZK_TEST(addresses)
{
    czk_http *h;
    reply r;
    /* localhost is 127.0.0.1 */
    REQUIRE_OK(czk_http_start(&h, NULL, "localhost:0"));
    REQUIRE(request(&r, "127.0.0.1", czk_http_port(h), "GET", "/nope") == 0);
    CHECK(r.code == 404);
    reply_clear(&r);
    czk_http_stop(h);
    /* IPv6 loopback, where the machine has it */
    czk_status st = czk_http_start(&h, NULL, "[::1]:0");
    if (st == CZK_OK) {
        REQUIRE(request(&r, "::1", czk_http_port(h), "GET", "/nope") == 0);
        CHECK(r.code == 404);
        reply_clear(&r);
        czk_http_stop(h);
    } else {
        printf("  note: no IPv6 loopback here (%s); [::1] not tested\n", czk_last_error());
        CHECK(st == CZK_ERR_IO);
    }
    static const char *const bad[] = {
        "",           "nohost",      "127.0.0.1",  "127.0.0.1:",   "127.0.0.1:99999", "127.0.0.1:-1",
        "127.0.0.1:8x", ":8080",     "[::1:80",    "::1:80",       "[::g]:80",        "example.com:80",
        "256.1.1.1:80", "unix:///run/czk.sock",
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        h = (czk_http *)&r; /* must be reset to NULL */
        st = czk_http_start(&h, NULL, bad[i]);
        CHECK_MSG(st == CZK_ERR_INVALID_ARG, "'%s': status %d", bad[i], st);
        CHECK(h == NULL);
        if (*bad[i]) CHECK_MSG(strstr(czk_last_error(), bad[i]), "'%s': message '%s'", bad[i], czk_last_error());
    }
    CHECK(czk_http_start(&h, NULL, NULL) == CZK_ERR_INVALID_ARG);
    czk_http_stop(NULL);
    CHECK_EQ_U64(czk_http_port(NULL), 0);
}

CZK_TEST(bind_failure_and_restart)
{
    /* a port taken by a listening socket of ours */
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    REQUIRE(fd >= 0);
    struct sockaddr_in a;
    memset(&a, 0, sizeof a);
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t len = sizeof a;
    REQUIRE(bind(fd, (struct sockaddr *)&a, len) == 0 && listen(fd, 1) == 0);
    REQUIRE(getsockname(fd, (struct sockaddr *)&a, &len) == 0);
    char addr[64];
    snprintf(addr, sizeof addr, "127.0.0.1:%d", ntohs(a.sin_port));
    czk_http *h;
    czk_status st = czk_http_start(&h, NULL, addr);
    CHECK(st == CZK_ERR_IO);
    CHECK(h == NULL);
    CHECK_MSG(strstr(czk_last_error(), addr) && strstr(czk_last_error(), strerror(EADDRINUSE)),
              "message '%s'", czk_last_error());
    close(fd);

    /* serve, stop, and serve again on the same port (its connections in TIME_WAIT) */
    REQUIRE_OK(czk_http_start(&h, NULL, "127.0.0.1:0"));
    int port = czk_http_port(h);
    reply r;
    REQUIRE(request(&r, "127.0.0.1", port, "GET", "/nope") == 0);
    reply_clear(&r);
    czk_http_stop(h);
    int again = dial("127.0.0.1", port);
    CHECK_MSG(again < 0, "port %d still accepts after czk_http_stop", port);
    if (again >= 0) close(again);
    snprintf(addr, sizeof addr, "127.0.0.1:%d", port);
    REQUIRE_OK(czk_http_start(&h, NULL, addr));
    CHECK_EQ_U64(czk_http_port(h), port);
    REQUIRE(request(&r, "127.0.0.1", port, "GET", "/nope") == 0);
    CHECK(r.code == 404);
    reply_clear(&r);
    czk_http_stop(h);

    /* the listening socket goes with the server */
    int fds = count_fds();
    for (int i = 0; i < 10; i++) {
        REQUIRE_OK(czk_http_start(&h, NULL, "127.0.0.1:0"));
        czk_http_stop(h);
    }
    CHECK_EQ_U64(count_fds(), fds);
}
